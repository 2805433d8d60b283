#pragma once
// HistLab's main window: the image on the left, its 256-bin histograms on the right above a
// table of per-channel statistics (View › Statistics hides it), and the last run (device,
// configuration, median time, GB/s, % of the read-only ceiling, verification) in the status bar.
// All work goes through a JobBridge; the window only asks and listens, so it never blocks and never
// touches OpenCL.
#include "bridge/jobbridge.h"
#include "common/exportdialog.h"
#include "common/exporter.h"

#include <QKeySequence>
#include <QMainWindow>
#include <QSize>
#include <QString>

#include <functional>
#include <vector>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QMimeData;
class QProgressBar;
class QSpinBox;
class QSplitter;
class QTabWidget;
class QToolButton;

namespace histlab::ui {

class BlurPanel;
class DashboardPanel;
class MemoryPanel;
class DevicePanel;
class EqualizePanel;
class ExperimentPanel;
class HistogramPlot;
class ImageList;
class ImageView;
class JobPanel;
class JointPanel;
class LogPanel;
class RunPanel;
class RunSummary;
class ScanPanel;
class StatisticsPanel;
class WordsPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
    Q_PROPERTY(bool errorDialogsEnabled READ errorDialogsEnabled WRITE setErrorDialogsEnabled)
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// The bundled sample photograph, as a Qt resource path.
    static QString sampleImagePath();

    /// The core device selector used for the next runs ("auto", an index, "gpu", "cpu", ...);
    /// without one, the device remembered from the Run panel (see RunPanel).
    void setDeviceSelector(const QString& selector);
    QString deviceSelector() const;

    /// Errors always go to the status bar, lastError() and errorShown(); with dialogs enabled
    /// (the default) they also open a window-modal message box. Tests and scripts turn it off.
    /// The same holds for the tabs' own failures (a file that cannot be written, …).
    bool errorDialogsEnabled() const { return m_errorDialogs; }
    void setErrorDialogsEnabled(bool enabled);

    HistogramPlot* histogramPlot() const { return m_plot; }
    ImageView* imageView() const { return m_imageView; }
    StatisticsPanel* statisticsPanel() const { return m_statistics; }
    /// The Images dock's list: every image opened in this session, with thumbnails.
    ImageList* imageList() const { return m_images; }
    QDockWidget* imagesDock() const { return m_imagesDock; }
    /// The Log dock (View › Log): what the core and the window reported.
    LogPanel* logPanel() const { return m_log; }
    QDockWidget* logDock() const { return m_logDock; }
    /// The Experiments tab: sweeps of the histogram kernel's parameters, live.
    ExperimentPanel* experimentPanel() const { return m_experiments; }
    /// The Blur tab: the box blur of the shown image, compared with it.
    BlurPanel* blurPanel() const { return m_blur; }
    /// The Equalize tab: the histogram equalization of the shown image.
    EqualizePanel* equalizePanel() const { return m_equalize; }
    /// The Joint tab: the joint histogram, entropies and MI of two images (or channels) of
    /// the Images list.
    JointPanel* jointPanel() const { return m_joint; }
    /// The Words tab: a folder's images as bags of visual words (codebook, histograms,
    /// nearest images, each kernel's time).
    WordsPanel* wordsPanel() const { return m_words; }
    /// The Scans tab: GB/s of the scans against the work-group size, live.
    ScanPanel* scanPanel() const { return m_scans; }
    /// The Devices tab: every platform and device, its properties and probes.
    DevicePanel* devicePanel() const { return m_devices; }
    /// The Dashboard tab: every registered pipeline on the chosen devices, live.
    DashboardPanel* dashboardPanel() const { return m_dashboard; }
    /// The Memory tab: buffer reversal, ceilings per width, transfers, live.
    MemoryPanel* memoryPanel() const { return m_memory; }
    /// The tabs that run jobs, in tab order.
    std::vector<JobPanel*> jobPanels() const;
    /// "Image" (the image, its histograms and statistics), "Experiments", "Blur", "Equalize",
    /// "Joint", "Words", "Scans", "Devices", "Dashboard" and "Memory".
    QTabWidget* tabs() const { return m_tabs; }
    /// File › Open Recent, rebuilt each time it opens.
    QMenu* recentMenu() const { return m_recentMenu; }
    /// The Run dock's controls: variant, parameters, Run Again (F5), Cancel (Esc); its device
    /// combo lives in the tool bar above the tabs.
    RunPanel* runPanel() const { return m_runPanel; }
    /// In the status bar while a job runs.
    QProgressBar* progressBar() const { return m_progress; }
    /// What the shown image was opened from (empty before the first result).
    QString currentSource() const { return m_current.source; }
    /// The page shown of a multi-page TIFF (from 1; 1 for every other image).
    int currentPage() const { return m_current.page; }
    QSize currentImageSize() const { return m_current.imageSize; }
    /// The page chooser under the image: shown only while the image has several pages.
    QSpinBox* pageChooser() const { return m_pageBox; }
    /// The region of the image that the histograms and statistics shown describe, if any
    /// (selected on the image view; full-image pixels).
    std::optional<Region> currentRegion() const { return m_current.region; }
    /// The run behind what is shown (empty before the first result).
    const HistogramRun& currentRun() const { return m_current.run; }
    /// The analysis shown (its large-bin histograms for 16-bit and float images).
    const ImageAnalysis& currentAnalysis() const { return m_current; }
    /// The last run in one line, in the kernel's terms (the log's line; the Image tab's summary
    /// says it in plain words, with these details on demand).
    QString runSummary() const;
    /// The Image tab's account of the last run.
    RunSummary* runSummaryPanel() const { return m_summary; }
    QString lastError() const { return m_lastError; }
    /// True while a request has not answered.
    bool isBusy() const { return m_bridge->busy(); }

    /// Where the open and export dialogs start: the folder of the last file opened or exported
    /// (remembered in QSettings("HistLab", "HistLab") under "lastFolder").
    QString lastFolder() const { return m_lastDir; }
    /// How export actions ask for a file (QFileDialog by default; tests inject their own).
    void setSaveFileChooser(FileChooser chooser) { m_saveChooser = std::move(chooser); }

    /// Exports what is shown to `path`; a failure is reported like an analysis error (status
    /// bar, lastError(), a message box when enabled) and returned. Success remembers the folder.
    ExportResult exportPlotTo(const QString& path, const PlotExportOptions& options);
    /// The title an exported plot carries: the image (page, size), the region, the device.
    QString plotTitle() const;
    ExportResult exportHistogramCsvTo(const QString& path);
    ExportResult exportStatisticsCsvTo(const QString& path);

public slots:
    /// Starts loading and analysing an image; returns at once. The new image is shown as soon
    /// as it is decoded (imageShown), its histograms once computed (histogramShown). A file that
    /// cannot be read leaves the previous image in place; a failure after decoding (a device
    /// error, Cancel) puts the previous image and its histograms back.
    /// Opening the shown image again analyses its selected region, if there is one.
    /// The shown image again stays on its page; another image opens on its first page.
    void openImage(const QString& path);
    /// File › Open Sample: the bundled sample, on the Image tab (see openImages).
    void openSample();
    /// The Images list's "Histograms of All on Every Device…" once a file is chosen: the
    /// 256-bin histograms of every image in the list (the bundled sample left out), counted on
    /// every OpenCL device at once on the worker (the core's batch: images decoded on host
    /// threads, each device taking the next, each verified), written to `csvPath` as
    /// `histlab-cli batch` writes its table (through a temporary file). Progress and the
    /// outcome go to the status bar, a failure to a dialog too; batchFinished() says when.
    void runBatchOnList(const QString& csvPath);
    /// Stops the Images list's batch (the status bar's Stop button while it runs): no table is
    /// saved, and the status bar says so.
    void cancelBatch();
    /// Page `page` (from 1) of the shown multi-page TIFF, as the page chooser under the image
    /// asks (View › Next Page, Previous Page): every tab then works on that page. A page out of
    /// range is ignored.
    void showPage(int page);
    /// Adds every path to the Images list and opens the first; the others wait there until
    /// selected. (File › Open with several files, several on the command line, a drop, Open
    /// Recent.) From a tab that does not show the image (Experiments, Scans, ...),
    /// the window goes to the Image tab.
    void openImages(const QStringList& paths);
    /// File › Open: asks for one or more files, then openImages().
    void chooseImage();
    /// What a drop does: the image files are opened (openImages); everything else is refused
    /// with one line per item naming it and the reason, in the status bar, the log, errorShown()
    /// and (when enabled) a message box. Returns the refusals.
    QStringList dropFiles(const QMimeData& mime);
    /// File › Export plot (Ctrl+E): opens an ExportDialog (window-modal, without a nested event
    /// loop); accepting it writes the file.
    void exportPlot();
    /// File › Export histogram CSV / statistics CSV: asks for a file, then writes it.
    void chooseHistogramCsv();
    void chooseStatisticsCsv();
    /// File › Copy plot (Ctrl+Shift+C): the plot as an image on the clipboard.
    void copyPlot();
    /// File › Copy Histogram Counts: what Export Histogram CSV writes, tab-separated, on the
    /// clipboard (a spreadsheet pastes it as columns).
    void copyHistogramCounts();
    /// Run › Run Again (F5): analyses the current image (or the one loading) again with the
    /// Run panel's device and parameters; the newest request wins.
    void runAgain();
    /// Run › Cancel (Esc): stops the job of the tab shown when it runs one, else the image
    /// analysis; what is shown stays, the status says so.
    void cancelRun();
    /// The status bar's Cancel: stops the image analysis, whatever tab is shown.
    void cancelAnalysis();
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
    void dropEvent(QDropEvent* event) override;

private:
    /// A tab after the Image tab (see createTabs).
    struct Tab {
        QString title; ///< with its mnemonic; also its View menu entry
        QKeySequence shortcut;
        QString toolTip;
        std::function<QWidget*()> create;
        QString runEntry = {}; ///< the Run menu's entry for the tab's own run, if any
        QString runTip = {};
        QWidget* widget = nullptr;
    };

    void createTabs();
    void createMenus();
    void createHelpMenu();
    void createDocks();
    void fillRecentMenu();
    void showImagesDockOnSecond(int countBefore);
    /// A region dragged while a quick request ran: ask for it now that that one answered.
    void submitDeferredRegion();
    /// Asks for `path`'s histograms; `quick` (a region being dragged) runs once instead of the
    /// Run panel's repeats, so the histogram keeps up with the mouse.
    void submit(const QString& path, int page, bool quick);
    /// submit() with the status bar saying so.
    void open(const QString& path, int page);
    /// The page chooser shows the page and count of the image shown, or of a newer one's
    /// preview (hidden for one page).
    void showPageChooser();
    /// The page of the image shown that was asked for last (the one loading, else the one shown).
    int pageAsked() const;
    /// The Image tab, unless the tab shown works on the shown image (see openImages).
    void showImageTab();
    /// The pixels of the values selected on the histogram, marked on the image (cleared
    /// without a selection).
    void showSelectedValues();
    /// View › Region…: a region typed in (RegionDialog), selected as a drag would.
    void askRegion();
    /// Every plot's colours from the application's palette.
    void followPalette();
    /// The Run dock shown on the Image tab (unless closed), hidden on the others.
    void updateRunDock();
    void showMessageBox(const QString& message, const QString& details = {});
    void restoreSettings();
    void rememberFolder(const QString& file);
    QString defaultExportPath(const QString& what, const QString& suffix) const;
    ExportResult finishExport(const ExportResult& result, const QString& path);
    /// Shows an analysis: `timed` false for the counts that come before the run's timings.
    void showAnalysis(const ImageAnalysis& analysis, bool timed = true);
    /// The run summary of the analysis shown (region, device, what ran, time, verified).
    QString describeCurrent() const;
    /// The current analysis in the summary panel (and runSummary()).
    void showSummary();
    /// The decoded image of the newest request, before its histograms: shown at once, the
    /// plot and table emptied until they come.
    void showPreview(const ImagePreview& preview);
    /// After a failure or a cancel: the view back to the current analysis's image, if the
    /// failed request's preview replaced it.
    void restoreShownImage();
    /// m_current's histograms, statistics, run summary (returned) and title.
    QString showResults();
    /// Tells the image list and the Blur, Equalize and Experiments tabs of m_current's image.
    void shareCurrentImage();
    static QString imageTitle(const QString& source, int page, int pages, const QSize& size);
    void showFailure(const JobError& error);
    void showProgress(double fraction, const QString& stage);
    void createRunControls();
    void showBusy(bool busy);
    /// The tab shown when it is a job's and its job runs, else nullptr.
    JobPanel* runningPanelShown() const;
    /// Cancel (Esc) is enabled while the tab shown runs a job or the image analysis runs.
    void updateCancelAction();
    void connectImageView();
    /// The view's region changed or was cleared: analyse the shown image's new region.
    void analyseRegion(const std::optional<Region>& region);

    JobBridge* m_bridge;
    ImageView* m_imageView;
    HistogramPlot* m_plot;
    StatisticsPanel* m_statistics;
    RunSummary* m_summary;
    QDockWidget* m_runDock = nullptr;
    QAction* m_showRunDock = nullptr; // Run › Show Run Panel
    bool m_runDockWanted = true;
    QString m_runLine; // runSummary(): the run in the kernel's terms
    ImageAnalysis m_current;
    /// What the image view shows: m_current's image, or the preview of a newer request.
    struct ShownImage {
        QString source;
        int page = 1;
        int pages = 1;
        QSize size;
        bool is(const QString& source, int page, const QSize& size) const;
    };
    ShownImage m_shown;
    QString m_requested; // the newest source asked for, for messages
    int m_requestedPage = 1;
    std::vector<DeviceEntry> m_deviceList; // as listed, for About
    QString m_deviceListError;
    QWidget* m_pageBar = nullptr; // under the image: "Page [n] of N"
    QSpinBox* m_pageBox = nullptr;
    QLabel* m_pageCount = nullptr;
    QAction* m_nextPage = nullptr;
    QAction* m_previousPage = nullptr;
    QString m_lastError;
    RunPanel* m_runPanel = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_cancelBatch = nullptr; ///< shown while the Images list's batch runs
    QString m_lastDir;
    bool m_errorDialogs = true;
    bool m_announcePending = false;       // emit histogramShown() after the next replot
    bool m_countsAnnouncePending = false; // emit countsShown() after the next replot
    QString m_timingNote; // the run summary's end while the shown run is not timed: "timing…"
    QSplitter* m_splitter = nullptr;      // image | right
    QSplitter* m_rightSplitter = nullptr; // plot over statistics
    QList<QAction*> m_exportActions;      // enabled once something is shown
    FileChooser m_saveChooser = nativeSaveFileChooser();
    std::optional<Region> m_region; // selected on the view; requests for the shown image carry it
    bool m_regionQuick = false;     // the last region request was a quick one (while dragging)
    bool m_inFlightQuick = false;   // the request submitted last is a quick one
    bool m_regionDeferred = false;  // a newer region waits for the running quick request
    ImageList* m_images = nullptr;
    QDockWidget* m_imagesDock = nullptr;
    LogPanel* m_log = nullptr;
    QDockWidget* m_logDock = nullptr;
    QMenu* m_recentMenu = nullptr;
    ExperimentPanel* m_experiments = nullptr;
    BlurPanel* m_blur = nullptr;
    EqualizePanel* m_equalize = nullptr;
    JointPanel* m_joint = nullptr;
    WordsPanel* m_words = nullptr;
    ScanPanel* m_scans = nullptr;
    DevicePanel* m_devices = nullptr;
    DashboardPanel* m_dashboard = nullptr;
    MemoryPanel* m_memory = nullptr;
    QTabWidget* m_tabs = nullptr;
    std::vector<Tab> m_tabTable;
};

} // namespace histlab::ui
