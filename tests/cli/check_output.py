#!/usr/bin/env python3
"""Checks the files histlab-cli writes (used by expect.sh --check in tests/cli/).

  check_output.py json FILE [--key NAME=JSON]... [--nonempty NAME]...
      FILE parses as JSON; each top-level NAME equals the JSON value given, each --nonempty
      NAME is a non-empty list or object.
  check_output.py csv FILE --header H --total N
      FILE is a histogram CSV: the header line is H, then 256 rows "bin,..." for bins 0..255
      in order, and every channel column adds up to N (the pixel count).
  check_output.py stats FILE --histogram HISTCSV
      FILE is a statistics CSV with one row per channel of HISTCSV (same order), and every
      value equals what this script computes from HISTCSV's counts on its own (nearest-rank
      percentiles, population standard deviation, Shannon entropy in bits).
  check_output.py register FILE --truth TX,TY,ANGLE [--px P] [--deg D]
      FILE is histlab-cli register's JSON: verified, and its transform within P pixels
      (default 0.1) of (TX, TY) and D degrees (default 0.05) of ANGLE.
  check_output.py sweepcsv FILE --rows N --columns A,B,... [--filled COLUMN]...
      FILE is a sweep CSV: the header has every column named, then N rows of as many fields,
      each with a known status; each --filled COLUMN has a value in every row.
"""
import argparse
import csv
import json
import math
import sys


def fail(message):
    print(f"check_output.py: {message}", file=sys.stderr)
    sys.exit(1)


def check_json(args):
    try:
        with open(args.file, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{args.file}: not valid JSON ({e})")
    for item in args.key:
        name, _, value = item.partition("=")
        if name not in data:
            fail(f'{args.file}: no key "{name}"')
        if data[name] != json.loads(value):
            fail(f'{args.file}: "{name}" is {json.dumps(data[name])}, expected {value}')
    for name in args.nonempty:
        if not data.get(name):
            fail(f'{args.file}: "{name}" is missing or empty')


def check_csv(args):
    with open(args.file, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    if not rows or ",".join(rows[0]) != args.header:
        fail(f'{args.file}: header is {rows[0] if rows else None}, expected "{args.header}"')
    body = rows[1:]
    if len(body) != 256:
        fail(f"{args.file}: {len(body)} rows, expected 256")
    columns = len(rows[0])
    totals = [0] * (columns - 1)
    for b, row in enumerate(body):
        if len(row) != columns or row[0] != str(b):
            fail(f"{args.file}: row {b + 1} is {row}")
        for c in range(1, columns):
            totals[c - 1] += int(row[c])
    for name, total in zip(rows[0][1:], totals):
        if total != args.total:
            fail(f"{args.file}: column {name} adds up to {total}, expected {args.total}")


def expected_stats(counts):
    n = sum(counts)
    values = [v for v in range(256) if counts[v]]

    def at_rank(rank):
        seen = 0
        for v in range(256):
            seen += counts[v]
            if seen >= rank:
                return v
        return 255

    def percentile(p):
        return at_rank(max(1, math.ceil(p / 100 * n)))

    mean = sum(v * counts[v] for v in range(256)) / n
    var = sum(counts[v] * (v - mean) ** 2 for v in range(256)) / n
    mode = max(range(256), key=lambda v: (counts[v], -v))
    entropy = -sum(counts[v] / n * math.log2(counts[v] / n) for v in values)
    row = {"count": n, "min": values[0], "max": values[-1], "mean": mean,
           "median": percentile(50), "mode": mode, "stddev": math.sqrt(var),
           "entropy_bits": entropy}
    for p in (1, 5, 25, 75, 95, 99):
        row[f"p{p}"] = percentile(p)
    return row


def check_stats(args):
    with open(args.histogram, encoding="utf-8", newline="") as f:
        hist = list(csv.reader(f))
    channels = hist[0][1:]
    counts = {name: [int(row[1 + i]) for row in hist[1:]] for i, name in enumerate(channels)}
    with open(args.file, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    if [r["channel"] for r in rows] != channels:
        fail(f"{args.file}: channels {[r['channel'] for r in rows]}, expected {channels}")
    for r in rows:
        want = expected_stats(counts[r["channel"]])
        for key, value in want.items():
            got = float(r[key])
            if not math.isclose(got, value, rel_tol=1e-6, abs_tol=1e-6):
                fail(f"{args.file}: {r['channel']} {key} is {r[key]}, expected {value}")


def check_sweep_csv(args):
    with open(args.file, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
        f.seek(0)
        header = next(csv.reader(f), [])
    for column in args.columns.split(","):
        if column not in header:
            fail(f'{args.file}: no column "{column}" in {header}')
    if len(rows) != args.rows:
        fail(f"{args.file}: {len(rows)} rows, expected {args.rows}")
    for i, row in enumerate(rows):
        if None in row or any(v is None for v in row.values()):
            fail(f"{args.file}: row {i + 1} has {len(row)} fields, the header {len(header)}")
        if row["status"] not in ("verified", "timed", "mismatch", "unsupported", "failed"):
            fail(f'{args.file}: row {i + 1} has status "{row["status"]}"')
        for column in args.filled:
            if not row.get(column):
                fail(f'{args.file}: row {i + 1} has no "{column}"')


def check_table(args):
    """Any CSV table: its columns, its row count, every row as wide as the header."""
    with open(args.file, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0] if rows else []
    for column in args.columns.split(","):
        if column not in header:
            fail(f'{args.file}: no column "{column}" in {header}')
    if len(rows) - 1 != args.rows:
        fail(f"{args.file}: {len(rows) - 1} rows, expected {args.rows}")
    for i, row in enumerate(rows[1:]):
        if len(row) != len(header):
            fail(f"{args.file}: row {i + 1} has {len(row)} fields, the header {len(header)}")


def check_register(args):
    with open(args.file, encoding="utf-8") as f:
        data = json.load(f)
    if data.get("status") != "verified":
        fail(f'{args.file}: status is {data.get("status")} ({data.get("detail")})')
    tx, ty, angle = (float(v) for v in args.truth.split(","))
    t = data["transform"]
    error = math.hypot(t["tx"] - tx, t["ty"] - ty)
    if error > args.px or abs(t["angle_deg"] - angle) > args.deg:
        fail(f"{args.file}: transform {t} is {error:.4f} px and "
             f"{abs(t['angle_deg'] - angle):.4f} deg from {args.truth}")


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="kind", required=True)
    j = sub.add_parser("json")
    j.add_argument("file")
    j.add_argument("--key", action="append", default=[])
    j.add_argument("--nonempty", action="append", default=[])
    c = sub.add_parser("csv")
    c.add_argument("file")
    c.add_argument("--header", required=True)
    c.add_argument("--total", type=int, required=True)
    t = sub.add_parser("stats")
    t.add_argument("file")
    t.add_argument("--histogram", required=True)
    t2 = sub.add_parser("table")
    t2.add_argument("file")
    t2.add_argument("--rows", type=int, required=True)
    t2.add_argument("--columns", required=True)
    r = sub.add_parser("register")
    r.add_argument("file")
    r.add_argument("--truth", required=True)
    r.add_argument("--px", type=float, default=0.1)
    r.add_argument("--deg", type=float, default=0.05)
    w = sub.add_parser("sweepcsv")
    w.add_argument("file")
    w.add_argument("--rows", type=int, required=True)
    w.add_argument("--columns", required=True)
    w.add_argument("--filled", action="append", default=[])
    args = parser.parse_args()
    {"json": check_json, "csv": check_csv, "stats": check_stats,
     "sweepcsv": check_sweep_csv, "table": check_table, "register": check_register}[args.kind](args)


if __name__ == "__main__":
    main()
