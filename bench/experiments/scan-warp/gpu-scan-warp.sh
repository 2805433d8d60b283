#!/usr/bin/env bash
# Whole-array scans with and without warp shuffles (NVIDIA only: --warp 1 builds the scan's
# group scan, transposition and look-back with inline PTX), alternated over ROUNDS rounds on 256
# Mi random uint32 at each wg,vpt of SHAPES, each point verified against the CPU reference and
# judged against the same run's copy ceiling; edge cases (odd counts, inclusive, ones and max
# values) verified with warp shuffles; the plan's default shape; then CUB's
# DeviceScan::ExclusiveSum on the same GPU in the same job. points.csv has every point (its
# first column the --warp asked), log.txt the printed reports.
#   source .device/gpu-env.sh && bench/experiments/scan-warp/gpu-scan-warp.sh "$OUT/scan-warp"
#   ROUNDS=3 MODES="0 1" SHAPES="128,8 256,4" bench/experiments/scan-warp/gpu-scan-warp.sh "$OUT/scan-warp"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
csv="$out/points.csv"
{
    date -u +"== start %FT%TZ"
    for count in 1 31 1000003 8193 65537; do
        for extra in "" "--inclusive" "--dist max" "--dist ones"; do
            echo "== edge: --warp 1, count $count $extra"
            $cli scan --device gpu --variant lookback,reduce-then-scan --warp 1 \
                --count $count $extra --repeat 1 | grep -E "^(lookback|reduce)"
        done
    done
    for round in $(seq "${ROUNDS:-3}"); do
        for shape in ${SHAPES:-256,8 256,4 128,8 512,4 128,16}; do
            set -- ${shape/,/ }
            for warp in ${MODES:-0 1}; do
                echo "== round $round, wg $1, vpt $2, warp $warp"
                $cli scan --device gpu --variant lookback,reduce-then-scan --warp $warp \
                    --wg $1 --vpt $2 --count 268435456 --repeat 10 --csv "$out/point.csv" | tail -3
                append_point "$out/point.csv" "$csv" warp_asked "$warp"
            done
        done
    done
    echo "== the plan's default shape"
    $cli scan --device gpu --variant lookback,reduce-then-scan --count 268435456 --repeat 10 \
        --json "$out/default.json" | tail -3
    echo "== peer: CUB DeviceScan::ExclusiveSum, 256 Mi uint32"
    bin=$(peer cub_scan) && "$bin" 268435456 | tee "$out/cub_scan.csv"
    date -u +"== end %FT%TZ"
} 2>&1 | tee "$out/log.txt"
tar -C "$out" -czf "$out.tar.gz" . && rm -rf "$out" && mkdir -p "$out" && mv "$out.tar.gz" "$out/"
