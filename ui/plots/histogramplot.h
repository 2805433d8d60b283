#pragma once
// The 256-bin histograms, one graph per channel in its colour (R, G, B, A, and gray in dark
// gray), named after the channel. What a person can change, from the right-click menu or by
// clicking a legend entry: which channels show, lines or bars, a linear or logarithmic count
// axis, and a cumulative overlay (percent of the pixels, on the right axis). The options
// outlive the data: a new image keeps them. Hovering shows the bin and every visible count.
// Replots are queued (rpQueuedReplot), so several updates in one event-loop turn cost one.
#include <pipelines/histogram256/histogram256.h>

#include <qcustomplot.h>

#include <QSet>
#include <vector>

class QMenu;

namespace histlab::ui {

class HistogramPlot : public QCustomPlot {
    Q_OBJECT
public:
    enum class Style { Lines, Bars };

    explicit HistogramPlot(QWidget* parent = nullptr);

    /// Replaces the data with these histograms (names "r", "g", "b", "a", "gray").
    void setHistograms(const std::vector<ChannelHistogram>& histograms);
    void clearHistograms();

    /// The graph that shows this channel's counts, or nullptr.
    QCPGraph* channelGraph(const QString& channel) const;
    /// The graph of this channel's cumulative overlay, or nullptr (overlay off or hidden).
    QCPGraph* cumulativeGraph(const QString& channel) const;

    void setStyle(Style style);
    Style style() const { return m_style; }
    void setLogScale(bool on);
    bool logScale() const { return m_log; }
    void setCumulative(bool on);
    bool cumulative() const { return m_cumulative; }
    void setChannelVisible(const QString& channel, bool visible);
    bool channelVisible(const QString& channel) const { return !m_hidden.contains(channel); }

    /// The tooltip text for bin `bin` (0..255): the value and each visible channel's count
    /// (and cumulative percent when the overlay is on); empty outside 0..255 or without data.
    QString toolTipText(int bin) const;

    /// The options as a menu (what the right-click shows); the actions act on this plot.
    QMenu* createOptionsMenu(QWidget* parent);

    /// The colour a channel is drawn in.
    static QColor channelColor(const QString& channel);

signals:
    /// Emitted after any option changed (style, log scale, cumulative, visibility).
    void optionsChanged();

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    void rebuild();
    void onLegendClick(QCPLegend* legend, QCPAbstractLegendItem* item, QMouseEvent* event);

    std::vector<ChannelHistogram> m_histograms;
    Style m_style = Style::Lines;
    bool m_log = false;
    bool m_cumulative = false;
    QSet<QString> m_hidden;
};

} // namespace histlab::ui
