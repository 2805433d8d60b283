"""Writing a generated page whole or not at all, for the scripts that make pages of the tree
(frontier-table.py, results-index.py, clidoc.py): a run stopped half-way leaves the old page,
never a cut one."""

import os


def write_atomically(path, text):
    """`text` into `path` through a temporary file beside it, then a rename."""
    path = os.fspath(path)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
