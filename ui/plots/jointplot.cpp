#include "plots/jointplot.h"

#include "common/theme.h"
#include "plots/plotstyle.h"
#include "views/tablecopy.h"

#include <QLocale>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace histlab::ui {

namespace {

/// A marginal's count axis: a few ticks in a small font.
void styleCountAxis(QCPAxis* axis, const QFont& font) {
    axis->setTickLabelFont(font);
    axis->setLabelFont(font);
    axis->setLabel(QObject::tr("pairs"));
    axis->ticker()->setTickCount(3);
    axis->setNumberFormat(QStringLiteral("gb"));
}

double binWidth(const BinSpec& s) {
    return (s.hi - s.lo) / double(std::max(s.bins, 1));
}

/// The bin centres of an axis: where each marginal's step and each cell sit.
QVector<double> binCentres(const BinSpec& s) {
    QVector<double> keys(s.bins);
    for (int i = 0; i < s.bins; ++i)
        keys[i] = s.lo + (i + 0.5) * binWidth(s);
    return keys;
}

void setMarginal(QCPGraph* graph, const BinSpec& spec, const std::vector<std::uint64_t>& counts,
                 QCPAxis* countAxis) {
    QVector<double> values(int(counts.size()));
    double top = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        values[int(i)] = double(counts[i]);
        top = std::max(top, values[int(i)]);
    }
    graph->setData(binCentres(spec), values, true);
    fitFromZero(countAxis, top);
}

QString valueText(double v) {
    return QString::number(v, 'g', 7);
}

} // namespace

JointPlot::JointPlot(QWidget* parent)
    : QCustomPlot(parent)
    , m_mapRect(axisRect())
    , m_topRect(new QCPAxisRect(this))
    , m_rightRect(new QCPAxisRect(this))
    , m_scale(new QCPColorScale(this)) {
    setMinimumSize(360, 320);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setNoAntialiasingOnDrag(true);
    const QFont small(font().family(), 8);

    // The default axis rect becomes the map, in a grid under the title: A's marginal above it,
    // B's to its right, then the colour bar.
    plotLayout()->take(m_mapRect);
    plotLayout()->simplify();
    auto* grid = new QCPLayoutGrid;
    plotLayout()->addElement(0, 0, grid);
    grid->addElement(0, 0, m_topRect);
    grid->addElement(1, 0, m_mapRect);
    grid->addElement(1, 1, m_rightRect);
    grid->addElement(1, 2, m_scale);
    grid->setColumnStretchFactors({5, 1.2, 0.01});
    grid->setRowStretchFactors({1.2, 5});
    grid->setColumnSpacing(2);
    grid->setRowSpacing(2);
    // The marginals' bins line up with the map's: A's left and right edges with the map's,
    // B's (and the colour bar's) top and bottom.
    auto* columns = new QCPMarginGroup(this);
    m_topRect->setMarginGroup(QCP::msLeft | QCP::msRight, columns);
    m_mapRect->setMarginGroup(QCP::msLeft | QCP::msRight, columns);
    auto* rows = new QCPMarginGroup(this);
    m_mapRect->setMarginGroup(QCP::msTop | QCP::msBottom, rows);
    m_rightRect->setMarginGroup(QCP::msTop | QCP::msBottom, rows);
    m_scale->setMarginGroup(QCP::msTop | QCP::msBottom, rows);

    // Only the map drags and zooms; the marginals follow its axes.
    for (QCPAxisRect* marginal : {m_topRect, m_rightRect}) {
        marginal->setRangeDrag(Qt::Orientations());
        marginal->setRangeZoom(Qt::Orientations());
    }
    connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
            m_topRect->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
            m_rightRect->axis(QCPAxis::atLeft), qOverload<const QCPRange&>(&QCPAxis::setRange));
    m_topRect->axis(QCPAxis::atBottom)->setTickLabels(false);
    m_rightRect->axis(QCPAxis::atLeft)->setTickLabels(false);
    styleCountAxis(m_topRect->axis(QCPAxis::atLeft), small);
    styleCountAxis(m_rightRect->axis(QCPAxis::atBottom), small);
    // B's marginal is narrow: its counts stand upright, two of them.
    m_rightRect->axis(QCPAxis::atBottom)->setTickLabelRotation(-90);
    m_rightRect->axis(QCPAxis::atBottom)->ticker()->setTickCount(2);

    m_map = new QCPColorMap(xAxis, yAxis);
    m_map->setInterpolate(false);
    m_map->setTightBoundary(false);
    m_map->setColorScale(m_scale);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(12);
    m_scale->setDataScaleType(QCPAxis::stLogarithmic);
    m_scale->setGradient(viridisGradient());
    QSharedPointer<QCPAxisTickerLog> log10(new QCPAxisTickerLog);
    log10->setLogBase(10);
    m_scale->axis()->setTicker(log10);
    m_scale->axis()->setNumberFormat(QStringLiteral("gb"));
    m_scale->axis()->setTickLabelFont(small);
    m_scale->axis()->setLabelFont(small);
    m_scale->setLabel(tr("pairs per cell (log scale)"));
    m_scale->setRangeDrag(false);
    m_scale->setRangeZoom(false);

    m_marginalA =
        new QCPGraph(m_topRect->axis(QCPAxis::atBottom), m_topRect->axis(QCPAxis::atLeft));
    m_marginalB =
        new QCPGraph(m_rightRect->axis(QCPAxis::atLeft), m_rightRect->axis(QCPAxis::atBottom));
    for (QCPGraph* marginal : {m_marginalA, m_marginalB})
        marginal->setLineStyle(QCPGraph::lsStepCenter);
    // Costes' line and thresholds: on the map's axes, in sample values, clipped to the map.
    const auto mapLine = [this] {
        auto* line = new QCPItemStraightLine(this);
        line->setClipAxisRect(m_mapRect);
        for (QCPItemPosition* p : {line->point1, line->point2})
            p->setAxes(xAxis, yAxis);
        line->setVisible(false);
        return line;
    };
    m_regression = mapLine();
    m_thresholdA = mapLine();
    m_thresholdB = mapLine();
    // Colours that stand out from viridis's purples, greens and yellows.
    m_regression->setPen(QPen(QColor(230, 30, 60), 1.5));
    for (QCPItemStraightLine* t : {m_thresholdA, m_thresholdB})
        t->setPen(QPen(QColor(255, 120, 0), 1.2, Qt::DashLine));
    styleMarginals();
    m_title = addPlotTitle(this, {});
    clearJoint();
}

void JointPlot::setColocalisation(const Colocalisation& c) {
    const bool line = c.computed && !std::isnan(c.slope) && !std::isnan(c.thresholdA);
    m_regression->setVisible(line);
    m_thresholdA->setVisible(line);
    m_thresholdB->setVisible(line);
    if (line) {
        m_regression->point1->setCoords(0, c.intercept);
        m_regression->point2->setCoords(1, c.slope + c.intercept);
        m_thresholdA->point1->setCoords(c.thresholdA, 0);
        m_thresholdA->point2->setCoords(c.thresholdA, 1);
        m_thresholdB->point1->setCoords(0, c.thresholdB);
        m_thresholdB->point2->setCoords(1, c.thresholdB);
    }
    replot(rpQueuedReplot);
}

void JointPlot::clearJoint() {
    m_histogram = {};
    m_spec = {};
    m_map->data()->clear();
    m_marginalA->data()->clear();
    m_marginalB->data()->clear();
    m_map->setDataRange(QCPRange(1, 10));
    xAxis->setLabel(tr("A"));
    yAxis->setLabel(tr("B"));
    xAxis->setRange(0, 256);
    yAxis->setRange(0, 256);
    fitFromZero(m_topRect->axis(QCPAxis::atLeft), 0);
    fitFromZero(m_rightRect->axis(QCPAxis::atBottom), 0);
    m_titleCounts = tr("Joint histogram: run to see it");
    m_titleNote.clear();
    setColocalisation({});
    updateTitle();
    replot(rpQueuedReplot);
}

void JointPlot::setJoint(const JointHistogram& histogram, const JointSpec& spec,
                         const QString& labelA, const QString& labelB) {
    m_histogram = histogram;
    m_spec = spec;
    const int na = spec.a.bins, nb = spec.b.bins;
    const double wa = binWidth(spec.a), wb = binWidth(spec.b);
    QCPColorMapData* data = m_map->data();
    data->setSize(na, nb);
    data->setRange(QCPRange(spec.a.lo + wa / 2, spec.a.hi - wa / 2),
                   QCPRange(spec.b.lo + wb / 2, spec.b.hi - wb / 2));
    double top = 1;
    for (int i = 0; i < na; ++i)
        for (int j = 0; j < nb; ++j) {
            const std::uint64_t c = histogram.counts[std::size_t(i) * std::size_t(nb) + j];
            data->setCell(i, j, c ? double(c) : qQNaN());
            top = std::max(top, double(c));
        }
    // One decade at least, so a table of ones still has a scale to read.
    m_map->setDataRange(QCPRange(1, std::max(top, 10.0)));
    setMarginal(m_marginalA, spec.a, histogram.marginalA(), m_topRect->axis(QCPAxis::atLeft));
    setMarginal(m_marginalB, spec.b, histogram.marginalB(), m_rightRect->axis(QCPAxis::atBottom));
    xAxis->setLabel(labelA);
    yAxis->setLabel(labelB);
    xAxis->setRange(spec.a.lo, spec.a.hi);
    yAxis->setRange(spec.b.lo, spec.b.hi);
    m_titleCounts = tr("Joint histogram: %1 × %2 bins, %3 pairs counted")
                        .arg(na)
                        .arg(nb)
                        .arg(groupedCount(histogram.counted()));
    updateTitle();
    replot(rpQueuedReplot);
}

QString JointPlot::toolTipText(int binA, int binB) const {
    if (!hasJoint() || binA < 0 || binB < 0 || binA >= m_spec.a.bins || binB >= m_spec.b.bins)
        return {};
    const double wa = binWidth(m_spec.a), wb = binWidth(m_spec.b);
    const std::uint64_t count =
        m_histogram.counts[std::size_t(binA) * std::size_t(m_spec.b.bins) + std::size_t(binB)];
    return tr("A bin %1 [%2, %3), B bin %4 [%5, %6): %7 pairs")
        .arg(binA)
        .arg(valueText(m_spec.a.lo + binA * wa), valueText(m_spec.a.lo + (binA + 1) * wa))
        .arg(binB)
        .arg(valueText(m_spec.b.lo + binB * wb), valueText(m_spec.b.lo + (binB + 1) * wb))
        .arg(QLocale().toString(qulonglong(count)));
}

void JointPlot::setTitleNote(const QString& note) {
    m_titleNote = note;
    updateTitle();
    replot(rpQueuedReplot);
}

QString JointPlot::titleText() const {
    return m_title->text();
}

void JointPlot::updateTitle() {
    m_title->setText(m_titleNote.isEmpty() ? m_titleCounts
                                           : m_titleCounts + QLatin1Char('\n') + m_titleNote);
}

void JointPlot::styleMarginals() {
    // The theme's line for marks of no series: dark grey on white, light grey on dark (a fixed
    // dark grey vanished on the dark theme's black).
    const QColor line = plotColors().mark;
    for (QCPGraph* marginal : {m_marginalA, m_marginalB}) {
        marginal->setPen(QPen(line, 1));
        marginal->setBrush(QColor(line.red(), line.green(), line.blue(), 70));
    }
}

void JointPlot::changeEvent(QEvent* event) {
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange ||
        event->type() == QEvent::ApplicationPaletteChange) {
        styleMarginals();
        replot(rpQueuedReplot);
    }
}

void JointPlot::mouseMoveEvent(QMouseEvent* event) {
    QCustomPlot::mouseMoveEvent(event);
    const QPointF pos = event->position();
    QString text;
    if (hasJoint() && m_mapRect->rect().contains(pos.toPoint())) {
        const double a = xAxis->pixelToCoord(pos.x()), b = yAxis->pixelToCoord(pos.y());
        text = toolTipText(int(std::floor((a - m_spec.a.lo) / binWidth(m_spec.a))),
                           int(std::floor((b - m_spec.b.lo) / binWidth(m_spec.b))));
    }
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

} // namespace histlab::ui
