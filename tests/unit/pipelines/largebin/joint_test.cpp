// Joint histograms on the host: cells, marginals and left-out pairs by hand (ranges, NaN, a
// mask), the entropies and mutual information in closed form (independent and identical
// images), scikit-image's normalized mutual information on a fixture, and the checks of
// mismatched inputs.
#include "unitsupport.h"

#include "pipelines/largebin/joint.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace histlab {
namespace {

SamplePlane u8Plane(const std::vector<std::uint8_t>& v, const std::string& name = "a") {
    SamplePlane p;
    p.type = SampleType::U8;
    p.bytes = v;
    p.source = name;
    return p;
}

TEST(JointReference, CellsMarginalsAndLeftOutPairs) {
    // 4 bins per axis over [0, 8]: bin = v / 2 (8 itself in the last bin); 9 is above.
    const SamplePlane a = u8Plane({0, 1, 2, 3, 7, 8, 9, 5});
    const SamplePlane b = u8Plane({0, 0, 7, 7, 4, 8, 1, 5}, "b");
    const JointSpec spec = makeJointSpec(a, b, 4, 4, BinRange{0, 8}, BinRange{0, 8});
    const JointHistogram h = jointHistogramReference(a, b, spec);
    auto cell = [&](int i, int j) { return h.counts[std::size_t(i * 4 + j)]; };
    EXPECT_EQ(cell(0, 0), 2u); // (0,0), (1,0)
    EXPECT_EQ(cell(1, 3), 2u); // (2,7), (3,7)
    EXPECT_EQ(cell(3, 2), 1u); // (7,4)
    EXPECT_EQ(cell(3, 3), 1u); // (8,8): both upper limits, the closed last bins
    EXPECT_EQ(cell(2, 2), 1u); // (5,5)
    EXPECT_EQ(h.leftOut, 1u);  // (9,1): a above its range
    EXPECT_EQ(h.counted(), 7u);
    EXPECT_EQ(h.marginalA(), (std::vector<std::uint64_t>{2, 2, 1, 2}));
    EXPECT_EQ(h.marginalB(), (std::vector<std::uint64_t>{2, 0, 2, 3}));
    // A mask leaves out the pairs where it is 0.
    const JointHistogram m =
        jointHistogramReference(a, b, spec, std::vector<std::uint8_t>{1, 0, 1, 1, 1, 1, 1, 0});
    EXPECT_EQ(m.counts[0], 1u);
    EXPECT_EQ(m.leftOut, 3u);
}

TEST(JointReference, IdenticalAndIndependentImages) {
    // Identical: MI = H(A) = H(B) = H(A,B), so Studholme's (H + H) / H = 2.
    std::vector<std::uint8_t> v;
    for (int i = 0; i < 256; ++i)
        v.push_back(std::uint8_t(i));
    const SamplePlane a = u8Plane(v), b = u8Plane(v, "b");
    const MutualInformation same =
        mutualInformation(jointHistogramReference(a, b, makeJointSpec(a, b, 16, 16, {}, {})));
    EXPECT_NEAR(same.entropyA, 4.0, 1e-12); // 16 equally filled bins
    EXPECT_NEAR(same.jointEntropy, 4.0, 1e-12);
    EXPECT_NEAR(same.mi, 4.0, 1e-12);
    EXPECT_NEAR(same.nmiStudholme, 2.0, 1e-12);
    EXPECT_NEAR(same.nmiArithmetic, 1.0, 1e-12);
    EXPECT_NEAR(same.nmiGeometric, 1.0, 1e-12);
    // Independent: every (i, j) of 4 x 4 bins once: MI = 0, H(A,B) = H(A) + H(B) = 4.
    std::vector<std::uint8_t> x, y;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            x.push_back(std::uint8_t(i * 64));
            y.push_back(std::uint8_t(j * 64));
        }
    const SamplePlane xa = u8Plane(x), yb = u8Plane(y, "b");
    const MutualInformation ind =
        mutualInformation(jointHistogramReference(xa, yb, makeJointSpec(xa, yb, 4, 4, {}, {})));
    EXPECT_NEAR(ind.mi, 0.0, 1e-12);
    EXPECT_NEAR(ind.jointEntropy, 4.0, 1e-12);
    EXPECT_NEAR(ind.nmiStudholme, 1.0, 1e-12);
    // Constant images: every entropy 0, the normalised variants undefined (NaN), not 0/0 = crash.
    const SamplePlane c = u8Plane(std::vector<std::uint8_t>(10, 7));
    const MutualInformation k =
        mutualInformation(jointHistogramReference(c, c, makeJointSpec(c, c, 8, 8, {}, {})));
    EXPECT_EQ(k.mi, 0.0);
    EXPECT_TRUE(std::isnan(k.nmiStudholme));
    EXPECT_TRUE(std::isnan(k.nmiGeometric));
}

// scikit-image 0.19.3 (Debian 12's python3-skimage) printed these for
// normalized_mutual_information(a, b, bins=N) on the two sequences below; it bins each image over
// its own [min, max] (np.histogramdd), which is the range given here.
TEST(JointReference, NormalizedMutualInformationEqualsScikitImage) {
    std::vector<std::uint8_t> x, y;
    for (int i = 0; i < 64; ++i) {
        x.push_back(std::uint8_t((i * 37 + 11) % 200));
        y.push_back(std::uint8_t((i * i * 13 + 5) % 251));
    }
    const SamplePlane a = u8Plane(x), b = u8Plane(y, "b");
    const std::pair<int, double> skimage[] = {
        {4, 1.0277355135614767}, {8, 1.1483405380281737}, {16, 1.3366496880935632}};
    for (const auto& [bins, expected] : skimage) {
        const JointSpec spec = makeJointSpec(a, b, bins, bins, BinRange{2, 196}, BinRange{5, 248});
        EXPECT_NEAR(mutualInformation(jointHistogramReference(a, b, spec)).nmiStudholme, expected,
                    1e-12)
            << bins;
    }
}

TEST(JointReference, BadInputsNameWhatIsWrong) {
    const SamplePlane a = u8Plane({1, 2, 3}, "a.png"), b = u8Plane({1, 2}, "b.png");
    try {
        makeJointSpec(a, b, 8, 8, {}, {});
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "a.png and b.png differ in size (3 and 2 samples)");
    }
    EXPECT_EQ(test::refusedParameter([&] { makeJointSpec(a, a, 0, 8, {}, {}); }), "--bins");
    EXPECT_EQ(test::refusedParameter([&] { makeJointSpec(a, a, 8, 1025, {}, {}); }), "--bins");
    EXPECT_EQ(test::refusedParameter([] { parseJointBins("256,0"); }), "--bins");
    EXPECT_EQ(parseJointBins("64"), (std::pair<int, int>{64, 64}));
    EXPECT_EQ(parseJointBins("32,1024"), (std::pair<int, int>{32, 1024}));
}

// Every joint method (global, local, multipass, local16, private, tagged) on the device, cell by
// cell against the reference: 8-bit, 16-bit and float
// planes of awkward sizes, square and lopsided bins (1,024 x 1,024 is two slices on PoCL), ranges
// that leave pairs out, with and without a mask.
TEST(JointDevice, EveryMethodIsExact) {
    Device& device = test::sharedDevice();
    for (SampleType type : {SampleType::U8, SampleType::U16, SampleType::F32}) {
        for (std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(70001)}) {
            const SamplePlane a = makeLargeBinData(LargeBinData::Random, type, n, 11);
            const SamplePlane b = makeLargeBinData(LargeBinData::Smooth, type, n, 12);
            std::vector<std::uint8_t> mask(n);
            for (std::size_t i = 0; i < n; ++i)
                mask[i] = std::uint8_t(i % 3 ? 255 : 0);
            const cl::Buffer ba = uploadPlane(device, a), bb = uploadPlane(device, b);
            SamplePlane maskPlane;
            maskPlane.type = SampleType::U8;
            maskPlane.bytes = mask;
            const cl::Buffer bm = uploadPlane(device, maskPlane);
            const std::optional<BinRange> range = type == SampleType::F32
                                                      ? std::optional<BinRange>(BinRange{0.1, 0.9})
                                                      : std::nullopt;
            for (auto [bx, by] : {std::pair{256, 256}, std::pair{16, 1024}, std::pair{1, 1},
                                  std::pair{7, 3}, std::pair{1024, 1024}}) {
                if (bx * by > 65536 && n < 1000)
                    continue; // the big grids once, on the big input
                const JointSpec spec = makeJointSpec(a, b, bx, by, range, range);
                for (bool masked : {false, true}) {
                    const JointHistogram ref = jointHistogramReference(
                        a, b, spec, masked ? mask : std::vector<std::uint8_t>{});
                    for (LargeBinMethod m : jointMethods()) {
                        SCOPED_TRACE(std::string(largeBinMethodName(m)) + " " +
                                     sampleTypeName(type) + " n=" + std::to_string(n) + " " +
                                     std::to_string(bx) + "x" + std::to_string(by) +
                                     (masked ? " masked" : ""));
                        const JointPoint p = runJointPoint(device, ba, bb, masked ? &bm : nullptr,
                                                           n, spec, ref, m, 1);
                        // local keeps every cell in local memory: PoCL's 2 MiB hold 256 x 256,
                        // not 1,024 x 1,024, and the run must say so rather than count.
                        const bool fits =
                            planSlotGeometry(device.info(), type, spec.cells() + 1, n, m).supported;
                        EXPECT_EQ(p.status, fits ? Status::Verified : Status::Unsupported)
                            << p.detail;
                    }
                }
            }
        }
    }
}

// A whole MI evaluation on the device (count, then the entropies kernel in double precision):
// its entropies equal the host's, with and without a mask, square and lopsided tables.
TEST(JointDevice, MiEvaluationEqualsTheHostsEntropies) {
    Device& device = test::sharedDevice();
    const std::size_t n = 50021;
    for (SampleType type : {SampleType::U8, SampleType::U16}) {
        const SamplePlane a = makeLargeBinData(LargeBinData::Smooth, type, n, 3);
        const SamplePlane b = makeLargeBinData(LargeBinData::Smooth, type, n, 4);
        std::vector<std::uint8_t> mask(n);
        for (std::size_t i = 0; i < n; ++i)
            mask[i] = std::uint8_t(i % 5 ? 1 : 0);
        SamplePlane maskPlane;
        maskPlane.type = SampleType::U8;
        maskPlane.bytes = mask;
        const cl::Buffer ba = uploadPlane(device, a), bb = uploadPlane(device, b),
                         bm = uploadPlane(device, maskPlane);
        for (auto [bx, by] : {std::pair{256, 256}, std::pair{1024, 3}}) {
            const JointSpec spec = makeJointSpec(a, b, bx, by, std::nullopt, std::nullopt);
            for (bool masked : {false, true}) {
                const MutualInformation ref = mutualInformation(jointHistogramReference(
                    a, b, spec, masked ? mask : std::vector<std::uint8_t>{}));
                const MiEvaluation e = runMiEvaluation(device, ba, bb, masked ? &bm : nullptr, n,
                                                       spec, ref, LargeBinMethod::Auto, 2);
                SCOPED_TRACE(std::string(sampleTypeName(type)) + " " + std::to_string(bx) + "x" +
                             std::to_string(by) + (masked ? " masked" : ""));
                ASSERT_EQ(e.status, Status::Verified) << e.detail;
                EXPECT_GT(e.perSecond, 0);
                EXPECT_NEAR(e.mi.mi, ref.mi, 1e-8);
                EXPECT_NEAR(e.mi.nmiStudholme, ref.nmiStudholme, 1e-8);
            }
        }
    }
}

TEST(JointMi, FromTheThreeEntropies) {
    const MutualInformation m = mutualInformationOf(2.0, 3.0, 4.0);
    EXPECT_EQ(m.mi, 1.0);
    EXPECT_EQ(m.nmiStudholme, 5.0 / 4.0);
    EXPECT_EQ(m.nmiArithmetic, 2.0 / 5.0);
    EXPECT_DOUBLE_EQ(m.nmiGeometric, 1.0 / std::sqrt(6.0));
    EXPECT_TRUE(std::isnan(mutualInformationOf(0, 0, 0).nmiStudholme));
}

} // namespace
} // namespace histlab
