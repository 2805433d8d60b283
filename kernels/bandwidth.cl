// Bandwidth ceilings measured on the same device in the same run (clpeak's idea, our kernels).
// Metric: read_bytes counts bytes read; copy_bytes counts bytes read + bytes written.
// SERIAL 0: coalesced grid-stride loads (a GPU's best); 1: each work-item reads one contiguous
// run (a CPU core's best: prefetchers follow it).
// WIDTH: uints per element, 1, 2, 4, 8 or 16 (uint ... uint16; default 4, uint4: 16 bytes), as
// clpeak measures global memory bandwidth with each vector width; nelem counts elements.

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
    for (; e + 3 * gsize < nelem; e += 4 * gsize) {
        const vec_t a = data[e], b = data[e + gsize], c = data[e + 2 * gsize],
                    d = data[e + 3 * gsize];
        acc ^= a ^ b ^ c ^ d;
    }
    for (; e < nelem; e += gsize)
        acc ^= data[e];
#endif
    const uint x = FOLD(acc);
    if (x == 0x9E3779B9u && nelem == 1u) // never true for a real run; keeps the loads alive
        sink[0] = x;
}

__kernel void copy_bytes(__global const vec_t* src, uint nelem, __global vec_t* dst)
{
    const uint gid = get_global_id(0), gsize = get_global_size(0);
#if SERIAL
    const uint per = (nelem + gsize - 1) / gsize;
    const uint begin = min(gid * per, nelem), end = min(begin + per, nelem);
    for (uint e = begin; e < end; ++e)
        dst[e] = src[e];
#else
    for (uint e = gid; e < nelem; e += gsize)
        dst[e] = src[e];
#endif
}
