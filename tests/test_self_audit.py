"""The project passes its own audit: each SELF-AUDIT.md command, run against
this repository, answers as the audit requires; and on a repository that lacks
what it looks for, each says NOTHING SWEPT (exit 4) instead of "clean"."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from support import ROOT, run_cli

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


def test_verdicts_include_na_only_with_evidence_and_it_leaves_the_count() -> None:
    assert "PASS, FAIL, CAN'T TELL or N/A" in AUDIT
    rule = AUDIT[AUDIT.index("**N/A only when the failure cannot occur") :]
    rule = rule[: rule.index("\n## ")]
    assert "quote what shows it" in rule and "is not N/A" in rule and "CAN'T TELL" in rule
    assert "score N/6" in AUDIT  # an N/A question leaves the count


def test_the_audit_names_what_runs_in_production_by_commit() -> None:
    assert "Audit what runs in production, named by commit" in AUDIT
    assert "audited: <repository> @ <full commit hash> (<branch or tag>)" in AUDIT
    assert "deployed version unknown" in " ".join(AUDIT.split())


def _question(number: int) -> str:
    start = AUDIT.index(f"### {number}. ")
    end = AUDIT.find("\n### ", start + 1)
    return " ".join(AUDIT[start : end if end > 0 else AUDIT.index("\n## ", start)].split())


def test_question_1_sweeps_database_stores() -> None:
    first = _question(1)
    assert "SQLite" in first and "read-only" in first and "server database" in first
    assert "skipped by kind" in first and "coverage gap" in first


def test_question_2_says_how_to_sample_many_checks() -> None:
    second = _question(2)
    assert "more than ten" in second and "sample five of the rest by a rule" in second
    assert "coverage gap" in second


def test_question_5_asks_the_underlying_question_for_any_memory_format() -> None:
    fifth = _question(5)
    assert "whatever its format" in fifth
    assert "rows of a database table" in fifth and "No check at all is a FAIL, not N/A" in fifth


def test_a_worked_example_answers_one_question_with_verdict_quote_and_fix() -> None:
    example = AUDIT[AUDIT.index("## A question answered well") :]
    assert '**3. What happens to "stale" after a bulk edit? FAIL.**' in example
    assert re.search(r"`[\w/]+\.py:\d+-\d+`", example)  # a path with line numbers
    assert "Smallest change" in example


def test_question_1_scan_reads_a_database_store_read_only(tmp_path: Path) -> None:
    import sqlite3

    store = tmp_path / "memory.db"
    connection = sqlite3.connect(store)
    connection.execute("CREATE TABLE blocks (id INTEGER PRIMARY KEY, value TEXT)")
    connection.execute("INSERT INTO blocks VALUES (1, ?)", ("AKIA" + "IOSFODNN7EXAMPLE",))
    connection.commit()
    connection.close()
    before = (store.read_bytes(), store.stat().st_mtime_ns)
    first = _commands()[0]
    done = run_cli(*first[:2], str(store))
    assert done.returncode == 3 and f"file {store}: 1" in done.stdout
    assert (store.read_bytes(), store.stat().st_mtime_ns) == before
