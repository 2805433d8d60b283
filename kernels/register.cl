// Registration by mutual information: the joint histogram of FIXED and MOVING resampled under a
// batch of affine transforms, one histogram per transform, and the entropies of each.
//
// Everything that decides a count is integer arithmetic, so that a device counts exactly what
// the CPU reference counts (core/pipelines/register/register.h has the rule at length):
//   - FIXED's pixel (x, y) is sampled at (x, y) + j, a fixed pseudo-random offset of up to
//     half a pixel in 1/256 px (jitterOf, kept inside FIXED): jittered sampling (Tsao 2003),
//     so that bilinear interpolation does not pull the search towards whole-pixel shifts;
//   - a transform is six 64-bit integers in units of 2^-32 pixel; the point of MOVING is
//     u = 256 (a00 x + a01 y + b0) + a00 jx + a01 jy (v likewise), in units of 2^-40 pixel,
//     an exact sum;
//   - a sample lies in MOVING when 0 <= u <= (width - 1) 2^40 and likewise v; else it is left
//     out of the count (not counted as 0);
//   - bilinear weights are the top 8 bits of the fractions (1/256 pixel, as a GPU's texture
//     unit interpolates), and the value 2^16 times the sample's, in 32 bits:
//     ((p00 (256 - fu) + p01 fu) (256 - fv) + (p10 (256 - fu) + p11 fu) fv);
//   - its bin is floor((value - lo 2^16) BINS_B / (span 2^16)), the quotient guessed in float
//     and corrected to the exact one.
// FIXED arrives as its bins at the jittered points (one FBIN_T per pixel, FIXED_OUT for a pixel
// left out: masked or NaN), computed once on the host, since they do not move with the
// transform.
//
// Build options:
//   SAMPLE_T     uchar (8-bit MOVING) or ushort (16-bit, or float quantised to 0 ... 65,534)
//   INVALID      defined for a quantised float MOVING: the value of NaN (65,535); a sample that
//                touches one is left out
//   FBIN_T       uchar or ushort; FIXED_OUT its largest value
//   BINS_A       bins of FIXED, BINS_B of MOVING
//   LOCAL_HIST   1: each work-group counts in a local table of BINS_A x BINS_B, then adds it to
//                its transform's histogram (where the table fits); 0: global atomics
//   SERIAL       1: work-groups of one work-item (a CPU device) count without atomics

#define CELLS (BINS_A * BINS_B)

inline uint movingBin(uint value, uint lo16, ulong den, float invDen) {
    const ulong num = (ulong)(value - lo16) * BINS_B;
    uint q = (uint)((float)num * invDen);
    if (q > BINS_B - 1)
        q = BINS_B - 1;
    if ((ulong)q * den > num)
        --q;
    else if ((ulong)(q + 1) * den <= num)
        ++q;
    return q;
}

// The offset of FIXED's pixel (x, y) in 1/256 px, each coordinate in [-128, 127], kept inside
// the w x h image: a hash of the position (the host's registerJitter is the same).
inline int2 jitterOf(uint x, uint y, uint w, uint h) {
    uint k = x * 0x9E3779B1u ^ y * 0x85EBCA77u;
    k ^= k >> 15;
    k *= 0x2C1B3C6Du;
    k ^= k >> 12;
    k *= 0x297A2D39u;
    k ^= k >> 15;
    const int jx = clamp((int)(x * 256u) + (int)(k & 255u) - 128, 0, (int)((w - 1) * 256u));
    const int jy = clamp((int)(y * 256u) + (int)((k >> 8) & 255u) - 128, 0, (int)((h - 1) * 256u));
    return (int2)(jx - (int)(x * 256u), jy - (int)(y * 256u));
}

// The bilinear value of MOVING at (u, v) in units of 2^-40 pixel, times 2^16; false where the
// point lies outside MOVING (or touches a NaN).
inline bool sampleMoving(__global const SAMPLE_T* m, uint mw, uint mh, long u, long v,
                         uint* value) {
    if (u < 0 || v < 0 || u > ((long)(mw - 1) << 40) || v > ((long)(mh - 1) << 40))
        return false;
    const uint ui = (uint)(u >> 40), vi = (uint)(v >> 40);
    const uint fu = (uint)(u >> 32) & 255u, fv = (uint)(v >> 32) & 255u;
    // At the last column (row) the fraction is 0: the clamped neighbour has no weight.
    const uint ui1 = min(ui + 1, mw - 1), vi1 = min(vi + 1, mh - 1);
    const size_t r0 = (size_t)vi * mw, r1 = (size_t)vi1 * mw;
    const uint p00 = m[r0 + ui], p01 = m[r0 + ui1], p10 = m[r1 + ui], p11 = m[r1 + ui1];
#ifdef INVALID
    if (p00 == INVALID || p01 == INVALID || p10 == INVALID || p11 == INVALID)
        return false;
#endif
    const uint top = p00 * (256u - fu) + p01 * fu, bottom = p10 * (256u - fu) + p11 * fu;
    *value = top * (256u - fv) + bottom * fv;
    return true;
}

typedef struct {
    long a00, a01, b0, a10, a11, b1;
} Affine;

// Global range: (groups x local size) work-items along dimension 0 for each transform, one
// transform per index of dimension 1. Group g counts rows g, g + groups, ... of FIXED; its
// work-items share a row, x strided by the local size (FIXED's bins read coalesced).
__kernel void register_count(__global const FBIN_T* fixedBins, uint fw, uint fh,
                             __global const SAMPLE_T* moving, uint mw, uint mh,
                             __global const Affine* transforms, uint lo16, ulong den,
                             float invDen, __global uint* hist
#if LOCAL_HIST
                             ,
                             __local uint* table
#endif
) {
    const uint t = get_global_id(1);
    const uint lid = get_local_id(0), lsz = get_local_size(0);
    const uint group = get_group_id(0), groups = get_num_groups(0);
    const Affine T = transforms[t];
    __global uint* h = hist + (size_t)t * CELLS;
#if LOCAL_HIST
    for (uint c = lid; c < CELLS; c += lsz)
        table[c] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    for (uint y = group; y < fh; y += groups) {
        const long rowU = T.a01 * (long)y + T.b0, rowV = T.a11 * (long)y + T.b1;
        __global const FBIN_T* row = fixedBins + (size_t)y * fw;
        for (uint x = lid; x < fw; x += lsz) {
            const uint a = row[x];
            if (a == FIXED_OUT)
                continue;
            const int2 j = jitterOf(x, y, fw, fh);
            const long u = (rowU + T.a00 * (long)x) * 256 + T.a00 * j.x + T.a01 * j.y;
            const long v = (rowV + T.a10 * (long)x) * 256 + T.a10 * j.x + T.a11 * j.y;
            uint value;
            if (!sampleMoving(moving, mw, mh, u, v, &value))
                continue;
            const uint cell = a * BINS_B + movingBin(value, lo16, den, invDen);
#if LOCAL_HIST && SERIAL
            table[cell] += 1;
#elif LOCAL_HIST
            atomic_inc(&table[cell]);
#else
            atomic_inc(&h[cell]);
#endif
        }
    }
#if LOCAL_HIST
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint c = lid; c < CELLS; c += lsz) {
        const uint n = table[c];
        if (n)
            atomic_add(&h[c], n);
    }
#endif
}

// The entropies of each transform's histogram, one work-group per transform, and the histogram
// cleared for the next batch. Each cell is read once: its c log2 c summed for H(FIXED, MOVING),
// its count added to its row's and column's local totals; then the totals' c log2 c. In double
// precision; out[4 t ...]: H(FIXED), H(MOVING), H(FIXED, MOVING) in bits (log2 n - sum / n), and
// n, the pairs counted (0 for none: the entropies are then 0).
#include "entropy.cl"
#if defined(cl_khr_fp64)

__kernel void register_entropies(__global uint* hist, __global double* out,
                                 __local uint* rowTotal, __local uint* colTotal,
                                 __local double* partial) {
    const uint t = get_group_id(0), lid = get_local_id(0), lsz = get_local_size(0);
    __global uint* h = hist + (size_t)t * CELLS;
    for (uint i = lid; i < BINS_A; i += lsz)
        rowTotal[i] = 0;
    for (uint j = lid; j < BINS_B; j += lsz)
        colTotal[j] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    double joint = 0;
    for (uint c = lid; c < CELLS; c += lsz) {
        const uint n = h[c];
        if (n) {
            joint += cLog2c(n);
            atomic_add(&rowTotal[c / BINS_B], n);
            atomic_add(&colTotal[c % BINS_B], n);
            h[c] = 0;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    double ha = 0, hb = 0, pairs = 0;
    for (uint i = lid; i < BINS_A; i += lsz) {
        ha += cLog2c(rowTotal[i]);
        pairs += (double)rowTotal[i];
    }
    for (uint j = lid; j < BINS_B; j += lsz)
        hb += cLog2c(colTotal[j]);
    const double n = groupSum(pairs, partial);
    const double sums[3] = {groupSum(ha, partial), groupSum(hb, partial),
                            groupSum(joint, partial)};
    if (lid == 0) {
        for (int s = 0; s < 3; ++s)
            out[4 * t + s] = n > 0 ? log2(n) - sums[s] / n : 0.0;
        out[4 * t + 3] = n;
    }
}
#endif
