#include "image/image.h"

#include "runtime/bytesize.h"
#include "runtime/errors.h"
#include "runtime/parallel.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <mutex>
#include <optional>
#include <sys/resource.h>
#include <unistd.h>

namespace histlab {

void validateImage(const HostImage& image) {
    if (image.width <= 0 || image.height <= 0)
        throw InputError(image.source + ": image is empty (" + std::to_string(image.width) + " x " +
                         std::to_string(image.height) + ")");
    if (image.channels != 1 && image.channels != 3 && image.channels != 4)
        throw InputError(image.source + ": " + std::to_string(image.channels) +
                         " channels are not supported (1, 3 or 4)");
    if (image.depth != 8 && image.depth != 16 && image.depth != 32)
        throw InputError(image.source + ": " + std::to_string(image.depth) +
                         "-bit channels are not supported (8- or 16-bit unsigned, 32-bit float)");
    if (image.data.size() != image.byteCount())
        throw InputError(image.source + ": pixel data holds " + std::to_string(image.data.size()) +
                         " bytes, expected " + std::to_string(image.byteCount()));
}

const std::vector<std::string>& imageFileExtensions() {
    // Every format of the README's table "Image files": the libraries' (JPEG, PNG, TIFF, GIF),
    // HistLab's own readers (Netpbm, TGA by its name, ICO/CUR) and OpenCV's (the rest).
    static const std::vector<std::string> extensions = {
        "png", "jpg", "jpeg", "jpe", "tif",  "tiff", "gif", "bmp", "dib", "pgm",
        "ppm", "pbm", "pnm",  "pam", "webp", "tga",  "icb", "vda", "vst", "ico",
        "cur", "pfm", "hdr",  "pic", "exr",  "jp2",  "j2k", "sr",  "ras"};
    return extensions;
}

std::string depthName(int depth) {
    return depth == 32 ? std::string("32-bit float") : std::to_string(depth) + "-bit";
}

void requireIntegerImage(const HostImage& image, const std::string& what) {
    if (image.isFloat())
        throw InputError(image.source + ": a 32-bit float image; " + what +
                         " works on 8- or 16-bit images (histograms of floats: histlab-cli "
                         "histogram, or the Image tab)");
}

HostImage toHighByte(const HostImage& image) {
    requireIntegerImage(image, "the 8-bit form (high byte)");
    if (image.depth == 8)
        return image;
    HostImage out = image;
    out.depth = 8;
    const std::size_t n = image.data.size() / 2;
    out.data.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        std::uint16_t v;
        std::memcpy(&v, image.data.data() + 2 * i, 2);
        out.data[i] = static_cast<std::uint8_t>(v >> 8);
    }
    return out;
}

HostImage toDisplay8(const HostImage& image) {
    if (!image.isFloat())
        return toHighByte(image);
    const std::size_t n = image.data.size() / 4;
    auto at = [&image](std::size_t i) {
        float v;
        std::memcpy(&v, image.data.data() + 4 * i, 4);
        return v;
    };
    float lo = INFINITY, hi = -INFINITY;
    for (std::size_t i = 0; i < n; ++i) {
        const float v = at(i);
        if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    HostImage out = image;
    out.depth = 8;
    out.data.resize(n);
    const double scale = hi > lo ? 255.0 / (double(hi) - double(lo)) : 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const float v = at(i);
        if (std::isnan(v) || v <= lo)
            out.data[i] = 0;
        else if (v >= hi)
            out.data[i] = hi > lo ? 255 : 0;
        else
            out.data[i] = std::uint8_t(std::lround((double(v) - lo) * scale));
    }
    return out;
}

std::vector<std::uint8_t> lumaPlane(const HostImage& image) {
    const std::size_t n = image.pixelCount();
    const int c = image.channels;
    if (c == 1)
        return image.data;
    std::vector<std::uint8_t> gray(n);
    const std::uint8_t* p = image.data.data();
    for (std::size_t i = 0; i < n; ++i, p += c)
        gray[i] = lumaOf(p[0], p[1], p[2]);
    return gray;
}

Region parseRegion(const std::string& text) {
    Region r;
    int* fields[] = {&r.x, &r.y, &r.width, &r.height};
    const char* p = text.c_str();
    const char* end = p + text.size();
    for (int i = 0; i < 4; ++i) {
        auto [next, ec] = std::from_chars(p, end, *fields[i]);
        if (ec != std::errc() || (i < 3 && (next == end || *next != ',')) ||
            (i == 3 && next != end))
            throw UsageError("--region", "'" + text + "' is not X,Y,W,H (four whole numbers)");
        p = next + 1;
    }
    if (r.width <= 0 || r.height <= 0)
        throw UsageError("--region", "width and height must be greater than 0");
    return r;
}

HostImage cropImage(const HostImage& image, const Region& region) {
    validateImage(image);
    const auto describe = [&] {
        return std::to_string(region.x) + "," + std::to_string(region.y) + " " +
               std::to_string(region.width) + "x" + std::to_string(region.height);
    };
    if (region.width <= 0 || region.height <= 0)
        throw UsageError("--region", "region " + describe() + " is empty");
    if (region.x < 0 || region.y < 0 || region.x > image.width - region.width ||
        region.y > image.height - region.height)
        throw UsageError("--region", "region " + describe() + " does not lie inside the " +
                                         std::to_string(image.width) + " x " +
                                         std::to_string(image.height) + " image");
    HostImage out;
    out.width = region.width;
    out.height = region.height;
    out.channels = image.channels;
    out.depth = image.depth;
    out.source = image.source + " [region " + describe() + "]";
    const std::size_t pixelBytes = std::size_t(image.channels) * (image.depth / 8);
    const std::size_t rowBytes = pixelBytes * region.width;
    out.data.resize(rowBytes * region.height);
    for (int row = 0; row < region.height; ++row)
        std::memcpy(out.data.data() + rowBytes * row,
                    image.data.data() +
                        (std::size_t(region.y + row) * image.width + region.x) * pixelBytes,
                    rowBytes);
    return out;
}

SyntheticKind parseSyntheticKind(const std::string& name) {
    if (name == "random")
        return SyntheticKind::Random;
    if (name == "uniform")
        return SyntheticKind::Uniform;
    if (name == "gradient")
        return SyntheticKind::Gradient;
    if (name == "skewed")
        return SyntheticKind::Skewed;
    throw UsageError("--synthetic",
                     "unknown kind '" + name + "' (random, uniform, gradient, skewed)");
}

const char* syntheticKindName(SyntheticKind kind) {
    switch (kind) {
    case SyntheticKind::Random:
        return "random";
    case SyntheticKind::Uniform:
        return "uniform";
    case SyntheticKind::Gradient:
        return "gradient";
    case SyntheticKind::Skewed:
        return "skewed";
    }
    return "?";
}

namespace {
// splitmix64: a small, fast generator whose output does not depend on the platform.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

void fillRange(SyntheticKind kind, std::uint8_t* out, std::size_t begin, std::size_t end,
               std::size_t total, std::uint64_t seed) {
    for (std::size_t i = begin; i < end;) {
        const std::uint64_t r = mix(seed * 0x100000001B3ull + i / 8);
        for (std::size_t j = i % 8; j < 8 && i < end; ++j, ++i) {
            const std::uint8_t rb = static_cast<std::uint8_t>(r >> (8 * j));
            switch (kind) {
            case SyntheticKind::Random:
                out[i] = rb;
                break;
            case SyntheticKind::Uniform:
                out[i] = 0x5A;
                break;
            case SyntheticKind::Gradient:
                out[i] = static_cast<std::uint8_t>(std::uint64_t(i) * 256 / total);
                break;
            case SyntheticKind::Skewed:
                // 90 % one value: the low 7 bits of the next byte choose, roughly 230 / 256.
                out[i] = ((r >> (8 * ((j + 1) % 8))) & 0xFF) < 230 ? 0xC8 : rb;
                break;
            }
        }
    }
}

/// `width` x `height` pixels of `channels` 8-bit channels, their bytes filled with `kind`.
HostImage syntheticPixels(SyntheticKind kind, int width, int height, int channels,
                          std::uint64_t seed) {
    HostImage img;
    img.width = width;
    img.height = height;
    img.channels = channels;
    img.depth = 8;
    img.data.resize(img.byteCount());
    fillSynthetic(kind, img.data.data(), img.data.size(), seed);
    img.source = std::string("synthetic ") + syntheticKindName(kind);
    return img;
}
} // namespace

void fillSynthetic(SyntheticKind kind, std::uint8_t* out, std::size_t bytes, std::uint64_t seed) {
    // Large buffers (a GiB on the GPU machine) are filled by all cores.
    const unsigned threads = bytes < (std::size_t(64) << 20) ? 1u : hostThreads();
    const std::size_t step = (bytes / threads + 7) / 8 * 8;
    runTasks(threads, [&](std::size_t t) {
        const std::size_t b = std::min(bytes, t * step), e = std::min(bytes, b + step);
        fillRange(kind, out, b, e, bytes, seed);
    });
}

namespace {
/// The machine's memory, and the address space this process may use (none: unlimited).
std::uint64_t physicalMemoryBytes() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGE_SIZE);
    return pages > 0 && pageSize > 0 ? std::uint64_t(pages) * std::uint64_t(pageSize)
                                     : std::uint64_t(4) << 30;
}
std::optional<std::uint64_t> addressSpaceLimit() {
    struct rlimit limit {};
    if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        return std::uint64_t(limit.rlim_cur);
    return std::nullopt;
}
/// A size asked for, which may be absurd: "5.9 GiB", or "over 10^18 bytes".
std::string sizeOfText(double bytes) {
    return std::isfinite(bytes) && bytes < 1e18 ? roundedByteSize(std::uint64_t(bytes))
                                                : std::string("over 10^18 bytes");
}
} // namespace

std::uint64_t hostMemoryBytes() {
    // A job started with a limit (ulimit -v, a batch system's address-space limit) has that
    // much: past it every allocation fails, however much the machine has.
    const std::optional<std::uint64_t> limit = addressSpaceLimit();
    return std::min(physicalMemoryBytes(), limit.value_or(UINT64_MAX));
}

std::string hostMemoryName() {
    const std::optional<std::uint64_t> limit = addressSpaceLimit();
    return limit && *limit < physicalMemoryBytes() ? "the memory ulimit -v allows"
                                                   : "this machine's memory";
}

std::uint64_t syntheticLimitBytes() {
    return hostMemoryBytes() / 4;
}

void checkSyntheticSize(const std::string& option, double bytes) {
    const std::uint64_t limit = syntheticLimitBytes();
    if (!(bytes <= double(limit))) // NaN too
        throw UsageError(option, sizeOfText(bytes) + " of synthetic data: more than a quarter of " +
                                     hostMemoryName() + " (" + roundedByteSize(limit) + " of " +
                                     roundedByteSize(hostMemoryBytes()) + ")");
}

std::uint64_t runMemoryLimitBytes() {
    return hostMemoryBytes() / 2;
}

void checkRunMemory(const std::string& option, const std::string& what, double bytes) {
    const std::uint64_t limit = runMemoryLimitBytes();
    if (!(bytes <= double(limit))) // NaN too
        throw UsageError(option, what + " need " + sizeOfText(bytes) +
                                     " of host memory: more than half of " + hostMemoryName() +
                                     " (" + roundedByteSize(limit) + " of " +
                                     roundedByteSize(hostMemoryBytes()) + ")");
}

HostImage makeSynthetic(SyntheticKind kind, std::size_t bytes, std::uint64_t seed,
                        const std::string& option) {
    if (bytes == 0)
        throw UsageError(option, "must be greater than 0");
    checkSyntheticSize(option, double(bytes));
    if (bytes <= std::size_t(INT32_MAX))
        return syntheticPixels(kind, static_cast<int>(bytes), 1, 1, seed);
    // Very large: several rows of equal width.
    constexpr std::size_t kRow = std::size_t(1) << 20;
    if (bytes % kRow != 0)
        throw UsageError(option, "sizes over 2 GiB must be whole MiB");
    return syntheticPixels(kind, int(kRow), static_cast<int>(bytes / kRow), 1, seed);
}

HostImage makeSyntheticPixels(SyntheticKind kind, std::size_t bytes, int channels,
                              const std::string& option) {
    if (channels == 1)
        return makeSynthetic(kind, bytes, 1, option);
    if (channels != 3 && channels != 4)
        throw UsageError("--channels", std::to_string(channels) + ": 1, 3 or 4");
    constexpr std::size_t kRow = std::size_t(1) << 20;
    std::size_t pixels = bytes / std::size_t(channels);
    if (pixels > std::size_t(INT32_MAX))
        pixels = pixels / kRow * kRow;
    if (pixels == 0)
        throw UsageError(option, std::to_string(bytes) + " bytes: less than one pixel of " +
                                     std::to_string(channels) + " channels");
    checkSyntheticSize(option, double(pixels) * channels);
    const int width = pixels > std::size_t(INT32_MAX) ? int(kRow) : int(pixels);
    HostImage img = syntheticPixels(kind, width, int(pixels / std::size_t(width)), channels, 1);
    img.source +=
        ", " + std::to_string(pixels) + " pixels of " + std::to_string(channels) + " channels";
    return img;
}

HostImage makeSyntheticImage(SyntheticKind kind, int width, int height, int channels, int depth,
                             std::uint64_t seed) {
    const std::size_t bytes =
        std::size_t(width) * std::size_t(height) * std::size_t(channels) * std::size_t(depth / 8);
    HostImage img = makeSynthetic(kind, bytes, seed, "--width/--height");
    img.width = width;
    img.height = height;
    img.channels = channels;
    img.depth = depth;
    img.source = std::string("synthetic ") + syntheticKindName(kind) + " " + std::to_string(width) +
                 "x" + std::to_string(height);
    return img;
}

HostImage randomGrayImage(std::size_t pixels, std::uint64_t seed) {
    HostImage image;
    const std::size_t side =
        std::max<std::size_t>(16, std::size_t(std::sqrt(double(pixels))) / 16 * 16);
    image.width = int(side);
    image.height = int(std::max<std::size_t>(1, pixels / side));
    image.channels = 1;
    image.depth = 8;
    image.data.resize(image.byteCount());
    fillSynthetic(SyntheticKind::Random, image.data.data(), image.data.size(), seed);
    image.source =
        "random 8-bit gray " + std::to_string(image.width) + " x " + std::to_string(image.height);
    return image;
}

std::string firstPixelDifference(const HostImage& device, const HostImage& reference) {
    // memcmp first: the byte loop below, which stops at a difference, is not vectorized, and
    // takes tens of milliseconds over a large image that is equal (the usual case).
    if (device.data.size() != reference.data.size())
        return std::to_string(device.data.size()) + " bytes from the device, " +
               std::to_string(reference.data.size()) + " in the CPU reference";
    if (device.data.empty() ||
        std::memcmp(device.data.data(), reference.data.data(), device.data.size()) == 0)
        return {};
    const std::size_t valueBytes = std::size_t(device.depth / 8);
    const std::size_t pixelBytes = std::size_t(device.channels) * valueBytes;
    for (std::size_t i = 0; i < device.data.size() && i < reference.data.size(); ++i)
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

namespace {
std::mutex& readerMutex() {
    static std::mutex m;
    return m;
}
ImageFileReader& imageFileReader() {
    static ImageFileReader reader;
    return reader;
}
/// A copy of the front end's function in `slot`, taken under the lock (a front end may set it
/// while another thread reads through it).
template <typename F> F frontEndFunction(const F& slot) {
    const std::lock_guard<std::mutex> lock(readerMutex());
    return slot;
}
/// What reading `path` says in a build whose front end gave no image reader.
[[noreturn]] void refuseNoImageReader(const std::string& path) {
    throw InputError(path + ": this build reads no image files (it was built without OpenCV)");
}
} // namespace

void setImageFileReader(ImageFileReader reader) {
    const std::lock_guard<std::mutex> lock(readerMutex());
    imageFileReader() = std::move(reader);
}

bool canReadImageFiles() {
    const std::lock_guard<std::mutex> lock(readerMutex());
    return static_cast<bool>(imageFileReader());
}

HostImage readImageFile(const std::string& path) {
    const ImageFileReader reader = frontEndFunction(imageFileReader());
    if (!reader)
        refuseNoImageReader(path);
    return reader(path);
}

bool isPageRange(const std::string& text) {
    return text == "all" || text.find('-') != std::string::npos;
}

PageRange parsePageRange(const std::string& text) {
    if (text == "all")
        return {};
    const std::size_t dash = text.find('-');
    auto page = [&](const std::string& part) {
        const bool digits = !part.empty() && part.size() <= 9 &&
                            part.find_first_not_of("0123456789") == std::string::npos;
        if (!digits)
            throw UsageError("--page", "'" + text +
                                           "' is not a page range (all, or A-B: whole numbers "
                                           "from 1, both pages included)");
        const int v = std::stoi(part);
        if (v < 1)
            throw UsageError("--page", "'" + text + "': pages count from 1");
        return v;
    };
    const PageRange range{page(text.substr(0, dash)), page(text.substr(dash + 1))};
    if (range.last < range.first)
        throw UsageError("--page", "'" + text + "': the last page (" + std::to_string(range.last) +
                                       ") comes before the first (" + std::to_string(range.first) +
                                       ")");
    return range;
}

int lastPageOf(const PageRange& range, int pages, const std::string& path) {
    const int last = range.last ? range.last : pages;
    if (last > pages || range.first > pages)
        throw UsageError("--page", path + " has " + std::to_string(pages) +
                                       (pages == 1 ? " page" : " pages") + ", not a page " +
                                       std::to_string(std::max(last, range.first)));
    return last;
}

namespace {
ImagePagesOpener& imagePagesOpener() {
    static ImagePagesOpener opener;
    return opener;
}
} // namespace

void setImagePagesOpener(ImagePagesOpener opener) {
    const std::lock_guard<std::mutex> lock(readerMutex());
    imagePagesOpener() = std::move(opener);
}

std::unique_ptr<ImagePageReader> openImagePages(const std::string& path) {
    const ImagePagesOpener opener = frontEndFunction(imagePagesOpener());
    if (!opener)
        refuseNoImageReader(path);
    return opener(path);
}

namespace {
ImageFileWriter& imageFileWriter() {
    static ImageFileWriter writer;
    return writer;
}
} // namespace

void setImageFileWriter(ImageFileWriter writer) {
    const std::lock_guard<std::mutex> lock(readerMutex());
    imageFileWriter() = std::move(writer);
}

bool canWriteImageFiles() {
    const std::lock_guard<std::mutex> lock(readerMutex());
    return static_cast<bool>(imageFileWriter());
}

void writeImageFile(const HostImage& image, const std::string& path) {
    const ImageFileWriter writer = frontEndFunction(imageFileWriter());
    if (!writer)
        throw InputError(path + ": this build writes no image files (it was built without "
                                "OpenCV)");
    writer(image, path);
}

} // namespace histlab
