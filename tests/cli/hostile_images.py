#!/usr/bin/env python3
"""Writes one small hostile (or valid control) image file for the CLI tests of the decoders.

    hostile_images.py KIND OUT

Each KIND is a file whose header declares more pixels than its data holds (the decoders must
refuse it, never count what is not there), or a valid control beside it. Python's standard
library only: the test machine needs no image tools.
"""
import base64
import struct
import sys
import zlib


def tiff(width, height, bits, compression, photometric, strip, spp=1, extra=()):
    """A little-endian TIFF of one strip holding `strip`, declared width x height."""
    entries = [
        (256, 4, 1, width),  # ImageWidth
        (257, 4, 1, height),  # ImageLength
        (258, 3, 1, bits),  # BitsPerSample (one value: the same for every sample)
        (259, 3, 1, compression),
        (262, 3, 1, photometric),
        (273, 4, 1, 0),  # StripOffsets, patched below
        (277, 3, 1, spp),  # SamplesPerPixel
        (278, 4, 1, height),  # RowsPerStrip: one strip
        (279, 4, 1, len(strip)),  # StripByteCounts
    ] + list(extra)
    entries.sort()
    ifd_at = 8
    ifd_size = 2 + 12 * len(entries) + 4
    data_at = ifd_at + ifd_size
    bits_at = data_at
    if spp > 1:  # BitsPerSample needs a value per sample: stored after the IFD
        data_at += 2 * spp
    out = b"II*\0" + struct.pack("<I", ifd_at) + struct.pack("<H", len(entries))
    for tag, kind, count, value in entries:
        if tag == 273:
            value = data_at
        if tag == 258 and spp > 1:
            out += struct.pack("<HHII", tag, kind, spp, bits_at)
        elif kind == 3:
            out += struct.pack("<HHIHH", tag, kind, count,
                               *(value if isinstance(value, tuple) else (value, 0)))
        else:
            out += struct.pack("<HHII", tag, kind, count, value)
    out += struct.pack("<I", 0)
    if spp > 1:
        out += struct.pack("<" + "H" * spp, *([bits] * spp))
    return out + strip


# CCITT Group 4: an all-white row under an all-white row is one V0 code, the bit 1; the end of
# the block (EOFB) is two EOL codes, 000000000001 twice.
def g4_white_rows(rows, pad=0):
    bits = "1" * rows + "000000000001" * 2
    bits += "0" * (-len(bits) % 8)
    return int(bits, 2).to_bytes(len(bits) // 8, "big") + b"\0" * pad


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width, height, colour, rows):
    channels = {0: 1, 2: 3, 6: 4}[colour]
    raw = b"".join(b"\0" + b"\x80" * (width * channels) for _ in range(rows))
    return (b"\x89PNG\r\n\x1a\n" +
            chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def bmp8(width, height, data, compression=1):
    """An 8-bit BMP of two palette colours; compression 1 is RLE8, 0 none."""
    palette = b"\0\0\0\0" + b"\xff\xff\xff\0"
    header = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 8, compression, len(data), 2835,
                         2835, 2, 0)
    at = 14 + 40 + len(palette)
    return b"BM" + struct.pack("<IHHI", at + len(data), 0, 0, at) + header + palette + data


def gif(screen, frame, lzw):
    """A GIF89a of a 2-colour global map, one frame `frame` (left, top, w, h), LZW data `lzw`
    (the minimum code size byte and the sub-blocks)."""
    return (b"GIF89a" + struct.pack("<HH", *screen) + b"\xf0\0\0" + b"\0\0\0\xff\xff\xff" +
            b"," + struct.pack("<HHHH", *frame) + b"\0" + lzw + b";")


# OpenJPEG's opj_compress of an 8 x 6 RGB picture: one tile, one tile-part (SOT at byte 113,
# Psot 188), EOC at 301. The same file as the j2k_codestream_quiet case.
TINY_J2K = base64.b64decode(
    "/0//UQAvAAAAAAAIAAAABgAAAAAAAAAAAAAACAAAAAYAAAAAAAAAAAADBwEBBwEBBwEB/1IADAAAAAEBAQQEAAH/XAAH"
    "QEBISFD/ZAAlAAFDcmVhdGVkIGJ5IE9wZW5KUEVHIHZlcnNpb24gMi41LjD/kAAKAAAAAAC8AAH/k8+0OAZZcvdDODPS"
    "hyCx6BFf34BoHRe2FpRW8Pf+qup398fUGAt9uaIhtGOAmaDJ+8PqC5+AZB9QYCFKNM5kps/jVUm3DOURCNZyB0ZV+P93"
    "DHv4PAvE3VHNUY+/w+oMg+cXB9QYA9xqAnzLuxGJPB8XEEOSIpF3JL/gn38crGHHv7+SUJoY7pvA+QVB84mB84oOHU6p"
    "QzBkMEx/E1hbWvPJzcQPFL07Fj3Wtx5RL//Z")


def j2k_patched(size=None, tile=None, psot=None):
    b = bytearray(TINY_J2K)
    if size:
        b[8:16] = struct.pack(">II", *size)
    if tile:
        b[24:32] = struct.pack(">II", *tile)
    if psot is not None:
        b[113 + 6:113 + 10] = struct.pack(">I", psot)
    return bytes(b)


def box(kind, data):
    return struct.pack(">I", 8 + len(data)) + kind + data


def jp2(codestream):
    ihdr = struct.pack(">IIHBBBB", 6, 8, 3, 7, 7, 0, 0)
    return (box(b"jP  ", b"\r\n\x87\n") + box(b"ftyp", b"jp2 \0\0\0\0jp2 ") +
            box(b"jp2h", box(b"ihdr", ihdr) + box(b"colr", b"\1\0\0\0\0\0\x10")) +
            box(b"jp2c", codestream))


def jpeg_tiff(jpeg_path, declared_rows=None, cut=False):
    """A TIFF whose one JPEG-compressed strip is the JPEG file at `jpeg_path` (a colour JFIF),
    declared `declared_rows` tall (else as tall as the JPEG); `cut`: the JPEG's second half
    left out, its end marker put back (libjpeg's "premature end", then its grey fill)."""
    jpeg = open(jpeg_path, "rb").read()
    if cut:
        jpeg = jpeg[:len(jpeg) // 2] + b"\xff\xd9"
    at = 2
    while jpeg[at] == 0xFF and jpeg[at + 1] not in (0xC0, 0xC1, 0xC2):
        at += 2 + struct.unpack(">H", jpeg[at + 2:at + 4])[0]
    height, width = struct.unpack(">HH", jpeg[at + 5:at + 9])
    # YCbCr with the JPEG's 2 x 2 subsampling (a JFIF's usual one), as libtiff writes JPEG TIFFs.
    return tiff(width, declared_rows or height, 8, 7, 6, jpeg, spp=3, extra=[(530, 3, 2, (2, 2))])


def main():
    kind, out = sys.argv[1], sys.argv[2]
    arg = sys.argv[3] if len(sys.argv) > 3 else None
    files = {
        # 30000 x 30000 bilevel, Group 4, a 4-byte strip of two white rows
        "g4_lie_30k": lambda: tiff(30000, 30000, 1, 4, 0, g4_white_rows(2)),
        # 64 x 64, Group 4: two white rows then the end of the block, padded to 16 bytes (enough
        # bytes for 64 rows of one bit each)
        "g4_short": lambda: tiff(64, 64, 1, 4, 0, g4_white_rows(2, pad=12)),
        # 64 x 64, Group 4, every row white: valid
        "g4_valid": lambda: tiff(64, 64, 1, 4, 0, g4_white_rows(64)),
        "jpeg_tiff_tall": lambda: jpeg_tiff(arg, 4000),
        "jpeg_tiff_cut": lambda: jpeg_tiff(arg, cut=True),
        "jpeg_tiff_whole": lambda: jpeg_tiff(arg),
        "png_30k_short": lambda: png(30000, 30000, 6, 1),
        "png_wide_2m": lambda: png(2000000, 1, 0, 1),
        # RLE8 ending at once (end of bitmap), declared 30000 x 30000
        "bmp_rle8_eob_30k": lambda: bmp8(30000, 30000, b"\0\1"),
        # 4 x 2 RLE8: row 1 whole, then a delta over row 2
        "bmp_rle8_delta": lambda: bmp8(4, 2, b"\4\1\0\0\0\2\0\1\0\1"),
        # 4 x 2 RLE8: row 1 whole, row 2 ends after 2 pixels
        "bmp_rle8_short_row": lambda: bmp8(4, 2, b"\4\1\0\0\2\1\0\1"),
        # 4 x 2 RLE8, both rows whole (one a run, one absolute pixels): valid
        "bmp_rle8_valid": lambda: bmp8(4, 2, b"\4\1\0\0\0\4\1\0\1\0\0\1"),
        # 30000 x 30000 uncompressed 8-bit with 16 bytes of pixels
        "bmp_rgb_short": lambda: bmp8(30000, 30000, b"\0" * 16, compression=0),
        # the tiny codestream declared as 4 tiles of 4 x 3: tiles 1 to 3 missing
        "j2k_missing_tiles": lambda: j2k_patched(tile=(4, 3)),
        # declared 16000 x 16000 in tiles of 128 x 128: 15,625 tiles, one present
        "j2k_siz_lie_16k": lambda: j2k_patched(size=(16000, 16000), tile=(128, 128)),
        # its one tile-part claims 65,535 bytes
        "j2k_psot_past_end": lambda: j2k_patched(psot=65535),
        "jp2_missing_tiles": lambda: jp2(j2k_patched(tile=(4, 3))),
        "jp2_valid": lambda: jp2(TINY_J2K),
        # a 1 x 1 frame at (5, 7) of a 20000 x 20000 screen (the review's 35-byte file, moved)
        "gif_screen_20k": lambda: gif((20000, 20000), (5, 7, 1, 1), b"\x02\x02\x44\x01\0"),
        # a 20000 x 20000 frame with 2 bytes of LZW data
        "gif_frame_20k_short": lambda: gif((20000, 20000), (0, 0, 20000, 20000),
                                           b"\x02\x02\x44\x01\0"),
        "pam_maxval0": lambda: b"P7\nWIDTH 2\nHEIGHT 1\nDEPTH 1\nMAXVAL 0\nTUPLTYPE GRAYSCALE\n"
                               b"ENDHDR\n\0\0",
        # values 0 and +-3e38: a span of 6e38, beyond float
        "pfm_huge_span": lambda: b"Pf\n2 1\n-1.0\n" + struct.pack("<ff", -3e38, 3e38),
        # one of its two samples: OpenCV finds the end of the input
        "pfm_short": lambda: b"Pf\n2 1\n-1.0\n" + struct.pack("<f", 1.0),
        # values 0 and 3.4e38: a span within float
        "pfm_huge_values": lambda: b"Pf\n2 1\n-1.0\n" + struct.pack("<ff", 0.0, 3.4e38),
    }
    with open(out, "wb") as f:
        f.write(files[kind]())


if __name__ == "__main__":
    main()
