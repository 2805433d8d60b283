#pragma once
// Image files through OpenCV (the only part of the core that uses it; built with
// -DHISTLAB_OPENCV=ON). Decoding happens in memory so every failure gets a precise reason.
#include "image/border.h"
#include "image/image.h"
#include "image/rowsink.h"

#include <memory>
#include <optional>
#include <string>

namespace histlab {

/// Loads an image file as 8- or 16-bit unsigned or 32-bit float gray, RGB or RGBA, judged by
/// its first bytes, not its name. JPEG (libjpeg-turbo), PNG (libpng), TIFF (libtiff) and
/// PBM/PGM/PPM are read by HistLab's own use of those libraries; WebP, BMP, PFM, Radiance HDR,
/// OpenEXR (half floats widened), PAM and the rest by OpenCV. Pixels come as a viewer shows
/// them: a JPEG's EXIF orientation and a TIFF's Orientation tag are applied. `page` (from 1)
/// picks a page of a multi-page TIFF; the source then reads "PATH, page P of N", and `pages`
/// is N.
/// Throws InputError naming the file and the reason: missing, not a regular file, empty, not
/// an image, damaged or truncated (judged by what the decoder reports), a declared size beyond
/// checkDeclaredSize's limits (before anything is allocated), an unsupported depth or layout;
/// UsageError("--page") for a page the file does not have.
/// `sink`, where given, sees the rows of an 8-bit JPEG as they are decoded (RowSink); other
/// files never call it.
HostImage loadImage(const std::string& path, int page = 1, RowSink* sink = nullptr);

/// The pages of an image file, read one at a time (the core's openImagePages, as the front
/// ends install it): a TIFF's pages straight from the file, with loadImage's checks on each
/// and only the page being decoded in memory (a stack may be larger than memory); any other
/// image as its one page. InputError naming the file when it is not an image or a TIFF whose
/// pages cannot be counted.
std::unique_ptr<ImagePageReader> openImagePageFile(const std::string& path);

/// loadImage() of a file's bytes already read: `path` names it in messages (and tells a TGA by
/// its extension). What the fuzz target of the loader calls.
HostImage decodeImage(std::vector<unsigned char> bytes, const std::string& path, int page = 1,
                      RowSink* sink = nullptr);

/// The most pixels an image file may declare: HISTLAB_MAX_IMAGE_PIXELS where set (a whole
/// number), else 2^30 = 1,073,741,824 (OpenCV's own default limit).
std::uint64_t maxImagePixels();

/// The most bytes an image may take decoded: HISTLAB_MAX_IMAGE_BYTES where set (a whole
/// number), else a quarter of the machine's memory, as synthetic data (syntheticLimitBytes()),
/// leaving room for a device's copy, results and references.
std::uint64_t maxImageBytes();

/// Why `path` cannot be an image this loader reads, judged from the file system and the file's
/// first bytes only (no decoding, so it is quick enough for a drop or a file list): "" when it
/// looks like one, else the reason in the words loadImage() uses ("no such file", "is a
/// folder, not an image file", "file is empty", "not an image HistLab can read ..."). A file that
/// passes can still fail to decode (damaged or truncated); loadImage() says so then.
std::string whyNotAnImage(const std::string& path);

/// A copy of `image` no larger than maxSide on its longer side (aspect kept), averaged over
/// each output pixel's area (OpenCV's INTER_AREA, on all cores); the image itself when it is
/// already small enough. Where a whole factor k keeps at least 90 % of maxSide, the copy is
/// 1/k of the image (6000 x 4000 to 2048: 2000 x 1333), which is faster. 16-bit stays 16-bit,
/// float stays float.
HostImage downscaleToFit(const HostImage& image, int maxSide);

/// 8-bit interleaved pixels of `channels` channels (1 to 4), `width` x `height` with rows
/// `stride` bytes apart, averaged over each output pixel's area (OpenCV's INTER_AREA, on
/// OpenCV's threads) into exactly `outWidth` x `outHeight` pixels at `out`, rows `outStride`
/// bytes apart. For shrinking; premultiplied alpha averages correctly, straight alpha does not.
void resizeArea8(const std::uint8_t* pixels, int width, int height, std::size_t stride,
                 int channels, std::uint8_t* out, int outWidth, int outHeight,
                 std::size_t outStride);

/// downscaleToFit() of an 8-bit image made band by band from its rows as they are decoded (a
/// RowPipe consumer), where its whole-factor path applies and there is no orientation to apply;
/// result() is then equal to downscaleToFit() of the decoded image.
class StreamedDownscale {
public:
    explicit StreamedDownscale(int maxSide);
    RowPipe::Consumer consumer();
    /// The copy, named `source`, when every row was seen (`complete`: RowPipe::complete())
    /// and it could be made from the rows; else none (then call downscaleToFit()).
    /// Called once: the copy is moved out.
    std::optional<HostImage> take(bool complete, const std::string& source);
    /// The copy as far as it is made: its size, channels and first rowsMade() rows (all of it
    /// zero-sized when it is not made from the rows). For a consumer after this one in the
    /// same RowPipe.
    const HostImage& made() const { return m_out; }
    int rowsMade() const { return m_factor ? m_outRows : 0; }

private:
    int m_maxSide, m_factor = 0, m_done = 0, m_outRows = 0;
    RowsShape m_shape;
    HostImage m_out;
};

/// cv::blur of the image with a (2R + 1)^2 window and the border (replicate or reflect101;
/// UsageError("--compare-opencv") for interior, which OpenCV has not) into `out`, which is
/// made a copy of the image first unless it already has its size (so that a timed call
/// allocates nothing): the baseline HistLab's blur is timed against.
void opencvBoxBlur(const HostImage& image, int radius, BorderMode mode, HostImage& out);

/// Writes an image (PNG, TIFF, ...; a float image only where the format holds floats: TIFF, PFM)
/// through a temporary file and a rename.
void saveImage(const HostImage& image, const std::string& path);

} // namespace histlab
