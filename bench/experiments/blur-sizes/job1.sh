set -u
source .device/gpu-env.sh >/dev/null 2>&1
date -u +"start %T"
mkdir -p "$OUT/r"
bash scripts/gpu-blur-shapes.sh "$OUT/r/shapes" > "$OUT/r/shapes-stdout.txt" 2>&1; echo "shapes rc=$?"
date -u +"shapes done %T"
tail -3 "$OUT/r/shapes/shapes.txt"
bash bench/experiments/blur-sizes/gpu-blur-sizes.sh "$OUT/r/sizes" > /dev/null 2>&1; echo "sizes rc=$?"
date -u +"sizes done %T"
grep -c verified "$OUT/r/sizes/sizes.csv"
tar -C "$OUT" -czf "$OUT/r.tar.gz" r && rm -rf "$OUT/r"
