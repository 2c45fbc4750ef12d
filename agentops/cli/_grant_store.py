"""The file-backed grant store: mint, check, consume and revoke grants without a subprocess.

`capability_grant` decides (pure); this module keeps grants on disk for it. The
`grant` commands and the PreToolUse hook are thin wrappers over `GrantStore`, and
a Python agent loop uses the same class (imported from `agentops.cli.grant`):

    store = GrantStore()                                  # ~/.agentops/grants
    query = GrantQuery("deploy --env production", "my-app", "deploy")
    used = store.consume(query, allowed_classes=("deploy",))
    if used is not None:
        ...                                               # run exactly that command

Layout (`docs/reference/capability_grant.md` has the full account): `live/<id>.json`
minted grants, `spent/<id>.json` consumption and revocation records, and the audit
log `audit.ndjson` (or a path of the caller's). Directories are created `0o700`,
files `0o600`.

Trust, the way ssh treats `~/.ssh`: the store directory, `live/` and `spent/` are
opened without following a symbolic link, checked on the open descriptor (a
directory, owned by the current user, not writable by group or others) and then
used only through those descriptors, so a directory swapped in after the check is
never used. Anything else raises StoreError naming the path and the problem.

Single use: consuming claims `spent/<id>.json` with `O_CREAT | O_EXCL`, so of any
number of concurrent consumers (threads or processes) at most one wins; after the
claim the live file is re-read and re-matched, the consumed record written and
fsynced, the live file unlinked and the audit line appended, and only then is the
grant returned.

Audit lines never hold a secret-shaped value verbatim (each text field passes
through `redact_secret_shapes`) and never more than `AUDIT_FIELD_CHARS` characters
of one field (the command's SHA-256 is always recorded whole).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import re
import secrets
import stat
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, NamedTuple

from agentops.cli import _common
from agentops.cli._common import O_CLOEXEC, O_NOFOLLOW

if TYPE_CHECKING:
    from agentops.capability_grant import Grant, GrantQuery

MAX_GRANT_FILE_BYTES = 256 * 1024
ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,127}")
AUDIT_FIELD_CHARS = 2048  # a field longer than this is cut (the command keeps its hash)
REDACTION_WINDOW_CHARS = 64 * 1024  # only this much of a field is scanned for secrets
AUDIT_LOG_NAME = "audit.ndjson"
_DIRECTORY_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | O_NOFOLLOW | O_CLOEXEC


class StoreError(Exception):
    """The store cannot be trusted or used; the message is one line naming the path."""


class AuditFailed(StoreError):
    """An audit line could not be appended (the operation it records did not count)."""


class _Opened(NamedTuple):
    """Descriptors of a checked store: everything else is opened relative to these."""

    root: int
    live: int
    spent: int


def add_store_options(parser: argparse.ArgumentParser, *, audit: bool = True) -> None:
    parser.add_argument("--store", metavar="DIR", help="grant store (default ~/.agentops/grants)")
    if audit:
        parser.add_argument(
            "--audit", metavar="PATH", help="audit log (default <store>/audit.ndjson)"
        )


def store_path(args: argparse.Namespace) -> str:
    return str(getattr(args, "store", None) or default_directory())


def default_directory() -> str:
    """`~/.agentops/grants`."""
    return _common.agentops_home("grants")


class GrantStore:
    """Grants kept in `directory` (default `~/.agentops/grants`), audited to `audit_log`
    (default `<directory>/audit.ndjson`). `on_warning` receives one line per grant
    file that is skipped (default: ignored). Every method raises StoreError when the
    store fails the ownership check; none of them ever follows a link in the store."""

    def __init__(
        self,
        directory: str | os.PathLike[str] | None = None,
        *,
        audit_log: str | os.PathLike[str] | None = None,
        on_warning: Callable[[str], None] | None = None,
    ) -> None:
        self.directory = os.fspath(directory) if directory is not None else default_directory()
        self.audit_log = None if audit_log is None else os.fspath(audit_log)
        self._warn = on_warning or _ignore

    def __repr__(self) -> str:
        return f"GrantStore({self.directory!r}, audit_log={self.audit_log!r})"

    # -- the four operations ------------------------------------------------

    def mint(
        self,
        command: str,
        *,
        scope: str,
        action_class: str,
        allowed_classes: Iterable[str],
        ttl: timedelta | None = None,
        minted_by: str | None = None,
        now: datetime | None = None,
    ) -> Grant:
        """Write a new live grant (random id) for exactly `command` and audit it.
        Creates the store (and missing parents) `0o700`; expired grants are swept.
        GrantError for a bad argument, StoreError when it cannot be recorded."""
        from agentops.capability_grant import build_grant, serialize_grant

        moment = _common.utc_now() if now is None else now
        grant = build_grant(
            command,
            scope=scope,
            action_class=action_class,
            grant_id=secrets.token_hex(16),
            allowed_classes=allowed_classes,
            now=moment,
            ttl=ttl,
            minted_by=minted_by,
        )
        with self._opened(create=True) as store:
            if store is None:
                raise StoreError(f"grant store {self.directory}: could not be created")
            self._sweep(store, moment)
            name = f"{grant.id}.json"
            if _exists(name, store.spent):
                raise StoreError(f"grant store {self.directory}: id {grant.id} is already spent")
            fd = _claim(name, store.live)
            try:
                _write_all(fd, serialize_grant(grant).encode("ascii"))
                os.fsync(fd)
            finally:
                os.close(fd)
            _fsync(store.live)
            try:
                self._audit(store, "mint", grant, moment)
            except AuditFailed as exc:
                os.unlink(name, dir_fd=store.live)
                raise AuditFailed(
                    f"mint not recorded in the audit log ({exc}); grant removed"
                ) from None
        return grant

    def check(self, query: GrantQuery, allowed_classes: Iterable[str]) -> Grant | None:
        """The live grant matching `query`, or None. Never consumes, never writes."""
        from agentops.capability_grant import match_grant

        allowed = tuple(allowed_classes)
        with self._opened(create=False) as store:
            if store is None:
                return None
            return match_grant(self._live(store, allowed, None), query, allowed)

    def consume(
        self, query: GrantQuery, allowed_classes: Iterable[str], *, note: str | None = None
    ) -> Grant | None:
        """Atomically consume the live grant matching `query`: the consumed grant, or
        None when there is none, another consumer won, or the grant changed after the
        claim (its id then stays burned). Expired grants seen on the way are swept.
        AuditFailed when the consumption could not be audited (the id stays burned)."""
        from agentops.capability_grant import GrantQuery, mark_consumed, match_grant

        allowed = tuple(allowed_classes)
        moment = _common.utc_now() if query.now is None else query.now
        query = GrantQuery(query.command, query.scope, query.action_class, moment)
        with self._opened(create=False, subdirectories=True) as store:
            if store is None:
                return None
            hit = match_grant(self._live(store, allowed, moment), query, allowed)
            if hit is None:
                return None
            name = f"{hit.id}.json"
            try:
                fd = _claim(name, store.spent)
            except FileExistsError:
                return None  # another consumer won
            try:
                again = self._grant_at(name, store.live, allowed)
                if again is None or match_grant([again], query, allowed) is None:
                    return None  # changed or vanished after the claim: the id stays burned
                _write_spent(fd, mark_consumed(again, moment))
            finally:
                os.close(fd)
            _fsync(store.spent)
            _unlink(name, store.live)
            try:
                self._audit(store, "consume", again, moment, note)
            except AuditFailed as exc:
                raise AuditFailed(f"{exc}; grant {again.id} burned, not used") from None
        return again

    def revoke(self, grant_id: str, *, now: datetime | None = None) -> bool:
        """Burn the live grant `grant_id`: True when it was burned now, False when there
        was nothing to revoke. ValueError for an id that is not a grant id."""
        from agentops.capability_grant import mark_consumed

        if ID_PATTERN.fullmatch(grant_id) is None:
            raise ValueError(f"grant_id: not a grant id ({ID_PATTERN.pattern})")
        moment = _common.utc_now() if now is None else now
        name = f"{grant_id}.json"
        with self._opened(create=False) as store:
            if store is None or not _exists(name, store.live):
                return False
            try:
                fd = _claim(name, store.spent)
            except FileExistsError:
                return False
            record: Grant | dict[str, object] = {"id": grant_id}
            try:
                grant = self._grant_at(name, store.live, None)
                if grant is not None:
                    record = grant
                    _write_spent(fd, mark_consumed(grant, moment))
            except OSError:
                pass  # the claim alone burns the id
            finally:
                os.close(fd)
            _fsync(store.spent)
            _unlink(name, store.live)
            try:
                self._audit(store, "revoke", record, moment)
            except AuditFailed as exc:
                raise AuditFailed(
                    f"grant {grant_id} revoked, but the audit append failed ({exc})"
                ) from None
        return True

    def record_denial(
        self, command: str, *, scope: str, rule_id: str, now: datetime | None = None
    ) -> None:
        """Audit that `command` was denied by policy rule `rule_id` (AuditFailed if not)."""
        from agentops.capability_grant import command_hash

        seen: dict[str, object] = {
            "command": command,
            "command_sha256": command_hash(command),
            "scope": scope,
        }
        moment = _common.utc_now() if now is None else now
        if self.audit_log is not None:
            self._audit(None, "denied", seen, moment, rule_id)
            return
        with self._opened(create=True) as store:
            self._audit(store, "denied", seen, moment, rule_id)

    def sweep(self, now: datetime | None = None) -> int:
        """Delete the live grants that have expired; how many went."""
        moment = _common.utc_now() if now is None else now
        with self._opened(create=False, subdirectories=True) as store:
            return 0 if store is None else self._sweep(store, moment)

    # -- the directory --------------------------------------------------------

    @contextlib.contextmanager
    def _opened(self, *, create: bool, subdirectories: bool = False) -> Iterator[_Opened | None]:
        """The checked store, or None when it does not exist (and `create` is false).
        `create` makes the store and its missing parents; `subdirectories` makes
        only a missing `live/` or `spent/` inside an existing, checked store."""
        if not hasattr(os, "geteuid") or os.open not in os.supports_dir_fd:
            raise StoreError("the grant store needs a POSIX system (owners, dir_fd)")
        if create:
            _make_parents(self.directory)
        try:
            root = _open_checked(self.directory, None, self.directory, create=create)
        except FileNotFoundError:
            yield None
            return
        opened: list[int] = [root]
        try:
            for name in ("live", "spent"):
                where = os.path.join(self.directory, name)
                try:
                    opened.append(_open_checked(name, root, where, create=create or subdirectories))
                except FileNotFoundError:
                    break
            if len(opened) < 3:
                yield None
                return
            yield _Opened(*opened)
        finally:
            for fd in opened:
                os.close(fd)

    def _live(
        self, store: _Opened, allowed: tuple[str, ...], sweep_at: datetime | None
    ) -> list[Grant]:
        """The unspent grants of an allowed class in `live/`, by file name; a file that
        is not one warns and is skipped. With `sweep_at`, expired grants are deleted
        on the way."""
        from agentops.capability_grant import is_allowed_grant_class

        grants: list[Grant] = []
        for name, grant in self._scan(store, sweep_at, warn=True)[0]:
            if grant is not None and is_allowed_grant_class(grant.action_class, allowed):
                grants.append(grant)
            elif _exists(name, store.live) and not _exists(name, store.spent):
                # (a file that vanished or got spent meanwhile was a concurrent consumer's)
                self._warn(f"skipped grant file live/{name}: not a valid grant of an allowed class")
        return grants

    def _scan(
        self, store: _Opened, sweep_at: datetime | None, *, warn: bool
    ) -> tuple[list[tuple[str, Grant | None]], int]:
        """Each unspent `<id>.json` in `live/` with its grant (None when it is not a
        valid one), and how many files were swept (only with `sweep_at`)."""
        from agentops.capability_grant import is_grant_expired

        found: list[tuple[str, Grant | None]] = []
        swept = 0
        for name in sorted(os.listdir(store.live)):
            if not name.endswith(".json"):
                continue
            if ID_PATTERN.fullmatch(name[: -len(".json")]) is None:
                if warn:
                    self._warn(f"skipped grant file live/{name}: name is not <id>.json")
                continue
            if _exists(name, store.spent):
                # Spent, or being consumed right now: the claimer still has to re-read
                # the live file, so it is never swept.
                continue
            grant = self._grant_at(name, store.live, None)
            if sweep_at is not None and grant is not None and is_grant_expired(grant, sweep_at):
                swept += _unlink(name, store.live)
            else:
                found.append((name, grant))
        return found, swept

    def _sweep(self, store: _Opened, moment: datetime) -> int:
        return self._scan(store, moment, warn=False)[1]

    @staticmethod
    def _grant_at(name: str, live: int, allowed: tuple[str, ...] | None) -> Grant | None:
        """The grant in `live/<name>` whose id matches its name; its own class is
        accepted when `allowed` is None (revoke and sweep need no policy)."""
        from agentops.capability_grant import parse_grant

        try:
            data = _common.read_regular(
                name, limit=MAX_GRANT_FILE_BYTES, follow_links=False, dir_fd=live
            )
        except _common.FileNotRead:
            return None
        grant = parse_grant(data, _own_class(data) if allowed is None else allowed)
        return grant if grant is not None and f"{grant.id}.json" == name else None

    # -- the audit log ------------------------------------------------------

    def _audit(
        self,
        store: _Opened | None,
        event: str,
        record: Grant | dict[str, object],
        moment: datetime,
        note: str | None = None,
    ) -> None:
        from agentops.capability_grant import compose_audit_line

        shown_note = None if note is None else _redacted_and_cut(note)
        line = compose_audit_line(event, grant=_audited(record), now=moment, note=shown_note)
        payload = (line + "\n").encode("utf-8")
        try:
            if self.audit_log is not None:
                _common.append_record(self.audit_log, payload, mode=0o600, follow_links=False)
            elif store is not None:
                _common.append_record(
                    AUDIT_LOG_NAME, payload, mode=0o600, follow_links=False, dir_fd=store.root
                )
        except _common.FileNotWritten as exc:
            raise AuditFailed(f"audit log {self._audit_path()}: {exc}") from None

    def _audit_path(self) -> str:
        return self.audit_log or os.path.join(self.directory, AUDIT_LOG_NAME)


# ---------------------------------------------------------------------------
# Helpers


def _ignore(_message: str) -> None:
    return None


def _owner_problem(info: os.stat_result) -> str | None:
    """Why a directory with this `fstat` is not trusted, or None."""
    if not stat.S_ISDIR(info.st_mode):
        return "not a directory"
    if info.st_uid != os.geteuid():
        return f"owned by uid {info.st_uid}, not by the current user (uid {os.geteuid()})"
    if info.st_mode & 0o022:
        mode = stat.S_IMODE(info.st_mode)
        return f"writable by group or others (mode {mode:#o}); run chmod go-w on it"
    return None


def _open_checked(name: str, dir_fd: int | None, shown: str, *, create: bool) -> int:
    """A descriptor of the trusted directory `name`; FileNotFoundError when it is missing
    (and not created), StoreError when it is a link, not a directory, or not trusted."""
    if create:
        with contextlib.suppress(FileExistsError):
            os.mkdir(name, 0o700, dir_fd=dir_fd)
    try:
        fd = os.open(name, _DIRECTORY_FLAGS, dir_fd=dir_fd)
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):  # O_NOFOLLOW meets a link, or a file
            link = _is_link(name, dir_fd)
            kind = "a symbolic link, not a directory" if link else "not a directory"
            raise StoreError(f"grant store {shown}: {kind}") from None
        raise StoreError(f"grant store {shown}: cannot open: {exc.strerror or exc}") from None
    problem = _owner_problem(os.fstat(fd))
    if problem is not None:
        os.close(fd)
        raise StoreError(f"grant store {shown}: {problem}")
    return fd


def _is_link(name: str, dir_fd: int | None) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _make_parents(directory: str) -> None:
    """Create the missing parents of `directory`, each `0o700` (`~/.agentops` too)."""
    missing: list[str] = []
    parent = os.path.dirname(os.path.abspath(directory))
    while not os.path.lexists(parent):
        missing.append(parent)
        parent = os.path.dirname(parent)
    for path in reversed(missing):
        with contextlib.suppress(FileExistsError):
            os.mkdir(path, 0o700)


def _exists(name: str, dir_fd: int) -> bool:
    try:
        os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True


def _claim(name: str, dir_fd: int) -> int:
    """Create `name` exclusively (FileExistsError when it exists): the single-use claim."""
    flags = os.O_CREAT | os.O_EXCL | os.O_WRONLY | O_NOFOLLOW | O_CLOEXEC
    return os.open(name, flags, 0o600, dir_fd=dir_fd)


def _unlink(name: str, dir_fd: int) -> int:
    """Remove `name` if it is still there: 1 when this call removed it, else 0."""
    try:
        os.unlink(name, dir_fd=dir_fd)
    except FileNotFoundError:
        return 0
    return 1


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _write_spent(fd: int, grant: Grant) -> None:
    from agentops.capability_grant import serialize_grant

    _write_all(fd, serialize_grant(grant).encode("ascii"))
    os.fsync(fd)


def _fsync(dir_fd: int) -> None:
    with contextlib.suppress(OSError):
        os.fsync(dir_fd)


def _own_class(data: bytes) -> tuple[str, ...]:
    """The class a grant document names, so it can be parsed without a policy."""
    try:
        document = _common.loads_strict(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return ()
    value = document.get("action_class") if type(document) is dict else None
    return (value,) if type(value) is str else ()


_AUDITED_FIELDS = ("id", "scope", "action_class", "command", "expires_at", "minted_by")


def _audited(record: Grant | dict[str, object]) -> dict[str, object]:
    """The fields an audit line shows, each text redacted and cut; the hash is the
    hash of the whole command, so a cut or redacted command is still identified."""
    from agentops.capability_grant import command_hash

    fields: dict[str, object] = record if isinstance(record, dict) else record._asdict()
    shown: dict[str, object] = {}
    for name in _AUDITED_FIELDS:
        value = fields.get(name)
        shown[name] = _redacted_and_cut(value) if isinstance(value, str) else value
    command = fields.get("command")
    digest = fields.get("command_sha256")
    shown["command_sha256"] = command_hash(command) if isinstance(command, str) else digest
    return shown


def _redacted_and_cut(text: str) -> str:
    """`text` with secret shapes redacted, cut to `AUDIT_FIELD_CHARS` characters."""
    from agentops.secret_redaction import redact_secret_shapes

    head = redact_secret_shapes(text[:REDACTION_WINDOW_CHARS]).text
    if len(head) <= AUDIT_FIELD_CHARS and len(text) <= REDACTION_WINDOW_CHARS:
        return head
    return f"{head[:AUDIT_FIELD_CHARS]}...[cut: {len(text)} characters in all]"
