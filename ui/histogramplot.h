#pragma once
// The 256-bin histograms as line graphs, one graph per channel in its colour (R, G, B, A, and
// gray in dark gray), named after the channel. Replots are queued (rpQueuedReplot), so several
// updates in one event-loop turn cost one replot.
#include <histogram256.h>

#include <qcustomplot.h>

#include <vector>

namespace histlab::ui {

class HistogramPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit HistogramPlot(QWidget* parent = nullptr);

    /// Replaces the graphs with these histograms (names "r", "g", "b", "a", "gray").
    void setHistograms(const std::vector<ChannelHistogram>& histograms);
    void clearHistograms();

    /// The graph that shows this channel, or nullptr.
    QCPGraph* channelGraph(const QString& channel) const;

    /// The colour a channel is drawn in.
    static QColor channelColor(const QString& channel);
};

} // namespace histlab::ui
