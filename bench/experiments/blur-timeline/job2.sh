# Run from the tree's root on the GPU machine, with timeline.patch applied (kernels/blur.cl and
# kernels/bandwidth.cl): the blur's timeline beside the copy kernel's (copy_items, groups of 256,
# as HistLab's copy ceiling launches it) on the same bytes, alternated twice.
set -u
source .device/gpu-env.sh >/dev/null 2>&1
here=bench/experiments/blur-timeline
o=$OUT/bt2
mkdir -p "$o"
g++ -O2 -std=c++17 -o /tmp/blurtimeline "$here/blurtimeline.cpp" \
    -L"$OCL_ROOT/usr/lib/x86_64-linux-gnu" -lOpenCL || exit 1
opts="-D TIMELINE=1 -D BORDER=2 -D NCHAN=1 -D DEPTH16=0 -D RADIUS=1 -D ROWS=8 -D PACKED=1"
opts="$opts -D SWAR=1 -D VECS=1 -D NV_PRMT=1 -D NV_SHFL=1"
for round in 1 2; do
    for side in 4096 8192; do
        /tmp/blurtimeline kernels/blur.cl "$opts" $side $side 128 8 10 3 \
            > "$o/blur-$side-r$round.csv" || echo "failed: blur $side"
        /tmp/blurtimeline kernels/bandwidth.cl "-D TIMELINE=1 -D WIDTH=4" $side $side 256 1 10 3 \
            copy > "$o/copy-$side-r$round.csv" || echo "failed: copy $side"
    done
done
python3 "$here/analyze.py" "$o"/blur-*.csv "$o"/copy-*.csv | tee "$o/summary2.txt"
gzip "$o"/copy-4096-r1.csv
rm -f "$o"/*.csv
tar -C "$OUT" -czf "$OUT/bt2.tar.gz" bt2 && rm -rf "$o"
