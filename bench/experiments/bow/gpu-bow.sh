#!/usr/bin/env bash
# Bag-of-visual-words on the GPU machine (see ../shared/device/README.md): every kernel on
# 2,097,152 synthetic descriptors of 64 floats against 1,024 centroids (the issue's shape), the
# curve of descriptors a second against K (16 ... 4,096) for GPU3, the tiled and block kernels,
# and 128-float descriptors (SIFT's size); each bench measures the FP32 peak in the same run and
# verifies every label against the CPU reference. Then the cuBLAS peer (SGEMM + argmin +
# histogram, bench/peers/cublas_bow.cu) on the same shapes, and k-means (bow build-codebook) on
# the device. JSON/CSV and log.txt in $1.
#   source .device/gpu-env.sh && bench/experiments/bow/gpu-bow.sh "$OUT/bow"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
n=2097152
{
    echo "== bow bench: $n descriptors, D 64, K 1,024, every kernel"
    $cli bow bench --synthetic --count $n --k 1024 --dim 64 --kernel all --repeat 10 \
        --csv "$out/bow_d64_k1024.csv" --json "$out/bow_d64_k1024.json"
    for k in 16 32 64 128 256 512 2048 4096; do
        echo "== bow bench: $n descriptors, D 64, K $k"
        $cli bow bench --synthetic --count $n --k $k --dim 64 --kernel gpu3,tiled,tiled-norm,block-norm \
            --repeat 10 --csv "$out/bow_d64_k$k.csv"
    done
    echo "== bow bench: $n descriptors, D 128, K 1,024"
    $cli bow bench --synthetic --count $n --k 1024 --dim 128 --kernel gpu3,gpu4,tiled,tiled-norm,block-norm \
        --repeat 10 --csv "$out/bow_d128_k1024.csv"
    echo "== peer: cuBLAS SGEMM + argmin + histogram"
    if bin=$(peer cublas_bow); then
        {
            "$bin" $n 64 1024
            for k in 16 64 256 4096; do "$bin" $n 64 $k | tail -n 2; done
            "$bin" $n 128 1024 | tail -n 2
        } | tee "$out/cublas.csv"
    fi
    echo "== bow build-codebook: k-means, 2,097,152 synthetic descriptors, K 1,024"
    $cli bow build-codebook --synthetic --count $n --dim 64 --k 1024 --iterations 20 \
        --csv "$out/kmeans_k1024.csv" --json "$out/kmeans_k1024.json"
} 2>&1 | tee "$out/log.txt"
