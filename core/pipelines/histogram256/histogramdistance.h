#pragma once
// How far apart two histograms are, as OpenCV's compareHist measures it (its four classic
// methods, the same formulas), on the histograms as fractions of their samples: two regions of
// different sizes compare by their shapes. Integer counts in, doubles out; no OpenCV needed
// (the unit tests check every method against cv::compareHist).
#include <cstdint>
#include <optional>
#include <vector>

namespace histlab {

struct HistogramDistances {
    double correlation = 0;   ///< 1: the same shape, 0: unrelated, -1: opposite
    double chiSquare = 0;     ///< sum over bins of (a - b)^2 / a: 0 when equal
    double intersection = 0;  ///< sum of min(a, b): 1 when equal, 0 when disjoint
    double bhattacharyya = 0; ///< Hellinger distance: 0 when equal, 1 when disjoint
};

/// The distances from `reference` to `other` (reference first, as compareHist's H1), each
/// normalised to sum 1; nothing when their bin counts differ or either is empty.
std::optional<HistogramDistances> compareHistograms(const std::vector<std::uint64_t>& reference,
                                                    const std::vector<std::uint64_t>& other);

} // namespace histlab
