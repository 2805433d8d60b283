#!/usr/bin/env python3
"""Write the hostile-input corpus for histlab-cli into OUTDIR.

Usage: make_corpus.py OUTDIR

Every file is made here from bytes (python3's standard library only), so the
corpus is the same on every machine and nothing large is committed. The few
formats whose encoders are too long to write by hand (WebP, OpenEXR) are made
with ImageMagick's `convert` when it is installed, and skipped with a printed
reason otherwise. Files of tens or hundreds of megabytes are not made here:
cases.py calls the big_* functions below into a case's scratch folder, which
the runner deletes after the case.

The layout (cases.py names these paths):
  fmt/      valid small images of every format the CLI reads, and truncated
            copies (NAME.half.EXT, NAME.head.EXT) and empty ones
  liar/     files whose header declares more pixels than their data holds
  num/      float images with extreme values, PAM with MAXVAL 0
  tables/   histogram CSVs, batch tables, bow shards (merge, bow merge)
  bow/      descriptor folders and codebooks (NaN, nested, wrong dimension)
  batch/    image folders for batch and bow histograms
  special/  FIFOs, symlink loops, folders named like files, newline names
"""

import json
import os
import random
import shutil
import stat
import struct
import subprocess
import sys
import zlib

# ---------------------------------------------------------------- helpers


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    mode = "wb" if isinstance(data, (bytes, bytearray)) else "w"
    with open(path, mode) as f:
        f.write(data)


def pattern(w, h, ch=1, seed=1, depth=8):
    """Pixels that compress poorly enough that a cut file really lacks rows,
    but deterministic (a seeded generator, not os.urandom)."""
    rnd = random.Random(seed)
    top = 255 if depth == 8 else 65535
    return [[[(x * 7 + y * 13 + rnd.randrange(32)) % (top + 1) if depth == 8 else
              (x * 911 + y * 577 + rnd.randrange(4096)) % 65536 for _ in range(ch)]
             for x in range(w)] for y in range(h)]


# ---------------------------------------------------------------- PNG


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(
        ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_raw(w, h, color_type, depth, raw_rows):
    """A PNG from already-filtered scanlines (each starts with its filter
    byte); IHDR says w x h whatever the rows hold, which is how the liars
    are made."""
    ihdr = struct.pack(">IIBBBBB", w, h, depth, color_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) +
            png_chunk(b"IDAT", zlib.compress(raw_rows, 9)) + png_chunk(b"IEND", b""))


def png(pix, depth=8):
    h, w, ch = len(pix), len(pix[0]), len(pix[0][0])
    ct = {1: 0, 2: 4, 3: 2, 4: 6}[ch]
    rows = bytearray()
    for row in pix:
        rows.append(0)
        for px in row:
            for v in px:
                rows += bytes([v]) if depth == 8 else struct.pack(">H", v)
    return png_raw(w, h, ct, depth, bytes(rows))


# ---------------------------------------------------------------- Netpbm, PFM, HDR, TGA


def pgm(pix, maxval=255):
    h, w = len(pix), len(pix[0])
    fmt = "B" if maxval < 256 else ">H"
    body = b"".join(struct.pack(fmt, px[0]) for row in pix for px in row)
    return b"P5\n%d %d\n%d\n" % (w, h, maxval) + body


def ppm(pix):
    h, w = len(pix), len(pix[0])
    return b"P6\n%d %d\n255\n" % (w, h) + bytes(v for row in pix for px in row for v in px)


def pam(w, h, depth, maxval, data, tupl=b"GRAYSCALE"):
    return (b"P7\nWIDTH %d\nHEIGHT %d\nDEPTH %d\nMAXVAL %d\nTUPLTYPE %s\nENDHDR\n" %
            (w, h, depth, maxval, tupl) + data)


def pfm(w, h, values, channels=1):
    """PFM: rows bottom to top, little-endian floats (negative scale)."""
    tag = b"Pf" if channels == 1 else b"PF"
    return b"%s\n%d %d\n-1.0\n" % (tag, w, h) + struct.pack("<%df" % len(values), *values)


def hdr(w, h, seed=3):
    """Radiance HDR with flat (uncompressed) RGBE scanlines: a width under 8
    is always stored flat, so no RLE encoder is needed."""
    rnd = random.Random(seed)
    body = bytes(b for _ in range(w * h) for b in (rnd.randrange(256), rnd.randrange(256),
                                                    rnd.randrange(256), 128))
    return b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %d +X %d\n" % (h, w) + body


def tga(pix):
    """Uncompressed 24-bit TGA (type 2), rows bottom to top, BGR."""
    h, w = len(pix), len(pix[0])
    head = struct.pack("<BBBHHBHHHHBB", 0, 0, 2, 0, 0, 0, 0, 0, w, h, 24, 0)
    body = bytes(v for row in reversed(pix) for px in row for v in reversed(px[:3]))
    return head + body


# ---------------------------------------------------------------- BMP


def bmp24(pix):
    h, w = len(pix), len(pix[0])
    stride = (w * 3 + 3) & ~3
    body = bytearray()
    for row in reversed(pix):
        line = bytes(v for px in row for v in (px[2], px[1], px[0]))
        body += line + b"\0" * (stride - len(line))
    info = struct.pack("<IiiHHIIiiII", 40, w, h, 1, 24, 0, len(body), 2835, 2835, 0, 0)
    off = 14 + 40
    return b"BM" + struct.pack("<IHHI", off + len(body), 0, 0, off) + info + bytes(body)


def bmp_rle(w, h, bits, palette, data):
    """An RLE8 (bits 8) or RLE4 (bits 4) BMP whose header says w x h, with
    whatever RLE codes `data` holds."""
    comp = 1 if bits == 8 else 2
    pal = b"".join(bytes((b, g, r, 0)) for (r, g, b) in palette)
    info = struct.pack("<IiiHHIIiiII", 40, w, h, 1, bits, comp, len(data), 2835, 2835,
                       len(palette), 0)
    off = 14 + 40 + len(pal)
    return b"BM" + struct.pack("<IHHI", off + len(data), 0, 0, off) + info + pal + data


# ---------------------------------------------------------------- GIF


def lzw_gif(indices, min_code=8):
    """GIF LZW without a dictionary: a Clear code every 250 symbols keeps the
    code width at min_code + 1, which every decoder must accept."""
    clear, end = 1 << min_code, (1 << min_code) + 1
    width = min_code + 1
    bits, nbits, out = 0, 0, bytearray()

    def put(code):
        nonlocal bits, nbits
        bits |= code << nbits
        nbits += width
        while nbits >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            nbits -= 8

    for i, v in enumerate(indices):
        if i % 250 == 0:
            put(clear)
        put(v)
    put(end)
    if nbits:
        out.append(bits & 0xFF)
    blocks = b"".join(bytes([len(out[i:i + 255])]) + out[i:i + 255]
                      for i in range(0, len(out), 255))
    return bytes([min_code]) + blocks + b"\0"


def gif(w, h, indices, screen=None):
    sw, sh = screen or (w, h)
    pal = bytes(v for i in range(256) for v in (i, i, i))
    lsd = struct.pack("<HHBBB", sw, sh, 0xF7, 0, 0)
    desc = b"," + struct.pack("<HHHHB", 0, 0, w, h, 0)
    return b"GIF89a" + lsd + pal + desc + lzw_gif(indices) + b";"


# ---------------------------------------------------------------- TIFF


def tiff(w, h, entries_extra, strip, bits=8, spp=1, photometric=1, compression=1,
         rows_per_strip=None):
    """A little-endian baseline TIFF with one strip. The IFD comes first and
    the strip last, so a cut file loses pixels, not its directory."""
    tags = {256: (3, [w]), 257: (4, [h]), 258: (3, [bits] * spp), 259: (3, [compression]),
            262: (3, [photometric]), 277: (3, [spp]),
            278: (4, [rows_per_strip or h]), 284: (3, [1])}
    tags.update(entries_extra)
    n = len(tags) + 2  # + StripOffsets, StripByteCounts
    ifd_size = 2 + 12 * n + 4
    extra = bytearray()
    base = 8 + ifd_size
    ent = []
    for tag, (typ, vals) in sorted(list(tags.items()) + [(273, (4, [0])), (279, (4, [len(strip)]))]):
        size = {1: 1, 3: 2, 4: 4, 7: 1}[typ]
        fmt = {1: "B", 3: "H", 4: "I", 7: "B"}[typ]
        payload = struct.pack("<%d%s" % (len(vals), fmt), *vals)
        ent.append([tag, typ, len(vals), payload])
    # out-of-line values after the IFD, then the strip
    for e in ent:
        if len(e[3]) > 4:
            e.append(base + len(extra))
            extra += e[3] + (b"\0" if len(e[3]) % 2 else b"")
    strip_off = base + len(extra)
    out = bytearray(b"II*\0" + struct.pack("<I", 8) + struct.pack("<H", n))
    for e in ent:
        tag, typ, cnt, payload = e[:4]
        if tag == 273:
            payload = struct.pack("<I", strip_off)
        if len(payload) > 4:
            out += struct.pack("<HHII", tag, typ, cnt, e[4])
        else:
            out += struct.pack("<HHI", tag, typ, cnt) + payload.ljust(4, b"\0")
    out += struct.pack("<I", 0) + extra + strip
    return bytes(out)


def g4_strip(rows, eofb=True):
    """CCITT Group 4 data of `rows` all-white rows: against an all-white
    reference line each row is one vertical-0 code, the bit '1'."""
    bits = "1" * rows + ("000000000001" * 2 if eofb else "")
    bits += "0" * (-len(bits) % 8)
    return bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))


def g4_tiff(w, h, rows):
    return tiff(w, h, {266: (3, [1])}, g4_strip(rows), bits=1, photometric=0, compression=4)


# ---------------------------------------------------------------- JPEG (baseline, DC only)

# Annex K's luminance DC table: the code lengths, then the categories 0..11.
DC_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
DC_VALS = list(range(12))


def huff_codes(bits, vals):
    codes, code, k = {}, 0, 0
    for length in range(1, 17):
        for _ in range(bits[length - 1]):
            codes[vals[k]] = (code, length)
            code += 1
            k += 1
        code <<= 1
    return codes


def jpeg_gray(w, h, block_value, coded_block_rows=None):
    """A baseline gray JPEG whose 8x8 blocks are flat (only DC coefficients;
    every block ends at once with EOB, an AC table of that one code). With
    coded_block_rows the scan stops after that many rows of blocks and EOI
    follows: the file declares h rows and holds fewer, as a cut JPEG does."""
    dc = huff_codes(DC_BITS, DC_VALS)
    bw, bh = (w + 7) // 8, (h + 7) // 8
    bitbuf = []

    def put(code, length):
        bitbuf.append(format(code, "0%db" % length) if length else "")

    pred = 0
    for by in range(bh if coded_block_rows is None else min(bh, coded_block_rows)):
        for bx in range(bw):
            coef = 8 * (block_value(bx, by) - 128)  # flat block: DC = 8 x (v - 128)
            diff, pred = coef - pred, coef
            cat = abs(diff).bit_length()
            put(*dc[cat])
            if cat:
                put(diff if diff > 0 else diff + (1 << cat) - 1, cat)
            put(0, 1)  # EOB: the AC table's only code, '0'
    s = "".join(bitbuf)
    s += "1" * (-len(s) % 8)
    ent = bytearray()
    for i in range(0, len(s), 8):
        b = int(s[i:i + 8], 2)
        ent.append(b)
        if b == 0xFF:
            ent.append(0)  # byte stuffing
    dqt = b"\xff\xdb" + struct.pack(">HB", 67, 0) + b"\x01" * 64
    sof = b"\xff\xc0" + struct.pack(">HBHHBBBB", 11, 8, h, w, 1, 1, 0x11, 0)
    dht_dc = b"\xff\xc4" + struct.pack(">HB", 3 + 16 + 12, 0x00) + bytes(DC_BITS) + bytes(DC_VALS)
    dht_ac = b"\xff\xc4" + struct.pack(">HB", 3 + 16 + 1, 0x10) + bytes([1] + [0] * 15) + b"\x00"
    sos = b"\xff\xda" + struct.pack(">HBBBBBB", 8, 1, 1, 0x00, 0, 63, 0)
    return b"\xff\xd8" + dqt + sof + dht_dc + dht_ac + sos + bytes(ent) + b"\xff\xd9"


def blockpat(bx, by):
    return (bx * 37 + by * 11) % 200 + 20


# ---------------------------------------------------------------- JPEG 2000 codestream


def j2k(w, h, tile, tiles_present=None):
    """A JPEG 2000 codestream, one 8-bit component, no wavelet levels, and
    every tile an empty packet (a decoder gives 128 everywhere, the DC
    level shift). tiles_present limits the tile-parts written: the others
    are missing, as in a cut file that still ends with EOC."""
    siz = b"\xff\x51" + struct.pack(">HHIIIIIIIIHBBB", 41, 0, w, h, 0, 0, tile, tile, 0, 0,
                                    1, 7, 1, 1)
    cod = b"\xff\x52" + struct.pack(">HBBHBBBBBB", 12, 0, 0, 1, 0, 0, 4, 4, 0, 1)
    qcd = b"\xff\x5c" + struct.pack(">HBB", 4, 0x40, 8 << 3)
    ntiles = ((w + tile - 1) // tile) * ((h + tile - 1) // tile)
    out = bytearray(b"\xff\x4f" + siz + cod + qcd)
    for t in range(ntiles if tiles_present is None else min(ntiles, tiles_present)):
        body = b"\x00"  # one empty packet
        out += b"\xff\x90" + struct.pack(">HHIBB", 10, t, 12 + 2 + len(body), 0, 1)
        out += b"\xff\x93" + body
    return bytes(out + b"\xff\xd9")


# ---------------------------------------------------------------- tables


def hist_csv(counts, channel="gray"):
    return "bin,%s\n" % channel + "".join("%d,%s\n" % (i, c) for i, c in enumerate(counts))


BATCH_HEAD = "file,status,detail,width,height,channels,depth,histogram," + ",".join(
    "b%d" % i for i in range(256)) + "\n"
JOINT_HEAD = "file,status,detail,width,height,channels,depth,a,b,bins,counted,left_out,h_a,h_b,h_ab,mi,nmi\n"


def batch_row(name, w, h, counts):
    return "%s,verified,,%d,%d,1,8,gray,%s\n" % (name, w, h, ",".join(str(c) for c in counts))


def bow_shard(rows, k=8):
    head = "file,descriptors,status,weighting," + ",".join("w%d" % i for i in range(k)) + "\n"
    return head + "".join("%s,%d,ok,none,%s\n" % (n, sum(c), ",".join(str(x) for x in c))
                          for n, c in rows)


def codebook_yml(k, d, values):
    return ("%%YAML:1.0\n---\nvocabulary: !!opencv-matrix\n   rows: %d\n   cols: %d\n   dt: f\n"
            "   data: [ %s ]\n" % (k, d, ", ".join(values)))


# ---------------------------------------------------------------- big files, made per case


def big_merge_table(path, rows=200000):
    """A batch table of `rows` 64 x 64 gray images (about 110 MB at 200,000
    rows): merge must refuse it or hold it in bounded memory."""
    rnd = random.Random(7)
    base = [rnd.randrange(40) for _ in range(256)]
    base[0] += 4096 - sum(base)  # each row adds up to 64 x 64
    tail = "," + ",".join(str(c) for c in base) + "\n"
    with open(path, "w") as f:
        f.write(BATCH_HEAD)
        for i in range(rows):
            f.write("img%07d.png,verified,,64,64,1,8,gray%s" % (i, tail))


def big_bow_shard(path, images=20000):
    """A bow shard of 20,000 images x 8 words (0.8 MB): its --similarity
    matrix has 400 million cells."""
    rnd = random.Random(9)
    with open(path, "w") as f:
        f.write("file,descriptors,status,weighting," + ",".join("w%d" % i for i in range(8)) + "\n")
        for i in range(images):
            c = [rnd.randrange(1, 20) for _ in range(8)]
            f.write("im%06d.png,%d,ok,none,%s\n" % (i, sum(c), ",".join(map(str, c))))


def sparse(path, size):
    """A sparse file of `size` bytes of zeros: costs no disk."""
    with open(path, "wb") as f:
        f.truncate(size)


# ---------------------------------------------------------------- the corpus


def make(out):
    j = lambda *p: os.path.join(out, *p)
    skipped = []

    # --- valid images of each format, and their cut copies
    p64 = pattern(64, 48, 1, 1)
    p64c = pattern(64, 48, 3, 2)
    valid = {
        "gray.png": png(p64), "rgb.png": png(p64c), "rgba.png": png(pattern(32, 24, 4, 3)),
        "gray16.png": png(pattern(40, 30, 1, 4, 16), 16),
        "gray.pgm": pgm(p64), "rgb.ppm": ppm(p64c),
        "gray.pam": pam(64, 48, 1, 255, bytes(px[0] for r in p64 for px in r)),
        "rgb.bmp": bmp24(p64c), "rgb.tga": tga(p64c),
        "gray.gif": gif(64, 48, [px[0] for r in p64 for px in r]),
        "gray.tif": tiff(64, 48, {}, bytes(px[0] for r in p64 for px in r)),
        "gray.jpg": jpeg_gray(64, 48, blockpat),
        "gray.j2k": j2k(256, 256, 64),
        "rgb.hdr": hdr(6, 5),
        "gray.pfm": pfm(16, 12, [((i * 37) % 101) / 100.0 for i in range(16 * 12)]),
    }
    for name, data in valid.items():
        write(j("fmt", name), data)
        stem, ext = name.rsplit(".", 1)
        write(j("fmt", "%s.half.%s" % (stem, ext)), data[:len(data) // 2])
        write(j("fmt", "%s.head.%s" % (stem, ext)), data[:16])
        write(j("fmt", "%s.empty.%s" % (stem, ext)), b"")
    # Formats whose encoders are too long to write here: ImageMagick, if any.
    if shutil.which("convert"):
        for name in ("gray.webp", "rgb.exr"):
            dst = j("fmt", name)
            r = subprocess.run(["convert", j("fmt", "rgb.png"), dst], capture_output=True)
            if r.returncode == 0 and os.path.exists(dst):
                data = open(dst, "rb").read()
                stem, ext = name.rsplit(".", 1)
                write(j("fmt", "%s.half.%s" % (stem, ext)), data[:len(data) // 2])
                write(j("fmt", "%s.head.%s" % (stem, ext)), data[:16])
            else:
                skipped.append("%s: convert failed (%s)" % (name, r.stderr.decode()[:80]))
    else:
        skipped.append("gray.webp, rgb.exr: ImageMagick's convert is not installed")

    # --- liars: declared sizes the data cannot fill (the D6, D8, D11-D14 kinds)
    # GIF: a 1x1 frame on a huge logical screen (the review's exact bytes).
    for s in (20000, 32767, 4000):
        write(j("liar", "gif_screen_%d.gif" % s),
              b"GIF89a" + struct.pack("<HH", s, s) + b"\xf0\0\0\0\0\0\xff\xff\xff" + b"," +
              struct.pack("<HHHH", 0, 0, 1, 1) + b"\0\x02\x02\x44\x01\0;")
    # GIF: a 20000^2 frame with 2 bytes of LZW.
    write(j("liar", "gif_big_frame_short.gif"),
          b"GIF89a" + struct.pack("<HH", 20000, 20000) + b"\xf0\0\0\0\0\0\xff\xff\xff" + b"," +
          struct.pack("<HHHH", 0, 0, 20000, 20000) + b"\0\x02\x02\x44\x01\0;")
    # PNG: 30000^2 RGBA whose compressed data ends after one row.
    write(j("liar", "png_30k_rgba_short.png"), png_raw(30000, 30000, 6, 8, b"\0" * (1 + 4 * 30000)))
    write(j("liar", "png_8k_gray_short.png"), png_raw(8000, 8000, 0, 8, b"\0" * 8001))
    # G4 TIFF: two coded rows, the header says 30000 (or 10000) rows.
    write(j("liar", "g4_lie_30k.tif"), g4_tiff(30000, 30000, 2))
    write(j("liar", "g4_lie_10k.tif"), g4_tiff(10000, 10000, 2))
    write(j("fmt", "g4_ok.tif"), g4_tiff(64, 48, 48))  # a G4 file that holds all its rows
    # JPEG in TIFF: the strip's JPEG declares 4000 rows and codes 16.
    for name, (w, h) in (("jpeg_lie_tall.tif", (320, 4000)), ("jpeg_lie_30k.tif", (30000, 30000))):
        strip = jpeg_gray(w, h, blockpat, coded_block_rows=2)
        write(j("liar", name), tiff(w, h, {}, strip, compression=7))
    write(j("fmt", "jpeg_ok.tif"), tiff(64, 48, {}, jpeg_gray(64, 48, blockpat), compression=7))
    # A bare JPEG cut the same way (old finding: libjpeg's grey fill).
    write(j("liar", "jpeg_lie_tall.jpg"), jpeg_gray(320, 4000, blockpat, coded_block_rows=2))
    # RLE BMPs: an immediate end of bitmap, or delta codes that skip everything.
    gray2 = [(0, 0, 0), (255, 255, 255)]
    write(j("liar", "rle8_eob_30k_gray.bmp"), bmp_rle(30000, 30000, 8, gray2, b"\0\1"))
    write(j("liar", "rle8_eob_10k_gray.bmp"), bmp_rle(10000, 10000, 8, gray2, b"\0\1"))
    write(j("liar", "rle8_eob_10k_color.bmp"),
          bmp_rle(10000, 10000, 8, [(200, 30, 10), (0, 90, 255)], b"\0\1"))
    write(j("liar", "rle8_delta_10k.bmp"),
          bmp_rle(10000, 10000, 8, gray2, b"\0\2\xff\xff" * 40 + b"\0\1"))
    write(j("liar", "rle4_eob_10k.bmp"), bmp_rle(10000, 10000, 4, gray2 * 8, b"\0\1"))
    # JPEG 2000: 1024^2 in 128^2 tiles, only the first tile-part, then EOC;
    # and the same with SIZ saying 16000^2 (and a cheaper 4000^2).
    write(j("liar", "j2k_one_tile.j2k"), j2k(1024, 1024, 128, tiles_present=1))
    write(j("liar", "j2k_siz_lie_16k.j2k"), j2k(16000, 16000, 128, tiles_present=1))
    write(j("liar", "j2k_siz_lie_4k.j2k"), j2k(4000, 4000, 128, tiles_present=1))
    # PNG 2,000,000 x 1 (valid: the loader takes it, the writer cannot).
    write(j("fmt", "wide_2M.png"), png_raw(2000000, 1, 0, 8, b"\0" + bytes(i % 251 for i in range(2000000))))

    # --- numbers inside files
    write(j("num", "pfm_huge_values.pfm"), pfm(4, 2, [3.4e38, -3.4e38, 0.0, 1.0, 1e-45, 2.0, -1.0, 3.0e38]))
    write(j("num", "pfm_small.pfm"), pfm(4, 2, [0.0, 1e-45, 0.5, 1.0, 0.25, 0.75, 0.1, 0.9]))
    write(j("num", "pam_maxval0.pam"), pam(4, 4, 1, 0, b"\0" * 16))
    write(j("num", "pgm_maxval0.pgm"), b"P5\n4 4\n0\n" + b"\0" * 16)

    # --- tables for merge and bow merge
    c1 = [(i * 3) % 17 for i in range(256)]
    write(j("tables", "h1.csv"), hist_csv(c1))
    write(j("tables", "h2.csv"), hist_csv([(i * 5) % 13 for i in range(256)]))
    write(j("tables", "h_max.csv"), hist_csv(["18446744073709551615"] + ["0"] * 255))
    write(j("tables", "h_max_b.csv"), hist_csv(["18446744073709551615"] + ["0"] * 255))
    write(j("tables", "h_over.csv"), hist_csv(["18446744073709551616"] + ["0"] * 255))
    write(j("tables", "h_bom.csv"), "\ufeff" + hist_csv(c1))
    write(j("tables", "h_neg.csv"), hist_csv(["-5"] + ["0"] * 255))
    write(j("tables", "h_nan.csv"), hist_csv(["nan"] + ["0"] * 255))
    write(j("tables", "h_bins255.csv"), hist_csv(c1[:255]))
    write(j("tables", "h_header_only.csv"), "bin,gray\n")
    cb = [16] * 256
    write(j("tables", "b0.csv"), BATCH_HEAD + batch_row("a.png", 64, 64, cb))
    write(j("tables", "b1.csv"), BATCH_HEAD + batch_row("b.png", 64, 64, cb))
    write(j("tables", "b_dup.csv"), BATCH_HEAD + batch_row("a.png", 64, 64, cb))
    write(j("tables", "b_bom.csv"), "\ufeff" + BATCH_HEAD + batch_row("c.png", 64, 64, cb))
    write(j("tables", "b_width_huge.csv"), BATCH_HEAD + batch_row("w.png", 99999999999, 1, cb))
    write(j("tables", "b_counts_wrong.csv"), BATCH_HEAD + batch_row("x.png", 2, 2, cb))
    write(j("tables", "b_max.csv"), BATCH_HEAD + batch_row("m1.png", 64, 64,
                                                           ["18446744073709551615"] + [0] * 255))
    write(j("tables", "b_max2.csv"), BATCH_HEAD + batch_row("m2.png", 64, 64,
                                                            ["18446744073709551615"] + [0] * 255))
    joint_row = "%s,verified,,41,29,3,8,r,g,256x256,1189,0,7.62271435,7.63220886,10.0975644,%s,1.51075275\n"
    write(j("tables", "j0.csv"), JOINT_HEAD + joint_row % ("a.png", "5.1573588"))
    write(j("tables", "j1.csv"), JOINT_HEAD + joint_row % ("b.png", "5.1573588"))
    write(j("tables", "j_mi_huge.csv"), JOINT_HEAD + joint_row % ("c.png", "1e999"))
    write(j("tables", "j_mi_nan.csv"), JOINT_HEAD + joint_row % ("d.png", "nan"))
    write(j("tables", "s0.csv"), bow_shard([("a.png", [1, 2, 3, 4, 5, 6, 7, 8])]))
    write(j("tables", "s1.csv"), bow_shard([("b.png", [8, 7, 6, 5, 4, 3, 2, 1])]))
    # counts that wrap modulo 2^64 to the descriptor count (2^64 + 36 - 2^64)
    wrap = "file,descriptors,status,weighting," + ",".join("w%d" % i for i in range(8)) + "\n"
    wrap += "w.png,36,ok,none,18446744073709551615,37,0,0,0,0,0,0\n"
    write(j("tables", "s_wrap.csv"), wrap)
    write(j("tables", "s_k4.csv"), bow_shard([("c.png", [1, 2, 3, 4])], k=4))
    write(j("tables", "s_bom.csv"), "\ufeff" + bow_shard([("e.png", [1, 1, 1, 1, 1, 1, 1, 1])]))
    write(j("tables", "baseline_not_json.json"), "{ not json")
    write(j("tables", "baseline_nested.json"), "[" * 100000 + "]" * 100000)

    # --- bag of words: descriptors (D = 8) and codebooks (K = 8)
    rnd = random.Random(5)
    good = j("bow", "good")
    for i in range(4):
        write(os.path.join(good, "d%d.csv" % i), "".join(
            ",".join("%.4f" % rnd.random() for _ in range(8)) + "\n" for _ in range(30)))
    write(j("bow", "cb8.yml"), codebook_yml(8, 8, ["%.6f" % rnd.random() for _ in range(64)]))
    write(j("bow", "cb_all_nan.yml"), codebook_yml(8, 8, [".nan"] * 64))
    write(j("bow", "cb_one_inf.yml"), codebook_yml(8, 8, [".inf"] + ["%.6f" % rnd.random() for _ in range(63)]))
    write(j("bow", "cb_dim1.yml"), codebook_yml(8, 1, ["%.6f" % rnd.random() for _ in range(8)]))
    write(j("bow", "cb_d128.yml"), codebook_yml(8, 128, ["%.3f" % rnd.random() for _ in range(1024)]))
    write(j("bow", "cb_rows_lie.yml"), codebook_yml(1000000, 8, ["0.5"] * 16))
    write(j("bow", "cb_nested.yml"), "%YAML:1.0\n---\nvocabulary: " + "[" * 100000 + "]" * 100000 + "\n")
    write(j("bow", "cb_nested.json"), '{"vocabulary": ' + "[" * 100000 + "]" * 100000 + "}\n")
    write(j("bow", "cb_nested.xml"), '<?xml version="1.0"?>\n<opencv_storage>\n<vocabulary>' +
          "<_>" * 100000 + "</_>" * 100000 + "</vocabulary>\n</opencv_storage>\n")
    write(j("bow", "cb_nested_10k.yml"), "%YAML:1.0\n---\nvocabulary: " + "[" * 10000 + "]" * 10000 + "\n")
    write(j("bow", "cb_empty.yml"), "")
    write(j("bow", "cb_not_storage.yml"), "hello: [1, 2\n")
    # descriptor folders, each with one hostile file among good ones
    for sub, name, data in (
            ("mixed_nested", "e.yml", open(j("bow", "cb_nested.yml")).read()),
            ("mixed_nested_json", "e.json", open(j("bow", "cb_nested.json")).read()),
            ("mixed_nested_xml", "e.xml", open(j("bow", "cb_nested.xml")).read()),
            ("mixed_nan", "e.csv", "nan,nan,nan,nan,nan,nan,nan,nan\n" * 10),
            ("mixed_inf", "e.csv", "inf,0,0,0,0,0,0,0\n" * 10),
            ("mixed_plus", "e.csv", "+1,0x1p3,2,3,4,5,6,7\n0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5\n"),
            ("mixed_dim", "e.csv", "1,2,3\n"),
            ("mixed_empty", "e.csv", ""),
            ("mixed_text", "e.csv", "this,is,not,numbers\n")):
        shutil.copytree(good, j("bow", sub), dirs_exist_ok=True)
        write(j("bow", sub, name), data)
    write(j("bow", "only_nested", "e.yml"), open(j("bow", "cb_nested.yml")).read())
    write(j("bow", "only_nan", "e.csv"), "nan,nan,nan,nan,nan,nan,nan,nan\n" * 50)
    # images for bow histograms (KAZE) and for batch
    for d in ("batch/good", "batch/liars", "batch/broken"):
        os.makedirs(j(d), exist_ok=True)
    write(j("batch", "good", "full.png"), png(pattern(96, 80, 3, 11)))
    write(j("batch", "good", "gray.png"), png(pattern(64, 64, 1, 12)))
    write(j("batch", "good", "sub", "a.png"), png(pattern(40, 30, 1, 13)))
    write(j("batch", "one_px", "tiny.png"), png(pattern(1, 1, 1, 14)))
    write(j("batch", "one_px", "ok.png"), png(pattern(64, 64, 1, 15)))
    write(j("batch", "big_png", "noise.png"), png(pattern(256, 256, 3, 16)))
    write(j("batch", "big_png", "noise2.png"), png(pattern(256, 256, 3, 17)))
    write(j("batch", "liars", "ok.png"), png(pattern(32, 32, 1, 18)))
    write(j("batch", "liars", "g4.tif"), g4_tiff(10000, 10000, 2))
    write(j("batch", "liars", "rle.bmp"), bmp_rle(10000, 10000, 8, gray2, b"\0\1"))
    write(j("batch", "liars", "jpeg.tif"), tiff(320, 4000, {}, jpeg_gray(320, 4000, blockpat, 2), compression=7))
    write(j("batch", "liars", "tile.j2k"), j2k(1024, 1024, 128, tiles_present=1))
    write(j("batch", "png_bombs", "ok.png"), png(pattern(32, 32, 1, 19)))
    for i in range(4):
        write(j("batch", "png_bombs", "bomb%d.png" % i), png_raw(30000, 30000, 6, 8, b"\0" * 120001))
    write(j("batch", "clash", "x.jpg"), jpeg_gray(64, 48, blockpat))
    write(j("batch", "clash", "x.png", "y.png"), png(pattern(16, 16, 1, 20)))
    write(j("batch", "broken", "ok.png"), png(pattern(32, 32, 1, 21)))
    write(j("batch", "broken", "half.png"), png(pattern(64, 64, 1, 22))[:300])
    write(j("batch", "broken", "empty.png"), b"")
    write(j("batch", "broken", "text.png"), "not an image\n")
    write(j("batch", "unreadable", "ok.png"), png(pattern(32, 32, 1, 23)))
    write(j("batch", "unreadable", "locked", "b.png"), png(pattern(32, 32, 1, 24)))

    # --- special files
    sp = j("special")
    os.makedirs(sp, exist_ok=True)

    def fresh(path):
        if os.path.lexists(path):
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                os.remove(path)
        return path

    os.mkfifo(fresh(os.path.join(sp, "fifo.png")))
    os.mkfifo(fresh(os.path.join(sp, "fifo.csv")))
    os.symlink("loop_b.png", fresh(os.path.join(sp, "loop_a.png")))
    os.symlink("loop_a.png", fresh(os.path.join(sp, "loop_b.png")))
    os.symlink("nowhere.png", fresh(os.path.join(sp, "dangling.png")))
    os.makedirs(os.path.join(sp, "dir.png"), exist_ok=True)
    os.makedirs(os.path.join(sp, "dir.csv"), exist_ok=True)
    os.makedirs(os.path.join(sp, "dir.yml"), exist_ok=True)
    os.makedirs(os.path.join(sp, "dirloop"), exist_ok=True)
    os.symlink(".", fresh(os.path.join(sp, "dirloop", "self")))
    os.symlink("dirloop2", fresh(os.path.join(sp, "dirloop2")))  # a folder link to itself
    write(os.path.join(sp, "new\nline.png"), b"not a png\n")
    write(os.path.join(sp, "newline_dir", "bad\nname.png"), png(pattern(8, 8, 1, 25))[:40])
    write(os.path.join(sp, "newline_dir", "ok.png"), png(pattern(8, 8, 1, 26)))
    write(os.path.join(sp, "noext"), png(pattern(8, 8, 1, 27)))
    write(os.path.join(sp, "png_named.jpg"), png(pattern(8, 8, 1, 28)))
    broken_kdir = os.path.join(sp, "kernels_broken")
    os.makedirs(broken_kdir, exist_ok=True)
    for k in ("histogram", "histogram256", "bandwidth", "blur", "largebin", "batch"):
        write(os.path.join(broken_kdir, k + ".cl"), "this is not OpenCL C ;;; {\n")
    for s in skipped:
        print("skipped:", s)
    return skipped


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: make_corpus.py OUTDIR")
    make(sys.argv[1])
    print("corpus written to", sys.argv[1])
