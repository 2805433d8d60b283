// Bandwidth ceilings measured on the same device in the same run (clpeak's idea, our kernels).
// Metric: read kernels count bytes read; copy kernels count bytes read + bytes written.
// A ceiling is the best of a small family of these kernels (core/pipelines/bandwidth), so that
// no pipeline is judged against a load pattern that happens to suit the device badly:
//   read_bytes, copy_bytes  SERIAL 0: coalesced grid-stride loops with UNROLL loads in flight
//                           before they are used (a GPU's best when few groups are resident);
//                           SERIAL 1: each work-item reads one contiguous run (a CPU core's
//                           best: its prefetchers follow the run)
//   read_items, copy_items  one element per work-item, as many work-items as elements (what
//                           most pipelines launch: the hardware's scheduler fills the device)
// WIDTH: uints per element, 1, 2, 4, 8 or 16 (uint ... uint16; default 4, uint4: 16 bytes), as
// clpeak measures global memory bandwidth with each vector width; nelem counts elements.
// The read kernels store only when the data's fold equals a constant that random bytes almost
// never give: the loads stay alive (their values decide a store) and nearly nothing is written.

#ifndef WIDTH
#define WIDTH 4
#endif
#if WIDTH == 1
typedef uint vec_t;
#define FOLD(v) (v)
#elif WIDTH == 2
typedef uint2 vec_t;
#define FOLD(v) ((v).x ^ (v).y)
#elif WIDTH == 4
typedef uint4 vec_t;
#define FOLD(v) ((v).x ^ (v).y ^ (v).z ^ (v).w)
#elif WIDTH == 8
typedef uint8 vec_t;
#define FOLD(v) FOLD4((v).lo ^ (v).hi)
#elif WIDTH == 16
typedef uint16 vec_t;
#define FOLD(v) FOLD4((v).lo.lo ^ (v).lo.hi ^ (v).hi.lo ^ (v).hi.hi)
#else
#error WIDTH must be 1, 2, 4, 8 or 16
#endif
#define FOLD4(v) ((v).x ^ (v).y ^ (v).z ^ (v).w)
#ifndef UNROLL
#define UNROLL 4
#endif
#define SINK_MAGIC 0x9E3779B9u

// Every element e < nelem of this work-item, its value `SRC[e]` handed to USE(e, value): a
// contiguous run per work-item (SERIAL) or a grid-stride loop that has UNROLL loads in flight
// before the first value is used.
#if SERIAL
#define EACH_ELEMENT(SRC, USE)                                                                 \
    const uint gid = get_global_id(0), gsize = get_global_size(0);                             \
    const uint per = (nelem + gsize - 1) / gsize;                                              \
    const uint begin = min(gid * per, nelem), end = min(begin + per, nelem);                   \
    for (uint e = begin; e < end; ++e)                                                         \
        USE(e, SRC[e]);
#else
#define EACH_ELEMENT(SRC, USE)                                                                 \
    const uint gid = get_global_id(0), gsize = get_global_size(0);                             \
    uint e = gid;                                                                              \
    for (; e + (UNROLL - 1) * gsize < nelem; e += UNROLL * gsize) {                            \
        vec_t v[UNROLL];                                                                       \
        _Pragma("unroll") for (uint k = 0; k < UNROLL; ++k) v[k] = SRC[e + k * gsize];         \
        _Pragma("unroll") for (uint k = 0; k < UNROLL; ++k) USE(e + k * gsize, v[k]);          \
    }                                                                                          \
    for (; e < nelem; e += gsize)                                                              \
        USE(e, SRC[e]);
#endif

#define XOR_INTO_ACC(e, value) acc ^= (value)
#define STORE_TO_DST(e, value) dst[e] = (value)

__kernel void read_bytes(__global const vec_t* data, uint nelem, __global uint* sink)
{
    vec_t acc = (vec_t)(0);
    EACH_ELEMENT(data, XOR_INTO_ACC)
    const uint x = FOLD(acc);
    if (x == SINK_MAGIC)
        sink[0] = x;
}

__kernel void read_items(__global const vec_t* data, uint nelem, __global uint* sink)
{
    const uint gid = get_global_id(0);
    if (gid < nelem) {
        const uint x = FOLD(data[gid]);
        if (x == SINK_MAGIC)
            sink[0] = x;
    }
}

__kernel void copy_bytes(__global const vec_t* restrict src, uint nelem,
                         __global vec_t* restrict dst)
{
    EACH_ELEMENT(src, STORE_TO_DST)
}

__kernel void copy_items(__global const vec_t* restrict src, uint nelem,
                         __global vec_t* restrict dst)
{
    const uint gid = get_global_id(0);
    if (gid < nelem)
        dst[gid] = src[gid];
}
