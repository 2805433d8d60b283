#pragma once
// What the worker-side jobs share about images: the image the worker loaded last (ImageCache),
// and the small 8-bit copies the GUI thread is given to show (previewOf).
#include <image/image.h>
#include <image/rowsink.h>
#include <io/imageio.h>
#include <runtime/runner.h>

#include <QDateTime>
#include <QImage>
#include <QString>

#include <memory>

namespace histlab::ui {

/// The image the worker loaded last. A request for the same, unchanged file (a region being
/// dragged, the whole image again, a blur or an equalization of the image the window shows)
/// reuses it instead of reading the file again. One image is held at a time. Only the worker
/// thread calls get(); jobs hold it through a shared_ptr copied into their work.
class ImageCache {
public:
    /// The image of `source` (a file path, or a Qt resource path ":/..."), page `page` of a
    /// multi-page TIFF (from 1), loaded if it is not the one held or has changed on disk since.
    /// Throws the loader's InputError, or UsageError("--page") for a page the file lacks.
    /// `sink`, where given, sees the rows of a JPEG being decoded (loadImage); an image already
    /// held is not decoded, and `sink` never called.
    std::shared_ptr<const HostImage> get(const QString& source, int page = 1,
                                         RowSink* sink = nullptr);
    /// get() as a job's first step: says "loading", and stops if the job was cancelled
    /// meanwhile.
    std::shared_ptr<const HostImage> load(JobContext& context, const QString& source, int page = 1,
                                          RowSink* sink = nullptr);
    /// The image of `source` for a job that reads several (the Joint tab's two images and
    /// mask): the one held when it is that file's first page, unchanged, else loaded apart,
    /// leaving the held one (the Image tab's, most likely) in place. Throws the loader's
    /// InputError.
    std::shared_ptr<const HostImage> getAside(const QString& source);

private:
    /// True when the image held is `source`'s page `page` and the file has not changed since.
    bool holds(const QString& source, int page) const;

    QString m_source;
    int m_page = 1;
    QDateTime m_modified;
    qint64 m_bytes = -1;
    std::shared_ptr<const HostImage> m_image;
};

/// An 8-bit QImage of `image` (toDisplay8: the high byte of 16-bit data, floats stretched from
/// their smallest to their largest finite value), smoothly scaled down to at most
/// `maxSide` pixels on its longer side when it is larger. For the worker and other non-GUI
/// threads: the GUI thread only ever gets the modest result.
QImage previewOf(const HostImage& image, int maxSide);

/// `image` shrunk to exactly `size`, averaged over each pixel's area (resizeArea8), as RGB32, or
/// ARGB32_Premultiplied where it has alpha: the format the GUI thread paints without converting.
/// For threads other than the GUI's. It keeps off Qt's global thread pool, unlike
/// QImage::scaled(Qt::SmoothTransformation) and convertToFormat(): Qt 6.4 splits a large scale
/// or conversion onto that pool, and its raster painting on the GUI thread splits its fills
/// onto the same pool and waits for them, so a smooth copy made that way stalled the window
/// (tst_largeimages: 44-355 ms beyond a sleeping thread, with two busy cores beside it).
/// Gray8, RGB32, ARGB32(_Premultiplied) and RGBA8888 (every preview's format) are read
/// directly; other formats are converted by Qt first. Empty for an empty image or size.
QImage smoothScaled(const QImage& image, const QSize& size);

/// previewOf() of a JPEG made while it is decoded: a RowPipe consumer placed after `small`'s,
/// which converts each band of rows `small` has made (as previewOf converts), so that the
/// preview is ready when the decoder is done.
class StreamedPreview {
public:
    explicit StreamedPreview(const StreamedDownscale& small);
    RowPipe::Consumer consumer();
    /// The preview, equal to previewOf() of the decoded image, when every row was seen
    /// (`complete`: RowPipe::complete()) and the copy was made from them; else a null QImage.
    QImage take(bool complete);

private:
    const StreamedDownscale& m_small;
    QImage m_preview;
    int m_rows = 0;
};

} // namespace histlab::ui
