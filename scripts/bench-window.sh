#!/usr/bin/env bash
# The window's responsiveness on this machine (offscreen, PoCL unless a GPU is installed): a
# 24-megapixel JPEG decoded alone against opened in the window until its histogram is drawn,
# the longest wait of a 10 ms timer while those jobs run, and a region dragged at 60 mouse
# moves per second (histograms per second, latency). Results: bench/results/window-DATE/.
#   scripts/bench-window.sh [BUILD_DIR]   (a build made by scripts/run.sh or scripts/test.sh)
# Also five launches of the window on the file, on a clean profile and a warm one (--launches).
# Run it on a quiet machine: the figures are only as good as the idle cores.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=bench/results/window-$(date -u +%F)
mkdir -p "$out"
{ echo "date: $(date -u +%FT%TZ)"; echo "load before: $(cat /proc/loadavg)"; lscpu | grep -E "Model name|^CPU\(s\)"; } > "$out/machine.txt"
QT_QPA_PLATFORM=offscreen QT_LOGGING_RULES="histlab.*=false" \
    "$build/bench/histlab-bench-window" --repeat 7 --drag-seconds 5 --out "$out"
echo "load after: $(cat /proc/loadavg)" >> "$out/machine.txt"
