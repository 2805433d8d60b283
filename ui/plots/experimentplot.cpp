#include "plots/experimentplot.h"
#include "plots/plotstyle.h"

#include <QMouseEvent>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace histlab::ui {

namespace {

const char* kStageLabels[] = {"read-only", "+scatter", "+local reduce", "+global merge"};
const char* kVariantLabels[] = {"naive", "local", "banked", "cpu"};

bool isCategorical(ExperimentKind k) {
    return k == ExperimentKind::Stages || k == ExperimentKind::Atomics;
}

} // namespace

QColor paletteColor(int i) {
    static const QColor colors[] = {
        QColor(31, 119, 180), QColor(214, 39, 40), QColor(44, 160, 44),   QColor(148, 103, 189),
        QColor(255, 127, 14), QColor(140, 86, 75), QColor(227, 119, 194), QColor(127, 127, 127)};
    return colors[i % 8];
}

ExperimentPlot::ExperimentPlot(QWidget* parent)
    : QCustomPlot(parent) {
    setMinimumSize(320, 240);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setMouseTracking(true);
    showSmallLegend(this); // translucent, movable
    setNoAntialiasingOnDrag(true);
    plotLayout()->insertRow(0);
    m_title = new QCPTextElement(this, QString(), QFont(font().family(), 10, QFont::Bold));
    plotLayout()->addElement(0, 0, m_title);
    setUpAxes();
}

void ExperimentPlot::setUpAxes() {
    xAxis->setLabel(QString::fromLatin1(experimentAxisName(m_kind)));
    yAxis->setLabel(tr("GB/s"));
    xAxis->setScaleType(QCPAxis::stLinear);
    yAxis->setScaleType(QCPAxis::stLinear);
    yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    switch (m_kind) {
    case ExperimentKind::Banks:
    case ExperimentKind::Reads:
    case ExperimentKind::Bins: {
        xAxis->setScaleType(QCPAxis::stLogarithmic);
        QSharedPointer<QCPAxisTickerLog> log(new QCPAxisTickerLog);
        log->setLogBase(m_kind == ExperimentKind::Reads ? 4 : 2);
        if (m_kind == ExperimentKind::Bins)
            log->setTickCount(9); // every power of two from 256 to 65,536 labelled
        xAxis->setTicker(log);
        xAxis->setNumberFormat(QStringLiteral("f"));
        xAxis->setNumberPrecision(0);
        if (m_kind == ExperimentKind::Bins) {
            // The methods' throughputs span orders of magnitude (global atomics against one
            // local copy): a logarithmic axis keeps every curve readable.
            yAxis->setScaleType(QCPAxis::stLogarithmic);
            yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        }
        break;
    }
    case ExperimentKind::Stages:
    case ExperimentKind::Atomics: {
        QSharedPointer<QCPAxisTickerText> text(new QCPAxisTickerText);
        for (int i = 0; i < 4; ++i)
            text->addTick(i, QString::fromLatin1(m_kind == ExperimentKind::Stages
                                                     ? kStageLabels[i]
                                                     : kVariantLabels[i]));
        xAxis->setTicker(text);
        xAxis->grid()->setZeroLinePen(Qt::NoPen); // categories: no line through the first
        xAxis->setRange(-0.5, 3.5);
        if (m_kind == ExperimentKind::Atomics) {
            yAxis->setScaleType(QCPAxis::stLogarithmic);
            yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        }
        break;
    }
    case ExperimentKind::Groups: {
        QSharedPointer<QCPAxisTickerText> across(new QCPAxisTickerText);
        for (int w = 32, i = 5; w <= 1024; w *= 2, ++i)
            across->addTick(i, QString::number(w));
        xAxis->setTicker(across);
        QSharedPointer<QCPAxisTickerText> up(new QCPAxisTickerText);
        for (int g = 1, i = 0; g <= 32; g *= 2, ++i)
            up->addTick(i, QString::number(g));
        yAxis->setTicker(up);
        yAxis->setLabel(tr("work-groups per compute unit"));
        break;
    }
    }
}

void ExperimentPlot::updateTitle() {
    QStringList names;
    for (const DeviceInfo& d : m_devices)
        names << QString::fromStdString(d.name);
    QString title = QString::fromLatin1(experimentKindName(m_kind));
    if (!names.isEmpty())
        title += QStringLiteral(" · ") + names.join(QStringLiteral(", "));
    if (m_bytes)
        title += QStringLiteral(" · %1 MiB per input").arg(double(m_bytes) / 1048576.0, 0, 'g', 4);
    if (!m_date.isEmpty())
        title += QStringLiteral(" · ") + m_date;
    if (m_baseline)
        title += tr(" · dashed: baseline of %1").arg(QString::fromStdString(m_baseline->date));
    m_title->setText(title);
}

void ExperimentPlot::fitAxes() {
    legend->setVisible(legend->itemCount() > 0); // no empty box before the first curve
    if (m_pointCount + m_baselinePointCount == 0) {
        // Nothing drawn: the axes of the experiment's usual span, with whole ticks (the
        // rescale of empty data labelled a log axis "0 0 0 0 1 4").
        const bool logY = yAxis->scaleType() == QCPAxis::stLogarithmic;
        yAxis->setRange(logY ? 0.1 : 0.0, logY ? 100.0 : 1.0);
        if (isCategorical(m_kind))
            xAxis->setRange(-0.5, 3.5);
        else if (m_kind == ExperimentKind::Bins)
            xAxis->setRange(256 / 1.25, 65536 * 1.25);
        else if (m_kind == ExperimentKind::Reads)
            xAxis->setRange(1 / 1.25, 1024 * 1.25);
        else
            xAxis->setRange(1 / 1.25, 32 * 1.25);
        return;
    }
    rescaleAxes(true);
    if (isCategorical(m_kind)) {
        xAxis->setRange(-0.5, 3.5);
    } else {
        const QCPRange x = xAxis->range(); // log2/log4 axes: a quarter of a step either side
        xAxis->setRange(x.lower / 1.25, x.upper * 1.25);
    }
    const QCPRange y = yAxis->range();
    if (yAxis->scaleType() == QCPAxis::stLinear)
        yAxis->setRange(0, y.upper * 1.06); // throughput from zero: no exaggerated gaps
    else if (m_kind != ExperimentKind::Bins)
        yAxis->setRange(y.lower / 2, y.upper * 2);
    else // room above the curves for the key (a row per method): over 40 % of the height
        yAxis->setRange(y.lower / 2,
                        y.upper * std::max(6.0, std::pow(y.upper / std::max(y.lower, 1e-9), 0.75)));
}

void ExperimentPlot::reset(ExperimentKind kind, const std::vector<DeviceInfo>& devices,
                           std::size_t bytes) {
    m_kind = kind;
    m_devices = devices;
    m_bytes = bytes;
    m_date.clear();
    m_points.clear();
    if (m_baseline && m_baseline->kind != kind)
        m_baseline.reset();
    rebuild();
}

void ExperimentPlot::showRun(const ExperimentRun& run) {
    reset(run.kind, run.devices, run.bytes);
    m_date = QString::fromStdString(run.date);
    for (const ExperimentPoint& p : run.points)
        m_points.push_back(p);
    rebuild();
}

void ExperimentPlot::addPoint(const ExperimentPoint& point) {
    m_points.push_back(point);
    if (m_kind == ExperimentKind::Groups) {
        rebuild(); // the heatmap is redrawn whole
        return;
    }
    plotPoint(m_points.back(), false);
    fitAxes();
    replot(QCustomPlot::rpQueuedReplot);
}

bool ExperimentPlot::setBaseline(const std::optional<ExperimentRun>& run) {
    if (run && !m_points.empty() && run->kind != m_kind)
        return false;
    if (run && m_points.empty())
        m_kind = run->kind; // nothing drawn yet: the baseline sets the figure
    m_baseline = run;
    rebuild();
    return true;
}

QString ExperimentPlot::curveName(const ExperimentPoint& p, bool baseline) const {
    QStringList parts;
    const std::vector<DeviceInfo>& devices = baseline ? m_baseline->devices : m_devices;
    const bool several = devices.size() > 1 || baseline || m_baseline;
    if (several && p.device >= 0 && std::size_t(p.device) < devices.size())
        parts << QString::fromStdString(devices[std::size_t(p.device)].name).left(28);
    parts << QString::fromStdString(p.distribution);
    if (!p.series.empty() && m_kind != ExperimentKind::Atomics)
        parts << QString::fromStdString(p.series);
    QString name = parts.join(QStringLiteral(", "));
    if (baseline)
        name += tr(" (baseline)");
    return name;
}

ExperimentPlot::Curve& ExperimentPlot::curveFor(const ExperimentPoint& p, bool baseline) {
    // Atomics: one curve per distribution across the variants; otherwise per series too.
    const std::string series = m_kind == ExperimentKind::Atomics ? std::string() : p.series;
    const CurveKey key{baseline, p.device, p.distribution, series};
    auto it = m_curves.find(key);
    if (it != m_curves.end())
        return it->second;
    // The colour follows (distribution, series), so a baseline curve matches its new one.
    std::vector<std::pair<std::string, std::string>> seen;
    for (const auto& [k, c] : m_curves) {
        const auto ds = std::make_pair(std::get<2>(k), std::get<3>(k));
        if (std::find(seen.begin(), seen.end(), ds) == seen.end())
            seen.push_back(ds);
    }
    const auto ds = std::make_pair(p.distribution, series);
    const auto pos = std::find(seen.begin(), seen.end(), ds);
    const int colorIndex = m_kind == ExperimentKind::Bins ? binsMethodIndex(p.series)
                                                          : int(pos - seen.begin()) + p.device * 3;
    const QColor color = paletteColor(colorIndex);
    Curve curve;
    curve.graph = addGraph();
    curve.graph->setName(curveName(p, baseline));
    QPen pen(color, baseline ? 1.2 : 1.8);
    if (baseline)
        pen.setStyle(Qt::DashLine);
    curve.graph->setPen(pen);
    if (m_kind == ExperimentKind::Bins) {
        curve.graph->setScatterStyle(binsMarker(p.distribution, color, baseline));
        if (keyedLegend()) { // the curve is drawn; the key names its colour and marker
            curve.graph->removeFromLegend();
            addKey(QString::fromStdString(p.distribution), QPen(Qt::NoPen),
                   binsMarker(p.distribution, Qt::darkGray, false));
            if (baseline)
                addKey(tr("baseline"), QPen(Qt::darkGray, 1.2, Qt::DashLine), {});
        }
    } else {
        curve.graph->setScatterStyle(
            QCPScatterStyle(baseline ? QCPScatterStyle::ssCircle : QCPScatterStyle::ssDisc, 5));
    }
    curve.errors = new QCPErrorBars(xAxis, yAxis);
    curve.errors->removeFromLegend();
    curve.errors->setDataPlottable(curve.graph);
    curve.errors->setPen(QPen(paletteColor(colorIndex).lighter(130)));
    return m_curves.emplace(key, curve).first->second;
}

int ExperimentPlot::binsMethodIndex(const std::string& method) {
    const std::vector<LargeBinMethod> methods = allLargeBinMethods();
    for (std::size_t i = 0; i < methods.size(); ++i)
        if (method == largeBinMethodName(methods[i]))
            return int(i);
    return int(methods.size());
}

QCPScatterStyle ExperimentPlot::binsMarker(const std::string& distribution, const QColor& color,
                                           bool hollow) {
    const std::vector<std::string> data = experimentDistributions(ExperimentKind::Bins);
    const QCPScatterStyle::ScatterShape shapes[] = {
        QCPScatterStyle::ssDisc, QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle,
        QCPScatterStyle::ssDiamond};
    const auto i = std::size_t(std::find(data.begin(), data.end(), distribution) - data.begin());
    return QCPScatterStyle(shapes[i % 4], QPen(color, 1.2),
                           hollow ? QBrush(Qt::white) : QBrush(color), 6);
}

bool ExperimentPlot::keyedLegend() const {
    // Six methods x four distributions are 24 curves: listed, their names would hide the figure.
    // On one device a key says it all (several devices: each curve named, device first).
    return m_kind == ExperimentKind::Bins && m_devices.size() <= 1 &&
           (!m_baseline || m_baseline->devices.size() <= 1);
}

void ExperimentPlot::addKey(const QString& name, const QPen& line, const QCPScatterStyle& marker) {
    if (m_keys.contains(name))
        return;
    // A graph without data: drawn only in the legend, and outside every axis range.
    QCPGraph* key = addGraph();
    key->setName(name);
    key->setPen(line);
    key->setLineStyle(line.style() == Qt::NoPen ? QCPGraph::lsNone : QCPGraph::lsLine);
    key->setScatterStyle(marker);
    m_keys.insert(name);
}

void ExperimentPlot::plotPoint(const ExperimentPoint& p, bool baseline) {
    if (!p.ok())
        return; // unsupported or failed: in the table and the tooltip of the run, not drawn
    Curve& curve = curveFor(p, baseline);
    // Keep the graph's data sorted by x and the points in the same order, error bars alike.
    const auto at = std::upper_bound(curve.points.begin(), curve.points.end(), p.x,
                                     [](double x, const ExperimentPoint* q) { return x < q->x; });
    curve.points.insert(at, &p);
    QVector<double> keys, values, minus, plus;
    for (const ExperimentPoint* q : curve.points) {
        keys << q->x;
        values << q->gbps;
        const auto [slow, fast] = throughputSpread(q->gbps, q->stats);
        minus << std::max(0.0, q->gbps - slow);
        plus << std::max(0.0, fast - q->gbps);
    }
    curve.graph->setData(keys, values, true);
    curve.errors->setData(minus, plus);
    if (baseline)
        ++m_baselinePointCount;
    else
        ++m_pointCount;
}

void ExperimentPlot::rebuild() {
    clearGraphs();
    clearPlottables();
    if (m_scale) {
        plotLayout()->remove(m_scale);
        m_scale = nullptr;
    }
    m_heatmap = nullptr;
    m_curves.clear();
    m_keys.clear();
    m_pointCount = m_baselinePointCount = 0;
    setUpAxes();
    updateTitle();
    if (m_kind == ExperimentKind::Groups) {
        // The first device and distribution of the run: a heatmap cannot overlay others.
        m_heatmap = new QCPColorMap(xAxis, yAxis);
        m_heatmap->data()->setSize(6, 6);
        m_heatmap->data()->setRange(QCPRange(5, 10), QCPRange(0, 5));
        for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 6; ++j)
                m_heatmap->data()->setCell(i, j, std::nan(""));
        m_scale = new QCPColorScale(this);
        plotLayout()->addElement(1, 1, m_scale); // row 0 is the title
        m_scale->axis()->setLabel(tr("GB/s"));
        m_heatmap->setColorScale(m_scale);
        // A configuration not measured (yet) is left blank, not drawn as the slowest; the
        // fastest is yellow, not the white of the plot (as in the thermal palette).
        m_heatmap->setGradient(viridisGradient());
        m_heatmap->setInterpolate(false); // one cell per configuration
        m_heatmap->setName(tr("GB/s"));
        double fastest = 0;
        for (const ExperimentPoint& p : m_points) {
            if (!p.ok() || p.device != m_points.front().device ||
                p.distribution != m_points.front().distribution)
                continue;
            const int i = int(std::lround(std::log2(std::max(1.0, p.x)))) - 5;
            const int j = int(std::lround(std::log2(std::max(1.0, p.y))));
            if (i >= 0 && i < 6 && j >= 0 && j < 6) {
                m_heatmap->data()->setCell(i, j, p.gbps);
                fastest = std::max(fastest, p.gbps);
                ++m_pointCount;
            }
        }
        // The palette from zero to the fastest: throughputs within noise of each other look
        // alike instead of filling the palette (0.32 and 0.385 GB/s were its two ends).
        m_heatmap->setDataRange(QCPRange(0, fastest > 0 ? fastest : 1));
        xAxis->setRange(4.5, 10.5);
        yAxis->setRange(-0.5, 5.5);
        legend->setVisible(false);
        replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    legend->setVisible(true);
    // A key in two columns: the methods, in the core's order; the distributions as they come.
    legend->setWrap(keyedLegend() ? int(allLargeBinMethods().size()) : 0);
    if (keyedLegend())
        for (LargeBinMethod m : allLargeBinMethods())
            addKey(QString::fromLatin1(largeBinMethodName(m)),
                   QPen(paletteColor(binsMethodIndex(largeBinMethodName(m))), 1.8), {});
    if (m_baseline)
        for (const ExperimentPoint& p : m_baseline->points)
            plotPoint(p, true);
    for (const ExperimentPoint& p : m_points)
        plotPoint(p, false);
    fitAxes();
    replot(QCustomPlot::rpQueuedReplot);
}

QString ExperimentPlot::describe(const ExperimentPoint& p, bool baseline) const {
    QStringList lines;
    lines << curveName(p, baseline);
    for (const auto& [k, v] : p.params)
        lines << QStringLiteral("%1: %2").arg(QString::fromStdString(k), QString::fromStdString(v));
    if (p.ok())
        lines << tr("%1 GB/s (%2 % of read-only), median %3 ms, min %4, max %5, %6 runs")
                     .arg(p.gbps, 0, 'f', p.gbps >= 100 ? 0 : 2)
                     .arg(p.percentOfCeiling, 0, 'f', 1)
                     .arg(p.stats.medianMs, 0, 'f', 3)
                     .arg(p.stats.minMs, 0, 'f', 3)
                     .arg(p.stats.maxMs, 0, 'f', 3)
                     .arg(p.stats.samplesMs.size());
    if (p.ok() && m_kind == ExperimentKind::Bins)
        lines << tr("%1 G samples/s (16-bit samples)").arg(p.gsps, 0, 'f', p.gsps >= 100 ? 0 : 2);
    lines << QString::fromLatin1(statusName(p.status)) +
                 (p.reason.empty() ? QString()
                                   : QStringLiteral(": ") + QString::fromStdString(p.reason));
    return lines.join(QLatin1Char('\n'));
}

QString ExperimentPlot::toolTipAt(const QPoint& pos) const {
    if (m_kind == ExperimentKind::Groups && m_heatmap) {
        const double x = xAxis->pixelToCoord(pos.x()), y = yAxis->pixelToCoord(pos.y());
        for (const ExperimentPoint& p : m_points)
            if (p.device == m_points.front().device &&
                p.distribution == m_points.front().distribution &&
                std::abs(std::log2(std::max(1.0, p.x)) - x) < 0.5 &&
                std::abs(std::log2(std::max(1.0, p.y)) - y) < 0.5)
                return describe(p, false);
        return {};
    }
    const ExperimentPoint* best = nullptr;
    bool bestIsBaseline = false;
    double bestDistance = 12; // pixels
    for (const auto& [key, curve] : m_curves)
        for (const ExperimentPoint* p : curve.points) {
            const double dx = xAxis->coordToPixel(p->x) - pos.x();
            const double dy = yAxis->coordToPixel(p->gbps) - pos.y();
            const double d = std::hypot(dx, dy);
            if (d < bestDistance) {
                bestDistance = d;
                best = p;
                bestIsBaseline = std::get<0>(key);
            }
        }
    return best ? describe(*best, bestIsBaseline) : QString();
}

void ExperimentPlot::mouseMoveEvent(QMouseEvent* event) {
    QCustomPlot::mouseMoveEvent(event);
    const QString text = toolTipAt(event->pos());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

} // namespace histlab::ui
