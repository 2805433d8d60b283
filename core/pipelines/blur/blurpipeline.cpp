// The box blur family as the front ends see it: histlab-cli blur's options, the plan both modes
// run (the reference text's launches, or the whole image's variants), the report, the cv::blur
// peer hook, and the dashboard's "blur3x3".
// Metric (blur.h): GB/s = (image bytes read + bytes written) / median kernel time; the whole
// image is judged against the copy kernel on the same bytes in the same run, the launches count
// the interior's bytes.
#include "pipelines/blur/blur.h"
#include "pipelines/options.h"
#include "pipelines/pipeline.h"
#include "report/files.h"
#include "report/json.h"
#include "report/text.h"
#include "runtime/errors.h"

#include <iomanip>
#include <mutex>
#include <sstream>
#include <utility>
#include <vector>

namespace histlab {

namespace {

std::mutex g_peerMutex;
BlurPeer g_peer;

BlurPeer blurPeer() {
    std::lock_guard lock(g_peerMutex);
    return g_peer;
}

bool wholeImageAsked(const BlurParams& params) {
    return params.border || params.variants || params.compareOpenCv;
}

/// cv::blur's GB/s on the same bytes as the device's runs (read + written).
double opencvGbps(const BlurResult& result) {
    return result.opencv ? gbPerSecond(2 * result.plan.image->data.size(), result.opencv->medianMs)
                         : 0.0;
}

const char* rowVariantName(const BlurVariantRow& row) {
    return blurVariantName(row.run ? row.run->variant : row.requested);
}

std::string sizeText(std::size_t x, std::size_t y) {
    return std::to_string(x) + "x" + std::to_string(y);
}

} // namespace

void setBlurPeer(BlurPeer peer) {
    std::lock_guard lock(g_peerMutex);
    g_peer = std::move(peer);
}

void checkBlurParams(const BlurParams& params) {
    checkImageInput(params.input, "blur");
    if (params.compareOpenCv && params.border == BorderMode::Interior)
        throw UsageError("--compare-opencv", "OpenCV has no interior-only border (use replicate "
                                             "or reflect101)");
    if (!wholeImageAsked(params) && params.radii.size() > 1)
        throw UsageError("--radius", "a list of radii needs --border or --variant");
    if (params.radii.empty())
        throw UsageError("--radius", "needs a radius");
}

BlurPlan planBlur(const DeviceInfo& device, const BlurParams& params) {
    checkBlurParams(params);
    BlurPlan plan;
    plan.mode = wholeImageAsked(params) ? BlurMode::WholeImage : BlurMode::Launches;
    plan.image = imageOf(params.input);
    plan.radii = params.radii;
    plan.launches = params.launches;
    plan.corners = params.corners;
    plan.variants = params.variants.value_or(std::vector<BlurVariant>{BlurVariant::Auto});
    plan.border = params.border.value_or(BorderMode::Reflect101);
    plan.tuning = blurTuningFor(device, params.tuning);
    if (params.tuning.workGroup > 0) // more than the device allows: refused before any run
        blurGroupSize(device, params.tuning.workGroup, 0);
    plan.tuning.measureCopy = true;
    plan.repeats = params.repeats;
    plan.compareOpenCv = params.compareOpenCv;
    plan.keepOutputs = params.keepOutputs;
    return plan;
}

BlurResult runBlurPlan(Device& device, const BlurPlan& plan, const CancelToken& cancel,
                       const std::function<void(const BlurVariantRow&)>& onRow,
                       const std::function<void(double, const std::string&)>& progress) {
    auto step = [&](double fraction, const std::string& what) {
        if (progress)
            progress(fraction, what);
    };
    BlurResult result;
    result.plan = plan;
    result.device = device.info();
    if (plan.mode == BlurMode::Launches) {
        result.plane = blurLaunchPlane(*plan.image, &result.note);
        step(0.1, plan.launches.size() == 1 ? blurLaunchName(plan.launches.front()) : "launches");
        result.launches = runBlurLaunches(device, result.plane, plan.radii.front(), plan.launches,
                                          plan.repeats, cancel);
        if (!plan.keepOutputs)
            result.plane.data = {}; // its size and source are what the report needs
        step(1.0, "done");
        return result;
    }
    const HostImage& image = *plan.image;
    const std::size_t total = plan.radii.size() * plan.variants.size();
    std::size_t done = 0;
    step(0.0, blurVariantName(plan.variants.front()));
    result.rows = runBlurVariants(device, image, plan.radii, plan.variants, plan.border,
                                  plan.repeats, cancel, plan.tuning, [&](BlurVariantRow& row) {
                                      if (onRow)
                                          onRow(row);
                                      step(double(++done) / double(total + 1),
                                           std::string(rowVariantName(row)) + " radius " +
                                               std::to_string(row.radius));
                                      if (!row.run || plan.keepOutputs)
                                          return;
                                      if (result.firstOutput.data.empty())
                                          result.firstOutput = std::move(row.run->output);
                                      row.run->output = HostImage{}; // the figures only
                                  });
    if (plan.compareOpenCv) {
        const BlurPeer peer = blurPeer();
        if (!peer) {
            result.opencvMissing = true;
        } else {
            // cv::blur on the host at the first radius, wall clock after a warm-up, into an
            // image allocated once (the warm-up touches its pages).
            step(double(total) / double(total + 1), "cv::blur");
            HostImage out = image;
            result.opencv = timeRepeated(
                plan.repeats,
                [&] {
                    return wallClockMs([&] { peer(image, plan.radii.front(), plan.border, out); });
                },
                cancel);
        }
    }
    step(1.0, "done");
    return result;
}

namespace {

std::string launchesText(const BlurResult& result) {
    const HostImage& gray = result.plane;
    const int radius = result.plan.radii.front();
    std::ostringstream out;
    out << "blur " << gray.source << ", " << gray.width << " x " << gray.height << ", radius "
        << radius << ", interior " << std::max(0, gray.width - 2 * radius) << " x "
        << std::max(0, gray.height - 2 * radius) << "\n";
    if (!result.note.empty())
        out << "note: " << result.note << "\n";
    using A = TextTable::Align;
    TextTable launches({{"launch", A::Left},
                        {"build options", A::Left},
                        {"range", A::Left},
                        {"local", A::Left},
                        {"status", A::Left},
                        {"median ms"},
                        {"GB/s"},
                        {"verified", A::Left}});
    for (const BlurLaunchResult& r : result.launches) {
        std::vector<std::string> cells{blurLaunchName(r.launch), r.buildOptions,
                                       r.globalX ? sizeText(r.globalX, r.globalY) : "-",
                                       r.localX ? sizeText(r.localX, r.localY) : "NULL",
                                       statusName(r.status)};
        if (statusRan(r.status)) {
            cells.insert(cells.end(), {fixedText(r.stats.medianMs, 4), fixedText(r.gbps, 2),
                                       r.status == Status::Verified ? "yes" : "NO - " + r.detail});
            launches.add(std::move(cells));
        } else {
            launches.add(std::move(cells), r.detail);
        }
    }
    out << launches.text();
    if (result.plan.corners) {
        static const char* names[] = {"top-left", "top-right", "bottom-left", "bottom-right"};
        for (const BlurLaunchResult& r : result.launches) {
            if (!statusRan(r.status))
                continue;
            out << "corners of " << blurLaunchName(r.launch)
                << ": get_global_id, get_local_size, get_enqueued_local_size\n";
            for (std::size_t k = 0; k < 4; ++k) {
                const LaunchCorner& c = r.corners[k];
                out << "  " << std::left << std::setw(13) << names[k] << std::right << "("
                    << c.globalX << ", " << c.globalY << ")  (" << c.localX << ", " << c.localY
                    << ")  "
                    << (c.enqueuedX < 0 ? std::string("n/a (OpenCL C 1.2)")
                                        : "(" + std::to_string(c.enqueuedX) + ", " +
                                              std::to_string(c.enqueuedY) + ")")
                    << '\n';
            }
        }
    }
    return out.str();
}

std::string wholeImageText(const BlurResult& result) {
    const HostImage& image = *result.plan.image;
    const int cvRadius = result.plan.radii.front();
    const double cvGbps = opencvGbps(result);
    std::ostringstream out;
    out << deviceLine(result.device) << '\n';
    out << "blur " << image.source << ", " << image.width << " x " << image.height << ", "
        << image.channels << " channel(s), " << image.depth << "-bit, border "
        << borderModeName(result.plan.border) << " (GB/s: image bytes read + written)\n";
    using A = TextTable::Align;
    std::vector<TextTable::Column> columns{
        {"variant", A::Left}, {"radius"}, {"median ms"}, {"min ms"}, {"GB/s"},
        {"copy GB/s"},        {"% copy"}};
    if (result.opencv)
        columns.push_back({"x cv::blur"});
    columns.push_back({"verified", A::Left});
    TextTable table(std::move(columns));
    for (const BlurVariantRow& r : result.rows) {
        std::vector<std::string> cells{rowVariantName(r), std::to_string(r.radius)};
        if (!r.run) {
            table.addSpan(std::move(cells), statusText(r.status, r.detail));
            continue;
        }
        const BlurRun& run = *r.run;
        cells.insert(cells.end(),
                     {fixedText(run.stats.medianMs, 4), fixedText(run.stats.minMs, 4),
                      fixedText(run.gbps, 2), run.copy ? fixedText(run.copy->gbps, 2) : "-",
                      fixedText(run.percentOfCopy, 1)});
        if (result.opencv)
            cells.push_back(r.radius == cvRadius ? fixedText(run.gbps / cvGbps, 2) : "-");
        cells.push_back(run.verified ? "yes, byte for byte against the CPU reference"
                                     : "NO - " + run.verifyDetail);
        table.add(std::move(cells));
    }
    out << table.text();
    if (result.opencv)
        out << "cv::blur (host, radius " << cvRadius << "): median "
            << fixedText(result.opencv->medianMs, 4) << " ms, min "
            << fixedText(result.opencv->minMs, 4) << " ms, " << fixedText(cvGbps, 2) << " GB/s\n";
    if (result.opencvMissing)
        out << "cv::blur: not in this build (built without OpenCV), not compared\n";
    return out.str();
}

/// The launch that --out writes: the first that ran, else one with nothing to launch (its
/// output is the image copied unchanged).
const BlurLaunchResult* outputLaunch(const BlurResult& result) {
    for (const BlurLaunchResult& r : result.launches)
        if (statusRan(r.status))
            return &r;
    for (const BlurLaunchResult& r : result.launches)
        if (r.status == Status::NotApplicable)
            return &r;
    return nullptr;
}

Verdict blurVerdict(const BlurResult& result) {
    std::size_t mismatches = 0, ran = 0;
    if (result.plan.mode == BlurMode::Launches) {
        // Launches the device refuses are the demonstration, not a failure.
        for (const BlurLaunchResult& r : result.launches)
            mismatches += r.status == Status::Mismatch ? 1 : 0;
        if (mismatches)
            return {Verdict::Kind::Mismatch,
                    std::to_string(mismatches) + " launch(es) differ from the CPU reference"};
        return {};
    }
    for (const BlurVariantRow& r : result.rows) {
        ran += r.run ? 1 : 0;
        mismatches += r.status == Status::Mismatch ? 1 : 0;
    }
    return verdictOf(result.rows.size(), ran, mismatches, "run(s)", "no variant could run");
}

DashboardPipeline blurDashboardEntry() {
    return {"blur3x3",
            "the 3 x 3 box blur (reflect-101 borders), variant auto, of a random 8-bit gray "
            "image; bytes read + written, against the copy kernel",
            [](Device& device, const DashboardOptions& o, const CancelToken& cancel) {
                const HostImage image = randomGrayImage(o.bytes);
                BlurTuning tuning;
                tuning.measureCopy = true;
                const BlurRun run = runBoxBlur(device, image, 1, BorderMode::Reflect101, o.repeats,
                                               cancel, BlurVariant::Auto, tuning);
                DashboardResult r;
                r.variant = std::string("auto: ") + blurVariantName(run.variant) + ", " +
                            std::to_string(image.width) + " x " + std::to_string(image.height);
                r.bytes = 2 * std::uint64_t(image.byteCount());
                r.stats = run.stats;
                r.gbps = run.gbps;
                r.judgeAgainst("copy", run.copy.value_or(CeilingResult{}));
                r.status = run.verified ? Status::Verified : Status::Mismatch;
                r.reason = run.verified ? std::string() : run.verifyDetail;
                return std::vector<DashboardResult>{r};
            }};
}

/// "1,2,4" -> {1, 2, 4}; every item a radius from 1 to 1024.
std::vector<int> parseRadii(const std::string& option, const std::string& text) {
    std::vector<int> radii;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ','))
        radii.push_back(int(parseWholeNumber(option, item, 1, 1024)));
    if (radii.empty())
        throw UsageError(option, "needs a radius");
    return radii;
}

} // namespace

std::string blurText(const BlurResult& result) {
    return result.plan.mode == BlurMode::Launches ? launchesText(result) : wholeImageText(result);
}

Table blurTable(const BlurResult& result) {
    if (result.plan.mode == BlurMode::Launches) {
        Table table({"launch", "radius", "build_options", "global_x", "global_y", "local_x",
                     "local_y", "median_ms", "min_ms", "gbps", "status", "detail"});
        for (const BlurLaunchResult& r : result.launches) {
            table.row()
                .add(blurLaunchName(r.launch))
                .add(result.plan.radii.front())
                .add(r.buildOptions)
                .add(std::uint64_t(r.globalX))
                .add(std::uint64_t(r.globalY))
                .add(std::uint64_t(r.localX))
                .add(std::uint64_t(r.localY));
            if (statusRan(r.status))
                table.add(r.stats.medianMs).add(r.stats.minMs).add(r.gbps);
            else
                table.skip().skip().skip();
            table.add(statusName(r.status)).add(r.detail);
        }
        return table;
    }
    const HostImage& image = *result.plan.image;
    const DeviceInfo& d = result.device;
    const std::string date = utcTimestamp();
    Table table({"variant",       "radius",          "border",           "width",       "height",
                 "channels",      "depth",           "median_ms",        "min_ms",      "gbps",
                 "copy_gbps",     "percent_of_copy", "opencv_median_ms", "opencv_gbps", "status",
                 "build_options", "launch",          "device",           "driver",      "date"});
    for (const BlurVariantRow& r : result.rows) {
        const BlurRun* run = r.run ? &*r.run : nullptr;
        table.row()
            .add(rowVariantName(r))
            .add(r.radius)
            .add(borderModeName(result.plan.border))
            .add(image.width)
            .add(image.height)
            .add(image.channels)
            .add(image.depth);
        if (run) {
            table.add(run->stats.medianMs).add(run->stats.minMs).add(run->gbps);
            if (run->copy)
                table.add(run->copy->gbps);
            else
                table.skip();
            table.add(run->percentOfCopy);
        } else {
            table.skip().skip().skip().skip().skip();
        }
        if (result.opencv && r.radius == result.plan.radii.front())
            table.add(result.opencv->medianMs).add(opencvGbps(result));
        else
            table.skip().skip();
        table.add(statusName(r.status))
            .add(run ? run->buildOptions : "")
            .add(run ? run->launch : "")
            .add(d.name)
            .add(d.driverVersion)
            .add(date);
    }
    return table;
}

std::string blurJson(const BlurResult& result) {
    const BlurPlan& plan = result.plan;
    const HostImage& image = *plan.image;
    Json j{{"tool", "histlab-cli blur"},
           {"date", utcTimestamp()},
           {"device", deviceJson(result.device)},
           {"mode", plan.mode == BlurMode::Launches ? "launches" : "whole image"},
           {"image", image.source},
           {"width", image.width},
           {"height", image.height},
           {"channels", image.channels},
           {"depth", image.depth},
           {"repeats", plan.repeats}};
    if (plan.mode == BlurMode::Launches) {
        j["radius"] = plan.radii.front();
        j["note"] = result.note;
        Json launches = Json::array();
        for (const BlurLaunchResult& r : result.launches) {
            Json l{{"launch", blurLaunchName(r.launch)}, {"build_options", r.buildOptions},
                   {"global", {r.globalX, r.globalY}},   {"local", {r.localX, r.localY}},
                   {"status", statusName(r.status)},     {"detail", r.detail}};
            if (statusRan(r.status)) {
                l["timing"] = timingJson(r.stats);
                l["gbps"] = r.gbps;
                Json corners = Json::array();
                for (const LaunchCorner& c : r.corners)
                    corners.push_back(
                        {{"global", {c.globalX, c.globalY}},
                         {"local", {c.localX, c.localY}},
                         {"enqueued_local",
                          c.enqueuedX < 0 ? Json() : Json{c.enqueuedX, c.enqueuedY}}});
                l["corners"] = std::move(corners);
            }
            launches.push_back(std::move(l));
        }
        j["launches"] = std::move(launches);
        return jsonText(j);
    }
    j["border"] = borderModeName(plan.border);
    if (result.opencv)
        j["opencv"] = {{"radius", plan.radii.front()},
                       {"timing", timingJson(*result.opencv)},
                       {"gbps", opencvGbps(result)}};
    else if (result.opencvMissing)
        j["opencv"] = {{"radius", plan.radii.front()},
                       {"status", statusName(Status::Unsupported)},
                       {"reason", "cv::blur is not in this build (built without OpenCV)"}};
    Json runs = Json::array();
    for (const BlurVariantRow& r : result.rows) {
        Json row{
            {"variant", rowVariantName(r)}, {"radius", r.radius}, {"status", statusName(r.status)}};
        if (!r.detail.empty())
            row["reason"] = r.detail;
        if (r.run) {
            const BlurRun& run = *r.run;
            row["build_options"] = run.buildOptions;
            row["launch"] = run.launch;
            row["timing"] = timingJson(run.stats);
            row["gbps"] = run.gbps;
            if (run.copy) {
                row["copy_gbps"] = run.copy->gbps;
                row["percent_of_copy"] = run.percentOfCopy;
            }
        }
        runs.push_back(std::move(row));
    }
    j["runs"] = std::move(runs);
    return jsonText(j);
}

BlurResult runBlurJob(JobContext& ctx, Device& device, const BlurPlan& plan, const ItemSink&) {
    return runBlurPlan(device, plan, ctx.cancelToken(), {},
                       [&ctx](double f, const std::string& s) { ctx.progress(f, s); });
}

namespace {

/// The radii, the launches or the whole image's border and variants, the tuning, the peer.
std::vector<PipelineOption> blurModeOptions() {
    using P = BlurParams;
    auto tuning = [](const char* name, const char* valueName, const char* help, int lo, int hi,
                     int BlurTuning::*member) {
        return valueOption<P>(name, valueName, help,
                              [name, lo, hi, member](P& s, const std::string& v) {
                                  s.tuning.*member = int(parseWholeNumber(name, v, lo, hi));
                              });
    };
    return {
        valueOption<P>("--radius", "R[,R...]",
                       "window of (2R + 1) x (2R + 1) pixels (default 1: 3 x 3); with "
                       "--border/--variant, a comma list of radii (a sweep)",
                       [](P& s, const std::string& v) { s.radii = parseRadii("--radius", v); }),
        valueOption<P>("--launch", "L",
                       "cl12-null | cl12-16x16 | cl20-null | cl20-16x16 | padded-16x16 | all "
                       "(default all). cl12-16x16 is refused with CL_INVALID_WORK_GROUP_SIZE "
                       "unless the interior divides by 16; cl20-16x16 needs non-uniform "
                       "work-groups; padded-16x16 rounds the range up and checks bounds",
                       [](P& s, const std::string& v) {
                           s.launches = v == "all" ? allBlurLaunches()
                                                   : std::vector<BlurLaunch>{parseBlurLaunch(v)};
                       }),
        flagOption<P>("--corners",
                      "the table of get_global_id, get_local_size and get_enqueued_local_size at "
                      "the four corners of the range, per launch",
                      [](P& s) { s.corners = true; }),
        valueOption<P>("--border", "MODE",
                       "interior | replicate | reflect101: blur the whole image as it is (gray, "
                       "RGB or RGBA, 8- or 16-bit) with that border instead of the launches "
                       "(default reflect101, OpenCV's default, when --variant is given)",
                       [](P& s, const std::string& v) { s.border = parseBorderMode(v); }),
        valueOption<P>(
            "--variant", "V",
            "auto | direct | tiled | sliding | all: how the whole image is blurred. "
            "direct: one work-item per pixel (R <= 64); tiled: 16 bytes x a strip of rows per "
            "work-item, uint4 loads and stores (R <= 3); sliding: running column "
            "sums, then row sums from a local-memory scan (cost per pixel independent "
            "of R); auto: tiled for R <= 2, else sliding. Each run is verified and "
            "shown with the copy kernel's GB/s on the same bytes in the same run",
            [](P& s, const std::string& v) {
                s.variants =
                    v == "all" ? allBlurVariants() : std::vector<BlurVariant>{parseBlurVariant(v)};
            }),
        tuning("--rows", "N",
               "tuning: rows per work-item strip (tiled: 8 packed 8-bit gray, 4 other packed, 16 "
               "sliding down, 8 with SWAR; sliding: 64)",
               1, 65536, &BlurTuning::rows),
        tuning("--wg", "N",
               "tuning: work-items per group along x (default 128 tiled, 256 sliding; at most "
               "the device's limit, and a group the device refuses to launch is an error)",
               1, 4096, &BlurTuning::workGroup),
        tuning("--packed", "0|1",
               "tuning (tiled): all the window's rows loaded first, packed as loaded (1, a GPU's "
               "default), or slid down as horizontal sums (0, a CPU's)",
               0, 1, &BlurTuning::packed),
        tuning("--swar", "0|1",
               "tuning (tiled, 8-bit, R = 1: gray, RGBA with --packed 1): the bytes of two "
               "pixels per 32-bit register (1, the default wherever there is such a path, "
               "except gray --packed 0 on a GPU) or one value per register (0)",
               0, 1, &BlurTuning::swar),
        tuning("--registers", "N",
               "tuning (tiled, NVIDIA's OpenCL only): at most N registers per work-item "
               "(-cl-nv-maxrregcount; default 64 for 8-bit RGBA with SWAR at 4 rows and one "
               "vector there, else the compiler's choice; 0 the compiler's choice)",
               0, 255, &BlurTuning::registers),
        valueOption<P>("--vectors", "1|2|4",
                       "tuning (tiled): 16-byte vectors per work-item and row (default 1; 4 for "
                       "two pixels per register on a CPU)",
                       [](P& s, const std::string& v) {
                           s.tuning.vectors = int(parseWholeNumber("--vectors", v, 1, 4));
                           if (s.tuning.vectors == 3)
                               throw UsageError("--vectors", "1, 2 or 4");
                       }),
        tuning("--serial-rows", "0|1",
               "tuning (sliding): one row per work-item (1, a CPU's default) or row tiles "
               "scanned in local memory (0, a GPU's default)",
               0, 1, &BlurTuning::serialRows),
        flagOption<P>("--compare-opencv",
                      "also time cv::blur on the same image (host wall clock, first radius); a "
                      "build without OpenCV says so in the report",
                      [](P& s) { s.compareOpenCv = true; }),
        valueOption<P>("--repeat", "N", "timed runs after a warm-up (default 5)",
                       [](P& s, const std::string& v) {
                           s.repeats = int(parseWholeNumber("--repeat", v, 1, 100000));
                       }),
    };
}

} // namespace

Pipeline blurPipeline() {
    Pipeline p;
    p.name = "blur";
    p.summary = "box blur: the reference text's launches, or the whole image (variants, borders)";
    p.description =
        "A (2R + 1) x (2R + 1) box blur on the device, in two modes. Launches (the default): the "
        "reference text's launches of the interior blur on the image's 8-bit gray plane (a "
        "color image's luma, a 16-bit image's high byte), each verified byte for byte; GB/s = "
        "interior bytes read + written / median kernel time. The whole image (--border, "
        "--variant or --compare-opencv): gray, RGB or RGBA, 8- or 16-bit, every variant at "
        "every radius asked for, GB/s = image bytes read + written / median kernel time, "
        "against the copy kernel on the same bytes in the same run; a variant that cannot run "
        "is a row that says why.";
    p.reference = "boxBlurReference: the rounded mean of each window on the host, compared "
                  "byte for byte (cv::blur gives the same values)";
    using P = BlurParams;
    p.options = {
        imageArgument<P>(&P::input, "blur",
                         "an image file: 8- or 16-bit gray, RGB or RGBA (the launches blur its "
                         "8-bit gray plane)"),
    };
    for (PipelineOption& o : syntheticImageOptions<P>(&P::input))
        p.options.push_back(std::move(o));
    for (PipelineOption& o : blurModeOptions())
        p.options.push_back(std::move(o));
    p.csvHelp = "one row per launch, or per whole-image run (variant, radius, timings, GB/s, "
                "copy kernel, cv::blur, status)";
    p.jsonHelp = "the whole run: device, image, every launch or run with its timing";
    p.outputs = {
        {"--out", "the blurred image (of the first launch that ran, or of the first run)", true}};
    bindDevicePipeline<BlurParams, BlurPlan, BlurResult>(
        p, planBlur, runBlurJob,
        [](const BlurResult& result) {
            Report r;
            r.text = blurText(result);
            r.table = blurTable(result);
            r.csv = [&result] { return blurTable(result).csv(); };
            r.json = [&result] { return blurJson(result); };
            if (result.plan.mode == BlurMode::Launches) {
                const BlurLaunchResult* out = outputLaunch(result);
                r.images["--out"] = {out ? &out->output : nullptr, "no launch ran"};
            } else {
                const bool ran = !result.firstOutput.data.empty();
                r.images["--out"] = {ran ? &result.firstOutput : nullptr, "no variant ran"};
            }
            r.verdict = blurVerdict(result);
            return r;
        },
        checkBlurParams);
    p.dashboard = {blurDashboardEntry()};
    return p;
}

} // namespace histlab
