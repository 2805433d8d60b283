#pragma once
// A joint 2-D histogram as a heat map, with its two marginal histograms along its axes: A's
// above the map (sharing its x axis), B's to its right (sharing its y axis, drawn sideways),
// and a colour bar. One QCustomPlot, so the four parts export as one figure; margin groups keep
// the marginals' axes aligned with the map's, and dragging or zooming the map moves them too.
//
// Cells hold counts of pairs on a logarithmic colour scale (a few pairs and a million are both
// visible); an empty cell has no logarithm, so it is stored as NaN and drawn transparent: the
// white background shows where no pair fell. Axes are in sample values (bin i of A spans
// [lo + i·w, lo + (i+1)·w)), each cell drawn over its bin. Hovering shows the cell's bins and
// count. Colocalisation (setColocalisation) draws Costes' regression line over the map and his
// thresholds as a vertical line at TA and a horizontal one at TB: the pairs above both lie up
// and to the right of their crossing.
#include <pipelines/largebin/coloc.h>
#include <pipelines/largebin/joint.h>

#include <qcustomplot.h>

#include <QString>

namespace histlab::ui {

class JointPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit JointPlot(QWidget* parent = nullptr);

    /// Shows `histogram` (binned by `spec`) with its marginals; the axes are labelled
    /// `labelA` (x) and `labelB` (y), the title names the table's size and the pairs counted.
    void setJoint(const JointHistogram& histogram, const JointSpec& spec, const QString& labelA,
                  const QString& labelB);
    /// Empties the map and the marginals (nothing run yet), and the colocalisation's lines.
    void clearJoint();
    /// Draws the regression line b = slope·a + intercept across the map and the thresholds TA
    /// (vertical) and TB (horizontal), in sample values; hidden where `c` has none (not
    /// computed, or no regression line).
    void setColocalisation(const Colocalisation& c);
    /// A second title line under the counts (the MI and NMI, say): on screen and in every
    /// export, so an exported plot shows what the tab shows. Empty: none; cleared with the
    /// joint.
    void setTitleNote(const QString& note);
    QString titleText() const;
    bool hasJoint() const { return m_histogram.binsA > 0; }

    /// The heat map: key = bin of A, value = bin of B; a cell holds its count, NaN when 0.
    QCPColorMap* colorMap() const { return m_map; }
    QCPColorScale* colorScale() const { return m_scale; }
    /// The marginals: A's over its bins (above the map), B's over its bins (right of it).
    QCPGraph* marginalA() const { return m_marginalA; }
    QCPGraph* marginalB() const { return m_marginalB; }
    QCPAxisRect* mapRect() const { return m_mapRect; }
    QCPAxisRect* marginalARect() const { return m_topRect; }
    QCPAxisRect* marginalBRect() const { return m_rightRect; }
    /// Costes' regression line and thresholds on the map (hidden when there are none).
    QCPItemStraightLine* regressionLine() const { return m_regression; }
    QCPItemStraightLine* thresholdALine() const { return m_thresholdA; }
    QCPItemStraightLine* thresholdBLine() const { return m_thresholdB; }

    /// What hovering cell (i, j) says: both bins' ranges and the count; empty outside the
    /// table.
    QString toolTipText(int binA, int binB) const;

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    /// A new palette (View › Theme) redraws the marginals in its colours.
    void changeEvent(QEvent* event) override;

private:
    void styleMarginals();
    void updateTitle();
    QCPAxisRect* m_mapRect;
    QCPAxisRect* m_topRect;
    QCPAxisRect* m_rightRect;
    QCPColorScale* m_scale;
    QString m_titleCounts, m_titleNote;
    QCPColorMap* m_map;
    QCPGraph* m_marginalA;
    QCPGraph* m_marginalB;
    QCPTextElement* m_title;
    QCPItemStraightLine* m_regression;
    QCPItemStraightLine* m_thresholdA;
    QCPItemStraightLine* m_thresholdB;
    JointHistogram m_histogram;
    JointSpec m_spec;
};

} // namespace histlab::ui
