// The memory lab as the front ends see it: histlab-cli memory's options, the plan both the CLI
// and the Memory tab run, the report (text, CSV, JSON). The metrics are in memorylab.h.
#include "pipelines/memorylab/memorylab.h"
#include "pipelines/options.h"
#include "pipelines/pipeline.h"
#include "report/files.h"
#include "report/json.h"
#include "report/table.h"
#include "report/text.h"
#include "runtime/errors.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace histlab {

namespace {

/// The OpenCL type of a width's elements: "uint", "uint2" ... "uint16".
std::string elementType(int width) {
    return width == 1 ? std::string("uint") : "uint" + std::to_string(width);
}

/// A launch latency in the one status vocabulary: nothing to verify, so timed; or failed.
Status launchStatus(const LaunchLatency& launch) {
    return launch.ran ? Status::Timed : Status::Failed;
}

Table memoryTable(const MemoryRun& run) {
    Table table({"section", "kind", "width", "bytes", "median_ms", "min_ms", "profiled_median_ms",
                 "gbps", "status", "detail"});
    if (run.ceilings)
        for (const WidthCeiling& c : run.ceilings->widths)
            for (const auto& [kind, r] : {std::pair{"read", &c.read}, std::pair{"copy", &c.copy}})
                table.row()
                    .add("ceiling")
                    .add(kind)
                    .add(c.width)
                    .add(r->bytes)
                    .add(r->stats.medianMs)
                    .add(r->stats.minMs)
                    .add(r->stats.medianMs) // a kernel's time is its profiled time
                    .add(r->gbps)
                    .add(statusName(c.status))
                    .add(c.detail);
    if (run.transfers) {
        for (const TransferPoint& p : run.transfers->points)
            table.row()
                .add("transfer")
                .add(transferKindName(p.kind))
                .skip()
                .add(p.bytes)
                .add(p.wall.medianMs)
                .add(p.wall.minMs)
                .add(p.profiled.medianMs)
                .add(p.gbps)
                .add(statusName(p.status))
                .add(p.detail);
        if (const auto& l = run.transfers->launch)
            table.row()
                .add("launch")
                .add("do_nothing")
                .skip()
                .add(0)
                .add(l->wall.medianMs)
                .add(l->wall.minMs)
                .add(l->profiled.medianMs)
                .add(0)
                .add(statusName(launchStatus(*l)))
                .add(l->detail);
    }
    return table;
}

void ceilingsText(std::ostream& out, const CeilingSweep& c) {
    out << "bandwidth ceilings on " << formatByteSize(c.bytes)
        << " of random bytes (read: bytes read; copy: bytes read + written; GB/s of the median)\n";
    using A = TextTable::Align;
    TextTable table(
        {{"element", A::Left}, {"bytes"}, {"read GB/s"}, {"copy GB/s"}, {"status", A::Left}});
    for (const WidthCeiling& w : c.widths) {
        const bool ran = statusRan(w.status);
        table.add({elementType(w.width), std::to_string(4 * w.width),
                   ran ? fixedText(w.read.gbps, 2) : "-", ran ? fixedText(w.copy.gbps, 2) : "-",
                   statusText(w.status, w.detail)});
    }
    out << table.text();
    if (c.bestReadWidth > 0)
        out << "best width: read " << elementType(c.bestReadWidth) << " ("
            << fixedText(c.bestReadGbps, 2) << " GB/s), copy " << elementType(c.bestCopyWidth)
            << " (" << fixedText(c.bestCopyGbps, 2) << " GB/s)\n";
}

void transfersText(std::ostream& out, const TransferSweep& t) {
    out << "transfers (latency: host wall time of one blocking transfer; GB/s: bytes / median "
           "latency; device ms: event profiling)\n";
    using A = TextTable::Align;
    TextTable table({{"kind", A::Left},
                     {"size"},
                     {"median ms"},
                     {"min ms"},
                     {"device ms"},
                     {"GB/s"},
                     {"status", A::Left}});
    for (const TransferPoint& p : t.points) {
        const bool ran = statusRan(p.status);
        table.add({transferKindName(p.kind), formatByteSize(p.bytes),
                   ran ? fixedText(p.wall.medianMs, 4) : "-",
                   ran ? fixedText(p.wall.minMs, 4) : "-",
                   ran ? fixedText(p.profiled.medianMs, 4) : "-", ran ? fixedText(p.gbps, 2) : "-",
                   statusText(p.status, p.detail)});
    }
    out << table.text();
    // Pinned against pageable at the largest size, where the bandwidth (not latency) shows.
    const auto ratio = [&](TransferKind pinned, TransferKind pageable, const char* what) {
        const TransferPoint* a = t.largest(pinned);
        const TransferPoint* b = t.largest(pageable);
        if (a && b && statusRan(a->status) && statusRan(b->status) && b->gbps > 0)
            out << "pinned / pageable " << what << " at " << formatByteSize(a->bytes) << ": x"
                << fixedText(a->gbps / b->gbps, 2) << " (" << fixedText(a->gbps, 2) << " / "
                << fixedText(b->gbps, 2) << " GB/s)\n";
    };
    ratio(TransferKind::HostToDevicePinned, TransferKind::HostToDevicePageable, "host->device");
    ratio(TransferKind::DeviceToHostPinned, TransferKind::DeviceToHostPageable, "device->host");
    if (t.launch) {
        if (t.launch->ran)
            out << "kernel launch latency (do_nothing, 1 work-item, median of "
                << t.launch->wall.samplesMs.size()
                << "): " << fixedText(t.launch->profiled.medianMs, 4)
                << " ms on the device (profiled), " << fixedText(t.launch->wall.medianMs, 4)
                << " ms enqueue + finish on the host (min " << fixedText(t.launch->wall.minMs, 4)
                << ")\n";
        else
            out << "kernel launch latency: failed: " << t.launch->detail << '\n';
    }
}

/// A byte size of 1 or more (--max-size, --min-size).
std::uint64_t positiveSize(const std::string& option, const std::string& text) {
    const std::uint64_t bytes = parseByteSize(option, text);
    if (bytes == 0)
        throw UsageError(option, "must be at least 1 byte");
    return bytes;
}

} // namespace

std::uint64_t defaultCeilingBytes(const DeviceInfo& device) {
    const std::uint64_t bytes = std::uint64_t(device.type == DeviceType::Gpu ? 256 : 64) << 20;
    return std::min(bytes, device.maxAllocBytes);
}

MemoryLabPlan planMemoryLab(const DeviceInfo& device, const MemoryLabParams& params) {
    const bool both = !params.ceilings && !params.transfers;
    MemoryLabPlan plan;
    plan.repeats = params.repeats;
    if (params.repeats < 1)
        throw UsageError("--repeat", "must be at least 1");
    // --max-size is checked whatever runs: it also caps the ceilings' buffer.
    if (params.maxBytes)
        checkTransferMax(device, *params.maxBytes);
    if (params.ceilings || both) {
        const std::uint64_t bytes =
            std::min(params.ceilingBytes.value_or(defaultCeilingBytes(device)),
                     params.maxBytes.value_or(~std::uint64_t(0)));
        if (bytes < 64)
            throw UsageError(params.ceilingBytes ? "--ceiling-size" : "--max-size",
                             "the ceilings need at least 64 bytes");
        plan.ceilingBytes = std::size_t(bytes);
    }
    if (params.transfers || both) {
        TransferSpec spec;
        spec.repeats = params.repeats;
        spec.maxBytes = params.maxBytes.value_or(defaultTransferMax(device));
        spec.minBytes = params.minBytes.value_or(std::min(spec.minBytes, spec.maxBytes));
        checkTransferSpec(device, spec);
        plan.transfers = spec;
    }
    return plan;
}

std::string describeMemoryLabItem(const MemoryLabItem& item) {
    if (const auto* w = std::get_if<WidthCeiling>(&item))
        return "ceiling " + elementType(w->width) + ": " + statusName(w->status);
    if (const auto* p = std::get_if<TransferPoint>(&item))
        return std::string(transferKindName(p->kind)) + " " + formatByteSize(p->bytes) + ": " +
               statusName(p->status);
    return std::string("launch latency: ") +
           statusName(launchStatus(std::get<LaunchLatency>(item)));
}

std::string memoryText(const MemoryRun& run) {
    std::ostringstream out;
    out << "memory lab\n" << deviceLine(run.device) << '\n';
    if (run.ceilings)
        ceilingsText(out, *run.ceilings);
    if (run.transfers)
        transfersText(out, *run.transfers);
    return out.str();
}

std::string memoryCsv(const MemoryRun& run) {
    return memoryTable(run).csv();
}

std::string memoryJson(const MemoryRun& run) {
    Json root{
        {"tool", "histlab-cli memory"},
        {"date", utcTimestamp()},
        {"device", deviceJson(run.device)},
        {"metric",
         {{"ceilings", "read: bytes read / median kernel time; copy: bytes read + bytes written / "
                       "median kernel time (event profiling)"},
          {"transfers", "latency: host wall time of one blocking transfer; GB/s: bytes "
                        "transferred (once) / median latency"},
          {"launch", "do_nothing, one work-item: event-profiled start to end, and host wall time "
                     "of enqueue + finish"}}}};
    if (run.ceilings) {
        const CeilingSweep& c = *run.ceilings;
        Json widths = Json::array();
        for (const WidthCeiling& w : c.widths)
            widths.push_back({{"width", w.width},
                              {"element_bytes", 4 * w.width},
                              {"status", statusName(w.status)},
                              {"detail", w.detail},
                              {"read", ceilingJson(w.read)},
                              {"copy", ceilingJson(w.copy)}});
        root["ceilings"] = {{"bytes", c.bytes},
                            {"best_read_width", c.bestReadWidth},
                            {"best_read_gbps", c.bestReadGbps},
                            {"best_copy_width", c.bestCopyWidth},
                            {"best_copy_gbps", c.bestCopyGbps},
                            {"widths", std::move(widths)}};
    }
    if (run.transfers) {
        const TransferSweep& t = *run.transfers;
        Json points = Json::array();
        for (const TransferPoint& p : t.points)
            points.push_back({{"kind", transferKindName(p.kind)},
                              {"bytes", p.bytes},
                              {"status", statusName(p.status)},
                              {"detail", p.detail},
                              {"latency", timingJson(p.wall)},
                              {"profiled", timingJson(p.profiled)},
                              {"gbps", p.gbps}});
        root["transfers"] = {{"sizes", t.sizes}, {"points", std::move(points)}};
        if (t.launch)
            root["launch"] = {{"status", statusName(launchStatus(*t.launch))},
                              {"ran", t.launch->ran},
                              {"detail", t.launch->detail},
                              {"profiled", timingJson(t.launch->profiled)},
                              {"wall", timingJson(t.launch->wall)}};
    }
    return jsonText(root);
}

std::size_t memoryLabSteps(const MemoryLabPlan& plan) {
    return (plan.ceilingBytes ? 1 : 0) +
           (plan.transfers
                ? plan.transfers->kinds.size() *
                          transferSizes(plan.transfers->minBytes, plan.transfers->maxBytes).size() +
                      1
                : 0);
}

MemoryRun runMemoryLabJob(JobContext& ctx, Device& device, const MemoryLabPlan& plan,
                          const ItemSink& onItem) {
    const std::size_t total = std::max<std::size_t>(memoryLabSteps(plan), 1);
    std::size_t done = 0;
    const auto step = [&](const std::string& next) {
        ctx.progress(double(done) / double(total), next);
    };
    step(plan.ceilingBytes ? "ceilings per vector width" : "transfers");
    return runMemoryLab(device, plan, ctx.cancelToken(), [&](const MemoryLabItem& item) {
        if (onItem)
            onItem(item);
        // The ceilings' widths arrive together, when the sweep is done: one step.
        const auto* w = std::get_if<WidthCeiling>(&item);
        if (!w || w->width == kCeilingWidths.back())
            ++done;
        step(describeMemoryLabItem(item));
    });
}

Pipeline memoryPipeline() {
    Pipeline p;
    p.name = "memory";
    p.summary = "the memory lab's measurements: read-only and copy ceilings per vector width "
                "(uint ... uint16), host<->device transfers from pageable and pinned memory and "
                "device->device copies over a size sweep, kernel launch latency";
    p.description =
        "The memory lab on one device. Ceilings: the read-only kernel (GB/s = bytes read / "
        "median kernel time) and the copy kernel (bytes read + written) with uint ... uint16 "
        "elements on random bytes, the copy verified byte for byte. Transfers: host->device and "
        "device->host from pageable and pinned memory, device->device, each size doubling from "
        "--min-size to --max-size: latency = host wall time of one blocking transfer, GB/s = "
        "bytes / median latency, every run's bytes verified. Launch latency: an empty kernel of "
        "one work-item.";
    p.reference = "the source's random bytes, compared byte for byte with each copy and transfer";
    using P = MemoryLabParams;
    p.options = {
        flagOption<P>("--ceilings",
                      "the read-only and copy kernels with uint, uint2, uint4, uint8 and uint16 "
                      "elements on random bytes, and the best width of each",
                      [](P& s) { s.ceilings = true; }),
        flagOption<P>("--transfers",
                      "h2d/d2h pageable and pinned, d2d, from --min-size doubling up to "
                      "--max-size (latency and GB/s per size), and the kernel launch latency "
                      "(neither option: both)",
                      [](P& s) { s.transfers = true; }),
        valueOption<P>(
            "--max-size", "BYTES",
            "the largest transfer (default 256M on a CPU device, 1G elsewhere, or the "
            "device's largest buffer if smaller); also caps the ceilings' buffer",
            [](P& s, const std::string& v) { s.maxBytes = positiveSize("--max-size", v); }),
        valueOption<P>(
            "--min-size", "BYTES", "the smallest transfer (default 4K)",
            [](P& s, const std::string& v) { s.minBytes = positiveSize("--min-size", v); }),
        valueOption<P>("--ceiling-size", "BYTES",
                       "the ceilings' buffer (default 256M on a GPU, 64M elsewhere)",
                       [](P& s, const std::string& v) {
                           s.ceilingBytes = parseByteSize("--ceiling-size", v);
                       }),
        repeatOption<P>(&P::repeats, "timed runs after a warm-up (default 5; transfers of 1 MiB "
                                     "or less at least 20)"),
    };
    p.csvHelp = "one row per measurement (section, kind, width, bytes, timings, GB/s, status, "
                "detail)";
    p.jsonHelp = "the whole run: device, metrics, ceilings per width, transfer points, launch";
    bindDevicePipeline<MemoryLabParams, MemoryLabPlan, MemoryRun>(
        p, planMemoryLab, runMemoryLabJob, [](const MemoryRun& run) {
            Report r;
            r.text = memoryText(run);
            r.table = memoryTable(run);
            r.csv = [&run] { return memoryCsv(run); };
            r.json = [&run] { return memoryJson(run); };
            StatusCount count;
            if (run.ceilings)
                count = countStatuses(run.ceilings->widths, count);
            if (run.transfers)
                count = countStatuses(run.transfers->points, count);
            r.verdict =
                count.verdict("measurement(s)", "no measurement could run on " + run.device.name);
            if (r.verdict.kind == Verdict::Kind::Mismatch)
                r.verdict.message = "verification failed: " + std::to_string(count.mismatches) +
                                    " measurement(s) did not deliver the source's bytes (see "
                                    "status mismatch)";
            return r;
        });
    p.describeItem = [](const std::any& item) {
        return describeMemoryLabItem(std::any_cast<const MemoryLabItem&>(item));
    };
    return p;
}

} // namespace histlab
