#pragma once
// JSON through nlohmann-json: the files HistLab writes (runs, results, device lists) and reads
// back (saved runs, baselines). Integers stay exact (64-bit); keys keep the order they were
// written in, so files read well and diff well. The shapes shared by every pipeline live here:
// one timings shape, one device shape, one same-run ceiling shape.
#include "report/ceiling.h"
#include "runtime/device.h"
#include "runtime/timing.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace histlab {

using Json = nlohmann::ordered_json;

/// Parses a whole document. Throws InputError("<source>: JSON: <what> at line L, column C")
/// naming the file (or whatever `source` says) and the place of the first error.
Json parseJsonText(const std::string& text, const std::string& source);
/// nlohmann's message without its "[json.exception.type_error.302] " prefix: "type must be
/// string, but is number".
std::string jsonErrorText(const Json::exception& e);

/// The document as text: two-space indents and a final newline.
std::string jsonText(const Json& value);

/// A member that must be there, of the type asked; InputError naming the key otherwise
/// ("missing key 'status'", "key 'bytes': expected a number").
const Json& jsonAt(const Json& object, const char* key);
std::string jsonStringAt(const Json& object, const char* key);
double jsonNumberAt(const Json& object, const char* key);
std::uint64_t jsonUnsignedAt(const Json& object, const char* key);
std::int64_t jsonIntegerAt(const Json& object, const char* key);
bool jsonBoolAt(const Json& object, const char* key);
/// A member that may be missing (or null): the fallback then.
std::string jsonStringOr(const Json& object, const char* key, const std::string& fallback);

/// Timings, the one shape every file uses: {"median_ms", "min_ms", "max_ms", "samples_ms"}.
Json timingJson(const TimingStats& stats);
/// Timings back: that object, or the flat keys of older files ("median_ms", "min_ms"... at the
/// level of the row) when `value` holds them directly.
TimingStats timingFromJson(const Json& value);

/// A device: every property it reports (null where it refused the query) and, when given, the
/// probe results under "probes".
Json deviceJson(const DeviceInfo& device, const Capabilities* capabilities = nullptr);
/// A device back. The identity and the basic sizes are required (InputError naming the key);
/// what older files lack is left empty.
DeviceInfo deviceFromJson(const Json& value);

/// Every listed device as histlab-cli devices --json writes it and the Devices tab exports it:
/// {"date", "devices": [...]}; a device whose probes could not run has "probe_error".
std::string devicesJson(const std::vector<DeviceListing>& devices);

/// One kernel of a ceiling's family as reports show it: kernel, bytes, timing, GB/s of the
/// median and of the fastest run, and why it could not run if it did not.
Json ceilingJson(const CeilingTiming& ceiling);
/// A ceiling (its GB/s from the winner's fastest run) with every member of its family.
Json ceilingJson(const CeilingResult& ceiling);

} // namespace histlab
