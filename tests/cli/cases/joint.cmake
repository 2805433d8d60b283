# histlab-cli joint: its cases, each with the exit code and messages --help documents.
# Two channels of one image, both methods, verified cell by cell; the entropies and MI printed.
cli_test(joint_channels EXIT 0
         EXPECT --stdout "^joint .*rgb8[.]png [(]r[)] x .*rgb8[.]png [(]g[)], 1189 pairs, 64 x 64 bins$"
                --stdout "^counted 1189, left out 0"
                --stdout "^H[(]A[)] [0-9.]+ bits, H[(]B[)] [0-9.]+ bits, H[(]A,B[)] [0-9.]+ bits$"
                --stdout "^MI [0-9.]+ bits$" --stdout "^NMI [(]H[(]A[)][+]H[(]B[)][)]/H[(]A,B[)] 1[.][0-9]+$"
                --stdout "^global .* verified$" --stdout "^local .* verified$"
                --stdout "^multipass .* verified$" --stdout "^local16 .* verified$"
                --stdout "^private .* verified$" --stdout "^tagged .* (verified|mismatch.*)$"
                --check "test $(wc -l < @W@/j.csv) -eq 65"
                --check "head -1 @W@/j.csv | grep -q '^a_bin,b0,b1,.*,b63$'"
                --stdout "^MI evaluations on the device [(]private, .*[)]: [0-9]+ per second [(]median .*verified$"
                --check "${check} json @W@/j.json --key pairs=1189 --nonempty points --nonempty mi_evaluation"
         ARGS joint ${data}/rgb8.png --channels r,g --bins 64 --method all --repeat 1
              --csv @W@/j.csv --json @W@/j.json)
# An image with itself: MI = H(A) and Studholme's NMI = 2; a mask (the image itself: its zero
# pixels are left out).
cli_test(joint_identical_masked EXIT 0
         EXPECT --stdout "^NMI [(]H[(]A[)][+]H[(]B[)][)]/H[(]A,B[)] 2[.]000000$"
                --stdout "^NMI 2 MI/[(]H[(]A[)][+]H[(]B[)][)] 1[.]000000$"
                --stdout ", mask .*gray8[.]png$" --stdout "^private .* verified$"
         ARGS joint ${data}/gray8.png ${data}/gray8.png --mask ${data}/gray8.png --repeat 1)
cli_test(joint_different_sizes EXIT 3
         EXPECT --stderr "gray8[.]png [(]37 x 23[)] and .*rgb8[.]png [(]41 x 29[)] differ in size"
         ARGS joint ${data}/gray8.png ${data}/rgb8.png)
cli_test(joint_bins_zero EXIT 2 EXPECT --stderr "--bins: 0 is out of range" ARGS joint ${data}/gray8.png --bins 0)
cli_test(joint_bins_too_many EXIT 2 EXPECT --stderr "--bins: 2048 is out of range"
         ARGS joint ${data}/gray8.png --bins 256,2048)
cli_test(joint_three_images EXIT 2 EXPECT --stderr "joint: more than two images"
         ARGS joint ${data}/gray8.png ${data}/gray8.png ${data}/gray8.png)
cli_test(joint_no_image EXIT 2 EXPECT --stderr "joint: give IMAGE_A and IMAGE_B" ARGS joint)
cli_test(joint_mask_wrong_size EXIT 3 EXPECT --stderr "rgb8[.]png: a mask is one channel of the images' size"
         ARGS joint ${data}/gray8.png ${data}/gray8.png --mask ${data}/rgb8.png)
cli_test(joint_missing_file EXIT 3 EXPECT --stderr "missing[.]png: no such file"
         ARGS joint ${data}/gray8.png missing.png)
# An absurd count is refused before anything is made: by the device's largest buffer or a
# quarter of host memory, whichever the machine hits first (PoCL's largest buffer follows memory).
cli_test(joint_absurd_count EXIT 2
         EXPECT --stderr "--count: .* (bytes a plane exceed one buffer|of synthetic data: more than a quarter of this machine's memory)"
         ARGS joint --synthetic random --count 4000000000)
cli_test(joint_synthetic EXIT 0 EXPECT --stdout "^joint synthetic smooth u8 [(]seed 1[)] x synthetic smooth u8 [(]seed 2[)], 5003 pairs"
         --stdout "^private .* verified$" ARGS joint --synthetic smooth --count 5003 --repeat 1)
# The default on a CPU device is private (a row of cells per thread, no atomics), as for
# histograms; a GPU times multipass, local16 and runs16 (and global) on the pairs.

# --- the pairs split across devices (PoCL shows two with POCL_DEVICES="pthread pthread") ------
set(twoPocl "POCL_DEVICES='pthread pthread'")
set(jointSplit --synthetic skewed --type u16 --count 300001 --bins 128,64 --repeat 1)
cli_test(joint_split_equals_one_device EXIT 0
         EXPECT --env "POCL_DEVICES=pthread pthread"
                --setup "${twoPocl} $<TARGET_FILE:histlab-cli> joint --synthetic skewed --type u16 --count 300001 --bins 128,64 --repeat 1 --device 0 --quiet --csv @W@/one.csv"
                --stdout "^joint synthetic skewed u16 [(]seed 1[)] x synthetic skewed u16 [(]seed 2[)], 300001 pairs, 128 x 64 bins, split over 2 devices$"
                --stdout "^counted 300001, left out 0" --stdout "^MI [0-9.]+ bits$"
                --stdout "^device +name .* piece pairs +share"
                --stdout "^ +0 +pthread.* verified$" --stdout "^ +1 +pthread.* verified$"
                --stdout "^end to end [(]pinned host memory -> counts on the host[)]: split [0-9.]+ ms"
                --stdout "^kernels only [(]each piece already on its device[)]: slowest device [0-9.]+ ms"
                --stdout "^verified: every device alone and the split equal the CPU reference, cell for cell$"
                --check "cmp @W@/one.csv @W@/all.csv"
                --check "${check} json @W@/s.json --key pairs=300001 --key verified=true --nonempty shares --nonempty a"
         ARGS joint ${jointSplit} --device all --csv @W@/all.csv --json @W@/s.json)
cli_test(joint_split_device_fails EXIT 0
         EXPECT --env "POCL_DEVICES=pthread pthread" --env "HISTLAB_DEVICE_FAIL=0:0"
                --setup "${twoPocl} $<TARGET_FILE:histlab-cli> joint --synthetic skewed --type u16 --count 300001 --bins 128,64 --repeat 1 --device 1 --quiet --csv @W@/one.csv"
                --stdout "^ +0 +pthread.* failed +failed on purpose [(]HISTLAB_DEVICE_FAIL=0:0[)]; its piece counted by device 1$"
                --stdout "^verified: "
                --check "cmp @W@/one.csv @W@/all.csv"
         ARGS joint ${jointSplit} --device 0,1 --csv @W@/all.csv)
cli_test(joint_split_refuses_method_list EXIT 2 EXPECT --env "POCL_DEVICES=pthread pthread"
         --stderr "^histlab-cli: --method: several devices count with one method [(]auto, or one named[)], not a list or all$"
         ARGS joint --synthetic random --count 1000 --method all --device all)

# A float range whose span does not fit a float is refused under the axis's own option.
cli_test(joint_float_range_span_overflows EXIT 2
         EXPECT --stderr "^histlab-cli: --range-a: HI - LO = 3[.]6e[+]38 is wider than a float holds"
         ARGS joint ${data}/float32.pfm ${data}/float32.pfm --range-a=-1.8e38,1.8e38)

# --- colocalisation (Coloc 2's coefficients over the counted pairs) ------------------------------
# A channel against itself: r = 1, M1 = M2 = 1, every product (a - mean)^2 >= 0 so ICQ = 0.5;
# the device's sums equal the CPU reference's.
cli_test(joint_coloc_identical EXIT 0
         EXPECT --stdout "^Pearson's r 1[.]000000 [(]below Costes' thresholds"
                --stdout "^Manders' M1 1[.]000000, M2 1[.]000000; above Costes' thresholds tM1 "
                --stdout "^Costes' thresholds A [0-9]+, B [0-9]+ on the line b = 1[.]000000 a [+] -?0[.]000000 [(]stepwise search: [0-9]+ candidates, 3 passes over the pairs[)]$"
                --stdout "^Li's ICQ 0[.]500000, pairs above both thresholds [0-9]+$"
                --stdout "^colocalisation sums on the device, exact against the CPU reference: verified$"
                --stdout "^colocalisation passes [(]wall clock, each read back[)]: device [0-9.]+ ms, CPU reference [0-9.]+ ms$"
                --check "python3 -c \"import json; c=json.load(open('@W@/j.json'))['colocalisation']; assert c['pearson']==1 and c['m1']==1 and c['icq']==0.5 and c['status']=='verified', c\""
         ARGS joint ${data}/rgb8.png --channels r,r --repeat 1 --json @W@/j.json)
# Two channels of a generated image, the second the first (a smooth pattern with noise) in one
# image and the first moved 3 pixels right in the other: Pearson's r is 1, then falls below 0.9.
cli_test(joint_coloc_shift_lowers_pearson EXIT 0
         EXPECT --setup [=[python3 -c "
import math
def save(path, shift):
    w, h = 96, 64
    px = bytearray()
    for y in range(h):
        for x in range(w):
            def v(x):
                return int(128 + 90 * math.sin(x / 2.3) * math.cos(y / 3.1) + (x * 7919 + y * 104729) % 31) % 256
            px += bytes((v(x), v(x - shift), 0))
    open(path, 'wb').write(b'P6 %d %d 255\n' % (w, h) + bytes(px))
save('@W@/same.ppm', 0)
save('@W@/shifted.ppm', 3)"]=]
                --setup "$<TARGET_FILE:histlab-cli> joint @W@/same.ppm --channels r,g --repeat 1 --quiet --json @W@/same.json"
                --stdout "^colocalisation sums on the device, exact against the CPU reference: verified$"
                --check "python3 -c \"import json; s=json.load(open('@W@/same.json'))['colocalisation']['pearson']; t=json.load(open('@W@/t.json'))['colocalisation']['pearson']; assert s==1 and t<0.9, (s, t)\""
         ARGS joint @W@/shifted.ppm --channels r,g --repeat 1 --json @W@/t.json)
# A constant channel has no variance: r, the regression line and the thresholds are undefined
# (nan, and null in the JSON), not a crash; M1 and ICQ still are: M1 = 7*31 / (7*32), B's first
# pixel being 0.
cli_test(joint_coloc_constant_is_nan EXIT 0
         EXPECT --setup "python3 -c \"open('@W@/c.pgm','wb').write(b'P5 8 4 255\\n' + bytes([7]*32)); open('@W@/v.pgm','wb').write(b'P5 8 4 255\\n' + bytes(range(32)))\""
                --stdout "^Pearson's r nan [(]undefined: a zero denominator[)]"
                --stdout "^Costes' thresholds: none [(]no regression line: zero covariance[)]$"
                --stdout "^Li's ICQ 0[.]500000, pairs above both thresholds nan [(]no thresholds[)]$"
                --check "python3 -c \"import json; c=json.load(open('@W@/j.json'))['colocalisation']; assert c['pearson'] is None and c['threshold_a'] is None and c['m1']==31/32, c\""
         ARGS joint @W@/c.pgm @W@/v.pgm --repeat 1 --json @W@/j.json)
# A mask leaves out pairs as it does for the counts (here the left half of the image): the
# masked pairs' n, and the device's sums equal the reference's.
cli_test(joint_coloc_masked EXIT 0
         EXPECT --setup "python3 -c \"open('@W@/m.pgm','wb').write(b'P5 41 29 255\\n' + bytes([0]*20 + [255]*21)*29)\""
                --stdout "^counted 609, left out 580"
                --stdout "^colocalisation sums on the device, exact against the CPU reference: verified$"
                --check "python3 -c \"import json; c=json.load(open('@W@/j.json'))['colocalisation']; assert c['pairs']==609 and c['status']=='verified', c\""
         ARGS joint ${data}/rgb8.png --channels r,g --mask @W@/m.pgm --repeat 1 --json @W@/j.json)
# The two searches on the same pair (rgb8's r,g: anti-correlated, slope -1.11): the stepwise
# search stops at its first candidate (r below is already negative), TA 9, TB 255, in three
# passes; the bisection ends at TA 11, TB 253 after 7 candidates, 9 passes. Both verified.
cli_test(joint_coloc_searches EXIT 0
         EXPECT --setup "$<TARGET_FILE:histlab-cli> joint ${data}/rgb8.png --channels r,g --bins 64 --repeat 1 --quiet --coloc bisection --json @W@/b.json"
                --stdout "^Costes' thresholds A 9, B 255 on the line b = -1[.]114176 a [+] 264[.]946398 [(]stepwise search: 1 candidate, 3 passes over the pairs[)]$"
                --stdout "^colocalisation sums on the device, exact against the CPU reference: verified$"
                --check "python3 -c \"import json; c=json.load(open('@W@/b.json'))['colocalisation']; assert (c['search'], c['threshold_a'], c['threshold_b'], c['candidates'], c['passes'], c['status'])==('bisection', 11, 253, 7, 9, 'verified'), c\""
                --check "python3 -c \"import json; c=json.load(open('@W@/s.json'))['colocalisation']; assert (c['search'], c['candidates'], c['passes'])==('stepwise', 1, 3), c\""
         ARGS joint ${data}/rgb8.png --channels r,g --bins 64 --repeat 1 --coloc stepwise --json @W@/s.json)
# --coloc off: the count and MI alone, one line saying so; the JSON says why.
cli_test(joint_coloc_off EXIT 0
         EXPECT --stdout "^colocalisation: not computed [(]--coloc off[)]$"
                --stdout "^private .* verified$"
                --check "python3 -c \"import json; c=json.load(open('@W@/j.json'))['colocalisation']; assert c['computed'] is False and c['status']=='not applicable', c\""
         ARGS joint ${data}/rgb8.png --channels r,g --repeat 1 --coloc off --json @W@/j.json)
cli_test(joint_coloc_unknown EXIT 2 EXPECT --stderr "--coloc: 'simple' is not stepwise, bisection or off"
         ARGS joint ${data}/rgb8.png --channels r,g --coloc simple)
# Float samples: the coefficients are not computed (their sums are not exact integers), one line.
cli_test(joint_coloc_float_refused EXIT 0
         EXPECT --stdout "^colocalisation: not computed for float samples [(]their sums are not exact integers; 8- and 16-bit samples are summed exactly[)]$"
                --check "python3 -c \"import json; c=json.load(open('@W@/j.json'))['colocalisation']; assert c['computed'] is False, c\""
         ARGS joint ${data}/float32.pfm ${data}/float32.pfm --repeat 1 --json @W@/j.json)
# Split over two devices: the same coefficients as on one device, every pass's sums added.
cli_test(joint_coloc_split_equals_one_device EXIT 0
         EXPECT --env "POCL_DEVICES=pthread pthread"
                --setup "${twoPocl} $<TARGET_FILE:histlab-cli> joint --synthetic skewed --type u16 --count 300001 --bins 128,64 --repeat 1 --device 0 --quiet --json @W@/one.json"
                --stdout "^Costes' thresholds A [0-9]+, B [0-9]+ on the line"
                --stdout "^colocalisation sums on the device, exact against the CPU reference: verified$"
                --check "python3 -c \"import json; a=json.load(open('@W@/one.json'))['colocalisation']; b=json.load(open('@W@/s.json'))['colocalisation']; [d.pop(k) for d in (a, b) for k in ('device_ms', 'reference_ms')]; assert a==b and a['status']=='verified', (a, b)\""
         ARGS joint ${jointSplit} --device all --json @W@/s.json)
