#pragma once
// Joint 2-D histograms of two planes of the same size (two images, or two channels of one), an
// optional mask (non-zero = counted), their marginals, entropies and mutual information.
//
// Each axis bins by the large-bin rule (largebin.h: NumPy's uniform bins over [lo, hi], the last
// closed). A pair is counted in cell (i, j) = (bin of a, bin of b) when both values are in their
// ranges and the mask is non-zero there; every other pair is left out and counted apart.
//
// From the counted pairs, in double precision, with p = count / counted and 0 log 0 = 0:
//   H(A), H(B)  Shannon entropies of the marginals, in bits
//   H(A,B)      of the joint histogram
//   MI          H(A) + H(B) - H(A,B)
//   NMI         Studholme's (H(A) + H(B)) / H(A,B) (scikit-image's normalized_mutual_information),
//               2 MI / (H(A) + H(B)) and MI / sqrt(H(A) H(B)); NaN where the denominator is 0
//               (all pairs in one cell, or one image constant)
#include "pipelines/largebin/largebin.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace histlab {

/// Bins per axis of a joint histogram.
inline constexpr int kMaxJointBinsPerAxis = 1024;

/// "BX,BY" or "B" (both axes): whole numbers from 1 to 1024; throws UsageError("--bins").
std::pair<int, int> parseJointBins(const std::string& text);

struct JointSpec {
    BinSpec a, b;
    std::size_t cells() const { return std::size_t(a.bins) * std::size_t(b.bins); }
};

/// Checks and completes the spec of two planes: the same sample count (else InputError naming
/// both sources and sizes), the same type (else InputError), bins per axis from 1 to 1024 (else
/// UsageError("--bins")); each range as makeBinSpec.
JointSpec makeJointSpec(const SamplePlane& a, const SamplePlane& b, int binsA, int binsB,
                        const std::optional<BinRange>& rangeA,
                        const std::optional<BinRange>& rangeB);

struct JointHistogram {
    int binsA = 0, binsB = 0;
    std::vector<std::uint64_t> counts; ///< row-major: counts[i * binsB + j]
    std::uint64_t leftOut = 0;         ///< out of range, NaN, or masked out
    std::uint64_t counted() const;
    std::vector<std::uint64_t> marginalA() const; ///< sums over j
    std::vector<std::uint64_t> marginalB() const; ///< sums over i
};

/// The CPU reference. `mask`: empty, or one byte per pair (non-zero = counted).
JointHistogram jointHistogramReference(const SamplePlane& a, const SamplePlane& b,
                                       const JointSpec& spec,
                                       const std::vector<std::uint8_t>& mask = {});

struct MutualInformation {
    double entropyA = 0, entropyB = 0, jointEntropy = 0; ///< bits
    double mi = 0;                                       ///< bits
    double nmiStudholme = NAN;                           ///< (H(A) + H(B)) / H(A,B)
    double nmiArithmetic = NAN;                          ///< 2 MI / (H(A) + H(B))
    double nmiGeometric = NAN;                           ///< MI / sqrt(H(A) H(B))
};

/// Entropy in bits of counts (0 for none).
double entropyBits(const std::vector<std::uint64_t>& counts);

MutualInformation mutualInformation(const JointHistogram& h);
/// MI and the NMI variants from the three entropies.
MutualInformation mutualInformationOf(double entropyA, double entropyB, double jointEntropy);

/// One method's joint histogram on the device.
struct JointPoint {
    LargeBinMethod method = LargeBinMethod::Multipass;
    std::string geometry, buildOptions;
    Status status = Status::Failed;
    std::string detail;    ///< why not run, or the first mismatch
    TimingStats stats;     ///< clear + count
    std::size_t bytes = 0; ///< read: both planes and the mask
    double gbps = 0;       ///< bytes / median
    double gpairs = 0;     ///< G pairs / s
    double percentOfCeiling = 0;
    std::string tuning; ///< how auto chose on the data (tuneSlotMethod), "" otherwise
};

/// The joint methods: every large-bin method, counting cells (and the left-out slot) instead of
/// bins: global (one atomic per pair), local (copies of all cells: only small tables fit),
/// multipass (local slices of the cells), local16 and runs16 (16-bit local counters), private
/// (Method 2: a row of cells per work-item, reduced), tagged (Method 1). Auto picks as for a
/// histogram of as many slots, timing its candidates on the pairs (tuneSlotMethod).
std::vector<LargeBinMethod> jointMethods();

/// Runs `method` on planes uploaded with uploadPlane (`mask`: null, or a buffer of one byte per
/// pair), `repeats` timed runs after a warm-up, the last compared cell by cell with `reference`.
/// Never throws for what the device cannot do (a status says it); throws CancelledError.
JointPoint runJointPoint(Device& device, const cl::Buffer& a, const cl::Buffer& b,
                         const cl::Buffer* mask, std::size_t n, const JointSpec& spec,
                         const JointHistogram& reference, LargeBinMethod method, int repeats,
                         const CancelToken& cancel = {});

/// Counts pieces of two planes uploaded with uploadPlane (and a mask) with one method, auto
/// resolved once on all `n` pairs as runJointPoint resolves it: what the split across devices
/// counts with. Throws UnsupportedError where the device cannot run the method.
class JointPieces {
public:
    JointPieces(Device& device, const cl::Buffer& a, const cl::Buffer& b, const cl::Buffer* mask,
                std::size_t n, const JointSpec& spec, LargeBinMethod method,
                const CancelToken& cancel = {});
    /// The method and its geometry on all pairs (and auto's tuning).
    const std::string& describe() const { return m_describe; }
    /// The method that counts (auto resolved).
    LargeBinMethod method() const { return m_method; }
    /// The cells (row-major) and, last, the left-out count of pairs [offset, offset + length);
    /// `events` gets the count's events (clear, count, reduce). Waits for them. Offsets are
    /// whole multiples of the device's sub-buffer alignment in bytes of each plane.
    std::vector<std::uint64_t> count(std::size_t offset, std::size_t length,
                                     std::vector<cl::Event>* events = nullptr);

private:
    Device& m_device;
    cl::Buffer m_a, m_b;
    std::optional<cl::Buffer> m_mask;
    std::size_t m_n;
    JointSpec m_spec;
    LargeBinMethod m_method = LargeBinMethod::Auto;
    std::string m_describe;
};

/// One MI evaluation on the device, as a registration loop makes it: clear, count the joint
/// histogram, the entropies kernel (marginals and entropies in double precision, one
/// work-group), and H(A), H(B), H(A,B) read back -- timed on the host's wall clock, each
/// evaluation waited for.
struct MiEvaluation {
    LargeBinMethod method = LargeBinMethod::Multipass;
    std::string geometry;
    Status status = Status::Failed;
    std::string detail; ///< why not run, or how the device's entropies differ
    TimingStats stats;  ///< wall-clock milliseconds of one evaluation
    double perSecond = 0;
    MutualInformation mi; ///< from the device's entropies
    std::string tuning;   ///< how auto chose on the data (tuneSlotMethod), "" otherwise
};

/// Runs `repeats` evaluations after a warm-up with `method` (auto resolved); verified when each
/// device entropy equals the host's `reference` to 1e-9 (relative; the sums run in another
/// order). Unsupported on a device without double precision. Throws CancelledError.
MiEvaluation runMiEvaluation(Device& device, const cl::Buffer& a, const cl::Buffer& b,
                             const cl::Buffer* mask, std::size_t n, const JointSpec& spec,
                             const MutualInformation& reference, LargeBinMethod method, int repeats,
                             const CancelToken& cancel = {});

/// "" when the device's `cells` cells and left-out count equal the reference, else how many
/// differ and the first ("2 cells differ; cell (3, 17): device 4, CPU reference 5"). `Count`:
/// std::uint32_t as one device reads them, std::uint64_t as a split adds them.
template <typename Count>
std::string firstJointMismatch(const JointHistogram& reference, const Count* deviceCells,
                               std::size_t cells, std::uint64_t deviceLeftOut);

} // namespace histlab
