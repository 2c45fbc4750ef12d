"""Helpers the tests import: the repository root and running the CLI as a user would.

(Fixtures and hypothesis profiles live in conftest.py, which pytest loads itself;
pytest advises against importing conftest, so shared helpers live here.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_cli(
    *args: str,
    stdin: str | bytes | None = None,
    env: dict[str, str] | None = None,
    cwd: str | Path | None = None,
    timeout: float = 60,
) -> subprocess.CompletedProcess[str]:
    """Run `python -m agentops ARGS` in a subprocess, as a user would; stdin may be raw bytes."""
    full_env = {k: v for k, v in os.environ.items() if k not in ("AGENTOPS_DISABLED", "CLAUDECODE")}
    full_env["PYTHONPATH"] = str(ROOT) + os.pathsep + full_env.get("PYTHONPATH", "")
    full_env.update(env or {})
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    done = subprocess.run(
        [sys.executable, "-m", "agentops", *args],
        input=data,
        capture_output=True,
        env=full_env,
        cwd=cwd,
        timeout=timeout,
        check=False,
    )
    return subprocess.CompletedProcess(
        done.args,
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )
