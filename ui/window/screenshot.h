#pragma once
// What the window does for a script rather than a person: a screenshot of the window (of a tab
// after its run) and an Experiments plot rendered to a file, as app/gui/main.cpp's
// --screenshot, --tab and --render-experiment ask.
#include <QString>

namespace histlab::ui {

class MainWindow;

/// --screenshot: once the first histogram is on screen (and, with `tab`, that tab's run has
/// ended; "Whole Stack": the stack view's window, once its run has ended), grab the window to
/// `path` and quit; exit 1 on an error or after `timeoutMs`.
void arrangeScreenshot(MainWindow& window, const QString& path, const QString& tab, int timeoutMs);

/// --render-experiment: the Experiments tab's plot of a saved run, as a file. 0, or 3 with the
/// reason on stderr (as histlab-cli's input errors).
int renderExperiment(const QString& runPath, const QString& out, const QString& baselinePath);

} // namespace histlab::ui
