#include "blur.h"

#include "errors.h"
#include "log.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace histlab {

BorderMode parseBorderMode(const std::string& name) {
    if (name == "interior")
        return BorderMode::Interior;
    if (name == "replicate")
        return BorderMode::Replicate;
    if (name == "reflect101")
        return BorderMode::Reflect101;
    throw UsageError("--border", "'" + name +
                                     "' is not a border mode (interior, replicate or "
                                     "reflect101)");
}

const char* borderModeName(BorderMode mode) {
    switch (mode) {
    case BorderMode::Interior:
        return "interior";
    case BorderMode::Replicate:
        return "replicate";
    case BorderMode::Reflect101:
        return "reflect101";
    }
    return "?";
}

int borderIndex(int i, int n, BorderMode mode) {
    if (n == 1)
        return 0;
    if (mode == BorderMode::Reflect101) {
        // Mirror about the first and last pixel until inside (radii larger than the image
        // bounce more than once).
        const int period = 2 * (n - 1);
        i %= period;
        if (i < 0)
            i += period;
        return i < n ? i : period - i;
    }
    return std::clamp(i, 0, n - 1); // replicate (interior never reads outside)
}

namespace {

template <typename T>
void blurPlane(const T* in, T* out, int width, int height, int channels, int radius,
               BorderMode mode) {
    const std::uint64_t n = std::uint64_t(2 * radius + 1) * std::uint64_t(2 * radius + 1);
    const auto at = [&](int x, int y, int c) {
        return in[(std::size_t(y) * width + x) * channels + c];
    };
    if (mode == BorderMode::Interior) {
        std::memcpy(out, in, std::size_t(width) * height * channels * sizeof(T));
        if (width <= 2 * radius || height <= 2 * radius)
            return; // no pixel has its whole window inside
    }
    const int x0 = mode == BorderMode::Interior ? radius : 0;
    const int y0 = x0;
    const int x1 = mode == BorderMode::Interior ? width - radius : width;
    const int y1 = mode == BorderMode::Interior ? height - radius : height;
    // Column sums of the window's rows, slid down one row at a time: O(R) per pixel and row.
    std::vector<std::uint64_t> column(std::size_t(width) * channels);
    for (int y = y0; y < y1; ++y) {
        std::fill(column.begin(), column.end(), 0);
        for (int dy = -radius; dy <= radius; ++dy) {
            const int sy =
                mode == BorderMode::Interior ? y + dy : borderIndex(y + dy, height, mode);
            for (int x = 0; x < width; ++x)
                for (int c = 0; c < channels; ++c)
                    column[std::size_t(x) * channels + c] += at(x, sy, c);
        }
        for (int x = x0; x < x1; ++x)
            for (int c = 0; c < channels; ++c) {
                std::uint64_t sum = 0;
                for (int dx = -radius; dx <= radius; ++dx) {
                    const int sx =
                        mode == BorderMode::Interior ? x + dx : borderIndex(x + dx, width, mode);
                    sum += column[std::size_t(sx) * channels + c];
                }
                out[(std::size_t(y) * width + x) * channels + c] = T((sum + n / 2) / n);
            }
    }
}

} // namespace

HostImage boxBlurReference(const HostImage& image, int radius, BorderMode mode) {
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

struct LaunchName {
    BlurLaunch launch;
    const char* name;
};
constexpr LaunchName kLaunches[] = {{BlurLaunch::Cl12Null, "cl12-null"},
                                    {BlurLaunch::Cl12Local16, "cl12-16x16"},
                                    {BlurLaunch::Cl20Null, "cl20-null"},
                                    {BlurLaunch::Cl20Local16, "cl20-16x16"},
                                    {BlurLaunch::Padded16, "padded-16x16"}};

std::string firstDifference(const HostImage& device, const HostImage& reference) {
    const std::size_t valueBytes = std::size_t(device.depth / 8);
    const std::size_t pixelBytes = std::size_t(device.channels) * valueBytes;
    for (std::size_t i = 0; i < device.data.size(); ++i)
        if (device.data[i] != reference.data[i]) {
            const std::size_t pixel = i / pixelBytes, first = i - i % valueBytes;
            auto value = [&](const HostImage& img) {
                unsigned v = img.data[first];
                if (valueBytes == 2)
                    v |= unsigned(img.data[first + 1]) << 8; // little-endian, as loaded
                return std::to_string(v);
            };
            return "pixel (" + std::to_string(pixel % std::size_t(device.width)) + ", " +
                   std::to_string(pixel / std::size_t(device.width)) + ") channel " +
                   std::to_string((i % pixelBytes) / valueBytes) + ": device " + value(device) +
                   ", CPU reference " + value(reference);
        }
    return {};
}

} // namespace

BlurLaunch parseBlurLaunch(const std::string& name) {
    for (const LaunchName& l : kLaunches)
        if (name == l.name)
            return l.launch;
    throw UsageError("--launch", "'" + name +
                                     "' is not a launch (cl12-null, cl12-16x16, cl20-null, "
                                     "cl20-16x16, padded-16x16 or all)");
}

const char* blurLaunchName(BlurLaunch launch) {
    for (const LaunchName& l : kLaunches)
        if (l.launch == launch)
            return l.name;
    return "?";
}

std::vector<BlurLaunch> allBlurLaunches() {
    std::vector<BlurLaunch> all;
    for (const LaunchName& l : kLaunches)
        all.push_back(l.launch);
    return all;
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
        r.buildOptions = std::string(cl20 ? "-cl-std=CL2.0" : "-cl-std=CL1.2") +
                         " -D PADDED=" + (padded ? "1" : "0");
        r.localX = r.localY = local16 ? 16 : 0;
        if (iw <= 0 || ih <= 0) {
            r.outcome = "empty";
            r.detail = "the interior is empty (" + std::to_string(img.width) + " x " +
                       std::to_string(img.height) + " with radius " + std::to_string(radius) +
                       "): the image is copied unchanged";
            r.output = img;
            r.verified = r.output.data == reference.data;
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
            r.outcome = "unsupported";
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
                    r.outcome = "refused";
                    r.detail = describeClError("clEnqueueNDRangeKernel", e.err()) +
                               ": OpenCL 1.2 needs the range (" + std::to_string(iw) + " x " +
                               std::to_string(ih) + ") to divide by the 16 x 16 group";
                } else {
                    r.outcome = "unsupported";
                    r.detail = describeClError("clEnqueueNDRangeKernel", e.err()) + ": " +
                               device.info().name +
                               " has no non-uniform work-groups (see padded-16x16)";
                }
                results.push_back(std::move(r));
                continue;
            }
            r.outcome = "ran";
            r.gbps = gbPerSecond(std::uint64_t(2 * iw * ih), r.stats.medianMs);
            std::vector<cl_int> c(24);
            q.enqueueReadBuffer(corners, CL_TRUE, 0, c.size() * sizeof(cl_int), c.data());
            for (int k = 0; k < 4; ++k)
                r.corners[std::size_t(k)] = {c[6 * k],     c[6 * k + 1], c[6 * k + 2],
                                             c[6 * k + 3], c[6 * k + 4], c[6 * k + 5]};
            r.output = img;
            q.enqueueReadBuffer(out, CL_TRUE, 0, r.output.data.size(), r.output.data.data());
            r.verifyDetail = firstDifference(r.output, reference);
            r.verified = r.verifyDetail.empty();
        } catch (const cl::Error& e) {
            rethrowClError(e);
        }
        logInfo("blur", std::string(blurLaunchName(launch)) + ": " + r.outcome);
        results.push_back(std::move(r));
    }
    return results;
}

BlurRun runBoxBlur(Device& device, const HostImage& image, int radius, BorderMode mode, int repeats,
                   const CancelToken& cancel) {
    validateImage(image);
    if (radius < 1)
        throw UsageError("--radius", std::to_string(radius) + " is not a radius (1 or more)");
    BlurRun run;
    run.output = image;
    const HostImage reference = boxBlurReference(image, radius, mode);
    if (image.empty()) {
        run.verified = true;
        return run;
    }
    const std::string options = "-D BORDER=" + std::to_string(int(mode)) +
                                " -D NCHAN=" + std::to_string(image.channels) +
                                " -D DEPTH16=" + (image.depth == 16 ? "1" : "0");
    try {
        cl::Kernel kernel(device.program("blur", options), "blur_full");
        cl::CommandQueue& q = device.queue();
        cl::Buffer in(device.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, image.data.size(),
                      const_cast<std::uint8_t*>(image.data.data()));
        cl::Buffer out(device.context(), CL_MEM_WRITE_ONLY, image.data.size());
        kernel.setArg(0, in);
        kernel.setArg(1, out);
        kernel.setArg(2, cl_int(image.width));
        kernel.setArg(3, cl_int(image.height));
        kernel.setArg(4, cl_int(radius));
        const cl::NDRange global((std::size_t(image.width) + 15) / 16 * 16,
                                 (std::size_t(image.height) + 15) / 16 * 16);
        auto once = [&] {
            cl::Event ev;
            q.enqueueNDRangeKernel(kernel, cl::NullRange, global, cl::NDRange(16, 16), nullptr,
                                   &ev);
            ev.wait();
            return profiledMs({ev});
        };
        run.stats = timeRepeated(repeats, once, cancel);
        q.enqueueReadBuffer(out, CL_TRUE, 0, run.output.data.size(), run.output.data.data());
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
    run.gbps = gbPerSecond(2 * image.data.size(), run.stats.medianMs);
    run.verifyDetail = firstDifference(run.output, reference);
    run.verified = run.verifyDetail.empty();
    return run;
}

} // namespace histlab
