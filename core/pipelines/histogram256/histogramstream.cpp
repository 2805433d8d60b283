// The end-to-end histogram (see histogram256.h, "End to end"): wall time from host memory to
// the histogram on the host, with transfers overlapped with the kernels.
#include "pipelines/histogram256/histogram256.h"
#include "runtime/errors.h"
#include "runtime/log.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <functional>
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
    run.hostThreads = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
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

/// `bytes` in pieces proportional to `weights` (0 for a device that takes none), each a multiple
/// of `unit` but the last one's: {offset, length} per device.
std::vector<std::pair<std::uint64_t, std::uint64_t>>
splitByWeight(std::uint64_t bytes, const std::vector<double>& weights, std::uint64_t unit) {
    double total = 0;
    std::size_t last = 0;
    for (std::size_t i = 0; i < weights.size(); ++i)
        if (weights[i] > 0) {
            total += weights[i];
            last = i;
        }
    std::vector<std::pair<std::uint64_t, std::uint64_t>> pieces(weights.size(), {0, 0});
    std::uint64_t at = 0;
    for (std::size_t i = 0; i < weights.size(); ++i) {
        if (weights[i] <= 0)
            continue;
        std::uint64_t len = bytes - at;
        if (i != last) {
            len = std::uint64_t(double(bytes) * weights[i] / total) / unit * unit;
            len = std::min(len, bytes - at);
        }
        pieces[i] = {at, len};
        at += len;
    }
    return pieces;
}

/// One device's means of counting: its kernel, the input pinned for streaming and resident for
/// kernels-only runs.
struct SplitWorker {
    Device* device = nullptr;
    HistogramConfig config;
    std::unique_ptr<HistogramKernel> kernel;
    std::unique_ptr<HistogramStream> stream;
    std::unique_ptr<PinnedHost> pinned;
    cl::Buffer resident, hist;
    bool failed = false;

    std::vector<std::uint64_t> streamed(std::uint64_t offset, std::uint64_t len,
                                        const CancelToken& cancel) {
        if (len == 0)
            return std::vector<std::uint64_t>(std::size_t(kernel->bins()), 0);
        const std::vector<cl_uint> c = stream->run(pinned->data() + offset, len, false, cancel);
        return std::vector<std::uint64_t>(c.begin(), c.end());
    }
    /// The kernels of a resident piece: their profiled milliseconds.
    double kernels(std::uint64_t offset, std::uint64_t len) {
        if (len == 0)
            return 0;
        cl::CommandQueue& q = device->queue();
        q.enqueueFillBuffer(hist, cl_uint(0), 0, std::size_t(kernel->bins()) * sizeof(cl_uint));
        const cl_buffer_region region{offset, len};
        const cl::Buffer piece =
            resident.createSubBuffer(CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &region);
        const std::vector<cl::Event> events = kernel->enqueuePieces(q, piece, len, hist);
        cl::Event::waitForEvents(events);
        return profiledMs(events);
    }
};

void addCounts(std::vector<std::uint64_t>& sum, const std::vector<std::uint64_t>& counts) {
    for (std::size_t i = 0; i < sum.size(); ++i)
        sum[i] += counts[i];
}

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
    // Pieces start at multiples of 12,288 bytes: whole pixels of 1, 3 or 4 channels, whole
    // uint4 loads, and any sub-buffer alignment a device asks (up to 4,096 bytes).
    constexpr std::uint64_t kUnit = 12288;
    SplitRun run;
    run.input = image.source;
    run.bytes = bytes;
    run.layout = HistogramLayout(image.channels, image.channels > 1);
    const std::shared_ptr<const HistogramReference> reference = countReference(image);
    const std::vector<std::uint64_t> want = referenceCounts(*reference, run.layout);
    auto check = [&](const std::string& what, const std::vector<std::uint64_t>& counts) {
        if (run.verified == false)
            return;
        run.verifyDetail = firstMismatch(what, counts, want);
        run.verified = run.verifyDetail.empty();
    };

    std::vector<SplitWorker> workers(devices.size());
    for (std::size_t k = 0; k < devices.size(); ++k) {
        SplitWorker& w = workers[k];
        SplitShare share;
        share.device = devices[k]->info();
        w.device = devices[k];
        try {
            const std::size_t chunk = endToEndChunkBytes(share.device, bytes, chunkBytes);
            w.config = resolveHistogramConfig(*w.device, request, run.layout, cancel, chunk);
            share.config = w.config.describe();
            w.kernel = std::make_unique<HistogramKernel>(*w.device, w.config, run.layout);
            w.stream = std::make_unique<HistogramStream>(*w.device, *w.kernel, chunk);
            w.pinned = std::make_unique<PinnedHost>(*w.device, bytes);
            std::memcpy(w.pinned->data(), image.data.data(), bytes);
            const cl::Context& ctx = w.device->context();
            w.resident = cl::Buffer(ctx, CL_MEM_READ_ONLY, bytes);
            w.hist =
                cl::Buffer(ctx, CL_MEM_READ_WRITE, std::size_t(w.kernel->bins()) * sizeof(cl_uint));
            w.device->queue().enqueueWriteBuffer(w.resident, CL_TRUE, 0, bytes, image.data.data());
            // Alone: the whole input end to end, then its kernels on the resident copy.
            check("device " + std::to_string(k) + " alone", w.streamed(0, bytes, cancel));
            share.aloneMs = timeRepeated(
                                repeats,
                                [&] {
                                    return wallClockMs([&] {
                                        w.stream->run(w.pinned->data(), bytes, false, cancel);
                                    });
                                },
                                cancel)
                                .medianMs;
            share.aloneKernelMs = timeRepeated(
                                      repeats, [&] { return w.kernels(0, bytes); }, cancel)
                                      .medianMs;
        } catch (const CancelledError&) {
            throw;
        } catch (const UsageError&) {
            throw;
        } catch (const cl::Error& e) {
            w.failed = true;
            share.failure = std::string(e.what()) + " (" + clErrorName(e.err()) + ")";
        } catch (const DeviceError& e) {
            w.failed = true;
            share.failure = e.what();
        }
        run.shares.push_back(share);
    }

    auto healthyWeights = [&](bool kernelsOnly) {
        std::vector<double> weights(workers.size(), 0.0);
        for (std::size_t k = 0; k < workers.size(); ++k) {
            const double ms = kernelsOnly ? run.shares[k].aloneKernelMs : run.shares[k].aloneMs;
            if (!workers[k].failed && ms > 0)
                weights[k] = 1.0 / ms;
        }
        return weights;
    };
    auto fastest = [&] {
        int best = -1;
        for (std::size_t k = 0; k < workers.size(); ++k)
            if (!workers[k].failed &&
                (best < 0 || run.shares[k].aloneMs < run.shares[std::size_t(best)].aloneMs))
                best = int(k);
        return best;
    };
    if (fastest() < 0)
        throw DeviceError("no device could count the input: " + run.shares.front().failure);
    auto place = [&] {
        const auto pieces = splitByWeight(bytes, healthyWeights(false), kUnit);
        const auto kernelPieces = splitByWeight(bytes, healthyWeights(true), kUnit);
        for (std::size_t k = 0; k < workers.size(); ++k) {
            std::tie(run.shares[k].offset, run.shares[k].bytes) = pieces[k];
            std::tie(run.shares[k].kernelOffset, run.shares[k].kernelBytes) = kernelPieces[k];
        }
    };
    place();

    // Every device at once on its piece; a device that fails leaves its piece to the fastest
    // one left, and the next pass splits over the devices left.
    std::size_t pass = 0;
    auto together = [&](std::vector<std::uint64_t>* counts) {
        const std::size_t thisPass = pass++;
        std::vector<std::vector<std::uint64_t>> got(workers.size());
        std::vector<double> ms(workers.size(), 0.0);
        std::vector<std::string> failures(workers.size());
        std::vector<std::thread> threads;
        const double wall = wallClockMs([&] {
            for (std::size_t k = 0; k < workers.size(); ++k) {
                if (workers[k].failed)
                    continue;
                threads.emplace_back([&, k] {
                    try {
                        if (int(k) == fault.device && thisPass == fault.after)
                            throw DeviceError(
                                "failed on purpose (HISTLAB_DEVICE_FAIL=" + std::to_string(k) +
                                ":" + std::to_string(thisPass) + ")");
                        ms[k] = wallClockMs([&] {
                            got[k] = workers[k].streamed(run.shares[k].offset, run.shares[k].bytes,
                                                         cancel);
                        });
                    } catch (const cl::Error& e) {
                        failures[k] = std::string(e.what()) + " (" + clErrorName(e.err()) + ")";
                    } catch (const std::exception& e) {
                        failures[k] = e.what();
                    }
                });
            }
            for (std::thread& t : threads)
                t.join();
        });
        cancel.throwIfCancelled();
        std::vector<std::uint64_t> sum(std::size_t(run.layout.bins()), 0);
        for (std::size_t k = 0; k < workers.size(); ++k)
            if (!got[k].empty())
                addCounts(sum, got[k]);
        bool anyFailed = false;
        for (std::size_t k = 0; k < workers.size(); ++k) {
            if (failures[k].empty())
                continue;
            anyFailed = true;
            workers[k].failed = true;
            run.shares[k].failure = failures[k];
            const int by = fastest();
            if (by < 0)
                throw DeviceError("every device failed: " + failures[k]);
            run.shares[k].redoneBy = by;
            addCounts(sum, workers[std::size_t(by)].streamed(run.shares[k].offset,
                                                             run.shares[k].bytes, cancel));
        }
        if (anyFailed)
            place(); // the next pass without the devices that failed
        if (counts)
            *counts = sum;
        return std::make_pair(wall, ms);
    };
    std::vector<std::uint64_t> counts;
    together(&counts);
    check("split", counts);
    run.histograms = splitLayoutCounts(counts, run.layout);

    std::vector<std::vector<double>> pieceMs(workers.size()), pieceKernelMs(workers.size());
    run.wall = timeRepeated(
        repeats,
        [&] {
            const auto [wall, ms] = together(nullptr);
            for (std::size_t k = 0; k < workers.size(); ++k)
                pieceMs[k].push_back(ms[k]);
            return wall;
        },
        cancel);
    run.kernelWall = timeRepeated(
        repeats,
        [&] {
            std::vector<double> ms(workers.size(), 0.0);
            std::vector<std::thread> threads;
            for (std::size_t k = 0; k < workers.size(); ++k)
                if (!workers[k].failed)
                    threads.emplace_back([&, k] {
                        ms[k] = workers[k].kernels(run.shares[k].kernelOffset,
                                                   run.shares[k].kernelBytes);
                    });
            for (std::thread& t : threads)
                t.join();
            for (std::size_t k = 0; k < workers.size(); ++k)
                pieceKernelMs[k].push_back(ms[k]);
            return *std::max_element(ms.begin(), ms.end());
        },
        cancel);
    double aloneBest = 0, kernelBest = 0;
    for (std::size_t k = 0; k < workers.size(); ++k) {
        if (workers[k].failed)
            continue;
        run.shares[k].pieceMs = summarize(pieceMs[k]).medianMs;
        run.shares[k].pieceKernelMs = summarize(pieceKernelMs[k]).medianMs;
        if (aloneBest == 0 || run.shares[k].aloneMs < aloneBest)
            aloneBest = run.shares[k].aloneMs;
        if (kernelBest == 0 || run.shares[k].aloneKernelMs < kernelBest)
            kernelBest = run.shares[k].aloneKernelMs;
    }
    run.speedup = run.wall.medianMs > 0 ? aloneBest / run.wall.medianMs : 0;
    run.kernelSpeedup = run.kernelWall.medianMs > 0 ? kernelBest / run.kernelWall.medianMs : 0;
    return run;
}

} // namespace histlab
