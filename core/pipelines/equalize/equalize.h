#pragma once
// Histogram equalization ("Cumulative histograms and equalization"), its CPU reference
// first. docs/equalize.md has the definitions at length; in short:
//
//   plane     gray images are equalized on their values; RGB and RGBA images on their luma
//             Y = (9798 R + 19235 G + 3735 B + 16384) >> 15 (the core's lumaOf, OpenCV's
//             BGR2GRAY; the same integers for 16-bit values), each color channel then moved by
//             the luma's change: c' = clamp(c + lut[Y] - Y, 0, max), alpha unchanged.
//   8-bit     OpenCV 4.6's cv::equalizeHist, bit for bit: i = the first non-empty bin; if it
//             holds every pixel the image is returned unchanged; else
//             scale = 255.f / float(total - hist[i]) (float division), lut[v] = 0 for v <= i and
//             lut[v] = saturate(round-half-even(float(cdf[v] - hist[i]) * scale)) above.
//   16-bit    65,536 bins and exact integers: lut[v] = ((cdf[v] - cdf_min) * 65535 + den / 2) /
//             den, den = total - cdf_min (cdf_min = hist[i]), 0 for v <= i; a single-valued
//             image is returned unchanged.
//
// Metric (runEqualize): each stage is timed on its own with event profiling; GB/s is that of the
// apply pass, image bytes read + written (the look-up table's reads are not counted).
#include "image/image.h"
#include "pipelines/imageinput.h"
#include "report/table.h"
#include "runtime/cancel.h"
#include "runtime/device.h"
#include "runtime/runner.h"
#include "runtime/timing.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace histlab {

/// The tables behind one equalization: 256 bins for 8-bit images, 65,536 for 16-bit.
struct EqualizeTables {
    std::vector<std::uint64_t> histogram; ///< pixels per value of the plane (gray or luma)
    std::vector<std::uint64_t> cdf;       ///< inclusive: cdf[v] = pixels whose value is <= v
    std::vector<std::uint32_t> lut;       ///< value -> equalized value
};

/// The plane that is equalized: the gray values, or the luma of an RGB/RGBA image (8- or
/// 16-bit, one value per pixel). Throws InputError for an image whose fields disagree.
std::vector<std::uint32_t> equalizePlane(const HostImage& image);

/// The look-up table of a histogram of 256 (OpenCV's float rule) or 65,536 bins (the integer
/// rule); entries below the first non-empty bin are 0, and a histogram with a single non-empty
/// bin (or none) gives the identity.
std::vector<std::uint32_t> equalizeLut(const std::vector<std::uint64_t>& histogram);

/// OpenCV's 8-bit scale: 255.f / float(spread), the float division (spread = total - hist[i]).
float equalizeScale8(std::uint64_t spread);

/// The CPU's histogram, CDF and look-up table of an image.
EqualizeTables equalizeTables(const HostImage& image);

/// The equalized image (same size, channels and depth). Throws InputError for an image whose
/// fields disagree.
HostImage equalizeReference(const HostImage& image);

/// The image through a look-up table of equalizeTables (a colour image moved by its luma's
/// change): what equalizeReference returns with the image's own table.
HostImage applyEqualizeLut(const HostImage& image, const std::vector<std::uint32_t>& lut);

/// Where the gather of a gray image reads its look-up table (kernels/equalize.cl, LUT):
/// global memory, one copy in local memory, or one copy per local-memory bank ("lanes": 32
/// copies, so that the 32 work-items of a warp never wait on one bank). Color images and
/// 16-bit tables (65,536 entries) read it from global memory.
enum class EqualizeLut { Auto, Global, Local, Lanes };
EqualizeLut parseEqualizeLut(const std::string& name);
const char* equalizeLutName(EqualizeLut lut);

/// How the gather runs: what a person asks for (0 / Auto: the plan decides) and, resolved by
/// equalizeApplyFor, what runs.
struct EqualizeApply {
    /// groupsPerCu: as many groups as the image needs, one 16-byte vector per work-item.
    static constexpr int kAllGroups = -1;
    EqualizeLut lut = EqualizeLut::Auto;
    int workGroupSize = 0; ///< work-items per group
    int groupsPerCu = 0;   ///< groups per compute unit of the gray gather, each work-item
                           ///< looping over the image (grid-stride), or kAllGroups
    int unroll = 0;        ///< 16-byte loads in flight per work-item (gray)

    /// e.g. "lut=lanes wg=256 groups/CU=4 unroll=4", "lut=global wg=256 groups/CU=all unroll=1"
    std::string describe() const;
};

/// The gather a device runs for an image of `channels` and `depth` (the one place that decides
/// the defaults), 256 work-items per group:
///   GPUs: the table in local memory (one copy), 4 groups per compute unit, 4 loads in flight
///         (on an H200 at 1 GiB: 0.541 ms against 0.558 with 32 copies and 0.570 from global
///         memory, bench/results/gpu-h200-equalize-2026-11-27);
///   CPU devices: the table in global memory (their local memory is ordinary memory) and one
///         vector per work-item, which PoCL vectorizes across work-items (8192^2 random on this
///         2-core machine: 9.6 ms against 29.5 with 4 groups per core looping);
///   color and 16-bit images: the table in global memory.
/// Throws UsageError naming the parameter a device or image
/// cannot take (--lut local or lanes for a 16-bit or color image, lanes beyond local memory,
/// --wg beyond the device's maximum).
EqualizeApply equalizeApplyFor(const DeviceInfo& device, int channels, int depth,
                               const EqualizeApply& request);

/// What tests may force: 16-bit histograms in slices of at most `maxSliceBins` bins (0: what
/// local memory holds), and the 8-bit histogram in pieces of `histogramPiecePixels` pixels (0:
/// 2^29, which keeps every piece under the 2^32 bytes one launch counts; a multiple of 4,096
/// so that each piece starts where a sub-buffer may).
struct EqualizeTesting {
    std::uint32_t maxSliceBins = 0;
    std::uint64_t histogramPiecePixels = 0;
};

/// The whole equalization on the device: the histogram (8-bit: the 256-bin histogram's tuned
/// kernel, a color image's luma counted in its one read; 16-bit: kernels/equalize.cl's local
/// histograms of 65,536 bins in slices of what local memory holds, each group counting one
/// slice), the CDF (the whole-array scan), the look-up table (one work-item per bin), and the
/// gather of every pixel through it.
struct EqualizeRun {
    std::string buildOptions;             ///< kernels/equalize.cl's
    std::string histogramConfig;          ///< 8-bit: the histogram kernel's configuration
    EqualizeApply apply;                  ///< the gather that ran
    int bins = 256;                       ///< 256 (8-bit) or 65,536 (16-bit)
    HostImage output;                     ///< the equalized image
    std::vector<std::uint64_t> histogram; ///< read back from the device
    std::vector<std::uint64_t> cdf;       ///< read back from the device (inclusive)
    std::vector<std::uint32_t> lut;       ///< read back from the device
    TimingStats histogramStats;           ///< zeroing the bins + the histogram kernel(s)
    TimingStats cdfStats;                 ///< the scan of the bins
    TimingStats lutStats;                 ///< the look-up table
    TimingStats applyStats;               ///< the gather of every pixel
    TimingStats totalStats;               ///< the sum of the four, per run
    double applyGbps = 0;                 ///< apply pass: image bytes read + written per second
    bool verified = false;    ///< the image equals equalizeReference byte for byte, and the
                              ///< histogram, CDF and table equal the CPU's
    std::string verifyDetail; ///< the first pixel (or bin) that differs
};

/// Runs the four stages `repeats` times after a warm-up (kernel milliseconds per stage) and
/// verifies the last run against the CPU. `apply` is resolved with equalizeApplyFor (a
/// request left open gets the device's defaults). Throws InputError for an image whose fields
/// disagree or that has 2^32 pixels or more (32-bit counts), UnsupportedError when the image
/// does not fit in one device buffer. `repeats` 0: one run and no warm-up.
EqualizeRun runEqualize(Device& device, const HostImage& image, int repeats = 5,
                        const CancelToken& cancel = {}, const EqualizeApply& apply = {},
                        const EqualizeTesting& testing = {});

/// runEqualize without its check against the CPU (verified false, no detail): for a caller that
/// made the reference itself, elsewhere (batch, on its decoding threads).
EqualizeRun equalizeOnDevice(Device& device, const HostImage& image, int repeats,
                             const CancelToken& cancel = {}, const EqualizeApply& apply = {},
                             const EqualizeTesting& testing = {});

/// Checks a run against the CPU's tables of its image and the image they equalize to
/// (applyEqualizeLut): the histogram, CDF and look-up table read back, then the equalized image,
/// byte for byte (verified, verifyDetail).
void verifyEqualizeRun(EqualizeRun& run, const EqualizeTables& reference,
                       const HostImage& expected);

// ---------------------------------------------------------------------------------------------
// What a person asks of the equalization (histlab-cli equalize's options, the Equalize tab's
// controls) and the plan.

struct EqualizeParams {
    ImageInput input;
    int repeats = 5;     ///< timed runs after a warm-up, per stage
    EqualizeApply apply; ///< --lut, --wg, --groups-per-cu, --unroll (0 / auto: the device's)
};

struct EqualizePlan {
    std::shared_ptr<const HostImage> image; ///< the image asked for (synthetic made)
    int repeats = 5;
    EqualizeApply apply; ///< resolved for the device and the image
};

/// What a device runs of `params`: the image (checkImageInput's refusals: none, both an image
/// and --synthetic, a synthetic image without its size), the repeats and the gather
/// (equalizeApplyFor's refusals).
EqualizePlan planEqualize(const DeviceInfo& device, const EqualizeParams& params);

/// A finished equalization with what its report names: the device and the image.
struct EqualizeResult {
    DeviceInfo device;
    std::shared_ptr<const HostImage> image;
    EqualizeRun run;
};

/// histlab-cli equalize's run and the Equalize tab's: the plan's image equalized on `device`
/// with the plan's gather (nothing is streamed).
EqualizeResult runEqualizeJob(JobContext& ctx, Device& device, const EqualizePlan& plan,
                              const ItemSink& onItem);

/// The histogram of the output's plane (its gray values or luma; run.bins bins), counted on the
/// host: what equalization made of the histogram (for a color image the clamping of
/// c + lut[Y] - Y may move a value off lut[Y]).
std::vector<std::uint64_t> equalizedHistogram(const EqualizeRun& run);

/// The report histlab-cli equalize prints: image, bins, device, each stage's timings (the
/// apply pass's GB/s), verification.
std::string equalizeText(const EqualizeResult& result);

/// The input's histogram (its gray values or luma, before equalization) and its cumulative
/// sum: bin,count,cdf, 256 or 65,536 rows.
Table equalizeTable(const EqualizeRun& run);

} // namespace histlab
