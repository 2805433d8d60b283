#pragma once
// The Joint tab's Register page: registers the pair the Histogram page has chosen (FIXED = image
// A with its channel, MOVING = image B with its channel; the mask too) by mutual information on
// the device chosen in the Run dock (lane "register"). It runs what histlab-cli register runs
// (planRegister, runRegisterJob).
//   controls   transform (rigid, translation), metric (MI, NMI), bins per axis, pyramid levels,
//              the grid's half-widths (shift in pixels, angle in degrees)
//   the curve  the best metric against the evaluations so far, one line per pyramid level, drawn
//              as the search finds them
//   the pair   FIXED and the registered MOVING as a checkerboard, a blend or their difference,
//              or MOVING as it was, to judge the result by eye
//   numbers    the transform, MI and NMI at the start and at the end, the evaluations and
//              evaluations a second, each level verified against the CPU reference
//   files      Export Plot… (the curve), Save Transform (CSV: registrationCsv), Save Run (JSON:
//              registrationJson), Save Registered Image…, as histlab-cli register writes them
#include "panels/resultpanel.h"

#include <pipelines/register/registerpipeline.h>

#include <QImage>

class QComboBox;
class QCPGraph;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;

namespace histlab::ui {

class JointPanel;

/// What the Register page asks the worker: the pair (as the Histogram page chose it) and the
/// search's settings.
struct RegisterJobRequest {
    QString fixed, moving; ///< file or resource paths
    QString fixedChannel = QStringLiteral("gray"), movingChannel = QStringLiteral("gray");
    QString mask; ///< empty: none
    RegisterOptions options;
    QString device = QStringLiteral("auto");
};

/// One finished registration: what was asked, the core's result, and the 8-bit planes compared
/// (FIXED's channel, MOVING's channel before and after), for the view.
struct RegisterShown {
    RegisterJobRequest request;
    RegisterJobResult run;
    QImage fixed, movingBefore, registered;
};

class RegisterPanel : public ResultPanel<RegisterShown> {
    Q_OBJECT
public:
    /// `pair` is the Histogram page whose images, channels and mask are registered.
    RegisterPanel(JobBridge* bridge, const JointPanel* pair, QWidget* parent = nullptr);
    void startRun() override;

    /// How the pair is shown.
    enum class View { Checkerboard, Blend, Difference, Before };
    QComboBox* transformCombo() const { return m_transform; }
    QComboBox* metricCombo() const { return m_metric; }
    QComboBox* binsCombo() const { return m_bins; }
    QComboBox* pyramidCombo() const { return m_pyramid; }
    QDoubleSpinBox* maxShiftSpin() const { return m_maxShift; }
    QDoubleSpinBox* maxAngleSpin() const { return m_maxAngle; }
    QComboBox* viewCombo() const { return m_view; }
    QCustomPlot* curvePlot() const { return m_plot; }
    /// The picture the view shows (FIXED's size).
    const QImage& viewImage() const { return m_viewImage; }
    QLabel* pairLabel() const { return m_pair; }
    QLabel* transformLabel() const { return m_transformText; }
    QLabel* metricLabel() const { return m_metricText; }
    QLabel* evaluationsLabel() const { return m_evaluations; }

    /// The pair as the view composes it: tiles of `tile` px alternating FIXED and the
    /// registered MOVING, their mean, or |FIXED − MOVING|; MOVING as it was for Before.
    static QImage compose(const QImage& fixed, const QImage& moving, View view, int tile);

protected:
    void showItem(const std::any& item) override;

private:
    RegisterJobRequest request() const;
    QString present(const RegisterShown& result) override;
    QString cancelledStatus() const override;
    bool canRun() const override;
    QString fileBaseName(Output kind) const override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void updatePairText();
    void showView();
    QCPGraph* levelGraph(int level);
    /// The curve's axes fitted to its points, with a margin.
    void fitCurve();

    const JointPanel* m_pairSource;
    QComboBox* m_transform;
    QComboBox* m_metric;
    QComboBox* m_bins;
    QComboBox* m_pyramid;
    QDoubleSpinBox* m_maxShift;
    QDoubleSpinBox* m_maxAngle;
    QComboBox* m_view;
    QCustomPlot* m_plot;
    QLabel* m_picture;
    QLabel* m_pair;
    QLabel* m_transformText;
    QLabel* m_metricText;
    QLabel* m_evaluations;
    QImage m_viewImage;
    std::map<int, QCPGraph*> m_levels; ///< the curve's line of each level
};

} // namespace histlab::ui
