// What OpenCL's 48 KiB of local memory costs the 65,536-slot counts on an NVIDIA GPU: HistLab's
// local16 / runs16 scheme (kernels/largebin.cl: 16-bit counters two to a word over one slice of
// the slots, rounds of at most 61,440 samples a block, counters that reached 4,096 spilled to the
// global histogram after each round, the rest once at the end) written again in CUDA, where a
// block may opt in to up to 227 KiB of shared memory on a Hopper GPU. The same kernel runs with
// the slots cut to fit 48 KiB (3 slices, 4 blocks of 512 threads a multiprocessor, as HistLab's
// OpenCL plan), 64 or 96 KiB (2 slices, 3 or 2 blocks) and 128 KiB (1 slice, 1 block of 512 or
// 1,024 threads).
// Inputs: 2^29 16-bit samples (1 GiB) of random / skewed / smooth data into 65,536 bins, and
// 256 x 256 joint counts of two 8192 x 8192 8-bit planes (random; smooth pairs sharing their
// ramp), made on the host by HistLab's generator (peer_common.h).
// Timed with CUDA events around the clearing of the histogram and the count: one warm-up, then
// 10 runs, median and min. Each result is checked against a count on the host. Prints CSV:
//   what,data,method,shared_kib,threads,slices,samples,median_ms,min_ms,gsamples_per_s,gbps,ok
// Built with -DHISTLAB_CUDA_PEERS=ON (bench/peers/CMakeLists.txt), as scripts/gpu-common.sh does.
#include "peer_common.h"

constexpr unsigned kSlots = 65536;
constexpr unsigned kKeep = 4096;
constexpr unsigned kRound = 65536 - kKeep;

// Counters at or above `keep` go to the global histogram and are cleared (keep a power of two).
__device__ void spill16(unsigned* lh, unsigned here, unsigned first, unsigned* hist,
                        unsigned keep) {
    const unsigned hot = (0xFFFFu & ~(keep - 1u)) * 0x10001u;
    __syncthreads();
    for (unsigned i = threadIdx.x; i < (here + 1) / 2; i += blockDim.x) {
        const unsigned w = lh[i];
        if (w & hot) {
            unsigned left = w;
            if ((w & 0xFFFFu) >= keep) {
                atomicAdd(&hist[first + 2 * i], w & 0xFFFFu);
                left &= 0xFFFF0000u;
            }
            if ((w >> 16) >= keep) {
                atomicAdd(&hist[first + 2 * i + 1], w >> 16);
                left &= 0xFFFFu;
            }
            lh[i] = left;
        }
    }
    __syncthreads();
}

__device__ __forceinline__ void add16(unsigned* lh, unsigned s, unsigned count) {
    atomicAdd(&lh[s >> 1], count << ((s & 1u) * 16u));
}

// One slot counted into this block's slice: plainly, or held back as a run of equal slots.
template <bool RUNS>
__device__ __forceinline__ void count(unsigned* lh, unsigned slot, unsigned first, unsigned here,
                                      unsigned& run, unsigned& runCount) {
    const unsigned s = slot - first; // wraps above `here` below the slice
    if (!RUNS) {
        if (s < here)
            add16(lh, s, 1u);
    } else if (s == run) {
        ++runCount;
    } else if (s < here) {
        add16(lh, run, runCount);
        run = s;
        runCount = 1;
    }
}

// JOINT: a and b are 8-bit planes, the slot of a pair (a << 8) | b, 16 pairs a vector; else a
// holds 16-bit samples, 8 a vector. nvec whole 16-byte vectors (the sizes here have no tail).
template <bool JOINT, bool RUNS>
__global__ void local16(const uint4* a, const uint4* b, unsigned nvec, unsigned slice,
                        unsigned passes, unsigned vecPerItem, unsigned* hist) {
    extern __shared__ unsigned lh[];
    const unsigned first = (blockIdx.x % passes) * slice;
    const unsigned here = min(slice, kSlots - first);
    const unsigned walker = blockIdx.x / passes, walkers = gridDim.x / passes;
    for (unsigned i = threadIdx.x; i < (here + 1) / 2; i += blockDim.x)
        lh[i] = 0;
    __syncthreads();
    const unsigned vecPerRound = vecPerItem * blockDim.x;
    const unsigned rounds = (nvec + vecPerRound - 1) / vecPerRound;
    unsigned run = 0, runCount = 0;
    for (unsigned r = walker; r < rounds; r += walkers) {
        const unsigned end = min(nvec, (r + 1) * vecPerRound);
        for (unsigned k = r * vecPerRound + threadIdx.x; k < end; k += blockDim.x) {
            const uint4 va = a[k];
            const unsigned wa[4] = {va.x, va.y, va.z, va.w};
            if (JOINT) {
                const uint4 vb = b[k];
                const unsigned wb[4] = {vb.x, vb.y, vb.z, vb.w};
#pragma unroll
                for (int j = 0; j < 16; ++j) {
                    const unsigned x = (wa[j / 4] >> (8 * (j % 4))) & 0xFFu;
                    const unsigned y = (wb[j / 4] >> (8 * (j % 4))) & 0xFFu;
                    count<RUNS>(lh, (x << 8) | y, first, here, run, runCount);
                }
            } else {
#pragma unroll
                for (int j = 0; j < 8; ++j)
                    count<RUNS>(lh, (wa[j / 2] >> (16 * (j % 2))) & 0xFFFFu, first, here, run,
                                runCount);
            }
        }
        if (RUNS) {
            add16(lh, run, runCount);
            runCount = 0;
        }
        spill16(lh, here, first, hist, kKeep);
    }
    spill16(lh, here, first, hist, 1u);
}

struct Input {
    std::vector<std::uint8_t> a, b; // b empty: 1-D
    std::vector<unsigned long long> want;
    std::size_t samples;
};

static Input make16(const std::string& kind, std::size_t n) {
    Input in;
    in.samples = n;
    in.a.resize(n * 2);
    in.want.assign(kSlots, 0);
    std::mt19937_64 rng(1);
    for (std::size_t i = 0; i < n; ++i) {
        const auto v = std::uint16_t(std::min(syntheticValue(kind, i, rng) * 65536.0, 65535.0));
        in.a[2 * i] = std::uint8_t(v & 0xFF);
        in.a[2 * i + 1] = std::uint8_t(v >> 8);
        ++in.want[v];
    }
    return in;
}

static Input makeJoint(const std::string& kind, std::size_t n) {
    Input in;
    in.samples = n;
    in.a.resize(n);
    in.b.resize(n);
    in.want.assign(kSlots, 0);
    std::mt19937_64 ra(1), rb(2);
    for (std::size_t i = 0; i < n; ++i) {
        in.a[i] = std::uint8_t(std::min(syntheticValue(kind, i, ra) * 256.0, 255.0));
        in.b[i] = std::uint8_t(std::min(syntheticValue(kind, i, rb) * 256.0, 255.0));
        ++in.want[(unsigned(in.a[i]) << 8) | in.b[i]];
    }
    return in;
}

struct Config {
    unsigned sharedKiB, threads, blocksPerSM;
};

template <bool JOINT, bool RUNS>
static void run(const char* what, const std::string& kind, const char* method, const Input& in,
                const Config& c, int sms) {
    auto kernel = local16<JOINT, RUNS>;
    const unsigned bytes = c.sharedKiB * 1024;
    CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
    const unsigned slice = bytes / 2, passes = (kSlots + slice - 1) / slice;
    const unsigned perVec = JOINT ? 16 : 8;
    const unsigned vecPerItem = kRound / c.threads / perVec;
    const unsigned nvec = unsigned(in.a.size() / 16);
    std::uint8_t *da, *db = nullptr;
    unsigned* hist;
    CHECK(cudaMalloc(&da, in.a.size()));
    CHECK(cudaMemcpy(da, in.a.data(), in.a.size(), cudaMemcpyHostToDevice));
    if (JOINT) {
        CHECK(cudaMalloc(&db, in.b.size()));
        CHECK(cudaMemcpy(db, in.b.data(), in.b.size(), cudaMemcpyHostToDevice));
    }
    CHECK(cudaMalloc(&hist, kSlots * sizeof(unsigned)));
    const unsigned grid = unsigned(sms) * c.blocksPerSM * passes;
    const PeerTiming t = timeOnDevice([&] {
        CHECK(cudaMemsetAsync(hist, 0, kSlots * sizeof(unsigned)));
        kernel<<<grid, c.threads, bytes>>>((const uint4*)da, (const uint4*)db, nvec, slice, passes,
                                           vecPerItem, hist);
    });
    std::vector<unsigned> got(kSlots);
    CHECK(cudaMemcpy(got.data(), hist, kSlots * sizeof(unsigned), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (unsigned i = 0; i < kSlots; ++i)
        ok = ok && got[i] == in.want[i];
    const double med = t.medianMs, totalBytes = double(in.a.size() + in.b.size());
    std::printf("%s,%s,%s,%u,%u,%u,%zu,%.4f,%.4f,%.2f,%.2f,%s\n", what, kind.c_str(), method,
                c.sharedKiB, c.threads, passes, in.samples, med, t.minMs, double(in.samples) / (med * 1e6),
                totalBytes / (med * 1e6), ok ? "yes" : "NO");
    std::fflush(stdout);
    cudaFree(da);
    cudaFree(db);
    cudaFree(hist);
}

int main() {
    int dev = 0, sms = 0, optin = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    std::fprintf(stderr, "%d multiprocessors, %d bytes of shared memory a block (opt-in)\n", sms,
                 optin);
    const Config configs[] = {{48, 512, 4}, {64, 512, 3}, {96, 512, 2}, {128, 512, 1}, {128, 1024, 1}};
    std::printf("what,data,method,shared_kib,threads,slices,samples,median_ms,min_ms,gsamples_per_s,gbps,"
                "ok\n");
    for (const std::string kind : {"random", "skewed", "smooth"}) {
        const Input in = make16(kind, std::size_t(1) << 29);
        for (const Config& c : configs) {
            if (c.sharedKiB * 1024 > unsigned(optin))
                continue;
            run<false, false>("u16_65536", kind, "local16", in, c, sms);
            run<false, true>("u16_65536", kind, "runs16", in, c, sms);
        }
    }
    for (const std::string kind : {"random", "smooth"}) {
        const Input in = makeJoint(kind, std::size_t(8192) * 8192);
        for (const Config& c : configs) {
            if (c.sharedKiB * 1024 > unsigned(optin))
                continue;
            run<true, false>("joint_u8_256x256", kind, "local16", in, c, sms);
            run<true, true>("joint_u8_256x256", kind, "runs16", in, c, sms);
        }
    }
    return 0;
}
