# histlab-cli reverse: its cases, each with the exit code and messages --help documents.
# --- memory lab: reversal, ceilings per width, transfers --------------------------------------
set(reverseKernels char1 char16 char16_swizzle uint16_as_char4 uint4 uint4x4 uint4_serial)
set(rowRe "+[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +")
# 4099 bytes: a 3-byte tail after whole 16-byte vectors, 3 after whole 64-byte ones.
set(reverseRows)
foreach(k ${reverseKernels})
    list(APPEND reverseRows --stdout "^${k} ${rowRe}4099  verified$")
endforeach()
cli_test(reverse_all_kernels EXIT 0
         EXPECT --stdout "^reverse random bytes [(]seed 1[)], 4099 bytes$" --stdout "^device [0-9]+: "
                --stdout "^copy kernel, same buffer: [0-9.]+ GB/s" --stdout "^best: "
                ${reverseRows}
         ARGS reverse --size 4099 --repeat 1)
# The reference text's command line, on a file of random bytes.
cli_test(reverse_reference_command_line EXIT 0
         EXPECT --setup "head -c 100003 /dev/urandom > @W@/random.bin"
                --stdout "^reverse .*random[.]bin, 100003 bytes"
                --stdout "^char16_swizzle ${rowRe}100003  verified$"
                --stdout "^timing char1 [(]reverse_char1, .*[)], ms:( [0-9.]+){3}$"
         ARGS reverse --input @W@/random.bin --timing --repeat 3 --verify)
cli_test(reverse_one_byte EXIT 0 EXPECT --stdout "^uint16_as_char4 ${rowRe}1  verified$"
         --no-stdout "^copy kernel" ARGS reverse --size 1 --kernel uint16_as_char4,char1 --repeat 1)
cli_test(reverse_csv_json EXIT 0
         EXPECT --check "${check} json @W@/r.json --key bytes=65539 --nonempty results --nonempty copy"
                --check "${check} sweepcsv @W@/r.csv --rows 2 --columns variant,kernel,bytes,gbps,percent_of_copy,correct_bytes,status --filled correct_bytes"
                --check "grep -q '^uint4x4,reverse_uint4x4,65539,.*,65539,verified,$' @W@/r.csv"
         ARGS reverse --size 65539 --kernel uint4,uint4x4 --repeat 1 --quiet
              --csv @W@/r.csv --json @W@/r.json)
# A uint4 kernel that forgets to swap the bytes of its words: a mismatch with its count, exit 1,
# the files still written.
cli_test(reverse_mismatch EXIT 1
         EXPECT --setup "mkdir -p @W@/k && sed 's/swap_bytes4(LOAD_UINT4(i)[.]wzyx)/LOAD_UINT4(i)/' '${PROJECT_SOURCE_DIR}/kernels/reverse.cl' > @W@/k/reverse.cl && ! cmp -s '${PROJECT_SOURCE_DIR}/kernels/reverse.cl' @W@/k/reverse.cl"
                --stdout "^uint4 ${rowRe}[0-9]+  mismatch: byte [0-9]+: device 0x[0-9a-f]+, CPU reference 0x[0-9a-f]+ [(][0-9]+ of 4099 correct[)]$"
                --stdout "^char16 ${rowRe}4099  verified$"
                --stderr "verification failed: 2 kernel[(]s[)]"
                --check "${check} json @W@/r.json --nonempty results"
         ARGS --kernel-dir @W@/k reverse --size 4099 --repeat 1 --json @W@/r.json)
cli_test(reverse_missing_input EXIT 3 EXPECT --stderr "nope[.]bin: no such file" --absent @W@/r.csv
         ARGS reverse --input @W@/nope.bin --csv @W@/r.csv)
cli_test(reverse_empty_input EXIT 3
         EXPECT --setup "touch @W@/empty.bin" --stderr "empty[.]bin: file is empty"
                --absent @W@/r.json
         ARGS reverse --input @W@/empty.bin --json @W@/r.json)
cli_test(reverse_folder_input EXIT 3 EXPECT --stderr "is a folder, not a file"
         ARGS reverse --input @W@)
cli_test(reverse_size_zero EXIT 2 EXPECT --stderr "^histlab-cli: --size: 0 bytes: nothing to reverse$"
         ARGS reverse --size 0)
cli_test(reverse_bad_size EXIT 2 EXPECT --stderr "--size: '12X' has an unknown unit"
         ARGS reverse --size 12X)
cli_test(reverse_size_not_a_number EXIT 2 EXPECT --stderr "--size: 'lots' is not a size"
         ARGS reverse --size lots)
cli_test(reverse_size_too_large EXIT 2 EXPECT --stderr "--size: .* more than the reversal takes"
         ARGS reverse --size 1T)
cli_test(reverse_input_and_size EXIT 2 EXPECT --stderr "either --input FILE or --size BYTES"
         ARGS reverse --input x.bin --size 16)
cli_test(reverse_unknown_kernel EXIT 2 EXPECT --stderr "--kernel: 'char8' is not a reversal kernel"
         ARGS reverse --kernel char8)
cli_test(reverse_csv_missing_folder EXIT 3 EXPECT --stderr "--csv|nosuchfolder"
         --absent @W@/nosuchfolder/r.csv ARGS reverse --size 100 --csv @W@/nosuchfolder/r.csv)

# The reversal's largest size still has to fit the job: the input, the result, the reference
# and a CPU device's two buffers, against half of a 4 GB ulimit -v.
cli_test(reverse_size_beyond_memory EXIT 2
         EXPECT --memory 4000000
                --stderr "^histlab-cli: --size: 2147483648 bytes need 10[.]0 GiB of host memory: more than half of (the memory ulimit -v allows|this machine's memory) [(]"
         ARGS reverse --device cpu --size 2147483648 --repeat 1)
