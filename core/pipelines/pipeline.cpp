#include "pipelines/pipeline.h"

#include <algorithm>

namespace histlab {

Verdict verdictOf(std::size_t rows, std::size_t ran, std::size_t mismatches,
                  const std::string& what, const std::string& nothingRan) {
    if (mismatches)
        return {Verdict::Kind::Mismatch, std::to_string(mismatches) + " " + what +
                                             " differ from the CPU reference (see status "
                                             "mismatch)"};
    if (rows && !ran)
        return {Verdict::Kind::NothingRan, nothingRan};
    return {};
}

Verdict verificationVerdict(bool verified, const std::string& detail) {
    if (!verified)
        return {Verdict::Kind::Mismatch, "verification failed: " + detail};
    return {};
}

void StatusCount::add(Status status) {
    ++rows;
    ran += statusRan(status) ? 1 : 0;
    mismatches += status == Status::Mismatch ? 1 : 0;
}

Verdict StatusCount::verdict(const std::string& what, const std::string& nothingRan) const {
    return verdictOf(rows, ran, mismatches, what, nothingRan);
}

std::vector<Device*> openDevices(JobContext& ctx, const std::vector<int>& indices) {
    std::vector<Device*> opened;
    for (int index : indices) {
        Device* d = &ctx.devices().open(index);
        if (std::find(opened.begin(), opened.end(), d) == opened.end())
            opened.push_back(d);
    }
    return opened;
}

} // namespace histlab
