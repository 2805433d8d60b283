#pragma once
// Colocalisation of two channels over the pairs their joint histogram counts (both values in
// their ranges, the mask non-zero), as Fiji's Coloc 2 computes it beside its 2-D histogram
// (imagej.net/plugins/coloc-2; github.com/fiji/Colocalisation_Analysis, read for its
// conventions, not copied). For 8- and 16-bit samples every sum below is an exact 64-bit
// integer; the coefficients come from them in double precision.
//
//   Pearson's r   Σ(a - ā)(b - b̄) / sqrt(Σ(a - ā)² Σ(b - b̄)²), from the exact centred sums
//                 n Σab - Σa Σb etc. (Pearson 1896). Three sets of pairs, as Coloc 2's: all,
//                 "below" the thresholds (a < TA or b < TB) and "above" them (a > TA or b > TB:
//                 Coloc 2's "above threshold", either channel above its threshold).
//   M1, M2        Manders, Verbeek & Aten 1993 (J. Microsc. 169:375): M1 = Σa over pairs with
//                 b > 0 / Σa, M2 = Σb over pairs with a > 0 / Σb.
//   tM1, tM2      the same with Costes' thresholds as Coloc 2 takes them: M1's pairs with
//                 b >= TB (and b > 0), over all of Σa; M2's with a >= TA (and a > 0).
//   TA, TB        Costes et al. 2004 (Biophys. J. 86:3993): on the orthogonal (Deming, equal
//                 variances) regression line b = slope a + intercept, the threshold is lowered
//                 until Pearson's r of the pairs below it reaches 0. The working threshold t
//                 walks on A where -1 < slope < 1 (TB = round(slope t + intercept)), else on B
//                 (TA = round((t - intercept) / slope)), as in Coloc 2; each threshold is
//                 rounded half up and clamped to the sample type. Two searches:
//                 stepwise (the default, Costes et al.'s): t = the working channel's maximum,
//                   then one less each step, down to 1; the search stops at the first candidate
//                   whose r_below is <= 0 or undefined, else at t = 1. One pass over the pairs
//                   gives r_below at every candidate (ColocSteps), so the search costs one pass
//                   however many candidates it walks.
//                 bisection (Coloc 2's default): starts at (max + min) / 2 of the working
//                   channel with a step of |start - max|, halves the step every time, goes down
//                   while r_below > 0 and up while r_below < 0, stops on r_below = 0 or
//                   undefined, on a step under one or after 101 updates: one pass per
//                   candidate, about log2(max - min) of them.
//                 TA and TB are those of the last candidate evaluated.
//   ICQ           Li et al. 2004 (J. Neurosci. 24:4070): the fraction of pairs with
//                 (a - ā)(b - b̄) >= 0, minus 0.5 (a zero product counts as positive, as in
//                 Coloc 2); its sign is decided exactly, from (n a - Σa)(n b - Σb).
//   overlap       the pairs above both thresholds: a > TA and b > TB.
// NaN where a coefficient is undefined: no pair, a constant channel (zero variance), Σa = 0,
// or no regression line (zero covariance: no thresholds, and nothing thresholded).
#include "pipelines/largebin/joint.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace histlab {

/// Exact sums over a set of pairs: n, Σa, Σb, Σa², Σb², Σab.
struct ColocMoments {
    std::uint64_t n = 0, a = 0, b = 0, aa = 0, bb = 0, ab = 0;
    bool operator==(const ColocMoments&) const = default;
};

/// What one pass over the counted pairs is asked: the thresholds, and the whole set's n, Σa, Σb
/// (for ICQ's signs; 0 on the first pass, when they are not known yet).
struct ColocPassArgs {
    std::uint32_t ta = 0, tb = 0;
    std::uint64_t n = 0, sa = 0, sb = 0;
    bool belowOnly = false; ///< a search pass: only `below` is wanted (a device sums no more)
    bool operator==(const ColocPassArgs&) const = default;
};

/// One pass's exact sums (the device's and the CPU's compare equal, field for field).
struct ColocSums {
    ColocMoments all, below, above;           ///< below: a < TA or b < TB; above: a > TA or b > TB
    std::uint64_t aWhereB = 0, bWhereA = 0;   ///< Σa where b > 0; Σb where a > 0
    std::uint64_t aAboveTB = 0, bAboveTA = 0; ///< Σa where b >= TB, b > 0; Σb where a >= TA, a > 0
    std::uint64_t overlap = 0;                ///< a > TA and b > TB
    std::uint64_t icqNegative = 0;            ///< (n a - Σa)(n b - Σb) < 0
    std::uint32_t minA = 0xFFFFFFFFu, maxA = 0; ///< of the counted pairs (no pair: max < min)
    std::uint32_t minB = 0xFFFFFFFFu, maxB = 0;
    bool operator==(const ColocSums&) const = default;
};

/// The slots a device writes per work-group (kernels/largebin.cl coloc_sums): 24 sums, then
/// min a, max a, min b, max b.
inline constexpr std::size_t kColocSlots = 28;
/// Adds `groups` rows of kColocSlots slots (sums added, minima and maxima kept).
ColocSums colocSumsOfSlots(const std::uint64_t* rows, std::size_t groups);
/// Adds the sums of two pieces of the pairs.
void addColocSums(ColocSums& into, const ColocSums& piece);
/// Adds a piece's stepwise pass to another's, slot by slot (the same candidates).
void addColocMoments(std::vector<ColocMoments>& into, const std::vector<ColocMoments>& piece);

/// The CPU reference of one pass: every counted pair (in both ranges, mask non-zero) visited.
ColocSums colocPassReference(const SamplePlane& a, const SamplePlane& b, const JointSpec& spec,
                             const std::vector<std::uint8_t>& mask, const ColocPassArgs& args);

/// How Costes' thresholds are searched for (see above).
enum class CostesSearch { Stepwise, Bisection };
const char* costesSearchName(CostesSearch search);
/// What --coloc takes (histlab-cli joint and batch, the Joint tab), the default first:
/// "stepwise", "bisection", "off".
std::vector<std::string> colocChoices();
/// One of colocChoices(): its search, nothing for "off"; UsageError naming `option` for
/// anything else.
std::optional<CostesSearch> parseColocChoice(const std::string& option, const std::string& text);

/// The stepwise search's candidates k = 0 .. K-1 (thresholds ta[k], tb[k], t from the working
/// channel's maximum down to 1) and, for each value x of a channel, the candidates at which x is
/// at or above that channel's threshold: k in [loA[x], hiA[x]) for A, [loB[x], hiB[x]) for B
/// (each threshold moves one way as k grows, so these are intervals).
struct ColocSteps {
    std::vector<std::uint32_t> ta, tb;
    std::vector<std::uint32_t> loA, hiA, loB, hiB; ///< one entry per value of the sample type
    std::size_t count() const { return ta.size(); }
};

/// The candidates on the line b = slope a + intercept, walking on A or B as described above,
/// from `maxWorking` (the working channel's maximum) down to 1.
ColocSteps costesSteps(double slope, double intercept, std::uint32_t maxWorking, SampleType type);

/// The stepwise search's pass: K + 1 slots, slot k the moments of the pairs not below candidate k
/// from k on, less those of the pairs not below it up to k - 1 (differences, modulo 2^64; slot
/// K stays 0): their running sum to slot k is the exact sums of the pairs at or above both of
/// k's thresholds.
using ColocStepsPass = std::function<std::vector<ColocMoments>(const ColocSteps&)>;

/// The CPU reference of the stepwise pass: each counted pair's interval found by binary search
/// on the candidates' thresholds.
std::vector<ColocMoments> colocStepsReference(const SamplePlane& a, const SamplePlane& b,
                                              const JointSpec& spec,
                                              const std::vector<std::uint8_t>& mask,
                                              const ColocSteps& steps);

/// The coefficients; `computed` false (and `why`) for samples they are not computed for.
struct Colocalisation {
    bool computed = false;
    std::string why;
    std::uint64_t n = 0;
    double pearson = NAN, pearsonBelow = NAN, pearsonAbove = NAN;
    double m1 = NAN, m2 = NAN, tm1 = NAN, tm2 = NAN;
    double slope = NAN, intercept = NAN;
    double thresholdA = NAN, thresholdB = NAN; ///< NaN: no regression line
    double icq = NAN;
    double overlap = NAN; ///< a whole number of pairs, NaN without thresholds
    int passes = 0;       ///< passes over the pairs: the first, the search's, the last
    CostesSearch search = CostesSearch::Stepwise;
    std::size_t candidates = 0;      ///< candidates whose r_below was evaluated
    std::vector<ColocMoments> steps; ///< the stepwise search's pass (its differences; a run
                                     ///< keeps it until it is compared)
    ColocSums sums;                  ///< the last pass (at TA, TB)
    ColocSums first;                 ///< the first pass (no thresholds)
};

/// One pass over the counted pairs (the CPU reference's, or a device's).
using ColocPass = std::function<ColocSums(const ColocPassArgs&)>;

/// The passes a colocalisation is made of: sums at thresholds, and the stepwise search's.
struct ColocPasses {
    ColocPass sums;
    ColocStepsPass steps; ///< not called by the bisection
};

/// Whether the coefficients are computed for `type`, and why not ("" for 8- and 16-bit).
std::string colocRefusal(SampleType type);

/// The coefficients from `passes`: the first (all pairs), Costes' search (stepwise: one pass;
/// bisection: one per candidate, about log2(max - min) of them), the last at the thresholds.
Colocalisation colocalise(SampleType type, CostesSearch search, const ColocPasses& passes);

/// colocalise with colocPassReference and colocStepsReference.
Colocalisation colocalisationReference(const SamplePlane& a, const SamplePlane& b,
                                       const JointSpec& spec, const std::vector<std::uint8_t>& mask,
                                       CostesSearch search = CostesSearch::Stepwise);

/// Pearson's r of exact sums (NaN for fewer than two distinct values in a channel).
double pearsonOf(const ColocMoments& m);

/// "" when a device's passes gave the reference's sums and thresholds, else the first
/// difference ("the thresholds: device (40, 52), CPU reference (41, 52)", "Σab above: ...").
std::string firstColocMismatch(const Colocalisation& reference, const Colocalisation& device);

/// Passes on a device over planes uploaded with uploadPlane (`mask`: null or one byte per pair),
/// pairs [offset, offset + length) of `n`. Offsets are whole multiples of the device's
/// sub-buffer alignment in bytes of each plane. Throws UnsupportedError for float samples.
class ColocDevicePass {
public:
    ColocDevicePass(Device& device, const cl::Buffer& a, const cl::Buffer& b,
                    const cl::Buffer* mask, std::size_t n, const JointSpec& spec,
                    std::size_t offset = 0, std::size_t length = std::size_t(-1));
    ColocSums operator()(const ColocPassArgs& args);
    /// The stepwise search's pass. Throws UnsupportedError where the device has no 64-bit
    /// atomics (cl_khr_int64_base_atomics), which it adds with.
    std::vector<ColocMoments> steps(const ColocSteps& steps);
    /// Both, as colocalise takes them.
    ColocPasses passes();

private:
    Device& m_device;
    std::vector<cl::Buffer> m_keep; // sub-buffers and edges the kernel reads
    cl::Kernel m_kernel, m_steps;
    cl::Buffer m_partial;
    bool m_masked = false;
    std::size_t m_length = 0;
    JointSpec m_spec;
    std::size_t m_groups = 0, m_local = 0;
};

} // namespace histlab
