"""Tests for `agentops hidden-chars` (agentops/cli/hidden.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from support import run_cli

from agentops import hidden_chars
from agentops.cli import main

ZWSP = "\u200b"


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.fixture(autouse=True)
def _enabled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AGENTOPS_DISABLED", raising=False)


def test_finding_line_format_and_exit_3(tmp_path: Path, capsys: Any) -> None:
    f = write(tmp_path / "a.md", f"line one\nig{ZWSP}nore\u202e\n")
    assert main(["hidden-chars", f]) == 3
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        f"{f}:2:3 U+200B zero_width ZERO WIDTH SPACE",
        f"{f}:2:8 U+202E bidi RIGHT-TO-LEFT OVERRIDE",
        "swept 1 files (0 skipped)",
        "2 hidden character(s) in 1 file(s)",
    ]
    assert err == ""


def test_clean_exit_0(tmp_path: Path, capsys: Any) -> None:
    f = write(tmp_path / "ok.md", "caf\u00e9 \U0001f468\u200d\U0001f469 plain\n")
    assert main(["hidden-chars", f]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == ["swept 1 files (0 skipped)", "0 hidden character(s) in 0 file(s)"]


def test_strict_lifts_exemptions(tmp_path: Path, capsys: Any) -> None:
    f = write(tmp_path / "emoji.md", "\U0001f468\u200d\U0001f469\n")
    assert main(["hidden-chars", f]) == 0
    capsys.readouterr()
    assert main(["hidden-chars", "--strict", f]) == 3
    assert f"{f}:1:2 U+200D zero_width ZERO WIDTH JOINER" in capsys.readouterr().out


def test_unnamed_code_point(tmp_path: Path, capsys: Any) -> None:
    f = write(tmp_path / "t.txt", "a\U000e0002")
    assert main(["hidden-chars", f]) == 3
    assert f"{f}:1:2 U+E0002 tag <unnamed>" in capsys.readouterr().out


def test_nothing_swept_exit_4(tmp_path: Path, capsys: Any) -> None:
    (tmp_path / "bin.dat").write_bytes(b"\x00\x01\x02" + ZWSP.encode())
    (tmp_path / "latin1.txt").write_bytes(b"caf\xe9")
    assert main(["hidden-chars", str(tmp_path)]) == 4
    out, err = capsys.readouterr()
    assert "swept 0 files (2 skipped)" in out
    assert "NOTHING SWEPT" in err and "binary" in err and "not UTF-8" in err


def test_missing_path_exit_4(tmp_path: Path, capsys: Any) -> None:
    assert main(["hidden-chars", str(tmp_path / "nope")]) == 4
    assert "cannot stat" in capsys.readouterr().err


def test_empty_directory_exit_4(tmp_path: Path) -> None:
    assert main(["hidden-chars", str(tmp_path)]) == 4


def test_skipped_counted_but_found_elsewhere(tmp_path: Path, capsys: Any) -> None:
    (tmp_path / "bin.dat").write_bytes(b"\x00")
    write(tmp_path / "x.md", f"a{ZWSP}")
    write(tmp_path / "y.md", "clean")
    assert main(["hidden-chars", str(tmp_path)]) == 3
    out = capsys.readouterr().out
    assert "swept 2 files (1 skipped)" in out
    assert "1 hidden character(s) in 1 file(s)" in out


def test_directory_walk_skips_git(tmp_path: Path, capsys: Any) -> None:
    (tmp_path / ".git").mkdir()
    write(tmp_path / ".git" / "x.md", f"a{ZWSP}")
    write(tmp_path / "ok.md", "fine")
    assert main(["hidden-chars", str(tmp_path)]) == 0


def test_leading_bom_reported_only_under_strict(tmp_path: Path, capsys: Any) -> None:
    p = tmp_path / "bom.md"
    p.write_bytes("\ufeffhello\ufeff".encode())
    assert main(["hidden-chars", "--strict", str(p)]) == 3
    out = capsys.readouterr().out
    assert f"{p}:1:1 U+FEFF bom ZERO WIDTH NO-BREAK SPACE" in out  # the leading BOM itself
    assert f"{p}:1:7 U+FEFF bom ZERO WIDTH NO-BREAK SPACE" in out  # columns count the BOM
    assert "2 hidden character(s)" in out
    # Without --strict a leading BOM is exempt and columns are those an editor shows.
    assert main(["hidden-chars", str(p)]) == 3
    out = capsys.readouterr().out
    assert f"{p}:1:6 U+FEFF bom ZERO WIDTH NO-BREAK SPACE" in out
    assert "1 hidden character(s)" in out
    only = tmp_path / "only.md"
    only.write_bytes("\ufeffclean".encode())
    assert main(["hidden-chars", str(only)]) == 0
    assert main(["hidden-chars", "--strict", str(only)]) == 3


def test_json_document(tmp_path: Path, capsys: Any) -> None:
    f = write(tmp_path / "a.md", f"x{ZWSP}\n")
    write(tmp_path / "b.md", "clean")
    (tmp_path / "c.bin").write_bytes(b"\x00")
    assert main(["hidden-chars", "--json", str(tmp_path)]) == 3
    out = capsys.readouterr().out
    assert out.isascii()
    doc = json.loads(out)
    assert doc == {
        "swept": 2,
        "skipped": [{"path": str(tmp_path / "c.bin"), "reason": "binary"}],
        "strict": False,
        "transcript_lines_not_json": 0,
        "findings_total": 1,
        "files": [
            {
                "path": f,
                "findings": [
                    {
                        "index": 1,
                        "line": 1,
                        "column": 2,
                        "codepoint": 0x200B,
                        "label": "U+200B",
                        "name": "ZERO WIDTH SPACE",
                        "category": "zero_width",
                    }
                ],
            }
        ],
    }


def test_json_clean_and_strict_flag(tmp_path: Path, capsys: Any) -> None:
    f = write(tmp_path / "a.md", "clean")
    assert main(["hidden-chars", "--json", "--strict", f]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["strict"] is True and doc["files"] == [] and doc["findings_total"] == 0
    assert doc["swept"] == 1


def test_json_nothing_swept(tmp_path: Path, capsys: Any) -> None:
    assert main(["hidden-chars", "--json", str(tmp_path / "missing")]) == 4
    doc = json.loads(capsys.readouterr().out)
    assert doc["swept"] == 0 and doc["skipped"][0]["path"] == str(tmp_path / "missing")


def test_disabled_is_probe_blind(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    f = write(tmp_path / "a.md", f"x{ZWSP}")
    monkeypatch.setenv("AGENTOPS_DISABLED", "1")
    assert main(["hidden-chars", f]) == 4
    assert capsys.readouterr().out == "disabled by AGENTOPS_DISABLED\n"


def test_not_scanned_counts_as_skipped(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    f = write(tmp_path / "a.md", f"x{ZWSP}")
    g = write(tmp_path / "b.md", "fine")
    monkeypatch.setattr(
        hidden_chars,
        "scan",
        lambda text, strict=False: hidden_chars.ScanResult(False, False, (), ""),
    )
    assert main(["hidden-chars", f, g]) == 4
    out, err = capsys.readouterr()
    assert "swept 0 files (2 skipped)" in out and "not scanned" in err


def test_one_not_scanned_among_clean(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    f = write(tmp_path / "a.md", "blind")
    g = write(tmp_path / "b.md", "fine")
    real = hidden_chars.scan

    def partial(text: str, strict: bool = False) -> hidden_chars.ScanResult:
        return real(None) if text == "blind" else real(text, strict=strict)

    monkeypatch.setattr(hidden_chars, "scan", partial)
    assert main(["hidden-chars", f, g]) == 0
    assert "swept 1 files (1 skipped)" in capsys.readouterr().out


def test_odd_file_name_printed_safely(tmp_path: Path, capsys: Any) -> None:
    f = write(tmp_path / "we\nird.md", f"x{ZWSP}")
    assert main(["hidden-chars", f]) == 3
    out = capsys.readouterr().out
    assert "we\\nird.md:1:2 U+200B" in out


def test_usage_errors_exit_2(capsys: Any) -> None:
    assert main(["hidden-chars"]) == 2
    assert main(["hidden-chars", "--bogus", "x"]) == 2


def test_help_lists_command(capsys: Any) -> None:
    assert main(["--help"]) == 0
    assert "hidden-chars" in capsys.readouterr().out


def test_subprocess_end_to_end(tmp_path: Path) -> None:
    f = write(tmp_path / "a.md", f"x{ZWSP}y\n")
    done = run_cli("hidden-chars", f)
    assert done.returncode == 3 and f"{f}:1:2 U+200B zero_width ZERO WIDTH SPACE" in done.stdout
    clean = write(tmp_path / "b.md", "plain\n")
    assert run_cli("hidden-chars", clean).returncode == 0
    assert run_cli("hidden-chars", str(tmp_path / "none")).returncode == 4
    off = run_cli("hidden-chars", f, env={"AGENTOPS_DISABLED": "1"})
    assert off.returncode == 4 and off.stdout.strip() == "disabled by AGENTOPS_DISABLED"


def test_unreadable_file_skipped(tmp_path: Path, capsys: Any) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads everything")
    p = tmp_path / "locked.md"
    p.write_text(f"x{ZWSP}")
    p.chmod(0)
    assert main(["hidden-chars", str(p)]) == 4
