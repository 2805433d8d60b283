#!/usr/bin/env python3
"""The README's performance tables, made from scripts/gpu-frontier.sh's results (never typed).

  frontier-table.py FOLDER... [--readme README.md]

Each FOLDER is one unpacked gpu-frontier.sh run (bench/results/gpu-*-frontier-DATE). Prints one
markdown table per device: each figure of the frontier with its ceiling (the family member that
won), the ratio, the target and the peer measured in the same job. With --readme, the text
between the README's "<!-- frontier:begin -->" and "<!-- frontier:end -->" lines is replaced.
"""
import argparse
import csv
import json
import os
import re
import sys


def load(folder, name):
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f) if name.endswith(".json") else list(csv.DictReader(f))


def dashboard_rows(run):
    return {r["pipeline"]: r for r in run["results"]} if run else {}


def verdict(value, target):
    if value is None:
        return "not measured"
    return "met" if value >= target else "**not yet**"


def fmt(x, digits=0):
    return "-" if x is None else f"{x:,.{digits}f}"


def table(folder):
    d1g = load(folder, "dashboard_1g.json")
    if not d1g:
        sys.exit(f"frontier-table.py: {folder}: no dashboard_1g.json")
    device = d1g["devices"][0]["device"]
    g1, m64, m16 = (dashboard_rows(d1g), dashboard_rows(load(folder, "dashboard_64m.json")),
                    dashboard_rows(load(folder, "dashboard_16m.json")))
    lines = [f"**{device.get('name', '?')}** (driver {device.get('driver', '?')}), "
             f"{d1g['date'][:10]}, `{os.path.relpath(folder)}`", "",
             "| figure | GB/s | ceiling GB/s (kernel that won) | % of ceiling | target | |",
             "|---|---|---|---|---|---|"]

    def dash(label, rows, name, target, note=""):
        r = rows.get(name)
        if not r or r["status"] not in ("verified", "timed"):
            lines.append(f"| {label} | - | - | - | {note or '-'} | "
                         f"{r['status'] + ': ' + r['reason'] if r else 'not measured'} |")
            return None
        pct = r["percent_of_ceiling"]
        lines.append(f"| {label} | {fmt(r['gbps'])} | {r['ceiling']} {fmt(r['ceiling_gbps'])} "
                     f"({r.get('ceiling_kernel', '?')}) | {pct:.1f} | "
                     f"{note or ('≥ ' + str(target) + ' %' if target else '≤ 100 %')} | "
                     f"{verdict(pct, target) if target else ('met' if pct <= 100 else '**over**')} |")
        return r

    read, copy = g1.get("read-only"), g1.get("copy")
    for name, r in (("read-only ceiling, 1 GiB", read), ("copy ceiling, 1 GiB", copy)):
        if r:
            lines.append(f"| {name} | {fmt(r['gbps'])} | {r['variant']} | 100 | the fastest "
                         "run of its family | |")
    dash("histogram256, 1 GiB random", g1, "histogram256", 95)
    dash("histogram256, 16 MiB", m16, "histogram256", 90)
    for name, label, target in (("colour_1024_c3.json", "RGB + luma in one read, 1 GiB", 95),
                                ("colour_1024_c4.json", "RGBA + luma in one read, 1 GiB", 95),
                                ("colour_72_c3.json", "RGB + luma, 24 MP frame (72 MiB)", 90)):
        h = load(folder, name)
        if h:
            p = h["passes"][0]
            c = h["read_only_ceiling"]
            lines.append(f"| {label} | {fmt(p['gbps'])} | read-only {fmt(c['gbps'])} "
                         f"({c['kernel']}) | {p['percent_of_read_only']:.1f} | ≥ {target} % | "
                         f"{verdict(p['percent_of_read_only'], target)} |")
    dash("blur 3 × 3, gray 8192²", m64, "blur3x3", 90)
    dash("blur 3 × 3, gray 32768²", g1, "blur3x3", 90)
    for side in (8192, 32768):
        b = load(folder, f"blur_rgba_{side}.json")
        if b and b.get("runs"):
            r = b["runs"][0]
            lines.append(f"| blur 3 × 3, RGBA {side} × {side // 4} | {fmt(r['gbps'])} | copy "
                         f"{fmt(r['copy_gbps'])} | {r['percent_of_copy']:.1f} | ≥ 85 % | "
                         f"{verdict(r['percent_of_copy'], 85)} |")
    scan = dash("scan, 256 Mi uint32", g1, "scan", 80)
    cub = load(folder, "cub_scan.csv")
    if cub:
        peers = {r["peer"]: r for r in cub}
        c = peers.get("cub_exclusive_sum")
        if c and scan:
            ratio = scan["gbps"] / float(c["gbps"])
            lines.append(f"| scan ÷ CUB ExclusiveSum (same GPU, same job) | {fmt(float(c['gbps']))} "
                         f"(CUB) | cudaMemcpy D2D {fmt(float(peers['cuda_memcpy_d2d']['gbps']))}, "
                         f"CUDA copy {fmt(float(peers['cuda_copy_uint4']['gbps']))} | "
                         f"{100 * ratio:.1f} | ≥ 100 % | {verdict(100 * ratio, 100)} |")
    eq = g1.get("equalize")
    if eq and read and copy and eq["status"] == "verified":
        image = eq["bytes"] / 3  # 3 x image bytes
        floor_ms = image / (read["gbps"] * 1e6) + 2 * image / (copy["gbps"] * 1e6)
        ratio = 100 * floor_ms / eq["timing"]["median_ms"]
        lines.append(f"| equalize 32768², of its floor (1 read + 1 read and write) | "
                     f"{fmt(eq['gbps'])} | floor {floor_ms:.3f} ms, run "
                     f"{eq['timing']['median_ms']:.3f} ms | {ratio:.1f} | ≥ 85 % | "
                     f"{verdict(ratio, 85)} |")
    dash("reverse, 1 GiB", g1, "reverse", None)
    dash("d2d (clEnqueueCopyBuffer), 1 GiB", g1, "d2d", None)
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--readme")
    args = parser.parse_args()
    text = "\n".join(table(f) for f in args.folders)
    if not args.readme:
        sys.stdout.write(text)
        return
    with open(args.readme, encoding="utf-8") as f:
        readme = f.read()
    begin, end = "<!-- frontier:begin -->\n", "<!-- frontier:end -->"
    if begin not in readme or end not in readme:
        sys.exit(f"frontier-table.py: {args.readme} has no {begin.strip()} ... {end} lines")
    head, rest = readme.split(begin, 1)
    _, tail = rest.split(end, 1)
    generated = ("<!-- made by scripts/frontier-table.py from "
                 + ", ".join(os.path.relpath(f) for f in args.folders) + "; do not edit -->\n")
    tmp = args.readme + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(head + begin + generated + text + end + tail)
    os.replace(tmp, args.readme)


if __name__ == "__main__":
    main()
