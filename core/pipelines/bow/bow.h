#pragma once
// Bag-of-visual-words assignment (kernels/bow.cl): descriptors of DIM floats, each assigned to its
// nearest centroid of a K x DIM codebook (squared Euclidean distance, ties to the lowest index),
// and the histogram of the assignments. The reference text's five kernels (GPU1 ... GPU5) and
// HistLab's tiled ones (the direct distance, and the ||c||^2 - 2 x.c form), each planned per
// device, timed, and verified label by label against the CPU reference in double precision.
#include "report/status.h"
#include "runtime/cancel.h"
#include "runtime/device.h"
#include "runtime/timing.h"

#include <cstdint>
#include <string>
#include <vector>

namespace histlab {

/// `count` descriptors of `dim` floats, descriptor-major (descriptor i at values[i * dim]).
struct Descriptors {
    std::size_t count = 0;
    std::size_t dim = 0;
    std::vector<float> values;
};

/// A codebook of `k` centroids of `dim` floats, centroid-major; the layout of OpenCV's
/// BOWImgDescriptorExtractor vocabulary (a K x DIM CV_32F matrix).
struct Codebook {
    std::size_t k = 0;
    std::size_t dim = 0;
    std::vector<float> values;
};

/// The largest descriptor dimension the kernels are built for.
inline constexpr std::size_t kBowMaxDim = 256;

enum class BowKernel { Gpu1, Gpu2, Gpu3, Gpu4, Gpu5, Tiled, TiledNorm };

/// Every kernel, in the text's order then HistLab's.
const std::vector<BowKernel>& allBowKernels();
/// "gpu1" ... "gpu5", "tiled", "tiled-norm".
const char* bowKernelName(BowKernel kernel);
/// The kernel named `name`; throws UsageError("--kernel") for any other name.
BowKernel parseBowKernel(const std::string& name);

/// Labels (one per descriptor) and the histogram of K counts.
struct Assignment {
    std::vector<std::uint32_t> labels;
    std::vector<std::uint64_t> histogram;
};

/// The nearest centroid of the descriptor at `x` (codebook.dim floats): squared distances in
/// double precision, summed feature by feature in order; the first centroid at the smallest
/// distance wins; a NaN distance never wins (centroid 0 when every distance is NaN).
std::uint32_t nearestCentroid(const float* x, const Codebook& codebook);

/// The CPU reference: nearestCentroid for every descriptor, and the histogram.
Assignment assignReference(const Descriptors& descriptors, const Codebook& codebook);

/// Synthetic data, repeatable for a seed: descriptors drawn around `clusters` random centres in
/// [0, 1)^dim (as local features gather around a few patterns), and a codebook of k of them.
Descriptors makeSyntheticDescriptors(std::size_t count, std::size_t dim, std::uint64_t seed);
Codebook makeSyntheticCodebook(std::size_t k, std::size_t dim, std::uint64_t seed);

/// How a kernel runs on a device for K and DIM (the plan: the one place that decides).
struct BowGeometry {
    BowKernel kernel = BowKernel::Gpu1;
    bool supported = true;
    std::string why;               ///< why not, when unsupported
    std::size_t workGroupSize = 0; ///< items per work-group
    std::size_t groups = 0;        ///< work-groups launched
    std::size_t rows = 1;          ///< tiled*: descriptors per work-item
    std::size_t tile = 0;          ///< tiled*: centroids staged in local memory at a time
    bool localHistogram = false;   ///< tiled*: counted per work-group in local memory
    /// "wg 256 x 40 groups", "wg 128 x 8 groups, 2 rows, tiles of 128 centroids, local histogram"
    std::string describe() const;
};

/// Whether and how `kernel` runs `count` descriptors against K centroids of DIM floats on the
/// device: the float4 kernels need DIM a multiple of 4; GPU5 needs the codebook to fit constant
/// memory; GPU4/GPU5/tiled size their work-groups to the local memory.
BowGeometry planBowKernel(const DeviceInfo& device, BowKernel kernel, std::size_t count,
                          std::size_t k, std::size_t dim);

/// One kernel's run: its geometry, status, timings, and its (resolved) assignment.
struct BowRun {
    BowKernel kernel = BowKernel::Gpu1;
    BowGeometry geometry;
    Status status = Status::Unsupported;
    std::string detail;
    std::string buildOptions;
    TimingStats stats;         ///< kernel time (the launch and the clearing of the histogram)
    Assignment result;         ///< after the ambiguous labels were resolved on the host
    std::size_t ambiguous = 0; ///< labels the device marked too close to call, resolved in double
    double resolveMs = 0;      ///< wall clock of resolving them (not in the kernel time)
    std::string resolvedOn;    ///< "device" (double precision there) or "host"; "" if none
    double descriptorsPerSecond = 0;
    /// Floating-point operations a second: 3 K DIM a descriptor (2 K DIM for the norm form's
    /// multiply-adds) / median time.
    double gflops = 0;
};

/// Runs `kernel` `repeats` times after a warm-up on the device, resolves its ambiguous labels in
/// double precision, and compares labels and histogram with `reference`.
BowRun runBowKernel(Device& device, const Descriptors& descriptors, const Codebook& codebook,
                    BowKernel kernel, const Assignment& reference, int repeats,
                    const CancelToken& cancel);

} // namespace histlab
