"""`scan-secrets` on SQLite stores (agentops/cli/_sqlite_scan.py): every text value
of every table, by table, column and row id; read-only and immutable; what was
not read is named by kind, never read as clean."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support import ROOT

from agentops.cli import _sqlite_scan, main

AWS = "AKIA" + "IOSFODNN7EXAMPLE"  # built at run time: this file stays clean
GITHUB = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


@pytest.fixture(autouse=True)
def _known_key(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    key_file = tmp_path_factory.mktemp("key") / "fingerprint.key"
    key_file.write_text(bytes(range(32)).hex() + "\n", encoding="ascii")
    monkeypatch.setenv("AGENTOPS_FINGERPRINT_KEY_FILE", str(key_file))
    monkeypatch.delenv("AGENTOPS_DISABLED", raising=False)


def scan(capsys: Any, *args: str) -> tuple[int, str, str]:
    code = main(["scan-secrets", "--jobs", "1", *args])
    out, err = capsys.readouterr()
    return code, out, err


def make_store(path: Path) -> Path:
    """A store shaped like an agent framework's: checkpoints with JSON metadata, a
    memory table, a table without row ids, and BLOBs of both kinds."""
    connection = sqlite3.connect(path)
    connection.executescript(
        """
        CREATE TABLE checkpoints (thread_id TEXT, checkpoint BLOB, metadata TEXT);
        CREATE TABLE memories (id INTEGER PRIMARY KEY, content TEXT, embedding BLOB);
        CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;
        """
    )
    metadata = json.dumps({"writes": [{"value": "clean"}, {"value": f"token={AWS}"}]})
    connection.execute(
        "INSERT INTO checkpoints VALUES (?, ?, ?)", ("t1", b"\x80\x04\x95binary", metadata)
    )
    connection.execute("INSERT INTO memories VALUES (7, ?, ?)", ("fine", f"blob {GITHUB}".encode()))
    connection.execute("INSERT INTO memories VALUES (8, 'also fine', ?)", (b"\xff\xfe\x00",))
    connection.execute("INSERT INTO kv VALUES ('a', 'nothing'), ('b', ?)", (f"x {AWS}",))
    connection.commit()
    connection.close()
    return path


def test_secrets_in_a_store_are_found_by_table_column_and_row(tmp_path: Path, capsys: Any) -> None:
    store = make_store(tmp_path / "state.db")
    code, out, err = scan(capsys, str(store))
    assert code == 3
    lines = out.splitlines()
    found = sorted(line.rsplit(" fp=", 1)[0] for line in lines if " fp=" in line)
    assert found == [
        f"{store}:checkpoints.metadata[rowid=1]:writes[1].value aws-key",
        f"{store}:kv.v[rowid=2] aws-key",
        f"{store}:memories.embedding[rowid=7] github-token",
    ]
    assert "swept 1 files (0 skipped)" in out
    assert "2 database value(s) neither text nor UTF-8, not scanned" in out
    assert AWS not in out + err and GITHUB not in out + err


def test_json_output_for_a_database_finding(tmp_path: Path, capsys: Any) -> None:
    store = make_store(tmp_path / "state.sqlite")
    code, out, _ = scan(capsys, "--json", str(store))
    assert code == 3
    document = json.loads(out)
    first = next(f for f in document["findings"] if f["table"] == "checkpoints")
    assert {k: first[k] for k in ("line", "table", "db_column", "rowid", "json_path")} == {
        "line": 0,
        "table": "checkpoints",
        "db_column": "metadata",
        "rowid": 1,
        "json_path": "writes[1].value",
    }
    assert document["database_values_not_scanned"] == 2


def test_the_store_is_unchanged_by_the_scan(tmp_path: Path, capsys: Any) -> None:
    store = make_store(tmp_path / "live.db")
    os.utime(store, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    before = (store.read_bytes(), store.stat().st_mtime_ns, sorted(os.listdir(tmp_path)))
    assert scan(capsys, str(store))[0] == 3
    after = (store.read_bytes(), store.stat().st_mtime_ns, sorted(os.listdir(tmp_path)))
    assert hashlib.sha256(after[0]).digest() == hashlib.sha256(before[0]).digest()
    assert after[1:] == before[1:]  # same mtime, no journal or lock file left beside it


def test_a_store_locked_by_a_writer_is_still_read(tmp_path: Path, capsys: Any) -> None:
    store = make_store(tmp_path / "busy.db")
    writer = sqlite3.connect(store, isolation_level=None)
    writer.execute("BEGIN EXCLUSIVE")  # a live process holding the write lock
    try:
        code, out, _ = scan(capsys, str(store))
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert code == 3 and "aws-key" in out


def test_a_database_that_cannot_be_opened_is_named_never_clean(tmp_path: Path, capsys: Any) -> None:
    broken = tmp_path / "broken.db"
    broken.write_bytes(_sqlite_scan.MAGIC + b"\x00" * 100 + AWS.encode())
    code, out, err = scan(capsys, str(broken))
    assert code == 4
    assert "skipped by kind: database could not be opened 1" in out
    assert "NOTHING SWEPT" in err and AWS not in out + err


def test_a_binary_file_that_is_not_a_database_is_still_skipped(tmp_path: Path, capsys: Any) -> None:
    (tmp_path / "x.db").write_bytes(b"\x00\x01\x02")  # a .db name alone is not a database
    make_store(tmp_path / "ok.db")
    code, out, _ = scan(capsys, str(tmp_path))
    assert code == 3
    assert "swept 1 files (1 skipped)" in out and "skipped by kind: binary 1" in out


def test_a_write_ahead_log_that_was_not_read_is_reported(tmp_path: Path, capsys: Any) -> None:
    store = tmp_path / "wal.db"
    connection = sqlite3.connect(store)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA wal_autocheckpoint=0")
    connection.execute("CREATE TABLE t (x TEXT)")
    connection.commit()
    connection.execute("INSERT INTO t VALUES (?)", (AWS,))
    connection.commit()  # in the log, not yet in the main file
    try:
        code, out, err = scan(capsys, str(store))
    finally:
        connection.close()
    assert code == 0  # the main file holds nothing: the log is named, not read
    assert f"skipped: {store} (write-ahead log not read (immutable open))" in err
    assert "write-ahead log not read" in out
    assert AWS not in out + err


def test_an_unreadable_table_is_named_and_the_others_are_read(tmp_path: Path, capsys: Any) -> None:
    store = tmp_path / "fts.db"
    connection = sqlite3.connect(store)
    connection.execute("CREATE TABLE notes (body TEXT)")
    connection.execute("INSERT INTO notes VALUES (?)", (AWS,))
    connection.commit()
    connection.close()
    # A table whose module this Python lacks reads as an error, like a corrupt one.
    raw = sqlite3.connect(store)
    raw.execute("PRAGMA writable_schema=ON")
    raw.execute(
        "INSERT INTO sqlite_master VALUES "
        "('table', 'ghost', 'ghost', 0, 'CREATE VIRTUAL TABLE ghost USING nosuchmodule(x)')"
    )
    raw.commit()
    raw.close()
    code, out, err = scan(capsys, str(store))
    assert code == 3 and f"{store}:notes.body[rowid=1] aws-key" in out
    assert f"skipped: {store}:ghost (table unreadable" in err


def test_read_only_uri_quotes_odd_names(tmp_path: Path) -> None:
    odd = tmp_path / "a?b#c d.db"
    make_store(odd)
    assert _sqlite_scan.read_only_uri(str(odd)).endswith("a%3Fb%23c%20d.db?mode=ro&immutable=1")
    reader = _sqlite_scan.Reader(str(odd))
    assert {value.table for value in reader} == {"checkpoints", "memories", "kv"}
    assert reader.blobs_skipped == 2 and reader.problems == []


def test_text_that_is_not_utf8_is_read_with_replacement(tmp_path: Path) -> None:
    store = tmp_path / "latin.db"
    connection = sqlite3.connect(store)
    connection.execute("CREATE TABLE t (x TEXT)")
    connection.execute("INSERT INTO t VALUES (CAST(X'63616FE9' AS TEXT))")
    connection.commit()
    connection.close()
    assert [v.text for v in _sqlite_scan.Reader(str(store))] == ["cao\ufffd"]


def test_is_sqlite(tmp_path: Path) -> None:
    assert _sqlite_scan.is_sqlite(str(make_store(tmp_path / "a.db")))
    (tmp_path / "b.db").write_bytes(b"SQLite format 2\x00")
    assert not _sqlite_scan.is_sqlite(str(tmp_path / "b.db"))
    assert not _sqlite_scan.is_sqlite(str(tmp_path / "missing.db"))


def test_a_secret_shaped_table_or_column_name_is_withheld(tmp_path: Path, capsys: Any) -> None:
    store = tmp_path / "odd.db"
    connection = sqlite3.connect(store)
    connection.execute(f'CREATE TABLE "{AWS}" ("{GITHUB}" TEXT)')
    connection.execute(f'INSERT INTO "{AWS}" VALUES (?)', (f"v {AWS}",))
    connection.commit()
    connection.close()
    code, out, err = scan(capsys, str(store))
    assert code == 3
    assert f"{store}:<name withheld>.<name withheld>[rowid=1] aws-key" in out
    assert AWS not in out + err and GITHUB not in out + err


# -------------------------------------------- the header probe never waits on a FIFO


def test_a_fifo_swapped_in_for_a_database_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "store.db"
    os.mkfifo(fifo)  # no writer: a blocking open would hang here (the walk saw a file)
    done = subprocess.run(  # a fresh interpreter with a timeout: a hang fails, not stalls
        [
            sys.executable,
            "-c",
            "import sys\n"
            "from agentops.cli import _secret_scan, _sqlite_scan\n"
            "print(_sqlite_scan.is_sqlite(sys.argv[1]))\n"
            "result = _secret_scan.scan_file(sys.argv[1], bytes(32))\n"
            "print(result.swept, [skip.reason for skip in result.skipped])\n",
            str(fifo),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=30,
        check=True,
    )
    assert done.stdout.splitlines() == ["False", "False ['not a regular file']"]


def test_a_linked_database_is_still_recognised(tmp_path: Path) -> None:
    link = tmp_path / "link.db"
    link.symlink_to(make_store(tmp_path / "a.db"))  # a store named through a link is read
    assert _sqlite_scan.is_sqlite(str(link))
    (tmp_path / "short.db").write_bytes(b"SQLite format")  # shorter than the header
    assert not _sqlite_scan.is_sqlite(str(tmp_path / "short.db"))
    assert not _sqlite_scan.is_sqlite(str(tmp_path))  # a folder


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="needs Linux /proc")
def test_a_regular_file_that_fails_to_read_is_not_a_database() -> None:
    # /proc/self/mem is a regular file whose first page is unmapped: reading it fails
    assert not _sqlite_scan.is_sqlite("/proc/self/mem")
