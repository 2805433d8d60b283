#!/usr/bin/env bash
# The per-device dashboard on the GPU machine (see ../shared/device/README.md): builds
# the Qt-free core + CLI, then writes the device listing (every field of the query and the
# probes) and a dashboard run of every registered pipeline on every device (each result verified
# against its CPU reference and judged against the same run's ceilings) into one archive in the
# folder given as $1. The JSON can be laid under a later run (histlab-cli dashboard --baseline,
# or the Dashboard tab's Baseline…).
#   source .device/gpu-env.sh && bench/experiments/dashboard/gpu-dashboard.sh "$OUT/dashboard"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
{
    echo "== devices"
    $cli devices
    echo "== dashboard: every pipeline on every device, default sizes (256 MiB GPU, 64 MiB CPU)"
    $cli dashboard --device all --repeat 10 --json "$out/dashboard.json" --csv "$out/dashboard.csv"
    echo "== dashboard on the GPU at 1 GiB"
    $cli dashboard --device gpu --size 1G --repeat 10 --json "$out/dashboard_1g.json" \
        --csv "$out/dashboard_1g.csv"
} 2>&1 | tee "$out/log.txt"
tar -C "$out" -czf "$out.tar.gz" . && rm -rf "$out" && mkdir -p "$out" && mv "$out.tar.gz" "$out/"
