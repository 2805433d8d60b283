# Run from the tree's root on the GPU machine, with timeline.patch applied (kernels/blur.cl;
# the patch also instruments copy_items in kernels/bandwidth.cl, for job2.sh):
# builds blurtimeline.cpp and records the tiled blur's timeline (8-bit gray, reflect-101, the
# H200's defaults: 8 rows, groups of 128, SWAR, permutes, shuffles) at four sizes.
set -u
source .device/gpu-env.sh >/dev/null 2>&1
here=bench/experiments/blur-timeline
o=$OUT/bt
mkdir -p "$o"
g++ -O2 -std=c++17 -o /tmp/blurtimeline "$here/blurtimeline.cpp" \
    -L"$OCL_ROOT/usr/lib/x86_64-linux-gnu" -lOpenCL || exit 1
opts="-D TIMELINE=1 -D BORDER=2 -D NCHAN=1 -D DEPTH16=0 -D RADIUS=1 -D ROWS=8 -D PACKED=1"
opts="$opts -D SWAR=1 -D VECS=1 -D NV_PRMT=1 -D NV_SHFL=1"
for spec in "4096 10 3" "8192 10 3" "16384 10 1" "32768 5 1"; do
    set -- $spec
    /tmp/blurtimeline kernels/blur.cl "$opts" $1 $1 128 8 $2 $3 > "$o/blur-$1.csv" ||
        echo "failed: $1"
done
python3 "$here/analyze.py" "$o"/blur-*.csv | tee "$o/summary.txt"
gzip "$o"/blur-4096.csv "$o"/blur-8192.csv
rm -f "$o"/blur-16384.csv "$o"/blur-32768.csv
nvidia-smi --query-gpu=name,driver_version --format=csv > "$o/nvidia-smi.csv"
tar -C "$OUT" -czf "$OUT/bt.tar.gz" bt && rm -rf "$o"
