"""Report the code points in a text that a person reading it cannot see.

The failure guarded against
---------------------------
Untrusted text (a fetched page, an MCP result, a cloned repository, a candidate
fact on its way into durable memory) carries code points that render as
nothing. Zero-width spaces and joiners split words or carry bits; the
bidirectional controls of Trojan Source reorder what a reviewer sees; the
Unicode tag block mirrors ASCII one for one and many models read it as text
("ASCII smuggling"); a run of variation selectors after one emoji stores a byte
per selector. The reviewer approves an innocent sentence, the model or a later
decoder receives the payload, and once that sentence is promoted into memory it
is replayed in sessions that never saw the original source.

The fix
-------
One linear pass driven by a fixed table of code point ranges (`RANGES`),
reporting every hit with its index, line, column and category (`scan`).
`reveal` shows the hits as `<U+XXXX>`, `strip` deletes them, and `warning`
writes one line naming the exact code points, fit to be appended to a tool
result. Visible injection phrases are deliberately not attempted: a phrase
matcher cannot tell an article about injection from an injection.

The table follows Unicode `UNICODE_VERSION` (15.1.0) and is derived from its
properties, not chosen by hand: every code point of general category Cf except
the six Prepended_Concatenation_Mark groups (visible signs such as U+0600 that
span the digits after them), every Other_Default_Ignorable_Code_Point and every
Variation_Selector. That set contains all of Default_Ignorable_Code_Point, all
Bidi_Control code points, the tag block, the invisible operators and the Hangul
fillers. The test suite walks every code point 0..0x10FFFF and checks it against
that derivation computed with `unicodedata` (on a Python whose Unicode is older,
the only differences allowed are code points it does not yet assign).

Default mode exempts the real uses of a few invisible code points, each only
right next to a visible character (`strict=True` lifts them all):

- a byte-order mark at index 0;
- U+200C ZWNJ or U+200D ZWJ whose right neighbour is a visible non-ASCII base
  character (a letter, number, punctuation or symbol) and whose left neighbour
  is a visible non-ASCII character (a base or a combining mark, as after an
  Indic virama) or an exempted variation selector (emoji ZWJ sequences);
- one variation selector right after a base it can apply to: VS1-VS16 after a
  visible non-ASCII base, U+FE0F after 0-9 # * in a keycap sequence, VS17-VS256
  after a CJK ideograph, a Mongolian free variation selector after a Mongolian
  letter;
- a subdivision flag: U+1F3F4, 3-6 tag digits or small letters, U+E007F.

A table code point is never a base, so exempted code points come at most two in
a row (a selector then a joiner) outside a flag, and at most 7 in a flag. As a
safety net, any `HIDDEN_RUN_LIMIT` (8) or more table code points with no visible
character between them are all reported, exemptions or not.

Posture
-------
Fail-soft on data: the text and the result handed to `warning` never make a
function raise. Input that is not a `str` gives `ScanResult(scanned=False,
clean=False, findings=(), digest="")`: "never scanned" is its own answer, never
folded into "clean"; an internal error (none is known) gives the same. Options
are a programming interface: `strict` that is not a `bool` raises `TypeError`,
`limit` that is not an `int` raises `TypeError` and a negative one `ValueError`,
each message naming the option. The table is fixed ranges, so which code points
are reported does not move between Python versions; `unicodedata` supplies
display names and tells whether a neighbour is visible (a neighbour that an
older Python does not yet assign reads as invisible, so the exemption next to it
is lost: more findings, never fewer). A `str` subclass is read through `str`
itself, so an overridden method cannot change what is scanned.

`warning` derives label, name and category from each finding's `codepoint` and
skips findings it cannot read (a code point outside the table, a line or column
that is not a positive int); with nothing readable left it returns "". It takes
a `ScanResult` or its `_asdict()` form. Its "and N more" counts distinct code
points beyond `limit`. Full reference: docs/reference/hidden_chars.md.

WHAT THIS DOES NOT CATCH (each pinned by a test)
------------------------------------------------
1. Exempted code points carry data: at most two per visible base character (one
   of 16 selectors, then ZWJ or ZWNJ before the next base: under 6 bits per
   visible character), including text spelled with Cyrillic or Greek look-alike
   letters. One VS17+ after each CJK ideograph.
2. A well-formed subdivision flag carrying 3-6 tag letters or digits.
3. Code points outside the table that draw blank: space look-alikes (U+00A0,
   U+2000-U+200A, U+3000), U+2028/U+2029, U+2800 braille blank, private-use
   characters, and combining marks that a font draws as nothing. (These are
   also never bases for an exemption.)
4. Anything in ASCII: C0 controls, DEL and terminal escape sequences.
5. Homoglyphs and every visible injection pattern.
6. Known false positives, accepted because these are the common hiding
   characters: ZWSP as a word-break hint (Thai, Khmer, Lao, Burmese); soft
   hyphens in hyphenated prose; LRM, RLM and ALM in right-to-left prose; a ZWJ
   not followed by a base (the old Malayalam chillu spelling); a selector after
   a combining mark.

Lineage
-------
Trojan Source (2021, CVE-2021-42574) for the bidirectional controls; the
Unicode tag block and "ASCII smuggling" against language models; GlassWorm
(2025-2026) and "data in an emoji" for variation-selector payloads; UAX #44 and
the Unicode Character Database (Default_Ignorable_Code_Point, Bidi_Control,
Variation_Selector); UTS #51 (emoji ZWJ, keycap and tag sequences), UTS #35
(subdivision ids), UTR #36 / UTS #39 (Unicode security considerations); a 2026
write-up on prompt injection against agents with durable memory (scan untrusted
results for invisible characters only, spare joiners inside scripts, count a
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
    "HIDDEN_RUN_LIMIT",
    "INVISIBLE",
    "RANGES",
    "TAG",
    "UNICODE_VERSION",
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

UNICODE_VERSION = "15.1.0"  # the Unicode Character Database the table follows
HIDDEN_RUN_LIMIT = 8  # this many table code points with no visible one between: all reported

ZERO_WIDTH = "zero_width"
BIDI = "bidi"
TAG = "tag"
VARIATION_SELECTOR = "variation_selector"
BOM = "bom"
INVISIBLE = "invisible"
CATEGORIES = (ZERO_WIDTH, BIDI, TAG, VARIATION_SELECTOR, BOM, INVISIBLE)

# Cf minus Prepended_Concatenation_Mark, plus Other_Default_Ignorable_Code_Point and
# Variation_Selector (Unicode 15.1.0), split into categories for the reader.
RANGES: dict[str, tuple[tuple[int, int], ...]] = {
    ZERO_WIDTH: (
        (0x180E, 0x180E),  # MONGOLIAN VOWEL SEPARATOR
        (0x200B, 0x200D),  # ZERO WIDTH SPACE, NON-JOINER, JOINER
        (0x2060, 0x2060),  # WORD JOINER
    ),
    BIDI: (  # exactly the Bidi_Control property
        (0x061C, 0x061C),  # ARABIC LETTER MARK
        (0x200E, 0x200F),  # LEFT-TO-RIGHT MARK, RIGHT-TO-LEFT MARK
        (0x202A, 0x202E),  # embeddings, pop, overrides
        (0x2066, 0x2069),  # isolates and pop isolate
    ),
    TAG: ((0xE0000, 0xE007F),),  # the whole tag block, assigned or not
    VARIATION_SELECTOR: (  # exactly the Variation_Selector property
        (0x180B, 0x180D),  # MONGOLIAN FREE VARIATION SELECTOR ONE..THREE
        (0x180F, 0x180F),  # MONGOLIAN FREE VARIATION SELECTOR FOUR
        (0xFE00, 0xFE0F),  # VS1-VS16
        (0xE0100, 0xE01EF),  # VS17-VS256
    ),
    BOM: ((0xFEFF, 0xFEFF),),  # ZERO WIDTH NO-BREAK SPACE
    INVISIBLE: (
        (0x00AD, 0x00AD),  # SOFT HYPHEN
        (0x034F, 0x034F),  # COMBINING GRAPHEME JOINER
        (0x115F, 0x1160),  # HANGUL CHOSEONG / JUNGSEONG FILLER
        (0x17B4, 0x17B5),  # KHMER VOWEL INHERENT AQ, AA
        (0x2061, 0x2065),  # invisible operators and the reserved U+2065
        (0x206A, 0x206F),  # deprecated format controls
        (0x3164, 0x3164),  # HANGUL FILLER
        (0xFFA0, 0xFFA0),  # HALFWIDTH HANGUL FILLER
        (0xFFF0, 0xFFFB),  # reserved U+FFF0..U+FFF8, interlinear annotation
        (0x13430, 0x1343F),  # Egyptian hieroglyph format controls
        (0x1BCA0, 0x1BCA3),  # shorthand format controls
        (0x1D173, 0x1D17A),  # musical symbol format controls
        (0xE0080, 0xE00FF),  # reserved default-ignorable code points
        (0xE01F0, 0xE0FFF),  # reserved default-ignorable code points
    ),
}

_DEFAULT_LIMIT = 20
_WARNING_PREFIX = "HIDDEN CHARACTERS:"
_FLAG_BASE = "\U0001f3f4"  # WAVING BLACK FLAG, the base of subdivision flags
_CANCEL_TAG = "\U000e007f"
_FLAG_BODY_LENGTHS = range(3, 7)  # a 2-letter region plus 1-4 letters or digits
_KEYCAP = "\u20e3"
_KEYCAP_BASES = frozenset("0123456789#*")
_VS16 = "\ufe0f"
_JOINERS = frozenset("\u200c\u200d")
_BLANK_SYMBOLS = frozenset("\u2800")  # BRAILLE PATTERN BLANK: a symbol that draws nothing
_NOT_VISIBLE = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Cn", "Co", "Cs"})
_IDEOGRAPHS = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x3FFFF))
_MONGOLIAN_LETTERS = (0x1820, 0x18AA)


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


def _category_table() -> dict[int, str]:
    table: dict[int, str] = {}
    for category, spans in RANGES.items():
        for low, high in spans:
            for codepoint in range(low, high + 1):
                table[codepoint] = category
    return table


_CATEGORY_OF: dict[int, str] = _category_table()


def _character_class(categories: tuple[str, ...]) -> str:
    """One bounded character class over the ranges of `categories`."""
    spans = "".join(f"\\U{lo:08X}-\\U{hi:08X}" for c in categories for lo, hi in RANGES[c])
    return f"[{spans}]"


# One class, no alternation and no nesting: a linear C scan to the next candidate.
_ANY_HIDDEN = re.compile(_character_class(CATEGORIES))
_TAG_RUN = re.compile(_character_class((TAG,)) + "+")
_NAMES: dict[int, str] = {}


def _name(codepoint: int) -> str:
    name = _NAMES.get(codepoint)
    if name is None:
        name = _NAMES[codepoint] = unicodedata.name(chr(codepoint), "")
    return name


def _label(codepoint: int) -> str:
    return f"U+{codepoint:04X}"


def _visible(char: str) -> bool:
    """Draws something: printable ASCII, or non-ASCII outside the table that is not a
    space, a control, a format character, unassigned, private use or a blank symbol."""
    codepoint = ord(char)
    if codepoint < 0x80:
        return 0x21 <= codepoint <= 0x7E
    if codepoint in _CATEGORY_OF or char in _BLANK_SYMBOLS:
        return False
    return unicodedata.category(char) not in _NOT_VISIBLE


def _visible_non_ascii(char: str) -> bool:
    return ord(char) >= 0x80 and _visible(char)


def _base(char: str) -> bool:
    """A visible non-ASCII character that is not a combining mark."""
    return _visible_non_ascii(char) and not unicodedata.category(char).startswith("M")


def _within(codepoint: int, low: int, high: int) -> bool:
    return low <= codepoint <= high


def _selector_exempt(text: str, i: int) -> bool:
    """One variation selector directly after a base it can apply to."""
    if i == 0:
        return False
    selector, base = ord(text[i]), text[i - 1]
    if selector >= 0xE0100:  # VS17-VS256: ideographic variation sequences only
        return any(_within(ord(base), low, high) for low, high in _IDEOGRAPHS)
    if selector < 0xFE00:  # a Mongolian free variation selector
        return _within(ord(base), *_MONGOLIAN_LETTERS) and _base(base)
    if _base(base):  # VS1-VS16: emoji presentation, standardized variants
        return True
    return (  # keycap: digit, # or * then U+FE0F then U+20E3
        text[i] == _VS16 and base in _KEYCAP_BASES and text[i + 1 : i + 2] == _KEYCAP
    )


def _joiner_exempt(text: str, i: int) -> bool:
    """ZWJ/ZWNJ inside a word or an emoji sequence: a base on the right, and on the left
    a visible non-ASCII character or an exempted variation selector."""
    if i == 0 or i + 1 >= len(text) or not _base(text[i + 1]):
        return False
    left = text[i - 1]
    if _visible_non_ascii(left):
        return True
    return _CATEGORY_OF.get(ord(left)) == VARIATION_SELECTOR and _selector_exempt(text, i - 1)


def _exempt(text: str, i: int) -> bool:
    """The default-mode exemption of the single (non-tag) table code point at `i`."""
    char = text[i]
    if char == "\ufeff":
        return i == 0
    if char in _JOINERS:
        return _joiner_exempt(text, i)
    if _CATEGORY_OF[ord(char)] == VARIATION_SELECTOR:
        return _selector_exempt(text, i)
    return False


def _flag_body(text: str, start: int, end: int) -> bool:
    """The tag run [start, end) is the body and cancel tag of a subdivision flag."""
    if start == 0 or text[start - 1] != _FLAG_BASE or text[end - 1] != _CANCEL_TAG:
        return False
    body = text[start : end - 1]
    if len(body) not in _FLAG_BODY_LENGTHS:
        return False
    return all(_within(ord(c), 0xE0030, 0xE0039) or _within(ord(c), 0xE0061, 0xE007A) for c in body)


def _has_visible(text: str, start: int, end: int) -> bool:
    return any(_visible(char) for char in text[start:end])


def _reported(text: str, strict: bool) -> list[int]:
    """Indices of every reported code point, ascending.

    Hits are gathered into groups that no visible character separates; a group of
    HIDDEN_RUN_LIMIT or more is reported whole, a smaller one less its exemptions."""
    if strict:
        return [match.start() for match in _ANY_HIDDEN.finditer(text)]
    reported: list[int] = []
    group: list[tuple[int, bool]] = []  # (index, exempt) since the last visible character

    def close_group() -> None:
        whole = len(group) >= HIDDEN_RUN_LIMIT
        reported.extend(index for index, exempt in group if whole or not exempt)
        group.clear()

    search, tag_run = _ANY_HIDDEN.search, _TAG_RUN.match
    previous_end = 0
    match = search(text)
    while match is not None:
        start = match.start()
        if group and _has_visible(text, previous_end, start):
            close_group()
        run = tag_run(text, start)
        if run is not None:  # a tag: the flag rule needs the whole run
            end = run.end()
            flag = _flag_body(text, start, end)
            group.extend((index, flag) for index in range(start, end))
        else:
            end = start + 1
            group.append((start, _exempt(text, start)))
        previous_end = end
        match = search(text, end)
    close_group()
    return reported


def _str_value_or_none(text: object) -> str | None:
    """The exact `str` value of `text` (a subclass read through `str` itself), or None."""
    if not isinstance(text, str):
        return None
    return str.__str__(text)


def _strict_option(strict: object) -> bool:
    if not isinstance(strict, bool):
        raise TypeError(f"strict must be a bool, not {type(strict).__name__}")
    return strict


def text_digest(text: str) -> str:
    """sha256 hex of the text's UTF-8 bytes (lone surrogates passed through); "" for non-str."""
    snap = _str_value_or_none(text)
    if snap is None:
        return ""
    return hashlib.sha256(snap.encode("utf-8", "surrogatepass")).hexdigest()


def category_of(char: str | int) -> str:
    """The table category of one code point (a str of length 1, or an int); "" if none."""
    if isinstance(char, str):
        return _CATEGORY_OF.get(ord(char), "") if len(char) == 1 else ""
    if isinstance(char, int) and not isinstance(char, bool):
        return _CATEGORY_OF.get(int(char), "")
    return ""


def scan(text: str, *, strict: bool = False) -> ScanResult:
    """Every reported invisible code point of `text`, with position and category."""
    strict = _strict_option(strict)
    try:
        snap = _str_value_or_none(text)
        if snap is None:
            return _NOT_SCANNED
        digest = text_digest(snap)
        if snap.isascii():
            return ScanResult(True, True, (), digest)
        findings: list[HiddenChar] = []
        line, line_start, previous = 1, 0, 0
        for index in _reported(snap, strict):
            newlines = snap.count("\n", previous, index)
            if newlines:
                line += newlines
                line_start = snap.rfind("\n", previous, index) + 1
            previous = index
            codepoint = ord(snap[index])
            findings.append(
                HiddenChar(
                    index,
                    line,
                    index - line_start + 1,
                    codepoint,
                    _label(codepoint),
                    _name(codepoint),
                    _CATEGORY_OF[codepoint],
                )
            )
        return ScanResult(True, not findings, tuple(findings), digest)
    except Exception:  # fail soft: never scanned is never clean
        return _NOT_SCANNED


def _rewrite(text: object, strict: bool, show: bool) -> str:
    try:
        snap = _str_value_or_none(text)
        if snap is None:
            return ""
        if snap.isascii():
            return snap
        parts: list[str] = []
        last = 0
        for index in _reported(snap, strict):
            parts.append(snap[last:index])
            if show:
                parts.append(f"<{_label(ord(snap[index]))}>")
            last = index + 1
        parts.append(snap[last:])
        return "".join(parts)
    except Exception:
        return ""


def reveal(text: str, *, strict: bool = False) -> str:
    """`text` with each reported code point shown as `<U+XXXX>`; "" for non-str."""
    return _rewrite(text, _strict_option(strict), True)


def strip(text: str, *, strict: bool = False) -> str:
    """`text` with each reported code point deleted; "" for non-str."""
    return _rewrite(text, _strict_option(strict), False)


def _field(record: object, key: str) -> Any:
    if isinstance(record, Mapping):
        return record.get(key)
    return getattr(record, key, None)


def _positive_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _limit_option(limit: object) -> int:
    if not isinstance(limit, int) or isinstance(limit, bool):
        raise TypeError(f"limit must be an int, not {type(limit).__name__}")
    if limit < 0:
        raise ValueError(f"limit must be >= 0, got {limit}")
    return int(limit)


def warning(result: ScanResult | Mapping[str, Any], *, limit: int = _DEFAULT_LIMIT) -> str:
    """One line naming each distinct hidden code point, or "" when there is nothing to say."""
    cap = _limit_option(limit)
    try:
        findings = _field(result, "findings")
        if not isinstance(findings, (list, tuple)):
            return ""
        seen: dict[int, list[int]] = {}  # codepoint -> [count, first line, first column]
        total = 0
        for finding in tuple(findings):
            codepoint = _field(finding, "codepoint")
            line = _field(finding, "line")
            column = _field(finding, "column")
            if type(codepoint) is not int or codepoint not in _CATEGORY_OF:
                continue
            if not (_positive_int(line) and _positive_int(column)):
                continue
            total += 1
            if codepoint in seen:
                seen[codepoint][0] += 1
            else:
                seen[codepoint] = [1, int(line), int(column)]
        if not total:
            return ""
        named = [
            f"{_label(cp)} {_name(cp) or '<unnamed>'} [{_CATEGORY_OF[cp]}]"
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
        assert scan(bad) == ScanResult(False, False, (), "")  # type: ignore[arg-type]
    assert scan("\ufeffhello").clean
    assert [(f.index, f.category) for f in scan("hel\ufefflo").findings] == [(3, BOM)]
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert scan(family).clean and len(scan(family, strict=True).findings) == 2
    assert scan("\u0645\u06cc\u200c\u062e").clean  # Persian ZWNJ inside a word
    assert [f.codepoint for f in scan("a\u200db").findings] == [0x200D]
    flag = "\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in "gbeng") + "\U000e007f"
    assert scan(flag).clean and len(scan(flag, strict=True).findings) == 6
    assert reveal("a\u202eb") == "a<U+202E>b" and strip("a\u202eb") == "ab"
    assert scan("\u2764\ufe0f").clean
    assert [f.category for f in scan("a\ufe0f").findings] == [VARIATION_SELECTOR]
    # invisible bases never carry an exemption: joiner bits between direction marks
    bits = "\u200e" + "\u200e".join("\u200d\u200c\u200d") + "\u200e"
    assert len(scan("x" + bits + "y").findings) == len(bits)
    assert [f.codepoint for f in scan("soft\u00adhyphen").findings] == [0xAD]
    assert warning(scan("x\u200by")).startswith("HIDDEN CHARACTERS:")
    assert "U+200B" in warning(scan("x\u200by")) and warning(scan("clean")) == ""
    # a limit: one joiner between look-alike letters passes unseen
    assert scan("\u0430\u200d\u0435").clean
    print("hidden_chars self-check: all assertions passed")


if __name__ == "__main__":
    _self_check()
