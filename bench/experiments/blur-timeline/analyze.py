"""The blur's timelines (blurtimeline's CSV files, plain or .gz), one line per launch with warp
marks, in µs from the profiling event's start:
  event    the launch as its profiling event measures it (the figures' time)
  before   event start -> the first warp's start (no warp runs yet)
  span     the first warp's start -> the last warp's end
  after    the last warp's end -> event end
  full     the most warps running at once (sampled every 50 ns)
  steady   the median number running in the middle half of the span
  TB/s     bytes read + written per second by the warps that end in the middle half (a warp of
           the 8-row gray kernel moves 32 x 16 bytes x 8 rows, twice; of the copy, files
           named copy-*, 32 x 16 bytes, twice)
  tail     from the last time half of `steady` run to the span's end
  life     a warp's lifetime, 10th / 50th / 90th percentile
and, per file, the events of every launch (the ones without marks read back included).
   python3 analyze.py FILE..."""
import csv
import gzip
import statistics as st
import sys

for path in sys.argv[1:]:
    WARP_BYTES = 32 * 16 * 2 if path.split("/")[-1].startswith("copy") else 32 * 16 * 8 * 2
    opener = gzip.open if path.endswith(".gz") else open
    events, launches = [], {}
    with opener(path, "rt") as f:
        for r in csv.DictReader(f):
            if r["warp"] == "-1":
                events.append((int(r["event_end"]) - int(r["event_start"])) / 1e3)
            else:
                launches.setdefault(r["launch"], []).append(
                    (int(r["event_start"]), int(r["event_end"]), int(r["start"]), int(r["end"])))
    print("%s: events %s µs" % (path.split("/")[-1], " ".join("%.1f" % e for e in events)))
    print("  launch | event | before | span | after | full | steady | TB/s | tail | life")
    for launch, rows in launches.items():
        es, ee = rows[0][0], rows[0][1]
        spans = [(s - es, e - es) for _, _, s, e in rows if s and e]
        first, last = min(s for s, _ in spans), max(e for _, e in spans)
        step = 50
        n = (last - first) // step + 1
        delta = [0] * (n + 1)
        for s, e in spans:
            delta[(s - first) // step] += 1
            delta[(e - first) // step] -= 1
        running, count = [], 0
        for d in delta[:n]:
            count += d
            running.append(count)
        q1, q3 = first + (last - first) // 4, first + 3 * (last - first) // 4
        steady = st.median(running[(q1 - first) // step:(q3 - first) // step])
        ended = sum(1 for _, e in spans if q1 <= e < q3)
        tail = (n - max(i for i, c in enumerate(running) if c >= steady / 2)) * step
        life = sorted(e - s for s, e in spans)
        print("  %s | %.2f | %.2f | %.2f | %.2f | %d | %d | %.2f | %.2f | %.2f / %.2f / %.2f" % (
            launch, (ee - es) / 1e3, first / 1e3, (last - first) / 1e3, (ee - es - last) / 1e3,
            max(running), steady, ended * WARP_BYTES / (q3 - q1) / 1e3, tail / 1e3,
            life[len(life) // 10] / 1e3, life[len(life) // 2] / 1e3,
            life[9 * len(life) // 10] / 1e3))
