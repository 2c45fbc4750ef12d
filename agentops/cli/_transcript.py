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
import re
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

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
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        parsed, value = parse_line(line)
        yield Line(number, parsed, value, line)


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
