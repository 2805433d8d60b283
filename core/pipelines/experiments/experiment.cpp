#include "pipelines/experiments/experiment.h"

#include "pipelines/experiments/binsexperiment.h"
#include "report/files.h"
#include "report/text.h"
#include "runtime/errors.h"
#include "runtime/log.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace histlab {

namespace {

constexpr std::size_t kPieceBytes = std::size_t(16) << 20; // inputs are made in pieces

struct KindName {
    ExperimentKind kind;
    const char* name;
    const char* axis;
};
constexpr KindName kKinds[] = {
    {ExperimentKind::Banks, "banks", "local copies"},
    {ExperimentKind::Reads, "reads", "work-items"},
    {ExperimentKind::Groups, "groups", "work-group size"},
    {ExperimentKind::Stages, "stages", "stage"},
    {ExperimentKind::Atomics, "atomics", "variant"},
    {ExperimentKind::Bins, "bins", "bins"},
};

const char* kStageNames[] = {"read-only", "+scatter", "+local reduce", "+global merge"};
const char* kVariantOrder[] = {"naive", "local", "banked", "cpu"};

/// The reference text's kernel where the device allows it: 16 copies, 256 work-items, 4 groups
/// per compute unit, coalesced uint4 loads, one load per iteration, a merge kernel.
HistogramConfig referenceConfig(const DeviceInfo& info) {
    HistogramConfig c;
    c.variant = HistogramVariant::Banked;
    c.banks = std::max(1, std::min(16, maxLocalCopies(info, 1)));
    c.workGroupSize = int(std::min<std::size_t>(256, info.maxWorkGroupSize));
    c.groupsPerCu = 4;
    c.read = ReadPattern::Coalesced;
    c.load = LoadWidth::Uint4;
    c.unroll = 1;
    c.merge = MergeMode::Kernel;
    c.chosenBy = "experiment";
    return c;
}

GridEntry entryFor(const HistogramConfig& c, int stage, std::string series, double x,
                   double y = 0) {
    GridEntry e;
    e.config = c;
    e.stage = stage;
    e.series = std::move(series);
    e.x = x;
    e.y = y;
    e.params = {{"variant", variantName(c.variant)},
                {"banks", std::to_string(c.banks)},
                {"wg", std::to_string(c.workGroupSize)},
                {"groups_per_cu", std::to_string(c.groupsPerCu)},
                {"read", readPatternName(c.read)},
                {"load", loadWidthName(c.load)},
                {"unroll", std::to_string(c.unroll)},
                {"merge", mergeModeName(c.merge)},
                {"stage", kStageNames[stage]}};
    return e;
}

double spreadOf(const std::vector<double>& samples) {
    if (samples.size() < 2)
        return 0;
    const auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
    const double median = summarize(samples).medianMs;
    return median > 0 ? (*hi - *lo) / median : 0;
}

/// An input of `bytes` on the device, made piece by piece, and its CPU reference counts.
struct Input {
    cl::Buffer buffer;
    std::vector<std::uint64_t> reference;
};

Input makeInput(Device& device, const std::string& distribution, std::size_t bytes,
                const std::vector<std::uint8_t>& imagePlane, const CancelToken& cancel) {
    Input in;
    try {
        in.buffer = cl::Buffer(device.context(), CL_MEM_READ_ONLY, bytes);
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
    in.reference.assign(256, 0);
    std::vector<std::uint8_t> piece(std::min(bytes, kPieceBytes));
    const bool image = distribution == "image";
    const SyntheticKind kind = image ? SyntheticKind::Random : parseSyntheticKind(distribution);
    for (std::size_t off = 0; off < bytes; off += piece.size()) {
        cancel.throwIfCancelled();
        const std::size_t n = std::min(piece.size(), bytes - off);
        if (image) {
            for (std::size_t i = 0; i < n; ++i)
                piece[i] = imagePlane[(off + i) % imagePlane.size()];
        } else {
            fillSynthetic(kind, piece.data(), n, 17 + off);
        }
        const std::vector<std::uint64_t> counts = referenceHistogram(piece.data(), n, 1);
        for (int b = 0; b < 256; ++b)
            in.reference[std::size_t(b)] += counts[std::size_t(b)];
        try {
            device.queue().enqueueWriteBuffer(in.buffer, CL_TRUE, off, n, piece.data());
        } catch (const cl::Error& e) {
            rethrowClError(e);
        }
    }
    return in;
}

void runPoint(Device& device, const GridEntry& entry, const Input& input, std::size_t bytes,
              const ExperimentSpec& spec, const CancelToken& cancel, ExperimentPoint& point) {
    try {
        HistogramKernel kernel(device, entry.config, 1, entry.stage);
        cl::Buffer hist(device.context(), CL_MEM_READ_WRITE, 256 * sizeof(cl_uint));
        auto once = [&] {
            device.queue().enqueueFillBuffer(hist, cl_uint(0), 0, 256 * sizeof(cl_uint));
            const std::vector<cl::Event> ev =
                kernel.enqueue(device.queue(), input.buffer, bytes, hist);
            cl::Event::waitForEvents(ev);
            return profiledMs(ev);
        };
        cancel.throwIfCancelled();
        once(); // warm-up
        std::vector<double> samples;
        while (int(samples.size()) < spec.repeats ||
               (spreadOf(samples) > spec.maxSpread && int(samples.size()) < spec.maxRepeats)) {
            cancel.throwIfCancelled();
            samples.push_back(once());
        }
        point.stats = summarize(samples);
        point.gbps = gbPerSecond(bytes, point.stats.medianMs);
        point.gsps = point.gbps; // one-byte samples
        if (entry.stage < 3) {
            point.status = Status::Timed;
            return;
        }
        std::vector<cl_uint> counts(256);
        device.queue().enqueueReadBuffer(hist, CL_TRUE, 0, 256 * sizeof(cl_uint), counts.data());
        const std::string mismatch = firstMismatch(
            "histogram", std::vector<std::uint64_t>(counts.begin(), counts.end()), input.reference);
        point.status = mismatch.empty() ? Status::Verified : Status::Mismatch;
        point.reason = mismatch;
    } catch (const UsageError& e) {
        // The grid is made for this device: a parameter it refuses is its limit, not a
        // parameter the point is not made for.
        point.status = Status::Unsupported;
        point.reason = e.what();
    } catch (...) {
        const RowError error = rowErrorOf(std::current_exception()); // rethrows cancellation
        point.status = error.status;
        point.reason = error.detail;
    }
}

std::vector<std::uint8_t> grayPlaneOf(const HostImage& image) {
    requireIntegerImage(image, "an experiment");
    return lumaPlane(toHighByte(image)); // a gray image's plane is its data
}

/// What a point's log line calls its configuration.
std::string describeEntry(const GridEntry& entry) {
    if (entry.bins)
        return std::string(largeBinMethodName(entry.geometry.method)) + ", " +
               std::to_string(entry.bins) + " bins, " + entry.geometry.describe();
    return entry.config.describe();
}

} // namespace

std::vector<ExperimentKind> allExperimentKinds() {
    std::vector<ExperimentKind> kinds;
    for (const KindName& k : kKinds)
        kinds.push_back(k.kind);
    return kinds;
}

ExperimentKind parseExperimentKind(const std::string& name) {
    for (const KindName& k : kKinds)
        if (name == k.name)
            return k.kind;
    throw UsageError("sweep", "unknown experiment '" + name + "' (" + experimentKindList() + ")");
}

std::string experimentKindList() {
    std::vector<std::string> names;
    for (const KindName& k : kKinds)
        names.push_back(k.name);
    return choiceList(names);
}

const char* experimentKindName(ExperimentKind kind) {
    for (const KindName& k : kKinds)
        if (k.kind == kind)
            return k.name;
    return "?";
}

const char* experimentAxisName(ExperimentKind kind) {
    for (const KindName& k : kKinds)
        if (k.kind == kind)
            return k.axis;
    return "?";
}

std::vector<std::string> experimentDistributions(ExperimentKind kind) {
    if (kind == ExperimentKind::Bins)
        return {"random", "skewed", "smooth", "image"};
    return {"random", "uniform", "gradient", "skewed", "image"};
}

std::vector<std::string> defaultDistributions(ExperimentKind kind) {
    switch (kind) {
    case ExperimentKind::Bins:
        return {"random", "skewed", "smooth"};
    case ExperimentKind::Banks:
    case ExperimentKind::Atomics:
        return {"random", "uniform", "skewed"};
    case ExperimentKind::Stages:
        return {"random", "uniform"};
    case ExperimentKind::Reads:
    case ExperimentKind::Groups:
        return {"random"};
    }
    return {"random"};
}

void checkExperimentDistributions(ExperimentKind kind,
                                  const std::vector<std::string>& distributions, bool haveImage) {
    const std::vector<std::string> known = experimentDistributions(kind);
    for (const std::string& d : distributions)
        if (d == "image") {
            if (!haveImage)
                throw UsageError("--dist", "'image' needs --image FILE");
        } else if (std::find(known.begin(), known.end(), d) == known.end()) {
            throw UsageError("--dist", "'" + d + "' is not a distribution of " +
                                           experimentKindName(kind) + " (" + choiceList(known) +
                                           ")");
        }
}

std::vector<int> defaultBinCounts() {
    std::vector<int> counts = {256, 257};
    for (int b = 512; b <= kMaxBins; b *= 2)
        counts.push_back(b);
    return counts;
}

std::size_t defaultExperimentBytes(const DeviceInfo& device) {
    return (device.type == DeviceType::Cpu ? std::size_t(64) : std::size_t(256)) << 20;
}

void checkExperimentBytes(double bytes) {
    if (!(bytes < double(std::size_t(1) << 32)))
        throw UsageError("--size", "at most 4095 MiB (32-bit counts and offsets)");
}

std::size_t experimentBytes(const DeviceInfo& device, std::size_t requested) {
    const std::size_t bytes = std::max<std::size_t>(
        16, (requested ? requested : defaultExperimentBytes(device)) / 16 * 16);
    checkExperimentBytes(double(bytes));
    return bytes;
}

std::vector<GridEntry> experimentGrid(ExperimentKind kind, Device& device, std::size_t bytes,
                                      const CancelToken& cancel, const std::vector<int>& bins) {
    const DeviceInfo& info = device.info();
    const HistogramConfig ref = referenceConfig(info);
    const int fit = maxLocalCopies(info, 1);
    std::vector<GridEntry> grid;
    switch (kind) {
    case ExperimentKind::Banks:
        for (int b = 1; b <= std::max(1, fit); b *= 2) {
            HistogramConfig c = ref;
            c.banks = b;
            grid.push_back(entryFor(c, 3, "", b));
        }
        break;
    case ExperimentKind::Reads: {
        // From one work-item per compute unit to one 16-byte vector per work-item, doubling;
        // groups grow to the reference size first, then their number grows.
        const std::size_t cus = std::max<std::uint32_t>(1, info.computeUnits);
        const std::size_t most = std::max<std::size_t>(cus, bytes / 16);
        for (ReadPattern r : {ReadPattern::Serial, ReadPattern::Coalesced})
            for (LoadWidth l : {LoadWidth::Scalar, LoadWidth::Uint4})
                for (std::size_t items = cus; items <= most; items *= 2) {
                    HistogramConfig c = ref;
                    c.read = r;
                    c.load = l;
                    c.workGroupSize = int(std::min<std::size_t>(ref.workGroupSize, items / cus));
                    c.groupsPerCu = int(items / cus / std::size_t(c.workGroupSize));
                    GridEntry e =
                        entryFor(c, 3, std::string(readPatternName(r)) + " " + loadWidthName(l),
                                 double(items));
                    e.params.emplace_back("work_items", std::to_string(items));
                    grid.push_back(e);
                }
        break;
    }
    case ExperimentKind::Groups:
        for (int g : {1, 2, 4, 8, 16, 32})
            for (int w : {32, 64, 128, 256, 512, 1024})
                if (std::size_t(w) <= info.maxWorkGroupSize) {
                    HistogramConfig c = ref;
                    c.groupsPerCu = g;
                    c.workGroupSize = w;
                    grid.push_back(entryFor(c, 3, "groups/CU=" + std::to_string(g), w, g));
                }
        break;
    case ExperimentKind::Stages: {
        // What `auto` runs here (the cpu heuristic, or the autotune at this size), and the
        // reference text's kernel.
        HistogramConfig chosen = resolveHistogramConfig(device, {}, 1, cancel, bytes);
        for (int stage = 0; stage <= 3; ++stage) {
            grid.push_back(entryFor(chosen, stage, "auto", stage));
            grid.back().params.emplace_back("config", "auto");
        }
        for (int stage = 0; stage <= 3; ++stage) {
            grid.push_back(entryFor(ref, stage, "reference", stage));
            grid.back().params.emplace_back("config", "reference");
        }
        break;
    }
    case ExperimentKind::Atomics:
        for (int v = 0; v < 4; ++v) {
            HistogramConfig c = ref;
            const std::string name = kVariantOrder[v];
            c.variant = parseVariant(name);
            if (c.variant == HistogramVariant::Naive || c.variant == HistogramVariant::Local)
                c.banks = 1;
            if (c.variant == HistogramVariant::Private) {
                c.banks = 4;
                c.workGroupSize = 1;
                c.groupsPerCu = 2;
                c.read = ReadPattern::Serial;
            }
            grid.push_back(entryFor(c, 3, name, v));
        }
        break;
    case ExperimentKind::Bins:
        grid = binsGrid(info, bytes, bins);
        break;
    }
    return grid;
}

ExperimentRun runExperiment(DeviceSet& devices, const std::vector<int>& deviceIndices,
                            const ExperimentSpec& spec, const CancelToken& cancel,
                            const PointFn& onPoint, const ExperimentProgressFn& progress) {
    if (deviceIndices.empty())
        throw UsageError("--device", "no device to run on");
    if (spec.repeats < 1 || spec.maxRepeats < spec.repeats)
        throw UsageError("--repeat", "must be at least 1 (and the cap at least as many)");
    ExperimentRun run;
    run.kind = spec.kind;
    run.distributions =
        spec.distributions.empty() ? defaultDistributions(spec.kind) : spec.distributions;
    const bool bins = spec.kind == ExperimentKind::Bins;
    run.repeats = spec.repeats;
    run.maxRepeats = bins ? spec.repeats : spec.maxRepeats; // bins: exactly the repeats
    run.date = utcTimestamp();
    checkExperimentDistributions(spec.kind, run.distributions, spec.image != nullptr);
    std::vector<std::uint8_t> imagePlane; // the 256-bin experiments' bytes
    SamplePlane imageSamples;             // bins' 16-bit samples
    if (std::find(run.distributions.begin(), run.distributions.end(), "image") !=
        run.distributions.end()) {
        if (bins) {
            imageSamples = binsImagePlane(*spec.image);
        } else {
            imagePlane = grayPlaneOf(*spec.image);
            if (imagePlane.empty())
                throw InputError("the image has no pixels");
        }
    }

    for (std::size_t di = 0; di < deviceIndices.size(); ++di) {
        Device& device = devices.open(deviceIndices[di]);
        run.devices.push_back(device.info());
        const int deviceSlot = int(di);
        const std::size_t bytes = experimentBytes(device.info(), spec.bytes);
        run.bytes = bytes; // the same for every device unless left to each (then the last)
        const std::vector<GridEntry> grid =
            experimentGrid(spec.kind, device, bytes, cancel, spec.bins);
        const double total = double(deviceIndices.size() * run.distributions.size() * grid.size());
        const std::size_t devicePoints = run.distributions.size() * grid.size(); // this device's
        for (std::size_t dj = 0; dj < run.distributions.size(); ++dj) {
            const std::string& dist = run.distributions[dj];
            if (progress)
                progress(double((di * run.distributions.size() + dj) * grid.size()) / total,
                         device.info().name + ": making " + dist + " input");
            Input input;
            BinsInput binsInput;
            if (bins)
                binsInput = makeBinsInput(device, dist, bytes, &imageSamples, spec.bins, cancel);
            else
                input = makeInput(device, dist, bytes, imagePlane, cancel);
            ExperimentCeiling ceiling;
            ceiling.device = deviceSlot;
            ceiling.distribution = dist;
            ceiling.ceiling = measureReadCeiling(device, bins ? binsInput.buffer : input.buffer,
                                                 bytes, std::max(spec.repeats, 5), cancel);
            run.ceilings.push_back(ceiling);
            for (std::size_t gi = 0; gi < grid.size(); ++gi) {
                const GridEntry& entry = grid[gi];
                if (progress) // what runs now, so that a slow point is seen as one
                    progress(double((di * run.distributions.size() + dj) * grid.size() + gi) /
                                 total,
                             device.info().name + ": point " +
                                 std::to_string(dj * grid.size() + gi + 1) + " of " +
                                 std::to_string(devicePoints) + " (" + dist + ", " +
                                 describeEntry(entry) + ")");
                ExperimentPoint point;
                point.device = deviceSlot;
                point.distribution = dist;
                point.series = entry.series;
                point.x = entry.x;
                point.y = entry.y;
                point.params = entry.params;
                if (bins)
                    runBinsPoint(device, entry, binsInput, spec.repeats, cancel, point);
                else
                    runPoint(device, entry, input, bytes, spec, cancel, point);
                if (point.ok() && ceiling.ceiling.gbps > 0)
                    point.percentOfCeiling = 100.0 * point.gbps / ceiling.ceiling.gbps;
                if (!point.ok())
                    logInfo("experiment", std::string(experimentKindName(spec.kind)) + " " + dist +
                                              " " + describeEntry(entry) + ": " +
                                              statusName(point.status) + ": " + point.reason);
                run.points.push_back(point);
                if (onPoint)
                    onPoint(point);
            }
        }
    }
    if (progress)
        progress(1.0, std::to_string(run.points.size()) + " points done");
    return run;
}

const ExperimentPoint* findBaselinePoint(const ExperimentRun& baseline,
                                         const ExperimentPoint& point) {
    for (const ExperimentPoint& p : baseline.points)
        if (p.distribution == point.distribution && p.params == point.params)
            return &p;
    return nullptr;
}

} // namespace histlab
