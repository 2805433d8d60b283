#!/usr/bin/env bash
# Is the tiled 3 x 3 blur on the GPU held back by its registers (how many work-items fit a
# compute unit)? NVIDIA's build log says each kernel's registers (-cl-nv-verbose through
# HISTLAB_EXTRA_BUILD_OPTIONS), then the blur runs with the compiler held to REGS registers per
# work-item (--registers, NVIDIA's -cl-nv-maxrregcount; 0 the compiler's choice), on the
# frontier's images (gray 8192² and 32768², RGBA 8192 x 2048 and 32768 x 8192), each verified
# and timed against the copy kernel of the same run. regs.csv: one row per run (the blur's CSV
# with the register limit first), log.txt the reports and register counts.
#   source .device/gpu-env.sh && bench/experiments/blur-regs/gpu-blur-regs.sh "$OUT/regs"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
csv="$out/regs.csv"
images=("--width 8192 --height 8192" "--width 32768 --height 32768"
    "--width 8192 --height 2048 --channels 4" "--width 32768 --height 8192 --channels 4")
{
    for img in "${images[@]}"; do
        echo "== registers, $img"
        HISTLAB_EXTRA_BUILD_OPTIONS="-cl-nv-verbose" $cli -v blur --device gpu --variant tiled \
            --radius 1 --repeat 1 --synthetic random $img 2>&1 | grep -iE "blur_tiled|registers|ptxas info" | head -8
    done
    for regs in ${REGS:-0 32 40 48 64 96}; do
        for img in "${images[@]}"; do
            echo "== maxrregcount $regs, $img"
            $cli blur --device gpu --variant tiled --radius 1 --registers "$regs" \
                --repeat 10 --synthetic random $img --csv "$out/point.csv" | tail -1
            append_point "$out/point.csv" "$csv" maxrregcount "$regs"
        done
    done
} 2>&1 | tee "$out/log.txt"
tar -C "$out" -czf "$out.tar.gz" . && rm -rf "$out" && mkdir -p "$out" && mv "$out.tar.gz" "$out/"
