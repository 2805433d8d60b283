#include "runtime/timing.h"

#include <algorithm>
#include <chrono>

namespace histlab {

TimingStats summarize(std::vector<double> samplesMs) {
    TimingStats s;
    s.samplesMs = samplesMs;
    if (samplesMs.empty())
        return s;
    std::sort(samplesMs.begin(), samplesMs.end());
    const std::size_t n = samplesMs.size();
    s.medianMs = n % 2 ? samplesMs[n / 2] : (samplesMs[n / 2 - 1] + samplesMs[n / 2]) / 2;
    s.minMs = samplesMs.front();
    s.maxMs = samplesMs.back();
    return s;
}

double profiledMs(const std::vector<cl::Event>& events) {
    if (events.empty())
        return 0;
    cl_ulong start = ~cl_ulong(0), end = 0;
    for (const auto& e : events) {
        start = std::min(start, e.getProfilingInfo<CL_PROFILING_COMMAND_START>());
        end = std::max(end, e.getProfilingInfo<CL_PROFILING_COMMAND_END>());
    }
    return end > start ? double(end - start) * 1e-6 : 0.0;
}

TimingStats timeRepeated(int repeats, const std::function<double()>& once,
                         const CancelToken& cancel) {
    cancel.throwIfCancelled();
    if (repeats <= 0)
        return summarize({once()});
    once(); // warm-up: first-launch costs (JIT, page faults) are not part of the figure
    std::vector<double> samples;
    for (int i = 0; i < repeats; ++i) {
        cancel.throwIfCancelled();
        samples.push_back(once());
    }
    return summarize(std::move(samples));
}

double wallClockMs(const std::function<void()>& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return msSince(t0);
}

double msSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

double gbPerSecond(std::uint64_t bytes, double ms) {
    return ms > 0 ? double(bytes) / (ms * 1e6) : 0.0;
}

} // namespace histlab
