#!/usr/bin/env bash
# Bag-of-visual-words assignment on the GPU machine (see ../shared/device/README.md): every
# kernel on 2,097,152 synthetic descriptors of 64 floats against 1,024 centroids (the issue's
# shape), the tiled kernels, GPU3 and GPU5 against K = 16 ... 4,096, and 128-float descriptors (SIFT's
# size). Each run verified label by label against the CPU reference. JSON/CSV and log.txt in $1.
#   source .device/gpu-env.sh && scripts/gpu-bow.sh "$OUT/bow"
set -uo pipefail
source "$(dirname "$0")/gpu-common.sh" "${1:-}"
n=2097152
{
    echo "== bow bench: $n descriptors, D 64, K 1,024, every kernel"
    $cli bow bench --synthetic --count $n --k 1024 --dim 64 --kernel all --repeat 10 \
        --csv "$out/bow_d64_k1024.csv" --json "$out/bow_d64_k1024.json"
    for k in 16 64 256 4096; do
        echo "== bow bench: $n descriptors, D 64, K $k"
        $cli bow bench --synthetic --count $n --k $k --dim 64 --kernel gpu3,gpu5,tiled,tiled-norm \
            --repeat 10 --csv "$out/bow_d64_k$k.csv"
    done
    echo "== bow bench: $n descriptors, D 128, K 1,024"
    $cli bow bench --synthetic --count $n --k 1024 --dim 128 --kernel gpu3,gpu4,tiled,tiled-norm \
        --repeat 10 --csv "$out/bow_d128_k1024.csv"
} 2>&1 | tee "$out/log.txt"
