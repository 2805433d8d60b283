#pragma once
// Registration by mutual information: the rigid transform (or translation) of MOVING that
// maximises MI (or Studholme's NMI) of FIXED and MOVING resampled into FIXED's grid, searched
// coarse to fine over an image pyramid, every evaluation counted on the device.
//
// The transform maps a pixel of FIXED to the point of MOVING it is compared with:
//   T(p) = R(angle) (p - c) + c + t,   c = FIXED's centre ((W - 1) / 2, (H - 1) / 2),
// pixel centres at whole coordinates, y down, angle counter-clockwise on screen (from +x towards
// -y, as image tools show a positive rotation). t is how far MOVING's content lies from FIXED's:
// a MOVING whose content is FIXED's moved 3 px right registers with t = (3, 0).
//
// An evaluation (MiEvaluator, and evaluationReference on the CPU) counts the joint histogram of
// the pairs (FIXED bin at q, MOVING bin at T(q)) over FIXED's pixels p, where q = p + j(p) is
// the pixel moved by a fixed pseudo-random offset of up to half a pixel (registerJitter):
// jittered sampling (Tsao, IEEE TMI 22(7), 2003). Sampled on the pixel grid itself, bilinear
// interpolation smooths MOVING less at whole-pixel shifts than between them, which pulls MI
// towards whole pixels (0.1 px on photos moved by 2.37 px here); jittered, it does not. A pixel
// is left out where FIXED is masked or NaN and where T(q) lies outside MOVING (bilinear
// interpolation needs all four neighbours, except on the last row and column, where the point
// must lie on the pixel itself). The arithmetic is integer throughout (kernels/register.cl has
// the rule), so the device counts what the reference counts, and the MI of a transform is the
// same to rounding.
//
// Bins: each image's values [lo, hi] (its smallest and largest) into B bins of equal width:
// bin = floor((v - lo) B / (hi - lo + 1)), for MOVING's interpolated values too. A float image
// is quantised first to 0 ... 65,534 over its finite values (NaN left out), then treated as a
// 16-bit one.
//
// Pyramid: level k halves level k - 1 (2 x 2 means, rounded; an odd last row or column
// dropped), so its pixel (x', y') is centred on level 0's 2^k x' + (2^k - 1) / 2. The transform
// is kept in level 0's pixels and rescaled to each level.
//
// Search: a grid over shifts (and angles) at the top level, evaluated in batches of transforms
// per launch; Nelder-Mead from its best few points there, then from the best transform at each
// finer level. A transform that leaves less than the minimum overlap (a share of FIXED's
// counted pixels) has no MI: the optimiser treats it as the worst value, and steps back.
#include "image/image.h"
#include "pipelines/largebin/joint.h"
#include "report/status.h"
#include "runtime/cancel.h"
#include "runtime/device.h"
#include "runtime/timing.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace histlab {

enum class RegisterTransform { Translation, Rigid };
RegisterTransform parseRegisterTransform(const std::string& name); ///< UsageError("--transform")
const char* registerTransformName(RegisterTransform t);

enum class RegisterMetric { Mi, Nmi };
RegisterMetric parseRegisterMetric(const std::string& name); ///< UsageError("--metric")
const char* registerMetricName(RegisterMetric m);

/// A rigid transform in level 0's pixels: shift (tx, ty), angle in degrees about FIXED's centre.
struct RigidTransform {
    double tx = 0, ty = 0, angleDeg = 0;
};

/// "TX,TY" or "TX,TY,ANGLE" (pixels, degrees); throws UsageError(option).
RigidTransform parseRigidTransform(const std::string& text, const std::string& option);

/// T as the fixed-point integers an evaluation uses: u = a00 x + a01 y + b0 (v likewise), in
/// units of 2^-32 pixel, at one pyramid level (scale = 2^level) of images whose level-0 FIXED
/// is fixedWidth x fixedHeight.
struct FixedPointAffine {
    std::int64_t a00 = 0, a01 = 0, b0 = 0, a10 = 0, a11 = 0, b1 = 0;
};
FixedPointAffine fixedPointAffine(const RigidTransform& t, int fixedWidth, int fixedHeight,
                                  int level);
/// The 2 x 3 matrix of T in level 0's pixels (row-major: u = m0 x + m1 y + m2, v = ...).
std::array<double, 6> affineMatrix(const RigidTransform& t, int fixedWidth, int fixedHeight);

/// The offset j(p) of FIXED's pixel (x, y) of a width x height level, in 1/256 px: each
/// coordinate -128 ... 127 from a hash of the position, moved so that p + j stays in the image.
std::pair<int, int> registerJitter(int x, int y, int width, int height);

/// One image of the pair at one level: 8- or 16-bit samples (16-bit for quantised floats, whose
/// NaN is kQuantisedNaN), and the range its bins span.
struct RegisterPlane {
    static constexpr std::uint16_t kQuantisedNaN = 65535;
    int width = 0, height = 0;
    bool wide = false;            ///< 16-bit samples
    bool hasNaN = false;          ///< samples equal to kQuantisedNaN are NaN
    std::vector<std::uint16_t> v; ///< the samples, row-major
    std::uint32_t lo = 0, hi = 0; ///< the smallest and largest sample (not NaN)
    std::size_t pixels() const { return v.size(); }
};

/// One level of the pyramid: FIXED's bins at its jittered points (kOut where left out),
/// MOVING's samples.
struct RegisterLevel {
    static constexpr std::uint16_t kOut = 0xFFFF;
    int level = 0;
    int fixedWidth = 0, fixedHeight = 0;
    std::vector<std::uint16_t> fixedBins;
    std::size_t fixedCounted = 0; ///< FIXED's pixels not left out
    RegisterPlane moving;
};

/// What the search is asked to do.
struct RegisterOptions {
    RegisterTransform transform = RegisterTransform::Rigid;
    RegisterMetric metric = RegisterMetric::Mi;
    int binsFixed = 64, binsMoving = 64;
    int levels = 0;           ///< 0: automatic (automaticLevels)
    RigidTransform initial;   ///< the grid's centre
    double maxShift = -1;     ///< grid half-width in level-0 px; < 0: a quarter of the short side
    double maxAngleDeg = 15;  ///< rigid: grid half-width in degrees
    double minOverlap = 0.25; ///< least share of FIXED's counted pixels an evaluation needs
    int maxEvaluationsPerLevel = 400; ///< Nelder-Mead's budget at each level
};

/// The images to register, with FIXED's mask (one byte per FIXED pixel, non-zero counted;
/// empty: all).
struct RegisterInput {
    HostImage fixed, moving;
    std::string fixedChannel = "gray", movingChannel = "gray";
    std::vector<std::uint8_t> mask;
    std::string maskSource;
};

/// Level 0 of a pair and the coarser levels. Throws InputError naming the image for a constant
/// image (no MI), one with no finite value, FIXED of 2^32 pixels or more, and a mask that leaves
/// no pixel; UsageError("--pyramid") for more levels than the images (or the mask) allow.
std::vector<RegisterLevel> buildRegisterPyramid(const RegisterInput& input,
                                                const RegisterOptions& options);

/// The levels automatic --pyramid picks for FIXED of this size: halved while the short side
/// stays at least 64 px (a top level of 64 ... 127 px), at most 8.
int automaticLevels(int width, int height);

/// One evaluation's entropies and the pairs it counted.
struct RegisterEntropies {
    double entropyFixed = 0, entropyMoving = 0, jointEntropy = 0;
    std::uint64_t counted = 0;
    MutualInformation mi() const {
        return mutualInformationOf(entropyFixed, entropyMoving, jointEntropy);
    }
};

/// The CPU reference: the same counts with plain integer arithmetic, on all the host's threads,
/// and their entropies (long double sums).
RegisterEntropies evaluationReference(const RegisterLevel& level, const FixedPointAffine& t,
                                      int binsFixed, int binsMoving);
/// Its joint histogram (binsFixed x binsMoving, row-major by FIXED's bin).
std::vector<std::uint64_t> jointCountsReference(const RegisterLevel& level,
                                                const FixedPointAffine& t, int binsFixed,
                                                int binsMoving);

/// Evaluations on a device: one level uploaded, batches of transforms counted in one launch and
/// their entropies in another; only the entropies come back. Throws UnsupportedError on a device
/// without double precision.
class MiEvaluator {
public:
    MiEvaluator(Device& device, const RegisterLevel& level, int binsFixed, int binsMoving);
    /// The entropies of each transform, in batches of at most batchLimit().
    std::vector<RegisterEntropies> evaluate(const std::vector<FixedPointAffine>& transforms);
    std::size_t batchLimit() const { return m_batchLimit; }
    /// How the count runs: "local table, 16 groups x 256 per transform" (for reports).
    const std::string& geometry() const { return m_geometry; }

private:
    Device& m_device;
    cl::Program m_program;
    cl::Kernel m_count, m_entropies;
    cl::Buffer m_fixed, m_moving, m_transforms, m_hist, m_out;
    std::size_t m_batchLimit = 1, m_groups = 1, m_local = 1, m_entropyLocal = 1;
    std::size_t m_cells = 0;
    int m_binsFixed = 0, m_binsMoving = 0;
    std::string m_geometry;
};

/// One point of the MI curve: the best value after an evaluation of the optimiser.
struct RegisterStep {
    int level = 0;
    std::size_t evaluation = 0; ///< its evaluation's number, from 1 (all levels)
    double metric = 0;          ///< the best so far at this level
    RigidTransform transform;
};

/// What one level did.
struct RegisterLevelResult {
    int level = 0, width = 0, height = 0;
    std::size_t gridEvaluations = 0, optimiserEvaluations = 0;
    /// Evaluations with no MI: less than the minimum overlap inside MOVING (stepped back from).
    std::size_t undefinedEvaluations = 0;
    double ms = 0; ///< wall clock of its evaluations
    RigidTransform start, end;
    double metricStart = 0, metricEnd = 0;
    /// The device's MI of `end` against the CPU reference's: Verified to 1e-9 bits, or Mismatch.
    Status status = Status::Failed;
    std::string detail;
};

/// One way of timing evaluations (benchmarkEvaluations).
struct RegisterBenchmarkRow {
    std::string what;
    std::size_t transforms = 0; ///< per timed sample
    TimingStats ms;             ///< wall clock of one sample
    double perSecond = 0;       ///< transforms / median
    Status status = Status::Timed;
    std::string detail;
};

/// A registration and its verification.
struct RegistrationResult {
    DeviceInfo device;
    std::string fixedSource, movingSource, maskSource, geometry;
    RegisterOptions options;
    int levels = 0;
    RigidTransform transform;       ///< the result
    std::array<double, 6> matrix{}; ///< affineMatrix(transform)
    MutualInformation start, end;   ///< at level 0: the initial transform and the result
    std::uint64_t countedStart = 0, countedEnd = 0;
    std::size_t evaluations = 0;
    /// Wall clock of the search: every level's evaluations and optimiser (the pyramid, the
    /// kernel builds and the CPU reference's checks left out).
    double seconds = 0;
    double evaluationsPerSecond = 0;
    std::vector<RegisterStep> steps;
    std::vector<RegisterLevelResult> levelResults;
    Status status = Status::Failed; ///< Verified when every level's end was
    std::string detail;
    /// The transform a synthetic pair was made with, where known: the report gives the error.
    std::optional<RigidTransform> truth;
    /// benchmarkEvaluations on level 0, where asked for (--benchmark).
    std::vector<RegisterBenchmarkRow> benchmark;
};

/// Registers a pyramid on a device. `onStep` gets each new best point as it comes (from the
/// worker thread). Throws CancelledError, UnsupportedError where the device cannot count.
RegistrationResult registerImages(Device& device, const std::vector<RegisterLevel>& pyramid,
                                  const RegisterOptions& options,
                                  const std::function<void(const RegisterStep&)>& onStep,
                                  const CancelToken& cancel = {});

/// The metric the search maximises, from an evaluation (NaN below the overlap).
double registerMetricOf(const RegisterEntropies& e, RegisterMetric metric, std::size_t minCounted);

/// MOVING resampled into FIXED's grid under `t`, bilinear in double precision on MOVING's own
/// values and channels (rounded to its type; floats as they are), 0 where T(p) lies outside
/// MOVING: the registered image of --out.
HostImage resampleRegistered(const HostImage& moving, const RigidTransform& t, int fixedWidth,
                             int fixedHeight);

/// A synthetic pair for machines without an image loader (and for tests with a known answer):
/// FIXED an 8-bit pattern of smooth blobs and waves with texture of 9 to 31 px periods and a
/// little noise, MOVING the same pattern
/// at T^-1 of each pixel -- the exact transformed coordinates, no resampling -- inverted
/// (255 - v) when `invert` (a mapping that correlation fails and MI does not). Deterministic.
RegisterInput syntheticRegisterPair(int width, int height, const RigidTransform& truth,
                                    bool invert);

/// MI evaluations a second on one level, timed three ways taking turns, `repeats` rounds: the
/// device with batches of 256 transforms per launch (16 on a CPU device; as the grid runs), the
/// device one transform at a time (as the optimiser runs, each waited for), and the CPU reference
/// on all the host's threads. Each round's transforms are small random moves of the identity; the
/// first batch's entropies are checked against the CPU reference's (MI to 1e-9 bits).
std::vector<RegisterBenchmarkRow> benchmarkEvaluations(Device& device, const RegisterLevel& level,
                                                       int binsFixed, int binsMoving, int repeats,
                                                       const CancelToken& cancel = {});

/// A registration's report: text, CSV (one row), JSON (the transform, metric, levels, the curve).
std::string registrationText(const RegistrationResult& r);
std::string registrationCsv(const RegistrationResult& r);
std::string registrationStepsCsv(const RegistrationResult& r);
std::string registrationJson(const RegistrationResult& r);

} // namespace histlab
