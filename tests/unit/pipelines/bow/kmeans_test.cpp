// k-means: a run whose assignments are the device's equals a run on the CPU reference bit for
// bit (the labels are exact and the rest is the same code), the same seed gives the same
// codebook, empty clusters are reseeded, and too few descriptors are refused.
#include "unitsupport.h"

#include "pipelines/bow/kmeans.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace histlab {
namespace {

KmeansAssign deviceAssign(BowAssigner& assigner, const Descriptors& d) {
    assigner.setDescriptors(d);
    return [&assigner](const Codebook& c, double& ms, std::size_t& ambiguous) {
        assigner.setCodebook(c);
        ms = assigner.launch();
        Assignment a = assigner.result();
        ambiguous = assigner.ambiguous();
        return a;
    };
}

TEST(BowKmeans, DeviceRunEqualsTheReferenceBitForBit) {
    const Descriptors d = makeSyntheticDescriptors(3001, 16, 7);
    for (BowKernel kernel : {BowKernel::Gpu1, BowKernel::Gpu3, BowKernel::TiledNorm}) {
        for (std::size_t k : {1, 8, 33}) {
            SCOPED_TRACE(std::string(bowKernelName(kernel)) + " K " + std::to_string(k));
            KmeansParams params;
            params.k = k;
            params.maxIterations = 6;
            params.seed = 3;
            BowAssigner assigner(test::sharedDevice(), kernel);
            const KmeansResult onDevice =
                kmeans(d, params, deviceAssign(assigner, d), CancelToken{});
            const KmeansResult reference = kmeans(d, params, referenceAssign(d), CancelToken{});
            EXPECT_EQ(onDevice.codebook.values, reference.codebook.values);
            ASSERT_EQ(onDevice.iterations.size(), reference.iterations.size());
            for (std::size_t i = 0; i < reference.iterations.size(); ++i) {
                EXPECT_EQ(onDevice.iterations[i].inertia, reference.iterations[i].inertia);
                EXPECT_EQ(onDevice.iterations[i].changed, reference.iterations[i].changed);
            }
            EXPECT_EQ(onDevice.stopped, reference.stopped);
            // Lloyd's iterations never raise the inertia.
            for (std::size_t i = 1; i < reference.iterations.size(); ++i)
                EXPECT_LE(reference.iterations[i].inertia,
                          reference.iterations[i - 1].inertia * (1 + 1e-12));
        }
    }
}

TEST(BowKmeans, RepeatableForASeed) {
    const Descriptors d = makeSyntheticDescriptors(2000, 8, 11);
    KmeansParams params;
    params.k = 16;
    params.maxIterations = 4;
    const KmeansResult a = kmeans(d, params, referenceAssign(d), CancelToken{});
    const KmeansResult b = kmeans(d, params, referenceAssign(d), CancelToken{});
    EXPECT_EQ(a.codebook.values, b.codebook.values);
    params.seed = 2;
    const KmeansResult c = kmeans(d, params, referenceAssign(d), CancelToken{});
    EXPECT_NE(a.codebook.values, c.codebook.values);
    EXPECT_EQ(kmeansPlusPlus(d, 16, 5).values, kmeansPlusPlus(d, 16, 5).values);
}

TEST(BowKmeans, ConvergesOnSeparatedClusters) {
    // Three tight clusters far apart, K = 3: k-means++ seeds one in each, and nothing changes
    // after the first update.
    Descriptors d;
    d.dim = 2;
    for (int c = 0; c < 3; ++c)
        for (int i = 0; i < 50; ++i) {
            d.values.push_back(float(100 * c) + float(i % 5) * 0.01f);
            d.values.push_back(float(i / 5) * 0.01f);
            ++d.count;
        }
    KmeansParams params;
    params.k = 3;
    params.tolerance = 0;
    const KmeansResult r = kmeans(d, params, referenceAssign(d), CancelToken{});
    EXPECT_TRUE(r.converged);
    EXPECT_EQ(r.stopped, "converged: no label changed");
    EXPECT_EQ(r.iterations.size(), 2u);
    std::vector<float> xs;
    for (std::size_t c = 0; c < 3; ++c)
        xs.push_back(r.codebook.values[c * 2]);
    std::sort(xs.begin(), xs.end());
    EXPECT_NEAR(xs[0], 0.02f, 1e-5);
    EXPECT_NEAR(xs[1], 100.02f, 1e-4);
    EXPECT_NEAR(xs[2], 200.02f, 1e-4);
}

TEST(BowKmeans, EmptyClustersAreReseeded) {
    // Ten copies of one point and one outlier, K = 3: k-means++ can only pick the point and the
    // outlier, so one cluster is empty after the first assignment and takes a descriptor.
    Descriptors d;
    d.dim = 2;
    for (int i = 0; i < 10; ++i) {
        d.values.insert(d.values.end(), {1.0f, 1.0f});
        ++d.count;
    }
    d.values.insert(d.values.end(), {5.0f, 5.0f});
    ++d.count;
    KmeansParams params;
    params.k = 3;
    params.maxIterations = 3;
    const KmeansResult r = kmeans(d, params, referenceAssign(d), CancelToken{});
    ASSERT_FALSE(r.iterations.empty());
    std::size_t reseeded = 0;
    for (const KmeansIteration& it : r.iterations)
        reseeded += it.reseeded;
    EXPECT_GT(reseeded, 0u);
    for (float v : r.codebook.values)
        EXPECT_TRUE(std::isfinite(v));
}

TEST(BowKmeans, RefusesFewerDescriptorsThanCentroids) {
    const Descriptors d = makeSyntheticDescriptors(5, 4, 1);
    KmeansParams params;
    params.k = 6;
    EXPECT_THROW(kmeans(d, params, referenceAssign(d), CancelToken{}), UsageError);
}

TEST(BowKmeans, SampleKeepsOrderAndIsRepeatable) {
    Descriptors d;
    d.dim = 1;
    d.count = 1000;
    for (int i = 0; i < 1000; ++i)
        d.values.push_back(float(i));
    const Descriptors a = sampleDescriptors(d, 100, 9), b = sampleDescriptors(d, 100, 9);
    EXPECT_EQ(a.count, 100u);
    EXPECT_EQ(a.values, b.values);
    EXPECT_TRUE(std::is_sorted(a.values.begin(), a.values.end()));
    EXPECT_EQ(std::adjacent_find(a.values.begin(), a.values.end()), a.values.end());
    EXPECT_EQ(sampleDescriptors(d, 5000, 9).values, d.values);
}

} // namespace
} // namespace histlab
