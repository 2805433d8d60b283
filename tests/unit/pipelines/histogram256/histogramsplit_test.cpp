// One input split across devices (runHistogramSplit): the pieces cover the input once, the
// counts equal counts made independently of the core's reference, and a device that fails
// leaves its piece to another without changing them. Runs in the unit.batch process, where
// PoCL shows two devices (POCL_DEVICES="pthread pthread").
#include "pipelines/histogram256/histogram256.h"
#include "runtime/errors.h"
#include "unitsupport.h"

#include <gtest/gtest.h>

namespace histlab::test {
namespace {

void expectCounts(const SplitRun& run, const HostImage& image) {
    const auto want = independentCounts(image);
    ASSERT_EQ(run.histograms.size(), want.size());
    for (const ChannelHistogram& h : run.histograms)
        EXPECT_EQ(h.counts, want.at(h.name)) << h.name;
    EXPECT_EQ(run.verified, std::optional<bool>(true)) << run.verifyDetail;
}

TEST(HistogramSplitTest, PiecesAddUpToTheWholeHistogram) {
    // An RGB image whose size is no multiple of the pieces' unit, and a gray one smaller than
    // one unit (one device takes it all).
    for (const HostImage& image : {syntheticImage(SyntheticKind::Random, 700001, 3),
                                   syntheticImage(SyntheticKind::Skewed, 5000, 1)}) {
        const SplitRun run = runHistogramSplit(allSharedDevices(), image, {}, 1, 1 << 20);
        expectCounts(run, image);
        expectPiecesCover(run, run.bytes);
        EXPECT_GT(run.wall.medianMs, 0);
        EXPECT_GT(run.speedup, 0);
        for (const SplitShare& s : run.shares)
            EXPECT_TRUE(s.failure.empty()) << s.failure;
    }
}

TEST(HistogramSplitTest, AFailingDeviceLeavesItsPieceToAnother) {
    if (sharedDeviceSet().infos().size() < 2)
        GTEST_SKIP() << "one OpenCL device only (this test runs with POCL_DEVICES=\"pthread "
                        "pthread\" to get two)";
    const HostImage image = syntheticImage(SyntheticKind::Random, 3 << 20, 4);
    const SplitRun run = runHistogramSplit(allSharedDevices(), image, {}, 1, 1 << 20, {1, 0});
    expectCounts(run, image);
    EXPECT_EQ(run.shares[1].failure.rfind("failed on purpose (HISTLAB_DEVICE_FAIL=1:0)", 0), 0u)
        << run.shares[1].failure;
    EXPECT_EQ(run.shares[1].redoneBy, 0);
    // The timed runs split over the device left.
    EXPECT_EQ(run.shares[1].length, 0u);
    EXPECT_EQ(run.shares[0].length, run.bytes);
    expectPiecesCover(run, run.bytes);
}

TEST(HistogramSplitTest, OnlyEightBitDataIsSplit) {
    HostImage image = makeSyntheticImage(SyntheticKind::Random, 16, 16, 1, 16);
    try {
        runHistogramSplit(allSharedDevices(), image, {}, 1, 1 << 20);
        FAIL() << "a 16-bit image was split";
    } catch (const UsageError& e) {
        EXPECT_EQ(std::string(e.what()), "--device: several devices split 8-bit images (this one "
                                         "is 16-bit)");
    }
}

} // namespace
} // namespace histlab::test
