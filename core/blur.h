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
#include "image.h"

#include <string>

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

} // namespace histlab
