#!/usr/bin/env python3
"""Every relative link and image of the documentation leads somewhere.

  check-links.py [--root DIR] [FILE.md ...]

Checks README.md, docs/*.md, bench/results/README.md and bench/experiments/**/README.md (or
the files given): each relative target exists, and each #anchor, in the page or in another
page (page.md#anchor), is a heading of that page under GitHub's rule. External links (http,
https, mailto, ...) are not fetched. Prints one line per broken link, `FILE:LINE: link -> why`,
and exits 1 when there is any.
"""

from __future__ import annotations

import argparse
import re
import sys
import urllib.parse
from pathlib import Path

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
REFERENCE = re.compile(r"^ {0,3}\[([^\]]+)\]:[ \t]*(<[^>]*>|\S+)")
HTML_TARGET = re.compile(r"<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*([\"'])(.*?)\1", re.I)
HTML_ID = re.compile(r"<[a-z][^>]*?\b(?:id|name)\s*=\s*([\"'])(.*?)\1", re.I)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:|^//")


def strip_code_spans(line: str) -> str:
    """The line with `code spans` blanked (same length, so columns stay), as links in them are
    text."""
    return re.sub(r"(`+)(.+?)\1", lambda m: " " * len(m.group(0)), line)


def prose_lines(text: str):
    """(line number, line) of the text outside fenced code blocks, HTML comments blanked (GitHub
    shows neither their links nor their headings)."""
    fence = None
    in_comment = False
    for number, line in enumerate(text.split("\n"), 1):
        if not fence:
            line, in_comment = without_comments(line, in_comment)
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and \
                    not line.strip()[len(m.group(1)):].strip():
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        yield number, line


def without_comments(line: str, in_comment: bool) -> tuple[str, bool]:
    """The line with the parts inside <!-- --> blanked, and whether a comment is still open."""
    out, i = [], 0
    while i < len(line):
        if in_comment:
            end = line.find("-->", i)
            if end < 0:
                return "".join(out), True
            i, in_comment = end + 3, False
        else:
            start = line.find("<!--", i)
            if start < 0:
                out.append(line[i:])
                break
            out.append(line[i:start])
            i, in_comment = start + 4, True
    return "".join(out), in_comment


def heading_text(raw: str) -> str:
    """A heading as GitHub renders it, as text: images by their alt text, links by their text,
    code spans by their content, no emphasis markers or HTML tags."""
    text = re.sub(r"!\[([^\]]*)\]\([^)]*\)", r"\1", raw)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"\[([^\]]*)\]\[[^\]]*\]", r"\1", text)
    text = re.sub(r"(`+)(.+?)\1", lambda m: m.group(2).strip(), text)
    text = re.sub(r"<[^>]+>", "", text)
    # Emphasis markers: runs of * or _ at a word's edge (snake_case stays whole).
    text = re.sub(r"(?<![\w*])[*_]+(?=\S)|(?<=\S)[*_]+(?![\w*])", "", text)
    text = re.sub(r"~~", "", text)
    return text.strip()


def slug(text: str) -> str:
    """GitHub's anchor for a heading: lowercase, every character other than letters, digits,
    spaces, '-' and '_' removed, each space a '-'."""
    text = text.lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor a page has: its headings' (a repeated one gets -1, -2, ...) and the ids and
    names of its HTML elements."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    previous = None  # the last prose line, for setext headings
    for _, line in prose_lines(text):
        heading = None
        m = ATX.match(line)
        if m:
            heading = m.group(2) or ""
        elif previous and previous.strip() and SETEXT.match(line) and \
                not ATX.match(previous) and not previous.startswith("    "):
            heading = previous.strip()
        if heading is not None:
            base = slug(heading_text(heading))
            n = seen.get(base, 0)
            found.add(base if n == 0 else f"{base}-{n}")
            seen[base] = n + 1
            previous = None
        else:
            previous = line
        for m in HTML_ID.finditer(line):
            found.add(m.group(2))
    return found


def destination(line: str, start: int) -> str | None:
    """The link destination that starts at `start` (just after "]("): <...>, or up to the
    closing parenthesis with balanced parentheses inside, without a title."""
    rest = line[start:].lstrip()
    if rest.startswith("<"):
        end = rest.find(">")
        return rest[1:end] if end > 0 else None
    depth, out = 0, []
    for c in rest:
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                break
            depth -= 1
        elif c.isspace():
            break
        out.append(c)
    else:
        if depth or not out:
            return None
    return "".join(out)


def links(text: str):
    """(line number, target) of every link and image: inline [text](target) and
    ![alt](target), reference definitions [id]: target, and HTML <a href> and <img src>."""
    for number, line in prose_lines(text):
        prose = strip_code_spans(line)
        m = REFERENCE.match(prose)
        if m:
            yield number, m.group(2).strip("<>")
            continue
        for m in re.finditer(r"\]\(", prose):
            target = destination(prose, m.end())
            if target is not None:
                yield number, target
        for m in HTML_TARGET.finditer(prose):
            yield number, m.group(2)


class Checker:
    def __init__(self, root: Path):
        self.root = root.resolve()
        self.cache: dict[Path, set[str]] = {}

    def anchors_of(self, page: Path) -> set[str]:
        if page not in self.cache:
            self.cache[page] = anchors(page.read_text(encoding="utf-8", errors="replace"))
        return self.cache[page]

    def why_broken(self, page: Path, target: str) -> str | None:
        """None when `target`, as written in `page`, leads somewhere; else why not."""
        if not target or SCHEME.match(target):
            return None  # external: not fetched
        path_part, _, fragment = target.partition("#")
        path_part = urllib.parse.unquote(path_part.split("?")[0])
        fragment = urllib.parse.unquote(fragment)
        if path_part:
            # GitHub reads a leading / from the repository's root.
            base = self.root if path_part.startswith("/") else page.parent
            resolved = (base / path_part.lstrip("/")).resolve()
            if not resolved.exists():
                return f"no such file {relative(resolved, self.root)}"
        else:
            resolved = page
        if not fragment:
            return "empty anchor" if target == "#" else None
        if resolved.is_dir() or resolved.suffix.lower() not in (".md", ".markdown"):
            return None  # anchors of other files (line numbers of code) are not checked
        if fragment not in self.anchors_of(resolved):
            where = "this page" if resolved == page else relative(resolved, self.root)
            return f"no heading #{fragment} in {where}"
        return None

    def check(self, page: Path) -> list[str]:
        text = page.read_text(encoding="utf-8", errors="replace")
        problems = []
        for number, target in links(text):
            why = self.why_broken(page.resolve(), target)
            if why:
                problems.append(f"{relative(page.resolve(), self.root)}:{number}: {target} -> {why}")
        return problems


def relative(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def default_pages(root: Path) -> list[Path]:
    pages = [root / "README.md", *sorted((root / "docs").glob("*.md")),
             root / "bench/results/README.md",
             *sorted((root / "bench/experiments").glob("**/README.md"))]
    return [p for p in pages if p.is_file()]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Check the documentation's relative links.")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="the repository (for links from /, and the names printed)")
    parser.add_argument("pages", nargs="*", type=Path, help="pages to check (default: README.md,"
                        " docs/*.md, bench/results/README.md, bench/experiments/**/README.md)")
    args = parser.parse_args(argv)
    pages = args.pages or default_pages(args.root)
    if not pages:
        print(f"check-links: no pages under {args.root}")
        return 1
    checker = Checker(args.root)
    problems = [line for page in pages for line in checker.check(page)]
    for line in problems:
        print(line)
    print(f"check-links: {len(pages)} pages, {len(problems)} broken links", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
