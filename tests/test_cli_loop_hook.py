"""Tests for `hook loop-guard` and `hook user-prompt-submit` (agentops/cli/loop_hook.py)."""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from support import ROOT, run_cli

from agentops.cli import _session_state, main

FIXTURES = Path(__file__).parent / "fixtures" / "hooks"


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("AGENTOPS_DISABLED", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


def search(query: str = "python json recursion", tool: str = "WebSearch", **extra: Any) -> str:
    data = fixture("claude_pre_tool_use_websearch.json")
    data["tool_name"] = tool
    data["tool_input"] = {"query": query}
    data.update(extra)
    return json.dumps(data)


def grep(pattern: str = "TODO", **extra: Any) -> str:
    data = fixture("claude_pre_tool_use_websearch.json")
    data["tool_name"] = "Grep"
    data["tool_input"] = {"pattern": pattern, "path": "src"}
    data.update(extra)
    return json.dumps(data)


def call(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, hook: str, stdin: str, *argv: str
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode()), "utf-8"))
    code = main(["hook", hook, *argv])
    out, err = capsys.readouterr()
    return code, out, err


def decision(out: str) -> tuple[str, str]:
    inner = json.loads(out)["hookSpecificOutput"]
    assert inner["hookEventName"] == "PreToolUse"
    return inner["permissionDecision"], inner["permissionDecisionReason"]


def test_fifth_identical_call_denied(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    for _ in range(4):
        assert call(monkeypatch, capsys, "loop-guard", grep()) == (0, "", "")
    code, out, err = call(monkeypatch, capsys, "loop-guard", grep())
    verdict, reason = decision(out)
    assert (code, verdict, err) == (0, "deny", "")
    assert "this exact Grep call" in reason and "attempt number 5" in reason
    assert "not evidence of absence" in reason
    assert call(monkeypatch, capsys, "loop-guard", grep("other")) == (0, "", "")


def test_rewording_runs_twice_then_denied(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    assert call(monkeypatch, capsys, "loop-guard", search("create a table"))[1] == ""
    assert call(monkeypatch, capsys, "loop-guard", search("how to create tables"))[1] == ""
    _code, out, _ = call(monkeypatch, capsys, "loop-guard", search("creating the table"))
    verdict, reason = decision(out)
    assert verdict == "deny" and "close rewording" in reason and "2 times" in reason
    assert "never that it does not exist" in reason


def test_live_budget_per_tool(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    words = [
        "alpha",
        "bravo",
        "charlie",
        "delta",
        "echo",
        "foxtrot",
        "golf",
        "hotel",
        "india",
        "juliet",
        "kilo",
        "lima",
    ]
    for word in words:
        assert call(monkeypatch, capsys, "loop-guard", search(f"{word} {word}2"))[1] == ""
    _code, out, _ = call(monkeypatch, capsys, "loop-guard", search("mike november"))
    verdict, reason = decision(out)
    assert verdict == "deny" and "12 live WebSearch calls" in reason
    # Grep is not budgeted by default: only the identical-call limit applies to it.
    for index in range(20):
        assert call(monkeypatch, capsys, "loop-guard", grep(f"p{index}"))[1] == ""


def test_options_change_limits(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    argv = ("--max-identical", "1", "--budget-tool", "mcp__kb__*", "--max-live", "1")
    assert call(monkeypatch, capsys, "loop-guard", grep(), *argv)[1] == ""
    assert decision(call(monkeypatch, capsys, "loop-guard", grep(), *argv)[1])[0] == "deny"
    kb = search("first", tool="mcp__kb__search")
    assert call(monkeypatch, capsys, "loop-guard", kb, *argv)[1] == ""
    other = search("second thing", tool="mcp__kb__search")
    _code, out, _ = call(monkeypatch, capsys, "loop-guard", other, *argv)
    assert "budget of 1" in decision(out)[1]


def test_user_prompt_starts_a_new_turn(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    for _ in range(4):
        call(monkeypatch, capsys, "loop-guard", grep())
    prompt = json.dumps(fixture("claude_user_prompt_submit.json"))
    assert call(monkeypatch, capsys, "user-prompt-submit", prompt) == (0, "", "")
    assert call(monkeypatch, capsys, "loop-guard", grep()) == (0, "", "")


def test_other_session_is_not_counted(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    for _ in range(4):
        call(monkeypatch, capsys, "loop-guard", grep())
    assert call(monkeypatch, capsys, "loop-guard", grep(session_id="other"))[1] == ""


def test_new_prompt_id_starts_a_new_turn(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    for _ in range(4):
        call(monkeypatch, capsys, "loop-guard", grep(prompt_id="p1"))
    assert decision(call(monkeypatch, capsys, "loop-guard", grep(prompt_id="p1"))[1])[0] == "deny"
    assert call(monkeypatch, capsys, "loop-guard", grep(prompt_id="p2"))[1] == ""


def test_gemini_before_tool_denies_in_its_own_shape(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    stdin = json.dumps(fixture("gemini_before_tool_search.json"))
    for _ in range(2):
        assert call(monkeypatch, capsys, "loop-guard", stdin)[1] == ""
    _code, out, _ = call(monkeypatch, capsys, "loop-guard", stdin)
    doc = json.loads(out)
    assert list(doc) == ["decision", "reason"] and doc["decision"] == "deny"
    assert "google_web_search" in doc["reason"]
    prompt = json.dumps(fixture("gemini_before_agent.json"))
    assert call(monkeypatch, capsys, "user-prompt-submit", prompt) == (0, "", "")
    assert call(monkeypatch, capsys, "loop-guard", stdin)[1] == ""


def test_codex_pre_tool_use_and_turn_id(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    stdin = json.dumps(fixture("codex_pre_tool_use_bash.json"))
    argv = ("--harness", "codex")
    for _ in range(4):
        assert call(monkeypatch, capsys, "loop-guard", stdin, *argv)[1] == ""
    verdict, _ = decision(call(monkeypatch, capsys, "loop-guard", stdin, *argv)[1])
    assert verdict == "deny"
    prompt = json.dumps(fixture("codex_user_prompt_submit.json"))
    assert call(monkeypatch, capsys, "user-prompt-submit", prompt, *argv) == (0, "", "")
    assert call(monkeypatch, capsys, "loop-guard", stdin, *argv)[1] == ""


@pytest.mark.parametrize(
    "stdin",
    [
        "",
        "not json",
        "[]",
        json.dumps({"tool_name": "Grep", "hook_event_name": "PreToolUse"}),
        json.dumps({"session_id": "s", "hook_event_name": "PreToolUse"}),
        json.dumps({"session_id": "", "tool_name": "Grep"}),
    ],
)
def test_malformed_input_fails_open_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, stdin: str
) -> None:
    code, out, err = call(monkeypatch, capsys, "loop-guard", stdin)
    assert (code, out) == (0, "") and err.count("\n") == 1 and err.startswith("agentops:")


@pytest.mark.parametrize(
    "stdin", ["", "not json", "[]", json.dumps({"prompt": "x"}), json.dumps({"session_id": 5})]
)
def test_prompt_hook_malformed_input_fails_open(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, stdin: str
) -> None:
    code, out, err = call(monkeypatch, capsys, "user-prompt-submit", stdin)
    assert (code, out) == (0, "") and err.count("\n") == 1
    other = json.dumps({"session_id": "s", "hook_event_name": "Stop"})
    assert call(monkeypatch, capsys, "user-prompt-submit", other) == (0, "", "")


def test_other_event_is_ignored(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    assert call(monkeypatch, capsys, "loop-guard", grep(hook_event_name="PostToolUse")) == (
        0,
        "",
        "",
    )


def test_unsafe_store_fails_open(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, tmp_path: Path
) -> None:
    store = tmp_path / "open"
    store.mkdir()
    store.chmod(0o777)
    code, out, err = call(monkeypatch, capsys, "loop-guard", grep(), "--store", str(store))
    assert (code, out) == (0, "") and "group or others" in err


def test_corrupt_state_restarts_counting(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, tmp_path: Path
) -> None:
    store = str(tmp_path / "s")
    path = _session_state.session_path(store, "sess-fixture")
    Path(path).write_text("{{{")
    assert call(monkeypatch, capsys, "loop-guard", grep(), "--store", store) == (0, "", "")
    assert _session_state.read(path) is not None


def test_disabled(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    monkeypatch.setenv("AGENTOPS_DISABLED", "1")
    for _ in range(6):
        assert call(monkeypatch, capsys, "loop-guard", grep()) == (0, "", "")


@pytest.mark.parametrize("value", ["0", "x", "-3", ""])
def test_bad_limit_falls_back_to_the_default(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, value: str
) -> None:
    # A usage error would exit 2, which blocks a PreToolUse call: a typo in the
    # settings of a fail-open hook must not stop every search.
    for _ in range(4):
        code, out, err = call(monkeypatch, capsys, "loop-guard", grep(), "--max-identical", value)
        assert (code, out) == (0, "") and "using 4" in err
    _code, out, _ = call(monkeypatch, capsys, "loop-guard", grep(), "--max-identical", value)
    assert "the limit is 4" in decision(out)[1]


def test_unknown_option_does_not_break_the_tool_loop() -> None:
    assert main(["hook", "loop-guard", "--no-such-flag"]) == 0
    assert main(["hook", "user-prompt-submit", "--no-such-flag"]) == 0


def test_sixteen_parallel_hook_processes_count_exactly(tmp_path: Path) -> None:
    # Sixteen hook processes for the same call at once (parallel tool calls in
    # one turn): the limit of 4 identical calls lets exactly 4 through, and the
    # stored count is exactly 16.
    store = str(tmp_path / "store")
    env = {"PYTHONPATH": str(ROOT), "HOME": str(tmp_path)}

    def one(_: int) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "agentops", "hook", "loop-guard", "--store", store],
            input=grep().encode(),
            capture_output=True,
            env=env,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0 and done.stderr == b"", done.stderr
        return done.stdout.decode()

    with ThreadPoolExecutor(max_workers=16) as pool:
        outputs = list(pool.map(one, range(16)))
    assert sum(1 for out in outputs if out == "") == 4
    assert sum(1 for out in outputs if '"deny"' in out) == 12
    state = _session_state.read(_session_state.session_path(store, "sess-fixture"))
    assert state is not None
    [(tool, _key, count)] = state["loop"]["calls"]
    assert (tool, count) == ("Grep", 16)


def test_subprocess_end_to_end(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path)}
    for _ in range(4):
        assert run_cli("hook", "loop-guard", stdin=grep(), env=env).stdout == ""
    denied = run_cli("hook", "loop-guard", stdin=grep(), env=env)
    assert denied.returncode == 0 and decision(denied.stdout)[0] == "deny"


def test_a_query_shown_in_a_reason_is_one_short_line() -> None:
    from agentops.cli import loop_hook

    assert loop_hook._shown("a\nb\x1bc") == "a b c"
    assert loop_hook._shown("x" * 120) == "x" * 120
    assert loop_hook._shown("x" * 500) == "x" * 117 + "..."


# ------------------------------------------------------- the session state is read once


def test_a_fifo_at_the_state_path_is_corrupt_never_waited_on(tmp_path: Path) -> None:
    path = _session_state.session_path(str(tmp_path / "s"), "sess")
    os.mkfifo(path)  # no writer: a blocking open would hang the hook here
    with pytest.raises(_session_state.CorruptState, match="state file is not a regular file"):
        _session_state.read(path)


def test_a_link_at_the_state_path_is_an_os_error_not_read_through(tmp_path: Path) -> None:
    path = _session_state.session_path(str(tmp_path / "s"), "sess")
    forged = tmp_path / "forged.json"
    forged.write_text('{"sources": []}', encoding="utf-8")
    os.symlink(forged, path)
    with pytest.raises(OSError) as caught:
        _session_state.read(path)
    assert caught.value.errno == errno.ELOOP and caught.value.filename == path


def test_a_locked_state_file_raises_the_matching_os_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _session_state.session_path(str(tmp_path / "s"), "sess")
    Path(path).write_text("{}", encoding="utf-8")

    def denied(*args: Any, **kwargs: Any) -> int:
        raise PermissionError(errno.EACCES, "Permission denied", path)

    monkeypatch.setattr(os, "open", denied)
    with pytest.raises(PermissionError):  # the subclass, as os.open raised it
        _session_state.read(path)


def test_an_oversized_state_is_corrupt_from_its_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _session_state.session_path(str(tmp_path / "s"), "sess")
    with open(path, "wb") as handle:
        handle.truncate(1 << 30)  # 1 GiB, sparse: refused from its size, never loaded
    with pytest.raises(_session_state.CorruptState, match="larger than 4194304 bytes"):
        _session_state.read(path)


def test_a_fifo_swapped_in_for_the_state_restarts_counting(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, tmp_path: Path
) -> None:
    store = str(tmp_path / "s")
    path = _session_state.session_path(store, "sess-fixture")
    os.mkfifo(path)
    assert call(monkeypatch, capsys, "loop-guard", grep(), "--store", store) == (0, "", "")
    assert _session_state.read(path) is not None  # the FIFO was replaced by a fresh state
