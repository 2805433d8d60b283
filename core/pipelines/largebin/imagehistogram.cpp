#include "pipelines/largebin/imagehistogram.h"

#include "pipelines/largebin/joint.h"
#include "report/files.h"
#include "report/json.h"
#include "report/table.h"
#include "report/text.h"
#include "runtime/errors.h"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace histlab {

bool runsLargeBins(const HostImage& image, bool binsRangeOrMethodGiven) {
    return image.depth != 8 || binsRangeOrMethodGiven;
}

std::vector<std::string> imageBinChannels(const HostImage& image, const std::string& selection) {
    if (selection != "all")
        return {selection};
    if (image.channels == 1)
        return {"gray"};
    std::vector<std::string> names{"r", "g", "b"};
    if (image.channels == 4)
        names.push_back("a");
    names.push_back("gray");
    return names;
}

namespace {

/// Counts of every value of an integer plane (256 or 65,536 of them), the statistics' input:
/// the histogram already made when its spec is the exact one, else the reference of that spec.
std::vector<std::uint64_t> countsByValue(const SamplePlane& plane, const ImageChannelBins& c) {
    const BinSpec exact = makeBinSpec(plane, defaultBins(plane.type), std::nullopt);
    if (c.spec.bins == exact.bins && c.spec.lo == exact.lo && c.spec.hi == exact.hi)
        return c.histogram.counts;
    return largeHistogramReference(plane, exact).counts;
}

} // namespace

ImageBinsRun runImageBins(Device& device, const HostImage& image, const ImageBinsRequest& request,
                          const CancelToken& cancel) {
    validateImage(image);
    ImageBinsRun run;
    run.device = device.info();
    run.width = image.width;
    run.height = image.height;
    run.channels = image.channels;
    run.depth = image.depth;
    run.input = image.source;
    for (const std::string& name : request.channels) {
        cancel.throwIfCancelled();
        const SamplePlane plane = imagePlane(image, name);
        ImageChannelBins c;
        c.name = name;
        c.spec = makeBinSpec(plane, request.bins ? request.bins : defaultBins(plane.type),
                             request.range);
        c.histogram = largeHistogramReference(plane, c.spec);
        const cl::Buffer buffer = uploadPlane(device, plane);
        c.point = runLargeBinPoint(device, buffer, plane.count(), c.spec, c.histogram,
                                   request.method, request.repeats, cancel);
        c.point.deviceSlots.clear();
        if (plane.type == SampleType::F32) {
            std::vector<float> values(plane.count());
            std::memcpy(values.data(), plane.bytes.data(), values.size() * sizeof(float));
            c.statistics = channelStatistics(name, values, entropyBits(c.histogram.counts));
        } else {
            std::vector<std::uint64_t> values = countsByValue(plane, c);
            c.statistics = channelStatistics(name, values);
            if (request.keepValueCounts)
                c.valueCounts = std::move(values);
        }
        run.results.push_back(std::move(c));
    }
    return run;
}

std::vector<ChannelStatistics> imageBinsStatistics(const ImageBinsRun& run) {
    std::vector<ChannelStatistics> stats;
    for (const ImageChannelBins& c : run.results)
        stats.push_back(c.statistics);
    return stats;
}

std::string imageBinsText(const ImageBinsRun& run) {
    std::ostringstream out;
    out << deviceLine(run.device) << '\n';
    out << "input: " << run.input << ", " << run.width << " x " << run.height << ", "
        << run.channels << (run.channels == 1 ? " channel, " : " channels, ")
        << depthName(run.depth) << '\n';
    using A = TextTable::Align;
    TextTable table({{"channel", A::Left},
                     {"bins"},
                     {"range", A::Left},
                     {"below"},
                     {"above"},
                     {"NaN"},
                     {"method", A::Left},
                     {"median ms"},
                     {"GB/s"},
                     {"status", A::Left}});
    for (const ImageChannelBins& c : run.results) {
        const LargeBinPoint& p = c.point;
        const bool ran = statusRan(p.status);
        std::ostringstream range;
        range.precision(9);
        range << "[" << c.spec.lo << ", " << c.spec.hi << "]";
        table.add({c.name, std::to_string(c.spec.bins), range.str(),
                   std::to_string(c.histogram.below), std::to_string(c.histogram.above),
                   std::to_string(c.histogram.nan), largeBinMethodName(p.method),
                   ran ? fixedText(p.stats.medianMs, 4) : "-", ran ? fixedText(p.gbps, 2) : "-",
                   statusText(p.status, p.detail)});
    }
    out << table.text();
    for (const ImageChannelBins& c : run.results)
        out << c.name << std::string(c.name.size() < 5 ? 5 - c.name.size() : 1, ' ') << "|"
            << sparkline(c.histogram.counts.data(), c.histogram.counts.size()) << "| binned "
            << c.histogram.total() << '\n';
    out << statisticsText(imageBinsStatistics(run));
    out << (run.depth == 32 ? "statistics: of the finite samples, exactly (NaN and +-inf left "
                              "out); entropy of the bins above\n"
                            : "statistics: of the exact values (every value its own bin), "
                              "whatever --bins\n");
    return out.str();
}

std::string imageBinsCsv(const ImageBinsRun& run) {
    if (run.results.empty())
        return "bin,lo,hi\n";
    // One lo,hi pair where every channel has the same bins (an integer image, or a --range);
    // else each channel's own edges before its counts (a float image's channels are each binned
    // over their own min ... max, as np.histogram of each channel does).
    const BinSpec& spec = run.results.front().spec;
    const bool shared =
        std::all_of(run.results.begin(), run.results.end(), [&](const ImageChannelBins& c) {
            return c.spec.bins == spec.bins && c.spec.lo == spec.lo && c.spec.hi == spec.hi;
        });
    std::vector<std::string> columns{"bin"};
    std::vector<std::vector<double>> edges;
    for (const ImageChannelBins& c : run.results) {
        if (!shared || edges.empty()) {
            edges.push_back(countedEdges(c.spec));
            columns.push_back(shared ? "lo" : c.name + "_lo");
            columns.push_back(shared ? "hi" : c.name + "_hi");
        }
        if (!shared)
            columns.push_back(c.name);
    }
    if (shared)
        for (const ImageChannelBins& c : run.results)
            columns.push_back(c.name);
    Table table(columns);
    for (int i = 0; i < spec.bins; ++i) {
        table.row().add(i);
        for (std::size_t k = 0; k < run.results.size(); ++k) {
            if (!shared || k == 0)
                table.add(edges[k][std::size_t(i)]).add(edges[k][std::size_t(i) + 1]);
            if (!shared)
                table.add(run.results[k].histogram.counts[std::size_t(i)]);
        }
        if (shared)
            for (const ImageChannelBins& c : run.results)
                table.add(c.histogram.counts[std::size_t(i)]);
    }
    return table.csv();
}

std::string imageBinsJson(const ImageBinsRun& run) {
    Json channels = Json::array();
    for (const ImageChannelBins& c : run.results) {
        const LargeBinPoint& p = c.point;
        const ChannelStatistics& st = c.statistics;
        channels.push_back({{"name", c.name},
                            {"bins", c.spec.bins},
                            {"lo", c.spec.lo},
                            {"hi", c.spec.hi},
                            {"below", c.histogram.below},
                            {"above", c.histogram.above},
                            {"method", largeBinMethodName(p.method)},
                            {"geometry", p.geometry},
                            {"auto_tuning", p.tuning},
                            {"status", statusName(p.status)},
                            {"detail", p.detail},
                            {"timing", timingJson(p.stats)},
                            {"gbps", p.gbps},
                            {"statistics", statisticsJson(st)},
                            {"counts", c.histogram.counts}});
    }
    return jsonText({{"tool", "histlab-cli histogram"},
                     {"date", utcTimestamp()},
                     {"bin_rule", "NumPy histogram, uniform bins over [lo, hi], last bin closed"},
                     {"device", deviceJson(run.device)},
                     {"input",
                      {{"source", run.input},
                       {"width", run.width},
                       {"height", run.height},
                       {"channels", run.channels},
                       {"depth", run.depth}}},
                     {"channels", std::move(channels)}});
}

} // namespace histlab
