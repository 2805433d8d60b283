#include "pipelines/histogram256/histogramreport.h"

#include "report/files.h"
#include "report/json.h"
#include "report/text.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace histlab {

namespace {

// 64 columns, 4 bins each, eight heights: enough to recognise a histogram in a terminal.
std::string sparkline(const std::array<std::uint64_t, 256>& counts) {
    static const char* blocks[] = {" ",      "\u2581", "\u2582", "\u2583", "\u2584",
                                   "\u2585", "\u2586", "\u2587", "\u2588"};
    std::array<std::uint64_t, 64> cols{};
    for (int b = 0; b < 256; ++b)
        cols[std::size_t(b / 4)] += counts[std::size_t(b)];
    const std::uint64_t top = *std::max_element(cols.begin(), cols.end());
    std::string s;
    for (auto c : cols)
        s += blocks[top ? (c == 0 ? 0 : 1 + (c * 7) / top) : 0];
    return s;
}

// "verified: ..." for a run (nothing, or "not checked", when it was not verified).
void printVerified(std::ostream& out, const std::optional<bool>& verified,
                   const std::string& detail, bool sayNotChecked) {
    if (verified)
        out << "verified: "
            << (*verified ? "yes, bit-exact against the CPU reference" : "NO - " + detail) << '\n';
    else if (sayNotChecked)
        out << "verified: not checked (add --verify)\n";
}

/// "p95": a percentile's column and key.
std::string percentileLabel(double percentile) {
    std::string label = "p"; // appended, not "p" + ...: GCC 12 at -O3 warns wrongly (PR 105329)
    label += std::to_string(int(percentile));
    return label;
}

} // namespace

Table histogramTable(const std::vector<ChannelHistogram>& histograms) {
    std::vector<std::string> columns{"bin"};
    for (const auto& h : histograms)
        columns.push_back(h.name);
    Table table(columns);
    for (int b = 0; b < 256; ++b) {
        table.row().add(b);
        for (const auto& h : histograms)
            table.add(h.counts[std::size_t(b)]);
    }
    return table;
}

std::string histogramCsv(const std::vector<ChannelHistogram>& histograms) {
    return histogramTable(histograms).csv();
}

std::string histogramCsv(const HistogramRun& run) {
    return histogramCsv(run.histograms);
}

std::vector<ChannelStatistics> statisticsOf(const std::vector<ChannelHistogram>& histograms) {
    std::vector<ChannelStatistics> stats;
    for (const ChannelHistogram& h : histograms)
        stats.push_back(channelStatistics(h.name, h.counts));
    return stats;
}

std::string histogramJson(const HistogramRun& run) {
    const HistogramConfig& c = run.config;
    Json passes = Json::array();
    for (const PassTiming& p : run.passes)
        passes.push_back({{"what", p.what},
                          {"bytes", p.bytes},
                          {"gbps", p.gbps},
                          {"percent_of_read_only", p.percentOfCeiling},
                          {"timing", timingJson(p.stats)}});
    Json stages = Json::array();
    for (const StageTiming& st : run.stages) {
        Json s{{"stage", st.stage}, {"applicable", st.applicable}};
        if (st.applicable) {
            s["gbps"] = st.gbps;
            s["percent_of_read_only"] = st.percentOfCeiling;
            s["timing"] = timingJson(st.stats);
        }
        stages.push_back(std::move(s));
    }
    Json statistics = Json::array();
    Json histograms = Json::object();
    for (const ChannelHistogram& h : run.histograms) {
        const ChannelStatistics st = channelStatistics(h.name, h.counts);
        Json percentiles = Json::object();
        for (std::size_t k = 0; k < kPercentiles.size(); ++k)
            percentiles[percentileLabel(kPercentiles[k])] = st.percentiles[k];
        statistics.push_back({{"channel", st.name},
                              {"count", st.count},
                              {"min", st.min},
                              {"max", st.max},
                              {"mean", st.mean},
                              {"median", st.median},
                              {"mode", st.mode},
                              {"stddev", st.stddev},
                              {"percentiles", std::move(percentiles)},
                              {"entropy_bits", st.entropy}});
        histograms[h.name] = h.counts;
    }
    Json j{{"tool", "histlab-cli histogram"},
           {"date", utcTimestamp()},
           {"device", deviceJson(run.device)},
           {"input",
            {{"source", run.input},
             {"width", run.width},
             {"height", run.height},
             {"channels", run.channels},
             {"depth", run.sourceDepth},
             {"bytes", run.bytes}}},
           {"config",
            {{"variant", variantName(c.variant)},
             {"banks", c.banks},
             {"work_group_size", c.workGroupSize},
             {"groups_per_cu", c.groupsPerCu},
             {"read", readPatternName(c.read)},
             {"load", loadWidthName(c.load)},
             {"unroll", c.unroll},
             {"merge", mergeModeName(c.merge)},
             {"chosen_by", c.chosenBy},
             {"description", c.describe()}}},
           {"passes", std::move(passes)},
           {"read_only_ceiling", ceilingJson(run.ceiling)},
           {"stages", std::move(stages)},
           {"host_peak_rss_bytes", peakRssBytes()},
           {"verified", run.verified ? Json(*run.verified) : Json()}};
    if (!run.verifyDetail.empty())
        j["verify_detail"] = run.verifyDetail;
    j["notes"] = run.notes;
    j["statistics"] = std::move(statistics);
    j["histograms"] = std::move(histograms);
    return jsonText(j);
}

std::string histogramText(const HistogramRun& run) {
    std::ostringstream out;
    out << deviceLine(run.device) << '\n';
    out << "input: " << run.input << ", " << run.width << " x " << run.height << ", "
        << run.channels << (run.channels == 1 ? " channel, " : " channels, ") << run.sourceDepth
        << "-bit (" << run.bytes << " bytes)\n";
    out << "config: " << run.config.describe() << " (" << run.config.chosenBy << ")\n";
    out << std::left << std::setw(22) << "pass" << std::right << std::setw(13) << "bytes"
        << std::setw(12) << "median ms" << std::setw(11) << "min ms" << std::setw(10) << "GB/s"
        << std::setw(13) << "% read-only" << '\n';
    auto row = [&](const std::string& what, std::uint64_t bytes, const TimingStats& t, double g,
                   double pct) {
        out << std::left << std::setw(22) << what << std::right << std::setw(13) << bytes
            << std::setw(12) << fixedText(t.medianMs, 4) << std::setw(11) << fixedText(t.minMs, 4)
            << std::setw(10) << fixedText(g, 2) << std::setw(13) << fixedText(pct, 1) << '\n';
    };
    for (const auto& p : run.passes)
        row(p.what, p.bytes, p.stats, p.gbps, p.percentOfCeiling);
    row("read-only ceiling", run.ceiling.bytes, run.ceiling.stats, run.ceiling.gbps, 100.0);
    if (!run.stages.empty()) {
        out << "stage table (" << run.config.describe() << "):\n";
        for (const auto& s : run.stages) {
            if (s.applicable)
                row("  " + s.stage, run.bytes, s.stats, s.gbps, s.percentOfCeiling);
            else
                out << "  " << std::left << std::setw(20) << s.stage << "n/a for this variant\n";
        }
    }
    out << "host memory: peak resident " << (peakRssBytes() >> 20) << " MiB (input "
        << (run.bytes >> 20) << " MiB)\n";
    for (const auto& n : run.notes)
        out << "note: " << n << '\n';
    for (const auto& h : run.histograms) {
        std::uint64_t total = 0, peak = 0;
        int mode = 0;
        for (int b = 0; b < 256; ++b) {
            total += h.counts[std::size_t(b)];
            if (h.counts[std::size_t(b)] > peak) {
                peak = h.counts[std::size_t(b)];
                mode = b;
            }
        }
        out << std::left << std::setw(5) << h.name << std::right << "|" << sparkline(h.counts)
            << "| total " << total << ", mode " << mode << " (" << peak << ")\n";
    }
    out << std::left << std::setw(6) << "stats" << std::right << std::setw(11) << "pixels"
        << std::setw(5) << "min" << std::setw(5) << "max" << std::setw(9) << "mean" << std::setw(7)
        << "median" << std::setw(6) << "mode" << std::setw(9) << "std.dev";
    for (double p : kPercentiles) {
        out << std::setw(5) << percentileLabel(p);
    }
    out << std::setw(9) << "entropy" << '\n';
    for (const ChannelStatistics& st : statisticsOf(run.histograms)) {
        out << std::left << std::setw(6) << st.name << std::right << std::setw(11) << st.count
            << std::setw(5) << st.min << std::setw(5) << st.max << std::setw(9)
            << fixedText(st.mean, 2) << std::setw(7) << st.median << std::setw(6) << st.mode
            << std::setw(9) << fixedText(st.stddev, 2);
        for (int p : st.percentiles)
            out << std::setw(5) << p;
        out << std::setw(9) << fixedText(st.entropy, 3) << '\n';
    }
    printVerified(out, run.verified, run.verifyDetail, true);
    return out.str();
}

namespace {

/// The end-to-end figures, one per mode: a name for files, a line for the text, timings, GB/s.
struct EndToEndMode {
    const char* key;
    const char* what;
    const TimingStats* stats;
    double gbps;
};

std::vector<EndToEndMode> endToEndModes(const EndToEndRun& run) {
    return {
        {"pinned_write", "host->device write from pinned memory", &run.pinnedWrite, run.pinnedGBps},
        {"pageable_write", "host->device write from ordinary memory", &run.pageableWrite,
         run.pageableGBps},
        {"stream_pinned", "end to end, input in pinned memory", &run.streamPinned,
         run.streamPinnedGBps},
        {"stream_staged", "end to end, ordinary memory, pinned staging", &run.streamStaged,
         run.streamStagedGBps},
        {"stream_pageable", "end to end, ordinary memory, direct writes", &run.streamPageable,
         run.streamPageableGBps}};
}

} // namespace

std::string endToEndText(const EndToEndRun& run, const std::string& input) {
    std::ostringstream out;
    out << deviceLine(run.device) << '\n';
    out << "input: " << input << " (" << run.bytes << " bytes), " << run.chunks << " chunks of "
        << run.chunkBytes << " bytes, " << run.hostThreads
        << " host copy threads\nconfig: " << run.config.describe() << " (" << run.config.chosenBy
        << ")\n";
    out << std::left << std::setw(44) << "wall clock, whole input" << std::right << std::setw(11)
        << "median ms" << std::setw(11) << "min ms" << std::setw(10) << "GB/s" << std::setw(10)
        << "% pinned" << '\n';
    const double pinned = run.pinnedGBps;
    for (const EndToEndMode& m : endToEndModes(run))
        out << std::left << std::setw(44) << m.what << std::right << std::setw(11)
            << fixedText(m.stats->medianMs, 3) << std::setw(11) << fixedText(m.stats->minMs, 3)
            << std::setw(10) << fixedText(m.gbps, 2) << std::setw(10)
            << fixedText(pinned > 0 ? 100 * m.gbps / pinned : 0, 1) << '\n';
    printVerified(out, run.verified, run.verifyDetail, false);
    return out.str();
}

std::string endToEndJson(const EndToEndRun& run, const std::string& input) {
    Json j{{"tool", "histlab-cli histogram --end-to-end"},
           {"date", utcTimestamp()},
           {"device", deviceJson(run.device)},
           {"input", input},
           {"bytes", run.bytes},
           {"chunk_bytes", run.chunkBytes},
           {"host_threads", run.hostThreads},
           {"config", run.config.describe()}};
    for (const EndToEndMode& m : endToEndModes(run))
        j[m.key] = {{"timing", timingJson(*m.stats)}, {"gbps", m.gbps}};
    j["verified"] = run.verified ? Json(*run.verified) : Json();
    if (!run.verifyDetail.empty())
        j["verify_detail"] = run.verifyDetail;
    return jsonText(j);
}

std::vector<ChannelHistogram> endToEndHistograms(const EndToEndRun& run) {
    return splitChannelCounts(run.counts, int(run.counts.size() / 256));
}

} // namespace histlab
