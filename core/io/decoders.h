#pragma once
// The image decoders loadImage() dispatches to by a file's first bytes, each through the
// maintained library of its format (libjpeg-turbo, libpng, libtiff), so that HistLab sees what
// the decoder reports: damage, the declared size before anything is allocated, orientation and
// pages. Internal to histlab_io.
#include "image/rowsink.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace histlab::io {

/// A decoded image: channels in R, G, B(, A) order (not OpenCV's BGR), 8- or 16-bit unsigned
/// or 32-bit float; `pages` how many the file holds (TIFF), `frames` how many frames (an
/// animated GIF: the first is decoded), `note` what the decoder changed or chose on the way
/// ("EXIF orientation 6 applied"), for logs.
struct Decoded {
    cv::Mat mat;
    int pages = 1;
    int frames = 1;
    std::string note;
    /// The memory `mat` was made in by create(): it becomes the HostImage's pixels without a
    /// copy, so that an image is in memory once, not twice (when a conversion replaced `mat`,
    /// loadImage copies).
    std::vector<std::uint8_t> storage;

    /// `mat` as rows x cols of `type`, in `storage`.
    void create(int rows, int cols, int type) {
        storage.resize(std::size_t(rows) * std::size_t(cols) * CV_ELEM_SIZE(type));
        mat = cv::Mat(rows, cols, type, storage.data());
    }
};

/// Unsigned integers stored little-endian (le) or big-endian (be) at `p`.
inline std::uint16_t le16(const unsigned char* p) {
    return std::uint16_t(p[0] | p[1] << 8);
}
inline std::uint32_t le32(const unsigned char* p) {
    return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 |
           std::uint32_t(p[3]) << 24;
}
inline std::uint16_t be16(const unsigned char* p) {
    return std::uint16_t(p[0] << 8 | p[1]);
}
inline std::uint32_t be32(const unsigned char* p) {
    return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 |
           std::uint32_t(p[3]);
}

/// Whether `b` holds the bytes of `sig` at `offset`.
inline bool hasAt(const std::vector<unsigned char>& b, std::size_t offset, std::string_view sig) {
    return b.size() >= offset + sig.size() &&
           std::equal(sig.begin(), sig.end(), b.begin() + std::ptrdiff_t(offset),
                      [](char s, unsigned char c) { return static_cast<unsigned char>(s) == c; });
}

/// `noun` after its indefinite article: "an OpenEXR file", "an icon bitmap", "a TGA" (by its
/// first letter, which is right for the format names HistLab uses).
inline std::string withArticle(std::string_view noun) {
    const bool vowel =
        !noun.empty() && std::string_view("AEIOUaeiou").find(noun[0]) != std::string_view::npos;
    return (vowel ? "an " : "a ") + std::string(noun);
}

/// Whether `size` bytes at `data` begin with PNG's 8-byte signature.
inline bool hasPngSignature(const unsigned char* data, std::size_t size) {
    static const unsigned char signature[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    return size >= sizeof signature && std::memcmp(data, signature, sizeof signature) == 0;
}

/// InputError("PATH: declares W x H pixels ...") unless an image of that size fits the limits:
/// at most maxImagePixels() pixels and at most maxImageBytes() decoded bytes. Called with the
/// size a file declares, before its pixels are allocated.
void checkDeclaredSize(const std::string& path, std::uint64_t width, std::uint64_t height,
                       int channels, int bytesPerChannel);

/// What a file's header declares: its size, and the channels and bytes per channel its decoder
/// allocates at most for each pixel.
struct DeclaredSize {
    std::uint64_t width = 0, height = 0;
    int channels = 1, bytesPerChannel = 1;
};

/// Which of the formats HistLab hands to OpenCV (WebP, BMP, PFM, PAM, Radiance HDR, OpenEXR,
/// JPEG 2000, Sun raster) a file's signature names ("Radiance HDR"); null for none.
const char* openCvFormatName(const std::vector<unsigned char>& bytes);

/// The header of a file in one of those formats, read here as OpenCV reads it; nothing for
/// another file or a header whose size cannot be read (checkOpenCvDeclaredSize refuses those).
std::optional<DeclaredSize> openCvDeclaredSize(const std::vector<unsigned char>& bytes);

/// checkDeclaredSize on openCvDeclaredSize, before OpenCV allocates anything: OpenCV checks only
/// its own limit of 2^30 pixels first. Returns the format's name ("Radiance HDR"), for messages.
std::string checkOpenCvDeclaredSize(const std::vector<unsigned char>& bytes,
                                    const std::string& path);

/// Applies an EXIF/TIFF orientation (1 ... 8, as in the EXIF 2.32 specification's Orientation
/// tag) to `mat` the way viewers and cv::imread do; other values leave it as stored.
void applyOrientation(cv::Mat& mat, int orientation);

/// JPEG through libjpeg-turbo: any of its corrupt-data warnings (premature end, bad Huffman
/// code, ...) refuses the file, whatever bytes follow its end marker; the EXIF orientation
/// (libexif) is applied; gray stays gray, YCbCr becomes RGB, CMYK/YCCK becomes RGB.
/// `sink`, where given, sees the rows as they are decoded (not for CMYK, whose values change
/// after decoding).
Decoded decodeJpeg(const std::vector<unsigned char>& bytes, const std::string& path,
                   RowSink* sink = nullptr);

/// PNG through libpng: palette to RGB(A), gray with alpha to RGBA, 1/2/4-bit gray to 8-bit,
/// 16-bit kept; libpng's errors and warnings become HistLab's one line, none printed.
Decoded decodePng(const std::vector<unsigned char>& bytes, const std::string& path);

/// `mat` (gray, RGB or RGBA, in that order, of 8 or 16 bits) as a PNG file's bytes, written by
/// libpng with any side up to PNG's 2^31 - 1; libpng's messages become InputError("PATH: ...").
std::string encodePng(const cv::Mat& mat, const std::string& path);

/// TIFF through libtiff, page `page` (0-based) of the file's pages: samples as stored (alpha not
/// premultiplied by the decoder), gray + alpha to RGBA, CMYK to RGB, palette to RGB, the
/// Orientation tag applied; strips or tiles the file cannot hold refuse it.
Decoded decodeTiff(const std::vector<unsigned char>& bytes, const std::string& path, int page);

/// The pages of a TIFF file read one at a time from the file (pread as libtiff asks), with
/// decodeTiff's checks: only the page being decoded is in memory, so a stack larger than
/// memory can be read. InputError naming the file when it cannot be opened or its pages
/// counted.
class TiffPages {
public:
    explicit TiffPages(const std::string& path);
    ~TiffPages();
    TiffPages(const TiffPages&) = delete;
    TiffPages& operator=(const TiffPages&) = delete;
    int pages() const;
    /// Page `page` (0-based); failures are InputErrors naming "PATH, page P of N" and the
    /// reason, UsageError("--page") for a page the file does not have.
    Decoded read(int page);

private:
    struct State;
    std::unique_ptr<State> m;
};

/// PGM/PPM (P2, P3, P5, P6) and PBM (P1, P4): samples above the header's maxval refuse the file;
/// a maxval other than 255 or 65535 is scaled to the full range of 8 or 16 bits.
Decoded decodePnm(const std::vector<unsigned char>& bytes, const std::string& path);

/// GIF through giflib: the first frame on the logical screen (RGB, or RGBA where its
/// transparent colour is used or it does not cover the screen), the other frames counted.
Decoded decodeGif(const std::vector<unsigned char>& bytes, const std::string& path);

/// TGA through stb_image: 8-bit gray, RGB or RGBA (gray with alpha as RGBA).
Decoded decodeTga(const std::vector<unsigned char>& bytes, const std::string& path);

/// ICO/CUR: the largest image of the icon (a PNG through libpng, a BMP through stb_image with
/// the AND mask as alpha), RGBA.
Decoded decodeIco(const std::vector<unsigned char>& bytes, const std::string& path);

} // namespace histlab::io
