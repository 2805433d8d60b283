# histlab-cli largebin: its cases, each with the exit code and messages --help documents.
# Every method on awkward synthetic sizes, verified slot by slot.
set(lbRow "+[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +wg ")
cli_test(largebin_all_methods EXIT 0
         EXPECT --stdout "^largebin synthetic random u16, 100003 samples of u16"
                --stdout "^read-only kernel, same buffer: [0-9.]+ GB/s"
                --stdout "^65536 bins over [[]0, 65536[]]: binned 100003, below 0, above 0, NaN 0$"
                --stdout "^global +65536 ${lbRow}.* verified$" --stdout "^local +65536 ${lbRow}.* verified$"
                --stdout "^multipass +65536 ${lbRow}.* verified$" --stdout "^local16 +65536 ${lbRow}.* verified$"
                --stdout "^private +65536 ${lbRow}.* verified$" --stdout "^tagged +65536 ${lbRow}.* verified$"
                --stdout "^private +257 ${lbRow}.* verified$"
         ARGS largebin --count 100003 --method all --bins 65536,257 --repeat 1)
# Floats with a range that leaves values out on both sides, skewed data.
cli_test(largebin_float_range EXIT 0
         EXPECT --stdout "^1000 bins over [[]0.25, 0.75[]]: binned [0-9]+, below [1-9][0-9]*, above [1-9][0-9]*, NaN 0$"
                --stdout "^private +1000 .* verified$" --stdout "^global +1000 .* verified$"
         ARGS largebin --type f32 --data skewed --size 0.5 --bins 1000 --range 0.25,0.75
              --method private,global --repeat 1)
# A 16-bit image whose values fit in a byte: the exact histogram has 256 bins of 1 each (the
# high byte would have put all 256 pixels in bin 0).
cli_test(largebin_low16_image EXIT 0
         EXPECT --stdout "^largebin .*low16[.]pgm, 256 samples of u16"
                --stdout "^65536 bins over [[]0, 65536[]]: binned 256, below 0"
                --check "test $(grep -c ',1$' @W@/counts.csv) -eq 256"
                --check "test $(grep -c ',0$' @W@/counts.csv) -eq 65280"
                --check "grep -qx 'bin,lo,hi,count' @W@/counts.csv"
                --check "grep -qx '255,255,256,1' @W@/counts.csv"
                --check "${check} json @W@/l.json --key samples=256 --nonempty points"
                --check "grep -q '^private,65536,256,512,.*,verified,$' @W@/l.csv"
         ARGS largebin ${data}/low16.pgm --repeat 1 --counts @W@/counts.csv
              --json @W@/l.json --csv @W@/l.csv)
cli_test(largebin_channel EXIT 0 EXPECT --stdout "^largebin .*rgb8[.]png [(]g[)], 1189 samples of u8"
         --stdout "^256 bins over [[]0, 256[]]: binned 1189"
         ARGS largebin ${data}/rgb8.png --channel g --repeat 1)
cli_test(largebin_bins_zero EXIT 2 EXPECT --stderr "--bins: 0 is out of range [(]1[.][.]65536[)]" ARGS largebin --bins 0)
cli_test(largebin_bins_too_many EXIT 2 EXPECT --stderr "--bins: 65537 is out of range"
         ARGS largebin --bins 65537)
cli_test(largebin_bad_range EXIT 2 EXPECT --stderr "--range: '5,1': LO must be below HI"
         ARGS largebin --range 5,1)
cli_test(largebin_integer_range_fraction EXIT 2
         EXPECT --stderr "--range: for u16 samples LO and HI are whole numbers"
         ARGS largebin --range 0.5,100 --size 0.01)
cli_test(largebin_bad_method EXIT 2 EXPECT --stderr "--method: 'fast' is not one of"
         ARGS largebin --method fast)
cli_test(largebin_bad_channel EXIT 2 EXPECT --stderr "--channel: .*gray8[.]png has no channel 'r'"
         ARGS largebin ${data}/gray8.png --channel r)
cli_test(largebin_size_and_count EXIT 2 EXPECT --stderr "largebin: give the size with either"
         ARGS largebin --size 1 --count 5)
cli_test(largebin_size_with_image EXIT 2 EXPECT --stderr "--size: sizes synthetic data"
         ARGS largebin ${data}/gray8.png --size 4)
cli_test(largebin_missing_file EXIT 3 EXPECT --stderr "missing[.]png: no such file"
         --absent @W@/l.csv ARGS largebin missing.png --csv @W@/l.csv)
cli_test(largebin_counts_missing_folder EXIT 3 EXPECT --stderr "--counts|nosuchfolder"
         ARGS largebin --size 0.01 --counts @W@/nosuchfolder/c.csv)
# Refused before anything is allocated: by the device's largest buffer or by the host's memory,
# whichever is smaller on the machine that runs the test.
cli_test(largebin_absurd_count EXIT 2 EXPECT
         --stderr "--count: .*(bytes (a plane exceed one buffer|of synthetic samples exceed)|of synthetic data: more than a quarter of this machine's memory)"
         ARGS largebin --count 4000000000)

# Each bound fits a float but HI - LO does not: refused, never every sample in one bin.
cli_test(largebin_float_range_span_overflows EXIT 2
         EXPECT --stderr "^histlab-cli: --range: HI - LO = 3[.]6e[+]38 is wider than a float holds"
         ARGS largebin --device cpu --type f32 --count 1000 --repeat 1 --range=-1.8e38,1.8e38)
cli_test(largebin_float_range_widest_span EXIT 0
         EXPECT --check "awk -F, 'NR > 1 && $4 > 0 {print $1}' @W@/c.csv | grep -qx 128"
         ARGS largebin --device cpu --type f32 --count 1000 --repeat 1 --quiet
              --range=-1.7e38,1.7e38 --counts @W@/c.csv)
# --counts edges are true to what is counted: over [0, 220] in 100 bins the edges are k * 11/5,
# and 55 (= 25 * 2.2, in bin 25 by the exact rule) is bin 25's first value, not NumPy's double
# edge 55.00000000000001; the last bin holds 220 itself.
cli_test(largebin_counts_integer_edges EXIT 0
         EXPECT --check "grep -q '^24,53,55,' @W@/c.csv" --check "grep -q '^25,55,58,' @W@/c.csv"
                --check "grep -q '^99,218,220,' @W@/c.csv" --check "! grep -q '[.]' @W@/c.csv"
         ARGS largebin --type u8 --count 4096 --bins 100 --range 0,220 --repeat 1 --quiet
              --counts @W@/c.csv)
# The help names every sample type an image may have, and NumPy's float32 path for floats.
cli_test(largebin_help_floats EXIT 0
         EXPECT --stdout "8-bit, 16-bit or 32-bit float" --stdout "NumPy's float32"
                --no-stdout "against NumPy.s double edges"
         ARGS largebin --help)
