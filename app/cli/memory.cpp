// histlab-cli reverse | memory: the memory lab (issue 6) without a display. Wiring only: parse,
// run the core's job on the runner, print and write what comes back. The metrics are defined in
// core/reverse.h, core/transfer.h and core/bandwidth.h.
#include "cli/memory.h"

#include "cli/support.h"
#include "pipelines/transfer/transfer.h"

namespace histlab::cli {
namespace {

// Output paths are checked before any work: a bad one costs nothing.
void checkOutputs(const std::optional<std::string>& csv, const std::optional<std::string>& json) {
    checkOutput("--csv", csv);
    checkOutput("--json", json);
}

// Written on a mismatch too: the exit code says it differs, the files show what ran.
bool writeOutputs(const std::optional<std::string>& csv, const std::string& csvText,
                  const std::optional<std::string>& json, const std::string& jsonText) {
    try {
        if (csv)
            writeFileAtomically(*csv, csvText);
        if (json)
            writeFileAtomically(*json, jsonText);
        return true;
    } catch (const InputError& e) {
        std::cerr << "histlab-cli: " << e.what() << '\n';
        return false;
    }
}

void printDevice(std::ostream& out, const DeviceInfo& d) {
    out << "device " << d.index << ": " << d.name << " [" << deviceTypeName(d.type) << "], "
        << d.platformName << ", driver " << d.driverVersion << ", " << d.computeUnits
        << " compute units, " << d.localMemBytes / 1024 << " KiB local memory\n";
}

// ---------------------------------------------------------------------------------------------
// memory

const char* elementType(int width) {
    switch (width) {
    case 1:
        return "uint";
    case 2:
        return "uint2";
    case 4:
        return "uint4";
    case 8:
        return "uint8";
    case 16:
        return "uint16";
    }
    return "?";
}

void printCeilings(std::ostream& out, const CeilingSweep& c) {
    out << "bandwidth ceilings on " << formatByteSize(c.bytes)
        << " of random bytes (read: bytes read; copy: bytes read + written; GB/s of the median)\n";
    out << std::left << std::setw(8) << "element" << std::right << std::setw(7) << "bytes"
        << std::setw(12) << "read GB/s" << std::setw(12) << "copy GB/s"
        << "  status\n";
    for (const WidthCeiling& w : c.widths) {
        out << std::left << std::setw(8) << elementType(w.width) << std::right << std::setw(7)
            << 4 * w.width;
        if (statusRan(w.status))
            out << std::setw(12) << fixed(w.read.gbps, 2) << std::setw(12) << fixed(w.copy.gbps, 2);
        else
            out << std::setw(12) << "-" << std::setw(12) << "-";
        out << "  " << statusName(w.status) << (w.detail.empty() ? "" : ": " + w.detail) << '\n';
    }
    if (c.bestReadWidth > 0)
        out << "best width: read " << elementType(c.bestReadWidth) << " ("
            << fixed(c.bestReadGbps, 2) << " GB/s), copy " << elementType(c.bestCopyWidth) << " ("
            << fixed(c.bestCopyGbps, 2) << " GB/s)\n";
}

void printTransfers(std::ostream& out, const TransferSweep& t) {
    out << "transfers (latency: host wall time of one blocking transfer; GB/s: bytes / median "
           "latency; device ms: event profiling)\n";
    out << std::left << std::setw(14) << "kind" << std::right << std::setw(11) << "size"
        << std::setw(12) << "median ms" << std::setw(11) << "min ms" << std::setw(11) << "device ms"
        << std::setw(10) << "GB/s"
        << "  status\n";
    for (const TransferPoint& p : t.points) {
        out << std::left << std::setw(14) << transferKindName(p.kind) << std::right << std::setw(11)
            << formatByteSize(p.bytes);
        if (statusRan(p.status))
            out << std::setw(12) << fixed(p.wall.medianMs, 4) << std::setw(11)
                << fixed(p.wall.minMs, 4) << std::setw(11) << fixed(p.profiled.medianMs, 4)
                << std::setw(10) << fixed(p.gbps, 2);
        else
            out << std::setw(12) << "-" << std::setw(11) << "-" << std::setw(11) << "-"
                << std::setw(10) << "-";
        out << "  " << statusName(p.status) << (p.detail.empty() ? "" : ": " + p.detail) << '\n';
    }
    // Pinned against pageable at the largest size, where the bandwidth (not latency) shows.
    const auto ratio = [&](TransferKind pinned, TransferKind pageable, const char* what) {
        const TransferPoint* a = t.largest(pinned);
        const TransferPoint* b = t.largest(pageable);
        if (a && b && statusRan(a->status) && statusRan(b->status) && b->gbps > 0)
            out << "pinned / pageable " << what << " at " << formatByteSize(a->bytes) << ": x"
                << fixed(a->gbps / b->gbps, 2) << " (" << fixed(a->gbps, 2) << " / "
                << fixed(b->gbps, 2) << " GB/s)\n";
    };
    ratio(TransferKind::HostToDevicePinned, TransferKind::HostToDevicePageable, "host->device");
    ratio(TransferKind::DeviceToHostPinned, TransferKind::DeviceToHostPageable, "device->host");
    if (t.launch) {
        if (t.launch->ran)
            out << "kernel launch latency (do_nothing, 1 work-item, median of "
                << t.launch->wall.samplesMs.size() << "): " << fixed(t.launch->profiled.medianMs, 4)
                << " ms on the device (profiled), " << fixed(t.launch->wall.medianMs, 4)
                << " ms enqueue + finish on the host (min " << fixed(t.launch->wall.minMs, 4)
                << ")\n";
        else
            out << "kernel launch latency: failed: " << t.launch->detail << '\n';
    }
}

int runMemoryLabCommand(ArgList& args, JobRunner& runner) {
    std::optional<std::string> csv, json;
    std::optional<std::uint64_t> maxSize, minSize, ceilingSize;
    std::string device;
    bool ceilings = false, transfers = false, quiet = false;
    int repeats = 5;
    while (!args.empty()) {
        const std::string a = args.next();
        if (a == "--ceilings")
            ceilings = true;
        else if (a == "--transfers")
            transfers = true;
        else if (a == "--max-size")
            maxSize = parseSize(a, args.value(a));
        else if (a == "--min-size")
            minSize = parseSize(a, args.value(a));
        else if (a == "--ceiling-size")
            ceilingSize = parseSize(a, args.value(a));
        else if (a == "--repeat")
            repeats = parseCount(a, args.value(a), 1, 100000);
        else if (a == "--device")
            device = args.value(a);
        else if (a == "--csv")
            csv = args.value(a);
        else if (a == "--json")
            json = args.value(a);
        else if (a == "--quiet")
            quiet = true;
        else
            throw UsageFailure{"memory: unknown option or argument '" + a + "' (see --help)"};
    }
    if (!ceilings && !transfers)
        ceilings = transfers = true;
    if (maxSize && *maxSize == 0)
        throw UsageFailure{"--max-size: must be at least 1 byte"};
    if (minSize && *minSize == 0)
        throw UsageFailure{"--min-size: must be at least 1 byte"};
    try {
        checkOutputs(csv, json);
    } catch (const InputError& e) {
        std::cerr << "histlab-cli: " << e.what() << '\n';
        return Input;
    }
    auto outcome = runner.runAndWait([&](JobContext& ctx) -> std::any {
        Device& dev = ctx.devices().select(device);
        MemoryRun run;
        run.device = dev.info();
        const DeviceInfo& info = run.device;
        // Every size is checked before any work.
        if (maxSize && *maxSize > info.maxAllocBytes)
            throw UsageError("--max-size", std::to_string(*maxSize) +
                                               " bytes do not fit one buffer of " + info.name +
                                               " (at most " + std::to_string(info.maxAllocBytes) +
                                               " bytes)");
        // Ceilings: 256 MiB on a GPU, 64 MiB elsewhere by default; never above --max-size.
        const std::uint64_t ceilingBytes = std::min(
            ceilingSize.value_or(std::uint64_t(info.type == DeviceType::Gpu ? 256 : 64) << 20),
            maxSize.value_or(~std::uint64_t(0)));
        if (ceilings && ceilingBytes < 64)
            throw UsageError(ceilingSize ? "--ceiling-size" : "--max-size",
                             "the ceilings need at least 64 bytes");
        TransferSpec spec;
        spec.repeats = repeats;
        spec.maxBytes = maxSize.value_or(defaultTransferMax(info));
        spec.minBytes = minSize.value_or(std::min(spec.minBytes, spec.maxBytes));
        if (transfers && spec.minBytes > spec.maxBytes)
            throw UsageError("--min-size", std::to_string(spec.minBytes) +
                                               " bytes is above --max-size (" +
                                               std::to_string(spec.maxBytes) + " bytes)");
        if (ceilings) {
            run.ceilings =
                measureCeilingWidths(dev, std::size_t(ceilingBytes), repeats, ctx.cancelToken());
            if (!quiet)
                for (const WidthCeiling& w : run.ceilings->widths)
                    std::cerr << "ceiling " << elementType(w.width) << ": " << statusName(w.status)
                              << '\n';
        }
        if (transfers)
            run.transfers = runTransfers(dev, spec, ctx.cancelToken(), [&](const TransferPoint& p) {
                if (!quiet)
                    std::cerr << transferKindName(p.kind) << ' ' << formatByteSize(p.bytes) << ": "
                              << statusName(p.status) << '\n';
            });
        return run;
    });
    if (auto* e = std::get_if<JobError>(&outcome))
        return report(*e);
    const auto& run = std::any_cast<const MemoryRun&>(std::get<std::any>(outcome));
    if (!writeOutputs(csv, memoryCsv(run), json, memoryJson(run)))
        return Input;
    std::size_t ran = 0, mismatches = 0;
    const auto count = [&](Status s) {
        ran += statusRan(s) ? 1 : 0;
        mismatches += s == Status::Mismatch ? 1 : 0;
    };
    if (run.ceilings)
        for (const WidthCeiling& w : run.ceilings->widths)
            count(w.status);
    if (run.transfers)
        for (const TransferPoint& p : run.transfers->points)
            count(p.status);
    if (!quiet && csv.value_or("") != "-" && json.value_or("") != "-") {
        std::cout << "memory lab\n";
        printDevice(std::cout, run.device);
        if (run.ceilings)
            printCeilings(std::cout, *run.ceilings);
        if (run.transfers)
            printTransfers(std::cout, *run.transfers);
    }
    if (mismatches) {
        std::cerr << "histlab-cli: verification failed: " << mismatches
                  << " measurement(s) did not deliver the source's bytes (see status mismatch)\n";
        return Mismatch;
    }
    if (ran == 0) {
        std::cerr << "histlab-cli: no measurement could run on " << run.device.name << '\n';
        return DeviceFailure;
    }
    return Ok;
}

} // namespace

bool isMemoryCommand(const std::string& command) {
    return command == "memory";
}

int runMemoryCommand(const std::string& command, const std::vector<std::string>& args,
                     JobRunner& runner) {
    ArgList list(args);
    try {
        (void)command;
        return runMemoryLabCommand(list, runner);
    } catch (const UsageFailure& f) {
        std::cerr << "histlab-cli: " << f.message << '\n';
        return Usage;
    }
}

} // namespace histlab::cli
