#include "pipelines/equalize/equalize.h"

#include "pipelines/histogram256/histogram256.h"
#include "pipelines/scan/scan.h"
#include "runtime/buildoptions.h"
#include "runtime/errors.h"
#include "runtime/log.h"

#include <algorithm>
#include <cmath>
#include <cstring>

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

namespace {

HostImage applyTables(const HostImage& image, const std::vector<std::uint32_t>& lut) {
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

} // namespace

HostImage equalizeReference(const HostImage& image) {
    return applyTables(image, equalizeTables(image).lut);
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
                        const CancelToken& cancel, std::uint32_t maxSliceBins) {
    validateImage(image);
    requireIntegerImage(image, "equalization");
    if (image.pixelCount() >= (std::uint64_t(1) << 32))
        throw InputError(image.source + ": " + std::to_string(image.pixelCount()) +
                         " pixels: equalization counts in 32 bits (fewer than 2^32 pixels)");
    if (image.data.size() > device.info().maxAllocBytes)
        throw UnsupportedError(image.source + ": " + std::to_string(image.data.size()) +
                               " bytes do not fit in one buffer of " + device.info().name +
                               " (at most " + std::to_string(device.info().maxAllocBytes) +
                               " bytes)");
    const std::uint32_t bins = std::uint32_t(binsOf(image));
    EqualizeRun run;
    run.bins = int(bins);
    run.output = image;
    // OpenCL C 1.2 is asked for by name (PoCL 3.1 builds 3.0 without it): the 1.x atomics.
    // 16-bit: the local histogram holds as many bins as local memory does (a power of two, 1 KiB
    // left for the runtime); each work-group counts one slice of the value range.
    std::uint32_t slice = bins;
    while (slice > 256 &&
           (std::uint64_t(slice) * sizeof(cl_uint) + 1024 > device.info().localMemBytes ||
            (maxSliceBins && slice > maxSliceBins)))
        slice /= 2;
    const std::uint32_t slices = bins / slice;
    run.buildOptions = BuildOptions()
                           .standard("CL1.2")
                           .define("NCHAN", image.channels)
                           .define("DEPTH16", image.depth == 16)
                           .define("SLICE", int(slice))
                           .text();
    const cl_ulong pixels = image.pixelCount();
    std::vector<cl_uint> hist(bins), cdf(bins), lut(bins);
    std::vector<double> histMs, cdfMs, lutMs, applyMs;
    try {
        cl::Program program = device.program("equalize", run.buildOptions);
        cl::Kernel histogram(program, "histogram_values"), buildLut(program, "build_lut"),
            apply(program, "apply_lut");
        cl::CommandQueue& q = device.queue();
        const cl::Context& ctx = device.context();
        cl::Buffer in(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, image.data.size(),
                      const_cast<std::uint8_t*>(image.data.data()));
        cl::Buffer out(ctx, CL_MEM_WRITE_ONLY, image.data.size());
        cl::Buffer histBuf(ctx, CL_MEM_READ_WRITE, bins * sizeof(cl_uint));
        cl::Buffer cdfBuf(ctx, CL_MEM_READ_WRITE, bins * sizeof(cl_uint));
        cl::Buffer lutBuf(ctx, CL_MEM_READ_WRITE, bins * sizeof(cl_uint));

        histogram.setArg(0, in);
        histogram.setArg(1, pixels);
        histogram.setArg(2, histBuf);
        const std::size_t histWg = powerOfTwoAtMost(device.kernelWorkGroupLimit(histogram), 256);
        // Four groups per compute unit over all slices (at least one per slice), no more than
        // the pixels need: every group adds up to SLICE global atomics at its end.
        const std::size_t groupsWanted = std::max<std::size_t>(
            std::max<std::size_t>(device.info().computeUnits, 1) * 4 / slices, 1);
        const std::size_t histGroups =
            std::clamp<std::size_t>((pixels + histWg - 1) / histWg, 1, groupsWanted);

        buildLut.setArg(0, cdfBuf);
        buildLut.setArg(1, lutBuf);
        const std::size_t lutWg = powerOfTwoAtMost(device.kernelWorkGroupLimit(buildLut), 256);

        apply.setArg(0, in);
        apply.setArg(1, out);
        apply.setArg(2, lutBuf);
        apply.setArg(3, pixels);
        const std::size_t applyWg = powerOfTwoAtMost(device.kernelWorkGroupLimit(apply), 256);
        // Gray: one 32-bit word (4 or 2 values) per item and one item for the tail.
        const std::size_t applyNeeded =
            image.channels == 1 ? pixels / (4 / (image.depth / 8)) + 1 : pixels;
        const std::size_t applyItems = (applyNeeded + applyWg - 1) / applyWg * applyWg;

        DeviceScan cdfScan(device, bins);
        auto once = [&] {
            cl::Event zero, hist, lutEv, applyEv;
            q.enqueueFillBuffer(histBuf, cl_uint(0), 0, bins * sizeof(cl_uint), nullptr, &zero);
            q.enqueueNDRangeKernel(histogram, cl::NullRange,
                                   cl::NDRange(histGroups * histWg, slices), cl::NDRange(histWg, 1),
                                   nullptr, &hist);
            // The CDF: the whole-array inclusive scan of core/scan.h (one or a few launches).
            const std::vector<cl::Event> scan = cdfScan.enqueue(histBuf, cdfBuf, true);
            q.enqueueNDRangeKernel(buildLut, cl::NullRange,
                                   cl::NDRange((bins + lutWg - 1) / lutWg * lutWg),
                                   cl::NDRange(lutWg), nullptr, &lutEv);
            q.enqueueNDRangeKernel(apply, cl::NullRange, cl::NDRange(applyItems),
                                   cl::NDRange(applyWg), nullptr, &applyEv);
            applyEv.wait();
            histMs.push_back(profiledMs({zero, hist}));
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
    // The first entry of each stage is the warm-up's, which timeRepeated leaves out too.
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

    const EqualizeTables reference = equalizeTables(image);
    run.verifyDetail = firstMismatch("histogram", run.histogram, reference.histogram);
    if (run.verifyDetail.empty())
        run.verifyDetail = firstMismatch("cdf", run.cdf, reference.cdf);
    if (run.verifyDetail.empty())
        run.verifyDetail =
            firstMismatch("lut", widened(lut),
                          std::vector<std::uint64_t>(reference.lut.begin(), reference.lut.end()));
    if (run.verifyDetail.empty())
        run.verifyDetail = firstPixelDifference(run.output, applyTables(image, reference.lut));
    run.verified = run.verifyDetail.empty();
    logInfo("equalize", image.source + ": " + std::to_string(run.bins) + " bins, " +
                            (run.verified ? "verified" : "MISMATCH " + run.verifyDetail));
    return run;
}

} // namespace histlab
