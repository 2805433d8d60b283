# histlab-cli scan: its cases, each with the exit code and messages --help documents.
# --- scan (per-segment and whole-array prefix sums) -------------------------------------------
# 200003 values: three whole segments of 65,536 and a tail, a prime count (no uint4 tail of 0).
cli_test(scan_verified EXIT 0
         EXPECT --stdout "^scan 200003 uint32 values"
                --stdout "^copy kernel, same buffer: [0-9.]+ GB/s"
                --stdout "^naive +256 +- +- +200003 .* verified$"
                --stdout "^blelloch +256 +- +- +200003 .* verified$"
                --stdout "^reduce-then-scan +[0-9]+ +[0-9]+ +no +200003 .* verified$"
                --stdout "^lookback +[0-9]+ +[0-9]+ +no +200003 .* verified$"
         ARGS scan --count 200003 --repeat 1)
cli_test(scan_inclusive_wraps EXIT 0
         EXPECT --stdout "max, inclusive" --stdout "^reduce-then-scan .* verified$"
                --stdout "^lookback .* verified$"
         ARGS scan --variant reduce-then-scan,lookback --count 70001 --dist max --inclusive
              --repeat 1)
# --wg all: every power of two from 16 to the device's maximum (PoCL: 4096), one row each.
cli_test(scan_wg_sweep EXIT 0
         EXPECT --stdout "^naive +16 +- +- +70000 .* verified$" --stdout "^naive +32 " --stdout "^naive +1024 "
                --stdout "^lookback +[0-9]+ +[0-9]+ +no +70000 .* verified$"
                --check "test $(grep -c '^naive,.*,verified,' @W@/s.csv) -ge 7"
                --check "grep -qx 'variant,wg,elements,inclusive,median_ms,min_ms,gbps,percent_of_copy,status,detail,vpt,warp' @W@/s.csv"
         ARGS scan --variant naive,lookback --wg all --count 70000 --repeat 1 --csv @W@/s.csv)
cli_test(scan_json EXIT 0
         EXPECT --check "${check} json @W@/s.json --key elements=1000 --key distribution=\\\"ones\\\" --nonempty points"
         ARGS scan --variant naive,lookback --count 1000 --dist ones --repeat 1 --json @W@/s.json)
cli_test(scan_count_zero EXIT 0
         EXPECT --stdout "^scan 0 uint32 values" --stdout "^naive .* verified: empty input: nothing to launch$"
                --stdout "^lookback .* verified: empty input"
         ARGS scan --count 0)
# PoCL 3.1 has no work_group_scan_exclusive_add: wgscan is reported, not replaced, and a run
# where nothing else was asked for has nothing that ran (exit 4).
cli_test(scan_wgscan_unsupported_on_pocl EXIT 0
         EXPECT --stdout "^wgscan .* unsupported: work_group_scan_exclusive_add does not work"
                --stdout "^naive .* verified$"
         ARGS scan --device portable --variant wgscan,naive --count 1000 --repeat 1)
cli_test(scan_wgscan_alone_on_pocl EXIT 4
         EXPECT --stdout "^wgscan .* unsupported" --stderr "no scan variant could run"
         ARGS scan --device portable --variant wgscan --count 1000 --repeat 1)
cli_test(scan_unknown_variant EXIT 2 EXPECT --stderr "--variant: 'hillis' is not a scan variant"
         ARGS scan --variant hillis)
cli_test(scan_wg_7 EXIT 2 EXPECT --stderr "--wg: 7 is not a work-group size"
         ARGS scan --wg 7 --count 1000)
cli_test(scan_vpt_3 EXIT 2 EXPECT --stderr "--vpt: 3 vectors per work-item: a power of two"
         ARGS scan --variant lookback --vpt 3 --count 1000)
cli_test(scan_vpt_segmented EXIT 2 EXPECT --stderr "--vpt: sets the whole-array scans"
         ARGS scan --variant naive --vpt 4 --count 1000)
cli_test(scan_vpt_2 EXIT 0 EXPECT --stdout "^lookback +64 +2 +no +100003 .*verified"
         ARGS scan --variant lookback --wg 64 --vpt 2 --count 100003 --repeat 1)
# Warp shuffles are NVIDIA's inline PTX: asked for on PoCL they are reported, not replaced (the
# run has nothing that ran: exit 4); they shape only the whole-array scans.
cli_test(scan_warp_unsupported_on_pocl EXIT 4
         EXPECT --stdout "^lookback .* unsupported: warp shuffles are NVIDIA's inline PTX; .* is not a GPU of NVIDIA's OpenCL$"
                --stderr "no scan variant could run"
         ARGS scan --device portable --variant lookback --warp 1 --count 1000 --repeat 1)
cli_test(scan_warp_off EXIT 0 EXPECT --stdout "^lookback +64 +16 +no +1000 .*verified"
         --check "grep -q '^lookback,64,1000,.*,verified,,16,0$' @W@/s.csv"
         --check "grep -Eq 'warp.: *false' @W@/s.json"
         ARGS scan --device portable --variant lookback --warp 0 --count 1000 --repeat 1
              --csv @W@/s.csv --json @W@/s.json)
cli_test(scan_warp_segmented EXIT 2 EXPECT --stderr "--warp: sets the whole-array scans"
         ARGS scan --variant naive --warp 1 --count 1000)
cli_test(scan_warp_2 EXIT 2 EXPECT --stderr "--warp: "
         ARGS scan --variant lookback --warp 2 --count 1000)
cli_test(scan_bad_count EXIT 2 EXPECT --stderr "--count: 'many' is not a whole number"
         ARGS scan --count many)
cli_test(scan_size_and_count EXIT 2 EXPECT --stderr "either --size MIB or --count N"
         ARGS scan --size 1 --count 10)
cli_test(scan_bad_dist EXIT 2 EXPECT --stderr "--dist: 'gauss' is not a scan input"
         ARGS scan --dist gauss)
cli_test(scan_csv_missing_folder EXIT 3 EXPECT --stderr "--csv|nosuchfolder"
         --absent @W@/nosuchfolder/s.csv
         ARGS scan --count 1000 --csv @W@/nosuchfolder/s.csv)
cli_test(scan_json_missing_folder EXIT 3 EXPECT --stderr "--json|nosuchfolder"
         --absent @W@/s.csv --absent @W@/nosuchfolder/s.json
         ARGS scan --count 1000 --csv @W@/s.csv --json @W@/nosuchfolder/s.json)
cli_test(equalize_synthetic_rgba16 EXIT 0
         EXPECT --stdout "synthetic skewed 53x31, 53 x 31, 4 channel[(]s[)], 16-bit, 65536 bins of luma"
                --stdout "^verified: yes"
         ARGS equalize --synthetic skewed --width 53 --height 31 --channels 4 --depth 16 --repeat 1)

# A count whose run would not fit the host memory is refused before anything is made: the values,
# the result, the CPU reference and a CPU device's buffers (24 bytes a value on PoCL), against half
# of what the job may use (here a 4 GB ulimit -v, as a batch system's limit would be).
cli_test(scan_count_beyond_memory EXIT 2
         EXPECT --memory 4000000
                --stderr "^histlab-cli: --count: 1500000000 values need 33[.]5 GiB of host memory: more than half of (the memory ulimit -v allows|this machine's memory) [(]"
         ARGS scan --device cpu --count 1500000000 --repeat 1)
