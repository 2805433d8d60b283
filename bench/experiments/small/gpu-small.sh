#!/usr/bin/env bash
# What bounds the 256-bin histogram on small inputs, on the GPU machine (see
# ../shared/device/README.md): the stage table (read-only probe, + scatter into local copies, +
# local reduce, + global merge, each its own launch of the same configuration) of random bytes
# from 1 MiB to 1 GiB, the configuration auto picks at each size class, and the read-only
# ceiling at the same size; then the 16 MiB histogram with fewer and more groups per compute
# unit and fewer local copies. stages.txt has the printed tables, small.json one JSON per run.
#   source .device/gpu-env.sh && bench/experiments/small/gpu-small.sh "$OUT/small"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
{
    for mib in 1 4 16 64 256 1024; do
        echo "== $mib MiB random, auto"
        $cli histogram --device gpu --synthetic random --size $mib --stages --repeat 20 --verify \
            --json "$out/auto_${mib}.json" | grep -vE "^(gray \||stats|gray  )"
    done
    for spec in "--groups-per-cu 1" "--groups-per-cu 2" "--groups-per-cu 8" \
        "--variant banked --banks 4" "--variant banked --banks 8" "--variant local"; do
        echo "== 16 MiB random, $spec"
        $cli histogram --device gpu --synthetic random --size 16 --stages --repeat 20 --verify \
            $spec | grep -vE "^(gray \||stats|gray  )"
    done
} 2>&1 | tee "$out/stages.txt"
