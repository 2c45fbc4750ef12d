"""Tests for `agentops hook memory-write` (agentops/cli/memory_write_hook.py)."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from support import run_cli

from agentops.cli import _session_state, main

FIXTURES = Path(__file__).parent / "fixtures" / "hooks"
SESSION = "sess-fixture"


@pytest.fixture(autouse=True)
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.delenv("AGENTOPS_DISABLED", raising=False)
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    return folder


def fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


def write(path: str = "/home/user/project/CLAUDE.md", text: str = "Use tabs.", **extra: Any) -> str:
    data = fixture("claude_pre_tool_use_write_memory.json")
    data["tool_input"] = {"file_path": path, "content": text}
    data.update(extra)
    return json.dumps(data)


def call(monkeypatch: pytest.MonkeyPatch, capsys: Any, stdin: str, *argv: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode()), "utf-8"))
    code = main(["hook", "memory-write", *argv])
    out, _err = capsys.readouterr()
    return code, out


def decision(out: str) -> tuple[str, str]:
    inner = json.loads(out)["hookSpecificOutput"]
    assert inner["hookEventName"] == "PreToolUse"
    return inner["permissionDecision"], inner["permissionDecisionReason"]


def taint(*sources: str, session: str = SESSION) -> None:
    path = _session_state.session_path(_session_state.store_path(None), session)
    _session_state.update(path, lambda state: state.update(sources=list(sources)))


def test_clean_session_clean_text_no_opinion(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    assert call(monkeypatch, capsys, write()) == (0, "")


def test_tainted_session_asks(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    taint("WebFetch", "mcp__github__get_issue")
    code, out = call(monkeypatch, capsys, write())
    verdict, reason = decision(out)
    assert (code, verdict) == (0, "ask")
    assert "WebFetch, mcp__github__get_issue" in reason and "CLAUDE.md" in reason
    assert "A person should approve" in reason


def test_tainted_by_post_tool_use_hook_end_to_end(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    fetched = json.dumps(fixture("claude_post_tool_use_webfetch.json"))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(fetched.encode()), "utf-8"))
    assert main(["hook", "post-tool-use"]) == 0
    capsys.readouterr()
    assert decision(call(monkeypatch, capsys, write())[1])[0] == "ask"
    assert call(monkeypatch, capsys, write(session_id="another")) == (0, "")


def test_trusted_sources_do_not_taint(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    taint("mcp__docs__search")
    assert call(monkeypatch, capsys, write(), "--trusted", "mcp__docs__*") == (0, "")


def test_hidden_characters_ask_even_in_a_clean_session(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    _code, out = call(monkeypatch, capsys, write(text="Use tabs.\u200b\u202e"))
    verdict, reason = decision(out)
    assert verdict == "ask" and "U+200B" in reason and "U+202E" in reason


@pytest.mark.parametrize(
    "path",
    [
        "/home/user/project/CLAUDE.md",
        "/home/user/project/sub/AGENTS.md",
        "/home/user/project/CLAUDE.local.md",
        "/home/user/project/GEMINI.md",
        "~/.claude/projects/-home-user-project/memory/MEMORY.md",
        "~/.claude/projects/-home-user-project/memory/topics/deploy.md",
        "~/.claude/CLAUDE.md",
        "CLAUDE.md",
        "./docs/../AGENTS.md",
    ],
)
def test_memory_locations(monkeypatch: pytest.MonkeyPatch, capsys: Any, path: str) -> None:
    taint("WebFetch")
    assert decision(call(monkeypatch, capsys, write(path))[1])[0] == "ask"


@pytest.mark.parametrize(
    "path",
    [
        "/home/user/project/README.md",
        "/home/user/project/claude.md.bak",
        "/home/user/project/notes/CLAUDE.md.txt",
        "~/.claude/projects/p/transcript.jsonl",
        "~/.claude/settings.json",
    ],
)
def test_other_files_no_opinion(monkeypatch: pytest.MonkeyPatch, capsys: Any, path: str) -> None:
    taint("WebFetch")
    assert call(monkeypatch, capsys, write(path)) == (0, "")


def test_symlink_into_memory_is_memory(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, tmp_path: Path
) -> None:
    taint("WebFetch")
    (tmp_path / "AGENTS.md").write_text("x")
    link = tmp_path / "innocent.txt"
    link.symlink_to(tmp_path / "AGENTS.md")
    assert decision(call(monkeypatch, capsys, write(str(link)))[1])[0] == "ask"


def test_configured_locations(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    taint("WebFetch")
    argv = ("--no-default-memory", "--memory-glob", "/srv/kb/*")
    assert call(monkeypatch, capsys, write(), *argv) == (0, "")
    assert decision(call(monkeypatch, capsys, write("/srv/kb/a/b.md"), *argv)[1])[0] == "ask"


def test_edit_and_multiedit_text_is_scanned(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    data = fixture("claude_pre_tool_use_write_memory.json")
    data["tool_name"] = "Edit"
    data["tool_input"] = {"file_path": "/p/CLAUDE.md", "old_string": "a", "new_string": "b\u2066"}
    assert decision(call(monkeypatch, capsys, json.dumps(data))[1])[0] == "ask"
    data["tool_name"] = "MultiEdit"
    edits = [{"old_string": "a", "new_string": "ok"}, {"old_string": "c", "new_string": "d\u200d"}]
    data["tool_input"] = {"file_path": "/p/CLAUDE.md", "edits": edits}
    assert "U+200D" in decision(call(monkeypatch, capsys, json.dumps(data))[1])[1]
    edits[1]["new_string"] = "d"
    assert call(monkeypatch, capsys, json.dumps(data)) == (0, "")


def test_other_tools_no_opinion(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    taint("WebFetch")
    data = json.loads(write())
    data["tool_name"] = "Read"
    assert call(monkeypatch, capsys, json.dumps(data)) == (0, "")
    data["hook_event_name"] = "PostToolUse"
    data["tool_name"] = "Write"
    assert call(monkeypatch, capsys, json.dumps(data)) == (0, "")


def test_gemini_write_file_and_save_memory(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    taint("web_fetch", session="sess-gemini")
    stdin = json.dumps(fixture("gemini_before_tool_write_memory.json"))
    doc = json.loads(call(monkeypatch, capsys, stdin)[1])
    assert list(doc) == ["decision", "reason"] and doc["decision"] == "deny"
    assert "web_fetch" in doc["reason"] and "GEMINI.md" in doc["reason"]
    data = fixture("gemini_before_tool_write_memory.json")
    data["tool_name"] = "save_memory"
    data["tool_input"] = {"fact": "the user likes tabs"}
    assert json.loads(call(monkeypatch, capsys, json.dumps(data))[1])["decision"] == "deny"


@pytest.mark.parametrize(
    "stdin",
    [
        "",
        "not json",
        "[]",
        json.dumps({"tool_name": "Write", "tool_input": "x", "session_id": SESSION}),
        json.dumps({"tool_name": "Write", "tool_input": {}, "session_id": SESSION}),
        json.dumps({"tool_name": "Write", "tool_input": {"file_path": 5}}),
        json.dumps({"tool_name": "Write", "tool_input": {"file_path": "CLAUDE.md", "content": ""}}),
        json.dumps({"tool_name": "Write", "tool_input": {"file_path": "/p/CLAUDE.md"}}),
        json.dumps(
            {"tool_name": "Write", "session_id": "", "tool_input": {"file_path": "/p/CLAUDE.md"}}
        ),
        json.dumps(
            {"tool_name": "Write", "tool_input": {"file_path": "/p/CLAUDE.md", "content": "x"}}
        ),
        json.dumps(
            {
                "tool_name": "MultiEdit",
                "session_id": SESSION,
                "tool_input": {"file_path": "/p/CLAUDE.md", "edits": [{"old_string": "a"}]},
            }
        ),
    ],
)
def test_malformed_input_fails_closed_as_ask(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, stdin: str
) -> None:
    code, out = call(monkeypatch, capsys, stdin)
    verdict, reason = decision(out)
    assert (code, verdict) == (0, "ask") and "could not check" in reason


def test_unreadable_provenance_asks(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, home: Path
) -> None:
    path = _session_state.session_path(_session_state.store_path(None), SESSION)
    Path(path).write_text("{broken")
    assert decision(call(monkeypatch, capsys, write())[1])[0] == "ask"
    Path(path).write_text('{"sources": "WebFetch"}')
    assert decision(call(monkeypatch, capsys, write())[1])[0] == "ask"
    os.chmod(home / ".agentops", 0o777)
    assert decision(call(monkeypatch, capsys, write())[1])[0] == "ask"


def test_disabled(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    monkeypatch.setenv("AGENTOPS_DISABLED", "1")
    assert call(monkeypatch, capsys, "not json") == (0, "")


def test_subprocess_end_to_end(home: Path) -> None:
    taint("WebFetch")
    done = run_cli("hook", "memory-write", stdin=write(), env={"HOME": str(home)})
    assert done.returncode == 0 and decision(done.stdout)[0] == "ask"


def test_sources_named_up_to_five(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    taint(*[f"mcp__s{index}__q" for index in range(5)])
    reason = decision(call(monkeypatch, capsys, write())[1])[1]
    assert "mcp__s4__q" in reason and "more" not in reason
    taint(*[f"mcp__s{index}__q" for index in range(6)])
    reason = decision(call(monkeypatch, capsys, write())[1])[1]
    assert "mcp__s4__q and 1 more" in reason and "mcp__s5__q" not in reason


def test_relative_paths_resolve_against_an_absolute_cwd(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    assert call(monkeypatch, capsys, write("CLAUDE.md", cwd="/home/user/project")) == (0, "")
    _code, out = call(monkeypatch, capsys, write("CLAUDE.md", cwd="project"))
    assert "could not check" in decision(out)[1]
    taint("WebFetch")
    glob = ("--memory-glob", "/srv/kb/*")
    _code, out = call(monkeypatch, capsys, write("notes/a.md", cwd="/srv/kb"), *glob)
    assert "/srv/kb/notes/a.md" in decision(out)[1]
