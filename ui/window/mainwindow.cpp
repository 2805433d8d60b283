#include "window/mainwindow.h"
#include "common/settings.h"

#include "bridge/logging.h"
#include "common/helpdialogs.h"
#include "common/opendialog.h"
#include "common/theme.h"
#include "panels/batchonlist.h"
#include "panels/blurpanel.h"
#include "panels/dashboardpanel.h"
#include "panels/devicepanel.h"
#include "panels/equalizepanel.h"
#include "panels/experimentpanel.h"
#include "panels/imagepanel.h"
#include "panels/jointpanel.h"
#include "panels/logpanel.h"
#include "panels/memorypanel.h"
#include "panels/registerpanel.h"
#include "panels/runpanel.h"
#include "panels/scanpanel.h"
#include "panels/stackpanel.h"
#include "panels/wordspanel.h"
#include "views/imagelist.h"
#include "views/tablecopy.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

// A static library's resources must be registered by name, from the global namespace.
static void initHistlabResources() {
    Q_INIT_RESOURCE(resources);
}

namespace histlab::ui {

namespace {
/// How long a passing note stays in the status bar; lasting state has a pane of its own.
constexpr int kPassingMessageMs = 10000;
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_bridge(new JobBridge(this)) {
    initHistlabResources();
    m_runPanel = new RunPanel; // the Run dock's and the Images dock's: the Image tab uses them
    m_images = new ImageList;
    setWindowTitle(tr("HistLab"));
    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    createTabs();
    setCentralWidget(m_tabs);
    createStackWindow();

    createDocks();
    createMenus();
    connectImageTab();
    createRunControls();
    // F1 opens the guide at the section of the tab shown (window.md has one per tab).
    addHelpMenu(
        this, [this] { showAbout(); },
        [this] {
            const int shown = m_tabs->currentIndex();
            return std::pair(
                QStringLiteral("window.md"),
                shown >= 0 && shown < int(m_tabTable.size())
                    ? QString(m_tabTable[std::size_t(shown)].title).remove(QLatin1Char('&'))
                    : QString());
        });
    for (QTableWidget* table : findChildren<QTableWidget*>())
        enableTableCopy(table); // Ctrl+C and Copy Table, as tab-separated text
    setAcceptDrops(true);
    // 1200 x 700, or what the screen has room for (a 1600 x 1000 screen at 150 % offers about
    // 1067 x 627 device-independent pixels); a size left last time is restored below.
    QSize first(1200, 700);
    if (const QScreen* screen = this->screen())
        first = first.boundedTo(screen->availableGeometry().size() * 0.96);
    resize(first);
    m_image->setFirstSizes();
    restoreSettings();
    if (isDark(QApplication::palette()))
        followPalette(); // a dark desktop, or the dark theme: the plots too
}

MainWindow::~MainWindow() {
    // The children go next, the Joint tab and the Images list among them, in no order this
    // window controls: a list emptied while being destroyed must not update a tab.
    disconnect(m_images->model(), nullptr, this, nullptr);
    RecentFiles::flush(); // the list opened in this window, saved before the program ends
}

// The tabs, in order: each one's title (with its mnemonic, also its View menu entry), the View
// menu's shortcut, its tooltip, how it is made and the Run menu's entry for its own run.
void MainWindow::createTabs() {
    m_tabTable = {
        {tr("&Image"),
         {},
         {},
         [this] { return m_image = new ImagePanel(m_bridge, m_runPanel, m_images); }},
        {tr("E&xperiments"), QKeySequence(Qt::CTRL | Qt::Key_T),
         tr("Why the kernel is as fast as it is: sweeps of copies, reads, work-groups, stages "
            "and variants, point by point"),
         [this] { return new ExperimentPanel(m_bridge); }},
        {tr("Bl&ur"), QKeySequence(Qt::CTRL | Qt::Key_B),
         tr("The box blur of the shown image, next to it or split with it: border modes, "
            "variants, the reference text's launches"),
         [this] { return new BlurPanel(m_bridge); }},
        {tr("E&qualize"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
         tr("The histogram equalization of the shown image on the device: before and after, "
            "per-stage timings, histograms and CDFs"),
         [this] { return new EqualizePanel(m_bridge); }, tr("&Equalize Image"),
         tr("Equalize the shown image on the Run dock's device")},
        {tr("&Joint"), QKeySequence(Qt::CTRL | Qt::Key_J),
         tr("The joint histogram of two images of the Images list (or two channels of one) as a "
            "heat map with its marginals: entropies, mutual information, each method's time"),
         [this] {
             // Two pages: the joint histogram of A and B, and the registration of B to A.
             auto* pages = new QTabWidget;
             pages->setObjectName(QStringLiteral("jointPages"));
             pages->setDocumentMode(true);
             auto* joint = new JointPanel(m_bridge);
             pages->addTab(joint, tr("Histogram"));
             pages->addTab(new RegisterPanel(m_bridge, joint), tr("Register"));
             return pages;
         },
         tr("Run &Joint Histogram"),
         tr("The Joint tab's run with its images, channels, mask and bins")},
        {tr("&Words"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W),
         tr("A folder of images as bags of visual words: a codebook by k-means on the device, "
            "each image's histogram of words, its nearest images, each kernel's time"),
         [this] { return new WordsPanel(m_bridge); }, tr("Build &Words Codebook"),
         tr("The Words tab's codebook from its folder, detector and K")},
        {tr("S&cans"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S),
         tr("Prefix sums on the device: GB/s against the work-group size, against the same "
            "run's copy kernel"),
         [this] { return new ScanPanel(m_bridge); }, tr("Run &Scan Benchmark"),
         tr("The Scans tab's benchmark with its settings")},
        {tr("D&evices"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D),
         tr("Every OpenCL platform and device: what it reports and what HistLab's probes found; "
            "copy as text, export as JSON"),
         [this] { return new DevicePanel(m_bridge); }},
        {tr("&Dashboard"), QKeySequence(Qt::CTRL | Qt::Key_D),
         tr("Every pipeline on every chosen device: GB/s and % of the device's own ceiling, "
            "live"),
         [this] { return new DashboardPanel(m_bridge); }, tr("Run &Dashboard"),
         tr("The Dashboard tab's run with its devices and pipelines")},
        {tr("&Memory"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M),
         tr("The memory lab: buffer reversal against the copy kernel, bandwidth per vector "
            "width, transfers and launch latency"),
         [this] { return new MemoryPanel(m_bridge); }, tr("Run &Memory Lab"),
         tr("The Memory tab's run with its parts and sizes")},
    };
    for (Tab& tab : m_tabTable) {
        tab.widget = tab.create();
        m_tabs->setTabToolTip(m_tabs->addTab(tab.widget, tab.title), tab.toolTip);
        // Esc and Run › Cancel follow the page shown of a tab of pages too.
        if (auto* pages = qobject_cast<QTabWidget*>(tab.widget))
            connect(pages, &QTabWidget::currentChanged, this, &MainWindow::updateCancelAction);
    }
    // What a tab reports goes to the status bar for a while; the Run dock chooses the device.
    const auto say = [this](const QString& message) { statusBar()->showMessage(message, 8000); };
    for (JobPanel* panel : jobPanels()) {
        connect(panel, &JobPanel::problem, this, say);
        connect(panel, &JobPanel::runEnded, this, say);
        panel->setDeviceSelectorSource([this] { return m_runPanel->deviceSelector(); });
    }
    connect(panel<DevicePanel>(), &DevicePanel::problem, this, say);
}

void MainWindow::createStackWindow() {
    // A window rather than a tab: the stack is the image the Image tab shows, whose pages a
    // person keeps paging through beside it, and most images have no stack to show.
    m_stackWindow = new QWidget(this, Qt::Window);
    m_stackWindow->setObjectName(QStringLiteral("stackWindow"));
    m_stackWindow->setWindowTitle(tr("Whole Stack — HistLab"));
    m_stack = new StackPanel(m_bridge);
    auto* layout = new QVBoxLayout(m_stackWindow);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
    m_stackWindow->resize(1100, 720);
    // Esc cancels the stack's run, as it cancels the main window's: the main window's shortcut
    // does not reach another top-level window, so this one has its own.
    auto* cancel = new QAction(tr("Cancel"), m_stackWindow);
    cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    m_stackWindow->addAction(cancel);
    connect(cancel, &QAction::triggered, m_stack, [this] {
        if (m_stack->isRunning())
            m_stack->cancelRun();
    });
    m_stack->setDeviceSelectorSource([this] { return m_runPanel->deviceSelector(); });
    connect(m_stack, &JobPanel::problem, this,
            [this](const QString& message) { statusBar()->showMessage(message, 8000); });
    connect(m_stack, &JobPanel::runEnded, this,
            [this](const QString& message) { statusBar()->showMessage(message, 8000); });
}

void MainWindow::showWholeStack() {
    m_stack->setImage(m_image->currentSource(), m_image->currentPages());
    m_stackWindow->setWindowTitle(
        tr("Whole Stack: %1 — HistLab").arg(imageDisplayName(m_image->currentSource())));
    m_stackWindow->show();
    m_stackWindow->raise();
    m_stackWindow->activateWindow();
}

std::vector<JobPanel*> MainWindow::jobPanels() const {
    std::vector<JobPanel*> panels;
    for (const Tab& tab : m_tabTable) {
        if (auto* panel = qobject_cast<JobPanel*>(tab.widget))
            panels.push_back(panel);
        else // a tab of pages (Joint): each page's panel
            for (JobPanel* page : tab.widget->findChildren<JobPanel*>())
                panels.push_back(page);
    }
    return panels;
}

JobPanel* MainWindow::shownPanel(QWidget* tab) {
    if (auto* pages = qobject_cast<QTabWidget*>(tab))
        return qobject_cast<JobPanel*>(pages->currentWidget());
    return qobject_cast<JobPanel*>(tab);
}

void MainWindow::setErrorDialogsEnabled(bool enabled) {
    m_errorDialogs = enabled;
    for (JobPanel* panel : jobPanels())
        panel->setErrorDialogsEnabled(enabled);
    m_stack->setErrorDialogsEnabled(enabled);
    m_image->setErrorDialogsEnabled(enabled);
}

// The Image tab speaks through the window: its status messages, title, errors and the image it
// shows, which the Images list and the tabs that work on the shown image follow.
void MainWindow::connectImageTab() {
    for (QWidget* widget : m_image->statusWidgets())
        statusBar()->addPermanentWidget(widget);
    connect(m_image, &ImagePanel::message, statusBar(), &QStatusBar::showMessage);
    connect(m_image, &ImagePanel::titleChanged, this, &QWidget::setWindowTitle);
    connect(m_image, &ImagePanel::failed, this,
            [this](const QString& message) { m_lastError = message; });
    connect(m_image, &ImagePanel::errorShown, this, &MainWindow::errorShown);
    connect(m_image, &ImagePanel::imageShown, this, &MainWindow::imageShown);
    connect(m_image, &ImagePanel::countsShown, this, &MainWindow::countsShown);
    connect(m_image, &ImagePanel::histogramShown, this, &MainWindow::histogramShown);
    connect(m_image, &ImagePanel::imageAsked, this, &MainWindow::showImagesDockOnSecond);
    connect(m_image, &ImagePanel::showRequested, this, [this] { m_tabs->setCurrentIndex(0); });
    connect(m_image, &ImagePanel::wholeStackRequested, this, &MainWindow::showWholeStack);
    connect(m_image, &ImagePanel::currentImageChanged, this,
            [this](const QString& source, int page, int pages, const QSize& size,
                   const QImage& preview) {
                panel<ExperimentPanel>()->setImageSource(source, page);
                panel<JointPanel>()->setCurrentImage(source, size,
                                                     preview.format() != QImage::Format_Grayscale8);
                for (ImageJobPanel* tab : std::initializer_list<ImageJobPanel*>{
                         panel<BlurPanel>(), panel<EqualizePanel>()})
                    tab->setImage(source, page, pages, size, preview);
                // The stack view follows the file shown (a page of it keeps its result).
                m_stack->setImage(source, pages);
                m_stackWindow->setWindowTitle(
                    tr("Whole Stack: %1 — HistLab").arg(imageDisplayName(source)));
            });
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::chooseImage);
    open->setShortcut(QKeySequence::Open);
    open->setStatusTip(tr("One or more images; several go to the Images list"));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    const auto fillRecent = [this] {
        fillRecentMenu(m_recentMenu, [this](const QString& path) { openImages({path}); });
    };
    connect(m_recentMenu, &QMenu::aboutToShow, this, fillRecent);
    fillRecent();
    QAction* sample = file->addAction(tr("Open &Sample"), this, &MainWindow::openSample);
    sample->setStatusTip(tr("The bundled sample photograph"));
    file->addSeparator();
    file->addActions(m_image->exportActions());
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* imageTab = view->addAction(tr("&Image"));
    imageTab->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
    imageTab->setStatusTip(tr("The Image tab: the image, its histograms and statistics"));
    connect(imageTab, &QAction::triggered, this, [this] { m_tabs->setCurrentIndex(0); });
    view->addAction(m_image->statisticsAction());
    // Each tab's entry shows it; its shortcut again goes back to the image.
    for (const Tab& tab : m_tabTable) {
        if (tab.shortcut.isEmpty())
            continue; // the Image tab: the others' shortcuts go back to it
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
    view->addAction(imagesDock()->toggleViewAction());
    QAction* logAction = logDock()->toggleViewAction();
    logAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    view->addAction(logAction);
    view->addSeparator();
    view->addActions(m_image->imageActions()); // zoom, 1:1, fit, reference, region
    // A multi-page TIFF's pages, with ImageJ's keys for a stack's slices.
    view->addSeparator();
    view->addActions(m_image->pageActions());
    view->addSeparator();
    addThemeMenu(view); // the system's colours, or Fusion light or dark; remembered
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

void MainWindow::showAbout() {
    openAboutBox(this, m_runPanel->devices(), m_runPanel->deviceListError());
}

// The Images dock (left; shown once a second image joins the list) and the Log dock (bottom,
// hidden until View › Log). Where they are, and whether they show, is remembered.
void MainWindow::createDocks() {
    addDock(tr("Images"), QStringLiteral("imagesDock"), m_images, Qt::LeftDockWidgetArea)->hide();
    // Never narrower than a thumbnail and its name's start: a width remembered smaller (the
    // dock's title cut to "Ima…") is widened to it.
    m_images->setMinimumWidth(ImageList::thumbnailSide + 48);
    m_batch = new BatchOnList(m_bridge, m_images, this);
    connect(m_images, &ImageList::batchRequested, this,
            [this] { m_batch->chooseFileAndRun(this); });
    connect(m_batch, &BatchOnList::message, statusBar(), &QStatusBar::showMessage);
    connect(m_batch, &BatchOnList::finished, this,
            [this](const QString& summary, bool ok, bool stopped) {
                if (!ok && !stopped && m_errorDialogs)
                    showWarningBox(this, summary);
                emit batchFinished(summary, ok);
            });
    connect(m_images, &ImageList::imageChosen, this, [this](const QString& path) {
        // A file that failed and has not changed since fails again: say why, read nothing.
        if (const QString why = m_images->knownFailure(path); !why.isEmpty()) {
            statusBar()->showMessage(tr("Not opened (unchanged since): %1").arg(why), 10'000);
            qCInfo(lcUi).noquote() << path << "not opened again (unchanged since it failed)";
            if (const QString shown = m_image->currentSource(); !shown.isEmpty())
                m_images->setCurrentImage(shown); // the list marks the image still shown
            return;
        }
        showImageTab();
        openImage(path);
    });
    // The Joint tab chooses among the images of the list, whatever changes it; the Words tab
    // takes the folder of the first while it has none.
    panel<JointPanel>()->setImageList(m_images);
    const auto listChanged = [this] {
        panel<JointPanel>()->setImages(m_images->paths());
        panel<WordsPanel>()->setImages(m_images->paths());
    };
    connect(m_images->model(), &QAbstractItemModel::rowsInserted, this, listChanged);
    connect(m_images->model(), &QAbstractItemModel::rowsRemoved, this, listChanged);
    connect(m_images->model(), &QAbstractItemModel::modelReset, this, listChanged);

    addDock(tr("Log"), QStringLiteral("logDock"), new LogPanel, Qt::BottomDockWidgetArea)->hide();
}

QDockWidget* MainWindow::addDock(const QString& title, const QString& name, QWidget* widget,
                                 Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    dock->setWidget(widget);
    addDockWidget(area, dock);
    m_docks.push_back(dock);
    return dock;
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
    if (tab != panel<BlurPanel>() && tab != panel<EqualizePanel>() &&
        !tab->isAncestorOf(panel<JointPanel>()))
        m_tabs->setCurrentIndex(0);
}

void MainWindow::showImagesDockOnSecond(int countBefore) {
    // Once, when the list first holds two images: after that, closing the dock is respected.
    if (countBefore < 2 && m_images->count() >= 2)
        imagesDock()->show();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    // Files, and anything else that might be mistaken for one: what is not an image is refused
    // with a reason on drop, not silently with a forbidden cursor. Always as a copy: a source
    // removes what it dragged when the drop answers with a move (a text field its text, a file
    // manager perhaps the file), and a drag that offers no copy is not taken at all.
    const QMimeData* mime = event->mimeData();
    if (!(mime->hasUrls() || mime->hasText()) || !(event->possibleActions() & Qt::CopyAction))
        return;
    event->setDropAction(Qt::CopyAction);
    event->accept();
}

void MainWindow::dragMoveEvent(QDragMoveEvent* event) {
    // Qt proposes the action again at each move (a move unless a modifier says otherwise).
    if (!(event->possibleActions() & Qt::CopyAction))
        return event->ignore();
    event->setDropAction(Qt::CopyAction);
    event->accept();
}

void MainWindow::dropEvent(QDropEvent* event) {
    if (!(event->possibleActions() & Qt::CopyAction))
        return event->ignore();
    // Something opened: it was copied. Nothing opened: the drop is ignored, so that the source
    // keeps what it offered (the reason is in the status bar and the log).
    if (dropFiles(*event->mimeData()).images.isEmpty())
        return event->ignore();
    event->setDropAction(Qt::CopyAction);
    event->accept();
}

DropScreening MainWindow::dropFiles(const QMimeData& mime) {
    const DropScreening screening = screenDrop(mime);
    openImages(screening.images);
    if (screening.refused.isEmpty())
        return screening;
    const QString message = tr("Not opened (only image files can be dropped):\n%1")
                                .arg(screening.refused.join(QLatin1Char('\n')));
    m_lastError = message;
    statusBar()->showMessage(screening.refused.size() == 1
                                 ? tr("Not opened: %1").arg(screening.refused.first())
                                 : tr("%1 dropped items were not opened: View › Log says why")
                                       .arg(screening.refused.size()),
                             kPassingMessageMs); // a passing note: the Log keeps it
    qCWarning(lcUi).noquote() << message;
    emit errorShown(message);
    if (m_errorDialogs)
        showWarningBox(this, message);
    return screening;
}

void MainWindow::chooseImage() {
    auto* dialog = new OpenImagesDialog(this, lastFolder(), imageFileFilter());
    connect(dialog, &QFileDialog::filesSelected, this, [this](const QStringList& paths) {
        if (paths.isEmpty())
            return;
        rememberFolder(paths.first());
        openImages(paths);
    });
    dialog->open(); // window-modal, no nested event loop
}

// Settings live in QSettings("HistLab", "HistLab"): the last folder as soon as it changes, the
// window's geometry and splitters when it closes.
void MainWindow::restoreSettings() {
    QSettings settings = histlabSettings();
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    m_image->restoreLayout(settings);
    restoreState(settings.value(QStringLiteral("window/docks")).toByteArray()); // docks, shown
    // The Images dock waits for a second image (showImagesDockOnSecond), wherever and however
    // wide it was: a list of one image only takes room from it.
    imagesDock()->hide();
    // Whether the Run dock shows with the Image tab: the dock's own state says only whether it
    // was shown on the tab that was last open.
    m_runDockWanted = settings.value(QStringLiteral("window/runDockShown"), true).toBool();
    updateRunDock();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings = histlabSettings();
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    m_image->saveLayout(settings);
    settings.setValue(QStringLiteral("window/docks"), saveState());
    settings.setValue(QStringLiteral("window/runDockShown"), m_runDockWanted);
    QMainWindow::closeEvent(event);
}

// The Run dock (device, variant, parameters), the Run menu (F5, Esc) and the status bar's
// Stop of the batch.
void MainWindow::createRunControls() {
    // The device serves every tab: its own tool bar above the tabs, which cannot be hidden
    // (closing the Run dock used to remove the only device selector).
    m_runPanel->fillDeviceBar(addToolBar(tr("Device")));

    // The Run dock holds the Image tab's histogram settings: shown with that tab only (the
    // other tabs have their settings in their left column), unless the person closed it.
    auto* dock = m_runDock =
        addDock(tr("Run"), QStringLiteral("runDock"), m_runPanel, Qt::RightDockWidgetArea);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable);
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
        // A tab of pages runs its first page's run (the Joint tab: the histogram).
        auto* panel = qobject_cast<JobPanel*>(tab.widget);
        if (!panel && tab.widget->findChild<JobPanel*>())
            panel = tab.widget->findChildren<JobPanel*>().front();
        if (!panel || tab.runEntry.isEmpty())
            continue;
        QWidget* page = tab.widget;
        QAction* start = run->addAction(tab.runEntry, this, [this, panel, page] {
            m_tabs->setCurrentWidget(page);
            if (auto* pages = qobject_cast<QTabWidget*>(page))
                pages->setCurrentWidget(panel);
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
    // A tab of pages (Joint) likewise: its shown page's.
    const auto onlyShownSizes = [](QTabWidget* tabs) {
        for (int tab = 0; tab < tabs->count(); ++tab) {
            const bool shown = tab == tabs->currentIndex();
            tabs->widget(tab)->setSizePolicy(shown ? QSizePolicy::Preferred : QSizePolicy::Ignored,
                                             shown ? QSizePolicy::Preferred : QSizePolicy::Ignored);
        }
    };
    connect(m_tabs, &QTabWidget::currentChanged, this,
            [this, onlyShownSizes] { onlyShownSizes(m_tabs); });
    onlyShownSizes(m_tabs);
    for (const Tab& tab : m_tabTable)
        if (auto* pages = qobject_cast<QTabWidget*>(tab.widget)) {
            connect(pages, &QTabWidget::currentChanged, this,
                    [pages, onlyShownSizes] { onlyShownSizes(pages); });
            onlyShownSizes(pages);
        }
    connect(runAgainAction, &QAction::triggered, this, &MainWindow::runAgain);
    cancelAction->setStatusTip(
        tr("Stop the running job of the tab shown, else the image analysis; what is shown stays"));
    connect(cancelAction, &QAction::triggered, this, &MainWindow::cancelRun);
    connect(m_runPanel, &RunPanel::requestChanged, this, &MainWindow::runAgain);
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateCancelAction);

    // The Image tab's progress bar and Cancel (in the status bar since connectImageTab), then
    // the Images list's batch's Stop: it runs on a lane of its own, beside the analysis.
    statusBar()->addPermanentWidget(m_batch->stopButton());
    connect(m_bridge, &JobBridge::runningChanged, this, &MainWindow::updateCancelAction);

    m_runPanel->followDeviceList(m_bridge); // and About
    connect(m_bridge, &JobBridge::devicesListed, this,
            [this](quint64, const std::vector<DeviceListing>& devices) {
                panel<ExperimentPanel>()->setDevices(devices);
            });
    // The devices at once, with the probe results of an earlier launch. The probes themselves
    // (a second or more of kernel builds on a CPU device) run on a worker of their own once the
    // first image has its histograms (or failed), or after 5 s without one: started at once,
    // on two cores, they would slow the decoding of the image given on the command line.
    m_bridge->listDevices(JobBridge::Probes::Remembered);
    auto* probeSoon = new QTimer(this);
    probeSoon->setSingleShot(true);
    connect(probeSoon, &QTimer::timeout, m_bridge, [bridge = m_bridge] { bridge->listDevices(); });
    const auto firstImageDone = [probeSoon] {
        if (probeSoon->isActive())
            probeSoon->start(0);
    };
    connect(this, &MainWindow::histogramShown, probeSoon, firstImageDone);
    connect(this, &MainWindow::errorShown, probeSoon, firstImageDone);
    probeSoon->start(5000);
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

JobPanel* MainWindow::runningPanelShown() const {
    JobPanel* panel = shownPanel(m_tabs->currentWidget());
    return panel && panel->isRunning() ? panel : nullptr;
}

void MainWindow::updateCancelAction() {
    m_runPanel->cancelAction()->setEnabled(runningPanelShown() || isBusy());
}

void MainWindow::cancelRun() {
    if (JobPanel* panel = runningPanelShown())
        return panel->cancelRun();
    m_image->cancelAnalysis();
}

} // namespace histlab::ui
