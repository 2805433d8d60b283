#!/usr/bin/env bash
# Colour frames on the GPU machine (see ../shared/device/README.md): the R, G, B(, A) and gray
# (luma) histograms of synthetic RGB and RGBA pixels, 1 GiB and a 24-megapixel frame (72 MiB),
# against the read-only kernel on the same buffer, beside gray bytes of the same sizes. Today a
# colour image takes two device passes (its channels, then the luma conversion and the gray
# histogram); this is what one read has to beat.
#   source .device/gpu-env.sh && scripts/gpu-colour.sh "$OUT"
set -uo pipefail
source "$(dirname "$0")/gpu-common.sh" "${1:-}"
for size in 1024 72; do
    for dist in random uniform skewed; do
        for channels in 1 3 4; do
            echo "== $dist $size MiB, $channels channel(s)"
            $cli histogram --synthetic $dist --size $size --channels $channels --repeat 10 \
                --verify --json "$out/${dist}_${size}_c${channels}.json" |
                grep -E "^(input|config|pass|histogram|luma|read-only|verified)"
        done
    done
done
