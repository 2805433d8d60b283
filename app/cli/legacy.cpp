// histlab-cli: HistLab's work without a display. Wiring only: parse, submit a job to the core's
// runner, print and write what comes back. Exit codes are documented in --help and README.
#include "cli/dashboard.h"
#include "cli/memory.h"
#include "cli/support.h"
#include "image/image.h"
#include "pipelines/experiments/experiment.h"
#include "pipelines/histogram256/histogram256.h"
#include "pipelines/scan/scan.h"
#include "report/report.h"
#include "runtime/device.h"
#include "runtime/errors.h"
#include "runtime/kernelsource.h"
#include "runtime/log.h"
#include "runtime/runner.h"
#ifdef HISTLAB_HAVE_OPENCV
#include "io/imageio.h"
#endif

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <unistd.h>

using namespace histlab;
using namespace histlab::cli; // Exit codes, UsageFailure, ArgList and the helpers they share

namespace {

const char* kHelp = R"(histlab-cli - OpenCL histograms, measured and verified, without a display

Usage:
  histlab-cli [--kernel-dir DIR] [--verbose] COMMAND [options]
  histlab-cli devices [--json]
  histlab-cli sweep banks|reads|groups|stages|atomics [options]
  histlab-cli scan [--variant V|all] [--wg N|all] [--size MIB | --count N] [options]
  histlab-cli reverse [--input FILE | --size BYTES] [--kernel NAME|all] [--timing]
                   [--repeat N] [--verify] [--device SEL] [--csv FILE] [--json FILE] [--quiet]
  histlab-cli memory [--ceilings] [--transfers] [--max-size BYTES] [--repeat N]
                   [--device SEL] [--csv FILE] [--json FILE] [--quiet]
  histlab-cli dashboard [--device SEL[,SEL...]|all] [--pipeline NAME[,NAME...]] [--size BYTES]
                   [--repeat N] [--json FILE] [--csv FILE] [--baseline FILE] [--quiet] [--list]

Commands:
  devices            every OpenCL device with its index, properties and probe results
                     (non-uniform work-groups, work_group_scan_exclusive_add); --json for JSON
  sweep              an experiment: a grid of kernel configurations x distributions x
                     devices, each point timed, judged against the same run's read-only
                     kernel and verified; points stream to stderr as they finish

  scan               prefix sums of uint32 values: per-segment scans (naive, blelloch,
                     wgscan) and whole-array scans (reduce-then-scan, lookback), each verified
                     bit-exactly and judged against the copy kernel of the same run
  reverse            the memory lab's buffer reversal, out[i] = in[n - 1 - i]: the reference
                     text's four kernels and HistLab's, each verified byte for byte (the count
                     of correct bytes) and judged against the copy kernel of the same run
  memory             the memory lab's measurements: read-only and copy ceilings per vector
                     width (uint ... uint16), host<->device transfers from pageable and pinned
                     memory and device->device copies over a size sweep, kernel launch latency
  dashboard          every pipeline registered with the core (the histogram's best variant,
                     the 3 x 3 blur, the whole-array scan, equalization, the read-only and copy
                     ceilings, ...) on each chosen device: GB/s, each verified against its CPU
                     reference and judged against the read-only or copy kernel measured on the
                     same device in the same run; a table per device

sweep experiments:
  banks              GB/s against local copies (1, 2, 4 ... what local memory holds), one
                     curve per distribution
  reads              GB/s against work-items (one per compute unit ... one 16-byte vector
                     each): serial/coalesced x scalar/uint4 loads
  groups             work-groups per compute unit x work-group size
  stages             read-only, +scatter, +local reduce, +global merge, for auto's
                     configuration and the reference text's
  atomics            naive global atomics, local, banked and cpu variants
sweep options:
  --device SEL       a device (as for histogram), a comma list, or "all"; repeatable
                     (default: the first GPU, else the CPU)
  --dist LIST        comma list of random, uniform, gradient, skewed, image (default per
                     experiment: banks and atomics random,uniform,skewed; stages
                     random,uniform; reads and groups random)
  --image FILE       the image for "image": its gray plane repeated to the size (giving it
                     adds "image" to the default distributions)
  --size MIB         input size (default 256 on a GPU, 64 on a CPU device)
  --repeat N         timed runs at least, after a warm-up (default 5)
  --max-repeat N     more runs while (max - min) / median > 10 %, up to N (default 20)
  --csv FILE         one row per point, every parameter a column
  --json FILE        the whole run (device properties, driver, date, every point); can be
                     given to --baseline later
  --baseline FILE    a saved run: each point is compared with the baseline's point of the
                     same distribution and parameters (CSV columns baseline_gbps, ratio)
  --note TEXT        stored in the JSON (what was compared, a version label...)
  --quiet            no table on stdout (points still go to stderr)

scan options:
  --variant V        naive | blelloch | wgscan (exclusive scans of each 65,536-value segment)
                     | reduce-then-scan | lookback | auto (whole-array scans) | all (default),
                     or a comma list. A variant the device cannot run (wgscan without a working
                     work_group_scan_exclusive_add, lookback without 64-bit atomics) is reported
                     as unsupported, never replaced
  --wg N|all         work-group size, a power of two from 16 to the device's maximum; all: every
                     one for the per-segment variants (whole-array ones at their default)
  --size MIB         values to scan, in MiB of uint32 (default 64 on a GPU, 16 on a CPU device)
  --count N          values to scan (0: an empty scan, nothing launched)
  --dist D           random | ones | bytes (0..255) | max (0xFFFFFFFF) values (default random)
  --inclusive        inclusive whole-array scans (per-segment scans stay exclusive)
  --repeat N         timed runs after a warm-up (default 5)
  --csv FILE         one row per point; --json FILE the whole run; "-" for stdout
  --quiet            no table on stdout
  --device SEL       as for histogram

reverse options (GB/s: bytes read + written; the metric is in core/reverse.h):
  --input FILE       the bytes to reverse (any file of up to 2 GiB)
  --size BYTES       random bytes instead (default 16M): a number with K, M, G (x 1024^k),
                     KiB, MiB, GiB, or KB, MB, GB (x 1000^k), e.g. 4099, 64K, 1.5MiB, 1G
  --kernel NAME      char1 | char16 | char16_swizzle | uint16_as_char4 (the reference text's)
                     | uint4 | uint4x4 | uint4_serial (HistLab's) | all (default), or a comma
                     list. Sizes that are not a multiple of a kernel's vector are handled in
                     the kernel (unaligned loads, the last bytes one per work-item)
  --timing           also every timed run's milliseconds, per kernel
  --repeat N         timed runs after a warm-up (default 5): median and min
  --verify           the reference's flag: every kernel is verified anyway (exit 1 when one
                     does not reverse every byte; --csv/--json are still written)
  --wg N             work-items per group (default 256; uint4_serial 1 on a CPU, else 64)
  --csv FILE         one row per kernel; --json FILE the whole run; "-" for stdout
  --quiet            no table on stdout
  --device SEL       as for histogram

memory options (the metrics are in core/transfer.h and core/bandwidth.h):
  --ceilings         the read-only and copy kernels with uint, uint2, uint4, uint8 and
                     uint16 elements on random bytes, and the best width of each
  --transfers        h2d/d2h pageable and pinned, d2d, from --min-size doubling up to
                     --max-size (latency and GB/s per size), and the kernel launch latency
                     (neither option: both)
  --max-size BYTES   the largest transfer (default 1G or the device's largest buffer, if
                     smaller); also caps the ceilings' buffer
  --min-size BYTES   the smallest transfer (default 4K)
  --ceiling-size BYTES  the ceilings' buffer (default 256M on a GPU, 64M elsewhere)
  --repeat N         timed runs after a warm-up (default 5; transfers of 1 MiB or less at
                     least 20)
  --csv FILE         one row per measurement; --json FILE the whole run; "-" for stdout
  --quiet            no tables on stdout
  --device SEL       as for histogram

dashboard options (each pipeline's metric is in its --list line and core/dashboard.h):
  --device SEL       a device (as for histogram), a comma list, or "all"; repeatable
                     (default: the first GPU, else the CPU)
  --pipeline NAMES   a comma list of registered pipelines (default: all; --list names them)
  --size BYTES       each pipeline's input size, e.g. 64K, 16M, 1G (default 256M on a GPU,
                     64M on a CPU device; at most the device's largest buffer)
  --repeat N         timed runs after a warm-up (default 5): the median is reported
  --json FILE        the whole run (devices with their properties and driver, date, every
                     result); can be given to --baseline later
  --csv FILE         one row per result ("-" for stdout: no table then)
  --baseline FILE    a saved run: each result next to the baseline's of the same pipeline on
                     the device of the same name (or on its only device), with the ratio
  --note TEXT        stored in the JSON
  --list             the registered pipelines with what each measures, and nothing else
  --quiet            no table on stdout (results still go to stderr as they arrive)

Global options:
  --kernel-dir DIR   read kernels/NAME.cl from DIR instead of the embedded copies
  --verbose          log the chosen device, build options and build logs to stderr
  --help, --version

Exit codes:
  0  success
  1  verification mismatch (the device result differs from the CPU reference; for sweep:
     any point; for dashboard: any result)
  2  usage error: unknown command or option, a bad value, an unknown --device, --banks that
     is not a power of two or does not fit local memory, a --wg the device refuses, a
     --region outside the image
  3  input error: a missing, empty, truncated, unsupported or non-image file, a folder, a size
     of 0, an output file that cannot be written
  4  device error: no OpenCL device, an OpenCL call that failed, a kernel that does not build
     (for sweep: when no point could run at all; single points that cannot run are reported
     as unsupported or failed and the sweep goes on; for dashboard likewise: when no
     pipeline could run on any device)
)";

long long parseInt(const std::string& option, const std::string& text, long long lo, long long hi) {
    long long v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size())
        throw UsageFailure{option + ": '" + text + "' is not a whole number"};
    if (v < lo || v > hi)
        throw UsageFailure{option + ": " + text + " is out of range (" + std::to_string(lo) + ".." +
                           std::to_string(hi) + ")"};
    return v;
}

double parseMiB(const std::string& option, const std::string& text) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(v))
        throw UsageFailure{option + ": '" + text + "' is not a number"};
    if (v < 0)
        throw UsageFailure{option + ": must not be negative"};
    return v;
}

void printDevice(std::ostream& out, const DeviceInfo& d) {
    out << "device " << d.index << ": " << d.name << " [" << deviceTypeName(d.type) << "], "
        << d.platformName << ", driver " << d.driverVersion << ", " << d.computeUnits
        << " compute units, " << d.localMemBytes / 1024 << " KiB local memory\n";
}

std::string describePoint(const ExperimentRun& run, const ExperimentPoint& p) {
    std::ostringstream s;
    s << p.distribution;
    if (!p.series.empty())
        s << ' ' << p.series;
    if (run.kind == ExperimentKind::Stages) { // categorical axes: say the category
        for (const auto& [k, v] : p.params)
            if (k == "stage")
                s << ' ' << v;
    } else if (run.kind != ExperimentKind::Atomics) { // the series names the variant there
        s << ' ' << experimentAxisName(run.kind) << '=' << std::setprecision(12) << p.x;
    }
    if (p.ok())
        s << ": " << fixed(p.gbps, p.gbps >= 100 ? 0 : 2) << " GB/s, "
          << fixed(p.percentOfCeiling, 1) << " % of read-only, " << p.status;
    else
        s << ": " << p.status << " (" << p.reason << ")";
    return s.str();
}

int runSweepCommand(ArgList& args, JobRunner& runner) {
    ExperimentSpec spec;
    std::string kindName, imagePath, note;
    std::vector<std::string> deviceSelectors;
    std::optional<std::string> csv, json, baselinePath;
    bool quiet = false, distGiven = false;
    double sizeMiB = 0;
    while (!args.empty()) {
        const std::string a = args.next();
        try {
            if (a == "--device") {
                for (const std::string& d : splitList(args.value(a)))
                    deviceSelectors.push_back(d);
            } else if (a == "--dist") {
                spec.distributions = splitList(args.value(a));
                distGiven = true;
            } else if (a == "--image") {
                imagePath = args.value(a);
            } else if (a == "--size") {
                sizeMiB = parseMiB(a, args.value(a));
                if (sizeMiB <= 0)
                    throw UsageFailure{"--size: must be more than 0"};
            } else if (a == "--repeat") {
                spec.repeats = static_cast<int>(parseInt(a, args.value(a), 1, 10000));
            } else if (a == "--max-repeat") {
                spec.maxRepeats = static_cast<int>(parseInt(a, args.value(a), 1, 100000));
            } else if (a == "--csv") {
                csv = args.value(a);
            } else if (a == "--json") {
                json = args.value(a);
            } else if (a == "--baseline") {
                baselinePath = args.value(a);
            } else if (a == "--note") {
                note = args.value(a);
            } else if (a == "--quiet") {
                quiet = true;
            } else if (!a.empty() && a[0] == '-') {
                throw UsageFailure{"sweep: unknown option '" + a + "' (see --help)"};
            } else if (kindName.empty()) {
                kindName = a;
            } else {
                throw UsageFailure{"sweep: more than one experiment given ('" + kindName + "', '" +
                                   a + "')"};
            }
        } catch (const UsageError& e) {
            throw UsageFailure{e.what()};
        }
    }
    if (kindName.empty())
        throw UsageFailure{"sweep: which experiment? (banks, reads, groups, stages, atomics)"};
    try {
        spec.kind = parseExperimentKind(kindName);
    } catch (const UsageError& e) {
        throw UsageFailure{e.what()};
    }
    spec.maxRepeats = std::max(spec.maxRepeats, spec.repeats);
    spec.bytes = std::size_t(std::llround(sizeMiB * 1048576.0));
    if (!distGiven) {
        spec.distributions = defaultDistributions(spec.kind);
        if (!imagePath.empty())
            spec.distributions.push_back("image");
    }
    for (const std::string& d : spec.distributions)
        if (d != "image") {
            try {
                parseSyntheticKind(d);
            } catch (const UsageError& e) {
                throw UsageFailure{std::string("--dist: ") + e.what()};
            }
        } else if (imagePath.empty()) {
            throw UsageFailure{"--dist: 'image' needs --image FILE"};
        }

    HostImage image;
    ExperimentRun baseline;
    try {
        checkOutput("--csv", csv);
        checkOutput("--json", json);
        if (baselinePath) {
            try {
                baseline = parseExperimentJson(readTextFile(*baselinePath));
            } catch (const InputError& e) {
                throw InputError(*baselinePath + ": " + e.what());
            } catch (const UsageError& e) {
                throw InputError(*baselinePath + ": " + e.what());
            }
            if (baseline.kind != spec.kind)
                throw InputError(*baselinePath + ": a '" + experimentKindName(baseline.kind) +
                                 "' run cannot be the baseline of a '" + kindName + "' sweep");
        }
        if (!imagePath.empty()) {
            image = loadImageFile(imagePath);
            spec.image = &image;
        }
    } catch (const InputError& e) {
        std::cerr << "histlab-cli: " << e.what() << '\n';
        return Input;
    }

    std::size_t done = 0;
    auto outcome = runner.runAndWait([&](JobContext& ctx) -> std::any {
        const std::vector<DeviceInfo>& infos = ctx.devices().infos();
        std::vector<int> indices;
        if (deviceSelectors.empty())
            deviceSelectors.push_back("auto");
        for (const std::string& sel : deviceSelectors) {
            if (sel == "all") {
                for (const DeviceInfo& d : infos)
                    indices.push_back(d.index);
                continue;
            }
            const int i = selectDevice(sel, infos);
            if (std::find(indices.begin(), indices.end(), i) == indices.end())
                indices.push_back(i);
        }
        ExperimentRun shown; // the kind, for the progress lines
        shown.kind = spec.kind;
        return runExperiment(
            ctx.devices(), indices, spec, ctx.cancelToken(), [&](const ExperimentPoint& p) {
                std::cerr << '[' << ++done << "] " << describePoint(shown, p) << '\n';
            });
    });
    if (auto* e = std::get_if<JobError>(&outcome))
        return report(*e);
    ExperimentRun run = std::any_cast<ExperimentRun>(std::get<std::any>(outcome));
    run.note = note;
    const ExperimentRun* base = baselinePath ? &baseline : nullptr;
    try {
        if (csv)
            writeFileAtomically(*csv, experimentCsv(run, base));
        if (json)
            writeFileAtomically(*json, experimentJson(run));
    } catch (const InputError& e) {
        std::cerr << "histlab-cli: " << e.what() << '\n';
        return Input;
    }
    std::size_t ok = 0, mismatches = 0;
    for (const ExperimentPoint& p : run.points) {
        ok += p.ok() ? 1 : 0;
        mismatches += p.status == Status::Mismatch ? 1 : 0;
    }
    if (!quiet && csv.value_or("") != "-" && json.value_or("") != "-") {
        std::cout << "sweep " << kindName << ", " << fixed(run.bytes / 1048576.0, 0)
                  << " MiB per input, " << run.points.size() << " points (" << ok << " ran)\n";
        for (const DeviceInfo& d : run.devices)
            printDevice(std::cout, d);
        for (const ExperimentCeiling& c : run.ceilings)
            std::cout << "read-only ceiling, " << run.devices[std::size_t(c.device)].name << ", "
                      << c.distribution << ": " << fixed(c.ceiling.gbps, 2) << " GB/s\n";
        for (const ExperimentPoint& p : run.points) {
            std::cout << "  " << describePoint(run, p);
            if (base) {
                const ExperimentPoint* b = findBaselinePoint(*base, p);
                if (b && b->ok() && p.ok() && b->gbps > 0)
                    std::cout << "  (baseline " << fixed(b->gbps, b->gbps >= 100 ? 0 : 2)
                              << " GB/s, x" << fixed(p.gbps / b->gbps, 2) << ")";
                else
                    std::cout << "  (no baseline point)";
            }
            std::cout << '\n';
        }
    }
    if (mismatches) {
        std::cerr << "histlab-cli: " << mismatches
                  << " point(s) differ from the CPU reference (see status mismatch)\n";
        return Mismatch;
    }
    if (ok == 0) {
        std::cerr << "histlab-cli: no point of the sweep could run\n";
        return DeviceFailure;
    }
    return Ok;
}
} // namespace

namespace histlab::cli {

const char* legacyHelp() {
    return kHelp;
}

int runLegacyCommand(const std::string& command, const std::vector<std::string>& rest,
                     JobRunner& runner) {
    ArgList args(rest);
    try {
        for (const std::string& a : rest)
            if (a == "--help" || a == "-h") {
                std::cout << kHelp;
                return Ok;
            }
        if (command == "sweep")
            return runSweepCommand(args, runner);
        if (command == "dashboard")
            return cli::runDashboardCommand(rest, runner);
        return cli::runMemoryCommand(command, rest, runner);
    } catch (const UsageFailure& f) {
        std::cerr << "histlab-cli: " << f.message << '\n';
        return Usage;
    }
}

} // namespace histlab::cli
