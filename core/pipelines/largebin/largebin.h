#pragma once
// Large-bin histograms: 8-bit, 16-bit and 32-bit float samples into any number of bins from 1
// to 65,536, on the device by several methods side by side, each verified bit-exactly against
// the CPU reference (kernels/largebin.cl).
//
// The bin rule is NumPy's `histogram` with uniform bins over [lo, hi]: bin i holds
// lo + i*w <= x < lo + (i+1)*w with w = (hi - lo) / bins, and the last bin is closed (it also
// holds x == hi). Values below lo or above hi are dropped and counted (below, above); NaN is
// counted apart and never binned; -inf and +inf are below and above. (OpenCV's calcHist with
// uniform ranges uses the same half-open bins but drops x == hi.) Floats are binned by NumPy's
// own steps for float32 data, in float32 as NumPy does them: its edges are float32 (lo + i*w in
// double, rounded), the range is compared in float32, the guess is
// (int)((x - lo) / (hi - lo) * bins), then one step down if x is below its edge and one step up
// if it reaches the next (NumPy 1.24.2's results are a test fixture). The device divides
// correctly rounded (-cl-fp32-correctly-rounded-divide-sqrt); a device that cannot is reported
// unsupported for floats. Integers are binned exactly, in integers:
// floor((v - lo) * bins / (hi - lo)): a value on an edge (an exact rational) is in the upper bin.
// NumPy decides with double edges, which can lie just above such a value (55.00000000000001 for
// 25 * 2.2) and count it one bin low; where every edge is whole both agree.
//
// The automatic range: the whole type for integers ([0, 256] for 8-bit, [0, 65536] for 16-bit,
// so the default of 2^depth bins gives every value a bin of its own); for floats the smallest
// and largest finite sample (NumPy's: a single value v gives [v - 0.5, v + 0.5]; no finite
// sample gives [0, 1]).
//
// Methods (every one counts the same extended slots: the bins, then below, above and NaN):
//   global     one global atomic increment per sample
//   local      local-memory sub-histograms of all the slots, as many copies as fit (up to 32);
//              unsupported where one copy does not fit local memory
//   multipass  one local sub-histogram of a slice of the slots that fits local memory (1 KiB
//              left to the driver on a GPU); the slices are counted side by side in one launch,
//              neighbouring work-groups counting different slices of the same data, so the
//              data comes from memory about once and from L2 for the other slices
//   local16    the same with 16-bit local counters (twice the slots per slice), counted in
//              rounds of at most 61,440 samples a work-group; after each round the counters
//              that reached 4,096 go to the global histogram, the rest when the group is done
//   runs16     local16 where each work-item adds a run of equal slots with one atomic (skewed
//              data: most samples repeat the one before)
//   private    Method 2 of Shams & Kennedy: every work-item its own sub-histogram in global
//              memory (a rows x slots matrix, no conflicts at all), reduced in parallel
//   tagged     Method 1 of Shams & Kennedy: a software atomic (write the count tagged with the
//              lane in the top 5 bits, retry until it reads back) on one sub-histogram per 32
//              work-items; correct only where those run in lock-step -- run as written, its
//              mismatches are reported, not hidden
//   auto       what the plan picks for the device and bin count
#include "image/image.h"
#include "pipelines/bandwidth/bandwidth.h"
#include "pipelines/pipeline.h"
#include "report/status.h"
#include "runtime/cancel.h"
#include "runtime/device.h"
#include "runtime/timing.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace histlab {

inline constexpr int kMaxBins = 65536;

enum class SampleType { U8, U16, F32 };

/// "u8", "u16", "f32"; throws UsageError("--type").
SampleType parseSampleType(const std::string& name);
const char* sampleTypeName(SampleType type);
std::size_t sampleBytes(SampleType type);

/// One plane of samples, tightly packed in host byte order.
struct SamplePlane {
    SampleType type = SampleType::U16;
    std::vector<std::uint8_t> bytes;
    std::string source;
    std::size_t count() const { return bytes.size() / sampleBytes(type); }
};

/// Sample i of a plane as a double (exact for every type).
double sampleValue(const SamplePlane& plane, std::size_t i);

/// The plane of an image's channel: "gray" (the image itself when it has one channel, else its
/// luma: OpenCV's fixed-point BGR2GRAY weights, for 16-bit data too; for floats its float
/// weights B * 0.114f + G * 0.587f + R * 0.299f, in float), "r", "g", "b" or "a".
/// Throws UsageError("--channel") for a channel the image does not have.
SamplePlane imagePlane(const HostImage& image, const std::string& channel);

/// The channels imagePlane takes, in this order: "gray", "r", "g", "b", "a" (an image has the
/// first, and those of its channels).
std::vector<std::string> imageChannelNames();

/// imagePlane's check alone: throws UsageError("--channel") unless an image of `channels`
/// channels (named `source` in the message) has `channel`.
void checkImageChannel(int channels, const std::string& channel, const std::string& source);

/// A mask image as one byte per pixel (1 where non-zero, counted): what joint and register
/// read from --mask. Throws InputError naming the mask unless it has one channel and is
/// width x height, which `whose` names in the message ("the images' size", "FIXED's size").
std::vector<std::uint8_t> maskBytes(const HostImage& mask, int width, int height,
                                    const std::string& whose);

/// Synthetic data for the benchmarks:
///   random  uniformly distributed over the whole type (floats: [0, 1))
///   skewed  90 % one value, the rest random
///   smooth  a slowly varying ramp with a little noise (neighbours fall in the same or nearby
///           bins, as in a real photograph)
enum class LargeBinData { Random, Skewed, Smooth };
LargeBinData parseLargeBinData(const std::string& name); ///< throws UsageError("--data")
const char* largeBinDataName(LargeBinData data);
SamplePlane makeLargeBinData(LargeBinData data, SampleType type, std::size_t samples,
                             std::uint64_t seed = 1);

/// The most bytes of synthetic samples a run may make on the host (all planes together): a
/// quarter of the machine's physical memory, and never more than one device buffer holds.
/// (PoCL reports a buffer as large as the host's memory: a device limit alone let an absurd
/// --count fill 15 GiB of a 24 GiB machine.) Throws UsageError(option) beyond it.
void checkSyntheticBytes(const DeviceInfo& device, std::size_t planeBytes, int planes,
                         const std::string& option);

struct BinRange {
    double lo = 0, hi = 0;
};

/// "LO,HI" (numbers, LO < HI, both finite); throws UsageError(option).
BinRange parseBinRange(const std::string& text, const std::string& option = "--range");

/// What a histogram counts: `bins` bins over [lo, hi] of samples of `type`.
struct BinSpec {
    SampleType type = SampleType::U16;
    int bins = kMaxBins;
    double lo = 0, hi = 65536;
    std::size_t slotCount() const { return std::size_t(bins) + 3; } ///< bins, below, above, NaN
};

/// The automatic range of `plane` (see above).
BinRange autoRange(const SamplePlane& plane);

/// Checks and completes a bin spec: bins from 1 to 65,536 (else UsageError("--bins")); for
/// integer types the range in whole numbers with 0 <= lo < hi <= 2^depth (else
/// UsageError(rangeOption)); for float the range and its span HI - LO within float (the bins'
/// arithmetic is float's, as NumPy's for float32 data); no range: autoRange(plane).
BinSpec makeBinSpec(const SamplePlane& plane, int bins, const std::optional<BinRange>& range,
                    const std::string& rangeOption = "--range");

/// "N[,N...]": bin counts, 1 to 65,536 each; throws UsageError("--bins").
std::vector<int> parseBinCounts(const std::string& text);

/// The default bin count of a type: 256 for 8-bit, 65,536 for 16-bit, 256 for floats.
int defaultBins(SampleType type);

/// Counts per bin and the samples left out.
struct LargeHistogram {
    std::vector<std::uint64_t> counts;
    std::uint64_t below = 0, above = 0, nan = 0;
    std::uint64_t total() const; ///< binned samples
};

/// NumPy's float32 edges for float32 data: lo + i*w in double rounded to float32, the last one hi.
std::vector<float> floatEdges(const BinSpec& spec);

/// The bins' edges as they are counted, bins + 1 of them: bin i holds edge i <= x < edge i + 1
/// (the last bin x == hi too). For integer types the first integer of each bin, lo +
/// ceil(i (hi - lo) / bins) computed in integers (the last edge hi); for floats floatEdges().
std::vector<double> countedEdges(const BinSpec& spec);

/// The bin of one sample by the rule above: 0 ... bins-1, or bins (below), bins+1 (above),
/// bins+2 (NaN).
std::uint32_t referenceSlot(const BinSpec& spec, const std::vector<float>& edges, double x);

/// The CPU reference: every sample of `plane` counted by the rule above.
LargeHistogram largeHistogramReference(const SamplePlane& plane, const BinSpec& spec);

/// "" when the device's slots (bins, below, above, NaN) equal the reference, else how many bins
/// differ and the first ("3 bins differ; bin 17: device 4, CPU reference 5").
std::string firstHistogramMismatch(const LargeHistogram& reference,
                                   const std::vector<std::uint32_t>& deviceSlots);

enum class LargeBinMethod { Auto, Global, Local, Multipass, Local16, Runs16, Private, Tagged };
/// "auto", "global", "local", "multipass", "local16", "runs16", "private", "tagged"; throws
/// UsageError("--method").
LargeBinMethod parseLargeBinMethod(const std::string& name);
const char* largeBinMethodName(LargeBinMethod method);
/// local16 and runs16: 16-bit local counters, counted in rounds.
bool counts16(LargeBinMethod method);
std::vector<LargeBinMethod> allLargeBinMethods(); ///< every method but auto
/// The names of allLargeBinMethods() joined by `separator` (for help texts).
std::string largeBinMethodNames(const std::string& separator);

/// How a method runs on a device: launch geometry and what it keeps where. `supported` false
/// with `why` when the device cannot run it (one local copy does not fit, the matrix is too big).
struct LargeBinGeometry {
    LargeBinMethod method = LargeBinMethod::Global;
    bool supported = true;
    std::string why;
    std::size_t workGroupSize = 256, groups = 1;
    std::size_t copies = 1;       ///< local: copies of the slots
    std::size_t slice = 0;        ///< multipass, local16, runs16: slots per launch
    std::size_t passes = 1;       ///< slices (counted side by side, one launch)
    std::size_t rows = 0;         ///< private, tagged: sub-histogram rows
    std::size_t perItem = 0;      ///< local16, runs16: samples per work-item per round
    std::string describe() const; ///< "wg 256 x 528 groups, 6 passes of 12288 slots"
};

/// The geometry of `method` for `spec` on the device with `samples` samples (auto resolved).
LargeBinGeometry planLargeBinGeometry(const DeviceInfo& device, const BinSpec& spec,
                                      std::size_t samples, LargeBinMethod method);

/// The same for `slots` counters of any kind (a joint histogram's cells and its left-out slot);
/// `method` must not be auto.
LargeBinGeometry planSlotGeometry(const DeviceInfo& device, SampleType type, std::size_t slots,
                                  std::size_t samples, LargeBinMethod method);

/// What auto picks: on a CPU device private (a row per compute unit: no atomics);
/// elsewhere multipass while one 32-bit slice holds every slot (one local copy beat 32 copies
/// on the H100 at 256 to 4,096 bins), else local16 (half the slices) up to 8 slices, and global
/// beyond (a 1,024 x 1,024 joint histogram: 44 slices of local16 took 5.7 ms, global 2.1 ms).
LargeBinMethod autoLargeBinMethod(const DeviceInfo& device, const BinSpec& spec);
/// The same for `slots` counters of any kind (a joint histogram's cells and left-out slot).
LargeBinMethod autoSlotMethod(const DeviceInfo& device, std::size_t slots);

/// Timed runs of each candidate (their median) in tuneSlotMethod's callers.
constexpr int kTuneRepeats = 3;

/// `auto` on the data, as the 256-bin pipeline's autotune: on a device other than a CPU, times
/// each candidate that fits (multipass, local16 and runs16 up to 8 slices; global where none holds
/// the slots in one slice) with `timeOnce(geometry, samples)` on the first min(n, 64 Mi) samples
/// and returns the fastest: skewed or smooth data can turn the ranking of the blind pick
/// (autoSlotMethod) around. A candidate that throws is passed over (cancellation is rethrown).
/// `how` says what was timed ("" where nothing was: a CPU device, no samples).
LargeBinMethod
tuneSlotMethod(const DeviceInfo& device, SampleType type, std::size_t slots, std::size_t n,
               const std::function<double(const LargeBinGeometry&, std::size_t)>& timeOnce,
               std::string& how);

/// One method on one input.
struct LargeBinPoint {
    LargeBinMethod method = LargeBinMethod::Global;
    int bins = 0;
    std::size_t samples = 0, bytes = 0;
    std::string geometry;
    std::string buildOptions;
    Status status = Status::Failed;
    std::string detail; ///< why unsupported or failed, or the first mismatch
    std::size_t mismatchedBins = 0;
    TimingStats stats; ///< every launch of one histogram (clear, passes, reduction)
    double gbps = 0;   ///< input bytes / median
    double gsps = 0;   ///< G samples / s
    double percentOfCeiling = 0;
    std::vector<std::uint32_t> deviceSlots; ///< the device's counts (bins, below, above, NaN)
    std::string tuning; ///< how auto chose on the data (tuneSlotMethod), "" otherwise
};

/// Runs `method` (auto resolved) on the `count` samples of `samples` (uploadPlane): clears,
/// counts, reduces, `repeats` timed runs after a warm-up, the last result compared slot by slot
/// with `reference`. Never throws for a device that cannot run the method: unsupported or
/// failed with the reason (rowErrorOf). Throws CancelledError when cancelled.
LargeBinPoint runLargeBinPoint(Device& device, const cl::Buffer& samples, std::size_t count,
                               const BinSpec& spec, const LargeHistogram& reference,
                               LargeBinMethod method, int repeats, const CancelToken& cancel = {});

/// The same with a geometry chosen by the caller (planLargeBinGeometry for another device's
/// local memory, to see how slices behave): the tests run many slices on PoCL this way.
LargeBinPoint runLargeBinPoint(Device& device, const cl::Buffer& samples, std::size_t count,
                               const BinSpec& spec, const LargeHistogram& reference,
                               const LargeBinGeometry& geometry, int repeats,
                               const CancelToken& cancel = {});

/// Uploads a plane to a new device buffer (padded to whole 16-byte vectors with zeros that no
/// kernel reads).
cl::Buffer uploadPlane(Device& device, const SamplePlane& plane);

struct ImageStackRequest;
struct ImageStackRun;

/// What a person asks of histlab-cli largebin.
struct LargeBinParams {
    std::string path;                         ///< IMAGE ("" for synthetic data)
    std::shared_ptr<const HostImage> image;   ///< IMAGE once loaded
    std::string channel = "gray";             ///< --channel
    LargeBinData data = LargeBinData::Random; ///< --data (synthetic)
    SampleType type = SampleType::U16;        ///< --type (synthetic)
    std::optional<double> sizeMiB;            ///< --size (synthetic)
    std::optional<std::size_t> count;         ///< --count (synthetic)
    std::vector<int> bins;                    ///< --bins (empty: the type's default)
    std::optional<BinRange> range;            ///< --range
    std::vector<LargeBinMethod> methods{LargeBinMethod::Auto};
    int repeats = 5;
    std::optional<PageRange> pages; ///< --page all or A-B: the stack of IMAGE's pages
};

/// What runs: the input (an image's plane, or synthetic data made on the worker), bin counts,
/// methods.
struct LargeBinRequest {
    std::shared_ptr<const SamplePlane> plane; ///< null: synthetic
    LargeBinData data = LargeBinData::Random;
    SampleType type = SampleType::U16;
    std::size_t samples = 0;
    std::vector<int> bins;
    std::optional<BinRange> range;
    std::vector<LargeBinMethod> methods;
    int repeats = 5;
    /// Set for a stack (--page all or A-B): its pages, counted by imagestack.h's run.
    std::shared_ptr<const ImageStackRequest> stack;
};

/// One bin count: its spec and the CPU reference.
struct LargeBinSpecRun {
    BinSpec spec;
    LargeHistogram reference;
};

/// largebin's result: the input, the read-only kernel on it, each bin count's reference and
/// every method's point.
struct LargeBinRun {
    DeviceInfo device;
    std::string source;
    SampleType type = SampleType::U16;
    std::size_t samples = 0, bytes = 0;
    CeilingResult ceiling; ///< read-only kernel on the same buffer
    std::vector<LargeBinSpecRun> specs;
    std::vector<LargeBinPoint> points;
    std::shared_ptr<const ImageStackRun> stack; ///< a stack's run, in place of the points
};

/// largebin's plan: the input, bin counts and methods for the device (UsageError naming the
/// option that cannot work there).
LargeBinRequest planLargeBin(const DeviceInfo& device, const LargeBinParams& params);

/// largebin's run: the read-only kernel, then every bin count by every method, each verified
/// slot by slot against the CPU reference; streams each LargeBinPoint.
LargeBinRun runLargeBinJob(JobContext& ctx, Device& device, const LargeBinRequest& request,
                           const ItemSink& onItem);

} // namespace histlab
