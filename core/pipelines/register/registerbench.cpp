// The synthetic pair and the evaluation benchmark of the registration family.
#include "pipelines/register/register.h"

#include "runtime/errors.h"
#include "runtime/parallel.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace histlab {

namespace {

struct Blob {
    double x, y, sigma, amplitude;
};

/// A hash of a pixel's position to [-1, 1): the pattern's noise, the same wherever it is asked.
double noiseAt(std::uint64_t x, std::uint64_t y) {
    std::uint64_t h =
        x * 0x9E3779B97F4A7C15ull ^ (y + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    return double(h >> 11) / double(1ull << 52) - 1.0;
}

} // namespace

RegisterInput syntheticRegisterPair(int width, int height, const RigidTransform& truth,
                                    bool invert) {
    if (width < 16 || height < 16 || double(width) * height > double(1u << 30))
        throw UsageError("--synthetic", "a pair from 16 x 16 to 2^30 pixels");
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const double side = std::min(width, height);
    std::vector<Blob> blobs(24);
    for (Blob& b : blobs)
        b = {unit(random) * width, unit(random) * height, side * (0.02 + 0.08 * unit(random)),
             (unit(random) - 0.35) * 2.0};
    const double w1 = 2 * 3.14159265358979 / (side * 0.37),
                 w2 = 2 * 3.14159265358979 / (side * 0.23);
    // Waves of fixed periods in pixels (9, 17 and 31, three directions): texture at the scale
    // of pixels whatever the size, as photographs have, where blobs scaled to the image alone
    // would leave a large pair smooth and its MI flat over a tenth of a pixel.
    auto texture = [](double x, double y) {
        constexpr double tau = 2 * 3.14159265358979;
        return 0.06 * std::sin(tau * (0.8 * x + 0.6 * y) / 9.0) +
               0.06 * std::sin(tau * (-0.5 * x + 0.87 * y) / 17.0 + 1.0) +
               0.06 * std::sin(tau * x / 31.0 + 2.0);
    };
    auto pattern = [&](double x, double y) {
        double v = 0.25 * std::sin(w1 * x + 0.3) * std::cos(w2 * y - 0.7) + texture(x, y);
        for (const Blob& b : blobs) {
            const double dx = x - b.x, dy = y - b.y;
            v += b.amplitude * std::exp(-(dx * dx + dy * dy) / (2 * b.sigma * b.sigma));
        }
        return v;
    };
    const std::array<double, 6> m = affineMatrix(truth, width, height);
    // T^-1 (q) = R^T (q - [m2, m5]).
    RegisterInput in;
    for (HostImage* image : {&in.fixed, &in.moving}) {
        image->width = width;
        image->height = height;
        image->channels = 1;
        image->depth = 8;
        image->data.assign(std::size_t(width) * height, 0);
    }
    in.fixed.source = "synthetic " + std::to_string(width) + "x" + std::to_string(height);
    in.moving.source = in.fixed.source + " moved (" + std::to_string(truth.tx) + ", " +
                       std::to_string(truth.ty) + ", " + std::to_string(truth.angleDeg) + " deg)" +
                       (invert ? ", inverted" : "");
    auto level = [](double v) { return std::clamp(std::lround(128 + 70 * v), 0l, 255l); };
    parallelFor(std::size_t(height), hostThreads(), [&](std::size_t y0, std::size_t y1) {
        for (std::size_t y = y0; y < y1; ++y)
            for (int x = 0; x < width; ++x) {
                const std::size_t i = y * std::size_t(width) + std::size_t(x);
                const double noise = 0.02 * noiseAt(std::uint64_t(x), y);
                in.fixed.data[i] = std::uint8_t(level(pattern(x, double(y)) + noise));
                const double qx = x - m[2], qy = double(y) - m[5];
                const double px = m[0] * qx + m[3] * qy, py = m[1] * qx + m[4] * qy;
                const long v = level(pattern(px, py) + 0.02 * noiseAt(i, 99));
                in.moving.data[i] = std::uint8_t(invert ? 255 - v : v);
            }
    });
    return in;
}

std::vector<RegisterBenchmarkRow> benchmarkEvaluations(Device& device, const RegisterLevel& level,
                                                       int binsFixed, int binsMoving, int repeats,
                                                       const CancelToken& cancel) {
    const int W = level.fixedWidth, H = level.fixedHeight;
    MiEvaluator evaluator(device, level, binsFixed, binsMoving);
    std::mt19937_64 random(11);
    std::uniform_real_distribution<double> shift(-4.0, 4.0), angle(-2.0, 2.0);
    auto transforms = [&](std::size_t n) {
        std::vector<FixedPointAffine> t(n);
        for (FixedPointAffine& a : t)
            a = fixedPointAffine({shift(random), shift(random), angle(random)}, W, H, level.level);
        return t;
    };
    // A CPU device takes seconds over 256 large transforms: 16 show its rate as well.
    const std::size_t batch = std::min<std::size_t>(
        device.info().type == DeviceType::Cpu ? 16 : 256, evaluator.batchLimit());
    std::vector<RegisterBenchmarkRow> rows(3);
    rows[0].what = "device, " + std::to_string(batch) + " transforms a launch";
    rows[0].transforms = batch;
    rows[1].what = "device, one transform at a time";
    rows[1].transforms = 16;
    rows[2].what = "CPU reference, " + std::to_string(hostThreads()) + " thread(s)";
    rows[2].transforms = 1;
    // Verified: the first batch against the reference, transform by transform (four of them).
    {
        const std::vector<FixedPointAffine> t = transforms(batch);
        const std::vector<RegisterEntropies> e = evaluator.evaluate(t);
        for (std::size_t k = 0; k < std::min<std::size_t>(4, batch) && rows[0].detail.empty();
             ++k) {
            const RegisterEntropies ref = evaluationReference(level, t[k], binsFixed, binsMoving);
            if (ref.counted != e[k].counted || !(std::fabs(ref.mi().mi - e[k].mi().mi) <= 1e-9))
                rows[0].detail = "transform " + std::to_string(k) + ": device MI " +
                                 std::to_string(e[k].mi().mi) + " of " +
                                 std::to_string(e[k].counted) + " pairs, CPU reference " +
                                 std::to_string(ref.mi().mi) + " of " + std::to_string(ref.counted);
        }
        for (RegisterBenchmarkRow& r : rows)
            r.status = rows[0].detail.empty() ? Status::Verified : Status::Mismatch;
    }
    std::vector<std::vector<double>> samples(3);
    for (int round = 0; round <= repeats; ++round) { // round 0 warms up
        for (std::size_t k = 0; k < rows.size(); ++k) {
            cancel.throwIfCancelled();
            const std::vector<FixedPointAffine> t = transforms(rows[k].transforms);
            const double ms = wallClockMs([&] {
                if (k == 0)
                    evaluator.evaluate(t);
                else if (k == 1)
                    for (const FixedPointAffine& a : t)
                        evaluator.evaluate({a});
                else
                    evaluationReference(level, t.front(), binsFixed, binsMoving);
            });
            if (round > 0)
                samples[k].push_back(ms);
        }
    }
    for (std::size_t k = 0; k < rows.size(); ++k) {
        rows[k].ms = summarize(samples[k]);
        rows[k].perSecond =
            rows[k].ms.medianMs > 0 ? double(rows[k].transforms) * 1000.0 / rows[k].ms.medianMs : 0;
    }
    return rows;
}

} // namespace histlab
