#pragma once
// Memory ceilings of a device, measured in the same run as the pipeline they judge.
// Metric: read_bytes = bytes read / s; copy_bytes = (bytes read + bytes written) / s.
#include "report/status.h"
#include "runtime/cancel.h"
#include "runtime/device.h"
#include "runtime/timing.h"

#include <vector>

namespace histlab {

struct CeilingResult {
    std::string kernel; ///< "read_bytes" or "copy_bytes", with its read pattern
    std::uint64_t bytes = 0;
    TimingStats stats;
    double gbps = 0; ///< from the median
};

/// `bytes` random bytes in a new read-only device buffer, made on the host in 16 MiB pieces:
/// data no memory system can compress, so that no ceiling is flattered.
cl::Buffer randomDeviceBuffer(Device& device, std::size_t bytes, const CancelToken& cancel = {});

/// Reads the first `bytes` of `buffer` (rounded down to 16) `repeats` times after a warm-up.
CeilingResult measureReadCeiling(Device& device, const cl::Buffer& buffer, std::size_t bytes,
                                 int repeats, const CancelToken& cancel = {});

/// Copies `bytes` of `src` to a scratch buffer on the device.
CeilingResult measureCopyCeiling(Device& device, const cl::Buffer& src, std::size_t bytes,
                                 int repeats, const CancelToken& cancel = {});

// ---------------------------------------------------------------------------------------------
// Ceilings per vector width, as clpeak measures them: the same read-only and copy
// kernels with elements of 1, 2, 4, 8 and 16 uints (uint ... uint16), on random bytes (nothing
// a memory system could compress), each width built with -D WIDTH=w.

/// The widths of a full sweep: uints per element.
inline const std::vector<int> kCeilingWidths = {1, 2, 4, 8, 16};

/// The read-only and copy kernels at one width.
struct WidthCeiling {
    int width = 4; ///< uints per element (4 x width bytes)
    /// verified: both ran and the copy's output equals its input byte for byte; mismatch: it
    /// does not; failed/unsupported: the width could not run (the detail says why)
    Status status = Status::Failed;
    std::string detail;
    CeilingResult read, copy;
};

struct CeilingSweep {
    std::uint64_t bytes = 0; ///< the buffer each width reads (a multiple of 64)
    std::vector<WidthCeiling> widths;
    int bestReadWidth = 0, bestCopyWidth = 0; ///< 0 when no width ran
    double bestReadGbps = 0, bestCopyGbps = 0;
};

/// Measures the read-only and copy kernels at each of `widths` on `bytes` (rounded down to 64)
/// random bytes and says which width is best for each. One width that cannot run is a result
/// with that status; the sweep goes on. Throws UsageError("--ceiling-size") below 64 bytes or
/// above the device's largest buffer, UsageError("--width") for a width not in
/// kCeilingWidths, CancelledError when cancelled.
CeilingSweep measureCeilingWidths(Device& device, std::size_t bytes, int repeats,
                                  const CancelToken& cancel = {},
                                  const std::vector<int>& widths = kCeilingWidths);

} // namespace histlab
