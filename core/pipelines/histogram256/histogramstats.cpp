#include "pipelines/histogram256/histogramstats.h"

#include "report/text.h"

#include <cmath>
#include <sstream>

namespace histlab {
namespace {

// Smallest value whose cumulative count reaches `rank` (1-based).
int valueAtRank(const std::uint64_t* counts, std::size_t values, std::uint64_t rank) {
    std::uint64_t seen = 0;
    for (std::size_t v = 0; v < values; ++v) {
        seen += counts[v];
        if (seen >= rank)
            return int(v);
    }
    return int(values) - 1;
}

// "p95": a percentile's column and key.
std::string percentileLabel(double percentile) {
    std::string label = "p"; // appended, not "p" + ...: GCC 12 at -O3 warns wrongly (PR 105329)
    label += std::to_string(int(percentile));
    return label;
}

// Nearest rank of percentile p among n values: ceil(p / 100 * n), at least 1.
std::uint64_t nearestRank(double p, std::uint64_t n) {
    const auto r = static_cast<std::uint64_t>(std::ceil(p / 100.0 * double(n)));
    return r < 1 ? 1 : r;
}

ChannelStatistics statisticsOfCounts(const std::string& name, const std::uint64_t* counts,
                                     std::size_t values) {
    ChannelStatistics s;
    s.name = name;
    std::uint64_t n = 0;
    long double sum = 0;
    for (std::size_t v = 0; v < values; ++v) {
        n += counts[v];
        sum += static_cast<long double>(counts[v]) * v;
    }
    s.count = n;
    if (n == 0)
        return s;
    s.min = valueAtRank(counts, values, 1);
    s.max = int(values) - 1;
    while (counts[s.max] == 0)
        --s.max;
    s.mean = static_cast<double>(sum / n);
    long double var = 0, entropy = 0;
    std::uint64_t best = 0;
    for (std::size_t v = 0; v < values; ++v) {
        const std::uint64_t c = counts[v];
        if (c == 0)
            continue;
        const long double d = v - static_cast<long double>(s.mean);
        var += c * d * d;
        const long double p = static_cast<long double>(c) / n;
        entropy -= p * std::log2(p);
        if (c > best) {
            best = c;
            s.mode = int(v);
        }
    }
    s.stddev = static_cast<double>(std::sqrt(var / n));
    s.entropy = static_cast<double>(entropy) + 0.0; // + 0.0 turns -0 into 0
    s.median = valueAtRank(counts, values, nearestRank(50, n));
    for (std::size_t i = 0; i < kPercentiles.size(); ++i)
        s.percentiles[i] = valueAtRank(counts, values, nearestRank(kPercentiles[i], n));
    return s;
}

} // namespace

ChannelStatistics channelStatistics(const std::string& name,
                                    const std::array<std::uint64_t, 256>& counts) {
    return statisticsOfCounts(name, counts.data(), counts.size());
}

ChannelStatistics channelStatistics(const std::string& name,
                                    const std::vector<std::uint64_t>& countsByValue) {
    return statisticsOfCounts(name, countsByValue.data(), countsByValue.size());
}

Json statisticsJson(const ChannelStatistics& st) {
    Json percentiles = Json::object();
    for (std::size_t k = 0; k < kPercentiles.size(); ++k) {
        percentiles[percentileLabel(kPercentiles[k])] = st.percentiles[k];
    }
    return {{"channel", st.name},
            {"count", st.count},
            {"min", st.min},
            {"max", st.max},
            {"mean", st.mean},
            {"median", st.median},
            {"mode", st.mode},
            {"stddev", st.stddev},
            {"percentiles", std::move(percentiles)},
            {"entropy_bits", st.entropy}};
}

std::string statisticsText(const std::vector<ChannelStatistics>& stats) {
    using A = TextTable::Align;
    std::vector<TextTable::Column> columns{{"stats", A::Left}, {"pixels"}, {"min"},  {"max"},
                                           {"mean"},           {"median"}, {"mode"}, {"std.dev"}};
    for (double p : kPercentiles)
        columns.push_back({percentileLabel(p)});
    columns.push_back({"entropy"});
    TextTable table(std::move(columns));
    for (const ChannelStatistics& st : stats) {
        std::vector<std::string> cells{st.name,
                                       std::to_string(st.count),
                                       std::to_string(st.min),
                                       std::to_string(st.max),
                                       fixedText(st.mean, 2),
                                       std::to_string(st.median),
                                       std::to_string(st.mode),
                                       fixedText(st.stddev, 2)};
        for (int p : st.percentiles)
            cells.push_back(std::to_string(p));
        cells.push_back(fixedText(st.entropy, 3));
        table.add(std::move(cells));
    }
    return table.text();
}

std::string statisticsCsv(const std::vector<ChannelStatistics>& stats) {
    std::ostringstream o;
    o << "channel,count,min,max,mean,median,mode,stddev";
    for (double p : kPercentiles)
        o << ",p" << p;
    o << ",entropy_bits\n";
    o.precision(10);
    for (const auto& s : stats) {
        o << s.name << ',' << s.count << ',' << s.min << ',' << s.max << ',' << s.mean << ','
          << s.median << ',' << s.mode << ',' << s.stddev;
        for (int p : s.percentiles)
            o << ',' << p;
        o << ',' << s.entropy << '\n';
    }
    return o.str();
}

} // namespace histlab
