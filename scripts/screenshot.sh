#!/bin/sh
# Regenerates docs/screenshot.png: runs the built `histlab` on the sample image (with two test
# fixtures, so the Images list shows) under a virtual X server (Xvfb), with fresh settings,
# lets it grab its own window once the first histogram is shown (the hidden --screenshot
# option), and writes the PNG. Builds nothing.
#
# With a TAB (its title, e.g. Joint), the window shows that tab instead, runs it with its
# default controls and is grabbed when the run ends (the hidden --tab option), into
# docs/<tab>-tab.png or OUT. The Joint tab counts the sample image against its equalized copy
# (made by histlab-cli equalize) is listed; A and B default to the R and G channels of the
# image shown (the sample). "Whole Stack" grabs the stack view's window after its run, on a
# 12-page RGB z-stack of a bead made by scripts/make-stack-tiff.py --focus (docs/stack-view.png).
#
# usage: scripts/screenshot.sh [BUILD_DIR [TAB [OUT]]]     (default: build)
# needs: xvfb-run (Debian: xvfb xauth), an OpenCL device (PoCL's CPU device will do)
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
exe=$build/app/histlab
tab=${2:-}
out=$root/docs/screenshot.png
if [ -n "$tab" ]; then
    case $tab in
    [Ww]hole\ [Ss]tack) out=${3:-$root/docs/stack-view.png} ;;
    *) out=${3:-$root/docs/$(printf %s "$tab" | tr 'A-Z' 'a-z')-tab.png} ;;
    esac
fi
case $out in /*) ;; *) out=$(pwd)/$out ;; esac

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
set -- "$root/resources/sample.png" "$root/tests/data/rgb8.png" "$root/tests/data/gray8.png"
case $tab in
'') ;;
[Jj]oint)
    # A second image of the sample's size: its equalized copy, a monotone map of its luma.
    "$build/app/histlab-cli" equalize "$root/resources/sample.png" \
        --out "$settings/sample-equalized.png" >/dev/null
    set -- "$root/resources/sample.png" "$settings/sample-equalized.png" "$@"
    set -- --tab "$tab" "$@" ;;
[Ww]hole\ [Ss]tack)
    python3 "$root/scripts/make-stack-tiff.py" "$settings/bead-stack.tif" --focus --pages 12 \
        --width 160 --height 120 --channels 3
    set -- --tab "$tab" "$settings/bead-stack.tif" ;;
*) set -- --tab "$tab" "$@" ;;
esac
XDG_CONFIG_HOME=$settings xvfb-run -a -s "-screen 0 1280x800x24" "$exe" --screenshot "$out" "$@"
echo "wrote $out"
