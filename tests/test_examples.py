"""Every example under examples/ runs as documented, with nothing installed."""

from __future__ import annotations

import os
import subprocess
import sys

from support import ROOT

EXAMPLES = ROOT / "examples"


def _run(name: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name)],
        capture_output=True,
        text=True,
        env=env,
        cwd=EXAMPLES,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_every_example_is_tested() -> None:
    tested = {
        "redact_recalled_memories.py",
        "fuse_recency_and_relevance.py",
        "secret_detector_adapter.py",
    }
    assert {p.name for p in EXAMPLES.glob("*.py")} == tested


def test_recalled_memories_are_redacted() -> None:
    assert _run("redact_recalled_memories.py").splitlines() == [
        "1: Debugged the deploy; the user pasted [redacted:aws-key] by mistake.",
        "2: Deploys go through the staging branch first.",
    ]


def test_the_relevant_old_hit_enters_the_top_two() -> None:
    out = _run("fuse_recency_and_relevance.py").splitlines()
    relevant = "database migration rollback procedure: restore snapshot, then replay"
    recency_only = out[1:3]
    fused = out[4:6]
    assert all(relevant not in line for line in recency_only)
    assert any(line.endswith(relevant) for line in fused)
    assert out[7].split()[1] == "doc-2"  # first in both lists' top two: fused first


def test_detector_adapter_reports_type_and_offsets_only() -> None:
    assert _run("secret_detector_adapter.py") == "github-token at 13-53\n"


def test_adapter_records_carry_the_span() -> None:
    sys.path.insert(0, str(EXAMPLES))
    try:
        import secret_detector_adapter as adapter
    finally:
        sys.path.remove(str(EXAMPLES))
    text = "x " + "AKIA" + "IOSFODNN7EXAMPLE"
    assert adapter.detect_secrets(text) == [adapter.Match("aws-key", text[2:], 2, len(text))]
