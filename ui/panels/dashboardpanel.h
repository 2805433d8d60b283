#pragma once
// The Dashboard tab: choose devices (a checkable list from the worker's listing) and pipelines
// (every one registered with the core: the tab names none), the input size and the repeats; Run,
// and the results arrive live (lane "dashboard": a new run replaces the one running): a grouped
// bar chart (DashboardPlot: x the pipelines, a bar per device, GB/s or % of that device's own
// ceiling) and, beside it, a table of every result (device, pipeline, GB/s, ceiling, %, status,
// the baseline's GB/s and the ratio, the variant or the reason). Cancel keeps what arrived.
// Save JSON writes the run (dashboardJson, what `histlab-cli dashboard --json` writes); Open
// shows a saved run; Baseline lays a saved run under the chart (hatched bars) and fills the
// table's ratio column. Export Plot writes PNG/JPG/PDF/SVG through the export dialog; Export CSV
// writes dashboardCsv (with the baseline's columns when there is one).
#include "panels/baselinepanel.h"
#include "panels/resultpanel.h"
#include "views/checklist.h"

#include <pipelines/dashboard/dashboard.h>

#include <optional>
#include <string>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QTableWidget;

namespace histlab::ui {

class DashboardPlot;

/// A dashboard run (lane "dashboard"): the chosen pipelines on the chosen devices.
struct DashboardRequest {
    std::vector<int> devices;           ///< device indices; empty: the default device
    std::vector<std::string> pipelines; ///< registered names; empty: all of them
    DashboardOptions options;
};

class DashboardPanel : public ResultPanel<DashboardRun, BaselinePanel> {
    Q_OBJECT
public:
    /// Listens to the bridge's device listings and to its own lane.
    explicit DashboardPanel(JobBridge* bridge, QWidget* parent = nullptr);
    /// The request the controls describe (checked devices and pipelines, size, repeats).
    DashboardRequest request() const;
    void startRun() override;
    void clearBaseline() override;

    /// The run shown: the one running (its results so far), the last finished, or one opened.
    const DashboardRun& shownRun() const { return m_shown; }
    /// True when shownRun() is complete (finished or opened, as result()): what Save JSON
    /// writes.
    bool hasCompleteRun() const { return result().has_value(); }
    DashboardPlot* plot() const { return m_plot; }
    QTableWidget* table() const { return m_table; }
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

    CheckList* deviceList() const { return m_devices; }
    CheckList* pipelineList() const { return m_pipelines; }
    /// MiB per input; 0: the device's default (256 MiB on a GPU, 64 MiB on a CPU device).
    QDoubleSpinBox* sizeSpin() const { return m_size; }
    /// "GB/s" or "% of ceiling": what the bars show.
    QComboBox* measureCombo() const { return m_measure; }
    /// The saved run laid under the one shown, if any.
    const std::optional<DashboardRun>& baseline() const { return m_baseline; }

signals:
    /// One result arrived (and is in the chart and the table).
    void resultAdded(const histlab::DashboardResult& result);

private:
    void setDevices(const std::vector<DeviceListing>& devices);
    void saveSettings() const override;
    void showItem(const std::any& item) override;
    QString present(const DashboardRun& run) override;
    QString cancelledStatus() const override;
    void fillTable();
    /// Columns fitted to their text, the device column at most 170 pixels (cut in the middle).
    void fitColumns();
    void addTableRow(const DashboardResult& result);
    std::string runJson() const override;
    std::string runCsv() const override;
    QString showSavedRun(const std::string& json) override;
    QString useBaseline(const std::string& json) override;

    DashboardPlot* m_plot;
    QTableWidget* m_table;
    CheckList* m_devices;
    CheckList* m_pipelines;
    QDoubleSpinBox* m_size;
    QComboBox* m_measure;
    DashboardRun m_shown;
    std::optional<DashboardRun> m_baseline;
};

} // namespace histlab::ui
