set -u
source .device/gpu-env.sh >/dev/null 2>&1
source scripts/gpu-common.sh "$OUT/r2" >/dev/null 2>&1 || { echo build failed; exit 1; }
csv=$out/small.csv
date -u +"start %T"
for round in 1 2; do
    for rows in 1 2 3 4 6 8; do for wg in 32 64 128; do
        blur_point $round "gray rows $rows wg $wg" --synthetic random --width 8192 --height 8192 \
            --border reflect101 --rows $rows --wg $wg
    done; done
    for rows in 1 2 4; do for wg in 32 64 128; do
        blur_point $round "rgba rows $rows wg $wg" --synthetic random --width 8192 --height 2048 \
            --channels 4 --border reflect101 --rows $rows --wg $wg
    done; done
done > "$out/small-log.txt" 2>&1
date -u +"end %T"
python3 - "$csv" <<'PY'
import csv, sys, collections
d = collections.defaultdict(list)
for r in csv.DictReader(open(sys.argv[1])):
    d[r['setting']].append(float(r['percent_of_copy']) if r['status'] == 'verified' else -1)
for k, v in d.items():
    print(k, ' '.join('%.1f' % x for x in v))
PY
tar -C "$OUT" -czf "$OUT/r2.tar.gz" r2 && rm -rf "$OUT/r2"
