#!/usr/bin/env bash
# The whole-array scans' tile shapes on the GPU machine (see ../shared/device/README.md):
# lookback and reduce-then-scan on 256 Mi random uint32 (1 GiB) at work-group sizes 128, 256
# and 512 and 1 to 16 uint4 vectors per work-item (--vpt), each verified and judged against the
# copy ceiling of the same run, then CUB's DeviceScan::ExclusiveSum on the same GPU in the same
# job. tiles.csv has every point, cub_scan.csv the peer, log.txt the printed reports.
# WGS, VPTS and ROUNDS narrow or repeat the sweep (a decision between two shapes, alternated).
#   source .device/gpu-env.sh && bench/experiments/scan-tiles/gpu-scan-tiles.sh "$OUT/scan"
#   WGS=256 VPTS="4 8" ROUNDS=3 bench/experiments/scan-tiles/gpu-scan-tiles.sh "$OUT/scan"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
csv="$out/tiles.csv"
{
    for round in $(seq "${ROUNDS:-1}"); do
        for wg in ${WGS:-128 256 512}; do
            for vpt in ${VPTS:-1 2 4 8 16}; do
                echo "== round $round, wg $wg, vpt $vpt"
                $cli scan --device gpu --variant lookback,reduce-then-scan --wg $wg --vpt $vpt \
                    --count 268435456 --repeat 10 --csv "$out/point.csv" | tail -2
                append_point "$out/point.csv" "$csv"
            done
        done
    done
    echo "== peer: CUB DeviceScan::ExclusiveSum, 256 Mi uint32"
    bin=$(peer cub_scan) && "$bin" 268435456 | tee "$out/cub_scan.csv"
} 2>&1 | tee "$out/log.txt"
