#!/usr/bin/env bash
# Writes a deliberately broken copy of kernels/histogram256.cl for the --kernel-dir tests.
#
#   break_kernel.sh syntax|miscount SOURCE.cl DEST.cl
#
#   syntax    a line that does not compile at the top of the file: every build fails
#   miscount  the local/banked scatter skips bin 0, so those variants count no zero bytes and
#             --verify must report a mismatch at bin 0
#
# The edit must change the file: if the kernel's text moved on and the pattern no longer
# matches, this script fails rather than letting the test pass for the wrong reason.
set -euo pipefail

mode=$1 src=$2 dest=$3
mkdir -p "$(dirname "$dest")"
case $mode in
syntax)
    {
        echo "this is not OpenCL C (inserted by tests/cli/break_kernel.sh)"
        cat "$src"
    } >"$dest"
    ;;
miscount)
    # the scatter statement: atomic_inc(&h[bin * NBANKS + bank]) or atomic_add(..., 1u)
    scatter='^([[:space:]]*)(atomic_[a-z_]+[(]&h\[bin \* NBANKS \+ bank\][^;]*;)'
    grep -Eq "$scatter" "$src" || {
        echo "break_kernel.sh: no local scatter 'atomic_*(&h[bin * NBANKS + bank]...)' in $src" >&2
        exit 1
    }
    sed -E "s/$scatter/\1if (bin != 0u) \2/" "$src" >"$dest"
    ;;
*)
    echo "break_kernel.sh: unknown mode '$mode'" >&2
    exit 2
    ;;
esac
cmp -s "$src" "$dest" && {
    echo "break_kernel.sh: $dest is unchanged" >&2
    exit 1
}
exit 0
