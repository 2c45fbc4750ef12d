"""`agentops redact` and `agentops scan-secrets`: exit codes, no value ever printed."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from pathlib import Path
from typing import Any

import pytest
from support import run_cli

from agentops.cli import main

# Built at run time so this file itself holds no secret-shaped run.
AWS = "AKIA" + "IOSFODNN7EXAMPLE"
KEY = bytes(range(32))
FP = hmac.new(KEY, AWS.encode(), hashlib.sha256).hexdigest()[:8]


@pytest.fixture(autouse=True)
def _known_key(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every scan here uses a known per-machine key, kept outside the home directory."""
    key_file = tmp_path_factory.mktemp("key") / "fingerprint.key"
    key_file.write_text(KEY.hex() + "\n", encoding="ascii")
    monkeypatch.setenv("AGENTOPS_FINGERPRINT_KEY_FILE", str(key_file))
    monkeypatch.delenv("AGENTOPS_DISABLED", raising=False)


def _scan(capsys: Any, *args: str) -> tuple[int, str, str]:
    code = main(["scan-secrets", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def planted(tmp_path: Path) -> Path:
    (tmp_path / "clean.py").write_text("print('hello')\n", encoding="utf-8")
    (tmp_path / "config.env").write_text(f"A=1\nB=2\n    KEY={AWS}\n", encoding="utf-8")
    return tmp_path


def test_planted_secret_is_found_by_position_never_by_value(planted: Path, capsys: Any) -> None:
    code, out, err = _scan(capsys, str(planted))
    assert code == 3
    assert f"{planted / 'config.env'}:3:9 aws-key fp={FP}" in out.splitlines()
    assert "swept 2 files (0 skipped)" in out
    assert AWS not in out + err
    assert AWS[4:] not in out + err


def test_counts_only_prints_counts_and_no_positions(planted: Path, capsys: Any) -> None:
    code, out, err = _scan(capsys, "--counts-only", str(planted))
    assert code == 3
    assert "shape aws-key: 1" in out.splitlines()
    assert f"file {planted / 'config.env'}: 1" in out.splitlines()
    assert ":3:9" not in out and FP not in out and AWS not in out + err


def test_json_document(planted: Path, capsys: Any) -> None:
    code, out, _ = _scan(capsys, "--json", str(planted))
    assert code == 3
    document = json.loads(out)
    assert out.isascii()
    assert document["swept"] == 2 and document["findings_total"] == 1
    assert document["findings"] == [
        {
            "path": str(planted / "config.env"),
            "line": 3,
            "column": 9,
            "shape": "aws-key",
            "fingerprint": FP,
        }
    ]
    assert document["counts"] == {
        "by_shape": {"aws-key": 1},
        "by_file": {str(planted / "config.env"): 1},
    }
    code, out, _ = _scan(capsys, "--json", "--counts-only", str(planted))
    assert "findings" not in json.loads(out)
    assert AWS not in out


def test_allow_comment_suppresses_and_is_counted(tmp_path: Path, capsys: Any) -> None:
    (tmp_path / "doc.md").write_text(
        f"example {AWS}  <!-- agentops: allow-secret -->\n", encoding="utf-8"
    )
    code, out, _ = _scan(capsys, str(tmp_path))
    assert code == 0
    assert "0 finding(s), 1 suppressed by 'agentops: allow-secret'" in out
    (tmp_path / "doc.md").write_text(f"agentops: allow-secret\n{AWS}\n", encoding="utf-8")
    assert _scan(capsys, str(tmp_path))[0] == 3  # the comment covers its own line only


def test_a_value_allowed_once_is_allowed_where_the_file_repeats_it(
    tmp_path: Path, capsys: Any
) -> None:
    value = "Qm7vX2" + "pL9kR4tW8"
    body = f'password = "{value}"  # agentops: allow-secret\nprint("{value}")\n'
    (tmp_path / "fixture.py").write_text(body, encoding="utf-8")
    code, out, _ = _scan(capsys, str(tmp_path))
    assert code == 0 and "0 finding(s), 2 suppressed" in out, out
    plain = body.replace("  # agentops: allow-secret", "")
    (tmp_path / "fixture.py").write_text(plain, encoding="utf-8")
    assert _scan(capsys, str(tmp_path))[0] == 3  # both found, neither allowed


def test_clean_tree_exits_0(tmp_path: Path, capsys: Any) -> None:
    (tmp_path / "a.txt").write_text("nothing here\n", encoding="utf-8")
    code, out, _ = _scan(capsys, str(tmp_path))
    assert code == 0
    assert "swept 1 files (0 skipped)" in out


def test_nothing_swept_is_probe_blind(tmp_path: Path, capsys: Any) -> None:
    (tmp_path / "blob.bin").write_bytes(b"\x00\x01" + AWS.encode())
    code, out, err = _scan(capsys, str(tmp_path), str(tmp_path / "absent"))
    assert code == 4
    assert "swept 0 files (2 skipped)" in out
    assert "NOTHING SWEPT" in err and "(binary)" in err
    assert AWS not in out + err


def test_kill_switch_is_probe_blind(
    planted: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENTOPS_DISABLED", "1")
    code, out, _ = _scan(capsys, str(planted))
    assert (code, out) == (4, "disabled by AGENTOPS_DISABLED\n")


def test_scan_end_to_end_in_a_subprocess(planted: Path) -> None:
    done = run_cli("scan-secrets", str(planted))
    assert done.returncode == 3
    assert AWS not in done.stdout + done.stderr
    assert run_cli("scan-secrets").returncode == 2  # PATH is required


def test_redact_stdin_and_files(tmp_path: Path) -> None:
    done = run_cli("redact", stdin=f"key {AWS} end\n")
    assert (done.returncode, done.stdout) == (0, "key [redacted:aws-key] end\n")
    note = tmp_path / "note.txt"
    note.write_text(f"x {AWS}\n", encoding="utf-8")
    done = run_cli("redact", "--json", str(note))
    assert done.returncode == 0
    assert json.loads(done.stdout) == {
        "files": [{"path": str(note), "text": "x [redacted:aws-key]\n", "shapes": ["aws-key"]}]
    }


def test_redact_unreadable_input_is_probe_blind(tmp_path: Path) -> None:
    blob = tmp_path / "blob.bin"
    blob.write_bytes(b"\x00" + AWS.encode())
    done = run_cli("redact", str(blob))
    assert done.returncode == 4
    assert "NOTHING READ" in done.stderr and AWS not in done.stdout + done.stderr


def test_redact_ignores_the_kill_switch() -> None:
    done = run_cli("redact", stdin=AWS, env={"AGENTOPS_DISABLED": "1"})
    assert (done.returncode, done.stdout) == (0, "[redacted:aws-key]")


@pytest.mark.parametrize("kind", ["fifo", "directory", "not utf-8", "link to a fifo"])
def test_a_baseline_that_is_not_a_readable_text_file_is_refused_at_once(
    planted: Path, tmp_path_factory: pytest.TempPathFactory, capsys: Any, kind: str
) -> None:
    baseline = tmp_path_factory.mktemp("baseline") / "b.json"
    if kind == "directory":
        baseline.mkdir()
    elif kind == "not utf-8":
        baseline.write_bytes(b"\xff\xfe{}")
    else:
        fifo = baseline.with_name("fifo") if kind == "link to a fifo" else baseline
        os.mkfifo(fifo)  # no writer: a blocking open would hang the command here
        if fifo != baseline:
            baseline.symlink_to(fifo)
    why = {"not utf-8": "not UTF-8"}.get(kind, "not a regular file")
    for update in ([], ["--update-baseline"]):
        code, out, err = _scan(capsys, "--baseline", str(baseline), *update, str(planted))
        assert (code, out) == (2, "") and err.strip().endswith(f"cannot be read: {why}")


def test_the_scan_walk_is_the_shared_walk(tmp_path: Path, capsys: Any) -> None:
    (tmp_path / "a.txt").write_text("clean\n", encoding="utf-8")
    (tmp_path / "link.txt").symlink_to(tmp_path / "a.txt")
    os.mkfifo(tmp_path / "pipe")
    code, out, _ = _scan(capsys, "--json", str(tmp_path))
    doc = json.loads(out)
    assert code == 0 and doc["swept"] == 1
    assert sorted((os.path.basename(s["path"]), s["reason"]) for s in doc["skipped"]) == [
        ("link.txt", "not a regular file"),
        ("pipe", "not a regular file"),
    ]


def test_a_fifo_named_as_the_fingerprint_key_file_is_refused_at_once(
    planted: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    fifo = tmp_path_factory.mktemp("key") / "fingerprint.key"
    os.mkfifo(fifo)  # no writer: a blocking open would hang the command here
    done = run_cli(
        "scan-secrets", str(planted), env={"AGENTOPS_FINGERPRINT_KEY_FILE": str(fifo)}, timeout=30
    )
    assert done.returncode == 3 and "fingerprints match only within this run" in done.stderr
    assert fifo.is_fifo() and not fifo.is_symlink()  # not replaced, not written through


def test_the_key_file_is_read_through_a_link_and_only_when_small(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agentops.cli import _baseline

    real = tmp_path / "real.key"
    real.write_text(KEY.hex() + "\n", encoding="ascii")
    link = tmp_path / "link.key"
    link.symlink_to(real)
    monkeypatch.setenv("AGENTOPS_FINGERPRINT_KEY_FILE", str(link))
    assert _baseline.machine_key() == (KEY, True)
    real.write_text(KEY.hex() + " " * 4096 + "\n", encoding="ascii")  # past the 4096-byte cap
    key, kept = _baseline.machine_key()
    assert not kept and key != KEY


def test_a_kept_key_is_used_from_16_bytes_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agentops.cli import _baseline

    key_file = tmp_path / "fingerprint.key"
    monkeypatch.setenv("AGENTOPS_FINGERPRINT_KEY_FILE", str(key_file))
    key_file.write_text(KEY[:16].hex() + "\n", encoding="ascii")
    assert _baseline.machine_key() == (KEY[:16], True)
    key_file.write_text(KEY[:15].hex() + "\n", encoding="ascii")  # too short to trust
    assert _baseline.machine_key()[1] is False
