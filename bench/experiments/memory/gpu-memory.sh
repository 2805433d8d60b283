#!/usr/bin/env bash
# Memory lab benchmarks on the GPU machine (see ../shared/device/README.md): builds
# the Qt-free core + CLI, then writes every run's JSON/CSV and the printed tables (log.txt) into
# one archive in the folder given as $1 (the device tool brings back a limited number of files).
# Every reversal is verified byte for byte and timed next to the copy kernel on the same bytes in
# the same run; every transfer is verified after each run.
#   source .device/gpu-env.sh && bench/experiments/memory/gpu-memory.sh "$OUT/memory"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
{
    echo "== reversal, every kernel: 16 MiB ... 1 GiB (GB/s = bytes read + written)"
    for size in 16M 64M 256M 1G; do
        $cli reverse --device gpu --size $size --kernel all --repeat 20 \
            --json "$out/reverse_$size.json" --csv "$out/reverse_$size.csv"
    done
    echo "== reversal, 1 GiB + 3 bytes: unaligned loads and the tail in the kernel"
    $cli reverse --device gpu --size 1073741827 --repeat 10 --csv "$out/reverse_1G+3.csv"
    echo "== reversal, work-group sizes (256 MiB)"
    for wg in 64 128 256 512 1024; do
        echo "-- wg $wg"
        $cli reverse --device gpu --size 256M --kernel all --wg $wg --repeat 20 \
            --csv "$out/reverse_wg$wg.csv" 2>/dev/null | grep -vE "^(reverse|device) "
    done
    echo "== the reference text's command line, 256 MiB of random bytes in a file"
    head -c 268435456 /dev/urandom > "$scratch/random.bin"
    $cli reverse --device gpu --input "$scratch/random.bin" --timing --repeat 10 --verify
    echo "== bandwidth ceilings per vector width, 1 GiB of random bytes"
    $cli memory --device gpu --ceilings --ceiling-size 1G --repeat 20 \
        --json "$out/ceilings.json" --csv "$out/ceilings.csv"
    echo "== transfers 4 KiB ... 1 GiB and kernel launch latency"
    $cli memory --device gpu --transfers --max-size 1G --repeat 10 \
        --json "$out/transfers.json" --csv "$out/transfers.csv"
} 2>&1 | tee "$out/log.txt"
tar -C "$out" -czf "$out.tar.gz" . && rm -rf "$out" && mkdir -p "$out" && mv "$out.tar.gz" "$out/"
