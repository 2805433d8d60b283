// The cuBLAS peer of `histlab-cli bow bench`: N descriptors of D floats against K centroids the
// way a GEMM library does it (PyTorch's cdist/argmin path): the product codebook x descriptors^T
// by cublasSgemm, then per descriptor the argmin over ||c||^2 - 2 x.c and the histogram. Timed
// alone (the product: distances without argmin or histogram) and whole, with CUDA events,
// median of 10 after a warm-up. FP32 throughout (CUBLAS_DEFAULT_MATH: no TF32). Labels are not
// exact near ties (float ranking), which is what HistLab's kernels guard against.
//   built with -DHISTLAB_CUDA_PEERS=ON as histlab-peer-cublas_bow (bench/peers/CMakeLists.txt)
//   histlab-peer-cublas_bow N D K  ->  CSV: peer,descriptors,dim,k,median_ms,min_ms,descriptors_per_s,tflops
#include "peer_common.h"

#include <cublas_v2.h>

#define CUBLAS_CHECK(call)                                                                         \
    do {                                                                                           \
        cublasStatus_t s = (call);                                                                 \
        if (s != CUBLAS_STATUS_SUCCESS) {                                                          \
            std::fprintf(stderr, "%s: cuBLAS status %d\n", #call, int(s));                         \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

// One thread a descriptor: its K products are contiguous (column j of the K x N result).
__global__ void argminHistogram(const float* dots, const float* norms, int n, int k,
                                unsigned* labels, unsigned* hist) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n)
        return;
    const float* col = dots + std::size_t(j) * k;
    float best = INFINITY;
    int label = 0;
    for (int c = 0; c < k; ++c) {
        const float v = norms[c] - 2.0f * col[c];
        if (v < best) {
            best = v;
            label = c;
        }
    }
    labels[j] = label;
    atomicAdd(&hist[label], 1u);
}

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 2097152;
    const int d = argc > 2 ? std::atoi(argv[2]) : 64;
    const int k = argc > 3 ? std::atoi(argv[3]) : 1024;
    std::mt19937_64 rng(1);
    std::vector<float> desc(std::size_t(n) * d), cents(std::size_t(k) * d), norms(k, 0.0f);
    for (float& v : desc)
        v = float(syntheticValue("random", 0, rng));
    for (float& v : cents)
        v = float(syntheticValue("random", 0, rng));
    for (int c = 0; c < k; ++c)
        for (int f = 0; f < d; ++f)
            norms[c] += cents[std::size_t(c) * d + f] * cents[std::size_t(c) * d + f];
    float *dDesc, *dCents, *dNorms, *dDots;
    unsigned *dLabels, *dHist;
    CHECK(cudaMalloc(&dDesc, desc.size() * sizeof(float)));
    CHECK(cudaMalloc(&dCents, cents.size() * sizeof(float)));
    CHECK(cudaMalloc(&dNorms, k * sizeof(float)));
    CHECK(cudaMalloc(&dDots, std::size_t(n) * k * sizeof(float)));
    CHECK(cudaMalloc(&dLabels, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&dHist, k * sizeof(unsigned)));
    CHECK(cudaMemcpy(dDesc, desc.data(), desc.size() * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dCents, cents.data(), cents.size() * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dNorms, norms.data(), k * sizeof(float), cudaMemcpyHostToDevice));
    cublasHandle_t handle;
    CUBLAS_CHECK(cublasCreate(&handle));
    CUBLAS_CHECK(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
    const float one = 1.0f, zero = 0.0f;
    // Column-major: the centroids are D x K (column c = centroid c), the descriptors D x N; the
    // result K x N = centroids^T descriptors.
    auto product = [&] {
        CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, k, n, d, &one, dCents, d, dDesc,
                                 d, &zero, dDots, k));
    };
    auto whole = [&] {
        product();
        CHECK(cudaMemsetAsync(dHist, 0, k * sizeof(unsigned)));
        argminHistogram<<<(n + 255) / 256, 256>>>(dDots, dNorms, n, k, dLabels, dHist);
    };
    const PeerTiming gemm = timeOnDevice(product), all = timeOnDevice(whole);
    std::vector<unsigned> hist(k);
    CHECK(cudaMemcpy(hist.data(), dHist, k * sizeof(unsigned), cudaMemcpyDeviceToHost));
    unsigned long long total = 0;
    for (unsigned h : hist)
        total += h;
    const double flops = 2.0 * double(n) * d * k;
    std::printf("peer,descriptors,dim,k,median_ms,min_ms,descriptors_per_s,tflops,counted\n");
    std::printf("cublas-sgemm,%d,%d,%d,%.4f,%.4f,%.1f,%.2f,-\n", n, d, k, gemm.medianMs,
                gemm.minMs, n / (gemm.medianMs * 1e-3), flops / (gemm.medianMs * 1e9));
    std::printf("cublas-sgemm+argmin+histogram,%d,%d,%d,%.4f,%.4f,%.1f,%.2f,%llu\n", n, d, k,
                all.medianMs, all.minMs, n / (all.medianMs * 1e-3), flops / (all.medianMs * 1e9),
                total);
    cublasDestroy(handle);
    return 0;
}
