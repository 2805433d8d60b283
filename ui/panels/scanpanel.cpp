#include "panels/scanpanel.h"

#include "bridge/logging.h"

#include <report/report.h>
#include <runtime/errors.h>

#include <qcustomplot.h>

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
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
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

namespace histlab::ui {

namespace {

const QString kPlotFilter = QObject::tr("PNG (*.png);;PDF (*.pdf);;SVG (*.svg)");

// Far outside any work-group size: a whole-array scan's level spans the whole x axis.
constexpr double kLevelFrom = 1;
constexpr double kLevelTo = 1 << 24;
constexpr std::size_t kLargestWg = 4096;

QSettings settings() {
    return QSettings(QStringLiteral("HistLab"), QStringLiteral("HistLab"));
}

QColor variantColor(ScanVariant v) {
    switch (v) {
    case ScanVariant::Naive:
        return QColor(214, 39, 40);
    case ScanVariant::Blelloch:
        return QColor(31, 119, 180);
    case ScanVariant::WgScan:
        return QColor(44, 160, 44);
    case ScanVariant::ReduceThenScan:
        return QColor(148, 103, 189);
    case ScanVariant::Lookback:
        return QColor(255, 127, 14);
    case ScanVariant::Auto:
        break;
    }
    return QColor(127, 127, 127);
}

QString variantName(ScanVariant v) {
    return QString::fromLatin1(scanVariantName(v));
}

QString gbpsText(double value) {
    return QString::number(value, 'f', value >= 100 ? 0 : 2);
}

QString msText(double value) {
    return QString::number(value, 'f', value >= 100 ? 1 : value >= 1 ? 3 : 4);
}

bool drawn(const ScanPoint& p) {
    return statusRan(p.status) && p.gbps > 0;
}

} // namespace

ScanPanel::ScanPanel(JobBridge* bridge, QWidget* parent)
    : QWidget(parent)
    , m_bridge(bridge)
    , m_plot(new QCustomPlot)
    , m_size(new QSpinBox)
    , m_repeats(new QSpinBox)
    , m_distribution(new QComboBox)
    , m_minWg(new QComboBox)
    , m_maxWg(new QComboBox)
    , m_deviceLabel(new QLabel)
    , m_run(new QPushButton(tr("Ru&n")))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_exportPlot(new QPushButton(tr("Export Plot…")))
    , m_saveJson(new QPushButton(tr("Save JSON…")))
    , m_saveCsv(new QPushButton(tr("Save CSV…")))
    , m_runAction(new QAction(tr("Run Scan Benchmark"), this))
    , m_progress(new QProgressBar)
    , m_status(new QLabel)
    , m_table(new QTableWidget) {
    m_size->setRange(0, 2048);
    m_size->setValue(0);
    m_size->setSuffix(tr(" MiB"));
    m_size->setSpecialValueText(tr("auto (16 MiB CPU, 64 MiB GPU)"));
    m_size->setToolTip(tr("MiB of uint32 values to scan; auto: 16 MiB on a CPU device, 64 MiB "
                          "on a GPU"));
    m_repeats->setRange(1, 1000);
    m_repeats->setValue(5);
    m_repeats->setToolTip(tr("Timed runs per point after one warm-up; the median is plotted"));
    for (ScanDistribution d : {ScanDistribution::Random, ScanDistribution::Ones,
                               ScanDistribution::Bytes, ScanDistribution::Max})
        m_distribution->addItem(QString::fromLatin1(scanDistributionName(d)), int(d));
    m_distribution->setToolTip(tr("random: 32-bit values; ones: every value 1; bytes: 0..255; "
                                  "max: every value 0xFFFFFFFF"));
    m_maxWg->addItem(tr("device max"), 0);
    for (std::size_t wg = 16; wg <= kLargestWg; wg *= 2) {
        m_minWg->addItem(QString::number(wg), qulonglong(wg));
        m_maxWg->addItem(QString::number(wg), qulonglong(wg));
    }
    m_minWg->setToolTip(tr("The per-segment scans run at every power of two from this size to "
                           "the largest; the whole-array scans at their default size"));
    m_maxWg->setToolTip(m_minWg->toolTip());
    m_deviceLabel->setWordWrap(true);
    m_deviceLabel->setText(tr("the Run dock's"));
    m_deviceLabel->setToolTip(tr("The device chosen in the Run dock (Run › Run)"));
    m_cancel->setEnabled(false);
    m_run->setToolTip(tr("Run the benchmark (Ctrl+Enter); a run in progress is replaced"));
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setVisible(false);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_exportPlot->setToolTip(tr("The figure as PNG, PDF or SVG"));
    m_saveJson->setToolTip(tr("The run as JSON (device, copy kernel, every point), as "
                              "histlab-cli scan --json writes it"));
    m_saveCsv->setToolTip(tr("One row per point, as histlab-cli scan --csv writes it"));

    m_runAction->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    m_runAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(m_runAction);

    auto* variants = new QGridLayout;
    int k = 0;
    for (ScanVariant v : allScanVariants()) {
        auto* check = new QCheckBox(variantName(v));
        check->setChecked(true);
        check->setToolTip(isSegmentedScan(v)
                              ? tr("Per-segment scan (65,536 values a work-group): one curve "
                                   "over the work-group sizes")
                              : tr("Whole-array scan at its default work-group size: a "
                                   "horizontal line"));
        m_checks[v] = check;
        variants->addWidget(check, k % 3, k / 3);
        ++k;
    }
    auto* wgRow = new QHBoxLayout;
    wgRow->addWidget(m_minWg);
    wgRow->addWidget(new QLabel(tr("to")));
    wgRow->addWidget(m_maxWg, 1);
    auto* form = new QFormLayout;
    form->addRow(tr("Si&ze"), m_size);
    form->addRow(tr("D&ata"), m_distribution);
    form->addRow(tr("Repeat&s"), m_repeats);
    form->addRow(tr("Work-groups"), wgRow);
    form->addRow(tr("Variants"), variants);
    form->addRow(tr("Device"), m_deviceLabel);
    auto* runRow = new QHBoxLayout;
    runRow->addWidget(m_run);
    runRow->addWidget(m_cancel);
    auto* files = new QGridLayout;
    files->addWidget(m_exportPlot, 0, 0, 1, 2);
    files->addWidget(m_saveJson, 1, 0);
    files->addWidget(m_saveCsv, 1, 1);
    auto* controls = new QVBoxLayout;
    controls->addLayout(form);
    controls->addLayout(runRow);
    controls->addWidget(m_progress);
    controls->addWidget(m_status);
    controls->addLayout(files);
    controls->addStretch(1);
    auto* left = new QWidget;
    left->setLayout(controls);
    left->setMaximumWidth(380);

    // The figure: GB/s against the work-group size on a log2 axis.
    m_plot->setMinimumSize(320, 240);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->legend->setVisible(true);
    m_plot->legend->setFont(QFont(font().family(), 8));
    // The legend under the axes, three entries a row: the curves and the levels span the whole
    // axis rect, where a legend would hide some of them.
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->plotLayout()->addElement(1, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(1, 0.001);
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->legend->setWrap(3);
    m_plot->legend->setMargins(QMargins(4, 2, 4, 2));
    m_plot->plotLayout()->insertRow(0);
    m_title = new QCPTextElement(m_plot, tr("Scans: GB/s against the work-group size"),
                                 QFont(font().family(), 9, QFont::Bold));
    m_plot->plotLayout()->addElement(0, 0, m_title);
    m_plot->xAxis->setLabel(tr("work-group size (work-items)"));
    m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> log2(new QCPAxisTickerLog);
    log2->setLogBase(2);
    log2->setSubTickCount(0);
    m_plot->xAxis->setTicker(log2);
    m_plot->xAxis->setNumberFormat(QStringLiteral("f"));
    m_plot->xAxis->setNumberPrecision(0);
    m_plot->xAxis->setRange(16 / 1.3, 1024 * 1.3);
    m_plot->yAxis->setLabel(tr("GB/s ((4 read + 4 written) bytes × values / median)"));
    m_plot->yAxis->setRange(0, 1);
    for (ScanVariant v : allScanVariants()) {
        QCPGraph* graph = m_plot->addGraph();
        graph->setName(variantName(v));
        const QColor color = variantColor(v);
        if (isSegmentedScan(v)) {
            graph->setPen(QPen(color, 1.6));
            graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, 6));
        } else {
            graph->setPen(QPen(color, 1.6, Qt::DotLine));
        }
        m_graphs[v] = graph;
    }
    m_copyGraph = m_plot->addGraph();
    m_copyGraph->setName(tr("copy kernel"));
    m_copyGraph->setPen(QPen(QColor(90, 90, 90), 1.6, Qt::DashLine));

    m_table->setColumnCount(ColumnCount);
    m_table->setHorizontalHeaderLabels({tr("variant"), tr("wg"), tr("GB/s"), tr("% of copy"),
                                        tr("median ms"), tr("status"), tr("detail")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    m_table->setMinimumHeight(120);

    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(m_plot);
    right->addWidget(m_table);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 1);
    right->setChildrenCollapsible(false);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(left);
    layout->addWidget(right, 1);

    connect(m_run, &QPushButton::clicked, this, &ScanPanel::startRun);
    connect(m_runAction, &QAction::triggered, this, &ScanPanel::startRun);
    connect(m_cancel, &QPushButton::clicked, this, &ScanPanel::cancelRun);
    connect(m_exportPlot, &QPushButton::clicked, this, &ScanPanel::chooseExportPlot);
    connect(m_saveJson, &QPushButton::clicked, this, &ScanPanel::chooseSaveJson);
    connect(m_saveCsv, &QPushButton::clicked, this, &ScanPanel::chooseSaveCsv);

    connect(m_bridge, &JobBridge::scanStarted, this,
            [this](quint64, const ScanPlan& plan) { resetPlot(plan); });
    connect(m_bridge, &JobBridge::scanPoint, this,
            [this](quint64, const ScanPoint& point) { addPoint(point); });
    connect(m_bridge, &JobBridge::scanProgress, this,
            [this](quint64, double fraction, const QString& what) {
                m_progress->setValue(qRound(fraction * 1000));
                setStatus(tr("running: %1…").arg(what));
            });
    connect(m_bridge, &JobBridge::scanFinished, this,
            [this](quint64, const ScanBenchResult& result) { showFinished(result); });
    connect(m_bridge, &JobBridge::scanFailed, this,
            [this](quint64, const JobError& error) { showFailure(error); });

    restoreSettings();
    updateControls();
    setStatus(tr("Run (Ctrl+Enter) to measure the scans on the Run dock's device."));
}

QCPGraph* ScanPanel::variantGraph(ScanVariant variant) const {
    const auto it = m_graphs.find(variant);
    return it == m_graphs.end() ? nullptr : it->second;
}

QCheckBox* ScanPanel::variantCheck(ScanVariant variant) const {
    const auto it = m_checks.find(variant);
    return it == m_checks.end() ? nullptr : it->second;
}

void ScanPanel::restoreSettings() {
    QSettings s = settings();
    m_size->setValue(s.value(QStringLiteral("scan/sizeMiB"), m_size->value()).toInt());
    m_repeats->setValue(s.value(QStringLiteral("scan/repeats"), m_repeats->value()).toInt());
    auto restoreCombo = [&s](QComboBox* combo, const QString& key) {
        const int index = combo->findText(s.value(key).toString());
        if (index >= 0)
            combo->setCurrentIndex(index);
    };
    restoreCombo(m_distribution, QStringLiteral("scan/data"));
    restoreCombo(m_minWg, QStringLiteral("scan/minWg"));
    restoreCombo(m_maxWg, QStringLiteral("scan/maxWg"));
    const QStringList chosen = s.value(QStringLiteral("scan/variants")).toStringList();
    if (!chosen.isEmpty())
        for (const auto& [variant, check] : m_checks)
            check->setChecked(chosen.contains(variantName(variant)));
}

void ScanPanel::saveSettings() const {
    QSettings s = settings();
    s.setValue(QStringLiteral("scan/sizeMiB"), m_size->value());
    s.setValue(QStringLiteral("scan/repeats"), m_repeats->value());
    s.setValue(QStringLiteral("scan/data"), m_distribution->currentText());
    s.setValue(QStringLiteral("scan/minWg"), m_minWg->currentText());
    s.setValue(QStringLiteral("scan/maxWg"), m_maxWg->currentText());
    QStringList chosen;
    for (const auto& [variant, check] : m_checks)
        if (check->isChecked())
            chosen << variantName(variant);
    s.setValue(QStringLiteral("scan/variants"), chosen);
}

ScanBenchRequest ScanPanel::request() const {
    ScanBenchRequest r;
    r.device = m_deviceSelector ? m_deviceSelector() : QStringLiteral("auto");
    r.variants.clear();
    for (ScanVariant v : allScanVariants())
        if (m_checks.at(v)->isChecked())
            r.variants.push_back(v);
    r.bytes = std::size_t(m_size->value()) << 20;
    r.repeats = m_repeats->value();
    r.distribution = ScanDistribution(m_distribution->currentData().toInt());
    r.minWorkGroupSize = std::size_t(m_minWg->currentData().toULongLong());
    r.maxWorkGroupSize = std::size_t(m_maxWg->currentData().toULongLong());
    return r;
}

void ScanPanel::startRun() {
    const ScanBenchRequest r = request();
    if (r.variants.empty()) {
        const QString why = tr("No variant chosen: tick at least one.");
        setStatus(why, true);
        emit problem(why);
        return;
    }
    saveSettings();
    m_bridge->runScans(r); // replaces a benchmark still running (lane "scan")
    m_result.reset();
    m_points.clear();
    m_plan.reset();
    m_table->setRowCount(0);
    for (const auto& [variant, graph] : m_graphs)
        graph->data()->clear();
    m_copyGraph->data()->clear();
    m_copyGbps = 0;
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    setRunning(true);
    m_deviceLabel->setText(tr("%1 (from the Run dock)").arg(r.device));
    setStatus(tr("starting…"));
    qCInfo(lcUi).noquote() << "scan benchmark on device" << r.device << "size"
                           << (r.bytes ? QString::number(r.bytes >> 20) + QStringLiteral(" MiB")
                                       : QStringLiteral("auto"));
    emit runStarted();
}

void ScanPanel::cancelRun() {
    if (!isRunning())
        return;
    m_bridge->cancelScans();
    setStatus(tr("cancelling…"));
}

void ScanPanel::setRunning(bool running) {
    m_cancel->setEnabled(running);
    m_progress->setVisible(running);
    m_progress->setValue(0);
    updateControls();
}

void ScanPanel::updateControls() {
    const bool done = m_result.has_value();
    m_saveJson->setEnabled(done);
    m_saveCsv->setEnabled(done);
    m_exportPlot->setEnabled(!m_points.empty() || done);
}

void ScanPanel::setStatus(const QString& text, bool bad) {
    m_status->setText(text);
    m_status->setStyleSheet(bad ? QStringLiteral("color: #c00000; font-weight: bold;") : QString());
}

void ScanPanel::resetPlot(const ScanPlan& plan) {
    m_plan = plan;
    m_copyGbps = 0;
    for (const auto& [variant, graph] : m_graphs) {
        graph->data()->clear();
        graph->setName(variantName(variant));
    }
    m_copyGraph->data()->clear();
    m_copyGraph->setName(tr("copy kernel"));
    const QString device = QString::fromStdString(plan.device.name);
    m_deviceLabel->setText(device);
    m_deviceLabel->setToolTip(QStringLiteral("%1 [%2], %3")
                                  .arg(device,
                                       QString::fromLatin1(deviceTypeName(plan.device.type)),
                                       QString::fromStdString(plan.device.platformName)));
    const double mib = double(plan.elements * sizeof(std::uint32_t)) / 1048576.0;
    m_title->setText(tr("Scans: GB/s against the work-group size\n%1 · %2 MiB, %3 · %4 "
                        "repeat(s)")
                         .arg(device.size() > 48 ? device.left(47) + QStringLiteral("…") : device)
                         .arg(mib, 0, 'g', 4)
                         .arg(QString::fromLatin1(scanDistributionName(plan.request.distribution)))
                         .arg(plan.request.repeats));
    const double lo = plan.workGroupSizes.empty() ? 16 : double(plan.workGroupSizes.front());
    const double hi = plan.workGroupSizes.empty() ? 1024 : double(plan.workGroupSizes.back());
    m_plot->xAxis->setRange(lo / 1.3, std::max(hi, lo * 2) * 1.3);
    m_plot->yAxis->setRange(0, 1);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ScanPanel::setLevel(QCPGraph* graph, double gbps) {
    graph->setData(QVector<double>{kLevelFrom, kLevelTo}, QVector<double>{gbps, gbps}, true);
}

void ScanPanel::setCopyLine(double gbps) {
    m_copyGbps = gbps;
    setLevel(m_copyGraph, gbps);
    m_copyGraph->setName(tr("copy kernel (%1 GB/s)").arg(gbpsText(gbps)));
}

void ScanPanel::fitValueAxis() {
    double top = m_copyGbps;
    for (const ScanPoint& p : m_points)
        if (drawn(p))
            top = std::max(top, p.gbps);
    m_plot->yAxis->setRange(0, top > 0 ? top * 1.15 : 1);
}

void ScanPanel::addPoint(const ScanPoint& point) {
    m_points.push_back(point);
    // The copy kernel runs first: the first judged point carries its GB/s in its ratio.
    if (m_copyGbps <= 0 && point.percentOfCopy > 0 && point.gbps > 0)
        setCopyLine(point.gbps * 100.0 / point.percentOfCopy);
    QCPGraph* graph = variantGraph(point.variant);
    if (graph && drawn(point)) {
        if (isSegmentedScan(point.variant)) {
            graph->addData(double(point.workGroupSize), point.gbps);
        } else {
            setLevel(graph, point.gbps);
            graph->setName(tr("%1 (wg %2): %3 GB/s")
                               .arg(variantName(point.variant))
                               .arg(point.workGroupSize)
                               .arg(gbpsText(point.gbps)));
        }
    } else if (graph && point.status == Status::Unsupported) {
        graph->setName(tr("%1 (unsupported)").arg(variantName(point.variant)));
    }
    addTableRow(point);
    fitValueAxis();
    updateControls();
    m_plot->replot(QCustomPlot::rpQueuedReplot); // coalesced: one replot per event-loop turn
    emit pointAdded(point);
}

void ScanPanel::addTableRow(const ScanPoint& p) {
    const bool judged = statusRan(p.status);
    const QStringList cells = {
        variantName(p.variant),
        QString::number(p.workGroupSize),
        judged ? gbpsText(p.gbps) : QString(),
        judged && p.percentOfCopy > 0 ? QString::number(p.percentOfCopy, 'f', 1) : QString(),
        judged ? msText(p.stats.medianMs) : QString(),
        QString::fromLatin1(statusName(p.status)),
        QString::fromStdString(p.detail)};
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    for (int c = 0; c < ColumnCount; ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        item->setToolTip(c == DetailColumn || c == StatusColumn
                             ? QString::fromStdString(p.detail)
                             : QString::fromStdString(p.buildOptions));
        if (c >= WorkGroupColumn && c <= MedianColumn)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, c, item);
    }
    if (p.status == Status::Unsupported) {
        // Expected where the device lacks the feature: the reason, in italics, not an error.
        for (int c = 0; c < ColumnCount; ++c) {
            QTableWidgetItem* item = m_table->item(row, c);
            QFont italic = item->font();
            italic.setItalic(true);
            item->setFont(italic);
            item->setForeground(QColor(100, 100, 100));
        }
        m_table->item(row, StatusColumn)
            ->setToolTip(tr("An expected outcome: %1").arg(QString::fromStdString(p.detail)));
    } else if (p.status != Status::Verified) {
        const QColor red(0xc0, 0, 0);
        for (int c : {int(StatusColumn), int(DetailColumn)}) {
            QFont bold = m_table->item(row, c)->font();
            bold.setBold(true);
            m_table->item(row, c)->setFont(bold);
            m_table->item(row, c)->setForeground(red);
        }
    } else {
        m_table->item(row, StatusColumn)->setForeground(QColor(0, 0x80, 0));
    }
    if (row == 0)
        m_table->resizeColumnsToContents();
    m_table->scrollToBottom();
}

void ScanPanel::showFinished(const ScanBenchResult& result) {
    setRunning(false);
    m_result = result;
    m_plan = result.plan;
    if (result.run.copy.gbps > 0)
        setCopyLine(result.run.copy.gbps); // the exact figure
    fitValueAxis();
    m_table->resizeColumnsToContents();
    int verified = 0, unsupported = 0, bad = 0;
    for (const ScanPoint& p : result.run.points) {
        verified += p.status == Status::Verified ? 1 : 0;
        unsupported += p.status == Status::Unsupported ? 1 : 0;
        bad += p.status == Status::Mismatch || p.status == Status::Failed ? 1 : 0;
    }
    QString summary = tr("%1 points: %2 verified").arg(result.run.points.size()).arg(verified);
    if (unsupported)
        summary += tr(", %1 unsupported on this device (as expected)").arg(unsupported);
    if (bad)
        summary += tr(", %1 failed or differ from the CPU reference").arg(bad);
    if (result.run.copy.gbps > 0)
        summary += tr(" · copy kernel %1 GB/s").arg(gbpsText(result.run.copy.gbps));
    setStatus(summary, bad > 0);
    updateControls();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    qCInfo(lcUi).noquote() << "scan benchmark on" << QString::fromStdString(result.run.device.name)
                           << ":" << summary;
    emit runEnded(summary);
}

void ScanPanel::showFailure(const JobError& error) {
    setRunning(false);
    if (error.kind == JobError::Kind::Cancelled) {
        setStatus(tr("cancelled after %1 point(s): the points shown are those that finished")
                      .arg(m_points.size()));
        emit runEnded(tr("scan benchmark cancelled"));
        return;
    }
    QString message = QString::fromStdString(error.message);
    if (error.kind == JobError::Kind::Usage)
        message = tr("Cannot run: %1").arg(message);
    setStatus(message, true);
    qCWarning(lcUi).noquote() << "scan benchmark failed:" << jobErrorKindName(error.kind) << message
                              << QString::fromStdString(error.buildLog);
    emit problem(message);
    emit runEnded(message);
}

QString ScanPanel::defaultPath(const QString& suffix) const {
    QString start = settings().value(QStringLiteral("lastFolder")).toString();
    if (start.isEmpty())
        start = QDir::homePath();
    return QDir(start).filePath(QStringLiteral("scans.%1").arg(suffix));
}

void ScanPanel::chooseExportPlot() {
    QString path =
        m_saveChooser(this, tr("Export Plot"), defaultPath(QStringLiteral("png")), kPlotFilter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".png");
    PlotExportOptions options;
    options.format = plotFormatForFile(path).value_or(PlotFormat::Png);
    options.width = std::max(m_plot->width(), 720);
    options.height = std::max(m_plot->height(), 480);
    exportPlotTo(path, options);
}

void ScanPanel::chooseSaveJson() {
    const QString path =
        m_saveChooser(this, tr("Save Scan Run"), defaultPath(QStringLiteral("json")),
                      tr("JSON (*.json);;All files (*)"));
    if (!path.isEmpty())
        saveJsonTo(path);
}

void ScanPanel::chooseSaveCsv() {
    const QString path =
        m_saveChooser(this, tr("Save Scan Points"), defaultPath(QStringLiteral("csv")),
                      tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty())
        saveCsvTo(path);
}

ExportResult ScanPanel::exportPlotTo(const QString& path, const PlotExportOptions& options) {
    const ExportResult result = exportPlot(*m_plot, path, options);
    if (!result.ok)
        return fail(result.message);
    settings().setValue(QStringLiteral("lastFolder"), QFileInfo(path).absolutePath());
    setStatus(tr("Exported %1").arg(QDir::toNativeSeparators(path)));
    return result;
}

ExportResult ScanPanel::saveJsonTo(const QString& path) {
    if (!m_result)
        return fail(tr("%1: nothing to save yet (run the benchmark first)").arg(path));
    const ExportResult result =
        writeFileSafely(path, QByteArray::fromStdString(scanJson(m_result->run)));
    if (!result.ok)
        return fail(result.message);
    settings().setValue(QStringLiteral("lastFolder"), QFileInfo(path).absolutePath());
    setStatus(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    return result;
}

ExportResult ScanPanel::saveCsvTo(const QString& path) {
    if (!m_result)
        return fail(tr("%1: nothing to save yet (run the benchmark first)").arg(path));
    const ExportResult result =
        writeFileSafely(path, QByteArray::fromStdString(scanCsv(m_result->run)));
    if (!result.ok)
        return fail(result.message);
    settings().setValue(QStringLiteral("lastFolder"), QFileInfo(path).absolutePath());
    setStatus(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    return result;
}

ExportResult ScanPanel::fail(const QString& message) {
    setStatus(message, true);
    qCWarning(lcUi).noquote() << "scans tab:" << message;
    emit problem(message);
    if (m_errorDialogs) {
        auto* box =
            new QMessageBox(QMessageBox::Warning, tr("HistLab"), message, QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    return ExportResult::failure(message);
}

} // namespace histlab::ui
