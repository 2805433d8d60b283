#pragma once
// The UI's one way into the core. JobBridge owns the JobRunner, whose worker thread owns every
// OpenCL object; it submits jobs and re-posts the worker's callbacks to the GUI thread, where
// they leave as signals carrying values. The newest request of a lane wins: the runner cancels
// the older jobs, and a stale answer that still arrives is dropped here, so the UI only ever
// hears about the request it made last.
#include <histogram256.h>
#include <histogramstats.h>
#include <runner.h>

#include <QImage>
#include <QMetaType>
#include <QObject>
#include <QSize>
#include <QString>

#include <memory>
#include <vector>

namespace histlab::ui {

/// What to analyse and how.
struct AnalysisRequest {
    QString source;                          ///< a file path, or a Qt resource path (":/...")
    QString device = QStringLiteral("auto"); ///< a core device selector (see selectDevice)
    HistogramRequest histogram;              ///< variant and parameters; auto by default
    int repeats = 5;
    bool verify = true;
};

/// One finished analysis, as values: the image as it will be shown, the core's run and the
/// statistics of its histograms.
struct ImageAnalysis {
    QString source;
    QSize imageSize;  ///< of the file, in pixels
    QImage preview;   ///< 8-bit copy for display, at most maxPreviewSide on its longer side
    HistogramRun run; ///< histograms, configuration, timings, verification
    std::vector<ChannelStatistics> statistics; ///< one per run.histograms, in the same order
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

signals:
    void progressChanged(quint64 id, double fraction, const QString& stage);
    void analysisFinished(quint64 id, const histlab::ui::ImageAnalysis& result);
    void analysisFailed(quint64 id, const histlab::JobError& error);

private:
    void deliverFinished(quint64 id, const ImageAnalysis& result);
    void deliverFailed(quint64 id, const JobError& error);

    std::unique_ptr<JobRunner> m_runner;
    quint64 m_latest = 0;  // the newest analysis submitted (GUI thread only)
    quint64 m_pending = 0; // m_latest until it answers, then 0
};

} // namespace histlab::ui

Q_DECLARE_METATYPE(histlab::ui::ImageAnalysis)
Q_DECLARE_METATYPE(histlab::JobError)
