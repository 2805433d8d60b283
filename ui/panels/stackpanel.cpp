#include "panels/stackpanel.h"
#include "common/settings.h"

#include "bridge/logging.h"
#include "common/theme.h"
#include "panels/resulttable.h"
#include "plots/histogramplot.h"
#include "plots/plotstyle.h"
#include "views/imagelist.h"

#include <pipelines/histogram256/histogram256.h>

#include <qcustomplot.h>

#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace histlab::ui {

// The worker's side ------------------------------------------------------------------------

namespace {

/// histlab-cli histogram FILE --page A-B on the window's device: the family's plan and run,
/// which read the pages one at a time, report the page in the progress and stop at a cancel
/// before the next page.
JobWork stackJob(const StackRequest& request) {
    return [request](JobContext& ctx, const ItemSink& post) -> std::any {
        StackShown shown;
        shown.request = request;
        ctx.progress(0.0, "reading the pages' headers");
        HistogramParams params;
        params.input.path = QFile::encodeName(request.path).toStdString();
        params.input.pages = PageRange{request.first, request.last};
        params.options.repeats = request.repeats;
        Device& device = jobDevice(ctx, request.device, "stack histogram");
        HistogramResult result =
            runHistogramJob(ctx, {device.info().index}, planHistogram(device.info(), params), post);
        shown.device = device.info();
        shown.run = std::move(*result.stack);
        return shown;
    };
}

/// The core's percentiles below the median (kPercentiles is in order).
const int kBelowMedian =
    int(std::count_if(kPercentiles.begin(), kPercentiles.end(), [](double p) { return p < 50; }));

/// The profile's percentiles: the core's (kPercentiles) with the median among them.
QStringList percentileNames() {
    QStringList names;
    for (double p : kPercentiles)
        names.append(QStringLiteral("p%1").arg(p));
    names.insert(kBelowMedian, QStringLiteral("median"));
    return names;
}

QString statText(double v) {
    return QString::fromStdString(statisticText(v));
}

} // namespace

// The view ---------------------------------------------------------------------------------

double StackPanel::percentileOf(const ChannelStatistics& st, int choice) {
    // The combo's order: kPercentiles with the median among them (percentileNames).
    if (choice == kBelowMedian)
        return st.median;
    return st.percentiles.at(std::size_t(choice < kBelowMedian ? choice : choice - 1));
}

StackPanel::StackPanel(JobBridge* bridge, QWidget* parent)
    : ResultPanel(bridge,
                  {QStringLiteral("stack"), tr("stack histogram"), tr("Run Whole Stack"),
                   QStringLiteral("stack")},
                  parent)
    , m_first(new QSpinBox)
    , m_last(new QSpinBox)
    , m_percentile(new QComboBox)
    , m_verified(new QLabel)
    , m_table(new QTableWidget)
    , m_plot(new QCustomPlot) {
    runButton()->setToolTip(tr("Count the pages chosen (Ctrl+Enter); a run in progress is "
                               "replaced, Cancel stops before the next page"));
    setProgressFormat(tr("counting the stack: %1…"));
    setPlotExport(QSize(720, 640));

    m_first->setToolTip(tr("The first page counted (pages count from 1)"));
    m_last->setToolTip(tr("The last page counted, included"));
    for (QSpinBox* spin : {m_first, m_last})
        spin->setRange(1, 1);
    form()->addRow(tr("&First page"), m_first);
    form()->addRow(tr("&Last page"), m_last);
    m_percentile->addItems(percentileNames());
    m_percentile->setCurrentText(QStringLiteral("p95"));
    m_percentile->setToolTip(tr("The percentile drawn against the page beside the mean "
                                "(nearest rank, of each page's exact values)"));
    form()->addRow(tr("&Percentile"), m_percentile);
    remember(m_percentile, QStringLiteral("percentile"));
    addRepeatsRow(tr("Timed runs of each page after one warm-up (1 is enough for the counts)"));
    if (!settings().contains(settingsKey(QStringLiteral("repeats"))))
        repeatsSpin()->setValue(1); // the counts are what the view is for, not the timings
    addDeviceRow();
    connect(m_percentile, &QComboBox::currentIndexChanged, this, [this] { fillProfile(); });

    filesGrid()->addWidget(addOutput(Output::Plot, tr("Export Stack Plot"),
                                     tr("The stack's histogram and Z-axis profile as PNG, JPG, "
                                        "PDF or SVG")),
                           0, 0);
    filesGrid()->addWidget(
        addOutput(Output::Csv, tr("Save Stack Statistics"),
                  tr("One row per page and channel, then the stack's rows (page \"all\"): "
                     "histlab-cli histogram --page A-B --stats-csv"),
                  [this](QString*) { return imageStackStatisticsCsv(m_result->run); }),
        0, 1);
    filesGrid()->addWidget(
        addOutput(
            Output::Json, tr("Save Stack Run"),
            tr("The stack's histogram, its pages and their statistics: histlab-cli "
               "histogram --page A-B --json"),
            [this](QString*) { return imageStackJson(m_result->run, "histlab-cli histogram"); }),
        1, 0);
    m_verified->setWordWrap(true);
    m_verified->setTextInteractionFlags(Qt::TextSelectableByMouse);
    columnEnd()->addWidget(m_verified);

    // The plot: the histogram above, the profile below, exported together.
    m_plot->setMinimumHeight(320);
    m_plot->xAxis->setLabel(tr("value"));
    m_plot->yAxis->setLabel(tr("pixels of the stack"));
    m_profileRect = new QCPAxisRect(m_plot);
    m_plot->plotLayout()->addElement(1, 0, m_profileRect);
    m_profileRect->axis(QCPAxis::atBottom)->setLabel(tr("page"));
    m_profileRect->axis(QCPAxis::atLeft)->setLabel(tr("value"));
    m_profileLegend = new QCPLegend;
    // Each legend right of its plot, outside it: the profile's curves reach every corner (its
    // legend inside hid the last pages), and both plots keep one width.
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    for (int row = 0; row < 2; ++row) {
        QCPLegend* legend = row == 0 ? m_plot->legend : m_profileLegend;
        // At the top of a column of its own: the legend as tall as its entries, space below.
        auto* side = new QCPLayoutGrid;
        m_plot->plotLayout()->addElement(row, 1, side);
        side->addElement(0, 0, legend);
        side->addElement(1, 0, new QCPLayoutElement(m_plot));
        side->setRowStretchFactor(1, 1000);
        side->setAutoMargins(QCP::msNone);
        side->setMargins(QMargins(0, 6, 6, 0)); // the border whole, level with the plot's top
        legend->setLayer(QStringLiteral("legend"));
        legend->setVisible(true);
        legend->setFont(QFont(font().family(), 8));
        legend->setMargins(QMargins(4, 2, 4, 2));
    }
    m_plot->plotLayout()->setColumnStretchFactor(1, 0.001);
    // Whole pages on the profile's axis.
    QSharedPointer<QCPAxisTickerFixed> pages(new QCPAxisTickerFixed);
    pages->setTickStep(1);
    pages->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_profileRect->axis(QCPAxis::atBottom)->setTicker(pages);
    for (QCPAxisRect* rect : {m_plot->axisRect(), m_profileRect})
        rect->setupFullAxesBox(false);
    applyPlotPalette(m_plot);
    setExportedPlot(m_plot);

    setUpResultTable(m_table, {tr("page"), tr("channel"), tr("pixels"), tr("mean"), tr("std.dev"),
                               tr("min"), tr("max"), tr("median"), tr("status")});

    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(m_plot);
    right->addWidget(m_table);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    right->setChildrenCollapsible(false);
    right->setSizes({460, 240});
    setResults(right, 300);
    clearResult();
}

void StackPanel::setImage(const QString& source, int pages) {
    if (source == m_source && pages == m_pages)
        return;
    m_source = source;
    m_pages = pages;
    discardRun();
    clearResult();
    for (QSpinBox* spin : {m_first, m_last})
        spin->setRange(1, std::max(1, pages));
    m_first->setValue(1);
    m_last->setValue(std::max(1, pages));
    setStatus(pages > 1
                  ? tr("%1: %2 pages; Run counts them").arg(imageDisplayName(source)).arg(pages)
                  : tr("The image shown has one page: open a multi-page TIFF"));
    updateActions();
}

void StackPanel::startRun() {
    if (m_pages < 2)
        return refuse(tr("No stack to count: the image shown has one page"));
    if (m_first->value() > m_last->value())
        return refuse(tr("First page: %1 is after the last page, %2")
                          .arg(m_first->value())
                          .arg(m_last->value()));
    StackRequest r;
    r.path = m_source;
    r.first = m_first->value();
    r.last = m_last->value();
    r.device = deviceSelector();
    r.repeats = repeatsSpin()->value();
    qCInfo(lcUi).noquote() << "stack" << imageLogName(r.path) << "pages" << r.first << "to"
                           << r.last << "on device" << r.device;
    clearResult();
    start(stackJob(r), tr("counting pages %1 to %2…").arg(r.first).arg(r.last));
}

QString StackPanel::cancelledStatus() const {
    return tr("cancelled before the next page: no result (Run counts the pages again)");
}

QString StackPanel::fileBaseName(Output) const {
    const QString base = QFileInfo(m_source).completeBaseName();
    return (base.isEmpty() ? QStringLiteral("histlab") : base) + QStringLiteral("-stack");
}

void StackPanel::clearResult() {
    m_result.reset();
    m_table->setRowCount(0);
    m_verified->clear();
    m_verified->setStyleSheet({});
    m_plot->clearGraphs();
    m_histogram.clear();
    m_mean.clear();
    m_percentiles.clear();
    m_profileLegend->clearItems();
    m_plot->xAxis->setRange(0, 256);
    m_plot->yAxis->setRange(0, 1);
    m_profileRect->axis(QCPAxis::atBottom)->setRange(0.5, std::max(1, m_pages) + 0.5);
    m_profileRect->axis(QCPAxis::atLeft)->setRange(0, 256);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString StackPanel::present(const StackShown& result) {
    const ImageStackRun& run = result.run;
    showDevice(result.device);
    fillTable(run);
    fillHistogram(run);
    fillProfile();
    bool verified = true;
    for (const StackPage& p : run.pages)
        for (const ImageChannelBins& c : p.channels)
            verified = verified && c.point.status == Status::Verified;
    m_verified->setText(verified ? tr("verified: every page's counts equal its CPU reference; "
                                      "the stack's are their sum")
                                 : tr("NOT verified: a page differs or did not run (its row "
                                      "says why)"));
    m_verified->setStyleSheet(verified ? QStringLiteral("color: #008000;") : errorStyle());
    const QString summary = tr("%1, pages %2 to %3 of %4: %5 channel(s) · %6")
                                .arg(imageDisplayName(result.request.path))
                                .arg(run.first)
                                .arg(run.last)
                                .arg(run.pagesInFile)
                                .arg(run.stack.results.size())
                                .arg(verified ? tr("verified") : tr("NOT verified"));
    setStatus(summary, !verified);
    return summary;
}

void StackPanel::fillTable(const ImageStackRun& run) {
    m_table->setRowCount(0);
    const auto add = [this](const QString& page, const ImageChannelBins& c, bool bold) {
        const ChannelStatistics& st = c.statistics;
        const QString detail = QString::fromStdString(c.point.detail);
        const int row = appendResultRow(
            m_table,
            {page, QString::fromStdString(c.name), QString::number(st.count), statText(st.mean),
             statText(st.stddev), statText(st.min), statText(st.max), statText(st.median),
             QString::fromLatin1(statusName(c.point.status))},
            [&detail](int column) { return column == StatusColumn ? detail : QString(); },
            {PixelsColumn, MeanColumn, StdDevColumn, MinColumn, MaxColumn, MedianColumn});
        markRowStatus(m_table, row, c.point.status, StatusColumn, {StatusColumn});
        if (bold)
            for (int column = 0; column < ColumnCount; ++column) {
                QFont font = m_table->item(row, column)->font();
                font.setBold(true);
                m_table->item(row, column)->setFont(font);
            }
    };
    // The stack's rows first (what the view is about), then the pages in order.
    for (const ImageChannelBins& c : run.stack.results)
        add(QStringLiteral("all"), c, true);
    for (const StackPage& p : run.pages)
        for (const ImageChannelBins& c : p.channels)
            add(QString::number(p.page), c, false);
    // Every column as wide as its contents: the status stays in sight.
    m_table->resizeColumnsToContents();
}

void StackPanel::fillHistogram(const ImageStackRun& run) {
    double top = 0, lo = 0, hi = 256;
    for (const ImageChannelBins& c : run.stack.results) {
        QCPGraph* graph = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
        const QString name = QString::fromStdString(c.name);
        graph->setName(name);
        graph->setPen(QPen(HistogramPlot::channelColor(name), 1.2));
        graph->setLineStyle(QCPGraph::lsStepCenter);
        const std::vector<std::uint64_t>& counts = c.histogram.counts;
        const double width =
            (c.spec.hi - c.spec.lo) / double(std::max<std::size_t>(1, counts.size()));
        QVector<double> keys, values;
        keys.reserve(qsizetype(counts.size()));
        values.reserve(qsizetype(counts.size()));
        for (std::size_t b = 0; b < counts.size(); ++b) {
            keys.append(c.spec.lo + (double(b) + 0.5) * width);
            values.append(double(counts[b]));
            top = std::max(top, double(counts[b]));
        }
        graph->setData(keys, values, true);
        lo = c.spec.lo;
        hi = c.spec.hi;
        m_histogram.push_back(graph);
    }
    m_plot->xAxis->setRange(lo, hi);
    m_plot->yAxis->setRange(0, top > 0 ? top * 1.05 : 1.0);
    m_plot->xAxis->setLabel(
        tr("value (the stack's histogram, pages %1 to %2)").arg(run.first).arg(run.last));
}

void StackPanel::fillProfile() {
    for (QCPGraph* graph : m_mean)
        m_plot->removeGraph(graph);
    for (QCPGraph* graph : m_percentiles)
        m_plot->removeGraph(graph);
    m_mean.clear();
    m_percentiles.clear();
    m_profileLegend->clearItems();
    if (!m_result) {
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const ImageStackRun& run = m_result->run;
    const int choice = m_percentile->currentIndex();
    double lo = 0, hi = 1;
    bool any = false;
    QCPAxis* x = m_profileRect->axis(QCPAxis::atBottom);
    QCPAxis* y = m_profileRect->axis(QCPAxis::atLeft);
    for (std::size_t c = 0; c < run.stack.results.size(); ++c) {
        const QString name = QString::fromStdString(run.stack.results[c].name);
        const QColor color = HistogramPlot::channelColor(name);
        QVector<double> pages, means, percentiles;
        for (const StackPage& p : run.pages) {
            if (c >= p.channels.size())
                continue;
            const ChannelStatistics& st = p.channels[c].statistics;
            pages.append(p.page);
            means.append(st.mean);
            percentiles.append(percentileOf(st, choice));
            for (double v : {st.mean, percentileOf(st, choice)}) {
                lo = any ? std::min(lo, v) : v;
                hi = any ? std::max(hi, v) : v;
                any = true;
            }
        }
        QCPGraph* mean = m_plot->addGraph(x, y);
        mean->setName(tr("%1 mean").arg(name));
        mean->setPen(QPen(color, 1.6));
        mean->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 5));
        mean->setData(pages, means, true);
        QCPGraph* percentile = m_plot->addGraph(x, y);
        percentile->setName(tr("%1 %2").arg(name, m_percentile->currentText()));
        percentile->setPen(QPen(color, 1.2, Qt::DashLine));
        percentile->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
        percentile->setData(pages, percentiles, true);
        for (QCPGraph* graph : {mean, percentile}) {
            graph->removeFromLegend(m_plot->legend);
            graph->addToLegend(m_profileLegend);
        }
        m_mean.push_back(mean);
        m_percentiles.push_back(percentile);
    }
    const double margin = std::max(1.0, (hi - lo) * 0.08);
    x->setRange(run.first - 0.5, run.last + 0.5);
    y->setRange(lo - margin, hi + margin);
    y->setLabel(tr("mean and %1").arg(m_percentile->currentText()));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace histlab::ui
