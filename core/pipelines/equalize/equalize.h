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

/// The whole equalization on the device (kernels/equalize.cl): the histogram (one local
/// histogram per work-group added to the global one with atomics; 65,536 bins in slices of what
/// local memory holds, each group counting one slice), the CDF (one work-group's scan), the
/// look-up table (one work-item per bin), and the gather of every pixel through the table.
struct EqualizeRun {
    std::string buildOptions;
    int bins = 256;                       ///< 256 (8-bit) or 65,536 (16-bit)
    HostImage output;                     ///< the equalized image
    std::vector<std::uint64_t> histogram; ///< read back from the device
    std::vector<std::uint64_t> cdf;       ///< read back from the device (inclusive)
    std::vector<std::uint32_t> lut;       ///< read back from the device
    TimingStats histogramStats;           ///< zeroing the bins + the histogram kernel
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
/// verifies the last run against the CPU. `maxSliceBins` caps the bins of a work-group's local
/// histogram (16-bit images; 0: what local memory holds), so that the sliced histogram of small
/// local memories can be tested anywhere. Throws InputError for an image whose fields disagree
/// or that has 2^32 pixels or more (32-bit counts), UnsupportedError when the image does not fit
/// in one device buffer.
EqualizeRun runEqualize(Device& device, const HostImage& image, int repeats = 5,
                        const CancelToken& cancel = {}, std::uint32_t maxSliceBins = 0);

// ---------------------------------------------------------------------------------------------
// What a person asks of the equalization (histlab-cli equalize's options, the Equalize tab's
// controls) and the plan.

struct EqualizeParams {
    ImageInput input;
    int repeats = 5; ///< timed runs after a warm-up, per stage
};

struct EqualizePlan {
    std::shared_ptr<const HostImage> image; ///< the image asked for (synthetic made)
    int repeats = 5;
};

/// What a device runs of `params`: the image (checkImageInput's refusals: none, both an image
/// and --synthetic, a synthetic image without its size), and the repeats.
EqualizePlan planEqualize(const DeviceInfo& device, const EqualizeParams& params);

/// A finished equalization with what its report names: the device and the image.
struct EqualizeResult {
    DeviceInfo device;
    std::shared_ptr<const HostImage> image;
    EqualizeRun run;
};

/// The report histlab-cli equalize prints: image, bins, device, each stage's timings (the
/// apply pass's GB/s), verification.
std::string equalizeText(const EqualizeResult& result);

/// The histogram of the equalized plane (gray or luma, before equalization) and its
/// cumulative sum: bin,count,cdf, 256 or 65,536 rows.
Table equalizeTable(const EqualizeRun& run);

} // namespace histlab
