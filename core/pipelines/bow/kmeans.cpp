#include "pipelines/bow/kmeans.h"

#include "runtime/errors.h"
#include "runtime/timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>

namespace histlab {

namespace {

using Clock = std::chrono::steady_clock;

/// A double in [0, 1) from the generator's top 53 bits: the same on every platform (the
/// standard's distributions are not specified bit for bit).
double unitDouble(std::mt19937_64& rng) {
    return double(rng() >> 11) * 0x1.0p-53;
}

} // namespace

Descriptors sampleDescriptors(const Descriptors& descriptors, std::size_t most,
                              std::uint64_t seed) {
    if (descriptors.count <= most)
        return descriptors;
    // The first `most` places of a seeded Fisher-Yates shuffle, put back in their order.
    std::vector<std::size_t> order(descriptors.count);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::mt19937_64 rng(seed);
    for (std::size_t i = 0; i < most; ++i) {
        const std::size_t j = i + std::size_t(rng() % (descriptors.count - i));
        std::swap(order[i], order[j]);
    }
    order.resize(most);
    std::sort(order.begin(), order.end());
    Descriptors out;
    out.dim = descriptors.dim;
    out.count = most;
    out.values.resize(most * descriptors.dim);
    for (std::size_t i = 0; i < most; ++i)
        std::copy_n(descriptors.values.begin() + std::ptrdiff_t(order[i] * descriptors.dim),
                    descriptors.dim, out.values.begin() + std::ptrdiff_t(i * descriptors.dim));
    return out;
}

Codebook kmeansPlusPlus(const Descriptors& d, std::size_t k, std::uint64_t seed) {
    Codebook c;
    c.k = k;
    c.dim = d.dim;
    c.values.resize(k * d.dim);
    if (k == 0 || d.count == 0)
        return c;
    std::mt19937_64 rng(seed);
    auto take = [&](std::size_t centre, std::size_t i) {
        std::copy_n(d.values.begin() + std::ptrdiff_t(i * d.dim), d.dim,
                    c.values.begin() + std::ptrdiff_t(centre * d.dim));
    };
    take(0, std::size_t(rng() % d.count));
    std::vector<double> nearest(d.count, std::numeric_limits<double>::infinity());
    for (std::size_t centre = 1; centre < k; ++centre) {
        const float* last = c.values.data() + (centre - 1) * d.dim;
        forEachShare(d.count, 4096, [&](std::size_t lo, std::size_t hi) {
            for (std::size_t i = lo; i < hi; ++i)
                nearest[i] =
                    std::min(nearest[i], squaredDistance(d.values.data() + i * d.dim, last, d.dim));
        });
        // Summed in order on one thread, so the draw does not depend on the core count.
        const double total = std::accumulate(nearest.begin(), nearest.end(), 0.0);
        std::size_t pick = 0;
        if (total > 0 && std::isfinite(total)) {
            const double target = unitDouble(rng) * total;
            double sum = 0;
            pick = d.count - 1;
            for (std::size_t i = 0; i < d.count; ++i) {
                sum += nearest[i];
                if (sum > target) {
                    pick = i;
                    break;
                }
            }
        } else {
            pick = std::size_t(rng() % d.count); // every descriptor on a centroid already
        }
        take(centre, pick);
    }
    return c;
}

KmeansResult kmeans(const Descriptors& d, const KmeansParams& params, const KmeansAssign& assign,
                    const CancelToken& cancel,
                    const std::function<void(const KmeansIteration&)>& onIteration) {
    if (params.k == 0)
        throw UsageError("--k", "a codebook needs at least one centroid");
    if (d.count < params.k)
        throw UsageError("--k", std::to_string(params.k) +
                                    " centroids need at least as many "
                                    "descriptors; there are " +
                                    std::to_string(d.count));
    const auto start = Clock::now();
    KmeansResult r;
    r.used = d.count;
    const std::size_t dim = d.dim, k = params.k;
    {
        std::vector<double> mean(dim, 0.0), square(dim, 0.0);
        for (std::size_t i = 0; i < d.count; ++i)
            for (std::size_t f = 0; f < dim; ++f) {
                const double v = d.values[i * dim + f];
                mean[f] += v;
                square[f] += v * v;
            }
        for (std::size_t f = 0; f < dim; ++f) {
            const double m = mean[f] / double(d.count);
            r.totalVariance += std::max(0.0, square[f] / double(d.count) - m * m);
        }
    }
    r.codebook = kmeansPlusPlus(d, k, params.seed);
    r.seedingMs = msSince(start);
    std::vector<std::uint32_t> previous;
    std::vector<double> distance(d.count);
    for (int it = 1; it <= params.maxIterations; ++it) {
        cancel.throwIfCancelled();
        KmeansIteration step;
        step.iteration = it;
        const Assignment a = assign(r.codebook, step.assignMs, step.ambiguous);
        const std::vector<std::uint32_t>& labels = a.labels;
        forEachShare(d.count, 4096, [&](std::size_t lo, std::size_t hi) {
            for (std::size_t i = lo; i < hi; ++i)
                distance[i] = squaredDistance(d.values.data() + i * dim,
                                              r.codebook.values.data() + labels[i] * dim, dim);
        });
        step.inertia = std::accumulate(distance.begin(), distance.end(), 0.0);
        step.changed = d.count;
        if (!previous.empty()) {
            step.changed = 0;
            for (std::size_t i = 0; i < d.count; ++i)
                step.changed += labels[i] != previous[i];
        }
        // The update: each centroid the mean of its descriptors, summed in descriptor order.
        std::vector<double> sums(k * dim, 0.0);
        for (std::size_t i = 0; i < d.count; ++i) {
            double* s = sums.data() + std::size_t(labels[i]) * dim;
            const float* x = d.values.data() + i * dim;
            for (std::size_t f = 0; f < dim; ++f)
                s[f] += x[f];
        }
        Codebook next = r.codebook;
        std::vector<std::size_t> empty;
        for (std::size_t c = 0; c < k; ++c) {
            if (a.histogram[c] == 0) {
                empty.push_back(c);
                continue;
            }
            for (std::size_t f = 0; f < dim; ++f)
                next.values[c * dim + f] = float(sums[c * dim + f] / double(a.histogram[c]));
        }
        // An empty cluster takes the descriptor farthest from its centroid (ties: the first),
        // each such descriptor once.
        if (!empty.empty()) {
            std::vector<std::size_t> order(d.count);
            std::iota(order.begin(), order.end(), std::size_t(0));
            const std::size_t n = std::min(empty.size(), d.count);
            std::partial_sort(order.begin(), order.begin() + std::ptrdiff_t(n), order.end(),
                              [&](std::size_t x, std::size_t y) {
                                  return distance[x] > distance[y] ||
                                         (distance[x] == distance[y] && x < y);
                              });
            for (std::size_t j = 0; j < n; ++j)
                std::copy_n(d.values.begin() + std::ptrdiff_t(order[j] * dim), dim,
                            next.values.begin() + std::ptrdiff_t(empty[j] * dim));
            step.reseeded = n;
        }
        for (std::size_t v = 0; v < next.values.size(); ++v) {
            const double t = double(next.values[v]) - double(r.codebook.values[v]);
            step.shift += t * t;
        }
        r.codebook = std::move(next);
        previous = labels;
        r.iterations.push_back(step);
        if (onIteration)
            onIteration(step);
        if (step.changed == 0 && step.reseeded == 0) {
            r.stopped = "converged: no label changed";
            r.converged = true;
            break;
        }
        if (step.reseeded == 0 && step.shift <= params.tolerance * r.totalVariance) {
            r.stopped = "converged: the centroids moved less than the tolerance";
            r.converged = true;
            break;
        }
    }
    if (r.stopped.empty())
        r.stopped = "stopped after " + std::to_string(params.maxIterations) + " iterations";
    r.totalMs = msSince(start);
    return r;
}

KmeansAssign referenceAssign(const Descriptors& descriptors) {
    return [&descriptors](const Codebook& codebook, double& ms, std::size_t& ambiguous) {
        const auto start = Clock::now();
        Assignment a = assignReference(descriptors, codebook);
        ms = msSince(start);
        ambiguous = 0;
        return a;
    };
}

} // namespace histlab
