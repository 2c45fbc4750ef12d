"""JSON for hooks at any nesting depth: an iterative reader and writer.

The standard library's `json` recurses once per nesting level, so a document
nested about a thousand levels deep raises `RecursionError` while reading or
writing it. A tool result is shaped by whoever wrote the tool (an MCP server, a
web page turned into JSON), so a hook that must always answer cannot rely on
recursion. `loads` tries the fast C parser first and falls back to an explicit
stack; `dumps` always walks with an explicit stack. Both accept and produce
exactly what `json.loads` / `json.dumps(ensure_ascii=True)` do for documents the
standard library can handle (pinned by tests).
"""

from __future__ import annotations

import json
import json.decoder
import re
from collections.abc import Callable
from json.encoder import encode_basestring_ascii
from typing import Any, cast

# The standard library's string scanner (C accelerated), absent from the type stubs.
scanstring = cast(Callable[[str, int, bool], tuple[str, int]], vars(json.decoder)["scanstring"])

_WHITESPACE = re.compile(r"[ \t\n\r]*")
# The number grammar of RFC 8259, as the standard library's scanner reads it.
_NUMBER = re.compile(r"(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_CONSTANTS: dict[str, Any] = {
    "null": None,
    "true": True,
    "false": False,
    "NaN": float("nan"),
    "Infinity": float("inf"),
    "-Infinity": float("-inf"),
}


class _Open:
    """A container being filled: its value, and the key awaiting a value (objects)."""

    __slots__ = ("key", "value")

    def __init__(self, value: dict[str, Any] | list[Any]) -> None:
        self.value = value
        self.key: str | None = None


def loads(text: str) -> Any:
    """`json.loads(text)`, but any nesting depth parses. Raises ValueError on bad JSON."""
    try:
        return json.loads(text)
    except RecursionError:
        return _loads_iterative(text)


def _skip(text: str, pos: int) -> int:
    match = _WHITESPACE.match(text, pos)
    return match.end() if match else pos


def _scalar(text: str, pos: int) -> tuple[Any, int]:
    """A string, number or constant starting at `pos`, and the position after it."""
    if text.startswith('"', pos):
        return scanstring(text, pos + 1, True)
    for word, value in _CONSTANTS.items():
        if text.startswith(word, pos):
            return value, pos + len(word)
    match = _NUMBER.match(text, pos)
    if not match:
        raise ValueError(f"expecting a value at {pos}")
    whole, fraction, exponent = match.groups()
    if fraction or exponent:
        return float(whole + (fraction or "") + (exponent or "")), match.end()
    return int(whole), match.end()


def _loads_iterative(text: str) -> Any:
    stack: list[_Open] = []
    pos = _skip(text, 0)
    result: Any = None
    done = False
    while True:
        # Read one value (opening a container counts as reading its start).
        char = text[pos : pos + 1]
        if char == "{" or char == "[":
            container = _Open({} if char == "{" else [])
            stack.append(container)
            pos = _skip(text, pos + 1)
            closing = "}" if char == "{" else "]"
            if text.startswith(closing, pos):
                stack.pop()
                value: Any = container.value
                pos += 1
            else:
                if char == "{":
                    pos = _object_key(text, pos, container)
                continue
        else:
            value, pos = _scalar(text, pos)
        # Attach the finished value, then close every container it completes.
        while True:
            if not stack:
                result, done = value, True
                break
            top = stack[-1]
            if isinstance(top.value, dict):
                assert top.key is not None
                top.value[top.key] = value
            else:
                top.value.append(value)
            pos = _skip(text, pos)
            closing = "}" if isinstance(top.value, dict) else "]"
            if text.startswith(",", pos):
                pos = _skip(text, pos + 1)
                if isinstance(top.value, dict):
                    pos = _object_key(text, pos, top)
                break
            if not text.startswith(closing, pos):
                raise ValueError(f"expecting ',' or {closing!r} at {pos}")
            stack.pop()
            value = top.value
            pos += 1
        if done:
            break
    if _skip(text, pos) != len(text):
        raise ValueError(f"extra data at {pos}")
    return result


def _object_key(text: str, pos: int, container: _Open) -> int:
    """Read `"key":` into `container` and return the position of its value."""
    if not text.startswith('"', pos):
        raise ValueError(f"expecting a property name at {pos}")
    key, pos = scanstring(text, pos + 1, True)
    pos = _skip(text, pos)
    if not text.startswith(":", pos):
        raise ValueError(f"expecting ':' at {pos}")
    container.key = key
    return _skip(text, pos + 1)


def dumps(value: Any) -> str:
    """`json.dumps(value)` (ASCII-safe, default separators) at any nesting depth."""
    parts: list[str] = []
    # Work items: a value to write, or a literal piece of punctuation (a str in a tuple).
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            parts.append(item[0])
        elif isinstance(item, str):
            parts.append(encode_basestring_ascii(item))
        elif isinstance(item, dict):
            stack.append(("}",))
            entries = list(item.items())
            for index in range(len(entries) - 1, -1, -1):
                key, member = entries[index]
                stack.append(member)
                separator = ", " if index else ""
                stack.append((separator + encode_basestring_ascii(_key(key)) + ": ",))
            stack.append(("{",))
        elif isinstance(item, list):
            stack.append(("]",))
            for index in range(len(item) - 1, -1, -1):
                stack.append(item[index])
                if index:
                    stack.append((", ",))
            stack.append(("[",))
        else:
            parts.append(json.dumps(item))  # None, bool, int, float: never nested
    return "".join(parts)


def _key(key: Any) -> str:
    if isinstance(key, str):
        return key
    return json.dumps(key) if key is None or isinstance(key, (bool, int, float)) else str(key)
