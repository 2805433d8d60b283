#include "panels/scanpanel.h"

#include "bridge/logging.h"
#include "panels/resulttable.h"
#include "plots/plotstyle.h"

#include <report/report.h>
#include <runtime/errors.h>

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>

#include <algorithm>
#include <utility>

namespace histlab::ui {

// The worker's side ------------------------------------------------------------------------

namespace {

/// The worker's side of the tab: streams the ScanPlan, then each ScanPoint as it finishes, and
/// returns the ScanBenchResult. The run is histlab-cli scan's.
JobWork scanBenchJob(const ScanBenchRequest& request) {
    return [request](JobContext& ctx, const ItemSink& post) -> std::any {
        Device& device = jobDevice(ctx, request.device, "scans");
        // The core's plan decides the size and the work-group sizes, as for histlab-cli scan:
        // the per-segment variants over the range chosen, the whole-array ones at their default.
        ScanParams params;
        params.variants = request.variants;
        params.allWorkGroupSizes = true;
        params.minWorkGroupSize = request.minWorkGroupSize;
        params.maxWorkGroupSize = request.maxWorkGroupSize;
        if (request.bytes)
            params.sizeMiB = double(request.bytes) / 1048576.0;
        params.distribution = request.distribution;
        params.repeats = request.repeats;
        const ScanRequest planned = planScan(device.info(), params);
        ScanPlan plan;
        plan.request = request;
        plan.device = device.info();
        plan.elements = planned.elements;
        plan.workGroupSizes = planned.workGroupSizes;
        plan.points = int(scanPointCount(planned));
        post(plan);

        ScanBenchResult result;
        result.plan = plan;
        result.run = runScanJob(ctx, device, planned, post).run;
        return result;
    };
}

} // namespace

// The tab ----------------------------------------------------------------------------------

namespace {

// Far outside any work-group size: a whole-array scan's level spans the whole x axis.
constexpr double kLevelFrom = 1;
constexpr double kLevelTo = 1 << 24;
constexpr std::size_t kLargestWg = 4096;

/// Naive red, blelloch blue, wgscan green, reduce-then-scan purple, lookback orange.
QColor variantColor(ScanVariant v) {
    static const int colors[] = {-1, 3, 0, 2, 4, 1}; // by ScanVariant, from Auto
    return seriesColor(colors[int(v)]);
}

QString variantName(ScanVariant v) {
    return QString::fromLatin1(scanVariantName(v));
}

bool drawn(const ScanPoint& p) {
    return statusRan(p.status) && p.gbps > 0;
}

} // namespace

ScanPanel::ScanPanel(JobBridge* bridge, QWidget* parent)
    : ResultPanel(bridge,
                  {QStringLiteral("scan"), tr("scan benchmark"), tr("Run Scan Benchmark"),
                   QStringLiteral("scans")},
                  parent)
    , m_plot(new QCustomPlot)
    , m_size(new QSpinBox)
    , m_distribution(new QComboBox)
    , m_minWg(new QComboBox)
    , m_maxWg(new QComboBox)
    , m_table(new QTableWidget) {
    m_size->setRange(0, 2048);
    m_size->setValue(0);
    m_size->setSuffix(tr(" MiB"));
    m_size->setSpecialValueText(tr("auto (16 MiB CPU, 64 MiB GPU)"));
    m_size->setToolTip(tr("MiB of uint32 values to scan; auto: 16 MiB on a CPU device, 64 MiB "
                          "on a GPU"));
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
    runButton()->setToolTip(tr("Run the benchmark (Ctrl+Enter); a run in progress is replaced"));

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
    form()->addRow(tr("Si&ze"), m_size);
    form()->addRow(tr("D&ata"), m_distribution);
    addRepeatsRow(tr("Timed runs per point after one warm-up; the median is plotted"));
    form()->addRow(tr("Work-groups"), wgRow);
    form()->addRow(tr("Variants"), variants);
    addDeviceRow();
    filesGrid()->addWidget(
        addOutput(Output::Plot, tr("Export Plot"), tr("The figure as PNG, JPG, PDF or SVG")), 0, 0,
        1, 2);
    filesGrid()->addWidget(addOutput(Output::Json, tr("Save Scan Run"),
                                     tr("The run as JSON (device, copy kernel, every point), as "
                                        "histlab-cli scan --json writes it"),
                                     [this](QString*) { return scanJson(m_result->run); }),
                           1, 0);
    filesGrid()->addWidget(addOutput(Output::Csv, tr("Save Scan Points"),
                                     tr("One row per point, as histlab-cli scan --csv writes it"),
                                     [this](QString*) { return scanCsv(m_result->run); }),
                           1, 1);

    // The figure: GB/s against the work-group size on a log2 axis.
    m_plot->setMinimumSize(320, 240);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->setNoAntialiasingOnDrag(true);
    showSmallLegend(m_plot);
    // The legend under the axes, up to three entries a row: the curves and the levels span the
    // whole axis rect, where a legend would hide some of them.
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->plotLayout()->addElement(1, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(1, 0.001);
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    fitLegendColumns(m_plot, 3);
    m_plot->legend->setMargins(QMargins(4, 2, 4, 2));
    m_title = addPlotTitle(m_plot, tr("Scans: GB/s against the work-group size"));
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
    m_copyLine = std::make_unique<CopyKernelLine>(m_plot, kLevelFrom, kLevelTo,
                                                  tr("copy kernel (%1 GB/s)"), 1.6);
    setExportedPlot(m_plot);

    setUpResultTable(m_table, {tr("variant"), tr("wg"), tr("GB/s"), tr("% of copy"),
                               tr("median ms"), tr("status"), tr("detail")});
    m_table->setMinimumHeight(120);

    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(m_plot);
    right->addWidget(m_table);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 1);
    right->setChildrenCollapsible(false);
    setResults(right);

    remember(m_size, QStringLiteral("sizeMiB"));
    remember(m_distribution, QStringLiteral("data"));
    remember(m_minWg, QStringLiteral("minWg"));
    remember(m_maxWg, QStringLiteral("maxWg"));
    const QStringList chosen =
        settings().value(settingsKey(QStringLiteral("variants"))).toStringList();
    if (!chosen.isEmpty())
        for (const auto& [variant, check] : m_checks)
            check->setChecked(chosen.contains(variantName(variant)));
    updateActions();
    setStatus(tr("Run (Ctrl+Enter) to measure the scans on the device chosen above the tabs."));
}

QCPGraph* ScanPanel::variantGraph(ScanVariant variant) const {
    const auto it = m_graphs.find(variant);
    return it == m_graphs.end() ? nullptr : it->second;
}

QCheckBox* ScanPanel::variantCheck(ScanVariant variant) const {
    const auto it = m_checks.find(variant);
    return it == m_checks.end() ? nullptr : it->second;
}

void ScanPanel::saveSettings() const {
    QStringList chosen;
    for (const auto& [variant, check] : m_checks)
        if (check->isChecked())
            chosen << variantName(variant);
    settings().setValue(settingsKey(QStringLiteral("variants")), chosen);
}

ScanBenchRequest ScanPanel::request() const {
    ScanBenchRequest r;
    r.device = deviceSelector();
    r.variants.clear();
    for (ScanVariant v : allScanVariants())
        if (m_checks.at(v)->isChecked())
            r.variants.push_back(v);
    r.bytes = std::size_t(m_size->value()) << 20;
    r.repeats = repeatsSpin()->value();
    r.distribution = ScanDistribution(m_distribution->currentData().toInt());
    r.minWorkGroupSize = std::size_t(m_minWg->currentData().toULongLong());
    r.maxWorkGroupSize = std::size_t(m_maxWg->currentData().toULongLong());
    return r;
}

void ScanPanel::startRun() {
    const ScanBenchRequest r = request();
    if (r.variants.empty()) {
        refuse(tr("No variant chosen: tick at least one."));
        return;
    }
    m_result.reset();
    m_points.clear();
    m_plan.reset();
    m_table->setRowCount(0);
    clearPlot();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    qCInfo(lcUi).noquote() << "scan benchmark on device" << r.device << "size"
                           << (r.bytes ? QString::number(r.bytes >> 20) + QStringLiteral(" MiB")
                                       : QStringLiteral("auto"));
    start(scanBenchJob(r));
}

void ScanPanel::clearPlot() {
    for (const auto& [variant, graph] : m_graphs) {
        graph->data()->clear();
        graph->setName(variantName(variant));
    }
    m_copyLine->clear();
}

void ScanPanel::showItem(const std::any& item) {
    if (const auto* plan = std::any_cast<ScanPlan>(&item))
        resetPlot(*plan);
    else if (const auto* point = std::any_cast<ScanPoint>(&item))
        addPoint(*point);
}

void ScanPanel::resetPlot(const ScanPlan& plan) {
    m_plan = plan;
    clearPlot();
    showDevice(plan.device);
    const QString device = QString::fromStdString(plan.device.name);
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

void ScanPanel::fitValueAxis() {
    fitFromZero(m_plot->yAxis, highestGbps(m_points, m_copyLine->gbps()));
}

void ScanPanel::addPoint(const ScanPoint& point) {
    m_points.push_back(point);
    m_copyLine->learnFrom(point.gbps, point.percentOfCopy);
    QCPGraph* graph = variantGraph(point.variant);
    if (graph && drawn(point)) {
        if (isSegmentedScan(point.variant)) {
            graph->addData(double(point.workGroupSize), point.gbps);
        } else {
            setLevel(graph, point.gbps, kLevelFrom, kLevelTo);
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
    const int row =
        appendResultRow(m_table, cells,
                        [&p](int c) {
                            return QString::fromStdString(
                                c == DetailColumn || c == StatusColumn ? p.detail : p.buildOptions);
                        },
                        {WorkGroupColumn, GbpsColumn, PercentColumn, MedianColumn});
    markRowStatus(m_table, row, p.status, StatusColumn, {StatusColumn, DetailColumn});
    if (p.status == Status::Unsupported)
        m_table->item(row, StatusColumn)
            ->setToolTip(tr("An expected outcome: %1").arg(QString::fromStdString(p.detail)));
    growColumnsToContents(m_table);
    m_table->scrollToBottom();
}

QString ScanPanel::present(const ScanBenchResult& result) {
    m_plan = result.plan;
    if (result.run.copy.gbps > 0)
        m_copyLine->set(result.run.copy.gbps); // the exact figure
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
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    return summary;
}

QString ScanPanel::cancelledStatus() const {
    return tr("cancelled after %1 point(s): the points shown are those that finished")
        .arg(m_points.size());
}

} // namespace histlab::ui
