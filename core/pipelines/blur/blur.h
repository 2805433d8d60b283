#pragma once
// Box blur, its CPU reference first: the mean of the (2R + 1) x (2R + 1) pixels
// around each pixel, per channel, for 8- and 16-bit gray, RGB and RGBA images.
//
// Border modes:
//   interior    the reference text's: only pixels whose whole window lies inside the image are
//               blurred; the frame of width R is copied unchanged (all of the image when it is
//               no more than 2R pixels wide or high);
//   replicate   outside pixels repeat the edge (aaa|abcd|ddd, OpenCV's BORDER_REPLICATE);
//   reflect101  outside pixels mirror without repeating the edge (dcb|abcd|cba, OpenCV's
//               BORDER_REFLECT_101, the default of cv::blur).
//
// Rounding: (sum + n / 2) / n in integers, n = (2R + 1)^2: the nearest value. Integers are exact
// and the same on every device. n is odd, so no mean lies exactly halfway, and OpenCV's cv::blur
// (sum times 1/n in double, rounded to nearest) gives the same values; the tests check that.
#include "image/border.h"
#include "image/image.h"
#include "pipelines/bandwidth/bandwidth.h"
#include "pipelines/imageinput.h"
#include "report/status.h"
#include "report/table.h"
#include "runtime/cancel.h"
#include "runtime/device.h"
#include "runtime/timing.h"

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace histlab {

/// The blurred image (same size, channels and depth). Throws UsageError("--radius") for a
/// radius below 1, and InputError for an image whose fields disagree.
HostImage boxBlurReference(const HostImage& image, int radius, BorderMode mode);

// ---------------------------------------------------------------------------------------------
// The reference text's four launches of the interior blur (kernels/blur.cl), on an 8-bit gray
// image: the range is the interior, (width - 2R) x (height - 2R), as it is.
//   cl12-null     built with -cl-std=CL1.2, local size left to the runtime (NULL)
//   cl12-16x16    OpenCL C 1.2 with 16 x 16 groups: refused with CL_INVALID_WORK_GROUP_SIZE
//                 unless the range divides by 16, which OpenCL 1.2 requires
//   cl20-null     built with -cl-std=CL2.0, NULL local size
//   cl20-16x16    -cl-std=CL2.0 with 16 x 16 groups: non-uniform work-groups, the last ones
//                 smaller, where the device really has them (not PoCL 3.1, not NVIDIA's 580)
//   padded-16x16  what works everywhere: the range rounded up to whole 16 x 16 groups, items
//                 outside the interior returning at once

enum class BlurLaunch { Cl12Null, Cl12Local16, Cl20Null, Cl20Local16, Padded16 };

/// "cl12-null", "cl12-16x16", "cl20-null", "cl20-16x16", "padded-16x16"; throws
/// UsageError("--launch").
BlurLaunch parseBlurLaunch(const std::string& name);
const char* blurLaunchName(BlurLaunch launch);
std::vector<BlurLaunch> allBlurLaunches();

/// What the work-item at a corner of the range saw (the reference text's table).
struct LaunchCorner {
    int globalX = 0, globalY = 0;
    int localX = 0, localY = 0;
    int enqueuedX = -1, enqueuedY = -1; ///< get_enqueued_local_size; -1 under OpenCL C 1.2
};

struct BlurLaunchResult {
    BlurLaunch launch = BlurLaunch::Cl12Null;
    std::string buildOptions;
    std::size_t globalX = 0, globalY = 0; ///< the range launched
    std::size_t localX = 0, localY = 0;   ///< 0: NULL (the runtime chooses)
    /// verified or mismatch (it ran: the detail gives the first pixel that differs);
    /// unsupported (the launch was refused: CL_INVALID_WORK_GROUP_SIZE for a range that does
    /// not divide by the group under OpenCL 1.2, as the reference text says it must be; or the
    /// device cannot run it: OpenCL C 2.0 does not build, or no non-uniform work-groups); not
    /// applicable (no interior: nothing to launch, the image is copied unchanged)
    Status status = Status::Failed;
    std::string detail; ///< the OpenCL error, the reason, or the first pixel that differs
    std::array<LaunchCorner, 4> corners{}; ///< top-left, top-right, bottom-left, bottom-right
    TimingStats stats;                     ///< kernel milliseconds (when it ran)
    double gbps = 0;                       ///< interior bytes read + written per second
    HostImage output; ///< the blurred image (when it ran, or the copy when not applicable)
};

/// How the whole image is blurred on the device (kernels/blur.cl):
///   direct   blur_full: one work-item per pixel, (2R + 1)^2 reads each, 16 x 16 groups over a
///            padded range; the plain kernel, any radius
///   tiled    blur_tiled: each work-item owns 16 bytes of a row (one uint4) and slides down a
///            strip of rows, keeping the window's row sums in registers; small radii (R <= 3)
///   sliding  blur_columns + blur_rows: running column sums down a strip, then each row's
///            window sums from a prefix scan in local memory; the cost per pixel does not grow
///            with R
///   auto     tiled for R <= 3, sliding above
enum class BlurVariant { Auto, Direct, Tiled, Sliding };

/// "auto", "direct", "tiled", "sliding"; throws UsageError("--variant").
BlurVariant parseBlurVariant(const std::string& name);
const char* blurVariantName(BlurVariant variant);
std::vector<BlurVariant> allBlurVariants(); ///< direct, tiled, sliding (not auto)

/// Knobs for benchmarks (0: the variant's default).
struct BlurTuning {
    /// rows per work-item (tiled packed: 8 for 8-bit gray, else 4; tiled sliding down: 16, 8
    /// for SWAR) or strip (sliding: 64)
    int rows = 0;
    int workGroup = 0; ///< work-items per group along x
    /// tiled: 1 loads all ROWS + 2R rows of a work-item's window first, packed as loaded
    /// (many loads in flight: a GPU's best), 0 slides down the rows keeping their horizontal
    /// sums (less arithmetic: a CPU's best), -1 the device's choice
    int packed = -1;
    /// tiled, 8-bit, R = 1, gray or RGBA packed: 1 the bytes of two pixels per 32-bit
    /// register (SWAR), 0 one value per register, -1 the device's choice: SWAR wherever the
    /// device's row keeping has it, except a GPU sliding down (gray on PoCL: 2x faster; RGBA
    /// packed on the H100: 99 % of copy against 83 %; gray packed on the H200: 78 and 86 % of
    /// copy against 68 and 82.5 % at 8192² and 32768², 106 registers against 128; gray sliding
    /// down on the H100: slower than packed without it, the GPU is not limited by arithmetic)
    int swar = -1;
    /// tiled: 16-byte vectors each work-item loads and stores per row: 1, 2 or 4; 0 the
    /// device's choice (4 for the SWAR path on a CPU, else 1)
    int vectors = 0;
    /// sliding's row pass: 1 one row per work-item (blur_rows_serial), 0 row tiles scanned in
    /// local memory (blur_rows), -1 the device's choice (serial on a CPU, tiles elsewhere)
    int serialRows = -1;
    /// tiled, NVIDIA's OpenCL (cl_nv_compiler_options): at most this many registers per
    /// work-item (-cl-nv-maxrregcount), 0 the compiler's choice, -1 the device's choice: 64 for
    /// 8-bit RGBA with SWAR at 4 rows and one vector there (H200, 32768 x 8192: 86 % of copy
    /// against 84 % with the 72 it takes), else the compiler's. Elsewhere a limit is unsupported.
    int registers = -1;
    bool measureCopy = false; ///< also time the copy kernel on the same bytes, same run
};

/// The tuning with the device's choices made where `tuning` leaves them to the device (-1):
/// packed rows on a GPU, sliding rows on a CPU; SWAR on a CPU and with packed rows; the
/// sliding variant's serial row pass on a CPU, row tiles elsewhere. The rest (rows, work-group,
/// vectors: 0) stays the variant's default, which depends on the image and the radius.
BlurTuning blurTuningFor(const DeviceInfo& device, BlurTuning tuning);

/// The tiled blur's register limit per work-item for `requested` (BlurTuning::registers), 0 for
/// none; `rgbaSwar`: the kernel is 8-bit RGBA with SWAR at its default shape (4 rows, one
/// vector), the one where the limit was measured. Throws UnsupportedError for a limit
/// on a device without NVIDIA's compiler options.
int blurRegisterLimit(const DeviceInfo& device, int requested, bool rgbaSwar);

/// The largest radius blur_tiled is built for.
constexpr int kTiledMaxRadius = 3;

/// The largest radius blur_full (the direct variant) takes. It reads (2R + 1)^2 pixels for each
/// output, so its time grows as R^2: on PoCL (2 cores) a 120 x 100 gray image took 0.9 s at
/// R = 64, 2.6 s at 128, and would take minutes at 1024. Tiled and sliding do not grow with R.
constexpr int kDirectMaxRadius = 64;

/// Work-items per group along x for a blur kernel: `requested` (BlurTuning::workGroup) when
/// given, else `fallback` held to the device's limit. Throws UsageError("--wg") for more than
/// the device allows (CL_DEVICE_MAX_WORK_GROUP_SIZE).
std::size_t blurGroupSize(const DeviceInfo& device, int requested, std::size_t fallback);

/// The tiled blur (blur_tiled) of a width x height image on a device, as it is built and
/// launched: the one place that decides its defaults (rows, group, vectors, register limit) and
/// its NVIDIA-only paths (byte permutes, warp shuffles). Throws UsageError("--wg") and
/// UnsupportedError as blurGroupSize and blurRegisterLimit do.
struct TiledBlurPlan {
    bool packed = true;   ///< the window's rows loaded first (else slid down as row sums)
    bool swar = false;    ///< two pixels per 32-bit register (8-bit, R = 1, gray or packed RGBA)
    bool prmt = false;    ///< SWAR's quotients and odd bytes by PTX byte permutes (NVIDIA)
    bool shuffle = false; ///< packed 8-bit gray's side pixels from the neighbouring lanes (NVIDIA)
    int rows = 0;         ///< rows per work-item
    int vectors = 1;      ///< 16-byte vectors per work-item and row
    int registers = 0;    ///< -cl-nv-maxrregcount, 0 for none
    std::size_t workGroup = 0;            ///< work-items per group along x (groups are one row)
    std::size_t globalX = 0, globalY = 0; ///< the range launched
    std::string buildOptions;             ///< every option of the build, as logged
};
TiledBlurPlan planTiledBlur(const DeviceInfo& device, int width, int height, int channels,
                            int depth, int radius, BorderMode mode, const BlurTuning& tuning);

/// What `auto` picks for a radius.
BlurVariant resolveBlurVariant(BlurVariant variant, int radius);

/// One kernel launch of a run: its name, global range and work-group size.
struct KernelLaunch {
    std::string kernel;
    std::size_t globalX = 0, globalY = 0, localX = 0, localY = 0;
};

/// The whole image blurred on the device: any border mode, gray, RGB or RGBA, 8- or 16-bit.
struct BlurRun {
    BlurVariant variant = BlurVariant::Direct; ///< what ran (auto resolved)
    std::string buildOptions;
    std::vector<KernelLaunch> kernels; ///< what one run launches, in order
    std::string launch; ///< the same as text ("blur_tiled 64x512 / 64x1, ..."), for reports
    HostImage output;
    TimingStats stats;                 ///< kernel milliseconds over `repeats` runs after a warm-up
    double gbps = 0;                   ///< image bytes read + written per second
    std::optional<CeilingResult> copy; ///< the copy kernel on the same bytes (measureCopy)
    double percentOfCopy = 0;
    bool verified = false;    ///< equal to boxBlurReference, byte for byte
    std::string verifyDetail; ///< the first pixel that differs
};
/// Throws UnsupportedError when the device cannot run the variant (e.g. too little local
/// memory for sliding's row tiles at this radius). `repeats` 0: one run and no warm-up, untimed
/// in effect (each image of a batch).
BlurRun runBoxBlur(Device& device, const HostImage& image, int radius, BorderMode mode,
                   int repeats = 5, const CancelToken& cancel = {},
                   BlurVariant variant = BlurVariant::Auto, const BlurTuning& tuning = {});

/// runBoxBlur without its check against the CPU (verified false, no detail): for a caller that
/// made the reference itself, elsewhere (batch, on its decoding threads).
BlurRun blurOnDevice(Device& device, const HostImage& image, int radius, BorderMode mode,
                     int repeats, const CancelToken& cancel = {},
                     BlurVariant variant = BlurVariant::Auto, const BlurTuning& tuning = {});

/// One variant at one radius among several compared (histlab-cli blur --variant all, the Blur
/// tab): how it went, and its run when it ran.
///   verified / mismatch  it ran (run holds it)
///   unsupported          the device cannot run it (the detail says why)
///   not applicable       not made for these parameters (tiled above radius 3)
///   failed               any other error: one failed variant is a row, never a failed run
struct BlurVariantRow {
    BlurVariant requested = BlurVariant::Auto;
    int radius = 1;
    Status status = Status::Failed;
    std::string detail;
    std::optional<BlurRun> run;
};

/// Blurs the image with every variant at every radius (radius-major), each verified against
/// the CPU reference; `onRow` sees each row as it finishes (and may take its output, which is
/// large). Asked for one variant alone, its errors other than unsupported are the caller's: they
/// propagate. Cancellation always propagates.
std::vector<BlurVariantRow>
runBlurVariants(Device& device, const HostImage& image, const std::vector<int>& radii,
                const std::vector<BlurVariant>& variants, BorderMode mode, int repeats = 5,
                const CancelToken& cancel = {}, const BlurTuning& tuning = {},
                const std::function<void(BlurVariantRow&)>& onRow = {});

/// The 8-bit gray plane the launches blur: a gray image as it is, a color image's luma
/// (OpenCV's BGR2GRAY), a 16-bit image's high bytes; `note` (when given) says which ("" for an
/// 8-bit gray image).
HostImage blurLaunchPlane(const HostImage& image, std::string* note = nullptr);

/// Runs each launch `repeats` times after a warm-up and checks the output against
/// boxBlurReference(image, radius, Interior), byte for byte. Throws UsageError for an image that
/// is not 8-bit gray or a radius below 1.
std::vector<BlurLaunchResult> runBlurLaunches(Device& device, const HostImage& gray8, int radius,
                                              const std::vector<BlurLaunch>& launches,
                                              int repeats = 5, const CancelToken& cancel = {});

// ---------------------------------------------------------------------------------------------
// What a person asks of the blur (histlab-cli blur's options, the Blur tab's controls) and the
// plan: one family, two modes.
//   launches     the reference text's launches of the interior blur on the image's 8-bit gray
//                plane (blurLaunchPlane), one radius
//   whole image  the image as it is, every variant asked at every radius, with a border mode
//                (runBlurVariants), each against the copy kernel of the same bytes, and with
//                --compare-opencv against cv::blur on the host

enum class BlurMode { Launches, WholeImage };

struct BlurParams {
    ImageInput input;
    std::vector<int> radii{1}; ///< several only for the whole image
    std::vector<BlurLaunch> launches = allBlurLaunches();
    bool corners = false; ///< the launches' corner table
    /// --border and --variant ask for the whole image (so does --compare-opencv).
    std::optional<BorderMode> border;
    std::optional<std::vector<BlurVariant>> variants;
    BlurTuning tuning;
    int repeats = 5;
    bool compareOpenCv = false;
    /// Every output kept (a front end that shows each), not only the first (--out).
    bool keepOutputs = false;
};

/// The checks that need no device: the image input (checkImageInput), a radius list only for
/// the whole image, no cv::blur comparison with the interior border (OpenCV has none). Throws
/// UsageError naming the option.
void checkBlurParams(const BlurParams& params);

struct BlurPlan {
    BlurMode mode = BlurMode::Launches;
    std::shared_ptr<const HostImage> image; ///< the image asked for (synthetic made)
    std::vector<int> radii;                 ///< the launches use the first
    std::vector<BlurLaunch> launches;
    bool corners = false;
    std::vector<BlurVariant> variants; ///< whole image: auto unless asked
    BorderMode border = BorderMode::Reflect101;
    BlurTuning tuning; ///< the device's choices made (blurTuningFor); the copy kernel measured
    int repeats = 5;
    bool compareOpenCv = false;
    bool keepOutputs = false; ///< as BlurParams
};

/// What a device runs of `params`: the mode (the whole image when a border, a variant or the
/// cv::blur comparison is asked for), the border (reflect101, OpenCV's default, unless asked),
/// the variants (auto unless asked), the tuning the device chooses. Throws UsageError as
/// checkBlurParams.
BlurPlan planBlur(const DeviceInfo& device, const BlurParams& params);

/// cv::blur of `image` at `radius` with `mode`'s border into `out` (allocated by the caller),
/// the peer the whole image is compared with (--compare-opencv). The core cannot call OpenCV:
/// a front end that links it sets the peer (histlab-cli: io's opencvBoxBlur); without one,
/// the report says cv::blur is not in this build.
using BlurPeer =
    std::function<void(const HostImage& image, int radius, BorderMode mode, HostImage& out)>;
void setBlurPeer(BlurPeer peer);

/// A blur run of either mode, as the report reads it.
struct BlurResult {
    BlurPlan plan;
    DeviceInfo device;
    // launches
    /// The gray plane blurred (its pixels dropped after the run, unless plan.keepOutputs).
    HostImage plane;
    std::string note; ///< how the plane was made from the image
    std::vector<BlurLaunchResult> launches;
    // whole image
    /// The runs; their outputs dropped but the first (into firstOutput), unless
    /// plan.keepOutputs.
    std::vector<BlurVariantRow> rows;
    HostImage firstOutput; ///< the first run's output (--out)
    /// cv::blur on the host at the first radius (wall clock, after a warm-up), when compared
    /// and in this build; opencvMissing when compared and not in this build.
    std::optional<TimingStats> opencv;
    bool opencvMissing = false;
};

/// Runs a plan on `device`; `onRow` sees each whole-image row as it finishes (with its output),
/// `progress` each step.
BlurResult runBlurPlan(Device& device, const BlurPlan& plan, const CancelToken& cancel = {},
                       const std::function<void(const BlurVariantRow&)>& onRow = {},
                       const std::function<void(double, const std::string&)>& progress = {});

/// histlab-cli blur's run and the Blur tab's: runBlurPlan with the job's progress (nothing is
/// streamed).
BlurResult runBlurJob(JobContext& ctx, Device& device, const BlurPlan& plan,
                      const ItemSink& onItem);

/// The report histlab-cli blur prints: the launches table (and corners), or the whole image's
/// runs against the copy kernel (and cv::blur).
std::string blurText(const BlurResult& result);

/// One row per launch, or per whole-image run (the CSV).
Table blurTable(const BlurResult& result);

/// The whole run as JSON: device, image, and every launch or run with its timing.
std::string blurJson(const BlurResult& result);

} // namespace histlab
