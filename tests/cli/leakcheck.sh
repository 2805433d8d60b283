#!/usr/bin/env bash
# cli.leakcheck: runs histlab-cli under valgrind's memcheck and fails on a definite leak or a
# memory error, leaks of the OpenCL runtime excepted (valgrind.supp says which and why).
#
#   leakcheck.sh VALGRIND SUPPRESSIONS COMMAND [ARG...]
#
# Under valgrind PoCL sees another CPU (valgrind has no AVX-512), so its kernel cache filled by
# ordinary runs does not apply and compiling every kernel under memcheck takes minutes. A first
# run under valgrind's "none" tool (no instrumentation, a few times faster) fills the cache for
# that CPU; the memcheck run then finds its kernels compiled.
set -uo pipefail

valgrind=$1 supp=$2
shift 2

echo "+ warm-up: $valgrind --tool=none $*"
"$valgrind" --tool=none -q "$@" >/dev/null || {
    echo "FAIL: the warm-up run failed (exit $?)"
    exit 1
}

log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "+ $valgrind --leak-check=full ... $*"
"$valgrind" --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 \
    --num-callers=40 --suppressions="$supp" -s --log-file="$log" "$@" >/dev/null
code=$?
grep -E 'definitely lost|indirectly lost|possibly lost|suppressed:|ERROR SUMMARY|used_suppression' "$log"
case $code in
0) echo "ok: no definite leak, no memory error" ;;
99)
    echo "FAIL: memcheck found a definite leak or a memory error:"
    cat "$log"
    exit 1
    ;;
*)
    echo "FAIL: histlab-cli exited with $code under valgrind"
    tail -n 40 "$log"
    exit 1
    ;;
esac
