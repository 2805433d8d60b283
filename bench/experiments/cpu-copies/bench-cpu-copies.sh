#!/usr/bin/env bash
# The cpu variant's private copies per block on PoCL, against cv::calcHist in the same runs
# (histlab-bench-calchist, 256 MiB of random, uniform and skewed bytes, 7 timed runs each).
# ROUNDS rounds (default 3), each alternating four builds of the kernel through
# HISTLAB_EXTRA_BUILD_OPTIONS: the default (4 or 2 copies per 4 KiB block, from the repeats in
# the block's first 128 bytes), -D ADAPT=0 (4 copies throughout, the kernel before blocks),
# -D ADAPT_LIMIT=0u (4 copies in blocks) and -D ADAPT_LIMIT=1000u (2 copies in blocks). One CSV
# per run in OUTDIR, named ROUND-SETTING.csv; run it on a quiet machine.
#   bench/experiments/cpu-copies/bench-cpu-copies.sh build-tests OUTDIR
set -euo pipefail
build=${1:?usage: $(basename "$0") BUILD_DIR OUTDIR}
out=${2:?usage: $(basename "$0") BUILD_DIR OUTDIR}
mkdir -p "$out"
bench="$build/bench/histlab-bench-calchist"
declare -A options=([adaptive]="" [four-throughout]="-D ADAPT=0" [four-in-blocks]="-D ADAPT_LIMIT=0u"
    [two-in-blocks]="-D ADAPT_LIMIT=1000u")
for round in $(seq 1 "${ROUNDS:-3}"); do
    for setting in adaptive four-throughout four-in-blocks two-in-blocks; do
        echo "== round $round, $setting (${options[$setting]:-no options})"
        HISTLAB_EXTRA_BUILD_OPTIONS="${options[$setting]}" "$bench" --size 256 --repeat 7 \
            --csv "$out/$round-$setting.csv" | grep -E "histlab|ratio"
    done
done
