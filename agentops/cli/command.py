"""`agentops command normalize|views [CMD]`: what a deny rule sees of a command.

A tool for writing and debugging policy rules: it shows the text a deny rule
sees on the normalized leg of `matches_raw_or_scannable` (the raw leg is the
command itself). The command comes from CMD or, when CMD is absent, from stdin
(UTF-8, invalid bytes replaced; one trailing line break is dropped, since `echo`
and editors add it). Quote CMD in single quotes so your own shell leaves it
alone, and put `--` before a command that starts with `-`.

Output: the scannable form and a line break. So the output cannot drive a
terminal, control characters other than tab and line feed (C0, DEL, C1) and
lone surrogates are shown as backslash escapes (`\\x1b`, `\\ud800`); `--json`
prints `{"command": ..., "scannable": ...}` with the exact strings. Exit 0 when
printed (an empty command prints an empty line), 2 on usage or internal error.
This is a transform, not a scan, so `AGENTOPS_DISABLED` does not switch it off.

`command views [CMD]` prints every text the PreToolUse gate matches deny rules
against (`scannable_command.command_views`): the raw text and its scannable form,
then one line per simple command (canonical argv joined by spaces, a blank inside
one argument shown as U+2420) and per pipeline, escaped the same way; and, when
the text cannot be taken apart, a last line `problem: ...`. `--json` prints
`{"command", "views", "commands": [argv, ...], "problem"}`. Exit 0.
"""

from __future__ import annotations

import argparse
import re
import sys

from agentops.cli import _common

# Characters a terminal may act on (C0 but tab and line feed, DEL, C1) and lone
# surrogates, which no encoder writes.
_UNSHOWABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def register(commands: _common.Subcommands, hooks: _common.Subcommands) -> None:
    command = commands.add_parser(
        "command", help="command-text tools for writing policy rules (normalize)"
    )
    tools = command.add_subparsers(title="tools", required=True)
    normalize = tools.add_parser(
        "normalize",
        help="print the scannable form of a command (stdin when CMD is absent)",
        description="Print the scannable form of a command: ANSI-C $'...' decoded, quotes "
        "removed, word-escaping backslashes dropped, as a deny rule sees it on the "
        "normalized leg. Put -- before a command that starts with '-'. "
        "Exit codes: 0 printed, 2 usage or error.",
    )
    normalize.add_argument(
        "cmd", nargs="?", metavar="CMD", help="the command text (default: read stdin)"
    )
    _common.add_json_option(normalize, '{"command", "scannable"} with exact strings')
    normalize.set_defaults(run=run_normalize)
    views = tools.add_parser(
        "views",
        help="print every view deny rules are matched against (stdin when CMD is absent)",
        description="Print the raw text, its scannable form and one line per simple command "
        "and pipeline as the gate's lexer sees them. Exit codes: 0 printed, 2 usage or error.",
    )
    views.add_argument(
        "cmd", nargs="?", metavar="CMD", help="the command text (default: read stdin)"
    )
    _common.add_json_option(views, '{"command", "views", "commands", "problem"} with exact strings')
    views.set_defaults(run=run_views)


def _command_text(args: argparse.Namespace) -> str:
    """CMD, or stdin with one trailing line break dropped."""
    if args.cmd is not None:
        return str(args.cmd)
    text = _common.read_stdin_text()
    if text.endswith("\r\n"):
        return text[:-2]
    if text.endswith("\n"):
        return text[:-1]
    return text


def run_views(args: argparse.Namespace) -> int:
    from agentops.scannable_command import command_views, parse_command

    text = _command_text(args)
    views = command_views(text)
    parsed = parse_command(text)
    if args.json:
        commands = [list(command.argv) for command in parsed.commands]
        document = {"command": text, "views": views, "commands": commands}
        _common.print_json({**document, "problem": parsed.problem})
        return _common.EXIT_OK
    lines = [*views, *([f"problem: {parsed.problem}"] if parsed.problem else [])]
    shown = "".join(_UNSHOWABLE.sub(_escape, line).replace("\n", "\\n") + "\n" for line in lines)
    sys.stdout.buffer.write(shown.encode("utf-8"))
    sys.stdout.flush()
    return _common.EXIT_OK


def run_normalize(args: argparse.Namespace) -> int:
    from agentops.scannable_command import scannable_command

    text = _command_text(args)
    scannable = scannable_command(text)
    if args.json:
        _common.print_json({"command": text, "scannable": scannable})
    else:
        shown = _UNSHOWABLE.sub(_escape, scannable)
        sys.stdout.buffer.write(shown.encode("utf-8") + b"\n")
        sys.stdout.flush()
    return _common.EXIT_OK


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0xD800 else f"\\u{code:04x}"  # C0/DEL/C1, surrogate
