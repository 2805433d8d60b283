#!/usr/bin/env bash
# What NVIDIA's OpenCL compiler makes of a kernel file: its PTX (the program binary), the SASS
# that ptxas makes of it for sm_90 (the H100 and H200), registers and local memory per kernel,
# and the count of each SASS instruction of one kernel. How the blur was found to be bound by
# its instructions on the H200 (bench/results/gpu-h200-blur-prmt-2026-11-28/). Needs the CUDA
# toolkit's ptxas and cuobjdump (/usr/local/cuda/bin on the GPU machine).
#   source .device/gpu-env.sh && scripts/gpu-sass.sh kernels/blur.cl blur_tiled \
#       "$(./build-gpu/app/histlab-cli -v blur ... 2>&1 |
#          sed -n 's/.*built blur.cl.* with "\(.*\)"/\1/p')" "$OUT/gray"
# (-cl-nv-maxrregcount=N in OPTIONS is passed on to ptxas as -maxrregcount N: the PTX does not
# carry it.)
set -uo pipefail
cl=${1:?usage: gpu-sass.sh FILE.cl KERNEL OPTIONS OUTPREFIX} kernel=${2:?} options=${3-} prefix=${4:?}
export PATH=$PATH:/usr/local/cuda/bin
mkdir -p "$(dirname "$prefix")"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
tool=$scratch/program_binary
g++ -O1 -std=c++17 -o "$tool" "$(dirname "$0")/../bench/tools/program_binary.cpp" -lOpenCL || exit 1
limit=()
if [[ $options =~ -cl-nv-maxrregcount=([0-9]+) ]]; then
    limit=(-maxrregcount "${BASH_REMATCH[1]}")
fi
# (the binary ends in a NUL byte, which ptxas refuses)
"$tool" "$cl" "$options -cl-nv-verbose" 2> "$prefix.log" | tr -d '\000' > "$prefix.ptx" || exit 4
ptxas -arch=sm_90 "${limit[@]}" -v "$prefix.ptx" -o "$prefix.cubin" 2>> "$prefix.log" &&
    cuobjdump -sass "$prefix.cubin" > "$prefix.sass" || exit 4
grep -E "Compiling entry|registers|stack frame" "$prefix.log"
echo "== SASS instructions of $kernel (static count; local memory: STL/LDL)"
awk -v k="$kernel" '$1 == "Function" && $2 == ":" {on = ($3 == k); next} on' "$prefix.sass" |
    grep -oE '^\s+/\*[0-9a-f]{4,}\*/\s+(@!?U?P[0-9T] )?[A-Z0-9_.]+' | awk '{print $NF}' |
    sort | uniq -c | sort -rn | tee "$prefix.counts.txt" | head -25
