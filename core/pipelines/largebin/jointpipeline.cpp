// Joint histograms as the front ends see them: histlab-cli joint's options (two images, or two
// channels of one; a mask), its plan, its report (entropies, MI, NMI; the 2-D table as CSV; JSON).
// Metric: GB/s = bytes read (both planes and the mask) / median time of one joint histogram
// (clear + count), against the read-only kernel on the first plane in the same run.
#include "pipelines/largebin/jointpipeline.h"
#include "pipelines/options.h"
#include "pipelines/pipeline.h"
#include "runtime/errors.h"

#include <algorithm>
#include <memory>

namespace histlab {

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
        r.colocalise = params.colocalise;
        r.costes = params.costes;
        return r;
    }
    if (params.images.empty() || params.images.size() > 2)
        throw UsageError("joint", "give IMAGE_A and IMAGE_B, or one IMAGE with --channels A,B");
    const std::vector<std::string> channels = splitList(params.channels);
    if (channels.size() != 2)
        throw UsageError("--channels", "'" + params.channels + "' is not two channels A,B");
    JointRequest r = makeJointRequest(*params.images.front(), *params.images.back(), channels[0],
                                      channels[1], params.bins, params.rangeA, params.rangeB,
                                      params.mask.get(), params.methods, params.repeats);
    r.colocalise = params.colocalise;
    r.costes = params.costes;
    return r;
}

/// The counts' verdict, or a verification failure where the colocalisation sums differ.
Verdict withColocVerdict(const Verdict& counts, const JointCounts& run) {
    if (run.colocStatus == Status::Mismatch && counts.kind == Verdict::Kind::Ok)
        return verificationVerdict(false, "colocalisation: " + run.colocDetail);
    return counts;
}

Report splitReport(const JointSplitRun& run) {
    Report r;
    r.text = jointSplitText(run);
    // A share is timed; the counts are verified as a whole (the verdict).
    r.table =
        Table({"device", "name", "config", "alone_ms", "pairs", "piece_ms", "status", "detail"});
    for (std::size_t k = 0; k < run.shares.size(); ++k) {
        const SplitShare& s = run.shares[k];
        r.table.row()
            .add(int(k))
            .add(s.device.name)
            .add(s.config)
            .add(s.aloneMs)
            .add(s.length)
            .add(s.pieceMs)
            .add(statusName(s.failure.empty() ? Status::Timed : Status::Failed))
            .add(s.failure);
    }
    r.csv = [&run] { return jointCsv(run); };
    r.json = [&run] { return jointSplitJson(run); };
    r.verdict = verificationVerdict(run.verified.value_or(true), run.verifyDetail);
    r.verdict = withColocVerdict(r.verdict, run);
    return r;
}

/// The dashboard's joint histogram: 256 x 256 of two random 8-bit planes of half the size each
/// (the bytes read are the dashboard's size), the method auto picks; GB/s of both planes against
/// the read-only kernel on plane A.
DashboardPipeline jointDashboardEntry() {
    return {"joint",
            "the 256 x 256 joint histogram of two random 8-bit planes (half the size each), the "
            "method auto picks; bytes of both planes, against the read-only kernel",
            [](Device& device, const DashboardOptions& o, const CancelToken& cancel) {
                JointRequest r;
                const std::size_t n = std::max<std::size_t>(16, o.bytes / 2);
                r.a = makeLargeBinData(LargeBinData::Random, SampleType::U8, n, 1);
                r.b = makeLargeBinData(LargeBinData::Random, SampleType::U8, n, 2);
                r.spec = makeJointSpec(r.a, r.b, 256, 256, std::nullopt, std::nullopt);
                r.methods = {LargeBinMethod::Auto};
                r.repeats = o.repeats;
                r.colocalise = false;
                const JointRun run = runJoint(device, r, cancel);
                const JointPoint& p = run.points.front();
                return std::vector<DashboardResult>{measuredResult(
                    std::string(largeBinMethodName(p.method)) + ", " + p.geometry, p.bytes, p.stats,
                    p.gbps, "read-only", run.ceiling, p.status, p.detail)};
            }};
}

} // namespace

/// A stack's request: every path has the pages; the mask (one image) is read now and applies
/// to every page.
JointStackRequest planJointStack(const JointParams& params) {
    if (params.synthetic)
        throw UsageError("--synthetic", "images or --synthetic, not both");
    if (params.paths.empty() || params.paths.size() > 2)
        throw UsageError("joint", "give IMAGE_A and IMAGE_B, or one IMAGE with --channels A,B");
    if (params.methods.size() != 1)
        throw UsageError("--method", "a stack is counted by one method");
    const std::vector<std::string> channels = splitList(params.channels);
    if (channels.size() != 2)
        throw UsageError("--channels", "'" + params.channels + "' is not two channels A,B");
    JointStackRequest r;
    r.paths = params.paths;
    for (const std::string& path : params.paths) {
        const int pages = openImagePages(path)->pages();
        const int last = lastPageOf(*params.pages, pages, path);
        if (path == params.paths.front()) {
            r.pagesInFile = pages;
            r.first = params.pages->first;
            r.last = last;
        } else if (last != r.last) {
            throw UsageError("--page", path + " has " + std::to_string(pages) + " pages, " +
                                           params.paths.front() + " " +
                                           std::to_string(r.pagesInFile) +
                                           " ('all' pairs the pages of stacks of one length)");
        }
    }
    r.channelA = channels[0];
    r.channelB = channels[1];
    r.bins = params.bins;
    r.rangeA = params.rangeA;
    r.rangeB = params.rangeB;
    if (!params.maskPath.empty())
        r.mask = std::make_shared<const HostImage>(readImageFile(params.maskPath));
    r.method = params.methods.front();
    r.repeats = params.repeats;
    r.colocalise = params.colocalise;
    r.costes = params.costes;
    return r;
}

JointPlan planJointOn(const std::vector<DeviceInfo>& devices, const JointParams& params) {
    JointPlan plan;
    if (params.pages) {
        if (devices.size() > 1)
            throw UsageError("--device", "a stack's pages are counted on one device");
        plan.stack = planJointStack(params);
        return plan;
    }
    plan.request = planJoint(devices.front(), params);
    if (devices.size() == 1)
        return plan;
    if (plan.request.methods.size() != 1)
        throw UsageError("--method", "several devices count with one method (auto, or one "
                                     "named), not a list or all");
    plan.split = true;
    plan.fault = deviceFaultFromEnvironment();
    return plan;
}

JointResult runJointJob(JobContext& ctx, const std::vector<int>& devices, const JointPlan& plan,
                        const ItemSink& onItem) {
    JointResult result;
    if (plan.stack) {
        result.stack =
            runJointStack(ctx.devices().open(devices.front()), *plan.stack, ctx.cancelToken(),
                          [&](double f, const std::string& what) { ctx.progress(f, what); });
        return result;
    }
    if (plan.split) {
        ctx.progress(0.0, "joint histogram split across devices");
        result.split =
            runJointSplit(openDevices(ctx, devices), plan.request, plan.fault, ctx.cancelToken());
        ctx.progress(1.0, "done");
        return result;
    }
    // Progress: the reference, entropies and read-only kernel; each method; the MI evaluations.
    const std::size_t methods = plan.request.methods.size();
    std::size_t done = 0;
    ctx.progress(0.05, "CPU reference, entropies and the read-only kernel");
    result.run = runJoint(
        ctx.devices().open(devices.front()), plan.request, ctx.cancelToken(),
        [&](const JointPoint& pt) {
            if (onItem)
                onItem(pt);
            ++done;
            ctx.progress(0.05 + 0.9 * double(done) / double(methods + 1),
                         done == methods ? std::string("MI evaluations on the device")
                                         : std::string(largeBinMethodName(pt.method)) + " done");
        });
    return result;
}

void setColocChoice(JointParams& params, const std::string& text) {
    const std::optional<CostesSearch> search = parseColocChoice("--coloc", text);
    params.colocalise = search.has_value();
    params.costes = search.value_or(CostesSearch::Stepwise);
}

Pipeline jointPipeline() {
    Pipeline p;
    p.name = "joint";
    p.summary = "joint 2-D histograms of two images (or two channels of one), with entropies, "
                "mutual information, normalised MI and colocalisation, verified cell by cell";
    p.description =
        "The joint histogram of two images of the same size (IMAGE_A IMAGE_B), or of two "
        "channels of one image (--channels A,B), BX x BY bins over each image's range (NumPy's "
        "rule per axis), an optional mask (a one-channel image: non-zero pixels are counted). "
        "Prints H(A), H(B), H(A,B), MI in bits and the normalised variants (H(A)+H(B))/H(A,B) "
        "(scikit-image's normalized_mutual_information), 2 MI/(H(A)+H(B)) and MI/sqrt(H(A) "
        "H(B)), and colocalisation as Fiji's Coloc 2 computes it over the counted pairs of 8- and "
        "16-bit images (exact 64-bit sums on the device; not for float images): Pearson's r "
        "(all pairs, below and above Costes' thresholds), Manders' M1, M2 and tM1, tM2, Costes' "
        "thresholds and regression line, Li's ICQ and the pairs above both thresholds "
        "(docs/largebin.md). GB/s = bytes read (both planes and the mask) / median time of one "
        "joint "
        "histogram, against the read-only kernel on the first plane in the same run.";
    p.reference = "jointHistogramReference: every pair binned on the host, compared cell by "
                  "cell; entropies and MI in double precision from the counts; "
                  "colocalisationReference: every pass's sums on the host, compared exactly";
    using P = JointParams;
    p.options = {
        withStackPages<P>(
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
            [](P& s, const PageRange& pages) { s.pages = pages; }),
        valueOption<P>("--channels", "A,B",
                       "the channel of each image: gray (default: the image, or a color "
                       "image's luma), r, g, b, a; with one image, two of its channels",
                       [](P& s, const std::string& v) { s.channels = v; }),
        valueOption<P>("--bins", "BX[,BY]", "bins per axis, 1 to 1024 each (default 256,256)",
                       [](P& s, const std::string& v) { s.bins = parseJointBins(v); }),
        valueOption<P>(
            "--range-a", "LO,HI", "A's binned range (default: the whole type)",
            [](P& s, const std::string& v) { s.rangeA = parseBinRange(v, "--range-a"); }),
        valueOption<P>(
            "--range-b", "LO,HI", "B's binned range (default: the whole type)",
            [](P& s, const std::string& v) { s.rangeB = parseBinRange(v, "--range-b"); }),
        // The mask is one image for every page: its first page, whatever --page picks; with a
        // stack it is read by the plan.
        [] {
            PipelineOption o =
                withStackPages<P>(imageOption<P>(
                                      "--mask", "FILE",
                                      "a one-channel image of the same size (its first "
                                      "page): non-zero pixels are counted, on every page "
                                      "of a stack",
                                      [](P& s, const std::string& path) { s.maskPath = path; },
                                      [](P& s, HostImage image) {
                                          s.mask =
                                              std::make_shared<const HostImage>(std::move(image));
                                      }),
                                  [](P&, const PageRange&) {});
            o.firstPageOnly = true;
            return o;
        }(),
        valueOption<P>("--coloc", "S",
                       "Costes' threshold search: stepwise (default: Costes et al. 2004, one level "
                       "at a time from the maximum, in one pass) | bisection (Coloc 2's default) "
                       "| off (no colocalisation)",
                       setColocChoice),
        valueOption<P>("--method", "M",
                       "auto (default: private on a CPU device; else the fastest of multipass, "
                       "local16, runs16 and global timed on the first 64 Mi pairs) | " +
                           largeBinMethodNames(" | ") + " | all",
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
    p.jsonHelp = "the whole run: inputs, bins and marginals per axis, entropies, MI, NMI, "
                 "colocalisation (null where undefined), every method's timing; with a stack, "
                 "each page's";
    p.outputs = {
        {"--pages-csv",
         "with --page all or A-B: one row per page (page, pairs, counted, entropy_a, "
         "entropy_b, joint_entropy, mi, nmi_studholme, nmi_arithmetic, nmi_geometric, status, "
         "detail, then the colocalisation's pearson, pearson_below, pearson_above, m1, m2, tm1, "
         "tm2, threshold_a, threshold_b, icq, above_both, coloc_status), then the stack's as "
         "page all (its colocalisation over every page's pairs); for one pair of images, its "
         "row as page all",
         false}};
    // One device: its joint run; several (--device all, or a list): the pairs split across
    // them.
    p.devices = Pipeline::Devices::Many;
    bindPipeline<JointParams, JointPlan, JointResult>(
        p, planJointOn, runJointJob, [](const JointResult& result) {
            if (result.split)
                return splitReport(*result.split);
            if (result.stack) {
                const JointStackRun& stack = *result.stack;
                Report r;
                r.text = jointStackText(stack);
                r.table = Table({"page", "mi", "status"});
                StatusCount count;
                for (const JointStackPage& pg : stack.pages) {
                    r.table.row().add(pg.page).add(pg.mi.mi).add(statusName(pg.status));
                    count.add(pg.status);
                }
                r.csv = [&stack] { return jointCsv(stack.stack); };
                r.json = [&stack] { return jointStackJson(stack); };
                r.files["--pages-csv"] = [&stack](const std::string&) {
                    return jointStackPagesCsv(stack);
                };
                r.verdict = count.verdict("page(s)", "no joint method could run on " +
                                                         stack.stack.device.name);
                // A page's colocalisation that differs from its reference fails the run too.
                for (const JointStackPage& pg : stack.pages)
                    if (pg.colocStatus == Status::Mismatch && r.verdict.kind == Verdict::Kind::Ok)
                        r.verdict =
                            verificationVerdict(false, "page " + std::to_string(pg.page) +
                                                           " colocalisation: " + pg.colocDetail);
                r.verdict = withColocVerdict(r.verdict, stack.stack);
                return r;
            }
            const JointRun& run = *result.run;
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
            r.files["--pages-csv"] = [&run](const std::string&) {
                JointStackRun one; // no pages: the pair's row alone
                one.stack = run;
                return jointStackPagesCsv(one);
            };
            r.verdict = countStatuses(run.points)
                            .verdict("joint histogram(s)",
                                     "no joint method could run on " + run.device.name);
            r.verdict = withColocVerdict(r.verdict, run);
            return r;
        });
    p.dashboard = {jointDashboardEntry()};
    p.describeItem = [](const std::any& item) {
        const JointPoint& pt = std::any_cast<const JointPoint&>(item);
        return std::string(largeBinMethodName(pt.method)) + ": " + statusName(pt.status);
    };
    return p;
}

} // namespace histlab
