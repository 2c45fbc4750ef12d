"""The text inside a SQLite database, read without ever writing to it.

Agent frameworks keep transcripts, memory blocks and checkpoints in SQLite. A
scanner that skips the file as binary reads the store as clean; this one opens
it with a `file:...?mode=ro&immutable=1` URI (read-only, no lock, no journal:
safe on a live store, and the file's bytes and modification time are unchanged)
and yields every TEXT value of every table, and every BLOB that decodes as
UTF-8, with table, column and row id. What it cannot read is reported, by kind.

Limits, each a test:
- `immutable=1` reads the main database file only: writes still in a
  write-ahead log (`name-wal`) are not seen. A non-empty log is reported.
- A table that cannot be read (a virtual table whose module is missing, a
  corrupt page) is reported as skipped; the other tables are still read.
- A BLOB that is not UTF-8 (an embedding, a pickle, compressed data) is counted
  as skipped, not scanned.
"""

from __future__ import annotations

import os
import sqlite3
import urllib.parse
from collections.abc import Iterator
from typing import NamedTuple

from agentops.cli import _common

MAGIC = b"SQLite format 3\x00"


class Value(NamedTuple):
    """One text value of a database: where it is and what it says."""

    table: str
    column: str
    rowid: int  # the row id, or the row's 1-based position in a table without one
    text: str


class Problem(NamedTuple):
    """Something inside the database that was not read, and why (never a value)."""

    where: str  # "" for the whole database, else a table name
    reason: str


class DatabaseNotOpened(Exception):
    """The file has the SQLite header but could not be opened or listed."""


def is_sqlite(path: str) -> bool:
    """True when the file starts with the SQLite 3 header. Never raises.

    Opened by `_common.open_regular` (a link is followed): anything but a regular
    file (a FIFO or device swapped in, a folder) is False at once, never waited on,
    and the reader the caller falls back to says why it was skipped."""
    try:
        fd = _common.open_regular(path, follow_links=True)
    except _common.FileNotRead:
        return False
    try:
        with os.fdopen(fd, "rb") as handle:
            return handle.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


def read_only_uri(path: str) -> str:
    """The URI that opens `path` read-only and immutable (no locks, no journal)."""
    quoted = urllib.parse.quote(os.path.abspath(path), safe="/")
    return f"file:{quoted}?mode=ro&immutable=1"


class Reader:
    """Iterate for the text values of a database; then read `problems` and `blobs_skipped`."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.problems: list[Problem] = []
        self.blobs_skipped = 0
        self.values_read = 0
        self.tables_read = 0

    def __iter__(self) -> Iterator[Value]:
        connection = _connect(self.path)
        try:
            tables = _tables(connection)
            for table in tables:
                try:
                    yield from self._table(connection, table)
                    self.tables_read += 1
                except sqlite3.Error as exc:
                    self.problems.append(Problem(table, f"table unreadable: {_reason(exc)}"))
        finally:
            connection.close()
        wal = self.path + "-wal"
        try:
            if os.path.getsize(wal) > 0:
                self.problems.append(Problem("", "write-ahead log not read (immutable open)"))
        except OSError:
            pass

    def _table(self, connection: sqlite3.Connection, table: str) -> Iterator[Value]:
        name = '"' + table.replace('"', '""') + '"'
        try:
            cursor = connection.execute(f"SELECT rowid, * FROM {name}")
            with_rowid = True
        except sqlite3.OperationalError:  # WITHOUT ROWID tables and some views
            cursor = connection.execute(f"SELECT * FROM {name}")
            with_rowid = False
        columns = [d[0] for d in cursor.description][1 if with_rowid else 0 :]
        for position, row in enumerate(cursor, start=1):
            rowid = row[0] if with_rowid and isinstance(row[0], int) else position
            cells = row[1:] if with_rowid else row
            for column, cell in zip(columns, cells, strict=False):
                text = self._text(cell)
                if text is not None:
                    self.values_read += 1
                    yield Value(table, column, rowid, text)

    def _text(self, cell: object) -> str | None:
        if isinstance(cell, str):
            return cell
        if isinstance(cell, bytes):
            try:
                return cell.decode("utf-8")
            except UnicodeDecodeError:
                self.blobs_skipped += 1
        return None


def _connect(path: str) -> sqlite3.Connection:
    try:
        connection = sqlite3.connect(read_only_uri(path), uri=True, check_same_thread=False)
    except sqlite3.Error as exc:
        raise DatabaseNotOpened(_reason(exc)) from None
    # TEXT that is not valid UTF-8 would make the cursor raise mid-table.
    connection.text_factory = lambda data: data.decode("utf-8", "replace")
    return connection


def _tables(connection: sqlite3.Connection) -> list[str]:
    try:
        rows = connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        ).fetchall()
    except sqlite3.Error as exc:
        connection.close()
        raise DatabaseNotOpened(_reason(exc)) from None
    return [str(row[0]) for row in rows]


def _reason(exc: sqlite3.Error) -> str:
    return str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
