#include "pipelines/blur/blur.h"

#include "runtime/buildoptions.h"
#include "runtime/enumtable.h"
#include "runtime/errors.h"
#include "runtime/log.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

namespace histlab {

namespace {

// Column sums slid down one row at a time (add the row that enters, take away the one that
// leaves), then each row's window sums as differences of per-channel prefix sums over the row
// extended by R pixels on each side through the border rule: the work per pixel does not grow
// with R, so the reference keeps up with large images and radii. All in 64-bit integers.
template <typename T>
void blurPlane(const T* in, T* out, int width, int height, int channels, int radius,
               BorderMode mode) {
    const std::uint64_t n = std::uint64_t(2 * radius + 1) * std::uint64_t(2 * radius + 1);
    const std::size_t rowElems = std::size_t(width) * channels;
    if (mode == BorderMode::Interior) {
        std::memcpy(out, in, rowElems * height * sizeof(T));
        if (width <= 2 * radius || height <= 2 * radius)
            return; // no pixel has its whole window inside
    }
    const bool interior = mode == BorderMode::Interior;
    // Interior mode only reads inside the image, so any mapping of outside indices will do.
    const auto rowOf = [&](int y) {
        return in +
               std::size_t(interior ? std::clamp(y, 0, height - 1) : borderIndex(y, height, mode)) *
                   rowElems;
    };
    const int y0 = interior ? radius : 0, y1 = interior ? height - radius : height;
    const int x0 = interior ? radius : 0, x1 = interior ? width - radius : width;
    std::vector<std::uint64_t> column(rowElems, 0);
    for (int dy = -radius; dy <= radius; ++dy) {
        const T* row = rowOf(y0 + dy);
        for (std::size_t e = 0; e < rowElems; ++e)
            column[e] += row[e];
    }
    // prefix[(i + 1) * channels + c]: sum of the column sums of pixels -R .. i - R, channel c.
    const int extended = width + 2 * radius;
    std::vector<std::uint64_t> prefix((std::size_t(extended) + 1) * channels, 0);
    for (int y = y0; y < y1; ++y) {
        for (int i = 0; i < extended; ++i) {
            const int px = i - radius;
            const int sx = interior ? std::clamp(px, 0, width - 1) : borderIndex(px, width, mode);
            for (int c = 0; c < channels; ++c)
                prefix[std::size_t(i + 1) * channels + c] =
                    prefix[std::size_t(i) * channels + c] + column[std::size_t(sx) * channels + c];
        }
        T* dst = out + std::size_t(y) * rowElems;
        for (int x = x0; x < x1; ++x)
            for (int c = 0; c < channels; ++c) {
                // pixels x - R .. x + R are extended indices x .. x + 2R
                const std::uint64_t sum = prefix[std::size_t(x + 2 * radius + 1) * channels + c] -
                                          prefix[std::size_t(x) * channels + c];
                dst[std::size_t(x) * channels + c] = T((sum + n / 2) / n);
            }
        if (y + 1 < y1) {
            const T* enter = rowOf(y + 1 + radius);
            const T* leave = rowOf(y - radius);
            for (std::size_t e = 0; e < rowElems; ++e)
                column[e] = column[e] + enter[e] - leave[e];
        }
    }
}

} // namespace

HostImage boxBlurReference(const HostImage& image, int radius, BorderMode mode) {
    requireIntegerImage(image, "the box blur");
    validateImage(image);
    if (radius < 1)
        throw UsageError("--radius", std::to_string(radius) + " is not a radius (1 or more)");
    HostImage out = image;
    if (image.empty())
        return out;
    if (image.depth == 16) {
        // 16-bit values live in a byte vector: copied out and back (no type punning).
        std::vector<std::uint16_t> in16(image.data.size() / 2), out16(in16.size());
        std::memcpy(in16.data(), image.data.data(), image.data.size());
        blurPlane(in16.data(), out16.data(), image.width, image.height, image.channels, radius,
                  mode);
        std::memcpy(out.data.data(), out16.data(), out.data.size());
    } else {
        blurPlane(image.data.data(), out.data.data(), image.width, image.height, image.channels,
                  radius, mode);
    }
    return out;
}

namespace {

const EnumTable<BlurLaunch>& blurLaunches() {
    static const EnumTable<BlurLaunch> table("--launch", "a launch",
                                             {{BlurLaunch::Cl12Null, "cl12-null"},
                                              {BlurLaunch::Cl12Local16, "cl12-16x16"},
                                              {BlurLaunch::Cl20Null, "cl20-null"},
                                              {BlurLaunch::Cl20Local16, "cl20-16x16"},
                                              {BlurLaunch::Padded16, "padded-16x16"}},
                                             {"all"});
    return table;
}

} // namespace

BlurLaunch parseBlurLaunch(const std::string& name) {
    return blurLaunches().parse(name);
}

const char* blurLaunchName(BlurLaunch launch) {
    return blurLaunches().name(launch);
}

std::vector<BlurLaunch> allBlurLaunches() {
    return blurLaunches().values();
}

HostImage blurLaunchPlane(const HostImage& image, std::string* note) {
    requireIntegerImage(image, "the box blur");
    HostImage plane = toHighByte(image);
    std::string why =
        image.depth == 16 ? "16-bit image: blurred on the high byte of each value" : "";
    if (plane.channels != 1) {
        plane.data = lumaPlane(plane);
        plane.channels = 1;
        why = image.depth == 16 ? "16-bit color image: blurred on the luma of its high bytes"
                                : "color image: blurred on its luma (OpenCV's BGR2GRAY)";
    }
    if (note)
        *note = why;
    return plane;
}

std::vector<BlurLaunchResult> runBlurLaunches(Device& device, const HostImage& img, int radius,
                                              const std::vector<BlurLaunch>& launches, int repeats,
                                              const CancelToken& cancel) {
    validateImage(img);
    if (img.channels != 1 || img.depth != 8)
        throw UsageError("--launch", "the launch demonstration takes 8-bit gray images (this "
                                     "one has " +
                                         std::to_string(img.channels) + " channel(s) of " +
                                         std::to_string(img.depth) + " bits)");
    if (radius < 1)
        throw UsageError("--radius", std::to_string(radius) + " is not a radius (1 or more)");
    const HostImage reference = boxBlurReference(img, radius, BorderMode::Interior);
    const long iw = long(img.width) - 2L * radius, ih = long(img.height) - 2L * radius;
    std::vector<BlurLaunchResult> results;
    for (BlurLaunch launch : launches) {
        cancel.throwIfCancelled();
        BlurLaunchResult r;
        r.launch = launch;
        const bool cl20 = launch == BlurLaunch::Cl20Null || launch == BlurLaunch::Cl20Local16;
        const bool padded = launch == BlurLaunch::Padded16;
        const bool local16 = launch != BlurLaunch::Cl12Null && launch != BlurLaunch::Cl20Null;
        // OpenCL C 1.2 is asked for by name: without -cl-std PoCL 3.1 builds OpenCL C 3.0.
        r.buildOptions =
            BuildOptions().standard(cl20 ? "CL2.0" : "CL1.2").define("PADDED", padded).text();
        r.localX = r.localY = local16 ? 16 : 0;
        if (iw <= 0 || ih <= 0) {
            r.status = Status::NotApplicable;
            r.detail = "the interior is empty (" + std::to_string(img.width) + " x " +
                       std::to_string(img.height) + " with radius " + std::to_string(radius) +
                       "): the image is copied unchanged";
            r.output = img; // equal to the reference, whose frame is the whole image here
            results.push_back(std::move(r));
            continue;
        }
        r.globalX = padded ? std::size_t((iw + 15) / 16 * 16) : std::size_t(iw);
        r.globalY = padded ? std::size_t((ih + 15) / 16 * 16) : std::size_t(ih);
        cl::Kernel kernel;
        try {
            kernel = cl::Kernel(device.program("blur", r.buildOptions), "blur_interior");
        } catch (const BuildError& e) {
            if (!cl20)
                throw;
            r.status = Status::Unsupported;
            r.detail = "OpenCL C 2.0 does not build on " + device.info().name + " (" +
                       clErrorName(e.code()) + ")";
            results.push_back(std::move(r));
            continue;
        } catch (const cl::Error& e) {
            rethrowClError(e);
        }
        try {
            cl::CommandQueue& q = device.queue();
            cl::Buffer in(device.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                          img.data.size(), const_cast<std::uint8_t*>(img.data.data()));
            // The output starts as the input: the frame stays as it is.
            cl::Buffer out(device.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                           img.data.size(), const_cast<std::uint8_t*>(img.data.data()));
            std::vector<cl_int> cornerInit(24, -2);
            cl::Buffer corners(device.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                               cornerInit.size() * sizeof(cl_int), cornerInit.data());
            kernel.setArg(0, in);
            kernel.setArg(1, out);
            kernel.setArg(2, cl_int(img.width));
            kernel.setArg(3, cl_int(img.height));
            kernel.setArg(4, cl_int(radius));
            kernel.setArg(5, corners);
            const cl::NDRange global(r.globalX, r.globalY);
            const cl::NDRange local = local16 ? cl::NDRange(16, 16) : cl::NullRange;
            auto once = [&] {
                cl::Event ev;
                q.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &ev);
                ev.wait();
                return profiledMs({ev});
            };
            try {
                r.stats = timeRepeated(repeats, once, cancel);
            } catch (const cl::Error& e) {
                if (e.err() != CL_INVALID_WORK_GROUP_SIZE)
                    throw;
                const bool divides = iw % 16 == 0 && ih % 16 == 0;
                if (launch == BlurLaunch::Cl12Local16 && !divides) {
                    r.status = Status::Unsupported;
                    r.detail = "refused, as OpenCL 1.2 requires: " +
                               describeClError("clEnqueueNDRangeKernel", e.err()) +
                               ": the range (" + std::to_string(iw) + " x " + std::to_string(ih) +
                               ") does not divide by the 16 x 16 group";
                } else {
                    r.status = Status::Unsupported;
                    r.detail = describeClError("clEnqueueNDRangeKernel", e.err()) + ": " +
                               device.info().name +
                               " has no non-uniform work-groups (see padded-16x16)";
                }
                results.push_back(std::move(r));
                continue;
            }
            r.gbps = gbPerSecond(std::uint64_t(2 * iw * ih), r.stats.medianMs);
            std::vector<cl_int> c(24);
            q.enqueueReadBuffer(corners, CL_TRUE, 0, c.size() * sizeof(cl_int), c.data());
            for (int k = 0; k < 4; ++k)
                r.corners[std::size_t(k)] = {c[6 * k],     c[6 * k + 1], c[6 * k + 2],
                                             c[6 * k + 3], c[6 * k + 4], c[6 * k + 5]};
            r.output = img;
            q.enqueueReadBuffer(out, CL_TRUE, 0, r.output.data.size(), r.output.data.data());
            r.detail = firstPixelDifference(r.output, reference);
            r.status = r.detail.empty() ? Status::Verified : Status::Mismatch;
        } catch (const cl::Error& e) {
            rethrowClError(e);
        }
        logInfo("blur", std::string(blurLaunchName(launch)) + ": " + statusName(r.status));
        results.push_back(std::move(r));
    }
    return results;
}

namespace {
const EnumTable<BlurVariant>& blurVariants() {
    static const EnumTable<BlurVariant> table("--variant", "a blur variant",
                                              {{BlurVariant::Auto, "auto"},
                                               {BlurVariant::Direct, "direct"},
                                               {BlurVariant::Tiled, "tiled"},
                                               {BlurVariant::Sliding, "sliding"}});
    return table;
}
} // namespace

BlurVariant parseBlurVariant(const std::string& name) {
    return blurVariants().parse(name);
}

const char* blurVariantName(BlurVariant variant) {
    return blurVariants().name(variant);
}

std::vector<BlurVariant> allBlurVariants() {
    return {BlurVariant::Direct, BlurVariant::Tiled, BlurVariant::Sliding};
}

BlurVariant resolveBlurVariant(BlurVariant variant, int radius) {
    if (variant != BlurVariant::Auto)
        return variant;
    return radius <= 2 ? BlurVariant::Tiled : BlurVariant::Sliding;
}

BlurTuning blurTuningFor(const DeviceInfo& device, BlurTuning tuning) {
    const bool cpu = device.type == DeviceType::Cpu;
    if (tuning.packed < 0)
        tuning.packed = cpu ? 0 : 1;
    if (tuning.swar < 0)
        tuning.swar = cpu || tuning.packed == 1 ? 1 : 0;
    if (tuning.serialRows < 0)
        tuning.serialRows = cpu ? 1 : 0;
    return tuning;
}

int blurRegisterLimit(const DeviceInfo& device, int requested, bool rgbaSwar) {
    const bool available = hasExtension(device, "cl_nv_compiler_options");
    if (requested < 0)
        return available && rgbaSwar ? 64 : 0;
    if (requested > 0 && !available)
        throw UnsupportedError("a register limit (--registers) is NVIDIA's -cl-nv-maxrregcount; " +
                               device.name + " (" + device.platformName +
                               ") has no cl_nv_compiler_options");
    return requested;
}

std::size_t blurGroupSize(const DeviceInfo& device, int requested, std::size_t fallback) {
    const std::size_t limit = device.maxWorkGroupSize;
    if (requested > 0) {
        if (limit > 0 && std::size_t(requested) > limit)
            throw UsageError("--wg", std::to_string(requested) + " work-items per group: " +
                                         device.name + " allows at most " + std::to_string(limit));
        return std::size_t(requested);
    }
    return limit > 0 ? std::min(fallback, limit) : fallback;
}

namespace {

BuildOptions blurBaseOptions(BorderMode mode, int channels, int depth) {
    BuildOptions options;
    options.define("BORDER", int(mode)).define("NCHAN", channels).define("DEPTH16", depth == 16);
    return options;
}

} // namespace

TiledBlurPlan planTiledBlur(const DeviceInfo& info, int width, int height, int channels, int depth,
                            int radius, BorderMode mode, const BlurTuning& tuning) {
    // Defaults measured (README, bench/results/gpu-h100-blur-tiles-2026-11-27): on the H100 the
    // window's rows loaded first, 128 work-items, one vector per item, 8 rows for 8-bit gray
    // (97 % of copy at 32768^2 against 92 % with 4) and 4 otherwise (RGBA with SWAR: 99 % with
    // 4, 94 % with 2); on PoCL sliding down 8 rows, two pixels per register and four vectors
    // per item.
    const BlurTuning devTuning = blurTuningFor(info, tuning);
    const bool cpu = info.type == DeviceType::Cpu;
    TiledBlurPlan plan;
    plan.packed = devTuning.packed == 1;
    // SWAR: 8-bit, 3 x 3, gray (packed or sliding down) and RGBA packed.
    plan.swar = devTuning.swar == 1 && depth == 8 && radius == 1 &&
                (channels == 1 || (plan.packed && channels == 4));
    plan.vectors = tuning.vectors == 1 || tuning.vectors == 2 || tuning.vectors == 4
                       ? tuning.vectors
                       : (cpu && plan.swar ? 4 : 1);
    const bool grayEight = channels == 1 && depth == 8;
    plan.rows = tuning.rows > 0 ? tuning.rows
                : plan.packed   ? (grayEight ? 8 : 4)
                                : (cpu && plan.swar ? 8 : 16);
    plan.workGroup = blurGroupSize(info, tuning.workGroup, 128);
    // (the limit was measured at RGBA's default shape only: 4 rows, one vector)
    plan.registers = blurRegisterLimit(info, tuning.registers,
                                       plan.swar && plan.packed && channels == 4 &&
                                           plan.rows == 4 && plan.vectors == 1);
    // SWAR's quotients gathered with PTX byte permutes on NVIDIA's OpenCL: 0.2-2.7 points of
    // copy on the H200 (bench/results/gpu-h200-blur-prmt-2026-11-28)
    plan.prmt = plan.swar && nvidiaOpenCL(info);
    // and packed gray takes the pixels beside its vectors from the lanes beside it in the warp
    // (warps of 32 consecutive work-items of a row): 88 -> 91 % of copy at 32768^2 on the
    // H200; RGBA lost 1.5 points (bench/results/gpu-h200-blur-shfl-2026-11-28)
    plan.shuffle =
        plan.prmt && plan.packed && channels == 1 && plan.vectors == 1 && plan.workGroup % 32 == 0;
    BuildOptions options = blurBaseOptions(mode, channels, depth);
    if (plan.registers > 0)
        options.flag("-cl-nv-maxrregcount=" + std::to_string(plan.registers));
    plan.buildOptions = options.define("RADIUS", radius)
                            .define("ROWS", plan.rows)
                            .define("PACKED", plan.packed)
                            .define("SWAR", plan.swar)
                            .define("VECS", plan.vectors)
                            .define("NV_PRMT", plan.prmt)
                            .define("NV_SHFL", plan.shuffle)
                            .text();
    const std::size_t rowElems = std::size_t(width) * std::size_t(channels);
    const std::size_t vec = std::size_t(depth == 16 ? 8 : 16) * std::size_t(plan.vectors);
    plan.globalX = roundUp((rowElems + vec - 1) / vec, plan.workGroup);
    plan.globalY = (std::size_t(height) + std::size_t(plan.rows) - 1) / std::size_t(plan.rows);
    return plan;
}

namespace {

KernelLaunch kernelLaunch(const char* kernel, const cl::NDRange& global, const cl::NDRange& local) {
    return {kernel, global[0], global[1], local[0], local[1]};
}

std::string launchText(const std::vector<KernelLaunch>& kernels) {
    std::string text;
    for (const KernelLaunch& k : kernels)
        text += (text.empty() ? "" : ", ") + k.kernel + " " + std::to_string(k.globalX) + "x" +
                std::to_string(k.globalY) + " / " + std::to_string(k.localX) + "x" +
                std::to_string(k.localY);
    return text;
}

} // namespace

BlurRun runBoxBlur(Device& device, const HostImage& image, int radius, BorderMode mode, int repeats,
                   const CancelToken& cancel, BlurVariant variant, const BlurTuning& tuning) {
    BlurRun run = blurOnDevice(device, image, radius, mode, repeats, cancel, variant, tuning);
    if (!image.empty()) {
        run.verifyDetail = firstPixelDifference(run.output, boxBlurReference(image, radius, mode));
        run.verified = run.verifyDetail.empty();
    }
    return run;
}

namespace {

/// The kernels of one blur, with their grids and groups.
struct BlurKernels {
    cl::Kernel k1, k2;
    cl::NDRange g1, l1, g2, l2;
    // whether each kernel's group is the one --wg asked for (the others' are fixed)
    bool asked1 = false, asked2 = false;
    cl::Buffer sums; ///< the sliding variant's column sums
};

/// UsageError for a radius beyond what the chosen variant is built for.
void checkVariantRadius(BlurVariant variant, int radius) {
    if (variant == BlurVariant::Tiled && radius > kTiledMaxRadius)
        throw UsageError("--variant", "tiled is built for radii up to " +
                                          std::to_string(kTiledMaxRadius) + " (this one is " +
                                          std::to_string(radius) + "); use sliding" +
                                          (radius <= kDirectMaxRadius ? " or direct" : ""));
    if (variant == BlurVariant::Direct && radius > kDirectMaxRadius)
        throw UsageError("--variant", "direct reads (2R + 1)^2 pixels for each output: it takes "
                                      "radii up to " +
                                          std::to_string(kDirectMaxRadius) + " (this one is " +
                                          std::to_string(radius) + "); use sliding");
}

/// The direct variant: one kernel reading the whole (2R + 1)^2 window of each output.
void setUpDirect(Device& device, const HostImage& image, int radius, const cl::Buffer& in,
                 const cl::Buffer& out, BlurRun& run, BlurKernels& k) {
    const std::size_t height = std::size_t(image.height);
    k.k1 = cl::Kernel(device.program("blur", run.buildOptions), "blur_full");
    k.k1.setArg(0, in);
    k.k1.setArg(1, out);
    k.k1.setArg(2, cl_int(image.width));
    k.k1.setArg(3, cl_int(image.height));
    k.k1.setArg(4, cl_int(radius));
    k.g1 = cl::NDRange(roundUp(std::size_t(image.width), 16), roundUp(height, 16));
    k.l1 = cl::NDRange(16, 16);
    run.kernels = {kernelLaunch("blur_full", k.g1, k.l1)};
}

/// The tiled variant: one kernel over tiles of rows, shaped by planTiledBlur.
void setUpTiled(Device& device, const HostImage& image, int radius, BorderMode mode,
                const BlurTuning& tuning, const cl::Buffer& in, const cl::Buffer& out,
                std::size_t pitch, BlurRun& run, BlurKernels& k) {
    const DeviceInfo& info = device.info();
    const TiledBlurPlan plan = planTiledBlur(info, image.width, image.height, image.channels,
                                             image.depth, radius, mode, tuning);
    run.buildOptions = plan.buildOptions;
    k.k1 = cl::Kernel(device.program("blur", run.buildOptions), "blur_tiled");
    k.k1.setArg(0, in);
    k.k1.setArg(1, out);
    k.k1.setArg(2, cl_int(image.width));
    k.k1.setArg(3, cl_int(image.height));
    k.k1.setArg(4, cl_int(pitch));
    k.g1 = cl::NDRange(plan.globalX, plan.globalY);
    k.l1 = cl::NDRange(plan.workGroup, 1);
    k.asked1 = tuning.workGroup > 0;
    run.kernels = {kernelLaunch("blur_tiled", k.g1, k.l1)};
}

/// The sliding variant: column sums over tiles of rows, then each row slid along them (a CPU
/// in one work-item a row, a GPU through row tiles in local memory). UnsupportedError where a
/// row tile does not fit the device's local memory.
void setUpSliding(Device& device, const HostImage& image, int radius, const BlurTuning& tuning,
                  BuildOptions& options, const cl::Buffer& in, const cl::Buffer& out,
                  std::size_t pitch, BlurRun& run, BlurKernels& k) {
    const DeviceInfo& info = device.info();
    const BlurTuning devTuning = blurTuningFor(info, tuning);
    const std::size_t rowElems = std::size_t(image.width) * image.channels;
    const std::size_t height = std::size_t(image.height);
    const cl::Context& ctx = device.context();
    const int rows = tuning.rows > 0 ? tuning.rows : 64;
    const std::size_t wg = blurGroupSize(info, tuning.workGroup, 256);
    const bool colsum16 = image.depth == 8 && radius <= 128;
    const std::size_t halo = std::size_t(radius) * std::size_t(image.channels);
    // Enough outputs per group that the 2R-wide border of its tile stays a small part.
    const std::size_t per = std::max<std::size_t>(4, (8 * halo + wg - 1) / wg);
    const std::size_t accBytes = image.depth == 16 ? 8 : 4;
    const std::size_t localBytes =
        (wg * per + 2 * halo) * accBytes + wg * std::size_t(image.channels) * accBytes;
    if (localBytes > info.localMemBytes)
        throw UnsupportedError("sliding blur: a row tile for radius " + std::to_string(radius) +
                               " needs " + std::to_string(localBytes) + " bytes of local memory; " +
                               info.name + " has " + std::to_string(info.localMemBytes));
    run.buildOptions = options.define("COLSUM16", colsum16).define("PER", per).text();
    const cl::Program& program = device.program("blur", run.buildOptions);
    const std::size_t sumPitch = roundUp(rowElems, 4);
    k.sums = cl::Buffer(ctx, CL_MEM_READ_WRITE, sumPitch * height * (colsum16 ? 2 : 4));
    k.k1 = cl::Kernel(program, "blur_columns");
    k.k1.setArg(0, in);
    k.k1.setArg(1, k.sums);
    k.k1.setArg(2, cl_int(image.width));
    k.k1.setArg(3, cl_int(image.height));
    k.k1.setArg(4, cl_int(pitch));
    k.k1.setArg(5, cl_int(sumPitch));
    k.k1.setArg(6, cl_int(radius));
    k.k1.setArg(7, cl_int(rows));
    const std::size_t colWg = 64;
    k.g1 = cl::NDRange(roundUp((rowElems + 3) / 4, colWg),
                       (height + std::size_t(rows) - 1) / std::size_t(rows));
    k.l1 = cl::NDRange(colWg, 1);
    // A CPU slides along each row in one work-item; a GPU scans row tiles in local
    // memory so that neighbouring work-items read neighbouring elements.
    const bool serialRows = devTuning.serialRows == 1;
    k.k2 = cl::Kernel(program, serialRows ? "blur_rows_serial" : "blur_rows");
    k.k2.setArg(0, k.sums);
    k.k2.setArg(1, cl_int(sumPitch));
    k.k2.setArg(2, in);
    k.k2.setArg(3, out);
    k.k2.setArg(4, cl_int(image.width));
    k.k2.setArg(5, cl_int(image.height));
    k.k2.setArg(6, cl_int(pitch));
    k.k2.setArg(7, cl_int(radius));
    if (serialRows) {
        k.g2 = cl::NDRange(roundUp(height, 8), 1);
        k.l2 = cl::NDRange(8, 1);
    } else {
        k.k2.setArg(8, cl::Local((wg * per + 2 * halo) * accBytes));
        k.k2.setArg(9, cl::Local(wg * std::size_t(image.channels) * accBytes));
        k.g2 = cl::NDRange((rowElems + wg * per - 1) / (wg * per) * wg, height);
        k.l2 = cl::NDRange(wg, 1);
        k.asked2 = tuning.workGroup > 0;
    }
    run.kernels = {kernelLaunch("blur_columns", k.g1, k.l1),
                   kernelLaunch(serialRows ? "blur_rows_serial" : "blur_rows", k.g2, k.l2)};
}

} // namespace

BlurRun blurOnDevice(Device& device, const HostImage& image, int radius, BorderMode mode,
                     int repeats, const CancelToken& cancel, BlurVariant variant,
                     const BlurTuning& tuning) {
    validateImage(image);
    requireIntegerImage(image, "the box blur");
    if (radius < 1)
        throw UsageError("--radius", std::to_string(radius) + " is not a radius (1 or more)");
    BlurRun run;
    run.variant = resolveBlurVariant(variant, radius);
    checkVariantRadius(run.variant, radius);
    run.output = image;
    if (image.empty()) {
        run.verified = true;
        return run;
    }
    const int valueBytes = image.depth / 8;
    const std::size_t rowBytes = std::size_t(image.width) * image.channels * valueBytes;
    const std::size_t height = std::size_t(image.height);
    BuildOptions options = blurBaseOptions(mode, image.channels, image.depth);
    run.buildOptions = options.text();
    try {
        cl::CommandQueue& q = device.queue();
        const cl::Context& ctx = device.context();
        // Buffers with rows `pitch` bytes apart (a multiple of 64) for the vector kernels.
        const std::size_t pitch =
            run.variant == BlurVariant::Direct ? rowBytes : roundUp(rowBytes, 64);
        cl::Buffer in(ctx, CL_MEM_READ_ONLY, pitch * height);
        cl::Buffer out(ctx, CL_MEM_READ_WRITE, pitch * height);
        const std::array<std::size_t, 3> origin{0, 0, 0};
        const std::array<std::size_t, 3> region{rowBytes, height, 1};
        if (pitch == rowBytes)
            q.enqueueWriteBuffer(in, CL_TRUE, 0, image.data.size(), image.data.data());
        else
            q.enqueueWriteBufferRect(in, CL_TRUE, origin, origin, region, pitch, 0, rowBytes, 0,
                                     image.data.data());
        const auto readOutput = [&](HostImage& img) {
            if (pitch == rowBytes)
                q.enqueueReadBuffer(out, CL_TRUE, 0, img.data.size(), img.data.data());
            else
                q.enqueueReadBufferRect(out, CL_TRUE, origin, origin, region, pitch, 0, rowBytes, 0,
                                        img.data.data());
        };
        BlurKernels k;
        switch (run.variant) {
        case BlurVariant::Auto:
        case BlurVariant::Direct:
            setUpDirect(device, image, radius, in, out, run, k);
            break;
        case BlurVariant::Tiled:
            setUpTiled(device, image, radius, mode, tuning, in, out, pitch, run, k);
            break;
        case BlurVariant::Sliding:
            setUpSliding(device, image, radius, tuning, options, in, out, pitch, run, k);
            break;
        }
        run.launch = launchText(run.kernels);
        logInfo("blur", std::string(blurVariantName(run.variant)) + " " + run.buildOptions + ": " +
                            run.launch);
        // A group the device refuses (e.g. NVIDIA's, when its registers do not fit a compute
        // unit) is --wg's error when asked for, a device error when it was the default.
        const auto enqueue = [&](const cl::Kernel& kernel, const cl::NDRange& g,
                                 const cl::NDRange& l, bool asked, cl::Event& event) {
            try {
                q.enqueueNDRangeKernel(kernel, cl::NullRange, g, l, nullptr, &event);
            } catch (const cl::Error& e) {
                if (groupSizeRefused(e.err()))
                    device.throwGroupRefused(kernel, l[0] * l[1], e.err(), asked);
                throw;
            }
        };
        const auto once = [&] {
            std::vector<cl::Event> events(k.k2() ? 2 : 1);
            enqueue(k.k1, k.g1, k.l1, k.asked1, events[0]);
            if (k.k2())
                enqueue(k.k2, k.g2, k.l2, k.asked2, events[1]);
            events.back().wait();
            return profiledMs(events);
        };
        run.stats = timeRepeated(repeats, once, cancel);
        readOutput(run.output);
        if (tuning.measureCopy) {
            // The same bytes the blur counts (the image read and written), on the same device.
            run.copy = measureCopyCeiling(device, in, image.data.size(), repeats, cancel);
        }
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
    run.gbps = gbPerSecond(2 * image.data.size(), run.stats.medianMs);
    if (run.copy && run.copy->gbps > 0)
        run.percentOfCopy = 100.0 * run.gbps / run.copy->gbps;
    return run;
}

std::vector<BlurVariantRow> runBlurVariants(Device& device, const HostImage& image,
                                            const std::vector<int>& radii,
                                            const std::vector<BlurVariant>& variants,
                                            BorderMode mode, int repeats, const CancelToken& cancel,
                                            const BlurTuning& tuning,
                                            const std::function<void(BlurVariantRow&)>& onRow) {
    requireIntegerImage(image, "the box blur");
    std::vector<BlurVariantRow> rows;
    for (int radius : radii)
        for (BlurVariant variant : variants) {
            cancel.throwIfCancelled();
            BlurVariantRow row;
            row.requested = variant;
            row.radius = radius;
            try {
                row.run = runBoxBlur(device, image, radius, mode, repeats, cancel, variant, tuning);
                row.status = row.run->verified ? Status::Verified : Status::Mismatch;
                row.detail = row.run->verifyDetail;
            } catch (const UnsupportedError& e) {
                row.status = Status::Unsupported; // expected where the device lacks something
                row.detail = e.what();
            } catch (const UsageError& e) {
                if (variants.size() == 1)
                    throw;
                // among several, a group the device refuses is that variant's row: it cannot
                // run there; any other usage error is not made for these parameters
                row.status = e.parameter() == "--wg" ? Status::Unsupported : Status::NotApplicable;
                row.detail = e.what();
            } catch (...) {
                // Asked for by name, the variant's error is the run's (a usage error above all);
                // among several, one that cannot run is a row that says why.
                if (variants.size() == 1)
                    throw;
                const RowError error = rowErrorOf(std::current_exception());
                row.status = error.status;
                row.detail = error.detail;
            }
            if (onRow)
                onRow(row);
            rows.push_back(std::move(row));
        }
    return rows;
}

} // namespace histlab
