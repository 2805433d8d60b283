// The scan family as the front ends see it: histlab-cli scan's options, the plan both the CLI
// and the Scans tab run, the report (text, CSV, JSON), and the dashboard's "scan".
// Metric (scan.h): GB/s = (4 bytes read + 4 bytes written) x values / median kernel time,
// judged against the copy kernel of the same buffer in the same run.
#include "pipelines/options.h"
#include "pipelines/pipeline.h"
#include "pipelines/scan/scan.h"
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

Table scanTable(const ScanRun& run) {
    Table table({"variant", "wg", "elements", "inclusive", "median_ms", "min_ms", "gbps",
                 "percent_of_copy", "status", "detail", "vpt", "warp"});
    for (const ScanPoint& p : run.points)
        table.row()
            .add(scanVariantName(p.variant))
            .add(p.workGroupSize)
            .add(p.elements)
            .add(p.inclusive ? 1 : 0)
            .add(p.stats.medianMs)
            .add(p.stats.minMs)
            .add(p.gbps)
            .add(p.percentOfCopy)
            .add(statusName(p.status))
            .add(p.detail)
            .add(p.vectorsPerItem)
            .add(p.warp ? 1 : 0);
    return table;
}

} // namespace

ScanRequest planScan(const DeviceInfo& device, const ScanParams& params) {
    if (params.sizeMiB && params.count)
        throw UsageError("scan", "give the size with either --size MIB or --count N, not both");
    if (params.variants.empty())
        throw UsageError("--variant", "no variant to run: choose at least one");
    ScanRequest r;
    r.variants = params.variants;
    r.distribution = params.distribution;
    r.inclusive = params.inclusive;
    r.repeats = params.repeats;
    const double mib = params.sizeMiB ? *params.sizeMiB : device.type == DeviceType::Cpu ? 16 : 64;
    r.elements = params.count ? *params.count : std::size_t(std::llround(mib * 262144.0));
    if (!params.count && r.elements > kScanMaxElements) // --count's own check names --count
        throw UsageError("--size", numberText(mib) + " MiB are " + std::to_string(r.elements) +
                                       " values, more than a scan takes (" +
                                       std::to_string(kScanMaxElements) + ", 8 GiB)");
    // The values, the device's result and the CPU reference, 4 bytes each, on the host; on a
    // CPU device its input, output and copy buffers live there too (PoCL measured 21 bytes a
    // value at 50 M values).
    checkRunMemory(params.count ? "--count" : "--size", std::to_string(r.elements) + " values",
                   (device.type == DeviceType::Cpu ? 24.0 : 12.0) * double(r.elements));
    const bool segmented = std::any_of(r.variants.begin(), r.variants.end(), isSegmentedScan);
    if (params.allWorkGroupSizes) {
        for (std::size_t wg : scanWorkGroupSizes(device))
            if (wg >= params.minWorkGroupSize &&
                (params.maxWorkGroupSize == 0 || wg <= params.maxWorkGroupSize))
                r.workGroupSizes.push_back(wg);
        if (segmented && r.workGroupSizes.empty())
            throw UsageError("--wg", "no work-group size from " +
                                         std::to_string(params.minWorkGroupSize) + " to " +
                                         std::to_string(params.maxWorkGroupSize) + " on " +
                                         device.name + " (16 to " +
                                         std::to_string(device.maxWorkGroupSize) + ")");
    } else {
        for (std::size_t wg : params.workGroupSizes)
            checkScanWorkGroupSize(device, wg);
        r.workGroupSizes = params.workGroupSizes;
        r.wholeWorkGroupSize = params.workGroupSizes.empty() ? 0 : params.workGroupSizes.front();
    }
    const std::size_t vpt = params.vectorsPerItem;
    if (vpt)
        checkScanVectorsPerItem(vpt);
    if (vpt && std::all_of(r.variants.begin(), r.variants.end(), isSegmentedScan))
        throw UsageError("--vpt", "sets the whole-array scans' tiles (reduce-then-scan, "
                                  "lookback, auto); the per-segment variants have none");
    r.wholeVectorsPerItem = vpt;
    if (params.warp >= 0 && std::all_of(r.variants.begin(), r.variants.end(), isSegmentedScan))
        throw UsageError("--warp", "sets the whole-array scans' kernels (reduce-then-scan, "
                                   "lookback, auto); the per-segment variants have none");
    checkScanWarpWorkGroup(params.warp, r.wholeWorkGroupSize);
    r.wholeWarp = params.warp;
    return r;
}

std::size_t scanPointCount(const ScanRequest& request) {
    std::size_t n = 0;
    for (ScanVariant v : request.variants)
        n += isSegmentedScan(v) ? std::max<std::size_t>(1, request.workGroupSizes.size()) : 1;
    return n;
}

std::string scanCsv(const ScanRun& run) {
    return scanTable(run).csv();
}

std::string scanJson(const ScanRun& run) {
    Json points = Json::array();
    for (const ScanPoint& p : run.points)
        points.push_back({{"variant", scanVariantName(p.variant)},
                          {"wg", p.workGroupSize},
                          {"vpt", p.vectorsPerItem},
                          {"warp", p.warp},
                          {"elements", p.elements},
                          {"inclusive", p.inclusive},
                          {"build_options", p.buildOptions},
                          {"status", statusName(p.status)},
                          {"detail", p.detail},
                          {"timing", timingJson(p.stats)},
                          {"gbps", p.gbps},
                          {"percent_of_copy", p.percentOfCopy}});
    return jsonText({{"tool", "histlab-cli scan"},
                     {"date", utcTimestamp()},
                     {"metric", "GB/s = (4 bytes read + 4 bytes written) x elements / median "
                                "kernel time"},
                     {"device", deviceJson(run.device)},
                     {"elements", run.elements},
                     {"segment", kScanSegment},
                     {"distribution", scanDistributionName(run.distribution)},
                     {"copy", ceilingJson(run.copy)},
                     {"points", std::move(points)}});
}

std::string scanText(const ScanRun& run, bool inclusive) {
    const DeviceInfo& d = run.device;
    std::ostringstream out;
    out << "scan " << run.elements << " uint32 values ("
        << fixedText(double(run.elements) * 4 / 1048576.0, 2) << " MiB), "
        << scanDistributionName(run.distribution) << ", " << (inclusive ? "inclusive" : "exclusive")
        << " (per-segment variants: exclusive, segments of " << kScanSegment << " values)\n";
    out << deviceLine(d) << '\n';
    if (run.copy.gbps > 0)
        out << "copy kernel, same buffer: " << fixedText(run.copy.gbps, 2)
            << " GB/s (bytes read + written), median " << fixedText(run.copy.stats.medianMs, 4)
            << " ms\n";
    using A = TextTable::Align;
    TextTable table({{"variant", A::Left},
                     {"wg"},
                     {"vpt"},
                     {"warp"},
                     {"elements"},
                     {"median ms"},
                     {"min ms"},
                     {"GB/s"},
                     {"% copy"},
                     {"status", A::Left}});
    for (const ScanPoint& p : run.points) {
        const bool ran = statusRan(p.status);
        table.add({scanVariantName(p.variant), std::to_string(p.workGroupSize),
                   p.vectorsPerItem ? std::to_string(p.vectorsPerItem) : "-",
                   isSegmentedScan(p.variant) ? "-"
                   : p.warp                   ? "yes"
                                              : "no",
                   std::to_string(p.elements), ran ? fixedText(p.stats.medianMs, 4) : "-",
                   ran ? fixedText(p.stats.minMs, 4) : "-", ran ? fixedText(p.gbps, 2) : "-",
                   ran ? fixedText(p.percentOfCopy, 1) : "-", statusText(p.status, p.detail)});
    }
    out << table.text();
    return out.str();
}

namespace {

DashboardPipeline scanDashboardEntry() {
    return {"scan",
            "the whole-array exclusive scan, lookback, of random uint32 values; (4 read + 4 "
            "written) bytes a value, against the copy kernel",
            [](Device& device, const DashboardOptions& o, const CancelToken& cancel) {
                ScanRequest request;
                request.variants = {ScanVariant::Lookback};
                request.elements = std::max<std::size_t>(1, o.bytes / sizeof(std::uint32_t));
                request.repeats = o.repeats;
                const ScanRun run = runScans(device, request, cancel);
                if (run.points.empty())
                    throw DeviceError("the scan ran no point");
                const ScanPoint& p = run.points.front();
                return std::vector<DashboardResult>{
                    measuredResult(std::string(scanVariantName(p.variant)) + ", wg " +
                                       std::to_string(p.workGroupSize),
                                   8 * std::uint64_t(p.elements), p.stats, p.gbps, "copy", run.copy,
                                   p.status, p.detail)};
            }};
}

} // namespace

ScanResult runScanJob(JobContext& ctx, Device& device, const ScanRequest& request,
                      const ItemSink& onItem) {
    const std::size_t total = std::max<std::size_t>(1, scanPointCount(request));
    std::size_t done = 0;
    ScanResult result;
    result.inclusive = request.inclusive;
    ctx.progress(0.0, "copy kernel");
    result.run = runScans(device, request, ctx.cancelToken(), [&](const ScanPoint& point) {
        if (onItem)
            onItem(point);
        ctx.progress(double(++done) / double(total), std::string(scanVariantName(point.variant)) +
                                                         " wg " +
                                                         std::to_string(point.workGroupSize));
    });
    return result;
}

Pipeline scanPipeline() {
    Pipeline p;
    p.name = "scan";
    p.summary = "prefix sums of uint32 values: per-segment scans (naive, blelloch, wgscan) and "
                "whole-array scans (reduce-then-scan, lookback), each verified bit-exactly and "
                "judged against the copy kernel of the same run";
    p.description =
        "Prefix sums of uint32 values (modulo 2^32) on the device. Per-segment variants scan "
        "each 65,536-value segment (exclusive); whole-array variants scan every value. GB/s = "
        "(4 bytes read + 4 written) x values / median kernel time, against the copy kernel on "
        "the same buffer in the same run. A variant the device cannot run (wgscan without a "
        "working work_group_scan_exclusive_add, lookback without 64-bit atomics) is reported as "
        "unsupported, never replaced.";
    p.reference = "exclusiveScanReference / inclusiveScanReference: the sums on the host, "
                  "modulo 2^32, compared value by value";
    using P = ScanParams;
    p.options = {
        valueOption<P>("--variant", "V",
                       "naive | blelloch | wgscan (exclusive scans of each 65,536-value segment) "
                       "| reduce-then-scan | lookback | auto (whole-array scans) | all (default), "
                       "or a comma list",
                       [](P& s, const std::string& v) {
                           s.variants =
                               parseNameList<ScanVariant>(v, allScanVariants, parseScanVariant);
                       }),
        valueOption<P>("--wg", "N|all",
                       "work-group size, a power of two from 16 to the device's maximum; all: "
                       "every one for the per-segment variants (whole-array ones at their "
                       "default)",
                       [](P& s, const std::string& v) {
                           s.allWorkGroupSizes = v == "all";
                           s.workGroupSizes.clear();
                           if (!s.allWorkGroupSizes)
                               s.workGroupSizes.push_back(
                                   std::size_t(parseWholeNumber("--wg", v, 1, 1 << 20)));
                       }),
        valueOption<P>("--vpt", "V",
                       "tuning: uint4 vectors per work-item of a whole-array scan's tile, 1, 2, "
                       "4, 8 or 16 (default: 8 on GPUs, 16 on CPU devices, fewer where the tile "
                       "would not fit local memory)",
                       [](P& s, const std::string& v) {
                           s.vectorsPerItem = std::size_t(parseWholeNumber("--vpt", v, 1, 16));
                       }),
        valueOption<P>(
            "--warp", "0|1",
            "tuning: whole-array scans with warp shuffles (NVIDIA GPUs: the group "
            "scan, transposition and look-back through inline PTX; the default "
            "there); 1 elsewhere is reported unsupported",
            [](P& s, const std::string& v) { s.warp = int(parseWholeNumber("--warp", v, 0, 1)); }),
        valueOption<P>("--size", "MIB",
                       "values to scan, in MiB of uint32 (default 64, 16 on a CPU device)",
                       [](P& s, const std::string& v) {
                           s.sizeMiB = parseNonNegative("--size", v);
                           if (*s.sizeMiB == 0)
                               throw UsageError("--size", "0 MiB: nothing to scan");
                       }),
        valueOption<P>("--count", "N", "values to scan (0: an empty scan, nothing launched)",
                       [](P& s, const std::string& v) {
                           s.count = std::size_t(parseWholeNumber("--count", v, 0, 1ll << 40));
                       }),
        valueOption<P>(
            "--dist", "D",
            "random | ones | bytes (0..255) | max (0xFFFFFFFF) values (default "
            "random)",
            [](P& s, const std::string& v) { s.distribution = parseScanDistribution(v); }),
        flagOption<P>("--inclusive",
                      "inclusive whole-array scans (per-segment scans stay exclusive)",
                      [](P& s) { s.inclusive = true; }),
        repeatOption<P>(&P::repeats, "timed runs after a warm-up (default 5)"),
    };
    p.csvHelp = "one row per point (variant, wg, elements, timings, GB/s, % of copy, status, "
                "detail)";
    p.jsonHelp = "the whole run: device, input, copy kernel, every point";
    bindDevicePipeline<ScanParams, ScanRequest, ScanResult>(
        p, planScan, runScanJob, [](const ScanResult& result) {
            const ScanRun& run = result.run;
            Report r;
            r.text = scanText(run, result.inclusive);
            r.table = scanTable(run);
            r.csv = [&run] { return scanCsv(run); };
            r.json = [&run] { return scanJson(run); };
            r.verdict = countStatuses(run.points)
                            .verdict("scan(s)", "no scan variant could run on " + run.device.name);
            return r;
        });
    p.describeItem = [](const std::any& item) {
        const ScanPoint& point = std::any_cast<const ScanPoint&>(item);
        return std::string(scanVariantName(point.variant)) + " wg " +
               std::to_string(point.workGroupSize) + ": " + statusName(point.status);
    };
    p.dashboard = {scanDashboardEntry()};
    return p;
}

} // namespace histlab
