#!/usr/bin/env bash
# histlab-cli batch on this machine's CPU device (PoCL) over a folder of real photos (the sample
# images of Debian's opencv-doc, fetched with apt-get download when PHOTOS is not given):
# one decoding thread against the default (one per hardware thread), one PoCL device against
# two (POCL_DEVICES="pthread pthread"), and the baseline a user would write, OpenCV's imread and
# calcHist over the same folder in one Python process (python3-opencv). ROUNDS rounds (default
# 5), the modes alternated. Results: bench/results/pocl-batch-DATE/ (summary.csv, each run's
# JSON).
#   bench/experiments/batch/bench-batch.sh [BUILD_DIR]     (a build made by scripts/run.sh or scripts/test.sh)
# Run it on a quiet machine: the figures are only as good as the idle cores.
set -euo pipefail
cd "$(dirname "$0")/../../.."
build=${1:-build}
cli=$build/app/histlab-cli
out=bench/results/pocl-batch-$(date -u +%F)
source bench/experiments/batch/photos-common.sh

baseline='
import os, sys, time, cv2
d = sys.argv[1]
files = sorted(f for f in os.listdir(d) if f.lower().endswith((".jpg", ".png")))
t = time.perf_counter()
n = 0
for f in files:
    img = cv2.imread(os.path.join(d, f), cv2.IMREAD_UNCHANGED)
    if img is None:
        continue
    hist = lambda plane: cv2.calcHist([plane], [0], None, [256], [0, 256])
    if img.ndim == 2:
        hs = [hist(img)]
    else:
        hs = [hist(img[:, :, c].copy()) for c in range(img.shape[2])]
        code = cv2.COLOR_BGR2GRAY if img.shape[2] == 3 else cv2.COLOR_BGRA2GRAY
        hs.append(hist(cv2.cvtColor(img, code)))
    n += 1
s = time.perf_counter() - t
print(f"{n},{s:.4f},{n / s:.2f}")
'
summary="$out/summary.csv"
echo "round,mode,images,wall_s,images_per_s,busy_fraction,wait_fraction" > "$summary"
row() { # round mode json
    $python - "$1" "$2" "$3" >> "$summary" <<'EOF'
import json, sys
r, mode, path = sys.argv[1:]
j = json.load(open(path))
busy = "/".join(f"{d['busy_fraction']:.3f}" for d in j["devices"])
wait = "/".join(f"{d['wait_fraction']:.3f}" for d in j["devices"])
print(f"{r},{mode},{len(j['images'])},{j['wall_ms'] / 1000:.4f},{j['images_per_s']:.2f},{busy},{wait}")
EOF
}
for r in $(seq "${ROUNDS:-5}"); do
    $cli batch "$photos" --jobs 1 --quiet --json "$out/r${r}_jobs1.json" 2>/dev/null
    row "$r" jobs1 "$out/r${r}_jobs1.json"
    $cli batch "$photos" --quiet --json "$out/r${r}_default.json" 2>/dev/null
    row "$r" default "$out/r${r}_default.json"
    POCL_DEVICES="pthread pthread" $cli batch "$photos" --device all --quiet \
        --json "$out/r${r}_two_devices.json" 2>/dev/null
    row "$r" two_pocl_devices "$out/r${r}_two_devices.json"
    IFS=, read -r n s ips < <($python -c "$baseline" "$photos")
    echo "$r,opencv_python,$n,$s,$ips,," >> "$summary"
done
# The per-image JSON is large (about 1 MB): keep the first round's default run; the summary has
# every run.
find "$out" -name 'r*_*.json' ! -name r1_default.json -delete
echo "load after: $(cat /proc/loadavg)" >> "$out/machine.txt"
column -s, -t < "$summary"
