#!/usr/bin/env bash
# Installs the Debian 12 packages HistLab needs, only those that are missing.
#   scripts/install-deps.sh          build + run (Qt 6, QCustomPlot, OpenCV, libjpeg, libpng,
#                                    libtiff, libexif, giflib, stb, OpenCL, PoCL, CLI11,
#                                    nlohmann-json, Python 3 for the man pages)
#   scripts/install-deps.sh --tests  the same + GoogleTest, Xvfb, valgrind, clang-format, clang
#                                    (libFuzzer), and what checks the package: dpkg-dev and
#                                    file (cpack's dependency scan), desktop-file-utils,
#                                    appstream, man-db, groff-base (man pages), git
set -euo pipefail
packages=(cmake ninja-build g++ pkg-config qt6-base-dev qt6-svg-dev libqcustomplot-dev
          libopencv-dev libjpeg-dev libpng-dev libtiff-dev libexif-dev libgif-dev libstb-dev
          ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers
          pocl-opencl-icd clinfo libcli11-dev nlohmann-json3-dev python3)
if [[ "${1:-}" == "--tests" ]]; then
    packages+=(libgtest-dev xvfb xauth valgrind clang-format clang dpkg-dev
               desktop-file-utils appstream man-db groff-base file git)
fi
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
    exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo=""
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
