#!/usr/bin/env bash
# The tiled 3 x 3 blur's NVIDIA-only paths (byte permutes, warp shuffles for the pixels beside
# each vector) are not compiled on PoCL, where the unit tests run. This checks them on a GPU:
# every border, gray and RGBA, random and gradient data, on small and odd shapes (a row of one
# vector or none wholly inside, widths that are not multiples of 16 or of a warp's 512 bytes,
# and widths of whole vectors that end inside a warp, where only the lanes' guard keeps the
# lanes past the row's end out; heights that are not multiples of the rows per work-item).
# A second pass runs tunings other than the defaults on some of those shapes: rows slid down
# (--packed 0, with and without SWAR: the permutes without the shuffles), groups of 64 to 512
# and 3, 5 or 6 rows with the shuffles, two vectors (no shuffles). Each run is verified byte
# for byte against the CPU reference; shapes.txt lists every run, shapes.csv each run's build
# options, and the exit status is 1 if any failed. Last, a group the GPU cannot hold (576
# work-items at the shuffles' registers) and one above its limit must each be refused in one
# line naming --wg, with exit code 2.
#   source .device/gpu-env.sh && scripts/gpu-blur-shapes.sh "$OUT/shapes"
set -uo pipefail
source "$(dirname "$0")/gpu-common.sh" "${1:-}"
runs=0 failed=0
# check BORDER KIND W H C SETTING [TUNING...]: one verified run, its line in shapes.txt, its
# CSV row (build options included) in shapes.csv
check() {
    local border=$1 kind=$2 w=$3 h=$4 c=$5 setting=$6 line
    shift 6
    line=$($cli blur --device gpu --variant tiled --radius 1 --border "$border" --repeat 1 \
        --synthetic "$kind" --width "$w" --height "$h" --channels "$c" "$@" \
        --csv "$out/point.csv" 2>&1 | tail -1)
    append_point "$out/point.csv" "$out/shapes.csv" setting "$setting"
    runs=$((runs + 1))
    [[ $line == *"byte for byte"* ]] || failed=$((failed + 1))
    echo "$setting $border $kind ${w}x${h}x$c: $line"
}
{
    for border in reflect101 replicate interior; do
        for shape in "1 1 1" "5 3 1" "17 9 1" "18 9 1" "33 5 1" "48 9 1" "70 23 1" "257 19 1" \
            "520 9 1" "1040 19 1" "4097 33 1" "8191 17 1" "1 1 4" "3 5 4" "4 4 4" "5 7 4" \
            "129 9 4" "1025 13 4" "2047 11 4"; do
            for kind in random gradient; do
                check "$border" "$kind" $shape defaults
            done
        done
    done
    for tuning in "--packed 0" "--packed 0 --swar 1" "--wg 64" "--wg 96 --rows 6" \
        "--wg 256 --rows 5" "--wg 512 --rows 3" "--vectors 2"; do
        for border in reflect101 interior; do
            for shape in "5 3 1" "18 9 1" "48 9 1" "1040 19 1" "8191 17 1" "5 7 4" "1025 13 4"; do
                setting=${tuning//--/}
                check "$border" random $shape "${setting// /_}" $tuning
            done
        done
    done
} > "$out/shapes.txt"
echo "$runs runs, $failed not verified byte for byte" | tee -a "$out/shapes.txt"
# refused, each in one line naming --wg with exit code 2: a group of 576 at 122 registers a
# work-item is more than a compute unit's 64 Ki registers (refused at the launch); 2048 is more
# than the device's limit of 1024 (refused before any build)
refusals=0
for spec in "576 refused the launch" "2048 allows at most"; do
    read -r wg why <<<"$spec"
    $cli blur --device gpu --variant tiled --radius 1 --border reflect101 --repeat 1 \
        --synthetic random --width 8192 --height 64 --wg $wg > "$out/refused-$wg.txt" 2>&1
    rc=$?
    echo "--wg $wg: exit $rc: $(tail -1 "$out/refused-$wg.txt")" | tee -a "$out/shapes.txt"
    [[ $rc == 2 && $(wc -l < "$out/refused-$wg.txt") == 1 ]] &&
        grep -q -- "--wg: $wg work-items per group: .*$why" "$out/refused-$wg.txt" ||
        refusals=$((refusals + 1))
done
[[ $failed == 0 && $refusals == 0 ]]
