#include "views/imageview.h"

#include <QAction>
#include <QApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace histlab::ui {

namespace {

constexpr double kZoomStep = 1.25; // one key press
constexpr double kMaxScale = 64;   // screen pixels per image pixel
// A wheel notch is 120 eighths of a degree; four notches double the scale.
constexpr double kWheelUnitsPerDoubling = 480;

} // namespace

ImageView::ImageView(QWidget* parent)
    : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus); // Esc and Space need the keyboard
    updateCursor();

    auto addViewAction = [this](const QString& text, const QList<QKeySequence>& keys,
                                const QString& tip, void (ImageView::*slot)()) {
        auto* action = new QAction(text, this);
        action->setShortcuts(keys);
        action->setShortcutContext(Qt::WindowShortcut);
        action->setStatusTip(tip);
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
        m_actions << action;
    };
    addViewAction(tr("Zoom &In"),
                  {QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence(Qt::CTRL | Qt::Key_Plus)},
                  tr("Zoom in around the centre (the wheel zooms around the cursor)"),
                  &ImageView::zoomIn);
    addViewAction(tr("Zoom &Out"), {QKeySequence(Qt::CTRL | Qt::Key_Minus)},
                  tr("Zoom out around the centre"), &ImageView::zoomOut);
    addViewAction(tr("&Actual Size"), {QKeySequence(Qt::CTRL | Qt::Key_1)},
                  tr("One image pixel per screen pixel"), &ImageView::actualSize);
    addViewAction(tr("&Fit Image"), {QKeySequence(Qt::CTRL | Qt::Key_0)},
                  tr("The whole image, as large as the view allows"), &ImageView::fitToWindow);
}

void ImageView::setImage(const QImage& preview, const QSize& imageSize) {
    m_image = preview;
    m_imageSize = imageSize.isEmpty() ? preview.size() : imageSize;
    m_pixmap = QPixmap::fromImage(preview);
    m_scaled = {};
    m_region.reset();
    m_drag = Drag::None;
    updateCursor();
    fitToWindow();
}

void ImageView::setPreview(const QImage& preview) {
    m_image = preview;
    m_pixmap = QPixmap::fromImage(preview);
    m_scaled = {};
    update();
}

double ImageView::fitScale() const {
    if (m_imageSize.isEmpty() || width() <= 0 || height() <= 0)
        return 1;
    return std::min(double(width()) / m_imageSize.width(), double(height()) / m_imageSize.height());
}

QPointF ImageView::mapToImage(const QPointF& viewPos) const {
    return (viewPos - m_offset) / m_scale;
}

QPointF ImageView::mapFromImage(const QPointF& imagePos) const {
    return imagePos * m_scale + m_offset;
}

std::optional<QPoint> ImageView::pixelAt(const QPointF& viewPos) const {
    if (m_imageSize.isEmpty())
        return std::nullopt;
    const QPointF p = mapToImage(viewPos);
    const int x = int(std::floor(p.x()));
    const int y = int(std::floor(p.y()));
    if (x < 0 || y < 0 || x >= m_imageSize.width() || y >= m_imageSize.height())
        return std::nullopt;
    return QPoint(x, y);
}

QString ImageView::valueText(const QPoint& pixel) const {
    if (m_image.isNull() || !QRect(QPoint(0, 0), m_imageSize).contains(pixel))
        return {};
    // The preview pixel whose area holds the centre of the image pixel.
    const int px = std::clamp(int((pixel.x() + 0.5) * m_image.width() / m_imageSize.width()), 0,
                              m_image.width() - 1);
    const int py = std::clamp(int((pixel.y() + 0.5) * m_image.height() / m_imageSize.height()), 0,
                              m_image.height() - 1);
    QString text;
    if (m_image.format() == QImage::Format_Grayscale8) {
        text = QStringLiteral("gray %1").arg(m_image.constScanLine(py)[px]);
    } else if (m_image.format() == QImage::Format_Grayscale16) {
        text = QStringLiteral("gray %1").arg(qGray(m_image.pixel(px, py)));
    } else {
        const QColor c = m_image.pixelColor(px, py); // not premultiplied
        text = QStringLiteral("R %1 G %2 B %3").arg(c.red()).arg(c.green()).arg(c.blue());
        if (m_image.hasAlphaChannel())
            text += QStringLiteral(" A %1").arg(c.alpha());
    }
    if (m_image.size() != m_imageSize)
        text += tr(" (downscaled preview)");
    else if (m_sourceDepth > 8)
        text += tr(" (high byte)");
    return text;
}

void ImageView::selectRegion(const Region& region) {
    if (m_imageSize.isEmpty() || region.width <= 0 || region.height <= 0)
        return;
    const QPointF first(region.x, region.y);
    const QPointF last(double(region.x) + region.width - 1, double(region.y) + region.height - 1);
    m_region = regionBetween(first, last);
    update();
    emit regionChanged(*m_region);
}

void ImageView::clearRegion() {
    if (!m_region)
        return;
    m_region.reset();
    update();
    emit regionCleared();
}

void ImageView::zoomIn() {
    zoomBy(kZoomStep, QRectF(rect()).center());
}

void ImageView::zoomOut() {
    zoomBy(1 / kZoomStep, QRectF(rect()).center());
}

void ImageView::actualSize() {
    setScale(1, QRectF(rect()).center());
}

void ImageView::fitToWindow() {
    m_fitted = true;
    m_scale = fitScale();
    clampOffset();
    update();
    emit scaleChanged(m_scale);
}

void ImageView::zoomBy(double factor, const QPointF& viewPos) {
    setScale(m_scale * factor, viewPos);
}

void ImageView::setScale(double scale, const QPointF& viewPos) {
    if (m_imageSize.isEmpty())
        return;
    // Down to a quarter of what fits (or of 1:1 for small images), up to 64 screen pixels.
    const double minScale = std::min(fitScale(), 1.0) / 4;
    scale = std::clamp(scale, minScale, kMaxScale);
    const QPointF anchor = mapToImage(viewPos);
    m_scale = scale;
    m_offset = viewPos - anchor * m_scale;
    m_fitted = false;
    clampOffset();
    update();
    emit scaleChanged(m_scale);
}

void ImageView::clampOffset() {
    auto clampAxis = [](double offset, double extent, double available) {
        if (extent <= available)
            return (available - extent) / 2;
        return std::clamp(offset, available - extent, 0.0);
    };
    m_offset.setX(clampAxis(m_offset.x(), m_imageSize.width() * m_scale, width()));
    m_offset.setY(clampAxis(m_offset.y(), m_imageSize.height() * m_scale, height()));
}

Region ImageView::regionBetween(const QPointF& a, const QPointF& b) const {
    auto pixel = [](double v, int size) { return std::clamp(int(std::floor(v)), 0, size - 1); };
    const int ax = pixel(a.x(), m_imageSize.width()), bx = pixel(b.x(), m_imageSize.width());
    const int ay = pixel(a.y(), m_imageSize.height()), by = pixel(b.y(), m_imageSize.height());
    Region region;
    region.x = std::min(ax, bx);
    region.y = std::min(ay, by);
    region.width = std::abs(ax - bx) + 1;
    region.height = std::abs(ay - by) + 1;
    return region;
}

void ImageView::setRegionAndNotify(const Region& region) {
    const bool same = m_region && m_region->x == region.x && m_region->y == region.y &&
                      m_region->width == region.width && m_region->height == region.height;
    if (same)
        return;
    m_region = region;
    update();
    emit regionChanged(region);
}

void ImageView::reportHover(const QPointF& viewPos) {
    if (const std::optional<QPoint> pixel = pixelAt(viewPos)) {
        m_hovering = true;
        emit hovered(*pixel, valueText(*pixel));
    } else if (m_hovering) {
        m_hovering = false;
        emit hoverLeft();
    }
}

void ImageView::updateCursor() {
    if (m_drag == Drag::Pan)
        setCursor(Qt::ClosedHandCursor);
    else if (m_spaceHeld)
        setCursor(Qt::OpenHandCursor);
    else if (!m_image.isNull())
        setCursor(Qt::CrossCursor);
    else
        unsetCursor();
}

void ImageView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Dark));
    if (m_image.isNull() || m_imageSize.isEmpty())
        return;
    const QRectF imageRect(m_offset, QSizeF(m_imageSize) * m_scale);
    // Preview pixels per image pixel, along each axis (the preview kept the aspect, rounded).
    const double kx = double(m_image.width()) / m_imageSize.width();
    const double ky = double(m_image.height()) / m_imageSize.height();
    if (m_scale / kx < 1) {
        // Shrunk: a smooth (area-averaged) copy at this scale, made once per scale.
        const qreal dpr = devicePixelRatioF();
        const QSize size(std::max(1, qRound(imageRect.width() * dpr)),
                         std::max(1, qRound(imageRect.height() * dpr)));
        if (m_scaled.size() != size)
            m_scaled = QPixmap::fromImage(
                m_image.scaled(size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation));
        painter.drawPixmap(imageRect, m_scaled, QRectF(m_scaled.rect()));
    } else {
        // Magnified: only the visible preview pixels, each a sharp square.
        const QRectF visible =
            QRectF(mapToImage(QPointF(0, 0)), mapToImage(QPointF(width(), height())))
                .intersected(QRectF(QPointF(0, 0), QSizeF(m_imageSize)));
        const QRectF source =
            QRectF(QPointF(std::floor(visible.left() * kx), std::floor(visible.top() * ky)),
                   QPointF(std::ceil(visible.right() * kx), std::ceil(visible.bottom() * ky)))
                .intersected(QRectF(m_image.rect()));
        if (!source.isEmpty()) {
            const QRectF target(mapFromImage(QPointF(source.left() / kx, source.top() / ky)),
                                mapFromImage(QPointF(source.right() / kx, source.bottom() / ky)));
            painter.drawPixmap(target, m_pixmap, source);
        }
    }

    if (m_region) {
        const QRectF r(mapFromImage(QPointF(m_region->x, m_region->y)),
                       mapFromImage(QPointF(double(m_region->x) + m_region->width,
                                            double(m_region->y) + m_region->height)));
        painter.fillRect(r, QColor(255, 255, 255, 40));
        QPen pen(Qt::black, 0); // cosmetic: one screen pixel at any zoom
        painter.setPen(pen);
        painter.drawRect(r);
        pen.setColor(Qt::white);
        pen.setStyle(Qt::DashLine);
        painter.setPen(pen);
        painter.drawRect(r);
    }
}

void ImageView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (m_fitted) {
        fitToWindow();
    } else {
        clampOffset();
        update();
    }
}

void ImageView::wheelEvent(QWheelEvent* event) {
    const QPoint delta = event->angleDelta();
    const int units = delta.y() != 0 ? delta.y() : delta.x();
    if (units == 0 || m_image.isNull()) {
        event->ignore();
        return;
    }
    zoomBy(std::pow(2.0, units / kWheelUnitsPerDoubling), event->position());
    reportHover(event->position());
    event->accept();
}

void ImageView::mousePressEvent(QMouseEvent* event) {
    if (m_image.isNull()) {
        QWidget::mousePressEvent(event);
        return;
    }
    const bool pan =
        event->button() == Qt::MiddleButton || (event->button() == Qt::LeftButton && m_spaceHeld);
    if (pan) {
        m_drag = Drag::Pan;
        m_pressPos = event->position();
        m_pressOffset = m_offset;
        updateCursor();
    } else if (event->button() == Qt::LeftButton) {
        m_drag = Drag::Select;
        m_dragMoved = false;
        m_pressPos = event->position();
        m_pressImagePos = mapToImage(event->position());
    } else {
        QWidget::mousePressEvent(event);
        return;
    }
    event->accept();
}

void ImageView::mouseMoveEvent(QMouseEvent* event) {
    reportHover(event->position());
    if (m_drag == Drag::Pan) {
        m_offset = m_pressOffset + (event->position() - m_pressPos);
        m_fitted = false;
        clampOffset();
        update();
    } else if (m_drag == Drag::Select) {
        if (!m_dragMoved &&
            (event->position() - m_pressPos).manhattanLength() < QApplication::startDragDistance())
            return;
        m_dragMoved = true;
        setRegionAndNotify(regionBetween(m_pressImagePos, mapToImage(event->position())));
    }
    event->accept();
}

void ImageView::mouseReleaseEvent(QMouseEvent* event) {
    const Drag drag = m_drag;
    if (drag == Drag::None) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    if ((drag == Drag::Pan && event->button() != Qt::MiddleButton &&
         event->button() != Qt::LeftButton) ||
        (drag == Drag::Select && event->button() != Qt::LeftButton)) {
        event->accept(); // another button: the drag goes on
        return;
    }
    m_drag = Drag::None;
    if (drag == Drag::Pan) {
        updateCursor();
    } else if (m_dragMoved) {
        // Once more on release, so a listener that waits for the end hears it too.
        m_region = regionBetween(m_pressImagePos, mapToImage(event->position()));
        update();
        emit regionChanged(*m_region);
    } else {
        clearRegion(); // a click
    }
    event->accept();
}

void ImageView::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape) {
        if (m_drag == Drag::Select)
            m_drag = Drag::None;
        clearRegion();
        event->accept();
    } else if (event->key() == Qt::Key_Space) {
        if (!event->isAutoRepeat()) {
            m_spaceHeld = true;
            updateCursor();
        }
        event->accept();
    } else {
        QWidget::keyPressEvent(event);
    }
}

void ImageView::keyReleaseEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Space) {
        if (!event->isAutoRepeat()) {
            m_spaceHeld = false;
            updateCursor();
        }
        event->accept();
    } else {
        QWidget::keyReleaseEvent(event);
    }
}

void ImageView::leaveEvent(QEvent* event) {
    QWidget::leaveEvent(event);
    if (m_hovering) {
        m_hovering = false;
        emit hoverLeft();
    }
}

} // namespace histlab::ui
