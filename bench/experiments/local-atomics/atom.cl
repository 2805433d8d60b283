// Local-memory atomic throughput: each work-item adds 1 to COPIES copies of 256 bins (copy =
// local id % COPIES, bin-major as the histogram kernel lays them out) ITER x 4 times, the bins
// from a per-item LCG (4 bytes per step: random bins) or one fixed bin (SAME: every lane of a
// copy on one word).
__kernel void atoms(uint iters, __global uint* out)
{
    __local uint h[256 * COPIES];
    const uint lid = get_local_id(0), lsize = get_local_size(0);
    for (uint i = lid; i < 256 * COPIES; i += lsize)
        h[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint bank = lid % COPIES;
    uint x = get_global_id(0) * 2654435761u + 12345u;
    for (uint i = 0; i < iters; ++i) {
        x = x * 1664525u + 1013904223u;
#if SAME
        const uint y = 0x5A5A5A5Au ^ (x & 0u);
#else
        const uint y = x;
#endif
        atomic_add(&h[(y & 0xFFu) * COPIES + bank], 1u);
        atomic_add(&h[((y >> 8) & 0xFFu) * COPIES + bank], 1u);
        atomic_add(&h[((y >> 16) & 0xFFu) * COPIES + bank], 1u);
        atomic_add(&h[(y >> 24) * COPIES + bank], 1u);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint s = 0;
    for (uint i = lid; i < 256 * COPIES; i += lsize)
        s += h[i];
    atomic_add(out, s);
}
