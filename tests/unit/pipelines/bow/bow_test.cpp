// Bag-of-visual-words assignment: the CPU reference by hand (ties to the lowest index, NaN never
// wins), every kernel on the device label by label against it (random clustered descriptors,
// exact ties and near-ties that only double precision separates, K = 1 ... 1,024, counts that
// are not multiples of any work-group), and the plan's refusals.
#include "unitsupport.h"

#include "pipelines/bow/bow.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace histlab {
namespace {

Codebook codebookOf(std::size_t dim, const std::vector<float>& values) {
    Codebook c;
    c.dim = dim;
    c.k = values.size() / dim;
    c.values = values;
    return c;
}

Descriptors descriptorsOf(std::size_t dim, const std::vector<float>& values) {
    Descriptors d;
    d.dim = dim;
    d.count = values.size() / dim;
    d.values = values;
    return d;
}

TEST(BowReference, NearestTiesAndNaN) {
    // Centroids (0,0), (2,0), (2,0) again, (0,4).
    const Codebook c = codebookOf(2, {0, 0, 2, 0, 2, 0, 0, 4});
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const Descriptors d = descriptorsOf(2, {
                                               0.1f, 0.1f, // nearest (0,0)
                                               1.9f, 0.0f, // (2,0): centroid 1, not its copy 2
                                               1.0f, 0.0f, // (0,0) and (2,0) tie: the lower, 0
                                               0.0f, 3.0f, // (0,4)
                                               nan, 1.0f,  // every distance NaN: centroid 0
                                           });
    const Assignment a = assignReference(d, c);
    EXPECT_EQ(a.labels, (std::vector<std::uint32_t>{0, 1, 0, 3, 0}));
    EXPECT_EQ(a.histogram, (std::vector<std::uint64_t>{3, 1, 0, 1}));
}

// Every kernel on the device for one data set: verified, or unsupported for the reason the plan
// gives (the float4 kernels at a dimension that is not a multiple of 4).
void expectEveryKernelExact(const Descriptors& d, const Codebook& c, const std::string& what,
                            std::size_t* ambiguous = nullptr) {
    Device& device = test::sharedDevice();
    const Assignment want = assignReference(d, c);
    for (BowKernel kernel : allBowKernels()) {
        SCOPED_TRACE(what + " " + bowKernelName(kernel));
        const BowRun run = runBowKernel(device, d, c, kernel, want, 1, CancelToken{});
        const BowGeometry g = planBowKernel(device.info(), kernel, d.count, c.k, d.dim);
        if (!g.supported) {
            EXPECT_EQ(run.status, Status::Unsupported);
            EXPECT_EQ(run.detail, g.why);
            continue;
        }
        EXPECT_EQ(run.status, Status::Verified) << run.detail;
        EXPECT_EQ(run.result.labels, want.labels);
        EXPECT_EQ(run.result.histogram, want.histogram);
        if (ambiguous)
            *ambiguous += run.ambiguous;
    }
}

TEST(BowDevice, EveryKernelIsExact) {
    for (std::size_t dim : {std::size_t(6), std::size_t(64)})
        for (std::size_t k : {1u, 2u, 3u, 255u, 1024u})
            for (std::size_t n : {std::size_t(1), std::size_t(1001)}) {
                const Descriptors d = makeSyntheticDescriptors(n, dim, 7);
                const Codebook c = makeSyntheticCodebook(k, dim, 8);
                expectEveryKernelExact(d, c,
                                       "dim " + std::to_string(dim) + " k " + std::to_string(k) +
                                           " n " + std::to_string(n));
            }
}

// Every descriptor halfway between two centroids: 3,000 ties, each marked by the kernel and
// decided in double precision (to the lower index). More than the device's first list of
// ambiguous labels holds (1,024 here), so the list must grow and the pass run again.
TEST(BowDevice, ManyAmbiguousLabelsAreAllDecided) {
    const Codebook c = codebookOf(4, {0, 0, 0, 0, 2, 2, 2, 2});
    std::vector<float> values;
    for (int i = 0; i < 3000; ++i)
        values.insert(values.end(), {1, 1, 1, 1});
    std::size_t ambiguous = 0;
    expectEveryKernelExact(descriptorsOf(4, values), c, "3,000 ties", &ambiguous);
    EXPECT_EQ(ambiguous, 3000u * allBowKernels().size()); // every label of every kernel
}

TEST(BowDevice, FloatFourKernelsRefuseOddDimensions) {
    const DeviceInfo& info = test::sharedDevice().info();
    for (BowKernel kernel : allBowKernels()) {
        const BowGeometry g = planBowKernel(info, kernel, 100, 16, 6);
        const bool float4 = kernel != BowKernel::Gpu1 && kernel != BowKernel::Gpu2;
        EXPECT_EQ(g.supported, !float4) << bowKernelName(kernel);
        if (float4) {
            EXPECT_NE(g.why.find("multiple of 4"), std::string::npos) << g.why;
        }
    }
}

// Exact ties (a centroid twice) and near-ties that float arithmetic gets wrong: centroid 3 is
// 0.5 in every feature, centroid 2 the same but one feature a float step above 0.5. From the
// zero descriptor centroid 3 is nearer (by about 6e-8 in a squared distance of 16), but both
// float distances round to 16, and a float tie goes to the lower index, 2. Only the
// double-precision check of the ambiguous labels gets the reference's answer.
TEST(BowDevice, TiesAndNearTiesAreExact) {
    const std::size_t dim = 64, k = 16;
    Codebook c = makeSyntheticCodebook(k, dim, 3);
    for (std::size_t f = 0; f < dim; ++f) {
        c.values[1 * dim + f] = c.values[0 * dim + f]; // centroid 1 = centroid 0
        c.values[2 * dim + f] = 0.5f;
        c.values[3 * dim + f] = 0.5f;
    }
    c.values[2 * dim + 5] = std::nextafter(0.5f, 1.0f);
    Descriptors d = makeSyntheticDescriptors(257, dim, 4);
    for (std::size_t i = 0; i < d.count; ++i)
        for (std::size_t f = 0; f < dim; ++f)
            if (i % 3 == 0)
                d.values[i * dim + f] = 0.0f;
            else if (i % 3 == 1)
                d.values[i * dim + f] = c.values[f]; // on centroid 0 and its copy
    const Assignment want = assignReference(d, c);
    ASSERT_EQ(want.labels[0], 3u);
    ASSERT_EQ(want.labels[1], 0u);
    std::size_t ambiguous = 0;
    expectEveryKernelExact(d, c, "ties", &ambiguous);
    EXPECT_GT(ambiguous, 0u) << "no label was close enough to need the double-precision check";
}

// Distances that overflow float (every one is +inf there) but not double: the kernels must leave
// the choice to the double-precision check, which finds the nearer centroid.
TEST(BowDevice, OverflowingDistancesAreResolvedInDouble) {
    const Codebook c = codebookOf(4, {0, 0, 0, 0, 3e19f, 3e19f, 3e19f, 3e19f});
    const Descriptors d = descriptorsOf(4, {2e19f, 2e19f, 2e19f, 2e19f, 1, 1, 1, 1});
    const Assignment want = assignReference(d, c);
    ASSERT_EQ(want.labels, (std::vector<std::uint32_t>{1, 0}));
    expectEveryKernelExact(d, c, "overflow");
}

TEST(BowPlan, ConstantMemoryAndSizesRefusedWithReasons) {
    DeviceInfo gpu;
    gpu.type = DeviceType::Gpu;
    gpu.maxWorkGroupSize = 1024;
    gpu.localMemBytes = 48 * 1024;
    gpu.constantMemBytes = 64 * 1024;
    gpu.maxAllocBytes = 1ull << 32;
    // The text's GPU5 cannot hold K = 1,024 x 64 floats in 64 KiB of constant memory.
    const BowGeometry g5 = planBowKernel(gpu, BowKernel::Gpu5, 1000, 1024, 64);
    EXPECT_FALSE(g5.supported);
    EXPECT_NE(g5.why.find("262144 bytes"), std::string::npos) << g5.why;
    EXPECT_TRUE(planBowKernel(gpu, BowKernel::Gpu5, 1000, 256, 64).supported);
    // The tiled kernel takes any K: centroids come through local memory a tile at a time.
    const BowGeometry tiled = planBowKernel(gpu, BowKernel::Tiled, 1000, 4096, 64);
    EXPECT_TRUE(tiled.supported);
    EXPECT_EQ(tiled.rows, 2u);
    EXPECT_FALSE(planBowKernel(gpu, BowKernel::Gpu1, 1000, 16, 257).supported);
    EXPECT_FALSE(planBowKernel(gpu, BowKernel::Gpu1, 1000, 0, 64).supported);
    const BowGeometry big = planBowKernel(gpu, BowKernel::Gpu2, std::size_t(1) << 25, 16, 256);
    EXPECT_FALSE(big.supported);
    EXPECT_NE(big.why.find("bytes of descriptors"), std::string::npos) << big.why;
    EXPECT_THROW(parseBowKernel("gpu6"), UsageError);
    EXPECT_EQ(parseBowKernel("tiled"), BowKernel::Tiled);
    // block-norm's blocks: 8 x 8 an item, 4 x 16 items; fewer centroid rows at small K (and
    // more descriptor columns), fewer descriptors where 256 floats each must fit local memory.
    const BowGeometry block = planBowKernel(gpu, BowKernel::BlockNorm, 1000, 1024, 64);
    EXPECT_TRUE(block.supported);
    EXPECT_EQ(block.workGroupSize, 64u);
    EXPECT_EQ(block.across, 4u);
    EXPECT_EQ(block.tile, 128u);
    EXPECT_EQ(block.groups, (1000u + 31) / 32);
    const BowGeometry small = planBowKernel(gpu, BowKernel::BlockNorm, 1000, 3, 64);
    EXPECT_EQ(small.tile, 8u);
    EXPECT_EQ(small.across, 16u); // 128 descriptors of 64 floats: 32 KiB of the 48
    const BowGeometry wide = planBowKernel(gpu, BowKernel::BlockNorm, 1000, 1024, 256);
    EXPECT_TRUE(wide.supported);
    EXPECT_LE(256 * wide.rows * wide.across * sizeof(float), gpu.localMemBytes);
}

// The geometries planned for a GPU (4 x 16 items a group, 8 x 8 each, 32-item hardware groups
// of 4 x 8 items; fewer centroid rows at small K), run on the test's CPU device, where they
// are not the plan: every label and bin exact, ties and near-ties included.
TEST(BowDevice, BlockNormGpuGeometriesAreExact) {
    Device& device = test::sharedDevice();
    DeviceInfo gpu = device.info();
    gpu.type = DeviceType::Gpu;
    gpu.maxWorkGroupSize = std::min<std::size_t>(gpu.maxWorkGroupSize, 1024);
    gpu.localMemBytes = std::min<std::uint64_t>(gpu.localMemBytes, 48 * 1024);
    const std::pair<std::size_t, std::size_t> shapes[] = {{4, 1},     {4, 3},   {64, 255},
                                                          {64, 1024}, {132, 3}, {132, 255}};
    for (const auto& [dim, k] : shapes) {
        SCOPED_TRACE("dim " + std::to_string(dim) + " k " + std::to_string(k));
        const Descriptors d = makeSyntheticDescriptors(1001, dim, 11);
        Codebook c = makeSyntheticCodebook(k, dim, 12);
        if (k > 2)
            std::copy_n(c.values.begin(), dim, c.values.begin() + std::ptrdiff_t(2 * dim));
        const Assignment want = assignReference(d, c);
        BowAssigner assigner(device, BowKernel::BlockNorm);
        assigner.planAs(gpu);
        assigner.setDescriptors(d);
        assigner.setCodebook(c);
        ASSERT_TRUE(assigner.geometry().supported) << assigner.geometry().why;
        EXPECT_NE(assigner.geometry().workGroupSize, 1u);
        assigner.launch();
        const Assignment got = assigner.result();
        EXPECT_EQ(firstMismatch(got, want), "");
    }
}

} // namespace
} // namespace histlab
