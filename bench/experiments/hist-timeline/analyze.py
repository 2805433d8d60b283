"""Medians over the launches of each timeline in timelines.tar.gz (made by job.sh), in µs:
  event     the launch as its profiling event measures it (what HistLab's figures time)
  before    event start -> the first group's mark 0 (no group of the kernel runs yet)
  groups    the first group's start -> the last group's end (mark 3)
  after     the last group's end -> event end
  start spread / end spread   first to last group start / end
and inside a group (the timer's marks, medians over the groups):
  zero      mark 0 -> 1: zeroing the copies, one barrier (the first loads already issued)
  count     mark 1 -> 2: reading (STAGE 0) or reading and counting (1, 3) every element
  finish    mark 2 -> 3: the reduction and the merge (STAGE 3), a barrier
  count by clock   the same as count, from %clock64 at the maximum SM clock in nvidia-smi.csv
                   (the clock may run slower under load)
   python3 analyze.py [timelines.tar.gz]   (default: the one in the results folder job.sh made,
   bench/results/gpu-h200-hist-timeline-2026-11-29)"""
import csv
import io
import os
import statistics as st
import sys
import tarfile

path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "../../results/gpu-h200-hist-timeline-2026-11-29/timelines.tar.gz")
with tarfile.open(path) as tar:
    files = {m.name: tar.extractfile(m).read().decode() for m in tar.getmembers() if m.isfile()}
smi = list(csv.reader(io.StringIO(files["tl/nvidia-smi.csv"])))
mhz = float(smi[1][2].split()[0])
print("file | event | before | groups | after | start spread | end spread | zero | count |"
      " finish | count by clock  (µs; SM clock %.0f MHz)" % mhz)
for name in sorted(n for n in files if n.endswith(".csv") and "/t" in n):
    launches = {}
    for r in csv.DictReader(io.StringIO(files[name])):
        launches.setdefault(r["launch"], []).append(r)
    cols = []
    for rows in launches.values():
        es, ee = int(rows[0]["event_start"]), int(rows[0]["event_end"])
        m = [[int(r["mark%d" % k]) for k in range(4)] for r in rows]
        c = [[int(r["clock%d" % k]) for k in range(4)] for r in rows]
        first, last = min(x[0] for x in m), max(x[3] for x in m)
        cols.append([(ee - es) / 1e3, (first - es) / 1e3, (last - first) / 1e3, (ee - last) / 1e3,
                     (max(x[0] for x in m) - first) / 1e3, (last - min(x[3] for x in m)) / 1e3] +
                    [st.median(x[k + 1] - x[k] for x in m) / 1e3 for k in range(3)] +
                    [st.median(x[2] - x[1] for x in c) / mhz])
    med = [st.median(col[i] for col in cols) for i in range(len(cols[0]))]
    print(name.split("/")[-1], "|", " | ".join("%.2f" % v for v in med))
