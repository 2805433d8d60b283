#pragma once
// A read-only table of per-channel statistics (core/histogramstats.h): one column per channel in
// the run's order (R, G, B, A, gray), one row per statistic. Each row header's tooltip says how
// its statistic is defined.
#include <pipelines/histogramstats.h>

#include <QWidget>

#include <vector>

class QTableWidget;

namespace histlab::ui {

class StatisticsPanel : public QWidget {
    Q_OBJECT
public:
    /// The table's rows, top to bottom; the percentile rows follow kPercentiles.
    enum Row : int {
        Pixels,
        Min,
        Max,
        Mean,
        Median,
        Mode,
        StdDev,
        FirstPercentile,
        Entropy = FirstPercentile + int(kPercentiles.size()),
        RowCount
    };

    explicit StatisticsPanel(QWidget* parent = nullptr);

    /// Shows these channels, one column each, replacing what was shown.
    void setStatistics(const std::vector<ChannelStatistics>& statistics);
    void clear() { setStatistics({}); }

    /// What is shown, as numbers.
    const std::vector<ChannelStatistics>& statistics() const { return m_statistics; }
    /// The table itself (its cells' text is what the numbers look like on screen).
    QTableWidget* table() const { return m_table; }

    /// Tall enough for every row without scrolling.
    QSize sizeHint() const override;

private:
    QTableWidget* m_table;
    std::vector<ChannelStatistics> m_statistics;
};

} // namespace histlab::ui
