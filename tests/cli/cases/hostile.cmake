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
# 4,096 work-items x 4 copies x 768 bins (48 MiB) are refused by name unless the stack holds
# 64 MiB (before, PoCL crashed from 8 MiB of them at its default stack of 8 MiB).
cli_test(cpu_variant_wg_beyond_the_stack EXIT 2
         EXPECT --stderr "^histlab-cli: --wg: 4096 work-items of the cpu variant keep 48 MiB of private histograms .*thread's stack"
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
