# histlab-cli register: its cases, each with the exit code and messages --help documents.
# A synthetic pair made at a known rigid transform, MOVING inverted (correlation fails there, MI
# does not): found within 0.1 px and 0.05 degrees, every level verified against the CPU
# reference; the CSV row, the curve and the JSON written.
cli_test(register_synthetic_rigid EXIT 0
         EXPECT --stdout "^register: synthetic 192x160 [(]FIXED[)] and synthetic 192x160 moved .*inverted [(]MOVING[)]$"
                --stdout "^  transform: shift [(]-?[0-9.]+, -?[0-9.]+[)] px, angle -?[0-9.]+ deg$"
                --stdout "^  MI [0-9.]+ -> [0-9.]+ bits, NMI "
                --stdout "^  [0-9]+ evaluations in [0-9.]+ s: [0-9]+ a second$"
                --stdout "^ +0 +192 x 160 .* verified$"
                --check "${check} register @W@/r.json --truth 3.3,-2.6,4.2"
                --check "head -1 @W@/r.csv | grep -q '^fixed,moving,transform,metric,tx,ty,angle_deg,m00,'"
                --check "test $(wc -l < @W@/s.csv) -gt 5"
                --check "${check} json @W@/r.json --key transform_kind='\"rigid\"' --nonempty steps --nonempty per_level"
         ARGS register --synthetic 192x160 --truth 3.3,-2.6,4.2 --max-shift 10 --max-angle 8
              --json @W@/r.json --csv @W@/r.csv --steps-csv @W@/s.csv)
# A translation by NMI, MOVING not inverted.
cli_test(register_synthetic_translation_nmi EXIT 0
         EXPECT --stdout "^  transform: shift [(]-?[0-9.]+, -?[0-9.]+[)] px$"
                --check "${check} register @W@/r.json --truth=-5.45,1.8,0"
         ARGS register --synthetic 160 --truth -5.45,1.8 --no-invert --transform translation
              --metric nmi --max-shift 10 --json @W@/r.json)
# An image against itself: the identity; the registered image is written at FIXED's size.
cli_test(register_identical EXIT 0
         EXPECT --check "${check} register @W@/r.json --truth 0,0,0 --px 0.05 --deg 0.05"
                --check "test -s @W@/out.png"
         ARGS register ${data}/rgb8.png ${data}/rgb8.png --json @W@/r.json --out @W@/out.png --quiet)
# A translation keeps --initial's angle: MOVING made at 2 degrees, searched by translation from
# there.
cli_test(register_translation_keeps_initial_angle EXIT 0
         EXPECT --check "${check} register @W@/r.json --truth 1.5,-1,2"
         ARGS register --synthetic 160 --truth 1.5,-1,2 --transform translation --initial 0,0,2
              --max-shift 4 --json @W@/r.json --quiet)
# Images of different sizes are allowed: MOVING is resampled into FIXED's grid.
cli_test(register_different_sizes EXIT 0
         EXPECT --stdout "^  transform: shift " --stdout "^ +0 +37 x 23 .* verified$"
         ARGS register ${data}/gray8.png ${data}/rgb8.png --max-shift 4 --max-angle 4)
# A float image with NaN and infinities (left out and clamped), against itself.
cli_test(register_float_nan EXIT 0 EXPECT --stdout "^ +0 +6 x 3 .* verified$"
         ARGS register ${data}/float_edges.tiff ${data}/float_edges.tiff --transform translation
              --max-shift 1 --min-overlap 0.5)
# --- what has no answer ---------------------------------------------------------------------
cli_test(register_constant EXIT 3
         EXPECT --setup [=[python3 -c "open('@W@/flat.pgm', 'wb').write(b'P5 16 16 255 ' + bytes([9]) * 256)"]=]
                --stderr "flat[.]pgm: FIXED is constant [(]every pixel 9[)]: its entropy is 0"
         ARGS register @W@/flat.pgm ${data}/gray8.png)
cli_test(register_empty_mask EXIT 3
         EXPECT --setup [=[python3 -c "open('@W@/zero.pgm', 'wb').write(b'P5 41 29 255 ' + bytes(41 * 29))"]=]
                --stderr "zero[.]pgm: leaves no pixel of FIXED to count"
         ARGS register ${data}/rgb8.png ${data}/rgb8.png --mask @W@/zero.pgm)
cli_test(register_mask_wrong_size EXIT 3
         EXPECT --stderr "gray8[.]png: a mask is one channel of FIXED's size [(]41 x 29[)]"
         ARGS register ${data}/rgb8.png ${data}/rgb8.png --mask ${data}/gray8.png)
# A start with no overlap and no grid: no transform has an MI; the search says so (exit 4).
cli_test(register_no_overlap EXIT 4
         EXPECT --stderr "register: level 0: no transform left 25 % of FIXED's pixels inside MOVING"
         ARGS register ${data}/rgb8.png ${data}/rgb8.png --initial 500,0 --max-shift 0
              --max-angle 0 --max-evaluations 30)
cli_test(register_pyramid_too_deep EXIT 2
         EXPECT --stderr "--pyramid: 3 levels: level 1 would be smaller than 16 x 16 pixels"
         ARGS register ${data}/rgb8.png ${data}/rgb8.png --pyramid 3)
cli_test(register_one_image EXIT 2 EXPECT --stderr "register: give FIXED and MOVING"
         ARGS register ${data}/rgb8.png)
cli_test(register_bad_transform EXIT 2
         EXPECT --stderr "--transform: 'affine' is not translation or rigid"
         ARGS register ${data}/rgb8.png ${data}/rgb8.png --transform affine)
cli_test(register_bad_initial EXIT 2
         EXPECT --stderr "--initial: 'x' is not a number"
         ARGS register ${data}/rgb8.png ${data}/rgb8.png --initial 1,x)
cli_test(register_bad_overlap EXIT 2
         EXPECT --stderr "--min-overlap: '0' is not a share from 0.01 to 1"
         ARGS register ${data}/rgb8.png ${data}/rgb8.png --min-overlap 0)
cli_test(register_one_bin EXIT 2 EXPECT --stderr "--bins: at least 2 bins per axis"
         ARGS register ${data}/rgb8.png ${data}/rgb8.png --bins 1)
