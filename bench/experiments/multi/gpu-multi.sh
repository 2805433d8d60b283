#!/usr/bin/env bash
# Every GPU of a host at once (see ../shared/device/README.md): the 256-bin histogram of one
# synthetic input split across all GPUs (end to end from pinned host memory, and kernels only)
# beside each GPU alone, the joint histogram of two synthetic 8-bit planes the same way, then batch over synthetic RGB frames on 1, 2, 4 ... GPUs (images/s
# and each GPU's busy and waiting fractions). Every result verified against the CPU reference.
#   source .device/gpu-env.sh && bench/experiments/multi/gpu-multi.sh "$OUT/multi"
#   SIZE_MIB=4096 JOINT_PAIRS=1073741824 IMAGES=512 JOBS="16 32" bench/experiments/multi/gpu-multi.sh "$OUT/multi"
set -uo pipefail
source "$(dirname "$0")/../../../scripts/gpu-common.sh" "${1:-}"
size=${SIZE_MIB:-4096}
images=${IMAGES:-512}
pairs=${JOINT_PAIRS:-1073741824}
gpus=$($cli devices --json | python3 -c "import json,sys; print(sum(1 for d in json.load(sys.stdin)['devices'] if d['type'] == 'gpu'))")
echo "gpus: $gpus" > "$out/gpus.txt"
{
    for ((g = 0; g < gpus; g++)); do
        echo "== GPU $g alone, $size MiB random, end to end"
        $cli histogram --device $g --synthetic random --size $size --end-to-end --repeat 5 \
            --verify --json "$out/alone_$g.json" | grep -vE "^(gray|r|g|b) "
    done
    echo "== $size MiB random split across every GPU"
    $cli histogram --device all --synthetic random --size $size --repeat 5 \
        --json "$out/split_${size}MiB.json" --csv "$out/split_${size}MiB.csv"
    echo "== $size MiB RGB split across every GPU (channels and luma in one read)"
    $cli histogram --device all --synthetic random --size $size --channels 3 --repeat 5 \
        --json "$out/split_rgb_${size}MiB.json" | grep -vE "^(gray|r|g|b) "
    echo "== joint 256 x 256 of two random 8-bit planes of $pairs pairs on GPU 0 alone"
    $cli joint --device 0 --synthetic random --count $pairs --repeat 5 \
        --json "$out/joint_alone_0.json" | grep -vE "^NMI "
    echo "== the same joint histogram split across every GPU"
    $cli joint --device all --synthetic random --count $pairs --repeat 5 \
        --json "$out/joint_split.json"
    # batch: one summary row a run (the per-image JSON is 9 MB for 512 frames, so it is not kept).
    echo "gpus,jobs,images,failed,mismatches,wall_s,images_per_s,per_gpu_images,busy,waiting" \
        > "$out/batch_summary.csv"
    list=0
    for ((k = 1; k <= gpus; k *= 2)); do
        [[ $k -gt 1 ]] && list=$(seq -s, 0 $((k - 1)))
        for jobs in ${JOBS:-16 32}; do
            echo "== batch: $images random RGB frames of 4000 x 3000 on GPUs $list, --jobs $jobs"
            $cli batch --synthetic random --images $images --width 4000 --height 3000 \
                --channels 3 --device $list --jobs $jobs --quiet --json "$out/batch.json" \
                --csv "$out/batch_${k}gpu.csv" 2>/dev/null
            python3 - "$out/batch.json" >> "$out/batch_summary.csv" <<'EOF2'
import json, sys
j = json.load(open(sys.argv[1]))
d = j["devices"]
print(f"{len(d)},{j['jobs']},{len(j['images'])},{j['failed']},{j['mismatches']},"
      f"{j['wall_ms'] / 1000:.3f},{j['images_per_s']:.1f},"
      + "/".join(str(x["images"]) for x in d) + ","
      + "/".join(f"{x['busy_fraction']:.3f}" for x in d) + ","
      + "/".join(f"{x['wait_fraction']:.3f}" for x in d))
EOF2
            tail -1 "$out/batch_summary.csv"
            rm -f "$out/batch.json"
        done
    done
    if [[ $gpus -gt 1 ]]; then
        echo "== the batch tables of 1 and $((k / 2)) GPUs are the same file"
        cmp "$out/batch_1gpu.csv" "$out/batch_$((k / 2))gpu.csv" && echo same
    fi
    rm -f "$out"/batch_*gpu.csv
} 2>&1 | tee "$out/log.txt"
