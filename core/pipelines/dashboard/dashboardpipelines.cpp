// The dashboard entries of the families that are not registered pipelines of their own yet
// (bandwidth, histogram256, blur, equalize): each family's `Pipeline <name>Pipeline()` of
// pipelines/registry.cpp gives only its dashboard entries here, until it moves into its folder
// with its command, plan and report (then this file goes). Each entry is an adapter from the
// module's own measured run (which verifies against the CPU reference and measures its ceiling
// on the same device in the same run) to DashboardResults; its metric is its module's, restated
// in its description.
#include "image/image.h"
#include "pipelines/bandwidth/bandwidth.h"
#include "pipelines/blur/blur.h"
#include "pipelines/dashboard/dashboard.h"
#include "pipelines/equalize/equalize.h"
#include "pipelines/histogram256/histogram256.h"
#include "pipelines/pipeline.h"
#include "pipelines/scan/scan.h"
#include "runtime/errors.h"

#include <algorithm>
#include <cmath>

namespace histlab {

namespace {

constexpr std::size_t kPieceBytes = std::size_t(16) << 20; // host data is made in pieces

/// `bytes` random bytes in a device buffer (no compression can flatter the ceilings).
cl::Buffer randomBuffer(Device& device, std::size_t bytes, const CancelToken& cancel) {
    try {
        cl::Buffer buffer(device.context(), CL_MEM_READ_ONLY, bytes);
        std::vector<std::uint8_t> piece(std::min(bytes, kPieceBytes));
        for (std::size_t off = 0; off < bytes; off += piece.size()) {
            cancel.throwIfCancelled();
            const std::size_t n = std::min(piece.size(), bytes - off);
            fillSynthetic(SyntheticKind::Random, piece.data(), n, 29 + off);
            device.queue().enqueueWriteBuffer(buffer, CL_TRUE, off, n, piece.data());
        }
        return buffer;
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
}

/// A random 8-bit gray image of about `bytes` pixels, nearly square, rows a multiple of 16.
HostImage randomGrayImage(std::size_t bytes) {
    HostImage image;
    const std::size_t side =
        std::max<std::size_t>(16, std::size_t(std::sqrt(double(bytes))) / 16 * 16);
    image.width = int(side);
    image.height = int(std::max<std::size_t>(1, bytes / side));
    image.channels = 1;
    image.depth = 8;
    image.data.resize(image.byteCount());
    fillSynthetic(SyntheticKind::Random, image.data.data(), image.data.size(), 31);
    image.source =
        "random 8-bit gray " + std::to_string(image.width) + " x " + std::to_string(image.height);
    return image;
}

DashboardResult ceilingResult(const std::string& pipeline, const char* kind,
                              const CeilingResult& c) {
    DashboardResult r;
    r.pipeline = pipeline;
    r.variant = c.kernel;
    r.bytes = c.bytes;
    r.stats = c.stats;
    r.gbps = c.gbps;
    r.ceilingKind = kind;
    r.ceilingGbps = c.gbps;
    r.status = Status::Timed;
    r.reason = "a reference kernel: nothing to verify";
    return r;
}

void setVerified(DashboardResult& r, bool verified, const std::string& detail) {
    r.status = verified ? Status::Verified : Status::Mismatch;
    r.reason = verified ? std::string() : detail;
}

} // namespace

Pipeline bandwidthPipeline() {
    Pipeline p;
    p.name = "bandwidth";
    p.dashboard.push_back(
        {"read-only",
         "the read-only ceiling: uint4 loads of random bytes (kernels/bandwidth.cl); bytes read",
         [](Device& device, const DashboardOptions& o, const CancelToken& cancel) {
             const cl::Buffer buffer = randomBuffer(device, o.bytes, cancel);
             return std::vector<DashboardResult>{
                 ceilingResult("read-only", "read-only",
                               measureReadCeiling(device, buffer, o.bytes, o.repeats, cancel))};
         }});
    p.dashboard.push_back(
        {"copy",
         "the copy ceiling: uint4 copy of random bytes (kernels/bandwidth.cl); bytes read + "
         "written",
         [](Device& device, const DashboardOptions& o, const CancelToken& cancel) {
             const cl::Buffer buffer = randomBuffer(device, o.bytes, cancel);
             return std::vector<DashboardResult>{ceilingResult(
                 "copy", "copy", measureCopyCeiling(device, buffer, o.bytes, o.repeats, cancel))};
         }});
    return p;
}

Pipeline histogram256Pipeline() {
    Pipeline p;
    p.name = "histogram256";
    p.dashboard.push_back(
        {"histogram256",
         "the 256-bin histogram, variant auto (the device's best), of random bytes; input "
         "bytes read, against the read-only kernel",
         [](Device& device, const DashboardOptions& o, const CancelToken& cancel) {
             const HostImage input = makeSynthetic(SyntheticKind::Random, o.bytes);
             HistogramRunOptions options;
             options.channel = ChannelSelection::Gray;
             options.repeats = o.repeats;
             options.verify = true;
             const HistogramRun run =
                 runHistogram(device, input, HistogramRequest{}, options, cancel);
             if (run.passes.empty())
                 throw DeviceError("the histogram ran no pass");
             const PassTiming& pass = run.passes.front();
             DashboardResult r;
             r.variant = "auto: " + run.config.describe();
             r.bytes = pass.bytes;
             r.stats = pass.stats;
             r.gbps = pass.gbps;
             r.ceilingKind = "read-only";
             r.ceilingGbps = run.ceiling.gbps;
             setVerified(r, run.verified.value_or(false),
                         run.verified ? run.verifyDetail : "not verified");
             return std::vector<DashboardResult>{r};
         }});
    return p;
}

Pipeline blurPipeline() {
    Pipeline p;
    p.name = "blur";
    p.dashboard.push_back(
        {"blur3x3",
         "the 3 x 3 box blur (reflect-101 borders), variant auto, of a random 8-bit gray image; "
         "bytes read + written, against the copy kernel",
         [](Device& device, const DashboardOptions& o, const CancelToken& cancel) {
             const HostImage image = randomGrayImage(o.bytes);
             BlurTuning tuning;
             tuning.measureCopy = true;
             const BlurRun run = runBoxBlur(device, image, 1, BorderMode::Reflect101, o.repeats,
                                            cancel, BlurVariant::Auto, tuning);
             DashboardResult r;
             r.variant = std::string("auto: ") + blurVariantName(run.variant) + ", " +
                         std::to_string(image.width) + " x " + std::to_string(image.height);
             r.bytes = 2 * std::uint64_t(image.byteCount());
             r.stats = run.stats;
             r.gbps = run.gbps;
             r.ceilingKind = "copy";
             r.ceilingGbps = run.copy ? run.copy->gbps : 0.0;
             setVerified(r, run.verified, run.verifyDetail);
             return std::vector<DashboardResult>{r};
         }});
    return p;
}

Pipeline equalizePipeline() {
    Pipeline p;
    p.name = "equalize";
    p.dashboard.push_back(
        {"equalize",
         "the histogram equalization of a random 8-bit gray image, all four stages (histogram, "
         "CDF, table, gather); 3 x image bytes (read twice, written once) / total time, against "
         "the copy kernel",
         [](Device& device, const DashboardOptions& o, const CancelToken& cancel) {
             const HostImage image = randomGrayImage(o.bytes);
             const EqualizeRun run = runEqualize(device, image, o.repeats, cancel);
             // The copy kernel on the image's bytes, on the same device in the same run.
             CeilingResult copy;
             try {
                 cl::Buffer buffer(device.context(), CL_MEM_READ_ONLY, image.byteCount());
                 device.queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, image.byteCount(),
                                                   image.data.data());
                 copy = measureCopyCeiling(device, buffer, image.byteCount(), o.repeats, cancel);
             } catch (const cl::Error& e) {
                 rethrowClError(e);
             }
             DashboardResult r;
             r.variant = std::to_string(run.bins) + " bins, " + std::to_string(image.width) +
                         " x " + std::to_string(image.height);
             r.bytes = 3 * std::uint64_t(image.byteCount());
             r.stats = run.totalStats;
             r.gbps = gbPerSecond(r.bytes, r.stats.medianMs);
             r.ceilingKind = "copy";
             r.ceilingGbps = copy.gbps;
             setVerified(r, run.verified, run.verifyDetail);
             return std::vector<DashboardResult>{r};
         }});
    return p;
}

} // namespace histlab
