// Colocalisation (Pearson, Manders, Costes' thresholds, Li's ICQ) on the host: tiny pairs whose
// coefficients are worked out by hand in the comments (both searches), identical, inverted and
// constant channels, a mask and ranges; the stepwise search's one pass against one pass per
// candidate; then the device's passes against the CPU reference's, sum for sum, whole and in
// pieces.
#include "unitsupport.h"

#include "pipelines/largebin/coloc.h"

#include <gtest/gtest.h>

#include <cmath>

namespace histlab {
namespace {

SamplePlane plane(SampleType type, const std::vector<int>& v, const std::string& name = "a") {
    SamplePlane p;
    p.type = type;
    p.source = name;
    for (int x : v) {
        p.bytes.push_back(std::uint8_t(x & 0xFF));
        if (type == SampleType::U16)
            p.bytes.push_back(std::uint8_t(x >> 8));
    }
    return p;
}

/// The reference's colocalisation; the hand-worked cases below follow Coloc 2's bisection.
Colocalisation coloc(const std::vector<int>& a, const std::vector<int>& b,
                     const std::vector<std::uint8_t>& mask = {},
                     CostesSearch search = CostesSearch::Bisection) {
    const SamplePlane pa = plane(SampleType::U8, a), pb = plane(SampleType::U8, b, "b");
    return colocalisationReference(pa, pb, makeJointSpec(pa, pb, 16, 16, {}, {}), mask, search);
}

ColocMoments minus(const ColocMoments& x, const ColocMoments& y) {
    return {x.n - y.n, x.a - y.a, x.b - y.b, x.aa - y.aa, x.bb - y.bb, x.ab - y.ab};
}

ColocMoments plus(const ColocMoments& x, const ColocMoments& y) {
    return {x.n + y.n, x.a + y.a, x.b + y.b, x.aa + y.aa, x.bb + y.bb, x.ab + y.ab};
}

TEST(ColocReference, IdenticalChannels) {
    // a = b = 0, 2, 4, 6, 8: r = 1, M1 = M2 = 1; the orthogonal line is b = a (slope 1: the
    // search walks on B). Bisection from t = (8 + 0) / 2 = 4, step 4: below (a < 4 or b < 4) =
    // {0, 2}, r = 1 > 0, so t = 2; below {0} is one pair, r undefined: the search ends there.
    // TA = TB = 2. Above (a > 2 or b > 2) = {4, 6, 8}: r = 1; overlap 3; tM1 = (2+4+6+8)/20 = 1.
    // Mean 4: every product (a - 4)^2 >= 0, so ICQ = 1 - 0.5 = 0.5. Passes: 1 + 2 + 1.
    const Colocalisation c = coloc({0, 2, 4, 6, 8}, {0, 2, 4, 6, 8});
    ASSERT_TRUE(c.computed);
    EXPECT_EQ(c.n, 5u);
    EXPECT_DOUBLE_EQ(c.pearson, 1.0);
    EXPECT_DOUBLE_EQ(c.m1, 1.0);
    EXPECT_DOUBLE_EQ(c.m2, 1.0);
    EXPECT_DOUBLE_EQ(c.slope, 1.0);
    EXPECT_DOUBLE_EQ(c.intercept, 0.0);
    EXPECT_EQ(c.thresholdA, 2.0);
    EXPECT_EQ(c.thresholdB, 2.0);
    EXPECT_TRUE(std::isnan(c.pearsonBelow));
    EXPECT_DOUBLE_EQ(c.pearsonAbove, 1.0);
    EXPECT_EQ(c.overlap, 3.0);
    EXPECT_DOUBLE_EQ(c.tm1, 1.0);
    EXPECT_DOUBLE_EQ(c.tm2, 1.0);
    EXPECT_DOUBLE_EQ(c.icq, 0.5);
    EXPECT_EQ(c.passes, 4);
}

TEST(ColocReference, SlopeTwoWalksOnTheSecondChannel) {
    // a = 0 1 2 3, b = 0 2 4 6. n Σa² - (Σa)² = 4*14 - 36 = 20, n Σb² - (Σb)² = 4*56 - 144 = 80,
    // n Σab - Σa Σb = 4*28 - 72 = 40: slope (80 - 20 + sqrt(60² + 4*40²)) / (2*40) = 160/80 = 2,
    // intercept 3 - 2*1.5 = 0. |slope| >= 1: t walks on B from (6 + 0)/2 = 3, step 3:
    // TA = round(3/2) = 2 (half up), TB = 3; below (a < 2 or b < 3) = (0,0), (1,2): r = 1, so
    // t = 1.5: TA = round(0.75) = 1, TB = round(1.5) = 2; below = (0,0) alone: undefined, the end.
    // Above (a > 1 or b > 2) = (2,4), (3,6): r = 1, both above both: overlap 2.
    // tM1 = Σa where b >= 2 = 6 / 6 = 1; tM2 = Σb where a >= 1 = 12 / 12 = 1.
    const Colocalisation c = coloc({0, 1, 2, 3}, {0, 2, 4, 6});
    EXPECT_DOUBLE_EQ(c.slope, 2.0);
    EXPECT_DOUBLE_EQ(c.intercept, 0.0);
    EXPECT_EQ(c.thresholdA, 1.0);
    EXPECT_EQ(c.thresholdB, 2.0);
    EXPECT_DOUBLE_EQ(c.pearsonAbove, 1.0);
    EXPECT_EQ(c.overlap, 2.0);
    EXPECT_DOUBLE_EQ(c.tm1, 1.0);
    EXPECT_DOUBLE_EQ(c.tm2, 1.0);
    EXPECT_EQ(c.passes, 4);
}

TEST(ColocReference, InvertedChannels) {
    // a = 0 1 2 3, b = 3 2 1 0: r = -1. M1 = Σa where b > 0 = (0+1+2)/6 = 0.5, M2 likewise.
    // Means 1.5: every product (a - 1.5)(b - 1.5) < 0, so ICQ = 0 - 0.5 = -0.5.
    // n Σab - Σa Σb = 4*4 - 36 = -20, the variances' 20 each: slope (0 + sqrt(4*400))/(-40) = -1,
    // intercept 1.5 + 1.5 = 3; t walks on B from 1.5, step 1.5: TA = round((1.5-3)/-1) = 2,
    // TB = round(1.5) = 2; below (a < 2 or b < 2) is all four pairs, r = -1 < 0: t goes up to
    // 2.25, a step of 0.75 < 1: the end. Above (a > 2 or b > 2) = (0,3), (3,0): r = -1; no pair
    // above both; tM1 = Σa where b >= 2 = 1/6, tM2 = Σb where a >= 2 = 1/6.
    const Colocalisation c = coloc({0, 1, 2, 3}, {3, 2, 1, 0});
    EXPECT_DOUBLE_EQ(c.pearson, -1.0);
    EXPECT_DOUBLE_EQ(c.m1, 0.5);
    EXPECT_DOUBLE_EQ(c.m2, 0.5);
    EXPECT_DOUBLE_EQ(c.icq, -0.5);
    EXPECT_DOUBLE_EQ(c.slope, -1.0);
    EXPECT_DOUBLE_EQ(c.intercept, 3.0);
    EXPECT_EQ(c.thresholdA, 2.0);
    EXPECT_EQ(c.thresholdB, 2.0);
    EXPECT_DOUBLE_EQ(c.pearsonBelow, -1.0);
    EXPECT_DOUBLE_EQ(c.pearsonAbove, -1.0);
    EXPECT_EQ(c.overlap, 0.0);
    EXPECT_DOUBLE_EQ(c.tm1, 1.0 / 6);
    EXPECT_DOUBLE_EQ(c.tm2, 1.0 / 6);
    EXPECT_EQ(c.passes, 3);
}

// Costes et al.'s stepwise search on the same pairs.
TEST(ColocStepwise, HandWorkedPairs) {
    // a = b = 0, 2, 4, 6, 8: slope 1, t walks on B from 8 down: below (a < t or b < t) keeps
    // r = 1 down to t = 3 ({0, 2}); at t = 2 it is {0} alone, r undefined: the end, after 7
    // candidates (8 ... 2). TA = TB = 2, as the bisection found. Passes: first, search, last.
    Colocalisation c = coloc({0, 2, 4, 6, 8}, {0, 2, 4, 6, 8}, {}, CostesSearch::Stepwise);
    EXPECT_EQ(c.search, CostesSearch::Stepwise);
    EXPECT_EQ(c.thresholdA, 2.0);
    EXPECT_EQ(c.thresholdB, 2.0);
    EXPECT_EQ(c.candidates, 7u);
    EXPECT_EQ(c.passes, 3);
    EXPECT_EQ(c.steps.size(), 9u); // 8 candidates and the sink
    // Slope 2 (t on B from 6): t = 6 and 5 give TA = 3 (round(2.5) half up), below = (0,0),
    // (1,2), (2,4), r = 1; t = 4 and 3 give TA = 2, below (0,0), (1,2), r = 1; t = 2: TA = 1,
    // below (0,0) alone: undefined, after 5 candidates. TA 1, TB 2.
    c = coloc({0, 1, 2, 3}, {0, 2, 4, 6}, {}, CostesSearch::Stepwise);
    EXPECT_EQ(c.thresholdA, 1.0);
    EXPECT_EQ(c.thresholdB, 2.0);
    EXPECT_EQ(c.candidates, 5u);
    // Inverted (slope -1, intercept 3, t on B from 3): TB = 3, TA = round(0) = 0; below
    // (b < 3) = (1,2), (2,1), (3,0): r = -1 <= 0 at the first candidate. Above (a > 0 or b > 3)
    // is the same three pairs, r = -1; none above both; tM1 = Σa where b >= 3 = 0 / 6;
    // tM2 = Σb where a >= 0 and a > 0 = 3 / 6. As TA falls TB rises here: the intervals of
    // candidates run the other way, from 0.
    c = coloc({0, 1, 2, 3}, {3, 2, 1, 0}, {}, CostesSearch::Stepwise);
    EXPECT_EQ(c.thresholdA, 0.0);
    EXPECT_EQ(c.thresholdB, 3.0);
    EXPECT_EQ(c.candidates, 1u);
    EXPECT_DOUBLE_EQ(c.pearsonBelow, -1.0);
    EXPECT_DOUBLE_EQ(c.pearsonAbove, -1.0);
    EXPECT_EQ(c.overlap, 0.0);
    EXPECT_DOUBLE_EQ(c.tm1, 0.0);
    EXPECT_DOUBLE_EQ(c.tm2, 0.5);
    EXPECT_EQ(parseColocChoice("--coloc", "bisection"), CostesSearch::Bisection);
    EXPECT_EQ(parseColocChoice("--coloc", "off"), std::nullopt);
    EXPECT_THROW(parseColocChoice("--coloc", "simple"), UsageError);
}

// The one pass's running sums are, at every candidate, the sums of the pairs one pass per
// candidate finds below it; so the search stops where a walk of passes stops. 8- and 16-bit,
// positive and negative slopes (t on A and on B), a mask and a range.
TEST(ColocStepwise, OnePassEqualsOnePassPerCandidate) {
    for (SampleType type : {SampleType::U8, SampleType::U16}) {
        const int top = type == SampleType::U8 ? 255 : 3000;
        for (int variant = 0; variant < 4; ++variant) {
            std::vector<int> va, vb;
            std::vector<std::uint8_t> mask;
            for (int i = 0; i < 1500; ++i) {
                const int x = int((std::uint64_t(i) * 7919u) % std::uint64_t(top / 2 + 1));
                const int noise = int((std::uint64_t(i) * 104729u) % std::uint64_t(top / 8 + 1));
                const int y = variant == 1   ? top - x / 3 - noise / 2           // negative, t on A
                              : variant == 2 ? std::min(top, 2 * x / 3 + noise)  // t on A
                                             : std::min(top, x + x / 2 + noise); // t on B
                va.push_back(x);
                vb.push_back(std::max(0, y));
                mask.push_back(std::uint8_t(variant == 3 && i % 5 == 0 ? 0 : 1));
            }
            SCOPED_TRACE(std::string(sampleTypeName(type)) + " variant " + std::to_string(variant));
            const SamplePlane a = plane(type, va), b = plane(type, vb, "b");
            const JointSpec spec = makeJointSpec(
                a, b, 16, 16,
                variant == 3 ? std::optional<BinRange>(BinRange{3, double(top - 7)}) : std::nullopt,
                std::nullopt);
            const std::vector<std::uint8_t> m = variant == 3 ? mask : std::vector<std::uint8_t>{};
            const Colocalisation c = colocalisationReference(a, b, spec, m);
            ASSERT_FALSE(std::isnan(c.slope));
            const bool onA = c.slope > -1 && c.slope < 1;
            EXPECT_EQ(onA, variant != 3 && variant != 0);
            const ColocSteps steps =
                costesSteps(c.slope, c.intercept, onA ? c.first.maxA : c.first.maxB, type);
            ASSERT_EQ(c.steps.size(), steps.count() + 1);
            ColocMoments notBelow;
            std::size_t stop = 0;
            for (std::size_t k = 0; k < steps.count(); ++k) {
                notBelow = plus(notBelow, c.steps[k]);
                const ColocMoments below =
                    colocPassReference(a, b, spec, m, {steps.ta[k], steps.tb[k], 0, 0, 0, true})
                        .below;
                ASSERT_EQ(minus(c.first.all, notBelow), below) << "candidate " << k;
                if (stop == 0 && !(pearsonOf(below) > 0))
                    stop = k + 1;
            }
            if (variant != 1) { // anti-correlated: r_below < 0 from the first candidate
                EXPECT_GT(stop, 1u);
            }
            if (stop == 0) // r_below stays above 0: the walk ends at t = 1
                stop = steps.count();
            EXPECT_EQ(c.candidates, stop);
            EXPECT_EQ(c.thresholdA, steps.ta[stop - 1]);
            EXPECT_EQ(c.thresholdB, steps.tb[stop - 1]);
            EXPECT_FALSE(c.pearsonBelow > 0.0);
        }
    }
}

TEST(ColocReference, ConstantChannelAndNoPairsAreNaN) {
    // A constant: no variance, no covariance: r, the line, the thresholds and everything
    // thresholded are undefined. M1 = Σa where b > 0 = 15 / 15 = 1; M2 = (1+2+3)/6 = 1.
    // (a - 5) = 0 makes every product 0, counted positive: ICQ = 0.5.
    const Colocalisation c = coloc({5, 5, 5}, {1, 2, 3});
    EXPECT_TRUE(std::isnan(c.pearson));
    EXPECT_TRUE(std::isnan(c.slope));
    EXPECT_TRUE(std::isnan(c.thresholdA));
    EXPECT_TRUE(std::isnan(c.pearsonAbove));
    EXPECT_TRUE(std::isnan(c.tm1));
    EXPECT_TRUE(std::isnan(c.overlap));
    EXPECT_DOUBLE_EQ(c.m1, 1.0);
    EXPECT_DOUBLE_EQ(c.m2, 1.0);
    EXPECT_DOUBLE_EQ(c.icq, 0.5);
    EXPECT_EQ(c.passes, 2);
    // Every pair masked out: n = 0, everything NaN.
    const Colocalisation none = coloc({1, 2}, {3, 4}, {0, 0});
    EXPECT_EQ(none.n, 0u);
    EXPECT_TRUE(std::isnan(none.pearson));
    EXPECT_TRUE(std::isnan(none.m1));
    EXPECT_TRUE(std::isnan(none.icq));
    // B all zero: M1 = 0 / Σa = 0, M2 = 0 / 0 undefined.
    const Colocalisation dark = coloc({1, 2}, {0, 0});
    EXPECT_DOUBLE_EQ(dark.m1, 0.0);
    EXPECT_TRUE(std::isnan(dark.m2));
}

TEST(ColocReference, MaskAndRangesLeaveOutPairs) {
    // The mask keeps 0 1 2 3 / 3 2 1 0 of the pairs: the inverted case above, r = -1; the pairs
    // masked out (9, 9) would make it positive.
    const Colocalisation m = coloc({0, 9, 1, 2, 9, 3}, {3, 9, 2, 1, 9, 0}, {1, 0, 1, 1, 0, 1});
    EXPECT_EQ(m.n, 4u);
    EXPECT_DOUBLE_EQ(m.pearson, -1.0);
    // A range leaves out what the joint histogram leaves out: a in [0, 3] drops the 9s.
    const SamplePlane a = plane(SampleType::U16, {0, 900, 1, 2, 900, 3});
    const SamplePlane b = plane(SampleType::U16, {3, 9, 2, 1, 9, 0}, "b");
    const Colocalisation r =
        colocalisationReference(a, b, makeJointSpec(a, b, 4, 4, BinRange{0, 3}, std::nullopt), {});
    EXPECT_EQ(r.n, 4u);
    EXPECT_DOUBLE_EQ(r.pearson, -1.0);
}

TEST(ColocReference, FloatSamplesAreRefused) {
    SamplePlane a;
    a.type = SampleType::F32;
    a.bytes.assign(8, 0);
    const Colocalisation c = colocalisationReference(a, a, makeJointSpec(a, a, 4, 4, {}, {}), {});
    EXPECT_FALSE(c.computed);
    EXPECT_NE(c.why.find("float"), std::string::npos);
}

TEST(ColocReference, PearsonEqualsTheTextbookFormula) {
    // r in double from the means, as numpy.corrcoef computes it, on a 16-bit pair.
    std::vector<int> va, vb; // b = a / 2 + noise: r well above 0
    for (int i = 0; i < 10007; ++i) {
        va.push_back(int((std::uint64_t(i) * 7919u) % 60000u));
        vb.push_back(va.back() / 2 + int((std::uint64_t(i) * 104729u) % 8000u));
    }
    const SamplePlane a = plane(SampleType::U16, va), b = plane(SampleType::U16, vb, "b");
    double ma = 0, mb = 0;
    const double n = double(a.count());
    for (std::size_t i = 0; i < a.count(); ++i) {
        ma += sampleValue(a, i) / n;
        mb += sampleValue(b, i) / n;
    }
    double sab = 0, saa = 0, sbb = 0;
    for (std::size_t i = 0; i < a.count(); ++i) {
        const double da = sampleValue(a, i) - ma, db = sampleValue(b, i) - mb;
        sab += da * db;
        saa += da * da;
        sbb += db * db;
    }
    const Colocalisation c = colocalisationReference(a, b, makeJointSpec(a, b, 64, 64, {}, {}), {});
    EXPECT_GT(c.pearson, 0.5);
    EXPECT_NEAR(c.pearson, sab / std::sqrt(saa * sbb), 1e-12);
}

// A device whose sums or thresholds differ is named for the first difference: what the run
// reports as a verification failure (exit 1).
TEST(ColocReference, MismatchNamesTheFirstDifference) {
    const Colocalisation ref = coloc({0, 1, 2, 3}, {0, 2, 4, 6});
    EXPECT_EQ(firstColocMismatch(ref, ref), "");
    Colocalisation dev = ref;
    dev.sums.above.ab += 1;
    EXPECT_EQ(firstColocMismatch(ref, dev),
              "colocalisation at the thresholds: Σab above the thresholds: device " +
                  std::to_string(ref.sums.above.ab + 1) + ", CPU reference " +
                  std::to_string(ref.sums.above.ab));
    dev = ref;
    dev.thresholdA = 2;
    EXPECT_EQ(firstColocMismatch(ref, dev),
              "Costes' thresholds: device (2, 2), CPU reference (1, 2)");
    dev = ref;
    dev.first.icqNegative = 1;
    EXPECT_EQ(firstColocMismatch(ref, dev),
              "colocalisation's first pass: negative ICQ products: device 1, CPU reference 0");
}

// The device's passes (one kernel, 64-bit sums) equal the CPU reference's sum for sum, for
// 8- and 16-bit pairs of awkward sizes, with a mask and a range; and pieces of the pairs add up
// to the whole, as a split across devices adds them.
TEST(ColocDevice, PassesEqualTheReference) {
    Device& device = test::sharedDevice();
    for (SampleType type : {SampleType::U8, SampleType::U16}) {
        for (std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(70001)}) {
            const SamplePlane a = makeLargeBinData(LargeBinData::Smooth, type, n, 11);
            SamplePlane b = makeLargeBinData(LargeBinData::Random, type, n, 12);
            for (std::size_t i = 0; i < n; ++i) // b partly follows a: thresholds inside
                if (i % 2)
                    std::copy_n(a.bytes.begin() + std::ptrdiff_t(i * sampleBytes(type)),
                                sampleBytes(type),
                                b.bytes.begin() + std::ptrdiff_t(i * sampleBytes(type)));
            std::vector<std::uint8_t> mask(n);
            for (std::size_t i = 0; i < n; ++i)
                mask[i] = std::uint8_t(i % 3 ? 255 : 0);
            SamplePlane maskPlane;
            maskPlane.type = SampleType::U8;
            maskPlane.bytes = mask;
            const cl::Buffer ba = uploadPlane(device, a), bb = uploadPlane(device, b),
                             bm = uploadPlane(device, maskPlane);
            const double top = type == SampleType::U8 ? 200 : 50000;
            for (bool masked : {false, true})
                for (bool ranged : {false, true}) {
                    SCOPED_TRACE(std::string(sampleTypeName(type)) + " n=" + std::to_string(n) +
                                 (masked ? " masked" : "") + (ranged ? " ranged" : ""));
                    const std::optional<BinRange> range =
                        ranged ? std::optional<BinRange>(BinRange{10, top}) : std::nullopt;
                    const JointSpec spec = makeJointSpec(a, b, 32, 32, range, std::nullopt);
                    const std::vector<std::uint8_t> m = masked ? mask : std::vector<std::uint8_t>{};
                    const Colocalisation ref = colocalisationReference(a, b, spec, m);
                    ColocDevicePass pass(device, ba, bb, masked ? &bm : nullptr, n, spec);
                    const Colocalisation dev =
                        colocalise(type, CostesSearch::Stepwise, pass.passes());
                    EXPECT_EQ(firstColocMismatch(ref, dev), "");
                    EXPECT_EQ(dev.first, ref.first);
                    EXPECT_EQ(dev.steps, ref.steps);
                    EXPECT_EQ(dev.sums, ref.sums);
                    const Colocalisation bisected =
                        colocalise(type, CostesSearch::Bisection, pass.passes());
                    EXPECT_EQ(firstColocMismatch(
                                  colocalisationReference(a, b, spec, m, CostesSearch::Bisection),
                                  bisected),
                              "");
                    if (n == 70001 && !masked && !ranged) {
                        EXPECT_FALSE(std::isnan(ref.thresholdA));
                        EXPECT_GT(ref.candidates, 3u);
                        EXPECT_EQ(ref.passes, 3);
                    }
                    // Two pieces (the first a multiple of 4,096 bytes of a plane) add up.
                    const std::size_t cut = n > 12288 ? 12288 : 0;
                    ColocDevicePass head(device, ba, bb, masked ? &bm : nullptr, n, spec, 0, cut);
                    ColocDevicePass tail(device, ba, bb, masked ? &bm : nullptr, n, spec, cut,
                                         n - cut);
                    const ColocPassArgs args{ref.sums.maxA == 0 ? 0u : 40u, 60u, ref.n,
                                             ref.first.all.a, ref.first.all.b};
                    ColocSums sum = cut ? head(args) : ColocSums{};
                    addColocSums(sum, tail(args));
                    EXPECT_EQ(sum, colocPassReference(a, b, spec, m, args));
                    if (!std::isnan(ref.slope)) {
                        const ColocSteps steps =
                            costesSteps(ref.slope, ref.intercept, ref.first.maxA, type);
                        std::vector<ColocMoments> pieces = tail.steps(steps);
                        if (cut)
                            addColocMoments(pieces, head.steps(steps));
                        EXPECT_EQ(pieces, colocStepsReference(a, b, spec, m, steps));
                    }
                }
        }
    }
}

} // namespace
} // namespace histlab
