#include "panels/dashboardpanel.h"

#include "bridge/logging.h"
#include "panels/resulttable.h"
#include "plots/dashboardplot.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>

#include <algorithm>

namespace histlab::ui {

// The worker's side ------------------------------------------------------------------------

namespace {

/// The worker's side of the tab: histlab-cli dashboard's plan and run; streams the plan (a
/// DashboardRun without results: devices, pipelines, input sizes), then each DashboardResult
/// as it arrives, and returns the whole run.
JobWork dashboardJob(const DashboardRequest& request) {
    return [request](JobContext& ctx, const ItemSink& post) -> std::any {
        std::vector<int> devices = request.devices;
        if (devices.empty())
            devices.push_back(selectDevice("auto", ctx.devices().infos()));
        DashboardParams params;
        params.pipelines = request.pipelines;
        params.options = request.options;
        const DashboardJob job = planDashboardJob(ctx.devices().infosAt(devices), params);
        post(job.plan); // the plan: devices, pipelines, sizes, no result yet
        return runDashboardJob(ctx, devices, job,
                               [&post](const std::any& item) {
                                   post(std::any_cast<const DashboardItem&>(item).result);
                               })
            .run;
    };
}

} // namespace

// The tab ----------------------------------------------------------------------------------

namespace {

/// GB/s with two decimals below 10, one below 100, none above.
QString barText(double gbps) {
    return QString::number(gbps, 'f', gbps >= 100 ? 0 : gbps >= 10 ? 1 : 2);
}

} // namespace

DashboardPanel::DashboardPanel(JobBridge* bridge, QWidget* parent)
    : ResultPanel(bridge,
                  {QStringLiteral("dashboard"), tr("dashboard"), tr("Run Dashboard"),
                   QStringLiteral("dashboard")},
                  tr("Dashboard"), parent)
    , m_plot(new DashboardPlot)
    , m_table(new QTableWidget)
    , m_devices(new CheckList)
    , m_pipelines(new CheckList)
    , m_size(new QDoubleSpinBox)
    , m_measure(new QComboBox) {
    m_devices->addItem(tr("listing devices…"));
    m_devices->setMaximumHeight(110);
    m_devices->setToolTip(tr("The devices to measure, each against its own ceilings"));
    // The registry names the pipelines: a new one appears here without this tab knowing it.
    for (const DashboardPipeline& p : dashboardPipelines())
        m_pipelines->addCheckable(QString::fromStdString(p.name), true,
                                  QString::fromStdString(p.description));
    m_pipelines->setMaximumHeight(150);
    m_size->setRange(0, 2048);
    m_size->setDecimals(3);
    m_size->setSuffix(tr(" MiB"));
    m_size->setSpecialValueText(tr("auto (256 MiB GPU, 64 MiB CPU)"));
    m_size->setToolTip(tr("Each pipeline's input; auto: 256 MiB on a GPU, 64 MiB on a CPU "
                          "device (at most the device's largest buffer)"));
    m_measure->addItem(tr("GB/s"), int(DashboardPlot::Measure::Gbps));
    m_measure->addItem(tr("% of ceiling"), int(DashboardPlot::Measure::PercentOfCeiling));
    m_measure->setToolTip(tr("GB/s, or % of the read-only or copy kernel measured on the same "
                             "device in the same run"));
    runButton()->setToolTip(tr("Run the chosen pipelines on the chosen devices (Ctrl+Enter); a "
                               "run in progress is replaced"));

    form()->addRow(tr("&Devices"), m_devices);
    form()->addRow(tr("&Pipelines"), m_pipelines);
    form()->addRow(tr("Si&ze"), m_size);
    addRepeatsRow(tr("Timed runs after one warm-up; the median is shown"));
    form()->addRow(tr("&Bars"), m_measure);
    setJsonFilter(tr("HistLab dashboard (*.json);;All files (*)"));
    setExportedPlot(m_plot);
    setPlotExport(QSize(720, 480), true);
    saveJsonButton()->setToolTip(tr("The run as JSON (devices, driver, date, every result), as "
                                    "histlab-cli dashboard --json writes it"));
    openButton()->setToolTip(tr("Show a saved run (this tab's or histlab-cli dashboard --json's)"));
    baselineButton()->setToolTip(tr("Lay a saved run under this one, hatched, with the ratio in "
                                    "the table"));
    exportPlotButton()->setToolTip(tr("The chart as PNG, JPG, PDF or SVG"));
    saveCsvButton()->setToolTip(tr("One row per result, with the baseline's GB/s and the ratio"));

    setUpResultTable(m_table,
                     {tr("device"), tr("pipeline"), tr("GB/s"), tr("ceiling"), tr("% of ceiling"),
                      tr("status"), tr("baseline GB/s"), tr("ratio"), tr("variant or reason")});
    m_table->setTextElideMode(Qt::ElideMiddle);
    auto* right = new QSplitter(Qt::Horizontal); // the chart, the table beside it
    right->addWidget(m_plot);
    right->addWidget(m_table);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    right->setChildrenCollapsible(false);
    setResults(right, 360);

    connect(m_measure, &QComboBox::currentIndexChanged, this, [this] {
        m_plot->setMeasure(DashboardPlot::Measure(m_measure->currentData().toInt()));
    });
    connect(bridge, &JobBridge::devicesListed, this,
            [this](quint64, const std::vector<DeviceListing>& devices) { setDevices(devices); });

    remember(m_size, QStringLiteral("sizeMiB"));
    remember(m_measure, QStringLiteral("bars"));
    // The pipelines left out (not those chosen): a pipeline registered later starts chosen.
    const QStringList left =
        settings().value(settingsKey(QStringLiteral("leftOut"))).toStringList();
    QStringList chosen;
    for (int i = 0; i < m_pipelines->count(); ++i)
        if (!left.contains(m_pipelines->item(i)->text()))
            chosen << m_pipelines->item(i)->text();
    m_pipelines->setCheckedTexts(chosen);
    updateActions();
    setStatus(tr("Run (Ctrl+Enter) to measure every chosen pipeline on the chosen devices."));
}

void DashboardPanel::saveSettings() const {
    QStringList left;
    for (int i = 0; i < m_pipelines->count(); ++i)
        if (m_pipelines->item(i)->checkState() != Qt::Checked)
            left << m_pipelines->item(i)->text();
    QSettings s = settings();
    s.setValue(settingsKey(QStringLiteral("leftOut")), left);
    s.setValue(settingsKey(QStringLiteral("devices")), m_devices->checkedDeviceNames());
}

// Checked: the devices of the last run (by name), else the default device.
void DashboardPanel::setDevices(const std::vector<DeviceListing>& devices) {
    QStringList chosen = settings().value(settingsKey(QStringLiteral("devices"))).toStringList();
    chosen << m_devices->checkedDeviceNames();
    m_devices->setDevices(devices, chosen);
}

DashboardRequest DashboardPanel::request() const {
    DashboardRequest r;
    r.devices = m_devices->checkedDevices();
    for (const QString& name : m_pipelines->checkedTexts())
        r.pipelines.push_back(name.toStdString());
    r.options.bytes = std::size_t(m_size->value() * 1048576.0);
    r.options.repeats = repeatsSpin()->value();
    return r;
}

void DashboardPanel::startRun() {
    const DashboardRequest r = request();
    if (r.devices.empty() || r.pipelines.empty()) {
        refuse(r.devices.empty() ? tr("Choose at least one device.")
                                 : tr("Choose at least one pipeline."));
        return;
    }
    m_shown = DashboardRun{};
    m_result.reset();
    m_plot->reset(m_shown);
    m_table->setRowCount(0);
    qCInfo(lcUi).noquote() << "dashboard:" << r.devices.size() << "device(s)," << r.pipelines.size()
                           << "pipeline(s)";
    start(dashboardJob(r));
}

void DashboardPanel::showItem(const std::any& item) {
    if (const auto* plan = std::any_cast<DashboardRun>(&item)) {
        m_shown = *plan;
        m_plot->reset(*plan);
        m_table->setRowCount(0);
    } else if (const auto* result = std::any_cast<DashboardResult>(&item)) {
        m_shown.results.push_back(*result);
        m_plot->addResult(*result);
        addTableRow(*result);
        emit resultAdded(*result);
    }
}

QString DashboardPanel::present(const DashboardRun& run) {
    m_shown = run;
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
    return summary;
}

QString DashboardPanel::cancelledStatus() const {
    return tr("cancelled after %1 result(s): those shown are the ones that finished")
        .arg(m_shown.results.size());
}

void DashboardPanel::fillTable() {
    m_table->setRowCount(0);
    for (const DashboardResult& r : m_shown.results)
        addTableRow(r);
    fitColumns();
}

void DashboardPanel::fitColumns() {
    m_table->resizeColumnsToContents();
    // A long device name would take the table's width (at 1200 pixels it showed the device
    // column alone): cut in the middle, whole in its tooltip.
    if (m_table->columnWidth(DeviceColumn) > 170)
        m_table->setColumnWidth(DeviceColumn, 170);
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
        ran ? barText(r.gbps) : QString(),
        ran && r.ceilingGbps > 0
            ? QStringLiteral("%1 %2").arg(QString::fromStdString(r.ceilingKind),
                                          barText(r.ceilingGbps))
        : ran ? tr("none (a host transfer)")
              : QString(),
        ran && r.ceilingGbps > 0 ? QString::fromStdString(dashboardPercentText(r)) : QString(),
        QString::fromLatin1(statusName(r.status)),
        b && b->ran() ? barText(b->gbps) : QString(),
        compare ? QStringLiteral("×%1").arg(r.gbps / b->gbps, 0, 'f', 2) : QString(),
        QString::fromStdString(ran ? r.variant : r.reason)};
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    for (int c = 0; c < ColumnCount; ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        if (c == CeilingColumn && !r.ceilingKernel.empty()) // which kernel of the family won
            item->setToolTip(tr("%1 ceiling by %2: the median of its runs timed right after "
                                "this row's runs")
                                 .arg(QString::fromStdString(r.ceilingKind),
                                      QString::fromStdString(r.ceilingKernel)));
        else
            item->setToolTip(c == DeviceColumn
                                 ? cells[c]
                                 : QString::fromStdString(r.reason.empty() ? r.variant : r.reason));
        if (c == GbpsColumn || c == PercentColumn || c == BaselineColumn || c == RatioColumn)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, c, item);
    }
    markRowStatus(m_table, row, r.status, StatusColumn, {StatusColumn});
    if (row == 0)
        fitColumns();
}

std::string DashboardPanel::runJson() const {
    return dashboardJson(m_shown);
}

std::string DashboardPanel::runCsv() const {
    return dashboardCsv(m_shown, m_baseline ? &*m_baseline : nullptr);
}

QString DashboardPanel::showSavedRun(const std::string& json) {
    m_result = parseDashboardJson(json);
    m_shown = *m_result;
    m_plot->showRun(m_shown);
    fillTable();
    return QString::fromStdString(m_shown.date);
}

QString DashboardPanel::useBaseline(const std::string& json) {
    m_baseline = parseDashboardJson(json);
    m_plot->setBaseline(m_baseline);
    fillTable(); // the baseline and ratio columns
    return QString::fromStdString(m_baseline->date);
}

void DashboardPanel::clearBaseline() {
    m_baseline.reset();
    m_plot->setBaseline(std::nullopt);
    fillTable();
}

} // namespace histlab::ui
