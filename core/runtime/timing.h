#pragma once
// The one timing recipe: one warm-up run, then N timed runs whose durations come from OpenCL
// event profiling (CL_QUEUE_PROFILING_ENABLE); median and min are what we quote.
#include "runtime/cancel.h"
#include "runtime/opencl.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

namespace histlab {

struct TimingStats {
    std::vector<double> samplesMs;
    double medianMs = 0;
    double minMs = 0;
    double maxMs = 0;
};

/// Median (mean of the middle two for an even count), min and max of the samples.
TimingStats summarize(std::vector<double> samplesMs);

/// Milliseconds between the start of the first and the end of the last event (profiling).
double profiledMs(const std::vector<cl::Event>& events);

/// Runs `once` (which returns milliseconds) one time to warm up, then `repeats` times;
/// checks the token between runs. `repeats` 0: one run without a warm-up, for work done once
/// where its time is not the point (each image of a batch).
TimingStats timeRepeated(int repeats, const std::function<double()>& once,
                         const CancelToken& cancel);

/// Host wall-clock milliseconds that `f` takes (for end-to-end figures, where event profiling
/// would leave out the host's part).
double wallClockMs(const std::function<void()>& f);

/// Host wall-clock milliseconds since `start` (steady clock).
double msSince(std::chrono::steady_clock::time_point start);

/// Bytes per second in GB/s (10^9 bytes) for a duration in milliseconds; 0 if ms <= 0.
double gbPerSecond(std::uint64_t bytes, double ms);

} // namespace histlab
