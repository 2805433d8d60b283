# histlab-cli dashboard: its cases, each with the exit code and messages --help documents.
# --- dashboard: every registered pipeline on PoCL at 64 KiB -----------------------------------
cli_test(dashboard_json EXIT 0
         EXPECT --check "${check} json @W@/d.json --key histlab_dashboard=1 --key repeats=1 --nonempty devices --nonempty results"
                --check "${check} sweepcsv @W@/d.csv --rows 14 --columns date,device,driver,pipeline,variant,gbps,ceiling,ceiling_gbps,percent_of_ceiling,status --filled gbps --filled ceiling_gbps"
                --check "test $(grep -c ',verified,' @W@/d.csv) -eq 12"
                --stdout "^  joint +[0-9.]+ +read-only [0-9.]+ +[0-9.]+  verified"
                --stdout "^device 0: .* 64 KiB per input"
                --stdout "^  histogram256 +[0-9.]+ +read-only [0-9.]+ +[0-9.]+  verified"
                --stderr "^[[]6[]] .*: equalize: "
         ARGS dashboard --size 64K --repeat 1 --json @W@/d.json --csv @W@/d.csv)
# No result beats its ceiling by more than its stated noise: each ceiling is timed run for run
# with the pipelines, each round the fastest of its family of kernels, so a pipeline above it
# would mean the ceiling is wrong. 64 MiB, more than this CPU's caches hold; a pipeline above is
# run again (twice at most) and fails if it is above every time. It runs alone so that no other
# test's load is its own.
add_test(NAME cli.dashboard_within_ceilings
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/within_ceilings.py
                 $<TARGET_FILE:histlab-cli> ${CMAKE_CURRENT_BINARY_DIR}/work/dashboard_within_ceilings
                 --size 64M --repeat 7 --reruns 2)
set_tests_properties(cli.dashboard_within_ceilings PROPERTIES LABELS cli TIMEOUT 300 RUN_SERIAL TRUE)
cli_test(dashboard_pipeline_csv_stdout EXIT 0
         EXPECT --no-stdout "^device " --check "test $(grep -c ',scan,' @STDOUT@) -eq 1"
         ARGS dashboard --device portable --pipeline scan --size 16K --repeat 1 --csv -)
cli_test(dashboard_list EXIT 0 EXPECT --stdout "^read-only " --stdout "^histogram256 +the 256-bin"
         ARGS dashboard --list)
cli_test(dashboard_unknown_pipeline EXIT 2
         EXPECT --stderr "--pipeline: unknown pipeline 'nope' [(]read-only, copy, histogram256"
                --absent @W@/d.json
         ARGS dashboard --pipeline scan,nope --json @W@/d.json)
cli_test(dashboard_bad_size EXIT 2 EXPECT --stderr "--size: 'lots' is not a size"
         ARGS dashboard --size lots)
# A run saved by an older version (tests/data/README.md) is still a baseline: its only device's
# results stand next to this device's.
cli_test(dashboard_baseline_saved_before EXIT 0
         EXPECT --stdout "^  scan .*  verified +8[.]71 +x[0-9.]+  lookback"
         ARGS dashboard --pipeline scan --size 16K --repeat 1
              --baseline ${data}/dashboard-8cf2e84.json)
cli_test(dashboard_missing_baseline EXIT 3 EXPECT --stderr "nothere[.]json: no such file"
         --absent @W@/d.json
         ARGS dashboard --baseline @W@/nothere.json --json @W@/d.json)
# The committed GPU frontier (scripts/gpu-frontier.sh) is a baseline the next run is compared
# with: its 1 GiB run opens, and its only device's results stand next to PoCL's.
cli_test(dashboard_baseline_frontier EXIT 0
         EXPECT --stdout "^  scan .*  verified +2,?49[0-9] +x[0-9.]+  lookback"
         ARGS dashboard --pipeline scan --size 16K --repeat 1 --baseline
              ${PROJECT_SOURCE_DIR}/bench/results/gpu-h100-frontier-2026-11-27b/run1/dashboard_1g.json)
# The README's performance tables are generated (scripts/frontier-table.py) from the result
# folders its frontier block names: a hand edit, or results changed without the README, fail.
add_test(NAME cli.readme_frontier_tables_generated
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/frontier-table.py
                 --check ${PROJECT_SOURCE_DIR}/README.md)
set_tests_properties(cli.readme_frontier_tables_generated PROPERTIES LABELS cli)
