"""Tests for `agentops memory lint|repairs DIR` (reference: docs/reference/memory_integrity.md)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from support import run_cli

from agentops.cli import _common, main
from agentops.cli import memory as cli_memory
from agentops.memory_integrity import Finding

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "memory"

FIXTURE_FINDINGS = [
    ("dead-index-link", "project_staging_rotation.md"),
    ("duplicate-link-target", "reference_api_docs.md"),
    ("dangling-wiki-link", "project_launch_plan.md"),
    ("orphan-memory-file", "feedback_small_prs_ship.md"),
    ("orphan-memory-file", "user_prefers_tables.md"),
    ("near-duplicate-slug", "feedback_ship_small_prs.md + feedback_small_prs_ship.md"),
]
FIXTURE_REPAIRS = [
    "fix-dead-link",
    "split-shared-target",
    "index-orphan",
    "index-orphan",
    "merge-near-duplicate",
]


@pytest.fixture(autouse=True)
def _enabled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AGENTOPS_DISABLED", raising=False)


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["memory", *args])
    out, err = capsys.readouterr()
    return code, out, err


def write(folder: Path, files: dict[str, str | bytes]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        data = text.encode("utf-8") if isinstance(text, str) else text
        (folder / name).write_bytes(data)
    return folder


def test_fixture_lint_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "lint", str(FIXTURE))
    assert code == 3 and err == ""
    lines = out.splitlines()
    assert lines[0] == "swept 7 files (1 skipped)"
    assert len(lines) == 1 + len(FIXTURE_FINDINGS)
    for line, (check, _subject) in zip(lines[1:], FIXTURE_FINDINGS, strict=True):
        severity = "warn" if check in ("dead-index-link", "duplicate-link-target") else "info"
        assert line.startswith(f"{severity}: [{check}] ")


def test_fixture_lint_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "lint", str(FIXTURE), "--json")
    assert code == 3
    doc = json.loads(out)
    assert list(doc) == ["swept", "coverage", "skipped", "findings"]
    assert doc["swept"] is True and doc["skipped"] == []
    assert doc["coverage"] == {
        "reached": 7,
        "skipped": 1,
        "malformed": 0,
        "contentless": 0,
        "index_excluded": 1,
        "index_read": True,
    }
    assert [(f["check"], f["subject"]) for f in doc["findings"]] == FIXTURE_FINDINGS
    for finding in doc["findings"]:
        assert set(finding) == set(Finding._fields)
        assert isinstance(finding["files"], list) and isinstance(finding["lines"], list)


def test_fixture_repairs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "repairs", str(FIXTURE), "--json")
    assert code == 3
    doc = json.loads(out)
    assert list(doc) == ["swept", "coverage", "skipped", "repairs"]
    assert [r["kind"] for r in doc["repairs"]] == FIXTURE_REPAIRS
    assert doc["repairs"][0]["finding"]["check"] == "dead-index-link"
    assert doc["repairs"][0]["prune"] == []
    code, out, _ = cli(capsys, "repairs", str(FIXTURE))
    assert code == 3
    assert out.splitlines()[1].startswith("warn: [fix-dead-link] ")
    assert out.splitlines()[-1].startswith("info: [merge-near-duplicate] ")


def test_clean_directory_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, {"MEMORY.md": "- [A](user_a.md)\n", "user_a.md": "fact"})
    assert cli(capsys, "lint", str(tmp_path)) == (0, "swept 1 files (1 skipped)\n", "")
    code, out, _ = cli(capsys, "repairs", str(tmp_path), "--json")
    assert code == 0 and json.loads(out)["repairs"] == []


def test_index_only_is_swept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, {"MEMORY.md": "# Memory\n"})
    code, out, err = cli(capsys, "lint", str(tmp_path))
    assert (code, out, err) == (0, "swept 0 files (1 skipped)\n", "")


def test_over_budget_index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [f"- [Fact {i}](user_f{i}.md) 2026-01-{i % 28 + 1:02d}" for i in range(205)]
    files: dict[str, str | bytes] = {f"user_f{i}.md": "x" for i in range(205)}
    files["MEMORY.md"] = "\n".join(lines)
    write(tmp_path, files)
    code, out, _ = cli(capsys, "lint", str(tmp_path), "--json")
    doc = json.loads(out)
    (b,) = [f for f in doc["findings"] if f["check"] == "index-over-budget"]
    assert (b["limit"], b["over"], b["first_unloaded_line"], b["index_lines"]) == (
        "lines",
        5,
        201,
        205,
    )
    assert b["index_chars"] > 0 and b["index_bytes"] is None and b["budget_bytes"] is None
    assert code == 3
    code, out, _ = cli(capsys, "repairs", str(tmp_path), "--json")
    (r,) = json.loads(out)["repairs"]
    assert r["kind"] == "prune-index" and r["over_lines"] == 5 and len(r["prune"]) == 5
    assert set(r["prune"][0]) == {"line", "date", "size_bytes", "text", "size_chars"}


def test_disk_size_plays_no_part(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # 30,000 bytes on disk, but frontmatter and a comment block: nothing over
    index = "---\nname: x\n---\n<!--\n" + "z" * 30000 + "\n-->\n- [A](user_a.md)\n"
    write(tmp_path, {"MEMORY.md": index, "user_a.md": "fact"})
    assert cli(capsys, "lint", str(tmp_path))[0] == 0


def test_nothing_swept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, {"notes.txt": "not memory"})
    code, out, err = cli(capsys, "lint", str(tmp_path))
    assert code == 4 and out == "swept 0 files (0 skipped)\n"
    assert err.startswith("NOTHING SWEPT")
    code, out, err = cli(capsys, "repairs", str(tmp_path), "--json")
    assert code == 4 and err.startswith("NOTHING SWEPT")
    doc = json.loads(out)
    assert doc["swept"] is False and doc["repairs"] == []
    assert doc["coverage"]["reached"] == 0 and doc["coverage"]["index_read"] is False


def test_empty_index_and_unreadable_files_are_not_swept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, {"MEMORY.md": "", "user_a.md": "fact"})
    refuse_topic_files(monkeypatch)
    code, out, err = cli(capsys, "lint", str(tmp_path), "--json")
    assert code == 4 and "NOTHING SWEPT: no topic file could be read" in err
    coverage = json.loads(out)["coverage"]
    assert (coverage["contentless"], coverage["index_excluded"], coverage["skipped"]) == (1, 1, 2)


def refuse_topic_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every topic file fails to open (running as root, permission bits would not)."""
    real = os.open

    def refuse(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if str(path).endswith(".md") and not str(path).endswith("MEMORY.md"):
            raise PermissionError(13, "Permission denied")
        return real(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)


def test_unreadable_topic_files_exit_4(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    index = "- [A](user_a.md)\n- [B](user_b.md)\n- [C](user_c.md)\n"
    write(tmp_path, {"MEMORY.md": index, "user_a.md": "a", "user_b.md": "b", "user_c.md": "c"})
    refuse_topic_files(monkeypatch)
    for action in ("lint", "repairs"):
        code, out, err = cli(capsys, action, str(tmp_path))
        assert code == 4, out
        assert out.splitlines()[0] == "swept 0 files (4 skipped)"
        assert "skipped: user_a.md: unreadable: Permission denied" in out
        assert err.startswith("NOTHING SWEPT: no topic file could be read")


def test_unreadable_index_gives_no_orphan_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    front = "---\nname: {0}\ntype: user\ndescription: the {0} fact\n---\nbody"
    write(
        tmp_path,
        {"MEMORY.md": "- [A](user_a.md)\n", **{f"user_{n}.md": front.format(n) for n in "abc"}},
    )
    real = os.open

    def refuse_index(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if str(path).endswith("MEMORY.md"):
            raise PermissionError(13, "Permission denied")
        return real(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse_index)
    code, out, _ = cli(capsys, "lint", str(tmp_path))
    assert code == 3 and "[orphan-memory-file]" not in out
    assert "warn: [index-not-read] MEMORY.md could not be read: 3 memory files" in out
    code, out, _ = cli(capsys, "repairs", str(tmp_path))
    assert code == 3 and "[restore-index]" in out and "delete it" not in out


def test_docs_folder_is_not_a_memory_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(
        tmp_path,
        {
            "SECURITY.md": "# Security\nReport issues privately.\n",
            "PRIVACY.md": "# Privacy\nWe keep nothing.\n",
            "README.md": "---\ntitle: docs\n---\n# Docs\n",
        },
    )
    for action in ("lint", "repairs"):
        code, out, err = cli(capsys, action, str(tmp_path))
        assert code == 4 and "orphan" not in out and "delete" not in out
        assert err.startswith("NOTHING SWEPT: not a memory directory")
    code, out, _ = cli(capsys, "repairs", str(tmp_path), "--json")
    doc = json.loads(out)
    assert doc["swept"] is False and doc["repairs"] == []


def test_memory_files_without_index_say_it_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    front = "---\nname: {0}\ntype: user\n---\nbody"
    write(tmp_path, {f"user_{n}.md": front.format(n) for n in "abcd"})
    code, out, _ = cli(capsys, "lint", str(tmp_path))
    assert code == 3
    assert out.splitlines() == [
        "swept 4 files (0 skipped)",
        "warn: [index-not-read] MEMORY.md is missing: 4 memory files are reached by no index,"
        " so none of them loads; no file is judged an orphan",
    ]


def _memory_with_a_link_outside(tmp_path: Path) -> Path:
    """A memory folder whose index names `user_link.md`, a link to a file outside it."""
    outside = tmp_path / "outside.txt"
    outside.write_text("secret elsewhere")
    memory = write(
        tmp_path / "mem",
        {"MEMORY.md": "- [A](user_a.md)\n- [L](user_link.md)\n", "user_a.md": "fact"},
    )
    os.symlink(outside, memory / "user_link.md")
    return memory


def test_symlinked_topic_file_is_named_as_a_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    memory = _memory_with_a_link_outside(tmp_path)
    code, out, _ = cli(capsys, "lint", str(memory))
    assert code == 0, out
    assert "skipped: user_link.md: symbolic link, not followed" in out
    assert "points at no memory file" not in out and "secret" not in out


def test_huge_sparse_topic_file_skipped_from_its_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, {"MEMORY.md": "- [A](user_a.md)\n- [B](user_big.md)\n", "user_a.md": "x"})
    with open(tmp_path / "user_big.md", "wb") as handle:
        handle.truncate(1 << 30)  # 1 GiB, sparse: no disk used
    # generous adversarial bound (CPU time, so load cannot fail it): never read
    start = time.process_time()
    code, out, _ = cli(capsys, "lint", str(tmp_path), "--json")
    assert time.process_time() - start < 0.5
    doc = json.loads(out)
    assert code == 0 and doc["coverage"]["reached"] == 1
    (skip,) = doc["skipped"]
    cap = _common.MAX_FILE_BYTES
    assert skip == {
        "name": "user_big.md",
        "reason": f"too large to read ({1 << 30} bytes, limit {cap})",
    }
    listing = _common.read_memory_dir(str(tmp_path))
    assert ("user_big.md", None) in listing.files


def test_unlistable_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = os.listdir

    def refuse(path: Any = ".") -> Any:
        if str(path) == str(tmp_path):
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(os, "listdir", refuse)
    code, _out, err = cli(capsys, "lint", str(tmp_path))
    assert code == 4 and "NOTHING SWEPT" in err and "list" in err


def test_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(capsys, "lint", str(tmp_path / "missing"))[0] == 2
    (tmp_path / "file.md").write_text("x")
    code, _, err = cli(capsys, "repairs", str(tmp_path / "file.md"))
    assert code == 2 and "not a directory" in err
    assert main(["memory", "lint"]) == 2
    assert main(["memory", "lint", str(tmp_path), "--bogus"]) == 2
    assert main(["memory"]) == 2
    capsys.readouterr()


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["memory", "lint", "--help"]) == 0
    assert "DIR" in capsys.readouterr().out


def test_kill_switch(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("AGENTOPS_DISABLED", "1")
    code, out, _ = cli(capsys, "lint", str(FIXTURE))
    assert code == 4 and out == "disabled by AGENTOPS_DISABLED\n"


def test_crash_exits_4(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from agentops import memory_integrity

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("unexpected")

    monkeypatch.setattr(memory_integrity, "lint_memory_integrity", boom)
    monkeypatch.setattr(memory_integrity, "suggest_memory_repairs", boom)
    for action in ("lint", "repairs"):
        code, _, err = cli(capsys, action, str(FIXTURE))
        assert code == 4 and "internal error" in err


def test_non_regular_entries_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(
        tmp_path,
        {"MEMORY.md": "- [A](user_a.md)\n", "user_a.md": "fact", "notes.txt": "ignored, uncounted"},
    )
    (tmp_path / "folder.md").mkdir()
    os.symlink(tmp_path / "user_a.md", tmp_path / "link.md")
    os.symlink(tmp_path / "nowhere", tmp_path / "broken.MD")
    sock_path = tmp_path / "s.md"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(str(sock_path))
        code, out, _ = cli(capsys, "lint", str(tmp_path))
        assert code == 0 and out.splitlines() == [
            "swept 1 files (5 skipped)",
            "skipped: broken.MD: symbolic link, not followed",
            "skipped: folder.md: not a regular file",
            "skipped: link.md: symbolic link, not followed",
            "skipped: s.md: not a regular file",
        ]
        code, out, _ = cli(capsys, "lint", str(tmp_path), "--json")
        doc = json.loads(out)
        assert doc["coverage"]["contentless"] == 4 and doc["coverage"]["skipped"] == 5
        assert len(doc["skipped"]) == 4
    finally:
        sock.close()


def test_index_choice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(
        tmp_path,
        {"MEMORY.md": "- [A](user_a.md)\n", "memory.md": "- [G](gone.md)\n", "user_a.md": "x"},
    )
    code, out, _ = cli(capsys, "lint", str(tmp_path), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["coverage"]["index_excluded"] == 2
    other = tmp_path / "other"
    write(
        other,
        {"Memory.md": "- [G](gone.md)\n", "memory.MD": "- [A](user_a.md)\n", "user_a.md": "x"},
    )
    code, out, _ = cli(capsys, "lint", str(other), "--json")
    assert [f["target"] for f in json.loads(out)["findings"] if f["target"]] == ["gone.md"]
    assert cli_memory.pick_index((("a.md", "x"),)) is None
    assert cli_memory.pick_index((("MEMORY.md", None), ("memory.md", "y"))) is None


def test_decoding_bom_and_invalid_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(
        tmp_path,
        {
            "MEMORY.md": b"\xef\xbb\xbf---\nname: i\n---\n- [A](user_a.md)\n",
            "user_a.md": b"\xef\xbb\xbf---\ntype: user\n---\nbad \xff byte [[gone]]",
        },
    )
    code, out, _ = cli(capsys, "lint", str(tmp_path), "--json")
    doc = json.loads(out)
    assert code == 3 and [f["check"] for f in doc["findings"]] == ["dangling-wiki-link"]


def test_never_writes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "mem"
    shutil.copytree(FIXTURE, target)
    before = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in target.iterdir()}
    for action in ("lint", "repairs"):
        cli(capsys, action, str(target))
        cli(capsys, action, str(target), "--json")
    after = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in target.iterdir()}
    assert before == after


def test_undecodable_names_subprocess(tmp_path: Path) -> None:
    folder = bytes(tmp_path)
    for raw, data in (
        (b"user_\xff.md", b"[[gone]]"),
        (b"MEMORY.md", b"- [X](x.md)\n"),
        (b"user_line\nbreak.md", b"y"),
    ):
        fd = os.open(os.path.join(folder, raw), os.O_WRONLY | os.O_CREAT, 0o644)
        os.write(fd, data)
        os.close(fd)
    done = run_cli("memory", "lint", str(tmp_path), env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 3, done.stderr
    assert "\\udcff" in done.stdout or "\\xff" in done.stdout
    assert "line\\nbreak" in done.stdout and "Traceback" not in done.stderr
    assert len(done.stdout.splitlines()) == 1 + 1 + 1 + 2  # dead, dangling, 2 orphans
    done = run_cli("memory", "repairs", str(tmp_path), "--json")
    assert done.returncode == 3
    assert done.stdout.isascii()
    doc = json.loads(done.stdout)
    assert doc["swept"] is True and doc["coverage"]["reached"] == 2


def test_exit_codes_end_to_end(tmp_path: Path) -> None:
    assert run_cli("memory", "lint", str(FIXTURE)).returncode == 3
    empty = tmp_path / "empty"
    empty.mkdir()
    done = run_cli("memory", "lint", str(empty))
    assert done.returncode == 4 and done.stderr.startswith("NOTHING SWEPT")
    assert run_cli("memory", "lint", str(tmp_path / "missing")).returncode == 2
    write(tmp_path / "clean", {"user_a.md": "x", "MEMORY.md": "- [A](user_a.md)"})
    assert run_cli("memory", "repairs", str(tmp_path / "clean")).returncode == 0


def test_swapped_in_fifo_or_link_is_not_read_and_is_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = _memory_with_a_link_outside(tmp_path)
    os.mkfifo(memory / "user_pipe.md")  # no writer: a blocking open would hang the command
    # both were regular files when listed, and swapped in before they were opened
    monkeypatch.setattr(_common, "_entry_refusal", lambda path: (True, ""))
    code, out, _ = cli(capsys, "lint", str(memory), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["coverage"]["reached"] == 1 and doc["coverage"]["contentless"] == 2
    (link, fifo) = doc["skipped"]
    assert link["name"] == "user_link.md" and link["reason"].startswith("unreadable: ")
    assert fifo == {"name": "user_pipe.md", "reason": "not a regular file"}
    assert "secret" not in out and "points at no memory file" not in out
