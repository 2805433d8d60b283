#!/usr/bin/env bash
# The experiments (histlab-cli sweep) on this machine's CPU device (PoCL): banks, reads, stages and
# atomics at 64 MiB per input, each as JSON and CSV in bench/results/pocl-sweeps-DATE/.
#   bench/experiments/sweeps/bench-sweeps-pocl.sh [BUILD_DIR]   (a build made by scripts/run.sh or scripts/test.sh)
# Run it on a quiet machine: the figures are only as good as the idle cores.
set -euo pipefail
source "$(dirname "$0")/../pocl-common.sh" "${1:-build}" pocl-sweeps
for kind in banks reads stages atomics; do
    echo "== sweep $kind (64 MiB per input)"
    $cli sweep $kind --device cpu --repeat 3 --max-repeat 5 \
        --json "$out/sweep_$kind.json" --csv "$out/sweep_$kind.csv" --quiet
done 2>&1 | tee "$out/log.txt"
pocl_done
