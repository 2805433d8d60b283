#include "panels/equalizepanel.h"
#include "common/settings.h"

#include "bridge/logging.h"
#include "panels/resulttable.h"
#include "plots/plotstyle.h"
#include "views/compareview.h"
#include "views/imagelist.h"

#include <qcustomplot.h>

#include <QFormLayout>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <sstream>
#include <utility>

namespace histlab::ui {

// The worker's side ------------------------------------------------------------------------

namespace {

/// The worker's side of the tab: loads the image through `images`, equalizes it as histlab-cli
/// equalize does (its plan and run), counts the result's histogram and makes the previews.
JobWork equalizeJob(const EqualizeRequest& request, std::shared_ptr<ImageCache> images) {
    return [request, images](JobContext& ctx, const ItemSink& post) -> std::any {
        EqualizeShown shown;
        shown.request = request;
        const auto [full, device] = openImageJob(ctx, *images, request, "equalize", shown);
        EqualizeParams params;
        params.input.loaded = full;
        params.repeats = request.repeats;
        shown.run = runEqualizeJob(ctx, device, planEqualize(device.info(), params), post).run;
        ctx.throwIfCancelled();
        ctx.progress(0.9, "histogram of the result");
        shown.histogramAfter = equalizedHistogram(shown.run);
        shown.inputPreview = previewOf(*full, request.maxPreviewSide);
        shown.outputPreview = previewOf(shown.run.output, request.maxPreviewSide);
        return shown;
    };
}

} // namespace

// The tab ----------------------------------------------------------------------------------

namespace {

const QColor kBeforeColor(31, 119, 180);
const QColor kAfterColor(255, 127, 14);

/// Counts over bins 0..n-1 in pixels per value, `group` values summed into each step (keys at
/// the groups' centres), and their cumulative sum in % of the total, bin by bin.
void setHistogramData(QCPGraph* counts, QCPGraph* cdf, const std::vector<std::uint64_t>& hist,
                      int group) {
    const qsizetype n = qsizetype(hist.size());
    QVector<double> keys(n), cumulative(n), groupKeys, density;
    std::uint64_t total = 0;
    for (std::uint64_t c : hist)
        total += c;
    std::uint64_t sum = 0, inGroup = 0;
    for (qsizetype b = 0; b < n; ++b) {
        sum += hist[std::size_t(b)];
        inGroup += hist[std::size_t(b)];
        keys[b] = double(b);
        cumulative[b] = total ? 100.0 * double(sum) / double(total) : 0.0;
        if ((b + 1) % group == 0 || b + 1 == n) {
            const qsizetype first = b + 1 - ((b % group) + 1);
            const double width = double(b - first + 1);
            groupKeys.append(double(first) + (width - 1) / 2);
            density.append(double(inGroup) / width);
            inGroup = 0;
        }
    }
    counts->setData(groupKeys, density, true);
    cdf->setData(keys, cumulative, true);
}

} // namespace

EqualizePanel::EqualizePanel(JobBridge* bridge, QWidget* parent)
    : ResultPanel(bridge, {QStringLiteral("equalize"), tr("equalization"), tr("Run Equalize"), {}},
                  {tr("equalize"), tr("the Equalize tab equalizes the image the Image tab shows"),
                   tr("equalized image"), tr("Save Equalized Image"), tr("Equalized")},
                  parent)
    , m_plot(new QCustomPlot)
    , m_timings(new QTableWidget)
    , m_verified(new QLabel) {
    saveResultButton()->setToolTip(tr("The equalized image at full size and depth (PNG, TIFF, "
                                      "BMP, JPEG, PGM/PPM, WebP)"));
    runButton()->setToolTip(tr("Equalize the image (Ctrl+Enter); a run in progress is replaced"));
    setProgressFormat(tr("equalizing: %1…"));
    setPlotExport(QSize(640, 420));
    m_verified->setWordWrap(true);
    m_verified->setTextInteractionFlags(Qt::TextSelectableByMouse);

    addRepeatsRow(tr("Timed runs of each stage after one warm-up; median and min shown"));
    addDeviceRow();
    filesGrid()->addWidget(saveResultButton(), 0, 0, 1, 2);
    filesGrid()->addWidget(addOutput(Output::Plot, tr("Export Plot"),
                                     tr("The histogram plot as PNG, JPG, PDF or SVG")),
                           1, 0);
    filesGrid()->addWidget(addOutput(
                               Output::Csv, tr("Export Histogram CSV"),
                               tr("bin,count,cdf: the plane's histogram before "
                                  "equalization and its cumulative sum, as histlab-cli "
                                  "equalize --csv writes it"),
                               [this](QString*) { return histogramCsv(); }, tr("Export CSV…")),
                           1, 1);

    // The stages' timings: small, with the controls.
    m_timings->setColumnCount(ColumnCount);
    m_timings->setRowCount(RowCount);
    m_timings->setHorizontalHeaderLabels({tr("stage"), tr("median ms"), tr("min ms"), tr("GB/s")});
    m_timings->horizontalHeaderItem(GbpsColumn)
        ->setToolTip(tr("The apply pass: image bytes read + written per second (the table's "
                        "reads are not counted)"));
    const QStringList stages = {tr("histogram"), tr("cdf"), tr("lut"), tr("apply"), tr("total")};
    const QStringList stageTips = {
        tr("Zeroing the bins and counting the plane into them (8-bit: the 256-bin histogram's "
           "tuned kernel; 16-bit: local histograms in slices of the 65,536 bins)"),
        tr("The inclusive scan of the bins (core/scan.h's whole-array scan)"),
        tr("The look-up table, one work-item per bin"),
        tr("Every pixel through the table (gray: 16 bytes per load)"),
        tr("The four stages' sum, per run")};
    for (int row = 0; row < RowCount; ++row) {
        auto* item = new QTableWidgetItem(stages[row]);
        item->setToolTip(stageTips[row]);
        m_timings->setItem(row, StageColumn, item);
    }
    m_timings->verticalHeader()->setVisible(false);
    setUpFixedTable(m_timings);
    m_timings->resizeColumnsToContents();

    columnEnd()->addSpacing(8);
    columnEnd()->addWidget(m_timings);
    columnEnd()->addWidget(m_verified);

    // The plot: counts on the left axis, the CDFs in % on the right one.
    m_plot->setMinimumHeight(180);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->setNoAntialiasingOnDrag(true);
    showSmallLegend(m_plot);
    m_plot->legend->setWrap(2); // two rows of two: less of the data under it
    m_plot->xAxis->setLabel(tr("value"));
    m_plot->yAxis->setLabel(tr("pixels per value"));
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
    // "Before" a translucent area, "after" a bolder line drawn over it: an equalized histogram
    // is a comb (some values left empty) that, drawn bin by bin, hid "before" completely. Both
    // are shown in groups of values (afterGroup), per value: the comb becomes its flat level,
    // and "before" stays visible under it.
    m_before->setBrush(QColor(kBeforeColor.red(), kBeforeColor.green(), kBeforeColor.blue(), 70));
    m_after->setPen(QPen(kAfterColor, 2.0));
    setExportedPlot(m_plot);

    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(viewer());
    right->addWidget(m_plot);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    right->setChildrenCollapsible(false);
    right->setSizes({400, 280});
    setResults(right);

    setImage({}, 1, 1, {}, {});
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
    // An empty plot: no legend over nothing, the axis of 8-bit values.
    m_plot->legend->setVisible(false);
    m_plot->xAxis->setRange(-0.5, 255.5);
    m_plot->yAxis->setRange(0, 1);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

int EqualizePanel::afterGroup(int bins) {
    // About 64 steps across: wider than the gaps equalization leaves between the values it
    // keeps (an 8-bit image keeps fewer than 256 of them).
    return std::max(1, bins / 64);
}

EqualizeRequest EqualizePanel::request() const {
    EqualizeRequest r;
    r.source = imageSource();
    r.page = imagePage();
    r.device = deviceSelector();
    r.repeats = repeatsSpin()->value();
    return r;
}

void EqualizePanel::startRun() {
    if (refuseWithoutImage())
        return;
    const EqualizeRequest r = request();
    qCInfo(lcUi).noquote() << "equalize" << imageLogName(r.source) << "on device" << r.device;
    start(equalizeJob(r, bridge()->imageCache()), tr("equalizing…"));
}

QString EqualizePanel::present(const EqualizeShown& result) {
    const EqualizeRun& run = result.run;
    showDevice(result.device);
    const bool color = result.channels >= 3;
    compareView()->setImages(result.inputPreview, result.outputPreview, result.imageSize);
    compareView()->setLabels(tr("Original"),
                             tr("Equalized (%1)").arg(color ? tr("on its luma") : tr("gray")));
    fillTimings(run);
    fillPlot(result);
    if (run.verified) {
        m_verified->setText(tr("verified: the image, histogram, CDF and table equal the CPU "
                               "reference byte for byte"));
        m_verified->setStyleSheet(QStringLiteral("color: #008000;"));
    } else {
        m_verified->setText(tr("NOT verified: %1").arg(QString::fromStdString(run.verifyDetail)));
        m_verified->setStyleSheet(errorStyle());
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
            .arg(msText(run.totalStats.medianMs))
            .arg(run.verified ? tr("verified") : tr("differs from the CPU reference"));
    setStatus(summary, !run.verified);
    return summary;
}

void EqualizePanel::fillTimings(const EqualizeRun& run) {
    const TimingStats* stats[RowCount] = {&run.histogramStats, &run.cdfStats, &run.lutStats,
                                          &run.applyStats, &run.totalStats};
    for (int row = 0; row < RowCount; ++row) {
        m_timings->setItem(row, MedianColumn, new QTableWidgetItem(msText(stats[row]->medianMs)));
        m_timings->setItem(row, MinColumn, new QTableWidgetItem(msText(stats[row]->minMs)));
        m_timings->setItem(
            row, GbpsColumn,
            new QTableWidgetItem(row == ApplyRow ? gbpsText(run.applyGbps) : QString()));
        for (int c = MedianColumn; c < GbpsColumn; ++c)
            m_timings->item(row, c)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_timings->item(row, GbpsColumn)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    // What ran, after the stage's tooltip of how it works: the histogram kernel's
    // configuration (8-bit images) and the gather's (histlab-cli equalize prints the same).
    // Each run replaces the previous run's line.
    const auto setRan = [this](int row, const std::string& ran) {
        QTableWidgetItem* item = m_timings->item(row, StageColumn);
        const QString how = item->toolTip().section(QStringLiteral("\nran: "), 0, 0);
        item->setToolTip(
            ran.empty() ? how : how + QStringLiteral("\nran: ") + QString::fromStdString(ran));
    };
    setRan(HistogramRow, run.histogramConfig);
    setRan(ApplyRow, run.apply.describe());
    QFont bold = m_timings->item(TotalRow, StageColumn)->font();
    bold.setBold(true);
    for (int c = 0; c < ColumnCount; ++c)
        m_timings->item(TotalRow, c)->setFont(bold);
    m_timings->resizeColumnsToContents();
}

void EqualizePanel::fillPlot(const EqualizeShown& result) {
    const EqualizeRun& run = result.run;
    const int group = afterGroup(run.bins);
    setHistogramData(m_before, m_cdfBefore, run.histogram, group);
    setHistogramData(m_after, m_cdfAfter, result.histogramAfter, group);
    double top = 0;
    for (const QCPGraph* g : {m_before, m_after})
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
            top = std::max(top, it->value);
    m_plot->xAxis->setRange(-0.5, double(run.bins) - 0.5);
    m_plot->yAxis->setRange(0, top > 0 ? top * 1.05 : 1.0);
    m_plot->yAxis2->setRange(0, 105);
    m_plot->legend->setVisible(true);
    const QString of = result.channels >= 3 ? tr("the luma") : tr("the gray values");
    m_plot->xAxis->setLabel(
        group > 1
            ? tr("value (%1 bins of %2, plotted in groups of %3)").arg(run.bins).arg(of).arg(group)
            : tr("value (%1 bins of %2)").arg(run.bins).arg(of));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString EqualizePanel::fileBaseName(Output) const {
    return imageBaseName() + QStringLiteral("-equalize-histogram");
}

QString EqualizePanel::resultFileName() const {
    return imageBaseName() + QStringLiteral("-equalized");
}

const HostImage* EqualizePanel::resultImage() const {
    return m_result ? &m_result->run.output : nullptr;
}

std::string EqualizePanel::histogramCsv() const {
    const EqualizeRun& run = m_result->run;
    std::ostringstream csv;
    csv << "bin,count,cdf\n";
    for (std::size_t b = 0; b < run.histogram.size() && b < run.cdf.size(); ++b)
        csv << b << ',' << run.histogram[b] << ',' << run.cdf[b] << '\n';
    return csv.str();
}

} // namespace histlab::ui
