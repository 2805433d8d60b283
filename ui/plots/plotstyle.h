#pragma once
// How the tabs' plots look where several draw the same kind of thing: the series colours, a bold
// title row above the axes, a small legend, a value axis from zero, and a horizontal level (a
// ceiling kernel, a whole-array scan) across the plot.
#include <QColor>
#include <QString>

class QCPAxis;
class QCPGraph;
class QCPTextElement;
class QCustomPlot;

namespace histlab::ui {

/// The k-th colour of the series palette (tab10: blue, orange, green, red, purple, …).
QColor seriesColor(int k);
/// A bold title row above the plot's axes.
QCPTextElement* addPlotTitle(QCustomPlot* plot, const QString& text, int pointSize = 9);
/// The legend shown, in a small font.
void showSmallLegend(QCustomPlot* plot);
/// The value axis from 0 to 15 % above `top` (0 to 1 while nothing is known).
void fitFromZero(QCPAxis* axis, double top);
/// `graph` as a horizontal line at `value`, from x = `from` to x = `to`.
void setLevel(QCPGraph* graph, double value, double from, double to);

} // namespace histlab::ui
