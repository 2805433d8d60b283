#include "report.h"

#include "errors.h"
#include "histogramstats.h"

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
    std::ostringstream s;
    s << "{\"index\": " << d.index << ", \"name\": " << jsonString(d.name)
      << ", \"type\": " << jsonString(deviceTypeName(d.type))
      << ", \"platform\": " << jsonString(d.platformName)
      << ", \"platform_version\": " << jsonString(d.platformVersion)
      << ", \"vendor\": " << jsonString(d.vendor) << ", \"driver\": " << jsonString(d.driverVersion)
      << ", \"version\": " << jsonString(d.deviceVersion)
      << ", \"opencl_c\": " << jsonString(d.openclCVersion)
      << ", \"compute_units\": " << d.computeUnits << ", \"max_clock_mhz\": " << d.maxClockMHz
      << ", \"local_mem_bytes\": " << d.localMemBytes
      << ", \"global_mem_bytes\": " << d.globalMemBytes
      << ", \"max_alloc_bytes\": " << d.maxAllocBytes
      << ", \"max_work_group_size\": " << d.maxWorkGroupSize;
    if (caps)
        s << ", \"probes\": {\"non_uniform_work_groups\": "
          << (caps->nonUniformWorkGroups ? "true" : "false")
          << ", \"non_uniform_detail\": " << jsonString(caps->nonUniformDetail)
          << ", \"work_group_scan\": " << (caps->workGroupScan ? "true" : "false")
          << ", \"work_group_scan_detail\": " << jsonString(caps->workGroupScanDetail) << "}";
    return s.str() + "}";
}

} // namespace

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
    std::ostringstream s;
    s << "{\"date\": " << jsonString(utcTimestamp()) << ", \"devices\": [";
    for (std::size_t i = 0; i < devices.size(); ++i)
        s << (i ? ",\n  " : "\n  ")
          << deviceJson(devices[i], i < capabilities.size() ? &capabilities[i] : nullptr);
    return s.str() + "\n]}\n";
}

} // namespace histlab
