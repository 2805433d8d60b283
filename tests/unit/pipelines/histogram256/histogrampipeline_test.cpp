// The histogram family's plan (what histlab-cli histogram runs): the input it makes or crops,
// the configuration each sort of device gets, the end-to-end chunk, and every refusal naming
// its option; and its reports through the registry.
#include "unitsupport.h"

#include "pipelines/histogram256/histogram256.h"
#include "pipelines/histogram256/histogramreport.h"
#include "pipelines/registry.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

namespace histlab {
namespace {

HistogramParams syntheticBytes(std::uint64_t bytes) {
    HistogramParams params;
    params.input.synthetic = SyntheticKind::Random;
    params.bytes = bytes;
    return params;
}

HistogramParams imageParams(HostImage image) {
    HistogramParams params;
    params.input.path = image.source;
    params.input.loaded = std::make_shared<const HostImage>(std::move(image));
    return params;
}

/// The option a refused plan names ("" when it is accepted).
std::string refusedOption(const HistogramParams& params, DeviceType type = DeviceType::Gpu) {
    return test::refusedParameter([&] { planHistogram(test::describedDevice(type), params); });
}

// What runs where the device's description decides it: auto is the cpu variant on a CPU device
// (local atomics are slow there) and the autotune's choice elsewhere, decided on the device.
TEST(HistogramPlan, ConfigurationBySortOfDevice) {
    const HistogramParams params = syntheticBytes(4099);
    const HistogramPlan cpu = planHistogram(test::describedDevice(DeviceType::Cpu), params);
    ASSERT_TRUE(cpu.config.has_value());
    EXPECT_EQ(cpu.config->variant, HistogramVariant::Private);
    EXPECT_EQ(cpu.config->chosenBy, "cpu heuristic");
    EXPECT_EQ(cpu.config->banks, 4);
    EXPECT_EQ(cpu.config->read, ReadPattern::Serial);
    EXPECT_FALSE(planHistogram(test::describedDevice(DeviceType::Gpu), params).config.has_value());
    EXPECT_FALSE(
        planHistogram(test::describedDevice(DeviceType::Accelerator), params).config.has_value());
    // A variant asked for by name gets its defaults: the reference text's 16 banks where they
    // fit, 256 work-items, coalesced uint4 loads, a merge kernel.
    HistogramParams banked = params;
    banked.request.variant = HistogramVariant::Banked;
    const HistogramPlan gpu = planHistogram(test::describedDevice(DeviceType::Gpu), banked);
    ASSERT_TRUE(gpu.config.has_value());
    EXPECT_EQ(gpu.config->chosenBy, "request");
    EXPECT_EQ(gpu.config->banks, 16);
    EXPECT_EQ(gpu.config->workGroupSize, 256);
    EXPECT_EQ(gpu.config->read, ReadPattern::Coalesced);
    EXPECT_EQ(gpu.config->merge, MergeMode::Kernel);
    DeviceInfo small = test::describedDevice(DeviceType::Gpu);
    small.localMemBytes = 8 * 1024; // 8 copies of 256 bins
    EXPECT_EQ(planHistogram(small, banked).config->banks, 8);
}

TEST(HistogramPlan, InputMadeOrCropped) {
    HistogramParams params = syntheticBytes(4099);
    HistogramPlan plan = planHistogram(test::describedDevice(DeviceType::Gpu), params);
    ASSERT_TRUE(plan.input);
    EXPECT_EQ(plan.input->byteCount(), 4099u);
    EXPECT_EQ(plan.input->source, "synthetic random");
    params.bytes.reset();
    params.sizeMiB = 0.5;
    EXPECT_EQ(planHistogram(test::describedDevice(DeviceType::Gpu), params).input->byteCount(),
              524288u);
    HostImage rgb = test::syntheticImage(SyntheticKind::Gradient, 12 * 8, 3, 12);
    rgb.source = "rgb.png";
    params = imageParams(rgb);
    params.region = Region{2, 3, 5, 4};
    plan = planHistogram(test::describedDevice(DeviceType::Gpu), params);
    EXPECT_EQ(plan.input->width, 5);
    EXPECT_EQ(plan.input->height, 4);
    EXPECT_EQ(plan.input->channels, 3);
    // Without a region the loaded image itself runs: no copy.
    params.region.reset();
    EXPECT_EQ(planHistogram(test::describedDevice(DeviceType::Gpu), params).input,
              params.input.loaded);
}

TEST(HistogramPlan, Refusals) {
    HistogramParams params = syntheticBytes(4099);
    params.request.variant = HistogramVariant::Banked;
    params.request.banks = 3;
    EXPECT_EQ(refusedOption(params), "--banks"); // not a power of two
    params.request.banks = 64;                   // 64 KiB of local memory: the device has 48
    EXPECT_EQ(refusedOption(params), "--banks");
    params.request.banks = 0;
    params.request.workGroupSize = 2048;
    EXPECT_EQ(refusedOption(params), "--wg");
    params.request = {};
    params.request.variant = HistogramVariant::Private;
    params.request.read = ReadPattern::Coalesced;
    EXPECT_EQ(refusedOption(params), "--read");

    HostImage gray = test::syntheticImage(SyntheticKind::Random, 64, 1, 8);
    gray.source = "gray.png";
    params = imageParams(gray);
    params.options.channel = ChannelSelection::R;
    EXPECT_EQ(refusedOption(params), "--channel"); // a gray image has no red
    params.options.channel = ChannelSelection::All;
    params.region = Region{4, 4, 8, 8};
    EXPECT_EQ(refusedOption(params), "--region"); // outside the 8 x 8 image

    params = syntheticBytes(16);
    params.input.path = "x.png";
    EXPECT_EQ(refusedOption(params), "histogram"); // an image or synthetic bytes, not both
    params = HistogramParams{};
    EXPECT_EQ(refusedOption(params), "histogram"); // neither
    params.input.synthetic = SyntheticKind::Random;
    EXPECT_EQ(refusedOption(params), "--synthetic"); // no size
    params.sizeMiB = 1;
    params.bytes = 1;
    EXPECT_EQ(refusedOption(params), "--synthetic"); // two sizes
    params = imageParams(gray);
    params.bytes = 16;
    EXPECT_EQ(refusedOption(params), "--size/--bytes"); // a size is for synthetic data only
    // A size of 0 is the option's usage error, as in every command.
    EXPECT_THROW(planHistogram(test::describedDevice(DeviceType::Gpu), syntheticBytes(0)),
                 UsageError);
}

// End to end: every channel streams together, in chunks of whole 48-byte units that the
// device's largest buffer holds (the whole input when it fits in one).
TEST(HistogramPlan, EndToEndChunk) {
    HistogramParams params = syntheticBytes(100000);
    params.endToEnd = true;
    params.chunkMiB = 0.01; // 10485.76 bytes
    HistogramPlan plan = planHistogram(test::describedDevice(DeviceType::Gpu), params);
    EXPECT_TRUE(plan.endToEnd);
    EXPECT_EQ(plan.endToEndOptions.chunkBytes, 10464u);
    EXPECT_EQ(plan.endToEndOptions.nchan, 1);
    params.chunkMiB = 32;
    EXPECT_EQ(
        planHistogram(test::describedDevice(DeviceType::Gpu), params).endToEndOptions.chunkBytes,
        100000u);
    params.chunkMiB = 0;
    EXPECT_EQ(refusedOption(params), "--chunk");
    DeviceInfo tiny = test::describedDevice(DeviceType::Gpu);
    tiny.maxAllocBytes = 4096;
    params.chunkMiB = 1;
    EXPECT_THROW(planHistogram(tiny, params), UsageError);
    HostImage rgba = test::syntheticImage(SyntheticKind::Random, 100, 4, 10);
    params = imageParams(rgba);
    params.endToEnd = true;
    EXPECT_EQ(planHistogram(test::describedDevice(DeviceType::Gpu), params).endToEndOptions.nchan,
              4);
}

// The family through the registry, as histlab-cli runs it: text, CSV, statistics, JSON and the
// verdict of a verified run on the device.
TEST(HistogramPlan, ReportThroughTheRegistry) {
    const Pipeline* p = findPipeline("histogram");
    ASSERT_NE(p, nullptr);
    HistogramParams params = syntheticBytes(4099);
    params.options.verify = true;
    params.options.repeats = 1;
    const std::any result = test::runPipeline(*p, params);
    ASSERT_TRUE(result.has_value());
    const Report r = p->report(result);
    EXPECT_EQ(r.verdict.kind, Verdict::Kind::Ok);
    EXPECT_NE(r.text.find("verified: yes, bit-exact"), std::string::npos) << r.text;
    EXPECT_EQ(r.csv().substr(0, 9), "bin,gray\n");
    EXPECT_EQ(r.files.at("--stats-csv")("stats.csv").substr(0, 14), "channel,count,");
    EXPECT_NE(r.json().find("\"verified\": true"), std::string::npos);
    EXPECT_EQ(r.table.rows().size(), 256u);
}

} // namespace
} // namespace histlab
