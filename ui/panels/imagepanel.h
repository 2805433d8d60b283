#pragma once
// The Image tab: the image on the left over its page chooser, its histograms on the right above
// the run's summary and a table of per-channel statistics. It owns the tab's job, the analysis
// (lane "histogram"): the newest request wins, a region dragged on the image asks for that
// region's histograms, and what the job answers (preview, counts, timed run, error) is shown
// here. The Run dock's controls say how to count; the window puts this tab's actions in its
// File and View menus and its progress, Cancel and pixel readout in its status bar.
#include "bridge/jobbridge.h"
#include "common/exportdialog.h"
#include "common/exporter.h"

#include <QList>
#include <QPointer>
#include <QSize>
#include <QString>
#include <QWidget>

#include <algorithm>
#include <optional>

class QAction;
class QLabel;
class QProgressBar;
class QSettings;
class QSpinBox;
class QSplitter;
class QToolButton;

namespace histlab::ui {

class HistogramPlot;
class ImageList;
class ImageView;
class RunPanel;
class RunSummary;
class StatisticsPanel;

/// Submits the Image tab's analysis on `bridge` (lane ImagePanel::lane): its watcher's items
/// are the ImagePreview (before the histograms) and the counted ImageAnalysis (before their
/// timing), its result the ImageAnalysis.
JobWatcher* submitAnalysis(JobBridge& bridge, const AnalysisRequest& request);

class ImagePanel : public QWidget {
    Q_OBJECT
public:
    /// The analysis's lane.
    static constexpr const char* lane = "histogram";

    /// `runPanel` (the Run dock) says how to count; `images` (the Images dock's list) hears
    /// which image is asked for, shown or failed.
    ImagePanel(JobBridge* bridge, RunPanel* runPanel, ImageList* images, QWidget* parent = nullptr);

    HistogramPlot* histogramPlot() const { return m_plot; }
    ImageView* imageView() const { return m_imageView; }
    StatisticsPanel* statisticsPanel() const { return m_statistics; }
    /// The tab's account of the last run.
    RunSummary* runSummaryPanel() const { return m_summary; }
    /// The page chooser under the image: shown only while the image has several pages.
    QSpinBox* pageChooser() const { return m_pageBox; }
    /// In the status bar while the analysis runs.
    QProgressBar* progressBar() const { return m_progress; }
    /// image | right, and plot over statistics: the window remembers their sizes.
    QSplitter* splitter() const { return m_splitter; }
    QSplitter* rightSplitter() const { return m_rightSplitter; }
    /// The splitters' sizes of a first start (before any remembered ones).
    void setFirstSizes();
    /// The splitters' sizes, as left last time (the window's settings, "window/splitter" and
    /// "window/rightSplitter").
    void restoreLayout(const QSettings& settings);
    void saveLayout(QSettings& settings) const;

    /// File menu: Export Plot, Export Histogram CSV, Export Statistics CSV, Copy Plot, Copy
    /// Histogram Counts (enabled once something is shown).
    QList<QAction*> exportActions() const { return m_exportActions; }
    /// View › Statistics: shows or hides the table.
    QAction* statisticsAction() const { return m_statisticsAction; }
    /// View menu: the image view's zoom, Pin as Reference, Clear Reference, Region….
    QList<QAction*> imageActions() const { return m_imageActions; }
    /// View menu: Next Page, Previous Page, Whole Stack.
    QList<QAction*> pageActions() const { return {m_nextPage, m_previousPage, m_wholeStack}; }
    /// View › Whole Stack, also the Whole Stack… button beside the page chooser: enabled (the
    /// button shown) only for an image of several pages; emits wholeStackRequested().
    QAction* wholeStackAction() const { return m_wholeStack; }
    /// The page count of the image shown (1 for every image but a multi-page TIFF).
    int currentPages() const { return std::max(1, m_shown.pages); }
    /// The status bar's pixel readout, zoom, progress bar and Cancel, in that order.
    QList<QWidget*> statusWidgets() const;

    /// What the shown image was opened from (empty before the first result).
    QString currentSource() const { return m_current.source; }
    /// The page shown of a multi-page TIFF (from 1; 1 for every other image).
    int currentPage() const { return m_current.page; }
    QSize currentImageSize() const { return m_current.imageSize; }
    /// The region of the image that the histograms and statistics shown describe, if any
    /// (selected on the image view; full-image pixels).
    std::optional<Region> currentRegion() const { return m_current.region; }
    /// The run behind what is shown (empty before the first result).
    const HistogramRun& currentRun() const { return m_current.run; }
    /// The analysis shown (its large-bin histograms for 16-bit and float images).
    const ImageAnalysis& currentAnalysis() const { return m_current; }
    /// The last run in one line, in the kernel's terms (the log's line; the summary says it in
    /// plain words, with these details on demand).
    QString runSummary() const { return m_runLine; }
    /// True while a request has not answered.
    bool isBusy() const;
    /// The newest analysis's watcher while it has not answered (else nullptr).
    JobWatcher* analysisJob() const { return m_job; }

    /// Failures also open a window-modal message box (the default).
    void setErrorDialogsEnabled(bool enabled) { m_errorDialogs = enabled; }
    /// How export actions ask for a file (QFileDialog by default; tests inject their own).
    void setSaveFileChooser(FileChooser chooser) { m_saveChooser = std::move(chooser); }

    /// Exports what is shown to `path`; a failure is reported like an analysis error (status
    /// bar, failed(), a message box when enabled) and returned. Success remembers the folder.
    ExportResult exportPlotTo(const QString& path, const PlotExportOptions& options);
    /// The title an exported plot carries: the image (page, size), the region, the device.
    QString plotTitle() const;
    ExportResult exportHistogramCsvTo(const QString& path);
    ExportResult exportStatisticsCsvTo(const QString& path);

public slots:
    /// Starts loading and analysing an image; returns at once (see MainWindow::openImage).
    void openImage(const QString& path);
    /// Page `page` (from 1) of the shown multi-page TIFF; a page out of range is ignored.
    void showPage(int page);
    /// Opens an ExportDialog (window-modal); accepting it writes the file.
    void exportPlot();
    /// Ask for a file, then write it.
    void chooseHistogramCsv();
    void chooseStatisticsCsv();
    /// The plot as an image on the clipboard.
    void copyPlot();
    /// What Export Histogram CSV writes, tab-separated, on the clipboard.
    void copyHistogramCounts();
    /// Analyses the current image (or the one loading) again with the Run panel's settings.
    void runAgain();
    /// Stops the analysis; what is shown stays, the status says so.
    void cancelAnalysis();
    /// View › Region…: a region typed in (RegionDialog), selected as a drag would.
    void askRegion();

signals:
    /// A newly opened image is on screen, its histograms still on their way.
    void imageShown();
    /// A new image's histograms are on screen, counted and verified, their timing still
    /// running (emitted after the plot's replot; 256-bin runs only).
    void countsShown();
    /// A new image and its histograms are on screen with the run's timings (after the replot).
    void histogramShown();
    /// An analysis failed; `message` is the core's (it names the file and the reason).
    void errorShown(const QString& message);
    /// The tab's last error (an analysis or an export that failed).
    void failed(const QString& message);
    /// For the status bar (an empty message clears it; `timeoutMs` 0 keeps it).
    void message(const QString& text, int timeoutMs);
    /// The window's title for what is shown.
    void titleChanged(const QString& title);
    /// The image shown changed (the other tabs work on it).
    void currentImageChanged(const QString& source, int page, int pages, const QSize& imageSize,
                             const QImage& preview);
    /// An image was asked for: the Images list had `countBefore` images before it.
    void imageAsked(int countBefore);
    /// The tab should be brought forward (a region is typed in).
    void showRequested();
    /// Whole Stack…: the stack view of the image shown is asked for.
    void wholeStackRequested();

private:
    /// What the image view shows: m_current's image, or the preview of a newer request.
    struct ShownImage {
        QString source;
        int page = 1;
        int pages = 1;
        QSize size;
        bool is(const QString& source, int page, const QSize& size) const;
    };

    void createActions();
    void createStatusWidgets();
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
    /// The pixels of the values selected on the histogram, marked on the image (cleared
    /// without a selection).
    void showSelectedValues();
    void showMessageBox(const QString& message, const QString& details = {});
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
    /// Tells the image list and the other tabs of m_current's image.
    void shareCurrentImage();
    static QString imageTitle(const QString& source, int page, int pages, const QSize& size);
    void showFailure(const JobError& error);
    void showProgress(double fraction, const QString& stage);
    void showBusy(bool busy);
    void connectImageView();
    /// The view's region changed or was cleared: analyse the shown image's new region.
    void analyseRegion(const std::optional<Region>& region);

    JobBridge* m_bridge;
    RunPanel* m_runPanel;
    ImageList* m_images;
    ImageView* m_imageView;
    HistogramPlot* m_plot;
    StatisticsPanel* m_statistics;
    RunSummary* m_summary;
    QPointer<JobWatcher> m_job;
    QString m_runLine; // runSummary(): the run in the kernel's terms
    ImageAnalysis m_current;
    ShownImage m_shown;
    QString m_requested; // the newest source asked for, for messages
    int m_requestedPage = 1;
    QWidget* m_pageBar = nullptr; // under the image: "Page [n] of N"
    QSpinBox* m_pageBox = nullptr;
    QLabel* m_pageCount = nullptr;
    QAction* m_nextPage = nullptr;
    QAction* m_previousPage = nullptr;
    QAction* m_wholeStack = nullptr;
    QAction* m_statisticsAction = nullptr;
    QList<QAction*> m_imageActions;
    QString m_lastError;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_cancelButton = nullptr;
    QLabel* m_pixelLabel = nullptr;
    QLabel* m_zoomLabel = nullptr;
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
};

} // namespace histlab::ui
