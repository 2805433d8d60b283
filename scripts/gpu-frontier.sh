#!/usr/bin/env bash
# Every figure of the performance frontier on a GPU machine in one command (see
# ../shared/device/README.md and the README's "The performance frontier (generated)"): the
# dashboard at 1 GiB, 64 MiB and 16 MiB (each result verified and judged against the same run's ceilings, each ceiling the
# fastest run of its family of kernels), the RGBA blur, the colour histograms in one read (1 GiB
# and a 24-megapixel RGB frame), and CUB's scan next to cudaMemcpy on the same GPU. The
# results go into one archive in the folder given as $1; scripts/frontier-table.py turns the
# unpacked folder into the README's tables and dashboard_1g.json is the baseline the next run is
# compared with (histlab-cli dashboard --baseline).
# A second argument runs one part, for machines whose commands are cut at ten minutes:
# "dashboards" (the three sizes) or "rest" (blur RGBA, colour, CUB); the default is both.
#   source .device/gpu-env.sh && scripts/gpu-frontier.sh "$OUT/frontier" [dashboards|rest]
set -uo pipefail
part=${2:-all}
source "$(dirname "$0")/gpu-common.sh" "${1:-}"
{
    date -u +"== start %FT%TZ"
    $cli devices
    [[ $part == rest ]] || for size in 1G 64M 16M; do
        echo "== dashboard on the GPU at $size"
        $cli dashboard --device gpu --size $size --repeat 10 --json "$out/dashboard_${size,,}.json" \
            --csv "$out/dashboard_${size,,}.csv" --note "scripts/gpu-frontier.sh"
    done
    [[ $part == dashboards ]] || for side in 8192 32768; do
        echo "== blur 3 x 3, RGBA, $side x $((side / 4)) (the bytes of a $side² gray image)"
        $cli blur --device gpu --synthetic random --width $side --height $((side / 4)) --channels 4 \
            --variant auto --radius 1 --repeat 10 --json "$out/blur_rgba_$side.json"
    done
    [[ $part == dashboards ]] || for spec in "1024 3" "1024 4" "72 3"; do
        set -- $spec
        echo "== histogram, all channels + luma in one read, $1 MiB, $2 channels"
        $cli histogram --device gpu --synthetic random --size $1 --channels $2 --repeat 10 \
            --verify --json "$out/colour_${1}_c$2.json" | grep -E "^(input|config|pass|read-only|verified)"
    done
    if [[ $part != dashboards ]]; then
        echo "== peer: CUB DeviceScan::ExclusiveSum, 256 Mi uint32"
        bin=$(peer cub_scan) && "$bin" 268435456 | tee "$out/cub_scan.csv"
    fi
    date -u +"== end %FT%TZ"
} 2>&1 | tee "$out/log-$part.txt"
tar -C "$out" -czf "$out.tar.gz" . && rm -rf "$out" && mkdir -p "$out" && mv "$out.tar.gz" "$out/"
