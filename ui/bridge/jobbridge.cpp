#include "bridge/jobbridge.h"

#include "bridge/logging.h"

#include <runtime/log.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>
#include <services/opencvservices.h>

#include <utility>

namespace histlab::ui {

JobWatcher::JobWatcher(JobBridge* bridge, QString lane, quint64 id)
    : QObject(bridge)
    , m_bridge(bridge)
    , m_lane(std::move(lane))
    , m_id(id) {}

void JobWatcher::cancel() {
    if (m_bridge->current(m_lane, m_id))
        m_bridge->runnerFor(m_lane).cancel(m_id);
}

Device& jobDevice(JobContext& context, const QString& selector, const std::string& purpose) {
    Device& device = context.devices().select(selector.toStdString());
    logInfo("device", "selected device " + std::to_string(device.info().index) + ": " +
                          device.info().name + " (" + purpose + ")");
    return device;
}

namespace {
std::unique_ptr<JobRunner> startRunner() {
    loadOpenClDrivers(); // before the worker thread exists: see its comment in device.h
    return std::make_unique<JobRunner>();
}
} // namespace

namespace {
const QString kProbeLane = QStringLiteral("devices");
} // namespace

JobBridge::JobBridge(QObject* parent)
    : QObject(parent)
    , m_runner(startRunner())
    , m_probeRunner(std::make_unique<JobRunner>())
    , m_images(std::make_shared<ImageCache>()) {
    // What the core cannot call, as histlab-cli has it: image files (batch over the Images
    // list), cv::blur, local features and codebook files (the Words tab).
    installOpenCvServices();
}

JobBridge::~JobBridge() {
    // Join the worker while this object is whole: callbacks that run meanwhile may still post
    // to it; ~QObject then discards those posted events.
    m_probeRunner.reset();
    m_runner.reset();
}

JobRunner& JobBridge::runnerFor(const QString& lane) const {
    return lane == kProbeLane ? *m_probeRunner : *m_runner;
}

JobWatcher* JobBridge::current(const QString& lane, quint64 id) const {
    const auto it = m_lanes.find(lane);
    return it != m_lanes.end() && it->second.id == id ? it->second.watcher.data() : nullptr;
}

JobWatcher* JobBridge::release(const QString& lane) {
    Lane& l = m_lanes[lane];
    JobWatcher* watcher = l.watcher.data();
    l = Lane{};
    if (watcher)
        watcher->deleteLater(); // after the signal its caller emits on it
    emit runningChanged(lane, false);
    return watcher;
}

bool JobBridge::isRunning(const QString& lane) const {
    const auto it = m_lanes.find(lane);
    return it != m_lanes.end() && it->second.id != 0;
}

QStringList JobBridge::runningLanes() const {
    QStringList lanes;
    for (const auto& [name, lane] : m_lanes)
        if (lane.id != 0)
            lanes << name;
    return lanes;
}

QString JobBridge::runningJobNames(const QString& except) const {
    QStringList names;
    for (const QString& lane : runningLanes()) {
        const auto it = m_jobNames.find(lane);
        if (lane != except && it != m_jobNames.end())
            names << it->second;
    }
    return names.join(tr(" and "));
}

QString JobBridge::waitNote(const QString& lane) const {
    const QString before = runningJobNames(lane);
    return before.isEmpty()
               ? QString()
               : tr("waits for the running %1 to finish (one job runs at a time)").arg(before);
}

bool JobBridge::hasStarted(const QString& lane) const {
    const auto it = m_lanes.find(lane);
    return it != m_lanes.end() && it->second.started; // an idle lane is Lane{}: not started
}

// The newest-wins rule lives here. Every answer of the worker is re-posted to the GUI thread
// with its job's id and emitted only while that id is its lane's newest; the result or the
// error ends the lane's run.
JobWatcher* JobBridge::submit(const QString& lane, JobWork work) {
    // The handlers and the item sink run on the worker thread: they copy values and post.
    JobRunner::Handlers handlers;
    handlers.progress = [this, lane](JobId id, const Progress& p) {
        QMetaObject::invokeMethod(
            this,
            [this, lane, id, fraction = p.fraction, stage = QString::fromStdString(p.stage)] {
                if (JobWatcher* watcher = current(lane, id))
                    emit watcher->progressChanged(fraction, stage);
            },
            Qt::QueuedConnection);
    };
    handlers.finished = [this, lane](JobId id, std::any value) {
        QMetaObject::invokeMethod(
            this,
            [this, lane, id, value = std::move(value)] {
                if (current(lane, id))
                    emit release(lane)->finished(value);
            },
            Qt::QueuedConnection);
    };
    handlers.failed = [this, lane](JobId id, const JobError& error) {
        QMetaObject::invokeMethod(
            this,
            [this, lane, id, error] {
                if (current(lane, id))
                    emit release(lane)->failed(error);
            },
            Qt::QueuedConnection);
    };
    JobRunner::Work run = [this, lane, work = std::move(work)](JobContext& context) -> std::any {
        const JobId id = context.id();
        QMetaObject::invokeMethod(
            this,
            [this, lane, id] {
                if (JobWatcher* watcher = current(lane, id)) {
                    m_lanes[lane].started = true;
                    emit laneStarted(lane);
                    emit watcher->started();
                }
            },
            Qt::QueuedConnection);
        const ItemSink post = [this, lane, id](const std::any& item) {
            QMetaObject::invokeMethod(
                this,
                [this, lane, id, item] {
                    if (JobWatcher* watcher = current(lane, id))
                        emit watcher->itemReady(item);
                },
                Qt::QueuedConnection);
        };
        return work(context, post);
    };

    const bool wasRunning = isRunning(lane);
    // The runner cancels the lane's older job; its answers no longer match the lane's id.
    const quint64 id =
        runnerFor(lane).submit(lane.toStdString(), std::move(run), std::move(handlers));
    Lane& l = m_lanes[lane];
    if (l.watcher)
        l.watcher->deleteLater(); // superseded: it hears nothing more
    auto* watcher = new JobWatcher(this, lane, id);
    l.id = id;
    l.watcher = watcher;
    l.started = false;
    qCDebug(lcUi) << "job" << id << "submitted on lane" << lane;
    if (!wasRunning)
        emit runningChanged(lane, true);
    return watcher;
}

void JobBridge::cancel(const QString& lane) {
    const auto it = m_lanes.find(lane);
    if (it == m_lanes.end() || it->second.id == 0)
        return;
    qCDebug(lcUi) << "job" << it->second.id << "on lane" << lane << "cancel requested";
    runnerFor(lane).cancel(it->second.id);
}

void JobBridge::discard(const QString& lane) {
    if (!isRunning(lane))
        return;
    cancel(lane);
    release(lane);
}

QString JobBridge::rememberedProbesFile() {
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation) +
           QStringLiteral("/device-probes.tsv");
}

namespace {
/// The probe results kept in `path`; none when it is missing, unreadable or larger than a
/// file of them can be (then the probes run again and write it anew).
RememberedProbes readRememberedProbes(const QString& path) {
    QFile file(path);
    // A regular file only: opening a FIFO put there would wait for a writer.
    if (!QFileInfo(path).isFile() || !file.open(QIODevice::ReadOnly))
        return {};
    constexpr qint64 kMostBytes = 1 << 20;
    const QByteArray text = file.read(kMostBytes + 1);
    if (text.size() > kMostBytes)
        return {};
    return rememberedProbes(text.toStdString());
}

/// Adds what `listing` probed to the results kept in `path` (written to a temporary file, then
/// renamed). A folder that cannot be written costs only the next launch's speed: logged.
void rememberProbes(const QString& path, const std::vector<DeviceListing>& listing) {
    const std::string text = rememberedProbesText(readRememberedProbes(path), listing);
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(text.data(), qint64(text.size())) != qint64(text.size()) || !file.commit())
        qCWarning(lcUi).noquote() << path << ": the device probe results cannot be kept ("
                                  << file.errorString() << ")";
}
} // namespace

JobWatcher* JobBridge::listDevices(Probes probes) {
    const QString lane = probes == Probes::Run ? kProbeLane : QStringLiteral("device list");
    JobWatcher* watcher = submit(
        lane,
        [probes, path = rememberedProbesFile()](JobContext& context, const ItemSink&) -> std::any {
            if (probes == Probes::Remembered)
                return listDevicesRemembered(context.devices(), readRememberedProbes(path));
            std::vector<DeviceListing> listing = histlab::listDevices(context.devices());
            rememberProbes(path, listing);
            return listing;
        });
    const quint64 id = watcher->id();
    connect(watcher, &JobWatcher::finished, this, [this, id](const std::any& result) {
        emit devicesListed(id, std::any_cast<const std::vector<DeviceListing>&>(result));
    });
    connect(watcher, &JobWatcher::failed, this,
            [this, id](const JobError& error) { emit devicesFailed(id, error); });
    return watcher;
}

} // namespace histlab::ui
