// Histogram equalization: the CPU reference on tables worked by hand (OpenCV's 8-bit
// float rule, the 16-bit integer rule, color through luma, single-valued images unchanged), the
// device's exact float scale against the host's division, and the device pipeline against the
// reference byte for byte over formats, awkward sizes and distributions (PoCL in CI).
#include "unitsupport.h"

#include "pipelines/equalize/equalize.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <tuple>

namespace histlab {
namespace {

HostImage makeImage(int w, int h, int channels, int depth, std::vector<std::uint32_t> samples) {
    HostImage img;
    img.width = w;
    img.height = h;
    img.channels = channels;
    img.depth = depth;
    img.source = "test image";
    img.data.resize(img.byteCount());
    for (std::size_t i = 0; i < samples.size(); ++i) {
        if (depth == 16) {
            const auto v = std::uint16_t(samples[i]);
            std::memcpy(img.data.data() + 2 * i, &v, 2);
        } else {
            img.data[i] = std::uint8_t(samples[i]);
        }
    }
    return img;
}

std::vector<std::uint32_t> samplesOf(const HostImage& img) {
    const std::size_t n = img.pixelCount() * std::size_t(img.channels);
    std::vector<std::uint32_t> s(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (img.depth == 16) {
            std::uint16_t v;
            std::memcpy(&v, img.data.data() + 2 * i, 2);
            s[i] = v;
        } else {
            s[i] = img.data[i];
        }
    }
    return s;
}

TEST(EqualizeReference, GrayTableWorkedByHand) {
    // Values 10 (x2), 20, 30: first bin 10 holds 2 of 4, scale = 255 / 2 = 127.5:
    // 20 -> 1 * 127.5 = 127.5 -> 128 (half to even), 30 -> 2 * 127.5 = 255; 10 -> 0.
    const HostImage img = makeImage(4, 1, 1, 8, {10, 20, 10, 30});
    const EqualizeTables t = equalizeTables(img);
    EXPECT_EQ(t.histogram[10], 2u);
    EXPECT_EQ(t.cdf[20], 3u);
    EXPECT_EQ(t.cdf[255], 4u);
    EXPECT_EQ(t.lut[10], 0u);
    EXPECT_EQ(t.lut[20], 128u);
    EXPECT_EQ(t.lut[30], 255u);
    EXPECT_EQ(equalizeReference(img).data, (std::vector<std::uint8_t>{0, 128, 0, 255}));
    // 3 of 7 below: scale = 255 / 4 = 63.75, so 1 -> 63.75 -> 64, 2 -> 127.5 -> 128, 3 ->
    // 191.25 -> 191, 4 -> 255.
    const HostImage steps = makeImage(7, 1, 1, 8, {5, 5, 5, 6, 7, 8, 9});
    EXPECT_EQ(equalizeReference(steps).data,
              (std::vector<std::uint8_t>{0, 0, 0, 64, 128, 191, 255}));
}

TEST(EqualizeReference, HalfwayRoundsToEven) {
    // 255 / 10 = 25.5 exactly: sum 1 -> 25.5 -> 26 (even), sum 3 -> 76.5 -> 76 (even).
    std::vector<std::uint64_t> h(256, 0);
    h[0] = 1;
    h[1] = 1;
    h[2] = 2;
    h[3] = 7; // total 11, first bin 1: spread 10
    EXPECT_EQ(equalizeScale8(10), 25.5f);
    const std::vector<std::uint32_t> lut = equalizeLut(h);
    EXPECT_EQ(lut[1], 26u);
    EXPECT_EQ(lut[2], 76u);
    EXPECT_EQ(lut[3], 255u);
}

TEST(EqualizeReference, SingleValuedImagesStayAsTheyAre) {
    for (int depth : {8, 16}) {
        const std::uint32_t v = depth == 16 ? 40000 : 77;
        const HostImage gray = makeImage(3, 2, 1, depth, std::vector<std::uint32_t>(6, v));
        EXPECT_EQ(equalizeReference(gray).data, gray.data) << depth;
        const HostImage rgba =
            makeImage(2, 2, 4, depth, {v, 1, 2, 3, v, 1, 2, 3, v, 1, 2, 3, v, 1, 2, 3});
        EXPECT_EQ(equalizeReference(rgba).data, rgba.data) << depth;
    }
}

TEST(EqualizeReference, SixteenBitIntegerRule) {
    // 1000 (x2), 2000, 3000, 65535: den = 5 - 2 = 3; 2000 -> (65535 + 1) / 3 = 21845,
    // 3000 -> (131070 + 1) / 3 = 43690, 65535 -> 65535.
    const HostImage img = makeImage(5, 1, 1, 16, {1000, 2000, 1000, 3000, 65535});
    EXPECT_EQ(samplesOf(equalizeReference(img)),
              (std::vector<std::uint32_t>{0, 21845, 0, 43690, 65535}));
    const EqualizeTables t = equalizeTables(img);
    ASSERT_EQ(t.histogram.size(), 65536u);
    EXPECT_EQ(t.cdf[65535], 5u);
}

TEST(EqualizeReference, ColorMovesEveryChannelByTheLumaChange) {
    // Two colors: the darker luma goes to 0, the brighter to 255; channels move by the same
    // amount, clamped; alpha stays.
    const HostImage img = makeImage(2, 1, 4, 8, {100, 50, 20, 7, 200, 180, 30, 9});
    const std::uint32_t y0 = lumaOf(100, 50, 20), y1 = lumaOf(200, 180, 30);
    ASSERT_LT(y0, y1);
    const std::vector<std::uint32_t> out = samplesOf(equalizeReference(img));
    const int d0 = 0 - int(y0), d1 = 255 - int(y1);
    EXPECT_EQ(out, (std::vector<std::uint32_t>{std::uint32_t(std::max(100 + d0, 0)),
                                               std::uint32_t(std::max(50 + d0, 0)),
                                               std::uint32_t(std::max(20 + d0, 0)), 7,
                                               std::uint32_t(std::min(200 + d1, 255)),
                                               std::uint32_t(std::min(180 + d1, 255)),
                                               std::uint32_t(std::min(30 + d1, 255)), 9}));
    EXPECT_EQ(equalizePlane(img), (std::vector<std::uint32_t>{y0, y1}));
}

TEST(EqualizeReference, RefusesDisagreeingImages) {
    HostImage bad = makeImage(2, 2, 1, 8, {1, 2, 3, 4});
    bad.data.pop_back();
    EXPECT_THROW(equalizeReference(bad), InputError);
    EXPECT_THROW(runEqualize(test::sharedDevice(), bad, 1), InputError);
}

// The device's 8-bit scale, computed in integers (kernels/equalize.cl, equalize_scale), is the
// host's correctly rounded float division for every spread up to 2^20 and for spreads around
// powers of two and at random up to 2^32 - 1 (where float(spread) itself rounds).
TEST(EqualizeScale, DeviceIntegerDivisionIsTheHostsFloatDivision) {
    std::vector<cl_uint> spreads;
    for (cl_uint s = 1; s <= (1u << 20); ++s)
        spreads.push_back(s);
    for (int b = 20; b < 32; ++b)
        for (int d = -3; d <= 3; ++d)
            spreads.push_back(cl_uint((std::uint64_t(1) << b) + std::uint64_t(std::int64_t(d))));
    spreads.push_back(0xFFFFFFFFu);
    spreads.push_back(0xFFFFFF7Fu);
    spreads.push_back(0xFFFFFF80u);
    std::mt19937 rng(5);
    for (int i = 0; i < 200000; ++i)
        spreads.push_back(cl_uint(rng() | 1u));
    Device& device = test::sharedDevice();
    std::vector<float> scales(spreads.size());
    try {
        cl::Kernel k(device.program("equalize", "-cl-std=CL1.2"), "equalize_scales");
        cl::Buffer in(device.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                      spreads.size() * sizeof(cl_uint), spreads.data());
        cl::Buffer out(device.context(), CL_MEM_WRITE_ONLY, scales.size() * sizeof(float));
        k.setArg(0, in);
        k.setArg(1, out);
        k.setArg(2, cl_uint(spreads.size()));
        device.queue().enqueueNDRangeKernel(
            k, cl::NullRange, cl::NDRange((spreads.size() + 63) / 64 * 64), cl::NDRange(64));
        device.queue().enqueueReadBuffer(out, CL_TRUE, 0, scales.size() * sizeof(float),
                                         scales.data());
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
    int failures = 0;
    for (std::size_t i = 0; i < spreads.size() && failures < 10; ++i) {
        const float host = equalizeScale8(spreads[i]);
        if (std::memcmp(&host, &scales[i], sizeof(float)) != 0) {
            ++failures;
            ADD_FAILURE() << "spread " << spreads[i] << ": device " << scales[i] << ", host "
                          << host;
        }
    }
}

// The table kernel (build_lut) on its own, from CDFs of histograms no test image could reach
// on PoCL in time: totals near 2^32 (where float(sum) and float(spread) round), one huge first
// bin, two bins, a single bin, random counts.
TEST(EqualizeLutKernel, MatchesTheReferenceOnLargeHistograms) {
    Device& device = test::sharedDevice();
    std::mt19937_64 rng(11);
    for (int depth : {8, 16}) {
        const std::size_t bins = depth == 16 ? 65536 : 256;
        std::vector<std::vector<std::uint64_t>> histograms;
        for (int r = 0; r < 6; ++r) { // random counts, totals up to ~2^32 - 1
            std::vector<std::uint64_t> h(bins);
            const std::uint64_t cap = (std::uint64_t(0xFFFFFFFF) / bins) >> (r * 3);
            for (auto& c : h)
                c = rng() % (cap + 1);
            histograms.push_back(h);
        }
        std::vector<std::uint64_t> huge(bins, 0);
        huge[3] = 0xFFFFFFFFull - 1000 - (bins - 4);
        for (std::size_t v = 4; v < bins; ++v)
            huge[v] = 1;
        huge[bins - 1] += 1000;
        histograms.push_back(huge);
        std::vector<std::uint64_t> two(bins, 0), one(bins, 0);
        two[bins / 3] = 3000000000ull;
        two[bins - 2] = 1234567;
        one[bins / 2] = 99;
        histograms.push_back(two);
        histograms.push_back(one);
        std::vector<std::uint64_t> sparse(bins, 0); // a few bins, sums past 2^24
        for (int k = 0; k < 20; ++k)
            sparse[rng() % bins] += rng() % (std::uint64_t(1) << 27);
        histograms.push_back(sparse);
        for (std::size_t n = 0; n < histograms.size(); ++n) {
            const std::vector<std::uint64_t>& h = histograms[n];
            std::vector<cl_uint> cdf(bins), lut(bins);
            std::uint64_t run = 0;
            for (std::size_t v = 0; v < bins; ++v) {
                run += h[v];
                cdf[v] = cl_uint(run);
            }
            ASSERT_LT(run, std::uint64_t(1) << 32) << n;
            try {
                cl::Kernel k(device.program("equalize", "-cl-std=CL1.2 -D NCHAN=1 -D DEPTH16=" +
                                                            std::to_string(depth == 16)),
                             "build_lut");
                cl::Buffer cdfBuf(device.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                  bins * sizeof(cl_uint), cdf.data());
                cl::Buffer lutBuf(device.context(), CL_MEM_WRITE_ONLY, bins * sizeof(cl_uint));
                k.setArg(0, cdfBuf);
                k.setArg(1, lutBuf);
                device.queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(bins),
                                                    cl::NDRange(64));
                device.queue().enqueueReadBuffer(lutBuf, CL_TRUE, 0, bins * sizeof(cl_uint),
                                                 lut.data());
            } catch (const cl::Error& e) {
                rethrowClError(e);
            }
            const std::vector<std::uint32_t> expected = equalizeLut(h);
            for (std::size_t v = 0; v < bins; ++v)
                if (lut[v] != expected[v]) {
                    ADD_FAILURE() << depth << "-bit histogram " << n << " bin " << v << ": device "
                                  << lut[v] << ", CPU reference " << expected[v];
                    break;
                }
        }
    }
}

enum class Dist { Random, Constant, TwoValues, Narrow, Skewed };
const char* distName(Dist d) {
    switch (d) {
    case Dist::Random:
        return "random";
    case Dist::Constant:
        return "constant";
    case Dist::TwoValues:
        return "two";
    case Dist::Narrow:
        return "narrow";
    case Dist::Skewed:
        return "skewed";
    }
    return "?";
}

HostImage distributed(int w, int h, int channels, int depth, Dist dist, std::uint32_t seed) {
    const std::uint32_t maxV = depth == 16 ? 65535u : 255u;
    std::mt19937 rng(seed);
    auto uniform = [&](std::uint32_t lo, std::uint32_t hi) {
        return std::uniform_int_distribution<std::uint32_t>(lo, hi)(rng);
    };
    const std::size_t pixels = std::size_t(w) * std::size_t(h);
    std::vector<std::uint32_t> colorA(4), colorB(4);
    for (int c = 0; c < 4; ++c) {
        colorA[std::size_t(c)] = uniform(0, maxV / 2);
        colorB[std::size_t(c)] = uniform(maxV / 2, maxV);
    }
    const std::uint32_t narrowLo = maxV / 3, narrowHi = narrowLo + (depth == 16 ? 40 : 10);
    std::vector<std::uint32_t> s(pixels * std::size_t(channels));
    for (std::size_t p = 0; p < pixels; ++p) {
        const bool second = uniform(0, 1) == 1;
        const bool common = uniform(0, 9) != 0; // skewed: 90 % one color
        for (int c = 0; c < channels; ++c) {
            std::uint32_t& v = s[p * std::size_t(channels) + std::size_t(c)];
            switch (dist) {
            case Dist::Random:
                v = uniform(0, maxV);
                break;
            case Dist::Constant:
                v = colorA[std::size_t(c)];
                break;
            case Dist::TwoValues:
                v = second ? colorB[std::size_t(c)] : colorA[std::size_t(c)];
                break;
            case Dist::Narrow:
                v = uniform(narrowLo, narrowHi);
                break;
            case Dist::Skewed:
                v = common ? colorA[std::size_t(c)] : uniform(0, maxV);
                break;
            }
        }
    }
    return makeImage(w, h, channels, depth, s);
}

struct Format {
    const char* name;
    int channels, depth;
};
constexpr Format kFormats[] = {{"gray8", 1, 8},   {"rgb8", 3, 8},   {"rgba8", 4, 8},
                               {"gray16", 1, 16}, {"rgb16", 3, 16}, {"rgba16", 4, 16}};
constexpr std::pair<int, int> kSizes[] = {{1, 1},   {2, 2},    {3, 3},    {17, 5},
                                          {64, 64}, {101, 37}, {640, 480}};

using DeviceCase = std::tuple<int, int, Dist>; // format index, size index, distribution

class EqualizeDevice : public ::testing::TestWithParam<DeviceCase> {};

TEST_P(EqualizeDevice, MatchesTheReferenceByteForByte) {
    const auto [f, s, dist] = GetParam();
    const Format& format = kFormats[f];
    const auto [w, h] = kSizes[s];
    const HostImage img = distributed(w, h, format.channels, format.depth, dist,
                                      std::uint32_t(1000 * f + 10 * s + int(dist)));
    const EqualizeRun run = runEqualize(test::sharedDevice(), img, 1);
    EXPECT_TRUE(run.verified) << run.verifyDetail;
    ASSERT_EQ(run.output.data.size(), img.data.size());
    EXPECT_EQ(run.output.data, equalizeReference(img).data);
    EXPECT_EQ(run.bins, format.depth == 16 ? 65536 : 256);
    ASSERT_EQ(run.cdf.size(), std::size_t(run.bins));
    EXPECT_EQ(run.cdf.back(), img.pixelCount());
    EXPECT_EQ(run.histogramStats.samplesMs.size(), 1u);
    EXPECT_EQ(run.totalStats.samplesMs.size(), 1u);
    if (dist == Dist::Constant) {
        EXPECT_EQ(run.output.data, img.data); // a single value stays as it is
    }
}

std::string caseName(const ::testing::TestParamInfo<DeviceCase>& info) {
    const auto [f, s, dist] = info.param;
    return std::string(kFormats[f].name) + "_" + std::to_string(kSizes[s].first) + "x" +
           std::to_string(kSizes[s].second) + "_" + distName(dist);
}

// Every format at every size on random data; the other distributions at the smaller sizes
// (the large image adds nothing there but time on PoCL).
INSTANTIATE_TEST_SUITE_P(Random, EqualizeDevice,
                         ::testing::Combine(::testing::Range(0, 6), ::testing::Range(0, 7),
                                            ::testing::Values(Dist::Random)),
                         caseName);
INSTANTIATE_TEST_SUITE_P(Distributions, EqualizeDevice,
                         ::testing::Combine(::testing::Range(0, 6), ::testing::Range(0, 6),
                                            ::testing::Values(Dist::Constant, Dist::TwoValues,
                                                              Dist::Narrow, Dist::Skewed)),
                         caseName);

// 16-bit histograms in slices (what a GPU's 48 KiB of local memory forces: 8,192 bins), forced
// here on PoCL, whose local memory holds all 65,536 bins.
TEST(EqualizeDevice, SlicedSixteenBitHistograms) {
    // (slice, channels): 256 slices of 256 bins; 8 of 8,192 (a GPU's), gray and color.
    for (const auto& [slice, channels] : {std::pair{256u, 1}, {8192u, 1}, {8192u, 3}})
        for (Dist dist : {Dist::Random, Dist::Skewed, Dist::Narrow}) {
            const HostImage img = distributed(203, 61, channels, 16, dist, slice + channels);
            const EqualizeRun run =
                runEqualize(test::sharedDevice(), img, 1, {}, {}, EqualizeTesting{slice, 0});
            EXPECT_TRUE(run.verified)
                << slice << " " << channels << " " << distName(dist) << ": " << run.verifyDetail;
            EXPECT_NE(run.buildOptions.find("-D SLICE=" + std::to_string(slice)), std::string::npos)
                << run.buildOptions;
        }
}

// The gray gather with its table in each place, and 1 to 4 loads in flight: sizes that leave
// the unrolled loop a remainder of vectors and the last vector a tail of single pixels.
TEST(EqualizeDevice, EveryTablePlaceAndUnrollMatches) {
    for (EqualizeLut lut : {EqualizeLut::Global, EqualizeLut::Local, EqualizeLut::Lanes})
        for (int unroll : {1, 3, 4})
            for (int groups : {1, EqualizeApply::kAllGroups})
                for (const auto& [w, h] :
                     {std::pair{1, 1}, {15, 1}, {17, 5}, {203, 61}, {640, 480}})
                    for (Dist dist : {Dist::Random, Dist::Skewed}) {
                        const HostImage img =
                            distributed(w, h, 1, 8, dist, std::uint32_t(w + unroll));
                        EqualizeApply apply;
                        apply.lut = lut;
                        apply.unroll = unroll;
                        apply.groupsPerCu = groups; // 1: few groups, every work-item loops
                        const EqualizeRun run =
                            runEqualize(test::sharedDevice(), img, 1, {}, apply);
                        EXPECT_TRUE(run.verified)
                            << equalizeLutName(lut) << " unroll " << unroll << " " << w << "x" << h
                            << " " << distName(dist) << ": " << run.verifyDetail;
                        EXPECT_EQ(run.apply.lut, lut);
                        EXPECT_NE(
                            run.buildOptions.find("-D APPLY_UNROLL=" + std::to_string(unroll)),
                            std::string::npos);
                    }
}

// The 8-bit histogram in pieces (sub-buffers), as images over 2^29 pixels are counted: gray
// and color (whose luma is counted from the interleaved bytes), the pieces' sum exact.
TEST(EqualizeDevice, HistogramInPiecesMatches) {
    for (int channels : {1, 3, 4}) {
        const HostImage img = distributed(203, 61, channels, 8, Dist::Random, 7u + channels);
        const EqualizeRun run =
            runEqualize(test::sharedDevice(), img, 1, {}, {}, EqualizeTesting{0, 4096});
        EXPECT_TRUE(run.verified) << channels << ": " << run.verifyDetail;
        EXPECT_FALSE(run.histogramConfig.empty());
    }
    EXPECT_THROW(runEqualize(test::sharedDevice(), distributed(8, 8, 1, 8, Dist::Random, 1), 1, {},
                             {}, EqualizeTesting{0, 1000}),
                 UsageError);
}

DeviceInfo deviceLike(DeviceType type, std::uint64_t localMemBytes) {
    DeviceInfo d;
    d.name = "test device";
    d.type = type;
    d.localMemBytes = localMemBytes;
    d.maxWorkGroupSize = 1024;
    d.computeUnits = 8;
    return d;
}

TEST(EqualizeApplyFor, DefaultsPerDeviceAndImage) {
    const DeviceInfo gpu = deviceLike(DeviceType::Gpu, 48 * 1024);
    const DeviceInfo cpu = deviceLike(DeviceType::Cpu, 4 << 20);
    const DeviceInfo small = deviceLike(DeviceType::Gpu, 16 * 1024);
    EXPECT_EQ(equalizeApplyFor(gpu, 1, 8, {}).lut, EqualizeLut::Local);
    EXPECT_EQ(equalizeApplyFor(small, 1, 8, {}).lut, EqualizeLut::Local);
    EXPECT_EQ(equalizeApplyFor(deviceLike(DeviceType::Gpu, 1024), 1, 8, {}).lut,
              EqualizeLut::Global);
    EXPECT_EQ(equalizeApplyFor(cpu, 1, 8, {}).lut, EqualizeLut::Global);
    for (const auto& [channels, depth] : {std::pair{3, 8}, {4, 8}, {1, 16}, {3, 16}})
        EXPECT_EQ(equalizeApplyFor(gpu, channels, depth, {}).lut, EqualizeLut::Global);
    const EqualizeApply a = equalizeApplyFor(gpu, 1, 8, {});
    EXPECT_EQ(a.workGroupSize, 256);
    EXPECT_EQ(a.groupsPerCu, 4);
    EXPECT_EQ(a.unroll, 4);
    EXPECT_EQ(a.describe(), "lut=local wg=256 groups/CU=4 unroll=4");
    EXPECT_EQ(equalizeApplyFor(cpu, 1, 8, {}).describe(),
              "lut=global wg=256 groups/CU=all unroll=1");
}

TEST(EqualizeApplyFor, RefusesWhatCannotRunNamingTheOption) {
    const DeviceInfo gpu = deviceLike(DeviceType::Gpu, 48 * 1024);
    const auto refusal = [](const DeviceInfo& d, int channels, int depth, EqualizeApply a) {
        try {
            equalizeApplyFor(d, channels, depth, a);
        } catch (const UsageError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EqualizeApply lanes;
    lanes.lut = EqualizeLut::Lanes;
    EXPECT_NE(refusal(gpu, 1, 16, lanes).find("--lut"), std::string::npos);
    EXPECT_NE(refusal(gpu, 1, 16, lanes).find("65,536"), std::string::npos);
    EXPECT_NE(refusal(gpu, 3, 8, lanes).find("color"), std::string::npos);
    EXPECT_NE(refusal(deviceLike(DeviceType::Gpu, 16 * 1024), 1, 8, lanes).find("32 KiB"),
              std::string::npos);
    EqualizeApply wide;
    wide.workGroupSize = 2048;
    EXPECT_NE(refusal(gpu, 1, 8, wide).find("--wg"), std::string::npos);
    EXPECT_THROW(parseEqualizeLut("texture"), UsageError);
    EXPECT_EQ(parseEqualizeLut("lanes"), EqualizeLut::Lanes);
}

TEST(EqualizeDevice, RepeatsAreTimedPerStage) {
    const HostImage img = distributed(64, 48, 1, 8, Dist::Random, 3);
    const EqualizeRun run = runEqualize(test::sharedDevice(), img, 3);
    EXPECT_TRUE(run.verified) << run.verifyDetail;
    for (const TimingStats* s :
         {&run.histogramStats, &run.cdfStats, &run.lutStats, &run.applyStats, &run.totalStats})
        EXPECT_EQ(s->samplesMs.size(), 3u);
    EXPECT_NEAR(run.totalStats.samplesMs[0],
                run.histogramStats.samplesMs[0] + run.cdfStats.samplesMs[0] +
                    run.lutStats.samplesMs[0] + run.applyStats.samplesMs[0],
                1e-9);
    EXPECT_NE(run.buildOptions.find("-D NCHAN=1"), std::string::npos);
}

} // namespace
} // namespace histlab
