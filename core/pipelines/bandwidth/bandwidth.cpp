#include "pipelines/bandwidth/bandwidth.h"

#include "image/image.h"
#include "runtime/buildoptions.h"
#include "runtime/errors.h"
#include "runtime/log.h"

#include <algorithm>

namespace histlab {

std::string CeilingKernel::label(bool copy) const {
    if (shape == CeilingShape::CopyBuffer)
        return "clEnqueueCopyBuffer";
    const std::string type = width == 1 ? "uint" : "uint" + std::to_string(width);
    const char* op = copy ? "copy" : "read";
    switch (shape) {
    case CeilingShape::Serial:
        return std::string(op) + "_bytes " + type + " (serial)";
    case CeilingShape::Items:
        return std::string(op) + "_items " + type + " (one per work-item)";
    default:
        return std::string(op) + "_bytes " + type + " x" + std::to_string(unroll) +
               " (grid-stride)";
    }
}

std::vector<CeilingKernel> ceilingFamily(DeviceType type, bool copy) {
    using S = CeilingShape;
    std::vector<CeilingKernel> family;
    if (type == DeviceType::Cpu)
        family = {{S::Serial, 4, 1}, {S::Serial, 16, 1}, {S::Items, 4, 1}, {S::Items, 16, 1}};
    else
        family = {{S::Strided, 4, copy ? 1 : 4},
                  {S::Strided, 4, copy ? 4 : 8},
                  {S::Items, 4, 1},
                  {S::Items, 2, 1}};
    if (copy)
        family.push_back({S::CopyBuffer, 4, 1});
    return family;
}

CeilingTiming measureCeilingKernel(Device& device, const CeilingKernel& k, bool copy,
                                   const cl::Buffer& src, const cl::Buffer& third,
                                   std::size_t bytes, int repeats, const CancelToken& cancel) {
    const TimingPartner::Pause pause; // a ceiling is never timed run for run with a ceiling
    try {
        const std::size_t elementBytes = 4 * std::size_t(k.width);
        const cl_uint nelem = static_cast<cl_uint>(bytes / elementBytes);
        CeilingTiming r;
        r.kernel = k.label(copy);
        if (nelem == 0) { // nothing to time: a size of 0 is not a valid copy
            r.error = "fewer bytes than one " + std::to_string(elementBytes) + "-byte element";
            return r;
        }
        std::function<void(cl::Event*)> enqueue;
        cl::Kernel kernel;
        cl::NDRange global, local;
        if (k.shape == CeilingShape::CopyBuffer) {
            enqueue = [&](cl::Event* e) {
                device.queue().enqueueCopyBuffer(src, third, 0, 0, nelem * elementBytes, nullptr,
                                                 e);
            };
        } else {
            const bool serial = k.shape == CeilingShape::Serial;
            const bool items = k.shape == CeilingShape::Items;
            cl::Program program = device.program("bandwidth", BuildOptions()
                                                                  .define("SERIAL", serial)
                                                                  .define("WIDTH", k.width)
                                                                  .define("UNROLL", k.unroll)
                                                                  .text());
            const std::size_t wg =
                serial ? 1 : std::min<std::size_t>(256, device.info().maxWorkGroupSize);
            const std::size_t units = std::size_t(device.info().computeUnits);
            kernel = cl::Kernel(program, items ? (copy ? "copy_items" : "read_items")
                                               : (copy ? "copy_bytes" : "read_bytes"));
            global = cl::NDRange(items ? roundUp(nelem, wg) : units * (serial ? 4 : 8) * wg);
            local = cl::NDRange(wg);
            kernel.setArg(0, src);
            kernel.setArg(1, nelem);
            kernel.setArg(2, third);
            enqueue = [&](cl::Event* e) {
                device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr,
                                                    e);
            };
        }
        auto once = [&] {
            cl::Event e;
            enqueue(&e);
            e.wait();
            return profiledMs({e});
        };
        r.bytes = std::uint64_t(nelem) * elementBytes * (copy ? 2 : 1);
        r.stats = timeRepeated(repeats, once, cancel);
        r.gbps = gbPerSecond(r.bytes, r.stats.medianMs);
        r.bestGbps = gbPerSecond(r.bytes, r.stats.minMs);
        return r;
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
}

namespace {

// The fastest run of the device's family on these bytes; a member that cannot run is kept with its
// reason, and if none ran the last one's error is thrown.
CeilingResult measureFamily(Device& device, bool copy, const cl::Buffer& src,
                            const cl::Buffer& third, std::size_t bytes, int repeats,
                            const CancelToken& cancel) {
    CeilingResult best;
    std::exception_ptr lastError;
    for (const CeilingKernel& k : ceilingFamily(device.info().type, copy)) {
        cancel.throwIfCancelled();
        CeilingTiming t;
        try {
            t = measureCeilingKernel(device, k, copy, src, third, bytes, repeats, cancel);
        } catch (const DeviceError& e) { // BuildError and UnsupportedError included
            lastError = std::current_exception();
            t.kernel = k.label(copy);
            t.error = e.what();
        }
        if (t.error.empty() && t.bestGbps > best.gbps) {
            best.kernel = t.kernel;
            best.bytes = t.bytes;
            best.stats = t.stats;
            best.gbps = t.bestGbps;
        }
        best.family.push_back(std::move(t));
    }
    if (best.kernel.empty() && lastError)
        std::rethrow_exception(lastError);
    if (best.kernel.empty()) // every member had fewer bytes than its element: gbps stays 0
        best.kernel = "none (fewer than 16 bytes)";
    return best;
}

// The memory lab's sweep: one width of the original kernels (grid-stride, four loads in flight
// for the read and one for the copy; serial runs on a CPU), so that sweeps stay comparable.
CeilingTiming measureWidth(Device& device, bool copy, const cl::Buffer& src,
                           const cl::Buffer& third, std::size_t bytes, int repeats,
                           const CancelToken& cancel, int width) {
    const bool cpu = device.info().type == DeviceType::Cpu;
    const CeilingKernel k{cpu ? CeilingShape::Serial : CeilingShape::Strided, width, copy ? 1 : 4};
    return measureCeilingKernel(device, k, copy, src, third, bytes, repeats, cancel);
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
        return measureFamily(device, false, buffer, sink, bytes, repeats, cancel);
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
}

CeilingResult measureCopyCeiling(Device& device, const cl::Buffer& src, std::size_t bytes,
                                 int repeats, const CancelToken& cancel) {
    try {
        cl::Buffer dst(device.context(), CL_MEM_READ_WRITE, std::max<std::size_t>(bytes, 16));
        return measureFamily(device, true, src, dst, bytes, repeats, cancel);
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
}

AlternatingCeilings::AlternatingCeilings(Device& device, std::size_t bytes, int repeats,
                                         const CancelToken& cancel)
    : m_device(device)
    , m_bytes(bytes) {
    m_src = randomDeviceBuffer(device, bytes, cancel);
    try {
        m_sink = cl::Buffer(device.context(), CL_MEM_WRITE_ONLY, 16);
        m_dst = cl::Buffer(device.context(), CL_MEM_READ_WRITE, std::max<std::size_t>(bytes, 16));
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
    m_read = measureFamily(device, false, m_src, m_sink, bytes, repeats, cancel);
    m_copy = measureFamily(device, true, m_src, m_dst, bytes, repeats, cancel);
}

void AlternatingCeilings::runOnce(const CancelToken& cancel) {
    for (const bool copy : {false, true}) {
        const CeilingResult& c = copy ? m_copy : m_read;
        // Every member that ran at the start, once; the round's ceiling is the fastest of them,
        // in milliseconds on the winner's bytes. (The start's winner alone is a poor guess on a
        // loaded CPU device: timed run for run with it, a reversal read 171-264 % of the copy
        // ceiling at 64 MiB on PoCL beside two copying processes; against each round's fastest
        // member, 82-94 %, and 96 % unloaded.)
        double best = 0; // GB/s; none ran (fewer bytes than an element): 0 keeps runs() in step
        const std::vector<CeilingKernel> family = ceilingFamily(m_device.info().type, copy);
        for (std::size_t i = 0; i < family.size() && i < c.family.size(); ++i) {
            if (!c.family[i].error.empty())
                continue;
            const CeilingTiming t = measureCeilingKernel(m_device, family[i], copy, m_src,
                                                         copy ? m_dst : m_sink, m_bytes, 0, cancel);
            best = std::max(best, t.gbps);
        }
        (copy ? m_copyRuns : m_readRuns).push_back(best > 0 ? double(c.bytes) / (best * 1e6) : 0.0);
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
            c.read = measureWidth(device, false, src, sink, bytes, repeats, cancel, w);
            try {
                // The copy must really copy: its output starts as 0xA5 and is compared after.
                device.queue().enqueueFillBuffer(dst, std::uint8_t(0xA5), 0, bytes);
                c.copy = measureWidth(device, true, src, dst, bytes, repeats, cancel, w);
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
