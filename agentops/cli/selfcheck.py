"""`agentops selfcheck [MODULE...]`: run each module's own self-check.

Each self-check runs in a subprocess of the current interpreter, so a module's
refusal under `python -O` stays intact and one module's failure cannot hide
another's. Works from a plain clone with nothing installed.
"""

from __future__ import annotations

import argparse
import os
import sys

import agentops
from agentops.cli import _common


def register(commands: _common.Subcommands, hooks: _common.Subcommands) -> None:
    parser = commands.add_parser(
        "selfcheck", help="run every module's self-check (or the named ones)"
    )
    parser.add_argument("modules", nargs="*", metavar="MODULE", help="module names")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    names = list(args.modules) or list(agentops.MODULES)
    unknown = [n for n in names if n not in agentops.MODULES]
    if unknown:
        _common.say_error(
            f"unknown module(s): {', '.join(unknown)}; known: {', '.join(agentops.MODULES)}"
        )
        return _common.EXIT_USAGE
    failed = 0
    for name in names:
        ok, last = _run_one(name)
        failed += not ok
        print(f"ok {name}" if ok else f"FAIL {name}: {last}")
    # A failing self-check is a "no" about this installation, not a usage error.
    return _common.EXIT_FINDINGS if failed else _common.EXIT_OK


def _run_one(name: str) -> tuple[bool, str]:
    import subprocess  # here, not at the top: every command pays for top-level imports

    path = os.path.join(os.path.dirname(agentops.__file__), f"{name}.py")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONOPTIMIZE"}
    try:
        done = subprocess.run(
            [sys.executable, path],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return False, f"could not run: {exc}"
    lines = (done.stdout + done.stderr).strip().splitlines() or ["(no output)"]
    passed = done.returncode == 0 and "all assertions passed" in done.stdout
    return passed, lines[-1]
