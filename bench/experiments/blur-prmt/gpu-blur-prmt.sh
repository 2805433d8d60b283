#!/usr/bin/env bash
# Does the packed SWAR blur gain from gathering its quotients with PTX byte permutes (NV_PRMT,
# the default on NVIDIA's OpenCL) instead of shifts and masks? The blur is bound by its
# instructions on the H200 (bench/results/gpu-h200-blur-prmt-2026-11-28/README.md). Rounds that
# alternate, in the same job, the default and the same build with shifts and masks
# (HISTLAB_EXTRA_BUILD_OPTIONS="-D PRMT_OFF", appended after the plan's options), for gray 8192²
# and 32768² and RGBA 8192 × 2048 and 32768 × 8192; each run verified and timed against the copy
# kernel on the same bytes in the same run. prmt.csv: one row per run (first columns: round,
# setting), log.txt the reports.
#   source .device/gpu-env.sh && ROUNDS=2 bench/experiments/blur-prmt/gpu-blur-prmt.sh "$OUT/prmt"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
csv="$out/prmt.csv"
{
    for round in $(seq 1 "${ROUNDS:-3}"); do
        for shape in "8192 8192 1" "32768 32768 1" "8192 2048 4" "32768 8192 4"; do
            read -r w h c <<<"$shape"
            for setting in "shifts and masks" "byte permutes"; do
                extra=""
                [[ $setting == shifts* ]] && extra="-D PRMT_OFF"
                HISTLAB_EXTRA_BUILD_OPTIONS="$extra" blur_point "$round" "$setting" \
                    --synthetic random --width "$w" --height "$h" --channels "$c"
            done
        done
    done
} 2>&1 | tee "$out/log.txt"
