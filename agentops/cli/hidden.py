"""`agentops hidden-chars PATH... [--json] [--strict]`: report invisible code points.

Each finding is one line `path:line:col U+XXXX category name` (an unassigned
code point shows `<unnamed>`), then the summary `swept N files (M skipped)` and
a count. Exit 3 when anything is reported, 0 when nothing is, 4 when nothing
could be swept (never clean). Skipped files are listed on stderr.

`--strict` lifts every exemption (BOM at the start, joiners inside scripts and
emoji, selectors after a base, subdivision flags): the mode for auditing files
that are about to become trusted. Under `--strict` a byte-order mark at the
very start of a file is kept and reported (column 1), and line 1 columns count
it; without it, the shared reader drops that mark as every agentops command
does, so columns are those an editor shows.

A file whose text the scanner reports as "not scanned" (it cannot happen for a
file read as UTF-8, but the answer is honoured) counts as skipped, never clean.
`AGENTOPS_DISABLED=1` prints `disabled by AGENTOPS_DISABLED` and exits 4.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from agentops.cli import _common


def register(commands: Any, hooks: Any) -> None:
    parser = commands.add_parser(
        "hidden-chars",
        help="report invisible code points (zero-width, bidi, tag, selectors) under PATHs",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or directories")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    parser.add_argument(
        "--strict", action="store_true", help="no exemptions (for files about to become trusted)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if _common.disabled():
        return _common.scan_disabled()
    from agentops import hidden_chars

    strict = bool(args.strict)
    sweep = _common.Sweep(args.paths, keep_bom=strict)
    reports: list[tuple[str, Any]] = []
    blind: list[_common.Skipped] = []
    for swept in sweep:
        result = hidden_chars.scan(swept.text, strict=strict)
        if not result.scanned:
            blind.append(_common.Skipped(swept.path, "not scanned"))
        elif result.findings:
            reports.append((swept.path, result.findings))
    skipped = [*sweep.skipped, *blind]
    scanned = sweep.swept - len(blind)
    total = sum(len(findings) for _, findings in reports)
    if args.json:
        _common.print_json(
            {
                "swept": scanned,
                "skipped": [{"path": s.path, "reason": s.reason} for s in skipped],
                "strict": strict,
                "findings_total": total,
                "files": [
                    {"path": path, "findings": _common.as_json(list(findings))}
                    for path, findings in reports
                ],
            }
        )
    else:
        show = _common.printable
        for path, findings in reports:
            for f in findings:
                print(
                    f"{show(path)}:{f.line}:{f.column} {f.label} {f.category} "
                    f"{f.name or '<unnamed>'}"
                )
        print(f"swept {scanned} files ({len(skipped)} skipped)")
        print(f"{total} hidden character(s) in {len(reports)} file(s)")
    for item in skipped:
        print(
            f"skipped: {_common.printable(item.path, sys.stderr)} ({item.reason})", file=sys.stderr
        )
    if scanned == 0:
        print(
            "NOTHING SWEPT: no file could be read, so this is not a clean result", file=sys.stderr
        )
        return _common.EXIT_BLIND
    return _common.EXIT_FINDINGS if total else _common.EXIT_OK
