// The equalization family's plan (what histlab-cli equalize runs: the image asked for, the
// refusals) and its report through the registry: text, the histogram and CDF as CSV, the
// equalized image for --out, and the verdict.
#include "unitsupport.h"

#include "pipelines/equalize/equalize.h"
#include "pipelines/registry.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

namespace histlab {
namespace {

/// The option a refused plan names ("" when it is accepted).
std::string refusedOption(const EqualizeParams& params) {
    return test::refusedParameter(
        [&] { planEqualize(test::describedDevice(DeviceType::Gpu), params); });
}

TEST(EqualizePlan, TheImageAskedFor) {
    EqualizeParams params;
    EXPECT_EQ(params.repeats, 5);
    params.input.synthetic = SyntheticKind::Skewed;
    params.input.width = 53;
    params.input.height = 31;
    params.input.channels = 4;
    params.input.depth = 16;
    const EqualizePlan plan = planEqualize(test::describedDevice(DeviceType::Gpu), params);
    ASSERT_TRUE(plan.image);
    EXPECT_EQ(plan.image->source, "synthetic skewed 53x31");
    EXPECT_EQ(plan.image->byteCount(), 53u * 31u * 4u * 2u);
    EXPECT_EQ(plan.repeats, 5);
    // A loaded image runs as it is, without a copy.
    EqualizeParams file;
    file.input.path = "gray.png";
    file.input.loaded =
        std::make_shared<const HostImage>(makeSyntheticImage(SyntheticKind::Random, 4, 4));
    EXPECT_EQ(planEqualize(test::describedDevice(DeviceType::Gpu), file).image, file.input.loaded);
}

TEST(EqualizePlan, Refusals) {
    EqualizeParams params;
    EXPECT_EQ(refusedOption(params), "equalize"); // which image?
    params.input.synthetic = SyntheticKind::Random;
    params.input.width = 8;
    EXPECT_EQ(refusedOption(params), "--synthetic"); // needs --width and --height
    params.input.height = 8;
    EXPECT_EQ(refusedOption(params), "");
    params.input.path = "x.png";
    EXPECT_EQ(refusedOption(params), "equalize"); // an image or --synthetic, not both
}

TEST(EqualizePlan, ReportThroughTheRegistry) {
    const Pipeline* p = findPipeline("equalize");
    ASSERT_NE(p, nullptr);
    EqualizeParams params;
    params.input.synthetic = SyntheticKind::Gradient;
    params.input.width = 37;
    params.input.height = 23;
    params.repeats = 1;
    const std::any result = test::runPipeline(*p, params);
    ASSERT_TRUE(result.has_value());
    const Report r = p->report(result);
    EXPECT_EQ(r.verdict.kind, Verdict::Kind::Ok) << r.verdict.message;
    EXPECT_NE(r.text.find("synthetic gradient 37x23, 37 x 23, 1 channel(s), 8-bit, 256 bins of "
                          "gray"),
              std::string::npos)
        << r.text;
    EXPECT_NE(r.text.find("verified: yes, byte for byte"), std::string::npos);
    const std::string csv = r.csv();
    EXPECT_EQ(csv.substr(0, 14), "bin,count,cdf\n");
    EXPECT_NE(csv.find("\n255,"), std::string::npos);
    EXPECT_EQ(csv.substr(csv.size() - 5), ",851\n"); // the CDF ends at every pixel
    EXPECT_EQ(r.table.rows().size(), 256u);
    ASSERT_EQ(r.images.count("--out"), 1u);
    ASSERT_NE(r.images.at("--out").image, nullptr);
    EXPECT_EQ(r.images.at("--out").image->width, 37);
}

} // namespace
} // namespace histlab
