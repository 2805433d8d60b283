#!/usr/bin/python3
# Colocalisation on real photos: for the opencv-doc example JPEGs (Debian's opencv-doc), each
# photo's channel pairs r,g and g,b through `histlab-cli joint --json`, against numpy.corrcoef in
# float64 and the exact r (Python's Decimal, 50 digits, from the integer sums of the same
# pixels decoded by OpenCV); then each photo's r,g pair with g shifted by 3 pixels (a PPM made
# here), whose Pearson's r must fall. Writes OUT/photos.csv and OUT/shifted.csv.
#   /usr/bin/python3 bench/experiments/coloc/real-photos.py build-tests/app/histlab-cli OUT
import csv, glob, json, subprocess, sys
from decimal import Decimal, getcontext

import cv2
import numpy as np

getcontext().prec = 50
cli, out = sys.argv[1], sys.argv[2]
photos = sorted(glob.glob("/usr/share/doc/opencv-doc/examples/data/*.jpg"))[:12]


def coloc(path, channels):
    subprocess.run([cli, "joint", path, "--channels", channels, "--repeat", "1", "--quiet",
                    "--json", out + "/run.json"], check=True, capture_output=True)
    return json.load(open(out + "/run.json"))["colocalisation"]


def exact_r(a, b):
    n = len(a)
    sa, sb = int(a.sum()), int(b.sum())
    cab = n * int((a * b).sum()) - sa * sb
    caa = n * int((a * a).sum()) - sa * sa
    cbb = n * int((b * b).sum()) - sb * sb
    return Decimal(cab) / (Decimal(caa) * Decimal(cbb)).sqrt()


rows, shifted = [], []
for path in photos:
    img = cv2.imread(path, cv2.IMREAD_COLOR)  # BGR
    for name, ia, ib in (("r,g", 2, 1), ("g,b", 1, 0)):
        c = coloc(path, name)
        a = img[:, :, ia].astype(np.int64).ravel()
        b = img[:, :, ib].astype(np.int64).ravel()
        r = exact_r(a, b)
        npr = np.corrcoef(a.astype(np.float64), b.astype(np.float64))[0, 1]
        rows.append([path.split("/")[-1], name, c["pairs"], repr(c["pearson"]), repr(npr),
                     "%.1e" % abs(Decimal(c["pearson"]) - r), "%.1e" % abs(Decimal(npr) - r),
                     c["threshold_a"], c["threshold_b"], c["passes"], c["status"]])
    # r and g, g moved 3 pixels right (the first 3 columns repeat column 0).
    rgb = img[:, :, ::-1].copy()
    g = rgb[:, :, 1].copy()
    rgb[:, 3:, 1] = g[:, :-3]
    rgb[:, :3, 1] = g[:, :1]
    h, w = g.shape
    ppm = out + "/shifted.ppm"
    open(ppm, "wb").write(b"P6 %d %d 255\n" % (w, h) + rgb.tobytes())
    same = coloc(path, "r,g")["pearson"]
    moved = coloc(ppm, "r,g")
    shifted.append([path.split("/")[-1], repr(same), repr(moved["pearson"]), moved["status"]])
with open(out + "/photos.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["photo", "channels", "pairs", "histlab_r", "numpy_r", "histlab_err", "numpy_err",
                "threshold_a", "threshold_b", "passes", "status"])
    w.writerows(rows)
with open(out + "/shifted.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["photo", "r_rg", "r_rg_g_shifted_3px", "status"])
    w.writerows(shifted)
print("worst |histlab - exact|", max(float(x[5]) for x in rows),
      "worst |numpy - exact|", max(float(x[6]) for x in rows),
      "all verified", all(x[-1] == "verified" for x in rows + shifted),
      "r fell on", sum(float(s[2]) < float(s[1]) for s in shifted), "of", len(shifted))
