// PNG through libpng. OpenCV leaves libpng's default handlers, which print "libpng error: ..."
// on stderr before OpenCV's own failure; here libpng's errors end in HistLab's one line and its
// warnings (ancillary chunks with bad CRCs, extra compressed data after the pixels) are dropped:
// they leave every pixel decoded.
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

struct Header {
    png_uint_32 width = 0, height = 0;
    int channels = 0, depth = 8;
};

// C only between setjmp and a longjmp (no destructors to skip). False with r.message on failure.
bool readHeader(png_structp png, png_infop info, Header& h) {
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

} // namespace

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

    Header h;
    if (!readHeader(png, info, h))
        throw InputError(path + ": damaged or truncated PNG (libpng: " + r.message + ")");
    if (h.channels < 1 || h.channels > 4 || h.channels == 2 || (h.depth != 8 && h.depth != 16))
        throw InputError(path + ": PNG of " + std::to_string(h.channels) + " channels of " +
                         std::to_string(h.depth) + " bits is not supported");
    checkDeclaredSize(path, h.width, h.height, h.channels, h.depth / 8);
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
