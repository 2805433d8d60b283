#include "plots/plotstyle.h"

#include <qcustomplot.h>

#include <runtime/timing.h>

#include <QMouseEvent>

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

namespace histlab::ui {

QColor seriesColor(int k) {
    static const std::array<QColor, 5> palette = {QColor(31, 119, 180), QColor(255, 127, 14),
                                                  QColor(44, 160, 44), QColor(214, 39, 40),
                                                  QColor(148, 103, 189)};
    return k >= 0 && k < int(palette.size()) ? palette[std::size_t(k)] : QColor(127, 127, 127);
}

std::pair<double, double> throughputSpread(double value, const TimingStats& stats) {
    // The same bytes over each run's time: the value scales by median / time (each device's
    // input size may differ: it is not needed).
    if (stats.maxMs <= 0 || stats.minMs <= 0)
        return {value, value};
    return {value * stats.medianMs / stats.maxMs, value * stats.medianMs / stats.minMs};
}

QCPColorGradient viridisGradient() {
    QCPColorGradient g;
    g.clearColorStops();
    const QList<QPair<double, QColor>> stops = {
        {0.0, QColor(68, 1, 84)},     {0.13, QColor(71, 44, 122)},  {0.25, QColor(59, 82, 139)},
        {0.38, QColor(44, 113, 142)}, {0.5, QColor(33, 144, 141)},  {0.63, QColor(39, 173, 129)},
        {0.75, QColor(92, 200, 99)},  {0.88, QColor(170, 220, 50)}, {1.0, QColor(253, 231, 37)}};
    for (const auto& [position, color] : stops)
        g.setColorStopAt(position, color);
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setLevelCount(350);
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}

QCPTextElement* addPlotTitle(QCustomPlot* plot, const QString& text, int pointSize) {
    plot->plotLayout()->insertRow(0);
    auto* title =
        new QCPTextElement(plot, text, QFont(plot->font().family(), pointSize, QFont::Bold));
    plot->plotLayout()->addElement(0, 0, title);
    return title;
}

void showSmallLegend(QCustomPlot* plot, std::function<void()> dropped) {
    plot->legend->setVisible(true);
    plot->legend->setFont(QFont(plot->font().family(), 8));
    plot->legend->setBrush(QColor(255, 255, 255, 170)); // the curves show through
    plot->legend->setBorderPen(QPen(QColor(0, 0, 0, 90)));
    makeLegendMovable(plot, std::move(dropped));
}

void fitLegendColumns(QCustomPlot* plot, int most) {
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot, most] {
        QCPLegend* legend = plot->legend;
        int widest = 0;
        for (int i = 0; i < legend->itemCount(); ++i)
            if (const QCPAbstractLegendItem* item = legend->item(i); item && item->visible())
                widest = std::max(widest, item->minimumOuterSizeHint().width());
        if (widest == 0)
            return;
        const QMargins m = legend->margins();
        const int room = plot->width() - m.left() - m.right();
        const int spacing = legend->columnSpacing();
        const int columns = std::clamp((room + spacing) / (widest + spacing), 1, most);
        if (legend->wrap() != columns) {
            legend->setWrap(columns);
            legend->setFillOrder(legend->fillOrder(), true); // the entries laid out again
        }
    });
}

namespace {

/// The legend's index in the axis rect's inset layout, or -1 when it is laid out elsewhere.
int legendInset(QCustomPlot* plot) {
    QCPLayoutInset* inset = plot->axisRect()->insetLayout();
    for (int i = 0; i < inset->elementCount(); ++i)
        if (inset->elementAt(i) == plot->legend)
            return i;
    return -1;
}

/// Drags a plot's legend: watches the plot's mouse events, takes the moves of a drag.
class LegendMover : public QObject {
public:
    LegendMover(QCustomPlot* plot, std::function<void()> dropped)
        : QObject(plot)
        , m_plot(plot)
        , m_dropped(std::move(dropped)) {
        plot->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched != m_plot)
            return false;
        switch (event->type()) {
        case QEvent::MouseButtonPress: {
            const auto* mouse = static_cast<QMouseEvent*>(event);
            m_press.reset();
            QCPLegend* legend = m_plot->legend;
            if (mouse->button() == Qt::LeftButton && legend->visible() &&
                legendInset(m_plot) >= 0 &&
                legend->outerRect().contains(mouse->position().toPoint())) {
                m_press = mouse->position();
                m_start = legend->outerRect().topLeft();
                m_dragged = false;
            }
            return false; // the plot sees the press (a click on an entry)
        }
        case QEvent::MouseMove: {
            const auto* mouse = static_cast<QMouseEvent*>(event);
            if (!m_press || !(mouse->buttons() & Qt::LeftButton))
                return false;
            const QPointF delta = mouse->position() - *m_press;
            if (!m_dragged && delta.manhattanLength() < kDragThreshold)
                return false;
            m_dragged = true;
            moveLegendTo(m_plot, m_start + delta);
            return true; // not a pan of the axes
        }
        case QEvent::MouseButtonRelease: {
            const bool dropped = m_press && m_dragged;
            m_press.reset();
            m_dragged = false;
            if (dropped && m_dropped)
                m_dropped();
            return false; // the plot ends its press (one that moved is no click)
        }
        default:
            return false;
        }
    }

private:
    static constexpr int kDragThreshold = 4; // pixels a press moves before it drags
    QCustomPlot* m_plot;
    std::function<void()> m_dropped;
    std::optional<QPointF> m_press;
    QPointF m_start;
    bool m_dragged = false;
};

} // namespace

void makeLegendMovable(QCustomPlot* plot, std::function<void()> dropped) {
    new LegendMover(plot, std::move(dropped));
}

void moveLegendTo(QCustomPlot* plot, const QPointF& topLeft) {
    const int index = legendInset(plot);
    if (index < 0)
        return;
    // In the inset layout's fractions (its rect: the axis rect less the legend's margin).
    QCPLayoutInset* inset = plot->axisRect()->insetLayout();
    const QRectF area = inset->rect();
    const QSizeF size = plot->legend->outerRect().size();
    const double x =
        std::clamp(topLeft.x(), area.left(), std::max(area.left(), area.right() - size.width()));
    const double y =
        std::clamp(topLeft.y(), area.top(), std::max(area.top(), area.bottom() - size.height()));
    inset->setInsetPlacement(index, QCPLayoutInset::ipFree);
    inset->setInsetRect(index,
                        QRectF((x - area.left()) / area.width(), (y - area.top()) / area.height(),
                               size.width() / area.width(), size.height() / area.height()));
    plot->replot(QCustomPlot::rpQueuedReplot);
}

void fitFromZero(QCPAxis* axis, double top) {
    axis->setRange(0, top > 0 ? top * 1.15 : 1);
}

void setLevel(QCPGraph* graph, double value, double from, double to) {
    graph->setData(QVector<double>{from, to}, QVector<double>{value, value}, true);
}

} // namespace histlab::ui
