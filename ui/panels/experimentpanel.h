#pragma once
// The Experiments tab: choose an experiment, the devices, the distributions (the shown image
// among them; each experiment's own, as the core lists them), the bin counts (bins), the input
// size and the repeats; Run, and the figure grows point by point
// (ExperimentPlot) while a table lists every point with its parameters and status; Cancel.
// A run is saved as JSON (the core's format, what `histlab-cli sweep --json` writes) and opened
// again; a saved run can be laid under the current one as a baseline. The plot exports as
// PNG/JPG/PDF/SVG, the points as CSV (one row per point, every parameter a column, the
// baseline's GB/s and the ratio when there is one). A run goes on until it ends or is
// cancelled: Run waits for it.
#include "panels/baselinepanel.h"
#include "panels/resultpanel.h"
#include "views/checklist.h"

#include <pipelines/experiments/experiment.h>

#include <optional>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QTableWidget;

namespace histlab::ui {

class ExperimentPlot;

/// An experiment (lane "experiment").
struct ExperimentRequest {
    ExperimentParams params;  ///< as histlab-cli sweep's; params.image is set from imageSource
    std::vector<int> devices; ///< device indices; empty: the default device
    QString imageSource;      ///< for the "image" distribution: a file or resource path
    int imagePage = 1;        ///< its page (a multi-page TIFF), from 1
};

class ExperimentPanel : public ResultPanel<ExperimentRun, BaselinePanel> {
    Q_OBJECT
public:
    explicit ExperimentPanel(JobBridge* bridge, QWidget* parent = nullptr);
    /// The devices to offer (the device tool bar's list); the first GPU, else the first, is
    /// checked.
    void setDevices(const std::vector<DeviceListing>& devices);
    /// The image the window shows (`page` of a multi-page TIFF): the "image" distribution
    /// repeats its gray plane.
    void setImageSource(const QString& source, int page = 1);
    /// Starts the experiment chosen with the controls' values (not while one runs).
    void startRun() override;
    void clearBaseline() override;

    ExperimentPlot* plot() const { return m_plot; }
    QTableWidget* table() const { return m_table; }
    QComboBox* experimentCombo() const { return m_experiment; }
    QDoubleSpinBox* sizeSpin() const { return m_size; }
    QSpinBox* maxRepeatsSpin() const { return m_maxRepeats; }
    CheckList* deviceList() const { return m_devices; }
    CheckList* distributionList() const { return m_distributions; }
    /// The bins experiment's bin counts (shown for bins only).
    CheckList* binsList() const { return m_bins; }

signals:
    /// One point arrived (and is in the plot and the table).
    void pointAdded(const histlab::ExperimentPoint& point);

private:
    /// The controls of the chosen experiment: its distributions, the bin counts for bins.
    void showKindControls();
    void showItem(const std::any& item) override;
    void addTableRow(const ExperimentPoint& point, const std::vector<DeviceInfo>& devices);
    void fillTable(const ExperimentRun& run);
    QString present(const ExperimentRun& run) override;
    QString cancelledStatus() const override;
    std::string runJson() const override;
    std::string runCsv() const override;
    QString showSavedRun(const std::string& json) override;
    QString useBaseline(const std::string& json) override;

    ExperimentPlot* m_plot;
    QTableWidget* m_table;
    QComboBox* m_experiment;
    CheckList* m_devices;
    CheckList* m_distributions;
    CheckList* m_bins;
    QDoubleSpinBox* m_size;
    QSpinBox* m_maxRepeats;
    QString m_imageSource;
    int m_imagePage = 1;
    std::vector<DeviceListing> m_deviceEntries;
    std::optional<ExperimentRun> m_baseline; // laid under the plot
    ExperimentRun m_live;                    // the run in progress (its points so far)
};

} // namespace histlab::ui
