"""`agentops memory lint DIR` and `agentops memory repairs DIR`: lint a memory directory.

Reads the `.md` entries of DIR (any case, sorted by name) and never follows or blocks:
a symbolic link is listed as "symbolic link, not followed", any other entry that is not
a regular file as "not a regular file", a file over `MAX_TOPIC_BYTES` as "too large to
read" (decided from its size, without reading it), and a file that cannot be opened or
read as "unreadable". Each of these is counted as skipped and passed to the module
without text, so an index link to it is not dead and it is never called an orphan. A
regular file is decoded as UTF-8 with invalid bytes replaced and a leading BOM dropped.
The index is the regular file named exactly `MEMORY.md`, else the first whose name is
`memory.md` in any case; it also stays in the inventory, where the module counts it as
index-excluded (and, when it could not be read, says so instead of judging orphans).
Neither `index_bytes` nor `budget_bytes` is passed: the index is measured as the
harness loads it. Nothing is ever written.

Exit codes (docs/reference/memory_integrity.md): 0 swept and nothing reported, 3 swept
with at least one finding or repair, 4 nothing swept (an unlistable DIR, a folder that
is not a memory directory, no readable topic file) and any unexpected error (a crash
must not read as an answer), 2 usage (DIR missing or not a directory). When not swept a
line starting `NOTHING SWEPT` says why on stderr, and with `--json` the document is
still printed. The kill switch `AGENTOPS_DISABLED=1` prints `disabled by
AGENTOPS_DISABLED` and exits 4 (the shared rule for scan commands).
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from typing import Any, NamedTuple

from agentops.cli import _common

INDEX_NAME = "MEMORY.md"
MAX_TOPIC_BYTES = _common.MAX_FILE_BYTES  # larger files are skipped from their size alone
_NO_FOLLOW = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


class Skip(NamedTuple):
    name: str
    reason: str


class MemoryListing(NamedTuple):
    files: tuple[tuple[str, str | None], ...]  # every .md entry; None: not read
    skipped: tuple[Skip, ...]  # why each entry without text was not read
    listed: bool  # False when DIR could not be listed


def register(commands: _common.Subcommands, hooks: _common.Subcommands) -> None:
    memory = commands.add_parser(
        "memory", help="memory directory integrity: dead links, load limit, orphans, repairs"
    )
    sub = memory.add_subparsers(title="memory commands", metavar="ACTION")
    for action, help_text in (
        ("lint", "lint a memory directory (dead links, silent merges, load limit, ...)"),
        ("repairs", "suggest (never apply) one repair per lint finding"),
    ):
        parser = sub.add_parser(action, help=help_text)
        parser.add_argument("directory", metavar="DIR", help="the memory directory")
        _common.add_json_option(parser)
        parser.set_defaults(run=run, memory_action=action, crash_exit=_common.EXIT_BLIND)


def read_memory_listing(directory: str) -> MemoryListing:
    """Every `.md` entry of `directory`, sorted by name, with its text or why it has none.
    Never raises."""
    try:
        names = sorted(n for n in os.listdir(directory) if n.lower().endswith(".md"))
    except OSError:
        return MemoryListing((), (), False)
    files: list[tuple[str, str | None]] = []
    skipped: list[Skip] = []
    for name in names:
        text, why = _read_entry(os.path.join(directory, name))
        files.append((name, text))
        if why:
            skipped.append(Skip(name, why))
    return MemoryListing(tuple(files), tuple(skipped), True)


def _read_entry(path: str) -> tuple[str | None, str]:
    """(text, "") or (None, why it was not read)."""
    try:
        info = os.lstat(path)
    except OSError as exc:
        return None, f"unreadable: {exc.strerror or exc}"
    if stat.S_ISLNK(info.st_mode):
        return None, "symbolic link, not followed"
    if not stat.S_ISREG(info.st_mode):
        return None, "not a regular file"
    if info.st_size > MAX_TOPIC_BYTES:
        return None, f"too large to read ({info.st_size} bytes, limit {MAX_TOPIC_BYTES})"
    # O_NOFOLLOW and O_NONBLOCK: a link or FIFO swapped in since the lstat is not read
    try:
        fd = os.open(path, _NO_FOLLOW)
    except OSError as exc:
        return None, f"unreadable: {exc.strerror or exc}"
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None, "not a regular file"
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(MAX_TOPIC_BYTES + 1)
    except OSError as exc:
        return None, f"unreadable: {exc.strerror or exc}"
    finally:
        os.close(fd)
    if len(data) > MAX_TOPIC_BYTES:  # grew since the lstat
        return None, f"too large to read (over {MAX_TOPIC_BYTES} bytes)"
    text = data.decode("utf-8", "replace")
    return (text[1:] if text.startswith("\ufeff") else text), ""


def pick_index(files: tuple[tuple[str, str | None], ...]) -> str | None:
    """The text of `MEMORY.md`, else of the first `memory.md` in any case; None when
    there is none or it could not be read."""
    for name, text in files:
        if name == INDEX_NAME:
            return text
    for name, text in files:
        if name.lower() == INDEX_NAME.lower():
            return text
    return None


def _why_nothing_swept(listing: MemoryListing, index_text: str | None) -> str:
    if not listing.listed:
        return "could not list the directory"
    has_index = any(name.lower() == INDEX_NAME.lower() for name, _text in listing.files)
    if index_text is not None:
        return "no topic file could be read" if listing.skipped else "the index is blank"
    if has_index:
        return f"{INDEX_NAME} could not be read and no file is in the memory format"
    return (
        f"not a memory directory (no {INDEX_NAME} and no file with memory frontmatter: "
        f"name, type or description)"
    )


def run(args: argparse.Namespace) -> int:
    from agentops import memory_integrity as mi

    if _common.disabled():
        return _common.scan_disabled()
    directory = args.directory
    if not os.path.isdir(directory):
        _common.say_error(f"not a directory: {directory}")
        return _common.EXIT_USAGE
    listing = read_memory_listing(directory)
    files = listing.files
    index_text = pick_index(files)
    result: Any
    if args.memory_action == "lint":
        result = mi.lint_memory_integrity(index_text, files)
        items = result.findings
        key = "findings"
    else:
        result = mi.suggest_memory_repairs(index_text, files)
        items = result.repairs
        key = "repairs"
    coverage = result.coverage
    swept = bool(result.swept) and listing.listed
    if args.json:
        document = {
            "swept": swept,
            "coverage": _common.as_json(coverage),
            "skipped": [skip._asdict() for skip in listing.skipped],
            key: _common.as_json(items),
        }
        _common.print_json(document)
    else:
        print(f"swept {coverage.reached} files ({coverage.skipped} skipped)")
        for skip in listing.skipped:
            print(_common.printable(f"skipped: {skip.name}: {skip.reason}"))
        for item in items:
            label = item.check if key == "findings" else item.kind
            print(_common.printable(f"{item.severity}: [{label}] {item.message}"))
    if not swept:
        why = _why_nothing_swept(listing, index_text)
        print(_common.printable(f"NOTHING SWEPT: {why}: {directory}", sys.stderr), file=sys.stderr)
        return _common.EXIT_BLIND
    return _common.EXIT_FINDINGS if items else _common.EXIT_OK
