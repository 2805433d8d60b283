// The 256-bin histogram's timeline inside one launch, group by group (an experiment, built by
// job.sh on the GPU machine, not part of HistLab's build). kernels/histogram256.cl built with
// -D TIMELINE=1 (timeline.patch) has work-item 0 of each group write NVIDIA's %globaltimer
// (nanoseconds, one clock for all compute units) at four marks into `partial`: 0 the group
// starts, 1 its copies are zeroed, 2 every item has counted (or at STAGE 0 read) its elements,
// 3 reduced and merged; and %clock64 (the compute unit's cycles) at the same marks. For each
// launch this prints the event's start and end (the same profiling the pipelines are timed
// with) and every group's marks as the driver and the clocks give them, as CSV:
// launch,event_start,event_end,group,mark0..mark3,clock0..clock3.
//   timeline KERNEL.cl "OPTIONS" BYTES GROUPS WG LAUNCHES
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

static void check(cl_int err, const char* what) {
    if (err != CL_SUCCESS) {
        std::fprintf(stderr, "%s failed: %d\n", what, err);
        std::exit(1);
    }
}

int main(int argc, char** argv) {
    if (argc != 7) {
        std::fprintf(stderr, "usage: timeline KERNEL.cl OPTIONS BYTES GROUPS WG LAUNCHES\n");
        return 2;
    }
    std::ifstream file(argv[1]);
    std::stringstream text;
    text << file.rdbuf();
    const std::string source = text.str();
    const std::string options = argv[2];
    const std::size_t bytes = std::strtoull(argv[3], nullptr, 10);
    const std::size_t groups = std::strtoull(argv[4], nullptr, 10);
    const std::size_t wg = std::strtoull(argv[5], nullptr, 10);
    const int launches = std::atoi(argv[6]);

    cl_platform_id platform;
    cl_device_id device;
    check(clGetPlatformIDs(1, &platform, nullptr), "clGetPlatformIDs");
    check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, nullptr), "clGetDeviceIDs");
    cl_int err;
    cl_context ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    check(err, "clCreateContext");
    cl_command_queue q = clCreateCommandQueue(ctx, device, CL_QUEUE_PROFILING_ENABLE, &err);
    check(err, "clCreateCommandQueue");
    const char* src = source.c_str();
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, nullptr, &err);
    check(err, "clCreateProgramWithSource");
    if (clBuildProgram(prog, 1, &device, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
        std::size_t n = 0;
        clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
        std::string log(n, '\0');
        clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
        std::fprintf(stderr, "build failed:\n%s\n", log.c_str());
        return 1;
    }
    cl_kernel k = clCreateKernel(prog, "accumulate_histogram", &err);
    check(err, "clCreateKernel");

    // random bytes (xorshift64*), as the pipelines' synthetic "random"
    std::vector<std::uint8_t> data(bytes);
    std::uint64_t x = 0x9E3779B97F4A7C15ull;
    for (std::size_t i = 0; i < bytes; i += 8) {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        const std::uint64_t r = x * 0x2545F4914F6CDD1Dull;
        for (std::size_t j = 0; j < 8 && i + j < bytes; ++j)
            data[i + j] = std::uint8_t(r >> (8 * j));
    }
    cl_mem in =
        clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, data.data(), &err);
    check(err, "clCreateBuffer in");
    const std::size_t marks = groups * 16;
    cl_mem partial = clCreateBuffer(ctx, CL_MEM_READ_WRITE, marks * 4, nullptr, &err);
    check(err, "clCreateBuffer partial");
    cl_mem hist = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 256 * 4, nullptr, &err);
    check(err, "clCreateBuffer hist");
    const cl_uint nelem = cl_uint(bytes / 16), nbytes = cl_uint(bytes);
    clSetKernelArg(k, 0, sizeof(cl_mem), &in);
    clSetKernelArg(k, 1, sizeof(cl_uint), &nelem);
    clSetKernelArg(k, 2, sizeof(cl_uint), &nbytes);
    clSetKernelArg(k, 3, sizeof(cl_mem), &partial);
    clSetKernelArg(k, 4, sizeof(cl_mem), &hist);
    const std::size_t global = groups * wg;
    std::vector<cl_uint> m(marks);
    std::printf("launch,event_start,event_end,group,mark0,mark1,mark2,mark3,clock0,clock1,clock2,"
                "clock3\n");
    for (int l = -1; l < launches; ++l) { // launch -1: the warm-up, not printed
        const cl_uint zero = 0;
        check(clEnqueueFillBuffer(q, hist, &zero, 4, 0, 256 * 4, 0, nullptr, nullptr), "fill");
        cl_event ev;
        check(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &wg, 0, nullptr, &ev), "launch");
        check(clWaitForEvents(1, &ev), "wait");
        cl_ulong start = 0, end = 0;
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr);
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
        clReleaseEvent(ev);
        check(clEnqueueReadBuffer(q, partial, CL_TRUE, 0, marks * 4, m.data(), 0, nullptr, nullptr),
              "read");
        if (l < 0)
            continue;
        for (std::size_t g = 0; g < groups; ++g) {
            std::printf("%d,%llu,%llu,%zu", l, (unsigned long long)start, (unsigned long long)end,
                        g);
            for (int j = 0; j < 8; ++j) { // 4 timer marks, then 4 clock marks
                const std::size_t i = g * 16 + 2 * std::size_t(j);
                const std::uint64_t t = std::uint64_t(m[i]) | (std::uint64_t(m[i + 1]) << 32);
                std::printf(",%llu", (unsigned long long)t);
            }
            std::printf("\n");
        }
    }
    return 0;
}
