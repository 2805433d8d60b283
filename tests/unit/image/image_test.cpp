// Host images and helpers: synthetic data, validation, 16-to-8-bit reduction, luma, timing
// statistics. No device needed.
#include "unitsupport.h"

#include "image/image.h"
#include "runtime/bytesize.h"
#include "runtime/errors.h"
#include "runtime/timing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace histlab {
namespace {

TEST(Synthetic, SizesAndShape) {
    for (std::size_t bytes : {std::size_t(1), std::size_t(17), std::size_t(1000003)}) {
        const HostImage img = makeSynthetic(SyntheticKind::Random, bytes);
        EXPECT_EQ(img.data.size(), bytes);
        EXPECT_EQ(img.width, static_cast<int>(bytes));
        EXPECT_EQ(img.height, 1);
        EXPECT_EQ(img.channels, 1);
        EXPECT_EQ(img.depth, 8);
        EXPECT_EQ(img.byteCount(), bytes);
        EXPECT_NO_THROW(validateImage(img));
        EXPECT_NE(img.source.find("random"), std::string::npos);
    }
}

// Synthetic colour pixels: the same bytes as gray synthetic data, rounded down to whole pixels.
TEST(Synthetic, PixelsOfSeveralChannels) {
    const HostImage rgb = makeSyntheticPixels(SyntheticKind::Random, 1000, 3, "--bytes");
    EXPECT_EQ(rgb.channels, 3);
    EXPECT_EQ(rgb.width * rgb.height, 333);
    EXPECT_EQ(rgb.data.size(), 999u);
    const HostImage bytes = makeSynthetic(SyntheticKind::Random, 999);
    EXPECT_EQ(rgb.data, bytes.data);
    EXPECT_EQ(rgb.source, "synthetic random, 333 pixels of 3 channels");
    validateImage(rgb);
    const HostImage rgba = makeSyntheticPixels(SyntheticKind::Skewed, 7, 4);
    EXPECT_EQ(rgba.pixelCount(), 1u);
    EXPECT_EQ(makeSyntheticPixels(SyntheticKind::Uniform, 10, 1).channels, 1);
    EXPECT_THROW(makeSyntheticPixels(SyntheticKind::Random, 2, 3, "--bytes"), UsageError);
    EXPECT_THROW(makeSyntheticPixels(SyntheticKind::Random, 20, 2), UsageError);
}

TEST(Synthetic, DeterministicForASeed) {
    for (auto kind : {SyntheticKind::Random, SyntheticKind::Skewed}) {
        const HostImage a = makeSynthetic(kind, 100001, 9);
        const HostImage b = makeSynthetic(kind, 100001, 9);
        const HostImage c = makeSynthetic(kind, 100001, 10);
        EXPECT_EQ(a.data, b.data) << syntheticKindName(kind);
        EXPECT_NE(a.data, c.data) << syntheticKindName(kind) << ": the seed matters";
    }
    // fillSynthetic writes the same pattern as makeSynthetic.
    std::vector<std::uint8_t> buf(4099);
    fillSynthetic(SyntheticKind::Random, buf.data(), buf.size(), 9);
    EXPECT_EQ(buf, makeSynthetic(SyntheticKind::Random, 4099, 9).data);
}

TEST(Synthetic, Distributions) {
    const HostImage u = makeSynthetic(SyntheticKind::Uniform, 12345);
    EXPECT_TRUE(std::all_of(u.data.begin(), u.data.end(), [](auto v) { return v == 0x5A; }));

    const std::size_t n = 1 << 20;
    const HostImage g = makeSynthetic(SyntheticKind::Gradient, n);
    for (std::size_t i = 0; i < n; i += 997)
        EXPECT_EQ(g.data[i], static_cast<std::uint8_t>(i * 256 / n)) << i;
    EXPECT_EQ(g.data.front(), 0);
    EXPECT_EQ(g.data.back(), 255);

    const HostImage r = makeSynthetic(SyntheticKind::Random, n);
    std::array<std::size_t, 256> counts{};
    for (auto v : r.data)
        ++counts[v];
    for (int b = 0; b < 256; ++b) // about 4096 each
        EXPECT_GT(counts[b], 3500u) << b;

    const HostImage s = makeSynthetic(SyntheticKind::Skewed, n);
    const auto top = std::count(s.data.begin(), s.data.end(), std::uint8_t(0xC8));
    EXPECT_GT(double(top) / n, 0.85);
    EXPECT_LT(double(top) / n, 0.97);
}

TEST(Synthetic, ZeroSizeIsAUsageError) {
    try {
        makeSynthetic(SyntheticKind::Random, 0);
        ADD_FAILURE() << "size 0 accepted";
    } catch (const UsageError& e) {
        EXPECT_EQ(e.parameter(), "--size");
    }
}

// Beyond a quarter of the machine's memory a size is refused by the option that asked for it,
// before anything is allocated, and the message says how much memory there is.
TEST(Synthetic, SizesBeyondMemoryAreRefusedByName) {
    const std::uint64_t limit = syntheticLimitBytes();
    EXPECT_EQ(limit, hostMemoryBytes() / 4);
    EXPECT_NO_THROW(checkSyntheticSize("--size", double(limit)));
    for (double bytes : {double(limit) + 1, 1e99, std::numeric_limits<double>::infinity(),
                         std::numeric_limits<double>::quiet_NaN()})
        try {
            checkSyntheticSize("--bytes", bytes);
            ADD_FAILURE() << bytes << " bytes accepted";
        } catch (const UsageError& e) {
            EXPECT_EQ(e.parameter(), "--bytes");
            EXPECT_NE(std::string(e.what()).find(roundedByteSize(hostMemoryBytes())),
                      std::string::npos)
                << e.what();
        }
    try {
        makeSyntheticImage(SyntheticKind::Random, 1 << 20, 1 << 20);
        ADD_FAILURE() << "a 1 TiB synthetic image accepted";
    } catch (const UsageError& e) {
        EXPECT_EQ(e.parameter(), "--width/--height");
    }
}

TEST(Synthetic, RoundedByteSizes) {
    EXPECT_EQ(roundedByteSize(0), "0 B");
    EXPECT_EQ(roundedByteSize(1023), "1023 B");
    EXPECT_EQ(roundedByteSize(1536), "1.5 KiB");
    EXPECT_EQ(roundedByteSize(100000ull << 20), "97.7 GiB");
    EXPECT_EQ(roundedByteSize(1ull << 40), "1.0 TiB");
}

TEST(Synthetic, KindNames) {
    for (auto kind : {SyntheticKind::Random, SyntheticKind::Uniform, SyntheticKind::Gradient,
                      SyntheticKind::Skewed})
        EXPECT_EQ(parseSyntheticKind(syntheticKindName(kind)), kind);
}

HostImage validImage() {
    HostImage img;
    img.width = 3;
    img.height = 2;
    img.channels = 3;
    img.depth = 8;
    img.data.assign(18, 1);
    img.source = "test";
    return img;
}

TEST(ImageValidation, EachInconsistencyIsAnInputError) {
    EXPECT_NO_THROW(validateImage(validImage()));
    HostImage img = validImage();
    img.width = 0;
    EXPECT_THROW(validateImage(img), InputError);
    img = validImage();
    img.height = -1;
    EXPECT_THROW(validateImage(img), InputError);
    img = validImage();
    img.channels = 2;
    img.data.assign(12, 1);
    EXPECT_THROW(validateImage(img), InputError);
    img = validImage();
    img.depth = 12;
    EXPECT_THROW(validateImage(img), InputError);
    img = validImage();
    img.data.pop_back();
    EXPECT_THROW(validateImage(img), InputError);
    img = validImage();
    img.depth = 16; // now the data is half as long as it must be
    EXPECT_THROW(validateImage(img), InputError);
    try {
        HostImage empty;
        empty.source = "empty.png";
        validateImage(empty);
        ADD_FAILURE() << "an empty image passed";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("empty.png"), std::string::npos) << e.what();
    }
}

TEST(ImageHelpers, HighByteOf16BitImages) {
    const HostImage img = test::grayImage(4, 16, {0x1234, 0xFF00, 0x00FF, 0xABCD});
    const HostImage out = toHighByte(img);
    EXPECT_EQ(out.depth, 8);
    EXPECT_EQ(out.width, 4);
    EXPECT_EQ(out.channels, 1);
    EXPECT_EQ(out.data, (std::vector<std::uint8_t>{0x12, 0xFF, 0x00, 0xAB}));
    EXPECT_NO_THROW(validateImage(out));

    const HostImage eight = validImage();
    EXPECT_EQ(toHighByte(eight).data, eight.data);
    EXPECT_EQ(toHighByte(eight).depth, 8);
}

// OpenCV 4.6's cvtColor(COLOR_BGR2GRAY) on 8-bit data: 0.299 R + 0.587 G + 0.114 B in 15-bit
// fixed point (RY15 = 9798, GY15 = 19235, BY15 = 3735 in color_rgb.simd.hpp), rounded. Checked
// against cv::cvtColor over all 2^24 colors: 0 mismatches; the 14-bit coefficients (4899, 9617,
// 1868) that image.h documents differ on 43,864 colors.
std::uint8_t opencvLuma(unsigned r, unsigned g, unsigned b) {
    return static_cast<std::uint8_t>((r * 9798 + g * 19235 + b * 3735 + (1u << 14)) >> 15);
}

TEST(ImageHelpers, LumaOfEqualsOpenCvOnEveryColor) {
    // Guards a bug: lumaOf (core/image.h) and luma_of (kernels/histogram256.cl) use the
    // 14-bit coefficients, which differ from OpenCV by one on 0.26 % of all colors.
    EXPECT_EQ(lumaOf(255, 255, 255), 255);
    EXPECT_EQ(lumaOf(0, 0, 0), 0);
    EXPECT_EQ(lumaOf(255, 0, 0), 76);
    EXPECT_EQ(lumaOf(0, 255, 0), 150);
    EXPECT_EQ(lumaOf(0, 0, 255), 29);
    std::size_t mismatches = 0;
    unsigned first = 0;
    for (unsigned v = 0; v < (1u << 24); ++v) {
        const unsigned r = v >> 16, g = (v >> 8) & 255, b = v & 255;
        if (lumaOf(r, g, b) != opencvLuma(r, g, b) && mismatches++ == 0)
            first = v;
    }
    EXPECT_EQ(mismatches, 0u) << "first: R=" << (first >> 16) << " G=" << ((first >> 8) & 255)
                              << " B=" << (first & 255) << ": lumaOf "
                              << int(lumaOf(first >> 16, (first >> 8) & 255, first & 255))
                              << ", OpenCV "
                              << int(opencvLuma(first >> 16, (first >> 8) & 255, first & 255));
}

TEST(ImageHelpers, LumaPlane) {
    const HostImage rgba = test::syntheticImage(SyntheticKind::Random, 1000, 4);
    const auto gray = lumaPlane(rgba);
    ASSERT_EQ(gray.size(), 1000u);
    for (std::size_t i = 0; i < 1000; ++i) {
        const std::uint8_t* p = rgba.data.data() + 4 * i;
        EXPECT_EQ(gray[i], lumaOf(p[0], p[1], p[2])) << "alpha is ignored; pixel " << i;
    }
    const HostImage g = test::syntheticImage(SyntheticKind::Random, 100, 1);
    EXPECT_EQ(lumaPlane(g), g.data);
}

TEST(Timing, SummarizeOddEvenAndEmpty) {
    const TimingStats odd = summarize({3.0, 1.0, 2.0});
    EXPECT_DOUBLE_EQ(odd.medianMs, 2.0);
    EXPECT_DOUBLE_EQ(odd.minMs, 1.0);
    EXPECT_DOUBLE_EQ(odd.maxMs, 3.0);
    EXPECT_EQ(odd.samplesMs, (std::vector<double>{3.0, 1.0, 2.0})) << "kept in run order";
    const TimingStats even = summarize({4.0, 1.0, 3.0, 2.0});
    EXPECT_DOUBLE_EQ(even.medianMs, 2.5);
    EXPECT_DOUBLE_EQ(even.minMs, 1.0);
    EXPECT_DOUBLE_EQ(even.maxMs, 4.0);
    const TimingStats one = summarize({5.0});
    EXPECT_DOUBLE_EQ(one.medianMs, 5.0);
    const TimingStats none = summarize({});
    EXPECT_DOUBLE_EQ(none.medianMs, 0.0);
    EXPECT_TRUE(none.samplesMs.empty());
}

TEST(Timing, RepeatedRunsWarmUpOnceAndStopWhenCancelled) {
    int calls = 0;
    const TimingStats s = timeRepeated(4, [&] { return double(++calls); }, {});
    EXPECT_EQ(calls, 5) << "one warm-up + 4 timed runs";
    EXPECT_EQ(s.samplesMs, (std::vector<double>{2, 3, 4, 5})) << "the warm-up is not a sample";
    CancelToken token;
    token.cancel();
    EXPECT_THROW(timeRepeated(
                     4, [] { return 1.0; }, token),
                 CancelledError);
}

TEST(Timing, APartnerRunsAfterEachTimedRunAndRemembersItsRounds) {
    std::vector<std::string> order;
    int work = 0;
    std::vector<double> inside; // what the partner's own timing returned
    TimingPartner partner([&] {
        order.push_back("partner");
        // Timed inside the partner: no partner of its own (it would never end).
        inside = timeRepeated(2, [] { return 7.0; }, {}).samplesMs;
    });
    const TimingStats s = timeRepeated(3,
                                       [&] {
                                           order.push_back("work");
                                           return double(++work);
                                       },
                                       {});
    EXPECT_EQ(order, (std::vector<std::string>{"work", "work", "partner", "work", "partner", "work",
                                               "partner"}))
        << "the warm-up alone, then each timed run followed by one partner run";
    EXPECT_EQ(inside, (std::vector<double>{7.0, 7.0}));
    EXPECT_EQ(partner.partnerRuns(), 3u);
    {
        const TimingPartner::Pause pause;
        timeRuns(2, [] { return 1.0; }, {});
    }
    EXPECT_EQ(partner.partnerRuns(), 3u) << "a paused call does not alternate";
    const TimingStats t = timeRuns(2, [] { return 5.0; }, {});
    EXPECT_EQ(partner.partnerRuns(), 5u);
    ASSERT_EQ(partner.calls().size(), 2u);
    const TimingPartner::Call* first = partner.callOf(s.samplesMs);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first->workMs, (std::vector<double>{2, 3, 4}));
    EXPECT_EQ(first->firstPartnerRun, 0u);
    const TimingPartner::Call* second = partner.callOf(t.samplesMs);
    ASSERT_NE(second, nullptr);
    EXPECT_EQ(second->firstPartnerRun, 3u);
    EXPECT_EQ(partner.callOf({9.0}), nullptr);
}

TEST(Timing, NoPartnerOnceItIsGone) {
    int runs = 0;
    {
        TimingPartner partner([&] { ++runs; });
        timeRuns(2, [] { return 1.0; }, {});
    }
    timeRuns(2, [] { return 1.0; }, {});
    EXPECT_EQ(runs, 2);
}

TEST(Timing, GigabytesPerSecond) {
    EXPECT_DOUBLE_EQ(gbPerSecond(1000000000ull, 1000.0), 1.0);
    EXPECT_DOUBLE_EQ(gbPerSecond(1000000ull, 1.0), 1.0);
    EXPECT_DOUBLE_EQ(gbPerSecond(123, 0.0), 0.0);
    EXPECT_DOUBLE_EQ(gbPerSecond(123, -1.0), 0.0);
}

TEST(Cancel, TokenCopiesShareTheFlag) {
    CancelToken a;
    const CancelToken b = a;
    EXPECT_FALSE(b.cancelled());
    EXPECT_NO_THROW(b.throwIfCancelled());
    a.cancel();
    EXPECT_TRUE(b.cancelled());
    EXPECT_THROW(b.throwIfCancelled(), CancelledError);
    EXPECT_FALSE(CancelToken().cancelled());
}

// Floats are looked at through a stretch of their finite values, and refused by what works on
// integers only.
TEST(ImageHelpers, FloatDisplayAndRefusal) {
    HostImage f;
    f.width = 6;
    f.height = 1;
    f.channels = 1;
    f.depth = 32;
    f.source = "floats";
    const float inf = std::numeric_limits<float>::infinity();
    const float values[] = {-1.0f, 0.0f, 1.0f, NAN, inf, -inf};
    f.data.resize(sizeof values);
    std::memcpy(f.data.data(), values, sizeof values);
    EXPECT_NO_THROW(validateImage(f));
    const HostImage d = toDisplay8(f);
    EXPECT_EQ(d.depth, 8);
    EXPECT_EQ(d.data, (std::vector<std::uint8_t>{0, 128, 255, 0, 255, 0}));
    try {
        requireIntegerImage(f, "the box blur");
        FAIL() << "a float image passed";
    } catch (const InputError& e) {
        EXPECT_STREQ(e.what(), "floats: a 32-bit float image; the box blur works on 8- or 16-bit "
                               "images (histograms of floats: histlab-cli histogram, or the Image "
                               "tab)");
    }
    EXPECT_THROW(toHighByte(f), InputError);
    EXPECT_EQ(depthName(32), "32-bit float");
    EXPECT_EQ(depthName(16), "16-bit");
}

TEST(PixelDifference, NamesTheFirstDifferenceAndDifferentSizes) {
    HostImage a = makeSyntheticImage(SyntheticKind::Random, 5, 3, 3, 16, 7);
    HostImage b = a;
    EXPECT_EQ(firstPixelDifference(a, b), "");
    b.data[37] ^= 1; // 6 bytes a pixel: pixel 6, (1, 1), channel 0's high byte
    EXPECT_EQ(firstPixelDifference(b, a).rfind("pixel (1, 1) channel 0: device ", 0), 0u)
        << firstPixelDifference(b, a);
    // An image of other size is never equal, even where the bytes they share are.
    HostImage shorter = a;
    shorter.data.resize(a.data.size() - 6);
    EXPECT_EQ(firstPixelDifference(shorter, a),
              "84 bytes from the device, 90 in the CPU reference");
}

} // namespace
} // namespace histlab
