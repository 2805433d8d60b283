#pragma once
// The shape of a memory ceiling measured in the same run as the pipeline it judges: what every
// report and JSON file shows of it. The bandwidth family measures them
// (pipelines/bandwidth/bandwidth.h); reports only read them.
#include "runtime/timing.h"

#include <cstdint>
#include <string>
#include <vector>

namespace histlab {

/// One kernel's timing on the ceiling's bytes.
struct CeilingTiming {
    std::string kernel; ///< e.g. "read_items uint4 (one per work-item)", "clEnqueueCopyBuffer"
    std::uint64_t bytes = 0;
    TimingStats stats;
    double gbps = 0;     ///< from the median
    double bestGbps = 0; ///< from the fastest run
    std::string error;   ///< why this kernel could not run on the device (then both are 0)
};

/// A ceiling: the most a family of read-only (or copy) kernels moved on the same bytes in the
/// same run. Every member is timed `repeats` times; the winner is the member with the fastest
/// run, and the ceiling is that run's GB/s: a figure no pipeline's median should beat. (A
/// ceiling from medians lets a pipeline timed in a quiet moment beat it on a shared machine.)
struct CeilingResult {
    std::string kernel;                ///< the winner's name
    std::uint64_t bytes = 0;           ///< the winner's bytes (whole elements of its width)
    TimingStats stats;                 ///< the winner's runs
    double gbps = 0;                   ///< the winner's fastest run: bytes / stats.minMs
    std::vector<CeilingTiming> family; ///< every member in the order they ran, the winner too
};

} // namespace histlab
