// PNG through libpng, read and written. OpenCV leaves libpng's default handlers, which print
// "libpng error: ..." on stderr before OpenCV's own failure; here libpng's errors end in
// HistLab's one line and its warnings (ancillary chunks with bad CRCs, extra compressed data
// after the pixels) are dropped: they leave every pixel decoded. libpng's "Not enough image
// data" is an error (it stops at the first row the data lacks).
#include "io/decoders.h"
#include "runtime/errors.h"

#include <csetjmp>
#include <cstring>
#include <png.h>

namespace histlab::io {

namespace {

struct Reader {
    const unsigned char* data;
    std::size_t size;
    std::size_t at = 0;
    std::string message;
};

[[noreturn]] void onError(png_structp png, png_const_charp message) {
    static_cast<Reader*>(png_get_error_ptr(png))->message = message;
    png_longjmp(png, 1);
}

void onWarning(png_structp, png_const_charp) {}

void readBytes(png_structp png, png_bytep out, png_size_t length) {
    auto* r = static_cast<Reader*>(png_get_io_ptr(png));
    if (length > r->size - r->at)
        png_error(png, "the file ends early");
    std::memcpy(out, r->data + r->at, length);
    r->at += length;
}

struct PngHeader {
    png_uint_32 width = 0, height = 0;
    int channels = 0, depth = 8;
};

// C only between setjmp and a longjmp (no destructors to skip). False with r.message on failure.
bool readHeader(png_structp png, png_infop info, PngHeader& h) {
    if (setjmp(png_jmpbuf(png)))
        return false;
    // HistLab's own limits apply (checkDeclaredSize), not libpng's default 1,000,000 a side.
    png_set_user_limits(png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    png_read_info(png, info);
    const int type = png_get_color_type(png, info);
    const int bits = png_get_bit_depth(png, info);
    if (type == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_tRNS_to_alpha(png);
    if (type == PNG_COLOR_TYPE_GRAY && bits < 8)
        png_set_expand_gray_1_2_4_to_8(png);
    // Gray with alpha has no layout of its own in HistLab: RGBA, as OpenCV has always read it.
    if ((type & PNG_COLOR_MASK_COLOR) == 0 &&
        ((type & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS)))
        png_set_gray_to_rgb(png);
    if (bits == 16)
        png_set_swap(png); // PNG stores 16-bit samples big-endian
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    h.width = png_get_image_width(png, info);
    h.height = png_get_image_height(png, info);
    h.channels = png_get_channels(png, info);
    h.depth = png_get_bit_depth(png, info);
    return true;
}

bool readPixels(png_structp png, png_bytepp rows) {
    if (setjmp(png_jmpbuf(png)))
        return false;
    png_read_image(png, rows);
    return true;
}

/// The bytes of the IDAT chunks from the first chunk after the signature up to IEND or the end
/// of the file (a chunk running past it counts what is there).
std::uint64_t idatBytes(const std::vector<unsigned char>& b) {
    std::uint64_t total = 0;
    for (std::size_t at = 8; at + 8 <= b.size();) {
        const std::uint64_t length = be32(&b[at]);
        if (hasAt(b, at + 4, "IDAT"))
            total += std::min<std::uint64_t>(length, b.size() - at - 8);
        else if (hasAt(b, at + 4, "IEND"))
            break;
        if (length > b.size() - at - 8)
            break;
        at += 8 + std::size_t(length) + 4;
    }
    return total;
}

// libpng's write side: its messages become the writer's one line, none printed.
struct Writer {
    std::string out;
    std::string message;
};

void writeBytes(png_structp png, png_bytep data, png_size_t length) {
    static_cast<Writer*>(png_get_io_ptr(png))->out.append(reinterpret_cast<char*>(data), length);
}
void flushBytes(png_structp) {}

[[noreturn]] void onWriteError(png_structp png, png_const_charp message) {
    static_cast<Writer*>(png_get_error_ptr(png))->message = message;
    png_longjmp(png, 1);
}

// C only between setjmp and a longjmp. False with w.message on failure.
bool writeRows(png_structp png, png_infop info, const cv::Mat& mat, int colourType) {
    if (setjmp(png_jmpbuf(png)))
        return false;
    // A side up to PNG's own 2^31 - 1, not libpng's default 1,000,000: every image HistLab
    // loads can be written.
    png_set_user_limits(png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    // As OpenCV writes PNG: fast, run-length oriented deflate.
    png_set_compression_level(png, 1);
    png_set_compression_strategy(png, 3 /* Z_RLE */);
    png_set_IHDR(png, info, png_uint_32(mat.cols), png_uint_32(mat.rows),
                 mat.depth() == CV_16U ? 16 : 8, colourType, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    if (mat.depth() == CV_16U)
        png_set_swap(png); // HistLab's samples are little-endian, PNG's big-endian
    for (int y = 0; y < mat.rows; ++y)
        png_write_row(png, mat.ptr(y));
    png_write_end(png, info);
    return true;
}

} // namespace

std::string encodePng(const cv::Mat& mat, const std::string& path) {
    const int channels = mat.channels();
    if ((mat.depth() != CV_8U && mat.depth() != CV_16U) || channels < 1 || channels > 4 ||
        channels == 2)
        throw InputError(path + ": PNG cannot hold " + std::to_string(channels) +
                         " channels of type " + cv::typeToString(mat.type()));
    Writer w;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &w, onWriteError, onWarning);
    if (!png)
        throw InputError(path + ": libpng could not start");
    png_infop info = png_create_info_struct(png);
    struct Destroy {
        png_structp* p;
        png_infop* i;
        ~Destroy() { png_destroy_write_struct(p, i); }
    } destroy{&png, &info};
    if (!info)
        throw InputError(path + ": libpng could not start");
    png_set_write_fn(png, &w, writeBytes, flushBytes);
    const int colourType = channels == 1   ? PNG_COLOR_TYPE_GRAY
                           : channels == 3 ? PNG_COLOR_TYPE_RGB
                                           : PNG_COLOR_TYPE_RGB_ALPHA;
    if (!writeRows(png, info, mat.isContinuous() ? mat : mat.clone(), colourType))
        throw InputError(path + ": cannot write PNG (libpng: " + w.message + ")");
    return std::move(w.out);
}

Decoded decodePng(const std::vector<unsigned char>& bytes, const std::string& path) {
    Reader r{bytes.data(), bytes.size(), 0, {}};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &r, onError, onWarning);
    if (!png)
        throw InputError(path + ": libpng could not start");
    png_infop info = png_create_info_struct(png);
    struct Destroy {
        png_structp* p;
        png_infop* i;
        ~Destroy() { png_destroy_read_struct(p, i, nullptr); }
    } destroy{&png, &info};
    if (!info)
        throw InputError(path + ": libpng could not start");
    png_set_read_fn(png, &r, readBytes);

    PngHeader h;
    if (!readHeader(png, info, h))
        throw InputError(path + ": damaged or truncated PNG (libpng: " + r.message + ")");
    if (h.channels < 1 || h.channels > 4 || h.channels == 2 || (h.depth != 8 && h.depth != 16))
        throw InputError(path + ": PNG of " + std::to_string(h.channels) + " channels of " +
                         std::to_string(h.depth) + " bits is not supported");
    checkDeclaredSize(path, h.width, h.height, h.channels, h.depth / 8);
    // The compressed pixels must be able to hold what the header declares, before anything is
    // allocated: deflate expands at most 1,032 to 1, and the filtered rows hold at least the
    // pixels' bits as stored (interlaced or not). A 196-byte file declaring 30000 x 30000 RGBA
    // would otherwise take 3.6 GB before libpng finds its data missing.
    const int storedChannels = [&] {
        switch (bytes.size() > 25 ? bytes[25] : 0) {
        case PNG_COLOR_TYPE_RGB:
            return 3;
        case PNG_COLOR_TYPE_GRAY_ALPHA:
            return 2;
        case PNG_COLOR_TYPE_RGB_ALPHA:
            return 4;
        default: // gray, palette
            return 1;
        }
    }();
    const int storedBits = bytes.size() > 24 ? bytes[24] : 8;
    const double need = double(h.width) * h.height * storedChannels * storedBits / 8;
    const std::uint64_t held = idatBytes(bytes);
    if (double(held) * 1032 < need)
        throw InputError(path + ": damaged or truncated PNG: its compressed data holds " +
                         std::to_string(held) + " bytes, at most " + std::to_string(held * 1032) +
                         " once expanded, of the " + std::to_string(std::uint64_t(need)) +
                         " bytes its " + std::to_string(h.width) + " x " +
                         std::to_string(h.height) + " pixels need");
    Decoded d;
    d.create(int(h.height), int(h.width), CV_MAKETYPE(h.depth == 16 ? CV_16U : CV_8U, h.channels));
    std::vector<png_bytep> rows(h.height);
    for (png_uint_32 y = 0; y < h.height; ++y)
        rows[y] = d.mat.ptr(int(y));
    if (!readPixels(png, rows.data()))
        throw InputError(path + ": damaged or truncated PNG (libpng: " + r.message + ")");
    return d;
}

} // namespace histlab::io
