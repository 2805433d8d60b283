#pragma once
// The memory lab's measurements of one device (histlab-cli memory, the Memory tab): the
// read-only and copy ceilings per vector width (pipelines/bandwidth/bandwidth.h), then the
// host<->device and device->device transfers over a size sweep and the kernel launch latency
// (pipelines/transfer/transfer.h). The buffer reversal is its own family (pipelines/reverse).
//
// Metrics, each defined in its module: ceilings, read: bytes read / median kernel time; copy:
// bytes read + bytes written / median kernel time (event profiling). Transfers: latency = host
// wall time of one blocking transfer, GB/s = bytes transferred (once) / median latency. Launch:
// do_nothing as one work-item, event-profiled start to end and host wall time of enqueue +
// finish.
#include "pipelines/bandwidth/bandwidth.h"
#include "pipelines/transfer/transfer.h"
#include "runtime/cancel.h"
#include "runtime/device.h"
#include "runtime/runner.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>

namespace histlab {

/// What a person asks of the memory lab: histlab-cli memory's options, the Memory tab's
/// ceilings and transfers.
struct MemoryLabParams {
    bool ceilings = false;  ///< the ceilings per vector width
    bool transfers = false; ///< the transfer sweep and the launch latency (neither: both)
    std::optional<std::uint64_t> maxBytes;     ///< --max-size: the largest transfer
    std::optional<std::uint64_t> minBytes;     ///< --min-size: the smallest transfer
    std::optional<std::uint64_t> ceilingBytes; ///< --ceiling-size: the ceilings' buffer
    int repeats = 5;
};

/// What runs: the ceilings on `ceilingBytes` (when set), then the transfer sweep (when set).
struct MemoryLabPlan {
    std::optional<std::size_t> ceilingBytes;
    std::optional<TransferSpec> transfers;
    int repeats = 5;
};

/// The ceilings' default buffer on `device`: 256 MiB on a GPU, 64 MiB on any other device
/// (beyond their caches), never above its largest buffer.
std::uint64_t defaultCeilingBytes(const DeviceInfo& device);

/// What runs of `params` on `device`, every size settled and checked before any work:
///   - the parts: the ceilings, the transfers, or both when neither is asked for;
///   - the largest transfer: maxBytes, or defaultTransferMax (256 MiB on a CPU device, 1 GiB on
///     any other, at most the largest buffer: past the caches, without minutes of PoCL's time);
///     the smallest: minBytes, or 4 KiB (at most the largest);
///   - the ceilings' buffer: ceilingBytes or defaultCeilingBytes, never above maxBytes.
/// Throws UsageError("--max-size") for a largest transfer that does not fit one buffer,
/// ("--min-size") above the largest, ("--ceiling-size" or "--max-size", whichever set it) for
/// ceilings on fewer than 64 bytes, ("--repeat") for no timed run. A ceiling buffer above the
/// device's largest is measureCeilingWidths's to refuse, as the run's first step.
MemoryLabPlan planMemoryLab(const DeviceInfo& device, const MemoryLabParams& params);

/// What the memory lab measured on one device: either part may be absent.
struct MemoryRun {
    DeviceInfo device;
    std::optional<CeilingSweep> ceilings;
    std::optional<TransferSweep> transfers;
};

/// One measurement as it arrives: a width of the ceilings, a transfer point, the launch.
using MemoryLabItem = std::variant<WidthCeiling, TransferPoint, LaunchLatency>;

/// Runs a plan on one device: the ceilings (each width reported when the sweep is done), then
/// the transfers (each point as it arrives) and the launch latency. One measurement that cannot
/// run is a row with that status; throws only what the plan would (for a plan made elsewhere)
/// and CancelledError.
MemoryRun runMemoryLab(Device& device, const MemoryLabPlan& plan, const CancelToken& cancel = {},
                       const std::function<void(const MemoryLabItem&)>& onItem = {});

/// One line for a measurement as it arrives: "ceiling uint4: verified",
/// "h2d-pinned 64 KiB: verified", "launch latency: timed".
std::string describeMemoryLabItem(const MemoryLabItem& item);

/// The steps a run of `plan` counts in its progress: the ceilings (one), each transfer point and
/// the launch latency.
std::size_t memoryLabSteps(const MemoryLabPlan& plan);

/// histlab-cli memory's run and the memory lab's: runMemoryLab with the job's progress; each
/// MemoryLabItem goes to `onItem` as it comes.
MemoryRun runMemoryLabJob(JobContext& ctx, Device& device, const MemoryLabPlan& plan,
                          const ItemSink& onItem);

/// The report histlab-cli memory prints: the device, the ceilings per width with the best, the
/// transfers with pinned against pageable at the largest size, the launch latency.
std::string memoryText(const MemoryRun& run);

/// One row per measurement: section (ceiling, transfer, launch), kind, width, bytes, median_ms,
/// min_ms, profiled_median_ms, gbps, status, detail.
std::string memoryCsv(const MemoryRun& run);

/// The whole run: device, metrics, ceilings per width with the best, transfer points, launch.
std::string memoryJson(const MemoryRun& run);

} // namespace histlab
