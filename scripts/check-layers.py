#!/usr/bin/env python3
"""Checks that HistLab's floors stay put: no #include climbs, no two pipeline families include
each other (directly or round a loop), the core includes no Qt and nothing of ui/ or app/, and
no thread is made in the core outside core/runtime.

    scripts/check-layers.py [SOURCE_DIR]      exit 0 when clean, 1 listing every climb

The floors, lowest first (docs/architecture.md draws them):
  core/runtime -> core/image -> core/report -> core/io -> core/pipelines (the contract: the
  files directly in it) -> core/pipelines/<family> -> core/services -> ui -> app
A file may include its own floor and those below. A family may include another family (batch
counts with histogram256) as long as the families' includes form no loop. In ui/, the window
(ui/window) may include every other ui folder; none of them includes the window.
"""

import os
import re
import sys

CORE = ["runtime", "image", "report", "io", "pipelines", "services"]
FLOOR = {"runtime": 0, "image": 1, "report": 2, "io": 3, "contract": 4, "family": 5,
         "services": 6, "ui": 7, "app": 8}
UI_DIRS = ["bridge", "common", "plots", "views", "panels", "window"]
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
# Threads are made in core/runtime only (runtime/parallel.h, devicescheduler.h, runner.h).
THREAD = re.compile(r"std::(thread|async|jthread)\b|hardware_concurrency")


def place(rel):
    """(floor name, family or ui folder) of a file path relative to the source root."""
    parts = rel.split("/")
    if parts[0] == "core" and len(parts) > 2:
        if parts[1] == "pipelines":
            return ("contract", "") if len(parts) == 3 else ("family", parts[2])
        if parts[1] in CORE:
            return (parts[1], "")
    if parts[0] == "ui" and len(parts) > 2:
        return ("ui", parts[1])
    if parts[0] == "app":
        return ("app", "")
    return None


def target(name, root):
    """The file an include names, relative to the root, if it is one of HistLab's own."""
    first = name.split("/")[0]
    if first in CORE:
        rel = "core/" + name
    elif first in UI_DIRS:
        rel = "ui/" + name
    else:
        return None
    return rel if os.path.exists(os.path.join(root, rel)) else None


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    problems = []
    families = {}  # family -> {family it includes: first place seen}
    for top in ("core", "ui", "app"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if not f.endswith((".h", ".cpp")):
                    continue
                path = os.path.join(folder, f)
                rel = os.path.relpath(path, root)
                me = place(rel)
                if me is None:
                    continue
                with open(path, encoding="utf-8", errors="replace") as text:
                    for n, line in enumerate(text, 1):
                        code = line.split("//", 1)[0]
                        if (top == "core" and me[0] != "runtime" and THREAD.search(code) and
                                "this_thread" not in code):
                            problems.append("%s:%d: a thread made outside core/runtime "
                                            "(runtime/parallel.h makes them)" % (rel, n))
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        name = m.group(1)
                        where = "%s:%d: %s" % (rel, n, name)
                        if top == "core" and re.match(r"Q[A-Za-z]", name):
                            problems.append(where + ": Qt in the core")
                            continue
                        t = target(name, root)
                        if t is None:
                            continue
                        it = place(t)
                        if FLOOR[it[0]] > FLOOR[me[0]]:
                            problems.append("%s: %s includes %s, a floor above" %
                                            (where, me[0], it[0]))
                        elif me[0] == "family" and it[0] == "family" and it[1] != me[1]:
                            families.setdefault(me[1], {}).setdefault(it[1], where)
                        elif me[0] == "ui" and it[1] == "window" and me[1] != "window":
                            problems.append("%s: ui/%s includes the window (ui/window)" %
                                            (where, me[1]))
    # Loops among families: a depth-first walk that reports each loop once.
    state, stack, seen = {}, [], set()

    def walk(f):
        state[f] = 1
        stack.append(f)
        for g in sorted(families.get(f, {})):
            if state.get(g) == 1:
                loop = stack[stack.index(g):] + [g]
                key = frozenset(loop)
                if key not in seen:
                    seen.add(key)
                    steps = ["%s (%s)" % (" -> ".join(loop[i:i + 2]), families[loop[i]][loop[i + 1]])
                             for i in range(len(loop) - 1)]
                    problems.append("families include each other: " + "; ".join(steps))
            elif g not in state:
                walk(g)
        stack.pop()
        state[f] = 2

    for f in sorted(families):
        if f not in state:
            walk(f)
    for p in problems:
        print("check-layers: " + p)
    if problems:
        print("check-layers: %d problem(s); docs/architecture.md says where things go"
              % len(problems))
        return 1
    print("check-layers: the floors hold (%d families, no loop)" % len(families))
    return 0


if __name__ == "__main__":
    sys.exit(main())
