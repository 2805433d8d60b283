#include "panels/memorypanel.h"

#include "bridge/logging.h"

#include <report/bytesize.h>
#include <report/report.h>
#include <runtime/errors.h>

#include <qcustomplot.h>

#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

namespace histlab::ui {

namespace {

const QString kPlotFilter = QObject::tr("PNG (*.png);;PDF (*.pdf);;SVG (*.svg)");
const QColor kReferenceColor(31, 119, 180); // the reference text's four kernels
const QColor kOwnColor(255, 127, 14);       // HistLab's variants

QSettings settings() {
    return QSettings(QStringLiteral("HistLab"), QStringLiteral("HistLab"));
}

QString gbpsText(double value) {
    return QString::number(value, 'f', value >= 100 ? 0 : 2);
}

QString msText(double value) {
    return QString::number(value, 'f', value >= 100 ? 1 : value >= 1 ? 3 : 4);
}

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

QColor transferColor(TransferKind kind) {
    switch (kind) {
    case TransferKind::HostToDevicePageable:
        return QColor(31, 119, 180);
    case TransferKind::HostToDevicePinned:
        return QColor(44, 160, 44);
    case TransferKind::DeviceToHostPageable:
        return QColor(214, 39, 40);
    case TransferKind::DeviceToHostPinned:
        return QColor(148, 103, 189);
    case TransferKind::DeviceToDevice:
        return QColor(255, 127, 14);
    }
    return QColor(127, 127, 127);
}

/// A log2 axis whose tick labels are byte sizes ("4 KiB", "1 MiB").
class ByteSizeTicker : public QCPAxisTickerLog {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return tick >= 1 ? bytesText(std::uint64_t(std::llround(tick))) : QString();
    }
};

/// The title row above a plot's axes.
QCPTextElement* addTitle(QCustomPlot* plot, const QString& text, const QFont& base) {
    plot->plotLayout()->insertRow(0);
    auto* title = new QCPTextElement(plot, text, QFont(base.family(), 9, QFont::Bold));
    plot->plotLayout()->addElement(0, 0, title);
    return title;
}

/// A size field's value: 0 for empty or "auto", else parseByteSize (UsageError naming it).
std::uint64_t sizeOf(const QLineEdit* edit, const char* name) {
    const QString text = edit->text().trimmed();
    if (text.isEmpty() || text.compare(QStringLiteral("auto"), Qt::CaseInsensitive) == 0)
        return 0;
    const std::uint64_t bytes = parseByteSize(name, text.toStdString());
    if (bytes == 0)
        throw UsageError(name, "must be at least 1 byte (empty: auto)");
    return bytes;
}

} // namespace

MemoryPanel::MemoryPanel(JobBridge* bridge, QWidget* parent)
    : QWidget(parent)
    , m_bridge(bridge)
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
    , m_transferMax(new QLineEdit)
    , m_repeats(new QSpinBox)
    , m_deviceLabel(new QLabel)
    , m_run(new QPushButton(tr("Ru&n")))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_exportPlot(new QPushButton(tr("Export Plot…")))
    , m_saveJson(new QPushButton(tr("Save JSON…")))
    , m_saveCsv(new QPushButton(tr("Save CSV…")))
    , m_runAction(new QAction(tr("Run Memory Lab"), this))
    , m_progress(new QProgressBar)
    , m_status(new QLabel) {
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
    m_transferMax->setPlaceholderText(tr("auto (16 MiB CPU, 1 GiB GPU)"));
    m_transferMax->setToolTip(
        tr("The largest transfer; the sweep doubles from 4 KiB up to it. %1").arg(sizeHelp));
    m_repeats->setRange(1, 1000);
    m_repeats->setValue(5);
    m_repeats->setToolTip(tr("Timed runs per measurement after one warm-up; the median is "
                             "plotted (transfers of 1 MiB and less run at least 20 times)"));
    m_deviceLabel->setWordWrap(true);
    m_deviceLabel->setText(tr("the Run dock's"));
    m_deviceLabel->setToolTip(tr("The device chosen in the Run dock (Run › Run)"));
    m_cancel->setEnabled(false);
    m_run->setToolTip(tr("Run the chosen parts (Ctrl+Enter); a run in progress is replaced"));
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setVisible(false);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_exportPlot->setToolTip(tr("The plot of the page shown as PNG, PDF or SVG"));
    m_saveJson->setToolTip(tr("Reversal page: the reversal as histlab-cli reverse --json "
                              "writes it; the others: ceilings and transfers as histlab-cli "
                              "memory --json writes them"));
    m_saveCsv->setToolTip(tr("As Save JSON, one row per measurement (--csv)"));

    m_runAction->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    m_runAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(m_runAction);

    auto* parts = new QHBoxLayout;
    parts->addWidget(m_doReversal);
    parts->addWidget(m_doCeilings);
    parts->addWidget(m_doTransfers);
    auto* form = new QFormLayout;
    form->addRow(tr("Parts"), parts);
    form->addRow(tr("Reversal si&ze"), m_reverseSize);
    form->addRow(tr("Ceiling size"), m_ceilingSize);
    form->addRow(tr("Transfers &up to"), m_transferMax);
    form->addRow(tr("Repeat&s"), m_repeats);
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

    buildReversalPage();
    buildCeilingsPage();
    buildTransfersPage();

    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(left);
    splitter->addWidget(m_pages);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    restoreSettings();
    updateControls();

    connect(m_run, &QPushButton::clicked, this, &MemoryPanel::startRun);
    connect(m_runAction, &QAction::triggered, this, &MemoryPanel::startRun);
    connect(m_cancel, &QPushButton::clicked, this, &MemoryPanel::cancelRun);
    connect(m_exportPlot, &QPushButton::clicked, this, &MemoryPanel::chooseExportPlot);
    connect(m_saveJson, &QPushButton::clicked, this, &MemoryPanel::chooseSaveJson);
    connect(m_saveCsv, &QPushButton::clicked, this, &MemoryPanel::chooseSaveCsv);
    connect(m_pages, &QTabWidget::currentChanged, this, [this] { updateControls(); });

    connect(m_bridge, &JobBridge::memoryReverseResult, this,
            [this](quint64, const ReverseResult& r) { addReverseResult(r); });
    connect(m_bridge, &JobBridge::memoryCeilings, this,
            [this](quint64, const CeilingSweep& sweep) { showCeilings(sweep); });
    connect(m_bridge, &JobBridge::memoryTransferPoint, this,
            [this](quint64, const TransferPoint& p) { addTransferPoint(p); });
    connect(m_bridge, &JobBridge::memoryProgress, this,
            [this](quint64, double fraction, const QString& what) {
                m_progress->setValue(int(std::lround(fraction * 1000)));
                setStatus(what + QStringLiteral("…"));
            });
    connect(m_bridge, &JobBridge::memoryFinished, this,
            [this](quint64, const MemoryLabResult& result) { showFinished(result); });
    connect(m_bridge, &JobBridge::memoryFailed, this,
            [this](quint64, const JobError& error) { showFailure(error); });
}

// Reversal: a bar per kernel (x: its place in the core's table), the copy kernel's level, and
// the table of every kernel below.
void MemoryPanel::buildReversalPage() {
    QCustomPlot* p = m_reversePlot;
    p->setMinimumSize(320, 220);
    p->legend->setVisible(true);
    p->legend->setFont(QFont(font().family(), 8));
    p->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    m_reverseTitle = addTitle(p, tr("Buffer reversal: GB/s per kernel"), font());
    QSharedPointer<QCPAxisTickerText> names(new QCPAxisTickerText);
    const auto& table = reverseVariants();
    for (std::size_t i = 0; i < table.size(); ++i)
        names->addTick(double(i), QString::fromLatin1(table[i].name));
    p->xAxis->setTicker(names);
    p->xAxis->setTickLabelRotation(30);
    p->xAxis->setSubTicks(false);
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
    m_copyLine = p->addGraph();
    m_copyLine->setName(tr("copy kernel"));
    m_copyLine->setPen(QPen(QColor(90, 90, 90), 1.5, Qt::DashLine));

    m_table->setColumnCount(ColumnCount);
    m_table->setHorizontalHeaderLabels({tr("kernel"), tr("reference?"), tr("GB/s"), tr("% of copy"),
                                        tr("median ms"), tr("correct bytes"), tr("status"),
                                        tr("detail")});
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setStretchLastSection(true);

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
    p->setMinimumSize(320, 220);
    p->legend->setVisible(true);
    p->legend->setFont(QFont(font().family(), 8));
    p->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    m_ceilingsTitle = addTitle(p, tr("Bandwidth ceilings per vector width"), font());
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
    p->setMinimumSize(320, 220);
    p->legend->setVisible(true);
    p->legend->setFont(QFont(font().family(), 8));
    p->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    m_transfersTitle = addTitle(p, tr("Transfers: GB/s against the size"), font());
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

void MemoryPanel::restoreSettings() {
    QSettings s = settings();
    m_doReversal->setChecked(s.value(QStringLiteral("memory/reversal"), true).toBool());
    m_doCeilings->setChecked(s.value(QStringLiteral("memory/ceilings"), true).toBool());
    m_doTransfers->setChecked(s.value(QStringLiteral("memory/transfers"), true).toBool());
    m_reverseSize->setText(s.value(QStringLiteral("memory/reverseSize")).toString());
    m_ceilingSize->setText(s.value(QStringLiteral("memory/ceilingSize")).toString());
    m_transferMax->setText(s.value(QStringLiteral("memory/transferMax")).toString());
    m_repeats->setValue(s.value(QStringLiteral("memory/repeats"), m_repeats->value()).toInt());
    m_pages->setCurrentIndex(
        std::clamp(s.value(QStringLiteral("memory/page"), 0).toInt(), 0, m_pages->count() - 1));
}

void MemoryPanel::saveSettings() const {
    QSettings s = settings();
    s.setValue(QStringLiteral("memory/reversal"), m_doReversal->isChecked());
    s.setValue(QStringLiteral("memory/ceilings"), m_doCeilings->isChecked());
    s.setValue(QStringLiteral("memory/transfers"), m_doTransfers->isChecked());
    s.setValue(QStringLiteral("memory/reverseSize"), m_reverseSize->text().trimmed());
    s.setValue(QStringLiteral("memory/ceilingSize"), m_ceilingSize->text().trimmed());
    s.setValue(QStringLiteral("memory/transferMax"), m_transferMax->text().trimmed());
    s.setValue(QStringLiteral("memory/repeats"), m_repeats->value());
    s.setValue(QStringLiteral("memory/page"), m_pages->currentIndex());
}

MemoryLabRequest MemoryPanel::request() const {
    MemoryLabRequest r;
    r.device = m_deviceSelector ? m_deviceSelector() : QStringLiteral("auto");
    r.reversal = m_doReversal->isChecked();
    r.ceilings = m_doCeilings->isChecked();
    r.transfers = m_doTransfers->isChecked();
    r.reverseBytes = sizeOf(m_reverseSize, "reversal size");
    r.ceilingBytes = sizeOf(m_ceilingSize, "ceiling size");
    r.transferMaxBytes = sizeOf(m_transferMax, "transfers up to");
    r.repeats = m_repeats->value();
    return r;
}

void MemoryPanel::startRun() {
    MemoryLabRequest r;
    QString why;
    try {
        r = request();
        if (!r.reversal && !r.ceilings && !r.transfers)
            why = tr("Nothing to run: tick reversal, ceilings or transfers.");
    } catch (const UsageError& e) {
        why = tr("Cannot run: %1").arg(QString::fromStdString(e.what()));
    }
    if (!why.isEmpty()) {
        setStatus(why, true);
        emit problem(why);
        return;
    }
    saveSettings();
    m_bridge->runMemoryLab(r); // replaces a run still going (lane "memory")
    m_result.reset();
    m_reverseBytes = r.reverseBytes;
    clearPages();
    // Show the first part that runs.
    m_pages->setCurrentIndex(r.reversal ? ReversalPage : r.ceilings ? CeilingsPage : TransfersPage);
    setRunning(true);
    m_deviceLabel->setText(tr("%1 (from the Run dock)").arg(r.device));
    updateTitles(r.device);
    setStatus(tr("starting…"));
    qCInfo(lcUi).noquote() << "memory lab on device" << r.device << "reversal" << r.reversal
                           << "ceilings" << r.ceilings << "transfers" << r.transfers;
    emit runStarted();
}

void MemoryPanel::cancelRun() {
    if (!isRunning())
        return;
    m_bridge->cancelMemoryLab();
    setStatus(tr("cancelling…"));
}

void MemoryPanel::clearPages() {
    m_reverse.clear();
    m_transfers.clear();
    m_ceilings.reset();
    m_copyGbps = 0;
    m_table->setRowCount(0);
    m_referenceBars->data()->clear();
    m_ownBars->data()->clear();
    m_copyLine->data()->clear();
    m_copyLine->setName(tr("copy kernel"));
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
    reversal += tr(" · %n repeat(s)", nullptr, m_repeats->value());
    m_reverseTitle->setText(reversal);
    QString ceilings = tr("Bandwidth ceilings per vector width\n%1").arg(name);
    if (m_ceilings)
        ceilings += tr(" · %1 of random bytes").arg(bytesText(m_ceilings->bytes));
    m_ceilingsTitle->setText(ceilings);
    m_transfersTitle->setText(tr("Transfers: GB/s against the size\n%1").arg(name));
}

void MemoryPanel::setRunning(bool running) {
    m_cancel->setEnabled(running);
    m_progress->setVisible(running);
    m_progress->setValue(0);
    updateControls();
}

void MemoryPanel::updateControls() {
    const bool done = m_result.has_value();
    m_saveJson->setEnabled(done);
    m_saveCsv->setEnabled(done);
    const bool anything = !m_reverse.empty() || m_ceilings || !m_transfers.empty();
    m_exportPlot->setEnabled(anything || done);
}

void MemoryPanel::setStatus(const QString& text, bool bad) {
    m_status->setText(text);
    m_status->setStyleSheet(bad ? QStringLiteral("color: #c00000; font-weight: bold;") : QString());
}

void MemoryPanel::setCopyLine(double gbps) {
    m_copyGbps = gbps;
    const double right = double(reverseVariants().size());
    m_copyLine->setData(QVector<double>{-1, right}, QVector<double>{gbps, gbps}, true);
    m_copyLine->setName(tr("copy kernel, same run (%1 GB/s)").arg(gbpsText(gbps)));
}

void MemoryPanel::fitReversal() {
    double top = m_copyGbps;
    for (const ReverseResult& r : m_reverse)
        if (statusRan(r.status))
            top = std::max(top, r.gbps);
    m_reversePlot->yAxis->setRange(0, top > 0 ? top * 1.15 : 1);
}

void MemoryPanel::addReverseResult(const ReverseResult& r) {
    m_reverse.push_back(r);
    // The copy kernel runs first: a judged result carries its GB/s in its ratio.
    if (m_copyGbps <= 0 && r.percentOfCopy > 0 && r.gbps > 0)
        setCopyLine(r.gbps * 100.0 / r.percentOfCopy);
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
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    for (int c = 0; c < ColumnCount; ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        item->setToolTip(c == DetailColumn || c == StatusColumn
                             ? QString::fromStdString(r.detail)
                             : QStringLiteral("%1 (global %2, local %3) %4")
                                   .arg(QString::fromStdString(r.kernel))
                                   .arg(r.globalSize)
                                   .arg(r.localSize)
                                   .arg(QString::fromStdString(r.buildOptions)));
        if (c >= GbpsColumn && c <= CorrectColumn)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, c, item);
    }
    if (r.status == Status::Unsupported) {
        // Expected where the device lacks something: the reason, in italics, not an error.
        for (int c = 0; c < ColumnCount; ++c) {
            QTableWidgetItem* item = m_table->item(row, c);
            QFont italic = item->font();
            italic.setItalic(true);
            item->setFont(italic);
            item->setForeground(QColor(100, 100, 100));
        }
    } else if (r.status != Status::Verified) {
        const QColor red(0xc0, 0, 0);
        for (int c : {int(StatusColumn), int(DetailColumn), int(CorrectColumn)}) {
            QFont bold = m_table->item(row, c)->font();
            bold.setBold(true);
            m_table->item(row, c)->setFont(bold);
            m_table->item(row, c)->setForeground(red);
        }
    } else {
        m_table->item(row, StatusColumn)->setForeground(QColor(0, 0x80, 0));
    }
    refreshCorrectColumn();
    if (row == 0)
        m_table->resizeColumnsToContents();
    fitReversal();
    updateControls();
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
    m_ceilingsPlot->yAxis->setRange(0, top > 0 ? top * 1.15 : 1);
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
    m_bestWidth->setStyleSheet(notes.isEmpty() ? QString() : QStringLiteral("color: #c00000;"));
    updateControls();
    m_ceilingsPlot->replot(QCustomPlot::rpQueuedReplot);
    emit resultAdded();
}

void MemoryPanel::addTransferPoint(const TransferPoint& point) {
    m_transfers.push_back(point);
    if (statusRan(point.status) && point.gbps > 0)
        if (QCPGraph* g = transferGraph(point.kind))
            g->addData(double(point.bytes), point.gbps);
    fitTransfers();
    updateControls();
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
    m_launch->setStyleSheet(bad ? QStringLiteral("color: #c00000;") : QString());
}

void MemoryPanel::showFinished(const MemoryLabResult& result) {
    setRunning(false);
    m_result = result;
    const QString device = QString::fromStdString(result.device.name);
    m_deviceLabel->setText(device);
    m_deviceLabel->setToolTip(QStringLiteral("%1 [%2], %3")
                                  .arg(device,
                                       QString::fromLatin1(deviceTypeName(result.device.type)),
                                       QString::fromStdString(result.device.platformName)));
    QStringList summary;
    bool bad = false;
    if (result.reversal) {
        const ReverseRun& run = *result.reversal;
        m_reverseBytes = run.bytes;
        if (run.copy.gbps > 0)
            setCopyLine(run.copy.gbps); // the exact figure
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
    updateControls();
    for (QCustomPlot* p : {m_reversePlot, m_ceilingsPlot, m_transfersPlot})
        p->replot(QCustomPlot::rpQueuedReplot);
    qCInfo(lcUi).noquote() << "memory lab on" << device << ":" << text;
    emit runEnded(text);
}

void MemoryPanel::showFailure(const JobError& error) {
    setRunning(false);
    if (error.kind == JobError::Kind::Cancelled) {
        setStatus(tr("cancelled: the results shown are those that finished"));
        emit runEnded(tr("memory lab cancelled"));
        return;
    }
    QString message = QString::fromStdString(error.message);
    if (error.kind == JobError::Kind::Usage)
        message = tr("Cannot run: %1").arg(message);
    setStatus(message, true);
    qCWarning(lcUi).noquote() << "memory lab failed:" << jobErrorKindName(error.kind) << message
                              << QString::fromStdString(error.buildLog);
    emit problem(message);
    emit runEnded(message);
}

QString MemoryPanel::defaultPath(const QString& suffix) const {
    QString start = settings().value(QStringLiteral("lastFolder")).toString();
    if (start.isEmpty())
        start = QDir::homePath();
    static const char* const names[] = {"reversal", "ceilings", "transfers"};
    const QString name = suffix == QStringLiteral("png") || m_pages->currentIndex() == 0
                             ? QString::fromLatin1(names[m_pages->currentIndex()])
                             : QStringLiteral("memory");
    return QDir(start).filePath(QStringLiteral("%1.%2").arg(name, suffix));
}

void MemoryPanel::chooseExportPlot() {
    QString path =
        m_saveChooser(this, tr("Export Plot"), defaultPath(QStringLiteral("png")), kPlotFilter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".png");
    QCustomPlot* shown = plot(Page(m_pages->currentIndex()));
    PlotExportOptions options;
    options.format = plotFormatForFile(path).value_or(PlotFormat::Png);
    options.width = std::max(shown->width(), 720);
    options.height = std::max(shown->height(), 480);
    exportPlotTo(path, options);
}

void MemoryPanel::chooseSaveJson() {
    const QString path =
        m_saveChooser(this, tr("Save Memory Lab Run"), defaultPath(QStringLiteral("json")),
                      tr("JSON (*.json);;All files (*)"));
    if (!path.isEmpty())
        saveJsonTo(path);
}

void MemoryPanel::chooseSaveCsv() {
    const QString path =
        m_saveChooser(this, tr("Save Memory Lab Measurements"), defaultPath(QStringLiteral("csv")),
                      tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty())
        saveCsvTo(path);
}

ExportResult MemoryPanel::exportPlotTo(const QString& path, const PlotExportOptions& options) {
    const ExportResult result = exportPlot(*plot(Page(m_pages->currentIndex())), path, options);
    if (!result.ok)
        return fail(result.message);
    settings().setValue(QStringLiteral("lastFolder"), QFileInfo(path).absolutePath());
    setStatus(tr("Exported %1").arg(QDir::toNativeSeparators(path)));
    return result;
}

ExportResult MemoryPanel::saveJsonTo(const QString& path) {
    return save(path, true);
}

ExportResult MemoryPanel::saveCsvTo(const QString& path) {
    return save(path, false);
}

// The Reversal page saves the reversal; the other two the ceilings and transfers together.
ExportResult MemoryPanel::save(const QString& path, bool json) {
    if (!m_result)
        return fail(tr("%1: nothing to save yet (run the memory lab first)").arg(path));
    std::string content;
    if (m_pages->currentIndex() == ReversalPage) {
        if (!m_result->reversal)
            return fail(
                tr("%1: the last run had no reversal (tick Reversal and run again)").arg(path));
        content = json ? reverseJson(*m_result->reversal) : reverseCsv(*m_result->reversal);
    } else {
        if (!m_result->memory.ceilings && !m_result->memory.transfers)
            return fail(tr("%1: the last run had no ceilings nor transfers (tick them and run "
                           "again)")
                            .arg(path));
        content = json ? memoryJson(m_result->memory) : memoryCsv(m_result->memory);
    }
    const ExportResult result = writeFileSafely(path, QByteArray::fromStdString(content));
    if (!result.ok)
        return fail(result.message);
    settings().setValue(QStringLiteral("lastFolder"), QFileInfo(path).absolutePath());
    setStatus(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    return result;
}

ExportResult MemoryPanel::fail(const QString& message) {
    setStatus(message, true);
    qCWarning(lcUi).noquote() << "memory tab:" << message;
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
