// 256-bin histogram pipeline on the shared device (PoCL in CI): every variant, read pattern,
// load width, merge mode, unroll and channel count, bit-exact against the core's CPU reference
// (verify) and against counts written independently in this file's support code.
//
// The matrix is chosen for a cold PoCL cache (each distinct build option string costs about a
// second to compile): the full configuration cross product (92 configurations x 1, 3 and 4
// channels) runs on one awkward size, a 4097 x 3 image; every awkward size runs on a
// representative subset of configurations, as gray, RGB and RGBA images. Each case runs all
// four synthetic distributions, which reuse the same built program.
#include "unitsupport.h"

#include "pipelines/histogram256/histogram256.h"
#include "runtime/cancel.h"
#include "runtime/errors.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace histlab {
namespace {

using test::Counts;
using test::independentCounts;
using test::sharedDevice;
using test::syntheticImage;

constexpr SyntheticKind kKinds[] = {SyntheticKind::Random, SyntheticKind::Uniform,
                                    SyntheticKind::Gradient, SyntheticKind::Skewed};
constexpr int kMaxBanks = -1; // "the most copies that fit local memory" for the image's channels

/// One configuration as a person would request it on the command line.
struct Variant {
    HistogramVariant variant = HistogramVariant::Auto;
    int banks = 0;
    ReadPattern read = ReadPattern::Coalesced;
    LoadWidth load = LoadWidth::Uint4;
    MergeMode merge = MergeMode::Kernel;
    int unroll = 1;

    std::string name() const {
        std::ostringstream s;
        if (variant == HistogramVariant::Auto)
            return "auto";
        s << variantName(variant);
        if (variant == HistogramVariant::Banked || variant == HistogramVariant::Private)
            s << (banks == kMaxBanks ? std::string("max") : std::to_string(banks));
        s << '_' << readPatternName(read) << '_' << loadWidthName(load);
        if (read == ReadPattern::Coalesced && variant != HistogramVariant::Naive &&
            variant != HistogramVariant::Private)
            s << "_unroll" << unroll;
        if (variant != HistogramVariant::Naive)
            s << '_' << mergeModeName(merge);
        return s.str();
    }

    HistogramRequest request(const DeviceInfo& info, int histograms) const {
        HistogramRequest r;
        r.variant = variant;
        if (variant == HistogramVariant::Auto)
            return r;
        r.banks = banks == kMaxBanks ? test::maxFittingBanks(info, histograms) : banks;
        r.read = read;
        r.load = load;
        r.merge = merge;
        r.unroll = unroll;
        return r;
    }
};

void PrintTo(const Variant& v, std::ostream* os) {
    *os << v.name();
}

/// Reason this device cannot run the variant with `histograms` 256-bin histograms counted
/// together (a capability it lacks), or "".
std::string cannotRun(const Variant& v, const DeviceInfo& info, int histograms) {
    const bool local =
        v.variant == HistogramVariant::Local || v.variant == HistogramVariant::Banked;
    if (local) {
        const int fit = test::maxFittingBanks(info, histograms);
        const int want = v.banks == kMaxBanks ? 1 : std::max(v.banks, 1);
        if (fit < want)
            return std::to_string(want) + " local copies of " + std::to_string(256 * histograms) +
                   " bins need " + std::to_string(want * histograms) + " KiB of local memory; " +
                   info.name + " has " + std::to_string(info.localMemBytes / 1024) + " KiB";
        if (info.maxWorkGroupSize < 256)
            return info.name + " allows work-groups of at most " +
                   std::to_string(info.maxWorkGroupSize) + " items (the default is 256)";
    }
    return {};
}

::testing::AssertionResult sameCounts(const std::string& what, const Counts& device,
                                      const Counts& expected) {
    for (int b = 0; b < 256; ++b)
        if (device[b] != expected[b])
            return ::testing::AssertionFailure() << what << " bin " << b << ": device " << device[b]
                                                 << ", independent count " << expected[b];
    return ::testing::AssertionSuccess();
}

std::vector<std::string> expectedNames(int channels, ChannelSelection sel) {
    static const char* names[] = {"gray", "r", "g", "b", "a"};
    if (sel != ChannelSelection::All)
        return {names[int(sel)]};
    if (channels == 1)
        return {"gray"};
    std::vector<std::string> out{"r", "g", "b"};
    if (channels == 4)
        out.push_back("a");
    out.push_back("gray");
    return out;
}

/// Runs with verification and checks the result three ways: the core's verdict, the
/// histograms' names and order, and every bin against the independent count.
HistogramRun runAndCheck(const HostImage& image, const HistogramRequest& request,
                         ChannelSelection sel, const std::string& label) {
    HistogramRunOptions options;
    options.channel = sel;
    options.repeats = 1;
    options.verify = true;
    const HistogramRun run = runHistogram(sharedDevice(), image, request, options);
    SCOPED_TRACE(label + " [" + run.config.describe() + "]");
    EXPECT_TRUE(run.verified.has_value());
    EXPECT_TRUE(run.verified.value_or(false)) << run.verifyDetail;
    std::vector<std::string> names;
    for (const auto& h : run.histograms)
        names.push_back(h.name);
    EXPECT_EQ(names, expectedNames(image.channels, sel));
    const auto expected = independentCounts(image);
    for (const auto& h : run.histograms) {
        const auto it = expected.find(h.name);
        if (it == expected.end()) {
            ADD_FAILURE() << "unexpected histogram '" << h.name << "'";
            continue;
        }
        EXPECT_TRUE(sameCounts(h.name, h.counts, it->second));
        std::uint64_t total = 0;
        for (auto c : h.counts)
            total += c;
        EXPECT_EQ(total, image.pixelCount()) << h.name;
    }
    return run;
}

// ---------------------------------------------------------------------------------------------
// The full configuration cross product on a 4097 x 3 image of 1, 3 and 4 channels.

std::vector<Variant> crossProduct() {
    std::vector<Variant> out;
    const LoadWidth loads[] = {LoadWidth::Scalar, LoadWidth::Uint4};
    const MergeMode merges[] = {MergeMode::Kernel, MergeMode::Atomic};
    // Unroll only changes coalesced reads (serial reads ignore it: the same code).
    const std::pair<ReadPattern, int> reads[] = {{ReadPattern::Coalesced, 1},
                                                 {ReadPattern::Coalesced, 2},
                                                 {ReadPattern::Coalesced, 4},
                                                 {ReadPattern::Serial, 1}};
    for (auto [read, unroll] : reads)
        if (unroll == 1)
            for (LoadWidth load : loads) // naive: no merge, no unroll
                out.push_back({HistogramVariant::Naive, 0, read, load, MergeMode::Kernel, 1});
    for (int banks : {0, 1, 2, 16, kMaxBanks})
        for (auto [read, unroll] : reads)
            for (LoadWidth load : loads)
                for (MergeMode merge : merges)
                    out.push_back({banks == 0 ? HistogramVariant::Local : HistogramVariant::Banked,
                                   banks, read, load, merge, unroll});
    for (int copies : {1, 4}) // cpu: serial reads only
        for (LoadWidth load : loads)
            for (MergeMode merge : merges)
                out.push_back(
                    {HistogramVariant::Private, copies, ReadPattern::Serial, load, merge, 1});
    return out;
}

class HistogramMatrix : public ::testing::TestWithParam<std::tuple<Variant, int>> {};

TEST_P(HistogramMatrix, BitExactForEveryDistribution) {
    const auto& [v, nchan] = GetParam();
    const DeviceInfo& info = sharedDevice().info();
    if (const std::string why = cannotRun(v, info, nchan); !why.empty())
        GTEST_SKIP() << v.name() << " cannot run on this device: " << why;
    // One read of `nchan` interleaved channels per distribution. For color images the selection
    // rotates so that r, g, b (and a) are each compared with the independent count, while verify
    // checks every channel every time (a single-channel selection counts no luma; the sizes'
    // matrix below covers the channels and luma counted together).
    using C = ChannelSelection;
    const ChannelSelection sels[] = {nchan == 1 ? C::All : C::R, nchan == 1 ? C::All : C::G,
                                     nchan == 1 ? C::All : C::B, nchan == 4 ? C::A : C::All};
    for (int k = 0; k < 4; ++k) {
        const ChannelSelection sel = nchan == 3 && k == 3 ? C::B : sels[k];
        const HostImage img = syntheticImage(kKinds[k], 4097 * 3, nchan, 4097, 11 + k);
        runAndCheck(img, v.request(info, histogramLayout(img, sel).histograms()), sel,
                    syntheticKindName(kKinds[k]));
    }
}

std::string channelsName(int nchan) {
    return nchan == 1 ? "gray" : nchan == 3 ? "rgb" : "rgba";
}

INSTANTIATE_TEST_SUITE_P(AllConfigurations4097x3, HistogramMatrix,
                         ::testing::Combine(::testing::ValuesIn(crossProduct()),
                                            ::testing::Values(1, 3, 4)),
                         [](const auto& p) {
                             return std::get<0>(p.param).name() + "_" +
                                    channelsName(std::get<1>(p.param));
                         });

// The cpu variant with 4 copies of one channel counts each block of 4 KiB in 4 copies or in 2,
// from the repeats in the block's first 128 bytes. An image whose 4 KiB stretches are random
// bytes (2 copies), one value (4), or one value for 200 bytes then random bytes, with a tail
// that fills no block, is counted exactly with both merges, and so is one where every block
// takes the same path (random throughout; one value throughout).
TEST(HistogramCpuCopies, BlocksOfRandomBytesAndRunsCountExactly) {
    const DeviceInfo& info = sharedDevice().info();
    HostImage mixed;
    mixed.width = 37 * 1024 + 13;
    mixed.height = 4;
    mixed.channels = 1;
    mixed.depth = 8;
    mixed.data.resize(mixed.byteCount());
    for (std::size_t i = 0; i < mixed.data.size(); ++i) {
        const std::size_t stretch = i / 4096, at = i % 4096;
        const auto random = std::uint8_t((i * 2654435761u) >> 13);
        mixed.data[i] = stretch % 3 == 1               ? std::uint8_t(stretch)
                        : stretch % 3 == 2 && at < 200 ? std::uint8_t(200 + stretch)
                                                       : random;
    }
    for (MergeMode merge : {MergeMode::Kernel, MergeMode::Atomic}) {
        const Variant v{HistogramVariant::Private, 4,     ReadPattern::Serial,
                        LoadWidth::Uint4,          merge, 1};
        runAndCheck(mixed, v.request(info, 1), ChannelSelection::All, "mixed " + v.name());
        for (SyntheticKind kind : {SyntheticKind::Random, SyntheticKind::Uniform}) {
            const HostImage img = syntheticImage(kind, 65536 + 5, 1, 65536 + 5, 3);
            runAndCheck(img, v.request(info, 1), ChannelSelection::All,
                        std::string(syntheticKindName(kind)) + " " + v.name());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Every awkward size on a representative subset (each variant, each read pattern, load width,
// merge mode and unroll at least once; both private copy counts; the most banks that fit).

std::vector<Variant> subset() {
    using V = HistogramVariant;
    using R = ReadPattern;
    using L = LoadWidth;
    using M = MergeMode;
    return {
        {V::Auto, 0, R::Coalesced, L::Uint4, M::Kernel, 1},
        {V::Naive, 0, R::Coalesced, L::Uint4, M::Kernel, 1},
        {V::Naive, 0, R::Serial, L::Scalar, M::Kernel, 1},
        {V::Local, 0, R::Coalesced, L::Scalar, M::Kernel, 2},
        {V::Local, 0, R::Serial, L::Uint4, M::Atomic, 1},
        {V::Banked, 1, R::Coalesced, L::Scalar, M::Atomic, 1},
        {V::Banked, 2, R::Coalesced, L::Uint4, M::Atomic, 4},
        {V::Banked, 16, R::Coalesced, L::Uint4, M::Kernel, 2},
        {V::Banked, 16, R::Coalesced, L::Uint4, M::Atomic, 8},
        {V::Local, 0, R::Coalesced, L::Scalar, M::Kernel, 8},
        {V::Banked, kMaxBanks, R::Serial, L::Scalar, M::Kernel, 1},
        {V::Private, 1, R::Serial, L::Scalar, M::Atomic, 1},
        {V::Private, 4, R::Serial, L::Uint4, M::Kernel, 1},
    };
}

struct Shape {
    const char* name;
    std::size_t pixels;
    int channels;
    int width; ///< 0: one row
};

void PrintTo(const Shape& s, std::ostream* os) {
    *os << s.name;
}

constexpr std::size_t kNotMultiple = 3 * 65536 + 12345; // odd: no global size divides it

const Shape kShapes[] = {
    {"gray1byte", 1, 1, 0},
    {"gray17", 17, 1, 0},
    {"grayNotMultipleOfGlobalSize", kNotMultiple, 1, 0},
    {"grayPrime1000003", 1000003, 1, 0},
    {"gray6MiBplus5", (std::size_t(6) << 20) + 5, 1, 0},
    {"rgb1pixel", 1, 3, 0},
    {"rgb4097x3", 4097 * 3, 3, 4097},
    {"rgba17", 17, 4, 0},
    {"rgbaPrime100003", 100003, 4, 0},
};

class HistogramSizes : public ::testing::TestWithParam<std::tuple<Variant, Shape>> {};

TEST_P(HistogramSizes, EveryDistributionIsBitExact) {
    const auto& [v, shape] = GetParam();
    const DeviceInfo& info = sharedDevice().info();
    // A colour image's channels and luma are counted together (all), or its luma alone (gray).
    const int histograms = shape.channels == 1 ? 1 : shape.channels + 1;
    if (const std::string why = cannotRun(v, info, histograms); !why.empty())
        GTEST_SKIP() << v.name() << " cannot run on this device: " << why;
    for (int k = 0; k < 4; ++k) {
        const HostImage img =
            syntheticImage(kKinds[k], shape.pixels, shape.channels, shape.width, 3 + k);
        const ChannelSelection sel =
            shape.channels > 1 && k == 1 ? ChannelSelection::Gray : ChannelSelection::All;
        const HistogramRun run =
            runAndCheck(img, v.request(info, histogramLayout(img, sel).histograms()), sel,
                        syntheticKindName(kKinds[k]));
        if (shape.pixels == kNotMultiple) {
            // The claim of this shape: the element count is not a multiple of the global size.
            const std::size_t global = std::size_t(run.config.workGroupSize) *
                                       std::size_t(run.config.groupsPerCu) * info.computeUnits;
            const std::size_t elem = run.config.load == LoadWidth::Uint4 ? 16 : 4;
            EXPECT_NE((kNotMultiple / elem) % global, 0u) << run.config.describe();
            EXPECT_NE(kNotMultiple % elem, 0u);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Subset, HistogramSizes,
                         ::testing::Combine(::testing::ValuesIn(subset()),
                                            ::testing::ValuesIn(kShapes)),
                         [](const auto& p) {
                             return std::get<0>(p.param).name() + "_" + std::get<1>(p.param).name;
                         });

// ---------------------------------------------------------------------------------------------
// Channels, depth, the auto variant, argument checks.

HistogramRunOptions quickOptions(ChannelSelection sel = ChannelSelection::All) {
    HistogramRunOptions o;
    o.channel = sel;
    o.repeats = 1;
    o.verify = true;
    return o;
}

TEST(Histogram, ReferenceHistogramMatchesIndependentCount) {
    const HostImage img = syntheticImage(SyntheticKind::Random, 1001, 3);
    const auto ref = referenceHistogram(img.data.data(), img.data.size(), 3);
    const auto mine = independentCounts(img);
    ASSERT_EQ(ref.size(), 3u * 256);
    const char* names[] = {"r", "g", "b"};
    for (int c = 0; c < 3; ++c)
        for (int b = 0; b < 256; ++b)
            EXPECT_EQ(ref[256 * c + b], mine.at(names[c])[b]) << names[c] << " bin " << b;
}

// The reference's loop takes pixels in pairs, per channel: odd pixel counts, bytes left over
// from a partial pixel, flat runs of one value and channel counts beyond four all count right.
TEST(Histogram, ReferenceHistogramCountsEveryLayout) {
    for (int nchan = 1; nchan <= 5; ++nchan)
        for (std::size_t bytes : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(1001),
                                  std::size_t(4096 + 3)}) {
            std::vector<std::uint8_t> data(bytes);
            for (std::size_t i = 0; i < bytes; ++i)
                data[i] = i < bytes / 2 ? std::uint8_t(200) : std::uint8_t((i * 37) % 251);
            std::vector<std::uint64_t> plain(256 * std::size_t(nchan), 0);
            for (std::size_t i = 0; i < bytes; ++i)
                ++plain[(i % nchan) * 256 + data[i]];
            EXPECT_EQ(referenceHistogram(data.data(), bytes, nchan), plain)
                << nchan << " channels, " << bytes << " bytes";
        }
}

// The counts come first: once, before any timing, verified, and the same as the run returns.
TEST(Histogram, CountsAreReportedOnceBeforeTheTiming) {
    const HostImage img = syntheticImage(SyntheticKind::Skewed, 4097 * 5, 3, 4097);
    HistogramRunOptions o = quickOptions();
    o.repeats = 3;
    std::vector<HistogramRun> early;
    std::vector<std::string> stagesBefore;
    bool counted = false;
    o.countsReady = [&](const HistogramRun& r) {
        early.push_back(r);
        counted = true;
    };
    const HistogramRun run =
        runHistogram(sharedDevice(), img, {}, o, {}, [&](double, const std::string& stage) {
            if (!counted)
                stagesBefore.push_back(stage);
        });
    ASSERT_EQ(early.size(), 1u);
    const HistogramRun& first = early.front();
    EXPECT_TRUE(first.passes.empty()) << "no timing yet";
    EXPECT_EQ(first.ceiling.gbps, 0);
    ASSERT_TRUE(first.verified.has_value());
    EXPECT_TRUE(*first.verified) << first.verifyDetail;
    ASSERT_EQ(first.histograms.size(), run.histograms.size());
    for (std::size_t i = 0; i < run.histograms.size(); ++i) {
        EXPECT_EQ(first.histograms[i].name, run.histograms[i].name);
        EXPECT_EQ(first.histograms[i].counts, run.histograms[i].counts);
    }
    EXPECT_FALSE(run.passes.empty());
    EXPECT_GT(run.ceiling.gbps, 0);
    EXPECT_TRUE(run.verified.value_or(false)) << run.verifyDetail;
    for (const std::string& stage : stagesBefore)
        EXPECT_NE(stage.rfind("timing", 0), 0u) << stage << " came before the counts";

    // Cancelled once the counts are out: they were reported, the run then stops.
    CancelToken token;
    early.clear();
    o.countsReady = [&](const HistogramRun& r) {
        early.push_back(r);
        token.cancel();
    };
    EXPECT_THROW(runHistogram(sharedDevice(), img, {}, o, token), CancelledError);
    EXPECT_EQ(early.size(), 1u);
}

TEST(Histogram, ColorImageGivesEveryChannelAndLuma) {
    for (int channels : {3, 4}) {
        const HostImage img =
            syntheticImage(SyntheticKind::Random, 4097 * 3, channels, 4097, 5 + channels);
        const HistogramRun run = runAndCheck(img, {}, ChannelSelection::All, img.source);
        EXPECT_EQ(run.channels, channels);
        EXPECT_EQ(run.width, 4097);
        EXPECT_EQ(run.height, 3);
        EXPECT_EQ(run.bytes, img.data.size());
        bool lumaNote = false;
        for (const auto& n : run.notes)
            lumaNote = lumaNote || n.find("luma") != std::string::npos;
        EXPECT_TRUE(lumaNote) << "a color run says that gray is luma";
    }
}

/// `image`'s rows handed to a ReferenceCounter through a RowPipe in bands of `band` rows, as a
/// decoder does.
std::shared_ptr<const HistogramReference> countedWhileDecoding(const HostImage& image, int band) {
    ReferenceCounter counter;
    RowPipe pipe({counter.consumer()});
    pipe.begin({image.width, image.height, image.channels, 1});
    for (int end = band; end < image.height + band; end += band)
        pipe.rows(image.data.data(), std::min(end, image.height));
    pipe.end(true);
    return counter.result(pipe.complete());
}

// The reference a viewer counts while a JPEG decodes is the one the run would count: each
// channel and the luma of gray, RGB and RGBA images. The run verifies against it (a count
// changed in it is caught), and ignores one of another image's size.
TEST(Histogram, ReferenceCountedWhileDecodingIsTheRunsReference) {
    for (int channels : {1, 3, 4}) {
        const HostImage img =
            syntheticImage(SyntheticKind::Skewed, 4097 * 5, channels, 4097, 11 + channels);
        const auto counted = countedWhileDecoding(img, 2);
        ASSERT_TRUE(counted) << channels;
        const auto expected = independentCounts(img);
        const char* names[] = {"r", "g", "b", "a"};
        for (int c = 0; c < channels; ++c) {
            const std::string name = channels == 1 ? "gray" : names[c];
            const Counts& want = expected.at(name);
            EXPECT_TRUE(
                std::equal(want.begin(), want.end(), counted->channelCounts.begin() + 256 * c))
                << name << " of " << channels;
        }
        const Counts& gray = expected.at("gray");
        EXPECT_TRUE(std::equal(gray.begin(), gray.end(), counted->grayCounts.begin()))
            << "gray of " << channels;

        HistogramRunOptions o = quickOptions();
        o.reference = counted;
        const HistogramRun run = runHistogram(sharedDevice(), img, {}, o);
        EXPECT_TRUE(run.verified.value_or(false));
        EXPECT_NE(std::find(run.notes.begin(), run.notes.end(),
                            "CPU reference counted while the image was decoded"),
                  run.notes.end());
        auto wrong = std::make_shared<HistogramReference>(*counted);
        ++wrong->grayCounts[7];
        o.reference = wrong;
        const HistogramRun caught = runHistogram(sharedDevice(), img, {}, o);
        EXPECT_FALSE(caught.verified.value_or(true)) << channels;
        EXPECT_NE(caught.verifyDetail.find("bin 7"), std::string::npos) << caught.verifyDetail;
        ++wrong->height; // another image's: the run counts its own reference
        EXPECT_TRUE(runHistogram(sharedDevice(), img, {}, o).verified.value_or(false));
    }
}

// What one read counts: a colour image's channels and luma together (all), its luma alone
// (gray) or its channels alone (a colour channel), each in one pass over all of its bytes;
// no separate luma conversion.
TEST(Histogram, ColourChannelsAndLumaInOneRead) {
    EXPECT_EQ(HistogramLayout(1).names(), "gray");
    EXPECT_EQ(HistogramLayout(3, true).names(), "r,g,b,gray");
    EXPECT_EQ(HistogramLayout(4, true).bins(), 1280);
    EXPECT_EQ(HistogramLayout(4, true, false).names(), "gray");
    EXPECT_EQ(HistogramLayout(4, true, false).bins(), 256);
    using C = ChannelSelection;
    const struct {
        int channels;
        C sel;
        const char* pass;
    } cases[] = {{3, C::All, "histogram (r,g,b,gray)"}, {4, C::All, "histogram (r,g,b,a,gray)"},
                 {3, C::Gray, "histogram (gray)"},      {4, C::Gray, "histogram (gray)"},
                 {4, C::G, "histogram (r,g,b,a)"},      {1, C::All, "histogram (gray)"}};
    for (const auto& c : cases) {
        const HostImage img = syntheticImage(SyntheticKind::Skewed, 1001 * 7, c.channels, 1001);
        const HistogramRun run = runHistogram(sharedDevice(), img, {}, quickOptions(c.sel));
        ASSERT_EQ(run.passes.size(), 1u) << c.pass;
        EXPECT_EQ(run.passes[0].what, c.pass);
        EXPECT_EQ(run.passes[0].bytes, img.byteCount()) << c.pass;
        EXPECT_TRUE(run.verified.value_or(false)) << c.pass << ": " << run.verifyDetail;
        EXPECT_EQ(run.histograms.size(),
                  c.sel == C::All ? std::size_t(c.channels + (c.channels > 1)) : std::size_t(1))
            << c.pass;
    }
}

// A decode that stops, a consumer that fails or rows that never all come give no reference;
// a pipe no decoder used goes away without waiting.
TEST(Histogram, NoReferenceFromAnIncompleteDecode) {
    const HostImage img = syntheticImage(SyntheticKind::Random, 300 * 8, 3, 300, 3);
    {
        ReferenceCounter counter;
        RowPipe pipe({counter.consumer()});
        pipe.begin({img.width, img.height, 3, 1});
        pipe.rows(img.data.data(), 4);
        pipe.end(false);
        EXPECT_FALSE(pipe.complete());
        EXPECT_FALSE(counter.result(pipe.complete()));
    }
    {
        ReferenceCounter counter;
        RowPipe::Consumer failing{nullptr, [](const std::uint8_t*, int, int end) {
                                      if (end > 4)
                                          throw std::runtime_error("no memory");
                                  }};
        RowPipe pipe({counter.consumer(), failing});
        pipe.begin({img.width, img.height, 3, 1});
        pipe.rows(img.data.data(), 4);
        pipe.rows(img.data.data(), 8);
        pipe.end(true);
        EXPECT_FALSE(pipe.complete());
    }
    {
        RowPipe unused({});
        EXPECT_FALSE(unused.complete());
    }
}

TEST(Histogram, EverySingleChannelSelection) {
    const HostImage rgba = syntheticImage(SyntheticKind::Skewed, 999, 4);
    for (auto sel : {ChannelSelection::R, ChannelSelection::G, ChannelSelection::B,
                     ChannelSelection::A, ChannelSelection::Gray})
        runAndCheck(rgba, {}, sel, "rgba selection " + std::to_string(int(sel)));
    const HostImage gray = syntheticImage(SyntheticKind::Gradient, 999, 1);
    runAndCheck(gray, {}, ChannelSelection::Gray, "gray image, --channel gray");
}

TEST(Histogram, ChannelSelectionRules) {
    const HostImage gray = syntheticImage(SyntheticKind::Random, 64, 1);
    const HostImage rgb = syntheticImage(SyntheticKind::Random, 64, 3);
    for (auto sel :
         {ChannelSelection::R, ChannelSelection::G, ChannelSelection::B, ChannelSelection::A}) {
        try {
            runHistogram(sharedDevice(), gray, {}, quickOptions(sel));
            ADD_FAILURE() << "a gray image with a color channel selection must be refused";
        } catch (const UsageError& e) {
            EXPECT_EQ(e.parameter(), "--channel");
        }
    }
    try {
        runHistogram(sharedDevice(), rgb, {}, quickOptions(ChannelSelection::A));
        ADD_FAILURE() << "an RGB image has no alpha channel";
    } catch (const UsageError& e) {
        EXPECT_EQ(e.parameter(), "--channel");
    }
}

HostImage sixteenBit(int channels, std::size_t pixels) {
    HostImage img;
    img.width = static_cast<int>(pixels);
    img.height = 1;
    img.channels = channels;
    img.depth = 16;
    img.source = "16-bit test image";
    const HostImage bytes = makeSynthetic(SyntheticKind::Random, pixels * channels * 2, 21);
    img.data = bytes.data;
    return img;
}

TEST(Histogram, SixteenBitImagesUseTheHighByteAndSaySo) {
    for (int channels : {1, 3}) {
        const HostImage img = sixteenBit(channels, 1237);
        const HistogramRun run = runAndCheck(img, {}, ChannelSelection::All, img.source);
        EXPECT_EQ(run.sourceDepth, 16);
        EXPECT_EQ(run.bytes, img.pixelCount() * channels) << "8-bit bytes histogrammed";
        bool noted = false;
        for (const auto& n : run.notes)
            noted = noted || (n.find("16-bit") != std::string::npos &&
                              n.find("high byte") != std::string::npos);
        EXPECT_TRUE(noted) << "run.notes must explain the 16-bit reduction";
    }
}

TEST(Histogram, AutoVariantResolvesToTheCpuVariantOnCpuDevices) {
    const HostImage img = syntheticImage(SyntheticKind::Random, 10007, 1);
    const HistogramRun run = runAndCheck(img, {}, ChannelSelection::All, "auto");
    if (sharedDevice().info().type == DeviceType::Cpu) {
        EXPECT_EQ(run.config.variant, HistogramVariant::Private);
        EXPECT_EQ(run.config.read, ReadPattern::Serial);
        EXPECT_EQ(run.config.chosenBy, "cpu heuristic");
    } else {
        EXPECT_EQ(run.config.chosenBy.rfind("autotune", 0), 0u) << run.config.chosenBy;
    }
}

TEST(Histogram, AutotuneRunsOnAnyDeviceAndKeepsWhatTheRequestFixes) {
    // On GPUs `auto` runs this tune; on PoCL `auto` takes the cpu heuristic, so the tune is
    // exercised here directly, with the request narrowing it to two candidates (groups per
    // compute unit 1 or 2 would be tuned; fixed to 1 here, unroll left open: 1, 2, 4, 8).
    HistogramRequest r;
    r.banks = 2;
    r.workGroupSize = 16;
    r.groupsPerCu = 1;
    const HistogramConfig c = autotuneHistogram(sharedDevice(), r, 3, 1000);
    EXPECT_EQ(c.variant, HistogramVariant::Banked);
    EXPECT_EQ(c.banks, 2);
    EXPECT_EQ(c.workGroupSize, 16);
    EXPECT_EQ(c.groupsPerCu, 1);
    EXPECT_EQ(c.read, ReadPattern::Coalesced);
    EXPECT_EQ(c.merge, MergeMode::Atomic);
    EXPECT_TRUE(c.unroll == 1 || c.unroll == 2 || c.unroll == 4 || c.unroll == 8) << c.unroll;
    EXPECT_EQ(c.chosenBy.rfind("autotune: best of 4 (the best 4 timed again) on 1 MiB", 0), 0u)
        << c.chosenBy;
    // Remembered: the same request at the same size class gives the same configuration.
    const HistogramConfig again = autotuneHistogram(sharedDevice(), r, 3, 2000);
    EXPECT_EQ(again.describe(), c.describe());
    EXPECT_EQ(again.chosenBy, c.chosenBy);
    // And the tuned configuration counts exactly.
    HistogramRequest tuned;
    tuned.variant = c.variant;
    tuned.banks = c.banks;
    tuned.workGroupSize = c.workGroupSize;
    tuned.groupsPerCu = c.groupsPerCu;
    tuned.unroll = c.unroll;
    tuned.merge = c.merge;
    const HostImage img = syntheticImage(SyntheticKind::Skewed, 4097, 3);
    HistogramRunOptions o = quickOptions();
    o.verify = true;
    const HistogramRun run = runHistogram(sharedDevice(), img, tuned, o);
    EXPECT_TRUE(run.verified.value_or(false)) << run.verifyDetail;
}

TEST(Histogram, InputsLargerThanOneDeviceBufferRunInPiecesExactly) {
    // Images larger than the device's largest buffer are histogrammed in pieces; the limit is
    // lowered here so that the path runs on small data: every channel, gray (luma per piece),
    // the cpu and the banked variants, a last piece that is short.
    const HostImage img = syntheticImage(SyntheticKind::Skewed, 4097 * 3, 3, 0, 5);
    const auto expected = independentCounts(img);
    for (HistogramVariant v : {HistogramVariant::Private, HistogramVariant::Banked}) {
        HistogramRequest r;
        r.variant = v;
        HistogramRunOptions o = quickOptions();
        o.maxChunkBytes = 4800; // 1600 pixels: 8 pieces, the last one short
        const HistogramRun run = runHistogram(sharedDevice(), img, r, o);
        EXPECT_TRUE(run.verified.value_or(false)) << run.verifyDetail;
        bool noted = false;
        for (const auto& n : run.notes)
            noted = noted || n.find("processed in 8 pieces") != std::string::npos;
        EXPECT_TRUE(noted) << "no note about the pieces";
        for (const auto& h : run.histograms)
            EXPECT_TRUE(sameCounts(h.name, h.counts, expected.at(h.name)));
    }
}

TEST(Histogram, CpuVariantWithCoalescedReadsIsAUsageError) {
    HistogramRequest r;
    r.variant = HistogramVariant::Private;
    r.read = ReadPattern::Coalesced;
    const HostImage img = syntheticImage(SyntheticKind::Random, 64, 1);
    try {
        runHistogram(sharedDevice(), img, r, quickOptions());
        ADD_FAILURE() << "cpu + coalesced must be refused";
    } catch (const UsageError& e) {
        EXPECT_EQ(e.parameter(), "--read");
    }
}

TEST(Histogram, BadImagesAndRepeatsAreRefused) {
    HostImage bad = syntheticImage(SyntheticKind::Random, 64, 1);
    bad.data.pop_back();
    EXPECT_THROW(runHistogram(sharedDevice(), bad, {}, quickOptions()), InputError);
    const HostImage ok = syntheticImage(SyntheticKind::Random, 64, 1);
    HistogramRunOptions o = quickOptions();
    o.repeats = 0;
    try {
        runHistogram(sharedDevice(), ok, {}, o);
        ADD_FAILURE() << "0 repeats must be refused";
    } catch (const UsageError& e) {
        EXPECT_EQ(e.parameter(), "--repeat");
    }
}

TEST(Histogram, CancelledTokenStopsTheRun) {
    const HostImage img = syntheticImage(SyntheticKind::Random, 4096, 1);
    CancelToken token;
    token.cancel();
    EXPECT_THROW(runHistogram(sharedDevice(), img, {}, quickOptions(), token), CancelledError);
}

TEST(Histogram, ProgressFractionsRiseToOne) {
    const HostImage img = syntheticImage(SyntheticKind::Random, 4096, 3);
    std::vector<double> fractions;
    runHistogram(sharedDevice(), img, {}, quickOptions(), {},
                 [&](double f, const std::string&) { fractions.push_back(f); });
    ASSERT_FALSE(fractions.empty());
    EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
    EXPECT_DOUBLE_EQ(fractions.back(), 1.0);
}

// ---------------------------------------------------------------------------------------------
// End to end (runHistogramEndToEnd): streamed in chunks, verified against the CPU.

EndToEndRun endToEnd(const HostImage& img, int nchan, std::size_t chunkBytes) {
    EndToEndOptions o;
    o.chunkBytes = chunkBytes;
    o.repeats = 1;
    o.verify = true;
    o.nchan = nchan;
    return runHistogramEndToEnd(sharedDevice(), img.data.data(), img.data.size(), {}, o);
}

TEST(HistogramEndToEnd, ChunkedStreamingIsBitExact) {
    for (int nchan : {1, 3, 4}) {
        const std::size_t pixels = 333337; // odd: the last chunk is short
        const HostImage img = syntheticImage(SyntheticKind::Skewed, pixels, nchan, 0, 17);
        for (std::size_t chunk : {std::size_t(64) << 10, std::size_t(32) << 20}) {
            const EndToEndRun run = endToEnd(img, nchan, chunk);
            SCOPED_TRACE(std::to_string(nchan) + " channels, chunks of " + std::to_string(chunk));
            EXPECT_TRUE(run.verified.value_or(false)) << run.verifyDetail;
            EXPECT_EQ(run.bytes, img.data.size());
            if (run.chunks > 1) // later chunks must start on whole uint4s and whole pixels
                EXPECT_EQ(run.chunkBytes % 48, 0u);
            else // an input that fits in one chunk is sent whole
                EXPECT_EQ(run.chunkBytes, img.data.size());
            EXPECT_EQ(run.chunks, (img.data.size() + run.chunkBytes - 1) / run.chunkBytes);
            if (chunk < img.data.size()) {
                EXPECT_GT(run.chunks, 1u);
            }
            const auto expected = independentCounts(img);
            static const char* names[] = {"r", "g", "b", "a"};
            ASSERT_EQ(run.counts.size(), 256u * nchan);
            for (int c = 0; c < nchan; ++c) {
                Counts got{};
                std::copy_n(run.counts.begin() + 256 * c, 256, got.begin());
                const std::string name = nchan == 1 ? "gray" : names[c];
                EXPECT_TRUE(sameCounts(name, got, expected.at(name)));
            }
            EXPECT_GT(run.streamPinned.medianMs, 0.0);
        }
    }
}

TEST(HistogramEndToEnd, InputSmallerThanOneChunkUnit) {
    // Guards a bug: runHistogramEndToEnd rounds the chunk down to 48 bytes
    // (min(chunkBytes, bytes) / 48 * 48), so any input under 48 bytes is refused with
    // UsageError("--chunk") although the person set no chunk size and the data is valid.
    const HostImage img = syntheticImage(SyntheticKind::Random, 17, 1);
    try {
        const EndToEndRun run = endToEnd(img, 1, std::size_t(32) << 20);
        EXPECT_TRUE(run.verified.value_or(false)) << run.verifyDetail;
        EXPECT_EQ(run.chunks, 1u);
    } catch (const UsageError& e) {
        ADD_FAILURE() << "a 17-byte input was refused: " << e.what();
    }
}

TEST(HistogramEndToEnd, RefusesEmptyInputAndZeroRepeats) {
    EndToEndOptions o;
    const std::uint8_t byte = 1;
    EXPECT_THROW(runHistogramEndToEnd(sharedDevice(), &byte, 0, {}, o), InputError);
    o.repeats = 0;
    try {
        runHistogramEndToEnd(sharedDevice(), &byte, 1, {}, o);
        ADD_FAILURE() << "0 repeats accepted";
    } catch (const UsageError& e) {
        EXPECT_EQ(e.parameter(), "--repeat");
    }
}

// ---------------------------------------------------------------------------------------------
// Stage table.

HistogramRun runStages(HistogramRequest r) {
    HistogramRunOptions o = quickOptions();
    o.stages = true;
    o.repeats = 2;
    const HostImage img = syntheticImage(SyntheticKind::Random, std::size_t(1) << 20, 1);
    return runHistogram(sharedDevice(), img, r, o);
}

TEST(HistogramStages, FourRowsWithPositiveTimes) {
    for (auto variant : {HistogramVariant::Banked, HistogramVariant::Private}) {
        HistogramRequest r;
        r.variant = variant;
        const HistogramRun run = runStages(r);
        SCOPED_TRACE(run.config.describe());
        EXPECT_TRUE(run.verified.value_or(false)) << run.verifyDetail;
        ASSERT_EQ(run.stages.size(), 4u);
        const char* names[] = {"read-only", "+scatter", "+local reduce", "+global merge"};
        for (int s = 0; s < 4; ++s) {
            EXPECT_EQ(run.stages[s].stage, names[s]);
            EXPECT_TRUE(run.stages[s].applicable);
            EXPECT_GT(run.stages[s].stats.medianMs, 0.0) << names[s];
            EXPECT_GT(run.stages[s].gbps, 0.0) << names[s];
        }
    }
}

TEST(HistogramStages, NaiveHasNoScatterOrLocalReduceRows) {
    HistogramRequest r;
    r.variant = HistogramVariant::Naive;
    const HistogramRun run = runStages(r);
    EXPECT_TRUE(run.verified.value_or(false)) << run.verifyDetail;
    ASSERT_EQ(run.stages.size(), 4u);
    EXPECT_TRUE(run.stages[0].applicable);
    EXPECT_FALSE(run.stages[1].applicable);
    EXPECT_FALSE(run.stages[2].applicable);
    EXPECT_TRUE(run.stages[3].applicable);
    EXPECT_GT(run.stages[0].stats.medianMs, 0.0);
    EXPECT_GT(run.stages[3].stats.medianMs, 0.0);
}

TEST(HistogramStages, NoStageTableUnlessAsked) {
    const HostImage img = syntheticImage(SyntheticKind::Random, 4096, 1);
    const HistogramRun run = runHistogram(sharedDevice(), img, {}, quickOptions());
    EXPECT_TRUE(run.stages.empty());
    ASSERT_FALSE(run.passes.empty());
    EXPECT_GT(run.ceiling.bytes, 0u);
}

} // namespace
} // namespace histlab

namespace histlab {
namespace {

// ---------------------------------------------------------------------------------------------
// Regions (--region, and the window's region selection to come).

TEST(Region, ParsesFourWholeNumbersAndRefusesTheRest) {
    const Region r = parseRegion("3,4,10,20");
    EXPECT_EQ(r.x, 3);
    EXPECT_EQ(r.y, 4);
    EXPECT_EQ(r.width, 10);
    EXPECT_EQ(r.height, 20);
    for (const char* bad :
         {"", "1,2,3", "1,2,3,4,5", "a,b,c,d", "1,2,0,4", "1,2,3,-4", "1;2;3;4", "1,2,3,4 "}) {
        try {
            parseRegion(bad);
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const UsageError& e) {
            EXPECT_EQ(e.parameter(), "--region") << bad;
        }
    }
}

TEST(Region, CropCopiesExactlyThosePixels) {
    for (int channels : {1, 3, 4}) {
        const HostImage img = test::syntheticImage(SyntheticKind::Random, 37 * 23, channels, 37, 9);
        const Region r{5, 7, 11, 13};
        const HostImage crop = cropImage(img, r);
        ASSERT_EQ(crop.width, 11);
        ASSERT_EQ(crop.height, 13);
        ASSERT_EQ(crop.channels, channels);
        ASSERT_EQ(crop.data.size(), std::size_t(11 * 13 * channels));
        for (int y = 0; y < 13; ++y)
            for (int x = 0; x < 11; ++x)
                for (int c = 0; c < channels; ++c)
                    ASSERT_EQ(crop.data[(y * 11 + x) * channels + c],
                              img.data[((y + 7) * 37 + x + 5) * channels + c]);
        EXPECT_NE(crop.source.find("[region 5,7 11x13]"), std::string::npos) << crop.source;
    }
}

TEST(Region, CropKeepsSixteenBitPixelsWhole) {
    std::vector<std::uint16_t> values; // value i * 0x0101 at pixel i
    for (int i = 0; i < 8; ++i)
        values.push_back(std::uint16_t(i * 0x0101));
    const HostImage img = test::grayImage(4, 16, values);
    const HostImage crop = cropImage(img, Region{1, 1, 2, 1});
    ASSERT_EQ(crop.data.size(), 4u);
    EXPECT_EQ(crop.data[0], 5);
    EXPECT_EQ(crop.data[2], 6);
}

TEST(Region, OutsideOrEmptyRegionsAreUsageErrors) {
    const HostImage img = test::syntheticImage(SyntheticKind::Random, 10 * 10, 3, 10);
    for (Region r : {Region{0, 0, 11, 1}, Region{9, 9, 2, 1}, Region{-1, 0, 1, 1},
                     Region{0, 10, 1, 1}, Region{0, 0, 0, 5}}) {
        try {
            cropImage(img, r);
            ADD_FAILURE() << "accepted " << r.x << "," << r.y << " " << r.width << "x" << r.height;
        } catch (const UsageError& e) {
            EXPECT_EQ(e.parameter(), "--region");
        }
    }
    EXPECT_NO_THROW(cropImage(img, Region{0, 0, 10, 10})); // the whole image
    EXPECT_NO_THROW(cropImage(img, Region{9, 9, 1, 1}));   // the last pixel
}

TEST(Region, HistogramOfARegionCountsOnlyItsPixels) {
    // Counted straight from the original image's pixels inside the rectangle, not from the crop.
    const HostImage img = test::syntheticImage(SyntheticKind::Skewed, 61 * 47, 4, 61, 3);
    const Region r{13, 5, 29, 31};
    std::map<std::string, test::Counts> expected;
    const char* names[] = {"r", "g", "b", "a"};
    for (int y = r.y; y < r.y + r.height; ++y)
        for (int x = r.x; x < r.x + r.width; ++x) {
            const std::uint8_t* p = &img.data[(std::size_t(y) * 61 + x) * 4];
            for (int c = 0; c < 4; ++c)
                ++expected[names[c]][p[c]];
            ++expected["gray"][lumaOf(p[0], p[1], p[2])];
        }
    HistogramRunOptions o;
    o.repeats = 1;
    o.verify = true;
    const HistogramRun run = runHistogram(test::sharedDevice(), cropImage(img, r), {}, o);
    EXPECT_TRUE(run.verified.value_or(false)) << run.verifyDetail;
    ASSERT_EQ(run.histograms.size(), 5u);
    for (const auto& h : run.histograms)
        EXPECT_EQ(h.counts, expected.at(h.name)) << h.name;
}

} // namespace
} // namespace histlab
