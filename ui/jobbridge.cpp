#include "jobbridge.h"

#include "logging.h"

#include <errors.h>
#include <imageio.h>
#include <log.h>

#include <QFile>
#include <QTemporaryFile>

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

/// Runs on the worker: an 8-bit QImage of the image (high byte of 16-bit data), made smaller
/// when it is large so the GUI thread only ever paints a modest pixmap.
QImage makePreview(const HostImage& image) {
    const HostImage img8 = toHighByte(image);
    const QImage::Format format = img8.channels == 1   ? QImage::Format_Grayscale8
                                  : img8.channels == 3 ? QImage::Format_RGB888
                                                       : QImage::Format_RGBA8888;
    const QImage view(img8.data.data(), img8.width, img8.height,
                      qsizetype(img8.width) * img8.channels, format);
    if (std::max(img8.width, img8.height) > JobBridge::maxPreviewSide)
        return view.scaled(JobBridge::maxPreviewSide, JobBridge::maxPreviewSide,
                           Qt::KeepAspectRatio, Qt::SmoothTransformation);
    return view.copy(); // the view borrows img8's pixels
}

} // namespace

JobBridge::JobBridge(QObject* parent)
    : QObject(parent)
    , m_runner(std::make_unique<JobRunner>()) {}

JobBridge::~JobBridge() {
    // Join the worker while this object is whole: callbacks that run meanwhile may still post
    // to it; ~QObject then discards those posted events.
    m_runner.reset();
}

quint64 JobBridge::analyse(const AnalysisRequest& request) {
    JobRunner::Work work = [request](JobContext& ctx) -> std::any {
        ctx.progress(0.0, "loading");
        HostImage image = loadSource(request.source);
        ctx.throwIfCancelled();
        ImageAnalysis result;
        result.source = request.source;
        result.imageSize = QSize(image.width, image.height);
        result.preview = makePreview(image);
        ctx.throwIfCancelled();

        Device& device = ctx.devices().select(request.device.toStdString());
        logInfo("device", "selected device " + std::to_string(device.info().index) + ": " +
                              device.info().name);
        HistogramRunOptions options;
        options.repeats = request.repeats;
        options.verify = request.verify;
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
    m_latest = m_pending = id;
    qCDebug(lcUi) << "analysis" << id << "submitted:" << request.source;
    return id;
}

void JobBridge::deliverFinished(quint64 id, const ImageAnalysis& result) {
    if (id != m_latest) // superseded: the newest request wins
        return;
    m_pending = 0;
    emit analysisFinished(id, result);
}

void JobBridge::deliverFailed(quint64 id, const JobError& error) {
    if (id != m_latest)
        return;
    m_pending = 0;
    emit analysisFailed(id, error);
}

} // namespace histlab::ui
