// Channel statistics from a 256-bin histogram (core/histogramstats.h), checked against values
// computed directly from the samples they count.
#include "pipelines/histogramstats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <vector>

namespace histlab {
namespace {

std::array<std::uint64_t, 256> countsOf(const std::vector<int>& values) {
    std::array<std::uint64_t, 256> c{};
    for (int v : values)
        ++c[v];
    return c;
}

// Nearest-rank percentile straight from the sorted samples.
int percentileOf(std::vector<int> sorted, double p) {
    std::sort(sorted.begin(), sorted.end());
    auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * double(sorted.size())));
    rank = std::max<std::size_t>(rank, 1);
    return sorted[rank - 1];
}

// 16-bit values: the same statistics from their 65,536 exact bins.
TEST(ChannelStatistics, SixteenBitValuesFromTheirExactBins) {
    std::vector<std::uint64_t> counts(65536, 0);
    counts[0] = 1;
    counts[1000] = 2;
    counts[65535] = 1;
    const ChannelStatistics s = channelStatistics("gray", counts);
    EXPECT_EQ(s.count, 4u);
    EXPECT_EQ(s.min, 0);
    EXPECT_EQ(s.max, 65535);
    EXPECT_DOUBLE_EQ(s.mean, (0 + 2000 + 65535) / 4.0);
    EXPECT_EQ(s.median, 1000);
    EXPECT_EQ(s.mode, 1000);
    EXPECT_DOUBLE_EQ(s.entropy, 1.5); // p = 1/4, 1/2, 1/4
}

TEST(ChannelStatistics, EmptyHistogramIsAllZero) {
    const ChannelStatistics s = channelStatistics("gray", std::array<std::uint64_t, 256>{});
    EXPECT_EQ(s.name, "gray");
    EXPECT_EQ(s.count, 0u);
    EXPECT_EQ(s.min, 0);
    EXPECT_EQ(s.max, 0);
    EXPECT_EQ(s.mean, 0.0);
    EXPECT_EQ(s.entropy, 0.0);
}

TEST(ChannelStatistics, OneValueRepeated) {
    const ChannelStatistics s = channelStatistics("r", countsOf(std::vector<int>(1000, 90)));
    EXPECT_EQ(s.count, 1000u);
    EXPECT_EQ(s.min, 90);
    EXPECT_EQ(s.max, 90);
    EXPECT_DOUBLE_EQ(s.mean, 90.0);
    EXPECT_EQ(s.median, 90);
    EXPECT_EQ(s.mode, 90);
    EXPECT_DOUBLE_EQ(s.stddev, 0.0);
    for (int p : s.percentiles)
        EXPECT_EQ(p, 90);
    EXPECT_EQ(s.entropy, 0.0); // not -0
    EXPECT_FALSE(std::signbit(s.entropy));
}

TEST(ChannelStatistics, EveryValueOnceHasEightBitsOfEntropy) {
    std::vector<int> all(256);
    for (int v = 0; v < 256; ++v)
        all[v] = v;
    const ChannelStatistics s = channelStatistics("g", countsOf(all));
    EXPECT_EQ(s.min, 0);
    EXPECT_EQ(s.max, 255);
    EXPECT_DOUBLE_EQ(s.mean, 127.5);
    EXPECT_EQ(s.median, 127); // nearest rank: the 128th of 256 values
    EXPECT_EQ(s.mode, 0);     // all tie: the smallest
    EXPECT_NEAR(s.stddev, std::sqrt((256.0 * 256.0 - 1.0) / 12.0), 1e-9);
    EXPECT_NEAR(s.entropy, 8.0, 1e-12);
}

TEST(ChannelStatistics, TwoValuesKnownByHand) {
    // 3 x 10 and 1 x 20: mean 12.5, variance (3 * 6.25 + 56.25) / 4 = 18.75.
    const ChannelStatistics s = channelStatistics("b", countsOf({10, 10, 10, 20}));
    EXPECT_DOUBLE_EQ(s.mean, 12.5);
    EXPECT_NEAR(s.stddev, std::sqrt(18.75), 1e-12);
    EXPECT_EQ(s.median, 10);
    EXPECT_EQ(s.mode, 10);
    EXPECT_EQ(s.percentiles[5], 20); // p99 of 4 values: rank 4
    EXPECT_NEAR(s.entropy, -(0.75 * std::log2(0.75) + 0.25 * std::log2(0.25)), 1e-12);
}

class RandomSamples : public ::testing::TestWithParam<unsigned> {};

TEST_P(RandomSamples, MatchDirectComputation) {
    std::mt19937 rng(GetParam());
    std::vector<int> values(1 + rng() % 20000);
    const int lo = int(rng() % 200), span = 1 + int(rng() % (256 - lo));
    for (int& v : values)
        v = lo + int(rng() % span);
    const ChannelStatistics s = channelStatistics("a", countsOf(values));
    ASSERT_EQ(s.count, values.size());
    EXPECT_EQ(s.min, *std::min_element(values.begin(), values.end()));
    EXPECT_EQ(s.max, *std::max_element(values.begin(), values.end()));
    double sum = 0;
    for (int v : values)
        sum += v;
    const double mean = sum / values.size();
    double var = 0;
    for (int v : values)
        var += (v - mean) * (v - mean);
    EXPECT_NEAR(s.mean, mean, 1e-9);
    EXPECT_NEAR(s.stddev, std::sqrt(var / values.size()), 1e-9);
    EXPECT_EQ(s.median, percentileOf(values, 50));
    for (std::size_t i = 0; i < kPercentiles.size(); ++i)
        EXPECT_EQ(s.percentiles[i], percentileOf(values, kPercentiles[i])) << kPercentiles[i];
    std::map<int, int> freq;
    for (int v : values)
        ++freq[v];
    int mode = 0, best = 0;
    double entropy = 0;
    for (auto [v, c] : freq) {
        if (c > best) {
            best = c;
            mode = v;
        }
        const double p = double(c) / values.size();
        entropy -= p * std::log2(p);
    }
    EXPECT_EQ(s.mode, mode);
    EXPECT_NEAR(s.entropy, entropy, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomSamples, ::testing::Range(1u, 21u));

TEST(ChannelStatistics, CsvHasOneRowPerChannelAndTheDocumentedHeader) {
    const std::vector<ChannelStatistics> stats{channelStatistics("r", countsOf({1, 2, 3})),
                                               channelStatistics("gray", countsOf({7}))};
    const std::string csv = statisticsCsv(stats);
    EXPECT_EQ(
        csv.substr(0, csv.find('\n')),
        "channel,count,min,max,mean,median,mode,stddev,p1,p5,p10,p25,p75,p90,p95,p99,entropy_bits");
    EXPECT_NE(csv.find("\nr,3,1,3,2,2,1,"), std::string::npos) << csv;
    EXPECT_NE(csv.find("\ngray,1,7,7,7,7,7,0,7,7,7,7,7,7,7,7,0\n"), std::string::npos) << csv;
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
}

// Float samples: statistics of the finite ones, nearest-rank percentiles, the smallest most
// frequent value as the mode; whole numbers stay integers in JSON, fractions do not.
TEST(ChannelStatistics, FloatSamples) {
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> v{0.5f, NAN, 2.5f, -1.0f, inf, 0.5f, 2.5f, -inf, 4.0f};
    const ChannelStatistics s = channelStatistics("gray", v, 1.25);
    EXPECT_EQ(s.count, 6u); // -1, 0.5, 0.5, 2.5, 2.5, 4
    EXPECT_EQ(s.min, -1.0);
    EXPECT_EQ(s.max, 4.0);
    EXPECT_DOUBLE_EQ(s.mean, 9.0 / 6.0);
    EXPECT_EQ(s.median, 0.5); // rank ceil(0.5 * 6) = 3
    EXPECT_EQ(s.mode, 0.5);   // 0.5 and 2.5 twice each: the smaller
    EXPECT_EQ(s.percentiles[0], -1.0);
    EXPECT_EQ(s.percentiles[5], 4.0);
    EXPECT_EQ(s.entropy, 1.25);
    const Json j = statisticsJson(s);
    EXPECT_TRUE(j["min"].is_number_integer());
    EXPECT_TRUE(j["median"].is_number_float());
    EXPECT_EQ(statisticText(0.5), "0.5");
    EXPECT_EQ(statisticText(65535), "65535");
    std::vector<float> none{NAN};
    EXPECT_EQ(channelStatistics("gray", none, 0).count, 0u);
}

} // namespace
} // namespace histlab
