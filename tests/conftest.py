"""Shared test setup: hypothesis profiles and helpers for running the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent

# "ci" is deterministic so a red CI run can be replayed exactly; "dev" explores more.
settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=150,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, max_examples=150)
# Used by .ci/mutation_probe.py: fewer examples so each mutant runs quickly.
settings.register_profile(
    "mutation",
    derandomize=True,
    deadline=None,
    max_examples=40,
    suppress_health_check=list(HealthCheck),
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


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


@pytest.fixture
def far_zone(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The host's local zone set to UTC+05:30 (a POSIX TZ string, so no tz database is
    needed): a verdict that leans on local time shows."""
    monkeypatch.setenv("TZ", "IST-05:30")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()
