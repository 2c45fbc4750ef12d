"""Tests for `agentops ledger touch` / `agentops ledger tally`: the memory usage ledger on disk."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from support import ROOT, run_cli

from agentops import memory_usage_ledger as mul
from agentops.cli import _common, main

UTC = timezone.utc
STAMP = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z")
Capture = pytest.CaptureFixture[str]


@pytest.fixture(autouse=True)
def _enabled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AGENTOPS_DISABLED", raising=False)


def rows_of(path: Path) -> list[dict[str, Any]]:
    parsed = mul.parse_ledger_text(path.read_text(encoding="utf-8"))
    assert parsed.skipped == 0
    return list(parsed.rows)


def memdir(tmp_path: Path, *names: str) -> Path:
    folder = tmp_path / "mem"
    folder.mkdir()
    for name in names:
        (folder / name).write_text("x", encoding="utf-8")
    return folder


def ago(days: float) -> str:
    return (datetime.now(UTC) - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def ledger_text(*rows: tuple[str, str]) -> str:
    return "".join(json.dumps({"ts": ts, "name": n, "session": None}) + "\n" for n, ts in rows)


# --------------------------------------------------------------------------- touch


def test_touch_records_rows(tmp_path: Path, capsys: Capture) -> None:
    ledger = tmp_path / "usage.jsonl"
    before = datetime.now(UTC) - timedelta(seconds=1)
    assert main(["ledger", "touch", str(ledger), "alpha", "beta", "--session", "s1"]) == 0
    out, err = capsys.readouterr()
    assert out == "recorded 2 touches\n" and err == ""
    rows = rows_of(ledger)
    assert [r["name"] for r in rows] == ["alpha", "beta"]
    assert all(r["session"] == "s1" and STAMP.fullmatch(r["ts"]) for r in rows)
    assert list(rows[0]) == ["ts", "name", "session"]
    stamp = datetime.strptime(rows[0]["ts"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    assert before <= stamp <= datetime.now(UTC)
    assert ledger.read_bytes().endswith(b"\n") and ledger.read_bytes().count(b"\n") == 2


def test_touch_singular_and_no_session(tmp_path: Path, capsys: Capture) -> None:
    ledger = tmp_path / "usage.jsonl"
    assert main(["ledger", "touch", str(ledger), " alpha "]) == 0
    assert capsys.readouterr().out == "recorded 1 touch\n"
    assert rows_of(ledger)[0]["name"] == "alpha" and rows_of(ledger)[0]["session"] is None


def test_touch_appends_never_truncates(tmp_path: Path) -> None:
    ledger = tmp_path / "usage.jsonl"
    prior = b'{"keep":"me"}\nnot json at all\n'
    ledger.write_bytes(prior)
    assert main(["ledger", "touch", str(ledger), "alpha"]) == 0
    assert main(["ledger", "touch", str(ledger), "beta"]) == 0
    data = ledger.read_bytes()
    assert data.startswith(prior) and b"\n\n" not in data
    parsed = mul.parse_ledger_text(data.decode())
    assert [r.get("name") for r in parsed.rows] == [None, "alpha", "beta"]
    assert parsed.skipped == 1


def test_touch_after_torn_last_line(tmp_path: Path) -> None:
    ledger = tmp_path / "usage.jsonl"
    torn = b'{"ts":"2026-08-14T00:00:00Z","name":"a"}\n{"ts":"2026-08-1'
    ledger.write_bytes(torn)
    assert main(["ledger", "touch", str(ledger), "beta"]) == 0
    data = ledger.read_bytes()
    assert data.startswith(torn + b"\n{") and data.endswith(b"\n")
    parsed = mul.parse_ledger_text(data.decode())
    assert [r["name"] for r in parsed.rows] == ["a", "beta"] and parsed.skipped == 1


def test_touch_empty_existing_file_gets_no_leading_newline(tmp_path: Path) -> None:
    ledger = tmp_path / "usage.jsonl"
    ledger.write_bytes(b"")
    assert main(["ledger", "touch", str(ledger), "alpha"]) == 0
    assert ledger.read_bytes().startswith(b'{"ts":')


def test_touch_one_write_with_append_flags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ledger = tmp_path / "usage.jsonl"
    ledger.write_bytes(b'{"torn"')
    opened: list[int] = []
    writes: list[bytes] = []
    real_open, real_write = os.open, os.write

    def spy_open(path: Any, flags: int, *rest: Any, **named: Any) -> int:
        opened.append(flags)
        return real_open(path, flags, *rest, **named)

    def spy_write(fd: int, data: bytes) -> int:
        writes.append(bytes(data))
        return real_write(fd, data)

    monkeypatch.setattr("agentops.cli.ledger.os.open", spy_open)
    monkeypatch.setattr("agentops.cli.ledger.os.write", spy_write)
    assert main(["ledger", "touch", str(ledger), "alpha", "beta", "gamma"]) == 0
    assert len(writes) == 1 and writes[0].startswith(b"\n{") and writes[0].count(b"\n") == 4
    wanted = os.O_WRONLY | os.O_APPEND | os.O_CREAT
    assert opened[0] & wanted == wanted and not opened[0] & os.O_TRUNC
    assert not any(flags & os.O_TRUNC for flags in opened)
    assert ledger.read_bytes() == b'{"torn"' + writes[0]


def test_touch_tail_unreadable_still_separates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ledger = tmp_path / "usage.jsonl"
    ledger.write_bytes(b'{"a":1}\n')
    real_open = os.open

    def no_read(path: Any, flags: int, *rest: Any, **named: Any) -> int:
        if not flags & (os.O_WRONLY | os.O_RDWR):
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *rest, **named)

    monkeypatch.setattr("agentops.cli.ledger.os.open", no_read)
    assert main(["ledger", "touch", str(ledger), "alpha"]) == 0
    data = ledger.read_bytes()
    assert data.startswith(b'{"a":1}\n\n{"ts"')  # a blank line, never a merged row
    assert len(mul.parse_ledger_text(data.decode()).rows) == 2


def test_touch_after_one_byte_files(tmp_path: Path) -> None:
    ledger = tmp_path / "usage.jsonl"
    ledger.write_bytes(b"x")
    assert main(["ledger", "touch", str(ledger), "alpha"]) == 0
    assert ledger.read_bytes().startswith(b'x\n{"ts"')
    ledger.write_bytes(b"\n")
    assert main(["ledger", "touch", str(ledger), "alpha"]) == 0
    assert ledger.read_bytes().startswith(b'\n{"ts"')


def test_touch_creates_file_rw_for_owner(tmp_path: Path) -> None:
    ledger = tmp_path / "usage.jsonl"
    old = os.umask(0o022)
    try:
        assert main(["ledger", "touch", str(ledger), "alpha"]) == 0
    finally:
        os.umask(old)
    assert ledger.stat().st_mode & 0o777 == 0o644


def ends_in_newline(path: str, info: os.stat_result) -> bool:
    return _common._ends_in_newline(path, info, 0, None)


def test_ends_in_newline_read_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    one = tmp_path / "one"
    one.write_bytes(b"x\n")

    def broken(*args: Any) -> bytes:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "pread", broken)
    assert ends_in_newline(str(one), os.stat(one)) is False


def test_ends_in_newline_checks_same_file(tmp_path: Path) -> None:
    one_byte = tmp_path / "nl"
    one_byte.write_bytes(b"\n")
    assert ends_in_newline(str(one_byte), os.stat(one_byte)) is True
    one, other = tmp_path / "one", tmp_path / "other"
    one.write_bytes(b"x\n")
    other.write_bytes(b"y\n")
    assert ends_in_newline(str(one), os.stat(one)) is True
    assert ends_in_newline(str(one), os.stat(other)) is False
    one.write_bytes(b"x")
    assert ends_in_newline(str(one), os.stat(one)) is False
    one.write_bytes(b"")
    assert ends_in_newline(str(one), os.stat(one)) is False
    assert ends_in_newline(str(tmp_path / "gone"), os.stat(other)) is False


def test_touch_rejected_names_exit_3_valid_still_appended(tmp_path: Path, capsys: Capture) -> None:
    ledger = tmp_path / "usage.jsonl"
    code = main(["ledger", "touch", str(ledger), "ok", "dir/bad", "alpha.md", "..", "ok"])
    assert code == 3
    out, err = capsys.readouterr()
    assert out == "recorded 1 touch\n"
    lines = err.splitlines()
    assert len(lines) == 3 and all(line.startswith("agentops: rejected name") for line in lines)
    assert "'dir/bad'" in lines[0] and "'alpha.md'" in lines[1] and "'..'" in lines[2]
    assert [r["name"] for r in rows_of(ledger)] == ["ok"]


def test_touch_all_rejected_writes_nothing(tmp_path: Path, capsys: Capture) -> None:
    ledger = tmp_path / "usage.jsonl"
    ledger.write_bytes(b'{"torn"')
    assert main(["ledger", "touch", str(ledger), "a/b"]) == 3
    assert capsys.readouterr().out == "recorded 0 touches\n"
    assert ledger.read_bytes() == b'{"torn"'


def test_touch_dir_warns_unknown(tmp_path: Path, capsys: Capture) -> None:
    folder = memdir(tmp_path, "alpha.md", "MEMORY.md", "notes.txt")
    os.symlink(folder / "alpha.md", folder / "linked.md")
    (folder / "sub.md").mkdir()
    ledger = tmp_path / "usage.jsonl"
    code = main(
        [
            "ledger",
            "touch",
            str(ledger),
            "alpha",
            "alhpa",
            "MEMORY",
            "linked",
            "sub",
            "notes",
            "--dir",
            str(folder),
        ]
    )
    assert code == 0
    out, err = capsys.readouterr()
    assert out == "recorded 6 touches\n"
    warned = [line for line in err.splitlines() if line.startswith("agentops: warning:")]
    assert len(warned) == len(err.splitlines()) == 5
    for name, line in zip(["alhpa", "MEMORY", "linked", "sub", "notes"], warned, strict=True):
        assert f"'{name}'" in line and "recorded anyway" in line
    assert [r["name"] for r in rows_of(ledger)] == [
        "alpha",
        "alhpa",
        "MEMORY",
        "linked",
        "sub",
        "notes",
    ]


def test_touch_dir_unreadable_file_still_a_fact(
    tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = memdir(tmp_path)
    fake = _common.MemoryDir((("alpha.md", None), ("memory.MD", "idx")), (), frozenset(), True)
    monkeypatch.setattr(_common, "read_memory_dir", lambda d: fake)
    ledger = tmp_path / "usage.jsonl"
    assert main(["ledger", "touch", str(ledger), "alpha", "memory", "--dir", str(folder)]) == 0
    err = capsys.readouterr().err
    assert "'memory'" in err and "'alpha'" not in err


@pytest.mark.parametrize("case", ["missing", "file", "unlistable"])
def test_touch_bad_dir_is_usage_error_nothing_written(
    tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    target = tmp_path / "mem"
    if case == "file":
        target.write_text("x")
    elif case == "unlistable":
        target.mkdir()
        monkeypatch.setattr(
            _common, "read_memory_dir", lambda d: _common.MemoryDir((), (), frozenset(), False)
        )
    ledger = tmp_path / "usage.jsonl"
    assert main(["ledger", "touch", str(ledger), "alpha", "--dir", str(target)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("agentops: --dir")
    assert not ledger.exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["ledger", "touch"],
        ["ledger", "touch", "L"],
        ["ledger", "touch", "L", "a", "--bogus"],
        ["ledger", "touch", "L", "a", "--session"],
        ["ledger"],
        ["ledger", "nope"],
    ],
)
def test_touch_usage_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str], capsys: Capture
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    assert not (tmp_path / "L").exists()
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("case", ["no-parent", "directory", "fifo"])
def test_touch_unwritable_ledger_exit_4(tmp_path: Path, capsys: Capture, case: str) -> None:
    if case == "no-parent":
        ledger = tmp_path / "missing" / "usage.jsonl"
    elif case == "directory":
        ledger = tmp_path / "usage.jsonl"
        ledger.mkdir()
    else:
        ledger = tmp_path / "usage.fifo"
        os.mkfifo(ledger)
    assert main(["ledger", "touch", str(ledger), "alpha"]) == 4
    out, err = capsys.readouterr()
    assert out == "" and "nothing recorded" in err
    if case == "no-parent":
        assert not ledger.parent.exists()
        assert err == (
            f"agentops: ledger {ledger}: cannot open for appending: "
            "No such file or directory; nothing recorded\n"
        )


def test_touch_fifo_with_reader_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "usage.fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        assert main(["ledger", "touch", str(fifo), "alpha"]) == 4
        assert os.read(reader, 100) == b""  # nothing was written into the pipe
    finally:
        os.close(reader)


@pytest.mark.parametrize("failure", ["short", "error"])
def test_touch_write_failures_exit_4(
    tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    def bad_write(fd: int, data: bytes) -> int:
        if failure == "short":
            return len(data) - 1
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("agentops.cli.ledger.os.write", bad_write)
    assert main(["ledger", "touch", str(tmp_path / "usage.jsonl"), "alpha"]) == 4
    out, err = capsys.readouterr()
    assert out == ""
    if failure == "short":
        assert "short write" in err
    else:
        assert err.endswith(": cannot write: No space left on device; nothing recorded\n")


def test_touch_unexpected_error_exit_4(
    tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(mul, "make_touch_rows", boom)
    assert main(["ledger", "touch", str(tmp_path / "usage.jsonl"), "alpha"]) == 4
    assert "kaboom" in capsys.readouterr().err


def test_touch_disabled(tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTOPS_DISABLED", "1")
    ledger = tmp_path / "usage.jsonl"
    assert main(["ledger", "touch", str(ledger), "alpha"]) == 4
    assert capsys.readouterr().out == "disabled by AGENTOPS_DISABLED\n"
    assert not ledger.exists()


def test_touch_undecodable_name_subprocess(tmp_path: Path) -> None:
    ledger = tmp_path / "usage.jsonl"
    env = {k: v for k, v in os.environ.items() if k != "AGENTOPS_DISABLED"}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "agentops",
            "ledger",
            "touch",
            str(ledger).encode(),
            b"ok",
            b"bad\xff",
        ],
        capture_output=True,
        env=env,
        check=False,
        timeout=60,
    )
    assert done.returncode == 3
    assert done.stdout == b"recorded 1 touch\n"
    assert b"rejected name" in done.stderr and b"Traceback" not in done.stderr
    assert [r["name"] for r in rows_of(ledger)] == ["ok"]


def test_touch_end_to_end_exit_codes(tmp_path: Path) -> None:
    ledger = tmp_path / "usage.jsonl"
    assert run_cli("ledger", "touch", str(ledger), "alpha").returncode == 0
    assert run_cli("ledger", "touch", str(ledger), "a/b").returncode == 3
    assert run_cli("ledger", "touch", str(tmp_path / "x" / "y"), "a").returncode == 4
    assert run_cli("ledger", "touch", str(ledger)).returncode == 2
    done = run_cli("ledger", "touch", str(ledger), "a", env={"AGENTOPS_DISABLED": "1"})
    assert done.returncode == 4
    assert [r["name"] for r in rows_of(ledger)] == ["alpha"]


# --------------------------------------------------------------------------- tally


def test_tally_text_output(tmp_path: Path, capsys: Capture) -> None:
    folder = memdir(
        tmp_path, "alpha.md", "beta.md", "gamma.md", "MEMORY.md", "Memory.md", "readme.txt"
    )
    os.symlink(folder / "gamma.md", folder / "linked.md")
    ledger = tmp_path / "usage.jsonl"
    a1, a2, b3, g5 = ago(1), ago(2), ago(3), ago(5)
    ledger.write_text(
        ledger_text(("alpha", a2), ("alpha", a1), ("beta", b3), ("gone", g5), ("beta", ago(100)))
        + "not json\n[1]\n"
        + json.dumps({"name": "x", "ts": "bad"})
        + "\n",
        encoding="utf-8",
    )
    assert main(["ledger", "tally", str(ledger), str(folder)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.splitlines() == [
        "5 rows read (4 in the last 90 days, 3 skipped)",
        f"2  {a1}  alpha",
        f"1  {b3}  beta",
        f"1  {g5}  gone",
        "never  gamma",
    ]


def test_tally_json_output(tmp_path: Path, capsys: Capture) -> None:
    folder = memdir(tmp_path, "alpha.md", "beta.md", "caf\u00e9.md", "memory.md")
    ledger = tmp_path / "usage.jsonl"
    a1 = ago(1)
    ledger.write_text(
        ledger_text(("alpha", a1), ("alpha", ago(40)), ("beta", ago(45))) + "{broken\n",
        encoding="utf-8",
    )
    assert main(["ledger", "tally", str(ledger), str(folder), "--days", "30", "--json"]) == 0
    out = capsys.readouterr().out
    assert out.isascii()
    assert json.loads(out) == {
        "window_days": 30,
        "rows_read": 3,
        "rows_in_window": 1,
        "rows_skipped": 1,
        "touched": [{"name": "alpha", "count": 1, "last_touch": a1}],
        "never_touched": ["beta", "caf\u00e9"],
    }
    assert list(json.loads(out)) == [
        "window_days",
        "rows_read",
        "rows_in_window",
        "rows_skipped",
        "touched",
        "never_touched",
    ]


@pytest.mark.parametrize("content", [None, b"", b"\n\n", b"not json\n", b"\xff\xfe\x00"])
def test_tally_no_evidence_exit_4(tmp_path: Path, capsys: Capture, content: bytes | None) -> None:
    folder = memdir(tmp_path, "alpha.md")
    ledger = tmp_path / "usage.jsonl"
    if content is not None:
        ledger.write_bytes(content)
    assert main(["ledger", "tally", str(ledger), str(folder)]) == 4
    out, err = capsys.readouterr()
    assert out.splitlines()[0].startswith("0 rows read (0 in the last 90 days, ")
    assert out.splitlines()[-1] == "never  alpha"
    flagged = [line for line in err.splitlines() if line.startswith("NO EVIDENCE")]
    assert len(flagged) == 1 and "not an eviction signal" in flagged[0]


def test_tally_no_evidence_json_still_printed(tmp_path: Path, capsys: Capture) -> None:
    folder = memdir(tmp_path, "alpha.md")
    assert main(["ledger", "tally", str(tmp_path / "none"), str(folder), "--json"]) == 4
    out, err = capsys.readouterr()
    assert json.loads(out)["never_touched"] == ["alpha"] and json.loads(out)["rows_read"] == 0
    assert err.startswith("NO EVIDENCE") and "missing" in err


def test_tally_rows_outside_window_are_evidence(tmp_path: Path, capsys: Capture) -> None:
    folder = memdir(tmp_path, "alpha.md")
    ledger = tmp_path / "usage.jsonl"
    ledger.write_text(ledger_text(("alpha", ago(10))), encoding="utf-8")
    assert main(["ledger", "tally", str(ledger), str(folder), "--days", "1"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == ["1 rows read (0 in the last 1 days, 0 skipped)", "never  alpha"]


@pytest.mark.parametrize("ledger_kind", ["directory", "fifo"])
def test_tally_non_regular_ledger_reads_empty(
    tmp_path: Path, capsys: Capture, ledger_kind: str
) -> None:
    folder = memdir(tmp_path, "alpha.md")
    ledger = tmp_path / "usage"
    if ledger_kind == "directory":
        ledger.mkdir()
    else:
        os.mkfifo(ledger)
    assert main(["ledger", "tally", str(ledger), str(folder)]) == 4
    assert "not a regular file" in capsys.readouterr().err


def test_tally_unreadable_ledger_reads_empty(
    tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = memdir(tmp_path, "alpha.md")
    ledger = tmp_path / "usage.jsonl"
    ledger.write_text(ledger_text(("alpha", ago(1))), encoding="utf-8")

    def denied(*args: Any, **kwargs: Any) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("agentops.cli.ledger.os.open", denied)
    assert main(["ledger", "tally", str(ledger), str(folder)]) == 4
    assert "unreadable: Permission denied" in capsys.readouterr().err


def test_tally_ledger_read_failure(
    tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    ledger = tmp_path / "usage.jsonl"
    ledger.write_text("x")

    def broken(fd: int, size: int) -> Any:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr("agentops.cli.ledger.os.read", broken)
    folder = memdir(tmp_path)
    assert main(["ledger", "tally", str(ledger), str(folder)]) == 4
    assert "(ledger unreadable: Input/output error)" in capsys.readouterr().err


def test_tally_bom_and_invalid_utf8(tmp_path: Path, capsys: Capture) -> None:
    folder = memdir(tmp_path, "alpha.md")
    ledger = tmp_path / "usage.jsonl"
    stamp = ago(1)
    body = (
        ledger_text(("alpha", stamp)).encode()
        + b'{"ts":"'
        + stamp.encode()
        + b'","name":"b\xffd"}\n'
    )
    ledger.write_bytes(b"\xef\xbb\xbf" + body)
    assert main(["ledger", "tally", str(ledger), str(folder), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["rows_read"] == 2 and doc["rows_skipped"] == 0
    assert sorted(t["name"] for t in doc["touched"]) == ["alpha", "b\ufffdd"]
    ledger.write_bytes(b"\xef\xbb\xbf\xef\xbb\xbf" + body)  # only one BOM is dropped
    assert main(["ledger", "tally", str(ledger), str(folder), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["rows_read"] == 1 and doc["rows_skipped"] == 1


def test_tally_text_escapes_odd_names(tmp_path: Path, capsys: Capture) -> None:
    folder = memdir(tmp_path)
    ledger = tmp_path / "usage.jsonl"
    ledger.write_text(
        json.dumps({"ts": ago(1), "name": "evil\nforged\udcff"}) + "\n", encoding="utf-8"
    )
    assert main(["ledger", "tally", str(ledger), str(folder)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and lines[1].endswith("evil\\nforged\\udcff")


def test_tally_unreadable_fact_file_still_named(
    tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = memdir(tmp_path)
    files = (("MEMORY.md", "i"), ("alpha.md", None), ("link.md", None), ("mEmOrY.mD", "j"))
    fake = _common.MemoryDir(
        (*files, ("x.MD", "k")),
        (
            _common.SkippedEntry("alpha.md", "unreadable: Permission denied"),
            _common.SkippedEntry("link.md", _common.LINK_NOT_FOLLOWED),
        ),
        frozenset({"link.md"}),
        True,
    )
    monkeypatch.setattr(_common, "read_memory_dir", lambda d: fake)
    ledger = tmp_path / "usage.jsonl"
    ledger.write_text(ledger_text(("other", ago(1))), encoding="utf-8")
    assert main(["ledger", "tally", str(ledger), str(folder), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["never_touched"] == ["alpha", "x"]


def test_tally_unlistable_dir_exit_4(
    tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = memdir(tmp_path, "alpha.md")
    monkeypatch.setattr(
        _common, "read_memory_dir", lambda d: _common.MemoryDir((), (), frozenset(), False)
    )
    ledger = tmp_path / "usage.jsonl"
    ledger.write_text(ledger_text(("alpha", ago(1))), encoding="utf-8")
    assert main(["ledger", "tally", str(ledger), str(folder)]) == 4
    out, err = capsys.readouterr()
    assert out.splitlines()[0] == "1 rows read (1 in the last 90 days, 0 skipped)"
    assert "cannot be listed" in err and "NO EVIDENCE" not in err


@pytest.mark.parametrize(
    "days,ok",
    [
        ("1", True),
        ("90", True),
        ("007", True),
        ("999999999", True),
        ("0", False),
        ("-1", False),
        ("1000000000", False),
        ("1.5", False),
        ("abc", False),
        ("", False),
        (" 5", False),
        ("+5", False),
        ("1_0", False),
        ("\u0663", False),
        ("9" * 13, False),
    ],
)
def test_tally_days_validation(tmp_path: Path, capsys: Capture, days: str, ok: bool) -> None:
    folder = memdir(tmp_path, "alpha.md")
    ledger = tmp_path / "usage.jsonl"
    ledger.write_text(ledger_text(("alpha", ago(0.5))), encoding="utf-8")
    code = main(["ledger", "tally", str(ledger), str(folder), f"--days={days}", "--json"])
    out, err = capsys.readouterr()
    if ok:
        assert code == 0 and json.loads(out)["window_days"] == int(days)
        assert json.loads(out)["rows_in_window"] == 1
    else:
        assert code == 2 and out == "" and "--days" in err


@pytest.mark.parametrize("case", ["missing", "file"])
def test_tally_bad_dir_exit_2(tmp_path: Path, capsys: Capture, case: str) -> None:
    target = tmp_path / "mem"
    if case == "file":
        target.write_text("x")
    assert main(["ledger", "tally", str(tmp_path / "l"), str(target)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "not a directory" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["ledger", "tally"],
        ["ledger", "tally", "L"],
        ["ledger", "tally", "L", "D", "--bogus"],
        ["ledger", "tally", "L", "D", "E"],
    ],
)
def test_tally_usage_errors(argv: list[str]) -> None:
    assert main(argv) == 2


def test_tally_unexpected_error_exit_4(
    tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(mul, "tally_usage", boom)
    folder = memdir(tmp_path, "alpha.md")
    assert main(["ledger", "tally", str(tmp_path / "l"), str(folder)]) == 4
    assert "kaboom" in capsys.readouterr().err


def test_tally_disabled(tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTOPS_DISABLED", "1")
    assert main(["ledger", "tally", str(tmp_path / "l"), str(tmp_path)]) == 4
    assert capsys.readouterr().out == "disabled by AGENTOPS_DISABLED\n"


def test_tally_end_to_end_exit_codes(tmp_path: Path) -> None:
    folder = memdir(tmp_path, "alpha.md")
    ledger = tmp_path / "usage.jsonl"
    done = run_cli("ledger", "tally", str(ledger), str(folder))
    assert done.returncode == 4 and "\nNO EVIDENCE" in "\n" + done.stderr
    assert run_cli("ledger", "touch", str(ledger), "alpha").returncode == 0
    done = run_cli("ledger", "tally", str(ledger), str(folder))
    assert done.returncode == 0 and done.stdout.startswith("1 rows read (1 in the last 90 days")
    assert run_cli("ledger", "tally", str(ledger), str(folder / "x")).returncode == 2
    assert run_cli("ledger", "tally", str(ledger), str(folder), "--days", "0").returncode == 2


def test_help_lists_ledger() -> None:
    done = run_cli("--help")
    assert done.returncode == 0 and "ledger" in done.stdout
    assert run_cli("ledger", "touch", "--help").returncode == 0


# --------------------------------------------------------------------------- concurrency

_WORKER = """
import sys
from agentops.cli import main
ledger, tag = sys.argv[1], sys.argv[2]
for i in range(40):
    assert main(["ledger", "touch", ledger, f"{tag}_fact_{i:02d}", "--session", tag]) == 0
"""


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "AGENTOPS_DISABLED"}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _assert_480_rows(ledger: Path) -> None:
    data = ledger.read_bytes()
    assert data.endswith(b"\n")
    lines = data.decode("utf-8").split("\n")[:-1]
    # A blank separator line is allowed: the kernel may publish a page-crossing
    # append's new size before its last bytes, so a concurrent writer can see a
    # tail that is not "\n" yet and add one. Blank lines are never rows.
    assert len([line for line in lines if line.strip()]) == 480
    parsed = mul.parse_ledger_text(data.decode("utf-8"))
    assert parsed.skipped == 0 and len(parsed.rows) == 480
    names = {r["name"] for r in parsed.rows}
    assert names == {f"w{p}_fact_{i:02d}" for p in range(12) for i in range(40)}
    assert all(r["session"] == r["name"].split("_")[0] for r in parsed.rows)


def test_concurrent_appends_lose_and_tear_nothing(tmp_path: Path) -> None:
    """12 processes, each appending 40 touches one write at a time, to one ledger."""
    ledger = tmp_path / "usage.jsonl"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _WORKER, str(ledger), f"w{p}"],
            env=_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for p in range(12)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    _assert_480_rows(ledger)
    tally = mul.tally_usage(mul.parse_ledger_text(ledger.read_text()).rows, [])
    assert tally.rows_read == 480 and tally.rows_in_window == 480


def test_concurrent_cli_subprocesses(tmp_path: Path) -> None:
    """12 real `python -m agentops ledger touch` processes at once, 40 names each."""
    ledger = tmp_path / "usage.jsonl"
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "agentops",
                "ledger",
                "touch",
                str(ledger),
                *[f"w{p}_fact_{i:02d}" for i in range(40)],
                "--session",
                f"w{p}",
            ],
            env=_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for p in range(12)
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert out == b"recorded 40 touches\n"
    _assert_480_rows(ledger)


# ------------------------------------------------------------ the memory directory


def test_tally_over_cap_fact_file_is_skipped_said_and_still_named(
    tmp_path: Path, capsys: Capture
) -> None:
    folder = memdir(tmp_path, "alpha.md")
    with open(folder / "huge.md", "wb") as handle:
        handle.truncate(1 << 30)  # 1 GiB, sparse: no disk used
    ledger = tmp_path / "usage.jsonl"
    ledger.write_text(ledger_text(("alpha", ago(1))), encoding="utf-8")
    # generous adversarial bound (CPU time, so load cannot fail it): never read
    start = time.process_time()
    assert main(["ledger", "tally", str(ledger), str(folder)]) == 0
    assert time.process_time() - start < 0.5
    why = f"too large to read ({1 << 30} bytes, limit {_common.MAX_FILE_BYTES})"
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == f"fact file not read: huge.md: {why}"
    assert lines[-1] == "never  huge"  # its name is still a fact
    assert main(["ledger", "tally", str(ledger), str(folder), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["files_skipped"] == [{"name": "huge.md", "reason": why}]
    assert doc["never_touched"] == ["huge"]


def test_tally_fact_file_at_the_cap_is_read_one_over_is_skipped(
    tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_common, "MAX_FILE_BYTES", 10)
    folder = memdir(tmp_path)
    (folder / "at_cap.md").write_bytes(b"x" * 10)
    (folder / "over_cap.md").write_bytes(b"x" * 11)
    ledger = tmp_path / "usage.jsonl"
    ledger.write_text(ledger_text(("at_cap", ago(1))), encoding="utf-8")
    assert main(["ledger", "tally", str(ledger), str(folder), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    why = "too large to read (11 bytes, limit 10)"
    assert doc["files_skipped"] == [{"name": "over_cap.md", "reason": why}]
    assert doc["never_touched"] == ["over_cap"]


def test_tally_swapped_in_fifo_or_link_is_not_read_and_is_skipped(
    tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = memdir(tmp_path, "alpha.md")
    outside = tmp_path / "outside.txt"
    outside.write_text("secret elsewhere", encoding="utf-8")
    (folder / "link.md").symlink_to(outside)
    os.mkfifo(folder / "pipe.md")  # no writer: a blocking open would hang the command
    # both were regular files when listed, and swapped in before they were opened
    monkeypatch.setattr(_common, "_entry_refusal", lambda path: (True, ""))
    ledger = tmp_path / "usage.jsonl"
    ledger.write_text(ledger_text(("alpha", ago(1))), encoding="utf-8")
    assert main(["ledger", "tally", str(ledger), str(folder), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (link, fifo) = doc["files_skipped"]
    assert link["name"] == "link.md" and link["reason"].startswith("unreadable: ")
    assert fifo == {"name": "pipe.md", "reason": "not a regular file"}


def test_tally_never_reports_links_and_folders_as_fact_files(
    tmp_path: Path, capsys: Capture
) -> None:
    folder = memdir(tmp_path, "alpha.md")
    (folder / "link.md").symlink_to(folder / "alpha.md")
    (folder / "sub.md").mkdir()
    ledger = tmp_path / "usage.jsonl"
    ledger.write_text(ledger_text(("alpha", ago(1))), encoding="utf-8")
    assert main(["ledger", "tally", str(ledger), str(folder), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "files_skipped" not in doc and doc["never_touched"] == []
