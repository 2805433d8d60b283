#!/usr/bin/env bash
# Where the small blurs lose against the copy kernel: the tiled 3 x 3 blur (defaults, gray and
# RGBA, reflect-101, random bytes) and the same run's copy kernel at sizes from 16 MiB to 1 GiB,
# so that each time can be read as fixed + bytes / bandwidth; and gray 8192 wide at heights
# that fill a whole number of waves of resident groups or not (on the H200 at the defaults:
# 4 groups of 128 work-items per compute unit, 132 compute units, 8 rows a work-item and 2,048
# bytes a group: 1,056 rows a wave), to see whether the last, partly filled wave is what costs.
# Two alternating rounds, every run verified; the rows go to sizes.csv, and the exit status is 1
# unless all 36 runs are there, each verified byte for byte.
#   source .device/gpu-env.sh && bench/experiments/blur-sizes/gpu-blur-sizes.sh "$OUT/sizes"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
csv=$out/sizes.csv
{
    for round in 1 2; do
        for side in 4096 8192 11584 16384 23168 32768; do
            blur_point $round "gray $side" --synthetic random --width $side --height $side \
                --border reflect101
            blur_point $round "rgba $side" --synthetic random --width $side \
                --height $((side / 4)) --channels 4 --border reflect101
        done
        for height in 7392 7920 8192 8448 8976 16896; do
            blur_point $round "waves 8192x$height" --synthetic random --width 8192 \
                --height $height --border reflect101
        done
    done
} 2>&1 | tee "$out/sizes-log.txt"
verified=$(grep -c ',verified,' "$csv" 2>/dev/null)
echo "${verified:-0} of 36 runs verified" | tee -a "$out/sizes-log.txt"
[[ ${verified:-0} == 36 ]]
