#pragma once
// How an image is read beyond its edges (a blur's border), as OpenCV names the modes: a
// property of reading an image, shared by the blur family and OpenCV's peer in io/.
#include <string>

namespace histlab {

enum class BorderMode { Interior, Replicate, Reflect101 };

/// "interior", "replicate", "reflect101"; throws UsageError("--border").
BorderMode parseBorderMode(const std::string& name);
const char* borderModeName(BorderMode mode);

/// Where the pixel at `i` (which may lie outside 0..n-1) reads from, for replicate and
/// reflect101 (n >= 1). For a one-pixel line reflect101 repeats the pixel, as OpenCV does.
int borderIndex(int i, int n, BorderMode mode);

} // namespace histlab
