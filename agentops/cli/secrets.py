"""`agentops redact` (the display boundary) and `agentops scan-secrets` (the scanner).

`scan-secrets` never prints a value. Each finding names where it is and its shape:
- plain text: `path:line:col shape fp=<8 hex>`;
- a JSON-lines transcript (`.jsonl`, `.ndjson`): `path:line:json.path shape fp=...`,
  every string and key decoded first; a line that is not JSON is scanned as text
  and counted;
- a SQLite database (found by its header, opened read-only and immutable):
  `path:table.column[rowid=N]` (plus `:json.path` for a JSON value).
The fingerprint is keyed (see `_baseline`): it tells findings apart and matches
them across runs, and does not confirm a guessed value.

`--counts-only` prints counts per shape and per file and nothing else, the form
an auditing agent is told to use. `--format sarif` writes SARIF 2.1.0 for code
scanning. `--baseline FILE` accepts the findings recorded in FILE (written with
`--update-baseline`), so only new ones fail. `--jobs N` scans in N processes
(default: the usable cores) with output identical to `--jobs 1`; on a terminal a
progress line shows on stderr unless `--quiet`.

An inline `agentops: allow-secret` on the line where a finding starts
suppresses it, and the same value wherever the file repeats it; suppressed
findings are counted and reported, never silently dropped, and never make the
scan fail. What was not read is listed on stderr
and counted by kind; nothing read is exit 4, never clean.

`redact` deliberately ignores `AGENTOPS_DISABLED`: switching off a display
filter would print the very secrets it exists to hide. On a JSON-lines file it
prints each line as valid JSON with every string redacted.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

from agentops.cli import _baseline, _common, _sarif, _secret_scan, _transcript
from agentops.cli._secret_scan import ALLOW_COMMENT, FileResult, Finding

__all__ = ["ALLOW_COMMENT", "Finding", "register"]


def register(commands: _common.Subcommands, hooks: _common.Subcommands) -> None:
    redact = commands.add_parser(
        "redact", help="print files (or stdin) with secret-shaped spans redacted"
    )
    redact.add_argument("files", nargs="*", metavar="FILE", help="files to read (default stdin)")
    _common.add_json_option(redact, "the redacted text with its shapes")
    redact.set_defaults(run=run_redact)

    scan = commands.add_parser(
        "scan-secrets", help="report secret-shaped runs under PATHs (never their values)"
    )
    scan.add_argument("paths", nargs="+", metavar="PATH")
    _common.add_json_option(scan)
    scan.add_argument(
        "--format", choices=("text", "json", "sarif"), default=None, help="output format"
    )
    scan.add_argument(
        "--counts-only", action="store_true", help="only counts per shape and per file"
    )
    scan.add_argument(
        "--jobs", type=_jobs, default=None, metavar="N", help="worker processes (default: cores)"
    )
    scan.add_argument("--quiet", action="store_true", help="no progress line on a terminal")
    scan.add_argument(
        "--baseline", metavar="FILE", help="accept the findings recorded in FILE; fail on new ones"
    )
    scan.add_argument(
        "--update-baseline",
        action="store_true",
        help="write every current finding to the --baseline FILE (keeps its salt)",
    )
    scan.set_defaults(run=run_scan)


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--jobs must be a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"--jobs must be at least 1, got {value}")
    return value


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# ---------------------------------------------------------------- redact


def run_redact(args: argparse.Namespace) -> int:
    from agentops.secret_redaction import redact_secret_shapes

    sources = _Sources(args.files)
    documents: list[dict[str, Any]] = []
    for path, text in sources:
        if _transcript.is_transcript(path):
            redacted, shapes = _redact_transcript(text)
        else:
            result = redact_secret_shapes(text)
            redacted, shapes = result.text, list(result.shapes)
        if args.json:
            documents.append({"path": path, "text": redacted, "shapes": shapes})
        else:  # bytes, so a terminal that cannot encode a character never crashes us
            sys.stdout.buffer.write(redacted.encode("utf-8", "surrogateescape"))
    sys.stdout.flush()
    if args.json:
        _common.print_json({"files": documents})
    _report_skipped(sources.skipped)
    if sources.read == 0:
        print("NOTHING READ: no file could be read", file=sys.stderr)
        return _common.EXIT_BLIND
    return _common.EXIT_OK


def _redact_transcript(text: str) -> tuple[str, list[str]]:
    """Each JSON line back as one valid JSON line with every string (keys included)
    redacted by the pure module's `redact_json_like`; a line that is not JSON redacted
    as text; blank lines kept. Shapes are listed in document order."""
    from agentops.secret_redaction import redact_json_like, redact_secret_shapes

    shapes: list[str] = []
    out: list[str] = []
    for line in text.split("\n"):
        parsed, value = _plain_parse(line) if line.strip() else (False, None)
        if parsed:
            out.append(_transcript.dump_line(redact_json_like(value)))
            for item in _transcript.strings(value):
                shapes.extend(redact_secret_shapes(item.text).shapes)
        else:
            result = redact_secret_shapes(line)
            out.append(result.text)
            shapes.extend(result.shapes)
    return "\n".join(out), shapes


def _plain_parse(line: str) -> tuple[bool, Any]:
    import json

    try:
        return True, json.loads(line)
    except (ValueError, RecursionError):
        return False, None


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


# ---------------------------------------------------------------- scan


def run_scan(args: argparse.Namespace) -> int:
    if _common.disabled():
        return _common.scan_disabled()
    output = args.format or ("json" if args.json else "text")
    if args.update_baseline and not args.baseline:
        _common.say_error("--update-baseline needs --baseline FILE")
        return _common.EXIT_USAGE
    baseline = _load_baseline(args.baseline, creating=args.update_baseline)
    if isinstance(baseline, int):
        return baseline
    key = baseline.key if baseline is not None else _machine_key()
    jobs = args.jobs or usable_cores()
    progress = _Progress(enabled=not args.quiet and sys.stderr.isatty())
    scan = Scan.run(args.paths, key, jobs, progress)

    if args.update_baseline and baseline is not None:
        return _write_baseline(args.baseline, baseline.salt, scan)
    accepted, unmatched = 0, 0
    active = scan.active
    if baseline is not None:
        verdicts, unmatched = _baseline.split_new(baseline, map(_entry, active))
        accepted = verdicts.count(False)
        active = [f for f, new in zip(active, verdicts, strict=True) if new]

    if output == "sarif":
        _common.print_json(_sarif_document(scan, active))
    elif output == "json":
        document = _scan_document(scan, active, args.counts_only)
        if baseline is not None:
            document["baseline"] = {"accepted": accepted, "entries_not_seen": unmatched}
        _common.print_json(document)
    else:
        _print_scan(scan, active, args.counts_only)
        if baseline is not None:
            print(
                f"{accepted} accepted by baseline {_common.printable(args.baseline)}, "
                f"{unmatched} baseline entr{'y' if unmatched == 1 else 'ies'} not seen"
            )
    _report_skipped(scan.skipped)
    if scan.swept == 0:
        print(
            "NOTHING SWEPT: no file could be read, so this is not a clean result", file=sys.stderr
        )
        return _common.EXIT_BLIND
    return _common.EXIT_FINDINGS if active else _common.EXIT_OK


def _machine_key() -> bytes:
    key, kept = _baseline.machine_key()
    if not kept:
        print(
            "note: no fingerprint key could be kept at "
            f"{_common.printable(_baseline.key_file(), sys.stderr)}; "
            "fingerprints match only within this run",
            file=sys.stderr,
        )
    return key


def _load_baseline(path: str | None, *, creating: bool) -> _baseline.Baseline | int | None:
    """The baseline, None when not asked for, or an exit code after saying why."""
    if path is None:
        return None
    try:  # a FIFO or device named as the baseline is refused at once, never waited on
        text = _common.read_regular(path, limit=None, follow_links=True).decode("utf-8")
    except _common.FileNotRead as exc:
        if exc.missing and creating:
            return _baseline.Baseline(_baseline.new_salt(), Counter())
        if exc.missing:
            _common.say_error(f"baseline {path} does not exist (create it with --update-baseline)")
        else:
            _common.say_error(f"baseline {path} cannot be read: {exc}")
        return _common.EXIT_USAGE
    except UnicodeDecodeError:
        _common.say_error(f"baseline {path} cannot be read: not UTF-8")
        return _common.EXIT_USAGE
    try:
        return _baseline.parse(text)
    except _baseline.BaselineError as exc:
        _common.say_error(f"baseline {path} is not usable: {exc}")
        return _common.EXIT_USAGE


def _write_baseline(path: str, salt: str, scan: Scan) -> int:
    if scan.swept == 0:
        _report_skipped(scan.skipped)
        print("NOTHING SWEPT: no file could be read; the baseline was not written", file=sys.stderr)
        return _common.EXIT_BLIND
    entries = [_entry(f) for f in scan.active]
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(_baseline.render(salt, entries))
    except OSError as exc:
        _common.say_error(f"baseline {path} cannot be written: {exc.strerror or exc}")
        return _common.EXIT_USAGE
    print(scan.summary())
    print(f"baseline {_common.printable(path)}: {len(entries)} finding(s) recorded")
    _report_skipped(scan.skipped)
    return _common.EXIT_OK


def _entry(finding: Finding) -> _baseline.Entry:
    return _baseline.normal_path(finding.path), finding.shape, finding.fingerprint


class Scan:
    """The whole sweep: what was read, what was found, what was not read."""

    def __init__(self) -> None:
        self.swept = 0
        self.findings: list[Finding] = []
        self.skipped: list[_common.Skipped] = []
        self.lines_not_json = 0
        self.lines_not_utf8 = 0
        self.blobs_skipped = 0

    @classmethod
    def run(cls, paths: list[str], key: bytes, jobs: int, progress: _Progress) -> Scan:
        scan = cls()
        files = list(_common.walk_files(paths, scan.skipped))  # listing first: "what is left"
        progress.start(len(files))
        for result in _results(files, key, jobs):
            scan.add(result)
            progress.advance(result.size)
        progress.finish()
        return scan

    def add(self, result: FileResult) -> None:
        self.skipped.extend(result.skipped)
        if not result.swept:
            return
        self.swept += 1
        self.findings.extend(result.findings)
        self.lines_not_json += result.lines_not_json
        self.lines_not_utf8 += result.lines_not_utf8
        self.blobs_skipped += result.blobs_skipped

    @property
    def active(self) -> list[Finding]:
        return [f for f in self.findings if not f.suppressed]

    @property
    def suppressed(self) -> int:
        return sum(f.suppressed for f in self.findings)

    def skipped_by_kind(self) -> dict[str, int]:
        return dict(sorted(Counter(skip_kind(s.reason) for s in self.skipped).items()))

    def summary(self) -> str:
        return f"swept {self.swept} files ({len(self.skipped)} skipped)"

    def details(self) -> list[str]:
        """Lines that say what was read unusually and what was not read, by kind."""
        lines = []
        if self.skipped:
            kinds = ", ".join(f"{kind} {count}" for kind, count in self.skipped_by_kind().items())
            lines.append(f"skipped by kind: {kinds}")
        if self.lines_not_json:
            lines.append(f"{self.lines_not_json} transcript line(s) not JSON, scanned as text")
        if self.lines_not_utf8:
            lines.append(
                f"{self.lines_not_utf8} transcript line(s) not UTF-8, read with replacement"
            )
        if self.blobs_skipped:
            lines.append(
                f"{self.blobs_skipped} database value(s) neither text nor UTF-8, not scanned"
            )
        return lines


def skip_kind(reason: str) -> str:
    """The kind of a skip reason: its text before the first colon ("unreadable: ...")."""
    return reason.split(":", 1)[0].strip()


# Below this many files, starting worker processes costs more than it saves (a
# pre-commit hook passes a handful of staged files per call).
PARALLEL_MIN_FILES = 32


def _results(files: list[str], key: bytes, jobs: int) -> Iterator[FileResult]:
    """One result per file, in the order of `files`, whatever the number of workers."""
    if jobs <= 1 or len(files) < PARALLEL_MIN_FILES:
        for path in files:
            yield _secret_scan.scan_file(path, key)
        return
    from concurrent.futures import ProcessPoolExecutor
    from functools import partial

    workers = min(jobs, len(files))
    chunk = max(1, min(64, len(files) // (workers * 8)))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(partial(_secret_scan.scan_file, key=key), files, chunksize=chunk)


class _Progress:
    """One rewritten stderr line: files done, bytes, rate, files left. Terminal only."""

    INTERVAL = 0.25  # seconds between redraws

    def __init__(self, *, enabled: bool) -> None:
        self.enabled = enabled
        self.total = self.done = self.bytes = 0
        self.started = self.drawn = 0.0

    def start(self, total: int) -> None:
        self.total, self.started = total, time.monotonic()

    def advance(self, size: int) -> None:
        self.done += 1
        self.bytes += size
        now = time.monotonic()
        if self.enabled and now - self.drawn >= self.INTERVAL:
            self.drawn = now
            sys.stderr.write("\r" + self.line(now) + "\x1b[K")
            sys.stderr.flush()

    def line(self, now: float) -> str:
        elapsed = max(now - self.started, 1e-9)
        rate = self.done / elapsed
        left = self.total - self.done
        eta = f", ~{left / rate:.0f} s left" if rate > 0 and left else ""
        return (
            f"scanned {self.done}/{self.total} files, {self.bytes / 1e6:.1f} MB, "
            f"{rate:.0f} files/s, {left} left{eta}"
        )

    def finish(self) -> None:
        if self.enabled and self.drawn:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


# ---------------------------------------------------------------- output


def where(finding: Finding) -> str:
    """The place a finding names, after the path: never a value."""
    if finding.table:
        place = f"{finding.table}.{finding.db_column}[rowid={finding.rowid}]"
        return f"{place}:{finding.json_path}" if finding.json_path else place
    if finding.json_path:
        return f"{finding.line}:{finding.json_path}"
    return f"{finding.line}:{finding.column}"


def _counts(active: list[Finding]) -> dict[str, dict[str, int]]:
    return {
        "by_shape": dict(sorted(Counter(f.shape for f in active).items())),
        "by_file": dict(sorted(Counter(f.path for f in active).items())),
    }


_OPTIONAL = ("json_path", "table", "db_column", "rowid")


def _finding_json(finding: Finding) -> dict[str, Any]:
    fields = finding._asdict()
    del fields["suppressed"]
    for name in _OPTIONAL:
        if not fields[name]:
            del fields[name]
    return fields


def _scan_document(scan: Scan, active: list[Finding], counts_only: bool) -> dict[str, Any]:
    document: dict[str, Any] = {
        "swept": scan.swept,
        "skipped": [{"path": s.path, "reason": s.reason} for s in scan.skipped],
        "skipped_by_kind": scan.skipped_by_kind(),
        "transcript_lines_not_json": scan.lines_not_json,
        "transcript_lines_not_utf8": scan.lines_not_utf8,
        "database_values_not_scanned": scan.blobs_skipped,
        "findings_total": len(active),
        "suppressed": scan.suppressed,
        "counts": _counts(active),
    }
    if not counts_only:
        document["findings"] = [_finding_json(f) for f in active]
    return document


def _print_scan(scan: Scan, active: list[Finding], counts_only: bool) -> None:
    show = _common.printable
    if counts_only:
        counts = _counts(active)
        for shape, count in counts["by_shape"].items():
            print(f"shape {shape}: {count}")
        for path, count in counts["by_file"].items():
            print(f"file {show(path)}: {count}")
    else:
        for f in active:
            print(f"{show(f.path)}:{show(where(f))} {f.shape} fp={f.fingerprint}")
    print(scan.summary())
    for line in scan.details():
        print(line)
    print(f"{len(active)} finding(s), {scan.suppressed} suppressed by '{ALLOW_COMMENT}'")


def _sarif_document(scan: Scan, active: list[Finding]) -> dict[str, Any]:
    from agentops import __version__
    from agentops.secret_redaction import SHAPES

    results = [
        _sarif.Result(
            rule_id=f.shape,
            message=f"secret-shaped run ({f.shape}) at {where(f)}; the value is not shown",
            path=f.path,
            line=f.line or 1,  # code scanning needs a line: a database value points at the file
            column=0 if f.json_path or f.table else f.column,  # JSON columns are in the string
            logical=_logical(f),
            fingerprint=f.fingerprint,
        )
        for f in active
    ]
    rules = {name: f"secret-shaped run: {description}" for name, description in SHAPES}
    not_read = [(s.path, s.reason) for s in scan.skipped]
    return _sarif.document("agentops scan-secrets", __version__, rules, results, not_read)


def _logical(finding: Finding) -> str:
    if finding.table:
        return where(finding)
    return finding.json_path


def _report_skipped(skipped: list[_common.Skipped]) -> None:
    for item in skipped:
        print(
            f"skipped: {_common.printable(item.path, sys.stderr)} ({item.reason})", file=sys.stderr
        )
