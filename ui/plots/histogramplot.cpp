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

QVector<double> binKeys() {
    QVector<double> keys(256);
    for (int i = 0; i < 256; ++i)
        keys[i] = i;
    return keys;
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
    // Byte values read best in steps of 32 (and multiples of it when zoomed out).
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(32);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    ticker->setTickCount(8);
    xAxis->setTicker(ticker);
    legend->setVisible(true);
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
    m_histograms = histograms;
    rebuild();
    // A new image: show all of it (the options stay as they were).
    std::uint64_t peak = 0;
    for (const auto& h : m_histograms)
        for (auto c : h.counts)
            peak = std::max(peak, c);
    xAxis->setRange(0, 255);
    if (m_log)
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
    const QVector<double> keys = binKeys();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const auto& h : m_histograms) {
        const QString channel = QString::fromStdString(h.name);
        const bool visible = channelVisible(channel);
        QVector<double> values(256), cumulative(256);
        std::uint64_t total = 0;
        for (auto c : h.counts)
            total += c;
        std::uint64_t running = 0;
        for (int i = 0; i < 256; ++i) {
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
    setHistograms(std::vector<ChannelHistogram>(m_histograms)); // rebuild with the new range
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

QString HistogramPlot::toolTipText(int bin) const {
    if (bin < 0 || bin > 255 || m_histograms.empty())
        return {};
    QString text = tr("value %1").arg(bin);
    for (const auto& h : m_histograms) {
        const QString channel = QString::fromStdString(h.name);
        if (!channelVisible(channel))
            continue;
        text += QStringLiteral("\n%1: %2").arg(channelLabel(channel)).arg(h.counts[bin]);
        if (m_cumulative) {
            std::uint64_t total = 0, upTo = 0;
            for (int i = 0; i < 256; ++i) {
                total += h.counts[i];
                if (i <= bin)
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
    QAction* reset = menu->addAction(tr("Reset zoom"));
    connect(reset, &QAction::triggered, this,
            [this] { setHistograms(std::vector<ChannelHistogram>(m_histograms)); });
    return menu;
}

void HistogramPlot::mouseMoveEvent(QMouseEvent* event) {
    QCustomPlot::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton || !axisRect()->rect().contains(event->pos())) {
        QToolTip::hideText();
        return;
    }
    const int bin = int(std::lround(xAxis->pixelToCoord(event->pos().x())));
    const QString text = toolTipText(bin);
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
