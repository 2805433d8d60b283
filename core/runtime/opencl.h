#pragma once
// The one include of the OpenCL C++ bindings; versions and exceptions are compile definitions of
// histlab_core (CMake), so every file sees the same configuration.
#include <CL/opencl.hpp>
