#pragma once
// The Dashboard tab (issue 6): choose devices (a checkable list from the worker's listing) and
// pipelines (every one registered with the core: the tab names none), the input size and the
// repeats; Run (Ctrl+Enter in the tab), and the results arrive live through the JobBridge (lane
// "dashboard": a new run replaces the one running): a grouped bar chart (DashboardPlot: x the
// pipelines, a bar per device, GB/s or % of that device's own ceiling) and, beside it, a table
// of every result (device, pipeline, GB/s, ceiling, %, status, the baseline's GB/s and the
// ratio, the variant or the reason). Cancel keeps what arrived.
// Save JSON writes the run (dashboardJson, what `histlab-cli dashboard --json` writes); Open
// shows a saved run; Baseline lays a saved run under the chart (hatched bars) and fills the
// table's ratio column. Export Plot writes PNG/JPG/PDF/SVG through the export dialog; Export CSV
// writes dashboardCsv (with the baseline's columns when there is one). Files are written through
// a temporary file and a rename.
//
// The controls are remembered in QSettings("HistLab", "HistLab") under "dashboard/...".
#include "bridge/jobbridge.h"
#include "window/exportdialog.h"
#include "window/exporter.h"

#include <QString>
#include <QWidget>

#include <functional>
#include <optional>

class QAction;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace histlab::ui {

class DashboardPlot;

class DashboardPanel : public QWidget {
    Q_OBJECT
public:
    /// Listens to the bridge's device listings and dashboard lane.
    explicit DashboardPanel(JobBridge* bridge, QWidget* parent = nullptr);

    /// The request the controls describe (checked devices and pipelines, size, repeats).
    DashboardRequest request() const;
    bool isRunning() const { return m_bridge->dashboardRunning(); }
    /// The run shown: the one running (its results so far), the last finished, or one opened.
    const DashboardRun& shownRun() const { return m_shown; }
    /// True when shownRun() is complete (finished or opened): what Save JSON writes.
    bool hasCompleteRun() const { return m_complete; }
    const std::optional<DashboardRun>& baseline() const { return m_baseline; }

    ExportResult saveJsonTo(const QString& path);
    ExportResult openRunFrom(const QString& path);
    ExportResult openBaselineFrom(const QString& path);
    void clearBaseline();
    ExportResult exportCsvTo(const QString& path);
    ExportResult exportPlotTo(const QString& path, const PlotExportOptions& options);
    /// How the file buttons ask for files (native dialogs by default; tests inject theirs).
    void setSaveFileChooser(FileChooser chooser) { m_saveChooser = std::move(chooser); }
    void setOpenFileChooser(FileChooser chooser) { m_openChooser = std::move(chooser); }

    DashboardPlot* plot() const { return m_plot; }
    QTableWidget* table() const { return m_table; }
    QListWidget* deviceList() const { return m_devices; }
    QListWidget* pipelineList() const { return m_pipelines; }
    /// MiB per input; 0: the device's default (256 MiB on a GPU, 64 MiB on a CPU device).
    QDoubleSpinBox* sizeSpin() const { return m_size; }
    QSpinBox* repeatsSpin() const { return m_repeats; }
    /// "GB/s" or "% of ceiling": what the bars show.
    QComboBox* measureCombo() const { return m_measure; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QAction* runAction() const { return m_runAction; }
    QLabel* statusLabel() const { return m_status; }

    enum Column {
        DeviceColumn,
        PipelineColumn,
        GbpsColumn,
        CeilingColumn,
        PercentColumn,
        StatusColumn,
        BaselineColumn,
        RatioColumn,
        VariantColumn,
        ColumnCount
    };

public slots:
    void startRun();
    void cancelRun();
    void chooseExportPlot();
    void chooseExportCsv();
    void chooseSaveJson();
    void chooseOpenRun();
    void chooseBaseline();

signals:
    void runStarted();
    /// One result arrived (and is in the chart and the table).
    void resultAdded(const histlab::DashboardResult& result);
    /// The run ended (finished, cancelled or failed): `message` says how.
    void runEnded(const QString& message);
    /// A run could not start, a file could not be read or written: the reason.
    void problem(const QString& message);

private:
    void setDevices(const std::vector<DeviceListing>& devices);
    void showPlan(const DashboardRun& plan);
    void addResult(const DashboardResult& result);
    void showFinished(const DashboardRun& run);
    void showFailure(const JobError& error);
    void fillTable();
    void addTableRow(const DashboardResult& result);
    void setRunning(bool running);
    void setStatus(const QString& text, bool bad = false);
    void updateControls();
    ExportResult fail(const QString& message);
    ExportResult succeed(const QString& message);
    QString startPath(const QString& name) const;
    void restoreSettings();
    void saveSettings() const;

    JobBridge* m_bridge;
    DashboardPlot* m_plot;
    QTableWidget* m_table;
    QListWidget* m_devices;
    QListWidget* m_pipelines;
    QDoubleSpinBox* m_size;
    QSpinBox* m_repeats;
    QComboBox* m_measure;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QPushButton* m_saveJson;
    QPushButton* m_exportCsv;
    QPushButton* m_exportPlot;
    QAction* m_runAction;
    QProgressBar* m_progress;
    QLabel* m_status;
    DashboardRun m_shown;
    bool m_complete = false;
    std::optional<DashboardRun> m_baseline;
    FileChooser m_saveChooser = nativeSaveFileChooser();
    FileChooser m_openChooser = nativeOpenFileChooser();
};

} // namespace histlab::ui
