// The 256-bin histogram family as the front ends see it: histlab-cli histogram's options, the
// plan, the run (the histogram of an image, or its end-to-end mode), the report, and the
// dashboard's "histogram256".
// Metric (histogram256.h): GB/s = input bytes read / median kernel time, judged against the
// read-only kernel on the same buffer in the same run; end to end: input bytes / wall time,
// against the host->device write from pinned memory of the same run.
#include "pipelines/histogram256/histogram256.h"
#include "pipelines/histogram256/histogramreport.h"
#include "pipelines/options.h"
#include "pipelines/pipeline.h"
#include "report/text.h"
#include "runtime/errors.h"

#include <cmath>
#include <utility>
#include <vector>

namespace histlab {

void checkHistogramParams(const HistogramParams& params) {
    const ImageInput& in = params.input;
    const bool file = !in.path.empty() || in.loaded;
    if (file == in.synthetic.has_value())
        throw UsageError("histogram", "give either an IMAGE file or --synthetic KIND");
    if (in.synthetic && params.sizeMiB.has_value() == params.bytes.has_value())
        throw UsageError("--synthetic", "give its size with either --size MIB or --bytes N");
    if (!in.synthetic && (params.sizeMiB || params.bytes))
        throw UsageError("--size/--bytes", "only with --synthetic");
    if (!in.synthetic && params.channels != 1)
        throw UsageError("--channels", "only with --synthetic (an image has its own channels)");
}

HistogramPlan planHistogram(const DeviceInfo& device, const HistogramParams& params) {
    checkHistogramParams(params);
    HistogramPlan plan;
    if (params.input.pages) {
        // A stack: every page by the large-bin methods (exact counts that add up), read in
        // turn by the run.
        const char* refused = params.region                                      ? "--region"
                              : params.endToEnd                                  ? "--end-to-end"
                              : params.options.stages                            ? "--stages"
                              : params.request.variant != HistogramVariant::Auto ? "--variant"
                                                                                 : nullptr;
        if (refused)
            throw UsageError(refused, "applies to one page (--page N); a stack's pages are "
                                      "counted by the large-bin methods");
        ImageBinsRequest r;
        r.bins = params.bins.value_or(0);
        r.range = params.range;
        r.method = params.method.value_or(LargeBinMethod::Auto);
        r.repeats = params.options.repeats;
        plan.stack = planImageStack(params.input.path, *params.input.pages,
                                    channelSelectionName(params.options.channel), std::move(r));
        return plan;
    }
    if (params.input.synthetic) {
        const char* option = params.bytes ? "--bytes" : "--size";
        checkSyntheticSize(option,
                           params.bytes ? double(*params.bytes) : *params.sizeMiB * 1048576.0);
        const std::size_t n = params.bytes ? std::size_t(*params.bytes)
                                           : std::size_t(std::llround(*params.sizeMiB * 1048576.0));
        if (n == 0)
            throw UsageError(option, "the synthetic data would be empty (size 0)");
        plan.input = std::make_shared<const HostImage>(
            makeSyntheticPixels(*params.input.synthetic, n, params.channels, option));
    } else {
        plan.input = imageOf(params.input);
    }
    if (params.region)
        plan.input = std::make_shared<const HostImage>(cropImage(*plan.input, *params.region));
    if (runsLargeBins(*plan.input, params.bins || params.range || params.method)) {
        // Exact histograms of any bin count: the large-bin methods. The 256-bin pipeline's own
        // options do not apply there; say so rather than ignore them.
        const HistogramRequest& q = params.request;
        const char* refused = params.endToEnd                       ? "--end-to-end"
                              : params.options.stages               ? "--stages"
                              : q.variant != HistogramVariant::Auto ? "--variant"
                              : q.banks                             ? "--banks"
                              : q.groupsPerCu                       ? "--groups-per-cu"
                              : q.workGroupSize                     ? "--wg"
                              : q.unroll                            ? "--unroll"
                              : q.read                              ? "--read"
                              : q.load                              ? "--load"
                              : q.merge                             ? "--merge"
                                                                    : nullptr;
        if (refused)
            throw UsageError(refused, "tunes the 256-bin pipeline of 8-bit data; " +
                                          (plan.input->depth != 8
                                               ? "a " + depthName(plan.input->depth) + " image"
                                               : std::string("--bins, --range or --method")) +
                                          " runs the large-bin methods (choose one with --method)");
        ImageBinsRequest r;
        r.channels = imageBinChannels(*plan.input, channelSelectionName(params.options.channel));
        r.bins = params.bins.value_or(0);
        r.range = params.range;
        r.method = params.method.value_or(LargeBinMethod::Auto);
        r.repeats = params.options.repeats;
        // The checks that need no device: each channel exists, the bins and range fit the type.
        for (const std::string& c : r.channels)
            checkImageChannel(plan.input->channels, c, plan.input->source);
        SamplePlane probe;
        probe.type = plan.input->isFloat()     ? SampleType::F32
                     : plan.input->depth == 16 ? SampleType::U16
                                               : SampleType::U8;
        makeBinSpec(probe, r.bins ? r.bins : defaultBins(probe.type), r.range);
        plan.largeBins = std::move(r);
        return plan;
    }
    plan.request = params.request;
    plan.options = params.options;
    plan.endToEnd = params.endToEnd;
    HistogramLayout layout;
    if (params.endToEnd) {
        // Every channel streams together (a 16-bit image as its high bytes); no gray.
        EndToEndOptions& e = plan.endToEndOptions;
        layout = HistogramLayout(plan.input->channels);
        e.nchan = layout.channels;
        e.repeats = params.options.repeats;
        e.verify = params.options.verify;
        e.chunkBytes = endToEndChunkBytes(device, plan.input->pixelCount() * std::size_t(e.nchan),
                                          std::size_t(params.chunkMiB * 1048576.0));
    } else {
        layout = histogramLayout(*plan.input, params.options.channel);
    }
    plan.config = histogramConfigFor(device, plan.request, layout);
    return plan;
}

HistogramPlan planHistogramOn(const std::vector<DeviceInfo>& devices,
                              const HistogramParams& params) {
    HistogramPlan plan = planHistogram(devices.front(), params);
    if (devices.size() == 1)
        return plan;
    if (plan.stack)
        throw UsageError("--device", "a stack's pages are counted on one device");
    if (plan.largeBins)
        throw UsageError("--device", "several devices split the 256-bin histogram of 8-bit data; "
                                     "a " +
                                         depthName(plan.input->depth) +
                                         " image or --bins, --range or --method runs on one "
                                         "device");
    if (params.endToEnd)
        throw UsageError("--end-to-end", "with several devices the split is measured end to end "
                                         "(and kernels only) already");
    if (params.options.stages)
        throw UsageError("--stages", "the stage table is of one device (give one --device)");
    if (params.options.channel != ChannelSelection::All)
        throw UsageError("--channel", "several devices count every channel and the luma");
    plan.split = true;
    plan.splitChunkBytes = std::size_t(params.chunkMiB * 1048576.0);
    plan.fault = deviceFaultFromEnvironment();
    return plan;
}

namespace {

HistogramResult runPlan(JobContext& ctx, Device& device, const HistogramPlan& plan) {
    HistogramResult result;
    auto progress = [&ctx](double fraction, const std::string& stage) {
        ctx.progress(fraction, stage);
    };
    if (plan.stack) {
        result.stack = runImageStack(device, *plan.stack, ctx.cancelToken(), progress);
        return result;
    }
    if (plan.largeBins) {
        progress(0.0, "large-bin histogram");
        result.bins = runImageBins(device, *plan.input, *plan.largeBins, ctx.cancelToken());
        progress(1.0, "done");
        return result;
    }
    if (!plan.endToEnd) {
        result.run = runHistogram(device, *plan.input, plan.request, plan.options,
                                  ctx.cancelToken(), progress);
        return result;
    }
    HostImage highBytes;
    if (plan.input->depth == 16)
        highBytes = toHighByte(*plan.input);
    const HostImage& input = plan.input->depth == 16 ? highBytes : *plan.input;
    progress(0.0, "end to end");
    result.endToEnd = runHistogramEndToEnd(device, input.data.data(), input.data.size(),
                                           plan.request, plan.endToEndOptions, ctx.cancelToken());
    result.endToEndInput = input.source;
    result.endToEndHistograms = endToEndHistograms(*result.endToEnd);
    progress(1.0, "done");
    return result;
}

Report reportOf(const HistogramResult& result) {
    if (result.stack)
        return imageStackReport(*result.stack, "histlab-cli histogram");
    Report r;
    if (result.split) {
        const SplitRun& run = *result.split;
        r.text = splitText(run);
        r.table = histogramTable(run.histograms);
        r.csv = [&run] { return histogramCsv(run.histograms); };
        r.json = [&run] { return splitJson(run); };
        r.files["--stats-csv"] = [&run](const std::string&) {
            return statisticsCsv(statisticsOf(run.histograms));
        };
        r.verdict = verificationVerdict(run.verified.value_or(true), run.verifyDetail);
        return r;
    }
    if (result.bins) {
        const ImageBinsRun& run = *result.bins;
        r.text = imageBinsText(run);
        r.table = Table({"channel", "bins", "method", "median_ms", "gbps", "status", "detail"});
        StatusCount count;
        for (const ImageChannelBins& c : run.results) {
            r.table.row()
                .add(c.name)
                .add(c.spec.bins)
                .add(largeBinMethodName(c.point.method))
                .add(c.point.stats.medianMs)
                .add(c.point.gbps)
                .add(statusName(c.point.status))
                .add(c.point.detail);
            count.add(c.point.status);
        }
        r.csv = [&run] { return imageBinsCsv(run); };
        r.json = [&run] { return imageBinsJson(run); };
        r.files["--stats-csv"] = [&run](const std::string&) {
            return statisticsCsv(imageBinsStatistics(run));
        };
        r.verdict =
            count.verdict("channel(s)", "no large-bin method could run on " + run.device.name);
        return r;
    }
    if (result.run) {
        const HistogramRun& run = *result.run;
        r.text = histogramText(run);
        r.table = histogramTable(run.histograms);
        r.csv = [&run] { return histogramCsv(run); };
        r.json = [&run] { return histogramJson(run); };
        r.files["--stats-csv"] = [&run](const std::string&) {
            return statisticsCsv(statisticsOf(run.histograms));
        };
        r.verdict = verificationVerdict(run.verified.value_or(true), run.verifyDetail);
        return r;
    }
    const EndToEndRun& run = *result.endToEnd;
    const std::vector<ChannelHistogram>& histograms = result.endToEndHistograms;
    r.text = endToEndText(run, result.endToEndInput);
    r.table = histogramTable(histograms);
    r.csv = [&histograms] { return histogramCsv(histograms); };
    r.json = [&result] { return endToEndJson(*result.endToEnd, result.endToEndInput); };
    r.files["--stats-csv"] = [&histograms](const std::string&) {
        return statisticsCsv(statisticsOf(histograms));
    };
    r.verdict = verificationVerdict(run.verified.value_or(true), run.verifyDetail);
    return r;
}

DashboardPipeline histogramDashboardEntry() {
    return {"histogram256",
            "the 256-bin histogram, variant auto (the device's best), of random bytes; input "
            "bytes read, against the read-only kernel",
            [](Device& device, const DashboardOptions& o, const CancelToken& cancel) {
                const HostImage input = makeSynthetic(SyntheticKind::Random, o.bytes);
                HistogramRunOptions options;
                options.channel = ChannelSelection::Gray;
                options.repeats = o.repeats;
                options.verify = true;
                const HistogramRun run =
                    runHistogram(device, input, HistogramRequest{}, options, cancel);
                if (run.passes.empty())
                    throw DeviceError("the histogram ran no pass");
                const PassTiming& pass = run.passes.front();
                DashboardResult r;
                r.variant = "auto: " + run.config.describe();
                r.bytes = pass.bytes;
                r.stats = pass.stats;
                r.gbps = pass.gbps;
                r.judgeAgainst("read-only", run.ceiling);
                r.status = run.verified.value_or(false) ? Status::Verified : Status::Mismatch;
                r.reason = r.status == Status::Verified ? std::string()
                           : run.verified               ? run.verifyDetail
                                                        : "not verified";
                return std::vector<DashboardResult>{r};
            }};
}

/// A whole number option of the request (--banks, --wg ...), in [lo, hi].
int wholeNumber(const std::string& option, const std::string& value, int lo, int hi) {
    return int(parseWholeNumber(option, value, lo, hi));
}

} // namespace

HistogramResult runHistogramJob(JobContext& ctx, const std::vector<int>& devices,
                                const HistogramPlan& plan, const ItemSink&) {
    if (!plan.split)
        return runPlan(ctx, ctx.devices().open(devices.front()), plan);
    HistogramResult result;
    ctx.progress(0.0, "split across devices");
    result.split = runHistogramSplit(openDevices(ctx, devices), *plan.input, plan.request,
                                     plan.options.repeats, plan.splitChunkBytes, plan.fault,
                                     ctx.cancelToken());
    ctx.progress(1.0, "done");
    return result;
}

namespace {

using P = HistogramParams;

/// What is histogrammed: the image or synthetic bytes, the channels, the region, the bins.
std::vector<PipelineOption> histogramInputOptions() {
    return {
        withStackPages<P>(imageArgument<P>(&P::input, "histogram",
                                           "an image file (PNG, JPEG, TIFF, BMP, PGM/PPM, "
                                           "WebP...): 8- or 16-bit gray, RGB or RGBA; a 16-bit "
                                           "image gets its exact 65,536-bin histogram (every "
                                           "value its own bin)"),
                          [](P& s, const PageRange& pages) { s.input.pages = pages; }),
        syntheticKindOption<P>(&P::input, "random | uniform | gradient | skewed bytes (gray, or "
                                          "colour with --channels)"),
        valueOption<P>(
            "--size", "MIB", "size of the synthetic data in MiB (fractions allowed)",
            [](P& s, const std::string& v) { s.sizeMiB = parseNonNegative("--size", v); }),
        valueOption<P>("--bytes", "N", "size of the synthetic data in bytes",
                       [](P& s, const std::string& v) {
                           s.bytes = std::uint64_t(parseWholeNumber("--bytes", v, 0, 1ll << 40));
                       }),
        valueOption<P>("--channels", "N",
                       "the synthetic bytes as pixels of 1 (gray, the default), 3 (RGB) or 4 "
                       "(RGBA) interleaved channels, the size rounded down to whole pixels",
                       [](P& s, const std::string& v) {
                           s.channels = wholeNumber("--channels", v, 1, 4);
                           if (s.channels == 2)
                               throw UsageError("--channels", "2: 1, 3 or 4");
                       }),
        valueOption<P>("--channel", "C",
                       "gray | r | g | b | a | all (default all: every channel, and gray)",
                       [](P& s, const std::string& v) { s.options.channel = parseChannel(v); }),
        valueOption<P>("--region", "X,Y,W,H",
                       "only the pixels of that rectangle (left, top, width, height)",
                       [](P& s, const std::string& v) { s.region = parseRegion(v); }),
        valueOption<P>("--bins", "N",
                       "bins, 1 to 65536 (default: 256 for 8-bit data, 65536 for 16-bit): runs "
                       "the large-bin methods, as every 16-bit image does",
                       [](P& s, const std::string& v) {
                           s.bins = int(parseWholeNumber("--bins", v, 1, kMaxBins));
                       }),
        valueOption<P>("--range", "LO,HI",
                       "the binned range, whole numbers, last bin closed (default: the whole "
                       "type, [0, 256] or [0, 65536]); values outside are counted apart",
                       [](P& s, const std::string& v) { s.range = parseBinRange(v); }),
        valueOption<P>("--method", "M",
                       "the large-bin method: auto | " + largeBinMethodNames(" | ") +
                           " (histlab-cli largebin compares them)",
                       [](P& s, const std::string& v) { s.method = parseLargeBinMethod(v); }),
    };
}

/// How the 256-bin pipeline runs, what it times and checks.
std::vector<PipelineOption> histogramTuningOptions() {
    return {
        valueOption<P>("--variant", "V", "auto | naive | local | banked | cpu (default auto)",
                       [](P& s, const std::string& v) { s.request.variant = parseVariant(v); }),
        valueOption<P>("--banks", "N",
                       "local sub-histogram copies, a power of two that fits local memory "
                       "(banked), or private copies, 1, 2 or 4 (cpu; 4 on one channel in uint4s: "
                       "4 or 2 per 4 KiB block, from the repeats in its first 128 bytes)",
                       [](P& s, const std::string& v) {
                           s.request.banks = wholeNumber("--banks", v, 1, 1 << 20);
                       }),
        valueOption<P>("--groups-per-cu", "K", "work-groups = K x compute units",
                       [](P& s, const std::string& v) {
                           s.request.groupsPerCu = wholeNumber("--groups-per-cu", v, 1, 1024);
                       }),
        valueOption<P>("--wg", "N", "work-group size",
                       [](P& s, const std::string& v) {
                           s.request.workGroupSize = wholeNumber("--wg", v, 1, 1 << 20);
                       }),
        valueOption<P>("--read", "R", "coalesced | serial",
                       [](P& s, const std::string& v) { s.request.read = parseReadPattern(v); }),
        valueOption<P>("--load", "L", "scalar (32-bit uint) | uint4 (16 bytes)",
                       [](P& s, const std::string& v) { s.request.load = parseLoadWidth(v); }),
        valueOption<P>("--unroll", "U",
                       "1 | 2 | 4 | 8 loads in flight per iteration (coalesced "
                       "reads)",
                       [](P& s, const std::string& v) {
                           s.request.unroll = wholeNumber("--unroll", v, 1, 8);
                       }),
        valueOption<P>("--merge", "M",
                       "kernel (a second reduction kernel) | atomic (global atomics)",
                       [](P& s, const std::string& v) { s.request.merge = parseMergeMode(v); }),
        valueOption<P>("--repeat", "N",
                       "timed runs after one warm-up (default 5); median and min are reported",
                       [](P& s, const std::string& v) {
                           s.options.repeats = wholeNumber("--repeat", v, 1, 100000);
                       }),
        flagOption<P>("--verify",
                      "compare with the CPU reference, bit-exact (exit 1 on a mismatch; the "
                      "--csv/--json files are still written, the JSON with \"verified\": false)",
                      [](P& s) { s.options.verify = true; }),
        flagOption<P>("--stages", "stage table: read-only, +scatter, +local reduce, +global merge",
                      [](P& s) { s.options.stages = true; }),
        flagOption<P>("--end-to-end",
                      "time host memory -> histogram on the host (wall clock), the input sent in "
                      "chunks whose transfers overlap the histogram of the previous chunk; three "
                      "modes (input in pinned memory; ordinary memory staged through pinned "
                      "buffers; ordinary memory written directly) against the host->device "
                      "bandwidth from pinned and ordinary memory measured in the same run",
                      [](P& s) { s.endToEnd = true; }),
        valueOption<P>("--chunk", "MIB", "chunk size for --end-to-end (default 32)",
                       [](P& s, const std::string& v) {
                           s.chunkMiB = parseNonNegative("--chunk", v);
                           // A size_t of bytes holds it (1e99 once wrapped to "at least 48 bytes");
                           // no buffer of a device comes near 2^40 MiB.
                           if (s.chunkMiB > double(1ull << 40))
                               throw UsageError("--chunk", "'" + cappedText(v) +
                                                               "' MiB is too large (at most " +
                                                               std::to_string(1ull << 40) + ")");
                       }),
    };
}

} // namespace

Pipeline histogramPipeline() {
    Pipeline p;
    p.name = "histogram";
    p.summary = "exact histograms of an image file or of synthetic bytes (256 bins for 8-bit "
                "data, 65,536 for 16-bit, or --bins N)";
    p.description =
        "Histograms of an image, per channel and of its gray plane (a color image's luma as "
        "OpenCV's BGR2GRAY computes it), or of synthetic bytes. 8-bit data: the tuned 256-bin "
        "pipeline (32-bit bins). 16-bit data, or --bins/--range/--method: the large-bin methods, "
        "by default the exact histogram (65,536 bins for 16-bit: every value its own bin), each "
        "channel verified slot by slot. GB/s = input bytes read / median kernel time (event "
        "profiling, one warm-up), against the read-only kernel on the same buffer in the same "
        "run. --end-to-end: input bytes / wall time from host memory to the histogram on the "
        "host, against the host->device write of the same run. Several devices (--device all, or "
        "a list): an 8-bit input split across them in proportion to each one's throughput "
        "alone, measured in the same run end to end (pinned host memory, --chunk) and kernels "
        "only, the counts added on the host; the speed-up over the fastest device alone.";
    p.reference = "referenceHistogram: every byte counted on the host, compared bin by bin "
                  "(bit-exact) with --verify";
    p.options = histogramInputOptions();
    for (PipelineOption& o : histogramTuningOptions())
        p.options.push_back(std::move(o));
    p.csvHelp = "the histogram as CSV (bin,<channel>...)";
    p.jsonHelp = "the whole run as JSON (device, configuration, timings, statistics, histograms)";
    p.outputs = {
        {"--stats-csv",
         "per-channel statistics as CSV, one row per channel: channel, count, min, "
         "max, mean, median, mode, stddev, p1, p5, p10, p25, p75, p90, p95, p99, entropy_bits; "
         "\"-\" for stdout",
         false}};
    // One device: its histogram; several (--device all, or a list): the input split across them.
    p.devices = Pipeline::Devices::Many;
    bindPipeline<HistogramParams, HistogramPlan, HistogramResult>(
        p, planHistogramOn, runHistogramJob, reportOf, checkHistogramParams);
    p.dashboard = {histogramDashboardEntry()};
    return p;
}

} // namespace histlab
