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
# "Register" shows the Joint tab's Register page on the sample and a moved, inverted copy of it
# (made with Debian's python3-opencv), into docs/register-page.png.
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
    [Rr]egister) out=${3:-$root/docs/register-page.png} ;;
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
[Rr]egister)
    # The Joint tab's Register page: the sample's gray against a copy turned 4 degrees, moved
    # by (6.5, -4.25) px and inverted (OpenCV, bicubic), which it registers.
    /usr/bin/python3 - "$root/resources/sample.png" "$settings/sample-moved.png" <<'EOF'
import sys

import cv2

image = cv2.imread(sys.argv[1], cv2.IMREAD_GRAYSCALE)
h, w = image.shape
m = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), 4.0, 1.0)
m[0, 2] += 6.5
m[1, 2] -= 4.25
cv2.imwrite(sys.argv[2], 255 - cv2.warpAffine(image, m, (w, h), flags=cv2.INTER_CUBIC,
                                              borderMode=cv2.BORDER_REFLECT))
EOF
    set -- --tab "$tab" "$root/resources/sample.png" "$settings/sample-moved.png" ;;
[Ww]hole\ [Ss]tack)
    python3 "$root/scripts/make-stack-tiff.py" "$settings/bead-stack.tif" --focus --pages 12 \
        --width 160 --height 120 --channels 3
    set -- --tab "$tab" "$settings/bead-stack.tif" ;;
*) set -- --tab "$tab" "$@" ;;
esac
XDG_CONFIG_HOME=$settings xvfb-run -a -s "-screen 0 1280x800x24" "$exe" --screenshot "$out" "$@"
echo "wrote $out"
