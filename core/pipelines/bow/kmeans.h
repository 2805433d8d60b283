#pragma once
// A codebook by k-means: k-means++ seeding (Arthur and Vassilvitskii, 2007), then Lloyd's
// iterations whose assignment step is any exact assignment (HistLab's device kernels through
// BowAssigner, or the CPU reference): the labels are exact either way, and the rest of an
// iteration (the means in double precision, summed in descriptor order) is the same code, so a
// device run and a reference run with the same seed give the same codebook bit for bit.
#include "pipelines/bow/bow.h"

#include <functional>
#include <string>
#include <vector>

namespace histlab {

struct KmeansParams {
    std::size_t k = 256;
    int maxIterations = 25;
    /// Converged when the centroids' squared shifts, summed, are at most this fraction of the
    /// descriptors' total variance (the sum of each feature's variance), as scikit-learn's tol.
    double tolerance = 1e-4;
    std::uint64_t seed = 1;
    /// At most this many descriptors a centroid are used (a seeded sample of K times it); 0 for
    /// all. FAISS's k-means samples 256 a centroid by default.
    std::size_t maxPerCentroid = 256;
};

/// One Lloyd iteration: the assignment to the codebook it started with, then the update.
struct KmeansIteration {
    int iteration = 0;         ///< 1, 2, ...
    double inertia = 0;        ///< sum of squared distances to the assigned centroids (double)
    std::size_t changed = 0;   ///< labels that differ from the previous iteration's (all, first)
    std::size_t reseeded = 0;  ///< empty clusters given a new centroid
    double shift = 0;          ///< the update's squared centroid shifts, summed
    double assignMs = 0;       ///< the assignment's milliseconds (kernel time on a device)
    std::size_t ambiguous = 0; ///< labels decided again in double precision
};

struct KmeansResult {
    Codebook codebook;
    std::vector<KmeansIteration> iterations;
    std::size_t used = 0;     ///< descriptors clustered (after sampling)
    double totalVariance = 0; ///< of the descriptors used: the tolerance's scale
    std::string stopped;      ///< why the iterations stopped
    bool converged = false;   ///< by a rule, not by the iteration count
    double seedingMs = 0;     ///< k-means++ on the host's cores, wall clock
    double totalMs = 0;       ///< seeding and iterations, wall clock
};

/// The exact assignment of the descriptors being clustered to a codebook, and its milliseconds
/// and ambiguous labels (kernel time on a device).
using KmeansAssign =
    std::function<Assignment(const Codebook& codebook, double& ms, std::size_t& ambiguous)>;

/// A seeded sample of at most `most` descriptors, in their original order (all when fewer).
Descriptors sampleDescriptors(const Descriptors& descriptors, std::size_t most, std::uint64_t seed);

/// k-means++: the first centroid drawn uniformly, each next one with probability proportional
/// to its squared distance to the nearest centroid so far. Repeatable for a seed.
Codebook kmeansPlusPlus(const Descriptors& descriptors, std::size_t k, std::uint64_t seed);

/// Lloyd's iterations from k-means++ on the descriptors given (sample them first: see
/// sampleDescriptors). An empty cluster takes the descriptor farthest from its centroid.
/// Stops when no label changes, when the shift is within the tolerance, or after
/// maxIterations. `onIteration` sees each iteration as it ends. Throws UsageError("--k") when
/// there are fewer descriptors than centroids.
KmeansResult kmeans(const Descriptors& descriptors, const KmeansParams& params,
                    const KmeansAssign& assign, const CancelToken& cancel,
                    const std::function<void(const KmeansIteration&)>& onIteration = {});

/// The assignment step through assignReference (the CPU, double precision).
KmeansAssign referenceAssign(const Descriptors& descriptors);

} // namespace histlab
