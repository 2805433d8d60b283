# Image formats never invent pixels: files whose headers declare more than their data holds,
# made at test time by hostile_images.py (Python's standard library only), are refused with one
# line (exit 3) before the pixels are allocated or decoded; valid controls beside them are read.
set(hostile "${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/hostile_images.py")
# The old behaviour of these files took 1 to 4 GB: a run under this address-space limit (2 GiB;
# PoCL's runtime fits) fails with bad_alloc, not with the one line.
set(ulimit2G "ulimit -v 2097152")
# AddressSanitizer's shadow memory needs unlimited address space: there the limited run is left
# out, with a line that says so.
set(unlessAsan "test -n \"$ASAN_OPTIONS\" && echo 'the run under ulimit -v is left out: AddressSanitizer needs unlimited address space' ||")

# function(format_refused NAME KIND FILE STDERR-REGEX): histogram of a hostile file made by
# hostile_images.py KIND, under the address-space limit, exit 3, one line on stderr, no output.
function(format_refused name kind file message)
    cli_test(${name} EXIT 3
             EXPECT --setup "${hostile} ${kind} @W@/${file}"
                    --stderr "^histlab-cli: .*${file}: ${message}"
                    --check "test $(wc -l < @STDERR@) -eq 1"
                    --check "${unlessAsan} { (${ulimit2G}; $<TARGET_FILE:histlab-cli> histogram @W@/${file} --device cpu --quiet 2> @W@/limited.txt); test $? -eq 3 && grep -q 'histlab-cli: .*${file}' @W@/limited.txt; }"
                    --absent @W@/out.csv
             ARGS histogram @W@/${file} --device cpu --csv @W@/out.csv)
endfunction()

# --- TIFF --------------------------------------------------------------------------------------
# CCITT Group 4, 30000 x 30000 declared over a 4-byte strip: a fax row costs at least a bit.
format_refused(tiff_g4_lie_30k g4_lie_30k g4.tif
               "damaged or truncated TIFF: its compressed strips hold 4 bytes, at most 120000 once expanded, of the 112500000 bytes its 30000 x 30000 pixels need$")
# Group 4 data that ends after 2 of 64 rows (enough bytes for 64): the decoder's warning refuses it.
format_refused(tiff_g4_short_strip g4_short g4s.tif
               "damaged or truncated TIFF: rows 0 to 63 are damaged [(]Fax4Decode: Premature EOL at line 2")
cli_test(tiff_g4_valid EXIT 0
         EXPECT --setup "${hostile} g4_valid @W@/g4v.tif"
                --check "grep -qx '255,4096' @W@/h.csv"
         ARGS histogram @W@/g4v.tif --device cpu --quiet --csv @W@/h.csv)
# A JPEG-compressed strip of 32 rows declared 4000 rows tall (tests/data/rgb.jpg in a TIFF):
# refused from the JPEG's own frame header before anything is allocated (libjpeg's grey fill
# was counted).
cli_test(tiff_jpeg_short_strip EXIT 3
         EXPECT --setup "${hostile} jpeg_tiff_tall @W@/j.tif ${data}/rgb.jpg"
                --stderr "^histlab-cli: .*j[.]tif: damaged or truncated TIFF: the JPEG data of strip 0 declares 48 x 32 pixels, of the 48 x 4000 it stands for$"
                --check "test $(wc -l < @STDERR@) -eq 1"
                --absent @W@/out.csv
         ARGS histogram @W@/j.tif --device cpu --csv @W@/out.csv)

# The same JPEG cut in half, its end marker put back: libjpeg's "premature end" (its grey fill
# was counted); the whole JPEG in the same TIFF is read.
cli_test(tiff_jpeg_cut_strip EXIT 3
         EXPECT --setup "${hostile} jpeg_tiff_cut @W@/c.tif ${data}/rgb.jpg"
                --stderr "^histlab-cli: .*c[.]tif: damaged or truncated TIFF: rows 0 to 31 are damaged [(]JPEGLib: Corrupt JPEG data: premature end of data segment[)]$"
                --check "test $(wc -l < @STDERR@) -eq 1"
         ARGS histogram @W@/c.tif --device cpu --quiet)
cli_test(tiff_jpeg_whole_strip EXIT 0
         EXPECT --setup "${hostile} jpeg_tiff_whole @W@/w.tif ${data}/rgb.jpg"
                --stdout "^input: .*w[.]tif, 48 x 32, 3 channels, 8-bit"
                --check "test ! -s @STDERR@"
         ARGS histogram @W@/w.tif --device cpu)

# --- PNG ---------------------------------------------------------------------------------------
# 196 bytes declaring 30000 x 30000 RGBA, its data ending after one row: refused from the size of
# its compressed data before 3.6 GB are allocated.
format_refused(png_30k_short png_30k_short p.png
               "damaged or truncated PNG: its compressed data holds [0-9]+ bytes, at most [0-9]+ once expanded, of the 3600000000 bytes its 30000 x 30000 pixels need$")
# A valid 2,000,000 x 1 PNG is read, blurred and written: libpng's writer allows any side
# (its default limit is 1,000,000), and prints nothing.
cli_test(png_wide_2m_blur EXIT 0
         EXPECT --setup "${hostile} png_wide_2m @W@/w.png"
                --check "test ! -s @STDERR@"
                --check "$<TARGET_FILE:histlab-cli> histogram @W@/b.png --device cpu --quiet --csv - | grep -qx '128,2000000'"
         ARGS blur @W@/w.png --device cpu --quiet --out @W@/b.png)

# --- BMP ---------------------------------------------------------------------------------------
format_refused(bmp_rle8_eob_30k bmp_rle8_eob_30k r.bmp
               "damaged or truncated BMP: its RLE8 data covers 0 of its 30000 rows [(]row 1 ends after 0 of its 30000 pixels[)]$")
format_refused(bmp_rle8_delta bmp_rle8_delta d.bmp
               "damaged or truncated BMP: its RLE8 data covers 1 of its 2 rows [(]a delta code skips pixels[)]$")
format_refused(bmp_rle8_short_row bmp_rle8_short_row s.bmp
               "damaged or truncated BMP: its RLE8 data covers 1 of its 2 rows [(]row 2 ends after 2 of its 4 pixels[)]$")
format_refused(bmp_uncompressed_short bmp_rgb_short u.bmp
               "damaged or truncated BMP: its pixel data holds 16 of the 900000000 bytes its 30000 x 30000 pixels need$")
cli_test(bmp_rle8_valid EXIT 0
         EXPECT --setup "${hostile} bmp_rle8_valid @W@/v.bmp"
                --check "test ! -s @STDERR@"
                --check "grep -qx '0,2' @W@/h.csv && grep -qx '255,6' @W@/h.csv"
         ARGS histogram @W@/v.bmp --device cpu --quiet --csv @W@/h.csv)

# --- JPEG 2000 ---------------------------------------------------------------------------------
format_refused(j2k_missing_tiles j2k_missing_tiles m.j2k
               "damaged or truncated JPEG 2000 file [(]its codestream holds 1 of its 4 tiles whole[)]$")
format_refused(j2k_siz_lie_16k j2k_siz_lie_16k l.j2k
               "damaged or truncated JPEG 2000 file [(]its codestream holds 1 of its 15625 tiles whole[)]$")
format_refused(j2k_psot_past_end j2k_psot_past_end p.j2k
               "damaged or truncated JPEG 2000 file [(]a tile-part of tile 0 declares 65535 bytes; the file holds 190[)]$")
format_refused(jp2_missing_tiles jp2_missing_tiles m.jp2
               "damaged or truncated JPEG 2000 file [(]its codestream holds 1 of its 4 tiles whole[)]$")
cli_test(jp2_valid EXIT 0
         EXPECT --setup "${hostile} jp2_valid @W@/v.jp2"
                --stdout "^input: .*v[.]jp2, 8 x 6, 3 channels, 8-bit"
                --check "test ! -s @STDERR@"
         ARGS histogram @W@/v.jp2 --device cpu)

# --- GIF ---------------------------------------------------------------------------------------
# A 1 x 1 frame on a 20000 x 20000 screen: the image is the rectangle its blocks cover (1 pixel),
# not 400 million transparent pixels that are not in the file; the note says so with --verbose.
cli_test(gif_screen_20k_is_its_frame EXIT 0
         EXPECT --setup "${hostile} gif_screen_20k @W@/g.gif"
                --stdout "^input: .*g[.]gif, 1 x 1, 3 channels, 8-bit"
                --stderr "frame 1 covers 1 x 1 pixels at [(]5, 7[)] of the 20000 x 20000 screen: that rectangle is the image"
                --check "${unlessAsan} (${ulimit2G}; $<TARGET_FILE:histlab-cli> histogram @W@/g.gif --device cpu --quiet)"
         ARGS --verbose histogram @W@/g.gif --device cpu)
# A 20000 x 20000 frame over 2 bytes of LZW: refused before 1.6 GB are filled.
format_refused(gif_frame_20k_short gif_frame_20k_short f.gif
               "damaged or truncated GIF [(]frame 1 declares 20000 x 20000 pixels; its 2 bytes of LZW data can hold at most 20480[)]$")

# --- PAM, PFM, messages ------------------------------------------------------------------------
format_refused(pam_maxval_0 pam_maxval0 z.pam "damaged PAM file [(]MAXVAL 0: its samples can have no value[)]$")
# Float samples up to 3.4e38 are binned over their own range (no --range given): exit 0.
cli_test(pfm_huge_values EXIT 0
         EXPECT --setup "${hostile} pfm_huge_values @W@/h.pfm"
                --check "test ! -s @STDERR@"
         ARGS histogram @W@/h.pfm --device cpu --quiet --csv @W@/h.csv)
# A span of 6e38 is beyond what the float binning can divide: refused as input, naming the file.
cli_test(pfm_huge_span EXIT 3
         EXPECT --setup "${hostile} pfm_huge_span @W@/s.pfm"
                --stderr "^histlab-cli: .*s[.]pfm.*: its float samples run from -3[.][0-9]*e[+]38 to 3[.][0-9]*e[+]38 [(]a span of 6[.][0-9]*e[+]38[)], wider than the largest float"
                --check "test $(wc -l < @STDERR@) -eq 1"
         ARGS histogram @W@/s.pfm --device cpu --quiet --csv @W@/h.csv)
# OpenCV's own "imdecode_(''): can't read data" line no longer comes before HistLab's.
cli_test(opencv_quiet_on_damage EXIT 3
         EXPECT --setup "${hostile} pfm_short @W@/cut.pfm"
                --stderr "^histlab-cli: .*cut[.]pfm: a PFM file OpenCV cannot decode"
                --check "test $(wc -l < @STDERR@) -eq 1"
         ARGS histogram @W@/cut.pfm --device cpu)
