"""`agentops command normalize [CMD]`: the scannable form of a command, for writing rules."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from support import run_cli

from agentops.cli import main


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


class _Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr("sys.stdin", _Stdin(data))


@pytest.mark.parametrize(
    ("cmd", "expected"),
    [
        ('--bo"dy"', "--body"),
        ("python tools/agent-'status'.py", "python tools/agent-status.py"),
        ("printf $'\\x2d\\x2dbody'", "printf --body"),
        ("type C:\\Users\\me\\notes.txt", "type C:\\Usersmenotes.txt"),
        ("--bo dy", "--bo dy"),
    ],
)
def test_normalize_argument(cmd: str, expected: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(["command", "normalize", "--", cmd], capsys)
    assert (code, out, err) == (0, expected + "\n", "")


def test_normalize_argument_without_double_dash(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["command", "normalize", "gh pr create --bo'dy'"], capsys)
    assert (code, out) == (0, "gh pr create --body\n")


def test_normalize_reads_stdin_when_cmd_is_absent(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, b"cmd $'--body'\n")
    code, out, err = _run(["command", "normalize"], capsys)
    assert (code, out, err) == (0, "cmd --body\n", "")


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"a\\-b", "a-b\n"),
        (b"a\\-b\n", "a-b\n"),
        (b"a\\-b\r\n", "a-b\n"),
        (b"a\\-b\n\n", "a-b\n\n"),
        (b"a\r", "a\\x0d\n"),
        (b"sh <<'EOF'\ncmd --bo\\dy\nEOF\n", "sh <<EOF\ncmd --body\nEOF\n"),
        (b"", "\n"),
        (b"\n", "\n"),
    ],
)
def test_stdin_drops_exactly_one_trailing_line_break(
    data: bytes, expected: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, data)
    code, out, _ = _run(["command", "normalize"], capsys)
    assert (code, out) == (0, expected)


def test_argument_keeps_its_trailing_line_break(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["command", "normalize", "--", "a\n"], capsys)
    assert (code, out) == (0, "a\n\n")


def test_empty_command_prints_an_empty_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["command", "normalize", ""], capsys) == (0, "\n", "")


def test_control_characters_are_escaped_for_the_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _run(
        ["command", "normalize", "--", "$'a\\eb\\tc\\x00\\x7f\\x85\\ud800'"], capsys
    )
    assert code == 0
    assert out == "a\\x1bb\tc\\x00\\x7f\\x85\\ud800\n"
    code, out, _ = _run(["command", "normalize", "--", "$'\\x9f\\xa0\\x1f\\x08\\x0b\\x0c'"], capsys)
    assert out == "\\x9f\xa0\\x1f\\x08\\x0b\\x0c\n"


def test_non_ascii_is_printed_as_is(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["command", "normalize", "--", "$'\\u00e9' \u2603"], capsys)
    assert (code, out) == (0, "\u00e9 \u2603\n")


def test_json_gives_exact_strings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(["command", "normalize", "--json", "--", "$'a\\eb' --bo\"dy\""], capsys)
    assert code == 0
    assert err == ""
    document: dict[str, Any] = json.loads(out)
    assert document == {"command": "$'a\\eb' --bo\"dy\"", "scannable": "a\x1bb --body"}
    assert out.isascii()


def test_json_from_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, b"--b\\ody\n")
    code, out, _ = _run(["command", "normalize", "--json"], capsys)
    assert code == 0
    assert json.loads(out) == {"command": "--b\\ody", "scannable": "--body"}


def test_kill_switch_does_not_apply(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("AGENTOPS_DISABLED", "1")
    assert _run(["command", "normalize", "a'b'"], capsys) == (0, "ab\n", "")


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(["command", "normalize", "a", "b"], capsys)
    assert code == 2
    assert "unrecognized arguments" in err
    code, _, err = _run(["command"], capsys)
    assert code == 2
    assert "normalize" in err
    assert "required" in err


def test_help_lists_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert "command" in capsys.readouterr().out
    assert main(["command", "normalize", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Exit codes: 0 printed, 2 usage or error" in out
    assert "stdin" in out


def test_end_to_end_stdin_bytes() -> None:
    done = run_cli("command", "normalize", stdin=b'gh pr create --bo"dy" \xff\n')
    assert done.returncode == 0
    assert done.stdout == "gh pr create --body \ufffd\n"
    assert done.stderr == ""


def test_end_to_end_argument() -> None:
    done = run_cli("command", "normalize", "--", "$'\\055\\055body'")
    assert (done.returncode, done.stdout) == (0, "--body\n")


def test_views_lists_what_deny_rules_see(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(["command", "views", "--", 'c=rm; ${c} -rf \\/ | s$""h'], capsys)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        'c=rm; ${c} -rf \\/ | s$""h',
        "c=rm; ${c} -rf \\/ | s$h",
        "rm -rf /",
        "sh",
        "rm -rf / | sh",
    ]


def test_views_shows_line_breaks_and_the_problem(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["command", "views", "--", "a\nb 'open"], capsys)
    assert code == 0
    assert out.splitlines() == [
        "a\\nb 'open",
        "a\\nb open",
        "a",
        "problem: a `'` without its closing quote",
    ]


def test_views_json_and_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, b"git commit -m 'a b'\n")
    code, out, _ = _run(["command", "views", "--json"], capsys)
    assert code == 0
    assert json.loads(out) == {
        "command": "git commit -m 'a b'",
        "views": ["git commit -m 'a b'", "git commit -m a b", "git commit -m a\u2420b"],
        "commands": [["git", "commit", "-m", "a b"]],
        "problem": "",
    }
