#include "blur.h"

#include "errors.h"

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

} // namespace histlab
