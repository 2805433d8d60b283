// Measures local atomic adds per second on the first GPU (see atom.cl); prints CSV.
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>
int main() {
    std::vector<cl::Platform> ps;
    cl::Platform::get(&ps);
    cl::Device dev;
    for (auto& p : ps) {
        std::vector<cl::Device> ds;
        p.getDevices(getenv("ATOM_CPU") ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU, &ds);
        if (!ds.empty()) {
            dev = ds[0];
            break;
        }
    }
    cl::Context ctx(dev);
    cl::CommandQueue q(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    std::ifstream f("atom.cl");
    std::stringstream src;
    src << f.rdbuf();
    const unsigned cus = dev.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
    std::printf("device,%s,cus,%u\ncopies,same,wg,groups_per_cu,atomics,ms_median,gatomics_per_s\n",
                dev.getInfo<CL_DEVICE_NAME>().c_str(), cus);
    cl::Buffer out(ctx, CL_MEM_READ_WRITE, 4);
    for (int same : {0, 1})
        for (int copies : {8, 16, 32})
            for (int wg : {256, 1024})
                for (int gpc : {2, 8}) {
                    if (wg * gpc > 2048)
                        continue;
                    cl::Program prog(ctx, src.str());
                    std::string opts =
                        "-D COPIES=" + std::to_string(copies) + " -D SAME=" + std::to_string(same);
                    prog.build({dev}, opts.c_str());
                    cl::Kernel k(prog, "atoms");
                    const unsigned iters = getenv("ATOM_CPU") ? 4 : 2048;
                    k.setArg(0, iters);
                    k.setArg(1, out);
                    const size_t global = size_t(cus) * gpc * wg;
                    std::vector<double> ms;
                    for (int r = 0; r < 8; ++r) {
                        cl::Event e;
                        q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(global),
                                               cl::NDRange(wg), nullptr, &e);
                        e.wait();
                        ms.push_back((e.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                      e.getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
                                     1e-6);
                    }
                    std::sort(ms.begin() + 1, ms.end());
                    const double med = ms[1 + (ms.size() - 1) / 2];
                    const double atomics = double(global) * iters * 4;
                    std::printf("%d,%d,%d,%d,%.0f,%.4f,%.1f\n", copies, same, wg, gpc, atomics, med,
                                atomics / (med * 1e-3) / 1e9);
                }
}
