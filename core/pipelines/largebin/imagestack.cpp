#include "pipelines/largebin/imagestack.h"

#include "report/json.h"
#include "report/table.h"
#include "report/text.h"
#include "runtime/errors.h"

#include <sstream>

namespace histlab {

void startStackPage(int page, int first, int last, const CancelToken& cancel,
                    const std::function<void(double, const std::string&)>& progress) {
    if (progress)
        progress(double(page - first) / double(last - first + 1),
                 "page " + std::to_string(page) + " of " + std::to_string(last));
    cancel.throwIfCancelled(); // after the progress, which a front end may cancel from
}

std::string stackPagesText(int first, int last, int pagesInFile) {
    return ", pages " + std::to_string(first) + " to " + std::to_string(last) + " of " +
           std::to_string(pagesInFile);
}

void refuseFloatStack(const std::string& path, const std::string& what) {
    throw UsageError("--page", path + " holds 32-bit float pages: a stack's " + what +
                                   " is of 8- or 16-bit pages (read a float page with --page N)");
}

std::string stackSumLine(std::size_t pages, const std::string& what) {
    return "stack: the sum of " + std::to_string(pages) + " pages' verified " + what +
           "; median ms: the sum of the pages'\n";
}

ImageStackRequest planImageStack(const std::string& path, const PageRange& range,
                                 const std::string& selection, ImageBinsRequest bins) {
    ImageStackRequest r;
    r.path = path;
    // Counting the pages walks the chain of page headers only, not the pixels.
    r.pagesInFile = openImagePages(path)->pages();
    r.first = range.first;
    r.last = lastPageOf(range, r.pagesInFile, path);
    r.selection = selection;
    r.bins = std::move(bins);
    return r;
}

namespace {

std::string layoutText(const HostImage& image) {
    return depthName(image.depth) + ", " + std::to_string(image.channels) +
           (image.channels == 1 ? " channel" : " channels");
}

/// Adds a page's channel run to the stack's: counts, the exact value counts (kept for the
/// statistics), times, and the first failure.
void addChannel(ImageChannelBins& stack, std::vector<std::uint64_t>& stackValues,
                ImageChannelBins& page, int pageNumber) {
    LargeHistogram& h = stack.histogram;
    if (h.counts.empty()) {
        stack.name = page.name;
        stack.spec = page.spec;
        stack.point = page.point;
        stack.point.stats = {};
        stack.point.samples = stack.point.bytes = 0;
        stack.point.status = Status::Verified;
        stack.point.detail.clear();
        h.counts.assign(page.histogram.counts.size(), 0);
        stackValues.assign(page.valueCounts.size(), 0);
    }
    for (std::size_t i = 0; i < h.counts.size(); ++i)
        h.counts[i] += page.histogram.counts[i];
    for (std::size_t i = 0; i < stackValues.size(); ++i)
        stackValues[i] += page.valueCounts[i];
    h.below += page.histogram.below;
    h.above += page.histogram.above;
    h.nan += page.histogram.nan;
    stack.point.stats.medianMs += page.point.stats.medianMs;
    stack.point.stats.minMs += page.point.stats.minMs;
    stack.point.samples += page.point.samples;
    stack.point.bytes += page.point.bytes;
    if (page.point.status != Status::Verified && stack.point.status == Status::Verified) {
        stack.point.status = page.point.status;
        stack.point.detail = "page " + std::to_string(pageNumber) + ": " + page.point.detail;
    }
}

} // namespace

ImageStackRun runImageStack(Device& device, const ImageStackRequest& request,
                            const CancelToken& cancel,
                            const std::function<void(double, const std::string&)>& progress) {
    ImageStackRun run;
    run.path = request.path;
    run.first = request.first;
    run.last = request.last;
    run.pagesInFile = request.pagesInFile;
    run.stack.device = device.info();
    const std::unique_ptr<ImagePageReader> pages = openImagePages(request.path);
    ImageBinsRequest bins = request.bins;
    bins.keepValueCounts = true;
    std::vector<std::vector<std::uint64_t>> stackValues;
    for (int page = request.first; page <= request.last; ++page) {
        startStackPage(page, request.first, request.last, cancel, progress);
        const HostImage image = pages->read(page);
        if (page == request.first) {
            if (image.isFloat())
                refuseFloatStack(request.path, "histogram");
            bins.channels = imageBinChannels(image, request.selection);
            for (const std::string& c : bins.channels)
                checkImageChannel(image.channels, c, image.source);
            run.stack.width = image.width;
            run.stack.height = image.height;
            run.stack.channels = image.channels;
            run.stack.depth = image.depth;
            run.stack.results.resize(bins.channels.size());
            stackValues.resize(bins.channels.size());
        } else if (image.channels != run.stack.channels || image.depth != run.stack.depth) {
            throw InputError(request.path + ", page " + std::to_string(page) + ": " +
                             layoutText(image) + " where page " + std::to_string(request.first) +
                             " is " + depthName(run.stack.depth) + ", " +
                             std::to_string(run.stack.channels) +
                             (run.stack.channels == 1 ? " channel" : " channels") +
                             " (the pages of a stack share their channels and depth)");
        }
        run.sameSize =
            run.sameSize && image.width == run.stack.width && image.height == run.stack.height;
        ImageBinsRun one = runImageBins(device, image, bins, cancel);
        StackPage p;
        p.page = page;
        p.width = image.width;
        p.height = image.height;
        for (std::size_t c = 0; c < one.results.size(); ++c) {
            ImageChannelBins& r = one.results[c];
            addChannel(run.stack.results[c], stackValues[c], r, page);
            p.binned.push_back(r.histogram.total());
            // The page's counts are in the stack's now: only its statistics stay.
            r.histogram.counts = {};
            r.valueCounts = {};
            p.channels.push_back(std::move(r));
        }
        run.pages.push_back(std::move(p));
    }
    for (std::size_t c = 0; c < run.stack.results.size(); ++c) {
        ImageChannelBins& s = run.stack.results[c];
        s.statistics = channelStatistics(s.name, stackValues[c]);
        if (s.point.stats.medianMs > 0)
            s.point.gbps = double(s.point.bytes) / (s.point.stats.medianMs * 1e6);
    }
    run.stack.input = request.path +
                      stackPagesText(request.first, request.last, request.pagesInFile) +
                      (run.sameSize ? "" : " (sizes differ: the first page's shown)");
    if (progress)
        progress(1.0, "done");
    return run;
}

std::string imageStackText(const ImageStackRun& run) {
    std::ostringstream out;
    out << imageBinsText(run.stack);
    out << stackSumLine(run.pages.size(), "counts");
    using A = TextTable::Align;
    TextTable table({{"page"},
                     {"channel", A::Left},
                     {"size", A::Left},
                     {"pixels"},
                     {"mean"},
                     {"std.dev"},
                     {"min"},
                     {"max"},
                     {"median"},
                     {"status", A::Left}});
    for (const StackPage& p : run.pages)
        for (const ImageChannelBins& c : p.channels) {
            const ChannelStatistics& st = c.statistics;
            table.add({std::to_string(p.page), c.name,
                       std::to_string(p.width) + " x " + std::to_string(p.height),
                       std::to_string(st.count), statisticText(st.mean), statisticText(st.stddev),
                       statisticText(st.min), statisticText(st.max), statisticText(st.median),
                       statusText(c.point.status, c.point.detail)});
        }
    out << table.text();
    return out.str();
}

std::string imageStackStatisticsCsv(const ImageStackRun& run) {
    // statisticsCsv's rows, each after its page: one code writes the statistics' columns.
    auto withPage = [](const std::string& page, const std::vector<ChannelStatistics>& stats,
                       const std::vector<Status>& status, bool header) {
        std::istringstream in(statisticsCsv(stats));
        std::string line, out;
        std::size_t i = 0;
        bool first = true;
        while (std::getline(in, line)) {
            if (first) {
                first = false;
                if (header)
                    out += "page," + line + ",status\n";
                continue;
            }
            out += page + "," + line + "," + statusName(status.at(i++)) + "\n";
        }
        return out;
    };
    std::string csv;
    bool header = true;
    for (const StackPage& p : run.pages) {
        std::vector<ChannelStatistics> stats;
        std::vector<Status> status;
        for (const ImageChannelBins& c : p.channels) {
            stats.push_back(c.statistics);
            status.push_back(c.point.status);
        }
        csv += withPage(std::to_string(p.page), stats, status, header);
        header = false;
    }
    std::vector<Status> status;
    for (const ImageChannelBins& c : run.stack.results)
        status.push_back(c.point.status);
    csv += withPage("all", imageBinsStatistics(run.stack), status, header);
    return csv;
}

std::string imageStackJson(const ImageStackRun& run, const std::string& tool) {
    Json json = Json::parse(imageBinsJson(run.stack));
    json["tool"] = tool;
    Json pages = Json::array();
    for (const StackPage& p : run.pages) {
        Json channels = Json::array();
        for (std::size_t i = 0; i < p.channels.size(); ++i) {
            const ImageChannelBins& c = p.channels[i];
            channels.push_back({{"name", c.name},
                                {"binned", p.binned[i]},
                                {"below", c.histogram.below},
                                {"above", c.histogram.above},
                                {"status", statusName(c.point.status)},
                                {"detail", c.point.detail},
                                {"median_ms", c.point.stats.medianMs},
                                {"statistics", statisticsJson(c.statistics)}});
        }
        pages.push_back({{"page", p.page},
                         {"width", p.width},
                         {"height", p.height},
                         {"channels", std::move(channels)}});
    }
    json["stack"] = {
        {"path", run.path},          {"first", run.first},
        {"last", run.last},          {"pages_in_file", run.pagesInFile},
        {"same_size", run.sameSize}, {"counts", "the sum of the pages' verified counts"}};
    json["pages"] = std::move(pages);
    return jsonText(json);
}

Report imageStackReport(const ImageStackRun& run, const std::string& tool) {
    Report r;
    r.text = imageStackText(run);
    r.table = Table(
        {"page", "channel", "count", "mean", "stddev", "min", "max", "median", "status", "detail"});
    StatusCount count;
    for (const StackPage& p : run.pages)
        for (const ImageChannelBins& c : p.channels) {
            const ChannelStatistics& st = c.statistics;
            r.table.row()
                .add(p.page)
                .add(c.name)
                .add(st.count)
                .add(st.mean)
                .add(st.stddev)
                .add(st.min)
                .add(st.max)
                .add(st.median)
                .add(statusName(c.point.status))
                .add(c.point.detail);
            count.add(c.point.status);
        }
    r.csv = [&run] { return imageBinsCsv(run.stack); };
    r.json = [&run, tool] { return imageStackJson(run, tool); };
    r.files["--stats-csv"] = [&run](const std::string&) { return imageStackStatisticsCsv(run); };
    r.verdict = count.verdict("page channel(s)",
                              "no large-bin method could run on " + run.stack.device.name);
    return r;
}

} // namespace histlab
