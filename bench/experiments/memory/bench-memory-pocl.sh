#!/usr/bin/env bash
# The memory lab on this machine's CPU device (PoCL), modest sizes: the reversal's
# kernels at 16 and 64 MiB against the copy kernel of the same run, the ceilings per vector width
# and the transfer sweep up to 64 MiB. Run it on an idle machine (not while building). Writes
# CSV/JSON and log.txt to $1.
#   bench/experiments/memory/bench-memory-pocl.sh bench/results/pocl-memory-$(date -u +%F) [BUILD_DIR]
set -uo pipefail
out=${1:?usage: bench-memory-pocl.sh OUTDIR [BUILD_DIR]}
build=${2:-build}
mkdir -p "$out"
cli=$build/app/histlab-cli
{
    echo "== reversal, every kernel, 16 and 64 MiB (GB/s = bytes read + written)"
    for size in 16M 64M; do
        $cli reverse --device cpu --size $size --kernel all --repeat 7 \
            --json "$out/reverse_$size.json" --csv "$out/reverse_$size.csv"
    done
    echo "== reversal, 64 MiB + 3 bytes: unaligned loads and the tail in the kernel"
    $cli reverse --device cpu --size 67108867 --repeat 7 --csv "$out/reverse_64M+3.csv"
    echo "== bandwidth ceilings per vector width, 64 MiB"
    $cli memory --device cpu --ceilings --ceiling-size 64M --repeat 7 \
        --json "$out/ceilings.json" --csv "$out/ceilings.csv"
    echo "== transfers 4 KiB ... 64 MiB and kernel launch latency"
    $cli memory --device cpu --transfers --max-size 64M --repeat 5 \
        --json "$out/transfers.json" --csv "$out/transfers.csv"
} 2>&1 | tee "$out/log.txt"
