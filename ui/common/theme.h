#pragma once
// The window's colours: the system's (its style and palette, dark where the desktop is dark),
// or Fusion with a light or a dark palette, chosen in View › Theme and remembered in
// QSettings("HistLab", "HistLab") under "theme". The plots draw their background, axes, grid,
// legend and titles in the palette's colours (QCustomPlot's own are black on white).
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

/// `plot`'s background, axes, ticks, labels, grid, legend and title rows in the application's
/// palette; call again after the palette changes, then replot.
void applyPlotPalette(QCustomPlot* plot);

/// View › Theme: System, Light and Dark, the saved one checked; choosing one applies and saves
/// it.
void addThemeMenu(QMenu* view);

} // namespace histlab::ui
