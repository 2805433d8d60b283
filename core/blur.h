#pragma once
// Box blur (issue 5), its CPU reference first: the mean of the (2R + 1) x (2R + 1) pixels
// around each pixel, per channel, for 8- and 16-bit gray, RGB and RGBA images.
//
// Border modes:
//   interior    the reference text's: only pixels whose whole window lies inside the image are
//               blurred; the frame of width R is copied unchanged (all of the image when it is
//               no more than 2R pixels wide or high);
//   replicate   outside pixels repeat the edge (aaa|abcd|ddd, OpenCV's BORDER_REPLICATE);
//   reflect101  outside pixels mirror without repeating the edge (dcb|abcd|cba, OpenCV's
//               BORDER_REFLECT_101, the default of cv::blur).
//
// Rounding: (sum + n / 2) / n in integers, n = (2R + 1)^2: the nearest value. Integers are exact
// and the same on every device. n is odd, so no mean lies exactly halfway, and OpenCV's cv::blur
// (sum times 1/n in double, rounded to nearest) gives the same values; the tests check that.
#include "cancel.h"
#include "device.h"
#include "image.h"
#include "timing.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace histlab {

enum class BorderMode { Interior, Replicate, Reflect101 };

/// "interior", "replicate", "reflect101"; throws UsageError("--border").
BorderMode parseBorderMode(const std::string& name);
const char* borderModeName(BorderMode mode);

/// Where the pixel at `i` (which may lie outside 0..n-1) reads from, for replicate and
/// reflect101 (n >= 1). For a one-pixel line reflect101 repeats the pixel, as OpenCV does.
int borderIndex(int i, int n, BorderMode mode);

/// The blurred image (same size, channels and depth). Throws UsageError("--radius") for a
/// radius below 1, and InputError for an image whose fields disagree.
HostImage boxBlurReference(const HostImage& image, int radius, BorderMode mode);

// ---------------------------------------------------------------------------------------------
// The reference text's four launches of the interior blur (kernels/blur.cl), on an 8-bit gray
// image: the range is the interior, (width - 2R) x (height - 2R), as it is.
//   cl12-null     built with -cl-std=CL1.2, local size left to the runtime (NULL)
//   cl12-16x16    OpenCL C 1.2 with 16 x 16 groups: refused with CL_INVALID_WORK_GROUP_SIZE
//                 unless the range divides by 16, which OpenCL 1.2 requires
//   cl20-null     built with -cl-std=CL2.0, NULL local size
//   cl20-16x16    -cl-std=CL2.0 with 16 x 16 groups: non-uniform work-groups, the last ones
//                 smaller, where the device really has them (not PoCL 3.1, not NVIDIA's 580)
//   padded-16x16  what works everywhere: the range rounded up to whole 16 x 16 groups, items
//                 outside the interior returning at once

enum class BlurLaunch { Cl12Null, Cl12Local16, Cl20Null, Cl20Local16, Padded16 };

/// "cl12-null", "cl12-16x16", "cl20-null", "cl20-16x16", "padded-16x16"; throws
/// UsageError("--launch").
BlurLaunch parseBlurLaunch(const std::string& name);
const char* blurLaunchName(BlurLaunch launch);
std::vector<BlurLaunch> allBlurLaunches();

/// What the work-item at a corner of the range saw (the reference text's table).
struct LaunchCorner {
    int globalX = 0, globalY = 0;
    int localX = 0, localY = 0;
    int enqueuedX = -1, enqueuedY = -1; ///< get_enqueued_local_size; -1 under OpenCL C 1.2
};

struct BlurLaunchResult {
    BlurLaunch launch = BlurLaunch::Cl12Null;
    std::string buildOptions;
    std::size_t globalX = 0, globalY = 0; ///< the range launched
    std::size_t localX = 0, localY = 0;   ///< 0: NULL (the runtime chooses)
    /// "ran"; "refused" (the launch failed as the text says it must: CL_INVALID_WORK_GROUP_SIZE
    /// for a range that does not divide by the group under OpenCL 1.2); "unsupported" (the
    /// device cannot run it: OpenCL C 2.0 does not build, or no non-uniform work-groups);
    /// "empty" (no interior: nothing to launch).
    std::string outcome;
    std::string detail;                    ///< the OpenCL error or the reason
    std::array<LaunchCorner, 4> corners{}; ///< top-left, top-right, bottom-left, bottom-right
    TimingStats stats;                     ///< kernel milliseconds (when it ran)
    double gbps = 0;                       ///< interior bytes read + written per second
    std::optional<bool> verified;
    std::string verifyDetail;
    HostImage output; ///< the blurred image (when it ran, or the copy when empty)
};

/// The whole image blurred on the device (kernels/blur.cl, blur_full): any border mode, gray,
/// RGB or RGBA, 8- or 16-bit, one work-item per pixel in 16 x 16 groups over a padded range.
struct BlurRun {
    HostImage output;
    TimingStats stats;        ///< kernel milliseconds over `repeats` runs after a warm-up
    double gbps = 0;          ///< image bytes read + written per second
    bool verified = false;    ///< equal to boxBlurReference, byte for byte
    std::string verifyDetail; ///< the first pixel that differs
};
BlurRun runBoxBlur(Device& device, const HostImage& image, int radius, BorderMode mode,
                   int repeats = 5, const CancelToken& cancel = {});

/// Runs each launch `repeats` times after a warm-up and checks the output against
/// boxBlurReference(image, radius, Interior), byte for byte. Throws UsageError for an image that
/// is not 8-bit gray or a radius below 1.
std::vector<BlurLaunchResult> runBlurLaunches(Device& device, const HostImage& gray8, int radius,
                                              const std::vector<BlurLaunch>& launches,
                                              int repeats = 5, const CancelToken& cancel = {});

} // namespace histlab
