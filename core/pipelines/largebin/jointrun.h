#pragma once
// A joint histogram run as the front ends ask for it (histlab-cli joint, the window's Joint
// tab): the two planes and the mask made from images, the run (the CPU reference, its MI and
// NMI, the read-only ceiling and each method on the device) and its reports.
#include "pipelines/devicesplit.h"
#include "pipelines/largebin/coloc.h"
#include "pipelines/largebin/joint.h"
#include "report/json.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace histlab {

struct JointRequest {
    SamplePlane a, b;
    std::vector<std::uint8_t> mask;
    std::string maskSource;
    JointSpec spec;
    std::vector<LargeBinMethod> methods;
    int repeats = 5;
    /// Colocalisation too (three passes over the pairs with the stepwise search, about
    /// log2(max - min) + 2 with the bisection, and as many CPU reference passes); the dashboard,
    /// which times the count alone, leaves it out, as does --coloc off.
    bool colocalise = true;
    CostesSearch costes = CostesSearch::Stepwise;
};

/// What any joint run counted: its inputs, the table and its entropies.
struct JointCounts {
    std::string sourceA, sourceB, maskSource;
    std::size_t pairs = 0;
    JointSpec spec;
    JointHistogram histogram;
    MutualInformation mi;
    /// Colocalisation over the counted pairs: the device's (equal to the CPU reference's when
    /// verified), or the reference's where the device's passes did not run.
    Colocalisation coloc;
    /// Verified: the device's sums equal the reference's; Mismatch: `colocDetail` says where;
    /// Unsupported: not computed (float samples); Failed: the device could not run the passes.
    Status colocStatus = Status::Unsupported;
    std::string colocDetail;
    /// Wall clock of the passes: on the device(s), each read back; and the CPU reference's.
    double colocDeviceMs = 0, colocReferenceMs = 0;
};

struct JointRun : JointCounts {
    DeviceInfo device;
    CeilingResult ceiling;
    std::vector<JointPoint> points;
    /// Whole MI evaluations on the device with the method auto picks (histogram, entropies,
    /// read back), after the methods.
    MiEvaluation miEvaluation;
};

/// The request for channel `channelA` of `first` against `channelB` of `second` (the same image
/// for two channels of one): InputError naming both files when their sizes differ, or naming
/// the mask when it is not one channel of that size; UsageError for a channel an image lacks
/// ("--channel") or bins/ranges out of bounds. `mask`: null, or non-zero pixels are counted.
JointRequest makeJointRequest(const HostImage& first, const HostImage& second,
                              const std::string& channelA, const std::string& channelB,
                              std::pair<int, int> bins, const std::optional<BinRange>& rangeA,
                              const std::optional<BinRange>& rangeB, const HostImage* mask,
                              const std::vector<LargeBinMethod>& methods, int repeats);

/// The CPU reference and its MI, the read-only ceiling on plane A, then each method on the
/// device (`onPoint` hears each as it ends), then the colocalisation passes on the device,
/// verified against the CPU reference's sums. Throws CancelledError.
JointRun runJoint(Device& device, const JointRequest& request, const CancelToken& cancel = {},
                  const std::function<void(const JointPoint&)>& onPoint = {});

/// The entropies, MI, NMI and a table of the methods.
std::string jointText(const JointRun& run);
/// Rows = bins of A, columns = bins of B: "a_bin,b0,b1,..." then one row per bin of A.
std::string jointCsv(const JointCounts& run);
/// The whole run: inputs, bins and marginals per axis, entropies, MI, NMI (null where
/// undefined), every method's timing.
std::string jointJson(const JointRun& run);

/// The colocalisation of `r` on a device (`passes`: the device's) into `counts`, verified
/// against the CPU reference's sums, made after the device's: by `reference` where given (a
/// stack's, over pages read again), else colocalisationReference of r's planes.
void colocaliseCounts(JointCounts& counts, const JointRequest& r, const ColocPasses& passes,
                      const std::function<Colocalisation()>& reference = {});
/// The "colocalisation" object of the JSON reports (null where a coefficient is undefined).
Json colocalisationJson(const Colocalisation& c, Status status, const std::string& detail,
                        double deviceMs, double referenceMs);
/// The colocalisation lines of the text reports.
std::string colocLines(const JointCounts& run);

/// The joint histogram split across `devices` (runSplit): pieces of the pairs, each device
/// counting with the method the request names (one, or none for auto; auto resolved on each
/// device), sent from
/// pinned host memory end to end (both planes and the mask written, then counted: not
/// overlapped), and kernels only. Verified cell by cell against the CPU reference: each device
/// alone and the split. The colocalisation passes run on the same pieces, each device its
/// own, the sums added. Throws UsageError("--method") for more than one method.
struct JointSplitRun : SplitTiming, JointCounts {};
JointSplitRun runJointSplit(const std::vector<Device*>& devices, const JointRequest& request,
                            const DeviceFault& fault = {}, const CancelToken& cancel = {});
/// The inputs, entropies and MI, then the devices' shares and the speed-ups.
std::string jointSplitText(const JointSplitRun& run);
/// The inputs, marginals, entropies and MI as jointJson writes them, then the split's.
std::string jointSplitJson(const JointSplitRun& run);

} // namespace histlab
