// The reversal as the front ends see it: histlab-cli reverse's options, the plan both the CLI
// and the Memory tab run, the report (text, CSV, JSON), and the dashboard's "reverse".
// Metric (reverse.h): GB/s = (n bytes read + n bytes written) / median kernel time, judged
// against the copy kernel on the same n bytes in the same run.
#include "pipelines/options.h"
#include "pipelines/pipeline.h"
#include "pipelines/reverse/reverse.h"
#include "report/files.h"
#include "report/json.h"
#include "report/table.h"
#include "report/text.h"
#include "runtime/errors.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace histlab {

namespace {

Table reverseTable(const ReverseRun& run) {
    Table table({"variant", "kernel", "bytes", "global", "local", "median_ms", "min_ms", "gbps",
                 "percent_of_copy", "correct_bytes", "status", "detail"});
    for (const ReverseResult& r : run.results)
        table.row()
            .add(r.name)
            .add(r.kernel)
            .add(run.bytes)
            .add(std::uint64_t(r.globalSize))
            .add(std::uint64_t(r.localSize))
            .add(r.stats.medianMs)
            .add(r.stats.minMs)
            .add(r.gbps)
            .add(r.percentOfCopy)
            .add(r.correctBytes)
            .add(statusName(r.status))
            .add(r.detail);
    return table;
}

/// A file's bytes or random bytes of a size: one of them, a usage error before any file is read.
void checkOneInput(const ReverseParams& params) {
    if (params.inputPath && params.bytes)
        throw UsageError("reverse", "give either --input FILE or --size BYTES, not both");
}

} // namespace

std::uint64_t defaultReverseBytes(const DeviceInfo& device) {
    const std::uint64_t bytes = std::uint64_t(device.type == DeviceType::Cpu ? 16 : 256) << 20;
    return std::min({bytes, device.maxAllocBytes, kReverseMaxBytes});
}

ReverseSpec planReverse(const DeviceInfo& device, const ReverseParams& params) {
    checkOneInput(params);
    ReverseSpec spec;
    spec.input = params.input;
    spec.source = params.inputPath.value_or(params.input ? "the bytes given" : "");
    spec.bytes = params.bytes ? *params.bytes : defaultReverseBytes(device);
    spec.variants = params.variants;
    spec.repeats = params.repeats;
    spec.workGroupSize = params.workGroupSize;
    checkReverseSpec(device, spec);
    return spec;
}

std::vector<std::uint8_t> readReverseInput(const std::string& path) {
    if (path.empty())
        throw InputError("--input: the file name is empty");
    if (const std::string why = whyNotARegularFile(path); !why.empty())
        throw InputError(path + ": " + why);
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw InputError(path + ": cannot be read (" + std::strerror(errno) + ")");
    std::vector<std::uint8_t> bytes;
    char chunk[1 << 16];
    while (f.read(chunk, sizeof chunk) || f.gcount() > 0) {
        bytes.insert(bytes.end(), chunk, chunk + f.gcount());
        if (bytes.size() > kReverseMaxBytes)
            throw InputError(path + ": more than " + std::to_string(kReverseMaxBytes) +
                             " bytes, the most the reversal takes (32-bit indices)");
    }
    if (f.bad())
        throw InputError(path + ": cannot be read (" + std::strerror(errno) + ")");
    if (bytes.empty())
        throw InputError(path + ": file is empty (nothing to reverse)");
    return bytes;
}

std::string reverseText(const ReverseRun& run, bool timing) {
    std::ostringstream out;
    const std::string size = formatByteSize(run.bytes);
    out << "reverse " << run.source << ", " << run.bytes << " bytes"
        << (size.ends_with(" B") ? "" : " (" + size + ")") << '\n';
    out << deviceLine(run.device) << '\n';
    if (run.copy.gbps > 0)
        out << "copy kernel, same buffer: " << fixedText(run.copy.gbps, 2)
            << " GB/s (bytes read + written), median " << fixedText(run.copy.stats.medianMs, 4)
            << " ms\n";
    using A = TextTable::Align;
    TextTable table({{"kernel", A::Left},
                     {"median ms"},
                     {"min ms"},
                     {"GB/s"},
                     {"% copy"},
                     {"correct bytes"},
                     {"status", A::Left}});
    for (const ReverseResult& r : run.results) {
        const bool ran = statusRan(r.status);
        table.add({r.name, ran ? fixedText(r.stats.medianMs, 4) : "-",
                   ran ? fixedText(r.stats.minMs, 4) : "-", ran ? fixedText(r.gbps, 2) : "-",
                   ran ? fixedText(r.percentOfCopy, 1) : "-",
                   ran ? std::to_string(r.correctBytes) : "-", statusText(r.status, r.detail)});
    }
    out << table.text();
    if (timing)
        for (const ReverseResult& r : run.results)
            if (statusRan(r.status)) {
                out << "timing " << r.name << " (" << r.kernel << ", global " << r.globalSize
                    << ", local " << r.localSize << ", " << r.buildOptions << "), ms:";
                for (double s : r.stats.samplesMs)
                    out << ' ' << fixedText(s, 4);
                out << '\n';
            }
    if (const int best = run.best(); best >= 0) {
        const ReverseResult& b = run.results[std::size_t(best)];
        out << "best: " << b.name << ", " << fixedText(b.gbps, 2) << " GB/s";
        if (run.copy.gbps > 0)
            out << ", " << fixedText(b.percentOfCopy, 1) << " % of the copy kernel";
        out << '\n';
    }
    return out.str();
}

std::string reverseCsv(const ReverseRun& run) {
    return reverseTable(run).csv();
}

std::string reverseJson(const ReverseRun& run) {
    Json results = Json::array();
    for (const ReverseResult& r : run.results) {
        const ReverseVariantInfo& v = reverseVariantInfo(r.variant);
        results.push_back({{"variant", r.name},
                           {"kernel", r.kernel},
                           {"reference", v.reference},
                           {"vector_bytes", v.vectorBytes},
                           {"build_options", r.buildOptions},
                           {"global", std::uint64_t(r.globalSize)},
                           {"local", std::uint64_t(r.localSize)},
                           {"status", statusName(r.status)},
                           {"detail", r.detail},
                           {"timing", timingJson(r.stats)},
                           {"gbps", r.gbps},
                           {"percent_of_copy", r.percentOfCopy},
                           {"correct_bytes", r.correctBytes}});
    }
    const int best = run.best();
    return jsonText({{"tool", "histlab-cli reverse"},
                     {"date", utcTimestamp()},
                     {"metric", "GB/s = (n bytes read + n bytes written) / median kernel time"},
                     {"device", deviceJson(run.device)},
                     {"input", run.source},
                     {"bytes", run.bytes},
                     {"copy", ceilingJson(run.copy)},
                     {"best", best < 0 ? Json() : Json(run.results[std::size_t(best)].name)},
                     {"results", std::move(results)}});
}

namespace {

/// A plan and how its report is to be shown.
DashboardPipeline reverseDashboardEntry() {
    return {"reverse",
            "buffer reversal of random bytes, the fastest verified of the memory lab's kernels "
            "timed again on its own (pipelines/reverse/reverse.h); bytes read + written, against "
            "the copy kernel",
            [](Device& device, const DashboardOptions& o, const CancelToken& cancel) {
                ReverseSpec spec;
                spec.bytes = std::min<std::uint64_t>(o.bytes, kReverseMaxBytes);
                spec.repeats = o.repeats;
                ReverseRun run = runReverse(device, spec, cancel);
                const int best = run.best();
                const std::size_t kernels = run.results.size();
                if (best >= 0) {
                    // The fastest median of several kernels is a lucky draw as much as a fast
                    // kernel: on a loaded 2-core PoCL device it read 107-174 % of the copy
                    // ceiling. The figure is the winner's next runs, chosen before they ran.
                    spec.variants = {run.results[std::size_t(best)].variant};
                    run = runReverse(device, spec, cancel);
                }
                DashboardResult r;
                // No kernel verified: the first one's outcome says why.
                const ReverseResult& chosen = run.results.front();
                r.variant =
                    chosen.name +
                    (best >= 0
                         ? " (the fastest of " + std::to_string(kernels) + " kernels, timed again)"
                         : " (none verified of " + std::to_string(kernels) + " kernels)");
                r.bytes = 2 * run.bytes;
                r.stats = chosen.stats;
                r.gbps = chosen.gbps;
                r.judgeAgainst("copy", run.copy);
                r.status = chosen.status;
                r.reason = chosen.detail;
                return std::vector<DashboardResult>{r};
            }};
}

} // namespace

ReverseJob planReverseJob(const DeviceInfo& device, const ReverseParams& params) {
    return ReverseJob{planReverse(device, params), params.timing};
}

ReverseJobResult runReverseJob(JobContext& ctx, Device& device, const ReverseJob& job,
                               const ItemSink& onItem) {
    const double total = double(std::max<std::size_t>(1, job.spec.variants.size()));
    std::size_t done = 0;
    ctx.progress(0.0, "copy kernel");
    ReverseJobResult result;
    result.timing = job.timing;
    result.run = runReverse(device, job.spec, ctx.cancelToken(), [&](const ReverseResult& r) {
        if (onItem)
            onItem(r);
        ctx.progress(double(++done) / total, r.name);
    });
    return result;
}

Pipeline reversePipeline() {
    Pipeline p;
    p.name = "reverse";
    p.summary = "the memory lab's buffer reversal, out[i] = in[n - 1 - i]: the reference text's "
                "four kernels and HistLab's, each verified byte for byte (the count of correct "
                "bytes) and judged against the copy kernel of the same run";
    p.description =
        "Buffer reversal, out[i] = in[n - 1 - i], of a file's bytes or of random bytes. GB/s = "
        "(n bytes read + n bytes written) / median kernel time, against the copy kernel (uint4, "
        "bytes read + written) on the same n bytes in the same run. Sizes that are not a "
        "multiple of a kernel's vector are handled in the kernel. A kernel the device refuses is "
        "reported as unsupported, never replaced.";
    p.reference = "reverseReference: the bytes in reverse order on the host; every output byte "
                  "is compared and the count of correct bytes reported";
    using P = ReverseParams;
    p.options = {
        inputFileOption<P>("--input", "FILE", "the bytes to reverse (any file of up to 2 GiB)",
                           [](P& s, const std::string& v) { s.inputPath = v; }),
        valueOption<P>("--size", "BYTES",
                       "random bytes instead (default 16M on a CPU device, 256M elsewhere): a "
                       "number with K, M, G (x 1024^k), KiB, MiB, GiB, or KB, MB, GB (x 1000^k), "
                       "e.g. 4099, 64K, 1.5MiB, 1G",
                       [](P& s, const std::string& v) { s.bytes = parseByteSize("--size", v); }),
        valueOption<P>(
            "--kernel", "NAME|all",
            "char1 | char16 | char16_swizzle | uint16_as_char4 (the reference text's) | uint4 | "
            "uint4x4 | uint4_serial (HistLab's) | all (default), or a comma list. Sizes that are "
            "not a multiple of a kernel's vector are handled in the kernel (unaligned loads, the "
            "last bytes one per work-item)",
            [](P& s, const std::string& v) {
                s.variants =
                    parseNameList<ReverseVariant>(v, allReverseVariants, parseReverseVariant);
            }),
        flagOption<P>("--timing", "also every timed run's milliseconds, per kernel",
                      [](P& s) { s.timing = true; }),
        repeatOption<P>(&P::repeats, "timed runs after a warm-up (default 5): median and min"),
        // Every kernel is verified anyway; the reference text's command line has the flag.
        flagOption<P>("--verify",
                      "the reference's flag: every kernel is verified anyway (exit 1 when one "
                      "does not reverse every byte; --csv/--json are still written)",
                      [](P&) {}),
        valueOption<P>("--wg", "N",
                       "work-items per group (default 256; uint4_serial 1 on a CPU, else 64)",
                       [](P& s, const std::string& v) {
                           s.workGroupSize = std::size_t(parseWholeNumber("--wg", v, 1, 1 << 20));
                       }),
    };
    p.csvHelp = "one row per kernel (variant, kernel, bytes, global, local, timings, GB/s, % of "
                "copy, correct bytes, status, detail)";
    p.jsonHelp = "the whole run: device, input, copy kernel, every kernel with its timings";
    bindDevicePipeline<ReverseParams, ReverseJob, ReverseJobResult>(
        p, planReverseJob, runReverseJob,
        [](const ReverseJobResult& result) {
            const ReverseRun& run = result.run;
            Report r;
            r.text = reverseText(run, result.timing);
            r.table = reverseTable(run);
            r.csv = [&run] { return reverseCsv(run); };
            r.json = [&run] { return reverseJson(run); };
            const StatusCount count = countStatuses(run.results);
            r.verdict =
                count.verdict("kernel(s)", "no reversal kernel could run on " + run.device.name);
            if (r.verdict.kind == Verdict::Kind::Mismatch)
                r.verdict.message = "verification failed: " + std::to_string(count.mismatches) +
                                    " kernel(s) did not reverse every byte (see status mismatch)";
            return r;
        },
        [](ReverseParams& params) {
            checkOneInput(params);
            if (params.inputPath)
                params.input = std::make_shared<const std::vector<std::uint8_t>>(
                    readReverseInput(*params.inputPath));
        });
    p.describeItem = [](const std::any& item) {
        const ReverseResult& r = std::any_cast<const ReverseResult&>(item);
        return r.name + ": " + statusName(r.status);
    };
    p.dashboard = {reverseDashboardEntry()};
    return p;
}

} // namespace histlab
