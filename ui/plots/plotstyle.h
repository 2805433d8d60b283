#pragma once
// How the tabs' plots look where several draw the same kind of thing: the series colours, a bold
// title row above the axes, a small legend, a value axis from zero, and a horizontal level (a
// ceiling kernel, a whole-array scan) across the plot.
#include <QColor>
#include <QList>
#include <QPointF>
#include <QRectF>
#include <QString>

#include <functional>
#include <utility>

class QCPAxis;
class QCPColorGradient;
class QCPGraph;
class QCPItemText;
class QCPTextElement;
class QCustomPlot;

namespace histlab {
struct TimingStats;
}

namespace histlab::ui {

/// The k-th colour of the series palette (tab10: blue, orange, green, red, purple, …).
QColor seriesColor(int k);
/// Viridis (matplotlib's) for colour maps: dark violet for the least to yellow for the most,
/// readable in gray and by the colour-blind, and no end white on a white plot; cells without a
/// value (NaN) are transparent.
QCPColorGradient viridisGradient();
/// The spread of a throughput `value` (GB/s, or % of a ceiling: bytes over the median time)
/// over the runs `stats` timed: from the slowest run's to the fastest's (value × median / max
/// and value × median / min); `value` twice when the times are missing.
std::pair<double, double> throughputSpread(double value, const TimingStats& stats);
/// A bold title row above the plot's axes.
QCPTextElement* addPlotTitle(QCustomPlot* plot, const QString& text, int pointSize = 9);
/// The legend shown, in a small font, translucent over the data, movable (below; `dropped` is
/// called when a drag ends) and, until it is dragged, placed where it covers least
/// (placeOverlays); hidden while it has no entry. Once per plot.
void showSmallLegend(QCustomPlot* plot, std::function<void()> dropped = {});
/// After each layout of `plot`, puts its legend (unless the user dragged it, or it is laid out
/// beside the axes) and then each visible note of `notes` (in that order) in the corner of the
/// axis rect where it covers the fewest of the curves' pixels: a corner that already holds one
/// stacks the next under it (above it at the bottom), and no box overlaps another. A
/// histogram's filled area makes the bottom corners costly, so the boxes go where the data's
/// top is lowest. Calling it again replaces the notes.
void placeOverlays(QCustomPlot* plot, QList<QCPItemText*> notes = {});
/// The share (0 to 1) of `box` (widget pixels, inside `plot`'s axis rect) that the curves of
/// `plot` cover, as placeOverlays counts it.
double coveredShare(QCustomPlot* plot, const QRectF& box);
/// Lets the user drag `plot`'s legend about its axis rect: a press on the legend that moves 4
/// pixels or more drags it (a click stays a click, the axes do not pan); it stays where it is
/// dropped, inside the axis rect, and `dropped` is called then (to remember it). A legend laid
/// out beside the axes (not in the axis rect's inset layout) does not move. Once per plot.
void makeLegendMovable(QCustomPlot* plot, std::function<void()> dropped = {});
/// A legend laid out beside the axes in rows: as many columns (at most `most`) as the plot's
/// width holds whole, decided again at each replot (a narrow window or a long entry such as
/// "reduce-then-scan (wg 64): 16.22 GB/s" takes fewer columns instead of being cut off).
void fitLegendColumns(QCustomPlot* plot, int most);
/// Puts `plot`'s legend with its top left at `topLeft` (widget pixels), kept inside the axis
/// rect: the inset's free placement, in fractions of the axis rect.
void moveLegendTo(QCustomPlot* plot, const QPointF& topLeft);
/// Before each replot, as many ticks on the horizontal `axis` as its labels (the widest of its
/// range's ends, in its font) fit side by side with a gap: 16-bit values ran together
/// ("18000190002000021000") when zoomed or narrow. Whatever ticker the axis has then.
void spaceTicksByLabelWidth(QCPAxis* axis);
/// The value axis from 0 to 15 % above `top` (0 to 1 while nothing is known).
void fitFromZero(QCPAxis* axis, double top);
/// `graph` as a horizontal line at `value`, from x = `from` to x = `to`.
void setLevel(QCPGraph* graph, double value, double from, double to);

} // namespace histlab::ui
