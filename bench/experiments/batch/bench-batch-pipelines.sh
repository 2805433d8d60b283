#!/usr/bin/env bash
# histlab-cli batch's joint, blur and equalize pipelines on this machine's CPU device (PoCL) over
# a folder of real photos (the sample images of Debian's opencv-doc, fetched with apt-get
# download when PHOTOS is not given), each beside the loop a user would write with OpenCV in one
# Python process (python3-opencv) doing the same work:
#   joint      batch --pipeline joint --pair r,b      vs  imread, calcHist of (R, B) in 256 x 256
#                                                          and the entropies and MI with NumPy
#   blur       batch --pipeline blur --out DIR         vs  imread, cv2.blur 3 x 3 (reflect101),
#                                                          imwrite PNG
#   equalize   batch --pipeline equalize --out DIR     vs  imread, cv2.equalizeHist of the gray
#                                                          image or of a colour image's Y (YCrCb),
#                                                          imwrite PNG
# The OpenCV loops are the work a user would do, not the same arithmetic: HistLab also checks
# every result against its CPU reference, and equalizes colour through the luma as docs/equalize.md
# defines. ROUNDS rounds (default 3), the modes alternated. Results:
# bench/results/pocl-batch-pipelines-DATE/ (summary.csv, the first round's JSON of each).
#   bench/experiments/batch/bench-batch-pipelines.sh [BUILD_DIR]
# Run it on a quiet machine: the figures are only as good as the idle cores.
set -euo pipefail
cd "$(dirname "$0")/../../.."
build=${1:-build}
cli=$build/app/histlab-cli
out=bench/results/pocl-batch-pipelines-$(date -u +%F)
source bench/experiments/batch/photos-common.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

baseline='
import os, sys, time, cv2, numpy as np
mode, d, dest = sys.argv[1:]
files = sorted(f for f in os.listdir(d) if f.lower().endswith((".jpg", ".png")))
os.makedirs(dest, exist_ok=True)
def entropy(p):
    p = p[p > 0] / p.sum()
    return float(-(p * np.log2(p)).sum())
t = time.perf_counter()
n = 0
for f in files:
    img = cv2.imread(os.path.join(d, f), cv2.IMREAD_UNCHANGED)
    if img is None:
        continue
    if mode == "joint":
        if img.ndim != 3:
            continue
        h = cv2.calcHist([img], [2, 0], None, [256, 256], [0, 256, 0, 256])
        mi = entropy(h.sum(1)) + entropy(h.sum(0)) - entropy(h.ravel())
    elif mode == "blur":
        cv2.imwrite(os.path.join(dest, os.path.splitext(f)[0] + ".png"), cv2.blur(img, (3, 3)))
    else:
        if img.ndim == 2:
            res = cv2.equalizeHist(img) if img.dtype == np.uint8 else img
        else:
            ycc = cv2.cvtColor(img[:, :, :3], cv2.COLOR_BGR2YCrCb)
            ycc[:, :, 0] = cv2.equalizeHist(ycc[:, :, 0])
            res = cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR)
        cv2.imwrite(os.path.join(dest, os.path.splitext(f)[0] + ".png"), res)
    n += 1
s = time.perf_counter() - t
print(f"{n},{s:.4f},{n / s:.2f}")
'
summary="$out/summary.csv"
echo "round,pipeline,mode,images,verified,wall_s,images_per_s,busy_fraction,wait_fraction" \
    > "$summary"
row() { # round pipeline mode json
    $python - "$@" >> "$summary" <<'EOF'
import json, sys
r, pipeline, mode, path = sys.argv[1:]
j = json.load(open(path))
busy = "/".join(f"{d['busy_fraction']:.3f}" for d in j["devices"])
wait = "/".join(f"{d['wait_fraction']:.3f}" for d in j["devices"])
ok = sum(1 for i in j["images"] if i["status"] == "verified")
print(f"{r},{pipeline},{mode},{len(j['images'])},{ok},{j['wall_ms'] / 1000:.4f},"
      f"{j['images_per_s']:.2f},{busy},{wait}")
EOF
}
for r in $(seq "${ROUNDS:-3}"); do
    for p in joint blur equalize; do
        case $p in
            joint) args=(--pair r,b) ;;
            *) args=(--out "$work/$p") ;;
        esac
        $cli batch "$photos" --pipeline $p "${args[@]}" --quiet --json "$out/r${r}_$p.json" \
            2>/dev/null
        row "$r" $p histlab_default "$out/r${r}_$p.json"
        IFS=, read -r n s ips < <($python -c "$baseline" $p "$photos" "$work/cv_$p")
        echo "$r,$p,opencv_python,$n,,$s,$ips,," >> "$summary"
    done
done
find "$out" -name 'r*_*.json' ! -name 'r1_*.json' -delete
echo "load after: $(cat /proc/loadavg)" >> "$out/machine.txt"
column -s, -t < "$summary"
