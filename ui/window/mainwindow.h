#pragma once
// HistLab's main window: its menus, its docks (Images, Log, Run), the tabs from one table (the
// Image tab first: the image, its histograms and statistics; see panels/imagepanel.h) and the
// settings it remembers. All work goes through a JobBridge; the window only asks and listens,
// so it never blocks and never touches OpenCL.
#include "bridge/jobbridge.h"
#include "common/exportdialog.h"
#include "panels/batchonlist.h"
#include "panels/imagepanel.h"
#include "panels/runpanel.h"
#include "views/imagelist.h"

#include <QDockWidget>
#include <QKeySequence>
#include <QMainWindow>
#include <QString>

#include <functional>
#include <vector>

class QMenu;
class QMimeData;
class QTabWidget;

namespace histlab::ui {

class ImageList;
class JobPanel;
class StackPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
    Q_PROPERTY(bool errorDialogsEnabled READ errorDialogsEnabled WRITE setErrorDialogsEnabled)
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// The bundled sample photograph, as a Qt resource path.
    static QString sampleImagePath() { return QStringLiteral(":/histlab/sample.png"); }

    /// The core device selector used for the next runs ("auto", an index, "gpu", "cpu", ...);
    /// without one, the device remembered from the Run panel (see RunPanel).
    void setDeviceSelector(const QString& selector) { m_runPanel->setDeviceSelector(selector); }
    QString deviceSelector() const { return m_runPanel->deviceSelector(); }

    /// Errors always go to the status bar, lastError() and errorShown(); with dialogs enabled
    /// (the default) they also open a window-modal message box. Tests and scripts turn it off.
    /// The same holds for the tabs' own failures (a file that cannot be written, …).
    bool errorDialogsEnabled() const { return m_errorDialogs; }
    void setErrorDialogsEnabled(bool enabled);

    /// The tab of type T (ImagePanel, BlurPanel, …), else the dock's panel of type T (RunPanel,
    /// ImageList, LogPanel); nullptr when there is none.
    template <class T> T* panel() const {
        for (const Tab& tab : m_tabTable) {
            if (auto* widget = qobject_cast<T*>(tab.widget))
                return widget;
            if (auto* page = tab.widget->findChild<T*>()) // a tab of pages (Joint)
                return page;
        }
        for (const QDockWidget* dock : m_docks)
            if (auto* widget = qobject_cast<T*>(dock->widget()))
                return widget;
        return nullptr;
    }
    /// The Images dock (its list: every image opened in this session, with thumbnails).
    QDockWidget* imagesDock() const { return m_docks[0]; }
    /// The Log dock (View › Log): what the core and the window reported.
    QDockWidget* logDock() const { return m_docks[1]; }
    /// The tabs that run jobs, in tab order.
    std::vector<JobPanel*> jobPanels() const;
    /// The panel a tab shows: the tab itself, or the current page of a tab of pages.
    static JobPanel* shownPanel(QWidget* tab);
    /// "Image" (the image, its histograms and statistics), "Experiments", "Blur", "Equalize",
    /// "Joint", "Words", "Scans", "Devices", "Dashboard" and "Memory".
    QTabWidget* tabs() const { return m_tabs; }
    /// The stack view (View › Whole Stack): a window of its own beside this one, so that the
    /// image and its pages stay in sight while the stack is counted; it follows the image shown.
    StackPanel* stackPanel() const { return m_stack; }
    QWidget* stackWindow() const { return m_stackWindow; }
    /// File › Open Recent, rebuilt each time it opens.
    QMenu* recentMenu() const { return m_recentMenu; }
    QString lastError() const { return m_lastError; }
    /// True while the Image tab's analysis has not answered.
    bool isBusy() const { return m_image->isBusy(); }

    /// Where the open and export dialogs start: the folder of the last file opened or exported
    /// (remembered in QSettings("HistLab", "HistLab") under "lastFolder").
    QString lastFolder() const { return histlab::ui::lastFolder(); }
    /// How export actions ask for a file (QFileDialog by default; tests inject their own).
    void setSaveFileChooser(FileChooser chooser) {
        m_image->setSaveFileChooser(std::move(chooser));
    }

public slots:
    /// Starts loading and analysing an image on the Image tab; returns at once. The new image
    /// is shown as soon as it is decoded (imageShown), its histograms once computed
    /// (histogramShown). A file that cannot be read leaves the previous image in place; a
    /// failure after decoding (a device error, Cancel) puts the previous image and its
    /// histograms back. Opening the shown image again analyses its selected region, if there
    /// is one. The shown image again stays on its page; another image opens on its first page.
    void openImage(const QString& path) { m_image->openImage(path); }
    /// File › Open Sample: the bundled sample, on the Image tab (see openImages).
    void openSample();
    /// The Images list's "Histograms of All on Every Device…" once a file is chosen (see
    /// BatchOnList); batchFinished() says when it ends.
    void runBatchOnList(const QString& csvPath) { m_batch->run(csvPath); }
    /// Adds every path to the Images list and opens the first; the others wait there until
    /// selected. (File › Open with several files, several on the command line, a drop, Open
    /// Recent.) From a tab that does not show the image (Experiments, Scans, ...),
    /// the window goes to the Image tab.
    void openImages(const QStringList& paths);
    /// File › Open: asks for one or more files, then openImages().
    void chooseImage();
    /// What a drop does: the image files are opened (openImages); everything else is refused
    /// with one line per item naming it and the reason, in the status bar, the log, errorShown()
    /// and (when enabled) a message box. Returns what was opened and what refused.
    DropScreening dropFiles(const QMimeData& mime);
    /// Run › Run Again (F5): analyses the current image (or the one loading) again with the
    /// Run panel's device and parameters; the newest request wins.
    void runAgain() { m_image->runAgain(); }
    /// Run › Cancel (Esc): stops the job of the tab shown when it runs one, else the image
    /// analysis; what is shown stays, the status says so.
    void cancelRun();
    /// View › Whole Stack (Whole Stack… beside the page chooser): shows the stack view of the
    /// image shown, in front, and leaves it to the person to run (a stack may be long).
    void showWholeStack();
    /// Help › About HistLab: the version, Qt, the image libraries, the OpenCL devices listed
    /// (a window-modal box named "aboutBox", without a nested event loop).
    void showAbout();

signals:
    /// A newly opened image is on screen, its histograms still on their way.
    void imageShown();
    /// A new image's histograms are on screen, counted and verified, their timing still
    /// running (emitted after the plot's replot; 256-bin runs only).
    void countsShown();
    /// A new image and its histograms are on screen with the run's timings (emitted after the
    /// plot's replot).
    void histogramShown();
    /// An analysis failed; `message` is the core's (it names the file and the reason).
    void errorShown(const QString& message);
    /// runBatchOnList() ended: `summary` is what the status bar says; `ok` when every image
    /// was counted and verified and the table saved.
    void batchFinished(const QString& summary, bool ok);

protected:
    void closeEvent(QCloseEvent* event) override;
    /// The Run dock's close button: it stays closed on every tab until Run › Show Run Panel.
    bool eventFilter(QObject* watched, QEvent* event) override;
    /// A new palette (View › Theme, or the desktop's): the plots follow it.
    void changeEvent(QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    /// A tab (see createTabs).
    struct Tab {
        QString title;         ///< with its mnemonic; also its View menu entry
        QKeySequence shortcut; ///< of its View menu entry (none: no entry)
        QString toolTip;
        std::function<QWidget*()> create;
        QString runEntry = {}; ///< the Run menu's entry for the tab's own run, if any
        QString runTip = {};
        QWidget* widget = nullptr;
    };

    void createTabs();
    /// The stack view's window, hidden until View › Whole Stack.
    void createStackWindow();
    void connectImageTab();
    void createMenus();
    void createDocks();
    /// A dock named `name` (its state is remembered by that name) at `area`, holding `widget`.
    QDockWidget* addDock(const QString& title, const QString& name, QWidget* widget,
                         Qt::DockWidgetArea area);
    void showImagesDockOnSecond(int countBefore);
    /// The Image tab, unless the tab shown works on the shown image (see openImages).
    void showImageTab();
    /// Every plot's colours from the application's palette.
    void followPalette();
    /// The Run dock shown on the Image tab (unless closed), hidden on the others.
    void updateRunDock();
    void restoreSettings();
    void createRunControls();
    /// The tab shown when it is a job's and its job runs, else nullptr.
    JobPanel* runningPanelShown() const;
    /// Cancel (Esc) is enabled while the tab shown runs a job or the image analysis runs.
    void updateCancelAction();

    JobBridge* m_bridge;
    RunPanel* m_runPanel = nullptr;
    ImageList* m_images = nullptr;
    ImagePanel* m_image = nullptr; // the first tab
    BatchOnList* m_batch = nullptr;
    QDockWidget* m_runDock = nullptr;
    QAction* m_showRunDock = nullptr; // Run › Show Run Panel
    bool m_runDockWanted = true;
    QString m_lastError;
    bool m_errorDialogs = true;
    QMenu* m_recentMenu = nullptr;
    QTabWidget* m_tabs = nullptr;
    std::vector<Tab> m_tabTable;
    std::vector<QDockWidget*> m_docks; // Images, Log, Run
    StackPanel* m_stack = nullptr;
    QWidget* m_stackWindow = nullptr;
};

} // namespace histlab::ui
