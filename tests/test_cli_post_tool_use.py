"""Tests for `agentops hook post-tool-use` (agentops/cli/post_tool_use.py)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import run_cli

from agentops import hidden_chars, promotion_gate
from agentops.cli import _common, _hook_json, main
from agentops.cli import post_tool_use as ptu

TAG = promotion_gate.TAG_TEMPLATE


def payload(tool: Any = "WebFetch", response: Any = "plain text", **extra: Any) -> str:
    data: dict[str, Any] = {
        "session_id": "abc123",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": "/tmp",
        "permission_mode": "default",
        "hook_event_name": "PostToolUse",
        "tool_name": tool,
        "tool_input": {"url": "https://example.com", "prompt": "p"},
        "tool_response": response,
        "tool_use_id": "toolu_01",
    }
    data.update(extra)
    return json.dumps(data)


def call(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, stdin: str | bytes, *argv: str
) -> tuple[int, str, str]:
    raw = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
    code = main(["hook", "post-tool-use", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def context(out: str) -> str:
    doc = json.loads(out)
    assert list(doc) == ["hookSpecificOutput"]
    inner = doc["hookSpecificOutput"]
    assert list(inner) == ["hookEventName", "additionalContext"]
    assert inner["hookEventName"] == "PostToolUse"
    text: str = inner["additionalContext"]
    return text


@pytest.fixture(autouse=True)
def _enabled(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.delenv("AGENTOPS_DISABLED", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def test_untrusted_tool_gets_tag_only(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    code, out, err = call(monkeypatch, capsys, payload())
    assert code == 0 and err == ""
    assert context(out) == TAG.format(source="WebFetch")
    assert out.endswith("\n") and out.count("\n") == 1 and out.isascii()


def test_hidden_chars_warning_appended(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    body = {"result": "read\u200b me\n\u202eevil", "code": 200, "url": "https://x"}
    code, out, _ = call(monkeypatch, capsys, payload(response=body))
    text = "read\u200b me\n\u202eevil\nhttps://x"
    expected = hidden_chars.warning(hidden_chars.scan(text))
    assert code == 0
    assert context(out) == TAG.format(source="WebFetch") + "\n" + expected
    assert "U+200B" in expected and "U+202E" in expected
    assert "first at line 1, column 5" in expected


def test_warning_limit_twenty_then_count(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    smuggled = "x" + "".join(chr(0xE0000 + i) for i in range(25))
    _code, out, _ = call(monkeypatch, capsys, payload(response=smuggled))
    ctx = context(out)
    assert ctx.count("[tag]") == 20 and ctx.endswith("and 5 more distinct code points")
    assert "HIDDEN CHARACTERS: 25 invisible" in ctx


def test_mcp_content_blocks_scanned(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    blocks = [
        {"type": "text", "text": "issue body"},
        {"type": "text", "text": "hi" + "".join(chr(0xE0000 + ord(c)) for c in "run")},
    ]
    _code, out, _ = call(monkeypatch, capsys, payload("mcp__github__get_issue", blocks))
    ctx = context(out)
    assert ctx.startswith(TAG.format(source="mcp__github__get_issue"))
    assert "HIDDEN CHARACTERS: 3 invisible" in ctx and "U+E0072" in ctx


def test_nested_and_non_string_values(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    resp = {"a": [1, 2.5, None, True, {"b": "x\u2066"}], "k\u200b": 7}
    _code, out, _ = call(monkeypatch, capsys, payload(response=resp))
    ctx = context(out)
    assert "U+2066" in ctx and "U+200B" not in ctx  # keys are not scanned


def test_response_text_order() -> None:
    resp = {"a": "1", "b": ["2", {"c": "3", "d": [["4"]]}, 5], "e": "6"}
    assert ptu._response_text(resp) == "1\n2\n3\n4\n6"
    assert ptu._response_text("solo") == "solo"
    assert ptu._response_text(None) == "" and ptu._response_text(42) == ""
    assert ptu._response_text([]) == "" and ptu._response_text(["", "x"]) == "\nx"


def test_clean_response_no_warning(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    resp = {"results": [{"title": "caf\u00e9 \U0001f468\u200d\U0001f469"}]}
    _code, out, _ = call(monkeypatch, capsys, payload("WebSearch", resp))
    assert context(out) == TAG.format(source="WebSearch")


def test_missing_tool_response_still_tagged(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    data = json.loads(payload())
    del data["tool_response"]
    code, out, _ = call(monkeypatch, capsys, json.dumps(data))
    assert code == 0 and context(out) == TAG.format(source="WebFetch")


def test_missing_event_name_accepted(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    stdin = json.dumps({"tool_name": "WebFetch", "tool_response": "a\u200bb"})
    _code, out, _ = call(monkeypatch, capsys, stdin)
    assert "U+200B" in context(out)


@pytest.mark.parametrize(
    "argv,tool",
    [
        (["--trusted", "WebFetch"], "WebFetch"),
        (["--trusted", "mcp__memory__*"], "mcp__memory__recall"),
        (["--trusted", "a", "b", "WebSearch"], "WebSearch"),
        (["--trusted", "a", "--trusted", "WebSearch"], "WebSearch"),
    ],
)
def test_trusted_tool_no_output(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, argv: list[str], tool: str
) -> None:
    code, out, err = call(monkeypatch, capsys, payload(tool, "a\u200bb"), *argv)
    assert (code, out, err) == (0, "", "")


@pytest.mark.parametrize(
    "argv,tool",
    [
        (["--trusted", "webfetch"], "WebFetch"),
        (["--trusted", "mcp__memory__*"], "mcp__github__x"),
        (["--trusted"], "WebFetch"),
        (["--trusted", "Web"], "WebFetch"),
    ],
)
def test_not_trusted_still_tagged(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, argv: list[str], tool: str
) -> None:
    code, out, _ = call(monkeypatch, capsys, payload(tool), *argv)
    assert code == 0 and context(out) == TAG.format(source=tool)


@pytest.mark.parametrize(
    "stdin",
    [
        "{}",
        json.dumps({"tool_name": ""}),
        json.dumps({"tool_name": "   "}),
        json.dumps({"tool_name": 5}),
        json.dumps({"tool_name": None}),
        json.dumps({"tool_name": "WebFetch", "hook_event_name": "PreToolUse"}),
        json.dumps({"tool_name": "WebFetch", "hook_event_name": None}),
    ],
)
def test_object_without_a_tool_gives_no_output(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, stdin: str
) -> None:
    code, out, err = call(monkeypatch, capsys, stdin)
    assert (code, out, err) == (0, "", "")


UNPARSED_TAG = TAG.format(source=ptu.UNPARSED_SOURCE)


@pytest.mark.parametrize(
    "stdin",
    ["", "not json", "[1, 2]", "null", "42", '"WebFetch"', "{", '{"tool_name": "WebFetch"'],
)
def test_input_it_cannot_read_still_gets_the_tag(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, stdin: str
) -> None:
    # The hook only runs for the tools its matcher names: unreadable input is
    # still outside content, and failing open means the call proceeds, not
    # that the label is dropped.
    code, out, _ = call(monkeypatch, capsys, stdin)
    assert code == 0 and context(out) == UNPARSED_TAG


@pytest.mark.parametrize("depth", [900, 1000, 100_000])
def test_deeply_nested_response_is_tagged_and_scanned(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, depth: int
) -> None:
    nested = "[" * depth + json.dumps("a\u200bb") + "]" * depth
    stdin = '{"tool_name": "mcp__x__y", "tool_response": ' + nested + "}"
    code, out, _ = call(monkeypatch, capsys, stdin)
    ctx = context(out)
    assert code == 0 and ctx.startswith(TAG.format(source="mcp__x__y"))
    assert "U+200B" in ctx


def test_deep_object_nesting_is_tagged(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    depth = 5000
    nested = '{"k": ' * depth + '"x"' + "}" * depth
    stdin = '{"tool_name": "WebFetch", "tool_response": ' + nested + "}"
    code, out, _ = call(monkeypatch, capsys, stdin)
    assert code == 0 and context(out) == TAG.format(source="WebFetch")


def test_deep_array_only_input_is_tagged(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    code, out, _ = call(monkeypatch, capsys, "[" * 100_000 + "]" * 100_000)
    assert code == 0 and context(out) == UNPARSED_TAG


def test_invalid_utf8_bytes_do_not_break(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    raw = payload(response="abc").encode().replace(b"abc", b"a\xffb")
    code, out, _ = call(monkeypatch, capsys, raw)
    assert code == 0 and context(out) == TAG.format(source="WebFetch")


def test_lone_surrogate_in_response(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    stdin = '{"tool_name": "WebFetch", "tool_response": "a\\ud800\\u200bb"}'
    code, out, _ = call(monkeypatch, capsys, stdin)
    assert code == 0 and "U+200B" in context(out)


def test_disabled_no_output(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    monkeypatch.setenv("AGENTOPS_DISABLED", "1")
    code, out, err = call(monkeypatch, capsys, payload(response="a\u200bb"))
    assert (code, out, err) == (0, "", "")


def test_internal_error_fails_open(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    def boom(*a: Any, **k: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(hidden_chars, "scan", boom)
    code, out, err = call(monkeypatch, capsys, payload(response="a\u200bb"))
    assert code == 0 and out == ""
    assert err.count("\n") == 1 and "RuntimeError" in err and "boom" not in err


def test_stdin_read_error_fails_open(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    def boom(limit: Any = None) -> str:
        raise OSError("closed")

    monkeypatch.setattr(_common, "read_stdin_text", boom)
    assert main(["hook", "post-tool-use"]) == 0
    assert capsys.readouterr().out == ""


def test_write_error_fails_open(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    class Broken(io.StringIO):
        def write(self, s: str) -> int:
            raise BrokenPipeError("gone")

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(payload().encode())))
    monkeypatch.setattr(sys, "stdout", Broken())
    assert main(["hook", "post-tool-use"]) == 0


def test_crash_outside_reply_exits_0(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    def boom() -> bool:
        raise RuntimeError("boom")

    monkeypatch.setattr(_common, "disabled", boom)
    code, out, _ = call(monkeypatch, capsys, payload())
    assert code == 0 and out == ""


def test_tool_output_never_rewritten(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    _code, out, _ = call(monkeypatch, capsys, payload(response="a\u200bb"))
    inner = json.loads(out)["hookSpecificOutput"]
    assert set(inner) == {"hookEventName", "additionalContext"}
    assert "updatedMCPToolOutput" not in out and "decision" not in out


def test_constants() -> None:
    assert ptu.WARNING_LIMIT == 20


def test_subprocess_end_to_end() -> None:
    done = run_cli("hook", "post-tool-use", stdin=payload("WebFetch", "x\u200by"))
    assert done.returncode == 0 and done.stderr == ""
    ctx = context(done.stdout)
    assert ctx.startswith("PROVENANCE:") and "U+200B ZERO WIDTH SPACE" in ctx
    bad = run_cli("hook", "post-tool-use", stdin=b"\xff\xfe garbage")
    assert bad.returncode == 0 and context(bad.stdout) == UNPARSED_TAG
    off = run_cli("hook", "post-tool-use", stdin=payload(), env={"AGENTOPS_DISABLED": "1"})
    assert off.returncode == 0 and off.stdout == "" and off.stderr == ""
    trusted = run_cli(
        "hook", "post-tool-use", "--trusted", "mcp__*", stdin=payload("mcp__kb__search")
    )
    assert trusted.returncode == 0 and trusted.stdout == ""


# --------------------------------------------------------------------------- redaction

FIXTURES = Path(__file__).parent / "fixtures" / "hooks"
# Generated, so no credential-shaped literal sits in the repository.
SECRET = "ghp_" + "".join("aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1eF3hJ5"[i] for i in range(36))


def fixture(name: str, secret: str = SECRET) -> dict[str, Any]:
    text = (FIXTURES / name).read_text(encoding="utf-8").replace("@@SECRET@@", secret)
    data: dict[str, Any] = json.loads(text)
    return data


def inner_of(out: str) -> dict[str, Any]:
    doc = json.loads(out)
    assert list(doc) == ["hookSpecificOutput"]
    inner: dict[str, Any] = doc["hookSpecificOutput"]
    return inner


def without_secret(value: Any) -> Any:
    return json.loads(json.dumps(value).replace(SECRET, "[redacted:github-token]"))


@pytest.mark.parametrize(
    "name",
    [
        "claude_post_tool_use_bash.json",
        "claude_post_tool_use_read.json",
        "claude_post_tool_use_grep.json",
        "claude_post_tool_use_webfetch.json",
    ],
)
def test_builtin_tool_output_redacted_in_its_own_shape(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, name: str
) -> None:
    data = fixture(name)
    code, out, err = call(
        monkeypatch, capsys, json.dumps(data), "--redact", "--trusted", "Bash", "Read", "Grep"
    )
    assert code == 0 and err == ""
    inner = inner_of(out)
    assert SECRET not in out
    assert inner["updatedToolOutput"] == without_secret(data["tool_response"])
    assert "updatedMCPToolOutput" not in inner
    if data["tool_name"] == "WebFetch":  # untrusted: tagged beside the redaction
        assert inner["additionalContext"] == TAG.format(source="WebFetch")
    else:
        assert "additionalContext" not in inner


def test_mcp_output_uses_the_mcp_field(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    data = fixture("claude_post_tool_use_mcp.json")
    _code, out, _ = call(monkeypatch, capsys, json.dumps(data), "--redact")
    inner = inner_of(out)
    assert inner["updatedMCPToolOutput"] == without_secret(data["tool_response"])
    assert "updatedToolOutput" not in inner
    assert inner["additionalContext"].startswith(TAG.format(source="mcp__github__get_file"))


def test_codex_replaces_mcp_output_only(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    mcp = fixture("codex_post_tool_use_mcp.json")
    _code, out, _ = call(monkeypatch, capsys, json.dumps(mcp), "--redact", "--harness", "codex")
    inner = inner_of(out)
    assert inner["updatedMCPToolOutput"] == without_secret(mcp["tool_response"])
    # The Codex output schema allows only these keys in hookSpecificOutput.
    assert set(inner) <= {"hookEventName", "additionalContext", "updatedMCPToolOutput"}
    bash = fixture("codex_post_tool_use_bash.json")
    argv = ("--redact", "--harness", "codex", "--trusted", "Bash")
    code, out, _ = call(monkeypatch, capsys, json.dumps(bash), *argv)
    assert (code, out) == (0, "")  # built-in output cannot be replaced through Codex


@pytest.mark.parametrize(
    "name", ["gemini_after_tool_web_fetch.json", "gemini_after_tool_shell.json"]
)
def test_gemini_after_tool(monkeypatch: pytest.MonkeyPatch, capsys: Any, name: str) -> None:
    data = fixture(name)
    _code, out, _ = call(monkeypatch, capsys, json.dumps(data), "--redact")
    inner = inner_of(out)
    assert inner["hookEventName"] == "AfterTool"
    assert inner["tool_output"] == data["tool_response"]["llmContent"].replace(
        SECRET, "[redacted:github-token]"
    )
    assert inner["additionalContext"].startswith(TAG.format(source=data["tool_name"]))


def test_nothing_to_redact_means_no_replacement(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    data = fixture("claude_post_tool_use_bash.json", secret="placeholder")
    code, out, _ = call(monkeypatch, capsys, json.dumps(data), "--redact", "--trusted", "Bash")
    assert (code, out) == (0, "")


def test_without_redact_flag_output_is_never_rewritten(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    data = fixture("claude_post_tool_use_webfetch.json")
    _code, out, _ = call(monkeypatch, capsys, json.dumps(data))
    assert set(inner_of(out)) == {"hookEventName", "additionalContext"}


def test_one_mebibyte_with_a_hundred_secrets(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    filler = "plain log line number {n} with nothing secret in it at all\n"
    lines = [filler.format(n=n) for n in range(18_000)]
    for index in range(100):
        lines[index * 160 + 7] = f"export TOKEN_{index}={SECRET}\n"
    stdout = "".join(lines)
    assert len(stdout.encode()) >= 1 << 20
    data = fixture("claude_post_tool_use_bash.json")
    data["tool_response"]["stdout"] = stdout
    _code, out, _ = call(monkeypatch, capsys, json.dumps(data), "--redact", "--trusted", "Bash")
    updated = inner_of(out)["updatedToolOutput"]
    assert set(updated) == set(data["tool_response"])
    assert updated["stdout"] == stdout.replace(SECRET, "[redacted:github-token]")
    assert updated["stdout"].count("[redacted:github-token]") == 100


def test_redacted_keeps_shape_and_input() -> None:
    value = {"a": [SECRET, 1, None, {"b": "x " + SECRET}], "c": True, "d": 2.5}
    snapshot = json.dumps(value)
    cleaned = ptu.redacted(value)
    assert json.dumps(value) == snapshot  # the input is not changed
    assert cleaned == without_secret(value)
    assert ptu.redacted(SECRET) == "[redacted:github-token]"
    assert ptu.redacted({SECRET: 1}) == {"[redacted:github-token]": 1}  # keys too
    for clean in (5, None, "plain", {"a": ["b", 1.5]}, [], {}):
        assert ptu.redacted(clean) is None


def test_redaction_of_a_deep_response(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    depth = 20_000
    stdin = (
        '{"tool_name": "mcp__x__y", "tool_response": '
        + "[" * depth
        + json.dumps(SECRET)
        + "]" * depth
        + "}"
    )
    _code, out, _ = call(monkeypatch, capsys, stdin, "--redact")
    assert SECRET not in out
    value = _hook_json.loads(out)["hookSpecificOutput"]["updatedMCPToolOutput"]
    for _ in range(depth):
        assert isinstance(value, list) and len(value) == 1
        value = value[0]
    assert value == "[redacted:github-token]"


def test_redaction_error_fails_open(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    from agentops import secret_redaction

    def boom(*a: Any, **k: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(secret_redaction, "redact_json_like", boom)
    data = fixture("claude_post_tool_use_bash.json")
    code, out, err = call(monkeypatch, capsys, json.dumps(data), "--redact", "--trusted", "Bash")
    assert (code, out) == (0, "") and err.count("\n") == 1 and SECRET not in err


# --------------------------------------------------------------------------- provenance record


def test_untrusted_output_is_recorded_for_the_session(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, tmp_path: Path
) -> None:
    from agentops.cli import _session_state

    store = str(tmp_path / "store")
    call(monkeypatch, capsys, payload("WebFetch"), "--store", store)
    call(monkeypatch, capsys, payload("WebFetch"), "--store", store)
    call(monkeypatch, capsys, payload("Bash"), "--store", store, "--trusted", "Bash")
    call(monkeypatch, capsys, payload("mcp__kb__q"), "--store", store)
    state = _session_state.read(_session_state.session_path(store, "abc123"))
    assert state == {"sources": ["WebFetch", "mcp__kb__q"]}


def test_unsafe_store_does_not_stop_the_tag(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, tmp_path: Path
) -> None:
    store = tmp_path / "store"
    store.mkdir(mode=0o777)
    store.chmod(0o777)
    code, out, err = call(monkeypatch, capsys, payload("WebFetch"), "--store", str(store))
    assert code == 0 and context(out) == TAG.format(source="WebFetch")
    assert "provenance not recorded" in err and err.count("\n") == 1


def test_gemini_parts_content_is_redacted_as_text(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    data = fixture("gemini_after_tool_web_fetch.json")
    data["tool_response"]["llmContent"] = [{"text": "a " + SECRET}, {"text": "b"}]
    _code, out, _ = call(monkeypatch, capsys, json.dumps(data), "--redact")
    assert inner_of(out)["tool_output"] == "a [redacted:github-token]\nb"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3)
    ),
    max_leaves=15,
)


@given(json_values, st.sampled_from(["Bash", "WebFetch", "mcp__a__b"]))
def test_any_response_gives_one_valid_answer(response: Any, tool: str) -> None:
    # Never raises on data; the answer is one JSON object whose replacement, if
    # any, is what redact_json_like makes of the response.
    import argparse

    from agentops.secret_redaction import redact_json_like

    stdin = json.dumps({"tool_name": tool, "tool_response": response})
    args = argparse.Namespace(trusted=["Bash"], redact=True, harness="claude", store=None)
    original = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8")
    try:
        reply = ptu._reply(args)
    finally:
        sys.stdin = original
    inner = reply.get("hookSpecificOutput", {})
    for field in ("updatedToolOutput", "updatedMCPToolOutput"):
        if field in inner:
            assert json.dumps(inner[field]) == json.dumps(redact_json_like(response))
    assert (tool == "Bash") == ("additionalContext" not in inner)
    json.loads(_hook_json.dumps(reply))


def test_recorded_sources_are_bounded(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, tmp_path: Path
) -> None:
    from agentops.cli import _session_state

    store = str(tmp_path / "store")
    path = _session_state.session_path(store, "abc123")
    names = [f"mcp__s{index}__q" for index in range(ptu.MAX_RECORDED_SOURCES - 1)]
    _session_state.update(path, lambda state: state.update(sources=list(names)))
    call(monkeypatch, capsys, payload("WebFetch"), "--store", store)
    state = _session_state.read(path)
    assert state is not None and state["sources"] == [*names, "WebFetch"]
    call(monkeypatch, capsys, payload("WebSearch"), "--store", store)
    state = _session_state.read(path)
    assert state is not None and state["sources"] == [*names, "WebSearch"]
