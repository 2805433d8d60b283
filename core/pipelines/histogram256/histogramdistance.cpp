#include "pipelines/histogram256/histogramdistance.h"

#include <algorithm>
#include <cmath>

namespace histlab {

std::optional<HistogramDistances> compareHistograms(const std::vector<std::uint64_t>& reference,
                                                    const std::vector<std::uint64_t>& other) {
    if (reference.size() != other.size() || reference.empty())
        return std::nullopt;
    double totalA = 0, totalB = 0;
    for (std::size_t i = 0; i < reference.size(); ++i) {
        totalA += double(reference[i]);
        totalB += double(other[i]);
    }
    if (totalA == 0 || totalB == 0)
        return std::nullopt;
    const double n = double(reference.size());
    const double meanA = 1 / n, meanB = 1 / n; // of the normalised histograms
    double covariance = 0, varianceA = 0, varianceB = 0, hellinger = 0;
    HistogramDistances d;
    for (std::size_t i = 0; i < reference.size(); ++i) {
        const double a = double(reference[i]) / totalA, b = double(other[i]) / totalB;
        covariance += (a - meanA) * (b - meanB);
        varianceA += (a - meanA) * (a - meanA);
        varianceB += (b - meanB) * (b - meanB);
        // OpenCV skips the bins where the reference is (nearly) empty.
        if (std::abs(a) > 1e-10)
            d.chiSquare += (a - b) * (a - b) / a;
        d.intersection += std::min(a, b);
        hellinger += std::sqrt(a * b);
    }
    const double spread = std::sqrt(varianceA * varianceB);
    d.correlation = spread > 0 ? covariance / spread : 1.0; // two flat histograms: the same
    // compareHist's 1 - sum sqrt(a b) / sqrt(sum a * sum b), with both sums 1 here.
    d.bhattacharyya = std::sqrt(std::max(0.0, 1 - hellinger));
    return d;
}

} // namespace histlab
