// Box blur of 8-bit gray images, after "Working groups in OpenCL 2.0": the interior range
// (width - 2R) x (height - 2R) launched as is, so it rarely divides by a work-group size. One
// work-item per interior pixel: the mean of its (2R + 1)^2 window, (sum + n / 2) / n, exactly
// as core/blur.cpp computes it. The frame of width R is copied by the host beforehand.
//
// Build options:
//   PADDED   1: the range is rounded up to whole work-groups and items outside the interior
//            return at once (what a device without non-uniform work-groups needs).
// Under OpenCL C 2.0 (-cl-std=CL2.0) the corners also record get_enqueued_local_size.

__kernel void blur_interior(__global const uchar* in, __global uchar* out, int width,
                            int height, int radius, __global int* corners)
{
    const int gx = (int)get_global_id(0), gy = (int)get_global_id(1);
    const int iw = width - 2 * radius, ih = height - 2 * radius;
#if PADDED
    if (gx >= iw || gy >= ih)
        return;
#endif
    // The four corners of the interior range record what the work-item saw: global id, local
    // size, and (OpenCL C 2.0) the enqueued local size, 6 ints each. A range one item wide or
    // high has one item at two corners.
    for (int k = 0; k < 4; ++k) {
        if (gx != ((k & 1) ? iw - 1 : 0) || gy != ((k & 2) ? ih - 1 : 0))
            continue;
        __global int* c = corners + 6 * k;
        c[0] = gx;
        c[1] = gy;
        c[2] = (int)get_local_size(0);
        c[3] = (int)get_local_size(1);
#if __OPENCL_C_VERSION__ >= 200
        c[4] = (int)get_enqueued_local_size(0);
        c[5] = (int)get_enqueued_local_size(1);
#else
        c[4] = -1;
        c[5] = -1;
#endif
    }
    const int x = gx + radius, y = gy + radius;
    uint sum = 0;
    for (int dy = -radius; dy <= radius; ++dy) {
        __global const uchar* row = in + (size_t)(y + dy) * (size_t)width;
        for (int dx = -radius; dx <= radius; ++dx)
            sum += row[x + dx];
    }
    const uint n = (uint)((2 * radius + 1) * (2 * radius + 1));
    out[(size_t)y * (size_t)width + x] = (uchar)((sum + n / 2u) / n);
}

// ---------------------------------------------------------------------------------------------
// The whole image with a border mode, any channel count and 8- or 16-bit values: one work-item
// per pixel (the range padded to whole groups), every channel of it. Build options:
//   BORDER   0 interior (frame pixels copied), 1 replicate, 2 reflect-101
//   NCHAN    1, 3 or 4 interleaved channels
//   DEPTH16  1: 16-bit values (sums in 64 bits), 0: 8-bit
#ifdef BORDER
#if DEPTH16
typedef ushort value_t;
typedef ulong sum_t;
#else
typedef uchar value_t;
typedef uint sum_t;
#endif

inline int border_index(int i, int n)
{
    if (i >= 0 && i < n) // inside: no division for the modulo below
        return i;
    if (n == 1)
        return 0;
#if BORDER == 2
    const int period = 2 * (n - 1);
    i %= period;
    if (i < 0)
        i += period;
    return i < n ? i : period - i;
#else
    return clamp(i, 0, n - 1);
#endif
}

__kernel void blur_full(__global const value_t* in, __global value_t* out, int width, int height,
                        int radius)
{
    const int x = (int)get_global_id(0), y = (int)get_global_id(1);
    if (x >= width || y >= height)
        return;
    const size_t at = ((size_t)y * (size_t)width + (size_t)x) * NCHAN;
#if BORDER == 0
    if (x < radius || y < radius || x >= width - radius || y >= height - radius) {
        for (int c = 0; c < NCHAN; ++c)
            out[at + c] = in[at + c];
        return;
    }
#endif
    sum_t sum[NCHAN];
    for (int c = 0; c < NCHAN; ++c)
        sum[c] = 0;
    for (int dy = -radius; dy <= radius; ++dy) {
#if BORDER == 0
        const int sy = y + dy;
#else
        const int sy = border_index(y + dy, height);
#endif
        __global const value_t* row = in + (size_t)sy * (size_t)width * NCHAN;
        for (int dx = -radius; dx <= radius; ++dx) {
#if BORDER == 0
            const int sx = x + dx;
#else
            const int sx = border_index(x + dx, width);
#endif
            for (int c = 0; c < NCHAN; ++c)
                sum[c] += row[(size_t)sx * NCHAN + c];
        }
    }
    const sum_t n = (sum_t)(2 * radius + 1) * (sum_t)(2 * radius + 1);
    for (int c = 0; c < NCHAN; ++c)
        out[at + c] = (value_t)((sum[c] + n / 2) / n);
}
#endif

// ---------------------------------------------------------------------------------------------
// The tuned and the large-radius variants. Rows lie `pitch` bytes apart, a multiple of 16, so
// each row starts on a 16-byte boundary and 16 bytes of it load and store as one uint4 (the
// reference texts' lesson: NVIDIA's driver turns vload16 on a uchar pointer into 16 byte loads).
// Build options as for blur_full (BORDER, NCHAN, DEPTH16), and:
//   RADIUS   blur_tiled: the radius, fixed when built (1..3), so the window lives in registers
//   ROWS     blur_tiled: rows each work-item blurs
//   PACKED   blur_tiled: 1 loads all the window's rows first, packed as loaded (GPUs), 0 slides
//            down keeping them as horizontal sums (CPUs)
//   SWAR     blur_tiled (8-bit, R = 1: gray, or RGBA with PACKED 1): two pixels per 32-bit
//            register
//   VECS     blur_tiled: 16-byte vectors per work-item and row (1, 2 or 4)
//   COLSUM16 blur_columns/blur_rows: column sums stored as ushort (8-bit images, R <= 128)
//   PER      blur_rows: output elements per work-item
#ifdef BORDER
#ifndef VECS
#define VECS 1
#endif
#if DEPTH16
#define VEC (8 * VECS)
#define LOAD4(p) convert_uint4(*(__global const ushort4*)(p))
#else
#define VEC (16 * VECS)
#define LOAD4(p) convert_uint4(*(__global const uchar4*)(p))
#endif

// VECS uint4s of a row. Its elements are read and written with shifts, not through a union
// with a value_t array: NVIDIA's compiler keeps such a union in local memory (the stack),
// which cost the tiled kernel half its speed on the H100 (README).
typedef struct {
    uint4 q[VECS];
} vec_t;

#define ELEM_BITS (8 * (int)sizeof(value_t))
#define ELEMS_PER_WORD (32 / ELEM_BITS)
#define ELEM_MASK ((1u << ELEM_BITS) - 1u)

inline uint vec_word(const vec_t* v, int w)
{
    const uint4 q = v->q[w / 4];
    return (w & 3) == 0 ? q.x : (w & 3) == 1 ? q.y : (w & 3) == 2 ? q.z : q.w;
}

inline void vec_set_word(vec_t* v, int w, uint value)
{
    if ((w & 3) == 0)
        v->q[w / 4].x = value;
    else if ((w & 3) == 1)
        v->q[w / 4].y = value;
    else if ((w & 3) == 2)
        v->q[w / 4].z = value;
    else
        v->q[w / 4].w = value;
}

// Element i (a constant once loops are unrolled).
inline uint vec_get(const vec_t* v, int i)
{
    return (vec_word(v, i / ELEMS_PER_WORD) >> (ELEM_BITS * (i % ELEMS_PER_WORD))) & ELEM_MASK;
}

inline void vec_set(vec_t* v, int i, uint value)
{
    const int w = i / ELEMS_PER_WORD, shift = ELEM_BITS * (i % ELEMS_PER_WORD);
    vec_set_word(v, w, (vec_word(v, w) & ~(ELEM_MASK << shift)) | ((value & ELEM_MASK) << shift));
}

// Elements packed into words: `e` holds VEC values below 2^ELEM_BITS.
inline vec_t vec_pack(const uint* e)
{
    vec_t v;
#pragma unroll
    for (int w = 0; w < VEC / ELEMS_PER_WORD; ++w) {
        uint word = 0;
#pragma unroll
        for (int k = 0; k < ELEMS_PER_WORD; ++k)
            word |= e[w * ELEMS_PER_WORD + k] << (ELEM_BITS * k);
        vec_set_word(&v, w, word);
    }
    return v;
}

inline __global const value_t* image_row(__global const uchar* base, int pitch, int y)
{
    return (__global const value_t*)(base + (size_t)y * (size_t)pitch);
}

// Element e of a row (which may lie outside it) after the border rule, as an element index.
inline int border_element(int e, int width)
{
    const int px = e >= 0 ? e / NCHAN : -((NCHAN - 1 - e) / NCHAN);
    return border_index(px, width) * NCHAN + (e - px * NCHAN);
}
#endif

#ifdef RADIUS
// An index i in [-RADIUS, n - 1 + RADIUS] (a row, or a pixel of a row) after the border rule,
// without a branch or a division: reflect-101 folds i back into the image RADIUS times, which is
// enough in that range, also for images of fewer than RADIUS pixels; the clamp keeps any other i
// (past the end of a row's last vector, never stored) inside the image. border_index's branch
// and modulo per row halved the tiled kernel's speed on the H100 (its loads were no longer
// issued together), and its modulo per element made the warps at a row's ends 5x slower.
inline int border_near(int i, int n)
{
#if BORDER == 2
#pragma unroll
    for (int k = 0; k < RADIUS; ++k) {
        const int d = (n - 1) - (i < 0 ? -i : i);
        i = (n - 1) - (d < 0 ? -d : d);
    }
#endif
    return clamp(i, 0, n - 1);
}

// border_element with border_near.
inline int border_element_near(int e, int width)
{
    const int px = e >= 0 ? e / NCHAN : -((NCHAN - 1 - e) / NCHAN);
    return border_near(px, width) * NCHAN + (e - px * NCHAN);
}

#define HALO (RADIUS * NCHAN)
#define SPAN (VEC + 2 * HALO)
#define TAPS (2 * RADIUS + 1)

#if BORDER == 0
// Interior mode: the frame keeps its values.
#define KEEP_FRAME(o, y) keep_frame(&(o), y, src, pitch, x0, rowElems, width, height)
inline void keep_frame(vec_t* o, int y, __global const uchar* src, int pitch, int x0,
                       int rowElems, int width, int height)
{
    if (y < RADIUS || y >= height - RADIUS || x0 < HALO || x0 + VEC + HALO > rowElems) {
        __global const value_t* row = image_row(src, pitch, y);
#pragma unroll
        for (int i = 0; i < VEC; ++i) { // (unrolled: i stays a constant, `o` in registers)
            const int px = (x0 + i) / NCHAN;
            if (x0 + i < rowElems &&
                (y < RADIUS || y >= height - RADIUS || px < RADIUS || px >= width - RADIUS))
                vec_set(o, i, row[x0 + i]);
        }
    }
}
#else
#define KEEP_FRAME(o, y)
#endif

// One row's share of a work-item, packed as loaded: its VEC elements (one uint4) and HALO
// elements on each side. Packed, a window of 2R + 1 rows costs few registers, so many
// work-items fit on a compute unit and keep many loads in flight. Where the neighbours on a
// side are whole 32-bit words (RGBA 8-bit: one pixel, 4 bytes; 16-bit RGBA: two words) they are
// kept and loaded as words, which lie 4-byte aligned beside the 16-byte vectors: a quarter of
// the loads of one value each.
#define HALO_IN_WORDS ((RADIUS * NCHAN * (DEPTH16 ? 16 : 8)) % 32 == 0)
#if HALO_IN_WORDS
#define HALO_WORDS (HALO / ELEMS_PER_WORD)
typedef struct {
    vec_t mid;
    uint left[HALO_WORDS], right[HALO_WORDS];
} rowpart_t;
#else
typedef struct {
    vec_t mid;
    value_t left[HALO], right[HALO];
} rowpart_t;
#endif

// Away from the row's ends: the vectors and the neighbours as they lie.
inline rowpart_t fetch_row_inside(__global const value_t* row, int x0)
{
    rowpart_t r;
#pragma unroll
    for (int j = 0; j < VECS; ++j)
        r.mid.q[j] = ((__global const uint4*)(row + x0))[j];
#if HALO_IN_WORDS
#pragma unroll
    for (int w = 0; w < HALO_WORDS; ++w) {
        r.left[w] = ((__global const uint*)(row + x0 - HALO))[w];
        r.right[w] = ((__global const uint*)(row + x0 + VEC))[w];
    }
#else
#pragma unroll
    for (int k = 0; k < HALO; ++k) {
        r.left[k] = row[x0 - HALO + k];
        r.right[k] = row[x0 + VEC + k];
    }
#endif
    return r;
}

// The first or last vector of a row: every element through the border rule.
inline rowpart_t fetch_row_edge(__global const value_t* row, int x0, int width)
{
    rowpart_t r;
    uint e[VEC];
#pragma unroll
    for (int k = 0; k < VEC; ++k)
        e[k] = row[border_element_near(x0 + k, width)];
    r.mid = vec_pack(e);
#if HALO_IN_WORDS
#pragma unroll
    for (int w = 0; w < HALO_WORDS; ++w) {
        uint lw = 0, rw = 0;
#pragma unroll
        for (int k = 0; k < ELEMS_PER_WORD; ++k) {
            const int i = w * ELEMS_PER_WORD + k;
            lw |= (uint)row[border_element_near(x0 - HALO + i, width)] << (ELEM_BITS * k);
            rw |= (uint)row[border_element_near(x0 + VEC + i, width)] << (ELEM_BITS * k);
        }
        r.left[w] = lw;
        r.right[w] = rw;
    }
#else
#pragma unroll
    for (int k = 0; k < HALO; ++k) {
        r.left[k] = row[border_element_near(x0 - HALO + k, width)];
        r.right[k] = row[border_element_near(x0 + VEC + k, width)];
    }
#endif
    return r;
}

inline bool row_inside(int x0, int rowElems) { return x0 >= HALO && x0 + VEC + HALO <= rowElems; }

#if NV_SHFL
// NVIDIA's OpenCL, packed 8-bit gray at R = 1 with one vector per work-item: the pixels beside a
// vector are the last byte of the vector before it and the first of the one after it, which the
// lanes beside it in its warp hold (the plan makes the work-group's x a multiple of 32, and a
// work-group is one strip of rows). Two shuffles per row replace two byte loads that each touch
// five cache lines per warp (the vector four); only the warp's first and last lanes load theirs.
// H200: 88 -> 91 % of copy at 32768^2 (RGBA, whose neighbours are words, lost 1.5 points).
#if NCHAN != 1 || DEPTH16 || VECS != 1 || RADIUS != 1
#error "NV_SHFL: packed 8-bit gray, one vector per work-item, R = 1 only"
#endif
inline uint shfl_up1(uint x)
{
    uint r;
    __asm__ volatile("shfl.sync.up.b32 %0, %1, 1, 0, 0xffffffff;" : "=r"(r) : "r"(x));
    return r;
}
inline uint shfl_down1(uint x)
{
    uint r;
    __asm__ volatile("shfl.sync.down.b32 %0, %1, 1, 31, 0xffffffff;" : "=r"(r) : "r"(x));
    return r;
}

// fetch_row_inside, loading the neighbours for the lanes at the warp's ends only.
inline rowpart_t fetch_row_warp(__global const value_t* row, int x0, uint lane)
{
    rowpart_t r;
    r.mid.q[0] = *(__global const uint4*)(row + x0);
    r.left[0] = lane == 0 ? row[x0 - 1] : 0;
    r.right[0] = lane == 31 ? row[x0 + VEC] : 0;
    return r;
}

// Every lane of the warp calls this (a shuffle needs them all); lanes `inside` the row that are
// not at the warp's ends take their neighbours from the lanes beside them.
inline void take_sides(rowpart_t* r, uint lane, bool inside)
{
    const uint before = shfl_up1(r->mid.q[0].w), after = shfl_down1(r->mid.q[0].x);
    if (inside && lane != 0)
        r->left[0] = (value_t)(before >> 24);
    if (inside && lane != 31)
        r->right[0] = (value_t)after;
}
#endif

#if HALO_IN_WORDS
#define HALO_ELEMENT(words, i)                                                                  \
    (((words)[(i) / ELEMS_PER_WORD] >> (ELEM_BITS * ((i) % ELEMS_PER_WORD))) & ELEM_MASK)
#else
#define HALO_ELEMENT(values, i) ((uint)(values)[i])
#endif

inline uint element(const rowpart_t* r, int i)
{
    return i < HALO ? HALO_ELEMENT(r->left, i)
           : i < HALO + VEC ? vec_get(&r->mid, i - HALO)
                            : HALO_ELEMENT(r->right, i - HALO - VEC);
}

// (s + 4) / 9 for s <= 2295, the SWAR paths' 3 x 3 sums, is bits 16..23 of s * 7282 + 29128
// (exact for every such s; the product stays below 2^24).
inline uint swar_div9_high(uint s) { return s * 7282u + 29128u; }

// One output word from the 3 x 3 sums of its pixels in two 16-bit lanes each: `se` holds bytes 0
// and 2, `so` bytes 1 and 3. NV_PRMT (NVIDIA's OpenCL): each quotient is byte 2 of its product,
// gathered with three byte permutes of inline PTX, fewer instructions than shifts and masks
// (-D PRMT_OFF, through HISTLAB_EXTRA_BUILD_OPTIONS, takes the shifts there too, to compare).
inline uint swar_pack9(uint se, uint so)
{
    const uint p0 = swar_div9_high(se & 0xFFFFu), p1 = swar_div9_high(so & 0xFFFFu);
    const uint p2 = swar_div9_high(se >> 16), p3 = swar_div9_high(so >> 16);
#if NV_PRMT && !defined(PRMT_OFF)
    uint lo, hi, word;
    __asm__("prmt.b32 %0, %1, %2, 0x5562;" : "=r"(lo) : "r"(p0), "r"(p1));
    __asm__("prmt.b32 %0, %1, %2, 0x5562;" : "=r"(hi) : "r"(p2), "r"(p3));
    __asm__("prmt.b32 %0, %1, %2, 0x5410;" : "=r"(word) : "r"(lo), "r"(hi));
    return word;
#else
    return (p0 >> 16) | ((p1 >> 8) & 0xFF00u) | (p2 & 0xFF0000u) | ((p3 << 8) & 0xFF000000u);
#endif
}

// base + y * pitch for a y and a pitch that are never negative, as unsigned 32-bit values: one
// wide multiply-add on NVIDIA's GPUs, where a signed y took five instructions per row.
inline __global uchar* row_address(__global uchar* base, int y, int pitch)
{
    return base + (size_t)(uint)y * (uint)pitch;
}

// A word's even bytes (0 and 2) and odd bytes (1 and 3) in two 16-bit lanes each. On NVIDIA's
// OpenCL the odd ones are one byte permute instead of a shift and a mask.
inline uint swar_even(uint w) { return w & 0x00FF00FFu; }
inline uint swar_odd(uint w)
{
#if NV_PRMT && !defined(PRMT_OFF)
    uint r;
    __asm__("prmt.b32 %0, %1, %2, 0x4341;" : "=r"(r) : "r"(w), "r"(0u));
    return r;
#else
    return (w >> 8) & 0x00FF00FFu;
#endif
}

// One output word from the vertical sums of its even and odd bytes and of the neighbouring
// words' lanes: `before` is the pixel left of the word, `after` the pixel right of it.
inline uint swar_word(uint ve, uint vo, uint before, uint after)
{
    return swar_pack9(ve + vo + ((vo << 16) | before),    // bytes 0 and 2
                      vo + ve + ((ve >> 16) | (after << 16))); // bytes 1 and 3
}

#if !PACKED
// The horizontal window sums of one row for the VEC elements starting at x0.
inline void row_sums(__global const value_t* row, int x0, int rowElems, int width, uint* h)
{
    uint v[SPAN];
    if (x0 >= HALO && x0 + VEC + HALO <= rowElems) {
        vec_t c;
#pragma unroll
        for (int j = 0; j < VECS; ++j)
            c.q[j] = ((__global const uint4*)(row + x0))[j];
#pragma unroll
        for (int k = 0; k < VEC; ++k)
            v[HALO + k] = vec_get(&c, k);
#pragma unroll
        for (int k = 0; k < HALO; ++k) {
            v[k] = row[x0 - HALO + k];
            v[HALO + VEC + k] = row[x0 + VEC + k];
        }
    } else { // the first or last vector of a row: every element through the border rule
#pragma unroll
        for (int k = 0; k < SPAN; ++k)
            v[k] = row[border_element_near(x0 - HALO + k, width)];
    }
#pragma unroll
    for (int i = 0; i < VEC; ++i) {
        uint s = 0;
#pragma unroll
        for (int d = 0; d < TAPS; ++d)
            s += v[i + d * NCHAN];
        h[i] = s;
    }
}

#if SWAR
// 8-bit gray, 3 x 3, away from the left and right edges: two pixels per 32-bit register
// (SIMD within a register). A word's even bytes and its odd bytes go to two registers of two
// 16-bit lanes; the three rows' lanes add up to at most 765, a row's three columns to 2295. The
// horizontal neighbours of a lane are the other register's lanes shifted by 16 bits, and
// (s + 4) / 9 = (s * 7282 + 29128) >> 16 exactly for every s <= 2295 (checked for all of them).
// About 5 operations per pixel instead of 10 or more; the GPU is then limited by memory again.
#define SWAR_WORDS (4 * VECS)
typedef struct {
    uint even[SWAR_WORDS], odd[SWAR_WORDS]; // each word's bytes, split in 16-bit lanes
    uint left, right; // the pixel before the vectors and the one after them
} swarrow_t;

inline swarrow_t swar_fetch(__global const uchar* row, int x0)
{
    swarrow_t r;
#pragma unroll
    for (int j = 0; j < VECS; ++j) {
        const uint4 q = ((__global const uint4*)(row + x0))[j];
        const uint w[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            r.even[4 * j + k] = swar_even(w[k]);
            r.odd[4 * j + k] = swar_odd(w[k]);
        }
    }
    r.left = row[x0 - 1];
    r.right = row[x0 + VEC];
    return r;
}


inline void swar_strip(__global const uchar* src, __global uchar* dst, int width, int height,
                       int pitch, int x0, int y0, int y1)
{
    const int rowElems = width; // one channel (for KEEP_FRAME)
    swarrow_t a = swar_fetch(src + (size_t)border_near(y0 - 1, height) * (size_t)pitch, x0);
    swarrow_t b = swar_fetch(src + (size_t)y0 * (size_t)pitch, x0);
    for (int y = y0; y < y1; ++y) {
        const swarrow_t c =
            swar_fetch(src + (size_t)border_near(y + 1, height) * (size_t)pitch, x0);
        uint ve[SWAR_WORDS], vo[SWAR_WORDS];
#pragma unroll
        for (int w = 0; w < SWAR_WORDS; ++w) {
            ve[w] = a.even[w] + b.even[w] + c.even[w];
            vo[w] = a.odd[w] + b.odd[w] + c.odd[w];
        }
        const uint vl = a.left + b.left + c.left, vr = a.right + b.right + c.right;
        uint ow[SWAR_WORDS];
#pragma unroll
        for (int w = 0; w < SWAR_WORDS; ++w)
            ow[w] = swar_word(ve[w], vo[w], w == 0 ? vl : vo[w - 1] >> 16,
                              w == SWAR_WORDS - 1 ? vr : ve[w + 1] & 0xFFFFu);
        vec_t o;
#pragma unroll
        for (int j = 0; j < VECS; ++j)
            o.q[j] = (uint4)(ow[4 * j], ow[4 * j + 1], ow[4 * j + 2], ow[4 * j + 3]);
        KEEP_FRAME(o, y);
#pragma unroll
        for (int j = 0; j < VECS; ++j)
            ((__global uint4*)(dst + (size_t)y * (size_t)pitch + (size_t)x0))[j] = o.q[j];
        a = b;
        b = c;
    }
}
#endif

// PACKED 0: the window's rows are kept as their horizontal sums (TAPS x VEC registers): less
// arithmetic per row, more registers, fewer work-items per compute unit.
__kernel void blur_tiled(__global const uchar* src, __global uchar* dst, int width, int height,
                         int pitch)
{
    const int x0 = (int)get_global_id(0) * VEC;
    const int rowElems = width * NCHAN;
    const int y0 = (int)get_global_id(1) * ROWS;
    if (x0 >= rowElems || y0 >= height)
        return;
    const int y1 = min(y0 + ROWS, height);
#if SWAR
    if (x0 >= HALO && x0 + VEC + HALO <= rowElems) {
        swar_strip(src, dst, width, height, pitch, x0, y0, y1);
        return;
    }
#endif
    uint h[TAPS][VEC];
#pragma unroll
    for (int k = 1; k < TAPS; ++k)
        row_sums(image_row(src, pitch, border_near(y0 - RADIUS - 1 + k, height)), x0, rowElems,
                 width, h[k]);
    for (int y = y0; y < y1; ++y) {
#pragma unroll
        for (int k = 0; k + 1 < TAPS; ++k)
#pragma unroll
            for (int i = 0; i < VEC; ++i)
                h[k][i] = h[k + 1][i];
        row_sums(image_row(src, pitch, border_near(y + RADIUS, height)), x0, rowElems, width,
                 h[TAPS - 1]);
        uint e[VEC];
#pragma unroll
        for (int i = 0; i < VEC; ++i) {
            uint s = 0;
#pragma unroll
            for (int k = 0; k < TAPS; ++k)
                s += h[k][i];
            e[i] = (s + (TAPS * TAPS) / 2) / (TAPS * TAPS);
        }
        vec_t o = vec_pack(e);
        KEEP_FRAME(o, y);
#pragma unroll
        for (int j = 0; j < VECS; ++j)
            ((__global uint4*)(dst + (size_t)y * (size_t)pitch + (size_t)x0 * sizeof(value_t)))[j] =
                o.q[j];
    }
}
#else
// Each work-item owns VEC elements (16 bytes) of a row and ROWS rows. It loads all ROWS + 2R
// rows of its window first, packed as loaded (one uint4 plus 2R * NCHAN neighbouring elements,
// from cache, per row), and only then sums them: ROWS + 2R independent loads in flight per
// work-item instead of one, which is what a GPU needs to hide the memory's latency (README:
// 3 x 3 on the H100).
__kernel void blur_tiled(__global const uchar* src, __global uchar* dst, int width, int height,
                         int pitch)
{
    const int x0 = (int)get_global_id(0) * VEC;
    const int rowElems = width * NCHAN;
    const int y0 = (int)get_global_id(1) * ROWS;
#if NV_SHFL
    // (the work-items past the row's end stay for the shuffles, and leave before storing)
    if (y0 >= height)
        return;
#else
    if (x0 >= rowElems || y0 >= height)
        return;
#endif
    const int y1 = min(y0 + ROWS, height);
    rowpart_t win[ROWS + 2 * RADIUS];
    // (rows past y1 - 1 + R are not used; one branch for all the rows keeps their loads together)
#define WINDOW_ROW(k) \
    image_row(src, pitch, border_near(min(y0 - RADIUS + (k), y1 - 1 + RADIUS), height))
#if NV_SHFL
    const uint lane = get_local_id(0) & 31u;
    const bool inside = row_inside(x0, rowElems);
    if (inside) {
#pragma unroll
        for (int k = 0; k < ROWS + 2 * RADIUS; ++k)
            win[k] = fetch_row_warp(WINDOW_ROW(k), x0, lane);
    } else if (x0 < rowElems) {
#pragma unroll
        for (int k = 0; k < ROWS + 2 * RADIUS; ++k)
            win[k] = fetch_row_edge(WINDOW_ROW(k), x0, width);
    }
#pragma unroll
    for (int k = 0; k < ROWS + 2 * RADIUS; ++k)
        take_sides(&win[k], lane, inside);
    if (x0 >= rowElems)
        return;
#else
    if (row_inside(x0, rowElems)) {
#pragma unroll
        for (int k = 0; k < ROWS + 2 * RADIUS; ++k)
            win[k] = fetch_row_inside(WINDOW_ROW(k), x0);
    } else {
#pragma unroll
        for (int k = 0; k < ROWS + 2 * RADIUS; ++k)
            win[k] = fetch_row_edge(WINDOW_ROW(k), x0, width);
    }
#endif
#undef WINDOW_ROW
    __global uchar* const out = dst + (size_t)x0 * sizeof(value_t); // this work-item's column
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
        const int y = y0 + r;
        if (y >= y1)
            break;
#if SWAR && NCHAN == 1
        // 8-bit gray, 3 x 3: each word's even and odd bytes in two registers of two 16-bit
        // lanes, the window's three rows added lane by lane (at most 765), then swar_word adds
        // each lane's horizontal neighbours (the bytes beside it, the pixels beside the vectors
        // at the ends) and divides by 9: about 5 operations a pixel against 10 or more, and far
        // fewer registers than a column sum per byte (the H200 build used 128 without it).
        uint ve[4 * VECS], vo[4 * VECS], vl = 0, vr = 0;
#pragma unroll
        for (int j = 0; j < 4 * VECS; ++j)
            ve[j] = vo[j] = 0;
#pragma unroll
        for (int k = 0; k < 3; ++k) {
#pragma unroll
            for (int j = 0; j < 4 * VECS; ++j) {
                const uint w = vec_word(&win[r + k].mid, j);
                ve[j] += swar_even(w);
                vo[j] += swar_odd(w);
            }
            vl += HALO_ELEMENT(win[r + k].left, 0);
            vr += HALO_ELEMENT(win[r + k].right, 0);
        }
        vec_t o;
#pragma unroll
        for (int j = 0; j < 4 * VECS; ++j)
            vec_set_word(&o, j,
                         swar_word(ve[j], vo[j], j == 0 ? vl : vo[j - 1] >> 16,
                                   j == 4 * VECS - 1 ? vr : ve[j + 1] & 0xFFFFu));
#elif SWAR
        // 8-bit RGBA, 3 x 3: a pixel's horizontal neighbours are the words beside its word, at
        // the same bytes. Each word's even and odd bytes in two registers of two 16-bit lanes;
        // three rows of three words add up to at most 2295 per lane, and swar_pack9 divides.
        uint ce[4 * VECS + 2], co[4 * VECS + 2]; // column sums: left word, the vectors, right
#pragma unroll
        for (int j = 0; j < 4 * VECS + 2; ++j) {
            ce[j] = co[j] = 0;
#pragma unroll
            for (int k = 0; k < 3; ++k) {
                const uint w = j == 0              ? win[r + k].left[0]
                               : j == 4 * VECS + 1 ? win[r + k].right[0]
                                                   : vec_word(&win[r + k].mid, j - 1);
                ce[j] += swar_even(w);
                co[j] += swar_odd(w);
            }
        }
        vec_t o;
#pragma unroll
        for (int j = 0; j < 4 * VECS; ++j) {
            const uint se = ce[j] + ce[j + 1] + ce[j + 2], so = co[j] + co[j + 1] + co[j + 2];
            vec_set_word(&o, j, swar_pack9(se, so));
        }
#else
        uint col[SPAN];
#pragma unroll
        for (int i = 0; i < SPAN; ++i) {
            uint s = 0;
#pragma unroll
            for (int k = 0; k < TAPS; ++k)
                s += element(&win[r + k], i);
            col[i] = s;
        }
        uint e[VEC];
#pragma unroll
        for (int i = 0; i < VEC; ++i) {
            uint s = 0;
#pragma unroll
            for (int d = 0; d < TAPS; ++d)
                s += col[i + d * NCHAN];
            e[i] = (s + (TAPS * TAPS) / 2) / (TAPS * TAPS);
        }
        vec_t o = vec_pack(e);
#endif
        KEEP_FRAME(o, y);
#pragma unroll
        for (int j = 0; j < VECS; ++j)
            ((__global uint4*)row_address(out, y, pitch))[j] = o.q[j];
    }
}
#endif // PACKED
#endif

#if defined(BORDER) && defined(PER)
#if COLSUM16
typedef ushort colsum_t;
#define STORE4(p, v) (*(__global ushort4*)(p) = convert_ushort4(v))
#else
typedef uint colsum_t;
#define STORE4(p, v) (*(__global uint4*)(p) = (v))
#endif
#if DEPTH16
typedef ulong acc_t; // row prefix sums of 16-bit column sums
#else
typedef uint acc_t; // prefix sums wrap, their differences (the window sums) are exact
#endif

// Large radii, pass 1: running column sums. Each work-item owns 4 elements of a row and slides
// down `rows` rows, adding the row that enters the window and taking away the one that leaves:
// two loads per row whatever the radius (the leaving row was read 2R + 1 rows ago: cached).
__kernel void blur_columns(__global const uchar* src, __global colsum_t* sums, int width,
                           int height, int pitch, int sumPitch, int radius, int rows)
{
    const int e0 = (int)get_global_id(0) * 4;
    const int rowElems = width * NCHAN;
    const int y0 = (int)get_global_id(1) * rows;
    if (e0 >= rowElems || y0 >= height)
        return;
    const int y1 = min(y0 + rows, height);
    uint4 s = (uint4)(0);
    for (int dy = -radius; dy <= radius; ++dy)
        s += LOAD4(image_row(src, pitch, border_index(y0 + dy, height)) + e0);
    for (int y = y0;;) {
        STORE4(sums + (size_t)y * (size_t)sumPitch + e0, s);
        if (++y >= y1)
            break;
        s += LOAD4(image_row(src, pitch, border_index(y + radius, height)) + e0);
        s -= LOAD4(image_row(src, pitch, border_index(y - radius - 1, height)) + e0);
    }
}

// Large radii, pass 2 for a CPU: one work-item per row, sliding along it (one sum added and one
// taken away per element): serial reads, which a CPU core's prefetchers follow.
__kernel void blur_rows_serial(__global const colsum_t* sums, int sumPitch,
                               __global const uchar* src, __global uchar* dst, int width,
                               int height, int pitch, int radius)
{
    const int y = (int)get_global_id(0);
    if (y >= height)
        return;
    __global const colsum_t* srow = sums + (size_t)y * (size_t)sumPitch;
    __global value_t* drow = (__global value_t*)(dst + (size_t)y * (size_t)pitch);
    const acc_t n = (acc_t)(2 * radius + 1) * (acc_t)(2 * radius + 1);
    acc_t s[NCHAN];
#pragma unroll
    for (int c = 0; c < NCHAN; ++c) {
        s[c] = 0;
        for (int d = -radius; d <= radius; ++d)
            s[c] += srow[border_index(d, width) * NCHAN + c];
    }
    for (int x = 0; x < width; ++x) {
#pragma unroll
        for (int c = 0; c < NCHAN; ++c) {
            value_t r = (value_t)((s[c] + n / 2) / n);
#if BORDER == 0
            if (y < radius || y >= height - radius || x < radius || x >= width - radius)
                r = image_row(src, pitch, y)[x * NCHAN + c];
#endif
            drow[x * NCHAN + c] = r;
            s[c] += srow[border_index(x + radius + 1, width) * NCHAN + c];
            s[c] -= srow[border_index(x - radius, width) * NCHAN + c];
        }
    }
}

// Large radii, pass 2: each work-group takes one row segment of PER x local-size elements, loads
// its column sums with R pixels on each side into local memory, turns them into per-channel
// prefix sums (a serial scan of one chunk per work-item, then a scan of the chunk totals), and
// each output is the difference of two prefix sums: the cost per pixel does not grow with R.
__kernel void blur_rows(__global const colsum_t* sums, int sumPitch, __global const uchar* src,
                        __global uchar* dst, int width, int height, int pitch, int radius,
                        __local acc_t* tile, __local acc_t* totals)
{
    const int lid = (int)get_local_id(0), ls = (int)get_local_size(0);
    const int y = (int)get_group_id(1);
    const int rowElems = width * NCHAN;
    const int seg = ls * PER;
    const int x0 = (int)get_group_id(0) * seg;
    const int halo = radius * NCHAN;
    const int len = seg + 2 * halo;
    __global const colsum_t* srow = sums + (size_t)y * (size_t)sumPitch;
    for (int k = lid; k < len; k += ls) {
        const int e = x0 - halo + k;
        tile[k] = srow[e >= 0 && e < rowElems ? e : border_element(e, width)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    const int chunk = ((len + ls - 1) / ls + NCHAN - 1) / NCHAN * NCHAN;
    const int c0 = min(lid * chunk, len), c1 = min(c0 + chunk, len);
    acc_t run[NCHAN];
#pragma unroll
    for (int c = 0; c < NCHAN; ++c)
        run[c] = 0;
    for (int k = c0; k < c1; k += NCHAN)
#pragma unroll
        for (int c = 0; c < NCHAN; ++c)
            if (k + c < c1) {
                run[c] += tile[k + c];
                tile[k + c] = run[c];
            }
#pragma unroll
    for (int c = 0; c < NCHAN; ++c)
        totals[lid * NCHAN + c] = run[c];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < ls; off <<= 1) { // inclusive scan of the chunk totals
        acc_t add[NCHAN];
#pragma unroll
        for (int c = 0; c < NCHAN; ++c)
            add[c] = lid >= off ? totals[(lid - off) * NCHAN + c] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int c = 0; c < NCHAN; ++c)
            totals[lid * NCHAN + c] += add[c];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid > 0)
        for (int k = c0; k < c1; k += NCHAN)
#pragma unroll
            for (int c = 0; c < NCHAN; ++c)
                if (k + c < c1)
                    tile[k + c] += totals[(lid - 1) * NCHAN + c];
    barrier(CLK_LOCAL_MEM_FENCE);

    const acc_t n = (acc_t)(2 * radius + 1) * (acc_t)(2 * radius + 1);
    __global value_t* drow = (__global value_t*)(dst + (size_t)y * (size_t)pitch);
    for (int i = lid; i < seg; i += ls) {
        const int e = x0 + i;
        if (e >= rowElems)
            break;
        // window of tile index i + halo: prefix at i + 2 halo minus prefix at i - NCHAN
        const acc_t s = tile[i + 2 * halo] - (i >= NCHAN ? tile[i - NCHAN] : 0);
        value_t r = (value_t)((s + n / 2) / n);
#if BORDER == 0
        const int px = e / NCHAN;
        if (y < radius || y >= height - radius || px < radius || px >= width - radius)
            r = image_row(src, pitch, y)[e];
#endif
        drow[e] = r;
    }
}
#endif
