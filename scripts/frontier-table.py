#!/usr/bin/env python3
"""The README's performance tables, made from scripts/gpu-frontier.sh's results (never typed).

  frontier-table.py FOLDER... [--readme README.md]
  frontier-table.py --check README.md

Each FOLDER is one unpacked gpu-frontier.sh run (bench/results/gpu-*-frontier-DATE/runN). Prints
one markdown table per device (the runs of the same device together): each figure of the
frontier, its median over the runs with the range of its ratio, its ceiling (the family member
that won), the target, and the peer measured in the same job. With --readme, the text
between the README's "<!-- frontier:begin -->" and "<!-- frontier:end -->" lines is replaced.
With --check, the tables are made again from the folders the README's block names, and any
difference from the README fails (a test keeps the README's figures generated).
"""
import argparse
import csv
import json
import os
import sys

from textfile import write_atomically  # scripts/textfile.py, beside this file


def load(folder, name):
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f) if name.endswith(".json") else list(csv.DictReader(f))


def dashboard_rows(run):
    return {r["pipeline"]: r for r in run["results"]} if run else {}


def fmt(x, digits=0):
    return "-" if x is None else f"{x:,.{digits}f}"


def figures(folder):
    """(device, driver, date) and the run's figures: label -> (GB/s, ceiling text, %, target),
    target None for a figure that must stay at or under 100 % of its ceiling."""
    d1g = load(folder, "dashboard_1g.json")
    if not d1g:
        sys.exit(f"frontier-table.py: {folder}: no dashboard_1g.json")
    device = d1g["devices"][0]["device"]
    g1, m64, m16 = (dashboard_rows(d1g), dashboard_rows(load(folder, "dashboard_64m.json")),
                    dashboard_rows(load(folder, "dashboard_16m.json")))
    out = {}

    def dash(label, rows, name, target):
        r = rows.get(name)
        if r and r["status"] in ("verified", "timed"):
            out[label] = (r["gbps"], f"{r['ceiling']} {fmt(r['ceiling_gbps'])} "
                          f"({r.get('ceiling_kernel', '?')})", r["percent_of_ceiling"], target)
        return r

    read, copy = g1.get("read-only"), g1.get("copy")
    for label, r in (("read-only ceiling, 1 GiB", read), ("copy ceiling, 1 GiB", copy)):
        if r:  # the ceiling itself: its fastest run
            out[label] = (r["ceiling_gbps"], r["variant"], None, None)
    dash("histogram256, 1 GiB random", g1, "histogram256", 95)
    dash("histogram256, 16 MiB", m16, "histogram256", 90)
    for name, label, target in (("colour_1024_c3.json", "RGB + luma in one read, 1 GiB", 95),
                                ("colour_1024_c4.json", "RGBA + luma in one read, 1 GiB", 95),
                                ("colour_72_c3.json", "RGB + luma, 24 MP frame (72 MiB)", 90)):
        h = load(folder, name)
        if h:
            p, c = h["passes"][0], h["read_only_ceiling"]
            out[label] = (p["gbps"], f"read-only {fmt(c['gbps'])} ({c['kernel']})",
                          p["percent_of_read_only"], target)
    dash("blur 3 × 3, gray 8192²", m64, "blur3x3", 90)
    dash("blur 3 × 3, gray 32768²", g1, "blur3x3", 90)
    for side in (8192, 32768):
        b = load(folder, f"blur_rgba_{side}.json")
        if b and b.get("runs"):
            r = b["runs"][0]
            out[f"blur 3 × 3, RGBA {side} × {side // 4}"] = (
                r["gbps"], f"copy {fmt(r['copy_gbps'])}", r["percent_of_copy"], 85)
    scan = dash("scan, 256 Mi uint32", g1, "scan", 80)
    cub = {r["peer"]: r for r in (load(folder, "cub_scan.csv") or [])}
    if "cub_exclusive_sum" in cub and scan:
        c = float(cub["cub_exclusive_sum"]["gbps"])
        out["scan ÷ CUB ExclusiveSum (same GPU, same job)"] = (
            c, f"CUB {fmt(c)}; cudaMemcpy D2D {fmt(float(cub['cuda_memcpy_d2d']['gbps']))}",
            100 * scan["gbps"] / c, 100)
    eq = g1.get("equalize")
    if eq and read and copy and eq["status"] == "verified":
        image = eq["bytes"] / 3  # 3 x image bytes
        floor_ms = (image / (read["ceiling_gbps"] * 1e6) +
                    2 * image / (copy["ceiling_gbps"] * 1e6))
        out["equalize 32768², of its floor (1 read + 1 read and write)"] = (
            eq["gbps"], f"floor {floor_ms:.3f} ms at the ceilings, run "
            f"{eq['timing']['median_ms']:.3f} ms", 100 * floor_ms / eq["timing"]["median_ms"], 85)
    dash("reverse, 1 GiB", g1, "reverse", None)
    dash("d2d (clEnqueueCopyBuffer), 1 GiB", g1, "d2d", None)
    return (device.get("name", "?"), device.get("driver", "?"), d1g["date"][:10]), out


def median(values):
    v = sorted(values)
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2


def table(folders, base):
    """One device's table: each figure's median over the runs in `folders`, with the range."""
    runs = [figures(f) for f in folders]
    (name, driver, date), _ = runs[0]
    lines = [f"**{name}** (driver {driver}), {date}, {len(runs)} run(s) of "
             "`scripts/gpu-frontier.sh`: " + ", ".join(f"`{os.path.relpath(f, base)}`" for f in folders),
             "", "| figure | GB/s | ceiling GB/s (kernel that won; first run) | % of ceiling, "
             "median (range) | target | |", "|---|---|---|---|---|---|"]
    for label in runs[0][1]:
        got = [r[1][label] for r in runs if label in r[1]]
        gbps = median([g[0] for g in got])
        ceiling, target = got[0][1], got[0][3]
        if got[0][2] is None:  # a ceiling: the fastest run of its family
            lines.append(f"| {label} | {fmt(gbps)} | {ceiling} | 100 | the fastest run of its "
                         "family | |")
            continue
        pcts = [g[2] for g in got]
        pct = median(pcts)
        spread = f" ({min(pcts):.1f}–{max(pcts):.1f})" if len(pcts) > 1 else ""
        if target is None:
            aim, verdict = "≤ 100 %", "met" if max(pcts) <= 100 else "**over**"
        else:
            aim, verdict = f"≥ {target} %", "met" if pct >= target else "**not yet**"
        lines.append(f"| {label} | {fmt(gbps)} | {ceiling} | {pct:.1f}{spread} | {aim} | "
                     f"{verdict} |")
    return "\n".join(lines) + "\n"


BEGIN, END = "<!-- frontier:begin -->\n", "<!-- frontier:end -->"
MADE_BY = "<!-- made by scripts/frontier-table.py from "


def split_readme(path):
    with open(path, encoding="utf-8") as f:
        readme = f.read()
    if BEGIN not in readme or END not in readme:
        sys.exit(f"frontier-table.py: {path} has no {BEGIN.strip()} ... {END} lines")
    head, rest = readme.split(BEGIN, 1)
    block, tail = rest.split(END, 1)
    return head, block, tail


def block_for(folders, base):
    """The block, its paths relative to `base` (the README's folder)."""
    devices = {}
    for folder in folders:  # one table per device, its runs together, in the order given
        devices.setdefault(figures(folder)[0][0], []).append(folder)
    return (MADE_BY + ", ".join(os.path.relpath(f, base) for f in folders) +
            "; do not edit -->\n" + "\n".join(table(group, base) for group in devices.values()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folders", nargs="*")
    parser.add_argument("--readme")
    parser.add_argument("--check")
    args = parser.parse_args()
    if args.check:
        _, block, _ = split_readme(args.check)
        if not block.startswith(MADE_BY):
            sys.exit(f"frontier-table.py: {args.check}: the frontier block names no folders")
        names = block[len(MADE_BY):block.index("; do not edit")].split(", ")
        root = os.path.dirname(os.path.abspath(args.check))
        if block_for([os.path.join(root, n) for n in names], root) != block:
            sys.exit(f"frontier-table.py: {args.check}: the frontier tables differ from what "
                     f"{', '.join(names)} give; run scripts/frontier-table.py "
                     f"{' '.join(names)} --readme {args.check}")
        print(f"{args.check}: the frontier tables are those of {', '.join(names)}")
        return
    if not args.folders:
        parser.error("give the result folders")
    if not args.readme:
        sys.stdout.write(block_for(args.folders, os.getcwd()).split("\n", 1)[1])
        return
    head, _, tail = split_readme(args.readme)
    write_atomically(args.readme, head + BEGIN + block_for(
        args.folders, os.path.dirname(os.path.abspath(args.readme))) + END + tail)


if __name__ == "__main__":
    main()
