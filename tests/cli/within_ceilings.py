#!/usr/bin/env python3
"""No dashboard result is above its ceiling (ctest cli.dashboard_within_ceilings).

  within_ceilings.py HISTLAB_CLI WORKDIR [--size 64M] [--repeat 7] [--slack 0] [--reruns 2]

Runs `histlab-cli dashboard` on PoCL once; every result judged against a ceiling must name the
ceiling's kernel and be at most 100 % of it plus its stated noise (the CSV's noise_percent: half
the interquartile range of its rounds' %, each round a run of the pipeline and the ceiling runs
right after it) plus --slack. A pipeline above that is run again alone, up to --reruns times: it
fails only if it is above every time. The ceilings are timed run for run with the pipelines, so a
busy second slows both; a ceiling that is wrong (a kernel family that misses the device's fastest
way to move the bytes) is beaten every time.
"""
import argparse
import csv
import os
import subprocess
import sys


def dashboard(cli, work, pipelines, size, repeat, tag):
    out = os.path.join(work, f"d-{tag}.csv")
    command = [cli, "dashboard", "--device", "portable", "--size", size, "--repeat", str(repeat),
               "--quiet", "--csv", out]
    if pipelines:
        command += ["--pipeline", ",".join(pipelines)]
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"within_ceilings.py: {' '.join(command)} exited {done.returncode}:\n"
                 f"{done.stderr[-2000:]}")
    with open(out, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def above(rows, slack):
    """The judged rows above 100 % + their noise + slack; exits on a judged row without its
    ceiling's kernel."""
    found = {}
    for row in rows:
        percent = float(row["percent_of_ceiling"] or 0)
        noise = float(row["noise_percent"] or 0)
        if percent > 0 and not row["ceiling_kernel"]:
            sys.exit(f"within_ceilings.py: {row['pipeline']} is judged against a ceiling "
                     "without a kernel")
        if percent > 100 + noise + slack:
            found[row["pipeline"]] = (f"{row['pipeline']} ({row['variant']}) at {percent:.1f} "
                                      f"+- {noise:.1f} % of its {row['ceiling']} ceiling "
                                      f"({row['ceiling_kernel']})")
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("cli")
    parser.add_argument("work")
    parser.add_argument("--size", default="64M")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--slack", type=float, default=0.0)
    parser.add_argument("--reruns", type=int, default=2)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    rows = dashboard(args.cli, args.work, [], args.size, args.repeat, "all")
    judged = [r for r in rows if float(r["percent_of_ceiling"] or 0) > 0
              and r["pipeline"] not in ("read-only", "copy")]  # the ceilings: 100 %
    print(f"{len(rows)} results, {len(judged)} judged against a ceiling; highest "
          f"{max(float(r['percent_of_ceiling']) for r in judged):.1f} %")
    limit = f"100 % + its noise + {args.slack}"
    failing = above(rows, args.slack)
    for run in range(args.reruns):
        if not failing:
            break
        for line in failing.values():
            print(f"above {limit}, run again: {line}")
        failing = above(dashboard(args.cli, args.work, sorted(failing), args.size, args.repeat,
                                  f"rerun{run + 1}"), args.slack)
    if failing:
        for line in failing.values():
            print(f"FAIL: above {limit} in {args.reruns + 1} runs out of "
                  f"{args.reruns + 1}: {line}")
        sys.exit(1)
    print(f"every result within {limit} of its ceiling")


if __name__ == "__main__":
    main()
