#!/usr/bin/env python3
"""Writes a multi-page TIFF (a stack) of deterministic pixels, uncompressed, little-endian.

    make-stack-tiff.py OUT --pages N --width W --height H [--bits 8|16] [--channels 1|3]
                       [--page-bits P:B] [--page-size P:WxH] [--cut-page P] [--focus]

Each page's values depend on the page, the row and the column, so every page has its own
histogram. --page-bits gives page P (from 1) another depth, --page-size another size, and
--cut-page cuts the file inside page P's pixels (a truncated stack). --focus writes a
z-stack through a bright bead instead: a dim, slightly noisy background and a disc whose
brightness and sharpness peak at the middle page, each channel peaking a page apart (the
picture of docs/stack-view.png; 8-bit only). Python's standard library
only; a row is built once and rotated for the other rows, so a 4 GiB stack takes about a minute
(the memory experiment of the stack runs).
"""
import argparse
import struct


def page_row(page, width, channels, bits):
    n = width * channels
    if bits == 8:
        return bytes((i * 7 + page * 31 + (i // 5)) % 256 for i in range(n))
    values = [(i * 257 + page * 4099 + (i // 3) * 11) % 65536 for i in range(n)]
    return struct.pack("<%dH" % n, *values)


def focus_page(page, pages, width, height, channels):
    """A page of the bead stack: background 20-27, the bead up to 235 at its sharpest page."""
    out = bytearray()
    cx, cy = width / 2, height / 2
    for y in range(height):
        for x in range(width):
            r2 = ((x - cx) ** 2 + (y - cy) ** 2) / (min(width, height) / 4) ** 2
            for c in range(channels):
                dz = page - (pages + 1) / 2 - (c - 1)  # each channel a page apart
                spread = 1 + 0.15 * dz * dz  # out of focus: wider and dimmer
                bead = 215 / spread * 2.718281828 ** (-r2 / spread)
                noise = (x * 7 + y * 13 + page * 5 + c * 3) % 8
                out.append(min(255, int(20 + bead + noise)))
    return bytes(out)


def ifd(width, height, bits, channels, data_at, next_at, bits_at):
    entries = [
        (256, 4, 1, width),
        (257, 4, 1, height),
        (258, 3, channels, bits if channels == 1 else bits_at),
        (259, 3, 1, 1),  # no compression
        (262, 3, 1, 1 if channels == 1 else 2),  # black is zero, or RGB
        (273, 4, 1, data_at),  # one strip
        (277, 3, 1, channels),
        (278, 4, 1, height),
        (279, 4, 1, width * height * channels * bits // 8),
        (284, 3, 1, 1),  # contiguous samples
    ]
    out = struct.pack("<H", len(entries))
    for tag, kind, count, value in entries:
        if kind == 3 and count == 1:
            out += struct.pack("<HHIHH", tag, kind, count, value, 0)
        else:
            out += struct.pack("<HHII", tag, kind, count, value)
    return out + struct.pack("<I", next_at)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--pages", type=int, required=True)
    ap.add_argument("--width", type=int, required=True)
    ap.add_argument("--height", type=int, required=True)
    ap.add_argument("--bits", type=int, default=8, choices=(8, 16))
    ap.add_argument("--channels", type=int, default=1, choices=(1, 3))
    ap.add_argument("--page-bits", action="append", default=[])
    ap.add_argument("--page-size", action="append", default=[])
    ap.add_argument("--cut-page", type=int)
    ap.add_argument("--focus", action="store_true")
    a = ap.parse_args()
    bits_of = {int(p): int(b) for p, b in (s.split(":") for s in a.page_bits)}
    size_of = {int(p): tuple(map(int, s.split("x"))) for p, s in
               (t.split(":") for t in a.page_size)}
    with open(a.out, "wb") as f:
        f.write(b"II*\0" + struct.pack("<I", 8))
        at = 8
        for page in range(1, a.pages + 1):
            bits = bits_of.get(page, a.bits)
            width, height = size_of.get(page, (a.width, a.height))
            ifd_bytes = 2 + 10 * 12 + 4
            bits_at = at + ifd_bytes
            data_at = bits_at + (2 * a.channels if a.channels > 1 else 0)
            data = width * height * a.channels * bits // 8
            next_at = 0 if page == a.pages else data_at + data
            f.write(ifd(width, height, bits, a.channels, data_at, next_at, bits_at))
            if a.channels > 1:
                f.write(struct.pack("<%dH" % a.channels, *([bits] * a.channels)))
            if a.focus:
                f.write(focus_page(page, a.pages, width, height, a.channels))
                at = next_at
                continue
            row = page_row(page, width, a.channels, bits)
            step = (a.channels * bits // 8) * 3  # whole pixels
            for y in range(height):
                if a.cut_page == page and y == height // 2:
                    return
                k = (y * step) % len(row)
                f.write(row[k:] + row[:k])
            at = next_at


if __name__ == "__main__":
    main()
