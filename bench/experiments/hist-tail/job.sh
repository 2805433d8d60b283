set -u
source .device/gpu-env.sh >/dev/null 2>&1
source scripts/gpu-common.sh "$OUT/r3" >/dev/null 2>&1 || { echo build failed; exit 1; }
date -u +"start %T"
# hist ROUND SETTING NAME ARGS: one histogram run's JSON as $out/h-ROUND-SETTING-NAME.json
hist() {
    local round=$1 setting=$2 name=$3
    shift 3
    $cli histogram --device gpu --synthetic random --repeat 20 --verify "$@" \
        --json "$out/h-$round-$setting-$name.json" > /dev/null 2>> "$out/errors.txt" ||
        echo "failed: $round $setting $name" >> "$out/errors.txt"
}
for round in 1 2 3; do
    for setting in old new; do
        [[ $setting == old ]] && export HISTLAB_EXTRA_BUILD_OPTIONS="-D SERIAL_TAIL=1" ||
            unset HISTLAB_EXTRA_BUILD_OPTIONS
        sizes="16M"
        [[ $round == 1 ]] && sizes="1G 64M 16M"
        for size in $sizes; do
            $cli dashboard --device gpu --size $size --repeat 10 \
                --csv "$out/dash-$round-$setting-${size,,}.csv" > /dev/null 2>> "$out/errors.txt"
        done
        for u in 1 2 4 8; do
            hist $round $setting u$u --size 16 --variant banked --banks 32 --wg 1024 \
                --groups-per-cu 1 --unroll $u --merge atomic
        done
        hist $round $setting auto16 --size 16
        hist $round $setting rgb72 --size 72 --channels 3
    done
done
date -u +"end %T"
python3 - "$out" <<'PY'
import csv, glob, json, os, sys, collections
out = sys.argv[1]
rows = collections.defaultdict(list)
for f in sorted(glob.glob(out + '/dash-*.csv')):
    _, rnd, setting, size = os.path.basename(f)[:-4].split('-')
    for r in csv.DictReader(open(f)):
        if r['pipeline'] in ('read-only', 'copy', 'histogram256', 'blur3x3', 'scan', 'equalize'):
            rows[(size, r['pipeline'], setting)].append(
                '%s %.1f%% %.1fus' % (r['status'][:4], float(r['percent_of_ceiling']),
                                      float(r['median_ms']) * 1e3))
for k in sorted(rows):
    print(*k, ' | '.join(rows[k]))
for f in sorted(glob.glob(out + '/h-*.json')):
    d = json.load(open(f))
    p = d['passes'][-1]
    c = d['read_only_ceiling']
    print(os.path.basename(f), d['verified'], '%.1f%%' % p['percent_of_read_only'],
          '%.2fus' % (p['timing']['median_ms'] * 1e3), 'ceiling %s %.2fus' % (
              c['kernel'], c['timing']['min_ms'] * 1e3), d['config']['description'])
PY
cat "$out/errors.txt" 2>/dev/null | sort | uniq -c | head
tar -C "$OUT" -czf "$OUT/r3.tar.gz" r3 && rm -rf "$OUT/r3"
