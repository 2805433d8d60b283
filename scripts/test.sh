#!/usr/bin/env bash
# Set-up command 2: installs what is missing (Debian 12), checks the format, builds the
# Qt-free/OpenCV-free core that GPU machines run, builds everything with warnings as errors,
# runs the whole test suite (core unit tests on PoCL, CLI end-to-end, leak check, GUI
# offscreen), then the unit and CLI suites again under AddressSanitizer and UBSan, and fuzzes
# each reader for 60 s (clang, libFuzzer; the same build). .ci/run calls this.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
scripts/install-deps.sh --tests

echo "== format (clang-format, .clang-format)"
mapfile -t sources < <(git ls-files '*.cpp' '*.h')
clang-format --dry-run -Werror "${sources[@]}"

echo "== core-only build (-DHISTLAB_GUI=OFF -DHISTLAB_OPENCV=OFF), as on a GPU machine"
cmake -S . -B build-tests-core -G Ninja -DCMAKE_BUILD_TYPE=Release -DHISTLAB_GUI=OFF \
    -DHISTLAB_OPENCV=OFF -DBUILD_TESTING=OFF -DHISTLAB_WERROR=ON >/dev/null
cmake --build build-tests-core -j "$jobs"
./build-tests-core/app/histlab-cli histogram --synthetic random --bytes 100003 --verify --quiet

echo "== full build with tests"
cmake -S . -B build-tests -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHISTLAB_WERROR=ON >/dev/null
cmake --build build-tests -j "$jobs"

echo "== tests"
export QT_QPA_PLATFORM=offscreen
ctest --test-dir build-tests --output-on-failure -j "$jobs" --timeout 900

echo "== sanitizers: the unit and CLI suites under ASan and UBSan (scripts/sanitize.sh)"
scripts/sanitize.sh

echo "== fuzzing: each libFuzzer target for 60 s from its seeds (scripts/fuzz.sh)"
scripts/fuzz.sh all 60
