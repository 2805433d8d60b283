#pragma once
// The Image tab's job: an image's 256-bin histograms, as the worker computes them. JobBridge::
// analyse() runs it on the lane "histogram"; the window shows what it returns.
#include "bridge/imagecache.h"

#include <pipelines/histogram256/histogram256.h>
#include <pipelines/histogram256/histogramstats.h>
#include <runtime/runner.h>

#include <QImage>
#include <QSize>
#include <QString>

#include <optional>
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
    QImage preview;   ///< 8-bit copy for display, at most `maxPreviewSide` on its longer side
    HistogramRun run; ///< histograms, configuration, timings, verification
    std::vector<ChannelStatistics> statistics; ///< one per run.histograms, in the same order
    std::optional<Region> region; ///< as requested; the preview is left empty for a region
};

/// On the worker: loads the image (through `images`), computes its histograms with the
/// read-only ceiling and, if asked, the CPU verification, and each channel's statistics. The
/// preview is at most `maxPreviewSide` pixels on its longer side.
ImageAnalysis analyseImage(const AnalysisRequest& request, ImageCache& images, int maxPreviewSide,
                           JobContext& context);

} // namespace histlab::ui
