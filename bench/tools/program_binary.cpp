// Builds one kernel file for the first GPU with the given build options and writes the program's
// binary to stdout: PTX text on NVIDIA's OpenCL, which scripts/gpu-sass.sh turns into SASS with
// ptxas and cuobjdump. The build log (registers with -cl-nv-verbose) goes to stderr.
//   program_binary FILE.cl "OPTIONS" > FILE.ptx
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        std::cerr << "usage: program_binary FILE.cl [OPTIONS]\n";
        return 2;
    }
    std::ifstream file(argv[1]);
    if (!file) {
        std::cerr << "program_binary: cannot read " << argv[1] << "\n";
        return 3;
    }
    std::stringstream text;
    text << file.rdbuf();
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    std::vector<cl::Device> devices;
    for (const auto& platform : platforms) {
        try {
            platform.getDevices(CL_DEVICE_TYPE_GPU, &devices);
        } catch (const cl::Error&) { // (CL_DEVICE_NOT_FOUND: this platform has no GPU)
        }
        if (!devices.empty())
            break;
    }
    if (devices.empty()) {
        std::cerr << "program_binary: no OpenCL GPU\n";
        return 4;
    }
    const cl::Context context(devices[0]);
    cl::Program program(context, text.str());
    try {
        program.build({devices[0]}, argc > 2 ? argv[2] : "");
    } catch (const cl::Error&) {
        std::cerr << program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(devices[0]) << "\n";
        return 4;
    }
    std::cerr << program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(devices[0]) << "\n";
    const auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
    std::cout.write(reinterpret_cast<const char*>(binaries[0].data()),
                    std::streamsize(binaries[0].size()));
    return 0;
}
