#pragma once
// The dashboard's figure (core/dashboard.h), drawn as results arrive: a grouped bar chart, one
// group per pipeline along x (in the run's order), one bar per device in each group (QCPBars in
// a QCPBarsGroup), GB/s up, or, switched, % of the ceiling that device measured in the same run
// (read-only or copy kernel). A saved run laid under it as a baseline adds, next to each device's
// bar, a hatched, lighter bar of the baseline's result for the same pipeline (on the device of
// the same name, or on the baseline's only device). Results that did not run have no bar (the
// table says why). Hovering a bar names its device, pipeline, variant and figures. Replots are
// queued (rpQueuedReplot): a burst of results costs one replot.
#include <pipelines/dashboard/dashboard.h>

#include <qcustomplot.h>

#include <QString>

#include <optional>
#include <vector>

namespace histlab::ui {

class DashboardPlot : public QCustomPlot {
    Q_OBJECT
public:
    enum class Measure { Gbps, PercentOfCeiling };

    explicit DashboardPlot(QWidget* parent = nullptr);

    /// Starts an empty chart for a planned run: its pipelines along x, a bar series per device.
    void reset(const DashboardRun& plan);
    /// Adds one result (of the run reset() began) and replots.
    void addResult(const DashboardResult& result);
    /// reset() and every result of `run`.
    void showRun(const DashboardRun& run);

    /// Lays `run` under the chart as hatched bars; nullopt removes it.
    void setBaseline(const std::optional<DashboardRun>& run);
    bool hasBaseline() const { return m_baseline.has_value(); }

    void setMeasure(Measure measure);
    Measure measure() const { return m_measure; }

    /// The run shown (the plan and the results so far).
    const DashboardRun& run() const { return m_run; }
    /// Bars drawn for the current run, and for the baseline.
    int barCount() const;
    int baselineBarCount() const;
    /// The bars of the device in this slot of the run (nullptr past the last).
    QCPBars* deviceBars(int slot) const;
    /// The whiskers on the device's bars: from its slowest timed run to its fastest.
    QCPErrorBars* deviceSpread(int slot) const;
    QCPBars* baselineBars(int slot) const;

    /// What hovering at this widget position shows; empty away from any bar.
    QString toolTipAt(const QPoint& pos) const;

    /// The title as shown: the measure, the date, and each device's ceilings once it is done.
    QString titleText() const;

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    /// A new palette (View › Theme) redraws the whiskers in its colours.
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void fillBars(int slot);
    void fitAxes();
    void updateTitle();
    double valueOf(const DashboardResult& result) const;
    /// The key (x) of a pipeline: its position in the run, from 1; 0 when not in the run.
    double keyOf(const std::string& pipeline) const;

    DashboardRun m_run;
    std::optional<DashboardRun> m_baseline;
    Measure m_measure = Measure::Gbps;
    QCPBarsGroup* m_group;
    QCPTextElement* m_title;
    std::vector<QCPBars*> m_bars;         // per device slot
    std::vector<QCPErrorBars*> m_spreads; // per device slot: slowest to fastest run of a bar
    std::vector<QCPBars*> m_baselineBars; // per device slot, when there is a baseline
};

} // namespace histlab::ui
