#!/usr/bin/env bash
# Draws every saved sweep (sweep_*.json) in a folder as PNG next to it, with the window's own
# plot (histlab --render-experiment, offscreen).
#   scripts/render-experiments.sh DIR [BUILD_DIR]
set -euo pipefail
dir=${1:?usage: render-experiments.sh DIR [BUILD_DIR]}
build=${2:-build}
for json in "$dir"/sweep_*.json; do
    QT_QPA_PLATFORM=offscreen QT_LOGGING_RULES="histlab.*=false" \
        "$build/app/histlab" --render-experiment "$json" --out "${json%.json}.png"
    echo "drew ${json%.json}.png"
done
