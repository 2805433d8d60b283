#include "pipelines/histogramstats.h"

#include "report/text.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>

namespace histlab {
namespace {

// Smallest value whose cumulative count reaches `rank` (1-based).
double valueAtRank(const std::uint64_t* counts, std::size_t values, std::uint64_t rank) {
    std::uint64_t seen = 0;
    for (std::size_t v = 0; v < values; ++v) {
        seen += counts[v];
        if (seen >= rank)
            return double(v);
    }
    return double(values) - 1;
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
    std::size_t last = values - 1;
    while (counts[last] == 0)
        --last;
    s.max = double(last);
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
            s.mode = double(v);
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

ChannelStatistics channelStatistics(const std::string& name, std::vector<float>& values,
                                    double entropyBits) {
    values.erase(
        std::remove_if(values.begin(), values.end(), [](float v) { return !std::isfinite(v); }),
        values.end());
    std::sort(values.begin(), values.end());
    ChannelStatistics s;
    s.name = name;
    s.count = values.size();
    if (values.empty())
        return s;
    const std::uint64_t n = s.count;
    s.min = values.front();
    s.max = values.back();
    long double sum = 0;
    for (float v : values)
        sum += v;
    s.mean = static_cast<double>(sum / n);
    long double var = 0;
    std::size_t bestRun = 0;
    for (std::size_t i = 0; i < values.size();) {
        std::size_t j = i;
        while (j < values.size() && values[j] == values[i])
            ++j;
        if (j - i > bestRun) { // sorted: the first longest run is the smallest value
            bestRun = j - i;
            s.mode = values[i];
        }
        i = j;
    }
    for (float v : values) {
        const long double d = v - static_cast<long double>(s.mean);
        var += d * d;
    }
    s.stddev = static_cast<double>(std::sqrt(var / n));
    const auto atRank = [&values](std::uint64_t rank) { return double(values[rank - 1]); };
    s.median = atRank(nearestRank(50, n));
    for (std::size_t i = 0; i < kPercentiles.size(); ++i)
        s.percentiles[i] = atRank(nearestRank(kPercentiles[i], n));
    s.entropy = entropyBits + 0.0;
    return s;
}

std::string statisticText(double v) {
    std::ostringstream o;
    o.precision(9);
    o << v;
    return o.str();
}

namespace {

/// Whole numbers as JSON integers (as they always were for integer channels), others as doubles.
Json statisticJson(double v) {
    if (std::isfinite(v) && v == std::trunc(v) && std::fabs(v) < 9.0e15)
        return Json(static_cast<std::int64_t>(v));
    return Json(v);
}

} // namespace

Json statisticsJson(const ChannelStatistics& st) {
    Json percentiles = Json::object();
    for (std::size_t k = 0; k < kPercentiles.size(); ++k) {
        percentiles[percentileLabel(kPercentiles[k])] = statisticJson(st.percentiles[k]);
    }
    return {{"channel", st.name},
            {"count", st.count},
            {"min", statisticJson(st.min)},
            {"max", statisticJson(st.max)},
            {"mean", st.mean},
            {"median", statisticJson(st.median)},
            {"mode", statisticJson(st.mode)},
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
                                       statisticText(st.min),
                                       statisticText(st.max),
                                       fixedText(st.mean, 2),
                                       statisticText(st.median),
                                       statisticText(st.mode),
                                       fixedText(st.stddev, 2)};
        for (double p : st.percentiles)
            cells.push_back(statisticText(p));
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
        for (double p : s.percentiles)
            o << ',' << p;
        o << ',' << s.entropy << '\n';
    }
    return o.str();
}

} // namespace histlab
