# Run from the tree's root on the GPU machine: ptxas' registers and spills for blur_tiled with and
# without PERSIST (gray and RGBA defaults on the H200), and the PTX of each.
set -u
source .device/gpu-env.sh >/dev/null 2>&1
here=bench/experiments/blur-persist
o=$OUT/ptx
mkdir -p "$o"
g++ -O2 -std=c++17 -o /tmp/buildlog "$here/buildlog.cpp" \
    -L"$OCL_ROOT/usr/lib/x86_64-linux-gnu" -lOpenCL || exit 1
gray="-D BORDER=2 -D NCHAN=1 -D DEPTH16=0 -D RADIUS=1 -D ROWS=8 -D PACKED=1 -D SWAR=1 -D VECS=1"
gray="$gray -D NV_PRMT=1 -D NV_SHFL=1"
rgba="-D BORDER=2 -D NCHAN=4 -D DEPTH16=0 -cl-nv-maxrregcount=64 -D RADIUS=1 -D ROWS=4"
rgba="$rgba -D PACKED=1 -D SWAR=1 -D VECS=1 -D NV_PRMT=1 -D NV_SHFL=0"
for kind in gray rgba; do
    for p in 0 1; do
        eval "opts=\$$kind"
        echo "== $kind PERSIST=$p"
        /tmp/buildlog kernels/blur.cl "-cl-nv-verbose -D PERSIST=$p $opts" "$o/$kind-p$p.ptx" |
            grep -i "blur_tiled\|registers\|spill\|stack" | head -8
    done
done
