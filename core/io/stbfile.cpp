// TGA through stb_image (Debian's libstb; OpenCV 4.6 has no TGA decoder), and Windows icons
// (ICO, CUR): the icon directory is read here, its largest image decoded by libpng (a PNG
// entry) or stb_image (a BMP entry, given the file header it lacks), with the icon's AND mask
// as alpha where the bitmap has none.
#include "io/decoders.h"
#include "runtime/errors.h"

#include <algorithm>
#include <stb_image.h>

namespace histlab::io {

namespace {

/// 8-bit gray, gray + alpha (as RGBA, the gray in R, G and B), RGB or RGBA from stb_image.
cv::Mat decodeWithStb(const unsigned char* data, std::size_t size, const std::string& path,
                      const std::string& format, int wantChannels = 0) {
    int w = 0, h = 0, n = 0;
    if (size > std::size_t(INT32_MAX) || !stbi_info_from_memory(data, int(size), &w, &h, &n))
        throw InputError(path + ": not " + withArticle(format) + " stb_image can read (" +
                         stbi_failure_reason() + ")");
    checkDeclaredSize(path, std::uint64_t(w), std::uint64_t(h), 4, 1);
    unsigned char* pixels = stbi_load_from_memory(data, int(size), &w, &h, &n, wantChannels);
    if (!pixels)
        throw InputError(path + ": damaged or truncated " + format +
                         " (stb_image: " + stbi_failure_reason() + ")");
    const int channels = wantChannels ? wantChannels : n;
    cv::Mat out = cv::Mat(h, w, CV_8UC(channels), pixels).clone();
    stbi_image_free(pixels);
    if (channels == 2) {
        cv::Mat rgba(h, w, CV_8UC4);
        const int fromTo[] = {0, 0, 0, 1, 0, 2, 1, 3};
        cv::mixChannels(&out, 1, &rgba, 1, fromTo, 4);
        out = rgba;
    }
    return out;
}

} // namespace

Decoded decodeTga(const std::vector<unsigned char>& bytes, const std::string& path) {
    // stb_image reads zeros past the end of the data: a truncated file is caught here, by
    // walking the pixel data the header declares (run-length packets included).
    if (bytes.size() >= 18) {
        const unsigned char* b = bytes.data();
        const int type = b[2];
        const std::uint64_t pixel = (std::uint64_t(b[16]) + 7) / 8;
        const std::uint64_t pixels = std::uint64_t(le16(b + 12)) * le16(b + 14);
        std::uint64_t at = 18 + std::uint64_t(b[0]) + (b[1] ? le16(b + 5) * ((b[7] + 7u) / 8) : 0);
        if (type == 1 || type == 2 || type == 3) {
            at += pixels * pixel;
        } else if (type == 9 || type == 10 || type == 11) {
            std::uint64_t done = 0;
            while (done < pixels && at < bytes.size()) {
                const std::uint64_t run = (b[at] & 0x7F) + 1u;
                at += 1 + (b[at] & 0x80 ? pixel : run * pixel);
                done += run;
            }
            if (done < pixels) // the data ends before the last packet's header
                at = std::max<std::uint64_t>(at, bytes.size() + 1);
        }
        if (at > bytes.size())
            throw InputError(path + ": damaged or truncated TGA (its pixels need " +
                             std::to_string(at) + " bytes, the file has " +
                             std::to_string(bytes.size()) + ")");
    }
    Decoded d;
    d.mat = decodeWithStb(bytes.data(), bytes.size(), path, "TGA");
    return d;
}

Decoded decodeIco(const std::vector<unsigned char>& bytes, const std::string& path) {
    const auto damaged = [&](const std::string& what) {
        return InputError(path + ": damaged icon (" + what + ")");
    };
    const std::size_t count = bytes.size() >= 6 ? le16(&bytes[4]) : 0;
    if (count == 0 || bytes.size() < 6 + 16 * count)
        throw damaged("a directory of " + std::to_string(count) + " images in " +
                      std::to_string(bytes.size()) + " bytes");
    // The largest image, the deepest among equals.
    std::size_t best = 0;
    std::uint64_t bestScore = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const unsigned char* e = &bytes[6 + 16 * i];
        const std::uint64_t w = e[0] ? e[0] : 256, h = e[1] ? e[1] : 256;
        const std::uint64_t score = (w * h) << 8 | std::min<std::uint16_t>(le16(e + 6), 255);
        if (score > bestScore)
            best = i, bestScore = score;
    }
    const unsigned char* e = &bytes[6 + 16 * best];
    const std::uint64_t size = le32(e + 8), offset = le32(e + 12);
    if (offset + size > bytes.size() || size < 40)
        throw damaged("image " + std::to_string(best + 1) + " lies outside the file");
    const unsigned char* image = bytes.data() + offset;
    Decoded d;
    d.note = "image " + std::to_string(best + 1) + " of " + std::to_string(count) +
             " of the icon (the largest) is counted";
    if (hasPngSignature(image, size)) {
        Decoded png = decodePng(std::vector<unsigned char>(image, image + size), path);
        png.note = d.note;
        return png;
    }
    // A BMP without its 14-byte file header, twice as high as the image: the colour bitmap,
    // then a 1-bit AND mask (1 = transparent), both bottom-up, rows padded to 4 bytes.
    const std::uint32_t header = le32(image);
    const std::int32_t width = std::int32_t(le32(image + 4));
    const std::int32_t doubled = std::int32_t(le32(image + 8));
    const int bits = le16(image + 14);
    const std::uint32_t colours = le32(image + 32);
    if (header < 40 || header > size || width <= 0 || doubled <= 0 || doubled % 2 ||
        (bits != 1 && bits != 4 && bits != 8 && bits != 24 && bits != 32) || colours > 256)
        throw damaged("its bitmap header");
    const std::int32_t height = doubled / 2;
    const std::uint64_t palette = bits <= 8 ? 4ull * (colours ? colours : 1u << bits) : 0;
    const std::uint64_t colourRow = (std::uint64_t(width) * bits + 31) / 32 * 4;
    const std::uint64_t maskRow = (std::uint64_t(width) + 31) / 32 * 4;
    const std::uint64_t colourAt = header + palette, maskAt = colourAt + colourRow * height;
    if (colourAt + colourRow * height > size)
        throw damaged("its bitmap ends early");
    std::vector<unsigned char> bmp(14);
    bmp.insert(bmp.end(), image, image + size);
    bmp[0] = 'B', bmp[1] = 'M';
    for (int b = 0; b < 4; ++b) {
        bmp[2 + b] = static_cast<unsigned char>((bmp.size() >> (8 * b)) & 0xFF);
        bmp[10 + b] = static_cast<unsigned char>(((14 + colourAt) >> (8 * b)) & 0xFF);
        bmp[14 + 8 + b] = static_cast<unsigned char>((std::uint32_t(height) >> (8 * b)) & 0xFF);
    }
    d.mat = decodeWithStb(bmp.data(), bmp.size(), path, "icon bitmap", 4);
    // 32-bit bitmaps carry their alpha; the others take it from the mask, where there is one.
    if (bits < 32 && maskAt + maskRow * height <= size)
        for (std::int32_t y = 0; y < height; ++y) {
            const unsigned char* mask = image + maskAt + maskRow * (height - 1 - y);
            auto* row = d.mat.ptr<cv::Vec4b>(y);
            for (std::int32_t x = 0; x < width; ++x)
                if (mask[x / 8] >> (7 - x % 8) & 1)
                    row[x][3] = 0;
        }
    return d;
}

} // namespace histlab::io
