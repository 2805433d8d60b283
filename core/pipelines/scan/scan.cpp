#include "pipelines/scan/scan.h"

#include "report/report.h"
#include "runtime/buildoptions.h"
#include "runtime/enumtable.h"
#include "runtime/errors.h"
#include "runtime/log.h"

#include <algorithm>
#include <optional>

namespace histlab {

namespace {

const EnumTable<ScanVariant>& scanVariants() {
    // "auto" first in the table, last in the message, as the option's help lists it
    static const EnumTable<ScanVariant> table("--variant", "a scan variant",
                                              {{ScanVariant::Naive, "naive"},
                                               {ScanVariant::Blelloch, "blelloch"},
                                               {ScanVariant::WgScan, "wgscan"},
                                               {ScanVariant::ReduceThenScan, "reduce-then-scan"},
                                               {ScanVariant::Lookback, "lookback"},
                                               {ScanVariant::Auto, "auto"}},
                                              {"all"});
    return table;
}

const EnumTable<ScanDistribution>& scanDistributions() {
    static const EnumTable<ScanDistribution> table("--dist", "a scan input",
                                                   {{ScanDistribution::Random, "random"},
                                                    {ScanDistribution::Ones, "ones"},
                                                    {ScanDistribution::Bytes, "bytes"},
                                                    {ScanDistribution::Max, "max"}});
    return table;
}

// splitmix64, as the synthetic images use: the same values on every platform.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

std::vector<std::uint32_t> scanReference(const std::vector<std::uint32_t>& values,
                                         std::size_t segment, bool inclusive) {
    std::vector<std::uint32_t> out(values.size());
    std::uint32_t run = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (segment && i % segment == 0)
            run = 0;
        if (!inclusive)
            out[i] = run;
        run += values[i]; // wraps modulo 2^32
        if (inclusive)
            out[i] = run;
    }
    return out;
}

bool isPowerOfTwo(std::size_t v) {
    return v && (v & (v - 1)) == 0;
}

// The whole-array kernels' shape per device. A GPU: 256 items of 8 uint4 vectors (32 values)
// each, loads and stores coalesced and transposed through local memory (8 against 4: 96.6 %
// against 91.7 % of CUB on the H200, 0.5 % less on the H100, where both beat CUB; see
// docs/scan.md); with warp shuffles (NVIDIA) the same shape is the best measured, 91.9 % of copy
// on the H200 against 87.2 % for 128 of 8 and 83.4 % for 256 of 4
// (bench/results/gpu-h200-scan-warp-2026-11-28). A CPU (PoCL runs a work-group's items as a
// loop on one core): 64 items of 16 vectors (64 values) each, every item reading its own
// contiguous run, no transposition (3-4x faster there).
bool transposeTiles(const DeviceInfo& info) {
    return info.type != DeviceType::Cpu;
}

std::size_t defaultWholeArrayWorkGroup(const DeviceInfo& info) {
    const std::size_t want = transposeTiles(info) ? 256 : 64;
    return std::min(want, info.maxWorkGroupSize);
}

std::size_t defaultVectorsPerItem(const DeviceInfo& info) {
    return transposeTiles(info) ? 8 : 16;
}

std::size_t defaultSegmentedWorkGroup(const DeviceInfo& info) {
    return std::min<std::size_t>(256, info.maxWorkGroupSize);
}

// Local memory of the whole-array kernels: the transposition stage (wg x (vpt + 1) uint4s, or
// one), the scan's double buffer (2 x wg uints) and a word.
std::uint64_t wholeArrayLocalBytes(std::size_t wg, std::size_t vpt, bool transpose) {
    return (transpose ? std::uint64_t(wg) * (vpt + 1) * 16 : 16) + std::uint64_t(wg) * 8 + 16;
}

cl::Kernel makeKernel(const cl::Program& program, const char* name) {
    try {
        return cl::Kernel(program, name);
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
}

std::size_t ceilDiv(std::size_t a, std::size_t b) {
    return (a + b - 1) / b;
}

} // namespace

// Warp shuffles: the whole-array kernels' group scan, transposition and look-back through
// inline PTX, which only NVIDIA's OpenCL compiler takes (its OpenCL 1.2 has no sub-group
// functions). Default where they exist: a group scan with one barrier instead of log2(wg) + 1,
// warp syncs for the transposition and a one-warp look-back took lookback from 60-69 % to 92 %
// of copy on the H200, 256 items of 8 vectors. `requested` -1 (auto), 0 or 1.
bool scanWarpShuffles(const DeviceInfo& info, int requested, std::size_t wg) {
    if (requested == 0)
        return false;
    const bool available = nvidiaOpenCL(info);
    if (requested < 0)
        return available && (wg == 0 || wg >= 32);
    if (!available)
        throw UnsupportedError("warp shuffles are NVIDIA's inline PTX; " + info.name + " (" +
                               info.platformName + ") is not a GPU of NVIDIA's OpenCL");
    checkScanWarpWorkGroup(requested, wg);
    return true;
}

void checkScanWarpWorkGroup(int warp, std::size_t wg) {
    if (warp == 1 && wg && wg < 32)
        throw UsageError("--warp", "warp shuffles need whole warps of 32 work-items; --wg " +
                                       std::to_string(wg) + " is smaller");
}

ScanVariant parseScanVariant(const std::string& name) {
    return scanVariants().parse(name);
}

const char* scanVariantName(ScanVariant variant) {
    return scanVariants().name(variant);
}

std::vector<ScanVariant> allScanVariants() {
    return {ScanVariant::Naive, ScanVariant::Blelloch, ScanVariant::WgScan,
            ScanVariant::ReduceThenScan, ScanVariant::Lookback};
}

bool isSegmentedScan(ScanVariant variant) {
    return variant == ScanVariant::Naive || variant == ScanVariant::Blelloch ||
           variant == ScanVariant::WgScan;
}

ScanDistribution parseScanDistribution(const std::string& name) {
    return scanDistributions().parse(name);
}

const char* scanDistributionName(ScanDistribution dist) {
    return scanDistributions().name(dist);
}

std::vector<std::uint32_t> makeScanInput(ScanDistribution dist, std::size_t n, std::uint64_t seed) {
    std::vector<std::uint32_t> v(n);
    switch (dist) {
    case ScanDistribution::Random:
    case ScanDistribution::Bytes:
        for (std::size_t i = 0; i < n; i += 2) {
            const std::uint64_t r = mix(seed * 0x100000001B3ull + i / 2);
            v[i] = std::uint32_t(r);
            if (i + 1 < n)
                v[i + 1] = std::uint32_t(r >> 32);
        }
        if (dist == ScanDistribution::Bytes)
            for (auto& x : v)
                x &= 0xFFu;
        break;
    case ScanDistribution::Ones:
        std::fill(v.begin(), v.end(), 1u);
        break;
    case ScanDistribution::Max:
        std::fill(v.begin(), v.end(), 0xFFFFFFFFu);
        break;
    }
    return v;
}

std::vector<std::uint32_t> exclusiveScanReference(const std::vector<std::uint32_t>& values,
                                                  std::size_t segment) {
    return scanReference(values, segment, false);
}

std::vector<std::uint32_t> inclusiveScanReference(const std::vector<std::uint32_t>& values,
                                                  std::size_t segment) {
    return scanReference(values, segment, true);
}

std::string firstScanMismatch(const std::vector<std::uint32_t>& values,
                              const std::vector<std::uint32_t>& device, std::size_t segment,
                              bool inclusive) {
    if (device.size() != values.size())
        return "the device gave " + std::to_string(device.size()) + " values for " +
               std::to_string(values.size());
    std::string first;
    std::size_t wrong = 0;
    std::uint32_t run = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (segment && i % segment == 0)
            run = 0;
        const std::uint32_t expected = inclusive ? run + values[i] : run;
        run += values[i];
        if (device[i] == expected)
            continue;
        if (!wrong++) {
            first = "index " + std::to_string(i);
            if (segment)
                first += " (segment " + std::to_string(i / segment) + ", offset " +
                         std::to_string(i % segment) + ")";
            first += ": device " + std::to_string(device[i]) + ", CPU reference " +
                     std::to_string(expected);
        }
    }
    if (!wrong)
        return {};
    return first + " (" + std::to_string(wrong) + " of " + std::to_string(values.size()) +
           " values differ)";
}

std::vector<std::size_t> scanWorkGroupSizes(const DeviceInfo& device) {
    std::vector<std::size_t> sizes;
    for (std::size_t wg = 16; wg <= device.maxWorkGroupSize; wg *= 2)
        sizes.push_back(wg);
    return sizes;
}

void checkScanWorkGroupSize(const DeviceInfo& device, std::size_t wg) {
    if (!isPowerOfTwo(wg) || wg < 16 || wg > device.maxWorkGroupSize)
        throw UsageError("--wg", std::to_string(wg) +
                                     " is not a work-group size for scans (a power of two from "
                                     "16 to " +
                                     std::to_string(device.maxWorkGroupSize) + " on " +
                                     device.name + ")");
}

void checkScanVectorsPerItem(std::size_t vpt) {
    if (!isPowerOfTwo(vpt) || vpt > 16)
        throw UsageError("--vpt", std::to_string(vpt) +
                                      " vectors per work-item: a power of two from 1 to 16");
}

// ---------------------------------------------------------------------------------------------
// DeviceScan

struct DeviceScan::Impl {
    Device& device;
    std::size_t n = 0;
    ScanVariant variant = ScanVariant::ReduceThenScan;
    std::size_t wg = 0, vpt = 0, tile = 0;
    bool warp = false;
    std::string options;
    cl::Kernel reduce, scanTiles, lookback;
    std::vector<cl::Buffer> sums; ///< reduce-then-scan: the tile sums of each level
    cl::Buffer dummy;             ///< scan_tiles' offsets when it has none
    cl::Buffer status;            ///< lookback: a word per tile, then the ticket counter
    std::size_t tiles = 0;
    std::uint64_t ticketBase = 0;
    std::uint32_t epoch = 0;

    explicit Impl(Device& d)
        : device(d) {}

    void scanLevel(const cl::Buffer& in, const cl::Buffer& out, std::size_t count,
                   std::size_t level, bool inclusive, std::vector<cl::Event>& events,
                   const std::vector<cl::Event>* waitFor) {
        cl::CommandQueue& q = device.queue();
        const std::vector<cl::Event>* wait = waitFor && !waitFor->empty() ? waitFor : nullptr;
        if (count <= tile) { // one tile: scanned as it is
            scanTiles.setArg(0, in);
            scanTiles.setArg(1, out);
            scanTiles.setArg(2, cl_uint(count));
            scanTiles.setArg(3, dummy);
            scanTiles.setArg(4, cl_uint(0));
            scanTiles.setArg(5, cl_uint(inclusive ? 1 : 0));
            events.emplace_back();
            q.enqueueNDRangeKernel(scanTiles, cl::NullRange, cl::NDRange(wg), cl::NDRange(wg), wait,
                                   &events.back());
            return;
        }
        const std::size_t groups = ceilDiv(count, tile);
        const cl::Buffer& s = sums[level];
        reduce.setArg(0, in);
        reduce.setArg(1, cl_uint(count));
        reduce.setArg(2, s);
        events.emplace_back();
        q.enqueueNDRangeKernel(reduce, cl::NullRange, cl::NDRange(groups * wg), cl::NDRange(wg),
                               wait, &events.back());
        scanLevel(s, s, groups, level + 1, false, events, nullptr); // in place: the offsets
        scanTiles.setArg(0, in);
        scanTiles.setArg(1, out);
        scanTiles.setArg(2, cl_uint(count));
        scanTiles.setArg(3, s);
        scanTiles.setArg(4, cl_uint(1));
        scanTiles.setArg(5, cl_uint(inclusive ? 1 : 0));
        events.emplace_back();
        q.enqueueNDRangeKernel(scanTiles, cl::NullRange, cl::NDRange(groups * wg), cl::NDRange(wg),
                               nullptr, &events.back());
    }

    void clearStatus() {
        const std::vector<cl_ulong> zeros(tiles + 1, 0);
        device.queue().enqueueWriteBuffer(status, CL_TRUE, 0, zeros.size() * sizeof(cl_ulong),
                                          zeros.data());
        ticketBase = 0;
        epoch = 0;
    }
};

DeviceScan::DeviceScan(Device& device, std::size_t n, ScanVariant variant, std::size_t wg,
                       std::size_t requestedVpt, int requestedWarp)
    : m_impl(std::make_unique<Impl>(device)) {
    Impl& s = *m_impl;
    const DeviceInfo& info = device.info();
    if (isSegmentedScan(variant))
        throw UsageError("--variant", std::string(scanVariantName(variant)) +
                                          " scans per segment; a whole-array scan is auto, "
                                          "reduce-then-scan or lookback");
    if (n > kScanMaxElements)
        throw UsageError("--count", std::to_string(n) + " values are more than a scan takes (" +
                                        std::to_string(kScanMaxElements) + ")");
    const bool int64Atomics = hasExtension(info, "cl_khr_int64_base_atomics");
    if (variant == ScanVariant::Auto)
        variant = int64Atomics ? ScanVariant::Lookback : ScanVariant::ReduceThenScan;
    if (variant == ScanVariant::Lookback && !int64Atomics)
        throw UnsupportedError("lookback needs cl_khr_int64_base_atomics (a tile's flag and "
                               "value in one 64-bit atomic word), which " +
                               info.name + " does not have");
    if (wg == 0)
        wg = defaultWholeArrayWorkGroup(info);
    else
        checkScanWorkGroupSize(info, wg);
    const bool warp = scanWarpShuffles(info, requestedWarp, wg);
    // Fewer vectors per item where a large group's stage would not fit local memory.
    const bool transpose = transposeTiles(info);
    if (requestedVpt)
        checkScanVectorsPerItem(requestedVpt);
    if (requestedVpt && wholeArrayLocalBytes(wg, requestedVpt, transpose) > info.localMemBytes)
        throw UsageError("--vpt",
                         std::to_string(requestedVpt) + " vectors per work-item of " +
                             std::to_string(wg) + ": the tile needs " +
                             std::to_string(wholeArrayLocalBytes(wg, requestedVpt, transpose)) +
                             " bytes of local memory, " + info.name + " has " +
                             std::to_string(info.localMemBytes));
    std::size_t vpt = requestedVpt ? requestedVpt : defaultVectorsPerItem(info);
    while (vpt > 1 && wholeArrayLocalBytes(wg, vpt, transpose) > info.localMemBytes)
        vpt /= 2;
    if (wholeArrayLocalBytes(wg, vpt, transpose) > info.localMemBytes)
        throw UnsupportedError("a tile of " + std::to_string(wg) + " work-items needs " +
                               std::to_string(wholeArrayLocalBytes(wg, vpt, transpose)) +
                               " bytes of local memory; " + info.name + " has " +
                               std::to_string(info.localMemBytes));
    s.n = n;
    s.variant = variant;
    s.wg = wg;
    s.vpt = vpt;
    s.warp = warp;
    s.tile = wg * vpt * 4;
    const bool lookback = variant == ScanVariant::Lookback;
    s.options = BuildOptions()
                    .define("SEGMENTED", false)
                    .define("WG", wg)
                    .define("VPT", vpt)
                    .define("TRANSPOSE", transpose)
                    .define("LOOKBACK", lookback)
                    .define("WARP", warp)
                    .text();
    cl::Program program = device.program("scan", s.options);
    try {
        if (lookback) {
            s.lookback = makeKernel(program, "scan_lookback");
            s.tiles = std::max<std::size_t>(1, ceilDiv(n, s.tile));
            s.status =
                cl::Buffer(device.context(), CL_MEM_READ_WRITE, (s.tiles + 1) * sizeof(cl_ulong));
            s.clearStatus();
        } else {
            s.reduce = makeKernel(program, "reduce_tiles");
            s.scanTiles = makeKernel(program, "scan_tiles");
            s.dummy = cl::Buffer(device.context(), CL_MEM_READ_ONLY, 16);
            for (std::size_t count = n; count > s.tile;) {
                count = ceilDiv(count, s.tile);
                s.sums.emplace_back(device.context(), CL_MEM_READ_WRITE,
                                    std::max<std::size_t>(count, 4) * sizeof(cl_uint));
            }
        }
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
    logInfo("scan", std::string(scanVariantName(variant)) + " of " + std::to_string(n) +
                        " values on " + info.name + " with \"" + s.options + "\"");
}

DeviceScan::~DeviceScan() = default;

std::size_t DeviceScan::size() const {
    return m_impl->n;
}
ScanVariant DeviceScan::variant() const {
    return m_impl->variant;
}
std::size_t DeviceScan::workGroupSize() const {
    return m_impl->wg;
}
std::size_t DeviceScan::tileElements() const {
    return m_impl->tile;
}

std::size_t DeviceScan::vectorsPerItem() const {
    return m_impl->vpt;
}

bool DeviceScan::warpShuffles() const {
    return m_impl->warp;
}

const std::string& DeviceScan::buildOptions() const {
    return m_impl->options;
}
std::size_t DeviceScan::launchesPerScan() const {
    if (m_impl->n == 0)
        return 0;
    if (m_impl->variant == ScanVariant::Lookback)
        return 1;
    return 1 + 2 * m_impl->sums.size();
}

std::vector<cl::Event> DeviceScan::enqueue(const cl::Buffer& in, const cl::Buffer& out,
                                           bool inclusive, const std::vector<cl::Event>& waitFor) {
    Impl& s = *m_impl;
    std::vector<cl::Event> events;
    if (s.n == 0)
        return events;
    try {
        if (s.variant != ScanVariant::Lookback) {
            s.scanLevel(in, out, s.n, 0, inclusive, events, &waitFor);
            return events;
        }
        // A new epoch for each launch (the status words of older ones read as "not yet");
        // 30 bits of it, then the words are cleared and the epochs start again.
        if (s.epoch + 1 >= (1u << 30))
            s.clearStatus();
        ++s.epoch;
        s.lookback.setArg(0, in);
        s.lookback.setArg(1, out);
        s.lookback.setArg(2, cl_uint(s.n));
        s.lookback.setArg(3, s.status);
        s.lookback.setArg(4, cl_ulong(s.ticketBase));
        s.lookback.setArg(5, cl_uint(s.epoch));
        s.lookback.setArg(6, cl_uint(inclusive ? 1 : 0));
        events.emplace_back();
        s.device.queue().enqueueNDRangeKernel(s.lookback, cl::NullRange,
                                              cl::NDRange(s.tiles * s.wg), cl::NDRange(s.wg),
                                              waitFor.empty() ? nullptr : &waitFor, &events.back());
        s.ticketBase += s.tiles;
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
    return events;
}

void scanDeviceBuffer(Device& device, const cl::Buffer& in, const cl::Buffer& out, std::size_t n,
                      bool inclusive, ScanVariant variant) {
    if (n == 0)
        return;
    DeviceScan scan(device, n, variant);
    std::vector<cl::Event> events = scan.enqueue(in, out, inclusive);
    try {
        events.back().wait();
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
}

// ---------------------------------------------------------------------------------------------
// Measured runs

namespace {

// A per-segment kernel built for one work-group size; throws UnsupportedError where the device
// cannot run it (wgscan without a working work_group_scan_exclusive_add, a kernel limit below
// wg, too little local memory).
struct SegmentedLaunch {
    cl::Kernel kernel;
    std::string options;
};

SegmentedLaunch prepareSegmented(Device& device, ScanVariant variant, std::size_t wg) {
    const DeviceInfo& info = device.info();
    SegmentedLaunch l;
    BuildOptions options;
    options.define("SEGMENTED", true).define("WG", wg).define("SEGMENT", kScanSegment);
    const char* name = "scan_segments_naive";
    std::uint64_t local = std::uint64_t(wg) * 4;
    if (variant == ScanVariant::Blelloch) {
        name = "scan_segments_blelloch";
        local = (2 * std::uint64_t(wg) + (2 * std::uint64_t(wg) >> 5) + 1) * 4;
    } else if (variant == ScanVariant::WgScan) {
        name = "scan_segments_wgscan";
        local = 4;
        options.standard("CL2.0").define("WGSCAN", true);
        const Capabilities& caps = device.capabilities();
        if (!caps.workGroupScan)
            throw UnsupportedError("work_group_scan_exclusive_add does not work on " + info.name +
                                   " (" + caps.workGroupScanDetail + ")");
    }
    l.options = options.text();
    if (local > info.localMemBytes)
        throw UnsupportedError(std::string(name) + " with " + std::to_string(wg) +
                               " work-items needs " + std::to_string(local) +
                               " bytes of local memory; " + info.name + " has " +
                               std::to_string(info.localMemBytes));
    l.kernel = makeKernel(device.program("scan", l.options), name);
    return l;
}

// The copy of the input's size that a point's output starts as: a value no scan of these
// inputs gives everywhere, so that a kernel that writes nothing cannot pass.
constexpr cl_uint kPoison = 0xA5A5A5A5u;

void runOnBuffers(Device& device, ScanPoint& p, const std::vector<std::uint32_t>& values,
                  const cl::Buffer* in, const cl::Buffer* out, int repeats,
                  const CancelToken& cancel, int warp) {
    const std::size_t n = values.size();
    cl::CommandQueue& q = device.queue();
    std::function<std::vector<cl::Event>()> launch;
    std::optional<SegmentedLaunch> seg;
    std::unique_ptr<DeviceScan> whole;
    if (isSegmentedScan(p.variant)) {
        p.inclusive = false; // per-segment scans are exclusive
        seg = prepareSegmented(device, p.variant, p.workGroupSize);
        p.buildOptions = seg->options;
        if (n) {
            seg->kernel.setArg(0, *in);
            seg->kernel.setArg(1, *out);
            seg->kernel.setArg(2, cl_uint(n));
        }
        const std::size_t groups = ceilDiv(n, kScanSegment);
        launch = [&, groups] {
            std::vector<cl::Event> ev(1);
            q.enqueueNDRangeKernel(seg->kernel, cl::NullRange,
                                   cl::NDRange(groups * p.workGroupSize),
                                   cl::NDRange(p.workGroupSize), nullptr, &ev[0]);
            return ev;
        };
    } else {
        whole = std::make_unique<DeviceScan>(device, n, p.variant, p.workGroupSize,
                                             p.vectorsPerItem, warp);
        p.variant = whole->variant();
        p.workGroupSize = whole->workGroupSize();
        p.vectorsPerItem = whole->vectorsPerItem();
        p.warp = whole->warpShuffles();
        p.buildOptions = whole->buildOptions();
        launch = [&] { return whole->enqueue(*in, *out, p.inclusive); };
    }
    std::vector<std::uint32_t> result;
    if (n) {
        q.enqueueFillBuffer(*out, kPoison, 0, n * sizeof(cl_uint));
        auto once = [&] {
            std::vector<cl::Event> ev = launch();
            ev.back().wait();
            return profiledMs(ev);
        };
        p.stats = timeRepeated(repeats, once, cancel);
        result.resize(n);
        q.enqueueReadBuffer(*out, CL_TRUE, 0, n * sizeof(cl_uint), result.data());
    }
    p.gbps = gbPerSecond(std::uint64_t(n) * 8, p.stats.medianMs);
    p.detail = firstScanMismatch(values, result, isSegmentedScan(p.variant) ? kScanSegment : 0,
                                 p.inclusive);
    p.status = p.detail.empty() ? Status::Verified : Status::Mismatch;
    if (n == 0)
        p.detail = "empty input: nothing to launch";
}

void checkCount(const DeviceInfo& info, std::size_t n) {
    if (n > kScanMaxElements)
        throw UsageError("--count", std::to_string(n) + " values are more than a scan takes (" +
                                        std::to_string(kScanMaxElements) + ")");
    if (std::uint64_t(n) * 4 > info.maxAllocBytes)
        throw UsageError("--count",
                         std::to_string(n) + " values (" + std::to_string(std::uint64_t(n) * 4) +
                             " bytes) do not fit one buffer of " + info.name + " (at most " +
                             std::to_string(info.maxAllocBytes) + " bytes)");
}

std::size_t resolveWorkGroup(const DeviceInfo& info, ScanVariant variant, std::size_t wg) {
    if (wg == 0)
        return isSegmentedScan(variant) ? defaultSegmentedWorkGroup(info)
                                        : defaultWholeArrayWorkGroup(info);
    checkScanWorkGroupSize(info, wg);
    return wg;
}

// One point; unsupported and failed points come back as values (one failed point is not a
// failed run). Usage errors and cancellation go up.
ScanPoint measurePoint(Device& device, const std::vector<std::uint32_t>& values,
                       const cl::Buffer* in, const cl::Buffer* out, ScanVariant variant,
                       std::size_t wg, bool inclusive, int repeats, const CancelToken& cancel,
                       std::size_t vpt = 0, int warp = -1) {
    ScanPoint p;
    p.variant = variant;
    p.vectorsPerItem = isSegmentedScan(variant) ? 0 : vpt;
    p.workGroupSize = resolveWorkGroup(device.info(), variant, wg);
    p.elements = values.size();
    p.inclusive = inclusive;
    try {
        try {
            runOnBuffers(device, p, values, in, out, repeats, cancel, warp);
        } catch (const cl::Error& e) {
            rethrowClError(e);
        }
    } catch (const UnsupportedError& e) {
        p.status = Status::Unsupported;
        p.detail = e.what();
    } catch (const BuildError& e) {
        p.status = Status::Failed;
        p.detail = std::string(e.what()) + " (options \"" + e.options() + "\")";
    } catch (const DeviceError& e) {
        // The launch decides whether a work-group size runs: NVIDIA's driver (580) reports
        // CL_KERNEL_WORK_GROUP_SIZE 256 for these kernels, yet runs 512 and 1024 exactly.
        const bool refused = groupSizeRefused(e.code());
        p.status = refused ? Status::Unsupported : Status::Failed;
        p.detail = e.what();
        if (refused)
            p.detail += ": " + device.info().name + " does not run " + scanVariantName(p.variant) +
                        " with " + std::to_string(p.workGroupSize) + " work-items per group";
    }
    if (p.variant == ScanVariant::Auto && variant == ScanVariant::Auto) // never resolved
        p.variant = hasExtension(device.info(), "cl_khr_int64_base_atomics")
                        ? ScanVariant::Lookback
                        : ScanVariant::ReduceThenScan;
    logInfo("scan", std::string(scanVariantName(p.variant)) + " wg " +
                        std::to_string(p.workGroupSize) + ": " + statusName(p.status) +
                        (p.detail.empty() ? std::string() : " (" + p.detail + ")"));
    return p;
}

struct DeviceBuffers {
    std::optional<cl::Buffer> in, out;
};

DeviceBuffers upload(Device& device, const std::vector<std::uint32_t>& values) {
    DeviceBuffers b;
    if (values.empty())
        return b;
    try {
        b.in.emplace(device.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                     values.size() * sizeof(cl_uint), const_cast<std::uint32_t*>(values.data()));
        b.out.emplace(device.context(), CL_MEM_READ_WRITE, values.size() * sizeof(cl_uint));
    } catch (const cl::Error& e) {
        rethrowClError(e);
    }
    return b;
}

} // namespace

ScanPoint runScanPoint(Device& device, const std::vector<std::uint32_t>& values,
                       ScanVariant variant, std::size_t wg, bool inclusive, int repeats,
                       const CancelToken& cancel, std::size_t vpt, int warp) {
    checkCount(device.info(), values.size());
    resolveWorkGroup(device.info(), variant, wg); // usage errors before any upload
    const DeviceBuffers b = upload(device, values);
    return measurePoint(device, values, b.in ? &*b.in : nullptr, b.out ? &*b.out : nullptr, variant,
                        wg, inclusive, repeats, cancel, vpt, warp);
}

ScanRun runScans(Device& device, const ScanRequest& request, const CancelToken& cancel,
                 const std::function<void(const ScanPoint&)>& progress) {
    const DeviceInfo& info = device.info();
    checkCount(info, request.elements);
    for (std::size_t wg : request.workGroupSizes)
        checkScanWorkGroupSize(info, wg);
    if (request.wholeWorkGroupSize)
        checkScanWorkGroupSize(info, request.wholeWorkGroupSize);
    if (request.variants.empty())
        throw UsageError("--variant", "no variant to run");
    ScanRun run;
    run.device = info;
    run.elements = request.elements;
    run.distribution = request.distribution;
    const std::vector<std::uint32_t> values =
        makeScanInput(request.distribution, request.elements, request.seed);
    const DeviceBuffers b = upload(device, values);
    const std::size_t bytes = request.elements * sizeof(cl_uint);
    if (bytes >= 16)
        run.copy = measureCopyCeiling(device, *b.in, bytes, request.repeats, cancel);
    for (ScanVariant variant : request.variants) {
        const std::vector<std::size_t> sizes =
            !isSegmentedScan(variant)        ? std::vector<std::size_t>{request.wholeWorkGroupSize}
            : request.workGroupSizes.empty() ? std::vector<std::size_t>{0}
                                             : request.workGroupSizes;
        for (std::size_t wg : sizes) {
            cancel.throwIfCancelled();
            ScanPoint p =
                measurePoint(device, values, b.in ? &*b.in : nullptr, b.out ? &*b.out : nullptr,
                             variant, wg, request.inclusive, request.repeats, cancel,
                             request.wholeVectorsPerItem, request.wholeWarp);
            if (run.copy.gbps > 0 && statusRan(p.status))
                p.percentOfCopy = 100.0 * p.gbps / run.copy.gbps;
            if (progress)
                progress(p);
            run.points.push_back(std::move(p));
        }
    }
    return run;
}

} // namespace histlab
