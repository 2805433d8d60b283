#pragma once
// The UI's one way onto the worker. JobBridge owns the core's JobRunner, whose thread owns every
// OpenCL object. A job is a function that runs there (JobWork); submit() returns at once with a
// JobWatcher, which reports on the GUI thread what the job sends: progress, the items it streams
// (points, rows) and its result or its error, as signals carrying values.
//
// Jobs run in lanes ("blur", "scan", "histogram", ...). The newest request of a lane wins: a new
// job cancels the lane's older one (the runner does that), and whatever the older one still
// answers is dropped here, in one place, so whoever asked only ever hears about the request it
// made last (as in Qt's Mandelbrot example).
//
// One service that several parts of the window listen to is built on submit(): the device
// listing (listDevices(): every panel with a device list hears devicesListed). Each tab owns
// its own jobs' watchers (the Image tab its analysis, see panels/imagepanel.h).
#include "bridge/analysis.h"
#include "bridge/imagecache.h"

#include <runtime/device.h>
#include <runtime/runner.h>

#include <QMetaType>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <any>
#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace histlab::ui {

/// A job: what runs on the worker thread. It uses the devices, reports progress and checks for
/// cancellation through the context, may stream items (a point, a row, a plan) through `post`
/// (the core's ItemSink: each reaches the GUI thread, where the job's watcher emits it as
/// itemReady), and returns its result; what it throws reaches the watcher as a JobError value.
using JobWork = std::function<std::any(JobContext& context, const ItemSink& post)>;

/// On the worker: the device `selector` names (see selectDevice); the choice goes to the log
/// as "selected device <index>: <name> (<purpose>)".
Device& jobDevice(JobContext& context, const QString& selector, const std::string& purpose);

class JobBridge;

/// What the GUI thread hears of one submitted job, while it is the newest of its lane. The
/// bridge owns it and deletes it (later) once the job has answered, or once a newer job or
/// discard() replaced it: connect to it right after submit(), and keep it only in a QPointer.
class JobWatcher : public QObject {
    Q_OBJECT
public:
    quint64 id() const { return m_id; }
    const QString& lane() const { return m_lane; }
    /// Asks the job to stop between two launches; it then fails as Cancelled.
    void cancel();

signals:
    /// The worker began the job (it may have waited for other lanes' jobs: one job runs at a
    /// time).
    void started();
    void progressChanged(double fraction, const QString& stage);
    /// One item the job streamed (std::any holding the job's own type).
    void itemReady(const std::any& item);
    /// The job's result; the lane is no longer running when this is emitted.
    void finished(const std::any& result);
    /// The job's error (Cancelled when it was cancelled); the lane is no longer running.
    void failed(const histlab::JobError& error);

private:
    friend class JobBridge;
    JobWatcher(JobBridge* bridge, QString lane, quint64 id);

    JobBridge* m_bridge;
    QString m_lane;
    quint64 m_id;
};

class JobBridge : public QObject {
    Q_OBJECT
public:
    /// Large images are shown through a smaller copy made on the worker.
    static constexpr int maxPreviewSide = 2048;

    explicit JobBridge(QObject* parent = nullptr);
    ~JobBridge() override; ///< cancels what runs and joins the worker

    /// Queues `work` on `lane`, cancelling the lane's running job (whose answers are dropped
    /// from now on). Returns at once with the job's watcher.
    JobWatcher* submit(const QString& lane, JobWork work);
    /// Cancels the lane's newest job, if it has not answered; it then fails as Cancelled.
    void cancel(const QString& lane);
    /// Cancels the lane's newest job and drops whatever it still answers: nobody hears of it
    /// again, and the lane is idle at once (e.g. a blur of an image no longer shown).
    void discard(const QString& lane);
    /// True from a submit() until the lane's newest job has answered (or was discarded).
    bool isRunning(const QString& lane) const;
    /// The lanes with a job not answered yet, by name ("experiment", "blur"...). One worker
    /// runs them one job at a time: a new job waits for those.
    QStringList runningLanes() const;
    /// What messages call the job of `lane` ("experiment", "image analysis").
    void setJobName(const QString& lane, const QString& name) { m_jobNames[lane] = name; }
    /// The names of the jobs not answered yet, but that of `except`'s lane and those of
    /// unnamed lanes, joined for a sentence ("experiment and blur benchmark"); empty when none.
    QString runningJobNames(const QString& except = {}) const;
    /// "waits for the running experiment to finish (one job runs at a time)" while other
    /// lanes than `lane` have jobs not answered yet (runningJobNames); empty when none.
    QString waitNote(const QString& lane) const;
    /// True once the worker began the lane's newest job (until it answers).
    bool hasStarted(const QString& lane) const;
    /// The image the worker loaded last, for jobs that read the window's images.
    std::shared_ptr<ImageCache> imageCache() const { return m_images; }

    /// How listDevices() learns each device's capabilities.
    enum class Probes {
        /// Compiled and run on each device (lane "devices", on a worker of its own: other jobs
        /// do not wait for it), then remembered for the next launch (rememberedProbesFile()).
        Run,
        /// Those remembered from an earlier run on the same device and driver, no device opened
        /// (lane "device list"): at once, where the probes take a second or more of kernel
        /// builds on a CPU device. A device never probed is listed as pending.
        Remembered,
    };
    /// Lists every OpenCL device on the worker; answers with devicesListed or devicesFailed.
    JobWatcher* listDevices(Probes probes = Probes::Run);
    /// Where the probe results are kept between launches: device-probes.tsv in the
    /// application's cache folder (QStandardPaths::CacheLocation).
    static QString rememberedProbesFile();

signals:
    /// A lane started (a job submitted while it was idle) or stopped (its newest job answered,
    /// or was discarded).
    void runningChanged(const QString& lane, bool running);
    /// The worker began the lane's newest job (after those submitted before it).
    void laneStarted(const QString& lane);
    void devicesListed(quint64 id, const std::vector<histlab::DeviceListing>& devices);
    void devicesFailed(quint64 id, const histlab::JobError& error);

private:
    friend class JobWatcher;
    /// What the GUI thread knows of a lane: its newest job, until it answers.
    struct Lane {
        quint64 id = 0;
        QPointer<JobWatcher> watcher;
        bool started = false;
    };
    /// The lane's watcher while job `id` is the lane's newest, else nullptr (a stale answer).
    JobWatcher* current(const QString& lane, quint64 id) const;
    /// Forgets the lane's job and says the lane stopped; returns its watcher (deleted later).
    JobWatcher* release(const QString& lane);

    /// The runner of `lane`: the device probes' own, or the one every other job shares.
    JobRunner& runnerFor(const QString& lane) const;

    std::unique_ptr<JobRunner> m_runner;
    /// The device probes (listDevices(Probes::Run)) on a worker and devices of their own: a
    /// second or more of kernel builds that never hold back an image opened meanwhile.
    std::unique_ptr<JobRunner> m_probeRunner;
    std::shared_ptr<ImageCache> m_images;  // copied into jobs; only the worker touches it
    std::map<QString, Lane> m_lanes;       // GUI thread only
    std::map<QString, QString> m_jobNames; // lane -> its job's name in messages
};

} // namespace histlab::ui

Q_DECLARE_METATYPE(std::any)
Q_DECLARE_METATYPE(histlab::JobError)
