// 256-bin histograms of 8-bit data, after "OpenCL Case Study: Histogram" (AMD): every variant of
// that text is a build option of this one file, so the host code is shared by all of them.
//
// Metric (see core/histogram256.h): bytes of input read per second.
//
// Build options (assembled in core/histogram256.cpp, histogramBuildOptions()):
//   NCHAN        1, 3 or 4 interleaved channels; byte i belongs to channel i % NCHAN and the
//                output holds NCHAN * 256 bins, channel-major.
//   LOAD_VEC     0: 32-bit uint loads ("scalar"), 1: uint4 loads (16 bytes).
//   READ_SERIAL  0: coalesced (element e, e + global size, ...), 1: each work-item reads a
//                contiguous run of elements ("serial").
//   UNROLL       1, 2, 4 or 8 loads in flight per loop iteration (coalesced reads only).
//   NBANKS       local sub-histogram copies (power of two); copy = local id % NBANKS, laid out
//                bin-major so that neighbouring lanes hit neighbouring memory banks.
//   MERGE_ATOMIC 1: each work-group adds its bins to the output with global atomics;
//                0: it writes them to `partial` and merge_partials() adds them up.
//   STAGE        0 read only, 1 + scatter into local copies, 2 + local reduction (partials
//                written), 3 the whole histogram (the stage table of the reference text).
//   PCOPIES      (accumulate_private) private copies per work-item, to break the
//                load-add-store chains a CPU core stalls on when bytes repeat.

#define NBINS (256u * NCHAN)

#if LOAD_VEC
typedef uint4 elem_t;
#define ELEM_BYTES 16u
#else
typedef uint elem_t;
#define ELEM_BYTES 4u
#endif

// Channel of byte j of element e: (e * ELEM_BYTES + j) % NCHAN without 32-bit overflow.
inline uint channel_of(uint e, uint j)
{
    return ((e % NCHAN) * (ELEM_BYTES % NCHAN) + j) % NCHAN;
}

inline uint xor_elem(elem_t v)
{
#if LOAD_VEC
    return v.x ^ v.y ^ v.z ^ v.w;
#else
    return v;
#endif
}

// ---------------------------------------------------------------------------------------------
// Naive: every byte is one atomic increment of the global histogram.
#ifdef NAIVE
inline void count_word_global(__global uint* hist, uint w, uint c0)
{
    for (uint j = 0; j < 4u; ++j)
        atomic_inc(&hist[((c0 + j) % NCHAN) * 256u + ((w >> (8u * j)) & 0xFFu)]);
}

inline void count_elem_global(__global uint* hist, elem_t v, uint e)
{
#if LOAD_VEC
    count_word_global(hist, v.x, channel_of(e, 0));
    count_word_global(hist, v.y, channel_of(e, 4));
    count_word_global(hist, v.z, channel_of(e, 8));
    count_word_global(hist, v.w, channel_of(e, 12));
#else
    count_word_global(hist, v, channel_of(e, 0));
#endif
}

__kernel void accumulate_histogram(__global const elem_t* data, uint nelem, uint nbytes,
                                   __global uint* partial, __global uint* hist)
{
    (void)partial;
    const uint gid = get_global_id(0), gsize = get_global_size(0);
#if READ_SERIAL
    const uint per = (nelem + gsize - 1) / gsize;
    const uint begin = min(gid * per, nelem), end = min(begin + per, nelem);
    for (uint e = begin; e < end; ++e)
        count_elem_global(hist, data[e], e);
#else
    for (uint e = gid; e < nelem; e += gsize)
        count_elem_global(hist, data[e], e);
#endif
    if (gid == 0) { // the tail that does not fill a whole element
        __global const uchar* bytes = (__global const uchar*)data;
        for (uint i = nelem * ELEM_BYTES; i < nbytes; ++i)
            atomic_inc(&hist[(i % NCHAN) * 256u + bytes[i]]);
    }
}
#endif // NAIVE

// ---------------------------------------------------------------------------------------------
// Local: NBANKS sub-histograms per work-group in local memory, reduced, then merged.
#ifdef LOCAL
inline void count_word_local(__local uint* h, uint w, uint c0, uint bank)
{
#if STAGE >= 1
    for (uint j = 0; j < 4u; ++j) {
        const uint bin = ((c0 + j) % NCHAN) * 256u + ((w >> (8u * j)) & 0xFFu);
        atomic_add(&h[bin * NBANKS + bank], 1u); // result unused: may compile to a reduction
    }
#endif
}

inline void count_elem_local(__local uint* h, elem_t v, uint e, uint bank)
{
#if LOAD_VEC
    count_word_local(h, v.x, channel_of(e, 0), bank);
    count_word_local(h, v.y, channel_of(e, 4), bank);
    count_word_local(h, v.z, channel_of(e, 8), bank);
    count_word_local(h, v.w, channel_of(e, 12), bank);
#else
    count_word_local(h, v, channel_of(e, 0), bank);
#endif
}

// Sum of bin b's copies: `count` uint4 quads starting at quad `first` (all NBANKS copies when
// NBANKS < 4). The start is rotated by b so that the lanes of a warp read different banks.
inline uint reduce_copies(__local const uint4* h4, __local const uint* h, uint b, uint first,
                          uint count)
{
#if NBANKS >= 4
    const uint Q = NBANKS / 4u;
    uint4 s = (uint4)(0u);
    for (uint k = 0; k < count; ++k)
        s += h4[b * Q + ((first + k + b) % Q)];
    return s.x + s.y + s.z + s.w;
#else
    (void)h4;
    (void)first;
    (void)count;
    uint sum = 0;
    for (uint k = 0; k < NBANKS; ++k)
        sum += h[b * NBANKS + k];
    return sum;
#endif
}

#if STAGE == 3 && MERGE_ATOMIC
#define MERGE_BIN(b, sum)                                                                      \
    do {                                                                                       \
        const uint s_ = (sum);                                                                 \
        if (s_)                                                                                \
            atomic_add(&hist[(b)], s_);                                                        \
    } while (0)
#else
#define MERGE_BIN(b, sum) (partial[get_group_id(0) * NBINS + (b)] = (sum))
#endif

#if STAGE == 0
#define VISIT(v, e) acc ^= xor_elem(v)
#else
#define VISIT(v, e) count_elem_local(h, (v), (e), bank)
#endif

__kernel void accumulate_histogram(__global const elem_t* data, uint nelem, uint nbytes,
                                   __global uint* partial, __global uint* hist)
{
    // NBINS * NBANKS counters, declared as uint4 so that zeroing and the reduction can move
    // 16 bytes per access (NBINS is a multiple of 256, so the count divides by 4).
    __local uint4 h4[NBINS * NBANKS / 4];
    __local uint* h = (__local uint*)h4;
    const uint lid = get_local_id(0), lsize = get_local_size(0);
    const uint gid = get_global_id(0), gsize = get_global_size(0);
    const uint bank = lid % NBANKS;
    uint acc = 0;
    (void)acc;
#if !READ_SERIAL
    // Software pipeline: the first batch of UNROLL loads is issued before the local copies are
    // zeroed, and each next batch is in flight while the current one is counted. Small inputs
    // (one or two batches per item) are latency-bound; this hides the first load's latency.
    const uint step = UNROLL * gsize;
    uint e = gid;
    elem_t v[UNROLL];
    bool full = e + (UNROLL - 1u) * gsize < nelem;
    if (full) {
#pragma unroll
        for (uint k = 0; k < UNROLL; ++k)
            v[k] = data[e + k * gsize];
    }
#endif
    for (uint i = lid; i < NBINS * NBANKS / 4u; i += lsize)
        h4[i] = (uint4)(0u);
    barrier(CLK_LOCAL_MEM_FENCE);

#if READ_SERIAL
    const uint per = (nelem + gsize - 1) / gsize;
    const uint begin = min(gid * per, nelem), end = min(begin + per, nelem);
    for (uint e = begin; e < end; ++e)
        VISIT(data[e], e);
#else
    while (full) {
        elem_t c[UNROLL];
#pragma unroll
        for (uint k = 0; k < UNROLL; ++k)
            c[k] = v[k];
        const uint ce = e;
        e += step;
        full = e + (UNROLL - 1u) * gsize < nelem;
        if (full) {
#pragma unroll
            for (uint k = 0; k < UNROLL; ++k)
                v[k] = data[e + k * gsize];
        }
#pragma unroll
        for (uint k = 0; k < UNROLL; ++k)
            VISIT(c[k], ce + k * gsize);
    }
    for (; e < nelem; e += gsize) // fewer than UNROLL elements left for this item
        VISIT(data[e], e);
#endif
#if STAGE >= 1
    if (gid == 0) { // the tail that does not fill a whole element
        __global const uchar* bytes = (__global const uchar*)data;
        for (uint i = nelem * ELEM_BYTES; i < nbytes; ++i)
            atomic_inc(&h[((i % NCHAN) * 256u + bytes[i]) * NBANKS + bank]);
    }
#endif
    barrier(CLK_LOCAL_MEM_FENCE);

#if STAGE == 0
    if (acc == 0x9E3779B9u && nbytes == 1u) // never true for a real run; keeps the loads alive
        hist[0] = acc;
#elif STAGE == 1
    if (lid == 0 && h[0] == 0xFFFFFFFFu && nbytes == 1u) // keeps the scatter alive
        hist[0] = h[0];
#else
    // Reduction over the copies. P threads share a bin when the group has at least 2 * NBINS
    // items (P is uniform in the group, so the barriers below are reached by every item).
    uint P = 1;
    while (2u * P <= NBANKS / 4u && 2u * P * NBINS <= lsize)
        P *= 2u;
    if (P == 1) {
        for (uint b = lid; b < NBINS; b += lsize)
            MERGE_BIN(b, reduce_copies(h4, h, b, 0, NBANKS / 4u));
    } else {
        const uint b = lid % NBINS, part = lid / NBINS, per = NBANKS / 4u / P;
        const uint s = lid < P * NBINS ? reduce_copies(h4, h, b, part * per, per) : 0u;
        barrier(CLK_LOCAL_MEM_FENCE); // every copy has been read: h can hold the part sums
        if (lid < P * NBINS)
            h[lid] = s;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < NBINS) {
            uint sum = 0;
            for (uint p = 0; p < P; ++p)
                sum += h[p * NBINS + lid];
            MERGE_BIN(lid, sum);
        }
    }
#endif
}
#endif // LOCAL

// ---------------------------------------------------------------------------------------------
// Private (the CPU variant): each work-item counts its contiguous run into PCOPIES (1, 2 or 4)
// private histograms with plain increments, then writes (or atomically adds) their sums. Byte
// j of each 32-bit word goes to copy j % PCOPIES, so that repeated bytes do not wait on each
// other's load-add-store; the copies are separate arrays because a CPU compiler then indexes
// them with constants (measured on PoCL 3.1: 1.4x faster than one array with computed offsets).
#ifdef PRIVATE
#if PCOPIES == 4
#define H0 h0
#define H1 h1
#define H2 h2
#define H3 h3
#elif PCOPIES == 2
#define H0 h0
#define H1 h1
#define H2 h0
#define H3 h1
#else
#define H0 h0
#define H1 h0
#define H2 h0
#define H3 h0
#endif

#define COUNT_WORD_PRIVATE(w, e, pos)                                                          \
    do {                                                                                       \
        H0[channel_of((e), (pos) + 0u) * 256u + ((w)&0xFFu)]++;                                \
        H1[channel_of((e), (pos) + 1u) * 256u + (((w) >> 8) & 0xFFu)]++;                       \
        H2[channel_of((e), (pos) + 2u) * 256u + (((w) >> 16) & 0xFFu)]++;                      \
        H3[channel_of((e), (pos) + 3u) * 256u + ((w) >> 24)]++;                                \
    } while (0)

// Three channels: three elements hold whole pixels (48 bytes as uint4, 12 as uint), so from an
// element that is a multiple of 3, word k of the group has bytes of channels (k + b) % 3, b = 0..3,
// all known to the compiler. Counting in such groups saves the per-byte channel arithmetic of
// COUNT_WORD_PRIVATE (measured on PoCL 3.1 for an RGB image: see docs/histogram.md).
#define COUNT_WORD_GROUPED(w, k)                                                               \
    do {                                                                                       \
        H0[(((k) + 0u) % 3u) * 256u + ((w)&0xFFu)]++;                                          \
        H1[(((k) + 1u) % 3u) * 256u + (((w) >> 8) & 0xFFu)]++;                                 \
        H2[(((k) + 2u) % 3u) * 256u + (((w) >> 16) & 0xFFu)]++;                                \
        H3[(((k) + 3u) % 3u) * 256u + ((w) >> 24)]++;                                          \
    } while (0)

__kernel void accumulate_histogram(__global const elem_t* data, uint nelem, uint nbytes,
                                   __global uint* partial, __global uint* hist)
{
    uint h0[NBINS];
#if PCOPIES >= 2
    uint h1[NBINS];
#endif
#if PCOPIES == 4
    uint h2[NBINS], h3[NBINS];
#endif
    const uint gid = get_global_id(0), gsize = get_global_size(0);
    uint acc = 0;
    (void)acc;
    for (uint i = 0; i < NBINS; ++i) {
        h0[i] = 0;
#if PCOPIES >= 2
        h1[i] = 0;
#endif
#if PCOPIES == 4
        h2[i] = 0;
        h3[i] = 0;
#endif
    }
#if NCHAN == 3
    const uint per = ((nelem + gsize - 1) / gsize + 2u) / 3u * 3u; // whole groups of 3
#else
    const uint per = (nelem + gsize - 1) / gsize;
#endif
    const uint begin = min(gid * per, nelem), end = min(begin + per, nelem);
    uint e = begin;
#if NCHAN == 3 && STAGE >= 1
    for (; e + 3u <= end; e += 3u) {
        const elem_t v0 = data[e], v1 = data[e + 1u], v2 = data[e + 2u];
#if LOAD_VEC
        COUNT_WORD_GROUPED(v0.x, 0u);
        COUNT_WORD_GROUPED(v0.y, 1u);
        COUNT_WORD_GROUPED(v0.z, 2u);
        COUNT_WORD_GROUPED(v0.w, 3u);
        COUNT_WORD_GROUPED(v1.x, 4u);
        COUNT_WORD_GROUPED(v1.y, 5u);
        COUNT_WORD_GROUPED(v1.z, 6u);
        COUNT_WORD_GROUPED(v1.w, 7u);
        COUNT_WORD_GROUPED(v2.x, 8u);
        COUNT_WORD_GROUPED(v2.y, 9u);
        COUNT_WORD_GROUPED(v2.z, 10u);
        COUNT_WORD_GROUPED(v2.w, 11u);
#else
        COUNT_WORD_GROUPED(v0, 0u);
        COUNT_WORD_GROUPED(v1, 1u);
        COUNT_WORD_GROUPED(v2, 2u);
#endif
    }
#endif
    for (; e < end; ++e) { // the rest (all of it for 1 and 4 channels)
        const elem_t v = data[e];
#if STAGE == 0
        acc ^= xor_elem(v);
#elif LOAD_VEC
        COUNT_WORD_PRIVATE(v.x, e, 0u);
        COUNT_WORD_PRIVATE(v.y, e, 4u);
        COUNT_WORD_PRIVATE(v.z, e, 8u);
        COUNT_WORD_PRIVATE(v.w, e, 12u);
#else
        COUNT_WORD_PRIVATE(v, e, 0u);
#endif
    }
#if STAGE >= 1
    if (gid == 0) {
        __global const uchar* bytes = (__global const uchar*)data;
        for (uint i = nelem * ELEM_BYTES; i < nbytes; ++i)
            h0[(i % NCHAN) * 256u + bytes[i]]++;
    }
#endif
#if STAGE == 0
    if (acc == 0x9E3779B9u && nbytes == 1u)
        hist[0] = acc;
#elif STAGE == 1
    if (h0[gid % NBINS] == 0xFFFFFFFFu && nbytes == 1u)
        hist[0] = 1;
#else
    for (uint b = 0; b < NBINS; ++b) {
        uint sum = h0[b];
#if PCOPIES >= 2
        sum += h1[b];
#endif
#if PCOPIES == 4
        sum += h2[b] + h3[b];
#endif
#if STAGE == 3 && MERGE_ATOMIC
        if (sum)
            atomic_add(&hist[b], sum);
#else
        partial[gid * NBINS + b] = sum;
#endif
    }
#endif
}
#endif // PRIVATE

// ---------------------------------------------------------------------------------------------
// The second reduction: item (b, s) adds partial rows s, s + S, ... of bin b, then adds its sum
// to the output (accumulating across chunks). Rows are coalesced along b.
__kernel void merge_partials(__global const uint* partial, uint rows, __global uint* hist)
{
    const uint b = get_global_id(0), s = get_global_id(1), split = get_global_size(1);
    if (b >= NBINS)
        return;
    uint sum = 0;
    for (uint r = s; r < rows; r += split)
        sum += partial[r * NBINS + b];
    if (split == 1)
        hist[b] += sum;
    else if (sum)
        atomic_add(&hist[b], sum);
}

// Luma of interleaved 8-bit RGB(A) pixels, bit-exact with OpenCV's cvtColor(COLOR_BGR2GRAY),
// LUMA_CHANNELS (3 or 4) bytes apart: 16 pixels per work-item, loaded as three or four uchar16
// and converted as uint16 lanes. Against one pixel per work-item this is 3.3x as fast on PoCL
// (a CPU compiler uses its vector unit) and 1.4-3.7x on an H200 (a sixteenth of the work-items;
// see docs/histogram.md).
#ifdef LUMA_CHANNELS
#define LUMA_PIXELS 16u

inline uchar luma_of(__global const uchar* p)
{
    return (uchar)((p[0] * 9798u + p[1] * 19235u + p[2] * 3735u + (1u << 14)) >> 15);
}

__kernel void convert_to_luma(__global const uchar* rgb, uint pixels, __global uchar* gray)
{
    const uint first = get_global_id(0) * LUMA_PIXELS;
    if (first >= pixels)
        return;
    __global const uchar* p = rgb + (size_t)first * LUMA_CHANNELS;
    if (first + LUMA_PIXELS > pixels) {
        for (uint k = first; k < pixels; ++k, p += LUMA_CHANNELS)
            gray[k] = luma_of(p);
        return;
    }
#if LUMA_CHANNELS == 3
    const uchar16 a = vload16(0, p), b = vload16(1, p), c = vload16(2, p);
    const uint16 r = convert_uint16((uchar16)(a.s0, a.s3, a.s6, a.s9, a.sc, a.sf, b.s2, b.s5,
                                              b.s8, b.sb, b.se, c.s1, c.s4, c.s7, c.sa, c.sd));
    const uint16 g = convert_uint16((uchar16)(a.s1, a.s4, a.s7, a.sa, a.sd, b.s0, b.s3, b.s6,
                                              b.s9, b.sc, b.sf, c.s2, c.s5, c.s8, c.sb, c.se));
    const uint16 bl = convert_uint16((uchar16)(a.s2, a.s5, a.s8, a.sb, a.se, b.s1, b.s4, b.s7,
                                               b.sa, b.sd, c.s0, c.s3, c.s6, c.s9, c.sc, c.sf));
#else
    const uchar16 a = vload16(0, p), b = vload16(1, p), c = vload16(2, p), d = vload16(3, p);
    const uint16 r = convert_uint16((uchar16)(a.s048c, b.s048c, c.s048c, d.s048c));
    const uint16 g = convert_uint16((uchar16)(a.s159d, b.s159d, c.s159d, d.s159d));
    const uint16 bl = convert_uint16((uchar16)(a.s26ae, b.s26ae, c.s26ae, d.s26ae));
#endif
    vstore16(convert_uchar16((r * 9798u + g * 19235u + bl * 3735u + (1u << 14)) >> 15), 0,
             gray + first);
}
#endif
