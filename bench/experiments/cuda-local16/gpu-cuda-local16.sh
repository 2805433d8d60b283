#!/usr/bin/env bash
# What OpenCL's 48 KiB of local memory costs the 65,536-slot counts (bench/peers/cuda_local16.cu):
# local16 / runs16 written again in CUDA, with 48 KiB (3 slices, as HistLab's OpenCL plan) and
# with up to 128 KiB of shared memory a block (1 slice); beside it, in the same job, HistLab's
# OpenCL local16 / runs16 on the same sizes (1 GiB of 16-bit samples into 65,536 bins; 256 x 256
# joint counts of two 8192 x 8192 8-bit planes) and CUB's HistogramEven. CSV and log.txt in $1.
#   source .device/gpu-env.sh && bench/experiments/cuda-local16/gpu-cuda-local16.sh "$OUT/cuda-local16"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
{
    bin=$(peer cuda_local16) || exit 1
    "$bin" | tee "$out/cuda_local16.csv"
    for data in random skewed smooth; do
        echo "== OpenCL: u16, 1 GiB, $data, 65,536 bins"
        $cli largebin --device gpu --type u16 --data $data --size 1024 --method local16,runs16 \
            --bins 65536 --repeat 10 --csv "$out/opencl_u16_65536_$data.csv" --quiet
    done
    for data in random smooth; do
        echo "== OpenCL: joint 256 x 256, two 8192 x 8192 8-bit planes, $data"
        $cli joint --device gpu --synthetic $data --type u8 --count 67108864 --bins 256 \
            --method local16,runs16 --repeat 10 --json "$out/opencl_joint_u8_256_$data.json"
    done
} 2>&1 | tee "$out/log.txt"
