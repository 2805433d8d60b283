#include "report/report.h"

#include <cstdio>

namespace histlab {

std::string jsonString(const std::string& s) {
    return Json(s).dump();
}

// The legacy JsonValue shapes are converted from the nlohmann ones, so each shape is written in
// one place while the pipelines move over.
JsonValue deviceInfoJson(const DeviceInfo& d, const Capabilities* caps) {
    return parseJson(deviceJson(d, caps).dump());
}

DeviceInfo parseDeviceInfoJson(const JsonValue& v) {
    return deviceFromJson(Json::parse(v.dump()));
}

JsonValue legacyCeilingJson(const CeilingResult& c) {
    return parseJson(ceilingJson(c).dump());
}

JsonValue timingStatsJson(const TimingStats& s) {
    return parseJson(timingJson(s).dump());
}

TimingStats parseTimingStatsJson(const JsonValue& v) {
    return timingFromJson(Json::parse(v.dump()));
}

std::string devicesJson(const std::vector<DeviceInfo>& devices,
                        const std::vector<Capabilities>& capabilities) {
    std::vector<DeviceListing> listing;
    for (std::size_t i = 0; i < devices.size(); ++i)
        listing.push_back({devices[i],
                           i < capabilities.size() ? std::optional(capabilities[i]) : std::nullopt,
                           {}});
    return devicesJson(listing);
}

} // namespace histlab
