#!/bin/bash
# Registration speed on a GPU machine (../shared/device/README.md) or on PoCL: `register
# --synthetic` pairs (smooth 8-bit, MOVING made at a known rigid transform and inverted), a whole
# rigid registration each, then --benchmark 5: level 0's MI evaluations a second, the device in
# batches and one at a time against the CPU reference on all the host's threads, in turns.
# Each run's report goes to OUT/summary.txt, its JSON to OUT/.
#   [SIZES="512 1024 2048 8192"] [BINS="64 256"] [DEVICE=gpu] \
#       bash bench/experiments/register/gpu-runs.sh BUILD_DIR OUT
set -u
cli=$1/app/histlab-cli out=$2
mkdir -p "$out"
date -u >>"$out/summary.txt"
for size in ${SIZES:-512 1024 2048 8192}; do
    for bins in ${BINS:-64 256}; do
        name="register-$size-$bins"
        echo "== register --synthetic ${size}x$size --bins $bins --benchmark 5" >>"$out/summary.txt"
        "$cli" register --synthetic "${size}x$size" --bins "$bins" --benchmark 5 \
            --device "${DEVICE:-gpu}" --json "$out/$name.json" >>"$out/summary.txt" 2>&1
        echo "exit $?" >>"$out/summary.txt"
    done
done
date -u >>"$out/summary.txt"
