#include "bridge/imagecache.h"

#include <io/imageio.h>
#include <runtime/errors.h>

#include <QFile>
#include <QFileInfo>
#include <QTemporaryFile>

namespace histlab::ui {

namespace {

/// The core's loader takes paths, so a Qt resource (the bundled sample) goes through a
/// temporary file first.
HostImage loadSource(const QString& source, int page) {
    if (source.startsWith(QLatin1String(":/"))) {
        std::unique_ptr<QTemporaryFile> copy(QTemporaryFile::createNativeFile(source));
        if (!copy)
            throw InputError(source.toStdString() + ": not found in the application's resources");
        HostImage image = loadImage(QFile::encodeName(copy->fileName()).toStdString(), page);
        image.source = source.toStdString();
        return image;
    }
    return loadImage(QFile::encodeName(source).toStdString(), page);
}

} // namespace

bool ImageCache::holds(const QString& source, int page) const {
    const QFileInfo info(source);
    return m_image && source == m_source && page == m_page && info.lastModified() == m_modified &&
           info.size() == m_bytes;
}

std::shared_ptr<const HostImage> ImageCache::get(const QString& source, int page) {
    if (holds(source, page))
        return m_image;
    const QFileInfo info(source);
    m_image.reset(); // one image in memory at a time
    m_image = std::make_shared<const HostImage>(loadSource(source, page));
    m_source = source;
    m_page = page;
    m_modified = info.lastModified();
    m_bytes = info.size();
    return m_image;
}

std::shared_ptr<const HostImage> ImageCache::load(JobContext& context, const QString& source,
                                                  int page) {
    context.progress(0.0, "loading");
    std::shared_ptr<const HostImage> image = get(source, page);
    context.throwIfCancelled();
    return image;
}

std::shared_ptr<const HostImage> ImageCache::getAside(const QString& source) {
    if (holds(source, 1))
        return m_image;
    return std::make_shared<const HostImage>(loadSource(source, 1));
}

QImage previewOf(const HostImage& image, int maxSide) {
    // Scaled first (OpenCV's area average, on all cores, straight from the interleaved bytes),
    // then only the small result is converted.
    const HostImage small = downscaleToFit(image, maxSide);
    const HostImage img8 = toDisplay8(small);
    const QImage::Format format = img8.channels == 1   ? QImage::Format_Grayscale8
                                  : img8.channels == 3 ? QImage::Format_RGB888
                                                       : QImage::Format_RGBA8888;
    const QImage view(img8.data.data(), img8.width, img8.height,
                      qsizetype(img8.width) * img8.channels, format);
    // The view borrows img8's pixels. Colour becomes RGB32 here, on the worker: the format the
    // GUI thread's painting wants, so showing the preview converts nothing (the same values).
    return img8.channels == 3 ? view.convertToFormat(QImage::Format_RGB32) : view.copy();
}

} // namespace histlab::ui
