# histlab-cli bow: its cases, each with the exit code and messages --help documents.
# Every kernel on synthetic descriptors (a count that is no multiple of any work-group), each
# verified label by label; CSV and JSON.
set(bowRow "+[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+ +[0-9.]+ +wg ")
cli_test(bow_bench_all_kernels EXIT 0
         EXPECT --stdout "^bow bench: 3001 synthetic descriptors of 64 floats, codebook of 100 centroids [(]seed 5[)]$"
                --stdout "^device [0-9]+: "
                --stdout "^gpu1 ${bowRow}.* verified$" --stdout "^gpu2 ${bowRow}.* verified$"
                --stdout "^gpu3 ${bowRow}.* verified$" --stdout "^gpu4 ${bowRow}.* verified$"
                --stdout "^gpu5 ${bowRow}.* verified$"
                --stdout "^tiled ${bowRow}.*tiles of [0-9]+ centroids, local histogram +verified$"
                --stdout "^tiled-norm ${bowRow}.*tiles of [0-9]+ centroids, local histogram +verified$"
                --stdout "^best: [a-z0-9-]+, [0-9.]+ M descriptors/s, [0-9.]+ GFLOP/s$"
                --check "${check} sweepcsv @W@/b.csv --rows 7 --columns kernel,descriptors,k,dim,median_ms,descriptors_per_s,gflops,ambiguous,resolve_ms,status --filled gflops"
                --check "${check} json @W@/b.json --key descriptors=3001 --key k=100 --nonempty runs"
         ARGS bow bench --synthetic --count 3001 --k 100 --dim 64 --seed 5 --repeat 1
              --csv @W@/b.csv --json @W@/b.json)
# A dimension the float4 kernels cannot take: they say why, the others run.
cli_test(bow_bench_odd_dimension EXIT 0
         EXPECT --stdout "^gpu3 .*unsupported: descriptors of 6 floats: the float4 kernels need a multiple of 4$"
                --stdout "^gpu1 ${bowRow}.* verified$"
         ARGS bow bench --count 100 --k 3 --dim 6 --kernel gpu3,gpu1 --repeat 1)
# Nothing that can run: exit 4, with the reason on each row.
cli_test(bow_bench_nothing_runs EXIT 4
         EXPECT --stderr "^histlab-cli: no assignment kernel could run on "
         ARGS bow bench --count 100 --k 3 --dim 6 --kernel gpu3 --repeat 1)
cli_test(bow_needs_a_command EXIT 2
         EXPECT --stderr "^histlab-cli: bow: needs a command, one of bench [(]see histlab-cli bow --help[)]$"
         ARGS bow)
cli_test(bow_bench_bad_kernel EXIT 2
         EXPECT --stderr "^histlab-cli: --kernel: 'gpu9' is not one of gpu1, gpu2, gpu3, gpu4, gpu5, tiled, tiled-norm$"
         ARGS bow bench --kernel gpu9)
cli_test(bow_bench_dimension_out_of_range EXIT 2
         EXPECT --stderr "^histlab-cli: --dim: 300 is out of range [(]1[.][.]256[)]$"
         ARGS bow bench --dim 300)
cli_test(bow_bench_no_descriptors EXIT 2
         EXPECT --stderr "^histlab-cli: --count: 0 is out of range"
         ARGS bow bench --count 0)
# An absurd count is refused by its size before anything is allocated.
cli_test(bow_bench_absurd_count EXIT 2
         EXPECT --stderr "^histlab-cli: --count: [0-9]+ bytes (a plane exceed one buffer of|of synthetic samples exceed a quarter of this machine's memory)"
         ARGS bow bench --count 2000000000)
