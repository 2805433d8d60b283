// The peer of histlab-cli scan (and of the dashboard's scan entry) on NVIDIA GPUs: CUB's
// DeviceScan::ExclusiveSum over N uint32 values (default 256 Mi, 1 GiB), next to the two ways
// CUDA moves the same bytes without computing anything: cudaMemcpy device to device and a copy
// kernel of one uint4 per thread. Values are random (a fixed seed) and the sum wraps modulo 2^32,
// as HistLab's scan does. Timed with CUDA events: one warm-up, then 10 runs, median and min.
// The scan's output is checked against a scan on the host, every value.
// Prints CSV: peer,elements,median_ms,min_ms,gbps,ok where gbps counts 4 bytes read + 4 bytes
// written per value (the same metric as HistLab's scan and copy ceilings).
// Built with -DHISTLAB_CUDA_PEERS=ON (bench/peers/CMakeLists.txt), as scripts/gpu-common.sh does.
#include "peer_common.h"

#include <cub/cub.cuh>

__global__ void copyUint4(const uint4* __restrict__ in, uint4* __restrict__ out, std::size_t n) {
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

static void row(const char* peer, std::size_t n, const PeerTiming& t, bool ok) {
    const double bytes = 8.0 * double(n);
    std::printf("%s,%zu,%.6f,%.6f,%.1f,%s\n", peer, n, t.medianMs, t.minMs,
                bytes / (t.medianMs * 1e6), ok ? "yes" : "NO");
}

int main(int argc, char** argv) {
    const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (std::size_t(1) << 28);
    std::vector<std::uint32_t> host(n), got(n);
    std::mt19937 rng(1);
    for (std::uint32_t& v : host)
        v = rng();
    std::uint32_t *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * 4));
    CHECK(cudaMalloc(&d_out, n * 4));
    CHECK(cudaMemcpy(d_in, host.data(), n * 4, cudaMemcpyHostToDevice));
    std::printf("peer,elements,median_ms,min_ms,gbps,ok\n");

    void* temp = nullptr;
    std::size_t tempBytes = 0;
    CHECK(cub::DeviceScan::ExclusiveSum(temp, tempBytes, d_in, d_out, (long long)n));
    CHECK(cudaMalloc(&temp, tempBytes));
    const PeerTiming scan = timeOnDevice(
        [&] { CHECK(cub::DeviceScan::ExclusiveSum(temp, tempBytes, d_in, d_out, (long long)n)); });
    CHECK(cudaMemcpy(got.data(), d_out, n * 4, cudaMemcpyDeviceToHost));
    std::uint32_t sum = 0;
    bool ok = true;
    for (std::size_t i = 0; i < n && ok; ++i) {
        ok = got[i] == sum;
        sum += host[i];
    }
    row("cub_exclusive_sum", n, scan, ok);

    const PeerTiming memcpyD2D =
        timeOnDevice([&] { CHECK(cudaMemcpyAsync(d_out, d_in, n * 4, cudaMemcpyDeviceToDevice)); });
    CHECK(cudaMemcpy(got.data(), d_out, n * 4, cudaMemcpyDeviceToHost));
    row("cuda_memcpy_d2d", n, memcpyD2D, got == host);

    const std::size_t vectors = n / 4; // n is a multiple of 4 for every size this is run at
    const PeerTiming copy = timeOnDevice([&] {
        copyUint4<<<unsigned((vectors + 255) / 256), 256>>>(reinterpret_cast<const uint4*>(d_in),
                                                            reinterpret_cast<uint4*>(d_out),
                                                            vectors);
    });
    CHECK(cudaMemcpy(got.data(), d_out, n * 4, cudaMemcpyDeviceToHost));
    row("cuda_copy_uint4", n, copy, n % 4 == 0 && got == host);
    return ok ? 0 : 1;
}
