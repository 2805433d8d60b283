#!/bin/sh
# Regenerates docs/screenshot.png: runs the built `histlab` on the sample image (with two test
# fixtures, so the Images list shows) under a virtual X server (Xvfb), with fresh settings,
# lets it grab its own window once the first histogram is shown (the hidden --screenshot
# option), and writes the PNG. Builds nothing.
#
# usage: scripts/screenshot.sh [BUILD_DIR]     (default: build)
# needs: xvfb-run (Debian: xvfb xauth), an OpenCL device (PoCL's CPU device will do)
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
exe=$build/app/histlab
out=$root/docs/screenshot.png

if [ ! -x "$exe" ]; then
    echo "screenshot.sh: $exe not found; build first (cmake --build $build)" >&2
    exit 2
fi
command -v xvfb-run >/dev/null || { echo "screenshot.sh: xvfb-run not found (apt-get install xvfb xauth)" >&2; exit 2; }

mkdir -p "$(dirname "$out")"
# histlab writes the file through a temporary file and a rename, and exits non-zero (after at
# most two minutes) if no histogram arrives.
settings=$(mktemp -d)
trap 'rm -rf "$settings"' EXIT
XDG_CONFIG_HOME=$settings xvfb-run -a -s "-screen 0 1280x800x24" "$exe" --screenshot "$out" \
    "$root/resources/sample.png" "$root/tests/data/rgb8.png" "$root/tests/data/gray8.png"
echo "wrote $out"
