#include "plots/histogramplot.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>

namespace histlab::ui {

namespace {
// The channel (and whether the graph is the cumulative overlay) is kept on each graph so it can
// be found again; the legend shows a label.
const char* kChannelProperty = "histlabChannel";
const char* kCumulativeProperty = "histlabCumulative";

QString channelLabel(const QString& channel) {
    return channel == QLatin1String("gray") ? QStringLiteral("gray") : channel.toUpper();
}

/// Each bin's lower edge.
QVector<double> binKeys(const HistogramPlot::Series& h) {
    QVector<double> keys(qsizetype(h.counts.size()));
    const double w = h.binWidth();
    for (qsizetype i = 0; i < keys.size(); ++i)
        keys[i] = h.lo + double(i) * w;
    return keys;
}

/// Byte values read best in steps of 32 (and multiples of it when zoomed out); other ranges
/// get QCustomPlot's usual ticks.
QSharedPointer<QCPAxisTicker> tickerFor(bool bytes) {
    if (!bytes)
        return QSharedPointer<QCPAxisTicker>::create();
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(32);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    ticker->setTickCount(8);
    return ticker;
}
} // namespace

HistogramPlot::HistogramPlot(QWidget* parent)
    : QCustomPlot(parent) {
    xAxis->setLabel(tr("value"));
    yAxis->setLabel(tr("count"));
    yAxis2->setLabel(tr("cumulative %"));
    yAxis2->setRange(0, 100);
    xAxis->setRange(0, 255);
    yAxis->setRange(0, 1);
    xAxis->setTicker(tickerFor(true));
    legend->setVisible(false); // until there are histograms (rebuild)
    legend->setBrush(QColor(255, 255, 255, 200));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    axisRect()->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    setMinimumSize(320, 240);
    setMouseTracking(true);
    setToolTip(tr("Right-click for options; click a legend entry to show or hide a channel"));
    connect(this, &QCustomPlot::legendClick, this, &HistogramPlot::onLegendClick);
}

QColor HistogramPlot::channelColor(const QString& channel) {
    if (channel == QLatin1String("r"))
        return {214, 39, 40};
    if (channel == QLatin1String("g"))
        return {44, 160, 44};
    if (channel == QLatin1String("b"))
        return {31, 119, 180};
    if (channel == QLatin1String("a"))
        return {148, 103, 189};
    return {64, 64, 64}; // gray
}

void HistogramPlot::setHistograms(const std::vector<ChannelHistogram>& histograms) {
    std::vector<Series> series;
    series.reserve(histograms.size());
    for (const ChannelHistogram& h : histograms)
        series.push_back(
            {h.name, 0, 256, std::vector<std::uint64_t>(h.counts.begin(), h.counts.end())});
    setHistograms(std::move(series));
}

void HistogramPlot::setHistograms(std::vector<Series> histograms) {
    m_histograms = std::move(histograms);
    rebuild();
    showAll(); // a new image: all of it (the options stay as they were)
}

void HistogramPlot::showAll() {
    showRange(false);
}

void HistogramPlot::showRange(bool whole) {
    std::uint64_t peak = 0;
    double lo = 0, hi = 255;
    bool bytes = true, any = false;
    for (const Series& h : m_histograms) {
        if (h.counts.empty())
            continue;
        // The occupied bins (a 12-bit image in 65,536 bins fills the first 4,096), or all.
        std::size_t first = 0, last = h.counts.size() - 1;
        if (!whole) {
            while (first < last && h.counts[first] == 0)
                ++first;
            while (last > first && h.counts[last] == 0)
                --last;
        }
        for (auto c : h.counts)
            peak = std::max(peak, c);
        const double a = h.lo + h.binWidth() * double(first);
        const double b = h.lo + h.binWidth() * double(last);
        lo = any ? std::min(lo, a) : a;
        hi = any ? std::max(hi, b) : b;
        any = true;
        bytes = bytes && h.lo == 0 && h.hi == 256 && h.counts.size() == 256;
    }
    if (bytes && !whole) { // byte values: always 0 ... 255, as before
        lo = 0;
        hi = 255;
    }
    const double pad = bytes ? 0 : (hi - lo) * 0.02;
    xAxis->setTicker(tickerFor(bytes));
    xAxis->setRange(lo - pad, hi > lo ? hi + pad : lo + 1);
    if (m_log && !any) // nothing yet: one clean decade, not ticks squeezed below 2
        yAxis->setRange(1.0, 10.0);
    else if (m_log)
        yAxis->setRange(0.5, std::max<double>(2.0, double(peak) * 2.0));
    else
        yAxis->setRange(0, std::max<double>(1.0, double(peak) * 1.05));
    replot(rpQueuedReplot);
}

void HistogramPlot::clearHistograms() {
    m_histograms.clear();
    rebuild();
    replot(rpQueuedReplot);
}

void HistogramPlot::rebuild() {
    clearGraphs();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const auto& h : m_histograms) {
        const QVector<double> keys = binKeys(h);
        const QString channel = QString::fromStdString(h.name);
        const bool visible = channelVisible(channel);
        const qsizetype n = keys.size();
        QVector<double> values(n), cumulative(n);
        std::uint64_t total = 0;
        for (auto c : h.counts)
            total += c;
        std::uint64_t running = 0;
        for (qsizetype i = 0; i < n; ++i) {
            // A logarithmic axis cannot show 0: empty bins become gaps.
            values[i] = (m_log && h.counts[i] == 0) ? nan : double(h.counts[i]);
            running += h.counts[i];
            cumulative[i] = total ? 100.0 * double(running) / double(total) : 0.0;
        }
        const QColor colour = channelColor(channel);
        QCPGraph* g = addGraph();
        g->setName(channelLabel(channel));
        g->setProperty(kChannelProperty, channel);
        QPen pen(colour, 1.5);
        if (channel == QLatin1String("a"))
            pen.setStyle(Qt::DashLine);
        g->setPen(pen);
        if (m_style == Style::Bars) {
            g->setLineStyle(QCPGraph::lsStepCenter);
            QColor fill = colour;
            fill.setAlpha(60);
            g->setBrush(fill);
        } else {
            g->setLineStyle(QCPGraph::lsLine);
            g->setBrush(Qt::NoBrush);
        }
        g->setData(keys, values, true);
        g->setVisible(visible);
        if (!visible) // the legend entry stays, greyed, so it can be clicked back on
            if (auto* item = legend->itemWithPlottable(g))
                item->setTextColor(Qt::gray);
        if (m_cumulative && visible) {
            QCPGraph* c = addGraph(xAxis, yAxis2);
            c->setName(channelLabel(channel) + tr(" cumulative"));
            c->setProperty(kChannelProperty, channel);
            c->setProperty(kCumulativeProperty, true);
            QPen cpen(colour, 1.0, Qt::DotLine);
            c->setPen(cpen);
            c->setData(keys, cumulative, true);
            c->removeFromLegend();
        }
    }
    yAxis2->setVisible(m_cumulative);
    legend->setVisible(!m_histograms.empty()); // no stray empty box before the first image
}

void HistogramPlot::setStyle(Style style) {
    if (style == m_style)
        return;
    m_style = style;
    rebuild();
    replot(rpQueuedReplot);
    emit optionsChanged();
}

void HistogramPlot::setLogScale(bool on) {
    if (on == m_log)
        return;
    m_log = on;
    if (on) {
        yAxis->setScaleType(QCPAxis::stLogarithmic);
        yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    } else {
        yAxis->setScaleType(QCPAxis::stLinear);
        yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }
    rebuild();
    showAll(); // the count axis's range suits the new scale
    emit optionsChanged();
}

void HistogramPlot::setCumulative(bool on) {
    if (on == m_cumulative)
        return;
    m_cumulative = on;
    rebuild();
    replot(rpQueuedReplot);
    emit optionsChanged();
}

void HistogramPlot::setChannelVisible(const QString& channel, bool visible) {
    if (visible == channelVisible(channel))
        return;
    if (visible)
        m_hidden.remove(channel);
    else
        m_hidden.insert(channel);
    rebuild();
    replot(rpQueuedReplot);
    emit optionsChanged();
}

QCPGraph* HistogramPlot::channelGraph(const QString& channel) const {
    for (int i = 0; i < graphCount(); ++i)
        if (graph(i)->property(kChannelProperty).toString() == channel &&
            !graph(i)->property(kCumulativeProperty).toBool())
            return graph(i);
    return nullptr;
}

QCPGraph* HistogramPlot::cumulativeGraph(const QString& channel) const {
    for (int i = 0; i < graphCount(); ++i)
        if (graph(i)->property(kChannelProperty).toString() == channel &&
            graph(i)->property(kCumulativeProperty).toBool())
            return graph(i);
    return nullptr;
}

int HistogramPlot::binAt(double x) const {
    if (m_histograms.empty())
        return -1;
    const Series& h = m_histograms.front(); // every channel has the same bins
    const long bin = std::lround((x - h.lo) / h.binWidth());
    return bin < 0 || bin >= long(h.counts.size()) ? -1 : int(bin);
}

QString HistogramPlot::toolTipAt(double x) const {
    if (m_histograms.empty())
        return {};
    const Series& first = m_histograms.front();
    bool shared = true;
    for (const Series& h : m_histograms)
        shared = shared && h.lo == first.lo && h.hi == first.hi &&
                 h.counts.size() == first.counts.size();
    if (shared)
        return toolTipText(binAt(x));
    // Channels over ranges of their own (a float image's): each one's bin at x.
    QStringList lines;
    for (const Series& h : m_histograms) {
        const QString channel = QString::fromStdString(h.name);
        const long bin = std::lround((x - h.lo) / h.binWidth());
        if (!channelVisible(channel) || bin < 0 || bin >= long(h.counts.size()))
            continue;
        const double lo = h.lo + double(bin) * h.binWidth();
        lines << tr("%1: %2 in %3 to %4")
                     .arg(channelLabel(channel))
                     .arg(h.counts[std::size_t(bin)])
                     .arg(lo, 0, 'g', 9)
                     .arg(lo + h.binWidth(), 0, 'g', 9);
    }
    return lines.join(QLatin1Char('\n'));
}

QString HistogramPlot::toolTipText(int bin) const {
    if (m_histograms.empty() || bin < 0 || std::size_t(bin) >= m_histograms.front().counts.size())
        return {};
    const Series& first = m_histograms.front();
    const double w = first.binWidth(), lo = first.lo + bin * w;
    const bool last = std::size_t(bin) + 1 == first.counts.size();
    QString text = w == 1 && lo == std::floor(lo)
                       ? tr("value %1").arg(qint64(lo))
                       : tr("bin %1: %2 to %3 (%4)")
                             .arg(bin)
                             .arg(lo, 0, 'g', 9)
                             .arg(last ? first.hi : lo + w, 0, 'g', 9)
                             .arg(last ? tr("closed") : tr("upper edge excluded"));
    for (const auto& h : m_histograms) {
        const QString channel = QString::fromStdString(h.name);
        if (!channelVisible(channel) || std::size_t(bin) >= h.counts.size())
            continue;
        text +=
            QStringLiteral("\n%1: %2").arg(channelLabel(channel)).arg(h.counts[std::size_t(bin)]);
        if (m_cumulative) {
            std::uint64_t total = 0, upTo = 0;
            for (std::size_t i = 0; i < h.counts.size(); ++i) {
                total += h.counts[i];
                if (i <= std::size_t(bin))
                    upTo += h.counts[i];
            }
            const double percent = total ? 100.0 * double(upTo) / double(total) : 0.0;
            text += tr(" (cumulative %1 %)").arg(percent, 0, 'f', 2);
        }
    }
    return text;
}

QMenu* HistogramPlot::createOptionsMenu(QWidget* parent) {
    auto* menu = new QMenu(parent);
    for (const auto& h : m_histograms) {
        const QString channel = QString::fromStdString(h.name);
        QAction* a = menu->addAction(tr("Show %1").arg(channelLabel(channel)));
        a->setCheckable(true);
        a->setChecked(channelVisible(channel));
        connect(a, &QAction::toggled, this,
                [this, channel](bool on) { setChannelVisible(channel, on); });
    }
    if (!m_histograms.empty())
        menu->addSeparator();
    QAction* bars = menu->addAction(tr("Bars"));
    bars->setCheckable(true);
    bars->setChecked(m_style == Style::Bars);
    connect(bars, &QAction::toggled, this,
            [this](bool on) { setStyle(on ? Style::Bars : Style::Lines); });
    QAction* log = menu->addAction(tr("Logarithmic count axis"));
    log->setCheckable(true);
    log->setChecked(m_log);
    connect(log, &QAction::toggled, this, &HistogramPlot::setLogScale);
    QAction* cumulative = menu->addAction(tr("Cumulative overlay"));
    cumulative->setCheckable(true);
    cumulative->setChecked(m_cumulative);
    connect(cumulative, &QAction::toggled, this, &HistogramPlot::setCumulative);
    menu->addSeparator();
    QAction* reset = menu->addAction(tr("Reset zoom (the values present)"));
    connect(reset, &QAction::triggered, this, &HistogramPlot::showAll);
    QAction* whole = menu->addAction(tr("Whole range (every bin)"));
    connect(whole, &QAction::triggered, this, [this] { showRange(true); });
    return menu;
}

void HistogramPlot::mouseMoveEvent(QMouseEvent* event) {
    QCustomPlot::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton || !axisRect()->rect().contains(event->pos())) {
        QToolTip::hideText();
        return;
    }
    const QString text = toolTipAt(xAxis->pixelToCoord(event->pos().x()));
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

void HistogramPlot::contextMenuEvent(QContextMenuEvent* event) {
    QMenu* menu = createOptionsMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(event->globalPos());
}

void HistogramPlot::onLegendClick(QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*) {
    auto* plItem = qobject_cast<QCPPlottableLegendItem*>(item);
    if (!plItem)
        return;
    const QString channel = plItem->plottable()->property(kChannelProperty).toString();
    if (!channel.isEmpty())
        setChannelVisible(channel, !channelVisible(channel));
}

} // namespace histlab::ui
