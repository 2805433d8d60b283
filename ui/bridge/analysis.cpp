#include "bridge/analysis.h"

#include "bridge/jobbridge.h"

#include <io/imageio.h>

#include <optional>

namespace histlab::ui {

namespace {
// 256 bins per channel: cheap, but they belong with the other values the job returns.
std::vector<ChannelStatistics> statisticsOf(const HistogramRun& run) {
    std::vector<ChannelStatistics> statistics;
    statistics.reserve(run.histograms.size());
    for (const ChannelHistogram& h : run.histograms)
        statistics.push_back(channelStatistics(h.name, h.counts));
    return statistics;
}
} // namespace

ImageAnalysis analyseImage(const AnalysisRequest& request, ImageCache& images, int maxPreviewSide,
                           JobContext& context,
                           const std::function<void(const ImagePreview&)>& previewReady,
                           const std::function<void(const ImageAnalysis&)>& countsReady) {
    // The whole image's preview and CPU reference counts are made on another core while it is
    // decoded (a JPEG's rows as they come), so that after decoding only the device's counts
    // remain before the histograms can be drawn. A region has neither (it is cropped from the
    // image held).
    ReferenceCounter reference;
    StreamedDownscale small(maxPreviewSide);
    StreamedPreview preview(small);
    std::optional<RowPipe> rows;
    if (!request.region)
        rows.emplace(std::vector<RowPipe::Consumer>{reference.consumer(), small.consumer(),
                                                    preview.consumer()});
    const std::shared_ptr<const HostImage> full =
        images.load(context, request.source, request.page, rows ? &*rows : nullptr);
    const bool streamed = rows && rows->complete();
    rows.reset();
    ImageAnalysis result;
    result.source = request.source;
    result.page = request.page;
    result.pages = full->pages;
    result.imageSize = QSize(full->width, full->height);
    result.region = request.region;
    result.pixels = full;
    // A region is analysed on its own (no preview: the window keeps the whole image's).
    HostImage cropped;
    if (request.region)
        cropped = cropImage(*full, *request.region);
    else if (QImage made = preview.take(streamed); !made.isNull())
        result.preview = std::move(made);
    else
        result.preview = previewOf(*full, maxPreviewSide);
    const HostImage& image = request.region ? cropped : *full;
    context.throwIfCancelled();
    if (previewReady && !request.region)
        previewReady({result.source, result.page, result.pages, result.imageSize, result.preview,
                      full->depth, full});

    Device& device = jobDevice(context, request.device, "histograms");
    result.depth = image.depth;
    result.run.sourceDepth = image.depth;
    if (runsLargeBins(image, request.asksLargeBins())) {
        ImageBinsRequest bins;
        bins.channels = imageBinChannels(image, "all");
        bins.bins = request.bins;
        bins.method = request.method;
        bins.repeats = request.repeats;
        context.progress(0.1, "exact histograms");
        result.largeBins = runImageBins(device, image, bins, context.cancelToken());
        result.statistics = imageBinsStatistics(*result.largeBins);
        return result;
    }
    HistogramRunOptions options;
    options.repeats = request.repeats;
    options.verify = request.verify;
    options.maxChunkBytes = request.maxPieceBytes;
    options.reference = reference.result(streamed);
    if (countsReady)
        options.countsReady = [&](const HistogramRun& counted) {
            ImageAnalysis early = result;
            early.run = counted;
            early.statistics = statisticsOf(counted);
            countsReady(early);
        };
    result.run = runHistogram(device, image, request.histogram, options, context.cancelToken(),
                              [&context](double fraction, const std::string& stage) {
                                  context.progress(0.1 + 0.9 * fraction, stage);
                              });
    result.statistics = statisticsOf(result.run);
    return result;
}

} // namespace histlab::ui
