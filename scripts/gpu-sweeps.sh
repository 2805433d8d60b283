#!/usr/bin/env bash
# Runs the experiments (banks, reads, stages, atomics; groups too) on the GPU
# machine (see ../shared/device/README.md): builds the Qt-free core + CLI, then writes each
# sweep's JSON and CSV to the folder given as $1, and the sweep's lines to log.txt there.
#   source .device/gpu-env.sh && scripts/gpu-sweeps.sh "$OUT"
set -uo pipefail
out=${1:?usage: gpu-sweeps.sh OUTDIR}
mkdir -p "$out"
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DHISTLAB_GUI=OFF -DHISTLAB_OPENCV=OFF \
    -DBUILD_TESTING=OFF >/dev/null && cmake --build build-gpu >/dev/null || exit 1
cli=./build-gpu/app/histlab-cli
$cli devices --json > "$out/devices.json"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$out/nvidia-smi.csv" 2>/dev/null
for kind in banks reads stages atomics groups; do
    echo "== sweep $kind (256 MiB per input)"
    $cli sweep $kind --device gpu --repeat 5 --max-repeat 20 \
        --json "$out/sweep_$kind.json" --csv "$out/sweep_$kind.csv" --quiet
done 2>&1 | tee "$out/log.txt"
