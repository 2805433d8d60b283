#pragma once
// The histograms of a stack: the pages of a multi-page TIFF read with --page all or --page A-B
// (z-stacks, time series; ImageJ's "Stack Histogram"). Pages are read one at a time from the
// file (openImagePages), each counted by the large-bin methods and verified against its CPU
// reference as one image is (runImageBins); only the page being counted is in memory, besides
// the device's copy of it. The stack's histogram is the sum of the pages' verified counts, its
// statistics those of the summed exact values; each page keeps its own statistics (Fiji's
// per-slice statistics).
#include "pipelines/largebin/imagehistogram.h"
#include "pipelines/pipeline.h"

#include <functional>
#include <string>
#include <vector>

namespace histlab {

/// What a stack run counts: the file, its pages (already checked against the file), the
/// channel selection ("all", "gray", "r", ...) and the large-bin request for each page (its
/// channels are resolved on the first page).
struct ImageStackRequest {
    std::string path;
    int first = 1, last = 1; ///< pages, from 1, both included
    int pagesInFile = 1;
    std::string selection = "all";
    ImageBinsRequest bins;
};

/// What every stack run does before reading a page: the progress ("page P of LAST", the
/// fraction of the pages done), then cancellation (CancelledError), so that a cancel stops the
/// run before the next page is read.
void startStackPage(int page, int first, int last, const CancelToken& cancel,
                    const std::function<void(double, const std::string&)>& progress);
/// ", pages A to B of N": how a stack's input is named after its path.
std::string stackPagesText(int first, int last, int pagesInFile);
/// UsageError("--page") for a stack of 32-bit float pages: its `what` ("histogram") is of 8-
/// or 16-bit pages.
[[noreturn]] void refuseFloatStack(const std::string& path, const std::string& what);
/// The line under a stack's report: "stack: the sum of N pages' verified WHAT; ...".
std::string stackSumLine(std::size_t pages, const std::string& what);

/// The request's pages of `path`, checked now (UsageError("--page") for a range past the last
/// page; InputError naming the file when it cannot be read).
ImageStackRequest planImageStack(const std::string& path, const PageRange& range,
                                 const std::string& selection, ImageBinsRequest bins);

/// One page of a stack: its size and each channel's run (counts emptied once added to the
/// stack's; `binned` keeps their sum).
struct StackPage {
    int page = 0;
    int width = 0, height = 0;
    std::vector<ImageChannelBins> channels;
    std::vector<std::uint64_t> binned;
};

struct ImageStackRun {
    /// The whole stack as one image: each channel's counts summed over the pages, statistics of
    /// the summed exact values, the method's times summed, the first page's failure if any.
    ImageBinsRun stack;
    std::string path;
    int first = 1, last = 1, pagesInFile = 1;
    bool sameSize = true; ///< every page has the first one's width and height
    std::vector<StackPage> pages;
};

/// Runs the request page after page on `device`: the pages must share their channels and depth
/// (InputError naming the page that differs), 8- or 16-bit (UsageError("--page") for float
/// pages), sizes may differ. Progress per page; cancellation between pages and channels.
ImageStackRun runImageStack(Device& device, const ImageStackRequest& request,
                            const CancelToken& cancel,
                            const std::function<void(double, const std::string&)>& progress);

/// The stack's report: the stack's histogram as imageBinsText shows one image, then one row
/// per page and channel (pixels, mean, std.dev, min, max, median, status).
std::string imageStackText(const ImageStackRun& run);
/// page,channel,count,min,max,mean,median,mode,stddev,p1,...,p99,entropy_bits,status: one row
/// per page and channel, then the stack's rows with page "all".
std::string imageStackStatisticsCsv(const ImageStackRun& run);
/// imageBinsJson of the stack, with "pages": [{page, width, height, channels: [{name, binned,
/// below, above, status, detail, median_ms, statistics}]}] and "stack": {path, first, last,
/// pages_in_file}.
std::string imageStackJson(const ImageStackRun& run, const std::string& tool);
/// The stack's report for `tool` ("histlab-cli histogram"): the text, --csv the stack's bins
/// (imageBinsCsv), --json, --stats-csv the statistics per page and of the stack, the verdict
/// (every page's every channel verified). `run` must outlive it.
Report imageStackReport(const ImageStackRun& run, const std::string& tool);

} // namespace histlab
