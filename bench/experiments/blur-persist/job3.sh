# Run from the tree's root on the GPU machine: --persist with the register limit that keeps the
# default's occupancy (gray: 128 registers, 16 warps a compute unit; RGBA: 64, 96, none),
# against the default, two alternating rounds.
set -u
source .device/gpu-env.sh >/dev/null 2>&1
source scripts/gpu-common.sh "$OUT/persist3"
csv=$out/persist3.csv
{
    for round in 1 2; do
        blur_point $round "gray 8192 p0" --synthetic random --width 8192 --height 8192 \
            --border reflect101
        for g in 4 8; do
            for r in 128 96; do
                blur_point $round "gray 8192 p$g r$r" --synthetic random --width 8192 \
                    --height 8192 --border reflect101 --persist $g --registers $r
            done
        done
        blur_point $round "rgba 8192x2048 p0" --synthetic random --width 8192 --height 2048 \
            --channels 4 --border reflect101
        for g in 4 8; do
            for r in 0 96 128; do
                blur_point $round "rgba 8192x2048 p$g r$r" --synthetic random --width 8192 \
                    --height 2048 --channels 4 --border reflect101 --persist $g --registers $r
            done
        done
        blur_point $round "gray 32768 p0" --synthetic random --width 32768 --height 32768 \
            --border reflect101
        blur_point $round "gray 32768 p4 r128" --synthetic random --width 32768 --height 32768 \
            --border reflect101 --persist 4 --registers 128
    done
} 2>&1 | tee "$out/persist3-log.txt"
