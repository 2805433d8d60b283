// Bag-of-visual-words assignment: each descriptor (DIM floats) goes to its nearest centroid of a
// codebook (K x DIM floats, squared Euclidean distance), and the image's histogram counts the
// assignments. The reference text's five steps (GPU1 ... GPU5) and HistLab's tiled and blocked
// kernels.
//
// Build options (one kernel a build, chosen by BOW_KERNEL):
//   BOW_KERNEL  1 ... 5: bow_gpu1 ... bow_gpu5; 6: bow_tiled; 7: bow_tiled_norm;
//               8: bow_block_norm
//   DIM      the descriptor dimension (1 ... 256; the float4 kernels need a multiple of 4)
//   WG       the work-group size the kernel is launched with (bow_gpu4, bow_gpu5, bow_tiled)
//   ROWS     bow_tiled*: descriptors a work-item keeps in registers (1 ... 4)
//   TILE     bow_tiled*: centroids staged in local memory at a time
//   TM, TN, WX, WY, SX, SY  bow_block_norm: a work-item's block (TM descriptors x TN
//               centroids, multiples of 4), the work-group's items (WX x WY), and how a
//               32-item hardware group covers them (SX x SY)
//   KPAD     bow_block_norm: K rounded up to BN (a padded codebook row), a build constant
//   LOCAL_HIST  bow_tiled*, bow_block_norm: 1 to count in a local histogram of LOCAL_HIST_K
//               (= K) counters, added to the global one at the end; 0 to count with global
//               atomics
//
// Layouts: `desc` is descriptor-major (descriptor i's features at i * DIM ...); `descT`
// feature-major (feature f of descriptor i at f * n + i, coalesced across work-items); `descT4`
// feature-major in float4s (features 4q ... 4q + 3 of descriptor i at q * n + i). Centroids are
// always centroid-major (centroid c's features at c * DIM ...).
//
// Exact labels: every kernel keeps its best and second-best distance. Where the gap between them
// is inside the rounding bound of a float distance (sum of DIM rounded squares: relative error
// below (DIM + 2) * 2^-24; the bound below has twice that, plus 1e-33 for terms that underflow),
// the label is marked AMBIGUOUS, and that descriptor is decided again in double precision
// against every centroid, ties to the lowest index, as the CPU reference does (bow_resolve on
// the device, or the host). Elsewhere the float order is the exact order.
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
    const bool sure = k == 1 || (isfinite(b1) && b2 - b1 > BOUND * (b1 + b2) + 1e-33f);
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
// floats. Its rounding error grows with the norms, not with the distance (u = 2^-24, M =
// maxNorm, the largest ||c|| rounded up):
//   - the dot product, DIM multiply-adds summed in any order: |error| <= DIM u sum |x_f c_f|
//     (to first order) <= DIM u ||x|| M (Cauchy-Schwarz), doubled by the factor 2 (exact);
//   - ||c||^2, summed in double and rounded to float: <= 1.01 u M^2;
//   - the difference, rounded once (fused or not): <= u (M^2 + 2 ||x|| M), to first order.
// In all e <= u ((DIM + 1) 2 ||x|| M + 2.01 M^2). Two centroids are in the exact order when
// their computed values differ by more than 2e; NORM_GAP asks for
// 2^-23 ((DIM + 2) 2 ||x|| M + 3 M^2), whose margin (at least 1 + 1 / (DIM + 1), 0.39 % at
// DIM 256) covers the rounding of ||x||, of the gap itself and of the comparison, plus 1e-33
// for products that underflow (even where the device flushes subnormals to zero). Closer than
// that, the label is AMBIGUOUS. (Counting the M^2 terms DIM + 2 times over, as this bound once
// did, marked half as many labels again on descriptors as long as the centroids.)
#define NORM_GAP(xNorm, maxNorm)                                                               \
    (0x1.0p-23f * ((float)(2 * (DIM + 2)) * (xNorm) * (maxNorm) +                             \
                   3.0f * (maxNorm) * (maxNorm)) +                                             \
     1e-33f)
// The histogram of HistLab's kernels: with LOCAL_HIST, counted in local memory (cleared by
// the group's GROUP items first) and added to the global one once a group; else global atomics.
#if LOCAL_HIST
#define HIST_BEGIN(GROUP)                                                                      \
    __local uint lh[LOCAL_HIST_K];                                                             \
    for (uint c = get_local_id(0); c < k; c += (GROUP))                                        \
        lh[c] = 0;
#define HIST_COUNT(bin) atomic_inc(&lh[bin])
#define HIST_END(GROUP)                                                                        \
    barrier(CLK_LOCAL_MEM_FENCE);                                                              \
    for (uint c = get_local_id(0); c < k; c += (GROUP))                                        \
        if (lh[c])                                                                             \
            atomic_add(&hist[c], lh[c]);
#else
#define HIST_BEGIN(GROUP)
#define HIST_COUNT(bin) atomic_inc(&hist[bin])
#define HIST_END(GROUP)
#endif

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
    HIST_BEGIN(WG)
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
        gap[r] = NORM_GAP(xNorm, maxNorm);
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
            HIST_COUNT(best[r]);
        }
    }
    HIST_END(WG)
}
#endif

// HistLab's blocked kernel, bow_block_norm: the ||c||^2 - 2 x.c form as a matrix product with
// register blocking, as fast matrix-multiply kernels do. A work-group of WX x WY items takes
// BM = TM * WX descriptors, staged whole in local memory once, against the codebook in tiles of
// BN = TN * WY centroids; item (tx, ty) accumulates the TM x TN dot products of descriptors
// tx * 4 + u + 4 * WX * v and centroids ty * 4 + u + 4 * WY * v (u < 4) in registers, so each
// feature it reads serves TN (or TM) multiply-adds instead of one. The centroids' features are
// read straight from global memory (the codebook is small and stays in the caches; the items
// of a hardware thread group that share a centroid read it once), so the loop over the codebook
// has no barrier. SX x SY items of a 32-item group form a block of descriptors x centroids (4 x 8
// on GPUs), so that both reads of a step touch few distinct addresses. After a tile every item
// offers its TN distances to the running best and second best of its TM descriptors; at the end
// the WY items that share a descriptor merge their pairs in local memory, and one item per
// descriptor writes the label and counts it.
//
// The centroids come feature-major and padded (centsT[f * kPad + c], kPad = K rounded up to
// BN, the padding's norms +inf so that it never wins), so they load as float4s with no bound
// checks; the descriptors in the float4 feature-major layout of the tiled kernels. The rounding
// bound is bow_tiled_norm's (each dot product is one chain of DIM multiply-adds).
#if BOW_KERNEL == 8
// Unrolled 16 features at a time: 8 and 32 were slower on an H100, 64 far slower.
#ifndef BLOCK_UNROLL
#define BLOCK_UNROLL 16
#endif

#define BM (TM * WX)
#define BN (TN * WY)
#define BLOCK_WG (WX * WY)
#define STAGE_FLOATS (DIM * BM)
#define MERGE_FLOATS (3 * BM * WY)
#define SCRATCH_FLOATS (STAGE_FLOATS > MERGE_FLOATS ? STAGE_FLOATS : MERGE_FLOATS)
__kernel __attribute__((reqd_work_group_size(BLOCK_WG, 1, 1))) void
bow_block_norm(__global const float4* descT4, uint n, __global const float4* centsT4, uint k,
               __global uint* labels, __global uint* hist, __global const float* norms,
               float maxNorm) {
    // Read as float4s (one 16-byte load, where vload4 from a float pointer may be four).
    __local float4 scratch4[SCRATCH_FLOATS / 4];
    __local float* scratch = (__local float*)scratch4;
    __local float* as = scratch; // as[f * BM + m]: feature f of descriptor m
    HIST_BEGIN(BLOCK_WG)
    const uint lid = get_local_id(0);
    const uint tx = lid % SX + SX * ((lid / (SX * SY)) % (WX / SX));
    const uint ty = (lid / SX) % SY + SY * (lid / (SX * SY) / (WX / SX));
    const size_t i0 = (size_t)get_group_id(0) * BM;
    // A build constant: the loop's centroid addresses become immediate offsets (from the
    // run-time K the kernel was 4.5 % slower on an H100 at D 64, K 1,024).
    const uint kPad = KPAD;
    for (uint e = lid; e < BM * DIM / 4; e += BLOCK_WG) {
        const uint m = e % BM, q = e / BM;
        const size_t i = i0 + m;
        const float4 v = i < n ? descT4[(size_t)q * n + i] : (float4)(0.0f);
        as[(4 * q + 0) * BM + m] = v.x;
        as[(4 * q + 1) * BM + m] = v.y;
        as[(4 * q + 2) * BM + m] = v.z;
        as[(4 * q + 3) * BM + m] = v.w;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    float b1[TM], b2[TM];
    uint best[TM];
#pragma unroll
    for (uint r = 0; r < TM; ++r) {
        b1[r] = INFINITY;
        b2[r] = INFINITY;
        best[r] = 0;
    }
    for (uint c0 = 0; c0 < kPad; c0 += BN) {
        float acc[TM][TN];
#pragma unroll
        for (uint r = 0; r < TM; ++r)
#pragma unroll
            for (uint c = 0; c < TN; ++c)
                acc[r][c] = 0.0f;
        __global const float4* column = centsT4 + c0 / 4 + ty;
#pragma unroll BLOCK_UNROLL
        for (uint f = 0; f < DIM; ++f) {
            float a[TM], b[TN];
#pragma unroll
            for (uint v = 0; v < TM / 4; ++v) {
                const float4 t = scratch4[f * (BM / 4) + tx + v * WX];
                a[4 * v] = t.x;
                a[4 * v + 1] = t.y;
                a[4 * v + 2] = t.z;
                a[4 * v + 3] = t.w;
            }
#pragma unroll
            for (uint v = 0; v < TN / 4; ++v) {
                const float4 t = column[(size_t)f * (kPad / 4) + v * WY];
                b[4 * v] = t.x;
                b[4 * v + 1] = t.y;
                b[4 * v + 2] = t.z;
                b[4 * v + 3] = t.w;
            }
#pragma unroll
            for (uint r = 0; r < TM; ++r)
#pragma unroll
                for (uint c = 0; c < TN; ++c)
                    acc[r][c] = fma(a[r], b[c], acc[r][c]);
        }
#pragma unroll
        for (uint c = 0; c < TN; ++c) {
            const uint centroid = c0 + 4 * (ty + (c / 4) * WY) + c % 4;
            const float norm = norms[centroid];
            // OFFER without branches (a select and three min/max a distance; the branches
            // cost a tenth of the kernel's speed on an H100). A NaN distance never wins (the
            // comparison is false, fmin ignores it) but makes b2 = b1: the label is decided in
            // double precision, where NaN never wins either.
#pragma unroll
            for (uint r = 0; r < TM; ++r) {
                const float d = norm - 2.0f * acc[r][c];
                best[r] = d < b1[r] ? centroid : best[r];
                b2[r] = fmin(b2[r], fmax(b1[r], d));
                b1[r] = fmin(b1[r], d);
            }
        }
    }
    // Merge: the pairs of item row ty for descriptor m at [ty * BM + m] of each array.
    barrier(CLK_LOCAL_MEM_FENCE);
    __local float* m1 = scratch;
    __local float* m2 = scratch + BM * WY;
    __local uint* mb = (__local uint*)(scratch + 2 * BM * WY);
#pragma unroll
    for (uint r = 0; r < TM; ++r) {
        const uint m = 4 * (tx + (r / 4) * WX) + r % 4;
        m1[ty * BM + m] = b1[r];
        m2[ty * BM + m] = b2[r];
        mb[ty * BM + m] = best[r];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint m = lid; m < BM; m += BLOCK_WG) {
        float s1 = m1[m], s2 = m2[m];
        uint sb = mb[m];
        for (uint y = 1; y < WY; ++y) {
            const float o1 = m1[y * BM + m], o2 = m2[y * BM + m];
            const uint ob = mb[y * BM + m];
            // The smaller best wins (the lower centroid on equal ones); the loser's best and
            // the winner's second best compete for second. Equal bests leave a gap of 0.
            if (o1 < s1 || (o1 == s1 && ob < sb)) {
                s2 = fmin(s1, o2);
                s1 = o1;
                sb = ob;
            } else {
                s2 = fmin(s2, o1);
            }
        }
        const size_t i = i0 + m;
        if (i < n) {
            float4 xx = (float4)(0.0f);
            for (uint q = 0; q < DIM / 4; ++q) {
                const float4 x = descT4[(size_t)q * n + i];
                xx += x * x;
            }
            const float xNorm = sqrt((xx.x + xx.y) + (xx.z + xx.w));
            const bool sure = k == 1 || (isfinite(s1) && s2 - s1 > NORM_GAP(xNorm, maxNorm));
            labels[i] = sb | (sure ? 0u : AMBIGUOUS);
            HIST_COUNT(sb);
        }
    }
    HIST_END(BLOCK_WG)
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

// A work-group of RESOLVE_WG items takes RESOLVE_ROWS listed descriptors at once, so each read
// of the codebook serves RESOLVE_ROWS of them (the groups are launched for the list's capacity;
// those past the count it holds return at once): their features are staged in local memory as
// doubles, item l takes centroids l, l + RESOLVE_WG, ... (the centroids feature-major,
// centsT[f * k + c], so that neighbouring items read neighbouring floats), sums each distance
// in the reference's order, keeps its first smallest per descriptor, and the group reduces
// (smaller distance; on equal distances the lower index). As in the reference, a NaN or
// infinite distance never wins, and the label is 0 when none is finite.
__kernel __attribute__((reqd_work_group_size(RESOLVE_WG, 1, 1))) void
bow_resolve(__global const float* desc, uint n, __global const uint* list, uint capacity,
            __global const uint* found, __global const float* centsT, uint k,
            __global uint* labels, __global uint* hist) {
    // The count in a buffer of its own: read from the histogram's (after the bins), it made
    // the decisions 1.6 x slower on an H100 (1.23 against 0.77 ms at K 4,096, device time).
    const uint count = min(*found, capacity); // the entries bow_list_ambiguous wrote
    const uint j0 = get_group_id(0) * RESOLVE_ROWS, lid = get_local_id(0);
    if (j0 >= count)
        return; // the whole group: no barrier is reached
    const uint rows = min((uint)RESOLVE_ROWS, count - j0);
    __local double xs[RESOLVE_ROWS * DIM];
    for (uint e = lid; e < RESOLVE_ROWS * DIM; e += RESOLVE_WG) {
        const uint r = e / DIM, f = e % DIM;
        xs[e] = r < rows ? (double)FEATURE(list[j0 + r], f) : 0.0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    double bestDistance[RESOLVE_ROWS];
    uint best[RESOLVE_ROWS];
#pragma unroll
    for (uint r = 0; r < RESOLVE_ROWS; ++r) {
        bestDistance[r] = INFINITY;
        best[r] = k;
    }
    for (uint c = lid; c < k; c += RESOLVE_WG) {
        double d[RESOLVE_ROWS];
#pragma unroll
        for (uint r = 0; r < RESOLVE_ROWS; ++r)
            d[r] = 0.0;
        for (uint f = 0; f < DIM; ++f) {
            const double v = (double)centsT[(size_t)f * k + c];
#pragma unroll
            for (uint r = 0; r < RESOLVE_ROWS; ++r) {
                const double t = xs[r * DIM + f] - v;
                const double square = t * t;
                d[r] = d[r] + square;
            }
        }
#pragma unroll
        for (uint r = 0; r < RESOLVE_ROWS; ++r)
            if (d[r] < bestDistance[r]) {
                bestDistance[r] = d[r];
                best[r] = c;
            }
    }
    __local double ld[RESOLVE_WG];
    __local uint lc[RESOLVE_WG];
    // Every row, so that the arrays are indexed by constants only (and stay in registers).
#pragma unroll
    for (uint r = 0; r < RESOLVE_ROWS; ++r) {
        ld[lid] = bestDistance[r];
        lc[lid] = best[r];
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
        if (lid == 0 && r < rows) {
            const uint i = list[j0 + r];
            const uint exact = lc[0] < k ? lc[0] : 0;
            const uint floatLabel = labels[i] & ~AMBIGUOUS;
            labels[i] = exact;
            if (floatLabel != exact && floatLabel < k) {
                atomic_dec(&hist[floatLabel]);
                atomic_inc(&hist[exact]);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
#endif

// The device's FP32 peak, as clpeak measures it: every work-item runs PEAK_CHAINS independent
// fused multiply-add chains of PEAK_WIDTH-float vectors, unrolled four times a loop trip, so the
// arithmetic units never wait on a result (8 chains on GPUs, where more would spill registers;
// 16 on CPUs, whose two multiply-add pipes need about ten in flight). Floating-point operations
// = 2 x PEAK_WIDTH x PEAK_CHAINS x 4 x iterations a work-item. The host runs widths 4, 8 and 16
// (as clpeak runs float1 ... float16: a CPU's vector units fill only with wide enough vectors)
// and takes the fastest. The values converge to a fixed point (x = a x + b with a < 1), so
// nothing overflows or goes subnormal; the sum is written so that no chain can be dropped.
#if BOW_PEAK
#define PEAK_VEC_(w) float##w
#define PEAK_VEC(w) PEAK_VEC_(w)
typedef PEAK_VEC(PEAK_WIDTH) peak_t;
__kernel void bow_fma_peak(__global float* out, float a, float b, uint iterations) {
    const float seed = (float)get_global_id(0) * 1e-7f;
    peak_t x[PEAK_CHAINS];
    for (int c = 0; c < PEAK_CHAINS; ++c)
        x[c] = (peak_t)(seed + 0.25f * (float)c);
    for (uint i = 0; i < iterations; ++i) {
        _Pragma("unroll") for (int u = 0; u < 4; ++u) {
            _Pragma("unroll") for (int c = 0; c < PEAK_CHAINS; ++c) x[c] = fma(x[c], a, b);
        }
    }
    peak_t sum = (peak_t)(0.0f);
    for (int c = 0; c < PEAK_CHAINS; ++c)
        sum += x[c];
    float total = 0.0f;
    for (int w = 0; w < PEAK_WIDTH; ++w)
        total += ((float*)&sum)[w];
    out[get_global_id(0)] = total;
}
#endif
