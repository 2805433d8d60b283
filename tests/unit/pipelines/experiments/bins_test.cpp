// The bins experiment on PoCL with small inputs: its grid is every large-bin method at every bin
// count, planned by the large-bin plan; every point is verified against the CPU reference and
// reports GB/s and G samples/s; a method a device's plan cannot fit is reported unsupported,
// with the plan's reason, and not replaced by another; images become 16-bit samples; the
// sweep's plan refuses what bins does not take.
#include "unitsupport.h"

#include "pipelines/experiments/binsexperiment.h"
#include "pipelines/experiments/experiment.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

#include <sstream>

namespace histlab {
namespace {

constexpr std::size_t kSmall = 64 * 1024; // bytes per input: 32,768 samples, quick on PoCL

/// The first, the cliff and the last bin count: three programs to build, not ten.
const std::vector<int> kFewBins = {256, 257, 65536};

std::string param(const GridEntry& e, const std::string& name) {
    for (const auto& [k, v] : e.params)
        if (k == name)
            return v;
    return {};
}

int deviceIndex() {
    return selectDevice("", test::sharedDeviceSet().infos());
}

ExperimentSpec binsSpec(std::vector<std::string> distributions, std::vector<int> bins) {
    ExperimentSpec spec;
    spec.kind = ExperimentKind::Bins;
    spec.distributions = std::move(distributions);
    spec.bins = std::move(bins);
    spec.bytes = kSmall;
    spec.repeats = 2;
    spec.maxRepeats = 20; // not bins': it times exactly the repeats
    return spec;
}

TEST(ExperimentBinsGrid, EveryMethodButAutoAtEveryBinCount) {
    EXPECT_EQ(defaultBinCounts(),
              (std::vector<int>{256, 257, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536}));
    Device& device = test::sharedDeviceSet().open(deviceIndex());
    const std::vector<GridEntry> grid = experimentGrid(ExperimentKind::Bins, device, kSmall);
    const std::vector<LargeBinMethod> methods = allLargeBinMethods();
    ASSERT_EQ(grid.size(), defaultBinCounts().size() * methods.size());
    for (std::size_t i = 0; i < grid.size(); ++i) {
        const GridEntry& e = grid[i];
        const int bins = defaultBinCounts()[i / methods.size()];
        const LargeBinMethod method = methods[i % methods.size()];
        EXPECT_EQ(e.bins, bins);
        EXPECT_EQ(e.x, bins);
        EXPECT_EQ(e.series, largeBinMethodName(method));
        EXPECT_EQ(param(e, "method"), largeBinMethodName(method));
        EXPECT_EQ(param(e, "bins"), std::to_string(bins));
        // The large-bin plan's geometry for this device and 32,768 samples, auto never.
        const LargeBinGeometry planned =
            planLargeBinGeometry(device.info(), binsExperimentSpec(bins), kSmall / 2, method);
        EXPECT_EQ(e.geometry.method, method);
        EXPECT_EQ(e.geometry.describe(), planned.describe());
        EXPECT_EQ(e.geometry.supported, planned.supported);
    }
    // Narrowed to the counts asked for.
    const auto few = experimentGrid(ExperimentKind::Bins, device, kSmall, {}, {4096});
    ASSERT_EQ(few.size(), methods.size());
    for (const GridEntry& e : few)
        EXPECT_EQ(e.bins, 4096);
}

TEST(ExperimentBinsRun, EveryPointVerifiedWithSamplesPerSecond) {
    const ExperimentSpec spec = binsSpec({"random", "skewed", "smooth"}, kFewBins);
    std::size_t streamed = 0;
    const ExperimentRun run = runExperiment(test::sharedDeviceSet(), {deviceIndex()}, spec, {},
                                            [&](const ExperimentPoint&) { ++streamed; });
    ASSERT_EQ(run.points.size(), 3 * kFewBins.size() * allLargeBinMethods().size());
    EXPECT_EQ(streamed, run.points.size());
    EXPECT_EQ(run.ceilings.size(), 3u);
    EXPECT_EQ(run.maxRepeats, 2) << "bins times exactly the repeats";
    for (const ExperimentPoint& p : run.points) {
        SCOPED_TRACE(p.distribution + " " + p.series + " " + std::to_string(int(p.x)));
        EXPECT_EQ(p.status, Status::Verified) << p.reason;
        EXPECT_EQ(p.stats.samplesMs.size(), 2u);
        EXPECT_GT(p.gbps, 0);
        EXPECT_NEAR(p.gsps, p.gbps / 2, 1e-9 * p.gbps); // two bytes a sample
        EXPECT_GT(p.percentOfCeiling, 0);
    }

    // The files keep G samples/s; the line says it.
    const ExperimentRun back = parseExperimentJson(experimentJson(run));
    EXPECT_EQ(back.kind, ExperimentKind::Bins);
    ASSERT_EQ(back.points.size(), run.points.size());
    EXPECT_EQ(back.points[0].gsps, run.points[0].gsps);
    EXPECT_EQ(back.points[0].params, run.points[0].params);
    std::istringstream csv(experimentCsv(run));
    std::string header;
    std::getline(csv, header);
    for (const char* column : {"series", "x", "method", "bins", "gbps", "gsamples_per_s", "status"})
        EXPECT_NE(header.find(column), std::string::npos) << column;
    const std::string line = describeExperimentPoint(ExperimentKind::Bins, run.points[0]);
    EXPECT_EQ(line.rfind("random global bins=256: ", 0), 0u) << line;
    EXPECT_NE(line.find(" G samples/s, "), std::string::npos) << line;
}

// A device whose local memory holds no copy of 65,539 counters (an H100's 48 KiB): the plan
// says local cannot run, and the point says so with the plan's reason -- no other method's
// figures in its place. The other methods run their GPU geometry (multipass in 6 slices,
// local16 in 3) on PoCL and are verified.
TEST(ExperimentBinsRun, UnsupportedIsReportedNotReplaced) {
    Device& device = test::sharedDeviceSet().open(deviceIndex());
    const DeviceInfo gpu = test::describedDevice(DeviceType::Gpu);
    const std::vector<GridEntry> grid = binsGrid(gpu, kSmall, {65536});
    const BinsInput input = makeBinsInput(device, "random", kSmall, nullptr, {65536});
    int unsupported = 0;
    for (const GridEntry& e : grid) {
        ExperimentPoint p;
        runBinsPoint(device, e, input, 1, {}, p);
        SCOPED_TRACE(e.series);
        if (e.geometry.method == LargeBinMethod::Local) {
            ++unsupported;
            EXPECT_EQ(p.status, Status::Unsupported);
            EXPECT_NE(p.reason.find("do not fit"), std::string::npos) << p.reason;
            EXPECT_EQ(p.gbps, 0);
            EXPECT_TRUE(p.stats.samplesMs.empty());
        } else {
            EXPECT_EQ(p.status, Status::Verified) << p.reason;
        }
    }
    EXPECT_EQ(unsupported, 1);
}

TEST(ExperimentBinsRun, ImagesAreSixteenBitSamples) {
    const HostImage gray = test::grayImage(3, 8, {0, 1, 255});
    SamplePlane plane = binsImagePlane(gray);
    ASSERT_EQ(plane.type, SampleType::U16);
    ASSERT_EQ(plane.count(), 3u);
    EXPECT_EQ(sampleValue(plane, 0), 0);
    EXPECT_EQ(sampleValue(plane, 1), 257);
    EXPECT_EQ(sampleValue(plane, 2), 65535); // the whole range, as a 16-bit image spans it

    const HostImage wide = test::grayImage(3, 16, {7, 40000, 65535});
    plane = binsImagePlane(wide);
    EXPECT_EQ(sampleValue(plane, 1), 40000); // as it is

    HostImage floats = gray;
    floats.depth = 32;
    floats.data.assign(12, 0);
    EXPECT_THROW(binsImagePlane(floats), InputError);

    // Repeated to the size and verified like the synthetic data.
    ExperimentSpec spec = binsSpec({"image"}, {256, 65536});
    spec.image = &wide;
    const ExperimentRun run = runExperiment(test::sharedDeviceSet(), {deviceIndex()}, spec);
    ASSERT_EQ(run.points.size(), 2 * allLargeBinMethods().size());
    for (const ExperimentPoint& p : run.points)
        EXPECT_EQ(p.status, Status::Verified) << p.series << " " << p.x << ": " << p.reason;
}

/// The option a plan of `params` on a CPU device with 1 GiB buffers blames ("" when it plans).
std::string blamed(const ExperimentParams& params) {
    return test::refusedParameter(
        [&] { planExperiment({test::describedDevice(DeviceType::Cpu)}, params); });
}

TEST(ExperimentBinsPlan, ItsDistributionsBinCountsAndRepeats) {
    ExperimentParams params;
    params.kind = ExperimentKind::Bins;
    const DeviceInfo cpu = test::describedDevice(DeviceType::Cpu);
    ExperimentPlan plan = planExperiment({cpu}, params);
    EXPECT_EQ(plan.spec.distributions, (std::vector<std::string>{"random", "skewed", "smooth"}));
    EXPECT_TRUE(plan.spec.bins.empty()) << "the default counts";
    EXPECT_EQ(plan.spec.maxRepeats, plan.spec.repeats);
    params.bins = std::vector<int>{4096, 256, 4096};
    EXPECT_EQ(planExperiment({cpu}, params).spec.bins, (std::vector<int>{256, 4096}));
    EXPECT_EQ(experimentDistributions(ExperimentKind::Bins),
              (std::vector<std::string>{"random", "skewed", "smooth", "image"}));

    params.distributions = std::vector<std::string>{"uniform"}; // a 256-bin experiment's bytes
    EXPECT_EQ(blamed(params), "--dist");
    params.distributions.reset();
    params.maxRepeats = 10;
    EXPECT_EQ(blamed(params), "--max-repeat") << "refused, not ignored";
    params.maxRepeats.reset();
    params.sizeMiB = 2048; // beyond the device's largest buffer
    EXPECT_EQ(blamed(params), "--size");
    ExperimentParams banks;
    banks.kind = ExperimentKind::Banks;
    banks.bins = std::vector<int>{256};
    EXPECT_EQ(blamed(banks), "--bins");
    banks.bins.reset();
    banks.distributions = std::vector<std::string>{"smooth"}; // bins' samples only
    EXPECT_EQ(blamed(banks), "--dist");
    EXPECT_THROW(parseBinCounts("256,0"), UsageError);
    EXPECT_THROW(parseBinCounts("65537"), UsageError);
    EXPECT_EQ(parseExperimentKind("bins"), ExperimentKind::Bins);
}

} // namespace
} // namespace histlab
