// The memory lab's transfers and ceilings on the test device (PoCL in CI), small
// sizes: every transfer kind verified at every size of a sweep that ends off the power-of-two
// ladder, with positive, finite latencies and bandwidths; the kernel launch latency; the
// read-only and copy ceilings at every vector width with the best one named; bad sizes refused
// before any work. (The memory lab's report files: pipelines/memorylab.)
#include "unitsupport.h"

#include "pipelines/transfer/transfer.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace histlab {
namespace {

bool positiveFinite(double v) {
    return std::isfinite(v) && v > 0;
}

TEST(MemoryTransferNames, SizesKindsAndDefaults) {
    EXPECT_EQ(transferSizes(4096, 65536),
              (std::vector<std::uint64_t>{4096, 8192, 16384, 32768, 65536}));
    EXPECT_EQ(transferSizes(4096, 10000), (std::vector<std::uint64_t>{4096, 8192, 10000}));
    EXPECT_EQ(transferSizes(5, 5), (std::vector<std::uint64_t>{5}));
    EXPECT_TRUE(transferSizes(10, 5).empty());
    for (TransferKind k : allTransferKinds())
        EXPECT_EQ(parseTransferKind(transferKindName(k)), k);
    EXPECT_EQ(allTransferKinds().size(), 5u);
    EXPECT_THROW(parseTransferKind("h2d"), UsageError);
    DeviceInfo info;
    info.maxAllocBytes = std::uint64_t(4) << 30;
    EXPECT_EQ(defaultTransferMax(info), std::uint64_t(1) << 30);
    info.maxAllocBytes = 12345;
    EXPECT_EQ(defaultTransferMax(info), 12345u);
}

TEST(MemoryTransfer, EveryKindVerifiedAtEverySize) {
    TransferSpec spec;
    spec.minBytes = 4096;
    spec.maxBytes = 65536 + 3; // the last size off the ladder, not a multiple of 4
    spec.repeats = 1;
    spec.launchRepeats = 5;
    std::size_t progress = 0;
    const TransferSweep sweep =
        runTransfers(test::sharedDevice(), spec, {}, [&](const TransferPoint&) { ++progress; });
    ASSERT_EQ(sweep.sizes.size(), 6u);
    EXPECT_EQ(sweep.sizes.back(), 65539u);
    ASSERT_EQ(sweep.points.size(), 5 * sweep.sizes.size());
    EXPECT_EQ(progress, sweep.points.size());
    for (const TransferPoint& p : sweep.points) {
        const std::string what =
            std::string(transferKindName(p.kind)) + " " + std::to_string(p.bytes);
        EXPECT_EQ(p.status, Status::Verified) << what << ": " << p.detail;
        EXPECT_TRUE(positiveFinite(p.wall.medianMs)) << what;
        EXPECT_TRUE(positiveFinite(p.wall.minMs)) << what;
        EXPECT_TRUE(positiveFinite(p.gbps)) << what;
        EXPECT_TRUE(std::isfinite(p.profiled.medianMs) && p.profiled.medianMs >= 0) << what;
        // At most 1 MiB: at least 20 timed runs, whatever the spec's repeats.
        EXPECT_EQ(p.wall.samplesMs.size(), 20u) << what;
        EXPECT_EQ(p.profiled.samplesMs.size(), 20u) << what;
    }
    // Kind by kind, in the spec's order, each over every size.
    for (std::size_t i = 0; i < sweep.points.size(); ++i) {
        EXPECT_EQ(sweep.points[i].kind, allTransferKinds()[i / sweep.sizes.size()]);
        EXPECT_EQ(sweep.points[i].bytes, sweep.sizes[i % sweep.sizes.size()]);
    }
    const TransferPoint* largest = sweep.largest(TransferKind::DeviceToDevice);
    ASSERT_NE(largest, nullptr);
    EXPECT_EQ(largest->bytes, 65539u);
    ASSERT_TRUE(sweep.launch);
    EXPECT_TRUE(sweep.launch->ran) << sweep.launch->detail;
    EXPECT_EQ(sweep.launch->wall.samplesMs.size(), 5u);
    EXPECT_TRUE(positiveFinite(sweep.launch->wall.medianMs));
    EXPECT_TRUE(std::isfinite(sweep.launch->profiled.medianMs) &&
                sweep.launch->profiled.medianMs >= 0);
    EXPECT_GE(sweep.launch->wall.medianMs, sweep.launch->profiled.medianMs)
        << "the host waits at least as long as the kernel runs";
}

TEST(MemoryTransfer, LargerPointsUseTheSpecsRepeats) {
    TransferSpec spec;
    spec.minBytes = spec.maxBytes = (1u << 20) + 1;
    spec.kinds = {TransferKind::DeviceToHostPinned, TransferKind::HostToDevicePinned};
    spec.repeats = 2;
    spec.launchLatency = false;
    const TransferSweep sweep = runTransfers(test::sharedDevice(), spec);
    ASSERT_EQ(sweep.points.size(), 2u);
    EXPECT_EQ(sweep.points[0].kind, TransferKind::DeviceToHostPinned);
    for (const TransferPoint& p : sweep.points) {
        EXPECT_EQ(p.status, Status::Verified) << p.detail;
        EXPECT_EQ(p.wall.samplesMs.size(), 2u);
    }
    EXPECT_FALSE(sweep.launch);
}

TEST(MemoryTransfer, BadSizesRefusedBeforeWork) {
    Device& device = test::sharedDevice();
    TransferSpec spec;
    spec.maxBytes = device.info().maxAllocBytes + 1;
    try {
        runTransfers(device, spec);
        FAIL() << "a transfer above the largest buffer ran";
    } catch (const UsageError& e) {
        EXPECT_EQ(e.parameter(), "--max-size");
    }
    spec.maxBytes = 1000;
    spec.minBytes = 4096;
    EXPECT_THROW(runTransfers(device, spec), UsageError);
    spec.minBytes = 0;
    EXPECT_THROW(runTransfers(device, spec), UsageError);
    CancelToken cancelled;
    cancelled.cancel();
    spec.minBytes = 512;
    EXPECT_THROW(runTransfers(device, spec, cancelled), CancelledError);
}

TEST(MemoryCeilings, EveryWidthVerifiedWithTheBestNamed) {
    const CeilingSweep c = measureCeilingWidths(test::sharedDevice(), (256u << 10) + 40, 1);
    EXPECT_EQ(c.bytes, 256u << 10) << "rounded down to 64 bytes";
    ASSERT_EQ(c.widths.size(), kCeilingWidths.size());
    for (std::size_t i = 0; i < c.widths.size(); ++i) {
        const WidthCeiling& w = c.widths[i];
        EXPECT_EQ(w.width, kCeilingWidths[i]);
        EXPECT_EQ(w.status, Status::Verified) << w.width << ": " << w.detail;
        EXPECT_TRUE(positiveFinite(w.read.gbps)) << w.width;
        EXPECT_TRUE(positiveFinite(w.copy.gbps)) << w.width;
        EXPECT_EQ(w.read.bytes, c.bytes);
        EXPECT_EQ(w.copy.bytes, 2 * c.bytes) << "copy: bytes read + written";
    }
    const auto best = [&](bool read) {
        const auto it = std::max_element(
            c.widths.begin(), c.widths.end(), [&](const WidthCeiling& a, const WidthCeiling& b) {
                return read ? a.read.gbps < b.read.gbps : a.copy.gbps < b.copy.gbps;
            });
        return it->width;
    };
    EXPECT_EQ(c.bestReadWidth, best(true));
    EXPECT_EQ(c.bestCopyWidth, best(false));
    EXPECT_GT(c.bestReadGbps, 0);
    EXPECT_GT(c.bestCopyGbps, 0);
}

TEST(MemoryCeilings, BadRequestsRefused) {
    Device& device = test::sharedDevice();
    EXPECT_THROW(measureCeilingWidths(device, 63, 1), UsageError);
    EXPECT_THROW(measureCeilingWidths(device, 4096, 1, {}, {3}), UsageError);
    const CeilingSweep one = measureCeilingWidths(device, 4096, 1, {}, {16});
    ASSERT_EQ(one.widths.size(), 1u);
    EXPECT_EQ(one.bestCopyWidth, 16);
}

} // namespace
} // namespace histlab
