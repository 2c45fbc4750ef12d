"""`agentops memory lint DIR` and `agentops memory repairs DIR`: lint a memory directory.

Reads the `.md` entries of DIR (any case, sorted by name) with `_common.read_memory_dir`,
which never follows or blocks: a symbolic link is listed as "symbolic link, not
followed", any other entry that is not a regular file as "not a regular file", a file
over `_common.MAX_FILE_BYTES` as "too large to read" (decided from its size, without
reading it), and a file that cannot be opened or read as "unreadable: ...". Each of
these is counted as skipped and passed to the module without text, so an index link to
it is not dead and it is never called an orphan. A regular file is decoded as UTF-8
with invalid bytes replaced and a leading BOM dropped.
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
import sys
from typing import Any

from agentops.cli import _common

INDEX_NAME = "MEMORY.md"


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


def _why_nothing_swept(listing: _common.MemoryDir, index_text: str | None) -> str:
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
    listing = _common.read_memory_dir(directory)
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
