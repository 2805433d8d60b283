#include "panels/experimentpanel.h"

#include "bridge/logging.h"
#include "panels/resulttable.h"
#include "plots/experimentplot.h"

#include <report/report.h>
#include <runtime/errors.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>

#include <algorithm>
#include <cmath>

namespace histlab::ui {

// The worker's side ------------------------------------------------------------------------

namespace {

/// The worker's side of the tab: histlab-cli sweep's plan and run on the devices chosen;
/// streams each ExperimentPoint and returns the ExperimentRun. The "image" distribution reads
/// the image through `images`.
JobWork experimentJob(const ExperimentRequest& request, std::shared_ptr<ImageCache> images) {
    return [request, images](JobContext& ctx, const ItemSink& post) -> std::any {
        ExperimentParams params = request.params;
        const std::vector<std::string> kinds =
            params.distributions.value_or(std::vector<std::string>{});
        if (std::find(kinds.begin(), kinds.end(), "image") != kinds.end()) {
            if (request.imageSource.isEmpty())
                throw UsageError("distribution", "'image' needs an image: open one first");
            params.image = images->get(request.imageSource, request.imagePage);
        }
        std::vector<int> devices = request.devices;
        if (devices.empty())
            devices.push_back(selectDevice("auto", ctx.devices().infos()));
        return runExperimentJob(ctx, devices,
                                planExperimentJob(ctx.devices().infosAt(devices), params),
                                [&post](const std::any& item) {
                                    post(std::any_cast<const ExperimentItem&>(item).point);
                                })
            .run;
    };
}

} // namespace

// The tab ----------------------------------------------------------------------------------

namespace {

QString kindToolTip(ExperimentKind kind) {
    switch (kind) {
    case ExperimentKind::Banks:
        return ExperimentPanel::tr("GB/s against local sub-histogram copies");
    case ExperimentKind::Reads:
        return ExperimentPanel::tr("GB/s against work-items: serial/coalesced x scalar/uint4");
    case ExperimentKind::Groups:
        return ExperimentPanel::tr("Work-groups per compute unit x work-group size (heatmap)");
    case ExperimentKind::Stages:
        return ExperimentPanel::tr("Read-only, +scatter, +local reduce, +global merge");
    case ExperimentKind::Atomics:
        return ExperimentPanel::tr("Naive global atomics, local, banked and CPU-style");
    case ExperimentKind::Bins:
        return ExperimentPanel::tr("Large-bin histograms of 16-bit samples: GB/s against the bin "
                                   "count, one curve per method");
    }
    return {};
}

} // namespace

ExperimentPanel::ExperimentPanel(JobBridge* bridge, QWidget* parent)
    : ResultPanel(bridge,
                  {QStringLiteral("experiment"), tr("experiment"), tr("Run Experiment"),
                   QStringLiteral("experiment")},
                  tr("Experiment"), parent)
    , m_plot(new ExperimentPlot)
    , m_table(new QTableWidget)
    , m_experiment(new QComboBox)
    , m_devices(new CheckList)
    , m_distributions(new CheckList)
    , m_bins(new CheckList)
    , m_size(new QDoubleSpinBox)
    , m_maxRepeats(new QSpinBox) {
    for (ExperimentKind k : allExperimentKinds()) {
        m_experiment->addItem(QString::fromLatin1(experimentKindName(k)), int(k));
        m_experiment->setItemData(m_experiment->count() - 1, kindToolTip(k), Qt::ToolTipRole);
    }
    m_distributions->setMaximumHeight(110);
    for (int bins : defaultBinCounts())
        m_bins->addCheckable(QString::number(bins), true);
    m_bins->setToolTip(tr("The bin counts of the bins experiment (over the whole 16-bit range)"));
    m_bins->setMaximumHeight(110);
    m_devices->setMaximumHeight(90);
    m_devices->addItem(tr("listing devices…"));
    m_size->setRange(0, 4095);
    m_size->setDecimals(2);
    m_size->setSpecialValueText(tr("default (256 MiB GPU, 64 MiB CPU)"));
    m_size->setSuffix(tr(" MiB"));
    m_maxRepeats->setRange(1, 10000);
    m_maxRepeats->setValue(20);
    setRunReplacesRunning(false);
    setProgressFormat(QStringLiteral("%1"));

    form()->addRow(tr("&Experiment"), m_experiment);
    form()->addRow(tr("&Devices"), m_devices);
    form()->addRow(tr("D&ata"), m_distributions);
    form()->addRow(tr("Bi&ns"), m_bins);
    form()->addRow(tr("&Size"), m_size);
    addRepeatsRow(tr("Timed runs after one warm-up; the median is shown"), tr("Re&peats"));
    form()->addRow(tr("At &most"), m_maxRepeats);
    setJsonFilter(tr("HistLab experiment (*.json);;All files (*)"));
    setExportedPlot(m_plot);
    setPlotExport(QSize(640, 420));
    saveJsonButton()->setText(tr("Save…"));
    saveJsonButton()->setToolTip(tr("The run as JSON: devices, driver, date, every point"));
    openButton()->setToolTip(tr("Show a saved run (this window's or histlab-cli sweep --json's)"));
    baselineButton()->setToolTip(tr("Lay a saved run under this one, dashed, to compare"));

    setUpResultTable(
        m_table, {tr("data"), tr("series"), tr("x"), tr("GB/s"), tr("% read-only"), tr("status")});
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(m_plot);
    right->addWidget(m_table);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 1);
    setResults(right, 360);
    connect(m_experiment, &QComboBox::currentIndexChanged, this,
            &ExperimentPanel::showKindControls);
    showKindControls();
    updateActions();
}

void ExperimentPanel::showKindControls() {
    const auto kind = ExperimentKind(m_experiment->currentData().toInt());
    const bool bins = kind == ExperimentKind::Bins;
    // The distributions the experiment can run, the checked ones kept where it has them.
    QStringList checked = m_distributions->checkedTexts();
    m_distributions->clear();
    for (const std::string& d : experimentDistributions(kind))
        m_distributions->addCheckable(QString::fromStdString(d), false);
    m_distributions->setCheckedTexts(checked);
    if (m_distributions->checkedTexts().isEmpty())
        m_distributions->setCheckedTexts({QStringLiteral("random")});
    m_distributions->setToolTip(bins ? tr("Input data (16-bit samples); image: the shown image's "
                                          "gray plane repeated to the size, 8-bit values x 257")
                                     : tr("Input data; image: the shown image's gray plane "
                                          "repeated to the size"));
    form()->setRowVisible(m_bins, bins);
    m_maxRepeats->setEnabled(!bins);
    m_maxRepeats->setToolTip(bins ? tr("bins times exactly the repeats (the large-bin recipe)")
                                  : tr("More runs while (max - min) / median is over 10 %, up to "
                                       "this"));
}

void ExperimentPanel::setDevices(const std::vector<DeviceListing>& devices) {
    m_deviceEntries = devices;
    m_devices->setDevices(devices);
}

void ExperimentPanel::setImageSource(const QString& source, int page) {
    m_imageSource = source;
    m_imagePage = page;
}

void ExperimentPanel::startRun() {
    if (isRunning())
        return;
    ExperimentRequest request;
    ExperimentParams& params = request.params;
    const ExperimentKind kind = ExperimentKind(m_experiment->currentData().toInt());
    params.kind = kind;
    std::vector<std::string> kinds;
    for (const QString& name : m_distributions->checkedTexts())
        kinds.push_back(name.toStdString());
    params.distributions = kinds;
    request.devices = m_devices->checkedDevices();
    const std::size_t bytes = std::size_t(m_size->value() * 1048576.0);
    if (bytes) // else each device's default
        params.sizeMiB = m_size->value();
    params.repeats = repeatsSpin()->value();
    request.imageSource = m_imageSource;
    request.imagePage = m_imagePage;
    if (kinds.empty()) {
        refuse(tr("Choose at least one kind of data."));
        return;
    }
    if (kind == ExperimentKind::Bins) { // the large-bin recipe: exactly the repeats, no cap
        std::vector<int> bins;
        for (const QString& count : m_bins->checkedTexts())
            bins.push_back(count.toInt());
        if (bins.empty()) {
            refuse(tr("Choose at least one bin count."));
            return;
        }
        params.bins = bins;
    } else {
        params.maxRepeats = std::max(repeatsSpin()->value(), m_maxRepeats->value());
    }
    if (request.devices.empty()) {
        refuse(tr("Choose at least one device."));
        return;
    }
    if (m_imageSource.isEmpty() && std::find(kinds.begin(), kinds.end(), "image") != kinds.end()) {
        refuse(tr("'image' repeats the shown image: open an image first."));
        return;
    }
    m_live = ExperimentRun{};
    m_live.kind = kind;
    std::vector<DeviceInfo> devices;
    for (int index : request.devices)
        for (const DeviceListing& e : m_deviceEntries)
            if (e.info.index == index)
                devices.push_back(e.info);
    m_live.devices = devices;
    m_plot->reset(kind, devices, bytes);
    if (m_baseline && m_baseline->kind == kind)
        m_plot->setBaseline(m_baseline);
    m_table->setRowCount(0);
    start(experimentJob(request, bridge()->imageCache()), tr("running…"));
}

void ExperimentPanel::showItem(const std::any& item) {
    const auto* point = std::any_cast<ExperimentPoint>(&item);
    if (!point)
        return;
    m_live.points.push_back(*point);
    // The title names the input size, known once a point arrives (0 asks each device for its
    // default): GB/s is bytes / median time.
    if (m_live.points.size() == 1)
        m_plot->reset(m_live.kind, m_live.devices,
                      point->stats.medianMs > 0 && point->gbps > 0
                          ? std::size_t(std::llround(point->gbps * point->stats.medianMs * 1e6))
                          : 0);
    m_plot->addPoint(*point);
    addTableRow(*point, m_live.devices);
    emit pointAdded(*point);
}

QString ExperimentPanel::present(const ExperimentRun& run) {
    int ok = 0;
    for (const ExperimentPoint& p : run.points)
        ok += p.ok() ? 1 : 0;
    const QString message = tr("%1: %2 points, %3 ran")
                                .arg(QString::fromLatin1(experimentKindName(run.kind)))
                                .arg(run.points.size())
                                .arg(ok);
    setStatus(message);
    return message;
}

QString ExperimentPanel::cancelledStatus() const {
    return tr("cancelled after %1 points").arg(m_live.points.size());
}

void ExperimentPanel::addTableRow(const ExperimentPoint& p, const std::vector<DeviceInfo>& devs) {
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    QString data = QString::fromStdString(p.distribution);
    if (devs.size() > 1 && std::size_t(p.device) < devs.size())
        data =
            QString::fromStdString(devs[std::size_t(p.device)].name) + QStringLiteral(", ") + data;
    const QStringList cells = {data,
                               QString::fromStdString(p.series),
                               QString::number(p.x, 'g', 12),
                               p.ok() ? gbpsText(p.gbps) : QString(),
                               p.ok() ? QString::number(p.percentOfCeiling, 'f', 1) : QString(),
                               QString::fromLatin1(statusName(p.status))};
    for (int c = 0; c < cells.size(); ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        if (!p.reason.empty())
            item->setToolTip(QString::fromStdString(p.reason));
        m_table->setItem(row, c, item);
    }
    growColumnsToContents(m_table);
}

void ExperimentPanel::fillTable(const ExperimentRun& run) {
    m_table->setRowCount(0);
    for (const ExperimentPoint& p : run.points)
        addTableRow(p, run.devices);
}

std::string ExperimentPanel::runJson() const {
    return experimentJson(*m_result);
}

std::string ExperimentPanel::runCsv() const {
    return experimentCsv(*m_result, m_baseline ? &*m_baseline : nullptr);
}

QString ExperimentPanel::showSavedRun(const std::string& json) {
    const ExperimentRun run = parseExperimentJson(json);
    m_result = run;
    m_experiment->setCurrentIndex(m_experiment->findData(int(run.kind)));
    if (m_baseline && m_baseline->kind != run.kind)
        m_baseline.reset();
    m_plot->showRun(run);
    if (m_baseline)
        m_plot->setBaseline(m_baseline);
    fillTable(run);
    return QStringLiteral("%1, %2").arg(QString::fromLatin1(experimentKindName(run.kind)),
                                        QString::fromStdString(run.date));
}

QString ExperimentPanel::useBaseline(const std::string& json) {
    ExperimentRun run = parseExperimentJson(json);
    const ExperimentKind shown = m_result ? m_result->kind : m_plot->kind();
    if ((m_result || !m_plot->points().empty()) && run.kind != shown)
        throw InputError("a '" + std::string(experimentKindName(run.kind)) +
                         "' run cannot be the baseline of a '" + experimentKindName(shown) +
                         "' experiment");
    m_baseline = std::move(run);
    m_plot->setBaseline(m_baseline);
    return QString::fromStdString(m_baseline->date);
}

void ExperimentPanel::clearBaseline() {
    m_baseline.reset();
    m_plot->setBaseline(std::nullopt);
}

} // namespace histlab::ui
