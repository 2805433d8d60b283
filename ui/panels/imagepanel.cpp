#include "panels/imagepanel.h"

#include "bridge/logging.h"
#include "common/helpdialogs.h"
#include "common/regiondialog.h"
#include "panels/runpanel.h"
#include "panels/runsummary.h"
#include "panels/statisticspanel.h"
#include "plots/histogramplot.h"
#include "views/imagelist.h"
#include "views/imageview.h"

#include <pipelines/histogram256/histogramreport.h>

#include <QAction>
#include <QClipboard>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace histlab::ui {

namespace {
/// How long a passing message stays in the status bar (an outcome: cancelled, could not open,
/// cannot run, an export that failed); what lasts is said where it belongs (the pane, the list,
/// the Run panel's field, the message box).
constexpr int kPassingMs = 10'000;
} // namespace

namespace {

/// A region as the window names it: its corner and size in image pixels.
QString regionText(const Region& r) {
    return ImagePanel::tr("region %1,%2 %3×%4").arg(r.x).arg(r.y).arg(r.width).arg(r.height);
}

/// What the image pane says while it has no image.
QString openHint() {
    return QObject::tr("Open an image (File › Open, Ctrl+O) or drop one here.\n"
                       "File › Open Sample shows the bundled photograph.");
}

} // namespace

JobWatcher* submitAnalysis(JobBridge& bridge, const AnalysisRequest& request) {
    JobWatcher* watcher =
        bridge.submit(QString::fromLatin1(ImagePanel::lane),
                      [request, images = bridge.imageCache()](JobContext& context,
                                                              const ItemSink& post) -> std::any {
                          return analyseImage(
                              request, *images, JobBridge::maxPreviewSide, context,
                              [&post](const ImagePreview& preview) { post(preview); },
                              [&post](const ImageAnalysis& counted) { post(counted); });
                      });
    qCDebug(lcUi) << "analysis" << watcher->id() << "of" << imageLogName(request.source);
    return watcher;
}

ImagePanel::ImagePanel(JobBridge* bridge, RunPanel* runPanel, ImageList* images, QWidget* parent)
    : QWidget(parent)
    , m_bridge(bridge)
    , m_runPanel(runPanel)
    , m_images(images)
    , m_imageView(new ImageView)
    , m_plot(new HistogramPlot)
    , m_statistics(new StatisticsPanel)
    , m_summary(new RunSummary) {
    m_bridge->setJobName(QString::fromLatin1(lane), tr("image analysis"));

    // Right: the plot above the run's summary and the statistics; the plot takes what the
    // table does not need.
    auto* below = new QWidget;
    auto* belowLayout = new QVBoxLayout(below);
    belowLayout->setContentsMargins(0, 0, 0, 0);
    belowLayout->setSpacing(0);
    belowLayout->addWidget(m_summary);
    belowLayout->addWidget(m_statistics, 1);
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(m_plot);
    right->addWidget(below);
    right->setStretchFactor(0, 1);
    right->setStretchFactor(1, 0);
    right->setChildrenCollapsible(false);

    // Left: the image over its page chooser (a multi-page TIFF's pages, as ImageJ's stack
    // slider; hidden for an image of one page).
    m_pageBar = new QWidget;
    m_pageBar->setObjectName(QStringLiteral("pageBar"));
    m_pageBox = new QSpinBox;
    m_pageBox->setObjectName(QStringLiteral("pageChooser"));
    m_pageBox->setRange(1, 1);
    m_pageBox->setKeyboardTracking(false); // typing "12" asks for page 12, not 1 then 12
    m_pageBox->setToolTip(tr("The page of the multi-page TIFF that every tab works on "
                             "(View › Next Page, Previous Page)"));
    m_pageCount = new QLabel;
    auto* pageLayout = new QHBoxLayout(m_pageBar);
    pageLayout->setContentsMargins(4, 2, 4, 2);
    auto* pageLabel = new QLabel(tr("&Page"));
    pageLabel->setBuddy(m_pageBox);
    pageLayout->addWidget(pageLabel);
    pageLayout->addWidget(m_pageBox);
    pageLayout->addWidget(m_pageCount);
    // The whole stack beside its pages (ImageJ's Stack Histogram and Z-axis profile).
    m_wholeStack = new QAction(tr("&Whole Stack…"), this);
    m_wholeStack->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    m_wholeStack->setStatusTip(tr("The histogram and statistics of every page of the stack, and "
                                  "each page's mean and a percentile against the page"));
    m_wholeStack->setEnabled(false);
    connect(m_wholeStack, &QAction::triggered, this, &ImagePanel::wholeStackRequested);
    auto* wholeStack = new QPushButton(tr("Whole Stack…"));
    wholeStack->setObjectName(QStringLiteral("wholeStackButton"));
    wholeStack->setToolTip(m_wholeStack->statusTip());
    connect(wholeStack, &QPushButton::clicked, m_wholeStack, &QAction::trigger);
    pageLayout->addSpacing(8);
    pageLayout->addWidget(wholeStack);
    pageLayout->addStretch(1);
    m_pageBar->setVisible(false);
    connect(m_pageBox, &QSpinBox::valueChanged, this, &ImagePanel::showPage);
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->setSpacing(0);
    leftLayout->addWidget(m_imageView, 1);
    leftLayout->addWidget(m_pageBar);

    m_splitter = new QSplitter(Qt::Horizontal);
    m_splitter->addWidget(left);
    m_splitter->addWidget(right);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setChildrenCollapsible(false);
    m_rightSplitter = right;
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_splitter);

    createActions();
    connectImageView();
    m_imageView->setPlaceholder(openHint());
    createStatusWidgets();
    m_plot->setSettingsKey(QStringLiteral("histogramPlot")); // its options, as left last time

    // Values selected on the histogram (Shift + drag): their pixels marked on the image.
    connect(m_plot, &HistogramPlot::valueRangeChanged, this, &ImagePanel::showSelectedValues);
    connect(m_plot, &QCustomPlot::afterReplot, this, [this] {
        if (m_countsAnnouncePending) {
            m_countsAnnouncePending = false;
            emit countsShown();
        }
        if (m_announcePending) {
            m_announcePending = false;
            emit histogramShown();
        }
    });
}

void ImagePanel::setFirstSizes() {
    m_splitter->setSizes({560, 640});
    const int tableHeight = m_statistics->sizeHint().height();
    m_rightSplitter->setSizes({std::max(m_plot->minimumHeight(), 640 - tableHeight), tableHeight});
}

void ImagePanel::restoreLayout(const QSettings& settings) {
    m_splitter->restoreState(settings.value(QStringLiteral("window/splitter")).toByteArray());
    m_rightSplitter->restoreState(
        settings.value(QStringLiteral("window/rightSplitter")).toByteArray());
}

void ImagePanel::saveLayout(QSettings& settings) const {
    settings.setValue(QStringLiteral("window/splitter"), m_splitter->saveState());
    settings.setValue(QStringLiteral("window/rightSplitter"), m_rightSplitter->saveState());
}

bool ImagePanel::isBusy() const {
    return m_bridge->isRunning(QString::fromLatin1(lane));
}

// The File menu's exports and the View menu's entries that work on the image.
void ImagePanel::createActions() {
    QAction* exportPlotAction = new QAction(tr("&Export Plot…"), this);
    connect(exportPlotAction, &QAction::triggered, this, &ImagePanel::exportPlot);
    exportPlotAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportPlotAction->setStatusTip(tr("The histogram plot as PNG, JPG, PDF or SVG"));
    QAction* histogramCsvAction = new QAction(tr("Export &Histogram CSV…"), this);
    connect(histogramCsvAction, &QAction::triggered, this, &ImagePanel::chooseHistogramCsv);
    histogramCsvAction->setStatusTip(
        tr("bin,r,g,b,gray: the counts, as histlab-cli --csv writes them"));
    QAction* statisticsCsvAction = new QAction(tr("Export S&tatistics CSV…"), this);
    connect(statisticsCsvAction, &QAction::triggered, this, &ImagePanel::chooseStatisticsCsv);
    statisticsCsvAction->setStatusTip(
        tr("One row per channel, as histlab-cli --stats-csv writes them"));
    QAction* copy = new QAction(tr("&Copy Plot"), this);
    connect(copy, &QAction::triggered, this, &ImagePanel::copyPlot);
    copy->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    copy->setStatusTip(tr("The histogram plot as an image on the clipboard"));
    QAction* copyCounts = new QAction(tr("Copy Histogram Co&unts"), this);
    connect(copyCounts, &QAction::triggered, this, &ImagePanel::copyHistogramCounts);
    copyCounts->setStatusTip(tr("The counts of every bin as tab-separated text, for a "
                                "spreadsheet (the statistics table copies with Ctrl+C)"));
    m_exportActions = {exportPlotAction, histogramCsvAction, statisticsCsvAction, copy, copyCounts};
    for (QAction* action : m_exportActions)
        action->setEnabled(false); // until there is something to export

    m_statisticsAction = new QAction(tr("&Statistics"), this);
    m_statisticsAction->setCheckable(true);
    m_statisticsAction->setChecked(true);
    m_statisticsAction->setStatusTip(tr("Per-channel statistics below the histograms"));
    connect(m_statisticsAction, &QAction::toggled, m_statistics, &QWidget::setVisible);

    m_imageActions = m_imageView->viewActions(); // zoom in/out, 1:1, fit
    // Two regions or images compared: the shown histograms kept as the reference.
    QAction* pin = new QAction(tr("Pin as Re&ference"), this);
    connect(pin, &QAction::triggered, this, [this] {
        if (m_plot->histograms().empty())
            return emit message(tr("No histograms to pin yet"), 5000);
        QString label =
            withPage(imageDisplayName(m_current.source), m_current.page, m_current.pages);
        if (m_current.region)
            label += QStringLiteral(", ") + regionText(*m_current.region);
        m_plot->setReference(m_plot->histograms(), label);
        emit message(
            tr("%1 pinned: select another region or open another image to compare").arg(label),
            8000);
    });
    pin->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    pin->setStatusTip(tr("Keep the shown histograms, dashed, to compare another region or "
                         "image with (chi-square, intersection, Bhattacharyya, correlation)"));
    QAction* unpin = new QAction(tr("Clear Reference"), this);
    connect(unpin, &QAction::triggered, m_plot, &HistogramPlot::clearReference);
    unpin->setStatusTip(tr("Stop comparing with the pinned histograms"));
    QAction* region = new QAction(tr("&Region…"), this);
    connect(region, &QAction::triggered, this, &ImagePanel::askRegion);
    region->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    region->setStatusTip(tr("Type the region whose histograms show: its corner and size in "
                            "the image's pixels"));
    m_imageActions << pin << unpin << region;

    // A multi-page TIFF's pages, with ImageJ's keys for a stack's slices.
    m_nextPage = new QAction(tr("&Next Page"), this);
    connect(m_nextPage, &QAction::triggered, this, [this] { showPage(pageAsked() + 1); });
    m_nextPage->setShortcut(QKeySequence(Qt::Key_Period));
    m_nextPage->setStatusTip(tr("The next page of a multi-page TIFF"));
    m_previousPage = new QAction(tr("&Previous Page"), this);
    connect(m_previousPage, &QAction::triggered, this, [this] { showPage(pageAsked() - 1); });
    m_previousPage->setShortcut(QKeySequence(Qt::Key_Comma));
    m_previousPage->setStatusTip(tr("The previous page of a multi-page TIFF"));
    m_nextPage->setEnabled(false);
    m_previousPage->setEnabled(false);
}

// The status bar's progress bar and Cancel, shown while the analysis runs, and what the Run
// dock shows of the analysis's outcome.
void ImagePanel::createStatusWidgets() {
    m_progress = new QProgressBar;
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(160);
    m_progress->setVisible(false);
    // The status bar's Cancel is the image analysis's, whatever tab is shown.
    auto* cancelAnalysis = new QAction(tr("Cancel"), this);
    connect(cancelAnalysis, &QAction::triggered, this, &ImagePanel::cancelAnalysis);
    m_cancelButton = new QToolButton;
    m_cancelButton->setObjectName(QStringLiteral("cancelAnalysisButton"));
    m_cancelButton->setDefaultAction(cancelAnalysis);
    m_cancelButton->setToolTip(tr("Cancel the running image analysis"));
    m_cancelButton->setVisible(false);
    // The bar and the button show once the worker begins the analysis: until then it waits
    // for a tab's job, and the status line says so.
    connect(m_bridge, &JobBridge::runningChanged, this, [this](const QString& name, bool busy) {
        if (name != QLatin1String(lane))
            return; // the tabs show their own runs
        if (!busy)
            m_cancelButton->setVisible(false);
        showBusy(busy);
    });
    connect(m_bridge, &JobBridge::laneStarted, this, [this](const QString& name) {
        if (name != QLatin1String(lane))
            return;
        // A region being dragged is counted again at each move: no progress or Cancel for
        // those (they would flicker); the release's run has both.
        m_cancelButton->setVisible(!m_inFlightQuick);
        m_progress->setVisible(!m_inFlightQuick);
    });
}

QList<QWidget*> ImagePanel::statusWidgets() const {
    return {m_pixelLabel, m_zoomLabel, m_progress, m_cancelButton};
}

QString ImagePanel::defaultExportPath(const QString& what, const QString& suffix) const {
    // "<last folder>/<image name>-<what>.<suffix>", e.g. ".../sample-histogram.png".
    QString base = QFileInfo(m_current.source).completeBaseName();
    if (base.isEmpty())
        base = QStringLiteral("histlab");
    base += QLatin1Char('-');
    base += what;
    base += QLatin1Char('.');
    base += suffix;
    const QString folder = lastFolder();
    return QDir(folder.isEmpty() ? QDir::homePath() : folder).filePath(base);
}

void ImagePanel::exportPlot() {
    auto* dialog = new ExportDialog(m_plot->size(), lastFolder(), window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileChooser(m_saveChooser);
    dialog->setFilePath(defaultExportPath(QStringLiteral("histogram"), QStringLiteral("png")));
    connect(dialog, &QDialog::accepted, this,
            [this, dialog] { exportPlotTo(dialog->filePath(), dialog->options()); });
    dialog->open(); // window-modal, no nested event loop
}

void ImagePanel::chooseHistogramCsv() {
    const QString path =
        askSavePath(m_saveChooser, window(), tr("Export Histogram CSV"),
                    defaultExportPath(QStringLiteral("histogram"), QStringLiteral("csv")),
                    tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty())
        exportHistogramCsvTo(path);
}

void ImagePanel::chooseStatisticsCsv() {
    const QString path =
        askSavePath(m_saveChooser, window(), tr("Export Statistics CSV"),
                    defaultExportPath(QStringLiteral("statistics"), QStringLiteral("csv")),
                    tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty())
        exportStatisticsCsvTo(path);
}

ExportResult ImagePanel::exportPlotTo(const QString& path, const PlotExportOptions& options) {
    PlotExportOptions titled = options;
    if (titled.title.isEmpty())
        titled.title = plotTitle();
    return finishExport(histlab::ui::exportPlot(*m_plot, path, titled), path);
}

QString ImagePanel::plotTitle() const {
    // What the histograms are of: the file (and page), the region, and the device that counted.
    if (m_current.source.isEmpty())
        return {};
    QStringList parts;
    parts << tr("%1 (%2 × %3)")
                 .arg(withPage(imageDisplayName(m_current.source), m_current.page, m_current.pages))
                 .arg(m_current.imageSize.width())
                 .arg(m_current.imageSize.height());
    if (const std::optional<Region>& r = m_current.region)
        parts << regionText(*r);
    const DeviceInfo& device =
        m_current.largeBins ? m_current.largeBins->device : m_current.run.device;
    if (!device.name.empty())
        parts << QString::fromStdString(device.name);
    return parts.join(QStringLiteral(" · "));
}

ExportResult ImagePanel::exportHistogramCsvTo(const QString& path) {
    if (m_current.largeBins)
        return finishExport(
            writeFileSafely(path, QByteArray::fromStdString(imageBinsCsv(*m_current.largeBins))),
            path);
    return finishExport(exportHistogramCsv(m_current.run, path), path);
}

ExportResult ImagePanel::exportStatisticsCsvTo(const QString& path) {
    return finishExport(exportStatisticsCsv(m_current.statistics, path), path);
}

void ImagePanel::copyHistogramCounts() {
    // The Export Histogram CSV text with tabs: its fields are numbers and channel names, never
    // quoted, so every comma is a separator.
    QString text = QString::fromStdString(m_current.largeBins ? imageBinsCsv(*m_current.largeBins)
                                                              : histogramCsv(m_current.run));
    text.replace(QLatin1Char(','), QLatin1Char('\t'));
    QGuiApplication::clipboard()->setText(text);
    emit message(tr("Histogram counts copied to the clipboard"), 3000);
}

void ImagePanel::copyPlot() {
    QGuiApplication::clipboard()->setImage(renderPlot(*m_plot, m_plot->width(), m_plot->height()));
    emit message(tr("Plot copied to the clipboard"), 3000);
}

ExportResult ImagePanel::finishExport(const ExportResult& result, const QString& path) {
    if (result.ok) {
        rememberFolder(path);
        emit message(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 5000);
        return result;
    }
    m_lastError = result.message;
    emit failed(m_lastError);
    emit message(result.message, kPassingMs);
    qCWarning(lcUi).noquote() << "export failed:" << result.message;
    if (m_errorDialogs)
        showMessageBox(result.message);
    return result;
}

void ImagePanel::showMessageBox(const QString& message, const QString& details) {
    showWarningBox(window(), message, details);
}

void ImagePanel::openImage(const QString& path) {
    open(path, path == m_current.source ? m_current.page : 1);
}

int ImagePanel::pageAsked() const {
    return isBusy() && m_requested == m_shown.source ? m_requestedPage : m_shown.page;
}

void ImagePanel::showPage(int page) {
    // The pages of the image shown: the current one's, or those of a newer one's preview.
    if (m_shown.source.isEmpty() || page < 1 || page > m_shown.pages || page == pageAsked())
        return showPageChooser();
    open(m_shown.source, page);
}

void ImagePanel::open(const QString& path, int page) {
    submit(path, page, false);
    // The image shown, asked again (F5), is analysed, not opened.
    const bool shown = path == m_current.source && page == m_current.page;
    QString text = shown ? tr("Analysing %1 again…").arg(imageDisplayName(path))
                   : page > 1 || (path == m_current.source && m_current.pages > 1)
                       ? tr("Opening %1, page %2…").arg(imageDisplayName(path)).arg(page)
                       : tr("Opening %1…").arg(imageDisplayName(path));
    // The worker runs one job at a time: a tab's long run (an experiment) goes first.
    if (const QString wait = m_bridge->waitNote(QString::fromLatin1(lane)); !wait.isEmpty())
        text += tr(" It %1.").arg(wait);
    emit message(text, 0);
    if (m_shown.source.isEmpty()) { // nothing shown yet (a launch): the pane says what comes
        const QString loading = tr("Loading %1…").arg(imageDisplayName(path));
        m_imageView->setPlaceholder(loading);
        m_summary->showWorking(loading);
    }
}

void ImagePanel::showPageChooser() {
    const int pages = std::max(1, m_shown.pages);
    const QSignalBlocker quiet(m_pageBox); // showing the page asks for nothing
    m_pageBox->setRange(1, pages);
    m_pageBox->setValue(m_shown.page);
    m_pageCount->setText(tr("of %1").arg(pages));
    m_pageBar->setVisible(pages > 1);
    m_wholeStack->setEnabled(pages > 1);
    m_nextPage->setEnabled(m_shown.page < pages);
    m_previousPage->setEnabled(m_shown.page > 1);
}

void ImagePanel::submit(const QString& path, int page, bool quick) {
    m_regionDeferred = false; // this request is newer than the deferred region
    m_inFlightQuick = quick;
    if (!m_timingNote.isEmpty()) { // the run being timed is replaced: its timing never comes
        m_timingNote = tr("timing cancelled");
        showSummary();
    }
    m_requested = path;
    m_requestedPage = page;
    const int before = m_images->count();
    m_images->setCurrentImage(path); // the list shows what was asked for (adding it if new)
    emit imageAsked(before);
    AnalysisRequest request;
    request.source = path;
    request.page = page;
    if (path == m_current.source && page == m_current.page)
        request.region = m_region;
    request.device = m_runPanel->deviceSelector();
    request.histogram = m_runPanel->histogramRequest();
    request.bins = m_runPanel->bins();
    request.method = m_runPanel->largeBinMethod();
    request.repeats = quick ? 1 : m_runPanel->repeats();
    JobWatcher* job = submitAnalysis(*m_bridge, request);
    m_job = job;
    connect(job, &JobWatcher::itemReady, this, [this](const std::any& item) {
        if (const auto* preview = std::any_cast<ImagePreview>(&item))
            showPreview(*preview);
        else
            showAnalysis(std::any_cast<const ImageAnalysis&>(item), false);
    });
    connect(job, &JobWatcher::progressChanged, this, &ImagePanel::showProgress);
    connect(job, &JobWatcher::finished, this, [this](const std::any& result) {
        m_job.clear();
        const auto& analysis = std::any_cast<const ImageAnalysis&>(result);
        showAnalysis(analysis);
        submitDeferredRegion();
        m_runPanel->showProblem({}, {});
        m_runPanel->showChosen(analysis.largeBins ? nullptr : &analysis.run.config);
    });
    connect(job, &JobWatcher::failed, this, [this](const JobError& error) {
        m_job.clear();
        showFailure(error);
        submitDeferredRegion();
        if (error.kind == JobError::Kind::Usage)
            m_runPanel->showProblem(QString::fromStdString(error.parameter),
                                    QString::fromStdString(error.message));
    });
}

void ImagePanel::showProgress(double fraction, const QString& stage) {
    if (m_inFlightQuick)
        return; // a region being dragged: the plot follows it, the status bar stays quiet
    emit message(
        tr("%1: %2 (%3 %)").arg(imageDisplayName(m_requested), stage).arg(qRound(fraction * 100)),
        0);
    m_progress->setValue(qRound(fraction * 1000));
}

bool ImagePanel::ShownImage::is(const QString& source, int page, const QSize& size) const {
    return this->source == source && this->page == page && this->size == size;
}

QString ImagePanel::imageTitle(const QString& source, int page, int pages, const QSize& size) {
    return tr("%1 (%2 × %3) — HistLab")
        .arg(withPage(imageDisplayName(source), page, pages))
        .arg(size.width())
        .arg(size.height());
}

void ImagePanel::showPreview(const ImagePreview& p) {
    if (m_shown.is(p.source, p.page, p.imageSize) && !m_imageView->image().isNull())
        return; // the image shown, analysed again: zoom, pan and region stay
    m_region.reset();
    m_imageView->setImage(p.preview, p.imageSize);
    m_imageView->setSourceDepth(p.depth);
    m_imageView->setSourcePixels(p.pixels);
    m_shown = {p.source, p.page, p.pages, p.imageSize};
    showPageChooser();
    // Its histograms are on their way; the previous image's would describe another picture.
    m_plot->clearHistograms();
    m_statistics->clear();
    for (QAction* action : m_exportActions)
        action->setEnabled(false);
    m_runLine = tr("%1: computing its histograms…").arg(imageDisplayName(p.source));
    m_summary->showWorking(m_runLine);
    m_images->offerPreview(p.source, p.preview, p.imageSize);
    emit titleChanged(imageTitle(p.source, p.page, p.pages, p.imageSize));
    m_imageView->repaint(); // painted now, so that imageShown() means visible
    emit imageShown();
}

void ImagePanel::restoreShownImage() {
    if (m_shown.is(m_current.source, m_current.page, m_current.imageSize))
        return;
    // The preview of an image whose analysis failed or was cancelled is up: back to the image
    // whose histograms are the current ones (or to none).
    m_imageView->setImage(m_current.preview, m_current.imageSize);
    m_imageView->setSourceDepth(m_current.depth);
    m_imageView->setSourcePixels(m_current.pixels);
    m_shown = {m_current.source, m_current.page, m_current.pages, m_current.imageSize};
    showPageChooser();
    // The current analysis's region, selected again (its histograms are the ones shown).
    m_region = m_current.region;
    m_regionQuick = false;
    if (m_region)
        m_imageView->selectRegion(*m_region);
    if (m_current.source.isEmpty()) {
        emit titleChanged(tr("HistLab"));
        m_runLine.clear();
        m_summary->clear();
        return;
    }
    showResults();
}

void ImagePanel::showAnalysis(const ImageAnalysis& analysis, bool timed) {
    // A region's answer comes without a preview: the view keeps the whole image, as it does
    // (zoom, pan, region) when the same image is analysed again or its preview came first.
    const bool sameImage = analysis.source == m_current.source && analysis.page == m_current.page &&
                           analysis.imageSize == m_current.imageSize &&
                           !m_imageView->image().isNull();
    const bool previewed = m_shown.is(analysis.source, analysis.page, analysis.imageSize) &&
                           !m_imageView->image().isNull();
    const QImage preview = analysis.region ? m_current.preview : analysis.preview;
    m_current = analysis;
    m_current.preview = preview;
    if (!previewed) {
        m_region.reset();
        m_imageView->setImage(preview, analysis.imageSize);
    } else if (!analysis.region) {
        m_imageView->setPreview(preview);
    }
    m_imageView->setSourceDepth(analysis.depth);
    m_imageView->setSourcePixels(analysis.pixels);
    m_shown = {analysis.source, analysis.page, analysis.pages, analysis.imageSize};
    if (previewed && !analysis.region && !m_region && m_imageView->region()) {
        // A region selected on the preview while its histograms were computed (requests for
        // it waited): analysed next, with the Run panel's repeats.
        m_region = m_imageView->region();
        m_regionQuick = false;
        m_regionDeferred = true;
    }
    m_timingNote = timed ? QString() : tr("timing…");
    const QString summary = showResults();
    // The plot replots on the next event-loop turn.
    (timed ? m_announcePending : m_countsAnnouncePending) = true;
    emit message({}, 0);
    showPageChooser();
    if (!sameImage && !analysis.source.startsWith(QLatin1String(":/")))
        RecentFiles::add(QFileInfo(analysis.source).absoluteFilePath());
    // The counts are drawn first: the other tabs hear of the image after that replot (queued
    // before this), a few milliseconds that a 24-megapixel open waits on otherwise.
    if (timed) {
        shareCurrentImage();
    } else {
        // Only if it is still the image shown: a newer one has been (or will be) shared.
        QTimer::singleShot(0, this, [this, source = analysis.source, page = analysis.page] {
            if (m_current.source == source && m_current.page == page)
                shareCurrentImage();
        });
    }
    const QString logged = withPage(analysis.source, analysis.page, analysis.pages);
    qCInfo(lcUi).noquote() << logged << "analysed:" << summary;
    for (const std::string& note : analysis.run.notes)
        qCInfo(lcUi).noquote() << logged << "note:" << QString::fromStdString(note);
}

void ImagePanel::shareCurrentImage() {
    m_images->setCurrentImage(m_current.source);
    emit currentImageChanged(m_current.source, m_current.page, m_current.pages, m_current.imageSize,
                             m_current.preview);
}

QString ImagePanel::showResults() {
    const ImageAnalysis& analysis = m_current;
    if (analysis.largeBins) {
        std::vector<HistogramPlot::Series> series;
        for (const ImageChannelBins& c : analysis.largeBins->results)
            series.push_back({c.name, c.spec.lo, c.spec.hi, c.histogram.counts});
        m_plot->setHistograms(std::move(series));
    } else {
        m_plot->setHistograms(analysis.run.histograms);
    }
    m_statistics->setStatistics(analysis.statistics);
    for (QAction* action : m_exportActions)
        action->setEnabled(true);
    showSummary();
    emit titleChanged(
        imageTitle(analysis.source, analysis.page, analysis.pages, analysis.imageSize));
    return m_runLine;
}

void ImagePanel::showSummary() {
    m_runLine = describeCurrent();
    m_summary->setContent(summarizeAnalysis(m_current, m_timingNote));
}

QString ImagePanel::describeCurrent() const {
    const ImageAnalysis& analysis = m_current;
    QString summary =
        analysis.largeBins ? describeLargeBins(*analysis.largeBins) : describeRun(analysis.run);
    if (const std::optional<Region>& r = analysis.region)
        summary.prepend(regionText(*r) + QStringLiteral(" · "));
    if (!m_timingNote.isEmpty())
        summary += QStringLiteral(" · ") + m_timingNote;
    return summary;
}

// The pixel under the cursor and the zoom for the status bar; a region selected on the image
// becomes the histograms' input.
void ImagePanel::connectImageView() {
    m_pixelLabel = new QLabel;
    m_pixelLabel->setObjectName(QStringLiteral("pixelLabel"));
    m_zoomLabel = new QLabel;
    m_zoomLabel->setObjectName(QStringLiteral("zoomLabel"));
    m_zoomLabel->setToolTip(
        tr("Zoom: screen pixels per image pixel (View › Actual Size is 100 %)"));
    QLabel* pixelLabel = m_pixelLabel;
    QLabel* zoomLabel = m_zoomLabel;
    connect(m_imageView, &ImageView::hovered, pixelLabel,
            [pixelLabel](QPoint pixel, const QString& value) {
                pixelLabel->setText(tr("x %1, y %2: %3").arg(pixel.x()).arg(pixel.y()).arg(value));
            });
    connect(m_imageView, &ImageView::hoverLeft, pixelLabel, &QLabel::clear);
    connect(m_imageView, &ImageView::scaleChanged, zoomLabel, [zoomLabel](double scale) {
        zoomLabel->setText(tr("Zoom %1 %").arg(scale * 100, 0, 'f', scale < 0.1 ? 1 : 0));
    });
    connect(m_imageView, &ImageView::regionChanged, this,
            [this](const Region& region) { analyseRegion(region); });
    connect(m_imageView, &ImageView::regionCleared, this, [this] { analyseRegion(std::nullopt); });
}

void ImagePanel::analyseRegion(const std::optional<Region>& region) {
    const auto same = [](const std::optional<Region>& a, const std::optional<Region>& b) {
        if (!a || !b)
            return !a && !b;
        return a->x == b->x && a->y == b->y && a->width == b->width && a->height == b->height;
    };
    // While a region is being dragged each request runs once; the release asks again, with the
    // Run panel's repeats, for the same region.
    const bool quick = region && m_imageView->isSelecting();
    if (m_current.source.isEmpty() || (same(region, m_region) && (quick || !m_regionQuick)))
        return;
    // While another image loads, a request for this one would replace it (the newest wins);
    // the loaded image clears the region anyway.
    if (isBusy() && (m_requested != m_current.source || m_requestedPage != m_current.page))
        return;
    m_region = region;
    m_regionQuick = quick;
    if (quick && isBusy() && m_inFlightQuick) {
        // Cancelling the running region for each mouse move would show nothing until the mouse
        // stops: let it finish, then ask for the newest region (finishRegionDeferral).
        m_regionDeferred = true;
        return;
    }
    submit(m_current.source, m_current.page, quick); // with m_region: the newest region wins
    if (region)
        emit message(tr("Analysing %1…").arg(regionText(*region)), 0);
}

void ImagePanel::submitDeferredRegion() {
    if (m_regionDeferred)
        submit(m_current.source, m_current.page, m_regionQuick); // the newest region
}

void ImagePanel::showFailure(const JobError& error) {
    // A request replaced by a newer one never gets here (JobBridge drops it): this is Cancel.
    restoreShownImage();            // the current image, if the failed one's preview was up
    showPageChooser();              // and its page, if another was asked for
    if (m_shown.source.isEmpty()) { // no longer "Loading…" (an input error says more below)
        m_imageView->setPlaceholder(openHint());
        m_summary->clear();
    }
    if (!m_timingNote.isEmpty()) {
        // The histograms shown were counted and verified; only their timing did not finish.
        m_timingNote =
            error.kind == JobError::Kind::Cancelled ? tr("timing cancelled") : tr("timing failed");
        showSummary();
    }
    if (error.kind == JobError::Kind::Cancelled) {
        emit message(tr("%1: cancelled").arg(imageDisplayName(m_requested)), kPassingMs);
        qCInfo(lcUi).noquote() << m_requested << "cancelled";
        return;
    }
    m_lastError = QString::fromStdString(error.message);
    if (error.kind == JobError::Kind::Usage) {
        m_lastError =
            m_runPanel->inFieldWords(QString::fromStdString(error.parameter), m_lastError);
        emit failed(m_lastError);
        // A parameter combination the core rejects: the status bar says why, no dialog while
        // the person is still turning the knobs.
        emit message(tr("Cannot run: %1").arg(m_lastError), kPassingMs);
        qCWarning(lcUi).noquote() << "usage error:" << m_lastError;
        emit errorShown(m_lastError);
        return;
    }
    emit failed(m_lastError);
    emit message(tr("Could not open %1").arg(imageDisplayName(m_requested)), kPassingMs);
    if (m_current.source.isEmpty() && error.kind == JobError::Kind::Input) // the pane says why
        m_imageView->setPlaceholder(
            tr("Could not open %1: %2\n\n%3")
                .arg(imageDisplayName(m_requested), m_lastError, openHint()));
    // The list marks the file that failed and goes back to the image still shown.
    m_images->setFailed(m_requested, m_lastError);
    if (!m_current.source.isEmpty())
        m_images->setCurrentImage(m_current.source);
    QString details;
    if (!error.buildLog.empty())
        details =
            QStringLiteral("%1 %2\n\n%3")
                .arg(QString::fromStdString(error.kernelFile),
                     QString::fromStdString(error.options), QString::fromStdString(error.buildLog));
    QString logged = m_lastError;
    if (!details.isEmpty())
        logged += QLatin1Char('\n') + details; // the build log, in the Log panel
    qCWarning(lcUi).noquote() << jobErrorKindName(error.kind) << "error:" << logged;
    emit errorShown(m_lastError);
    if (m_errorDialogs)
        showMessageBox(m_lastError, details);
}

void ImagePanel::askRegion() {
    if (m_current.source.isEmpty() || m_current.imageSize.isEmpty()) {
        emit message(tr("Open an image first: a region is part of one"), 5000);
        return;
    }
    emit showRequested(); // where the region shows
    auto* dialog = new RegionDialog(m_current.imageSize, m_imageView->region(), window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RegionDialog::regionChosen, m_imageView, &ImageView::selectRegion);
    connect(dialog, &RegionDialog::wholeImageChosen, m_imageView, &ImageView::clearRegion);
    dialog->open(); // window-modal, without blocking the event loop
}

void ImagePanel::showSelectedValues() {
    const auto range = m_plot->selectedValues();
    if (!range || m_imageView->image().isNull())
        return m_imageView->setHighlight({});
    // The channel marked: gray where it shows, else the first visible colour channel.
    QString channel;
    for (const HistogramPlot::Series& h : m_plot->histograms()) {
        const QString name = QString::fromStdString(h.name);
        if (m_plot->channelVisible(name) && (channel.isEmpty() || name == QLatin1String("gray")))
            channel = name;
    }
    m_imageView->setHighlight(highlightValues(m_imageView->image(), m_current.depth, channel,
                                              range->first, range->second));
}

void ImagePanel::showBusy(bool busy) {
    m_progress->setValue(0);
    m_progress->setVisible(busy && !m_inFlightQuick &&
                           m_bridge->hasStarted(QString::fromLatin1(lane)));
}

void ImagePanel::runAgain() {
    // While a job runs, its image is the current one; else what is shown, or, when nothing is
    // (the first run failed, e.g. on a device that does not exist), what was asked for.
    const bool requested = isBusy() || m_current.source.isEmpty();
    const QString source = requested ? m_requested : m_current.source;
    if (!source.isEmpty())
        open(source, requested ? m_requestedPage : m_current.page);
}

void ImagePanel::cancelAnalysis() {
    if (!isBusy())
        return;
    m_regionDeferred = false;
    m_bridge->cancel(QString::fromLatin1(lane));
    emit message(tr("%1: cancelling…").arg(imageDisplayName(m_requested)), 0);
}

} // namespace histlab::ui
