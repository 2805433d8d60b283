// The end-to-end histogram (see histogram256.h, "End to end"): wall time from host memory to
// the histogram on the host, with transfers overlapped with the kernels.
#include "pipelines/histogram256/histogram256.h"
#include "runtime/errors.h"
#include "runtime/log.h"

#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

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
        for (auto& w : m_workers)
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

    std::vector<std::thread> m_workers;
    std::mutex m_mutex;
    std::condition_variable m_wake, m_done;
    std::uint8_t* m_dst = nullptr;
    const std::uint8_t* m_src = nullptr;
    std::size_t m_n = 0;
    unsigned m_parts = 1, m_pending = 0;
    std::uint64_t m_generation = 0;
    bool m_stop = false;
};

// A host buffer the OpenCL driver has pinned (CL_MEM_ALLOC_HOST_PTR, mapped once).
class PinnedHost {
public:
    PinnedHost(Device& device, std::size_t bytes)
        : m_queue(device.queue()) {
        m_buffer = cl::Buffer(device.context(), CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes);
        m_ptr = static_cast<std::uint8_t*>(
            m_queue.enqueueMapBuffer(m_buffer, CL_TRUE, CL_MAP_WRITE | CL_MAP_READ, 0, bytes));
    }
    ~PinnedHost() {
        try {
            m_queue.enqueueUnmapMemObject(m_buffer, m_ptr);
            m_queue.finish();
        } catch (...) {
        }
    }
    PinnedHost(const PinnedHost&) = delete;
    PinnedHost& operator=(const PinnedHost&) = delete;
    std::uint8_t* data() const { return m_ptr; }

private:
    cl::CommandQueue& m_queue;
    cl::Buffer m_buffer;
    std::uint8_t* m_ptr = nullptr;
};

} // namespace

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
    run.hostThreads = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
    try {
        run.config = resolveHistogramConfig(device, request, nchan, cancel, chunk);
        HistogramKernel kernel(device, run.config, nchan);
        const cl::Context& ctx = device.context();
        cl::CommandQueue& computeQ = device.queue();
        cl::CommandQueue copyQ(ctx, device.device(), CL_QUEUE_PROFILING_ENABLE);
        const int bins = 256 * nchan;
        cl::Buffer hist(ctx, CL_MEM_READ_WRITE, bins * sizeof(cl_uint));
        constexpr std::size_t kSlots = 3;
        std::vector<cl::Buffer> slots;
        for (std::size_t i = 0; i < std::min(kSlots, run.chunks); ++i)
            slots.emplace_back(ctx, CL_MEM_READ_ONLY, chunk);

        // The image in pinned host memory (copied there once, outside the timing).
        CopyPool pool(run.hostThreads);
        PinnedHost pinned(device, bytes);
        pool.copy(pinned.data(), data, bytes);
        // Pinned staging buffers for the "ordinary memory" mode, one per slot.
        std::vector<std::unique_ptr<PinnedHost>> staging;
        for (std::size_t i = 0; i < slots.size(); ++i)
            staging.push_back(std::make_unique<PinnedHost>(device, chunk));

        std::vector<cl_uint> counts(bins);
        enum class Mode { Pinned, Staged, Pageable };
        auto stream = [&](Mode mode) {
            return wallClockMs([&] {
                computeQ.enqueueFillBuffer(hist, cl_uint(0), 0, bins * sizeof(cl_uint));
                std::vector<cl::Event> writes(run.chunks), done(run.chunks);
                for (std::size_t i = 0; i < run.chunks; ++i) {
                    cancel.throwIfCancelled();
                    const std::size_t slot = i % slots.size(), off = i * chunk;
                    const std::size_t len = std::min(chunk, bytes - off);
                    std::vector<cl::Event> slotFree;
                    if (i >= slots.size())
                        slotFree.push_back(done[i - slots.size()]);
                    const std::uint8_t* src = (mode == Mode::Pinned ? pinned.data() : data) + off;
                    if (mode == Mode::Staged) {
                        if (i >= slots.size())
                            writes[i - slots.size()].wait(); // the staging slot is free again
                        pool.copy(staging[slot]->data(), src, len);
                        src = staging[slot]->data();
                    }
                    copyQ.enqueueWriteBuffer(slots[slot], CL_FALSE, 0, len, src,
                                             slotFree.empty() ? nullptr : &slotFree, &writes[i]);
                    copyQ.flush();
                    std::vector<cl::Event> ready{writes[i]};
                    done[i] = kernel.enqueue(computeQ, slots[slot], len, hist, &ready).back();
                    computeQ.flush();
                }
                computeQ.enqueueReadBuffer(hist, CL_TRUE, 0, bins * sizeof(cl_uint), counts.data());
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

} // namespace histlab
