#!/bin/bash
# Costes' two searches on a GPU machine (../shared/device/README.md): the core-only build, then
# `joint --synthetic` pairs with --coloc stepwise and bisection (16 Mi pairs) and stepwise alone
# (256 Mi: the CPU reference of the bisection takes minutes there). Each run's report lines go
# to OUT/summary.txt, its JSON to OUT/.
#   [TYPES="u8 u16"] bash bench/experiments/coloc/gpu-runs.sh BUILD_DIR OUT
set -u
cli=$1/app/histlab-cli out=$2
run() { # type count data search
    local name="joint-$1-$2-$3-$4"
    echo "== joint --synthetic $3 --type $1 --count $2 --coloc $4" >>"$out/summary.txt"
    "$cli" joint --synthetic "$3" --type "$1" --count "$2" --bins 256 --repeat 3 --device gpu \
        --coloc "$4" --json "$out/$name.json" 2>&1 |
        grep -E "Costes|colocalisation|^(auto|private|global|local16|runs16|multipass)" \
            >>"$out/summary.txt"
}
date -u >>"$out/summary.txt"
for type in ${TYPES:-u8 u16}; do
    for data in smooth random; do
        for search in stepwise bisection stepwise bisection; do
            run "$type" 16777216 "$data" "$search"
        done
    done
done
for type in ${TYPES:-u8 u16}; do
    for data in smooth random; do
        run "$type" 268435456 "$data" stepwise
    done
done
date -u >>"$out/summary.txt"
