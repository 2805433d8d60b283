#!/usr/bin/env bash
# The tiled 3 x 3 blur's shapes on the GPU machine (see ../shared/device/README.md): rows per
# work-item, work-group width, 16-byte vectors per row, and (RGBA) two pixels' bytes per
# register (SWAR), on the frontier's images: gray 8192^2 and 32768^2, and RGBA with the same
# bytes (8192 x 2048, 32768 x 8192). Each run is verified and timed against the copy kernel on
# the same bytes in the same run. tiles.csv has one row per run (the --csv rows of every run),
# log.txt the printed reports.
#   source .device/gpu-env.sh && bench/experiments/blur-tiles/gpu-blur-tiles.sh "$OUT/blur"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
csv="$out/tiles.csv"
n=0
# run ARGS...: one tiled blur, its CSV rows appended to tiles.csv (the header once).
run() {
    n=$((n + 1))
    echo "-- $*"
    $cli blur --device gpu --variant tiled --radius 1 --repeat 10 "$@" --csv "$out/run$n.csv" |
        tail -2
    append_point "$out/run$n.csv" "$csv"
}
{
    for side in 8192 32768; do
        gray="--synthetic random --width $side --height $side"
        rgba="--synthetic random --width $side --height $((side / 4)) --channels 4"
        echo "== gray $side²"
        run $gray
        for rows in 2 4 8; do
            for wg in 64 128 256; do
                [[ $side == 32768 && $wg != 128 ]] && continue
                run $gray --rows $rows --wg $wg
            done
        done
        run $gray --vectors 2
        run $gray --packed 0 --swar 1 --rows 8
        run $gray --packed 0 --swar 1 --rows 16
        echo "== RGBA $side x $((side / 4))"
        run $rgba
        for swar in 0 1; do
            for rows in 2 4 8; do
                run $rgba --swar $swar --rows $rows
            done
            run $rgba --swar $swar --vectors 2
            run $rgba --swar $swar --wg 256
        done
    done
} 2>&1 | tee "$out/log.txt"
