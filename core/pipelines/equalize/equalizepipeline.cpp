// The equalization family as the front ends see it: histlab-cli equalize's options, the plan,
// the report (text, the histogram and CDF as CSV, the equalized image), and the dashboard's
// "equalize".
// Metric (equalize.h): each stage's kernel time (event profiling); GB/s of the apply pass =
// image bytes read + written / its median time. The dashboard counts the whole equalization:
// 3 x image bytes / total time, against the copy kernel on the image's bytes in the same run.
#include "pipelines/bandwidth/bandwidth.h"
#include "pipelines/equalize/equalize.h"
#include "pipelines/options.h"
#include "pipelines/pipeline.h"
#include "report/text.h"
#include "runtime/errors.h"

#include <iomanip>
#include <sstream>

namespace histlab {

EqualizePlan planEqualize(const DeviceInfo& device, const EqualizeParams& params) {
    checkImageInput(params.input, "equalize");
    EqualizePlan plan;
    plan.image = imageOf(params.input);
    plan.repeats = params.repeats;
    plan.apply = equalizeApplyFor(device, plan.image->channels, plan.image->depth, params.apply);
    return plan;
}

std::string equalizeText(const EqualizeResult& result) {
    const EqualizeRun& run = result.run;
    const HostImage& image = *result.image;
    std::ostringstream out;
    out << "equalize " << image.source << ", " << image.width << " x " << image.height << ", "
        << image.channels << " channel(s), " << image.depth << "-bit, " << run.bins << " bins of "
        << (image.channels == 1 ? "gray" : "luma") << "\n";
    out << deviceLine(result.device) << '\n';
    if (!run.histogramConfig.empty())
        out << "histogram kernel: " << run.histogramConfig << '\n';
    out << "gather: " << run.apply.describe() << '\n';
    using A = TextTable::Align;
    TextTable table({{"stage", A::Left}, {"median ms"}, {"min ms"}, {"", A::Left}});
    const std::pair<const char*, const TimingStats*> stages[] = {{"histogram", &run.histogramStats},
                                                                 {"cdf", &run.cdfStats},
                                                                 {"lut", &run.lutStats},
                                                                 {"apply", &run.applyStats},
                                                                 {"total", &run.totalStats}};
    for (const auto& [name, stats] : stages)
        table.add({name, fixedText(stats->medianMs, 4), fixedText(stats->minMs, 4),
                   stats == &run.applyStats
                       ? fixedText(run.applyGbps, 2) + " GB/s (bytes read + written)"
                       : ""});
    out << table.text();
    out << "verified: "
        << (run.verified ? "yes, byte for byte against the CPU reference"
                         : "NO - " + run.verifyDetail)
        << '\n';
    return out.str();
}

Table equalizeTable(const EqualizeRun& run) {
    Table table({"bin", "count", "cdf"});
    for (std::size_t b = 0; b < run.histogram.size(); ++b)
        table.row().add(std::uint64_t(b)).add(run.histogram[b]).add(run.cdf[b]);
    return table;
}

namespace {

DashboardPipeline equalizeDashboardEntry() {
    return {"equalize",
            "the histogram equalization of a random 8-bit gray image, all four stages "
            "(histogram, CDF, table, gather); 3 x image bytes (read twice, written once) / total "
            "time, against the copy kernel",
            [](Device& device, const DashboardOptions& o, const CancelToken& cancel) {
                const HostImage image = randomGrayImage(o.bytes);
                const EqualizeRun run = runEqualize(device, image, o.repeats, cancel);
                // The copy kernel on the image's bytes, on the same device in the same run.
                CeilingResult copy;
                try {
                    cl::Buffer buffer(device.context(), CL_MEM_READ_ONLY, image.byteCount());
                    device.queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, image.byteCount(),
                                                      image.data.data());
                    copy = measureCopyCeiling(device, buffer, image.byteCount(), o.repeats, cancel);
                } catch (const cl::Error& e) {
                    rethrowClError(e);
                }
                DashboardResult r;
                r.variant = std::to_string(run.bins) + " bins, " + std::to_string(image.width) +
                            " x " + std::to_string(image.height);
                r.bytes = 3 * std::uint64_t(image.byteCount());
                r.stats = run.totalStats;
                r.gbps = gbPerSecond(r.bytes, r.stats.medianMs);
                r.judgeAgainst("copy", copy);
                r.status = run.verified ? Status::Verified : Status::Mismatch;
                r.reason = run.verified ? std::string() : run.verifyDetail;
                return std::vector<DashboardResult>{r};
            }};
}

} // namespace

EqualizeResult runEqualizeJob(JobContext& ctx, Device& device, const EqualizePlan& plan,
                              const ItemSink&) {
    EqualizeResult result;
    result.device = device.info();
    result.image = plan.image;
    ctx.progress(0.1, "equalizing");
    result.run = runEqualize(device, *plan.image, plan.repeats, ctx.cancelToken(), plan.apply);
    return result;
}

std::vector<std::uint64_t> equalizedHistogram(const EqualizeRun& run) {
    std::vector<std::uint64_t> counts(std::size_t(run.bins), 0);
    for (std::uint32_t v : equalizePlane(run.output))
        if (v < counts.size())
            ++counts[v];
    return counts;
}

Pipeline equalizePipeline() {
    Pipeline p;
    p.name = "equalize";
    p.summary = "histogram equalization on the device, each stage timed, verified";
    p.description =
        "Histogram equalization on the device: the histogram, the cumulative histogram, the "
        "look-up table and the gather of every pixel through it, each stage timed (event "
        "profiling, after a warm-up); GB/s of the apply pass = image bytes read + written / its "
        "median time. Gray is equalized on its values (8-bit: cv::equalizeHist's rule; 16-bit: "
        "65,536 bins, exact integers); color on its luma (OpenCV's BGR2GRAY weights), every "
        "color channel moved by the luma's change, alpha kept; a single-valued image stays as "
        "it is.";
    p.reference = "equalizeReference: the histogram, CDF, table and image on the host, compared "
                  "byte for byte (8-bit gray: OpenCV's equalizeHist bit for bit)";
    using P = EqualizeParams;
    p.options = {imageArgument<P>(&P::input, "equalize", "8- or 16-bit gray, RGB or RGBA")};
    for (PipelineOption& o : syntheticImageOptions<P>(&P::input))
        p.options.push_back(std::move(o));
    p.options.push_back(valueOption<P>(
        "--repeat", "N", "timed runs after a warm-up (default 5): median and min per stage",
        [](P& s, const std::string& v) {
            s.repeats = int(parseWholeNumber("--repeat", v, 1, 100000));
        }));
    p.options.push_back(valueOption<P>(
        "--lut", "WHERE",
        "tuning: where the gather of an 8-bit gray image reads its table: auto | global | local "
        "(one copy in local memory) | lanes (32 copies, one per local-memory bank); default: "
        "local on GPUs, global on CPU devices and for color or 16-bit images",
        [](P& s, const std::string& v) { s.apply.lut = parseEqualizeLut(v); }));
    p.options.push_back(
        valueOption<P>("--wg", "N", "tuning: work-items per group of the gather (default 256)",
                       [](P& s, const std::string& v) {
                           s.apply.workGroupSize = int(parseWholeNumber("--wg", v, 1, 1 << 20));
                       }));
    p.options.push_back(valueOption<P>(
        "--groups-per-cu", "K|all",
        "tuning: work-groups of the gray gather = K x compute units, each work-item looping "
        "over the image, or all: one 16-byte vector per work-item (default: 4 on GPUs, all on "
        "CPU devices)",
        [](P& s, const std::string& v) {
            s.apply.groupsPerCu = v == "all" ? EqualizeApply::kAllGroups
                                             : int(parseWholeNumber("--groups-per-cu", v, 1, 1024));
        }));
    p.options.push_back(
        valueOption<P>("--unroll", "U",
                       "tuning: 16-byte loads in flight per work-item of the gray gather, 1 to 8 "
                       "(default 4 on GPUs, 1 on CPU devices)",
                       [](P& s, const std::string& v) {
                           s.apply.unroll = int(parseWholeNumber("--unroll", v, 1, 8));
                       }));
    p.csvHelp = "the input's histogram, before equalization: of its gray values (its luma for "
                "RGB/RGBA), and its cumulative sum, from which the table is built (bin,count,cdf; "
                "256 or 65,536 rows; not the equalized output's)";
    p.outputs = {{"--out",
                  "the equalized image (optional: without it the run is timed and verified only); "
                  "written on a mismatch too",
                  true}};
    bindDevicePipeline<EqualizeParams, EqualizePlan, EqualizeResult>(
        p, planEqualize, runEqualizeJob,
        [](const EqualizeResult& result) {
            Report r;
            r.text = equalizeText(result);
            r.table = equalizeTable(result.run);
            r.csv = [&result] { return equalizeTable(result.run).csv(); };
            r.images["--out"] = {&result.run.output, ""};
            r.verdict = verificationVerdict(result.run.verified, result.run.verifyDetail);
            return r;
        },
        [](EqualizeParams& params) { checkImageInput(params.input, "equalize"); });
    p.dashboard = {equalizeDashboardEntry()};
    return p;
}

} // namespace histlab
