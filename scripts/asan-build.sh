#!/usr/bin/env bash
# Builds TARGETs in build-fuzz/ with clang, AddressSanitizer and UBSan (undefined behaviour aborts)
# plus libFuzzer's coverage: one build serves both scripts/fuzz.sh (the fuzz targets) and
# scripts/sanitize.sh (the unit and CLI suites), so CI compiles the core once for both.
#   scripts/asan-build.sh TARGET...
set -euo pipefail
cd "$(dirname "$0")/.."
(($# > 0)) || { echo "asan-build.sh: usage: scripts/asan-build.sh TARGET..." >&2; exit 2; }
command -v clang++ >/dev/null || { echo "asan-build.sh: needs clang++ (Debian clang)" >&2; exit 1; }
CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Fuzz \
    -DCMAKE_CXX_FLAGS_FUZZ="-O1 -gline-tables-only" -DHISTLAB_FUZZ=ON -DHISTLAB_GUI=OFF \
    -DBUILD_TESTING=ON >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target "$@"
