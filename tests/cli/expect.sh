#!/usr/bin/env bash
# Runs one command and checks what it did: its exit code, its stdout/stderr against regular
# expressions (grep -E), which files it left behind, and any extra check commands.
#
#   expect.sh --exit N [options] -- COMMAND [ARG...]
#
#   --exit N          the exit code the command must return (required)
#   --work DIR        a scratch folder, emptied before the run; "@W@" in any later argument
#                     (COMMAND included) stands for it. After the run no "*.tmp-*" file (a
#                     half-written output) may remain anywhere under it.
#                     An argument "@EMPTY@" stands for an empty one (CMake drops those).
#   --setup CMD       run CMD with bash before the command (e.g. to prepare a broken kernel)
#   --env NAME=VALUE  set an environment variable for the command only
#   --memory KB       run the command under `ulimit -v KB` (its address space), as a job with a
#                     memory limit would. Under AddressSanitizer (ASAN_OPTIONS set), whose shadow
#                     memory needs terabytes of address space, the case is skipped (exit 77,
#                     CTest's SKIP_RETURN_CODE) with a line saying why
#   --stdout RE       stdout must match RE (repeatable)
#   --stderr RE       stderr must match RE (repeatable)
#   --no-stdout RE    stdout must not match RE (repeatable)
#   --no-stderr RE    stderr must not match RE (repeatable)
#   --absent FILE     FILE must not exist afterwards (nor FILE.tmp-*) (repeatable)
#   --exists FILE     FILE must exist afterwards and not be empty (repeatable)
#   --check CMD       run CMD with bash after the command; it must succeed. "@STDOUT@" and
#                     "@STDERR@" stand for files holding the command's output (repeatable)
#
# Whatever the expected code, a crash (a signal, an uncaught exception, a sanitizer report)
# fails the test.
set -uo pipefail

die() {
    echo "expect.sh: $*" >&2
    exit 2
}

expected=""
work=""
setup=()
envs=()
stdout_res=()
stderr_res=()
no_stdout_res=()
no_stderr_res=()
absent=()
exists=()
memory=''
checks=()

subst() { # @W@ is the scratch folder; "@EMPTY@" an empty argument (CMake drops those)
    local s=$1
    [[ $s == "@EMPTY@" ]] && s=""
    printf '%s' "${s//@W@/$work}"
}

while (($#)); do
    case $1 in
    --exit) expected=$2 ;;
    --work) work=$2 ;;
    --setup) setup+=("$(subst "$2")") ;;
    --env) envs+=("$(subst "$2")") ;;
    --memory) memory=$2 ;;
    --stdout) stdout_res+=("$2") ;;
    --stderr) stderr_res+=("$2") ;;
    --no-stdout) no_stdout_res+=("$2") ;;
    --no-stderr) no_stderr_res+=("$2") ;;
    --absent) absent+=("$(subst "$2")") ;;
    --exists) exists+=("$(subst "$2")") ;;
    --check) checks+=("$(subst "$2")") ;;
    --)
        shift
        break
        ;;
    *) die "unknown option '$1'" ;;
    esac
    (($# >= 2)) || die "$1 needs a value"
    shift 2
done
[[ -n $expected ]] || die "--exit N is required"
(($#)) || die "no command given after --"

cmd=()
for a in "$@"; do
    cmd+=("$(subst "$a")")
done

if [[ -n $work ]]; then
    rm -rf -- "$work"
    mkdir -p -- "$work" || die "cannot create $work"
fi
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

for s in "${setup[@]}"; do
    bash -c "$s" || die "setup failed: $s"
done

if [[ -n $memory && -n ${ASAN_OPTIONS:-} ]]; then
    echo "skipped: --memory $memory (ulimit -v) cannot hold under AddressSanitizer, whose shadow memory needs terabytes of address space"
    exit 77
fi
echo "+ ${memory:+ulimit -v $memory; }${cmd[*]}"
(
    [[ -z $memory ]] || ulimit -v "$memory"
    exec env "${envs[@]}" "${cmd[@]}"
) >"$out" 2>"$err"
code=$?

failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

if ((code != expected)); then
    fail "exit code $code, expected $expected"
fi
if ((code >= 128)); then
    fail "killed by signal $((code - 128))"
fi
if grep -Eq 'terminate called|Segmentation fault|Sanitizer|core dumped|Assertion .* failed' "$err"; then
    fail "stderr shows a crash"
fi
for re in "${stdout_res[@]}"; do
    grep -Eq -- "$re" "$out" || fail "stdout does not match /$re/"
done
for re in "${no_stdout_res[@]}"; do
    grep -Eq -- "$re" "$out" && fail "stdout matches /$re/ but must not"
done
for re in "${stderr_res[@]}"; do
    grep -Eq -- "$re" "$err" || fail "stderr does not match /$re/"
done
for re in "${no_stderr_res[@]}"; do
    grep -Eq -- "$re" "$err" && fail "stderr matches /$re/ but must not"
done
for f in "${absent[@]}"; do
    [[ -e $f ]] && fail "$f exists but must not (half-written or unwanted output)"
    compgen -G "$f.tmp-*" >/dev/null && fail "temporary files $f.tmp-* were left behind"
done
for f in "${exists[@]}"; do
    [[ -s $f ]] || fail "$f was not written (or is empty)"
done
if [[ -n $work ]]; then
    leftovers=$(find "$work" -name '*.tmp-*' -print)
    [[ -z $leftovers ]] || fail "temporary files left behind: $leftovers"
fi
for c in "${checks[@]}"; do
    c=${c//@STDOUT@/$out}
    c=${c//@STDERR@/$err}
    bash -c "$c" || fail "check failed: $c"
done

if ((failures)); then
    echo "--- stdout (first 40 lines) ---"
    head -n 40 "$out"
    echo "--- stderr (first 40 lines) ---"
    head -n 40 "$err"
    exit 1
fi
echo "ok: exit $code"
