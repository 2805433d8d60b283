#include "mainwindow.h"

#include "histogramplot.h"
#include "imageview.h"
#include "logging.h"
#include "statisticspanel.h"

#include <QAction>
#include <QClipboard>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>

#include <algorithm>

// A static library's resources must be registered by name, from the global namespace.
static void initHistlabResources() {
    Q_INIT_RESOURCE(resources);
}

namespace histlab::ui {

namespace {

QString displayName(const QString& source) {
    if (source == MainWindow::sampleImagePath())
        return QObject::tr("sample.png (bundled)");
    return QFileInfo(source).fileName();
}

} // namespace

QString describeRun(const HistogramRun& run) {
    QStringList parts;
    parts << QString::fromStdString(run.device.name);
    parts << QString::fromStdString(run.config.describe());
    if (!run.passes.empty()) {
        const PassTiming& pass = run.passes.front(); // the channels' histogram pass
        parts << QStringLiteral("median %1 ms").arg(pass.stats.medianMs, 0, 'f', 3);
        parts << QStringLiteral("%1 GB/s").arg(pass.gbps, 0, 'f', 2);
        parts << QStringLiteral("%1 % of read-only ceiling").arg(pass.percentOfCeiling, 0, 'f', 1);
    }
    if (!run.verified)
        parts << QStringLiteral("not checked");
    else if (*run.verified)
        parts << QStringLiteral("verified");
    else
        parts << QStringLiteral("MISMATCH: %1").arg(QString::fromStdString(run.verifyDetail));
    return parts.join(QStringLiteral(" · "));
}

namespace {

/// Every pass and the ceiling, one per line: the status bar's tooltip.
QString describePasses(const HistogramRun& run) {
    QStringList lines;
    lines << QStringLiteral("%1 [%2], %3")
                 .arg(QString::fromStdString(run.device.name),
                      QString::fromLatin1(deviceTypeName(run.device.type)),
                      QString::fromStdString(run.device.platformName));
    lines << QStringLiteral("%1 (%2)").arg(QString::fromStdString(run.config.describe()),
                                           QString::fromStdString(run.config.chosenBy));
    auto row = [&](const QString& what, const TimingStats& stats, double gbps, double percent) {
        lines << QStringLiteral("%1: median %2 ms, min %3 ms, %4 GB/s, %5 % of read-only")
                     .arg(what)
                     .arg(stats.medianMs, 0, 'f', 3)
                     .arg(stats.minMs, 0, 'f', 3)
                     .arg(gbps, 0, 'f', 2)
                     .arg(percent, 0, 'f', 1);
    };
    for (const PassTiming& pass : run.passes)
        row(QString::fromStdString(pass.what), pass.stats, pass.gbps, pass.percentOfCeiling);
    row(QStringLiteral("read-only ceiling (%1)").arg(QString::fromStdString(run.ceiling.kernel)),
        run.ceiling.stats, run.ceiling.gbps, 100.0);
    return lines.join(QLatin1Char('\n'));
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_bridge(new JobBridge(this))
    , m_imageView(new ImageView)
    , m_plot(new HistogramPlot)
    , m_statistics(new StatisticsPanel)
    , m_runLabel(new QLabel) {
    initHistlabResources();
    setWindowTitle(tr("HistLab"));

    // Right: the plot above the statistics; the plot takes what the table does not need.
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(m_plot);
    right->addWidget(m_statistics);
    right->setStretchFactor(0, 1);
    right->setStretchFactor(1, 0);
    right->setChildrenCollapsible(false);

    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(m_imageView);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    setCentralWidget(splitter);
    m_splitter = splitter;
    m_rightSplitter = right;

    m_runLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long device name must not set the window's minimum width (the tooltip has it all);
    // progress messages cover the label for a while, then it shows again.
    m_runLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    statusBar()->addWidget(m_runLabel, 1);
    createMenus();
    resize(1200, 700);
    splitter->setSizes({560, 640});
    const int tableHeight = m_statistics->sizeHint().height();
    right->setSizes({std::max(m_plot->minimumHeight(), 640 - tableHeight), tableHeight});
    restoreSettings();

    connect(m_bridge, &JobBridge::analysisFinished, this,
            [this](quint64, const ImageAnalysis& analysis) { showAnalysis(analysis); });
    connect(m_bridge, &JobBridge::analysisFailed, this,
            [this](quint64, const JobError& error) { showFailure(error); });
    connect(
        m_bridge, &JobBridge::progressChanged, this,
        [this](quint64, double fraction, const QString& stage) { showProgress(fraction, stage); });
    connect(m_plot, &QCustomPlot::afterReplot, this, [this] {
        if (m_announcePending) {
            m_announcePending = false;
            emit histogramShown();
        }
    });
}

MainWindow::~MainWindow() = default;

QString MainWindow::sampleImagePath() {
    return QStringLiteral(":/histlab/sample.png");
}

QString MainWindow::runSummary() const {
    return m_runLabel->text();
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::chooseImage);
    open->setShortcut(QKeySequence::Open);
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
    m_exportActions = {exportPlotAction, histogramCsvAction, statisticsCsvAction, copy};
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
}

void MainWindow::chooseImage() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Image"), m_lastDir,
        tr("Images (*.png *.jpg *.jpeg *.tif *.tiff *.bmp *.pgm *.ppm *.pnm *.webp);;"
           "All files (*)"));
    if (path.isEmpty())
        return;
    rememberFolder(path);
    openImage(path);
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
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings(QStringLiteral("HistLab"), QStringLiteral("HistLab"));
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/splitter"), m_splitter->saveState());
    settings.setValue(QStringLiteral("window/rightSplitter"), m_rightSplitter->saveState());
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
        m_saveChooser(this, tr("Export Histogram CSV"),
                      defaultExportPath(QStringLiteral("histogram"), QStringLiteral("csv")),
                      tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty())
        exportHistogramCsvTo(path);
}

void MainWindow::chooseStatisticsCsv() {
    const QString path =
        m_saveChooser(this, tr("Export Statistics CSV"),
                      defaultExportPath(QStringLiteral("statistics"), QStringLiteral("csv")),
                      tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty())
        exportStatisticsCsvTo(path);
}

ExportResult MainWindow::exportPlotTo(const QString& path, const PlotExportOptions& options) {
    return finishExport(histlab::ui::exportPlot(*m_plot, path, options), path);
}

ExportResult MainWindow::exportHistogramCsvTo(const QString& path) {
    return finishExport(exportHistogramCsv(m_current.run, path), path);
}

ExportResult MainWindow::exportStatisticsCsvTo(const QString& path) {
    return finishExport(exportStatisticsCsv(m_current.statistics, path), path);
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
    if (m_errorDialogs) {
        auto* box = new QMessageBox(QMessageBox::Warning, tr("HistLab"), result.message,
                                    QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    return result;
}

void MainWindow::openImage(const QString& path) {
    m_requested = path;
    AnalysisRequest request;
    request.source = path;
    request.device = m_deviceSelector;
    m_bridge->analyse(request);
    statusBar()->showMessage(tr("Opening %1…").arg(displayName(path)));
}

void MainWindow::showProgress(double fraction, const QString& stage) {
    statusBar()->showMessage(
        tr("%1: %2 (%3 %)").arg(displayName(m_requested), stage).arg(qRound(fraction * 100)));
}

void MainWindow::showAnalysis(const ImageAnalysis& analysis) {
    m_current = analysis;
    m_imageView->setImage(analysis.preview);
    m_plot->setHistograms(analysis.run.histograms);
    m_statistics->setStatistics(analysis.statistics);
    for (QAction* action : m_exportActions)
        action->setEnabled(true);
    m_announcePending = true; // the plot replots on the next event-loop turn
    const QString summary = describeRun(analysis.run);
    m_runLabel->setText(summary);
    m_runLabel->setToolTip(describePasses(analysis.run));
    setWindowTitle(tr("%1 (%2 × %3) — HistLab")
                       .arg(displayName(analysis.source))
                       .arg(analysis.imageSize.width())
                       .arg(analysis.imageSize.height()));
    statusBar()->clearMessage();
    qCInfo(lcUi).noquote() << analysis.source << "analysed:" << summary;
}

void MainWindow::showFailure(const JobError& error) {
    if (error.kind == JobError::Kind::Cancelled)
        return; // replaced by a newer request, or shutting down
    m_lastError = QString::fromStdString(error.message);
    statusBar()->showMessage(tr("Could not open %1").arg(displayName(m_requested)));
    qCWarning(lcUi).noquote() << jobErrorKindName(error.kind) << "error:" << m_lastError;
    emit errorShown(m_lastError);
    if (!m_errorDialogs)
        return;
    // Window-modal and opened without exec(): no nested event loop, the window stays live.
    auto* box =
        new QMessageBox(QMessageBox::Warning, tr("HistLab"), m_lastError, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    if (!error.buildLog.empty())
        box->setDetailedText(QStringLiteral("%1 %2\n\n%3")
                                 .arg(QString::fromStdString(error.kernelFile),
                                      QString::fromStdString(error.options),
                                      QString::fromStdString(error.buildLog)));
    box->open();
}

} // namespace histlab::ui
