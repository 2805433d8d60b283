# histlab-cli sweep: its cases, each with the exit code and messages --help documents.
# --- sweep (experiments) ---------------------------------------------------------------------
# 64 KiB inputs and one timed run per point: the framework, not the figures.
set(sweepSmall --size 0.0625 --repeat 1 --max-repeat 1)
cli_test(sweep_atomics EXIT 0
         EXPECT --stdout "^sweep atomics, 0 MiB per input, 12 points [(]12 ran[)]"
                --stderr "^[[]1[]] random naive: .* GB/s, .* % of read-only, verified"
                --stderr "^[[]12[]] skewed cpu: "
                --check "${check} json @W@/a.json --nonempty points --nonempty devices --key histlab_experiment=1"
                --check "${check} sweepcsv @W@/a.csv --rows 12 --columns variant,banks,wg,groups_per_cu,read,load,merge,stage,gbps,percent_of_ceiling,status"
         ARGS sweep atomics ${sweepSmall} --json @W@/a.json --csv @W@/a.csv)
cli_test(sweep_stages_dist EXIT 0
         EXPECT --stdout "^  gradient auto read-only: .*, timed" --stdout "^  gradient reference [+]global merge: .*, verified"
         ARGS sweep stages --dist gradient ${sweepSmall})
cli_test(sweep_baseline EXIT 0
         EXPECT --setup "$<TARGET_FILE:histlab-cli> sweep atomics --dist uniform --size 0.0625 --repeat 1 --max-repeat 1 --json @W@/base.json --quiet"
                --stdout "^  uniform naive: .*[(]baseline .* GB/s, x[0-9.]+[)]"
                --check "${check} sweepcsv @W@/c.csv --rows 4 --columns baseline_device,baseline_gbps,ratio_to_baseline --filled ratio_to_baseline"
         ARGS sweep atomics --dist uniform ${sweepSmall} --baseline @W@/base.json --csv @W@/c.csv)
# A run saved by an older version (tests/data/README.md) is still a baseline.
cli_test(sweep_baseline_saved_before EXIT 0
         EXPECT --stdout "^  uniform naive: .*[(]baseline 0[.]20 GB/s, x[0-9.]+[)]"
         ARGS sweep atomics --dist uniform ${sweepSmall}
              --baseline ${data}/sweep-atomics-8cf2e84.json)
cli_test(sweep_image EXIT 0 EXPECT --stdout "^  image banked: .*, verified"
         ARGS sweep atomics --dist image --image ${data}/rgb8.png ${sweepSmall})
cli_test(sweep_unknown_experiment EXIT 2 EXPECT --stderr "sweep: unknown experiment 'bogus'"
         ARGS sweep bogus)
cli_test(sweep_no_experiment EXIT 2 EXPECT --stderr "sweep: which experiment" ARGS sweep)
cli_test(sweep_unknown_distribution EXIT 2 EXPECT --stderr "--dist: .*sparkly"
         ARGS sweep atomics --dist random,sparkly)
cli_test(sweep_image_without_file EXIT 2 EXPECT --stderr "'image' needs --image FILE"
         ARGS sweep atomics --dist image)
cli_test(sweep_bad_repeat EXIT 2 EXPECT --stderr "--repeat: '0' is out of range|--repeat: 0 is out of range"
         ARGS sweep atomics --repeat 0)
cli_test(sweep_baseline_not_json EXIT 3 EXPECT --stderr "rgb8[.]png: JSON: "
         ARGS sweep atomics ${sweepSmall} --baseline ${data}/rgb8.png)
cli_test(sweep_baseline_missing EXIT 3 EXPECT --stderr "nope[.]json: no such file"
         ARGS sweep atomics ${sweepSmall} --baseline @W@/nope.json)
cli_test(sweep_baseline_other_experiment EXIT 3
         EXPECT --setup "$<TARGET_FILE:histlab-cli> sweep atomics --dist uniform --size 0.0625 --repeat 1 --max-repeat 1 --json @W@/base.json --quiet"
                --stderr "a 'atomics' run cannot be the baseline of a 'stages' sweep"
         ARGS sweep stages ${sweepSmall} --baseline @W@/base.json)
cli_test(sweep_json_missing_folder EXIT 3 EXPECT --stderr "--json|nosuchfolder"
         --absent @W@/nosuchfolder/s.json
         ARGS sweep atomics ${sweepSmall} --json @W@/nosuchfolder/s.json)
# --- sweep bins (the large-bin methods against the bin count) --------------------------------
# 64 KiB of 16-bit samples, one timed run, two bin counts: the experiment, not the figures.
set(binsSmall --size 0.0625 --repeat 1)
cli_test(sweep_bins EXIT 0
         EXPECT --stdout "^sweep bins, 0 MiB per input, 14 points [(]14 ran[)]"
                --stdout "^  random local16 bins=65536: .* GB/s, .* G samples/s, .* % of read-only, verified"
                --stderr "^[[]1[]] random global bins=256: .* GB/s, .* G samples/s, .* % of read-only, verified"
                --stdout "^  random runs16 bins=65536: .* GB/s, .* G samples/s, .* % of read-only, verified"
                --stderr "^[[]14[]] random tagged bins=65536: "
                --check "${check} json @W@/b.json --nonempty points --nonempty ceilings --key histlab_experiment=1"
                --check "${check} sweepcsv @W@/b.csv --rows 14 --columns method,bins,gbps,gsamples_per_s,percent_of_ceiling --filled gsamples_per_s"
         ARGS sweep bins --dist random --bins 65536,256 ${binsSmall} --json @W@/b.json --csv @W@/b.csv)
cli_test(sweep_bins_image EXIT 0
         EXPECT --stdout "^  image multipass bins=257: .*, verified"
         ARGS sweep bins --dist image --image ${data}/rgb8.png --bins 257 ${binsSmall})
cli_test(sweep_bins_zero EXIT 2 EXPECT --stderr "--bins: 0 is out of range [(]1[.][.]65536[)]"
         ARGS sweep bins --bins 256,0)
cli_test(sweep_bins_of_banks EXIT 2 EXPECT --stderr "--bins: only the bins experiment takes bin counts"
         ARGS sweep banks --bins 256)
cli_test(sweep_bins_uniform EXIT 2 EXPECT --stderr "--dist: 'uniform' is not a distribution of bins"
         ARGS sweep bins --dist uniform)
cli_test(sweep_bins_max_repeat EXIT 2 EXPECT --stderr "--max-repeat: bins times exactly --repeat runs"
         ARGS sweep bins --max-repeat 5)
