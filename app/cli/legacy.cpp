// histlab-cli: HistLab's work without a display. Wiring only: parse, submit a job to the core's
// runner, print and write what comes back. Exit codes are documented in --help and README.
#include "cli/support.h"
#include "image/image.h"
#include "pipelines/blur/blur.h"
#include "pipelines/equalize/equalize.h"
#include "pipelines/histogram256/histogram256.h"
#include "pipelines/histogram256/histogramreport.h"
#include "pipelines/histogram256/histogramstats.h"
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
  histlab-cli histogram (IMAGE | --synthetic KIND (--size MIB | --bytes N)) [options]
  histlab-cli blur IMAGE [--radius R] [--launch L|all] [--corners] [--out FILE] [options]
  histlab-cli blur (IMAGE | --synthetic KIND --width W --height H) [--border MODE]
                   [--variant V|all] [--radius R[,R...]] [--compare-opencv] [options]
  histlab-cli equalize (IMAGE | --synthetic KIND --width W --height H) [--out FILE]
                   [--csv FILE] [--repeat N] [--device SEL] [--quiet]
  histlab-cli scan [--variant V|all] [--wg N|all] [--size MIB | --count N] [options]

Commands:
  devices            every OpenCL device with its index, properties and probe results
                     (non-uniform work-groups, work_group_scan_exclusive_add); --json for JSON
  histogram          256-bin histograms of an image file or of synthetic bytes
  blur               the reference text's launches of a box blur of the interior (8-bit gray;
                     a color image's luma, a 16-bit image's high byte), each verified against
                     the CPU reference byte for byte
  equalize           histogram equalization on the device (histogram, cumulative histogram,
                     look-up table, gather), each stage timed; verified against the CPU
                     reference byte for byte (8-bit gray: OpenCV's equalizeHist bit for bit)

  scan               prefix sums of uint32 values: per-segment scans (naive, blelloch,
                     wgscan) and whole-array scans (reduce-then-scan, lookback), each verified
                     bit-exactly and judged against the copy kernel of the same run

histogram options:
  IMAGE              an image file (PNG, JPEG, TIFF, BMP, PGM/PPM, WebP...): 8- or 16-bit gray,
                     RGB or RGBA; 16-bit images are histogrammed on their high byte
  --synthetic KIND   random | uniform | gradient | skewed bytes (gray)
  --size MIB         size of the synthetic data in MiB (fractions allowed)
  --bytes N          size of the synthetic data in bytes
  --channel C        gray | r | g | b | a | all (default all: every channel, and gray)
  --region X,Y,W,H   only the pixels of that rectangle (left, top, width, height)
  --device SEL       index, gpu, cpu, or part of a device/platform name (default: the first
                     GPU, else the CPU)
  --variant V        auto | naive | local | banked | cpu (default auto)
  --banks N          local sub-histogram copies, a power of two that fits local memory
                     (banked), or private copies, 1, 2 or 4 (cpu)
  --groups-per-cu K  work-groups = K x compute units
  --wg N             work-group size
  --read R           coalesced | serial
  --load L           scalar (32-bit uint) | uint4 (16 bytes)
  --unroll U         1 | 2 | 4 | 8 loads in flight per iteration (coalesced reads)
  --merge M          kernel (a second reduction kernel) | atomic (global atomics)
  --repeat N         timed runs after one warm-up (default 5); median and min are reported
  --verify           compare with the CPU reference, bit-exact (exit 1 on a mismatch; the
                     --csv/--json files are still written, the JSON with "verified": false)
  --stages           stage table: read-only, +scatter, +local reduce, +global merge
  --csv FILE         the histogram as CSV (bin,<channel>...); "-" for stdout
  --json FILE        the whole run as JSON (device, configuration, timings, statistics,
                     histograms)
  --stats-csv FILE   per-channel statistics as CSV (channel,count,min,max,mean,median,mode,
                     stddev,p1,p5,p25,p75,p95,p99,entropy_bits); "-" for stdout
  --quiet            no report on stdout (files only)
  --end-to-end       time host memory -> histogram on the host (wall clock), the input sent in
                     chunks whose transfers overlap the histogram of the previous chunk; three
                     modes (input in pinned memory; ordinary memory staged through pinned
                     buffers; ordinary memory written directly) against the host->device
                     bandwidth from pinned and ordinary memory measured in the same run
  --chunk MIB        chunk size for --end-to-end (default 32)

blur options:
  --radius R         window of (2R + 1) x (2R + 1) pixels (default 1: 3 x 3)
  --launch L         cl12-null | cl12-16x16 | cl20-null | cl20-16x16 | padded-16x16 | all
                     (default all). cl12-16x16 is refused with CL_INVALID_WORK_GROUP_SIZE
                     unless the interior divides by 16; cl20-16x16 needs non-uniform
                     work-groups; padded-16x16 rounds the range up and checks bounds
  --corners          the table of get_global_id, get_local_size and get_enqueued_local_size
                     at the four corners of the range, per launch
  --border MODE      interior | replicate | reflect101: blur the whole image as it is (gray,
                     RGB or RGBA, 8- or 16-bit) with that border instead of the launches
                     (default reflect101, OpenCV's default, when --variant is given)
  --variant V        auto | direct | tiled | sliding | all: how the whole image is blurred.
                     direct: one work-item per pixel; tiled: 16 bytes x a strip of rows per
                     work-item, uint4 loads and stores (R <= 3); sliding: running column sums,
                     then row sums from a local-memory scan (cost per pixel independent of R);
                     auto: tiled for R <= 2, else sliding. Each run is verified and shown
                     with the copy kernel's GB/s on the same bytes in the same run
  --radius R,R...    with --border/--variant, several radii (a sweep)
  --rows N, --wg N   tuning: rows per work-item strip, work-items per group along x
  --packed 0|1       tuning (tiled): all the window's rows loaded first, packed as loaded
                     (1, a GPU's default), or slid down as horizontal sums (0, a CPU's)
  --swar 0|1         tuning (tiled, 8-bit gray, R = 1): two pixels per 32-bit register (1,
                     a CPU's default) or one (0, a GPU's default)
  --vectors 1|2|4    tuning (tiled): 16-byte vectors per work-item and row (default 1; 4 for
                     two pixels per register on a CPU)
  --serial-rows 0|1  tuning (sliding): one row per work-item (1, a CPU's default) or row
                     tiles scanned in local memory (0, a GPU's default)
  --compare-opencv   also time cv::blur on the same image (host wall clock, first radius)
  --synthetic KIND   random | uniform | gradient | skewed pixels instead of a file, with
                     --width W --height H [--channels 1|3|4] [--depth 8|16]
  --csv FILE, --json FILE   the runs (with --border/--variant)
  --out FILE         the blurred image (of the first launch that ran, or of the first run)
  --repeat N         timed runs after a warm-up (default 5)
  --device SEL       as for histogram

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

equalize options:
  IMAGE              8- or 16-bit gray, RGB or RGBA. Gray is equalized on its values (8-bit:
                     cv::equalizeHist's rule; 16-bit: 65,536 bins, exact integers); color on
                     its luma (OpenCV's BGR2GRAY weights), every color channel moved by the
                     luma's change, alpha kept; a single-valued image stays as it is
  --synthetic KIND   random | uniform | gradient | skewed pixels instead of a file, with
                     --width W --height H [--channels 1|3|4] [--depth 8|16]
  --out FILE         the equalized image (optional: without it the run is timed and verified
                     only); written on a mismatch too
  --csv FILE         the histogram of the equalized plane and its cumulative sum as CSV
                     (bin,count,cdf; 256 or 65,536 rows); "-" for stdout
  --repeat N         timed runs after a warm-up (default 5): median and min per stage
  --device SEL       as for histogram
  --quiet            no report on stdout

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

// 64 columns, 4 bins each, eight heights: enough to recognise a histogram in a terminal.
std::string sparkline(const std::array<std::uint64_t, 256>& counts) {
    static const char* blocks[] = {" ",      "\u2581", "\u2582", "\u2583", "\u2584",
                                   "\u2585", "\u2586", "\u2587", "\u2588"};
    std::array<std::uint64_t, 64> cols{};
    for (int b = 0; b < 256; ++b)
        cols[b / 4] += counts[b];
    const std::uint64_t top = *std::max_element(cols.begin(), cols.end());
    std::string s;
    for (auto c : cols)
        s += blocks[top ? (c == 0 ? 0 : 1 + (c * 7) / top) : 0];
    return s;
}

// "verified: ..." for a run (nothing, or "not checked", when it was not verified).
void printVerified(std::ostream& out, const std::optional<bool>& verified,
                   const std::string& detail, bool sayNotChecked) {
    if (verified)
        out << "verified: "
            << (*verified ? "yes, bit-exact against the CPU reference" : "NO - " + detail) << '\n';
    else if (sayNotChecked)
        out << "verified: not checked (add --verify)\n";
}

// Exit code 1 with the mismatch on stderr, or 0.
int verificationExit(const std::optional<bool>& verified, const std::string& detail) {
    if (verified && !*verified) {
        std::cerr << "histlab-cli: verification failed: " << detail << '\n';
        return Mismatch;
    }
    return Ok;
}

void printDevice(std::ostream& out, const DeviceInfo& d) {
    out << "device " << d.index << ": " << d.name << " [" << deviceTypeName(d.type) << "], "
        << d.platformName << ", driver " << d.driverVersion << ", " << d.computeUnits
        << " compute units, " << d.localMemBytes / 1024 << " KiB local memory\n";
}

void printRun(std::ostream& out, const HistogramRun& run) {
    printDevice(out, run.device);
    out << "input: " << run.input << ", " << run.width << " x " << run.height << ", "
        << run.channels << (run.channels == 1 ? " channel, " : " channels, ") << run.sourceDepth
        << "-bit (" << run.bytes << " bytes)\n";
    out << "config: " << run.config.describe() << " (" << run.config.chosenBy << ")\n";
    out << std::left << std::setw(22) << "pass" << std::right << std::setw(13) << "bytes"
        << std::setw(12) << "median ms" << std::setw(11) << "min ms" << std::setw(10) << "GB/s"
        << std::setw(13) << "% read-only" << '\n';
    auto row = [&](const std::string& what, std::uint64_t bytes, const TimingStats& t, double g,
                   double pct) {
        out << std::left << std::setw(22) << what << std::right << std::setw(13) << bytes
            << std::setw(12) << fixed(t.medianMs, 4) << std::setw(11) << fixed(t.minMs, 4)
            << std::setw(10) << fixed(g, 2) << std::setw(13) << fixed(pct, 1) << '\n';
    };
    for (const auto& p : run.passes)
        row(p.what, p.bytes, p.stats, p.gbps, p.percentOfCeiling);
    row("read-only ceiling", run.ceiling.bytes, run.ceiling.stats, run.ceiling.gbps, 100.0);
    if (!run.stages.empty()) {
        out << "stage table (" << run.config.describe() << "):\n";
        for (const auto& s : run.stages) {
            if (s.applicable)
                row("  " + s.stage, run.bytes, s.stats, s.gbps, s.percentOfCeiling);
            else
                out << "  " << std::left << std::setw(20) << s.stage << "n/a for this variant\n";
        }
    }
    out << "host memory: peak resident " << (peakRssBytes() >> 20) << " MiB (input "
        << (run.bytes >> 20) << " MiB)\n";
    for (const auto& n : run.notes)
        out << "note: " << n << '\n';
    for (const auto& h : run.histograms) {
        std::uint64_t total = 0, peak = 0;
        int mode = 0;
        for (int b = 0; b < 256; ++b) {
            total += h.counts[b];
            if (h.counts[b] > peak) {
                peak = h.counts[b];
                mode = b;
            }
        }
        out << std::left << std::setw(5) << h.name << std::right << "|" << sparkline(h.counts)
            << "| total " << total << ", mode " << mode << " (" << peak << ")\n";
    }
    out << std::left << std::setw(6) << "stats" << std::right << std::setw(11) << "pixels"
        << std::setw(5) << "min" << std::setw(5) << "max" << std::setw(9) << "mean" << std::setw(7)
        << "median" << std::setw(6) << "mode" << std::setw(9) << "std.dev";
    for (double p : kPercentiles) {
        std::string label = "p"; // appended, not "p" + ...: GCC 12 at -O3 warns wrongly (PR 105329)
        label += std::to_string(int(p));
        out << std::setw(5) << label;
    }
    out << std::setw(9) << "entropy" << '\n';
    for (const auto& h : run.histograms) {
        const ChannelStatistics st = channelStatistics(h.name, h.counts);
        out << std::left << std::setw(6) << st.name << std::right << std::setw(11) << st.count
            << std::setw(5) << st.min << std::setw(5) << st.max << std::setw(9) << fixed(st.mean, 2)
            << std::setw(7) << st.median << std::setw(6) << st.mode << std::setw(9)
            << fixed(st.stddev, 2);
        for (int p : st.percentiles)
            out << std::setw(5) << p;
        out << std::setw(9) << fixed(st.entropy, 3) << '\n';
    }
    printVerified(out, run.verified, run.verifyDetail, true);
}

int runEndToEnd(JobRunner& runner, const HostImage& source, const std::string& device,
                const HistogramRequest& req, const HistogramRunOptions& opt, double chunkMiB,
                const std::string& json) {
    HostImage converted;
    if (source.depth == 16)
        converted = toHighByte(source);
    const HostImage& input = source.depth == 16 ? converted : source;
    EndToEndOptions e2e;
    e2e.chunkBytes = std::size_t(chunkMiB * 1048576.0);
    e2e.repeats = opt.repeats;
    e2e.verify = opt.verify;
    e2e.nchan = input.channels;
    auto outcome = runner.runAndWait([&](JobContext& ctx) -> std::any {
        Device& dev = ctx.devices().select(device);
        return runHistogramEndToEnd(dev, input.data.data(), input.data.size(), req, e2e,
                                    ctx.cancelToken());
    });
    if (auto* e = std::get_if<JobError>(&outcome))
        return report(*e);
    const auto& run = std::any_cast<const EndToEndRun&>(std::get<std::any>(outcome));
    printDevice(std::cout, run.device);
    std::cout << "input: " << input.source << " (" << run.bytes << " bytes), " << run.chunks
              << " chunks of " << run.chunkBytes << " bytes, " << run.hostThreads
              << " host copy threads\nconfig: " << run.config.describe() << " ("
              << run.config.chosenBy << ")\n";
    const double pinned = run.pinnedGBps;
    auto row = [&](const std::string& what, const TimingStats& t, double g) {
        std::cout << std::left << std::setw(44) << what << std::right << std::setw(11)
                  << fixed(t.medianMs, 3) << std::setw(11) << fixed(t.minMs, 3) << std::setw(10)
                  << fixed(g, 2) << std::setw(10) << fixed(pinned > 0 ? 100 * g / pinned : 0, 1)
                  << '\n';
    };
    std::cout << std::left << std::setw(44) << "wall clock, whole input" << std::right
              << std::setw(11) << "median ms" << std::setw(11) << "min ms" << std::setw(10)
              << "GB/s" << std::setw(10) << "% pinned" << '\n';
    row("host->device write from pinned memory", run.pinnedWrite, run.pinnedGBps);
    row("host->device write from ordinary memory", run.pageableWrite, run.pageableGBps);
    row("end to end, input in pinned memory", run.streamPinned, run.streamPinnedGBps);
    row("end to end, ordinary memory, pinned staging", run.streamStaged, run.streamStagedGBps);
    row("end to end, ordinary memory, direct writes", run.streamPageable, run.streamPageableGBps);
    printVerified(std::cout, run.verified, run.verifyDetail, false);
    if (!json.empty()) {
        std::ostringstream j;
        auto t = [&](const char* name, const TimingStats& s, double g) {
            j << "  " << jsonString(name) << ": {\"median_ms\": " << s.medianMs
              << ", \"min_ms\": " << s.minMs << ", \"gbps\": " << g << "},\n";
        };
        j << "{\n  \"tool\": \"histlab-cli histogram --end-to-end\",\n  \"date\": "
          << jsonString(utcTimestamp()) << ",\n  \"device\": " << jsonString(run.device.name)
          << ",\n  \"driver\": " << jsonString(run.device.driverVersion)
          << ",\n  \"input\": " << jsonString(input.source) << ",\n  \"bytes\": " << run.bytes
          << ",\n  \"chunk_bytes\": " << run.chunkBytes
          << ",\n  \"host_threads\": " << run.hostThreads
          << ",\n  \"config\": " << jsonString(run.config.describe()) << ",\n";
        t("pinned_write", run.pinnedWrite, run.pinnedGBps);
        t("pageable_write", run.pageableWrite, run.pageableGBps);
        t("stream_pinned", run.streamPinned, run.streamPinnedGBps);
        t("stream_staged", run.streamStaged, run.streamStagedGBps);
        t("stream_pageable", run.streamPageable, run.streamPageableGBps);
        j << "  \"verified\": " << (run.verified ? (*run.verified ? "true" : "false") : "null")
          << "\n}\n";
        try {
            writeFileAtomically(json, j.str());
        } catch (const InputError& e) {
            std::cerr << "histlab-cli: " << e.what() << '\n';
            return Input;
        }
    }
    return verificationExit(run.verified, run.verifyDetail);
}

int runHistogramCommand(ArgList& args, JobRunner& runner) {
    std::string image, synthetic, device;
    std::optional<std::string> csv, json, statsCsv; // set but empty is an error, not "no file"
    std::optional<Region> region;
    double sizeMiB = -1, chunkMiB = 32;
    long long bytes = -1;
    bool quiet = false, endToEnd = false;
    HistogramRequest req;
    HistogramRunOptions opt;
    while (!args.empty()) {
        const std::string a = args.next();
        try {
            if (a == "--synthetic")
                synthetic = args.value(a);
            else if (a == "--size")
                sizeMiB = parseMiB(a, args.value(a));
            else if (a == "--bytes")
                bytes = parseInt(a, args.value(a), 0, (1ll << 40));
            else if (a == "--channel")
                opt.channel = parseChannel(args.value(a));
            else if (a == "--region")
                region = parseRegion(args.value(a));
            else if (a == "--device")
                device = args.value(a);
            else if (a == "--variant")
                req.variant = parseVariant(args.value(a));
            else if (a == "--banks")
                req.banks = static_cast<int>(parseInt(a, args.value(a), 1, 1 << 20));
            else if (a == "--groups-per-cu")
                req.groupsPerCu = static_cast<int>(parseInt(a, args.value(a), 1, 1024));
            else if (a == "--wg")
                req.workGroupSize = static_cast<int>(parseInt(a, args.value(a), 1, 1 << 20));
            else if (a == "--unroll")
                req.unroll = static_cast<int>(parseInt(a, args.value(a), 1, 8));
            else if (a == "--read")
                req.read = parseReadPattern(args.value(a));
            else if (a == "--load")
                req.load = parseLoadWidth(args.value(a));
            else if (a == "--merge")
                req.merge = parseMergeMode(args.value(a));
            else if (a == "--repeat")
                opt.repeats = static_cast<int>(parseInt(a, args.value(a), 1, 100000));
            else if (a == "--verify")
                opt.verify = true;
            else if (a == "--stages")
                opt.stages = true;
            else if (a == "--csv")
                csv = args.value(a);
            else if (a == "--json")
                json = args.value(a);
            else if (a == "--stats-csv")
                statsCsv = args.value(a);
            else if (a == "--quiet")
                quiet = true;
            else if (a == "--end-to-end")
                endToEnd = true;
            else if (a == "--chunk")
                chunkMiB = parseMiB(a, args.value(a));
            else if (!a.empty() && a[0] == '-' && a != "-")
                throw UsageFailure{"histogram: unknown option '" + a + "' (see --help)"};
            else if (image.empty())
                image = a;
            else
                throw UsageFailure{"histogram: more than one image given ('" + image + "', '" + a +
                                   "')"};
        } catch (const UsageError& e) {
            throw UsageFailure{e.what()};
        }
    }
    if (image.empty() == synthetic.empty())
        throw UsageFailure{"histogram: give either an IMAGE file or --synthetic KIND"};
    if (!synthetic.empty()) {
        try {
            parseSyntheticKind(synthetic);
        } catch (const UsageError& e) {
            throw UsageFailure{e.what()};
        }
        if ((sizeMiB < 0) == (bytes < 0))
            throw UsageFailure{"--synthetic: give its size with either --size MIB or --bytes N"};
    } else if (sizeMiB >= 0 || bytes >= 0) {
        throw UsageFailure{"--size/--bytes: only with --synthetic"};
    }
    // Output paths are checked before any work, so a bad path costs nothing.
    HostImage input;
    try {
        checkOutput("--csv", csv);
        checkOutput("--json", json);
        checkOutput("--stats-csv", statsCsv);
        if (!synthetic.empty()) {
            const std::size_t n =
                bytes >= 0 ? std::size_t(bytes) : std::size_t(std::llround(sizeMiB * 1048576.0));
            if (n == 0)
                throw InputError(std::string(bytes >= 0 ? "--bytes" : "--size") +
                                 ": the synthetic data would be empty (size 0)");
            input = makeSynthetic(parseSyntheticKind(synthetic), n);
        } else {
            input = loadImageFile(image, "; use --synthetic");
        }
    } catch (const InputError& e) {
        std::cerr << "histlab-cli: " << e.what() << '\n';
        return Input;
    }

    if (region) {
        try {
            input = cropImage(input, *region);
        } catch (const UsageError& e) {
            std::cerr << "histlab-cli: " << e.what() << '\n';
            return Usage;
        }
    }
    if (endToEnd)
        return runEndToEnd(runner, input, device, req, opt, chunkMiB, json.value_or(""));
    const bool showProgress = ::isatty(STDERR_FILENO) && !quiet;
    auto outcome = runner.runAndWait(
        [&](JobContext& ctx) -> std::any {
            Device& dev = ctx.devices().select(device);
            logInfo("device",
                    "selected device " + std::to_string(dev.info().index) + ": " + dev.info().name);
            return runHistogram(dev, input, req, opt, ctx.cancelToken(),
                                [&ctx](double f, const std::string& s) { ctx.progress(f, s); });
        },
        [showProgress](const Progress& p) {
            if (showProgress)
                std::cerr << "\r" << std::setw(3) << int(p.fraction * 100) << "% " << std::left
                          << std::setw(30) << p.stage << std::right << std::flush;
        });
    if (showProgress)
        std::cerr << "\r" << std::string(36, ' ') << "\r" << std::flush;
    if (auto* e = std::get_if<JobError>(&outcome))
        return report(*e);
    const auto& run = std::any_cast<const HistogramRun&>(std::get<std::any>(outcome));
    try {
        // Written on a verification mismatch too (the JSON records "verified": false): the
        // exit code says the counts are wrong, the files show what the device produced.
        if (csv)
            writeFileAtomically(*csv, histogramCsv(run));
        if (json)
            writeFileAtomically(*json, histogramJson(run));
        if (statsCsv) {
            std::vector<ChannelStatistics> stats;
            for (const auto& h : run.histograms)
                stats.push_back(channelStatistics(h.name, h.counts));
            writeFileAtomically(*statsCsv, statisticsCsv(stats));
        }
    } catch (const InputError& e) {
        std::cerr << "histlab-cli: " << e.what() << '\n';
        return Input;
    }
    if (!quiet && csv.value_or("") != "-" && json.value_or("") != "-" &&
        statsCsv.value_or("") != "-")
        printRun(std::cout, run);
    return verificationExit(run.verified, run.verifyDetail);
}

// --synthetic KIND --width W --height H [--channels C] [--depth D]: an image made up on the spot,
// for the commands that take an image, in builds without a loader (GPU machines) too.
struct SyntheticImage {
    std::string kind;
    int width = 0, height = 0, channels = 1, depth = 8;

    /// Takes `a` (and its value) when it is one of the options; false otherwise.
    bool parse(const std::string& a, ArgList& args) {
        if (a == "--synthetic") {
            kind = args.value(a);
            (void)parseSyntheticKind(kind);
        } else if (a == "--width") {
            width = static_cast<int>(parseInt(a, args.value(a), 1, 1 << 20));
        } else if (a == "--height") {
            height = static_cast<int>(parseInt(a, args.value(a), 1, 1 << 20));
        } else if (a == "--channels") {
            channels = static_cast<int>(parseInt(a, args.value(a), 1, 4));
            if (channels == 2)
                throw UsageFailure{"--channels: 1, 3 or 4"};
        } else if (a == "--depth") {
            depth = static_cast<int>(parseInt(a, args.value(a), 8, 16));
            if (depth != 8 && depth != 16)
                throw UsageFailure{"--depth: 8 or 16"};
        } else {
            return false;
        }
        return true;
    }
    bool given() const { return !kind.empty(); }
    /// Usage errors of the combination with an image path.
    void check(const std::string& image, const std::string& command) const {
        if (given() && !image.empty())
            throw UsageFailure{command + ": an image or --synthetic, not both"};
        if (given() && (width == 0 || height == 0))
            throw UsageFailure{"--synthetic: needs --width and --height"};
        if (!given() && (width || height))
            throw UsageFailure{"--width/--height: only with --synthetic"};
        if (!given() && image.empty())
            throw UsageFailure{command + ": which image? (histlab-cli " + command +
                               " IMAGE ... or --synthetic KIND --width W --height H)"};
    }
    HostImage make() const {
        const std::size_t bytes = std::size_t(width) * std::size_t(height) * std::size_t(channels) *
                                  std::size_t(depth / 8);
        HostImage img = makeSynthetic(parseSyntheticKind(kind), bytes);
        img.width = width;
        img.height = height;
        img.channels = channels;
        img.depth = depth;
        img.source =
            "synthetic " + kind + " " + std::to_string(width) + "x" + std::to_string(height);
        return img;
    }
    /// The synthetic image, or the file through the loader.
    HostImage load(const std::string& image) const {
        return given() ? make()
                       : loadImageFile(image, " (use --synthetic KIND --width W --height H)");
    }
};

// blur --border/--variant: the whole image on the device, for each variant and radius asked
// for, each verified against the reference and judged against the copy kernel on the same bytes
// in the same run (and, with --compare-opencv, against cv::blur on the same image).
struct WholeBlur {
    std::vector<BlurVariant> variants{BlurVariant::Auto};
    std::vector<int> radii{1};
    BorderMode border = BorderMode::Reflect101;
    BlurTuning tuning;
    int repeats = 5;
    bool compareOpenCv = false;
    std::string device;
    std::optional<std::string> out, csv, json;
};

struct WholeBlurResult {
    DeviceInfo device;
    std::vector<BlurVariantRow> rows;
    HostImage firstOutput;
};

int runWholeBlur(const HostImage& image, const WholeBlur& w, JobRunner& runner) {
    auto outcome = runner.runAndWait([&](JobContext& ctx) -> std::any {
        Device& dev = ctx.devices().select(w.device);
        WholeBlurResult result;
        result.device = dev.info();
        result.rows = runBlurVariants(dev, image, w.radii, w.variants, w.border, w.repeats,
                                      ctx.cancelToken(), w.tuning, [&](BlurVariantRow& row) {
                                          if (!row.run)
                                              return;
                                          if (result.firstOutput.data.empty())
                                              result.firstOutput = std::move(row.run->output);
                                          row.run->output = HostImage{}; // keep the figures only
                                      });
        return result;
    });
    if (auto* e = std::get_if<JobError>(&outcome))
        return report(*e);
    auto& result = std::any_cast<WholeBlurResult&>(std::get<std::any>(outcome));
    // cv::blur on the same image, timed on the host (wall clock, after a warm-up).
    std::optional<TimingStats> cv;
    if (w.compareOpenCv) {
#ifdef HISTLAB_HAVE_OPENCV
        std::vector<double> ms;
        HostImage cvOut = image; // allocated once: the warm-up run touches its pages
        for (int i = 0; i <= w.repeats; ++i) {
            const double t =
                wallClockMs([&] { opencvBoxBlur(image, w.radii.front(), w.border, cvOut); });
            if (i > 0)
                ms.push_back(t);
        }
        cv = summarize(ms);
#endif
    }
    const double cvGbps = cv ? gbPerSecond(2 * image.data.size(), cv->medianMs) : 0;
    printDevice(std::cout, result.device);
    std::cout << "blur " << image.source << ", " << image.width << " x " << image.height << ", "
              << image.channels << " channel(s), " << image.depth << "-bit, border "
              << borderModeName(w.border) << " (GB/s: image bytes read + written)\n";
    std::cout << std::left << std::setw(9) << "variant" << std::right << std::setw(7) << "radius"
              << std::setw(11) << "median ms" << std::setw(10) << "min ms" << std::setw(10)
              << "GB/s" << std::setw(10) << "copy GB/s" << std::setw(8) << "% copy";
    if (cv)
        std::cout << std::setw(11) << "x cv::blur";
    std::cout << "  verified\n";
    int mismatches = 0, ran = 0;
    for (const BlurVariantRow& r : result.rows) {
        std::cout << std::left << std::setw(9)
                  << (r.run ? blurVariantName(r.run->variant) : blurVariantName(r.requested))
                  << std::right << std::setw(7) << r.radius;
        if (!r.run) {
            std::cout << "  " << r.status << ": " << r.detail << '\n';
            continue;
        }
        ++ran;
        const BlurRun& run = *r.run;
        std::cout << std::setw(11) << fixed(run.stats.medianMs, 4) << std::setw(10)
                  << fixed(run.stats.minMs, 4) << std::setw(10) << fixed(run.gbps, 2)
                  << std::setw(10) << (run.copy ? fixed(run.copy->gbps, 2) : "-") << std::setw(8)
                  << fixed(run.percentOfCopy, 1);
        if (cv)
            std::cout << std::setw(11)
                      << (r.radius == w.radii.front() ? fixed(run.gbps / cvGbps, 2) : "-");
        std::cout << "  "
                  << (run.verified ? "yes, byte for byte against the CPU reference"
                                   : "NO - " + run.verifyDetail)
                  << '\n';
        if (!run.verified)
            ++mismatches;
    }
    if (cv)
        std::cout << "cv::blur (host, radius " << w.radii.front() << "): median "
                  << fixed(cv->medianMs, 4) << " ms, min " << fixed(cv->minMs, 4) << " ms, "
                  << fixed(cvGbps, 2) << " GB/s\n";
    if (w.csv || w.json) {
        std::ostringstream c, j;
        c << "variant,radius,border,width,height,channels,depth,median_ms,min_ms,gbps,copy_gbps,"
             "percent_of_copy,opencv_median_ms,opencv_gbps,status,build_options,launch,device,"
             "driver,date\n";
        const std::string date = utcTimestamp();
        j << "{\n  \"tool\": \"histlab-cli blur\",\n  \"date\": " << jsonString(date)
          << ",\n  \"device\": " << jsonString(result.device.name)
          << ",\n  \"driver\": " << jsonString(result.device.driverVersion)
          << ",\n  \"image\": " << jsonString(image.source) << ",\n  \"width\": " << image.width
          << ",\n  \"height\": " << image.height << ",\n  \"channels\": " << image.channels
          << ",\n  \"depth\": " << image.depth << ",\n  \"border\": \"" << borderModeName(w.border)
          << "\",\n  \"repeats\": " << w.repeats;
        if (cv)
            j << ",\n  \"opencv\": {\"radius\": " << w.radii.front()
              << ", \"median_ms\": " << cv->medianMs << ", \"min_ms\": " << cv->minMs
              << ", \"gbps\": " << cvGbps << "}";
        j << ",\n  \"runs\": [";
        bool first = true;
        for (const BlurVariantRow& r : result.rows) {
            const BlurRun* run = r.run ? &*r.run : nullptr;
            const bool cvRow = cv && r.radius == w.radii.front();
            c << (run ? blurVariantName(run->variant) : blurVariantName(r.requested)) << ','
              << r.radius << ',' << borderModeName(w.border) << ',' << image.width << ','
              << image.height << ',' << image.channels << ',' << image.depth << ','
              << (run ? std::to_string(run->stats.medianMs) : "") << ','
              << (run ? std::to_string(run->stats.minMs) : "") << ','
              << (run ? std::to_string(run->gbps) : "") << ','
              << (run && run->copy ? std::to_string(run->copy->gbps) : "") << ','
              << (run ? std::to_string(run->percentOfCopy) : "") << ','
              << (cvRow ? std::to_string(cv->medianMs) : "") << ','
              << (cvRow ? std::to_string(cvGbps) : "") << ',' << statusName(r.status) << ",\""
              << (run ? run->buildOptions : "") << "\",\"" << (run ? run->launch : "") << "\",\""
              << result.device.name << "\",\"" << result.device.driverVersion << "\"," << date
              << '\n';
            j << (first ? "\n" : ",\n") << "    {\"variant\": \""
              << (run ? blurVariantName(run->variant) : blurVariantName(r.requested))
              << "\", \"radius\": " << r.radius << ", \"status\": \"" << statusName(r.status)
              << '"';
            first = false;
            if (!r.detail.empty())
                j << ", \"reason\": " << jsonString(r.detail);
            if (run) {
                j << ", \"build_options\": " << jsonString(run->buildOptions)
                  << ", \"launch\": " << jsonString(run->launch)
                  << ", \"median_ms\": " << run->stats.medianMs
                  << ", \"min_ms\": " << run->stats.minMs << ", \"gbps\": " << run->gbps;
                if (run->copy)
                    j << ", \"copy_gbps\": " << run->copy->gbps
                      << ", \"percent_of_copy\": " << run->percentOfCopy;
            }
            j << "}";
        }
        j << "\n  ]\n}\n";
        try {
            if (w.csv)
                writeFileAtomically(*w.csv, c.str());
            if (w.json)
                writeFileAtomically(*w.json, j.str());
        } catch (const InputError& e) {
            std::cerr << "histlab-cli: " << e.what() << '\n';
            return Input;
        }
    }
    if (w.out) {
        if (result.firstOutput.data.empty() && !image.empty()) {
            std::cerr << "histlab-cli: --out: no variant ran, nothing written\n";
            return DeviceFailure;
        }
        if (!writeImageFile(image.empty() ? image : result.firstOutput, *w.out))
            return Input;
    }
    if (mismatches) {
        std::cerr << "histlab-cli: " << mismatches << " run(s) differ from the CPU reference\n";
        return Mismatch;
    }
    if (!ran && !result.rows.empty()) {
        std::cerr << "histlab-cli: no variant could run\n";
        return DeviceFailure;
    }
    return Ok;
}

// "1,2,4" -> {1, 2, 4}
std::vector<int> parseRadii(const std::string& option, const std::string& text) {
    std::vector<int> radii;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ','))
        radii.push_back(static_cast<int>(parseInt(option, item, 1, 1024)));
    if (radii.empty())
        throw UsageFailure{option + ": needs a radius"};
    return radii;
}

int runBlurCommand(ArgList& args, JobRunner& runner) {
    std::string image, device;
    std::optional<std::string> out;
    int radius = 1, repeats = 5;
    SyntheticImage synthetic;
    bool corners = false, whole = false;
    std::optional<BorderMode> border;
    std::vector<BlurLaunch> launches = allBlurLaunches();
    WholeBlur w;
    while (!args.empty()) {
        const std::string a = args.next();
        try {
            if (a == "--radius") {
                w.radii = parseRadii(a, args.value(a));
                radius = w.radii.front();
            } else if (a == "--launch") {
                const std::string v = args.value(a);
                launches =
                    v == "all" ? allBlurLaunches() : std::vector<BlurLaunch>{parseBlurLaunch(v)};
            } else if (a == "--border") {
                border = parseBorderMode(args.value(a));
                whole = true;
            } else if (a == "--variant") {
                const std::string v = args.value(a);
                w.variants =
                    v == "all" ? allBlurVariants() : std::vector<BlurVariant>{parseBlurVariant(v)};
                whole = true;
            } else if (a == "--rows") {
                w.tuning.rows = static_cast<int>(parseInt(a, args.value(a), 1, 65536));
            } else if (a == "--wg") {
                w.tuning.workGroup = static_cast<int>(parseInt(a, args.value(a), 1, 4096));
            } else if (a == "--packed") {
                w.tuning.packed = static_cast<int>(parseInt(a, args.value(a), 0, 1));
            } else if (a == "--vectors") {
                w.tuning.vectors = static_cast<int>(parseInt(a, args.value(a), 1, 4));
                if (w.tuning.vectors == 3)
                    throw UsageFailure{"--vectors: 1, 2 or 4"};
            } else if (a == "--swar") {
                w.tuning.swar = static_cast<int>(parseInt(a, args.value(a), 0, 1));
            } else if (a == "--serial-rows") {
                w.tuning.serialRows = static_cast<int>(parseInt(a, args.value(a), 0, 1));
            } else if (a == "--compare-opencv") {
#ifndef HISTLAB_HAVE_OPENCV
                throw UsageFailure{"--compare-opencv: this build has no OpenCV "
                                   "(-DHISTLAB_OPENCV=OFF)"};
#endif
                w.compareOpenCv = true;
                whole = true;
            } else if (synthetic.parse(a, args)) {
            } else if (a == "--csv") {
                w.csv = args.value(a);
            } else if (a == "--json") {
                w.json = args.value(a);
            } else if (a == "--corners") {
                corners = true;
            } else if (a == "--out") {
                out = args.value(a);
            } else if (a == "--repeat") {
                repeats = static_cast<int>(parseInt(a, args.value(a), 1, 100000));
            } else if (a == "--device") {
                device = args.value(a);
            } else if (!a.empty() && a[0] == '-') {
                throw UsageFailure{"blur: unknown option '" + a + "' (see --help)"};
            } else if (image.empty()) {
                image = a;
            } else {
                throw UsageFailure{"blur: more than one image given ('" + image + "', '" + a +
                                   "')"};
            }
        } catch (const UsageError& e) {
            throw UsageFailure{e.what()};
        }
    }
    synthetic.check(image, "blur");
    if (w.compareOpenCv && border == BorderMode::Interior)
        throw UsageFailure{"--compare-opencv: OpenCV has no interior-only border (use replicate "
                           "or reflect101)"};
    if (!whole && w.radii.size() > 1)
        throw UsageFailure{"--radius: a list of radii needs --border or --variant"};
    HostImage img;
    try {
        checkOutput("--out", out);
        checkOutput("--csv", w.csv);
        checkOutput("--json", w.json);
        img = synthetic.load(image);
    } catch (const InputError& e) {
        std::cerr << "histlab-cli: " << e.what() << '\n';
        return Input;
    }
    if (whole) {
        w.border = border.value_or(BorderMode::Reflect101);
        w.repeats = repeats;
        w.device = device;
        w.out = out;
        w.tuning.measureCopy = true;
        return runWholeBlur(img, w, runner);
    }
    if (w.csv || w.json)
        throw UsageFailure{"--csv/--json: only with --border or --variant"};
    HostImage gray;
    std::string note;
    {
        HostImage loaded = std::move(img);
        if (loaded.depth == 16) {
            loaded = toHighByte(loaded);
            note = "16-bit image: blurred on the high byte of each value";
        }
        if (loaded.channels == 1) {
            gray = std::move(loaded);
        } else {
            gray.width = loaded.width;
            gray.height = loaded.height;
            gray.channels = 1;
            gray.depth = 8;
            gray.data = lumaPlane(loaded);
            gray.source = loaded.source;
            note = "color image: blurred on its luma (OpenCV's BGR2GRAY)";
        }
    }
    auto outcome = runner.runAndWait([&](JobContext& ctx) -> std::any {
        Device& dev = ctx.devices().select(device);
        return runBlurLaunches(dev, gray, radius, launches, repeats, ctx.cancelToken());
    });
    if (auto* e = std::get_if<JobError>(&outcome))
        return report(*e);
    const auto& results =
        std::any_cast<const std::vector<BlurLaunchResult>&>(std::get<std::any>(outcome));
    std::cout << "blur " << gray.source << ", " << gray.width << " x " << gray.height << ", radius "
              << radius << ", interior " << std::max(0, gray.width - 2 * radius) << " x "
              << std::max(0, gray.height - 2 * radius) << "\n";
    if (!note.empty())
        std::cout << "note: " << note << "\n";
    std::cout << std::left << std::setw(14) << "launch" << std::setw(28) << "build options"
              << std::setw(14) << "range" << std::setw(8) << "local" << std::setw(16) << "status"
              << std::right << std::setw(11) << "median ms" << std::setw(9) << "GB/s"
              << "  verified\n";
    int mismatches = 0;
    const BlurLaunchResult* firstRan = nullptr;
    for (const BlurLaunchResult& r : results) {
        const std::string range =
            r.globalX ? std::to_string(r.globalX) + "x" + std::to_string(r.globalY) : "-";
        const std::string local =
            r.localX ? std::to_string(r.localX) + "x" + std::to_string(r.localY) : "NULL";
        std::cout << std::left << std::setw(14) << blurLaunchName(r.launch) << std::setw(28)
                  << r.buildOptions << std::setw(14) << range << std::setw(8) << local
                  << std::setw(16) << r.status << std::right;
        const bool ran = statusRan(r.status);
        if (ran) {
            std::cout << std::setw(11) << fixed(r.stats.medianMs, 4) << std::setw(9)
                      << fixed(r.gbps, 2) << "  "
                      << (r.status == Status::Verified ? "yes" : "NO - " + r.detail);
            if (!firstRan)
                firstRan = &r;
        }
        std::cout << '\n';
        if (!ran && !r.detail.empty())
            std::cout << "    " << r.detail << '\n';
        if (r.status == Status::Mismatch)
            ++mismatches;
    }
    if (corners) {
        static const char* names[] = {"top-left", "top-right", "bottom-left", "bottom-right"};
        for (const BlurLaunchResult& r : results) {
            if (!statusRan(r.status))
                continue;
            std::cout << "corners of " << blurLaunchName(r.launch)
                      << ": get_global_id, get_local_size, get_enqueued_local_size\n";
            for (int k = 0; k < 4; ++k) {
                const LaunchCorner& c = r.corners[std::size_t(k)];
                std::cout << "  " << std::left << std::setw(13) << names[k] << std::right << "("
                          << c.globalX << ", " << c.globalY << ")  (" << c.localX << ", "
                          << c.localY << ")  "
                          << (c.enqueuedX < 0 ? std::string("n/a (OpenCL C 1.2)")
                                              : "(" + std::to_string(c.enqueuedX) + ", " +
                                                    std::to_string(c.enqueuedY) + ")")
                          << '\n';
            }
        }
    }
    if (out) {
        const BlurLaunchResult* source = firstRan;
        for (const BlurLaunchResult& r : results)
            if (!source && r.status == Status::NotApplicable)
                source = &r;
        if (!source) {
            std::cerr << "histlab-cli: --out: no launch ran, nothing written\n";
            return DeviceFailure;
        }
        if (!writeImageFile(source->output, *out))
            return Input;
    }
    if (mismatches) {
        std::cerr << "histlab-cli: " << mismatches << " launch(es) differ from the CPU reference\n";
        return Mismatch;
    }
    return Ok;
}

// equalize: histogram equalization of an image on the device (histogram, CDF, look-up table,
// gather), each stage timed, the result verified against the CPU reference.
int runEqualizeCommand(ArgList& args, JobRunner& runner) {
    std::string image, device;
    std::optional<std::string> out, csv;
    int repeats = 5;
    bool quiet = false;
    SyntheticImage synthetic;
    while (!args.empty()) {
        const std::string a = args.next();
        if (synthetic.parse(a, args))
            continue;
        if (a == "--out")
            out = args.value(a);
        else if (a == "--csv")
            csv = args.value(a);
        else if (a == "--repeat")
            repeats = static_cast<int>(parseInt(a, args.value(a), 1, 100000));
        else if (a == "--device")
            device = args.value(a);
        else if (a == "--quiet")
            quiet = true;
        else if (!a.empty() && a[0] == '-')
            throw UsageFailure{"equalize: unknown option '" + a + "' (see --help)"};
        else if (image.empty())
            image = a;
        else
            throw UsageFailure{"equalize: more than one image given ('" + image + "', '" + a +
                               "')"};
    }
    synthetic.check(image, "equalize");
    HostImage input;
    try {
        checkOutput("--out", out);
        checkOutput("--csv", csv);
        input = synthetic.load(image);
    } catch (const InputError& e) {
        std::cerr << "histlab-cli: " << e.what() << '\n';
        return Input;
    }
    DeviceInfo info;
    auto outcome = runner.runAndWait([&](JobContext& ctx) -> std::any {
        Device& dev = ctx.devices().select(device);
        info = dev.info();
        return runEqualize(dev, input, repeats, ctx.cancelToken());
    });
    if (auto* e = std::get_if<JobError>(&outcome))
        return report(*e);
    const auto& run = std::any_cast<const EqualizeRun&>(std::get<std::any>(outcome));
    if (!quiet && csv.value_or("") != "-") {
        std::cout << "equalize " << input.source << ", " << input.width << " x " << input.height
                  << ", " << input.channels << " channel(s), " << input.depth << "-bit, "
                  << run.bins << " bins of " << (input.channels == 1 ? "gray" : "luma") << "\n";
        printDevice(std::cout, info);
        std::cout << std::left << std::setw(11) << "stage" << std::right << std::setw(11)
                  << "median ms" << std::setw(11) << "min ms" << '\n';
        const std::pair<const char*, const TimingStats*> stages[] = {
            {"histogram", &run.histogramStats},
            {"cdf", &run.cdfStats},
            {"lut", &run.lutStats},
            {"apply", &run.applyStats},
            {"total", &run.totalStats}};
        for (const auto& [name, stats] : stages) {
            std::cout << std::left << std::setw(11) << name << std::right << std::setw(11)
                      << fixed(stats->medianMs, 4) << std::setw(11) << fixed(stats->minMs, 4);
            if (stats == &run.applyStats)
                std::cout << "  " << fixed(run.applyGbps, 2) << " GB/s (bytes read + written)";
            std::cout << '\n';
        }
        std::cout << "verified: "
                  << (run.verified ? "yes, byte for byte against the CPU reference"
                                   : "NO - " + run.verifyDetail)
                  << '\n';
    }
    // Written on a mismatch too: the exit code says it differs, the files show what the device
    // produced.
    try {
        if (csv) {
            std::ostringstream c;
            c << "bin,count,cdf\n";
            for (std::size_t b = 0; b < run.histogram.size(); ++b)
                c << b << ',' << run.histogram[b] << ',' << run.cdf[b] << '\n';
            writeFileAtomically(*csv, c.str());
        }
    } catch (const InputError& e) {
        std::cerr << "histlab-cli: " << e.what() << '\n';
        return Input;
    }
    if (out && !writeImageFile(run.output, *out))
        return Input;
    if (!run.verified) {
        std::cerr << "histlab-cli: verification failed: " << run.verifyDetail << '\n';
        return Mismatch;
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
        if (command == "histogram")
            return runHistogramCommand(args, runner);
        if (command == "blur")
            return runBlurCommand(args, runner);
        return runEqualizeCommand(args, runner);
    } catch (const UsageFailure& f) {
        std::cerr << "histlab-cli: " << f.message << '\n';
        return Usage;
    }
}

} // namespace histlab::cli
