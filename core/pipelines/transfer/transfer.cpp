// Transfers and launch latency: the host side. The metric is defined at the top of transfer.h;
// every kind goes through one timed path (measurePoint), each kind only saying how it
// poisons, moves and checks its bytes (kinds' lambdas in runTransfers).
#include "pipelines/transfer/transfer.h"

#include "image/image.h"
#include "runtime/enumtable.h"
#include "runtime/errors.h"
#include "runtime/log.h"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace histlab {
namespace {

const EnumTable<TransferKind>& transferKinds() {
    static const EnumTable<TransferKind> table(
        "--transfer", "a transfer",
        {{TransferKind::HostToDevicePageable, "h2d-pageable"},
         {TransferKind::HostToDevicePinned, "h2d-pinned"},
         {TransferKind::DeviceToHostPageable, "d2h-pageable"},
         {TransferKind::DeviceToHostPinned, "d2h-pinned"},
         {TransferKind::DeviceToDevice, "d2d"}});
    return table;
}

constexpr std::uint8_t kPoison = 0xA5;
constexpr std::uint64_t kSmallPoint = std::uint64_t(1) << 20;
constexpr int kSmallPointRepeats = 20;

} // namespace

const char* transferKindName(TransferKind kind) {
    return transferKinds().name(kind);
}

TransferKind parseTransferKind(const std::string& name) {
    return transferKinds().parse(name);
}

std::vector<TransferKind> allTransferKinds() {
    return transferKinds().values();
}

std::vector<std::uint64_t> transferSizes(std::uint64_t minBytes, std::uint64_t maxBytes) {
    std::vector<std::uint64_t> sizes;
    for (std::uint64_t s = minBytes; s > 0 && s <= maxBytes; s *= 2)
        sizes.push_back(s);
    if (minBytes <= maxBytes && (sizes.empty() || sizes.back() != maxBytes))
        sizes.push_back(maxBytes);
    return sizes;
}

std::uint64_t defaultTransferMax(const DeviceInfo& device) {
    const std::uint64_t bytes =
        device.type == DeviceType::Cpu ? std::uint64_t(256) << 20 : std::uint64_t(1) << 30;
    return std::min(bytes, device.maxAllocBytes);
}

void checkTransferMax(const DeviceInfo& info, std::uint64_t maxBytes) {
    if (maxBytes > info.maxAllocBytes)
        throw UsageError("--max-size",
                         std::to_string(maxBytes) + " bytes do not fit one buffer of " + info.name +
                             " (at most " + std::to_string(info.maxAllocBytes) + " bytes)");
}

void checkTransferSpec(const DeviceInfo& info, const TransferSpec& spec) {
    const std::uint64_t maxBytes = spec.maxBytes ? spec.maxBytes : defaultTransferMax(info);
    checkTransferMax(info, maxBytes);
    if (spec.minBytes == 0)
        throw UsageError("--min-size", "must be at least 1 byte");
    if (spec.minBytes > maxBytes)
        throw UsageError("--min-size", std::to_string(spec.minBytes) +
                                           " bytes is above --max-size (" +
                                           std::to_string(maxBytes) + " bytes)");
    if (spec.repeats < 1)
        throw UsageError("--repeat", "must be at least 1");
}

const TransferPoint* TransferSweep::largest(TransferKind kind) const {
    const TransferPoint* best = nullptr;
    for (const TransferPoint& p : points)
        if (p.kind == kind && (!best || p.bytes > best->bytes))
            best = &p;
    return best;
}

namespace {

// A host buffer the OpenCL driver has pinned: CL_MEM_ALLOC_HOST_PTR, mapped once for the
// sweep's lifetime and unmapped at the end.
class MappedHostBuffer {
public:
    MappedHostBuffer(Device& device, std::size_t bytes)
        : m_queue(device.queue()) {
        m_buffer = cl::Buffer(device.context(), CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes);
        m_ptr = static_cast<std::uint8_t*>(
            m_queue.enqueueMapBuffer(m_buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes));
    }
    ~MappedHostBuffer() {
        try {
            m_queue.enqueueUnmapMemObject(m_buffer, m_ptr);
            m_queue.finish();
        } catch (...) { // nothing a destructor could do about it
        }
    }
    MappedHostBuffer(const MappedHostBuffer&) = delete;
    MappedHostBuffer& operator=(const MappedHostBuffer&) = delete;
    std::uint8_t* data() const { return m_ptr; }

private:
    cl::CommandQueue& m_queue;
    cl::Buffer m_buffer;
    std::uint8_t* m_ptr = nullptr;
};

// How one kind moves its bytes: `poison` prepares the destination (outside the timing),
// `transfer` is the blocking call that is timed (it sets the command's event), `check` returns
// "" when the destination holds the source's first `bytes` bytes, else where it does not.
struct KindOps {
    std::function<void(std::size_t bytes)> poison;
    std::function<void(std::size_t bytes, cl::Event& event)> transfer;
    std::function<std::string(std::size_t bytes)> check;
};

std::string compareBytes(const std::uint8_t* expected, const std::uint8_t* actual,
                         std::size_t bytes) {
    if (std::memcmp(expected, actual, bytes) == 0)
        return "";
    const auto diff = std::mismatch(expected, expected + bytes, actual);
    std::size_t wrong = 0;
    for (std::size_t i = std::size_t(diff.first - expected); i < bytes; ++i)
        wrong += expected[i] != actual[i] ? 1 : 0;
    return "byte " + std::to_string(diff.first - expected) + " differs from the source (" +
           std::to_string(wrong) + " of " + std::to_string(bytes) + " bytes wrong)";
}

TransferPoint measurePoint(TransferKind kind, std::uint64_t bytes, const KindOps& ops, int repeats,
                           const CancelToken& cancel) {
    TransferPoint p;
    p.kind = kind;
    p.bytes = bytes;
    try {
        try {
            std::vector<double> profiled;
            int run = 0;
            const auto once = [&] {
                ops.poison(bytes);
                cl::Event event;
                const double ms = wallClockMs([&] { ops.transfer(bytes, event); });
                profiled.push_back(profiledMs({event}));
                // Every run must deliver the bytes; checked outside the timing.
                const std::string wrong = ops.check(bytes);
                if (!wrong.empty() && p.detail.empty())
                    p.detail =
                        (run == 0 ? std::string("warm-up") : "timed run " + std::to_string(run)) +
                        ": " + wrong;
                ++run;
                return ms;
            };
            p.wall = timeRepeated(repeats, once, cancel);
            profiled.erase(profiled.begin()); // the warm-up's
            p.profiled = summarize(std::move(profiled));
        } catch (const cl::Error& e) {
            rethrowClError(e);
        }
        p.status = p.detail.empty() ? Status::Verified : Status::Mismatch;
        p.gbps = gbPerSecond(bytes, p.wall.medianMs);
    } catch (const UnsupportedError& e) {
        p.status = Status::Unsupported;
        p.detail = e.what();
    } catch (const DeviceError& e) {
        p.status = Status::Failed;
        p.detail = e.what();
    }
    if (!statusRan(p.status)) {
        p.wall = {};
        p.profiled = {};
    }
    return p;
}

/// A sweep's buffers, made once at its largest size: the source (random bytes), the host copy
/// every check reads into, two device buffers, and pinned buffers made when a pinned kind first
/// needs them (failing to make them fails that kind's points, not the sweep); and each kind's
/// poison, transfer and check over them.
class TransferBuffers {
public:
    TransferBuffers(Device& device, std::size_t max)
        : m_device(device)
        , m_max(max)
        , m_source(max)
        , m_hostDst(max)
        , m_q(device.queue()) {
        fillSynthetic(SyntheticKind::Random, m_source.data(), max, 11);
        std::memset(m_hostDst.data(), 0, max); // touched: no first-use page faults in the timing
        try {
            m_devA = cl::Buffer(device.context(), CL_MEM_READ_WRITE, max);
            m_devB = cl::Buffer(device.context(), CL_MEM_READ_WRITE, max);
        } catch (const cl::Error& e) {
            rethrowClError(e);
        }
    }

    /// The poison, transfer and check of `kind`; cl::Error or DeviceError when its buffers
    /// cannot be made or filled.
    KindOps opsFor(TransferKind kind) {
        switch (kind) {
        case TransferKind::HostToDevicePageable:
            m_devAHoldsSource = false;
            return {poisonDevice(m_devA), write(m_source.data()), checkDevice(m_devA)};
        case TransferKind::HostToDevicePinned: {
            KindOps ops{poisonDevice(m_devA), write(pinned(m_pinnedSrc, true)),
                        checkDevice(m_devA)};
            m_devAHoldsSource = false;
            return ops;
        }
        case TransferKind::DeviceToHostPageable:
        case TransferKind::DeviceToHostPinned:
        case TransferKind::DeviceToDevice:
            break;
        }
        if (!m_devAHoldsSource) { // the whole source on the device, once
            m_q.enqueueWriteBuffer(m_devA, CL_TRUE, 0, m_max, m_source.data());
            m_devAHoldsSource = true;
        }
        if (kind == TransferKind::DeviceToDevice)
            return {poisonDevice(m_devB),
                    [this](std::size_t bytes, cl::Event& e) {
                        m_q.enqueueCopyBuffer(m_devA, m_devB, 0, 0, bytes, nullptr, &e);
                        e.wait();
                    },
                    checkDevice(m_devB)};
        std::uint8_t* to = kind == TransferKind::DeviceToHostPinned ? pinned(m_pinnedDst, false)
                                                                    : m_hostDst.data();
        return {poisonHost(to), read(to), checkHost(to)};
    }

private:
    std::uint8_t* pinned(std::optional<MappedHostBuffer>& buffer, bool fill) {
        if (!buffer) {
            try {
                buffer.emplace(m_device, m_max);
            } catch (const cl::Error& e) {
                rethrowClError(e);
            }
            if (fill)
                std::memcpy(buffer->data(), m_source.data(), m_max);
        }
        return buffer->data();
    }
    std::function<void(std::size_t)> poisonDevice(cl::Buffer& b) {
        return [this, &b](std::size_t bytes) {
            m_q.enqueueFillBuffer(b, kPoison, 0, bytes);
            m_q.finish();
        };
    }
    static std::function<void(std::size_t)> poisonHost(std::uint8_t* p) {
        return [p](std::size_t bytes) { std::memset(p, kPoison, bytes); };
    }
    std::function<std::string(std::size_t)> checkDevice(cl::Buffer& b) {
        return [this, &b](std::size_t bytes) {
            m_q.enqueueReadBuffer(b, CL_TRUE, 0, bytes, m_hostDst.data());
            return compareBytes(m_source.data(), m_hostDst.data(), bytes);
        };
    }
    std::function<std::string(std::size_t)> checkHost(std::uint8_t* p) {
        return [this, p](std::size_t bytes) { return compareBytes(m_source.data(), p, bytes); };
    }
    std::function<void(std::size_t, cl::Event&)> write(const std::uint8_t* from) {
        return [this, from](std::size_t bytes, cl::Event& e) {
            m_q.enqueueWriteBuffer(m_devA, CL_TRUE, 0, bytes, from, nullptr, &e);
        };
    }
    std::function<void(std::size_t, cl::Event&)> read(std::uint8_t* to) {
        return [this, to](std::size_t bytes, cl::Event& e) {
            m_q.enqueueReadBuffer(m_devA, CL_TRUE, 0, bytes, to, nullptr, &e);
        };
    }

    Device& m_device;
    std::size_t m_max;
    std::vector<std::uint8_t> m_source, m_hostDst;
    cl::CommandQueue& m_q;
    cl::Buffer m_devA, m_devB;
    std::optional<MappedHostBuffer> m_pinnedSrc, m_pinnedDst;
    bool m_devAHoldsSource = false;
};

} // namespace

LaunchLatency measureLaunchLatency(Device& device, int repeats, const CancelToken& cancel) {
    LaunchLatency l;
    try {
        try {
            cl::Kernel kernel(device.program("transfer", ""), "do_nothing");
            cl::CommandQueue& q = device.queue();
            std::vector<double> profiled;
            const auto once = [&] {
                cl::Event event;
                const double ms = wallClockMs([&] {
                    q.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1), cl::NDRange(1),
                                           nullptr, &event);
                    q.finish();
                });
                profiled.push_back(profiledMs({event}));
                return ms;
            };
            l.wall = timeRepeated(repeats, once, cancel);
            profiled.erase(profiled.begin()); // the warm-up's
            l.profiled = summarize(std::move(profiled));
            l.ran = true;
        } catch (const cl::Error& e) {
            rethrowClError(e);
        }
    } catch (const DeviceError& e) {
        l.detail = e.what();
    }
    return l;
}

TransferSweep runTransfers(Device& device, const TransferSpec& spec, const CancelToken& cancel,
                           const std::function<void(const TransferPoint&)>& progress) {
    const DeviceInfo& info = device.info();
    checkTransferSpec(info, spec);
    const std::uint64_t maxBytes = spec.maxBytes ? spec.maxBytes : defaultTransferMax(info);
    TransferSweep sweep;
    sweep.device = info;
    sweep.sizes = transferSizes(spec.minBytes, maxBytes);
    TransferBuffers buffers(device, std::size_t(maxBytes));

    for (TransferKind kind : spec.kinds) {
        KindOps ops;
        std::string setupError;
        try {
            try {
                ops = buffers.opsFor(kind);
            } catch (const cl::Error& e) {
                rethrowClError(e);
            }
        } catch (const DeviceError& e) {
            setupError = e.what();
        }
        for (std::uint64_t bytes : sweep.sizes) {
            cancel.throwIfCancelled();
            TransferPoint p;
            if (!setupError.empty()) {
                p.kind = kind;
                p.bytes = bytes;
                p.status = Status::Failed;
                p.detail = setupError;
            } else {
                const int repeats = bytes <= kSmallPoint
                                        ? std::max(spec.repeats, kSmallPointRepeats)
                                        : spec.repeats;
                p = measurePoint(kind, bytes, ops, repeats, cancel);
            }
            logInfo("transfer", std::string(transferKindName(kind)) + " " + formatByteSize(bytes) +
                                    ": " + statusName(p.status) +
                                    (p.detail.empty() ? "" : " - " + p.detail));
            if (progress)
                progress(p);
            sweep.points.push_back(std::move(p));
        }
    }
    if (spec.launchLatency) {
        cancel.throwIfCancelled();
        sweep.launch = measureLaunchLatency(device, std::max(spec.launchRepeats, 1), cancel);
    }
    return sweep;
}

} // namespace histlab
