# histlab-cli histogram: its cases, each with the exit code and messages --help documents.
# --- exit 0 ----------------------------------------------------------------------------------
cli_test(synthetic_17_bytes EXIT 0 EXPECT --stdout "^verified: yes"
         ARGS histogram --synthetic random --bytes 17 --verify)
# Synthetic colour: the bytes as interleaved pixels (rounded down to whole ones), every channel
# and the luma verified, as a GPU machine (no image loader) runs a colour frame.
cli_test(synthetic_rgb EXIT 0
         EXPECT --stdout "synthetic random, 333 pixels of 3 channels" --stdout "^verified: yes"
                --check "grep -q '\"channel\": \"gray\"' @W@/rgb.json"
                --check "grep -q '\"bytes\": 999' @W@/rgb.json"
         ARGS histogram --synthetic random --bytes 1000 --channels 3 --repeat 1 --verify
              --json @W@/rgb.json)
cli_test(synthetic_rgba_end_to_end EXIT 0 EXPECT --stdout "^verified: yes"
         ARGS histogram --synthetic skewed --size 1 --channels 4 --end-to-end --repeat 1 --verify)
cli_test(synthetic_channels_two EXIT 2 EXPECT --stderr "--channels: 2: 1, 3 or 4"
         ARGS histogram --synthetic random --bytes 1000 --channels 2)
cli_test(synthetic_less_than_a_pixel EXIT 2
         EXPECT --stderr "--bytes: 2 bytes: less than one pixel of 3 channels"
         ARGS histogram --synthetic random --bytes 2 --channels 3)
cli_test(channels_with_image EXIT 2 EXPECT --stderr "--channels: only with --synthetic"
         ARGS histogram ${data}/rgb8.png --channels 3)
foreach(variant naive local banked cpu auto)
    set(extra)
    if(variant STREQUAL "banked")
        set(extra --banks 4)
    endif()
    cli_test(variant_${variant} EXIT 0 EXPECT --stdout "^verified: yes"
             ARGS histogram ${syn} --variant ${variant} ${extra} --verify)
    cli_test(variant_${variant}_rgba EXIT 0 EXPECT --stdout "^verified: yes"
             ARGS histogram ${data}/rgba8.png --repeat 1 --variant ${variant} ${extra} --verify)
endforeach()
cli_test(image_gray8 EXIT 0 EXPECT --stdout "37 x 23, 1 channel, 8-bit" --stdout "^verified: yes"
         ARGS histogram ${data}/gray8.png --repeat 1 --verify --channel all)
cli_test(image_rgb8 EXIT 0 EXPECT --stdout "41 x 29, 3 channels" --stdout "^verified: yes"
         ARGS histogram ${data}/rgb8.png --repeat 1 --verify --channel all)
cli_test(image_rgba8 EXIT 0 EXPECT --stdout "19 x 13, 4 channels" --stdout "^a +[|]"
         --stdout "^verified: yes" ARGS histogram ${data}/rgba8.png --repeat 1 --verify --channel all)
# 16-bit images: their exact 65,536-bin histogram by the large-bin methods, verified slot by slot.
cli_test(image_gray16_exact EXIT 0
         EXPECT --stdout "31 x 17, 1 channel, 16-bit"
                --stdout "^gray +65536 +[[]0, 65536[]] +0 +0 +0 +[a-z0-9]+ +[0-9.]+ +[0-9.]+ +verified$"
                --stdout "^gray +527 "
                --check "test $(wc -l < @W@/g16.csv) -eq 65537"
                --check "grep -qx 'bin,lo,hi,gray' @W@/g16.csv"
         ARGS histogram ${data}/gray16.png --repeat 1 --verify --channel all --csv @W@/g16.csv)
# A 16-bit image whose values lie in 0-255: 256 bins of one each, not all in bin 0 (the high
# byte), and statistics of the values themselves.
cli_test(image_low16_statistics EXIT 0
         EXPECT --stdout "^gray +256 +0 +255 +127[.]50 +127 +0 +73[.]90 .* 8[.]000$"
                --check "grep -q '^gray,256,0,255,127.5,127,0,' @W@/s.csv"
         ARGS histogram ${data}/low16.pgm --repeat 1 --stats-csv @W@/s.csv)
cli_test(image_bins_range EXIT 0
         EXPECT --stdout "^r +16 +[[]0, 255[]] +0 +0 .* verified$" --stdout "^gray +16 "
                --check "test $(wc -l < @W@/b.csv) -eq 17"
                --check "grep -qx 'bin,lo,hi,r,g,b,gray' @W@/b.csv"
                --check "${check} json @W@/b.json --nonempty channels"
         ARGS histogram ${data}/rgb8.png --bins 16 --range 0,255 --repeat 1 --csv @W@/b.csv
              --json @W@/b.json)
cli_test(image_bins_method EXIT 0 EXPECT --stdout "^gray +1000 .* global .* verified$"
         ARGS histogram ${data}/gray16.png --bins 1000 --method global --repeat 1)
cli_test(image16_variant_refused EXIT 2
         EXPECT --stderr "--variant: tunes the 256-bin pipeline of 8-bit data; a 16-bit image runs the large-bin methods"
         ARGS histogram ${data}/gray16.png --variant banked)
cli_test(image_bins_stages_refused EXIT 2 EXPECT --stderr "--stages: tunes the 256-bin pipeline"
         ARGS histogram ${data}/rgb8.png --bins 100 --stages)
cli_test(image_bins_zero EXIT 2 EXPECT --stderr "--bins: 0 is out of range"
         ARGS histogram ${data}/rgb8.png --bins 0)
cli_test(image_bins_too_many EXIT 2 EXPECT --stderr "--bins: 65537 is out of range"
         ARGS histogram ${data}/rgb8.png --bins 65537)
cli_test(image_range_beyond_type EXIT 2 EXPECT --stderr "--range: for u8 samples LO and HI are whole numbers from 0 to 256"
         ARGS histogram ${data}/rgb8.png --range 0,1000)
cli_test(image_jpeg EXIT 0 EXPECT --stdout "48 x 32, 3 channels" --stdout "^verified: yes"
         ARGS histogram ${data}/rgb.jpg --repeat 1 --verify)
cli_test(channel_g EXIT 0 EXPECT --check "${check} csv @W@/g.csv --header bin,g --total 1189"
         ARGS histogram ${data}/rgb8.png --repeat 1 --channel g --verify --csv @W@/g.csv)
cli_test(stages EXIT 0 EXPECT --stdout "^stage table" --stdout "^  read-only "
         --stdout "^  [+]scatter " --stdout "^  [+]local reduce " --stdout "^  [+]global merge "
         ARGS histogram ${syn} --variant banked --banks 4 --stages)
cli_test(csv_rgb EXIT 0
         EXPECT --exists @W@/out.csv
                --check "${check} csv @W@/out.csv --header bin,r,g,b,gray --total 1189"
         ARGS histogram ${data}/rgb8.png --repeat 1 --verify --csv @W@/out.csv)
cli_test(stats_csv_rgba EXIT 0
         EXPECT --check "${check} stats @W@/s.csv --histogram @W@/h.csv"
                --check "${check} json @W@/r.json --nonempty statistics"
                --stdout "^stats +pixels +min +max +mean +median +mode +std.dev +p1 +p5"
         ARGS histogram ${data}/rgba8.png --repeat 1 --verify --csv @W@/h.csv
              --stats-csv @W@/s.csv --json @W@/r.json)
cli_test(stats_csv_missing_folder EXIT 3 EXPECT --stderr "--stats-csv|nosuchfolder"
         --absent @W@/nosuchfolder/s.csv
         ARGS histogram ${data}/gray8.png --repeat 1 --stats-csv @W@/nosuchfolder/s.csv)
cli_test(region_rgb EXIT 0
         EXPECT --stdout "^input: .*rgb8[.]png [[]region 3,4 20x10[]], 20 x 10"
                --check "${check} csv @W@/h.csv --header bin,r,g,b,gray --total 200"
         ARGS histogram ${data}/rgb8.png --region 3,4,20,10 --repeat 1 --verify --csv @W@/h.csv)
cli_test(region_outside EXIT 2 EXPECT --stderr "--region: .*does not lie inside the 41 x 29 image"
         --absent @W@/h.csv
         ARGS histogram ${data}/rgb8.png --region 30,4,20,10 --csv @W@/h.csv)
cli_test(region_malformed EXIT 2 EXPECT --stderr "--region: '1,2,3' is not X,Y,W,H"
         ARGS histogram ${data}/rgb8.png --region 1,2,3)
cli_test(json_rgb EXIT 0
         EXPECT --check "${check} json @W@/out.json --key verified=true --nonempty histograms"
         ARGS histogram ${data}/rgb8.png --repeat 1 --verify --json @W@/out.json)
cli_test(csv_and_json EXIT 0
         EXPECT --check "${check} csv @W@/h.csv --header bin,gray --total 851"
                --check "${check} json @W@/h.json --key verified=true"
         ARGS histogram ${data}/gray8.png --repeat 1 --verify --csv @W@/h.csv --json @W@/h.json)
cli_test(csv_stdout EXIT 0 EXPECT --no-stdout "^device "
         --check "${check} csv @STDOUT@ --header bin,gray --total 4099"
         ARGS histogram ${syn} --verify --csv -)
cli_test(json_stdout EXIT 0 EXPECT --check "${check} json @STDOUT@ --key verified=true"
         ARGS histogram ${syn} --verify --json -)
cli_test(quiet EXIT 0 EXPECT --no-stdout "." --exists @W@/out.csv
         ARGS histogram ${syn} --verify --quiet --csv @W@/out.csv)

# --- exit 2: usage ---------------------------------------------------------------------------
cli_test(unknown_histogram_option EXIT 2
         EXPECT --stderr "unknown option '--bogus'" --absent @W@/out.csv
         ARGS histogram ${syn} --csv @W@/out.csv --bogus)
cli_test(missing_value EXIT 2 EXPECT --stderr "--banks: needs a value"
         ARGS histogram ${syn} --banks)
cli_test(banks_not_power_of_two EXIT 2
         EXPECT --stderr "--banks: 3 is not a power of two" --absent @W@/out.csv
         ARGS histogram ${syn} --variant banked --banks 3 --csv @W@/out.csv)
cli_test(banks_exceed_local_memory EXIT 2
         EXPECT --stderr "--banks: 1048576 .*local memory" --absent @W@/out.json
         ARGS histogram ${syn} --variant banked --banks 1048576 --json @W@/out.json)
cli_test(banks_cpu_range EXIT 2 EXPECT --stderr "--banks: .*cpu"
         ARGS histogram ${syn} --variant cpu --banks 64)
cli_test(banks_not_a_number EXIT 2 EXPECT --stderr "--banks: 'four' is not a whole number"
         ARGS histogram ${syn} --banks four)
cli_test(wg_over_device_max EXIT 2 EXPECT --stderr "--wg: 100000 .*allows 1[.][.]"
         --absent @W@/out.csv ARGS histogram ${syn} --variant local --wg 100000 --csv @W@/out.csv)
cli_test(device_no_match EXIT 2 EXPECT --stderr "--device: no device matches 'nosuchdevice'"
         ARGS histogram ${syn} --device nosuchdevice)
cli_test(device_index_out_of_range EXIT 2 EXPECT --stderr "--device: index 99 is out of range"
         ARGS histogram ${syn} --device 99)
cli_test(device_gpu_absent EXIT 2 EXPECT --stderr "--device: no gpu device"
         ARGS histogram ${syn} --device gpu)
cli_test(variant_bogus EXIT 2 EXPECT --stderr "--variant: 'bogus' is not a variant [(]auto, naive, local, banked or cpu[)]"
         ARGS histogram ${syn} --variant bogus)
cli_test(channel_r_on_gray EXIT 2 EXPECT --stderr "--channel: .*gray8.png is a gray image"
         --absent @W@/out.csv ARGS histogram ${data}/gray8.png --channel r --csv @W@/out.csv)
cli_test(channel_a_on_rgb EXIT 2 EXPECT --stderr "--channel: .*rgb8.png has no alpha channel"
         ARGS histogram ${data}/rgb8.png --channel a)
cli_test(channel_bogus EXIT 2 EXPECT --stderr "--channel" ARGS histogram ${syn} --channel x)
cli_test(read_coalesced_cpu EXIT 2 EXPECT --stderr "--read: the cpu variant reads serially"
         ARGS histogram ${syn} --variant cpu --read coalesced)
cli_test(synthetic_without_size EXIT 2 EXPECT --stderr "--synthetic: give its size"
         ARGS histogram --synthetic random)
cli_test(synthetic_bogus_kind EXIT 2 EXPECT --stderr "--synthetic: unknown kind 'bogus'"
         ARGS histogram --synthetic bogus --bytes 16)
cli_test(image_and_synthetic EXIT 2 EXPECT --stderr "either an IMAGE file or --synthetic"
         ARGS histogram ${data}/gray8.png --synthetic random --bytes 16)
cli_test(no_input EXIT 2 EXPECT --stderr "either an IMAGE file or --synthetic" ARGS histogram)
cli_test(two_images EXIT 2 EXPECT --stderr "more than one image"
         ARGS histogram ${data}/gray8.png ${data}/rgb8.png)
cli_test(size_with_image EXIT 2 EXPECT --stderr "only with --synthetic"
         ARGS histogram ${data}/gray8.png --bytes 16)
cli_test(repeat_zero EXIT 2 EXPECT --stderr "--repeat: 0 is out of range"
         ARGS histogram --synthetic random --bytes 16 --repeat 0)
cli_test(size_not_a_number EXIT 2 EXPECT --stderr "--size: 'abc' is not a number"
         ARGS histogram --synthetic random --size abc)

# --- exit 3: input ---------------------------------------------------------------------------
# A FIFO is refused by its type (reading it would wait for a writer for ever); for the joint and
# large-bin commands too, which load images the same way.
cli_test(fifo_refused EXIT 3 EXPECT --setup "mkfifo @W@/f.png"
         --stderr "f[.]png: is not a regular file [(]a FIFO, socket or device[)]"
         ARGS histogram @W@/f.png)
cli_test(fifo_refused_joint EXIT 3 EXPECT --setup "mkfifo @W@/f.png"
         --stderr "f[.]png: is not a regular file" ARGS joint @W@/f.png @W@/f.png)
cli_test(missing_file EXIT 3 EXPECT --stderr "missing[.]png: no such file" --absent @W@/out.csv
         ARGS histogram ${data}/missing.png --csv @W@/out.csv)
cli_test(folder_as_image EXIT 3 EXPECT --stderr "is a folder, not an image file"
         ARGS histogram ${data})
cli_test(empty_file EXIT 3 EXPECT --stderr "empty[.]png: file is empty" --absent @W@/out.json
         ARGS histogram ${data}/empty.png --json @W@/out.json)
cli_test(not_an_image EXIT 3 EXPECT --stderr "not_an_image[.]png: not an image"
         --absent @W@/out.csv ARGS histogram ${data}/not_an_image.png --csv @W@/out.csv)
# A damaged DICOM file aborted the process inside OpenCV's DICOM reader (GDCM); DICOM is refused
# by its signature, whatever the file's name, in one line.
cli_test(dicom_refused EXIT 3
         EXPECT --setup "cp ${data}/truncated.dcm @W@/scan.png"
         --stderr "^histlab-cli: .*scan[.]png: a DICOM file, which HistLab does not read"
         --absent @W@/out.csv ARGS histogram @W@/scan.png --csv @W@/out.csv)
cli_test(truncated_jpeg EXIT 3
         EXPECT --stderr "truncated[.]jpg: damaged or truncated JPEG [(]libjpeg: Premature end of JPEG file[)]$"
         --absent @W@/out.csv ARGS histogram ${data}/truncated.jpg --csv @W@/out.csv)
cli_test(unsupported_depth EXIT 3
         EXPECT --stderr "^histlab-cli: .*float64[.]tiff: TIFF samples of 64-bit float are not supported [(]8- or 16-bit unsigned, or 32-bit float[)]$"
         --absent @W@/out.csv ARGS histogram ${data}/float64.tiff --csv @W@/out.csv)
# Float images from files: NumPy's bins (its np.histogram of the finite values gives 5, 2, 2, 5
# for these 4 bins over [0, 1]); the values out of range, NaN and +-inf counted apart.
cli_test(float_image_bins EXIT 0
         EXPECT --stdout "input: .*float_edges[.]tiff, 6 x 3, 1 channel, 32-bit float"
                --stdout "^gray +4 +[[]0, 1[]] +2 +1 +1 +private .* verified$"
                --stdout "^statistics: of the finite samples"
                --check "grep -qx '0,0,0.25,5' @W@/h.csv" --check "grep -qx '1,0.25,0.5,2' @W@/h.csv"
                --check "grep -qx '2,0.5,0.75,2' @W@/h.csv" --check "grep -qx '3,0.75,1,5' @W@/h.csv"
         ARGS histogram ${data}/float_edges.tiff --bins 4 --range 0,1 --csv @W@/h.csv --repeat 1)
# A float RGB image without a range: each channel's own min ... max, 256 bins.
cli_test(float_image_auto_range EXIT 0
         EXPECT --stdout "input: .*float32[.]pfm, 9 x 7, 3 channels, 32-bit float"
                --stdout "^r +256 +[[]0, 0[.]97[0-9]*[]] +0 +0 +0 .* verified$"
                --stdout "^gray +256 .* verified$"
                --check "${check} json @W@/h.json --nonempty channels"
         ARGS histogram ${data}/float32.pfm --json @W@/h.json --repeat 1)
# --csv of a float colour image: each channel is binned over its own min ... max, so each has
# its own edge columns before its counts (np.histogram of each channel); the edges are the float32
# ones counted with, the first r_lo the channel's min and the last r_hi its max.
cli_test(float_image_csv_edges_per_channel EXIT 0
         EXPECT --check "head -1 @W@/h.csv | grep -qx 'bin,r_lo,r_hi,r,g_lo,g_hi,g,b_lo,b_hi,b,gray_lo,gray_hi,gray'"
                --check "python3 -c \"import csv; r=list(csv.reader(open('@W@/h.csv')))[1:]; assert len(r)==8 and all(a[c+1]==b[c] for a,b in zip(r,r[1:]) for c in (1,4,7,10)) and r[-1][2]!=r[-1][5] and all(sum(int(x[c]) for x in r)==63 for c in (3,6,9,12))\""
         ARGS histogram ${data}/float32.pfm --bins 8 --csv @W@/h.csv --quiet)
# With one --range every channel has the same bins: one lo,hi pair.
cli_test(float_image_csv_one_range EXIT 0
         EXPECT --check "head -1 @W@/h.csv | grep -qx 'bin,lo,hi,r,g,b,gray'"
         ARGS histogram ${data}/float32.pfm --bins 8 --range 0,1 --csv @W@/h.csv --quiet)
# Pipelines that work on integer values refuse a float image by name.
cli_test(float_image_blur EXIT 3 EXPECT --stderr "float32[.]pfm: a 32-bit float image; the box blur works on 8- or 16-bit"
         ARGS blur ${data}/float32.pfm --repeat 1)
cli_test(float_image_equalize EXIT 3 EXPECT --stderr "float32[.]pfm: a 32-bit float image; equalization works on 8- or 16-bit"
         ARGS equalize ${data}/float32.pfm --repeat 1)
# A size of 0 is the option's usage error (exit 2) in every command.
cli_test(synthetic_size_zero EXIT 2 EXPECT --stderr "^histlab-cli: --size: .*empty"
         ARGS histogram --synthetic random --size 0)
cli_test(synthetic_bytes_zero EXIT 2 EXPECT --stderr "^histlab-cli: --bytes: .*empty"
         ARGS histogram --synthetic random --bytes 0)
cli_test(csv_folder_missing EXIT 3 EXPECT --stderr "folder '.*/missing' does not exist"
         --absent @W@/missing --absent @W@/out.json
         ARGS histogram ${syn} --json @W@/out.json --csv @W@/missing/out.csv)
cli_test(json_is_a_folder EXIT 3 EXPECT --stderr "is a folder, not a file" --absent @W@/out.csv
         ARGS histogram ${syn} --csv @W@/out.csv --json @W@)
# An empty --csv value must not be taken as "no CSV" (exit 0 with nothing written).
cli_test(csv_empty_path EXIT 3 EXPECT --stderr "output path is empty"
         ARGS histogram ${syn} --csv @EMPTY@)

# --- exit 4: device and kernel build ---------------------------------------------------------
cli_test(no_opencl_platform_histogram EXIT 4
         EXPECT --env OCL_ICD_VENDORS=@W@ --stderr "no OpenCL platform" --absent @W@/out.csv
         ARGS histogram ${syn} --csv @W@/out.csv)
cli_test(kernel_build_failure EXIT 4
         EXPECT --setup "${breakKernel} syntax ${kernel} @W@/kernels/histogram256.cl"
                --stderr "kernels/histogram256[.]cl" --stderr "-D NCHAN=1"
                --stderr "CL_BUILD_PROGRAM_FAILURE" --stderr "unknown type name 'this'"
                --absent @W@/out.csv --absent @W@/out.json
         ARGS --kernel-dir @W@/kernels histogram ${syn} --verify --csv @W@/out.csv
              --json @W@/out.json)

# --- exit 1: verification mismatch -----------------------------------------------------------
# The device must be wrong for this: a copy of the kernel whose local/banked scatter skips bin
# 0. The run still writes its CSV and JSON (the JSON records "verified": false) and then exits 1.
cli_test(verify_mismatch EXIT 1
         EXPECT --setup "${breakKernel} miscount ${kernel} @W@/kernels/histogram256.cl"
                --stderr "verification failed: histogram [(]gray[)] bin 0: device 0, CPU reference"
                --stdout "^verified: NO" --exists @W@/out.csv
                --check "${check} json @W@/out.json --key verified=false"
         ARGS --kernel-dir @W@/kernels histogram ${syn} --variant banked --banks 4 --verify
              --csv @W@/out.csv --json @W@/out.json)
# The same broken kernel is not used by the cpu variant: it verifies.
cli_test(verify_kernel_dir_cpu EXIT 0
         EXPECT --setup "${breakKernel} miscount ${kernel} @W@/kernels/histogram256.cl"
                --stdout "^verified: yes"
         ARGS --kernel-dir @W@/kernels histogram ${syn} --variant cpu --verify)

# --- one input split across devices (PoCL shows two with POCL_DEVICES="pthread pthread") -----
set(twoPocl "POCL_DEVICES='pthread pthread'")
set(splitInput --synthetic random --size 3 --channels 3 --repeat 1)
cli_test(histogram_split_equals_one_device EXIT 0
         EXPECT --env "POCL_DEVICES=pthread pthread"
                --setup "${twoPocl} $<TARGET_FILE:histlab-cli> histogram --synthetic random --size 3 --channels 3 --repeat 1 --device 0 --quiet --csv @W@/one.csv"
                --stdout "^histogram split over 2 devices: synthetic random, 1048576 pixels of 3 channels [(]3145728 bytes; r,g,b,gray[)]$"
                --stdout "^ +0 +pthread.* verified$" --stdout "^ +1 +pthread.* verified$"
                --stdout "^end to end [(]pinned host memory -> counts on the host[)]: split [0-9.]+ ms [(][0-9. ]+[.][.][0-9. ]+[)], [0-9.]+ GB/s, [0-9.]+x the fastest device alone$"
                --stdout "^kernels only [(]each piece already on its device[)]: slowest device [0-9.]+ ms"
                --stdout "^verified: every device alone and the split equal the CPU reference, bin for bin$"
                --check "cmp @W@/one.csv @W@/all.csv"
                --check "${check} json @W@/s.json --nonempty shares --nonempty histograms --key verified=true"
         ARGS histogram ${splitInput} --device all --csv @W@/all.csv --json @W@/s.json)
cli_test(histogram_split_device_fails EXIT 0
         EXPECT --env "POCL_DEVICES=pthread pthread" --env "HISTLAB_DEVICE_FAIL=1:0"
                --setup "${twoPocl} $<TARGET_FILE:histlab-cli> histogram --synthetic random --size 3 --channels 3 --repeat 1 --device 0 --quiet --csv @W@/one.csv"
                --stdout "^ +1 +pthread.* failed +failed on purpose [(]HISTLAB_DEVICE_FAIL=1:0[)]; its piece counted by device 0$"
                --stdout "^verified: "
                --check "cmp @W@/one.csv @W@/all.csv"
         ARGS histogram ${splitInput} --device all --csv @W@/all.csv)
cli_test(histogram_split_refuses_16_bit EXIT 2 EXPECT --env "POCL_DEVICES=pthread pthread"
         --stderr "^histlab-cli: --device: several devices split the 256-bin histogram of 8-bit data; a 16-bit image or --bins, --range or --method runs on one device$"
         ARGS histogram ${data}/gray16.png --device all)
cli_test(histogram_split_refuses_stages EXIT 2 EXPECT --env "POCL_DEVICES=pthread pthread"
         --stderr "^histlab-cli: --stages: the stage table is of one device [(]give one --device[)]$"
         ARGS histogram ${splitInput} --device all --stages)
