#include "panels/memorypanel.h"
#include "common/settings.h"

#include "bridge/logging.h"
#include "panels/resulttable.h"
#include "plots/plotstyle.h"

#include <report/report.h>
#include <runtime/bytesize.h>
#include <runtime/errors.h>

#include <qcustomplot.h>

#include <QCheckBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

namespace histlab::ui {

// The worker's side ------------------------------------------------------------------------

namespace {

/// The worker's side of the tab: streams each ReverseResult, the CeilingSweep once measured and
/// each TransferPoint, and returns the MemoryLabResult. Every size is checked before any work.
JobWork memoryLabJob(const MemoryLabRequest& request) {
    return [request](JobContext& ctx, const ItemSink& post) -> std::any {
        if (!request.reversal && !request.ceilings && !request.transfers)
            throw UsageError("parts", "nothing to run: choose reversal, ceilings or transfers");
        Device& device = jobDevice(ctx, request.device, "memory lab");
        const DeviceInfo& info = device.info();
        // Every size is settled and checked by the core's plans (the same as histlab-cli
        // reverse and histlab-cli memory) before any work: a bad one costs nothing.
        ReverseParams reverseParams;
        reverseParams.bytes = request.reverseBytes;
        reverseParams.repeats = request.repeats;
        const ReverseJob reverse = planReverseJob(info, reverseParams);
        MemoryLabParams labParams;
        labParams.ceilings = request.ceilings;
        labParams.transfers = request.transfers;
        labParams.ceilingBytes = request.ceilingBytes;
        labParams.maxBytes = request.transferMaxBytes;
        labParams.repeats = request.repeats;
        MemoryLabPlan lab;
        if (request.ceilings || request.transfers)
            lab = planMemoryLab(info, labParams);

        // The parts run one after the other, as histlab-cli reverse and histlab-cli memory
        // run them. Progress counts their steps: each variant; the ceilings, each transfer
        // point, the launch.
        const double reversal = request.reversal ? double(reverse.spec.variants.size()) : 0.0;
        const double ceiling = lab.ceilingBytes ? 1.0 : 0.0;
        const double steps = std::max(1.0, reversal + double(memoryLabSteps(lab)));
        MemoryLabResult result;
        result.request = request;
        result.device = info;
        result.memory.device = info;
        if (request.reversal) {
            JobContext part = ctx.part(0.0, reversal / steps);
            result.reversal = runReverseJob(part, device, reverse, post).run;
        }
        if (lab.ceilingBytes) {
            // The ceilings are drawn as one sweep (the best widths named), then the transfers
            // point by point: the plan's two parts, run one after the other.
            MemoryLabPlan ceilings = lab;
            ceilings.transfers.reset();
            JobContext part = ctx.part(reversal / steps, (reversal + ceiling) / steps);
            result.memory.ceilings = runMemoryLabJob(part, device, ceilings, {}).ceilings;
            post(*result.memory.ceilings);
        }
        if (lab.transfers) {
            MemoryLabPlan transfers = lab;
            transfers.ceilingBytes.reset();
            JobContext part = ctx.part((reversal + ceiling) / steps, 1.0);
            result.memory.transfers =
                runMemoryLabJob(part, device, transfers, [&](const std::any& item) {
                    if (const auto* p =
                            std::get_if<TransferPoint>(&std::any_cast<const MemoryLabItem&>(item)))
                        post(*p);
                }).transfers;
        }
        return result;
    };
}

} // namespace

// The tab ----------------------------------------------------------------------------------

namespace {

const QColor kReferenceColor(31, 119, 180); // the reference text's four kernels
const QColor kOwnColor(255, 127, 14);       // HistLab's variants

QString bytesText(std::uint64_t bytes) {
    return QString::fromStdString(formatByteSize(bytes));
}

/// The variant's place in the core's table: its bar's x.
int variantSlot(ReverseVariant variant) {
    const auto& table = reverseVariants();
    for (std::size_t i = 0; i < table.size(); ++i)
        if (table[i].variant == variant)
            return int(i);
    return 0;
}

QString elementName(int width) {
    return width == 1 ? QStringLiteral("uint") : QStringLiteral("uint%1").arg(width);
}

/// Host to device blue (pageable) and green (pinned), device to host red and purple, device to
/// device orange.
QColor transferColor(TransferKind kind) {
    static const int colors[] = {0, 2, 3, 4, 1}; // by TransferKind
    return seriesColor(colors[int(kind)]);
}

/// A log2 axis whose tick labels are byte sizes ("4 KiB", "1 MiB").
class ByteSizeTicker : public QCPAxisTickerLog {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return tick >= 1 ? bytesText(std::uint64_t(std::llround(tick))) : QString();
    }
};

/// A page's plot: a title above it, a small legend where it covers least.
QCPTextElement* setUpPagePlot(QCustomPlot* plot, const QString& title) {
    plot->setMinimumSize(320, 220);
    showSmallLegend(plot);
    return addPlotTitle(plot, title);
}

/// A size field's value: 0 for empty or "auto", else parseByteSize (UsageError naming it).
std::optional<std::uint64_t> sizeOf(const QLineEdit* edit, const char* name) {
    const QString text = edit->text().trimmed();
    if (text.isEmpty() || text.compare(QStringLiteral("auto"), Qt::CaseInsensitive) == 0)
        return std::nullopt;
    const std::uint64_t bytes = parseByteSize(name, text.toStdString());
    if (bytes == 0)
        throw UsageError(name, "must be at least 1 byte (empty: auto)");
    return bytes;
}

} // namespace

MemoryPanel::MemoryPanel(JobBridge* bridge, QWidget* parent)
    : ResultPanel(bridge,
                  {QStringLiteral("memory"), tr("memory lab"), tr("Run Memory Lab"),
                   QStringLiteral("memory")},
                  parent)
    , m_pages(new QTabWidget)
    , m_reversePlot(new QCustomPlot)
    , m_ceilingsPlot(new QCustomPlot)
    , m_transfersPlot(new QCustomPlot)
    , m_table(new QTableWidget)
    , m_bestWidth(new QLabel)
    , m_launch(new QLabel)
    , m_doReversal(new QCheckBox(tr("&Reversal")))
    , m_doCeilings(new QCheckBox(tr("C&eilings")))
    , m_doTransfers(new QCheckBox(tr("&Transfers")))
    , m_reverseSize(new QLineEdit)
    , m_ceilingSize(new QLineEdit)
    , m_transferMax(new QLineEdit) {
    for (QCheckBox* check : {m_doReversal, m_doCeilings, m_doTransfers})
        check->setChecked(true);
    m_doReversal->setToolTip(tr("Reverse a buffer of random bytes with the reference text's "
                                "four kernels and HistLab's, each verified byte for byte"));
    m_doCeilings->setToolTip(tr("Read-only and copy kernels with elements of 1 to 16 uints, "
                                "on random bytes: the device's bandwidth per access width"));
    m_doTransfers->setToolTip(tr("Host to device and back from pageable and pinned memory, "
                                 "device to device, from 4 KiB up; the kernel launch latency"));
    const QString sizeHelp = tr("Bytes, or a number with K, M, G (KiB, MiB, GiB) or KB, MB, GB; "
                                "empty: auto");
    m_reverseSize->setPlaceholderText(tr("auto (16 MiB CPU, 256 MiB GPU)"));
    m_reverseSize->setToolTip(tr("The buffer to reverse. %1").arg(sizeHelp));
    m_ceilingSize->setPlaceholderText(tr("auto (64 MiB CPU, 256 MiB GPU)"));
    m_ceilingSize->setToolTip(tr("The buffer the ceilings read and copy. %1").arg(sizeHelp));
    m_transferMax->setPlaceholderText(tr("auto (256 MiB CPU, 1 GiB GPU)"));
    m_transferMax->setToolTip(
        tr("The largest transfer; the sweep doubles from 4 KiB up to it. %1").arg(sizeHelp));
    runButton()->setToolTip(tr("Run the chosen parts (Ctrl+Enter); a run in progress is replaced"));
    setProgressFormat(tr("%1…"));

    auto* parts = new QHBoxLayout;
    parts->addWidget(m_doReversal);
    parts->addWidget(m_doCeilings);
    parts->addWidget(m_doTransfers);
    form()->addRow(tr("Parts"), parts);
    form()->addRow(tr("Reversal si&ze"), m_reverseSize);
    form()->addRow(tr("Ceiling size"), m_ceilingSize);
    form()->addRow(tr("Transfers &up to"), m_transferMax);
    addRepeatsRow(tr("Timed runs per measurement after one warm-up; the median is plotted "
                     "(transfers of 1 MiB and less run at least 20 times)"));
    addDeviceRow();
    filesGrid()->addWidget(addOutput(Output::Plot, tr("Export Plot"),
                                     tr("The plot of the page shown as PNG, JPG, PDF or SVG")),
                           0, 0, 1, 2);
    filesGrid()->addWidget(
        addOutput(Output::Json, tr("Save Memory Lab Run"),
                  tr("Reversal page: the reversal as histlab-cli reverse --json writes it; the "
                     "others: ceilings and transfers as histlab-cli memory --json writes them"),
                  [this](QString* why) { return pageText(true, why); }),
        1, 0);
    filesGrid()->addWidget(addOutput(Output::Csv, tr("Save Memory Lab Measurements"),
                                     tr("As Save JSON, one row per measurement (--csv)"),
                                     [this](QString* why) { return pageText(false, why); }),
                           1, 1);

    buildReversalPage();
    buildCeilingsPage();
    buildTransfersPage();
    setResults(m_pages, 380, true);

    remember(m_doReversal, QStringLiteral("reversal"));
    remember(m_doCeilings, QStringLiteral("ceilings"));
    remember(m_doTransfers, QStringLiteral("transfers"));
    remember(m_reverseSize, QStringLiteral("reverseSize"));
    remember(m_ceilingSize, QStringLiteral("ceilingSize"));
    remember(m_transferMax, QStringLiteral("transferMax"));
    m_pages->setCurrentIndex(std::clamp(
        settings().value(settingsKey(QStringLiteral("page")), 0).toInt(), 0, m_pages->count() - 1));
    setExportedPlot(plot(Page(m_pages->currentIndex())));
    updateActions();
    connect(m_pages, &QTabWidget::currentChanged, this,
            [this](int page) { setExportedPlot(plot(Page(page))); });
}

// Reversal: a bar per kernel (x: its place in the core's table), the copy kernel's level, and
// the table of every kernel below.
void MemoryPanel::buildReversalPage() {
    QCustomPlot* p = m_reversePlot;
    m_reverseTitle = setUpPagePlot(p, tr("Buffer reversal: GB/s per kernel"));
    QSharedPointer<QCPAxisTickerText> names(new QCPAxisTickerText);
    const auto& table = reverseVariants();
    for (std::size_t i = 0; i < table.size(); ++i)
        names->addTick(double(i), QString::fromLatin1(table[i].name));
    p->xAxis->setTicker(names);
    p->xAxis->setTickLabelRotation(30);
    p->xAxis->setSubTicks(false);
    // Kernels, not numbers: no solid zero line through the first kernel's bar.
    p->xAxis->grid()->setZeroLinePen(Qt::NoPen);
    p->xAxis->setRange(-0.7, double(table.size()) - 0.3);
    p->xAxis->setLabel(tr("kernel"));
    p->yAxis->setLabel(tr("GB/s ((n read + n written) bytes / median)"));
    p->yAxis->setRange(0, 1);
    const auto bars = [p](const QString& name, const QColor& color) {
        auto* b = new QCPBars(p->xAxis, p->yAxis);
        b->setName(name);
        b->setWidth(0.6);
        b->setPen(QPen(color.darker(130)));
        b->setBrush(color);
        return b;
    };
    m_referenceBars = bars(tr("the reference text's kernels"), kReferenceColor);
    m_ownBars = bars(tr("HistLab's kernels"), kOwnColor);
    m_copyLine = std::make_unique<CopyKernelLine>(p, -1, double(table.size()),
                                                  tr("copy kernel, same run (%1 GB/s)"), 1.5);

    setUpResultTable(m_table, {tr("kernel"), tr("reference?"), tr("GB/s"), tr("% of copy"),
                               tr("median ms"), tr("correct bytes"), tr("status"), tr("detail")});

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(p);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    m_pages->addTab(split, tr("Reversal"));
    m_pages->setTabToolTip(ReversalPage, tr("GB/s of each reversal kernel against the same "
                                            "run's copy kernel"));
}

// Ceilings: read-only and copy GB/s against the element width, on a log2 axis.
void MemoryPanel::buildCeilingsPage() {
    QCustomPlot* p = m_ceilingsPlot;
    m_ceilingsTitle = setUpPagePlot(p, tr("Bandwidth ceilings per vector width"));
    p->xAxis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerText> widths(new QCPAxisTickerText);
    for (int w : kCeilingWidths)
        widths->addTick(w, QStringLiteral("%1\n%2 B").arg(elementName(w)).arg(4 * w));
    p->xAxis->setTicker(widths);
    p->xAxis->setSubTicks(false);
    p->xAxis->setRange(1 / 1.3, 16 * 1.3);
    p->xAxis->setLabel(tr("element (uints per work-item access)"));
    p->yAxis->setLabel(tr("GB/s (read: bytes read; copy: read + written)"));
    p->yAxis->setRange(0, 1);
    const auto curve = [p](const QString& name, const QColor& color) {
        QCPGraph* g = p->addGraph();
        g->setName(name);
        g->setPen(QPen(color, 2));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color, Qt::white, 7));
        return g;
    };
    m_readWidths = curve(tr("read-only"), QColor(31, 119, 180));
    m_copyWidths = curve(tr("copy"), QColor(214, 39, 40));
    m_bestWidth->setWordWrap(true);
    m_bestWidth->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(p, 1);
    layout->addWidget(m_bestWidth);
    m_pages->addTab(page, tr("Ceilings"));
    m_pages->setTabToolTip(CeilingsPage, tr("Read-only and copy GB/s with elements of 1 to 16 "
                                            "uints, on random bytes"));
}

// Transfers: GB/s against the size, both on log axes, a curve per kind.
void MemoryPanel::buildTransfersPage() {
    QCustomPlot* p = m_transfersPlot;
    m_transfersTitle = setUpPagePlot(p, tr("Transfers: GB/s against the size"));
    p->xAxis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<ByteSizeTicker> sizes(new ByteSizeTicker);
    sizes->setLogBase(2);
    sizes->setSubTickCount(0);
    p->xAxis->setTicker(sizes);
    p->xAxis->setLabel(tr("bytes per transfer"));
    p->xAxis->setRange(4096 / 1.3, (1 << 20) * 1.3);
    p->yAxis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> gbps(new QCPAxisTickerLog);
    p->yAxis->setTicker(gbps);
    p->yAxis->setNumberFormat(QStringLiteral("gb"));
    p->yAxis->setLabel(tr("GB/s (bytes / median wall time)"));
    p->yAxis->setRange(0.01, 100);
    for (TransferKind kind : allTransferKinds()) {
        const QColor color = transferColor(kind);
        QCPGraph* g = p->addGraph();
        g->setName(QString::fromLatin1(transferKindName(kind)));
        g->setPen(
            QPen(color, 2, kind == TransferKind::DeviceToDevice ? Qt::DashLine : Qt::SolidLine));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, 5));
        m_transferGraphs[kind] = g;
    }
    m_launch->setWordWrap(true);
    m_launch->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(p, 1);
    layout->addWidget(m_launch);
    m_pages->addTab(page, tr("Transfers"));
    m_pages->setTabToolTip(TransfersPage, tr("Host to device, device to host (pageable and "
                                             "pinned) and device to device against the size; "
                                             "the kernel launch latency"));
}

QCustomPlot* MemoryPanel::plot(Page page) const {
    switch (page) {
    case ReversalPage:
        return m_reversePlot;
    case CeilingsPage:
        return m_ceilingsPlot;
    case TransfersPage:
        return m_transfersPlot;
    }
    return m_reversePlot;
}

QCPGraph* MemoryPanel::transferGraph(TransferKind kind) const {
    const auto it = m_transferGraphs.find(kind);
    return it == m_transferGraphs.end() ? nullptr : it->second;
}

void MemoryPanel::saveSettings() const {
    settings().setValue(settingsKey(QStringLiteral("page")), m_pages->currentIndex());
}

MemoryLabRequest MemoryPanel::request() const {
    MemoryLabRequest r;
    r.device = deviceSelector();
    r.reversal = m_doReversal->isChecked();
    r.ceilings = m_doCeilings->isChecked();
    r.transfers = m_doTransfers->isChecked();
    r.reverseBytes = sizeOf(m_reverseSize, "reversal size");
    r.ceilingBytes = sizeOf(m_ceilingSize, "ceiling size");
    r.transferMaxBytes = sizeOf(m_transferMax, "transfers up to");
    r.repeats = repeatsSpin()->value();
    return r;
}

void MemoryPanel::startRun() {
    MemoryLabRequest r;
    try {
        r = request();
    } catch (const UsageError& e) {
        refuse(tr("Cannot run: %1").arg(QString::fromStdString(e.what())));
        return;
    }
    if (!r.reversal && !r.ceilings && !r.transfers) {
        refuse(tr("Nothing to run: tick reversal, ceilings or transfers."));
        return;
    }
    m_result.reset();
    m_reverseBytes = r.reverseBytes.value_or(0);
    clearPages();
    updateTitles(r.device);
    qCInfo(lcUi).noquote() << "memory lab on device" << r.device << "reversal" << r.reversal
                           << "ceilings" << r.ceilings << "transfers" << r.transfers;
    start(memoryLabJob(r)); // remembers the page shown until now
    // Show the first part that runs.
    m_pages->setCurrentIndex(r.reversal ? ReversalPage : r.ceilings ? CeilingsPage : TransfersPage);
}

void MemoryPanel::clearPages() {
    m_reverse.clear();
    m_transfers.clear();
    m_ceilings.reset();
    m_table->setRowCount(0);
    m_referenceBars->data()->clear();
    m_ownBars->data()->clear();
    m_copyLine->clear();
    m_readWidths->data()->clear();
    m_copyWidths->data()->clear();
    m_readWidths->setName(tr("read-only"));
    m_copyWidths->setName(tr("copy"));
    for (const auto& [kind, graph] : m_transferGraphs)
        graph->data()->clear();
    m_bestWidth->clear();
    m_launch->clear();
    m_reversePlot->yAxis->setRange(0, 1);
    m_ceilingsPlot->yAxis->setRange(0, 1);
    for (QCustomPlot* p : {m_reversePlot, m_ceilingsPlot, m_transfersPlot})
        p->replot(QCustomPlot::rpQueuedReplot);
}

void MemoryPanel::updateTitles(const QString& device) {
    const QString name = device.size() > 48 ? device.left(47) + QStringLiteral("…") : device;
    QString reversal = tr("Buffer reversal: GB/s per kernel\n%1").arg(name);
    if (m_reverseBytes)
        reversal += tr(" · %1").arg(bytesText(m_reverseBytes));
    reversal += tr(" · %n repeat(s)", nullptr, repeatsSpin()->value());
    m_reverseTitle->setText(reversal);
    QString ceilings = tr("Bandwidth ceilings per vector width\n%1").arg(name);
    if (m_ceilings)
        ceilings += tr(" · %1 of random bytes").arg(bytesText(m_ceilings->bytes));
    m_ceilingsTitle->setText(ceilings);
    m_transfersTitle->setText(tr("Transfers: GB/s against the size\n%1").arg(name));
}

void MemoryPanel::showItem(const std::any& item) {
    if (const auto* reversed = std::any_cast<ReverseResult>(&item))
        addReverseResult(*reversed);
    else if (const auto* sweep = std::any_cast<CeilingSweep>(&item))
        showCeilings(*sweep);
    else if (const auto* point = std::any_cast<TransferPoint>(&item))
        addTransferPoint(*point);
}

void MemoryPanel::fitReversal() {
    fitFromZero(m_reversePlot->yAxis, highestGbps(m_reverse, m_copyLine->gbps()));
}

void MemoryPanel::addReverseResult(const ReverseResult& r) {
    m_reverse.push_back(r);
    m_copyLine->learnFrom(r.gbps, r.percentOfCopy);
    const ReverseVariantInfo& info = reverseVariantInfo(r.variant);
    // Unsupported and failed kernels have no bar, only their row (with the reason).
    if (statusRan(r.status) && r.gbps > 0)
        (info.reference ? m_referenceBars : m_ownBars)->addData(variantSlot(r.variant), r.gbps);

    const bool ran = statusRan(r.status);
    const QStringList cells = {QString::fromStdString(r.name),
                               info.reference ? tr("yes") : QString(),
                               ran ? gbpsText(r.gbps) : QString(),
                               ran && r.percentOfCopy > 0 ? QString::number(r.percentOfCopy, 'f', 1)
                                                          : QString(),
                               ran ? msText(r.stats.medianMs) : QString(),
                               ran ? QString::number(r.correctBytes) : QString(),
                               QString::fromLatin1(statusName(r.status)),
                               QString::fromStdString(r.detail)};
    const QString launch = QStringLiteral("%1 (global %2, local %3) %4")
                               .arg(QString::fromStdString(r.kernel))
                               .arg(r.globalSize)
                               .arg(r.localSize)
                               .arg(QString::fromStdString(r.buildOptions));
    const int row = appendResultRow(m_table, cells,
                                    [&](int c) {
                                        return c == DetailColumn || c == StatusColumn
                                                   ? QString::fromStdString(r.detail)
                                                   : launch;
                                    },
                                    {GbpsColumn, PercentColumn, MedianColumn, CorrectColumn});
    markRowStatus(m_table, row, r.status, StatusColumn,
                  {StatusColumn, DetailColumn, CorrectColumn});
    refreshCorrectColumn();
    growColumnsToContents(m_table);
    fitReversal();
    m_reversePlot->replot(QCustomPlot::rpQueuedReplot); // coalesced: one per event-loop turn
    emit resultAdded();
}

// "correct of n": n is known from the start when the size was given, else once the run ends.
void MemoryPanel::refreshCorrectColumn() {
    if (m_reverseBytes == 0)
        return;
    for (int row = 0; row < m_table->rowCount() && row < int(m_reverse.size()); ++row) {
        const ReverseResult& r = m_reverse[std::size_t(row)];
        if (statusRan(r.status))
            m_table->item(row, CorrectColumn)
                ->setText(tr("%1 of %2").arg(r.correctBytes).arg(m_reverseBytes));
    }
}

void MemoryPanel::showCeilings(const CeilingSweep& sweep) {
    m_ceilings = sweep;
    m_readWidths->data()->clear();
    m_copyWidths->data()->clear();
    double top = 0;
    QStringList notes;
    for (const WidthCeiling& w : sweep.widths) {
        if (statusRan(w.status)) {
            m_readWidths->addData(w.width, w.read.gbps);
            m_copyWidths->addData(w.width, w.copy.gbps);
            top = std::max({top, w.read.gbps, w.copy.gbps});
        }
        if (w.status != Status::Verified)
            notes << tr("%1 %2%3").arg(
                elementName(w.width), QString::fromLatin1(statusName(w.status)),
                w.detail.empty() ? QString()
                                 : QStringLiteral(": ") + QString::fromStdString(w.detail));
    }
    fitFromZero(m_ceilingsPlot->yAxis, top);
    QString text;
    if (sweep.bestReadWidth > 0) {
        m_readWidths->setName(tr("read-only (best %1)").arg(elementName(sweep.bestReadWidth)));
        m_copyWidths->setName(tr("copy (best %1)").arg(elementName(sweep.bestCopyWidth)));
        text = tr("Best width: read %1 (%2 GB/s), copy %3 (%4 GB/s), on %5 of random bytes.")
                   .arg(elementName(sweep.bestReadWidth), gbpsText(sweep.bestReadGbps),
                        elementName(sweep.bestCopyWidth), gbpsText(sweep.bestCopyGbps),
                        bytesText(sweep.bytes));
    } else {
        text = tr("No width could run.");
    }
    if (!notes.isEmpty())
        text += QLatin1Char(' ') + notes.join(QStringLiteral("; "));
    m_bestWidth->setText(text);
    m_bestWidth->setStyleSheet(notes.isEmpty() ? QString()
                                               : QStringLiteral("color: %1;").arg(errorColor()));
    m_ceilingsPlot->replot(QCustomPlot::rpQueuedReplot);
    emit resultAdded();
}

void MemoryPanel::addTransferPoint(const TransferPoint& point) {
    m_transfers.push_back(point);
    if (statusRan(point.status) && point.gbps > 0)
        if (QCPGraph* g = transferGraph(point.kind))
            g->addData(double(point.bytes), point.gbps);
    fitTransfers();
    m_transfersPlot->replot(QCustomPlot::rpQueuedReplot);
    emit resultAdded();
}

void MemoryPanel::fitTransfers() {
    double lo = 0, hi = 0, left = 0, right = 0;
    for (const TransferPoint& p : m_transfers) {
        left = left == 0 ? double(p.bytes) : std::min(left, double(p.bytes));
        right = std::max(right, double(p.bytes));
        if (statusRan(p.status) && p.gbps > 0) {
            lo = lo == 0 ? p.gbps : std::min(lo, p.gbps);
            hi = std::max(hi, p.gbps);
        }
    }
    if (right > 0)
        m_transfersPlot->xAxis->setRange(left / 1.3, std::max(right, left * 2) * 1.3);
    if (hi > 0)
        m_transfersPlot->yAxis->setRange(lo / 2, hi * 2);
}

void MemoryPanel::showTransferSummary(const TransferSweep& sweep) {
    QStringList parts;
    if (sweep.launch) {
        const LaunchLatency& l = *sweep.launch;
        if (l.ran)
            parts << tr("Kernel launch latency (one work-item, median of %1): %2 µs on the "
                        "device (profiled), %3 µs enqueue + finish on the host (wall).")
                         .arg(l.wall.samplesMs.size())
                         .arg(l.profiled.medianMs * 1000, 0, 'f', 1)
                         .arg(l.wall.medianMs * 1000, 0, 'f', 1);
        else
            parts << tr("Kernel launch latency: failed: %1").arg(QString::fromStdString(l.detail));
    }
    // Pinned against pageable at the largest size, where bandwidth (not latency) shows.
    const auto ratio = [&](TransferKind pinned, TransferKind pageable, const QString& what) {
        const TransferPoint* a = sweep.largest(pinned);
        const TransferPoint* b = sweep.largest(pageable);
        if (a && b && statusRan(a->status) && statusRan(b->status) && b->gbps > 0)
            parts << tr("Pinned / pageable %1 at %2: ×%3 (%4 / %5 GB/s).")
                         .arg(what, bytesText(a->bytes))
                         .arg(a->gbps / b->gbps, 0, 'f', 2)
                         .arg(gbpsText(a->gbps), gbpsText(b->gbps));
    };
    ratio(TransferKind::HostToDevicePinned, TransferKind::HostToDevicePageable, tr("host→device"));
    ratio(TransferKind::DeviceToHostPinned, TransferKind::DeviceToHostPageable, tr("device→host"));
    int bad = 0;
    for (const TransferPoint& p : sweep.points)
        bad += p.status == Status::Verified ? 0 : 1;
    if (bad)
        parts << tr("%n point(s) not verified (see the CSV or JSON for why).", nullptr, bad);
    m_launch->setText(parts.join(QLatin1Char(' ')));
    m_launch->setStyleSheet(bad ? QStringLiteral("color: %1;").arg(errorColor()) : QString());
}

QString MemoryPanel::present(const MemoryLabResult& result) {
    const QString device = QString::fromStdString(result.device.name);
    showDevice(result.device);
    QStringList summary;
    bool bad = false;
    if (result.reversal) {
        const ReverseRun& run = *result.reversal;
        m_reverseBytes = run.bytes;
        if (run.copy.gbps > 0)
            m_copyLine->set(run.copy.gbps); // the exact figure
        refreshCorrectColumn();
        fitReversal();
        m_table->resizeColumnsToContents();
        int verified = 0, unsupported = 0, failed = 0;
        for (const ReverseResult& r : run.results) {
            verified += r.status == Status::Verified ? 1 : 0;
            unsupported += r.status == Status::Unsupported ? 1 : 0;
            failed += r.status == Status::Mismatch || r.status == Status::Failed;
        }
        QString s = tr("reversal of %1: %2 of %3 kernels verified")
                        .arg(bytesText(run.bytes))
                        .arg(verified)
                        .arg(run.results.size());
        if (const int best = run.best(); best >= 0)
            s += tr(", best %1 %2 GB/s")
                     .arg(QString::fromStdString(run.results[std::size_t(best)].name),
                          gbpsText(run.results[std::size_t(best)].gbps));
        if (unsupported)
            s += tr(", %1 unsupported").arg(unsupported);
        if (failed)
            s += tr(", %1 failed or differ from the CPU reference").arg(failed);
        bad = bad || failed > 0;
        summary << s;
    }
    if (result.memory.ceilings) {
        const CeilingSweep& c = *result.memory.ceilings;
        if (c.bestReadWidth > 0)
            summary << tr("ceilings: read %1 GB/s, copy %2 GB/s")
                           .arg(gbpsText(c.bestReadGbps), gbpsText(c.bestCopyGbps));
        for (const WidthCeiling& w : c.widths)
            bad = bad || w.status == Status::Mismatch || w.status == Status::Failed;
    }
    if (result.memory.transfers) {
        showTransferSummary(*result.memory.transfers);
        int verified = 0;
        for (const TransferPoint& p : result.memory.transfers->points) {
            verified += p.status == Status::Verified ? 1 : 0;
            bad = bad || p.status == Status::Mismatch || p.status == Status::Failed;
        }
        summary << tr("transfers: %1 of %2 points verified")
                       .arg(verified)
                       .arg(result.memory.transfers->points.size());
    }
    updateTitles(device);
    const QString text = summary.join(QStringLiteral(" · "));
    setStatus(text, bad);
    for (QCustomPlot* p : {m_reversePlot, m_ceilingsPlot, m_transfersPlot})
        p->replot(QCustomPlot::rpQueuedReplot);
    return text;
}

QString MemoryPanel::cancelledStatus() const {
    return tr("cancelled: the results shown are those that finished");
}

QString MemoryPanel::fileBaseName(Output kind) const {
    static const char* const names[] = {"reversal", "ceilings", "transfers"};
    return kind == Output::Plot || m_pages->currentIndex() == ReversalPage
               ? QString::fromLatin1(names[m_pages->currentIndex()])
               : QStringLiteral("memory");
}

// The Reversal page saves the reversal; the other two the ceilings and transfers together.
std::optional<std::string> MemoryPanel::pageText(bool json, QString* why) const {
    if (m_pages->currentIndex() == ReversalPage) {
        if (!m_result->reversal) {
            *why = tr("the last run had no reversal (tick Reversal and run again)");
            return std::nullopt;
        }
        return json ? reverseJson(*m_result->reversal) : reverseCsv(*m_result->reversal);
    }
    if (!m_result->memory.ceilings && !m_result->memory.transfers) {
        *why = tr("the last run had no ceilings nor transfers (tick them and run again)");
        return std::nullopt;
    }
    return json ? memoryJson(m_result->memory) : memoryCsv(m_result->memory);
}

} // namespace histlab::ui
