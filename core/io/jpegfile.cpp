// JPEG through libjpeg-turbo, orientation through libexif.
//
// libjpeg does not fail on damaged data: it warns ("Corrupt JPEG data: premature end of data
// segment", "Premature end of JPEG file"), fills what is missing with grey and returns a
// full-size image. OpenCV prints those warnings and returns the image, so a truncated photo was
// counted with half its pixels made up. Here the first warning that means pixels are missing or
// wrong stops the decode and refuses the file; what follows the end marker (camera trailers,
// motion photos) is never read, as libjpeg stops there.
#include "io/decoders.h"
#include "io/imageio.h"
#include "runtime/errors.h"

#include <algorithm>
#include <climits>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <jpeglib.h>
#include <optional>
#include <utility>
// After jpeglib.h: its configuration decides which warning codes exist.
#include <jerror.h>
#include <libexif/exif-data.h>

namespace histlab::io {

namespace {

// The warnings after which the decoded pixels are not the file's: data missing or undecodable.
// The others (extraneous bytes between segments, an unknown Adobe transform code or JFIF
// revision, a bad ICC marker) leave every pixel decoded.
bool meansDamage(int code) {
    switch (code) {
    case JWRN_ARITH_BAD_CODE:
    case JWRN_BOGUS_PROGRESSION:
    case JWRN_HIT_MARKER:
    case JWRN_HUFF_BAD_CODE:
    case JWRN_JPEG_EOF:
    case JWRN_MUST_RESYNC:
    case JWRN_NOT_SEQUENTIAL:
        return true;
    default:
        return false;
    }
}

struct ErrorManager {
    jpeg_error_mgr pub;
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX] = {};
};

[[noreturn]] void onError(j_common_ptr cinfo) {
    auto* err = reinterpret_cast<ErrorManager*>(cinfo->err);
    cinfo->err->format_message(cinfo, err->message);
    std::longjmp(err->jump, 1);
}

// level -1 is a warning; higher levels are trace messages, never printed.
void onMessage(j_common_ptr cinfo, int level) {
    if (level >= 0 || !meansDamage(cinfo->err->msg_code))
        return;
    auto* err = reinterpret_cast<ErrorManager*>(cinfo->err);
    cinfo->err->format_message(cinfo, err->message);
    std::longjmp(err->jump, 1);
}

/// The first value of an integer EXIF entry, whatever integer format it is stored in; nullopt
/// for a rational, a string or an entry shorter than its format.
std::optional<long long> exifInteger(const ExifEntry& e, ExifByteOrder order) {
    if (e.components < 1 || !e.data || e.size < exif_format_get_size(e.format))
        return std::nullopt;
    switch (e.format) {
    case EXIF_FORMAT_BYTE:
        return e.data[0];
    case EXIF_FORMAT_SBYTE:
        return static_cast<signed char>(e.data[0]);
    case EXIF_FORMAT_SHORT:
        return exif_get_short(e.data, order);
    case EXIF_FORMAT_SSHORT:
        return exif_get_sshort(e.data, order);
    case EXIF_FORMAT_LONG:
        return exif_get_long(e.data, order);
    case EXIF_FORMAT_SLONG:
        return exif_get_slong(e.data, order);
    default:
        return std::nullopt;
    }
}

/// The Orientation tag (1 ... 8) of an APP1 "Exif" segment; 1 where there is none, where it is
/// not an integer or where its value is outside 1 ... 8.
int exifOrientation(const unsigned char* data, unsigned length) {
    static const unsigned char header[] = {'E', 'x', 'i', 'f', 0, 0};
    if (length < sizeof header || std::memcmp(data, header, sizeof header) != 0)
        return 1;
    ExifData* exif = exif_data_new();
    if (!exif)
        return 1;
    // Only the first IFD's Orientation is wanted: maker notes are not parsed.
    exif_data_set_option(exif, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS);
    exif_data_unset_option(exif, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
    exif_data_load_data(exif, data, length);
    // The specification says SHORT, but cameras write other integer types: a Panasonic DMC-GF1
    // stores a SLONG, which OpenCV, PIL and gdk-pixbuf all apply.
    std::optional<long long> value;
    if (ExifEntry* e = exif_content_get_entry(exif->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION))
        value = exifInteger(*e, exif_data_get_byte_order(exif));
    exif_data_unref(exif);
    return value && *value >= 1 && *value <= 8 ? int(*value) : 1;
}

struct JpegHeader {
    int width = 0, height = 0, channels = 0, orientation = 1;
    bool cmyk = false;
};

// Everything between setjmp and a longjmp is C: no object with a destructor lives in this frame,
// so jumping out of libjpeg skips nothing. Returns false with err.message set on failure.
bool readHeader(jpeg_decompress_struct& cinfo, ErrorManager& err, const unsigned char* data,
                unsigned long size, JpegHeader& h) {
    if (setjmp(err.jump))
        return false;
    jpeg_mem_src(&cinfo, data, size);
    jpeg_save_markers(&cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&cinfo, TRUE);
    for (jpeg_saved_marker_ptr m = cinfo.marker_list; m; m = m->next)
        if (m->marker == JPEG_APP0 + 1 &&
            (h.orientation = exifOrientation(m->data, m->data_length)) != 1)
            break;
    h.cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    cinfo.out_color_space = cinfo.num_components == 1 ? JCS_GRAYSCALE : h.cmyk ? JCS_CMYK : JCS_RGB;
    jpeg_calc_output_dimensions(&cinfo);
    h.width = int(cinfo.output_width);
    h.height = int(cinfo.output_height);
    h.channels = cinfo.output_components;
    return true;
}

// `sink` (may be null) is told of every 64 rows as they are decoded: a virtual call that
// neither throws nor jumps, so it keeps this frame plain C as far as longjmp is concerned.
bool readPixels(jpeg_decompress_struct& cinfo, ErrorManager& err, unsigned char* out,
                std::size_t step, RowSink* sink) {
    if (setjmp(err.jump))
        return false;
    jpeg_start_decompress(&cinfo);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = out + step * cinfo.output_scanline;
        jpeg_read_scanlines(&cinfo, &row, 1);
        if (sink &&
            (cinfo.output_scanline % 64 == 0 || cinfo.output_scanline == cinfo.output_height))
            sink->rows(out, int(cinfo.output_scanline));
    }
    jpeg_finish_decompress(&cinfo);
    return true;
}

/// Adobe's inverted CMYK (what Photoshop writes and libjpeg returns) to RGB: each colour is its
/// ink times the black ink, rounded, R = C K / 255 on the stored (inverted) values.
cv::Mat rgbFromInvertedCmyk(const cv::Mat& cmyk) {
    cv::Mat rgb(cmyk.rows, cmyk.cols, CV_8UC3);
    for (int y = 0; y < cmyk.rows; ++y) {
        const unsigned char* s = cmyk.ptr(y);
        unsigned char* d = rgb.ptr(y);
        for (int x = 0; x < cmyk.cols; ++x, s += 4, d += 3)
            for (int c = 0; c < 3; ++c)
                d[c] = static_cast<unsigned char>((s[c] * s[3] + 127) / 255);
    }
    return rgb;
}

} // namespace

Decoded decodeJpeg(const std::vector<unsigned char>& bytes, const std::string& path,
                   RowSink* sink) {
    jpeg_decompress_struct cinfo;
    ErrorManager err;
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = onError;
    err.pub.emit_message = onMessage;
    jpeg_create_decompress(&cinfo);
    // libjpeg's own buffers (a progressive file's coefficients are twice its pixels) within the
    // image limit: beyond it libjpeg fails (it has no backing store) instead of allocating.
    cinfo.mem->max_memory_to_use = long(std::min<std::uint64_t>(maxImageBytes(), LONG_MAX));
    struct Destroy {
        jpeg_decompress_struct* c;
        ~Destroy() { jpeg_destroy_decompress(c); }
    } destroy{&cinfo};

    JpegHeader h;
    if (!readHeader(cinfo, err, bytes.data(), bytes.size(), h))
        throw InputError(path + ": damaged or truncated JPEG (libjpeg: " + err.message + ")");
    checkDeclaredSize(path, std::uint64_t(h.width), std::uint64_t(h.height), h.channels, 1);
    Decoded d;
    d.create(h.height, h.width, CV_8UC(h.channels));
    // CMYK rows are converted after decoding: the sink would see other values than the image's.
    // Its end() comes before the rows are converted, rotated or freed, whatever happens (this
    // guard goes before `d` does).
    struct EndRows {
        RowSink* sink;
        void end(bool complete) {
            if (sink)
                std::exchange(sink, nullptr)->end(complete);
        }
        ~EndRows() { end(false); }
    } rows{h.cmyk ? nullptr : sink};
    if (rows.sink)
        rows.sink->begin({h.width, h.height, h.channels, h.orientation});
    const bool decoded = readPixels(cinfo, err, d.mat.data, d.mat.step, rows.sink);
    rows.end(decoded);
    if (!decoded)
        throw InputError(path + ": damaged or truncated JPEG (libjpeg: " + err.message + ")");
    if (h.cmyk)
        d.mat = rgbFromInvertedCmyk(d.mat);
    if (h.orientation != 1) {
        applyOrientation(d.mat, h.orientation);
        d.note = "EXIF orientation " + std::to_string(h.orientation) + " applied";
    }
    return d;
}

} // namespace histlab::io
