# histlab-cli bow: its cases, each with the exit code and messages --help documents.
# Every kernel on synthetic descriptors (a count that is no multiple of any work-group), each
# verified label by label; CSV and JSON.
set(bowRow "+[0-9.]+ +[0-9.]+ +[0-9.]+ +([0-9.]+|-) +[0-9]+ +[0-9.]+ +([0-9.]+|-) +wg ")
cli_test(bow_bench_all_kernels EXIT 0
         EXPECT --stdout "^bow bench: 3001 synthetic descriptors of 64 floats, codebook of 100 centroids [(]seed 5[)]$"
                --stdout "^device [0-9]+: "
                --stdout "^FP32 peak [(]independent multiply-add chains, as clpeak[)]: [0-9.]+ GFLOP/s [(]float[0-9]+ chains, work-groups of [0-9]+[)]$"
                --stdout "^gpu1 ${bowRow}.* verified$" --stdout "^gpu2 ${bowRow}.* verified$"
                --stdout "^gpu3 ${bowRow}.* verified$" --stdout "^gpu4 ${bowRow}.* verified$"
                --stdout "^gpu5 ${bowRow}.* verified$"
                --stdout "^tiled ${bowRow}.*tiles of [0-9]+ centroids, local histogram +verified$"
                --stdout "^tiled-norm ${bowRow}.*tiles of [0-9]+ centroids, local histogram +verified$"
                --stdout "^block-norm ${bowRow}.*descriptors x tiles of [0-9]+ centroids, local histogram +verified$"
                --stdout "^best: [a-z0-9-]+, [0-9.]+ M descriptors/s, [0-9.]+ GFLOP/s; with its double-precision decisions [0-9.]+ M descriptors/s [(]every label exact(; [0-9.]+ with the decisions. wall clock)?[)]$"
                --check "${check} sweepcsv @W@/b.csv --rows 8 --columns kernel,descriptors,k,dim,median_ms,descriptors_per_s,gflops,ambiguous,resolve_ms,resolve_device_ms,status --filled gflops"
                --check "${check} json @W@/b.json --key descriptors=3001 --key k=100 --nonempty runs --nonempty fp32_peak"
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
         EXPECT --stderr "^histlab-cli: bow: needs a command, one of bench, build-codebook, histograms, merge [(]see histlab-cli bow --help[)]$"
         ARGS bow)
cli_test(bow_bench_bad_kernel EXIT 2
         EXPECT --stderr "^histlab-cli: --kernel: 'gpu9' is not one of gpu1, gpu2, gpu3, gpu4, gpu5, tiled, tiled-norm, block-norm$"
         ARGS bow bench --kernel gpu9)
cli_test(bow_bench_dimension_out_of_range EXIT 2
         EXPECT --stderr "^histlab-cli: --dim: 300 is out of range [(]1[.][.]256[)]$"
         ARGS bow bench --dim 300)
cli_test(bow_bench_no_descriptors EXIT 2
         EXPECT --stderr "^histlab-cli: --count: 0 is out of range"
         ARGS bow bench --count 0)
# An absurd count is refused by its size before anything is allocated.
cli_test(bow_bench_absurd_count EXIT 2
         EXPECT --stderr "^histlab-cli: --count: ([0-9]+ bytes a plane exceed one buffer of|[0-9.]+ [KMGT]iB of synthetic data: more than a quarter of this machine's memory)"
         ARGS bow bench --count 2000000000)

# k-means on synthetic descriptors, and its refusals.
cli_test(bow_codebook_synthetic EXIT 0
         EXPECT --stdout "^bow build-codebook: K 16 from 4000 synthetic descriptors of 8 floats [(]seed 1[)]$"
                --stdout "^final assignment: verified"
                --check "${check} table @W@/it.csv --rows 5 --columns iteration,inertia,changed,reseeded,shift,assign_ms,ambiguous"
         ARGS bow build-codebook --synthetic --count 4000 --dim 8 --k 16 --iterations 5 --csv @W@/it.csv)
cli_test(bow_codebook_too_few_descriptors EXIT 2
         EXPECT --stderr "^histlab-cli: --k: 100 centroids need at least as many descriptors; there are 50$"
         ARGS bow build-codebook --synthetic --count 50 --k 100 --max-per-centroid 0)
cli_test(bow_codebook_bad_detector EXIT 2
         EXPECT --stderr "^histlab-cli: --detector: 'surf' is not a detector [(]kaze or sift[)]$"
         ARGS bow build-codebook ${data} --detector surf)

# Collections: a folder of real images with a damaged file and a non-image in the middle (only
# in builds with OpenCV, which describes images and reads FileStorage).
if(NOT TARGET histlab_io)
    return()
endif()
set(cli $<TARGET_FILE:histlab-cli>)
set(bowFolder "mkdir -p @W@/f && cp '${PROJECT_SOURCE_DIR}/resources/sample.png' @W@/f/a.png && cp '${data}/truncated.jpg' @W@/f/b.jpg && cp '${data}/rgb.jpg' @W@/f/c.jpg && cp '${data}/not_an_image.png' @W@/f/d.png && cp '${PROJECT_SOURCE_DIR}/resources/sample.png' @W@/f/e.png && echo notes > @W@/f/notes.txt")
set(bowVocab "${cli} bow build-codebook @W@/f --k 8 --out @W@/v.yml --quiet")
cli_test(bow_codebook_from_a_folder EXIT 0
         EXPECT --setup "${bowFolder}"
                --stdout "^bow build-codebook: K 8 from [0-9]+ descriptors of 3 of 5 images in .*/f [(]kaze[)]$"
                --stdout "^final assignment: verified, inertia [0-9.]+$"
                --stdout "^cv::kmeans [(]k-means[+][+], [0-9]+ iterations, CPU[)]: [0-9.]+ s, inertia [0-9.]+$"
                --stderr "^\\[2\\] b.jpg: damaged or truncated JPEG"
                --exists @W@/v.yml
                --check "grep -q '^vocabulary: !!opencv-matrix' @W@/v.yml && grep -q '^   rows: 8$' @W@/v.yml"
                --check "${check} json @W@/k.json --key k=8 --key images=5 --key failed_images=2 --nonempty iterations"
         ARGS bow build-codebook @W@/f --k 8 --out @W@/v.yml --json @W@/k.json --compare-opencv)
# The plan knows the detector's descriptors (KAZE: 64 floats) before any image is described: a
# kernel that cannot hold K of them is refused at once (gpu5 keeps the codebook in constant
# memory: 64 KiB on most GPUs, 1 MiB on PoCL), and nothing is described.
cli_test(bow_codebook_kernel_refused_before_describing EXIT 2
         EXPECT --setup "${bowFolder}"
                --stderr "^histlab-cli: --kernel: gpu5 cannot run on .*: 8192 x 64 floats [(]2097152 bytes[)] do not fit the [0-9]+ bytes of constant memory$"
                --no-stderr "^\\[[0-9]+\\]"
                --absent @W@/v.yml
         ARGS bow build-codebook @W@/f --k 8192 --kernel gpu5 --out @W@/v.yml)
cli_test(bow_histograms_with_broken_images EXIT 0
         EXPECT --setup "${bowFolder}" --setup "${bowVocab}"
                --stdout "^gpu1 .* verified$" --stdout "^tiled-norm .* verified$"
                --stdout "^2 could not be described:$"
                --stdout "^  d.png: not an image HistLab can read"
                --stdout "^  a.png:  e.png 1.000"
                --stdout "^where the time went"
                --check "grep -q '^b.jpg,0,damaged or truncated JPEG (libjpeg: Premature end of JPEG file),l1,,' @W@/h.csv"
                --check "${check} table @W@/h.csv --rows 5 --columns file,descriptors,status,weighting,w0,w7"
                --check "grep -c , @W@/s.csv | grep -qx 6"
         ARGS bow histograms @W@/f --codebook @W@/v.yml --kernel gpu1,tiled-norm --normalize l1
              --nearest 2 --csv @W@/h.csv --similarity @W@/s.csv)
# The OpenCV peer beside the kernels: its speed and how many of its labels differ.
cli_test(bow_bench_compare_opencv EXIT 0
         EXPECT --stdout "^cv::BFMatcher[(]NORM_L2[)]::match on the host's CPU: [0-9.]+ M descriptors/s [(][0-9.]+ ms, [0-9]+ labels differ from the exact ones[)]; [a-z0-9-]+ is [0-9.]+ x faster"
         ARGS bow bench --count 2000 --k 64 --kernel tiled-norm --repeat 1 --compare-opencv)
# Three shards merged equal one run over the whole folder, byte for byte, tf-idf included.
set(bowShard "${cli} bow histograms @W@/f --codebook @W@/v.yml --quiet --csv")
cli_test(bow_shards_merge_into_one_run EXIT 0
         EXPECT --setup "${bowFolder}" --setup "${bowVocab}"
                --setup "${bowShard} @W@/s0.csv --shard 0/3" --setup "${bowShard} @W@/s1.csv --shard 1/3"
                --setup "${bowShard} @W@/s2.csv --shard 2/3"
                --setup "${bowShard} @W@/all.csv --normalize tfidf"
                --stdout "^bow merge: 3 shards$" --stdout "^5 images, [0-9]+ descriptors, 8 words; weights tfidf$"
                --check "cmp @W@/m.csv @W@/all.csv"
         ARGS bow merge @W@/s2.csv @W@/s0.csv @W@/s1.csv --normalize tfidf --csv @W@/m.csv)
cli_test(bow_merge_refuses_weights EXIT 3
         EXPECT --setup "${bowFolder}" --setup "${bowVocab}"
                --setup "${cli} bow histograms @W@/f --codebook @W@/v.yml --quiet --normalize l2 --csv @W@/l2.csv"
                --stderr "^histlab-cli: .*/l2.csv: line 2: weighted by l2: merging needs the raw counts"
                --absent @W@/m.csv
         ARGS bow merge @W@/l2.csv --csv @W@/m.csv)
cli_test(bow_merge_refuses_a_file_twice EXIT 3
         EXPECT --setup "${bowFolder}" --setup "${bowVocab}" --setup "${bowShard} @W@/s.csv"
                --stderr "^histlab-cli: .*/s.csv: a.png is also in .*/s.csv$"
         ARGS bow merge @W@/s.csv @W@/s.csv)
# A FIFO or a missing file as a shard: refused by name, never waited on.
cli_test(bow_merge_refuses_a_fifo EXIT 3
         EXPECT --setup "mkfifo @W@/s.csv"
                --stderr "^histlab-cli: .*/s.csv: is not a regular file [(]a FIFO, socket or device[)]$"
         ARGS bow merge @W@/s.csv)
cli_test(bow_merge_missing_shard EXIT 3
         EXPECT --stderr "^histlab-cli: .*/none.csv: no such file$"
         ARGS bow merge @W@/none.csv)
cli_test(bow_histograms_needs_a_codebook EXIT 2
         EXPECT --stderr "^histlab-cli: --codebook: bow histograms needs a codebook"
         ARGS bow histograms ${data})
cli_test(bow_histograms_missing_folder EXIT 3
         EXPECT --stderr "^histlab-cli: .*/nothing: no such folder$"
         ARGS bow histograms @W@/nothing --codebook @W@/v.yml)
cli_test(bow_histograms_no_images EXIT 3
         EXPECT --setup "mkdir -p @W@/e && echo x > @W@/e/a.txt"
                --stderr "^histlab-cli: .*/e: no images [(]by their extension[)] [(]--recursive for subfolders[)]$"
         ARGS bow histograms @W@/e --codebook @W@/v.yml)
cli_test(bow_histograms_bad_codebook EXIT 3
         EXPECT --setup "${bowFolder}"
                --stderr "^histlab-cli: ${data}/rgb8.png: a NUL byte at offset 8: not FileStorage text [(]YAML, XML or JSON[)]$"
         ARGS bow histograms @W@/f --codebook ${data}/rgb8.png)
cli_test(bow_histograms_bad_shard EXIT 2
         EXPECT --stderr "^histlab-cli: --shard: '3/3': shards count from 0: 0/3, 1/3, 2/3$"
         ARGS bow histograms ${data} --codebook x.yml --shard 3/3)
# SIFT's 128 floats against a 64-float codebook: each image is a row that says so, and with
# no image counted the run is not a success (exit 3).
cli_test(bow_histograms_dimension_mismatch EXIT 3
         EXPECT --setup "${bowFolder}" --setup "${bowVocab}"
                --stdout "^  a.png: descriptors of 128 floats; the codebook's words have 64$"
                --stderr "^histlab-cli: none of the 5 images could be counted [(]see the table[)]$"
         ARGS bow histograms @W@/f --codebook @W@/v.yml --detector sift)
# tf-idf's logarithm is named in the help: the natural one, unsmoothed.
cli_test(bow_histograms_tfidf_log_base_help EXIT 0
         EXPECT --stdout "ln[(]images / images with the word[)]" --stdout "natural logarithm"
                --stdout "without smoothing"
         ARGS bow histograms --help)
