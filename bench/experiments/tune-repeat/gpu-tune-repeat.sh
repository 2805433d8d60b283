#!/usr/bin/env bash
# How steady auto's choice is: the dashboard's 256-bin histogram at SIZE (default 16M) in RUNS
# separate processes (default 6), each tuning afresh on the device, each judged against the
# read-only ceiling of its own run. tune.csv has one row per run (the configuration chosen and
# its % of read-only), run_N.json each dashboard, log.txt the printed reports.
#   source .device/gpu-env.sh && bench/experiments/tune-repeat/gpu-tune-repeat.sh "$OUT/tune"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
size=${SIZE:-16M}
{
    for run in $(seq "${RUNS:-6}"); do
        echo "== run $run: dashboard histogram256 at $size"
        $cli dashboard --device gpu --pipeline histogram256 --size "$size" --repeat 10 \
            --json "$out/run_$run.json" --csv "$out/run_$run.csv" | grep -E "histogram256"
    done
} 2>&1 | tee "$out/log.txt"
python3 - "$out" <<'PY'
import csv, glob, os, sys
out = sys.argv[1]
rows = []
for f in sorted(glob.glob(os.path.join(out, "run_*.csv")), key=lambda p: int(p.split("_")[-1][:-4])):
    for r in csv.DictReader(open(f)):
        if r.get("pipeline") == "histogram256":
            rows.append((os.path.basename(f), r.get("variant", ""), r.get("percent_of_ceiling", "")))
with open(os.path.join(out, "tune.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["run", "config", "percent_of_read_only"])
    w.writerows(rows)
for r in rows:
    print(*r, sep="  ")
PY
tar -C "$out" -czf "$out.tar.gz" . && rm -rf "$out" && mkdir -p "$out" && mv "$out.tar.gz" "$out/"
