// Large-bin histograms: the bin rule by hand and against NumPy's own algorithm written out in
// double (float edge cases: NaN, infinities, values on edges and on the upper limit, out of
// range, denormals) and against counts NumPy 1.24.2 printed; the automatic ranges; bad bin counts
// and ranges; image planes (channels, 16-bit luma, 16-bit images holding only 0-255, 10- and 12-bit
// data); then every device method bit-exact against the reference for bin counts 1, 2, 255, 256,
// 257, 4096 and 65536, u8, u16 and f32 samples and awkward sizes.
#include "unitsupport.h"

#include "pipelines/largebin/largebin.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace histlab {
namespace {

SamplePlane floatPlane(const std::vector<float>& values) {
    SamplePlane p;
    p.type = SampleType::F32;
    p.bytes.resize(values.size() * 4);
    std::memcpy(p.bytes.data(), values.data(), p.bytes.size());
    return p;
}

SamplePlane u16Plane(const std::vector<std::uint16_t>& values) {
    SamplePlane p;
    p.type = SampleType::U16;
    p.bytes.resize(values.size() * 2);
    std::memcpy(p.bytes.data(), values.data(), p.bytes.size());
    return p;
}

/// NumPy's histogram for uniform bins (numpy/lib/histograms.py, written out independently).
/// For integer data everything is double: edges = linspace(lo, hi, bins + 1); keep
/// lo <= x <= hi; guess int((x - lo) / (hi - lo) * bins), bins -> bins - 1; one step down if
/// x < edge[i], then one step up if x >= edge[i + 1] (not in the last bin). For float32 data
/// NumPy does the same in float32: the edges are rounded to float32, the range and the guess
/// are float32 operations.
template <typename T>
std::vector<std::uint64_t> numpyHistogram(const std::vector<double>& xs, int bins, double lo,
                                          double hi) {
    std::vector<T> edges(std::size_t(bins) + 1);
    const double step = (hi - lo) / bins;
    for (int i = 0; i <= bins; ++i)
        edges[std::size_t(i)] = T(double(i) * step + lo);
    edges.back() = T(hi);
    const T loT = T(lo), hiT = T(hi), denom = T(hi - lo), n = T(bins);
    std::vector<std::uint64_t> counts(std::size_t(bins), 0);
    for (double xd : xs) {
        const T x = T(xd);
        if (!(x >= loT && x <= hiT))
            continue;
        volatile T ratio = (x - loT) / denom;
        long i = long(T(ratio * n));
        if (i == bins)
            --i;
        if (x < edges[std::size_t(i)])
            --i;
        if (i != bins - 1 && x >= edges[std::size_t(i) + 1])
            ++i;
        ++counts[std::size_t(i)];
    }
    return counts;
}

TEST(LargeBinReference, IntegersAreBinnedExactlyWithTheLastBinClosed) {
    const SamplePlane p = u16Plane({0, 1, 2, 255, 256, 1023, 65535});
    // The default: every 16-bit value a bin of its own.
    const BinSpec exact = makeBinSpec(p, 65536, std::nullopt);
    EXPECT_EQ(exact.lo, 0);
    EXPECT_EQ(exact.hi, 65536);
    const LargeHistogram h = largeHistogramReference(p, exact);
    for (int v : {0, 1, 2, 255, 256, 1023, 65535})
        EXPECT_EQ(h.counts[std::size_t(v)], 1u) << v;
    EXPECT_EQ(h.total(), 7u);
    // [0, 255] in 256 bins (NumPy: width 255/256, 255 in the closed last bin); 256 and up above.
    const LargeHistogram r = largeHistogramReference(p, makeBinSpec(p, 256, BinRange{0, 255}));
    EXPECT_EQ(r.counts[0], 1u);
    EXPECT_EQ(r.counts[1], 1u);
    EXPECT_EQ(r.counts[2], 1u);
    EXPECT_EQ(r.counts[255], 1u);
    EXPECT_EQ(r.above, 3u);
    // The same values through NumPy's algorithm.
    const std::vector<double> xs{0, 1, 2, 255, 256, 1023, 65535};
    const std::vector<std::uint64_t> np = numpyHistogram<double>(xs, 256, 0, 255);
    EXPECT_EQ(r.counts, np);
    // Below the range.
    const LargeHistogram b = largeHistogramReference(p, makeBinSpec(p, 4, BinRange{2, 1024}));
    EXPECT_EQ(b.below, 2u);
    EXPECT_EQ(b.above, 1u);
    EXPECT_EQ(b.counts, numpyHistogram<double>(xs, 4, 2, 1024));
}

TEST(LargeBinReference, FloatsFollowNumPyOnEdgesInfinitiesNaNAndDenormals) {
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float denorm = std::numeric_limits<float>::denorm_min();
    std::vector<float> values{0.0f,    -0.0f,  0.1f, 0.2f, 0.3f, 0.7f, 0.9f,  1.0f, 1.0000001f,
                              -denorm, denorm, inf,  -inf, nan,  0.5f, 0.25f, 0.75f};
    // Every float near every edge of 10 bins over [0, 1], one ulp either side.
    for (int i = 0; i <= 10; ++i) {
        const float e = float(i * 0.1);
        values.push_back(std::nextafter(e, -1.0f));
        values.push_back(e);
        values.push_back(std::nextafter(e, 2.0f));
    }
    const SamplePlane p = floatPlane(values);
    for (int bins : {1, 2, 3, 7, 10, 255, 256, 257, 4096}) {
        SCOPED_TRACE(bins);
        const BinSpec spec = makeBinSpec(p, bins, BinRange{0, 1});
        const LargeHistogram h = largeHistogramReference(p, spec);
        std::vector<double> xs;
        for (float v : values)
            xs.push_back(v);
        EXPECT_EQ(h.counts, numpyHistogram<float>(xs, bins, 0, 1));
        EXPECT_EQ(h.nan, 1u);
        // Below: -inf, -denorm and the float just under 0; above: inf, 1.0000001 twice.
        EXPECT_EQ(h.below, 3u);
        EXPECT_EQ(h.above, 3u);
    }
    // 1.0 (the upper limit) lands in the last bin; 0.9f and 0.1f are NumPy's float32 edges
    // themselves: bins 9 and 1.
    const std::vector<float> edges = floatEdges(makeBinSpec(p, 10, BinRange{0, 1}));
    const BinSpec ten = makeBinSpec(p, 10, BinRange{0, 1});
    EXPECT_EQ(referenceSlot(ten, edges, 1.0f), 9u);
    EXPECT_EQ(referenceSlot(ten, edges, 0.9f), 9u);
    EXPECT_EQ(referenceSlot(ten, edges, 0.1f), 1u);
    EXPECT_EQ(referenceSlot(ten, edges, denorm), 0u);
    EXPECT_EQ(referenceSlot(ten, edges, -0.0f), 0u);
    EXPECT_EQ(referenceSlot(ten, edges, nan), 12u);
    // NumPy 1.24.2 itself (Debian 12's python3-numpy), on the finite values of this list:
    // np.histogram(a[np.isfinite(a)], bins, range) printed these counts.
    const std::vector<std::pair<BinSpec, std::vector<std::uint64_t>>> numpy{
        {makeBinSpec(p, 10, BinRange{0, 1}), {6, 4, 5, 4, 3, 4, 3, 5, 3, 6}},
        {makeBinSpec(p, 7, BinRange{-0.3, 0.95}), {0, 7, 8, 8, 4, 8, 7}},
        {makeBinSpec(p, 3, BinRange{0, 1}), {18, 10, 15}}};
    for (const auto& [spec, counts] : numpy)
        EXPECT_EQ(largeHistogramReference(p, spec).counts, counts) << spec.bins;
    // A range whose edges are not floats: NumPy's double edges decide.
    const BinSpec odd = makeBinSpec(p, 7, BinRange{-0.3, 0.95});
    const LargeHistogram h = largeHistogramReference(p, odd);
    std::vector<double> xs(values.begin(), values.end());
    EXPECT_EQ(h.counts, numpyHistogram<float>(xs, 7, -0.3, 0.95));
}

TEST(LargeBinReference, RandomFloatsMatchNumPysAlgorithm) {
    const SamplePlane p = makeLargeBinData(LargeBinData::Random, SampleType::F32, 200000, 7);
    std::vector<double> xs;
    for (std::size_t i = 0; i < p.count(); ++i) {
        float v;
        std::memcpy(&v, p.bytes.data() + 4 * i, 4);
        xs.push_back(v);
    }
    for (int bins : {3, 100, 1000, 65536}) {
        const BinRange r{0.013, 0.91};
        EXPECT_EQ(largeHistogramReference(p, makeBinSpec(p, bins, r)).counts,
                  numpyHistogram<float>(xs, bins, r.lo, r.hi))
            << bins;
    }
}

TEST(LargeBinReference, AutomaticRanges) {
    EXPECT_EQ(autoRange(u16Plane({5, 9})).hi, 65536);
    SamplePlane u8;
    u8.type = SampleType::U8;
    EXPECT_EQ(autoRange(u8).hi, 256);
    const float inf = std::numeric_limits<float>::infinity();
    const BinRange f = autoRange(floatPlane({2.5f, -1.0f, inf, std::nanf(""), 7.0f}));
    EXPECT_EQ(f.lo, -1.0);
    EXPECT_EQ(f.hi, 7.0);
    const BinRange one = autoRange(floatPlane({3.0f, 3.0f}));
    EXPECT_EQ(one.lo, 2.5);
    EXPECT_EQ(one.hi, 3.5);
    const BinRange none = autoRange(floatPlane({std::nanf(""), inf}));
    EXPECT_EQ(none.lo, 0);
    EXPECT_EQ(none.hi, 1);
    EXPECT_EQ(defaultBins(SampleType::U16), 65536);
    EXPECT_EQ(defaultBins(SampleType::U8), 256);
}

// Float samples up to +-3.4e38 get their own range when no --range is given (they were refused
// as "--range: beyond the range of float"); a span beyond FLT_MAX, which the float binning
// cannot divide, is refused as input, never mis-binned.
TEST(LargeBinReference, AutomaticRangesOfHugeFloats) {
    const float top = std::numeric_limits<float>::max();
    SamplePlane huge = floatPlane({0.0f, 3.4e38f, 1.0f});
    const BinSpec spec = makeBinSpec(huge, 4, std::nullopt);
    EXPECT_EQ(spec.hi, double(3.4e38f));
    const LargeHistogram h = largeHistogramReference(huge, spec);
    EXPECT_EQ(h.counts, (std::vector<std::uint64_t>{2, 0, 0, 1}));
    const BinRange flat = autoRange(floatPlane({top, top}));
    EXPECT_LT(flat.lo, double(top));
    EXPECT_EQ(flat.hi, double(top));
    SamplePlane span = floatPlane({-3e38f, 3e38f});
    span.source = "span.pfm";
    try {
        makeBinSpec(span, 4, std::nullopt);
        ADD_FAILURE() << "a span of 6e38 was accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("span.pfm: its float samples run from -3"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(test::refusedParameter([&] {
                  makeBinSpec(span, 4, BinRange{-3.1e38, 0});
              }),
              "--range");
}

TEST(LargeBinReference, BadBinsAndRangesNameTheirOption) {
    const SamplePlane p = u16Plane({1});
    EXPECT_EQ(test::refusedParameter([&] { makeBinSpec(p, 0, std::nullopt); }), "--bins");
    EXPECT_EQ(test::refusedParameter([&] { makeBinSpec(p, 65537, std::nullopt); }), "--bins");
    EXPECT_EQ(test::refusedParameter([&] { makeBinSpec(p, 4, BinRange{0.5, 9}); }), "--range");
    EXPECT_EQ(test::refusedParameter([&] { makeBinSpec(p, 4, BinRange{-1, 9}); }), "--range");
    EXPECT_EQ(test::refusedParameter([&] { makeBinSpec(p, 4, BinRange{0, 65537}); }), "--range");
    EXPECT_EQ(test::refusedParameter([] { parseBinRange("3"); }), "--range");
    EXPECT_EQ(test::refusedParameter([] { parseBinRange("2,1"); }), "--range");
    EXPECT_EQ(test::refusedParameter([] { parseBinRange("0,inf"); }), "--range");
    EXPECT_EQ(test::refusedParameter([] { parseLargeBinMethod("fast"); }), "--method");
    EXPECT_EQ(test::refusedParameter([] { parseSampleType("u32"); }), "--type");
    const BinRange r = parseBinRange("-0.5,1e3");
    EXPECT_EQ(r.lo, -0.5);
    EXPECT_EQ(r.hi, 1000);
}

HostImage image16(int w, int h, int channels, const std::vector<std::uint16_t>& values) {
    HostImage img;
    img.width = w;
    img.height = h;
    img.channels = channels;
    img.depth = 16;
    img.data.resize(values.size() * 2);
    std::memcpy(img.data.data(), values.data(), img.data.size());
    img.source = "test16";
    return img;
}

TEST(LargeBinImage, SixteenBitImagesInZeroTo255AndTenBitDataGetTheirExactBins) {
    // A 16-bit image whose values lie in 0-255: the high byte would put them all in bin 0.
    std::vector<std::uint16_t> low, tenBit;
    for (int i = 0; i < 256; ++i)
        low.push_back(std::uint16_t(i));
    for (int i = 0; i < 1024; ++i)
        tenBit.push_back(std::uint16_t(i));
    const SamplePlane p = imagePlane(image16(16, 16, 1, low), "gray");
    const LargeHistogram h = largeHistogramReference(p, makeBinSpec(p, 65536, std::nullopt));
    for (int v = 0; v < 256; ++v)
        ASSERT_EQ(h.counts[std::size_t(v)], 1u) << v;
    EXPECT_EQ(h.total(), 256u);
    // 10-bit data in 1024 bins over [0, 1024]: one value per bin; 12-bit range in 4096 bins.
    const SamplePlane t = imagePlane(image16(32, 32, 1, tenBit), "gray");
    const LargeHistogram ten = largeHistogramReference(t, makeBinSpec(t, 1024, BinRange{0, 1024}));
    for (std::uint64_t c : ten.counts)
        ASSERT_EQ(c, 1u);
    const LargeHistogram twelve =
        largeHistogramReference(t, makeBinSpec(t, 4096, BinRange{0, 4096}));
    EXPECT_EQ(twelve.total(), 1024u);
    EXPECT_EQ(twelve.counts[1023], 1u);
    EXPECT_EQ(twelve.counts[1024], 0u);
}

TEST(LargeBinImage, ChannelsAndSixteenBitLuma) {
    const HostImage rgb = image16(2, 1, 3, {1000, 2000, 3000, 65535, 65535, 65535});
    const SamplePlane g = imagePlane(rgb, "g");
    ASSERT_EQ(g.count(), 2u);
    std::uint16_t v[2];
    std::memcpy(v, g.bytes.data(), 4);
    EXPECT_EQ(v[0], 2000);
    EXPECT_EQ(v[1], 65535);
    const SamplePlane luma = imagePlane(rgb, "gray");
    std::memcpy(v, luma.bytes.data(), 4);
    EXPECT_EQ(v[0], (1000u * 9798 + 2000u * 19235 + 3000u * 3735 + (1u << 14)) >> 15);
    EXPECT_EQ(v[1], 65535); // white stays white: the weights sum to 2^15
    EXPECT_EQ(test::refusedParameter([&] { imagePlane(rgb, "a"); }), "--channel");
    EXPECT_EQ(test::refusedParameter([&] { imagePlane(rgb, "x"); }), "--channel");
    const HostImage gray8 = test::syntheticImage(SyntheticKind::Random, 64, 1);
    EXPECT_EQ(imagePlane(gray8, "gray").type, SampleType::U8);
    EXPECT_EQ(test::refusedParameter([&] { imagePlane(gray8, "r"); }), "--channel");
}

// The window's channel lists are imageChannelNames(): an RGBA image has every one of them, a
// gray image only the first.
TEST(LargeBinImage, ChannelNamesAreWhatImagePlaneTakes) {
    const std::vector<std::string> names = imageChannelNames();
    ASSERT_EQ(names.size(), 5u);
    EXPECT_EQ(names.front(), "gray");
    const HostImage rgba = image16(2, 1, 4, {1, 2, 3, 4, 5, 6, 7, 8});
    for (const std::string& name : names)
        EXPECT_EQ(imagePlane(rgba, name).count(), 2u) << name;
    const HostImage gray = image16(2, 1, 1, {1, 2});
    for (std::size_t i = 1; i < names.size(); ++i)
        EXPECT_EQ(test::refusedParameter([&] { imagePlane(gray, names[i]); }), "--channel");
}

TEST(LargeBinReference, MismatchNamesTheSlot) {
    LargeHistogram ref;
    ref.counts = {1, 2};
    ref.nan = 1;
    EXPECT_EQ(firstHistogramMismatch(ref, {1, 2, 0, 0, 1}), "");
    EXPECT_EQ(firstHistogramMismatch(ref, {1, 3, 0, 0, 0}),
              "2 slots differ; bin 1: device 3, CPU reference 2");
    EXPECT_EQ(firstHistogramMismatch(ref, {1, 2, 0, 0}), "the device returned 4 slots, not 5");
}

// ---------------------------------------------------------------------------------------------
// The device methods, exact against the reference.

struct DeviceCase {
    SampleType type;
    std::size_t samples;
};

class LargeBinDevice : public ::testing::TestWithParam<DeviceCase> {};

TEST_P(LargeBinDevice, EveryMethodEveryBinCountIsExact) {
    const DeviceCase c = GetParam();
    Device& device = test::sharedDevice();
    SamplePlane plane = makeLargeBinData(LargeBinData::Random, c.type, c.samples, 3);
    if (c.type == SampleType::F32 && c.samples > 4) {
        // Edge cases among the random floats: NaN, infinities, the limits, a denormal.
        const float specials[] = {std::nanf(""),
                                  std::numeric_limits<float>::infinity(),
                                  -std::numeric_limits<float>::infinity(),
                                  0.0f,
                                  1.0f,
                                  std::numeric_limits<float>::denorm_min()};
        for (std::size_t i = 0; i < 6 && i < c.samples; ++i)
            std::memcpy(plane.bytes.data() + 4 * (i * 3 % c.samples), &specials[i], 4);
    }
    const cl::Buffer buffer = uploadPlane(device, plane);
    for (int bins : {1, 2, 255, 256, 257, 4096, 65536}) {
        // Floats over [0, 1] (the random ones fill it); integers over the automatic range, and
        // u16 also over a range that leaves values out on both sides.
        std::vector<std::optional<BinRange>> ranges{std::nullopt};
        if (c.type == SampleType::F32)
            ranges = {BinRange{0, 1}};
        else if (c.type == SampleType::U16)
            ranges.push_back(BinRange{1000, 60001});
        for (const auto& range : ranges) {
            const BinSpec spec = makeBinSpec(plane, bins, range);
            const LargeHistogram ref = largeHistogramReference(plane, spec);
            for (LargeBinMethod m : allLargeBinMethods()) {
                SCOPED_TRACE(std::string(largeBinMethodName(m)) + ", " + std::to_string(bins) +
                             " bins, " + sampleTypeName(c.type) + " x " +
                             std::to_string(c.samples));
                const LargeBinPoint p =
                    runLargeBinPoint(device, buffer, plane.count(), spec, ref, m, 1);
                // Every method runs on PoCL; 'tagged' is exact there because PoCL runs the
                // work-items of a group one after another (no two lanes write at once).
                EXPECT_EQ(p.status, Status::Verified) << p.detail;
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, LargeBinDevice,
    ::testing::Values(DeviceCase{SampleType::U16, 1}, DeviceCase{SampleType::U16, 17},
                      DeviceCase{SampleType::U16, 100003}, DeviceCase{SampleType::U8, 33},
                      DeviceCase{SampleType::U8, 65541}, DeviceCase{SampleType::F32, 7},
                      DeviceCase{SampleType::F32, 50001}),
    [](const auto& info) {
        return std::string(sampleTypeName(info.param.type)) + "_" +
               std::to_string(info.param.samples);
    });

// PoCL's 2 MiB of local memory holds every slot in one slice; the geometries of a GPU with a few
// KiB of local memory cut them into many slices (the last one shorter) and run them here.
TEST(LargeBinDeviceRun, ManySlicesAreExact) {
    Device& device = test::sharedDevice();
    DeviceInfo small = device.info();
    small.type = DeviceType::Gpu;
    small.localMemBytes = 3 * 1024; // 2 KiB usable: 512 32-bit slots, 1,024 16-bit ones
    small.computeUnits = 2;
    for (SampleType type : {SampleType::U16, SampleType::F32}) {
        const SamplePlane plane = makeLargeBinData(LargeBinData::Smooth, type, 300007, 5);
        const cl::Buffer buffer = uploadPlane(device, plane);
        for (int bins : {1500, 4096}) {
            const BinSpec spec =
                makeBinSpec(plane, bins,
                            type == SampleType::F32 ? std::optional<BinRange>(BinRange{0.1, 0.9})
                                                    : std::nullopt);
            const LargeHistogram ref = largeHistogramReference(plane, spec);
            for (LargeBinMethod m : {LargeBinMethod::Multipass, LargeBinMethod::Local16}) {
                const LargeBinGeometry g = planLargeBinGeometry(small, spec, plane.count(), m);
                SCOPED_TRACE(g.describe());
                ASSERT_TRUE(g.supported) << g.why;
                EXPECT_GT(g.passes, 1u);
                const LargeBinPoint p =
                    runLargeBinPoint(device, buffer, plane.count(), spec, ref, g, 1);
                EXPECT_EQ(p.status, Status::Verified) << p.detail;
            }
        }
    }
}

// local16's and runs16's counters are 16 bits: hot ones go to the global histogram after each
// round, the rest at the end. Counters pushed far past 65,535 in every work-group -- one value
// everywhere, skewed data (90 % one value), runs of one value broken by samples of other slices --
// stay exact with one slice (PoCL's geometry) and with several (a small GPU's).
TEST(LargeBinDeviceRun, SixteenBitHotCountersAreSpilledExactly) {
    Device& device = test::sharedDevice();
    DeviceInfo small = device.info();
    small.type = DeviceType::Gpu;
    small.localMemBytes = 3 * 1024;
    small.computeUnits = 2;
    const std::size_t n = 3 * 65536 * 4 + 13;
    std::vector<std::uint16_t> same(n, 40000), alternating(n);
    for (std::size_t i = 0; i < n; ++i)
        alternating[i] = (i / 3) % 2 ? 7 : 65000; // runs of 3, the other value in another slice
    const SamplePlane planes[] = {u16Plane(same), u16Plane(alternating),
                                  makeLargeBinData(LargeBinData::Skewed, SampleType::U16, n, 9)};
    for (const SamplePlane& plane : planes) {
        const cl::Buffer buffer = uploadPlane(device, plane);
        for (int bins : {1, 4096, 65536}) {
            const BinSpec spec = makeBinSpec(plane, bins, std::nullopt);
            const LargeHistogram ref = largeHistogramReference(plane, spec);
            for (const DeviceInfo& info : {device.info(), small})
                for (LargeBinMethod m : {LargeBinMethod::Local16, LargeBinMethod::Runs16}) {
                    const LargeBinGeometry g = planLargeBinGeometry(info, spec, plane.count(), m);
                    SCOPED_TRACE(std::string(largeBinMethodName(m)) + ", " + std::to_string(bins) +
                                 " bins, " + g.describe());
                    ASSERT_TRUE(g.supported) << g.why;
                    const LargeBinPoint p =
                        runLargeBinPoint(device, buffer, plane.count(), spec, ref, g, 1);
                    EXPECT_EQ(p.status, Status::Verified) << p.detail;
                }
        }
    }
}

// auto on the data: the candidates that fit a 48 KiB GPU are timed on at most 64 Mi samples and
// the fastest wins over the blind pick; one that fails is passed over; a CPU device times none.
TEST(LargeBinAuto, TimesTheCandidatesOnTheDataAndTakesTheFastest) {
    DeviceInfo gpu = test::sharedDevice().info();
    gpu.type = DeviceType::Gpu;
    gpu.localMemBytes = 48 * 1024;
    gpu.computeUnits = 132;
    gpu.maxWorkGroupSize = 1024;
    const std::size_t slots = 65539; // 65,536 bins: 6 slices of multipass, 3 of local16/runs16
    ASSERT_EQ(autoSlotMethod(gpu, slots), LargeBinMethod::Local16);
    std::vector<std::pair<LargeBinMethod, std::size_t>> timed;
    std::string how;
    const LargeBinMethod m = tuneSlotMethod(
        gpu, SampleType::U16, slots, std::size_t(1) << 30,
        [&](const LargeBinGeometry& g, std::size_t n) {
            timed.emplace_back(g.method, n);
            return g.method == LargeBinMethod::Runs16 ? 1.0 : 2.0; // skewed data, say
        },
        how);
    EXPECT_EQ(m, LargeBinMethod::Runs16);
    ASSERT_EQ(timed.size(), 4u); // all fit 8 slices, none one slice: global is timed too
    EXPECT_EQ(timed[0], std::make_pair(LargeBinMethod::Multipass, std::size_t(1) << 26));
    EXPECT_EQ(timed[1].first, LargeBinMethod::Local16);
    EXPECT_EQ(timed[2].first, LargeBinMethod::Runs16);
    EXPECT_EQ(timed[3].first, LargeBinMethod::Global);
    EXPECT_EQ(how, "auto timed on 67108864 samples: multipass 2.000 ms, local16 2.000 ms, "
                   "runs16 1.000 ms, global 2.000 ms");

    // 1,024 x 1,024 cells: too many slices for either, so global alone; 4,096 bins: one slice.
    timed.clear();
    EXPECT_EQ(tuneSlotMethod(
                  gpu, SampleType::U8, 1048577, 1000,
                  [&](const LargeBinGeometry& g, std::size_t n) {
                      timed.emplace_back(g.method, n);
                      return 1.0;
                  },
                  how),
              LargeBinMethod::Global);
    EXPECT_EQ(timed, (std::vector<std::pair<LargeBinMethod, std::size_t>>{
                         {LargeBinMethod::Global, 1000}}));
    timed.clear();
    EXPECT_EQ(tuneSlotMethod(
                  gpu, SampleType::U16, 4099, 5000,
                  [&](const LargeBinGeometry& g, std::size_t n) {
                      timed.emplace_back(g.method, n);
                      if (g.method == LargeBinMethod::Multipass)
                          throw UnsupportedError("a build that failed");
                      return 1.0;
                  },
                  how),
              LargeBinMethod::Local16); // multipass failed and is passed over; ties keep the first
    EXPECT_EQ(timed.size(), 3u);

    // Cancellation goes through; a CPU device and an empty input time nothing.
    EXPECT_THROW(tuneSlotMethod(
                     gpu, SampleType::U16, slots, 100,
                     [](const LargeBinGeometry&, std::size_t) -> double { throw CancelledError(); },
                     how),
                 CancelledError);
    DeviceInfo cpu = gpu;
    cpu.type = DeviceType::Cpu;
    const auto never = [](const LargeBinGeometry&, std::size_t) -> double {
        ADD_FAILURE() << "timed on a CPU device or no samples";
        return 0;
    };
    EXPECT_EQ(tuneSlotMethod(cpu, SampleType::U16, slots, 100, never, how),
              LargeBinMethod::Private);
    EXPECT_TRUE(how.empty());
    EXPECT_EQ(tuneSlotMethod(gpu, SampleType::U16, slots, 0, never, how), LargeBinMethod::Local16);
}

TEST(LargeBinDeviceRun, EmptyInputAndAutoAndUnsupportedAreReported) {
    Device& device = test::sharedDevice();
    SamplePlane empty;
    empty.type = SampleType::U16;
    const cl::Buffer buffer = uploadPlane(device, empty);
    const BinSpec spec = makeBinSpec(empty, 256, std::nullopt);
    const LargeBinPoint p = runLargeBinPoint(
        device, buffer, 0, spec, largeHistogramReference(empty, spec), LargeBinMethod::Auto, 1);
    EXPECT_EQ(p.status, Status::Verified) << p.detail;
    EXPECT_NE(p.method, LargeBinMethod::Auto); // resolved
    // A device whose local memory holds no copy of 65,539 slots: local is unsupported, with why.
    DeviceInfo small = device.info();
    small.type = DeviceType::Gpu;
    small.localMemBytes = 48 * 1024;
    const LargeBinGeometry g = planLargeBinGeometry(small, makeBinSpec(empty, 65536, std::nullopt),
                                                    1 << 20, LargeBinMethod::Local);
    EXPECT_FALSE(g.supported);
    EXPECT_NE(g.why.find("do not fit"), std::string::npos);
    const LargeBinGeometry m = planLargeBinGeometry(small, makeBinSpec(empty, 65536, std::nullopt),
                                                    1 << 20, LargeBinMethod::Multipass);
    EXPECT_EQ(m.slice, 12032u); // 47 KiB: 1 KiB left to the driver
    EXPECT_EQ(m.passes, 6u);
    EXPECT_EQ(m.groups % 6, 0u);
    const LargeBinGeometry h = planLargeBinGeometry(small, makeBinSpec(empty, 65536, std::nullopt),
                                                    1 << 20, LargeBinMethod::Local16);
    EXPECT_EQ(h.passes, 3u);
    EXPECT_EQ(autoLargeBinMethod(small, makeBinSpec(empty, 256, std::nullopt)),
              LargeBinMethod::Multipass);
    EXPECT_EQ(autoLargeBinMethod(small, makeBinSpec(empty, 65536, std::nullopt)),
              LargeBinMethod::Local16);
}

} // namespace
} // namespace histlab
