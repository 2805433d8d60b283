# Run from the tree's root on the GPU machine, with timeline.patch applied to
# kernels/histogram256.cl: builds timeline.cpp and records the histogram's timeline at 16 MiB
# (STAGE 0 read only, 1 + counting, 3 whole; unroll 2 and 4), 64 MiB and 1 GiB (whole), in the
# shape auto picks on the H200 (32 copies, groups of 1,024, one per compute unit).
set -u
source .device/gpu-env.sh >/dev/null 2>&1
here=bench/experiments/hist-timeline
o=$OUT/tl
mkdir -p "$o"
g++ -O2 -std=c++17 -o /tmp/timeline "$here/timeline.cpp" -L"$OCL_ROOT/usr/lib/x86_64-linux-gnu" \
    -lOpenCL || exit 1
base="-D TIMELINE=1 -D LOCAL -D NCHAN=1 -D COUNT_CHANNELS=1 -D LUMA=0 -D LOAD_VEC=1"
base="$base -D READ_SERIAL=0 -D NBANKS=32 -D PCOPIES=1 -D MERGE_ATOMIC=1"
for u in 2 4; do
    for stage in 0 1 3; do
        /tmp/timeline kernels/histogram256.cl "$base -D UNROLL=$u -D STAGE=$stage" 16777216 132 \
            1024 20 > "$o/t16m-u$u-s$stage.csv" || echo "failed: 16m u$u s$stage"
    done
done
/tmp/timeline kernels/histogram256.cl "$base -D UNROLL=2 -D STAGE=3" 67108864 132 1024 20 \
    > "$o/t64m-u2-s3.csv" || echo "failed: 64m"
/tmp/timeline kernels/histogram256.cl "$base -D UNROLL=2 -D STAGE=3" 1073741824 132 1024 10 \
    > "$o/t1g-u2-s3.csv" || echo "failed: 1g"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$o/nvidia-smi.csv"
ls -la "$o" | head -20
python3 - "$o" <<'PY'
import csv, glob, os, sys, statistics as st
for f in sorted(glob.glob(sys.argv[1] + '/t*.csv')):
    rows = list(csv.DictReader(open(f)))
    if not rows:
        continue
    ev = st.median([int(r['event_end']) - int(r['event_start']) for r in rows])
    by = {}
    for r in rows:
        by.setdefault(r['launch'], []).append(r)
    spans = []
    for l, g in by.items():
        t0 = min(int(r['mark0']) for r in g)
        spans.append((max(int(r['mark0']) for r in g) - t0, st.median([int(r['mark2']) - int(r['mark0']) for r in g]),
                      max(int(r['mark3']) for r in g) - t0, int(g[0]['event_start']) - t0))
    print(os.path.basename(f), 'event %.2f us' % (ev / 1e3),
          'start spread %.2f, mark0->2 %.2f, first start->last end %.2f, event start - first mark0 %.2f (us, medians)'
          % tuple(st.median([s[i] for s in spans]) / 1e3 for i in range(4)))
PY
tar -C "$OUT" -czf "$OUT/tl.tar.gz" tl && rm -rf "$o"
