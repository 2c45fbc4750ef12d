"""The rules every command shares: exit codes, reading files, the kill switch."""

from __future__ import annotations

import argparse
import ast
import errno
import io
import os
import stat
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import run_cli

from agentops import cli
from agentops.cli import _common


def _sweep(*paths: Path) -> tuple[list[str], list[_common.Skipped], _common.Sweep]:
    sweep = _common.Sweep(str(p) for p in paths)
    read = [os.path.basename(f.path) for f in sweep]
    return read, sweep.skipped, sweep


def test_sweep_reads_text_and_counts_what_it_skips(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello\n", encoding="utf-8")
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbfwith bom")
    (tmp_path / "bin.dat").write_bytes(b"abc\x00def")
    (tmp_path / "latin.txt").write_bytes(b"caf\xe9")
    (tmp_path / "link.txt").symlink_to(tmp_path / "a.txt")
    for skipped_dir in (".git", "node_modules", "__pycache__", "env"):
        (tmp_path / skipped_dir).mkdir()
        (tmp_path / skipped_dir / "x.txt").write_text("x", encoding="utf-8")
    (tmp_path / "env" / "pyvenv.cfg").write_text("home = x", encoding="utf-8")
    read, skipped, sweep = _sweep(tmp_path)
    assert read == ["a.txt", "bom.txt"]
    reasons = sorted((os.path.basename(s.path), s.reason) for s in skipped)
    assert reasons == [
        ("bin.dat", "binary"),
        ("latin.txt", "not UTF-8"),
        ("link.txt", "not a regular file"),
    ]
    assert sweep.summary() == "swept 2 files (3 skipped)"


def test_sweep_strips_bom_and_reads_a_file_path_directly(tmp_path: Path) -> None:
    target = tmp_path / "bom.txt"
    target.write_bytes(b"\xef\xbb\xbfbody")
    sweep = _common.Sweep([str(target)])
    assert [f.text for f in sweep] == ["body"]
    assert [f.text for f in _common.Sweep([str(target)], keep_bom=True)] == ["\ufeffbody"]
    assert _common.read_text_file(str(target), keep_bom=True) == "\ufeffbody"
    assert _common.read_text_file(str(target)) == "body"


def test_sweep_binary_probe_looks_only_at_the_first_8_kib(tmp_path: Path) -> None:
    late_nul = tmp_path / "late.txt"
    late_nul.write_bytes(b"a" * _common.BINARY_PROBE_BYTES + b"\x00")
    early_nul = tmp_path / "early.txt"
    early_nul.write_bytes(b"a" * (_common.BINARY_PROBE_BYTES - 1) + b"\x00")
    read, skipped, _ = _sweep(late_nul, early_nul)
    assert read == ["late.txt"]
    assert [s.reason for s in skipped] == ["binary"]


def test_sweep_missing_path_and_unreadable_file_are_skipped(tmp_path: Path) -> None:
    secret = tmp_path / "locked.txt"
    secret.write_text("x", encoding="utf-8")
    secret.chmod(0)
    read, skipped, sweep = _sweep(tmp_path / "absent", secret)
    if os.geteuid() != 0:  # root reads mode-0 files
        assert read == []
        assert len(skipped) == 2
    assert any(s.reason.startswith("cannot stat") for s in skipped)
    assert sweep.swept == len(read)


def test_sweep_skips_files_over_the_size_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_common, "MAX_FILE_BYTES", 10)
    (tmp_path / "big.txt").write_text("x" * 11, encoding="utf-8")
    (tmp_path / "ok.txt").write_text("x" * 10, encoding="utf-8")
    read, skipped, _ = _sweep(tmp_path)
    assert read == ["ok.txt"]
    assert [s.reason for s in skipped] == ["larger than 10 bytes"]


def test_read_memory_dir_follows_the_memory_rule(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").write_text("# index\n", encoding="utf-8")
    (tmp_path / "b_fact.MD").write_bytes(b"\xef\xbb\xbfbad \xff byte")
    (tmp_path / "notes.txt").write_text("ignored", encoding="utf-8")
    (tmp_path / "dir.md").mkdir()
    (tmp_path / "link.md").symlink_to(tmp_path / "MEMORY.md")
    found = _common.read_memory_dir(str(tmp_path))
    assert found.listed is True
    assert found.files == (
        ("MEMORY.md", "# index\n"),
        ("b_fact.MD", "bad \ufffd byte"),
        ("dir.md", None),
        ("link.md", None),
    )
    assert found.skipped == (
        _common.SkippedEntry("dir.md", "not a regular file"),
        _common.SkippedEntry("link.md", "symbolic link, not followed"),
    )
    assert found.not_regular == {"dir.md", "link.md"}
    absent = _common.read_memory_dir(str(tmp_path / "absent"))
    assert absent == _common.MemoryDir((), (), frozenset(), False)


def test_read_memory_dir_caps_each_file_from_its_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_common, "MAX_FILE_BYTES", 10)
    (tmp_path / "at_cap.md").write_bytes(b"x" * 10)
    (tmp_path / "over_cap.md").write_bytes(b"x" * 11)
    found = _common.read_memory_dir(str(tmp_path))
    assert found.files == (("at_cap.md", "x" * 10), ("over_cap.md", None))
    why = "too large to read (11 bytes, limit 10)"
    assert found.skipped == (_common.SkippedEntry("over_cap.md", why),)
    assert found.not_regular == frozenset()  # a regular file, only not read


def test_read_memory_dir_refuses_a_file_grown_past_the_cap_after_listing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_common, "MAX_FILE_BYTES", 10)
    (tmp_path / "grew.md").write_bytes(b"x" * 11)
    monkeypatch.setattr(_common, "_entry_refusal", lambda path: (True, ""))  # small when listed
    found = _common.read_memory_dir(str(tmp_path))
    assert found.files == (("grew.md", None),)
    assert found.skipped == (_common.SkippedEntry("grew.md", "larger than 10 bytes"),)


def test_read_memory_dir_entry_gone_before_its_lstat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "gone.md").write_text("x", encoding="utf-8")
    monkeypatch.setattr(os, "listdir", lambda folder: ["gone.md", "never.md"])
    found = _common.read_memory_dir(str(tmp_path))
    assert found.files == (("gone.md", "x"), ("never.md", None))
    assert found.skipped == (_common.SkippedEntry("never.md", "unreadable: missing"),)
    assert found.not_regular == {"never.md"}


def _swapped_in_after_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every entry looks like a regular file when listed, whatever it is when opened."""
    monkeypatch.setattr(_common, "_entry_refusal", lambda path: (True, ""))


def test_read_memory_dir_never_follows_or_waits_on_a_swapped_in_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("outside", encoding="utf-8")
    (tmp_path / "fact.md").symlink_to(target)
    os.mkfifo(tmp_path / "pipe.md")  # no writer: a blocking open would hang here
    _swapped_in_after_listing(monkeypatch)
    found = _common.read_memory_dir(str(tmp_path))
    assert found.files == (("fact.md", None), ("pipe.md", None))
    (link, fifo) = found.skipped
    assert link.name == "fact.md" and link.reason.startswith("unreadable: ")
    assert fifo == _common.SkippedEntry("pipe.md", "not a regular file")


def test_printable_escapes_line_breaks_and_unencodable_text() -> None:
    class Ascii:
        encoding = "ascii"

    assert _common.printable("a\nb\rc", Ascii()) == "a\\nb\\rc"
    assert _common.printable("caf\u00e9 \udcff", Ascii()) == "caf\\xe9 \\udcff"


def test_as_json_expands_named_tuples_and_tuples() -> None:
    inner = _common.Skipped("p", "why")
    assert _common.as_json({"k": (inner, [1, (2,)])}) == {
        "k": [{"path": "p", "reason": "why"}, [1, [2]]]
    }


def test_kill_switch_only_on_exactly_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTOPS_DISABLED", "1")
    assert _common.disabled()
    monkeypatch.setenv("AGENTOPS_DISABLED", "0")
    assert not _common.disabled()
    monkeypatch.delenv("AGENTOPS_DISABLED")
    assert not _common.disabled()


def _fake_command(behaviour: Any, crash_exit: int | None = None) -> Any:
    def register(commands: Any, hooks: Any) -> None:
        parser = commands.add_parser("fake")
        parser.set_defaults(run=behaviour)
        if crash_exit is not None:
            parser.set_defaults(crash_exit=crash_exit)

    return register


def _crash(args: Any) -> int:
    raise ZeroDivisionError("boom")


@pytest.mark.parametrize(
    ("behaviour", "crash_exit", "expected"),
    [
        (lambda args: 0, None, 0),
        (lambda args: 3, None, 3),
        (lambda args: 4, None, 4),
        (lambda args: 1, None, 2),  # 1 is never an answer
        (_crash, None, 2),
        (_crash, 4, 4),
        (lambda args: 1, 0, 0),
    ],
)
def test_dispatcher_never_returns_1(
    monkeypatch: pytest.MonkeyPatch,
    capsys: Any,
    behaviour: Any,
    crash_exit: int | None,
    expected: int,
) -> None:
    original = cli.build_parser

    def build() -> argparse.ArgumentParser:
        parser = original()
        commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        _fake_command(behaviour, crash_exit)(commands, None)
        return parser

    monkeypatch.setattr(cli, "build_parser", build)
    assert cli.main(["fake"]) == expected
    err = capsys.readouterr().err
    assert ("internal error: ZeroDivisionError: boom" in err) == (behaviour is _crash)


def test_usage_errors_exit_2_and_no_command_prints_help(capsys: Any) -> None:
    assert cli.main(["no-such-command"]) == 2
    assert cli.main([]) == 2
    assert "usage: agentops" in capsys.readouterr().err
    assert cli.main(["--help"]) == 0
    assert "selfcheck" in capsys.readouterr().out


def test_help_lists_every_command_file() -> None:
    listed = cli.build_parser().format_help()
    for name in cli._command_files():
        assert callable(__import__(f"agentops.cli.{name}", fromlist=["register"]).register)
    assert "selfcheck" in listed and "hook" in listed


def test_selfcheck_runs_from_a_plain_clone() -> None:
    done = run_cli("selfcheck")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines == [f"ok {name}" for name in __import__("agentops").MODULES]


def test_selfcheck_rejects_unknown_modules() -> None:
    done = run_cli("selfcheck", "no_such_module")
    assert done.returncode == 2
    assert "unknown module" in done.stderr


def test_selfcheck_reports_a_failing_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    import agentops
    from agentops.cli import selfcheck

    (tmp_path / "broken.py").write_text("raise SystemExit('boom')\n", encoding="utf-8")
    (tmp_path / "fine.py").write_text(
        "print('fine self-check: all assertions passed')\n", encoding="utf-8"
    )
    monkeypatch.setattr(agentops, "MODULES", ("broken", "fine"))
    monkeypatch.setattr(agentops, "__file__", str(tmp_path / "__init__.py"))
    assert selfcheck.run(argparse.Namespace(modules=[])) == 3
    assert capsys.readouterr().out.splitlines() == ["FAIL broken: boom", "ok fine"]
    assert selfcheck.run(argparse.Namespace(modules=["fine"])) == 0


def test_a_fail_open_hook_swallows_its_own_usage_errors(capsys: Any) -> None:
    assert cli.main(["hook", "post-tool-use", "--no-such-flag"]) == 0
    assert capsys.readouterr().out == ""
    assert cli.main(["hook", "pre-tool-use", "--no-such-flag"]) == 2  # fail-closed stays 2
    assert cli.main(["scan-secrets", "--no-such-flag", "."]) == 2


# ---------------------------------------------------------------------------
# The one reader


def _why_not_read(path: Path, *, limit: int | None = 64, follow_links: bool = False) -> str:
    with pytest.raises(_common.FileNotRead) as caught:
        _common.read_regular(str(path), limit=limit, follow_links=follow_links)
    return str(caught.value)


def test_read_regular_reads_a_regular_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "f"
    target.write_bytes(b"x" * 64)
    assert _common.read_regular(str(target), limit=64, follow_links=False) == b"x" * 64
    big = tmp_path / "big"
    big.write_bytes(b"y" * (3 << 20))  # several reads when there is no limit
    assert _common.read_regular(str(big), limit=None, follow_links=False) == b"y" * (3 << 20)


def test_read_regular_refuses_and_says_why(tmp_path: Path) -> None:
    target = tmp_path / "f"
    target.write_bytes(b"x" * 65)
    assert _why_not_read(target) == "larger than 64 bytes"
    assert _why_not_read(tmp_path / "absent") == "missing"
    assert _why_not_read(tmp_path) == "not a regular file"
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert _why_not_read(fifo) == "not a regular file"  # at once: never blocks on the FIFO
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "small")
    (tmp_path / "small").write_bytes(b"ok")
    assert _why_not_read(link).startswith("unreadable: ")  # a planted link is not read through
    assert _common.read_regular(str(link), limit=64, follow_links=True) == b"ok"


def test_read_regular_refuses_a_file_that_grew_after_fstat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "f"
    target.write_bytes(b"x" * 10)
    real_fstat = os.fstat

    def small_fstat(fd: int) -> Any:
        info = real_fstat(fd)
        return os.stat_result((info.st_mode, *info[1:6], 0, *info[7:10]))

    monkeypatch.setattr(os, "fstat", small_fstat)
    assert _why_not_read(target, limit=9) == "larger than 9 bytes"


def _open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else 0


def test_open_regular_hands_over_a_descriptor_or_closes_it(tmp_path: Path) -> None:
    target = tmp_path / "f"
    target.write_bytes(b"body")
    fd = _common.open_regular(str(target), follow_links=False)
    try:
        assert os.read(fd, 10) == b"body"
        assert os.get_inheritable(fd) is False  # O_CLOEXEC: no child inherits it
        assert os.get_blocking(fd) is False  # O_NONBLOCK
    finally:
        os.close(fd)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    before = _open_descriptors()
    for refused in (fifo, tmp_path):
        with pytest.raises(_common.FileNotRead, match=r"^not a regular file$") as caught:
            _common.open_regular(str(refused), follow_links=True)
        assert caught.value.errno is None  # there, but not acceptable
    assert _open_descriptors() == before  # a refused descriptor is closed


def test_open_regular_fstat_failure_closes_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "f"
    target.write_bytes(b"body")
    before = _open_descriptors()

    def broken(fd: int) -> Any:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fstat", broken)
    with pytest.raises(_common.FileNotRead, match=r"^unreadable: Input/output error$") as caught:
        _common.open_regular(str(target), follow_links=False)
    assert caught.value.errno == 5
    monkeypatch.undo()
    assert _open_descriptors() == before


def test_file_not_read_says_whether_the_system_refused(tmp_path: Path) -> None:
    with pytest.raises(_common.FileNotRead) as caught:
        _common.read_regular(str(tmp_path / "absent"), limit=None, follow_links=False)
    missing = caught.value
    assert (str(missing), missing.missing, missing.reason) == (
        "missing",
        True,
        "unreadable: missing",
    )
    assert missing.errno == errno.ENOENT
    link = tmp_path / "link"
    link.symlink_to(tmp_path)
    with pytest.raises(_common.FileNotRead) as caught:
        _common.read_regular(str(link), limit=None, follow_links=False)
    assert caught.value.errno == errno.ELOOP and not caught.value.missing
    assert caught.value.reason == str(caught.value)
    with pytest.raises(_common.FileNotRead) as caught:
        _common.read_regular(str(tmp_path), limit=None, follow_links=True)
    assert caught.value.errno is None and caught.value.reason == "not a regular file"


def test_walk_files_yields_regular_files_and_records_the_rest(tmp_path: Path) -> None:
    (tmp_path / "b.txt").write_text("b", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.txt").write_text("a", encoding="utf-8")
    (tmp_path / "link.txt").symlink_to(tmp_path / "b.txt")
    os.mkfifo(tmp_path / "pipe")
    skipped: list[_common.Skipped] = []
    walked = _common.walk_files(iter([str(tmp_path), str(tmp_path / "absent")]), skipped)
    assert [os.path.relpath(p, tmp_path) for p in walked] == ["b.txt", os.path.join("sub", "a.txt")]
    reasons = [(os.path.basename(s.path), s.reason) for s in skipped]
    assert reasons == [
        ("link.txt", "not a regular file"),
        ("pipe", "not a regular file"),
        ("absent", "cannot stat: No such file or directory"),
    ]


def test_loads_strict_refuses_duplicates_and_constants() -> None:
    assert _common.loads_strict('{"a": {"b": 1}}') == {"a": {"b": 1}}
    with pytest.raises(ValueError, match="duplicated key 'b'"):
        _common.loads_strict('{"a": {"b": 1, "b": 2}}')
    with pytest.raises(ValueError, match="NaN is not JSON"):
        _common.loads_strict("[NaN]")


# ---------------------------------------------------------------------------
# The one appender


def _why_not_written(path: Path, payload: bytes = b"row\n", **options: Any) -> str:
    options.setdefault("follow_links", False)
    with pytest.raises(_common.FileNotWritten) as caught:
        _common.append_record(str(path), payload, mode=0o600, **options)
    return str(caught.value)


def test_append_record_creates_with_the_callers_mode_and_appends(tmp_path: Path) -> None:
    for mode in (0o600, 0o644):
        target = tmp_path / f"log-{mode:o}"
        _common.append_record(str(target), b"one\n", mode=mode, follow_links=False)
        _common.append_record(str(target), b"two\n", mode=0o666, follow_links=False)
        assert target.read_bytes() == b"one\ntwo\n"
        assert stat.S_IMODE(target.stat().st_mode) == mode  # the mode of creation stays
    empty = tmp_path / "empty"
    _common.append_record(str(empty), b"", mode=0o600, follow_links=False)
    assert empty.read_bytes() == b""


def test_append_record_closes_a_torn_line_first(tmp_path: Path) -> None:
    target = tmp_path / "log"
    target.write_bytes(b'{"torn"')
    _common.append_record(str(target), b"next\n", mode=0o600, follow_links=False)
    assert target.read_bytes() == b'{"torn"\nnext\n'


def test_append_record_refuses_links_fifos_and_directories(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    link = tmp_path / "link"
    link.symlink_to(victim)
    assert _why_not_written(link).startswith("cannot open for appending: ")
    assert victim.read_bytes() == b"precious"
    _common.append_record(str(link), b"row\n", mode=0o600, follow_links=True)  # if asked to
    assert victim.read_bytes() == b"precious\nrow\n"
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert _why_not_written(fifo).startswith("cannot open for appending: ")  # no reader: at once
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        assert _why_not_written(fifo) == "not a regular file"
    finally:
        os.close(reader)
    assert _why_not_written(tmp_path).startswith("cannot open for appending: ")


def test_append_record_relative_to_a_directory_descriptor(tmp_path: Path) -> None:
    folder = os.open(tmp_path, os.O_RDONLY)
    try:
        _common.append_record("rel", b"x\n", mode=0o600, follow_links=False, dir_fd=folder)
    finally:
        os.close(folder)
    assert (tmp_path / "rel").read_bytes() == b"x\n"


def test_append_record_short_write_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "write", lambda fd, data: len(data) - 1)
    assert _why_not_written(tmp_path / "log") == "short write (3 of 4 bytes)"


# ---------------------------------------------------------------------------
# Showing text exactly


@given(st.text())
def test_escape_invisible_reads_back_as_a_python_literal(text: str) -> None:
    shown = _common.escape_invisible(text)
    assert ast.literal_eval('"' + shown.replace('"', '\\"') + '"') == text  # the oracle
    assert all(char.isprintable() for char in shown)
    assert _common.escape_invisible(text) == shown


def test_escape_invisible_by_unicode_category() -> None:
    for code in range(0x3000):
        char = chr(code)
        hidden = unicodedata.category(char)[0] in "CZ" and char != " "
        hidden = hidden or 0xFE00 <= code <= 0xFE0F or 0x180B <= code <= 0x180F
        assert (_common.escape_invisible(char) != char) == (hidden or char == "\\"), hex(code)
    assert _common.escape_invisible("a\u200bb\u202ec\U000e0041\ufe0f") == (
        "a\\u200bb\\u202ec\\U000e0041\\ufe0f"
    )
    assert _common.escape_invisible("tab\there\\u200b") == "tab\\there\\\\u200b"
    assert _common.escape_invisible("café") == "café"


def test_one_json_option() -> None:
    parser = argparse.ArgumentParser()
    _common.add_json_option(parser)
    assert parser.parse_args(["--json"]).json is True
    assert parser.parse_args([]).json is False


def test_every_command_file_types_its_register() -> None:
    import importlib
    import inspect

    for name in cli._command_files():
        register = importlib.import_module(f"agentops.cli.{name}").register
        annotations = {
            p.name: p.annotation for p in inspect.signature(register).parameters.values()
        }
        assert annotations == {
            "commands": "_common.Subcommands",
            "hooks": "_common.Subcommands",
        }, name


def test_read_regular_reads_one_byte_past_the_cap_however_the_reads_fall(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "f"
    target.write_bytes(b"x" * 10)
    real_fstat, real_read = os.fstat, os.read

    def small_fstat(fd: int) -> Any:  # the file grew after the fstat
        info = real_fstat(fd)
        return os.stat_result((info.st_mode, *info[1:6], 0, *info[7:10]))

    asked: list[int] = []

    def short_read(fd: int, size: int) -> bytes:
        asked.append(size)
        return real_read(fd, min(size, 3))

    monkeypatch.setattr(os, "fstat", small_fstat)
    monkeypatch.setattr(os, "read", short_read)
    assert _why_not_read(target, limit=9) == "larger than 9 bytes"  # 3 + 3 + 3, then 1 more
    assert asked == [10, 7, 4, 1]  # never asks past one byte over the cap
    assert _common.read_regular(str(target), limit=10, follow_links=False) == b"x" * 10


def test_a_path_named_directly_is_read_through_its_link(tmp_path: Path) -> None:
    target = tmp_path / "real.txt"
    target.write_text("through\n", encoding="utf-8")
    link = tmp_path / "named.txt"
    link.symlink_to(target)
    assert _common.read_text_file(str(link)) == "through\n"
    assert [f.text for f in _common.Sweep([str(link)])] == ["through\n"]


def test_an_unlistable_folder_is_skipped_under_its_own_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    (tmp_path / "a.txt").write_text("a", encoding="utf-8")
    real_scandir = os.scandir

    def scandir(path: Any) -> Any:
        if os.fspath(path) == str(locked):
            raise PermissionError(errno.EACCES, "Permission denied", str(locked))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    read, skipped, _ = _sweep(tmp_path)
    assert read == ["a.txt"]
    assert skipped == [_common.Skipped(str(locked), "cannot list: Permission denied")]


def test_read_stdin_text_reads_all_or_at_most_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    body = "caf\u00e9 \xff".encode("latin-1")
    for limit, expected in ((None, "caf\ufffd \ufffd"), (3, "caf")):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(body)))
        assert _common.read_stdin_text(limit) == expected
