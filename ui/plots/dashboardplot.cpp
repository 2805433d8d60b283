#include "plots/dashboardplot.h"
#include "common/theme.h"
#include "plots/plotstyle.h"

#include "plots/experimentplot.h" // paletteColor

#include <QMouseEvent>
#include <QToolTip>

#include <algorithm>

namespace histlab::ui {

namespace {

QString gbpsText(double gbps) {
    return QString::number(gbps, 'f', gbps >= 100 ? 0 : gbps >= 10 ? 1 : 2);
}

/// The slowest and fastest runs of `r` in the unit of `value` (its GB/s or its % of the
/// ceiling): the bytes over each run's time. (Every row stands at its median.)
std::pair<double, double> spreadOf(const DashboardResult& r, double value) {
    if (r.gbps <= 0 || r.bytes == 0 || r.stats.minMs <= 0 || r.stats.maxMs <= 0)
        return {value, value};
    const double scale = value / r.gbps;
    return {gbPerSecond(r.bytes, r.stats.maxMs) * scale,
            gbPerSecond(r.bytes, r.stats.minMs) * scale};
}

/// The result of `run` with this device slot and pipeline, or nullptr.
const DashboardResult* resultOf(const DashboardRun& run, int slot, const std::string& pipeline) {
    const DashboardResult* found = nullptr;
    for (const DashboardResult& r : run.results)
        if (r.device == slot && r.pipeline == pipeline)
            found = &r; // the last, as the bars show it
    return found;
}

QString describe(const DashboardRun& run, const DashboardResult& r, const QString& what) {
    const DashboardDevice& d = run.devices.at(std::size_t(r.device));
    const auto [slow, fast] = spreadOf(r, r.gbps);
    return QObject::tr("%1%2\n%3 on %4\n%5 GB/s (runs from %6 to %7), %8 % of %9 (%10 GB/s%14)\n"
                       "median %11 ms, %12 run(s), %13")
        .arg(QString::fromStdString(r.pipeline), what, QString::fromStdString(r.variant),
             QString::fromStdString(d.info.name), gbpsText(r.gbps), gbpsText(slow), gbpsText(fast))
        .arg(QString::fromStdString(dashboardPercentText(r)))
        .arg(QString::fromStdString(r.ceilingKind), gbpsText(r.ceilingGbps))
        .arg(r.stats.medianMs, 0, 'g', 4)
        .arg(r.stats.samplesMs.size())
        .arg(QString::fromLatin1(statusName(r.status)))
        .arg(r.ceilingKernel.empty()
                 ? QString()
                 : QStringLiteral(", ") + QString::fromStdString(r.ceilingKernel));
}

} // namespace

DashboardPlot::DashboardPlot(QWidget* parent)
    : QCustomPlot(parent)
    , m_group(new QCPBarsGroup(this)) {
    setMinimumSize(360, 260);
    setMouseTracking(true);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Vertical);
    axisRect()->setRangeZoom(Qt::Vertical);
    setNoAntialiasingOnDrag(true);
    showSmallLegend(this); // translucent, movable, where it covers least
    plotLayout()->insertRow(0);
    m_title = new QCPTextElement(this, tr("Dashboard"), QFont(font().family(), 10, QFont::Bold));
    plotLayout()->addElement(0, 0, m_title);
    m_group->setSpacingType(QCPBarsGroup::stAbsolute);
    m_group->setSpacing(1);
    // Pipeline names slanted where there is room, upright where the bars are narrow (at a
    // 1200-pixel window fourteen slanted names overlapped).
    connect(this, &QCustomPlot::beforeReplot, this, [this] {
        // The plot's width less the axis rect's margins: this replot's width, nearly.
        const QMargins m = axisRect()->margins();
        const double perName = double(width() - m.left() - m.right()) /
                               double(std::max<std::size_t>(1, m_run.pipelines.size()));
        xAxis->setTickLabelRotation(perName < 60 ? -90 : -20);
    });
    xAxis->grid()->setVisible(false);
    rebuild();
}

double DashboardPlot::keyOf(const std::string& pipeline) const {
    const auto it = std::find(m_run.pipelines.begin(), m_run.pipelines.end(), pipeline);
    return it == m_run.pipelines.end() ? 0.0 : double(it - m_run.pipelines.begin() + 1);
}

double DashboardPlot::valueOf(const DashboardResult& r) const {
    return m_measure == Measure::Gbps ? r.gbps : r.percentOfCeiling;
}

void DashboardPlot::reset(const DashboardRun& plan) {
    m_run = plan;
    m_run.results.clear();
    rebuild();
}

void DashboardPlot::showRun(const DashboardRun& run) {
    m_run = run;
    rebuild();
}

void DashboardPlot::addResult(const DashboardResult& result) {
    if (result.device < 0 || std::size_t(result.device) >= m_bars.size())
        return;
    m_run.results.push_back(result);
    fillBars(result.device);
    fitAxes();
    replot(rpQueuedReplot);
}

void DashboardPlot::setBaseline(const std::optional<DashboardRun>& run) {
    m_baseline = run;
    rebuild();
}

void DashboardPlot::setMeasure(Measure measure) {
    if (measure == m_measure)
        return;
    m_measure = measure;
    rebuild();
}

void DashboardPlot::rebuild() {
    clearPlottables(); // the bars leave the group as they go
    m_bars.clear();
    m_spreads.clear();
    m_baselineBars.clear();
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (std::size_t i = 0; i < m_run.pipelines.size(); ++i)
        ticker->addTick(double(i + 1), QString::fromStdString(m_run.pipelines[i]));
    xAxis->setTicker(ticker);
    xAxis->setLabel(tr("pipeline"));
    yAxis->setLabel(m_measure == Measure::Gbps
                        ? tr("GB/s (the bytes each pipeline counts / median kernel time)")
                        : tr("% of the ceiling measured in the same run (read-only or copy)"));
    const std::size_t series = m_run.devices.size() * (m_baseline ? 2 : 1);
    const double width = 0.8 / double(std::max<std::size_t>(1, series));
    for (std::size_t slot = 0; slot < m_run.devices.size(); ++slot) {
        const QColor color = paletteColor(int(slot));
        const QString name = QString::fromStdString(m_run.devices[slot].info.name);
        auto* bars = new QCPBars(xAxis, yAxis);
        bars->setName(name);
        bars->setPen(QPen(color.darker(120)));
        bars->setBrush(color);
        bars->setWidth(width);
        bars->setBarsGroup(m_group);
        m_bars.push_back(bars);
        // How noisy each figure is: two runs minutes apart differed by more than their bars.
        auto* spread = new QCPErrorBars(xAxis, yAxis);
        spread->setDataPlottable(bars);
        // In the theme's colour for marks, not the bar's: a darker navy vanished on dark.
        spread->setPen(QPen(plotColors().mark, 1.2));
        spread->setWhiskerWidth(6);
        spread->removeFromLegend();
        spread->setName(tr("%1: slowest to fastest run").arg(name));
        m_spreads.push_back(spread);
        if (m_baseline) {
            auto* base = new QCPBars(xAxis, yAxis);
            base->setName(tr("%1 (baseline)").arg(name));
            base->setPen(QPen(color));
            base->setBrush(QBrush(color.lighter(150), Qt::BDiagPattern));
            base->setWidth(width);
            base->setBarsGroup(m_group);
            m_baselineBars.push_back(base);
        }
        fillBars(int(slot));
    }
    updateTitle();
    fitAxes();
    replot(rpQueuedReplot);
}

void DashboardPlot::fillBars(int slot) {
    QVector<double> keys, values, below, above;
    for (const std::string& p : m_run.pipelines)
        if (const DashboardResult* r = resultOf(m_run, slot, p); r && r->ran()) {
            keys << keyOf(p);
            values << valueOf(*r);
            const auto [slow, fast] = spreadOf(*r, values.back());
            below << std::max(0.0, values.back() - slow);
            above << std::max(0.0, fast - values.back());
        }
    m_bars[std::size_t(slot)]->setData(keys, values, true);
    m_spreads[std::size_t(slot)]->setData(below, above);
    if (!m_baseline)
        return;
    keys.clear();
    values.clear();
    DashboardResult probe; // what findBaselineResult matches on: the device and the pipeline
    probe.device = slot;
    for (const std::string& p : m_run.pipelines) {
        probe.pipeline = p;
        if (const DashboardResult* b = findBaselineResult(*m_baseline, m_run, probe);
            b && b->ran()) {
            keys << keyOf(p);
            values << valueOf(*b);
        }
    }
    m_baselineBars[std::size_t(slot)]->setData(keys, values, true);
}

void DashboardPlot::fitAxes() {
    xAxis->setRange(0.4, double(std::max<std::size_t>(1, m_run.pipelines.size())) + 0.6);
    double top = 0;
    for (const std::vector<QCPBars*>* set : {&m_bars, &m_baselineBars})
        for (const QCPBars* bars : *set)
            for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
                top = std::max(top, it->value);
    for (std::size_t slot = 0; slot < m_spreads.size(); ++slot) // the fastest runs in view
        for (int i = 0; i < m_spreads[slot]->dataCount(); ++i)
            top = std::max(top, (m_bars[slot]->data()->constBegin() + i)->value +
                                    m_spreads[slot]->data()->at(i).errorPlus);
    if (m_measure == Measure::PercentOfCeiling)
        top = std::max(top, 100.0); // the ceiling itself in view
    yAxis->setRange(0, top > 0 ? top * 1.12 : 1.0);
}

void DashboardPlot::updateTitle() {
    QString title = m_measure == Measure::Gbps ? tr("GB/s per pipeline and device")
                                               : tr("% of each device's own ceiling");
    if (!m_run.date.empty()) // to the minute: the title must fit a narrow plot (UTC, in the files)
        title +=
            QStringLiteral(" · ") +
            QString::fromStdString(m_run.date).left(16).replace(QLatin1Char('T'), QLatin1Char(' '));
    if (m_baseline)
        title += tr(" · hatched: baseline of %1").arg(QString::fromStdString(m_baseline->date));
    // Each device's one ceiling of the run, which every % is of (once the device is done).
    QStringList ceilings;
    for (const DashboardDevice& d : m_run.devices)
        if (d.readCeiling.gbps > 0)
            ceilings << (m_run.devices.size() > 1
                             ? QString::fromStdString(d.info.name).left(24) + QStringLiteral(" ")
                             : QString()) +
                            tr("read-only %1, copy %2 GB/s")
                                .arg(gbpsText(d.readCeiling.gbps), gbpsText(d.copyCeiling.gbps));
    if (!ceilings.isEmpty())
        title += QLatin1Char('\n') + tr("ceilings: ") + ceilings.join(QStringLiteral("; ")) +
                 QLatin1Char('\n') + tr("(medians, timed run for run with the pipelines)");
    m_title->setText(title);
}

QString DashboardPlot::titleText() const {
    return m_title->text();
}

int DashboardPlot::barCount() const {
    int n = 0;
    for (const QCPBars* bars : m_bars)
        n += bars->data()->size();
    return n;
}

int DashboardPlot::baselineBarCount() const {
    int n = 0;
    for (const QCPBars* bars : m_baselineBars)
        n += bars->data()->size();
    return n;
}

QCPBars* DashboardPlot::deviceBars(int slot) const {
    return slot >= 0 && std::size_t(slot) < m_bars.size() ? m_bars[std::size_t(slot)] : nullptr;
}

QCPErrorBars* DashboardPlot::deviceSpread(int slot) const {
    return slot >= 0 && std::size_t(slot) < m_spreads.size() ? m_spreads[std::size_t(slot)]
                                                             : nullptr;
}

QCPBars* DashboardPlot::baselineBars(int slot) const {
    return slot >= 0 && std::size_t(slot) < m_baselineBars.size()
               ? m_baselineBars[std::size_t(slot)]
               : nullptr;
}

QString DashboardPlot::toolTipAt(const QPoint& pos) const {
    for (int baseline = 0; baseline < 2; ++baseline) {
        const std::vector<QCPBars*>& set = baseline ? m_baselineBars : m_bars;
        for (std::size_t slot = 0; slot < set.size(); ++slot) {
            QVariant details;
            if (set[slot]->selectTest(pos, false, &details) < 0)
                continue;
            const QCPDataSelection hit = details.value<QCPDataSelection>();
            if (hit.isEmpty())
                continue;
            const double key = set[slot]->data()->at(hit.dataRange().begin())->key;
            const std::string& pipeline = m_run.pipelines.at(std::size_t(key) - 1);
            if (!baseline) {
                if (const DashboardResult* r = resultOf(m_run, int(slot), pipeline))
                    return describe(m_run, *r, QString());
                continue;
            }
            DashboardResult probe;
            probe.device = int(slot);
            probe.pipeline = pipeline;
            if (const DashboardResult* b = findBaselineResult(*m_baseline, m_run, probe))
                return describe(
                    *m_baseline, *b,
                    tr(" (baseline of %1)").arg(QString::fromStdString(m_baseline->date)));
        }
    }
    return {};
}

void DashboardPlot::changeEvent(QEvent* event) {
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange ||
        event->type() == QEvent::ApplicationPaletteChange) {
        for (QCPErrorBars* spread : m_spreads)
            spread->setPen(QPen(plotColors().mark, 1.2));
        replot(rpQueuedReplot);
    }
}

void DashboardPlot::mouseMoveEvent(QMouseEvent* event) {
    QCustomPlot::mouseMoveEvent(event);
    const QString tip = toolTipAt(event->pos());
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), tip, this);
}

} // namespace histlab::ui
