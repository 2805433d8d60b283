// The declared size of the formats HistLab hands to OpenCV, read from their headers before
// OpenCV sees the file. OpenCV 4.6 checks only its own limit (2^30 pixels, read from
// OPENCV_IO_MAX_IMAGE_PIXELS once, when its library loads) before it allocates the whole image,
// and a few compressed bytes can declare that many: 12 GB for a Radiance HDR, 16 GB for an
// OpenEXR. Each reader below reads the header as OpenCV's decoder does (its number syntax, which
// of two sizes wins), so that a file cannot declare one size to HistLab and another to OpenCV,
// and counts what decoding allocates per pixel, the decoder's own buffers included (measured as
// peak memory over the image's size on 3000^2 files: HDR 2.0, PFM 1.8, lossless WebP 1.8,
// JPEG 2000 1.4-1.55 times the output). A file whose header cannot be read is refused.
#include "io/decoders.h"

#include "runtime/errors.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <optional>
#include <string_view>

namespace histlab::io {

namespace {

using Declared = DeclaredSize;
using Bytes = std::vector<unsigned char>;

/// The whitespace-separated words of a text header from `at` up to `end`; with `comments`,
/// '#' starts a comment that runs to the end of its line (PAM's, not PFM's).
std::vector<std::string> headerWords(const Bytes& b, std::size_t at, std::size_t end,
                                     bool comments) {
    std::vector<std::string> words;
    std::string word;
    end = std::min(end, b.size());
    for (std::size_t i = at; i < end; ++i) {
        const unsigned char c = b[i];
        if (comments && c == '#' && word.empty()) {
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

/// The number a word begins with, read as atoi, sscanf's %d and istream's >> read it: an
/// optional sign, then digits, the rest ignored; nothing when no digit comes first, or for a
/// negative number (no size). Saturates instead of overflowing.
std::optional<std::uint64_t> leadingNumber(std::string_view s) {
    std::size_t i = 0;
    const bool negative = i < s.size() && s[i] == '-';
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
        ++i;
    if (i == s.size() || !std::isdigit(static_cast<unsigned char>(s[i])))
        return std::nullopt;
    std::uint64_t v = 0;
    for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i)
        v = std::min<std::uint64_t>(v * 10 + std::uint64_t(s[i] - '0'), std::uint64_t(1) << 40);
    if (negative && v != 0)
        return std::nullopt;
    return v;
}

// BMP (Microsoft's BITMAPINFOHEADER and its successors, or OS/2's 12-byte BITMAPCOREHEADER): a
// negative height is a top-down image. OpenCV decodes 32 bits per pixel as BGRA, anything else
// as BGR or gray, straight into its output.
std::optional<Declared> bmp(const Bytes& b) {
    if (b.size() >= 26 && le32(&b[14]) == 12)
        return Declared{le16(&b[18]), le16(&b[20]), le16(&b[24]) == 32 ? 4 : 3, 1};
    if (b.size() < 30)
        return std::nullopt;
    const auto side = [&](std::size_t at) {
        return std::uint64_t(std::llabs(std::int64_t(std::int32_t(le32(&b[at])))));
    };
    return Declared{side(18), side(22), le16(&b[28]) == 32 ? 4 : 3, 1};
}

// Sun raster: width, height and depth as big-endian words after the magic; OpenCV decodes it
// as 8-bit BGR or gray.
std::optional<Declared> sunRaster(const Bytes& b) {
    if (b.size() < 16)
        return std::nullopt;
    return Declared{be32(&b[4]), be32(&b[8]), 3, 1};
}

// PAM (Netpbm's P7): WIDTH, HEIGHT, DEPTH (channels) and MAXVAL (16 bits above 255) in any
// order, comments anywhere, up to ENDHDR; the last of a field counts.
std::optional<Declared> pam(const Bytes& b) {
    const auto words = headerWords(b, 2, b.size(), true);
    Declared d;
    bool width = false, height = false;
    for (std::size_t i = 0; i + 1 < words.size() && words[i] != "ENDHDR"; ++i) {
        const auto n = leadingNumber(words[i + 1]);
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

// PFM: "PF" (RGB) or "Pf" (gray), then width, height and the scale as words (no comments);
// OpenCV reads 32-bit floats into an image of its own, then converts it into the output.
std::optional<Declared> pfm(const Bytes& b) {
    const auto words = headerWords(b, 2, std::min<std::size_t>(b.size(), 4096), false);
    if (words.size() < 2)
        return std::nullopt;
    const auto w = leadingNumber(words[0]), h = leadingNumber(words[1]);
    if (!w || !h)
        return std::nullopt;
    return Declared{*w, *h, b[1] == 'F' ? 3 : 1, 8};
}

// Radiance HDR as OpenCV's RGBE reader takes it: lines of at most 127 bytes (fgets into 128),
// up to the line "FORMAT=32-bit_rle_rgbe", then an empty line, then "-Y H +X W" as sscanf's
// "-Y %d +X %d" reads it (spaces optional, signs allowed). It decodes 32-bit float RGB into an
// image of its own, then converts it into the output.
std::optional<Declared> radiance(const Bytes& b) {
    std::size_t at = 0;
    auto line = [&] {
        std::string text;
        while (at < b.size() && text.size() < 127) {
            text += char(b[at++]);
            if (text.back() == '\n')
                break;
        }
        return text;
    };
    std::string text = line();
    while (text != "FORMAT=32-bit_rle_rgbe\n") {
        if (text.empty() || text[0] == '\n')
            return std::nullopt;
        text = line();
    }
    if (line() != "\n")
        return std::nullopt;
    const std::string size = line();
    std::string_view s(size);
    auto skipSpace = [&] {
        while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
            s.remove_prefix(1);
    };
    auto number = [&]() -> std::optional<std::uint64_t> {
        skipSpace();
        const auto n = leadingNumber(s);
        while (!s.empty() && (s.front() == '+' || s.front() == '-'))
            s.remove_prefix(1);
        while (!s.empty() && std::isdigit(static_cast<unsigned char>(s.front())))
            s.remove_prefix(1);
        return n;
    };
    if (s.substr(0, 2) != "-Y")
        return std::nullopt;
    s.remove_prefix(2);
    const auto height = number();
    skipSpace();
    if (!height || s.substr(0, 2) != "+X")
        return std::nullopt;
    s.remove_prefix(2);
    const auto width = number();
    if (!width)
        return std::nullopt;
    return Declared{*width, *height, 3, 8};
}

// OpenEXR: after the magic and the version, attributes (name, type, size, value) up to an empty
// name; the data window is box2i (xMin, yMin, xMax, yMax, inclusive), the last one counting, as
// in OpenEXR. OpenCV decodes 32-bit values (half floats widened): 3 channels when the file has
// R, G or B (or Y with RY or BY), else 1 for Y, one more for A; 4 for channels it does not name.
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
            return std::nullopt;
        if (name == "dataWindow" && type == "box2i" && size == 16) {
            const auto i32 = [&](std::size_t k) {
                return std::int64_t(std::int32_t(le32(&b[at + 4 * k])));
            };
            const std::int64_t w = i32(2) - i32(0) + 1, h = i32(3) - i32(1) + 1;
            d = w > 0 && h > 0 ? std::optional(Declared{std::uint64_t(w), std::uint64_t(h), 4, 4})
                               : std::nullopt;
        } else if (name == "channels" && type == "chlist") {
            // entries: a name, then 16 bytes (type, linear, reserved, x and y sampling)
            bool colour = false, luma = false, chroma = false, alpha = false, other = false;
            for (std::size_t e = at; e < at + size && b[e] != 0;) {
                const auto zero = std::find(b.begin() + std::ptrdiff_t(e),
                                            b.begin() + std::ptrdiff_t(at + size), 0);
                const std::string channel(b.begin() + std::ptrdiff_t(e), zero);
                colour |= channel == "R" || channel == "G" || channel == "B";
                luma |= channel == "Y";
                chroma |= channel == "RY" || channel == "BY";
                alpha |= channel == "A";
                other |= channel != "R" && channel != "G" && channel != "B" && channel != "Y" &&
                         channel != "RY" && channel != "BY" && channel != "A";
                e = std::size_t(zero - b.begin()) + 17;
            }
            channels = other ? 4 : (colour || (luma && chroma) ? 3 : 1) + (alpha ? 1 : 0);
        }
        at += size;
    }
    if (d)
        d->channels = channels;
    return d;
}

/// A JPEG 2000 codestream's SIZ marker at `at`: the reference grid less its offset, and the
/// number of components.
std::optional<Declared> sizMarker(const Bytes& b, std::size_t at) {
    if (!hasAt(b, at, "\xff\x4f\xff\x51") || b.size() < at + 42)
        return std::nullopt;
    const std::uint64_t xsiz = be32(&b[at + 8]), ysiz = be32(&b[at + 12]);
    const std::uint64_t x0 = be32(&b[at + 16]), y0 = be32(&b[at + 20]);
    if (xsiz <= x0 || ysiz <= y0)
        return std::nullopt;
    return Declared{xsiz - x0, ysiz - y0, std::max(1, int(be16(&b[at + 40]))), 6};
}

/// The contents [first, second) of the first box of type `want` among the boxes in [at, end)
/// (length, type, contents; length 0 runs to the end, 1 gives a 64-bit length).
std::optional<std::pair<std::size_t, std::size_t>> box(const Bytes& b, std::size_t at,
                                                       std::size_t end, std::string_view want) {
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
}

// JPEG 2000: a bare codestream's SIZ marker, or a JP2 file's image header (jp2h/ihdr) with its
// codestream's SIZ (jp2c), the larger of the two counting (OpenJPEG checks their sizes against
// each other, not their components), and a palette's columns added. OpenJPEG holds every
// component of every pixel as a 32-bit integer while OpenCV copies them into its output (up to
// 16 bits): 6 bytes a component.
std::optional<Declared> jpeg2000(const Bytes& b) {
    if (hasAt(b, 0, "\xff\x4f\xff\x51"))
        return sizMarker(b, 0);
    const auto header = box(b, 0, b.size(), "jp2h");
    const auto image = header ? box(b, header->first, header->second, "ihdr") : std::nullopt;
    const auto stream = box(b, 0, b.size(), "jp2c");
    const auto siz = stream ? sizMarker(b, stream->first) : std::nullopt;
    if (!image || image->second - image->first < 14 || !siz)
        return std::nullopt;
    const std::size_t at = image->first;
    Declared d{std::max<std::uint64_t>(be32(&b[at + 4]), siz->width),
               std::max<std::uint64_t>(be32(&b[at]), siz->height),
               std::max(int(be16(&b[at + 8])), siz->channels), 6};
    const auto palette = box(b, header->first, header->second, "pclr");
    if (palette && palette->second - palette->first >= 3)
        d.channels += b[palette->first + 2];
    return d;
}

// WebP: the canvas of an extended file (VP8X), or the frame of a lossless (VP8L) or lossy (VP8)
// one. OpenCV decodes it as 8-bit BGR or BGRA; for lossless data libwebp also keeps a 32-bit
// ARGB copy of the image (an extended file may hold either).
std::optional<Declared> webp(const Bytes& b) {
    const auto le24 = [&](std::size_t at) { return le16(&b[at]) | std::uint32_t(b[at + 2]) << 16; };
    if (hasAt(b, 12, "VP8X") && b.size() >= 30)
        return Declared{1 + std::uint64_t(le24(24)), 1 + std::uint64_t(le24(27)), 4, 2};
    if (hasAt(b, 12, "VP8L") && b.size() >= 25 && b[20] == 0x2F) {
        const std::uint32_t v = le32(&b[21]);
        return Declared{1 + (v & 0x3FFFu), 1 + ((v >> 14) & 0x3FFFu), 4, 2};
    }
    if (hasAt(b, 12, "VP8 ") && b.size() >= 30)
        return Declared{le16(&b[26]) & 0x3FFFu, le16(&b[28]) & 0x3FFFu, 4, 1};
    return std::nullopt;
}

// What a file holds against what its header declares, checked before OpenCV decodes it: OpenCV
// fills what a file lacks (a BMP's RLE data that ends at once with palette entry 0, a JPEG 2000
// codestream's missing tiles with zeros) and reports success. Each returns why the file is
// refused, or "" when it holds its pixels.

// BMP: an uncompressed pixel array must be in the file whole (the last row's padding may be
// left out); RLE8/RLE4 data must cover every pixel of every row, with no delta that skips
// pixels (OpenCV gives what a delta skips, or an early end leaves, palette entry 0).
std::string bmpContents(const Bytes& b) {
    if (b.size() < 54 || le32(&b[14]) < 40)
        return ""; // OS/2's core header: no compression, OpenCV checks its rows
    const std::uint64_t offset = le32(&b[10]);
    const std::uint64_t width = std::uint64_t(std::llabs(std::int64_t(std::int32_t(le32(&b[18])))));
    const std::uint64_t height =
        std::uint64_t(std::llabs(std::int64_t(std::int32_t(le32(&b[22])))));
    const int bits = le16(&b[28]);
    const std::uint32_t compression = le32(&b[30]);
    if (width == 0 || height == 0)
        return "";
    if (compression == 0 || compression == 3 || compression == 6) { // RGB, (alpha) bitfields
        const std::uint64_t rowBytes = (width * std::uint64_t(bits) + 31) / 32 * 4;
        const std::uint64_t need = rowBytes * (height - 1) + (width * std::uint64_t(bits) + 7) / 8;
        const std::uint64_t held = offset < b.size() ? b.size() - offset : 0;
        if (held < need)
            return "damaged or truncated BMP: its pixel data holds " + std::to_string(held) +
                   " of the " + std::to_string(need) + " bytes its " + std::to_string(width) +
                   " x " + std::to_string(height) + " pixels need";
        return "";
    }
    if ((compression != 1 || bits != 8) && (compression != 2 || bits != 4))
        return ""; // JPEG or PNG inside, or a mismatch: OpenCV refuses those
    const bool rle8 = compression == 1;
    std::uint64_t x = 0, y = 0, complete = 0;
    std::size_t at = std::size_t(std::min<std::uint64_t>(offset, b.size()));
    const std::string name = rle8 ? "RLE8" : "RLE4";
    auto covers = [&] {
        return "damaged or truncated BMP: its " + name + " data covers " +
               std::to_string(complete) + " of its " + std::to_string(height) + " rows";
    };
    while (at + 2 <= b.size() && y < height) {
        const unsigned count = b[at], code = b[at + 1];
        at += 2;
        if (count > 0) { // a run of `count` pixels
            x += count;
        } else if (code == 0 || code == 1) { // end of the row, end of the bitmap
            if (x >= width)
                ++complete;
            else
                return covers() + " (row " + std::to_string(y + 1) + " ends after " +
                       std::to_string(x) + " of its " + std::to_string(width) + " pixels)";
            x = 0;
            ++y;
            if (code == 1)
                break;
        } else if (code == 2) { // a delta: the pixels it moves over are not in the file
            if (at + 2 <= b.size() && (b[at] | b[at + 1]) != 0)
                return covers() + " (a delta code skips pixels)";
            at += 2;
        } else { // `code` pixels given one by one, padded to 16 bits
            const std::size_t bytes = rle8 ? code : (code + 1) / 2;
            at += (bytes + 1) / 2 * 2;
            x += code;
        }
    }
    // The last row needs no end-of-row code before the end of the bitmap or the file.
    if (y < height && x >= width)
        ++complete;
    if (complete < height)
        return covers();
    return "";
}

// JPEG 2000: every tile the SIZ marker declares must have its tile-parts in the codestream
// (SOT markers: the tile's index Isot, the part's length Psot, how many parts TNsot), and no
// part may run past the codestream's end.
std::string jpeg2000Codestream(const Bytes& b, std::size_t at, std::size_t end) {
    if (end > b.size() || at + 42 > end || !hasAt(b, at, "\xff\x4f\xff\x51"))
        return "";
    const std::uint64_t xsiz = be32(&b[at + 8]), ysiz = be32(&b[at + 12]);
    const std::uint64_t xtsiz = be32(&b[at + 24]), ytsiz = be32(&b[at + 28]);
    const std::uint64_t xtosiz = be32(&b[at + 32]), ytosiz = be32(&b[at + 36]);
    if (xtsiz == 0 || ytsiz == 0 || xtosiz >= xsiz || ytosiz >= ysiz)
        return "damaged JPEG 2000 file (its SIZ marker declares tiles of " + std::to_string(xtsiz) +
               " x " + std::to_string(ytsiz) + ")";
    const std::uint64_t across = (xsiz - xtosiz + xtsiz - 1) / xtsiz;
    const std::uint64_t down = (ysiz - ytosiz + ytsiz - 1) / ytsiz;
    if (across * down > 65535) // Isot is 16 bits
        return "damaged JPEG 2000 file (its SIZ marker declares " + std::to_string(across * down) +
               " tiles, more than a codestream can index)";
    const std::size_t tiles = std::size_t(across * down);
    std::vector<unsigned> parts(tiles, 0), declared(tiles, 0);
    // The main header's markers (each with its length) up to the first tile-part.
    std::size_t p = at + 2;
    while (p + 4 <= end && !hasAt(b, p, "\xff\x90")) {
        if (b[p] != 0xFF)
            return "damaged JPEG 2000 file (its main header breaks off at byte " +
                   std::to_string(p) + ")";
        p += 2 + be16(&b[p + 2]);
    }
    while (p + 12 <= end && hasAt(b, p, "\xff\x90")) {
        const unsigned tile = be16(&b[p + 4]);
        const std::uint64_t length = be32(&b[p + 6]);
        const unsigned ofParts = b[p + 11];
        if (tile >= tiles)
            return "damaged JPEG 2000 file (a tile-part of tile " + std::to_string(tile) +
                   ", of the " + std::to_string(tiles) + " tiles declared)";
        ++parts[tile];
        if (ofParts)
            declared[tile] = ofParts;
        if (length == 0) // the last tile-part, running to the end of the codestream
            break;
        if (length > end - p)
            return "damaged or truncated JPEG 2000 file (a tile-part of tile " +
                   std::to_string(tile) + " declares " + std::to_string(length) +
                   " bytes; the file holds " + std::to_string(end - p) + ")";
        p += std::size_t(length);
    }
    std::size_t whole = 0;
    for (std::size_t t = 0; t < tiles; ++t)
        whole += parts[t] > 0 && (declared[t] == 0 || parts[t] >= declared[t]);
    if (whole < tiles)
        return "damaged or truncated JPEG 2000 file (its codestream holds " +
               std::to_string(whole) + " of its " + std::to_string(tiles) + " tiles whole)";
    return "";
}

std::string jpeg2000Contents(const Bytes& b) {
    if (hasAt(b, 0, "\xff\x4f\xff\x51"))
        return jpeg2000Codestream(b, 0, b.size());
    const auto stream = box(b, 0, b.size(), "jp2c");
    return stream ? jpeg2000Codestream(b, stream->first, stream->second) : "";
}

// PAM: a MAXVAL of 0 leaves no sample values (as a PGM's maxval 0).
std::string pamContents(const Bytes& b) {
    const auto words = headerWords(b, 2, b.size(), true);
    std::optional<std::uint64_t> maxval;
    for (std::size_t i = 0; i + 1 < words.size() && words[i] != "ENDHDR"; ++i)
        if (words[i] == "MAXVAL")
            maxval = leadingNumber(words[i + 1]);
    if (maxval && *maxval == 0)
        return "damaged PAM file (MAXVAL 0: its samples can have no value)";
    return "";
}

/// One format handed to OpenCV: its name, its signature, its header's reader.
struct OpenCvFormat {
    const char* name;
    bool (*is)(const Bytes&);
    std::optional<Declared> (*read)(const Bytes&);
    std::string (*contents)(const Bytes&) = nullptr;
};

bool netpbm(const Bytes& b, char kind) {
    return b.size() >= 3 && b[0] == 'P' && b[1] == kind && std::isspace(b[2]);
}

const OpenCvFormat kFormats[] = {
    {"WebP", [](const Bytes& b) { return hasAt(b, 0, "RIFF") && hasAt(b, 8, "WEBP"); }, webp},
    {"BMP", [](const Bytes& b) { return hasAt(b, 0, "BM"); }, bmp, bmpContents},
    {"PFM", [](const Bytes& b) { return netpbm(b, 'F') || netpbm(b, 'f'); }, pfm},
    {"PAM", [](const Bytes& b) { return netpbm(b, '7'); }, pam, pamContents},
    {"Radiance HDR",
     [](const Bytes& b) { return hasAt(b, 0, "#?RADIANCE") || hasAt(b, 0, "#?RGBE"); }, radiance},
    {"OpenEXR", [](const Bytes& b) { return hasAt(b, 0, "\x76\x2f\x31\x01"); }, openExr},
    {"JPEG 2000",
     [](const Bytes& b) {
         return hasAt(b, 0, std::string_view("\x00\x00\x00\x0cjP  \r\n\x87\n", 12)) ||
                hasAt(b, 0, "\xff\x4f\xff\x51");
     },
     jpeg2000, jpeg2000Contents},
    {"Sun raster", [](const Bytes& b) { return hasAt(b, 0, "\x59\xa6\x6a\x95"); }, sunRaster},
};

const OpenCvFormat* formatOf(const Bytes& b) {
    for (const OpenCvFormat& f : kFormats)
        if (f.is(b))
            return &f;
    return nullptr;
}

} // namespace

const char* openCvFormatName(const Bytes& b) {
    const OpenCvFormat* f = formatOf(b);
    return f ? f->name : nullptr;
}

std::optional<DeclaredSize> openCvDeclaredSize(const Bytes& b) {
    const OpenCvFormat* f = formatOf(b);
    return f ? f->read(b) : std::nullopt;
}

std::string checkOpenCvDeclaredSize(const Bytes& bytes, const std::string& path) {
    const OpenCvFormat* f = formatOf(bytes);
    if (!f)
        return "";
    const auto d = f->read(bytes);
    if (!d)
        throw InputError(path + ": damaged " + f->name + " file (its header declares no size " +
                         "HistLab can read)");
    checkDeclaredSize(path, d->width, d->height, d->channels, d->bytesPerChannel);
    if (f->contents)
        if (const std::string why = f->contents(bytes); !why.empty())
            throw InputError(path + ": " + why);
    return f->name;
}

} // namespace histlab::io
