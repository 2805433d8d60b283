# histlab-cli: nothing lost, no silent success, clear exit codes. An output never replaces a
# file the run reads (a folder's images, descriptor files, a baseline), however it is spelled;
# two outputs never share stdout; a run that wrote nothing it was asked for, or counted
# nothing, is not a success; messages stay one line. Each hostile input is made by the case.
set(cli $<TARGET_FILE:histlab-cli>)
# A folder of two images, and a copy of one to compare with afterwards.
set(twoImages "mkdir -p @W@/g && cp ${data}/rgb8.png @W@/g/full.png && cp ${data}/gray8.png @W@/g/b.png && cp ${data}/rgb8.png @W@/orig.png")
set(unchanged "cmp @W@/orig.png @W@/g/full.png")

# --- an output is never a file of an input folder -------------------------------------------
cli_test(batch_csv_is_a_folder_image EXIT 2
         EXPECT --setup "${twoImages}"
                --stderr "^histlab-cli: --csv: .*/g/full[.]png is full[.]png of the input FOLDER .*/g [(]an output never replaces an input[)]$"
                --check "${unchanged}"
         ARGS batch @W@/g --quiet --csv @W@/g/full.png)
cli_test(batch_json_is_a_folder_image_through_dots EXIT 2
         EXPECT --setup "${twoImages} && mkdir @W@/g/x"
                --stderr "^histlab-cli: --json: .*/g/x/[.][.]/full[.]png is full[.]png of the input FOLDER"
                --check "${unchanged}"
         ARGS batch @W@/g --quiet --json @W@/g/x/../full.png)
# With --out, the table through a link to an image is refused too.
cli_test(batch_out_csv_through_a_link EXIT 2
         EXPECT --setup "${twoImages} && ln -s g/full.png @W@/link.png"
                --stderr "^histlab-cli: --csv: .*/link[.]png is full[.]png of the input FOLDER"
                --check "${unchanged}"
         ARGS batch @W@/g --pipeline blur --out @W@/o --quiet --csv @W@/link.png)
# A refused run leaves no --out folder behind (it is made as the first result is written).
cli_test(batch_refused_run_makes_no_out_folder EXIT 2
         EXPECT --setup "${twoImages} && ln -s g/full.png @W@/link.png"
                --stderr "^histlab-cli: --csv: .*/link[.]png is full[.]png of the input FOLDER"
                --absent @W@/new/o
         ARGS batch @W@/g --pipeline blur --out @W@/new/o --quiet --csv @W@/link.png)
cli_test(batch_out_under_a_file EXIT 3
         EXPECT --setup "${twoImages} && touch @W@/f"
                --stderr "^histlab-cli: .*/f/o: --out needs a folder that can be made [(]'.*/f' is not a folder[)]$"
         ARGS batch @W@/g --pipeline blur --out @W@/f/o --quiet)
cli_test(batch_csv_is_a_hard_link_to_an_image EXIT 2
         EXPECT --setup "${twoImages} && ln @W@/g/full.png @W@/hard.png"
                --stderr "^histlab-cli: --csv: .*/hard[.]png is full[.]png of the input FOLDER"
                --check "${unchanged}"
         ARGS batch @W@/g --quiet --csv @W@/hard.png)
# --recursive reads the subfolders: their images are inputs as well.
cli_test(batch_recursive_csv_is_a_subfolder_image EXIT 2
         EXPECT --setup "${twoImages} && mkdir @W@/g/sub && cp ${data}/rgb8.png @W@/g/sub/a.png"
                --stderr "^histlab-cli: --csv: .*/g/sub/a[.]png is sub/a[.]png of the input FOLDER"
                --check "cmp @W@/orig.png @W@/g/sub/a.png"
         ARGS batch @W@/g --recursive --quiet --csv @W@/g/sub/a.png)
# Another shard's image is read by another run: refused too.
cli_test(batch_shard_csv_is_another_shards_image EXIT 2
         EXPECT --setup "${twoImages}"
                --stderr "^histlab-cli: --csv: .*/g/full[.]png is full[.]png of the input FOLDER"
                --check "${unchanged}"
         ARGS batch @W@/g --shard 0/2 --quiet --csv @W@/g/full.png)
# A new file of an image's name in the folder would be read by the next run: refused. A file
# the listing never takes (a .csv among images) is allowed.
cli_test(batch_csv_new_image_name_in_the_folder EXIT 2
         EXPECT --setup "${twoImages}"
                --stderr "^histlab-cli: --csv: .*/g/new[.]png is in the input FOLDER .*/g, whose listing would read it as an input [(]an output never goes among the inputs[)]$"
                --absent @W@/g/new.png
         ARGS batch @W@/g --quiet --csv @W@/g/new.png)
cli_test(batch_csv_beside_the_images EXIT 0
         EXPECT --setup "${twoImages}" --exists @W@/g/table.csv --check "${unchanged}"
         ARGS batch @W@/g --quiet --csv @W@/g/table.csv)

# bow: descriptor files are inputs of --csv, --similarity and build-codebook's --out.
set(descriptors "mkdir -p @W@/d && printf '0,0,1,1\\n1,1,0,0\\n0,1,0,1\\n' > @W@/d/d0.csv && printf '1,0,1,0\\n0,0,0,1\\n' > @W@/d/d1.csv && cp @W@/d/d0.csv @W@/orig.csv")
set(descCodebook "${cli} bow build-codebook @W@/d --descriptor-files --k 2 --quiet --out @W@/cb.yml")
if(TARGET histlab_io)
    cli_test(bow_histograms_csv_is_a_descriptor_file EXIT 2
             EXPECT --setup "${descriptors}" --setup "${descCodebook}"
                    --stderr "^histlab-cli: --csv: .*/d/d0[.]csv is d0[.]csv of the input FOLDER"
                    --check "cmp @W@/orig.csv @W@/d/d0.csv"
             ARGS bow histograms @W@/d --descriptor-files --codebook @W@/cb.yml --csv @W@/d/d0.csv)
    cli_test(bow_histograms_similarity_is_a_descriptor_file EXIT 2
             EXPECT --setup "${descriptors}" --setup "${descCodebook}"
                    --stderr "^histlab-cli: --similarity: .*/d/d0[.]csv is d0[.]csv of the input FOLDER"
                    --check "cmp @W@/orig.csv @W@/d/d0.csv"
             ARGS bow histograms @W@/d --descriptor-files --codebook @W@/cb.yml --similarity @W@/d/d0.csv)
    cli_test(bow_codebook_out_is_a_descriptor_file EXIT 2
             EXPECT --setup "${descriptors}"
                    --stderr "^histlab-cli: --out: .*/d/d0[.]csv is d0[.]csv of the input FOLDER"
                    --check "cmp @W@/orig.csv @W@/d/d0.csv"
             ARGS bow build-codebook @W@/d --descriptor-files --k 2 --out @W@/d/d0.csv)
    # Every image fails (each descriptor file has 4 floats, the codebook 3): exit 3, the table
    # still written.
    cli_test(bow_histograms_every_image_failed EXIT 3
             EXPECT --setup "${descriptors}"
                    --setup "mkdir -p @W@/c && printf '0,0,1\\n1,1,0\\n' > @W@/c/c.csv && ${cli} bow build-codebook @W@/c --descriptor-files --k 2 --quiet --out @W@/cb3.yml"
                    --stderr "^histlab-cli: none of the 2 images could be counted [(]see the table[)]$"
                    --exists @W@/h.csv
             ARGS bow histograms @W@/d --descriptor-files --codebook @W@/cb3.yml --csv @W@/h.csv)
endif()

# A baseline is an input: a run's --json never replaces it.
cli_test(dashboard_json_is_the_baseline EXIT 2
         EXPECT --setup "${cli} dashboard --pipeline scan --size 16K --repeat 1 --quiet --json @W@/b.json && cp @W@/b.json @W@/orig.json"
                --stderr "^histlab-cli: --json: .*/b[.]json is the input --baseline [(]an output never replaces an input[)]$"
                --check "cmp @W@/orig.json @W@/b.json"
         ARGS dashboard --pipeline scan --size 16K --repeat 1 --baseline @W@/b.json --json @W@/b.json)
cli_test(sweep_json_is_the_baseline_through_a_link EXIT 2
         EXPECT --setup "cp ${data}/sweep-atomics-8cf2e84.json @W@/b.json && ln -s b.json @W@/l.json"
                --stderr "^histlab-cli: --json: .*/l[.]json is the input --baseline [(]an output never replaces an input[)]$"
                --check "cmp ${data}/sweep-atomics-8cf2e84.json @W@/b.json"
         ARGS sweep atomics --dist uniform --size 0.0625 --repeat 1 --max-repeat 1 --baseline @W@/b.json --json @W@/l.json)

# --- one output at most on stdout -------------------------------------------------------------
cli_test(two_outputs_on_stdout EXIT 2
         EXPECT --stderr "^histlab-cli: --json: - is also the stdout of --csv [(]only one output may go to stdout[)]$"
                --check "test ! -s @STDOUT@"
         ARGS histogram ${syn} --csv - --json -)
cli_test(blur_image_and_csv_on_stdout EXIT 2
         EXPECT --stderr "^histlab-cli: --out: - is also the stdout of --csv [(]only one output may go to stdout[)]$"
         ARGS blur ${data}/rgb8.png --out - --csv /dev/stdout)
# One output on stdout: the report is not mixed into it.
cli_test(batch_csv_on_stdout_alone EXIT 0
         EXPECT --setup "${twoImages}" --stdout "^file,status," --no-stdout "^batch: "
         ARGS batch @W@/g --csv -)

# --- no silent success ------------------------------------------------------------------------
# A result whose name is a folder under --out is not written: its row says so, and the run
# exits 3 with the count.
cli_test(batch_out_result_not_written EXIT 3
         EXPECT --setup "${twoImages} && mkdir -p @W@/o/full.png"
                --stderr "^histlab-cli: 1 of 2 results not written [(]see the table[)]$"
                --check "grep -Eq '^full[.]png,failed,\"?not written: is a folder' @W@/t.csv"
                --check "grep -q '^b.png,verified,,' @W@/t.csv"
         ARGS batch @W@/g --pipeline blur --out @W@/o --quiet --csv @W@/t.csv)
cli_test(batch_every_image_failed EXIT 3
         EXPECT --setup "mkdir -p @W@/g && cp ${data}/not_an_image.png @W@/g/a.png && cp ${data}/empty.png @W@/g/b.png"
                --stderr "^histlab-cli: none of the 2 images could be counted [(]see the table[)]$"
                --exists @W@/t.csv
         ARGS batch @W@/g --quiet --csv @W@/t.csv)
# The names of N synthetic images are bounded before they are made.
cli_test(batch_synthetic_images_beyond_memory EXIT 2
         EXPECT --stderr "^histlab-cli: --images: 4294967296 images need [0-9.]+ [TGP]iB for their table, more than .* [(]a quarter of this machine's memory[)]; split the run with --shard I/N$"
         ARGS batch --synthetic random --images 4294967296 --width 1 --height 1)

# Memory that runs out where no limit foresaw it (here a 900 MB image, its byte limit lifted, in
# 700 MB of address space: the decoder's allocation fails) is one line and exit 3.
cli_test(not_enough_memory_is_one_line EXIT 3
         EXPECT --memory 700000 --env HISTLAB_MAX_IMAGE_BYTES=10000000000
                --setup [=[python3 -c "
import struct, zlib
def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
z = zlib.compressobj(9); row = bytes(30001)
idat = b''.join(z.compress(row) for _ in range(30000)) + z.flush()
open('@W@/big.png', 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 30000, 30000, 8, 0, 0, 0, 0)) + chunk(b'IDAT', idat) + chunk(b'IEND', b''))"]=]
                --stderr "^histlab-cli: not enough memory for reading the inputs [(]the input is too large for this machine or for the memory limit it runs under[)]$"
         ARGS histogram @W@/big.png --device cpu --quiet)

# --- devices ----------------------------------------------------------------------------------
# --list needs no device: it answers where no OpenCL platform is installed.
cli_test(dashboard_list_without_opencl EXIT 0
         EXPECT --env OCL_ICD_VENDORS=@W@ --stdout "^scan +"
         ARGS dashboard --list)
# PoCL offers no device when it cannot write its kernel cache: the message says why (PoCL
# takes POCL_CACHE_DIR first, which the tests leave unset).
cli_test(pocl_cache_not_writable EXIT 4
         EXPECT --env XDG_CACHE_HOME=/proc/nope
                --stderr "PoCL cannot write its kernel cache /proc/nope/pocl [(]XDG_CACHE_HOME=/proc/nope[)]: set XDG_CACHE_HOME to a writable folder$"
         ARGS histogram ${syn})

# --- one clear line ---------------------------------------------------------------------------
cli_test(file_name_with_a_newline EXIT 3
         EXPECT --stderr "^histlab-cli: .*/a\\\\nb[.]png: no such file$"
                --check "test $(wc -l < @STDERR@) -eq 1"
         ARGS histogram "@W@/a\nb.png")
cli_test(chunk_too_large EXIT 2
         EXPECT --stderr "^histlab-cli: --chunk: '1e99' MiB is too large"
         ARGS histogram ${syn} --chunk 1e99)
cli_test(batch_folder_symlink_loop EXIT 3
         EXPECT --setup "ln -s loop @W@/loop"
                --stderr "^histlab-cli: .*/loop: a loop of symbolic links, not a folder$"
         ARGS batch @W@/loop)
# --recursive with a subfolder that cannot be read: an error naming it, never skipped. Root
# reads a folder of mode 000, so as root the run drops to uid nobody (setpriv); where neither
# applies the case says why it is skipped.
find_program(HISTLAB_SETPRIV setpriv)
set(asNobody "if [ \"$(id -u)\" = 0 ]; then exec setpriv --reuid=65534 --regid=65534 --clear-groups \"$@\"; else exec \"$@\"; fi")
execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE)
if(uid STREQUAL "0" AND NOT HISTLAB_SETPRIV)
    message(STATUS "cli.batch_recursive_unreadable_subfolder: skipped (tests run as root, who "
                   "reads a folder of mode 000, and setpriv is not installed)")
else()
    cli_test(batch_recursive_unreadable_subfolder EXIT 0
             EXPECT --setup "${twoImages} && mkdir @W@/g/sub && cp ${data}/gray8.png @W@/g/sub/ && chmod 000 @W@/g/sub"
                    --check "bash -c '${asNobody}' - ${cli} batch @W@/g --recursive --quiet 2> @W@/err; code=$?; chmod 755 @W@/g/sub; test $code -eq 3"
                    --check "grep -qx 'histlab-cli: .*/g/sub: cannot be read (Permission denied); its files would be left out' @W@/err"
             ARGS --version)
endif()
# A baseline's status of 100 KB is echoed in at most about 80 characters.
cli_test(baseline_status_capped EXIT 3
         EXPECT --setup "${cli} dashboard --pipeline scan --size 16K --repeat 1 --quiet --json @W@/b.json"
                --setup "python3 -c \"import json,sys;p=sys.argv[1];d=json.load(open(p));d['results'][0]['status']='x'*100000;json.dump(d,open(p,'w'))\" @W@/b.json"
                --stderr "unknown status 'x{80}[.][.][.]'"
                --check "test $(wc -c < @STDERR@) -lt 400"
         ARGS dashboard --pipeline scan --size 16K --repeat 1 --baseline @W@/b.json)
# --help's exit codes: a size of 0 is a usage error (2).
cli_test(help_size_zero_is_usage EXIT 0
         EXPECT --stdout "^  2  usage error: .*a bad value [(]a size of 0 included[)]"
                --no-stdout "^  3  input error: .*a size"
         ARGS --help)
