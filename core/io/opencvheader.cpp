// The declared size of the formats HistLab hands to OpenCV, read from their headers before
// OpenCV sees the file. OpenCV 4.6 checks only its own limit (2^30 pixels, read from
// OPENCV_IO_MAX_IMAGE_PIXELS once, when its library loads) before it allocates the whole image,
// and a few compressed bytes can declare that many: 12 GB for a Radiance HDR, 16 GB for an
// OpenEXR. Each reader below takes what the format's specification puts in its header and the
// most its OpenCV decoder allocates per pixel, so that HistLab's limits (pixels, and a quarter
// of memory) hold for these formats too. A header that cannot be read is left to OpenCV.
#include "io/decoders.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <string_view>

namespace histlab::io {

namespace {

using Declared = DeclaredSize;
using Bytes = std::vector<unsigned char>;

/// The whitespace-separated words of a text header from `at` up to `end`, '#' comments left out
/// (Netpbm's PAM and PFM).
std::vector<std::string> headerWords(const Bytes& b, std::size_t at, std::size_t end) {
    std::vector<std::string> words;
    std::string word;
    end = std::min(end, b.size());
    for (std::size_t i = at; i < end; ++i) {
        const unsigned char c = b[i];
        if (c == '#' && word.empty()) {
            while (i < end && b[i] != '\n')
                ++i;
        } else if (std::isspace(c)) {
            if (!word.empty())
                words.push_back(std::move(word));
            word.clear();
        } else {
            word += char(c);
        }
    }
    if (!word.empty())
        words.push_back(word);
    return words;
}

/// A decimal whole number, or nothing (a sign, a fraction, a letter, too many digits).
std::optional<std::uint64_t> wholeNumber(const std::string& s) {
    if (s.empty() || s.size() > 19 ||
        !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); }))
        return std::nullopt;
    return std::strtoull(s.c_str(), nullptr, 10);
}

// BMP (Microsoft's BITMAPINFOHEADER and its successors, or OS/2's 12-byte BITMAPCOREHEADER): a
// negative height is a top-down image. OpenCV decodes 32 bits per pixel as BGRA, anything else
// as BGR or gray.
std::optional<Declared> bmp(const Bytes& b) {
    if (b.size() < 30)
        return std::nullopt;
    Declared d;
    if (le32(&b[14]) == 12) {
        d.width = le16(&b[18]);
        d.height = le16(&b[20]);
        d.channels = le16(&b[24]) == 32 ? 4 : 3;
    } else {
        d.width = std::uint64_t(std::llabs(std::int64_t(std::int32_t(le32(&b[18])))));
        d.height = std::uint64_t(std::llabs(std::int64_t(std::int32_t(le32(&b[22])))));
        d.channels = le16(&b[28]) == 32 ? 4 : 3;
    }
    return d;
}

// Sun raster: width, height and depth as big-endian words after the magic; OpenCV decodes it
// as 8-bit BGR or gray.
std::optional<Declared> sunRaster(const Bytes& b) {
    if (b.size() < 16)
        return std::nullopt;
    return Declared{be32(&b[4]), be32(&b[8]), 3, 1};
}

// PAM (Netpbm's P7): WIDTH, HEIGHT, DEPTH (channels) and MAXVAL (16 bits above 255) before
// ENDHDR.
std::optional<Declared> pam(const Bytes& b) {
    const auto words = headerWords(b, 2, std::min<std::size_t>(b.size(), 4096));
    Declared d;
    bool width = false, height = false;
    for (std::size_t i = 0; i + 1 < words.size() && words[i] != "ENDHDR"; ++i) {
        const auto n = wholeNumber(words[i + 1]);
        if (!n)
            continue;
        if (words[i] == "WIDTH")
            d.width = *n, width = true;
        else if (words[i] == "HEIGHT")
            d.height = *n, height = true;
        else if (words[i] == "DEPTH")
            d.channels = int(std::clamp<std::uint64_t>(*n, 1, 4096));
        else if (words[i] == "MAXVAL")
            d.bytesPerChannel = *n > 255 ? 2 : 1;
    }
    if (!width || !height)
        return std::nullopt;
    return d;
}

// PFM: "PF" (RGB) or "Pf" (gray), then width, height and the scale, in text; 32-bit floats.
std::optional<Declared> pfm(const Bytes& b) {
    const auto words = headerWords(b, 2, std::min<std::size_t>(b.size(), 256));
    if (words.size() < 2)
        return std::nullopt;
    const auto w = wholeNumber(words[0]), h = wholeNumber(words[1]);
    if (!w || !h)
        return std::nullopt;
    return Declared{*w, *h, b[1] == 'F' ? 3 : 1, 4};
}

// Radiance HDR: text lines up to an empty one, then the resolution ("-Y 480 +X 640": the first
// axis counts the rows); OpenCV decodes it as 32-bit float RGB.
std::optional<Declared> radiance(const Bytes& b) {
    static constexpr std::string_view end = "\n\n";
    const auto at = std::search(b.begin(), b.end(), end.begin(), end.end());
    if (at == b.end())
        return std::nullopt;
    const std::size_t line = std::size_t(at - b.begin()) + 2;
    const auto words = headerWords(b, line, line + 64);
    if (words.size() < 4 || words[0].size() != 2 || words[2].size() != 2)
        return std::nullopt;
    const auto n1 = wholeNumber(words[1]), n2 = wholeNumber(words[3]);
    if (!n1 || !n2)
        return std::nullopt;
    const bool rowsFirst = words[0][1] == 'Y';
    return Declared{rowsFirst ? *n2 : *n1, rowsFirst ? *n1 : *n2, 3, 4};
}

// OpenEXR: after the magic and the version, attributes (name, type, size, value) up to an empty
// name; the data window is box2i (xMin, yMin, xMax, yMax, inclusive). OpenCV decodes 1, 3 or 4
// channels of 32 bits (half floats widened).
std::optional<Declared> openExr(const Bytes& b) {
    std::size_t at = 8;
    auto text = [&](std::string& out) {
        const auto zero = std::find(b.begin() + std::ptrdiff_t(std::min(at, b.size())), b.end(), 0);
        if (zero == b.end())
            return false;
        out.assign(b.begin() + std::ptrdiff_t(at), zero);
        at = std::size_t(zero - b.begin()) + 1;
        return true;
    };
    std::optional<Declared> d;
    int channels = 4;
    std::string name, type;
    while (text(name) && !name.empty() && text(type) && at + 4 <= b.size()) {
        const std::size_t size = le32(&b[at]);
        at += 4;
        if (size > b.size() - at)
            break;
        if (name == "dataWindow" && type == "box2i" && size == 16) {
            const auto i32 = [&](std::size_t k) {
                return std::int64_t(std::int32_t(le32(&b[at + 4 * k])));
            };
            const std::int64_t w = i32(2) - i32(0) + 1, h = i32(3) - i32(1) + 1;
            if (w <= 0 || h <= 0)
                return std::nullopt; // OpenCV refuses it
            d = Declared{std::uint64_t(w), std::uint64_t(h), 4, 4};
        } else if (name == "channels" && type == "chlist") {
            // entries: a name, then 16 bytes (type, linear, reserved, x and y sampling)
            int count = 0;
            for (std::size_t e = at; e < at + size && b[e] != 0; ++count) {
                const auto zero = std::find(b.begin() + std::ptrdiff_t(e),
                                            b.begin() + std::ptrdiff_t(at + size), 0);
                e = std::size_t(zero - b.begin()) + 17;
            }
            channels = std::clamp(count, 1, 4);
        }
        at += size;
    }
    if (d)
        d->channels = channels;
    return d;
}

// JPEG 2000: a JP2 file's image header box (in the jp2h box: height, width, components, bits
// per component) or a bare codestream's SIZ marker (the reference grid less its offset).
// OpenJPEG holds every component of every pixel as a 32-bit integer while OpenCV copies them
// out, so that is what a pixel costs.
std::optional<Declared> jpeg2000(const Bytes& b) {
    if (hasAt(b, 0, "\xff\x4f\xff\x51")) {
        if (b.size() < 42)
            return std::nullopt;
        const std::uint64_t xsiz = be32(&b[8]), ysiz = be32(&b[12]);
        const std::uint64_t x0 = be32(&b[16]), y0 = be32(&b[20]);
        if (xsiz <= x0 || ysiz <= y0)
            return std::nullopt;
        return Declared{xsiz - x0, ysiz - y0, std::max(1, int(be16(&b[40]))), 4};
    }
    // boxes: length (0: to the end, 1: a 64-bit length follows), type, contents
    auto box = [&](std::size_t at, std::size_t end,
                   std::string_view want) -> std::optional<std::pair<std::size_t, std::size_t>> {
        while (at + 8 <= end) {
            std::uint64_t length = be32(&b[at]);
            std::size_t header = 8;
            if (length == 1) {
                if (at + 16 > end)
                    return std::nullopt;
                length = std::uint64_t(be32(&b[at + 8])) << 32 | be32(&b[at + 12]);
                header = 16;
            } else if (length == 0) {
                length = end - at;
            }
            if (length < header || length > end - at)
                return std::nullopt;
            if (hasAt(b, at + 4, want))
                return std::pair{at + header, at + std::size_t(length)};
            at += std::size_t(length);
        }
        return std::nullopt;
    };
    const auto header = box(0, b.size(), "jp2h");
    const auto image = header ? box(header->first, header->second, "ihdr") : std::nullopt;
    if (!image || image->second - image->first < 14)
        return std::nullopt;
    const std::size_t at = image->first;
    return Declared{be32(&b[at + 4]), be32(&b[at]), std::max(1, int(be16(&b[at + 8]))), 4};
}

// WebP: the canvas of an extended file (VP8X), or the frame of a lossless (VP8L) or lossy
// (VP8) one; OpenCV decodes it as 8-bit BGR or BGRA.
std::optional<Declared> webp(const Bytes& b) {
    const auto le24 = [&](std::size_t at) { return le16(&b[at]) | std::uint32_t(b[at + 2]) << 16; };
    if (hasAt(b, 12, "VP8X") && b.size() >= 30)
        return Declared{1 + std::uint64_t(le24(24)), 1 + std::uint64_t(le24(27)), 4, 1};
    if (hasAt(b, 12, "VP8L") && b.size() >= 25 && b[20] == 0x2F) {
        const std::uint32_t v = le32(&b[21]);
        return Declared{1 + (v & 0x3FFFu), 1 + ((v >> 14) & 0x3FFFu), 4, 1};
    }
    if (hasAt(b, 12, "VP8 ") && b.size() >= 30)
        return Declared{le16(&b[26]) & 0x3FFFu, le16(&b[28]) & 0x3FFFu, 4, 1};
    return std::nullopt;
}

} // namespace

std::optional<DeclaredSize> openCvDeclaredSize(const Bytes& b) {
    if (hasAt(b, 0, "BM"))
        return bmp(b);
    if (hasAt(b, 0, "\x59\xa6\x6a\x95"))
        return sunRaster(b);
    if (hasAt(b, 0, "P7"))
        return pam(b);
    if (hasAt(b, 0, "PF") || hasAt(b, 0, "Pf"))
        return pfm(b);
    if (hasAt(b, 0, "#?"))
        return radiance(b);
    if (hasAt(b, 0, "\x76\x2f\x31\x01"))
        return openExr(b);
    if (hasAt(b, 0, "\xff\x4f\xff\x51") || hasAt(b, 0, std::string_view("\x00\x00\x00\x0cjP  ", 8)))
        return jpeg2000(b);
    if (hasAt(b, 0, "RIFF") && hasAt(b, 8, "WEBP"))
        return webp(b);
    return std::nullopt;
}

void checkOpenCvDeclaredSize(const Bytes& bytes, const std::string& path) {
    if (const auto d = openCvDeclaredSize(bytes))
        checkDeclaredSize(path, d->width, d->height, d->channels, d->bytesPerChannel);
}

} // namespace histlab::io
