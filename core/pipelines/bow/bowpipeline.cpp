// Bag-of-visual-words as the front ends see it: histlab-cli bow bench (synthetic descriptors and
// codebook, every assignment kernel side by side, each verified label by label).
// Metric: descriptors assigned (and counted) a second, and GFLOP/s = the operations the kernel
// does (3 * K * DIM a descriptor for the distance: a subtraction, a multiplication and an
// addition per feature and centroid; 2 * K * DIM for the norm form's multiply-add) over the
// median kernel time (the launch and the clearing of the histogram).
#include "pipelines/bow/bow.h"
#include "pipelines/bow/collection.h"
#include "pipelines/largebin/largebin.h"
#include "pipelines/options.h"
#include "pipelines/pipeline.h"
#include "report/files.h"
#include "report/json.h"
#include "report/table.h"
#include "report/text.h"
#include "runtime/errors.h"
#include "runtime/timing.h"

#include <chrono>

#include <sstream>

namespace histlab {

namespace {

/// Descriptors a second with every label exact: the median kernel time plus the decisions',
/// on the device's clock (`wall` false, where they were made there) or the host's wall clock.
double exactDescriptorsPerSecond(const BowBenchResult& r, const BowRun& run, bool wall) {
    const double decisions =
        !wall && run.resolvedOn == "device" ? run.resolveDeviceMs : run.resolveMs;
    return double(r.params.count) / ((run.stats.medianMs + decisions) * 1e-3);
}

Table bowTable(const BowBenchResult& r) {
    Table table({"kernel", "descriptors", "k", "dim", "geometry", "median_ms", "min_ms",
                 "descriptors_per_s", "gflops", "percent_of_fp32_peak", "ambiguous", "resolve_ms",
                 "resolve_device_ms", "status", "detail"});
    for (const BowRun& run : r.runs)
        table.row()
            .add(bowKernelName(run.kernel))
            .add(std::uint64_t(r.params.count))
            .add(std::uint64_t(r.params.k))
            .add(std::uint64_t(r.params.dim))
            .add(run.geometry.describe())
            .add(run.stats.medianMs)
            .add(run.stats.minMs)
            .add(run.descriptorsPerSecond)
            .add(run.gflops)
            .add(r.percentOfPeak(run))
            .add(std::uint64_t(run.ambiguous))
            .add(run.resolveMs)
            .add(run.resolveDeviceMs)
            .add(statusName(run.status))
            .add(run.detail);
    return table;
}

std::string bowText(const BowBenchResult& r) {
    std::ostringstream out;
    out << "bow bench: " << r.params.count << " synthetic descriptors of " << r.params.dim
        << " floats, codebook of " << r.params.k << " centroids (seed " << r.params.seed << ")\n"
        << deviceLine(r.device) << '\n';
    out << "FP32 peak (independent multiply-add chains, as clpeak): "
        << (r.peak.gflops > 0 ? fixedText(r.peak.gflops, 1) + " GFLOP/s (" + r.peak.variant + ")"
                              : "not measured (" + r.peak.detail + ")")
        << '\n';
    using A = TextTable::Align;
    TextTable table({{"kernel", A::Left},
                     {"median ms"},
                     {"M desc/s"},
                     {"GFLOP/s"},
                     {"% peak"},
                     {"ambiguous"},
                     {"resolve ms"},
                     {"on device"},
                     {"geometry", A::Left},
                     {"status", A::Left}});
    for (const BowRun& run : r.runs) {
        const bool ran = statusRan(run.status);
        table.add({bowKernelName(run.kernel), ran ? fixedText(run.stats.medianMs, 4) : "-",
                   ran ? fixedText(run.descriptorsPerSecond / 1e6, 2) : "-",
                   ran ? fixedText(run.gflops, 1) : "-",
                   ran && r.peak.gflops > 0 ? fixedText(r.percentOfPeak(run), 1) : "-",
                   ran ? std::to_string(run.ambiguous) : "-",
                   ran ? fixedText(run.resolveMs, 2) : "-",
                   ran && run.resolvedOn == "device" ? fixedText(run.resolveDeviceMs, 2) : "-",
                   run.geometry.describe(), statusText(run.status, run.detail)});
    }
    out << table.text();
    if (const int b = r.best(); b >= 0) {
        const BowRun& run = r.runs[std::size_t(b)];
        // With the double-precision decisions counted: every label exact. Their device time
        // is profiled as the kernel's is; the wall clock adds the host's launches and the
        // read of the count.
        const double exactPerSecond = exactDescriptorsPerSecond(r, run, false);
        const double wallPerSecond = exactDescriptorsPerSecond(r, run, true);
        out << "best: " << bowKernelName(run.kernel) << ", "
            << fixedText(run.descriptorsPerSecond / 1e6, 2) << " M descriptors/s, "
            << fixedText(run.gflops, 1) << " GFLOP/s; with its double-precision decisions "
            << fixedText(exactPerSecond / 1e6, 2) << " M descriptors/s (every label exact";
        if (wallPerSecond != exactPerSecond)
            out << "; " << fixedText(wallPerSecond / 1e6, 2) << " with the decisions' wall clock";
        out << ")\n";
        if (r.peer.ran)
            out << "cv::BFMatcher(NORM_L2)::match on the host's CPU: "
                << fixedText(r.peer.descriptorsPerSecond / 1e6, 3) << " M descriptors/s ("
                << fixedText(r.peer.ms, 1) << " ms, " << r.peer.disagreements
                << " labels differ from the exact ones); " << bowKernelName(run.kernel) << " is "
                << fixedText(run.descriptorsPerSecond / r.peer.descriptorsPerSecond, 2)
                << " x faster (kernel time), "
                << fixedText(exactPerSecond / r.peer.descriptorsPerSecond, 2)
                << " x with its double-precision decisions\n";
    }
    if (r.params.compareOpenCv && !r.peer.ran)
        out << "cv::BFMatcher: " << r.peer.detail << '\n';
    return out.str();
}

std::string bowJson(const BowBenchResult& r) {
    Json runs = Json::array();
    for (const BowRun& run : r.runs)
        runs.push_back({{"kernel", bowKernelName(run.kernel)},
                        {"geometry", run.geometry.describe()},
                        {"build_options", run.buildOptions},
                        {"status", statusName(run.status)},
                        {"detail", run.detail},
                        {"timing", timingJson(run.stats)},
                        {"descriptors_per_s", run.descriptorsPerSecond},
                        {"gflops", run.gflops},
                        {"percent_of_fp32_peak", r.percentOfPeak(run)},
                        {"ambiguous", run.ambiguous},
                        {"resolve_ms", run.resolveMs},
                        {"resolve_device_ms", run.resolveDeviceMs},
                        {"resolved_on", run.resolvedOn}});
    const int best = r.best();
    return jsonText(
        {{"tool", "histlab-cli bow bench"},
         {"date", utcTimestamp()},
         {"metric", "descriptors a second and GFLOP/s (3 K DIM a descriptor, 2 K DIM for "
                    "tiled-norm and block-norm) over the median kernel time"},
         {"device", deviceJson(r.device)},
         {"descriptors", r.params.count},
         {"k", r.params.k},
         {"dim", r.params.dim},
         {"seed", r.params.seed},
         {"best", best < 0 ? Json() : Json(bowKernelName(r.runs[std::size_t(best)].kernel))},
         {"fp32_peak",
          {{"gflops", r.peak.gflops},
           {"timing", timingJson(r.peak.stats)},
           {"variant", r.peak.variant},
           {"detail", r.peak.detail}}},
         {"opencv_bfmatcher", r.params.compareOpenCv
                                  ? Json{{"ran", r.peer.ran},
                                         {"ms", r.peer.ms},
                                         {"descriptors_per_s", r.peer.descriptorsPerSecond},
                                         {"disagreements", r.peer.disagreements},
                                         {"detail", r.peer.detail}}
                                  : Json()},
         {"runs", std::move(runs)}});
}

/// Parameters that are wrong on every device.
void checkBowParams(const BowBenchParams& p) {
    if (p.kernels.empty())
        throw UsageError("--kernel", "no kernel to run: choose at least one");
}

} // namespace

BowBenchPlan planBowBench(const DeviceInfo& device, const BowBenchParams& params) {
    BowBenchPlan plan;
    plan.params = params;
    if (plan.params.count == 0)
        plan.params.count = device.type == DeviceType::Cpu ? 262144 : 2097152;
    // The descriptors are made on the host, copied into a device layout and uploaded:
    // refused here, before any of it is allocated, where they cannot fit.
    const std::size_t rowBytes = plan.params.dim * sizeof(float);
    checkSyntheticBytes(device, plan.params.count * rowBytes, 3, "--count");
    checkSyntheticBytes(device, plan.params.k * rowBytes, 2, "--k");
    return plan;
}

BowBenchResult runBowBenchJob(JobContext& ctx, Device& device, const BowBenchPlan& plan,
                              const ItemSink& onItem) {
    BowBenchResult result;
    result.device = device.info();
    result.params = plan.params;
    const BowBenchParams& s = plan.params;
    ctx.progress(0.0, "synthetic descriptors and the CPU reference");
    const Descriptors d = makeSyntheticDescriptors(s.count, s.dim, s.seed);
    const Codebook c = makeSyntheticCodebook(s.k, s.dim, s.seed + 1);
    const Assignment reference = assignReference(d, c);
    ctx.progress(0.0, "FP32 peak");
    result.peak = measureFp32Peak(device, s.repeats, ctx.cancelToken());
    if (s.compareOpenCv) {
        if (!bowOpenCv().bfMatch) {
            result.peer.detail = "this build has no OpenCV";
        } else {
            ctx.progress(0.0, "cv::BFMatcher");
            const auto start = std::chrono::steady_clock::now();
            const std::vector<std::uint32_t> labels = bowOpenCv().bfMatch(d, c);
            result.peer.ms = msSince(start);
            result.peer.ran = true;
            result.peer.descriptorsPerSecond =
                result.peer.ms > 0 ? double(s.count) / (result.peer.ms * 1e-3) : 0.0;
            for (std::size_t i = 0; i < labels.size(); ++i)
                result.peer.disagreements += labels[i] != reference.labels[i];
        }
    }
    for (std::size_t i = 0; i < s.kernels.size(); ++i) {
        ctx.cancelToken().throwIfCancelled();
        result.runs.push_back(
            runBowKernel(device, d, c, s.kernels[i], reference, s.repeats, ctx.cancelToken()));
        if (onItem)
            onItem(result.runs.back());
        ctx.progress(double(i + 1) / double(s.kernels.size()), bowKernelName(s.kernels[i]));
    }
    return result;
}

Pipeline bowBenchPipeline() {
    Pipeline p;
    p.name = "bow bench";
    p.summary = "bag-of-visual-words assignment: each descriptor to its nearest centroid and the "
                "histogram of the assignments, the reference text's kernels GPU1-GPU5 and "
                "HistLab's tiled ones side by side on synthetic descriptors, each verified label "
                "by label";
    p.description =
        "Assigns COUNT synthetic descriptors of DIM floats (clustered around 64 centres, as "
        "local features gather around patterns) to the nearest of K centroids (squared Euclidean "
        "distance, ties to the lowest index) and counts the assignments, with each kernel: gpu1 "
        "(a work-item per descriptor, descriptor-major reads), gpu2 (feature-major: coalesced), "
        "gpu3 (float4 arithmetic), gpu4 (the work-group's descriptors staged in local memory), "
        "gpu5 (and the centroids in constant memory, where they fit), tiled (HistLab's: "
        "descriptors in registers, centroids through local memory a tile at a time, a local "
        "histogram), tiled-norm (the same, ranking by ||c||^2 - 2 x.c: one multiply-add a "
        "feature), block-norm (the norm form as a register-blocked matrix product: a work-item "
        "keeps 8 x 8 dot products, the work-group's descriptors in local memory). Labels the float "
        "arithmetic cannot call (the best and second-best within its "
        "rounding bound) are marked by the kernel and recomputed in double precision, so every "
        "label is exact. M desc/s = descriptors / median kernel time; GFLOP/s = the operations "
        "the kernel does (3 K DIM a descriptor for the distance, 2 K DIM for the norm form) / "
        "median time. A kernel the device cannot run is reported unsupported with the reason.";
    p.reference = "assignReference: squared distances in double precision, feature by feature, "
                  "the first nearest centroid wins; every label and every bin is compared";
    using P = BowBenchParams;
    p.options = {
        flagOption<P>("--synthetic",
                      "synthetic descriptors and codebook (repeatable with --seed): the source "
                      "bench runs on",
                      [](P&) {}),
        valueOption<P>(
            "--count", "N", "descriptors (default 262,144 on a CPU device, 2,097,152 elsewhere)",
            [](P& s, const std::string& v) {
                s.count = std::size_t(parseWholeNumber("--count", v, 1, (1ll << 31) - 1));
            }),
        valueOption<P>("--k", "K", "centroids in the codebook (default 1,024)",
                       [](P& s, const std::string& v) {
                           s.k = std::size_t(parseWholeNumber("--k", v, 1, 1 << 20));
                       }),
        valueOption<P>("--dim", "D",
                       "floats a descriptor, 1 to 256 (default 64; the float4 kernels need a "
                       "multiple of 4)",
                       [](P& s, const std::string& v) {
                           s.dim =
                               std::size_t(parseWholeNumber("--dim", v, 1, (long long)kBowMaxDim));
                       }),
        valueOption<P>("--seed", "S", "seed of the synthetic data (default 1)",
                       [](P& s, const std::string& v) {
                           s.seed = std::uint64_t(parseWholeNumber("--seed", v, 0, 1ll << 62));
                       }),
        valueOption<P>("--kernel", "V|all",
                       "gpu1 | gpu2 | gpu3 | gpu4 | gpu5 | tiled | tiled-norm | block-norm | all "
                       "(default), or a "
                       "comma list",
                       [](P& s, const std::string& v) {
                           s.kernels = parseNameList<BowKernel>(v, allBowKernels, parseBowKernel);
                       }),
        repeatOption<P>(&P::repeats, "timed runs after a warm-up (default 5): median and min"),
        flagOption<P>("--compare-opencv",
                      "also time cv::BFMatcher(NORM_L2)::match on the same descriptors and "
                      "codebook on the host's CPU (one run), and count its labels that differ "
                      "from the exact ones",
                      [](P& s) { s.compareOpenCv = true; }),
    };
    p.csvHelp = "one row per kernel (kernel, descriptors, k, dim, geometry, timings, descriptors "
                "a second, GFLOP/s, ambiguous labels resolved and the host's milliseconds for "
                "them, status, detail)";
    p.jsonHelp = "the whole run: device, sizes, every kernel with its timings";
    bindDevicePipeline<BowBenchParams, BowBenchPlan, BowBenchResult>(
        p, planBowBench, runBowBenchJob,
        [](const BowBenchResult& result) {
            Report r;
            r.text = bowText(result);
            r.table = bowTable(result);
            r.csv = [&result] { return bowTable(result).csv(); };
            r.json = [&result] { return bowJson(result); };
            r.verdict = countStatuses(result.runs)
                            .verdict("kernel(s)",
                                     "no assignment kernel could run on " + result.device.name);
            return r;
        },
        [](BowBenchParams& params) { checkBowParams(params); });
    p.describeItem = [](const std::any& item) {
        const BowRun& run = std::any_cast<const BowRun&>(item);
        return std::string(bowKernelName(run.kernel)) + ": " + statusName(run.status);
    };
    return p;
}

} // namespace histlab
