#!/usr/bin/env bash
# Scans and equalization on the GPU machine (see ../shared/device/README.md): builds
# the Qt-free core + CLI, then writes each run's JSON/CSV and the printed tables (log.txt) into
# one archive in the folder given as $1. Every point is verified against the CPU reference.
#   source .device/gpu-env.sh && bench/experiments/scan-equalize/gpu-scan-equalize.sh "$OUT/scan"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
{
    echo "== per-segment scans (65,536 values each): GB/s against work-group size, 64 MiB"
    $cli scan --device gpu --variant naive,blelloch,wgscan --wg all --size 64 --repeat 10 \
        --json "$out/scan_segments.json" --csv "$out/scan_segments.csv"
    echo "== whole-array scans, 256 Mi uint32 (1 GiB), exclusive"
    $cli scan --device gpu --variant reduce-then-scan,lookback --count 268435456 --repeat 10 \
        --json "$out/scan_whole.json" --csv "$out/scan_whole.csv"
    echo "== equalization, 8192 x 8192"
    for spec in "--channels 1 --depth 8" "--channels 3 --depth 8" "--channels 1 --depth 16"; do
        for dist in random skewed; do
            echo "-- $dist $spec"
            $cli equalize --device gpu --synthetic $dist --width 8192 --height 8192 $spec \
                --repeat 10
        done
    done
    echo "== blur, 16384 x 16384 8-bit gray, 3 x 3"
    $cli blur --device gpu --synthetic random --width 16384 --height 16384 --variant all \
        --radius 1 --repeat 10 --csv "$out/blur_16384.csv"
} 2>&1 | tee "$out/log.txt"
tar -C "$out" -czf "$out.tar.gz" . && rm -rf "$out" && mkdir -p "$out" && mv "$out.tar.gz" "$out/"
