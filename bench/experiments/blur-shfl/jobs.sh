#!/usr/bin/env bash
# The two throw-away jobs of this folder's experiments, kept as one script (they ran as two
# files that differed only in their settings and in the shuffle job's correctness runs):
#   JOB=cuts: the four instruction cuts, one at a time (cuts.csv, sass/cuts-*)
#   JOB=shfl: the cuts that paid, with and without the warp shuffles (shfl.csv,
#             shfl-correct.txt)
# (those files are in bench/results/gpu-h200-blur-shfl-2026-11-28/)
# Both need experiment.patch applied to kernels/blur.cl of 1e3ed16 (the EXP_NO_* switches) and
# the plan's -D NV_SHFL. The cuts job ran before the shuffles existed (add -D EXP_NO_SHFL to its
# settings to repeat it); the shuffle job ran with a plan that set NV_SHFL for packed RGBA too,
# which the committed plan no longer does. On the GPU machine:
#   JOB=cuts bash bench/experiments/blur-shfl/jobs.sh  with $OUT set by the device runner
set -uo pipefail
job=${JOB:?JOB=cuts or JOB=shfl}
source .device/gpu-env.sh
source scripts/gpu-common.sh "$OUT/$job"
csv="$out/$job.csv"
export PATH=$PATH:/usr/local/cuda/bin
declare -A OPT
if [[ $job == cuts ]]; then
    OPT=([none]="-D EXP_NO_MADHI -D EXP_NO_SPLIT -D EXP_NO_STRADDLE -D EXP_NO_PTR" [all]=""
        [no_madhi]="-D EXP_NO_MADHI" [no_split]="-D EXP_NO_SPLIT"
        [no_straddle]="-D EXP_NO_STRADDLE" [no_ptr]="-D EXP_NO_PTR" [ptr_asm]="-D EXP_PTR_ASM")
    order="none all no_madhi no_split no_straddle no_ptr ptr_asm"
else
    OPT=([old]="-D EXP_NO_MADHI -D EXP_NO_SPLIT -D EXP_NO_STRADDLE -D EXP_NO_PTR -D EXP_NO_SHFL"
        [cuts]="-D EXP_NO_MADHI -D EXP_NO_STRADDLE -D EXP_NO_SHFL"
        [cuts_shfl]="-D EXP_NO_MADHI -D EXP_NO_STRADDLE" [all_shfl]=""
        [shfl_only]="-D EXP_NO_MADHI -D EXP_NO_SPLIT -D EXP_NO_STRADDLE -D EXP_NO_PTR")
    order="old cuts cuts_shfl all_shfl shfl_only"
    # (the same shapes as scripts/gpu-blur-shapes.sh, which was written from this loop)
    scripts/gpu-blur-shapes.sh "$out/correct"
fi
if [[ $job == cuts ]]; then
    # SASS of each setting (in the shuffle job this step wrote nothing: its folder was missing)
    for shape in "1 gray" "4 rgba"; do
        read -r c name <<<"$shape"
        opts=$($cli -v blur --device gpu --variant tiled --radius 1 --synthetic random --width 256 \
            --height 64 --channels "$c" --repeat 1 2>&1 |
            sed -n 's/.*built blur.cl.* with "\(.*\)"/\1/p' | head -1)
        for s in $order; do
            scripts/gpu-sass.sh kernels/blur.cl blur_tiled "$opts ${OPT[$s]}" "$out/sass/$name-$s"
        done
    done
fi
for round in 1 2; do
    for shape in "8192 8192 1" "32768 32768 1" "8192 2048 4" "32768 8192 4"; do
        read -r w h c <<<"$shape"
        for s in $order; do
            HISTLAB_EXTRA_BUILD_OPTIONS="${OPT[$s]}" blur_point "$round" "$s" --synthetic random \
                --width "$w" --height "$h" --channels "$c"
        done
    done
done 2>&1 | tee "$out/log.txt"
