#pragma once
// The Help menu's windows: the guide (this project's README, rendered), the keyboard shortcuts
// (every action of the window that has one, read from the actions themselves, so the list
// cannot go stale) and About (the version and what the build and the machine run).
#include "bridge/jobbridge.h"

#include <QString>

#include <functional>
#include <utility>
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

/// One page of the guide: a file of docs/, built into the program, and its title.
struct GuidePage {
    QString file;  ///< "window.md"
    QString title; ///< "The window"
};
/// The guide's pages in the order of its contents: the window's guide first, then each topic.
const std::vector<GuidePage>& guidePages();

/// Help › HistLab Guide (F1): the user's guide (the pages of docs/, built into the program)
/// with its contents beside it (each page and its sections) and a field that finds text in the
/// page shown. It opens on `page` (a guidePages() file) at the section whose heading is
/// `section`, or else the first heading that names it as a word ("Devices" finds "Memory,
/// Devices and Dashboard"), or else the page's top. Links between pages follow, links to other
/// sites open in the system's browser; one to a file of the source tree says so. A non-modal
/// dialog deleted on close; its browser is named "guideBrowser", its contents "guideContents",
/// its find field "guideFind".
QDialog* guideDialog(QWidget* parent, const QString& page = QStringLiteral("window.md"),
                     const QString& section = {});

/// The Help menu, last in `window`'s menu bar: the Guide (F1; `where` says the page and section
/// of what the window shows), Keyboard Shortcuts, About HistLab (`about`) and About Qt.
void addHelpMenu(QMainWindow* window, const std::function<void()>& about,
                 const std::function<std::pair<QString, QString>()>& where);

/// A warning over `parent`, window-modal and opened without exec() (no nested event loop: the
/// window stays live), deleted on close; `details` behind Show Details when not empty.
void showWarningBox(QWidget* parent, const QString& message, const QString& details = {});

} // namespace histlab::ui
