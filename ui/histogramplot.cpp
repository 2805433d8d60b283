#include "histogramplot.h"

#include <algorithm>

namespace histlab::ui {

namespace {
// The channel is kept on the graph so it can be found again; the legend shows a label.
const char* kChannelProperty = "histlabChannel";

QString channelLabel(const QString& channel) {
    return channel == QLatin1String("gray") ? QStringLiteral("gray") : channel.toUpper();
}
} // namespace

HistogramPlot::HistogramPlot(QWidget* parent)
    : QCustomPlot(parent) {
    xAxis->setLabel(tr("value"));
    yAxis->setLabel(tr("count"));
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
    axisRect()->setRangeDrag(Qt::Horizontal);
    axisRect()->setRangeZoom(Qt::Horizontal);
    setMinimumSize(320, 240);
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
    clearGraphs();
    std::uint64_t peak = 0;
    QVector<double> keys(256);
    for (int i = 0; i < 256; ++i)
        keys[i] = i;
    for (const auto& h : histograms) {
        const QString channel = QString::fromStdString(h.name);
        QVector<double> values(256);
        for (int i = 0; i < 256; ++i) {
            values[i] = double(h.counts[i]);
            peak = std::max(peak, h.counts[i]);
        }
        QCPGraph* g = addGraph();
        g->setName(channelLabel(channel));
        g->setProperty(kChannelProperty, channel);
        QPen pen(channelColor(channel), 1.5);
        if (channel == QLatin1String("a"))
            pen.setStyle(Qt::DashLine);
        g->setPen(pen);
        g->setLineStyle(QCPGraph::lsLine);
        g->setData(keys, values, true);
    }
    xAxis->setRange(0, 255);
    yAxis->setRange(0, std::max<double>(1.0, double(peak) * 1.05));
    replot(rpQueuedReplot);
}

void HistogramPlot::clearHistograms() {
    clearGraphs();
    replot(rpQueuedReplot);
}

QCPGraph* HistogramPlot::channelGraph(const QString& channel) const {
    for (int i = 0; i < graphCount(); ++i)
        if (graph(i)->property(kChannelProperty).toString() == channel)
            return graph(i);
    return nullptr;
}

} // namespace histlab::ui
