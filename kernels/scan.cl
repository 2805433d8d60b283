// Scans: prefix sums of uint values, modulo 2^32 (uint arithmetic wraps).
// Metric: GB/s = (4 bytes read + 4 bytes written) x n / median kernel time, for every kernel
// here, whatever it really moves (reduce-then-scan reads the input twice: 12 bytes a value).
//
// Two families, one build each (core/scan.cpp assembles the options):
//
// SEGMENTED=1: per-segment exclusive scans, as in "Working groups in OpenCL 2.0": work-group g
// scans elements [g * SEGMENT, (g + 1) * SEGMENT) (the last segment may be shorter), each
// segment's sums restarting at 0. Launched with exactly WG items per group, one group per
// segment.
//   scan_segments_naive     each item sums its contiguous chunk serially, the chunk totals go to
//                           local memory, item 0 scans them serially, then each item writes its
//                           chunk's exclusive scan (reading the chunk a second time)
//   scan_segments_blelloch  tiles of 2 x WG values in local memory, Blelloch's up-sweep and
//                           down-sweep (GPU Gems 3, ch. 39) with its bank-conflict-avoiding
//                           padding, the running total carried from tile to tile
//   scan_segments_wgscan    tiles of WG values through work_group_scan_exclusive_add, plus the
//                           carry (WGSCAN=1, built with -cl-std=CL2.0; only where it works)
//
// SEGMENTED=0: whole-array scans (exclusive or inclusive), in tiles of WG x VPT uint4 vectors
// (WG * VPT * 4 values), each item owning VPT consecutive vectors of its tile. TRANSPOSE=1 (GPUs):
// loads and stores are coalesced uint4s, transposed through local memory; TRANSPOSE=0 (CPUs):
// each item reads and writes its own vectors directly (one contiguous run per item).
//   reduce_tiles + scan_tiles   reduce-then-scan: the sum of each tile; those sums scanned (by the
//                               same two kernels, recursively, on the host's side); then each
//                               tile scanned from its offset
//   scan_lookback               one pass (LOOKBACK=1): chained scan with decoupled look-back
//                               (Merrill & Garland 2016); tile ids from an atomic counter, each
//                               tile's status one 64-bit word (flag and value together) written
//                               with cl_khr_int64_base_atomics
// WARP=1 (NVIDIA GPUs only, where the compiler takes inline PTX): the group scan, the
// transposition and the look-back with warp shuffles, ballots and warp syncs (docs/scan.md).

#ifndef WG
#define WG 256
#endif
#ifndef SEGMENT
#define SEGMENT 65536
#endif
#ifndef VPT
#define VPT 4
#endif
#ifndef TRANSPOSE
#define TRANSPOSE 1
#endif
#ifndef WARP
#define WARP 0
#endif

#if WARP && (WG % 32 != 0)
#error "WARP=1 needs whole warps: WG a multiple of 32"
#endif
#if WARP
// NVIDIA GPUs only (the plan builds WARP=1 nowhere else): the 32 lanes of a warp exchange
// values through inline PTX, which NVIDIA's OpenCL compiler accepts and OpenCL 1.2 has no
// sub-group functions for there. A group's scan then needs one barrier instead of log2(WG) + 1,
// the transposition only warp syncs, and the look-back is one warp's loop.
inline void warp_sync(void) { __asm__ volatile("bar.warp.sync 0xffffffff;" ::: "memory"); }

// shfl_up(x, d): lane l gets lane l - d's x (its own below d); shfl_idx(x, l): lane l's x;
// shfl_xor(x, m): lane (this lane ^ m)'s x. The last operand but one is PTX's clamp.
#define DEFINE_SHFL(name, mode, clamp)                                                          \
    inline uint name(uint x, uint b)                                                           \
    {                                                                                          \
        uint r;                                                                                \
        __asm__ volatile("shfl.sync." mode ".b32 %0, %1, %2, " clamp ", 0xffffffff;"           \
                         : "=r"(r)                                                             \
                         : "r"(x), "r"(b));                                                    \
        return r;                                                                              \
    }
DEFINE_SHFL(shfl_up, "up", "0")
DEFINE_SHFL(shfl_idx, "idx", "31")
DEFINE_SHFL(shfl_xor, "bfly", "31")

// Bit l set where lane l's p is not zero.
inline uint ballot(uint p)
{
    uint r;
    __asm__ volatile("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %1, 0;\n\t"
                     "vote.sync.ballot.b32 %0, q, 0xffffffff;\n\t}"
                     : "=r"(r)
                     : "r"(p));
    return r;
}
#endif

#if SEGMENTED

// ---------------------------------------------------------------------------------------------
// Per-segment kernels.

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
scan_segments_naive(__global const uint* in, __global uint* out, uint n)
{
    __local uint totals[WG];
    const uint lid = get_local_id(0);
    const uint base = get_group_id(0) * SEGMENT;
    const uint len = min((uint)SEGMENT, n - base);
    const uint chunk = (len + WG - 1) / WG;
    const uint begin = min(lid * chunk, len), end = min(begin + chunk, len);
    uint sum = 0;
    for (uint i = begin; i < end; ++i)
        sum += in[base + i];
    totals[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        uint run = 0;
        for (uint i = 0; i < WG; ++i) {
            const uint t = totals[i];
            totals[i] = run;
            run += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint run = totals[lid];
    for (uint i = begin; i < end; ++i) {
        const uint v = in[base + i];
        out[base + i] = run;
        run += v;
    }
}

// GPU Gems 3, ch. 39: one padding word after every NUM_BANKS words, so that the strided
// accesses of the sweeps fall in different banks.
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(i) ((i) >> LOG_NUM_BANKS)
#define BLELLOCH_TILE (2 * WG)

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
scan_segments_blelloch(__global const uint* in, __global uint* out, uint n)
{
    __local uint temp[BLELLOCH_TILE + CONFLICT_FREE_OFFSET(BLELLOCH_TILE)];
    __local uint tileTotal;
    const uint lid = get_local_id(0);
    const uint base = get_group_id(0) * SEGMENT;
    const uint len = min((uint)SEGMENT, n - base);
    const uint ai = lid, bi = lid + WG;
    const uint bankOffsetA = CONFLICT_FREE_OFFSET(ai), bankOffsetB = CONFLICT_FREE_OFFSET(bi);
    uint carry = 0;
    for (uint tile = 0; tile < len; tile += BLELLOCH_TILE) {
        temp[ai + bankOffsetA] = tile + ai < len ? in[base + tile + ai] : 0u;
        temp[bi + bankOffsetB] = tile + bi < len ? in[base + tile + bi] : 0u;
        // Up-sweep (reduce): partial sums in place up the tree.
        uint offset = 1;
        for (uint d = BLELLOCH_TILE >> 1; d > 0; d >>= 1) {
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid < d) {
                uint a = offset * (2 * lid + 1) - 1, b = offset * (2 * lid + 2) - 1;
                a += CONFLICT_FREE_OFFSET(a);
                b += CONFLICT_FREE_OFFSET(b);
                temp[b] += temp[a];
            }
            offset *= 2;
        }
        // Item 0 wrote the root in the last step: it keeps the tile's total and clears it.
        if (lid == 0) {
            const uint last = BLELLOCH_TILE - 1 + CONFLICT_FREE_OFFSET(BLELLOCH_TILE - 1);
            tileTotal = temp[last];
            temp[last] = 0;
        }
        // Down-sweep: each node passes its value to its left child and adds the left child's
        // old value to its right child.
        for (uint d = 1; d < BLELLOCH_TILE; d *= 2) {
            offset >>= 1;
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid < d) {
                uint a = offset * (2 * lid + 1) - 1, b = offset * (2 * lid + 2) - 1;
                a += CONFLICT_FREE_OFFSET(a);
                b += CONFLICT_FREE_OFFSET(b);
                const uint t = temp[a];
                temp[a] = temp[b];
                temp[b] += t;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (tile + ai < len)
            out[base + tile + ai] = carry + temp[ai + bankOffsetA];
        if (tile + bi < len)
            out[base + tile + bi] = carry + temp[bi + bankOffsetB];
        carry += tileTotal;
        barrier(CLK_LOCAL_MEM_FENCE); // the next tile overwrites temp and tileTotal
    }
}

#if WGSCAN
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
scan_segments_wgscan(__global const uint* in, __global uint* out, uint n)
{
    __local uint tileTotal;
    const uint lid = get_local_id(0);
    const uint base = get_group_id(0) * SEGMENT;
    const uint len = min((uint)SEGMENT, n - base);
    uint carry = 0;
    for (uint tile = 0; tile < len; tile += WG) {
        const uint i = tile + lid;
        const uint v = i < len ? in[base + i] : 0u;
        const uint x = work_group_scan_exclusive_add(v);
        if (i < len)
            out[base + i] = carry + x;
        if (lid == WG - 1)
            tileTotal = x + v;
        barrier(CLK_LOCAL_MEM_FENCE);
        carry += tileTotal;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
#endif

#else // SEGMENTED

// ---------------------------------------------------------------------------------------------
// Whole-array kernels.

#define TILE_VECTORS (WG * VPT)
// One padding vector after each item's VPT vectors: the items' strided reads of their own
// vectors (VPT + 1 vectors apart) then fall in different banks.
#define STAGE_INDEX(p) ((p) + (p) / VPT)
#define STAGE_SIZE (TILE_VECTORS + WG)

// Values 4q .. 4q + 3, zeros past n (n < 2^31, so nothing overflows).
inline uint4 load_vector(__global const uint* in, uint q, uint n)
{
    const uint e = 4 * q;
    if (e + 3 < n)
        return ((__global const uint4*)in)[q]; // buffers are 16-byte aligned
    uint4 v = (uint4)(0u);
    if (e < n)
        v.x = in[e];
    if (e + 1 < n)
        v.y = in[e + 1];
    if (e + 2 < n)
        v.z = in[e + 2];
    return v;
}

inline void store_vector(__global uint* out, uint q, uint n, uint4 v)
{
    const uint e = 4 * q;
    if (e + 3 < n) {
        ((__global uint4*)out)[q] = v;
        return;
    }
    if (e < n)
        out[e] = v.x;
    if (e + 1 < n)
        out[e + 1] = v.y;
    if (e + 2 < n)
        out[e + 2] = v.z;
}

#if TRANSPOSE && WARP
// Each warp transposes its own 32 x VPT vectors of a tile: 512 contiguous bytes per load and a
// warp sync instead of a barrier. load_raw issues the loads (vector k of the lane's share, still
// in memory order across the warp), transpose_in turns them into the lane's VPT consecutive
// vectors; in between the loads are in flight.
inline uint warp_vector(uint k)
{
    return (get_local_id(0) & ~31u) * VPT + k * 32u + (get_local_id(0) & 31u);
}

inline void load_raw(__global const uint* in, uint n, uint tile, uint4* raw)
{
#pragma unroll
    for (uint k = 0; k < VPT; ++k)
        raw[k] = load_vector(in, tile * TILE_VECTORS + warp_vector(k), n);
}

inline void transpose_in(__local uint4* stage, const uint4* raw, uint4* a)
{
    warp_sync(); // every lane has read the stage's previous contents
#pragma unroll
    for (uint k = 0; k < VPT; ++k)
        stage[STAGE_INDEX(warp_vector(k))] = raw[k];
    warp_sync();
#pragma unroll
    for (uint k = 0; k < VPT; ++k)
        a[k] = stage[STAGE_INDEX(get_local_id(0) * VPT + k)];
}
#endif

// Tile `tile` into a[]: this item's VPT consecutive vectors, read coalesced and transposed
// through `stage`.
inline void load_tile(__global const uint* in, uint n, uint tile, __local uint4* stage, uint4* a)
{
#if TRANSPOSE && WARP
    uint4 raw[VPT];
    load_raw(in, n, tile, raw);
    transpose_in(stage, raw, a);
#elif TRANSPOSE
    const uint lid = get_local_id(0);
    const uint q0 = tile * TILE_VECTORS;
#pragma unroll
    for (uint k = 0; k < VPT; ++k) {
        const uint p = k * WG + lid;
        stage[STAGE_INDEX(p)] = load_vector(in, q0 + p, n);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (uint k = 0; k < VPT; ++k) {
        const uint p = lid * VPT + k;
        a[k] = stage[STAGE_INDEX(p)];
    }
#else
    const uint lid = get_local_id(0);
    const uint q0 = tile * TILE_VECTORS;
#pragma unroll
    for (uint k = 0; k < VPT; ++k)
        a[k] = load_vector(in, q0 + lid * VPT + k, n);
#endif
}

// The reverse of load_tile: a[] back through `stage`, stored coalesced.
inline void store_tile(__global uint* out, uint n, uint tile, __local uint4* stage, const uint4* a)
{
    const uint lid = get_local_id(0);
    const uint q0 = tile * TILE_VECTORS;
#if TRANSPOSE && WARP
    warp_sync(); // every lane has read its vectors of the load
#pragma unroll
    for (uint k = 0; k < VPT; ++k)
        stage[STAGE_INDEX(lid * VPT + k)] = a[k];
    warp_sync();
#pragma unroll
    for (uint k = 0; k < VPT; ++k)
        store_vector(out, q0 + warp_vector(k), n, stage[STAGE_INDEX(warp_vector(k))]);
#elif TRANSPOSE
    barrier(CLK_LOCAL_MEM_FENCE); // every item has read its vectors of the load
#pragma unroll
    for (uint k = 0; k < VPT; ++k) {
        const uint p = lid * VPT + k;
        stage[STAGE_INDEX(p)] = a[k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (uint k = 0; k < VPT; ++k) {
        const uint p = k * WG + lid;
        store_vector(out, q0 + p, n, stage[STAGE_INDEX(p)]);
    }
#else
#pragma unroll
    for (uint k = 0; k < VPT; ++k)
        store_vector(out, q0 + lid * VPT + k, n, a[k]);
#endif
}

inline uint private_sum(const uint4* a)
{
    uint s = 0;
#pragma unroll
    for (uint k = 0; k < VPT; ++k)
        s += a[k].x + a[k].y + a[k].z + a[k].w;
    return s;
}

// Exclusive scan of one value per item over the work-group (Kogge-Stone, double-buffered in
// `scratch`, 2 x WG words; with WARP, shuffles in each warp and WG / 32 words, one barrier);
// *total gets the sum of all. The caller puts a barrier between this and the next use of
// `scratch`.
inline uint group_exclusive_scan(uint x, __local uint* scratch, uint* total)
{
#if WARP
    // Each warp scans its lanes with shuffles; the warps' totals meet in `scratch` (one
    // barrier), and every item adds those of the warps before its own.
    const uint lid = get_local_id(0), lane = lid & 31u, warp = lid >> 5;
    uint incl = x;
#pragma unroll
    for (uint off = 1; off < 32u; off <<= 1) {
        const uint t = shfl_up(incl, off);
        if (lane >= off)
            incl += t;
    }
    if (lane == 31u)
        scratch[warp] = incl;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint before = 0, sum = 0;
#pragma unroll
    for (uint w = 0; w < WG / 32u; ++w) {
        const uint t = scratch[w];
        before += w < warp ? t : 0u;
        sum += t;
    }
    *total = sum;
    return before + incl - x;
#else
    const uint lid = get_local_id(0);
    uint pin = 0;
    scratch[lid] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = 1; off < WG; off <<= 1) {
        uint t = scratch[pin * WG + lid];
        if (lid >= off)
            t += scratch[pin * WG + lid - off];
        pin ^= 1u;
        scratch[pin * WG + lid] = t;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    *total = scratch[pin * WG + WG - 1];
    return scratch[pin * WG + lid] - x;
#endif
}

// a[] replaced by its scan, the first value starting from `run`.
inline void private_scan(uint4* a, uint run, uint inclusive)
{
#pragma unroll
    for (uint k = 0; k < VPT; ++k) {
        const uint4 v = a[k];
        uint4 r;
        if (inclusive) {
            r.x = run + v.x;
            r.y = r.x + v.y;
            r.z = r.y + v.z;
            r.w = r.z + v.w;
            run = r.w;
        } else {
            r.x = run;
            r.y = run + v.x;
            r.z = r.y + v.y;
            r.w = r.z + v.z;
            run = r.w + v.w;
        }
        a[k] = r;
    }
}

// sums[g] = the sum of tile g (wrapping).
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
reduce_tiles(__global const uint* in, uint n, __global uint* sums)
{
    __local uint scratch[WG];
    const uint lid = get_local_id(0);
    const uint q0 = get_group_id(0) * TILE_VECTORS;
    uint s = 0;
#pragma unroll
    for (uint k = 0; k < VPT; ++k) {
        const uint4 v = load_vector(in, q0 + k * WG + lid, n);
        s += v.x + v.y + v.z + v.w;
    }
    scratch[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = WG / 2; off > 0; off >>= 1) {
        if (lid < off)
            scratch[lid] += scratch[lid + off];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        sums[get_group_id(0)] = scratch[0];
}

// Each tile scanned, starting from offsets[g] when useOffsets is set (else 0). in == out is
// allowed: a tile is read whole before any of it is written.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
scan_tiles(__global const uint* in, __global uint* out, uint n, __global const uint* offsets,
           uint useOffsets, uint inclusive)
{
    __local uint4 stage[TRANSPOSE ? STAGE_SIZE : 1];
    __local uint scratch[2 * WG];
    const uint tile = get_group_id(0);
    uint4 a[VPT];
    load_tile(in, n, tile, stage, a);
    uint total;
    const uint prefix = group_exclusive_scan(private_sum(a), scratch, &total);
    private_scan(a, (useOffsets ? offsets[tile] : 0u) + prefix, inclusive);
    store_tile(out, n, tile, stage, a);
}

#if LOOKBACK
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

// A tile's status word: bits 0-31 the value, bit 32 "aggregate" (the tile's own sum), bit 33
// "inclusive prefix" (the sum of every value up to the end of the tile), bits 34-63 the epoch
// of the launch that wrote it. Words of older epochs read as "not yet": the host gives each
// launch a new epoch, so the words need no clearing between launches.
#define FLAG_AGGREGATE 1ul
#define FLAG_PREFIX 2ul

// Predecessors examined at once by the look-back: a window of LB_WINDOW tiles, read by as many
// items in parallel, then walked by item 0 in local memory.
#ifndef LB_WINDOW
#define LB_WINDOW 32
#endif
#define WINDOW (LB_WINDOW < WG ? LB_WINDOW : WG)

#if WARP
// The look-back by the first warp of a group (lanes 0..31 call it, the same arguments in each):
// publishes the tile's aggregate (tile 0: its prefix) at once, which is the decoupling; then its
// lanes read the 32 tiles before `from` at once, the ballot finds the nearest that holds no
// aggregate (a prefix, or not yet published), and the lanes up to it add their values with
// shuffles. A tile not yet published is read again from there; tiles before 0 read as a prefix
// of 0. Publishes the tile's inclusive prefix and returns its exclusive one.
inline uint warp_lookback(volatile __global ulong* status, uint tile, uint total, ulong stamp,
                          uint epoch)
{
    const uint lane = get_local_id(0);
    if (lane == 0)
        atom_xchg(&status[tile],
                  stamp | ((tile == 0 ? FLAG_PREFIX : FLAG_AGGREGATE) << 32) | total);
    uint sum = 0, from = tile;
    bool done = tile == 0;
    while (!done) { // the same in every lane
        uint flag = (uint)FLAG_PREFIX, value = 0;
        if (lane < from) {
            const ulong w = atom_add(&status[from - 1 - lane], 0ul); // an atomic read
            flag = (uint)(w >> 34) == epoch ? (uint)(w >> 32) & 3u : 0u;
            value = (uint)w;
        }
        const uint stop = ballot(flag != (uint)FLAG_AGGREGATE);
        const uint k = stop ? 31u - clz(stop & (0u - stop)) : 32u;
        uint part = lane < k || (lane == k && flag == (uint)FLAG_PREFIX) ? value : 0u;
#pragma unroll
        for (uint m = 16; m > 0; m >>= 1)
            part += shfl_xor(part, m);
        sum += part;
        done = k < 32u && shfl_idx(flag, k & 31u) == (uint)FLAG_PREFIX;
        from -= done ? 0u : k;
    }
    if (lane == 0 && tile != 0)
        atom_xchg(&status[tile], stamp | (FLAG_PREFIX << 32) | (sum + total));
    return sum;
}
#endif

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
scan_lookback(__global const uint* in, __global uint* out, uint n, volatile __global ulong* status,
              ulong firstTicket, uint epoch, uint inclusive)
{
    __local uint4 stage[TRANSPOSE ? STAGE_SIZE : 1];
    __local uint scratch[2 * WG];
#if WARP
    __local uint tileWord;
#else
    __local uint windowFlag[WINDOW], windowValue[WINDOW];
    __local uint tileWord, lookFrom, lookDone;
#endif
    const uint lid = get_local_id(0);
    // Tile ids in the order the groups start, so that every tile waits only on tiles that are
    // already running (forward progress without any assumption about the scheduler). The
    // ticket counter is the word after the tiles' (one per group); it only grows.
    if (lid == 0)
        tileWord = (uint)(atom_inc(&status[get_num_groups(0)]) - firstTicket);
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint tile = tileWord;
    uint4 a[VPT];
    load_tile(in, n, tile, stage, a);
    uint total; // the group scan's barriers: every item has read `tileWord` before it changes
    const uint prefix = group_exclusive_scan(private_sum(a), scratch, &total);
    const ulong stamp = (ulong)epoch << 34;
#if WARP
    if (lid < 32u) {
        const uint sum = warp_lookback(status, tile, total, stamp, epoch);
        if (lid == 0)
            tileWord = sum;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint exclusive = tileWord;
#else
    if (lid == 0) {
        // Publish at once (the decoupling): tile 0 its inclusive prefix, the others their
        // aggregate, which their successors can use before this tile knows its prefix.
        atom_xchg(&status[tile],
                  stamp | ((tile == 0 ? FLAG_PREFIX : FLAG_AGGREGATE) << 32) | total);
        tileWord = 0; // the exclusive prefix so far
        lookFrom = tile;
        lookDone = tile == 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Look back (the loop's condition is the same for every item): read the window of tiles
    // just before lookFrom, then add aggregates from the nearest on until a tile with its
    // inclusive prefix; a tile not yet published ends the walk and the window is read again
    // from there. Tiles before 0 read as a prefix of 0.
    while (!lookDone) {
        const uint from = lookFrom;
        if (lid < WINDOW) {
            uint flag = (uint)FLAG_PREFIX, value = 0;
            if (lid < from) {
                const ulong w = atom_add(&status[from - 1 - lid], 0ul); // an atomic read
                flag = (uint)(w >> 34) == epoch ? (uint)(w >> 32) & 3u : 0u;
                value = (uint)w;
            }
            windowFlag[lid] = flag;
            windowValue[lid] = value;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) {
            uint sum = tileWord, k = 0;
            for (; k < WINDOW; ++k) {
                const uint flag = windowFlag[k];
                if (flag == 0)
                    break; // not yet published: read again from here
                sum += windowValue[k];
                if (flag == (uint)FLAG_PREFIX) {
                    lookDone = 1;
                    break;
                }
            }
            tileWord = sum;
            lookFrom = from - k;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const uint exclusive = tileWord;
    if (lid == 0 && tile != 0)
        atom_xchg(&status[tile], stamp | (FLAG_PREFIX << 32) | (exclusive + total));
#endif
    private_scan(a, exclusive + prefix, inclusive);
    store_tile(out, n, tile, stage, a);
}

#endif // LOOKBACK

#endif // SEGMENTED
