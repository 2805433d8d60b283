#!/usr/bin/env python3
"""How close histlab-cli register comes to a known transform on real images.

Each case takes a photo from Debian's opencv-doc (or a channel of one), cuts FIXED from its
middle, and makes MOVING by moving the whole photo with OpenCV (bicubic, cv2.warpAffine) and
cutting the same window, so that MOVING(T(p)) = FIXED(p) with

    T(p) = R(angle) (p - c) + c + t,   c = the window's centre,

the transform HistLab reports (docs/register.md). MOVING is then changed as a second modality
would change it: noise, contrast inversion, histogram equalization, another colour channel, a
16-bit copy. Translations are also given to scikit-image's phase_cross_correlation (upsampled
100 times), which returns the shift that registers MOVING with FIXED: -t in (row, column).

Each pair is also registered unmoved: two colour channels of a JPEG lie apart by a fraction of
a pixel already (its chroma is subsampled), so their error is also given from that pair's own
registration.

Writes one CSV row per case (errors in pixels and degrees) and prints a summary. Then the
stereo pairs of opencv-doc (no known answer: the views differ by more than a shift), each
registered by translation and given to phase_cross_correlation, side by side (stereo.csv).

    bench/experiments/register/accuracy.py --cli build-tests/app/histlab-cli --out DIR
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

import cv2
import numpy as np
from skimage.registration import phase_cross_correlation

DATA = "/usr/share/doc/opencv-doc/examples/data"


def moved(photo, window, angle, tx, ty):
    """FIXED and MOVING windows of `photo` (x0, y0, w, h) for T = (tx, ty, angle)."""
    x0, y0, w, h = window
    cx, cy = x0 + (w - 1) / 2.0, y0 + (h - 1) / 2.0
    m = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    m[0, 2] += tx
    m[1, 2] += ty
    warped = cv2.warpAffine(photo, m, (photo.shape[1], photo.shape[0]), flags=cv2.INTER_CUBIC,
                            borderMode=cv2.BORDER_REFLECT)
    return photo[y0:y0 + h, x0:x0 + w].copy(), warped[y0:y0 + h, x0:x0 + w].copy()


def noisy(image, sigma, seed):
    rng = np.random.default_rng(seed)
    top = 65535 if image.dtype == np.uint16 else 255
    return np.clip(image + rng.normal(0, sigma, image.shape), 0, top).astype(image.dtype)


def cases():
    """(name, photo for FIXED, photo for MOVING, modality change of MOVING)."""
    out = []
    for name in ["baboon.jpg", "fruits.jpg", "building.jpg", "aloeL.jpg", "messi5.jpg",
                 "home.jpg"]:
        path = os.path.join(DATA, name)
        if not os.path.exists(path):
            continue
        bgr = cv2.imread(path, cv2.IMREAD_COLOR)
        gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        out.append((name + " noise", gray, gray, lambda m: noisy(m, 4, 1)))
        out.append((name + " inverted", gray, gray, lambda m: 255 - m))
        out.append((name + " equalized", gray, gray, lambda m: cv2.equalizeHist(m)))
        out.append((name + " red vs blue", bgr[:, :, 2], bgr[:, :, 0], lambda m: m))
        wide = gray.astype(np.uint16) * 257
        out.append((name + " 16-bit noise", wide, wide, lambda m: noisy(m, 800, 2)))
    return out


TRANSFORMS = [(2.37, -1.61, 0.0), (-4.8, 3.15, 0.0), (0.43, 0.27, 0.0), (3.1, 2.2, 2.5),
              (-2.6, 1.35, -4.2), (1.7, -3.9, 7.3)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--bins", default="64")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        fp, mp, jp = (os.path.join(tmp, n) for n in ("f.png", "m.png", "r.json"))

        def register(fixed, moving, kind):
            cv2.imwrite(fp, fixed)
            cv2.imwrite(mp, moving)
            cmd = [args.cli, "register", fp, mp, "--transform", kind, "--bins", args.bins,
                   "--max-shift", "12", "--max-angle", "10", "--json", jp, "--quiet"]
            run = subprocess.run(cmd, capture_output=True, text=True)
            if run.returncode != 0:
                print(name, run.stderr.strip(), file=sys.stderr)
                return None
            return json.load(open(jp))

        for name, photo_f, photo_m, change in cases():
            h, w = photo_f.shape
            side = min(h - 96, w - 96, 384)  # a margin for the moves
            window = ((w - side) // 2, (h - side) // 2, side, side)
            fixed, _ = moved(photo_f, window, 0, 0, 0)
            # The pair unmoved: where its own channels already lie apart (a JPEG's colour
            # planes, decoded from subsampled chroma, are offset by a fraction of a pixel).
            _, still = moved(photo_m, window, 0, 0, 0)
            base = {kind: register(fixed, change(still), kind)["transform"]
                    for kind in ("translation", "rigid")}
            for tx, ty, angle in TRANSFORMS:
                _, moving = moved(photo_m, window, angle, tx, ty)
                kind = "translation" if angle == 0 else "rigid"
                r = register(fixed, change(moving), kind)
                if r is None:
                    continue
                t = r["transform"]
                b = base[kind]
                row = {"case": name, "kind": kind, "true_tx": tx, "true_ty": ty,
                       "true_angle_deg": angle, "tx": t["tx"], "ty": t["ty"],
                       "angle_deg": t["angle_deg"],
                       "error_px": math.hypot(t["tx"] - tx, t["ty"] - ty),
                       "error_deg": abs(t["angle_deg"] - angle),
                       "unmoved_tx": b["tx"], "unmoved_ty": b["ty"],
                       "unmoved_angle_deg": b["angle_deg"],
                       "error_from_unmoved_px": math.hypot(t["tx"] - b["tx"] - tx,
                                                           t["ty"] - b["ty"] - ty),
                       "error_from_unmoved_deg": abs(t["angle_deg"] - b["angle_deg"] - angle),
                       "mi_start": r["start"]["mi"],
                       "mi_end": r["end"]["mi"], "evaluations": r["evaluations"],
                       "seconds": r["seconds"], "status": r["status"],
                       "pcc_tx": "", "pcc_ty": "", "pcc_error_px": ""}
                if angle == 0:
                    shift, _, _ = phase_cross_correlation(fixed, moving, upsample_factor=100)
                    row["pcc_tx"], row["pcc_ty"] = -shift[1], -shift[0]
                    row["pcc_error_px"] = math.hypot(-shift[1] - tx, -shift[0] - ty)
                rows.append(row)
                print("%-32s %-11s err %.3f px %.3f deg (from unmoved %.3f px)  pcc %s" % (
                    name, kind, row["error_px"], row["error_deg"], row["error_from_unmoved_px"],
                    "%.3f px" % row["pcc_error_px"] if row["pcc_error_px"] != "" else "-"))
    with open(os.path.join(args.out, "accuracy.csv"), "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        wr.writeheader()
        wr.writerows(rows)
    ok = [r for r in rows if r["error_px"] <= 0.1 and r["error_deg"] <= 0.05]
    print("within 0.1 px and 0.05 deg: %d of %d" % (len(ok), len(rows)))
    ok = [r for r in rows
          if r["error_from_unmoved_px"] <= 0.1 and r["error_from_unmoved_deg"] <= 0.05]
    print("within 0.1 px and 0.05 deg of the unmoved pair's registration: %d of %d" % (
        len(ok), len(rows)))
    pcc = [r for r in rows if r["pcc_error_px"] != ""]
    if pcc:
        print("phase_cross_correlation within 0.1 px: %d of %d translations" % (
            sum(1 for r in pcc if r["pcc_error_px"] <= 0.1), len(pcc)))
    stereo(args.cli, args.out)


def stereo(cli, out):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        skimage_data = "/usr/lib/python3/dist-packages/skimage/data"
        for left, right in [("aloeL.jpg", "aloeR.jpg"), ("left01.jpg", "right01.jpg"),
                            ("left.jpg", "right.jpg"),
                            (os.path.join(skimage_data, "motorcycle_left.png"),
                             os.path.join(skimage_data, "motorcycle_right.png"))]:
            lp, rp = os.path.join(DATA, left), os.path.join(DATA, right)
            left, right = os.path.basename(left), os.path.basename(right)
            if not (os.path.exists(lp) and os.path.exists(rp)):
                continue
            fixed = cv2.imread(lp, cv2.IMREAD_GRAYSCALE)
            moving = cv2.imread(rp, cv2.IMREAD_GRAYSCALE)
            jp = os.path.join(tmp, "r.json")
            run = subprocess.run([cli, "register", lp, rp, "--transform", "translation",
                                  "--json", jp, "--quiet"], capture_output=True, text=True)
            if run.returncode != 0:
                print(left, run.stderr.strip(), file=sys.stderr)
                continue
            t = json.load(open(jp))["transform"]
            shift, _, _ = phase_cross_correlation(fixed, moving, upsample_factor=100)
            rows.append({"fixed": left, "moving": right, "tx": t["tx"], "ty": t["ty"],
                         "pcc_tx": -shift[1], "pcc_ty": -shift[0],
                         "difference_px": math.hypot(t["tx"] + shift[1], t["ty"] + shift[0])})
            print("%-12s %-12s histlab (%.2f, %.2f)  phase_cross_correlation (%.2f, %.2f)" % (
                left, right, t["tx"], t["ty"], -shift[1], -shift[0]))
    if rows:
        with open(os.path.join(out, "stereo.csv"), "w", newline="") as f:
            wr = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            wr.writeheader()
            wr.writerows(rows)


if __name__ == "__main__":
    main()
