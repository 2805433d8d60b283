#!/usr/bin/env bash
# Runs the unit and CLI suites built with AddressSanitizer and UBSan (scripts/asan-build.sh):
# any invalid memory access, leak or undefined behaviour fails the test that caused it.
#   scripts/sanitize.sh [CTEST-ARGS...]     e.g. -R "cli.(fifo|two_outputs)" to run some cases
# The PoCL matrices (unit.histogram.matrix.*: every variant, size and work-group size) run once,
# in the plain build: under ASan they would take most of CI's time and exercise the same host
# code as unit.histogram.sizes. The GUI tests run in the plain build only (no Qt here).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/asan-build.sh histlab-cli histlab_unit_tests histlab_unit_io_tests
# ASan's alternate signal stack cannot be unmapped once PoCL's threads have run (ASan's own
# "unable to unmap" CHECK at exit), so ASan keeps to the threads' stacks; the OpenCL runtime's
# own leaks are suppressed (tests/sanitizer/lsan.supp).
export ASAN_OPTIONS=use_sigaltstack=0:detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$PWD/tests/sanitizer/lsan.supp
# The CLI suite and the OpenCV/GDAL unit tests (unit.io*) with threads' TLS scanned for
# pointers (GDAL and glibc keep memory there).
ctest --test-dir build-fuzz --output-on-failure -j "$(nproc)" --timeout 900 \
    -R '^(cli[.]|unit[.]io)' "$@"
# The core's unit tests (histlab_unit_tests: no OpenCV) without it (use_tls=0: stricter, more
# can look leaked): with it, LSan's tracer read a bogus dynamic-TLS range of the main thread
# after PoCL had loaded kernels ("DTLS 6 at 0x171f-0x1800002821") and crashed at exit (signal
# 11) after every test had passed, under ctest on kernel 6.18: unit.scan first, then unit.core
# (2026-11-27, also at commits that had passed before). All of them pass this way.
LSAN_OPTIONS=$LSAN_OPTIONS:use_tls=0 ctest --test-dir build-fuzz --output-on-failure \
    -j "$(nproc)" --timeout 900 -L unit -E 'unit[.]histogram[.]matrix|^unit[.]io' "$@"
