#!/usr/bin/env bash
# Joint histograms on the GPU machine (see ../shared/device/README.md): 256 x 256 of two 8192 x
# 8192 8-bit planes (synthetic: random, and smooth pairs that share their ramp), 1024 x 1024,
# 16-bit planes, every joint method verified cell by cell, and MI evaluations per second (count,
# entropies on the device, read back); beside them the 65,536-bin histogram of as many 16-bit
# samples (the same bytes as one pair of 8-bit planes), and the dashboard's largebin and joint
# entries at 1 GiB. JSON/CSV and log.txt in $1.
#   source .device/gpu-env.sh && bench/experiments/joint/gpu-joint.sh "$OUT/joint"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
n=67108864 # 8192 x 8192
{
    for data in random smooth; do
        echo "== joint 256 x 256, two 8192 x 8192 8-bit planes, $data"
        $cli joint --device gpu --synthetic $data --type u8 --count $n --bins 256 --method all \
            --repeat 10 --json "$out/joint_u8_256_$data.json"
    done
    echo "== joint 1024 x 1024, 8-bit, smooth"
    $cli joint --device gpu --synthetic smooth --type u8 --count $n --bins 1024 --method all \
        --repeat 10 --json "$out/joint_u8_1024_smooth.json"
    echo "== joint 256 x 256, 16-bit planes, smooth"
    $cli joint --device gpu --synthetic smooth --type u16 --count $n --bins 256 --method all \
        --repeat 10 --json "$out/joint_u16_256_smooth.json"
    echo "== 65,536-bin histogram of $n 16-bit samples (the bytes of one 8-bit pair)"
    for data in random smooth; do
        $cli largebin --device gpu --type u16 --data $data --count $n --bins 65536 --method all \
            --repeat 10 --csv "$out/largebin_u16_65536_$data.csv"
    done
    echo "== dashboard: largebin and joint, 1 GiB"
    $cli dashboard --device gpu --pipeline read-only,largebin,joint --size 1G --repeat 10 \
        --json "$out/dashboard.json" --csv "$out/dashboard.csv"
} 2>&1 | tee "$out/log.txt"
