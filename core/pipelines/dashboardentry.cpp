#include "pipelines/dashboardentry.h"

namespace histlab {

DashboardResult measuredResult(std::string variant, std::uint64_t bytes, const TimingStats& stats,
                               double gbps, std::string ceilingKind, const CeilingResult& ceiling,
                               Status status, const std::string& detail) {
    DashboardResult r;
    r.variant = std::move(variant);
    r.bytes = bytes;
    r.stats = stats;
    r.gbps = gbps;
    r.judgeAgainst(std::move(ceilingKind), ceiling);
    r.status = status;
    r.reason = status == Status::Verified ? std::string() : detail;
    return r;
}

} // namespace histlab
