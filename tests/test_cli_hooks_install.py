"""Tests for `agentops hooks print|install` (agentops/cli/hooks_install.py)."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from support import run_cli

from agentops.cli import build_parser, main
from agentops.cli import hooks_install as hi

PREFIX = "python -m agentops"
UNRELATED = {
    "model": "opus",
    "permissions": {"deny": ["Read(./.env)"]},
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}
        ],
        "Notification": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}],
    },
}


@pytest.fixture(autouse=True)
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    return folder


def install(capsys: Any, *argv: str) -> tuple[int, str, str]:
    code = main(["hooks", "install", "--command", PREFIX, *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("harness", ["claude", "codex", "gemini"])
def test_every_printed_command_parses(harness: str, capsys: Any) -> None:
    assert main(["hooks", "print", "--harness", harness, "--command", PREFIX]) == 0
    block = json.loads(capsys.readouterr().out)
    parser = build_parser()
    commands = [
        hook["command"]
        for groups in block["hooks"].values()
        for group in groups
        for hook in group["hooks"]
    ]
    assert commands
    for command in commands:
        argv = shlex.split(command)
        assert argv[:3] == ["python", "-m", "agentops"]
        args = parser.parse_args(argv[3:])  # raises SystemExit on a bad command line
        assert args.harness == harness


def test_claude_block_shape(capsys: Any) -> None:
    block = hi.settings_block("claude", PREFIX)["hooks"]
    assert set(block) == {"UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"}
    assert "matcher" not in block["Stop"][0] and block["Stop"][0]["hooks"][0]["timeout"] == 10
    matchers = [group["matcher"] for group in block["PreToolUse"]]
    assert matchers == [hi.CLAUDE_SEARCH, "Write|Edit|MultiEdit"]


def test_gemini_timeouts_are_milliseconds() -> None:
    block = hi.settings_block("gemini", PREFIX)["hooks"]
    assert set(block) == {"BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent"}
    assert all(
        hook["timeout"] == 10_000
        for groups in block.values()
        for group in groups
        for hook in group["hooks"]
    )


def test_default_prefix_is_this_interpreter(capsys: Any) -> None:
    main(["hooks", "print"])
    block = json.loads(capsys.readouterr().out)
    command = block["hooks"]["Stop"][0]["hooks"][0]["command"]
    assert command == f"{shlex.quote(sys.executable)} -m agentops hook stop --git"


def test_install_creates_the_file(capsys: Any, tmp_path: Path) -> None:
    code, out, _ = install(capsys, "--project", "--dir", str(tmp_path))
    path = tmp_path / ".claude" / "settings.json"
    assert code == 0 and "added 5 hook group(s)" in out
    assert json.loads(path.read_text()) == hi.settings_block("claude", PREFIX)
    assert not list(tmp_path.glob(".claude/*.agentops-backup*"))  # nothing to back up


def test_merge_keeps_everything_and_second_run_changes_nothing(capsys: Any, tmp_path: Path) -> None:
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir()
    original = json.dumps(UNRELATED, indent=4)
    path.write_text(original)
    os.chmod(path, 0o600)
    assert install(capsys, "--project", "--dir", str(tmp_path))[0] == 0
    merged = json.loads(path.read_text())
    assert merged["model"] == "opus" and merged["permissions"] == UNRELATED["permissions"]
    assert merged["hooks"]["PreToolUse"][0] == UNRELATED["hooks"]["PreToolUse"][0]
    assert merged["hooks"]["Notification"] == UNRELATED["hooks"]["Notification"]
    assert len(merged["hooks"]["PreToolUse"]) == 3
    backup = tmp_path / ".claude" / "settings.json.agentops-backup"
    assert backup.read_text() == original
    assert os.stat(path).st_mode & 0o777 == 0o600
    before = path.read_bytes()
    code, out, _ = install(capsys, "--project", "--dir", str(tmp_path))
    assert code == 0 and "already installed; unchanged" in out
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == [
        "settings.json",
        "settings.json.agentops-backup",
    ]


def test_a_second_backup_does_not_overwrite_the_first(capsys: Any, tmp_path: Path) -> None:
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text("{}")
    install(capsys, "--project", "--dir", str(tmp_path))
    path.write_text('{"model": "x"}')
    install(capsys, "--project", "--dir", str(tmp_path))
    assert (path.parent / "settings.json.agentops-backup").read_text() == "{}"
    assert (path.parent / "settings.json.agentops-backup.1").read_text() == '{"model": "x"}'


def test_user_scope_per_harness(capsys: Any, home: Path) -> None:
    for harness, relative in [
        ("claude", ".claude/settings.json"),
        ("codex", ".codex/hooks.json"),
        ("gemini", ".gemini/settings.json"),
    ]:
        assert install(capsys, "--user", "--harness", harness)[0] == 0
        data = json.loads((home / relative).read_text())
        assert data == hi.settings_block(harness, PREFIX)


@pytest.mark.parametrize(
    "content,why",
    [
        ("{not json", "not valid JSON"),
        ("[]", "not a JSON object"),
        ('{"a": 1, "a": 2}', "duplicated key 'a'"),
        ('{"hooks": []}', '"hooks" is not an object'),
        ('{"hooks": {"Stop": {}}}', '"hooks.Stop" is not a list'),
        (b"\xff\xfe{}", "not valid JSON"),
    ],
)
def test_unusable_settings_refused_and_untouched(
    capsys: Any, tmp_path: Path, content: str | bytes, why: str
) -> None:
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir()
    raw = content.encode() if isinstance(content, str) else content
    path.write_bytes(raw)
    code, out, err = install(capsys, "--project", "--dir", str(tmp_path))
    assert (code, out) == (2, "") and why in err and "nothing written" in err
    assert path.read_bytes() == raw
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]


def test_an_edited_agentops_hook_is_not_duplicated_by_command(capsys: Any, tmp_path: Path) -> None:
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir()
    block = hi.settings_block("claude", PREFIX)
    block["hooks"]["Stop"][0]["hooks"][0]["timeout"] = 30  # the user changed a timeout
    path.write_text(json.dumps(block))
    code, out, _ = install(capsys, "--project", "--dir", str(tmp_path))
    assert code == 0 and "unchanged" in out


def test_install_needs_a_scope(capsys: Any) -> None:
    assert main(["hooks", "install"]) == 2
    assert main(["hooks", "install", "--user", "--project"]) == 2


def test_subprocess_print() -> None:
    done = run_cli("hooks", "print", "--harness", "codex")
    assert done.returncode == 0 and set(json.loads(done.stdout)["hooks"]) == {
        "PostToolUse",
        "Stop",
    }


def test_output_format_is_pinned(capsys: Any, tmp_path: Path) -> None:
    main(["hooks", "print", "--command", PREFIX])
    assert (
        capsys.readouterr().out == json.dumps(hi.settings_block("claude", PREFIX), indent=2) + "\n"
    )
    install(capsys, "--project", "--dir", str(tmp_path))
    text = (tmp_path / ".claude" / "settings.json").read_text(encoding="utf-8")
    assert text == json.dumps(hi.settings_block("claude", PREFIX), indent=2) + "\n"


def test_settings_size_cap(capsys: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hi, "MAX_SETTINGS_BYTES", 20)
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text('{"model": "opusxxx"}')  # exactly 20 bytes: read
    assert install(capsys, "--project", "--dir", str(tmp_path))[0] == 0
    path.write_text('{"model": "opusxxxx"}')  # 21 bytes: refused
    code, _out, err = install(capsys, "--project", "--dir", str(tmp_path))
    assert code == 2 and "larger than" in err


def test_a_fifo_at_the_settings_path_is_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir()
    os.mkfifo(path)  # no writer: a blocking open would hang the command here
    done = run_cli(
        "hooks", "install", "--project", "--dir", str(tmp_path), "--command", PREFIX, timeout=30
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.strip().endswith("it is not a regular file; nothing written")
    assert path.is_fifo() and not path.is_symlink()
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]


def test_a_linked_settings_file_is_read_through_the_link(capsys: Any, tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "settings.json"
    real.parent.mkdir()
    real.write_text(json.dumps(UNRELATED))
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir()
    path.symlink_to(real)  # a dotfile manager's link: the user's settings live there
    code, out, _ = install(capsys, "--project", "--dir", str(tmp_path))
    assert code == 0 and "added" in out
    assert json.loads(path.read_text())["model"] == "opus"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its mode")
def test_an_unreadable_settings_file_is_refused_with_why(capsys: Any, tmp_path: Path) -> None:
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text("{}")
    path.chmod(0)
    code, out, err = install(capsys, "--project", "--dir", str(tmp_path))
    assert (code, out) == (2, "") and "it is unreadable: Permission denied" in err
