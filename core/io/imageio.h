#pragma once
// Image files through OpenCV (the only part of the core that uses it; built with
// -DHISTLAB_OPENCV=ON). Decoding happens in memory so every failure gets a precise reason.
#include "image.h"

#include <string>

namespace histlab {

/// Loads PNG, JPEG, TIFF, BMP, PGM/PPM, WebP... as 8- or 16-bit gray, RGB or RGBA.
/// Throws InputError naming the file and the reason: missing, a folder, empty, truncated
/// (a JPEG without its end-of-image marker), not an image, or an unsupported depth/layout.
HostImage loadImage(const std::string& path);

/// Writes an 8/16-bit image (PNG, TIFF, ...) through a temporary file and a rename.
void saveImage(const HostImage& image, const std::string& path);

} // namespace histlab
