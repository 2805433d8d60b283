#!/usr/bin/env bash
# bx: bow_block_norm variants. One build of origin/main (bx-base.tgz); kernel variants through
# --kernel-dir, build options through HISTLAB_EXTRA_BUILD_OPTIONS.
set -uo pipefail
out=$1; mkdir -p "$out"
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
D=$PWD/.device
cfg="-G Ninja -DCMAKE_BUILD_TYPE=Release -DHISTLAB_GUI=OFF -DHISTLAB_OPENCV=OFF -DBUILD_TESTING=OFF"
rm -rf /tmp/bxb && mkdir -p /tmp/bxb && tar xzf $D/bx-base.tgz -C /tmp/bxb
(cmake -S /tmp/bxb -B /tmp/bxb/build $cfg >/dev/null && cmake --build /tmp/bxb/build >/dev/null) || { echo build failed; exit 1; }
cli=/tmp/bxb/build/app/histlab-cli
echo "built at $(el) s"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $out/nvidia-smi.csv 2>&1
declare -A kd=([base]= [r128]= [r96]= [r160]= [ln]=bx-k-ln [rn]=bx-k-rn [kp]=bx-k-kp [rs]=bx-k-rs [all]=bx-k-all [allr]=bx-k-all)
declare -A xo=([base]= [r128]=-cl-nv-maxrregcount=128 [r96]=-cl-nv-maxrregcount=96 [r160]=-cl-nv-maxrregcount=160 [ln]= [rn]= [kp]=KP [rs]= [all]=KP [allr]="KP -cl-nv-maxrregcount=128")
# bench VARIANT TAG K DIM COUNT REPEAT [verbose]
bench() {
  local v=$1 tag=$2 k=$3 dim=$4 n=$5 rep=$6 verb=${7:-}
  local opts=${xo[$v]//KP/-DKPAD=$(( (k + 127) / 128 * 128 ))}
  local kdir=() ; [ -n "${kd[$v]}" ] && kdir=(--kernel-dir $D/${kd[$v]})
  local t=$(date +%s.%N)
  echo "== $v $tag k$k d$dim n$n [$opts] ${kdir[*]} at $(el) s"
  if [ -n "$verb" ]; then
    HISTLAB_EXTRA_BUILD_OPTIONS="$opts -cl-nv-verbose" $cli -v "${kdir[@]}" bow bench --synthetic --count $n --k $k --dim $dim --kernel block-norm --repeat $rep --csv "$out/${v}_$tag.csv" 2> "$out/${v}_$tag.err" | tail -n 2
    grep -iE "registers|spill|bytes stack|ptxas info|Function properties|Used" "$out/${v}_$tag.err" | head -20
  else
    HISTLAB_EXTRA_BUILD_OPTIONS="$opts" $cli "${kdir[@]}" bow bench --synthetic --count $n --k $k --dim $dim --kernel block-norm --repeat $rep --csv "$out/${v}_$tag.csv" 2>&1 | tail -n 2
  fi
  echo "   took $(awk "BEGIN{print $(date +%s.%N) - $t}") s"
}
left() { [ $(el) -lt $1 ]; }
# Registers (small runs, build logs).
for v in base r128 r96 r160 ln rn all allr; do bench $v regs 1024 64 65536 2 verbose; done
# K 1,024 rounds.
R1="base r128 ln rn kp rs all allr"
R2="allr all rs kp rn ln r128 base"
for v in $R1; do left 500 && bench $v k1024_1 1024 64 2097152 20; done
for v in $R2; do left 500 && bench $v k1024_2 1024 64 2097152 20; done
# Winner: lowest mean (kernel median + decisions on the device) over the two rounds.
score() { awk -F, 'FNR==2 && $(NF-1)=="verified" {s+=$(NF-9)+$(NF-2); c++} END {if (c) printf "%.5f", s/c; else print 999}' "$@"; }
best=base; bs=999
for v in $R1; do
  f=$(ls $out/${v}_k1024_*.csv 2>/dev/null); [ -n "$f" ] || continue
  s=$(score $f); echo "score $v $s"
  if [ $v != base ] && awk "BEGIN{exit !($s < $bs)}"; then best=$v; bs=$s; fi
done
echo "winner $best"
for v in base $best; do left 520 && bench $v k4096 4096 64 1048576 10; done
for v in base $best; do left 530 && bench $v d128 1024 128 1048576 10; done
for v in $best base; do left 530 && bench $v k4096_2 4096 64 1048576 10; done
for v in $best base; do left 540 && bench $v d128_2 1024 128 1048576 10; done
for v in base $best; do left 540 && bench $v k1024_3 1024 64 2097152 20; done
echo "done at $(el) s"
