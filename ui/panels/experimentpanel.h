#pragma once
// The Experiments tab: choose an experiment, the devices, the distributions (the shown image
// among them), the input size and the repeats; Run, and the figure grows point by point
// (ExperimentPlot) while a table lists every point with its parameters and status; Cancel.
// A run is saved as JSON (the core's format, what `histlab-cli sweep --json` writes) and opened
// again; a saved run can be laid under the current one as a baseline. The plot exports as
// PNG/JPG/PDF/SVG, the points as CSV (one row per point, every parameter a column, the
// baseline's GB/s and the ratio when there is one).
#include "bridge/jobbridge.h"
#include "window/exportdialog.h"
#include "window/exporter.h"

#include <pipelines/experiments/experiment.h>

#include <QString>
#include <QWidget>

#include <functional>
#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace histlab::ui {

class ExperimentPlot;

class ExperimentPanel : public QWidget {
    Q_OBJECT
public:
    explicit ExperimentPanel(JobBridge* bridge, QWidget* parent = nullptr);

    ExperimentPlot* plot() const { return m_plot; }
    QTableWidget* table() const { return m_table; }
    QComboBox* experimentCombo() const { return m_experiment; }
    QListWidget* deviceList() const { return m_devices; }
    QListWidget* distributionList() const { return m_distributions; }
    QDoubleSpinBox* sizeSpin() const { return m_size; }
    QSpinBox* repeatsSpin() const { return m_repeats; }
    QSpinBox* maxRepeatsSpin() const { return m_maxRepeats; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }

    /// The devices to offer (the Run dock's list); the first GPU, else the first, is checked.
    void setDevices(const std::vector<DeviceEntry>& devices);
    /// The image the window shows: the "image" distribution repeats its gray plane.
    void setImageSource(const QString& source);

    bool isRunning() const { return m_bridge->experimentRunning(); }
    /// The last run that finished (or was opened), with the points that arrived.
    const std::optional<ExperimentRun>& run() const { return m_finished; }

    /// How the Save/Open/Export buttons ask for files (native dialogs by default).
    void setSaveFileChooser(FileChooser chooser) { m_saveChooser = std::move(chooser); }
    void setOpenFileChooser(FileChooser chooser) { m_openChooser = std::move(chooser); }

    ExportResult saveRunTo(const QString& path);
    ExportResult openRunFrom(const QString& path);
    ExportResult openBaselineFrom(const QString& path);
    void clearBaseline();
    ExportResult exportCsvTo(const QString& path);
    ExportResult exportPlotTo(const QString& path, const PlotExportOptions& options);

public slots:
    /// Starts the experiment chosen with the controls' values.
    void startRun();
    void cancelRun();

signals:
    void runStarted();
    /// The run ended (finished, cancelled or failed): `message` says how.
    void runEnded(const QString& message);
    /// A save, open or export failed, or a run could not start: the reason.
    void problem(const QString& message);

private:
    void addPoint(const ExperimentPoint& point);
    void addTableRow(const ExperimentPoint& point, const std::vector<DeviceInfo>& devices);
    void fillTable(const ExperimentRun& run);
    void setRunning(bool running);
    void choose(bool save, const QString& caption, const QString& filter,
                const std::function<void(const QString&)>& then);
    ExportResult fail(const QString& message);

    JobBridge* m_bridge;
    ExperimentPlot* m_plot;
    QTableWidget* m_table;
    QComboBox* m_experiment;
    QListWidget* m_devices;
    QListWidget* m_distributions;
    QDoubleSpinBox* m_size;
    QSpinBox* m_repeats;
    QSpinBox* m_maxRepeats;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_status;
    QString m_imageSource;
    std::vector<DeviceEntry> m_deviceEntries;
    std::optional<ExperimentRun> m_finished; // finished or opened
    std::optional<ExperimentRun> m_baseline; // laid under the plot
    ExperimentRun m_live;                    // the run in progress (its points so far)
    FileChooser m_saveChooser = nativeSaveFileChooser();
    FileChooser m_openChooser;
};

} // namespace histlab::ui
