// Builds an OpenCL C file for the first GPU with the given options (add -cl-nv-verbose for
// ptxas' register and spill counts) and prints the build log and, with a third argument, writes
// the program's binary (NVIDIA: PTX) there. An experiment's tool, not part of HistLab's build.
//   buildlog KERNEL.cl OPTIONS [PTX]
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    if (argc < 3)
        return 2;
    std::ifstream file(argv[1]);
    std::stringstream text;
    text << file.rdbuf();
    const std::string source = text.str();
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clGetPlatformIDs(1, &platform, nullptr);
    err |= clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, nullptr);
    cl_context ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    const char* src = source.c_str();
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, nullptr, &err);
    const cl_int built = clBuildProgram(prog, 1, &device, argv[2], nullptr, nullptr);
    std::size_t n = 0;
    clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
    std::string log(n, '\0');
    clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    std::printf("build %d\n%s\n", built, log.c_str());
    if (argc > 3 && built == CL_SUCCESS) {
        std::size_t size = 0;
        clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr);
        std::vector<unsigned char> bin(size);
        unsigned char* p = bin.data();
        clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof p, &p, nullptr);
        std::ofstream(argv[3], std::ios::binary).write((const char*)bin.data(), long(size));
    }
    return built == CL_SUCCESS ? 0 : 1;
}
