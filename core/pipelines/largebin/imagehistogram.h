#pragma once
// Exact histograms of an image's channels by the large-bin methods: what `histlab-cli histogram`
// runs for 16-bit images (65,536 bins by default: every value its own bin) and for any image
// with --bins, --range or --method. Each channel is verified slot by slot against the CPU
// reference; statistics come from the exact values (every value its own bin) whatever the bin
// count.
#include "pipelines/histogramstats.h"
#include "pipelines/largebin/largebin.h"

#include <optional>
#include <string>
#include <vector>

namespace histlab {

/// What to count: the channels ("gray", "r", "g", "b", "a"), the bins (0: the type's default),
/// the range (none: the type's), the method.
struct ImageBinsRequest {
    std::vector<std::string> channels;
    int bins = 0;
    std::optional<BinRange> range;
    LargeBinMethod method = LargeBinMethod::Auto;
    int repeats = 5;
    /// Keep each integer channel's counts of every value (ImageChannelBins::valueCounts), which
    /// a stack sums for its statistics.
    bool keepValueCounts = false;
};

struct ImageChannelBins {
    std::string name;
    BinSpec spec;
    LargeHistogram histogram; ///< the CPU reference, equal to the device's when verified
    LargeBinPoint point;      ///< the device run (its slots cleared)
    ChannelStatistics statistics;
    /// Counts of every value (256 or 65,536), where the request keeps them.
    std::vector<std::uint64_t> valueCounts;
};

struct ImageBinsRun {
    DeviceInfo device;
    std::string input; ///< "file, W x H, C channels, D-bit"
    int width = 0, height = 0, channels = 0, depth = 8;
    std::vector<ImageChannelBins> results;
};

/// Whether an image's histogram is the large-bin one (exact bins, NumPy's rule) rather than the
/// tuned 256-bin pipeline: for a 16-bit or float image, and for any image when bins, a range or
/// a method are asked for. The CLI's histogram command and the window's Image tab both ask.
bool runsLargeBins(const HostImage& image, bool binsRangeOrMethodGiven);

/// The channel names of a selection for `image`: "all" -> each channel ("gray" for a gray
/// image; r, g, b(, a) and the luma "gray" for a color one), else the one named.
std::vector<std::string> imageBinChannels(const HostImage& image, const std::string& selection);

/// Runs the request on `image` (8- or 16-bit), channel by channel.
ImageBinsRun runImageBins(Device& device, const HostImage& image, const ImageBinsRequest& request,
                          const CancelToken& cancel = {});

std::string imageBinsText(const ImageBinsRun& run);
/// bin,lo,hi,<channel>...: one row per bin, NumPy's edges.
std::string imageBinsCsv(const ImageBinsRun& run);
std::string imageBinsJson(const ImageBinsRun& run);
std::vector<ChannelStatistics> imageBinsStatistics(const ImageBinsRun& run);

} // namespace histlab
