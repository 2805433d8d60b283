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

/// Runs `once` (which returns milliseconds) one time to warm up, then `repeats` times
/// (timeRuns); checks the token between runs. `repeats` 0: one run without a warm-up, for work
/// done once where its time is not the point (each image of a batch).
TimingStats timeRepeated(int repeats, const std::function<double()>& once,
                         const CancelToken& cancel);

/// `runs` timed runs of `once` (at least one), no warm-up; checks the token between runs. While
/// a TimingPartner is active on this thread, each run is followed by one run of the partner.
TimingStats timeRuns(int runs, const std::function<double()>& once, const CancelToken& cancel);

/// Work and a yardstick timed run for run. While one is alive, every timeRuns (and so
/// timeRepeated) call on the constructing thread runs `partner` once after each of its timed
/// runs (not after a warm-up), and records the call's samples with the partner runs that
/// followed them: the same rounds. A busy machine then slows the work and its yardstick alike,
/// where a yardstick timed apart from the work let a pipeline on a loaded CPU device score
/// 107-162 % of a copy ceiling. timeRuns calls made by the partner itself, or under a Pause,
/// do not alternate. A newer partner on the same thread stands in for the older one until it
/// ends; not copyable.
class TimingPartner {
public:
    /// One timeRuns call: its samples and the partner runs that followed them, as indices
    /// (first, first + 1, ... first + samples - 1) counted from the partner's first run.
    struct Call {
        std::vector<double> workMs;
        std::size_t firstPartnerRun = 0;
    };
    /// While alive, timeRuns on this thread does not alternate (a yardstick's own timing).
    class Pause {
    public:
        Pause();
        ~Pause();
        Pause(const Pause&) = delete;
        Pause& operator=(const Pause&) = delete;

    private:
        TimingPartner* m_saved;
    };

    explicit TimingPartner(std::function<void()> partner);
    ~TimingPartner();
    TimingPartner(const TimingPartner&) = delete;
    TimingPartner& operator=(const TimingPartner&) = delete;

    /// Every call so far, in order.
    const std::vector<Call>& calls() const { return m_calls; }
    /// The partner's runs so far.
    std::size_t partnerRuns() const { return m_partnerRuns; }
    /// The last call whose samples are exactly `samplesMs`, or nullptr.
    const Call* callOf(const std::vector<double>& samplesMs) const;

private:
    friend TimingStats timeRuns(int, const std::function<double()>&, const CancelToken&);
    std::function<void()> m_partner;
    std::vector<Call> m_calls;
    std::size_t m_partnerRuns = 0;
    TimingPartner* m_previous;
};

/// Host wall-clock milliseconds that `f` takes (for end-to-end figures, where event profiling
/// would leave out the host's part).
double wallClockMs(const std::function<void()>& f);

/// Host wall-clock milliseconds since `start` (steady clock).
double msSince(std::chrono::steady_clock::time_point start);

/// Bytes per second in GB/s (10^9 bytes) for a duration in milliseconds; 0 if ms <= 0.
double gbPerSecond(std::uint64_t bytes, double ms);

} // namespace histlab
