#include "jobbridge.h"

#include "logging.h"

#include <device.h>
#include <errors.h>
#include <imageio.h>
#include <log.h>

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryFile>

#include <algorithm>
#include <any>
#include <utility>

namespace histlab::ui {

namespace {

const std::string kLane = "histogram";

/// Runs on the worker. The core's loader takes paths, so a Qt resource (the bundled sample)
/// goes through a temporary file first.
HostImage loadSource(const QString& source) {
    if (source.startsWith(QLatin1String(":/"))) {
        std::unique_ptr<QTemporaryFile> copy(QTemporaryFile::createNativeFile(source));
        if (!copy)
            throw InputError(source.toStdString() + ": not found in the application's resources");
        HostImage image = loadImage(QFile::encodeName(copy->fileName()).toStdString());
        image.source = source.toStdString();
        return image;
    }
    return loadImage(QFile::encodeName(source).toStdString());
}

} // namespace

QImage previewOf(const HostImage& image, int maxSide) {
    // Scaled first (OpenCV's area average, on all cores, straight from the interleaved bytes),
    // then only the small result is converted.
    const HostImage small = downscaleToFit(image, maxSide);
    const HostImage img8 = toHighByte(small);
    const QImage::Format format = img8.channels == 1   ? QImage::Format_Grayscale8
                                  : img8.channels == 3 ? QImage::Format_RGB888
                                                       : QImage::Format_RGBA8888;
    const QImage view(img8.data.data(), img8.width, img8.height,
                      qsizetype(img8.width) * img8.channels, format);
    return view.copy(); // the view borrows img8's pixels
}

/// The image the worker loaded last; only the worker thread reads or writes it. A request for
/// the same, unchanged file (a region being dragged, or the whole image again) reuses it.
struct JobBridge::LoadedImage {
    QString source;
    QDateTime modified;
    qint64 bytes = -1;
    std::shared_ptr<const HostImage> image;

    std::shared_ptr<const HostImage> get(const QString& path) {
        const QFileInfo info(path);
        if (image && path == source && info.lastModified() == modified && info.size() == bytes)
            return image;
        image.reset(); // one image in memory at a time
        image = std::make_shared<const HostImage>(loadSource(path));
        source = path;
        modified = info.lastModified();
        bytes = info.size();
        return image;
    }
};

namespace {
std::unique_ptr<JobRunner> startRunner() {
    loadOpenClDrivers(); // before the worker thread exists: see its comment in device.h
    return std::make_unique<JobRunner>();
}
} // namespace

JobBridge::JobBridge(QObject* parent)
    : QObject(parent)
    , m_runner(startRunner())
    , m_loaded(std::make_shared<LoadedImage>()) {}

JobBridge::~JobBridge() {
    // Join the worker while this object is whole: callbacks that run meanwhile may still post
    // to it; ~QObject then discards those posted events.
    m_runner.reset();
}

quint64 JobBridge::analyse(const AnalysisRequest& request) {
    JobRunner::Work work = [request, loaded = m_loaded](JobContext& ctx) -> std::any {
        ctx.progress(0.0, "loading");
        const std::shared_ptr<const HostImage> full = loaded->get(request.source);
        ctx.throwIfCancelled();
        ImageAnalysis result;
        result.source = request.source;
        result.imageSize = QSize(full->width, full->height);
        result.region = request.region;
        // A region is analysed on its own (no preview: the window keeps the whole image's).
        HostImage cropped;
        if (request.region)
            cropped = cropImage(*full, *request.region);
        else
            result.preview = previewOf(*full, maxPreviewSide);
        const HostImage& image = request.region ? cropped : *full;
        ctx.throwIfCancelled();

        Device& device = ctx.devices().select(request.device.toStdString());
        logInfo("device", "selected device " + std::to_string(device.info().index) + ": " +
                              device.info().name);
        HistogramRunOptions options;
        options.repeats = request.repeats;
        options.verify = request.verify;
        options.maxChunkBytes = request.maxPieceBytes;
        result.run = runHistogram(device, image, request.histogram, options, ctx.cancelToken(),
                                  [&ctx](double fraction, const std::string& stage) {
                                      ctx.progress(0.1 + 0.9 * fraction, stage);
                                  });
        // 256 bins per channel: cheap, but it belongs with the other values the job returns.
        result.statistics.reserve(result.run.histograms.size());
        for (const ChannelHistogram& h : result.run.histograms)
            result.statistics.push_back(channelStatistics(h.name, h.counts));
        return result;
    };

    // The handlers run on the worker thread: they only copy values and post to this object.
    JobRunner::Handlers handlers;
    handlers.progress = [this](JobId id, const Progress& p) {
        QMetaObject::invokeMethod(
            this,
            [this, id, fraction = p.fraction, stage = QString::fromStdString(p.stage)] {
                if (id == m_latest)
                    emit progressChanged(id, fraction, stage);
            },
            Qt::QueuedConnection);
    };
    handlers.finished = [this](JobId id, std::any value) {
        QMetaObject::invokeMethod(
            this,
            [this, id, result = std::any_cast<ImageAnalysis>(std::move(value))] {
                deliverFinished(id, result);
            },
            Qt::QueuedConnection);
    };
    handlers.failed = [this](JobId id, const JobError& error) {
        QMetaObject::invokeMethod(
            this, [this, id, error] { deliverFailed(id, error); }, Qt::QueuedConnection);
    };

    const quint64 id = m_runner->submit(kLane, std::move(work), std::move(handlers));
    const bool wasBusy = busy();
    m_latest = m_pending = id;
    qCDebug(lcUi) << "analysis" << id << "submitted:" << request.source;
    if (!wasBusy)
        emit busyChanged(true);
    return id;
}

void JobBridge::cancel() {
    if (m_pending == 0)
        return;
    qCDebug(lcUi) << "analysis" << m_pending << "cancel requested";
    m_runner->cancel(m_pending);
}

quint64 JobBridge::listDevices() {
    JobRunner::Work work = [](JobContext& ctx) -> std::any {
        std::vector<DeviceEntry> entries;
        DeviceSet& devices = ctx.devices();
        for (const DeviceInfo& info : devices.infos()) {
            ctx.throwIfCancelled();
            DeviceEntry entry;
            entry.info = info;
            // One device whose probes fail is still listed; the message says why.
            try {
                entry.capabilities = devices.open(info.index).capabilities();
            } catch (...) {
                entry.probeError = toJobError(std::current_exception()).message;
            }
            entries.push_back(std::move(entry));
        }
        return entries;
    };
    JobRunner::Handlers handlers;
    handlers.finished = [this](JobId id, std::any value) {
        QMetaObject::invokeMethod(
            this,
            [this, id, devices = std::any_cast<std::vector<DeviceEntry>>(std::move(value))] {
                emit devicesListed(id, devices);
            },
            Qt::QueuedConnection);
    };
    handlers.failed = [this](JobId id, const JobError& error) {
        QMetaObject::invokeMethod(
            this, [this, id, error] { emit devicesFailed(id, error); }, Qt::QueuedConnection);
    };
    const quint64 id = m_runner->submit("devices", std::move(work), std::move(handlers));
    qCDebug(lcUi) << "device list" << id << "submitted";
    return id;
}

quint64 JobBridge::runExperiment(const ExperimentRequest& request) {
    JobRunner::Work work = [this, request, loaded = m_loaded](JobContext& ctx) -> std::any {
        ExperimentSpec spec = request.spec;
        std::shared_ptr<const HostImage> image;
        if (std::find(spec.distributions.begin(), spec.distributions.end(), "image") !=
            spec.distributions.end()) {
            if (request.imageSource.isEmpty())
                throw UsageError("distribution", "'image' needs an image: open one first");
            image = loaded->get(request.imageSource);
            spec.image = image.get();
        }
        std::vector<int> devices = request.devices;
        if (devices.empty())
            devices.push_back(selectDevice("auto", ctx.devices().infos()));
        const quint64 id = ctx.id();
        return histlab::runExperiment(
            ctx.devices(), devices, spec, ctx.cancelToken(),
            [this, id](const ExperimentPoint& point) {
                QMetaObject::invokeMethod(
                    this,
                    [this, id, point] {
                        if (id == m_experiment)
                            emit experimentPoint(id, point);
                    },
                    Qt::QueuedConnection);
            },
            [&ctx](double fraction, const std::string& what) { ctx.progress(fraction, what); });
    };
    JobRunner::Handlers handlers;
    handlers.progress = [this](JobId id, const Progress& p) {
        QMetaObject::invokeMethod(
            this,
            [this, id, fraction = p.fraction, what = QString::fromStdString(p.stage)] {
                if (id == m_experiment)
                    emit experimentProgress(id, fraction, what);
            },
            Qt::QueuedConnection);
    };
    handlers.finished = [this](JobId id, std::any value) {
        QMetaObject::invokeMethod(
            this,
            [this, id, run = std::any_cast<ExperimentRun>(std::move(value))] {
                if (id != m_experiment)
                    return;
                m_experiment = 0;
                emit experimentFinished(id, run);
            },
            Qt::QueuedConnection);
    };
    handlers.failed = [this](JobId id, const JobError& error) {
        QMetaObject::invokeMethod(
            this,
            [this, id, error] {
                if (id != m_experiment)
                    return;
                m_experiment = 0;
                emit experimentFailed(id, error);
            },
            Qt::QueuedConnection);
    };
    m_experiment = m_runner->submit("experiment", std::move(work), std::move(handlers));
    qCDebug(lcUi) << "experiment" << m_experiment
                  << "submitted:" << experimentKindName(request.spec.kind);
    return m_experiment;
}

void JobBridge::cancelExperiment() {
    if (m_experiment)
        m_runner->cancel(m_experiment);
}

void JobBridge::deliverFinished(quint64 id, const ImageAnalysis& result) {
    if (id != m_latest) // superseded: the newest request wins
        return;
    m_pending = 0;
    emit busyChanged(false);
    emit analysisFinished(id, result);
}

void JobBridge::deliverFailed(quint64 id, const JobError& error) {
    if (id != m_latest)
        return;
    m_pending = 0;
    emit busyChanged(false);
    emit analysisFailed(id, error);
}

} // namespace histlab::ui
