#!/usr/bin/env bash
# Colour frames on the GPU machine (see ../shared/device/README.md): the R, G, B(, A) and gray
# (luma) histograms of synthetic RGB and RGBA pixels, counted in one read of the interleaved
# bytes, against the read-only kernel on the same buffer, beside gray bytes of the same size:
# 1 GiB of each distribution, a 24-megapixel frame (72 MiB), the luma alone (--channel gray)
# and the channels alone (--channel r), and the stage table of the RGB frame.
#   source .device/gpu-env.sh && bench/experiments/colour/gpu-colour.sh "$OUT"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
run() { # NAME ARGS...: one histogram run, its JSON kept as NAME.json
    local name=$1
    shift
    echo "== $name: $*"
    $cli histogram "$@" --repeat 10 --verify --json "$out/$name.json" |
        grep -E "^(input|config|pass|histogram|read-only|verified|stage|\+)"
}
for dist in random uniform skewed; do
    for channels in 1 3 4; do
        run "${dist}_1024_c${channels}" --synthetic $dist --size 1024 --channels $channels
    done
done
for channels in 1 3 4; do
    run "random_72_c${channels}" --synthetic random --size 72 --channels $channels
done
for channels in 3 4; do
    run "random_1024_c${channels}_gray" --synthetic random --size 1024 --channels $channels \
        --channel gray
    run "random_1024_c${channels}_r" --synthetic random --size 1024 --channels $channels --channel r
done
run random_1024_c3_stages --synthetic random --size 1024 --channels 3 --stages
