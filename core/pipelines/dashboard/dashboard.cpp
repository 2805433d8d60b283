#include "pipelines/dashboard/dashboard.h"

#include "pipelines/experiments/experiment.h"
#include "pipelines/registry.h"
#include "report/files.h"
#include "runtime/bytesize.h"
#include "runtime/errors.h"
#include "runtime/log.h"

#include <algorithm>
#include <mutex>
#include <optional>

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

/// HistLab's own entries: every registered family's, in the registry's order; once, before the
/// entries are first read or a test adds one (so they come first).
void registerBuiltinDashboardPipelines() {
    for (const Pipeline& family : pipelines())
        for (const DashboardPipeline& entry : family.dashboard)
            registerDashboardPipeline(entry);
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
    // 32-bit indices in the kernels; one buffer holds the whole input. A size asked for is
    // refused beyond that, a default is fitted to it.
    std::size_t most = std::size_t(1) << 31;
    if (device.maxAllocBytes > 0)
        most = std::min<std::size_t>(most, device.maxAllocBytes);
    if (options.bytes > most)
        throw UsageError("--size", formatByteSize(options.bytes) + " is more than " + device.name +
                                       " takes in one buffer with 32-bit indices (" +
                                       formatByteSize(most) + ")");
    std::size_t bytes = options.bytes ? options.bytes : defaultExperimentBytes(device);
    bytes = std::min(bytes, most);
    return std::max<std::size_t>(16, bytes / 16 * 16);
}

DashboardRun planDashboard(const std::vector<DeviceInfo>& devices,
                           const std::vector<std::string>& pipelines,
                           const DashboardOptions& options) {
    if (options.repeats < 1)
        throw UsageError("--repeat", "must be at least 1");
    DashboardRun run;
    for (const DashboardPipeline& p : selectDashboardPipelines(pipelines))
        run.pipelines.push_back(p.name);
    if (devices.empty())
        throw UsageError("--device", "no device to run on");
    for (const DeviceInfo& device : devices)
        if (std::none_of(run.devices.begin(), run.devices.end(),
                         [&](const DashboardDevice& d) { return d.info.index == device.index; })) {
            DashboardDevice d;
            d.info = device;
            d.inputBytes = dashboardBytes(device, options);
            run.devices.push_back(std::move(d));
        }
    run.options = options;
    run.date = utcTimestamp();
    return run;
}

DashboardRun planDashboard(DeviceSet& devices, const std::vector<int>& deviceIndices,
                           const std::vector<std::string>& pipelines,
                           const DashboardOptions& options) {
    return planDashboard(devices.infosAt(deviceIndices), pipelines, options);
}

namespace {

/// The value at fraction q (0 ... 1) of sorted `v`, linearly between neighbours.
double quantile(const std::vector<double>& v, double q) {
    const double at = q * double(v.size() - 1);
    const std::size_t i = std::size_t(at);
    return i + 1 < v.size() ? v[i] + (at - double(i)) * (v[i + 1] - v[i]) : v[i];
}

/// `r`'s % of the ceiling it carries.
void percentOfOwnCeiling(DashboardResult& r) {
    r.percentOfCeiling = r.ran() && r.ceilingGbps > 0 ? 100.0 * r.gbps / r.ceilingGbps : 0.0;
}

/// Whether `r` is a ceiling's own row (the read-only or copy entry), which shows that ceiling.
bool isCeilingRow(const DashboardResult& r) {
    return r.pipeline == r.ceilingKind && r.status == Status::Timed;
}

/// The device's ceilings timed run for run with its pipelines (TimingPartner), and what a
/// result is judged by.
struct Yardstick {
    const AlternatingCeilings& ceilings;
    const TimingPartner& partner;

    /// The ceiling's runs in [first, end), those that ran (a winner-less ceiling has 0).
    std::vector<double> runs(bool copy, std::size_t first, std::size_t end) const {
        const std::vector<double>& all = ceilings.runs(copy);
        std::vector<double> out;
        for (std::size_t i = first; i < std::min(end, all.size()); ++i)
            if (all[i] > 0)
                out.push_back(all[i]);
        return out;
    }

    /// Judges `r` of the pipeline whose runs the partner made in [first, end): against the
    /// ceiling runs of its own timed call (found by its samples), else of the whole entry, else
    /// every ceiling run so far. A ceiling's own row becomes that ceiling over every run.
    void judge(DashboardResult& r, std::size_t first, std::size_t end) const {
        const bool copy = r.ceilingKind == "copy";
        if (!copy && r.ceilingKind != "read-only") // a host transfer: no device ceiling
            return;
        const CeilingResult& c = ceilings.ceiling(copy);
        r.judgeAgainst(r.ceilingKind, c);
        r.noisePercent = 0;
        std::vector<double> ceilingMs;
        const bool itself = isCeilingRow(r);
        const TimingPartner::Call* call = itself ? nullptr : partner.callOf(r.stats.samplesMs);
        if (call)
            ceilingMs =
                runs(copy, call->firstPartnerRun, call->firstPartnerRun + call->workMs.size());
        else if (!itself)
            ceilingMs = runs(copy, first, end);
        if (ceilingMs.empty())
            ceilingMs = pooled(copy).stats.samplesMs;
        r.ceilingStats = summarize(ceilingMs);
        r.ceilingGbps = gbPerSecond(c.bytes, r.ceilingStats.medianMs);
        if (itself) {
            r.variant = c.kernel;
            r.bytes = c.bytes;
            r.stats = r.ceilingStats;
            r.gbps = r.ceilingGbps;
            r.reason = "the ceiling: the median of " + std::to_string(ceilingMs.size()) +
                       " rounds, each the fastest of its family right after a timed run of a "
                       "pipeline";
        } else if (call && r.ran() && ceilingMs.size() == call->workMs.size()) {
            // Each round's %: the pipeline's run against the ceiling run right after it.
            std::vector<double> rounds;
            for (std::size_t i = 0; i < ceilingMs.size(); ++i)
                if (call->workMs[i] > 0)
                    rounds.push_back(100.0 * double(r.bytes) * ceilingMs[i] /
                                     (double(c.bytes) * call->workMs[i]));
            if (!rounds.empty()) {
                std::sort(rounds.begin(), rounds.end());
                r.noisePercent = (quantile(rounds, 0.75) - quantile(rounds, 0.25)) / 2;
            }
        }
        percentOfOwnCeiling(r);
    }

    /// The device's ceiling over every round so far (none yet: the start's runs of the
    /// winner), its GB/s their median.
    CeilingResult pooled(bool copy) const {
        CeilingResult c = ceilings.ceiling(copy);
        const std::vector<double> ms = runs(copy, 0, ceilings.runs(copy).size());
        c.stats = summarize(ms.empty() ? c.stats.samplesMs : ms);
        c.gbps = gbPerSecond(c.bytes, c.stats.medianMs);
        return c;
    }
};

} // namespace

void runDashboard(DeviceSet& devices, DashboardRun& run, const CancelToken& cancel,
                  const DashboardResultFn& onResult, const DashboardProgressFn& progress) {
    const std::vector<DashboardPipeline> pipelines = selectDashboardPipelines(run.pipelines);
    const double total = double(std::max<std::size_t>(1, run.devices.size() * pipelines.size()));
    std::size_t done = 0;
    for (std::size_t slot = 0; slot < run.devices.size(); ++slot) {
        DashboardDevice& dd = run.devices[slot];
        DashboardOptions options = run.options;
        options.bytes = dd.inputBytes;
        Device* device = nullptr;
        std::string openError;
        try {
            device = &devices.open(dd.info.index);
        } catch (const std::exception& e) {
            openError = e.what(); // every pipeline of this device fails with it
        }
        // The ceilings first (each family's winner named), then every member of both families
        // once after each timed run of a pipeline.
        std::optional<AlternatingCeilings> ceilings;
        if (device) {
            if (progress)
                progress(double(done) / total, dd.info.name + ": ceilings");
            try {
                ceilings.emplace(*device, dd.inputBytes, options.repeats, cancel);
            } catch (const CancelledError&) {
                throw;
            } catch (const std::exception& e) {
                dd.ceilingError = e.what(); // each row keeps the ceiling it measured itself
            }
        }
        std::optional<TimingPartner> partner;
        std::optional<Yardstick> yardstick;
        if (ceilings) {
            partner.emplace([&] { ceilings->runOnce(cancel); });
            yardstick.emplace(Yardstick{*ceilings, *partner});
        }
        std::vector<std::size_t> ceilingRows; // the device's ceiling rows, judged again at the end
        for (const DashboardPipeline& pipeline : pipelines) {
            cancel.throwIfCancelled();
            if (progress)
                progress(double(done) / total, dd.info.name + ": " + pipeline.name);
            const std::size_t first = partner ? partner->partnerRuns() : 0;
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
            const std::size_t end = partner ? partner->partnerRuns() : 0;
            for (DashboardResult& r : results) {
                r.device = int(slot);
                if (r.pipeline.empty())
                    r.pipeline = pipeline.name;
                if (yardstick)
                    yardstick->judge(r, first, end);
                else
                    percentOfOwnCeiling(r);
                if (isCeilingRow(r))
                    ceilingRows.push_back(run.results.size());
                if (!r.ran())
                    logInfo("dashboard", dd.info.name + " " + r.pipeline + ": " +
                                             statusName(r.status) + ": " + r.reason);
                run.results.push_back(r);
                if (onResult)
                    onResult(r);
            }
            ++done;
        }
        if (yardstick) { // the ceilings over every run of the device
            dd.readCeiling = yardstick->pooled(false);
            dd.copyCeiling = yardstick->pooled(true);
            for (std::size_t i : ceilingRows)
                yardstick->judge(run.results[i], 0, 0);
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

} // namespace histlab
