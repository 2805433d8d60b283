#!/usr/bin/env bash
# The bins experiment (histlab-cli sweep bins) on this machine's CPU device (PoCL): every
# large-bin method at 256, 257, 512 ... 65,536 bins on 16 MiB of 16-bit samples (random, skewed,
# smooth, and the sample image's gray plane), as JSON and CSV in bench/results/pocl-bins-DATE/.
#   bench/experiments/bins/bench-bins-pocl.sh [BUILD_DIR]   (a build made by scripts/run.sh or scripts/test.sh)
# Run it on a quiet machine: the figures are only as good as the idle cores.
set -euo pipefail
source "$(dirname "$0")/../pocl-common.sh" "${1:-build}" pocl-bins
$cli sweep bins --device cpu --size 16 --repeat 5 --image resources/sample.png \
    --json "$out/sweep_bins.json" --csv "$out/sweep_bins.csv" --quiet 2>&1 | tee "$out/log.txt"
pocl_done
