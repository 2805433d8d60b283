#!/usr/bin/env bash
# Runs the experiments (banks, reads, stages, atomics; groups too) on the GPU
# machine (see ../shared/device/README.md): builds the Qt-free core + CLI, then writes each
# sweep's JSON and CSV to the folder given as $1, and the sweep's lines to log.txt there.
#   source .device/gpu-env.sh && bench/experiments/sweeps/gpu-sweeps.sh "$OUT"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
for kind in banks reads stages atomics groups; do
    echo "== sweep $kind (256 MiB per input)"
    $cli sweep $kind --device gpu --repeat 5 --max-repeat 20 \
        --json "$out/sweep_$kind.json" --csv "$out/sweep_$kind.csv" --quiet
done 2>&1 | tee "$out/log.txt"
