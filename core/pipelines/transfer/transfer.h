#pragma once
// Transfers (issue 6, the memory lab): host->device and device->host from pageable and pinned
// host memory, device->device copies, over a size sweep (4 KiB ... 1 GiB by default), and the
// latency of launching a kernel.
//
// Metric: latency = host wall-clock milliseconds of one blocking transfer (enqueue to
// completion; median and min over the timed runs after a warm-up); GB/s = bytes transferred
// (counted once) / median latency. For device->device the device reads and writes each byte:
// double the figure to compare it with the copy kernel's (bytes read + bytes written). Each
// point also keeps the command's event-profiled time (the device's view, which leaves out the
// host's staging of pageable memory).
//
//   h2d-pageable  clEnqueueWriteBuffer from ordinary host memory (std::vector, touched first)
//   h2d-pinned    clEnqueueWriteBuffer from the mapped pointer of a CL_MEM_ALLOC_HOST_PTR
//                 buffer (mapped once, outside the timing): memory the driver has pinned
//   d2h-pageable  clEnqueueReadBuffer into ordinary host memory
//   d2h-pinned    clEnqueueReadBuffer into a mapped CL_MEM_ALLOC_HOST_PTR buffer
//   d2d           clEnqueueCopyBuffer between two device buffers
//
// Verification: the source is random bytes. Before each run the destination is filled with
// 0xA5, and after each run (warm-up included) it is compared with the source byte for byte (read
// back for device buffers), both outside the timing: every run must deliver every byte.
//
// Launch latency: kernels/transfer.cl's do_nothing as one work-item: its event-profiled time
// (start to end) and the host's wall clock of enqueue + finish.
#include "pipelines/bandwidth/bandwidth.h"
#include "report/bytesize.h"
#include "runtime/cancel.h"
#include "runtime/device.h"
#include "runtime/timing.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace histlab {

enum class TransferKind {
    HostToDevicePageable,
    HostToDevicePinned,
    DeviceToHostPageable,
    DeviceToHostPinned,
    DeviceToDevice
};

/// "h2d-pageable", "h2d-pinned", "d2h-pageable", "d2h-pinned", "d2d".
const char* transferKindName(TransferKind kind);
/// Throws UsageError("--transfer") for an unknown name.
TransferKind parseTransferKind(const std::string& name);
std::vector<TransferKind> allTransferKinds();

/// The sizes of a sweep: min, 2 min, 4 min ... up to max, and max itself when it is not on
/// that ladder.
std::vector<std::uint64_t> transferSizes(std::uint64_t minBytes, std::uint64_t maxBytes);

/// The default largest transfer: 1 GiB, or the device's largest buffer if smaller.
std::uint64_t defaultTransferMax(const DeviceInfo& device);

struct TransferSpec {
    std::uint64_t minBytes = 4096;
    std::uint64_t maxBytes = 0; ///< 0: defaultTransferMax
    std::vector<TransferKind> kinds = allTransferKinds();
    /// Timed runs per point after a warm-up; points of 1 MiB and less run at least 20 times
    /// (their latency is a few microseconds, and cheap to sample).
    int repeats = 5;
    bool launchLatency = true;
    int launchRepeats = 100;
};

struct TransferPoint {
    TransferKind kind = TransferKind::HostToDevicePageable;
    std::uint64_t bytes = 0;
    Status status = Status::Failed;
    std::string detail;   ///< why it failed; where the bytes differ
    TimingStats wall;     ///< host wall-clock ms of the blocking call: the latency
    TimingStats profiled; ///< the command's event-profiled ms
    double gbps = 0;      ///< bytes / wall median
};

struct LaunchLatency {
    bool ran = false;
    std::string detail;   ///< why it did not run
    TimingStats profiled; ///< start to end of do_nothing on the device, ms
    TimingStats wall;     ///< enqueue + finish on the host, ms
};

struct TransferSweep {
    DeviceInfo device;
    std::vector<std::uint64_t> sizes;
    std::vector<TransferPoint> points; ///< each kind of the spec over every size, in order
    std::optional<LaunchLatency> launch;
    /// The point of `kind` at the largest size, or nullptr.
    const TransferPoint* largest(TransferKind kind) const;
};

/// Every kind of the spec at every size, then the launch latency; `progress` sees each point
/// as it arrives. A point that cannot run (an allocation or a transfer that fails) is a result
/// with that status; the sweep goes on. Throws UsageError("--max-size") for sizes below 1 byte,
/// min above max, or max above the device's largest buffer; CancelledError when cancelled.
TransferSweep runTransfers(Device& device, const TransferSpec& spec, const CancelToken& cancel = {},
                           const std::function<void(const TransferPoint&)>& progress = {});

/// The launch latency alone (after a warm-up, `repeats` launches).
LaunchLatency measureLaunchLatency(Device& device, int repeats, const CancelToken& cancel = {});

/// What `histlab-cli memory` measured on one device: either part may be absent.
struct MemoryRun {
    DeviceInfo device;
    std::optional<CeilingSweep> ceilings;
    std::optional<TransferSweep> transfers;
};

/// One row per measurement: section (ceiling, transfer, launch), kind, width, bytes, median_ms,
/// min_ms, profiled_median_ms, gbps, status, detail.
std::string memoryCsv(const MemoryRun& run);

/// The whole run: device, metrics, ceilings per width with the best, transfer points, launch.
std::string memoryJson(const MemoryRun& run);

} // namespace histlab
