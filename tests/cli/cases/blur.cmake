# histlab-cli blur: its cases, each with the exit code and messages --help documents.
# --- blur (the reference text's launches, and the whole image) -----------------------------
cli_test(blur_launches EXIT 0
         EXPECT --stdout "^blur .*gray8[.]png, 37 x 23, radius 1, interior 35 x 21"
                --stdout "^cl12-null .* verified .* yes$"
                --stdout "^cl12-16x16 .* unsupported"
                --stdout "^    refused, as OpenCL 1.2 requires: .*CL_INVALID_WORK_GROUP_SIZE .*range [(]35 x 21[)] does not divide"
                --stdout "^padded-16x16 .* 48x32 .* verified .* yes$"
         ARGS blur ${data}/gray8.png --repeat 1)
cli_test(blur_corners EXIT 0
         EXPECT --stdout "^corners of padded-16x16"
                --stdout "^  bottom-right [(]34, 20[)]  [(]16, 16[)]"
         ARGS blur ${data}/gray8.png --launch padded-16x16 --corners --repeat 1)
cli_test(blur_color_out EXIT 0
         EXPECT --stdout "^note: color image: blurred on its luma" --exists @W@/b.png
         ARGS blur ${data}/rgb8.png --radius 2 --launch cl12-null --repeat 1 --out @W@/b.png)
cli_test(blur_empty_interior EXIT 0 EXPECT --stdout "^cl12-null .* not applicable"
         ARGS blur ${data}/gray8.png --radius 20 --launch cl12-null --repeat 1)
cli_test(blur_bad_radius EXIT 2 EXPECT --stderr "--radius: '0' is out of range|--radius: 0 is out of range"
         ARGS blur ${data}/gray8.png --radius 0)
cli_test(blur_bad_launch EXIT 2 EXPECT --stderr "--launch: 'cl30' is not a launch"
         ARGS blur ${data}/gray8.png --launch cl30)
cli_test(blur_no_image EXIT 2 EXPECT --stderr "blur: which image" ARGS blur)
cli_test(blur_missing_image EXIT 3 EXPECT --stderr "nope[.]png: no such file"
         ARGS blur @W@/nope.png)
cli_test(blur_out_missing_folder EXIT 3 EXPECT --stderr "--out|nosuchfolder"
         --absent @W@/nosuchfolder/b.png
         ARGS blur ${data}/gray8.png --out @W@/nosuchfolder/b.png)
cli_test(blur_border_rgba EXIT 0
         EXPECT --stdout "^blur .*rgba8[.]png, 19 x 13, 4 channel[(]s[)], 8-bit, border reflect101"
                --stdout "^tiled +2 .*yes, byte for byte" --exists @W@/b.png
         ARGS blur ${data}/rgba8.png --border reflect101 --radius 2 --repeat 1 --out @W@/b.png)
cli_test(blur_border_gray16 EXIT 0 EXPECT --stdout "16-bit, border replicate"
         --stdout "^tiled +1 .*yes, byte for byte"
         ARGS blur ${data}/gray16.png --border replicate --repeat 1)
# The whole-image variants: every one at several radii (tiled only up to R = 3: "n/a" beyond),
# on a synthetic RGBA image, with the runs written as CSV and JSON.
cli_test(blur_variants_sweep EXIT 0
         EXPECT --stdout "^direct +1 .*yes, byte" --stdout "^tiled +3 .*yes, byte"
                --stdout "^sliding +9 .*yes, byte" --stdout "^tiled +9 +not applicable: --variant: tiled"
                --stdout "% copy" --exists @W@/runs.csv --exists @W@/runs.json
                --check "${check} json @W@/runs.json --nonempty runs"
         ARGS blur --synthetic random --width 67 --height 23 --channels 4 --variant all
              --radius 1,3,9 --border interior --repeat 1 --csv @W@/runs.csv --json @W@/runs.json)
cli_test(blur_compare_opencv EXIT 0 EXPECT --stdout "x cv::blur" --stdout "^cv::blur [(]host"
         ARGS blur ${data}/rgb8.png --variant tiled --repeat 2 --compare-opencv)
cli_test(blur_compare_opencv_interior EXIT 2 EXPECT --stderr "OpenCV has no interior-only border"
         ARGS blur ${data}/rgb8.png --border interior --repeat 1 --compare-opencv)
cli_test(blur_synthetic_launches EXIT 0 EXPECT --stdout "^padded-16x16 .* verified .* yes"
         --stdout "^cl12-16x16 .* unsupported" --stdout "^    refused, as OpenCL 1.2 requires"
         ARGS blur --synthetic gradient --width 45 --height 30 --repeat 1)
cli_test(blur_tiled_large_radius EXIT 2 EXPECT --stderr "tiled is built for radii up to 3"
         ARGS blur --synthetic random --width 20 --height 20 --variant tiled --radius 5)
# A register limit is NVIDIA's compiler option: unsupported on PoCL (the suite's device, as in
# every case here), said so in the row, exit 4; 0 (the compiler's choice) runs anywhere.
cli_test(blur_registers_unsupported EXIT 4
         EXPECT --stdout "^tiled +1 +unsupported: a register limit [(]--registers[)] is NVIDIA's"
                --stderr "no variant could run"
         ARGS blur --synthetic random --width 64 --height 32 --variant tiled --registers 64)
cli_test(blur_registers_none EXIT 0 EXPECT --stdout "^tiled +1 .*yes, byte for byte"
         ARGS blur --synthetic random --width 64 --height 32 --variant tiled --registers 0
              --repeat 1)
cli_test(blur_registers_out_of_range EXIT 2 EXPECT --stderr "--registers: .*256.* out of range"
         ARGS blur --synthetic random --width 64 --height 32 --registers 256)
cli_test(blur_synthetic_needs_size EXIT 2 EXPECT --stderr "needs --width and --height"
         ARGS blur --synthetic random --width 20)
cli_test(blur_image_and_synthetic EXIT 2 EXPECT --stderr "an image or --synthetic, not both"
         ARGS blur ${data}/gray8.png --synthetic random --width 4 --height 4)
cli_test(blur_radius_list_needs_variant EXIT 2 EXPECT --stderr "a list of radii needs"
         ARGS blur ${data}/gray8.png --radius 1,2)
cli_test(blur_json_missing_folder EXIT 3 EXPECT --stderr "no' does not exist" --absent @W@/no/r.json
         ARGS blur --synthetic random --width 8 --height 8 --variant direct --json @W@/no/r.json)
cli_test(blur_bad_border EXIT 2 EXPECT --stderr "--border: 'wrap' is not a border mode"
         ARGS blur ${data}/gray8.png --border wrap)

# Direct reads (2R + 1)^2 pixels an output: past its radius it is not applicable (one row that
# says so, at once), and the other variants still run; asked alone, it is a usage error.
cli_test(blur_direct_radius_beyond EXIT 2
         EXPECT --stderr "^histlab-cli: --variant: direct reads [(]2R [+] 1[)]\\^2 pixels for each output: it takes radii up to 64 [(]this one is 65[)]; use sliding$"
         ARGS blur --synthetic random --width 40 --height 30 --variant direct --radius 65)
cli_test(blur_all_variants_large_radius EXIT 0
         EXPECT --stdout "^direct +1024 +not applicable: --variant: direct reads"
                --stdout "^tiled +1024 +not applicable: .*; use sliding$"
                --stdout "^sliding +1024 .*yes, byte for byte"
         ARGS blur --synthetic random --width 120 --height 100 --repeat 1 --variant all --radius 1024)
