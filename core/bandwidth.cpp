#include "bandwidth.h"

#include "errors.h"

namespace histlab {
namespace {

struct Launch {
    cl::Kernel kernel;
    cl::NDRange global, local;
    bool serial;
};

Launch prepare(Device& device, const char* name) {
    const bool serial = device.info().type == DeviceType::Cpu;
    cl::Program program = device.program("bandwidth", serial ? "-D SERIAL=1" : "-D SERIAL=0");
    const std::size_t wg = serial ? 1 : std::min<std::size_t>(256, device.info().maxWorkGroupSize);
    const std::size_t groups = std::size_t(device.info().computeUnits) * (serial ? 4 : 8);
    return {cl::Kernel(program, name), cl::NDRange(groups * wg), cl::NDRange(wg), serial};
}

CeilingResult measure(Device& device, const char* name, const cl::Buffer& src,
                      const cl::Buffer& third, std::size_t bytes, int factor, int repeats,
                      const CancelToken& cancel) {
    try {
        Launch l = prepare(device, name);
        const cl_uint nelem = static_cast<cl_uint>(bytes / 16);
        l.kernel.setArg(0, src);
        l.kernel.setArg(1, nelem);
        l.kernel.setArg(2, third);
        auto once = [&] {
            cl::Event e;
            device.queue().enqueueNDRangeKernel(l.kernel, cl::NullRange, l.global, l.local, nullptr,
                                                &e);
            e.wait();
            return profiledMs({e});
        };
        CeilingResult r;
        r.kernel = std::string(name) + (l.serial ? " (serial)" : " (coalesced)");
        r.bytes = std::uint64_t(nelem) * 16 * factor;
        r.stats = timeRepeated(repeats, once, cancel);
        r.gbps = gbPerSecond(r.bytes, r.stats.medianMs);
        return r;
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
}

} // namespace

CeilingResult measureReadCeiling(Device& device, const cl::Buffer& buffer, std::size_t bytes,
                                 int repeats, const CancelToken& cancel) {
    try {
        cl::Buffer sink(device.context(), CL_MEM_WRITE_ONLY, 16);
        return measure(device, "read_bytes", buffer, sink, bytes, 1, repeats, cancel);
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
}

CeilingResult measureCopyCeiling(Device& device, const cl::Buffer& src, std::size_t bytes,
                                 int repeats, const CancelToken& cancel) {
    try {
        cl::Buffer dst(device.context(), CL_MEM_WRITE_ONLY, std::max<std::size_t>(bytes, 16));
        return measure(device, "copy_bytes", src, dst, bytes, 2, repeats, cancel);
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
}

} // namespace histlab
