#pragma once
// The UI's one way into the core. JobBridge owns the JobRunner, whose worker thread owns every
// OpenCL object; it submits jobs and re-posts the worker's callbacks to the GUI thread, where
// they leave as signals carrying values. The newest request of a lane wins: the runner cancels
// the older jobs, and a stale answer that still arrives is dropped here, so the UI only ever
// hears about the request it made last.
#include <pipelines/blur/blur.h>
#include <pipelines/dashboard/dashboard.h>
#include <pipelines/equalize/equalize.h>
#include <pipelines/experiments/experiment.h>
#include <pipelines/histogram256/histogram256.h>
#include <pipelines/histogram256/histogramstats.h>
#include <pipelines/reverse/reverse.h>
#include <pipelines/scan/scan.h>
#include <pipelines/transfer/transfer.h>
#include <runtime/runner.h>

#include <QImage>
#include <QMetaType>
#include <QObject>
#include <QSize>
#include <QString>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace histlab::ui {

/// What to analyse and how.
struct AnalysisRequest {
    QString source;                          ///< a file path, or a Qt resource path (":/...")
    QString device = QStringLiteral("auto"); ///< a core device selector (see selectDevice)
    HistogramRequest histogram;              ///< variant and parameters; auto by default
    int repeats = 5;
    bool verify = true;
    /// Only these pixels (full-image coordinates, inside the image); the whole image if unset.
    /// The worker keeps the image it loaded last, so a region of it is not read again.
    std::optional<Region> region;
    /// The largest piece sent to the device at once (0: the device's largest buffer). Larger
    /// images run in pieces whose counts add up on the device; tests force it small.
    std::size_t maxPieceBytes = 0;
};

/// One finished analysis, as values: the image as it will be shown, the core's run and the
/// statistics of its histograms.
struct ImageAnalysis {
    QString source;
    QSize imageSize;  ///< of the file, in pixels
    QImage preview;   ///< 8-bit copy for display, at most maxPreviewSide on its longer side
    HistogramRun run; ///< histograms, configuration, timings, verification
    std::vector<ChannelStatistics> statistics; ///< one per run.histograms, in the same order
    std::optional<Region> region; ///< as requested; the preview is left empty for a region
};

/// One OpenCL device as the worker sees it: what it reports and what its probes found.
using DeviceEntry = DeviceListing;

/// An 8-bit QImage of `image` (the high byte of 16-bit data), smoothly scaled down to at most
/// `maxSide` pixels on its longer side when it is larger. For the worker and other non-GUI
/// threads: the GUI thread only ever gets the modest result.
QImage previewOf(const HostImage& image, int maxSide);

/// An experiment to run on the worker (lane "experiment").
struct ExperimentRequest {
    ExperimentSpec spec;      ///< spec.image is ignored: see imageSource
    std::vector<int> devices; ///< device indices; empty: the default device
    QString imageSource;      ///< for the "image" distribution: a file or resource path
};

/// A box blur to run on the worker (lane "blur"): the whole image with a border mode and a
/// variant, or the reference text's launches of the interior blur on its 8-bit gray plane.
struct BlurRequest {
    enum class Mode { WholeImage, Launches };
    QString source;                          ///< a file or resource path (as AnalysisRequest)
    QString device = QStringLiteral("auto"); ///< a core device selector (see selectDevice)
    Mode mode = Mode::WholeImage;
    int radius = 1;
    int repeats = 5;
    BorderMode border = BorderMode::Reflect101; ///< WholeImage
    /// WholeImage: each is run in turn (several to compare them); empty means {Auto}.
    std::vector<BlurVariant> variants;
    std::vector<BlurLaunch> launches; ///< Launches; empty means all of them
    /// The previews (original and results) are at most this many pixels on the longer side.
    int maxPreviewSide = 4096;
};

/// One finished blur, as values. The previews are 8-bit QImages of the same size (the high
/// byte of 16-bit data, downscaled alike when the image is larger than maxPreviewSide); the
/// outputs themselves are full size, for saving.
struct BlurResult {
    BlurRequest request;
    DeviceInfo device;
    QSize imageSize;
    int channels = 0; ///< of what was blurred (1 for the launch demonstration)
    int depth = 8;
    QString note;        ///< e.g. the launch demonstration of a color image runs on its luma
    QImage inputPreview; ///< what was blurred: the image, or its gray plane
    std::vector<BlurVariantRow> runs;       ///< WholeImage: one per requested variant
    std::vector<BlurLaunchResult> launches; ///< Launches: one per launch
    std::vector<QImage> previews; ///< one per run or launch, null where there is no output
};

/// The 8-bit gray plane the launch demonstration runs on: a color image's luma (OpenCV's
/// BGR2GRAY), a 16-bit image's high byte; `note` says which (empty for 8-bit gray).
HostImage launchPlane(const HostImage& image, std::string* note = nullptr);

/// A histogram equalization of an image on the worker (lane "equalize"): runEqualize on the
/// image the window shows.
struct EqualizeRequest {
    QString source;                          ///< a file or resource path (as AnalysisRequest)
    QString device = QStringLiteral("auto"); ///< a core device selector (see selectDevice)
    int repeats = 5;
    /// The previews (original and result) are at most this many pixels on the longer side.
    int maxPreviewSide = 4096;
};

/// One finished equalization, as values: the core's run (the full-size output, histogram, CDF,
/// table, per-stage timings, verification) and what the tab draws from it.
struct EqualizeResult {
    EqualizeRequest request;
    DeviceInfo device;
    QSize imageSize;
    int channels = 0;
    int depth = 8;
    QImage inputPreview;  ///< 8-bit, as previewOf
    QImage outputPreview; ///< the same size as inputPreview
    EqualizeRun run;
    /// The histogram of the output's plane (its gray values or luma; run.bins bins), computed
    /// on the CPU from the output: the "after" of the tab's plot.
    std::vector<std::uint64_t> histogramAfter;
};

/// The scan benchmark on the worker (lane "scan"): the per-segment scans at every work-group
/// size from minWorkGroupSize to maxWorkGroupSize (powers of two the device allows), the
/// whole-array scans at their default size, the copy kernel on the same buffer.
struct ScanBenchRequest {
    QString device = QStringLiteral("auto"); ///< a core device selector (see selectDevice)
    std::vector<ScanVariant> variants = allScanVariants();
    std::size_t bytes = 0; ///< of uint32 values; 0: 64 MiB on a GPU, 16 MiB on a CPU device
    int repeats = 5;
    std::size_t minWorkGroupSize = 16;
    std::size_t maxWorkGroupSize = 0; ///< 0: the device's maximum
    ScanDistribution distribution = ScanDistribution::Random;
};

/// What a scan benchmark is about to run, sent before its first point.
struct ScanPlan {
    ScanBenchRequest request;
    DeviceInfo device;
    std::size_t elements = 0;
    std::vector<std::size_t> workGroupSizes; ///< of the per-segment variants
    int points = 0;                          ///< how many points will arrive
};

/// One finished scan benchmark: every point, and the copy kernel's run. Points of the
/// whole-array variants have their percentOfCopy against run.copy too.
struct ScanBenchResult {
    ScanPlan plan;
    ScanRun run;
};

/// A dashboard run on the worker (lane "dashboard"): the chosen pipelines on the chosen devices.
struct DashboardRequest {
    std::vector<int> devices;           ///< device indices; empty: the default device
    std::vector<std::string> pipelines; ///< registered names; empty: all of them
    DashboardOptions options;
};

/// The memory lab on the worker (lane "memory"): on one device, the chosen parts in order:
/// buffer reversal (every variant, core/reverse.h), the bandwidth ceilings per vector width
/// (core/bandwidth.h), the transfer sweep and the kernel launch latency (core/transfer.h).
struct MemoryLabRequest {
    QString device = QStringLiteral("auto"); ///< a core device selector (see selectDevice)
    bool reversal = true;
    bool ceilings = true;
    bool transfers = true;
    std::uint64_t reverseBytes = 0; ///< 0: 16 MiB on a CPU device, 256 MiB on a GPU
    /// The ceilings' buffer (rounded down to 64); 0: 64 MiB on a CPU device, 256 MiB on a GPU
    /// (as histlab-cli memory), never above the device's largest buffer.
    std::uint64_t ceilingBytes = 0;
    /// The transfer sweep's largest size (from 4 KiB); 0: 16 MiB on a CPU device, the core's
    /// default on a GPU (1 GiB, or the device's largest buffer).
    std::uint64_t transferMaxBytes = 0;
    int repeats = 5;
};

/// One finished memory lab run: what the chosen parts measured.
struct MemoryLabResult {
    MemoryLabRequest request;
    DeviceInfo device;
    std::optional<ReverseRun> reversal; ///< when asked for
    MemoryRun memory;                   ///< memory.ceilings, memory.transfers: when asked for
};

class JobBridge : public QObject {
    Q_OBJECT
public:
    /// Large images are shown through a smaller copy made on the worker.
    static constexpr int maxPreviewSide = 2048;

    explicit JobBridge(QObject* parent = nullptr);
    ~JobBridge() override; ///< cancels what runs and joins the worker

    /// Loads the image and computes its histograms on the worker (lane "histogram"), with the
    /// read-only ceiling, if asked CPU verification, and each channel's statistics. Returns at
    /// once with the job's id.
    quint64 analyse(const AnalysisRequest& request);

    /// True until the newest request has answered.
    bool busy() const { return m_pending != 0; }

    /// Cancels the newest analysis if it has not answered; it then fails as Cancelled.
    void cancel();

    /// Lists every OpenCL device and probes its capabilities on the worker (lane "devices");
    /// answers with devicesListed or devicesFailed.
    quint64 listDevices();

    /// Runs an experiment on the worker (lane "experiment"); its points arrive one by one as
    /// experimentPoint, then experimentFinished or experimentFailed. While it runs, analyses
    /// wait their turn: the worker owns the devices, and timings taken side by side would
    /// measure each other.
    quint64 runExperiment(const ExperimentRequest& request);
    void cancelExperiment();
    bool experimentRunning() const { return m_experiment != 0; }

    /// Blurs on the worker (lane "blur": a newer blur cancels the older one); answers with
    /// blurProgress, then blurFinished or blurFailed. The worker keeps the last image it loaded,
    /// so blurring the image the window shows does not read it again.
    quint64 runBlur(const BlurRequest& request);
    void cancelBlur();
    bool blurRunning() const { return m_blur != 0; }

    /// Equalizes on the worker (lane "equalize": a newer one cancels the older one); answers
    /// with equalizeProgress, then equalizeFinished or equalizeFailed.
    quint64 runEqualize(const EqualizeRequest& request);
    void cancelEqualize();
    bool equalizeRunning() const { return m_equalize != 0; }

    /// Runs the scan benchmark on the worker (lane "scan": a newer one cancels the older one):
    /// scanStarted, then each point as scanPoint as it finishes, then scanFinished or
    /// scanFailed.
    quint64 runScans(const ScanBenchRequest& request);
    void cancelScans();
    bool scansRunning() const { return m_scan != 0; }

    /// Runs the dashboard on the worker (lane "dashboard": a newer run cancels the older one):
    /// dashboardStarted with the plan (devices, pipelines, input sizes), then each result as
    /// dashboardResult as it arrives, then dashboardFinished or dashboardFailed.
    quint64 runDashboard(const DashboardRequest& request);
    void cancelDashboard();
    bool dashboardRunning() const { return m_dashboard != 0; }

    /// Runs the memory lab on the worker (lane "memory": a newer run cancels the older one):
    /// each reversal variant as memoryReverseResult, the ceilings as memoryCeilings when the
    /// sweep is done, each transfer point as memoryTransferPoint, then memoryFinished or
    /// memoryFailed.
    quint64 runMemoryLab(const MemoryLabRequest& request);
    void cancelMemoryLab();
    bool memoryLabRunning() const { return m_memory != 0; }

signals:
    /// busy() changed: an analysis was submitted while idle, or the newest one answered.
    void busyChanged(bool busy);
    void devicesListed(quint64 id, const std::vector<histlab::ui::DeviceEntry>& devices);
    void devicesFailed(quint64 id, const histlab::JobError& error);
    void progressChanged(quint64 id, double fraction, const QString& stage);
    void analysisFinished(quint64 id, const histlab::ui::ImageAnalysis& result);
    void analysisFailed(quint64 id, const histlab::JobError& error);
    void experimentPoint(quint64 id, const histlab::ExperimentPoint& point);
    void experimentProgress(quint64 id, double fraction, const QString& what);
    void experimentFinished(quint64 id, const histlab::ExperimentRun& run);
    void experimentFailed(quint64 id, const histlab::JobError& error);
    void blurProgress(quint64 id, double fraction, const QString& stage);
    void blurFinished(quint64 id, const histlab::ui::BlurResult& result);
    void blurFailed(quint64 id, const histlab::JobError& error);
    void equalizeProgress(quint64 id, double fraction, const QString& stage);
    void equalizeFinished(quint64 id, const histlab::ui::EqualizeResult& result);
    void equalizeFailed(quint64 id, const histlab::JobError& error);
    void scanStarted(quint64 id, const histlab::ui::ScanPlan& plan);
    void scanPoint(quint64 id, const histlab::ScanPoint& point);
    void scanProgress(quint64 id, double fraction, const QString& what);
    void scanFinished(quint64 id, const histlab::ui::ScanBenchResult& result);
    void scanFailed(quint64 id, const histlab::JobError& error);
    void dashboardStarted(quint64 id, const histlab::DashboardRun& plan);
    void dashboardResult(quint64 id, const histlab::DashboardResult& result);
    void dashboardProgress(quint64 id, double fraction, const QString& what);
    void dashboardFinished(quint64 id, const histlab::DashboardRun& run);
    void dashboardFailed(quint64 id, const histlab::JobError& error);
    void memoryReverseResult(quint64 id, const histlab::ReverseResult& result);
    void memoryCeilings(quint64 id, const histlab::CeilingSweep& ceilings);
    void memoryTransferPoint(quint64 id, const histlab::TransferPoint& point);
    void memoryProgress(quint64 id, double fraction, const QString& what);
    void memoryFinished(quint64 id, const histlab::ui::MemoryLabResult& result);
    void memoryFailed(quint64 id, const histlab::JobError& error);

private:
    void deliverFinished(quint64 id, const ImageAnalysis& result);
    void deliverFailed(quint64 id, const JobError& error);

    std::unique_ptr<JobRunner> m_runner;
    struct LoadedImage;                    // the last image the worker loaded
    std::shared_ptr<LoadedImage> m_loaded; // copied into each job; only the worker touches it

    quint64 m_latest = 0;  // the newest analysis submitted (GUI thread only)
    quint64 m_pending = 0; // m_latest until it answers, then 0
    template <typename Result>
    JobRunner::Handlers newestOnly(quint64 JobBridge::*current,
                                   void (JobBridge::*progress)(quint64, double, const QString&),
                                   void (JobBridge::*finished)(quint64, const Result&),
                                   void (JobBridge::*failed)(quint64, const JobError&));

    quint64 m_experiment = 0; // the experiment running, or 0
    quint64 m_blur = 0;       // the newest blur until it answers, or 0
    quint64 m_equalize = 0;   // the newest equalization until it answers, or 0
    quint64 m_scan = 0;       // the newest scan benchmark until it answers, or 0
    quint64 m_dashboard = 0;  // the newest dashboard run until it answers, or 0
    quint64 m_memory = 0;     // the newest memory lab run until it answers, or 0
};

} // namespace histlab::ui

Q_DECLARE_METATYPE(histlab::ui::ImageAnalysis)
Q_DECLARE_METATYPE(histlab::JobError)
Q_DECLARE_METATYPE(histlab::ExperimentPoint)
Q_DECLARE_METATYPE(histlab::ExperimentRun)
Q_DECLARE_METATYPE(histlab::ui::BlurResult)
Q_DECLARE_METATYPE(histlab::ui::EqualizeResult)
Q_DECLARE_METATYPE(histlab::ui::ScanPlan)
Q_DECLARE_METATYPE(histlab::ui::ScanBenchResult)
Q_DECLARE_METATYPE(histlab::ScanPoint)
Q_DECLARE_METATYPE(histlab::DashboardRun)
Q_DECLARE_METATYPE(histlab::DashboardResult)
Q_DECLARE_METATYPE(histlab::ReverseResult)
Q_DECLARE_METATYPE(histlab::CeilingSweep)
Q_DECLARE_METATYPE(histlab::TransferPoint)
Q_DECLARE_METATYPE(histlab::ui::MemoryLabResult)
