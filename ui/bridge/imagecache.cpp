#include "bridge/imagecache.h"

#include <io/imageio.h>
#include <runtime/errors.h>

#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <QTemporaryFile>

#include <algorithm>
#include <cstring>
#include <utility>

namespace histlab::ui {

namespace {

/// The core's loader takes paths, so a Qt resource (the bundled sample) goes through a
/// temporary file first.
HostImage loadSource(const QString& source, int page, RowSink* sink = nullptr) {
    if (source.startsWith(QLatin1String(":/"))) {
        std::unique_ptr<QTemporaryFile> copy(QTemporaryFile::createNativeFile(source));
        if (!copy)
            throw InputError(source.toStdString() + ": not found in the application's resources");
        HostImage image = loadImage(QFile::encodeName(copy->fileName()).toStdString(), page, sink);
        // Named as the window names it: messages never show the internal ":/..." path.
        image.source = QObject::tr("%1 (bundled)").arg(QFileInfo(source).fileName()).toStdString();
        return image;
    }
    return loadImage(QFile::encodeName(source).toStdString(), page, sink);
}

} // namespace

bool ImageCache::holds(const QString& source, int page) const {
    const QFileInfo info(source);
    return m_image && source == m_source && page == m_page && info.lastModified() == m_modified &&
           info.size() == m_bytes;
}

std::shared_ptr<const HostImage> ImageCache::get(const QString& source, int page, RowSink* sink) {
    if (holds(source, page))
        return m_image;
    const QFileInfo info(source);
    m_image.reset(); // one image in memory at a time
    m_image = std::make_shared<const HostImage>(loadSource(source, page, sink));
    m_source = source;
    m_page = page;
    m_modified = info.lastModified();
    m_bytes = info.size();
    return m_image;
}

std::shared_ptr<const HostImage> ImageCache::load(JobContext& context, const QString& source,
                                                  int page, RowSink* sink) {
    if (!holds(source, page)) // a region of the image held is not loaded again
        context.progress(0.0, "loading");
    std::shared_ptr<const HostImage> image = get(source, page, sink);
    context.throwIfCancelled();
    return image;
}

std::shared_ptr<const HostImage> ImageCache::getAside(const QString& source) {
    if (holds(source, 1))
        return m_image;
    return std::make_shared<const HostImage>(loadSource(source, 1));
}

namespace {

/// The screen image of an 8-bit copy of `channels` channels: colour as RGB32, the format the GUI
/// thread's painting wants, so that showing the preview converts nothing; gray and RGBA as
/// they are.
QImage screenImage(int width, int height, int channels) {
    return QImage(width, height,
                  channels == 1   ? QImage::Format_Grayscale8
                  : channels == 3 ? QImage::Format_RGB32
                                  : QImage::Format_RGBA8888);
}

/// Rows [first, end) of the 8-bit copy `img8` into `out` (screenImage's): RGB to 0xffRRGGBB,
/// gray and RGBA copied.
void toScreenRows(const HostImage& img8, int first, int end, QImage& out) {
    const std::size_t rowBytes = std::size_t(img8.width) * img8.channels;
    for (int y = first; y < end; ++y) {
        const std::uint8_t* from = img8.data.data() + rowBytes * std::size_t(y);
        uchar* to = out.scanLine(y);
        if (img8.channels != 3) {
            std::memcpy(to, from, rowBytes);
            continue;
        }
        auto* line = reinterpret_cast<QRgb*>(to);
        for (int x = 0; x < img8.width; ++x, from += 3)
            line[x] = qRgb(from[0], from[1], from[2]);
    }
}

} // namespace

QImage previewOf(const HostImage& image, int maxSide) {
    // Scaled first (OpenCV's area average, on all cores, straight from the interleaved bytes),
    // then only the small result is converted, here on the worker.
    const HostImage small = downscaleToFit(image, maxSide);
    HostImage converted;
    if (small.depth != 8) // an 8-bit copy is used where it is, not copied again
        converted = toDisplay8(small);
    const HostImage& img8 = small.depth == 8 ? small : converted;
    QImage out = screenImage(img8.width, img8.height, img8.channels);
    toScreenRows(img8, 0, img8.height, out);
    return out;
}

QImage smoothScaled(const QImage& image, const QSize& size) {
    if (image.isNull() || size.isEmpty())
        return {};
    QImage source = image;
    switch (image.format()) {
    case QImage::Format_Grayscale8:
    case QImage::Format_RGB32:
    case QImage::Format_ARGB32_Premultiplied:
        break;
    case QImage::Format_RGBA8888:
    case QImage::Format_ARGB32: {
        // Straight alpha is premultiplied first, so that transparent pixels' colours do not
        // bleed into their neighbours.
        const bool bytes = image.format() == QImage::Format_RGBA8888;
        source = QImage(image.size(), QImage::Format_ARGB32_Premultiplied);
        if (source.isNull())
            return {}; // no memory for the copy
        for (int y = 0; y < image.height(); ++y) {
            const uchar* from = image.constScanLine(y);
            auto* to = reinterpret_cast<QRgb*>(source.scanLine(y));
            for (int x = 0; x < image.width(); ++x, from += 4)
                to[x] = qPremultiply(bytes ? qRgba(from[0], from[1], from[2], from[3])
                                           : reinterpret_cast<const QRgb*>(from)[0]);
        }
        break;
    }
    default: // no preview comes in these
        source = image.convertToFormat(image.hasAlphaChannel() ? QImage::Format_ARGB32_Premultiplied
                                                               : QImage::Format_RGB32);
    }
    const bool gray = source.format() == QImage::Format_Grayscale8;
    QImage scaled(size, source.format());
    if (source.isNull() || scaled.isNull())
        return {};
    resizeArea8(source.constBits(), source.width(), source.height(),
                std::size_t(source.bytesPerLine()), gray ? 1 : 4, scaled.bits(), size.width(),
                size.height(), std::size_t(scaled.bytesPerLine()));
    if (!gray)
        return scaled;
    QImage out(size, QImage::Format_RGB32);
    if (out.isNull())
        return {};
    for (int y = 0; y < size.height(); ++y) {
        const uchar* from = scaled.constScanLine(y);
        auto* to = reinterpret_cast<QRgb*>(out.scanLine(y));
        for (int x = 0; x < size.width(); ++x)
            to[x] = qRgb(from[x], from[x], from[x]);
    }
    return out;
}

StreamedPreview::StreamedPreview(const StreamedDownscale& small)
    : m_small(small) {}

RowPipe::Consumer StreamedPreview::consumer() {
    return {[this](const RowsShape&) {
                const HostImage& made = m_small.made();
                m_rows = 0;
                m_preview = {};
                if (made.width > 0 && made.height > 0)
                    m_preview = screenImage(made.width, made.height, made.channels);
            },
            [this](const std::uint8_t*, int, int) {
                if (m_preview.isNull())
                    return;
                const int end = std::min(m_small.rowsMade(), m_preview.height());
                toScreenRows(m_small.made(), m_rows, end, m_preview);
                m_rows = std::max(m_rows, end);
            }};
}

QImage StreamedPreview::take(bool complete) {
    if (!complete || m_preview.isNull() || m_rows != m_preview.height())
        return {};
    return std::exchange(m_preview, QImage());
}

} // namespace histlab::ui
