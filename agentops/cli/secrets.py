"""`agentops redact` (the display boundary) and `agentops scan-secrets` (the scanner).

`scan-secrets` never prints a value: each finding is reported as
`path:line:col shape fp=<8 hex>`, where the fingerprint is the start of the
SHA-256 of the value, enough to tell two findings apart and useless for
recovering a high-entropy token. `--counts-only` prints counts per shape and per
file and nothing else, the form an auditing agent is told to use.

An inline `agentops: allow-secret` on the line where a finding starts
suppresses it; suppressed findings are counted and reported, never silently
dropped, and never make the scan fail.

`redact` deliberately ignores `AGENTOPS_DISABLED`: switching off a display
filter would print the very secrets it exists to hide.
"""

from __future__ import annotations

import argparse
import bisect
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any, NamedTuple

from agentops.cli import _common

ALLOW_COMMENT = "agentops: allow-secret"


def register(commands: Any, hooks: Any) -> None:
    redact = commands.add_parser(
        "redact", help="print files (or stdin) with secret-shaped spans redacted"
    )
    redact.add_argument("files", nargs="*", metavar="FILE", help="files to read (default stdin)")
    redact.add_argument("--json", action="store_true", help="one JSON document with shapes")
    redact.set_defaults(run=run_redact)

    scan = commands.add_parser(
        "scan-secrets", help="report secret-shaped runs under PATHs (never their values)"
    )
    scan.add_argument("paths", nargs="+", metavar="PATH")
    scan.add_argument("--json", action="store_true", help="one JSON document on stdout")
    scan.add_argument(
        "--counts-only", action="store_true", help="only counts per shape and per file"
    )
    scan.set_defaults(run=run_scan)


def run_redact(args: argparse.Namespace) -> int:
    from agentops.secret_redaction import redact_secret_shapes

    sources = _Sources(args.files)
    documents: list[dict[str, Any]] = []
    for path, text in sources:
        result = redact_secret_shapes(text)
        if args.json:
            documents.append({"path": path, "text": result.text, "shapes": list(result.shapes)})
        else:  # bytes, so a terminal that cannot encode a character never crashes us
            sys.stdout.buffer.write(result.text.encode("utf-8", "surrogateescape"))
    sys.stdout.flush()
    if args.json:
        _common.print_json({"files": documents})
    _report_skipped(sources.skipped)
    if sources.read == 0:
        print("NOTHING READ: no file could be read", file=sys.stderr)
        return _common.EXIT_BLIND
    return _common.EXIT_OK


class _Sources:
    """stdin, or each readable file, as (name, text); remembers what it skipped."""

    def __init__(self, files: list[str]) -> None:
        self.files = files
        self.read = 0
        self.skipped: list[_common.Skipped] = []

    def __iter__(self) -> Iterator[tuple[str, str]]:
        if not self.files:
            self.read = 1
            yield "-", _common.read_stdin_text()
            return
        sweep = _common.Sweep(self.files)
        for swept in sweep:
            self.read += 1
            yield swept.path, swept.text
        self.skipped = sweep.skipped


class Finding(NamedTuple):
    path: str
    line: int
    column: int
    shape: str
    fingerprint: str
    suppressed: bool


def run_scan(args: argparse.Namespace) -> int:
    if _common.disabled():
        return _common.scan_disabled()
    sweep = _common.Sweep(args.paths)
    findings = [finding for swept in sweep for finding in _scan_text(swept.path, swept.text)]
    active = [f for f in findings if not f.suppressed]
    suppressed = len(findings) - len(active)
    if args.json:
        _common.print_json(_scan_document(sweep, active, suppressed, args.counts_only))
    else:
        _print_scan(sweep, active, suppressed, args.counts_only)
    _report_skipped(sweep.skipped)
    if sweep.swept == 0:
        print(
            "NOTHING SWEPT: no file could be read, so this is not a clean result", file=sys.stderr
        )
        return _common.EXIT_BLIND
    return _common.EXIT_FINDINGS if active else _common.EXIT_OK


def _scan_text(path: str, text: str) -> Iterator[Finding]:
    from agentops.secret_redaction import find_secret_shapes

    found = find_secret_shapes(text)
    if not found:
        return
    line_starts = _line_starts(text)
    for item in found:
        line_index = bisect.bisect_right(line_starts, item.start) - 1
        start = line_starts[line_index]
        end = text.find("\n", start)
        line_text = text[start:] if end < 0 else text[start:end]
        yield Finding(
            path,
            line_index + 1,
            item.start - start + 1,
            item.shape,
            _fingerprint(text[item.start : item.end]),
            ALLOW_COMMENT in line_text,
        )


def _line_starts(text: str) -> list[int]:
    starts = [0]
    at = text.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    return starts


def _fingerprint(value: str) -> str:
    import hashlib  # here: loading OpenSSL costs every other command ~10 ms

    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def _counts(active: list[Finding]) -> dict[str, dict[str, int]]:
    return {
        "by_shape": dict(sorted(Counter(f.shape for f in active).items())),
        "by_file": dict(sorted(Counter(f.path for f in active).items())),
    }


def _scan_document(
    sweep: _common.Sweep, active: list[Finding], suppressed: int, counts_only: bool
) -> dict[str, Any]:
    document: dict[str, Any] = {
        "swept": sweep.swept,
        "skipped": [{"path": s.path, "reason": s.reason} for s in sweep.skipped],
        "findings_total": len(active),
        "suppressed": suppressed,
        "counts": _counts(active),
    }
    if not counts_only:
        document["findings"] = [
            {k: v for k, v in f._asdict().items() if k != "suppressed"} for f in active
        ]
    return document


def _print_scan(
    sweep: _common.Sweep, active: list[Finding], suppressed: int, counts_only: bool
) -> None:
    show = _common.printable
    if counts_only:
        counts = _counts(active)
        for shape, count in counts["by_shape"].items():
            print(f"shape {shape}: {count}")
        for path, count in counts["by_file"].items():
            print(f"file {show(path)}: {count}")
    else:
        for f in active:
            print(f"{show(f.path)}:{f.line}:{f.column} {f.shape} fp={f.fingerprint}")
    print(sweep.summary())
    print(f"{len(active)} finding(s), {suppressed} suppressed by '{ALLOW_COMMENT}'")


def _report_skipped(skipped: list[_common.Skipped]) -> None:
    for item in skipped:
        print(
            f"skipped: {_common.printable(item.path, sys.stderr)} ({item.reason})", file=sys.stderr
        )
