"""The project passes its own audit: each SELF-AUDIT.md command, run against
this repository, answers as the audit requires; and on a repository that lacks
what it looks for, each says NOTHING SWEPT (exit 4) instead of "clean"."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
AUDIT = (ROOT / "SELF-AUDIT.md").read_text(encoding="utf-8")


def _commands() -> list[list[str]]:
    """Every `python -m agentops ...` line the audit tells an agent to run."""
    found = re.findall(r"^ {4}python -m agentops (.+?)(?:\s+#.*)?$", AUDIT, flags=re.MULTILINE)
    return [shlex.split(line) for line in found]


def test_the_audit_has_seven_questions_and_the_rules() -> None:
    assert len(re.findall(r"^### [1-7]\. ", AUDIT, flags=re.MULTILINE)) == 7
    for part in (
        "PASS",
        "FAIL",
        "CAN'T TELL",
        "Never print a secret",
        "A partial mitigation is a FAIL",
        "Vendoring a file does not by itself",
    ):
        assert part in AUDIT


def test_every_documented_command_exists() -> None:
    commands = _commands()
    assert [c[0] for c in commands] == [
        "scan-secrets",
        "scan-secrets",
        "selfcheck",
        "command",
        "memory",
        "memory",
        "hidden-chars",
    ]
    for command in commands:
        with_sub = command[0] in ("memory", "command")  # these take a sub-command
        assert run_cli(*command[: 2 if with_sub else 1], "--help").returncode == 0


def test_question_1_secrets_uses_counts_only() -> None:
    first = _commands()[0]
    assert first[:2] == ["scan-secrets", "--counts-only"]


def test_question_1_this_repository_has_no_unallowed_secret() -> None:
    done = run_cli("scan-secrets", "--counts-only", ".", cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 finding(s)" in done.stdout


def test_question_2_selfcheck_passes_and_an_empty_sweep_is_not_clean(tmp_path: Path) -> None:
    assert run_cli("selfcheck", cwd=ROOT).returncode == 0
    done = run_cli("scan-secrets", "--counts-only", str(tmp_path))
    assert done.returncode == 4 and "NOTHING SWEPT" in done.stderr


def test_question_4_normalize_sees_through_the_obfuscated_deny_example() -> None:
    command = next(c for c in _commands() if c[0] == "command")
    done = run_cli(*command)
    assert (done.returncode, done.stdout) == (0, "git push --force\n")


@pytest.mark.parametrize(
    "command",
    [["memory", "lint"], ["memory", "repairs"], ["hidden-chars", "--strict"], ["scan-secrets"]],
)
def test_every_scan_on_a_repository_without_the_thing_is_probe_blind(
    tmp_path: Path, command: list[str]
) -> None:
    done = run_cli(*command, str(tmp_path))
    assert done.returncode == 4, done.stdout + done.stderr
    assert "NOTHING SWEPT" in done.stderr


def test_question_6_project_text_has_no_hidden_characters() -> None:
    docs = [str(p) for p in (ROOT / "README.md", ROOT / "SELF-AUDIT.md")]
    docs += [str(p) for p in sorted((ROOT / "patterns").glob("*.md"))]
    done = run_cli("hidden-chars", "--strict", *docs, cwd=ROOT)
    assert done.returncode == 0, done.stdout
