// TIFF through libtiff, read from memory (one image) or from the file as libtiff asks for it
// (the pages of a stack, one at a time, so that a stack larger than memory can be read).
//
// OpenCV reads some layouts through libtiff's RGBA interface, which premultiplies colour by an
// unassociated alpha, adds an opaque alpha to CMYK and drops a gray image's alpha; it reads only
// the first page and allocates whatever size a header declares. Here samples come as stored,
// page by page, the declared size is checked before anything is allocated, and a strip or tile
// the file cannot deliver refuses it. libtiff's messages become HistLab's one line; none is
// printed.
#include "io/decoders.h"
#include "io/imageio.h"
#include "runtime/errors.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <opencv2/imgproc.hpp>
#include <optional>
#include <sys/stat.h>
#include <tiffio.h>
#include <unistd.h>
#include <utility>

namespace histlab::io {

namespace {

struct Memory {
    const unsigned char* data;
    toff_t size;
    toff_t at = 0;
    std::string error; ///< libtiff's first error message (later ones follow from it)
    /// Set while pixels are decoded: a codec's warning then means pixels it made up (libjpeg's
    /// grey fill after "premature end", a fax decoder's white rows after "premature EOF"),
    /// so the first one is kept and refuses the page.
    bool decoding = false;
    std::string warning;
    /// A file read with pread (data is null): only the strips of the page being read are in
    /// memory. A read error or a short read is libtiff's to report, as past the end of memory.
    int fd = -1;
};

tsize_t readProc(thandle_t h, tdata_t out, tsize_t n) {
    auto* m = static_cast<Memory*>(h);
    if (n < 0)
        return -1;
    if (m->fd >= 0) {
        std::size_t done = 0;
        while (done < std::size_t(n)) {
            const ssize_t got = ::pread(m->fd, static_cast<char*>(out) + done,
                                        std::size_t(n) - done, off_t(m->at + done));
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0)
                return -1;
            if (got == 0)
                break;
            done += std::size_t(got);
        }
        m->at += done;
        return tsize_t(done);
    }
    const toff_t left = m->at < m->size ? m->size - m->at : 0;
    const toff_t take = std::min<toff_t>(toff_t(n), left);
    std::memcpy(out, m->data + m->at, std::size_t(take));
    m->at += take;
    return tsize_t(take);
}
tsize_t writeProc(thandle_t, tdata_t, tsize_t) {
    return -1;
}
toff_t seekProc(thandle_t h, toff_t offset, int whence) {
    auto* m = static_cast<Memory*>(h);
    const toff_t base = whence == SEEK_CUR ? m->at : whence == SEEK_END ? m->size : 0;
    m->at = base + offset; // reads past the end return nothing
    return m->at;
}
int closeProc(thandle_t) {
    return 0;
}
toff_t sizeProc(thandle_t h) {
    return static_cast<Memory*>(h)->size;
}
// Mapped: uncompressed strips are read in place, with no buffer of libtiff's own.
int mapProc(thandle_t h, tdata_t* base, toff_t* size) {
    auto* m = static_cast<Memory*>(h);
    if (m->fd >= 0)
        return 0; // a file is read strip by strip, never mapped whole
    *base = const_cast<unsigned char*>(m->data);
    *size = m->size;
    return 1;
}
void unmapProc(thandle_t, tdata_t, toff_t) {}

int onError(TIFF*, void* user, const char* module, const char* fmt, va_list ap) {
    auto* m = static_cast<Memory*>(user);
    if (m->error.empty()) {
        char text[512];
        std::vsnprintf(text, sizeof text, fmt, ap);
        m->error = std::string(module ? module : "libtiff") + ": " + text;
    }
    return 1; // handled: libtiff prints nothing
}
/// Whether a warning while decoding means pixels the codec did not get from the file. libjpeg's
/// (module "JPEGLib") do where the JPEG reader refuses them too (corrupt data, a premature end, a
/// bad progression), not its notes on bytes between segments; libtiff's and its other codecs' do,
/// but for those that leave every pixel decoded: old-style LZW codes, a JPEG strip taller than
/// the last strip needs (libtiff drops the extra rows), Old-JPEG subsampling notes.
bool warningLosesPixels(const std::string& module, const std::string& text) {
    const auto has = [&](const char* part) { return text.find(part) != std::string::npos; };
    if (module == "JPEGLib")
        return (has("Corrupt JPEG data") && !has("extraneous bytes")) || has("Premature end") ||
               has("Inconsistent progression") || has("Invalid SOS parameters");
    return !has("Old-style LZW codes") && !has("JPEG strip size exceeds expected dimensions") &&
           !(module.rfind("OJPEG", 0) == 0 && has("ubsampling"));
}

int onWarning(TIFF*, void* user, const char* module, const char* fmt, va_list ap) {
    auto* m = static_cast<Memory*>(user);
    if (m->decoding && m->warning.empty()) {
        char text[512];
        std::vsnprintf(text, sizeof text, fmt, ap);
        const std::string from = module ? module : "libtiff";
        if (warningLosesPixels(from, text))
            m->warning = from + ": " + text;
    }
    return 1; // handled: libtiff prints nothing (a warning outside decoding leaves pixels whole)
}

/// Marks the decoding of pixels, during which libtiff's warnings refuse the page.
struct Decoding {
    Memory& m;
    explicit Decoding(Memory& memory)
        : m(memory) {
        m.decoding = true;
    }
    ~Decoding() { m.decoding = false; }
};

/// A CCITT fax decoder's row filler, as TIFFTAG_FAXFILLFUNC gets and sets it: the runs of a
/// row (white, black, white, ...) into its bits.
using FaxFill = void (*)(unsigned char*, std::uint32_t*, std::uint32_t*, std::uint32_t);

/// The rows a fax decoder has filled whole on this thread, and its own filler. libtiff's Group 4
/// decoder ends a strip at an end-of-block code and reports success, whatever rows are left
/// (a "badly terminated strip"): only the rows it fills tell what the data covered.
struct FaxRows {
    FaxFill fill = nullptr;
    std::uint64_t complete = 0;
};
thread_local FaxRows* tFaxRows = nullptr;

/// Counts a row whose runs cover its width, then fills it as libtiff would.
void countingFaxFill(unsigned char* buf, std::uint32_t* runs, std::uint32_t* erun,
                     std::uint32_t lastx) {
    std::uint64_t covered = 0;
    for (const std::uint32_t* r = runs; r < erun; ++r)
        covered += *r;
    if (erun > runs && covered == lastx)
        ++tFaxRows->complete;
    tFaxRows->fill(buf, runs, erun, lastx);
}

template <typename T> T field(TIFF* tif, ttag_t tag, T fallback) {
    T v = fallback;
    return TIFFGetFieldDefaulted(tif, tag, &v) ? v : fallback;
}

class Page {
public:
    Page(TIFF* tif, Memory& memory, const std::string& path)
        : m_tif(tif)
        , m_memory(memory)
        , m_path(path) {}

    [[noreturn]] void fail(const std::string& what) const {
        const std::string& why = m_memory.error.empty() ? m_memory.warning : m_memory.error;
        throw InputError(m_path + ": " + what + (why.empty() ? "" : " (" + why + ")"));
    }

    /// fail(what) when a codec warned while decoding.
    void failOnWarning(const std::string& what) const {
        if (!m_memory.warning.empty())
            fail(what);
    }

    /// Reads every strip or tile of the page into `out` (its rows `rowBytes` apart, planes one
    /// after another when the file stores them so).
    void read(unsigned char* out, std::size_t rowBytes, std::uint32_t width, std::uint32_t height,
              int planes) {
        const Decoding decoding(m_memory);
        const std::size_t planeBytes = rowBytes * height;
        FaxRows fax;
        const std::uint16_t compression =
            field<std::uint16_t>(m_tif, TIFFTAG_COMPRESSION, COMPRESSION_NONE);
        if ((compression == COMPRESSION_CCITTRLE || compression == COMPRESSION_CCITTRLEW ||
             compression == COMPRESSION_CCITTFAX3 || compression == COMPRESSION_CCITTFAX4) &&
            TIFFGetField(m_tif, TIFFTAG_FAXFILLFUNC, &fax.fill) && fax.fill)
            TIFFSetField(m_tif, TIFFTAG_FAXFILLFUNC, countingFaxFill);
        else
            fax.fill = nullptr;
        struct Counting {
            FaxRows* previous;
            explicit Counting(FaxRows* rows)
                : previous(tFaxRows) {
                tFaxRows = rows;
            }
            ~Counting() { tFaxRows = previous; }
        } counting(&fax);
        // A fax strip or tile must fill every row it stands for.
        auto checkFaxRows = [&](std::uint32_t rows, const std::string& where) {
            if (fax.fill && fax.complete < rows)
                fail("damaged or truncated TIFF: the fax data of " + where + " covers " +
                     std::to_string(fax.complete) + " of its " + std::to_string(rows) + " rows");
            fax.complete = 0;
        };
        if (TIFFIsTiled(m_tif)) {
            const std::uint32_t tw = field<std::uint32_t>(m_tif, TIFFTAG_TILEWIDTH, 0);
            const std::uint32_t th = field<std::uint32_t>(m_tif, TIFFTAG_TILELENGTH, 0);
            const std::uint64_t tileRow = TIFFTileRowSize64(m_tif);
            const std::uint64_t tileBytes = TIFFTileSize64(m_tif);
            if (tw == 0 || th == 0 || tileRow == 0 || tileBytes != tileRow * th ||
                tileBytes > maxImageBytes())
                fail("damaged TIFF: tiles of " + std::to_string(tw) + " x " + std::to_string(th));
            std::vector<unsigned char> tile(tileBytes);
            const double perPixel = double(tileRow) / tw; // bytes, whole for 8 bits and up
            for (int p = 0; p < planes; ++p)
                for (std::uint32_t y = 0; y < height; y += th)
                    for (std::uint32_t x = 0; x < width; x += tw) {
                        const std::string where =
                            "tile at (" + std::to_string(x) + ", " + std::to_string(y) + ")";
                        if (TIFFReadTile(m_tif, tile.data(), x, y, 0, std::uint16_t(p)) !=
                            tmsize_t(tileBytes))
                            fail("damaged or truncated TIFF: " + where + " cannot be read");
                        failOnWarning("damaged or truncated TIFF: " + where + " is damaged");
                        checkFaxRows(th, "the " + where);
                        const std::size_t from = std::size_t(std::llround(x * perPixel));
                        const std::size_t bytes =
                            std::min<std::size_t>(tileRow, rowBytes - std::min(rowBytes, from));
                        for (std::uint32_t r = 0; r < th && y + r < height; ++r)
                            std::memcpy(out + p * planeBytes + (y + r) * rowBytes + from,
                                        tile.data() + r * tileRow, bytes);
                    }
            return;
        }
        const std::uint32_t rps = std::min(
            height,
            std::max<std::uint32_t>(1, field<std::uint32_t>(m_tif, TIFFTAG_ROWSPERSTRIP, height)));
        for (int p = 0; p < planes; ++p)
            for (std::uint32_t y = 0; y < height; y += rps) {
                const std::uint32_t rows = std::min(rps, height - y);
                const tmsize_t want = tmsize_t(rows * rowBytes);
                const tstrip_t strip = TIFFComputeStrip(m_tif, y, std::uint16_t(p));
                const std::string where =
                    "rows " + std::to_string(y) + " to " + std::to_string(y + rows - 1);
                // What the decoder returns is what it produced: a strip must fill the rows it
                // stands for.
                if (TIFFReadEncodedStrip(m_tif, strip, out + p * planeBytes + y * rowBytes, want) !=
                    want)
                    fail("damaged or truncated TIFF: " + where + " cannot be read");
                failOnWarning("damaged or truncated TIFF: " + where + " are damaged");
                checkFaxRows(rows, where);
            }
    }

private:
    TIFF* m_tif;
    Memory& m_memory;
    const std::string& m_path;
};

/// One sample of a pixel as a number (8/16-bit unsigned, fewer bits, or 32-bit float).
double sampleAt(const unsigned char* row, std::size_t index, int bits, bool isFloat) {
    switch (bits) {
    case 8:
        return row[index];
    case 16: {
        std::uint16_t v;
        std::memcpy(&v, row + 2 * index, 2);
        return v;
    }
    case 32: {
        if (isFloat) {
            float f;
            std::memcpy(&f, row + 4 * index, 4);
            return f;
        }
        std::uint32_t v;
        std::memcpy(&v, row + 4 * index, 4);
        return v;
    }
    default: { // 1, 2 or 4 bits, the first sample in the high bits
        const std::size_t bit = index * std::size_t(bits);
        return (row[bit / 8] >> (8 - bits - bit % 8)) & ((1u << bits) - 1);
    }
    }
}

enum class Colour { Gray, Rgb, Palette, Cmyk };

/// The width and height a JPEG stream's frame header (SOF) declares, for the stream of `count`
/// bytes at `offset` of the file; none where it has no SOF before its scan (an abbreviated
/// stream whose header is elsewhere) or is not a JPEG stream.
std::optional<std::pair<std::uint32_t, std::uint32_t>> jpegFrameSize(const unsigned char* b,
                                                                     std::uint64_t size,
                                                                     std::uint64_t offset,
                                                                     std::uint64_t count) {
    if (offset >= size)
        return std::nullopt;
    const std::size_t end = std::size_t(std::min<std::uint64_t>(size, offset + count));
    std::size_t at = std::size_t(offset);
    if (at + 2 > end || b[at] != 0xFF || b[at + 1] != 0xD8)
        return std::nullopt;
    at += 2;
    while (at + 4 <= end && b[at] == 0xFF) {
        const unsigned marker = b[at + 1];
        if (marker == 0xFF) { // fill byte
            ++at;
            continue;
        }
        const bool sof =
            marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
        if (sof && at + 9 <= end)
            return std::pair{std::uint32_t(be16(&b[at + 7])), std::uint32_t(be16(&b[at + 5]))};
        if (marker == 0xDA || marker == 0xD9) // a scan or the end, before any frame header
            return std::nullopt;
        at += 2 + be16(&b[at + 2]);
    }
    return std::nullopt;
}

/// What a page's tags declare: its size, its samples and how they are laid out.
struct TiffLayout {
    std::uint32_t width = 0, height = 0;
    int spp = 1, bits = 1, format = SAMPLEFORMAT_UINT, orientation = ORIENTATION_TOPLEFT;
    bool planar = false;
    std::uint16_t extras = 0;
    std::uint16_t photometric = 0;
    bool isFloat = false;
    int colours = 0; ///< samples a pixel, less the extra ones
};

/// The file opened by libtiff from memory, its errors and warnings kept in `memory`; InputError
/// for one libtiff cannot read.
TIFF* openTiff(Memory& memory, const std::string& path) {
    TIFFOpenOptions* options = TIFFOpenOptionsAlloc();
    TIFFOpenOptionsSetErrorHandlerExtR(options, onError, &memory);
    TIFFOpenOptionsSetWarningHandlerExtR(options, onWarning, &memory);
    // "c": no strip chopping (libtiff would cut one uncompressed strip into rows of computed
    // sizes, hiding a header that lies about it).
    TIFF* tif = TIFFClientOpenExt(path.c_str(), "rc", &memory, readProc, writeProc, seekProc,
                                  closeProc, sizeProc, mapProc, unmapProc, options);
    TIFFOpenOptionsFree(options);
    if (!tif)
        throw InputError(path + ": not a TIFF libtiff can read" +
                         (memory.error.empty() ? "" : " (" + memory.error + ")"));
    return tif;
}

/// The current page's tags; InputError for a page of no pixels or of samples of a type HistLab
/// does not count.
TiffLayout readLayout(TIFF* tif, Page& reader, const std::string& path) {
    TiffLayout l;
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &l.width);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &l.height);
    l.spp = field<std::uint16_t>(tif, TIFFTAG_SAMPLESPERPIXEL, 1);
    l.bits = field<std::uint16_t>(tif, TIFFTAG_BITSPERSAMPLE, 1);
    l.format = field<std::uint16_t>(tif, TIFFTAG_SAMPLEFORMAT, SAMPLEFORMAT_UINT);
    l.orientation = field<std::uint16_t>(tif, TIFFTAG_ORIENTATION, ORIENTATION_TOPLEFT);
    l.planar = field<std::uint16_t>(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG) ==
               PLANARCONFIG_SEPARATE;
    std::uint16_t* extraTypes = nullptr;
    TIFFGetFieldDefaulted(tif, TIFFTAG_EXTRASAMPLES, &l.extras, &extraTypes);
    if (!TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &l.photometric))
        l.photometric = l.spp - l.extras >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
    if (l.photometric == PHOTOMETRIC_LOGLUV || l.photometric == PHOTOMETRIC_LOGL) {
        // SGI's LogLuv / LogL (what OpenCV writes for 32-bit float colour): libtiff's codec
        // gives CIE XYZ (or Y) as 32-bit floats once asked to, which is how OpenCV reads them.
        if (field<std::uint16_t>(tif, TIFFTAG_COMPRESSION, COMPRESSION_NONE) !=
                COMPRESSION_SGILOG &&
            field<std::uint16_t>(tif, TIFFTAG_COMPRESSION, COMPRESSION_NONE) !=
                COMPRESSION_SGILOG24)
            reader.fail("TIFF LogLuv colours without SGI LogLuv compression");
        TIFFSetField(tif, TIFFTAG_SGILOGDATAFMT, SGILOGDATAFMT_FLOAT);
        l.bits = field<std::uint16_t>(tif, TIFFTAG_BITSPERSAMPLE, 1);
        l.format = field<std::uint16_t>(tif, TIFFTAG_SAMPLEFORMAT, SAMPLEFORMAT_UINT);
    }
    if (l.width == 0 || l.height == 0)
        reader.fail("TIFF page of " + std::to_string(l.width) + " x " + std::to_string(l.height) +
                    " pixels");

    const int bits = l.bits, format = l.format;
    l.isFloat = format == SAMPLEFORMAT_IEEEFP;
    if (l.isFloat ? bits != 32 : format != SAMPLEFORMAT_UINT || bits > 16 || (bits & (bits - 1)))
        throw InputError(path + ": TIFF samples of " + std::to_string(bits) + "-bit " +
                         (l.isFloat                     ? "float"
                          : format == SAMPLEFORMAT_INT  ? "signed integers"
                          : format == SAMPLEFORMAT_UINT ? "unsigned integers"
                                                        : "an unusual type") +
                         " are not supported (8- or 16-bit unsigned, or 32-bit float)");
    l.colours = l.spp - l.extras;
    return l;
}

/// How the page's colours are stored where HistLab reads its samples itself; none for the
/// encodings left to libtiff's RGBA interface. Asks libjpeg for JPEG-compressed YCbCr as RGB.
std::optional<Colour> storedColour(TIFF* tif, Page& reader, const TiffLayout& l) {
    switch (l.photometric) {
    case PHOTOMETRIC_MINISBLACK:
    case PHOTOMETRIC_MINISWHITE:
    case PHOTOMETRIC_LOGL: // luminance Y
        return Colour::Gray;
    case PHOTOMETRIC_RGB:
    case PHOTOMETRIC_LOGLUV: // CIE XYZ, made RGB after reading (decodeTiff)
        return Colour::Rgb;
    case PHOTOMETRIC_PALETTE:
        return Colour::Palette;
    case PHOTOMETRIC_SEPARATED:
        if (field<std::uint16_t>(tif, TIFFTAG_INKSET, INKSET_CMYK) != INKSET_CMYK || l.colours != 4)
            reader.fail("TIFF with inks other than CMYK is not supported");
        return Colour::Cmyk;
    case PHOTOMETRIC_YCBCR:
        // JPEG-compressed YCbCr (the usual case) comes out as RGB from libjpeg.
        if (field<std::uint16_t>(tif, TIFFTAG_COMPRESSION, COMPRESSION_NONE) == COMPRESSION_JPEG) {
            TIFFSetField(tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
            return Colour::Rgb;
        }
        return std::nullopt;
    default:
        return std::nullopt;
    }
}

/// Other encodings (CIELab, LogLuv, uncompressed YCbCr...) through libtiff's RGBA interface:
/// 8-bit RGB, with alpha where the file has one, oriented.
void decodeThroughRgba(TIFF* tif, Memory& memory, Page& reader, const std::string& path,
                       const TiffLayout& l, cv::Mat& mat) {
    char why[1024] = {};
    if (!TIFFRGBAImageOK(tif, why))
        throw InputError(path + ": TIFF not supported (" + why + ")");
    const int channels = l.extras > 0 ? 4 : 3;
    checkDeclaredSize(path, l.width, l.height, 4, 1);
    cv::Mat rgba(int(l.height), int(l.width), CV_8UC4);
    {
        const Decoding decoding(memory);
        if (!TIFFReadRGBAImageOriented(tif, l.width, l.height,
                                       reinterpret_cast<uint32_t*>(rgba.data), l.orientation, 1))
            reader.fail("damaged TIFF: its pixels cannot be read");
        reader.failOnWarning("damaged or truncated TIFF: its pixels are damaged");
    }
    // The raster holds each pixel as a uint32 A << 24 | B << 16 | G << 8 | R: on a little-
    // endian host, the bytes R, G, B, A.
    if (channels == 3)
        cv::cvtColor(rgba, mat, cv::COLOR_RGBA2RGB);
    else
        mat = rgba;
    applyOrientation(mat, l.orientation);
}

/// The sample counts each colour encoding needs, and the combinations HistLab does not read.
void checkColourLayout(Page& reader, const TiffLayout& l, Colour colour) {
    if ((colour == Colour::Gray || colour == Colour::Palette) ? l.colours != 1
        : colour == Colour::Rgb                               ? l.colours != 3
                                                              : false)
        reader.fail("TIFF with " + std::to_string(l.spp) + " samples a pixel (" +
                    std::to_string(l.extras) + " extra) is not supported for its photometric " +
                    std::to_string(l.photometric));
    if (colour == Colour::Palette && (l.bits > 8 || l.isFloat))
        reader.fail("TIFF palette of " + std::to_string(l.bits) + "-bit indices");
    if (l.isFloat && (colour != Colour::Gray && colour != Colour::Rgb))
        reader.fail("float TIFF in a palette or CMYK");
}

/// The strips (or tiles) must be able to hold the pixels the header declares: checked before
/// anything is allocated (a header may declare 900 million pixels over 16 bytes). Stored
/// data holds its bytes one for one; compressed data expands at most by its codec's ratio
/// (deflate 1,032 to 1, LZW 4,096 to 1: a 12-bit code stands for at most 4,096 bytes,
/// PackBits 64 to 1). CCITT fax codes (modified Huffman, Group 3, Group 4) spend at least
/// one bit on a row (a white row under a white row is one V0 code in Group 4), so a byte
/// holds at most 8 rows. Codecs with no such bound are held by the image limit and by
/// their decoders' warnings alone: LZMA, Zstandard, and JPEG, whose arithmetic-coded or
/// progressive DC-only scans of a flat picture pass 1,000 to 1.
void checkPiecesHoldPixels(TIFF* tif, std::uint64_t fileBytes, Page& reader, const TiffLayout& l,
                           std::uint16_t compression) {
    const double expansion =
        compression == COMPRESSION_NONE            ? 1
        : compression == COMPRESSION_PACKBITS      ? 64
        : compression == COMPRESSION_ADOBE_DEFLATE ? 1032
        : compression == COMPRESSION_DEFLATE       ? 1032
        : compression == COMPRESSION_LZW           ? 4096
        : compression == COMPRESSION_CCITTRLE || compression == COMPRESSION_CCITTRLEW ||
                compression == COMPRESSION_CCITTFAX3 || compression == COMPRESSION_CCITTFAX4
            ? 8.0 * double(TIFFScanlineSize64(tif))
            : 0;
    if (expansion <= 0)
        return;
    const double need = double(TIFFScanlineSize64(tif)) * l.height * (l.planar ? l.spp : 1);
    double held = 0;
    // libtiff replaces a single strip's byte count that looks too small by an estimate,
    // so what the file can hold is also bounded by where the strip starts.
    const std::uint32_t pieces =
        TIFFIsTiled(tif) ? TIFFNumberOfTiles(tif) : TIFFNumberOfStrips(tif);
    for (std::uint32_t s = 0; s < pieces; ++s) {
        const std::uint64_t at = TIFFGetStrileOffset(tif, s);
        const std::uint64_t left = at < fileBytes ? fileBytes - at : 0;
        held += double(std::min(TIFFGetStrileByteCount(tif, s), left));
    }
    const std::string pieceNames = TIFFIsTiled(tif) ? "tiles" : "strips";
    if (held * expansion < need)
        reader.fail("damaged or truncated TIFF: its " +
                    (compression == COMPRESSION_NONE
                         ? pieceNames + " hold " + std::to_string(std::uint64_t(held))
                         : "compressed " + pieceNames + " hold " +
                               std::to_string(std::uint64_t(held)) + " bytes, at most " +
                               std::to_string(std::uint64_t(held * expansion)) +
                               " once expanded,") +
                    " of the " + std::to_string(std::uint64_t(need)) + " bytes its " +
                    std::to_string(l.width) + " x " + std::to_string(l.height) + " pixels need");
}

/// A JPEG strip or tile declares its own size in its frame header: one smaller than the
/// rows it stands for is refused before anything is allocated (libjpeg would decode what is
/// there and libtiff fill the rest; a 10 KB file declaring 30000 x 30000 cost 1 GB and 13 s).
void checkJpegPieces(TIFF* tif, const Memory& memory, Page& reader, const TiffLayout& l) {
    const std::uint32_t width = l.width, height = l.height;
    const bool tiled = TIFFIsTiled(tif);
    const std::uint32_t pieceWidth =
        tiled ? field<std::uint32_t>(tif, TIFFTAG_TILEWIDTH, 0) : width;
    const std::uint32_t rps =
        tiled ? field<std::uint32_t>(tif, TIFFTAG_TILELENGTH, 0)
              : std::min(height, std::max<std::uint32_t>(
                                     1, field<std::uint32_t>(tif, TIFFTAG_ROWSPERSTRIP, height)));
    const std::uint32_t perPlane = tiled ? 0 : (height + rps - 1) / rps;
    const std::uint32_t pieces = tiled ? TIFFNumberOfTiles(tif) : TIFFNumberOfStrips(tif);
    for (std::uint32_t s = 0; s < pieces; ++s) {
        const std::uint32_t rows =
            tiled ? rps : std::min<std::uint32_t>(rps, height - (s % perPlane) * rps);
        const std::uint64_t offset = TIFFGetStrileOffset(tif, s);
        const std::uint64_t count = TIFFGetStrileByteCount(tif, s);
        std::optional<std::pair<std::uint32_t, std::uint32_t>> size;
        if (memory.fd < 0) {
            size = jpegFrameSize(memory.data, memory.size, offset, count);
        } else {
            // The piece's first bytes, where its frame header is (after tables of at most a
            // few KB): a stack's file is not in memory.
            std::vector<unsigned char> head(std::size_t(std::min<std::uint64_t>(count, 1 << 16)));
            const ssize_t got = ::pread(memory.fd, head.data(), head.size(), off_t(offset));
            head.resize(got > 0 ? std::size_t(got) : 0);
            size = jpegFrameSize(head.data(), head.size(), 0, head.size());
        }
        if (size && ((size->second != 0 && size->second < rows) || size->first < pieceWidth))
            reader.fail("damaged or truncated TIFF: the JPEG data of " +
                        std::string(tiled ? "tile " : "strip ") + std::to_string(s) + " declares " +
                        std::to_string(size->first) + " x " + std::to_string(size->second) +
                        " pixels, of the " + std::to_string(pieceWidth) + " x " +
                        std::to_string(rows) + " it stands for");
    }
}

/// The page's samples as stored (contiguous rows, every sample of a pixel together, or one
/// plane per sample; rows of rowBytes starting on bytes), converted into `mat`: gray, RGB or
/// RGBA of its depth (bits below 8 scaled up, white-is-zero inverted, palette and CMYK to RGB).
void readConverted(TIFF* tif, Page& reader, const TiffLayout& l, Colour colour,
                   std::size_t rowBytes, cv::Mat& mat) {
    const std::uint32_t width = l.width, height = l.height;
    const int spp = l.spp, bits = l.bits;
    const bool planar = l.planar, isFloat = l.isFloat;
    const bool alpha = l.extras > 0; // the first extra sample; any others are not counted
    if (alpha && l.photometric == PHOTOMETRIC_LOGLUV)
        reader.fail("TIFF LogLuv with extra samples is not supported");
    const int outChannels = mat.channels();
    const int depth = mat.depth();
    std::vector<unsigned char> raw;
    const int planes = planar ? spp : 1;
    if (rowBytes == 0 || rowBytes < (std::size_t(width) * (planar ? 1 : spp) * bits + 7) / 8)
        reader.fail("damaged TIFF: rows of " + std::to_string(rowBytes) + " bytes");
    // The stored samples (every extra sample included) before their conversion: within the
    // same limit as the decoded image.
    if (double(rowBytes) * height * planes > double(maxImageBytes()))
        reader.fail("TIFF of " + std::to_string(spp) + " samples a pixel: its " +
                    std::to_string(width) + " x " + std::to_string(height) +
                    " pixels as stored are more than a quarter of this machine's memory");
    raw.resize(rowBytes * height * planes);
    reader.read(raw.data(), rowBytes, width, height, planes);

    std::uint16_t *red = nullptr, *green = nullptr, *blue = nullptr;
    bool wideMap = false;
    if (colour == Colour::Palette) {
        if (!TIFFGetField(tif, TIFFTAG_COLORMAP, &red, &green, &blue))
            reader.fail("damaged TIFF: a palette image without its colour map");
        for (int i = 0; i < (1 << bits); ++i)
            wideMap |= red[i] > 255 || green[i] > 255 || blue[i] > 255;
    }
    const double top = isFloat ? 1.0 : depth == CV_16U ? 65535.0 : 255.0;
    const double scale = bits < 8 ? 255.0 / ((1 << bits) - 1) : 1.0;
    const bool invert = l.photometric == PHOTOMETRIC_MINISWHITE;
    for (std::uint32_t y = 0; y < height; ++y) {
        // sample s of pixel x
        auto at = [&](std::uint32_t x, int s) {
            const unsigned char* row =
                raw.data() + (planar ? std::size_t(s) * height + y : y) * rowBytes;
            return sampleAt(row, planar ? x : std::size_t(x) * spp + s, bits, isFloat);
        };
        for (std::uint32_t x = 0; x < width; ++x) {
            double v[4] = {};
            switch (colour) {
            case Colour::Gray: {
                const double g = at(x, 0) * scale;
                v[0] = invert ? top - g : g;
                v[1] = v[2] = v[0];
                break;
            }
            case Colour::Rgb:
                for (int c = 0; c < 3; ++c)
                    v[c] = at(x, c);
                break;
            case Colour::Palette: {
                const auto i = std::size_t(at(x, 0));
                const int shift = wideMap ? 8 : 0;
                v[0] = red[i] >> shift;
                v[1] = green[i] >> shift;
                v[2] = blue[i] >> shift;
                break;
            }
            case Colour::Cmyk: {
                // Ink to light: each colour is what its ink and the black ink leave, rounded.
                const double k = top - at(x, 3);
                for (int c = 0; c < 3; ++c)
                    v[c] = std::floor((top - at(x, c)) * k / top + 0.5);
                break;
            }
            }
            if (alpha)
                v[3] = at(x, l.colours) * scale;
            for (int c = 0; c < outChannels; ++c) {
                const int idx = outChannels == 1 ? 0 : c;
                if (depth == CV_32F)
                    mat.ptr<float>(int(y))[std::size_t(x) * outChannels + c] = float(v[idx]);
                else if (depth == CV_16U)
                    mat.ptr<std::uint16_t>(int(y))[std::size_t(x) * outChannels + c] =
                        std::uint16_t(v[idx]);
                else
                    mat.ptr<std::uint8_t>(int(y))[std::size_t(x) * outChannels + c] =
                        std::uint8_t(v[idx]);
            }
        }
    }
}

/// The page libtiff's current directory is: its pixels, or InputError / failures through
/// `reader` naming `path` (the file, or the file and its page).
Decoded decodePage(TIFF* tif, Memory& memory, Page& reader, const std::string& path) {
    Decoded d;
    const TiffLayout l = readLayout(tif, reader, path);
    const std::optional<Colour> stored = storedColour(tif, reader, l);
    if (!stored) {
        decodeThroughRgba(tif, memory, reader, path, l, d.mat);
        return d;
    }
    const Colour colour = *stored;
    checkColourLayout(reader, l, colour);

    const bool alpha = l.extras > 0; // the first extra sample; any others are not counted
    if (alpha && l.photometric == PHOTOMETRIC_LOGLUV)
        reader.fail("TIFF LogLuv with extra samples is not supported");
    const int outBytes = l.isFloat ? 4 : l.bits == 16 && colour != Colour::Palette ? 2 : 1;
    const int outChannels = alpha ? 4 : colour == Colour::Gray ? 1 : 3;
    checkDeclaredSize(path, l.width, l.height, outChannels, outBytes);
    const std::uint16_t compression =
        field<std::uint16_t>(tif, TIFFTAG_COMPRESSION, COMPRESSION_NONE);
    checkPiecesHoldPixels(tif, memory.size, reader, l, compression);
    if (compression == COMPRESSION_JPEG)
        checkJpegPieces(tif, memory, reader, l);
    const int depth = l.isFloat ? CV_32F : outBytes == 2 ? CV_16U : CV_8U;
    d.create(int(l.height), int(l.width), CV_MAKETYPE(depth, outChannels));

    // Stored as HistLab keeps it (gray, RGB or RGBA samples contiguous at 8, 16 or 32 bits):
    // read straight into the image.
    const bool asStored = !l.planar && l.bits >= 8 && l.spp == outChannels &&
                          l.photometric != PHOTOMETRIC_MINISWHITE &&
                          (colour == Colour::Gray ? l.spp == 1 : colour == Colour::Rgb);
    const std::size_t rowBytes = std::size_t(TIFFScanlineSize64(tif));
    if (asStored) {
        if (rowBytes != d.mat.step)
            reader.fail("damaged TIFF: rows of " + std::to_string(rowBytes) + " bytes");
        reader.read(d.mat.data, rowBytes, l.width, l.height, 1);
    } else {
        readConverted(tif, reader, l, colour, rowBytes, d.mat);
    }
    if (l.photometric == PHOTOMETRIC_LOGLUV) {
        // Linear RGB from CIE XYZ with OpenCV's matrix (sRGB primaries, D65), as cv::imread
        // gives it (in its BGR order).
        cv::cvtColor(d.mat, d.mat, cv::COLOR_XYZ2RGB);
        d.note = "SGI LogLuv: CIE XYZ converted to linear RGB (sRGB primaries), as OpenCV reads it";
    }
    applyOrientation(d.mat, l.orientation);
    if (l.orientation != ORIENTATION_TOPLEFT)
        d.note += std::string(d.note.empty() ? "" : "; ") + "TIFF orientation " +
                  std::to_string(l.orientation) + " applied";
    return d;
}

} // namespace

Decoded decodeTiff(const std::vector<unsigned char>& bytes, const std::string& path, int page) {
    Memory memory{bytes.data(), toff_t(bytes.size()), 0, {}, false, {}};
    TIFF* tif = openTiff(memory, path);
    struct Close {
        TIFF* t;
        ~Close() { TIFFClose(t); }
    } close{tif};
    Page reader(tif, memory, path);

    const int pages = int(TIFFNumberOfDirectories(tif));
    lastPageOf(PageRange{page + 1, page + 1}, pages, path); // UsageError for one not there
    if (page > 0 && !TIFFSetDirectory(tif, tdir_t(page)))
        reader.fail("damaged TIFF: page " + std::to_string(page + 1) + " cannot be read");
    Decoded d = decodePage(tif, memory, reader, path);
    d.pages = pages;
    return d;
}

struct TiffPages::State {
    Memory memory{nullptr, 0, 0, {}, false, {}, -1};
    TIFF* tif = nullptr;
    std::string path;
    int pages = 0;
    ~State() {
        if (tif)
            TIFFClose(tif);
        if (memory.fd >= 0)
            ::close(memory.fd);
    }
};

TiffPages::TiffPages(const std::string& path)
    : m(std::make_unique<State>()) {
    m->path = path;
    m->memory.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (m->memory.fd < 0)
        throw InputError(path + ": cannot be opened (" + std::strerror(errno) + ")");
    struct stat st {};
    if (::fstat(m->memory.fd, &st) != 0)
        throw InputError(path + ": cannot be read (" + std::strerror(errno) + ")");
    m->memory.size = toff_t(st.st_size);
    m->tif = openTiff(m->memory, path);
    // Walks the chain of page headers only (a few bytes each), not the pixels.
    m->pages = int(TIFFNumberOfDirectories(m->tif));
    if (!m->memory.error.empty() || m->pages < 1)
        throw InputError(path + ": damaged TIFF: its pages cannot be counted" +
                         (m->memory.error.empty() ? "" : " (" + m->memory.error + ")"));
}

TiffPages::~TiffPages() = default;

int TiffPages::pages() const {
    return m->pages;
}

Decoded TiffPages::read(int page) {
    // A one-page file's messages name the file alone, as loadImage's always did.
    const std::string named = m->pages == 1 ? m->path
                                            : m->path + ", page " + std::to_string(page + 1) +
                                                  " of " + std::to_string(m->pages);
    lastPageOf(PageRange{page + 1, page + 1}, m->pages, m->path);
    // Each page's messages are its own: a warning of the previous page refused that page.
    m->memory.error.clear();
    m->memory.warning.clear();
    Page reader(m->tif, m->memory, named);
    if (int(TIFFCurrentDirectory(m->tif)) != page && !TIFFSetDirectory(m->tif, tdir_t(page)))
        reader.fail("damaged TIFF: the page cannot be read");
    Decoded d = decodePage(m->tif, m->memory, reader, named);
    d.pages = m->pages;
    return d;
}

} // namespace histlab::io
