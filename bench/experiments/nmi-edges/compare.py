#!/usr/bin/python3
"""scikit-image's NMI against HistLab's exact bin rule on opencv-doc's stereo pairs.

scikit-image's normalized_mutual_information bins each image over its own [min, max] with
NumPy's double edges; HistLab bins a value v of [lo, hi] into floor((v - lo) * bins / (hi - lo))
exactly (the last bin closed). Where an edge is a whole number that the doubles miss (0..220 in
100 bins: 55.00000000000001), NumPy puts that value one bin low. A is each left image clipped to
220, so that its range is 0..220; B is the right image as it is. Writes A as PNG into OUT so
that `histlab-cli joint OUT/leftNN-220.png RIGHT --bins 100 --range-a 0,220 --range-b LO,HI`
can be compared too.

Usage: compare.py OUT   (needs Debian's python3-skimage, python3-pil and opencv-doc)
"""
import os
import sys

import numpy as np
from PIL import Image
from skimage.metrics import normalized_mutual_information as nmi

DATA = '/usr/share/doc/opencv-doc/examples/data/'


def exact_bins(v, lo, hi, bins):
    v = v.astype(np.int64)
    b = ((v - lo) * bins) // (hi - lo)
    b[v == hi] = bins - 1
    return b


def entropy(counts):
    p = counts[counts > 0] / counts.sum()
    return -(p * np.log2(p)).sum()


out = sys.argv[1]
os.makedirs(out, exist_ok=True)
print('pair,range_a,range_b,bins,skimage_nmi,exact_nmi,difference_percent')
for k in range(1, 5):
    a = np.minimum(np.asarray(Image.open(f'{DATA}left0{k}.jpg').convert('L')), 220)
    b = np.asarray(Image.open(f'{DATA}right0{k}.jpg').convert('L'))
    Image.fromarray(a).save(f'{out}/left0{k}-220.png')
    bins = 100
    sk = nmi(a, b, bins=bins)
    ja = exact_bins(a.ravel(), int(a.min()), int(a.max()), bins)
    jb = exact_bins(b.ravel(), int(b.min()), int(b.max()), bins)
    joint = np.zeros((bins, bins))
    np.add.at(joint, (ja, jb), 1)
    exact = (entropy(joint.sum(1)) + entropy(joint.sum(0))) / entropy(joint.ravel())
    print(f'left0{k}-220/right0{k},{a.min()}-{a.max()},{b.min()}-{b.max()},{bins},'
          f'{sk:.12f},{exact:.12f},{100 * (sk - exact) / exact:+.5f}')
