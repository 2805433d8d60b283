// Scans: the CPU reference by hand, then every device variant bit-exact against it
// for awkward lengths (empty, one value, around a uint4, around a segment, several segments and
// a tail, a prime, near 1 Mi), several work-group sizes, and values that wrap around 2^32;
// wgscan reported unsupported where the device cannot run it (PoCL 3.1); the reusable
// DeviceScan / scanDeviceBuffer, exclusive, inclusive and in place.
#include "unitsupport.h"

#include "pipelines/scan/scan.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

#include <iostream>
#include <tuple>

namespace histlab {
namespace {

using Values = std::vector<std::uint32_t>;

TEST(ScanReference, ByHand) {
    const Values v{3, 1, 4, 1, 5};
    EXPECT_EQ(exclusiveScanReference(v, 0), (Values{0, 3, 4, 8, 9}));
    EXPECT_EQ(inclusiveScanReference(v, 0), (Values{3, 4, 8, 9, 14}));
    // Segments of 2: the sums restart at 0; the last segment is shorter.
    EXPECT_EQ(exclusiveScanReference(v, 2), (Values{0, 3, 0, 4, 0}));
    EXPECT_EQ(inclusiveScanReference(v, 2), (Values{3, 4, 4, 5, 5}));
    EXPECT_TRUE(exclusiveScanReference({}, 0).empty());
}

TEST(ScanReference, WrapsModulo2To32) {
    const Values v{0xFFFFFFFFu, 2, 0x80000000u, 0x80000000u};
    EXPECT_EQ(exclusiveScanReference(v, 0), (Values{0, 0xFFFFFFFFu, 1, 0x80000001u}));
    EXPECT_EQ(inclusiveScanReference(v, 0), (Values{0xFFFFFFFFu, 1, 0x80000001u, 1}));
}

TEST(ScanReference, MismatchNamesTheFirstIndex) {
    const Values v{1, 1, 1, 1, 1};
    EXPECT_EQ(firstScanMismatch(v, {0, 1, 2, 3, 4}, 0, false), "");
    EXPECT_EQ(firstScanMismatch(v, {1, 2, 3, 4, 5}, 0, true), "");
    EXPECT_EQ(firstScanMismatch(v, {0, 1, 0, 1, 0}, 2, false), "");
    EXPECT_EQ(firstScanMismatch(v, {0, 1, 7, 3, 9}, 0, false),
              "index 2: device 7, CPU reference 2 (2 of 5 values differ)");
    EXPECT_EQ(firstScanMismatch(v, {0, 1, 0, 5, 0}, 2, false),
              "index 3 (segment 1, offset 1): device 5, CPU reference 1 (1 of 5 values differ)");
    EXPECT_NE(firstScanMismatch(v, {0, 1}, 0, false), "");
}

TEST(ScanNames, ParseAndRefuse) {
    for (ScanVariant v : allScanVariants())
        EXPECT_EQ(parseScanVariant(scanVariantName(v)), v);
    EXPECT_EQ(parseScanVariant("auto"), ScanVariant::Auto);
    EXPECT_THROW(parseScanVariant("hillis"), UsageError);
    EXPECT_EQ(parseScanDistribution("max"), ScanDistribution::Max);
    EXPECT_THROW(parseScanDistribution("gauss"), UsageError);
    EXPECT_EQ(makeScanInput(ScanDistribution::Random, 1000, 7),
              makeScanInput(ScanDistribution::Random, 1000, 7));
    for (std::uint32_t x : makeScanInput(ScanDistribution::Bytes, 1000))
        EXPECT_LT(x, 256u);
}

TEST(ScanWorkGroups, PowersOfTwoFrom16ToTheDeviceMaximum) {
    const DeviceInfo& info = test::sharedDevice().info();
    const std::vector<std::size_t> sizes = scanWorkGroupSizes(info);
    ASSERT_FALSE(sizes.empty());
    EXPECT_EQ(sizes.front(), 16u);
    EXPECT_LE(sizes.back(), info.maxWorkGroupSize);
    EXPECT_GT(sizes.back() * 2, info.maxWorkGroupSize);
    for (std::size_t bad :
         {std::size_t(7), std::size_t(8), std::size_t(48), info.maxWorkGroupSize * 2}) {
        try {
            checkScanWorkGroupSize(info, bad);
            ADD_FAILURE() << bad << " accepted";
        } catch (const UsageError& e) {
            EXPECT_EQ(e.parameter(), "--wg");
        }
    }
    const Values v(100, 1);
    EXPECT_THROW(runScanPoint(test::sharedDevice(), v, ScanVariant::Naive, 7, false, 1),
                 UsageError);
    EXPECT_THROW(runScanPoint(test::sharedDevice(), v, ScanVariant::Lookback, 24, false, 1),
                 UsageError);
}

// The lengths every variant must get right.
const std::vector<std::size_t> kLengths = {
    0, 1, 2, 3, 15, 16, 17, 255, 65535, 65536, 65537, 3 * 65536 + 5, 200003, 1048573};

// Values with wrap-around: random 32-bit values, with runs of the largest values mixed in.
const Values& testValues() {
    static const Values values = [] {
        Values v = makeScanInput(ScanDistribution::Random, kLengths.back(), 3);
        for (std::size_t i = 0; i < v.size(); i += 97)
            v[i] = 0xFFFFFFFFu - std::uint32_t(i % 5);
        return v;
    }();
    return values;
}

// (variant, work-group size; 0 = the device's maximum)
class ScanVariants : public ::testing::TestWithParam<std::tuple<ScanVariant, std::size_t>> {};

TEST_P(ScanVariants, BitExactForAwkwardLengths) {
    Device& device = test::sharedDevice();
    const auto [variant, wantWg] = GetParam();
    const std::size_t wg = wantWg ? wantWg : scanWorkGroupSizes(device.info()).back();
    const bool segmented = isSegmentedScan(variant);
    for (std::size_t n : kLengths) {
        const Values values(testValues().begin(), testValues().begin() + std::ptrdiff_t(n));
        // Whole-array variants both ways; per-segment ones are exclusive only.
        for (bool inclusive :
             segmented ? std::vector<bool>{false} : std::vector<bool>{false, true}) {
            const ScanPoint p = runScanPoint(device, values, variant, wg, inclusive, 1);
            if (p.status == Status::Unsupported) {
                ASSERT_FALSE(p.detail.empty());
                GTEST_SKIP() << scanVariantName(variant) << " wg " << wg
                             << " unsupported: " << p.detail;
            }
            EXPECT_EQ(p.status, Status::Verified)
                << scanVariantName(variant) << " wg " << wg << " n " << n
                << (inclusive ? " inclusive: " : " exclusive: ") << p.detail << " ("
                << p.buildOptions << ")";
            EXPECT_EQ(p.status, Status::Verified);
            EXPECT_EQ(p.elements, n);
            EXPECT_EQ(p.workGroupSize, wg);
            if (n > 0) {
                EXPECT_EQ(p.stats.samplesMs.size(), 1u);
            }
        }
    }
}

std::string
variantName(const ::testing::TestParamInfo<std::tuple<ScanVariant, std::size_t>>& info) {
    std::string name = scanVariantName(std::get<0>(info.param));
    for (char& c : name)
        if (c == '-')
            c = '_';
    const std::size_t wg = std::get<1>(info.param);
    return name + "_wg" + (wg ? std::to_string(wg) : std::string("max"));
}

INSTANTIATE_TEST_SUITE_P(
    AllSizes, ScanVariants,
    ::testing::Combine(::testing::Values(ScanVariant::Naive, ScanVariant::Blelloch,
                                         ScanVariant::ReduceThenScan, ScanVariant::Lookback),
                       ::testing::Values(std::size_t(16), std::size_t(64), std::size_t(256),
                                         std::size_t(0))),
    variantName);

TEST(ScanWgScan, RunsExactlyOrIsReportedUnsupported) {
    Device& device = test::sharedDevice();
    const Values values(testValues().begin(), testValues().begin() + 3 * 65536 + 5);
    const ScanPoint p = runScanPoint(device, values, ScanVariant::WgScan, 64, false, 1);
    if (device.capabilities().workGroupScan) {
        EXPECT_EQ(p.status, Status::Verified) << p.detail;
        return;
    }
    // PoCL 3.1 does not know work_group_scan_exclusive_add: reported, never replaced.
    EXPECT_EQ(p.status, Status::Unsupported);
    EXPECT_FALSE(p.detail.empty());
    EXPECT_NE(p.status, Status::Verified);
    EXPECT_EQ(p.variant, ScanVariant::WgScan);
    std::cout << "wgscan on " << device.info().name << ": " << p.detail << '\n';
}

TEST(ScanRuns, AutoResolvesAndAllVariantsRunOnOneInput) {
    Device& device = test::sharedDevice();
    ScanRequest req;
    req.elements = 100003;
    req.distribution = ScanDistribution::Max; // wraps at every step
    req.repeats = 1;
    std::vector<Status> seen;
    const ScanRun run =
        runScans(device, req, {}, [&](const ScanPoint& p) { seen.push_back(p.status); });
    ASSERT_EQ(run.points.size(), allScanVariants().size());
    EXPECT_EQ(seen.size(), run.points.size());
    EXPECT_GT(run.copy.gbps, 0);
    for (const ScanPoint& p : run.points) {
        if (p.status == Status::Unsupported) {
            EXPECT_FALSE(p.detail.empty());
            continue;
        }
        EXPECT_EQ(p.status, Status::Verified) << scanVariantName(p.variant) << ": " << p.detail;
        EXPECT_GT(p.gbps, 0);
        EXPECT_GT(p.percentOfCopy, 0);
    }
    EXPECT_NE(scanCsv(run).find("variant,wg,elements"), std::string::npos);
    EXPECT_NE(scanJson(run).find("\"points\""), std::string::npos);

    req.variants = {ScanVariant::Auto};
    const ScanRun autoRun = runScans(device, req);
    ASSERT_EQ(autoRun.points.size(), 1u); // auto is a whole-array variant: one point
    EXPECT_NE(autoRun.points[0].variant, ScanVariant::Auto);
    EXPECT_EQ(autoRun.points[0].status, Status::Verified) << autoRun.points[0].detail;
}

TEST(ScanRuns, SweepCoversEveryWorkGroupSizeOfPerSegmentVariants) {
    Device& device = test::sharedDevice();
    ScanParams params;
    params.variants = {ScanVariant::Naive, ScanVariant::ReduceThenScan};
    params.allWorkGroupSizes = true;
    params.count = 2 * 65536 + 3;
    params.repeats = 1;
    const ScanRun run = runScans(device, planScan(device.info(), params));
    const std::size_t sizes = scanWorkGroupSizes(device.info()).size();
    ASSERT_EQ(run.points.size(), sizes + 1);
    for (std::size_t i = 0; i < sizes; ++i) {
        EXPECT_EQ(run.points[i].workGroupSize, scanWorkGroupSizes(device.info())[i]);
        EXPECT_EQ(run.points[i].status, Status::Verified) << run.points[i].detail;
    }
}

class ScanDeviceBuffers : public ::testing::TestWithParam<ScanVariant> {};

TEST_P(ScanDeviceBuffers, ExclusiveInclusiveInPlaceAndRepeated) {
    Device& device = test::sharedDevice();
    const Values values(testValues().begin(), testValues().begin() + 300007);
    const std::size_t n = values.size(), bytes = n * sizeof(cl_uint);
    cl::Buffer in(device.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
                  const_cast<std::uint32_t*>(values.data()));
    cl::Buffer out(device.context(), CL_MEM_READ_WRITE, bytes);
    Values got(n);
    auto read = [&](const cl::Buffer& b) {
        device.queue().enqueueReadBuffer(b, CL_TRUE, 0, bytes, got.data());
        return got;
    };
    const ScanVariant variant = GetParam();

    scanDeviceBuffer(device, in, out, n, false, variant);
    EXPECT_EQ(read(out), exclusiveScanReference(values, 0));
    scanDeviceBuffer(device, in, out, n, true, variant);
    EXPECT_EQ(read(out), inclusiveScanReference(values, 0));

    // One DeviceScan, many launches (lookback: a new epoch each), the last one in place.
    DeviceScan scan(device, n, variant);
    EXPECT_NE(scan.variant(), ScanVariant::Auto);
    EXPECT_GE(scan.launchesPerScan(), 1u);
    for (int i = 0; i < 3; ++i) {
        const std::vector<cl::Event> ev = scan.enqueue(in, out, i % 2 == 1);
        EXPECT_EQ(ev.size(), scan.launchesPerScan());
        EXPECT_EQ(read(out),
                  i % 2 ? inclusiveScanReference(values, 0) : exclusiveScanReference(values, 0));
    }
    scan.enqueue(in, in, false);
    EXPECT_EQ(read(in), exclusiveScanReference(values, 0));

    scanDeviceBuffer(device, in, out, 0, false, variant); // nothing to do, nothing enqueued
    EXPECT_TRUE(DeviceScan(device, 0, variant).enqueue(in, out, false).empty());
    EXPECT_THROW(DeviceScan(device, 10, ScanVariant::Naive), UsageError);
}

// Every tile shape (--vpt) of both whole-array scans: exact on a length that leaves a partial
// tile, and what ran is what was asked; shapes that cannot be are refused naming --vpt.
TEST(ScanDeviceBuffers, EveryVectorsPerItemIsExact) {
    Device& device = test::sharedDevice();
    const Values values(testValues().begin(), testValues().begin() + 100003);
    for (ScanVariant variant : {ScanVariant::ReduceThenScan, ScanVariant::Lookback})
        for (std::size_t vpt : {1u, 2u, 8u, 16u}) {
            const ScanPoint p = runScanPoint(device, values, variant, 64, vpt % 2 == 0, 1, {}, vpt);
            EXPECT_EQ(p.status, Status::Verified)
                << scanVariantName(variant) << " vpt " << vpt << ": " << p.detail;
            EXPECT_EQ(p.vectorsPerItem, vpt);
            EXPECT_NE(p.buildOptions.find("-D VPT=" + std::to_string(vpt)), std::string::npos);
        }
    EXPECT_THROW(DeviceScan(device, 1000, ScanVariant::Lookback, 64, 3), UsageError);
    EXPECT_THROW(DeviceScan(device, 1000, ScanVariant::Lookback, 64, 32), UsageError);
    ScanParams params;
    params.vectorsPerItem = 8;
    EXPECT_EQ(planScan(device.info(), params).wholeVectorsPerItem, 8u);
    params.variants = {ScanVariant::Naive};
    EXPECT_THROW(planScan(device.info(), params), UsageError); // no tile to shape
}

// Warp shuffles are NVIDIA's inline PTX, which PoCL cannot build: the plan leaves them out here,
// and asked for they are reported unsupported, never replaced by the kernels without them.
TEST(ScanDeviceBuffers, WarpShufflesAreUnsupportedOnPocl) {
    Device& device = test::sharedDevice();
    const DeviceScan scan(device, 1000, ScanVariant::Lookback);
    EXPECT_FALSE(scan.warpShuffles());
    EXPECT_NE(scan.buildOptions().find("-D WARP=0"), std::string::npos) << scan.buildOptions();
    EXPECT_THROW(DeviceScan(device, 1000, ScanVariant::Lookback, 64, 0, 1), UnsupportedError);
    const Values values(testValues().begin(), testValues().begin() + 1000);
    for (ScanVariant variant : {ScanVariant::ReduceThenScan, ScanVariant::Lookback}) {
        const ScanPoint p = runScanPoint(device, values, variant, 64, false, 1, {}, 0, 1);
        EXPECT_EQ(p.status, Status::Unsupported) << p.detail;
        EXPECT_NE(p.detail.find("is not a GPU of NVIDIA's OpenCL"), std::string::npos) << p.detail;
        const ScanPoint off = runScanPoint(device, values, variant, 64, false, 1, {}, 0, 0);
        EXPECT_EQ(off.status, Status::Verified) << off.detail;
        EXPECT_FALSE(off.warp);
    }
    ScanParams params;
    params.warp = 1;
    EXPECT_EQ(planScan(device.info(), params).wholeWarp, 1);
    params.variants = {ScanVariant::Naive, ScanVariant::Blelloch};
    EXPECT_THROW(planScan(device.info(), params), UsageError); // no whole-array kernel to build
}

INSTANTIATE_TEST_SUITE_P(Variants, ScanDeviceBuffers,
                         ::testing::Values(ScanVariant::Auto, ScanVariant::ReduceThenScan,
                                           ScanVariant::Lookback),
                         [](const ::testing::TestParamInfo<ScanVariant>& info) {
                             std::string name = scanVariantName(info.param);
                             for (char& c : name)
                                 if (c == '-')
                                     c = '_';
                             return name;
                         });

// Which devices build the whole-array scans with warp shuffles: NVIDIA's own OpenCL on its GPUs
// by default (whole warps of 32 items), nothing else (PoCL's CUDA and Vulkan drivers name NVIDIA
// as the vendor too, but take no inline PTX); asking for them elsewhere is unsupported, and with
// groups smaller than a warp a usage error naming --warp.
TEST(ScanPlan, WarpShufflesOnNvidiaGpusOnly) {
    DeviceInfo nvidia;
    nvidia.name = "NVIDIA H200";
    nvidia.vendor = "NVIDIA Corporation";
    nvidia.platformName = "NVIDIA CUDA";
    nvidia.type = DeviceType::Gpu;
    EXPECT_TRUE(scanWarpShuffles(nvidia, -1, 0));
    EXPECT_TRUE(scanWarpShuffles(nvidia, -1, 256));
    EXPECT_FALSE(scanWarpShuffles(nvidia, -1, 16)); // smaller than a warp: without them
    EXPECT_FALSE(scanWarpShuffles(nvidia, 0, 256));
    EXPECT_TRUE(scanWarpShuffles(nvidia, 1, 32));
    EXPECT_THROW(scanWarpShuffles(nvidia, 1, 16), UsageError);
    DeviceInfo amd = nvidia;
    amd.name = "gfx90a";
    amd.vendor = "Advanced Micro Devices, Inc.";
    EXPECT_FALSE(scanWarpShuffles(amd, -1, 256));
    EXPECT_THROW(scanWarpShuffles(amd, 1, 256), UnsupportedError);
    DeviceInfo poclCuda = nvidia;
    poclCuda.platformName = "Portable Computing Language";
    EXPECT_FALSE(scanWarpShuffles(poclCuda, -1, 256));
    EXPECT_THROW(scanWarpShuffles(poclCuda, 1, 256), UnsupportedError);
    DeviceInfo cpu = nvidia;
    cpu.type = DeviceType::Cpu;
    EXPECT_FALSE(scanWarpShuffles(cpu, -1, 64));
    EXPECT_THROW(scanWarpShuffles(cpu, 1, 64), UnsupportedError);
    ScanParams params; // a group smaller than a warp is refused before any work
    params.warp = 1;
    params.workGroupSizes = {16};
    nvidia.maxWorkGroupSize = 1024;
    try {
        planScan(nvidia, params);
        ADD_FAILURE() << "--warp 1 --wg 16 was planned";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("--warp"), std::string::npos) << e.what();
    }
}

// The scan's plan decides for the CLI and the Scans tab alike. Its default size was decided twice
// before, differently: 16 MiB only on a CPU device (the window) against 64 MiB only on a GPU (the
// CLI), so an accelerator got different sizes. The answer: 16 MiB of values on a CPU device, 64
// MiB on any other (an accelerator has memory of its own, like a GPU).
TEST(ScanPlan, DefaultSizeBySortOfDevice) {
    DeviceInfo info;
    info.name = "test device";
    info.maxWorkGroupSize = 256;
    info.type = DeviceType::Cpu;
    EXPECT_EQ(planScan(info, {}).elements, (std::size_t(16) << 20) / 4);
    info.type = DeviceType::Gpu;
    EXPECT_EQ(planScan(info, {}).elements, (std::size_t(64) << 20) / 4);
    info.type = DeviceType::Accelerator;
    EXPECT_EQ(planScan(info, {}).elements, (std::size_t(64) << 20) / 4);
    ScanParams params;
    params.count = 1000;
    EXPECT_EQ(planScan(info, params).elements, 1000u);
    params.sizeMiB = 1;
    EXPECT_THROW(planScan(info, params), UsageError); // --size and --count together
}

TEST(ScanPlan, WorkGroupRangeAndSingleSize) {
    DeviceInfo info;
    info.name = "test device";
    info.type = DeviceType::Gpu;
    info.maxWorkGroupSize = 1024;
    ScanParams params;
    params.allWorkGroupSizes = true;
    params.minWorkGroupSize = 64;
    params.maxWorkGroupSize = 256;
    const ScanRequest r = planScan(info, params);
    EXPECT_EQ(r.workGroupSizes, (std::vector<std::size_t>{64, 128, 256}));
    EXPECT_EQ(r.wholeWorkGroupSize, 0u); // whole-array variants at their default
    EXPECT_EQ(scanPointCount(r), 3u * 3u + 2u);
    params.allWorkGroupSizes = false;
    params.workGroupSizes = {128};
    const ScanRequest one = planScan(info, params);
    EXPECT_EQ(one.workGroupSizes, (std::vector<std::size_t>{128}));
    EXPECT_EQ(one.wholeWorkGroupSize, 128u);
    params.workGroupSizes = {7};
    EXPECT_THROW(planScan(info, params), UsageError);
    params.workGroupSizes = {};
    params.variants = {};
    EXPECT_THROW(planScan(info, params), UsageError);
}

} // namespace
} // namespace histlab
