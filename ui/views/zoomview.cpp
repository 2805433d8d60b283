#include "views/zoomview.h"

#include "bridge/imagecache.h"

#include <QCoreApplication>
#include <QPainter>
#include <QThread>
#include <QThreadPool>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace histlab::ui {

namespace {

constexpr double kZoomStep = 1.25; // one key press or button click
constexpr double kMaxScale = 64;   // screen pixels per image pixel
// A wheel notch is 120 eighths of a degree; four notches double the scale.
constexpr double kWheelUnitsPerDoubling = 480;

} // namespace

void ZoomView::Layer::set(const QImage& newImage) {
    if (!image.isNull() && newImage.cacheKey() == image.cacheKey())
        return; // the same pixels (the analysis's preview after the early one): pixmaps stay
    image = newImage;
    pixmap = {};
    scaled = {};
    pending = {};
    ++generation;
    wanted->store(0); // nothing asked for the old image is wanted
}

ZoomView::ZoomView(QWidget* parent)
    : QWidget(parent)
    , m_scaler(std::make_unique<QThreadPool>()) {
    m_scaler->setMaxThreadCount(1);
    // SCHED_IDLE on Linux: the smooth copy waits for a free core. A new image's copy is asked
    // for while the worker counts its histograms (on a CPU device, on every core); the bilinear
    // paint shows the image meanwhile.
    m_scaler->setThreadPriority(QThread::IdlePriority);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setMouseTracking(true);
}

// The pool's destructor waits for a copy being made; what it posts to this view is dropped
// with the view.
ZoomView::~ZoomView() = default;

void ZoomView::requestSmoothCopy(Layer& layer, const QSize& size) {
    if (layer.pending == size)
        return;
    layer.pending = size;
    const quint64 request = ++layer.requests;
    layer.wanted->store(request);
    const std::shared_ptr<std::atomic<quint64>> wanted = layer.wanted;
    const QImage image = layer.image; // shared, read-only: QImage is reentrant
    const quint64 generation = layer.generation;
    Layer* target = &layer; // a member of this view: alive as long as the view
    m_scaler->start([this, target, wanted, request, image, generation, size] {
        if (wanted->load() != request)
            return; // asked for before the latest size (a wheel turned several notches)
        // Area-averaged and converted here, so that the GUI thread only wraps it in a pixmap;
        // off Qt's global pool, which the GUI thread's painting waits on (smoothScaled).
        const QImage copy = smoothScaled(image, size);
        QMetaObject::invokeMethod(
            this,
            [this, target, copy, generation, size] {
                if (target->generation != generation || target->pending != size)
                    return; // another image, or another scale asked since
                target->scaled = QPixmap::fromImage(copy);
                target->pending = {};
                update();
            },
            Qt::QueuedConnection);
    });
}

void ZoomView::finishSmoothCopies() {
    m_scaler->waitForDone();
    QCoreApplication::sendPostedEvents(this, QEvent::MetaCall);
    repaint();
}

QRect ZoomView::paneRect(int) const {
    return rect();
}

int ZoomView::paneAt(const QPointF&) const {
    return 0;
}

QPointF ZoomView::mapToImage(const QPointF& viewPos) const {
    const QPointF local = viewPos - QPointF(paneRect(paneAt(viewPos)).topLeft());
    return (local - m_offset) / m_scale;
}

QPointF ZoomView::mapFromImage(const QPointF& imagePos, int pane) const {
    return imagePos * m_scale + m_offset + QPointF(paneRect(pane).topLeft());
}

void ZoomView::setImageSize(const QSize& size) {
    m_imageSize = size;
    fitToWindow();
}

double ZoomView::fitScale() const {
    const QSize pane = paneRect().size();
    if (m_imageSize.isEmpty() || pane.width() <= 0 || pane.height() <= 0)
        return 1;
    return std::min(double(pane.width()) / m_imageSize.width(),
                    double(pane.height()) / m_imageSize.height());
}

void ZoomView::zoomIn() {
    zoomBy(kZoomStep, QRectF(paneRect()).center());
}

void ZoomView::zoomOut() {
    zoomBy(1 / kZoomStep, QRectF(paneRect()).center());
}

void ZoomView::actualSize() {
    setScale(1, QRectF(paneRect()).center());
}

void ZoomView::fitToWindow() {
    m_fitted = true;
    m_scale = fitScale();
    clampOffset();
    update();
    emit scaleChanged(m_scale);
}

void ZoomView::zoomBy(double factor, const QPointF& viewPos) {
    setScale(m_scale * factor, viewPos);
}

void ZoomView::setScale(double scale, const QPointF& viewPos) {
    if (m_imageSize.isEmpty())
        return;
    // Down to a quarter of what fits (or of 1:1 for small images), up to 64 screen pixels.
    const double minScale = std::min(fitScale(), 1.0) / 4;
    scale = std::clamp(scale, minScale, kMaxScale);
    const QPointF local = viewPos - QPointF(paneRect(paneAt(viewPos)).topLeft());
    const QPointF anchor = (local - m_offset) / m_scale;
    m_scale = scale;
    m_offset = local - anchor * m_scale;
    m_fitted = false;
    clampOffset();
    update();
    emit scaleChanged(m_scale);
}

void ZoomView::clampOffset() {
    auto clampAxis = [](double offset, double extent, double available) {
        if (extent <= available)
            return (available - extent) / 2;
        return std::clamp(offset, available - extent, 0.0);
    };
    const QSize pane = paneRect().size();
    m_offset.setX(clampAxis(m_offset.x(), m_imageSize.width() * m_scale, pane.width()));
    m_offset.setY(clampAxis(m_offset.y(), m_imageSize.height() * m_scale, pane.height()));
}

void ZoomView::changePanes(const std::function<void()>& change) {
    const QSizeF before = paneRect().size();
    const QPointF centre = (QPointF(before.width(), before.height()) / 2 - m_offset) / m_scale;
    change();
    if (m_fitted) {
        fitToWindow();
        return;
    }
    const QSizeF after = paneRect().size();
    m_offset = QPointF(after.width(), after.height()) / 2 - centre * m_scale;
    clampOffset();
    update();
}

void ZoomView::startPan(const QPointF& viewPos) {
    m_panFrom = viewPos;
    m_panOffset = m_offset;
}

void ZoomView::panTo(const QPointF& viewPos) {
    m_offset = m_panOffset + (viewPos - m_panFrom);
    m_fitted = false;
    clampOffset();
    update();
}

namespace {

constexpr int kOverviewSide = 150; // the overview's longer side, in widget pixels
constexpr int kOverviewMargin = 8;

} // namespace

QRect ZoomView::overviewRect(const Layer& layer, int pane) const {
    const QRect area = paneRect(pane);
    if (layer.image.isNull() || m_imageSize.isEmpty() ||
        (m_imageSize.width() * m_scale <= area.width() + 0.5 &&
         m_imageSize.height() * m_scale <= area.height() + 0.5) ||
        area.width() < 3 * kOverviewSide || area.height() < 2 * kOverviewSide)
        return {}; // the whole image shows, or the pane is too small to spare the corner
    const QSize size = m_imageSize.scaled(kOverviewSide, kOverviewSide, Qt::KeepAspectRatio)
                           .expandedTo(QSize(8, 8));
    return {area.right() - kOverviewMargin - size.width() + 1,
            area.bottom() - kOverviewMargin - size.height() + 1, size.width(), size.height()};
}

void ZoomView::paintOverview(QPainter& painter, const Layer& layer, int pane) {
    const QRect box = overviewRect(layer, pane);
    if (box.isEmpty())
        return;
    if (m_overview.isNull() || m_overviewGeneration != layer.generation ||
        m_overview.size() != box.size()) {
        // Made once per image; a nearest-pixel shrink is enough for a thumbnail and costs the
        // GUI thread about a millisecond for a 2048-pixel preview.
        m_overview = QPixmap::fromImage(
            layer.image.scaled(box.size(), Qt::IgnoreAspectRatio, Qt::FastTransformation));
        m_overviewGeneration = layer.generation;
    }
    painter.save();
    painter.setOpacity(0.9);
    painter.drawPixmap(box.topLeft(), m_overview);
    painter.setOpacity(1);
    painter.setPen(QPen(QColor(0, 0, 0, 200), 1));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(box.adjusted(-1, -1, 0, 0));
    // The part in view, in the thumbnail's pixels.
    const QRect area = paneRect(pane);
    const QPointF from = mapToImage(QPointF(area.topLeft())),
                  to = mapToImage(QPointF(area.bottomRight()) + QPointF(1, 1));
    const double sx = double(box.width()) / m_imageSize.width(),
                 sy = double(box.height()) / m_imageSize.height();
    const QRectF seen = QRectF(QPointF(std::max(0.0, from.x()) * sx, std::max(0.0, from.y()) * sy),
                               QPointF(std::min<double>(m_imageSize.width(), to.x()) * sx,
                                       std::min<double>(m_imageSize.height(), to.y()) * sy))
                            .translated(box.topLeft());
    painter.setPen(QPen(Qt::white, 2));
    painter.drawRect(seen);
    painter.setPen(QPen(QColor(30, 90, 200), 1));
    painter.drawRect(seen);
    painter.restore();
}

QPointF ZoomView::overviewToImage(const Layer& layer, const QPointF& viewPos, int pane) const {
    const QRect box = overviewRect(layer, pane);
    if (box.isEmpty())
        return {};
    return {(viewPos.x() - box.left()) * m_imageSize.width() / box.width(),
            (viewPos.y() - box.top()) * m_imageSize.height() / box.height()};
}

void ZoomView::centreOn(const QPointF& imagePos) {
    const QSize pane = paneRect().size();
    m_offset = QPointF(pane.width(), pane.height()) / 2 - imagePos * m_scale;
    m_fitted = false;
    clampOffset();
    update();
}

void ZoomView::reportHover(const QPointF& viewPos) {
    if (const std::optional<QPoint> pixel = hoveredPixel(viewPos)) {
        m_hovering = true;
        emit hovered(*pixel, valueText(*pixel));
    } else if (m_hovering) {
        m_hovering = false;
        emit hoverLeft();
    }
}

void ZoomView::paintLayer(QPainter& painter, Layer& layer, const QRect& pane, const QRect& clip) {
    if (layer.image.isNull() || m_imageSize.isEmpty() || clip.isEmpty())
        return;
    painter.save();
    painter.setClipRect(clip);
    const QPointF origin = QPointF(pane.topLeft()) + m_offset;
    const QRectF imageRect(origin, QSizeF(m_imageSize) * m_scale);
    // Preview pixels per image pixel along each axis (the preview kept the aspect, rounded).
    const double kx = double(layer.image.width()) / m_imageSize.width();
    const double ky = double(layer.image.height()) / m_imageSize.height();
    if (m_scale / kx < 1) {
        // Shrunk: a smooth (area-averaged) copy at this scale, made once per scale.
        const qreal dpr = devicePixelRatioF();
        const QSize size(std::max(1, qRound(imageRect.width() * dpr)),
                         std::max(1, qRound(imageRect.height() * dpr)));
        if (layer.scaled.size() == size) {
            painter.drawPixmap(imageRect, layer.scaled, QRectF(layer.scaled.rect()));
        } else {
            requestSmoothCopy(layer, size);
            // Meanwhile bilinear, from the full pixmap (a few milliseconds).
            if (layer.pixmap.isNull())
                layer.pixmap = QPixmap::fromImage(layer.image);
            painter.setRenderHint(QPainter::SmoothPixmapTransform);
            painter.drawPixmap(imageRect, layer.pixmap, QRectF(layer.pixmap.rect()));
        }
    } else {
        // Magnified: only the visible preview pixels, each a sharp square.
        const QRectF visible =
            QRectF((QPointF(clip.topLeft()) - origin) / m_scale,
                   (QPointF(clip.topLeft() + QPoint(clip.width(), clip.height())) - origin) /
                       m_scale)
                .intersected(QRectF(QPointF(0, 0), QSizeF(m_imageSize)));
        const QRectF source =
            QRectF(QPointF(std::floor(visible.left() * kx), std::floor(visible.top() * ky)),
                   QPointF(std::ceil(visible.right() * kx), std::ceil(visible.bottom() * ky)))
                .intersected(QRectF(layer.image.rect()));
        if (layer.pixmap.isNull())
            layer.pixmap = QPixmap::fromImage(layer.image);
        if (!source.isEmpty()) {
            const QRectF target(origin + QPointF(source.left() / kx, source.top() / ky) * m_scale,
                                origin +
                                    QPointF(source.right() / kx, source.bottom() / ky) * m_scale);
            painter.drawPixmap(target, layer.pixmap, source);
        }
    }
    painter.restore();
}

QString ZoomView::pixelValue(const QImage& preview, const QSize& imageSize, const QPoint& pixel) {
    if (preview.isNull() || imageSize.isEmpty())
        return {};
    const int px = std::clamp(int((pixel.x() + 0.5) * preview.width() / imageSize.width()), 0,
                              preview.width() - 1);
    const int py = std::clamp(int((pixel.y() + 0.5) * preview.height() / imageSize.height()), 0,
                              preview.height() - 1);
    if (preview.format() == QImage::Format_Grayscale8)
        return QStringLiteral("gray %1").arg(preview.constScanLine(py)[px]);
    if (preview.format() == QImage::Format_Grayscale16)
        return QStringLiteral("gray %1").arg(qGray(preview.pixel(px, py)));
    const QColor c = preview.pixelColor(px, py); // not premultiplied
    QString text = QStringLiteral("R %1 G %2 B %3").arg(c.red()).arg(c.green()).arg(c.blue());
    if (preview.hasAlphaChannel())
        text += QStringLiteral(" A %1").arg(c.alpha());
    return text;
}

void ZoomView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (m_fitted) {
        fitToWindow();
    } else {
        clampOffset();
        update();
    }
}

void ZoomView::wheelEvent(QWheelEvent* event) {
    const QPoint delta = event->angleDelta();
    const int units = delta.y() != 0 ? delta.y() : delta.x();
    if (units == 0 || m_imageSize.isEmpty()) {
        event->ignore();
        return;
    }
    zoomBy(std::pow(2.0, units / kWheelUnitsPerDoubling), event->position());
    reportHover(event->position());
    event->accept();
}

void ZoomView::leaveEvent(QEvent* event) {
    QWidget::leaveEvent(event);
    if (m_hovering) {
        m_hovering = false;
        emit hoverLeft();
    }
}

void ZoomView::setPlaceholder(const QString& text) {
    m_placeholder = text;
    update();
}

void ZoomView::paintPlaceholder(QPainter& painter, const QRect& area) {
    if (area.isEmpty() || m_placeholder.isEmpty())
        return;
    painter.save();
    painter.setClipRect(area);
    painter.setPen(palette().color(QPalette::BrightText));
    painter.drawText(area.adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap,
                     m_placeholder);
    painter.restore();
}

} // namespace histlab::ui
