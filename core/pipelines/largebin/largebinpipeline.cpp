// The large-bin family as the front ends see it: histlab-cli largebin's options, its plan, its
// report (text, CSV, JSON, the counts), and the dashboard's 65,536-bin 16-bit histogram.
// Metric: GB/s = input bytes / median time of one whole histogram (clear, every pass, the
// reduction), judged against the read-only kernel on the same buffer in the same run; also G
// samples/s, the figure that compares across sample sizes.
#include "pipelines/largebin/imagestack.h"
#include "pipelines/largebin/largebin.h"
#include "pipelines/options.h"
#include "pipelines/pipeline.h"
#include "report/files.h"
#include "report/json.h"
#include "report/table.h"
#include "report/text.h"
#include "runtime/bytesize.h"
#include "runtime/errors.h"

#include <cmath>
#include <memory>
#include <sstream>

namespace histlab {

namespace {

constexpr std::size_t kMaxSamples = std::size_t(0xFFFFFFFFu); // 32-bit indices in the kernels

std::string rangeText(const BinSpec& s) {
    std::ostringstream out;
    out.precision(9);
    out << "[" << s.lo << ", " << s.hi << "]";
    return out.str();
}

Table pointTable(const LargeBinRun& run) {
    Table table({"method", "bins", "samples", "bytes", "geometry", "median_ms", "min_ms", "gbps",
                 "gsamples_per_s", "percent_of_read_only", "status", "detail"});
    for (const LargeBinPoint& p : run.points)
        table.row()
            .add(largeBinMethodName(p.method))
            .add(p.bins)
            .add(p.samples)
            .add(p.bytes)
            .add(p.geometry)
            .add(p.stats.medianMs)
            .add(p.stats.minMs)
            .add(p.gbps)
            .add(p.gsps)
            .add(p.percentOfCeiling)
            .add(statusName(p.status))
            .add(p.detail);
    return table;
}

/// The first bin count's histogram: one row per bin with its edges as counted (countedEdges).
Table countsTable(const LargeBinSpecRun& s) {
    Table table({"bin", "lo", "hi", "count"});
    const std::vector<double> edges = countedEdges(s.spec);
    for (int i = 0; i < s.spec.bins; ++i)
        table.row()
            .add(i)
            .add(edges[std::size_t(i)])
            .add(edges[std::size_t(i) + 1])
            .add(s.reference.counts[std::size_t(i)]);
    return table;
}

std::string largeBinText(const LargeBinRun& run) {
    std::ostringstream out;
    out << "largebin " << run.source << ", " << run.samples << " samples of "
        << sampleTypeName(run.type) << " (" << formatByteSize(run.bytes) << ")\n";
    out << deviceLine(run.device) << '\n';
    if (run.ceiling.gbps > 0)
        out << "read-only kernel, same buffer: " << fixedText(run.ceiling.gbps, 2) << " GB/s\n";
    for (const LargeBinSpecRun& s : run.specs)
        out << s.spec.bins << " bins over " << rangeText(s.spec) << ": binned "
            << s.reference.total() << ", below " << s.reference.below << ", above "
            << s.reference.above << ", NaN " << s.reference.nan << '\n';
    using A = TextTable::Align;
    TextTable table({{"method", A::Left},
                     {"bins"},
                     {"median ms"},
                     {"GB/s"},
                     {"G samples/s"},
                     {"% read-only"},
                     {"geometry", A::Left},
                     {"status", A::Left}});
    for (const LargeBinPoint& p : run.points) {
        const bool ran = statusRan(p.status);
        table.add({largeBinMethodName(p.method), std::to_string(p.bins),
                   ran ? fixedText(p.stats.medianMs, 4) : "-", ran ? fixedText(p.gbps, 2) : "-",
                   ran ? fixedText(p.gsps, 2) : "-",
                   ran && run.ceiling.gbps > 0 ? fixedText(p.percentOfCeiling, 1) : "-", p.geometry,
                   statusText(p.status, p.detail)});
    }
    out << table.text();
    for (const LargeBinPoint& p : run.points)
        if (!p.tuning.empty())
            out << p.bins << " bins: " << p.tuning << " -> " << largeBinMethodName(p.method)
                << '\n';
    return out.str();
}

std::string largeBinJson(const LargeBinRun& run) {
    Json specs = Json::array();
    for (const LargeBinSpecRun& s : run.specs)
        specs.push_back({{"bins", s.spec.bins},
                         {"lo", s.spec.lo},
                         {"hi", s.spec.hi},
                         {"binned", s.reference.total()},
                         {"below", s.reference.below},
                         {"above", s.reference.above},
                         {"nan", s.reference.nan}});
    Json points = Json::array();
    for (const LargeBinPoint& p : run.points)
        points.push_back({{"method", largeBinMethodName(p.method)},
                          {"bins", p.bins},
                          {"geometry", p.geometry},
                          {"build_options", p.buildOptions},
                          {"status", statusName(p.status)},
                          {"detail", p.detail},
                          {"mismatched_slots", p.mismatchedBins},
                          {"timing", timingJson(p.stats)},
                          {"gbps", p.gbps},
                          {"gsamples_per_s", p.gsps},
                          {"percent_of_read_only", p.percentOfCeiling},
                          {"auto_tuning", p.tuning}});
    return jsonText({{"tool", "histlab-cli largebin"},
                     {"date", utcTimestamp()},
                     {"metric", "GB/s = input bytes / median time of one whole histogram (clear, "
                                "passes, reduction)"},
                     {"bin_rule", "NumPy histogram, uniform bins over [lo, hi], last bin closed"},
                     {"device", deviceJson(run.device)},
                     {"source", run.source},
                     {"type", sampleTypeName(run.type)},
                     {"samples", run.samples},
                     {"bytes", run.bytes},
                     {"read_only", ceilingJson(run.ceiling)},
                     {"histograms", std::move(specs)},
                     {"points", std::move(points)}});
}

LargeBinRun measureLargeBin(Device& device, const LargeBinRequest& r, const CancelToken& cancel,
                            const std::function<void(const LargeBinPoint&)>& onPoint,
                            const std::function<void(double, const std::string&)>& progress) {
    LargeBinRun run;
    run.device = device.info();
    if (progress)
        progress(0.0, "input");
    const std::shared_ptr<const SamplePlane> plane =
        r.plane ? r.plane
                : std::make_shared<const SamplePlane>(makeLargeBinData(r.data, r.type, r.samples));
    run.source = plane->source;
    run.type = plane->type;
    run.samples = plane->count();
    run.bytes = plane->bytes.size();
    cancel.throwIfCancelled();
    const cl::Buffer buffer = uploadPlane(device, *plane);
    if (run.bytes >= 16)
        run.ceiling = measureReadCeiling(device, buffer, run.bytes, r.repeats, cancel);
    const std::size_t total = r.bins.size() * r.methods.size();
    std::size_t done = 0;
    for (int bins : r.bins) {
        const BinSpec spec = makeBinSpec(*plane, bins, r.range);
        run.specs.push_back({spec, largeHistogramReference(*plane, spec)});
        for (LargeBinMethod m : r.methods) {
            cancel.throwIfCancelled();
            LargeBinPoint p = runLargeBinPoint(device, buffer, run.samples, spec,
                                               run.specs.back().reference, m, r.repeats, cancel);
            if (run.ceiling.gbps > 0 && statusRan(p.status))
                p.percentOfCeiling = 100.0 * p.gbps / run.ceiling.gbps;
            p.deviceSlots.clear();
            p.deviceSlots.shrink_to_fit();
            if (onPoint)
                onPoint(p);
            if (progress)
                progress(double(++done) / double(total), std::string(largeBinMethodName(p.method)) +
                                                             ", " + std::to_string(bins) + " bins");
            run.points.push_back(std::move(p));
        }
    }
    return run;
}

DashboardPipeline largeBinDashboardEntry() {
    return {"largebin",
            "the exact 65,536-bin histogram of random 16-bit samples, the method auto picks; "
            "input bytes, against the read-only kernel",
            [](Device& device, const DashboardOptions& o, const CancelToken& cancel) {
                LargeBinRequest request;
                request.type = SampleType::U16;
                request.samples = std::max<std::size_t>(1, o.bytes / 2);
                request.bins = {kMaxBins};
                request.methods = {LargeBinMethod::Auto};
                request.repeats = o.repeats;
                const LargeBinRun run = measureLargeBin(device, request, cancel, {}, {});
                const LargeBinPoint& p = run.points.front();
                return std::vector<DashboardResult>{measuredResult(
                    std::string(largeBinMethodName(p.method)) + ", " + p.geometry, p.bytes, p.stats,
                    p.gbps, "read-only", run.ceiling, p.status, p.detail)};
            }};
}

} // namespace

LargeBinRequest planLargeBin(const DeviceInfo& device, const LargeBinParams& params) {
    if (params.methods.empty())
        throw UsageError("--method", "no method to run: choose at least one");
    LargeBinRequest r;
    r.methods = params.methods;
    r.repeats = params.repeats;
    r.range = params.range;
    if (params.pages) {
        // A stack: one bin count by one method on each page; the pages' counts add up.
        if (params.sizeMiB || params.count)
            throw UsageError(params.sizeMiB ? "--size" : "--count",
                             "sizes synthetic data; an image has its own size");
        if (params.bins.size() > 1)
            throw UsageError("--bins", "a stack is counted into one bin count");
        if (params.methods.size() > 1)
            throw UsageError("--method", "a stack is counted by one method");
        ImageBinsRequest bins;
        bins.bins = params.bins.empty() ? 0 : params.bins.front();
        bins.range = params.range;
        bins.method = params.methods.front();
        bins.repeats = params.repeats;
        r.stack = std::make_shared<const ImageStackRequest>(
            planImageStack(params.path, *params.pages, params.channel, std::move(bins)));
        return r;
    }
    if (params.image) {
        if (params.sizeMiB || params.count)
            throw UsageError(params.sizeMiB ? "--size" : "--count",
                             "sizes synthetic data; an image has its own size");
        r.plane = std::make_shared<const SamplePlane>(imagePlane(*params.image, params.channel));
        r.type = r.plane->type;
        r.samples = r.plane->count();
    } else {
        r.data = params.data;
        r.type = params.type;
        // 1 GiB on a GPU (the benchmarks' size), 16 MiB on a CPU device (PoCL runs these at a
        // few GB/s at best).
        const double mib = params.sizeMiB                   ? *params.sizeMiB
                           : device.type == DeviceType::Cpu ? 16.0
                                                            : 1024.0;
        if (params.sizeMiB && params.count)
            throw UsageError("largebin", "give the size with either --size MIB or --count N, "
                                         "not both");
        r.samples = params.count
                        ? *params.count
                        : std::size_t(std::llround(mib * 1048576.0 / double(sampleBytes(r.type))));
    }
    const std::string sizeOption = params.image ? "IMAGE" : params.count ? "--count" : "--size";
    if (r.samples == 0) // --size 0, --count 0 or a size below one sample
        throw UsageError(sizeOption, "no samples: the synthetic data would be empty");
    if (r.samples > kMaxSamples)
        throw UsageError(sizeOption, std::to_string(r.samples) + " samples: at most 4,294,967,295");
    if (params.image) {
        if (r.samples * sampleBytes(r.type) > device.maxAllocBytes)
            throw UsageError(sizeOption, std::to_string(r.samples * sampleBytes(r.type)) +
                                             " bytes exceed one buffer of " + device.name);
    } else {
        checkSyntheticBytes(device, r.samples * sampleBytes(r.type), 1, sizeOption);
    }
    r.bins = params.bins.empty() ? std::vector<int>{defaultBins(r.type)} : params.bins;
    // The range's checks that need no data (the type's bounds): an empty plane of the type
    // (float auto ranges come with the data).
    SamplePlane probe;
    probe.type = r.type;
    for (int b : r.bins)
        makeBinSpec(probe, b, r.range);
    return r;
}

LargeBinRun runLargeBinJob(JobContext& ctx, Device& device, const LargeBinRequest& request,
                           const ItemSink& onItem) {
    if (request.stack) {
        LargeBinRun run;
        run.device = device.info();
        run.stack = std::make_shared<const ImageStackRun>(
            runImageStack(device, *request.stack, ctx.cancelToken(),
                          [&](double f, const std::string& what) { ctx.progress(f, what); }));
        return run;
    }
    return measureLargeBin(
        device, request, ctx.cancelToken(),
        [&](const LargeBinPoint& point) {
            if (onItem)
                onItem(point);
        },
        [&](double f, const std::string& what) { ctx.progress(f, what); });
}

Pipeline largebinPipeline() {
    Pipeline p;
    p.name = "largebin";
    p.summary = "histograms of 8-bit, 16-bit and float samples into 1 to 65,536 bins by every "
                "method side by side (" +
                largeBinMethodNames(", ") +
                "), each verified bit-exactly, against the read-only kernel";
    p.description =
        "Histograms of many bins: an image's channel (8-bit, 16-bit or 32-bit float) or synthetic "
        "samples (u8, u16, f32; random, skewed, smooth) into 1 to 65,536 bins over [LO, HI], "
        "NumPy's rule (uniform bins, the last one closed; values outside counted apart, NaN "
        "apart): integers exactly (a value on an edge in the upper bin, where NumPy's double "
        "edges may count it one bin low), floats by NumPy's float32 steps and edges. Each "
        "method counts on the device and is compared slot by slot with the CPU reference. GB/s "
        "= input bytes / median time of one whole histogram, against the read-only kernel on the "
        "same buffer in the same run. A method the device cannot run is reported unsupported; "
        "'tagged' (software atomics that assume lock-step warps) is run as written and its "
        "mismatches are reported.";
    p.reference =
        "largeHistogramReference: every sample binned on the host by the same rule "
        "(integers exactly; floats by NumPy's float32 steps and edges), compared slot by slot "
        "(bins, below, above, NaN)";
    using P = LargeBinParams;
    p.options = {
        withStackPages<P>(
            imageOption<P>(
                "IMAGE", "FILE",
                "an image file (8-bit, 16-bit or 32-bit float); without one, synthetic samples "
                "(--data, --type, --size)",
                [](P& s, const std::string& path) {
                    if (!s.path.empty())
                        throw UsageError("largebin", "more than one image given ('" + s.path +
                                                         "', '" + path + "')");
                    s.path = path;
                },
                [](P& s, HostImage image) {
                    s.image = std::make_shared<const HostImage>(std::move(image));
                }),
            [](P& s, const PageRange& pages) { s.pages = pages; }),
        valueOption<P>("--channel", "C",
                       "gray (default: the image itself, or the luma of a color image) | r | g | "
                       "b | a",
                       [](P& s, const std::string& v) { s.channel = v; }),
        valueOption<P>("--bins", "N[,N...]",
                       "bin counts, 1 to 65536 each (default 65536 for 16-bit samples, 256 "
                       "otherwise)",
                       [](P& s, const std::string& v) { s.bins = parseBinCounts(v); }),
        valueOption<P>("--range", "LO,HI",
                       "the binned range, last bin closed (default: the whole type for integers, "
                       "[min, max] of the finite samples for floats)",
                       [](P& s, const std::string& v) { s.range = parseBinRange(v); }),
        valueOption<P>("--method", "M",
                       "auto (default: private on a CPU device; else the fastest of multipass, "
                       "local16, runs16 and global timed on the first 64 Mi samples) | " +
                           largeBinMethodNames(" | ") + " | all, or a comma list",
                       [](P& s, const std::string& v) {
                           s.methods = parseNameList<LargeBinMethod>(v, allLargeBinMethods,
                                                                     parseLargeBinMethod);
                       }),
        valueOption<P>("--data", "D", "synthetic samples: random (default) | skewed | smooth",
                       [](P& s, const std::string& v) { s.data = parseLargeBinData(v); }),
        valueOption<P>("--type", "T", "synthetic sample type: u8 | u16 (default) | f32",
                       [](P& s, const std::string& v) { s.type = parseSampleType(v); }),
        valueOption<P>(
            "--size", "MIB", "synthetic samples, in MiB (default 1024, 16 on a CPU device)",
            [](P& s, const std::string& v) { s.sizeMiB = parseNonNegative("--size", v); }),
        valueOption<P>("--count", "N", "synthetic samples, a count (not with --size)",
                       [](P& s, const std::string& v) {
                           s.count = std::size_t(parseWholeNumber("--count", v, 0, 1ll << 40));
                       }),
        repeatOption<P>(&P::repeats, "timed runs after a warm-up (default 5)"),
    };
    p.csvHelp = "one row per method and bin count (timings, GB/s, G samples/s, % of read-only, "
                "status, detail)";
    p.jsonHelp = "the whole run: device, input, read-only kernel, each histogram's range and "
                 "out-of-range counts, every point";
    p.outputs = {{"--counts",
                  "the first bin count's histogram: bin,lo,hi,count (the CPU "
                  "reference, equal to every verified method); lo <= v < hi (the last bin "
                  "closed), for integers the first value of the bin and of the next, for floats "
                  "the float32 edges counted with",
                  false}};
    bindDevicePipeline<LargeBinParams, LargeBinRequest, LargeBinRun>(
        p, planLargeBin, runLargeBinJob, [](const LargeBinRun& run) {
            if (run.stack) {
                // The stack's bins go to --counts, as one image's do (bin,lo,hi,count); --csv
                // gets the rows of the pages (one image's gets the rows of the methods).
                const ImageStackRun& stack = *run.stack;
                Report r = imageStackReport(stack, "histlab-cli largebin");
                r.csv = [&stack] { return imageStackStatisticsCsv(stack); };
                r.files.clear();
                r.files["--counts"] = [&stack](const std::string&) {
                    const ImageChannelBins& c = stack.stack.results.front();
                    return countsTable({c.spec, c.histogram}).csv();
                };
                return r;
            }
            Report r;
            r.text = largeBinText(run);
            r.table = pointTable(run);
            r.csv = [&run] { return pointTable(run).csv(); };
            r.json = [&run] { return largeBinJson(run); };
            r.files["--counts"] = [&run](const std::string&) {
                return run.specs.empty() ? std::string() : countsTable(run.specs.front()).csv();
            };
            r.verdict = countStatuses(run.points)
                            .verdict("histogram(s)", "no method could run on " + run.device.name);
            return r;
        });
    p.describeItem = [](const std::any& item) {
        const LargeBinPoint& point = std::any_cast<const LargeBinPoint&>(item);
        return std::string(largeBinMethodName(point.method)) + ", " + std::to_string(point.bins) +
               " bins: " + statusName(point.status);
    };
    p.dashboard = {largeBinDashboardEntry()};
    return p;
}

} // namespace histlab
