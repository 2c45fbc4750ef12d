"""Per-session state shared by the agentops hooks, kept in the store directory.

One small JSON file per session (`<store>/sessions/<digest>.json`, the digest a
SHA-256 of the harness's `session_id`, so no id can name a path) holds:

- `sources`: the untrusted tools whose output this session has taken in
  (written by `hook post-tool-use`, read by `hook memory-write`);
- `turn`: the marker of the current user turn, and `loop`: `loop_guard`'s
  counters for that turn (written by `hook loop-guard`, reset by
  `hook user-prompt-submit` or by a new prompt id in the hook input).

Several hooks run at once (parallel tool calls in one turn), so every change is
a read-modify-write under an exclusive `fcntl.flock` on a lock file beside the
state, and the new state is written to a private temporary file and renamed
over the old one: a reader never sees half a file, and no update is lost.

The store must be the current user's: directories are created 0o700, and one
that is not a directory (a symbolic link included), belongs to another user, or
is writable by group or others is refused (`UnsafeStore`), because whoever can
write there can forge what the hooks believe about a session.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import stat
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from agentops.cli import _common

DEFAULT_STORE = os.path.join("~", ".agentops")
SESSIONS = "sessions"
MAX_STATE_BYTES = 4 * 1024 * 1024  # a state file larger than this is corrupt
_T = TypeVar("_T")


class UnsafeStore(OSError):
    """The store directory is not private to the current user."""


class CorruptState(ValueError):
    """A state file exists but is not a JSON object this module wrote."""


def store_path(option: str | None) -> str:
    """The store directory: `--store` when given, else `~/.agentops`."""
    return os.path.abspath(os.path.expanduser(option or DEFAULT_STORE))


def _private_dir(path: str) -> None:
    """Create `path` 0o700 if absent; refuse it unless it is a private directory."""
    with contextlib.suppress(FileExistsError):
        os.mkdir(path, 0o700)
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode):
        raise UnsafeStore(errno.ENOTDIR, "not a directory (or a symbolic link)", path)
    if info.st_uid != os.getuid():
        raise UnsafeStore(errno.EPERM, "owned by another user", path)
    if info.st_mode & 0o022:
        raise UnsafeStore(errno.EPERM, "writable by group or others", path)


def session_path(store: str, session_id: str) -> str:
    """The state file of `session_id` (directories created and checked)."""
    parent = os.path.dirname(store)
    if parent and not os.path.isdir(parent):
        os.makedirs(parent, 0o700, exist_ok=True)
    _private_dir(store)
    sessions = os.path.join(store, SESSIONS)
    _private_dir(sessions)
    import hashlib  # imported here: every command start pays for module-level imports

    digest = hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()[:40]
    return os.path.join(sessions, digest + ".json")


def read(path: str) -> dict[str, Any] | None:
    """The state at `path`; None when there is none. Raises CorruptState or OSError.

    Read by `_common.read_regular` without following links: a link planted at the
    state path is an OSError (whoever planted it chose what the hooks would believe),
    a FIFO or anything over `MAX_STATE_BYTES` is CorruptState, never waited on or
    loaded."""
    try:
        data = _common.read_regular(path, limit=MAX_STATE_BYTES, follow_links=False)
    except _common.FileNotRead as exc:
        if exc.missing:
            return None
        if exc.errno is not None:  # refused by the system: the caller's OSError, as it was
            raise OSError(exc.errno, os.strerror(exc.errno), path) from None
        raise CorruptState(f"state file is {exc}") from None
    try:
        state = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError) as exc:
        raise CorruptState("state file is not JSON") from exc
    if not isinstance(state, dict):
        raise CorruptState("state file is not a JSON object")
    return state


# The lock and the temporary state file are created here, not read: their flags are
# _common's, explained there, plus O_CREAT (and O_EXCL for the temporary file).
@contextlib.contextmanager
def _locked(path: str) -> Iterator[None]:
    flags = os.O_RDWR | os.O_CREAT | _common.O_NOFOLLOW | _common.O_CLOEXEC
    fd = os.open(path + ".lock", flags, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _write(path: str, state: dict[str, Any]) -> None:
    data = json.dumps(state, ensure_ascii=True, separators=(",", ":")).encode("ascii")
    temporary = f"{path}.{os.getpid()}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _common.O_NOFOLLOW | _common.O_CLOEXEC
    with contextlib.suppress(FileNotFoundError):
        os.unlink(temporary)  # left by a crashed writer with a reused pid; we hold the lock
    fd = os.open(temporary, flags, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def update(path: str, change: Callable[[dict[str, Any]], _T]) -> _T:
    """Apply `change` to the state at `path` (a fresh `{}` when absent or corrupt)
    under the session's lock, write the result atomically, and return what
    `change` returned. `change` mutates the dict it is given."""
    with _locked(path):
        try:
            state = read(path) or {}
        except CorruptState:
            state = {}  # the writers fail open: a broken file restarts the session's state
        answer = change(state)
        _write(path, state)
        return answer
