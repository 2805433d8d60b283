// What the CUDA peer programs of bench/peers share: error checks, HistLab's synthetic sample
// shapes (core/pipelines/largebin/largebin.cpp: the same generator, so the same samples for the
// same seed), and the timing of one operation with CUDA events.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e = (call);                                                                    \
        if (e != cudaSuccess) {                                                                    \
            std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e));                        \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

// The next [0, 1) value of HistLab's synthetic data of shape `kind` (random, skewed: 90 % one
// value, smooth: a slow sine with a little noise) for sample i.
inline double syntheticValue(const std::string& kind, std::size_t i, std::mt19937_64& rng) {
    const std::uint64_t r = rng();
    double u = double(r >> 11) * 0x1.0p-53;
    if (kind == "skewed" && (r & 0xFF) < 230)
        u = 0.4;
    else if (kind == "smooth")
        u = std::fmod(0.5 + 0.45 * std::sin(double(i) * 1e-6) + 0.002 * (u - 0.5) + 1.0, 1.0);
    return u;
}

struct PeerTiming {
    double medianMs, minMs;
};

// Runs `op` (which enqueues its work on the default stream) once to warm up, then 10 times
// between CUDA events; the median and the fastest.
template <typename Op> PeerTiming timeOnDevice(Op op) {
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    std::vector<float> ms;
    for (int r = 0; r < 11; ++r) {
        CHECK(cudaEventRecord(e0));
        op();
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        CHECK(cudaGetLastError());
        float t = 0;
        CHECK(cudaEventElapsedTime(&t, e0, e1));
        if (r > 0)
            ms.push_back(t);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    std::sort(ms.begin(), ms.end());
    return {(ms[4] + ms[5]) / 2.0, ms[0]};
}
