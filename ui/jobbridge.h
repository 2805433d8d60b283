#pragma once
// The UI's one way into the core. JobBridge owns the JobRunner, whose worker thread owns every
// OpenCL object; it submits jobs and re-posts the worker's callbacks to the GUI thread, where
// they leave as signals carrying values. The newest request of a lane wins: the runner cancels
// the older jobs, and a stale answer that still arrives is dropped here, so the UI only ever
// hears about the request it made last.
#include <experiment.h>
#include <histogram256.h>
#include <histogramstats.h>
#include <runner.h>

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
struct DeviceEntry {
    DeviceInfo info;
    std::optional<Capabilities> capabilities; ///< empty when the probes could not run
    std::string probeError;                   ///< why, if they could not
};

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

private:
    void deliverFinished(quint64 id, const ImageAnalysis& result);
    void deliverFailed(quint64 id, const JobError& error);

    std::unique_ptr<JobRunner> m_runner;
    struct LoadedImage;                    // the last image the worker loaded
    std::shared_ptr<LoadedImage> m_loaded; // copied into each job; only the worker touches it

    quint64 m_latest = 0;     // the newest analysis submitted (GUI thread only)
    quint64 m_pending = 0;    // m_latest until it answers, then 0
    quint64 m_experiment = 0; // the experiment running, or 0
};

} // namespace histlab::ui

Q_DECLARE_METATYPE(histlab::ui::ImageAnalysis)
Q_DECLARE_METATYPE(histlab::JobError)
Q_DECLARE_METATYPE(histlab::ExperimentPoint)
Q_DECLARE_METATYPE(histlab::ExperimentRun)
