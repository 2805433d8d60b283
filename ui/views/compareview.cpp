#include "views/compareview.h"
#include "common/settings.h"

#include <QAction>
#include <QActionGroup>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QSettings>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace histlab::ui {

namespace {

constexpr int kGap = 6;             // between the panes, side by side
constexpr int kSplitGrab = 6;       // how near the split line a press grabs it
constexpr double kSplitStep = 0.05; // Left/Right in split mode (Shift: a fifth of it)

/// The keys this view takes from the window's View menu while it has the focus.
bool isZoomKey(const QKeyEvent& key) {
    const Qt::KeyboardModifiers mods =
        key.modifiers() & ~(Qt::KeypadModifier | Qt::ShiftModifier); // Ctrl++ needs Shift
    if (mods != Qt::ControlModifier)
        return false;
    switch (key.key()) {
    case Qt::Key_0:
    case Qt::Key_1:
    case Qt::Key_Equal:
    case Qt::Key_Plus:
    case Qt::Key_Minus:
        return true;
    default:
        return false;
    }
}

} // namespace

CompareView::CompareView(QWidget* parent)
    : ZoomView(parent)
    , m_sideBySideAction(new QAction(tr("Side by Side"), this))
    , m_splitAction(new QAction(tr("Split"), this)) {
    setFocusPolicy(Qt::StrongFocus); // the zoom keys and Left/Right need the keyboard
    m_labels[0] = tr("Original");
    m_labels[1] = tr("Result");

    auto* modes = new QActionGroup(this);
    modes->setExclusive(true);
    m_sideBySideAction->setCheckable(true);
    m_sideBySideAction->setChecked(true);
    m_sideBySideAction->setToolTip(tr("Original and result next to each other, zoomed and "
                                      "panned together"));
    m_splitAction->setCheckable(true);
    m_splitAction->setToolTip(
        tr("One view: the original left of the line, the result right of it; drag the line"));
    modes->addAction(m_sideBySideAction);
    modes->addAction(m_splitAction);
    connect(m_sideBySideAction, &QAction::triggered, this, [this] { setMode(Mode::SideBySide); });
    connect(m_splitAction, &QAction::triggered, this, [this] { setMode(Mode::Split); });

    auto addZoomAction = [this](const QString& text, const QString& tip,
                                void (CompareView::*slot)()) {
        auto* action = new QAction(text, this);
        action->setToolTip(tip);
        connect(action, &QAction::triggered, this, slot);
        m_zoomActions << action;
    };
    addZoomAction(tr("Fit"), tr("Both images, as large as the view allows (Ctrl+0 in the view)"),
                  &CompareView::fitToWindow);
    addZoomAction(tr("1:1"), tr("One image pixel per screen pixel (Ctrl+1 in the view)"),
                  &CompareView::actualSize);
    addZoomAction(tr("Zoom In"),
                  tr("Zoom in around the centre (Ctrl+=; the wheel zooms around "
                     "the cursor)"),
                  &CompareView::zoomIn);
    addZoomAction(tr("Zoom Out"), tr("Zoom out around the centre (Ctrl+-)"), &CompareView::zoomOut);
}

void CompareView::setImages(const QImage& original, const QImage& result, const QSize& imageSize) {
    m_layers[0].set(original);
    m_layers[1].set(result);
    m_drag = Drag::None;
    setImageSize(!imageSize.isEmpty() ? imageSize
                 : !original.isNull() ? original.size()
                                      : result.size());
}

void CompareView::setResult(const QImage& result) {
    m_layers[1].set(result);
    if (imageSize().isEmpty() && !result.isNull()) {
        setImageSize(result.size());
        return;
    }
    update();
}

void CompareView::setLabels(const QString& original, const QString& result) {
    m_labels[0] = original;
    m_labels[1] = result;
    update();
}

QRect CompareView::paneRect(int pane) const {
    if (m_mode == Mode::Split)
        return rect();
    const int left = std::max(0, (width() - kGap) / 2);
    if (pane == 0)
        return QRect(0, 0, left, height());
    return QRect(left + kGap, 0, std::max(0, width() - left - kGap), height());
}

int CompareView::paneAt(const QPointF& viewPos) const {
    if (m_mode == Mode::Split)
        return 0;
    return viewPos.x() >= paneRect(1).left() ? 1 : 0;
}

int CompareView::splitX() const {
    return qRound(m_split * width());
}

int CompareView::sideAt(const QPointF& viewPos) const {
    if (imageSize().isEmpty())
        return -1;
    const int pane = paneAt(viewPos);
    if (!QRectF(paneRect(pane)).contains(viewPos))
        return -1; // the gap
    const QPointF p = mapToImage(viewPos);
    if (p.x() < 0 || p.y() < 0 || p.x() >= imageSize().width() || p.y() >= imageSize().height())
        return -1;
    if (m_mode == Mode::SideBySide)
        return pane;
    return viewPos.x() < splitX() ? 0 : 1;
}

QString CompareView::valueText(const QPoint& pixel) const {
    if (imageSize().isEmpty() || !QRect(QPoint(0, 0), imageSize()).contains(pixel))
        return {};
    const auto value = [&](const QImage& image) {
        const QString text = pixelValue(image, imageSize(), pixel);
        return text.isEmpty() ? QStringLiteral("—") : text;
    };
    QString text =
        tr("original %1 · result %2").arg(value(m_layers[0].image), value(m_layers[1].image));
    const QImage& shown = m_layers[0].image.isNull() ? m_layers[1].image : m_layers[0].image;
    if (!shown.isNull() && shown.size() != imageSize())
        text += tr(" (downscaled preview)");
    return text;
}

std::optional<QPoint> CompareView::hoveredPixel(const QPointF& viewPos) const {
    if (sideAt(viewPos) < 0)
        return std::nullopt;
    const QPointF p = mapToImage(viewPos);
    return QPoint(int(std::floor(p.x())), int(std::floor(p.y())));
}

void CompareView::setMode(Mode mode) {
    m_sideBySideAction->setChecked(mode == Mode::SideBySide);
    m_splitAction->setChecked(mode == Mode::Split);
    if (mode == m_mode)
        return;
    // The image point at the centre of the pane stays at the centre of the new pane.
    changePanes([this, mode] { m_mode = mode; });
    emit modeChanged(mode);
}

void CompareView::setSplitPosition(double fraction) {
    fraction = std::clamp(fraction, 0.0, 1.0);
    if (fraction == m_split)
        return;
    m_split = fraction;
    update();
    emit splitPositionChanged(fraction);
}

bool CompareView::nearSplit(const QPointF& viewPos) const {
    return m_mode == Mode::Split && std::abs(viewPos.x() - splitX()) <= kSplitGrab;
}

void CompareView::paintLabel(QPainter& painter, const QString& text, const QRect& pane,
                             bool right) {
    if (text.isEmpty() || pane.width() < 40)
        return;
    painter.save();
    QFont font = painter.font();
    font.setBold(true);
    painter.setFont(font);
    const QFontMetrics metrics(font);
    const QString shown = metrics.elidedText(text, Qt::ElideRight, pane.width() - 24);
    QRect box = metrics.boundingRect(shown).adjusted(-6, -3, 6, 3);
    box.moveTop(pane.top() + 6);
    if (right)
        box.moveRight(pane.right() - 6);
    else
        box.moveLeft(pane.left() + 6);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(0, 0, 0, 160));
    painter.drawRoundedRect(box, 4, 4);
    painter.setPen(Qt::white);
    painter.drawText(box, Qt::AlignCenter, shown);
    painter.restore();
}

void CompareView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Dark));
    if (m_mode == Mode::SideBySide) {
        const QRect left = paneRect(0), right = paneRect(1);
        painter.fillRect(QRect(left.right() + 1, 0, kGap, height()),
                         palette().color(QPalette::Window));
        paintLayer(painter, m_layers[0], left, left);
        if (m_layers[1].image.isNull())
            paintPlaceholder(painter, right);
        else
            paintLayer(painter, m_layers[1], right, right);
        paintLabel(painter, m_labels[0], left, false);
        paintLabel(painter, m_labels[1], right, false);
        return;
    }
    const QRect pane = paneRect(0);
    const int x = splitX();
    const QRect leftPart(0, 0, x, height()), rightPart(x, 0, width() - x, height());
    paintLayer(painter, m_layers[0], pane, leftPart);
    if (m_layers[1].image.isNull())
        paintPlaceholder(painter, rightPart);
    else
        paintLayer(painter, m_layers[1], pane, rightPart);
    paintLabel(painter, m_labels[0], pane, false);
    paintLabel(painter, m_labels[1], pane, true);
    // The line: white with a dark edge, so it shows on any image; a round handle in the middle.
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(QColor(0, 0, 0, 160), 3));
    painter.drawLine(QPointF(x, 0), QPointF(x, height()));
    painter.setPen(QPen(Qt::white, 1));
    painter.drawLine(QPointF(x, 0), QPointF(x, height()));
    const QPointF centre(x, height() / 2.0);
    painter.setBrush(QColor(0, 0, 0, 160));
    painter.setPen(QPen(Qt::white, 1.5));
    painter.drawEllipse(centre, 11, 11);
    painter.setBrush(Qt::white);
    painter.setPen(Qt::NoPen);
    for (const double side : {-1.0, 1.0}) {
        QPainterPath arrow;
        arrow.moveTo(centre + QPointF(side * 7, 0));
        arrow.lineTo(centre + QPointF(side * 3, -4));
        arrow.lineTo(centre + QPointF(side * 3, 4));
        arrow.closeSubpath();
        painter.drawPath(arrow);
    }
}

bool CompareView::event(QEvent* event) {
    // The window's View menu has the same keys for the Image tab's view: while this view has
    // the focus they are this view's.
    if (event->type() == QEvent::ShortcutOverride && isZoomKey(*static_cast<QKeyEvent*>(event))) {
        event->accept();
        return true;
    }
    return QWidget::event(event);
}

void CompareView::keyPressEvent(QKeyEvent* event) {
    if (isZoomKey(*event)) {
        switch (event->key()) {
        case Qt::Key_0:
            fitToWindow();
            break;
        case Qt::Key_1:
            actualSize();
            break;
        case Qt::Key_Minus:
            zoomOut();
            break;
        default:
            zoomIn();
            break;
        }
        event->accept();
        return;
    }
    if (m_mode == Mode::Split && (event->key() == Qt::Key_Left || event->key() == Qt::Key_Right)) {
        const double step = event->modifiers() & Qt::ShiftModifier ? kSplitStep / 5 : kSplitStep;
        setSplitPosition(m_split + (event->key() == Qt::Key_Left ? -step : step));
        event->accept();
        return;
    }
    QWidget::keyPressEvent(event);
}

void CompareView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && nearSplit(event->position())) {
        m_drag = Drag::Split;
    } else if ((event->button() == Qt::LeftButton || event->button() == Qt::MiddleButton) &&
               !imageSize().isEmpty()) {
        m_drag = Drag::Pan;
        startPan(event->position());
    } else {
        QWidget::mousePressEvent(event);
        return;
    }
    updateCursor(event->position());
    event->accept();
}

void CompareView::mouseMoveEvent(QMouseEvent* event) {
    if (m_drag == Drag::Split) {
        setSplitPosition(width() > 0 ? event->position().x() / width() : 0.5);
    } else if (m_drag == Drag::Pan) {
        panTo(event->position());
    }
    reportHover(event->position());
    updateCursor(event->position());
    event->accept();
}

void CompareView::mouseReleaseEvent(QMouseEvent* event) {
    if (m_drag == Drag::None) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    m_drag = Drag::None;
    updateCursor(event->position());
    event->accept();
}

void CompareView::updateCursor(const QPointF& viewPos) {
    if (m_drag == Drag::Split || (m_drag == Drag::None && nearSplit(viewPos)))
        setCursor(Qt::SplitHCursor);
    else if (m_drag == Drag::Pan)
        setCursor(Qt::ClosedHandCursor);
    else if (!imageSize().isEmpty())
        setCursor(Qt::OpenHandCursor);
    else
        unsetCursor();
}

void CompareView::rememberModeIn(const QString& key) {
    QSettings settings = histlabSettings();
    setMode(settings.value(key).toString() == QStringLiteral("split") ? Mode::Split
                                                                      : Mode::SideBySide);
    connect(this, &CompareView::modeChanged, this, [key](Mode mode) {
        histlabSettings().setValue(key, mode == Mode::Split ? QStringLiteral("split")
                                                            : QStringLiteral("sideBySide"));
    });
}

void CompareView::showHoverIn(QLabel* label) {
    connect(this, &CompareView::hovered, label, [label](QPoint pixel, const QString& text) {
        label->setText(tr("x %1, y %2: %3").arg(pixel.x()).arg(pixel.y()).arg(text));
    });
    connect(this, &CompareView::hoverLeft, label, &QLabel::clear);
}

} // namespace histlab::ui
