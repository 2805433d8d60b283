#!/usr/bin/env bash
# Does packed 8-bit gray gain from two pixels' bytes per register (SWAR) on the GPU, and RGBA
# from a 64-register limit (--registers, NVIDIA's -cl-nv-maxrregcount)? The gray tiled kernel
# without SWAR uses 128 registers on the H200 (bench/results/gpu-h200-blur-regs-2026-11-28).
# First NVIDIA's build log (-cl-nv-verbose) for gray with and without SWAR, then three rounds
# that alternate, in the same job, gray --swar 0 and --swar 1 (8192² and 32768²), and RGBA with
# --registers 0 and 64; then SWAR's other shapes once. Each run is verified and timed against
# the copy kernel on the same bytes in the same run. swar.csv: one row per run (first columns:
# round, setting), log.txt the reports. (The committed figures,
# bench/results/gpu-h200-blur-swar-2026-11-28, were made before --registers existed, with the
# limit given through HISTLAB_EXTRA_BUILD_OPTIONS: the same build option.)
#   source .device/gpu-env.sh && bench/experiments/blur-swar/gpu-blur-swar.sh "$OUT/swar"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
csv="$out/swar.csv"
gray() { echo "--synthetic random --width $1 --height $1"; }
rgba() { echo "--synthetic random --width $1 --height $(($1 / 4)) --channels 4"; }
{
    for swar in 0 1; do
        for rows in 8 16; do
            echo "== registers, gray 8192², --swar $swar --rows $rows"
            HISTLAB_EXTRA_BUILD_OPTIONS="-cl-nv-verbose" $cli -v blur --device gpu --variant tiled \
                --radius 1 --repeat 1 $(gray 8192) --swar $swar --rows $rows 2>&1 |
                grep -iE "registers|ptxas info" | head -4
        done
    done
    for round in 1 2 3; do
        for side in 8192 32768; do
            for swar in 0 1; do
                blur_point "$round" "gray swar $swar" $(gray $side) --swar $swar
            done
            blur_point "$round" "rgba" $(rgba $side) --registers 0
            blur_point "$round" "rgba maxrregcount 64" $(rgba $side) --registers 64
        done
    done
    for side in 8192 32768; do
        for shape in "--rows 4" "--rows 16" "--vectors 2" "--wg 256" "--wg 64"; do
            blur_point shapes "gray swar 1 $shape" $(gray $side) --swar 1 $shape
        done
    done
} 2>&1 | tee "$out/log.txt"
tar -C "$out" -czf "$out.tar.gz" . && rm -rf "$out" && mkdir -p "$out" && mv "$out.tar.gz" "$out/"
