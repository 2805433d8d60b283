#!/usr/bin/env bash
# The tiled 3 x 3 blur's NVIDIA-only paths (byte permutes, warp shuffles for the pixels beside
# each vector) are not compiled on PoCL, where the unit tests run. This checks them on a GPU:
# every border, gray and RGBA, random and gradient data, on small and odd shapes (a row of one
# vector or none wholly inside, widths that are not multiples of 16 or of a warp's 512 bytes,
# heights that are not multiples of the rows per work-item). Each run is verified byte for byte
# against the CPU reference; shapes.txt lists every run, and the exit status is 1 if any failed.
#   source .device/gpu-env.sh && scripts/gpu-blur-shapes.sh "$OUT/shapes"
set -uo pipefail
source "$(dirname "$0")/gpu-common.sh" "${1:-}"
runs=0 failed=0
for border in reflect101 replicate interior; do
    for shape in "1 1 1" "5 3 1" "17 9 1" "18 9 1" "33 5 1" "70 23 1" "257 19 1" \
        "520 9 1" "4097 33 1" "8191 17 1" "1 1 4" "3 5 4" "4 4 4" "5 7 4" "129 9 4" \
        "1025 13 4" "2047 11 4"; do
        read -r w h c <<<"$shape"
        for kind in random gradient; do
            line=$($cli blur --device gpu --variant tiled --radius 1 --border "$border" --repeat 1 \
                --synthetic "$kind" --width "$w" --height "$h" --channels "$c" 2>&1 | tail -1)
            runs=$((runs + 1))
            [[ $line == *"byte for byte"* ]] || failed=$((failed + 1))
            echo "$border $kind ${w}x${h}x$c: $line"
        done
    done
done > "$out/shapes.txt"
echo "$runs runs, $failed not verified byte for byte" | tee -a "$out/shapes.txt"
[[ $failed == 0 ]]
