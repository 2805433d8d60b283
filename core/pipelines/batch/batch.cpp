#include "pipelines/batch/batch.h"

#include "pipelines/equalize/equalize.h"
#include "pipelines/histogram256/histogramstream.h"
#include "pipelines/largebin/imagehistogram.h"
#include "pipelines/largebin/joint.h"
#include "pipelines/largebin/jointrun.h"
#include "pipelines/options.h"
#include "report/status.h"
#include "report/table.h"
#include "runtime/bytesize.h"
#include "runtime/enumtable.h"
#include "runtime/errors.h"
#include "runtime/log.h"
#include "runtime/parallel.h"
#include "runtime/timing.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <unistd.h>

namespace histlab {

namespace {

using Clock = std::chrono::steady_clock;

/// A synthetic image's name in the listing: "synthetic-000042".
std::string syntheticName(std::size_t i) {
    char name[32];
    std::snprintf(name, sizeof name, "synthetic-%06zu", i);
    return name;
}

/// An image taken from the listing, decoded, with its CPU reference, waiting for a device.
struct PreparedImage {
    std::size_t index = 0;
    HostImage image;
    bool redone = false;
    // The CPU reference, made on the host thread that decoded the image.
    std::shared_ptr<const HistogramReference> reference; ///< histogram of an 8-bit image
    std::optional<JointRequest> joint;                   ///< joint: the two channels' planes
    JointHistogram jointReference;
    Colocalisation colocReference; ///< joint: the coefficients' CPU reference
    HostImage expected;            ///< blur, equalize: the image the device must return
    std::string checksum;  ///< blur, equalize: the expected image's (a result equal to it has it)
    EqualizeTables tables; ///< equalize: the histogram, CDF and look-up table
    /// What it holds, against the run's memory budget.
    std::uint64_t bytes() const {
        return image.data.size() + expected.data.size() +
               (joint ? joint->a.bytes.size() + joint->b.bytes.size() : 0);
    }
};

/// FNV-1a, 64 bits, of the bytes, as 16 hex digits: a result image's checksum in the table.
std::string checksumText(const std::vector<std::uint8_t>& bytes) {
    std::uint64_t h = 14695981039346656037ull;
    for (std::uint8_t b : bytes) {
        h ^= b;
        h *= 1099511628211ull;
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return text;
}

/// The listing's image `index`, decoded (or made) with its reference, on a host thread.
/// Throws InputError naming the file for one that cannot be read.
PreparedImage decodeImage(const BatchParams& p, std::size_t index, const std::string& file) {
    PreparedImage d;
    d.index = index;
    const ImageInput& s = p.synthetic;
    if (s.synthetic) {
        // The listing index of the whole run, not of the shard, seeds the image, so a shard's
        // image equals the same image of one run over all of them.
        std::size_t whole = std::size_t(std::stoull(file.substr(file.find('-') + 1)));
        d.image = makeSyntheticImage(*s.synthetic, s.width, s.height, s.channels, s.depth,
                                     std::uint64_t(whole) + 1);
    } else if (const auto page = p.source.pages.find(file); page != p.source.pages.end()) {
        d.image = openImagePages(batchFilePath(p.source, file))->read(page->second.second);
    } else {
        d.image = readImageFile(batchFilePath(p.source, file));
    }
    switch (p.pipeline) {
    case BatchPipeline::Histogram:
        if (d.image.isFloat())
            throw InputError("32-bit float: batch counts 8- and 16-bit images (histlab-cli "
                             "histogram --bins N --range LO,HI counts a float image)");
        if (d.image.depth == 8)
            d.reference = countReference(d.image);
        break;
    case BatchPipeline::Joint: {
        const std::vector<std::string> channels = splitList(p.pair);
        for (const std::string& c : channels) {
            const int needs = c == "a" ? 4 : c == "gray" ? 1 : 3;
            if (d.image.channels < needs)
                throw InputError(std::string(d.image.channels == 1   ? "a gray"
                                             : d.image.channels == 3 ? "an RGB"
                                                                     : "a 2-channel") +
                                 " image has no channel '" + c + "'");
        }
        d.joint = makeJointRequest(d.image, d.image, channels[0], channels[1],
                                   p.bins.value_or(std::pair{256, 256}), p.rangeA, p.rangeB,
                                   nullptr, {LargeBinMethod::Auto}, 0);
        d.jointReference = jointHistogramReference(d.joint->a, d.joint->b, d.joint->spec);
        const std::optional<CostesSearch> search =
            parseColocChoice("--coloc", p.coloc.value_or("stepwise"));
        if (search) // --coloc off: not computed, the columns empty
            d.colocReference =
                colocalisationReference(d.joint->a, d.joint->b, d.joint->spec, {}, *search);
        d.joint->costes = search.value_or(CostesSearch::Stepwise);
        break;
    }
    case BatchPipeline::Blur:
        requireIntegerImage(d.image, "the box blur");
        d.expected = boxBlurReference(d.image, p.radius.value_or(1),
                                      p.border.value_or(BorderMode::Reflect101));
        d.checksum = checksumText(d.expected.data);
        break;
    case BatchPipeline::Equalize:
        requireIntegerImage(d.image, "equalization");
        d.tables = equalizeTables(d.image);
        d.expected = applyEqualizeLut(d.image, d.tables.lut);
        d.checksum = checksumText(d.expected.data);
        break;
    }
    return d;
}

/// Adds what ran to a device's configuration line once (at most four kinds, then "...").
void noteConfig(std::string& config, const std::string& what) {
    if (what.empty() || config.find(what) != std::string::npos)
        return;
    if (std::count(config.begin(), config.end(), ';') >= 3) {
        if (config.size() < 5 || config.compare(config.size() - 5, 5, "; ...") != 0)
            config += "; ...";
        return;
    }
    config += (config.empty() ? "" : "; ") + what;
}

/// A value of the table: nine significant digits, "" for NaN (undefined).
std::string valueText(double v) {
    if (std::isnan(v))
        return "";
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", v);
    return text;
}

/// What one device does with each decoded image, on the device's own thread.
class BatchWork {
public:
    BatchWork(Device& device, const CancelToken& cancel)
        : m_device(device)
        , m_cancel(cancel) {}
    virtual ~BatchWork() = default;
    /// Runs the pipeline on `d.image` and checks it against d's reference: `out` gets its
    /// histograms or values, verified, and the first difference as its error; `config`
    /// collects what ran. Returns the result image (blur, equalize; empty otherwise). Throws
    /// for what fails.
    virtual HostImage run(const PreparedImage& d, BatchImage& out, std::string& config) = 0;

protected:
    Device& m_device;
    const CancelToken& m_cancel;
};

/// Histograms on one device: the tuned 256-bin kernel for 8-bit images (one kernel per
/// configuration, the input buffer kept and grown), the large-bin methods for 16-bit ones.
class HistogramWork : public BatchWork {
public:
    HistogramWork(Device& device, const CancelToken& cancel)
        : BatchWork(device, cancel) {}

    HostImage run(const PreparedImage& d, BatchImage& out, std::string& config) override {
        const HostImage& image = d.image;
        if (image.depth == 16) {
            runSixteen(image, out, config);
            return {};
        }
        const HistogramLayout layout(image.channels, image.channels > 1);
        const std::vector<std::uint64_t> counts = count(image, layout, config);
        const std::string mismatch =
            firstMismatch("histogram", counts, referenceCounts(*d.reference, layout));
        out.histograms = splitLayoutCounts(counts, layout);
        out.verified = mismatch.empty();
        if (!out.verified)
            out.error = "mismatch: " + mismatch;
        return {};
    }

private:
    std::vector<std::uint64_t> count(const HostImage& image, const HistogramLayout& layout,
                                     std::string& config) {
        const std::size_t bytes = image.data.size();
        const DeviceInfo& info = m_device.info();
        const HistogramConfig chosen =
            resolveHistogramConfig(m_device, {}, layout, m_cancel, bytes);
        const std::string options = histogramBuildOptions(chosen, layout);
        Streamer& streamer = m_streamers[options];
        if (!streamer.kernel) {
            // Chunks of 32 MiB (whole pixels of 1, 3 or 4 channels); on a GPU each chunk is
            // copied by several threads into pinned memory first, which the driver writes
            // several times faster than the image's ordinary memory.
            const std::size_t chunk =
                std::min<std::size_t>(std::size_t(32) << 20, info.maxAllocBytes) / 48 * 48;
            m_staged = info.type != DeviceType::Cpu;
            streamer.kernel = std::make_unique<HistogramKernel>(m_device, chosen, layout);
            streamer.stream = std::make_unique<HistogramStream>(m_device, *streamer.kernel, chunk,
                                                                m_staged ? kCopyThreads : 0);
        }
        noteConfig(config, chosen.describe());
        const std::vector<cl_uint> bins =
            streamer.stream->run(image.data.data(), bytes, m_staged, m_cancel);
        return std::vector<std::uint64_t>(bins.begin(), bins.end());
    }

    /// 16-bit: each channel's 256 bins of 256 values, by the large-bin methods (verified there).
    void runSixteen(const HostImage& image, BatchImage& out, std::string& config) {
        ImageBinsRequest request;
        request.channels = imageBinChannels(image, "all");
        request.bins = 256;
        request.range = BinRange{0, 65536};
        request.repeats = 0; // one run: the time is not the point
        const ImageBinsRun run = runImageBins(m_device, image, request, m_cancel);
        out.verified = true;
        for (const ImageChannelBins& c : run.results) {
            ChannelHistogram h;
            h.name = c.name;
            std::copy_n(c.histogram.counts.begin(), 256, h.counts.begin());
            out.histograms.push_back(h);
            noteConfig(config, std::string("16-bit ") + largeBinMethodName(c.point.method));
            if (c.point.status != Status::Verified) {
                out.verified = false;
                out.error = c.name + ": " + statusText(c.point.status, c.point.detail);
            }
        }
    }

    /// A configuration's kernel and the stream that feeds it.
    struct Streamer {
        std::unique_ptr<HistogramKernel> kernel;
        std::unique_ptr<HistogramStream> stream;
    };
    static constexpr unsigned kCopyThreads = 4;

    std::map<std::string, Streamer> m_streamers; // by build options
    bool m_staged = false;
};

/// The joint histogram of two channels of each image. Auto is timed on the first image a
/// device takes; its later images count with that choice (auto again where it cannot run
/// there). The entropies and MI come from the verified counts, in double precision.
class JointWork : public BatchWork {
public:
    JointWork(Device& device, const CancelToken& cancel, const std::string& pair)
        : BatchWork(device, cancel)
        , m_pair(splitList(pair)) {}

    HostImage run(const PreparedImage& d, BatchImage& out, std::string& config) override {
        const JointRequest& r = *d.joint;
        const std::size_t n = r.a.count(), cells = r.spec.cells();
        const cl::Buffer a = uploadPlane(m_device, r.a), b = uploadPlane(m_device, r.b);
        std::unique_ptr<JointPieces> pieces;
        try {
            pieces = std::make_unique<JointPieces>(m_device, a, b, nullptr, n, r.spec, m_method,
                                                   m_cancel);
        } catch (const UnsupportedError&) {
            if (m_method == LargeBinMethod::Auto)
                throw;
            pieces = std::make_unique<JointPieces>(m_device, a, b, nullptr, n, r.spec,
                                                   LargeBinMethod::Auto, m_cancel);
        }
        if (m_method == LargeBinMethod::Auto)
            m_method = pieces->method();
        noteConfig(config, pieces->describe());
        const std::vector<std::uint64_t> counted = pieces->count(0, n);
        const std::string mismatch =
            firstJointMismatch(d.jointReference, counted.data(), cells, counted[cells]);
        JointHistogram h;
        h.binsA = r.spec.a.bins;
        h.binsB = r.spec.b.bins;
        h.counts.assign(counted.begin(), counted.begin() + std::ptrdiff_t(cells));
        h.leftOut = counted[cells];
        const MutualInformation mi = mutualInformation(h);
        // The colocalisation passes on the device, their sums compared with the reference's.
        Colocalisation c = d.colocReference;
        std::string colocMismatch;
        if (c.computed) {
            ColocDevicePass pass(m_device, a, b, nullptr, n, r.spec);
            c = colocalise(r.a.type, r.costes,
                           {[&](const ColocPassArgs& args) {
                                m_cancel.throwIfCancelled();
                                return pass(args);
                            },
                            [&](const ColocSteps& steps) {
                                m_cancel.throwIfCancelled();
                                return pass.steps(steps);
                            }});
            colocMismatch = firstColocMismatch(d.colocReference, c);
        }
        out.values = {m_pair[0],
                      m_pair[1],
                      std::to_string(h.binsA) + "x" + std::to_string(h.binsB),
                      std::to_string(h.counted()),
                      std::to_string(h.leftOut),
                      valueText(mi.entropyA),
                      valueText(mi.entropyB),
                      valueText(mi.jointEntropy),
                      valueText(mi.mi),
                      valueText(mi.nmiStudholme)};
        for (double v : {c.pearson, c.pearsonBelow, c.pearsonAbove, c.m1, c.m2, c.tm1, c.tm2,
                         c.thresholdA, c.thresholdB, c.slope, c.intercept, c.icq, c.overlap})
            out.values.push_back(valueText(v));
        out.verified = mismatch.empty() && colocMismatch.empty();
        if (!out.verified)
            out.error = "mismatch: " + (mismatch.empty() ? colocMismatch : mismatch);
        return {};
    }

private:
    std::vector<std::string> m_pair; ///< the two channels' names
    LargeBinMethod m_method = LargeBinMethod::Auto;
};

/// The box blur of each image, the variant auto picks for the radius.
class BlurWork : public BatchWork {
public:
    BlurWork(Device& device, const CancelToken& cancel, int radius, BorderMode border)
        : BatchWork(device, cancel)
        , m_radius(radius)
        , m_border(border) {}

    HostImage run(const PreparedImage& d, BatchImage& out, std::string& config) override {
        BlurRun run = blurOnDevice(m_device, d.image, m_radius, m_border, 0, m_cancel);
        std::string kernels;
        for (const KernelLaunch& k : run.kernels)
            kernels += (kernels.empty() ? "" : " + ") + k.kernel;
        noteConfig(config, std::string(blurVariantName(run.variant)) + " (" + kernels + ")");
        const std::string mismatch = firstPixelDifference(run.output, d.expected);
        HostImage result = finish(std::move(run.output), mismatch, d.checksum, out);
        out.values.insert(out.values.begin(), {std::to_string(m_radius), borderModeName(m_border)});
        return result;
    }

    /// The result's values (its output file is named when it is written) and check. A result
    /// equal to the reference has its checksum, made on the decoding thread (a 36 MB image's
    /// hash costs the device's thread 45 ms); one that differs gets its own.
    static HostImage finish(HostImage result, const std::string& mismatch,
                            const std::string& expectedChecksum, BatchImage& out) {
        out.values = {"", mismatch.empty() ? expectedChecksum : checksumText(result.data)};
        out.verified = mismatch.empty();
        if (!out.verified)
            out.error = "mismatch: " + mismatch;
        return result;
    }

private:
    int m_radius;
    BorderMode m_border;
};

/// The equalization of each image: histogram, CDF, look-up table and gather on the device.
class EqualizeWork : public BatchWork {
public:
    EqualizeWork(Device& device, const CancelToken& cancel)
        : BatchWork(device, cancel) {}

    HostImage run(const PreparedImage& d, BatchImage& out, std::string& config) override {
        EqualizeRun run = equalizeOnDevice(m_device, d.image, 0, m_cancel);
        verifyEqualizeRun(run, d.tables, d.expected);
        noteConfig(config, "gather " + run.apply.describe());
        const std::string mismatch = run.verifyDetail;
        return BlurWork::finish(std::move(run.output), mismatch, d.checksum, out);
    }
};

std::unique_ptr<BatchWork> makeBatchWork(const BatchParams& p, Device& device,
                                         const CancelToken& cancel) {
    switch (p.pipeline) {
    case BatchPipeline::Joint:
        return std::make_unique<JointWork>(device, cancel, p.pair);
    case BatchPipeline::Blur:
        return std::make_unique<BlurWork>(device, cancel, p.radius.value_or(1),
                                          p.border.value_or(BorderMode::Reflect101));
    case BatchPipeline::Equalize:
        return std::make_unique<EqualizeWork>(device, cancel);
    case BatchPipeline::Histogram:
        break;
    }
    return std::make_unique<HistogramWork>(device, cancel);
}

} // namespace

namespace {
const EnumTable<BatchPipeline>& batchPipelines() {
    static const EnumTable<BatchPipeline> table("--pipeline", "a batch pipeline",
                                                {{BatchPipeline::Histogram, "histogram"},
                                                 {BatchPipeline::Joint, "joint"},
                                                 {BatchPipeline::Blur, "blur"},
                                                 {BatchPipeline::Equalize, "equalize"}});
    return table;
}
} // namespace

BatchPipeline parseBatchPipeline(const std::string& name) {
    if (name == "bow")
        throw UsageError("--pipeline", "bow is not batched: histlab-cli bow histograms FOLDER "
                                       "--codebook FILE counts each image's visual words");
    return batchPipelines().parse(name);
}

const char* batchPipelineName(BatchPipeline pipeline) {
    return batchPipelines().name(pipeline);
}

std::vector<std::string> batchColocColumns() {
    return {"pearson",     "pearson_below", "pearson_above", "m1",        "m2",  "tm1",       "tm2",
            "threshold_a", "threshold_b",   "slope",         "intercept", "icq", "above_both"};
}

std::vector<std::string> batchValueColumns(BatchPipeline pipeline) {
    switch (pipeline) {
    case BatchPipeline::Joint: {
        std::vector<std::string> c = {"a",   "b",   "bins", "counted", "left_out",
                                      "h_a", "h_b", "h_ab", "mi",      "nmi"};
        const std::vector<std::string> coloc = batchColocColumns();
        c.insert(c.end(), coloc.begin(), coloc.end());
        return c;
    }
    case BatchPipeline::Blur:
        return {"radius", "border", "blurred", "checksum"};
    case BatchPipeline::Equalize:
        return {"equalized", "checksum"};
    case BatchPipeline::Histogram:
        break;
    }
    std::vector<std::string> c = {"histogram"};
    for (int b = 0; b < 256; ++b)
        c.push_back(std::string("b").append(std::to_string(b)));
    return c;
}

std::size_t batchOutputColumn(BatchPipeline pipeline) {
    return batchValueColumns(pipeline).size() - 2;
}

namespace {

/// Each pipeline's own options, given to another, are refused by name; joint's channels are
/// two of gray, r, g, b, a.
void checkPipelineOptions(const BatchParams& p) {
    const BatchPipeline pipe = p.pipeline;
    const std::string name = batchPipelineName(pipe);
    auto only = [&](bool given, const char* option, const char* pipelines) {
        if (given)
            throw UsageError(option, std::string("only with --pipeline ") + pipelines +
                                         " (this batch runs " + name + ")");
    };
    const bool joint = pipe == BatchPipeline::Joint, blur = pipe == BatchPipeline::Blur;
    only(!joint && !p.pair.empty(), "--pair", "joint");
    only(!joint && p.bins.has_value(), "--bins", "joint");
    only(!joint && p.rangeA.has_value(), "--range-a", "joint");
    only(!joint && p.rangeB.has_value(), "--range-b", "joint");
    only(!joint && p.coloc.has_value(), "--coloc", "joint");
    only(!blur && p.radius.has_value(), "--radius", "blur");
    only(!blur && p.border.has_value(), "--border", "blur");
    only(!p.out.empty() && !blur && pipe != BatchPipeline::Equalize, "--out",
         "blur or equalize (the other pipelines' results are the table's values)");
    if (!joint)
        return;
    const std::vector<std::string> channels = splitList(p.pair);
    if (channels.size() != 2)
        throw UsageError("--pair", p.pair.empty() ? "joint needs two channels of each image, e.g. "
                                                    "--pair r,g"
                                                  : "'" + p.pair + "' is not two channels A,B");
    for (const std::string& c : channels)
        if (c != "gray" && c != "r" && c != "g" && c != "b" && c != "a")
            throw UsageError("--pair", "'" + c + "' is not gray, r, g, b or a");
}

/// Each file's output under --out: its relative path with .png for its extension (PNG holds 8-
/// and 16-bit gray, RGB and RGBA without loss), or its whole name and .png where two files of
/// `listing` would otherwise share one, or where such a name meets another's (then every file
/// keeps its whole name, which the listing holds once). Decided over the whole listing, so that
/// each shard names its files as one run would.
std::map<std::string, std::string> outputNames(const std::vector<std::string>& listing) {
    namespace fs = std::filesystem;
    auto stem = [](const std::string& file) {
        return fs::path(file).replace_extension(".png").generic_string();
    };
    std::map<std::string, int> uses;
    for (const std::string& file : listing)
        ++uses[stem(file)];
    std::map<std::string, std::string> names;
    std::set<std::string> taken;
    bool clash = false;
    for (const std::string& file : listing) {
        const std::string name = uses[stem(file)] > 1 ? file + ".png" : stem(file);
        clash = clash || !taken.insert(name).second;
        names[file] = name;
    }
    if (clash)
        for (const std::string& file : listing)
            names[file] = file + ".png";
    return names;
}

/// --out: checked first (InputError naming it where it is the images' folder, or inside it
/// with --recursive, or where a result would land on an image of the listing: results never
/// replace an image), then made (InputError where it cannot be), and each file's output named
/// (outputNames).
void prepareOutputs(BatchParams& p) {
    p.outputs.clear();
    if (p.out.empty())
        return;
    namespace fs = std::filesystem;
    if (!canWriteImageFiles())
        throw InputError(p.out + ": this build writes no image files (it was built without "
                                 "OpenCV)");
    const BatchSource& s = p.source;
    std::error_code ec;
    const fs::path out = fs::weakly_canonical(p.out, ec);
    std::vector<std::string> listing = s.files;
    if (!s.folder.empty()) {
        const fs::path in = fs::weakly_canonical(s.folder, ec);
        auto within = [](const fs::path& outer, const fs::path& inner) {
            auto i = inner.begin();
            for (auto o = outer.begin(); o != outer.end(); ++o, ++i)
                if (i == inner.end() || *o != *i)
                    return false;
            return true;
        };
        if (in == out || (s.recursive && within(in, out)))
            throw InputError(p.out + ": --out is " +
                             (in == out ? "the images' folder"
                                        : "inside the images' folder, which --recursive reads") +
                             "; results go to a folder of their own, never over the images");
        if (s.shard.count > 1)
            listing =
                batchPageRows(p.source, listCollection(s.folder, s.recursive, false, Shard{}));
    }
    const std::map<std::string, std::string> names = outputNames(listing);
    std::set<fs::path> inputs;
    if (!s.folder.empty())
        for (const std::string& file : listing)
            inputs.insert(fs::weakly_canonical(batchFilePath(s, file), ec));
    for (const std::string& file : s.files) {
        const std::string& name = names.at(file);
        const fs::path target = fs::weakly_canonical(out / name, ec);
        if (inputs.count(target))
            throw InputError(p.out + ": --out would write " + name + " over the image " +
                             target.string() + "; results never replace an image");
        p.outputs.push_back(name);
    }
    // The folder is made as the first result is written, not here: a run refused later (an
    // output that names an input, a device that cannot be opened) leaves no empty folder. What
    // exists of it now must be a folder that can be written.
    fs::path existing = fs::absolute(fs::path(p.out), ec);
    while (!existing.empty() && !fs::exists(fs::symlink_status(existing, ec)) &&
           existing != existing.root_path())
        existing = existing.parent_path();
    if (!fs::is_directory(existing, ec))
        throw InputError(p.out + ": --out needs a folder that can be made ('" + existing.string() +
                         "' is not a folder)");
    if (::access(existing.c_str(), W_OK | X_OK) != 0)
        throw InputError(p.out + ": --out needs a folder that can be made ('" + existing.string() +
                         "' cannot be written)");
}

} // namespace

std::string batchFilePath(const BatchSource& source, const std::string& file) {
    const auto page = source.pages.find(file);
    const std::string& name = page == source.pages.end() ? file : page->second.first;
    return source.folder.empty() ? name : source.folder + "/" + name;
}

std::vector<std::string> batchPageRows(BatchSource& source, const std::vector<std::string>& files) {
    std::vector<std::string> rows;
    rows.reserve(files.size());
    for (const std::string& file : files) {
        const std::size_t dot = file.rfind('.');
        std::string ext = dot == std::string::npos ? "" : file.substr(dot + 1);
        std::transform(ext.begin(), ext.end(), ext.begin(),
                       [](unsigned char c) { return char(std::tolower(c)); });
        int pages = 1;
        if (ext == "tif" || ext == "tiff") {
            try {
                // Counts the page headers only; a file that cannot be counted keeps one row,
                // whose decoding says why.
                pages = openImagePages(batchFilePath(source, file))->pages();
            } catch (const std::exception&) {
                pages = 1;
            }
        }
        if (pages == 1) {
            rows.push_back(file);
            continue;
        }
        for (int p = 1; p <= pages; ++p) {
            rows.push_back(file + "#" + std::to_string(p));
            source.pages[rows.back()] = {file, p};
        }
    }
    return rows;
}

void prepareBatch(BatchParams& p) {
    BatchSource& s = p.source;
    const ImageInput& shape = p.synthetic;
    p.fault = deviceFaultFromEnvironment();
    checkPipelineOptions(p);
    if (shape.synthetic) {
        if (!s.folder.empty())
            throw UsageError("batch", "a folder or --synthetic, not both");
        if (!s.images || !shape.width || !shape.height)
            throw UsageError("--synthetic", "needs --images N, --width W and --height H");
        if (s.recursive)
            throw UsageError("--recursive", "only with a folder");
        const std::uint64_t bytes = std::uint64_t(shape.width) * std::uint64_t(shape.height) *
                                    std::uint64_t(shape.channels) * std::uint64_t(shape.depth / 8);
        if (bytes > syntheticLimitBytes())
            throw UsageError("--width/--height", std::to_string(bytes) +
                                                     " bytes an image are more than " +
                                                     std::to_string(syntheticLimitBytes()) +
                                                     " (a quarter of this machine's memory)");
        // The table holds a row for every image of the share (its name, reason, histograms
        // or values) until the end of the run: a count whose rows alone pass the budget of
        // synthetic data is refused before its names are made.
        const std::uint64_t share =
            s.shard.index >= s.images
                ? 0
                : (s.images - s.shard.index + s.shard.count - 1) / s.shard.count;
        const std::uint64_t histograms =
            p.pipeline == BatchPipeline::Histogram ? std::uint64_t(shape.channels) + 1 : 0;
        const std::uint64_t rowBytes =
            sizeof(BatchImage) + 64 + 16 * 32 + histograms * sizeof(ChannelHistogram);
        if (share > syntheticLimitBytes() / rowBytes)
            throw UsageError("--images", std::to_string(share) + " images need " +
                                             roundedByteSize(share * rowBytes) +
                                             " for their table, more than " +
                                             roundedByteSize(syntheticLimitBytes()) +
                                             " (a quarter of this machine's memory); split the "
                                             "run with --shard I/N");
        s.files.clear();
        for (std::size_t i = s.shard.index; i < s.images; i += s.shard.count)
            s.files.push_back(syntheticName(i));
        prepareOutputs(p);
        return;
    }
    if (s.images || shape.width || shape.height)
        throw UsageError(s.images ? "--images" : "--width/--height", "only with --synthetic");
    if (s.folder.empty())
        throw UsageError("batch", "which folder? (give FOLDER, or --synthetic KIND --images N "
                                  "--width W --height H)");
    s.files = listCollection(s.folder, s.recursive, false, s.shard, &s.skipped);
    if (canReadImageFiles())
        s.files = batchPageRows(s, s.files);
    if (!canReadImageFiles())
        throw InputError(s.folder + ": this build reads no image files (it was built without "
                                    "OpenCV); give --synthetic KIND --images N --width W "
                                    "--height H");
    if (s.files.empty() && s.shard.count == 1)
        throw InputError(s.folder + ": no image files" +
                         (s.skipped ? " (" + std::to_string(s.skipped) + " other files)" : "") +
                         (s.recursive ? "" : "; --recursive reads its subfolders too"));
    prepareOutputs(p);
}

namespace {

/// One batch run: host threads decode the images and write the results, one thread per device
/// counts them (the scheduler's), and the calling thread reports each image as it finishes.
/// Every member below the constructor that touches the shared state does so under `m_mutex`.
class BatchRun {
public:
    BatchRun(JobContext& ctx, const BatchParams& params,
             const std::function<void(const BatchProgress&)>& onImage)
        : m_ctx(ctx)
        , m_params(params)
        , m_files(params.source.files)
        , m_n(m_files.size())
        , m_onImage(onImage)
        , m_cancel(ctx.cancelToken()) {}

    BatchResult run(const std::vector<int>& devices);

private:
    // A verified result waiting to be written (--out), by the host threads, which take them
    // before decoding more: the device goes on to its next image meanwhile.
    struct Pending {
        std::size_t index = 0;
        HostImage result;
        std::uint64_t bytes = 0; ///< held for the result until it is written
    };

    void open(const std::vector<int>& devices);
    bool mayDecode() const;
    void host();
    void decode(std::size_t index);
    void write(Pending job);
    void count(std::size_t k);
    std::optional<PreparedImage> take(std::size_t k);
    void counted(PreparedImage d, BatchImage out, HostImage result);
    void handBack(std::size_t k, PreparedImage d, double busyMs, const std::string& why);
    void release(std::size_t index, std::uint64_t bytes, HostImage image, HostImage result);
    void report();
    void reportImage(std::size_t index, std::size_t count);
    void stop();
    void finish();

    JobContext& m_ctx;
    const BatchParams& m_params;
    const std::vector<std::string>& m_files;
    const std::size_t m_n;
    const std::function<void(const BatchProgress&)>& m_onImage;
    const CancelToken& m_cancel;
    const Clock::time_point m_start = Clock::now();
    BatchResult m_result;
    std::vector<Device*> m_opened;
    std::unique_ptr<DeviceScheduler> m_scheduler;

    // Shared state, under `m_mutex`. At most `m_slots` images are decoded or being decoded and
    // not yet finished, which bounds the memory the run holds whatever the folder's size.
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::size_t m_nextDecode = 0, m_slots = 0;
    std::deque<PreparedImage> m_ready, m_handedBack;
    std::deque<Pending> m_toWrite;
    std::size_t m_decodersLeft = 0, m_devicesLeft = 0;
    std::size_t m_inFlight = 0; // images a device has taken and not finished (one may come back)
    std::deque<std::size_t> m_finished;
    std::vector<HostImage> m_spent; // images the devices are done with, freed on this thread
    std::vector<char> m_done;
    // Bytes of decoded images held (queued or on a device), against a budget of a quarter of
    // the machine's memory: no decoding starts while they pass half of it (unless nothing is
    // held). Images are decoded one at a time until the first one's size is known, then as many
    // at once as twice the largest image seen so far fits the budget, so that a folder of very
    // large images does not exhaust memory.
    const std::uint64_t m_budget = syntheticLimitBytes();
    std::uint64_t m_held = 0, m_largest = 0;
    std::size_t m_decoding = 0;
    bool m_stop = false;
};

BatchResult BatchRun::run(const std::vector<int>& devices) {
    BatchResult& r = m_result;
    r.params = m_params;
    r.images.resize(m_n);
    for (std::size_t i = 0; i < m_n; ++i)
        r.images[i].file = m_files[i];
    open(devices);
    r.jobs = int(std::max<std::size_t>(
        1, std::min<std::size_t>(m_params.jobs ? std::size_t(m_params.jobs) : hostThreads(), m_n)));
    if (m_n == 0) {
        r.wallMs = msSince(m_start);
        return std::move(r);
    }
    m_slots = std::size_t(r.jobs) + 2 * m_opened.size();
    m_decodersLeft = std::size_t(r.jobs);
    m_devicesLeft = m_opened.size();
    m_done.assign(m_n, 0);
    {
        std::vector<Thread> hosts;
        try {
            for (int j = 0; j < r.jobs; ++j)
                hosts.emplace_back([this] { host(); });
            m_scheduler->start([this](std::size_t k) { count(k); });
            report();
        } catch (...) {
            stop(); // the threads end before they are joined
            throw;
        }
        stop();
        for (Thread& t : hosts)
            t.join();
        m_scheduler->wait();
    }
    m_cancel.throwIfCancelled();
    finish();
    return std::move(r);
}

/// Opened here: the device set is not shared between threads; each device is then used by its
/// own thread alone.
void BatchRun::open(const std::vector<int>& devices) {
    std::vector<int> unique;
    for (int index : devices)
        if (std::find(unique.begin(), unique.end(), index) == unique.end())
            unique.push_back(index); // one thread a device: a Device is not shared
    for (int index : unique) {
        m_opened.push_back(&m_ctx.devices().open(index));
        BatchDevice d;
        d.info = m_opened.back()->info();
        d.index = index;
        m_result.devices.push_back(d);
    }
    m_scheduler = std::make_unique<DeviceScheduler>(m_opened, m_params.fault);
}

bool BatchRun::mayDecode() const {
    const std::size_t allowed =
        m_largest == 0 ? 1
                       : std::size_t(std::clamp<std::uint64_t>(m_budget / (2 * m_largest), 1,
                                                               std::uint64_t(m_result.jobs)));
    return m_decoding < allowed && (m_held < m_budget / 2 || (m_held == 0 && m_decoding == 0));
}

/// One host thread: writes results and decodes images. It stays for the writes until every
/// device is done (after the last image is decoded, or when every device has failed).
void BatchRun::host() {
    for (;;) {
        std::size_t index = 0;
        std::optional<Pending> job;
        {
            std::unique_lock lock(m_mutex);
            auto over = [&] { return m_devicesLeft == 0 && m_toWrite.empty(); };
            m_changed.wait(lock, [&] {
                return m_stop || !m_toWrite.empty() || over() ||
                       (m_nextDecode < m_n && m_slots > 0 && mayDecode());
            });
            if (m_stop || over())
                break;
            if (!m_toWrite.empty()) {
                job = std::move(m_toWrite.front());
                m_toWrite.pop_front();
            } else {
                index = m_nextDecode++;
                --m_slots;
                ++m_decoding;
            }
        }
        if (job)
            write(std::move(*job));
        else
            decode(index);
    }
    std::lock_guard lock(m_mutex);
    --m_decodersLeft;
    m_changed.notify_all();
}

/// Decodes image `index` (and makes its CPU reference) for the devices; the row says why where
/// it cannot.
void BatchRun::decode(std::size_t index) {
    const auto t = Clock::now();
    std::optional<PreparedImage> d;
    std::string error;
    const std::string path =
        m_params.synthetic.synthetic ? "" : batchFilePath(m_params.source, m_files[index]);
    try {
        d = decodeImage(m_params, index, m_files[index]);
    } catch (const std::bad_alloc&) {
        error = "not enough memory to decode it";
    } catch (const std::exception& e) {
        error = withoutPathPrefix(e.what(), path);
    }
    std::lock_guard lock(m_mutex);
    m_result.images[index].decodeMs = msSince(t);
    --m_decoding;
    if (d) {
        m_held += d->bytes();
        m_largest = std::max<std::uint64_t>(m_largest, d->bytes());
        m_ready.push_back(std::move(*d));
    } else {
        m_result.images[index].error = error;
        m_finished.push_back(index);
        ++m_slots;
    }
    m_changed.notify_all();
}

/// Writes one result through the front end's writer; the row says why where it cannot.
void BatchRun::write(Pending job) {
    const auto t = Clock::now();
    const std::string& name = m_params.outputs[job.index];
    const std::filesystem::path path =
        std::filesystem::path(m_params.out) / std::filesystem::path(name);
    std::string error;
    try {
        std::filesystem::create_directories(path.parent_path());
        writeImageFile(job.result, path.string());
    } catch (const std::bad_alloc&) {
        error = "not written: not enough memory to encode it";
    } catch (const std::exception& e) {
        error = "not written: " + withoutPathPrefix(e.what(), path.string());
    }
    std::lock_guard lock(m_mutex);
    BatchImage& image = m_result.images[job.index];
    if (error.empty())
        image.values[batchOutputColumn(m_params.pipeline)] = name;
    else
        image.error = error;
    image.writeMs = msSince(t);
    release(job.index, job.bytes, {}, std::move(job.result));
}

/// Device `k`'s thread: it counts the images the host threads decoded until none is left. A
/// device that fails hands its image back to the others and stops (the scheduler keeps why).
void BatchRun::count(std::size_t k) {
    struct Leave { // the device is done, however it ends
        BatchRun& run;
        ~Leave() {
            std::lock_guard lock(run.m_mutex);
            --run.m_devicesLeft;
            run.m_changed.notify_all();
        }
    } leave{*this};
    BatchDevice& dev = m_result.devices[k];
    const std::unique_ptr<BatchWork> work = makeBatchWork(m_params, *m_opened[k], m_cancel);
    for (std::size_t taken = 0;; ++taken) {
        std::optional<PreparedImage> d = take(k);
        if (!d)
            return;
        const auto t = Clock::now();
        HostImage result;
        BatchImage out;
        out.file = m_files[d->index];
        out.device = int(k);
        out.redone = d->redone;
        out.width = d->image.width;
        out.height = d->image.height;
        out.channels = d->image.channels;
        out.depth = d->image.depth;
        try {
            m_scheduler->injectFault(k, taken);
            result = work->run(*d, out, dev.config);
        } catch (const UnsupportedError& e) {
            out.histograms.clear();
            out.values.clear();
            out.error = "unsupported on " + dev.info.name + ": " + e.what();
        } catch (const DeviceError& e) {
            handBack(k, std::move(*d), msSince(t), e.what());
            throw; // the device is given up
        } catch (const CancelledError&) {
            std::lock_guard lock(m_mutex);
            --m_inFlight;
            m_stop = true;
            m_changed.notify_all();
            return;
        } catch (const std::exception& e) {
            out.histograms.clear();
            out.values.clear();
            out.verified = false;
            out.error = e.what();
        }
        out.deviceMs = msSince(t);
        dev.busyMs += out.deviceMs;
        ++dev.images;
        counted(std::move(*d), std::move(out), std::move(result));
    }
}

/// The next image for device `k`, a handed-back one first; none once every image is decoded
/// and none is on a device (which could hand it back), or when the run stops.
std::optional<PreparedImage> BatchRun::take(std::size_t k) {
    const auto waitStart = Clock::now();
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] {
        return m_stop || !m_handedBack.empty() || !m_ready.empty() ||
               (m_nextDecode >= m_n && m_decoding == 0 && m_inFlight == 0);
    });
    if (m_stop)
        return std::nullopt;
    std::deque<PreparedImage>& from = !m_handedBack.empty() ? m_handedBack : m_ready;
    if (from.empty())
        return std::nullopt; // decoding is over, nothing is left and nothing can come back
    std::optional<PreparedImage> d = std::move(from.front());
    from.pop_front();
    ++m_inFlight;
    lock.unlock();
    m_result.devices[k].waitMs += msSince(waitStart);
    return d;
}

/// A device is done with `d`: its row, and its result to write (--out) or its memory freed.
void BatchRun::counted(PreparedImage d, BatchImage out, HostImage result) {
    const std::uint64_t bytes = d.bytes();
    // Only a verified result is written (--out), by a host thread, through a temporary file and
    // a rename.
    const bool written =
        !m_params.out.empty() && out.verified && out.error.empty() && !out.values.empty();
    std::lock_guard lock(m_mutex);
    out.decodeMs = m_result.images[d.index].decodeMs;
    m_result.images[d.index] = std::move(out);
    --m_inFlight;
    m_spent.push_back(std::move(d.expected));
    if (written) {
        const std::uint64_t resultBytes = result.data.size();
        // The image and its reference are freed: the result alone waits.
        m_held += resultBytes;
        m_held -= bytes;
        m_toWrite.push_back({d.index, std::move(result), resultBytes});
        m_spent.push_back(std::move(d.image));
        m_changed.notify_all();
    } else {
        release(d.index, bytes, std::move(d.image), std::move(result));
    }
}

/// Device `k` failed at `d`: the image goes back for the others.
void BatchRun::handBack(std::size_t k, PreparedImage d, double busyMs, const std::string& why) {
    BatchDevice& dev = m_result.devices[k];
    std::lock_guard lock(m_mutex);
    dev.busyMs += busyMs;
    ++dev.handedBack;
    --m_inFlight;
    d.redone = true;
    m_handedBack.push_back(std::move(d));
    m_changed.notify_all();
    logInfo("batch",
            "device " + std::to_string(dev.index) + " (" + dev.info.name + ") failed: " + why);
}

/// An image is done: it leaves the memory budget and is reported. Under `m_mutex`.
void BatchRun::release(std::size_t index, std::uint64_t bytes, HostImage image, HostImage result) {
    m_held -= bytes;
    // Freed on the reporting thread: giving a large image back to the system costs
    // milliseconds (its pages unmapped) that a device or a decoder would otherwise wait
    // through.
    m_spent.push_back(std::move(image));
    m_spent.push_back(std::move(result));
    m_finished.push_back(index);
    ++m_slots;
    m_changed.notify_all();
}

/// This thread reports each finished image, in the order they finish.
void BatchRun::report() {
    std::size_t count = 0;
    for (;;) {
        std::deque<std::size_t> now;
        std::vector<HostImage> freed;
        bool allGone = false;
        {
            std::unique_lock lock(m_mutex);
            m_changed.wait_for(lock, std::chrono::milliseconds(100), [&] {
                return !m_finished.empty() || (m_devicesLeft == 0 && m_decodersLeft == 0);
            });
            now.swap(m_finished);
            freed.swap(m_spent);
            allGone = m_devicesLeft == 0 && m_decodersLeft == 0;
            if (m_cancel.cancelled() || (allGone && now.empty()))
                m_stop = true;
            m_changed.notify_all();
        }
        for (std::size_t index : now)
            reportImage(index, ++count);
        m_ctx.progress(double(count) / double(m_n), "images");
        if (m_cancel.cancelled() || (allGone && now.empty()) || count == m_n)
            break;
    }
}

/// Image `index` is the `count`-th to finish.
void BatchRun::reportImage(std::size_t index, std::size_t count) {
    m_done[index] = 1;
    if (!m_onImage)
        return;
    BatchProgress p;
    p.image = m_result.images[index];
    if (p.image.device >= 0)
        p.deviceIndex = m_result.devices[std::size_t(p.image.device)].index;
    p.done = count;
    p.total = m_n;
    const double seconds = msSince(m_start) / 1000.0;
    p.imagesPerSecond = seconds > 0 ? double(count) / seconds : 0;
    p.secondsLeft = p.imagesPerSecond > 0 ? double(m_n - count) / p.imagesPerSecond : 0;
    m_onImage(p);
}

void BatchRun::stop() {
    std::lock_guard lock(m_mutex);
    m_stop = true;
    m_changed.notify_all();
}

/// After the threads: why devices failed, the images no device could take, the totals.
void BatchRun::finish() {
    BatchResult& r = m_result;
    std::string lastFailure;
    for (std::size_t k = 0; k < r.devices.size(); ++k)
        if (m_scheduler->failed(k))
            r.devices[k].failure = m_scheduler->failure(k);
    for (const BatchDevice& d : r.devices)
        if (!d.failure.empty())
            lastFailure = d.failure;
    // Images no device could take: every device failed before them.
    for (std::size_t i = 0; i < m_n; ++i)
        if (!m_done[i] && r.images[i].error.empty() && r.images[i].histograms.empty() &&
            r.images[i].values.empty())
            r.images[i].error = "not run: every device failed (" + lastFailure + ")";
    for (const BatchImage& image : r.images) {
        r.decodeMs += image.decodeMs;
        r.writeMs += image.writeMs;
        if (!image.error.empty())
            ++r.failed;
        if ((!image.histograms.empty() || !image.values.empty()) && !image.verified)
            ++r.mismatches;
    }
    r.wallMs = msSince(m_start);
}

} // namespace

BatchResult runBatch(JobContext& ctx, const std::vector<int>& devices, const BatchParams& params,
                     const std::function<void(const BatchProgress&)>& onImage) {
    return BatchRun(ctx, params, onImage).run(devices);
}

std::vector<ChannelHistogram> batchTotals(const std::vector<BatchImage>& images) {
    // In the channels' order, the luma last: r, g, b, a, gray.
    static const char* order[] = {"r", "g", "b", "a", "gray"};
    std::vector<ChannelHistogram> totals;
    for (const char* name : order) {
        ChannelHistogram total{name, {}};
        bool any = false;
        for (const BatchImage& image : images) {
            if (!image.verified)
                continue;
            for (const ChannelHistogram& h : image.histograms)
                if (h.name == name) {
                    any = true;
                    for (std::size_t b = 0; b < 256; ++b)
                        total.counts[b] += h.counts[b];
                }
        }
        if (any)
            totals.push_back(total);
    }
    return totals;
}

namespace {

/// file, status, detail, width, height, channels, depth: the columns every table begins with.
constexpr std::size_t kHeadColumns = 7;

std::vector<std::string> batchCsvColumns(BatchPipeline pipeline) {
    std::vector<std::string> c = {"file",   "status",   "detail", "width",
                                  "height", "channels", "depth"};
    const std::vector<std::string> values = batchValueColumns(pipeline);
    c.insert(c.end(), values.begin(), values.end());
    return c;
}

/// An image's row status in the one vocabulary (its error is the detail): verified; failed
/// where its result was not written, or it was not decoded or run; unsupported where its device
/// cannot run it; mismatch where a result differs from the CPU reference. It follows from the
/// error and the results alone, so that a table read back (merge) writes the same words.
Status imageStatus(const BatchImage& image) {
    if (image.error.empty())
        return Status::Verified;
    if (image.error.rfind("not written: ", 0) == 0)
        return Status::Failed;
    if (image.error.rfind("unsupported on ", 0) == 0)
        return Status::Unsupported;
    if (!image.verified && (!image.histograms.empty() || !image.values.empty()))
        return Status::Mismatch;
    return Status::Failed;
}

} // namespace

std::string batchCsv(BatchPipeline pipeline, const std::vector<BatchImage>& images) {
    // Written straight into the text, not through a Table: a table of 200,000 histogram rows
    // would be 50 M cells of some 50 bytes each before its text is made.
    const std::vector<std::string> columns = batchCsvColumns(pipeline);
    std::string out;
    for (std::size_t c = 0; c < columns.size(); ++c)
        out.append(c ? "," : "").append(csvField(columns[c]));
    out += '\n';
    const std::size_t values = columns.size() - kHeadColumns;
    char number[24];
    auto add = [&](std::uint64_t v) {
        const auto [end, ec] = std::to_chars(number, number + sizeof number, v);
        out += ',';
        out.append(number, end);
    };
    for (const BatchImage& image : images) {
        auto head = [&] {
            out += csvField(image.file);
            out += ',';
            out += statusName(imageStatus(image));
            out += ',';
            out += csvField(image.error);
            if (image.width) {
                add(std::uint64_t(image.width));
                add(std::uint64_t(image.height));
                add(std::uint64_t(image.channels));
                add(std::uint64_t(image.depth));
            } else {
                out += ",,,,";
            }
        };
        if (pipeline != BatchPipeline::Histogram) {
            head();
            for (std::size_t v = 0; v < values; ++v)
                out.append(",").append(v < image.values.size() ? csvField(image.values[v]) : "");
            out += '\n';
            continue;
        }
        if (image.histograms.empty()) {
            head();
            out.append(values, ',');
            out += '\n';
            continue;
        }
        for (const ChannelHistogram& h : image.histograms) {
            head();
            out.append(",").append(csvField(h.name));
            for (std::uint64_t c : h.counts)
                add(c);
            out += '\n';
        }
    }
    return out;
}

BatchPipeline BatchTableReader::begin(const std::vector<std::string>& header,
                                      const std::string& source) {
    bool known = false;
    m_withoutDetail = false;
    m_withoutColoc = false;
    BatchPipeline pipeline = BatchPipeline::Histogram;
    for (BatchPipeline p : batchPipelines().values()) {
        std::vector<std::string> columns = batchCsvColumns(p);
        // The older shapes: no detail column (the error in the status column's place); joint's
        // without the colocalisation columns.
        const std::size_t coloc = p == BatchPipeline::Joint ? batchColocColumns().size() : 0;
        for (int older = 0; older < (coloc ? 4 : 2); ++older) {
            std::vector<std::string> shape = columns;
            if (older & 2)
                shape.resize(shape.size() - coloc);
            if (older & 1)
                shape.erase(shape.begin() + 2);
            if (header == shape) {
                pipeline = p;
                known = true;
                m_withoutDetail = older & 1;
                m_withoutColoc = older & 2;
            }
        }
    }
    if (!known)
        throw InputError(source + ": not a batch table (its header is not file, status, detail, "
                                  "width, height, channels, depth and a pipeline's columns: "
                                  "histogram, b0 ... b255, or joint's, blur's or equalize's)");
    if (!m_sources.empty() && pipeline != m_pipeline)
        throw InputError(source + ": a batch table of " + batchPipelineName(pipeline) + "; " +
                         m_sources.front() + " is one of " + batchPipelineName(m_pipeline));
    m_pipeline = pipeline;
    m_columns = batchCsvColumns(pipeline);
    m_sources.push_back(source);
    m_tableStart = m_images.size();
    return pipeline;
}

void BatchTableReader::add(const std::vector<std::string>& read, std::size_t line) {
    const std::string& source = m_sources.back();
    const std::string at = source + ":" + std::to_string(line) + ": ";
    const bool histogram = m_pipeline == BatchPipeline::Histogram;
    const std::size_t fields = m_columns.size() - (m_withoutDetail ? 1 : 0) -
                               (m_withoutColoc ? batchColocColumns().size() : 0);
    if (read.size() != fields)
        throw InputError(at + std::to_string(read.size()) + " fields, not " +
                         std::to_string(fields));
    std::vector<std::string> older; // an older table's row in the current shape
    if (m_withoutDetail || m_withoutColoc)
        older = read;
    if (m_withoutColoc) // not computed then: empty
        older.resize(older.size() + batchColocColumns().size());
    if (m_withoutDetail) {
        const bool verified = older[1] == "verified";
        older.insert(older.begin() + 2, verified ? std::string() : older[1]);
        older[1] = statusName(verified ? Status::Verified : Status::Failed);
    }
    const std::vector<std::string>& row = m_withoutDetail || m_withoutColoc ? older : read;
    // Every number of a table is read once, here, by one checked parser each.
    auto whole = [&](std::size_t column, std::uint64_t most) {
        const std::string& v = row[column];
        const std::optional<std::uint64_t> x = parseCount(v);
        if (!x)
            throw InputError(at + m_columns[column] + ": '" + v + "' is not a whole number");
        if (*x > most)
            throw InputError(at + m_columns[column] + ": '" + v + "' is beyond what an image " +
                             "may have (at most " + std::to_string(most) + ")");
        return *x;
    };
    const bool sameImage =
        histogram && m_images.size() > m_tableStart && m_images.back().file == row[0];
    if (!sameImage) {
        if (const auto [it, fresh] = m_seen.emplace(row[0], m_sources.size() - 1); !fresh)
            throw InputError(it->second + 1 == m_sources.size()
                                 ? at + row[0] + (histogram ? "'s rows are apart" : " has two rows")
                                 : source + ": " + row[0] + " is also in " + m_sources[it->second]);
        BatchImage image;
        image.file = row[0];
        Status status = Status::Failed;
        try {
            status = parseStatus(row[1]);
        } catch (const InputError& e) {
            throw InputError(at + "status: " + e.what());
        }
        image.error = row[2];
        image.verified = status == Status::Verified;
        if (!row[3].empty()) {
            constexpr std::uint64_t most = std::numeric_limits<int>::max();
            image.width = int(whole(3, most));
            image.height = int(whole(4, most));
            image.channels = int(whole(5, most));
            image.depth = int(whole(6, most));
        }
        m_images.push_back(std::move(image));
    }
    BatchImage& image = m_images.back();
    if (!histogram) {
        const bool any = std::any_of(row.begin() + kHeadColumns, row.end(),
                                     [](const std::string& v) { return !v.empty(); });
        if (!any)
            return;
        for (std::size_t c = kHeadColumns; c < row.size(); ++c) {
            const std::string& v = row[c];
            const std::string& name = m_columns[c];
            if (name == "counted" || name == "left_out" || name == "radius")
                whole(c, std::numeric_limits<std::uint64_t>::max());
            if (name == "above_both" && !v.empty())
                whole(c, std::numeric_limits<std::uint64_t>::max());
            const std::vector<std::string> coloc = batchColocColumns();
            if ((name.rfind("h_", 0) == 0 || name == "mi" || name == "nmi" ||
                 std::find(coloc.begin(), coloc.end(), name) != coloc.end()) &&
                !v.empty() && !parseFiniteNumber(v))
                throw InputError(at + name + ": '" + v + "' is not a finite number");
            if (name == "checksum" &&
                (v.size() != 16 || v.find_first_not_of("0123456789abcdef") != v.npos))
                throw InputError(at + name + ": '" + v + "' is not 16 hex digits");
        }
        image.values.assign(row.begin() + kHeadColumns, row.end());
        // joint's channels and bins, blur's radius and border: one for every row, as one run.
        const std::size_t keys = m_pipeline == BatchPipeline::Joint  ? 3
                                 : m_pipeline == BatchPipeline::Blur ? 2
                                                                     : 0;
        std::string mine;
        for (std::size_t k = 0; k < keys; ++k)
            mine += (k ? "," : "") + image.values[k];
        if (keys && m_setting.empty()) {
            m_setting = mine;
            m_settingFrom = source;
        } else if (keys && mine != m_setting) {
            throw InputError(source + ": " + image.file + " was run with " + mine + ", " +
                             m_settingFrom + "'s images with " + m_setting +
                             ": tables of one run's settings merge");
        }
        return;
    }
    if (row[kHeadColumns].empty())
        return;
    ChannelHistogram h;
    h.name = row[kHeadColumns];
    for (std::size_t b = 0; b < 256; ++b)
        h.counts[b] = whole(kHeadColumns + 1 + b, std::numeric_limits<std::uint64_t>::max());
    if (image.verified) {
        // The totals (batchTotals adds the verified images' histograms) must not wrap: checked
        // here, where the file and line that pass 2^64 - 1 can still be named.
        Total& total = m_totals[h.name];
        for (std::size_t b = 0; b < 256; ++b)
            if (__builtin_add_overflow(total.counts[b], h.counts[b], &total.counts[b]) ||
                __builtin_add_overflow(total.sum, h.counts[b], &total.sum))
                throw InputError(at + "b" + std::to_string(b) + ": '" + row[kHeadColumns + 1 + b] +
                                 "' takes the " + h.name + " totals past 2^64 - 1");
    }
    image.histograms.push_back(h);
}

BatchTable parseBatchCsv(const std::string& text, const std::string& source) {
    const std::vector<std::vector<std::string>> rows = parseCsv(text, source);
    BatchTableReader reader;
    BatchTable table;
    table.pipeline = reader.begin(rows.empty() ? std::vector<std::string>{} : rows.front(), source);
    for (std::size_t i = 1; i < rows.size(); ++i)
        reader.add(rows[i], i + 1);
    table.images = std::move(reader.images());
    return table;
}

std::vector<BatchImage> mergeBatchTables(const std::vector<std::vector<BatchImage>>& shards,
                                         const std::vector<std::string>& sources) {
    return mergeShardRows(shards, sources, [](const BatchImage& b) { return b.file; });
}

} // namespace histlab
