// Large-bin histograms: 8-bit, 16-bit and float samples into any number of bins (1 ... 65,536),
// every method counting into the same extended bin space of BINS + 3 slots: the bins, then the
// samples below the range, above it, and NaN (never binned).
//
// Build options:
//   SAMPLE_T, SAMPLE_BYTES  uchar, 1 / ushort, 2 / float, 4: a sample and its bytes
//   IS_FLOAT   1 for float samples: bins from the float rule below, with the edge table
//   BIN_SHIFT  integer samples whose bin width (hi - lo) / bins is 2^BIN_SHIFT: a shift;
//   SPAN_SHIFT else, when hi - lo is 2^SPAN_SHIFT: (v - lo) * bins >> SPAN_SHIFT;
//              else (v - lo) * bins / (hi - lo) (< 2^32), the quotient guessed in float and
//              corrected to the exact one (an integer division costs dozens of instructions)
//   FULL_RANGE integer samples binned over the whole type, [0, 2^bits] (the default range):
//              with BIN_SHIFT a bin is one shift, with no range checks
//
// The bin rule is NumPy's histogram with uniform bins: bin i holds lo + i*w <= x < lo + (i+1)*w,
// the last bin also holds x == hi; x < lo or x > hi is out of range; NaN apart.
// Floats: NumPy's own steps for float32 data, in float32 as NumPy does them (its edges are
// float32 there): keep lo <= x <= hi; guess i = (int)((x - lo) / (hi - lo) * bins), with a
// correctly rounded division (built with -cl-fp32-correctly-rounded-divide-sqrt); i == bins ->
// bins - 1; one step down if x < edges[i]; then one step up if x >= edges[i + 1], except in the
// last bin. `edges` holds NumPy's float32 edges (bins + 1 floats).

#define SLOT_BELOW (bins)
#define SLOT_ABOVE (bins + 1)
#define SLOT_NAN (bins + 2)

typedef struct {
    uint bins; // number of bins
    uint lo;   // integers: the range's low end
    uint span; // integers: hi - lo (<= 65,536)
    uint hiInt; // integers: the highest value in range (hi itself, last bin closed)
    float loF;   // floats: lo as float32
    float hiF;   // floats: hi as float32
    float denom; // floats: hi - lo (computed in double) as float32
    float binsF; // floats: bins as float32
    float invSpan; // integers: 1 / (hi - lo), for the quotient's first guess
    uint pad[3];
} BinParams;

inline uint binOf(SAMPLE_T x, const BinParams p, __global const float* edges) {
    const uint bins = p.bins;
#if IS_FLOAT
    if (isnan(x))
        return SLOT_NAN;
    if (x < p.loF)
        return SLOT_BELOW;
    if (x > p.hiF)
        return SLOT_ABOVE;
    int i = (int)(((x - p.loF) / p.denom) * p.binsF);
    if (i >= (int)bins)
        i = (int)bins - 1;
    if (x < edges[i])
        --i;
    if (i != (int)bins - 1 && x >= edges[i + 1])
        ++i;
    return (uint)i;
#elif defined(FULL_RANGE) && defined(BIN_SHIFT)
    return (uint)x >> BIN_SHIFT; // every value of the type is in range, below the closed end
#else
    const uint v = (uint)x;
    if (v < p.lo)
        return SLOT_BELOW;
    if (v > p.hiInt)
        return SLOT_ABOVE;
    const uint d = v - p.lo;
    if (d >= p.span)
        return bins - 1; // v == hi: the last bin is closed
#if defined(BIN_SHIFT)
    return d >> BIN_SHIFT;
#elif defined(SPAN_SHIFT)
    return (d * bins) >> SPAN_SHIFT;
#else
    // d < span, so the quotient is at most bins - 1 and (q + 1) * span <= bins * span < 2^32
    // (bins * span == 2^32 only for 65,536 bins over 65,536 values: BIN_SHIFT).
    const uint num = d * bins;
    uint q = min((uint)((float)num * p.invSpan), bins - 1);
    if (q * p.span > num)
        --q;
    else if ((q + 1) * p.span <= num)
        ++q;
    return q;
#endif
#endif
}

// Calls BODY(x) for every sample this work-item owns: whole uint4 vectors strided by the global
// size (coalesced), then the tail after the last whole vector, one sample per work-item.
#define SAMPLES_PER_VEC (16u / SAMPLE_BYTES)
// READ_WORDS(w, data, k) reads uint4 vector k of `data` as four words w[4]; SAMPLE_OF(w, j)
// takes its sample j out with a shift. NVIDIA's compiler did worse with the same read viewed as a
// uchar16 indexed like an array: 58 registers against 26 in joint_runs16, which ran 1.49x slower
// on smooth 8-bit pairs (H200, 2026-11-26).
#define READ_WORDS(name, data, k)                                                              \
    const uint4 name##Vec = ((__global const uint4*)(data))[k];                                \
    const uint name[4] = {name##Vec.x, name##Vec.y, name##Vec.z, name##Vec.w};
#if IS_FLOAT
#define SAMPLE_OF(w, j) as_float((w)[(j)])
#elif SAMPLE_BYTES == 2
#define SAMPLE_OF(w, j) ((ushort)((w)[(j) / 2] >> (16 * ((j) % 2))))
#else
#define SAMPLE_OF(w, j) ((uchar)((w)[(j) / 4] >> (8 * ((j) % 4))))
#endif

#define FOR_EACH_SAMPLE(data, n, first, stride, BODY)                                         \
    {                                                                                          \
        const uint nvec = (n) / SAMPLES_PER_VEC;                                               \
        for (uint k = (first); k < nvec; k += (stride)) {                                      \
            READ_WORDS(w, data, k)                                                             \
            _Pragma("unroll") for (uint j = 0; j < SAMPLES_PER_VEC; ++j) {                    \
                const SAMPLE_T x = SAMPLE_OF(w, j);                                            \
                BODY;                                                                          \
            }                                                                                  \
        }                                                                                      \
        for (uint k = nvec * SAMPLES_PER_VEC + (first); k < (n); k += (stride)) {              \
            const SAMPLE_T x = (data)[k];                                                      \
            BODY;                                                                              \
        }                                                                                      \
    }

// Global atomics: every sample one atomic increment of its bin in the global histogram.
__kernel void hist_global(__global const SAMPLE_T* data, uint n, BinParams p,
                          __global const float* edges, __global uint* hist) {
    const uint gid = get_global_id(0), gsz = get_global_size(0);
    FOR_EACH_SAMPLE(data, n, gid, gsz, atomic_inc(&hist[binOf(x, p, edges)]))
}

// Slices: the extended slots are cut into `passes` slices of `slice` slots (the last may be
// shorter); work-group g counts slice g % passes over the data of walker g / passes. The groups
// of one walker are neighbours in the launch, so they read the same data at about the same time
// and all but the first find it in L2: the data comes from memory about once however many
// slices there are.
#define SLICE_OF_GROUP() SLICE_OF_GROUP_OF(p.bins + 3)
#define SLICE_OF_GROUP_OF(slotCount)                                                           \
    const uint slots = (slotCount);                                                            \
    const uint first = (get_group_id(0) % passes) * slice;                                     \
    const uint here = min(slice, slots - first);                                               \
    const uint walker = get_group_id(0) / passes;                                              \
    const uint walkers = get_num_groups(0) / passes;

// Clears `count` local counters, then waits for the whole work-group.
inline void clearLocal(__local uint* lh, uint count) {
    for (uint i = get_local_id(0); i < count; i += get_local_size(0))
        lh[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
}

// After the whole work-group has counted: adds the sum over the `copies` local copies of each
// of the `here` slots to the global histogram at `first`.
inline void mergeCopies(__local uint* lh, uint here, uint copies, uint first,
                        __global uint* hist) {
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_local_id(0); i < here; i += get_local_size(0)) {
        uint sum = 0;
        for (uint c = 0; c < copies; ++c)
            sum += lh[c * here + i];
        if (sum)
            atomic_add(&hist[first + i], sum);
    }
}

// Local sub-histograms of one slice: `copies` copies of it in local memory (work-item l counts
// into copy l % copies, so neighbours rarely collide), merged over the copies and added to the
// global histogram at the end. With the whole extended space as one slice this is the "local"
// method; with several slices that fit local memory it is "multipass".
__kernel void hist_local(__global const SAMPLE_T* data, uint n, BinParams p,
                         __global const float* edges, __global uint* hist, uint slice, uint passes,
                         uint copies, __local uint* lh) {
    SLICE_OF_GROUP()
    const uint lid = get_local_id(0), lsz = get_local_size(0);
    clearLocal(lh, here * copies);
    __local uint* mine = lh + (lid % copies) * here;
    FOR_EACH_SAMPLE(data, n, walker * lsz + lid, walkers * lsz, {
        const uint b = binOf(x, p, edges) - first; // wraps above `here` when below first
        if (b < here)
            atomic_inc(&mine[b]);
    })
    mergeCopies(lh, here, copies, first, hist);
}

// 16-bit local counters, two to a 32-bit word, over one slice (twice the slots per slice of
// hist_local). A counter must not pass 65,535. The work-group counts in rounds of at most
// 65,536 - LOCAL16_KEEP samples (`perItem` samples a work-item, a multiple of SAMPLES_PER_VEC),
// and after each round moves every counter that reached LOCAL16_KEEP to the global histogram
// (spill16): each round starts with every counter below LOCAL16_KEEP and adds at most
// 65,536 - LOCAL16_KEEP to any one, so none wraps. Only hot counters cost a global atomic while
// counting; the rest are added once, when the work-group is done. Walker w takes the
// rounds w, w + walkers, ... of whole vectors; walker 0 also the tail after the last whole vector.
// Moves every counter that reached `keep` to the global histogram and clears it: after a round
// with LOCAL16_KEEP (hot counters only), at the end with 1 (every non-zero counter). `keep` is a
// power of two.
inline void spill16(__local uint* lh, uint here, uint first, __global uint* hist, uint keep) {
    const uint hot = (0xFFFFu & ~(keep - 1u)) * 0x10001u; // a half at or above keep
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_local_id(0); i < (here + 1) / 2; i += get_local_size(0)) {
        const uint w = lh[i];
        if (w & hot) {
            uint left = w;
            if ((w & 0xFFFFu) >= keep) {
                atomic_add(&hist[first + 2 * i], w & 0xFFFFu);
                left &= 0xFFFF0000u;
            }
            if ((w >> 16) >= keep) {
                atomic_add(&hist[first + 2 * i + 1], w >> 16);
                left &= 0xFFFFu;
            }
            lh[i] = left;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

// `count` more of slot s (of this group's slice) in the 16-bit counters.
inline void add16(__local uint* lh, uint s, uint count) {
    atomic_add(&lh[s >> 1], count << ((s & 1u) * 16u));
}

// One count of `slot` in local16 (a slot outside this group's slice wraps above `here` and is
// skipped); no run is held back.
#define PLAIN_BEGIN
#define PLAIN_COUNT(slot)                                                                      \
    {                                                                                          \
        const uint s16 = (slot) - first;                                                       \
        if (s16 < here)                                                                        \
            add16(lh, s16, 1u);                                                                \
    }
#define PLAIN_END

// runs16: a work-item holds back a run of equal slots and adds it with one atomic when the slot
// changes and at the end of each round (samples of other slices do not break a run). On skewed
// data most samples repeat the one before, and a warp's atomics on one counter serialise; on
// random data the held-back run only costs instructions.
#define RUN_BEGIN uint run = 0, runCount = 0;
#define RUN_COUNT(slot)                                                                        \
    {                                                                                          \
        const uint s16 = (slot) - first;                                                       \
        if (s16 == run)                                                                        \
            ++runCount;                                                                        \
        else if (s16 < here) {                                                                 \
            add16(lh, run, runCount);                                                          \
            run = s16;                                                                         \
            runCount = 1;                                                                      \
        }                                                                                      \
    }
#define RUN_END                                                                                \
    {                                                                                          \
        add16(lh, run, runCount);                                                              \
        runCount = 0;                                                                          \
    }

// The rounds of the 16-bit kernels: COUNT_VECTOR(k, COUNT) counts whole vector k,
// COUNT_TAIL(k, COUNT) the sample or pair k after the last whole vector, each slot with COUNT
// (PLAIN_ or RUN_, with its BEGIN and END).
#define LOCAL16_ROUNDS(COUNT_VECTOR, COUNT_TAIL, BEGIN, COUNT, END)                            \
    {                                                                                          \
        const uint lid = get_local_id(0), lsz = get_local_size(0);                             \
        const uint nvec = n / SAMPLES_PER_VEC;                                                 \
        const uint vecPerRound = (perItem / SAMPLES_PER_VEC) * lsz;                            \
        const uint rounds = (nvec + vecPerRound - 1) / vecPerRound;                            \
        for (uint i = lid; i < (here + 1) / 2; i += lsz)                                       \
            lh[i] = 0;                                                                         \
        barrier(CLK_LOCAL_MEM_FENCE);                                                          \
        BEGIN                                                                                  \
        for (uint r = walker; r < rounds; r += walkers) {                                      \
            const uint end = min(nvec, (r + 1) * vecPerRound);                                 \
            for (uint k = r * vecPerRound + lid; k < end; k += lsz)                            \
                COUNT_VECTOR(k, COUNT);                                                        \
            END                                                                                \
            spill16(lh, here, first, hist, LOCAL16_KEEP);                                      \
        }                                                                                      \
        if (walker == 0) {                                                                     \
            for (uint k = nvec * SAMPLES_PER_VEC + lid; k < n; k += lsz)                       \
                COUNT_TAIL(k, COUNT);                                                          \
            END                                                                                \
        }                                                                                      \
        spill16(lh, here, first, hist, 1u);                                                    \
    }

#define HIST16_VECTOR(k, COUNT)                                                                \
    {                                                                                          \
        READ_WORDS(w, data, k)                                                                 \
        _Pragma("unroll") for (uint j = 0; j < SAMPLES_PER_VEC; ++j)                          \
            COUNT(binOf(SAMPLE_OF(w, j), p, edges))                                            \
    }
#define HIST16_TAIL(k, COUNT) COUNT(binOf(data[k], p, edges))
#define HIST16_ARGS                                                                            \
    __global const SAMPLE_T *data, uint n, BinParams p, __global const float *edges,           \
        __global uint *hist, uint slice, uint passes, uint perItem, __local uint *lh

__kernel void hist_local16(HIST16_ARGS) {
    SLICE_OF_GROUP()
    LOCAL16_ROUNDS(HIST16_VECTOR, HIST16_TAIL, PLAIN_BEGIN, PLAIN_COUNT, PLAIN_END)
}

__kernel void hist_runs16(HIST16_ARGS) {
    SLICE_OF_GROUP()
    LOCAL16_ROUNDS(HIST16_VECTOR, HIST16_TAIL, RUN_BEGIN, RUN_COUNT, RUN_END)
}

// Method 2 of Shams & Kennedy: every work-item its own sub-histogram of the extended space in
// global memory (a B x slots matrix, row t for work-item t), counted with plain increments --
// no two work-items ever touch the same counter -- then reduced over the rows by reduce_rows.
__kernel void hist_private(__global const SAMPLE_T* data, uint n, BinParams p,
                           __global const float* edges, __global uint* rows) {
    const uint gid = get_global_id(0), gsz = get_global_size(0);
    __global uint* mine = rows + (size_t)gid * (p.bins + 3);
    FOR_EACH_SAMPLE(data, n, gid, gsz, mine[binOf(x, p, edges)] += 1)
}

// Method 1 of Shams & Kennedy: a software atomic increment. Each warp (32 consecutive work-items
// of a work-group) has its own sub-histogram row in global memory; a work-item writes the count
// + 1 tagged with its lane in the top 5 bits and retries until it reads its own tagged value
// back. Correct only where a warp's 32 work-items run in lock-step (one of the colliding writes
// wins, the others see it and retry); where they do not, an update can be lost -- run as
// written, its mismatch count is the lesson. Counts live in the low 27 bits (the run keeps each
// warp under 2^27 samples); reduce_rows masks the tags away.
inline void taggedIncrement(volatile __global uint* c, uint tag) {
    uint v;
    do {
        v = (((*c) & 0x07FFFFFFu) + 1u) | tag;
        *c = v;
    } while (*c != v);
}

__kernel void hist_tagged(__global const SAMPLE_T* data, uint n, BinParams p,
                          __global const float* edges, __global uint* rows) {
    const uint gid = get_global_id(0), gsz = get_global_size(0);
    const uint tag = (get_local_id(0) & 31u) << 27;
    __global uint* warpRow = rows + (size_t)(gid / 32u) * (p.bins + 3);
    FOR_EACH_SAMPLE(data, n, gid, gsz, taggedIncrement(warpRow + binOf(x, p, edges), tag))
}

// hist[s] = the sum over rows r of rows[r * slots + s] & mask, one work-item per slot (reading
// down a column: neighbouring work-items read neighbouring counters).
__kernel void reduce_rows(__global const uint* rows, uint nrows, uint slots, uint mask,
                          __global uint* hist) {
    const uint s = get_global_id(0);
    if (s >= slots)
        return;
    uint sum = 0;
    for (uint r = 0; r < nrows; ++r)
        sum += rows[(size_t)r * slots + s] & mask;
    hist[s] = sum;
}

// Joint histograms of two planes a and b (n samples each) and, built with JOINT_MASK, a mask
// (one byte per pair, non-zero = counted; without it every pair counts and `mask` is not read):
// a pair counts in cell i * pb.bins + j when a's value is in bin i and b's in bin j, else in the
// one "left out" slot after the cells. The mask is a build option rather than an argument so
// that the unmasked count carries no mask at all: as an argument it cost joint_runs16 10 % on
// the H200 (2026-11-26).
#if JOINT_MASK
#if SAMPLE_BYTES == 1
#define MASK_READ(k) const uchar16 sm = vload16((k), mask);
#elif SAMPLE_BYTES == 2
#define MASK_READ(k) const uchar8 sm = vload8((k), mask);
#else
#define MASK_READ(k) const uchar4 sm = vload4((k), mask);
#endif
#define MASK_AT(j) (((const uchar*)&sm)[j])
#define MASK_OF_PAIR(k) mask[k]
#else
#define MASK_READ(k)
#define MASK_AT(j) 1
#define MASK_OF_PAIR(k) 1
#endif

inline uint jointSlot(SAMPLE_T x, SAMPLE_T y, uchar m, const BinParams pa, const BinParams pb,
                      __global const float* ea, __global const float* eb) {
    const uint i = binOf(x, pa, ea), j = binOf(y, pb, eb);
#if defined(FULL_RANGE) && defined(BIN_SHIFT) && !IS_FLOAT
    return m ? i * pb.bins + j : pa.bins * pb.bins; // i and j are bins: no range to leave
#else
    return (m && i < pa.bins && j < pb.bins) ? i * pb.bins + j : pa.bins * pb.bins;
#endif
}

// Calls BODY(slot) for each pair of vector k of a and b (SAMPLES_PER_VEC pairs). The loop is
// unrolled on request: NVIDIA's compiler left it rolled in joint_runs16, and unrolling made that
// kernel 1.3x faster on the H100 (2026-11-26; it had unrolled the 1-D loops by itself).
#define PAIR_VECTOR(k, BODY)                                                                   \
    {                                                                                          \
        READ_WORDS(wa, a, k)                                                                   \
        READ_WORDS(wb, b, k)                                                                   \
        MASK_READ(k)                                                                           \
        _Pragma("unroll") for (uint j = 0; j < SAMPLES_PER_VEC; ++j) {                        \
            const uint slot =                                                                  \
                jointSlot(SAMPLE_OF(wa, j), SAMPLE_OF(wb, j), MASK_AT(j), pa, pb, ea, eb);     \
            BODY;                                                                              \
        }                                                                                      \
    }
// The slot of the pair k after the last whole vector.
#define PAIR_SLOT(k) jointSlot(a[k], b[k], MASK_OF_PAIR(k), pa, pb, ea, eb)

// Calls BODY(slot) for every pair this work-item owns, as FOR_EACH_SAMPLE.
#define FOR_EACH_PAIR(first, stride, BODY)                                                     \
    {                                                                                          \
        const uint nvec = n / SAMPLES_PER_VEC;                                                 \
        for (uint k = (first); k < nvec; k += (stride))                                        \
            PAIR_VECTOR(k, BODY)                                                               \
        for (uint k = nvec * SAMPLES_PER_VEC + (first); k < n; k += (stride)) {                \
            const uint slot = PAIR_SLOT(k);                                                    \
            BODY;                                                                              \
        }                                                                                      \
    }

#define JOINT_ARGS                                                                             \
    __global const SAMPLE_T *a, __global const SAMPLE_T *b, __global const uchar *mask,        \
        uint n, BinParams pa, BinParams pb, __global const float *ea,            \
        __global const float *eb
#define JOINT_SLOTS (pa.bins * pb.bins + 1)

__kernel void joint_global(JOINT_ARGS, __global uint* hist) {
    FOR_EACH_PAIR(get_global_id(0), get_global_size(0), atomic_inc(&hist[slot]))
}

// Local copies of a slice of the cells (and the left-out slot), slices side by side, as
// hist_local: one slice of all of them with copies is "local", several slices "multipass".
__kernel void joint_local(JOINT_ARGS, __global uint* hist, uint slice, uint passes, uint copies,
                          __local uint* lh) {
    SLICE_OF_GROUP_OF(JOINT_SLOTS)
    const uint lid = get_local_id(0), lsz = get_local_size(0);
    clearLocal(lh, here * copies);
    __local uint* mine = lh + (lid % copies) * here;
    FOR_EACH_PAIR(walker * lsz + lid, walkers * lsz, {
        const uint s = slot - first;
        if (s < here)
            atomic_inc(&mine[s]);
    })
    mergeCopies(lh, here, copies, first, hist);
}

// 16-bit local counters over a slice of the cells, in rounds, as hist_local16 and hist_runs16.
#define JOINT16_VECTOR(k, COUNT) PAIR_VECTOR(k, COUNT(slot))
#define JOINT16_TAIL(k, COUNT) COUNT(PAIR_SLOT(k))

__kernel void joint_local16(JOINT_ARGS, __global uint* hist, uint slice, uint passes,
                            uint perItem, __local uint* lh) {
    SLICE_OF_GROUP_OF(JOINT_SLOTS)
    LOCAL16_ROUNDS(JOINT16_VECTOR, JOINT16_TAIL, PLAIN_BEGIN, PLAIN_COUNT, PLAIN_END)
}

__kernel void joint_runs16(JOINT_ARGS, __global uint* hist, uint slice, uint passes,
                           uint perItem, __local uint* lh) {
    SLICE_OF_GROUP_OF(JOINT_SLOTS)
    LOCAL16_ROUNDS(JOINT16_VECTOR, JOINT16_TAIL, RUN_BEGIN, RUN_COUNT, RUN_END)
}

// Method 2 for pairs: a row of all the cells per work-item, reduced by reduce_rows.
__kernel void joint_private(JOINT_ARGS, __global uint* rows) {
    const uint gid = get_global_id(0), gsz = get_global_size(0);
    __global uint* mine = rows + (size_t)gid * JOINT_SLOTS;
    FOR_EACH_PAIR(gid, gsz, mine[slot] += 1)
}

// Method 1 for pairs: one row per warp, the tagged software atomic of hist_tagged.
__kernel void joint_tagged(JOINT_ARGS, __global uint* rows) {
    const uint gid = get_global_id(0), gsz = get_global_size(0);
    const uint tag = (get_local_id(0) & 31u) << 27;
    __global uint* warpRow = rows + (size_t)(gid / 32u) * JOINT_SLOTS;
    FOR_EACH_PAIR(gid, gsz, taggedIncrement(warpRow + slot, tag))
}

// Colocalisation sums (core/pipelines/largebin/coloc.h) of integer samples over the pairs the
// joint histogram counts, exact in 64-bit integers (below 2^32 pairs of 16-bit samples every sum
// fits): one pass with thresholds ta, tb and the whole set's nAll, sa, sb (for the sign of
// (a - mean a)(b - mean b)). Each work-group writes COLOC_SLOTS slots to partial[group]:
//   0-5    n, Σa, Σb, Σa², Σb², Σab of all pairs
//   6-11   the same below the thresholds (a < ta or b < tb), 12-17 above them (a > ta or b > tb)
//   18, 19 Σa where b > 0, Σb where a > 0 (Manders)
//   20, 21 Σa where b >= tb and b > 0, Σb where a >= ta and a > 0 (thresholded Manders)
//   22     pairs with a > ta and b > tb; 23 pairs with (nAll a - sa)(nAll b - sb) < 0 (ICQ)
//   24-27  min a, max a, min b, max b
// The local size is a power of two.
#if !IS_FLOAT
#define COLOC_SLOTS 28
#define COLOC_SUMS 24
// Adds the pair's moments to sums base ... base + 5 where `in` (0 or 1): selects, not branches,
// so that the work-items of a group stay in step.
#define ADD_MOMENTS(base, in)                                                                  \
    {                                                                                          \
        s[(base)] += (in);                                                                     \
        s[(base) + 1] += (in) ? u : 0;                                                         \
        s[(base) + 2] += (in) ? v : 0;                                                         \
        s[(base) + 3] += (in) ? uu : 0;                                                        \
        s[(base) + 4] += (in) ? vv : 0;                                                        \
        s[(base) + 5] += (in) ? uv : 0;                                                        \
    }

// belowOnly: a pass of Costes' search, which reads only slots 6-11 (the others stay 0).
// chunk: 0, each work-item takes pairs strided by the global size (neighbours read neighbours:
// coalesced on a GPU); else a run of `chunk` pairs each (a CPU device runs a work-item's loop
// alone, and strided reads there touch a new cache line every pair).
__kernel void coloc_sums(JOINT_ARGS, uint ta, uint tb, ulong nAll, ulong sa, ulong sb,
                         uint belowOnly, uint chunk, __global ulong* partial,
                         __local ulong* scratch) {
    ulong s[COLOC_SUMS];
    for (int i = 0; i < COLOC_SUMS; ++i)
        s[i] = 0;
    uint minA = 0xFFFFFFFFu, maxA = 0, minB = 0xFFFFFFFFu, maxB = 0;
    const uint left = pa.bins * pb.bins;
    const ulong start = chunk ? (ulong)get_global_id(0) * chunk : get_global_id(0);
    const uint first = (uint)min(start, (ulong)n);
    const uint end = chunk ? (uint)min(start + chunk, (ulong)n) : n;
    const uint stride = chunk ? 1 : (uint)get_global_size(0);
    for (uint k = first; k < end; k += stride) {
        const SAMPLE_T x = a[k], y = b[k];
        const ulong in = jointSlot(x, y, MASK_OF_PAIR(k), pa, pb, ea, eb) != left;
        const ulong u = in ? (ulong)x : 0, v = in ? (ulong)y : 0; // left out: adds nothing
        const ulong uu = u * u, vv = v * v, uv = u * v;
        ADD_MOMENTS(6, in & (ulong)(u < ta || v < tb))
        if (!belowOnly) {
            ADD_MOMENTS(0, in)
            ADD_MOMENTS(12, in & (ulong)(u > ta || v > tb))
            s[18] += v > 0 ? u : 0;
            s[19] += u > 0 ? v : 0;
            s[20] += (v > 0 && v >= tb) ? u : 0;
            s[21] += (u > 0 && u >= ta) ? v : 0;
            s[22] += in & (ulong)(u > ta && v > tb);
            // n a and n b stay below 2^48: signed 64-bit differences are exact.
            const long da = (long)(nAll * u) - (long)sa, db = (long)(nAll * v) - (long)sb;
            s[23] += in & (ulong)((da < 0 && db > 0) || (da > 0 && db < 0));
            minA = in ? min(minA, (uint)u) : minA;
            maxA = in ? max(maxA, (uint)u) : maxA;
            minB = in ? min(minB, (uint)v) : minB;
            maxB = in ? max(maxB, (uint)v) : maxB;
        }
    }
    const uint lid = get_local_id(0);
    __global ulong* out = partial + (size_t)get_group_id(0) * COLOC_SLOTS;
    for (int i = belowOnly ? 6 : 0; i < (belowOnly ? 12 : COLOC_SLOTS); ++i) {
        // Slots 24 and 26 keep minima, 25 and 27 maxima, the rest add.
        scratch[lid] = i < COLOC_SUMS ? s[i]
                       : i == 24      ? minA
                       : i == 25      ? maxA
                       : i == 26      ? minB
                                      : maxB;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint step = get_local_size(0) / 2; step > 0; step /= 2) {
            if (lid < step) {
                const ulong x = scratch[lid], y = scratch[lid + step];
                scratch[lid] = i < COLOC_SUMS ? x + y : (i % 2 == 0) ? min(x, y) : max(x, y);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (lid == 0)
            out[i] = scratch[0];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
// Costes' stepwise search (core/pipelines/largebin/coloc.h) in one pass. Candidate k's
// thresholds (ta_k, tb_k) each move one way as k grows, so the candidates at which a pair is at
// or above both (a >= ta_k and b >= tb_k: not below k) are one interval [lo, hi), the
// intersection of its values' intervals in the tables loA, hiA (indexed by a) and loB, hiB. The
// pair's six moments are added to slot lo and taken from slot hi (modulo 2^64; hi = K, the end,
// needs nothing): the host's running sums are then the exact sums at every candidate. Each
// work-item walks a run of `chunk` consecutive pairs and adds a run of pairs with one interval
// once, so that an image's background costs few additions.
// privateRows = 0 (GPUs): every work-item adds to one row of K slots of six with 64-bit
// atomics. privateRows = 1 (CPU devices, run with one work-item per group): work-item g owns
// row g and adds plainly; the host adds the rows. Measured on PoCL (2 cores, 16 Mi 16-bit
// pairs): one shared row cost 1.7-1.8 s, two cores' atomics on the same lines.
#if defined(cl_khr_int64_base_atomics)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

inline void addInterval(__global ulong* row, uint lo, uint hi, uint candidates,
                        uint privateRows, const ulong* s) {
    if (s[0] == 0)
        return;
    for (int i = 0; i < 6; ++i) {
        if (privateRows) {
            row[(size_t)lo * 6 + i] += s[i];
            if (hi < candidates)
                row[(size_t)hi * 6 + i] -= s[i];
        } else {
            atom_add(row + (size_t)lo * 6 + i, s[i]);
            if (hi < candidates)
                atom_add(row + (size_t)hi * 6 + i, (ulong)0 - s[i]);
        }
    }
}

__kernel void coloc_steps(JOINT_ARGS, __global const uint* loA, __global const uint* hiA,
                          __global const uint* loB, __global const uint* hiB, uint candidates,
                          uint chunk, uint privateRows, __global ulong* diff) {
    const uint left = pa.bins * pb.bins;
    const ulong start = (ulong)get_global_id(0) * chunk;
    const uint first = (uint)min(start, (ulong)n), end = (uint)min(start + chunk, (ulong)n);
    __global ulong* row =
        privateRows ? diff + (size_t)get_global_id(0) * ((size_t)candidates + 1) * 6 : diff;
    ulong s[6] = {0, 0, 0, 0, 0, 0};
    uint lo = 0, hi = 0;
    for (uint k = first; k < end; ++k) {
        const SAMPLE_T x = a[k], y = b[k];
        if (jointSlot(x, y, MASK_OF_PAIR(k), pa, pb, ea, eb) == left)
            continue;
        const uint l = max(loA[x], loB[y]), h = min(hiA[x], hiB[y]);
        if (l >= h)
            continue; // below every candidate
        if (l != lo || h != hi) {
            addInterval(row, lo, hi, candidates, privateRows, s);
            for (int i = 0; i < 6; ++i)
                s[i] = 0;
            lo = l;
            hi = h;
        }
        const ulong u = x, v = y, uu = u * u, vv = v * v, uv = u * v;
        ADD_MOMENTS(0, (ulong)1)
    }
    addInterval(row, lo, hi, candidates, privateRows, s);
}
#endif

#endif

// The entropies of a joint histogram (cells row-major, binsA x binsB, then the left-out slot,
// not read), in one work-group: its marginals' and its own, in bits, from sums of c log2 c in
// double precision: H = log2 N - (sum c log2 c) / N over the N counted pairs. out: H(A), H(B),
// H(A,B) (all 0 for no pair). What an MI evaluation adds to the count, on the device.
#include "entropy.cl"
#if defined(cl_khr_fp64)

// The entropies in two launches. First, spread over the device: one work-group per row of A
// sums the row and its cells' c log2 c (reading the row coalesced), and the remaining groups
// each sum as many columns as they have work-items (rows read coalesced, one after another).
// Counts are summed in double, exact below 2^53 pairs.
__kernel void joint_entropy_parts(__global const uint* hist, uint binsA, uint binsB,
                                  __global ulong* rowSum, __global double* rowCells,
                                  __global ulong* colSum, __local double* scratch) {
    const uint g = get_group_id(0), lid = get_local_id(0), lsz = get_local_size(0);
    if (g < binsA) {
        double sum = 0, cells = 0;
        for (uint j = lid; j < binsB; j += lsz) {
            const uint c = hist[(size_t)g * binsB + j];
            sum += (double)c;
            cells += cLog2c(c);
        }
        sum = groupSum(sum, scratch);
        cells = groupSum(cells, scratch);
        if (lid == 0) {
            rowSum[g] = (ulong)sum;
            rowCells[g] = cells;
        }
    } else {
        const uint j = (g - binsA) * lsz + lid;
        if (j < binsB) {
            ulong column = 0;
            for (uint i = 0; i < binsA; ++i)
                column += hist[(size_t)i * binsB + j];
            colSum[j] = column;
        }
    }
}

// Then one work-group: H(A), H(B) and H(A,B) from the parts, as log2 n - sum(c log2 c) / n.
__kernel void joint_entropies(__global const ulong* rowSum, __global const double* rowCells,
                              __global const ulong* colSum, uint binsA, uint binsB,
                              __global double* out, __local double* scratch) {
    const uint lid = get_local_id(0), lsz = get_local_size(0);
    double sa = 0, sb = 0, sab = 0, total = 0;
    for (uint i = lid; i < binsA; i += lsz) {
        sa += cLog2c(rowSum[i]);
        sab += rowCells[i];
        total += (double)rowSum[i];
    }
    for (uint j = lid; j < binsB; j += lsz)
        sb += cLog2c(colSum[j]);
    const double n = groupSum(total, scratch);
    const double sums[3] = {groupSum(sa, scratch), groupSum(sb, scratch), groupSum(sab, scratch)};
    if (lid == 0)
        for (int s = 0; s < 3; ++s)
            out[s] = n > 0 ? log2(n) - sums[s] / n : 0.0;
}
#endif
