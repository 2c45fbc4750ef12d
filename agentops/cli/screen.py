"""`agentops screen summarize LOG.ndjson [--json]`: the evidence in a screen's verdict log.

The log holds one row per line (NDJSON): a JSON string verdict (`"allow"`), an
object with a `"verdict"` key, or anything else, which counts as unrecognized.
A line that is not JSON counts as one unrecognized row, so a garbled log drags
the pass rate down instead of vanishing from it; blank lines are not rows. `-`
reads the log from stdin.

Output: one summary field per line (`total`, each verdict's count in
vocabulary order, `unrecognized`, `passes`, `pass_rate`, `unscreened_rate`),
then one line per `would_block` row, `would_block line N: <row as JSON>`: the
rows a human labels before the screen enforces. `--json` prints the summary as
one JSON document, with `would_block_lines` beside `would_block_rows`.

Exit codes: 0 every row read is a pass (`allow` / `shadow_allow`); 3 at least
one row is not (the screen fired, was dark, or the row is unrecognized); 4
nothing to summarize (the log could not be read or holds no rows, or
`AGENTOPS_DISABLED=1`); 2 usage or internal error. Exit 0 says the window is
clean, not that the screen is ready to enforce: a screen that never fires also
gives a clean window, so show it firing on a known-bad input first.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from agentops.cli import _common

_EPILOG = (
    "Exit codes: 0 every row is a pass (allow, shadow_allow); 3 some row is not "
    "(would_block, block, unscreened or unrecognized); 4 nothing to summarize (log "
    "unreadable or empty, or AGENTOPS_DISABLED=1); 2 usage or error. A clean window "
    "is not readiness: a screen that never fires is clean too."
)


def register(commands: _common.Subcommands, hooks: _common.Subcommands) -> None:
    screen = commands.add_parser("screen", help="shadow-screen tools (summarize a verdict log)")
    tools = screen.add_subparsers(title="tools", required=True)
    summarize = tools.add_parser(
        "summarize",
        help="summarize a screen verdict log (NDJSON, one row per line)",
        description="Summarize a screen verdict log: counts per verdict, pass and unscreened "
        "rates over every row read, and the would_block rows to review. " + _EPILOG,
    )
    summarize.add_argument("log", metavar="LOG.ndjson", help="the verdict log ('-' for stdin)")
    _common.add_json_option(summarize)
    summarize.set_defaults(run=run_summarize)


def run_summarize(args: argparse.Namespace) -> int:
    from agentops.shadow_screen import VERDICTS, summarize_screen_log

    if _common.disabled():
        return _common.scan_disabled()
    log: str = args.log
    if log == "-":
        text = _common.read_stdin_text()
        text = text[1:] if text.startswith("\ufeff") else text
    else:
        read = _common.read_text_file(log)
        if isinstance(read, _common.Skipped):
            _common.say_error(f"cannot read screen log {log}: {read.reason}; nothing summarized")
            return _common.EXIT_BLIND
        text = read
    numbered = _parse_rows(text)
    summary = summarize_screen_log(row for _, row in numbered)
    would_block = _would_block_lines(numbered, summary.would_block_rows)
    if args.json:
        document = _common.as_json(summary)
        document["would_block_lines"] = [number for number, _ in would_block]
        _common.print_json({"log": log, **document})
    else:
        _print_summary(summary, VERDICTS, would_block)
    if summary.total == 0:
        _common.say_error(f"no rows in screen log {log}; nothing summarized")
        return _common.EXIT_BLIND
    return _common.EXIT_OK if summary.passes == summary.total else _common.EXIT_FINDINGS


def _parse_rows(text: str) -> list[tuple[int, object]]:
    """(line number, row) for each non-blank line; a line that is not JSON is None."""
    numbered: list[tuple[int, object]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            row: object = json.loads(line)
        except (ValueError, RecursionError):
            row = None  # not JSON: an unrecognized row, never a dropped one
        numbered.append((number, row))
    return numbered


def _would_block_lines(
    numbered: list[tuple[int, object]], picked: tuple[object, ...]
) -> list[tuple[int, object]]:
    """(line number, row) for the would_block rows, which the summary keeps in input order."""
    found: list[tuple[int, object]] = []
    for number, row in numbered:
        if len(found) < len(picked) and row is picked[len(found)]:
            found.append((number, row))
    return found


def _print_summary(
    summary: Any, verdicts: tuple[str, ...], would_block: list[tuple[int, object]]
) -> None:
    print(f"total {summary.total}")
    for verdict in verdicts:
        print(f"{verdict} {summary.counts[verdict]}")
    print(f"unrecognized {summary.unrecognized}")
    print(f"passes {summary.passes}")
    print(f"pass_rate {_rate(summary.pass_rate)}")
    print(f"unscreened_rate {_rate(summary.unscreened_rate)}")
    for number, row in would_block:
        shown = json.dumps(row, ensure_ascii=False)
        print(f"would_block line {number}: {_common.printable(shown)}")


def _rate(rate: float | None) -> str:
    return "n/a" if rate is None else f"{rate:.4f}"
