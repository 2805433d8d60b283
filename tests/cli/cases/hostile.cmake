# Hostile inputs and outputs: paths that cannot be looked at, special files, outputs that would
# destroy an input or each other, work-groups a CPU runtime cannot hold. Each is one line naming
# the file or option, its exit code, no crash, and nothing changed that the user did not ask for.

# --- outputs that cannot be looked at: one line, exit 3, before any work --------------------
string(REPEAT "a" 300 tooLong)  # over NAME_MAX (255)
string(REPEAT "b" 250 longName) # fits, with ".csv"; its temporary's name is shortened
cli_test(output_symlink_loop EXIT 3 EXPECT --setup "ln -s loop.csv @W@/loop.csv"
         --stderr "^histlab-cli: .*/loop[.]csv: Too many levels of symbolic links$"
         --check "test -L @W@/loop.csv"
         ARGS histogram ${syn} --csv @W@/loop.csv)
cli_test(output_name_too_long EXIT 3
         EXPECT --stderr "^histlab-cli: .*/a+[.]csv: File name too long$"
         ARGS histogram ${syn} --csv @W@/${tooLong}.csv)
cli_test(output_under_a_file EXIT 3 EXPECT --setup "touch @W@/file"
         --stderr "^histlab-cli: .*/file/x[.]csv: Not a directory$"
         ARGS histogram ${syn} --json @W@/file/x.csv)
# A name that fits NAME_MAX still gets its temporary beside it (shortened) and is written.
cli_test(output_long_name_written EXIT 0
         EXPECT --exists @W@/${longName}.csv
         ARGS histogram ${syn} --quiet --csv @W@/${longName}.csv)

# --- special files and links: written through as a shell's redirection would ----------------
cli_test(output_dev_null EXIT 0 EXPECT --check "test -c /dev/null"
         ARGS histogram ${syn} --quiet --csv /dev/null --json /dev/null)
cli_test(output_dev_stdout EXIT 0 EXPECT --stdout "^bin,gray" --no-stdout "^device 0:"
         ARGS histogram ${syn} --csv /dev/stdout)
cli_test(output_dev_full EXIT 3 EXPECT --stderr "^histlab-cli: /dev/full: write failed [(]No space left on device[)]$"
         ARGS histogram ${syn} --quiet --csv /dev/full)
cli_test(output_fifo_without_reader EXIT 3 EXPECT --setup "mkfifo @W@/out.csv"
         --stderr "out[.]csv: cannot be written [(]a FIFO that no process reads[)]$"
         --check "test -p @W@/out.csv"
         ARGS histogram ${syn} --csv @W@/out.csv)
cli_test(output_through_a_link EXIT 0
         EXPECT --setup "echo old > @W@/real.csv && ln -s real.csv @W@/link.csv"
                --check "test -L @W@/link.csv" --check "grep -q '^bin,gray' @W@/real.csv"
         ARGS histogram ${syn} --quiet --csv @W@/link.csv)
cli_test(output_dangling_link EXIT 0 EXPECT --setup "ln -s made.csv @W@/link.csv"
         --check "test -L @W@/link.csv" --check "grep -q '^bin,gray' @W@/made.csv"
         ARGS histogram ${syn} --quiet --csv @W@/link.csv)

# --- an output never replaces an input, nor another output ----------------------------------
cli_test(output_is_the_input EXIT 2 EXPECT --setup "cp ${data}/rgb8.png @W@/v.png"
         --stderr "^histlab-cli: --out: .*/v[.]png is the input IMAGE [(]an output never replaces an input[)]$"
         --check "cmp -s ${data}/rgb8.png @W@/v.png"
         ARGS blur @W@/v.png --out @W@/v.png)
cli_test(output_is_the_input_through_a_link EXIT 2
         EXPECT --setup "cp ${data}/rgb8.png @W@/v.png && ln -s v.png @W@/l.png"
                --stderr "--out: .*/l[.]png is the input IMAGE"
                --check "cmp -s ${data}/rgb8.png @W@/v.png"
         ARGS equalize @W@/v.png --out @W@/l.png)
cli_test(output_is_the_mask EXIT 2 EXPECT --setup "cp ${data}/gray8.png @W@/m.png"
         --stderr "--csv: .*/m[.]png is the input --mask"
         --check "cmp -s ${data}/gray8.png @W@/m.png"
         ARGS joint ${data}/gray8.png ${data}/gray8.png --mask @W@/m.png --csv @W@/m.png)
cli_test(two_outputs_one_file EXIT 2
         EXPECT --stderr "^histlab-cli: --json: .*/a[.]out is also the file of --csv [(]only one of them would be kept[)]$"
                --absent @W@/a.out
         ARGS histogram ${syn} --csv @W@/a.out --json @W@/./a.out)
cli_test(reverse_output_is_the_input EXIT 2 EXPECT --setup "printf abc > @W@/in.bin"
         --stderr "--csv: .*/in[.]bin is the input --input"
         --check "test \"$(cat @W@/in.bin)\" = abc"
         ARGS reverse --input @W@/in.bin --csv @W@/in.bin)

# --- inputs that are not regular files: refused by their type, never read -------------------
cli_test(reverse_fifo_refused EXIT 3 EXPECT --setup "mkfifo @W@/f.bin"
         --stderr "^histlab-cli: .*/f[.]bin: is not a regular file [(]a FIFO, socket or device[)]$"
         ARGS reverse --input @W@/f.bin)
cli_test(input_symlink_loop EXIT 3 EXPECT --setup "ln -s l.png @W@/l.png"
         --stderr "^histlab-cli: .*/l[.]png: Too many levels of symbolic links$"
         ARGS histogram @W@/l.png)

# --- work-groups a CPU runtime cannot hold ---------------------------------------------------
# The cpu variant's private histograms of a whole work-group sit on one runtime thread's stack:
# 4,096 work-items x 4 copies x 1,024 bins (an RGB image's channels and luma: 64 MiB) are
# refused by name unless the stack holds 86 MiB (before, PoCL crashed from 8 MiB of them at its
# default stack of 8 MiB).
cli_test(cpu_variant_wg_beyond_the_stack EXIT 2
         EXPECT --stderr "^histlab-cli: --wg: 4096 work-items of the cpu variant keep 64 MiB of private histograms [(]4 x 1024 bins each[)] .*thread's stack"
         ARGS histogram ${data}/rgb8.png --device cpu --variant cpu --wg 4096 --repeat 1)

# --- absurd sizes: refused by name before anything is allocated ------------------------------
# Synthetic data may take a quarter of the machine's memory; the message says how much that is.
cli_test(synthetic_size_beyond_memory EXIT 2
         EXPECT --stderr "^histlab-cli: --size: 97[.]7 GiB of synthetic data: more than a quarter of this machine's memory [(][0-9.]+ [MGT]iB of [0-9.]+ [MGT]iB[)]$"
         ARGS histogram --synthetic random --size 100000)
cli_test(synthetic_size_absurd EXIT 2
         EXPECT --stderr "^histlab-cli: --size: over 10\\^18 bytes of synthetic data: more than a quarter"
         ARGS histogram --synthetic random --size 1e99)
cli_test(synthetic_bytes_beyond_memory EXIT 2
         EXPECT --stderr "^histlab-cli: --bytes: 1[.]0 TiB of synthetic data: more than a quarter"
         ARGS histogram --synthetic random --bytes 1099511627776)
cli_test(synthetic_image_beyond_memory EXIT 2
         EXPECT --stderr "^histlab-cli: --width/--height: 1[.]0 TiB of synthetic data: more than a quarter"
         ARGS blur --synthetic random --width 1048576 --height 1048576)
cli_test(dashboard_size_beyond_a_buffer EXIT 2
         EXPECT --stderr "^histlab-cli: --size: 1 TiB is more than .* takes in one buffer with 32-bit indices [(]2 GiB[)]$"
         ARGS dashboard --size 1T --repeat 1)
cli_test(sweep_size_below_16_bytes EXIT 2 EXPECT --stderr "^histlab-cli: --size: at least 16 bytes$"
         ARGS sweep banks --size 1e-9)

# --- a device selector left empty is a mistake, not the default -----------------------------
cli_test(device_selector_empty EXIT 2 EXPECT --stderr "^histlab-cli: --device: the selector is empty"
         ARGS histogram ${syn} --device @EMPTY@)

# --- images as a viewer shows them, damage as the decoder reports it ------------------------
# A truncated JPEG with its end marker put back: libjpeg's warning refuses it, not the last bytes.
cli_test(jpeg_end_marker_put_back EXIT 3
         EXPECT --setup "head -c 700 ${data}/rgb.jpg > @W@/p.jpg && printf '\\377\\331' >> @W@/p.jpg"
                --stderr "^histlab-cli: .*/p[.]jpg: damaged or truncated JPEG [(]libjpeg: .*[)]$"
                --absent @W@/out.csv
         ARGS histogram @W@/p.jpg --csv @W@/out.csv)
# A complete JPEG followed by a trailer (a camera's, a motion photo's) is the photo.
cli_test(jpeg_with_trailer EXIT 0
         EXPECT --setup "cat ${data}/rgb.jpg > @W@/t.jpg && head -c 4000 /dev/urandom >> @W@/t.jpg && $<TARGET_FILE:histlab-cli> histogram ${data}/rgb.jpg --quiet --csv @W@/plain.csv"
                --check "cmp -s @W@/plain.csv @W@/t.csv"
         ARGS histogram @W@/t.jpg --quiet --csv @W@/t.csv)
# EXIF orientation 6: the 48 x 32 stored photo is shown (and counted, cropped, blurred) 32 x 48,
# so a region valid only in the portrait picture is taken.
cli_test(jpeg_exif_orientation EXIT 0
         EXPECT --stdout "^input: .*exif6[.]jpg [[]region 0,40 32x8[]], 32 x 8, 3 channels"
         ARGS histogram ${data}/exif6.jpg --region 0,40,32,8)
cli_test(jpeg_exif_orientation_blur EXIT 0
         EXPECT --check "$<TARGET_FILE:histlab-cli> histogram @W@/b.png --quiet --csv - | grep -q ."
                --stdout "32 x 48"
         ARGS blur ${data}/exif6.jpg --out @W@/b.png)
# A header that declares 900 million pixels and holds 16 bytes: refused from the strips' sizes,
# before anything is allocated, without counting pixels that are not there.
cli_test(tiff_lying_header EXIT 3
         EXPECT --stderr "^histlab-cli: .*lying[.]tiff: damaged or truncated TIFF: its strips hold 16 of the 900000000 bytes its 30000 x 30000 pixels need$"
                --absent @W@/out.csv
         ARGS histogram ${data}/lying.tiff --csv @W@/out.csv)
# A BMP that declares 822 million pixels in 50 bytes (found by the fuzzer; also a seed in
# tests/fuzz/corpus/image): OpenCV decodes it, reserves the declared size untouched and finds
# the data missing; one line, exit 3.
set(lyingBmp "Qk3Z2dnZ2dnZAPbZAdAAANkBADIAAAL7AAABAhgAAAAAAABjCjIgMQoxIFrfzd/ICtk=")
cli_test(bmp_lying_header EXIT 3
         EXPECT --setup "echo ${lyingBmp} | base64 -d > @W@/lying.bmp"
                --stderr "^histlab-cli: .*lying[.]bmp: .*(damaged|cannot be decoded)"
                --absent @W@/out.csv
         ARGS histogram @W@/lying.bmp --csv @W@/out.csv)
# The formats OpenCV decodes are held to the limits from their headers too, before OpenCV
# allocates: 56 bytes of Radiance HDR declare 20000 x 20000 float RGB pixels (a 25 MB file of RLE
# runs made OpenCV fill 9.5 GB: its float image and its output, before this).
set(hugeHdr "Iz9SQURJQU5DRQpGT1JNQVQ9MzItYml0X3JsZV9yZ2JlCgotWSAyMDAwMCArWCAyMDAwMAoCAk4g")
cli_test(hdr_over_byte_limit EXIT 3
         EXPECT --setup "echo ${hugeHdr} | base64 -d > @W@/huge.hdr"
                --env HISTLAB_MAX_IMAGE_BYTES=1000000000
                --stderr "^histlab-cli: .*huge[.]hdr: declares 20000 x 20000 pixels [(]8[.]9 GiB decoded[)], more than the 953[.]7 MiB an image may take"
                --no-stdout "."
         ARGS histogram @W@/huge.hdr)
# A bare JPEG 2000 codestream (OpenJPEG's opj_compress) is read with nothing on stderr: OpenCV's
# logger printed a warning for its unspecified colour space.
set(tinyJ2k "/0//UQAvAAAAAAAIAAAABgAAAAAAAAAAAAAACAAAAAYAAAAAAAAAAAADBwEBBwEBBwEB/1IADAAAAAEBAQQEAAH/XAAHQEBISFD/ZAAlAAFDcmVhdGVkIGJ5IE9wZW5KUEVHIHZlcnNpb24gMi41LjD/kAAKAAAAAAC8AAH/k8+0OAZZcvdDODPShyCx6BFf34BoHRe2FpRW8Pf+qup398fUGAt9uaIhtGOAmaDJ+8PqC5+AZB9QYCFKNM5kps/jVUm3DOURCNZyB0ZV+P93DHv4PAvE3VHNUY+/w+oMg+cXB9QYA9xqAnzLuxGJPB8XEEOSIpF3JL/gn38crGHHv7+SUJoY7pvA+QVB84mB84oOHU6pQzBkMEx/E1hbWvPJzcQPFL07Fj3Wtx5RL//Z")
cli_test(j2k_codestream_quiet EXIT 0
         EXPECT --setup "echo ${tinyJ2k} | base64 -d > @W@/tiny.j2k"
                --stdout "^input: .*tiny[.]j2k, 8 x 6, 3 channels, 8-bit"
                --check "test ! -s @STDERR@"
         ARGS histogram @W@/tiny.j2k)
# A size beyond the pixel limit is refused from the header (the limit can be lowered and raised).
cli_test(image_over_pixel_limit EXIT 3
         EXPECT --stderr "^histlab-cli: .*rgb8[.]png: declares 41 x 29 pixels, more than the 1000 an image may have [(]HISTLAB_MAX_IMAGE_PIXELS raises the limit[)]$"
                --env HISTLAB_MAX_IMAGE_PIXELS=1000
         ARGS histogram ${data}/rgb8.png)
# Pages: --page picks one, the report names it and how many there are; a page not there is a
# usage error on --page.
cli_test(tiff_page_two EXIT 0
         EXPECT --stdout "^60,1$" --stdout "^59,0$" --stdout "^108,0$"
         ARGS histogram ${data}/pages3.tiff --page 2 --quiet --csv -)
cli_test(tiff_pages_named EXIT 0 EXPECT --stdout "^input: .*pages3[.]tiff, page 1 of 3, 8 x 6"
         ARGS histogram ${data}/pages3.tiff)
cli_test(tiff_page_missing EXIT 2
         EXPECT --stderr "^histlab-cli: --page: .*pages3[.]tiff has 3 pages, not a page 4$"
         ARGS histogram ${data}/pages3.tiff --page 4)
cli_test(page_not_a_number EXIT 2
         EXPECT --stderr "^histlab-cli: --page: '0' is not a page number [(]a whole number from 1[)]$"
         ARGS blur ${data}/rgb8.png --page 0 --out @W@/x.png)
# Netpbm: a sample is a fraction of the maxval: 500 and 1,000 of 1,000 are 32,768 and 65,535 of
# 16 bits, not the values 500 and 1,000.
cli_test(pgm_maxval_1000 EXIT 0
         EXPECT --setup "printf 'P2 2 1 1000 500 1000' > @W@/m.pgm"
                --stdout "^32768,32768,32769,1$" --stdout "^65535,65535,65536,1$"
         ARGS histogram @W@/m.pgm --quiet --csv -)
cli_test(pgm_sample_above_maxval EXIT 3
         EXPECT --setup "printf 'P5 2 1 15\\n\\001\\120' > @W@/d.pgm"
                --stderr "^histlab-cli: .*/d[.]pgm: damaged PGM [(]sample 80 at pixel [(]1, 0[)] is above the maxval 15[)]$"
         ARGS histogram @W@/d.pgm)
# Damaged PNGs: HistLab's one line, nothing of libpng's own.
cli_test(png_damaged_one_line EXIT 3
         EXPECT --setup "head -c 1500 ${data}/rgb8.png > @W@/c.png"
                --stderr "^histlab-cli: .*/c[.]png: damaged or truncated PNG [(]libpng: .*[)]$"
                --check "[ $(wc -l < @STDERR@) = 1 ]"
         ARGS histogram @W@/c.png)
# Memory: reading a 64 MiB image adds nothing to a run's peak beyond the same run on 64 MiB of
# synthetic data (the file's bytes are freed before the run, the pixels are decoded in place,
# not copied): the peaks may differ by 16 MiB at most. AddressSanitizer keeps freed memory in
# quarantine and shadows every byte, so peaks mean nothing there.
if(HISTLAB_SANITIZE OR HISTLAB_FUZZ)
    message(STATUS "cli.memory_of_a_loaded_image: skipped (AddressSanitizer: its quarantine holds freed memory)")
else()
    cli_test(memory_of_a_loaded_image EXIT 0
             EXPECT --setup "(printf 'P5 8192 8192 255\\n'; head -c 67108864 /dev/urandom) > @W@/big.pgm && $<TARGET_FILE:histlab-cli> histogram --synthetic random --bytes 67108864 --repeat 1 --device cpu | sed -n 's/^host memory: peak resident \\([0-9]*\\) MiB.*/\\1/p' > @W@/synthetic.txt"
                    --stdout "^host memory: peak resident [0-9]+ MiB [(]input 64 MiB[)]$"
                    --check "test \$(sed -n 's/^host memory: peak resident \\([0-9]*\\) MiB.*/\\1/p' @STDOUT@) -le \$((\$(cat @W@/synthetic.txt) + 16))"
             ARGS histogram @W@/big.pgm --repeat 1 --device cpu)
endif()
# A size of 0 is the option's usage error in every command that takes a size.
cli_test(scan_size_zero EXIT 2 EXPECT --stderr "^histlab-cli: --size: 0 MiB: nothing to scan$"
         ARGS scan --size 0)
# A --kernel-dir without one of the kernels a run needs: the build's copy, and a warning saying
# so (once), not a silent fallback. The histogram's read-only ceiling needs bandwidth.cl.
cli_test(kernel_dir_lacks_a_kernel EXIT 0
         EXPECT --setup "mkdir -p @W@/kernels && cp ${kernel} @W@/kernels/"
                --stderr "--kernel-dir .*/kernels has no bandwidth[.]cl: the copy embedded at build time is used"
                --check "[ $(grep -c 'has no bandwidth' @STDERR@) = 1 ]"
         ARGS --kernel-dir @W@/kernels histogram ${syn} --verify)
# A saved run whose number overflows a double (found by fuzzing): one line, exit 3.
cli_test(baseline_number_overflow EXIT 3
         EXPECT --setup "printf '{\"gbps\": 21E7483648}' > @W@/base.json"
                --stderr "^histlab-cli: .*base[.]json: JSON: number overflow parsing '21E7483648'$"
         ARGS dashboard --baseline @W@/base.json --size 64K --repeat 1)

# --- an absurdly long argument: one line, exit 2 -----------------------------------------------
# The parse error was read with std::regex, whose matcher recursed once per character and
# overflowed the stack on a 120,000-character argument (exit 139).
string(REPEAT "y" 120000 hugeArgument)
cli_test(huge_argument_refused EXIT 2
         EXPECT --stderr "^histlab-cli: devices: unexpected argument 'yyyy"
         ARGS devices ${hugeArgument})

# Two outputs into one file that does not exist yet, named two ways: relative and absolute (the
# tests run in this folder), and a dangling link to the other.
cli_test(two_outputs_one_new_file_relative EXIT 2
         EXPECT --stderr "^histlab-cli: --json: .*/a[.]out is also the file of --csv"
                --absent @W@/a.out
         ARGS histogram ${syn} --csv work/two_outputs_one_new_file_relative/a.out
              --json @W@/a.out)
cli_test(two_outputs_one_new_file_through_a_link EXIT 2
         EXPECT --setup "ln -s @W@/made.csv @W@/dl.csv"
                --stderr "^histlab-cli: --json: .*/made[.]csv is also the file of --csv"
                --absent @W@/made.csv
         ARGS histogram ${syn} --csv @W@/dl.csv --json @W@/made.csv)
# Sizes of nothing and of too much name the option given.
cli_test(largebin_size_zero EXIT 2
         EXPECT --stderr "^histlab-cli: --size: no samples: the synthetic data would be empty$"
         ARGS largebin --size 0)
cli_test(largebin_count_zero EXIT 2
         EXPECT --stderr "^histlab-cli: --count: no samples: the synthetic data would be empty$"
         ARGS largebin --count 0)
cli_test(scan_size_beyond_a_scan EXIT 2
         EXPECT --stderr "^histlab-cli: --size: 100000 MiB are 26214400000 values, more than a scan takes"
         ARGS scan --size 100000)
