#pragma once
// The Equalize tab ("Cumulative histograms and equalization"): the histogram equalization of the
// image the window shows, on the device chosen in the tool bar above the tabs (lane "equalize": a
// new run replaces the one running), with the timed repeats.
//
// The results: the original against the equalized image, the per-stage timings (histogram, cdf,
// lut, apply, total: median and min ms; the apply pass's GB/s, image bytes read + written) with
// the verification against the CPU reference (red when it differs), and a plot of the plane's
// histogram before and after (256 bins for 8-bit images, 65,536 for 16-bit; a step line) with
// the cumulative histogram (CDF, in % of the pixels on the right axis) of both laid over it.
// The plane is the gray values, or a color image's luma. Save Result writes the equalized image;
// Export Plot writes the plot; Export CSV writes bin,count,cdf (the plane's histogram before,
// as histlab-cli equalize --csv does). Errors (an image too large for one device buffer, ...)
// go to the status line.
#include "panels/imagejobpanel.h"
#include "panels/resultpanel.h"

#include <pipelines/equalize/equalize.h>

#include <cstdint>
#include <optional>
#include <vector>

class QCPGraph;
class QCustomPlot;
class QLabel;
class QTableWidget;

namespace histlab::ui {

/// A histogram equalization (lane "equalize"): histlab-cli equalize's plan and run on the image
/// the window shows.
struct EqualizeRequest : ImageJobRequest {};

/// One finished equalization as the tab shows it: the core's run (the full-size output,
/// histogram, CDF, table, per-stage timings, verification) and what the tab draws from it.
struct EqualizeShown : ImageJobRun {
    EqualizeRequest request;
    QImage outputPreview; ///< the same size as inputPreview
    EqualizeRun run;
    /// equalizedHistogram(run): the "after" of the tab's plot.
    std::vector<std::uint64_t> histogramAfter;
};

class EqualizePanel : public ResultPanel<EqualizeShown, ImageJobPanel> {
    Q_OBJECT
public:
    explicit EqualizePanel(JobBridge* bridge, QWidget* parent = nullptr);
    /// Equalizes the image; a run in progress is replaced.
    void startRun() override;

    /// One row per stage: histogram, cdf, lut, apply, total.
    QTableWidget* timingsTable() const { return m_timings; }
    enum Column { StageColumn, MedianColumn, MinColumn, GbpsColumn, ColumnCount };
    enum Row { HistogramRow, CdfRow, LutRow, ApplyRow, TotalRow, RowCount };
    QLabel* verifiedLabel() const { return m_verified; }
    /// The plot's graphs: the histogram before and after, and their CDFs (right axis, %).
    QCustomPlot* plot() const { return m_plot; }
    QCPGraph* histogramGraph(bool after) const { return after ? m_after : m_before; }
    /// How many values each step of the plotted histograms sums (shown per value, "before" and
    /// "after" alike): 1 up to 127 bins, then bins / 64.
    static int afterGroup(int bins);
    QCPGraph* cdfGraph(bool after) const { return after ? m_cdfAfter : m_cdfBefore; }

private:
    EqualizeRequest request() const;
    QString present(const EqualizeShown& result) override;
    QString fileBaseName(Output kind) const override;
    void clearResult() override;
    const HostImage* resultImage() const override;
    QString resultFileName() const override;
    void fillTimings(const EqualizeRun& run);
    void fillPlot(const EqualizeShown& result);
    /// bin,count,cdf: the plane's histogram and its cumulative sum (256 or 65,536 rows).
    std::string histogramCsv() const;

    QCustomPlot* m_plot;
    QCPGraph* m_before = nullptr;
    QCPGraph* m_after = nullptr;
    QCPGraph* m_cdfBefore = nullptr;
    QCPGraph* m_cdfAfter = nullptr;
    QTableWidget* m_timings;
    QLabel* m_verified;
};

} // namespace histlab::ui
