#pragma once
// The Image tab's job: an image's histograms, as the worker computes them. The Image tab runs
// it on the lane "histogram" and shows what it returns. Which histogram is the
// core's choice (runsLargeBins): an 8-bit image runs the tuned 256-bin pipeline; a 16-bit or
// float image, or any image with a bin count or large-bin method chosen, runs the exact
// large-bin histograms (every 16-bit value its own bin by default).
#include "bridge/imagecache.h"

#include <pipelines/histogram256/histogram256.h>
#include <pipelines/histogramstats.h>
#include <pipelines/largebin/imagehistogram.h>
#include <runtime/runner.h>

#include <QImage>
#include <QSize>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace histlab::ui {

/// What to analyse and how.
struct AnalysisRequest {
    QString source;                          ///< a file path, or a Qt resource path (":/...")
    int page = 1;                            ///< of a multi-page TIFF, from 1
    QString device = QStringLiteral("auto"); ///< a core device selector (see selectDevice)
    HistogramRequest histogram;              ///< variant and parameters; auto by default
    /// Bins of the large-bin histograms, 1 ... 65,536 (0: the type's default: 256 for 8-bit and
    /// float images, 65,536 for 16-bit); a count given runs them for an 8-bit image too.
    int bins = 0;
    /// The large-bin method; one other than auto runs them for an 8-bit image too.
    LargeBinMethod method = LargeBinMethod::Auto;
    /// A bin count or a method given: the large-bin methods run, whatever the image's type (and
    /// `histogram`'s variant and parameters have no say).
    bool asksLargeBins() const { return bins != 0 || method != LargeBinMethod::Auto; }
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
    int page = 1; ///< the page analysed, of `pages` the file holds (a multi-page TIFF)
    int pages = 1;
    QSize imageSize;  ///< of the file, in pixels
    QImage preview;   ///< 8-bit copy for display, at most `maxPreviewSide` on its longer side
    int depth = 8;    ///< of the file: 8, 16 or 32 (float)
    HistogramRun run; ///< the 256-bin histograms, configuration, timings, verification
    /// The large-bin histograms instead, when the core chose them (then `run` is empty).
    std::optional<ImageBinsRun> largeBins;
    /// One per histogram, in the same order (for 16-bit and float images of the exact values).
    std::vector<ChannelStatistics> statistics;
    std::optional<Region> region; ///< as requested; the preview is left empty for a region
    /// The whole file's pixels, shared read-only with the worker's cache (not a copy): the
    /// hover readout shows the file's values, which the 8-bit preview does not hold.
    std::shared_ptr<const HostImage> pixels;
};

/// An analysed image as soon as it is decoded, before its histograms: what the window shows at
/// once (a 24-megapixel photo's histograms take longer than its decoding).
struct ImagePreview {
    QString source;
    int page = 1;
    int pages = 1;
    QSize imageSize; ///< of the file, in pixels
    QImage preview;  ///< as ImageAnalysis::preview
    int depth = 8;
    std::shared_ptr<const HostImage> pixels; ///< as ImageAnalysis::pixels
};

/// On the worker: loads the image (through `images`), computes its histograms with the
/// read-only ceiling and, if asked, the CPU verification, and each channel's statistics. The
/// preview is at most `maxPreviewSide` pixels on its longer side; for a whole image (no region)
/// it also goes to `previewReady`, if given, before the histograms are computed. The 256-bin
/// histograms go to `countsReady`, if given, as soon as they are counted and verified: the
/// analysis as it will end but for the run's timings (no passes, no ceiling yet).
ImageAnalysis analyseImage(const AnalysisRequest& request, ImageCache& images, int maxPreviewSide,
                           JobContext& context,
                           const std::function<void(const ImagePreview&)>& previewReady = {},
                           const std::function<void(const ImageAnalysis&)>& countsReady = {});

} // namespace histlab::ui
