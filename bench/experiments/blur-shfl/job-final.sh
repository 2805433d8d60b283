#!/usr/bin/env bash
set -uo pipefail
source .device/gpu-env.sh
scripts/gpu-blur-shapes.sh "$OUT/shapes"; echo "shapes rc=$?"
cli=./build-gpu/app/histlab-cli
mkdir -p "$OUT/sass"
for c in 1 4; do
  opts=$($cli -v blur --device gpu --variant tiled --radius 1 --synthetic random --width 256 --height 64 --channels $c --repeat 1 2>&1 | sed -n 's/.*built blur.cl.* with "\(.*\)"/\1/p' | head -1)
  echo "== channels $c: $opts"
  scripts/gpu-sass.sh kernels/blur.cl blur_tiled "$opts" "$OUT/sass/c$c" | head -12
  rm -f "$OUT/sass/c$c.cubin" "$OUT/sass/c$c.ptx"; gzip -f "$OUT/sass/c$c.sass"
done
for r in run1 run2; do scripts/gpu-frontier.sh "$OUT/frontier/$r"; done
tar czf "$OUT/final.tgz" -C "$OUT" shapes sass frontier
