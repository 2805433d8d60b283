#pragma once
// The one include of the OpenCL C++ bindings; versions and exceptions are compile definitions of
// histlab_core (CMake), so every file sees the same configuration.
#include <CL/opencl.hpp>

namespace histlab {

/// Sets a kernel's arguments 0, 1, ... in order.
template <typename... Args> void setKernelArgs(cl::Kernel& kernel, const Args&... args) {
    cl_uint index = 0;
    (kernel.setArg(index++, args), ...);
}

} // namespace histlab
