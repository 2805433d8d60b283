// The transfers as the dashboard sees them: one entry per kind ("h2d-pageable" ... "d2d") at the
// dashboard's size. They have no command of their own: histlab-cli memory sweeps them over sizes
// (pipelines/memorylab). Metric (transfer.h): bytes transferred / median host wall time of the
// blocking call; device->device counts bytes read + written and is judged against the copy
// ceiling on the same bytes in the same run; the host transfers have no device ceiling.
#include "pipelines/pipeline.h"
#include "pipelines/transfer/transfer.h"

namespace histlab {

namespace {

/// The copy ceiling on `bytes` random bytes (nothing a memory system could compress).
CeilingResult copyCeiling(Device& device, std::size_t bytes, int repeats,
                          const CancelToken& cancel) {
    return measureCopyCeiling(device, randomDeviceBuffer(device, bytes, cancel), bytes, repeats,
                              cancel);
}

DashboardPipeline transferDashboardEntry(TransferKind kind) {
    const bool d2d = kind == TransferKind::DeviceToDevice;
    return {transferKindName(kind),
            d2d ? "device->device copy (clEnqueueCopyBuffer, pipelines/transfer/transfer.h), "
                  "verified; bytes read + written, against the copy kernel"
                : std::string("the ") + transferKindName(kind) +
                      " transfer of pipelines/transfer/transfer.h (host wall clock of the "
                      "blocking call), verified; bytes transferred; no device ceiling",
            [kind, d2d](Device& device, const DashboardOptions& o, const CancelToken& cancel) {
                TransferSpec spec;
                spec.minBytes = spec.maxBytes = o.bytes;
                spec.kinds = {kind};
                spec.repeats = o.repeats;
                spec.launchLatency = false;
                const TransferPoint p = runTransfers(device, spec, cancel).points.at(0);
                DashboardResult r;
                r.variant = formatByteSize(p.bytes);
                r.bytes = d2d ? 2 * p.bytes : p.bytes;
                r.stats = p.wall;
                r.gbps = d2d ? 2 * p.gbps : p.gbps;
                r.ceilingKind = "none";
                if (d2d) // on the same bytes, in the same run
                    r.judgeAgainst("copy", copyCeiling(device, o.bytes, o.repeats, cancel));
                r.status = p.status;
                r.reason = p.detail;
                return std::vector<DashboardResult>{r};
            }};
}

} // namespace

Pipeline transferPipeline() {
    Pipeline p;
    p.name = "transfer";
    p.summary = "host<->device transfers from pageable and pinned memory, device->device copies";
    p.description = "Transfers, each verified byte for byte: GB/s = bytes transferred / median "
                    "host wall time of one blocking call (device->device: bytes read + written, "
                    "against the copy kernel). Swept over sizes by histlab-cli memory; one entry "
                    "per kind in the dashboard.";
    p.reference = "the source's random bytes, compared byte for byte with the destination after "
                  "every run";
    // One entry per kind ("h2d-pinned", ...): a dashboard result stands for one entry.
    for (const TransferKind kind : allTransferKinds())
        p.dashboard.push_back(transferDashboardEntry(kind));
    return p;
}

} // namespace histlab
