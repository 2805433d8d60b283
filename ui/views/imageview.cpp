#include "views/imageview.h"

#include "views/tablecopy.h"

#include <QAction>
#include <QApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace histlab::ui {

ImageView::ImageView(QWidget* parent)
    : ZoomView(parent) {
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
    m_layer.set(preview);
    m_highlight = QImage(); // it marked another image's pixels
    m_region.reset();
    m_drag = Drag::None;
    updateCursor();
    setImageSize(imageSize.isEmpty() ? preview.size() : imageSize);
}

void ImageView::setPreview(const QImage& preview) {
    m_layer.set(preview);
    update();
}

std::optional<QPoint> ImageView::pixelAt(const QPointF& viewPos) const {
    if (imageSize().isEmpty())
        return std::nullopt;
    const QPointF p = mapToImage(viewPos);
    const int x = int(std::floor(p.x()));
    const int y = int(std::floor(p.y()));
    if (x < 0 || y < 0 || x >= imageSize().width() || y >= imageSize().height())
        return std::nullopt;
    return QPoint(x, y);
}

std::optional<QPoint> ImageView::hoveredPixel(const QPointF& viewPos) const {
    return pixelAt(viewPos);
}

QString fileValueText(const HostImage& image, int x, int y) {
    const std::size_t index =
        (std::size_t(y) * std::size_t(image.width) + std::size_t(x)) * std::size_t(image.channels);
    auto sample = [&](int c) -> QString {
        const std::size_t i = index + std::size_t(c);
        if (image.depth == 32) {
            float v;
            std::memcpy(&v, image.data.data() + i * sizeof v, sizeof v);
            std::array<char, 32> text{};
            const auto end = std::to_chars(text.data(), text.data() + text.size(), v).ptr;
            return QString::fromLatin1(text.data(), int(end - text.data()));
        }
        if (image.depth == 16) {
            std::uint16_t v;
            std::memcpy(&v, image.data.data() + i * sizeof v, sizeof v);
            return QString::number(v);
        }
        return QString::number(image.data[i]);
    };
    if (image.channels == 1) {
        // One number: grouped as the statistics are ("30,124"); a float as it reads back.
        if (image.depth == 32)
            return QStringLiteral("value %1").arg(sample(0));
        return QStringLiteral("value %1").arg(groupedCount(sample(0).toULongLong()));
    }
    QStringList values;
    for (int c = 0; c < image.channels; ++c)
        values << sample(c);
    return QStringLiteral("value %1").arg(values.join(QLatin1Char(',')));
}

QString ImageView::valueText(const QPoint& pixel) const {
    const QImage& preview = m_layer.image;
    if (preview.isNull() || !QRect(QPoint(0, 0), imageSize()).contains(pixel))
        return {};
    if (m_pixels && m_pixels->width == imageSize().width() &&
        m_pixels->height == imageSize().height() && m_pixels->data.size() >= m_pixels->byteCount())
        return fileValueText(*m_pixels, pixel.x(), pixel.y());
    QString text = pixelValue(preview, imageSize(), pixel);
    if (preview.size() != imageSize())
        text += tr(" (downscaled preview)");
    else if (m_sourceDepth == 32)
        text += tr(" (display: min to max stretched)");
    else if (m_sourceDepth > 8)
        text += tr(" (high byte)");
    return text;
}

void ImageView::selectRegion(const Region& region) {
    if (imageSize().isEmpty() || region.width <= 0 || region.height <= 0)
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

Region ImageView::regionBetween(const QPointF& a, const QPointF& b) const {
    auto pixel = [](double v, int size) { return std::clamp(int(std::floor(v)), 0, size - 1); };
    const int ax = pixel(a.x(), imageSize().width()), bx = pixel(b.x(), imageSize().width());
    const int ay = pixel(a.y(), imageSize().height()), by = pixel(b.y(), imageSize().height());
    Region region;
    region.x = std::min(ax, bx);
    region.y = std::min(ay, by);
    region.width = std::abs(ax - bx) + 1;
    region.height = std::abs(ay - by) + 1;
    return region;
}

int ImageView::gripAt(const QPointF& viewPos) const {
    if (!m_region)
        return 0;
    const QRectF r(mapFromImage(QPointF(m_region->x, m_region->y)),
                   mapFromImage(QPointF(double(m_region->x) + m_region->width,
                                        double(m_region->y) + m_region->height)));
    constexpr double reach = 5; // screen pixels either side of an edge
    if (!r.adjusted(-reach, -reach, reach, reach).contains(viewPos))
        return 0;
    int grip = 0;
    if (std::abs(viewPos.x() - r.left()) <= reach)
        grip |= kLeft;
    else if (std::abs(viewPos.x() - r.right()) <= reach)
        grip |= kRight;
    if (std::abs(viewPos.y() - r.top()) <= reach)
        grip |= kTop;
    else if (std::abs(viewPos.y() - r.bottom()) <= reach)
        grip |= kBottom;
    return grip ? grip : kInside;
}

Region ImageView::draggedRegion(Drag drag, const QPointF& viewPos) const {
    const Region& r0 = m_pressRegion;
    const QPointF at = mapToImage(viewPos);
    if (drag == Drag::Move) { // the whole region, kept inside the image
        const QPointF d = at - m_pressImagePos;
        Region moved = r0;
        moved.x = std::clamp(r0.x + int(std::lround(d.x())), 0, imageSize().width() - r0.width);
        moved.y = std::clamp(r0.y + int(std::lround(d.y())), 0, imageSize().height() - r0.height);
        return moved;
    }
    // The gripped edges follow the cursor; the others stay (inclusive pixel edges).
    double left = r0.x, top = r0.y;
    double right = r0.x + r0.width - 1, bottom = r0.y + r0.height - 1;
    if (m_grip & kLeft)
        left = at.x();
    if (m_grip & kRight)
        right = at.x();
    if (m_grip & kTop)
        top = at.y();
    if (m_grip & kBottom)
        bottom = at.y();
    return regionBetween(QPointF(left, top), QPointF(right, bottom));
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

void ImageView::updateCursor() {
    if (m_drag == Drag::Pan)
        setCursor(Qt::ClosedHandCursor);
    else if (m_spaceHeld)
        setCursor(Qt::OpenHandCursor);
    else if (!m_layer.image.isNull())
        setCursor(Qt::CrossCursor);
    else
        unsetCursor();
}

QImage highlightValues(const QImage& preview, int depth, const QString& channel, double lo,
                       double hi) {
    if (preview.isNull() || (depth != 8 && depth != 16) || channel == QLatin1String("a"))
        return {};
    // The bytes of the preview that stand for values in [lo, hi).
    // Clamped as doubles first: a float image's range may lie far beyond an int.
    int from = int(std::clamp(std::ceil(lo), -1.0, 65537.0));
    int to = int(std::clamp(std::ceil(hi), -1.0, 65537.0)) - 1;
    if (depth == 16) {
        from = std::max(0, from) >> 8;
        to = std::max(0, to) >> 8;
    }
    from = std::clamp(from, 0, 256);
    to = std::clamp(to, -1, 255);
    std::array<bool, 256> in{};
    for (int v = from; v <= to; ++v)
        in[std::size_t(v)] = true;
    const bool gray = preview.format() == QImage::Format_Grayscale8;
    const QImage source = gray ? preview : preview.convertToFormat(QImage::Format_RGB32);
    QImage mask(source.size(), QImage::Format_ARGB32_Premultiplied);
    const QRgb mark = qPremultiply(qRgba(255, 0, 0, 160));
    const int pick = channel == QLatin1String("r")   ? 0
                     : channel == QLatin1String("g") ? 1
                     : channel == QLatin1String("b") ? 2
                                                     : 3; // gray: the luma
    for (int y = 0; y < source.height(); ++y) {
        auto* out = reinterpret_cast<QRgb*>(mask.scanLine(y));
        if (gray) {
            const uchar* row = source.constScanLine(y);
            for (int x = 0; x < source.width(); ++x)
                out[x] = in[row[x]] ? mark : 0;
            continue;
        }
        const auto* row = reinterpret_cast<const QRgb*>(source.constScanLine(y));
        for (int x = 0; x < source.width(); ++x) {
            const int r = qRed(row[x]), g = qGreen(row[x]), b = qBlue(row[x]);
            const int v = pick == 0   ? r
                          : pick == 1 ? g
                          : pick == 2 ? b
                                      : lumaOf(std::uint8_t(r), std::uint8_t(g), std::uint8_t(b));
            out[x] = in[std::size_t(v)] ? mark : 0;
        }
    }
    return mask;
}

void ImageView::setHighlight(const QImage& mask) {
    m_highlight = mask;
    update();
}

void ImageView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Dark));
    if (m_layer.image.isNull() || imageSize().isEmpty())
        return paintPlaceholder(painter, rect());
    paintLayer(painter, m_layer, rect(), rect());
    if (!m_highlight.isNull()) { // pixel for pixel of the preview
        painter.save();
        // Within the region when there is one: the counts it stands for are the region's.
        if (m_region)
            painter.setClipRect(
                QRectF(mapFromImage(QPointF(m_region->x, m_region->y)),
                       mapFromImage(QPointF(double(m_region->x) + m_region->width,
                                            double(m_region->y) + m_region->height))));
        painter.drawImage(QRectF(mapFromImage(QPointF(0, 0)),
                                 mapFromImage(QPointF(imageSize().width(), imageSize().height()))),
                          m_highlight);
        painter.restore();
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
    paintOverview(painter, m_layer); // last, over the region: where a click pans to
}

void ImageView::mousePressEvent(QMouseEvent* event) {
    if (m_layer.image.isNull()) {
        QWidget::mousePressEvent(event);
        return;
    }
    const bool pan =
        event->button() == Qt::MiddleButton || (event->button() == Qt::LeftButton && m_spaceHeld);
    if (event->button() == Qt::LeftButton &&
        overviewRect(m_layer).contains(event->position().toPoint())) {
        // A press on the overview brings that place to the centre; a drag follows it.
        m_drag = Drag::Overview;
        centreOn(overviewToImage(m_layer, event->position()));
    } else if (pan) {
        m_drag = Drag::Pan;
        startPan(event->position());
        updateCursor();
    } else if (event->button() == Qt::LeftButton) {
        m_grip = gripAt(event->position());
        m_drag = m_grip == kInside ? Drag::Move : m_grip ? Drag::Resize : Drag::Select;
        if (m_region)
            m_pressRegion = *m_region;
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
        panTo(event->position());
    } else if (m_drag == Drag::Overview) {
        centreOn(overviewToImage(m_layer, event->position()));
    } else if (m_drag == Drag::Select || m_drag == Drag::Move || m_drag == Drag::Resize) {
        if (!m_dragMoved &&
            (event->position() - m_pressPos).manhattanLength() < QApplication::startDragDistance())
            return;
        m_dragMoved = true;
        setRegionAndNotify(m_drag == Drag::Select
                               ? regionBetween(m_pressImagePos, mapToImage(event->position()))
                               : draggedRegion(m_drag, event->position()));
    } else if (m_drag == Drag::None && !m_spaceHeld && !m_layer.image.isNull()) {
        // The cursor says what a press would do: move, resize (which way) or select.
        const int grip = gripAt(event->position());
        const bool leftTop = (grip & kLeft) && (grip & kTop),
                   rightBottom = (grip & kRight) && (grip & kBottom);
        if (grip == kInside)
            setCursor(Qt::SizeAllCursor);
        else if (leftTop || rightBottom)
            setCursor(Qt::SizeFDiagCursor);
        else if (((grip & kRight) && (grip & kTop)) || ((grip & kLeft) && (grip & kBottom)))
            setCursor(Qt::SizeBDiagCursor);
        else if (grip & (kLeft | kRight))
            setCursor(Qt::SizeHorCursor);
        else if (grip & (kTop | kBottom))
            setCursor(Qt::SizeVerCursor);
        else
            updateCursor();
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
        (drag != Drag::Pan && event->button() != Qt::LeftButton)) {
        event->accept(); // another button: the drag goes on
        return;
    }
    m_drag = Drag::None;
    if (drag == Drag::Overview) {
        // the view is where the overview put it
    } else if (drag == Drag::Pan) {
        updateCursor();
    } else if (m_dragMoved) {
        // Once more on release, so a listener that waits for the end hears it too.
        m_region = drag == Drag::Select
                       ? regionBetween(m_pressImagePos, mapToImage(event->position()))
                       : draggedRegion(drag, event->position());
        update();
        emit regionChanged(*m_region);
    } else {
        clearRegion(); // a click
    }
    event->accept();
}

void ImageView::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape) {
        if (isSelecting())
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

} // namespace histlab::ui
