#pragma once
// Scans: prefix sums of uint32 values on the device, modulo 2^32, verified against a
// CPU reference, timed with the one recipe and judged against the same run's copy kernel.
//
// Metric: GB/s = (4 bytes read + 4 bytes written) x n / median kernel time, for every variant,
// so that the figure compares with the copy kernel's (bytes read + bytes written) directly.
// Reduce-then-scan really moves 12 bytes a value (the input is read twice), so it can reach at
// most ~67 % of the copy kernel; a single-pass scan (lookback) can reach 100 %.
//
// Per-segment exclusive scans, as in "Working groups in OpenCL 2.0": each work-group scans one
// segment of kScanSegment (65,536) values, the sums restarting at 0 in each segment (the last
// segment may be shorter). Work-group size `wg`: a power of two from 16 to the device's maximum.
//   naive     each work-item sums its contiguous chunk (segment / wg values) serially, the chunk
//             totals go to local memory, one work-item scans those totals serially, then every
//             work-item writes its chunk's exclusive scan (reading its chunk a second time)
//   blelloch  the segment in tiles of 2 x wg values in local memory: Blelloch's up-sweep and
//             down-sweep (GPU Gems 3, ch. 39) with the bank-conflict-avoiding padding
//             (CONFLICT_FREE_OFFSET(i) = i >> 5, 32 banks), the running total carried from tile
//             to tile
//   wgscan    tiles of wg values through OpenCL 2.0's work_group_scan_exclusive_add plus the
//             carry, built with -cl-std=CL2.0; only where Device::capabilities().workGroupScan
//             says it works (NVIDIA's driver: yes; PoCL 3.1: no), otherwise "unsupported"
//
// Whole-array scans (exclusive or inclusive) of any n, in tiles of wg x vpt uint4 vectors
// (wg x vpt x 4 values), coalesced uint4 loads and stores transposed through local memory:
//   reduce-then-scan  the sum of each tile; those sums scanned the same way (recursively while
//                     there is more than one tile of them); then each tile scanned from its
//                     offset. Portable; 12 bytes a value.
//   lookback          one pass: chained scan with decoupled look-back (Merrill & Garland 2016),
//                     tile ids from an atomic counter, each tile's status (flag + value) one
//                     64-bit word written with cl_khr_int64_base_atomics; 8 bytes a value.
//                     "unsupported" without that extension.
//   auto              lookback where the device has 64-bit atomics, else reduce-then-scan.
//
// No variant is ever replaced by another silently: a variant the device cannot run is reported
// as unsupported with the reason.
#include "pipelines/bandwidth/bandwidth.h"
#include "report/status.h"
#include "runtime/cancel.h"
#include "runtime/device.h"
#include "runtime/runner.h"
#include "runtime/timing.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace histlab {

/// Values per segment of the per-segment variants.
inline constexpr std::size_t kScanSegment = 65536;

/// The largest n the kernels take (their indices are 32-bit).
inline constexpr std::size_t kScanMaxElements = std::size_t(1) << 31;

enum class ScanVariant { Auto, Naive, Blelloch, WgScan, ReduceThenScan, Lookback };

/// "auto", "naive", "blelloch", "wgscan", "reduce-then-scan", "lookback"; throws
/// UsageError("--variant").
ScanVariant parseScanVariant(const std::string& name);
const char* scanVariantName(ScanVariant variant);
/// naive, blelloch, wgscan, reduce-then-scan, lookback (not auto).
std::vector<ScanVariant> allScanVariants();
/// naive, blelloch and wgscan scan per segment; the others the whole array.
bool isSegmentedScan(ScanVariant variant);

/// Input data of the scan runs.
///   random  uniformly distributed 32-bit values (sums wrap around 2^32 every few values)
///   ones    every value 1 (the exclusive scan is the index)
///   bytes   random values 0..255 (no wrap-around below 16 Mi values)
///   max     every value 0xFFFFFFFF (wraps at every step: the scan counts down)
enum class ScanDistribution { Random, Ones, Bytes, Max };

/// "random", "ones", "bytes", "max"; throws UsageError("--dist").
ScanDistribution parseScanDistribution(const std::string& name);
const char* scanDistributionName(ScanDistribution dist);

/// n values of the distribution; deterministic for a given seed.
std::vector<std::uint32_t> makeScanInput(ScanDistribution dist, std::size_t n,
                                         std::uint64_t seed = 1);

/// The exclusive scan of `values`, restarting at 0 every `segment` values (0: the whole array),
/// modulo 2^32.
std::vector<std::uint32_t> exclusiveScanReference(const std::vector<std::uint32_t>& values,
                                                  std::size_t segment);

/// The inclusive scan, likewise.
std::vector<std::uint32_t> inclusiveScanReference(const std::vector<std::uint32_t>& values,
                                                  std::size_t segment);

/// "" when `device` is the scan of `values` (exclusive or inclusive, per `segment` as above),
/// else the first index that differs with both values ("index 65537 (segment 1, offset 1):
/// device 12, CPU reference 13"), and how many differ. Computes the reference on the fly.
std::string firstScanMismatch(const std::vector<std::uint32_t>& values,
                              const std::vector<std::uint32_t>& device, std::size_t segment,
                              bool inclusive);

/// The work-group sizes of --wg all: 16, 32, ... up to the device's maximum.
std::vector<std::size_t> scanWorkGroupSizes(const DeviceInfo& device);

/// Throws UsageError("--wg") unless `wg` is a power of two from 16 to the device's maximum.
void checkScanWorkGroupSize(const DeviceInfo& device, std::size_t wg);

/// Throws UsageError("--vpt") unless `vpt` (a whole-array scan's uint4 vectors per work-item) is
/// a power of two from 1 to 16.
void checkScanVectorsPerItem(std::size_t vpt);

/// Throws UsageError("--warp") when warp shuffles are asked for (`warp` 1) in groups of `wg`
/// work-items (0: the default) smaller than a warp of 32.
void checkScanWarpWorkGroup(int warp, std::size_t wg);

/// Whether a whole-array scan on `device` with `wg` items a group (0: the default) is built with
/// warp shuffles (the group scan, transposition and look-back through NVIDIA's inline PTX).
/// `requested` -1: where the device has them (an NVIDIA GPU) and wg is 0 or at least 32; 0: no;
/// 1: yes, else UnsupportedError (not a GPU of NVIDIA's own OpenCL platform) or
/// UsageError("--warp") (wg below 32).
bool scanWarpShuffles(const DeviceInfo& device, int requested, std::size_t wg);

// ---------------------------------------------------------------------------------------------
// The reusable whole-array scan for other pipelines (integral images, equalization CDFs).

/// A whole-array scan of n values prepared once (programs built, scratch buffers allocated) and
/// enqueued any number of times on the device's queue. Not thread-safe; like the Device it
/// belongs to the thread that owns the device.
class DeviceScan {
public:
    /// `variant`: Auto, ReduceThenScan or Lookback (else UsageError("--variant")); `wg` 0 picks
    /// the device's default (256 on a GPU, 64 on a CPU), else checkScanWorkGroupSize. Throws
    /// UnsupportedError when the device cannot run the variant (lookback without
    /// cl_khr_int64_base_atomics; a tile that does not fit local memory),
    /// UsageError("--count") when n > kScanMaxElements, BuildError/DeviceError from OpenCL.
    /// A work-group size the driver refuses shows at enqueue() (DeviceError with
    /// CL_INVALID_WORK_GROUP_SIZE): the reported kernel limits are not trusted (NVIDIA's 580
    /// says 256 and runs 1024).
    /// `vpt`: uint4 vectors per work-item of a tile, a power of two from 1 to 16; 0 picks the
    /// device's (8 with tiles transposed through local memory, else 16, halved until the tile
    /// fits local memory). UsageError("--vpt") for another value or one whose tile does not fit.
    /// `warp`: the group scan, transposition and look-back with warp shuffles (inline PTX):
    /// -1 where the device has them (an NVIDIA GPU, wg >= 32), 0 never,
    /// 1 always: UnsupportedError on another device, UsageError("--warp") with wg < 32.
    DeviceScan(Device& device, std::size_t n, ScanVariant variant = ScanVariant::Auto,
               std::size_t wg = 0, std::size_t vpt = 0, int warp = -1);
    ~DeviceScan();
    DeviceScan(const DeviceScan&) = delete;
    DeviceScan& operator=(const DeviceScan&) = delete;

    std::size_t size() const;
    ScanVariant variant() const;        ///< what runs (auto resolved)
    std::size_t workGroupSize() const;  ///< items per work-group
    std::size_t tileElements() const;   ///< values per work-group (wg x vpt x 4)
    std::size_t vectorsPerItem() const; ///< uint4 vectors per work-item of a tile (vpt)
    bool warpShuffles() const;          ///< built with warp shuffles (WARP=1)
    const std::string& buildOptions() const;
    std::size_t launchesPerScan() const; ///< kernels one enqueue() issues (0 when n is 0)

    /// Enqueues the scan of in[0, n) into out[0, n) (uint32 each; in == out is allowed) after
    /// `waitFor`, and returns the events of its commands in order: the last one completes the
    /// scan; pass them all to profiledMs() for its device time. Nothing is enqueued when n is 0.
    std::vector<cl::Event> enqueue(const cl::Buffer& in, const cl::Buffer& out, bool inclusive,
                                   const std::vector<cl::Event>& waitFor = {});

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

/// Scans in[0, n) into out[0, n) on the device (exclusive, or inclusive) and waits for it.
/// A convenience around DeviceScan for one-off scans; build DeviceScan once for repeated ones.
void scanDeviceBuffer(Device& device, const cl::Buffer& in, const cl::Buffer& out, std::size_t n,
                      bool inclusive, ScanVariant variant = ScanVariant::Auto);

// ---------------------------------------------------------------------------------------------
// Measured runs.

/// One variant at one work-group size.
struct ScanPoint {
    ScanVariant variant = ScanVariant::Naive; ///< what ran (auto resolved)
    std::size_t workGroupSize = 0;
    std::size_t vectorsPerItem = 0; ///< whole-array scans: uint4 vectors per work-item
    bool warp = false;              ///< whole-array scans: built with warp shuffles
    std::size_t elements = 0;
    bool inclusive = false; ///< whole-array variants only; per-segment scans are exclusive
    std::string buildOptions;
    /// verified, mismatch, unsupported (the device cannot run it, or refuses this work-group
    /// size) or failed (an OpenCL error); report/status.h
    Status status = Status::Failed;
    std::string detail; ///< why unsupported, or the first mismatch
    TimingStats stats;  ///< kernel milliseconds (all launches of one scan), after a warm-up
    double gbps = 0;    ///< (4 + 4) bytes x elements / median
    double percentOfCopy = 0;
};

/// What runs: planScan() makes it from what a person asks (ScanParams).
struct ScanRequest {
    std::vector<ScanVariant> variants = allScanVariants();
    /// The per-segment variants run at each of these work-group sizes; empty: their default
    /// (256 on a GPU).
    std::vector<std::size_t> workGroupSizes;
    /// The whole-array variants run at this one; 0: their default.
    std::size_t wholeWorkGroupSize = 0;
    /// The whole-array variants' uint4 vectors per work-item; 0: the device's.
    std::size_t wholeVectorsPerItem = 0;
    /// The whole-array variants with warp shuffles: -1 where the device has them, 0 or 1.
    int wholeWarp = -1;
    std::size_t elements = 0;
    ScanDistribution distribution = ScanDistribution::Random;
    int repeats = 5;
    bool inclusive = false;
    std::uint64_t seed = 1;
};

struct ScanRun {
    DeviceInfo device;
    std::size_t elements = 0;
    ScanDistribution distribution = ScanDistribution::Random;
    CeilingResult copy; ///< the copy kernel on the same buffer size (absent when elements is 0)
    std::vector<ScanPoint> points;
};

/// Runs one point on `values` (uploaded for it). Throws UsageError for a bad wg or variant
/// (auto is resolved to lookback or reduce-then-scan); a variant the device cannot run comes
/// back with status unsupported (a refused work-group size too), one whose OpenCL call
/// failed otherwise with failed, each with the reason in `detail`. percentOfCopy stays 0
/// (no ceiling here).
ScanPoint runScanPoint(Device& device, const std::vector<std::uint32_t>& values,
                       ScanVariant variant, std::size_t wg, bool inclusive, int repeats = 5,
                       const CancelToken& cancel = {}, std::size_t vpt = 0, int warp = -1);

/// What a person asks of the scans: histlab-cli scan's options, the Scans tab's controls.
struct ScanParams {
    std::vector<ScanVariant> variants = allScanVariants();
    /// --wg N: the per-segment variants at N, the whole-array ones too; empty: their defaults.
    std::vector<std::size_t> workGroupSizes;
    /// --wg all: the per-segment variants at every power of two from minWorkGroupSize up to
    /// maxWorkGroupSize (0: the device's maximum); the whole-array ones at their default.
    bool allWorkGroupSizes = false;
    std::size_t minWorkGroupSize = 16, maxWorkGroupSize = 0;
    std::size_t vectorsPerItem = 0; ///< --vpt: whole-array scans' vectors per work-item (0: auto)
    int warp = -1; ///< --warp 0|1: whole-array scans with warp shuffles (-1: where they exist)
    std::optional<double> sizeMiB;    ///< MiB of uint32 values
    std::optional<std::size_t> count; ///< values (not with sizeMiB)
    ScanDistribution distribution = ScanDistribution::Random;
    bool inclusive = false;
    int repeats = 5;
};

/// What a device runs of `params`: the work-group sizes it allows, and the size when none is
/// given: 64 MiB of values, 16 MiB on a CPU device (scans on a CPU's OpenCL run at a few GB/s;
/// any other device gets the GPU's size, as an accelerator has memory of its own). Throws
/// UsageError naming the option for what cannot run there (--size with --count, a work-group
/// size the device does not have, no variant).
ScanRequest planScan(const DeviceInfo& device, const ScanParams& params);

/// The points a run of `request` has: per-segment variants x work-group sizes + whole-array
/// variants.
std::size_t scanPointCount(const ScanRequest& request);

/// A run and the request behind it (the report says inclusive or exclusive).
struct ScanResult {
    ScanRun run;
    bool inclusive = false;
};

/// histlab-cli scan's run and the Scans tab's: runScans with the job's progress (one step per
/// point); each ScanPoint goes to `onItem` as it finishes.
ScanResult runScanJob(JobContext& ctx, Device& device, const ScanRequest& request,
                      const ItemSink& onItem);

/// The report histlab-cli scan prints: input, device, copy kernel, one line per point.
std::string scanText(const ScanRun& run, bool inclusive);

/// Every point of the request on one input, the copy kernel measured on the same buffer size
/// first; `progress` sees each point as it finishes. Throws UsageError for a bad request.
ScanRun runScans(Device& device, const ScanRequest& request, const CancelToken& cancel = {},
                 const std::function<void(const ScanPoint&)>& progress = {});

/// The run as CSV: one row per point (variant,wg,elements,inclusive,median_ms,min_ms,gbps,
/// percent_of_copy,status,detail).
std::string scanCsv(const ScanRun& run);

/// The run as JSON: device, input, copy kernel, every point.
std::string scanJson(const ScanRun& run);

} // namespace histlab
