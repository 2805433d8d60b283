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

__kernel void read_bytes(__global const vec_t* data, uint nelem, __global uint* sink)
{
    const uint gid = get_global_id(0), gsize = get_global_size(0);
    vec_t acc = (vec_t)(0);
#if SERIAL
    const uint per = (nelem + gsize - 1) / gsize;
    const uint begin = min(gid * per, nelem), end = min(begin + per, nelem);
    for (uint e = begin; e < end; ++e)
        acc ^= data[e];
#else
    uint e = gid;
    for (; e + (UNROLL - 1) * gsize < nelem; e += UNROLL * gsize) {
        vec_t v[UNROLL];
#pragma unroll
        for (uint k = 0; k < UNROLL; ++k)
            v[k] = data[e + k * gsize];
#pragma unroll
        for (uint k = 0; k < UNROLL; ++k)
            acc ^= v[k];
    }
    for (; e < nelem; e += gsize)
        acc ^= data[e];
#endif
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
    const uint gid = get_global_id(0), gsize = get_global_size(0);
#if SERIAL
    const uint per = (nelem + gsize - 1) / gsize;
    const uint begin = min(gid * per, nelem), end = min(begin + per, nelem);
    for (uint e = begin; e < end; ++e)
        dst[e] = src[e];
#else
    uint e = gid;
    for (; e + (UNROLL - 1) * gsize < nelem; e += UNROLL * gsize) {
        vec_t v[UNROLL];
#pragma unroll
        for (uint k = 0; k < UNROLL; ++k)
            v[k] = src[e + k * gsize];
#pragma unroll
        for (uint k = 0; k < UNROLL; ++k)
            dst[e + k * gsize] = v[k];
    }
    for (; e < nelem; e += gsize)
        dst[e] = src[e];
#endif
}

__kernel void copy_items(__global const vec_t* restrict src, uint nelem,
                         __global vec_t* restrict dst)
{
    const uint gid = get_global_id(0);
    if (gid < nelem)
        dst[gid] = src[gid];
}
