// Folders of images over every chosen device, as the front ends see it:
//   batch   each image of a folder (or of one shard of it, or N synthetic images) through a
//           pipeline on every chosen device at once, decoding on the host's cores meanwhile
//   merge   batch shards' tables joined into the one a single run writes, or histogram CSVs
//           added bin by bin
// Metric: images a second over the whole run (wall clock), and each device's busy fraction
// (the time in its images' uploads, kernels, read-backs and comparisons over the wall clock).
#include "pipelines/batch/batch.h"
#include "pipelines/histogram256/histogramreport.h"
#include "pipelines/imageinput.h"
#include "pipelines/largebin/coloc.h"
#include "pipelines/largebin/joint.h"
#include "pipelines/options.h"
#include "pipelines/pipeline.h"
#include "report/files.h"
#include "report/json.h"
#include "report/table.h"
#include "report/text.h"
#include "runtime/errors.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <sstream>

namespace histlab {

namespace {

std::string percentText(double part, double whole) {
    return fixedText(whole > 0 ? 100.0 * part / whole : 0.0, 1) + " %";
}

std::string deviceName(const BatchResult& r, int k) {
    if (k < 0 || std::size_t(k) >= r.devices.size())
        return "-";
    return "device " + std::to_string(r.devices[std::size_t(k)].index);
}

std::string totalsText(const std::vector<BatchImage>& images) {
    std::ostringstream out;
    const std::vector<ChannelHistogram> totals = batchTotals(images);
    std::size_t verified = 0;
    for (const BatchImage& image : images)
        verified += image.verified ? 1 : 0;
    if (totals.empty())
        return "";
    out << "totals over the " << verified << " verified images:\n";
    for (const ChannelHistogram& h : totals) {
        std::uint64_t sum = 0;
        for (std::uint64_t c : h.counts)
            sum += c;
        out << "  " << h.name << std::string(h.name.size() < 5 ? 5 - h.name.size() : 0, ' ')
            << sparkline(h.counts.data(), 256) << "  " << sum << " values\n";
    }
    return out.str();
}

/// joint: the MI's spread over the verified images.
std::string miText(const std::vector<BatchImage>& images) {
    std::vector<double> mi;
    for (const BatchImage& image : images)
        if (image.verified && image.values.size() > 8)
            if (const std::optional<double> v = parseFiniteNumber(image.values[8]))
                mi.push_back(*v);
    if (mi.empty())
        return "";
    std::sort(mi.begin(), mi.end());
    return "MI of the " + std::to_string(mi.size()) + " verified images: min " +
           fixedText(mi.front(), 4) + ", median " + fixedText(mi[mi.size() / 2], 4) + ", max " +
           fixedText(mi.back(), 4) + " bits (each image's entropies and MI: --csv)\n";
}

/// blur, equalize: where the results went.
std::string writtenText(const BatchResult& r) {
    std::size_t written = 0;
    const std::size_t column = batchOutputColumn(r.params.pipeline);
    for (const BatchImage& image : r.images)
        written += image.values.size() > column && !image.values[column].empty() ? 1 : 0;
    if (r.params.out.empty())
        return "results checked and not kept (--out FOLDER writes each one as PNG)\n";
    return std::to_string(written) + " results written to " + r.params.out + " (PNG), " +
           fixedText(r.writeMs / 1000.0, 2) + " s of thread time\n";
}

std::string failuresText(const std::vector<BatchImage>& images) {
    std::ostringstream out;
    std::size_t shown = 0, failed = 0;
    for (const BatchImage& image : images)
        if (!image.error.empty()) {
            ++failed;
            if (shown < 20) {
                out << "  " << image.file << ": " << image.error << '\n';
                ++shown;
            }
        }
    if (failed > shown)
        out << "  ... and " << failed - shown << " more (the table has every one)\n";
    return failed ? "not counted:\n" + out.str() : "";
}

std::string batchText(const BatchResult& r) {
    std::ostringstream out;
    const BatchSource& s = r.params.source;
    out << "batch: " << batchPipelineName(r.params.pipeline) << " of " << r.images.size()
        << " images";
    const ImageInput& shape = r.params.synthetic;
    if (shape.synthetic)
        out << " (synthetic " << syntheticKindName(*shape.synthetic) << ", " << shape.width << " x "
            << shape.height << ", " << shape.channels << " channels, " << shape.depth << "-bit)";
    else
        out << " in " << s.folder;
    if (s.shard.count > 1)
        out << ", shard " << s.shard.index << "/" << s.shard.count;
    if (s.skipped)
        out << " (" << s.skipped << " other files skipped)";
    out << "; " << r.jobs << " decoding thread" << (r.jobs == 1 ? "" : "s") << ", "
        << r.devices.size() << " device" << (r.devices.size() == 1 ? "" : "s") << '\n';
    for (const BatchDevice& d : r.devices) {
        out << "device " << d.index << " (" << d.info.name << "): " << d.images << " images, busy "
            << percentText(d.busyMs, r.wallMs) << ", waiting for images "
            << percentText(d.waitMs, r.wallMs);
        if (!d.config.empty())
            out << "; " << d.config;
        out << '\n';
        if (!d.failure.empty())
            out << "  failed after " << d.images << " images: " << d.failure << "; " << d.handedBack
                << " image" << (d.handedBack == 1 ? "" : "s")
                << " handed back to the other devices\n";
    }
    std::size_t redone = 0;
    for (const BatchImage& image : r.images)
        redone += image.redone ? 1 : 0;
    const double seconds = r.wallMs / 1000.0;
    out << r.images.size() - r.failed << " verified, " << r.failed - r.mismatches
        << " not counted, " << r.mismatches << " differing from the CPU reference";
    if (redone)
        out << "; " << redone << " redone on another device";
    out << '\n';
    out << "wall " << fixedText(seconds, 2)
        << " s: " << fixedText(seconds > 0 ? double(r.images.size()) / seconds : 0.0, 1)
        << " images/s; decoding " << fixedText(r.decodeMs / 1000.0, 2) << " s of thread time\n";
    out << failuresText(r.images);
    switch (r.params.pipeline) {
    case BatchPipeline::Histogram:
        out << totalsText(r.images);
        break;
    case BatchPipeline::Joint:
        out << miText(r.images);
        break;
    case BatchPipeline::Blur:
    case BatchPipeline::Equalize:
        out << writtenText(r);
        break;
    }
    return out.str();
}

/// An image's values by their columns (joint, blur, equalize).
Json valuesJson(BatchPipeline pipeline, const BatchImage& image) {
    Json values = Json::object();
    const std::vector<std::string> columns = batchValueColumns(pipeline);
    for (std::size_t c = 0; c < columns.size() && c < image.values.size(); ++c)
        values[columns[c]] = image.values[c];
    return values;
}

std::string batchJson(const BatchResult& r) {
    const BatchSource& s = r.params.source;
    Json source = {{"shard", std::to_string(s.shard.index) + "/" + std::to_string(s.shard.count)}};
    const ImageInput& shape = r.params.synthetic;
    if (shape.synthetic) {
        source["synthetic"] = syntheticKindName(*shape.synthetic);
        source["width"] = shape.width;
        source["height"] = shape.height;
        source["channels"] = shape.channels;
        source["depth"] = shape.depth;
    } else {
        source["folder"] = s.folder;
        source["recursive"] = s.recursive;
        source["skipped"] = s.skipped;
    }
    Json devices = Json::array();
    for (const BatchDevice& d : r.devices)
        devices.push_back({{"device", deviceJson(d.info)},
                           {"index", d.index},
                           {"images", d.images},
                           {"busy_ms", d.busyMs},
                           {"busy_fraction", r.wallMs > 0 ? d.busyMs / r.wallMs : 0.0},
                           {"wait_ms", d.waitMs},
                           {"wait_fraction", r.wallMs > 0 ? d.waitMs / r.wallMs : 0.0},
                           {"config", d.config},
                           {"failure", d.failure},
                           {"handed_back", d.handedBack}});
    Json images = Json::array();
    for (const BatchImage& image : r.images) {
        Json j = {{"file", image.file},
                  {"status", image.error.empty() ? "verified" : image.error},
                  {"device", image.device < 0 ? -1 : r.devices[std::size_t(image.device)].index},
                  {"redone", image.redone},
                  {"decode_ms", image.decodeMs},
                  {"device_ms", image.deviceMs}};
        if (image.width) {
            j["width"] = image.width;
            j["height"] = image.height;
            j["channels"] = image.channels;
            j["depth"] = image.depth;
        }
        if (r.params.pipeline == BatchPipeline::Histogram) {
            j["histograms"] = histogramsJson(image.histograms);
        } else {
            j["values"] = valuesJson(r.params.pipeline, image);
            if (!r.params.out.empty())
                j["write_ms"] = image.writeMs;
        }
        images.push_back(j);
    }
    if (!r.params.out.empty())
        source["out"] = r.params.out;
    const double seconds = r.wallMs / 1000.0;
    return jsonText({{"tool", "histlab-cli batch"},
                     {"date", utcTimestamp()},
                     {"pipeline", batchPipelineName(r.params.pipeline)},
                     {"source", source},
                     {"jobs", r.jobs},
                     {"devices", devices},
                     {"wall_ms", r.wallMs},
                     {"images_per_s", seconds > 0 ? double(r.images.size()) / seconds : 0.0},
                     {"decode_ms", r.decodeMs},
                     {"failed", r.failed},
                     {"mismatches", r.mismatches},
                     {"images", images},
                     {"totals", histogramsJson(batchTotals(r.images))}});
}

/// The window's table: each image's outcome, times and (joint, blur, equalize) values.
Table batchTable(const BatchResult& r) {
    std::vector<std::string> columns = {"file",     "status", "device",    "width",    "height",
                                        "channels", "depth",  "decode_ms", "device_ms"};
    const bool values = r.params.pipeline != BatchPipeline::Histogram;
    if (values)
        for (const std::string& c : batchValueColumns(r.params.pipeline))
            columns.push_back(c);
    Table t(columns);
    for (const BatchImage& image : r.images) {
        t.row().add(image.file).add(image.error.empty() ? "verified" : image.error);
        t.add(deviceName(r, image.device));
        t.add(image.width).add(image.height).add(image.channels).add(image.depth);
        t.add(image.decodeMs).add(image.deviceMs);
        if (!values)
            continue;
        for (std::size_t c = 0; c < columns.size() - 9; ++c) {
            if (c < image.values.size())
                t.add(image.values[c]);
            else
                t.skip();
        }
    }
    return t;
}

std::string describeBatchItem(const std::any& item) {
    const BatchProgress& p = std::any_cast<const BatchProgress&>(item);
    std::ostringstream out;
    out << p.image.file << ": " << (p.image.error.empty() ? "verified" : p.image.error);
    if (p.deviceIndex >= 0)
        out << " (device " << p.deviceIndex << (p.image.redone ? ", redone" : "") << ")";
    out << "; " << p.done << " of " << p.total << ", " << fixedText(p.imagesPerSecond, 1)
        << " images/s, " << fixedText(p.secondsLeft, 0) << " s left";
    return out.str();
}

void setBatchFolder(BatchParams& p, const std::string& folder) {
    if (!p.source.folder.empty())
        throw UsageError("batch", "more than one folder given ('" + p.source.folder + "', '" +
                                      folder + "')");
    p.source.folder = folder;
}

// ---------------------------------------------------------------------------------------------
// merge: batch tables joined, or histogram CSVs added.

/// Whether a histogram CSV's column names a bin rather than counts: bin, lo, hi, or a channel's
/// own edges (r_lo, r_hi: a float colour image's channels each binned over their own range).
bool isBinColumn(const std::string& name) {
    auto endsWith = [&](const char* tail) {
        const std::size_t n = std::strlen(tail);
        return name.size() > n && name.compare(name.size() - n, n, tail) == 0;
    };
    return name == "bin" || name == "lo" || name == "hi" || endsWith("_lo") || endsWith("_hi");
}

/// Histogram CSVs (histlab-cli histogram --csv: bin[,lo,hi],<channel>... or
/// bin,<channel>_lo,<channel>_hi,<channel>...) added bin by bin, each read a row at a time: the
/// same header and bins in each; the bin columns must agree, the counts are summed, and a sum
/// past 2^64 - 1 is refused (naming the file, line and column).
Table addHistogramCsvs(const std::vector<std::string>& sources) {
    std::vector<std::string> header;
    std::vector<bool> binColumn;
    std::vector<std::vector<std::string>> keys; // the first file's bin columns, a row each
    std::vector<std::vector<std::uint64_t>> sums;
    std::vector<std::string> row;
    for (std::size_t f = 0; f < sources.size(); ++f) {
        CsvReader in(sources[f], kTextFileLimit, "a histogram CSV");
        if (!in.next(row))
            throw InputError(sources[f] + ": empty (no header)");
        if (f == 0) {
            if (row.empty() || row[0] != "bin")
                throw InputError(sources[f] + ": neither a batch table (file, status, ...) nor "
                                              "a histogram CSV (bin, <channel>...)");
            header = row;
            for (const std::string& name : header)
                binColumn.push_back(isBinColumn(name));
        } else if (row != header) {
            throw InputError(sources[f] + ": its columns differ from " + sources[0] + "'s");
        }
        std::size_t bins = 0;
        while (in.next(row)) {
            const std::string at = sources[f] + ":" + std::to_string(in.line()) + ": ";
            if (row.size() != header.size())
                throw InputError(at + std::to_string(row.size()) + " fields, not " +
                                 std::to_string(header.size()));
            if (f == 0) {
                keys.emplace_back();
                for (std::size_t c = 0; c < header.size(); ++c)
                    if (binColumn[c])
                        keys.back().push_back(row[c]);
                sums.emplace_back(header.size() - keys.back().size(), 0);
            } else if (bins >= keys.size()) {
                throw InputError(sources[f] + ": more than the " + std::to_string(keys.size()) +
                                 " bins of " + sources[0]);
            }
            for (std::size_t c = 0, k = 0, n = 0; c < header.size(); ++c) {
                if (binColumn[c]) {
                    if (row[c] != keys[bins][k])
                        throw InputError(at + header[c] + " " + row[c] + ", " + sources[0] + " " +
                                         keys[bins][k]);
                    ++k;
                    continue;
                }
                const std::optional<std::uint64_t> x = parseCount(row[c]);
                if (!x)
                    throw InputError(at + header[c] + ": '" + row[c] + "' is not a whole number");
                std::uint64_t& sum = sums[bins][n++];
                if (__builtin_add_overflow(sum, *x, &sum))
                    throw InputError(at + header[c] + ": '" + row[c] + "' takes the sum of bin " +
                                     keys[bins][0] + " past 2^64 - 1");
            }
            ++bins;
        }
        if (bins != keys.size())
            throw InputError(sources[f] + ": " + std::to_string(bins) + " bins, " + sources[0] +
                             " " + std::to_string(keys.size()));
    }
    Table t(header);
    for (std::size_t i = 0; i < keys.size(); ++i) {
        t.row();
        for (std::size_t c = 0, k = 0, n = 0; c < header.size(); ++c)
            if (binColumn[c])
                t.add(keys[i][k++]);
            else
                t.add(sums[i][n++]);
    }
    return t;
}

/// The files joined (batch tables) or added (histogram CSVs), by their first header.
MergeOutput mergeFiles(const MergeInput& input) {
    MergeOutput out;
    out.files = input.files;
    // Each table is read a row at a time and its rows kept as images (a histogram row as 256
    // numbers): memory follows the result, not the text of the input.
    std::vector<std::string> row;
    BatchTableReader reader;
    for (std::size_t f = 0; f < input.files.size(); ++f) {
        const std::string& path = input.files[f];
        CsvReader in(path, kTextFileLimit, "a table");
        if (!in.next(row))
            throw InputError(path + ": empty (no header)");
        if (f == 0 && (row.empty() || row[0] != "file")) {
            out.added = addHistogramCsvs(input.files);
            return out;
        }
        const BatchPipeline pipeline = reader.begin(row, path);
        if (f == 0)
            out.pipeline = pipeline;
        while (in.next(row))
            reader.add(row, in.line());
    }
    out.tables = true;
    out.images = std::move(reader.images());
    std::stable_sort(out.images.begin(), out.images.end(),
                     [](const BatchImage& a, const BatchImage& b) { return a.file < b.file; });
    return out;
}

/// The batch command's report: the text, table, CSV and JSON, and the verdict of the images.
Report batchReport(const BatchResult& result) {
    Report r;
    r.text = batchText(result);
    r.table = batchTable(result);
    r.csv = [&result] { return batchCsv(result.params.pipeline, result.images); };
    r.json = [&result] { return batchJson(result); };
    bool anyDeviceRan = false;
    for (const BatchDevice& d : result.devices)
        anyDeviceRan = anyDeviceRan || d.images > 0;
    // Images left when every device had failed (runBatch's "not run" rows).
    // --out results that could not be written (a full or read-only disk, a folder of
    // that name): the rows say why, and the run is not a success.
    std::size_t notRun = 0, notWritten = 0;
    for (const BatchImage& image : result.images) {
        notRun += image.error.rfind("not run: every device failed", 0) == 0 ? 1 : 0;
        notWritten += image.error.rfind("not written: ", 0) == 0 ? 1 : 0;
    }
    if (result.mismatches)
        r.verdict = {Verdict::Kind::Mismatch,
                     std::to_string(result.mismatches) + " images differ from the CPU reference"};
    else if (!result.images.empty() && !anyDeviceRan && !result.devices.empty() &&
             !result.devices.front().failure.empty())
        r.verdict = {Verdict::Kind::NothingRan,
                     "no device could run: " + result.devices.front().failure};
    else if (notRun)
        r.verdict = {Verdict::Kind::NothingRan, "every device failed: " + std::to_string(notRun) +
                                                    " of " + std::to_string(result.images.size()) +
                                                    " images not run"};
    else if (notWritten)
        r.verdict = {Verdict::Kind::NotWritten, std::to_string(notWritten) + " of " +
                                                    std::to_string(result.images.size()) +
                                                    " results not written (see the table)"};
    else if (!result.images.empty() && result.failed == result.images.size())
        r.verdict = {Verdict::Kind::NoInput, "none of the " + std::to_string(result.images.size()) +
                                                 " images could be counted (see the table)"};
    return r;
}

} // namespace

BatchParams planBatch(const std::vector<DeviceInfo>&, const BatchParams& params) {
    return params;
}

BatchResult runBatchJob(JobContext& ctx, const std::vector<int>& devices, const BatchParams& plan,
                        const ItemSink& onItem) {
    return runBatch(ctx, devices, plan, [&](const BatchProgress& progress) {
        if (onItem)
            onItem(std::any(progress));
    });
}

MergeInput planMerge(const std::vector<DeviceInfo>&, const MergeInput& params) {
    return params;
}

MergeOutput runMergeJob(JobContext&, const std::vector<int>&, const MergeInput& plan,
                        const ItemSink&) {
    return mergeFiles(plan);
}

Pipeline batchPipeline() {
    Pipeline p;
    p.name = "batch";
    p.summary = "a folder of images (or N synthetic ones) through a pipeline on every chosen "
                "device at once, decoded on the host's cores meanwhile; --shard I/N for a "
                "cluster";
    p.description =
        "Lists FOLDER's images (sorted by name; --recursive for subfolders; --shard I/N for "
        "the I-th of N shares), decodes them on --jobs host threads (each image's CPU "
        "reference counted as it is decoded) into a bounded queue, and gives each chosen "
        "device (--device all, or a comma list) the next decoded image on a thread of its own. "
        "The table lists the images in the folder's order whatever device finished first, so "
        "a rerun writes the same file; an image that cannot be read is a row with its reason. "
        "A device that fails hands its image back and the others finish the folder; the "
        "report names it. Pipelines: histogram (each channel's 256 bins and a colour image's "
        "luma, in one read; 16-bit images in 256 bins of 256 values), joint (the joint "
        "histogram of two channels, with entropies and MI; auto's method timed on each "
        "device's first image), blur and equalize (each result checked byte for byte, then "
        "written with --out). Each image's CPU reference is made on the decoding threads. "
        "Metric: images a second "
        "(wall clock) and each device's busy and waiting fractions. For tests, "
        "HISTLAB_DEVICE_FAIL=P:N makes the device at position P of those chosen fail on the "
        "N-th image it takes (from 0).";
    p.reference = "each image's histograms equal its CPU reference, counted as it is decoded, "
                  "bin for bin";
    p.devices = Pipeline::Devices::Many;
    using P = BatchParams;
    p.options = {
        valueOption<P>("FOLDER", "", "the folder of images",
                       [](P& s, const std::string& v) { setBatchFolder(s, v); }),
        valueOption<P>("--pipeline", "NAME",
                       "what runs on each image: histogram (default; each channel's 256 bins "
                       "and a colour image's luma) | joint (two channels' joint histogram, "
                       "entropies and MI; --pair A,B) | blur (the box blur; --radius, "
                       "--border) | equalize (histogram equalization); blur and equalize write "
                       "their results with --out FOLDER",
                       [](P& s, const std::string& v) { s.pipeline = parseBatchPipeline(v); }),
        valueOption<P>("--pair", "A,B",
                       "joint: the two channels of each image, of gray (a colour image's luma), "
                       "r, g, b, a",
                       [](P& s, const std::string& v) { s.pair = v; }),
        valueOption<P>("--bins", "BX[,BY]",
                       "joint: bins per axis, 1 to 1024 each (default 256,256)",
                       [](P& s, const std::string& v) { s.bins = parseJointBins(v); }),
        valueOption<P>(
            "--range-a", "LO,HI", "joint: A's binned range (default: the whole type)",
            [](P& s, const std::string& v) { s.rangeA = parseBinRange(v, "--range-a"); }),
        valueOption<P>(
            "--range-b", "LO,HI", "joint: B's binned range (default: the whole type)",
            [](P& s, const std::string& v) { s.rangeB = parseBinRange(v, "--range-b"); }),
        valueOption<P>("--coloc", "S",
                       "joint: Costes' threshold search, stepwise (default) | bisection | off "
                       "(the colocalisation columns left empty), as histlab-cli joint --coloc",
                       [](P& s, const std::string& v) {
                           parseColocChoice("--coloc", v); // refused now, by name
                           s.coloc = v;
                       }),
        valueOption<P>("--radius", "R",
                       "blur: a window of (2R + 1) x (2R + 1) pixels, 1 to 1024 (default 1)",
                       [](P& s, const std::string& v) {
                           s.radius = int(parseWholeNumber("--radius", v, 1, 1024));
                       }),
        valueOption<P>("--border", "MODE",
                       "blur: interior | replicate | reflect101 (default, OpenCV's)",
                       [](P& s, const std::string& v) { s.border = parseBorderMode(v); }),
        valueOption<P>("--out", "FOLDER",
                       "blur, equalize: write each verified result there as PNG, under the "
                       "image's relative path with .png for its extension (made if missing; "
                       "never the images' folder)",
                       [](P& s, const std::string& v) {
                           if (v.empty())
                               throw UsageError("--out", "the folder is empty");
                           s.out = v;
                       }),
        valueOption<P>("--jobs", "N",
                       "host threads decoding images (and writing --out results; default: one per "
                       "hardware thread)",
                       [](P& s, const std::string& v) {
                           s.jobs = int(parseWholeNumber("--jobs", v, 1, 1024));
                       }),
        flagOption<P>("--recursive", "the folder's subfolders too",
                      [](P& s) { s.source.recursive = true; }),
        valueOption<P>("--shard", "I/N", shardHelp(),
                       [](P& s, const std::string& v) { s.source.shard = parseShard(v); }),
        valueOption<P>("--images", "N", "how many synthetic images",
                       [](P& s, const std::string& v) {
                           s.source.images =
                               std::size_t(parseWholeNumber("--images", v, 1, 1ll << 32));
                       }),
    };
    // --synthetic KIND --width --height --channels --depth, as every image command has them.
    std::vector<PipelineOption> synthetic = syntheticImageOptions<P>(&P::synthetic);
    synthetic.front() = syntheticKindOption<P>(
        &P::synthetic, "random | uniform | gradient | skewed images instead of a folder, with "
                       "--images N --width W --height H [--channels 1|3|4] [--depth 8|16]");
    p.options.insert(p.options.end(), synthetic.begin(), synthetic.end());
    p.csvHelp =
        "the folder's order: file, status (verified, mismatch, unsupported or failed), detail "
        "(the reason), width, height, channels, depth, then histogram: one row an image and "
        "histogram (histogram, "
        "b0 ... b255); joint: one row an image (a, b, bins, counted, left_out, h_a, h_b, "
        "h_ab, mi, nmi: entropies in bits, nmi Studholme's); blur: one row an image (radius, "
        "border, blurred, checksum), equalize: (equalized, checksum): the file written under "
        "--out and the FNV-1a 64 checksum of the result's pixels. The same file on every rerun and "
        "device choice; shards join "
        "with merge";
    p.jsonHelp = "the run: devices with their images, busy and waiting fractions, every image "
                 "with its device, times and histograms, and the totals";
    bindPipeline<BatchParams, BatchParams, BatchResult>(
        p, planBatch, runBatchJob, batchReport, [](BatchParams& params) { prepareBatch(params); });
    p.describeItem = describeBatchItem;
    p.inputs = [](const std::any& params) {
        const BatchSource& s = std::any_cast<const BatchParams&>(params).source;
        std::vector<PipelineInput> inputs;
        if (s.folder.empty())
            return inputs;
        // The files the rows read: a stack's pages are rows of one file.
        std::vector<std::string> files;
        for (const std::string& row : s.files) {
            const auto page = s.pages.find(row);
            const std::string& file = page == s.pages.end() ? row : page->second.first;
            if (files.empty() || files.back() != file)
                files.push_back(file);
        }
        inputs.push_back(collectionInput("FOLDER", s.folder, s.recursive, false, s.shard, files));
        return inputs;
    };
    return p;
}

Pipeline mergePipeline() {
    Pipeline p;
    p.name = "merge";
    p.summary = "batch shards' tables joined into the table one run writes, or histogram CSVs "
                "added bin by bin";
    p.description =
        "Reads each FILE. Batch tables (histlab-cli batch --csv, from --shard I/N runs): checks "
        "that no file appears twice and writes the rows in the folder's order, the same file "
        "one batch run over the whole folder writes; the report adds up their histograms. "
        "Histogram CSVs (histlab-cli histogram --csv: bin, <channel>...): the same columns and "
        "bins in each, the counts added exactly. Runs on the host only.";
    p.reference = "no device work: the counts are read back exactly as the files hold them";
    p.devices = Pipeline::Devices::None;
    using P = MergeInput;
    p.options = {inputFileOption<P>(
        "FILE", "", "batch tables (batch --csv) or histogram CSVs (histogram --csv)",
        [](P& s, const std::string& v) { s.files.push_back(v); })};
    p.csvHelp = "the joined table (batch tables) or the added histogram (histogram CSVs)";
    p.jsonHelp = "the joined images with their histograms and the totals";
    bindPipeline<MergeInput, MergeInput, MergeOutput>(
        p, planMerge, runMergeJob,
        [](const MergeOutput& result) {
            Report r;
            std::ostringstream text;
            text << "merge: " << result.files.size()
                 << (result.files.size() == 1 ? " file, " : " files, ");
            if (result.tables) {
                std::size_t failed = 0;
                for (const BatchImage& image : result.images)
                    failed += image.error.empty() ? 0 : 1;
                text << batchPipelineName(result.pipeline)
                     << " batch tables: " << result.images.size() << " images, " << failed
                     << " not counted\n"
                     << failuresText(result.images);
                if (result.pipeline == BatchPipeline::Histogram)
                    text << totalsText(result.images);
                else if (result.pipeline == BatchPipeline::Joint)
                    text << miText(result.images);
                r.csv = [&result] { return batchCsv(result.pipeline, result.images); };
            } else {
                text << "histogram CSVs added: " << result.added.rows().size() << " bins\n";
                r.csv = [&result] { return result.added.csv(); };
                r.table = result.added;
            }
            r.text = text.str();
            r.json = [&result] {
                Json images = Json::array();
                const bool histograms = result.pipeline == BatchPipeline::Histogram;
                for (const BatchImage& image : result.images) {
                    Json one = {{"file", image.file},
                                {"status", image.error.empty() ? "verified" : image.error}};
                    if (histograms)
                        one["histograms"] = histogramsJson(image.histograms);
                    else
                        one["values"] = valuesJson(result.pipeline, image);
                    images.push_back(one);
                }
                Json j = {{"tool", "histlab-cli merge"},
                          {"date", utcTimestamp()},
                          {"files", result.files}};
                if (result.tables) {
                    j["pipeline"] = batchPipelineName(result.pipeline);
                    j["images"] = images;
                    j["totals"] = histogramsJson(batchTotals(result.images));
                } else {
                    Json added = Json::object();
                    const auto& columns = result.added.columns();
                    for (std::size_t c = 0; c < columns.size(); ++c) {
                        Json values = Json::array();
                        for (const auto& row : result.added.rows())
                            values.push_back(row[c].text);
                        added[columns[c]] = values;
                    }
                    j["added"] = added;
                }
                return jsonText(j);
            };
            return r;
        },
        [](MergeInput& params) {
            if (params.files.empty())
                throw UsageError("merge", "which files? (batch tables or histogram CSVs)");
        });
    return p;
}

} // namespace histlab
