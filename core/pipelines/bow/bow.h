#pragma once
// Bag-of-visual-words assignment (kernels/bow.cl): descriptors of DIM floats, each assigned to its
// nearest centroid of a K x DIM codebook (squared Euclidean distance, ties to the lowest index),
// and the histogram of the assignments. The reference text's five kernels (GPU1 ... GPU5) and
// HistLab's tiled ones (the direct distance, and the ||c||^2 - 2 x.c form), each planned per
// device, timed, and verified label by label against the CPU reference in double precision.
#include "pipelines/pipeline.h"
#include "report/status.h"
#include "runtime/cancel.h"
#include "runtime/device.h"
#include "runtime/timing.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace histlab {

/// `count` descriptors of `dim` floats, descriptor-major (descriptor i at values[i * dim]).
struct Descriptors {
    std::size_t count = 0;
    std::size_t dim = 0;
    std::vector<float> values;
};

/// A codebook of `k` centroids of `dim` floats, centroid-major; the layout of OpenCV's
/// BOWImgDescriptorExtractor vocabulary (a K x DIM CV_32F matrix).
struct Codebook {
    std::size_t k = 0;
    std::size_t dim = 0;
    std::vector<float> values;
};

/// The largest descriptor dimension the kernels are built for.
inline constexpr std::size_t kBowMaxDim = 256;

enum class BowKernel { Gpu1, Gpu2, Gpu3, Gpu4, Gpu5, Tiled, TiledNorm, BlockNorm };

/// Every kernel, in the text's order then HistLab's.
const std::vector<BowKernel>& allBowKernels();
/// "gpu1" ... "gpu5", "tiled", "tiled-norm", "block-norm".
const char* bowKernelName(BowKernel kernel);
/// The kernel named `name`; throws UsageError("--kernel") for any other name.
BowKernel parseBowKernel(const std::string& name);

/// Labels (one per descriptor) and the histogram of K counts.
struct Assignment {
    std::vector<std::uint32_t> labels;
    std::vector<std::uint64_t> histogram;
};

/// The squared Euclidean distance of two rows of `dim` floats in double precision, summed
/// feature by feature in order: the reference's arithmetic (nearestCentroid, k-means).
double squaredDistance(const float* a, const float* b, std::size_t dim);

/// The nearest centroid of the descriptor at `x` (codebook.dim floats): squared distances in
/// double precision, summed feature by feature in order; the first centroid at the smallest
/// distance wins; a NaN distance never wins (centroid 0 when every distance is NaN).
std::uint32_t nearestCentroid(const float* x, const Codebook& codebook);

/// work(lo, hi) over contiguous shares of [0, count), one a host core (one share when count is
/// below `minShare` a core), joined before it returns.
void forEachShare(std::size_t count, std::size_t minShare,
                  const std::function<void(std::size_t lo, std::size_t hi)>& work);

/// "" when `got` equals `want`, else where they first differ ("descriptor 12: centroid 3,
/// reference 5", or "bin 7: ..."); `got` holds as many labels and bins as `want`.
std::string firstMismatch(const Assignment& got, const Assignment& want);

/// The CPU reference: nearestCentroid for every descriptor, and the histogram.
Assignment assignReference(const Descriptors& descriptors, const Codebook& codebook);

/// Synthetic data, repeatable for a seed: descriptors drawn around `clusters` random centres in
/// [0, 1)^dim (as local features gather around a few patterns), and a codebook of k of them.
Descriptors makeSyntheticDescriptors(std::size_t count, std::size_t dim, std::uint64_t seed);
Codebook makeSyntheticCodebook(std::size_t k, std::size_t dim, std::uint64_t seed);

/// Floating-point operations a kernel does for one descriptor: 3 K DIM for the distance (a
/// subtraction, a multiplication and an addition per feature and centroid), 2 K DIM for the
/// norm form's multiply-add (tiled-norm, block-norm).
double bowFlopsPerDescriptor(BowKernel kernel, std::size_t k, std::size_t dim);

/// How a kernel runs on a device for K and DIM (the plan: the one place that decides).
struct BowGeometry {
    BowKernel kernel = BowKernel::Gpu1;
    bool supported = true;
    std::string why;               ///< why not, when unsupported
    std::size_t workGroupSize = 0; ///< items per work-group
    std::size_t groups = 0;        ///< work-groups launched
    std::size_t rows = 1;          ///< tiled*, block-norm: descriptors per work-item
    std::size_t tile = 0;          ///< tiled*, block-norm: centroids staged at a time
    bool localHistogram = false;   ///< tiled*, block-norm: counted per work-group in local memory
    std::size_t cols = 1;          ///< block-norm: centroids per work-item
    std::size_t across = 1;        ///< block-norm: work-items across the descriptors
    /// "wg 256 x 40 groups", "wg 128 x 8 groups, 2 rows, tiles of 128 centroids, local
    /// histogram", "wg 256 x 8 groups, 8 x 8 a work-item, 128 descriptors x tiles of 128
    /// centroids, local histogram"
    std::string describe() const;
};

/// Whether and how `kernel` runs `count` descriptors against K centroids of DIM floats on the
/// device: the float4 kernels need DIM a multiple of 4; GPU5 needs the codebook to fit constant
/// memory; GPU4/GPU5/tiled size their work-groups to the local memory.
BowGeometry planBowKernel(const DeviceInfo& device, BowKernel kernel, std::size_t count,
                          std::size_t k, std::size_t dim);

/// One kernel's run: its geometry, status, timings, and its (resolved) assignment.
struct BowRun {
    BowKernel kernel = BowKernel::Gpu1;
    BowGeometry geometry;
    Status status = Status::Unsupported;
    std::string detail;
    std::string buildOptions;
    TimingStats stats;         ///< kernel time (the launch and the clearing of the histogram)
    Assignment result;         ///< after the ambiguous labels were resolved on the host
    std::size_t ambiguous = 0; ///< labels the device marked too close to call, resolved in double
    double resolveMs = 0;      ///< wall clock of resolving them, median of the runs (not in
                               ///< the kernel time)
    /// The device's time for them (listing and deciding, profiled as the kernel is: launch
    /// latency on the host left out), median of the runs; 0 when they were decided on the host.
    double resolveDeviceMs = 0;
    std::string resolvedOn; ///< "device" (double precision there) or "host"; "" if none
    double descriptorsPerSecond = 0;
    /// Floating-point operations a second: 3 K DIM a descriptor (2 K DIM for the norm form's
    /// multiply-adds) / median time.
    double gflops = 0;
};

/// One kernel's exact assignment on one device. The descriptors stay on the device (in the
/// kernel's layout) while codebooks change, as k-means's iterations need; a launch marks the
/// labels its float arithmetic cannot call, and result() decides them in double precision.
class BowAssigner {
public:
    BowAssigner(Device& device, BowKernel kernel);
    /// Uploads the descriptors; they are read again by result() and must outlive its calls.
    void setDescriptors(const Descriptors& descriptors);
    /// Uploads the centroids (and their norms, for the tiled kernels); the codebook is read
    /// again by result() and must outlive its calls.
    void setCodebook(const Codebook& codebook);
    /// Plans as for `device` instead of the device it runs on: the tests run the geometries
    /// planned for a GPU on the CPU device, where every index of them can be checked.
    void planAs(const DeviceInfo& device);
    /// The plan for the descriptors and codebook set (unsupported, with its reason, before both).
    const BowGeometry& geometry() const { return m_geometry; }
    /// The build options of the kernel ("" before both are set).
    const std::string& buildOptions() const { return m_options; }
    /// One launch: the histogram cleared and every descriptor assigned; the events' profiled
    /// milliseconds. Throws UsageError("--kernel") where the plan is unsupported.
    double launch();
    /// The last launch's labels and histogram, each ambiguous label decided in double precision
    /// (nearestCentroid's arithmetic): equal to assignReference. On a device with cl_khr_fp64
    /// the decisions are made there (only a counter is read before the labels); else on the
    /// host's cores after the labels are read.
    Assignment result();
    std::size_t ambiguous() const { return m_ambiguous; } ///< of the last result()
    double resolveMs() const { return m_resolveMs; }      ///< its wall clock, ms
    /// Its profiled device time (listing and deciding), ms; 0 where decided on the host.
    double resolveDeviceMs() const { return m_resolveDeviceMs; }
    const std::string& resolvedOn() const { return m_where; } ///< "device", "host" or ""

private:
    void replan();
    void upload();
    /// bow_list_ambiguous and bow_resolve on the device; the number of labels decided.
    std::size_t resolveOnDevice();

    Device& m_device;
    BowKernel m_kernel;
    std::optional<DeviceInfo> m_planAs;
    const Descriptors* m_descriptors = nullptr;
    const Codebook* m_codebook = nullptr;
    bool m_descriptorsOnDevice = false, m_codebookOnDevice = false;
    BowGeometry m_geometry;
    std::string m_options, m_kernelOptions;
    cl::Kernel m_assign;
    cl::Buffer m_desc, m_cents, m_norms, m_labels, m_hist;
    cl::Buffer m_list, m_found; ///< the ambiguous labels' indices and their count
    cl::Buffer m_centsT;        ///< the codebook feature-major, for bow_resolve
    cl::Kernel m_listKernel, m_resolveKernel;
    std::string m_resolveOptions; ///< the build options of the two
    std::size_t m_listCapacity = 0;
    float m_maxNorm = 0;
    std::size_t m_ambiguous = 0;
    double m_resolveMs = 0, m_resolveDeviceMs = 0;
    std::string m_where;
};

/// The device's FP32 multiply-add peak (bow_fma_peak: independent chains of float4, float8 and
/// float16, as clpeak; the fastest), for the "% of peak" of each kernel.
struct Fp32Peak {
    TimingStats stats;
    double gflops = 0;   ///< 2 operations a multiply-add / median time
    std::string detail;  ///< why there is none, when the kernel failed
    std::string variant; ///< the fastest of the variants run: "float8 chains, work-groups of 1"
};
Fp32Peak measureFp32Peak(Device& device, int repeats, const CancelToken& cancel);

/// Runs `kernel` `repeats` times after a warm-up on the device, resolves its ambiguous labels in
/// double precision, and compares labels and histogram with `reference`.
BowRun runBowKernel(Device& device, const Descriptors& descriptors, const Codebook& codebook,
                    BowKernel kernel, const Assignment& reference, int repeats,
                    const CancelToken& cancel);

/// What a person asks of histlab-cli bow bench.
struct BowBenchParams {
    std::size_t count = 0; ///< --count (0: the plan's default for the device)
    std::size_t k = 1024;
    std::size_t dim = 64;
    std::uint64_t seed = 1;
    std::vector<BowKernel> kernels = allBowKernels();
    int repeats = 5;
    bool compareOpenCv = false;
};

/// The parameters with the device's defaults filled in (each kernel plans itself per device in
/// runBowKernel: planBowKernel).
struct BowBenchPlan {
    BowBenchParams params;
};

/// cv::BFMatcher(NORM_L2)::match on the same descriptors and codebook, on the host's CPU.
struct BowPeer {
    bool ran = false;
    double ms = 0; ///< wall clock of one match
    double descriptorsPerSecond = 0;
    std::size_t disagreements = 0; ///< labels that differ from the exact ones
    std::string detail;
};

/// bow bench's result: every kernel's run, against the FP32 peak (and OpenCV's matcher).
struct BowBenchResult {
    DeviceInfo device;
    BowBenchParams params;
    Fp32Peak peak;
    BowPeer peer;
    std::vector<BowRun> runs;
    double percentOfPeak(const BowRun& run) const {
        return peak.gflops > 0 ? 100.0 * run.gflops / peak.gflops : 0.0;
    }
    /// The fastest verified run's index, or -1.
    int best() const {
        int b = -1;
        for (std::size_t i = 0; i < runs.size(); ++i)
            if (runs[i].status == Status::Verified &&
                (b < 0 || runs[i].stats.medianMs < runs[std::size_t(b)].stats.medianMs))
                b = int(i);
        return b;
    }
};

/// bow bench's plan: the parameters with the device's default descriptor count; UsageError for
/// descriptors or a codebook the device cannot hold.
BowBenchPlan planBowBench(const DeviceInfo& device, const BowBenchParams& params);

/// bow bench's run: synthetic descriptors and codebook, the FP32 peak, then every kernel,
/// verified label by label against the CPU reference; streams each kernel's BowRun.
BowBenchResult runBowBenchJob(JobContext& ctx, Device& device, const BowBenchPlan& plan,
                              const ItemSink& onItem);

} // namespace histlab
