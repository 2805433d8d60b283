#include "report/report.h"

#include "pipelines/histogram256/histogramstats.h"
#include "runtime/errors.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>

namespace histlab {

namespace fs = std::filesystem;

void checkWritable(const std::string& path) {
    if (path == "-")
        return;
    if (path.empty())
        throw InputError("output path is empty");
    const fs::path p(path);
    if (fs::is_directory(p))
        throw InputError(path + ": is a folder, not a file");
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    if (!fs::is_directory(dir))
        throw InputError(path + ": folder '" + dir.string() + "' does not exist");
    if (::access(dir.c_str(), W_OK) != 0)
        throw InputError(path + ": folder '" + dir.string() + "' is not writable");
}

void writeFileAtomically(const std::string& path, const std::string& content) {
    if (path == "-") {
        std::cout << content << std::flush;
        return;
    }
    checkWritable(path);
    const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            throw InputError(path + ": cannot create (" + std::strerror(errno) + ")");
        out << content;
        out.flush();
        if (!out) {
            std::error_code ignored;
            fs::remove(tmp, ignored);
            throw InputError(path + ": write failed (" + std::strerror(errno) + ")");
        }
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(tmp, ignored);
        throw InputError(path + ": cannot replace (" + ec.message() + ")");
    }
}

std::string jsonString(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    return out + "\"";
}

std::uint64_t peakRssBytes() {
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) != 0)
        return 0;
    return std::uint64_t(usage.ru_maxrss) * 1024; // Linux reports KiB
}

std::string utcTimestamp() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

namespace {

std::string num(double v) {
    if (!std::isfinite(v))
        return "null";
    std::ostringstream s;
    s.precision(6);
    s << v;
    return s.str();
}

std::string timingJson(const TimingStats& t) {
    std::ostringstream s;
    s << "{\"median_ms\": " << num(t.medianMs) << ", \"min_ms\": " << num(t.minMs)
      << ", \"max_ms\": " << num(t.maxMs) << ", \"samples_ms\": [";
    for (std::size_t i = 0; i < t.samplesMs.size(); ++i)
        s << (i ? ", " : "") << num(t.samplesMs[i]);
    return s.str() + "]}";
}

std::string deviceJson(const DeviceInfo& d, const Capabilities* caps) {
    return deviceInfoJson(d, caps).dump();
}

JsonValue optional(const std::optional<std::uint64_t>& v) {
    return v ? JsonValue(*v) : JsonValue();
}

JsonValue optional(const std::optional<std::uint32_t>& v) {
    return v ? JsonValue(std::uint64_t(*v)) : JsonValue();
}

template <typename T> std::optional<T> optionalFrom(const JsonValue& object, const char* key) {
    const JsonValue* v = object.find(key);
    if (!v || v->isNull())
        return std::nullopt;
    return T(v->asNumber());
}

std::string stringFrom(const JsonValue& object, const char* key) {
    const JsonValue* v = object.find(key);
    return v && v->isString() ? v->asString() : std::string();
}

JsonValue vectorWidthsJson(const std::array<std::optional<std::uint32_t>, 7>& widths) {
    JsonValue::Object o;
    for (std::size_t i = 0; i < kVectorTypes.size(); ++i)
        o[kVectorTypes[i]] = optional(widths[i]);
    return o;
}

void vectorWidthsFrom(const JsonValue& object, const char* key,
                      std::array<std::optional<std::uint32_t>, 7>& widths) {
    const JsonValue* v = object.find(key);
    if (!v || !v->isObject())
        return;
    for (std::size_t i = 0; i < kVectorTypes.size(); ++i)
        widths[i] = optionalFrom<std::uint32_t>(*v, kVectorTypes[i]);
}

JsonValue capabilitiesJson(const Capabilities& c) {
    return JsonValue::Object{{"non_uniform_work_groups", c.nonUniformWorkGroups},
                             {"non_uniform_detail", c.nonUniformDetail},
                             {"work_group_scan", c.workGroupScan},
                             {"work_group_scan_detail", c.workGroupScanDetail}};
}

} // namespace

JsonValue deviceInfoJson(const DeviceInfo& d, const Capabilities* caps) {
    JsonValue::Array itemSizes, cVersions;
    for (std::size_t s : d.maxWorkItemSizes)
        itemSizes.emplace_back(std::uint64_t(s));
    for (const std::string& v : d.openclCVersions)
        cVersions.emplace_back(v);
    JsonValue::Object features;
    for (const ReportedFeature& f : d.optionalFeatures)
        features[f.name] = f.value;
    JsonValue::Object o{
        {"index", d.index},
        {"name", d.name},
        {"type", deviceTypeName(d.type)},
        {"platform", d.platformName},
        {"platform_version", d.platformVersion},
        {"vendor", d.vendor},
        {"driver", d.driverVersion},
        {"version", d.deviceVersion},
        {"opencl_c", d.openclCVersion},
        {"opencl_c_versions", cVersions},
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
        {"max_work_item_sizes", itemSizes},
        {"image_support", d.imageSupport ? JsonValue(*d.imageSupport) : JsonValue()},
        {"address_bits", optional(d.addressBits)},
        {"profiling_timer_resolution_ns", optional(d.profilingTimerResolutionNs)},
        {"queue_properties", d.queueProperties},
        {"preferred_vector_widths", vectorWidthsJson(d.preferredVectorWidths)},
        {"native_vector_widths", vectorWidthsJson(d.nativeVectorWidths)},
        {"optional_features", features},
        {"extensions", d.extensions}};
    if (caps)
        o["probes"] = capabilitiesJson(*caps);
    return o;
}

DeviceInfo parseDeviceInfoJson(const JsonValue& v) {
    DeviceInfo d;
    d.index = int(v.at("index").asNumber());
    d.name = v.at("name").asString();
    d.vendor = v.at("vendor").asString();
    d.platformName = v.at("platform").asString();
    d.platformVersion = stringFrom(v, "platform_version");
    d.driverVersion = v.at("driver").asString();
    d.deviceVersion = v.at("version").asString();
    d.openclCVersion = stringFrom(v, "opencl_c");
    const std::string type = v.at("type").asString();
    d.type = type == "gpu"           ? DeviceType::Gpu
             : type == "cpu"         ? DeviceType::Cpu
             : type == "accelerator" ? DeviceType::Accelerator
                                     : DeviceType::Other;
    d.computeUnits = std::uint32_t(v.at("compute_units").asNumber());
    d.maxClockMHz = std::uint32_t(v.at("max_clock_mhz").asNumber());
    d.localMemBytes = std::uint64_t(v.at("local_mem_bytes").asNumber());
    d.globalMemBytes = std::uint64_t(v.at("global_mem_bytes").asNumber());
    d.maxAllocBytes = std::uint64_t(v.at("max_alloc_bytes").asNumber());
    d.maxWorkGroupSize = std::size_t(v.at("max_work_group_size").asNumber());
    d.extensions = stringFrom(v, "extensions");
    d.localMemType = stringFrom(v, "local_mem_type");
    d.globalMemCacheType = stringFrom(v, "global_mem_cache_type");
    d.queueProperties = stringFrom(v, "queue_properties");
    d.globalMemCacheBytes = optionalFrom<std::uint64_t>(v, "global_mem_cache_bytes");
    d.globalMemCacheLineBytes = optionalFrom<std::uint32_t>(v, "global_mem_cache_line_bytes");
    d.constantMemBytes = optionalFrom<std::uint64_t>(v, "constant_mem_bytes");
    d.maxConstantArgs = optionalFrom<std::uint32_t>(v, "max_constant_args");
    d.maxWorkItemDimensions = optionalFrom<std::uint32_t>(v, "max_work_item_dimensions");
    d.addressBits = optionalFrom<std::uint32_t>(v, "address_bits");
    d.profilingTimerResolutionNs = optionalFrom<std::uint64_t>(v, "profiling_timer_resolution_ns");
    if (const JsonValue* image = v.find("image_support"); image && image->isBool())
        d.imageSupport = image->asBool();
    if (const JsonValue* sizes = v.find("max_work_item_sizes"); sizes && sizes->isArray())
        for (const JsonValue& s : sizes->asArray())
            d.maxWorkItemSizes.push_back(std::size_t(s.asNumber()));
    if (const JsonValue* versions = v.find("opencl_c_versions"); versions && versions->isArray())
        for (const JsonValue& s : versions->asArray())
            d.openclCVersions.push_back(s.asString());
    if (const JsonValue* features = v.find("optional_features"); features && features->isObject())
        for (const auto& [name, value] : features->asObject())
            d.optionalFeatures.push_back({name, value.asString()});
    vectorWidthsFrom(v, "preferred_vector_widths", d.preferredVectorWidths);
    vectorWidthsFrom(v, "native_vector_widths", d.nativeVectorWidths);
    return d;
}

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos)
        return text;
    std::string q = "\"";
    for (char c : text)
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

JsonValue ceilingJson(const CeilingResult& c) {
    return JsonValue::Object{{"kernel", c.kernel},
                             {"bytes", std::uint64_t(c.bytes)},
                             {"median_ms", c.stats.medianMs},
                             {"min_ms", c.stats.minMs},
                             {"gbps", c.gbps}};
}

JsonValue timingStatsJson(const TimingStats& s) {
    JsonValue::Array samples;
    for (double v : s.samplesMs)
        samples.emplace_back(v);
    return JsonValue::Object{{"median_ms", s.medianMs},
                             {"min_ms", s.minMs},
                             {"max_ms", s.maxMs},
                             {"samples_ms", samples}};
}

TimingStats parseTimingStatsJson(const JsonValue& v) {
    std::vector<double> samples;
    for (const JsonValue& s : v.at("samples_ms").asArray())
        samples.push_back(s.asNumber());
    TimingStats t = samples.empty() ? TimingStats{} : summarize(samples);
    t.medianMs = v.at("median_ms").asNumber();
    t.minMs = v.at("min_ms").asNumber();
    t.maxMs = v.at("max_ms").asNumber();
    return t;
}

std::string histogramCsv(const HistogramRun& run) {
    std::ostringstream s;
    s << "bin";
    for (const auto& h : run.histograms)
        s << ',' << h.name;
    s << '\n';
    for (int b = 0; b < 256; ++b) {
        s << b;
        for (const auto& h : run.histograms)
            s << ',' << h.counts[b];
        s << '\n';
    }
    return s.str();
}

std::string histogramJson(const HistogramRun& run) {
    const HistogramConfig& c = run.config;
    std::ostringstream s;
    s << "{\n  \"tool\": \"histlab-cli histogram\",\n  \"date\": " << jsonString(utcTimestamp())
      << ",\n  \"device\": " << deviceJson(run.device, nullptr)
      << ",\n  \"input\": {\"source\": " << jsonString(run.input) << ", \"width\": " << run.width
      << ", \"height\": " << run.height << ", \"channels\": " << run.channels
      << ", \"depth\": " << run.sourceDepth << ", \"bytes\": " << run.bytes << "}"
      << ",\n  \"config\": {\"variant\": " << jsonString(variantName(c.variant))
      << ", \"banks\": " << c.banks << ", \"work_group_size\": " << c.workGroupSize
      << ", \"groups_per_cu\": " << c.groupsPerCu
      << ", \"read\": " << jsonString(readPatternName(c.read))
      << ", \"load\": " << jsonString(loadWidthName(c.load)) << ", \"unroll\": " << c.unroll
      << ", \"merge\": " << jsonString(mergeModeName(c.merge))
      << ", \"chosen_by\": " << jsonString(c.chosenBy)
      << ", \"description\": " << jsonString(c.describe()) << "}"
      << ",\n  \"passes\": [";
    for (std::size_t i = 0; i < run.passes.size(); ++i) {
        const auto& p = run.passes[i];
        s << (i ? ",\n    " : "\n    ") << "{\"what\": " << jsonString(p.what)
          << ", \"bytes\": " << p.bytes << ", \"gbps\": " << num(p.gbps)
          << ", \"percent_of_read_only\": " << num(p.percentOfCeiling)
          << ", \"timing\": " << timingJson(p.stats) << "}";
    }
    s << "],\n  \"read_only_ceiling\": {\"kernel\": " << jsonString(run.ceiling.kernel)
      << ", \"bytes\": " << run.ceiling.bytes << ", \"gbps\": " << num(run.ceiling.gbps)
      << ", \"timing\": " << timingJson(run.ceiling.stats) << "}";
    s << ",\n  \"stages\": [";
    for (std::size_t i = 0; i < run.stages.size(); ++i) {
        const auto& st = run.stages[i];
        s << (i ? ",\n    " : "\n    ") << "{\"stage\": " << jsonString(st.stage)
          << ", \"applicable\": " << (st.applicable ? "true" : "false");
        if (st.applicable)
            s << ", \"gbps\": " << num(st.gbps)
              << ", \"percent_of_read_only\": " << num(st.percentOfCeiling)
              << ", \"timing\": " << timingJson(st.stats);
        s << "}";
    }
    s << "],\n  \"host_peak_rss_bytes\": " << peakRssBytes();
    s << ",\n  \"verified\": " << (run.verified ? (*run.verified ? "true" : "false") : "null");
    if (!run.verifyDetail.empty())
        s << ",\n  \"verify_detail\": " << jsonString(run.verifyDetail);
    s << ",\n  \"notes\": [";
    for (std::size_t i = 0; i < run.notes.size(); ++i)
        s << (i ? ", " : "") << jsonString(run.notes[i]);
    s << "],\n  \"statistics\": [";
    for (std::size_t i = 0; i < run.histograms.size(); ++i) {
        const ChannelStatistics st =
            channelStatistics(run.histograms[i].name, run.histograms[i].counts);
        s << (i ? ",\n    " : "\n    ") << "{\"channel\": " << jsonString(st.name)
          << ", \"count\": " << st.count << ", \"min\": " << st.min << ", \"max\": " << st.max
          << ", \"mean\": " << num(st.mean) << ", \"median\": " << st.median
          << ", \"mode\": " << st.mode << ", \"stddev\": " << num(st.stddev)
          << ", \"percentiles\": {";
        for (std::size_t k = 0; k < kPercentiles.size(); ++k)
            s << (k ? ", " : "") << "\"p" << kPercentiles[k] << "\": " << st.percentiles[k];
        s << "}, \"entropy_bits\": " << num(st.entropy) << "}";
    }
    s << "],\n  \"histograms\": {";
    for (std::size_t i = 0; i < run.histograms.size(); ++i) {
        s << (i ? ",\n    " : "\n    ") << jsonString(run.histograms[i].name) << ": [";
        for (int b = 0; b < 256; ++b)
            s << (b ? "," : "") << run.histograms[i].counts[b];
        s << "]";
    }
    s << "\n  }\n}\n";
    return s.str();
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

std::string devicesJson(const std::vector<DeviceListing>& devices) {
    // One device a line: the file stays readable and diffs well.
    std::ostringstream s;
    s << "{\"date\": " << jsonString(utcTimestamp()) << ", \"devices\": [";
    for (std::size_t i = 0; i < devices.size(); ++i) {
        const DeviceListing& d = devices[i];
        JsonValue device = deviceInfoJson(d.info, d.capabilities ? &*d.capabilities : nullptr);
        if (!d.probeError.empty()) {
            JsonValue::Object o = device.asObject();
            o["probe_error"] = d.probeError;
            device = o;
        }
        s << (i ? ",\n  " : "\n  ") << device.dump();
    }
    return s.str() + "\n]}\n";
}

} // namespace histlab
