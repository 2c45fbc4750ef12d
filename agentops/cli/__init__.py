"""The command-line layer: `python -m agentops <command>` and the `agentops` script.

The pure modules never touch files, stdin, the clock or the environment; this
package does, and nothing else does. Each command family lives in its own file
here and exposes `register(commands, hooks)`, which adds its sub-parsers and sets
`run` (and, where its contract says so, `crash_exit`) as parser defaults.

Shared rules (see `_common`): exit 0 clean/yes, 3 findings/no, 4 probe-blind,
2 usage or internal error, and never 1, because a crash must never read as an
answer. Command files import their pure module inside `run`, so `--help` and a
hook pay only for what they use.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from agentops import __version__
from agentops.cli import _common


def _command_files() -> list[str]:
    """The command files of this package, by name; private helpers start with `_`.
    (A plain directory listing: `pkgutil` would import `inspect`, a cost every
    hook call would pay.)"""
    here = os.path.dirname(os.path.abspath(__file__))
    return sorted(n[:-3] for n in os.listdir(here) if n.endswith(".py") and not n.startswith("_"))


def build_parser() -> argparse.ArgumentParser:
    parser = _common.ArgumentParser(
        prog="agentops",
        description="Small, pure checks that keep LLM agents honest. "
        "Exit codes: 0 clean/yes, 3 findings/no, 4 nothing swept, 2 usage or error.",
    )
    parser.add_argument("--version", action="version", version=f"agentops {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    hook = commands.add_parser("hook", help="Claude Code hook adapters (read JSON on stdin)")
    hooks = hook.add_subparsers(title="hooks", metavar="HOOK")
    for name in _command_files():
        importlib.import_module(f"agentops.cli.{name}").register(commands, hooks)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse `argv`, run one command, return its exit code (never 1)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help and --version exit 0, errors exit 2
        return _common.EXIT_OK if exc.code == 0 else _usage_exit(parser, argv)
    run = getattr(args, "run", None)
    if run is None:
        parser.print_help(sys.stderr)
        return _common.EXIT_USAGE
    crash_exit: int = getattr(args, "crash_exit", _common.EXIT_USAGE)
    try:
        code = run(args)
    except KeyboardInterrupt:
        _common.say_error("interrupted")
        return crash_exit
    except Exception as exc:  # a crash must never read as an answer
        _common.say_error(f"internal error: {type(exc).__name__}: {exc}")
        return crash_exit
    return code if code in _common.EXIT_CODES else crash_exit


def _usage_exit(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> int:
    """A usage error exits 2, except in a command whose contract is to fail open
    (`crash_exit=0`, the PostToolUse hook): a typo in a hook's settings must not
    break the tool loop it annotates."""
    try:
        known, _unknown = parser.parse_known_args(argv)
    except SystemExit:
        return _common.EXIT_USAGE
    return _common.EXIT_OK if getattr(known, "crash_exit", None) == 0 else _common.EXIT_USAGE
