"""`agentops ledger touch` and `agentops ledger tally`: the memory usage ledger on disk.

`touch` appends one row per load-bearing memory to a JSON Lines ledger in ONE
`os.write` on a descriptor opened `O_WRONLY | O_APPEND | O_CREAT`: the ledger is
never truncated or rewritten, and concurrent sessions appending at once lose and
tear no row. If the existing file is non-empty and does not end in a newline (a
writer died mid-line), the same write starts with `"\\n"` so the torn line never
swallows the new rows. When the last byte cannot be read back, the newline is
written anyway (a blank line is ignored by every reader; a merged row is not).

`tally` reads the ledger (UTF-8, invalid bytes replaced, a leading BOM dropped; a
missing, unreadable or non-regular ledger reads as empty) and tallies it against
the fact names of a memory directory. No rows read means NO EVIDENCE (exit 4):
never-touched is then not an eviction signal.

Choices where the contract is silent: the kill switch (`AGENTOPS_DISABLED=1`)
makes both commands print `disabled by AGENTOPS_DISABLED` and exit 4 with nothing
written; a LEDGER that is not a regular file (a directory, a FIFO, a device) is
not written (exit 4); `--days` takes ASCII digits only, at most 999999999; the
JSON `rows_skipped` is, like the text line, parse-skipped lines plus malformed rows.
Exit codes and everything else: `memory_usage_ledger.md` §10.
"""

from __future__ import annotations

import argparse
import os
import re
import stat
import sys
from typing import Any

from agentops.cli import _common

INDEX_NAME = "memory.md"
MAX_DAYS = 999_999_999  # the largest whole-day timedelta
_DAYS_RE = re.compile(r"[0-9]{1,12}")


def register(commands: Any, hooks: Any) -> None:
    ledger = commands.add_parser(
        "ledger", help="memory usage ledger: record touches, tally use over a window"
    )
    sub = ledger.add_subparsers(title="ledger commands", metavar="ACTION")
    touch = sub.add_parser("touch", help="append one touch per load-bearing memory NAME")
    touch.add_argument("ledger", metavar="LEDGER", help="the JSON Lines ledger (created)")
    touch.add_argument("names", nargs="+", metavar="NAME", help="fact names (file minus .md)")
    touch.add_argument("--session", metavar="S", default=None, help="session id to record")
    touch.add_argument(
        "--dir",
        metavar="DIR",
        default=None,
        help="memory directory: warn on names that are not facts there",
    )
    touch.set_defaults(run=run_touch, crash_exit=_common.EXIT_BLIND)
    tally = sub.add_parser("tally", help="touch counts per fact over the last N days")
    tally.add_argument("ledger", metavar="LEDGER", help="the JSON Lines ledger")
    tally.add_argument("directory", metavar="DIR", help="memory directory")
    tally.add_argument(
        "--days", metavar="N", default="90", help="window in days, a positive integer (default 90)"
    )
    tally.add_argument("--json", action="store_true", help="one JSON document on stdout")
    tally.set_defaults(run=run_tally, crash_exit=_common.EXIT_BLIND)


def fact_names(memory_dir: _common.MemoryDir) -> list[str]:
    """Each regular `.md` file's name minus its last three characters; the index
    (`memory.md` in any case) excluded. An unreadable file still names a fact."""
    return [name[:-3] for name, _text in memory_dir.files if name.lower() != INDEX_NAME]


def _plural(count: int) -> str:
    return "touch" if count == 1 else "touches"


def run_touch(args: argparse.Namespace) -> int:
    from datetime import datetime, timezone

    from agentops import memory_usage_ledger as mul

    if _common.disabled():
        return _common.scan_disabled()
    known: list[str] | None = None
    if args.dir is not None:
        if not os.path.isdir(args.dir):
            _common.say_error(f"--dir {args.dir}: missing or not a directory")
            return _common.EXIT_USAGE
        memory_dir = _common.read_memory_dir(args.dir)
        if not memory_dir.listed:
            _common.say_error(f"--dir {args.dir}: cannot be listed")
            return _common.EXIT_USAGE
        known = fact_names(memory_dir)
    made = mul.make_touch_rows(
        list(args.names), session=args.session, now=datetime.now(timezone.utc), known_names=known
    )
    for name in made.rejected:
        _common.say_error(
            f"rejected name {name!r}: a fact name is the memory file name "
            "without .md, with no path separator"
        )
    for name in made.unknown:
        _common.say_error(
            f"warning: {name!r} is not a fact in {args.dir} (recorded anyway; a typo?)"
        )
    problem = append_text(args.ledger, mul.format_ledger_rows(made.rows))
    if problem is not None:
        _common.say_error(f"ledger {args.ledger}: {problem}; nothing recorded")
        return _common.EXIT_BLIND
    print(f"recorded {len(made.rows)} {_plural(len(made.rows))}")
    return _common.EXIT_FINDINGS if made.rejected else _common.EXIT_OK


def append_text(path: str, text: str) -> str | None:
    """Append `text` to the regular file `path` (created, never truncated) in one
    write; None on success, else why nothing was written."""
    payload = text.encode("utf-8")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NONBLOCK, 0o644)
    except OSError as exc:
        return f"cannot open for appending: {exc.strerror or exc}"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return "not a regular file"
        if payload and info.st_size > 0 and not _ends_in_newline(path, info):
            payload = b"\n" + payload
        if not payload:
            return None
        written = os.write(fd, payload)
        if written != len(payload):
            return f"short write ({written} of {len(payload)} bytes)"
        return None
    except OSError as exc:
        return f"cannot write: {exc.strerror or exc}"
    finally:
        os.close(fd)


_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO without a reader fails instead of hanging


def _ends_in_newline(path: str, info: os.stat_result) -> bool:
    """Whether the file `info` describes ends in b"\\n"; False when that cannot be
    read back from the same file (the caller then writes a separating newline).

    Under concurrent appends this can answer False for a tail that is only
    mid-write (a page-crossing append publishes its new size before its last
    bytes), which costs one blank line, never a merged row: blank lines are not
    rows."""
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK)
    except OSError:
        return False
    try:
        mine = os.fstat(fd)
        if (mine.st_dev, mine.st_ino) != (info.st_dev, info.st_ino) or mine.st_size < 1:
            return False
        return os.pread(fd, 1, mine.st_size - 1) == b"\n"
    except OSError:
        return False
    finally:
        os.close(fd)


def read_ledger(path: str) -> tuple[str, str | None]:
    """The ledger's text (UTF-8, invalid bytes replaced, leading BOM dropped) and why
    it read as empty (None when it was read)."""
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK)
    except FileNotFoundError:
        return "", "missing"
    except OSError as exc:
        return "", f"unreadable: {exc.strerror or exc}"
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return "", "not a regular file"
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read()
    except OSError as exc:
        return "", f"unreadable: {exc.strerror or exc}"
    finally:
        os.close(fd)
    text = data.decode("utf-8", "replace")
    return (text[1:] if text.startswith("\ufeff") else text), None


def run_tally(args: argparse.Namespace) -> int:
    from datetime import datetime, timedelta, timezone

    from agentops import memory_usage_ledger as mul

    if _common.disabled():
        return _common.scan_disabled()
    days_text = str(args.days)
    days = int(days_text) if _DAYS_RE.fullmatch(days_text) else 0
    if not 1 <= days <= MAX_DAYS:
        _common.say_error(
            f"--days {days_text}: not a positive whole number of days (1 to {MAX_DAYS})"
        )
        return _common.EXIT_USAGE
    if not os.path.isdir(args.directory):
        _common.say_error(f"{args.directory}: missing or not a directory")
        return _common.EXIT_USAGE
    memory_dir = _common.read_memory_dir(args.directory)
    text, why_empty = read_ledger(args.ledger)
    parsed = mul.parse_ledger_text(text)
    tally = mul.tally_usage(
        parsed.rows,
        fact_names(memory_dir),
        window=timedelta(days=days),
        now=datetime.now(timezone.utc),
    )
    skipped = parsed.skipped + tally.rows_skipped
    if args.json:
        _common.print_json(
            {
                "window_days": days,
                "rows_read": tally.rows_read,
                "rows_in_window": tally.rows_in_window,
                "rows_skipped": skipped,
                "touched": [
                    {"name": t.name, "count": t.count, "last_touch": t.last_touch}
                    for t in tally.touched
                ],
                "never_touched": list(tally.never_touched),
            }
        )
    else:
        print(
            f"{tally.rows_read} rows read ({tally.rows_in_window} in the last {days} days, "
            f"{skipped} skipped)"
        )
        for t in tally.touched:
            print(_common.printable(f"{t.count}  {t.last_touch}  {t.name}"))
        for name in tally.never_touched:
            print(_common.printable(f"never  {name}"))
    code = _common.EXIT_OK
    if not memory_dir.listed:
        _common.say_error(f"{args.directory}: cannot be listed; never-touched is unknown")
        code = _common.EXIT_BLIND
    if tally.rows_read == 0:
        reason = f" (ledger {why_empty})" if why_empty else ""
        print(
            _common.printable(
                f"NO EVIDENCE: no rows read from {args.ledger}{reason}; never-touched is not an "
                "eviction signal",
                sys.stderr,
            ),
            file=sys.stderr,
        )
        code = _common.EXIT_BLIND
    return code
