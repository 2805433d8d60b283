#!/usr/bin/env bash
set -uo pipefail
source .device/gpu-env.sh
source scripts/gpu-common.sh "$OUT/rows"
csv="$out/rows.csv"
for round in 1 2; do
  for rows in 8 6 10 12; do
    blur_point $round "rows $rows" --synthetic random --width 8192 --height 8192 --channels 1 --rows $rows
  done
  for rows in 4 3 5 6; do
    blur_point $round "rows $rows" --synthetic random --width 8192 --height 2048 --channels 4 --rows $rows
  done
done 2>&1 | tee "$out/log.txt"
for rows in 6 8 10 12; do echo "gray rows $rows: $(HISTLAB_EXTRA_BUILD_OPTIONS=-cl-nv-verbose $cli -v blur --device gpu --variant tiled --radius 1 --synthetic random --width 256 --height 64 --rows $rows --repeat 1 2>&1 | grep -oE "Used [0-9]+ registers" | head -1 | tr '\n' ' ')"; done
