// The bandwidth family: no command of its own, the two ceilings as dashboard entries, first in
// the dashboard's order (the registry's), each timed on random bytes and judged against itself;
// each ceiling the best of its family of kernels, every member of which really moves the bytes.
#include "unitsupport.h"

#include "image/image.h"
#include "pipelines/bandwidth/bandwidth.h"
#include "pipelines/dashboard/dashboard.h"
#include "pipelines/registry.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace histlab {
namespace {

TEST(BandwidthPipeline, CeilingsAreDashboardEntriesOnly) {
    const Pipeline* p = findPipeline("bandwidth");
    ASSERT_NE(p, nullptr);
    EXPECT_FALSE(p->runnable());
    ASSERT_EQ(p->dashboard.size(), 2u);
    EXPECT_EQ(p->dashboard[0].name, "read-only");
    EXPECT_EQ(p->dashboard[1].name, "copy");
    const std::vector<DashboardPipeline> all = dashboardPipelines();
    ASSERT_GE(all.size(), 2u);
    EXPECT_EQ(all[0].name, "read-only");
    EXPECT_EQ(all[1].name, "copy");
}

TEST(BandwidthPipeline, EachCeilingIsTimedOnTheDevice) {
    DashboardOptions options;
    options.bytes = 64 * 1024;
    options.repeats = 1;
    for (const DashboardPipeline& entry : findPipeline("bandwidth")->dashboard) {
        const std::vector<DashboardResult> results = entry.run(test::sharedDevice(), options, {});
        ASSERT_EQ(results.size(), 1u) << entry.name;
        const DashboardResult& r = results.front();
        EXPECT_EQ(r.pipeline, entry.name);
        EXPECT_EQ(r.ceilingKind, entry.name);
        EXPECT_EQ(r.status, Status::Timed);
        // read-only: bytes read; copy: bytes read + written
        EXPECT_EQ(r.bytes, options.bytes * (entry.name == "copy" ? 2 : 1));
        EXPECT_GT(r.gbps, 0) << entry.name;
        EXPECT_GE(r.ceilingGbps, r.gbps); // its fastest run against its median
        EXPECT_EQ(r.ceilingKernel, r.variant);
    }
}

// The ceiling is its family's fastest run, every member listed with its own figures: a pipeline
// judged against it is judged against the most the device moved those bytes at in this run.
TEST(CeilingFamily, TheCeilingIsTheBestMemberOfItsFamily) {
    Device& device = test::sharedDevice();
    const std::size_t bytes = 256 * 1024;
    const cl::Buffer buffer = randomDeviceBuffer(device, bytes);
    for (const bool copy : {false, true}) {
        const CeilingResult c = copy ? measureCopyCeiling(device, buffer, bytes, 3)
                                     : measureReadCeiling(device, buffer, bytes, 3);
        const std::vector<CeilingKernel> family = ceilingFamily(device.info().type, copy);
        ASSERT_EQ(c.family.size(), family.size());
        double best = 0;
        for (std::size_t i = 0; i < family.size(); ++i) {
            const CeilingTiming& m = c.family[i];
            EXPECT_EQ(m.kernel, family[i].label(copy));
            EXPECT_TRUE(m.error.empty()) << m.kernel << ": " << m.error;
            EXPECT_GT(m.gbps, 0) << m.kernel;
            EXPECT_GE(m.bestGbps, m.gbps)
                << m.kernel; // the fastest run is no slower than the median
            EXPECT_EQ(m.bytes, bytes * (copy ? 2 : 1)) << m.kernel;
            best = std::max(best, m.bestGbps);
        }
        EXPECT_EQ(c.gbps, best);
        const auto winner =
            std::find_if(c.family.begin(), c.family.end(),
                         [&](const CeilingTiming& m) { return m.bestGbps == best; });
        ASSERT_NE(winner, c.family.end());
        EXPECT_EQ(c.kernel, winner->kernel);
        EXPECT_EQ(c.bytes, winner->bytes);
        EXPECT_EQ(c.stats.minMs, winner->stats.minMs);
    }
}

// Each family's members name their shape, width and loads in flight; a copy family ends with
// clEnqueueCopyBuffer.
TEST(CeilingFamily, FamiliesPerDeviceType) {
    const std::vector<CeilingKernel> gpuRead = ceilingFamily(DeviceType::Gpu, false);
    ASSERT_EQ(gpuRead.size(), 4u);
    EXPECT_EQ(gpuRead[0].label(false), "read_bytes uint4 x4 (grid-stride)");
    EXPECT_EQ(gpuRead[1].label(false), "read_bytes uint4 x8 (grid-stride)");
    EXPECT_EQ(gpuRead[2].label(false), "read_items uint4 (one per work-item)");
    EXPECT_EQ(gpuRead[3].label(false), "read_items uint2 (one per work-item)");
    const std::vector<CeilingKernel> gpuCopy = ceilingFamily(DeviceType::Gpu, true);
    ASSERT_EQ(gpuCopy.size(), 5u);
    EXPECT_EQ(gpuCopy[0].label(true), "copy_bytes uint4 x1 (grid-stride)");
    EXPECT_EQ(gpuCopy[1].label(true), "copy_bytes uint4 x4 (grid-stride)");
    EXPECT_EQ(gpuCopy.back().label(true), "clEnqueueCopyBuffer");
    const std::vector<CeilingKernel> cpuCopy = ceilingFamily(DeviceType::Cpu, true);
    ASSERT_EQ(cpuCopy.size(), 5u);
    EXPECT_EQ(cpuCopy[0].label(true), "copy_bytes uint4 (serial)");
    EXPECT_EQ(cpuCopy[1].label(true), "copy_bytes uint16 (serial)");
    EXPECT_EQ(cpuCopy[3].label(true), "copy_items uint16 (one per work-item)");
    EXPECT_EQ(cpuCopy.back().label(true), "clEnqueueCopyBuffer");
}

// Every copy kernel of both families (a GPU's and a CPU's, all runnable on PoCL) copies exactly
// its whole elements, including the ones its unrolled loop leaves to the tail loop, and nothing
// past them; every read kernel runs. The size is no multiple of any unroll x global size.
TEST(CeilingFamily, EveryCopyMemberCopiesItsBytesExactly) {
    Device& device = test::sharedDevice();
    const std::size_t bytes = (std::size_t(1) << 20) + 4 * 64 + 48;
    std::vector<std::uint8_t> data(bytes), back(bytes);
    fillSynthetic(SyntheticKind::Random, data.data(), bytes, 11);
    cl::Buffer src(device.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, data.data());
    cl::Buffer dst(device.context(), CL_MEM_READ_WRITE, bytes);
    cl::Buffer sink(device.context(), CL_MEM_WRITE_ONLY, 16);
    for (const DeviceType type : {DeviceType::Gpu, DeviceType::Cpu}) {
        for (const CeilingKernel& k : ceilingFamily(type, true)) {
            const std::string name = k.label(true);
            device.queue().enqueueFillBuffer(dst, std::uint8_t(0xA5), 0, bytes);
            const CeilingTiming t = measureCeilingKernel(device, k, true, src, dst, bytes, 1);
            EXPECT_TRUE(t.error.empty()) << name << ": " << t.error;
            device.queue().enqueueReadBuffer(dst, CL_TRUE, 0, bytes, back.data());
            const std::size_t copied = bytes / (4 * std::size_t(k.width)) * 4 * k.width;
            EXPECT_EQ(t.bytes, 2 * copied) << name;
            EXPECT_TRUE(
                std::equal(data.begin(), data.begin() + std::ptrdiff_t(copied), back.begin()))
                << name << " did not copy its elements";
            EXPECT_TRUE(std::all_of(back.begin() + std::ptrdiff_t(copied), back.end(),
                                    [](std::uint8_t b) { return b == 0xA5; }))
                << name << " wrote past its elements";
        }
        for (const CeilingKernel& k : ceilingFamily(type, false)) {
            const CeilingTiming t = measureCeilingKernel(device, k, false, src, sink, bytes, 1);
            EXPECT_TRUE(t.error.empty()) << k.label(false) << ": " << t.error;
            EXPECT_GT(t.gbps, 0) << k.label(false);
        }
    }
}

// Below one element nothing is timed: the member says why and the ceiling is 0, not an error.
TEST(CeilingFamily, FewerBytesThanAnElement) {
    Device& device = test::sharedDevice();
    const cl::Buffer buffer = randomDeviceBuffer(device, 16);
    const CeilingResult c = measureCopyCeiling(device, buffer, 8, 1);
    EXPECT_EQ(c.gbps, 0);
    ASSERT_FALSE(c.family.empty());
    for (const CeilingTiming& m : c.family)
        EXPECT_NE(m.error.find("fewer bytes than one"), std::string::npos) << m.kernel;
}

} // namespace
} // namespace histlab
