// Histogram distances against OpenCV's compareHist, the peer they follow: the same four
// methods on the same normalised histograms, equal to rounding.
#include <pipelines/histogram256/histogramdistance.h>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include <random>

using namespace histlab;

namespace {

cv::Mat normalised(const std::vector<std::uint64_t>& counts) {
    double total = 0;
    for (std::uint64_t c : counts)
        total += double(c);
    cv::Mat m(int(counts.size()), 1, CV_32F);
    for (std::size_t i = 0; i < counts.size(); ++i)
        m.at<float>(int(i)) = float(double(counts[i]) / total);
    return m;
}

} // namespace

TEST(HistogramDistance, MatchesOpenCvCompareHist) {
    std::mt19937 random(7);
    for (int trial = 0; trial < 20; ++trial) {
        std::vector<std::uint64_t> a(256), b(256);
        for (int i = 0; i < 256; ++i) {
            a[std::size_t(i)] = random() % 1000 * (i % 7 == 0 ? 0 : 1); // empty bins too
            b[std::size_t(i)] = random() % 5000;
        }
        const auto d = compareHistograms(a, b);
        ASSERT_TRUE(d);
        const cv::Mat ha = normalised(a), hb = normalised(b);
        EXPECT_NEAR(d->correlation, cv::compareHist(ha, hb, cv::HISTCMP_CORREL), 1e-5);
        EXPECT_NEAR(d->chiSquare, cv::compareHist(ha, hb, cv::HISTCMP_CHISQR), 1e-4);
        EXPECT_NEAR(d->intersection, cv::compareHist(ha, hb, cv::HISTCMP_INTERSECT), 1e-5);
        EXPECT_NEAR(d->bhattacharyya, cv::compareHist(ha, hb, cv::HISTCMP_BHATTACHARYYA), 1e-5);
    }
}

TEST(HistogramDistance, EqualDisjointAndIncomparable) {
    std::vector<std::uint64_t> a(256, 0), b(256, 0);
    a[10] = 5;
    a[20] = 5;
    const auto same = compareHistograms(a, std::vector<std::uint64_t>{a});
    ASSERT_TRUE(same);
    EXPECT_NEAR(same->correlation, 1, 1e-12);
    EXPECT_NEAR(same->chiSquare, 0, 1e-12);
    EXPECT_NEAR(same->intersection, 1, 1e-12);
    EXPECT_NEAR(same->bhattacharyya, 0, 1e-6);
    // Twice the pixels, the same shape: the same histogram as fractions.
    std::vector<std::uint64_t> twice = a;
    for (auto& c : twice)
        c *= 2;
    EXPECT_NEAR(compareHistograms(a, twice)->intersection, 1, 1e-12);
    b[200] = 3;
    const auto apart = compareHistograms(a, b);
    ASSERT_TRUE(apart);
    EXPECT_NEAR(apart->intersection, 0, 1e-12);
    EXPECT_NEAR(apart->bhattacharyya, 1, 1e-12);
    EXPECT_FALSE(compareHistograms(a, std::vector<std::uint64_t>(65536, 1)));
    EXPECT_FALSE(compareHistograms(a, std::vector<std::uint64_t>(256, 0)));
}
