"""`agentops ledger touch` and `agentops ledger tally`: the memory usage ledger on disk.

`touch` appends one row per load-bearing memory to a JSON Lines ledger in ONE
`os.write` (`_common.append_record`: `O_APPEND`, created 0o644, never truncated
or rewritten, a torn last line closed with a newline first), so concurrent
sessions appending at once lose and tear no row.

`tally` reads the ledger (`_common.read_regular`: UTF-8, invalid bytes replaced, a
leading BOM dropped; a missing, unreadable or non-regular ledger reads as empty) and
tallies it against the fact names of a memory directory. No rows read means NO
EVIDENCE (exit 4): never-touched is then not an eviction signal.

The fact names are the regular `.md` files of the memory directory, the index
excluded, as `_common.read_memory_dir` lists them: a file that cannot be read, or is
larger than `_common.MAX_FILE_BYTES` (refused from its size, never loaded), still
names a fact; a symbolic link, folder, FIFO or socket named `x.md` does not. `tally`
says which fact files it did not read (`fact file not read: NAME: why` after the
first line, or `files_skipped` in the JSON, present only then), never silently.

Choices: the kill switch (`AGENTOPS_DISABLED=1`) makes both commands print
`disabled by AGENTOPS_DISABLED` and exit 4 with nothing written; a LEDGER that is
not a regular file (a directory, a FIFO, a device) is not written (exit 4);
`--days` takes ASCII digits only, at most 999999999; the JSON `rows_skipped` is,
like the text line, parse-skipped lines plus malformed rows. Exit codes: 0 done,
3 `touch` rejected a name, 4 nothing recorded or no evidence, 2 usage.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Any

from agentops.cli import _common

INDEX_NAME = "memory.md"
MAX_DAYS = 999_999_999  # the largest whole-day timedelta
_DAYS_RE = re.compile(r"[0-9]{1,12}")


def register(commands: _common.Subcommands, hooks: _common.Subcommands) -> None:
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
    _common.add_json_option(tally)
    tally.set_defaults(run=run_tally, crash_exit=_common.EXIT_BLIND)


def fact_names(memory_dir: _common.MemoryDir) -> list[str]:
    """Each regular `.md` file's name minus its last three characters; the index
    (`memory.md` in any case) excluded. An unreadable file still names a fact."""
    return [
        name[:-3]
        for name, _text in memory_dir.files
        if name.lower() != INDEX_NAME and name not in memory_dir.not_regular
    ]


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
    record = mul.format_ledger_rows(made.rows).encode("utf-8")
    try:
        _common.append_record(args.ledger, record, mode=0o644, follow_links=True)
    except _common.FileNotWritten as exc:
        _common.say_error(f"ledger {args.ledger}: {exc}; nothing recorded")
        return _common.EXIT_BLIND
    print(f"recorded {len(made.rows)} {_plural(len(made.rows))}")
    return _common.EXIT_FINDINGS if made.rejected else _common.EXIT_OK


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
    why_empty: str | None = None
    try:  # uncapped: the ledger is this command's own log, and a long history is evidence
        data = _common.read_regular(args.ledger, limit=None, follow_links=True)
    except _common.FileNotRead as exc:
        data, why_empty = b"", str(exc)
    text = _common.text_replacing(data)
    parsed = mul.parse_ledger_text(text)
    tally = mul.tally_usage(
        parsed.rows,
        fact_names(memory_dir),
        window=timedelta(days=days),
        now=datetime.now(timezone.utc),
    )
    skipped = parsed.skipped + tally.rows_skipped
    files_skipped = [s for s in memory_dir.skipped if s.name not in memory_dir.not_regular]
    if args.json:
        document: dict[str, Any] = {
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
        if files_skipped:  # only then: a document without skips keeps its shape
            document["files_skipped"] = [entry._asdict() for entry in files_skipped]
        _common.print_json(document)
    else:
        print(
            f"{tally.rows_read} rows read ({tally.rows_in_window} in the last {days} days, "
            f"{skipped} skipped)"
        )
        for entry in files_skipped:
            print(_common.printable(f"fact file not read: {entry.name}: {entry.reason}"))
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
