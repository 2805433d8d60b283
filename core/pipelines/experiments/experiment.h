#pragma once
// Experiments: why a histogram kernel is as fast as it is. An experiment is a grid of kernel
// configurations x input distributions x devices; every point is timed (warm-up, then repeats
// until the spread is small or a cap is reached), judged against the same device's read-only
// kernel on the same buffer in the same run, and verified against the CPU reference. Points
// stream out as they finish; one failing point is reported and the sweep goes on.
//
// The built-in experiments follow the figures of "OpenCL Case Study: Histogram":
//   banks    GB/s against local sub-histogram copies (1, 2, 4 ... what local memory holds),
//            one curve per distribution: bank conflicts against copies to reduce.
//   reads    GB/s against the number of work-items (from one per compute unit up to one
//            16-byte vector each), four curves: serial/coalesced x scalar/uint4 loads.
//   groups   GB/s for work-groups per compute unit x work-group size (a heatmap).
//   stages   read-only, +scatter, +local reduce, +global merge, for the configuration `auto`
//            picks and for the reference text's.
//   atomics  naive global atomics, one local histogram, banked copies and the CPU-style
//            private variant, per distribution.
// and one of the large-bin histogram (pipelines/largebin), on 16-bit samples:
//   bins     GB/s against the bin count (256, 257, 512 ... 65,536 over the whole 16-bit range),
//            one curve per large-bin method and distribution: where each method stops holding
//            its counters in local memory, and what that costs.
#include "image/image.h"
#include "pipelines/bandwidth/bandwidth.h"
#include "pipelines/baseline.h"
#include "pipelines/histogram256/histogram256.h"
#include "pipelines/largebin/largebin.h"
#include "report/status.h"
#include "runtime/cancel.h"
#include "runtime/device.h"
#include "runtime/runner.h"
#include "runtime/timing.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace histlab {

enum class ExperimentKind { Banks, Reads, Groups, Stages, Atomics, Bins };

/// Every experiment, in the order the front ends list them.
std::vector<ExperimentKind> allExperimentKinds();
/// "banks", "reads", "groups", "stages", "atomics", "bins"; throws UsageError("sweep").
ExperimentKind parseExperimentKind(const std::string& name);
const char* experimentKindName(ExperimentKind kind);
/// The names for a message: "banks, reads, groups, stages, atomics or bins".
std::string experimentKindList();
/// The x axis of each experiment, e.g. "local copies", "work-items".
const char* experimentAxisName(ExperimentKind kind);

/// The distributions an experiment can run, "image" last: the 256-bin experiments' bytes
/// (random, uniform, gradient, skewed: SyntheticKind), bins' 16-bit samples (random, skewed,
/// smooth: LargeBinData).
std::vector<std::string> experimentDistributions(ExperimentKind kind);

/// The distributions an experiment runs when none are named.
std::vector<std::string> defaultDistributions(ExperimentKind kind);

/// Distributions an experiment can run: UsageError("--dist") for a name that is not one of
/// experimentDistributions(kind), and for "image" without an image.
void checkExperimentDistributions(ExperimentKind kind,
                                  const std::vector<std::string>& distributions, bool haveImage);

/// The bins experiment's bin counts when none are named: 256, 257 (one past 256: the cliff
/// where a 256-counter scheme stops), then 512 ... 65,536 doubling.
std::vector<int> defaultBinCounts();

/// The input size of a device when none is asked for: 256 MiB, 64 MiB on a CPU device (beyond
/// their caches; a CPU's OpenCL histograms at a few GB/s).
std::size_t defaultExperimentBytes(const DeviceInfo& device);

/// UsageError("--size") from 4 GiB up (32-bit counts and offsets); a double, so that an
/// absurd size is refused before it is converted.
void checkExperimentBytes(double bytes);

/// The input size a device runs at: `requested` (0: defaultExperimentBytes), in whole 16-byte
/// vectors, at least 16; checkExperimentBytes.
std::size_t experimentBytes(const DeviceInfo& device, std::size_t requested);

struct ExperimentSpec {
    ExperimentKind kind = ExperimentKind::Banks;
    /// experimentDistributions(kind); "image" is the image below as its gray plane (luma of a
    /// color image), repeated to `bytes`: its high bytes for the 256-bin experiments, 16-bit
    /// samples for bins (an 8-bit image's values widened, x 257). Empty: defaultDistributions().
    std::vector<std::string> distributions;
    /// Input size; 0: each device's defaultExperimentBytes.
    std::size_t bytes = 0;
    /// Timed runs at least (after a warm-up). bins times exactly this many: the large-bin
    /// pipeline's recipe (runLargeBinPoint), without the cap below.
    int repeats = 5;
    int maxRepeats = 20;              ///< more runs while the spread is large, up to this many
    double maxSpread = 0.10;          ///< (max - min) / median that counts as small
    const HostImage* image = nullptr; ///< for "image"
    std::vector<int> bins;            ///< bins: the bin counts (empty: defaultBinCounts())
};

/// One configuration of a grid: what runs, and how the point is named and placed.
struct GridEntry {
    HistogramConfig config; ///< the 256-bin experiments' kernel
    int stage = 3;          ///< 0 read-only, 1 +scatter, 2 +local reduce, 3 complete
    /// bins: the bin count, and the large-bin method's geometry as planLargeBinGeometry made it
    /// for the device (unsupported, with why, where the device cannot run it)
    int bins = 0;
    LargeBinGeometry geometry;
    std::string series; ///< the curve it belongs to (without the distribution)
    double x = 0;       ///< its place on the experiment's axis
    double y = 0;       ///< second axis of a heatmap (groups: groups per compute unit)
    /// Every parameter as (name, value), in a fixed order: the point's identity across runs.
    std::vector<std::pair<std::string, std::string>> params;
};

/// The grid of `kind` for a device and an input size (the same on every distribution); `bins`:
/// the bins experiment's bin counts (empty: defaultBinCounts()).
std::vector<GridEntry> experimentGrid(ExperimentKind kind, Device& device, std::size_t bytes,
                                      const CancelToken& cancel = {},
                                      const std::vector<int>& bins = {});

struct ExperimentPoint {
    int device = 0; ///< index into ExperimentRun::devices
    std::string distribution;
    std::string series; ///< the grid entry's series; curves are (distribution, series)
    double x = 0, y = 0;
    std::vector<std::pair<std::string, std::string>> params;
    TimingStats stats; ///< event-profiled kernel milliseconds, warm-up excluded
    double gbps = 0;   ///< input bytes / median time
    double gsps = 0;   ///< G samples/s: input samples / median time (bytes for the 256-bin ones)
    double percentOfCeiling = 0;
    /// verified (complete histogram, bit-exact), timed (a partial stage: nothing to verify),
    /// mismatch, unsupported (the device cannot run it) or failed; report/status.h
    Status status = Status::Failed;
    std::string reason; ///< why, for mismatch / unsupported / failed
    bool ok() const { return statusOk(status); }
};

struct ExperimentCeiling {
    int device = 0;
    std::string distribution;
    CeilingResult ceiling;
};

struct ExperimentRun {
    ExperimentKind kind = ExperimentKind::Banks;
    std::vector<std::string> distributions;
    std::size_t bytes = 0;
    int repeats = 0, maxRepeats = 0;
    std::string date; ///< UTC, ISO 8601
    std::string note; ///< free text (what the image was, a version label ...)
    std::vector<DeviceInfo> devices;
    std::vector<ExperimentCeiling> ceilings;
    std::vector<ExperimentPoint> points;
};

using PointFn = std::function<void(const ExperimentPoint&)>;
using ExperimentProgressFn = std::function<void(double fraction, const std::string& what)>;

/// Runs the experiment on each device (indices into `devices.infos()`), every distribution,
/// every grid entry; calls `onPoint` as each point finishes (on the calling thread). Throws
/// only for what stops the whole run: cancellation, a distribution it does not know, "image"
/// without an image, or no device.
ExperimentRun runExperiment(DeviceSet& devices, const std::vector<int>& deviceIndices,
                            const ExperimentSpec& spec, const CancelToken& cancel = {},
                            const PointFn& onPoint = {}, const ExperimentProgressFn& progress = {});

/// The point of `baseline` with the same experiment, distribution and parameters (any
/// device): what a new point is compared with. nullptr when there is none.
const ExperimentPoint* findBaselinePoint(const ExperimentRun& baseline,
                                         const ExperimentPoint& point);

/// A saved run: everything above, as JSON; and back, also from the files of older versions.
/// Throws InputError naming `source` (the file) and what is wrong.
std::string experimentJson(const ExperimentRun& run);
ExperimentRun parseExperimentJson(const std::string& text,
                                  const std::string& source = "the saved experiment");

/// One row per point, every parameter a column; with a baseline, its GB/s and the ratio.
std::string experimentCsv(const ExperimentRun& run, const ExperimentRun* baseline = nullptr);

/// What a person asks of an experiment: histlab-cli sweep's arguments, the Experiments tab's
/// controls.
struct ExperimentParams {
    std::optional<ExperimentKind> kind; ///< which experiment (required)
    /// --dist: the distributions; unset: defaultDistributions, and "image" when there is one.
    std::optional<std::vector<std::string>> distributions;
    std::optional<std::string> imagePath;   ///< --image FILE
    std::shared_ptr<const HostImage> image; ///< loaded from it
    std::optional<double> sizeMiB;          ///< --size MIB; unset: each device's default
    int repeats = 5;
    std::optional<int> maxRepeats;        ///< --max-repeat N; unset: 20 (bins: refused)
    std::optional<std::vector<int>> bins; ///< --bins N,N...: bins only; unset: the default
    Comparison<ExperimentRun> comparison; ///< --baseline FILE, --note TEXT
};

/// What runs: the spec (its image points into `image`) and each device's input size.
struct ExperimentPlan {
    ExperimentSpec spec;
    std::shared_ptr<const HostImage> image;
    std::vector<std::size_t> bytes; ///< per device, in the order given (experimentBytes)
};

/// What runs of `params` on `devices` (in the order chosen): the experiment, the distributions
/// (defaultDistributions, plus "image" with an image, when none are named), the repeats (the
/// cap at least the minimum), the bin counts (bins), each device's input size. Throws
/// UsageError("sweep") for no experiment, ("--dist") for a distribution it cannot run,
/// ("--size") for a size a device cannot take (or, for bins, a host that cannot hold it),
/// ("--bins") for bin counts asked of another experiment, ("--max-repeat") for a cap asked of
/// bins, ("--device") for no device.
ExperimentPlan planExperiment(const std::vector<DeviceInfo>& devices,
                              const ExperimentParams& params);

/// A point as it streams out of a sweep, with the experiment it belongs to.
struct ExperimentItem {
    ExperimentKind kind = ExperimentKind::Banks;
    ExperimentPoint point;
};

/// histlab-cli sweep's plan: planExperiment, and what its report compares the run with.
struct ExperimentJob {
    ExperimentPlan plan;
    Comparison<ExperimentRun> comparison;
};
ExperimentJob planExperimentJob(const std::vector<DeviceInfo>& devices,
                                const ExperimentParams& params);

/// A finished sweep and the baseline its report compares it with.
struct ExperimentResult {
    ExperimentRun run;
    std::shared_ptr<const ExperimentRun> baseline;
};

/// histlab-cli sweep's run and the Experiments tab's: runExperiment on `devices` with the job's
/// progress; each point goes to `onItem` as an ExperimentItem.
ExperimentResult runExperimentJob(JobContext& ctx, const std::vector<int>& devices,
                                  const ExperimentJob& job, const ItemSink& onItem);

/// One line for a point: "random naive: 0.20 GB/s, 0.7 % of read-only, verified",
/// "random banks=4: ...", "gradient auto read-only: ...", or "...: unsupported (why)".
std::string describeExperimentPoint(ExperimentKind kind, const ExperimentPoint& point);

/// The report histlab-cli sweep prints: the experiment, the devices, each read-only ceiling and
/// each point (with its baseline's GB/s and the ratio, when there is a baseline).
std::string experimentText(const ExperimentRun& run, const ExperimentRun* baseline = nullptr);

} // namespace histlab
