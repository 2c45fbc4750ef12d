"""Rules every agentops command shares: exit codes, the kill switch, output, files.

One way to do each thing: `open_regular` is the one way a command opens a file it
reads (one descriptor, non-blocking, optionally no-follow, checked with `fstat`),
`read_regular` the one reader on top of it (a size cap, refused not truncated),
`read_text_file` and `read_memory_dir` what the scans and the memory commands read
through it, `walk_files` the one walk, `append_record` the one appender (one
`os.write` on an `O_APPEND` descriptor, the creation mode chosen by the caller),
`add_json_option` the one `--json`, and `Subcommands` the type of what
`register(commands, hooks)` receives. Writers that create a private file whole
(a temporary file renamed into place, `O_EXCL`, 0o600) are a different operation
and stay with their owners.

Sweeping follows one rule set so every scan counts the same way: regular files
only; `.git`, `node_modules`, `__pycache__` and virtualenv folders skipped; a file
with a NUL byte in its first 8 KiB, one that is not UTF-8, one that cannot be read
and one over `MAX_FILE_BYTES` are *skipped and counted*, never a crash. Zero files
swept is probe-blind (exit 4), never clean.
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from collections.abc import Iterable, Iterator
from datetime import datetime, timezone
from typing import Any, NamedTuple, NoReturn, TypeAlias

EXIT_OK = 0  # clean / yes / done
EXIT_USAGE = 2  # usage, configuration or internal error
EXIT_FINDINGS = 3  # findings / no
EXIT_BLIND = 4  # probe-blind: nothing could be read
EXIT_CODES = frozenset({EXIT_OK, EXIT_USAGE, EXIT_FINDINGS, EXIT_BLIND})

BINARY_PROBE_BYTES = 8192
MAX_FILE_BYTES = 64 * 1024 * 1024  # larger files are skipped, not loaded whole
SKIPPED_DIRS = frozenset(
    {
        ".git",
        "node_modules",
        "__pycache__",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        ".hypothesis",
    }
)
PROGRESS_EVERY = 5000


# Open flags, each explained once. O_NONBLOCK: a FIFO or device swapped in for a file
# fails at once instead of hanging the command (fstat then refuses it). O_NOFOLLOW: a
# link planted where we expect a file is refused, not read through. O_CLOEXEC: no
# child process inherits the descriptor. Each is 0 where the platform lacks it.
O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


class Refusal(Exception):
    """A usage, configuration or refusal error: one stderr line, exit 2."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but usage errors exit 2 with one line (argparse's default is 2 too;
    this keeps the message to a single line on stderr)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        say_error(message)
        raise SystemExit(EXIT_USAGE)


# What a command file's `register(commands, hooks)` receives: the sub-parser actions
# of `agentops` and of `agentops hook`.
Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def add_json_option(parser: argparse.ArgumentParser, document: str = "") -> None:
    """`--json`, defined once for every command that has it; `document` says what
    the one JSON document holds where the command has more to say."""
    help_text = "one JSON document on stdout"
    parser.add_argument(
        "--json", action="store_true", help=f"{help_text}: {document}" if document else help_text
    )


def say_error(message: str) -> None:
    """One line on stderr, prefixed so a user knows which tool spoke."""
    print(f"agentops: {printable(message)}", file=sys.stderr)


def printable(text: str, stream: Any = None) -> str:
    """`text` with whatever `stream`'s encoding cannot show backslash-escaped, and no
    line breaks, so an odd file name never crashes output or forges a line."""
    encoding = getattr(stream or sys.stdout, "encoding", None) or "utf-8"
    flat = text.replace("\r", "\\r").replace("\n", "\\n")
    try:
        return flat.encode(encoding, "backslashreplace").decode(encoding, "replace")
    except LookupError:
        return flat.encode("ascii", "backslashreplace").decode("ascii")


def disabled() -> bool:
    """The kill switch: `AGENTOPS_DISABLED=1`."""
    return os.environ.get("AGENTOPS_DISABLED", "").strip() == "1"


def scan_disabled() -> int:
    """What a scan command does when switched off: say so and be probe-blind."""
    print("disabled by AGENTOPS_DISABLED")
    return EXIT_BLIND


def print_json(document: Any) -> None:
    """One ASCII-safe JSON document on stdout."""
    print(json.dumps(document, ensure_ascii=True, indent=2, sort_keys=False))


def as_json(value: Any) -> Any:
    """NamedTuples as objects with every field (nested too), tuples as lists."""
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        fields: dict[str, Any] = value._asdict()
        return {k: as_json(v) for k, v in fields.items()}
    if isinstance(value, (list, tuple)):
        return [as_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): as_json(v) for k, v in value.items()}
    return value


class SweptFile(NamedTuple):
    path: str
    text: str


class Skipped(NamedTuple):
    path: str
    reason: str


class Sweep:
    """Walk PATHs lazily; iterate for readable text files, then read `skipped`.

    Usage: `sweep = Sweep(paths); for f in sweep: ...; sweep.swept, sweep.skipped`.
    """

    def __init__(self, paths: Iterable[str], *, keep_bom: bool = False) -> None:
        self.paths = list(paths)
        self.keep_bom = keep_bom
        self.swept = 0
        self.skipped: list[Skipped] = []
        self._progress = sys.stderr.isatty()

    def __iter__(self) -> Iterator[SweptFile]:
        for path in walk_files(self.paths, self.skipped):
            text = read_text_file(path, keep_bom=self.keep_bom)
            if isinstance(text, Skipped):
                self.skipped.append(text)
                continue
            self.swept += 1
            if self._progress and self.swept % PROGRESS_EVERY == 0:
                print(f"... {self.swept} files", file=sys.stderr)
            yield SweptFile(path, text)

    def summary(self) -> str:
        return f"swept {self.swept} files ({len(self.skipped)} skipped)"


def walk_files(paths: Iterable[str], skipped: list[Skipped]) -> Iterator[str]:
    """The regular files under `paths` (each a file or a folder walked in name order),
    lazily, by the sweep rule; every path that is not one is appended to `skipped`
    with why. Files are not opened here: whoever reads one uses `read_regular`, which
    checks again on the descriptor it reads."""
    for root in paths:
        try:
            mode = os.stat(root).st_mode
        except OSError as exc:
            skipped.append(Skipped(root, f"cannot stat: {exc.strerror or exc}"))
            continue
        if stat.S_ISDIR(mode):
            yield from _walk_dir(root, skipped)
        elif stat.S_ISREG(mode):
            yield root
        else:
            skipped.append(Skipped(root, "not a regular file"))


def _walk_dir(top: str, skipped: list[Skipped]) -> Iterator[str]:
    def on_error(exc: OSError) -> None:
        skipped.append(Skipped(exc.filename or top, f"cannot list: {exc.strerror or exc}"))

    for folder, dirs, files in os.walk(top, onerror=on_error):
        dirs[:] = sorted(d for d in dirs if not _skip_dir(os.path.join(folder, d), d))
        for name in sorted(files):
            path = os.path.join(folder, name)
            if os.path.islink(path) or not os.path.isfile(path):
                skipped.append(Skipped(path, "not a regular file"))
            else:
                yield path


def _skip_dir(path: str, name: str) -> bool:
    if name in SKIPPED_DIRS or os.path.islink(path):
        return True
    return os.path.isfile(os.path.join(path, "pyvenv.cfg"))  # any virtualenv


class FileNotRead(Exception):
    """Why `read_regular` read nothing: `str(exc)` is one short phrase ("missing",
    "unreadable: ...", "not a regular file", "larger than N bytes"); `errno` is set
    when the operating system refused (the file is missing, locked, a link not
    followed), None when the file was there but not acceptable."""

    def __init__(self, phrase: str, errno: int | None = None) -> None:
        super().__init__(phrase)
        self.errno = errno

    @classmethod
    def from_os_error(cls, exc: OSError) -> FileNotRead:
        if isinstance(exc, FileNotFoundError):
            return cls("missing", exc.errno)
        return cls(f"unreadable: {exc.strerror or exc}", exc.errno)

    @property
    def missing(self) -> bool:
        return str(self) == "missing"

    @property
    def reason(self) -> str:
        """The phrase as a skip reason: a missing file is one that could not be read."""
        return "unreadable: missing" if self.missing else str(self)


def open_regular(path: str, *, follow_links: bool, dir_fd: int | None = None) -> int:
    """A read-only descriptor (the caller closes it) on the regular file at `path`, or
    FileNotRead saying why not: the open is non-blocking and, unless `follow_links`,
    refuses a final symlink; the descriptor's own `fstat` then refuses anything but
    a regular file, so the file checked is the file read. `dir_fd`: `path` is
    relative to that open directory."""
    flags = os.O_RDONLY | O_CLOEXEC | O_NONBLOCK | (0 if follow_links else O_NOFOLLOW)
    try:
        fd = os.open(path, flags, dir_fd=dir_fd)
    except OSError as exc:
        raise FileNotRead.from_os_error(exc) from None
    try:
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError as exc:
        os.close(fd)
        raise FileNotRead.from_os_error(exc) from None
    if not regular:
        os.close(fd)
        raise FileNotRead("not a regular file")
    return fd


def read_regular(
    path: str, *, limit: int | None, follow_links: bool, dir_fd: int | None = None
) -> bytes:
    """The bytes of the regular file at `path` (opened by `open_regular`), or
    FileNotRead saying why not. More than `limit` bytes (when given) is refused, not
    truncated: first from the size `fstat` reports, without reading, then from what
    was read (the file grew after the `fstat`)."""
    fd = open_regular(path, follow_links=follow_links, dir_fd=dir_fd)
    try:
        if limit is not None and os.fstat(fd).st_size > limit:
            raise FileNotRead(f"larger than {limit} bytes")
        data = _read_to_end(fd, limit)
    except OSError as exc:
        raise FileNotRead.from_os_error(exc) from None
    finally:
        os.close(fd)
    if limit is not None and len(data) > limit:
        raise FileNotRead(f"larger than {limit} bytes")
    return data


def _read_to_end(fd: int, limit: int | None) -> bytes:
    """Everything `fd` holds, stopping one byte past `limit` (so growth shows)."""
    chunks: list[bytes] = []
    size = 0
    while limit is None or size <= limit:
        want = 1 << 20 if limit is None else limit + 1 - size
        chunk = os.read(fd, want)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


class FileNotWritten(Exception):
    """Why `append_record` wrote nothing: `str(exc)` is one short phrase."""


def append_record(
    path: str, payload: bytes, *, mode: int, follow_links: bool, dir_fd: int | None = None
) -> None:
    """Append `payload` to the regular file at `path` in ONE `os.write`, or raise
    FileNotWritten saying why nothing was written.

    The file is created with `mode` (the caller's choice: 0o600 for an audit log,
    0o644 for a ledger), never truncated or rewritten; `O_APPEND` makes concurrent
    appenders interleave whole records. If the file is non-empty and does not end in
    a newline (a writer died mid-line), the write starts with a newline so the torn
    line never swallows this record. Flags as for `read_regular`."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | O_NONBLOCK | O_CLOEXEC
    flags |= 0 if follow_links else O_NOFOLLOW
    try:
        fd = os.open(path, flags, mode, dir_fd=dir_fd)
    except OSError as exc:
        raise FileNotWritten(f"cannot open for appending: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileNotWritten("not a regular file")
        if payload and info.st_size > 0 and not _ends_in_newline(path, info, flags, dir_fd):
            payload = b"\n" + payload
        if not payload:
            return
        written = os.write(fd, payload)
        if written != len(payload):
            raise FileNotWritten(f"short write ({written} of {len(payload)} bytes)")
    except OSError as exc:
        raise FileNotWritten(f"cannot write: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _ends_in_newline(path: str, info: os.stat_result, flags: int, dir_fd: int | None) -> bool:
    """Whether the file `info` describes ends in b"\\n"; False when that cannot be
    read back from the same file (the caller then writes a separating newline).

    Under concurrent appends this can answer False for a tail that is only
    mid-write (a page-crossing append publishes its new size before its last
    bytes), which costs one blank line, never a merged record: blank lines are
    not records."""
    read_flags = os.O_RDONLY | (flags & (O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW))
    try:
        fd = os.open(path, read_flags, dir_fd=dir_fd)
    except OSError:
        return False
    try:
        mine = os.fstat(fd)
        if (mine.st_dev, mine.st_ino) != (info.st_dev, info.st_ino) or mine.st_size < 1:
            return False
        return os.pread(fd, 1, mine.st_size - 1) == b"\n"
    except OSError:
        return False
    finally:
        os.close(fd)


def escape_invisible(text: str) -> str:
    """`text` with every character a person cannot see for what it is written as an
    escape (`\\u200b`, `\\u202e`, `\\t`, `\\x1b`), and a backslash doubled so an
    escape typed literally is told apart: what is shown is exactly what is meant.

    Escaped: what `str.isprintable` refuses (controls, format characters such as
    zero-width and bidirectional marks, separators other than the ASCII space,
    surrogates, private-use and unassigned code points) and the variation
    selectors, which are printable combining marks that render as nothing."""
    if text.isascii() and text.isprintable() and "\\" not in text:
        return text
    return "".join(_escaped_char(char) for char in text)


_NAMED_ESCAPES = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}
_VARIATION_SELECTORS = ((0xFE00, 0xFE0F), (0xE0100, 0xE01EF), (0x180B, 0x180F))


def _escaped_char(char: str) -> str:
    if char in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[char]
    code = ord(char)
    hidden = any(low <= code <= high for low, high in _VARIATION_SELECTORS)
    if char.isprintable() and not hidden:
        return char
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def loads_strict(text: str) -> Any:
    """JSON with every duplicated key (at any depth) and NaN/Infinity refused: ValueError."""
    return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    document: dict[str, Any] = {}
    for key, value in pairs:
        if key in document:
            raise ValueError(f"duplicated key {key!r}")
        document[key] = value
    return document


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def agentops_home(*parts: str) -> str:
    """A path under `~/.agentops` (the default home of policy and grant store)."""
    return os.path.join(os.path.expanduser("~"), ".agentops", *parts)


def utc_now() -> datetime:
    """The clock, read once per invocation by the commands that need it."""
    return datetime.now(timezone.utc)


def read_text_file(path: str, *, keep_bom: bool = False) -> str | Skipped:
    """The UTF-8 text of a regular file, or why it was skipped. Never raises.

    A leading byte-order mark is dropped unless `keep_bom` (a scanner that
    reports one asks to see it)."""
    try:
        data = read_regular(path, limit=MAX_FILE_BYTES, follow_links=True)
    except FileNotRead as exc:
        return Skipped(path, exc.reason)
    if b"\x00" in data[:BINARY_PROBE_BYTES]:
        return Skipped(path, "binary")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return Skipped(path, "not UTF-8")
    return text[1:] if text.startswith("\ufeff") and not keep_bom else text


def text_replacing(data: bytes) -> str:
    """`data` as UTF-8 with invalid sequences replaced and one leading BOM dropped."""
    text = data.decode("utf-8", "replace")
    return text[1:] if text.startswith("\ufeff") else text


def read_stdin_text(limit: int | None = None) -> str:
    """stdin as text (UTF-8, invalid bytes replaced); at most `limit` bytes when given."""
    data = sys.stdin.buffer.read() if limit is None else sys.stdin.buffer.read(limit)
    return data.decode("utf-8", "replace")


class SkippedEntry(NamedTuple):
    """A memory directory entry that was not read: its name and why."""

    name: str
    reason: str


class MemoryDir(NamedTuple):
    """A memory directory as `memory lint` and `ledger` read it
    (docs/reference/memory_integrity.md)."""

    files: tuple[tuple[str, str | None], ...]  # every `.md` entry: (name, text or None)
    skipped: tuple[SkippedEntry, ...]  # why each entry read as None was not read
    not_regular: frozenset[str]  # names that were not regular files when listed
    listed: bool  # False when the directory could not be listed (NOTHING SWEPT)


LINK_NOT_FOLLOWED = "symbolic link, not followed"


def read_memory_dir(directory: str) -> MemoryDir:
    """Every entry of `directory` whose name ends in `.md` (any case), sorted by name,
    with its text or why it has none. Never raises; the caller checks that
    `directory` is a directory (a usage error otherwise).

    An entry that is not a regular file when listed (a symbolic link, a folder, a
    FIFO, a socket) is never opened, nor is one larger than `MAX_FILE_BYTES` (refused
    from its size alone, never loaded). The rest are read by `read_regular` without
    following links and with the same cap, so a link or FIFO swapped in since the
    listing is not read, nor a file grown past the cap. The text is UTF-8 with
    invalid sequences replaced and a leading BOM dropped."""
    try:
        names = sorted(n for n in os.listdir(directory) if n.lower().endswith(".md"))
    except OSError:
        return MemoryDir((), (), frozenset(), False)
    files: list[tuple[str, str | None]] = []
    skipped: list[SkippedEntry] = []
    not_regular: set[str] = set()
    for name in names:
        path = os.path.join(directory, name)
        regular, why = _entry_refusal(path)
        if not regular:
            not_regular.add(name)
        text: str | None = None
        if not why:
            try:
                text = text_replacing(read_regular(path, limit=MAX_FILE_BYTES, follow_links=False))
            except FileNotRead as exc:
                why = exc.reason
        files.append((name, text))
        if why:
            skipped.append(SkippedEntry(name, why))
    return MemoryDir(tuple(files), tuple(skipped), frozenset(not_regular), True)


def _entry_refusal(path: str) -> tuple[bool, str]:
    """Whether the listed entry `path` is a regular file, and why it is not to be
    read ("" when it is), both from its lstat."""
    try:
        info = os.lstat(path)
    except OSError as exc:
        return False, FileNotRead.from_os_error(exc).reason
    if stat.S_ISLNK(info.st_mode):
        return False, LINK_NOT_FOLLOWED
    if not stat.S_ISREG(info.st_mode):
        return False, "not a regular file"
    if info.st_size > MAX_FILE_BYTES:
        return True, f"too large to read ({info.st_size} bytes, limit {MAX_FILE_BYTES})"
    return True, ""
