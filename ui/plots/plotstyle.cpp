#include "plots/plotstyle.h"

#include <qcustomplot.h>

#include <runtime/timing.h>

#include <QFontMetrics>
#include <QLocale>
#include <QMouseEvent>
#include <QPointer>

#include <algorithm>
#include <array>
#include <cmath>
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
    placeOverlays(plot);
    // No empty box while nothing is plotted (an empty or starting run): hidden here while it
    // has no entry, shown again at its first entry; a legend its plot hid stays hidden.
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] {
        QCPLegend* legend = plot->legend;
        const char* const kHiddenEmpty = "histlabLegendHiddenEmpty";
        if (legend->visible() && legend->itemCount() == 0) {
            legend->setVisible(false);
            legend->setProperty(kHiddenEmpty, true);
        } else if (legend->itemCount() > 0 && legend->property(kHiddenEmpty).toBool()) {
            legend->setVisible(true);
            legend->setProperty(kHiddenEmpty, false);
        }
    });
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

namespace {

/// Which cells (kCell pixels square) of an axis rect the curves drawn in it cover: a line's
/// pixels, and under a filled graph or a bar everything down to its base.
class Coverage {
public:
    static constexpr int kCell = 4;

    Coverage(QCPAxisRect* rect)
        : m_area(rect->rect())
        , m_columns(std::max(1, (m_area.width() + kCell - 1) / kCell))
        , m_rows(std::max(1, (m_area.height() + kCell - 1) / kCell))
        , m_cells(std::size_t(m_columns) * std::size_t(m_rows), 0) {
        QCustomPlot* plot = rect->parentPlot();
        for (int i = 0; i < plot->plottableCount(); ++i) {
            QCPAbstractPlottable* p = plot->plottable(i);
            if (!p->visible() || !p->keyAxis() || p->keyAxis()->axisRect() != rect ||
                p->keyAxis()->orientation() != Qt::Horizontal)
                continue;
            if (auto* graph = qobject_cast<QCPGraph*>(p))
                addGraph(graph);
            else if (auto* bars = qobject_cast<QCPBars*>(p))
                addBars(bars);
        }
    }

    /// The covered cells whose centres lie in `box`.
    int covered(const QRectF& box) const {
        int n = 0;
        for (int c = 0; c < m_columns; ++c) {
            const double x = m_area.left() + (c + 0.5) * kCell;
            if (x < box.left() || x > box.right())
                continue;
            for (int r = 0; r < m_rows; ++r) {
                const double y = m_area.top() + (r + 0.5) * kCell;
                if (y >= box.top() && y <= box.bottom())
                    n += m_cells[std::size_t(r) * std::size_t(m_columns) + std::size_t(c)];
            }
        }
        return n;
    }

    /// The cells whose centres lie in `box`.
    int cells(const QRectF& box) const {
        const auto count = [](double lo, double hi, int origin, int n) {
            int k = 0;
            for (int i = 0; i < n; ++i)
                if (const double v = origin + (i + 0.5) * kCell; v >= lo && v <= hi)
                    ++k;
            return k;
        };
        return count(box.left(), box.right(), m_area.left(), m_columns) *
               count(box.top(), box.bottom(), m_area.top(), m_rows);
    }

private:
    int column(double x) const {
        return std::clamp(int(std::floor((x - m_area.left()) / kCell)), 0, m_columns - 1);
    }
    int row(double y) const {
        return std::clamp(int(std::floor((y - m_area.top()) / kCell)), 0, m_rows - 1);
    }
    /// A pixel row for a value: off the axis (a zero on a log axis) is its nearer edge.
    double pixelY(const QCPAxis* axis, double value) const {
        const double y = axis->coordToPixel(value);
        if (!std::isfinite(y))
            return value > 0 ? m_area.top() : m_area.bottom();
        return std::clamp(y, double(m_area.top()), double(m_area.bottom()));
    }
    void mark(int c, int r0, int r1) {
        for (int r = std::min(r0, r1); r <= std::max(r0, r1); ++r)
            m_cells[std::size_t(r) * std::size_t(m_columns) + std::size_t(c)] = 1;
    }

    void addGraph(QCPGraph* graph) {
        const QCPAxis* keys = graph->keyAxis();
        const QCPAxis* values = graph->valueAxis();
        const auto data = graph->data();
        if (data->isEmpty())
            return;
        const QCPRange range = keys->range();
        auto it = data->findBegin(range.lower);
        const auto end = data->findEnd(range.upper);
        const bool filled = graph->brush().style() != Qt::NoBrush;
        const bool joined = graph->lineStyle() != QCPGraph::lsNone;
        std::vector<int> top(std::size_t(m_columns), m_rows); // filled: the highest row reached
        bool first = true;
        int lastColumn = 0, lastRow = 0;
        for (; it != end; ++it) {
            if (!std::isfinite(it->value))
                continue;
            const double x = keys->coordToPixel(it->key);
            const int c = column(x), r = row(pixelY(values, it->value));
            if (joined && !first) { // the segment from the last point, column by column
                const int span = std::max(1, std::abs(c - lastColumn));
                for (int k = 0; k <= span; ++k) {
                    const int cc = lastColumn + (c - lastColumn) * k / span;
                    const int r0 = lastRow + (r - lastRow) * k / span;
                    const int r1 = lastRow + (r - lastRow) * std::min(k + 1, span) / span;
                    mark(cc, r0, r1);
                    top[std::size_t(cc)] = std::min({top[std::size_t(cc)], r0, r1});
                }
            } else {
                mark(c, r, r);
                top[std::size_t(c)] = std::min(top[std::size_t(c)], r);
            }
            first = false;
            lastColumn = c;
            lastRow = r;
        }
        if (filled) {
            const int base = row(pixelY(values, values->range().lower));
            for (int c = 0; c < m_columns; ++c)
                if (top[std::size_t(c)] < m_rows)
                    mark(c, top[std::size_t(c)], base);
        }
    }

    void addBars(QCPBars* bars) {
        const QCPAxis* keys = bars->keyAxis();
        const QCPAxis* values = bars->valueAxis();
        const auto data = bars->data();
        const double half = bars->width() / 2;
        const int base = row(pixelY(values, std::max(values->range().lower, 0.0)));
        for (auto it = data->constBegin(); it != data->constEnd(); ++it) {
            if (!std::isfinite(it->value))
                continue;
            const int c0 = column(keys->coordToPixel(it->key - half));
            const int c1 = column(keys->coordToPixel(it->key + half));
            const int r = row(pixelY(values, it->value));
            for (int c = std::min(c0, c1); c <= std::max(c0, c1); ++c)
                mark(c, r, base);
        }
    }

    QRect m_area;
    int m_columns, m_rows;
    std::vector<unsigned char> m_cells;
};

/// A note's box: its text in its font, with its padding.
QSizeF noteSize(const QCPItemText* note) {
    const QRect text =
        QFontMetrics(note->font())
            .boundingRect(QRect(0, 0, 100000, 100000), int(note->textAlignment()), note->text());
    const QMargins p = note->padding();
    return QSizeF(text.width() + p.left() + p.right() + 2,
                  text.height() + p.top() + p.bottom() + 2);
}

/// Places a plot's legend and notes after each layout (placeOverlays).
class OverlayPlacer : public QObject {
public:
    explicit OverlayPlacer(QCustomPlot* plot)
        : QObject(plot)
        , m_plot(plot) {
        setObjectName(QStringLiteral("histlabOverlayPlacer"));
        connect(plot, &QCustomPlot::afterLayout, this, &OverlayPlacer::place);
    }
    void setNotes(QList<QCPItemText*> notes) {
        m_notes.clear();
        for (QCPItemText* note : notes)
            m_notes.append(note);
    }

private:
    // The corners in the order that wins a tie: top right (where a reader looks for a key)
    // first.
    static constexpr std::array<Qt::Alignment::Int, 4> kCorners = {
        Qt::AlignTop | Qt::AlignRight, Qt::AlignTop | Qt::AlignLeft,
        Qt::AlignBottom | Qt::AlignRight, Qt::AlignBottom | Qt::AlignLeft};

    static QRectF inCorner(const QRectF& area, int corner, const QSizeF& size, double depth,
                           double margin) {
        const Qt::Alignment a(kCorners[std::size_t(corner)]);
        const double x =
            a & Qt::AlignRight ? area.right() - margin - size.width() : area.left() + margin;
        const double y = a & Qt::AlignBottom ? area.bottom() - margin - depth - size.height()
                                             : area.top() + margin + depth;
        return {QPointF(x, y), size};
    }

    void place() {
        QCPAxisRect* rect = m_plot->axisRect();
        if (!rect || rect->rect().width() < 16 || rect->rect().height() < 16)
            return;
        const Coverage coverage(rect);
        const QRectF area = rect->rect();
        std::array<double, 4> depth{}; // how far each corner's stack reaches
        QList<QRectF> placed;
        constexpr double kGap = 3;
        QCPLegend* legend = m_plot->legend;
        if (const int index = legendInset(m_plot);
            legend && legend->visible() && legend->itemCount() > 0 && index >= 0) {
            QCPLayoutInset* inset = rect->insetLayout();
            if (inset->insetPlacement(index) == QCPLayoutInset::ipFree) {
                placed.append(legend->outerRect()); // where the user dropped it
            } else {
                const QSizeF size = legend->outerRect().size().isEmpty()
                                        ? QSizeF(legend->minimumOuterSizeHint())
                                        : QSizeF(legend->outerRect().size());
                int best = 0, bestCovered = -1;
                for (int c = 0; c < int(kCorners.size()); ++c) {
                    const int n = coverage.covered(inCorner(area, c, size, 0, 0));
                    if (bestCovered < 0 || n < bestCovered) {
                        best = c;
                        bestCovered = n;
                    }
                }
                if (inset->insetAlignment(index) != Qt::Alignment(kCorners[std::size_t(best)])) {
                    inset->setInsetAlignment(index, Qt::Alignment(kCorners[std::size_t(best)]));
                    inset->update(QCPLayoutElement::upLayout);
                }
                placed.append(legend->outerRect());
                depth[std::size_t(best)] = legend->outerRect().height();
            }
        }
        for (const QPointer<QCPItemText>& note : std::as_const(m_notes)) {
            if (!note || !note->visible() || note->text().isEmpty())
                continue;
            const QSizeF size = noteSize(note);
            int best = -1, bestCovered = 0;
            QRectF bestBox;
            for (int c = 0; c < int(kCorners.size()); ++c) {
                const QRectF box = inCorner(area, c, size, depth[std::size_t(c)], 4);
                if (box.top() < area.top() || box.bottom() > area.bottom())
                    continue;
                if (std::any_of(placed.begin(), placed.end(),
                                [&](const QRectF& other) { return other.intersects(box); }))
                    continue;
                const int n = coverage.covered(box);
                if (best < 0 || n < bestCovered) {
                    best = c;
                    bestCovered = n;
                    bestBox = box;
                }
            }
            if (best < 0) { // no free corner: the shallowest stack, though it overlaps
                best = int(std::min_element(depth.begin(), depth.end()) - depth.begin());
                bestBox = inCorner(area, best, size, depth[std::size_t(best)], 4);
            }
            note->position->setParentAnchor(nullptr);
            note->position->setType(QCPItemPosition::ptAbsolute);
            note->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
            note->position->setCoords(bestBox.topLeft());
            placed.append(bestBox);
            depth[std::size_t(best)] += size.height() + kGap;
        }
    }

    QCustomPlot* m_plot;
    QList<QPointer<QCPItemText>> m_notes;
};

} // namespace

void placeOverlays(QCustomPlot* plot, QList<QCPItemText*> notes) {
    auto* placer = static_cast<OverlayPlacer*>(plot->findChild<QObject*>(
        QStringLiteral("histlabOverlayPlacer"), Qt::FindDirectChildrenOnly));
    if (!placer)
        placer = new OverlayPlacer(plot);
    placer->setNotes(std::move(notes));
}

double coveredShare(QCustomPlot* plot, const QRectF& box) {
    const Coverage coverage(plot->axisRect());
    const int cells = coverage.cells(box);
    return cells > 0 ? double(coverage.covered(box)) / double(cells) : 0.0;
}

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

void spaceTicksByLabelWidth(QCPAxis* axis) {
    QObject::connect(axis->parentPlot(), &QCustomPlot::beforeReplot, axis, [axis] {
        const QFontMetrics metrics(axis->tickLabelFont());
        const QCPRange range = axis->range();
        const QLocale locale = axis->parentPlot()->locale();
        int widest = 0;
        for (double end : {range.lower, range.upper, (range.lower + range.upper) / 2})
            widest = std::max(widest, metrics.horizontalAdvance(locale.toString(
                                          end, 'g', std::max(6, axis->numberPrecision()))));
        constexpr int kGap = 14;
        // The ticker rounds its step to 1, 2, 2.5 or 5 times a power of ten: up to 1.5 times
        // the ticks asked for.
        const double room = 1.5 * double(widest + kGap);
        // The viewport less the axis rect's margins: this replot's width (the axis rect's
        // own is the last layout's, none before the first).
        const QMargins m = axis->axisRect()->margins();
        const int width = axis->parentPlot()->viewport().width() - m.left() - m.right();
        axis->ticker()->setTickCount(std::clamp(int(double(width) / room), 2, 10));
    });
}

void fitFromZero(QCPAxis* axis, double top) {
    axis->setRange(0, top > 0 ? top * 1.15 : 1);
}

void setLevel(QCPGraph* graph, double value, double from, double to) {
    graph->setData(QVector<double>{from, to}, QVector<double>{value, value}, true);
}

} // namespace histlab::ui
