#pragma once
// What a pipeline family gives the dashboard: entries that run it on one device and return
// results judged against a ceiling of the same run. Part of the pipeline contract
// (pipelines/pipeline.h), so that a family declares its entries without knowing the dashboard;
// the dashboard family (pipelines/dashboard/) runs them.
#include "report/ceiling.h"
#include "report/status.h"
#include "runtime/cancel.h"
#include "runtime/device.h"
#include "runtime/timing.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace histlab {

/// How a dashboard run is sized and timed.
struct DashboardOptions {
    /// Input size of each pipeline in bytes (rounded down to whole 16-byte vectors and to the
    /// device's largest buffer); 0: 256 MiB on a GPU, 64 MiB on a CPU device, as experiments.
    std::size_t bytes = 0;
    int repeats = 5; ///< timed runs after one warm-up
};

/// One measured pipeline on one device.
struct DashboardResult {
    int device = 0;            ///< index into DashboardRun::devices
    std::string pipeline;      ///< the registered name, e.g. "histogram256"
    std::string variant;       ///< what ran, e.g. "auto: cpu copies=4 ..." (empty if nothing ran)
    std::uint64_t bytes = 0;   ///< bytes counted for GB/s (the pipeline's metric)
    TimingStats stats;         ///< kernel milliseconds
    double gbps = 0;           ///< bytes / median
    std::string ceilingKind;   ///< "read-only" or "copy" (kernels/bandwidth.cl)
    double ceilingGbps = 0;    ///< that ceiling on the same device, in the same run
    std::string ceilingKernel; ///< the member of the ceiling's family that won
    /// The ceiling's runs this result is judged by: on the dashboard, those timed run for run
    /// with the result's own (its rounds), ceilingGbps their median; else empty.
    TimingStats ceilingStats;
    double percentOfCeiling = 0;
    /// How far one round's % strays: half the interquartile range of the % of each round (the
    /// pipeline's run against the ceiling run right after it). 0 when not timed run for run.
    double noisePercent = 0;
    /// verified, timed (the ceilings: nothing to verify), mismatch, unsupported, not
    /// applicable (a size the pipeline cannot take) or failed (report/status.h)
    Status status = Status::Failed;
    std::string reason; ///< why not verified: the mismatch, why unsupported, the error

    /// Verified or timed: gbps is a real figure.
    bool ran() const { return statusOk(status); }
    /// Judged against `ceiling`, the "read-only" or "copy" ceiling (`kind`) of the same run.
    void judgeAgainst(std::string kind, const CeilingResult& ceiling) {
        ceilingKind = std::move(kind);
        ceilingGbps = ceiling.gbps;
        ceilingKernel = ceiling.kernel;
    }
};

/// A measured point as a result: `variant` ran `bytes` in `stats` at `gbps`, against the
/// `ceilingKind` ceiling measured on the same device; `detail` is the reason unless it is
/// verified.
DashboardResult measuredResult(std::string variant, std::uint64_t bytes, const TimingStats& stats,
                               double gbps, std::string ceilingKind, const CeilingResult& ceiling,
                               Status status, const std::string& detail);

using DashboardFn = std::function<std::vector<DashboardResult>(Device&, const DashboardOptions&,
                                                               const CancelToken&)>;

/// A benchmarkable pipeline: its function runs it on one device at options.bytes (already
/// resolved for that device) and returns its results (one per variant it measures), each with
/// status, bytes, timings and ceiling filled in. It may throw: the run turns any error but
/// cancellation into one result of that pipeline (UnsupportedError and UsageError: unsupported;
/// others: failed).
struct DashboardPipeline {
    std::string name;        ///< short, unique, no commas: "histogram256", "blur3x3", ...
    std::string description; ///< one line: what runs and what is counted
    DashboardFn run;
};

} // namespace histlab
