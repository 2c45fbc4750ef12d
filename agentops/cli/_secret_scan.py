"""One file's secret-shaped runs, as `scan-secrets` reports them: the unit of work
that `--jobs` hands to worker processes (so everything here is picklable).

A file is read one of three ways, chosen by what it is:
- a SQLite database (by its header): every text value of every table;
- a JSON-lines transcript (`.jsonl`, `.ndjson`): every decoded string and key,
  by line and JSON path; a line that is not JSON is scanned as text and counted;
- anything else: UTF-8 text, by line and column.
Binary, undecodable, oversized and unreadable files are skipped with a reason.
A finding never carries a value: only where it is, its shape and a keyed
fingerprint (see `_baseline`).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from typing import NamedTuple

from agentops.cli import _baseline, _common, _sqlite_scan, _transcript

ALLOW_COMMENT = "agentops: allow-secret"


class Finding(NamedTuple):
    path: str
    line: int  # 1-based line of the file; 0 for a database value
    column: int  # 1-based column in the line (plain text) or in the decoded string's line
    shape: str
    fingerprint: str
    suppressed: bool
    json_path: str = ""  # inside a JSON-lines record or a JSON database value
    table: str = ""
    db_column: str = ""
    rowid: int = 0


class FileResult(NamedTuple):
    """What scanning one file gave: findings, or why it was skipped, and counts."""

    path: str
    size: int
    findings: tuple[Finding, ...]
    skipped: tuple[_common.Skipped, ...]  # the file itself, or parts of a database
    swept: bool  # False when nothing of the file was read
    lines_not_json: int = 0  # transcript lines scanned as text
    lines_not_utf8: int = 0  # transcript lines read with replacement characters
    blobs_skipped: int = 0  # database values that are neither text nor UTF-8


def scan_file(path: str, key: bytes) -> FileResult:
    """Scan one file. Never raises: an unexpected error skips the file, with its type."""
    try:
        if _sqlite_scan.is_sqlite(path):
            return _scan_database(path, key)
        if _transcript.is_transcript(path):
            return _scan_transcript(path, key)
        text = _common.read_text_file(path)
        if isinstance(text, _common.Skipped):
            return FileResult(path, 0, (), (text,), False)
        return FileResult(path, len(text), tuple(scan_text(path, text, key)), (), True)
    except Exception as exc:  # fail soft: one odd file never ends the sweep
        return FileResult(
            path, 0, (), (_common.Skipped(path, f"scan error: {type(exc).__name__}"),), False
        )


def scan_text(path: str, text: str, key: bytes, *, line_offset: int = 0) -> Iterator[Finding]:
    """Findings in plain text, by line (plus `line_offset`) and column. A value allowed on
    one line is allowed wherever the text repeats it (the scanner finds the repeats of a
    value it found: a fixture declared once and used in many places)."""
    found = list(_spans(text))
    allowed = {value for *_, value, line_text in found if ALLOW_COMMENT in line_text}
    for line, column, shape, value, line_text in found:
        yield Finding(
            path,
            line + line_offset,
            column,
            shape,
            _baseline.fingerprint(key, value),
            ALLOW_COMMENT in line_text or value in allowed,
        )


def _spans(text: str) -> Iterator[tuple[int, int, str, str, str]]:
    """(line, column, shape, value, text of that line) for each secret-shaped run."""
    from agentops.secret_redaction import find_secret_shapes

    found = find_secret_shapes(text)
    if not found:
        return
    starts = _line_starts(text)
    for item in found:
        index = bisect.bisect_right(starts, item.start) - 1
        start = starts[index]
        end = text.find("\n", start)
        line_text = text[start:] if end < 0 else text[start:end]
        yield index + 1, item.start - start + 1, item.shape, text[item.start : item.end], line_text


def _line_starts(text: str) -> list[int]:
    starts = [0]
    at = text.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    return starts


def shows_no_secret(key: str) -> bool:
    """A JSON key that may be printed in a path: plain, and no secret-shaped run."""
    from agentops.secret_redaction import find_secret_shapes

    return _transcript.plain_key(key) and not find_secret_shapes(key)


def _json_findings(
    path: str, value: object, key: bytes, *, line: int = 0, cell: _sqlite_scan.Value | None = None
) -> Iterator[Finding]:
    for item in _transcript.strings(value, is_plain_key=shows_no_secret):
        for _, column, shape, found, line_text in _spans(item.text):
            yield Finding(
                path,
                line,
                column,
                shape,
                _baseline.fingerprint(key, found),
                ALLOW_COMMENT in line_text,
                json_path=item.path,
                table=cell.table if cell else "",
                db_column=cell.column if cell else "",
                rowid=cell.rowid if cell else 0,
            )


def _scan_transcript(path: str, key: bytes) -> FileResult:
    """A transcript, line by line (no whole-file cap). A line that is not JSON is
    scanned as text and counted; a line over the per-line cap is skipped and named."""
    source = _transcript.FileLines(path)
    problem = source.problem()
    if problem is not None:
        return FileResult(path, 0, (), (_common.Skipped(path, problem),), False)
    findings: list[Finding] = []
    not_json = 0
    for line in _transcript.parsed_lines(source):
        if line.parsed:
            findings.extend(_json_findings(path, line.value, key, line=line.number))
        else:
            not_json += 1
            findings.extend(scan_text(path, line.raw, key, line_offset=line.number - 1))
    limit = source.max_line_bytes
    skipped = tuple(
        _common.Skipped(f"{path}:{number}", f"line larger than {limit} bytes")
        for number in source.too_large
    )
    return FileResult(
        path,
        source.size,
        tuple(findings),
        skipped,
        True,
        lines_not_json=not_json,
        lines_not_utf8=source.not_utf8,
    )


def _scan_database(path: str, key: bytes) -> FileResult:
    reader = _sqlite_scan.Reader(path)
    findings: list[Finding] = []
    try:
        for value in reader:
            findings.extend(_database_value(path, value, key))
    except _sqlite_scan.DatabaseNotOpened as exc:
        reason = f"database could not be opened: {exc}"
        return FileResult(path, 0, (), (_common.Skipped(path, reason),), False)
    skipped = tuple(
        _common.Skipped(
            f"{path}:{shown_name(problem.where)}" if problem.where else path, problem.reason
        )
        for problem in reader.problems
    )
    size = _size(path)
    return FileResult(
        path, size, tuple(findings), skipped, True, blobs_skipped=reader.blobs_skipped
    )


def shown_name(name: str) -> str:
    """A table or column name as a finding may print it: withheld when it is itself
    secret-shaped (a name is schema, but a schema is attacker-writable too)."""
    from agentops.secret_redaction import find_secret_shapes

    return "<name withheld>" if find_secret_shapes(name) else name


def _database_value(path: str, value: _sqlite_scan.Value, key: bytes) -> Iterator[Finding]:
    """A JSON value (object or array) is walked so its escapes are decoded and the
    finding names the JSON path too; any other text is scanned as it is."""
    value = value._replace(table=shown_name(value.table), column=shown_name(value.column))
    stripped = value.text.lstrip()
    if stripped[:1] in ("{", "["):
        parsed, document = _transcript.parse_line(value.text)
        if parsed:
            yield from _json_findings(path, document, key, cell=value)
            return
    for _, column, shape, found, line_text in _spans(value.text):
        yield Finding(
            path,
            0,
            column,
            shape,
            _baseline.fingerprint(key, found),
            ALLOW_COMMENT in line_text,
            table=value.table,
            db_column=value.column,
            rowid=value.rowid,
        )


def _size(path: str) -> int:
    import os

    try:
        return os.path.getsize(path)
    except OSError:
        return 0
