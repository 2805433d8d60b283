#!/usr/bin/env bash
# Set-up command 1: installs what is missing (Debian 12), builds HistLab, prints the verified
# histogram of the bundled sample image, then opens the window on it when there is a display.
# Extra arguments go to the window (e.g. an image path, --device cpu). It builds only the two
# programs it runs (histlab, histlab-cli): the benchmarks, tests and man pages build in
# scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
cmake --build build --target histlab histlab-cli
./build/app/histlab-cli histogram resources/sample.png --channel all --verify
if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]]; then
    exec ./build/app/histlab "$@"
fi
echo "run.sh: no display here, so the window was not opened (on a desktop: ./build/app/histlab)"
