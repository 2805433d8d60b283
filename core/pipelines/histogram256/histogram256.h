#pragma once
// The 256-bin histogram pipeline (kernels/histogram256.cl), after "OpenCL Case Study:
// Histogram". Metric: GB/s = input bytes read / kernel seconds (event profiling); a colour
// image's channels and luma are counted in one read of its bytes.
#include "image/image.h"
#include "image/rowsink.h"
#include "pipelines/bandwidth/bandwidth.h"
#include "pipelines/devicesplit.h"
#include "pipelines/imageinput.h"
#include "pipelines/largebin/imagehistogram.h"
#include "pipelines/largebin/imagestack.h"
#include "runtime/cancel.h"
#include "runtime/device.h"
#include "runtime/timing.h"

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace histlab {

enum class HistogramVariant { Auto, Naive, Local, Banked, Private };
enum class ReadPattern { Coalesced, Serial };
enum class LoadWidth { Scalar, Uint4 };
enum class MergeMode { Kernel, Atomic };

/// "auto", "naive", "local", "banked", "cpu" (Private); throws UsageError("--variant").
HistogramVariant parseVariant(const std::string& name);
const char* variantName(HistogramVariant v);
ReadPattern parseReadPattern(const std::string& name);
LoadWidth parseLoadWidth(const std::string& name);
MergeMode parseMergeMode(const std::string& name);
const char* readPatternName(ReadPattern r);
const char* loadWidthName(LoadWidth l);
const char* mergeModeName(MergeMode m);

/// What a person asks for; 0 / unset means "choose for the device".
struct HistogramRequest {
    HistogramVariant variant = HistogramVariant::Auto;
    int banks = 0;
    int groupsPerCu = 0;
    int workGroupSize = 0;
    int unroll = 0;
    std::optional<ReadPattern> read;
    std::optional<LoadWidth> load;
    std::optional<MergeMode> merge;
};

/// A fully resolved configuration: what actually runs.
struct HistogramConfig {
    HistogramVariant variant = HistogramVariant::Banked;
    int banks = 1; ///< local copies (local/banked) or private copies (cpu)
    int groupsPerCu = 4;
    int workGroupSize = 256;
    int unroll = 1;
    ReadPattern read = ReadPattern::Coalesced;
    LoadWidth load = LoadWidth::Uint4;
    MergeMode merge = MergeMode::Kernel;
    std::string chosenBy; ///< "request", "default", "cpu heuristic" or "autotune (...)"

    /// e.g. "banked banks=32 wg=1024 groups/CU=2 coalesced uint4 unroll=2 merge=atomic"
    std::string describe() const;
};

/// Every histogram produced: names in output order ("r", "g", "b", "a", "gray").
enum class ChannelSelection { Gray, R, G, B, A, All };
ChannelSelection parseChannel(const std::string& name);
/// The name parseChannel reads: "gray", "r", "g", "b", "a", "all".
std::string channelSelectionName(ChannelSelection selection);

/// What one launch counts, in one read of interleaved 8-bit pixels of `channels` channels (1, 3
/// or 4): each channel's 256 bins, channel-major (unless `countChannels` is false), then, with
/// `luma` (colour only), the 256 bins of each pixel's luma (lumaOf: OpenCV's BGR2GRAY, alpha
/// ignored). A gray image is {1}; a colour image's channels and gray are {3 or 4, luma}.
struct HistogramLayout {
    int channels = 1;
    bool luma = false;
    bool countChannels = true;

    HistogramLayout(int channels = 1, bool luma = false, bool countChannels = true)
        : channels(channels)
        , luma(luma)
        , countChannels(countChannels) {}
    /// 256-bin histograms counted: the channels' and the luma's.
    int histograms() const { return (countChannels ? channels : 0) + (luma ? 1 : 0); }
    int bins() const { return 256 * histograms(); }
    /// The histograms' names in the counts' order: "gray"; "r,g,b,gray"; "r,g,b,a" ...
    std::string names() const;
};

/// How many local copies of a layout's 32-bit bins fit the device's local memory, as a power
/// of two (0 when not even one fits).
int maxLocalCopies(const DeviceInfo& info, const HistogramLayout& layout);

/// The build options of one configuration, for a layout and a stage (0 read-only, 1 +scatter,
/// 2 +local reduce, 3 complete).
std::string histogramBuildOptions(const HistogramConfig& config, const HistogramLayout& layout,
                                  int stage = 3);

/// Validates a request against the device and fills in what it leaves open (auto: the private
/// variant on CPU devices; on other devices a short autotune over copies, work-group size,
/// groups per compute unit and loads in flight, on random and uniform data of the input's size
/// class (1 MiB .. 256 MiB), remembered per device, channel count and size class).
/// Throws UsageError naming the parameter that cannot work on this device.
HistogramConfig resolveHistogramConfig(Device& device, const HistogramRequest& request,
                                       const HistogramLayout& layout,
                                       const CancelToken& cancel = {},
                                       std::size_t inputBytes = std::size_t(64) << 20);

/// The configuration a request resolves to on this device where no run is needed to decide it:
/// every named variant with the defaults it leaves open, and auto on a CPU device (the cpu
/// variant, "cpu heuristic"); nullopt for auto on any other device, where the autotune decides
/// on the device itself. Throws UsageError naming the parameter that cannot work on this
/// device (--banks not a power of two or beyond its local memory, --wg beyond its maximum...).
std::optional<HistogramConfig> histogramConfigFor(const DeviceInfo& info,
                                                  const HistogramRequest& request,
                                                  const HistogramLayout& layout);

/// Why `parameter` (as the CLI spells it: "--banks", "--read") has no say for `variant`, or ""
/// when it has one: naive and local keep one copy per work-group (--banks), the cpu variant
/// reads serially (--read). The window greys such a field out and shows this; a value given
/// anyway is refused by histogramConfigFor.
std::string histogramParameterUnused(HistogramVariant variant, std::string_view parameter);

/// The autotune behind `auto` on non-CPU devices (any device can run it): the banked variant
/// over the candidates the request leaves open, scored by the worse of random and uniform
/// bytes at the input's size class, remembered per device, channel count, size class and
/// request. Throws DeviceError if no candidate runs.
HistogramConfig autotuneHistogram(Device& device, const HistogramRequest& request,
                                  const HistogramLayout& layout, std::size_t inputBytes,
                                  const CancelToken& cancel = {});

/// One configuration built for one device: enqueues histograms of device buffers.
class HistogramKernel {
public:
    HistogramKernel(Device& device, const HistogramConfig& config, const HistogramLayout& layout,
                    int stage = 3);

    /// Adds the histograms of the first `bytes` of `input` to `hist` (layout.bins() uints,
    /// which the caller zeroes). `bytes` must fit in 32 bits. Returns the launches' events.
    std::vector<cl::Event> enqueue(cl::CommandQueue& queue, const cl::Buffer& input,
                                   std::size_t bytes, const cl::Buffer& hist,
                                   const std::vector<cl::Event>* waitFor = nullptr);

    /// enqueue() over inputs of any size: the first `bytes` of `input` in pieces of at most
    /// `pieceBytes` (sub-buffers; a multiple of the device's base address alignment and of
    /// whole pixels, 2^29 pixels by default), since one launch counts fewer than 2^32 bytes.
    std::vector<cl::Event> enqueuePieces(cl::CommandQueue& queue, const cl::Buffer& input,
                                         std::size_t bytes, const cl::Buffer& hist,
                                         std::size_t pieceBytes = 0);

    std::size_t groups() const { return m_groups; }
    std::size_t workGroupSize() const { return m_wg; }
    int bins() const { return m_layout.bins(); }

private:
    Device& m_device;
    HistogramConfig m_config;
    HistogramLayout m_layout;
    int m_stage;
    std::size_t m_wg = 1, m_groups = 1, m_reportedLimit = 0;
    cl::Kernel m_accumulate, m_merge;
    cl::Buffer m_partial;
};

/// CPU reference: NCHAN * 256 counts, byte i into channel i % nchan.
std::vector<std::uint64_t> referenceHistogram(const std::uint8_t* data, std::size_t bytes,
                                              int nchan);

/// The CPU reference of a colour image's two passes in one read of its pixels: the counts of
/// each of its `channels` (3 or 4) channels, as referenceHistogram counts them, added to
/// `channelCounts` (256 * channels), and of their luma (lumaOf, alpha ignored) to `grayCounts`.
void addReferenceWithLuma(const std::uint8_t* data, std::size_t pixels, int channels,
                          std::uint64_t* channelCounts, std::uint64_t* grayCounts);

/// The CPU reference of an 8-bit image counted before its run: each channel's 256 bins,
/// channel-major, as referenceHistogram(data, bytes, channels) counts them, and the 256 bins of
/// its luma (lumaOf; a gray image's own values).
struct HistogramReference {
    int width = 0, height = 0, channels = 0;
    std::vector<std::uint64_t> channelCounts;
    std::vector<std::uint64_t> grayCounts;
};

/// What a layout counts, from the reference: the channels' counts (a gray image's values) and,
/// with `luma`, the luma's after them, in the order a HistogramKernel leaves its bins.
std::vector<std::uint64_t> referenceCounts(const HistogramReference& reference,
                                           const HistogramLayout& layout);

/// The HistogramReference of an 8-bit image, counted in one read of its pixels.
std::shared_ptr<const HistogramReference> countReference(const HostImage& image);

/// Counts a HistogramReference from an image's rows as a decoder makes them (a RowPipe
/// consumer), so that the reference costs no time after decoding on a machine with an idle
/// core. Only the counts: the pixels' order (the orientation still to come) does not matter.
class ReferenceCounter {
public:
    RowPipe::Consumer consumer();
    /// The counts, when every row was counted (`complete`: RowPipe::complete()); else none.
    std::shared_ptr<const HistogramReference> result(bool complete) const;

private:
    HistogramReference m_counts;
    int m_rows = 0;
};

/// Compares device counts with the CPU reference: empty when they are equal, otherwise
/// "WHAT bin B: device D, CPU reference R" for the first bin that differs.
std::string firstMismatch(const std::string& what, const std::vector<std::uint64_t>& device,
                          const std::vector<std::uint64_t>& reference);

struct ChannelHistogram {
    std::string name; ///< "r", "g", "b", "a" or "gray"
    std::array<std::uint64_t, 256> counts{};
};

/// Interleaved counts of `nchan` channels (nchan x 256) as one histogram per channel: "gray"
/// for a single channel, else "r", "g", "b" and "a".
std::vector<ChannelHistogram> splitChannelCounts(const std::vector<std::uint64_t>& counts,
                                                 int nchan);

/// A layout's counts (layout.bins()) as its histograms, named as layout.names() names them.
std::vector<ChannelHistogram> splitLayoutCounts(const std::vector<std::uint64_t>& counts,
                                                const HistogramLayout& layout);

struct PassTiming {
    std::string what; ///< "histogram (r,g,b,gray)", "histogram (gray)" ...
    std::uint64_t bytes = 0;
    TimingStats stats;
    double gbps = 0;
    double percentOfCeiling = 0;
};

struct StageTiming {
    std::string stage; ///< "read-only", "+scatter", "+local reduce", "+global merge"
    bool applicable = true;
    TimingStats stats;
    double gbps = 0;
    double percentOfCeiling = 0;
};

struct HistogramRun;

struct HistogramRunOptions {
    ChannelSelection channel = ChannelSelection::All;
    int repeats = 5;
    bool verify = false;
    bool stages = false;
    /// Largest piece sent to the device at once (0: the device's largest buffer, at most
    /// 2 GiB); inputs larger than this run in pieces whose counts add up on the device.
    std::size_t maxChunkBytes = 0;
    /// The image's reference counted beforehand (ReferenceCounter): used for the verification
    /// when it is of this image's size and channels, instead of counting it during the run.
    std::shared_ptr<const HistogramReference> reference;
    /// Called once, on the calling thread, as soon as the counts are known (each pass's first
    /// launch) and verified if asked: `histograms` and `verified` are final, the timings not
    /// yet there. A viewer draws the histograms while the timed launches and the ceiling run.
    std::function<void(const HistogramRun&)> countsReady;
};

struct HistogramRun {
    DeviceInfo device;
    HistogramConfig config;
    std::string input; ///< what was histogrammed
    int width = 0, height = 0, channels = 0, sourceDepth = 8;
    std::uint64_t bytes = 0; ///< input bytes
    std::vector<ChannelHistogram> histograms;
    std::vector<PassTiming> passes;
    CeilingResult ceiling; ///< read-only kernel, same buffer, same run
    std::vector<StageTiming> stages;
    std::optional<bool> verified;
    std::string verifyDetail; ///< first mismatch, if any
    std::vector<std::string> notes;
};

using ProgressFn = std::function<void(double fraction, const std::string& stage)>;

/// Uploads the image, resolves the configuration, runs it `repeats` times after a warm-up,
/// measures the read-only ceiling on the same buffer and, if asked, the stage table and the
/// CPU verification. Images larger than the device's largest buffer run in pieces.
HistogramRun runHistogram(Device& device, const HostImage& image, const HistogramRequest& request,
                          const HistogramRunOptions& options, const CancelToken& cancel = {},
                          const ProgressFn& progress = {});

} // namespace histlab

namespace histlab {

// ---------------------------------------------------------------------------------------------
// End to end: from bytes in host memory to the histogram on the host (wall time), the input
// sent in chunks whose transfer (a second, copy queue) overlaps the previous chunk's histogram.
// Metric: input bytes / wall seconds, compared with the same device's host->device bandwidth
// measured in the same run.

struct EndToEndOptions {
    std::size_t chunkBytes = std::size_t(32) << 20; ///< rounded down to 48-byte units
    int repeats = 5;
    bool verify = false;
    int nchan = 1;
};

struct EndToEndRun {
    DeviceInfo device;
    HistogramConfig config;
    std::uint64_t bytes = 0;
    std::size_t chunkBytes = 0;
    std::size_t chunks = 0;
    unsigned hostThreads = 0;   ///< threads copying ordinary memory into pinned staging
    TimingStats pinnedWrite;    ///< one write of the whole input from pinned host memory
    TimingStats pageableWrite;  ///< the same from ordinary (pageable) memory
    TimingStats streamPinned;   ///< input already in pinned host memory -> histogram on host
    TimingStats streamStaged;   ///< input in ordinary memory, staged through pinned buffers
    TimingStats streamPageable; ///< input in ordinary memory, written directly, overlapped
    double pinnedGBps = 0, pageableGBps = 0;
    double streamPinnedGBps = 0, streamStagedGBps = 0, streamPageableGBps = 0;
    std::vector<std::uint64_t> counts;
    std::optional<bool> verified;
    std::string verifyDetail;
};

/// The chunk `bytes` of input are sent in, for a chunk size asked for: the whole input when it
/// fits in one, else whole 48-byte units. Throws UsageError("--chunk") below 48 bytes or for a
/// chunk larger than the device's largest buffer.
std::size_t endToEndChunkBytes(const DeviceInfo& device, std::size_t bytes, std::size_t chunkBytes);

/// Runs the three streaming modes and both bandwidth references on `bytes` of `data`.
EndToEndRun runHistogramEndToEnd(Device& device, const std::uint8_t* data, std::size_t bytes,
                                 const HistogramRequest& request, const EndToEndOptions& options,
                                 const CancelToken& cancel = {});

// ---------------------------------------------------------------------------------------------
// One input split across several devices (pipelines/devicesplit.h): pieces of the image's bytes,
// streamed end to end as the end-to-end mode streams.

struct SplitRun : SplitTiming {
    std::string input;
    std::uint64_t bytes = 0;
    HistogramLayout layout;
    std::vector<ChannelHistogram> histograms;
};

/// The histogram of an 8-bit image's channels (and a colour image's luma) split across
/// `devices`, `repeats` timed runs of each measurement, chunks of `chunkBytes` end to end. A
/// device that fails (`fault`, for tests: the device at that position fails on the split's
/// N-th pass, the first, counted one being 0) leaves its piece to the fastest device left, the
/// report says so, and the runs after it split over the devices left. The counted pass and
/// every device's run alone are verified against the CPU reference.
SplitRun runHistogramSplit(const std::vector<Device*>& devices, const HostImage& image,
                           const HistogramRequest& request, int repeats, std::size_t chunkBytes,
                           const DeviceFault& fault = {}, const CancelToken& cancel = {});

// ---------------------------------------------------------------------------------------------
// What a person asks of the histogram (histlab-cli histogram's options) and the plan that
// decides what runs: the histogram of an image (or of synthetic bytes), or its end-to-end mode.

struct HistogramParams {
    /// IMAGE, or --synthetic KIND sized by --size MIB or --bytes N (gray bytes in one row).
    ImageInput input;
    std::optional<double> sizeMiB;
    std::optional<std::uint64_t> bytes;
    /// --channels: the synthetic bytes as pixels of 1, 3 (RGB) or 4 (RGBA) channels.
    int channels = 1;
    std::optional<Region> region; ///< only the pixels of this rectangle
    HistogramRequest request;
    HistogramRunOptions options;
    bool endToEnd = false; ///< host memory -> histogram on the host, streamed in chunks
    double chunkMiB = 32;  ///< the end-to-end chunk
    /// --bins, --range, --method: the large-bin methods (pipelines/largebin), which also run
    /// for every 16-bit image (its exact 65,536-bin histogram by default).
    std::optional<int> bins;
    std::optional<BinRange> range;
    std::optional<LargeBinMethod> method;
};

/// The checks of the parameters that need neither a device nor an image: an image file or
/// synthetic data (not both, not neither), and the synthetic data's size given once. Throws
/// UsageError naming the option.
void checkHistogramParams(const HistogramParams& params);

struct HistogramPlan {
    /// What is histogrammed: the image, or the synthetic bytes, cropped to the region.
    std::shared_ptr<const HostImage> input;
    HistogramRequest request;
    /// The configuration that will run, where the device's description decides it
    /// (histogramConfigFor); nullopt: auto's autotune decides on the device.
    std::optional<HistogramConfig> config;
    HistogramRunOptions options;
    bool endToEnd = false;
    EndToEndOptions endToEndOptions; ///< with the chunk the device will take
    /// Set when the large-bin methods run instead (a 16-bit image, or --bins/--range/--method).
    std::optional<ImageBinsRequest> largeBins;
    /// Set for --page all or A-B: the stack's pages, each by the large-bin methods.
    std::optional<ImageStackRequest> stack;
    /// Several devices chosen: the input split across them (runHistogramSplit), in chunks of
    /// splitChunkBytes end to end; `fault` from HISTLAB_DEVICE_FAIL.
    bool split = false;
    std::size_t splitChunkBytes = 0;
    DeviceFault fault;
};

/// planHistogram for several devices: with one, that device's plan; with more, the split's
/// (8-bit data, every channel and the luma; --stages, --end-to-end, --channel and the large-bin
/// options refused, naming the option).
HistogramPlan planHistogramOn(const std::vector<DeviceInfo>& devices,
                              const HistogramParams& params);

/// What a device runs of `params`: checkHistogramParams, the input (synthetic bytes made, the
/// region cropped), the channels histogrammed together and the configuration for them, the
/// end-to-end chunk. Throws UsageError naming the option that cannot work there (--banks,
/// --wg, --channel, --region, --chunk ...), InputError for synthetic data of size 0.
HistogramPlan planHistogram(const DeviceInfo& device, const HistogramParams& params);

/// A finished run: the histogram's, the end-to-end one with the input it streamed, or the split
/// across devices.
struct HistogramResult {
    std::optional<ImageStackRun> stack;
    std::optional<SplitRun> split;
    std::optional<ImageBinsRun> bins;
    std::optional<HistogramRun> run;
    std::optional<EndToEndRun> endToEnd;
    std::string endToEndInput;
    std::vector<ChannelHistogram> endToEndHistograms;
};

/// histlab-cli histogram's run: the plan on `devices` (the first, unless split), with the job's
/// progress (nothing is streamed).
HistogramResult runHistogramJob(JobContext& ctx, const std::vector<int>& devices,
                                const HistogramPlan& plan, const ItemSink& onItem);

/// What the run of a selection on an image counts: a gray image's values; a colour image's
/// channels (unless gray alone is asked for) and, for gray or all, its luma, in the same read.
/// Throws UsageError("--channel") for a channel the image does not have.
HistogramLayout histogramLayout(const HostImage& image, ChannelSelection selection);

} // namespace histlab
