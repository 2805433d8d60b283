#!/usr/bin/env bash
# Box blur benchmarks on the GPU machine (see ../shared/device/README.md): builds the
# Qt-free core + CLI, then writes every run's JSON/CSV to the folder given as $1 and the
# printed tables to log.txt there. Every run is verified against the CPU reference and timed
# next to the copy kernel on the same bytes in the same run.
#   source .device/gpu-env.sh && bench/experiments/blur/gpu-blur.sh "$OUT"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
img=(--synthetic random --width 8192 --height 8192 --device gpu)
{
    echo "== 3 x 3, 8192 x 8192 8-bit gray: every variant"
    $cli blur "${img[@]}" --variant all --radius 1 --repeat 20 \
        --json "$out/variants_r1.json" --csv "$out/variants_r1.csv"
    echo "== tiled, the window's rows loaded first (packed, a GPU's default): rows x group size"
    for rows in 2 4 8; do
        for wg in 64 128 256; do
            echo "packed rows $rows wg $wg"
            $cli blur "${img[@]}" --variant tiled --radius 1 --packed 1 --rows $rows --wg $wg \
                --repeat 20 --csv "$out/tiled_p1_r${rows}_wg${wg}.csv" | grep -E "^tiled"
        done
    done
    echo "== tiled, packed, two 16-byte vectors per work-item and row (rows 4, wg 128)"
    $cli blur "${img[@]}" --variant tiled --radius 1 --packed 1 --vectors 2 --rows 4 --wg 128 \
        --repeat 20 --csv "$out/tiled_p1_v2_r4.csv" | grep -E "^tiled"
    echo "== tiled, sliding down as horizontal sums (the earlier default): 16 rows, wg 128, swar 0/1"
    for swar in 0 1; do
        $cli blur "${img[@]}" --variant tiled --radius 1 --packed 0 --swar $swar --rows 16 \
            --wg 128 --repeat 20 --csv "$out/tiled_p0_s${swar}_r16.csv" | grep -E "^tiled"
    done
    echo "== tiled, 16384 x 16384 and 4096 x 4096 8-bit gray, defaults"
    for side in 16384 4096; do
        $cli blur --synthetic random --width $side --height $side --device gpu --variant tiled \
            --radius 1 --repeat 20 --csv "$out/tiled_${side}.csv" | grep -E "^tiled"
    done
    echo "== sliding: GB/s against R"
    $cli blur "${img[@]}" --variant sliding --radius 1,2,4,8,16,32,64 --repeat 10 \
        --json "$out/sliding_radius.json" --csv "$out/sliding_radius.csv"
    echo "== sliding: rows per column strip, R = 1 and 64"
    for rows in 32 64 128 256; do
        $cli blur "${img[@]}" --variant sliding --radius 1,64 --rows $rows --repeat 10 \
            --csv "$out/sliding_rows${rows}.csv" | grep -E "^sliding"
    done
    echo "== direct: GB/s against R (R <= 8: its cost grows with R^2)"
    $cli blur "${img[@]}" --variant direct --radius 1,2,4,8 --repeat 5 \
        --json "$out/direct_radius.json" --csv "$out/direct_radius.csv"
    echo "== tiled: R = 1..3, RGBA and 16-bit gray, 4096 x 4096"
    $cli blur --synthetic random --width 4096 --height 4096 --channels 4 --device gpu \
        --variant all --radius 1,2,3 --repeat 10 --csv "$out/rgba_4096.csv"
    $cli blur --synthetic random --width 4096 --height 4096 --depth 16 --device gpu \
        --variant all --radius 1,2,3 --repeat 10 --csv "$out/gray16_4096.csv"
    echo "== the reference text's launches, with the corners table"
    $cli blur --synthetic gradient --width 8192 --height 8192 --device gpu --corners --repeat 10
    $cli blur --synthetic gradient --width 1026 --height 770 --device gpu --corners --repeat 10
} 2>&1 | tee "$out/log.txt"
# The device tool brings back a limited number of files: one archive.
tar -C "$out" -czf "$out.tar.gz" . && rm -rf "$out" && mkdir -p "$out" && mv "$out.tar.gz" "$out/"
