#include "pipelines/dashboard/dashboard.h"

#include "pipelines/registry.h"
#include "report/report.h"
#include "runtime/errors.h"
#include "runtime/log.h"

#include <algorithm>
#include <iomanip>
#include <mutex>
#include <sstream>

namespace histlab {

namespace {

struct Registry {
    std::mutex mutex;
    std::vector<DashboardPipeline> pipelines;
};

Registry& registry() {
    static Registry r;
    return r;
}

/// The dashboard entries of a registered pipeline family (pipelines/registry.cpp).
void registerFamilyDashboardPipelines(const std::string& family) {
    if (const Pipeline* p = findPipeline(family))
        for (const DashboardPipeline& entry : p->dashboard)
            registerDashboardPipeline(entry);
}

/// The one place the built-in pipelines are registered, once, before the registry is first read
/// or added to (so they come first).
void registerBuiltinDashboardPipelines() {
    registerBandwidthDashboardPipelines();
    registerHistogramDashboardPipelines();
    registerBlurDashboardPipelines();
    registerFamilyDashboardPipelines("scan");
    registerEqualizeDashboardPipelines();
    registerFamilyDashboardPipelines("reverse");
    registerFamilyDashboardPipelines("transfer");
}

void ensureBuiltins() {
    static std::once_flag once;
    static thread_local bool registering = false; // the built-ins' own registrations
    if (registering)
        return;
    std::call_once(once, [] {
        registering = true;
        registerBuiltinDashboardPipelines();
        registering = false;
    });
}

std::string knownNames(const std::vector<DashboardPipeline>& pipelines) {
    std::string names;
    for (const DashboardPipeline& p : pipelines)
        names += (names.empty() ? "" : ", ") + p.name;
    return names;
}

/// One result standing for a pipeline that threw (report/status.h's rowErrorOf: unsupported,
/// not applicable or failed); cancellation is rethrown.
DashboardResult resultOfError(const std::string& pipeline) {
    DashboardResult r;
    r.pipeline = pipeline;
    const RowError error = rowErrorOf(std::current_exception());
    r.status = error.status;
    r.reason = error.detail;
    return r;
}

} // namespace

void registerDashboardPipeline(DashboardPipeline pipeline) {
    ensureBuiltins();
    Registry& r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    for (DashboardPipeline& p : r.pipelines)
        if (p.name == pipeline.name) {
            p = std::move(pipeline);
            return;
        }
    r.pipelines.push_back(std::move(pipeline));
}

std::vector<DashboardPipeline> dashboardPipelines() {
    ensureBuiltins();
    Registry& r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    return r.pipelines;
}

std::vector<DashboardPipeline> selectDashboardPipelines(const std::vector<std::string>& names) {
    const std::vector<DashboardPipeline> all = dashboardPipelines();
    if (names.empty())
        return all;
    for (const std::string& name : names)
        if (std::none_of(all.begin(), all.end(),
                         [&](const DashboardPipeline& p) { return p.name == name; }))
            throw UsageError("--pipeline",
                             "unknown pipeline '" + name + "' (" + knownNames(all) + ")");
    std::vector<DashboardPipeline> chosen;
    for (const DashboardPipeline& p : all)
        if (std::find(names.begin(), names.end(), p.name) != names.end())
            chosen.push_back(p);
    return chosen;
}

std::size_t dashboardBytes(const DeviceInfo& device, const DashboardOptions& options) {
    std::size_t bytes = options.bytes;
    if (bytes == 0)
        bytes = (device.type == DeviceType::Cpu ? std::size_t(64) : std::size_t(256)) << 20;
    // 32-bit indices in the kernels; one buffer holds the whole input.
    bytes = std::min<std::size_t>(bytes, std::size_t(1) << 31);
    if (device.maxAllocBytes > 0)
        bytes = std::min<std::size_t>(bytes, device.maxAllocBytes);
    return std::max<std::size_t>(16, bytes / 16 * 16);
}

DashboardRun planDashboard(DeviceSet& devices, const std::vector<int>& deviceIndices,
                           const std::vector<std::string>& pipelines,
                           const DashboardOptions& options) {
    if (options.repeats < 1)
        throw UsageError("--repeat", "must be at least 1");
    DashboardRun run;
    for (const DashboardPipeline& p : selectDashboardPipelines(pipelines))
        run.pipelines.push_back(p.name);
    if (deviceIndices.empty())
        throw UsageError("--device", "no device to run on");
    const std::vector<DeviceInfo>& infos = devices.infos();
    for (int index : deviceIndices) {
        if (index < 0 || std::size_t(index) >= infos.size())
            throw UsageError("--device", "index " + std::to_string(index) + " is out of range");
        if (std::any_of(run.devices.begin(), run.devices.end(),
                        [&](const DashboardDevice& d) { return d.info.index == index; }))
            continue;
        run.devices.push_back(
            {infos[std::size_t(index)], dashboardBytes(infos[std::size_t(index)], options)});
    }
    run.options = options;
    run.date = utcTimestamp();
    return run;
}

void runDashboard(DeviceSet& devices, DashboardRun& run, const CancelToken& cancel,
                  const DashboardResultFn& onResult, const DashboardProgressFn& progress) {
    const std::vector<DashboardPipeline> pipelines = selectDashboardPipelines(run.pipelines);
    const double total = double(std::max<std::size_t>(1, run.devices.size() * pipelines.size()));
    std::size_t done = 0;
    for (std::size_t slot = 0; slot < run.devices.size(); ++slot) {
        const DashboardDevice& dd = run.devices[slot];
        DashboardOptions options = run.options;
        options.bytes = dd.inputBytes;
        Device* device = nullptr;
        std::string openError;
        try {
            device = &devices.open(dd.info.index);
        } catch (const std::exception& e) {
            openError = e.what(); // every pipeline of this device fails with it
        }
        for (const DashboardPipeline& pipeline : pipelines) {
            cancel.throwIfCancelled();
            if (progress)
                progress(double(done) / total, dd.info.name + ": " + pipeline.name);
            std::vector<DashboardResult> results;
            if (!device) {
                DashboardResult r;
                r.status = Status::Failed;
                r.reason = openError;
                results.push_back(r);
            } else {
                try {
                    results = pipeline.run(*device, options, cancel);
                } catch (...) {
                    results = {resultOfError(pipeline.name)};
                }
            }
            if (results.empty()) {
                DashboardResult r;
                r.status = Status::Failed;
                r.reason = "the pipeline returned no result";
                results.push_back(r);
            }
            for (DashboardResult& r : results) {
                r.device = int(slot);
                if (r.pipeline.empty())
                    r.pipeline = pipeline.name;
                r.percentOfCeiling =
                    r.ran() && r.ceilingGbps > 0 ? 100.0 * r.gbps / r.ceilingGbps : 0.0;
                if (!r.ran())
                    logInfo("dashboard", dd.info.name + " " + r.pipeline + ": " +
                                             statusName(r.status) + ": " + r.reason);
                run.results.push_back(r);
                if (onResult)
                    onResult(r);
            }
            ++done;
        }
    }
    if (progress)
        progress(1.0, "done");
}

const DashboardResult* findBaselineResult(const DashboardRun& baseline, const DashboardRun& run,
                                          const DashboardResult& result) {
    if (result.device < 0 || std::size_t(result.device) >= run.devices.size())
        return nullptr;
    const std::string& name = run.devices[std::size_t(result.device)].info.name;
    const DashboardResult* single = nullptr;
    for (const DashboardResult& b : baseline.results) {
        if (b.pipeline != result.pipeline)
            continue;
        if (b.device >= 0 && std::size_t(b.device) < baseline.devices.size() &&
            baseline.devices[std::size_t(b.device)].info.name == name)
            return &b;
        if (baseline.devices.size() == 1 && !single)
            single = &b;
    }
    return single;
}

// ---------------------------------------------------------------------------------------------
// Files.

std::string dashboardJson(const DashboardRun& run) {
    JsonValue::Array pipelines, devices, results;
    for (const std::string& p : run.pipelines)
        pipelines.emplace_back(p);
    // Objects filled key by key: GCC 12 at -O2 warns (maybe-uninitialized, a false positive)
    // on these initializer lists of JsonValues inside a loop.
    for (const DashboardDevice& d : run.devices) {
        JsonValue::Object o;
        o.emplace("device", deviceInfoJson(d.info));
        o.emplace("input_bytes", std::uint64_t(d.inputBytes));
        devices.emplace_back(std::move(o));
    }
    for (const DashboardResult& r : run.results) {
        JsonValue::Object o;
        o.emplace("device", r.device);
        o.emplace("pipeline", r.pipeline);
        o.emplace("variant", r.variant);
        o.emplace("bytes", r.bytes);
        o.emplace("timing", timingStatsJson(r.stats));
        o.emplace("gbps", r.gbps);
        o.emplace("ceiling", r.ceilingKind);
        o.emplace("ceiling_gbps", r.ceilingGbps);
        o.emplace("percent_of_ceiling", r.percentOfCeiling);
        o.emplace("status", statusName(r.status));
        o.emplace("reason", r.reason);
        results.emplace_back(std::move(o));
    }
    const JsonValue doc = JsonValue::Object{{"histlab_dashboard", 1},
                                            {"date", run.date},
                                            {"note", run.note},
                                            {"bytes", std::uint64_t(run.options.bytes)},
                                            {"repeats", run.options.repeats},
                                            {"pipelines", pipelines},
                                            {"devices", devices},
                                            {"results", results}};
    return doc.dump() + "\n";
}

DashboardRun parseDashboardJson(const std::string& text) {
    const JsonValue doc = parseJson(text);
    if (!doc.isObject() || !doc.find("histlab_dashboard"))
        throw InputError("not a HistLab dashboard file (no \"histlab_dashboard\")");
    DashboardRun run;
    run.date = doc.at("date").asString();
    if (const JsonValue* note = doc.find("note"))
        run.note = note->asString();
    run.options.bytes = std::size_t(doc.at("bytes").asNumber());
    run.options.repeats = int(doc.at("repeats").asNumber());
    for (const JsonValue& p : doc.at("pipelines").asArray())
        run.pipelines.push_back(p.asString());
    for (const JsonValue& d : doc.at("devices").asArray())
        run.devices.push_back(
            {parseDeviceInfoJson(d.at("device")), std::size_t(d.at("input_bytes").asNumber())});
    for (const JsonValue& v : doc.at("results").asArray()) {
        DashboardResult r;
        r.device = int(v.at("device").asNumber());
        if (r.device < 0 || std::size_t(r.device) >= run.devices.size())
            throw InputError("a result names device " + std::to_string(r.device) +
                             ", which the file does not list");
        r.pipeline = v.at("pipeline").asString();
        r.variant = v.at("variant").asString();
        r.bytes = std::uint64_t(v.at("bytes").asNumber());
        r.stats = parseTimingStatsJson(v.at("timing"));
        r.gbps = v.at("gbps").asNumber();
        r.ceilingKind = v.at("ceiling").asString();
        r.ceilingGbps = v.at("ceiling_gbps").asNumber();
        r.percentOfCeiling = v.at("percent_of_ceiling").asNumber();
        r.status = parseStatus(v.at("status").asString());
        r.reason = v.at("reason").asString();
        run.results.push_back(r);
    }
    return run;
}

std::string dashboardCsv(const DashboardRun& run, const DashboardRun* baseline) {
    std::ostringstream out;
    out << std::setprecision(6);
    out << "date,device,driver,pipeline,variant,input_bytes,bytes,median_ms,min_ms,max_ms,runs,"
           "gbps,ceiling,ceiling_gbps,percent_of_ceiling,status,reason";
    if (baseline)
        out << ",baseline_device,baseline_gbps,ratio_to_baseline";
    out << '\n';
    for (const DashboardResult& r : run.results) {
        const DashboardDevice& d = run.devices.at(std::size_t(r.device));
        out << run.date << ',' << csvField(d.info.name) << ',' << csvField(d.info.driverVersion)
            << ',' << csvField(r.pipeline) << ',' << csvField(r.variant) << ',' << d.inputBytes
            << ',' << r.bytes << ',' << r.stats.medianMs << ',' << r.stats.minMs << ','
            << r.stats.maxMs << ',' << r.stats.samplesMs.size() << ',' << r.gbps << ','
            << r.ceilingKind << ',' << r.ceilingGbps << ',' << r.percentOfCeiling << ','
            << statusName(r.status) << ',' << csvField(r.reason);
        if (baseline) {
            const DashboardResult* b = findBaselineResult(*baseline, run, r);
            if (b && b->ran() && r.ran() && b->gbps > 0)
                out << ',' << csvField(baseline->devices[std::size_t(b->device)].info.name) << ','
                    << b->gbps << ',' << r.gbps / b->gbps;
            else
                out << ",,,";
        }
        out << '\n';
    }
    return out.str();
}

} // namespace histlab
