#include "io/imageio.h"

#include "image/image.h"
#include "io/decoders.h"
#include "report/files.h"
#include "report/report.h"
#include "runtime/bytesize.h"
#include "runtime/errors.h"
#include "runtime/log.h"

#include <opencv2/core.hpp>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <mutex>
#include <stdexcept>
#include <streambuf>
#include <string_view>

namespace histlab {

namespace fs = std::filesystem;

namespace {

bool startsWith(const std::vector<unsigned char>& b, std::initializer_list<int> sig) {
    if (b.size() < sig.size())
        return false;
    std::size_t i = 0;
    for (int c : sig)
        if (b[i++] != c)
            return false;
    return true;
}

/// The formats handed to OpenCV, each by its own signature: WebP, BMP, PFM, PAM, Radiance HDR,
/// OpenEXR, JPEG 2000 (JP2 box or bare codestream) and Sun raster. Only these: OpenCV tries
/// every decoder it was built with, and some (GDCM's DICOM reader in Debian's 4.6) abort the
/// process on a damaged file instead of failing.
bool isOpenCvFormat(const std::vector<unsigned char>& b) {
    return io::openCvFormatName(b) != nullptr;
}

/// How many leading bytes formatOf needs to see: a DICOM file's "DICM" ends at 132.
constexpr std::size_t kSignatureBytes = 132;

/// Which decoder reads a file, judged by its first bytes; TGA, which has no signature, by its
/// name. Dicom and Unknown are refused.
enum class Format { Jpeg, Png, Tiff, Pnm, Gif, Ico, Tga, OpenCv, Dicom, Unknown };
Format formatOf(const std::vector<unsigned char>& b, const std::string& path) {
    if (startsWith(b, {0xFF, 0xD8, 0xFF}))
        return Format::Jpeg;
    if (io::hasPngSignature(b.data(), b.size()))
        return Format::Png;
    if (startsWith(b, {'I', 'I', 42, 0}) || startsWith(b, {'M', 'M', 0, 42}) ||
        startsWith(b, {'I', 'I', 43, 0}) || startsWith(b, {'M', 'M', 0, 43})) // BigTIFF too
        return Format::Tiff;
    if (b.size() >= 3 && b[0] == 'P' && b[1] >= '1' && b[1] <= '6' && std::isspace(b[2]))
        return Format::Pnm;
    if (startsWith(b, {'G', 'I', 'F', '8', '7', 'a'}) ||
        startsWith(b, {'G', 'I', 'F', '8', '9', 'a'}))
        return Format::Gif;
    // An icon or a cursor: reserved 0, type 1 or 2, at least one image.
    if (b.size() >= 6 && b[0] == 0 && b[1] == 0 && (b[2] == 1 || b[2] == 2) && b[3] == 0 &&
        (b[4] | b[5]) != 0)
        return Format::Ico;
    const std::string ext = lowercaseExtension(path);
    if (ext == ".tga" || ext == ".icb" || ext == ".vda" || ext == ".vst")
        return Format::Tga;
    // Before OpenCV's formats: OpenCV tries its DICOM reader ahead of its OpenEXR and JPEG 2000
    // readers, so an OpenEXR or JPEG 2000 header with "DICM" at byte 128 reached GDCM and
    // aborted (checked on Debian 12's OpenCV 4.6).
    if (io::hasAt(b, 128, "DICM"))
        return Format::Dicom;
    if (isOpenCvFormat(b))
        return Format::OpenCv;
    return Format::Unknown;
}

/// Why a file of `format` is refused before any decoder sees it, or "" when one reads it.
std::string whyRefused(Format format) {
    switch (format) {
    case Format::Dicom:
        return "a DICOM file, which HistLab does not read (OpenCV's DICOM reader aborts on "
               "damaged files); export its pixels as 16-bit TIFF or PNG";
    case Format::Unknown:
        return "not an image HistLab can read (no known image signature)";
    default:
        return {};
    }
}

/// cv::imdecode hands a format it cannot read from memory (PFM, OpenEXR, ...) to its decoder
/// as a temporary copy of the file ("__opencv_temp.XXXXXX" in OPENCV_TEMP_PATH, else /tmp), and
/// leaves that copy behind when it throws (OpenCV 4.6: a declared size of 0 or beyond its pixel
/// limit): every refused file would stay there, whatever its size. Removes the copies of these
/// bytes (same size, same contents) that such a failure left.
void removeOpenCvTemporaryCopies(const std::vector<unsigned char>& bytes) noexcept {
    try {
        const char* dir = std::getenv("OPENCV_TEMP_PATH");
        const fs::path folder = dir && *dir ? fs::path(dir) : fs::path("/tmp");
        std::error_code listing;
        for (fs::directory_iterator it(folder, listing), end; !listing && it != end;
             it.increment(listing)) {
            // Each entry on its own: one that vanished or is another user's skips only itself.
            std::error_code ec;
            const fs::path& p = it->path();
            if (p.filename().string().rfind("__opencv_temp.", 0) != 0 || !it->is_regular_file(ec) ||
                ec || it->file_size(ec) != bytes.size() || ec)
                continue;
            std::ifstream in(p, std::ios::binary);
            std::array<char, 65536> chunk;
            bool same = bool(in);
            for (std::size_t at = 0; same && at < bytes.size(); at += chunk.size()) {
                const std::size_t n = std::min(chunk.size(), bytes.size() - at);
                same = bool(in.read(chunk.data(), std::streamsize(n))) &&
                       std::memcmp(chunk.data(), bytes.data() + at, n) == 0;
            }
            if (same)
                fs::remove(p, ec);
        }
    } catch (...) {
        // a copy left behind is a leftover, not a reason to lose the decoder's message
    }
}

/// std::cerr while OpenCV decodes: OpenCV 4.6's imdecode writes "imdecode_(''): can't read
/// data: OpenCV(4.6.0) ..." straight to std::cerr (not through its logger) before it returns an
/// empty image, ahead of HistLab's own line. While any thread decodes, std::cerr writes into this
/// buffer, which drops OpenCV's lines and passes every other line on whole, so that another
/// thread's progress or log line is not lost. Counted, so that decodes on several threads share
/// one swap.
class OpenCvLineFilter : public std::streambuf {
public:
    static void enter() {
        std::lock_guard lock(mutex());
        if (users()++ == 0)
            instance().m_original = std::cerr.rdbuf(&instance());
    }
    static void leave() {
        std::lock_guard lock(mutex());
        if (--users() == 0) {
            std::cerr.rdbuf(instance().m_original);
            instance().flushLine();
        }
    }

protected:
    int overflow(int c) override {
        if (c != traits_type::eof()) {
            const char ch = char(c);
            xsputn(&ch, 1);
        }
        return traits_type::not_eof(c);
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        std::lock_guard lock(m_lineMutex);
        for (std::streamsize i = 0; i < n; ++i) {
            m_line += s[i];
            if (s[i] == '\n')
                flushLineLocked();
        }
        return n;
    }
    int sync() override { return 0; }

private:
    static std::mutex& mutex() {
        static std::mutex m;
        return m;
    }
    static int& users() {
        static int n = 0;
        return n;
    }
    static OpenCvLineFilter& instance() {
        static OpenCvLineFilter f;
        return f;
    }
    void flushLine() {
        std::lock_guard lock(m_lineMutex);
        flushLineLocked();
    }
    void flushLineLocked() {
        // OpenCV's message ends in its own newline, then std::endl's: an empty line after it
        // is its too.
        const bool opencv = m_line.rfind("imdecode_(", 0) == 0 || (m_dropping && m_line == "\n");
        m_dropping = opencv;
        if (!m_line.empty() && !opencv && m_original) {
            m_original->sputn(m_line.data(), std::streamsize(m_line.size()));
            m_original->pubsync();
        }
        m_line.clear();
    }
    std::streambuf* m_original = nullptr;
    bool m_dropping = false;
    std::mutex m_lineMutex;
    std::string m_line;
};

/// OpenCV's decoders (WebP, BMP, PFM, Radiance HDR, OpenEXR, JPEG 2000, PAM, Sun raster), after
/// HistLab's limits on the size their headers declare.
io::Decoded decodeWithOpenCv(const std::vector<unsigned char>& bytes, const std::string& path) {
    const std::string format = io::checkOpenCvDeclaredSize(bytes, path);
    // OpenCV's logger printed warnings on files it read well ("[ WARN:0@0.046] ... Image has
    // unknown or unspecified color space, SRGB is assumed" for a bare JPEG 2000 codestream) and
    // several lines of errors before HistLab's one line on a damaged one: silent, unless
    // OPENCV_LOG_LEVEL asks for its words.
    static const bool quiet = [] {
        const char* level = std::getenv("OPENCV_LOG_LEVEL");
        if (!level || !*level)
            cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
        return true;
    }();
    (void)quiet;
    cv::Mat mat;
    try {
        struct Filtered {
            Filtered() { OpenCvLineFilter::enter(); }
            ~Filtered() { OpenCvLineFilter::leave(); }
        } filtered;
        mat = cv::imdecode(bytes, cv::IMREAD_UNCHANGED);
    } catch (const cv::Exception& e) {
        removeOpenCvTemporaryCopies(bytes);
        throw InputError(path + ": cannot be decoded (" + e.err + ")");
    } catch (const std::bad_alloc&) {
        removeOpenCvTemporaryCopies(bytes);
        throw InputError(path + ": cannot be decoded (its declared size does not fit in memory)");
    }
    if (mat.empty()) // its logger is silent: what OpenCV found is not known here
        throw InputError(path + ": " + io::withArticle(format) +
                         " file OpenCV cannot decode (damaged, or a " + "kind of " + format +
                         " it does not read)");
    // what OpenCV made, in case a header said less than it decoded
    io::checkDeclaredSize(path, std::uint64_t(mat.cols), std::uint64_t(mat.rows), mat.channels(),
                          int(mat.elemSize1()));
    io::Decoded d;
    switch (mat.channels()) {
    case 3:
        cv::cvtColor(mat, d.mat, cv::COLOR_BGR2RGB);
        break;
    case 4:
        cv::cvtColor(mat, d.mat, cv::COLOR_BGRA2RGBA);
        break;
    default:
        d.mat = mat;
    }
    return d;
}

/// The OpenCV type of an image's pixels.
int cvTypeOf(const HostImage& image) {
    const int depth = image.depth == 32 ? CV_32F : image.depth == 16 ? CV_16U : CV_8U;
    return CV_MAKETYPE(depth, image.channels);
}

/// A whole number above 0 from the environment variable `name`, else `fallback` (a warning for
/// a value that is not one).
std::uint64_t limitFromEnvironment(const char* name, std::uint64_t fallback) {
    const char* e = std::getenv(name);
    if (!e || !*e)
        return fallback;
    char* end = nullptr;
    const unsigned long long n = std::strtoull(e, &end, 10);
    if (end && *end == '\0' && n > 0 && e[0] != '-')
        return n;
    logWarning("image", std::string(name) + "='" + e +
                            "' is not a whole number above 0: the limit stays " +
                            std::to_string(fallback));
    return fallback;
}

} // namespace

std::uint64_t maxImagePixels() {
    static const std::uint64_t limit =
        limitFromEnvironment("HISTLAB_MAX_IMAGE_PIXELS", std::uint64_t(1) << 30);
    return limit;
}

std::uint64_t maxImageBytes() {
    static const std::uint64_t limit =
        limitFromEnvironment("HISTLAB_MAX_IMAGE_BYTES", syntheticLimitBytes());
    return limit;
}

namespace io {

void checkDeclaredSize(const std::string& path, std::uint64_t width, std::uint64_t height,
                       int channels, int bytesPerChannel) {
    const std::string size = std::to_string(width) + " x " + std::to_string(height) + " pixels";
    // In double, so that an absurd header cannot wrap the product.
    const double pixels = double(width) * double(height);
    if (pixels > double(maxImagePixels()))
        throw InputError(path + ": declares " + size + ", more than the " +
                         std::to_string(maxImagePixels()) +
                         " an image may have (HISTLAB_MAX_IMAGE_PIXELS raises the limit)");
    const double bytes = pixels * channels * bytesPerChannel;
    if (bytes > double(maxImageBytes()))
        throw InputError(
            path + ": declares " + size + " (" + roundedByteSize(std::uint64_t(bytes)) +
            " decoded), more than the " + roundedByteSize(maxImageBytes()) +
            " an image may take (by default a quarter of this machine's " +
            roundedByteSize(hostMemoryBytes()) + "; HISTLAB_MAX_IMAGE_BYTES changes it)");
}

void applyOrientation(cv::Mat& mat, int orientation) {
    switch (orientation) {
    case 2: // mirrored
        cv::flip(mat, mat, 1);
        break;
    case 3: // upside down
        cv::flip(mat, mat, -1);
        break;
    case 4: // mirrored upside down
        cv::flip(mat, mat, 0);
        break;
    case 5: // mirrored and turned: the transpose
        cv::transpose(mat, mat);
        break;
    case 6: // stored turned left: turn right (90 degrees clockwise)
        cv::transpose(mat, mat);
        cv::flip(mat, mat, 1);
        break;
    case 7:
        cv::transpose(mat, mat);
        cv::flip(mat, mat, -1);
        break;
    case 8: // stored turned right: turn left
        cv::transpose(mat, mat);
        cv::flip(mat, mat, 0);
        break;
    default:
        break;
    }
}

} // namespace io

std::string whyNotAnImage(const std::string& path) {
    // A FIFO, socket or device would block the read (or never end): refused by its type,
    // before anything opens it.
    if (std::string why = whyNotARegularFile(path, "an image file"); !why.empty())
        return why;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return "cannot be opened (permission?)";
    if (in.peek() == std::ifstream::traits_type::eof())
        return "file is empty";
    std::vector<unsigned char> head(kSignatureBytes);
    in.read(reinterpret_cast<char*>(head.data()), std::streamsize(head.size()));
    head.resize(std::size_t(in.gcount()));
    return whyRefused(formatOf(head, path));
}

namespace {

/// A decoder's image as the core holds it, checked (depth, channels) and named: "PATH", "PATH,
/// page P of N" or "PATH, frame 1 of N".
HostImage hostImageOf(io::Decoded d, const std::string& path, int page) {
    cv::Mat& mat = d.mat;
    if (mat.depth() == CV_16F) // half floats (OpenEXR) widen exactly
        mat.convertTo(mat, CV_32F);
    const int depth = mat.depth();
    if (depth != CV_8U && depth != CV_16U && depth != CV_32F)
        throw InputError(path + ": channels of type " + cv::typeToString(mat.type()) +
                         " are not supported (8- or 16-bit unsigned, or 32-bit float)");
    if (mat.channels() != 1 && mat.channels() != 3 && mat.channels() != 4)
        throw InputError(path + ": " + std::to_string(mat.channels()) +
                         " channels are not supported (1, 3 or 4)");
    if (!d.note.empty())
        logInfo("image", path + ": " + d.note);
    HostImage img;
    img.width = mat.cols;
    img.height = mat.rows;
    img.channels = mat.channels();
    img.depth = depth == CV_32F ? 32 : depth == CV_16U ? 16 : 8;
    img.pages = d.pages;
    img.source = d.pages > 1
                     ? path + ", page " + std::to_string(page) + " of " + std::to_string(d.pages)
                 : d.frames > 1 ? path + ", frame 1 of " + std::to_string(d.frames)
                                : path;
    const std::size_t rowBytes = std::size_t(img.width) * img.channels * (img.depth / 8);
    if (mat.data == d.storage.data() && mat.isContinuous() &&
        d.storage.size() == rowBytes * std::size_t(img.height)) {
        img.data = std::move(d.storage); // decoded in place: no second copy
        return img;
    }
    img.data.resize(rowBytes * img.height);
    for (int y = 0; y < img.height; ++y)
        std::memcpy(img.data.data() + rowBytes * y, mat.ptr(y), rowBytes);
    return img;
}

/// The pages of a TIFF read one at a time from the file.
class TiffPageReader final : public ImagePageReader {
public:
    explicit TiffPageReader(const std::string& path)
        : m_path(path)
        , m_tiff(path) {}
    int pages() const override { return m_tiff.pages(); }
    HostImage read(int page) override { return hostImageOf(m_tiff.read(page - 1), m_path, page); }

private:
    std::string m_path;
    io::TiffPages m_tiff;
};

/// Any other image: its one page, through loadImage.
class SinglePageReader final : public ImagePageReader {
public:
    explicit SinglePageReader(const std::string& path)
        : m_path(path) {}
    int pages() const override { return 1; }
    HostImage read(int page) override { return loadImage(m_path, page); }

private:
    std::string m_path;
};

} // namespace

HostImage loadImage(const std::string& path, int page, RowSink* sink) {
    if (const std::string why = whyNotARegularFile(path, "an image file"); !why.empty())
        throw InputError(path + ": " + why);
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path + ": cannot be opened (permission?)");
    // A TIFF is read from the file as libtiff asks, so that one page of a stack larger than
    // memory costs that page, not the whole file.
    {
        std::vector<unsigned char> head(kSignatureBytes);
        in.read(reinterpret_cast<char*>(head.data()), std::streamsize(head.size()));
        head.resize(std::size_t(in.gcount()));
        if (!head.empty() && formatOf(head, path) == Format::Tiff)
            return TiffPageReader(path).read(page);
        in.clear();
        in.seekg(0);
    }
    // The file is read whole before decoding: one larger than half the machine's memory would
    // leave too little for its pixels.
    std::error_code ec;
    const std::uint64_t fileBytes = fs::file_size(path, ec);
    if (!ec && fileBytes > hostMemoryBytes() / 2)
        throw InputError(path + ": a file of " + roundedByteSize(fileBytes) +
                         ", more than half of this machine's memory (" +
                         roundedByteSize(hostMemoryBytes()) + ")");
    std::vector<unsigned char> bytes(ec ? 0 : std::size_t(fileBytes));
    in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(bytes.size()));
    bytes.resize(std::size_t(in.gcount()));
    if (in && in.peek() != std::ifstream::traits_type::eof()) // it grew while being read
        bytes.insert(bytes.end(), std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
    return decodeImage(std::move(bytes), path, page, sink);
}

HostImage decodeImage(std::vector<unsigned char> bytes, const std::string& path, int page,
                      RowSink* sink) {
    if (bytes.empty())
        throw InputError(path + ": file is empty");
    const Format format = formatOf(bytes, path);
    if (const std::string why = whyRefused(format); !why.empty())
        throw InputError(path + ": " + why);
    if (page < 1 || (page > 1 && format != Format::Tiff))
        throw UsageError("--page", path + " has 1 page, not a page " + std::to_string(page));
    io::Decoded d;
    switch (format) {
    case Format::Jpeg:
        d = io::decodeJpeg(bytes, path, sink);
        break;
    case Format::Png:
        d = io::decodePng(bytes, path);
        break;
    case Format::Tiff:
        d = io::decodeTiff(bytes, path, page - 1);
        break;
    case Format::Pnm:
        d = io::decodePnm(bytes, path);
        break;
    case Format::Gif:
        d = io::decodeGif(bytes, path);
        break;
    case Format::Ico:
        d = io::decodeIco(bytes, path);
        break;
    case Format::Tga:
        d = io::decodeTga(bytes, path);
        break;
    case Format::OpenCv:
        d = decodeWithOpenCv(bytes, path);
        break;
    case Format::Dicom:
    case Format::Unknown:
        break; // refused above
    }
    bytes = {}; // the file's bytes are not needed beside the image
    return hostImageOf(std::move(d), path, page);
}

std::unique_ptr<ImagePageReader> openImagePageFile(const std::string& path) {
    if (const std::string why = whyNotAnImage(path); !why.empty())
        throw InputError(path + ": " + why);
    std::ifstream in(path, std::ios::binary);
    std::vector<unsigned char> head(kSignatureBytes);
    in.read(reinterpret_cast<char*>(head.data()), std::streamsize(head.size()));
    head.resize(std::size_t(in.gcount()));
    if (formatOf(head, path) == Format::Tiff)
        return std::make_unique<TiffPageReader>(path);
    return std::make_unique<SinglePageReader>(path);
}

namespace {

// A whole factor, where it keeps at least 90 % of the side asked for: OpenCV's area average
// then takes its integer path (each pixel the mean of k x k), about three times as fast as a
// fractional one (a 24-megapixel photo to 2000 x 1333: 17 against 50 ms on the 2-core machine).
// The window's preview waits on this. 0 where there is none.
int wholeFactor(int width, int height, int maxSide) {
    const int longer = std::max(width, height);
    const int k = (longer + maxSide - 1) / maxSide;
    return k >= 2 && longer / k >= maxSide - maxSide / 10 && std::min(width, height) >= k ? k : 0;
}

} // namespace

StreamedDownscale::StreamedDownscale(int maxSide)
    : m_maxSide(maxSide) {}

RowPipe::Consumer StreamedDownscale::consumer() {
    return {[this](const RowsShape& shape) {
                m_shape = shape;
                m_done = m_outRows = 0;
                m_factor = shape.orientation == 1 && m_maxSide >= 1
                               ? wholeFactor(shape.width, shape.height, m_maxSide)
                               : 0;
                m_out = {};
                if (!m_factor)
                    return;
                // The size cv::resize gives the whole image for fx = fy = 1 / k.
                m_out.width = cvRound(shape.width * (1.0 / m_factor));
                m_out.height = cvRound(shape.height * (1.0 / m_factor));
                m_out.channels = shape.channels;
                m_out.data.resize(m_out.byteCount());
            },
            [this](const std::uint8_t* image, int /*first*/, int end) {
                if (!m_factor)
                    return;
                // Whole bands of k rows (the last band whatever is left): each output row is
                // the mean of its own k rows, so band by band is the whole image's result.
                const int k = m_factor;
                const bool last = end == m_shape.height;
                const int limit = last ? end : m_done + (end - m_done) / k * k;
                // What cv::resize makes of this band (the rows it rounds to, as for the whole
                // image). Whole blocks give exactly (limit - m_done) / k; the last band's partial
                // block can round otherwise than the whole image's height where both are a half
                // (cvRound rounds halves to even): then the copy is left to downscaleToFit.
                const int outRows = cvRound((limit - m_done) * (1.0 / k));
                if (outRows > m_out.height - m_outRows ||
                    (last && m_outRows + outRows != m_out.height)) {
                    m_factor = 0;
                    return;
                }
                if (outRows < 1) {
                    if (last)
                        m_done = limit; // rows the whole image's copy leaves out too
                    return;
                }
                const int type = CV_MAKETYPE(CV_8U, m_shape.channels);
                const std::size_t rowBytes = std::size_t(m_shape.width) * m_shape.channels;
                const cv::Mat band(limit - m_done, m_shape.width, type,
                                   const_cast<std::uint8_t*>(image) + rowBytes * m_done);
                cv::Mat dst(outRows, m_out.width, type,
                            m_out.data.data() +
                                std::size_t(m_outRows) * m_out.width * m_out.channels);
                cv::resize(band, dst, cv::Size(), 1.0 / k, 1.0 / k, cv::INTER_AREA);
                m_done = limit;
                m_outRows += outRows;
            }};
}

std::optional<HostImage> StreamedDownscale::take(bool complete, const std::string& source) {
    if (!complete || !m_factor || m_done != m_shape.height || m_outRows != m_out.height)
        return std::nullopt;
    m_factor = 0;
    m_out.source = source;
    return std::move(m_out);
}

void resizeArea8(const std::uint8_t* pixels, int width, int height, std::size_t stride,
                 int channels, std::uint8_t* out, int outWidth, int outHeight,
                 std::size_t outStride) {
    if (channels < 1 || channels > 4 || width < 1 || height < 1 || outWidth < 1 || outHeight < 1)
        throw std::invalid_argument("resizeArea8: empty image or channels outside 1 to 4");
    const int type = CV_MAKETYPE(CV_8U, channels);
    const cv::Mat src(height, width, type, const_cast<std::uint8_t*>(pixels), stride);
    cv::Mat dst(outHeight, outWidth, type, out, outStride);
    cv::resize(src, dst, dst.size(), 0, 0, cv::INTER_AREA);
}

HostImage downscaleToFit(const HostImage& image, int maxSide) {
    validateImage(image);
    const int longer = std::max(image.width, image.height);
    if (longer <= maxSide || maxSide < 1)
        return image;
    HostImage out;
    out.channels = image.channels;
    out.depth = image.depth;
    out.source = image.source;
    const int type = cvTypeOf(image);
    const cv::Mat src(image.height, image.width, type,
                      const_cast<std::uint8_t*>(image.data.data()));
    cv::Mat dst;
    if (const int k = wholeFactor(image.width, image.height, maxSide)) {
        cv::resize(src, dst, cv::Size(), 1.0 / k, 1.0 / k, cv::INTER_AREA);
    } else {
        const double f = double(maxSide) / longer;
        cv::resize(src, dst,
                   cv::Size(std::max(1, int(std::lround(image.width * f))),
                            std::max(1, int(std::lround(image.height * f)))),
                   0, 0, cv::INTER_AREA);
    }
    out.width = dst.cols;
    out.height = dst.rows;
    out.data.resize(dst.total() * dst.elemSize());
    dst.copyTo(cv::Mat(dst.rows, dst.cols, type, out.data.data()));
    return out;
}

void opencvBoxBlur(const HostImage& image, int radius, BorderMode mode, HostImage& out) {
    validateImage(image);
    if (mode == BorderMode::Interior)
        throw UsageError("--compare-opencv", "OpenCV has no interior-only border (use replicate "
                                             "or reflect101)");
    if (out.data.size() != image.data.size())
        out = image;
    if (image.empty())
        return;
    const int type = cvTypeOf(image);
    const cv::Mat src(image.height, image.width, type,
                      const_cast<std::uint8_t*>(image.data.data()));
    cv::Mat dst(image.height, image.width, type, out.data.data());
    cv::blur(src, dst, cv::Size(2 * radius + 1, 2 * radius + 1), cv::Point(-1, -1),
             mode == BorderMode::Replicate ? cv::BORDER_REPLICATE : cv::BORDER_REFLECT_101);
}

void saveImage(const HostImage& image, const std::string& path) {
    validateImage(image);
    const int type = cvTypeOf(image);
    cv::Mat rgb(image.height, image.width, type, const_cast<std::uint8_t*>(image.data.data()));
    const std::string ext = lowercaseExtension(path);
    // PNG through libpng directly: OpenCV's encoder keeps libpng's limit of 1,000,000 pixels a
    // side (an image HistLab loads could not be written) and its printed messages.
    if ((ext.empty() || ext == ".png") && image.depth != 32) {
        writeFileAtomically(path, io::encodePng(rgb, path));
        return;
    }
    cv::Mat bgr;
    if (image.channels == 3)
        cv::cvtColor(rgb, bgr, cv::COLOR_RGB2BGR);
    else if (image.channels == 4)
        cv::cvtColor(rgb, bgr, cv::COLOR_RGBA2BGRA);
    else
        bgr = rgb;
    std::vector<unsigned char> encoded;
    try {
        if (!cv::imencode(ext.empty() ? ".png" : ext, bgr, encoded))
            throw InputError(path + ": OpenCV cannot encode '" + ext + "'");
    } catch (const cv::Exception& e) {
        throw InputError(path + ": cannot encode (" + e.err + ")");
    }
    writeFileAtomically(path, std::string(encoded.begin(), encoded.end()));
}

} // namespace histlab
