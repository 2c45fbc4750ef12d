"""`agentops memory lint DIR` and `agentops memory repairs DIR`: lint a memory directory.

Reads DIR by the shared memory-directory rule (`_common.read_memory_dir`: `.md`
entries in any case, sorted by name; symlinks and other non-regular entries skipped
and counted; regular files decoded UTF-8 with invalid bytes replaced and a leading
BOM dropped; an unreadable file passed as contentless). The index is the regular
file named exactly `MEMORY.md`, else the first whose name is `memory.md` in any
case; it also stays in the inventory, where the module counts it as index-excluded.
Neither `index_bytes` nor `budget_bytes` is passed: the index is measured as the
harness loads it. Nothing is ever written.

Exit codes (docs/reference/memory_integrity.md): 0 swept and nothing reported, 3 swept with at
least one finding or repair, 4 nothing swept (an unlistable DIR included) and any
unexpected error (a crash must not read as an answer), 2 usage (DIR missing or not a
directory). When not swept a line starting `NOTHING SWEPT` goes to stderr, and with
`--json` the document is still printed. The kill switch `AGENTOPS_DISABLED=1` prints
`disabled by AGENTOPS_DISABLED` and exits 4 (the shared rule for scan commands).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from agentops.cli import _common

INDEX_NAME = "MEMORY.md"


def register(commands: Any, hooks: Any) -> None:
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
        parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
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


def run(args: argparse.Namespace) -> int:
    from agentops import memory_integrity as mi

    if _common.disabled():
        return _common.scan_disabled()
    directory = args.directory
    if not os.path.isdir(directory):
        _common.say_error(f"not a directory: {directory}")
        return _common.EXIT_USAGE
    memory_dir = _common.read_memory_dir(directory)
    files = memory_dir.files
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
    swept = bool(result.swept) and memory_dir.listed
    if args.json:
        document = {
            "swept": swept,
            "coverage": {**_common.as_json(coverage), "not_regular": memory_dir.not_regular},
            key: _common.as_json(items),
        }
        _common.print_json(document)
    else:
        skipped = coverage.skipped + memory_dir.not_regular
        print(f"swept {coverage.reached} files ({skipped} skipped)")
        for item in items:
            label = item.check if key == "findings" else item.kind
            print(_common.printable(f"{item.severity}: [{label}] {item.message}"))
    if not swept:
        why = (
            "could not list the directory"
            if not memory_dir.listed
            else ("no readable memory file and no index")
        )
        print(_common.printable(f"NOTHING SWEPT: {why}: {directory}", sys.stderr), file=sys.stderr)
        return _common.EXIT_BLIND
    return _common.EXIT_FINDINGS if items else _common.EXIT_OK
