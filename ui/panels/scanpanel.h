#pragma once
// The Scans tab (issue 5, "Scans"): the reference text's figure, GB/s against the work-group
// size, measured on the device chosen in the Run dock through the JobBridge (lane "scan": a new
// run replaces the one running), drawn point by point as the points arrive.
//   per-segment scans   naive, blelloch, wgscan: one curve each over the work-group sizes (16 …
//                       the device's maximum, or the range chosen), on a log2 axis
//   whole-array scans   reduce-then-scan, lookback: horizontal lines at their GB/s (they run at
//                       their default work-group size), dotted
//   copy kernel         the same run's copy of the same buffer: a dashed gray line, the ceiling
// GB/s = (4 bytes read + 4 written) x values / median kernel time (core/scan.h). Controls: size
// (MiB of uint32 values; auto: 16 on a CPU device, 64 on a GPU), data, repeats, which variants,
// the work-group range; Run (Ctrl+Enter in the tab), Cancel. A table of points (variant, wg,
// GB/s, % of copy, median ms, status, detail; "unsupported" rows in italics with the reason, a
// mismatch in red). Export Plot (PNG/PDF/SVG), Save JSON / Save CSV (scanJson/scanCsv, written
// through a temporary file and a rename).
//
// The controls are remembered in QSettings("HistLab", "HistLab") under "scan/...".
#include "bridge/jobbridge.h"
#include "window/exportdialog.h"
#include "window/exporter.h"

#include <QString>
#include <QWidget>

#include <functional>
#include <map>
#include <optional>
#include <vector>

class QAction;
class QCheckBox;
class QComboBox;
class QCPGraph;
class QCPTextElement;
class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace histlab::ui {

class ScanPanel : public QWidget {
    Q_OBJECT
public:
    explicit ScanPanel(JobBridge* bridge, QWidget* parent = nullptr);

    /// Where the device comes from: asked at each run (the Run dock's selector); "auto" until
    /// set.
    void setDeviceSelectorSource(std::function<QString()> source) {
        m_deviceSelector = std::move(source);
    }

    /// The request the controls describe.
    ScanBenchRequest request() const;
    bool isRunning() const { return m_bridge->scansRunning(); }
    /// The points of the run shown, in arrival order (the running one's so far).
    const std::vector<ScanPoint>& points() const { return m_points; }
    /// The last run that finished (empty before the first, and while a new one runs).
    const std::optional<ScanBenchResult>& result() const { return m_result; }

    ExportResult exportPlotTo(const QString& path, const PlotExportOptions& options);
    /// scanJson / scanCsv of the finished run.
    ExportResult saveJsonTo(const QString& path);
    ExportResult saveCsvTo(const QString& path);
    /// How the export buttons ask for a file (QFileDialog by default; tests inject theirs).
    void setSaveFileChooser(FileChooser chooser) { m_saveChooser = std::move(chooser); }
    bool errorDialogsEnabled() const { return m_errorDialogs; }
    void setErrorDialogsEnabled(bool enabled) { m_errorDialogs = enabled; }

    QCustomPlot* plot() const { return m_plot; }
    /// The curve (per-segment variants) or the horizontal line (whole-array ones) of a variant.
    QCPGraph* variantGraph(ScanVariant variant) const;
    /// The copy kernel's dashed line (empty until the first point says its GB/s).
    QCPGraph* copyGraph() const { return m_copyGraph; }
    /// Size in MiB; 0 is auto (16 on a CPU device, 64 on a GPU).
    QSpinBox* sizeSpin() const { return m_size; }
    QSpinBox* repeatsSpin() const { return m_repeats; }
    QComboBox* distributionCombo() const { return m_distribution; }
    /// Work-group sizes from (16 …) and up to ("device max", 32 …).
    QComboBox* minWorkGroupCombo() const { return m_minWg; }
    QComboBox* maxWorkGroupCombo() const { return m_maxWg; }
    QCheckBox* variantCheck(ScanVariant variant) const;
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* exportPlotButton() const { return m_exportPlot; }
    QPushButton* saveJsonButton() const { return m_saveJson; }
    QPushButton* saveCsvButton() const { return m_saveCsv; }
    QAction* runAction() const { return m_runAction; }
    QTableWidget* pointsTable() const { return m_table; }
    QLabel* statusLabel() const { return m_status; }

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

public slots:
    void startRun();
    void cancelRun();
    void chooseExportPlot();
    void chooseSaveJson();
    void chooseSaveCsv();

signals:
    void runStarted();
    /// One point arrived (and is in the plot and the table).
    void pointAdded(const histlab::ScanPoint& point);
    /// The run ended (finished, cancelled or failed): `message` says how.
    void runEnded(const QString& message);
    void problem(const QString& message);

private:
    void setRunning(bool running);
    void setStatus(const QString& text, bool bad = false);
    void resetPlot(const ScanPlan& plan);
    void addPoint(const ScanPoint& point);
    void addTableRow(const ScanPoint& point);
    void setCopyLine(double gbps);
    void setLevel(QCPGraph* graph, double gbps);
    void fitValueAxis();
    void showFinished(const ScanBenchResult& result);
    void showFailure(const JobError& error);
    void updateControls();
    ExportResult fail(const QString& message);
    QString defaultPath(const QString& suffix) const;
    void restoreSettings();
    void saveSettings() const;

    JobBridge* m_bridge;
    QCustomPlot* m_plot;
    QCPTextElement* m_title = nullptr;
    std::map<ScanVariant, QCPGraph*> m_graphs;
    QCPGraph* m_copyGraph = nullptr;
    std::map<ScanVariant, QCheckBox*> m_checks;
    QSpinBox* m_size;
    QSpinBox* m_repeats;
    QComboBox* m_distribution;
    QComboBox* m_minWg;
    QComboBox* m_maxWg;
    QLabel* m_deviceLabel;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QPushButton* m_exportPlot;
    QPushButton* m_saveJson;
    QPushButton* m_saveCsv;
    QAction* m_runAction;
    QProgressBar* m_progress;
    QLabel* m_status;
    QTableWidget* m_table;
    std::vector<ScanPoint> m_points;
    std::optional<ScanPlan> m_plan;
    std::optional<ScanBenchResult> m_result;
    double m_copyGbps = 0;
    std::function<QString()> m_deviceSelector;
    FileChooser m_saveChooser = nativeSaveFileChooser();
    bool m_errorDialogs = true;
};

} // namespace histlab::ui
