#!/usr/bin/python3
# Costes' stepwise search on real photos: for the opencv-doc example JPEGs (Debian's opencv-doc),
# each photo's channel pairs r,g and g,b through `histlab-cli joint --coloc stepwise --json`,
# against the search written here from Costes et al. 2004 (Biophys. J. 86:3993) on the pixels
# as OpenCV decodes them: the orthogonal regression line from the exact integer sums (Decimal),
# then t from the working channel's maximum down by one, TA and TB rounded half up, until
# Pearson's r of the pairs with a < TA or b < TB is <= 0 or undefined. r's sign needs no square
# root: r <= 0 or undefined exactly when n Σab - Σa Σb <= 0 or a variance is 0, all integers.
# Writes OUT/stepwise.csv.
#   /usr/bin/python3 bench/experiments/coloc/costes-stepwise.py build-tests/app/histlab-cli OUT
import csv, glob, json, math, subprocess, sys
from decimal import Decimal, getcontext

import cv2
import numpy as np

getcontext().prec = 50
cli, out = sys.argv[1], sys.argv[2]
photos = sorted(glob.glob("/usr/share/doc/opencv-doc/examples/data/*.jpg"))[:12]


def histlab(path, channels):
    subprocess.run([cli, "joint", path, "--channels", channels, "--coloc", "stepwise",
                    "--repeat", "1", "--quiet", "--json", out + "/run.json"], check=True,
                   capture_output=True)
    return json.load(open(out + "/run.json"))["colocalisation"]


def centred(a, b):
    return len(a) * int((a * b).sum()) - int(a.sum()) * int(b.sum())


def threshold(x):
    return int(min(max(math.floor(x + 0.5), 0), 255))


def stepwise(a, b):
    caa, cbb, cab = centred(a, a), centred(b, b), centred(a, b)
    vaa, vbb, vab = Decimal(caa), Decimal(cbb), Decimal(cab)
    slope = float((vbb - vaa + ((vbb - vaa) ** 2 + 4 * vab * vab).sqrt()) / (2 * vab))
    intercept = float(b.sum()) / a.size - slope * (float(a.sum()) / a.size)
    on_a = -1 < slope < 1
    t = int(a.max() if on_a else b.max())
    k = 0
    while t >= 1:
        ta = t if on_a else threshold((t - intercept) / slope)
        tb = threshold(t * slope + intercept) if on_a else t
        k += 1
        below = (a < ta) | (b < tb)
        x, y = a[below], b[below]
        if len(x) == 0 or centred(x, x) <= 0 or centred(y, y) <= 0 or centred(x, y) <= 0:
            break
        t -= 1
    return slope, intercept, ta, tb, k


rows = []
for path in photos:
    img = cv2.imread(path, cv2.IMREAD_COLOR)  # BGR
    for name, ia, ib in (("r,g", 2, 1), ("g,b", 1, 0)):
        c = histlab(path, name)
        a = img[:, :, ia].astype(np.int64).ravel()
        b = img[:, :, ib].astype(np.int64).ravel()
        slope, intercept, ta, tb, k = stepwise(a, b)
        same = (c["threshold_a"], c["threshold_b"], c["candidates"]) == (ta, tb, k)
        rows.append([path.split("/")[-1], name, c["pairs"], c["slope"], slope,
                     c["threshold_a"], ta, c["threshold_b"], tb, c["candidates"], k,
                     c["passes"], c["status"], "same" if same else "differs"])
with open(out + "/stepwise.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["photo", "channels", "pairs", "histlab_slope", "here_slope", "histlab_ta",
                "here_ta", "histlab_tb", "here_tb", "histlab_candidates", "here_candidates",
                "passes", "status", "thresholds"])
    w.writerows(rows)
print("thresholds and candidates the same on", sum(r[-1] == "same" for r in rows), "of",
      len(rows), "pairs; all verified", all(r[-2] == "verified" for r in rows))
