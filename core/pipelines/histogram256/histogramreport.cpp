#include "pipelines/histogram256/histogramreport.h"

#include "report/files.h"
#include "report/json.h"
#include "report/text.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace histlab {

namespace {

// "verified: ..." for a run (nothing, or "not checked", when it was not verified).
void printVerified(std::ostream& out, const std::optional<bool>& verified,
                   const std::string& detail, bool sayNotChecked) {
    if (verified)
        out << "verified: "
            << (*verified ? "yes, bit-exact against the CPU reference" : "NO - " + detail) << '\n';
    else if (sayNotChecked)
        out << "verified: not checked (add --verify)\n";
}

} // namespace

Json histogramsJson(const std::vector<ChannelHistogram>& histograms) {
    Json out = Json::object();
    for (const ChannelHistogram& h : histograms)
        out[h.name] = h.counts;
    return out;
}

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
    for (const ChannelHistogram& h : run.histograms)
        statistics.push_back(statisticsJson(channelStatistics(h.name, h.counts)));
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
    j["histograms"] = histogramsJson(run.histograms);
    return jsonText(j);
}

std::string histogramText(const HistogramRun& run) {
    std::ostringstream out;
    out << deviceLine(run.device) << '\n';
    out << "input: " << run.input << ", " << run.width << " x " << run.height << ", "
        << run.channels << (run.channels == 1 ? " channel, " : " channels, ") << run.sourceDepth
        << "-bit (" << run.bytes << " bytes)\n";
    out << "config: " << run.config.describe() << " (" << run.config.chosenBy << ")\n";
    using A = TextTable::Align;
    auto timedRow = [](const std::string& what, std::uint64_t bytes, const TimingStats& t, double g,
                       double pct) {
        return std::vector<std::string>{what,
                                        std::to_string(bytes),
                                        fixedText(t.medianMs, 4),
                                        fixedText(t.minMs, 4),
                                        fixedText(g, 2),
                                        fixedText(pct, 1)};
    };
    const std::vector<TextTable::Column> columns{{"pass", A::Left}, {"bytes"}, {"median ms"},
                                                 {"min ms"},        {"GB/s"},  {"% read-only"}};
    TextTable passes(columns);
    for (const auto& p : run.passes)
        passes.add(timedRow(p.what, p.bytes, p.stats, p.gbps, p.percentOfCeiling));
    passes.add(timedRow("read-only ceiling", run.ceiling.bytes, run.ceiling.stats, run.ceiling.gbps,
                        100.0));
    out << passes.text();
    if (!run.stages.empty()) {
        out << "stage table (" << run.config.describe() << "):\n";
        std::vector<TextTable::Column> stageColumns = columns;
        stageColumns.front().header = "stage";
        TextTable stages(std::move(stageColumns), "  ");
        for (const auto& s : run.stages) {
            if (s.applicable)
                stages.add(timedRow(s.stage, run.bytes, s.stats, s.gbps, s.percentOfCeiling));
            else
                stages.addSpan({s.stage}, "n/a for this variant");
        }
        out << stages.text();
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
        out << std::left << std::setw(5) << h.name << std::right << "|"
            << sparkline(h.counts.data(), h.counts.size()) << "| total " << total << ", mode "
            << mode << " (" << peak << ")\n";
    }
    out << statisticsText(statisticsOf(run.histograms));
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
    using A = TextTable::Align;
    TextTable table(
        {{"wall clock, whole input", A::Left}, {"median ms"}, {"min ms"}, {"GB/s"}, {"% pinned"}});
    const double pinned = run.pinnedGBps;
    for (const EndToEndMode& m : endToEndModes(run))
        table.add({m.what, fixedText(m.stats->medianMs, 3), fixedText(m.stats->minMs, 3),
                   fixedText(m.gbps, 2), fixedText(pinned > 0 ? 100 * m.gbps / pinned : 0, 1)});
    out << table.text();
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

std::string splitText(const SplitRun& run) {
    std::ostringstream out;
    out << "histogram split over " << run.shares.size() << " devices: " << run.input << " ("
        << run.bytes << " bytes; " << run.layout.names() << ")\n";
    out << splitSharesText(run, run.bytes, "bytes", 1.0);
    for (const ChannelHistogram& h : run.histograms)
        out << h.name << std::string(h.name.size() < 5 ? 5 - h.name.size() : 0, ' ')
            << sparkline(h.counts.data(), 256) << '\n';
    out << splitVerifiedLine(run, "bin for bin");
    return out.str();
}

std::string splitJson(const SplitRun& run) {
    Json j{{"tool", "histlab-cli histogram --device (several)"},
           {"date", utcTimestamp()},
           {"input", run.input},
           {"bytes", run.bytes},
           {"histograms_counted", run.layout.names()}};
    addSplitJson(j, run, "bytes");
    j["histograms"] = histogramsJson(run.histograms);
    return jsonText(j);
}

} // namespace histlab
