// The blur family's plan (what histlab-cli blur and the Blur tab run: the mode, the border, the
// variants, the tuning each sort of device chooses, the refusals) and its whole-image loop: one
// variant that cannot run among several is a row, never a failed run.
#include "unitsupport.h"

#include "pipelines/blur/blur.h"
#include "pipelines/registry.h"
#include "runtime/errors.h"
#include "runtime/kernelsource.h"

#include <gtest/gtest.h>

namespace histlab {
namespace {

BlurParams syntheticParams() {
    BlurParams params;
    params.input.synthetic = SyntheticKind::Random;
    params.input.width = 40;
    params.input.height = 20;
    return params;
}

/// The option a refused plan names ("" when it is accepted).
std::string refusedOption(const BlurParams& params) {
    return test::refusedParameter(
        [&] { planBlur(test::describedDevice(DeviceType::Gpu), params); });
}

TEST(BlurPlan, LaunchesUnlessTheWholeImageIsAsked) {
    BlurParams params = syntheticParams();
    BlurPlan plan = planBlur(test::describedDevice(DeviceType::Gpu), params);
    EXPECT_EQ(plan.mode, BlurMode::Launches);
    EXPECT_EQ(plan.launches, allBlurLaunches());
    EXPECT_EQ(plan.radii, std::vector<int>{1});
    ASSERT_TRUE(plan.image);
    EXPECT_EQ(plan.image->width, 40);
    EXPECT_EQ(plan.image->source, "synthetic random 40x20");
    // A border, a variant or the cv::blur comparison each ask for the whole image; the border
    // is OpenCV's default unless given, the variant auto.
    params.variants = std::vector<BlurVariant>{BlurVariant::Sliding};
    plan = planBlur(test::describedDevice(DeviceType::Gpu), params);
    EXPECT_EQ(plan.mode, BlurMode::WholeImage);
    EXPECT_EQ(plan.border, BorderMode::Reflect101);
    params.variants.reset();
    params.border = BorderMode::Replicate;
    plan = planBlur(test::describedDevice(DeviceType::Gpu), params);
    EXPECT_EQ(plan.mode, BlurMode::WholeImage);
    EXPECT_EQ(plan.border, BorderMode::Replicate);
    EXPECT_EQ(plan.variants, std::vector<BlurVariant>{BlurVariant::Auto});
    EXPECT_TRUE(plan.tuning.measureCopy); // judged against the copy kernel of the same bytes
    params.border.reset();
    params.compareOpenCv = true;
    EXPECT_EQ(planBlur(test::describedDevice(DeviceType::Gpu), params).mode, BlurMode::WholeImage);
}

// The tuning each sort of device gets when none is asked for (measured: README): a GPU loads
// the window's rows packed (two pixels per register where that has a path: 8-bit gray and
// RGBA at R = 1), and scans row
// tiles in local memory; a CPU slides down the rows, two pixels per register, one row per
// work-item. What is asked stays.
TEST(BlurPlan, TuningBySortOfDevice) {
    BlurParams params = syntheticParams();
    params.border = BorderMode::Reflect101;
    const BlurTuning gpu = planBlur(test::describedDevice(DeviceType::Gpu), params).tuning;
    EXPECT_EQ(gpu.packed, 1);
    EXPECT_EQ(gpu.swar, 1); // (packed rows: gray's and RGBA's SWAR paths)
    EXPECT_EQ(gpu.serialRows, 0);
    const BlurTuning accelerator =
        planBlur(test::describedDevice(DeviceType::Accelerator), params).tuning;
    EXPECT_EQ(accelerator.packed, 1);
    EXPECT_EQ(accelerator.serialRows, 0);
    const BlurTuning cpu = planBlur(test::describedDevice(DeviceType::Cpu), params).tuning;
    EXPECT_EQ(cpu.packed, 0);
    EXPECT_EQ(cpu.swar, 1);
    EXPECT_EQ(cpu.serialRows, 1);
    params.tuning.packed = 1;
    params.tuning.swar = 0;
    params.tuning.serialRows = 0;
    params.tuning.rows = 8;
    const BlurTuning asked = planBlur(test::describedDevice(DeviceType::Cpu), params).tuning;
    EXPECT_EQ(asked.packed, 1);
    EXPECT_EQ(asked.swar, 0);
    EXPECT_EQ(asked.serialRows, 0);
    EXPECT_EQ(asked.rows, 8);
}

// A register limit is NVIDIA's compiler option (cl_nv_compiler_options): there 8-bit RGBA with
// SWAR gets 64 unless asked otherwise, the rest the compiler's choice; a device without the
// option runs with no limit and refuses one asked for, naming --registers.
TEST(BlurPlan, RegisterLimit) {
    DeviceInfo nvidia = test::describedDevice(DeviceType::Gpu);
    nvidia.extensions = "cl_khr_global_int32_base_atomics cl_nv_compiler_options cl_khr_fp64";
    EXPECT_EQ(blurRegisterLimit(nvidia, -1, true), 64);
    EXPECT_EQ(blurRegisterLimit(nvidia, -1, false), 0);
    EXPECT_EQ(blurRegisterLimit(nvidia, 0, true), 0);
    EXPECT_EQ(blurRegisterLimit(nvidia, 80, false), 80);
    DeviceInfo other = test::describedDevice(DeviceType::Gpu);
    other.extensions = "cl_khr_global_int32_base_atomics cl_nv_compiler_options_not";
    EXPECT_EQ(blurRegisterLimit(other, -1, true), 0);
    EXPECT_EQ(blurRegisterLimit(other, 0, true), 0);
    try {
        blurRegisterLimit(other, 64, true);
        ADD_FAILURE() << "a limit without NVIDIA's compiler options was accepted";
    } catch (const UnsupportedError& e) {
        EXPECT_NE(std::string(e.what()).find("--registers"), std::string::npos) << e.what();
    }
}

DeviceInfo nvidiaOpenClDevice() {
    DeviceInfo info = test::describedDevice(DeviceType::Gpu);
    info.name = "NVIDIA H200";
    info.vendor = "NVIDIA Corporation";
    info.platformName = "NVIDIA CUDA";
    info.extensions = "cl_khr_global_int32_base_atomics cl_nv_compiler_options";
    return info;
}

bool hasOption(const TiledBlurPlan& plan, const std::string& option) {
    return (plan.buildOptions + " ").find(option + " ") != std::string::npos;
}

// The tiled blur's NVIDIA-only paths, decided by its plan: byte permutes wherever there is
// SWAR on NVIDIA's OpenCL, warp shuffles only for packed 8-bit gray at R = 1 with one vector
// (the kernel stops at #error for anything else) and groups of whole warps (only the plan
// keeps that: a lane's neighbours must be in its warp), and neither elsewhere.
TEST(BlurPlan, TiledNvidiaPaths) {
    const DeviceInfo nvidia = nvidiaOpenClDevice();
    const BorderMode b = BorderMode::Reflect101;
    TiledBlurPlan gray = planTiledBlur(nvidia, 8192, 8192, 1, 8, 1, b, {});
    EXPECT_TRUE(gray.packed && gray.swar && gray.prmt && gray.shuffle);
    EXPECT_EQ(gray.rows, 8);
    EXPECT_EQ(gray.workGroup, 128u);
    EXPECT_EQ(gray.registers, 0);
    EXPECT_EQ(gray.globalX, 512u); // 8192 bytes in vectors of 16
    EXPECT_EQ(gray.globalY, 1024u);
    EXPECT_TRUE(hasOption(gray, "-D NV_SHFL=1")) << gray.buildOptions;
    EXPECT_TRUE(hasOption(gray, "-D NV_PRMT=1")) << gray.buildOptions;
    // 1040 bytes: 65 vectors, in a range of whole groups (the lanes past the row's end stay
    // for the shuffles)
    EXPECT_EQ(planTiledBlur(nvidia, 1040, 7, 1, 8, 1, b, {}).globalX, 128u);

    BlurTuning t;
    t.workGroup = 48; // not whole warps
    TiledBlurPlan plan = planTiledBlur(nvidia, 8192, 64, 1, 8, 1, b, t);
    EXPECT_TRUE(plan.prmt);
    EXPECT_FALSE(plan.shuffle);
    EXPECT_TRUE(hasOption(plan, "-D NV_SHFL=0")) << plan.buildOptions;
    t = {};
    t.vectors = 2;
    EXPECT_FALSE(planTiledBlur(nvidia, 8192, 64, 1, 8, 1, b, t).shuffle);
    t = {};
    t.packed = 0; // sliding down: no SWAR on a GPU unless asked, then permutes, no shuffles
    plan = planTiledBlur(nvidia, 8192, 64, 1, 8, 1, b, t);
    EXPECT_FALSE(plan.swar || plan.prmt || plan.shuffle);
    EXPECT_EQ(plan.rows, 16);
    t.swar = 1;
    plan = planTiledBlur(nvidia, 8192, 64, 1, 8, 1, b, t);
    EXPECT_TRUE(plan.swar && plan.prmt);
    EXPECT_FALSE(plan.shuffle);

    TiledBlurPlan rgba = planTiledBlur(nvidia, 8192, 2048, 4, 8, 1, b, {});
    EXPECT_TRUE(rgba.swar && rgba.prmt);
    EXPECT_FALSE(rgba.shuffle);
    EXPECT_EQ(rgba.rows, 4);
    EXPECT_EQ(rgba.registers, 64);
    EXPECT_TRUE(hasOption(rgba, "-cl-nv-maxrregcount=64")) << rgba.buildOptions;
    // neither for 16 bits, RGB or a radius above 1 (no SWAR there)
    for (const TiledBlurPlan& p : {planTiledBlur(nvidia, 512, 64, 1, 16, 1, b, {}),
                                   planTiledBlur(nvidia, 512, 64, 3, 8, 1, b, {}),
                                   planTiledBlur(nvidia, 512, 64, 1, 8, 2, b, {})}) {
        EXPECT_FALSE(p.swar || p.prmt || p.shuffle) << p.buildOptions;
        EXPECT_TRUE(hasOption(p, "-D NV_SHFL=0")) << p.buildOptions;
    }

    // Another vendor's GPU: the same SWAR, none of NVIDIA's PTX
    DeviceInfo other = test::describedDevice(DeviceType::Gpu);
    other.vendor = other.platformName = "Advanced Micro Devices, Inc.";
    plan = planTiledBlur(other, 8192, 64, 1, 8, 1, b, {});
    EXPECT_TRUE(plan.swar);
    EXPECT_FALSE(plan.prmt || plan.shuffle);
    // A CPU slides down 8 rows, four vectors per item, two pixels per register
    plan = planTiledBlur(test::describedDevice(DeviceType::Cpu), 8192, 64, 1, 8, 1, b, {});
    EXPECT_FALSE(plan.packed || plan.prmt || plan.shuffle);
    EXPECT_TRUE(plan.swar);
    EXPECT_EQ(plan.rows, 8);
    EXPECT_EQ(plan.vectors, 4);
}

// The group is the device's to allow: more than its limit is --wg's error before anything is
// built; the default is held to the limit (and loses the shuffles below a warp).
TEST(BlurPlan, WorkGroupWithinTheDeviceLimit) {
    DeviceInfo nvidia = nvidiaOpenClDevice();
    BlurTuning t;
    t.workGroup = 2048;
    EXPECT_EQ(test::refusedParameter(
                  [&] { planTiledBlur(nvidia, 64, 64, 1, 8, 1, BorderMode::Replicate, t); }),
              "--wg");
    BlurParams params = syntheticParams();
    params.border = BorderMode::Reflect101;
    params.tuning.workGroup = 2048;
    EXPECT_EQ(refusedOption(params), "--wg"); // the pipeline's plan refuses it too
    params.tuning.workGroup = 1024;
    EXPECT_EQ(refusedOption(params), "");
    nvidia.maxWorkGroupSize = 64;
    TiledBlurPlan plan = planTiledBlur(nvidia, 8192, 64, 1, 8, 1, BorderMode::Replicate, {});
    EXPECT_EQ(plan.workGroup, 64u);
    EXPECT_TRUE(plan.shuffle);
    nvidia.maxWorkGroupSize = 16;
    plan = planTiledBlur(nvidia, 8192, 64, 1, 8, 1, BorderMode::Replicate, {});
    EXPECT_EQ(plan.workGroup, 16u);
    EXPECT_FALSE(plan.shuffle);
    EXPECT_EQ(blurGroupSize(nvidia, 0, 256), 16u); // the sliding blur's default, held too
}

TEST(BlurPlan, Refusals) {
    BlurParams params = syntheticParams();
    params.radii = {1, 2};
    EXPECT_EQ(refusedOption(params), "--radius"); // a list of radii needs the whole image
    params.variants = allBlurVariants();
    EXPECT_EQ(refusedOption(params), "");
    params.compareOpenCv = true;
    params.border = BorderMode::Interior;
    EXPECT_EQ(refusedOption(params), "--compare-opencv"); // OpenCV has no interior-only border
    params = syntheticParams();
    params.input.path = "x.png";
    EXPECT_EQ(refusedOption(params), "blur"); // an image or --synthetic, not both
    params = syntheticParams();
    params.input.height = 0;
    EXPECT_EQ(refusedOption(params), "--synthetic"); // needs --width and --height
    params = BlurParams{};
    EXPECT_EQ(refusedOption(params), "blur"); // which image?
    params.input.width = 4;
    EXPECT_EQ(refusedOption(params), "--width/--height");
}

// The launches blur the image's 8-bit gray plane; the note says how it was made.
TEST(BlurPlan, LaunchPlaneAndItsNote) {
    std::string note;
    HostImage gray = makeSyntheticImage(SyntheticKind::Random, 8, 4);
    EXPECT_EQ(blurLaunchPlane(gray, &note).data, gray.data);
    EXPECT_EQ(note, "");
    const HostImage rgb = makeSyntheticImage(SyntheticKind::Random, 8, 4, 3);
    const HostImage plane = blurLaunchPlane(rgb, &note);
    EXPECT_EQ(plane.channels, 1);
    EXPECT_EQ(plane.data, lumaPlane(rgb));
    EXPECT_EQ(note, "color image: blurred on its luma (OpenCV's BGR2GRAY)");
    blurLaunchPlane(makeSyntheticImage(SyntheticKind::Random, 8, 4, 1, 16), &note);
    EXPECT_EQ(note, "16-bit image: blurred on the high byte of each value");
    blurLaunchPlane(makeSyntheticImage(SyntheticKind::Random, 8, 4, 4, 16), &note);
    EXPECT_EQ(note, "16-bit color image: blurred on the luma of its high bytes");
}

/// Kernels from a folder whose blur.cl has no blur_tiled: that variant fails on the device
/// (CL_INVALID_KERNEL_NAME) while the others build and run.
class BlurWithoutTiledKernel : public ::testing::Test {
protected:
    void SetUp() override {
        std::string text = loadKernelSource("blur").text;
        for (std::size_t at = text.find("blur_tiled("); at != std::string::npos;
             at = text.find("blur_tiled(", at))
            text.replace(at, 10, "blur_gone_"), at += 10;
        test::writeFile(m_dir / "blur.cl", text);
        setKernelDir(m_dir.path().string());
    }
    void TearDown() override { setKernelDir(""); }

    BlurPlan wholeImagePlan(std::vector<BlurVariant> variants) const {
        BlurParams params = syntheticParams();
        params.variants = std::move(variants);
        params.repeats = 1;
        return planBlur(test::sharedDevice().info(), params);
    }

    test::TempDir m_dir;
};

// Guards the bug of the old CLI, whose own copy of this loop aborted the whole run when one
// variant hit a device error: among several, the variant that cannot run is a failed row and
// the others still run; asked alone, its error is the run's.
TEST_F(BlurWithoutTiledKernel, OneFailedVariantIsARowAndAloneFailsTheRun) {
    const BlurPlan plan =
        wholeImagePlan({BlurVariant::Direct, BlurVariant::Tiled, BlurVariant::Sliding});
    std::vector<BlurVariant> seen;
    const BlurResult result =
        runBlurPlan(test::sharedDevice(), plan, {},
                    [&](const BlurVariantRow& row) { seen.push_back(row.requested); });
    ASSERT_EQ(result.rows.size(), 3u);
    EXPECT_EQ(seen, plan.variants);
    EXPECT_EQ(result.rows[0].status, Status::Verified) << result.rows[0].detail;
    EXPECT_EQ(result.rows[1].status, Status::Failed);
    EXPECT_FALSE(result.rows[1].run.has_value());
    EXPECT_NE(result.rows[1].detail.find("CL_INVALID_KERNEL_NAME"), std::string::npos)
        << result.rows[1].detail;
    EXPECT_EQ(result.rows[2].status, Status::Verified) << result.rows[2].detail;
    EXPECT_FALSE(result.firstOutput.data.empty());
    // The report of the family says so too: the failed row is in the table, and the run is ok.
    const Pipeline* blur = findPipeline("blur");
    ASSERT_NE(blur, nullptr);
    const std::any finished = result; // the report reads it: it must outlive the report
    const Report report = blur->report(finished);
    EXPECT_EQ(report.verdict.kind, Verdict::Kind::Ok) << report.verdict.message;
    EXPECT_EQ(report.table.rows().size(), 3u);
    EXPECT_NE(report.text.find("failed: "), std::string::npos) << report.text;

    EXPECT_THROW(runBlurPlan(test::sharedDevice(), wholeImagePlan({BlurVariant::Tiled})),
                 DeviceError);
}

// When no variant could run, the report's verdict says so (exit 4 in histlab-cli), and --out
// has nothing to write.
TEST_F(BlurWithoutTiledKernel, NothingRanIsTheVerdict) {
    BlurPlan plan = wholeImagePlan({BlurVariant::Tiled, BlurVariant::Tiled});
    const BlurResult result = runBlurPlan(test::sharedDevice(), plan);
    const std::any finished = result;
    const Report report = findPipeline("blur")->report(finished);
    EXPECT_EQ(report.verdict.kind, Verdict::Kind::NothingRan);
    EXPECT_EQ(report.verdict.message, "no variant could run");
    ASSERT_EQ(report.images.count("--out"), 1u);
    EXPECT_EQ(report.images.at("--out").image, nullptr);
    EXPECT_EQ(report.images.at("--out").whyNone, "no variant ran");
}

// --compare-opencv without cv::blur in the build (the core alone): the report says so.
TEST(BlurPlan, CompareWithoutThePeerIsReported) {
    setBlurPeer({});
    BlurParams params = syntheticParams();
    params.compareOpenCv = true;
    params.repeats = 1;
    const BlurResult result =
        runBlurPlan(test::sharedDevice(), planBlur(test::sharedDevice().info(), params));
    EXPECT_TRUE(result.opencvMissing);
    EXPECT_FALSE(result.opencv.has_value());
    EXPECT_NE(blurText(result).find("cv::blur: not in this build"), std::string::npos);
    // With a peer, it is timed on the same image at the first radius.
    int calls = 0;
    setBlurPeer([&](const HostImage& image, int radius, BorderMode mode, HostImage& out) {
        EXPECT_EQ(radius, 1);
        EXPECT_EQ(mode, BorderMode::Reflect101);
        out = image;
        ++calls;
    });
    const BlurResult timed =
        runBlurPlan(test::sharedDevice(), planBlur(test::sharedDevice().info(), params));
    setBlurPeer({});
    EXPECT_EQ(calls, 2); // a warm-up and one timed run
    EXPECT_TRUE(timed.opencv.has_value());
    EXPECT_NE(blurText(timed).find("x cv::blur"), std::string::npos);
}

} // namespace
} // namespace histlab
