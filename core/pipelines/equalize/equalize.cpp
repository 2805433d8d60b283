#include "pipelines/equalize/equalize.h"

#include "pipelines/histogram256/histogram256.h"
#include "pipelines/scan/scan.h"
#include "runtime/buildoptions.h"
#include "runtime/enumtable.h"
#include "runtime/errors.h"
#include "runtime/log.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>

namespace histlab {

namespace {

constexpr std::size_t kBins8 = 256, kBins16 = 65536;

/// 16-bit values of a byte vector (host byte order, as loaded): copied, no type punning.
std::vector<std::uint16_t> values16(const HostImage& image) {
    std::vector<std::uint16_t> v(image.data.size() / 2);
    std::memcpy(v.data(), image.data.data(), v.size() * 2);
    return v;
}

/// lumaOf() for 8- or 16-bit values: the sum of the coefficients is 2^15, so 16-bit values stay
/// below 2^31 and the result below 2^16.
inline std::uint32_t lumaKey(std::uint32_t r, std::uint32_t g, std::uint32_t b) {
    return (r * 9798u + g * 19235u + b * 3735u + (1u << 14)) >> 15;
}

template <typename T>
std::vector<std::uint32_t> planeOf(const T* values, std::size_t pixels, int channels) {
    std::vector<std::uint32_t> plane(pixels);
    for (std::size_t p = 0; p < pixels; ++p) {
        const T* px = values + p * std::size_t(channels);
        plane[p] = channels == 1 ? std::uint32_t(px[0]) : lumaKey(px[0], px[1], px[2]);
    }
    return plane;
}

template <typename T>
void applyLut(const T* in, T* out, std::size_t pixels, int channels,
              const std::vector<std::uint32_t>& lut, int maxValue) {
    for (std::size_t p = 0; p < pixels; ++p) {
        const T* px = in + p * std::size_t(channels);
        T* po = out + p * std::size_t(channels);
        if (channels == 1) {
            po[0] = T(lut[px[0]]);
            continue;
        }
        const std::uint32_t y = lumaKey(px[0], px[1], px[2]);
        const int delta = int(lut[y]) - int(y);
        for (int c = 0; c < 3; ++c)
            po[c] = T(std::clamp(int(px[c]) + delta, 0, maxValue));
        if (channels == 4)
            po[3] = px[3];
    }
}

std::size_t binsOf(const HostImage& image) {
    return image.depth == 16 ? kBins16 : kBins8;
}

} // namespace

std::vector<std::uint32_t> equalizePlane(const HostImage& image) {
    validateImage(image);
    requireIntegerImage(image, "equalization");
    if (image.depth == 16) {
        const std::vector<std::uint16_t> v = values16(image);
        return planeOf(v.data(), image.pixelCount(), image.channels);
    }
    return planeOf(image.data.data(), image.pixelCount(), image.channels);
}

float equalizeScale8(std::uint64_t spread) {
    // OpenCV: (hist_sz - 1.f) / (total - hist[i]), the int converted to float (to nearest).
    return 255.f / float(spread);
}

std::vector<std::uint32_t> equalizeLut(const std::vector<std::uint64_t>& histogram) {
    const std::size_t bins = histogram.size();
    if (bins != kBins8 && bins != kBins16)
        throw UsageError("equalize",
                         "a histogram of " + std::to_string(bins) + " bins (256 or 65536)");
    std::vector<std::uint32_t> lut(bins, 0);
    std::uint64_t total = 0;
    for (std::uint64_t h : histogram)
        total += h;
    std::size_t first = 0;
    while (first < bins && histogram[first] == 0)
        ++first;
    if (first == bins || histogram[first] == total) {
        // One value (or none): OpenCV sets every pixel to that value, i.e. leaves it as it is.
        for (std::size_t v = 0; v < bins; ++v)
            lut[v] = std::uint32_t(v);
        return lut;
    }
    const std::uint64_t cdfMin = histogram[first], den = total - cdfMin;
    std::uint64_t sum = 0;
    if (bins == kBins8) {
        const float scale = equalizeScale8(den);
        for (std::size_t v = first + 1; v < bins; ++v) {
            sum += histogram[v];
            // float(sum) * scale in float (SSE: no wider intermediate), rounded half to even
            // (cvRound) and saturated, as saturate_cast<uchar>(sum * scale).
            const float scaled = float(sum) * scale;
            lut[v] = std::uint32_t(std::clamp(std::lrint(scaled), 0L, 255L));
        }
    } else {
        for (std::size_t v = first + 1; v < bins; ++v) {
            sum += histogram[v];
            lut[v] = std::uint32_t((sum * 65535u + den / 2) / den);
        }
    }
    return lut;
}

EqualizeTables equalizeTables(const HostImage& image) {
    const std::vector<std::uint32_t> plane = equalizePlane(image);
    EqualizeTables t;
    t.histogram.assign(binsOf(image), 0);
    for (std::uint32_t v : plane)
        ++t.histogram[v];
    t.cdf.resize(t.histogram.size());
    std::uint64_t run = 0;
    for (std::size_t v = 0; v < t.histogram.size(); ++v)
        t.cdf[v] = run += t.histogram[v];
    t.lut = equalizeLut(t.histogram);
    return t;
}

HostImage applyEqualizeLut(const HostImage& image, const std::vector<std::uint32_t>& lut) {
    HostImage out = image;
    if (image.depth == 16) {
        const std::vector<std::uint16_t> in = values16(image);
        std::vector<std::uint16_t> res(in.size());
        applyLut(in.data(), res.data(), image.pixelCount(), image.channels, lut, 65535);
        std::memcpy(out.data.data(), res.data(), out.data.size());
    } else {
        applyLut(image.data.data(), out.data.data(), image.pixelCount(), image.channels, lut, 255);
    }
    return out;
}

HostImage equalizeReference(const HostImage& image) {
    return applyEqualizeLut(image, equalizeTables(image).lut);
}

namespace {

const EnumTable<EqualizeLut>& equalizeLuts() {
    static const EnumTable<EqualizeLut> table("--lut", "a table place",
                                              {{EqualizeLut::Auto, "auto"},
                                               {EqualizeLut::Global, "global"},
                                               {EqualizeLut::Local, "local"},
                                               {EqualizeLut::Lanes, "lanes"}});
    return table;
}

} // namespace

EqualizeLut parseEqualizeLut(const std::string& name) {
    return equalizeLuts().parse(name);
}

const char* equalizeLutName(EqualizeLut value) {
    return equalizeLuts().name(value);
}

std::string EqualizeApply::describe() const {
    return std::string("lut=") + equalizeLutName(lut) + " wg=" + std::to_string(workGroupSize) +
           " groups/CU=" + (groupsPerCu == kAllGroups ? "all" : std::to_string(groupsPerCu)) +
           " unroll=" + std::to_string(unroll);
}

namespace {

constexpr int kLaneCopies = 32; // kernels/equalize.cl, LUT 2: one copy per local-memory bank
// Local memory left to the runtime when sizing tables and histograms, as the histograms do.
constexpr std::uint64_t kRuntimeLocalBytes = 1024;

std::uint64_t tableLocalBytes(EqualizeLut lut) {
    return lut == EqualizeLut::Lanes   ? kBins8 * kLaneCopies * sizeof(cl_uint)
           : lut == EqualizeLut::Local ? kBins8 * sizeof(cl_uint)
                                       : 0;
}

} // namespace

EqualizeApply equalizeApplyFor(const DeviceInfo& device, int channels, int depth,
                               const EqualizeApply& request) {
    EqualizeApply a = request;
    const bool grayEight = channels == 1 && depth == 8;
    const auto fits = [&](EqualizeLut lut) {
        return tableLocalBytes(lut) + kRuntimeLocalBytes <= device.localMemBytes;
    };
    if (a.lut == EqualizeLut::Auto)
        a.lut = grayEight && device.type != DeviceType::Cpu && fits(EqualizeLut::Local)
                    ? EqualizeLut::Local
                    : EqualizeLut::Global;
    if (a.lut != EqualizeLut::Global && !grayEight)
        throw UsageError(
            "--lut", std::string(equalizeLutName(a.lut)) +
                         ": a table in local memory is for 8-bit gray images (" +
                         (depth == 16 ? "65,536 entries of a 16-bit table" : "the color gather") +
                         " read it from global memory)");
    if (!fits(a.lut))
        throw UsageError("--lut", std::string(equalizeLutName(a.lut)) + ": its " +
                                      std::to_string(tableLocalBytes(a.lut) / 1024) +
                                      " KiB of tables do not fit the " +
                                      std::to_string(device.localMemBytes / 1024) +
                                      " KiB of local memory of " + device.name);
    if (a.workGroupSize == 0)
        a.workGroupSize =
            int(std::min<std::size_t>(256, std::max<std::size_t>(device.maxWorkGroupSize, 1)));
    if (std::size_t(a.workGroupSize) > device.maxWorkGroupSize)
        throw UsageError("--wg", std::to_string(a.workGroupSize) + " work-items: " + device.name +
                                     " allows at most " + std::to_string(device.maxWorkGroupSize));
    const bool cpu = device.type == DeviceType::Cpu;
    if (a.groupsPerCu == 0)
        a.groupsPerCu = cpu ? EqualizeApply::kAllGroups : 4;
    if (a.unroll == 0)
        a.unroll = cpu ? 1 : 4;
    return a;
}

namespace {

std::size_t powerOfTwoAtMost(std::size_t limit, std::size_t cap) {
    std::size_t p = 1;
    while (p * 2 <= std::min(limit, cap))
        p *= 2;
    return p;
}

std::vector<std::uint64_t> widened(const std::vector<cl_uint>& counts) {
    return std::vector<std::uint64_t>(counts.begin(), counts.end());
}

} // namespace

EqualizeRun runEqualize(Device& device, const HostImage& image, int repeats,
                        const CancelToken& cancel, const EqualizeApply& request,
                        const EqualizeTesting& testing) {
    EqualizeRun run = equalizeOnDevice(device, image, repeats, cancel, request, testing);
    const EqualizeTables reference = equalizeTables(image);
    verifyEqualizeRun(run, reference, applyEqualizeLut(image, reference.lut));
    logInfo("equalize", image.source + ": " + std::to_string(run.bins) + " bins, " +
                            (run.verified ? "verified" : "MISMATCH " + run.verifyDetail));
    return run;
}

void verifyEqualizeRun(EqualizeRun& run, const EqualizeTables& reference,
                       const HostImage& expected) {
    run.verifyDetail = firstMismatch("histogram", run.histogram, reference.histogram);
    if (run.verifyDetail.empty())
        run.verifyDetail = firstMismatch("cdf", run.cdf, reference.cdf);
    if (run.verifyDetail.empty())
        run.verifyDetail =
            firstMismatch("lut", std::vector<std::uint64_t>(run.lut.begin(), run.lut.end()),
                          std::vector<std::uint64_t>(reference.lut.begin(), reference.lut.end()));
    if (run.verifyDetail.empty())
        run.verifyDetail = firstPixelDifference(run.output, expected);
    run.verified = run.verifyDetail.empty();
}

namespace {

/// Refuses an image equalization cannot count (2^32 pixels or more, more than one buffer of
/// the device) and histogram pieces that are not whole 4,096-pixel blocks.
void checkEqualizeInput(const DeviceInfo& info, const HostImage& image,
                        const EqualizeTesting& testing) {
    if (image.pixelCount() >= (std::uint64_t(1) << 32))
        throw InputError(image.source + ": " + std::to_string(image.pixelCount()) +
                         " pixels: equalization counts in 32 bits (fewer than 2^32 pixels)");
    if (image.data.size() > info.maxAllocBytes)
        throw UnsupportedError(image.source + ": " + std::to_string(image.data.size()) +
                               " bytes do not fit in one buffer of " + info.name + " (at most " +
                               std::to_string(info.maxAllocBytes) + " bytes)");
    if (testing.histogramPiecePixels % 4096 != 0)
        throw UsageError("histogram pieces", "a multiple of 4,096 pixels");
}

/// 16-bit: the local histogram holds as many bins as local memory does (a power of two, 1
/// KiB left for the runtime); each work-group counts one slice of the value range.
std::uint32_t sliceBins(const DeviceInfo& info, std::uint32_t bins,
                        const EqualizeTesting& testing) {
    std::uint32_t slice = bins;
    while (slice > 256 &&
           (std::uint64_t(slice) * sizeof(cl_uint) + kRuntimeLocalBytes > info.localMemBytes ||
            (testing.maxSliceBins && slice > testing.maxSliceBins)))
        slice /= 2;
    return slice;
}

/// 8-bit: the 256-bin histogram's kernel, configured for this device and size as `histlab-cli
/// histogram` would be (a color image's luma alone), on pieces of at most 2^29 pixels (under
/// the 2^32 bytes one launch counts). Names its configuration in run.histogramConfig.
std::function<std::vector<cl::Event>()>
tunedHistogram(Device& device, const HostImage& image, const CancelToken& cancel,
               const EqualizeTesting& testing, const cl::Buffer& in, const cl::Buffer& histBuf,
               EqualizeRun& run) {
    const HistogramLayout layout(image.channels, image.channels > 1, image.channels == 1);
    const HistogramConfig config =
        resolveHistogramConfig(device, {}, layout, cancel, image.data.size());
    run.histogramConfig = config.describe() + " (" + config.chosenBy + ")";
    auto tuned = std::make_shared<HistogramKernel>(device, config, layout);
    const std::size_t pieceBytes =
        std::size_t(testing.histogramPiecePixels) * std::size_t(image.channels);
    cl::CommandQueue& q = device.queue();
    const std::size_t bytes = image.data.size();
    return [&q, tuned, in, histBuf, bytes, pieceBytes] {
        return tuned->enqueuePieces(q, in, bytes, histBuf, pieceBytes);
    };
}

/// 16-bit: each work-group counts one slice of the value range, four groups per compute unit
/// over all slices (at least one per slice), no more than the pixels need: every group adds
/// up to SLICE global atomics at its end.
std::function<std::vector<cl::Event>()> slicedHistogram(Device& device, const cl::Program& program,
                                                        const cl::Buffer& in,
                                                        const cl::Buffer& histBuf, cl_ulong pixels,
                                                        std::uint32_t slices) {
    cl::Kernel sliced(program, "histogram_values");
    sliced.setArg(0, in);
    sliced.setArg(1, pixels);
    sliced.setArg(2, histBuf);
    const std::size_t slicedWg = powerOfTwoAtMost(device.kernelWorkGroupLimit(sliced), 256);
    const std::size_t groupsWanted =
        std::max<std::size_t>(std::max<std::size_t>(device.info().computeUnits, 1) * 4 / slices, 1);
    const std::size_t slicedGroups =
        std::clamp<std::size_t>((pixels + slicedWg - 1) / slicedWg, 1, groupsWanted);
    cl::CommandQueue& q = device.queue();
    return [&q, sliced, slicedGroups, slicedWg, slices] {
        std::vector<cl::Event> events(1);
        q.enqueueNDRangeKernel(sliced, cl::NullRange, cl::NDRange(slicedGroups * slicedWg, slices),
                               cl::NDRange(slicedWg, 1), nullptr, &events[0]);
        return events;
    };
}

/// The gather's work-groups. Gray: 16-byte vectors, grid-stride with groups/CU groups per
/// compute unit (no more than the vectors need), or one per work-item. Color: one pixel per
/// work-item.
std::size_t applyGroupCount(const DeviceInfo& info, const HostImage& image,
                            const EqualizeApply& apply, cl_ulong pixels) {
    const std::size_t applyWg = std::size_t(apply.workGroupSize);
    std::size_t applyGroups = (pixels + applyWg - 1) / applyWg;
    if (image.channels == 1) {
        const std::uint64_t vectors = image.data.size() / 16;
        applyGroups = std::max<std::size_t>((vectors + applyWg - 1) / applyWg, 1);
        if (apply.groupsPerCu != EqualizeApply::kAllGroups)
            applyGroups = std::min<std::size_t>(
                applyGroups, std::size_t(std::max<std::uint32_t>(info.computeUnits, 1)) *
                                 std::size_t(apply.groupsPerCu));
    }
    return applyGroups;
}

} // namespace

EqualizeRun equalizeOnDevice(Device& device, const HostImage& image, int repeats,
                             const CancelToken& cancel, const EqualizeApply& request,
                             const EqualizeTesting& testing) {
    validateImage(image);
    requireIntegerImage(image, "equalization");
    checkEqualizeInput(device.info(), image, testing);
    const bool eightBit = image.depth == 8;
    const std::uint32_t bins = std::uint32_t(binsOf(image));
    EqualizeRun run;
    run.bins = int(bins);
    run.output = image;
    run.apply = equalizeApplyFor(device.info(), image.channels, image.depth, request);
    const std::uint32_t slice = sliceBins(device.info(), bins, testing);
    const std::uint32_t slices = bins / slice;
    // OpenCL C 1.2 is asked for by name (PoCL 3.1 builds 3.0 without it): the 1.x atomics.
    BuildOptions options;
    options.standard("CL1.2")
        .define("NCHAN", image.channels)
        .define("DEPTH16", !eightBit)
        .define("LUT", int(run.apply.lut) - int(EqualizeLut::Global))
        .define("APPLY_UNROLL", run.apply.unroll);
    if (!eightBit)
        options.define("SLICE", int(slice));
    run.buildOptions = options.text();
    const cl_ulong pixels = image.pixelCount();
    std::vector<cl_uint> hist(bins), cdf(bins), lut(bins);
    std::vector<double> histMs, cdfMs, lutMs, applyMs;
    try {
        cl::Program program = device.program("equalize", run.buildOptions);
        cl::CommandQueue& q = device.queue();
        const cl::Context& ctx = device.context();
        cl::Buffer in(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, image.data.size(),
                      const_cast<std::uint8_t*>(image.data.data()));
        cl::Buffer out(ctx, CL_MEM_WRITE_ONLY, image.data.size());
        cl::Buffer histBuf(ctx, CL_MEM_READ_WRITE, bins * sizeof(cl_uint));
        cl::Buffer cdfBuf(ctx, CL_MEM_READ_WRITE, bins * sizeof(cl_uint));
        cl::Buffer lutBuf(ctx, CL_MEM_READ_WRITE, bins * sizeof(cl_uint));

        // The histogram: tuned 256-bin kernel (8-bit) or value slices (16-bit).
        const std::function<std::vector<cl::Event>()> enqueueHistogram =
            eightBit ? tunedHistogram(device, image, cancel, testing, in, histBuf, run)
                     : slicedHistogram(device, program, in, histBuf, pixels, slices);

        cl::Kernel buildLut(program, "build_lut");
        buildLut.setArg(0, cdfBuf);
        buildLut.setArg(1, lutBuf);
        const std::size_t lutWg = powerOfTwoAtMost(device.kernelWorkGroupLimit(buildLut), 256);

        // The gather. Gray: 16-byte vectors, grid-stride with groups/CU groups per compute
        // unit (no more than the vectors need), or one per work-item. Color: one pixel per
        // work-item.
        const bool gray = image.channels == 1;
        cl::Kernel apply(program, gray ? "apply_lut_gray" : "apply_lut");
        apply.setArg(0, in);
        apply.setArg(1, out);
        apply.setArg(2, lutBuf);
        apply.setArg(3, pixels);
        const std::size_t applyWg = std::size_t(run.apply.workGroupSize);
        if (applyWg > device.kernelWorkGroupLimit(apply))
            throw UsageError("--wg", std::to_string(applyWg) + " work-items: " +
                                         device.info().name + " runs this gather with at most " +
                                         std::to_string(device.kernelWorkGroupLimit(apply)));
        const std::size_t applyGroups = applyGroupCount(device.info(), image, run.apply, pixels);

        DeviceScan cdfScan(device, bins);
        auto once = [&] {
            cl::Event zero, lutEv, applyEv;
            q.enqueueFillBuffer(histBuf, cl_uint(0), 0, bins * sizeof(cl_uint), nullptr, &zero);
            std::vector<cl::Event> histEvents = enqueueHistogram();
            // The CDF: the whole-array inclusive scan of core/scan.h (one or a few launches).
            const std::vector<cl::Event> scan = cdfScan.enqueue(histBuf, cdfBuf, true);
            q.enqueueNDRangeKernel(buildLut, cl::NullRange,
                                   cl::NDRange((bins + lutWg - 1) / lutWg * lutWg),
                                   cl::NDRange(lutWg), nullptr, &lutEv);
            q.enqueueNDRangeKernel(apply, cl::NullRange, cl::NDRange(applyGroups * applyWg),
                                   cl::NDRange(applyWg), nullptr, &applyEv);
            applyEv.wait();
            histEvents.insert(histEvents.begin(), zero);
            histMs.push_back(profiledMs(histEvents));
            cdfMs.push_back(profiledMs(scan));
            lutMs.push_back(profiledMs({lutEv}));
            applyMs.push_back(profiledMs({applyEv}));
            return histMs.back() + cdfMs.back() + lutMs.back() + applyMs.back();
        };
        run.totalStats = timeRepeated(repeats, once, cancel);
        q.enqueueReadBuffer(out, CL_TRUE, 0, run.output.data.size(), run.output.data.data());
        q.enqueueReadBuffer(histBuf, CL_TRUE, 0, bins * sizeof(cl_uint), hist.data());
        q.enqueueReadBuffer(cdfBuf, CL_TRUE, 0, bins * sizeof(cl_uint), cdf.data());
        q.enqueueReadBuffer(lutBuf, CL_TRUE, 0, bins * sizeof(cl_uint), lut.data());
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
    // The first entry of each stage is the warm-up's, which timeRepeated leaves out too (where
    // there is one).
    if (repeats > 0)
        for (auto* ms : {&histMs, &cdfMs, &lutMs, &applyMs})
            ms->erase(ms->begin());
    run.histogramStats = summarize(histMs);
    run.cdfStats = summarize(cdfMs);
    run.lutStats = summarize(lutMs);
    run.applyStats = summarize(applyMs);
    run.applyGbps = gbPerSecond(2 * image.data.size(), run.applyStats.medianMs);
    run.histogram = widened(hist);
    run.cdf = widened(cdf);
    run.lut.assign(lut.begin(), lut.end());
    return run;
}

} // namespace histlab
