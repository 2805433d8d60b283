// The tiled blur's timeline inside one launch, warp by warp (an experiment, built by job.sh on
// the GPU machine, not part of HistLab's build). kernels/blur.cl built with -D TIMELINE=1
// (timeline.patch) takes a sixth argument, where lane 0 of each warp writes NVIDIA's
// %globaltimer (ns) when the warp starts and when it has stored its rows. For each launch this
// prints the profiling event's start and end and, for the first `raw` launches, every warp's
// two marks, as the driver and the timer give them: launch,event_start,event_end,warp,start,end.
// The other launches print only their event (warp -1). With a ninth argument "copy", KERNEL.cl
// is kernels/bandwidth.cl built with -D TIMELINE=1 and the kernel copy_items, the copy ceiling
// HistLab measures the blur against, on the same WIDTH x HEIGHT bytes (one uint4 per
// work-item, groups of WG; ROWS is ignored).
//   blurtimeline KERNEL.cl OPTIONS WIDTH HEIGHT WG ROWS LAUNCHES RAW [copy]
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
    if (argc != 9 && argc != 10) {
        std::fprintf(stderr, "usage: blurtimeline KERNEL.cl OPTIONS WIDTH HEIGHT WG ROWS "
                             "LAUNCHES RAW\n");
        return 2;
    }
    std::ifstream file(argv[1]);
    std::stringstream text;
    text << file.rdbuf();
    const std::string source = text.str();
    const std::string options = argv[2];
    const std::size_t width = std::strtoull(argv[3], nullptr, 10);
    const std::size_t height = std::strtoull(argv[4], nullptr, 10);
    const std::size_t wg = std::strtoull(argv[5], nullptr, 10);
    const std::size_t rows = std::strtoull(argv[6], nullptr, 10);
    const int launches = std::atoi(argv[7]), raw = std::atoi(argv[8]);
    const bool copy = argc == 10 && std::string(argv[9]) == "copy";

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
    cl_kernel k = clCreateKernel(prog, copy ? "copy_items" : "blur_tiled", &err);
    check(err, "clCreateKernel");

    // 8-bit gray, rows 64-byte aligned as HistLab lays them out, random bytes (xorshift64*)
    const std::size_t pitch = (width + 63) / 64 * 64, bytes = pitch * height;
    std::vector<std::uint8_t> data(bytes);
    std::uint64_t x = 0x9E3779B97F4A7C15ull;
    for (std::size_t i = 0; i < bytes; ++i) {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        data[i] = std::uint8_t((x * 0x2545F4914F6CDD1Dull) >> 56);
    }
    cl_mem in =
        clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, data.data(), &err);
    check(err, "clCreateBuffer in");
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    check(err, "clCreateBuffer out");
    const std::size_t nelem = bytes / 16;
    const std::size_t global[2] = {copy ? (nelem + wg - 1) / wg * wg
                                        : (width / 16 + wg - 1) / wg * wg,
                                   copy ? 1 : (height + rows - 1) / rows};
    const std::size_t local[2] = {wg, 1};
    const std::size_t warps = global[0] / 32 * global[1];
    cl_mem marks = clCreateBuffer(ctx, CL_MEM_READ_WRITE, warps * 16, nullptr, &err);
    check(err, "clCreateBuffer marks");
    const cl_int w = cl_int(width), h = cl_int(height), p = cl_int(pitch);
    const cl_uint n = cl_uint(nelem);
    if (copy) {
        clSetKernelArg(k, 0, sizeof(cl_mem), &in);
        clSetKernelArg(k, 1, sizeof(cl_uint), &n);
        clSetKernelArg(k, 2, sizeof(cl_mem), &out);
        clSetKernelArg(k, 3, sizeof(cl_mem), &marks);
    } else {
        clSetKernelArg(k, 0, sizeof(cl_mem), &in);
        clSetKernelArg(k, 1, sizeof(cl_mem), &out);
        clSetKernelArg(k, 2, sizeof(cl_int), &w);
        clSetKernelArg(k, 3, sizeof(cl_int), &h);
        clSetKernelArg(k, 4, sizeof(cl_int), &p);
        clSetKernelArg(k, 5, sizeof(cl_mem), &marks);
    }
    std::vector<cl_uint> m(warps * 4);
    std::printf("launch,event_start,event_end,warp,start,end\n");
    for (int l = -1; l < launches; ++l) { // launch -1: the warm-up, not printed
        cl_event ev;
        check(clEnqueueNDRangeKernel(q, k, copy ? 1 : 2, nullptr, global, local, 0, nullptr, &ev),
              "launch");
        check(clWaitForEvents(1, &ev), "wait");
        cl_ulong start = 0, end = 0;
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr);
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
        clReleaseEvent(ev);
        if (l < 0)
            continue;
        std::printf("%d,%llu,%llu,-1,0,0\n", l, (unsigned long long)start, (unsigned long long)end);
        if (l >= raw)
            continue;
        check(clEnqueueReadBuffer(q, marks, CL_TRUE, 0, warps * 16, m.data(), 0, nullptr, nullptr),
              "read");
        for (std::size_t i = 0; i < warps; ++i) {
            const std::uint64_t s = std::uint64_t(m[4 * i]) | (std::uint64_t(m[4 * i + 1]) << 32);
            const std::uint64_t e =
                std::uint64_t(m[4 * i + 2]) | (std::uint64_t(m[4 * i + 3]) << 32);
            std::printf("%d,%llu,%llu,%zu,%llu,%llu\n", l, (unsigned long long)start,
                        (unsigned long long)end, i, (unsigned long long)s, (unsigned long long)e);
        }
    }
    return 0;
}
