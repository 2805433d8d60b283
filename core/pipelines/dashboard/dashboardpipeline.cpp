// The dashboard as the front ends see it: histlab-cli dashboard's options, the plan both the CLI
// and the Dashboard tab run (planDashboard), the report (a table per device, CSV, JSON), and the
// saved runs read back as baselines. Each entry's metric is its family's, restated in its
// description (--list); each is judged against the read-only or copy kernel of the same device
// in the same run.
#include "pipelines/baseline.h"
#include "pipelines/dashboard/dashboard.h"
#include "pipelines/options.h"
#include "pipelines/pipeline.h"
#include "report/files.h"
#include "report/json.h"
#include "report/table.h"
#include "report/text.h"
#include "runtime/bytesize.h"
#include "runtime/errors.h"

#include <iomanip>
#include <sstream>

namespace histlab {

namespace {

/// The result of `baseline` to show `result` with: the same pipeline on the same device.
BaselineMatch<DashboardResult> baselineOf(const DashboardRun* baseline, const DashboardRun& run,
                                          const DashboardResult& result) {
    return matchBaseline(baseline ? findBaselineResult(*baseline, run, result) : nullptr, result);
}

Table dashboardTable(const DashboardRun& run, const DashboardRun* baseline) {
    std::vector<std::string> columns = {
        "date",          "device",       "driver",         "pipeline",
        "variant",       "input_bytes",  "bytes",          "median_ms",
        "min_ms",        "max_ms",       "runs",           "gbps",
        "ceiling",       "ceiling_gbps", "ceiling_kernel", "percent_of_ceiling",
        "noise_percent", "ceiling_runs", "status",         "reason"};
    if (baseline)
        for (const std::string& c : baselineColumns())
            columns.push_back(c);
    Table table(std::move(columns));
    for (const DashboardResult& r : run.results) {
        const DashboardDevice& d = run.devices.at(std::size_t(r.device));
        table.row()
            .add(run.date)
            .add(d.info.name)
            .add(d.info.driverVersion)
            .add(r.pipeline)
            .add(r.variant)
            .add(std::uint64_t(d.inputBytes))
            .add(r.bytes)
            .add(r.stats.medianMs)
            .add(r.stats.minMs)
            .add(r.stats.maxMs)
            .add(std::uint64_t(r.stats.samplesMs.size()))
            .add(r.gbps)
            .add(r.ceilingKind)
            .add(r.ceilingGbps)
            .add(r.ceilingKernel)
            .add(r.percentOfCeiling)
            .add(r.noisePercent)
            .add(std::uint64_t(r.ceilingStats.samplesMs.size()))
            .add(statusName(r.status))
            .add(r.reason);
        if (baseline) {
            const auto b = baselineOf(baseline, run, r);
            addBaselineCells(table, b.comparable,
                             b.row ? baseline->devices.at(std::size_t(b.row->device)).info.name
                                   : "",
                             b.row ? b.row->gbps : 0, r.gbps);
        }
    }
    return table;
}

DashboardRun dashboardFromJson(const Json& doc) {
    if (!doc.is_object() || !doc.contains("histlab_dashboard"))
        throw InputError("not a HistLab dashboard file (no \"histlab_dashboard\")");
    DashboardRun run;
    run.date = jsonStringAt(doc, "date");
    run.note = jsonStringOr(doc, "note", "");
    run.options.bytes = std::size_t(jsonUnsignedAt(doc, "bytes"));
    run.options.repeats = int(jsonIntegerAt(doc, "repeats"));
    for (const Json& p : jsonAt(doc, "pipelines"))
        run.pipelines.push_back(p.get<std::string>());
    // A device's ceilings of the run: absent from files saved before they were kept.
    const auto ceilingOf = [](const Json& d, const char* key) {
        CeilingResult c;
        if (!d.contains(key))
            return c;
        const Json& v = jsonAt(d, key);
        c.kernel = jsonStringAt(v, "kernel");
        c.bytes = jsonUnsignedAt(v, "bytes");
        c.stats = timingFromJson(jsonAt(v, "timing"));
        c.gbps = jsonNumberAt(v, "gbps");
        return c;
    };
    for (const Json& d : jsonAt(doc, "devices")) {
        DashboardDevice device;
        device.info = deviceFromJson(jsonAt(d, "device"));
        device.inputBytes = std::size_t(jsonUnsignedAt(d, "input_bytes"));
        device.readCeiling = ceilingOf(d, "read_only_ceiling");
        device.copyCeiling = ceilingOf(d, "copy_ceiling");
        device.ceilingError = jsonStringOr(d, "ceiling_error", "");
        run.devices.push_back(std::move(device));
    }
    for (const Json& v : jsonAt(doc, "results")) {
        DashboardResult r;
        const std::int64_t device = jsonIntegerAt(v, "device");
        if (device < 0 || std::size_t(device) >= run.devices.size())
            throw InputError("a result names device " + std::to_string(device) +
                             ", which the file does not list");
        r.device = int(device);
        r.pipeline = jsonStringAt(v, "pipeline");
        r.variant = jsonStringAt(v, "variant");
        r.bytes = jsonUnsignedAt(v, "bytes");
        r.stats = timingFromJson(v);
        r.gbps = jsonNumberAt(v, "gbps");
        r.ceilingKind = jsonStringAt(v, "ceiling");
        r.ceilingGbps = jsonNumberAt(v, "ceiling_gbps");
        r.ceilingKernel = jsonStringOr(v, "ceiling_kernel", ""); // saved before it was kept
        r.percentOfCeiling = jsonNumberAt(v, "percent_of_ceiling");
        // Absent from files saved before ceilings were timed run for run.
        if (v.contains("noise_percent"))
            r.noisePercent = jsonNumberAt(v, "noise_percent");
        if (v.contains("ceiling_timing"))
            r.ceilingStats = timingFromJson(jsonAt(v, "ceiling_timing"));
        r.status = parseStatus(jsonStringAt(v, "status"));
        r.reason = jsonStringAt(v, "reason");
        run.results.push_back(r);
    }
    return run;
}

} // namespace

std::string dashboardPercentText(const DashboardResult& r) {
    return fixedText(r.percentOfCeiling, 1) +
           (r.noisePercent > 0 ? " \u00b1 " + fixedText(r.noisePercent, 1) : "");
}

std::string dashboardCeilingsLine(const DashboardDevice& d) {
    if (!d.ceilingError.empty())
        return "  ceilings: could not be measured (" + d.ceilingError +
               "); each row is judged against the ceiling it measured itself\n";
    const auto one = [](const char* kind, const CeilingResult& c) {
        return std::string(kind) + " " + gbpsText(c.gbps) + " GB/s (the median of " +
               std::to_string(c.stats.samplesMs.size()) +
               " rounds, each the fastest of the "
               "family; fastest " +
               gbpsText(gbPerSecond(c.bytes, c.stats.minMs)) + ", slowest " +
               gbpsText(gbPerSecond(c.bytes, c.stats.maxMs)) + "; at the start " + c.kernel +
               " won)";
    };
    std::string line;
    if (d.readCeiling.gbps > 0)
        line = one("read-only", d.readCeiling);
    if (d.copyCeiling.gbps > 0)
        line += (line.empty() ? "" : ", ") + one("copy", d.copyCeiling);
    return line.empty() ? ""
                        : "  ceilings, timed after each timed run of a pipeline: " + line + "\n";
}

std::string describeDashboardResult(const DashboardResult& r) {
    std::ostringstream s;
    s << r.pipeline << ": ";
    if (r.ran() && r.ceilingGbps > 0)
        s << gbpsText(r.gbps) << " GB/s, " << dashboardPercentText(r) << " % of " << r.ceilingKind
          << " (" << gbpsText(r.ceilingGbps) << " GB/s), " << statusName(r.status);
    else if (r.ran()) // a host transfer: no device ceiling
        s << gbpsText(r.gbps) << " GB/s, " << statusName(r.status);
    else
        s << statusName(r.status) << " (" << r.reason << ")";
    return s.str();
}

std::string dashboardText(const DashboardRun& run, const DashboardRun* baseline) {
    std::ostringstream out;
    for (std::size_t slot = 0; slot < run.devices.size(); ++slot) {
        const DashboardDevice& d = run.devices[slot];
        out << "device " << d.info.index << ": " << d.info.name << " ["
            << deviceTypeName(d.info.type) << "], " << d.info.platformName << ", driver "
            << d.info.driverVersion << ", " << formatByteSize(d.inputBytes) << " per input\n";
        out << dashboardCeilingsLine(d);
        using A = TextTable::Align;
        std::vector<TextTable::Column> columns{
            {"pipeline", A::Left}, {"GB/s"}, {"ceiling GB/s"}, {"%"}, {"status", A::Left}};
        if (baseline)
            columns.insert(columns.end(), {{"baseline"}, {"ratio"}});
        columns.push_back({"variant or reason", A::Left});
        TextTable table(std::move(columns), "  ");
        for (const DashboardResult& r : run.results) {
            if (r.device != int(slot))
                continue;
            const bool ran = r.ran(), judged = ran && r.ceilingGbps > 0;
            std::vector<std::string> cells{
                r.pipeline, ran ? gbpsText(r.gbps) : "-",
                judged ? r.ceilingKind + " " + gbpsText(r.ceilingGbps) : "-",
                judged ? dashboardPercentText(r) : "-", statusName(r.status)};
            if (baseline) {
                const auto b = baselineOf(baseline, run, r);
                const bool baselineRan = b.row && b.row->ran();
                cells.push_back(baselineRan ? gbpsText(b.row->gbps) : "-");
                cells.push_back(ratioText(b.comparable, baselineRan ? b.row->gbps : 0, r.gbps));
            }
            cells.push_back(ran ? r.variant : r.reason);
            table.add(std::move(cells));
        }
        out << table.text();
    }
    return out.str();
}

std::string dashboardListText() {
    std::ostringstream out;
    for (const DashboardPipeline& p : dashboardPipelines())
        out << std::left << std::setw(14) << p.name << ' ' << p.description << '\n';
    return out.str();
}

std::string dashboardJson(const DashboardRun& run) {
    Json devices = Json::array(), results = Json::array();
    for (const DashboardDevice& d : run.devices) {
        Json device{{"device", deviceJson(d.info)}, {"input_bytes", d.inputBytes}};
        if (d.readCeiling.gbps > 0)
            device["read_only_ceiling"] = ceilingJson(d.readCeiling);
        if (d.copyCeiling.gbps > 0)
            device["copy_ceiling"] = ceilingJson(d.copyCeiling);
        if (!d.ceilingError.empty())
            device["ceiling_error"] = d.ceilingError;
        devices.push_back(std::move(device));
    }
    for (const DashboardResult& r : run.results)
        results.push_back({{"device", r.device},
                           {"pipeline", r.pipeline},
                           {"variant", r.variant},
                           {"bytes", r.bytes},
                           {"timing", timingJson(r.stats)},
                           {"gbps", r.gbps},
                           {"ceiling", r.ceilingKind},
                           {"ceiling_gbps", r.ceilingGbps},
                           {"ceiling_kernel", r.ceilingKernel},
                           {"percent_of_ceiling", r.percentOfCeiling},
                           {"noise_percent", r.noisePercent},
                           {"ceiling_timing", timingJson(r.ceilingStats)},
                           {"status", statusName(r.status)},
                           {"reason", r.reason}});
    return jsonText({{"histlab_dashboard", 1},
                     {"date", run.date},
                     {"note", run.note},
                     {"bytes", std::uint64_t(run.options.bytes)},
                     {"repeats", run.options.repeats},
                     {"pipelines", run.pipelines},
                     {"devices", std::move(devices)},
                     {"results", std::move(results)}});
}

DashboardRun parseDashboardJson(const std::string& text, const std::string& source) {
    return readSavedRun<DashboardRun>(text, source, dashboardFromJson);
}

std::string dashboardCsv(const DashboardRun& run, const DashboardRun* baseline) {
    return dashboardTable(run, baseline).csv();
}

DashboardJob planDashboardJob(const std::vector<DeviceInfo>& devices,
                              const DashboardParams& params) {
    DashboardJob job;
    job.list = params.list;
    job.comparison = params.comparison;
    if (!params.list)
        job.plan = planDashboard(devices, params.pipelines, params.options);
    return job;
}

DashboardResults runDashboardJob(JobContext& ctx, const std::vector<int>&, const DashboardJob& job,
                                 const ItemSink& onItem) {
    DashboardResults result;
    result.list = job.list;
    result.baseline = job.comparison.baseline;
    result.run = job.plan;
    result.run.note = job.comparison.note;
    if (job.list)
        return result;
    const DashboardRun& run = result.run;
    runDashboard(
        ctx.devices(), result.run, ctx.cancelToken(),
        [&](const DashboardResult& r) {
            if (onItem)
                onItem(DashboardItem{run.devices.at(std::size_t(r.device)).info.name, r});
        },
        [&ctx](double fraction, const std::string& what) { ctx.progress(fraction, what); });
    return result;
}

Pipeline dashboardPipeline() {
    Pipeline p;
    p.name = "dashboard";
    p.summary = "every pipeline registered with the core (the histogram's best variant, the 3 x 3 "
                "blur, the whole-array scan, equalization, the read-only and copy ceilings, ...) "
                "on each chosen device: GB/s, each verified against its CPU reference and judged "
                "against the read-only or copy kernel measured on the same device in the same "
                "run; a table per device";
    p.description =
        "The dashboard runs the entries of every registered pipeline family (--list names them, "
        "with what each counts) on each chosen device at one input size. GB/s = the entry's "
        "bytes / median kernel time (host transfers: host wall time), against the read-only or "
        "copy kernel measured on the same device in the same run. An entry that cannot run is a "
        "result that says why; the run goes on.";
    p.reference = "each entry's family's own: every result is verified against it (the "
                  "ceilings are timed only)";
    p.devices = Pipeline::Devices::Many;
    using P = DashboardParams;
    p.options = {
        valueOption<P>("--pipeline", "NAME[,NAME...]",
                       "a comma list of registered pipelines (default: all; --list names them)",
                       [](P& s, const std::string& v) {
                           for (const std::string& name : splitList(v))
                               s.pipelines.push_back(name);
                           if (s.pipelines.empty())
                               throw UsageError("--pipeline", "needs at least one name");
                       }),
        valueOption<P>("--size", "BYTES",
                       "each pipeline's input size, e.g. 64K, 16M, 1G (default 256M on a GPU, 64M "
                       "on a CPU device; at most the device's largest buffer)",
                       [](P& s, const std::string& v) {
                           s.options.bytes = std::size_t(parseByteSize("--size", v));
                           if (s.options.bytes < 16)
                               throw UsageError("--size", "at least 16 bytes");
                       }),
        valueOption<P>("--repeat", "N",
                       "timed runs after a warm-up (default 5): the median is "
                       "reported",
                       [](P& s, const std::string& v) {
                           s.options.repeats = int(parseWholeNumber("--repeat", v, 1, 10000));
                       }),
        flagOption<P>("--list",
                      "the registered pipelines with what each measures, and nothing else",
                      [](P& s) { s.list = true; }),
    };
    for (PipelineOption& o : comparisonOptions<P, DashboardRun>(
             &P::comparison,
             "a saved run (--json): each result next to the baseline's of the same pipeline on "
             "the device of the same name (or on its only device), with the ratio",
             "stored in the JSON"))
        p.options.push_back(std::move(o));
    p.csvHelp = "one row per result";
    p.jsonHelp = "the whole run (devices with their properties and driver, date, every result); "
                 "can be given to --baseline later";
    bindPipeline<DashboardParams, DashboardJob, DashboardResults>(
        p, planDashboardJob, runDashboardJob,
        [](const DashboardResults& result) {
            const DashboardRun& run = result.run;
            const DashboardRun* baseline = result.baseline.get();
            Report r;
            r.text = result.list ? dashboardListText() : dashboardText(run, baseline);
            r.table = dashboardTable(run, baseline);
            r.csv = [&run, baseline] { return dashboardCsv(run, baseline); };
            r.json = [&run] { return dashboardJson(run); };
            if (!result.list) {
                StatusCount count = countStatuses(run.results);
                count.rows = std::max<std::size_t>(count.rows, 1); // none at all: none could run
                r.verdict = count.verdict("result(s)", "no pipeline of the dashboard could run");
            }
            return r;
        },
        [](DashboardParams& params) {
            // An unknown name is a usage error before any work.
            selectDashboardPipelines(params.pipelines);
            Comparison<DashboardRun>& c = params.comparison;
            if (c.baselinePath && !params.list)
                c.baseline = readBaseline<DashboardRun>(*c.baselinePath, parseDashboardJson);
        });
    // --list reads no device: it answers on a machine without OpenCL too.
    p.hostOnly = [](const std::any& params) {
        return std::any_cast<const DashboardParams&>(params).list;
    };
    p.describeItem = [](const std::any& item) {
        const DashboardItem& i = std::any_cast<const DashboardItem&>(item);
        return i.device + ": " + describeDashboardResult(i.result);
    };
    return p;
}

} // namespace histlab
