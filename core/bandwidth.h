#pragma once
// Memory ceilings of a device, measured in the same run as the pipeline they judge.
// Metric: read_bytes = bytes read / s; copy_bytes = (bytes read + bytes written) / s.
#include "cancel.h"
#include "device.h"
#include "timing.h"

namespace histlab {

struct CeilingResult {
    std::string kernel; ///< "read_bytes" or "copy_bytes", with its read pattern
    std::uint64_t bytes = 0;
    TimingStats stats;
    double gbps = 0; ///< from the median
};

/// Reads the first `bytes` of `buffer` (rounded down to 16) `repeats` times after a warm-up.
CeilingResult measureReadCeiling(Device& device, const cl::Buffer& buffer, std::size_t bytes,
                                 int repeats, const CancelToken& cancel = {});

/// Copies `bytes` of `src` to a scratch buffer on the device.
CeilingResult measureCopyCeiling(Device& device, const cl::Buffer& src, std::size_t bytes,
                                 int repeats, const CancelToken& cancel = {});

} // namespace histlab
