// Buffer reversal (the memory lab): out[j] = in[n - 1 - j] for every byte j < n.
// Metric: GB/s = (n bytes read + n bytes written) / median kernel time, for every kernel here.
//
// Every kernel has the same arguments: (in, out, nvec, tail), n = nvec * W + tail, where W is
// the kernel's vector width in bytes (1, 16 or 64) and tail = n mod W. Work-item i (or the
// vectors it owns) reverses input vector i, the W bytes at in + tail + i * W, into output
// vector nvec - 1 - i: the output vectors are always aligned, and so are the input vectors
// when tail is 0 (the reference text's case, and every benchmark size). The host builds the
// program with ALIGNED=1 for a kernel when tail is 0 and ALIGNED=0 otherwise; then the input
// vectors are assembled with vload16 from their unaligned addresses. The last `tail` bytes of
// the output, out[nvec * W + t] = in[tail - 1 - t], are written by the kernel itself
// (reverse_tail, one byte per work-item): no size needs a second kernel or padding.
//
// The reference text's four kernels ("OpenCL simple memory manipulation tests"):
//   reverse_char1            one char per work-item
//   reverse_char16           char16 loads, the reversal spelled out through sixteen temporaries
//   reverse_char16_swizzle   char16 loads reversed with one .sFEDCBA9876543210 swizzle
//   reverse_uint16_as_char4  uint16 loads (64 bytes): the words reversed with a swizzle, each
//                            word's bytes through as_char4(w).s3210
// HistLab's own:
//   reverse_uint4            one uint4 (16 bytes) per work-item: words reversed with .wzyx,
//                            each word's bytes swapped with two rotates and a bitselect (no
//                            byte vectors: a GPU keeps 32-bit registers)
//   reverse_uint4x4          the same, four uint4 per work-item strided by the global size
//                            (coalesced, four loads in flight before the first store)
//   reverse_uint4_serial     each work-item reverses one contiguous run of uint4 vectors (a
//                            CPU core's best: its prefetchers follow the run)

#ifndef ALIGNED
#define ALIGNED 1
#endif

// Input vector i of type T (W bytes), at in + tail + i * W.
#if ALIGNED
#define LOAD_CHAR16(i) (((__global const char16*)in)[i])
#define LOAD_UINT4(i) (((__global const uint4*)in)[i])
#define LOAD_UINT16(i) (((__global const uint16*)in)[i])
#else
#define LOAD_CHAR16(i) vload16((i), in + tail)
#define LOAD_UINT4(i) as_uint4(vload16((i), in + tail))
#define LOAD_UINT16(i)                                                                             \
    ((uint16)(LOAD_UINT4(4 * (i)), LOAD_UINT4(4 * (i) + 1), LOAD_UINT4(4 * (i) + 2),               \
              LOAD_UINT4(4 * (i) + 3)))
#endif

// The last `tail` bytes of the output: the first `tail` bytes of the input, reversed.
inline void reverse_tail(__global const char* in, __global char* out, uint body, uint tail)
{
    for (uint t = get_global_id(0); t < tail; t += get_global_size(0))
        out[body + t] = in[tail - 1 - t];
}

// The bytes of each 32-bit word reversed: rotate by 8 gives bytes (2 1 0 3), by 24 (0 3 2 1);
// bytes 3 and 1 come from the second, 2 and 0 from the first.
inline uint4 swap_bytes4(uint4 v)
{
    return bitselect(rotate(v, (uint4)(8u)), rotate(v, (uint4)(24u)), (uint4)(0xFF00FF00u));
}

__kernel void reverse_char1(__global const char* in, __global char* out, uint nvec, uint tail)
{
    const uint i = get_global_id(0);
    if (i < nvec)
        out[nvec - 1 - i] = in[i];
    reverse_tail(in, out, nvec, tail); // W = 1: tail is always 0
}

__kernel void reverse_char16(__global const char* in, __global char16* out, uint nvec, uint tail)
{
    const uint i = get_global_id(0);
    if (i < nvec) {
        const char16 v = LOAD_CHAR16(i);
        const char t0 = v.s0, t1 = v.s1, t2 = v.s2, t3 = v.s3, t4 = v.s4, t5 = v.s5, t6 = v.s6,
                   t7 = v.s7, t8 = v.s8, t9 = v.s9, tA = v.sA, tB = v.sB, tC = v.sC, tD = v.sD,
                   tE = v.sE, tF = v.sF;
        out[nvec - 1 - i] =
            (char16)(tF, tE, tD, tC, tB, tA, t9, t8, t7, t6, t5, t4, t3, t2, t1, t0);
    }
    reverse_tail(in, (__global char*)out, nvec * 16, tail);
}

__kernel void reverse_char16_swizzle(__global const char* in, __global char16* out, uint nvec,
                                     uint tail)
{
    const uint i = get_global_id(0);
    if (i < nvec)
        out[nvec - 1 - i] = LOAD_CHAR16(i).sFEDCBA9876543210;
    reverse_tail(in, (__global char*)out, nvec * 16, tail);
}

__kernel void reverse_uint16_as_char4(__global const char* in, __global uint16* out, uint nvec,
                                      uint tail)
{
    const uint i = get_global_id(0);
    if (i < nvec) {
        const uint16 v = LOAD_UINT16(i).sFEDCBA9876543210;
        uint16 r;
        r.s0 = as_uint(as_char4(v.s0).s3210);
        r.s1 = as_uint(as_char4(v.s1).s3210);
        r.s2 = as_uint(as_char4(v.s2).s3210);
        r.s3 = as_uint(as_char4(v.s3).s3210);
        r.s4 = as_uint(as_char4(v.s4).s3210);
        r.s5 = as_uint(as_char4(v.s5).s3210);
        r.s6 = as_uint(as_char4(v.s6).s3210);
        r.s7 = as_uint(as_char4(v.s7).s3210);
        r.s8 = as_uint(as_char4(v.s8).s3210);
        r.s9 = as_uint(as_char4(v.s9).s3210);
        r.sA = as_uint(as_char4(v.sA).s3210);
        r.sB = as_uint(as_char4(v.sB).s3210);
        r.sC = as_uint(as_char4(v.sC).s3210);
        r.sD = as_uint(as_char4(v.sD).s3210);
        r.sE = as_uint(as_char4(v.sE).s3210);
        r.sF = as_uint(as_char4(v.sF).s3210);
        out[nvec - 1 - i] = r;
    }
    reverse_tail(in, (__global char*)out, nvec * 64, tail);
}

__kernel void reverse_uint4(__global const char* in, __global uint4* out, uint nvec, uint tail)
{
    const uint i = get_global_id(0);
    if (i < nvec)
        out[nvec - 1 - i] = swap_bytes4(LOAD_UINT4(i).wzyx);
    reverse_tail(in, (__global char*)out, nvec * 16, tail);
}

__kernel void reverse_uint4x4(__global const char* in, __global uint4* out, uint nvec, uint tail)
{
    const uint gid = get_global_id(0), gsize = get_global_size(0);
    uint4 v[4];
    for (uint k = 0; k < 4; ++k) {
        const uint i = gid + k * gsize;
        v[k] = i < nvec ? LOAD_UINT4(i) : (uint4)(0);
    }
    for (uint k = 0; k < 4; ++k) {
        const uint i = gid + k * gsize;
        if (i < nvec)
            out[nvec - 1 - i] = swap_bytes4(v[k].wzyx);
    }
    reverse_tail(in, (__global char*)out, nvec * 16, tail);
}

__kernel void reverse_uint4_serial(__global const char* in, __global uint4* out, uint nvec,
                                   uint tail)
{
    const uint gid = get_global_id(0), gsize = get_global_size(0);
    const uint per = (nvec + gsize - 1) / gsize;
    const uint begin = min(gid * per, nvec), end = min(begin + per, nvec);
    for (uint i = begin; i < end; ++i)
        out[nvec - 1 - i] = swap_bytes4(LOAD_UINT4(i).wzyx);
    reverse_tail(in, (__global char*)out, nvec * 16, tail);
}
