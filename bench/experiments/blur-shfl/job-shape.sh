#!/usr/bin/env bash
set -uo pipefail
source .device/gpu-env.sh
source scripts/gpu-common.sh "$OUT/shape"
csv="$out/shape.csv"
for round in 1 2; do
  for rows in 8 4 16; do for wg in 128 64 256; do
    blur_point $round "rows $rows wg $wg" --synthetic random --width 8192 --height 8192 --channels 1 --rows $rows --wg $wg
  done; done
  for rows in 4 2 8; do for wg in 128 64 256; do
    blur_point $round "rows $rows wg $wg" --synthetic random --width 8192 --height 2048 --channels 4 --rows $rows --wg $wg
  done; done
done 2>&1 | tee "$out/log.txt"
