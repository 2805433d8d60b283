#include "window/mainwindow.h"

#include "bridge/logging.h"
#include "common/helpdialogs.h"
#include "common/regiondialog.h"
#include "common/theme.h"
#include "image/image.h"
#include "panels/blurpanel.h"
#include "panels/dashboardpanel.h"
#include "panels/devicepanel.h"
#include "panels/equalizepanel.h"
#include "panels/experimentpanel.h"
#include "panels/jointpanel.h"
#include "panels/logpanel.h"
#include "panels/memorypanel.h"
#include "panels/runpanel.h"
#include "panels/runsummary.h"
#include "panels/scanpanel.h"
#include "panels/statisticspanel.h"
#include "panels/wordspanel.h"
#include "plots/histogramplot.h"
#include "views/imagelist.h"
#include "views/imageview.h"
#include "views/tablecopy.h"

#include <pipelines/batch/batch.h>
#include <pipelines/histogram256/histogramreport.h>
#include <report/files.h>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QScreen>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

// A static library's resources must be registered by name, from the global namespace.
static void initHistlabResources() {
    Q_INIT_RESOURCE(resources);
}

namespace histlab::ui {

namespace {

/// A region as the window names it: its corner and size in image pixels.
QString regionText(const Region& r) {
    return MainWindow::tr("region %1,%2 %3×%4").arg(r.x).arg(r.y).arg(r.width).arg(r.height);
}

/// What the image pane says while it has no image.
QString openHint() {
    return QObject::tr("Open an image (File › Open, Ctrl+O) or drop one here.\n"
                       "File › Open Sample shows the bundled photograph.");
}

/// "*.png *.jpg …": every image file extension HistLab reads, for the Open dialog's filter.
QString imageFilePatterns() {
    QStringList patterns;
    for (const std::string& extension : imageFileExtensions())
        patterns << QStringLiteral("*.") + QString::fromStdString(extension);
    return patterns.join(QLatin1Char(' '));
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_bridge(new JobBridge(this))
    , m_imageView(new ImageView)
    , m_plot(new HistogramPlot)
    , m_statistics(new StatisticsPanel)
    , m_summary(new RunSummary) {
    initHistlabResources();
    setWindowTitle(tr("HistLab"));

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
    pageLayout->addStretch(1);
    m_pageBar->setVisible(false);
    connect(m_pageBox, &QSpinBox::valueChanged, this, &MainWindow::showPage);
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->setSpacing(0);
    leftLayout->addWidget(m_imageView, 1);
    leftLayout->addWidget(m_pageBar);

    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(splitter, tr("&Image"));
    createTabs();
    setCentralWidget(m_tabs);
    m_splitter = splitter;
    m_rightSplitter = right;

    createDocks();
    createMenus();
    connectImageView();
    m_imageView->setPlaceholder(openHint());
    createRunControls();
    createHelpMenu();
    for (QTableWidget* table : findChildren<QTableWidget*>())
        enableTableCopy(table); // Ctrl+C and Copy Table, as tab-separated text
    setAcceptDrops(true);
    // 1200 x 700, or what the screen has room for (a 1600 x 1000 screen at 150 % offers about
    // 1067 x 627 device-independent pixels); a size left last time is restored below.
    QSize first(1200, 700);
    if (const QScreen* screen = this->screen())
        first = first.boundedTo(screen->availableGeometry().size() * 0.96);
    resize(first);
    splitter->setSizes({560, 640});
    const int tableHeight = m_statistics->sizeHint().height();
    right->setSizes({std::max(m_plot->minimumHeight(), 640 - tableHeight), tableHeight});
    restoreSettings();
    if (isDark(QApplication::palette()))
        followPalette(); // a dark desktop, or the dark theme: the plots too
    m_plot->setSettingsKey(QStringLiteral("histogramPlot")); // its options, as left last time

    connect(m_bridge, &JobBridge::previewReady, this,
            [this](quint64, const ImagePreview& preview) { showPreview(preview); });
    connect(m_bridge, &JobBridge::countsReady, this,
            [this](quint64, const ImageAnalysis& counted) { showAnalysis(counted, false); });
    connect(m_bridge, &JobBridge::analysisFinished, this,
            [this](quint64, const ImageAnalysis& analysis) {
                showAnalysis(analysis);
                submitDeferredRegion();
            });
    connect(m_bridge, &JobBridge::analysisFailed, this, [this](quint64, const JobError& error) {
        showFailure(error);
        submitDeferredRegion();
    });
    connect(
        m_bridge, &JobBridge::progressChanged, this,
        [this](quint64, double fraction, const QString& stage) { showProgress(fraction, stage); });
    // Values selected on the histogram (Shift + drag): their pixels marked on the image.
    connect(m_plot, &HistogramPlot::valueRangeChanged, this, &MainWindow::showSelectedValues);
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

MainWindow::~MainWindow() {
    // The children go next, the Joint tab and the Images list among them, in no order this
    // window controls: a list emptied while being destroyed must not update a tab.
    disconnect(m_images->model(), nullptr, this, nullptr);
    RecentFiles::flush(); // the list opened in this window, saved before the program ends
}

QString MainWindow::sampleImagePath() {
    return QStringLiteral(":/histlab/sample.png");
}

QString MainWindow::runSummary() const {
    return m_runLine;
}

// The tabs after the Image tab, in order: each one's title (with its mnemonic, also its View
// menu entry), the View menu's shortcut, its tooltip, how it is made and, for a run of its own
// that the Run menu offers, that entry.
void MainWindow::createTabs() {
    m_tabTable = {
        {tr("E&xperiments"), QKeySequence(Qt::CTRL | Qt::Key_T),
         tr("Why the kernel is as fast as it is: sweeps of copies, reads, work-groups, stages "
            "and variants, point by point"),
         [this] { return m_experiments = new ExperimentPanel(m_bridge); }},
        {tr("Bl&ur"), QKeySequence(Qt::CTRL | Qt::Key_B),
         tr("The box blur of the shown image, next to it or split with it: border modes, "
            "variants, the reference text's launches"),
         [this] { return m_blur = new BlurPanel(m_bridge); }},
        {tr("E&qualize"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
         tr("The histogram equalization of the shown image on the device: before and after, "
            "per-stage timings, histograms and CDFs"),
         [this] { return m_equalize = new EqualizePanel(m_bridge); }, tr("&Equalize Image"),
         tr("Equalize the shown image on the Run dock's device")},
        {tr("&Joint"), QKeySequence(Qt::CTRL | Qt::Key_J),
         tr("The joint histogram of two images of the Images list (or two channels of one) as a "
            "heat map with its marginals: entropies, mutual information, each method's time"),
         [this] { return m_joint = new JointPanel(m_bridge); }, tr("Run &Joint Histogram"),
         tr("The Joint tab's run with its images, channels, mask and bins")},
        {tr("&Words"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W),
         tr("A folder of images as bags of visual words: a codebook by k-means on the device, "
            "each image's histogram of words, its nearest images, each kernel's time"),
         [this] { return m_words = new WordsPanel(m_bridge); }, tr("Build &Words Codebook"),
         tr("The Words tab's codebook from its folder, detector and K")},
        {tr("S&cans"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S),
         tr("Prefix sums on the device: GB/s against the work-group size, against the same "
            "run's copy kernel"),
         [this] { return m_scans = new ScanPanel(m_bridge); }, tr("Run &Scan Benchmark"),
         tr("The Scans tab's benchmark with its settings")},
        {tr("D&evices"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D),
         tr("Every OpenCL platform and device: what it reports and what HistLab's probes found; "
            "copy as text, export as JSON"),
         [this] { return m_devices = new DevicePanel(m_bridge); }},
        {tr("&Dashboard"), QKeySequence(Qt::CTRL | Qt::Key_D),
         tr("Every pipeline on every chosen device: GB/s and % of the device's own ceiling, "
            "live"),
         [this] { return m_dashboard = new DashboardPanel(m_bridge); }, tr("Run &Dashboard"),
         tr("The Dashboard tab's run with its devices and pipelines")},
        {tr("&Memory"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M),
         tr("The memory lab: buffer reversal against the copy kernel, bandwidth per vector "
            "width, transfers and launch latency"),
         [this] { return m_memory = new MemoryPanel(m_bridge); }, tr("Run &Memory Lab"),
         tr("The Memory tab's run with its parts and sizes")},
    };
    for (Tab& tab : m_tabTable) {
        tab.widget = tab.create();
        m_tabs->setTabToolTip(m_tabs->addTab(tab.widget, tab.title), tab.toolTip);
    }
    // What a tab reports goes to the status bar for a while; the Run dock chooses the device.
    const auto say = [this](const QString& message) { statusBar()->showMessage(message, 8000); };
    for (JobPanel* panel : jobPanels()) {
        connect(panel, &JobPanel::problem, this, say);
        connect(panel, &JobPanel::runEnded, this, say);
        panel->setDeviceSelectorSource([this] { return m_runPanel->deviceSelector(); });
    }
    connect(m_devices, &DevicePanel::problem, this, say);
}

std::vector<JobPanel*> MainWindow::jobPanels() const {
    std::vector<JobPanel*> panels;
    for (const Tab& tab : m_tabTable)
        if (auto* panel = qobject_cast<JobPanel*>(tab.widget))
            panels.push_back(panel);
    return panels;
}

void MainWindow::setErrorDialogsEnabled(bool enabled) {
    m_errorDialogs = enabled;
    for (JobPanel* panel : jobPanels())
        panel->setErrorDialogsEnabled(enabled);
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::chooseImage);
    open->setShortcut(QKeySequence::Open);
    open->setStatusTip(tr("One or more images; several go to the Images list"));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    fillRecentMenu();
    QAction* sample = file->addAction(tr("Open &Sample"), this, &MainWindow::openSample);
    sample->setStatusTip(tr("The bundled sample photograph"));
    file->addSeparator();
    QAction* exportPlotAction = file->addAction(tr("&Export Plot…"), this, &MainWindow::exportPlot);
    exportPlotAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportPlotAction->setStatusTip(tr("The histogram plot as PNG, JPG, PDF or SVG"));
    QAction* histogramCsvAction =
        file->addAction(tr("Export &Histogram CSV…"), this, &MainWindow::chooseHistogramCsv);
    histogramCsvAction->setStatusTip(
        tr("bin,r,g,b,gray: the counts, as histlab-cli --csv writes them"));
    QAction* statisticsCsvAction =
        file->addAction(tr("Export S&tatistics CSV…"), this, &MainWindow::chooseStatisticsCsv);
    statisticsCsvAction->setStatusTip(
        tr("One row per channel, as histlab-cli --stats-csv writes them"));
    QAction* copy = file->addAction(tr("&Copy Plot"), this, &MainWindow::copyPlot);
    copy->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    copy->setStatusTip(tr("The histogram plot as an image on the clipboard"));
    QAction* copyCounts =
        file->addAction(tr("Copy Histogram Co&unts"), this, &MainWindow::copyHistogramCounts);
    copyCounts->setStatusTip(tr("The counts of every bin as tab-separated text, for a "
                                "spreadsheet (the statistics table copies with Ctrl+C)"));
    m_exportActions = {exportPlotAction, histogramCsvAction, statisticsCsvAction, copy, copyCounts};
    for (QAction* action : m_exportActions)
        action->setEnabled(false); // until there is something to export
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* statistics = view->addAction(tr("&Statistics"));
    statistics->setCheckable(true);
    statistics->setChecked(true);
    statistics->setStatusTip(tr("Per-channel statistics below the histograms"));
    connect(statistics, &QAction::toggled, m_statistics, &QWidget::setVisible);
    // Each tab's entry shows it; its shortcut again goes back to the image.
    for (const Tab& tab : m_tabTable) {
        QAction* show = view->addAction(tab.title);
        show->setShortcut(tab.shortcut);
        show->setStatusTip(tr("The %1 tab (%2 again: back to the image)")
                               .arg(QString(tab.title).remove(QLatin1Char('&')),
                                    tab.shortcut.toString(QKeySequence::NativeText)));
        QWidget* page = tab.widget;
        connect(show, &QAction::triggered, this, [this, page] {
            m_tabs->setCurrentIndex(m_tabs->currentWidget() == page ? 0 : m_tabs->indexOf(page));
        });
    }
    view->addAction(m_imagesDock->toggleViewAction());
    QAction* logAction = m_logDock->toggleViewAction();
    logAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    view->addAction(logAction);
    view->addSeparator();
    view->addActions(m_imageView->viewActions()); // zoom in/out, 1:1, fit
    // Two regions or images compared: the shown histograms kept as the reference.
    QAction* pin = view->addAction(tr("Pin as Re&ference"), this, [this] {
        if (m_plot->histograms().empty())
            return statusBar()->showMessage(tr("No histograms to pin yet"), 5000);
        QString label =
            withPage(imageDisplayName(m_current.source), m_current.page, m_current.pages);
        if (m_current.region)
            label += QStringLiteral(", ") + regionText(*m_current.region);
        m_plot->setReference(m_plot->histograms(), label);
        statusBar()->showMessage(
            tr("%1 pinned: select another region or open another image to compare").arg(label),
            8000);
    });
    pin->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    pin->setStatusTip(tr("Keep the shown histograms, dashed, to compare another region or "
                         "image with (chi-square, intersection, Bhattacharyya, correlation)"));
    QAction* unpin = view->addAction(tr("Clear Reference"), m_plot, &HistogramPlot::clearReference);
    unpin->setStatusTip(tr("Stop comparing with the pinned histograms"));
    QAction* region = view->addAction(tr("&Region…"), this, &MainWindow::askRegion);
    region->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    region->setStatusTip(tr("Type the region whose histograms show: its corner and size in "
                            "the image's pixels"));
    // A multi-page TIFF's pages, with ImageJ's keys for a stack's slices.
    view->addSeparator();
    m_nextPage = view->addAction(tr("&Next Page"), this, [this] { showPage(pageAsked() + 1); });
    m_nextPage->setShortcut(QKeySequence(Qt::Key_Period));
    m_nextPage->setStatusTip(tr("The next page of a multi-page TIFF"));
    m_previousPage =
        view->addAction(tr("&Previous Page"), this, [this] { showPage(pageAsked() - 1); });
    m_previousPage->setShortcut(QKeySequence(Qt::Key_Comma));
    m_previousPage->setStatusTip(tr("The previous page of a multi-page TIFF"));
    m_nextPage->setEnabled(false);
    m_previousPage->setEnabled(false);
    // The colours: the system's, or Fusion light or dark; remembered.
    view->addSeparator();
    QMenu* themes = view->addMenu(tr("&Theme"));
    auto* group = new QActionGroup(themes);
    const Theme current = savedTheme();
    for (Theme theme : {Theme::System, Theme::Light, Theme::Dark}) {
        QAction* a = themes->addAction(theme == Theme::System  ? tr("&System")
                                       : theme == Theme::Light ? tr("&Light")
                                                               : tr("&Dark"));
        a->setCheckable(true);
        a->setChecked(theme == current);
        a->setData(themeName(theme));
        group->addAction(a);
        connect(a, &QAction::triggered, this, [theme] {
            applyTheme(theme);
            saveTheme(theme);
        });
    }
}

void MainWindow::changeEvent(QEvent* event) {
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
        followPalette();
}

void MainWindow::followPalette() {
    for (QCustomPlot* plot : findChildren<QCustomPlot*>()) {
        applyPlotPalette(plot);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

// Help, the last menu (after Run).
void MainWindow::createHelpMenu() {
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* guide =
        help->addAction(tr("HistLab &Guide"), this, [this] { guideDialog(this)->show(); });
    guide->setShortcut(QKeySequence::HelpContents);
    guide->setStatusTip(tr("This build's README: what HistLab computes, how it measures, the "
                           "command line, the figures"));
    QAction* keys =
        help->addAction(tr("&Keyboard Shortcuts"), this, [this] { shortcutsDialog(this)->show(); });
    keys->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    keys->setStatusTip(tr("Every shortcut of the window and its tabs"));
    help->addSeparator();
    help->addAction(tr("&About HistLab"), this, &MainWindow::showAbout)
        ->setStatusTip(tr("The version, the libraries and the OpenCL devices"));
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::showAbout() {
    auto* box =
        new QMessageBox(QMessageBox::Information, tr("About HistLab"),
                        aboutText(m_deviceList, m_deviceListError), QMessageBox::Close, this);
    box->setObjectName(QStringLiteral("aboutBox"));
    box->setTextFormat(Qt::RichText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open(); // window-modal, no nested event loop
}

// The Images dock (left; shown once a second image joins the list) and the Log dock (bottom,
// hidden until View › Log). Where they are, and whether they show, is remembered.
void MainWindow::createDocks() {
    m_images = new ImageList;
    m_imagesDock = new QDockWidget(tr("Images"), this);
    m_imagesDock->setObjectName(QStringLiteral("imagesDock"));
    m_imagesDock->setWidget(m_images);
    addDockWidget(Qt::LeftDockWidgetArea, m_imagesDock);
    m_imagesDock->hide();
    connect(m_images, &ImageList::batchRequested, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Save the Histograms of Every Image"),
            QDir(m_lastDir).filePath(QStringLiteral("histograms.csv")), tr("CSV table (*.csv)"));
        if (!path.isEmpty())
            runBatchOnList(path);
    });
    connect(m_images, &ImageList::imageChosen, this, [this](const QString& path) {
        showImageTab();
        openImage(path);
    });
    // The Joint tab chooses among the images of the list, whatever changes it; the Words tab
    // takes the folder of the first while it has none.
    const auto listChanged = [this] {
        m_joint->setImages(m_images->paths());
        m_words->setImages(m_images->paths());
    };
    connect(m_images->model(), &QAbstractItemModel::rowsInserted, this, listChanged);
    connect(m_images->model(), &QAbstractItemModel::rowsRemoved, this, listChanged);
    connect(m_images->model(), &QAbstractItemModel::modelReset, this, listChanged);

    m_log = new LogPanel;
    m_logDock = new QDockWidget(tr("Log"), this);
    m_logDock->setObjectName(QStringLiteral("logDock"));
    m_logDock->setWidget(m_log);
    addDockWidget(Qt::BottomDockWidgetArea, m_logDock);
    m_logDock->hide();
}

void MainWindow::fillRecentMenu() {
    m_recentMenu->clear();
    const QStringList recent = RecentFiles::load();
    int number = 0;
    for (const QString& path : recent) {
        ++number;
        const bool exists = QFileInfo::exists(path);
        QString label = QFileInfo(path).fileName();
        label.replace(QLatin1Char('&'), QStringLiteral("&&"));
        if (number < 10)
            label.prepend(QStringLiteral("&%1 ").arg(number));
        if (!exists)
            label += tr(" (missing)");
        QAction* action =
            m_recentMenu->addAction(label, this, [this, path] { openImages({path}); });
        action->setToolTip(QDir::toNativeSeparators(path));
        action->setStatusTip(QDir::toNativeSeparators(path));
        action->setEnabled(exists);
    }
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("(none yet)"))->setEnabled(false);
    m_recentMenu->addSeparator();
    QAction* clear = m_recentMenu->addAction(tr("&Clear Menu"), this, [this] {
        RecentFiles::clear();
        fillRecentMenu();
    });
    clear->setEnabled(!recent.isEmpty());
}

void MainWindow::openImages(const QStringList& paths) {
    if (paths.isEmpty())
        return;
    const int before = m_images->count();
    m_images->addImages(paths);
    showImagesDockOnSecond(before);
    showImageTab();
    openImage(paths.first());
}

void MainWindow::openSample() {
    showImageTab();
    openImage(sampleImagePath());
}

void MainWindow::showImageTab() {
    // The tabs that work on the shown image or the list's (Blur, Equalize, Joint) show the
    // new one themselves: the user stays there. From the others, the image is what they asked
    // to see.
    QWidget* tab = m_tabs->currentWidget();
    if (tab != m_blur && tab != m_equalize && tab != m_joint)
        m_tabs->setCurrentIndex(0);
}

void MainWindow::showImagesDockOnSecond(int countBefore) {
    // Once, when the list first holds two images: after that, closing the dock is respected.
    if (countBefore < 2 && m_images->count() >= 2)
        m_imagesDock->show();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    // Files, and anything else that might be mistaken for one: what is not an image is refused
    // with a reason on drop, not silently with a forbidden cursor.
    if (event->mimeData()->hasUrls() || event->mimeData()->hasText())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    dropFiles(*event->mimeData());
    event->acceptProposedAction();
}

QStringList MainWindow::dropFiles(const QMimeData& mime) {
    const DropScreening screening = screenDrop(mime);
    openImages(screening.images);
    if (screening.refused.isEmpty())
        return {};
    const QString message = tr("Not opened (only image files can be dropped):\n%1")
                                .arg(screening.refused.join(QLatin1Char('\n')));
    m_lastError = message;
    statusBar()->showMessage(screening.refused.size() == 1
                                 ? tr("Not opened: %1").arg(screening.refused.first())
                                 : tr("%1 dropped items were not opened: View › Log says why")
                                       .arg(screening.refused.size()));
    qCWarning(lcUi).noquote() << message;
    emit errorShown(message);
    if (m_errorDialogs)
        showMessageBox(message);
    return screening.refused;
}

void MainWindow::runBatchOnList(const QString& csvPath) {
    std::vector<std::string> files;
    int builtIn = 0;
    for (const QString& path : m_images->paths()) {
        if (path.startsWith(QLatin1String(":/")))
            ++builtIn; // the bundled sample is no file the core's reader can open
        else
            files.push_back(QFile::encodeName(path).toStdString());
    }
    const auto done = [this](const QString& summary, bool ok) {
        statusBar()->showMessage(summary, 20000);
        qCInfo(lcUi).noquote() << summary;
        if (!ok && m_errorDialogs)
            showMessageBox(summary);
        emit batchFinished(summary, ok);
    };
    if (files.empty())
        return done(tr("No image files in the Images list to count (the bundled sample is not "
                       "a file)"),
                    false);
    const std::string out = QFile::encodeName(csvPath).toStdString();
    JobWatcher* watcher = m_bridge->submit(
        QStringLiteral("batch"), [files, out](JobContext& ctx, const ItemSink& post) -> std::any {
            BatchParams params;
            params.source.files = files;
            std::vector<int> devices(ctx.devices().infos().size());
            if (devices.empty())
                throw DeviceError("no OpenCL device to count on");
            for (std::size_t i = 0; i < devices.size(); ++i)
                devices[i] = int(i);
            BatchResult result = runBatch(ctx, devices, params, [&](const BatchProgress& p) {
                if (post)
                    post(p);
            });
            writeFileAtomically(out, batchCsv(BatchPipeline::Histogram, result.images));
            result.images.clear(); // the GUI thread needs only the totals
            result.images.shrink_to_fit();
            return result;
        });
    statusBar()->showMessage(
        tr("Histograms of %n image(s) on every device…", nullptr, int(files.size())));
    connect(watcher, &JobWatcher::itemReady, this, [this](const std::any& item) {
        const BatchProgress& p = std::any_cast<const BatchProgress&>(item);
        statusBar()->showMessage(tr("Histograms of every image: %1 of %2, %3 images/s, about %4 s "
                                    "left")
                                     .arg(p.done)
                                     .arg(p.total)
                                     .arg(p.imagesPerSecond, 0, 'f', 1)
                                     .arg(p.secondsLeft, 0, 'f', 0));
    });
    const QString shown = QDir::toNativeSeparators(csvPath);
    connect(watcher, &JobWatcher::finished, this,
            [done, shown, builtIn, count = files.size()](const std::any& value) {
                const BatchResult& r = std::any_cast<const BatchResult&>(value);
                QStringList perDevice;
                for (const BatchDevice& d : r.devices)
                    perDevice << QStringLiteral("%1: %2")
                                     .arg(QString::fromStdString(d.info.name))
                                     .arg(d.images);
                const double perSecond = r.wallMs > 0 ? 1000.0 * double(count) / r.wallMs : 0;
                QString summary =
                    tr("Histograms of %1 image(s) on %2 device(s) (%3), %4 images/s: %5 not "
                       "counted, %6 mismatched; saved to %7")
                        .arg(count)
                        .arg(r.devices.size())
                        .arg(perDevice.join(QStringLiteral(", ")))
                        .arg(perSecond, 0, 'f', 1)
                        .arg(r.failed)
                        .arg(r.mismatches)
                        .arg(shown);
                if (builtIn)
                    summary += tr(" (the bundled sample left out)");
                done(summary, r.failed == 0 && r.mismatches == 0);
            });
    connect(watcher, &JobWatcher::failed, this, [done](const JobError& error) {
        if (error.kind == JobError::Kind::Cancelled)
            return done(tr("Histograms of every image stopped; no table was saved"), false);
        done(tr("Histograms of every image failed: %1").arg(QString::fromStdString(error.message)),
             false);
    });
}

void MainWindow::cancelBatch() {
    m_bridge->cancel(QStringLiteral("batch"));
}

void MainWindow::showMessageBox(const QString& message, const QString& details) {
    // Window-modal and opened without exec(): no nested event loop, the window stays live.
    auto* box =
        new QMessageBox(QMessageBox::Warning, tr("HistLab"), message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    if (!details.isEmpty())
        box->setDetailedText(details);
    box->open();
}

void MainWindow::chooseImage() {
    const QStringList paths =
        QFileDialog::getOpenFileNames(this, tr("Open Images"), m_lastDir,
                                      tr("Images (%1);;All files (*)").arg(imageFilePatterns()));
    if (paths.isEmpty())
        return;
    rememberFolder(paths.first());
    openImages(paths);
}

// Settings live in QSettings("HistLab", "HistLab"): the last folder as soon as it changes, the
// window's geometry and splitters when it closes.
void MainWindow::restoreSettings() {
    QSettings settings(QStringLiteral("HistLab"), QStringLiteral("HistLab"));
    m_lastDir = settings.value(QStringLiteral("lastFolder"), m_lastDir).toString();
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    m_splitter->restoreState(settings.value(QStringLiteral("window/splitter")).toByteArray());
    m_rightSplitter->restoreState(
        settings.value(QStringLiteral("window/rightSplitter")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/docks")).toByteArray()); // docks, shown
    // Whether the Run dock shows with the Image tab: the dock's own state says only whether it
    // was shown on the tab that was last open.
    m_runDockWanted = settings.value(QStringLiteral("window/runDockShown"), true).toBool();
    updateRunDock();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings(QStringLiteral("HistLab"), QStringLiteral("HistLab"));
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/splitter"), m_splitter->saveState());
    settings.setValue(QStringLiteral("window/rightSplitter"), m_rightSplitter->saveState());
    settings.setValue(QStringLiteral("window/docks"), saveState());
    settings.setValue(QStringLiteral("window/runDockShown"), m_runDockWanted);
    QMainWindow::closeEvent(event);
}

void MainWindow::rememberFolder(const QString& file) {
    m_lastDir = QFileInfo(file).absolutePath();
    QSettings(QStringLiteral("HistLab"), QStringLiteral("HistLab"))
        .setValue(QStringLiteral("lastFolder"), m_lastDir);
}

/// "<last folder>/<image name>-<what>.<suffix>", e.g. ".../sample-histogram.png".
QString MainWindow::defaultExportPath(const QString& what, const QString& suffix) const {
    QString base = QFileInfo(m_current.source).completeBaseName();
    if (base.isEmpty())
        base = QStringLiteral("histlab");
    base += QLatin1Char('-');
    base += what;
    base += QLatin1Char('.');
    base += suffix;
    return QDir(m_lastDir.isEmpty() ? QDir::homePath() : m_lastDir).filePath(base);
}

void MainWindow::exportPlot() {
    auto* dialog = new ExportDialog(m_plot->size(), m_lastDir, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileChooser(m_saveChooser);
    dialog->setFilePath(defaultExportPath(QStringLiteral("histogram"), QStringLiteral("png")));
    connect(dialog, &QDialog::accepted, this,
            [this, dialog] { exportPlotTo(dialog->filePath(), dialog->options()); });
    dialog->open(); // window-modal, no nested event loop
}

void MainWindow::chooseHistogramCsv() {
    const QString path =
        askSavePath(m_saveChooser, this, tr("Export Histogram CSV"),
                    defaultExportPath(QStringLiteral("histogram"), QStringLiteral("csv")),
                    tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty())
        exportHistogramCsvTo(path);
}

void MainWindow::chooseStatisticsCsv() {
    const QString path =
        askSavePath(m_saveChooser, this, tr("Export Statistics CSV"),
                    defaultExportPath(QStringLiteral("statistics"), QStringLiteral("csv")),
                    tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty())
        exportStatisticsCsvTo(path);
}

ExportResult MainWindow::exportPlotTo(const QString& path, const PlotExportOptions& options) {
    PlotExportOptions titled = options;
    if (titled.title.isEmpty())
        titled.title = plotTitle();
    return finishExport(histlab::ui::exportPlot(*m_plot, path, titled), path);
}

QString MainWindow::plotTitle() const {
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

ExportResult MainWindow::exportHistogramCsvTo(const QString& path) {
    if (m_current.largeBins)
        return finishExport(
            writeFileSafely(path, QByteArray::fromStdString(imageBinsCsv(*m_current.largeBins))),
            path);
    return finishExport(exportHistogramCsv(m_current.run, path), path);
}

ExportResult MainWindow::exportStatisticsCsvTo(const QString& path) {
    return finishExport(exportStatisticsCsv(m_current.statistics, path), path);
}

void MainWindow::copyHistogramCounts() {
    // The Export Histogram CSV text with tabs: its fields are numbers and channel names, never
    // quoted, so every comma is a separator.
    QString text = QString::fromStdString(m_current.largeBins ? imageBinsCsv(*m_current.largeBins)
                                                              : histogramCsv(m_current.run));
    text.replace(QLatin1Char(','), QLatin1Char('\t'));
    QGuiApplication::clipboard()->setText(text);
    statusBar()->showMessage(tr("Histogram counts copied to the clipboard"), 3000);
}

void MainWindow::copyPlot() {
    QGuiApplication::clipboard()->setImage(renderPlot(*m_plot, m_plot->width(), m_plot->height()));
    statusBar()->showMessage(tr("Plot copied to the clipboard"), 3000);
}

ExportResult MainWindow::finishExport(const ExportResult& result, const QString& path) {
    if (result.ok) {
        rememberFolder(path);
        statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 5000);
        return result;
    }
    m_lastError = result.message;
    statusBar()->showMessage(result.message);
    qCWarning(lcUi).noquote() << "export failed:" << result.message;
    if (m_errorDialogs)
        showMessageBox(result.message);
    return result;
}

void MainWindow::openImage(const QString& path) {
    open(path, path == m_current.source ? m_current.page : 1);
}

int MainWindow::pageAsked() const {
    return isBusy() && m_requested == m_shown.source ? m_requestedPage : m_shown.page;
}

void MainWindow::showPage(int page) {
    // The pages of the image shown: the current one's, or those of a newer one's preview.
    if (m_shown.source.isEmpty() || page < 1 || page > m_shown.pages || page == pageAsked())
        return showPageChooser();
    open(m_shown.source, page);
}

void MainWindow::open(const QString& path, int page) {
    submit(path, page, false);
    QString message = page > 1 || (path == m_current.source && m_current.pages > 1)
                          ? tr("Opening %1, page %2…").arg(imageDisplayName(path)).arg(page)
                          : tr("Opening %1…").arg(imageDisplayName(path));
    // The worker runs one job at a time: a tab's long run (an experiment) goes first.
    if (const QString wait = m_bridge->waitNote(QString::fromLatin1(JobBridge::analysisLane));
        !wait.isEmpty())
        message += tr(" It %1.").arg(wait);
    statusBar()->showMessage(message);
}

void MainWindow::showPageChooser() {
    const int pages = std::max(1, m_shown.pages);
    const QSignalBlocker quiet(m_pageBox); // showing the page asks for nothing
    m_pageBox->setRange(1, pages);
    m_pageBox->setValue(m_shown.page);
    m_pageCount->setText(tr("of %1").arg(pages));
    m_pageBar->setVisible(pages > 1);
    m_nextPage->setEnabled(m_shown.page < pages);
    m_previousPage->setEnabled(m_shown.page > 1);
}

void MainWindow::submit(const QString& path, int page, bool quick) {
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
    showImagesDockOnSecond(before);
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
    m_bridge->analyse(request);
}

void MainWindow::showProgress(double fraction, const QString& stage) {
    statusBar()->showMessage(
        tr("%1: %2 (%3 %)").arg(imageDisplayName(m_requested), stage).arg(qRound(fraction * 100)));
    m_progress->setValue(qRound(fraction * 1000));
}

bool MainWindow::ShownImage::is(const QString& source, int page, const QSize& size) const {
    return this->source == source && this->page == page && this->size == size;
}

QString MainWindow::imageTitle(const QString& source, int page, int pages, const QSize& size) {
    return tr("%1 (%2 × %3) — HistLab")
        .arg(withPage(imageDisplayName(source), page, pages))
        .arg(size.width())
        .arg(size.height());
}

void MainWindow::showPreview(const ImagePreview& p) {
    if (m_shown.is(p.source, p.page, p.imageSize) && !m_imageView->image().isNull())
        return; // the image shown, analysed again: zoom, pan and region stay
    m_region.reset();
    m_imageView->setImage(p.preview, p.imageSize);
    m_imageView->setSourceDepth(p.depth);
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
    setWindowTitle(imageTitle(p.source, p.page, p.pages, p.imageSize));
    m_imageView->repaint(); // painted now, so that imageShown() means visible
    emit imageShown();
}

void MainWindow::restoreShownImage() {
    if (m_shown.is(m_current.source, m_current.page, m_current.imageSize))
        return;
    // The preview of an image whose analysis failed or was cancelled is up: back to the image
    // whose histograms are the current ones (or to none).
    m_imageView->setImage(m_current.preview, m_current.imageSize);
    m_imageView->setSourceDepth(m_current.depth);
    m_shown = {m_current.source, m_current.page, m_current.pages, m_current.imageSize};
    showPageChooser();
    // The current analysis's region, selected again (its histograms are the ones shown).
    m_region = m_current.region;
    m_regionQuick = false;
    if (m_region)
        m_imageView->selectRegion(*m_region);
    if (m_current.source.isEmpty()) {
        setWindowTitle(tr("HistLab"));
        m_runLine.clear();
        m_summary->clear();
        return;
    }
    showResults();
}

void MainWindow::showAnalysis(const ImageAnalysis& analysis, bool timed) {
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
    statusBar()->clearMessage();
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

void MainWindow::shareCurrentImage() {
    m_images->setCurrentImage(m_current.source);
    m_experiments->setImageSource(m_current.source, m_current.page);
    for (ImageJobPanel* panel : std::initializer_list<ImageJobPanel*>{m_blur, m_equalize})
        panel->setImage(m_current.source, m_current.page, m_current.pages, m_current.imageSize,
                        m_current.preview);
}

QString MainWindow::showResults() {
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
    setWindowTitle(imageTitle(analysis.source, analysis.page, analysis.pages, analysis.imageSize));
    return m_runLine;
}

void MainWindow::showSummary() {
    m_runLine = describeCurrent();
    m_summary->setContent(summarizeAnalysis(m_current, m_timingNote));
}

QString MainWindow::describeCurrent() const {
    const ImageAnalysis& analysis = m_current;
    QString summary =
        analysis.largeBins ? describeLargeBins(*analysis.largeBins) : describeRun(analysis.run);
    if (const std::optional<Region>& r = analysis.region)
        summary.prepend(regionText(*r) + QStringLiteral(" · "));
    if (!m_timingNote.isEmpty())
        summary += QStringLiteral(" · ") + m_timingNote;
    return summary;
}

// The pixel under the cursor and the zoom in the status bar; a region selected on the image
// becomes the histograms' input.
void MainWindow::connectImageView() {
    auto* pixelLabel = new QLabel;
    pixelLabel->setObjectName(QStringLiteral("pixelLabel"));
    auto* zoomLabel = new QLabel;
    zoomLabel->setObjectName(QStringLiteral("zoomLabel"));
    zoomLabel->setToolTip(tr("Zoom: screen pixels per image pixel (View › Actual Size is 100 %)"));
    statusBar()->addPermanentWidget(pixelLabel);
    statusBar()->addPermanentWidget(zoomLabel);
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

void MainWindow::analyseRegion(const std::optional<Region>& region) {
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
        statusBar()->showMessage(tr("Analysing %1…").arg(regionText(*region)));
}

void MainWindow::submitDeferredRegion() {
    if (m_regionDeferred)
        submit(m_current.source, m_current.page, m_regionQuick); // the newest region
}

void MainWindow::showFailure(const JobError& error) {
    // A request replaced by a newer one never gets here (JobBridge drops it): this is Cancel.
    restoreShownImage(); // the current image, if the failed one's preview was up
    showPageChooser();   // and its page, if another was asked for
    if (!m_timingNote.isEmpty()) {
        // The histograms shown were counted and verified; only their timing did not finish.
        m_timingNote =
            error.kind == JobError::Kind::Cancelled ? tr("timing cancelled") : tr("timing failed");
        showSummary();
    }
    if (error.kind == JobError::Kind::Cancelled) {
        statusBar()->showMessage(tr("%1: cancelled").arg(imageDisplayName(m_requested)));
        qCInfo(lcUi).noquote() << m_requested << "cancelled";
        return;
    }
    m_lastError = QString::fromStdString(error.message);
    if (error.kind == JobError::Kind::Usage) {
        m_lastError =
            m_runPanel->inFieldWords(QString::fromStdString(error.parameter), m_lastError);
        // A parameter combination the core rejects: the status bar says why, no dialog while
        // the person is still turning the knobs.
        statusBar()->showMessage(tr("Cannot run: %1").arg(m_lastError));
        qCWarning(lcUi).noquote() << "usage error:" << m_lastError;
        emit errorShown(m_lastError);
        return;
    }
    statusBar()->showMessage(tr("Could not open %1").arg(imageDisplayName(m_requested)));
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

// The Run dock (device, variant, parameters), the Run menu (F5, Esc) and the status bar's
// progress bar and Cancel button, shown while a job runs.
void MainWindow::createRunControls() {
    m_runPanel = new RunPanel;
    // The device serves every tab: its own tool bar above the tabs, which cannot be hidden
    // (closing the Run dock used to remove the only device selector), wide enough for the
    // device's whole name.
    auto* deviceBar = addToolBar(tr("Device"));
    deviceBar->setObjectName(QStringLiteral("deviceToolBar"));
    deviceBar->setMovable(false);
    deviceBar->setFloatable(false);
    deviceBar->toggleViewAction()->setEnabled(false);
    deviceBar->toggleViewAction()->setVisible(false);
    m_runPanel->deviceLabel()->setContentsMargins(6, 0, 6, 0);
    deviceBar->addWidget(m_runPanel->deviceLabel())->setVisible(true);
    deviceBar->addWidget(m_runPanel->deviceCombo())->setVisible(true);
    auto* deviceNote = new QLabel(tr("  used by every tab; the Devices tab says what each can do"));
    deviceNote->setEnabled(false); // a hint, in the disabled text colour
    deviceBar->addWidget(deviceNote);

    // The Run dock holds the Image tab's histogram settings: shown with that tab only (the
    // other tabs have their settings in their left column), unless the person closed it.
    auto* dock = new QDockWidget(tr("Run"), this);
    m_runDock = dock;
    dock->setObjectName(QStringLiteral("runDock"));
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable);
    dock->setWidget(m_runPanel);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    dock->installEventFilter(this); // its close button: the person's choice, remembered
    dock->toggleViewAction()->setVisible(false); // Run › Show Run Panel, which knows the tab

    QAction* runAgainAction = m_runPanel->runAgainAction();
    QAction* cancelAction = m_runPanel->cancelAction();
    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(runAgainAction);
    run->addAction(cancelAction);
    run->addSeparator();
    // The tabs' runs, from anywhere: each shows its tab and starts (Ctrl+Enter in the tab).
    for (const Tab& tab : m_tabTable) {
        auto* panel = qobject_cast<JobPanel*>(tab.widget);
        if (!panel || tab.runEntry.isEmpty())
            continue;
        QAction* start = run->addAction(tab.runEntry, this, [this, panel] {
            m_tabs->setCurrentWidget(panel);
            panel->startRun();
        });
        start->setStatusTip(tab.runTip);
    }
    run->addSeparator();
    // Not the dock's own toggle, which would follow its hiding on the other tabs.
    m_showRunDock = run->addAction(tr("Show Run &Panel"));
    m_showRunDock->setCheckable(true);
    m_showRunDock->setChecked(true);
    m_showRunDock->setStatusTip(tr("The Run dock: the Image tab's histogram variant, its "
                                   "parameters and repeats (shown with the Image tab)"));
    connect(m_showRunDock, &QAction::triggered, this, [this](bool shown) {
        m_runDockWanted = shown;
        if (shown)
            m_tabs->setCurrentIndex(0); // the Image tab, where it shows
        updateRunDock();
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateRunDock);
    // The window's minimum is the shown tab's, not the widest of all (a stack's minimum is
    // the largest of its pages': the Words tab set the Image tab's to 1,052 pixels).
    const auto onlyShownTabSizes = [this] {
        for (int tab = 0; tab < m_tabs->count(); ++tab) {
            const bool shown = tab == m_tabs->currentIndex();
            m_tabs->widget(tab)->setSizePolicy(
                shown ? QSizePolicy::Preferred : QSizePolicy::Ignored,
                shown ? QSizePolicy::Preferred : QSizePolicy::Ignored);
        }
    };
    connect(m_tabs, &QTabWidget::currentChanged, this, onlyShownTabSizes);
    onlyShownTabSizes();
    connect(runAgainAction, &QAction::triggered, this, &MainWindow::runAgain);
    cancelAction->setStatusTip(
        tr("Stop the running job of the tab shown, else the image analysis; what is shown stays"));
    connect(cancelAction, &QAction::triggered, this, &MainWindow::cancelRun);
    connect(m_runPanel, &RunPanel::requestChanged, this, &MainWindow::runAgain);
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateCancelAction);

    m_progress = new QProgressBar;
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(160);
    m_progress->setVisible(false);
    // The status bar's Cancel is the image analysis's, whatever tab is shown.
    auto* cancelAnalysis = new QAction(tr("Cancel"), this);
    connect(cancelAnalysis, &QAction::triggered, this, &MainWindow::cancelAnalysis);
    auto* cancelButton = new QToolButton;
    cancelButton->setObjectName(QStringLiteral("cancelAnalysisButton"));
    cancelButton->setDefaultAction(cancelAnalysis);
    cancelButton->setToolTip(tr("Cancel the running image analysis"));
    cancelButton->setVisible(false);
    // The Images list's batch runs on a lane of its own, beside the analysis: its own Stop.
    auto* cancelBatchAction = new QAction(tr("Stop Batch"), this);
    connect(cancelBatchAction, &QAction::triggered, this, &MainWindow::cancelBatch);
    m_cancelBatch = new QToolButton;
    m_cancelBatch->setObjectName(QStringLiteral("cancelBatchButton"));
    m_cancelBatch->setDefaultAction(cancelBatchAction);
    m_cancelBatch->setToolTip(tr("Stop the histograms of every image of the list (no table is "
                                 "saved)"));
    m_cancelBatch->setVisible(false);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(cancelButton);
    statusBar()->addPermanentWidget(m_cancelBatch);
    connect(m_bridge, &JobBridge::analysisFinished, m_runPanel,
            [this](quint64, const ImageAnalysis& analysis) {
                m_runPanel->showProblem({}, {});
                m_runPanel->showChosen(analysis.largeBins ? nullptr : &analysis.run.config);
            });
    connect(m_bridge, &JobBridge::analysisFailed, m_runPanel,
            [this](quint64, const JobError& error) {
                if (error.kind == JobError::Kind::Usage)
                    m_runPanel->showProblem(QString::fromStdString(error.parameter),
                                            QString::fromStdString(error.message));
            });
    // The bar and the button show once the worker begins the analysis: until then it waits
    // for a tab's job, and the status line says so.
    connect(m_bridge, &JobBridge::runningChanged, this,
            [this, cancelButton](const QString& lane, bool busy) {
                updateCancelAction();
                if (lane == QLatin1String("batch") && !busy)
                    m_cancelBatch->setVisible(false);
                if (lane != QLatin1String(JobBridge::analysisLane))
                    return; // the tabs show their own runs
                if (!busy)
                    cancelButton->setVisible(false);
                showBusy(busy);
            });
    connect(m_bridge, &JobBridge::laneStarted, this, [this, cancelButton](const QString& lane) {
        if (lane == QLatin1String("batch"))
            m_cancelBatch->setVisible(true);
        if (lane != QLatin1String(JobBridge::analysisLane))
            return;
        cancelButton->setVisible(true);
        m_progress->setVisible(true);
    });

    connect(m_bridge, &JobBridge::devicesListed, m_runPanel,
            [this](quint64, const std::vector<DeviceEntry>& devices) {
                m_runPanel->setDevices(devices);
                m_experiments->setDevices(devices);
                m_deviceList = devices; // for About
                m_deviceListError.clear();
            });
    connect(
        m_bridge, &JobBridge::devicesFailed, m_runPanel, [this](quint64, const JobError& error) {
            m_runPanel->setDeviceListError(QString::fromStdString(error.message));
            m_deviceListError = QString::fromStdString(error.message);
            qCWarning(lcUi).noquote() << "no device list:" << QString::fromStdString(error.message);
        });
    m_bridge->listDevices();
}

void MainWindow::askRegion() {
    if (m_current.source.isEmpty() || m_current.imageSize.isEmpty()) {
        statusBar()->showMessage(tr("Open an image first: a region is part of one"), 5000);
        return;
    }
    m_tabs->setCurrentIndex(0); // where the region shows
    auto* dialog = new RegionDialog(m_current.imageSize, m_imageView->region(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RegionDialog::regionChosen, m_imageView, &ImageView::selectRegion);
    connect(dialog, &RegionDialog::wholeImageChosen, m_imageView, &ImageView::clearRegion);
    dialog->open(); // window-modal, without blocking the event loop
}

void MainWindow::showSelectedValues() {
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

void MainWindow::updateRunDock() {
    m_showRunDock->setChecked(m_runDockWanted);
    m_runDock->setVisible(m_runDockWanted && m_tabs->currentIndex() == 0);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_runDock && event->type() == QEvent::Close) {
        m_runDockWanted = false;
        m_showRunDock->setChecked(false);
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::setDeviceSelector(const QString& selector) {
    m_runPanel->setDeviceSelector(selector);
}

QString MainWindow::deviceSelector() const {
    return m_runPanel->deviceSelector();
}

void MainWindow::showBusy(bool busy) {
    m_progress->setValue(0);
    m_progress->setVisible(busy &&
                           m_bridge->hasStarted(QString::fromLatin1(JobBridge::analysisLane)));
}

JobPanel* MainWindow::runningPanelShown() const {
    auto* panel = qobject_cast<JobPanel*>(m_tabs->currentWidget());
    return panel && panel->isRunning() ? panel : nullptr;
}

void MainWindow::updateCancelAction() {
    m_runPanel->cancelAction()->setEnabled(runningPanelShown() || isBusy());
}

void MainWindow::runAgain() {
    // While a job runs, its image is the current one; else what is shown, or, when nothing is
    // (the first run failed, e.g. on a device that does not exist), what was asked for.
    const bool requested = isBusy() || m_current.source.isEmpty();
    const QString source = requested ? m_requested : m_current.source;
    if (!source.isEmpty())
        open(source, requested ? m_requestedPage : m_current.page);
}

void MainWindow::cancelRun() {
    if (JobPanel* panel = runningPanelShown())
        return panel->cancelRun();
    cancelAnalysis();
}

void MainWindow::cancelAnalysis() {
    if (!isBusy())
        return;
    m_regionDeferred = false;
    m_bridge->cancel(QString::fromLatin1(JobBridge::analysisLane));
    statusBar()->showMessage(tr("%1: cancelling…").arg(imageDisplayName(m_requested)));
}

} // namespace histlab::ui
