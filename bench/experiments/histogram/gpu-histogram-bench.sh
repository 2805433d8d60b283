#!/usr/bin/env bash
# Runs the 256-bin histogram benchmarks on the GPU machine (see ../shared/device/README.md):
# builds the Qt-free core + CLI, then writes JSON/CSV results to the folder given as $1.
#   source .device/gpu-env.sh && bench/experiments/histogram/gpu-histogram-bench.sh "$OUT"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
$cli devices | tee "$out/devices.txt"
for size in 1024 16; do
    for dist in random uniform skewed; do
        echo "== auto $dist $size MiB"
        $cli -v histogram --synthetic $dist --size $size --repeat 10 --verify --stages \
            --json "$out/auto_${dist}_${size}.json" 2>&1 | grep -v "^histlab.build"
    done
done
# The reference text's kernel as written: 16 copies, 4 groups per CU, second reduction kernel.
for dist in random uniform skewed; do
    echo "== reference-config $dist 1024 MiB"
    $cli histogram --synthetic $dist --size 1024 --repeat 10 --verify --variant banked --banks 16 \
        --groups-per-cu 4 --wg 256 --merge kernel --json "$out/reference_${dist}_1024.json"
done
for chunk in 16 32 64; do
    echo "== end-to-end random 1024 MiB, chunks of $chunk MiB"
    $cli histogram --synthetic random --size 1024 --end-to-end --chunk $chunk --repeat 5 --verify \
        --json "$out/e2e_random_1024_chunk${chunk}.json"
done
echo "== naive random 256 MiB"
$cli histogram --synthetic random --size 256 --repeat 3 --verify --variant naive \
    --json "$out/naive_random_256.json"
echo "== host memory: peak resident set, 1 GiB random, 1 and 100 repeats"
echo "repeats,input_bytes,peak_rss_bytes" > "$out/memory.csv"
for r in 1 100; do
    $cli histogram --synthetic random --size 1024 --repeat $r --json "$out/.rss.json" --quiet
    grep -o '"host_peak_rss_bytes": [0-9]*' "$out/.rss.json" | sed "s/.*: /$r,1073741824,/" >> "$out/memory.csv"
done
rm -f "$out/.rss.json"
cat "$out/memory.csv"
