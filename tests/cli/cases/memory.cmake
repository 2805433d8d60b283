# histlab-cli memory: its cases, each with the exit code and messages --help documents.
# --- memory lab: reversal, ceilings per width, transfers --------------------------------------
cli_test(memory_all EXIT 0
         EXPECT --stdout "^bandwidth ceilings on 64 KiB of random bytes"
                --stdout "^uint16 +64 +[0-9.]+ +[0-9.]+  verified$"
                --stdout "^best width: read uint[0-9]* [(][0-9.]+ GB/s[)], copy uint"
                --stdout "^h2d-pinned +64 KiB +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+  verified$"
                --stdout "^d2d +16 KiB .*  verified$"
                --stdout "^pinned / pageable host->device at 64 KiB: x[0-9.]+"
                --stdout "^kernel launch latency [(]do_nothing, 1 work-item, median of 100[)]: "
                --check "${check} json @W@/m.json --nonempty ceilings --nonempty transfers --nonempty launch"
                --check "test $(grep -c '^transfer,.*,verified,' @W@/m.csv) -eq 25"
                --check "test $(grep -c '^ceiling,.*,verified,' @W@/m.csv) -eq 10"
         ARGS memory --max-size 64K --ceiling-size 64K --repeat 1 --json @W@/m.json
              --csv @W@/m.csv)
cli_test(memory_transfers_only EXIT 0
         EXPECT --no-stdout "^bandwidth ceilings" --stdout "^d2h-pageable +4 KiB .*verified$"
         ARGS memory --transfers --max-size 4K --repeat 1)
cli_test(memory_bad_max_size EXIT 2 EXPECT --stderr "--max-size: 'big' is not a size"
         ARGS memory --max-size big)
cli_test(memory_max_size_too_large EXIT 2 EXPECT --stderr "--max-size: .* do not fit one buffer"
         --absent @W@/m.json ARGS memory --max-size 1T --json @W@/m.json)
cli_test(memory_min_above_max EXIT 2 EXPECT --stderr "--min-size: .* above --max-size"
         ARGS memory --transfers --min-size 64K --max-size 4K)
cli_test(memory_unknown_option EXIT 2 EXPECT --stderr "memory: unknown option '--bogus'"
         ARGS memory --bogus)
cli_test(memory_json_missing_folder EXIT 3 EXPECT --stderr "--json|nosuchfolder"
         --absent @W@/nosuchfolder/m.json ARGS memory --json @W@/nosuchfolder/m.json)
