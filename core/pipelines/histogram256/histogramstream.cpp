// The end-to-end histogram (see histogram256.h, "End to end"): wall time from host memory to
// the histogram on the host, with transfers overlapped with the kernels.
#include "pipelines/histogram256/histogramstream.h"
#include "runtime/errors.h"
#include "runtime/log.h"
#include "runtime/parallel.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <mutex>

namespace histlab {
namespace {

// memcpy split over a fixed set of threads that live as long as the run: spawning threads for
// every chunk cost about as much as copying it.
class CopyPool {
public:
    explicit CopyPool(unsigned threads) {
        for (unsigned t = 1; t < threads; ++t)
            m_workers.emplace_back([this, t] { work(t); });
        m_parts = std::max(1u, threads);
    }
    ~CopyPool() {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_wake.notify_all();
        for (Thread& w : m_workers)
            w.join();
    }
    CopyPool(const CopyPool&) = delete;
    CopyPool& operator=(const CopyPool&) = delete;

    void copy(std::uint8_t* dst, const std::uint8_t* src, std::size_t n) {
        if (m_parts == 1 || n < (std::size_t(1) << 20)) {
            std::memcpy(dst, src, n);
            return;
        }
        {
            std::lock_guard lock(m_mutex);
            m_dst = dst;
            m_src = src;
            m_n = n;
            m_pending = m_parts - 1;
            ++m_generation;
        }
        m_wake.notify_all();
        slice(0);
        std::unique_lock lock(m_mutex);
        m_done.wait(lock, [this] { return m_pending == 0; });
    }

private:
    void slice(unsigned part) {
        const std::size_t step = (m_n / m_parts + 63) / 64 * 64;
        const std::size_t b = std::min(m_n, part * step), e = std::min(m_n, b + step);
        if (b < e)
            std::memcpy(m_dst + b, m_src + b, e - b);
    }
    void work(unsigned part) {
        std::uint64_t seen = 0;
        for (;;) {
            {
                std::unique_lock lock(m_mutex);
                m_wake.wait(lock, [&] { return m_stop || m_generation != seen; });
                if (m_stop)
                    return;
                seen = m_generation;
            }
            slice(part);
            std::lock_guard lock(m_mutex);
            if (--m_pending == 0)
                m_done.notify_one();
        }
    }

    std::vector<Thread> m_workers;
    std::mutex m_mutex;
    std::condition_variable m_wake, m_done;
    std::uint8_t* m_dst = nullptr;
    const std::uint8_t* m_src = nullptr;
    std::size_t m_n = 0;
    unsigned m_parts = 1, m_pending = 0;
    std::uint64_t m_generation = 0;
    bool m_stop = false;
};

} // namespace

struct HistogramStream::Impl {
    Device& device;
    HistogramKernel& kernel;
    std::size_t chunk;
    cl::CommandQueue copyQ;
    cl::Buffer hist;
    std::vector<cl::Buffer> slots;                    // made as they are first needed
    std::vector<std::unique_ptr<PinnedHost>> staging; // one a slot, for staged runs
    std::unique_ptr<CopyPool> pool;
};

HistogramStream::HistogramStream(Device& device, HistogramKernel& kernel, std::size_t chunkBytes,
                                 unsigned copyThreads)
    : m(std::make_unique<Impl>(
          Impl{device,
               kernel,
               chunkBytes,
               cl::CommandQueue(device.context(), device.device(), CL_QUEUE_PROFILING_ENABLE),
               cl::Buffer(device.context(), CL_MEM_READ_WRITE,
                          std::size_t(kernel.bins()) * sizeof(cl_uint)),
               {},
               {},
               nullptr})) {
    if (copyThreads)
        m->pool = std::make_unique<CopyPool>(copyThreads);
}

HistogramStream::~HistogramStream() = default;

cl::CommandQueue& HistogramStream::copyQueue() {
    return m->copyQ;
}

std::vector<cl_uint> HistogramStream::run(const std::uint8_t* data, std::size_t bytes, bool staged,
                                          const CancelToken& cancel) {
    if (staged && !m->pool)
        throw std::logic_error("HistogramStream: a staged run needs copy threads");
    constexpr std::size_t kSlots = 3;
    cl::CommandQueue& computeQ = m->device.queue();
    const std::size_t bins = std::size_t(m->kernel.bins());
    const std::size_t chunks = (bytes + m->chunk - 1) / m->chunk;
    std::vector<cl_uint> counts(bins);
    try {
        while (m->slots.size() < std::min(kSlots, chunks))
            m->slots.emplace_back(m->device.context(), CL_MEM_READ_ONLY, m->chunk);
        while (staged && m->staging.size() < m->slots.size())
            m->staging.push_back(std::make_unique<PinnedHost>(m->device, m->chunk));
        const std::size_t n = m->slots.size();
        computeQ.enqueueFillBuffer(m->hist, cl_uint(0), 0, bins * sizeof(cl_uint));
        std::vector<cl::Event> writes(chunks), done(chunks);
        for (std::size_t i = 0; i < chunks; ++i) {
            cancel.throwIfCancelled();
            const std::size_t slot = i % n, off = i * m->chunk;
            const std::size_t len = std::min(m->chunk, bytes - off);
            std::vector<cl::Event> slotFree;
            if (i >= n)
                slotFree.push_back(done[i - n]);
            const std::uint8_t* src = data + off;
            if (staged) {
                if (i >= n)
                    writes[i - n].wait(); // the staging buffer is free again
                m->pool->copy(m->staging[slot]->data(), src, len);
                src = m->staging[slot]->data();
            }
            m->copyQ.enqueueWriteBuffer(m->slots[slot], CL_FALSE, 0, len, src,
                                        slotFree.empty() ? nullptr : &slotFree, &writes[i]);
            m->copyQ.flush();
            std::vector<cl::Event> ready{writes[i]};
            done[i] = m->kernel.enqueue(computeQ, m->slots[slot], len, m->hist, &ready).back();
            computeQ.flush();
        }
        computeQ.enqueueReadBuffer(m->hist, CL_TRUE, 0, bins * sizeof(cl_uint), counts.data());
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
    return counts;
}

std::size_t endToEndChunkBytes(const DeviceInfo& device, std::size_t bytes,
                               std::size_t chunkBytes) {
    if (chunkBytes < 48)
        throw UsageError("--chunk", "must be at least 48 bytes");
    // Chunks after the first start at a multiple of 48 bytes (uint4 loads, 3 or 4 channels); an
    // input that fits in one chunk is sent whole.
    const std::size_t chunk = bytes <= chunkBytes ? bytes : chunkBytes / 48 * 48;
    if (chunk > device.maxAllocBytes)
        throw UsageError("--chunk", "larger than the device's largest buffer");
    return chunk;
}

EndToEndRun runHistogramEndToEnd(Device& device, const std::uint8_t* data, std::size_t bytes,
                                 const HistogramRequest& request, const EndToEndOptions& options,
                                 const CancelToken& cancel) {
    if (bytes == 0)
        throw InputError("end-to-end: the input is empty");
    if (options.repeats < 1)
        throw UsageError("--repeat", "must be at least 1");
    const int nchan = options.nchan;
    const std::size_t chunk = endToEndChunkBytes(device.info(), bytes, options.chunkBytes);
    EndToEndRun run;
    std::vector<std::vector<std::uint64_t>> modeCounts; // pinned, staged, pageable
    run.device = device.info();
    run.bytes = bytes;
    run.chunkBytes = chunk;
    run.chunks = (bytes + chunk - 1) / chunk;
    run.hostThreads = std::min(16u, hostThreads());
    try {
        run.config = resolveHistogramConfig(device, request, nchan, cancel, chunk);
        HistogramKernel kernel(device, run.config, nchan);
        const cl::Context& ctx = device.context();
        HistogramStream streamer(device, kernel, chunk, run.hostThreads);
        cl::CommandQueue& copyQ = streamer.copyQueue();

        // The image in pinned host memory (copied there once, outside the timing).
        PinnedHost pinned(device, bytes);
        std::memcpy(pinned.data(), data, bytes);

        std::vector<cl_uint> counts;
        enum class Mode { Pinned, Staged, Pageable };
        auto stream = [&](Mode mode) {
            return wallClockMs([&] {
                counts = streamer.run(mode == Mode::Pinned ? pinned.data() : data, bytes,
                                      mode == Mode::Staged, cancel);
            });
        };
        // Every mode's last result is kept and verified, not only the first mode's.
        auto timed = [&](Mode mode) {
            TimingStats t = timeRepeated(
                options.repeats, [&] { return stream(mode); }, cancel);
            modeCounts.emplace_back(counts.begin(), counts.end());
            return t;
        };
        run.streamPinned = timed(Mode::Pinned);
        run.streamStaged = timed(Mode::Staged);
        run.streamPageable = timed(Mode::Pageable);
        run.counts = modeCounts.front();

        // References: the whole input written at once, from pinned and from ordinary memory.
        cl::Buffer whole(ctx, CL_MEM_READ_ONLY, bytes);
        run.pinnedWrite = timeRepeated(
            options.repeats,
            [&] {
                return wallClockMs(
                    [&] { copyQ.enqueueWriteBuffer(whole, CL_TRUE, 0, bytes, pinned.data()); });
            },
            cancel);
        run.pageableWrite = timeRepeated(
            options.repeats,
            [&] {
                return wallClockMs(
                    [&] { copyQ.enqueueWriteBuffer(whole, CL_TRUE, 0, bytes, data); });
            },
            cancel);
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
    run.pinnedGBps = gbPerSecond(bytes, run.pinnedWrite.medianMs);
    run.pageableGBps = gbPerSecond(bytes, run.pageableWrite.medianMs);
    run.streamPinnedGBps = gbPerSecond(bytes, run.streamPinned.medianMs);
    run.streamStagedGBps = gbPerSecond(bytes, run.streamStaged.medianMs);
    run.streamPageableGBps = gbPerSecond(bytes, run.streamPageable.medianMs);
    if (options.verify) {
        const auto ref = referenceHistogram(data, bytes, nchan);
        static const char* modes[] = {"pinned", "staged", "pageable"};
        run.verified = true;
        for (std::size_t m = 0; m < modeCounts.size() && *run.verified; ++m) {
            std::string what = "end-to-end (";
            what += modes[m];
            what += ")";
            run.verifyDetail = firstMismatch(what, modeCounts[m], ref);
            run.verified = run.verifyDetail.empty();
        }
    }
    return run;
}

namespace {

/// One device's means of counting pieces of an image: its kernel, the input pinned for
/// streaming and resident for kernels-only runs.
class HistogramSplitCounter : public SplitCounter {
public:
    HistogramSplitCounter(Device& device, const HostImage& image, const HistogramRequest& request,
                          const HistogramLayout& layout, std::size_t chunkBytes,
                          const CancelToken& cancel)
        : m_device(device) {
        const std::size_t bytes = image.data.size();
        const std::size_t chunk = endToEndChunkBytes(device.info(), bytes, chunkBytes);
        m_config = resolveHistogramConfig(device, request, layout, cancel, chunk);
        m_kernel = std::make_unique<HistogramKernel>(device, m_config, layout);
        m_stream = std::make_unique<HistogramStream>(device, *m_kernel, chunk);
        m_pinned = std::make_unique<PinnedHost>(device, bytes);
        std::memcpy(m_pinned->data(), image.data.data(), bytes);
        const cl::Context& ctx = device.context();
        m_resident = cl::Buffer(ctx, CL_MEM_READ_ONLY, bytes);
        m_hist =
            cl::Buffer(ctx, CL_MEM_READ_WRITE, std::size_t(m_kernel->bins()) * sizeof(cl_uint));
        device.queue().enqueueWriteBuffer(m_resident, CL_TRUE, 0, bytes, image.data.data());
    }
    std::string config() const override { return m_config.describe(); }
    std::vector<std::uint64_t> streamed(std::uint64_t offset, std::uint64_t len,
                                        const CancelToken& cancel) override {
        if (len == 0)
            return std::vector<std::uint64_t>(std::size_t(m_kernel->bins()), 0);
        const std::vector<cl_uint> c = m_stream->run(m_pinned->data() + offset, len, false, cancel);
        return std::vector<std::uint64_t>(c.begin(), c.end());
    }
    double kernels(std::uint64_t offset, std::uint64_t len) override {
        if (len == 0)
            return 0;
        cl::CommandQueue& q = m_device.queue();
        q.enqueueFillBuffer(m_hist, cl_uint(0), 0, std::size_t(m_kernel->bins()) * sizeof(cl_uint));
        const cl_buffer_region region{offset, len};
        const cl::Buffer piece =
            m_resident.createSubBuffer(CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &region);
        const std::vector<cl::Event> events = m_kernel->enqueuePieces(q, piece, len, m_hist);
        cl::Event::waitForEvents(events);
        return profiledMs(events);
    }

private:
    Device& m_device;
    HistogramConfig m_config;
    std::unique_ptr<HistogramKernel> m_kernel;
    std::unique_ptr<HistogramStream> m_stream;
    std::unique_ptr<PinnedHost> m_pinned;
    cl::Buffer m_resident, m_hist;
};

} // namespace

SplitRun runHistogramSplit(const std::vector<Device*>& devices, const HostImage& image,
                           const HistogramRequest& request, int repeats, std::size_t chunkBytes,
                           const DeviceFault& fault, const CancelToken& cancel) {
    if (image.depth != 8)
        throw UsageError("--device", "several devices split 8-bit images (this one is " +
                                         depthName(image.depth) + ")");
    const std::uint64_t bytes = image.data.size();
    if (bytes == 0)
        throw InputError(image.source + ": no pixels to count");
    const HistogramLayout layout(image.channels, image.channels > 1);
    const std::shared_ptr<const HistogramReference> reference = countReference(image);
    const std::vector<std::uint64_t> want = referenceCounts(*reference, layout);
    SplitInput input;
    input.length = bytes;
    // Pieces start at multiples of 12,288 bytes: whole pixels of 1, 3 or 4 channels, whole
    // uint4 loads, and any sub-buffer alignment a device asks (up to 4,096 bytes).
    input.unit = 12288;
    input.counter = [&](Device& device, std::size_t) {
        return std::make_unique<HistogramSplitCounter>(device, image, request, layout, chunkBytes,
                                                       cancel);
    };
    input.check = [&](const std::string& what, const std::vector<std::uint64_t>& counts) {
        return firstMismatch(what, counts, want);
    };
    SplitRun run;
    static_cast<SplitTiming&>(run) = runSplit(devices, input, repeats, fault, cancel);
    run.input = image.source;
    run.bytes = bytes;
    run.layout = layout;
    run.histograms = splitLayoutCounts(run.counts, layout);
    return run;
}

} // namespace histlab
