#pragma once
// One input split across several devices, for results that are sums (histograms, joint
// histograms): each device counts a piece in proportion to its own throughput measured alone on
// the whole input in the same run, all devices at once, and the counts are added on the host,
// so the sum is exact. Measured end to end (each device's piece sent from pinned host memory,
// as its pipeline streams) and kernels only (each piece already in its device's memory).
// A pipeline gives one SplitCounter a device; runSplit does the rest.
#include "pipelines/options.h"
#include "report/json.h"
#include "runtime/cancel.h"
#include "runtime/device.h"
#include "runtime/devicescheduler.h"
#include "runtime/timing.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace histlab {

/// One device's part. Offsets and lengths are in the input's units: bytes of an image for the
/// histogram, pairs for the joint histogram.
struct SplitShare {
    DeviceInfo device;
    int index = -1;           ///< in the device list
    std::string config;       ///< its kernel's configuration
    double aloneMs = 0;       ///< the whole input on this device alone, end to end (median)
    double aloneKernelMs = 0; ///< the same, kernels only, input already on the device (median)
    std::uint64_t offset = 0, length = 0;             ///< its piece, end to end
    std::uint64_t kernelOffset = 0, kernelLength = 0; ///< its piece, kernels only
    double pieceMs = 0;       ///< its piece end to end, every device at once (median)
    double pieceKernelMs = 0; ///< its piece's kernels, every device at once (median)
    std::string failure;      ///< why it stopped, when it failed
    int redoneBy = -1;        ///< the position of the device that counted its piece instead
};

/// What every split reports.
struct SplitTiming {
    std::vector<SplitShare> shares;
    TimingStats wall;       ///< end to end: every device at once, until the last counts are back
    TimingStats kernelWall; ///< kernels only: the slowest device's kernels, each repeat
    double speedup = 0, kernelSpeedup = 0; ///< the fastest device alone over the split
    std::vector<std::uint64_t> counts;     ///< the sum of the counted pass
    std::optional<bool> verified;
    std::string verifyDetail; ///< the first mismatch, if any
};

/// One device's means of counting pieces of the input. Made on that device with the whole
/// input in its memory; may throw cl::Error or DeviceError (the device is then left out, and
/// the report says why), UsageError or CancelledError (the run stops).
class SplitCounter {
public:
    virtual ~SplitCounter() = default;
    /// Its kernel's configuration, for the report.
    virtual std::string config() const = 0;
    /// The counts of [offset, offset + length), sent from pinned host memory first.
    virtual std::vector<std::uint64_t> streamed(std::uint64_t offset, std::uint64_t length,
                                                const CancelToken& cancel) = 0;
    /// The kernels of [offset, offset + length) of the copy already on the device: their
    /// profiled milliseconds.
    virtual double kernels(std::uint64_t offset, std::uint64_t length) = 0;
};

struct SplitInput {
    std::uint64_t length = 0; ///< in units
    std::uint64_t unit = 1;   ///< every piece but the last is a multiple of this
    /// Makes device `index`'s counter.
    std::function<std::unique_ptr<SplitCounter>(Device& device, std::size_t index)> counter;
    /// "" when `counts` are right, else the first difference, named after `what`.
    std::function<std::string(const std::string& what, const std::vector<std::uint64_t>& counts)>
        check;
};

/// Splits `input` across `devices`, `repeats` timed runs of each measurement. Each device's run
/// alone and the counted pass are verified with input.check. A device that fails (`fault`, for
/// tests: the device at that position fails on the split's N-th pass, the first, counted one
/// being 0) leaves its piece to the fastest device left, the report says so, and the runs after
/// it split over the devices left. Throws DeviceError when no device can count.
SplitTiming runSplit(const std::vector<Device*>& devices, const SplitInput& input, int repeats,
                     const DeviceFault& fault = {}, const CancelToken& cancel = {});

/// The shares as a table (device, alone ms and GB/s, kernels ms, piece in `unit`s and its
/// share, piece ms, kernels piece and ms, status, detail), then the end-to-end and kernels-only
/// lines with the speed-ups; `length` units of `unitBytes` bytes each in all (GB/s of those bytes).
std::string splitSharesText(const SplitTiming& run, std::uint64_t length, const std::string& unit,
                            double unitBytes);
/// "verified: every device alone and the split equal the CPU reference, " + `how` (or the
/// mismatch) and a newline; "" when nothing was verified.
std::string splitVerifiedLine(const SplitTiming& run, const std::string& how);
/// "shares" (each with offset, `unit`, kernel_offset, kernel_`unit`), "wall", "speedup",
/// "kernel_wall", "kernel_speedup", "verified", "verify_detail", added to `j`.
void addSplitJson(Json& j, const SplitTiming& run, const std::string& unit);

/// `length` in pieces proportional to `weights` (0 for a device that takes none), each a
/// multiple of `unit` but the last one's: {offset, length} per device.
std::vector<std::pair<std::uint64_t, std::uint64_t>>
splitByWeight(std::uint64_t length, const std::vector<double>& weights, std::uint64_t unit);

} // namespace histlab
