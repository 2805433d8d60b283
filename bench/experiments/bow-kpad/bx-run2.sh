#!/usr/bin/env bash
# bx job 2: origin/main (base) against the patched trees w1 (KPAD a build constant) and w2 (w1 +
# the descriptor norm from the staged copy, in a register); embedded kernels, no extra options.
set -uo pipefail
out=$1; mkdir -p "$out"
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
D=$PWD/.device
cfg="-G Ninja -DCMAKE_BUILD_TYPE=Release -DHISTLAB_GUI=OFF -DHISTLAB_OPENCV=OFF -DBUILD_TESTING=OFF"
for v in base w1 w2; do
  ( rm -rf /tmp/bx$v && mkdir -p /tmp/bx$v && tar xzf $D/bx-$v.tgz -C /tmp/bx$v &&
    cmake -S /tmp/bx$v -B /tmp/bx$v/build $cfg >/dev/null && cmake --build /tmp/bx$v/build -j 5 >/dev/null ) || echo "$v build failed" &
done
wait
echo "built at $(el) s"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $out/nvidia-smi.csv 2>&1
bench() {
  local v=$1 tag=$2 k=$3 dim=$4 n=$5 rep=$6
  local t=$(date +%s.%N)
  echo "== $v $tag k$k d$dim n$n at $(el) s"
  /tmp/bx$v/build/app/histlab-cli bow bench --synthetic --count $n --k $k --dim $dim --kernel block-norm --repeat $rep --csv "$out/${v}_$tag.csv" 2>&1 | tail -n 2
  echo "   took $(awk "BEGIN{print $(date +%s.%N) - $t}") s"
}
left() { [ $(el) -lt $1 ]; }
for v in base w1 w2; do left 520 && bench $v k1024_1 1024 64 2097152 20; done
for v in w2 w1 base; do left 520 && bench $v k1024_2 1024 64 2097152 20; done
for v in base w2 w1; do left 520 && bench $v k4096 4096 64 1048576 10; done
for v in w1 w2 base; do left 535 && bench $v d128 1024 128 1048576 10; done
for v in base w2; do left 535 && bench $v k1024_3 1024 64 2097152 20; done
echo "done at $(el) s"
