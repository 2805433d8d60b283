// Bag-of-visual-words assignment: each descriptor (DIM floats) goes to its nearest centroid of a
// codebook (K x DIM floats, squared Euclidean distance), and the image's histogram counts the
// assignments. The reference text's five steps (GPU1 ... GPU5) and HistLab's tiled kernels.
//
// Build options (one kernel a build, chosen by BOW_KERNEL):
//   BOW_KERNEL  1 ... 5: bow_gpu1 ... bow_gpu5; 6: bow_tiled; 7: bow_tiled_norm
//   DIM      the descriptor dimension (1 ... 256; the float4 kernels need a multiple of 4)
//   WG       the work-group size the kernel is launched with (bow_gpu4, bow_gpu5, bow_tiled)
//   ROWS     bow_tiled*: descriptors a work-item keeps in registers (1 ... 4)
//   TILE     bow_tiled*: centroids staged in local memory at a time
//   LOCAL_HIST  bow_tiled*: 1 to count in a local histogram of LOCAL_HIST_K (= K) counters, added
//               to the global one at the end; 0 to count with global atomics
//
// Layouts: `desc` is descriptor-major (descriptor i's features at i * DIM ...); `descT`
// feature-major (feature f of descriptor i at f * n + i, coalesced across work-items); `descT4`
// feature-major in float4s (features 4q ... 4q + 3 of descriptor i at q * n + i). Centroids are
// always centroid-major (centroid c's features at c * DIM ...).
//
// Exact labels: every kernel keeps its best and second-best distance. Where the gap between them
// is inside the rounding bound of a float distance (sum of DIM rounded squares: relative error
// below (DIM + 2) * 2^-24; the bound below has twice that), the label is marked AMBIGUOUS and the
// host recomputes that descriptor in double precision against every centroid, ties to the lowest
// index, as the CPU reference does. Elsewhere the float order is the exact order.
// Distances that are NaN never win (a comparison with NaN is false), as in the reference.

#define AMBIGUOUS 0x80000000u
#define BOUND ((float)(DIM + 4) * 0x1.0p-23f)

// A centroid's distance d offered to the running best (b1, label best) and second best b2. A tie
// with the best (a later centroid at the same distance) becomes the second best: gap 0, ambiguous.
#define OFFER(d, c, b1, b2, best)                                                              \
    {                                                                                          \
        const float d_ = (d);                                                                  \
        if (d_ < b1) {                                                                         \
            b2 = b1;                                                                           \
            b1 = d_;                                                                           \
            best = (c);                                                                        \
        } else if (d_ < b2) {                                                                  \
            b2 = d_;                                                                           \
        }                                                                                      \
    }

// The label as written: the best of k centroids, AMBIGUOUS where the float order may not be the
// exact one, and where a float distance overflowed or was NaN (double precision may still order
// them). One centroid is always sure.
inline uint labelOf(uint best, float b1, float b2, uint k) {
    const bool sure = k == 1 || (isfinite(b1) && b2 - b1 > BOUND * (b1 + b2) + 1e-37f);
    return best | (sure ? 0u : AMBIGUOUS);
}

// The assignment of descriptor i: DIST(X, c, d) sets d to its squared distance to centroid c
// (X reads its features); the best label is written, marked where ambiguous, and counted.
#define ASSIGN(DIST, X)                                                                        \
    float b1 = INFINITY, b2 = INFINITY;                                                        \
    uint best = 0;                                                                             \
    for (uint c = 0; c < k; ++c) {                                                             \
        float d;                                                                               \
        DIST(X, c, d)                                                                          \
        OFFER(d, c, b1, b2, best)                                                              \
    }                                                                                          \
    labels[i] = labelOf(best, b1, b2, k);                                                      \
    atomic_inc(&hist[best]);

// Feature by feature: X(f) is feature f of the descriptor, `cents` the centroids.
#define DIST_SCALAR(X, c, out)                                                                 \
    {                                                                                          \
        out = 0.0f;                                                                            \
        for (uint f = 0; f < DIM; ++f) {                                                       \
            const float t = X(f) - cents[(c) * DIM + f];                                       \
            out += t * t;                                                                      \
        }                                                                                      \
    }

// In float4s: X(q) is features 4q ... 4q + 3 of the descriptor, `cents4` the centroids.
#define DIST_FLOAT4(X, c, out)                                                                 \
    {                                                                                          \
        float4 acc = (float4)(0.0f);                                                           \
        for (uint q = 0; q < DIM / 4; ++q) {                                                   \
            const float4 t = X(q) - cents4[(c) * (DIM / 4) + q];                               \
            acc += t * t;                                                                      \
        }                                                                                      \
        out = (acc.x + acc.y) + (acc.z + acc.w);                                               \
    }

// GPU1: one work-item per descriptor, descriptor-major reads (neighbouring work-items read
// addresses DIM floats apart), the bin incremented with a global atomic.
#if BOW_KERNEL == 1
#define X_ROW(f) desc[(size_t)i * DIM + (f)]
__kernel void bow_gpu1(__global const float* desc, uint n, __global const float* cents, uint k,
                       __global uint* labels, __global uint* hist) {
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    ASSIGN(DIST_SCALAR, X_ROW)
}
#endif

// GPU2: as GPU1 over the feature-major layout: each feature read is coalesced.
#if BOW_KERNEL == 2
#define X_COLUMN(f) descT[(size_t)(f) * n + i]
__kernel void bow_gpu2(__global const float* descT, uint n, __global const float* cents, uint k,
                       __global uint* labels, __global uint* hist) {
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    ASSIGN(DIST_SCALAR, X_COLUMN)
}
#endif

// GPU3: GPU2 in float4 arithmetic over the float4 feature-major layout.
#if BOW_KERNEL == 3
#define X_COLUMN4(q) descT4[(size_t)(q) * n + i]
__kernel void bow_gpu3(__global const float4* descT4, uint n, __global const float4* cents4,
                       uint k, __global uint* labels, __global uint* hist) {
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    ASSIGN(DIST_FLOAT4, X_COLUMN4)
}
#endif

// GPU4 and GPU5: the work-group's descriptors staged in local memory first (mine[q * WG + lid]),
// then every distance reads the local copy. (The text's listings read descriptors[...] in the
// distance loop after staging; the local copy is what they mean.) GPU5 reads the centroids from
// __constant memory, which must hold all K x DIM floats.
#define STAGED_BODY                                                                            \
    const uint lid = get_local_id(0), i = get_global_id(0);                                    \
    for (uint q = 0; q < DIM / 4; ++q)                                                         \
        mine[q * WG + lid] = i < n ? descT4[(size_t)q * n + i] : (float4)(0.0f);               \
    barrier(CLK_LOCAL_MEM_FENCE);                                                              \
    if (i >= n)                                                                                \
        return;                                                                                \
    ASSIGN(DIST_FLOAT4, X_LOCAL)
#define X_LOCAL(q) mine[(q) * WG + lid]

#if BOW_KERNEL == 4
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
bow_gpu4(__global const float4* descT4, uint n, __global const float4* cents4, uint k,
         __global uint* labels, __global uint* hist) {
    __local float4 mine[DIM / 4 * WG];
    STAGED_BODY
}
#endif

#if BOW_KERNEL == 5
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
bow_gpu5(__global const float4* descT4, uint n, __constant float4* cents4, uint k,
         __global uint* labels, __global uint* hist) {
    __local float4 mine[DIM / 4 * WG];
    STAGED_BODY
}
#endif

// HistLab's tiled kernels: a work-item keeps ROWS descriptors in registers (descriptor
// g * WG * ROWS + r * WG + lid for r < ROWS), the work-group stages TILE centroids at a time in
// local memory (so any K works: the centroids never have to fit anywhere whole), each centroid
// read from local memory serves ROWS distances, and the histogram is counted per work-group
// (LOCAL_HIST) and added to the global one once.
//
// bow_tiled computes the direct sum of (x - c)^2 (a subtraction and a multiply-add a feature).
// bow_tiled_norm ranks by ||c||^2 - 2 x.c, which orders the centroids as the distance does
// (||x||^2 is the same for all): one multiply-add a feature, with `norms` holding ||c||^2 as
// floats. Its rounding error grows with the norms, not with the distance: for centroid c it is
// below (DIM + 3) * 2^-24 * (||c||^2 + 2 ||x|| ||c||) (D products summed, the norm rounded, the
// difference rounded), at most e = (DIM + 3) * 2^-24 * (M^2 + 2 ||x|| M) with M = maxNorm, the
// largest ||c|| rounded up. A label is sure when the second best is more than 4e above the best
// (2e would do; twice that covers the float arithmetic of the bound itself), else AMBIGUOUS.
#if BOW_KERNEL == 6 || BOW_KERNEL == 7
#define NORM_FORM (BOW_KERNEL == 7)
#if NORM_FORM
#define TILED_KERNEL bow_tiled_norm
#else
#define TILED_KERNEL bow_tiled
#endif
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
TILED_KERNEL(__global const float4* descT4, uint n, __global const float4* cents4, uint k,
             __global uint* labels, __global uint* hist, __global const float* norms,
             float maxNorm) {
    __local float4 tile[TILE * (DIM / 4)];
#if NORM_FORM
    __local float tileNorm[TILE];
#endif
#if LOCAL_HIST
    __local uint lh[LOCAL_HIST_K];
    for (uint c = get_local_id(0); c < k; c += WG)
        lh[c] = 0;
#endif
    const uint lid = get_local_id(0);
    const size_t first = (size_t)get_group_id(0) * WG * ROWS + lid;
    float4 x[ROWS][DIM / 4];
    float b1[ROWS], b2[ROWS], gap[ROWS];
    uint best[ROWS];
    for (uint r = 0; r < ROWS; ++r) {
        const size_t i = first + r * WG;
        float4 xx = (float4)(0.0f);
        for (uint q = 0; q < DIM / 4; ++q) {
            x[r][q] = i < n ? descT4[(size_t)q * n + i] : (float4)(0.0f);
            xx += x[r][q] * x[r][q];
        }
        const float xNorm = sqrt((xx.x + xx.y) + (xx.z + xx.w));
        gap[r] = (float)(DIM + 3) * 0x1.0p-22f * (maxNorm * maxNorm + 2.0f * xNorm * maxNorm);
        b1[r] = INFINITY;
        b2[r] = INFINITY;
        best[r] = 0;
    }
    for (uint c0 = 0; c0 < k; c0 += TILE) {
        const uint here = min((uint)TILE, k - c0);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint e = lid; e < here * (DIM / 4); e += WG)
            tile[e] = cents4[(size_t)c0 * (DIM / 4) + e];
#if NORM_FORM
        for (uint e = lid; e < here; e += WG)
            tileNorm[e] = norms[c0 + e];
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint c = 0; c < here; ++c) {
            float4 acc[ROWS];
            for (uint r = 0; r < ROWS; ++r)
                acc[r] = (float4)(0.0f);
            for (uint q = 0; q < DIM / 4; ++q) {
                const float4 v = tile[c * (DIM / 4) + q];
                for (uint r = 0; r < ROWS; ++r) {
#if NORM_FORM
                    acc[r] = fma(x[r][q], v, acc[r]);
#else
                    const float4 t = x[r][q] - v;
                    acc[r] += t * t;
#endif
                }
            }
            for (uint r = 0; r < ROWS; ++r) {
                const float sum = (acc[r].x + acc[r].y) + (acc[r].z + acc[r].w);
#if NORM_FORM
                const float d = tileNorm[c] - 2.0f * sum;
#else
                const float d = sum;
#endif
                OFFER(d, c0 + c, b1[r], b2[r], best[r])
            }
        }
    }
    for (uint r = 0; r < ROWS; ++r) {
        const size_t i = first + r * WG;
        if (i < n) {
#if NORM_FORM
            const bool sure = k == 1 || (isfinite(b1[r]) && b2[r] - b1[r] > gap[r]);
            labels[i] = best[r] | (sure ? 0u : AMBIGUOUS);
#else
            labels[i] = labelOf(best[r], b1[r], b2[r], k);
#endif
#if LOCAL_HIST
            atomic_inc(&lh[best[r]]);
#else
            atomic_inc(&hist[best[r]]);
#endif
        }
    }
#if LOCAL_HIST
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint c = lid; c < k; c += WG)
        if (lh[c])
            atomic_add(&hist[c], lh[c]);
#endif
}
#endif

// The labels the kernels above marked AMBIGUOUS, decided again in double precision where the
// descriptors already are: bow_list_ambiguous gathers the marked descriptors' indices (an
// atomic counter; `list` holds up to `capacity`, `found` says how many there were, so the host
// can grow the list and ask again), then bow_resolve takes descriptor list[j] (features read in
// the assignment kernel's LAYOUT: 1 descriptor-major, 2 feature-major, 3 feature-major in
// float4s) against every centroid, summed feature by feature in order with no contraction into
// fused multiply-adds, the first nearest centroid winning: the CPU reference's arithmetic
// exactly (IEEE double, the same order), so its labels are the reference's. It writes the exact
// label and moves the descriptor's count from the float label's bin to the exact one. Built with
// BOW_RESOLVE on devices with cl_khr_fp64.
#if BOW_RESOLVE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
#if LAYOUT == 1
#define FEATURE(i, f) desc[(size_t)(i) * DIM + (f)]
#elif LAYOUT == 2
#define FEATURE(i, f) desc[(size_t)(f) * n + (i)]
#else
#define FEATURE(i, f) desc[((size_t)((f) / 4) * n + (i)) * 4 + (f) % 4]
#endif

__kernel void bow_list_ambiguous(__global const uint* labels, uint n, __global uint* list,
                                 uint capacity, __global uint* found) {
    const uint i = get_global_id(0);
    if (i >= n || !(labels[i] & AMBIGUOUS))
        return;
    const uint j = atomic_inc(found);
    if (j < capacity)
        list[j] = i;
}

// A work-group of RESOLVE_WG items a descriptor: item l takes centroids l, l + RESOLVE_WG, ...
// (each distance summed in the reference's order; the centroids feature-major, centsT[f * k +
// c], so that neighbouring items read neighbouring floats), keeps its first smallest, and the group
// reduces (smaller distance; on equal distances the lower index). As in the reference, a NaN
// or infinite distance never wins, and the label is 0 when none is finite.
#define RESOLVE_WG 64
__kernel __attribute__((reqd_work_group_size(RESOLVE_WG, 1, 1))) void
bow_resolve(__global const float* desc, uint n, __global const uint* list, uint count,
            __global const float* centsT, uint k, __global uint* labels, __global uint* hist) {
    const uint j = get_group_id(0), lid = get_local_id(0);
    const uint i = list[j];
    double bestDistance = INFINITY;
    uint best = k;
    for (uint c = lid; c < k; c += RESOLVE_WG) {
        double d = 0.0;
        for (uint f = 0; f < DIM; ++f) {
            const double t = (double)FEATURE(i, f) - (double)centsT[(size_t)f * k + c];
            const double square = t * t;
            d = d + square;
        }
        if (d < bestDistance) {
            bestDistance = d;
            best = c;
        }
    }
    __local double ld[RESOLVE_WG];
    __local uint lc[RESOLVE_WG];
    ld[lid] = bestDistance;
    lc[lid] = best;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint step = RESOLVE_WG / 2; step > 0; step /= 2) {
        if (lid < step) {
            const double od = ld[lid + step];
            const uint oc = lc[lid + step];
            if (od < ld[lid] || (od == ld[lid] && oc < lc[lid])) {
                ld[lid] = od;
                lc[lid] = oc;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid != 0)
        return;
    const uint exact = lc[0] < k ? lc[0] : 0;
    const uint floatLabel = labels[i] & ~AMBIGUOUS;
    labels[i] = exact;
    if (floatLabel != exact && floatLabel < k) {
        atomic_dec(&hist[floatLabel]);
        atomic_inc(&hist[exact]);
    }
}
#endif

// The device's FP32 peak, as clpeak measures it: every work-item runs PEAK_CHAINS independent
// float4 multiply-add chains (mad: the device's fastest multiply-add, fused where it has one),
// unrolled four times a loop trip, so the arithmetic units never wait on a result. Floating-
// point operations = 2 x 4 x PEAK_CHAINS x 4 x iterations a work-item. The values converge to a
// fixed point (x = a x + b with a < 1), so nothing overflows or goes subnormal; the sum is
// written so that no chain can be dropped.
#if BOW_PEAK
#define PEAK_CHAINS 8
__kernel void bow_fma_peak(__global float* out, float a, float b, uint iterations) {
    const float seed = (float)get_global_id(0) * 1e-7f;
    float4 x[PEAK_CHAINS];
    for (int c = 0; c < PEAK_CHAINS; ++c)
        x[c] = (float4)(seed, seed + 0.25f, seed + 0.5f, seed + 0.75f) + (float)c;
    for (uint i = 0; i < iterations; ++i) {
        _Pragma("unroll") for (int u = 0; u < 4; ++u) {
            _Pragma("unroll") for (int c = 0; c < PEAK_CHAINS; ++c) x[c] = mad(x[c], a, b);
        }
    }
    float4 sum = (float4)(0.0f);
    for (int c = 0; c < PEAK_CHAINS; ++c)
        sum += x[c];
    out[get_global_id(0)] = sum.x + sum.y + sum.z + sum.w;
}
#endif
