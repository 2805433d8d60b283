// The peer of histlab-cli largebin on NVIDIA GPUs: CUB's DeviceHistogram::HistogramEven on
// 16-bit samples, bins 256 ... 65,536 over [0, 65536), random / skewed / smooth data made on the
// host by HistLab's generator (peer_common.h). Timed with CUDA
// events: one warm-up, then 10 runs, median and min. Each result is checked against a histogram
// counted on the host. Prints CSV: peer,data,bins,samples,median_ms,min_ms,gsamples_per_s,gbps,ok
// Built with -DHISTLAB_CUDA_PEERS=ON (bench/peers/CMakeLists.txt), as scripts/gpu-common.sh does.
#include "peer_common.h"

#include <cub/cub.cuh>

static std::vector<std::uint16_t> makeData(const std::string& kind, std::size_t n) {
    std::vector<std::uint16_t> v(n);
    std::mt19937_64 rng(1);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = std::uint16_t(std::min(syntheticValue(kind, i, rng) * 65536.0, 65535.0));
    return v;
}

int main(int argc, char** argv) {
    const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (std::size_t(1) << 29);
    std::printf("peer,data,bins,samples,median_ms,min_ms,gsamples_per_s,gbps,ok\n");
    for (const std::string kind : {"random", "skewed", "smooth"}) {
        const std::vector<std::uint16_t> host = makeData(kind, n);
        std::uint16_t* d_in;
        CHECK(cudaMalloc(&d_in, n * 2));
        CHECK(cudaMemcpy(d_in, host.data(), n * 2, cudaMemcpyHostToDevice));
        for (int bins : {256, 257, 1024, 4096, 16384, 65536}) {
            int* d_hist;
            CHECK(cudaMalloc(&d_hist, bins * sizeof(int)));
            void* temp = nullptr;
            std::size_t tempBytes = 0;
            CHECK(cub::DeviceHistogram::HistogramEven(temp, tempBytes, d_in, d_hist, bins + 1, 0,
                                                      65536, (long long)n));
            CHECK(cudaMalloc(&temp, tempBytes));
            const PeerTiming t = timeOnDevice([&] {
                CHECK(cub::DeviceHistogram::HistogramEven(temp, tempBytes, d_in, d_hist, bins + 1,
                                                          0, 65536, (long long)n));
            });
            std::vector<int> got(bins);
            CHECK(cudaMemcpy(got.data(), d_hist, bins * sizeof(int), cudaMemcpyDeviceToHost));
            std::vector<long long> want(bins, 0);
            for (std::uint16_t x : host)
                ++want[std::size_t((long long)x * bins / 65536)];
            bool ok = true;
            for (int i = 0; i < bins; ++i)
                ok = ok && (long long)got[i] == want[i];
            const double med = t.medianMs;
            std::printf("cub,%s,%d,%zu,%.4f,%.4f,%.2f,%.2f,%s\n", kind.c_str(), bins, n, med, t.minMs,
                        double(n) / (med * 1e6), double(n) * 2 / (med * 1e6), ok ? "yes" : "NO");
            cudaFree(temp);
            cudaFree(d_hist);
        }
        cudaFree(d_in);
    }
    return 0;
}
