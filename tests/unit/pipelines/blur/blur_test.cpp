// The box blur's CPU reference: the border modes' indices, windows counted by hand,
// the interior mode's copied frame (and images too small to have an interior), 16-bit values,
// several channels, and the rounding (to nearest).
#include "unitsupport.h"

#include "pipelines/blur/blur.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

#include <cstring>

namespace histlab {
namespace {

HostImage gray8(int w, int h, std::vector<std::uint8_t> values) {
    HostImage img;
    img.width = w;
    img.height = h;
    img.channels = 1;
    img.depth = 8;
    img.data = std::move(values);
    return img;
}

TEST(BoxBlurReference, BorderIndices) {
    // replicate: aaa|abcd|ddd ; reflect101: dcb|abcd|cba
    EXPECT_EQ(borderIndex(-2, 4, BorderMode::Replicate), 0);
    EXPECT_EQ(borderIndex(5, 4, BorderMode::Replicate), 3);
    EXPECT_EQ(borderIndex(-1, 4, BorderMode::Reflect101), 1);
    EXPECT_EQ(borderIndex(-3, 4, BorderMode::Reflect101), 3);
    EXPECT_EQ(borderIndex(4, 4, BorderMode::Reflect101), 2);
    EXPECT_EQ(borderIndex(6, 4, BorderMode::Reflect101), 0);
    EXPECT_EQ(borderIndex(9, 4, BorderMode::Reflect101), 3); // bounces twice
    EXPECT_EQ(borderIndex(-5, 1, BorderMode::Reflect101), 0);
    EXPECT_EQ(parseBorderMode("reflect101"), BorderMode::Reflect101);
    EXPECT_THROW(parseBorderMode("wrap"), UsageError);
}

TEST(BoxBlurReference, WindowsCountedByHand) {
    // 3 x 3 of 0..8: the centre's window is everything, (0+...+8 + 4) / 9 = 4.
    const HostImage img = gray8(3, 3, {0, 1, 2, 3, 4, 5, 6, 7, 8});
    const HostImage inner = boxBlurReference(img, 1, BorderMode::Interior);
    EXPECT_EQ(inner.data, (std::vector<std::uint8_t>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
    // replicate, top-left: rows 0,0,1 and columns 0,0,1 -> 0+0+1+0+0+1+3+3+4 = 12 -> 12/9 = 1.33
    const HostImage rep = boxBlurReference(img, 1, BorderMode::Replicate);
    EXPECT_EQ(rep.data[0], 1);
    EXPECT_EQ(rep.data[4], 4);
    // reflect101, top-left: rows 1,0,1, columns 1,0,1 -> 4+3+4+1+0+1+4+3+4 = 24 -> 2.67 -> 3
    const HostImage ref = boxBlurReference(img, 1, BorderMode::Reflect101);
    EXPECT_EQ(ref.data[0], 3);
    EXPECT_EQ(ref.data[8], 5); // bottom-right: 4+5+4+7+8+7+4+5+4 = 48 -> 5.33
}

TEST(BoxBlurReference, RoundsToNearest) {
    EXPECT_EQ(boxBlurReference(gray8(1, 1, {7}), 1, BorderMode::Replicate).data[0], 7);
    // 2 x 1, replicate, R = 1: pixel 0 sees 1,1,2 three times (12 / 9 = 1.33 -> 1), pixel 1
    // sees 1,2,2 three times (15 / 9 = 1.67 -> 2).
    const HostImage out = boxBlurReference(gray8(2, 1, {1, 2}), 1, BorderMode::Replicate);
    EXPECT_EQ(out.data[0], 1);
    EXPECT_EQ(out.data[1], 2);
}

TEST(BoxBlurReference, InteriorOnlyCopiesTheFrameAndSmallImages) {
    std::vector<std::uint8_t> values(7 * 5);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = std::uint8_t(i * 37 % 251);
    const HostImage img = gray8(7, 5, values);
    const HostImage out = boxBlurReference(img, 2, BorderMode::Interior);
    for (int y = 0; y < 5; ++y)
        for (int x = 0; x < 7; ++x) {
            const std::size_t i = std::size_t(y) * 7 + x;
            if (x < 2 || x >= 5 || y < 2 || y >= 3) {
                EXPECT_EQ(out.data[i], img.data[i]) << x << "," << y;
            }
        }
    // Interior (2..4, 2): the mean of its 5 x 5 window.
    for (int x = 2; x < 5; ++x) {
        unsigned sum = 0;
        for (int dy = -2; dy <= 2; ++dy)
            for (int dx = -2; dx <= 2; ++dx)
                sum += img.data[std::size_t(2 + dy) * 7 + (x + dx)];
        EXPECT_EQ(out.data[std::size_t(2) * 7 + x], (sum + 12) / 25);
    }
    // No interior: 4 x 4 with R = 2, 2 x 2 and 1 x 1 with R = 1 come back unchanged.
    for (const auto& [w, h, r] : {std::tuple{4, 4, 2}, std::tuple{2, 2, 1}, std::tuple{1, 1, 1}}) {
        const HostImage small = gray8(w, h, std::vector<std::uint8_t>(std::size_t(w * h), 9));
        EXPECT_EQ(boxBlurReference(small, r, BorderMode::Interior).data, small.data);
    }
    EXPECT_THROW(boxBlurReference(img, 0, BorderMode::Replicate), UsageError);
}

TEST(BoxBlurReference, SixteenBitAndChannelsApart) {
    const HostImage deep = test::grayImage(2, 16, {1000, 60000});
    const HostImage out = boxBlurReference(deep, 1, BorderMode::Replicate);
    std::uint16_t result[2];
    std::memcpy(result, out.data.data(), 4);
    EXPECT_EQ(result[0], (3 * (1000 + 1000 + 60000) + 4) / 9);
    EXPECT_EQ(result[1], (3 * (1000 + 60000 + 60000) + 4) / 9);

    HostImage rgba; // each channel blurred on its own: a constant channel stays constant
    rgba.width = 5;
    rgba.height = 4;
    rgba.channels = 4;
    rgba.data.resize(5 * 4 * 4);
    for (std::size_t i = 0; i < rgba.data.size(); ++i)
        rgba.data[i] = i % 4 == 3 ? 200 : std::uint8_t(i * 13);
    const HostImage blurred = boxBlurReference(rgba, 1, BorderMode::Reflect101);
    for (std::size_t i = 3; i < blurred.data.size(); i += 4)
        EXPECT_EQ(blurred.data[i], 200);
}

// The reference text's launches on the shared device (PoCL in CI), on interiors that divide
// by 16 and that do not, and on images with no interior at all: each launch either runs and
// matches the CPU reference byte for byte, or fails the way the text says it must.
class BlurLaunches : public ::testing::TestWithParam<std::tuple<int, int, int>> {};

TEST_P(BlurLaunches, EachLaunchRunsExactlyOrFailsAsExpected) {
    const auto [w, h, radius] = GetParam();
    HostImage img = gray8(w, h, std::vector<std::uint8_t>(std::size_t(w) * h));
    for (std::size_t i = 0; i < img.data.size(); ++i)
        img.data[i] = std::uint8_t((i * 7919u) >> 3);
    Device& device = test::sharedDevice();
    const bool nonUniform = device.capabilities().nonUniformWorkGroups;
    const auto results = runBlurLaunches(device, img, radius, allBlurLaunches(), 1);
    ASSERT_EQ(results.size(), 5u);
    const int iw = w - 2 * radius, ih = h - 2 * radius;
    for (const BlurLaunchResult& r : results) {
        SCOPED_TRACE(std::string(blurLaunchName(r.launch)) + ": " + statusName(r.status) + " " +
                     r.detail);
        if (iw <= 0 || ih <= 0) {
            EXPECT_EQ(r.status, Status::NotApplicable);
            EXPECT_EQ(r.output.data, img.data);
            continue;
        }
        const bool divides = iw % 16 == 0 && ih % 16 == 0;
        switch (r.launch) {
        case BlurLaunch::Cl12Null:
        case BlurLaunch::Padded16:
            EXPECT_EQ(r.status, Status::Verified);
            break;
        case BlurLaunch::Cl12Local16:
            EXPECT_EQ(r.status, divides ? Status::Verified : Status::Unsupported);
            if (!divides) {
                EXPECT_NE(r.detail.find("CL_INVALID_WORK_GROUP_SIZE"), std::string::npos);
                EXPECT_NE(r.detail.find("refused"), std::string::npos);
            }
            break;
        case BlurLaunch::Cl20Null:
            EXPECT_TRUE(r.status == Status::Verified || r.status == Status::Unsupported);
            break;
        case BlurLaunch::Cl20Local16:
            if (r.status == Status::Unsupported) {
                EXPECT_TRUE(!nonUniform || r.detail.find("2.0") != std::string::npos);
            } else {
                EXPECT_TRUE(divides || nonUniform);
            }
            break;
        }
        if (!statusRan(r.status))
            continue;
        EXPECT_EQ(r.status, Status::Verified) << r.detail;
        // The corners of the range saw the corners' global ids.
        EXPECT_EQ(r.corners[0].globalX, 0);
        EXPECT_EQ(r.corners[0].globalY, 0);
        EXPECT_EQ(r.corners[3].globalX, iw - 1);
        EXPECT_EQ(r.corners[3].globalY, ih - 1);
        if (r.launch == BlurLaunch::Padded16 || r.launch == BlurLaunch::Cl12Local16) {
            EXPECT_EQ(r.corners[3].localX, 16);
            EXPECT_EQ(r.corners[3].localY, 16);
        }
        if (r.launch == BlurLaunch::Cl20Local16) { // the last groups are the remainder
            EXPECT_EQ(r.corners[3].localX, iw % 16 ? iw % 16 : 16);
            EXPECT_EQ(r.corners[3].enqueuedX, 16);
        }
        if (r.launch == BlurLaunch::Cl12Null || r.launch == BlurLaunch::Cl12Local16) {
            EXPECT_EQ(r.corners[0].enqueuedX, -1); // OpenCL C 1.2 has no enqueued size
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Sizes, BlurLaunches,
                         ::testing::Values(std::tuple{1, 1, 1}, std::tuple{2, 2, 1},
                                           std::tuple{3, 3, 1}, std::tuple{18, 18, 1},
                                           std::tuple{19, 23, 1}, std::tuple{101, 67, 1},
                                           std::tuple{7, 5, 2}, std::tuple{40, 37, 3},
                                           std::tuple{4, 4, 2}),
                         [](const auto& info) {
                             return std::to_string(std::get<0>(info.param)) + "x" +
                                    std::to_string(std::get<1>(info.param)) + "_r" +
                                    std::to_string(std::get<2>(info.param));
                         });

// The whole-image blur on the device: every border mode, gray, RGB and RGBA, 8- and 16-bit,
// awkward sizes (one pixel, smaller than the window, primes) and radii, byte for byte.
class DeviceBlur : public ::testing::TestWithParam<std::tuple<BorderMode, int, int>> {};

TEST_P(DeviceBlur, EqualsTheCpuReference) {
    const auto [mode, channels, depth] = GetParam();
    for (const auto& [w, h] : {std::pair{1, 1}, std::pair{2, 2}, std::pair{3, 3}, std::pair{17, 13},
                               std::pair{64, 5}, std::pair{31, 37}}) {
        HostImage img;
        img.width = w;
        img.height = h;
        img.channels = channels;
        img.depth = depth;
        img.data.resize(img.byteCount());
        for (std::size_t i = 0; i < img.data.size(); ++i)
            img.data[i] = std::uint8_t((i * 2654435761u) >> 13);
        for (int radius : {1, 2, 5}) {
            const BlurRun run = runBoxBlur(test::sharedDevice(), img, radius, mode, 1);
            EXPECT_TRUE(run.verified)
                << w << "x" << h << " R=" << radius << ": " << run.verifyDetail;
            EXPECT_EQ(run.output.data, boxBlurReference(img, radius, mode).data);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Modes, DeviceBlur,
                         ::testing::Combine(::testing::Values(BorderMode::Interior,
                                                              BorderMode::Replicate,
                                                              BorderMode::Reflect101),
                                            ::testing::Values(1, 3, 4), ::testing::Values(8, 16)),
                         [](const auto& info) {
                             return std::string(borderModeName(std::get<0>(info.param))) + "_" +
                                    std::to_string(std::get<1>(info.param)) + "ch_" +
                                    std::to_string(std::get<2>(info.param)) + "bit";
                         });

// The tuned (tiled) and large-radius (sliding) variants: the same cases, plus sizes where a row
// holds several 16-byte vectors (the tiled kernel's fast path between two edge vectors; at 70 x 23
// also strips whose whole window lies inside the image), and short strips (5 rows) and small
// groups so that strips and row tiles meet inside the image.
class DeviceBlurVariant
    : public ::testing::TestWithParam<std::tuple<BlurVariant, BorderMode, int, int>> {};

TEST_P(DeviceBlurVariant, EqualsTheCpuReference) {
    const auto [variant, mode, channels, depth] = GetParam();
    const std::vector<int> radii =
        variant == BlurVariant::Tiled ? std::vector<int>{1, 3} : std::vector<int>{1, 4, 17};
    BlurTuning tuning;
    tuning.rows = 5;
    tuning.workGroup = 16;
    for (const auto& [w, h] : {std::pair{1, 1}, std::pair{2, 2}, std::pair{3, 3}, std::pair{17, 13},
                               std::pair{101, 9}, std::pair{8, 41}, std::pair{70, 23}}) {
        HostImage img;
        img.width = w;
        img.height = h;
        img.channels = channels;
        img.depth = depth;
        img.data.resize(img.byteCount());
        for (std::size_t i = 0; i < img.data.size(); ++i)
            img.data[i] = std::uint8_t((i * 2654435761u) >> 13);
        for (int radius : radii)
            // sliding: both row passes; tiled: both row keepings, packed with and without SWAR
            // (8-bit R = 1 has a SWAR path for gray, packed or not, and for RGBA packed)
            for (int pass : {0, 1, 2}) {
                tuning.serialRows = pass ? 1 : 0;
                tuning.packed = pass ? 1 : 0;
                tuning.swar = pass == 1 ? 0 : 1;
                tuning.vectors = pass == 1 ? 2 : pass == 2 ? 1 : 4; // (pass 2: a GPU's default)
                if (pass == 2 && variant == BlurVariant::Sliding)
                    continue; // (the same launches as pass 1)
                const BlurRun run =
                    runBoxBlur(test::sharedDevice(), img, radius, mode, 1, {}, variant, tuning);
                EXPECT_EQ(run.variant, variant);
                EXPECT_TRUE(run.verified) << w << "x" << h << " R=" << radius << " pass " << pass
                                          << ": " << run.verifyDetail;
                if (variant == BlurVariant::Tiled && pass == 2 && depth == 8 && radius == 1 &&
                    channels != 3) { // asked for, and a path exists: it ran
                    EXPECT_NE(run.buildOptions.find("-D SWAR=1"), std::string::npos)
                        << run.buildOptions;
                    // (byte permutes are NVIDIA's inline PTX: PoCL must not be asked for them)
                    EXPECT_NE(run.buildOptions.find("-D NV_PRMT=0"), std::string::npos)
                        << run.buildOptions;
                }
            }
    }
}

INSTANTIATE_TEST_SUITE_P(
    Variants, DeviceBlurVariant,
    ::testing::Combine(::testing::Values(BlurVariant::Tiled, BlurVariant::Sliding),
                       ::testing::Values(BorderMode::Interior, BorderMode::Replicate,
                                         BorderMode::Reflect101),
                       ::testing::Values(1, 3, 4), ::testing::Values(8, 16)),
    [](const auto& info) {
        return std::string(blurVariantName(std::get<0>(info.param))) + "_" +
               borderModeName(std::get<1>(info.param)) + "_" +
               std::to_string(std::get<2>(info.param)) + "ch_" +
               std::to_string(std::get<3>(info.param)) + "bit";
    });

TEST(BlurVariants, NamesAutoAndLimits) {
    EXPECT_EQ(parseBlurVariant("sliding"), BlurVariant::Sliding);
    EXPECT_THROW(parseBlurVariant("fast"), UsageError);
    EXPECT_EQ(resolveBlurVariant(BlurVariant::Auto, 1), BlurVariant::Tiled);
    EXPECT_EQ(resolveBlurVariant(BlurVariant::Auto, 64), BlurVariant::Sliding);
    EXPECT_EQ(resolveBlurVariant(BlurVariant::Direct, 64), BlurVariant::Direct);
    const HostImage img = gray8(4, 4, std::vector<std::uint8_t>(16, 9));
    EXPECT_THROW(runBoxBlur(test::sharedDevice(), img, kTiledMaxRadius + 1, BorderMode::Replicate,
                            1, {}, BlurVariant::Tiled),
                 UsageError);
    // Direct grows as R^2: refused past its radius, before any launch.
    EXPECT_THROW(runBoxBlur(test::sharedDevice(), img, kDirectMaxRadius + 1, BorderMode::Replicate,
                            1, {}, BlurVariant::Direct),
                 UsageError);
    // The copy kernel runs on the same bytes when asked, and the share is computed.
    HostImage big = gray8(256, 64, std::vector<std::uint8_t>(256 * 64, 3));
    BlurTuning tuning;
    tuning.measureCopy = true;
    const BlurRun run = runBoxBlur(test::sharedDevice(), big, 1, BorderMode::Reflect101, 1, {},
                                   BlurVariant::Auto, tuning);
    ASSERT_TRUE(run.copy.has_value());
    EXPECT_GT(run.copy->gbps, 0);
    EXPECT_GT(run.percentOfCopy, 0);
    EXPECT_TRUE(run.verified) << run.verifyDetail;
}

// A large radius on an image big enough for several row tiles and column strips, against the
// reference (whose own cost per pixel does not grow with R either).
TEST(BlurVariants, LargeRadiusSliding) {
    HostImage img = gray8(1500, 300, std::vector<std::uint8_t>(1500 * 300));
    for (std::size_t i = 0; i < img.data.size(); ++i)
        img.data[i] = std::uint8_t((i * 2654435761u) >> 11);
    for (int radius : {64, 200})
        for (int serialRows : {0, 1}) {
            BlurTuning tuning;
            tuning.serialRows = serialRows;
            const BlurRun run =
                runBoxBlur(test::sharedDevice(), img, radius, BorderMode::Reflect101, 1, {},
                           BlurVariant::Sliding, tuning);
            EXPECT_TRUE(run.verified) << "R=" << radius << ": " << run.verifyDetail;
        }
}

TEST(BlurLaunchesInput, GrayEightBitOnlyAndNamedLaunches) {
    HostImage rgb = gray8(4, 4, std::vector<std::uint8_t>(48));
    rgb.channels = 3;
    EXPECT_THROW(runBlurLaunches(test::sharedDevice(), rgb, 1, allBlurLaunches(), 1), UsageError);
    EXPECT_EQ(parseBlurLaunch("cl20-16x16"), BlurLaunch::Cl20Local16);
    EXPECT_THROW(parseBlurLaunch("cl30"), UsageError);
}

} // namespace
} // namespace histlab
