#!/usr/bin/env bash
# histlab-cli batch on a GPU machine, every pipeline: IMAGES synthetic RGB frames (default 256)
# of WIDTH x HEIGHT (default 4000 x 3000, a 12-megapixel photo) through histogram, joint (r,b),
# blur (radius 1) and equalize, on the first GPU and, where the host has more, on all of them,
# --jobs JOBS host threads (default: one per core) making the frames and their CPU references.
# A GPU machine's build has no image writer, so blur and equalize are checked and not written
# (their table still holds each result's checksum). Each run's JSON and table, and summary.csv,
# into OUTDIR/OUTDIR-NAME.tar.gz.
#   source .device/gpu-env.sh && bench/experiments/batch/gpu-batch.sh OUTDIR
set -euo pipefail
cd "$(dirname "$0")/../../.."
source scripts/gpu-common.sh "$@"
images=${IMAGES:-256}
width=${WIDTH:-4000}
height=${HEIGHT:-3000}
jobs=${JOBS:-$(nproc)}
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
frames=(--synthetic random --images "$images" --width "$width" --height "$height" --channels 3)
summary="$out/summary.csv"
echo "pipeline,devices,images,verified,wall_s,images_per_s,busy,waiting" > "$summary"
run() { # pipeline devices-label device-args... -- pipeline args...
    local p=$1 label=$2
    shift 2
    echo "== batch --pipeline $p, $label"
    $cli batch "${frames[@]}" --jobs "$jobs" --pipeline "$p" "$@" --json "$out/${p}_$label.json" \
        --csv "$out/${p}_$label.csv" 2>/dev/null | grep -E "^(batch|device|[0-9]+ verified|wall)"
    python3 - "$p" "$label" "$out/${p}_$label.json" >> "$summary" <<'EOF'
import json, sys
p, label, path = sys.argv[1:]
j = json.load(open(path))
busy = "/".join(f"{d['busy_fraction']:.3f}" for d in j["devices"])
wait = "/".join(f"{d['wait_fraction']:.3f}" for d in j["devices"])
ok = sum(1 for i in j["images"] if i["status"] == "verified")
print(f"{p},{label},{len(j['images'])},{ok},{j['wall_ms'] / 1000:.3f},{j['images_per_s']:.1f},"
      f"{busy},{wait}")
EOF
}
for p in histogram joint blur equalize; do
    extra=()
    [[ $p == joint ]] && extra=(--pair r,b)
    run $p gpu1 --device gpu "${extra[@]}"
    if ((gpus > 1)); then
        run $p gpu_all --device all "${extra[@]}"
        cmp "$out/${p}_gpu1.csv" "$out/${p}_gpu_all.csv" && echo "tables of 1 and $gpus GPUs: the same file"
    fi
done
cat "$summary"
# One archive: the machines return a handful of files.
tar -C "$out" -czf "$out.tar.gz" . && rm -rf "$out" && mkdir -p "$out" && mv "$out.tar.gz" "$out/"
