// Registration by mutual information as the front ends see it: histlab-cli register's options
// (FIXED and MOVING, or a synthetic pair; the transform, metric, bins, pyramid, search range),
// its plan, its run and its report (the transform as text, CSV and JSON; the MI curve; the
// registered MOVING).
// Metric: MI evaluations a second over the whole search (wall clock, host work included); with
// --benchmark, evaluations a second of the device in batches and one at a time against the CPU
// reference on all the host's threads, timed in turns in the same run.
#include "pipelines/register/registerpipeline.h"

#include "pipelines/largebin/largebin.h"
#include "pipelines/options.h"
#include "report/table.h"
#include "report/text.h"
#include "runtime/errors.h"

#include <sstream>

namespace histlab {

std::pair<int, int> parseRegisterSize(const std::string& text, const std::string& option) {
    const std::size_t x = text.find('x');
    const std::string w = x == std::string::npos ? text : text.substr(0, x);
    const std::string h = x == std::string::npos ? text : text.substr(x + 1);
    return {int(parseWholeNumber(option, w, 16, 32768)),
            int(parseWholeNumber(option, h, 16, 32768))};
}

RegisterPlan planRegister(const DeviceInfo&, const RegisterParams& params) {
    RegisterPlan plan;
    plan.options = params.options;
    plan.benchmark = params.benchmark;
    if (params.synthetic) {
        if (!params.images.empty() || params.mask)
            throw UsageError("--synthetic", "images or --synthetic, not both");
        plan.input = syntheticRegisterPair(params.synthetic->first, params.synthetic->second,
                                           params.truth, params.invert);
        plan.truth = params.truth;
        return plan;
    }
    if (params.images.size() != 2)
        throw UsageError("register", "give FIXED and MOVING (two images)");
    const std::vector<std::string> channels = splitList(params.channels);
    if (channels.size() != 2)
        throw UsageError("--channels", "'" + params.channels + "' is not two channels F,M");
    plan.input.fixed = *params.images[0];
    plan.input.moving = *params.images[1];
    checkImageChannel(plan.input.fixed.channels, channels[0], plan.input.fixed.source);
    checkImageChannel(plan.input.moving.channels, channels[1], plan.input.moving.source);
    plan.input.fixedChannel = channels[0];
    plan.input.movingChannel = channels[1];
    if (params.mask) {
        const HostImage& f = plan.input.fixed;
        plan.input.mask = maskBytes(*params.mask, f.width, f.height, "FIXED's size");
        plan.input.maskSource = params.mask->source;
    }
    return plan;
}

RegisterJobResult runRegisterJob(JobContext& ctx, Device& device, const RegisterPlan& plan,
                                 const ItemSink& onItem) {
    RegisterJobResult out;
    ctx.progress(0.0, "building the pyramid");
    const std::vector<RegisterLevel> pyramid = buildRegisterPyramid(plan.input, plan.options);
    const int levels = int(pyramid.size());
    ctx.progress(0.05, "searching");
    out.result = registerImages(
        device, pyramid, plan.options,
        [&](const RegisterStep& s) {
            ctx.progress(0.05 + 0.85 * double(levels - s.level - 1) / levels,
                         "level " + std::to_string(s.level));
            if (onItem)
                onItem(std::any(s));
        },
        ctx.cancelToken());
    RegistrationResult& r = out.result;
    r.fixedSource = plan.input.fixed.source;
    r.movingSource = plan.input.moving.source;
    r.maskSource = plan.input.maskSource;
    r.truth = plan.truth;
    if (plan.benchmark > 0) {
        ctx.progress(0.9, "timing evaluations");
        r.benchmark =
            benchmarkEvaluations(device, pyramid.front(), plan.options.binsFixed,
                                 plan.options.binsMoving, plan.benchmark, ctx.cancelToken());
    }
    ctx.progress(0.95, "resampling MOVING");
    out.registered = resampleRegistered(plan.input.moving, r.transform, plan.input.fixed.width,
                                        plan.input.fixed.height);
    return out;
}

namespace {

Table registerTable(const RegistrationResult& r) {
    Table t({"level", "width", "height", "grid", "optimiser", "ms", "metric", "tx", "ty",
             "angle_deg", "status", "detail"});
    for (const RegisterLevelResult& l : r.levelResults)
        t.row()
            .add(l.level)
            .add(l.width)
            .add(l.height)
            .add(l.gridEvaluations)
            .add(l.optimiserEvaluations)
            .add(l.ms)
            .add(l.metricEnd)
            .add(l.end.tx)
            .add(l.end.ty)
            .add(l.end.angleDeg)
            .add(statusName(l.status))
            .add(l.detail);
    return t;
}

} // namespace

Pipeline registerPipeline() {
    Pipeline p;
    p.name = "register";
    p.summary = "register two images by mutual information (translation or rigid)";
    p.description =
        "Finds the transform of MOVING (translation, or rigid: rotation about FIXED's centre and "
        "translation) that maximises the mutual information (or Studholme's NMI) of FIXED and "
        "MOVING resampled into FIXED's grid: a grid over shifts and angles at the coarsest level "
        "of an image pyramid, then Nelder-Mead at each level. Every evaluation resamples MOVING "
        "on the device (bilinear in fixed point, points outside MOVING left out of the count) "
        "and counts the joint histogram there; only the entropies come back. Reports the "
        "transform, MI at the start and end, and MI evaluations a second.";
    p.reference = "the same fixed-point resampling and counts on the CPU: each level's final MI "
                  "equal to 1e-9 bits and its pairs counted equal";
    using P = RegisterParams;
    p.options = {
        imageOption<P>(
            "IMAGE", "FILE", "FIXED and MOVING (MOVING is resampled into FIXED's grid)",
            [](P& s, const std::string& path) {
                if (s.paths.size() == 2)
                    throw UsageError("register", "more than two images given ('" + s.paths[0] +
                                                     "', '" + s.paths[1] + "', '" + path + "')");
                s.paths.push_back(path);
            },
            [](P& s, HostImage image) {
                s.images.push_back(std::make_shared<const HostImage>(std::move(image)));
            }),
        valueOption<P>("--channels", "F,M",
                       "the channel of each image: gray (default: the image, or a color image's "
                       "luma), r, g, b, a",
                       [](P& s, const std::string& v) { s.channels = v; }),
        valueOption<P>(
            "--transform", "T", "rigid (default: rotation and shift) | translation",
            [](P& s, const std::string& v) { s.options.transform = parseRegisterTransform(v); }),
        valueOption<P>(
            "--metric", "M",
            "mi (default: mutual information, bits) | nmi (Studholme's "
            "(H(F) + H(M)) / H(F,M))",
            [](P& s, const std::string& v) { s.options.metric = parseRegisterMetric(v); }),
        valueOption<P>("--bins", "BF[,BM]",
                       "bins per axis over each image's smallest to largest value, 2 to 1024 "
                       "(default 64,64)",
                       [](P& s, const std::string& v) {
                           const std::pair<int, int> b = parseJointBins(v);
                           if (b.first < 2 || b.second < 2)
                               throw UsageError("--bins", "at least 2 bins per axis");
                           s.options.binsFixed = b.first;
                           s.options.binsMoving = b.second;
                       }),
        [] {
            PipelineOption o = imageOption<P>(
                "--mask", "FILE",
                "a one-channel image of FIXED's size: its non-zero pixels are counted",
                [](P& s, const std::string& path) { s.maskPath = path; },
                [](P& s, HostImage image) {
                    s.mask = std::make_shared<const HostImage>(std::move(image));
                });
            o.firstPageOnly = true;
            return o;
        }(),
        valueOption<P>("--pyramid", "L",
                       "levels, coarse to fine, 1 to 8 (default auto: halved while the short "
                       "side stays at least 64 px)",
                       [](P& s, const std::string& v) {
                           s.options.levels =
                               v == "auto" ? 0 : int(parseWholeNumber("--pyramid", v, 1, 8));
                       }),
        valueOption<P>("--initial", "TX,TY[,A]",
                       "the transform the search starts from and centres its grid on (pixels, "
                       "degrees; default 0,0,0)",
                       [](P& s, const std::string& v) {
                           s.options.initial = parseRigidTransform(v, "--initial");
                       }),
        valueOption<P>("--max-shift", "PX",
                       "the grid's half-width in pixels of FIXED (default: a quarter of its "
                       "short side; 0: no grid over shifts)",
                       [](P& s, const std::string& v) {
                           const std::optional<double> d = parseFiniteNumber(v);
                           if (!d || *d < 0 || *d > 1048576)
                               throw UsageError("--max-shift",
                                                "'" + v +
                                                    "' is not a number of pixels, 0 to 1,048,576");
                           s.options.maxShift = *d;
                       }),
        valueOption<P>("--max-angle", "DEG",
                       "rigid: the grid's half-width in degrees, 0 to 180 (default 15)",
                       [](P& s, const std::string& v) {
                           const std::optional<double> d = parseFiniteNumber(v);
                           if (!d || *d < 0 || *d > 180)
                               throw UsageError("--max-angle",
                                                "'" + v + "' is not a number of degrees, 0 to 180");
                           s.options.maxAngleDeg = *d;
                       }),
        valueOption<P>("--min-overlap", "F",
                       "the least share of FIXED's counted pixels a transform must keep inside "
                       "MOVING to have an MI, 0.01 to 1 (default 0.25, elastix's "
                       "RequiredRatioOfValidSamples)",
                       [](P& s, const std::string& v) {
                           const std::optional<double> d = parseFiniteNumber(v);
                           if (!d || *d < 0.01 || *d > 1)
                               throw UsageError("--min-overlap",
                                                "'" + v + "' is not a share from 0.01 to 1");
                           s.options.minOverlap = *d;
                       }),
        valueOption<P>("--max-evaluations", "N",
                       "the optimiser's budget at each level, 10 to 100,000 (default 400)",
                       [](P& s, const std::string& v) {
                           s.options.maxEvaluationsPerLevel =
                               int(parseWholeNumber("--max-evaluations", v, 10, 100000));
                       }),
        valueOption<P>(
            "--synthetic", "WxH",
            "instead of images: a synthetic 8-bit pair (smooth blobs and waves), "
            "MOVING made at --truth's exact coordinates and inverted",
            [](P& s, const std::string& v) { s.synthetic = parseRegisterSize(v, "--synthetic"); }),
        valueOption<P>(
            "--truth", "TX,TY[,A]",
            "with --synthetic: the transform MOVING is made with (default "
            "3.25,-2.5,4); the report gives the error",
            [](P& s, const std::string& v) { s.truth = parseRigidTransform(v, "--truth"); }),
        flagOption<P>("--no-invert", "with --synthetic: MOVING not inverted",
                      [](P& s) { s.invert = false; }),
        valueOption<P>("--benchmark", "N",
                       "also time MI evaluations on level 0, N rounds taking turns: the device "
                       "in batches of 256 and one at a time, the CPU reference on all threads",
                       [](P& s, const std::string& v) {
                           s.benchmark = int(parseWholeNumber("--benchmark", v, 1, 1000));
                       }),
    };
    p.csvHelp = "one row: the images, the transform (tx, ty, angle_deg and the 2 x 3 matrix "
                "m00 ... m12 mapping FIXED's pixels to MOVING's), MI and NMI at the start and "
                "end, evaluations, seconds, evaluations a second, status";
    p.jsonHelp = "the whole run: inputs, options, the transform and matrix, entropies at the "
                 "start and end, each level's evaluations and result, the MI curve, the "
                 "benchmark";
    p.outputs = {{"--out",
                  "MOVING registered: resampled into FIXED's grid (bilinear, its own type and "
                  "channels), 0 outside MOVING",
                  true},
                 {"--steps-csv",
                  "the MI curve: level, evaluation, metric, tx, ty, angle_deg at each "
                  "improvement of the search",
                  false}};
    bindDevicePipeline<RegisterParams, RegisterPlan, RegisterJobResult>(
        p, planRegister, runRegisterJob, [](const RegisterJobResult& result) {
            const RegistrationResult& r = result.result;
            Report report;
            report.text = registrationText(r);
            report.table = registerTable(r);
            report.csv = [&r] { return registrationCsv(r); };
            report.json = [&r] { return registrationJson(r); };
            report.files["--steps-csv"] = [&r](const std::string&) {
                return registrationStepsCsv(r);
            };
            report.images["--out"] = {&result.registered, ""};
            if (r.status == Status::Failed)
                report.verdict = {Verdict::Kind::NothingRan, "register: " + r.detail};
            else
                report.verdict = verificationVerdict(r.status == Status::Verified, r.detail);
            return report;
        });
    // No line per improvement on stderr (hundreds of them): the window plots them as they come,
    // and --steps-csv and --json keep them.
    return p;
}

} // namespace histlab
