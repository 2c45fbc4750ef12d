"""`hook pre-tool-use`: deny on any view, ask when blind (a policy setting), bounded time."""

from __future__ import annotations

import io
import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from support import ROOT

from agentops.cli import _policy, main
from agentops.cli._common import Refusal
from agentops.scannable_command import MAX_COMMAND_CHARS

STARTER_POLICY = ROOT / "examples" / "policy.json"
FORCE_RULE = {"id": "no-force", "pattern": r"^git\s+push\b.*\s(--force|-f)(\s|$)", "reason": "r"}


def hook_input(command: object, tool: str = "Bash") -> bytes:
    document: dict[str, Any] = {
        "session_id": "s",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": {"command": command},
    }
    return json.dumps(document).encode("utf-8")


class Gate:
    """Runs the hook in-process against a policy file under a temporary folder."""

    def __init__(self, folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.folder = folder
        self.capsys = capsys
        self.policy = folder / "policy.json"
        self.write_policy({"schema_version": 1, "deny": [FORCE_RULE]})

    def write_policy(self, document: object) -> None:
        self.policy.write_text(json.dumps(document), encoding="utf-8")

    def run(self, monkeypatch: pytest.MonkeyPatch, raw: bytes) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
        store = ["--store", str(self.folder / "store"), "--audit", str(self.folder / "audit")]
        code = main(["hook", "pre-tool-use", "--scope", "s", "--policy", str(self.policy), *store])
        out, err = self.capsys.readouterr()
        return code, out, err

    def answer(self, monkeypatch: pytest.MonkeyPatch, command: str) -> tuple[str, str]:
        code, out, err = self.run(monkeypatch, hook_input(command))
        assert (code, err) == (0, "")
        if not out:
            return "none", ""
        inner = json.loads(out)["hookSpecificOutput"]
        return inner["permissionDecision"], inner["permissionDecisionReason"]


@pytest.fixture
def gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Gate:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("AGENTOPS_DISABLED", raising=False)
    monkeypatch.delenv("CLAUDECODE", raising=False)
    return Gate(tmp_path, capsys)


def test_obfuscated_force_push_is_denied(gate: Gate, monkeypatch: pytest.MonkeyPatch) -> None:
    answer = gate.answer(monkeypatch, "g\\\nit push -f origin main")
    assert answer == ("deny", "agentops policy rule no-force: r")


def test_blind_argument_asks_with_the_construct(
    gate: Gate, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert gate.answer(monkeypatch, "git push $FLAG origin") == (
        "ask",
        "agentops cannot see what this command runs: an argument of git comes from "
        "variable $FLAG (rule no-force could match)",
    )
    assert gate.answer(monkeypatch, 'eval "$X"') == (
        "ask",
        "agentops cannot see what this command runs: eval of variable $X",
    )


def test_unparseable_command_asks_never_allows(gate: Gate, monkeypatch: pytest.MonkeyPatch) -> None:
    decision, reason = gate.answer(monkeypatch, "echo 'open")
    assert decision == "ask"
    assert "cannot parse the command" in reason


def test_ordinary_commands_get_no_opinion(gate: Gate, monkeypatch: pytest.MonkeyPatch) -> None:
    commit = "git commit -m \"$(cat <<'EOF'\nFix\n\nCo-Authored-By: x\nEOF\n)\""
    for command in (commit, "ls -la", "git push origin main", 'wc -l "$f"'):
        assert gate.answer(monkeypatch, command) == ("none", "")


def test_when_blind_pass_gives_no_opinion(gate: Gate, monkeypatch: pytest.MonkeyPatch) -> None:
    gate.write_policy({"schema_version": 1, "when_blind": "pass", "deny": [FORCE_RULE]})
    assert gate.answer(monkeypatch, "git push $FLAG") == ("none", "")
    assert gate.answer(monkeypatch, "echo 'open") == ("none", "")
    assert gate.answer(monkeypatch, "git push -f")[0] == "deny"  # deny is not affected


def test_a_policy_without_the_setting_asks(gate: Gate, monkeypatch: pytest.MonkeyPatch) -> None:
    gate.write_policy({"schema_version": 1, "when_blind": "ask", "deny": [FORCE_RULE]})
    assert gate.answer(monkeypatch, "git push $FLAG")[0] == "ask"
    gate.write_policy({"schema_version": 1, "deny": [FORCE_RULE]})
    assert gate.answer(monkeypatch, "git push $FLAG")[0] == "ask"


@pytest.mark.parametrize("value", ["allow", "ASK", "", 1, None, True])
def test_a_wrong_when_blind_makes_the_policy_unusable(value: object) -> None:
    with pytest.raises(Refusal, match='when_blind must be "ask" or "pass"'):
        _policy.policy_from_document({"schema_version": 1, "when_blind": value})


def test_policy_keeps_the_setting() -> None:
    assert _policy.policy_from_document({"schema_version": 1}).when_blind == "ask"
    document = {"schema_version": 1, "when_blind": "pass"}
    assert _policy.policy_from_document(document).when_blind == "pass"


def test_judge_maps_rule_indexes_to_rules() -> None:
    policy = _policy.policy_from_document(
        {"schema_version": 1, "deny": [{"id": "a", "pattern": "^ls"}, FORCE_RULE]}
    )
    verdict = _policy.judge(policy, "git push -f")
    assert verdict.decision == "deny"
    assert verdict.rule is not None and verdict.rule.id == "no-force"
    asked = _policy.judge(policy, "git push $F")
    assert (asked.decision, asked.rule and asked.rule.id) == ("ask", "no-force")
    hidden = _policy.judge(policy, 'eval "$X"')
    assert (hidden.decision, hidden.rule) == ("ask", None)
    assert _policy.judge(policy, "ls -la") == _policy.GateDecision("deny", policy.deny[0], "")
    assert _policy.judge(policy, "pwd") == _policy.GateDecision("none", None, "")


def test_malformed_input_still_blocks(gate: Gate, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = gate.run(monkeypatch, b"{not json")
    assert (code, out) == (2, "")
    assert "malformed hook input" in err


def test_largest_input_is_decided_in_time_with_the_starter_policy(
    gate: Gate, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate.policy.write_text(STARTER_POLICY.read_text(encoding="utf-8"), encoding="utf-8")
    filler = "# " + "git push " * 55000 + "\n"  # the 495 KB input of the report
    command = filler + "git push --force origin main"
    assert len(command) > MAX_COMMAND_CHARS
    started = time.perf_counter()
    decision, reason = gate.answer(monkeypatch, command)
    elapsed = time.perf_counter() - started
    assert decision == "ask"
    assert f"longer than {MAX_COMMAND_CHARS} characters" in reason
    assert elapsed < 5  # a generous adversarial bound; the benchmark measures the figure


def test_grant_is_not_needed_to_see_a_deny_through_a_long_comment(
    gate: Gate, monkeypatch: pytest.MonkeyPatch
) -> None:
    command = "# " + "git push " * 5000 + "\ngit push --force origin main"
    assert gate.answer(monkeypatch, command)[0] == "deny"
