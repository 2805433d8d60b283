#include "bridge/jobbridge.h"

#include "bridge/logging.h"

#include <io/imageio.h>
#include <runtime/device.h>
#include <runtime/errors.h>
#include <runtime/log.h>

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
        return histlab::listDevices(ctx.devices());
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

// Handlers for a lane whose newest job alone is heard: progress, the result and the error are
// re-posted to the GUI thread and emitted only while `current` still names the job; the result
// or the error clears it.
template <typename Result>
JobRunner::Handlers JobBridge::newestOnly(quint64 JobBridge::*current,
                                          void (JobBridge::*progress)(quint64, double,
                                                                      const QString&),
                                          void (JobBridge::*finished)(quint64, const Result&),
                                          void (JobBridge::*failed)(quint64, const JobError&)) {
    JobRunner::Handlers handlers;
    handlers.progress = [this, current, progress](JobId id, const Progress& p) {
        QMetaObject::invokeMethod(
            this,
            [this, current, progress, id, fraction = p.fraction,
             stage = QString::fromStdString(p.stage)] {
                if (id == this->*current)
                    emit(this->*progress)(id, fraction, stage);
            },
            Qt::QueuedConnection);
    };
    handlers.finished = [this, current, finished](JobId id, std::any value) {
        QMetaObject::invokeMethod(
            this,
            [this, current, finished, id, result = std::any_cast<Result>(std::move(value))] {
                if (id != this->*current) // superseded: the newest request wins
                    return;
                this->*current = 0;
                emit(this->*finished)(id, result);
            },
            Qt::QueuedConnection);
    };
    handlers.failed = [this, current, failed](JobId id, const JobError& error) {
        QMetaObject::invokeMethod(
            this,
            [this, current, failed, id, error] {
                if (id != this->*current)
                    return;
                this->*current = 0;
                emit(this->*failed)(id, error);
            },
            Qt::QueuedConnection);
    };
    return handlers;
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
    JobRunner::Handlers handlers =
        newestOnly<ExperimentRun>(&JobBridge::m_experiment, &JobBridge::experimentProgress,
                                  &JobBridge::experimentFinished, &JobBridge::experimentFailed);
    m_experiment = m_runner->submit("experiment", std::move(work), std::move(handlers));
    qCDebug(lcUi) << "experiment" << m_experiment
                  << "submitted:" << experimentKindName(request.spec.kind);
    return m_experiment;
}

void JobBridge::cancelExperiment() {
    if (m_experiment)
        m_runner->cancel(m_experiment);
}

HostImage launchPlane(const HostImage& image, std::string* note) {
    HostImage plane = toHighByte(image);
    std::string why =
        image.depth == 16 ? "16-bit image: blurred on the high byte of each value" : "";
    if (plane.channels != 1) {
        plane.data = lumaPlane(plane);
        plane.channels = 1;
        why = image.depth == 16 ? "16-bit color image: blurred on the luma of its high bytes"
                                : "color image: blurred on its luma (OpenCV's BGR2GRAY)";
    }
    if (note)
        *note = why;
    return plane;
}

quint64 JobBridge::runBlur(const BlurRequest& request) {
    JobRunner::Work work = [request, loaded = m_loaded](JobContext& ctx) -> std::any {
        ctx.progress(0.0, "loading");
        const std::shared_ptr<const HostImage> full = loaded->get(request.source);
        ctx.throwIfCancelled();
        Device& device = ctx.devices().select(request.device.toStdString());
        logInfo("device", "blur on device " + std::to_string(device.info().index) + ": " +
                              device.info().name);
        BlurResult result;
        result.request = request;
        result.device = device.info();
        result.imageSize = QSize(full->width, full->height);
        const int side = request.maxPreviewSide;
        if (request.mode == BlurRequest::Mode::Launches) {
            std::string note;
            const HostImage gray = launchPlane(*full, &note);
            result.note = QString::fromStdString(note);
            result.channels = 1;
            result.inputPreview = previewOf(gray, side);
            const std::vector<BlurLaunch> launches =
                request.launches.empty() ? allBlurLaunches() : request.launches;
            ctx.progress(0.1, launches.size() == 1 ? blurLaunchName(launches.front()) : "launches");
            result.launches = runBlurLaunches(device, gray, request.radius, launches,
                                              request.repeats, ctx.cancelToken());
            for (const BlurLaunchResult& launch : result.launches)
                result.previews.push_back(launch.output.empty() ? QImage()
                                                                : previewOf(launch.output, side));
        } else {
            result.channels = full->channels;
            result.depth = full->depth;
            result.inputPreview = previewOf(*full, side);
            const std::vector<BlurVariant> variants =
                request.variants.empty() ? std::vector<BlurVariant>{BlurVariant::Auto}
                                         : request.variants;
            std::size_t done = 0;
            ctx.progress(0.1, blurVariantName(variants.front()));
            result.runs = runBlurVariants(
                device, *full, {request.radius}, variants, request.border, request.repeats,
                ctx.cancelToken(), {}, [&](BlurVariantRow& row) {
                    result.previews.push_back(row.run && !row.run->output.empty()
                                                  ? previewOf(row.run->output, side)
                                                  : QImage());
                    if (++done < variants.size())
                        ctx.progress(0.1 + 0.9 * double(done) / double(variants.size()),
                                     blurVariantName(variants[done]));
                });
        }
        return result;
    };
    JobRunner::Handlers handlers =
        newestOnly<BlurResult>(&JobBridge::m_blur, &JobBridge::blurProgress,
                               &JobBridge::blurFinished, &JobBridge::blurFailed);
    m_blur = m_runner->submit("blur", std::move(work), std::move(handlers));
    qCDebug(lcUi) << "blur" << m_blur << "submitted:" << request.source << "radius"
                  << request.radius;
    return m_blur;
}

void JobBridge::cancelBlur() {
    if (m_blur)
        m_runner->cancel(m_blur);
}

quint64 JobBridge::runEqualize(const EqualizeRequest& request) {
    JobRunner::Work work = [request, loaded = m_loaded](JobContext& ctx) -> std::any {
        ctx.progress(0.0, "loading");
        const std::shared_ptr<const HostImage> full = loaded->get(request.source);
        ctx.throwIfCancelled();
        Device& device = ctx.devices().select(request.device.toStdString());
        logInfo("device", "equalize on device " + std::to_string(device.info().index) + ": " +
                              device.info().name);
        EqualizeResult result;
        result.request = request;
        result.device = device.info();
        result.imageSize = QSize(full->width, full->height);
        result.channels = full->channels;
        result.depth = full->depth;
        ctx.progress(0.1, "equalizing");
        result.run = histlab::runEqualize(device, *full, request.repeats, ctx.cancelToken());
        ctx.throwIfCancelled();
        // The "after" histogram is that of the output's own plane (for a color image its luma,
        // which the clamping of c + lut[Y] - Y may move off lut[Y]).
        ctx.progress(0.9, "histogram of the result");
        result.histogramAfter.assign(std::size_t(result.run.bins), 0);
        for (std::uint32_t v : equalizePlane(result.run.output))
            if (v < result.histogramAfter.size())
                ++result.histogramAfter[v];
        result.inputPreview = previewOf(*full, request.maxPreviewSide);
        result.outputPreview = previewOf(result.run.output, request.maxPreviewSide);
        return result;
    };
    JobRunner::Handlers handlers =
        newestOnly<EqualizeResult>(&JobBridge::m_equalize, &JobBridge::equalizeProgress,
                                   &JobBridge::equalizeFinished, &JobBridge::equalizeFailed);
    m_equalize = m_runner->submit("equalize", std::move(work), std::move(handlers));
    qCDebug(lcUi) << "equalize" << m_equalize << "submitted:" << request.source;
    return m_equalize;
}

void JobBridge::cancelEqualize() {
    if (m_equalize)
        m_runner->cancel(m_equalize);
}

quint64 JobBridge::runScans(const ScanBenchRequest& request) {
    JobRunner::Work work = [this, request](JobContext& ctx) -> std::any {
        Device& device = ctx.devices().select(request.device.toStdString());
        const DeviceInfo& info = device.info();
        logInfo("device", "scans on device " + std::to_string(info.index) + ": " + info.name);
        ScanPlan plan;
        plan.request = request;
        plan.device = info;
        const std::size_t bytes = request.bytes
                                      ? request.bytes
                                      : std::size_t(info.type == DeviceType::Cpu ? 16 : 64) << 20;
        plan.elements = bytes / sizeof(std::uint32_t);
        for (std::size_t wg : scanWorkGroupSizes(info))
            if (wg >= request.minWorkGroupSize &&
                (request.maxWorkGroupSize == 0 || wg <= request.maxWorkGroupSize))
                plan.workGroupSizes.push_back(wg);
        std::vector<ScanVariant> segmented, whole;
        for (ScanVariant v : request.variants)
            (isSegmentedScan(v) ? segmented : whole).push_back(v);
        if (segmented.empty() && whole.empty())
            throw UsageError("--variant", "no variant to run: choose at least one");
        if (!segmented.empty() && plan.workGroupSizes.empty())
            throw UsageError(
                "--wg", "no work-group size from " + std::to_string(request.minWorkGroupSize) +
                            " to " + std::to_string(request.maxWorkGroupSize) + " on " + info.name +
                            " (16 to " + std::to_string(info.maxWorkGroupSize) + ")");
        plan.points = int(segmented.size() * plan.workGroupSizes.size() + whole.size());
        const quint64 id = ctx.id();
        QMetaObject::invokeMethod(
            this,
            [this, id, plan] {
                if (id == m_scan)
                    emit scanStarted(id, plan);
            },
            Qt::QueuedConnection);

        int done = 0;
        auto report = [&](const ScanPoint& point) {
            ++done;
            QMetaObject::invokeMethod(
                this,
                [this, id, point] {
                    if (id == m_scan)
                        emit scanPoint(id, point);
                },
                Qt::QueuedConnection);
            ctx.progress(double(done) / double(std::max(plan.points, 1)),
                         std::string(scanVariantName(point.variant)) + " wg " +
                             std::to_string(point.workGroupSize));
        };
        ScanRequest base;
        base.elements = plan.elements;
        base.distribution = request.distribution;
        base.repeats = request.repeats;
        ScanBenchResult result;
        result.plan = plan;
        ctx.progress(0.0, "copy kernel");
        if (!segmented.empty()) {
            ScanRequest r = base;
            r.variants = segmented;
            r.workGroupSizes = plan.workGroupSizes;
            result.run = histlab::runScans(device, r, ctx.cancelToken(), report);
        }
        if (!whole.empty()) {
            // At their default work-group size; judged against the first copy kernel's run, so
            // that every point of the figure has the same reference.
            ScanRequest r = base;
            r.variants = whole;
            const bool first = segmented.empty();
            const double copyGbps = result.run.copy.gbps;
            auto rescale = [&](ScanPoint& p) {
                if (!first && copyGbps > 0 && statusRan(p.status))
                    p.percentOfCopy = 100.0 * p.gbps / copyGbps;
            };
            ScanRun second = histlab::runScans(device, r, ctx.cancelToken(), [&](ScanPoint p) {
                rescale(p);
                report(p);
            });
            if (first) {
                result.run = std::move(second);
            } else {
                for (ScanPoint& p : second.points) {
                    rescale(p);
                    result.run.points.push_back(std::move(p));
                }
            }
        }
        return result;
    };
    JobRunner::Handlers handlers =
        newestOnly<ScanBenchResult>(&JobBridge::m_scan, &JobBridge::scanProgress,
                                    &JobBridge::scanFinished, &JobBridge::scanFailed);
    m_scan = m_runner->submit("scan", std::move(work), std::move(handlers));
    qCDebug(lcUi) << "scan benchmark" << m_scan << "submitted:" << request.bytes << "bytes";
    return m_scan;
}

void JobBridge::cancelScans() {
    if (m_scan)
        m_runner->cancel(m_scan);
}

quint64 JobBridge::runDashboard(const DashboardRequest& request) {
    JobRunner::Work work = [this, request](JobContext& ctx) -> std::any {
        std::vector<int> devices = request.devices;
        if (devices.empty())
            devices.push_back(selectDevice("auto", ctx.devices().infos()));
        DashboardRun run =
            planDashboard(ctx.devices(), devices, request.pipelines, request.options);
        const quint64 id = ctx.id();
        QMetaObject::invokeMethod(
            this,
            [this, id, plan = run] {
                if (id == m_dashboard)
                    emit dashboardStarted(id, plan);
            },
            Qt::QueuedConnection);
        histlab::runDashboard(
            ctx.devices(), run, ctx.cancelToken(),
            [this, id](const DashboardResult& result) {
                QMetaObject::invokeMethod(
                    this,
                    [this, id, result] {
                        if (id == m_dashboard)
                            emit dashboardResult(id, result);
                    },
                    Qt::QueuedConnection);
            },
            [&ctx](double fraction, const std::string& what) { ctx.progress(fraction, what); });
        return run;
    };
    JobRunner::Handlers handlers =
        newestOnly<DashboardRun>(&JobBridge::m_dashboard, &JobBridge::dashboardProgress,
                                 &JobBridge::dashboardFinished, &JobBridge::dashboardFailed);
    m_dashboard = m_runner->submit("dashboard", std::move(work), std::move(handlers));
    qCDebug(lcUi) << "dashboard" << m_dashboard << "submitted:" << request.devices.size()
                  << "device(s)," << request.pipelines.size() << "pipeline(s) (0: all)";
    return m_dashboard;
}

void JobBridge::cancelDashboard() {
    if (m_dashboard)
        m_runner->cancel(m_dashboard);
}

quint64 JobBridge::runMemoryLab(const MemoryLabRequest& request) {
    JobRunner::Work work = [this, request](JobContext& ctx) -> std::any {
        if (!request.reversal && !request.ceilings && !request.transfers)
            throw UsageError("parts", "nothing to run: choose reversal, ceilings or transfers");
        if (request.repeats < 1)
            throw UsageError("repeats", "must be at least 1");
        Device& device = ctx.devices().select(request.device.toStdString());
        const DeviceInfo& info = device.info();
        logInfo("device", "memory lab on device " + std::to_string(info.index) + ": " + info.name);
        const bool cpu = info.type == DeviceType::Cpu;
        const std::uint64_t largest = info.maxAllocBytes;
        const auto tooLarge = [&](const char* parameter, std::uint64_t bytes) {
            return UsageError(parameter, std::to_string(bytes) +
                                             " bytes do not fit one buffer of " + info.name +
                                             " (at most " + std::to_string(largest) + " bytes)");
        };
        // Every size is settled and checked before any work: a bad one costs nothing.
        ReverseSpec reverse;
        reverse.repeats = request.repeats;
        reverse.bytes =
            request.reverseBytes
                ? request.reverseBytes
                : std::min({std::uint64_t(cpu ? 16 : 256) << 20, largest, kReverseMaxBytes});
        if (request.reversal && reverse.bytes > largest)
            throw tooLarge("reversal size", reverse.bytes);
        const std::uint64_t ceilingBytes =
            request.ceilingBytes
                ? request.ceilingBytes
                : std::min(std::uint64_t(info.type == DeviceType::Gpu ? 256 : 64) << 20, largest);
        if (request.ceilings && ceilingBytes < 64)
            throw UsageError("ceiling size", "the ceilings need at least 64 bytes");
        if (request.ceilings && ceilingBytes > largest)
            throw tooLarge("ceiling size", ceilingBytes);
        TransferSpec transfer;
        transfer.repeats = request.repeats;
        transfer.maxBytes = request.transferMaxBytes ? request.transferMaxBytes
                            : cpu                    ? std::min(std::uint64_t(16) << 20, largest)
                                                     : defaultTransferMax(info);
        transfer.minBytes = std::min(transfer.minBytes, transfer.maxBytes);
        if (request.transfers && transfer.maxBytes > largest)
            throw tooLarge("transfer max size", transfer.maxBytes);

        // Progress counts results: each variant, the ceilings, each transfer point, the launch.
        const std::size_t total =
            (request.reversal ? reverse.variants.size() : 0) + (request.ceilings ? 1 : 0) +
            (request.transfers
                 ? transfer.kinds.size() *
                           transferSizes(transfer.minBytes, transfer.maxBytes).size() +
                       1
                 : 0);
        std::size_t done = 0;
        const auto step = [&](const std::string& next) {
            ctx.progress(double(done) / double(std::max<std::size_t>(total, 1)), next);
        };
        const quint64 id = ctx.id();
        // Each result is posted as it arrives, heard only while this run is the newest.
        const auto post = [this, id](auto signal, auto value) {
            QMetaObject::invokeMethod(
                this,
                [this, id, signal, value] {
                    if (id == m_memory)
                        emit(this->*signal)(id, value);
                },
                Qt::QueuedConnection);
        };

        MemoryLabResult result;
        result.request = request;
        result.device = info;
        result.memory.device = info;
        if (request.reversal) {
            step("reversal: copy kernel");
            result.reversal =
                runReverse(device, reverse, ctx.cancelToken(), [&](const ReverseResult& r) {
                    post(&JobBridge::memoryReverseResult, r);
                    ++done;
                    step("reversal: " + r.name);
                });
        }
        if (request.ceilings) {
            step("ceilings per vector width");
            result.memory.ceilings = measureCeilingWidths(device, std::size_t(ceilingBytes),
                                                          request.repeats, ctx.cancelToken());
            post(&JobBridge::memoryCeilings, *result.memory.ceilings);
            ++done;
        }
        if (request.transfers) {
            step("transfers");
            result.memory.transfers =
                runTransfers(device, transfer, ctx.cancelToken(), [&](const TransferPoint& p) {
                    post(&JobBridge::memoryTransferPoint, p);
                    ++done;
                    step(std::string(transferKindName(p.kind)) + " " + formatByteSize(p.bytes));
                });
        }
        return result;
    };
    JobRunner::Handlers handlers =
        newestOnly<MemoryLabResult>(&JobBridge::m_memory, &JobBridge::memoryProgress,
                                    &JobBridge::memoryFinished, &JobBridge::memoryFailed);
    m_memory = m_runner->submit("memory", std::move(work), std::move(handlers));
    qCDebug(lcUi) << "memory lab" << m_memory << "submitted:" << request.device;
    return m_memory;
}

void JobBridge::cancelMemoryLab() {
    if (m_memory)
        m_runner->cancel(m_memory);
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
