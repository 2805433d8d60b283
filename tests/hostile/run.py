#!/usr/bin/env python3
"""Run the hostile corpus against a histlab-cli binary and classify each run.

Usage: run.py --cli BINARY --out DIR [--only PATTERN] [--jobs 1] [--keep]

Writes DIR/corpus (made by make_corpus.py), DIR/logs/CASE.{out,err},
DIR/results.csv (case, class, exit, seconds, max RSS MB, first stderr line,
why) and prints the counts by class.

One case runs at a time (--jobs is accepted for the interface but only 1
is allowed): the machine this was written for has 2 cores shared with
builds, and a few cases deliberately push toward the memory cap. Each case
gets a wall limit (20 s unless the case says otherwise) and an RSS cap
(2 GiB, less where the case says so), both over the whole process tree,
polled every 50 ms; RLIMIT_AS at 16 GiB is a safety net if polling lags.
"""

import argparse
import csv
import glob
import hashlib
import os
import re
import resource
import shutil
import signal
import stat
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases as C  # noqa: E402
import make_corpus  # noqa: E402

CLASSES = ["pass", "crash", "data-loss", "hang", "memory", "wrong-result", "silent-failure",
           "unclear-message", "wrong-exit", "skipped"]
OUTPUT_OPTS = ("--csv", "--json", "--out", "--counts", "--stats-csv", "--similarity")
PAGE = os.sysconf("SC_PAGE_SIZE")
HASH_LIMIT = 256 << 20  # bigger inputs are compared by inode, size and mtime only


class Ctx:
    """What a case's setup and check see: the placeholders and the run."""

    def __init__(self, cli, corpus, scratch, env):
        self.cli, self.corpus, self.scratch, self.env = cli, corpus, scratch, env
        self.fmt = {"in": corpus, "s": scratch}
        self.stdout = ""

    def path(self, p):
        p = p.format(**self.fmt)
        return p if os.path.isabs(p) else os.path.join(self.scratch, p)


def snapshot(paths):
    """Identity and content of every regular file under `paths` (folders
    walked without following links; FIFOs, devices and /proc left alone:
    reading them would block or change them)."""
    snap = {}

    def one(p):
        try:
            st = os.lstat(p)
        except OSError:
            return
        if stat.S_ISREG(st.st_mode):
            h = None
            if st.st_size <= HASH_LIMIT:
                with open(p, "rb") as f:
                    h = hashlib.sha256(f.read()).hexdigest()
            snap[p] = (st.st_ino, st.st_size, st.st_mtime_ns if h is None else 0, h)
        elif stat.S_ISDIR(st.st_mode):
            try:
                for n in os.listdir(p):
                    one(os.path.join(p, n))
            except OSError:
                pass

    for p in paths:
        if p.startswith(("/proc", "/dev", "/sys")):
            continue
        one(p)
    return snap


def tree_rss(sid):
    """Resident bytes of every process of session `sid` (the case runs in a
    session of its own, so its children are counted too)."""
    total = 0
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[3]) != sid:  # field 6, session, after ") state ppid pgrp"
                continue
            total += int(fields[21]) * PAGE  # rss in pages
        except (OSError, IndexError, ValueError):
            pass
    return total


def outputs_of(args):
    outs = []
    for i, a in enumerate(args):
        for o in OUTPUT_OPTS:
            if a == o and i + 1 < len(args):
                outs.append(args[i + 1])
            elif a.startswith(o + "="):
                outs.append(a[len(o) + 1:])
    return [o for o in outs if o != "-"]


def tmp_files(dirs):
    found = set()
    for d in dirs:
        if d.startswith(("/proc", "/dev", "/sys")) or d in ("", "/"):
            continue  # walking /proc recursively never ends
        found.update(glob.glob(os.path.join(glob.escape(d), "**", "*.tmp-*"), recursive=True))
        found.update(glob.glob(os.path.join(glob.escape(d), "*.tmp-*")))
    return found


def default_names(args):
    """The file an error is most likely about: the last argument that is a
    path (its base name), else the last option."""
    outs = set(outputs_of(args))
    for a in reversed(args):
        if "/" in a and not a.startswith("-") and a not in outs:
            return [os.path.basename(a.rstrip("/")) or a]
    for a in reversed(args):
        if a.startswith("--"):
            return [a.split("=")[0]]
    return []


def run_case(c, cli, corpus, out, keep, quick=False):
    name = c["name"]
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
    scratch = os.path.join(out, "scratch", safe)
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    env = dict(os.environ, POCL_DEVICES="pthread")
    env.update(c.get("env", {}))
    ctx = Ctx(cli, corpus, scratch, env)
    res = dict(case=name, cls="pass", exit="", seconds=0.0, rss=0.0, first="", why="")
    if c.get("needs") and not os.path.lexists(ctx.path(c["needs"])):
        res.update(cls="skipped", why="no %s (its maker was not installed)" % c["needs"].format(**ctx.fmt))
        return res
    if c.get("user") == "nobody" and os.geteuid() != 0:
        res.update(cls="skipped", why="needs root to run as nobody")
        return res
    args = [a.format(**ctx.fmt) for a in c["cmd"]]
    cmdname = args[0] if args else ""
    if c.get("device", True) and "--device" not in args and "--help" not in args:
        # right after the command's name: appended last, it would become the
        # value of an option given last with an empty value ("--wg=")
        if cmdname in C.DEVICE_CMDS:
            args[1:1] = ["--device", "cpu"]
        elif cmdname == "bow" and len(args) > 1 and args[1] in C.BOW_DEVICE:
            args[2:2] = ["--device", "cpu"]
    try:
        if c.get("setup"):
            c["setup"](ctx)
    except Exception as e:  # a setup that fails is the corpus's fault, not the binary's
        res.update(cls="skipped", why="setup failed: %s" % e)
        return res
    if c.get("user") == "nobody":
        os.chmod(scratch, 0o777)
    inputs = [a for a in args if os.path.isabs(a) and a not in outputs_of(args)] + [scratch]
    before = snapshot(inputs)
    outs = [o if os.path.isabs(o) else os.path.join(scratch, o) for o in outputs_of(args)]
    out_dirs = {os.path.dirname(o) for o in outs} | {scratch}
    existed = {o for o in outs if os.path.lexists(o)}
    tmp_before = tmp_files(out_dirs)

    limit_as = c.get("as_limit", 16 << 30)
    fsize = c.get("fsize")
    user = c.get("user")

    def pre():
        os.setsid()
        resource.setrlimit(resource.RLIMIT_AS, (limit_as, limit_as))
        if fsize:
            # EFBIG instead of the SIGXFSZ that would kill the run: what a
            # full disk looks like to the program, without mounting one.
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        if user == "nobody":
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)

    logs = os.path.join(out, "logs")
    fo = open(os.path.join(logs, safe + ".out"), "wb")
    fe = open(os.path.join(logs, safe + ".err"), "wb")
    cap = min(c.get("mem_mb", 2048), 512 if quick else 2048) << 20
    wall = min(c.get("timeout", 20), 10) if quick else c.get("timeout", 20)
    t0 = time.monotonic()
    p = subprocess.Popen([cli] + args, stdout=fo, stderr=fe, stdin=subprocess.DEVNULL, cwd=scratch,
                         env=env, preexec_fn=pre)
    peak, killed = 0, None
    while p.poll() is None:
        rss = tree_rss(p.pid)
        peak = max(peak, rss)
        if rss > cap:
            killed = "memory"
        elif time.monotonic() - t0 > wall:
            killed = "hang"
        if killed:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
            break
        time.sleep(0.05)
    secs = time.monotonic() - t0
    # the session may have left children behind (a decoder thread pool is
    # threads, but be sure): end the whole group
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    fo.close()
    fe.close()
    rc = p.returncode
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    err = open(os.path.join(logs, safe + ".err"), "rb").read().decode("utf-8", "replace")
    ctx.stdout = open(os.path.join(logs, safe + ".out"), "rb").read(1 << 20).decode("utf-8", "replace")
    lines = [ln for ln in err.split("\n") if ln.strip()]
    # progress lines ("[3] a.png: verified ...") are the documented stream of
    # batch, bow and the sweeps; everything else counts as a message line
    msg = [ln for ln in lines if not re.match(r"^\[\d+\] ", ln)]
    res.update(exit=rc, seconds=round(secs, 2), rss=round(peak / 2**20, 1),
               first=(msg[0] if msg else (lines[0] if lines else ""))[:300])
    after = snapshot(inputs)
    # a file that was there before and changed is data loss, outputs
    # included: a case names a fresh output path unless the output is meant
    # to collide with an input
    changed = [k for k in before if after.get(k) != before[k]]
    allowed = c["exit"]

    def done(cls, why=""):
        res.update(cls=cls, why=why[:300])
        if not keep and cls == "pass":
            shutil.rmtree(scratch, ignore_errors=True)
        return res

    # big scratch files (sparse tables, 110 MB shards) never stay
    for f in glob.glob(os.path.join(glob.escape(scratch), "*")):
        try:
            if os.path.isfile(f) and os.path.getsize(f) > (16 << 20):
                os.remove(f)
        except OSError:
            pass
    if killed == "hang":
        return done("hang", "killed after %d s" % wall)
    if killed == "memory":
        return done("memory", "killed at %d MiB resident" % (cap >> 20))
    if rc < 0 or rc in (134, 139) or rc > 128:
        return done("crash", "signal %d" % -rc if rc < 0 else "exit %d" % rc)
    if changed:
        return done("data-loss", "input changed: " + ", ".join(os.path.relpath(k, out) for k in changed[:3]))
    leftovers = sorted(tmp_files(out_dirs) - tmp_before)
    if rc not in allowed:
        if rc == 0:
            return done(c.get("on_exit0", "silent-failure"), "exit 0, an error was due (%s)" %
                        "/".join(map(str, allowed)))
        return done("wrong-exit", "exit %d, want %s" % (rc, "/".join(map(str, allowed))))
    if rc == 0:
        if leftovers:
            return done("silent-failure", "left " + ", ".join(leftovers[:3]))
        if c.get("check"):
            try:
                why = c["check"](ctx)
            except Exception as e:  # a result that cannot be read is a wrong result
                why = "result unreadable: %s: %s" % (type(e).__name__, e)
            if why:
                return done(c.get("check_class", "wrong-result"), why)
        return done("pass")
    # an error was right: nothing may be left, and the message must be clear
    left = [o for o in outs if os.path.lexists(o) and o not in existed and not os.path.isdir(o)]
    if c.get("table_kept"):  # a table whose rows say why each input failed is the record
        left = []
    if left or leftovers:
        return done("unclear-message", "an output was left on failure: " +
                    ", ".join(os.path.basename(x) for x in (left + leftovers)[:3]))
    if rc == 1:
        return done("pass")
    if not msg:
        return done("unclear-message", "no message")
    names = c.get("names") or default_names(args)
    if not msg[0].startswith("histlab-cli: "):
        return done("unclear-message", "a foreign line comes first")
    if len(msg) > 1 and not c.get("log_follows"):
        return done("unclear-message", "%d message lines" % len(msg))
    if names and not any(n in msg[0] for n in names) and not any(
            n.split("\n")[-1] in msg[0] for n in names if "\n" in n):
        return done("unclear-message", "names none of " + ", ".join(repr(n) for n in names))
    for bad in c.get("not_contains", []):
        if bad in msg[0]:
            return done("unclear-message", "says %r" % bad)
    if len(msg[0]) > c.get("max_line", 2000):
        return done("unclear-message", "a %d-character line" % len(msg[0]))
    return done("pass")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", help="a regular expression matched against case names and tags")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--keep", action="store_true", help="keep every case's scratch folder")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--quick", action="store_true",
                    help="only the quick subset (cases.QUICK), capped at 512 MiB and 10 s a case")
    a = ap.parse_args()
    if a.jobs != 1:
        sys.exit("run.py: --jobs: only 1 (cases push toward the memory cap; two at once could exceed it)")
    def wanted(c):
        if a.quick and not c["quick"]:
            return False
        return not a.only or re.search(a.only, c["name"]) or any(re.search(a.only, t) for t in c["tags"])

    sel = [c for c in C.CASES if wanted(c)]
    if a.list:
        for c in sel:
            print("%-50s %-28s exit %s" % (c["name"].replace("\n", "\\n"), ",".join(c["tags"]),
                                          "/".join(map(str, c["exit"]))))
        print(len(sel), "cases")
        return 0
    cli = os.path.abspath(a.cli)
    out = os.path.abspath(a.out)
    os.makedirs(os.path.join(out, "logs"), exist_ok=True)
    corpus = os.path.join(out, "corpus")
    shutil.rmtree(corpus, ignore_errors=True)
    for s in make_corpus.make(corpus):
        print("corpus: skipped", s)
    rows = []
    t0 = time.monotonic()
    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["case", "class", "exit", "seconds", "max_rss_mb", "first_stderr_line", "why", "tags"])
        for i, c in enumerate(sel):
            r = run_case(c, cli, corpus, out, a.keep, a.quick)
            rows.append(r)
            w.writerow([r["case"], r["cls"], r["exit"], r["seconds"], r["rss"], r["first"], r["why"],
                        " ".join(c["tags"])])
            f.flush()
            mark = "" if r["cls"] == "pass" else "  <-- " + r["why"]
            print("[%d/%d] %-48s %-15s %5s %6.2fs %7.1f MB%s" % (
                i + 1, len(sel), r["case"].replace("\n", "\\n")[:48], r["cls"], r["exit"], r["seconds"],
                r["rss"], mark), flush=True)
    counts = {k: 0 for k in CLASSES}
    for r in rows:
        counts[r["cls"]] += 1
    print("\n%-16s %5s" % ("class", "cases"))
    for k in CLASSES:
        print("%-16s %5d" % (k, counts[k]))
    print("%-16s %5d   (%.0f s)" % ("total", len(rows), time.monotonic() - t0))
    return 0 if counts["pass"] + counts["skipped"] == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
