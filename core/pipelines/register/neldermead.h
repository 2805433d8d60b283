#pragma once
// Nelder and Mead's simplex search (1965), with the standard coefficients (reflection 1,
// expansion 2, contraction 1/2, shrink 1/2; Lagarias et al. 1998 give its properties). It needs
// no gradient: what a registration wants of a metric counted from a histogram, which has none.
// Minimises f; +inf is a valid value (a point where f is undefined), never chosen over a finite
// one.
#include "runtime/cancel.h"

#include <functional>
#include <vector>

namespace histlab {

struct NelderMeadResult {
    std::vector<double> x;
    double f = 0;
    int evaluations = 0;
    bool converged = false; ///< the simplex shrank below the tolerance (else the budget ran out)
};

/// From x0 with a first simplex of x0 and x0 + steps[i] e_i; ends when every vertex lies within
/// `tolerance` of the best in each coordinate, or after `maxEvaluations` evaluations.
/// `onBest` is called with each new best point and its value.
NelderMeadResult nelderMead(const std::function<double(const std::vector<double>&)>& f,
                            const std::vector<double>& x0, const std::vector<double>& steps,
                            double tolerance, int maxEvaluations,
                            const std::function<void(const std::vector<double>&, double)>& onBest,
                            const CancelToken& cancel = {});

} // namespace histlab
