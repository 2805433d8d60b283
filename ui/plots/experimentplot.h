#pragma once
// An experiment's figure (see core/experiment.h), drawn as its points arrive:
//   banks, reads  GB/s against copies / work-items on a log2 axis, one curve per device x
//                 distribution x series, error bars from the fastest to the slowest run;
//   stages        GB/s per stage (read-only, +scatter, +local reduce, +global merge);
//   atomics       GB/s per variant (naive, local, banked, cpu) on a logarithmic axis: the
//                 differences span three orders of magnitude;
//   groups        a heatmap of GB/s, work-group size across, groups per compute unit up.
//   bins          GB/s against the bin count on a log2 axis (256 ... 65,536, and 257 beside
//                 256), one curve per large-bin method (its colour) and distribution (its
//                 marker), GB/s on a logarithmic axis: the methods span orders of magnitude;
//                 the legend is a key of the colours and markers (one device).
// A saved run can be laid under it as a baseline: the same curves dashed, "(baseline)" in the
// legend. Hovering a point shows every parameter, its timings and its status. Points that
// could not run are not drawn; pointCount() counts the drawn ones.
#include <pipelines/experiments/experiment.h>

#include <qcustomplot.h>

#include <QSet>
#include <QString>

#include <deque>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

namespace histlab::ui {

class ExperimentPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit ExperimentPlot(QWidget* parent = nullptr);

    /// Starts an empty figure for `kind` (the axes, labels and scales of that experiment);
    /// keeps the baseline if it is of the same kind.
    void reset(ExperimentKind kind, const std::vector<DeviceInfo>& devices, std::size_t bytes);
    /// Adds one finished point (of the run reset() began) and replots.
    void addPoint(const ExperimentPoint& point);
    /// reset() and every point of `run`.
    void showRun(const ExperimentRun& run);

    /// Lays `run` under the figure (dashed); nullopt removes it. A run of another kind is
    /// refused (returns false).
    bool setBaseline(const std::optional<ExperimentRun>& run);
    bool hasBaseline() const { return m_baseline.has_value(); }

    ExperimentKind kind() const { return m_kind; }
    /// Points drawn from the current run (not the baseline), and curves they form.
    int pointCount() const { return m_pointCount; }
    int baselinePointCount() const { return m_baselinePointCount; }
    /// The current run's points in arrival order (all of them, drawn or not).
    const std::deque<ExperimentPoint>& points() const { return m_points; }

    /// The groups experiment's heatmap (nullptr for the other experiments).
    QCPColorMap* heatmap() const { return m_heatmap; }

    /// What hovering at this widget position shows; empty away from any point.
    QString toolTipAt(const QPoint& pos) const;

protected:
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    struct Curve {
        QCPGraph* graph = nullptr;
        QCPErrorBars* errors = nullptr;
        std::vector<const ExperimentPoint*> points; // by index of graph data (sorted by x)
    };
    using CurveKey = std::tuple<bool, int, std::string, std::string>; // baseline, dev, dist, ser

    void setUpAxes();
    void updateTitle();
    void fitAxes();
    void plotPoint(const ExperimentPoint& point, bool baseline);
    Curve& curveFor(const ExperimentPoint& point, bool baseline);
    QString curveName(const ExperimentPoint& point, bool baseline) const;
    void rebuild();
    QString describe(const ExperimentPoint& point, bool baseline) const;
    /// bins: a method's colour (its place in allLargeBinMethods) and a distribution's marker.
    static int binsMethodIndex(const std::string& method);
    static QCPScatterStyle binsMarker(const std::string& distribution, const QColor& color,
                                      bool hollow);
    /// Whether the legend is a key (bins on one device) rather than one entry per curve.
    bool keyedLegend() const;
    /// One legend entry of the key (once per name).
    void addKey(const QString& name, const QPen& line, const QCPScatterStyle& marker);

    ExperimentKind m_kind = ExperimentKind::Banks;
    std::vector<DeviceInfo> m_devices;
    std::size_t m_bytes = 0;
    std::deque<ExperimentPoint> m_points; // a deque: curves point into it
    std::optional<ExperimentRun> m_baseline;
    std::map<CurveKey, Curve> m_curves;
    QSet<QString> m_keys; // the key's entries (graphs without data)
    QCPTextElement* m_title = nullptr;
    QString m_date; // of a shown (saved) run
    QCPColorMap* m_heatmap = nullptr;
    QCPColorScale* m_scale = nullptr;
    int m_pointCount = 0;
    int m_baselinePointCount = 0;
};

/// The i-th color of the figures' palette (eight colors, then again), for series told apart
/// by color (curves of experiments, devices of the dashboard).
QColor paletteColor(int i);

} // namespace histlab::ui
