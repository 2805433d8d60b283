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

namespace {
thread_local TimingPartner* tPartner = nullptr; // the active partner of this thread
} // namespace

TimingPartner::TimingPartner(std::function<void()> partner)
    : m_partner(std::move(partner))
    , m_previous(tPartner) {
    tPartner = this;
}

TimingPartner::~TimingPartner() {
    tPartner = m_previous;
}

TimingPartner::Pause::Pause()
    : m_saved(tPartner) {
    tPartner = nullptr;
}

TimingPartner::Pause::~Pause() {
    tPartner = m_saved;
}

const TimingPartner::Call* TimingPartner::callOf(const std::vector<double>& samplesMs) const {
    for (auto it = m_calls.rbegin(); it != m_calls.rend(); ++it)
        if (it->workMs == samplesMs)
            return &*it;
    return nullptr;
}

TimingStats timeRuns(int runs, const std::function<double()>& once, const CancelToken& cancel) {
    TimingPartner* partner = tPartner;
    TimingPartner::Call call;
    if (partner)
        call.firstPartnerRun = partner->m_partnerRuns;
    for (int i = 0; i < std::max(runs, 1); ++i) {
        cancel.throwIfCancelled();
        call.workMs.push_back(once());
        if (partner) {
            const TimingPartner::Pause pause; // the partner's own timing does not alternate
            partner->m_partner();
            ++partner->m_partnerRuns;
        }
    }
    if (partner)
        partner->m_calls.push_back(call);
    return summarize(std::move(call.workMs));
}

TimingStats timeRepeated(int repeats, const std::function<double()>& once,
                         const CancelToken& cancel) {
    cancel.throwIfCancelled();
    if (repeats <= 0)
        return summarize({once()});
    once(); // warm-up: first-launch costs (JIT, page faults) are not part of the figure
    return timeRuns(repeats, once, cancel);
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
