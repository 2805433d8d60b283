#pragma once
// The per-device dashboard: every benchmarkable pipeline HistLab has, run on each chosen
// device, each result verified against its CPU reference and judged against a ceiling (the
// read-only or the copy kernel) measured on the same device in the same run.
//
// Its entries are the `dashboard` entries of the registered pipeline families
// (pipelines/registry.cpp), in the registry's order: the dashboard's command and tab enumerate
// them and never name one, so a new family's entries appear in both without editing either.
//
// Metric: each pipeline says which bytes it counts (DashboardResult::bytes; the pipeline's own
// metric, e.g. histogram: input bytes read; blur: bytes read + written) and which ceiling it is
// judged against; GB/s = bytes / median kernel time (event profiling, one warm-up, N timed runs).
#include "pipelines/bandwidth/bandwidth.h"
#include "pipelines/baseline.h"
#include "pipelines/dashboardentry.h"
#include "report/status.h"
#include "runtime/cancel.h"
#include "runtime/device.h"
#include "runtime/runner.h"
#include "runtime/timing.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace histlab {

/// Adds an entry after the registered families' (thread-safe); an entry of the same name is
/// replaced. For tests, which run fake entries through the real dashboard: HistLab's own entries
/// come from the families of pipelines/registry.cpp.
void registerDashboardPipeline(DashboardPipeline pipeline);

/// Every entry: the registered families' in the registry's order, then any a test added.
std::vector<DashboardPipeline> dashboardPipelines();

/// The pipelines named (all of them for an empty list), in the registry's order; throws
/// UsageError("--pipeline") naming an unknown one and listing the known ones.
std::vector<DashboardPipeline> selectDashboardPipelines(const std::vector<std::string>& names);

/// The input size a device runs at: options.bytes, or the experiments' default for its type
/// (defaultExperimentBytes: 256 MiB, 64 MiB on a CPU device), rounded down to 16 bytes, to its
/// largest buffer and to 2 GiB (the kernels' indices are 32-bit).
std::size_t dashboardBytes(const DeviceInfo& device, const DashboardOptions& options);

struct DashboardDevice {
    DeviceInfo info;
    std::size_t inputBytes = 0; ///< what its pipelines ran on (dashboardBytes)
    /// The device's read-only and copy ceilings over the whole run (AlternatingCeilings: each
    /// family timed before the first pipeline, its winner named; then after each timed run of
    /// a pipeline every member once, the fastest that round's ceiling; stats: the rounds,
    /// gbps: their median). Each row is judged against the
    /// runs of its own rounds (DashboardResult::ceilingStats). Empty (gbps 0) in files saved
    /// before they were kept, or when they could not be measured (ceilingError); in files saved
    /// before 2026-12-08 gbps is the fastest run.
    CeilingResult readCeiling, copyCeiling;
    std::string ceilingError;
};

/// A dashboard run: what was asked, the devices and every result.
struct DashboardRun {
    std::string date; ///< UTC, ISO 8601
    std::string note; ///< free text
    DashboardOptions options;
    std::vector<std::string> pipelines; ///< the names, in the order they run on each device
    std::vector<DashboardDevice> devices;
    std::vector<DashboardResult> results; ///< in the order they finished
};

/// The run before any result, for histlab-cli dashboard and the Dashboard tab: the date, the
/// devices (each once, in the order given, with its input size: dashboardBytes) and the
/// pipelines (all for an empty list). Throws UsageError("--pipeline") for an unknown pipeline,
/// UsageError("--device") for no device, UsageError("--repeat") for repeats below 1.
DashboardRun planDashboard(const std::vector<DeviceInfo>& devices,
                           const std::vector<std::string>& pipelines,
                           const DashboardOptions& options);

/// The same for devices given as indices into devices.infos(); UsageError("--device") for an
/// index out of range.
DashboardRun planDashboard(DeviceSet& devices, const std::vector<int>& deviceIndices,
                           const std::vector<std::string>& pipelines,
                           const DashboardOptions& options);

/// histlab-cli dashboard's parameters.
struct DashboardParams {
    std::vector<std::string> pipelines; ///< --pipeline NAMES; empty: all
    DashboardOptions options;           ///< --size, --repeat
    bool list = false;                  ///< --list: the entries, and nothing run
    Comparison<DashboardRun> comparison;
};

/// histlab-cli dashboard's plan: planDashboard (or a list: nothing runs), and what its report
/// compares it with.
struct DashboardJob {
    DashboardRun plan;
    bool list = false;
    Comparison<DashboardRun> comparison;
};

/// A finished dashboard (or a list) and the baseline its report compares it with.
struct DashboardResults {
    DashboardRun run;
    bool list = false;
    std::shared_ptr<const DashboardRun> baseline;
};

DashboardJob planDashboardJob(const std::vector<DeviceInfo>& devices,
                              const DashboardParams& params);

/// A result as it streams out of runDashboardJob, with the name of the device it ran on.
struct DashboardItem {
    std::string device;
    DashboardResult result;
};

/// histlab-cli dashboard's run and the Dashboard tab's: runDashboard with the job's progress;
/// each result goes to `onItem` as a DashboardItem. A list runs nothing.
DashboardResults runDashboardJob(JobContext& ctx, const std::vector<int>& devices,
                                 const DashboardJob& job, const ItemSink& onItem);

using DashboardResultFn = std::function<void(const DashboardResult&)>;
using DashboardProgressFn = std::function<void(double fraction, const std::string& what)>;

/// Runs every pipeline of `run` on every device of `run`, appending to run.results and calling
/// `onResult` as each result arrives (on the calling thread). One pipeline that fails is a
/// result, never a failed run; only cancellation throws (CancelledError). Each device's
/// ceilings are timed run for run with its pipelines (AlternatingCeilings as a TimingPartner):
/// after each timed run of a pipeline, one run of each ceiling, so that a busy machine slows
/// both alike. A result is judged by the median of the ceiling runs of its own rounds against
/// its own median, with the spread of the rounds' % as its noise (DashboardResult). The
/// read-only and copy rows are those ceilings themselves over every run (their GB/s the
/// median, the whiskers every run, 100 %), streamed with the runs so far and judged again
/// once the device is done (in run.results and run.devices).
void runDashboard(DeviceSet& devices, DashboardRun& run, const CancelToken& cancel = {},
                  const DashboardResultFn& onResult = {}, const DashboardProgressFn& progress = {});

/// The result of `baseline` to compare `result` (of `run`) with: the same pipeline on the device
/// of the same name; or, when the baseline has a single device, the same pipeline on it (one
/// machine against a reference device). nullptr when there is none.
const DashboardResult* findBaselineResult(const DashboardRun& baseline, const DashboardRun& run,
                                          const DashboardResult& result);

/// The run as JSON (devices with their properties and driver, date, options, every result), and
/// back, also from the files of older versions; parsing throws InputError naming `source` (the
/// file) and what is wrong.
std::string dashboardJson(const DashboardRun& run);
DashboardRun parseDashboardJson(const std::string& text,
                                const std::string& source = "the saved dashboard run");

/// One row per result (device, driver, pipeline, variant, bytes, timings, GB/s, ceiling, %,
/// status, reason); with a baseline, its GB/s and the ratio.
std::string dashboardCsv(const DashboardRun& run, const DashboardRun* baseline = nullptr);

/// The device's ceilings of the run as one indented line: "  ceilings, timed after each timed
/// run of a pipeline: read-only 19.9 GB/s (the median of 42 rounds, each the fastest of the
/// family; fastest 21.7, slowest 15.0; at the start KERNEL won), copy ...\n"; why they are missing
/// when they could not be measured; "" for a file saved before they were kept.
std::string dashboardCeilingsLine(const DashboardDevice& device);

/// A result's % of its ceiling, "74.4", or "74.4 ± 1.2" where it was timed run for run with its
/// ceiling (DashboardResult::noisePercent).
std::string dashboardPercentText(const DashboardResult& result);
/// One line for a result as it arrives: "histogram256: 0.31 GB/s, 6.6 % of read-only (4.70
/// GB/s), verified", "h2d-pinned: 11.2 GB/s, verified" or "scan: unsupported (why)".
std::string describeDashboardResult(const DashboardResult& result);

/// The report histlab-cli dashboard prints: a table per device, with the baseline's GB/s and the
/// ratio when there is a baseline.
std::string dashboardText(const DashboardRun& run, const DashboardRun* baseline = nullptr);

/// Every entry with what it measures, one a line (histlab-cli dashboard --list).
std::string dashboardListText();

} // namespace histlab
