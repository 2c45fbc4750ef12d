"""`agentops screen summarize LOG.ndjson [--json]`: a verdict log summarized, exit codes."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from support import run_cli

from agentops.cli import main


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _log(tmp_path: Path, *lines: str, name: str = "log.ndjson") -> str:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


class _Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def test_human_summary_one_field_per_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = _log(
        tmp_path,
        '"shadow_allow"',
        '{"verdict": "would_block", "id": 2}',
        "",
        "not json",
        '{"verdict": "unscreened"}',
        '"would_block"',
        '"allow"',
    )
    code, out, err = _run(["screen", "summarize", log], capsys)
    assert code == 3
    assert err == ""
    assert out.splitlines() == [
        "total 6",
        "allow 1",
        "block 0",
        "shadow_allow 1",
        "would_block 2",
        "unscreened 1",
        "unrecognized 1",
        "passes 2",
        "pass_rate 0.3333",
        "unscreened_rate 0.1667",
        'would_block line 2: {"verdict": "would_block", "id": 2}',
        'would_block line 6: "would_block"',
    ]


def test_json_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _log(
        tmp_path,
        *['"shadow_allow"'] * 7,
        *['{"verdict": "unscreened"}'] * 3,
        '{"verdict": "would_block", "note": "caf\u00e9"}',
    )
    code, out, err = _run(["screen", "summarize", log, "--json"], capsys)
    assert code == 3
    assert err == ""
    assert out.isascii()
    document: dict[str, Any] = json.loads(out)
    assert document == {
        "log": log,
        "total": 11,
        "counts": {"allow": 0, "block": 0, "shadow_allow": 7, "would_block": 1, "unscreened": 3},
        "unrecognized": 0,
        "passes": 7,
        "pass_rate": 7 / 11,
        "unscreened_rate": 3 / 11,
        "would_block_rows": [{"verdict": "would_block", "note": "caf\u00e9"}],
        "would_block_lines": [11],
    }
    assert list(document["counts"]) == [
        "allow",
        "block",
        "shadow_allow",
        "would_block",
        "unscreened",
    ]


def test_positive_control_unscreened_rows_are_never_clean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = _log(tmp_path, '"shadow_allow"', '"unscreened"')
    code, out, _ = _run(["screen", "summarize", log], capsys)
    assert code == 3
    assert "passes 1" in out.splitlines()
    assert "pass_rate 0.5000" in out.splitlines()


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (['"allow"'], 0),
        (['"shadow_allow"', '{"verdict": "allow"}'], 0),
        (['"allow"', '"block"'], 3),
        (['"allow"', '"would_block"'], 3),
        (['"allow"', '"unscreened"'], 3),
        (['"allow"', '"ALLOW"'], 3),
        (['"allow"', "allow"], 3),
        (['"allow"', "null"], 3),
        (['"allow"', "[" * 100_000], 3),
    ],
)
def test_exit_codes(
    lines: list[str], expected: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(["screen", "summarize", _log(tmp_path, *lines)], capsys)
    assert code == expected
    assert err == ""


def test_a_clean_window_is_reported_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(
        ["screen", "summarize", _log(tmp_path, '"allow"', '"shadow_allow"')], capsys
    )
    assert code == 0
    assert "pass_rate 1.0000" in out.splitlines()
    assert "unscreened_rate 0.0000" in out.splitlines()
    assert "would_block" not in out.replace("would_block 0", "")


def test_blank_lines_are_not_rows_and_line_numbers_count_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "log.ndjson"
    path.write_bytes(b'\n  \n"allow"\r\n\n{"verdict":"would_block"}')
    code, out, _ = _run(["screen", "summarize", str(path)], capsys)
    assert code == 3
    assert "total 2" in out.splitlines()
    assert 'would_block line 5: {"verdict": "would_block"}' in out.splitlines()


def test_rows_split_on_line_feed_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "log.ndjson"
    path.write_text('{"verdict": "would_block", "x": "a\u2028b"}\n"allow"\n', encoding="utf-8")
    code, out, _ = _run(["screen", "summarize", str(path), "--json"], capsys)
    assert code == 3
    document = json.loads(out)
    assert document["total"] == 2
    assert document["would_block_rows"] == [{"verdict": "would_block", "x": "a\u2028b"}]


def test_printed_rows_cannot_forge_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = _log(tmp_path, '{"verdict": "would_block", "x": "\\u001b[2J\\nallow 99"}')
    code, out, _ = _run(["screen", "summarize", log], capsys)
    assert code == 3
    assert len(out.splitlines()) == 11
    assert "\x1b" not in out


def test_empty_log_is_probe_blind(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for content in ("", "\n\n  \n"):
        path = tmp_path / "empty.ndjson"
        path.write_text(content, encoding="utf-8")
        code, out, err = _run(["screen", "summarize", str(path)], capsys)
        assert code == 4
        assert "total 0" in out.splitlines()
        assert "pass_rate n/a" in out.splitlines()
        assert "unscreened_rate n/a" in out.splitlines()
        assert err.startswith("agentops: no rows in screen log")
        assert len(err.splitlines()) == 1


def test_empty_log_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(["screen", "summarize", _log(tmp_path), "--json"], capsys)
    assert code == 4
    document = json.loads(out)
    assert (document["total"], document["pass_rate"], document["unscreened_rate"]) == (
        0,
        None,
        None,
    )
    assert document["would_block_lines"] == []
    assert "no rows" in err


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (None, "unreadable"),
        (b'"allow"\n\x00\n', "binary"),
        (b'"allow"\n\xff\n', "not UTF-8"),
    ],
)
def test_unreadable_log_is_one_clear_stderr_line(
    content: bytes | None, reason: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "log.ndjson"
    if content is not None:
        path.write_bytes(content)
    for extra in ([], ["--json"]):
        code, out, err = _run(["screen", "summarize", str(path), *extra], capsys)
        assert code == 4
        assert out == ""
        assert len(err.splitlines()) == 1
        assert err.startswith(f"agentops: cannot read screen log {path}: {reason}")


def test_a_directory_is_not_a_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(["screen", "summarize", str(tmp_path)], capsys)
    assert (code, out) == (4, "")
    assert "cannot read screen log" in err


def test_bom_is_ignored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "log.ndjson"
    path.write_bytes(b'\xef\xbb\xbf"allow"\n')
    assert _run(["screen", "summarize", str(path)], capsys)[0] == 0


def test_stdin_dash(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", _Stdin(b'\xef\xbb\xbf"allow"\n"would_block"\n'))
    code, out, _ = _run(["screen", "summarize", "-"], capsys)
    assert code == 3
    assert "total 2" in out.splitlines()
    assert "allow 1" in out.splitlines()
    assert 'would_block line 2: "would_block"' in out.splitlines()


def test_kill_switch_is_probe_blind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("AGENTOPS_DISABLED", "1")
    code, out, _ = _run(["screen", "summarize", _log(tmp_path, '"allow"')], capsys)
    assert (code, out) == (4, "disabled by AGENTOPS_DISABLED\n")


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["screen", "summarize"], capsys)[0] == 2
    code, _, err = _run(["screen"], capsys)
    assert code == 2
    assert "summarize" in err
    assert "required" in err


def test_help_documents_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["screen", "summarize", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Exit codes: 0 every row is a pass" in out
    assert "3 some row is not" in out
    assert "4 nothing to summarize" in out
    assert "2 usage or error" in out


def test_end_to_end(tmp_path: Path) -> None:
    log = _log(tmp_path, '"allow"', '"shadow_allow"')
    done = run_cli("screen", "summarize", log)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[0] == "total 2"
    done = run_cli("screen", "summarize", "-", stdin=b'"unscreened"\n')
    assert done.returncode == 3
    done = run_cli("screen", "summarize", str(tmp_path / "missing.ndjson"))
    assert done.returncode == 4
    assert "cannot read screen log" in done.stderr


def test_human_rows_keep_readable_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _log(tmp_path, '{"verdict": "would_block", "note": "caf\\u00e9 \\u2603"}')
    code, out, _ = _run(["screen", "summarize", log], capsys)
    assert code == 3
    expected = 'would_block line 1: {"verdict": "would_block", "note": "café ☃"}'
    assert out.splitlines()[-1] == expected
