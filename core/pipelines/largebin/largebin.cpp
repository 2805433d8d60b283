#include "pipelines/largebin/largebin.h"

#include "pipelines/largebin/kernelargs.h"
#include "runtime/enumtable.h"

#include "pipelines/options.h"
#include "report/table.h"
#include "runtime/buildoptions.h"
#include "runtime/errors.h"
#include "runtime/log.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>

namespace histlab {

namespace {

constexpr std::size_t kRowBudgetBytes = std::size_t(256) << 20; // private/tagged matrices
constexpr std::uint32_t kTaggedMaxCount = (1u << 27) - 1;
constexpr std::size_t kMaxAutoSlices = 8; // auto: 16-bit counters up to this many slices
constexpr std::size_t kTuneSamples = std::size_t(1) << 26; // auto times its candidates on these
// local16: a counter that reached this after a round goes to the global histogram; a round is at
// most 65,536 - kLocal16Keep samples, so no 16-bit counter wraps (kernels/largebin.cl).
constexpr std::size_t kLocal16Keep = 4096;

template <typename T> T sampleAt(const SamplePlane& plane, std::size_t i) {
    T v;
    std::memcpy(&v, plane.bytes.data() + i * sizeof(T), sizeof(T));
    return v;
}

template <typename T> void storeSample(std::vector<std::uint8_t>& bytes, std::size_t i, T v) {
    std::memcpy(bytes.data() + i * sizeof(T), &v, sizeof(T));
}

bool isInteger(SampleType t) {
    return t != SampleType::F32;
}

double typeTop(SampleType t) {
    return t == SampleType::U8 ? 256.0 : 65536.0;
}

/// The float32 constants of NumPy's steps for float32 data.
struct FloatRule {
    float lo, hi, denom, bins;
};

FloatRule floatRule(const BinSpec& spec) {
    return {static_cast<float>(spec.lo), static_cast<float>(spec.hi),
            static_cast<float>(spec.hi - spec.lo), static_cast<float>(spec.bins)};
}

} // namespace

double sampleValue(const SamplePlane& plane, std::size_t i) {
    switch (plane.type) {
    case SampleType::U8:
        return plane.bytes[i];
    case SampleType::U16:
        return sampleAt<std::uint16_t>(plane, i);
    case SampleType::F32:
        return sampleAt<float>(plane, i);
    }
    return 0;
}

namespace {

const EnumTable<SampleType>& sampleTypes() {
    static const EnumTable<SampleType> table(
        "--type", "a sample type",
        {{SampleType::U8, "u8"}, {SampleType::U16, "u16"}, {SampleType::F32, "f32"}});
    return table;
}

} // namespace

SampleType parseSampleType(const std::string& name) {
    return sampleTypes().parse(name);
}

const char* sampleTypeName(SampleType value) {
    return sampleTypes().name(value);
}

std::size_t sampleBytes(SampleType type) {
    return type == SampleType::U8 ? 1 : type == SampleType::U16 ? 2 : 4;
}

std::vector<std::string> imageChannelNames() {
    return {"gray", "r", "g", "b", "a"};
}

void checkImageChannel(int channels, const std::string& channel, const std::string& source) {
    if (channel == "gray")
        return;
    const std::vector<std::string> names = imageChannelNames();
    if (std::find(names.begin(), names.end(), channel) == names.end())
        throw UsageError("--channel", "'" + channel + "' is not one of gray, r, g, b, a");
    if (channels == 1 || int(std::string("rgba").find(channel[0])) >= channels)
        throw UsageError("--channel", source + " has no channel '" + channel + "' (" +
                                          std::to_string(channels) + " channel(s))");
}

std::vector<std::uint8_t> maskBytes(const HostImage& mask, int width, int height,
                                    const std::string& whose) {
    if (mask.width != width || mask.height != height || mask.channels != 1)
        throw InputError(mask.source + ": a mask is one channel of " + whose + " (" +
                         std::to_string(width) + " x " + std::to_string(height) + "), not " +
                         std::to_string(mask.width) + " x " + std::to_string(mask.height) +
                         " with " + std::to_string(mask.channels) + " channel(s)");
    const SamplePlane plane = imagePlane(mask, "gray");
    std::vector<std::uint8_t> bytes(plane.count());
    for (std::size_t i = 0; i < plane.count(); ++i)
        bytes[i] = sampleValue(plane, i) != 0 ? 1 : 0;
    return bytes;
}

SamplePlane imagePlane(const HostImage& image, const std::string& channel) {
    validateImage(image);
    checkImageChannel(image.channels, channel, image.source);
    SamplePlane plane;
    plane.type = image.isFloat()     ? SampleType::F32
                 : image.depth == 16 ? SampleType::U16
                                     : SampleType::U8;
    plane.source = image.source;
    const std::size_t pixels = image.pixelCount(), bytes = sampleBytes(plane.type);
    plane.bytes.resize(pixels * bytes);
    const std::size_t stride = std::size_t(image.channels) * bytes;
    if (channel != "gray" || image.channels == 1) {
        // One channel copied out of the interleaved pixels.
        const std::size_t c = channel == "gray" ? 0 : std::string("rgba").find(channel[0]);
        if (channel != "gray")
            plane.source += " (" + channel + ")";
        const std::uint8_t* from = image.data.data() + c * bytes;
        for (std::size_t i = 0; i < pixels; ++i, from += stride)
            std::memcpy(plane.bytes.data() + i * bytes, from, bytes);
        return plane;
    }
    plane.source += " (luma)";
    const std::uint8_t* p = image.data.data();
    if (image.isFloat()) {
        // OpenCV's float weights for float data, in float, in the order its scalar RGB2Gray
        // adds them (its SIMD path fuses them: within one float step of this).
        for (std::size_t i = 0; i < pixels; ++i, p += stride) {
            float rgb[3];
            std::memcpy(rgb, p, sizeof rgb);
            storeSample(plane.bytes, i, rgb[2] * 0.114f + rgb[1] * 0.587f + rgb[0] * 0.299f);
        }
        return plane;
    }
    // Integers: OpenCV's fixed-point weights (lumaOf), for 16-bit values as well (the products
    // stay below 2^32).
    for (std::size_t i = 0; i < pixels; ++i, p += stride) {
        std::uint32_t v[3];
        for (int c = 0; c < 3; ++c) {
            if (bytes == 1) {
                v[c] = p[c];
            } else {
                std::uint16_t w;
                std::memcpy(&w, p + 2 * c, 2);
                v[c] = w;
            }
        }
        const std::uint32_t luma = (v[0] * 9798u + v[1] * 19235u + v[2] * 3735u + (1u << 14)) >> 15;
        if (bytes == 1)
            plane.bytes[i] = std::uint8_t(luma);
        else
            storeSample(plane.bytes, i, std::uint16_t(luma));
    }
    return plane;
}

namespace {

const EnumTable<LargeBinData>& largeBinDatas() {
    static const EnumTable<LargeBinData> table("--data", "a data kind",
                                               {{LargeBinData::Random, "random"},
                                                {LargeBinData::Skewed, "skewed"},
                                                {LargeBinData::Smooth, "smooth"}});
    return table;
}

} // namespace

LargeBinData parseLargeBinData(const std::string& name) {
    return largeBinDatas().parse(name);
}

const char* largeBinDataName(LargeBinData value) {
    return largeBinDatas().name(value);
}

SamplePlane makeLargeBinData(LargeBinData data, SampleType type, std::size_t samples,
                             std::uint64_t seed) {
    SamplePlane plane;
    plane.type = type;
    plane.bytes.resize(samples * sampleBytes(type));
    plane.source = std::string("synthetic ") + largeBinDataName(data) + " " + sampleTypeName(type);
    std::mt19937_64 rng(seed);
    // A value in [0, 1) for each sample; integers scale it to the type's range.
    const double top = isInteger(type) ? typeTop(type) : 1.0;
    const double skewValue = 0.4 * top;
    for (std::size_t i = 0; i < samples; ++i) {
        const std::uint64_t r = rng();
        double u = double(r >> 11) * 0x1.0p-53;
        if (data == LargeBinData::Skewed && (r & 0xFF) < 230) // 230/256 ~ 90 %
            u = skewValue / top;
        else if (data == LargeBinData::Smooth)
            u = std::fmod(0.5 + 0.45 * std::sin(double(i) * 1e-6) + 0.002 * (u - 0.5) + 1.0, 1.0);
        const double v = u * top;
        if (type == SampleType::U8)
            plane.bytes[i] = std::uint8_t(std::min(v, 255.0));
        else if (type == SampleType::U16)
            storeSample(plane.bytes, i, std::uint16_t(std::min(v, 65535.0)));
        else
            storeSample(plane.bytes, i, float(std::min(u, 0x1.fffffep-1)));
    }
    return plane;
}

void checkSyntheticBytes(const DeviceInfo& device, std::size_t planeBytes, int planes,
                         const std::string& option) {
    if (planeBytes > device.maxAllocBytes)
        throw UsageError(option, std::to_string(planeBytes) +
                                     " bytes a plane exceed one buffer of " + device.name + " (" +
                                     std::to_string(device.maxAllocBytes) + " bytes)");
    checkSyntheticSize(option, double(planeBytes) * planes);
}

BinRange parseBinRange(const std::string& text, const std::string& option) {
    const std::size_t comma = text.find(',');
    auto number = [&](const std::string& s) {
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v))
            throw UsageError(option, "'" + text + "' is not LO,HI (two finite numbers)");
        return v;
    };
    if (comma == std::string::npos)
        throw UsageError(option, "'" + text + "' is not LO,HI (two finite numbers)");
    const BinRange r{number(text.substr(0, comma)), number(text.substr(comma + 1))};
    if (!(r.lo < r.hi))
        throw UsageError(option, "'" + text + "': LO must be below HI");
    return r;
}

BinRange autoRange(const SamplePlane& plane) {
    if (isInteger(plane.type))
        return {0, typeTop(plane.type)};
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    for (std::size_t i = 0; i < plane.count(); ++i) {
        const float v = sampleAt<float>(plane, i);
        if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    if (lo > hi)
        return {0, 1};
    if (lo == hi) {
        // Half a unit either side, or more where that is below the value's precision; within
        // float, so that the edges stay finite for a value at +-FLT_MAX.
        const double top = std::numeric_limits<float>::max();
        const double d = std::max(0.5, std::fabs(double(lo)) / (1 << 20));
        return {std::max(double(lo) - d, -top), std::min(double(hi) + d, top)};
    }
    return {lo, hi};
}

std::vector<int> parseBinCounts(const std::string& text) {
    std::vector<int> bins;
    for (const std::string& b : splitList(text))
        bins.push_back(int(parseWholeNumber("--bins", b, 1, kMaxBins)));
    if (bins.empty())
        throw UsageError("--bins", "no bin count given");
    return bins;
}

int defaultBins(SampleType type) {
    return type == SampleType::U16 ? kMaxBins : 256;
}

BinSpec makeBinSpec(const SamplePlane& plane, int bins, const std::optional<BinRange>& range,
                    const std::string& rangeOption) {
    if (bins < 1 || bins > kMaxBins)
        throw UsageError("--bins", std::to_string(bins) + " is not from 1 to 65536");
    BinSpec spec;
    spec.type = plane.type;
    spec.bins = bins;
    const BinRange r = range ? *range : autoRange(plane);
    if (isInteger(plane.type)) {
        const double top = typeTop(plane.type);
        if (r.lo != std::floor(r.lo) || r.hi != std::floor(r.hi) || r.lo < 0 || r.hi > top)
            throw UsageError(rangeOption, "for " + std::string(sampleTypeName(plane.type)) +
                                              " samples LO and HI are whole numbers from 0 to " +
                                              std::to_string(int(top)));
    } else if (range && (std::fabs(r.lo) > 3.0e38 || std::fabs(r.hi) > 3.0e38)) {
        throw UsageError(rangeOption, "beyond the range of float");
    } else if (range && !std::isfinite(static_cast<float>(r.hi) - static_cast<float>(r.lo))) {
        // Each bound fits a float but HI - LO does not: (x - LO) / (HI - LO) would be x / inf,
        // every sample in one bin, and the reference would agree.
        throw UsageError(rangeOption, "HI - LO = " + numberText(r.hi - r.lo) +
                                          " is wider than a float holds (3.4e38): the bins "
                                          "are computed in float, as NumPy's for float32 data");
    }
    // The automatic range of float samples is theirs, whatever their size; the device bins
    // x as (x - lo) / (hi - lo) in float, which overflows where the span passes FLT_MAX (a
    // lowest sample of -3e38 and a highest of 3e38): refused, never mis-binned.
    if (!range && !isInteger(plane.type) &&
        !std::isfinite(static_cast<float>(r.hi) - static_cast<float>(r.lo))) {
        std::ostringstream span;
        span << std::setprecision(9) << r.lo << " to " << r.hi << " (a span of " << r.hi - r.lo
             << ")";
        throw InputError((plane.source.empty() ? std::string("the samples") : plane.source) +
                         ": its float samples run from " + span.str() +
                         ", wider than the largest float (3.40282347e+38) that binning divides "
                         "by; a --range within it bins part of them");
    }
    spec.lo = r.lo;
    spec.hi = r.hi;
    return spec;
}

std::uint64_t LargeHistogram::total() const {
    std::uint64_t t = 0;
    for (std::uint64_t c : counts)
        t += c;
    return t;
}

std::vector<float> floatEdges(const BinSpec& spec) {
    // NumPy's linspace with dtype float32: lo + i * step in double, then rounded to float32;
    // the last edge hi itself.
    const double step = (spec.hi - spec.lo) / spec.bins;
    std::vector<float> edges(std::size_t(spec.bins) + 1);
    for (int i = 0; i < spec.bins; ++i)
        edges[std::size_t(i)] = static_cast<float>(double(i) * step + spec.lo);
    edges.back() = static_cast<float>(spec.hi);
    return edges;
}

std::vector<double> countedEdges(const BinSpec& spec) {
    if (!isInteger(spec.type)) {
        const std::vector<float> edges = floatEdges(spec);
        return std::vector<double>(edges.begin(), edges.end());
    }
    // The inverse of referenceSlot's floor(d bins / span): the smallest d of bin i.
    const std::uint64_t span = std::uint64_t(spec.hi - spec.lo), bins = std::uint64_t(spec.bins);
    std::vector<double> edges(std::size_t(spec.bins) + 1);
    for (std::uint64_t i = 0; i < bins; ++i)
        edges[std::size_t(i)] = spec.lo + double((i * span + bins - 1) / bins);
    edges.back() = spec.hi;
    return edges;
}

std::uint32_t referenceSlot(const BinSpec& spec, const std::vector<float>& edges, double x) {
    const std::uint32_t bins = std::uint32_t(spec.bins);
    if (std::isnan(x))
        return bins + 2;
    if (isInteger(spec.type)) {
        if (x < spec.lo)
            return bins;
        if (x > spec.hi)
            return bins + 1;
        const std::uint64_t d = std::uint64_t(x - spec.lo), span = std::uint64_t(spec.hi - spec.lo);
        return d >= span ? bins - 1 : std::uint32_t(d * bins / span);
    }
    // NumPy's steps for float32 data, in float32 (numpy/lib/histograms.py): the range compared
    // as float32, the guess ((x - lo) / (hi - lo)) * bins, then one step down and one step up.
    const FloatRule r = floatRule(spec);
    const float f = static_cast<float>(x);
    if (f < r.lo)
        return bins;
    if (f > r.hi)
        return bins + 1;
    volatile float ratio = (f - r.lo) / r.denom; // volatile: each step rounded to float
    long i = long(ratio * r.bins);
    if (i >= long(bins))
        i = long(bins) - 1;
    if (f < edges[std::size_t(i)])
        --i;
    if (i != long(bins) - 1 && f >= edges[std::size_t(i) + 1])
        ++i;
    return std::uint32_t(i);
}

LargeHistogram largeHistogramReference(const SamplePlane& plane, const BinSpec& spec) {
    LargeHistogram h;
    h.counts.assign(std::size_t(spec.bins), 0);
    const std::vector<float> edges = isInteger(spec.type) ? std::vector<float>{} : floatEdges(spec);
    const std::uint32_t bins = std::uint32_t(spec.bins);
    for (std::size_t i = 0; i < plane.count(); ++i) {
        const std::uint32_t s = referenceSlot(spec, edges, sampleValue(plane, i));
        if (s < bins)
            ++h.counts[s];
        else if (s == bins)
            ++h.below;
        else if (s == bins + 1)
            ++h.above;
        else
            ++h.nan;
    }
    return h;
}

std::string firstHistogramMismatch(const LargeHistogram& reference,
                                   const std::vector<std::uint32_t>& deviceSlots) {
    const std::size_t bins = reference.counts.size();
    if (deviceSlots.size() != bins + 3)
        return "the device returned " + std::to_string(deviceSlots.size()) + " slots, not " +
               std::to_string(bins + 3);
    std::size_t differ = 0, first = 0;
    auto expected = [&](std::size_t s) {
        return s < bins        ? reference.counts[s]
               : s == bins     ? reference.below
               : s == bins + 1 ? reference.above
                               : reference.nan;
    };
    for (std::size_t s = 0; s < bins + 3; ++s)
        if (deviceSlots[s] != expected(s) && differ++ == 0)
            first = s;
    if (!differ)
        return "";
    const std::string name = first < bins        ? "bin " + std::to_string(first)
                             : first == bins     ? std::string("below the range")
                             : first == bins + 1 ? std::string("above the range")
                                                 : std::string("NaN");
    return std::to_string(differ) + (differ == 1 ? " slot differs; " : " slots differ; ") + name +
           ": device " + std::to_string(deviceSlots[first]) + ", CPU reference " +
           std::to_string(expected(first));
}

LargeBinMethod parseLargeBinMethod(const std::string& name) {
    for (LargeBinMethod m : allLargeBinMethods())
        if (name == largeBinMethodName(m))
            return m;
    if (name == "auto")
        return LargeBinMethod::Auto;
    throw UsageError("--method",
                     "'" + name + "' is not one of auto, " + largeBinMethodNames(", ") + ", all");
}

const char* largeBinMethodName(LargeBinMethod method) {
    switch (method) {
    case LargeBinMethod::Auto:
        return "auto";
    case LargeBinMethod::Global:
        return "global";
    case LargeBinMethod::Local:
        return "local";
    case LargeBinMethod::Multipass:
        return "multipass";
    case LargeBinMethod::Local16:
        return "local16";
    case LargeBinMethod::Runs16:
        return "runs16";
    case LargeBinMethod::Private:
        return "private";
    case LargeBinMethod::Tagged:
        return "tagged";
    }
    return "?";
}

bool counts16(LargeBinMethod method) {
    return method == LargeBinMethod::Local16 || method == LargeBinMethod::Runs16;
}

std::vector<LargeBinMethod> allLargeBinMethods() {
    return {LargeBinMethod::Global,  LargeBinMethod::Local,  LargeBinMethod::Multipass,
            LargeBinMethod::Local16, LargeBinMethod::Runs16, LargeBinMethod::Private,
            LargeBinMethod::Tagged};
}

std::string largeBinMethodNames(const std::string& separator) {
    std::string names;
    for (LargeBinMethod m : allLargeBinMethods())
        names += (names.empty() ? "" : separator) + largeBinMethodName(m);
    return names;
}

std::string LargeBinGeometry::describe() const {
    std::ostringstream s;
    s << "wg " << workGroupSize << " x " << groups << " groups";
    switch (method) {
    case LargeBinMethod::Local:
        s << ", " << copies << (copies == 1 ? " local copy" : " local copies");
        break;
    case LargeBinMethod::Multipass:
    case LargeBinMethod::Local16:
    case LargeBinMethod::Runs16:
        s << ", " << passes << (passes == 1 ? " slice" : " slices") << " of " << slice << " slots";
        if (counts16(method))
            s << ", rounds of " << perItem * workGroupSize << " samples";
        break;
    case LargeBinMethod::Private:
    case LargeBinMethod::Tagged:
        s << ", " << rows << " rows";
        break;
    default:
        break;
    }
    return s.str();
}

LargeBinMethod autoSlotMethod(const DeviceInfo& device, std::size_t slots) {
    if (device.type == DeviceType::Cpu)
        return LargeBinMethod::Private;
    if (slots * 4 + 1024 <= device.localMemBytes)
        return LargeBinMethod::Multipass;
    // Every slice reads the data again (from L2 at best): past a few slices one global atomic
    // per sample wins. On the H100 (2026-11-24) local16 beat global 0.30 ms to 0.97 ms at
    // 65,539 slots (3 slices) and lost 5.7 ms to 2.1 ms at 1,048,577 (44 slices).
    const LargeBinGeometry g =
        planSlotGeometry(device, SampleType::U16, slots, 1, LargeBinMethod::Local16);
    return g.supported && g.passes <= kMaxAutoSlices ? LargeBinMethod::Local16
                                                     : LargeBinMethod::Global;
}

LargeBinMethod
tuneSlotMethod(const DeviceInfo& device, SampleType type, std::size_t slots, std::size_t n,
               const std::function<double(const LargeBinGeometry&, std::size_t)>& timeOnce,
               std::string& how) {
    how.clear();
    LargeBinMethod best = autoSlotMethod(device, slots);
    if (device.type == DeviceType::Cpu || n == 0)
        return best;
    const std::size_t m = std::min(n, kTuneSamples);
    std::vector<LargeBinGeometry> candidates;
    bool oneSlice = false;
    for (LargeBinMethod method :
         {LargeBinMethod::Multipass, LargeBinMethod::Local16, LargeBinMethod::Runs16}) {
        const LargeBinGeometry g = planSlotGeometry(device, type, slots, m, method);
        if (g.supported && g.passes <= kMaxAutoSlices)
            candidates.push_back(g);
        oneSlice = oneSlice || (g.supported && g.passes == 1);
    }
    if (!oneSlice) // many slices: one global atomic per sample may win
        candidates.push_back(planSlotGeometry(device, type, slots, m, LargeBinMethod::Global));
    std::ostringstream timed;
    double bestMs = std::numeric_limits<double>::infinity();
    for (const LargeBinGeometry& g : candidates) {
        double ms = 0;
        try {
            ms = timeOnce(g, m);
        } catch (...) {
            (void)rowErrorOf(std::current_exception()); // rethrows cancellation
            continue;
        }
        timed << (timed.tellp() > 0 ? ", " : "") << largeBinMethodName(g.method) << " "
              << std::fixed << std::setprecision(3) << ms << " ms";
        if (ms < bestMs) {
            bestMs = ms;
            best = g.method;
        }
    }
    if (timed.tellp() > 0)
        how = "auto timed on " + std::to_string(m) + " samples: " + timed.str();
    return best;
}

LargeBinMethod autoLargeBinMethod(const DeviceInfo& device, const BinSpec& spec) {
    return autoSlotMethod(device, spec.slotCount());
}

LargeBinGeometry planLargeBinGeometry(const DeviceInfo& device, const BinSpec& spec,
                                      std::size_t samples, LargeBinMethod method) {
    if (method == LargeBinMethod::Auto)
        method = autoLargeBinMethod(device, spec);
    return planSlotGeometry(device, spec.type, spec.slotCount(), samples, method);
}

LargeBinGeometry planSlotGeometry(const DeviceInfo& device, SampleType type, std::size_t slots,
                                  std::size_t samples, LargeBinMethod method) {
    LargeBinGeometry g;
    g.method = method;
    const bool cpu = device.type == DeviceType::Cpu;
    const std::size_t cus = std::max<std::size_t>(1, device.computeUnits);
    // CUDA reserves 1 KiB of shared memory per block on compute capability 8.0 and later (CUDA
    // C++ Programming Guide, "Shared Memory" of 8.x/9.0): NVIDIA's OpenCL refuses a 48 KiB
    // local buffer with CL_OUT_OF_RESOURCES (H100, driver 580). Leave 1 KiB on every GPU.
    const std::size_t usableLocal =
        device.localMemBytes - (cpu ? 0 : std::min<std::uint64_t>(1024, device.localMemBytes / 2));
    const std::size_t localSlots = usableLocal / 4;
    g.workGroupSize =
        std::min<std::size_t>(cpu ? 64 : 256, std::max<std::size_t>(1, device.maxWorkGroupSize));
    g.groups = cus * (cpu ? 2 : 8);
    auto unsupported = [&](std::string why) {
        g.supported = false;
        g.why = std::move(why);
        return g;
    };
    switch (method) {
    case LargeBinMethod::Global:
        break;
    case LargeBinMethod::Local:
        if (slots > localSlots)
            return unsupported(std::to_string(slots) + " slots of 4 bytes do not fit " +
                               std::to_string(usableLocal) +
                               " usable bytes of local memory (multipass or local16 split them)");
        g.copies = std::min<std::size_t>({32, g.workGroupSize, localSlots / slots});
        g.slice = slots;
        break;
    case LargeBinMethod::Multipass:
        g.slice = std::min(slots, localSlots);
        g.passes = (slots + g.slice - 1) / g.slice;
        g.groups *= g.passes;
        break;
    case LargeBinMethod::Local16:
    case LargeBinMethod::Runs16: {
        // Fewer, larger work-groups than the 32-bit methods: each adds its whole slice to the
        // global histogram once, at the end. On an H200 (256 MiB of 16-bit samples, 2026-11-26)
        // 512 x 4 a unit beat 256 x 8 by up to 1.4x at 16,384-65,536 bins and matched 1,024 x 2.
        if (!cpu) {
            g.workGroupSize = std::min<std::size_t>(512, device.maxWorkGroupSize);
            g.groups = cus * 4;
        }
        g.slice = std::min(slots, 2 * localSlots);
        g.passes = (slots + g.slice - 1) / g.slice;
        g.groups *= g.passes;
        const std::size_t perVec = 16 / sampleBytes(type);
        g.perItem = (65536 - kLocal16Keep) / g.workGroupSize / perVec * perVec;
        if (g.perItem == 0)
            return unsupported("a work-group of " + std::to_string(g.workGroupSize) +
                               " items cannot count a whole vector each within a round of " +
                               std::to_string(65536 - kLocal16Keep) + " samples");
        break;
    }
    case LargeBinMethod::Private:
    case LargeBinMethod::Tagged: {
        // Rows of the slots in global memory, within a budget: the matrix is the method's cost.
        const std::size_t budget = std::min<std::size_t>(kRowBudgetBytes, device.maxAllocBytes);
        const std::size_t maxRows = budget / (slots * 4);
        const std::size_t perRow = method == LargeBinMethod::Tagged ? 32 : 1;
        if (method == LargeBinMethod::Tagged)
            g.workGroupSize = std::max<std::size_t>(32, g.workGroupSize / 32 * 32);
        else if (cpu)
            g.workGroupSize = 1; // a CPU thread per row: no two rows on one core
        // On a CPU one row per compute unit: PoCL runs a unit's work-groups one after another on
        // its thread, so a second row there only took turns with the first in the core's caches
        // (65,536 bins of random 16-bit data: 2.3x calcHist with two rows a unit, 4.9x with one).
        std::size_t items = cpu && method == LargeBinMethod::Private
                                ? cus
                                : std::min(g.groups * g.workGroupSize, maxRows * perRow);
        items = items / g.workGroupSize * g.workGroupSize;
        if (items == 0 || items / perRow > maxRows)
            return unsupported(std::to_string(slots) + " slots x " +
                               std::to_string(g.workGroupSize / perRow) + " rows exceed the " +
                               std::to_string(budget >> 20) + " MiB the matrix may take");
        g.groups = items / g.workGroupSize;
        g.rows = items / perRow;
        if (method == LargeBinMethod::Tagged && samples / g.rows > kTaggedMaxCount)
            return unsupported("more than 2^27 samples per warp row: the tag leaves 27 bits");
        break;
    }
    case LargeBinMethod::Auto:
        break;
    }
    return g;
}

cl::Buffer uploadPlane(Device& device, const SamplePlane& plane) {
    // Whole 16-byte vectors (at least one), the padding zero: kernels read only the samples.
    std::vector<std::uint8_t> padded((plane.bytes.size() + 15) / 16 * 16 +
                                     (plane.bytes.empty() ? 16 : 0));
    std::copy(plane.bytes.begin(), plane.bytes.end(), padded.begin());
    try {
        return cl::Buffer(device.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, padded.size(),
                          padded.data());
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
}

LargeBinKernelParams largeBinKernelParams(const BinSpec& spec) {
    LargeBinKernelParams p{};
    p.bins = cl_uint(spec.bins);
    if (isInteger(spec.type)) {
        p.lo = cl_uint(spec.lo);
        p.span = cl_uint(spec.hi - spec.lo);
        p.hiInt = cl_uint(std::min(spec.hi, typeTop(spec.type) - 1));
        p.invSpan = 1.0f / float(p.span);
    } else {
        const FloatRule r = floatRule(spec);
        p.loF = r.lo;
        p.hiF = r.hi;
        p.denom = r.denom;
        p.binsF = r.bins;
    }
    return p;
}

std::string largeBinBuildOptions(const std::vector<BinSpec>& specs, bool jointMask) {
    const SampleType type = specs.front().type;
    BuildOptions o;
    switch (type) {
    case SampleType::U8:
        o.defineText("SAMPLE_T", "uchar");
        break;
    case SampleType::U16:
        o.defineText("SAMPLE_T", "ushort");
        break;
    case SampleType::F32:
        o.defineText("SAMPLE_T", "float");
        break;
    }
    o.define("SAMPLE_BYTES", int(sampleBytes(type)));
    o.define("IS_FLOAT", !isInteger(type));
    o.define("LOCAL16_KEEP", int(kLocal16Keep));
    if (jointMask)
        o.define("JOINT_MASK", 1);
    if (!isInteger(type)) {
        o.flag("-cl-fp32-correctly-rounded-divide-sqrt"); // the guess divides as NumPy does
        return o.text();
    }
    // A shift where every spec has the same one (a joint histogram's two axes may not).
    auto shiftOf = [](const BinSpec& s, bool binWidth) -> int {
        const auto span = std::uint32_t(s.hi - s.lo), bins = std::uint32_t(s.bins);
        if (binWidth)
            return span % bins == 0 && std::has_single_bit(span / bins)
                       ? int(std::countr_zero(span / bins))
                       : -1;
        return std::has_single_bit(span) ? int(std::countr_zero(span)) : -1;
    };
    for (bool binWidth : {true, false}) {
        const int shift = shiftOf(specs.front(), binWidth);
        bool same = shift >= 0;
        for (const BinSpec& s : specs)
            same = same && shiftOf(s, binWidth) == shift;
        if (same) {
            o.define(binWidth ? "BIN_SHIFT" : "SPAN_SHIFT", shift);
            break;
        }
    }
    // Every spec over the whole type (the default range): no value can fall outside it, and the
    // kernels skip the range checks.
    bool full = true;
    for (const BinSpec& s : specs)
        full = full && s.lo == 0 && s.hi == typeTop(type);
    if (full)
        o.define("FULL_RANGE", 1);
    return o.text();
}

void checkFloatBins(Device& device, SampleType type) {
    if (type == SampleType::F32 && !(device.device().getInfo<CL_DEVICE_SINGLE_FP_CONFIG>() &
                                     CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT))
        throw UnsupportedError("float bins need a correctly rounded division (NumPy's rule), "
                               "which " +
                               device.info().name + " does not offer");
}

cl::Buffer edgeBuffer(Device& device, const BinSpec& spec) {
    const std::vector<float> table =
        isInteger(spec.type) ? std::vector<float>{0.0f} : floatEdges(spec);
    try {
        return cl::Buffer(device.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                          table.size() * sizeof(float), const_cast<float*>(table.data()));
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
}

std::string slotKernelName(const std::string& prefix, LargeBinMethod method) {
    switch (method) {
    case LargeBinMethod::Global:
        return prefix + "_global";
    case LargeBinMethod::Local:
    case LargeBinMethod::Multipass:
        return prefix + "_local";
    case LargeBinMethod::Local16:
        return prefix + "_local16";
    case LargeBinMethod::Runs16:
        return prefix + "_runs16";
    case LargeBinMethod::Private:
        return prefix + "_private";
    case LargeBinMethod::Tagged:
        return prefix + "_tagged";
    case LargeBinMethod::Auto:
        break;
    }
    throw std::logic_error("slotKernelName: auto is resolved before a kernel is chosen");
}

SlotCounter::SlotCounter(Device& device, const cl::Program& program, cl::Kernel count,
                         cl_uint histArg, const LargeBinGeometry& g, std::size_t slots)
    : m_device(device)
    , m_count(std::move(count))
    , m_g(g)
    , m_slots(slots)
    , m_hist(device.context(), CL_MEM_READ_WRITE, slots * sizeof(cl_uint)) {
    if (g.rows)
        m_rows.emplace(device.context(), CL_MEM_READ_WRITE, g.rows * slots * sizeof(cl_uint));
    m_count.setArg(histArg, m_rows ? *m_rows : m_hist);
    if (g.slice) {
        // All slices in one launch (kernels/largebin.cl: SLICE_OF_GROUP).
        m_count.setArg(histArg + 1, cl_uint(g.slice));
        m_count.setArg(histArg + 2, cl_uint(g.passes));
        if (counts16(g.method)) {
            m_count.setArg(histArg + 3, cl_uint(g.perItem));
            m_count.setArg(histArg + 4, cl::Local((g.slice + 1) / 2 * sizeof(cl_uint)));
        } else {
            m_count.setArg(histArg + 3, cl_uint(g.copies));
            m_count.setArg(histArg + 4, cl::Local(g.slice * g.copies * sizeof(cl_uint)));
        }
    }
    if (m_rows) {
        m_reduce = cl::Kernel(program, "reduce_rows");
        m_reduce.setArg(0, *m_rows);
        m_reduce.setArg(1, cl_uint(g.rows));
        m_reduce.setArg(2, cl_uint(slots));
        m_reduce.setArg(
            3, cl_uint(g.method == LargeBinMethod::Tagged ? kTaggedMaxCount : 0xFFFFFFFFu));
        m_reduce.setArg(4, m_hist);
    }
}

void SlotCounter::enqueue(std::vector<cl::Event>& events) {
    cl::CommandQueue& q = m_device.queue();
    const cl_uint zero = 0;
    events.emplace_back();
    if (m_rows)
        q.enqueueFillBuffer(*m_rows, zero, 0, m_g.rows * m_slots * sizeof(cl_uint), nullptr,
                            &events.back());
    else
        q.enqueueFillBuffer(m_hist, zero, 0, m_slots * sizeof(cl_uint), nullptr, &events.back());
    events.emplace_back();
    q.enqueueNDRangeKernel(m_count, cl::NullRange, cl::NDRange(m_g.groups * m_g.workGroupSize),
                           cl::NDRange(m_g.workGroupSize), nullptr, &events.back());
    if (m_rows) {
        events.emplace_back();
        const std::size_t rwg = 256;
        q.enqueueNDRangeKernel(m_reduce, cl::NullRange,
                               cl::NDRange((m_slots + rwg - 1) / rwg * rwg), cl::NullRange, nullptr,
                               &events.back());
    }
}

std::vector<std::uint32_t> SlotCounter::read() {
    std::vector<std::uint32_t> counts(m_slots);
    m_device.queue().enqueueReadBuffer(m_hist, CL_TRUE, 0, m_slots * sizeof(cl_uint),
                                       counts.data());
    return counts;
}

std::vector<std::uint32_t> timeSlotCount(Device& device, const cl::Program& program,
                                         cl::Kernel& count, cl_uint histArg,
                                         const LargeBinGeometry& g, std::size_t slots, int repeats,
                                         const CancelToken& cancel, TimingStats& stats) {
    SlotCounter counter(device, program, count, histArg, g, slots);
    stats = timeRepeated(
        repeats,
        [&] {
            std::vector<cl::Event> events;
            counter.enqueue(events);
            device.queue().finish();
            return profiledMs(events);
        },
        cancel);
    return counter.read();
}

namespace {

/// One histogram of the first `n` samples with geometry `g`: the program built for `spec`, the
/// count kernel's inputs set, `repeats` timed runs after a warm-up; the device's slots.
std::vector<std::uint32_t> countLargeBins(Device& device, const cl::Buffer& samples, std::size_t n,
                                          const BinSpec& spec, const LargeBinGeometry& g,
                                          int repeats, const CancelToken& cancel,
                                          TimingStats& stats) {
    checkFloatBins(device, spec.type);
    const cl::Program program = device.program("largebin", largeBinBuildOptions({spec}));
    const LargeBinKernelParams params = largeBinKernelParams(spec);
    const cl::Buffer edges = edgeBuffer(device, spec);
    cl::Kernel count(program, slotKernelName("hist", g.method).c_str());
    count.setArg(0, samples);
    count.setArg(1, cl_uint(n));
    count.setArg(2, sizeof(LargeBinKernelParams), &params);
    count.setArg(3, edges);
    return timeSlotCount(device, program, count, 4, g, spec.slotCount(), repeats, cancel, stats);
}

} // namespace

LargeBinPoint runLargeBinPoint(Device& device, const cl::Buffer& samples, std::size_t count,
                               const BinSpec& spec, const LargeHistogram& reference,
                               LargeBinMethod method, int repeats, const CancelToken& cancel) {
    std::string tuning;
    if (method == LargeBinMethod::Auto)
        method = tuneSlotMethod(
            device.info(), spec.type, spec.slotCount(), count,
            [&](const LargeBinGeometry& g, std::size_t n) {
                TimingStats stats;
                countLargeBins(device, samples, n, spec, g, kTuneRepeats, cancel, stats);
                return stats.medianMs;
            },
            tuning);
    LargeBinPoint p =
        runLargeBinPoint(device, samples, count, spec, reference,
                         planLargeBinGeometry(device.info(), spec, count, method), repeats, cancel);
    p.tuning = tuning;
    return p;
}

LargeBinPoint runLargeBinPoint(Device& device, const cl::Buffer& samples, std::size_t count,
                               const BinSpec& spec, const LargeHistogram& reference,
                               const LargeBinGeometry& g, int repeats, const CancelToken& cancel) {
    const std::size_t n = count;
    LargeBinPoint p;
    p.bins = spec.bins;
    p.samples = n;
    p.bytes = n * sampleBytes(spec.type);
    p.method = g.method;
    p.geometry = g.describe();
    if (!g.supported) {
        p.status = Status::Unsupported;
        p.detail = g.why;
        return p;
    }
    try {
        p.buildOptions = largeBinBuildOptions({spec});
        p.deviceSlots = countLargeBins(device, samples, n, spec, g, repeats, cancel, p.stats);
        p.detail = firstHistogramMismatch(reference, p.deviceSlots);
        p.status = p.detail.empty() ? Status::Verified : Status::Mismatch;
        if (!p.detail.empty())
            p.mismatchedBins = std::stoul(p.detail);
        p.gbps = gbPerSecond(p.bytes, p.stats.medianMs);
        p.gsps = p.stats.medianMs > 0 ? double(n) / (p.stats.medianMs * 1e6) : 0;
    } catch (...) {
        const RowError e = rowErrorOf(std::current_exception()); // rethrows cancellation
        p.status = e.status;
        p.detail = e.detail;
    }
    logInfo("largebin", std::string(largeBinMethodName(p.method)) + " " + std::to_string(p.bins) +
                            " bins: " + statusName(p.status) +
                            (p.detail.empty() ? std::string() : " (" + p.detail + ")"));
    return p;
}

} // namespace histlab
