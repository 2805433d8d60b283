// histlab-cli: HistLab's work without a display. Wiring only: parse, submit a job to the core's
// runner, print and write what comes back. Exit codes are documented in --help and README.
#include "blur.h"
#include "device.h"
#include "errors.h"
#include "experiment.h"
#include "histogram256.h"
#include "histogramstats.h"
#include "image.h"
#include "kernelsource.h"
#include "log.h"
#include "report.h"
#include "runner.h"
#ifdef HISTLAB_HAVE_OPENCV
#include "imageio.h"
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

namespace {

enum Exit { Ok = 0, Mismatch = 1, Usage = 2, Input = 3, DeviceFailure = 4 };

const char* kHelp = R"(histlab-cli - OpenCL histograms, measured and verified, without a display

Usage:
  histlab-cli [--kernel-dir DIR] [--verbose] COMMAND [options]
  histlab-cli devices [--json]
  histlab-cli histogram (IMAGE | --synthetic KIND (--size MIB | --bytes N)) [options]
  histlab-cli sweep banks|reads|groups|stages|atomics [options]
  histlab-cli blur IMAGE [--radius R] [--launch L|all] [--corners] [--out FILE] [options]
  histlab-cli blur IMAGE --border MODE [--radius R] [--out FILE] [options]

Commands:
  devices            every OpenCL device with its index, properties and probe results
                     (non-uniform work-groups, work_group_scan_exclusive_add); --json for JSON
  histogram          256-bin histograms of an image file or of synthetic bytes
  blur               the reference text's launches of a box blur of the interior (8-bit gray;
                     a color image's luma, a 16-bit image's high byte), each verified against
                     the CPU reference byte for byte
  sweep              an experiment: a grid of kernel configurations x distributions x
                     devices, each point timed, judged against the same run's read-only
                     kernel and verified; points stream to stderr as they finish

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
  --out FILE         the blurred image (of the first launch that ran, or of --border)
  --repeat N         timed runs after a warm-up (default 5)
  --device SEL       as for histogram

Global options:
  --kernel-dir DIR   read kernels/NAME.cl from DIR instead of the embedded copies
  --verbose          log the chosen device, build options and build logs to stderr
  --help, --version

Exit codes:
  0  success
  1  verification mismatch (the device result differs from the CPU reference; for sweep:
     any point)
  2  usage error: unknown command or option, a bad value, an unknown --device, --banks that
     is not a power of two or does not fit local memory, a --wg the device refuses, a
     --region outside the image
  3  input error: a missing, empty, truncated, unsupported or non-image file, a folder, a size
     of 0, an output file that cannot be written
  4  device error: no OpenCL device, an OpenCL call that failed, a kernel that does not build
     (for sweep: when no point could run at all; single points that cannot run are reported
     as unsupported or failed and the sweep goes on)
)";

struct UsageFailure {
    std::string message;
};

class Args {
public:
    Args(int argc, char** argv) {
        for (int i = 1; i < argc; ++i)
            m_args.emplace_back(argv[i]);
    }
    bool empty() const { return m_pos >= m_args.size(); }
    std::string next() { return m_args[m_pos++]; }
    std::string value(const std::string& option) {
        if (empty())
            throw UsageFailure{option + ": needs a value"};
        return next();
    }

private:
    std::vector<std::string> m_args;
    std::size_t m_pos = 0;
};

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

/// An output path given on the command line, checked before any work so that a bad one costs
/// nothing: InputError when it is empty or its folder cannot be written.
void checkOutput(const char* option, const std::optional<std::string>& path) {
    if (!path)
        return;
    if (path->empty())
        throw InputError(std::string(option) + ": the output path is empty");
    checkWritable(*path);
}

/// An image file through the OpenCV loader; InputError in a build without it (-DHISTLAB_OPENCV=
/// OFF), `instead` saying what to use then.
HostImage loadImageFile(const std::string& path, const std::string& instead = {}) {
#ifdef HISTLAB_HAVE_OPENCV
    (void)instead;
    return loadImage(path);
#else
    throw InputError(path + ": this build has no image loader (built with -DHISTLAB_OPENCV=OFF)" +
                     instead);
#endif
}

/// Writes an image through a temporary file and a rename; false (with the reason on stderr)
/// when it cannot. Only reached in builds with the loader (an image had to be read first).
bool writeImageFile(const HostImage& image, const std::string& path) {
#ifdef HISTLAB_HAVE_OPENCV
    try {
        saveImage(image, path);
        return true;
    } catch (const InputError& e) {
        std::cerr << "histlab-cli: " << e.what() << '\n';
        return false;
    }
#else
    (void)image;
    std::cerr << "histlab-cli: " << path << ": this build cannot write images\n";
    return false;
#endif
}

int exitFor(const JobError& e) {
    switch (e.kind) {
    case JobError::Kind::Usage:
        return Usage;
    case JobError::Kind::Input:
        return Input;
    case JobError::Kind::Cancelled:
    case JobError::Kind::Device:
    case JobError::Kind::Build:
    case JobError::Kind::Unsupported:
    case JobError::Kind::Internal:
        return DeviceFailure;
    }
    return DeviceFailure;
}

int report(const JobError& e) {
    std::cerr << "histlab-cli: " << e.message << '\n';
    return exitFor(e);
}

std::string fixed(double v, int digits) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
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

int runDevices(Args& args, JobRunner& runner) {
    bool json = false;
    while (!args.empty()) {
        const std::string a = args.next();
        if (a == "--json")
            json = true;
        else
            throw UsageFailure{"devices: unknown option '" + a + "'"};
    }
    using Listing = std::pair<std::vector<DeviceInfo>, std::vector<Capabilities>>;
    auto outcome = runner.runAndWait([](JobContext& ctx) -> std::any {
        Listing l;
        l.first = ctx.devices().infos();
        for (const auto& d : l.first)
            l.second.push_back(ctx.devices().open(d.index).capabilities());
        return l;
    });
    if (auto* e = std::get_if<JobError>(&outcome))
        return report(*e);
    const auto& [infos, caps] = std::any_cast<const Listing&>(std::get<std::any>(outcome));
    if (json) {
        std::cout << devicesJson(infos, caps);
        return Ok;
    }
    for (std::size_t i = 0; i < infos.size(); ++i) {
        const auto& d = infos[i];
        printDevice(std::cout, d);
        std::cout << "  " << d.deviceVersion << ", " << d.openclCVersion << ", max work-group "
                  << d.maxWorkGroupSize << ", max buffer " << (d.maxAllocBytes >> 20)
                  << " MiB, global memory " << (d.globalMemBytes >> 20) << " MiB\n"
                  << "  non-uniform work-groups: " << (caps[i].nonUniformWorkGroups ? "yes" : "no")
                  << " (" << caps[i].nonUniformDetail << ")\n"
                  << "  work_group_scan_exclusive_add: " << (caps[i].workGroupScan ? "yes" : "no")
                  << " (" << caps[i].workGroupScanDetail << ")\n";
    }
    return Ok;
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

int runHistogramCommand(Args& args, JobRunner& runner) {
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

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> items;
    std::string item;
    std::istringstream in(text);
    while (std::getline(in, item, ','))
        if (!item.empty())
            items.push_back(item);
    return items;
}

std::string readTextFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path + ": cannot be read");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
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

int runSweepCommand(Args& args, JobRunner& runner) {
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
        mismatches += p.status == "mismatch" ? 1 : 0;
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

// blur --border: the whole image, as it is, on the device; verified against the reference.
int runBorderBlur(const std::string& path, BorderMode border, int radius, int repeats,
                  const std::string& device, const std::optional<std::string>& out,
                  JobRunner& runner) {
    HostImage image;
    try {
        checkOutput("--out", out);
        image = loadImageFile(path);
    } catch (const InputError& e) {
        std::cerr << "histlab-cli: " << e.what() << '\n';
        return Input;
    }
    auto outcome = runner.runAndWait([&](JobContext& ctx) -> std::any {
        return runBoxBlur(ctx.devices().select(device), image, radius, border, repeats,
                          ctx.cancelToken());
    });
    if (auto* e = std::get_if<JobError>(&outcome))
        return report(*e);
    const auto& run = std::any_cast<const BlurRun&>(std::get<std::any>(outcome));
    std::cout << "blur " << path << ", " << image.width << " x " << image.height << ", "
              << image.channels << " channel(s), " << image.depth << "-bit, radius " << radius
              << ", border " << borderModeName(border) << "\n"
              << "median " << fixed(run.stats.medianMs, 4) << " ms, min "
              << fixed(run.stats.minMs, 4) << " ms, " << fixed(run.gbps, 2)
              << " GB/s (bytes read + written)\n"
              << "verified: "
              << (run.verified ? "yes, byte for byte against the CPU reference"
                               : "NO - " + run.verifyDetail)
              << "\n";
    if (out && !writeImageFile(run.output, *out))
        return Input;
    return run.verified ? Ok : Mismatch;
}

int runBlurCommand(Args& args, JobRunner& runner) {
    std::string image, device;
    std::optional<std::string> out;
    int radius = 1, repeats = 5;
    bool corners = false;
    std::optional<BorderMode> border;
    std::vector<BlurLaunch> launches = allBlurLaunches();
    while (!args.empty()) {
        const std::string a = args.next();
        try {
            if (a == "--radius") {
                radius = static_cast<int>(parseInt(a, args.value(a), 1, 1024));
            } else if (a == "--launch") {
                const std::string v = args.value(a);
                launches =
                    v == "all" ? allBlurLaunches() : std::vector<BlurLaunch>{parseBlurLaunch(v)};
            } else if (a == "--border") {
                border = parseBorderMode(args.value(a));
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
    if (image.empty())
        throw UsageFailure{"blur: which image? (histlab-cli blur IMAGE ...)"};
    HostImage gray;
    std::string note;
    if (border)
        return runBorderBlur(image, *border, radius, repeats, device, out, runner);
    try {
        checkOutput("--out", out);
        HostImage loaded = loadImageFile(image);
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
    } catch (const InputError& e) {
        std::cerr << "histlab-cli: " << e.what() << '\n';
        return Input;
    }
    auto outcome = runner.runAndWait([&](JobContext& ctx) -> std::any {
        Device& dev = ctx.devices().select(device);
        return runBlurLaunches(dev, gray, radius, launches, repeats, ctx.cancelToken());
    });
    if (auto* e = std::get_if<JobError>(&outcome))
        return report(*e);
    const auto& results =
        std::any_cast<const std::vector<BlurLaunchResult>&>(std::get<std::any>(outcome));
    std::cout << "blur " << image << ", " << gray.width << " x " << gray.height << ", radius "
              << radius << ", interior " << std::max(0, gray.width - 2 * radius) << " x "
              << std::max(0, gray.height - 2 * radius) << "\n";
    if (!note.empty())
        std::cout << "note: " << note << "\n";
    std::cout << std::left << std::setw(14) << "launch" << std::setw(28) << "build options"
              << std::setw(14) << "range" << std::setw(8) << "local" << std::setw(13) << "outcome"
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
                  << std::setw(13) << r.outcome << std::right;
        if (r.outcome == "ran") {
            std::cout << std::setw(11) << fixed(r.stats.medianMs, 4) << std::setw(9)
                      << fixed(r.gbps, 2) << "  "
                      << (r.verified.value_or(false) ? "yes" : "NO - " + r.verifyDetail);
            if (!firstRan)
                firstRan = &r;
        }
        std::cout << '\n';
        if (!r.detail.empty())
            std::cout << "    " << r.detail << '\n';
        if (r.verified && !*r.verified)
            ++mismatches;
    }
    if (corners) {
        static const char* names[] = {"top-left", "top-right", "bottom-left", "bottom-right"};
        for (const BlurLaunchResult& r : results) {
            if (r.outcome != "ran")
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
            if (!source && r.outcome == "empty")
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

} // namespace

int main(int argc, char** argv) {
    Args args(argc, argv);
    try {
        std::string command;
        while (!args.empty()) {
            const std::string a = args.next();
            if (a == "--help" || a == "-h") {
                std::cout << kHelp;
                return Ok;
            }
            if (a == "--version") {
                std::cout << "histlab-cli 0.1.0\n";
                return Ok;
            }
            if (a == "--verbose" || a == "-v") {
                setLogLevel(LogLevel::Info);
            } else if (a == "--kernel-dir") {
                try {
                    setKernelDir(args.value(a));
                } catch (const UsageError& e) {
                    throw UsageFailure{e.what()};
                }
            } else if (!a.empty() && a[0] == '-') {
                throw UsageFailure{"unknown option '" + a + "' (see histlab-cli --help)"};
            } else {
                command = a;
                break;
            }
        }
        JobRunner runner;
        if (command == "devices")
            return runDevices(args, runner);
        if (command == "histogram")
            return runHistogramCommand(args, runner);
        if (command == "sweep")
            return runSweepCommand(args, runner);
        if (command == "blur")
            return runBlurCommand(args, runner);
        if (command.empty())
            throw UsageFailure{"no command given (devices, histogram, sweep, blur; see --help)"};
        throw UsageFailure{"unknown command '" + command +
                           "' (devices, histogram, sweep, blur; see --help)"};
    } catch (const UsageFailure& f) {
        std::cerr << "histlab-cli: " << f.message << '\n';
        return Usage;
    }
}
