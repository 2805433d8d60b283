// The memory lab's run: the ceilings per vector width, then the transfer sweep with the launch
// latency, on one device. The metrics are defined at the top of bandwidth.h and transfer.h.
#include "pipelines/memorylab/memorylab.h"

namespace histlab {

MemoryRun runMemoryLab(Device& device, const MemoryLabPlan& plan, const CancelToken& cancel,
                       const std::function<void(const MemoryLabItem&)>& onItem) {
    MemoryRun run;
    run.device = device.info();
    if (plan.ceilingBytes) {
        run.ceilings = measureCeilingWidths(device, *plan.ceilingBytes, plan.repeats, cancel);
        if (onItem)
            for (const WidthCeiling& w : run.ceilings->widths)
                onItem(w);
    }
    if (plan.transfers) {
        run.transfers = runTransfers(device, *plan.transfers, cancel, [&](const TransferPoint& p) {
            if (onItem)
                onItem(p);
        });
        if (onItem && run.transfers->launch)
            onItem(*run.transfers->launch);
    }
    return run;
}

} // namespace histlab
