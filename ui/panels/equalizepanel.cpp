#include "panels/equalizepanel.h"

#include "bridge/logging.h"
#include "views/compareview.h"

#include <io/imageio.h>
#include <runtime/errors.h>

#include <qcustomplot.h>

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <sstream>
#include <utility>

namespace histlab::ui {

namespace {

const QString kSaveFilter = QObject::tr(
    "PNG (*.png);;TIFF (*.tif *.tiff);;BMP (*.bmp);;JPEG (*.jpg *.jpeg);;PGM/PPM (*.pgm *.ppm);;"
    "WebP (*.webp);;All files (*)");
const QString kPlotFilter = QObject::tr("PNG (*.png);;PDF (*.pdf);;SVG (*.svg)");
const QString kCsvFilter = QObject::tr("CSV files (*.csv);;All files (*)");

const QColor kBeforeColor(31, 119, 180);
const QColor kAfterColor(255, 127, 14);

QSettings settings() {
    return QSettings(QStringLiteral("HistLab"), QStringLiteral("HistLab"));
}

QString ms(double value) {
    return QString::number(value, 'f', value >= 100 ? 1 : value >= 1 ? 3 : 4);
}

QString gbps(double value) {
    return QString::number(value, 'f', value >= 100 ? 0 : 2);
}

/// Counts as a step line over bins 0..n-1, and their cumulative sum in % of the total.
void setHistogramData(QCPGraph* counts, QCPGraph* cdf, const std::vector<std::uint64_t>& hist) {
    QVector<double> keys(qsizetype(hist.size())), values(qsizetype(hist.size())),
        cumulative(qsizetype(hist.size()));
    std::uint64_t total = 0;
    for (std::uint64_t c : hist)
        total += c;
    std::uint64_t sum = 0;
    for (std::size_t b = 0; b < hist.size(); ++b) {
        sum += hist[b];
        keys[qsizetype(b)] = double(b);
        values[qsizetype(b)] = double(hist[b]);
        cumulative[qsizetype(b)] = total ? 100.0 * double(sum) / double(total) : 0.0;
    }
    counts->setData(keys, values, true);
    cdf->setData(keys, cumulative, true);
}

} // namespace

EqualizePanel::EqualizePanel(JobBridge* bridge, QWidget* parent)
    : QWidget(parent)
    , m_bridge(bridge)
    , m_compare(new CompareView)
    , m_plot(new QCustomPlot)
    , m_repeats(new QSpinBox)
    , m_imageLabel(new QLabel)
    , m_deviceLabel(new QLabel)
    , m_run(new QPushButton(tr("Ru&n")))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_save(new QPushButton(tr("Save Result…")))
    , m_exportPlot(new QPushButton(tr("Export Plot…")))
    , m_exportCsv(new QPushButton(tr("Export CSV…")))
    , m_runAction(new QAction(tr("Run Equalize"), this))
    , m_progress(new QProgressBar)
    , m_status(new QLabel)
    , m_hover(new QLabel)
    , m_timings(new QTableWidget)
    , m_verified(new QLabel) {
    m_repeats->setRange(1, 1000);
    m_repeats->setValue(5);
    m_repeats->setToolTip(tr("Timed runs of each stage after one warm-up; median and min shown"));
    m_imageLabel->setWordWrap(true);
    m_deviceLabel->setWordWrap(true);
    m_deviceLabel->setText(tr("the Run dock's"));
    m_deviceLabel->setToolTip(tr("The device chosen in the Run dock (Run › Run)"));
    m_cancel->setEnabled(false);
    m_save->setEnabled(false);
    m_save->setToolTip(tr("The equalized image at full size and depth (PNG, TIFF, BMP, JPEG, "
                          "PGM/PPM, WebP)"));
    m_exportPlot->setEnabled(false);
    m_exportPlot->setToolTip(tr("The histogram plot as PNG, PDF or SVG"));
    m_exportCsv->setEnabled(false);
    m_exportCsv->setToolTip(tr("bin,count,cdf: the plane's histogram before equalization and its "
                               "cumulative sum, as histlab-cli equalize --csv writes it"));
    m_run->setToolTip(tr("Equalize the image (Ctrl+Enter); a run in progress is replaced"));
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setVisible(false);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_verified->setWordWrap(true);
    m_verified->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // Ctrl+Enter while the focus is anywhere in the tab, as in the Blur tab.
    m_runAction->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    m_runAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(m_runAction);

    auto* form = new QFormLayout;
    form->addRow(tr("Image"), m_imageLabel);
    form->addRow(tr("Repeat&s"), m_repeats);
    form->addRow(tr("Device"), m_deviceLabel);
    auto* runRow = new QHBoxLayout;
    runRow->addWidget(m_run);
    runRow->addWidget(m_cancel);
    auto* files = new QGridLayout;
    files->addWidget(m_save, 0, 0, 1, 2);
    files->addWidget(m_exportPlot, 1, 0);
    files->addWidget(m_exportCsv, 1, 1);

    // The stages' timings: small, with the controls.
    m_timings->setColumnCount(ColumnCount);
    m_timings->setRowCount(RowCount);
    m_timings->setHorizontalHeaderLabels({tr("stage"), tr("median ms"), tr("min ms"), tr("GB/s")});
    m_timings->horizontalHeaderItem(GbpsColumn)
        ->setToolTip(tr("The apply pass: image bytes read + written per second (the table's "
                        "reads are not counted)"));
    const QStringList stages = {tr("histogram"), tr("cdf"), tr("lut"), tr("apply"), tr("total")};
    const QStringList stageTips = {
        tr("Zeroing the bins and counting the plane into them (local histograms, global atomics)"),
        tr("The inclusive scan of the bins (core/scan.h's whole-array scan)"),
        tr("The look-up table, one work-item per bin"), tr("Every pixel through the table"),
        tr("The four stages' sum, per run")};
    for (int row = 0; row < RowCount; ++row) {
        auto* item = new QTableWidgetItem(stages[row]);
        item->setToolTip(stageTips[row]);
        m_timings->setItem(row, StageColumn, item);
    }
    m_timings->verticalHeader()->setVisible(false);
    m_timings->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_timings->setSelectionMode(QAbstractItemView::NoSelection);
    m_timings->setWordWrap(false);
    m_timings->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_timings->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_timings->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_timings->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    m_timings->resizeColumnsToContents();

    auto* controls = new QVBoxLayout;
    controls->addLayout(form);
    controls->addLayout(runRow);
    controls->addWidget(m_progress);
    controls->addWidget(m_status);
    controls->addLayout(files);
    controls->addSpacing(8);
    controls->addWidget(m_timings);
    controls->addWidget(m_verified);
    controls->addStretch(1);
    auto* left = new QWidget;
    left->setLayout(controls);
    left->setMaximumWidth(380);

    // The compare view under its tool bar: mode, zoom, and the pixel under the cursor.
    auto* tools = new QToolBar;
    tools->setIconSize(QSize(16, 16));
    tools->addActions(m_compare->modeActions());
    tools->addSeparator();
    tools->addActions(m_compare->zoomActions());
    tools->addSeparator();
    tools->addWidget(m_hover);
    auto* viewer = new QWidget;
    auto* viewerLayout = new QVBoxLayout(viewer);
    viewerLayout->setContentsMargins(0, 0, 0, 0);
    viewerLayout->setSpacing(2);
    viewerLayout->addWidget(tools);
    viewerLayout->addWidget(m_compare, 1);

    // The plot: counts on the left axis, the CDFs in % on the right one.
    m_plot->setMinimumHeight(180);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->legend->setVisible(true);
    m_plot->legend->setFont(QFont(font().family(), 8));
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignHCenter);
    m_plot->xAxis->setLabel(tr("value"));
    m_plot->yAxis->setLabel(tr("pixels"));
    m_plot->yAxis2->setVisible(true);
    m_plot->yAxis2->setLabel(tr("cumulative, % of the pixels"));
    m_plot->yAxis2->setRange(0, 100);
    auto addGraph = [this](QCPAxis* valueAxis, const QString& name, const QColor& color,
                           Qt::PenStyle style, QCPGraph::LineStyle line) {
        QCPGraph* graph = m_plot->addGraph(m_plot->xAxis, valueAxis);
        graph->setName(name);
        graph->setPen(QPen(color, 1.2, style));
        graph->setLineStyle(line);
        return graph;
    };
    m_before =
        addGraph(m_plot->yAxis, tr("before"), kBeforeColor, Qt::SolidLine, QCPGraph::lsStepCenter);
    m_after =
        addGraph(m_plot->yAxis, tr("after"), kAfterColor, Qt::SolidLine, QCPGraph::lsStepCenter);
    m_cdfBefore = addGraph(m_plot->yAxis2, tr("CDF before (%)"), kBeforeColor, Qt::DashLine,
                           QCPGraph::lsLine);
    m_cdfAfter =
        addGraph(m_plot->yAxis2, tr("CDF after (%)"), kAfterColor, Qt::DashLine, QCPGraph::lsLine);
    m_before->setBrush(QColor(kBeforeColor.red(), kBeforeColor.green(), kBeforeColor.blue(), 50));

    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(viewer);
    right->addWidget(m_plot);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    right->setChildrenCollapsible(false);
    right->setSizes({400, 280});
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(left);
    layout->addWidget(right, 1);

    connect(m_run, &QPushButton::clicked, this, &EqualizePanel::startRun);
    connect(m_runAction, &QAction::triggered, this, &EqualizePanel::startRun);
    connect(m_cancel, &QPushButton::clicked, this, &EqualizePanel::cancelRun);
    connect(m_save, &QPushButton::clicked, this, &EqualizePanel::chooseSaveFile);
    connect(m_exportPlot, &QPushButton::clicked, this, &EqualizePanel::chooseExportPlot);
    connect(m_exportCsv, &QPushButton::clicked, this, &EqualizePanel::chooseExportCsv);
    m_compare->showHoverIn(m_hover);

    connect(m_bridge, &JobBridge::equalizeProgress, this,
            [this](quint64, double fraction, const QString& stage) {
                m_progress->setValue(qRound(fraction * 1000));
                setStatus(tr("equalizing: %1…").arg(stage));
            });
    connect(m_bridge, &JobBridge::equalizeFinished, this,
            [this](quint64, const EqualizeResult& result) { showResult(result); });
    connect(m_bridge, &JobBridge::equalizeFailed, this,
            [this](quint64, const JobError& error) { showFailure(error); });

    restoreSettings();
    setImage({}, {}, {});
}

void EqualizePanel::restoreSettings() {
    QSettings s = settings();
    m_repeats->setValue(s.value(QStringLiteral("equalize/repeats"), m_repeats->value()).toInt());
    m_compare->rememberModeIn(QStringLiteral("equalize/compare"));
}

void EqualizePanel::saveSettings() const {
    settings().setValue(QStringLiteral("equalize/repeats"), m_repeats->value());
}

void EqualizePanel::updateControls() {
    m_run->setEnabled(!m_source.isEmpty());
    m_runAction->setEnabled(!m_source.isEmpty());
    const bool shown = m_result.has_value();
    m_save->setEnabled(shown);
    m_exportPlot->setEnabled(shown);
    m_exportCsv->setEnabled(shown);
}

void EqualizePanel::clearResult() {
    m_result.reset();
    for (int row = 0; row < RowCount; ++row)
        for (int c = MedianColumn; c < ColumnCount; ++c)
            m_timings->setItem(row, c, new QTableWidgetItem);
    m_verified->clear();
    m_verified->setStyleSheet({});
    for (QCPGraph* g : {m_before, m_after, m_cdfBefore, m_cdfAfter})
        g->data()->clear();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void EqualizePanel::setImage(const QString& source, const QSize& imageSize, const QImage& preview) {
    if (!source.isEmpty() && source == m_source && imageSize == m_imageSize)
        return; // the same image (a region of it analysed, or run again): the results stay
    if (isRunning()) {
        m_bridge->cancelEqualize(); // of the image no longer shown: its answer is dropped
        m_dropAnswer = true;
        setRunning(false);
    }
    m_source = source;
    m_imageSize = imageSize;
    clearResult();
    m_compare->setLabels(tr("Original"), tr("Equalized"));
    if (source.isEmpty()) {
        m_imageLabel->setText(tr("none: open one (File › Open)"));
        m_compare->setPlaceholder(tr("Open an image (File › Open): the Equalize tab equalizes "
                                     "the image the Image tab shows."));
        m_compare->setImages({}, {});
        setStatus(tr("No image yet: open one first."));
    } else {
        QString name = QFileInfo(source).fileName();
        if (source.startsWith(QLatin1String(":/")))
            name = tr("the sample image");
        m_imageLabel->setText(
            tr("%1, %2 × %3").arg(name).arg(imageSize.width()).arg(imageSize.height()));
        m_imageLabel->setToolTip(QDir::toNativeSeparators(source));
        m_compare->setPlaceholder(tr("Run (Ctrl+Enter) to see the equalized image here."));
        m_compare->setImages(preview, {}, imageSize);
        setStatus({});
    }
    updateControls();
}

EqualizeRequest EqualizePanel::request() const {
    EqualizeRequest r;
    r.source = m_source;
    r.device = m_deviceSelector ? m_deviceSelector() : QStringLiteral("auto");
    r.repeats = m_repeats->value();
    return r;
}

void EqualizePanel::startRun() {
    if (m_source.isEmpty()) {
        const QString why = tr("No image to equalize: open one first (File › Open).");
        setStatus(why, true);
        emit problem(why);
        return;
    }
    saveSettings();
    m_dropAnswer = false; // the bridge only answers the newest run: this one
    const EqualizeRequest r = request();
    m_bridge->runEqualize(r); // replaces an equalization still running (lane "equalize")
    setRunning(true);
    m_deviceLabel->setText(tr("%1 (from the Run dock)").arg(r.device));
    setStatus(tr("equalizing…"));
    qCInfo(lcUi).noquote() << "equalize" << m_source << "on device" << r.device;
    emit runStarted();
}

void EqualizePanel::cancelRun() {
    if (!isRunning())
        return;
    m_bridge->cancelEqualize();
    setStatus(tr("cancelling…"));
}

void EqualizePanel::setRunning(bool running) {
    m_cancel->setEnabled(running);
    m_progress->setVisible(running);
    m_progress->setValue(0);
}

void EqualizePanel::setStatus(const QString& text, bool bad) {
    m_status->setText(text);
    m_status->setStyleSheet(bad ? QStringLiteral("color: #c00000; font-weight: bold;") : QString());
}

void EqualizePanel::showFailure(const JobError& error) {
    setRunning(false);
    if (std::exchange(m_dropAnswer, false))
        return;
    if (error.kind == JobError::Kind::Cancelled) {
        setStatus(tr("cancelled: the results shown are the previous run's"));
        emit runEnded(tr("equalize cancelled"));
        return;
    }
    QString message = QString::fromStdString(error.message);
    if (error.kind == JobError::Kind::Usage)
        message = tr("Cannot run: %1").arg(message);
    QString shown = message;
    m_status->setToolTip({});
    if (!error.buildLog.empty()) {
        m_status->setToolTip(QString::fromStdString(error.kernelFile + " " + error.options +
                                                    "\n\n" + error.buildLog));
        shown += tr(" (the tooltip has the build log)");
    }
    setStatus(shown, true);
    qCWarning(lcUi).noquote() << "equalize failed:" << jobErrorKindName(error.kind) << message
                              << QString::fromStdString(error.buildLog);
    emit problem(message);
    emit runEnded(message);
}

void EqualizePanel::showResult(const EqualizeResult& result) {
    setRunning(false);
    if (std::exchange(m_dropAnswer, false))
        return;
    m_status->setToolTip({});
    m_result = result;
    const EqualizeRun& run = result.run;
    m_deviceLabel->setText(QString::fromStdString(result.device.name));
    m_deviceLabel->setToolTip(QStringLiteral("%1 [%2], %3")
                                  .arg(QString::fromStdString(result.device.name),
                                       QString::fromLatin1(deviceTypeName(result.device.type)),
                                       QString::fromStdString(result.device.platformName)));
    const bool color = result.channels >= 3;
    m_compare->setImages(result.inputPreview, result.outputPreview, result.imageSize);
    m_compare->setLabels(tr("Original"),
                         tr("Equalized (%1)").arg(color ? tr("on its luma") : tr("gray")));
    fillTimings(run);
    fillPlot(result);
    if (run.verified) {
        m_verified->setText(tr("verified: the image, histogram, CDF and table equal the CPU "
                               "reference byte for byte"));
        m_verified->setStyleSheet(QStringLiteral("color: #008000;"));
    } else {
        m_verified->setText(tr("NOT verified: %1").arg(QString::fromStdString(run.verifyDetail)));
        m_verified->setStyleSheet(QStringLiteral("color: #c00000; font-weight: bold;"));
    }
    m_verified->setToolTip(QString::fromStdString(run.buildOptions));
    const QString summary =
        tr("%1 × %2, %3 channel(s), %4-bit, %5 bins of %6 · total %7 ms · %8")
            .arg(result.imageSize.width())
            .arg(result.imageSize.height())
            .arg(result.channels)
            .arg(result.depth)
            .arg(run.bins)
            .arg(color ? tr("luma") : tr("gray"))
            .arg(ms(run.totalStats.medianMs))
            .arg(run.verified ? tr("verified") : tr("differs from the CPU reference"));
    setStatus(summary, !run.verified);
    updateControls();
    qCInfo(lcUi).noquote() << "equalize of" << result.request.source << "on"
                           << QString::fromStdString(result.device.name) << ":" << summary;
    emit runEnded(summary);
}

void EqualizePanel::fillTimings(const EqualizeRun& run) {
    const TimingStats* stats[RowCount] = {&run.histogramStats, &run.cdfStats, &run.lutStats,
                                          &run.applyStats, &run.totalStats};
    for (int row = 0; row < RowCount; ++row) {
        m_timings->setItem(row, MedianColumn, new QTableWidgetItem(ms(stats[row]->medianMs)));
        m_timings->setItem(row, MinColumn, new QTableWidgetItem(ms(stats[row]->minMs)));
        m_timings->setItem(row, GbpsColumn,
                           new QTableWidgetItem(row == ApplyRow ? gbps(run.applyGbps) : QString()));
        for (int c = MedianColumn; c < GbpsColumn; ++c)
            m_timings->item(row, c)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_timings->item(row, GbpsColumn)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    QFont bold = m_timings->item(TotalRow, StageColumn)->font();
    bold.setBold(true);
    for (int c = 0; c < ColumnCount; ++c)
        m_timings->item(TotalRow, c)->setFont(bold);
    m_timings->resizeColumnsToContents();
}

void EqualizePanel::fillPlot(const EqualizeResult& result) {
    const EqualizeRun& run = result.run;
    setHistogramData(m_before, m_cdfBefore, run.histogram);
    setHistogramData(m_after, m_cdfAfter, result.histogramAfter);
    const double top = std::max(
        run.histogram.empty()
            ? 0.0
            : double(*std::max_element(run.histogram.begin(), run.histogram.end())),
        result.histogramAfter.empty() ? 0.0
                                      : double(*std::max_element(result.histogramAfter.begin(),
                                                                 result.histogramAfter.end())));
    m_plot->xAxis->setRange(-0.5, double(run.bins) - 0.5);
    m_plot->yAxis->setRange(0, std::max(1.0, top * 1.05));
    m_plot->yAxis2->setRange(0, 105);
    m_plot->xAxis->setLabel(
        tr("value (%1 bins of %2)")
            .arg(run.bins)
            .arg(result.channels >= 3 ? tr("the luma") : tr("the gray values")));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString EqualizePanel::defaultPath(const QString& what, const QString& suffix) const {
    QString start = settings().value(QStringLiteral("lastFolder")).toString();
    if (start.isEmpty())
        start = QDir::homePath();
    QString base = QFileInfo(m_source).completeBaseName();
    if (base.isEmpty())
        base = QStringLiteral("histlab");
    return QDir(start).filePath(QStringLiteral("%1-%2.%3").arg(base, what, suffix));
}

void EqualizePanel::chooseSaveFile() {
    if (!m_result)
        return;
    QString path =
        m_saveChooser(this, tr("Save Equalized Image"),
                      defaultPath(QStringLiteral("equalized"), QStringLiteral("png")), kSaveFilter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".png");
    saveResultTo(path);
}

void EqualizePanel::chooseExportPlot() {
    if (!m_result)
        return;
    QString path = m_saveChooser(
        this, tr("Export Plot"),
        defaultPath(QStringLiteral("equalize-histogram"), QStringLiteral("png")), kPlotFilter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".png");
    PlotExportOptions options;
    options.format = plotFormatForFile(path).value_or(PlotFormat::Png);
    options.width = std::max(m_plot->width(), 640);
    options.height = std::max(m_plot->height(), 420);
    exportPlotTo(path, options);
}

void EqualizePanel::chooseExportCsv() {
    if (!m_result)
        return;
    const QString path = m_saveChooser(
        this, tr("Export Histogram CSV"),
        defaultPath(QStringLiteral("equalize-histogram"), QStringLiteral("csv")), kCsvFilter);
    if (!path.isEmpty())
        exportCsvTo(path);
}

ExportResult EqualizePanel::saveResultTo(const QString& path) {
    const QString what = tr("The equalized image was not saved.");
    if (!m_result)
        return fail(tr("%1: nothing to save (no equalized image is shown)").arg(path), what);
    try {
        saveImage(m_result->run.output, QFile::encodeName(path).toStdString());
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()), what);
    }
    settings().setValue(QStringLiteral("lastFolder"), QFileInfo(path).absolutePath());
    setStatus(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    qCInfo(lcUi).noquote() << "equalized image saved:" << path;
    return ExportResult::success();
}

ExportResult EqualizePanel::exportPlotTo(const QString& path, const PlotExportOptions& options) {
    const QString what = tr("The plot was not exported.");
    if (!m_result)
        return fail(tr("%1: nothing to export (run first)").arg(path), what);
    const ExportResult result = exportPlot(*m_plot, path, options);
    if (!result.ok)
        return fail(result.message, what);
    settings().setValue(QStringLiteral("lastFolder"), QFileInfo(path).absolutePath());
    setStatus(tr("Exported %1").arg(QDir::toNativeSeparators(path)));
    return result;
}

ExportResult EqualizePanel::exportCsvTo(const QString& path) {
    const QString what = tr("The CSV was not written.");
    if (!m_result)
        return fail(tr("%1: nothing to export (run first)").arg(path), what);
    const EqualizeRun& run = m_result->run;
    std::ostringstream csv;
    csv << "bin,count,cdf\n";
    for (std::size_t b = 0; b < run.histogram.size() && b < run.cdf.size(); ++b)
        csv << b << ',' << run.histogram[b] << ',' << run.cdf[b] << '\n';
    const ExportResult result = writeFileSafely(path, QByteArray::fromStdString(csv.str()));
    if (!result.ok)
        return fail(result.message, what);
    settings().setValue(QStringLiteral("lastFolder"), QFileInfo(path).absolutePath());
    setStatus(tr("Exported %1").arg(QDir::toNativeSeparators(path)));
    return result;
}

ExportResult EqualizePanel::fail(const QString& message, const QString& what) {
    setStatus(message, true);
    qCWarning(lcUi).noquote() << "equalize tab:" << message;
    emit problem(message);
    if (m_errorDialogs) {
        // Window-modal and opened without exec(): no nested event loop.
        auto* box =
            new QMessageBox(QMessageBox::Warning, tr("HistLab"),
                            QStringLiteral("%1\n\n%2").arg(what, message), QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    return ExportResult::failure(message);
}

} // namespace histlab::ui
