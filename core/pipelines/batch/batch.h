#pragma once
// A folder of images over every chosen device at once: a pool of host threads decodes the
// images (and counts each one's CPU reference as it goes) into a bounded queue; each device has
// its own thread that takes the next decoded image, runs the pipeline on it and verifies it.
// Results land in the folder's sorted order whatever device finished first, so a rerun writes
// the same file. A broken image is a row with its reason; a device that fails hands its image
// back, and the others finish the folder (the report names the device and what it handed back).
// --shard I/N runs the I-th of N shares of the listing; `merge` joins the shards' tables into
// the one a single run writes, and adds their histograms exactly.
#include "image/image.h"
#include "pipelines/blur/blur.h"
#include "pipelines/bow/collection.h"
#include "pipelines/histogram256/histogram256.h"
#include "pipelines/imageinput.h"
#include "pipelines/largebin/largebin.h"
#include "pipelines/options.h"
#include "pipelines/pipeline.h"
#include "report/table.h"
#include "runtime/device.h"
#include "runtime/devicescheduler.h"
#include "runtime/runner.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace histlab {

/// What batch runs on each image:
///   histogram  each channel's 256 bins and a colour image's luma, in one read
///   joint      the joint histogram of two of its channels, with entropies and MI
///   blur       the box blur (written to --out)
///   equalize   the histogram equalization (written to --out)
enum class BatchPipeline { Histogram, Joint, Blur, Equalize };
/// "histogram", "joint", "blur", "equalize"; UsageError("--pipeline") for any other name.
BatchPipeline parseBatchPipeline(const std::string& name);
const char* batchPipelineName(BatchPipeline pipeline);
/// The columns of a pipeline's table after file, status, width, height, channels and depth:
/// histogram, b0 ... b255; joint's channels, bins, counted and left-out pairs, entropies and
/// MI, then batchColocColumns; blur's radius and border, then (as equalize's) the output file
/// and checksum.
std::vector<std::string> batchValueColumns(BatchPipeline pipeline);
/// joint's colocalisation columns (coloc.h; empty where undefined or not computed): Pearson's
/// r (all, below, above), M1, M2, tM1, tM2, Costes' thresholds and line, ICQ, the pairs above
/// both thresholds.
std::vector<std::string> batchColocColumns();
/// blur, equalize: where among the values the file written under --out is (the checksum
/// follows it).
std::size_t batchOutputColumn(BatchPipeline pipeline);

/// Where the images come from: a folder's image files (sorted; one shard of them), or N
/// synthetic images of one shape (what a GPU machine without an image decoder runs).
struct BatchSource {
    std::string folder; ///< "" for a list of files given as they are (the window's Images list)
    bool recursive = false;
    Shard shard;
    std::size_t images = 0;         ///< synthetic (BatchParams::synthetic): how many
    std::vector<std::string> files; ///< listed by prepare (synthetic: their names)
    std::size_t skipped = 0;        ///< files of other kinds in the folder
    /// The rows that are pages of a multi-page TIFF ("stack.tif#3", pages from 1): each its
    /// file and page. A file of one page keeps its plain name and is not here.
    std::map<std::string, std::pair<std::string, int>> pages;
};

struct BatchParams {
    BatchSource source;
    /// --synthetic KIND --width W --height H --channels C --depth D: the synthetic images'
    /// shape (its path unused).
    ImageInput synthetic;
    BatchPipeline pipeline = BatchPipeline::Histogram;
    int jobs = 0;      ///< decoding threads (0: one per hardware thread)
    DeviceFault fault; ///< HISTLAB_DEVICE_FAIL: the P-th device fails on its N-th image
    // joint
    std::string pair;                        ///< --pair A,B: two channels (required)
    std::optional<std::pair<int, int>> bins; ///< --bins (default 256 x 256)
    std::optional<BinRange> rangeA, rangeB;  ///< default: the whole type
    std::optional<std::string> coloc;        ///< --coloc stepwise | bisection | off
    // blur
    std::optional<int> radius;        ///< --radius (default 1)
    std::optional<BorderMode> border; ///< --border (default reflect101, OpenCV's)
    // blur, equalize
    std::string out;                  ///< --out FOLDER: each result written there ("": none)
    std::vector<std::string> outputs; ///< listed by prepare: each file's output, relative to out
};

/// Where `file` of the listing is read from: the folder's file, or `file` itself without one
/// (a page's row, "stack.tif#3", is read from its file).
std::string batchFilePath(const BatchSource& source, const std::string& file);

/// The rows of `files` (of source's folder): every page of a multi-page TIFF its own row,
/// "FILE#P" with P from 1, recorded in source.pages; other files (and a TIFF whose pages
/// cannot be counted, whose row then says why) as they are.
std::vector<std::string> batchPageRows(BatchSource& source, const std::vector<std::string>& files);

/// The listing (InputError naming the folder; a build without an image reader refused) or
/// the synthetic names, and the checks of the options: batch's prepare step.
void prepareBatch(BatchParams& params);

/// One image's outcome.
struct BatchImage {
    std::string file;      ///< relative to the folder, '/' separators
    std::string error;     ///< why it has no histograms ("" when it has)
    int device = -1;       ///< position among the chosen devices that ran it (-1: none)
    bool redone = false;   ///< handed back by a device that failed, then run by another
    bool verified = false; ///< equal to the CPU reference, bin for bin
    int width = 0, height = 0, channels = 0, depth = 0;
    /// "gray" for gray images; "r", "g", "b"(, "a") and the luma "gray" for colour ones. 256
    /// bins: one per value of 8-bit images, 256 values each of 16-bit ones.
    std::vector<ChannelHistogram> histograms;
    /// joint, blur, equalize: the values of batchValueColumns (all empty when not counted)
    std::vector<std::string> values;
    double decodeMs = 0; ///< decoding and the CPU reference, on a host thread
    double deviceMs = 0; ///< upload, kernels, read-back and comparison, on the device's thread
    double writeMs = 0;  ///< --out: encoding and writing the result, on a host thread
};

/// One device's share of the run.
struct BatchDevice {
    DeviceInfo info;
    int index = -1;             ///< in the device list (histlab-cli devices)
    std::size_t images = 0;     ///< images it ran (verified or not)
    double busyMs = 0;          ///< time in its images' work
    double waitMs = 0;          ///< time waiting for a decoded image
    std::string config;         ///< what ran there (the histogram kernel's configuration)
    std::string failure;        ///< why it stopped, when it failed
    std::size_t handedBack = 0; ///< images it handed back when it failed
};

struct BatchResult {
    BatchParams params;
    std::vector<BatchImage> images; ///< in listing order
    std::vector<BatchDevice> devices;
    int jobs = 0;        ///< decoding threads that ran
    double wallMs = 0;   ///< the whole run
    double decodeMs = 0; ///< summed over the images (thread time)
    double writeMs = 0;  ///< summed over the images (thread time)
    std::size_t failed = 0, mismatches = 0;
};

/// What the run streams after each image: the image, and the pace so far.
struct BatchProgress {
    BatchImage image;
    int deviceIndex = -1; ///< the device that ran it, in the device list (-1: none)
    std::size_t done = 0, total = 0;
    double imagesPerSecond = 0;
    double secondsLeft = 0;
};

/// Runs the batch on the devices at `devices` (ctx's indices), one host thread each, decoding
/// on params.jobs threads; `onImage` gets each finished image in completion order, on the
/// calling thread.
BatchResult runBatch(JobContext& ctx, const std::vector<int>& devices, const BatchParams& params,
                     const std::function<void(const BatchProgress&)>& onImage = {});

/// The batch command's plan: the parameters as given (prepareBatch made every check).
BatchParams planBatch(const std::vector<DeviceInfo>& devices, const BatchParams& params);

/// The batch command's run: runBatch, streaming each image's BatchProgress as an item.
BatchResult runBatchJob(JobContext& ctx, const std::vector<int>& devices, const BatchParams& plan,
                        const ItemSink& onItem);

/// What histlab-cli merge reads: batch tables or histogram CSVs.
struct MergeInput {
    std::vector<std::string> files;
};

/// merge's result: the batch tables joined, or the histogram CSVs added.
struct MergeOutput {
    std::vector<std::string> files;
    bool tables = false;
    BatchPipeline pipeline = BatchPipeline::Histogram; ///< the batch tables'
    std::vector<BatchImage> images;                    ///< batch tables joined
    Table added;                                       ///< histogram CSVs added
};

/// merge's plan: the files as given (it runs on the host only).
MergeInput planMerge(const std::vector<DeviceInfo>& devices, const MergeInput& params);

/// merge's run, on the host: the files joined or added (InputError naming a bad one).
MergeOutput runMergeJob(JobContext& ctx, const std::vector<int>& devices, const MergeInput& plan,
                        const ItemSink& onItem);

/// The sums of the verified images' histograms, by name: r, g, b, a, then gray (a gray
/// image's values and a colour image's luma).
std::vector<ChannelHistogram> batchTotals(const std::vector<BatchImage>& images);

/// The CSV of a run: file, status, detail, width, height, channels, depth, then the pipeline's
/// batchValueColumns. The status is statusName's word (verified, mismatch, unsupported,
/// failed), the detail the image's error. histogram: one row an image and histogram
/// (histogram, b0 ... b255); the others: one row an image. A failed image is one row with its
/// reason and no values.
std::string batchCsv(BatchPipeline pipeline, const std::vector<BatchImage>& images);

/// A table as batchCsv writes it, read back for merge.
struct BatchTable {
    BatchPipeline pipeline = BatchPipeline::Histogram;
    std::vector<BatchImage> images;
};

/// A table back from batchCsv text, for merge: InputError naming `source` (and the line) for
/// a header of no pipeline, a count that is not a whole number, rows of one file apart.
BatchTable parseBatchCsv(const std::string& text, const std::string& source);

/// Batch tables read a row at a time into one list of images, as merge joins shards (so a table
/// is never held whole): every table's header names the first one's pipeline, an image's rows
/// (one per histogram) are together, no file is in two rows or two tables, every number is read
/// once by a checked parser, joint's and blur's settings are one run's, and the verified
/// histograms' totals stay within 2^64 - 1. InputError "FILE:LINE: column: 'text' is not ...".
class BatchTableReader {
public:
    /// Starts the table `source` with its header; its pipeline.
    BatchPipeline begin(const std::vector<std::string>& header, const std::string& source);
    /// A row of the table begun last, the `line` it began on.
    void add(const std::vector<std::string>& row, std::size_t line);
    /// The images so far, in the tables' order.
    std::vector<BatchImage>& images() { return m_images; }

private:
    struct Total {
        std::array<std::uint64_t, 256> counts{};
        std::uint64_t sum = 0;
    };
    BatchPipeline m_pipeline = BatchPipeline::Histogram;
    std::vector<std::string> m_columns, m_sources;
    std::vector<BatchImage> m_images;
    std::size_t m_tableStart = 0;
    std::map<std::string, std::size_t> m_seen; // file -> table
    std::map<std::string, Total> m_totals;     // verified histograms, by channel
    std::string m_setting, m_settingFrom;
    /// The table is of the older shape (file, status, width ...: the error in the status
    /// column's place); its rows are read as the current shape.
    bool m_withoutDetail = false;
    /// A joint table of the older shape, without the colocalisation columns (read as empty).
    bool m_withoutColoc = false;
};

/// Shards' tables joined in listing order; InputError naming a file two shards hold.
std::vector<BatchImage> mergeBatchTables(const std::vector<std::vector<BatchImage>>& shards,
                                         const std::vector<std::string>& sources);

} // namespace histlab
