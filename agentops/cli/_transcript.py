"""Agent transcripts as JSON lines: every string in a record, with the path to it.

Coding agents keep each session as a JSON-lines file (`.jsonl`, `.ndjson`): one JSON
record per line, and the text a person or a model saw sits inside escaped strings
(`"content": "{\\"key\\": ...}"`). Scanning the raw line would report a column
inside an escape sequence and miss what an escape hides; so each line is parsed,
every string value and every key is decoded, and a finding names the JSON path to
the string (`message.content[2].text`), never the string.

Rules, each pinned by a test:
- A line that is not valid JSON (malformed, truncated, nested past what the
  standard parser accepts) is returned as text and counted, never dropped.
- The walk is iterative: nesting depth never raises.
- A key is shown in a path only when it is a short, plain name with no
  secret-shaped run; any other key is shown by position (`<key 3>`), so a path
  never carries a value.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any, BinaryIO, NamedTuple

from agentops.cli import _common

TRANSCRIPT_SUFFIXES = (".jsonl", ".ndjson")
ROOT_PATH = "$"

# A key printed as-is: an identifier-like name of at most 64 characters. Anything
# else (spaces, quotes, dots, brackets, control characters, long runs) is shown
# by position, so a path stays unambiguous and can never carry a value.
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]{0,63}\Z")


class JsonString(NamedTuple):
    """One decoded string of a record: where it is, and whether it is a key."""

    path: str  # e.g. "message.content[2].text"; "$" for a record that is one string
    text: str
    is_key: bool


class Line(NamedTuple):
    """One non-blank line of a transcript: its number, and its value when it is JSON."""

    number: int  # 1-based
    parsed: bool  # False: the line is not JSON, and is scanned as text
    value: Any  # the parsed value (objects as `Pairs`); None when not parsed
    raw: str  # the line as written


def is_transcript(path: str) -> bool:
    """True for a file name that says JSON lines (`.jsonl`, `.ndjson`, any case)."""
    return path.lower().endswith(TRANSCRIPT_SUFFIXES)


class Pairs(list):  # type: ignore[type-arg]
    """A JSON object as its (key, value) pairs in document order, duplicates kept.

    The standard parser keeps only the last of two equal keys; a scanner that did
    the same would never see a secret placed under the first."""


def parse_line(line: str) -> tuple[bool, Any]:
    """(True, value) for a line holding one JSON value, else (False, None). Never raises.

    Objects come back as `Pairs`, so duplicate keys are all seen."""
    try:
        return True, json.loads(line, object_pairs_hook=Pairs)
    except (ValueError, RecursionError):
        return False, None


def lines(text: str) -> Iterator[Line]:
    """Each non-blank line of a JSON-lines text, parsed; blank lines are skipped."""
    return parsed_lines(enumerate(text.split("\n"), start=1))


def parsed_lines(numbered: Iterable[tuple[int, str]]) -> Iterator[Line]:
    """Each non-blank (number, text) line, parsed; blank lines are skipped."""
    for number, line in numbered:
        if not line.strip():
            continue
        parsed, value = parse_line(line)
        yield Line(number, parsed, value, line)


MAX_LINE_BYTES = 64 * 1024 * 1024  # one record larger than this is skipped and named
BINARY_PROBE_BYTES = 8192
_CHUNK = 1 << 20


class FileLines:
    """A transcript file read line by line: no cap on the file (agent sessions grow
    past any whole-file cap), a cap on one line. Iterate for (number, text); then
    read `size`, `too_large` (numbers of lines skipped) and `not_utf8` (lines
    decoded with replacement characters). `problem()` says why nothing can be read.

    The file is opened once, by `_common.open_regular` (a FIFO or device swapped in
    is refused at once, never waited on; a link named as the file is followed):
    the descriptor `problem()` probes is the one iteration streams, so a file
    replaced in between is not read."""

    def __init__(self, path: str, *, max_line_bytes: int | None = None) -> None:
        self.path = path
        self.max_line_bytes = MAX_LINE_BYTES if max_line_bytes is None else max_line_bytes
        self.size = 0
        self.too_large: list[int] = []
        self.not_utf8 = 0
        self._probed: BinaryIO | None = None  # opened by `problem()`, streamed by iteration

    def problem(self) -> str | None:
        """ "binary" (a NUL byte in the first 8 KiB), why the file could not be opened
        ("not a regular file", "unreadable: ..."), or None."""
        try:
            handle, self._probed = self._probed or self._open(), None
        except _common.FileNotRead as exc:
            return exc.reason
        try:
            head = handle.read(BINARY_PROBE_BYTES)
            handle.seek(0)
        except OSError as exc:
            handle.close()
            return f"unreadable: {exc.strerror or exc}"
        if b"\x00" in head:
            handle.close()
            return "binary"
        self._probed = handle
        return None

    def __iter__(self) -> Iterator[tuple[int, str]]:
        """The lines of the file `problem()` probed; without a probe, the file is opened
        here (FileNotRead, at once, when it cannot be)."""
        handle, self._probed = self._probed or self._open(), None
        with handle:
            number = 0
            while True:
                raw = handle.readline(self.max_line_bytes + 1)
                if not raw:
                    return
                number += 1
                self.size += len(raw)
                if len(raw) > self.max_line_bytes and not raw.endswith(b"\n"):
                    self.size += self._skip_rest(handle)
                    self.too_large.append(number)
                    continue
                yield number, self._decode(raw.rstrip(b"\n"), first=number == 1)

    def _open(self) -> BinaryIO:
        return os.fdopen(_common.open_regular(self.path, follow_links=True), "rb")

    def _skip_rest(self, handle: BinaryIO) -> int:
        skipped = 0
        while True:
            chunk = handle.readline(_CHUNK)
            skipped += len(chunk)
            if not chunk or chunk.endswith(b"\n"):
                return skipped

    def _decode(self, raw: bytes, *, first: bool) -> str:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            self.not_utf8 += 1
            text = raw.decode("utf-8", "replace")
        return text[1:] if first and text.startswith("\ufeff") else text


def strings(
    value: Any, *, is_plain_key: Callable[[str], bool] | None = None
) -> Iterator[JsonString]:
    """Every string and key inside a JSON value, depth-first in document order.

    Iterative (an explicit stack), so no nesting depth can raise. `is_plain_key`
    decides which keys may appear in a path as written (default: `plain_key`)."""
    show_key = is_plain_key or plain_key
    stack: list[tuple[str, Any, bool]] = [(ROOT_PATH, value, False)]
    while stack:
        path, item, is_key = stack.pop()
        if isinstance(item, str):
            yield JsonString(path, item, is_key)
        elif isinstance(item, (dict, Pairs)):
            pairs = list(item.items() if isinstance(item, dict) else item)
            for position in range(len(pairs) - 1, -1, -1):  # reversed: popped in order
                key, child = pairs[position]
                child_path = _join(path, key_segment(key, position, show_key))
                stack.append((child_path, child, False))
                stack.append((child_path, key, True))
        elif isinstance(item, list):
            prefix = "" if path == ROOT_PATH else path
            stack.extend(
                (f"{prefix}[{index}]", item[index], False) for index in range(len(item) - 1, -1, -1)
            )


def plain_key(key: str) -> bool:
    """A key that may be printed in a path: identifier-like and at most 64 characters.

    Callers that can see secret shapes pass a stricter test (see `strings`)."""
    return _PLAIN_KEY.match(key) is not None


def key_segment(key: str, position: int, show_key: Callable[[str], bool]) -> str:
    """The path segment for a key: the key itself when it may be shown, else its position."""
    return key if show_key(key) else f"<key {position}>"


def _join(path: str, segment: str) -> str:
    return segment if path == ROOT_PATH else f"{path}.{segment}"


def dump_line(value: Any) -> str:
    """One JSON line for `value`: readable UTF-8 where the text allows, ASCII escapes
    where it holds a lone surrogate (which UTF-8 cannot carry)."""
    line = json.dumps(value, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, ensure_ascii=True)
    return line
