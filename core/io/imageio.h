#pragma once
// Image files through OpenCV (the only part of the core that uses it; built with
// -DHISTLAB_OPENCV=ON). Decoding happens in memory so every failure gets a precise reason.
#include "image/image.h"
#include "pipelines/blur/blur.h"

#include <string>

namespace histlab {

/// Loads PNG, JPEG, TIFF, BMP, PGM/PPM, WebP, PFM, Radiance HDR... as 8- or 16-bit unsigned
/// or 32-bit float gray, RGB or RGBA (half floats widened to 32-bit).
/// Throws InputError naming the file and the reason: missing, a folder, empty, truncated
/// (a JPEG without its end-of-image marker), not an image, or an unsupported depth/layout.
HostImage loadImage(const std::string& path);

/// Why `path` cannot be an image this loader reads, judged from the file system and the file's
/// first bytes only (no decoding, so it is quick enough for a drop or a file list): "" when it
/// looks like one, else the reason in the words loadImage() uses ("no such file", "is a
/// folder, not an image file", "file is empty", "not an image OpenCV can read ..."). A file that
/// passes can still fail to decode (damaged or truncated); loadImage() says so then.
std::string whyNotAnImage(const std::string& path);

/// A copy of `image` no larger than maxSide on its longer side (aspect kept), averaged over
/// each output pixel's area (OpenCV's INTER_AREA, on all cores); the image itself when it is
/// already small enough. 16-bit stays 16-bit, float stays float.
HostImage downscaleToFit(const HostImage& image, int maxSide);

/// cv::blur of the image with a (2R + 1)^2 window and the border (replicate or reflect101;
/// UsageError("--compare-opencv") for interior, which OpenCV has not) into `out`, which is
/// made a copy of the image first unless it already has its size (so that a timed call
/// allocates nothing): the baseline HistLab's blur is timed against.
void opencvBoxBlur(const HostImage& image, int radius, BorderMode mode, HostImage& out);

/// Writes an image (PNG, TIFF, ...; a float image only where the format holds floats: TIFF, PFM)
/// through a temporary file and a rename.
void saveImage(const HostImage& image, const std::string& path);

} // namespace histlab
