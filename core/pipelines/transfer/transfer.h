#pragma once
// Transfers (the memory lab): host->device and device->host from pageable and pinned
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
#include "runtime/bytesize.h"
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

/// The default largest transfer of a sweep: 256 MiB on a CPU device, 1 GiB on any other, never
/// above the device's largest buffer. The sweep must reach past the caches to the memory's
/// bandwidth: 256 MiB is past the last-level cache of any CPU, and 1 GiB past any GPU's. On a
/// CPU device every "device" buffer is host memory too, and the sweep holds six buffers of the
/// largest size and checks every byte of every run: at 1 GiB that is 6 GiB of memory and
/// minutes of PoCL's time for no new figure; at 256 MiB, 1.5 GiB and well under a minute.
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

/// What a sweep's sizes cannot be on `device`, before any work: UsageError("--max-size") for a
/// largest transfer above the device's largest buffer.
void checkTransferMax(const DeviceInfo& device, std::uint64_t maxBytes);

/// What `spec` cannot run on `device`, before any work: checkTransferMax (of the spec's maximum
/// or defaultTransferMax), UsageError("--min-size") below 1 byte or above the maximum,
/// ("--repeat") below 1.
void checkTransferSpec(const DeviceInfo& device, const TransferSpec& spec);

/// Every kind of the spec at every size, then the launch latency; `progress` sees each point
/// as it arrives. A point that cannot run (an allocation or a transfer that fails) is a result
/// with that status; the sweep goes on. Throws what checkTransferSpec throws, CancelledError
/// when cancelled.
TransferSweep runTransfers(Device& device, const TransferSpec& spec, const CancelToken& cancel = {},
                           const std::function<void(const TransferPoint&)>& progress = {});

/// The launch latency alone (after a warm-up, `repeats` launches).
LaunchLatency measureLaunchLatency(Device& device, int repeats, const CancelToken& cancel = {});

} // namespace histlab
