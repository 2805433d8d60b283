#!/usr/bin/env bash
# The histogram benchmarks on this machine's CPU device (PoCL): HistLab against OpenCV's
# cv::calcHist and a plain C++ yardstick on the same buffers in the same run, the stage table,
# the variants side by side, and host memory against repeats. Results: bench/results/pocl-DATE/.
#   bench/experiments/histogram/bench-pocl.sh [BUILD_DIR]     (a build made by scripts/run.sh or scripts/test.sh)
# Run it on a quiet machine: the figures are only as good as the idle cores.
set -euo pipefail
cd "$(dirname "$0")/../../.."
build=${1:-build}
cli=$build/app/histlab-cli
out=bench/results/pocl-$(date -u +%F)
mkdir -p "$out"
{ echo "date: $(date -u +%FT%TZ)"; echo "load before: $(cat /proc/loadavg)"; lscpu | grep -E "Model name|^CPU\(s\)"; } > "$out/machine.txt"
$cli devices > "$out/devices.txt"
$cli devices --json > "$out/devices.json"
echo "== cv::calcHist, plain C++ and HistLab (auto), 256 MiB"
"$build/bench/histlab-bench-calchist" --size 256 --repeat 7 --csv "$out/calchist_256MiB.csv"
for dist in random uniform skewed; do
    echo "== auto $dist 64 MiB, stage table"
    $cli histogram --synthetic $dist --size 64 --repeat 7 --verify --stages \
        --json "$out/auto_${dist}_64MiB.json" | grep -E "config|histogram|ceiling|read-only|scatter|reduce|merge|verified"
done
for v in naive local banked cpu; do
    echo "== variant $v, random 16 MiB"
    $cli histogram --synthetic random --size 16 --variant $v --repeat 3 --verify \
        --json "$out/variant_${v}_random_16MiB.json" | grep -E "histogram \(|verified"
done
echo "== host memory: peak resident set, 64 MiB input, 1 and 50 repeats"
echo "repeats,input_bytes,peak_rss_bytes" > "$out/memory.csv"
for r in 1 50; do
    $cli histogram --synthetic random --size 64 --repeat $r --json "$out/.rss.json" --quiet
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(f\"$r,{d['input']['bytes']},{d['host_peak_rss_bytes']}\")" "$out/.rss.json" >> "$out/memory.csv"
done
rm -f "$out/.rss.json"
cat "$out/memory.csv"
echo "load after: $(cat /proc/loadavg)" >> "$out/machine.txt"
