#pragma once
// The Scans tab: the reference text's figure, GB/s against the work-group size, measured on the
// device chosen in the tool bar above the tabs (lane "scan": a new run replaces the one running),
// drawn point by point as the points arrive.
//   per-segment scans   naive, blelloch, wgscan: one curve each over the work-group sizes (16 …
//                       the device's maximum, or the range chosen), on a log2 axis
//   whole-array scans   reduce-then-scan, lookback: horizontal lines at their GB/s (they run at
//                       their default work-group size), dotted
//   copy kernel         the same run's copy of the same buffer: a dashed gray line, the ceiling
// GB/s = (4 bytes read + 4 written) x values / median kernel time (core/scan.h). Controls: size
// (MiB of uint32 values; auto: 16 on a CPU device, 64 on a GPU), data, repeats, which variants,
// the work-group range. A table of points (variant, wg, GB/s, % of copy, median ms, status,
// detail; "unsupported" rows in italics with the reason, a mismatch in red). Export Plot
// (PNG/JPG/PDF/SVG), Save JSON / Save CSV (scanJson/scanCsv, as histlab-cli scan writes them).
#include "panels/copykernelline.h"
#include "panels/resultpanel.h"

#include <pipelines/scan/scan.h>

#include <map>
#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QCPGraph;
class QCPTextElement;
class QCustomPlot;
class QSpinBox;
class QTableWidget;

namespace histlab::ui {

/// The scan benchmark (lane "scan"): the per-segment scans at every work-group size from
/// minWorkGroupSize to maxWorkGroupSize (powers of two the device allows), the whole-array
/// scans at their default size, the copy kernel on the same buffer.
struct ScanBenchRequest {
    QString device = QStringLiteral("auto"); ///< a core device selector (see selectDevice)
    std::vector<ScanVariant> variants = allScanVariants();
    std::size_t bytes = 0; ///< of uint32 values; 0: the core's planScan decides (16 MiB on a
                           ///< CPU device, 64 MiB elsewhere)
    int repeats = 5;
    std::size_t minWorkGroupSize = 16;
    std::size_t maxWorkGroupSize = 0; ///< 0: the device's maximum
    ScanDistribution distribution = ScanDistribution::Random;
};

/// What a scan benchmark is about to run, streamed before its first point.
struct ScanPlan {
    ScanBenchRequest request;
    DeviceInfo device;
    std::size_t elements = 0;
    std::vector<std::size_t> workGroupSizes; ///< of the per-segment variants
    int points = 0;                          ///< how many points will arrive
};

/// One finished scan benchmark: every point, each judged against the run's one copy kernel.
struct ScanBenchResult {
    ScanPlan plan;
    ScanRun run;
};

class ScanPanel : public ResultPanel<ScanBenchResult> {
    Q_OBJECT
public:
    explicit ScanPanel(JobBridge* bridge, QWidget* parent = nullptr);
    void startRun() override;

    /// The figure: a curve (per-segment variants) or a horizontal line (whole-array ones) per
    /// variant, and the copy kernel's dashed line (empty until the first point says its GB/s).
    QCustomPlot* plot() const { return m_plot; }
    QCPGraph* variantGraph(ScanVariant variant) const;
    QCPGraph* copyGraph() const { return m_copyLine->graph(); }
    /// The points of the run shown, in arrival order (the running one's so far).
    const std::vector<ScanPoint>& points() const { return m_points; }
    QTableWidget* pointsTable() const { return m_table; }
    enum Column {
        VariantColumn,
        WorkGroupColumn,
        GbpsColumn,
        PercentColumn,
        MedianColumn,
        StatusColumn,
        DetailColumn,
        ColumnCount
    };

    QCheckBox* variantCheck(ScanVariant variant) const;
    /// Size in MiB; 0 is auto (16 on a CPU device, 64 on a GPU).
    QSpinBox* sizeSpin() const { return m_size; }
    QComboBox* distributionCombo() const { return m_distribution; }
    /// Work-group sizes from (16 …) and up to ("device max", 32 …).
    QComboBox* minWorkGroupCombo() const { return m_minWg; }
    QComboBox* maxWorkGroupCombo() const { return m_maxWg; }

signals:
    /// One point arrived (and is in the plot and the table).
    void pointAdded(const histlab::ScanPoint& point);

private:
    /// The request the controls describe.
    ScanBenchRequest request() const;
    void saveSettings() const override;
    void showItem(const std::any& item) override;
    QString present(const ScanBenchResult& result) override;
    QString cancelledStatus() const override;
    void clearPlot();
    void resetPlot(const ScanPlan& plan);
    void addPoint(const ScanPoint& point);
    void addTableRow(const ScanPoint& point);
    void fitValueAxis();

    std::vector<ScanPoint> m_points;
    std::optional<ScanPlan> m_plan;
    QCustomPlot* m_plot;
    QCPTextElement* m_title = nullptr;
    std::map<ScanVariant, QCPGraph*> m_graphs;
    std::unique_ptr<CopyKernelLine> m_copyLine;
    std::map<ScanVariant, QCheckBox*> m_checks;
    QSpinBox* m_size;
    QComboBox* m_distribution;
    QComboBox* m_minWg;
    QComboBox* m_maxWg;
    QTableWidget* m_table;
};

} // namespace histlab::ui
