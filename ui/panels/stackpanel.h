#pragma once
// The stack view (View › Whole Stack, or Whole Stack… beside the page chooser): the whole of a
// multi-page TIFF that the Image tab shows, pages A to B (all by default), counted as histlab-cli
// histogram --page A-B counts it (the histogram family's plan and run: each page by the large-bin
// methods on the window's device and verified against its CPU reference, the stack's counts the
// sum of the pages'), on its own lane ("stack"): the window never waits, the progress names the
// page and Cancel stops the run before the next page is read.
//
// It shows, as ImageJ's Stack Histogram, Stack Statistics and Plot Z-axis Profile do: the
// stack's histogram (each channel), and under it the Z-axis profile, each channel's mean (solid)
// and a chosen percentile (dashed) against the page, in one plot that Export Plot… writes; a
// table with the stack's rows (page "all") and one row per page and channel. Save CSV… writes
// the CLI's --stats-csv, Save JSON… its --json.
#include "panels/resultpanel.h"

#include <pipelines/largebin/imagestack.h>

#include <QString>

#include <vector>

class QCPAxisRect;
class QCPGraph;
class QCPLegend;
class QComboBox;
class QCustomPlot;
class QLabel;
class QSpinBox;
class QTableWidget;

namespace histlab::ui {

/// What the stack view counts: the file, its pages (from 1, both included), the device.
struct StackRequest {
    QString path;
    int first = 1, last = 1;
    QString device = QStringLiteral("auto");
    int repeats = 1;
};

/// One counted stack as the view shows it: the core's run and the device it ran on.
struct StackShown {
    StackRequest request;
    DeviceInfo device;
    ImageStackRun run;
};

class StackPanel : public ResultPanel<StackShown, JobPanel> {
    Q_OBJECT
public:
    explicit StackPanel(JobBridge* bridge, QWidget* parent = nullptr);

    /// The image the window shows and its page count: another file resets the range to all its
    /// pages and clears the result (dropping a run of the old file); the same file keeps both.
    void setImage(const QString& source, int pages);
    QString imageSource() const { return m_source; }
    int imagePages() const { return m_pages; }

    /// Counts the pages chosen; a run in progress is replaced.
    void startRun() override;

    QSpinBox* firstPageSpin() const { return m_first; }
    QSpinBox* lastPageSpin() const { return m_last; }
    /// The profile's percentile: p1 … p99, the median among them (the core's statistics).
    QComboBox* percentileCombo() const { return m_percentile; }
    /// The percentile at index `choice` of the combo, from `st`.
    static double percentileOf(const ChannelStatistics& st, int choice);

    /// The stack's rows (page "all") first, then one per page and channel.
    QTableWidget* statisticsTable() const { return m_table; }
    enum Column {
        PageColumn,
        ChannelColumn,
        PixelsColumn,
        MeanColumn,
        StdDevColumn,
        MinColumn,
        MaxColumn,
        MedianColumn,
        StatusColumn,
        ColumnCount
    };
    /// The histogram (top) and the Z-axis profile (bottom) in one plot.
    QCustomPlot* plot() const { return m_plot; }
    /// Per channel of the result (its order): the stack's histogram, the profile's mean and
    /// its percentile against the page.
    const std::vector<QCPGraph*>& histogramGraphs() const { return m_histogram; }
    const std::vector<QCPGraph*>& meanGraphs() const { return m_mean; }
    const std::vector<QCPGraph*>& percentileGraphs() const { return m_percentiles; }

protected:
    QString present(const StackShown& result) override;
    QString cancelledStatus() const override;
    bool canRun() const override { return m_pages > 1; }
    QString fileBaseName(Output kind) const override;

private:
    void clearResult();
    void fillTable(const ImageStackRun& run);
    void fillHistogram(const ImageStackRun& run);
    /// The profile's graphs from the result and the percentile chosen.
    void fillProfile();

    QSpinBox* m_first;
    QSpinBox* m_last;
    QComboBox* m_percentile;
    QLabel* m_verified;
    QTableWidget* m_table;
    QCustomPlot* m_plot;
    QCPAxisRect* m_profileRect = nullptr;
    QCPLegend* m_profileLegend = nullptr;
    std::vector<QCPGraph*> m_histogram, m_mean, m_percentiles;
    QString m_source;
    int m_pages = 0;
};

} // namespace histlab::ui
