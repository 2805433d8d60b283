#include "panels/dashboardpanel.h"

#include "bridge/logging.h"
#include "plots/dashboardplot.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace histlab::ui {

namespace {

constexpr int kIndexRole = Qt::UserRole; // a device item's DeviceInfo::index
const QString kJsonFilter = QObject::tr("HistLab dashboard (*.json);;All files (*)");

QSettings settings() {
    return QSettings(QStringLiteral("HistLab"), QStringLiteral("HistLab"));
}

QListWidgetItem* checkable(const QString& text, bool checked) {
    auto* item = new QListWidgetItem(text);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
    return item;
}

QString gbpsText(double gbps) {
    return QString::number(gbps, 'f', gbps >= 100 ? 0 : gbps >= 10 ? 1 : 2);
}

std::optional<DashboardRun> readRun(const QString& path, QString* why) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *why = QObject::tr("%1: cannot be read (%2)").arg(path, file.errorString());
        return std::nullopt;
    }
    try {
        return parseDashboardJson(file.readAll().toStdString());
    } catch (const std::exception& e) {
        *why = QStringLiteral("%1: %2").arg(path, QString::fromStdString(e.what()));
        return std::nullopt;
    }
}

} // namespace

DashboardPanel::DashboardPanel(JobBridge* bridge, QWidget* parent)
    : QWidget(parent)
    , m_bridge(bridge)
    , m_plot(new DashboardPlot)
    , m_table(new QTableWidget)
    , m_devices(new QListWidget)
    , m_pipelines(new QListWidget)
    , m_size(new QDoubleSpinBox)
    , m_repeats(new QSpinBox)
    , m_measure(new QComboBox)
    , m_run(new QPushButton(tr("Ru&n")))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_saveJson(new QPushButton(tr("Save JSON…")))
    , m_exportCsv(new QPushButton(tr("Export CSV…")))
    , m_exportPlot(new QPushButton(tr("Export Plot…")))
    , m_runAction(new QAction(tr("Run Dashboard"), this))
    , m_progress(new QProgressBar)
    , m_status(new QLabel) {
    m_devices->addItem(tr("listing devices…"));
    m_devices->setMaximumHeight(110);
    m_devices->setToolTip(tr("The devices to measure, each against its own ceilings"));
    // The registry names the pipelines: a new one appears here without this tab knowing it.
    for (const DashboardPipeline& p : dashboardPipelines()) {
        QListWidgetItem* item = checkable(QString::fromStdString(p.name), true);
        item->setToolTip(QString::fromStdString(p.description));
        m_pipelines->addItem(item);
    }
    m_pipelines->setMaximumHeight(150);
    m_size->setRange(0, 2048);
    m_size->setDecimals(3);
    m_size->setSuffix(tr(" MiB"));
    m_size->setSpecialValueText(tr("auto (256 MiB GPU, 64 MiB CPU)"));
    m_size->setToolTip(tr("Each pipeline's input; auto: 256 MiB on a GPU, 64 MiB on a CPU "
                          "device (at most the device's largest buffer)"));
    m_repeats->setRange(1, 1000);
    m_repeats->setValue(5);
    m_repeats->setToolTip(tr("Timed runs after one warm-up; the median is shown"));
    m_measure->addItem(tr("GB/s"), int(DashboardPlot::Measure::Gbps));
    m_measure->addItem(tr("% of ceiling"), int(DashboardPlot::Measure::PercentOfCeiling));
    m_measure->setToolTip(tr("GB/s, or % of the read-only or copy kernel measured on the same "
                             "device in the same run"));
    m_cancel->setEnabled(false);
    m_run->setToolTip(tr("Run the chosen pipelines on the chosen devices (Ctrl+Enter); a run in "
                         "progress is replaced"));
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setVisible(false);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_saveJson->setToolTip(tr("The run as JSON (devices, driver, date, every result), as "
                              "histlab-cli dashboard --json writes it"));
    m_exportCsv->setToolTip(tr("One row per result, with the baseline's GB/s and the ratio"));
    m_exportPlot->setToolTip(tr("The chart as PNG, JPG, PDF or SVG"));

    m_runAction->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    m_runAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(m_runAction);

    auto* form = new QFormLayout;
    form->addRow(tr("&Devices"), m_devices);
    form->addRow(tr("&Pipelines"), m_pipelines);
    form->addRow(tr("Si&ze"), m_size);
    form->addRow(tr("Repeat&s"), m_repeats);
    form->addRow(tr("&Bars"), m_measure);
    auto* runRow = new QHBoxLayout;
    runRow->addWidget(m_run);
    runRow->addWidget(m_cancel);
    auto* open = new QPushButton(tr("Open…"));
    open->setToolTip(tr("Show a saved run (this tab's or histlab-cli dashboard --json's)"));
    auto* baseline = new QPushButton(tr("Baseline…"));
    baseline->setToolTip(tr("Lay a saved run under this one, hatched, with the ratio in the "
                            "table"));
    auto* noBaseline = new QPushButton(tr("No Baseline"));
    auto* files = new QGridLayout;
    files->addWidget(m_saveJson, 0, 0);
    files->addWidget(open, 0, 1);
    files->addWidget(baseline, 1, 0);
    files->addWidget(noBaseline, 1, 1);
    files->addWidget(m_exportPlot, 2, 0);
    files->addWidget(m_exportCsv, 2, 1);
    auto* controls = new QVBoxLayout;
    controls->addLayout(form);
    controls->addLayout(runRow);
    controls->addWidget(m_progress);
    controls->addWidget(m_status);
    controls->addLayout(files);
    controls->addStretch(1);
    auto* left = new QWidget;
    left->setLayout(controls);
    left->setMaximumWidth(360);

    m_table->setColumnCount(ColumnCount);
    m_table->setHorizontalHeaderLabels({tr("device"), tr("pipeline"), tr("GB/s"), tr("ceiling"),
                                        tr("% of ceiling"), tr("status"), tr("baseline GB/s"),
                                        tr("ratio"), tr("variant or reason")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    auto* right = new QSplitter(Qt::Horizontal); // the chart, the table beside it
    right->addWidget(m_plot);
    right->addWidget(m_table);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    right->setChildrenCollapsible(false);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(left);
    layout->addWidget(right, 1);

    connect(m_run, &QPushButton::clicked, this, &DashboardPanel::startRun);
    connect(m_runAction, &QAction::triggered, this, &DashboardPanel::startRun);
    connect(m_cancel, &QPushButton::clicked, this, &DashboardPanel::cancelRun);
    connect(m_saveJson, &QPushButton::clicked, this, &DashboardPanel::chooseSaveJson);
    connect(open, &QPushButton::clicked, this, &DashboardPanel::chooseOpenRun);
    connect(baseline, &QPushButton::clicked, this, &DashboardPanel::chooseBaseline);
    connect(noBaseline, &QPushButton::clicked, this, &DashboardPanel::clearBaseline);
    connect(m_exportPlot, &QPushButton::clicked, this, &DashboardPanel::chooseExportPlot);
    connect(m_exportCsv, &QPushButton::clicked, this, &DashboardPanel::chooseExportCsv);
    connect(m_measure, &QComboBox::currentIndexChanged, this, [this] {
        m_plot->setMeasure(DashboardPlot::Measure(m_measure->currentData().toInt()));
    });

    connect(m_bridge, &JobBridge::devicesListed, this,
            [this](quint64, const std::vector<DeviceListing>& devices) { setDevices(devices); });
    connect(m_bridge, &JobBridge::dashboardStarted, this,
            [this](quint64, const DashboardRun& plan) { showPlan(plan); });
    connect(m_bridge, &JobBridge::dashboardResult, this,
            [this](quint64, const DashboardResult& result) { addResult(result); });
    connect(m_bridge, &JobBridge::dashboardProgress, this,
            [this](quint64, double fraction, const QString& what) {
                m_progress->setValue(qRound(fraction * 1000));
                setStatus(tr("running: %1…").arg(what));
            });
    connect(m_bridge, &JobBridge::dashboardFinished, this,
            [this](quint64, const DashboardRun& run) { showFinished(run); });
    connect(m_bridge, &JobBridge::dashboardFailed, this,
            [this](quint64, const JobError& error) { showFailure(error); });

    restoreSettings();
    updateControls();
    setStatus(tr("Run (Ctrl+Enter) to measure every chosen pipeline on the chosen devices."));
}

void DashboardPanel::restoreSettings() {
    QSettings s = settings();
    m_size->setValue(s.value(QStringLiteral("dashboard/sizeMiB"), m_size->value()).toDouble());
    m_repeats->setValue(s.value(QStringLiteral("dashboard/repeats"), m_repeats->value()).toInt());
    m_measure->setCurrentIndex(
        std::max(0, m_measure->findText(s.value(QStringLiteral("dashboard/bars")).toString())));
    // The pipelines left out (not those chosen): a pipeline registered later starts chosen.
    const QStringList left = s.value(QStringLiteral("dashboard/leftOut")).toStringList();
    for (int i = 0; i < m_pipelines->count(); ++i)
        m_pipelines->item(i)->setCheckState(
            left.contains(m_pipelines->item(i)->text()) ? Qt::Unchecked : Qt::Checked);
}

void DashboardPanel::saveSettings() const {
    QSettings s = settings();
    s.setValue(QStringLiteral("dashboard/sizeMiB"), m_size->value());
    s.setValue(QStringLiteral("dashboard/repeats"), m_repeats->value());
    s.setValue(QStringLiteral("dashboard/bars"), m_measure->currentText());
    QStringList left, devices;
    for (int i = 0; i < m_pipelines->count(); ++i)
        if (m_pipelines->item(i)->checkState() != Qt::Checked)
            left << m_pipelines->item(i)->text();
    s.setValue(QStringLiteral("dashboard/leftOut"), left);
    for (int i = 0; i < m_devices->count(); ++i)
        if (m_devices->item(i)->checkState() == Qt::Checked)
            devices << m_devices->item(i)->data(Qt::ToolTipRole).toString();
    s.setValue(QStringLiteral("dashboard/devices"), devices);
}

void DashboardPanel::setDevices(const std::vector<DeviceListing>& devices) {
    // Checked: the devices of the last run (by name), else the default choice (first GPU, else
    // the first device).
    QStringList chosen = settings().value(QStringLiteral("dashboard/devices")).toStringList();
    for (int i = 0; i < m_devices->count(); ++i)
        if (m_devices->item(i)->data(kIndexRole).isValid() &&
            m_devices->item(i)->checkState() == Qt::Checked)
            chosen << m_devices->item(i)->data(Qt::ToolTipRole).toString();
    std::vector<DeviceInfo> infos;
    for (const DeviceListing& d : devices)
        infos.push_back(d.info);
    int preferred = -1;
    try {
        preferred = selectDevice("auto", infos);
    } catch (const std::exception&) {
        // none: the list stays empty and Run says why
    }
    const bool remembered = std::any_of(infos.begin(), infos.end(), [&](const DeviceInfo& d) {
        return chosen.contains(QString::fromStdString(d.name));
    });
    m_devices->clear();
    for (const DeviceInfo& d : infos) {
        const QString name = QString::fromStdString(d.name);
        auto* item = checkable(QStringLiteral("%1: %2").arg(d.index).arg(name),
                               remembered ? chosen.contains(name) : d.index == preferred);
        item->setData(kIndexRole, d.index);
        item->setData(Qt::ToolTipRole, name);
        m_devices->addItem(item);
    }
}

DashboardRequest DashboardPanel::request() const {
    DashboardRequest r;
    for (int i = 0; i < m_devices->count(); ++i)
        if (m_devices->item(i)->checkState() == Qt::Checked &&
            m_devices->item(i)->data(kIndexRole).isValid())
            r.devices.push_back(m_devices->item(i)->data(kIndexRole).toInt());
    for (int i = 0; i < m_pipelines->count(); ++i)
        if (m_pipelines->item(i)->checkState() == Qt::Checked)
            r.pipelines.push_back(m_pipelines->item(i)->text().toStdString());
    r.options.bytes = std::size_t(m_size->value() * 1048576.0);
    r.options.repeats = m_repeats->value();
    return r;
}

void DashboardPanel::startRun() {
    const DashboardRequest r = request();
    QString why;
    if (r.devices.empty())
        why = tr("Choose at least one device.");
    else if (r.pipelines.empty())
        why = tr("Choose at least one pipeline.");
    if (!why.isEmpty()) {
        setStatus(why, true);
        emit problem(why);
        return;
    }
    saveSettings();
    m_bridge->runDashboard(r); // replaces a run still going (lane "dashboard")
    m_shown = DashboardRun{};
    m_complete = false;
    m_plot->reset(m_shown);
    m_table->setRowCount(0);
    setRunning(true);
    setStatus(tr("starting…"));
    emit runStarted();
}

void DashboardPanel::cancelRun() {
    if (!isRunning())
        return;
    m_bridge->cancelDashboard();
    setStatus(tr("cancelling…"));
}

void DashboardPanel::showPlan(const DashboardRun& plan) {
    m_shown = plan;
    m_plot->reset(plan);
    m_table->setRowCount(0);
}

void DashboardPanel::addResult(const DashboardResult& result) {
    m_shown.results.push_back(result);
    m_plot->addResult(result);
    addTableRow(result);
    updateControls();
    emit resultAdded(result);
}

void DashboardPanel::showFinished(const DashboardRun& run) {
    setRunning(false);
    m_shown = run;
    m_complete = true;
    m_plot->showRun(run); // the same results, in the run's final order
    fillTable();
    int verified = 0, unsupported = 0, bad = 0;
    for (const DashboardResult& r : run.results) {
        verified += r.ran() ? 1 : 0;
        unsupported += r.status == Status::Unsupported ? 1 : 0;
        bad += r.status == Status::Mismatch || r.status == Status::Failed;
    }
    QString summary = tr("%1 result(s) on %2 device(s): %3 ran")
                          .arg(run.results.size())
                          .arg(run.devices.size())
                          .arg(verified);
    if (unsupported)
        summary += tr(", %1 unsupported on the device").arg(unsupported);
    if (bad)
        summary += tr(", %1 failed or differ from the CPU reference").arg(bad);
    setStatus(summary, bad > 0);
    qCInfo(lcUi).noquote() << "dashboard:" << summary;
    emit runEnded(summary);
}

void DashboardPanel::showFailure(const JobError& error) {
    setRunning(false);
    if (error.kind == JobError::Kind::Cancelled) {
        const QString message =
            tr("cancelled after %1 result(s): those shown are the ones that finished")
                .arg(m_shown.results.size());
        setStatus(message);
        emit runEnded(message);
        return;
    }
    QString message = QString::fromStdString(error.message);
    if (error.kind == JobError::Kind::Usage)
        message = tr("Cannot run: %1").arg(message);
    setStatus(message, true);
    qCWarning(lcUi).noquote() << "dashboard failed:" << jobErrorKindName(error.kind) << message;
    emit problem(message);
    emit runEnded(message);
}

void DashboardPanel::fillTable() {
    m_table->setRowCount(0);
    for (const DashboardResult& r : m_shown.results)
        addTableRow(r);
    m_table->resizeColumnsToContents();
}

void DashboardPanel::addTableRow(const DashboardResult& r) {
    const bool ran = r.ran();
    const std::string device = std::size_t(r.device) < m_shown.devices.size()
                                   ? m_shown.devices[std::size_t(r.device)].info.name
                                   : std::string("?");
    const DashboardResult* b = m_baseline ? findBaselineResult(*m_baseline, m_shown, r) : nullptr;
    const bool compare = b && b->ran() && ran && b->gbps > 0;
    const QStringList cells = {
        QString::fromStdString(device),
        QString::fromStdString(r.pipeline),
        ran ? gbpsText(r.gbps) : QString(),
        ran && r.ceilingGbps > 0
            ? QStringLiteral("%1 %2").arg(QString::fromStdString(r.ceilingKind),
                                          gbpsText(r.ceilingGbps))
        : ran ? tr("none (a host transfer)")
              : QString(),
        ran && r.ceilingGbps > 0 ? QString::number(r.percentOfCeiling, 'f', 1) : QString(),
        QString::fromLatin1(statusName(r.status)),
        b && b->ran() ? gbpsText(b->gbps) : QString(),
        compare ? QStringLiteral("×%1").arg(r.gbps / b->gbps, 0, 'f', 2) : QString(),
        QString::fromStdString(ran ? r.variant : r.reason)};
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    for (int c = 0; c < ColumnCount; ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        item->setToolTip(QString::fromStdString(r.reason.empty() ? r.variant : r.reason));
        if (c == GbpsColumn || c == PercentColumn || c == BaselineColumn || c == RatioColumn)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, c, item);
    }
    QTableWidgetItem* status = m_table->item(row, StatusColumn);
    if (r.status == Status::Unsupported) {
        // Expected where the device lacks something: said, in italics, not an error.
        QFont italic = status->font();
        italic.setItalic(true);
        for (int c = 0; c < ColumnCount; ++c) {
            m_table->item(row, c)->setFont(italic);
            m_table->item(row, c)->setForeground(QColor(100, 100, 100));
        }
    } else if (!ran || r.status == Status::Mismatch) {
        QFont bold = status->font();
        bold.setBold(true);
        status->setFont(bold);
        status->setForeground(QColor(0xc0, 0, 0));
    } else {
        status->setForeground(QColor(0, 0x80, 0));
    }
    if (row == 0)
        m_table->resizeColumnsToContents();
}

void DashboardPanel::setRunning(bool running) {
    m_cancel->setEnabled(running);
    m_progress->setVisible(running);
    m_progress->setValue(0);
    updateControls();
}

void DashboardPanel::updateControls() {
    m_saveJson->setEnabled(m_complete);
    m_exportCsv->setEnabled(m_complete);
    m_exportPlot->setEnabled(m_complete || !m_shown.results.empty());
}

void DashboardPanel::setStatus(const QString& text, bool bad) {
    m_status->setText(text);
    m_status->setStyleSheet(bad ? QStringLiteral("color: #c00000; font-weight: bold;") : QString());
}

ExportResult DashboardPanel::fail(const QString& message) {
    setStatus(message, true);
    qCWarning(lcUi).noquote() << "dashboard tab:" << message;
    emit problem(message);
    return ExportResult::failure(message);
}

ExportResult DashboardPanel::succeed(const QString& message) {
    setStatus(message);
    return ExportResult::success();
}

QString DashboardPanel::startPath(const QString& name) const {
    QString folder = settings().value(QStringLiteral("lastFolder")).toString();
    if (folder.isEmpty())
        folder = QDir::homePath();
    return QDir(folder).filePath(name);
}

ExportResult DashboardPanel::saveJsonTo(const QString& path) {
    if (!m_complete)
        return fail(tr("%1: nothing to save yet (run the dashboard first)").arg(path));
    const ExportResult result =
        writeFileSafely(path, QByteArray::fromStdString(dashboardJson(m_shown)));
    if (!result.ok)
        return fail(result.message);
    settings().setValue(QStringLiteral("lastFolder"), QFileInfo(path).absolutePath());
    return succeed(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
}

ExportResult DashboardPanel::exportCsvTo(const QString& path) {
    if (!m_complete)
        return fail(tr("%1: nothing to export yet (run the dashboard first)").arg(path));
    const std::string csv = dashboardCsv(m_shown, m_baseline ? &*m_baseline : nullptr);
    const ExportResult result = writeFileSafely(path, QByteArray::fromStdString(csv));
    if (!result.ok)
        return fail(result.message);
    settings().setValue(QStringLiteral("lastFolder"), QFileInfo(path).absolutePath());
    return succeed(tr("Exported %1").arg(QDir::toNativeSeparators(path)));
}

ExportResult DashboardPanel::exportPlotTo(const QString& path, const PlotExportOptions& options) {
    const ExportResult result = exportPlot(*m_plot, path, options);
    if (!result.ok)
        return fail(result.message);
    settings().setValue(QStringLiteral("lastFolder"), QFileInfo(path).absolutePath());
    return succeed(tr("Exported %1").arg(QDir::toNativeSeparators(path)));
}

ExportResult DashboardPanel::openRunFrom(const QString& path) {
    if (isRunning())
        return fail(tr("%1: not opened while the dashboard runs").arg(path));
    QString why;
    const std::optional<DashboardRun> run = readRun(path, &why);
    if (!run)
        return fail(why);
    m_shown = *run;
    m_complete = true;
    m_plot->showRun(*run);
    fillTable();
    updateControls();
    return succeed(tr("Opened %1 (%2)").arg(path, QString::fromStdString(run->date)));
}

ExportResult DashboardPanel::openBaselineFrom(const QString& path) {
    QString why;
    const std::optional<DashboardRun> run = readRun(path, &why);
    if (!run)
        return fail(why);
    m_baseline = run;
    m_plot->setBaseline(run);
    fillTable(); // the baseline and ratio columns
    return succeed(tr("Baseline: %1 (%2)").arg(path, QString::fromStdString(run->date)));
}

void DashboardPanel::clearBaseline() {
    m_baseline.reset();
    m_plot->setBaseline(std::nullopt);
    fillTable();
}

void DashboardPanel::chooseSaveJson() {
    const QString path = m_saveChooser(this, tr("Save Dashboard Run"),
                                       startPath(QStringLiteral("dashboard.json")), kJsonFilter);
    if (!path.isEmpty())
        saveJsonTo(path);
}

void DashboardPanel::chooseExportCsv() {
    const QString path =
        m_saveChooser(this, tr("Export Dashboard CSV"), startPath(QStringLiteral("dashboard.csv")),
                      tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty())
        exportCsvTo(path);
}

void DashboardPanel::chooseOpenRun() {
    const QString path = m_openChooser(this, tr("Open Dashboard Run"), startPath({}), kJsonFilter);
    if (!path.isEmpty())
        openRunFrom(path);
}

void DashboardPanel::chooseBaseline() {
    const QString path = m_openChooser(this, tr("Open Baseline"), startPath({}), kJsonFilter);
    if (!path.isEmpty())
        openBaselineFrom(path);
}

void DashboardPanel::chooseExportPlot() {
    auto* dialog =
        new ExportDialog(m_plot->size().expandedTo(QSize(720, 480)), startPath({}), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileChooser(m_saveChooser);
    dialog->setFilePath(startPath(QStringLiteral("dashboard.png")));
    connect(dialog, &QDialog::accepted, this,
            [this, dialog] { exportPlotTo(dialog->filePath(), dialog->options()); });
    dialog->open(); // window-modal, no nested event loop
}

} // namespace histlab::ui
