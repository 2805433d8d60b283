// Histogram equalization (core/equalize.h): histogram, cumulative histogram, look-up table and
// the gather of every pixel through it, each its own kernel so that each is timed on its own.
// The histogram of 8-bit images is not here: it is the 256-bin histogram's tuned kernel
// (histogram256.cl), which counts a color image's luma in the same read.
// The same integers as core/equalize.cpp everywhere; the 8-bit table's one float division is
// computed exactly in integers (equalize_scale), so the table is OpenCV's bit for bit on any
// device, whatever precision its own division has.
//
// Build options:
//   NCHAN    1 (gray), 3 (RGB) or 4 (RGBA) interleaved channels; color is equalized on its luma
//   DEPTH16  1: 16-bit values, 65,536 bins; 0: 8-bit values, 256 bins
//   SLICE    bins per work-group's local histogram of 16-bit values (a power of two up to
//            65,536 that fits local memory)
//   LUT, APPLY_UNROLL  where the gray gather reads its table, and its loads in flight (below)
// (equalize_scales needs neither: it is built with the defaults below.)

#ifndef NCHAN
#define NCHAN 1
#endif
#ifndef DEPTH16
#define DEPTH16 0
#endif

#if DEPTH16
typedef ushort value_t;
#define BINS 65536u
#define MAXV 65535
#else
typedef uchar value_t;
#define BINS 256u
#define MAXV 255
#endif

// The value that is equalized: the gray value, or the luma of an RGB(A) pixel exactly as
// lumaOf() computes it (fits 32 bits for 16-bit values: 65535 * 32768 + 16384 < 2^31).
inline uint pixel_key(__global const value_t* in, ulong p)
{
#if NCHAN == 1
    return in[p];
#else
    __global const value_t* px = in + p * NCHAN;
    return ((uint)px[0] * 9798u + (uint)px[1] * 19235u + (uint)px[2] * 3735u + 16384u) >> 15;
#endif
}

// The histogram of a 16-bit plane, added to `hist` (BINS counts, zeroed by the host). Each
// work-group counts into a local histogram of SLICE bins, the slice get_group_id(1) of the value
// range, and adds its non-zero bins to `hist` with one global atomic each. A slice holds as many
// bins as local memory does (65,536 on PoCL, 8,192 in 48 KiB), so each pixel is read once per
// slice and values outside the group's slice are skipped: more reads, but never a global atomic
// per pixel, whose collisions on a skewed image cost 40 times the whole pass (8192^2 16-bit on
// an H100: 44 ms against 1 ms for random values).
// Gray images are read as whole 32-bit words (2 values) with a tail; color pixel by pixel.
#define COUNT(key)                                                                              \
    do {                                                                                        \
        const uint k_ = (uint)(key) - base;                                                     \
        if (k_ < SLICE)                                                                         \
            atomic_inc(&local_hist[k_]);                                                        \
    } while (0)

#ifndef SLICE
#define SLICE BINS
#endif
#define VALUES_PER_WORD (4 / (int)sizeof(value_t))

#if DEPTH16
__kernel void histogram_values(__global const value_t* in, ulong pixels, __global uint* hist)
{
    __local uint local_hist[SLICE];
    const uint base = (uint)get_group_id(1) * SLICE;
    const ulong stride = get_global_size(0);
    for (uint b = get_local_id(0); b < SLICE; b += get_local_size(0))
        local_hist[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
#if NCHAN == 1
    __global const uint* words = (__global const uint*)in;
    const ulong nwords = pixels / VALUES_PER_WORD;
    for (ulong w = get_global_id(0); w < nwords; w += stride) {
        const uint x = words[w];
        COUNT(x & 0xFFFFu);
        COUNT(x >> 16);
    }
    for (ulong p = nwords * VALUES_PER_WORD + get_global_id(0); p < pixels; p += stride)
        COUNT(in[p]);
#else
    for (ulong p = get_global_id(0); p < pixels; p += stride)
        COUNT(pixel_key(in, p));
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = get_local_id(0); b < SLICE; b += get_local_size(0)) {
        const uint count = local_hist[b];
        if (count)
            atomic_add(&hist[base + b], count);
    }
}
#endif

// 255.f / d rounded to the nearest float (ties to even), d an integer-valued float >= 1, in
// integers: the quotient's 24 significant bits M = floor(255 * 2^k / d) with 2^23 <= M < 2^24,
// rounded by the remainder, then scaled by 2^-k (exact). OpenCL allows 2.5 ulp for a float
// division unless built with -cl-fp32-correctly-rounded-divide-sqrt, which not every device
// supports; the host's division (and OpenCV's) is correctly rounded.
inline float equalize_scale(float d)
{
    const ulong den = (ulong)d; // exact: d is a whole number below 2^33
    ulong m = 0, num = 0;
    int k = 15;
    for (; k < 64; ++k) {
        num = 255ul << k;
        m = num / den;
        if (m >= (1ul << 23))
            break;
    }
    const ulong twice_rem = 2ul * (num - m * den);
    if (twice_rem > den || (twice_rem == den && (m & 1ul)))
        ++m; // may reach 2^24: still exact as a float
    return (float)m * as_float((uint)(127 - k) << 23);
}

// For the tests: the scale of each spread, float(spread) converted as the table does.
__kernel void equalize_scales(__global const uint* spreads, __global float* scales, uint n)
{
    const uint i = get_global_id(0);
    if (i < n)
        scales[i] = equalize_scale(convert_float(spreads[i]));
}

// The look-up table, one work-item per bin, from the inclusive CDF alone: the total is the last
// entry, the first non-empty bin the first non-zero entry (a binary search: the CDF never
// decreases), so the CDF can come from any scan.
__kernel void build_lut(__global const uint* cdf, __global uint* lut)
{
    const uint v = get_global_id(0);
    if (v >= BINS)
        return;
    const uint total = cdf[BINS - 1u];
    uint lo = 0, hi = BINS - 1u;
    while (lo < hi) {
        const uint mid = (lo + hi) / 2u;
        if (cdf[mid] > 0u)
            hi = mid;
        else
            lo = mid + 1u;
    }
    const uint first = lo, cdf_min = cdf[first];
    uint out;
    if (cdf_min == total) {
        out = v; // a single value (or none): the image stays as it is
    } else if (v <= first) {
        out = 0u;
    } else {
        const uint sum = cdf[v] - cdf_min;
#if DEPTH16
        const ulong den = (ulong)(total - cdf_min);
        out = (uint)(((ulong)sum * 65535ul + den / 2ul) / den);
#else
        // OpenCV: saturate_cast<uchar>(sum * scale), float product rounded half to even.
        const float scale = equalize_scale(convert_float(total - cdf_min));
        out = convert_uchar_sat_rte(convert_float(sum) * scale);
#endif
    }
    lut[v] = out;
}

// Gray images, 8- or 16-bit: every pixel through the table, 16 bytes (16 or 8 values) per
// load, grid-stride with APPLY_UNROLL loads in flight per work-item. The table is read from
//   LUT 0  global memory (through the cache),
//   LUT 1  one copy in local memory (8-bit only: 1 KiB),
//   LUT 2  32 copies in local memory, one per bank (8-bit only: 32 KiB). Entry v of copy l is
//          word 32 v + l, so work-item l of a 32-wide warp reads bank l whatever the value:
//          random pixels never make two work-items of a warp wait on the same bank, which a
//          single copy does (about 3.5 work-items per bank at worst for random values).
// Work-item 0 does the values after the last whole 16 bytes.
#ifndef LUT
#define LUT 0
#endif
#ifndef APPLY_UNROLL
#define APPLY_UNROLL 4
#endif
#if LUT == 2
#define LUT_AT(v) lut_l[((uint)(v) << 5) | lane]
#elif LUT == 1
#define LUT_AT(v) lut_l[v]
#else
#define LUT_AT(v) lut[v]
#endif
#if DEPTH16
#define MAP_WORD(x) (LUT_AT((x) & 0xFFFFu) | (LUT_AT((x) >> 16) << 16))
#else
#define MAP_WORD(x)                                                                             \
    (LUT_AT((x) & 0xFFu) | (LUT_AT(((x) >> 8) & 0xFFu) << 8) |                                  \
     (LUT_AT(((x) >> 16) & 0xFFu) << 16) | (LUT_AT((x) >> 24) << 24))
#endif
#define MAP_VEC(x) (uint4)(MAP_WORD((x).s0), MAP_WORD((x).s1), MAP_WORD((x).s2), MAP_WORD((x).s3))

#if NCHAN == 1
__kernel void apply_lut_gray(__global const uint4* in, __global uint4* out,
                             __global const uint* lut, ulong pixels)
{
#if LUT
    __local uint lut_l[LUT == 2 ? BINS * 32u : BINS];
    const uint lane = get_local_id(0) & 31u;
    for (uint i = get_local_id(0); i < (LUT == 2 ? BINS * 32u : BINS); i += get_local_size(0))
        lut_l[i] = lut[LUT == 2 ? i >> 5 : i];
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    const ulong nvec = pixels / (4u * VALUES_PER_WORD), stride = get_global_size(0);
    ulong i = get_global_id(0);
    for (; i + (APPLY_UNROLL - 1) * stride < nvec; i += APPLY_UNROLL * stride) {
        uint4 x[APPLY_UNROLL];
        for (int u = 0; u < APPLY_UNROLL; ++u)
            x[u] = in[i + u * stride];
        for (int u = 0; u < APPLY_UNROLL; ++u)
            out[i + u * stride] = MAP_VEC(x[u]);
    }
    for (; i < nvec; i += stride)
        out[i] = MAP_VEC(in[i]);
    if (get_global_id(0) == 0) {
        __global const value_t* inv = (__global const value_t*)in;
        __global value_t* outv = (__global value_t*)out;
        for (ulong p = nvec * 4u * VALUES_PER_WORD; p < pixels; ++p)
            outv[p] = (value_t)LUT_AT(inv[p]);
    }
}
#else

// Color images: one pixel per work-item (the range padded to whole groups), each channel moved
// by the luma's change, clamped; alpha is copied. 16-bit values are in the host's byte order
// (little-endian), as the device reads them.
__kernel void apply_lut(__global const value_t* in, __global value_t* out,
                        __global const uint* lut, ulong pixels)
{
    const ulong p = get_global_id(0);
    if (p >= pixels)
        return;
    __global const value_t* px = in + p * NCHAN;
    __global value_t* po = out + p * NCHAN;
    const uint y = pixel_key(in, p);
    const int delta = (int)lut[y] - (int)y;
    for (int c = 0; c < 3; ++c)
        po[c] = (value_t)clamp((int)px[c] + delta, 0, MAXV);
#if NCHAN == 4
    po[3] = px[3];
#endif
}
#endif
