"""Agent transcripts (JSON lines) and keyed fingerprints in `scan-secrets`,
`hidden-chars` and `redact` (agentops/cli/_transcript.py, _secret_scan.py, _baseline.py)."""

from __future__ import annotations

import errno
import hashlib
import hmac
import io
import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import ROOT, run_cli

from agentops.cli import _baseline, _common, _transcript, main

AWS = "AKIA" + "IOSFODNN7EXAMPLE"  # built at run time: this file stays clean
ZWSP = "\u200b"
KEY = bytes(range(32))


def keyed(value: str, key: bytes = KEY) -> str:
    return hmac.new(key, value.encode(), hashlib.sha256).hexdigest()[:8]


@pytest.fixture(autouse=True)
def _known_key(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    key_file = tmp_path_factory.mktemp("key") / "fingerprint.key"
    key_file.write_text(KEY.hex() + "\n", encoding="ascii")
    monkeypatch.setenv("AGENTOPS_FINGERPRINT_KEY_FILE", str(key_file))
    monkeypatch.delenv("AGENTOPS_DISABLED", raising=False)


def scan(capsys: Any, *args: str) -> tuple[int, str, str]:
    code = main(["scan-secrets", "--jobs", "1", *args])
    out, err = capsys.readouterr()
    return code, out, err


def record(*content: Any) -> str:
    """One transcript line in the shape coding agents write."""
    return json.dumps({"type": "user", "message": {"role": "user", "content": list(content)}})


def tool_result(text: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": "toolu_1", "content": text}


# ---------------------------------------------------------------- scan-secrets on transcripts


def test_key_inside_an_escaped_tool_result_is_found_by_json_path(
    tmp_path: Path, capsys: Any
) -> None:
    inner = json.dumps({"env": {"AWS_ACCESS_KEY_ID": AWS}})  # a tool result holding JSON
    session = tmp_path / "session.jsonl"
    lines = [
        record({"type": "text", "text": "hello"}),
        record(
            {"type": "text", "text": "run env"}, {"type": "text", "text": "ok"}, tool_result(inner)
        ),
    ]
    session.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert '\\"' in session.read_text()  # the key sits inside an escaped string
    code, out, err = scan(capsys, str(session))
    assert code == 3
    assert f"{session}:2:message.content[2].content aws-key fp={keyed(AWS)}" in out.splitlines()
    assert AWS not in out + err


def test_unicode_escapes_are_decoded_before_scanning(tmp_path: Path, capsys: Any) -> None:
    escaped = "".join(f"\\u{ord(ch):04x}" for ch in AWS)  # not one letter of it in the raw line
    session = tmp_path / "s.ndjson"
    session.write_text('{"text": "' + escaped + '"}\n', encoding="utf-8")
    assert AWS not in session.read_text()
    code, out, _ = scan(capsys, str(session))
    assert code == 3 and f"{session}:1:text aws-key" in out


def test_json_output_names_the_json_path(tmp_path: Path, capsys: Any) -> None:
    session = tmp_path / "s.jsonl"
    session.write_text(record({"type": "text", "text": f"key {AWS}"}) + "\n", encoding="utf-8")
    code, out, _ = scan(capsys, "--json", str(session))
    assert code == 3
    assert json.loads(out)["findings"] == [
        {
            "path": str(session),
            "line": 1,
            "column": 5,
            "shape": "aws-key",
            "fingerprint": keyed(AWS),
            "json_path": "message.content[0].text",
        }
    ]


def test_a_line_that_is_not_json_is_scanned_as_text_and_counted(
    tmp_path: Path, capsys: Any
) -> None:
    session = tmp_path / "s.jsonl"
    session.write_text(
        record({"type": "text", "text": "fine"}) + "\n" + '{"truncated": "' + AWS + "\n" + "\n",
        encoding="utf-8",
    )
    code, out, _ = scan(capsys, str(session))
    assert code == 3
    assert f"{session}:2:16 aws-key fp={keyed(AWS)}" in out.splitlines()
    assert "1 transcript line(s) not JSON, scanned as text" in out


def test_nesting_past_the_parser_is_scanned_as_text(tmp_path: Path, capsys: Any) -> None:
    depth = 100_000
    session = tmp_path / "deep.jsonl"
    session.write_text("[" * depth + json.dumps(AWS) + "]" * depth + "\n", encoding="utf-8")
    code, out, _ = scan(capsys, str(session))
    assert code == 3
    assert f"{session}:1:{depth + 2} aws-key" in out
    assert "1 transcript line(s) not JSON" in out


def test_a_huge_line_is_read(tmp_path: Path, capsys: Any) -> None:
    session = tmp_path / "big.jsonl"
    filler = "word " * 1_000_000  # a 5 MB string
    session.write_text(json.dumps({"text": filler + AWS}) + "\n", encoding="utf-8")
    code, out, _ = scan(capsys, str(session))
    assert code == 3 and f"{session}:1:text aws-key" in out


def test_a_transcript_is_read_past_the_whole_file_cap(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_common, "MAX_FILE_BYTES", 1000)  # sessions grow past any file cap
    body = "".join(json.dumps({"n": index}) + "\n" for index in range(200))
    (tmp_path / "long.jsonl").write_text(body + json.dumps({"t": AWS}) + "\n", "utf-8")
    (tmp_path / "long.txt").write_text(body + AWS + "\n", "utf-8")
    code, out, err = scan(capsys, str(tmp_path))
    assert code == 3 and AWS not in out + err
    assert f"{tmp_path / 'long.jsonl'}:201:t aws-key" in out
    assert "skipped by kind: larger than 1000 bytes 1" in out  # the plain file still is


def test_a_line_over_the_line_cap_is_skipped_and_named(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_transcript, "MAX_LINE_BYTES", 100)
    session = tmp_path / "s.jsonl"
    session.write_text(
        json.dumps({"big": "x" * 500 + AWS}) + "\n" + json.dumps({"t": AWS}) + "\n", "utf-8"
    )
    code, out, err = scan(capsys, str(session))
    assert code == 3 and f"{session}:2:t aws-key" in out and f"{session}:1:" not in out
    assert f"skipped: {session}:1 (line larger than 100 bytes)" in err
    assert "swept 1 files (1 skipped)" in out


def test_a_line_that_is_not_utf8_is_read_with_replacement_and_counted(
    tmp_path: Path, capsys: Any
) -> None:
    session = tmp_path / "s.jsonl"
    session.write_bytes(b'{"a": "caf\xe9 ' + AWS.encode() + b'"}\n{"b": 1}\n')
    code, out, _ = scan(capsys, str(session))
    assert code == 3 and f"{session}:1:a aws-key" in out
    assert "1 transcript line(s) not UTF-8, read with replacement" in out


def test_file_lines_counts_bytes_and_drops_a_leading_bom(tmp_path: Path) -> None:
    session = tmp_path / "s.jsonl"
    session.write_bytes("\ufeff{}\r\n\n[1]".encode())
    source = _transcript.FileLines(str(session))
    assert source.problem() is None
    assert list(source) == [(1, "{}\r"), (2, ""), (3, "[1]")]
    assert source.size == len("\ufeff{}\r\n\n[1]".encode())
    assert _transcript.FileLines(str(tmp_path / "missing.jsonl")).problem().startswith("unreadable")


def test_binary_file_with_a_transcript_name_is_skipped_and_counted(
    tmp_path: Path, capsys: Any
) -> None:
    (tmp_path / "blob.jsonl").write_bytes(b"\x00\x01" + AWS.encode())
    code, out, err = scan(capsys, str(tmp_path))
    assert code == 4
    assert "swept 0 files (1 skipped)" in out and "skipped by kind: binary 1" in out
    assert "NOTHING SWEPT" in err and AWS not in out + err


def test_duplicate_keys_are_all_scanned(tmp_path: Path, capsys: Any) -> None:
    session = tmp_path / "dup.jsonl"
    session.write_text('{"text": "' + AWS + '", "text": "clean"}\n', encoding="utf-8")
    assert json.loads(session.read_text()) == {"text": "clean"}  # what a naive reader sees
    code, out, _ = scan(capsys, str(session))
    assert code == 3 and f"{session}:1:text aws-key" in out


def test_a_secret_in_a_key_is_found_and_the_path_shows_its_position(
    tmp_path: Path, capsys: Any
) -> None:
    session = tmp_path / "keys.jsonl"
    session.write_text(json.dumps({"env": {"plain": "x", AWS: "value"}}) + "\n", encoding="utf-8")
    code, out, err = scan(capsys, str(session))
    assert code == 3
    assert f"{session}:1:env.<key 1> aws-key fp={keyed(AWS)}" in out.splitlines()
    assert AWS not in out + err


def test_allow_comment_inside_a_string_suppresses(tmp_path: Path, capsys: Any) -> None:
    session = tmp_path / "s.jsonl"
    session.write_text(json.dumps({"text": f"{AWS} agentops: allow-secret"}) + "\n", "utf-8")
    code, out, _ = scan(capsys, str(session))
    assert code == 0 and "0 finding(s), 1 suppressed" in out


def test_other_json_files_are_still_plain_text(tmp_path: Path, capsys: Any) -> None:
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"key": AWS}) + "\n", encoding="utf-8")
    code, out, _ = scan(capsys, str(config))
    assert code == 3 and f"{config}:1:10 aws-key" in out


# ---------------------------------------------------------------- hidden-chars on transcripts


def test_hidden_chars_decodes_escapes_and_names_the_json_path(tmp_path: Path, capsys: Any) -> None:
    session = tmp_path / "s.jsonl"
    session.write_text(record({"type": "text", "text": f"be{ZWSP}nign"}) + "\n", encoding="utf-8")
    assert ZWSP not in session.read_text()  # json.dumps wrote it as \u200b
    assert main(["hidden-chars", str(session)]) == 3
    out = capsys.readouterr().out
    assert (
        f"{session}:1:message.content[0].text U+200B zero_width ZERO WIDTH SPACE"
        in out.splitlines()
    )
    assert main(["hidden-chars", "--json", str(session)]) == 3
    found = json.loads(capsys.readouterr().out)["files"][0]["findings"][0]
    assert found["line"] == 1 and found["json_path"] == "message.content[0].text"
    assert (found["string_line"], found["string_column"], found["codepoint"]) == (1, 3, 0x200B)


def test_hidden_chars_counts_lines_that_are_not_json(tmp_path: Path, capsys: Any) -> None:
    session = tmp_path / "s.jsonl"
    session.write_text(f'{{"a": 1}}\nnot json{ZWSP}\n', encoding="utf-8")
    assert main(["hidden-chars", str(session)]) == 3
    out = capsys.readouterr().out
    assert f"{session}:2:9 U+200B zero_width ZERO WIDTH SPACE" in out
    assert "1 transcript line(s) not JSON, scanned as text" in out


def test_hidden_chars_in_a_key_is_found_and_not_printed(tmp_path: Path, capsys: Any) -> None:
    session = tmp_path / "s.jsonl"
    session.write_text(json.dumps({f"ke{ZWSP}y": 1}) + "\n", encoding="utf-8")
    assert main(["hidden-chars", str(session)]) == 3
    assert f"{session}:1:<key 0> U+200B" in capsys.readouterr().out


# ---------------------------------------------------------------- redact on transcripts


def test_redacted_transcript_still_parses_line_by_line(tmp_path: Path) -> None:
    inner = json.dumps({"AWS_ACCESS_KEY_ID": AWS})
    session = tmp_path / "s.jsonl"
    lines = [
        record({"type": "text", "text": f"key {AWS}"}),
        record(tool_result(inner)),
        "not json " + AWS,
        "",
        json.dumps({AWS: "in a key", "n": 1, "ok": True, "none": None}),
    ]
    session.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = run_cli("redact", str(session))
    assert done.returncode == 0, done.stderr
    assert AWS not in done.stdout + done.stderr
    out = done.stdout.split("\n")
    assert len(out) == len(lines) + 1
    first = json.loads(out[0])
    assert first["message"]["content"][0]["text"] == "key [redacted:aws-key]"
    second = json.loads(out[1])
    assert json.loads(second["message"]["content"][0]["content"]) == {
        "AWS_ACCESS_KEY_ID": "[redacted:aws-key]"
    }
    assert out[2] == "not json [redacted:aws-key]" and out[3] == ""
    assert json.loads(out[4]) == {
        "[redacted:aws-key]": "in a key",
        "n": 1,
        "ok": True,
        "none": None,
    }
    done = run_cli("redact", "--json", str(session))
    assert json.loads(done.stdout)["files"][0]["shapes"].count("aws-key") == 4


# ---------------------------------------------------------------- the JSON walk


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children) | st.dictionaries(st.text(), children),
    max_leaves=30,
)


def _all_strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for item in value for s in _all_strings(item)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *_all_strings(v)]]
    return []


@given(json_values)
def test_the_walk_yields_every_string_and_key_in_document_order(value: Any) -> None:
    walked = list(_transcript.strings(value))
    assert [item.text for item in walked] == _all_strings(value)
    parsed, again = _transcript.parse_line(json.dumps(value))
    assert parsed and [item.text for item in _transcript.strings(again)] == _all_strings(value)


@given(st.text())
def test_parsing_any_line_never_raises(line: str) -> None:
    parsed, value = _transcript.parse_line(line)
    assert parsed or value is None


def test_paths_for_lists_objects_and_odd_keys() -> None:
    value = {"a": [{"b": "x"}, ["y"]], "two words": "z", "k": {"": "w"}}
    assert [(i.path, i.text, i.is_key) for i in _transcript.strings(value)] == [
        ("a", "a", True),
        ("a[0].b", "b", True),
        ("a[0].b", "x", False),
        ("a[1][0]", "y", False),
        ("<key 1>", "two words", True),
        ("<key 1>", "z", False),
        ("k", "k", True),
        ("k.<key 0>", "", True),
        ("k.<key 0>", "w", False),
    ]
    assert [i.path for i in _transcript.strings("top")] == ["$"]
    assert [i.path for i in _transcript.strings(["a", ["b"]])] == ["[0]", "[1][0]"]


def test_plain_keys() -> None:
    assert _transcript.plain_key("tool_use_id") and _transcript.plain_key("x-request-id")
    assert _transcript.plain_key("a" * 64) and not _transcript.plain_key("a" * 65)
    for odd in ("", "1abc", "a.b", "a b", "a[0]", 'a"', "caf\u00e9", "a\n"):
        assert not _transcript.plain_key(odd), odd


def test_is_transcript() -> None:
    assert _transcript.is_transcript("a/b.jsonl") and _transcript.is_transcript("X.NDJSON")
    assert not _transcript.is_transcript("a.json") and not _transcript.is_transcript("jsonl")


def test_dump_line_falls_back_to_ascii_for_a_lone_surrogate() -> None:
    assert _transcript.dump_line({"a": "caf\u00e9"}) == '{"a": "caf\u00e9"}'
    assert _transcript.dump_line({"a": "\ud800"}) == '{"a": "\\ud800"}'


# ---------------------------------------------------------------- keyed fingerprints


def test_fingerprint_is_keyed_not_a_plain_hash(tmp_path: Path, capsys: Any) -> None:
    note = tmp_path / "n.txt"
    note.write_text(f"{AWS}\n", encoding="utf-8")
    code, out, _ = scan(capsys, str(note))
    assert code == 3
    unkeyed = hashlib.sha256(AWS.encode()).hexdigest()
    assert f"fp={keyed(AWS)}" in out and unkeyed[:8] not in out


def test_a_dictionary_of_guesses_cannot_be_confirmed_without_the_key(
    tmp_path: Path, capsys: Any
) -> None:
    password = "sunshine1"  # a dictionary word with a digit, as people choose them
    value = "postgres" + "://app:" + password + "@db.internal:5432/prod"
    note = tmp_path / "n.txt"
    note.write_text(value + "\n", encoding="utf-8")
    code, out, _ = scan(capsys, str(note))
    assert code == 3
    printed = out.split("fp=")[1].split()[0]
    guesses = ["password1", "letmein12", password, "dragon123"]
    for guess in guesses:  # no unkeyed hash of any guess, or of the whole value, matches
        for candidate in (guess, value.replace(password, guess)):
            assert hashlib.sha256(candidate.encode()).hexdigest()[:8] != printed


def test_machine_key_is_created_once_private_and_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key_file = tmp_path / "home" / ".agentops" / "fingerprint.key"
    monkeypatch.delenv("AGENTOPS_FINGERPRINT_KEY_FILE")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert _baseline.key_file() == str(key_file)
    first, kept = _baseline.machine_key()
    assert kept and key_file.exists() and len(first) == 32
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert _baseline.machine_key() == (first, True)
    key_file.write_text("not hex\n")  # a damaged key file is replaced by nothing: per-run key
    other, kept = _baseline.machine_key()
    assert not kept and other != first


def test_key_that_cannot_be_kept_is_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    if os.geteuid() == 0:
        blocker = tmp_path / "file"
        blocker.write_text("x")
        monkeypatch.setenv("AGENTOPS_FINGERPRINT_KEY_FILE", str(blocker / "sub" / "key"))
    else:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        monkeypatch.setenv("AGENTOPS_FINGERPRINT_KEY_FILE", str(locked / "key"))
    note = tmp_path / "n.txt"
    note.write_text(f"{AWS}\n", encoding="utf-8")
    code, out, err = scan(capsys, str(note))
    assert code == 3 and "fp=" in out and "fingerprints match only within this run" in err


def test_fingerprint_function() -> None:
    assert _baseline.fingerprint(KEY, AWS) == keyed(AWS)
    assert _baseline.fingerprint(b"other key", AWS) != keyed(AWS)
    assert len(_baseline.fingerprint(KEY, "\udc80")) == 8  # lone surrogate: no crash


def test_file_lines_limits(tmp_path: Path) -> None:
    assert _transcript.MAX_LINE_BYTES == 64 * 1024 * 1024  # the documented per-line cap
    session = tmp_path / "s.jsonl"
    long_line = b"x" * (2 * 1024 * 1024 + 5) + b"\n"  # past the cap and past one read chunk
    session.write_bytes(b"[1]\n" + long_line + b"[2]\n" + b"y" * 10)
    source = _transcript.FileLines(str(session), max_line_bytes=10)
    assert list(source) == [(1, "[1]"), (3, "[2]"), (4, "y" * 10)]  # exactly the cap: read
    assert source.too_large == [2]
    assert source.size == session.stat().st_size
    missing = _transcript.FileLines(str(tmp_path / "missing.jsonl")).problem()
    assert missing == "unreadable: missing"  # the reason `_common.read_text_file` gives
    (tmp_path / "b.jsonl").write_bytes(b"{}\n" * 10 + b"\x00")
    assert _transcript.FileLines(str(tmp_path / "b.jsonl")).problem() == "binary"


def test_a_record_that_is_one_string_is_a_value_not_a_key() -> None:
    assert list(_transcript.strings("top")) == [_transcript.JsonString("$", "top", False)]


def test_plain_text_positions_after_leading_blank_lines(tmp_path: Path, capsys: Any) -> None:
    note = tmp_path / "n.txt"
    note.write_text(f"\n\nx {AWS}", encoding="utf-8")  # no final newline
    code, out, _ = scan(capsys, "--json", str(note))
    assert code == 3
    document = json.loads(out)
    assert [(f["line"], f["column"]) for f in document["findings"]] == [(3, 3)]
    assert document["transcript_lines_not_json"] == 0
    assert document["transcript_lines_not_utf8"] == 0


def test_an_unexpected_error_skips_the_file_and_names_it(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agentops.cli import _secret_scan

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom")

    note = tmp_path / "n.txt"
    note.write_text(f"{AWS}\n", encoding="utf-8")
    monkeypatch.setattr(_secret_scan, "scan_text", broken)
    result = _secret_scan.scan_file(str(note), KEY)
    assert result.swept is False and result.findings == ()
    assert result.skipped == (_common.Skipped(str(note), "scan error: RuntimeError"),)
    code, out, err = scan(capsys, str(note))
    assert code == 4 and "skipped by kind: scan error 1" in out and AWS not in out + err


# ------------------------------------------- a transcript is opened once, never waited on


def in_a_fresh_interpreter(code: str, *args: str) -> str:
    """stdout of `code` run by a fresh interpreter that must finish within 30 s: an open
    that blocks (a FIFO with no writer) fails the test instead of hanging the suite."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
        check=True,
    )
    return done.stdout


def test_a_fifo_swapped_in_for_a_transcript_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "session.jsonl"
    os.mkfifo(fifo)  # no writer: a blocking open would hang here (the walk saw a file)
    shown = in_a_fresh_interpreter(
        "import sys\n"
        "from agentops.cli import _common, _secret_scan, _transcript\n"
        "print(_transcript.FileLines(sys.argv[1]).problem())\n"
        "try:\n"
        "    list(_transcript.FileLines(sys.argv[1]))\n"
        "except _common.FileNotRead as exc:\n"
        "    print(exc)\n"
        "result = _secret_scan.scan_file(sys.argv[1], bytes(32))\n"
        "print(result.swept, [skip.reason for skip in result.skipped])\n",
        str(fifo),
    )
    assert shown.splitlines() == [
        "not a regular file",
        "not a regular file",
        "False ['not a regular file']",
    ]


def test_the_transcript_probed_is_the_transcript_streamed(tmp_path: Path) -> None:
    session = tmp_path / "s.jsonl"
    session.write_text('{"a": 1}\n', encoding="utf-8")
    source = _transcript.FileLines(str(session))
    assert source.problem() is None and source.problem() is None  # asking twice is the same
    session.unlink()  # replaced between the probe and the read
    session.write_bytes(b"\x00 another file\n")
    assert list(source) == [(1, '{"a": 1}')]


def test_a_linked_transcript_named_on_the_command_line_is_followed(
    tmp_path: Path, capsys: Any
) -> None:
    session = tmp_path / "real.jsonl"
    session.write_text(record({"type": "text", "text": AWS}) + "\n", encoding="utf-8")
    link = tmp_path / "link.jsonl"
    link.symlink_to(session)
    source = _transcript.FileLines(str(link))
    assert source.problem() is None and len(list(source)) == 1
    code, out, _ = scan(capsys, str(link))
    assert code == 3 and "aws-key" in out


def test_a_line_one_byte_over_the_cap_is_skipped_newline_and_all(tmp_path: Path) -> None:
    session = tmp_path / "s.jsonl"
    session.write_bytes(b"x" * 11 + b"\n" + b"[1]\n")
    source = _transcript.FileLines(str(session), max_line_bytes=10)
    assert list(source) == [(2, "[1]")] and source.too_large == [1]


def test_a_read_error_while_probing_is_unreadable_and_closes_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class FailingRead(io.BytesIO):
        def read(self, size: int | None = -1) -> bytes:
            raise OSError(errno.EIO, "Input/output error")

    handle = FailingRead(b"{}\n")
    monkeypatch.setattr(_transcript.FileLines, "_open", lambda self: handle)
    assert _transcript.FileLines(str(tmp_path / "s.jsonl")).problem() == (
        "unreadable: Input/output error"
    )
    assert handle.closed
