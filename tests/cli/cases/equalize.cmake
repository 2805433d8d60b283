# histlab-cli equalize: its cases, each with the exit code and messages --help documents.
# --- equalize (cumulative histograms and equalization) ----------------------------------------
cli_test(equalize_gray8_out EXIT 0
         EXPECT --stdout "^equalize .*gray8[.]png, 37 x 23, 1 channel[(]s[)], 8-bit, 256 bins of gray"
                --stdout "^device [0-9]+: " --stdout "^histogram +[0-9.]+ +[0-9.]+$"
                --stdout "^cdf " --stdout "^lut " --stdout "^apply .* GB/s [(]bytes read [+] written[)]"
                --stdout "^total " --stdout "^verified: yes, byte for byte" --exists @W@/e.png
         ARGS equalize ${data}/gray8.png --repeat 1 --out @W@/e.png)
cli_test(equalize_rgba8 EXIT 0
         EXPECT --stdout "19 x 13, 4 channel[(]s[)], 8-bit, 256 bins of luma"
                --stdout "^verified: yes" --exists @W@/e.png
         ARGS equalize ${data}/rgba8.png --repeat 2 --out @W@/e.png)
cli_test(equalize_jpeg EXIT 0 EXPECT --stdout "^verified: yes" ARGS equalize ${data}/rgb.jpg --repeat 1)
cli_test(equalize_gray16_csv_stdout EXIT 0
         EXPECT --stdout "^bin,count,cdf$" --stdout "^65535,[0-9]+,527$" --no-stdout "^verified"
         ARGS equalize ${data}/gray16.png --repeat 1 --csv -)
cli_test(equalize_csv_file EXIT 0
         EXPECT --exists @W@/h.csv --stdout "^verified: yes"
                --check "grep -qx 'bin,count,cdf' @W@/h.csv && grep -qx '255,[0-9]*,1189' @W@/h.csv"
         ARGS equalize ${data}/rgb8.png --repeat 1 --csv @W@/h.csv)
cli_test(equalize_quiet EXIT 0 EXPECT --no-stdout "." --exists @W@/e.png
         ARGS equalize ${data}/gray8.png --repeat 1 --quiet --out @W@/e.png)
cli_test(equalize_not_an_image EXIT 3 EXPECT --stderr "not_an_image[.]png" --absent @W@/e.png
         ARGS equalize ${data}/not_an_image.png --out @W@/e.png)
cli_test(equalize_empty_file EXIT 3 EXPECT --stderr "empty[.]png" ARGS equalize ${data}/empty.png)
cli_test(equalize_missing_image EXIT 3 EXPECT --stderr "nope[.]png: no such file"
         ARGS equalize @W@/nope.png)
cli_test(equalize_out_missing_folder EXIT 3 EXPECT --stderr "--out|nosuchfolder"
         --absent @W@/nosuchfolder/e.png
         ARGS equalize ${data}/gray8.png --out @W@/nosuchfolder/e.png)
cli_test(equalize_csv_missing_folder EXIT 3 EXPECT --stderr "--csv|nosuchfolder"
         --absent @W@/e.png --absent @W@/nosuchfolder/h.csv
         ARGS equalize ${data}/gray8.png --out @W@/e.png --csv @W@/nosuchfolder/h.csv)
cli_test(equalize_unknown_option EXIT 2 EXPECT --stderr "equalize: unknown option '--radius'"
         ARGS equalize ${data}/gray8.png --radius 2)
cli_test(equalize_no_image EXIT 2 EXPECT --stderr "equalize: which image" ARGS equalize)
cli_test(equalize_bad_repeat EXIT 2 EXPECT --stderr "--repeat: '0' is out of range|--repeat: 0 is out of range"
         ARGS equalize ${data}/gray8.png --repeat 0)

# An image that cannot be written leaves none of the run's text files beside it: images are
# written first.
cli_test(equalize_image_not_written_no_csv EXIT 3
         EXPECT --stderr "^histlab-cli: /dev/full: write failed [(]No space left on device[)]$"
                --absent @W@/e.csv
         ARGS equalize ${data}/gray8.png --out /dev/full --csv @W@/e.csv)
# --csv is the input's histogram (before equalization), as its help says.
cli_test(equalize_csv_help_is_the_inputs EXIT 0
         EXPECT --stdout "the input's histogram, before equalization"
         ARGS equalize --help)
