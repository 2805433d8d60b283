#pragma once
// Statistics of a channel computed from its exact histogram (every value its own bin: 256 for
// 8-bit data, 65,536 for 16-bit). Percentiles are nearest-rank: the smallest value v whose
// cumulative count reaches p % of the pixels (so the 50th percentile is the lower median). Entropy
// is Shannon's, in bits.
#include "report/json.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace histlab {

/// Values are numbers: whole numbers for 8- and 16-bit channels (counted exactly, every value
/// its own bin); for a float channel the statistics of its finite samples (NaN and +-inf left
/// out), the mode being the most frequent exact value and the entropy that of the histogram's
/// bins.
struct ChannelStatistics {
    std::string name;        ///< "r", "g", "b", "a" or "gray"
    std::uint64_t count = 0; ///< pixels (float: finite samples)
    double min = 0, max = 0; ///< smallest and largest value present
    double mean = 0;
    double median = 0;                   ///< 50th percentile (nearest rank)
    double mode = 0;                     ///< most frequent value (the smallest one on a tie)
    double stddev = 0;                   ///< population standard deviation
    std::array<double, 8> percentiles{}; ///< at kPercentiles
    double entropy = 0;                  ///< bits per pixel, 0..8 (0..16 for 16-bit values)
};

/// The percentiles reported, in order.
inline constexpr std::array<double, 8> kPercentiles{1, 5, 10, 25, 75, 90, 95, 99};

/// Statistics of one channel's histogram; all zero (count 0) for an empty histogram.
ChannelStatistics channelStatistics(const std::string& name,
                                    const std::array<std::uint64_t, 256>& counts);

/// The same from counts of the values 0 ... size-1 (a 16-bit channel's 65,536 exact bins).
ChannelStatistics channelStatistics(const std::string& name,
                                    const std::vector<std::uint64_t>& countsByValue);

/// Statistics of float samples (any order; `values` is sorted in place): see ChannelStatistics.
/// `entropyBits` is the entropy of their histogram, which the caller has.
ChannelStatistics channelStatistics(const std::string& name, std::vector<float>& values,
                                    double entropyBits);

/// A statistic as text: whole numbers without a fraction, others with 9 significant digits.
std::string statisticText(double v);

/// The statistics as a table for people: stats, pixels, min, max, mean, median, mode, std.dev,
/// the percentiles, entropy; one row per channel.
std::string statisticsText(const std::vector<ChannelStatistics>& stats);

/// One channel's statistics as JSON: channel, count, min, max, mean, median, mode, stddev,
/// percentiles {"p1": ...}, entropy_bits.
Json statisticsJson(const ChannelStatistics& st);

/// CSV with one row per channel: channel,count,min,max,mean,median,mode,stddev,p1,p5,p10,p25,
/// p75,p90,p95,p99,entropy_bits.
std::string statisticsCsv(const std::vector<ChannelStatistics>& stats);

} // namespace histlab
