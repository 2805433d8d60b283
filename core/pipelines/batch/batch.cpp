#include "pipelines/batch/batch.h"

#include "pipelines/largebin/imagehistogram.h"
#include "pipelines/options.h"
#include "report/status.h"
#include "report/table.h"
#include "runtime/errors.h"
#include "runtime/log.h"
#include "runtime/timing.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

namespace histlab {

namespace {

using Clock = std::chrono::steady_clock;

/// A synthetic image's name in the listing: "synthetic-000042".
std::string syntheticName(std::size_t i) {
    char name[32];
    std::snprintf(name, sizeof name, "synthetic-%06zu", i);
    return name;
}

/// An image taken from the listing, decoded, with its CPU reference (8-bit images), waiting
/// for a device.
struct Decoded {
    std::size_t index = 0;
    HostImage image;
    std::shared_ptr<const HistogramReference> reference;
    bool redone = false;
};

/// The listing's image `index`, decoded (or made) with its reference, on a host thread.
/// Throws InputError naming the file for one that cannot be read.
Decoded decode(const BatchParams& p, std::size_t index, const std::string& file) {
    Decoded d;
    d.index = index;
    const ImageInput& s = p.synthetic;
    if (s.synthetic) {
        // The listing index of the whole run, not of the shard, seeds the image, so a shard's
        // image equals the same image of one run over all of them.
        std::size_t whole = std::size_t(std::stoull(file.substr(file.find('-') + 1)));
        d.image = makeSyntheticImage(*s.synthetic, s.width, s.height, s.channels, s.depth,
                                     std::uint64_t(whole) + 1);
    } else {
        d.image = readImageFile(batchFilePath(p.source, file));
    }
    if (d.image.isFloat())
        throw InputError("32-bit float: batch counts 8- and 16-bit images (histlab-cli "
                         "histogram --bins N --range LO,HI counts a float image)");
    if (d.image.depth == 8)
        d.reference = countReference(d.image);
    return d;
}

/// Histograms on one device: the tuned 256-bin kernel for 8-bit images (one kernel per
/// configuration, the input buffer kept and grown), the large-bin methods for 16-bit ones.
class DeviceCounter {
public:
    DeviceCounter(Device& device, const CancelToken& cancel)
        : m_device(device)
        , m_cancel(cancel) {}

    /// Counts `d.image` into `out` (histograms, verified); throws for what fails.
    void run(const Decoded& d, BatchImage& out, std::string& config) {
        const HostImage& image = d.image;
        if (image.depth == 16)
            return runSixteen(image, out);
        const HistogramLayout layout(image.channels, image.channels > 1);
        const std::vector<std::uint64_t> counts = count(image, layout, config);
        const std::string mismatch =
            firstMismatch("histogram", counts, referenceCounts(*d.reference, layout));
        out.histograms = splitLayoutCounts(counts, layout);
        out.verified = mismatch.empty();
        if (!out.verified)
            out.error = "mismatch: " + mismatch;
    }

private:
    std::vector<std::uint64_t> count(const HostImage& image, const HistogramLayout& layout,
                                     std::string& config) {
        const std::size_t bytes = image.data.size();
        const DeviceInfo& info = m_device.info();
        const HistogramConfig chosen =
            resolveHistogramConfig(m_device, {}, layout, m_cancel, bytes);
        const std::string options = histogramBuildOptions(chosen, layout);
        Streamer& streamer = m_streamers[options];
        if (!streamer.kernel) {
            // Chunks of 32 MiB (whole pixels of 1, 3 or 4 channels); on a GPU each chunk is
            // copied by several threads into pinned memory first, which the driver writes
            // several times faster than the image's ordinary memory.
            const std::size_t chunk =
                std::min<std::size_t>(std::size_t(32) << 20, info.maxAllocBytes) / 48 * 48;
            m_staged = info.type != DeviceType::Cpu;
            streamer.kernel = std::make_unique<HistogramKernel>(m_device, chosen, layout);
            streamer.stream = std::make_unique<HistogramStream>(m_device, *streamer.kernel, chunk,
                                                                m_staged ? kCopyThreads : 0);
        }
        if (config.find(chosen.describe()) == std::string::npos)
            config += (config.empty() ? "" : "; ") + chosen.describe();
        const std::vector<cl_uint> bins =
            streamer.stream->run(image.data.data(), bytes, m_staged, m_cancel);
        return std::vector<std::uint64_t>(bins.begin(), bins.end());
    }

    /// 16-bit: each channel's 256 bins of 256 values, by the large-bin methods (verified there).
    void runSixteen(const HostImage& image, BatchImage& out) {
        ImageBinsRequest request;
        request.channels = imageBinChannels(image, "all");
        request.bins = 256;
        request.range = BinRange{0, 65536};
        request.repeats = 1;
        const ImageBinsRun run = runImageBins(m_device, image, request, m_cancel);
        out.verified = true;
        for (const ImageChannelBins& c : run.results) {
            ChannelHistogram h;
            h.name = c.name;
            std::copy_n(c.histogram.counts.begin(), 256, h.counts.begin());
            out.histograms.push_back(h);
            if (c.point.status != Status::Verified) {
                out.verified = false;
                out.error = c.name + ": " + statusText(c.point.status, c.point.detail);
            }
        }
    }

    /// A configuration's kernel and the stream that feeds it.
    struct Streamer {
        std::unique_ptr<HistogramKernel> kernel;
        std::unique_ptr<HistogramStream> stream;
    };
    static constexpr unsigned kCopyThreads = 4;

    Device& m_device;
    const CancelToken& m_cancel;
    std::map<std::string, Streamer> m_streamers; // by build options
    bool m_staged = false;
};

} // namespace

BatchPipeline parseBatchPipeline(const std::string& name) {
    if (name == "histogram")
        return BatchPipeline::Histogram;
    if (name == "joint" || name == "bow" || name == "blur" || name == "equalize")
        throw UsageError("--pipeline", name + " is not batched yet; batch runs histogram");
    throw UsageError("--pipeline", "'" + name + "' is not one of histogram");
}

const char* batchPipelineName(BatchPipeline) {
    return "histogram";
}

std::string batchFilePath(const BatchSource& source, const std::string& file) {
    return source.folder.empty() ? file : source.folder + "/" + file;
}

void prepareBatch(BatchParams& p) {
    BatchSource& s = p.source;
    const ImageInput& shape = p.synthetic;
    p.fault = deviceFaultFromEnvironment();
    if (shape.synthetic) {
        if (!s.folder.empty())
            throw UsageError("batch", "a folder or --synthetic, not both");
        if (!s.images || !shape.width || !shape.height)
            throw UsageError("--synthetic", "needs --images N, --width W and --height H");
        if (s.recursive)
            throw UsageError("--recursive", "only with a folder");
        const std::uint64_t bytes = std::uint64_t(shape.width) * std::uint64_t(shape.height) *
                                    std::uint64_t(shape.channels) * std::uint64_t(shape.depth / 8);
        if (bytes > syntheticLimitBytes())
            throw UsageError("--width/--height", std::to_string(bytes) +
                                                     " bytes an image are more than " +
                                                     std::to_string(syntheticLimitBytes()) +
                                                     " (a quarter of this machine's memory)");
        s.files.clear();
        for (std::size_t i = s.shard.index; i < s.images; i += s.shard.count)
            s.files.push_back(syntheticName(i));
        return;
    }
    if (s.images || shape.width || shape.height)
        throw UsageError(s.images ? "--images" : "--width/--height", "only with --synthetic");
    if (s.folder.empty())
        throw UsageError("batch", "which folder? (give FOLDER, or --synthetic KIND --images N "
                                  "--width W --height H)");
    s.files = listCollection(s.folder, s.recursive, false, s.shard, &s.skipped);
    if (!canReadImageFiles())
        throw InputError(s.folder + ": this build reads no image files (it was built without "
                                    "OpenCV); give --synthetic KIND --images N --width W "
                                    "--height H");
    if (s.files.empty() && s.shard.count == 1)
        throw InputError(s.folder + ": no image files" +
                         (s.skipped ? " (" + std::to_string(s.skipped) + " other files)" : "") +
                         (s.recursive ? "" : "; --recursive reads its subfolders too"));
}

BatchResult runBatch(JobContext& ctx, const std::vector<int>& devices, const BatchParams& params,
                     const std::function<void(const BatchProgress&)>& onImage) {
    const auto start = Clock::now();
    BatchResult r;
    r.params = params;
    const std::vector<std::string>& files = params.source.files;
    const std::size_t n = files.size();
    r.images.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        r.images[i].file = files[i];
    // Opened here: the device set is not shared between threads; each device is then used by
    // its own thread alone.
    std::vector<Device*> opened;
    std::vector<int> unique;
    for (int index : devices)
        if (std::find(unique.begin(), unique.end(), index) == unique.end())
            unique.push_back(index); // one thread a device: a Device is not shared
    for (int index : unique) {
        opened.push_back(&ctx.devices().open(index));
        BatchDevice d;
        d.info = opened.back()->info();
        d.index = index;
        r.devices.push_back(d);
    }
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    r.jobs = int(std::max<std::size_t>(
        1, std::min<std::size_t>(params.jobs ? std::size_t(params.jobs) : hardware, n)));
    if (n == 0) {
        r.wallMs = msSince(start);
        return r;
    }

    // Shared state, under `m`. At most `slots` images are decoded or being decoded and not yet
    // finished, which bounds the memory the run holds whatever the folder's size.
    std::mutex m;
    std::condition_variable cv;
    std::size_t nextDecode = 0;
    std::size_t slots = std::size_t(r.jobs) + 2 * opened.size();
    std::deque<Decoded> ready, handedBack;
    std::size_t decodersLeft = std::size_t(r.jobs), devicesLeft = opened.size();
    std::size_t inFlight = 0; // images a device has taken and not finished (one may come back)
    std::deque<std::size_t> finished;
    std::vector<HostImage> spent; // images the devices are done with, freed on this thread
    std::vector<char> done(n, 0);
    // Bytes of decoded images held (queued or on a device), against a budget of a quarter of
    // the machine's memory: no decoding starts while they pass half of it (unless nothing is
    // held). Images are decoded one at a time until the first one's size is known, then as many
    // at once as twice the largest image seen so far fits the budget, so that a folder of very
    // large images does not exhaust memory.
    const std::uint64_t budget = syntheticLimitBytes();
    std::uint64_t held = 0, largest = 0;
    std::size_t decoding = 0;
    auto mayDecode = [&] {
        const std::size_t allowed =
            largest == 0 ? 1
                         : std::size_t(std::clamp<std::uint64_t>(budget / (2 * largest), 1,
                                                                 std::uint64_t(r.jobs)));
        return decoding < allowed && (held < budget / 2 || (held == 0 && decoding == 0));
    };
    bool stop = false;
    const CancelToken& cancel = ctx.cancelToken();

    auto decoder = [&] {
        for (;;) {
            std::size_t index;
            {
                std::unique_lock lock(m);
                cv.wait(lock,
                        [&] { return stop || nextDecode >= n || (slots > 0 && mayDecode()); });
                if (stop || nextDecode >= n)
                    break;
                index = nextDecode++;
                --slots;
                ++decoding;
            }
            const auto t = Clock::now();
            std::optional<Decoded> d;
            std::string error;
            const std::string path =
                params.synthetic.synthetic ? "" : batchFilePath(params.source, files[index]);
            try {
                d = decode(params, index, files[index]);
            } catch (const std::bad_alloc&) {
                error = "not enough memory to decode it";
            } catch (const std::exception& e) {
                error = withoutPathPrefix(e.what(), path);
            }
            std::lock_guard lock(m);
            r.images[index].decodeMs = msSince(t);
            --decoding;
            if (d) {
                held += d->image.data.size();
                largest = std::max<std::uint64_t>(largest, d->image.data.size());
                ready.push_back(std::move(*d));
            } else {
                r.images[index].error = error;
                finished.push_back(index);
                ++slots;
            }
            cv.notify_all();
        }
        std::lock_guard lock(m);
        --decodersLeft;
        cv.notify_all();
    };

    auto worker = [&](std::size_t k) {
        BatchDevice& dev = r.devices[k];
        DeviceCounter counter(*opened[k], cancel);
        std::size_t taken = 0;
        for (;;) {
            Decoded d;
            const auto waitStart = Clock::now();
            {
                std::unique_lock lock(m);
                cv.wait(lock, [&] {
                    return stop || !handedBack.empty() || !ready.empty() ||
                           (decodersLeft == 0 && inFlight == 0);
                });
                if (stop)
                    break;
                std::deque<Decoded>& from = !handedBack.empty() ? handedBack : ready;
                if (from.empty())
                    break; // decoding is over, nothing is left and nothing can come back
                d = std::move(from.front());
                from.pop_front();
                ++inFlight;
            }
            dev.waitMs += msSince(waitStart);
            const auto t = Clock::now();
            BatchImage out;
            out.file = files[d.index];
            out.device = int(k);
            out.redone = d.redone;
            out.width = d.image.width;
            out.height = d.image.height;
            out.channels = d.image.channels;
            out.depth = d.image.depth;
            try {
                if (params.fault.device == int(k) && taken == params.fault.after)
                    throw DeviceError("failed on purpose (HISTLAB_DEVICE_FAIL=" +
                                      std::to_string(k) + ":" + std::to_string(taken) + ")");
                counter.run(d, out, dev.config);
            } catch (const UnsupportedError& e) {
                out.histograms.clear();
                out.error = "unsupported on " + dev.info.name + ": " + e.what();
            } catch (const DeviceError& e) {
                // The device is given up: the image goes back for the others.
                std::lock_guard lock(m);
                dev.failure = e.what();
                dev.busyMs += msSince(t);
                ++dev.handedBack;
                --inFlight;
                d.redone = true;
                handedBack.push_back(std::move(d));
                cv.notify_all();
                logInfo("batch", "device " + std::to_string(dev.index) + " (" + dev.info.name +
                                     ") failed: " + dev.failure);
                break;
            } catch (const CancelledError&) {
                std::lock_guard lock(m);
                --inFlight;
                stop = true;
                cv.notify_all();
                break;
            } catch (const std::exception& e) {
                out.histograms.clear();
                out.verified = false;
                out.error = e.what();
            }
            ++taken;
            dev.busyMs += msSince(t);
            ++dev.images;
            std::lock_guard lock(m);
            out.decodeMs = r.images[d.index].decodeMs;
            out.deviceMs = msSince(t);
            r.images[d.index] = std::move(out);
            // Freed on the reporting thread: giving a large image back to the system costs
            // milliseconds (its pages unmapped) that the device would otherwise wait through.
            held -= d.image.data.size();
            spent.push_back(std::move(d.image));
            finished.push_back(d.index);
            --inFlight;
            ++slots;
            cv.notify_all();
        }
        std::lock_guard lock(m);
        --devicesLeft;
        cv.notify_all();
    };

    std::vector<std::thread> threads;
    for (int j = 0; j < r.jobs; ++j)
        threads.emplace_back(decoder);
    for (std::size_t k = 0; k < opened.size(); ++k)
        threads.emplace_back(worker, k);

    // This thread reports each finished image, in the order they finish.
    std::size_t count = 0;
    std::string lastFailure;
    for (;;) {
        std::deque<std::size_t> now;
        std::vector<HostImage> freed;
        bool allGone = false;
        {
            std::unique_lock lock(m);
            cv.wait_for(lock, std::chrono::milliseconds(100),
                        [&] { return !finished.empty() || devicesLeft == 0; });
            now.swap(finished);
            freed.swap(spent);
            allGone = devicesLeft == 0;
            if (cancel.cancelled() || (allGone && now.empty()))
                stop = true;
            cv.notify_all();
        }
        for (std::size_t index : now) {
            done[index] = 1;
            ++count;
            if (onImage) {
                BatchProgress p;
                p.image = r.images[index];
                if (p.image.device >= 0)
                    p.deviceIndex = r.devices[std::size_t(p.image.device)].index;
                p.done = count;
                p.total = n;
                const double seconds = msSince(start) / 1000.0;
                p.imagesPerSecond = seconds > 0 ? double(count) / seconds : 0;
                p.secondsLeft = p.imagesPerSecond > 0 ? double(n - count) / p.imagesPerSecond : 0;
                onImage(p);
            }
        }
        ctx.progress(double(count) / double(n), "images");
        if (cancel.cancelled() || (allGone && now.empty()) || count == n)
            break;
    }
    {
        std::lock_guard lock(m);
        stop = true;
        cv.notify_all();
    }
    for (std::thread& t : threads)
        t.join();
    cancel.throwIfCancelled();
    // Images no device could take: every device failed before them.
    for (const BatchDevice& d : r.devices)
        if (!d.failure.empty())
            lastFailure = d.failure;
    for (std::size_t i = 0; i < n; ++i)
        if (!done[i] && r.images[i].error.empty() && r.images[i].histograms.empty())
            r.images[i].error = "not run: every device failed (" + lastFailure + ")";
    for (const BatchImage& image : r.images) {
        r.decodeMs += image.decodeMs;
        if (!image.error.empty())
            ++r.failed;
        if (!image.histograms.empty() && !image.verified)
            ++r.mismatches;
    }
    r.wallMs = msSince(start);
    return r;
}

std::vector<ChannelHistogram> batchTotals(const std::vector<BatchImage>& images) {
    // In the channels' order, the luma last: r, g, b, a, gray.
    static const char* order[] = {"r", "g", "b", "a", "gray"};
    std::vector<ChannelHistogram> totals;
    for (const char* name : order) {
        ChannelHistogram total{name, {}};
        bool any = false;
        for (const BatchImage& image : images) {
            if (!image.verified)
                continue;
            for (const ChannelHistogram& h : image.histograms)
                if (h.name == name) {
                    any = true;
                    for (std::size_t b = 0; b < 256; ++b)
                        total.counts[b] += h.counts[b];
                }
        }
        if (any)
            totals.push_back(total);
    }
    return totals;
}

namespace {

std::vector<std::string> batchCsvColumns() {
    std::vector<std::string> c = {"file",     "status", "width",    "height",
                                  "channels", "depth",  "histogram"};
    for (int b = 0; b < 256; ++b)
        c.push_back(std::string("b").append(std::to_string(b)));
    return c;
}

} // namespace

std::string batchCsv(const std::vector<BatchImage>& images, const std::vector<BatchDevice>&) {
    Table t(batchCsvColumns());
    for (const BatchImage& image : images) {
        const std::string status = image.error.empty() ? "verified" : image.error;
        auto head = [&](Table& row) -> Table& {
            row.add(image.file).add(status);
            if (image.width)
                row.add(image.width).add(image.height).add(image.channels).add(image.depth);
            else
                row.skip().skip().skip().skip();
            return row;
        };
        if (image.histograms.empty()) {
            head(t.row()).skip();
            continue;
        }
        for (const ChannelHistogram& h : image.histograms) {
            head(t.row()).add(h.name);
            for (std::uint64_t c : h.counts)
                t.add(c);
        }
    }
    return t.csv();
}

std::vector<BatchImage> parseBatchCsv(const std::string& text, const std::string& source) {
    const std::vector<std::vector<std::string>> rows = parseCsv(text, source);
    if (rows.empty() || rows.front() != batchCsvColumns())
        throw InputError(source + ": not a batch table (its header is not file, status, width, "
                                  "height, channels, depth, histogram, b0 ... b255)");
    std::vector<BatchImage> images;
    std::set<std::string> files;
    auto whole = [&](const std::string& v, std::size_t line, const char* what) {
        const std::optional<std::uint64_t> x = parseCount(v);
        if (!x)
            throw InputError(source + ": line " + std::to_string(line) + ": " + what + " '" + v +
                             "' is not a whole number");
        return *x;
    };
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const std::vector<std::string>& row = rows[i];
        const std::size_t line = i + 1;
        if (row.size() != 263)
            throw InputError(source + ": line " + std::to_string(line) + ": " +
                             std::to_string(row.size()) + " fields, not 263");
        const bool sameImage = !images.empty() && images.back().file == row[0];
        if (!sameImage) {
            if (!files.insert(row[0]).second)
                throw InputError(source + ": line " + std::to_string(line) + ": " + row[0] +
                                 "'s rows are apart");
            BatchImage image;
            image.file = row[0];
            image.error = row[1] == "verified" ? "" : row[1];
            image.verified = row[1] == "verified";
            if (!row[2].empty()) {
                image.width = int(whole(row[2], line, "width"));
                image.height = int(whole(row[3], line, "height"));
                image.channels = int(whole(row[4], line, "channels"));
                image.depth = int(whole(row[5], line, "depth"));
            }
            images.push_back(image);
        }
        if (row[6].empty())
            continue;
        ChannelHistogram h;
        h.name = row[6];
        for (std::size_t b = 0; b < 256; ++b)
            h.counts[b] = whole(row[7 + b], line, "count");
        images.back().histograms.push_back(h);
    }
    return images;
}

std::vector<BatchImage> mergeBatchTables(const std::vector<std::vector<BatchImage>>& shards,
                                         const std::vector<std::string>& sources) {
    return mergeShardRows(shards, sources, [](const BatchImage& b) { return b.file; });
}

} // namespace histlab
