#pragma once
// The Help menu's windows: the guide (this project's README, rendered), the keyboard shortcuts
// (every action of the window that has one, read from the actions themselves, so the list
// cannot go stale) and About (the version and what the build and the machine run).
#include "bridge/jobbridge.h"

#include <QString>

#include <functional>
#include <vector>

class QDialog;
class QMainWindow;
class QWidget;

namespace histlab::ui {

/// "0.1.0 (git 0123456789ab)": HistLab's version and the commit it was built from.
QString histlabVersion();

/// About HistLab as HTML: the version; Qt compiled against and running; the image libraries
/// (imageLibraryVersions); each OpenCL device of `devices` with its platform, OpenCL and
/// driver versions ("not listed yet" while the list is on its way; `listError` when it failed).
QString aboutText(const std::vector<DeviceListing>& devices, const QString& listError);

/// About HistLab (aboutText) in a window-modal box named "aboutBox" over `parent`, without a
/// nested event loop.
void openAboutBox(QWidget* parent, const std::vector<DeviceListing>& devices,
                  const QString& listError);

/// Help › Keyboard Shortcuts: a table of every action under `window` that has a shortcut (what
/// it does, its keys), sorted by name; a non-modal dialog deleted on close.
QDialog* shortcutsDialog(QWidget* window);

/// Help › HistLab Guide (F1): README.md, embedded at build time, rendered in a browser whose
/// links to other sites open in the system's browser; a non-modal dialog deleted on close.
QDialog* guideDialog(QWidget* parent);
/// The README as the guide shows it: its pictures (files of the source tree, not in the
/// program) named in a line each instead of drawn as broken images.
QString guideMarkdown(const QString& readme);

/// The Help menu, last in `window`'s menu bar: the Guide (F1), Keyboard Shortcuts, About
/// HistLab (`about`) and About Qt.
void addHelpMenu(QMainWindow* window, const std::function<void()>& about);

/// A warning over `parent`, window-modal and opened without exec() (no nested event loop: the
/// window stays live), deleted on close; `details` behind Show Details when not empty.
void showWarningBox(QWidget* parent, const QString& message, const QString& details = {});

} // namespace histlab::ui
