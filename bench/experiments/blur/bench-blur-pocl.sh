#!/usr/bin/env bash
# Box blur on this machine's CPU device (PoCL) against cv::blur on the same image in the same
# run: 8192 x 8192 8-bit gray, 3 x 3, reflect-101, then the sliding variant's GB/s
# against R. Run it on an idle machine (not while building). Writes CSV/JSON and log.txt to $1.
#   bench/experiments/blur/bench-blur-pocl.sh bench/results/pocl-blur-$(date -u +%F) [BUILD_DIR]
set -uo pipefail
out=${1:?usage: bench-blur-pocl.sh OUTDIR [BUILD_DIR]}
build=${2:-build}
mkdir -p "$out"
cli=$build/app/histlab-cli
img=(--synthetic random --width 8192 --height 8192 --device cpu)
{
    echo "== 3 x 3, 8192 x 8192 8-bit gray: every variant against cv::blur"
    $cli blur "${img[@]}" --variant all --radius 1 --repeat 7 --compare-opencv \
        --json "$out/variants_r1.json" --csv "$out/variants_r1.csv"
    echo "== sliding: GB/s against R"
    $cli blur "${img[@]}" --variant sliding --radius 1,2,4,8,16,32,64 --repeat 5 \
        --json "$out/sliding_radius.json" --csv "$out/sliding_radius.csv"
    echo "== RGB 4096 x 4096, 3 x 3, tiled against cv::blur"
    $cli blur --synthetic random --width 4096 --height 4096 --channels 3 --device cpu \
        --variant tiled --radius 1 --repeat 7 --compare-opencv --csv "$out/rgb_4096.csv"
} 2>&1 | tee "$out/log.txt"
