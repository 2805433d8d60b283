# histlab-cli batch and merge: a folder (tests/data itself: good, broken, float and 16-bit
# images beside other files) over one device and over two (PoCL shows two with
# POCL_DEVICES="pthread pthread"), the same table whatever ran it; a device made to fail;
# shards merged equal to one run; histogram CSVs added; the refusals.
set(cli $<TARGET_FILE:histlab-cli>)
set(twoPocl "POCL_DEVICES='pthread pthread'")

# tests/data: 17 rows (10 counted, 7 rows with their reasons; pages3.tiff is 3 rows), 5 other files skipped.
cli_test(batch_folder_rows_and_reasons EXIT 0
         EXPECT --stdout "^batch: histogram of 17 images in .*data [(]5 other files skipped[)]; 1 decoding thread, 1 device$"
                --stdout "^10 verified, 7 not counted, 0 differing from the CPU reference$"
                --stdout "^  empty[.]png: file is empty$"
                --stdout "^  lying[.]tiff: damaged or truncated TIFF"
                --stdout "^  float32[.]pfm: 32-bit float: batch counts 8- and 16-bit images"
                --stdout "^totals over the 10 verified images:$"
                --stderr "^\\[[0-9]+\\] rgb8[.]png: verified [(]device [0-9]+[)]; [0-9]+ of 17, [0-9.]+ images/s, [0-9]+ s left$"
                --check "grep -c '^rgba8.png,verified,,19,13,4,8,' @W@/one.csv | grep -qx 5"
                --check "grep -q '^empty.png,failed,file is empty,,,,,,' @W@/one.csv"
                --check "${check} json @W@/one.json --key failed=7 --key mismatches=0 --nonempty devices --nonempty totals"
         ARGS batch ${data} --jobs 1 --csv @W@/one.csv --json @W@/one.json)

# Two devices write the table of one, byte for byte; each says how many images it took.
cli_test(batch_two_devices_equal_one EXIT 0
         EXPECT --env "POCL_DEVICES=pthread pthread"
                --setup "${twoPocl} ${cli} batch ${data} --device 0 --quiet --csv @W@/one.csv"
                --stdout "^batch: histogram of 17 images in .*; 2 decoding threads, 2 devices$"
                --stdout "^device 0 [(].*[)]: [0-9]+ images, busy [0-9.]+ %, waiting for images [0-9.]+ %; [a-z0-9]"
                --stdout "^device 1 [(].*[)]: [0-9]+ images, busy "
                --check "cmp @W@/one.csv @W@/all.csv"
         ARGS batch ${data} --device all --jobs 2 --csv @W@/all.csv)

# A device that fails on its first image hands it back; the other finishes the folder and the
# table is the same.
cli_test(batch_failing_device_redone EXIT 0
         EXPECT --env "POCL_DEVICES=pthread pthread" --env "HISTLAB_DEVICE_FAIL=1:0"
                --setup "${twoPocl} ${cli} batch --synthetic random --images 60 --width 40 --height 30 --channels 3 --device 0 --quiet --csv @W@/one.csv"
                --stdout "^  failed after 0 images: failed on purpose [(]HISTLAB_DEVICE_FAIL=1:0[)]; 1 image handed back to the other devices$"
                --stdout "^60 verified, 0 not counted, 0 differing from the CPU reference; 1 redone on another device$"
                --stderr "verified [(]device 0, redone[)]"
                --check "cmp @W@/one.csv @W@/all.csv"
         ARGS batch --synthetic random --images 60 --width 40 --height 30 --channels 3 --device all --csv @W@/all.csv)
cli_test(batch_every_device_fails EXIT 4
         EXPECT --env "HISTLAB_DEVICE_FAIL=0:0"
                --stdout "^  synthetic-000000: not run: every device failed [(]failed on purpose"
                --stderr "^histlab-cli: no device could run: failed on purpose"
                --exists @W@/t.csv
         ARGS batch --synthetic random --images 3 --width 4 --height 4 --csv @W@/t.csv)

# Shards (every third file) merged equal one run over the folder, byte for byte.
set(batchShard "${cli} batch ${data} --quiet --csv")
cli_test(batch_shards_merge_into_one_run EXIT 0
         EXPECT --setup "${batchShard} @W@/one.csv"
                --setup "${batchShard} @W@/s0.csv --shard 0/3" --setup "${batchShard} @W@/s1.csv --shard 1/3"
                --setup "${batchShard} @W@/s2.csv --shard 2/3"
                --stdout "^merge: 3 files, histogram batch tables: 17 images, 7 not counted$"
                --check "cmp @W@/one.csv @W@/m.csv"
         ARGS merge @W@/s2.csv @W@/s0.csv @W@/s1.csv --csv @W@/m.csv)
# A table of the older shape (no detail column: the error in the status column's place) is
# still read, and merges into the current shape.
cli_test(merge_reads_the_older_table_shape EXIT 0
         EXPECT --setup "${batchShard} @W@/one.csv"
                --setup "python3 -c \"import csv,sys; r=list(csv.reader(open(sys.argv[1]))); w=csv.writer(open(sys.argv[2],'w',newline=''),lineterminator='\\n'); w.writerow(r[0][:2]+r[0][3:]); [w.writerow([x[0], x[1] if x[1]=='verified' else x[2]]+x[3:]) for x in r[1:]]\" @W@/one.csv @W@/old.csv"
                --check "! head -1 @W@/old.csv | grep -q detail"
                --stdout "^merge: 1 file, histogram batch tables: 17 images, 7 not counted$"
                --check "cmp @W@/one.csv @W@/m.csv"
         ARGS merge @W@/old.csv --csv @W@/m.csv)
# Histogram CSVs add up bin by bin: an image's histogram twice is twice its counts.
cli_test(merge_adds_histogram_csvs EXIT 0
         EXPECT --setup "${cli} histogram ${data}/rgb8.png --quiet --csv @W@/h.csv"
                --setup "cp @W@/h.csv @W@/h2.csv"
                --stdout "^merge: 2 files, histogram CSVs added: 256 bins$"
                --check "python3 -c \"import csv; a=list(csv.reader(open('@W@/h.csv'))); m=list(csv.reader(open('@W@/m.csv'))); assert a[0]==m[0] and all(int(y)==2*int(x) for r,s in zip(a[1:],m[1:]) for x,y in zip(r[1:],s[1:])) and len(a)==257\""
         ARGS merge @W@/h.csv @W@/h2.csv --csv @W@/m.csv)

# A float colour image's CSV (each channel's own edges): the edges must agree and are kept, the
# counts are added.
cli_test(merge_adds_per_channel_edge_csvs EXIT 0
         EXPECT --setup "${cli} histogram ${data}/float32.pfm --bins 8 --quiet --csv @W@/h.csv"
                --setup "cp @W@/h.csv @W@/h2.csv"
                --stdout "^merge: 2 files, histogram CSVs added: 8 bins$"
                --check "python3 -c \"import csv; a=list(csv.reader(open('@W@/h.csv'))); m=list(csv.reader(open('@W@/m.csv'))); assert a[0]==m[0] and all((y==x) if a[0][i].endswith(('_lo','_hi','bin')) else int(y)==2*int(x) for r,s in zip(a[1:],m[1:]) for i,(x,y) in enumerate(zip(r,s)))\""
         ARGS merge @W@/h.csv @W@/h2.csv --csv @W@/m.csv)

# --- refusals: one line naming the option or file, the documented exit code, no output ------
cli_test(batch_no_folder EXIT 3 EXPECT --stderr "^histlab-cli: .*/nothing: no such folder$" --absent @W@/t.csv
         ARGS batch @W@/nothing --csv @W@/t.csv)
cli_test(batch_empty_folder EXIT 3 EXPECT --setup "mkdir @W@/e && touch @W@/e/notes.txt"
         --stderr "^histlab-cli: .*/e: no image files [(]1 other files[)]; --recursive reads its subfolders too$"
         ARGS batch @W@/e)
# A FIFO named like an image is not listed (never opened, so nothing waits on it).
cli_test(batch_fifo_not_listed EXIT 0 EXPECT --setup "mkdir @W@/f && mkfifo @W@/f/pipe.png && cp ${data}/gray8.png @W@/f/"
         --stdout "^batch: histogram of 1 images in .*/f [(]1 other files skipped[)]"
         --stdout "^1 verified, 0 not counted"
         ARGS batch @W@/f)
cli_test(batch_pipeline_bow_not_batched EXIT 2
         EXPECT --stderr "^histlab-cli: --pipeline: bow is not batched: histlab-cli bow histograms FOLDER --codebook FILE counts each image's visual words$"
         ARGS batch ${data} --pipeline bow)
cli_test(batch_option_of_another_pipeline EXIT 2
         EXPECT --stderr "^histlab-cli: --radius: only with --pipeline blur [(]this batch runs histogram[)]$"
         ARGS batch ${data} --radius 2)
cli_test(batch_joint_needs_channels EXIT 2
         EXPECT --stderr "^histlab-cli: --pair: joint needs two channels of each image, e.g. --pair r,g$"
         ARGS batch ${data} --pipeline joint)
# --out never names the images' folder: nothing there is written.
cli_test(batch_out_is_the_images_folder EXIT 3
         EXPECT --setup "mkdir @W@/in && cp ${data}/rgb8.png ${data}/gray8.png @W@/in/ && md5sum @W@/in/* > @W@/sums"
                --stderr "^histlab-cli: .*/in/[.]: --out is the images' folder; results go to a folder of their own, never over the images$"
                --check "md5sum -c --quiet @W@/sums" --check "test $(ls @W@/in | wc -l) = 2"
         ARGS batch @W@/in --pipeline blur --out @W@/in/.)
cli_test(batch_jobs_zero EXIT 2 EXPECT --stderr "^histlab-cli: --jobs: 0 is out of range"
         ARGS batch ${data} --jobs 0)
cli_test(batch_shard_out_of_range EXIT 2
         EXPECT --stderr "^histlab-cli: --shard: '3/3': shards count from 0: 0/3, 1/3, 2/3$"
         ARGS batch ${data} --shard 3/3)
# Many shards: the message lists the first two and the last.
cli_test(batch_shard_of_many_out_of_range EXIT 2
         EXPECT --stderr "^histlab-cli: --shard: '10/10': shards count from 0: 0/10, 1/10, [.][.][.], 9/10$"
         ARGS batch ${data} --shard 10/10)
# The help says where shards start, for every command that takes --shard.
cli_test(batch_shard_help EXIT 0 EXPECT --stdout "shards count from 0, 0/N to [(]N-1[)]/N"
         ARGS batch --help)
cli_test(bow_histograms_shard_help EXIT 0 EXPECT --stdout "shards count from 0, 0/N to [(]N-1[)]/N"
         ARGS bow histograms --help)
cli_test(batch_folder_and_synthetic EXIT 2
         EXPECT --stderr "^histlab-cli: batch: a folder or --synthetic, not both$"
         ARGS batch ${data} --synthetic random --images 2 --width 4 --height 4)
cli_test(batch_synthetic_needs_its_size EXIT 2
         EXPECT --stderr "^histlab-cli: --synthetic: needs --images N, --width W and --height H$"
         ARGS batch --synthetic random --images 2)
cli_test(batch_absurd_synthetic_size EXIT 2
         EXPECT --stderr "^histlab-cli: --width/--height: [0-9]+ bytes an image are more than [0-9]+ [(]a quarter of this machine's memory[)]$"
         ARGS batch --synthetic random --images 2 --width 1000000 --height 1000000)
cli_test(batch_bad_fault EXIT 2 EXPECT --env "HISTLAB_DEVICE_FAIL=x"
         --stderr "^histlab-cli: HISTLAB_DEVICE_FAIL: 'x' is not P:N"
         ARGS batch --synthetic random --images 2 --width 4 --height 4)
cli_test(merge_refuses_a_file_twice EXIT 3
         EXPECT --setup "${cli} batch --synthetic random --images 2 --width 4 --height 4 --quiet --csv @W@/s.csv"
                --stderr "^histlab-cli: .*s[.]csv: synthetic-000000 is also in .*s[.]csv$" --absent @W@/m.csv
         ARGS merge @W@/s.csv @W@/s.csv --csv @W@/m.csv)
cli_test(merge_refuses_mixed_files EXIT 3
         EXPECT --setup "${cli} batch --synthetic random --images 2 --width 4 --height 4 --quiet --csv @W@/s.csv"
                --setup "${cli} histogram --synthetic random --bytes 4099 --repeat 1 --quiet --csv @W@/h.csv"
                --stderr "^histlab-cli: .*s[.]csv: its columns differ from .*h[.]csv's$"
         ARGS merge @W@/h.csv @W@/s.csv)
cli_test(merge_refuses_other_files EXIT 3
         EXPECT --setup "printf 'a,b\\n1,2\\n' > @W@/x.csv"
                --stderr "^histlab-cli: .*x[.]csv: neither a batch table"
         ARGS merge @W@/x.csv)
# A table's status is one of the Status words, read back as such (its reason is the detail).
cli_test(merge_refuses_an_unknown_status EXIT 3
         EXPECT --setup "${cli} batch --synthetic random --images 1 --width 4 --height 4 --quiet --csv @W@/s.csv && sed -i 's/,verified,,/,ok,,/' @W@/s.csv"
                --stderr "^histlab-cli: .*s[.]csv:2: status: unknown status 'ok' [(]verified, timed, mismatch, unsupported, not applicable, failed, cancelled[)]$" --absent @W@/m.csv
         ARGS merge @W@/s.csv --csv @W@/m.csv)
cli_test(merge_refuses_a_fifo EXIT 3 EXPECT --setup "mkfifo @W@/s.csv"
         --stderr "^histlab-cli: .*s[.]csv: is not a regular file"
         ARGS merge @W@/s.csv)

# --- joint, blur, equalize ------------------------------------------------------------------
# Joint: two channels of each image; images without them are rows with the reason.
cli_test(batch_joint_channels_of_each_image EXIT 0
         EXPECT --stdout "^batch: joint of 17 images in .*data"
                --stdout "^MI of the [0-9]+ verified images: min [0-9.]+, median [0-9.]+, max [0-9.]+ bits"
                --check "grep -q '^rgb8.png,verified,,41,29,3,8,r,b,256x256,1189,0,7[.]62271435,' @W@/j.csv"
                --check "grep -q '^gray8.png,failed,a gray image has no channel .r.,,' @W@/j.csv"
                --check "${check} json @W@/j.json --key mismatches=0 --nonempty images"
                --check "grep -q .pipeline.: .joint. @W@/j.json"
         ARGS batch ${data} --pipeline joint --pair r,b --csv @W@/j.csv --json @W@/j.json)
# --coloc off leaves the colocalisation columns empty (the counts and MI stay); --coloc is
# joint's alone.
cli_test(batch_joint_coloc_off EXIT 0
         EXPECT --check "grep -q '^rgb8.png,verified,,41,29,3,8,r,b,256x256,1189,0,7[.]62271435,.*,,,,,,,,,,,,,$' @W@/j.csv"
         ARGS batch ${data} --pipeline joint --pair r,b --coloc off --quiet --csv @W@/j.csv)
cli_test(batch_coloc_only_joint EXIT 2
         EXPECT --stderr "^histlab-cli: --coloc: only with --pipeline joint [(]this batch runs histogram[)]$"
         ARGS batch ${data} --coloc bisection)
# The joint table carries each image's colocalisation (histlab-cli joint's, printed to 9
# digits); joint shards merge into one run byte for byte, coefficients kept; a joint table of the
# older shape (no colocalisation columns) is still read, its coefficients empty.
set(batchJointData "${cli} batch ${data} --pipeline joint --pair r,b --quiet --csv")
cli_test(batch_joint_colocalisation_merges EXIT 0
         EXPECT --setup "${batchJointData} @W@/one.csv"
                --setup "${batchJointData} @W@/s0.csv --shard 0/2" --setup "${batchJointData} @W@/s1.csv --shard 1/2"
                --setup "${cli} merge @W@/s1.csv @W@/s0.csv --csv @W@/m.csv"
                --setup "${cli} joint ${data}/rgb8.png --channels r,b --repeat 1 --quiet --json @W@/j.json"
                --setup "python3 -c \"import csv,sys; r=list(csv.reader(open(sys.argv[1]))); w=csv.writer(open(sys.argv[2],'w',newline=''),lineterminator='\\n'); [w.writerow(x[:-13]) for x in r]\" @W@/one.csv @W@/old.csv"
                --check "cmp @W@/one.csv @W@/m.csv"
                --check "head -1 @W@/one.csv | grep -q ',nmi,pearson,pearson_below,pearson_above,m1,m2,tm1,tm2,threshold_a,threshold_b,slope,intercept,icq,above_both$'"
                --check "python3 -c \"import csv,json; c=json.load(open('@W@/j.json'))['colocalisation']; r=[x for x in csv.DictReader(open('@W@/one.csv')) if x['file']=='rgb8.png'][0]; assert all(abs(float(r[k])-c[j])<=1e-8*max(1,abs(c[j])) for k,j in [('pearson','pearson'),('m1','m1'),('tm2','tm2'),('threshold_a','threshold_a'),('slope','slope'),('icq','icq'),('above_both','above_both')]), (r, c)\""
                --check "python3 -c \"import csv; n=list(csv.DictReader(open('@W@/one.csv'))); o=list(csv.DictReader(open('@W@/mo.csv'))); assert [x['pearson'] for x in o]==['']*len(o) and [x['mi'] for x in o]==[x['mi'] for x in n]\""
                --stdout "^merge: 1 file, joint batch tables: 17 images, [0-9]+ not counted$"
         ARGS merge @W@/old.csv --csv @W@/mo.csv)
# Blur: each verified result written as PNG under --out, the same pixels histlab-cli blur writes
# for one image (the table's checksum names them); two devices write the same table and files.
cli_test(batch_blur_writes_what_blur_writes EXIT 0
         EXPECT --env "POCL_DEVICES=pthread pthread"
                --setup "${twoPocl} ${cli} blur ${data}/rgba8.png --border reflect101 --radius 2 --repeat 1 --quiet --out @W@/one.png"
                --setup "${twoPocl} ${cli} batch ${data} --pipeline blur --radius 2 --device 0 --out @W@/o1 --quiet --csv @W@/one.csv"
                --stdout "^[0-9]+ results written to .*/o2 [(]PNG[)], [0-9.]+ s of thread time$"
                --check "cmp @W@/one.csv @W@/two.csv" --check "diff -r @W@/o1 @W@/o2"
                --check "cmp @W@/one.png @W@/o2/rgba8.png"
                --check "grep -q '^rgba8.png,verified,,19,13,4,8,2,reflect101,rgba8.png,[0-9a-f]\\{16\\}$' @W@/two.csv"
                --check "grep -q '^float32.pfm,.*float' @W@/two.csv"
         ARGS batch ${data} --pipeline blur --radius 2 --device all --out @W@/o2 --csv @W@/two.csv)
# Equalize: the result is what histlab-cli equalize writes; shards merged equal one run.
set(batchEq "${cli} batch ${data} --pipeline equalize --quiet")
cli_test(batch_equalize_shards_and_output EXIT 0
         EXPECT --setup "${cli} equalize ${data}/gray16.png --repeat 1 --quiet --out @W@/one.png"
                --setup "${batchEq} --out @W@/o --csv @W@/one.csv"
                --setup "${batchEq} --shard 0/2 --out @W@/o --csv @W@/s0.csv" --setup "${batchEq} --shard 1/2 --out @W@/o --csv @W@/s1.csv"
                --stdout "^merge: 2 files, equalize batch tables: 17 images, [0-9]+ not counted$"
                --check "cmp @W@/one.csv @W@/m.csv"
                --check "cmp @W@/one.png @W@/o/gray16.png"
         ARGS merge @W@/s1.csv @W@/s0.csv --csv @W@/m.csv)
cli_test(merge_refuses_tables_of_two_pipelines EXIT 3
         EXPECT --setup "${cli} batch --synthetic random --images 2 --width 4 --height 4 --quiet --csv @W@/h.csv"
                --setup "${cli} batch --synthetic random --images 2 --width 4 --height 4 --pipeline blur --quiet --csv @W@/b.csv"
                --stderr "^histlab-cli: .*b[.]csv: a batch table of blur; .*h[.]csv is one of histogram$"
         ARGS merge @W@/h.csv @W@/b.csv)
# Tables of one run's settings merge: joint shards of other channels are refused, naming both.
set(batchJoint "${cli} batch --synthetic random --images 4 --width 8 --height 8 --channels 3 --pipeline joint --quiet")
cli_test(merge_refuses_joint_tables_of_other_channels EXIT 3
         EXPECT --setup "${batchJoint} --pair r,g --shard 0/2 --csv @W@/s0.csv"
                --setup "${batchJoint} --pair r,b --shard 1/2 --csv @W@/s1.csv"
                --stderr "^histlab-cli: .*s1[.]csv: synthetic-000001 was run with r,b,256x256, .*s0[.]csv's images with r,g,256x256: tables of one run's settings merge$"
         ARGS merge @W@/s0.csv @W@/s1.csv)
