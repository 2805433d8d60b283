#include "panels/experimentpanel.h"

#include "bridge/logging.h"
#include "plots/experimentplot.h"

#include <report/report.h>
#include <runtime/errors.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace histlab::ui {

namespace {

const char* kDistributions[] = {"random", "uniform", "skewed", "gradient", "image"};

QListWidgetItem* checkable(const QString& text, bool checked) {
    auto* item = new QListWidgetItem(text);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
    return item;
}

const QString kJsonFilter = QObject::tr("HistLab experiment (*.json);;All files (*)");

} // namespace

ExperimentPanel::ExperimentPanel(JobBridge* bridge, QWidget* parent)
    : QWidget(parent)
    , m_bridge(bridge)
    , m_plot(new ExperimentPlot)
    , m_table(new QTableWidget)
    , m_experiment(new QComboBox)
    , m_devices(new QListWidget)
    , m_distributions(new QListWidget)
    , m_size(new QDoubleSpinBox)
    , m_repeats(new QSpinBox)
    , m_maxRepeats(new QSpinBox)
    , m_run(new QPushButton(tr("&Run")))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_progress(new QProgressBar)
    , m_status(new QLabel)
    , m_openChooser(nativeOpenFileChooser()) {
    for (ExperimentKind k : {ExperimentKind::Banks, ExperimentKind::Reads, ExperimentKind::Groups,
                             ExperimentKind::Stages, ExperimentKind::Atomics})
        m_experiment->addItem(QString::fromLatin1(experimentKindName(k)), int(k));
    m_experiment->setItemData(0, tr("GB/s against local sub-histogram copies"), Qt::ToolTipRole);
    m_experiment->setItemData(1, tr("GB/s against work-items: serial/coalesced x scalar/uint4"),
                              Qt::ToolTipRole);
    m_experiment->setItemData(2, tr("Work-groups per compute unit x work-group size (heatmap)"),
                              Qt::ToolTipRole);
    m_experiment->setItemData(3, tr("Read-only, +scatter, +local reduce, +global merge"),
                              Qt::ToolTipRole);
    m_experiment->setItemData(4, tr("Naive global atomics, local, banked and CPU-style"),
                              Qt::ToolTipRole);
    for (const char* d : kDistributions)
        m_distributions->addItem(checkable(QString::fromLatin1(d), std::string(d) == "random"));
    m_distributions->setToolTip(tr("Input data; image: the shown image's gray plane repeated "
                                   "to the size"));
    m_distributions->setMaximumHeight(110);
    m_devices->setMaximumHeight(90);
    m_devices->addItem(tr("listing devices…"));
    m_size->setRange(0, 4095);
    m_size->setDecimals(2);
    m_size->setSpecialValueText(tr("default (256 MiB GPU, 64 MiB CPU)"));
    m_size->setSuffix(tr(" MiB"));
    m_repeats->setRange(1, 1000);
    m_repeats->setValue(5);
    m_maxRepeats->setRange(1, 10000);
    m_maxRepeats->setValue(20);
    m_maxRepeats->setToolTip(tr("More runs while (max - min) / median is over 10 %, up to this"));
    m_cancel->setEnabled(false);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_status->setWordWrap(true);

    auto* form = new QFormLayout;
    form->addRow(tr("&Experiment"), m_experiment);
    form->addRow(tr("&Devices"), m_devices);
    form->addRow(tr("D&ata"), m_distributions);
    form->addRow(tr("&Size"), m_size);
    form->addRow(tr("Re&peats"), m_repeats);
    form->addRow(tr("At &most"), m_maxRepeats);
    auto* runRow = new QHBoxLayout;
    runRow->addWidget(m_run);
    runRow->addWidget(m_cancel);
    auto* save = new QPushButton(tr("Save…"));
    save->setToolTip(tr("The run as JSON: devices, driver, date, every point"));
    auto* open = new QPushButton(tr("Open…"));
    open->setToolTip(tr("Show a saved run (this window's or histlab-cli sweep --json's)"));
    auto* baseline = new QPushButton(tr("Baseline…"));
    baseline->setToolTip(tr("Lay a saved run under this one, dashed, to compare"));
    auto* noBaseline = new QPushButton(tr("No Baseline"));
    auto* exportPlot = new QPushButton(tr("Export Plot…"));
    auto* exportCsv = new QPushButton(tr("Export CSV…"));
    auto* files = new QGridLayout;
    files->addWidget(save, 0, 0);
    files->addWidget(open, 0, 1);
    files->addWidget(baseline, 1, 0);
    files->addWidget(noBaseline, 1, 1);
    files->addWidget(exportPlot, 2, 0);
    files->addWidget(exportCsv, 2, 1);
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

    m_table->setColumnCount(6);
    m_table->setHorizontalHeaderLabels(
        {tr("data"), tr("series"), tr("x"), tr("GB/s"), tr("% read-only"), tr("status")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(m_plot);
    right->addWidget(m_table);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 1);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(left);
    layout->addWidget(right, 1);

    connect(m_run, &QPushButton::clicked, this, &ExperimentPanel::startRun);
    connect(m_cancel, &QPushButton::clicked, this, &ExperimentPanel::cancelRun);
    connect(save, &QPushButton::clicked, this, [this] {
        choose(true, tr("Save Experiment"), kJsonFilter,
               [this](const QString& p) { saveRunTo(p); });
    });
    connect(open, &QPushButton::clicked, this, [this] {
        choose(false, tr("Open Experiment"), kJsonFilter,
               [this](const QString& p) { openRunFrom(p); });
    });
    connect(baseline, &QPushButton::clicked, this, [this] {
        choose(false, tr("Open Baseline"), kJsonFilter,
               [this](const QString& p) { openBaselineFrom(p); });
    });
    connect(noBaseline, &QPushButton::clicked, this, &ExperimentPanel::clearBaseline);
    connect(exportPlot, &QPushButton::clicked, this, [this] {
        choose(true, tr("Export Plot"), tr("PNG (*.png);;JPG (*.jpg);;PDF (*.pdf);;SVG (*.svg)"),
               [this](const QString& p) {
                   PlotExportOptions options;
                   options.format = plotFormatForFile(p).value_or(PlotFormat::Png);
                   options.width = std::max(m_plot->width(), 640);
                   options.height = std::max(m_plot->height(), 420);
                   exportPlotTo(p, options);
               });
    });
    connect(exportCsv, &QPushButton::clicked, this, [this] {
        choose(true, tr("Export CSV"), tr("CSV files (*.csv);;All files (*)"),
               [this](const QString& p) { exportCsvTo(p); });
    });

    connect(m_bridge, &JobBridge::experimentPoint, this,
            [this](quint64, const ExperimentPoint& p) { addPoint(p); });
    connect(m_bridge, &JobBridge::experimentProgress, this,
            [this](quint64, double fraction, const QString& what) {
                m_progress->setValue(int(fraction * 1000));
                m_status->setText(what);
            });
    connect(m_bridge, &JobBridge::experimentFinished, this,
            [this](quint64, const ExperimentRun& run) {
                m_finished = run;
                setRunning(false);
                int ok = 0;
                for (const ExperimentPoint& p : run.points)
                    ok += p.ok() ? 1 : 0;
                const QString message = tr("%1: %2 points, %3 ran")
                                            .arg(QString::fromLatin1(experimentKindName(run.kind)))
                                            .arg(run.points.size())
                                            .arg(ok);
                m_status->setText(message);
                qCInfo(lcUi).noquote() << "experiment finished:" << message;
                emit runEnded(message);
            });
    connect(m_bridge, &JobBridge::experimentFailed, this, [this](quint64, const JobError& error) {
        setRunning(false);
        const QString message = error.kind == JobError::Kind::Cancelled
                                    ? tr("cancelled after %1 points").arg(m_live.points.size())
                                    : QString::fromStdString(error.message);
        m_status->setText(message);
        if (error.kind != JobError::Kind::Cancelled) {
            qCWarning(lcUi).noquote() << "experiment failed:" << message;
            emit problem(message);
        }
        emit runEnded(message);
    });
}

void ExperimentPanel::setDevices(const std::vector<DeviceEntry>& devices) {
    m_deviceEntries = devices;
    m_devices->clear();
    std::vector<DeviceInfo> infos;
    for (const DeviceEntry& e : devices)
        infos.push_back(e.info);
    int preferred = -1;
    try {
        preferred = selectDevice("auto", infos);
    } catch (const std::exception&) {
        // none: the list stays empty and Run says why
    }
    for (const DeviceEntry& e : devices) {
        auto* item = checkable(
            QStringLiteral("%1: %2").arg(e.info.index).arg(QString::fromStdString(e.info.name)),
            e.info.index == preferred);
        item->setData(Qt::UserRole, e.info.index);
        m_devices->addItem(item);
    }
}

void ExperimentPanel::setImageSource(const QString& source) {
    m_imageSource = source;
}

void ExperimentPanel::startRun() {
    if (isRunning())
        return;
    ExperimentRequest request;
    request.spec.kind = ExperimentKind(m_experiment->currentData().toInt());
    for (int i = 0; i < m_distributions->count(); ++i)
        if (m_distributions->item(i)->checkState() == Qt::Checked)
            request.spec.distributions.push_back(m_distributions->item(i)->text().toStdString());
    for (int i = 0; i < m_devices->count(); ++i)
        if (m_devices->item(i)->checkState() == Qt::Checked)
            request.devices.push_back(m_devices->item(i)->data(Qt::UserRole).toInt());
    request.spec.bytes = std::size_t(m_size->value() * 1048576.0);
    request.spec.repeats = m_repeats->value();
    request.spec.maxRepeats = std::max(m_repeats->value(), m_maxRepeats->value());
    request.imageSource = m_imageSource;
    QString why;
    if (request.spec.distributions.empty())
        why = tr("Choose at least one kind of data.");
    else if (request.devices.empty())
        why = tr("Choose at least one device.");
    else if (m_imageSource.isEmpty() &&
             std::find(request.spec.distributions.begin(), request.spec.distributions.end(),
                       "image") != request.spec.distributions.end())
        why = tr("'image' repeats the shown image: open an image first.");
    if (!why.isEmpty()) {
        m_status->setText(why);
        emit problem(why);
        return;
    }
    m_live = ExperimentRun{};
    m_live.kind = request.spec.kind;
    std::vector<DeviceInfo> devices;
    for (int index : request.devices)
        for (const DeviceEntry& e : m_deviceEntries)
            if (e.info.index == index)
                devices.push_back(e.info);
    m_live.devices = devices;
    m_plot->reset(request.spec.kind, devices, request.spec.bytes);
    if (m_baseline && m_baseline->kind == request.spec.kind)
        m_plot->setBaseline(m_baseline);
    m_table->setRowCount(0);
    m_bridge->runExperiment(request);
    setRunning(true);
    m_status->setText(tr("running…"));
    emit runStarted();
}

void ExperimentPanel::cancelRun() {
    m_bridge->cancelExperiment();
}

void ExperimentPanel::setRunning(bool running) {
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_progress->setValue(running ? 0 : 1000);
}

void ExperimentPanel::addPoint(const ExperimentPoint& point) {
    m_live.points.push_back(point);
    // The title names the input size, known once a point arrives (0 asks each device for its
    // default): GB/s is bytes / median time.
    if (m_live.points.size() == 1)
        m_plot->reset(m_live.kind, m_live.devices,
                      point.stats.medianMs > 0 && point.gbps > 0
                          ? std::size_t(std::llround(point.gbps * point.stats.medianMs * 1e6))
                          : 0);
    m_plot->addPoint(point);
    addTableRow(point, m_live.devices);
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
                               p.ok() ? QString::number(p.gbps, 'f', p.gbps >= 100 ? 0 : 2)
                                      : QString(),
                               p.ok() ? QString::number(p.percentOfCeiling, 'f', 1) : QString(),
                               QString::fromLatin1(statusName(p.status))};
    for (int c = 0; c < cells.size(); ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        if (!p.reason.empty())
            item->setToolTip(QString::fromStdString(p.reason));
        m_table->setItem(row, c, item);
    }
}

void ExperimentPanel::fillTable(const ExperimentRun& run) {
    m_table->setRowCount(0);
    for (const ExperimentPoint& p : run.points)
        addTableRow(p, run.devices);
}

void ExperimentPanel::choose(bool save, const QString& caption, const QString& filter,
                             const std::function<void(const QString&)>& then) {
    const QString path = (save ? m_saveChooser : m_openChooser)(this, caption, QString(), filter);
    if (!path.isEmpty())
        then(path);
}

ExportResult ExperimentPanel::fail(const QString& message) {
    m_status->setText(message);
    qCWarning(lcUi).noquote() << message;
    emit problem(message);
    return ExportResult::failure(message);
}

ExportResult ExperimentPanel::saveRunTo(const QString& path) {
    if (!m_finished)
        return fail(tr("%1: nothing to save yet (run an experiment first)").arg(path));
    const std::string json = experimentJson(*m_finished);
    const ExportResult result = writeFileSafely(path, QByteArray::fromStdString(json));
    if (!result.ok)
        return fail(result.message);
    m_status->setText(tr("Saved %1").arg(path));
    return result;
}

namespace {
std::optional<ExperimentRun> readRun(const QString& path, QString* why) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *why = QObject::tr("%1: cannot be read (%2)").arg(path, file.errorString());
        return std::nullopt;
    }
    try {
        return parseExperimentJson(file.readAll().toStdString());
    } catch (const std::exception& e) {
        *why = QStringLiteral("%1: %2").arg(path, QString::fromStdString(e.what()));
        return std::nullopt;
    }
}
} // namespace

ExportResult ExperimentPanel::openRunFrom(const QString& path) {
    if (isRunning())
        return fail(tr("%1: not opened while an experiment runs").arg(path));
    QString why;
    const std::optional<ExperimentRun> run = readRun(path, &why);
    if (!run)
        return fail(why);
    m_finished = run;
    m_experiment->setCurrentIndex(m_experiment->findData(int(run->kind)));
    if (m_baseline && m_baseline->kind != run->kind)
        m_baseline.reset();
    m_plot->showRun(*run);
    if (m_baseline)
        m_plot->setBaseline(m_baseline);
    fillTable(*run);
    m_status->setText(tr("Opened %1 (%2, %3)")
                          .arg(path, QString::fromLatin1(experimentKindName(run->kind)),
                               QString::fromStdString(run->date)));
    return ExportResult::success();
}

ExportResult ExperimentPanel::openBaselineFrom(const QString& path) {
    QString why;
    const std::optional<ExperimentRun> run = readRun(path, &why);
    if (!run)
        return fail(why);
    const ExperimentKind shown = m_finished ? m_finished->kind : m_plot->kind();
    if ((m_finished || !m_plot->points().empty()) && run->kind != shown)
        return fail(tr("%1: a '%2' run cannot be the baseline of a '%3' experiment")
                        .arg(path, QString::fromLatin1(experimentKindName(run->kind)),
                             QString::fromLatin1(experimentKindName(shown))));
    m_baseline = run;
    m_plot->setBaseline(run);
    m_status->setText(tr("Baseline: %1 (%2)").arg(path, QString::fromStdString(run->date)));
    return ExportResult::success();
}

void ExperimentPanel::clearBaseline() {
    m_baseline.reset();
    m_plot->setBaseline(std::nullopt);
}

ExportResult ExperimentPanel::exportCsvTo(const QString& path) {
    if (!m_finished)
        return fail(tr("%1: nothing to export yet (run an experiment first)").arg(path));
    const std::string csv = experimentCsv(*m_finished, m_baseline ? &*m_baseline : nullptr);
    const ExportResult result = writeFileSafely(path, QByteArray::fromStdString(csv));
    return result.ok ? result : fail(result.message);
}

ExportResult ExperimentPanel::exportPlotTo(const QString& path, const PlotExportOptions& options) {
    const ExportResult result = exportPlot(*m_plot, path, options);
    return result.ok ? result : fail(result.message);
}

} // namespace histlab::ui
