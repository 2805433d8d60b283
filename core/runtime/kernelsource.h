#pragma once
// One way to get a kernel's OpenCL C source: the copy embedded at build time, or a file of the
// same name in the override folder (for people editing kernels without rebuilding).
#include <string>

namespace histlab {

struct KernelSource {
    std::string name;   ///< family name, e.g. "histogram256" (kernels/histogram256.cl)
    std::string text;   ///< the OpenCL C source
    std::string origin; ///< "embedded" or the path it was read from
};

/// Sets the folder whose NAME.cl files replace the embedded ones; empty restores the embedded.
/// Throws UsageError("--kernel-dir") if the folder does not exist.
void setKernelDir(const std::string& dir);
std::string kernelDir();

/// The source of kernels/NAME.cl (override folder first), each line `#include "OTHER.cl"` in it
/// replaced by that file's source (once per file). Throws InputError if unknown.
KernelSource loadKernelSource(const std::string& name);

} // namespace histlab
