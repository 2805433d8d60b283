#pragma once
// Buffer reversal (the memory lab): out[j] = in[n - 1 - j] for every byte, after the
// reference text "OpenCL simple memory manipulation tests", which reverses a byte buffer four
// ways and learns that the best access width depends on the device.
//
// Metric: GB/s = (n bytes read + n bytes written) / median kernel time (event profiling, one
// warm-up, N timed runs), and that figure as % of the copy kernel (bandwidth.h, uint4, bytes
// read + written) measured on the same n bytes in the same run.
//
// Variants (kernels/reverse.cl; one table in reverse.cpp drives them all):
//   char1            the reference's: one char per work-item
//   char16           the reference's: char16 loads, reversed through sixteen temporaries
//   char16_swizzle   the reference's: char16 loads reversed with .sFEDCBA9876543210
//   uint16_as_char4  the reference's: uint16 loads, the words reversed with a swizzle and each
//                    word's bytes through as_char4(w).s3210
//   uint4            one uint4 per work-item, bytes swapped with rotate + bitselect
//   uint4x4          four uint4 per work-item, strided by the global size (loads in flight)
//   uint4_serial     each work-item reverses one contiguous run of uint4s (for CPUs)
//
// Every size from 1 byte works, in the kernel: with W the kernel's vector bytes (1, 16, 64),
// n = nvec * W + tail. Output vectors are always aligned; input vectors too when tail is 0
// (programs built with -D ALIGNED=1), otherwise read with vload16 from their unaligned
// addresses (-D ALIGNED=0); the last `tail` output bytes are written by the same kernel, one
// byte per work-item. No padding, no second kernel.
//
// Verification: the output is read back and every byte compared with the CPU reference; the
// count of correct bytes is reported (the reference prints "N correct bytes"). Before each
// variant the output buffer is filled with 0xA5, so a kernel that writes nothing cannot pass
// on the previous variant's output (a random byte still equals 0xA5 one time in 256).
#include "pipelines/bandwidth/bandwidth.h"
#include "runtime/bytesize.h"
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

enum class ReverseVariant {
    Char1,
    Char16,
    Char16Swizzle,
    Uint16AsChar4,
    Uint4,
    Uint4x4,
    Uint4Serial
};

/// One row of the variant table: everything the host needs to launch a variant.
struct ReverseVariantInfo {
    ReverseVariant variant;
    const char* name;   ///< "char1", "char16", ... (--kernel)
    const char* kernel; ///< "reverse_char1", ... in kernels/reverse.cl
    int vectorBytes;    ///< W: bytes one vector holds (1, 16 or 64)
    /// Vectors per work-item (1 or 4); 0: one contiguous run per work-item (serial).
    int vectorsPerItem;
    bool reference; ///< one of the reference text's four kernels
};

/// The table, in the order the variants run and are reported.
const std::vector<ReverseVariantInfo>& reverseVariants();
const ReverseVariantInfo& reverseVariantInfo(ReverseVariant variant);

/// "char1", "char16", "char16_swizzle", "uint16_as_char4", "uint4", "uint4x4", "uint4_serial";
/// throws UsageError("--kernel").
ReverseVariant parseReverseVariant(const std::string& name);
const char* reverseVariantName(ReverseVariant variant);
std::vector<ReverseVariant> allReverseVariants();

/// The largest input the kernels take (their indices are 32-bit).
inline constexpr std::uint64_t kReverseMaxBytes = std::uint64_t(1) << 31;

/// The CPU reference: out[j] = in[n - 1 - j].
std::vector<std::uint8_t> reverseReference(const std::vector<std::uint8_t>& in);

/// How many j < n have out[j] == in[n - 1 - j].
std::uint64_t countReversedBytes(const std::uint8_t* in, const std::uint8_t* out, std::size_t n);

/// n random bytes (uniformly distributed), deterministic for a seed.
std::vector<std::uint8_t> makeReverseInput(std::size_t n, std::uint64_t seed = 1);

struct ReverseSpec {
    /// The bytes to reverse (a file's contents); null: `bytes` random bytes of `seed`.
    std::shared_ptr<const std::vector<std::uint8_t>> input;
    std::uint64_t bytes = std::uint64_t(16) << 20;
    std::uint64_t seed = 1;
    std::string source; ///< what the input is, for reports; empty: "random bytes (seed S)"
    std::vector<ReverseVariant> variants = allReverseVariants();
    int repeats = 5;
    /// Work-items per group; 0: 256 (at most the device's maximum), 1 for uint4_serial on a
    /// CPU, 64 for it elsewhere. Above the device's maximum: UsageError("--wg").
    std::size_t workGroupSize = 0;
};

/// One variant's outcome.
struct ReverseResult {
    ReverseVariant variant = ReverseVariant::Char1;
    std::string name;   ///< the variant's name
    std::string kernel; ///< the kernel's name
    std::string buildOptions;
    std::size_t globalSize = 0, localSize = 0;
    Status status = Status::Failed;
    std::string detail; ///< why unsupported or failed; the mismatch's first byte
    TimingStats stats;  ///< kernel milliseconds (when it ran)
    double gbps = 0;    ///< 2n bytes / median
    double percentOfCopy = 0;
    std::uint64_t correctBytes = 0; ///< output bytes equal to the CPU reference's
};

struct ReverseRun {
    DeviceInfo device;
    std::uint64_t bytes = 0;
    std::string source;
    CeilingResult copy; ///< the copy kernel on the same bytes (gbps 0 below 16 bytes)
    std::vector<ReverseResult> results;
    /// The verified result with the highest GB/s; -1 when none verified.
    int best() const;
};

/// What `spec` cannot run on `device`, before any work: UsageError("--kernel") for no variant,
/// ("--repeat") for no timed run, ("--wg") above the device's work-group maximum, ("--size")
/// for more bytes than kReverseMaxBytes or the device's largest buffer; InputError for an empty
/// input.
void checkReverseSpec(const DeviceInfo& device, const ReverseSpec& spec);

/// Reverses the input with every variant of the spec on one device: the copy kernel first, then
/// each variant timed and verified; `progress` sees each result as it arrives. A variant the
/// device cannot run or whose OpenCL call fails is a result with that status; the run goes on.
/// Throws InputError for an empty input, UsageError("--size") for one larger than
/// kReverseMaxBytes or the device's largest buffer, UsageError("--wg") or ("--kernel") for a
/// bad spec, CancelledError when cancelled.
ReverseRun runReverse(Device& device, const ReverseSpec& spec, const CancelToken& cancel = {},
                      const std::function<void(const ReverseResult&)>& progress = {});

/// What a person asks of the reversal: histlab-cli reverse's options, the Memory tab's reversal.
struct ReverseParams {
    /// --input FILE: the file's bytes are reversed (readReverseInput reads them into `input`).
    std::optional<std::string> inputPath;
    std::shared_ptr<const std::vector<std::uint8_t>> input;
    std::optional<std::uint64_t> bytes; ///< --size BYTES of random bytes (not with a file)
    std::vector<ReverseVariant> variants = allReverseVariants();
    int repeats = 5;
    std::size_t workGroupSize = 0; ///< 0: each variant's default (ReverseSpec)
    bool timing = false;           ///< the report lists every timed run's milliseconds
};

/// The default size of the random input on `device`: 16 MiB on a CPU device, 256 MiB on any
/// other, never above its largest buffer or kReverseMaxBytes. 16 MiB read and 16 MiB written
/// stay in a large GPU's L2 cache (50 MiB on an H100), so a GPU gets a size that reaches its
/// memory; a CPU's OpenCL reverses at a few GB/s, where 16 MiB already passes its caches and
/// keeps the run short.
std::uint64_t defaultReverseBytes(const DeviceInfo& device);

/// What runs of `params` on `device`: the input (the file's bytes, --size random bytes, or
/// defaultReverseBytes), the variants, the work-group size. Throws what checkReverseSpec throws.
ReverseSpec planReverse(const DeviceInfo& device, const ReverseParams& params);

/// histlab-cli reverse's plan: planReverse, and whether the report lists every timed run.
struct ReverseJob {
    ReverseSpec spec;
    bool timing = false;
};
ReverseJob planReverseJob(const DeviceInfo& device, const ReverseParams& params);

/// A finished reversal and how its report is to be shown.
struct ReverseJobResult {
    ReverseRun run;
    bool timing = false;
};

/// histlab-cli reverse's run and the memory lab's reversal: runReverse with the job's progress
/// (one step per variant); each ReverseResult goes to `onItem` as it finishes.
ReverseJobResult runReverseJob(JobContext& ctx, Device& device, const ReverseJob& job,
                               const ItemSink& onItem);

/// The bytes of a file to reverse: InputError naming it when it is missing, a folder,
/// unreadable, empty, or larger than the reversal takes.
std::vector<std::uint8_t> readReverseInput(const std::string& path);

/// The report histlab-cli reverse prints: input, device, copy kernel, one line per variant,
/// every timed run's milliseconds (`timing`), the best variant.
std::string reverseText(const ReverseRun& run, bool timing);

/// One row per variant: variant,kernel,bytes,global,local,median_ms,min_ms,gbps,
/// percent_of_copy,correct_bytes,status,detail.
std::string reverseCsv(const ReverseRun& run);

/// The whole run: device, input, metric, copy kernel, every variant with its timings.
std::string reverseJson(const ReverseRun& run);

} // namespace histlab
