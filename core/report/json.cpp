#include "report/json.h"

#include "report/files.h"
#include "runtime/errors.h"

#include <limits>

namespace histlab {

namespace {

const char* typeName(const Json& v) {
    return v.type_name();
}

InputError keyError(const char* key, const std::string& what) {
    return InputError(std::string("key '") + key + "': " + what);
}

Json optional(const std::optional<std::uint64_t>& v) {
    return v ? Json(*v) : Json();
}

Json optional(const std::optional<std::uint32_t>& v) {
    return v ? Json(std::uint64_t(*v)) : Json();
}

// A count or size of type T, checked before converting: nlohmann's get<T> of a float beyond
// T's range, or of a negative number, is undefined or wraps (found by fuzzing: 4e96).
template <typename T> T wholeFrom(const Json& v, const char* key) {
    if (v.is_number_unsigned() && v.get<std::uint64_t>() <= std::numeric_limits<T>::max())
        return T(v.get<std::uint64_t>());
    if (v.is_number_integer() && v.get<std::int64_t>() >= 0 &&
        std::uint64_t(v.get<std::int64_t>()) <= std::numeric_limits<T>::max())
        return T(v.get<std::int64_t>());
    throw keyError(key, "expected a whole number from 0 to " +
                            std::to_string(std::numeric_limits<T>::max()) + ", found " +
                            (v.is_number() ? v.dump() : std::string(typeName(v))));
}

template <typename T> std::optional<T> optionalFrom(const Json& object, const char* key) {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return std::nullopt;
    return wholeFrom<T>(*it, key);
}

Json vectorWidthsJson(const std::array<std::optional<std::uint32_t>, 7>& widths) {
    Json o = Json::object();
    for (std::size_t i = 0; i < kVectorTypes.size(); ++i)
        o[kVectorTypes[i]] = optional(widths[i]);
    return o;
}

void vectorWidthsFrom(const Json& object, const char* key,
                      std::array<std::optional<std::uint32_t>, 7>& widths) {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_object())
        return;
    for (std::size_t i = 0; i < kVectorTypes.size(); ++i)
        widths[i] = optionalFrom<std::uint32_t>(*it, kVectorTypes[i]);
}

} // namespace

Json parseJsonText(const std::string& text, const std::string& source) {
    try {
        return Json::parse(text);
    } catch (const Json::parse_error& e) {
        // nlohmann says "[json.exception.parse_error.101] parse error at line 3, column 7:
        // syntax error while parsing value - unexpected '}'; expected ...": keep what and where.
        // Plain string work, no std::regex: libstdc++'s matcher recurses once per character
        // and overflowed the stack on a long message (found by fuzzing).
        std::string what = e.what();
        if (const std::size_t at = what.find("at line "); at != std::string::npos)
            if (const std::size_t colon = what.find(": ", at); colon != std::string::npos)
                what = what.substr(colon + 2) + " " + what.substr(at, colon - at);
        throw InputError(source + ": JSON: " + what);
    } catch (const Json::exception& e) {
        // What the parser throws besides syntax errors: a number beyond a double's range
        // ("[json.exception.out_of_range.406] number overflow parsing '21E7483648'").
        throw InputError(source + ": JSON: " + jsonErrorText(e));
    }
}

std::string jsonErrorText(const Json::exception& e) {
    std::string what = e.what();
    if (const std::size_t end = what.find("] ");
        what.rfind("[json.exception.", 0) == 0 && end != std::string::npos)
        what = what.substr(end + 2);
    return what;
}

std::string jsonText(const Json& value) {
    return value.dump(2) + "\n";
}

const Json& jsonAt(const Json& object, const char* key) {
    if (!object.is_object())
        throw InputError(std::string("expected an object with key '") + key + "', found " +
                         typeName(object));
    const auto it = object.find(key);
    if (it == object.end())
        throw InputError(std::string("missing key '") + key + "'");
    return *it;
}

std::string jsonStringAt(const Json& object, const char* key) {
    const Json& v = jsonAt(object, key);
    if (!v.is_string())
        throw keyError(key, std::string("expected a string, found ") + typeName(v));
    return v.get<std::string>();
}

double jsonNumberAt(const Json& object, const char* key) {
    const Json& v = jsonAt(object, key);
    if (!v.is_number())
        throw keyError(key, std::string("expected a number, found ") + typeName(v));
    return v.get<double>();
}

std::uint64_t jsonUnsignedAt(const Json& object, const char* key) {
    return wholeFrom<std::uint64_t>(jsonAt(object, key), key);
}

std::int64_t jsonIntegerAt(const Json& object, const char* key) {
    const Json& v = jsonAt(object, key);
    if (v.is_number_integer())
        return v.get<std::int64_t>();
    throw keyError(key, std::string("expected a whole number, found ") +
                            (v.is_number() ? v.dump() : typeName(v)));
}

bool jsonBoolAt(const Json& object, const char* key) {
    const Json& v = jsonAt(object, key);
    if (!v.is_boolean())
        throw keyError(key, std::string("expected true or false, found ") + typeName(v));
    return v.get<bool>();
}

std::string jsonStringOr(const Json& object, const char* key, const std::string& fallback) {
    if (!object.is_object())
        return fallback;
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : fallback;
}

Json timingJson(const TimingStats& stats) {
    return Json{{"median_ms", stats.medianMs},
                {"min_ms", stats.minMs},
                {"max_ms", stats.maxMs},
                {"samples_ms", stats.samplesMs}};
}

TimingStats timingFromJson(const Json& value) {
    const Json& t = value.contains("timing") ? value.at("timing") : value;
    std::vector<double> samples;
    if (const auto it = t.find("samples_ms"); it != t.end() && it->is_array())
        for (const Json& s : *it) {
            if (!s.is_number())
                throw keyError("samples_ms", "expected numbers");
            samples.push_back(s.get<double>());
        }
    TimingStats stats = samples.empty() ? TimingStats{} : summarize(samples);
    stats.medianMs = jsonNumberAt(t, "median_ms");
    stats.minMs = jsonNumberAt(t, "min_ms");
    if (t.contains("max_ms"))
        stats.maxMs = jsonNumberAt(t, "max_ms");
    return stats;
}

Json deviceJson(const DeviceInfo& d, const Capabilities* caps) {
    Json features = Json::object();
    for (const ReportedFeature& f : d.optionalFeatures)
        features[f.name] = f.value;
    Json o{{"index", d.index},
           {"name", d.name},
           {"type", deviceTypeName(d.type)},
           {"platform", d.platformName},
           {"platform_version", d.platformVersion},
           {"vendor", d.vendor},
           {"driver", d.driverVersion},
           {"version", d.deviceVersion},
           {"opencl_c", d.openclCVersion},
           {"opencl_c_versions", d.openclCVersions},
           {"compute_units", std::uint64_t(d.computeUnits)},
           {"max_clock_mhz", std::uint64_t(d.maxClockMHz)},
           {"local_mem_bytes", std::uint64_t(d.localMemBytes)},
           {"local_mem_type", d.localMemType},
           {"global_mem_bytes", std::uint64_t(d.globalMemBytes)},
           {"global_mem_cache_bytes", optional(d.globalMemCacheBytes)},
           {"global_mem_cache_line_bytes", optional(d.globalMemCacheLineBytes)},
           {"global_mem_cache_type", d.globalMemCacheType},
           {"max_alloc_bytes", std::uint64_t(d.maxAllocBytes)},
           {"constant_mem_bytes", optional(d.constantMemBytes)},
           {"max_constant_args", optional(d.maxConstantArgs)},
           {"max_work_group_size", std::uint64_t(d.maxWorkGroupSize)},
           {"max_work_item_dimensions", optional(d.maxWorkItemDimensions)},
           {"max_work_item_sizes", d.maxWorkItemSizes},
           {"image_support", d.imageSupport ? Json(*d.imageSupport) : Json()},
           {"address_bits", optional(d.addressBits)},
           {"profiling_timer_resolution_ns", optional(d.profilingTimerResolutionNs)},
           {"queue_properties", d.queueProperties},
           {"preferred_vector_widths", vectorWidthsJson(d.preferredVectorWidths)},
           {"native_vector_widths", vectorWidthsJson(d.nativeVectorWidths)},
           {"optional_features", features},
           {"extensions", d.extensions}};
    if (caps)
        o["probes"] = Json{{"non_uniform_work_groups", caps->nonUniformWorkGroups},
                           {"non_uniform_detail", caps->nonUniformDetail},
                           {"work_group_scan", caps->workGroupScan},
                           {"work_group_scan_detail", caps->workGroupScanDetail}};
    return o;
}

DeviceInfo deviceFromJson(const Json& v) {
    DeviceInfo d;
    d.index = int(jsonIntegerAt(v, "index"));
    d.name = jsonStringAt(v, "name");
    d.vendor = jsonStringAt(v, "vendor");
    d.platformName = jsonStringAt(v, "platform");
    d.platformVersion = jsonStringOr(v, "platform_version", "");
    d.driverVersion = jsonStringAt(v, "driver");
    d.deviceVersion = jsonStringAt(v, "version");
    d.openclCVersion = jsonStringOr(v, "opencl_c", "");
    const std::string type = jsonStringAt(v, "type");
    d.type = type == "gpu"           ? DeviceType::Gpu
             : type == "cpu"         ? DeviceType::Cpu
             : type == "accelerator" ? DeviceType::Accelerator
                                     : DeviceType::Other;
    d.computeUnits = wholeFrom<std::uint32_t>(jsonAt(v, "compute_units"), "compute_units");
    d.maxClockMHz = wholeFrom<std::uint32_t>(jsonAt(v, "max_clock_mhz"), "max_clock_mhz");
    d.localMemBytes = jsonUnsignedAt(v, "local_mem_bytes");
    d.globalMemBytes = jsonUnsignedAt(v, "global_mem_bytes");
    d.maxAllocBytes = jsonUnsignedAt(v, "max_alloc_bytes");
    d.maxWorkGroupSize = std::size_t(jsonUnsignedAt(v, "max_work_group_size"));
    d.extensions = jsonStringOr(v, "extensions", "");
    d.localMemType = jsonStringOr(v, "local_mem_type", "");
    d.globalMemCacheType = jsonStringOr(v, "global_mem_cache_type", "");
    d.queueProperties = jsonStringOr(v, "queue_properties", "");
    d.globalMemCacheBytes = optionalFrom<std::uint64_t>(v, "global_mem_cache_bytes");
    d.globalMemCacheLineBytes = optionalFrom<std::uint32_t>(v, "global_mem_cache_line_bytes");
    d.constantMemBytes = optionalFrom<std::uint64_t>(v, "constant_mem_bytes");
    d.maxConstantArgs = optionalFrom<std::uint32_t>(v, "max_constant_args");
    d.maxWorkItemDimensions = optionalFrom<std::uint32_t>(v, "max_work_item_dimensions");
    d.addressBits = optionalFrom<std::uint32_t>(v, "address_bits");
    d.profilingTimerResolutionNs = optionalFrom<std::uint64_t>(v, "profiling_timer_resolution_ns");
    if (const auto image = v.find("image_support"); image != v.end() && image->is_boolean())
        d.imageSupport = image->get<bool>();
    if (const auto sizes = v.find("max_work_item_sizes"); sizes != v.end() && sizes->is_array())
        for (const Json& s : *sizes)
            d.maxWorkItemSizes.push_back(wholeFrom<std::size_t>(s, "max_work_item_sizes"));
    if (const auto versions = v.find("opencl_c_versions");
        versions != v.end() && versions->is_array())
        for (const Json& s : *versions)
            d.openclCVersions.push_back(s.get<std::string>());
    if (const auto features = v.find("optional_features");
        features != v.end() && features->is_object())
        for (const auto& [name, value] : features->items())
            d.optionalFeatures.push_back({name, value.get<std::string>()});
    vectorWidthsFrom(v, "preferred_vector_widths", d.preferredVectorWidths);
    vectorWidthsFrom(v, "native_vector_widths", d.nativeVectorWidths);
    return d;
}

std::string devicesJson(const std::vector<DeviceListing>& devices) {
    Json list = Json::array();
    for (const DeviceListing& d : devices) {
        Json device = deviceJson(d.info, d.capabilities ? &*d.capabilities : nullptr);
        if (!d.probeError.empty())
            device["probe_error"] = d.probeError;
        if (d.probes != ProbeState::Run) // a window's listing at launch: not probed now
            device["probe_state"] = d.probes == ProbeState::Remembered ? "remembered" : "pending";
        list.push_back(std::move(device));
    }
    return jsonText(Json{{"date", utcTimestamp()}, {"devices", std::move(list)}});
}

Json ceilingJson(const CeilingTiming& c) {
    Json j{{"kernel", c.kernel},
           {"bytes", std::uint64_t(c.bytes)},
           {"timing", timingJson(c.stats)},
           {"gbps", c.gbps},
           {"best_gbps", c.bestGbps}};
    if (!c.error.empty())
        j["error"] = c.error;
    return j;
}

Json ceilingJson(const CeilingResult& c) {
    Json family = Json::array();
    for (const CeilingTiming& member : c.family)
        family.push_back(ceilingJson(member));
    return Json{
        {"kernel", c.kernel}, {"bytes", std::uint64_t(c.bytes)}, {"timing", timingJson(c.stats)},
        {"gbps", c.gbps},     {"gbps_from", "fastest run"},      {"family", std::move(family)}};
}

} // namespace histlab
