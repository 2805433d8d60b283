#!/usr/bin/env bash
# Once per checkout, before runs on a GPU machine (../shared/device/README.md): makes .device/
# (git-ignored; name it in the run's carry) with the OpenCL loader, headers and clinfo of the
# shared recipe, plus the two header-only libraries histlab-cli builds with and GPU machines
# lack: CLI11 (libcli11-dev) and nlohmann-json (nlohmann-json3-dev). .device/gpu-env.sh unpacks
# every .deb there and points CMake at them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ../shared/device/prepare.sh
(cd .device && apt-get download libcli11-dev nlohmann-json3-dev)
ls .device
