// Registration by mutual information: the fixed-point rule, the device's entropies against the
// CPU reference's, the optimiser, the pyramid's checks and the search on a pair with a known
// answer.
#include "pipelines/register/neldermead.h"
#include "pipelines/register/register.h"
#include "runtime/errors.h"
#include "unitsupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

namespace histlab {
namespace {

using test::sharedDevice;

HostImage grayImage(int w, int h, int depth, const std::function<double(int, int)>& value) {
    HostImage im;
    im.width = w;
    im.height = h;
    im.channels = 1;
    im.depth = depth;
    im.source = "test " + std::to_string(w) + "x" + std::to_string(h);
    im.data.assign(std::size_t(w) * h * (depth / 8), 0);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const std::size_t i = std::size_t(y) * w + x;
            const double v = value(x, y);
            if (depth == 8)
                im.data[i] = std::uint8_t(v);
            else if (depth == 16) {
                const std::uint16_t u = std::uint16_t(v);
                std::memcpy(im.data.data() + 2 * i, &u, 2);
            } else {
                const float f = float(v);
                std::memcpy(im.data.data() + 4 * i, &f, 4);
            }
        }
    return im;
}

double wave(int x, int y) {
    return 0.5 + 0.25 * std::sin(x * 0.21 + std::cos(y * 0.13)) +
           0.2 * std::cos(y * 0.17 - x * 0.05);
}

RegisterInput pairOf(const HostImage& fixed, const HostImage& moving) {
    RegisterInput in;
    in.fixed = fixed;
    in.moving = moving;
    return in;
}

RegisterOptions options(int levels, int bins = 32) {
    RegisterOptions o;
    o.levels = levels;
    o.binsFixed = o.binsMoving = bins;
    return o;
}

// The identity samples both images at the same jittered points: the counts are the joint
// histogram of both images' bilinear values there, binned, written here in double precision
// without the core's counting code.
TEST(RegisterReference, IdentityCountsBothImagesAtTheJitteredPoints) {
    const int w = 41, h = 29;
    const HostImage a = grayImage(w, h, 8, [](int x, int y) { return 10 + (x * 7 + y * 3) % 200; });
    const HostImage b = grayImage(w, h, 8, [](int x, int y) { return 5 + (x * x + y) % 250; });
    const RegisterInput in = pairOf(a, b);
    const auto pyramid = buildRegisterPyramid(in, options(1, 16));
    const auto counts = jointCountsReference(pyramid[0], fixedPointAffine({}, w, h, 0), 16, 16);
    auto range = [](const HostImage& im) {
        return std::make_pair(*std::min_element(im.data.begin(), im.data.end()),
                              *std::max_element(im.data.begin(), im.data.end()));
    };
    auto bilinear = [&](const HostImage& im, double x, double y) {
        const int x0 = int(x), y0 = int(y), x1 = std::min(x0 + 1, w - 1),
                  y1 = std::min(y0 + 1, h - 1);
        const double fx = x - x0, fy = y - y0;
        auto at = [&](int xx, int yy) { return double(im.data[std::size_t(yy) * w + xx]); };
        return (at(x0, y0) * (1 - fx) + at(x1, y0) * fx) * (1 - fy) +
               (at(x0, y1) * (1 - fx) + at(x1, y1) * fx) * fy;
    };
    auto binOf = [](double v, std::pair<std::uint8_t, std::uint8_t> r) {
        // Exact: v is a multiple of 2^-16.
        const auto scaled = std::int64_t(std::llround((v - r.first) * 65536.0));
        return int(scaled * 16 / ((r.second - r.first + 1) * std::int64_t(65536)));
    };
    std::vector<std::uint64_t> want(256, 0);
    int moved = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const auto [jx, jy] = registerJitter(x, y, w, h);
            EXPECT_GE(x * 256 + jx, 0);
            EXPECT_LE(x * 256 + jx, (w - 1) * 256);
            EXPECT_LE(std::abs(jx), 128);
            moved += jx != 0 || jy != 0;
            const double qx = x + jx / 256.0, qy = y + jy / 256.0;
            ++want[std::size_t(binOf(bilinear(a, qx, qy), range(a)) * 16 +
                               binOf(bilinear(b, qx, qy), range(b)))];
        }
    EXPECT_GT(moved, w * h / 2);
    EXPECT_EQ(counts, want);
}

// A shift of one pixel leaves out the points it moves past MOVING's last column, and a shift by
// the whole width leaves out every pixel.
TEST(RegisterReference, PointsOutsideMovingAreLeftOut) {
    const int w = 40, h = 30;
    const HostImage a = grayImage(w, h, 8, [](int x, int y) { return (x + y) % 256; });
    RegisterInput in = pairOf(a, a);
    const auto pyramid = buildRegisterPyramid(in, options(1));
    std::uint64_t inside = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            inside += (x + 1) * 256 + registerJitter(x, y, w, h).first <= (w - 1) * 256;
    const RegisterEntropies one =
        evaluationReference(pyramid[0], fixedPointAffine({1, 0, 0}, w, h, 0), 32, 32);
    EXPECT_EQ(one.counted, inside);
    EXPECT_LT(inside, std::uint64_t(w * h));
    const RegisterEntropies none =
        evaluationReference(pyramid[0], fixedPointAffine({double(w), 0, 0}, w, h, 0), 32, 32);
    EXPECT_EQ(none.counted, 0u);
    EXPECT_TRUE(std::isnan(registerMetricOf(none, RegisterMetric::Mi, 1)));
    // Below the overlap asked for, no metric either.
    EXPECT_TRUE(std::isnan(registerMetricOf(one, RegisterMetric::Mi, inside + 1)));
    EXPECT_FALSE(std::isnan(registerMetricOf(one, RegisterMetric::Mi, inside)));
}

// A level's transform is level 0's seen in that level's pixels: the identity stays the identity
// at every level, and a shift of 4 px is 1 px at level 2.
TEST(RegisterReference, TransformsRescaleToLevels) {
    for (int k = 0; k < 4; ++k) {
        const FixedPointAffine id = fixedPointAffine({}, 256, 128, k);
        EXPECT_EQ(id.b0, 0);
        EXPECT_EQ(id.b1, 0);
        EXPECT_EQ(id.a00, std::int64_t(1) << 32);
    }
    const FixedPointAffine s = fixedPointAffine({4, -8, 0}, 256, 128, 2);
    EXPECT_EQ(s.b0, std::int64_t(1) << 32);
    EXPECT_EQ(s.b1, -(std::int64_t(2) << 32));
}

// The device counts what the reference counts: MI equal to 1e-9 bits and the same pairs, for
// sub-pixel shifts and rotations, one at a time and in a batch; 8-bit, 16-bit, and float with
// NaN (in both images) under a mask; 32 and 256 bins per axis.
TEST(RegisterDevice, EntropiesEqualTheReference) {
    Device& device = sharedDevice();
    std::mt19937_64 random(3);
    std::uniform_real_distribution<double> shift(-6, 6), angle(-7, 7);
    struct Case {
        int depth;
        int bins;
        bool nan;
    };
    for (const Case c : {Case{8, 32, false}, Case{16, 256, false}, Case{32, 64, true}}) {
        SCOPED_TRACE("depth " + std::to_string(c.depth) + ", bins " + std::to_string(c.bins));
        const double scale = c.depth == 8 ? 250 : c.depth == 16 ? 60000 : 3.5;
        HostImage f = grayImage(97, 71, c.depth, [&](int x, int y) { return scale * wave(x, y); });
        HostImage m = grayImage(83, 77, c.depth, [&](int x, int y) {
            if (c.nan && (x * 7 + y * 3) % 41 == 0)
                return double(NAN);
            return scale * wave(x + 3, y - 2);
        });
        if (c.nan) { // NaN in FIXED too: left out like a masked pixel
            const float n = NAN;
            std::memcpy(f.data.data() + 4 * 500, &n, 4);
        }
        RegisterInput in = pairOf(f, m);
        in.mask.assign(f.pixelCount(), 1);
        for (std::size_t i = 0; i < in.mask.size(); i += 5)
            in.mask[i] = 0;
        in.maskSource = "every fifth pixel out";
        const auto pyramid = buildRegisterPyramid(in, options(1, c.bins));
        MiEvaluator evaluator(device, pyramid[0], c.bins, c.bins);
        std::vector<FixedPointAffine> ts;
        for (int k = 0; k < 24; ++k)
            ts.push_back(
                fixedPointAffine({shift(random), shift(random), angle(random)}, 97, 71, 0));
        const std::vector<RegisterEntropies> batch = evaluator.evaluate(ts);
        for (std::size_t k = 0; k < ts.size(); ++k) {
            const RegisterEntropies ref = evaluationReference(pyramid[0], ts[k], c.bins, c.bins);
            ASSERT_GT(ref.counted, 0u);
            EXPECT_EQ(batch[k].counted, ref.counted) << k;
            EXPECT_NEAR(batch[k].mi().mi, ref.mi().mi, 1e-9) << k;
            EXPECT_NEAR(batch[k].jointEntropy, ref.jointEntropy, 1e-9) << k;
            if (k % 6 == 0) {
                const RegisterEntropies one = evaluator.evaluate({ts[k]}).front();
                EXPECT_EQ(one.counted, ref.counted);
                EXPECT_NEAR(one.mi().mi, ref.mi().mi, 1e-9);
            }
        }
    }
}

TEST(RegisterNelderMead, FindsTheMinimumOfABowl) {
    const auto f = [](const std::vector<double>& x) {
        return (x[0] - 1.5) * (x[0] - 1.5) + 3 * (x[1] + 0.25) * (x[1] + 0.25) + 0.5 * x[0] * x[1];
    };
    const NelderMeadResult r = nelderMead(f, {0, 0}, {1, 1}, 1e-7, 1000, {});
    // Where the gradient is 0: 2(x0 - 1.5) + 0.5 x1 = 0 and 6(x1 + 0.25) + 0.5 x0 = 0.
    const double x1 = -(1.5 + 0.75) / (6 - 0.125);
    const double x0 = 1.5 - 0.25 * x1;
    EXPECT_TRUE(r.converged);
    EXPECT_NEAR(r.x[0], x0, 1e-5);
    EXPECT_NEAR(r.x[1], x1, 1e-5);
    // Undefined points (+inf) are stepped back from.
    const auto walled = [&](const std::vector<double>& x) { return x[0] > 1 ? INFINITY : f(x); };
    const NelderMeadResult w = nelderMead(walled, {0, 0}, {0.5, 0.5}, 1e-7, 2000, {});
    EXPECT_LE(w.x[0], 1.0);
    EXPECT_TRUE(std::isfinite(w.f));
}

TEST(RegisterPyramid, RefusesWhatHasNoAnswer) {
    const HostImage flat = grayImage(64, 64, 8, [](int, int) { return 7; });
    const HostImage varied = grayImage(64, 64, 8, [](int x, int y) { return (x * y) % 256; });
    EXPECT_THROW(buildRegisterPyramid(pairOf(flat, varied), options(1)), InputError);
    EXPECT_THROW(buildRegisterPyramid(pairOf(varied, flat), options(1)), InputError);
    RegisterInput masked = pairOf(varied, varied);
    masked.mask.assign(varied.pixelCount(), 0);
    masked.maskSource = "empty mask";
    EXPECT_THROW(buildRegisterPyramid(masked, options(1)), InputError);
    const HostImage allNan = grayImage(64, 64, 32, [](int, int) { return double(NAN); });
    EXPECT_THROW(buildRegisterPyramid(pairOf(allNan, varied), options(1)), InputError);
    EXPECT_THROW(buildRegisterPyramid(pairOf(varied, varied), options(4)),
                 UsageError); // 64 -> 8 px
    EXPECT_EQ(buildRegisterPyramid(pairOf(varied, varied), options(2)).size(), 2u);
    EXPECT_EQ(automaticLevels(2048, 2048), 6);
    EXPECT_EQ(automaticLevels(512, 300), 3);
    EXPECT_EQ(automaticLevels(100, 100), 1);
}

TEST(RegisterResample, ShiftsByWholePixelsExactly) {
    const HostImage m = grayImage(20, 10, 16, [](int x, int y) { return 1000 * x + y; });
    const HostImage same = resampleRegistered(m, {}, 20, 10);
    EXPECT_EQ(same.data, m.data);
    const HostImage shifted = resampleRegistered(m, {2, 1, 0}, 20, 10);
    auto at = [](const HostImage& im, int x, int y) {
        std::uint16_t v;
        std::memcpy(&v, im.data.data() + 2 * (std::size_t(y) * im.width + x), 2);
        return v;
    };
    EXPECT_EQ(at(shifted, 0, 0), at(m, 2, 1));
    EXPECT_EQ(at(shifted, 17, 8), at(m, 19, 9));
    EXPECT_EQ(at(shifted, 18, 0), 0); // outside MOVING
}

// The search on a pair with a known answer (MOVING made at the exact transformed coordinates,
// inverted): within 0.1 px and 0.05 degrees.
TEST(RegisterSearch, RecoversAKnownRigidTransform) {
    const RigidTransform truth{3.3, -2.6, 4.2};
    const RegisterInput in = syntheticRegisterPair(256, 256, truth, true);
    RegisterOptions o;
    o.maxShift = 12;
    o.maxAngleDeg = 8;
    const auto pyramid = buildRegisterPyramid(in, o);
    const RegistrationResult r = registerImages(sharedDevice(), pyramid, o, {});
    EXPECT_EQ(r.status, Status::Verified) << r.detail;
    EXPECT_NEAR(r.transform.tx, truth.tx, 0.1);
    EXPECT_NEAR(r.transform.ty, truth.ty, 0.1);
    EXPECT_NEAR(r.transform.angleDeg, truth.angleDeg, 0.05);
    EXPECT_GT(r.end.mi, r.start.mi);
    EXPECT_FALSE(r.steps.empty());
    for (std::size_t i = 1; i < r.steps.size(); ++i) {
        if (r.steps[i].level == r.steps[i - 1].level) {
            EXPECT_GE(r.steps[i].metric, r.steps[i - 1].metric);
        }
    }
}

TEST(RegisterSearch, RecoversATranslationWithNmi) {
    const RigidTransform truth{-5.45, 1.8, 0};
    const RegisterInput in = syntheticRegisterPair(192, 160, truth, false);
    RegisterOptions o;
    o.transform = RegisterTransform::Translation;
    o.metric = RegisterMetric::Nmi;
    o.maxShift = 10;
    const RegistrationResult r = registerImages(sharedDevice(), buildRegisterPyramid(in, o), o, {});
    EXPECT_EQ(r.status, Status::Verified) << r.detail;
    EXPECT_NEAR(r.transform.tx, truth.tx, 0.1);
    EXPECT_NEAR(r.transform.ty, truth.ty, 0.1);
    EXPECT_EQ(r.transform.angleDeg, 0.0);
}

} // namespace
} // namespace histlab
