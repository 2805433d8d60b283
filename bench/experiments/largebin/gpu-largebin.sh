#!/usr/bin/env bash
# Large-bin histograms on the GPU machine (see ../shared/device/README.md): every method against
# bin count and data on 1 GiB of 16-bit samples, a few u8 and f32 points, and CUB's
# HistogramEven on the same sizes as the peer, each verified. Writes JSON/CSV and log.txt into
# the folder given as $1.
#   source .device/gpu-env.sh && bench/experiments/largebin/gpu-largebin.sh "$OUT/largebin"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
{
    for data in random skewed smooth; do
        echo "== u16, 1 GiB, $data: every method, 256 ... 65,536 bins"
        $cli largebin --device gpu --type u16 --data $data --size 1024 --method all \
            --bins 256,257,1024,4096,16384,65536 --repeat 10 \
            --json "$out/u16_$data.json" --csv "$out/u16_$data.csv"
    done
    echo "== u8, 1 GiB, random: 256 bins"
    $cli largebin --device gpu --type u8 --size 1024 --method all --bins 256 --repeat 10 \
        --csv "$out/u8_random.csv"
    echo "== f32, 1 GiB, random: 256, 4096, 65,536 bins over [0, 1]"
    $cli largebin --device gpu --type f32 --size 1024 --method all --bins 256,4096,65536 \
        --range 0,1 --repeat 10 --csv "$out/f32_random.csv"
    cub_histogram_peer 536870912
} 2>&1 | tee "$out/log.txt"
