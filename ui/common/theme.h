#pragma once
// The window's colours: the system's (its style and palette, dark where the desktop is dark),
// or Fusion with a light or a dark palette, chosen in View › Theme and remembered in
// QSettings("HistLab", "HistLab") under "theme". The plots draw their background, axes, grid,
// legend and titles in the palette's colours (QCustomPlot's own are black on white).
#include <QColor>
#include <QPalette>
#include <QString>

class QCustomPlot;
class QMenu;

namespace histlab::ui {

enum class Theme { System, Light, Dark };

/// "system", "light", "dark" and back (anything else: System).
QString themeName(Theme theme);
Theme themeFromName(const QString& name);
/// The theme remembered, and remembering one.
Theme savedTheme();
void saveTheme(Theme theme);

/// Applies `theme` to the application: System puts back the style and palette the platform
/// gave (as they were at the first call), Light and Dark use Fusion with their palette.
void applyTheme(Theme theme);
/// Whether a palette is dark (its window colour darker than mid-grey).
bool isDark(const QPalette& palette);

/// The colours the plots draw in under the application's palette: their background, text
/// (axes, ticks, labels, titles, colour bars), grid, and a line for marks that belong to no
/// series (a marginal histogram, a min–max whisker), each readable on the background.
struct PlotColors {
    QColor background;
    QColor text;
    QColor grid;
    QColor mark;
};
PlotColors plotColors();
/// WCAG's contrast ratio of two colours: 1 (the same) to 21 (black on white); text wants 4.5.
double contrastRatio(const QColor& a, const QColor& b);

/// `plot`'s background, axes (colour bars' too), ticks, labels, grid, legend and title rows in
/// the application's palette; call again after the palette changes, then replot.
void applyPlotPalette(QCustomPlot* plot);

/// View › Theme: System, Light and Dark, the saved one checked; choosing one applies and saves
/// it.
void addThemeMenu(QMenu* view);

} // namespace histlab::ui
