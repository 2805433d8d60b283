#!/usr/bin/env python3
"""The command-line reference, made from the programs' own --help and nothing else.

  clidoc.py --cli BUILD/app/histlab-cli --markdown docs/cli.md
      docs/cli.md: `histlab-cli --help`, then every command's and every action's help.
  clidoc.py --cli BUILD/app/histlab-cli --check docs/cli.md
      exit 1, with the head of a diff, when the committed page is not what the help says now.
  clidoc.py --cli BUILD/app/histlab-cli [--gui BUILD/app/histlab] --man-dir DIR --version V [--lint]
      the man pages histlab-cli.1 (and histlab.1) in DIR; --lint runs groff -ww (and mandoc, if
      installed) over them and fails on any warning.

Commands are found by reading each help's command list, recursively, so a command added to the
program reaches the reference without a change here. Both outputs go through one parser of the
help text (read_help), so they cannot disagree about what the help says.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import difflib
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from textfile import write_atomically  # scripts/textfile.py, beside this file

REPO = Path(__file__).resolve().parent.parent
# The command that regenerates docs/cli.md, as the page and --check print it (the build folder is
# the reader's own, so it is a placeholder and not the path this run was given).
REGENERATE = "python3 scripts/clidoc.py --cli BUILD/app/histlab-cli --markdown docs/cli.md"

# Section titles with a meaning of their own; every other titled list is a list of options.
COMMAND_TITLES = {"subcommands", "commands"}
EXIT_TITLES = {"exit codes", "exit status"}
ENVIRONMENT_TITLES = {"environment", "environment variables"}
FILES_TITLES = {"files"}


# ---------------------------------------------------------------------------------------------
# The parser: one help text into usage, description, sections (options, commands, footer).


@dataclass
class Entry:
    """One row of a two-column list: an option, a positional, a command or an exit code."""

    name: str  # as printed: "-v,--verbose", "--device SEL", "bench", "0"
    lines: list[str] = field(default_factory=list)  # the description, one printed line each

    @property
    def text(self) -> str:
        return " ".join(line.strip() for line in self.lines)


@dataclass
class Section:
    """A titled block ("Options:", "Exit codes:") or untitled free text (title "")."""

    title: str
    lines: list[str]  # as printed, without the title line and without trailing blank lines
    start: int  # index of its first line (the title, if any) in Help.lines
    end: int  # index one past its last line
    entries: list[Entry] | None = None  # None: free text, or a block not in two columns

    @property
    def key(self) -> str:
        return self.title.lower()


@dataclass
class Help:
    program: str  # "histlab-cli"
    path: tuple[str, ...]  # ("bow", "bench"); () for the program itself
    lines: list[str]  # the whole help, cleaned (see clean_help)
    usage: str  # what follows "Usage:"
    description: list[str]
    sections: list[Section]

    @property
    def name(self) -> str:
        return " ".join((self.program,) + self.path)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def find(self, titles: set[str]) -> Section | None:
        return next((s for s in self.sections if s.key in titles), None)

    @property
    def subcommands(self) -> list[Entry]:
        section = self.find(COMMAND_TITLES)
        return section.entries or [] if section else []

    def without(self, section: Section) -> str:
        """The help as printed, less one section (blank runs closed up again)."""
        return "\n".join(tidy(self.lines[: section.start] + self.lines[section.end :]))


def tidy(lines: list[str]) -> list[str]:
    """No trailing spaces (CLI11 pads the name column), one blank line at most between blocks,
    none at either end."""
    out: list[str] = []
    for line in lines:
        line = line.rstrip()
        if line or (out and out[-1]):
            out.append(line)
    while out and not out[-1]:
        out.pop()
    return out


def clean_help(raw: str, exe: str) -> list[str]:
    """The help without anything of this machine: a program path printed in it (Qt prints
    argv[0] in its usage line) becomes the program's name, and the source tree's path goes."""
    text = raw.replace("\r\n", "\n")
    name = Path(exe).name
    for path in sorted({exe, str(Path(exe).resolve()), os.path.abspath(exe)}, key=len,
                       reverse=True):
        text = text.replace(path, name)
    for folder in (str(Path(exe).resolve().parent), str(REPO)):
        text = text.replace(folder + "/", "")
    return tidy(text.split("\n"))


def indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def is_title(lines: list[str], i: int) -> bool:
    """A section title: a short unindented line ending in ':' whose next line is indented."""
    line = lines[i]
    if not line or line[0] == " " or not line.endswith(":") or len(line) > 40:
        return False
    following = next((l for l in lines[i + 1 :] if l.strip()), "")
    return following.startswith(" ")


def parse_entries(lines: list[str]) -> list[Entry] | None:
    """A block in two columns (name, description) as CLI11 and Qt print options, commands and
    exit codes: entries indented by 2, descriptions from one column on, continued lines indented
    to that column; a name too wide for its column has its description on the next lines.
    None when the block is not of that shape (it is then shown as printed)."""
    rows = [l for l in lines if l.strip()]
    if not rows or indent(rows[0]) != 2:
        return None
    gap = re.compile(r"\S( {2,})\S")
    columns: collections.Counter[int] = collections.Counter()
    for row in rows:
        if indent(row) == 2:
            m = gap.search(row, 2)
            if m:
                columns[m.end(1)] += 1
        else:
            columns[indent(row)] += 1
    if not columns:
        return None
    column = columns.most_common(1)[0][0]
    entries: list[Entry] = []
    for row in rows:
        if indent(row) == 2:
            if len(row) > column and row[column - 1] == " " and row[column] != " ":
                name, text = row[2:column].strip(), row[column:]
            elif m := gap.search(row, 2):
                name, text = row[2 : m.start(1) + 1].strip(), row[m.end(1) :]
            else:
                name, text = row.strip(), ""
            entries.append(Entry(name, [text] if text else []))
        elif indent(row) > 2 and entries:
            entries[-1].lines.append(row[column:] if indent(row) >= column else row.strip())
        else:
            return None
    return entries


def split_help(program: str, path: tuple[str, ...], lines: list[str]) -> Help:
    """Usage, description (before the usage line, as CLI11 prints it, or right after it, as Qt
    does), then sections: titled blocks and untitled free text (CLI11's footer)."""
    usage_at = next((i for i, l in enumerate(lines) if l.startswith("Usage:")), None)
    description: list[str] = []
    if usage_at is None:
        usage, i = "", 0
    else:
        usage = lines[usage_at][len("Usage:") :].strip()
        description = lines[:usage_at]
        i = usage_at + 1
        while i < len(lines) and lines[i].strip() and not is_title(lines, i):
            description.append(lines[i])
            i += 1
    sections: list[Section] = []
    current: Section | None = None
    for j in range(i, len(lines)):
        line = lines[j]
        if line.strip() and is_title(lines, j):
            current = Section(line[:-1].strip(), [], j, j + 1)
            sections.append(current)
        elif not line.strip():
            if current:
                current.lines.append(line)
        elif line[0] != " " and (current is None or current.title):
            current = Section("", [line], j, j + 1)
            sections.append(current)
        elif current is not None:
            current.lines.append(line)
            current.end = j + 1
        else:  # indented text before any title: keep it as free text
            current = Section("", [line], j, j + 1)
            sections.append(current)
        if current and line.strip():
            current.end = j + 1
    for section in sections:
        section.lines = tidy(section.lines)
        if section.title:
            section.entries = parse_entries(section.lines)
    return Help(program, path, lines, usage, tidy(description), sections)


def read_help(exe: str, path: tuple[str, ...] = ()) -> Help:
    """Runs `exe PATH... --help` and splits what it prints. Qt programs need no display for it
    (offscreen platform); the C locale keeps translations out."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", LC_ALL="C.UTF-8", LANGUAGE="")
    run = subprocess.run([exe, *path, "--help"], capture_output=True, env=env, timeout=120,
                         stdin=subprocess.DEVNULL)
    command = " ".join([Path(exe).name, *path, "--help"])
    if run.returncode != 0:
        raise SystemExit(f"clidoc: `{command}` exited {run.returncode}:\n"
                         + run.stderr.decode(errors="replace"))
    lines = clean_help(run.stdout.decode("utf-8", errors="replace"), exe)
    if not lines:
        raise SystemExit(f"clidoc: `{command}` printed nothing")
    return split_help(Path(exe).name, path, lines)


def read_tree(exe: str) -> list[Help]:
    """The program's help, then each command's, depth first, in the order the help lists them
    (a group such as `bow` before its actions)."""
    helps: list[Help] = []

    def visit(path: tuple[str, ...]) -> None:
        help_ = read_help(exe, path)
        helps.append(help_)
        for sub in help_.subcommands:
            visit(path + (sub.name.split()[0],))

    visit(())
    return helps


# ---------------------------------------------------------------------------------------------
# Markdown: docs/cli.md.


def anchor(heading: str) -> str:
    # Headings here are command lines (letters, digits, hyphens, spaces), for which GitHub's
    # anchor is the lowercase text with spaces as hyphens; check-links.py verifies the result.
    return heading.lower().replace(" ", "-")


def fenced(text: str) -> list[str]:
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + "text", text, fence]


def markdown(helps: list[Help]) -> str:
    root = helps[0]
    exit_codes = root.find(EXIT_TITLES)
    out = [
        f"<!-- Generated from the programs' own --help by `{REGENERATE}`;"
        " do not edit by hand: change the help text and regenerate. -->",
        f"# {root.program} command-line reference",
        "",
        f"What `{root.program} --help` and each `{root.program} COMMAND --help` print. The page is"
        " generated from them (scripts/clidoc.py) and checked by the test"
        " `docs.cli_reference_generated`.",
        "",
        "## Contents",
        "",
    ]
    for h in helps:
        out.append("  " * max(0, len(h.path) - 1) + f"- [{h.name}](#{anchor(h.name)})")
    for h in helps:
        out += ["", "#" * min(len(h.path) + 2, 4) + f" {h.name}", ""]
        own = h.find(EXIT_TITLES)
        same = h.path and own and exit_codes and own.lines == exit_codes.lines
        out += fenced(h.without(own) if same else h.text)
        if same:
            out += ["", f"Exit codes: as for [{root.program}](#{anchor(root.program)})."]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# roff: the man pages.

OPTION = re.compile(r"(?<![\w\\-])--?[A-Za-z0-9][\w.\-]*")


def roff(text: str, words: set[str] = frozenset()) -> str:
    """Text escaped for roff: backslashes, hyphens of options, command names and a lone "-" as
    \\- (so they copy as ASCII hyphen-minus), anything outside ASCII by its code point."""
    text = text.replace("\\", "\\e")
    text = OPTION.sub(lambda m: m.group(0).replace("-", "\\-"), text)
    text = re.sub(r"(?<![\w\\-])-(?![\w-])", r"\\-", text)
    for word in sorted(words, key=len, reverse=True):
        if "-" in word:
            text = re.sub(rf"(?<![\w-]){re.escape(word)}(?![\w-])",
                          lambda m: m.group(0).replace("-", "\\-"), text)
    return "".join(c if ord(c) < 128 else f"\\[u{ord(c):04X}]" for c in text)


def roff_line(text: str, words: set[str] = frozenset()) -> str:
    """One input line of text: a leading dot or apostrophe would be read as a request."""
    line = roff(text, words)
    return "\\&" + line if line[:1] in (".", "'") else line


def quoted(text: str) -> str:
    return '"' + text.replace('"', "\\(dq") + '"'


def usage_args(args: str, words: set[str]) -> str:
    """A usage line's arguments: options bold, placeholders italic, brackets and dots plain."""
    out = []
    for token in args.split():
        m = re.fullmatch(r"([\[<]*)(.*?)([\]>.]*)", token)
        lead, core, tail = m.groups() if m else ("", token, "")
        font = "B" if core.startswith("-") else "I"
        out.append(roff(lead) + (f"\\f{font}{roff(core, words)}\\fR" if core else "") + roff(tail))
    return " ".join(out)


def entry_tag(entry: Entry, words: set[str]) -> str:
    """`-v,--verbose`, `--device <SEL>`: option names bold, their value italic; for a
    positional, a command or an exit code, the first word bold and the rest italic."""
    m = re.fullmatch(r"(-[^\s,]+(?:,\s*-[^\s,]+)*)\s*(.*)", entry.name)
    if m:
        names = re.split(r"(,\s*)", m.group(1))
        tag = "".join(roff(n) if i % 2 else f"\\fB{roff(n, words)}\\fR"
                      for i, n in enumerate(names))
        rest = m.group(2)
    else:
        first, _, rest = entry.name.partition(" ")
        tag = f"\\fB{roff(first, words)}\\fR"
    dots = ""
    if rest == "..." or rest.endswith(" ..."):  # "FILE ...": repeatable, the dots are no name
        rest, dots = rest[:-3].rstrip(), " ..."
    return tag + (f" \\fI{roff(rest, words)}\\fR" if rest else "") + dots


class Page:
    """A man page being written: tracks the last macro so that no paragraph macro is emitted
    where it would be redundant (mandoc and groff -ww note those)."""

    def __init__(self, words: set[str]):
        self.lines: list[str] = []
        self.words = words

    def macro(self, line: str) -> None:
        self.lines.append(line)

    def paragraph(self) -> None:
        last = self.lines[-1] if self.lines else ""
        if not re.match(r"\.(SH|SS|PP|TP|IP)\b", last) and not (
            len(self.lines) > 1 and self.lines[-2].startswith(".TP")):
            self.lines.append(".PP")

    def text(self, lines: list[str]) -> None:
        """Free text from the help: blank lines part paragraphs; a paragraph with indented
        lines (a list, a table) is kept as printed, the rest is filled."""
        paragraphs: list[list[str]] = [[]]
        for line in lines:
            if line.strip():
                paragraphs[-1].append(line)
            elif paragraphs[-1]:
                paragraphs.append([])
        for para in filter(None, paragraphs):
            self.paragraph()
            if any(l.startswith(" ") for l in para[1:]) or para[0].startswith(" "):
                self.verbatim(para)
            else:
                self.lines += [roff_line(l.strip(), self.words) for l in para]

    def verbatim(self, lines: list[str]) -> None:
        self.lines.append(".nf")
        self.lines += [roff_line(l, self.words) for l in lines]
        self.lines.append(".fi")

    def entries(self, entries: list[Entry]) -> None:
        for entry in entries:
            self.lines += [".TP", entry_tag(entry, self.words)]
            body = entry.lines or [""]
            if any(indent(l) > 0 for l in body):
                self.verbatim(body)
            else:
                self.lines += [roff_line(l.strip(), self.words) for l in body if l.strip()]

    def block(self, section: Section, label: bool = True) -> None:
        """A titled section of a help: a labelled list of entries, or as printed."""
        if label:
            self.paragraph()
            self.lines.append(f"\\fI{roff(section.title)}:\\fR")
        if section.entries is not None:
            self.entries(section.entries)
        else:
            if not label:
                self.paragraph()
            self.verbatim(section.lines)


def strip_name(description: str, program: str) -> str:
    """CLI11 descriptions often start "program - "; the NAME line has its own."""
    return re.sub(rf"^{re.escape(program)}\s+-+\s+", "", description).strip()


def environment_names(helps: list[Help]) -> list[str]:
    """Variables CLI11 names in option lists ("(Env:NAME)")."""
    names = []
    for h in helps:
        for s in h.sections:
            for e in s.entries or []:
                names += [n for n in re.findall(r"\(Env:(\w+)\)", e.name) if n not in names]
    return names


def man_page(helps: list[Help], version: str, date: str, see_also: list[str],
             words: set[str]) -> str:
    """The man page of one program; `words` are the names (programs, commands) whose hyphens
    are escaped wherever they appear."""
    root = helps[0]
    page = Page(words)
    description = " ".join(l.strip() for l in root.description)
    summary = strip_name(description, root.program).split("\n")[0].rstrip(".")
    page.macro(f".\\\" Generated by scripts/clidoc.py from `{root.program} --help`;"
               " do not edit by hand.")
    page.macro(f".TH {roff(root.program.upper(), {root.program.upper()})} 1 {quoted(date)} "
               f"{quoted('HistLab ' + version)} {quoted('User Commands')}")
    page.macro(".SH NAME")
    page.macro(f"{roff(root.program, words)} \\- {roff(summary, words)}")

    page.macro(".SH SYNOPSIS")
    for i, h in enumerate(h for h in helps if not h.subcommands or not h.path):
        if i:
            page.macro(".br")
        args = h.usage
        if args.startswith(h.name):
            args = args[len(h.name) :]
        elif args.startswith(root.program):
            args = args[len(root.program) :]
        page.macro(f"\\fB{roff(h.name, words)}\\fR {usage_args(args, words)}".rstrip())

    page.macro(".SH DESCRIPTION")
    page.text([strip_name(description, root.program)])
    for s in root.sections:
        if not s.title:
            page.text(s.lines)

    option_blocks = [s for s in root.sections
                     if s.title and s.key not in COMMAND_TITLES | EXIT_TITLES | ENVIRONMENT_TITLES
                     | FILES_TITLES]
    if option_blocks:
        page.macro(".SH OPTIONS")
        for s in option_blocks:
            if len(option_blocks) > 1:
                page.macro(f".SS {quoted(roff(s.title))}")
            page.block(s, label=False)

    root_exit = root.find(EXIT_TITLES)
    root_options = {(e.name, e.text) for s in option_blocks for e in s.entries or []}
    if len(helps) > 1:
        page.macro(".SH COMMANDS")
    for h in helps[1:]:
        page.macro(f".SS {quoted(roff(' '.join(h.path), words))}")
        args = h.usage[len(h.name) :] if h.usage.startswith(h.name) else h.usage
        page.macro(f"\\fB{roff(h.name, words)}\\fR {usage_args(args, words)}".rstrip())
        page.text([""] + h.description)
        # The command's prose (CLI11 prints it after the lists, as a footer) before its lists.
        for s in h.sections:
            if not s.title:
                page.text(s.lines)
        for s in h.sections:
            if not s.title:
                continue
            elif s.key in EXIT_TITLES and root_exit and s.lines == root_exit.lines:
                continue  # the same as EXIT STATUS says once for all
            elif s.entries is not None:
                # Options every command inherits (--help) are listed once, under OPTIONS.
                kept = [e for e in s.entries if (e.name, e.text) not in root_options]
                if kept:
                    page.block(Section(s.title, s.lines, s.start, s.end, kept))
            else:
                page.block(s)

    exit_section = root.find(EXIT_TITLES)
    if exit_section:
        page.macro('.SH "EXIT STATUS"')
        page.block(exit_section, label=False)
    env_section = root.find(ENVIRONMENT_TITLES)
    env_text = "\n".join(env_section.lines) if env_section else ""
    env_names = [n for n in environment_names(helps) if n not in env_text]
    if env_section or env_names:
        page.macro(".SH ENVIRONMENT")
        if env_section:
            page.block(env_section, label=False)
        for name in env_names:
            page.macro(".TP")
            page.macro(f"\\fB{roff(name)}\\fR")
            page.macro("The value of the option that names it above, when that option is not given.")
    files_section = root.find(FILES_TITLES)
    if files_section:
        page.macro(".SH FILES")
        page.block(files_section, label=False)

    if see_also:
        page.macro(".SH SEE ALSO")
        page.macro(",\n".join(f".BR {roff(name, {name})} (1)" for name in see_also))
    return "\n".join(page.lines) + "\n"


def lint(paths: list[Path], groff: str) -> bool:
    """groff with every warning on (and mandoc's checks, where mandoc is installed); any output
    is a failure."""
    ok = True
    mandoc = shutil.which("mandoc")
    for path in paths:
        checks = [[groff, "-man", "-Tutf8", "-ww", "-z", str(path)]]
        if mandoc:
            checks.append([mandoc, "-T", "lint", "-W", "warning", str(path)])
        for check in checks:
            run = subprocess.run(check, capture_output=True, text=True,
                                 env=dict(os.environ, LC_ALL="C.UTF-8"))
            messages = (run.stdout + run.stderr).strip()
            tool = Path(check[0]).name
            if run.returncode != 0 or messages:
                ok = False
                print(f"clidoc: {tool} on {path.name}:\n{messages or f'exit {run.returncode}'}")
            else:
                print(f"clidoc: {tool}: {path.name}: no warnings")
    if not mandoc:
        print("clidoc: mandoc not installed: groff's checks only")
    return ok


def default_date() -> str:
    """The date in .TH, never today's (the same tree gives the same page): SOURCE_DATE_EPOCH's
    (reproducible builds), else the date of the source tree's last commit, else none."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch.isdigit():
        stamp = datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc)
        return stamp.strftime("%Y-%m-%d")
    try:
        run = subprocess.run(["git", "-C", str(REPO), "log", "-1", "--format=%cs"],
                             capture_output=True, text=True, timeout=30)
    except OSError:
        return ""
    date = run.stdout.strip()
    return date if run.returncode == 0 and re.fullmatch(r"\d{4}-\d\d-\d\d", date) else ""


# ---------------------------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description="The command-line reference (docs/cli.md) and man pages, from --help.")
    parser.add_argument("--cli", required=True, help="the histlab-cli program")
    parser.add_argument("--gui", help="the histlab program (man page histlab.1)")
    parser.add_argument("--markdown", type=Path, help="write the reference here")
    parser.add_argument("--check", type=Path,
                        help="exit 1 when this committed reference differs from the help")
    parser.add_argument("--man-dir", type=Path, help="write the man pages here")
    parser.add_argument("--version", help="the version the man pages name (.TH)")
    parser.add_argument("--date", default=default_date(), help="the date in .TH (default: none, "
                        "or SOURCE_DATE_EPOCH's)")
    parser.add_argument("--lint", action="store_true", help="check the man pages just written")
    parser.add_argument("--groff", default="groff", help="the groff program for --lint")
    args = parser.parse_args(argv)
    if not (args.markdown or args.check or args.man_dir):
        parser.error("nothing to do: give --markdown, --check or --man-dir")
    if args.man_dir and not args.version:
        parser.error("--man-dir needs --version")
    if args.gui and not args.man_dir:
        parser.error("--gui is for the man pages (--man-dir)")

    helps = read_tree(args.cli)
    status = 0
    if args.markdown or args.check:
        text = markdown(helps)
        if args.markdown:
            write_atomically(args.markdown, text)
            print(f"clidoc: {args.markdown}: {len(helps) - 1} commands")
        if args.check:
            committed = args.check.read_text(encoding="utf-8") if args.check.exists() else None
            if committed is None:
                print(f"clidoc: {args.check} does not exist; make it with: {REGENERATE}")
                status = 1
            elif committed != text:
                diff = list(difflib.unified_diff(committed.splitlines(), text.splitlines(),
                                                 f"{args.check.name} (committed)",
                                                 f"{args.check.name} (from --help)",
                                                 lineterm=""))
                print(f"clidoc: {args.check} is not what the programs' --help says now:")
                print("\n".join(diff[:40]) + ("\n..." if len(diff) > 40 else ""))
                print(f"clidoc: regenerate it with: {REGENERATE}")
                status = 1
            else:
                print(f"clidoc: {args.check}: up to date ({len(helps) - 1} commands)")
    if args.man_dir:
        args.man_dir.mkdir(parents=True, exist_ok=True)
        programs = [(args.cli, helps)]
        if args.gui:
            programs.append((args.gui, read_tree(args.gui)))
        names = [h[0].program for _, h in programs]
        words = set(names) | {p for _, tree in programs for h in tree for p in h.path}
        written = []
        for _, tree in programs:
            name = tree[0].program
            path = args.man_dir / f"{name}.1"
            write_atomically(path, man_page(tree, args.version, args.date,
                                            [n for n in names if n != name], words))
            written.append(path)
            print(f"clidoc: {path}")
        if args.lint and not lint(written, args.groff):
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
