// 256-bin histograms of 8-bit data, after "OpenCL Case Study: Histogram" (AMD): every variant of
// that text is a build option of this one file, so the host code is shared by all of them.
//
// Metric (see core/histogram256.h): bytes of input read per second.
//
// Build options (assembled in core/histogram256.cpp, histogramBuildOptions()):
//   NCHAN        1, 3 or 4 interleaved channels. With 3 or 4 an element holds whole pixels
//                (a "pixel block": 16 RGB pixels in 3 x uint4, 4 RGBA pixels in one uint4; 4 and
//                1 with scalar loads), so each pixel's channels are known without arithmetic.
//   COUNT_CHANNELS 1: the NCHAN channels' histograms, channel-major (bins c * 256 + v).
//   LUMA         1 (3 or 4 channels): also the histogram of each pixel's luma, after the
//                channels' bins: a colour image's channels and gray in one read of its bytes.
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

#ifndef COUNT_CHANNELS
#define COUNT_CHANNELS 1
#endif
#ifndef LUMA
#define LUMA 0
#endif
#define PIXEL_BLOCKS (NCHAN == 3 || NCHAN == 4)
#define NBINS (256u * ((COUNT_CHANNELS ? NCHAN : 0) + LUMA))
#define LUMA_BIN (COUNT_CHANNELS ? 256u * NCHAN : 0u) // the luma histogram's first bin

#if LOAD_VEC
typedef uint4 word_t;
#define WORD_BYTES 16u
#else
typedef uint word_t;
#define WORD_BYTES 4u
#endif

#if NCHAN == 3
typedef struct {
    word_t a, b, c;
} elem_t;
#define ELEM_BYTES (3u * WORD_BYTES)
#else
typedef word_t elem_t;
#define ELEM_BYTES WORD_BYTES
#endif
#define ELEM_WORDS (ELEM_BYTES / 4u)
#define ELEM_PIXELS (ELEM_BYTES / NCHAN)

// Channel of byte j of element e: (e * ELEM_BYTES + j) % NCHAN without 32-bit overflow.
inline uint channel_of(uint e, uint j)
{
    return ((e % NCHAN) * (ELEM_BYTES % NCHAN) + j) % NCHAN;
}

inline uint xor_word(word_t v)
{
#if LOAD_VEC
    return v.x ^ v.y ^ v.z ^ v.w;
#else
    return v;
#endif
}

inline uint xor_elem(elem_t v)
{
#if NCHAN == 3
    return xor_word(v.a) ^ xor_word(v.b) ^ xor_word(v.c);
#else
    return xor_word(v);
#endif
}

// The element's 32-bit words, in memory order (private memory: constant indices after the
// loops over pixels are unrolled, so they stay in registers).
inline void elem_words(elem_t v, uint* w)
{
#if NCHAN == 3 && LOAD_VEC
    vstore4(v.a, 0, w);
    vstore4(v.b, 1, w);
    vstore4(v.c, 2, w);
#elif NCHAN == 3
    w[0] = v.a;
    w[1] = v.b;
    w[2] = v.c;
#elif LOAD_VEC
    vstore4(v, 0, w);
#else
    w[0] = v;
#endif
}

#define BYTE_OF(w, i) (((w)[(i) >> 2] >> (8u * ((i)&3u))) & 0xFFu)

// Luma bit-exact with OpenCV's cvtColor(COLOR_BGR2GRAY) of 8-bit data (lumaOf in core/image).
inline uint luma_of(uint r, uint g, uint b)
{
    return (r * 9798u + g * 19235u + b * 3735u + (1u << 14)) >> 15;
}

#if NCHAN == 4
#define COUNT_ALPHA(COUNT, k, w, o) COUNT(k, 768u + BYTE_OF(w, (o) + 3u))
#else
#define COUNT_ALPHA(COUNT, k, w, o)
#endif

// Pixel k of the words w: each channel's bin and its luma's, each through COUNT(k, bin).
#define COUNT_PIXEL(COUNT, k, w)                                                               \
    do {                                                                                       \
        const uint o_ = (k)*NCHAN;                                                             \
        const uint r_ = BYTE_OF(w, o_), g_ = BYTE_OF(w, o_ + 1u), b_ = BYTE_OF(w, o_ + 2u);    \
        if (COUNT_CHANNELS) {                                                                  \
            COUNT(k, r_);                                                                      \
            COUNT(k, 256u + g_);                                                               \
            COUNT(k, 512u + b_);                                                               \
            COUNT_ALPHA(COUNT, k, w, o_);                                                      \
        }                                                                                      \
        if (LUMA)                                                                              \
            COUNT(k, LUMA_BIN + luma_of(r_, g_, b_));                                          \
    } while (0)

// Every pixel of element v through COUNT(k, bin); the loop is unrolled so that the words stay
// in registers.
#define COUNT_ELEM_PIXELS(COUNT, v)                                                            \
    do {                                                                                       \
        uint w_[ELEM_WORDS];                                                                   \
        elem_words((v), w_);                                                                   \
        _Pragma("unroll") for (uint k_ = 0; k_ < ELEM_PIXELS; ++k_)                            \
            COUNT_PIXEL(COUNT, k_, w_);                                                        \
    } while (0)

// The bytes after the last whole element (gid 0 counts them): whole pixels, then the bytes of
// a partial one by channel. `data`, `nelem` and `nbytes` are the kernel's arguments.
#define COUNT_TAIL(COUNT)                                                                      \
    do {                                                                                       \
        __global const uchar* bytes_ = (__global const uchar*)data;                            \
        uint i_ = nelem * ELEM_BYTES;                                                          \
        for (; PIXEL_BLOCKS && i_ + NCHAN <= nbytes; i_ += NCHAN) {                            \
            uint w_[1] = {0u};                                                                 \
            for (uint j_ = 0; j_ < NCHAN; ++j_)                                                \
                w_[0] |= (uint)bytes_[i_ + j_] << (8u * j_);                                   \
            COUNT_PIXEL(COUNT, 0u, w_);                                                        \
        }                                                                                      \
        for (; COUNT_CHANNELS && i_ < nbytes; ++i_)                                            \
            COUNT(0u, (i_ % NCHAN) * 256u + bytes_[i_]);                                       \
    } while (0)

// ---------------------------------------------------------------------------------------------
// Naive: every byte is one atomic increment of the global histogram.
#ifdef NAIVE
inline void count_word_global(__global uint* hist, uint w, uint c0)
{
    for (uint j = 0; j < 4u; ++j)
        atomic_inc(&hist[((c0 + j) % NCHAN) * 256u + ((w >> (8u * j)) & 0xFFu)]);
}

#define COUNT_GLOBAL(k, bin) atomic_inc(&hist[(bin)])

inline void count_elem_global(__global uint* hist, elem_t v, uint e)
{
#if PIXEL_BLOCKS
    (void)e;
    COUNT_ELEM_PIXELS(COUNT_GLOBAL, v);
#elif LOAD_VEC
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
    if (gid == 0) // the tail that does not fill a whole element
        COUNT_TAIL(COUNT_GLOBAL);
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

#define COUNT_LOCAL(k, bin) atomic_add(&h[(bin)*NBANKS + bank], 1u)

inline void count_elem_local(__local uint* h, elem_t v, uint e, uint bank)
{
#if PIXEL_BLOCKS
    (void)e;
    COUNT_ELEM_PIXELS(COUNT_LOCAL, v);
#elif LOAD_VEC
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
    if (gid == 0) // the tail that does not fill a whole element
        COUNT_TAIL(COUNT_LOCAL);
#endif
    barrier(CLK_LOCAL_MEM_FENCE);

// The probes' sinks depend on every value loaded (or counted) and on nothing else, so no
// compiler may skip the loads: a test of a kernel argument ANDed in (nbytes == 1) could be
// evaluated first and, being false at run time, let the loop go. A probe's output is never read.
#if STAGE == 0
    if (acc == 0x9E3779B9u) // keeps the loads alive
        hist[0] = acc;
#elif STAGE == 1
    if (lid == 0 && h[0] == 0xFFFFFFFFu) // keeps the scatter alive (a count never reaches it)
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
// j of each 32-bit word (pixel k of a pixel block) goes to copy j % PCOPIES (k % PCOPIES), so
// that repeated values do not wait on each other's load-add-store; the copies are separate arrays
// because a CPU compiler then indexes them with constants (measured on PoCL 3.1: 1.4x faster than
// one array with computed offsets).
#ifdef PRIVATE
// ADAPT (the default with 4 copies of one channel in uint4s, counting): each block of
// ADAPT_BLOCK elements picks 4 or 2 copies from a sample of its first ADAPT_SAMPLE elements
// (see below). -D ADAPT=0 keeps 4 copies throughout; the sizes may be set with -D as well.
#ifndef ADAPT
#define ADAPT (PCOPIES == 4 && LOAD_VEC && !PIXEL_BLOCKS && STAGE >= 1)
#endif
#ifndef ADAPT_BLOCK
#define ADAPT_BLOCK 256u
#endif
#ifndef ADAPT_SAMPLE
#define ADAPT_SAMPLE 8u
#endif
#ifndef ADAPT_LIMIT
#define ADAPT_LIMIT 4u
#endif
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

// Byte j of word w (of element e, at byte pos) into copy Cj.
#define COUNT_WORD_INTO(C0, C1, C2, C3, w, e, pos)                                             \
    do {                                                                                       \
        C0[channel_of((e), (pos) + 0u) * 256u + ((w)&0xFFu)]++;                                \
        C1[channel_of((e), (pos) + 1u) * 256u + (((w) >> 8) & 0xFFu)]++;                       \
        C2[channel_of((e), (pos) + 2u) * 256u + (((w) >> 16) & 0xFFu)]++;                      \
        C3[channel_of((e), (pos) + 3u) * 256u + ((w) >> 24)]++;                                \
    } while (0)
#define COUNT_WORD_PRIVATE(w, e, pos) COUNT_WORD_INTO(H0, H1, H2, H3, w, e, pos)
// Two copies (ADAPT's blocks without repeats): byte j of a word to copy j % 2.
#define COUNT_WORD_PAIRED(w, e, pos) COUNT_WORD_INTO(h0, h1, h0, h1, w, e, pos)

#define COUNT_ELEM_WORDS(COUNT_WORD, v, e)                                                     \
    do {                                                                                       \
        COUNT_WORD((v).x, e, 0u);                                                              \
        COUNT_WORD((v).y, e, 4u);                                                              \
        COUNT_WORD((v).z, e, 8u);                                                              \
        COUNT_WORD((v).w, e, 12u);                                                             \
    } while (0)

// Bytes of a word that equal the byte two places along (0, 1 or 2): where two copies would
// make them wait on each other's increment.
inline uint pair_repeats(uint w)
{
    const uint d = w ^ (w >> 16);
    return (uint)((d & 0xFFu) == 0u) + (uint)((d & 0xFF00u) == 0u);
}

#define PCOPY(k) ((k) % 4u == 0u ? H0 : (k) % 4u == 1u ? H1 : (k) % 4u == 2u ? H2 : H3)
#define COUNT_PRIVATE(k, bin) PCOPY(k)[(bin)]++

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
    const uint per = (nelem + gsize - 1) / gsize;
    const uint begin = min(gid * per, nelem), end = min(begin + per, nelem);
#if ADAPT
    // Blocks of ADAPT_BLOCK elements: 4 copies where the block's first ADAPT_SAMPLE elements
    // show bytes equal to the byte two places along (runs, flat regions), else 2 copies, which
    // touch half the cache lines (measured on PoCL 3.1, 256 MiB: random bytes 41-43 ms, as
    // with 2 copies in every block, against 59-60 with 4 copies throughout; uniform 73-75 ms
    // against 82-84 with 4 throughout and 115 with 2 in every block).
    for (uint b = begin; b < end; b += ADAPT_BLOCK) {
        const uint bend = min(b + ADAPT_BLOCK, end);
        uint repeats = 0;
        for (uint e = b; e < min(b + ADAPT_SAMPLE, bend); ++e) {
            const elem_t v = data[e];
            repeats += pair_repeats(v.x) + pair_repeats(v.y) + pair_repeats(v.z) +
                       pair_repeats(v.w);
        }
        if (repeats >= ADAPT_LIMIT) {
            for (uint e = b; e < bend; ++e) {
                const elem_t v = data[e];
                COUNT_ELEM_WORDS(COUNT_WORD_PRIVATE, v, e);
            }
        } else {
            for (uint e = b; e < bend; ++e) {
                const elem_t v = data[e];
                COUNT_ELEM_WORDS(COUNT_WORD_PAIRED, v, e);
            }
        }
    }
#else
    for (uint e = begin; e < end; ++e) {
        const elem_t v = data[e];
#if STAGE == 0
        acc ^= xor_elem(v);
#elif PIXEL_BLOCKS
        COUNT_ELEM_PIXELS(COUNT_PRIVATE, v);
#elif LOAD_VEC
        COUNT_ELEM_WORDS(COUNT_WORD_PRIVATE, v, e);
#else
        COUNT_WORD_PRIVATE(v, e, 0u);
#endif
    }
#endif // ADAPT
#if STAGE >= 1
    if (gid == 0)
        COUNT_TAIL(COUNT_PRIVATE);
#endif
#if STAGE == 0
    if (acc == 0x9E3779B9u) // (the sinks of the local variants above)
        hist[0] = acc;
#elif STAGE == 1
    // Every copy at a bin known only at run time: no copy's increments are dead.
    uint probe = h0[gid % NBINS];
#if PCOPIES >= 2
    probe += h1[gid % NBINS];
#endif
#if PCOPIES == 4
    probe += h2[gid % NBINS] + h3[gid % NBINS];
#endif
    if (probe == 0xFFFFFFFFu)
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
