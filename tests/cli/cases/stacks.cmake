# Stacks: --page all and --page A-B count the pages of a multi-page TIFF (made at test time by
# scripts/make-stack-tiff.py, Python's standard library only) one at a time; the stack's
# histogram is the sum of the pages' own runs, each page has its statistics, and ranges the
# file does not hold, mixed pages and damaged pages are refused with one line.
set(stack "python3 ${PROJECT_SOURCE_DIR}/scripts/make-stack-tiff.py")
set(cli $<TARGET_FILE:histlab-cli>)
# Sums the count columns (from the 4th) of the CSV files given after the first, which must equal
# the first's.
set(sumCheck "import csv,sys; t=list(csv.reader(open(sys.argv[1]))); ps=[list(csv.reader(open(f))) for f in sys.argv[2:]]; assert all(p[0]==t[0] and len(p)==len(t) for p in ps); assert all(int(t[i][j])==sum(int(p[i][j]) for p in ps) for i in range(1,len(t)) for j in range(3,len(t[0]))), 'not the sum'; assert sum(int(x) for r in t[1:] for x in r[3:])>0")

cli_test(stack_histogram_is_the_sum_of_its_pages EXIT 0
         EXPECT --setup "${stack} @W@/s.tif --pages 4 --width 40 --height 30 --channels 3"
                --stdout "^input: .*s[.]tif, pages 1 to 4 of 4, 40 x 30, 3 channels, 8-bit"
                --stdout "^ +4  gray +40 x 30 +1200 .* verified$"
                --check "for p in 1 2 3 4; do ${cli} histogram @W@/s.tif --page $p --bins 256 --quiet --csv @W@/p$p.csv || exit 1; done; python3 -c \"${sumCheck}\" @W@/all.csv @W@/p1.csv @W@/p2.csv @W@/p3.csv @W@/p4.csv"
         ARGS histogram @W@/s.tif --page all --repeat 1 --csv @W@/all.csv)
cli_test(stack_largebin_range_is_the_sum_of_its_pages EXIT 0
         EXPECT --setup "${stack} @W@/s.tif --pages 5 --width 33 --height 17 --bits 16"
                --stdout "^input: .*s[.]tif, pages 2 to 4 of 5, 33 x 17, 1 channel, 16-bit"
                --check "for p in 2 3 4; do ${cli} largebin @W@/s.tif --page $p --bins 1000 --quiet --counts @W@/p$p.csv || exit 1; done; python3 -c \"${sumCheck}\" @W@/c.csv @W@/p2.csv @W@/p3.csv @W@/p4.csv"
                --check "grep -q '^page,channel,count,min,max,mean,median,mode,stddev,p1,p5,p10,p25,p75,p90,p95,p99,entropy_bits,status$' @W@/pages.csv"
                --check "test $(grep -c '^[234],gray,561,.*,verified$' @W@/pages.csv) = 3 && grep -q '^all,gray,1683,' @W@/pages.csv"
         ARGS largebin @W@/s.tif --page 2-4 --bins 1000 --repeat 1 --counts @W@/c.csv --csv @W@/pages.csv)
cli_test(stack_stats_csv_and_json EXIT 0
         EXPECT --setup "${stack} @W@/s.tif --pages 3 --width 16 --height 8"
                --check "test $(wc -l < @W@/st.csv) = 5 && grep -q '^all,gray,384,' @W@/st.csv"
                --check "python3 -c \"import json; j=json.load(open('@W@/s.json')); assert [p['page'] for p in j['pages']]==[1,2,3] and j['stack']['pages_in_file']==3 and sum(j['channels'][0]['counts'])==384\""
         ARGS histogram @W@/s.tif --page all --repeat 1 --quiet --stats-csv @W@/st.csv --json @W@/s.json)
# Pages may differ in size (said in the report), not in depth or channels.
cli_test(stack_sizes_differ EXIT 0
         EXPECT --setup "${stack} @W@/s.tif --pages 3 --width 16 --height 8 --page-size 2:9x5"
                --stdout "pages 1 to 3 of 3 [(]sizes differ: the first page's shown[)]"
                --stdout "^ +2  gray +9 x 5 +45 "
         ARGS histogram @W@/s.tif --page all --repeat 1)
cli_test(stack_mixed_depth_refused EXIT 3
         EXPECT --setup "${stack} @W@/s.tif --pages 4 --width 16 --height 8 --page-bits 3:16"
                --stderr "^histlab-cli: .*s[.]tif, page 3: 16-bit, 1 channel where page 1 is 8-bit, 1 channel [(]the pages of a stack share their channels and depth[)]$"
                --absent @W@/c.csv
         ARGS histogram @W@/s.tif --page all --csv @W@/c.csv)
cli_test(stack_truncated_page_refused EXIT 3
         EXPECT --setup "${stack} @W@/s.tif --pages 4 --width 16 --height 8 --cut-page 4"
                --stderr "^histlab-cli: .*s[.]tif, page 4 of 4: damaged or truncated TIFF"
         ARGS largebin @W@/s.tif --page 2-4)
cli_test(stack_range_past_the_last_page EXIT 2
         EXPECT --setup "${stack} @W@/s.tif --pages 12 --width 4 --height 4"
                --stderr "^histlab-cli: --page: .*s[.]tif has 12 pages, not a page 13$"
         ARGS histogram @W@/s.tif --page 3-13)
cli_test(stack_range_backwards EXIT 2
         EXPECT --stderr "^histlab-cli: --page: '5-3': the last page [(]3[)] comes before the first [(]5[)]$"
         ARGS largebin ${data}/pages3.tiff --page 5-3)
cli_test(stack_range_from_zero EXIT 2
         EXPECT --stderr "^histlab-cli: --page: '0-2': pages count from 1$"
         ARGS histogram ${data}/pages3.tiff --page 0-2)
cli_test(stack_range_not_a_range EXIT 2
         EXPECT --stderr "^histlab-cli: --page: '2-x' is not a page range [(]all, or A-B: whole numbers from 1, both pages included[)]$"
         ARGS histogram ${data}/pages3.tiff --page 2-x)
cli_test(stack_not_for_one_page_commands EXIT 2
         EXPECT --stderr "^histlab-cli: --page: 'all': blur reads one page [(]--page N[)]; histogram, largebin and joint count a stack$"
         ARGS blur ${data}/pages3.tiff --page all --out @W@/x.png)
cli_test(stack_of_one_image EXIT 0
         EXPECT --stdout "^input: .*rgb8[.]png, pages 1 to 1 of 1, 41 x 29, 3 channels, 8-bit"
         ARGS histogram ${data}/rgb8.png --page all --repeat 1)
# joint: page P of A against page P of B (here two channels of each page); the stack's table is
# the sum of the pages' tables, and each page has its entropies and MI.
set(jointSumCheck "import csv,sys; t=list(csv.reader(open(sys.argv[1]))); ps=[list(csv.reader(open(f))) for f in sys.argv[2:]]; assert all(p[0]==t[0] and len(p)==len(t) for p in ps); assert all(int(t[i][j])==sum(int(p[i][j]) for p in ps) for i in range(1,len(t)) for j in range(1,len(t[0]))), 'not the sum'")
cli_test(stack_joint_is_the_sum_of_its_pages EXIT 0
         EXPECT --setup "${stack} @W@/s.tif --pages 3 --width 20 --height 10 --channels 3"
                --stdout "^ +3 +200 +([0-9.]+ +){6}[0-9]+ +[0-9]+  verified$"
                --check "for p in 1 2 3; do ${cli} joint @W@/s.tif --channels r,b --page $p --quiet --csv @W@/p$p.csv || exit 1; done; python3 -c \"${jointSumCheck}\" @W@/all.csv @W@/p1.csv @W@/p2.csv @W@/p3.csv"
                --check "grep -q '^page,pairs,counted,entropy_a,entropy_b,joint_entropy,mi,nmi_studholme,nmi_arithmetic,nmi_geometric,status,detail,pearson,pearson_below,pearson_above,m1,m2,tm1,tm2,threshold_a,threshold_b,icq,above_both,coloc_status$' @W@/pages.csv && test $(grep -c '^[123],200,200,.*,verified,,.*,verified$' @W@/pages.csv) = 3 && grep -q '^all,600,600,.*,verified$' @W@/pages.csv"
         ARGS joint @W@/s.tif --channels r,b --page all --repeat 1 --csv @W@/all.csv --pages-csv @W@/pages.csv)
# The stack's colocalisation is that of all its pages' pairs: the same coefficients and
# thresholds as one image made of the three pages one above the other (read from the TIFF's
# strips here); each page has its own, verified, in the pages' table and JSON.
cli_test(stack_joint_colocalisation_of_all_pages EXIT 0
         EXPECT --setup "${stack} @W@/s.tif --pages 3 --width 20 --height 10 --channels 3 --focus"
                --setup [=[python3 -c "
import struct
d = open('@W@/s.tif', 'rb').read()
at, px = struct.unpack_from('<I', d, 4)[0], b''
while at:
    n = struct.unpack_from('<H', d, at)[0]
    e = {t: v for t, k, c, v in (struct.unpack_from('<HHII', d, at + 2 + 12 * i) for i in range(n))}
    px += d[e[273]:e[273] + e[279]]
    at = struct.unpack_from('<I', d, at + 2 + 12 * n)[0]
open('@W@/tall.ppm', 'wb').write(b'P6 20 30 255' + bytes([10]) + px)"]=]
                --setup "${cli} joint @W@/tall.ppm --channels r,g --repeat 1 --quiet --json @W@/tall.json"
                --stdout "^Costes' thresholds A [0-9]+, B [0-9]+ on the line .*stepwise search: [0-9]+ candidates, 3 passes over the pairs[)]$"
                --stdout "^colocalisation sums on the device, exact against the CPU reference: verified$"
                --stdout "^ +2 +200 +([0-9.]+ +){6}[0-9]+ +[0-9]+  verified$"
                --check [=[python3 -c "
import json
s, t = (json.load(open('@W@/' + f))['colocalisation'] for f in ('s.json', 'tall.json'))
keys = ['pairs', 'pearson', 'pearson_below', 'pearson_above', 'm1', 'm2', 'tm1', 'tm2', 'threshold_a', 'threshold_b', 'slope', 'icq', 'above_both', 'candidates']
assert [s[k] for k in keys] == [t[k] for k in keys], (s, t)
pages = json.load(open('@W@/s.json'))['pages']
assert [p['colocalisation']['status'] for p in pages] == ['verified'] * 3, pages"]=]
         ARGS joint @W@/s.tif --channels r,g --page all --repeat 1 --json @W@/s.json)
cli_test(stack_joint_two_stacks_of_other_lengths EXIT 2
         EXPECT --setup "${stack} @W@/a.tif --pages 3 --width 8 --height 4 && ${stack} @W@/b.tif --pages 2 --width 8 --height 4"
                --stderr "^histlab-cli: --page: .*b[.]tif has 2 pages, .*a[.]tif 3 [(]'all' pairs the pages of stacks of one length[)]$"
         ARGS joint @W@/a.tif @W@/b.tif --page all)
cli_test(stack_joint_range_of_two_stacks EXIT 0
         EXPECT --setup "${stack} @W@/a.tif --pages 3 --width 8 --height 4 && ${stack} @W@/b.tif --pages 2 --width 8 --height 4"
                --stdout "^ +2 +32 .* verified$"
         ARGS joint @W@/a.tif @W@/b.tif --page 1-2 --repeat 1)
# batch: every page of a multi-page TIFF is its own row, FILE#P (from 1), counted as
# `histogram --page P` counts it; a file of one page keeps its name; shards (by file) merged
# keep the page rows.
cli_test(stack_batch_rows_per_page EXIT 0
         EXPECT --setup "mkdir @W@/in && ${stack} @W@/in/s.tif --pages 3 --width 8 --height 4 && ${stack} @W@/in/one.tif --pages 1 --width 8 --height 4"
                --stdout "^batch: histogram of 4 images in "
                --check "grep -q '^one[.]tif,verified,,8,4,1,8,gray,' @W@/b.csv && test $(grep -c '^s[.]tif#[123],verified,,8,4,1,8,gray,' @W@/b.csv) = 3"
                --check "${cli} histogram @W@/in/s.tif --page 2 --quiet --csv @W@/p2.csv && python3 -c \"import csv; r=[x for x in csv.reader(open('@W@/b.csv')) if x[0]=='s.tif#2'][0]; p=[int(x[1]) for x in list(csv.reader(open('@W@/p2.csv')))[1:]]; assert [int(v) for v in r[8:]]==p, 'page 2 differs'\""
                --check "${cli} batch @W@/in --shard 0/2 --quiet --csv @W@/s0.csv && ${cli} batch @W@/in --shard 1/2 --quiet --csv @W@/s1.csv && ${cli} merge @W@/s0.csv @W@/s1.csv --quiet --csv @W@/m.csv && cmp @W@/m.csv @W@/b.csv"
         ARGS batch @W@/in --csv @W@/b.csv)
# A mask is one image applied to every page of a joint stack; float pages are counted one at a
# time only.
cli_test(stack_joint_mask_on_every_page EXIT 0
         EXPECT --setup "${stack} @W@/s.tif --pages 3 --width 8 --height 4 --channels 3 && python3 -c \"import struct,zlib; c=lambda t,d: struct.pack('>I',len(d))+t+d+struct.pack('>I',zlib.crc32(t+d)); raw=b''.join(b'\\\\0'+bytes([255]*4+[0]*4) for y in range(4)); open('@W@/m.png','wb').write(b'\\\\x89PNG\\\\r\\\\n\\\\x1a\\\\n'+c(b'IHDR',struct.pack('>IIBBBBB',8,4,8,0,0,0,0))+c(b'IDAT',zlib.compress(raw))+c(b'IEND',b''))\""
                --check "test $(grep -c '^[123],32,16,.*,verified,,.*,verified$' @W@/p.csv) = 3 && grep -q '^all,96,48,' @W@/p.csv"
         ARGS joint @W@/s.tif --channels r,g --page all --mask @W@/m.png --repeat 1 --quiet --pages-csv @W@/p.csv)
# --page N reads that page of the images and the first page of the mask (it had asked the
# mask for page N: "m.png has 1 page").
cli_test(stack_joint_mask_with_one_page EXIT 0
         EXPECT --setup "${stack} @W@/s.tif --pages 3 --width 8 --height 4 --channels 3 && python3 -c \"import struct,zlib; c=lambda t,d: struct.pack('>I',len(d))+t+d+struct.pack('>I',zlib.crc32(t+d)); raw=b''.join(b'\\\\0'+bytes([255]*4+[0]*4) for y in range(4)); open('@W@/m.png','wb').write(b'\\\\x89PNG\\\\r\\\\n\\\\x1a\\\\n'+c(b'IHDR',struct.pack('>IIBBBBB',8,4,8,0,0,0,0))+c(b'IDAT',zlib.compress(raw))+c(b'IEND',b''))\""
                --stdout "page 2 of 3"
                --stdout "^counted 16, left out 16"
         ARGS joint @W@/s.tif --channels r,g --page 2 --mask @W@/m.png --repeat 1)
cli_test(stack_float_pages_refused EXIT 2
         EXPECT --stderr "^histlab-cli: --page: .*float_edges[.]tiff holds 32-bit float pages: a stack's histogram is of 8- or 16-bit pages [(]read a float page with --page N[)]$"
         ARGS histogram ${data}/float_edges.tiff --page all)
