# A/B of the sample extraction and mask build option: exp/old (HEAD) against the working tree.
o=$1; mkdir -p $o
cmake -S exp/old -B build-old -G Ninja -DCMAKE_BUILD_TYPE=Release -DHISTLAB_GUI=OFF -DHISTLAB_OPENCV=OFF -DBUILD_TESTING=OFF >/dev/null && cmake --build build-old >/dev/null || exit 1
for rep in 1 2; do for v in old new; do
 cli=./build-gpu/app/histlab-cli; [ $v = old ] && cli=./build-old/app/histlab-cli
 for d in random smooth; do
  $cli joint --device gpu --synthetic $d --type u8 --count 67108864 --bins 256 --method multipass,local16,runs16 --repeat 10 --json $o/${v}_${rep}_joint_u8_$d.json > $o/${v}_${rep}_joint_u8_$d.txt 2>&1
  $cli joint --device gpu --synthetic $d --type u8 --count 67108864 --bins 256 --repeat 10 --json $o/${v}_${rep}_mi_u8_$d.json > $o/${v}_${rep}_mi_u8_$d.txt 2>&1
 done
 [ $rep = 2 ] && continue
 $cli joint --device gpu --synthetic smooth --type u16 --count 67108864 --bins 256 --method local16,runs16 --repeat 10 --json $o/${v}_${rep}_joint_u16_smooth.json > $o/${v}_${rep}_joint_u16_smooth.txt 2>&1
 for d in random skewed smooth; do
  $cli largebin --device gpu --type u16 --data $d --size 1024 --method multipass,local16,runs16 --bins 4096,65536 --repeat 10 --csv $o/${v}_${rep}_u16_$d.csv --quiet 2>/dev/null
 done
 $cli largebin --device gpu --type u8 --size 1024 --method multipass,local16 --bins 256 --repeat 10 --csv $o/${v}_${rep}_u8_random.csv --quiet 2>/dev/null
 $cli largebin --device gpu --type f32 --size 1024 --method local16,multipass --bins 4096 --range 0,1 --repeat 10 --csv $o/${v}_${rep}_f32_random.csv --quiet 2>/dev/null
done; done
