// The built-in pipelines of the dashboard (dashboard.h): one registration function per module,
// each an adapter from the module's own measured run (which verifies against the CPU reference
// and measures its ceiling on the same device in the same run) to DashboardResults. The metric
// of each is its module's, restated in its description.
#include "pipelines/bandwidth/bandwidth.h"
#include "pipelines/dashboard/dashboard.h"
#include "pipelines/reverse/reverse.h"
#include "pipelines/transfer/transfer.h"
#include "runtime/errors.h"

#include <algorithm>

namespace histlab {

void registerReverseDashboardPipelines() {
    registerDashboardPipeline(
        {"reverse",
         "buffer reversal of random bytes, the fastest verified of the memory lab's kernels "
         "(core/reverse.h); bytes read + written, against the copy kernel",
         [](Device& device, const DashboardOptions& o, const CancelToken& cancel) {
             ReverseSpec spec;
             spec.bytes = std::min<std::uint64_t>(o.bytes, kReverseMaxBytes);
             spec.repeats = o.repeats;
             const ReverseRun run = runReverse(device, spec, cancel);
             DashboardResult r;
             const int best = run.best();
             // No kernel verified: the first one's outcome says why.
             const ReverseResult& chosen =
                 best >= 0 ? run.results[std::size_t(best)] : run.results.front();
             r.variant = chosen.name + (best >= 0 ? " (fastest of " : " (none verified of ") +
                         std::to_string(run.results.size()) + " kernels)";
             r.bytes = 2 * run.bytes;
             r.stats = chosen.stats;
             r.gbps = chosen.gbps;
             r.ceilingKind = "copy";
             r.ceilingGbps = run.copy.gbps;
             r.status = chosen.status;
             r.reason = chosen.detail;
             return std::vector<DashboardResult>{r};
         }});
}

void registerTransferDashboardPipelines() {
    // One pipeline per kind ("h2d-pinned", ...): a dashboard result stands for one pipeline.
    for (const TransferKind kind : allTransferKinds()) {
        const bool d2d = kind == TransferKind::DeviceToDevice;
        registerDashboardPipeline(
            {transferKindName(kind),
             d2d ? "device->device copy (clEnqueueCopyBuffer, core/transfer.h), verified; bytes "
                   "read + written, against the copy kernel"
                 : std::string("the ") + transferKindName(kind) +
                       " transfer of core/transfer.h (host wall clock of the blocking call), "
                       "verified; bytes transferred; no device ceiling",
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
                 r.ceilingKind = d2d ? "copy" : "none";
                 if (d2d) // on the same bytes, in the same run
                     r.ceilingGbps =
                         measureCopyCeiling(device, randomDeviceBuffer(device, o.bytes, cancel),
                                            o.bytes, o.repeats, cancel)
                             .gbps;
                 r.status = p.status;
                 r.reason = p.detail;
                 return std::vector<DashboardResult>{r};
             }});
    }
}

} // namespace histlab
