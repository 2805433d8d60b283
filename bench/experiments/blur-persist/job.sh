# Run from the tree's root on the GPU machine: the tiled blur with --persist G (about G groups
# per compute unit along y, each looping down its column of row strips) against the default (one
# strip per work-item), each beside the same run's copy kernel, in two alternating rounds.
set -u
source .device/gpu-env.sh >/dev/null 2>&1
source scripts/gpu-common.sh "$OUT/persist"
csv=$out/persist.csv
{
    for round in 1 2; do
        for g in 0 2 3 4 6 8; do
            blur_point $round "gray 8192 p$g" --synthetic random --width 8192 --height 8192 \
                --border reflect101 --persist $g
            blur_point $round "rgba 8192x2048 p$g" --synthetic random --width 8192 \
                --height 2048 --channels 4 --border reflect101 --persist $g
            blur_point $round "gray 4096 p$g" --synthetic random --width 4096 --height 4096 \
                --border reflect101 --persist $g
        done
        for g in 0 4 8; do
            blur_point $round "gray 32768 p$g" --synthetic random --width 32768 --height 32768 \
                --border reflect101 --persist $g
            blur_point $round "rgba 32768x8192 p$g" --synthetic random --width 32768 \
                --height 8192 --channels 4 --border reflect101 --persist $g
        done
    done
} 2>&1 | tee "$out/persist-log.txt"
