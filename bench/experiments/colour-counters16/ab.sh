#!/usr/bin/env bash
# 32-bit against 16-bit local counters, banked, the rest tuned: RGB and RGBA with luma, 1 GiB.
set -uo pipefail
cli=./build-gpu/app/histlab-cli
out=$1
for ch in 3 4; do
    for dist in random uniform skewed; do
        for bits in 32 16; do
            echo "== $dist c$ch counters=$bits"
            $cli histogram --synthetic $dist --size 1024 --channels $ch --variant banked \
                --counters $bits --banks $([ $bits = 16 ] && echo 16 || echo 8) --wg 512 \
                --repeat 10 --verify --json "$out/ab_${dist}_c${ch}_${bits}.json" |
                grep -E "^(config|histogram|read-only|verified)"
        done
    done
done
