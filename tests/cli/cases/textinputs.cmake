# Hostile text inputs: merge tables, histogram CSVs, bow tables, codebooks, descriptor files and
# baselines that are too deep, too large, endless, out of range or not finite. Each is one line
# naming the file (and its line and column), exit 3, no crash, no output; the files are made here.
set(textGen "${Python3_EXECUTABLE} '${CMAKE_CURRENT_SOURCE_DIR}/text_inputs.py'")

# --- merge: every number read once, checked; sums that would wrap refused -------------------
cli_test(merge_refuses_a_mi_out_of_range EXIT 3
         EXPECT --setup "${textGen} joint-table @W@/j.csv 1e999"
                --stderr "^histlab-cli: .*/j[.]csv:2: mi: '1e999' is not a finite number$"
                --absent @W@/m.csv
         ARGS merge @W@/j.csv --csv @W@/m.csv)
cli_test(merge_refuses_a_width_beyond_an_image EXIT 3
         EXPECT --setup "${textGen} histogram-table @W@/t.csv 1 99999999999"
                --stderr "^histlab-cli: .*/t[.]csv:2: width: '99999999999' is beyond what an image may have [(]at most 2147483647[)]$"
         ARGS merge @W@/t.csv --csv @W@/m.csv)
cli_test(merge_refuses_totals_past_2p64 EXIT 3
         EXPECT --setup "${textGen} histogram-table @W@/a.csv 1 4 18446744073709551615"
                --setup "sed 's/^img-/other-/' @W@/a.csv > @W@/b.csv"
                --stderr "^histlab-cli: .*/b[.]csv:2: b0: '18446744073709551615' takes the gray totals past 2\\^64 - 1$"
                --absent @W@/m.csv
         ARGS merge @W@/a.csv @W@/b.csv --csv @W@/m.csv)
cli_test(merge_refuses_histogram_sums_past_2p64 EXIT 3
         EXPECT --setup "printf 'bin,gray\\n0,18446744073709551615\\n1,1\\n' > @W@/a.csv && cp @W@/a.csv @W@/b.csv"
                --stderr "^histlab-cli: .*/b[.]csv:2: gray: '18446744073709551615' takes the sum of bin 0 past 2\\^64 - 1$"
         ARGS merge @W@/a.csv @W@/b.csv --csv @W@/m.csv)
# A byte order mark (as a Windows editor saves a CSV) is no part of the first column's name.
cli_test(merge_skips_a_byte_order_mark EXIT 0
         EXPECT --setup "printf '\\xef\\xbb\\xbfbin,gray\\n0,5\\n1,7\\n' > @W@/a.csv && printf 'bin,gray\\n0,1\\n1,2\\n' > @W@/b.csv"
                --stdout "^merge: 2 files, histogram CSVs added: 2 bins$"
                --check "printf 'bin,gray\\n0,6\\n1,9\\n' | cmp - @W@/m.csv"
         ARGS merge @W@/a.csv @W@/b.csv --csv @W@/m.csv)
# A table is read a row at a time: 120,000 histogram rows (64 MiB of text, which the whole-file
# reader turned into 5.4 GB of cells in 78 s) merge within a 1 GB address space.
cli_test(merge_streams_a_large_table EXIT 0
         EXPECT --memory 1000000
                --setup "${textGen} histogram-table @W@/t.csv 120000"
                --stdout "^merge: 1 file, histogram batch tables: 120000 images, 0 not counted$"
                --check "test $(wc -l < @W@/m.csv) = 120001"
         ARGS merge @W@/t.csv --csv @W@/m.csv)

# --- inputs that may block, never end, or hold more than a reader keeps ----------------------
cli_test(merge_refuses_a_proc_file EXIT 3
         EXPECT --stderr "^histlab-cli: /proc/self/status: is in /proc or /sys, not a regular file that can be read [(]a read may block or never end[)]$"
         ARGS merge /proc/self/status)
cli_test(histogram_refuses_a_proc_file EXIT 3
         EXPECT --stderr "^histlab-cli: /proc/self/status: is in /proc or /sys"
         ARGS histogram /proc/self/status --device cpu)
cli_test(merge_refuses_a_table_beyond_1GiB EXIT 3
         EXPECT --setup "truncate -s 20G @W@/s.csv"
                --stderr "^histlab-cli: .*/s[.]csv: 20[.]0 GiB; a table is read up to 1 GiB$"
         ARGS merge @W@/s.csv)
cli_test(dashboard_refuses_a_baseline_beyond_64MiB EXIT 3
         EXPECT --setup "truncate -s 20G @W@/s.json"
                --stderr "^histlab-cli: .*/s[.]json: 20[.]0 GiB; a baseline is read up to 64 MiB$"
         ARGS dashboard --device cpu --pipeline read-only --size 64K --baseline @W@/s.json)

# --- bow merge -------------------------------------------------------------------------------
cli_test(bow_merge_refuses_counts_that_wrap EXIT 3
         EXPECT --setup "printf 'file,descriptors,status,weighting,w0,w1\\na.png,1,ok,none,18446744073709551615,2\\n' > @W@/w.csv"
                --stderr "^histlab-cli: .*/w[.]csv: line 2: w1: '2' takes the sum of the counts past 2\\^64 - 1$"
         ARGS bow merge @W@/w.csv)
# A full similarity matrix of 8,193 images (67 M cells) is refused by its size, naming it;
# --nearest lists what it would be read for.
cli_test(bow_merge_refuses_a_huge_similarity_matrix EXIT 2
         EXPECT --setup "${textGen} words @W@/w.csv 8193"
                --stderr "^histlab-cli: --similarity: 8193 images make a matrix of 67125249 cells [(]about 1[.][0-9] GiB of text[)]; it is written for at most 8192 images [(]--nearest N lists each image's most similar ones[)]$"
                --absent @W@/s.csv
         ARGS bow merge @W@/w.csv --similarity @W@/s.csv --quiet)
cli_test(bow_merge_streams_the_similarity_matrix EXIT 0
         EXPECT --setup "${textGen} words @W@/w.csv 300"
                --check "test $(wc -l < @W@/s.csv) = 301"
                --check "head -c 30 @W@/s.csv | grep -q '^file,i000000.png,i000001.png'"
         ARGS bow merge @W@/w.csv --similarity @W@/s.csv --quiet)

# --- codebooks and descriptor files (OpenCV FileStorage; builds with OpenCV only) -----------
if(NOT TARGET histlab_io)
    return()
endif()
set(descFolder "mkdir -p @W@/d && printf '0,0\\n1,1\\n4,4\\n' > @W@/d/a.csv")
set(goodBook "${textGen} codebook @W@/cb.yml 2 2")
# Nested 100,000 levels, OpenCV's parsers overflowed the stack (SIGSEGV): the nesting is counted
# before they see the file.
foreach(style yml json xml block)
    set(ext ${style})
    if(style STREQUAL "block")
        set(ext yml)
    endif()
    cli_test(bow_codebook_nested_${style} EXIT 3
             EXPECT --setup "${descFolder}" --setup "${textGen} nested-${style} @W@/n.${ext} 100000"
                    --stderr "^histlab-cli: .*/n[.]${ext}: nested 10000[0-3] levels deep [(]at most 64[)]$"
             ARGS bow histograms @W@/d --descriptor-files --codebook @W@/n.${ext} --device cpu)
endforeach()
# One such file in a descriptor folder is that file's row, not the end of the run.
cli_test(bow_nested_descriptor_file_is_a_row EXIT 0
         EXPECT --setup "${descFolder}" --setup "${goodBook}"
                --setup "${textGen} nested-yml @W@/d/e.yml 100000"
                --stdout "^  e[.]yml: nested 10000[0-3] levels deep [(]at most 64[)]$"
                --check "grep -q '^a[.]csv,3,ok,' @W@/h.csv"
         ARGS bow histograms @W@/d --descriptor-files --codebook @W@/cb.yml --device cpu --csv @W@/h.csv)
# Found by fuzzing: OpenCV reads text held in memory up to its first NUL and then past its end.
cli_test(bow_codebook_with_a_nul_byte EXIT 3
         EXPECT --setup "${descFolder}" --setup "printf '<?xml version=\\0\"1.0\"?>\\n<opencv_storage>\\n</opencv_storage>\\n' > @W@/n.xml"
                --stderr "^histlab-cli: .*/n[.]xml: a NUL byte at offset 14: not FileStorage text [(]YAML, XML or JSON[)]$"
         ARGS bow histograms @W@/d --descriptor-files --codebook @W@/n.xml --device cpu)
# Found by fuzzing: an empty key ended OpenCV's YAML parser in std::terminate (the old build
# too), and a "cols" that is no number made it reserve 2 x 2147483647 floats for four values.
cli_test(bow_codebook_with_an_empty_key EXIT 3
         EXPECT --setup "${descFolder}" --setup "printf '%%YAML:1.0\\n---\\nvocabulary: !!opencv-matrix\\n   rows: 2\\n   : ' > @W@/n.yml"
                --stderr "^histlab-cli: .*/n[.]yml: line 5: a key may not be empty$"
         ARGS bow histograms @W@/d --descriptor-files --codebook @W@/n.yml --device cpu)
# Found by fuzzing: OpenCV's YAML parser never ends on a top level that begins indented and
# comes back to the first column (the old build hung the same way).
cli_test(bow_codebook_indented_top_level EXIT 3
         EXPECT --setup "${descFolder}" --setup "printf '%%YAML:1.0\\n  - 0\\ny:\\n - 2\\n' > @W@/n.yml"
                --stderr "^histlab-cli: .*/n[.]yml: line 2: the top level is indented [(]it begins in the first column[)]$"
         ARGS bow histograms @W@/d --descriptor-files --codebook @W@/n.yml --device cpu)
# Found by fuzzing: after "---" OpenCV parses the rest of the line as the document, and a block
# sequence begun there followed by a line in the first column never ends (the old build too).
cli_test(bow_codebook_text_after_the_document_marker EXIT 3
         EXPECT --setup "${descFolder}" --setup "printf '%%YAML:1.0\\n--- - 0\\ny --\\nv\\n' > @W@/n.yml"
                --stderr "^histlab-cli: .*/n[.]yml: line 2: text after the document marker '---' [(]it stands alone on its line[)]$"
         ARGS bow histograms @W@/d --descriptor-files --codebook @W@/n.yml --device cpu)
# Found by fuzzing: XML that ends inside a tag crashed OpenCV's parser (SIGSEGV, old build too).
cli_test(bow_codebook_xml_cut_inside_a_tag EXIT 3
         EXPECT --setup "${descFolder}" --setup "printf '<?xml N=' > @W@/n.xml"
                --stderr "^histlab-cli: .*/n[.]xml: the text ends inside a tag [(]no closing '>'[)]$"
         ARGS bow histograms @W@/d --descriptor-files --codebook @W@/n.xml --device cpu)
cli_test(bow_codebook_declaring_more_than_it_holds EXIT 3
         EXPECT --setup "${descFolder}" --setup "${textGen} codebook @W@/cb.yml 2 2 && sed -i 's/rows: 2/rows: 2000000/' @W@/cb.yml"
                --stderr "^histlab-cli: .*/cb[.]yml: a matrix that declares 4000000 values and holds 4$"
         ARGS bow histograms @W@/d --descriptor-files --codebook @W@/cb.yml --device cpu)
cli_test(bow_codebook_beyond_256MiB EXIT 3
         EXPECT --setup "${descFolder}" --setup "truncate -s 300M @W@/n.yml"
                --stderr "^histlab-cli: .*/n[.]yml: 300[.]0 MiB; a codebook or descriptor file is read up to 256 MiB$"
         ARGS bow histograms @W@/d --descriptor-files --codebook @W@/n.yml --device cpu)
# NaN words were nearest to nothing: every descriptor went to word 0, verified.
cli_test(bow_codebook_of_nan EXIT 3
         EXPECT --setup "${descFolder}" --setup "${textGen} codebook @W@/cb.yml 2 2 .Nan"
                --stderr "^histlab-cli: .*/cb[.]yml: row 1, column 1: nan is not a finite number$"
         ARGS bow histograms @W@/d --descriptor-files --codebook @W@/cb.yml --device cpu)
cli_test(bow_nan_descriptors_are_a_row EXIT 0
         EXPECT --setup "${descFolder}" --setup "${goodBook}"
                --setup "printf '1,2\\nnan,3\\n' > @W@/d/n.csv && printf '1,2\\n1e39,3\\n' > @W@/d/o.csv"
                --stdout "^  n[.]csv: line 2, column 1: 'nan' is not a finite number$"
                --stdout "^  o[.]csv: line 2, column 1: '1e39' is not a finite number$"
         ARGS bow histograms @W@/d --descriptor-files --codebook @W@/cb.yml --device cpu)
cli_test(bow_codebook_from_nan_descriptors EXIT 3
         EXPECT --setup "mkdir -p @W@/d && printf 'nan,1\\n2,3\\n4,5\\n' > @W@/d/n.csv"
                --stderr "^histlab-cli: .*/d: no file could be described$"
                --absent @W@/cb.yml
         ARGS bow build-codebook @W@/d --descriptor-files --k 2 --out @W@/cb.yml --device cpu)
# A first row in another notation ('+1', hex) is a descriptor, not a header to skip.
cli_test(bow_descriptor_csv_numbers_in_any_notation EXIT 0
         EXPECT --setup "mkdir -p @W@/d && printf '+1,0x1p3\\n2,3\\n' > @W@/d/a.csv" --setup "${goodBook}"
                --check "grep -q '^a[.]csv,2,ok,' @W@/h.csv"
         ARGS bow histograms @W@/d --descriptor-files --codebook @W@/cb.yml --device cpu --csv @W@/h.csv)
cli_test(bow_descriptor_csv_header_only EXIT 0
         EXPECT --setup "${descFolder} && printf 'x,y\\n' > @W@/d/h.csv" --setup "${goodBook}"
                --stdout "^  h[.]csv: no descriptors in the file [(]line 1 is read as a header: 'x' is no number[)]$"
         ARGS bow histograms @W@/d --descriptor-files --codebook @W@/cb.yml --device cpu)
# SIFT on an image smaller than its pyramid: a reason, not "vector::_M_default_append".
cli_test(bow_sift_too_small_image EXIT 0
         EXPECT --setup "mkdir -p @W@/f && printf 'P5\\n1 1\\n255\\n\\x80' > @W@/f/tiny.pgm && cp '${PROJECT_SOURCE_DIR}/resources/sample.png' @W@/f/a.png"
                --stderr "tiny[.]pgm: 1 x 1 is too small for sift [(]at least 3 x 3[)]$"
         ARGS bow build-codebook @W@/f --detector sift --k 2 --out @W@/cb.yml --device cpu)
