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

A JSON-lines transcript (`.jsonl`, `.ndjson`) is read line by line as JSON: every
string and key is decoded first (an escaped `\u200b` is the character it encodes)
and a finding reads `path:line:json.path U+XXXX category name`; a line that is
not JSON is scanned as text and counted. `--format sarif` writes SARIF 2.1.0.

A file whose text the scanner reports as "not scanned" (it cannot happen for a
file read as UTF-8, but the answer is honoured) counts as skipped, never clean.
`AGENTOPS_DISABLED=1` prints `disabled by AGENTOPS_DISABLED` and exits 4.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, NamedTuple

from agentops.cli import _common, _sarif, _transcript


class Row(NamedTuple):
    """One reported code point: where it is, and what the scanner said about it."""

    line: int  # line of the file
    column: int  # column in the line (plain text) or 0 (a JSON string: see `found`)
    json_path: str  # "" for plain text
    found: Any  # hidden_chars.HiddenChar; inside a JSON string its line/column are the string's


def register(commands: _common.Subcommands, hooks: _common.Subcommands) -> None:
    parser = commands.add_parser(
        "hidden-chars",
        help="report invisible code points (zero-width, bidi, tag, selectors) under PATHs",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or directories")
    _common.add_json_option(parser)
    parser.add_argument(
        "--format", choices=("text", "json", "sarif"), default=None, help="output format"
    )
    parser.add_argument(
        "--strict", action="store_true", help="no exemptions (for files about to become trusted)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if _common.disabled():
        return _common.scan_disabled()
    strict = bool(args.strict)
    output = args.format or ("json" if args.json else "text")
    sweep = _common.Sweep(args.paths, keep_bom=strict)
    reports: list[tuple[str, list[Row]]] = []
    blind: list[_common.Skipped] = []
    not_json = 0
    for swept in sweep:
        if _transcript.is_transcript(swept.path):
            rows, seen, lines_not_json = _scan_transcript(swept.text, strict)
            not_json += lines_not_json
        else:
            rows, seen = _scan_text(swept.text, strict)
        if not seen:
            blind.append(_common.Skipped(swept.path, "not scanned"))
        elif rows:
            reports.append((swept.path, rows))
    skipped = [*sweep.skipped, *blind]
    scanned = sweep.swept - len(blind)
    total = sum(len(rows) for _, rows in reports)
    if output == "json":
        _common.print_json(
            {
                "swept": scanned,
                "skipped": [{"path": s.path, "reason": s.reason} for s in skipped],
                "strict": strict,
                "transcript_lines_not_json": not_json,
                "findings_total": total,
                "files": [
                    {"path": path, "findings": [_row_json(row) for row in rows]}
                    for path, rows in reports
                ],
            }
        )
    elif output == "sarif":
        _common.print_json(_sarif_document(reports, skipped))
    else:
        show = _common.printable
        for path, rows in reports:
            for row in rows:
                found = row.found
                name = found.name or "<unnamed>"
                print(f"{show(path)}:{show(_place(row))} {found.label} {found.category} {name}")
        print(f"swept {scanned} files ({len(skipped)} skipped)")
        if not_json:
            print(f"{not_json} transcript line(s) not JSON, scanned as text")
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


def _scan_text(text: str, strict: bool, line_offset: int = 0) -> tuple[list[Row], bool]:
    from agentops import hidden_chars

    result = hidden_chars.scan(text, strict=strict)
    rows = [Row(f.line + line_offset, f.column, "", f) for f in result.findings]
    return rows, bool(result.scanned)


def _scan_transcript(text: str, strict: bool) -> tuple[list[Row], bool, int]:
    """Rows for every decoded string of every JSON line; a line that is not JSON is
    scanned as text. `seen` is False when any string came back "not scanned"."""
    from agentops import hidden_chars

    rows: list[Row] = []
    seen = True
    not_json = 0
    for line in _transcript.lines(text):
        if not line.parsed:
            not_json += 1
            text_rows, text_seen = _scan_text(line.raw, strict, line.number - 1)
            rows.extend(text_rows)
            seen = seen and text_seen
            continue
        for item in _transcript.strings(line.value):
            result = hidden_chars.scan(item.text, strict=strict)
            seen = seen and bool(result.scanned)
            rows.extend(Row(line.number, 0, item.path, f) for f in result.findings)
    return rows, seen, not_json


def _place(row: Row) -> str:
    return f"{row.line}:{row.json_path}" if row.json_path else f"{row.line}:{row.column}"


def _row_json(row: Row) -> dict[str, Any]:
    fields: dict[str, Any] = _common.as_json(row.found)
    if not row.json_path:
        return fields
    inner = {f"string_{name}": fields.pop(name) for name in ("index", "line", "column")}
    return {"line": row.line, "json_path": row.json_path, **inner, **fields}


def _sarif_document(
    reports: list[tuple[str, list[Row]]], skipped: list[_common.Skipped]
) -> dict[str, Any]:
    from agentops import __version__, hidden_chars

    rules = {
        category: f"invisible code point: {category.replace('_', ' ')}"
        for category in hidden_chars.CATEGORIES
    }
    results = [
        _sarif.Result(
            rule_id=row.found.category,
            message=f"{row.found.label} {row.found.name or '<unnamed>'} ({row.found.category})",
            path=path,
            line=row.line,
            column=row.column,
            logical=row.json_path,
        )
        for path, rows in reports
        for row in rows
    ]
    not_read = [(s.path, s.reason) for s in skipped]
    return _sarif.document("agentops hidden-chars", __version__, rules, results, not_read)
