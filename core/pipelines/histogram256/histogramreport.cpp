#include "pipelines/histogram256/histogramreport.h"

#include "pipelines/histogram256/histogramstats.h"
#include "report/files.h"
#include "report/json.h"
#include "report/table.h"

namespace histlab {

std::string histogramCsv(const HistogramRun& run) {
    std::vector<std::string> columns{"bin"};
    for (const auto& h : run.histograms)
        columns.push_back(h.name);
    Table table(columns);
    for (int b = 0; b < 256; ++b) {
        table.row().add(b);
        for (const auto& h : run.histograms)
            table.add(h.counts[std::size_t(b)]);
    }
    return table.csv();
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
            percentiles["p" + std::to_string(int(kPercentiles[k]))] = st.percentiles[k];
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

} // namespace histlab
