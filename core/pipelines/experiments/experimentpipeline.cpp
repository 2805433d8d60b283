// The experiments as the front ends see them: histlab-cli sweep's arguments, the plan both the
// CLI and the Experiments tab run, the report (text, CSV, JSON), and the saved runs read back
// as baselines. Metric (experiment.h): GB/s = input bytes / median kernel time, judged against
// the read-only kernel on the same buffer of the same device in the same run.
#include "pipelines/baseline.h"
#include "pipelines/experiments/experiment.h"
#include "pipelines/options.h"
#include "pipelines/pipeline.h"
#include "report/files.h"
#include "report/json.h"
#include "report/table.h"
#include "report/text.h"
#include "runtime/errors.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace histlab {

namespace {

/// The point of `baseline` to show `point` with: the same distribution and parameters.
BaselineMatch<ExperimentPoint> baselineOf(const ExperimentRun* baseline,
                                          const ExperimentPoint& point) {
    return matchBaseline(baseline ? findBaselinePoint(*baseline, point) : nullptr, point);
}

Table experimentTable(const ExperimentRun& run, const ExperimentRun* baseline) {
    // Columns: the fixed ones, then every parameter name seen, in first-seen order.
    std::vector<std::string> names;
    for (const ExperimentPoint& p : run.points)
        for (const auto& [k, v] : p.params)
            if (std::find(names.begin(), names.end(), k) == names.end())
                names.push_back(k);
    std::vector<std::string> columns = {"experiment", "device", "distribution", "series", "x", "y"};
    columns.insert(columns.end(), names.begin(), names.end());
    for (const char* c : {"median_ms", "min_ms", "max_ms", "runs", "gbps", "gsamples_per_s",
                          "percent_of_ceiling", "status", "reason"})
        columns.push_back(c);
    if (baseline)
        for (const std::string& c : baselineColumns())
            columns.push_back(c);
    Table table(std::move(columns));
    for (const ExperimentPoint& p : run.points) {
        table.row()
            .add(experimentKindName(run.kind))
            .add(run.devices.at(std::size_t(p.device)).name)
            .add(p.distribution)
            .add(p.series)
            .add(p.x)
            .add(p.y);
        for (const std::string& n : names) {
            std::string value;
            for (const auto& [k, v] : p.params)
                if (k == n)
                    value = v;
            table.add(value);
        }
        table.add(p.stats.medianMs)
            .add(p.stats.minMs)
            .add(p.stats.maxMs)
            .add(std::uint64_t(p.stats.samplesMs.size()))
            .add(p.gbps)
            .add(p.gsps)
            .add(p.percentOfCeiling)
            .add(statusName(p.status))
            .add(p.reason);
        if (baseline) {
            const auto b = baselineOf(baseline, p);
            addBaselineCells(table, b.comparable,
                             b.row ? baseline->devices.at(std::size_t(b.row->device)).name : "",
                             b.row ? b.row->gbps : 0, p.gbps);
        }
    }
    return table;
}

/// GB/s of a point as the sweep's lines print it: whole numbers from 100 on, else 2 decimals.
std::string pointGbps(double gbps) {
    return fixedText(gbps, gbps >= 100 ? 0 : 2);
}

ExperimentRun experimentFromJson(const Json& doc) {
    if (!doc.is_object() || !doc.contains("histlab_experiment"))
        throw InputError("not a HistLab experiment file (no \"histlab_experiment\")");
    ExperimentRun run;
    try {
        run.kind = parseExperimentKind(jsonStringAt(doc, "experiment"));
    } catch (const UsageError& e) { // a name this version does not know: the file's fault
        throw InputError(e.what());
    }
    run.date = jsonStringAt(doc, "date");
    run.note = jsonStringOr(doc, "note", "");
    run.bytes = std::size_t(jsonUnsignedAt(doc, "bytes"));
    run.repeats = int(jsonIntegerAt(doc, "repeats"));
    run.maxRepeats = int(jsonIntegerAt(doc, "max_repeats"));
    for (const Json& d : jsonAt(doc, "distributions"))
        run.distributions.push_back(d.get<std::string>());
    for (const Json& d : jsonAt(doc, "devices"))
        run.devices.push_back(deviceFromJson(d));
    const auto deviceIndex = [&](const Json& row, const char* what) {
        const std::int64_t device = jsonIntegerAt(row, "device");
        if (device < 0 || std::size_t(device) >= run.devices.size())
            throw InputError(std::string(what) + " names device " + std::to_string(device) +
                             ", which the file does not list");
        return int(device);
    };
    for (const Json& c : jsonAt(doc, "ceilings")) {
        ExperimentCeiling ec;
        ec.device = deviceIndex(c, "a ceiling");
        ec.distribution = jsonStringAt(c, "distribution");
        ec.ceiling.kernel = jsonStringAt(c, "kernel");
        ec.ceiling.bytes = jsonUnsignedAt(c, "bytes");
        ec.ceiling.gbps = jsonNumberAt(c, "gbps");
        ec.ceiling.stats = timingFromJson(c);
        run.ceilings.push_back(ec);
    }
    for (const Json& v : jsonAt(doc, "points")) {
        ExperimentPoint p;
        p.device = deviceIndex(v, "a point");
        p.distribution = jsonStringAt(v, "distribution");
        p.series = jsonStringAt(v, "series");
        p.x = jsonNumberAt(v, "x");
        p.y = jsonNumberAt(v, "y");
        for (const Json& kv : jsonAt(v, "params")) {
            if (!kv.is_array() || kv.size() != 2 || !kv[0].is_string() || !kv[1].is_string())
                throw InputError("a parameter is not a [name, value] pair");
            p.params.emplace_back(kv[0].get<std::string>(), kv[1].get<std::string>());
        }
        p.stats = timingFromJson(v);
        p.gbps = jsonNumberAt(v, "gbps");
        // Files from before bins hold the 256-bin experiments only: one byte a sample.
        p.gsps = v.contains("gsamples_per_s") ? jsonNumberAt(v, "gsamples_per_s") : p.gbps;
        p.percentOfCeiling = jsonNumberAt(v, "percent_of_ceiling");
        p.status = parseStatus(jsonStringAt(v, "status"));
        p.reason = jsonStringAt(v, "reason");
        run.points.push_back(p);
    }
    return run;
}

/// The spec of `params` before any device: the experiment, its distributions and repeats.
ExperimentSpec experimentSpecOf(const ExperimentParams& params) {
    if (!params.kind)
        throw UsageError("sweep", "which experiment? (" + experimentKindList() + ")");
    const bool haveImage = params.imagePath || params.image;
    ExperimentSpec spec;
    spec.kind = *params.kind;
    const bool bins = spec.kind == ExperimentKind::Bins;
    if (params.bins && !bins)
        throw UsageError("--bins", "only the bins experiment takes bin counts");
    if (params.maxRepeats && bins)
        throw UsageError("--max-repeat", "bins times exactly --repeat runs per point (the "
                                         "large-bin pipeline's recipe), with no cap to raise");
    if (params.bins) {
        spec.bins = *params.bins;
        std::sort(spec.bins.begin(), spec.bins.end());
        spec.bins.erase(std::unique(spec.bins.begin(), spec.bins.end()), spec.bins.end());
    }
    if (params.distributions) {
        spec.distributions = *params.distributions;
    } else {
        spec.distributions = defaultDistributions(spec.kind);
        if (haveImage)
            spec.distributions.push_back("image");
    }
    checkExperimentDistributions(spec.kind, spec.distributions, haveImage);
    spec.repeats = params.repeats;
    spec.maxRepeats =
        bins ? params.repeats : std::max(params.maxRepeats.value_or(20), params.repeats);
    if (params.sizeMiB && *params.sizeMiB * 1048576.0 < 16)
        throw UsageError("--size", "at least 16 bytes");
    if (params.sizeMiB)
        checkExperimentBytes(*params.sizeMiB * 1048576.0);
    spec.bytes = params.sizeMiB ? std::size_t(std::llround(*params.sizeMiB * 1048576.0)) : 0;
    spec.image = params.image.get();
    return spec;
}

} // namespace

ExperimentPlan planExperiment(const std::vector<DeviceInfo>& devices,
                              const ExperimentParams& params) {
    ExperimentPlan plan;
    plan.spec = experimentSpecOf(params);
    plan.image = params.image;
    if (devices.empty())
        throw UsageError("--device", "no device to run on");
    for (const DeviceInfo& d : devices) {
        plan.bytes.push_back(experimentBytes(d, plan.spec.bytes));
        if (plan.spec.kind == ExperimentKind::Bins) // the samples are made whole on the host
            checkSyntheticBytes(d, plan.bytes.back(), 1, "--size");
    }
    return plan;
}

std::string describeExperimentPoint(ExperimentKind kind, const ExperimentPoint& p) {
    std::ostringstream s;
    s << p.distribution;
    if (!p.series.empty())
        s << ' ' << p.series;
    if (kind == ExperimentKind::Stages) { // categorical axes: say the category
        for (const auto& [k, v] : p.params)
            if (k == "stage")
                s << ' ' << v;
    } else if (kind != ExperimentKind::Atomics) { // the series names the variant there
        s << ' ' << experimentAxisName(kind) << '=' << std::setprecision(12) << p.x;
    }
    if (p.ok()) {
        s << ": " << pointGbps(p.gbps) << " GB/s, ";
        if (kind == ExperimentKind::Bins) // 2-byte samples: the rate that compares across types
            s << pointGbps(p.gsps) << " G samples/s, ";
        s << fixedText(p.percentOfCeiling, 1) << " % of read-only, " << p.status;
    } else
        s << ": " << p.status << " (" << p.reason << ")";
    return s.str();
}

std::string experimentText(const ExperimentRun& run, const ExperimentRun* baseline) {
    std::size_t ok = 0;
    for (const ExperimentPoint& p : run.points)
        ok += p.ok() ? 1 : 0;
    std::ostringstream out;
    out << "sweep " << experimentKindName(run.kind) << ", " << fixedText(run.bytes / 1048576.0, 0)
        << " MiB per input, " << run.points.size() << " points (" << ok << " ran)\n";
    for (const DeviceInfo& d : run.devices)
        out << deviceLine(d) << '\n';
    for (const ExperimentCeiling& c : run.ceilings)
        out << "read-only ceiling, " << run.devices[std::size_t(c.device)].name << ", "
            << c.distribution << ": " << fixedText(c.ceiling.gbps, 2) << " GB/s\n";
    for (const ExperimentPoint& p : run.points) {
        out << "  " << describeExperimentPoint(run.kind, p);
        if (baseline) {
            const auto b = baselineOf(baseline, p);
            if (b.comparable && b.row->gbps > 0)
                out << "  (baseline " << pointGbps(b.row->gbps) << " GB/s, "
                    << ratioText(true, b.row->gbps, p.gbps) << ")";
            else
                out << "  (no baseline point)";
        }
        out << '\n';
    }
    return out.str();
}

std::string experimentJson(const ExperimentRun& run) {
    Json devices = Json::array(), ceilings = Json::array(), points = Json::array();
    for (const DeviceInfo& d : run.devices)
        devices.push_back(deviceJson(d));
    for (const ExperimentCeiling& c : run.ceilings) {
        Json ceiling{{"device", c.device}, {"distribution", c.distribution}};
        ceiling.update(ceilingJson(c.ceiling)); // kernel, bytes, timing, gbps
        ceilings.push_back(std::move(ceiling));
    }
    for (const ExperimentPoint& p : run.points) {
        Json params = Json::array();
        for (const auto& [k, v] : p.params)
            params.push_back(Json::array({k, v}));
        points.push_back({{"device", p.device},
                          {"distribution", p.distribution},
                          {"series", p.series},
                          {"x", p.x},
                          {"y", p.y},
                          {"params", std::move(params)},
                          {"timing", timingJson(p.stats)},
                          {"gbps", p.gbps},
                          {"gsamples_per_s", p.gsps},
                          {"percent_of_ceiling", p.percentOfCeiling},
                          {"status", statusName(p.status)},
                          {"reason", p.reason}});
    }
    return jsonText({{"histlab_experiment", 1},
                     {"experiment", experimentKindName(run.kind)},
                     {"axis", experimentAxisName(run.kind)},
                     {"date", run.date},
                     {"note", run.note},
                     {"bytes", std::uint64_t(run.bytes)},
                     {"repeats", run.repeats},
                     {"max_repeats", run.maxRepeats},
                     {"distributions", run.distributions},
                     {"devices", std::move(devices)},
                     {"ceilings", std::move(ceilings)},
                     {"points", std::move(points)}});
}

ExperimentRun parseExperimentJson(const std::string& text, const std::string& source) {
    return readSavedRun<ExperimentRun>(text, source, experimentFromJson);
}

std::string experimentCsv(const ExperimentRun& run, const ExperimentRun* baseline) {
    return experimentTable(run, baseline).csv();
}

ExperimentJob planExperimentJob(const std::vector<DeviceInfo>& devices,
                                const ExperimentParams& params) {
    return ExperimentJob{planExperiment(devices, params), params.comparison};
}

ExperimentResult runExperimentJob(JobContext& ctx, const std::vector<int>& devices,
                                  const ExperimentJob& job, const ItemSink& onItem) {
    ExperimentResult result;
    result.baseline = job.comparison.baseline;
    const ExperimentKind kind = job.plan.spec.kind;
    result.run = runExperiment(
        ctx.devices(), devices, job.plan.spec, ctx.cancelToken(),
        [&](const ExperimentPoint& point) {
            if (onItem)
                onItem(ExperimentItem{kind, point});
        },
        [&ctx](double fraction, const std::string& what) { ctx.progress(fraction, what); });
    result.run.note = job.comparison.note;
    return result;
}

Pipeline sweepPipeline() {
    Pipeline p;
    p.name = "sweep";
    p.summary = "an experiment: a grid of kernel configurations x distributions x devices, each "
                "point timed, judged against the same run's read-only kernel and verified; "
                "points stream to stderr as they finish";
    p.description =
        "Experiments after the reference text's figures, each a grid of the 256-bin histogram's "
        "configurations x input distributions x devices: banks (GB/s against local copies, 1, "
        "2, 4 ... what local memory holds, one curve per distribution), reads (GB/s against "
        "work-items, one per compute unit ... one 16-byte vector each: serial/coalesced x "
        "scalar/uint4 loads), groups (work-groups per compute unit x work-group size), stages "
        "(read-only, +scatter, +local reduce, +global merge, for auto's configuration and the "
        "reference text's), atomics (naive global atomics, local, banked and cpu variants). And "
        "bins: the large-bin histogram of 16-bit samples (bins over the whole range 0 ... 65535) "
        "against the bin count (256, 257, 512 ... 65536), one curve per large-bin method "
        "(global, local, multipass, local16, runs16, private, tagged) and distribution (random, "
        "skewed, smooth, image), each point timed as histlab-cli largebin times it (exactly "
        "--repeat "
        "runs) and reported in GB/s and G samples/s. GB/s = input bytes / median kernel time "
        "(the 256-bin experiments repeat runs while (max - min) / median > 10 %), against the "
        "read-only kernel on the same buffer in the same run. A point that cannot run (a method "
        "the device's plan cannot fit at that bin count) is reported as unsupported or failed "
        "and the sweep goes on.";
    p.reference = "referenceHistogram: the 256 counts on the host, compared bin by bin (complete "
                  "histograms; partial stages are timed only); bins: largeHistogramReference, "
                  "compared slot by slot";
    p.devices = Pipeline::Devices::Many;
    using P = ExperimentParams;
    p.options = {
        valueOption<P>("EXPERIMENT", "banks|reads|groups|stages|atomics|bins",
                       "the experiment: " + experimentKindList(),
                       [](P& s, const std::string& v) {
                           if (s.kind)
                               throw UsageError("sweep", std::string("more than one experiment "
                                                                     "given ('") +
                                                             experimentKindName(*s.kind) + "', '" +
                                                             v + "')");
                           s.kind = parseExperimentKind(v);
                       }),
        valueOption<P>("--dist", "LIST",
                       "comma list of random, uniform, gradient, skewed, image (bins: random, "
                       "skewed, smooth, image); default per experiment: banks and atomics "
                       "random,uniform,skewed; stages random,uniform; reads and groups random; "
                       "bins random,skewed,smooth",
                       [](P& s, const std::string& v) { s.distributions = splitList(v); }),
        imageOption<P>(
            "--image", "FILE",
            "the image for \"image\": its gray plane repeated to the size (bins: as 16-bit "
            "samples, an 8-bit image's values x 257); giving it adds \"image\" to the default "
            "distributions",
            [](P& s, const std::string& v) { s.imagePath = v; },
            [](P& s, HostImage image) {
                s.image = std::make_shared<const HostImage>(std::move(image));
            }),
        valueOption<P>("--size", "MIB", "input size (default 256 on a GPU, 64 on a CPU device)",
                       [](P& s, const std::string& v) {
                           s.sizeMiB = parseNonNegative("--size", v);
                           if (*s.sizeMiB <= 0)
                               throw UsageError("--size", "must be more than 0");
                       }),
        repeatOption<P>(&P::repeats, "timed runs at least, after a warm-up (default 5)", 10000),
        valueOption<P>("--bins", "N[,N...]",
                       "bins only: the bin counts, 1 to 65536 each (default 256, 257, 512, 1024 "
                       "... 65536)",
                       [](P& s, const std::string& v) { s.bins = parseBinCounts(v); }),
        valueOption<P>("--max-repeat", "N",
                       "more runs while (max - min) / median > 10 %, up to N (default 20; not "
                       "for bins, which times exactly --repeat runs)",
                       [](P& s, const std::string& v) {
                           s.maxRepeats = int(parseWholeNumber("--max-repeat", v, 1, 100000));
                       }),
    };
    for (PipelineOption& o : comparisonOptions<P, ExperimentRun>(
             &P::comparison,
             "a saved run (--json): each point is compared with the baseline's point of the "
             "same distribution and parameters (CSV columns baseline_gbps, ratio)",
             "stored in the JSON (what was compared, a version label...)"))
        p.options.push_back(std::move(o));
    p.csvHelp = "one row per point, every parameter a column";
    p.jsonHelp = "the whole run (device properties, driver, date, every point); can be given to "
                 "--baseline later";
    bindPipeline<ExperimentParams, ExperimentJob, ExperimentResult>(
        p, planExperimentJob, runExperimentJob,
        [](const ExperimentResult& result) {
            const ExperimentRun& run = result.run;
            const ExperimentRun* baseline = result.baseline.get();
            Report r;
            r.text = experimentText(run, baseline);
            r.table = experimentTable(run, baseline);
            r.csv = [&run, baseline] { return experimentCsv(run, baseline); };
            r.json = [&run] { return experimentJson(run); };
            StatusCount count = countStatuses(run.points);
            count.rows = std::max<std::size_t>(count.rows, 1); // no point at all: none could run
            r.verdict = count.verdict("point(s)", "no point of the sweep could run");
            return r;
        },
        [](ExperimentParams& params) {
            const ExperimentSpec spec = experimentSpecOf(params); // usage errors before any file
            Comparison<ExperimentRun>& c = params.comparison;
            if (!c.baselinePath)
                return;
            c.baseline = readBaseline<ExperimentRun>(*c.baselinePath, parseExperimentJson);
            if (c.baseline->kind != spec.kind)
                throw InputError(*c.baselinePath + ": a '" + experimentKindName(c.baseline->kind) +
                                 "' run cannot be the baseline of a '" +
                                 experimentKindName(spec.kind) + "' sweep");
        });
    p.describeItem = [](const std::any& item) {
        const ExperimentItem& i = std::any_cast<const ExperimentItem&>(item);
        return describeExperimentPoint(i.kind, i.point);
    };
    return p;
}

} // namespace histlab
