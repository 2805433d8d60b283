#!/usr/bin/env bash
# How long scripts/run.sh takes on a fresh Debian 12 machine: a minimal Debian 12 (debootstrap
# --variant=minbase, plus git and GNU time) in a chroot, a clean clone of TREE, then
# scripts/run.sh timed twice: first with none of HistLab's packages installed (run.sh installs
# them), then on a second clean clone with them installed. Writes time-without.txt and
# time-with.txt (/usr/bin/time -v) and the runs' output into OUT.
#   sudo bench/experiments/first-run/measure.sh ROOT TREE OUT
# ROOT: an empty folder for the chroot; TREE: a git checkout of HistLab (its HEAD is cloned).
set -euo pipefail
root=$1 tree=$2 out=$3
mkdir -p "$out"
debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
mount -t sysfs sys "$root/sys"
cp /etc/resolv.conf "$root/etc/resolv.conf"
chroot "$root" bash -c 'apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends git ca-certificates time'
git clone -q --bare "$tree" "$root/root/src.git"
for pass in without with; do
    chroot "$root" bash -c "cd /root && rm -rf clone-$pass && git clone -q src.git clone-$pass &&
        cd clone-$pass && /usr/bin/time -v bash scripts/run.sh > /root/run-$pass.log 2> /root/time-$pass.txt"
    cp "$root/root/time-$pass.txt" "$root/root/run-$pass.log" "$out/"
done
lscpu > "$out/machine.txt"
