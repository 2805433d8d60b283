#!/usr/bin/env bash
# Equalization on the GPU machine (see ../shared/device/README.md): the gather's configurations
# (where the table is read, groups per compute unit, loads in flight) on a 32768 x 32768 random
# 8-bit gray image, then the defaults on every distribution and format, then the dashboard's
# equalize entry with the ceilings at 1 GiB. Each run is verified against the CPU reference;
# equalize.csv has one row per run (stage medians in ms), log.txt the printed reports.
#   source .device/gpu-env.sh && bench/experiments/equalize/gpu-equalize.sh "$OUT/equalize"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
csv="$out/equalize.csv"
echo "image,gather,histogram_ms,cdf_ms,lut_ms,apply_ms,total_ms,verified" > "$csv"
# run IMAGE-ARGS... : one equalization, its report into log.txt and its row into equalize.csv.
run() {
    local text
    text=$($cli equalize --device gpu --repeat 10 "$@" 2>&1)
    echo "-- $*"
    echo "$text"
    echo "$text" | awk -v args="$*" '
        /^gather:/ { sub(/^gather: /, ""); gather = $0 }
        /^(histogram|cdf|lut|apply|total) / { ms[$1] = $2 }
        /^verified:/ { ok = ($2 == "yes,") ? "yes" : "no" }
        END { printf "\"%s\",\"%s\",%s,%s,%s,%s,%s,%s\n", args, gather, ms["histogram"],
              ms["cdf"], ms["lut"], ms["apply"], ms["total"], ok }' >> "$csv"
}
{
    big="--synthetic random --width 32768 --height 32768"
    echo "== the gather's configurations, $big"
    for lut in global local lanes; do
        run $big --lut $lut --groups-per-cu all --unroll 1
        for g in 4 8; do
            for u in 1 4; do
                run $big --lut $lut --groups-per-cu $g --unroll $u
            done
        done
    done
    echo "== defaults"
    for dist in random uniform skewed gradient; do
        run --synthetic $dist --width 32768 --height 32768
        run --synthetic $dist --width 8192 --height 8192
    done
    for spec in "--channels 3" "--channels 4" "--depth 16" "--channels 3 --depth 16"; do
        run --synthetic random --width 8192 --height 8192 $spec
    done
    echo "== dashboard: equalize and the ceilings, 1 GiB"
    $cli dashboard --device gpu --pipeline read-only,copy,equalize --size 1G --repeat 10 \
        --json "$out/dashboard_equalize_1g.json" --csv "$out/dashboard_equalize_1g.csv"
} 2>&1 | tee "$out/log.txt"
