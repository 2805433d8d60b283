#include "pipelines/register/neldermead.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace histlab {

NelderMeadResult nelderMead(const std::function<double(const std::vector<double>&)>& f,
                            const std::vector<double>& x0, const std::vector<double>& steps,
                            double tolerance, int maxEvaluations,
                            const std::function<void(const std::vector<double>&, double)>& onBest,
                            const CancelToken& cancel) {
    const std::size_t n = x0.size();
    NelderMeadResult r;
    std::vector<std::vector<double>> x(n + 1, x0);
    std::vector<double> fx(n + 1);
    double best = INFINITY;
    auto eval = [&](const std::vector<double>& p) {
        cancel.throwIfCancelled();
        const double v = f(p);
        ++r.evaluations;
        if (v < best) {
            best = v;
            if (onBest)
                onBest(p, v);
        }
        return v;
    };
    for (std::size_t i = 0; i < n; ++i)
        x[i + 1][i] += steps[i];
    for (std::size_t i = 0; i <= n; ++i)
        fx[i] = eval(x[i]);
    std::vector<std::size_t> order(n + 1);
    auto combine = [&](const std::vector<double>& c, double t) {
        // c + t (c - worst)
        std::vector<double> p(n);
        for (std::size_t k = 0; k < n; ++k)
            p[k] = c[k] + t * (c[k] - x[order[n]][k]);
        return p;
    };
    while (true) {
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return fx[a] < fx[b]; });
        double extent = 0;
        for (std::size_t i = 1; i <= n; ++i)
            for (std::size_t k = 0; k < n; ++k)
                extent = std::max(extent, std::fabs(x[order[i]][k] - x[order[0]][k]));
        if (extent <= tolerance) {
            r.converged = true;
            break;
        }
        if (r.evaluations >= maxEvaluations)
            break;
        std::vector<double> c(n, 0.0); // centroid of all but the worst
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t k = 0; k < n; ++k)
                c[k] += x[order[i]][k] / double(n);
        const std::size_t worst = order[n];
        const double fBest = fx[order[0]], fSecond = fx[order[n - 1]], fWorst = fx[worst];
        const std::vector<double> xr = combine(c, 1.0);
        const double fr = eval(xr);
        if (fr < fBest) {
            const std::vector<double> xe = combine(c, 2.0);
            const double fe = eval(xe);
            if (fe < fr) {
                x[worst] = xe;
                fx[worst] = fe;
            } else {
                x[worst] = xr;
                fx[worst] = fr;
            }
            continue;
        }
        if (fr < fSecond) {
            x[worst] = xr;
            fx[worst] = fr;
            continue;
        }
        // Contract: outside when the reflection beat the worst, else inside.
        const bool outside = fr < fWorst;
        const std::vector<double> xc = combine(c, outside ? 0.5 : -0.5);
        const double fc = eval(xc);
        if (outside ? fc <= fr : fc < fWorst) {
            x[worst] = xc;
            fx[worst] = fc;
            continue;
        }
        // Shrink towards the best.
        const std::vector<double> xb = x[order[0]];
        for (std::size_t i = 1; i <= n; ++i) {
            std::vector<double>& p = x[order[i]];
            for (std::size_t k = 0; k < n; ++k)
                p[k] = xb[k] + 0.5 * (p[k] - xb[k]);
            fx[order[i]] = eval(p);
        }
    }
    const std::size_t b = std::size_t(std::min_element(fx.begin(), fx.end()) - fx.begin());
    r.x = x[b];
    r.f = fx[b];
    return r;
}

} // namespace histlab
