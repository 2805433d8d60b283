// The joint histogram split across devices (runJointSplit): the pieces cover the pairs once,
// the cells equal cells counted here independently of the core's reference (8-bit pairs and a
// mask), other sample types equal the one-device reference, and a device that fails leaves its
// piece to another without changing them. Runs in the unit.batch process, where PoCL shows two
// devices (POCL_DEVICES="pthread pthread").
#include "pipelines/largebin/jointrun.h"
#include "runtime/errors.h"
#include "unitsupport.h"

#include <gtest/gtest.h>

namespace histlab::test {
namespace {

JointRequest request(SampleType type, LargeBinData data, std::size_t pairs, int bins) {
    JointRequest r;
    r.a = makeLargeBinData(data, type, pairs, 1);
    r.b = makeLargeBinData(data, type, pairs, 2);
    r.spec = makeJointSpec(r.a, r.b, bins, bins, std::nullopt, std::nullopt);
    r.repeats = 1;
    return r;
}

TEST(JointSplitTest, EightBitPairsWithAMaskAddUpToEveryCell) {
    // No multiple of the pieces' unit; every third pair masked out.
    const std::size_t n = 100001;
    JointRequest r = request(SampleType::U8, LargeBinData::Random, n, 256);
    r.mask.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        r.mask[i] = i % 3 ? 1 : 0;
    std::vector<std::uint64_t> cells(256 * 256, 0);
    std::uint64_t leftOut = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (!r.mask[i])
            ++leftOut;
        else
            ++cells[std::size_t(r.a.bytes[i]) * 256 + r.b.bytes[i]];
    }
    const JointSplitRun run = runJointSplit(allSharedDevices(), r);
    EXPECT_EQ(run.verified, std::optional<bool>(true)) << run.verifyDetail;
    EXPECT_EQ(run.histogram.counts, cells);
    EXPECT_EQ(run.histogram.leftOut, leftOut);
    expectPiecesCover(run, run.pairs);
    for (const SplitShare& s : run.shares) {
        EXPECT_TRUE(s.failure.empty()) << s.failure;
        EXPECT_FALSE(s.config.empty());
    }
    EXPECT_GT(run.wall.medianMs, 0);
    EXPECT_GT(run.speedup, 0);
    // The MI of the summed table is the one of the reference's.
    EXPECT_EQ(run.mi.mi, mutualInformation(jointHistogramReference(r.a, r.b, r.spec, r.mask)).mi);
}

TEST(JointSplitTest, WideSamplesEqualTheReference) {
    for (const SampleType type : {SampleType::U16, SampleType::F32}) {
        const JointRequest r = request(type, LargeBinData::Skewed, 70001, 100);
        const JointSplitRun run = runJointSplit(allSharedDevices(), r);
        EXPECT_EQ(run.verified, std::optional<bool>(true)) << run.verifyDetail;
        const JointHistogram want = jointHistogramReference(r.a, r.b, r.spec);
        EXPECT_EQ(run.histogram.counts, want.counts);
        EXPECT_EQ(run.histogram.leftOut, want.leftOut);
        expectPiecesCover(run, run.pairs);
    }
}

TEST(JointSplitTest, AFailingDeviceLeavesItsPieceToAnother) {
    if (sharedDeviceSet().infos().size() < 2)
        GTEST_SKIP() << "one OpenCL device only (this test runs with POCL_DEVICES=\"pthread "
                        "pthread\" to get two)";
    const JointRequest r = request(SampleType::U8, LargeBinData::Smooth, 1 << 20, 64);
    const JointSplitRun run = runJointSplit(allSharedDevices(), r, {1, 0});
    EXPECT_EQ(run.verified, std::optional<bool>(true)) << run.verifyDetail;
    EXPECT_EQ(run.histogram.counts, jointHistogramReference(r.a, r.b, r.spec).counts);
    EXPECT_EQ(run.shares[1].failure.rfind("failed on purpose (HISTLAB_DEVICE_FAIL=1:0)", 0), 0u)
        << run.shares[1].failure;
    EXPECT_EQ(run.shares[1].redoneBy, 0);
    EXPECT_EQ(run.shares[1].length, 0u); // the timed runs split over the device left
    expectPiecesCover(run, run.pairs);
}

TEST(JointSplitTest, OneMethodOnly) {
    JointRequest r = request(SampleType::U8, LargeBinData::Random, 1000, 16);
    r.methods = {LargeBinMethod::Global, LargeBinMethod::Private};
    try {
        runJointSplit(allSharedDevices(), r);
        FAIL() << "two methods were split";
    } catch (const UsageError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("--method: several devices count with one method", 0),
                  0u)
            << e.what();
    }
}

} // namespace
} // namespace histlab::test
