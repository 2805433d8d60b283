#pragma once
// Results as files: CSV and JSON text, written to a temporary file and renamed into place so
// that a failed run never leaves a half-written output.
#include "pipelines/bandwidth/bandwidth.h"
#include "pipelines/histogram256/histogram256.h"
#include "report/json.h"
#include "runtime/device.h"
#include "runtime/timing.h"

#include <cstdint>
#include <string>
#include <vector>

namespace histlab {

/// Writes `content` to `path` through "<path>.tmp-<pid>" and a rename; "-" writes to stdout.
/// Throws InputError naming the path if it cannot be written (the temporary is removed).
void writeFileAtomically(const std::string& path, const std::string& content);

/// Checks up front that `path` can be created (its folder exists and is writable), so a run
/// fails before its work rather than after. Throws InputError naming the path.
void checkWritable(const std::string& path);

/// A CSV field: as it is, or quoted (with doubled quotes) when it holds a comma, quote or
/// line break.
std::string csvField(const std::string& text);

/// "bin,r,g,b,gray" and one row per bin.
std::string histogramCsv(const HistogramRun& run);

/// The whole run: device, configuration, timings, stages, verification, histograms.
std::string histogramJson(const HistogramRun& run);

/// Every device with its reported properties and (where given) the probed capabilities.
std::string devicesJson(const std::vector<DeviceInfo>& devices,
                        const std::vector<Capabilities>& capabilities);

/// The same for listed devices: a device whose probes could not run has "probe_error" instead
/// of "probes". What `histlab-cli devices --json` writes and the Devices tab exports.
std::string devicesJson(const std::vector<DeviceListing>& devices);

/// A device as a JSON object: every property it reports (null where it refused the query) and,
/// when given, the probe results under "probes". Saved runs name their devices with it.
JsonValue deviceInfoJson(const DeviceInfo& device, const Capabilities* capabilities = nullptr);

/// A device back from deviceInfoJson. The identity and the basic sizes are required (InputError
/// naming the key otherwise); what older files lack is left empty.
DeviceInfo parseDeviceInfoJson(const JsonValue& value);

/// Timings as {"median_ms", "min_ms", "max_ms", "samples_ms"}, and back.
JsonValue timingStatsJson(const TimingStats& stats);

/// A same-run ceiling (read-only or copy kernel) as the reports show it: kernel, bytes, median
/// and min ms, GB/s.
JsonValue ceilingJson(const CeilingResult& ceiling);
TimingStats parseTimingStatsJson(const JsonValue& value);

/// A JSON string literal of `s` (quotes included).
std::string jsonString(const std::string& s);

/// The process's peak resident set size so far, in bytes (getrusage); 0 where unknown.
std::uint64_t peakRssBytes();

/// Today's date and time in UTC as ISO 8601 ("2026-11-22T03:04:05Z").
std::string utcTimestamp();

} // namespace histlab
