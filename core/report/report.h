#pragma once
// Everything about results as files, in one include: statuses, tables (CSV), JSON
// (nlohmann-json), atomic file writes; and, while the pipelines move to report/json.h, the
// hand-written JsonValue shapes they still use (converted from the nlohmann ones).
#include "report/files.h"
#include "report/json.h"
#include "report/legacyjson.h"
#include "report/status.h"
#include "report/table.h"

#include <string>
#include <vector>

namespace histlab {

/// A JSON string literal of `s` (quotes included).
std::string jsonString(const std::string& s);

/// deviceJson / deviceFromJson as JsonValue (legacy).
JsonValue deviceInfoJson(const DeviceInfo& device, const Capabilities* capabilities = nullptr);
DeviceInfo parseDeviceInfoJson(const JsonValue& value);

/// ceilingJson / timingJson / timingFromJson as JsonValue (legacy).
JsonValue legacyCeilingJson(const CeilingResult& ceiling);
JsonValue timingStatsJson(const TimingStats& stats);
TimingStats parseTimingStatsJson(const JsonValue& value);

/// Every device with its reported properties and (where given) the probed capabilities.
std::string devicesJson(const std::vector<DeviceInfo>& devices,
                        const std::vector<Capabilities>& capabilities);

} // namespace histlab
