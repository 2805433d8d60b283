// Joint histograms as the front ends see them: histlab-cli joint's options (two images, or two
// channels of one; a mask), its plan, its report (entropies, MI, NMI; the 2-D table as CSV; JSON).
// Metric: GB/s = bytes read (both planes and the mask) / median time of one joint histogram
// (clear + count), against the read-only kernel on the first plane in the same run.
#include "pipelines/largebin/joint.h"
#include "pipelines/options.h"
#include "pipelines/pipeline.h"
#include "report/files.h"
#include "report/json.h"
#include "report/table.h"
#include "report/text.h"
#include "runtime/errors.h"

#include <memory>
#include <sstream>

namespace histlab {

struct JointParams {
    std::vector<std::string> paths;                       ///< IMAGE_A [IMAGE_B]
    std::vector<std::shared_ptr<const HostImage>> images; ///< loaded, in order
    std::string maskPath;
    std::shared_ptr<const HostImage> mask;
    std::string channels = "gray,gray"; ///< --channels A,B
    std::pair<int, int> bins{256, 256};
    std::optional<BinRange> rangeA, rangeB;
    std::vector<LargeBinMethod> methods{LargeBinMethod::Auto};
    int repeats = 5;
    /// --synthetic D --type T --count N: A and B synthetic (seeds 1 and 2), for machines
    /// without an image loader.
    std::optional<LargeBinData> synthetic;
    SampleType type = SampleType::U8;
    std::size_t count = 0;
};

struct JointRequest {
    SamplePlane a, b;
    std::vector<std::uint8_t> mask;
    std::string maskSource;
    JointSpec spec;
    std::vector<LargeBinMethod> methods;
    int repeats = 5;
};

struct JointRun {
    DeviceInfo device;
    std::string sourceA, sourceB, maskSource;
    std::size_t pairs = 0;
    JointSpec spec;
    JointHistogram histogram;
    MutualInformation mi;
    CeilingResult ceiling;
    std::vector<JointPoint> points;
};

namespace {

JointRequest planJoint(const DeviceInfo& device, const JointParams& params) {
    if (params.synthetic) {
        if (!params.images.empty() || params.mask)
            throw UsageError("--synthetic", "images or --synthetic, not both");
        if (params.count == 0 || params.count > 0xFFFFFFFFu)
            throw UsageError("--count", "--synthetic needs --count N, 1 to 4,294,967,295 pairs");
        // Checked before anything is made.
        checkSyntheticBytes(device, params.count * sampleBytes(params.type), 2, "--count");
        JointRequest r;
        r.a = makeLargeBinData(*params.synthetic, params.type, params.count, 1);
        r.b = makeLargeBinData(*params.synthetic, params.type, params.count, 2);
        r.a.source += " (seed 1)";
        r.b.source += " (seed 2)";
        r.spec = makeJointSpec(r.a, r.b, params.bins.first, params.bins.second, params.rangeA,
                               params.rangeB);
        r.methods = params.methods;
        r.repeats = params.repeats;
        return r;
    }
    if (params.images.empty() || params.images.size() > 2)
        throw UsageError("joint", "give IMAGE_A and IMAGE_B, or one IMAGE with --channels A,B");
    const std::vector<std::string> channels = splitList(params.channels);
    if (channels.size() != 2)
        throw UsageError("--channels", "'" + params.channels + "' is not two channels A,B");
    JointRequest r;
    const HostImage& first = *params.images.front();
    const HostImage& second = *params.images.back();
    r.a = imagePlane(first, channels[0]);
    r.b = imagePlane(second, channels[1]);
    if (first.width != second.width || first.height != second.height)
        throw InputError(first.source + " (" + std::to_string(first.width) + " x " +
                         std::to_string(first.height) + ") and " + second.source + " (" +
                         std::to_string(second.width) + " x " + std::to_string(second.height) +
                         ") differ in size");
    r.spec = makeJointSpec(r.a, r.b, params.bins.first, params.bins.second, params.rangeA,
                           params.rangeB);
    if (params.mask) {
        const HostImage& m = *params.mask;
        if (m.width != first.width || m.height != first.height || m.channels != 1)
            throw InputError(m.source + ": a mask is one channel of the images' size (" +
                             std::to_string(first.width) + " x " + std::to_string(first.height) +
                             "), not " + std::to_string(m.width) + " x " +
                             std::to_string(m.height) + " with " + std::to_string(m.channels) +
                             " channel(s)");
        r.maskSource = m.source;
        const SamplePlane plane = imagePlane(m, "gray");
        r.mask.resize(plane.count());
        for (std::size_t i = 0; i < plane.count(); ++i)
            r.mask[i] = sampleValue(plane, i) != 0 ? 1 : 0;
    }
    r.methods = params.methods;
    r.repeats = params.repeats;
    return r;
}

JointRun runJoint(Device& device, const JointRequest& r, const CancelToken& cancel,
                  const std::function<void(const JointPoint&)>& onPoint) {
    JointRun run;
    run.device = device.info();
    run.sourceA = r.a.source;
    run.sourceB = r.b.source;
    run.maskSource = r.maskSource;
    run.pairs = r.a.count();
    run.spec = r.spec;
    run.histogram = jointHistogramReference(r.a, r.b, r.spec, r.mask);
    run.mi = mutualInformation(run.histogram);
    const cl::Buffer a = uploadPlane(device, r.a), b = uploadPlane(device, r.b);
    std::optional<cl::Buffer> mask;
    if (!r.mask.empty()) {
        SamplePlane m;
        m.type = SampleType::U8;
        m.bytes = r.mask;
        mask = uploadPlane(device, m);
    }
    if (r.a.bytes.size() >= 16)
        run.ceiling = measureReadCeiling(device, a, r.a.bytes.size(), r.repeats, cancel);
    for (LargeBinMethod m : r.methods) {
        cancel.throwIfCancelled();
        JointPoint p = runJointPoint(device, a, b, mask ? &*mask : nullptr, run.pairs, r.spec,
                                     run.histogram, m, r.repeats, cancel);
        if (run.ceiling.gbps > 0 && statusRan(p.status))
            p.percentOfCeiling = 100.0 * p.gbps / run.ceiling.gbps;
        if (onPoint)
            onPoint(p);
        run.points.push_back(std::move(p));
    }
    return run;
}

std::string number(double v) {
    std::ostringstream s;
    s.precision(6);
    s << std::fixed << v;
    return std::isnan(v) ? std::string("nan (undefined: a zero denominator)") : s.str();
}

std::string jointText(const JointRun& run) {
    std::ostringstream out;
    out << "joint " << run.sourceA << " x " << run.sourceB << ", " << run.pairs << " pairs, "
        << run.spec.a.bins << " x " << run.spec.b.bins << " bins";
    if (!run.maskSource.empty())
        out << ", mask " << run.maskSource;
    out << '\n' << deviceLine(run.device) << '\n';
    out << "counted " << run.histogram.counted() << ", left out " << run.histogram.leftOut
        << " (out of range, NaN or masked)\n";
    out << "H(A) " << number(run.mi.entropyA) << " bits, H(B) " << number(run.mi.entropyB)
        << " bits, H(A,B) " << number(run.mi.jointEntropy) << " bits\n";
    out << "MI " << number(run.mi.mi) << " bits\n";
    out << "NMI (H(A)+H(B))/H(A,B) " << number(run.mi.nmiStudholme) << '\n';
    out << "NMI 2 MI/(H(A)+H(B)) " << number(run.mi.nmiArithmetic) << '\n';
    out << "NMI MI/sqrt(H(A) H(B)) " << number(run.mi.nmiGeometric) << '\n';
    using A = TextTable::Align;
    TextTable table({{"method", A::Left},
                     {"median ms"},
                     {"GB/s"},
                     {"G pairs/s"},
                     {"% read-only"},
                     {"geometry", A::Left},
                     {"status", A::Left}});
    for (const JointPoint& p : run.points) {
        const bool ran = statusRan(p.status);
        table.add({largeBinMethodName(p.method), ran ? fixedText(p.stats.medianMs, 4) : "-",
                   ran ? fixedText(p.gbps, 2) : "-", ran ? fixedText(p.gpairs, 2) : "-",
                   ran && run.ceiling.gbps > 0 ? fixedText(p.percentOfCeiling, 1) : "-", p.geometry,
                   statusText(p.status, p.detail)});
    }
    out << table.text();
    return out.str();
}

/// Rows = bins of A, columns = bins of B: "a_bin,b0,b1,..." then one row per bin of A.
std::string jointCsv(const JointRun& run) {
    std::vector<std::string> columns{"a_bin"};
    for (int j = 0; j < run.spec.b.bins; ++j) {
        std::string name = "b"; // appended, not "b" + ...: GCC 12 at -O3 warns wrongly
        name += std::to_string(j);
        columns.push_back(std::move(name));
    }
    Table table(columns);
    for (int i = 0; i < run.spec.a.bins; ++i) {
        table.row().add(i);
        for (int j = 0; j < run.spec.b.bins; ++j)
            table.add(run.histogram
                          .counts[std::size_t(i) * std::size_t(run.spec.b.bins) + std::size_t(j)]);
    }
    return table.csv();
}

Json nanOrNumber(double v) {
    return std::isnan(v) ? Json(nullptr) : Json(v);
}

std::string jointJson(const JointRun& run) {
    Json points = Json::array();
    for (const JointPoint& p : run.points)
        points.push_back({{"method", largeBinMethodName(p.method)},
                          {"geometry", p.geometry},
                          {"build_options", p.buildOptions},
                          {"status", statusName(p.status)},
                          {"detail", p.detail},
                          {"timing", timingJson(p.stats)},
                          {"bytes", p.bytes},
                          {"gbps", p.gbps},
                          {"gpairs_per_s", p.gpairs},
                          {"percent_of_read_only", p.percentOfCeiling}});
    auto axis = [](const BinSpec& s, const std::string& source,
                   const std::vector<std::uint64_t>& marginal) {
        return Json{{"source", source},
                    {"bins", s.bins},
                    {"lo", s.lo},
                    {"hi", s.hi},
                    {"marginal", marginal}};
    };
    return jsonText({{"tool", "histlab-cli joint"},
                     {"date", utcTimestamp()},
                     {"device", deviceJson(run.device)},
                     {"pairs", run.pairs},
                     {"mask", run.maskSource},
                     {"a", axis(run.spec.a, run.sourceA, run.histogram.marginalA())},
                     {"b", axis(run.spec.b, run.sourceB, run.histogram.marginalB())},
                     {"counted", run.histogram.counted()},
                     {"left_out", run.histogram.leftOut},
                     {"entropy_a_bits", run.mi.entropyA},
                     {"entropy_b_bits", run.mi.entropyB},
                     {"joint_entropy_bits", run.mi.jointEntropy},
                     {"mi_bits", run.mi.mi},
                     {"nmi_studholme", nanOrNumber(run.mi.nmiStudholme)},
                     {"nmi_arithmetic", nanOrNumber(run.mi.nmiArithmetic)},
                     {"nmi_geometric", nanOrNumber(run.mi.nmiGeometric)},
                     {"read_only", ceilingJson(run.ceiling)},
                     {"points", std::move(points)}});
}

} // namespace

Pipeline jointPipeline() {
    Pipeline p;
    p.name = "joint";
    p.summary = "joint 2-D histograms of two images (or two channels of one), with entropies, "
                "mutual information and normalised MI, verified cell by cell";
    p.description =
        "The joint histogram of two images of the same size (IMAGE_A IMAGE_B), or of two "
        "channels of one image (--channels A,B), BX x BY bins over each image's range (NumPy's "
        "rule per axis), an optional mask (a one-channel image: non-zero pixels are counted). "
        "Prints H(A), H(B), H(A,B), MI in bits and the normalised variants (H(A)+H(B))/H(A,B) "
        "(scikit-image's normalized_mutual_information), 2 MI/(H(A)+H(B)) and MI/sqrt(H(A) "
        "H(B)). GB/s = bytes read (both planes and the mask) / median time of one joint "
        "histogram, against the read-only kernel on the first plane in the same run.";
    p.reference = "jointHistogramReference: every pair binned on the host, compared cell by "
                  "cell; entropies and MI in double precision from the counts";
    using P = JointParams;
    p.options = {
        imageOption<P>(
            "IMAGE", "FILE", "IMAGE_A and IMAGE_B (same size), or one image with --channels",
            [](P& s, const std::string& path) {
                if (s.paths.size() == 2)
                    throw UsageError("joint", "more than two images given ('" + s.paths[0] +
                                                  "', '" + s.paths[1] + "', '" + path + "')");
                s.paths.push_back(path);
            },
            [](P& s, HostImage image) {
                s.images.push_back(std::make_shared<const HostImage>(std::move(image)));
            }),
        valueOption<P>("--channels", "A,B",
                       "the channel of each image: gray (default: the image, or a color "
                       "image's luma), r, g, b, a; with one image, two of its channels",
                       [](P& s, const std::string& v) { s.channels = v; }),
        valueOption<P>("--bins", "BX[,BY]", "bins per axis, 1 to 1024 each (default 256,256)",
                       [](P& s, const std::string& v) { s.bins = parseJointBins(v); }),
        valueOption<P>("--range-a", "LO,HI", "A's binned range (default: the whole type)",
                       [](P& s, const std::string& v) { s.rangeA = parseBinRange(v); }),
        valueOption<P>("--range-b", "LO,HI", "B's binned range (default: the whole type)",
                       [](P& s, const std::string& v) { s.rangeB = parseBinRange(v); }),
        imageOption<P>(
            "--mask", "FILE", "a one-channel image of the same size: non-zero pixels are counted",
            [](P& s, const std::string& path) { s.maskPath = path; },
            [](P& s, HostImage image) {
                s.mask = std::make_shared<const HostImage>(std::move(image));
            }),
        valueOption<P>("--method", "M", "auto (default: multipass) | global | multipass | all",
                       [](P& s, const std::string& v) {
                           s.methods =
                               parseNameList<LargeBinMethod>(v, jointMethods, parseLargeBinMethod);
                       }),
        valueOption<P>("--synthetic", "D",
                       "instead of images: synthetic A and B (seeds 1 and 2), random | skewed | "
                       "smooth, with --type and --count",
                       [](P& s, const std::string& v) { s.synthetic = parseLargeBinData(v); }),
        valueOption<P>("--type", "T", "synthetic sample type: u8 (default) | u16 | f32",
                       [](P& s, const std::string& v) { s.type = parseSampleType(v); }),
        valueOption<P>("--count", "N", "synthetic pairs",
                       [](P& s, const std::string& v) {
                           s.count = std::size_t(parseWholeNumber("--count", v, 1, 1ll << 40));
                       }),
        repeatOption<P>(&P::repeats, "timed runs after a warm-up (default 5)"),
    };
    p.csvHelp = "the 2-D table: a header a_bin,b0,b1,... and one row per bin of A";
    p.jsonHelp = "the whole run: inputs, bins and marginals per axis, entropies, MI, NMI (null "
                 "where undefined), every method's timing";
    bindDevicePipeline<JointParams, JointRequest, JointRun>(
        p, planJoint,
        [](JobContext& ctx, Device& device, const JointRequest& request, const ItemSink& onItem) {
            ctx.progress(0.0, "joint histogram");
            JointRun run = runJoint(device, request, ctx.cancelToken(), [&](const JointPoint& pt) {
                if (onItem)
                    onItem(pt);
            });
            return run;
        },
        [](const JointRun& run) {
            Report r;
            r.text = jointText(run);
            r.table = Table({"method", "median_ms", "gbps", "status", "detail"});
            for (const JointPoint& pt : run.points)
                r.table.row()
                    .add(largeBinMethodName(pt.method))
                    .add(pt.stats.medianMs)
                    .add(pt.gbps)
                    .add(statusName(pt.status))
                    .add(pt.detail);
            r.csv = [&run] { return jointCsv(run); };
            r.json = [&run] { return jointJson(run); };
            r.verdict = countStatuses(run.points)
                            .verdict("joint histogram(s)",
                                     "no joint method could run on " + run.device.name);
            return r;
        });
    p.describeItem = [](const std::any& item) {
        const JointPoint& pt = std::any_cast<const JointPoint&>(item);
        return std::string(largeBinMethodName(pt.method)) + ": " + statusName(pt.status);
    };
    return p;
}

} // namespace histlab
