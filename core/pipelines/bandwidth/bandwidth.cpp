#include "pipelines/bandwidth/bandwidth.h"

#include "image/image.h"
#include "runtime/buildoptions.h"
#include "runtime/errors.h"
#include "runtime/log.h"

#include <algorithm>

namespace histlab {
namespace {

struct Launch {
    cl::Kernel kernel;
    cl::NDRange global, local;
    bool serial;
};

Launch prepare(Device& device, const char* name, int width) {
    const bool serial = device.info().type == DeviceType::Cpu;
    cl::Program program = device.program(
        "bandwidth", BuildOptions().define("SERIAL", serial).define("WIDTH", width).text());
    const std::size_t wg = serial ? 1 : std::min<std::size_t>(256, device.info().maxWorkGroupSize);
    const std::size_t groups = std::size_t(device.info().computeUnits) * (serial ? 4 : 8);
    return {cl::Kernel(program, name), cl::NDRange(groups * wg), cl::NDRange(wg), serial};
}

// `width` uints per element (kernels/bandwidth.cl's WIDTH); 4 (uint4) unless a sweep says.
CeilingResult measure(Device& device, const char* name, const cl::Buffer& src,
                      const cl::Buffer& third, std::size_t bytes, int factor, int repeats,
                      const CancelToken& cancel, int width = 4) {
    try {
        Launch l = prepare(device, name, width);
        const std::size_t elementBytes = 4 * std::size_t(width);
        const cl_uint nelem = static_cast<cl_uint>(bytes / elementBytes);
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
        r.bytes = std::uint64_t(nelem) * elementBytes * factor;
        r.stats = timeRepeated(repeats, once, cancel);
        r.gbps = gbPerSecond(r.bytes, r.stats.medianMs);
        return r;
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
}

} // namespace

cl::Buffer randomDeviceBuffer(Device& device, std::size_t bytes, const CancelToken& cancel) {
    constexpr std::size_t pieceBytes = std::size_t(16) << 20;
    try {
        cl::Buffer buffer(device.context(), CL_MEM_READ_ONLY, bytes);
        std::vector<std::uint8_t> piece(std::min(bytes, pieceBytes));
        for (std::size_t off = 0; off < bytes; off += piece.size()) {
            cancel.throwIfCancelled();
            const std::size_t n = std::min(piece.size(), bytes - off);
            fillSynthetic(SyntheticKind::Random, piece.data(), n, 29 + off);
            device.queue().enqueueWriteBuffer(buffer, CL_TRUE, off, n, piece.data());
        }
        return buffer;
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
}

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

CeilingSweep measureCeilingWidths(Device& device, std::size_t bytes, int repeats,
                                  const CancelToken& cancel, const std::vector<int>& widths) {
    for (int w : widths)
        if (std::find(kCeilingWidths.begin(), kCeilingWidths.end(), w) == kCeilingWidths.end())
            throw UsageError("--width", std::to_string(w) + " is not a vector width (1, 2, 4, 8 "
                                                            "or 16 uints per element)");
    const DeviceInfo& info = device.info();
    bytes = bytes / 64 * 64; // the same bytes for every width, up to uint16 (64 bytes)
    if (bytes == 0)
        throw UsageError("--ceiling-size", "the ceilings need at least 64 bytes");
    if (bytes > info.maxAllocBytes || bytes / 4 > 0xFFFFFFFFu)
        throw UsageError("--ceiling-size",
                         std::to_string(bytes) + " bytes do not fit one buffer of " + info.name +
                             " (at most " + std::to_string(info.maxAllocBytes) + " bytes)");
    CeilingSweep sweep;
    sweep.bytes = bytes;
    std::vector<std::uint8_t> data(bytes), back(bytes);
    fillSynthetic(SyntheticKind::Random, data.data(), bytes, 7);
    cl::Buffer src, dst, sink;
    try {
        src = cl::Buffer(device.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                         data.data());
        dst = cl::Buffer(device.context(), CL_MEM_READ_WRITE, bytes);
        sink = cl::Buffer(device.context(), CL_MEM_WRITE_ONLY, 16);
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
    for (int w : widths) {
        cancel.throwIfCancelled();
        WidthCeiling c;
        c.width = w;
        try {
            c.read = measure(device, "read_bytes", src, sink, bytes, 1, repeats, cancel, w);
            try {
                // The copy must really copy: its output starts as 0xA5 and is compared after.
                device.queue().enqueueFillBuffer(dst, std::uint8_t(0xA5), 0, bytes);
                c.copy = measure(device, "copy_bytes", src, dst, bytes, 2, repeats, cancel, w);
                device.queue().enqueueReadBuffer(dst, CL_TRUE, 0, bytes, back.data());
            } catch (const cl::Error& e) {
                rethrowClError(e);
            }
            const auto diff = std::mismatch(data.begin(), data.end(), back.begin());
            c.status = diff.first == data.end() ? Status::Verified : Status::Mismatch;
            if (diff.first != data.end())
                c.detail = "the copy's output differs from its input at byte " +
                           std::to_string(diff.first - data.begin());
        } catch (const UnsupportedError& e) {
            c.status = Status::Unsupported;
            c.detail = e.what();
        } catch (const BuildError& e) {
            c.status = Status::Failed;
            c.detail = std::string(e.what()) + " (options \"" + e.options() + "\")";
        } catch (const DeviceError& e) {
            c.status = Status::Failed;
            c.detail = e.what();
        }
        logInfo("ceiling", "width " + std::to_string(w) + ": " + statusName(c.status) + ", read " +
                               std::to_string(c.read.gbps) + " GB/s, copy " +
                               std::to_string(c.copy.gbps) + " GB/s" +
                               (c.detail.empty() ? "" : " - " + c.detail));
        if (c.status == Status::Verified) {
            if (c.read.gbps > sweep.bestReadGbps) {
                sweep.bestReadGbps = c.read.gbps;
                sweep.bestReadWidth = w;
            }
            if (c.copy.gbps > sweep.bestCopyGbps) {
                sweep.bestCopyGbps = c.copy.gbps;
                sweep.bestCopyWidth = w;
            }
        }
        sweep.widths.push_back(std::move(c));
    }
    return sweep;
}

} // namespace histlab
