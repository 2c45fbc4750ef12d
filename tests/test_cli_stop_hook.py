"""Tests for `agentops hook stop` (agentops/cli/stop_hook.py)."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import run_cli

from agentops.cli import main
from agentops.cli import stop_hook as sh

FIXTURES = Path(__file__).parent / "fixtures" / "hooks"
TRANSCRIPT = FIXTURES / "claude_transcript.jsonl"


@pytest.fixture(autouse=True)
def _enabled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AGENTOPS_DISABLED", raising=False)


def fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


def stop_input(transcript: Path | str = TRANSCRIPT, **extra: Any) -> str:
    data = fixture("claude_stop.json")
    data["transcript_path"] = str(transcript)
    data.update(extra)
    return json.dumps(data)


def call(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, stdin: str, *argv: str
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode()), "utf-8"))
    code = main(["hook", "stop", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def entry(kind: str, content: Any, **extra: Any) -> str:
    role = "assistant" if kind == "assistant" else "user"
    return json.dumps({"type": kind, "message": {"role": role, "content": content}, **extra})


def write_use(use_id: str, path: str, tool: str = "Write") -> str:
    field = "notebook_path" if tool == "NotebookEdit" else "file_path"
    block = {"type": "tool_use", "id": use_id, "name": tool, "input": {field: path}}
    return entry("assistant", [block])


def result(use_id: str, error: bool = False) -> str:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": use_id, "content": "ok"}
    if error:
        block["is_error"] = True
    return entry("user", [block])


def say(text: str) -> str:
    return entry("assistant", [{"type": "text", "text": text}])


def transcript(tmp_path: Path, *lines: str, end: str = "\n") -> Path:
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(lines) + end, encoding="utf-8")
    return path


def test_fixture_turn_is_read_backwards_to_the_last_prompt() -> None:
    turn = sh.read_turn(str(TRANSCRIPT))
    # notes.md belongs to the previous turn; the failed Edit wrote nothing.
    assert turn.written == (
        "/home/user/project/analysis.ipynb",
        "/home/user/project/src/xmlLoader.js",
    )
    assert turn.answer is not None and turn.answer.startswith("Done:")


def test_false_claim_blocks_naming_the_file(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    code, out, err = call(monkeypatch, capsys, stop_input())
    doc = json.loads(out)
    assert (code, err) == (0, "") and list(doc) == ["decision", "reason"]
    assert doc["decision"] == "block"
    reason = doc["reason"]
    assert 'answer line 4: "Updated template.js"' in reason
    assert "no Write, Edit, MultiEdit or NotebookEdit call in this turn touched" in reason
    assert "git status" not in reason
    assert "xmlLoader.js" not in reason and "analysis.ipynb" not in reason
    assert "Either make those changes now" in reason


def test_honest_answer_passes(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    answer = "Created xmlLoader.js. I could not update template.js: the edit failed."
    assert call(monkeypatch, capsys, stop_input(last_assistant_message=answer)) == (0, "", "")


def test_last_assistant_message_is_preferred(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    answer = "Updated README.md."
    _code, out, _ = call(monkeypatch, capsys, stop_input(last_assistant_message=answer))
    assert "README.md" in json.loads(out)["reason"]


def test_never_blocks_twice(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    assert call(monkeypatch, capsys, stop_input(stop_hook_active=True)) == (0, "", "")


def test_whole_file_is_one_turn_without_a_prompt(tmp_path: Path) -> None:
    path = transcript(tmp_path, write_use("a", "/p/a.js"), result("a"), say("Created a.js."))
    assert sh.read_turn(str(path)) == sh.Turn("Created a.js.", ("/p/a.js",))


def test_answer_is_the_text_after_the_last_tool_call(tmp_path: Path) -> None:
    lines = [
        entry("user", "go"),
        say("Plan: update b.js."),
        write_use("a", "/p/a.js"),
        result("a"),
        say("Created a.js."),
        say("That is all."),
    ]
    turn = sh.read_turn(str(transcript(tmp_path, *lines)))
    assert turn.answer == "Created a.js.\nThat is all."


def test_meta_user_entries_are_not_prompts(tmp_path: Path) -> None:
    lines = [
        entry("user", "do it"),
        write_use("a", "/p/a.js"),
        result("a"),
        entry("user", "<local-command-stdout>ok</local-command-stdout>", isMeta=True),
        say("Created a.js."),
    ]
    assert sh.read_turn(str(transcript(tmp_path, *lines))).written == ("/p/a.js",)


@pytest.mark.parametrize(
    "content,why",
    [
        (None, "unreadable"),
        ("", "empty"),
        ('{"type": "user"}\n{"type": "assis', "cut short"),
        ("not json at all\n", "not JSON"),
        ('{"type": "user"}\n[1, 2]\n', "not a JSON object"),
        ('{"type": "user"}\nnot json\n{"type": "user"}\n', "not JSON"),
    ],
)
def test_unreadable_transcript_is_not_audited(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, tmp_path: Path, content: str | None, why: str
) -> None:
    path = tmp_path / "t.jsonl"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    answer = "Updated template.js."
    code, out, err = call(monkeypatch, capsys, stop_input(path, last_assistant_message=answer))
    assert (code, out) == (0, "")
    assert err.count("\n") == 1 and "not audited" in err and why in err


def test_directory_as_transcript_is_not_audited(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, tmp_path: Path
) -> None:
    code, out, err = call(monkeypatch, capsys, stop_input(tmp_path))
    assert (code, out) == (0, "") and "not audited" in err


@pytest.mark.parametrize(
    "stdin",
    ["", "nope", "[]", json.dumps({"hook_event_name": "Stop"}), json.dumps({"transcript_path": 5})],
)
def test_malformed_input_fails_open(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, stdin: str
) -> None:
    code, out, err = call(monkeypatch, capsys, stdin)
    assert (code, out) == (0, "") and err.count("\n") == 1 and "not audited" in err


def test_other_event_ignored(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    assert call(monkeypatch, capsys, stop_input(hook_event_name="PreToolUse")) == (0, "", "")


def test_over_long_line_is_skipped_unread(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sh, "MAX_LINE_BYTES", 1000)
    monkeypatch.setattr(sh, "CHUNK_BYTES", 64)
    huge = entry("user", [{"type": "tool_result", "tool_use_id": "b", "content": "x" * 5000}])
    lines = [
        entry("user", "go"),
        write_use("a", "/p/a.js"),
        result("a"),
        write_use("b", "/p/b.js"),
        huge,
        say("Created a.js and b.js."),
    ]
    path = transcript(tmp_path, *lines)
    assert sh.read_turn(str(path)) == sh.Turn("Created a.js and b.js.", ("/p/b.js", "/p/a.js"))


@pytest.mark.parametrize("chunk", [1, 7, 64, 1 << 20])
def test_backward_reader_any_chunk_size(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, chunk: int
) -> None:
    monkeypatch.setattr(sh, "CHUNK_BYTES", chunk)
    lines = [entry("user", "go"), write_use("a", "/p/a.js"), result("a"), say("Created a.js.")]
    for end in ("\n", "", "\n\n"):
        path = transcript(tmp_path, *lines, end=end)
        assert sh.read_turn(str(path)) == sh.Turn("Created a.js.", ("/p/a.js",))
        got = [line for line in sh._lines_backwards(str(path)) if line]
        assert got == [line.encode() for line in reversed(lines)]


def test_gemini_after_agent_needs_git(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    stdin = json.dumps(fixture("gemini_after_agent.json"))
    code, out, err = call(monkeypatch, capsys, stdin)
    assert (code, out) == (0, "") and "add --git" in err


def git_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    for argv in (["init", "-q"], ["config", "user.email", "a@b.c"], ["config", "user.name", "a"]):
        subprocess.run(["git", "-C", str(repo), *argv], check=True)
    (repo / "old.js").write_text("1")
    subprocess.run(["git", "-C", str(repo), "add", "."], check=True)
    subprocess.run(["git", "-C", str(repo), "commit", "-qm", "x"], check=True)
    return repo


needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")


@needs_git
def test_git_changes_count_as_written(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, tmp_path: Path
) -> None:
    repo = git_repo(tmp_path)
    (repo / "old.js").write_text("2")
    (repo / "sub").mkdir()
    (repo / "sub" / "new.js").write_text("n")
    path = transcript(tmp_path, entry("user", "go"), say("Updated old.js and created new.js."))
    stdin = stop_input(path, cwd=str(repo / "sub"))
    assert call(monkeypatch, capsys, stdin, "--git") == (0, "", "")
    blocked = json.loads(call(monkeypatch, capsys, stdin)[1])
    assert "old.js" in blocked["reason"] and "new.js" in blocked["reason"]


@needs_git
@pytest.mark.parametrize(
    "name,harness,decision",
    [("gemini_after_agent.json", "gemini", "deny"), ("codex_stop.json", "codex", "block")],
)
def test_other_harnesses_audit_against_git(
    monkeypatch: pytest.MonkeyPatch,
    capsys: Any,
    tmp_path: Path,
    name: str,
    harness: str,
    decision: str,
) -> None:
    repo = git_repo(tmp_path)
    (repo / "loader.js").write_text("l")
    data = fixture(name)
    data["cwd"] = str(repo)
    code, out, _ = call(monkeypatch, capsys, json.dumps(data), "--git", "--harness", harness)
    doc = json.loads(out)
    assert code == 0 and doc["decision"] == decision
    assert "app.js" in doc["reason"] and "loader.js" not in doc["reason"]
    assert "git status touched app.js" in doc["reason"] and "Write" not in doc["reason"]
    subprocess.run(["git", "-C", str(repo), "mv", "old.js", "app.js"], check=True)
    assert call(monkeypatch, capsys, json.dumps(data), "--git", "--harness", harness)[1] == ""
    data["stop_hook_active"] = True
    (repo / "app.js").unlink()
    assert call(monkeypatch, capsys, json.dumps(data), "--git", "--harness", harness)[1] == ""


def test_git_outside_a_repository_is_not_audited(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, tmp_path: Path
) -> None:
    path = transcript(tmp_path, entry("user", "go"), say("Updated a.js."))
    code, out, err = call(monkeypatch, capsys, stop_input(path, cwd=str(tmp_path)), "--git")
    assert (code, out) == (0, "") and "not audited" in err


def test_many_claims_are_capped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    answer = "\n".join(f"Created f{index}.js." for index in range(15))
    path = transcript(tmp_path, entry("user", "go"), say(answer))
    reason = json.loads(call(monkeypatch, capsys, stop_input(path))[1])["reason"]
    assert reason.count("- answer line") == 10 and "and 5 more such claims" in reason


def test_disabled(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    monkeypatch.setenv("AGENTOPS_DISABLED", "1")
    assert call(monkeypatch, capsys, stop_input()) == (0, "", "")


def test_subprocess_end_to_end() -> None:
    done = run_cli("hook", "stop", stdin=stop_input())
    assert done.returncode == 0 and json.loads(done.stdout)["decision"] == "block"


@given(
    st.lists(st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")), max_size=30),
    st.sampled_from(["", "\n"]),
    st.integers(min_value=1, max_value=50),
)
def test_backward_lines_are_the_forward_lines_reversed(
    lines: list[bytes], end: str, chunk: int
) -> None:
    # The backward reader against the plainest oracle: split the whole file.
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.jsonl"
        content = b"\n".join(lines) + end.encode()
        path.write_bytes(content)
        original = sh.CHUNK_BYTES
        sh.CHUNK_BYTES = chunk
        try:
            if content:
                got = list(sh._lines_backwards(str(path)))
                assert got == list(reversed(content.split(b"\n")))
        finally:
            sh.CHUNK_BYTES = original


def test_only_assistant_entries_are_the_record(tmp_path: Path) -> None:
    use = {"type": "tool_use", "id": "x", "name": "Write", "input": {"file_path": "/p/x.js"}}
    lines = [
        entry("user", "go"),
        json.dumps({"type": "progress", "message": {"content": [use]}}),
        json.dumps({"type": "assistant", "message": {"content": "Created x.js."}}),
        say("Created x.js."),
    ]
    assert sh.read_turn(str(transcript(tmp_path, *lines))) == sh.Turn("Created x.js.", ())


@pytest.mark.parametrize(
    "kind,why",
    [
        ("fifo", "transcript not a regular file"),
        ("missing", "transcript unreadable: missing"),
        ("directory", "transcript not a regular file"),
    ],
)
def test_a_transcript_that_is_not_a_regular_file_is_refused_at_once(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, tmp_path: Path, kind: str, why: str
) -> None:
    path = tmp_path / "t.jsonl"
    if kind == "fifo":
        os.mkfifo(path)  # no writer: a blocking open would hang the hook here
    elif kind == "directory":
        path.mkdir()
    answer = "Updated template.js."
    code, out, err = call(monkeypatch, capsys, stop_input(path, last_assistant_message=answer))
    assert (code, out) == (0, "") and "not audited" in err and why in err


def test_a_linked_transcript_is_followed(tmp_path: Path) -> None:
    real = transcript(tmp_path, entry("user", "go"), say("Done."))
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)  # the harness names the file; where it lives is its business
    assert sh.read_turn(str(link)) == sh.Turn("Done.", ())
