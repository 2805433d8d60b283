#!/usr/bin/env bash
# The bins experiment on the GPU machine (see ../shared/device/README.md): every large-bin method
# against the bin count (256, 257, 512 ... 65,536) on 256 MiB of 16-bit samples, random, skewed
# and smooth (no image: GPU machines build without an image loader), each point verified; beside
# it CUB's HistogramEven on as many samples. JSON/CSV and log.txt in $1.
#   source .device/gpu-env.sh && bench/experiments/bins/gpu-bins.sh "$OUT/bins"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
{
    echo "== sweep bins, 256 MiB of 16-bit samples per distribution"
    $cli sweep bins --device gpu --size 256 --repeat 5 --dist random,skewed,smooth \
        --json "$out/sweep_bins.json" --csv "$out/sweep_bins.csv" --quiet
    cub_histogram_peer 134217728
} 2>&1 | tee "$out/log.txt"
