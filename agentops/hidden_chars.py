"""Report the code points in a text that a person reading it cannot see.

The failure guarded against: untrusted text (a fetched page, an MCP result, a
cloned repository, a candidate fact on its way into durable memory) carries
code points that render as nothing. Zero-width spaces and joiners split words
or carry bits; the bidirectional overrides and isolates of Trojan Source
reorder what a reviewer sees; the Unicode tag block mirrors ASCII one for one
and many models read it as text ("ASCII smuggling"); a run of variation
selectors after one emoji stores a byte per selector. The reviewer approves an
innocent sentence, the model or a later decoder receives the payload, and once
that sentence is promoted into memory it is replayed in sessions that never
saw the original source.

The fix: one linear pass driven by a fixed table of code point ranges
(`RANGES`), reporting every hit with its exact index, line, column and
category (`scan`). `reveal` shows the hits as `<U+XXXX>`, `strip` deletes
them, and `warning` writes one line naming the exact code points, fit to be
appended to a tool result. Visible injection phrases are deliberately not
attempted: a phrase matcher cannot tell an article about injection from an
injection. The effort goes only to characters nobody reviewing can see.

Exemptions for real uses (all lifted by `strict=True`): a BOM at index 0; a
ZWJ/ZWNJ between two plain non-ASCII characters (or after a variation selector
that is itself exempt, as in emoji ZWJ sequences); one variation selector right
after a base it is defined for (VS1-VS16 after a plain non-ASCII character,
VS17+ after a CJK ideograph, U+FE0F in a keycap sequence); a well-formed
subdivision flag (U+1F3F4, 3-7 tag digits/small letters, U+E007F). A "plain
non-ASCII" code point is one at or above U+0080 that is not in the table.

Posture: fail-soft detector. Nothing here raises on any argument. Input that
is not a `str` gives `ScanResult(scanned=False, clean=False, findings=(),
digest="")`: "never scanned" is its own answer, never folded into "clean".
Options of the wrong type fall back to their defaults (`strict` must be a
`bool`, else False; `limit` must be an `int` >= 0, not a `bool`, else 20). The
table is explicit code point ranges, not `unicodedata.category`, so the
answer does not move between Python versions; `unicodedata.name` only supplies
the display name. A `str` subclass is read through `str` itself, so an
overridden method cannot change what is scanned.

Choices where the contract is silent: `warning` derives label, name and
category from each finding's `codepoint` and skips findings it cannot read (a
code point outside the table, a line or column that is not a positive int);
when nothing readable is left it returns "". Its "and N more" counts distinct
code points beyond `limit`. An internal error inside `scan` (none is known)
yields the not-scanned result, never a clean one.

WHAT THIS DOES NOT CATCH (each limit pinned by a test):
1. A ZWJ/ZWNJ between two plain non-ASCII characters, including a payload
   spelled with Cyrillic or Greek look-alike letters.
2. One VS1-VS16 after each plain non-ASCII character (up to 4 hidden bits per
   visible character); one VS17+ after each CJK ideograph.
3. A well-formed subdivision flag carrying 3-7 tag letters/digits.
4. Code points outside the table: U+00AD soft hyphen, U+200E/U+200F/U+061C
   direction marks, U+034F combining grapheme joiner, U+180B-U+180D/U+180F
   Mongolian free variation selectors, U+2028/U+2029, U+2800 braille blank,
   space look-alikes (U+00A0, U+2000-U+200A, U+3000), private-use characters.
5. Anything in ASCII: C0 controls, DEL and terminal escape sequences (use a
   terminal-escape filter for those).
6. Homoglyphs and every visible injection pattern.
7. ZWSP used as a legitimate word-break hint (Thai, Khmer, Lao, Burmese) IS
   reported: a known false positive, accepted because ZWSP is the most common
   hiding character.

Lineage: Trojan Source (2021, CVE-2021-42574) for the nine bidirectional
controls; the Unicode tag block and "ASCII smuggling" against language models;
GlassWorm (2025-2026) and "data in an emoji" for variation-selector payloads;
UTS #51 (emoji ZWJ, keycap and tag sequences), UTS #35 (subdivision ids), UTR
#36 / UTS #39 (Unicode security considerations); a 2026 write-up on prompt
injection against agents with durable memory (scan untrusted results for
invisible characters only, spare joiners between non-ASCII neighbours, count a
BOM only away from the start, name the exact code points in the warning).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Mapping
from typing import Any, NamedTuple

__all__ = [
    "BIDI",
    "BOM",
    "CATEGORIES",
    "INVISIBLE",
    "RANGES",
    "TAG",
    "VARIATION_SELECTOR",
    "ZERO_WIDTH",
    "HiddenChar",
    "ScanResult",
    "category_of",
    "reveal",
    "scan",
    "strip",
    "text_digest",
    "warning",
]

ZERO_WIDTH = "zero_width"
BIDI = "bidi"
TAG = "tag"
VARIATION_SELECTOR = "variation_selector"
BOM = "bom"
INVISIBLE = "invisible"
CATEGORIES = (ZERO_WIDTH, BIDI, TAG, VARIATION_SELECTOR, BOM, INVISIBLE)

RANGES: dict[str, tuple[tuple[int, int], ...]] = {
    ZERO_WIDTH: ((0x200B, 0x200D), (0x2060, 0x2060), (0x180E, 0x180E)),
    BIDI: ((0x202A, 0x202E), (0x2066, 0x2069)),
    TAG: ((0xE0000, 0xE007F),),
    VARIATION_SELECTOR: ((0xFE00, 0xFE0F), (0xE0100, 0xE01EF)),
    BOM: ((0xFEFF, 0xFEFF),),
    INVISIBLE: (
        (0x2061, 0x2064),
        (0x206A, 0x206F),
        (0xFFF9, 0xFFFB),
        (0x115F, 0x1160),
        (0x3164, 0x3164),
        (0xFFA0, 0xFFA0),
    ),
}

_DEFAULT_LIMIT = 20
_WARNING_PREFIX = "HIDDEN CHARACTERS:"
_FLAG_BASE = "\U0001f3f4"  # WAVING BLACK FLAG, the base of subdivision flags
_CANCEL_TAG = "\U000e007f"
_KEYCAP = "\u20e3"
_KEYCAP_BASES = frozenset("0123456789#*")
_VS16 = "\ufe0f"
_JOINERS = frozenset("\u200c\u200d")
_IDEOGRAPHS = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x3FFFF))


class HiddenChar(NamedTuple):
    """One reported code point."""

    index: int  # type: ignore[assignment]  # code point offset into the str, 0-based
    line: int  # 1-based; lines split on "\n" only
    column: int  # 1-based code point column inside the line
    codepoint: int  # e.g. 0x200B
    label: str  # "U+200B"; at least four upper-case hex digits
    name: str  # unicodedata name, "" when unassigned
    category: str  # one of CATEGORIES


class ScanResult(NamedTuple):
    """What `scan` saw: `scanned` is False only when the input was not a str."""

    scanned: bool
    clean: bool
    findings: tuple[HiddenChar, ...]
    digest: str


_NOT_SCANNED = ScanResult(False, False, (), "")


def _hc_table() -> dict[int, str]:
    table: dict[int, str] = {}
    for category, spans in RANGES.items():
        for lo, hi in spans:
            for cp in range(lo, hi + 1):
                table[cp] = category
    return table


_CATEGORY_OF: dict[int, str] = _hc_table()


def _hc_class(categories: tuple[str, ...]) -> str:
    """One bounded character class over the ranges of `categories`."""
    spans = "".join(f"\\U{lo:08X}-\\U{hi:08X}" for c in categories for lo, hi in RANGES[c])
    return f"[{spans}]"


# One class, no alternation and no nesting: a linear C scan to the next candidate.
_ANY = re.compile(_hc_class(CATEGORIES))
_TAG_RUN = re.compile(_hc_class((TAG,)) + "+")
_NAMES: dict[int, str] = {}


def _hc_name(cp: int) -> str:
    name = _NAMES.get(cp)
    if name is None:
        name = _NAMES[cp] = unicodedata.name(chr(cp), "")
    return name


def _hc_label(cp: int) -> str:
    return f"U+{cp:04X}"


def _hc_plain(ch: str) -> bool:
    """Plain non-ASCII: at or above U+0080 and not a table code point."""
    cp = ord(ch)
    return cp >= 0x80 and cp not in _CATEGORY_OF


def _hc_is_vs(cp: int) -> bool:
    return _CATEGORY_OF.get(cp) == VARIATION_SELECTOR


def _hc_ideograph(cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in _IDEOGRAPHS)


def _hc_vs_exempt(text: str, i: int) -> bool:
    """Rule 4: one selector directly after a base defined for it."""
    if i == 0:
        return False
    base = text[i - 1]
    if ord(text[i]) < 0xE0100:  # VS1-VS16 (VS17-VS256 start at U+E0100)
        if _hc_plain(base):
            return True
        return (
            text[i] == _VS16
            and base in _KEYCAP_BASES
            and i + 1 < len(text)
            and text[i + 1] == _KEYCAP
        )
    return _hc_ideograph(ord(base))  # VS17-VS256


def _hc_exempt(text: str, i: int) -> bool:
    """Rules 2-4 for a single (non-tag) table code point at index i."""
    ch = text[i]
    cp = ord(ch)
    if cp == 0xFEFF:
        return i == 0
    if ch in _JOINERS:
        if i == 0 or i + 1 >= len(text) or not _hc_plain(text[i + 1]):
            return False
        left = text[i - 1]
        if _hc_plain(left):
            return True
        return _hc_is_vs(ord(left)) and _hc_vs_exempt(text, i - 1)
    if _hc_is_vs(cp):
        return _hc_vs_exempt(text, i)
    return False


def _hc_flag_run(text: str, start: int, end: int) -> bool:
    """Rule 5: the tag run [start, end) is the body of a subdivision flag."""
    if start == 0 or text[start - 1] != _FLAG_BASE or text[end - 1] != _CANCEL_TAG:
        return False
    body = text[start : end - 1]
    if not 3 <= len(body) <= 7:
        return False
    return all(0xE0030 <= ord(c) <= 0xE0039 or 0xE0061 <= ord(c) <= 0xE007A for c in body)


def _hc_reported(text: str, strict: bool) -> list[int]:
    """Indices of every reported code point, ascending."""
    found: list[int] = []
    search, tag_run = _ANY.search, _TAG_RUN.match
    match = search(text)
    while match is not None:
        start = match.start()
        run = tag_run(text, start)
        if run is not None:  # a tag: rule 5 needs the whole run
            end = run.end()
            if strict or not _hc_flag_run(text, start, end):
                found.extend(range(start, end))
        else:
            end = start + 1
            if strict or not _hc_exempt(text, start):
                found.append(start)
        match = search(text, end)
    return found


def _hc_snapshot(text: object) -> str | None:
    """The exact `str` value of `text` (a subclass read through `str` itself), or None."""
    if not isinstance(text, str):
        return None
    return str.__str__(text)


def _hc_flag(value: object) -> bool:
    return value if isinstance(value, bool) else False


def text_digest(text: object) -> str:
    """sha256 hex of the text's UTF-8 bytes (lone surrogates passed through); "" for non-str."""
    snap = _hc_snapshot(text)
    if snap is None:
        return ""
    return hashlib.sha256(snap.encode("utf-8", "surrogatepass")).hexdigest()


def category_of(char: object) -> str:
    """The table category of one code point (a str of length 1, or an int); "" if none."""
    if isinstance(char, str):
        if len(char) != 1:
            return ""
        return _CATEGORY_OF.get(ord(char), "")
    if isinstance(char, int) and not isinstance(char, bool):
        return _CATEGORY_OF.get(int(char), "")
    return ""


def scan(text: object, *, strict: object = False) -> ScanResult:
    """Every reported invisible code point of `text`, with position and category."""
    try:
        snap = _hc_snapshot(text)
        if snap is None:
            return _NOT_SCANNED
        digest = text_digest(snap)
        if snap.isascii():
            return ScanResult(True, True, (), digest)
        findings: list[HiddenChar] = []
        line, line_start, prev = 1, 0, 0
        for index in _hc_reported(snap, _hc_flag(strict)):
            newlines = snap.count("\n", prev, index)
            if newlines:
                line += newlines
                line_start = snap.rfind("\n", prev, index) + 1
            prev = index
            cp = ord(snap[index])
            findings.append(
                HiddenChar(
                    index,
                    line,
                    index - line_start + 1,
                    cp,
                    _hc_label(cp),
                    _hc_name(cp),
                    _CATEGORY_OF[cp],
                )
            )
        return ScanResult(True, not findings, tuple(findings), digest)
    except Exception:  # fail soft: never scanned is never clean
        return _NOT_SCANNED


def _hc_rewrite(text: object, strict: object, show: bool) -> str:
    try:
        snap = _hc_snapshot(text)
        if snap is None:
            return ""
        if snap.isascii():
            return snap
        parts: list[str] = []
        last = 0
        for index in _hc_reported(snap, _hc_flag(strict)):
            parts.append(snap[last:index])
            if show:
                parts.append(f"<{_hc_label(ord(snap[index]))}>")
            last = index + 1
        parts.append(snap[last:])
        return "".join(parts)
    except Exception:
        return ""


def reveal(text: object, *, strict: object = False) -> str:
    """`text` with each reported code point shown as `<U+XXXX>`; "" for non-str."""
    return _hc_rewrite(text, strict, True)


def strip(text: object, *, strict: object = False) -> str:
    """`text` with each reported code point deleted; "" for non-str."""
    return _hc_rewrite(text, strict, False)


def _hc_field(record: object, key: str) -> Any:
    if isinstance(record, Mapping):
        return record.get(key)
    return getattr(record, key, None)


def _hc_posint(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def warning(result: object, *, limit: object = _DEFAULT_LIMIT) -> str:
    """One line naming each distinct hidden code point, or "" when there is nothing to say."""
    try:
        valid = isinstance(limit, int) and not isinstance(limit, bool) and limit >= 0
        cap = int(limit) if valid else _DEFAULT_LIMIT  # type: ignore[call-overload]
        findings = _hc_field(result, "findings")
        if not isinstance(findings, (list, tuple)):
            return ""
        seen: dict[int, list[int]] = {}  # codepoint -> [count, line, column]
        total = 0
        for finding in tuple(findings):
            cp = _hc_field(finding, "codepoint")
            line = _hc_field(finding, "line")
            column = _hc_field(finding, "column")
            if type(cp) is not int or cp not in _CATEGORY_OF:
                continue
            if not (_hc_posint(line) and _hc_posint(column)):
                continue
            total += 1
            if cp in seen:
                seen[cp][0] += 1
            else:
                seen[cp] = [1, int(line), int(column)]
        if not total:
            return ""
        named = [
            f"{_hc_label(cp)} {_hc_name(cp) or '<unnamed>'} [{_CATEGORY_OF[cp]}]"
            f" x{count} (first at line {line}, column {column})"
            for cp, (count, line, column) in list(seen.items())[:cap]
        ]
        rest = len(seen) - len(named)
        if rest:
            named.append(f"and {rest} more distinct code points")
        plural = "" if total == 1 else "s"
        return (
            f"{_WARNING_PREFIX} {total} invisible code point{plural} that a reader"
            f" cannot see: " + "; ".join(named)
        )
    except Exception:
        return ""


def _self_check() -> None:
    if not __debug__:
        raise SystemExit(
            "hidden_chars self-check: assertions are compiled out (python -O or "
            "PYTHONOPTIMIZE); run it without -O"
        )
    found = scan("ign\u200bore")
    assert found.scanned and not found.clean and len(found.findings) == 1
    assert found.findings[0] == HiddenChar(
        3, 1, 4, 0x200B, "U+200B", "ZERO WIDTH SPACE", ZERO_WIDTH
    )
    assert scan("plain ascii\twith\ncontrols\x1b[0m") == ScanResult(
        True, True, (), text_digest("plain ascii\twith\ncontrols\x1b[0m")
    )
    for bad in (None, b"\xe2\x80\x8b", 42):
        assert scan(bad) == ScanResult(False, False, (), "")
    assert scan("\ufeffhello").clean
    assert [(f.index, f.category) for f in scan("hel\ufefflo").findings] == [(3, BOM)]
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert scan(family).clean and len(scan(family, strict=True).findings) == 2
    assert [f.codepoint for f in scan("a\u200db").findings] == [0x200D]
    flag = "\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in "gbeng") + "\U000e007f"
    assert scan(flag).clean and len(scan(flag, strict=True).findings) == 6
    assert reveal("a\u202eb") == "a<U+202E>b" and strip("a\u202eb") == "ab"
    assert scan("\u2764\ufe0f").clean
    assert [f.category for f in scan("a\ufe0f").findings] == [VARIATION_SELECTOR]
    assert warning(scan("x\u200by")).startswith("HIDDEN CHARACTERS:")
    assert "U+200B" in warning(scan("x\u200by")) and warning(scan("clean")) == ""
    # limits: joiners between plain non-ASCII letters and soft hyphens pass unseen
    assert scan("\u0430\u200d\u0435").clean and scan("soft\u00adhyphen").clean
    print("hidden_chars self-check: all assertions passed")


if __name__ == "__main__":
    _self_check()
