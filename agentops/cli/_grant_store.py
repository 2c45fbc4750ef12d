"""The file-backed grant store and its audit log (the I/O half of `capability_grant`).

Grant store (directory, default `~/.agentops/grants`, `--store`; directories
created `0o700`, files `0o600`): `live/<id>.json` minted grants,
`spent/<id>.json` consumption and revocation records. A `.json` file in `live/`
whose name is not `<id>.json`, that does not parse as a grant of an allowed class,
or whose id differs from its name is skipped with one warning line on stderr;
other names are ignored. An id with a `spent/` record is consumed even if its live
file still exists. Consumption claims `spent/<id>.json` with
`O_CREAT | O_EXCL | O_WRONLY`, so of any number of concurrent consumers at most
one wins; after the claim the live file is re-read and re-matched, the consumed
record written and fsynced, the live file unlinked and the audit line appended,
and only then is success reported.

Audit log (default `<store>/audit.ndjson`, `--audit`): one line per event,
appended with a single `os.write` on an `O_APPEND` descriptor. A failed append
during consume reports "no grant" (the id stays burned).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
from typing import TYPE_CHECKING

from agentops.cli import _common
from agentops.cli._common import O_CLOEXEC, O_NOFOLLOW, Refusal

if TYPE_CHECKING:
    from agentops.capability_grant import Grant, GrantQuery

MAX_GRANT_FILE_BYTES = 256 * 1024
ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,127}")


def add_store_options(parser: argparse.ArgumentParser, *, audit: bool = True) -> None:
    parser.add_argument("--store", metavar="DIR", help="grant store (default ~/.agentops/grants)")
    if audit:
        parser.add_argument(
            "--audit", metavar="PATH", help="audit log (default <store>/audit.ndjson)"
        )


def store_path(args: argparse.Namespace) -> str:
    return str(getattr(args, "store", None) or _common.agentops_home("grants"))


def audit_path(args: argparse.Namespace) -> str:
    return str(getattr(args, "audit", None) or os.path.join(store_path(args), "audit.ndjson"))


# ---------------------------------------------------------------------------
# Files


def read_grant_file(path: str) -> bytes | None:
    """A grant file's bytes; None when missing, unreadable, not regular, a link or too big."""
    try:
        return _common.read_regular(path, limit=MAX_GRANT_FILE_BYTES, follow_links=False)
    except _common.FileNotRead:
        return None


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def fsync_dir(path: str) -> None:
    try:
        fd = os.open(path, os.O_RDONLY | O_CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def claim(path: str) -> int:
    """Create `path` exclusively (FileExistsError when it exists): the single-use claim."""
    return os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o600)


def ensure_store(store: str) -> None:
    for path in (store, os.path.join(store, "live"), os.path.join(store, "spent")):
        with contextlib.suppress(FileExistsError):
            os.mkdir(path, 0o700)
        if not os.path.isdir(path) or os.path.islink(path):
            raise Refusal(f"grant store: {path} is not a directory")


def append_audit(path: str, line: str) -> None:
    """Append one line with a single os.write on an O_APPEND descriptor (raises OSError)."""
    data = (line + "\n").encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | O_CLOEXEC, 0o600)
    try:
        if os.write(fd, data) != len(data):
            raise OSError("short write to the audit log")
    finally:
        os.close(fd)


def audit(args: argparse.Namespace, line: str) -> None:
    if getattr(args, "audit", None) is None:  # default path lives in the store
        ensure_store(store_path(args))
    append_audit(audit_path(args), line)


# ---------------------------------------------------------------------------
# Grants


def _grant_at(path: str, allowed: tuple[str, ...], stem: str) -> Grant | None:
    from agentops.capability_grant import parse_grant

    data = read_grant_file(path)
    grant = None if data is None else parse_grant(data, allowed)
    return grant if grant is not None and grant.id == stem else None


def load_live(store: str, allowed: tuple[str, ...], warn: bool = True) -> list[Grant]:
    """The parsable, unspent grants in `live/`, by file name; bad files warn and are skipped."""
    live = os.path.join(store, "live")
    spent = os.path.join(store, "spent")
    try:
        names = sorted(os.listdir(live))
    except FileNotFoundError:
        return []
    grants: list[Grant] = []
    for name in names:
        if not name.endswith(".json"):
            continue
        stem = name[: -len(".json")]
        if ID_PATTERN.fullmatch(stem) is None:
            if warn:
                _common.say_error(f"skipped grant file live/{name}: name is not <id>.json")
            continue
        if os.path.lexists(os.path.join(spent, name)):
            continue
        path = os.path.join(live, name)
        grant = _grant_at(path, allowed, stem)
        if grant is None:
            if not os.path.lexists(path) or os.path.lexists(os.path.join(spent, name)):
                continue  # consumed or revoked by a concurrent process while we listed
            if warn:
                _common.say_error(
                    f"skipped grant file live/{name}: not a valid grant of an allowed class"
                )
            continue
        grants.append(grant)
    return grants


def consume(
    store: str, query: GrantQuery, allowed: tuple[str, ...], args: argparse.Namespace, note: str
) -> Grant | None:
    """Atomically consume the live grant matching `query`; None when there is none,
    another consumer won, the grant changed after the claim, or the audit failed."""
    from agentops.capability_grant import (
        compose_audit_line,
        mark_consumed,
        match_grant,
        serialize_grant,
    )

    hit = match_grant(load_live(store, allowed), query, allowed)
    if hit is None:
        return None
    name = f"{hit.id}.json"
    spent_dir = os.path.join(store, "spent")
    live_path = os.path.join(store, "live", name)
    try:
        fd = claim(os.path.join(spent_dir, name))
    except FileExistsError:
        return None  # another consumer won
    try:
        again = _grant_at(live_path, allowed, hit.id)
        if again is None or match_grant([again], query, allowed) is None:
            return None  # changed or vanished after the claim: the id stays burned
        write_all(fd, serialize_grant(mark_consumed(again, query.now)).encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    fsync_dir(spent_dir)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(live_path)
    try:
        audit(args, compose_audit_line("consume", grant=again, now=query.now, note=note))
    except (OSError, Refusal) as exc:
        _common.say_error(f"audit append failed ({exc}); grant {again.id} burned, not used")
        return None
    return again
