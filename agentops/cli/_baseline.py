"""Keyed fingerprints for `scan-secrets`, and the baseline file that accepts known findings.

Fingerprints
------------
A fingerprint tells two findings apart and matches one finding across runs; it
must not let a reader of the output confirm a guess. An unkeyed hash of the value
does the opposite: for a low-entropy password, hashing a small dictionary finds
the word whose hash matches. So a fingerprint is the first 32 bits of
HMAC-SHA256 of the value under a key the output never shows:

- by default a per-machine key, 32 random bytes kept in
  `$AGENTOPS_FINGERPRINT_KEY_FILE`, else `~/.agentops/fingerprint.key` (beside the
  grant store; created on first use, mode 0600);
  when it cannot be kept, a fresh key for this run (fingerprints then match only
  within the run, and the command says so);
- with `--baseline FILE`, the salt stored in FILE, so a baseline made on one
  machine matches on another (CI).

The limit that stays: whoever holds both the key (a readable baseline file, or
the machine's key file) and a fingerprint can still test guesses against it.
A baseline is therefore no more secret than the repository it sits in, and is
meant for findings that are accepted, not for hiding live credentials.

Baseline file
-------------
JSON: `{"agentops_baseline": 1, "salt": <32 hex>, "findings": [{"path", "shape",
"fingerprint"}, ...]}`. Paths are relative to the working directory, with `/`.
It never holds a value. A file that does not parse, or lacks these fields, is a
usage error: never read as an empty baseline (which would accept nothing and be
harmless) nor as a partial one.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from collections import Counter
from collections.abc import Iterable
from typing import Any, NamedTuple

from agentops.cli import _common

FORMAT_VERSION = 1
FINGERPRINT_HEX = 8
SALT_HEX = 32  # 128 bits; a 64-digit run would itself read as a long-hex secret
KEY_ENV = "AGENTOPS_FINGERPRINT_KEY_FILE"
MAX_KEY_FILE_BYTES = 4096  # a key file is 65 bytes; anything far larger is not one

Entry = tuple[str, str, str]  # (path, shape, fingerprint)


class BaselineError(Exception):
    """A baseline file that cannot be used; the message names why, never a value."""


class Baseline(NamedTuple):
    salt: str  # hex
    entries: Counter[Entry]

    @property
    def key(self) -> bytes:
        return bytes.fromhex(self.salt)


def fingerprint(key: bytes, value: str) -> str:
    """The first 32 bits of HMAC-SHA256(key, value), as 8 hex digits."""
    digest = hmac.new(key, value.encode("utf-8", "surrogatepass"), hashlib.sha256)
    return digest.hexdigest()[:FINGERPRINT_HEX]


def key_file() -> str:
    """Where the per-machine key lives (see the module docstring for the order)."""
    return os.environ.get(KEY_ENV, "").strip() or _common.agentops_home("fingerprint.key")


def machine_key() -> tuple[bytes, bool]:
    """(key, kept): the per-machine key, created on first use; `kept` is False when
    it could not be read or stored and the key is good for this run only."""
    path = key_file()
    existing = _read_key(path)
    if existing is not None:
        return existing, True
    fresh = secrets.token_bytes(32)
    try:
        os.makedirs(os.path.dirname(path) or ".", mode=0o700, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another run created it first: use theirs
        raced = _read_key(path)
        return (raced, True) if raced is not None else (fresh, False)
    except OSError:
        return fresh, False
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(fresh.hex() + "\n")
    return fresh, True


def _read_key(path: str) -> bytes | None:
    """The key kept at `path`, or None when there is none to use: read by
    `_common.read_regular` (a link is followed; a FIFO or device is refused at once,
    never waited on; more than `MAX_KEY_FILE_BYTES` is refused, not truncated)."""
    try:
        data = _common.read_regular(path, limit=MAX_KEY_FILE_BYTES, follow_links=True)
        key = bytes.fromhex(data.decode("ascii").strip())
    except (_common.FileNotRead, ValueError):
        return None
    return key if len(key) >= 16 else None


def new_salt() -> str:
    return secrets.token_hex(SALT_HEX // 2)


def normal_path(path: str) -> str:
    """A path as a baseline records it: relative to the working directory, `/`-separated."""
    try:
        relative = os.path.relpath(os.path.abspath(path))
    except ValueError:  # another drive on Windows
        relative = os.path.abspath(path)
    return relative.replace(os.sep, "/")


def parse(text: str) -> Baseline:
    """A baseline from its file text; BaselineError when it is not one."""
    try:
        document = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise BaselineError(f"not JSON ({type(exc).__name__})") from None
    if not isinstance(document, dict) or document.get("agentops_baseline") != FORMAT_VERSION:
        raise BaselineError(f'not an agentops baseline (no "agentops_baseline": {FORMAT_VERSION})')
    salt = document.get("salt")
    if not isinstance(salt, str) or len(salt) < 32 or not _is_hex(salt):
        raise BaselineError('"salt" must be at least 32 hex digits')
    findings = document.get("findings")
    if not isinstance(findings, list):
        raise BaselineError('"findings" must be a list')
    entries: Counter[Entry] = Counter()
    for index, item in enumerate(findings):
        entries[_entry(item, index)] += 1
    return Baseline(salt.lower(), entries)


def _entry(item: Any, index: int) -> Entry:
    if not isinstance(item, dict):
        raise BaselineError(f"findings[{index}] is not an object")
    path, shape, mark = (item.get(name) for name in ("path", "shape", "fingerprint"))
    if not (isinstance(path, str) and isinstance(shape, str) and isinstance(mark, str)):
        raise BaselineError(f'findings[{index}] needs "path", "shape" and "fingerprint" strings')
    if not (path and shape):
        raise BaselineError(f'findings[{index}] has an empty "path" or "shape"')
    if len(mark) != FINGERPRINT_HEX or not _is_hex(mark):
        raise BaselineError(f"findings[{index}] fingerprint is not {FINGERPRINT_HEX} hex digits")
    return normal_path(path), shape, mark.lower()


def _is_hex(text: str) -> bool:
    return all(ch in "0123456789abcdefABCDEF" for ch in text)


def render(salt: str, entries: Iterable[Entry]) -> str:
    """The file text of a baseline: sorted entries, one per finding (repeats kept)."""
    document = {
        "agentops_baseline": FORMAT_VERSION,
        "generated_by": "agentops scan-secrets --update-baseline",
        "salt": salt,
        "findings": [
            {"path": path, "shape": shape, "fingerprint": mark}
            for path, shape, mark in sorted(entries)
        ],
    }
    return json.dumps(document, indent=2) + "\n"


def split_new(baseline: Baseline, found: Iterable[Entry]) -> tuple[list[bool], int]:
    """For each finding in order, True when the baseline does not account for it;
    and how many baseline entries nothing matched. A finding consumes one
    matching entry, so a second copy of an accepted value in the same file is new."""
    left = Counter(baseline.entries)
    verdicts: list[bool] = []
    for entry in found:
        if left[entry] > 0:
            left[entry] -= 1
            verdicts.append(False)
        else:
            verdicts.append(True)
    return verdicts, sum(left.values())
