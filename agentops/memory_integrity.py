"""Lint a markdown agent memory directory: dead links, silent merges, load limit, orphans.

The failure guarded against
---------------------------
A markdown agent memory is a directory holding an index (``MEMORY.md``, loaded at
session start) and one topic file per fact, cross-referenced with ``[[wiki-links]]``.
It rots without a single error: index lines keep pointing at files that were deleted
or renamed; two distinct facts end up listed against one file (a silent merge, the
second fact was written over the first); the index grows past what the harness loads
at session start (its first 200 lines or 25,000 characters, whichever ends first) so
its tail silently never loads; topic files exist that no index line reaches; and
parallel sessions write the same fact again under near-identical names
(``feedback_retry_backoff_rule.md`` and ``feedback_backoff_retry_rule.md``).

The fix
-------
``lint_memory_integrity`` runs zero-model checks over names, links and frontmatter
(``CHECKS``): dead index links, index links sharing one target under unrelated titles,
an index over the load limit (measured the way the harness loads it: frontmatter and
block HTML comments stripped, surrounding whitespace trimmed, a line cap then a
character cap in UTF-16 code units), dangling wiki links, orphan files, clusters of
near-duplicate names within one memory type (one finding per cluster, at most
``NEAR_DUPLICATE_LISTED_FILES`` names listed and the rest counted), and an index that
was not read. ``build_memory_link_graph`` gives the backlink graph;
``suggest_memory_repairs`` proposes one repair per finding; ``compact_index_lines``
proposes shortened index lines. Nothing here edits anything: every repair is a
suggestion.

Posture
-------
Fail-soft on data: an index text or an inventory of any shape never makes a function
raise; a malformed entry is counted, never judged. Options are a programming
interface: ``max_lines="200"``, ``max_chars=0``, ``budget_bytes=True`` raise
``TypeError`` or ``ValueError`` naming the option. Absence is its own answer: every
result carries ``swept`` and a ``Coverage``, and ``swept=False`` (NOTHING SWEPT) is a
probe failure, never "clean". A lint is swept when an index was read (unless every
topic file was unreadable, or the index is blank with no topic file), or, with no
index, when some file is in the memory format (frontmatter with a name, type or
description): a folder of plain markdown is not a memory directory. Without a read
index no file is called an orphan; one ``index-not-read`` finding says so, and its
repair never proposes deleting anything. Each input entry is read once.

Choices: ``index_text=None`` means no index was read; ``""`` is an index that was read
and is empty. The frontmatter block is ``text[3:i]`` for the closing ``"\\n---"`` at
``i``; an index whose loaded view is empty is never over any limit; titles and names are
stripped with ``str.strip()``; "whitespace" in link targets, slug separators and
compaction heads is Unicode whitespace (``str.isspace``). Near-duplicate clusters are
the connected components of the pairs with name-token Jaccard >= 0.7: names of up to 8
tokens meet under shared token subsets (linear: 10,000 alike names take about a
second), longer ones are compared pairwise within a budget. Full reference:
docs/reference/memory_integrity.md.

WHAT THIS DOES NOT CATCH (each pinned by a test)
------------------------------------------------
- Correctness of a memory: only presence and reference are checked, never whether a
  fact is true or current.
- Duplicates under different wording (``retry_policy`` vs ``backoff_rules``), across
  memory types, or in files without any type; and two facts listed against one file
  whose titles share words (title Jaccard >= 0.2) are not a silent merge.
- Index links with anchors, paths, query strings or schemes (``x.md#s``,
  ``sub/x.md``, ``https://...``) are not memory links: never dead, never referencing
  (the file they point at may read as an orphan).
- Wiki links inside code blocks and frontmatter count. Frontmatter is read line by
  line, not as YAML: a top-level ``type:`` wins, else an indented ``type:`` under any
  parent key is taken; a ``description`` is one line.
- A file that exists but was left out of ``files`` is invisible: coverage cannot tell
  3-of-3 from 3-of-400; comparing with a known total is the caller's job.
- Near-duplicate names of 9 or more tokens are compared pairwise (a posting list whose
  files already form one cluster is scanned once, so 10,000 alike long names take a
  fraction of a second), within a budget of comparisons per memory type: thousands of
  long names that share many tokens without being alike exhaust it, and then a
  ``near-duplicate-search-stopped`` finding says the clusters of long names may be
  missing or incomplete.
- A cluster is chained: A like B and B like C put A and C in one finding even when A
  and C are not alike.
- The load view approximates the harness's markdown reading: only comment blocks that
  start a line (at most 3 spaces in) and end one are stripped, the fence rule is
  simplified, and blank lines left next to a stripped block count although the harness
  may drop them. Where it differs it counts more than loads, never less.
- Characters are UTF-16 code units. If a harness version measures its "25KB" in UTF-8
  bytes, a non-ASCII index can be cut earlier than reported (``budget_bytes=25000``
  checks that reading too). Harness versions older than 2.1.211, which counted
  frontmatter and comments, are not modelled.

Lineage
-------
The silent-merge check is entity-resolution hygiene from knowledge graphs (one node,
two unrelated labels). The backlink graph and the suggest-only repair pass adapt the
self-wiring link graph and "dream cycle" repair of the gbrain project, with pattern
matching in place of a model. The load limit follows the harness's own index loader.
The swept/coverage report applies the checks-that-cant-fail pattern: a sweep that
reached nothing says NOTHING SWEPT. Near-duplicate search uses prefix filtering over an
inverted index (the exact set-similarity join technique) and, for short names, keys on
shared token subsets in the manner of deletion-neighbourhood indexing; clusters are
union-find components.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from itertools import chain, combinations
from typing import NamedTuple, cast

__all__ = [
    "CHECKS",
    "DEFAULT_INDEX_MAX_CHARS",
    "DEFAULT_INDEX_MAX_LINES",
    "INDEX_FILE_NAME",
    "Compaction",
    "Finding",
    "Frontmatter",
    "IndexLink",
    "LinkGraph",
    "LintResult",
    "MemoryFile",
    "MemoryFiles",
    "Repair",
    "RepairResult",
    "build_memory_link_graph",
    "compact_index_lines",
    "extract_index_links",
    "extract_wiki_links",
    "lint_memory_integrity",
    "normalize_slug",
    "parse_frontmatter",
    "suggest_memory_repairs",
    "suggest_prune_candidates",
]

INDEX_FILE_NAME = "MEMORY.md"
DEFAULT_INDEX_MAX_LINES = 200  # the harness loads at most this many index lines
DEFAULT_INDEX_MAX_CHARS = 25000  # ... and at most this many characters (UTF-16 units)
DEFAULT_INDEX_BUDGET_BYTES = 24985  # floor(24.4 * 1024): the former default; bytes are opt-in
INDEX_LIMITS = ("lines", "chars", "bytes")  # the limit names, in tie-break order
DUPLICATE_TARGET_MAX_JACCARD = 0.2  # titles below this are "different facts"
NEAR_DUPLICATE_MIN_JACCARD = 0.7  # names at/above this are near-duplicates
REPAIR_MIN_JACCARD = 0.4  # "did you mean" candidates at/above this
HUB_MIN_BACKLINKS = 3
DEFAULT_MAX_INDEX_LINE_LENGTH = 200
DEFAULT_PRUNE_LIMIT = 5
STOPWORDS: frozenset[str] = frozenset(
    {
        "a",
        "an",
        "and",
        "as",
        "at",
        "by",
        "for",
        "from",
        "in",
        "is",
        "it",
        "of",
        "on",
        "or",
        "the",
        "to",
        "vs",
        "via",
        "with",
    }
)
CHECKS = (
    "dead-index-link",
    "duplicate-link-target",
    "index-over-budget",
    "dangling-wiki-link",
    "orphan-memory-file",
    "near-duplicate-slug",
    "index-not-read",
    "near-duplicate-search-stopped",
)

# Thresholds as exact fractions (numerator, denominator) for the prefix filters:
# a float ratio s/u compares with these constants exactly as 10*s >= 7*u would.
_NEAR_NUM, _NEAR_DEN = 7, 10
# Near-duplicate names of at most this many tokens are found by shared-subset keys
# (linear); longer ones, and their partners of _LONG_PARTNER_MIN tokens or more, pairwise.
_SUBSET_KEY_MAX = 8
_LONG_PARTNER_MIN = 7  # 10 * 7 >= 7 * 9: the shortest set a 9-token name can resemble
# Candidate pairs the pairwise search of long names may look at in one memory type
# (a few seconds); past it the search stops and a finding says so.
_PAIRWISE_BUDGET = 1_500_000
NEAR_DUPLICATE_LISTED_FILES = 10  # files named in one near-duplicate finding; the rest counted
_REPAIR_NUM, _REPAIR_DEN = 4, 10
_INDEX_LOWER = "memory.md"
_QUOTES = "\"'"
_LOAD_WS = " \t\r\n\x0b\x0c"  # what the loaded index is trimmed of
_LINE_WS = " \t\r\x0b\x0c"  # the same, without the line feed
_COMPACT_SEPARATORS = "—:·-"
_ELLIPSIS = "…"
_PRUNE_TEXT_CHARS = 100
_MIN_COMPACT_LENGTH = 21  # room for a head, a separator and a few words

_SLUG_SEP_RE = re.compile(r"[-_\s]+")
_TOKEN_RE = re.compile(r"[a-z0-9%]+")
_TYPE_PREFIX_RE = re.compile(r"[A-Za-z]+_")
_NAME_TYPE_RE = re.compile(r"([A-Za-z]+)_")
_SCHEME_RE = re.compile(r"[A-Za-z]+:")
# With at most this many openers in a line (index) or text (wiki), the plain regexes
# below run in bounded time; beyond it the hand-written linear scanners take over.
_REGEX_SAFE_OPENERS = 32
_INDEX_LINK_RE = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_WIKI_LINK_RE = re.compile(r"\[\[([^\]\r\n]+)\]\]")
_TARGET_STOP_RE = re.compile(r"[)\s]")
_WIKI_STOP_RE = re.compile(r"[\]\r\n]")
_SCALAR_BAD_RE = re.compile(r"[\"'\r\n]")
_TYPE_VALUE_RE = re.compile(r"[ \t]*[\"']?([A-Za-z][A-Za-z0-9_-]*)[\"']?[ \t\r]*")
_INDENTED_TYPE_RE = re.compile(r"[ \t]+type:")
_DATE_RE = re.compile(r"(?<![A-Za-z0-9_])[0-9]{4}-[0-9]{2}-[0-9]{2}(?![A-Za-z0-9_])")
_BULLET_RE = re.compile(r"\s*[-*]\s")
_WIKI_HEAD_RE = re.compile(r"\[\[[^\]]+\]\]")
_MD_LINK_HEAD_RE = re.compile(r"\[[^\]]*\]\([^)]*\)")


class MemoryFile(NamedTuple):
    """One inventory entry: a file name and its text (``None``: the read failed)."""

    name: str
    content: str | None = None


class Frontmatter(NamedTuple):
    name: str | None
    memory_type: str | None
    description: str | None = None


class IndexLink(NamedTuple):
    title: str
    target: str
    line: int


class Finding(NamedTuple):
    check: str
    severity: str
    message: str
    subject: str
    files: tuple[str, ...] = ()
    target: str | None = None
    titles: tuple[str, ...] = ()
    lines: tuple[int, ...] = ()
    wiki: str | None = None
    memory_type: str | None = None
    similarity: float | None = None
    index_bytes: int | None = None
    budget_bytes: int | None = None
    limit: str | None = None
    over: int | None = None
    first_unloaded_line: int | None = None
    index_lines: int | None = None
    index_chars: int | None = None
    unlisted: int = 0  # near-duplicate-slug: members of the cluster not named in `files`


class Coverage(NamedTuple):
    reached: int
    skipped: int
    malformed: int
    contentless: int
    index_excluded: int
    index_read: bool


class LintResult(NamedTuple):
    findings: tuple[Finding, ...]
    swept: bool
    coverage: Coverage


class GraphNode(NamedTuple):
    file: str
    memory_type: str | None
    outbound_count: int
    backlink_count: int


class Edge(NamedTuple):
    source: str
    target: str


class Hub(NamedTuple):
    file: str
    backlink_count: int


class DanglingLink(NamedTuple):
    file: str
    wiki: str


class LinkGraph(NamedTuple):
    nodes: tuple[GraphNode, ...]
    edges: tuple[Edge, ...]
    backlinks: dict[str, tuple[str, ...]]
    unlinked: tuple[str, ...]
    hubs: tuple[Hub, ...]
    dangling: tuple[DanglingLink, ...]


class PruneCandidate(NamedTuple):
    line: int
    date: str
    size_bytes: int
    text: str
    size_chars: int


class Repair(NamedTuple):
    kind: str
    severity: str
    message: str
    finding: Finding
    candidate: str | None = None
    survivor: str | None = None
    over_bytes: int | None = None
    prune: tuple[PruneCandidate, ...] = ()
    over_lines: int | None = None
    over_chars: int | None = None


class RepairResult(NamedTuple):
    repairs: tuple[Repair, ...]
    swept: bool
    coverage: Coverage


class LineChange(NamedTuple):
    line: int
    before_chars: int
    after_chars: int
    saved_bytes: int
    after: str


class SkippedLine(NamedTuple):
    line: int
    reason: str


class Compaction(NamedTuple):
    text: str
    changes: tuple[LineChange, ...]
    skipped: tuple[SkippedLine, ...]
    saved_bytes: int
    before_bytes: int
    after_bytes: int


# An inventory: (name, text or None) pairs, MemoryFile tuples, {"name", "content"}
# mappings, or one mapping of name to text. Entries of any other shape are counted as
# malformed, never raised on.
MemoryFiles = (
    Iterable[tuple[str, str | None] | Mapping[str, str | None]] | Mapping[str, str | None] | None
)

# ---------------------------------------------------------------- small helpers


def _text(value: object) -> str:
    """A text argument as an exact ``str``; anything that is not a ``str`` reads as ``""``."""
    if isinstance(value, str):
        return value if type(value) is str else str.__str__(value)
    return ""


def _int_option(name: str, value: object, minimum: int) -> int:
    """An option that must be an ``int`` (not ``bool``) >= ``minimum``; a wrong one is a
    programming error, raised with the option's name."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return int(value)


def _optional_int_option(name: str, value: object, minimum: int) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int or None, not {type(value).__name__}")
    return _int_option(name, value, minimum)


def _utf8_length(text: str) -> int:
    """UTF-8 length; a lone surrogate counts 3 bytes (as with ``surrogatepass``)."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def _utf16_length(text: str) -> int:
    """UTF-16 length in code units: a code point above U+FFFF counts 2."""
    return len(text) if text.isascii() else len(text.encode("utf-16-le", "surrogatepass")) // 2


def _lines(text: str) -> list[str]:
    """Index lines: split on LF only; one CR right before an LF is dropped."""
    parts = text.split("\n")
    last = len(parts) - 1
    for i in range(last):
        if parts[i].endswith("\r"):
            parts[i] = parts[i][:-1]
    return parts


def normalize_slug(name: str) -> str:
    """Lowercase, drop one trailing ``.md``, each run of ``-``/``_``/whitespace -> ``-``."""
    low = _text(name).lower()
    if low.endswith(".md"):
        low = low[:-3]
    return _SLUG_SEP_RE.sub("-", low)


def _name_tokens(text: str) -> list[str]:
    return [t for t in _TOKEN_RE.findall(text.lower()) if t not in STOPWORDS]


def _title_tokens(text: str) -> list[str]:
    return [
        t
        for t in _TOKEN_RE.findall(text.lower())
        if len(t) > 1 and not t.isdigit() and t not in STOPWORDS
    ]


def _jaccard(a: set[str], b: set[str]) -> float | None:
    if not a or not b:
        return None
    shared = len(a & b)
    return shared / (len(a) + len(b) - shared)


def _strip_md(name: str) -> str:
    return name[:-3] if name.lower().endswith(".md") else name


def _name_type(name: str) -> str | None:
    match = _NAME_TYPE_RE.match(name)
    return match.group(1).lower() if match else None


# ---------------------------------------------------------------- frontmatter


def _frontmatter_block(text: str) -> str | None:
    if not text.startswith("---"):
        return None
    block, closed, _after = text[3:].partition("\n---")
    return block if closed else None


def _scalar_value(rest: str) -> tuple[bool, str | None]:
    """Does ``rest`` (after ``name:``) have the shape
    ``[ \\t]*["']?[^"'\\r\\n]+["']?[ \\t\\r]*``? Returns (matched, stripped value or None).
    Decided without backtracking: the quote/no-quote choices on each side are tried."""
    if rest and _SCALAR_BAD_RE.search(rest) is None:  # no quotes, no CR: the usual line
        return True, (rest.strip() or None)
    size = len(rest)
    lead = size - len(rest.lstrip(" \t"))
    trail = len(rest.rstrip(" \t\r"))
    starts = []
    if lead < size and rest[lead] in _QUOTES:
        starts.append(lead + 1)
    starts.append(0)
    cr = rest.find("\r", trail)
    ends = []
    if trail > 0 and rest[trail - 1] in _QUOTES:
        ends.append(trail - 1)
    ends.append(size if cr == -1 else cr)  # cr is -1 or at/after trail
    for a in starts:
        for b in ends:
            if b > a and _SCALAR_BAD_RE.search(rest, a, b) is None:
                value = rest[a:b].strip()
                return True, (value or None)
    return False, None


def _type_value(rest: str) -> str | None:
    match = _TYPE_VALUE_RE.fullmatch(rest)
    return match.group(1).lower() if match else None


def parse_frontmatter(content: str) -> Frontmatter:
    """``name``, ``type`` and ``description`` of a leading ``---`` block, read line by
    line (not as YAML). No block, or a non-``str`` argument: all ``None``."""
    block = _frontmatter_block(_text(content))
    if block is None:
        return Frontmatter(None, None, None)
    name: str | None = None
    name_seen = False
    top_type: str | None = None
    nested_type: str | None = None
    description: str | None = None
    description_seen = False
    for line in block.split("\n"):  # a CR left at a line end is a trailing blank here
        if not name_seen and line.startswith("name:"):
            matched, value = _scalar_value(line[5:])
            if matched:
                name_seen = True
                name = value
        elif line.startswith("type:"):
            if top_type is None:
                top_type = _type_value(line[5:])
        elif not description_seen and line.startswith("description:"):
            description_seen = True
            description = _description_value(line[12:])
        elif nested_type is None and top_type is None and line[:1] in (" ", "\t"):
            match = _INDENTED_TYPE_RE.match(line)
            if match:
                nested_type = _type_value(line[match.end() :])
    return Frontmatter(name, top_type if top_type is not None else nested_type, description)


def _description_value(rest: str) -> str | None:
    value = rest.strip(" \t\r")
    if value[:1] in ("|", ">"):
        return None
    if len(value) >= 2 and value[0] in _QUOTES and value[-1] == value[0]:
        value = value[1:-1]
    return value or None


# ---------------------------------------------------------------- link scanners


def _scan_index_line(line: str, number: int, out: list[IndexLink]) -> None:
    """Leftmost-first ``[title](target)`` matches of one line, in linear time: all the
    ``[`` before one ``]`` share that ``]`` and what follows it, so the first of them
    decides for all; the search for the end of a target resumes where it last ended."""
    pos = 0
    stop = -1  # the first ')' or whitespace at/after the last target start searched
    while True:
        start = line.find("[", pos)
        if start == -1:
            return
        close = line.find("]", start + 1)
        if close == -1:
            return
        if close == start + 1:  # empty title for this '['; later '[' are after ']'
            pos = close + 1
            continue
        if not line.startswith("(", close + 1):
            pos = close + 1
            continue
        begin = close + 2
        if stop < begin:
            found = _TARGET_STOP_RE.search(line, begin)
            if found is None:
                return  # no ')' or whitespace anywhere after: no later link can close
            stop = found.start()
        if stop == begin or line[stop] != ")":
            pos = begin  # past the '(' right after ']', which is no '['
            continue
        pos = stop + 1
        _keep_index_link(line, start, line[start + 1 : close], line[begin:stop], number, out)


def _keep_index_link(
    line: str, start: int, title: str, target: str, number: int, out: list[IndexLink]
) -> None:
    """Keep a ``[title](target)`` match unless it is an image or not a memory link."""
    if start > 0 and line[start - 1] == "!":
        return
    if (
        not target.lower().endswith(".md")
        or "/" in target
        or "\\" in target
        or _SCHEME_RE.match(target)
    ):
        return
    out.append(IndexLink(title.strip(), target, number))


def _index_links(text: str) -> list[IndexLink]:
    out: list[IndexLink] = []
    if "](" not in text:
        return out
    for number, line in enumerate(_lines(text), 1):
        if "](" not in line:
            continue
        if line.count("[") <= _REGEX_SAFE_OPENERS:
            # Few openers: the regex costs at most a bounded number of passes over the
            # line, and leftmost-first matching gives exactly the scanner's links.
            for match in _INDEX_LINK_RE.finditer(line):
                _keep_index_link(line, match.start(), match.group(1), match.group(2), number, out)
        else:
            _scan_index_line(line, number, out)
    return out


def extract_index_links(index_text: str) -> tuple[IndexLink, ...]:
    """Memory-local ``[title](target.md)`` links of an index, per line, left to right."""
    return tuple(_index_links(_text(index_text)))


def _wiki_links(content: str) -> list[str]:
    out: list[str] = []
    opens = content.count("[[")
    if opens == 0:
        return out
    if opens <= _REGEX_SAFE_OPENERS:  # bounded passes, same matches as the scanner below
        for inner in _WIKI_LINK_RE.findall(content):
            name = inner.partition("|")[0].partition("#")[0].strip()
            if name:
                out.append(name)
        return out
    pos = 0
    find = content.find
    while True:
        start = find("[[", pos)
        if start == -1:
            return out
        found = _WIKI_STOP_RE.search(content, start + 2)
        if found is None:
            return out
        stop = found.start()
        if content.startswith("]]", stop):  # "[[]]" gives an empty name, skipped below
            inner = content[start + 2 : stop]
            name = inner.partition("|")[0].partition("#")[0].strip()
            if name:
                out.append(name)
            pos = stop + 2
        else:
            pos = stop + 1


def extract_wiki_links(content: str) -> tuple[str, ...]:
    """``[[name]]`` links (alias after ``|`` and heading after ``#`` cut), in order."""
    return tuple(_wiki_links(_text(content)))


# ---------------------------------------------------------------- the index load view


class _LoadView(NamedTuple):
    lines: list[tuple[int, str]]  # (MEMORY.md line number, loaded text of that line)
    raw: list[str]  # the MEMORY.md lines (contract lines: CR before LF dropped)
    index_lines: int
    index_chars: int
    index_bytes: int


def _load_view(text: str) -> _LoadView:
    raw = text.split("\n")
    count = len(raw)
    first = 0
    block = _frontmatter_block(text)
    if block is not None:
        first = text.count("\n", 0, len(block) + 4) + 1
    starts: list[int] = []
    offset = 0
    for line in raw:
        starts.append(offset)
        offset += len(line) + 1
    kept: list[int] = []
    fence = ""
    fence_len = 0
    text_len = len(text)
    close_at = -1  # the first '-->' at/after the last search start (text_len: none left)
    i = first
    while i < count:
        line = raw[i]
        body = line.lstrip(" ")
        indent = len(line) - len(body)
        if fence:
            kept.append(i)
            if indent <= 3 and body.startswith(fence):
                run = len(body) - len(body.lstrip(fence))  # one char, thrice
                if run >= fence_len and not body[run:].strip(" \t\r"):
                    fence = ""
            i += 1
            continue
        if indent <= 3:
            head = body[:3]
            if head in ("```", "~~~"):
                fence = head
                fence_len = len(body) - len(body.lstrip(head))
                kept.append(i)
                i += 1
                continue
            if body.startswith("<!--"):
                begin = starts[i] + indent + 4
                if close_at < begin:  # each search resumes past the previous one
                    close_at = text.find("-->", begin)
                    if close_at == -1:
                        close_at = text_len  # none anywhere after: never search again
                if close_at < text_len:
                    j = bisect_right(starts, close_at) - 1
                    if not raw[j][close_at - starts[j] + 3 :].strip(" \t\r"):
                        i = j + 1
                        continue
        kept.append(i)
        i += 1
    lo = 0
    hi = len(kept)
    while lo < hi and not raw[kept[lo]].strip(_LINE_WS):
        lo += 1
    while hi > lo and not raw[kept[hi - 1]].strip(_LINE_WS):
        hi -= 1
    loaded = [(k + 1, raw[k]) for k in kept[lo:hi]]
    if loaded:
        loaded[0] = (loaded[0][0], loaded[0][1].lstrip(_LINE_WS))
        loaded[-1] = (loaded[-1][0], loaded[-1][1].rstrip(_LINE_WS))
    chars = sum(_utf16_length(piece) for _, piece in loaded) + max(len(loaded) - 1, 0)
    size = sum(_utf8_length(piece) for _, piece in loaded) + max(len(loaded) - 1, 0)
    for idx in range(count - 1):  # from here on, raw holds the lines split on LF
        if raw[idx].endswith("\r"):
            raw[idx] = raw[idx][:-1]
    return _LoadView(loaded, raw, len(loaded), chars, size)


class _Budget(NamedTuple):
    limit: str
    over: int
    first_unloaded_line: int | None
    index_lines: int
    index_chars: int
    byte_size: int | None  # the byte size compared; None when the byte limit is off
    budget_bytes: int | None
    over_lines: int | None
    over_chars: int | None
    over_bytes: int | None


def _budget(
    view: _LoadView, max_lines: int, max_chars: int, budget: int | None, given_bytes: int | None
) -> _Budget | None:
    if not view.lines:
        return None
    over_lines = view.index_lines - max_lines if view.index_lines > max_lines else None
    over_chars = view.index_chars - max_chars if view.index_chars > max_chars else None
    byte_size: int | None = None
    over_bytes: int | None = None
    if budget is not None:
        byte_size = given_bytes if given_bytes is not None else view.index_bytes
        over_bytes = byte_size - budget if byte_size > budget else None
    if over_lines is None and over_chars is None and over_bytes is None:
        return None
    text_bytes = budget is not None and given_bytes is None
    limit = ""
    first: int | None = None
    if over_lines is not None or over_chars is not None or (text_bytes and over_bytes):
        chars = -1
        size = -1
        for k, (number, piece) in enumerate(view.lines, 1):
            chars += 1 + _utf16_length(piece)
            failed = [k > max_lines, chars > max_chars, False]
            if text_bytes:
                size += 1 + _utf8_length(piece)
                failed[2] = size > cast(int, budget)  # text_bytes: budget is set
            if any(failed):
                limit = INDEX_LIMITS[failed.index(True)]
                first = number
                break
    else:
        limit = "bytes"
    # the limit named is always one that is exceeded, so its excess is an int here
    over = cast(int, {"lines": over_lines, "chars": over_chars, "bytes": over_bytes}[limit])
    return _Budget(
        limit,
        over,
        first,
        view.index_lines,
        view.index_chars,
        byte_size,
        budget,
        over_lines,
        over_chars,
        over_bytes,
    )


def _budget_message(cut: _Budget, max_lines: int, max_chars: int) -> str:
    measures = {
        "lines": (cut.index_lines, max_lines, "lines"),
        "chars": (cut.index_chars, max_chars, "characters (UTF-16 units)"),
        "bytes": (cut.byte_size, cut.budget_bytes, "bytes"),
    }
    measure, cap, unit = measures[cut.limit]
    text = (
        f"{INDEX_FILE_NAME} is over the {cut.limit} limit: {measure} {unit} loaded against "
        f"a limit of {cap} (over by {cut.over})"
    )
    if cut.first_unloaded_line is not None:
        text += f"; line {cut.first_unloaded_line} and everything after it never loads"
    others = [
        name
        for name, over in (
            ("lines", cut.over_lines),
            ("chars", cut.over_chars),
            ("bytes", cut.over_bytes),
        )
        if over is not None and name != cut.limit
    ]
    for name in others:
        other_measure, other_cap, other_unit = measures[name]
        text += f"; also over the {name} limit ({other_measure} {other_unit} against {other_cap})"
    return text


# ---------------------------------------------------------------- the inventory


class _Inventory:
    """The inventory, copied once, classified, with the tables that resolve a link: exact
    name, then normalized name, then normalized frontmatter name (first entry wins)."""

    def __init__(self, files: object) -> None:
        self.malformed = 0
        self.contentless = 0
        self.index_excluded = 0
        self.index_unreadable = False  # an index entry came with no content
        self.memory_format = 0  # reached files whose frontmatter has a name, type or description
        self.order: list[str] = []  # well-formed non-index entries, inventory order
        self.reached: list[tuple[str, str]] = []
        self.front: dict[str, Frontmatter] = {}
        self.slug_first: dict[str, str] = {}
        self.front_first: dict[str, str] = {}
        self.slug_of: dict[str, str] = {}  # normalized name of each well-formed entry
        self.front_slug: dict[str, str] = {}  # normalized frontmatter name, reached files
        self._cache: dict[str, str | None] = {}
        seen: set[str] = set()
        order = self.order
        reached = self.reached
        slug_first = self.slug_first
        slug_of = self.slug_of
        for entry in _entries(files):
            if type(entry) is tuple and len(entry) == 2:  # the common shape, read once
                name, content = entry
                ok = type(name) is str and name != ""
                if not ok:  # a str subclass or a bad name: the general reader decides
                    name, content, ok = _read_entry(entry)
                elif content is not None and type(content) is not str:
                    content = _text(content) if isinstance(content, str) else None
            else:
                name, content, ok = _read_entry(entry)
            if not ok or name in seen:
                self.malformed += 1
                continue
            seen.add(name)
            if name.lower() == _INDEX_LOWER:
                self.index_excluded += 1
                self.index_unreadable = self.index_unreadable or content is None
                continue
            order.append(name)
            slug = normalize_slug(name)
            slug_of[name] = slug
            if slug not in slug_first:
                slug_first[slug] = name
            if content is None:
                self.contentless += 1
                continue
            reached.append((name, content))
            if content.startswith("---"):
                front = parse_frontmatter(content)
                self.front[name] = front
                if front != _NO_FRONT:
                    self.memory_format += 1
                if front.name is not None:
                    key = normalize_slug(front.name)
                    self.front_slug[name] = key
                    if key not in self.front_first:
                        self.front_first[key] = name
        self.names = seen

    def coverage(self, index_read: bool) -> Coverage:
        skipped = self.malformed + self.contentless + self.index_excluded
        return Coverage(
            len(self.reached),
            skipped,
            self.malformed,
            self.contentless,
            self.index_excluded,
            index_read,
        )

    def frontmatter(self, name: str) -> Frontmatter:
        return self.front.get(name, _NO_FRONT)

    def memory_type(self, name: str) -> str | None:
        declared = self.frontmatter(name).memory_type
        return declared if declared is not None else _name_type(name)

    def resolve(self, ref: str) -> str | None:
        cache = self._cache
        if ref in cache:
            return cache[ref]
        found: str | None
        if ref in self.names and ref.lower() != _INDEX_LOWER:
            found = ref
        else:
            key = normalize_slug(ref)
            found = self.slug_first.get(key)
            if found is None:
                found = self.front_first.get(key)
        cache[ref] = found
        return found


_NO_FRONT = Frontmatter(None, None, None)


def _entries(files: object) -> list[object]:
    if files is None or isinstance(files, (str, bytes, bytearray, memoryview)):
        return []
    try:
        if isinstance(files, Mapping):
            return list(files.items())
        if isinstance(files, Iterable):
            return list(files)
    except Exception:
        return []
    return []


def _read_entry(entry: object) -> tuple[str, str | None, bool]:
    """(name, content or None, well-formed?) with each field read once."""
    try:
        if isinstance(entry, (tuple, list)):
            if len(entry) != 2:
                return "", None, False
            name, content = entry[0], entry[1]
        elif isinstance(entry, Mapping):
            name = entry.get("name")
            content = entry.get("content")
        else:
            return "", None, False
    except Exception:
        return "", None, False
    if not isinstance(name, str) or not name:
        return "", None, False
    return _text(name), (_text(content) if isinstance(content, str) else None), True


# ---------------------------------------------------------------- the checks


class _Context(NamedTuple):
    inventory: _Inventory
    index_text: str
    index_read: bool
    links: list[IndexLink]
    resolved: list[str | None]
    referenced: set[str]
    budget: _Budget | None
    max_lines: int
    max_chars: int


def _context(
    index_text: object,
    files: object,
    max_lines: object,
    max_chars: object,
    budget_bytes: object,
    index_bytes: object,
) -> _Context:
    lines_cap = _int_option("max_lines", max_lines, 1)
    chars_cap = _int_option("max_chars", max_chars, 1)
    budget = _optional_int_option("budget_bytes", budget_bytes, 1)
    given = _optional_int_option("index_bytes", index_bytes, 0)
    if budget is None:
        given = None
    text = _text(index_text)
    inventory = _Inventory(files)
    links = _index_links(text)
    resolved = [inventory.resolve(link.target) for link in links]
    referenced = {r for r in resolved if r is not None}
    view_budget = None
    if text:
        view_budget = _budget(_load_view(text), lines_cap, chars_cap, budget, given)
    return _Context(
        inventory,
        text,
        isinstance(index_text, str),
        links,
        resolved,
        referenced,
        view_budget,
        lines_cap,
        chars_cap,
    )


def _name_token_sets(inventory: _Inventory) -> dict[str, list[tuple[int, frozenset[str]]]]:
    """Per memory type, (reached index, name tokens) of every reached file with a type:
    the name less ``.md`` and its type prefix, lower-cased, stopwords dropped."""
    groups: dict[str, list[tuple[int, frozenset[str]]]] = {}
    for index, (name, _content) in enumerate(inventory.reached):
        kind = inventory.memory_type(name)
        if kind is None:
            continue
        stem = _strip_md(name)
        prefix = _TYPE_PREFIX_RE.match(stem)
        if prefix:
            stem = stem[prefix.end() :]
        tokens = frozenset(_TOKEN_RE.findall(stem.lower())).difference(STOPWORDS)
        if tokens:
            groups.setdefault(kind, []).append((index, tokens))
    return groups


def _near_duplicate_clusters(
    inventory: _Inventory,
) -> tuple[list[tuple[list[int], str]], list[str]]:
    """Groups of reached files of one type, each group (ascending reached indices) a
    connected component of the pairs with name-token Jaccard >= 0.7, ordered by first
    member; and the types whose pairwise search of long names stopped at its budget.
    Time and memory grow with the number of files, not of pairs."""
    clusters: list[tuple[list[int], str]] = []
    stopped: list[str] = []
    for kind, members in _name_token_sets(inventory).items():
        if len(members) >= 2:
            components, complete = _cluster_sets([tokens for _index, tokens in members])
            clusters.extend(([members[p][0] for p in c], kind) for c in components)
            if not complete:
                stopped.append(kind)
    clusters.sort()
    return clusters, stopped


def _cluster_sets(sets: list[frozenset[str]]) -> tuple[list[list[int]], bool]:
    """The connected components (of two or more) of the near-duplicate pairs of
    ``sets``: short sets by shared-subset keys, long ones pairwise; and whether the
    pairwise search finished within its budget."""
    roots = _Components(len(sets))
    _join_by_shared_subsets(sets, roots)
    long_ones = [p for p, tokens in enumerate(sets) if len(tokens) >= _LONG_PARTNER_MIN]
    long_roots = _Components(len(long_ones))
    _similar_pairs([sets[p] for p in long_ones], _SUBSET_KEY_MAX + 1, long_roots)
    for component in long_roots.groups():
        for member in component[1:]:
            roots.join(long_ones[component[0]], long_ones[member])
    return roots.groups(), long_roots.complete


class _Components:
    """Union-find over 0..n-1 (path halving, union by size)."""

    def __init__(self, count: int) -> None:
        self.parent = list(range(count))
        self.size = [1] * count
        self.complete = True  # False: a search feeding it stopped at its budget

    def find(self, item: int) -> int:
        parent = self.parent
        while parent[item] != item:
            parent[item] = parent[parent[item]]
            item = parent[item]
        return item

    def join(self, first: int, second: int) -> None:
        first, second = self.find(first), self.find(second)
        if first == second:
            return
        if self.size[first] < self.size[second]:
            first, second = second, first
        self.parent[second] = first
        self.size[first] += self.size[second]

    def groups(self) -> list[list[int]]:
        """Every component of two or more, members ascending."""
        found: dict[int, list[int]] = {}
        for item in range(len(self.parent)):
            found.setdefault(self.find(item), []).append(item)
        return [group for group in found.values() if len(group) >= 2]


def _smallest_shared(size: int) -> int:
    """The fewest tokens a set of ``size`` (at most _SUBSET_KEY_MAX) shares with any
    near-duplicate of at most _SUBSET_KEY_MAX tokens."""
    return min(
        _min_overlap(size, other)
        for other in range(1, _SUBSET_KEY_MAX + 1)
        if _NEAR_DEN * min(size, other) >= _NEAR_NUM * max(size, other)
    )


def _join_by_shared_subsets(sets: list[frozenset[str]], roots: _Components) -> None:
    """Join every near-duplicate pair of sets of at most _SUBSET_KEY_MAX tokens, exactly.

    Two such sets A, B are near-duplicates iff their intersection has at least
    _min_overlap(|A|, |B|) tokens. Each set files itself under all its subsets of at
    least _smallest_shared(|set|) tokens (at most 37, for 8 tokens), so A and B meet
    under the key A & B. Sets meeting under a key K share K, so a size pair (a, b) with
    _min_overlap(a, b) <= |K| is near-duplicate across the whole bucket: every member
    of size a is joined to the first of size b and the other way round. No pair is
    enumerated, so a thousand alike names cost a thousand times a constant."""
    ids: dict[str, int] = {}
    buckets: dict[tuple[int, ...], list[int]] = {}
    for position, tokens in enumerate(sets):
        size = len(tokens)
        if size > _SUBSET_KEY_MAX:
            continue
        ordered = sorted(ids.setdefault(token, len(ids)) for token in tokens)
        for keep in range(_smallest_shared(size), size + 1):
            for key in combinations(ordered, keep):
                buckets.setdefault(key, []).append(position)
    for key, bucket in buckets.items():
        if len(bucket) < 2:
            continue
        first_of_size: dict[int, int] = {}
        for position in bucket:
            first_of_size.setdefault(len(sets[position]), position)
        for position in bucket:
            size = len(sets[position])
            for other_size, first in first_of_size.items():
                if _min_overlap(size, other_size) <= len(key):
                    roots.join(position, first)


def _min_overlap(a: int, b: int) -> int:
    """Fewest shared tokens two sets of sizes a, b need to reach Jaccard 0.7:
    ceil(7 * (a + b) / 17), from 10 * shared >= 7 * (a + b - shared)."""
    den = _NEAR_DEN + _NEAR_NUM
    return (_NEAR_NUM * (a + b) + den - 1) // den


def _similar_pairs(
    sets: list[frozenset[str]], min_partner: int = 0, roots: _Components | None = None
) -> list[tuple[int, int, float]]:
    """All (i, j, similarity), i < j, with Jaccard >= 0.7 where the larger set has at
    least ``min_partner`` tokens, identical to an all-pairs pass.

    Each pair is looked up once from its smaller side A (size a) against the sets B of
    size b >= a with 10a >= 7b (otherwise Jaccard cannot reach 0.7). When the pair needs
    every token of A (always so for names of up to 5 tokens), the candidates are the
    sets equal to A (b == a) or the intersection of the postings of all of A's tokens;
    otherwise prefix filtering: tokens ordered rarest first, A's first a - o + 1
    tokens probed against B's indexed prefix. Every candidate is verified exactly."""
    freq = Counter(chain.from_iterable(sets))
    sizes = sorted({len(tokens) for tokens in sets})
    plans: dict[int, list[tuple[int, int]]] = {}
    prefixed: dict[int, int] = {}  # size b -> how many rarest tokens of B to index
    for a in sizes:
        plan = []
        for b in sizes:
            if b < a or b < min_partner or _NEAR_DEN * a < _NEAR_NUM * b:
                continue
            need = _min_overlap(a, b)
            plan.append((b, need))
            if need < a:
                prefixed[b] = max(prefixed.get(b, 0), b - need + 1)
        plans[a] = plan
    same: dict[frozenset[str], list[int]] = {}
    full: dict[int, dict[str, list[int]]] = {b: {} for b in sizes}
    prefix: dict[int, dict[str, list[int]]] = {b: {} for b in prefixed}
    orders: dict[int, list[str]] = {}
    for position, tokens in enumerate(sets):
        size = len(tokens)
        same.setdefault(tokens, []).append(position)
        postings = full[size]
        for token in tokens:
            bucket = postings.get(token)
            if bucket is None:
                postings[token] = [position]
            else:
                bucket.append(position)
        # a size that probes (need < size for some b) always indexes its own size too,
        # since need grows with b: so being in `prefixed` covers both uses of the order
        if size in prefixed:
            ordered = sorted(tokens, key=lambda t: (freq[t], t))
            orders[position] = ordered
            for token in ordered[: prefixed[size]]:
                prefix[size].setdefault(token, []).append(position)
    found: dict[tuple[int, int], float] = {}
    # Clustering only: prefix postings whose entries all lie in one component. Components
    # only grow, so such a list stays settled, and a probe already in that component
    # learns nothing from it: alike names cost one scan of it, not one each.
    settled: set[tuple[int, str]] = set()
    visits = 0  # candidates looked at while clustering, against _PAIRWISE_BUDGET
    for position, tokens in enumerate(sets):
        a = len(tokens)
        for b, need in plans[a]:
            candidates: Collection[int]
            scanned: list[tuple[int, str, list[int]]] = []
            if b == a and need == a:
                candidates = same[tokens]
            elif need == a:
                postings = full[b]
                lists = []
                for token in tokens:
                    bucket = postings.get(token)
                    if bucket is None:
                        break
                    lists.append(bucket)
                else:
                    lists.sort(key=len)
                    candidates = set(lists[0]).intersection(*lists[1:])
                if len(lists) < a:
                    continue
            else:
                gathered: set[int] = set()
                indexed = prefix[b]
                rarest = orders.get(position)
                if rarest is None:  # a size that only probes (its own size is not indexed)
                    rarest = orders[position] = sorted(tokens, key=lambda t: (freq[t], t))
                for token in rarest[: a - need + 1]:
                    bucket = indexed.get(token)
                    if not bucket:
                        continue
                    if roots is not None:
                        if (b, token) in settled and roots.find(bucket[0]) == roots.find(position):
                            continue
                        scanned.append((b, token, bucket))
                    gathered.update(bucket)
                candidates = gathered
            if roots is not None:
                visits += len(candidates)
                if visits > _PAIRWISE_BUDGET:
                    roots.complete = False
                    return []
            for other in candidates:
                if other < position:
                    i, j = other, position
                elif other > position:
                    i, j = position, other
                else:
                    continue
                if (i, j) in found or (roots is not None and roots.find(i) == roots.find(j)):
                    continue
                first, second = sets[i], sets[j]
                shared = len(first & second)
                similarity = shared / (len(first) + len(second) - shared)
                if similarity < NEAR_DUPLICATE_MIN_JACCARD:
                    continue
                if roots is None:
                    found[(i, j)] = similarity
                else:  # clustering: join, keep no pair (a cluster of n has ~n*n/2)
                    roots.join(i, j)
            for size, token, bucket in scanned:
                if roots is not None and len({roots.find(item) for item in bucket}) == 1:
                    settled.add((size, token))
    return sorted((i, j, similarity) for (i, j), similarity in found.items())


def _findings(ctx: _Context) -> list[Finding]:
    inv = ctx.inventory
    out: list[Finding] = []
    # dead-index-link
    for link, target in zip(ctx.links, ctx.resolved, strict=True):
        if target is None:
            out.append(
                Finding(
                    "dead-index-link",
                    "warn",
                    f"{INDEX_FILE_NAME} line {link.line}: [{link.title}]({link.target}) points at "
                    f"no memory file",
                    link.target,
                    target=link.target,
                    titles=(link.title,),
                    lines=(link.line,),
                )
            )
    # duplicate-link-target
    by_file: dict[str, list[IndexLink]] = {}
    for link, target in zip(ctx.links, ctx.resolved, strict=True):
        if target is not None:
            by_file.setdefault(target, []).append(link)
    for file, group in by_file.items():
        if len(group) < 2:
            continue
        token_sets = [set(_title_tokens(link.title)) for link in group]
        for i in range(len(group)):
            for j in range(i + 1, len(group)):
                similarity = _jaccard(token_sets[i], token_sets[j])
                if similarity is None or similarity >= DUPLICATE_TARGET_MAX_JACCARD:
                    continue
                one, two = group[i], group[j]
                out.append(
                    Finding(
                        "duplicate-link-target",
                        "warn",
                        f"{file} is the target of unrelated index lines {one.line} [{one.title}] "
                        f"and {two.line} [{two.title}] (title similarity {similarity:.2f}): two "
                        f"facts may have been merged into one file",
                        file,
                        files=(file,),
                        target=file,
                        titles=(one.title, two.title),
                        lines=(one.line, two.line),
                        similarity=similarity,
                    )
                )
    # index-over-budget
    cut = ctx.budget
    if cut is not None:
        out.append(
            Finding(
                "index-over-budget",
                "warn",
                _budget_message(cut, ctx.max_lines, ctx.max_chars),
                INDEX_FILE_NAME,
                index_bytes=cut.byte_size,
                budget_bytes=cut.budget_bytes,
                limit=cut.limit,
                over=cut.over,
                first_unloaded_line=cut.first_unloaded_line,
                index_lines=cut.index_lines,
                index_chars=cut.index_chars,
            )
        )
    # dangling-wiki-link
    for name, content in inv.reached:
        if "[[" not in content:
            continue
        for wiki in _wiki_links(content):
            if inv.resolve(wiki) is None:
                out.append(
                    Finding(
                        "dangling-wiki-link",
                        "info",
                        f"{name}: [[{wiki}]] resolves to no memory file",
                        name,
                        files=(name,),
                        wiki=wiki,
                    )
                )
    # index-not-read: without a read index nothing is an orphan
    if not ctx.index_read and inv.reached:
        why = "could not be read" if inv.index_unreadable else "is missing"
        out.append(
            Finding(
                "index-not-read",
                "warn",
                f"{INDEX_FILE_NAME} {why}: {len(inv.reached)} memory files are reached by no "
                f"index, so none of them loads; no file is judged an orphan",
                INDEX_FILE_NAME,
            )
        )
    # orphan-memory-file
    for name, _content in inv.reached if ctx.index_read else ():
        if name not in ctx.referenced:
            out.append(
                Finding(
                    "orphan-memory-file",
                    "info",
                    f"{name} is reached by no {INDEX_FILE_NAME} link",
                    name,
                    files=(name,),
                )
            )
    # near-duplicate-slug: one finding per cluster
    clusters, stopped = _near_duplicate_clusters(inv)
    for cluster, kind in clusters:
        names = [inv.reached[i][0] for i in cluster]
        listed = tuple(names[:NEAR_DUPLICATE_LISTED_FILES])
        unlisted = len(names) - len(listed)
        more = f" and {unlisted} more" if unlisted else ""
        out.append(
            Finding(
                "near-duplicate-slug",
                "info",
                f"{len(names)} {kind} files have near-identical names: {', '.join(listed)}"
                f"{more}: possibly one fact written {'twice' if len(names) == 2 else 'again'}",
                " + ".join(listed) + more,
                files=listed,
                memory_type=kind,
                unlisted=unlisted,
            )
        )
    # near-duplicate-search-stopped: a blind spot is said, never passed over
    for kind in stopped:
        out.append(
            Finding(
                "near-duplicate-search-stopped",
                "info",
                f"the near-duplicate search among {kind} names of 9 or more tokens stopped after "
                f"{_PAIRWISE_BUDGET} comparisons: clusters of long {kind} names may be missing "
                f"or incomplete",
                kind,
                memory_type=kind,
            )
        )
    return [f._replace(message=_one_line(f.message)) for f in out]


def _one_line(message: str) -> str:
    """A message on one line: a CR or LF inside a file name is shown escaped."""
    if "\n" in message or "\r" in message:
        return message.replace("\r", "\\r").replace("\n", "\\n")
    return message


def _swept(ctx: _Context, coverage: Coverage) -> bool:
    """Whether the lint saw a memory directory at all. With an index read: unless every
    topic file was unreadable, or the index is blank and there is no topic file. Without
    one: only when some reached file is in the memory format (frontmatter with a name,
    type or description); a folder of plain markdown is not a memory directory."""
    if ctx.index_read:
        if coverage.reached == 0:
            return coverage.contentless == 0 and ctx.index_text.strip() != ""
        return True
    return ctx.inventory.memory_format > 0


def lint_memory_integrity(
    index_text: str | None = None,
    files: MemoryFiles = None,
    *,
    max_lines: int = DEFAULT_INDEX_MAX_LINES,
    max_chars: int = DEFAULT_INDEX_MAX_CHARS,
    budget_bytes: int | None = None,
    index_bytes: int | None = None,
) -> LintResult:
    """The six checks over an index text and an inventory of files. Read ``swept``
    first: ``swept=False`` is NOTHING SWEPT, never a pass."""
    ctx = _context(index_text, files, max_lines, max_chars, budget_bytes, index_bytes)
    coverage = ctx.inventory.coverage(ctx.index_read)
    if not _swept(ctx, coverage):
        return LintResult((), False, coverage)
    return LintResult(tuple(_findings(ctx)), True, coverage)


# ---------------------------------------------------------------- link graph


def build_memory_link_graph(files: MemoryFiles = None) -> LinkGraph:
    """Wiki-link graph of the inventory: edges, backlinks, unlinked files, hubs."""
    inv = _Inventory(files)
    outbound: dict[str, list[str]] = {}
    dangling: list[DanglingLink] = []
    for name, content in inv.reached:
        targets: list[str] = []
        seen: set[str] = set()
        for wiki in _wiki_links(content) if "[[" in content else ():
            target = inv.resolve(wiki)
            if target is None:
                dangling.append(DanglingLink(name, wiki))
            elif target != name and target not in seen:
                seen.add(target)
                targets.append(target)
        outbound[name] = targets
    sources: dict[str, list[str]] = {}
    edges: list[Edge] = []
    for name in inv.order:
        for target in outbound.get(name, ()):
            edges.append(Edge(name, target))
            sources.setdefault(target, []).append(name)
    nodes = sorted(
        (
            GraphNode(
                name, inv.memory_type(name), len(outbound.get(name, ())), len(sources.get(name, ()))
            )
            for name in inv.order
        ),
        key=lambda node: (-node.backlink_count, node.file),
    )
    backlinks = {name: tuple(sorted(sources[name])) for name in inv.order if name in sources}
    return LinkGraph(
        tuple(nodes),
        tuple(edges),
        backlinks,
        tuple(node.file for node in nodes if node.backlink_count == 0),
        tuple(
            Hub(node.file, node.backlink_count)
            for node in nodes
            if node.backlink_count >= HUB_MIN_BACKLINKS
        ),
        tuple(dangling),
    )


# ---------------------------------------------------------------- repairs


class _Nearest:
    """nearest(R): the key with the highest name-token Jaccard >= 0.4 (earliest on a
    tie), found through size-partitioned prefix postings instead of a scan of all keys.

    For a query of w tokens and keys of k tokens, Jaccard >= 2/5 needs 7*min(w, k) >=
    2*(w + k) and at least o = ceil(2*(w + k)/7) shared tokens, so the query's first
    w - o + 1 tokens (rarest first) must meet the key's indexed prefix."""

    def __init__(self, inv: _Inventory) -> None:
        keys: dict[str, str] = {}
        for name in inv.order:
            candidates = [inv.slug_of[name]]
            front_key = inv.front_slug.get(name)
            if front_key is not None:
                candidates.append(front_key)
            for key in candidates:
                if key in keys:
                    continue
                target = inv.slug_first.get(key)
                if target is None:
                    target = inv.front_first.get(key)
                if target is not None:
                    keys[key] = target
        self.keys = [(frozenset(_name_tokens(key)), target) for key, target in keys.items()]
        self.freq = Counter(chain.from_iterable(tokens for tokens, _ in self.keys))
        self.by_size: dict[int, dict[str, list[int]]] = {}
        for position, (tokens, _target) in enumerate(self.keys):
            size = len(tokens)
            if not size:
                continue
            shortest = self._shortest(size)
            postings = self.by_size.setdefault(size, {})
            for token in self._ordered(tokens)[: self._probe(size, self._need(shortest, size))]:
                postings.setdefault(token, []).append(position)
        self.sizes = sorted(self.by_size)
        self.cache: dict[str, str | None] = {}

    @staticmethod
    def _shortest(size: int) -> int:
        """The fewest tokens a query may have and still reach the threshold with a key of
        ``size`` tokens: ceil(2/5 * size)."""
        return (_REPAIR_NUM * size + _REPAIR_DEN - 1) // _REPAIR_DEN

    @staticmethod
    def _probe(size: int, need: int) -> int:
        """How many rarest-first tokens of a set of ``size`` to probe so that any set
        sharing ``need`` of them meets at least one."""
        return size - need + 1

    @staticmethod
    def _need(w: int, k: int) -> int:
        den = _REPAIR_NUM + _REPAIR_DEN
        return (_REPAIR_NUM * (w + k) + den - 1) // den

    def _ordered(self, tokens: frozenset[str]) -> list[str]:
        freq = self.freq
        return sorted(tokens, key=lambda t: (freq.get(t, 0), t))

    def __call__(self, ref: str) -> str | None:
        if ref in self.cache:
            return self.cache[ref]
        words = frozenset(_name_tokens(normalize_slug(ref)))
        best: tuple[float, int] | None = None
        w = len(words)
        ordered = self._ordered(words)
        for k in self.sizes if w else ():
            need = self._need(w, k)
            if need > min(w, k):  # the threshold is out of reach for this key size
                continue
            postings = self.by_size[k]
            candidates: set[int] = set()
            for token in ordered[: self._probe(w, need)]:
                candidates.update(postings.get(token, ()))
            for position in candidates:
                tokens = self.keys[position][0]
                shared = len(words & tokens)
                similarity = shared / (w + len(tokens) - shared)
                if similarity < REPAIR_MIN_JACCARD:
                    continue
                if (
                    best is None
                    or similarity > best[0]
                    or (similarity == best[0] and position < best[1])
                ):
                    best = (similarity, position)
        found = None if best is None else self.keys[best[1]][1]
        self.cache[ref] = found
        return found


class _LazyNearest:
    """Builds the nearest-name postings only when a repair first asks."""

    def __init__(self, inv: _Inventory) -> None:
        self.inv = inv
        self.built: _Nearest | None = None

    def __call__(self, ref: str) -> str | None:
        if self.built is None:
            self.built = _Nearest(self.inv)
        return self.built(ref)


def _repair(finding: Finding, ctx: _Context, nearest: _LazyNearest) -> Repair | None:
    check = finding.check
    inv = ctx.inventory
    if check == "dead-index-link":
        candidate = nearest(finding.subject)
        where = f"{INDEX_FILE_NAME} line {finding.lines[0]}"
        if candidate is None:
            message = (
                f"{where} points at missing {finding.subject}: remove the line or create the file"
            )
        else:
            message = (
                f"{where} points at missing {finding.subject}: retarget it to "
                f"{candidate} or remove the line"
            )
        return Repair("fix-dead-link", "warn", message, finding, candidate=candidate)
    if check == "duplicate-link-target":
        lines = " and ".join(str(n) for n in finding.lines)
        return Repair(
            "split-shared-target",
            "warn",
            f"{finding.subject} carries unrelated index lines {lines}: split it "
            f"into one file per fact, or merge the index lines",
            finding,
        )
    if check == "index-over-budget":
        b = ctx.budget
        if b is None:  # pragma: no cover - a budget finding always has its measures
            return None
        prune = suggest_prune_candidates(
            ctx.index_text,
            b.over_bytes,  # None: no target
            over_lines=b.over_lines,
            over_chars=b.over_chars,
        )
        where = (
            ""
            if b.first_unloaded_line is None
            else f", from line {b.first_unloaded_line} on nothing loads"
        )
        message = f"{INDEX_FILE_NAME} is over the {b.limit} limit{where}: "
        if prune:
            listed = ", ".join(f"line {c.line} ({c.date})" for c in prune)
            message += f"prune or move the oldest dated lines: {listed}"
        else:
            message += "no dated lines found to prune; shorten or split the index"
        return Repair(
            "prune-index",
            "warn",
            message,
            finding,
            over_bytes=b.over_bytes,
            prune=prune,
            over_lines=b.over_lines,
            over_chars=b.over_chars,
        )
    if check == "dangling-wiki-link":
        candidate = nearest(finding.wiki or "")
        if candidate is None:
            return None
        return Repair(
            "fix-dangling-wiki",
            "info",
            f"{finding.subject}: [[{finding.wiki}]] resolves to nothing; did you mean {candidate}?",
            finding,
            candidate=candidate,
        )
    if check == "orphan-memory-file":
        name = finding.subject
        front = inv.frontmatter(name)
        message = f"{name} is in no index line: add an index pointer, or delete it if stale"
        if front.description is not None:
            title = front.name if front.name is not None else _strip_md(name)
            message += f"; proposed pointer: - [{title}]({name}) — {front.description}"
        return Repair("index-orphan", "info", message, finding)
    if check == "near-duplicate-slug":
        survivor = _survivor(finding.files, ctx.referenced)
        others = [name for name in finding.files if name != survivor]
        more = f" and {finding.unlisted} more" if finding.unlisted else ""
        return Repair(
            "merge-near-duplicate",
            "info",
            f"{', '.join(finding.files)}{more} look like one fact: merge "
            f"{', '.join(others)}{more} into {survivor}",
            finding,
            survivor=survivor,
        )
    if check == "near-duplicate-search-stopped":
        return None  # nothing to repair: the lint could not look
    if check == "index-not-read":
        return Repair(
            "restore-index",
            "warn",
            f"{finding.message}; restore or write {INDEX_FILE_NAME} with one line per memory "
            f"file before judging any file stale (nothing here should be deleted)",
            finding,
        )
    return None  # pragma: no cover - every check has a repair rule above


def _survivor(names: tuple[str, ...], referenced: set[str]) -> str:
    """The file a near-duplicate cluster merges into: the longest name among those the
    index reaches, else among all (the first of the longest on a tie)."""
    reached = [name for name in names if name in referenced]
    return max(reached or names, key=len)


def suggest_memory_repairs(
    index_text: str | None = None,
    files: MemoryFiles = None,
    *,
    max_lines: int = DEFAULT_INDEX_MAX_LINES,
    max_chars: int = DEFAULT_INDEX_MAX_CHARS,
    budget_bytes: int | None = None,
    index_bytes: int | None = None,
) -> RepairResult:
    """One suggested (never applied) repair per finding of the lint, in finding order."""
    ctx = _context(index_text, files, max_lines, max_chars, budget_bytes, index_bytes)
    coverage = ctx.inventory.coverage(ctx.index_read)
    if not _swept(ctx, coverage):
        return RepairResult((), False, coverage)
    findings = _findings(ctx)
    nearest = _LazyNearest(ctx.inventory)
    repairs = []
    for finding in findings:
        repair = _repair(finding, ctx, nearest)
        if repair is not None:
            repairs.append(repair._replace(message=_one_line(repair.message)))
    return RepairResult(tuple(repairs), True, coverage)


# ---------------------------------------------------------------- prune and compaction


def suggest_prune_candidates(
    index_text: str,
    over_bytes: int | None = 0,
    *,
    over_lines: int | None = 0,
    over_chars: int | None = 0,
) -> tuple[PruneCandidate, ...]:
    """Dated lines of the loaded index, oldest first: the shortest prefix that meets
    every target given (all of them if none does), else the first DEFAULT_PRUNE_LIMIT."""
    text = _text(index_text)
    want_bytes = _optional_int_option("over_bytes", over_bytes, 0) or 0
    want_lines = _optional_int_option("over_lines", over_lines, 0) or 0
    want_chars = _optional_int_option("over_chars", over_chars, 0) or 0
    if not text:
        return ()
    view = _load_view(text)
    found: list[PruneCandidate] = []
    for number, _piece in view.lines:
        line = view.raw[number - 1]
        match = _DATE_RE.search(line)
        if match:
            found.append(
                PruneCandidate(
                    number,
                    match.group(),
                    _utf8_length(line) + 1,
                    line.strip()[:_PRUNE_TEXT_CHARS],
                    _utf16_length(line) + 1,
                )
            )
    found.sort(key=lambda c: (c.date, c.line))
    if not (want_bytes or want_lines or want_chars):
        return tuple(found[:DEFAULT_PRUNE_LIMIT])
    total_bytes = 0
    total_chars = 0
    for count, candidate in enumerate(found, 1):
        total_bytes += candidate.size_bytes
        total_chars += candidate.size_chars
        if count >= want_lines and total_bytes >= want_bytes and total_chars >= want_chars:
            return tuple(found[:count])
    return tuple(found)


def _entry_head(line: str) -> int:
    """Length of the head of an index entry line (bullet, then the first local link), or
    -1 when the line is not an index entry."""
    bullet = _BULLET_RE.match(line)
    if bullet is None:
        return -1
    end = _first_local_link_end(line, bullet.end())
    if end == -1:
        return -1
    size = len(line)
    while end < size and line[end].isspace():
        end += 1
    if end < size and line[end] in _COMPACT_SEPARATORS:
        end += 1
        while end < size and line[end].isspace():
            end += 1
    return end


def _first_local_link_end(line: str, begin: int) -> int:
    """End (exclusive) of the earliest-ending ``[title](x.md)`` starting at/after
    ``begin`` (title: no ``]``; target: no ``)``, whitespace, ``/``, ``\\``), or -1.
    One left-to-right pass: a ``](`` is usable when a ``[`` follows the previous ``]``."""
    last_open = -1
    last_close = -1
    last_stop = -1  # every usable ']' is at/after begin, so this equals begin - 1 here
    usable: list[int] = []
    pointer = 0
    best = -1
    for pos in range(begin, len(line)):
        char = line[pos]
        if char == "[":
            last_open = pos
        elif char == "]":
            if last_open > last_close and line.startswith("(", pos + 1):
                usable.append(pos)
            last_close = pos
        elif char == ")":
            if pos - begin >= 7 and line.startswith(".md", pos - 3):  # "[](x.md)" is 8
                while pointer < len(usable) and usable[pointer] <= pos - 6:
                    best = usable[pointer]
                    pointer += 1
                if best > last_stop:
                    return pos + 1
            last_stop = pos
        elif char in "/\\" or char.isspace():
            last_stop = pos
    return -1


def _compact_line(line: str, max_len: int) -> tuple[str | None, bool]:
    """(new line or None, head too long?) for one line, without its break, that is
    longer than ``max_len``."""
    head_len = _entry_head(line)
    if head_len < 0 or head_len == len(line):
        return None, False
    if head_len >= max_len - 1:
        return None, True
    head, tail = line[:head_len], line[head_len:]
    room = max_len - head_len - 1
    cut = tail[:room]
    space = cut.rfind(" ")
    if space > room / 2:
        cut = cut[:space]
    bracket = cut.rfind("[")
    if bracket >= 0:
        if cut[bracket - 1 : bracket] == "[":  # the first of "[[" (empty slice at 0)
            bracket -= 1
        rest = cut[bracket:]
        if not (_WIKI_HEAD_RE.match(rest) or _MD_LINK_HEAD_RE.match(rest)):
            cut = cut[:bracket]
    end = len(cut)
    while end and (cut[end - 1].isspace() or cut[end - 1] in _COMPACT_SEPARATORS):
        end -= 1
    cut = cut[:end]
    if not cut:
        return None, False
    new = head + cut + _ELLIPSIS
    if _utf8_length(new) >= _utf8_length(line):
        return None, False
    return new, False


def compact_index_lines(
    index_text: str, max_len: int = DEFAULT_MAX_INDEX_LINE_LENGTH
) -> Compaction:
    """Shorten over-long index entry lines (suggested text only; heads never touched)."""
    text = _text(index_text)
    limit = _int_option("max_len", max_len, _MIN_COMPACT_LENGTH)
    parts = text.split("\n")
    changes: list[LineChange] = []
    skipped: list[SkippedLine] = []
    last = len(parts) - 1
    for index, part in enumerate(parts):
        crlf = index < last and part.endswith("\r")
        line = part[:-1] if crlf else part
        if len(line) <= limit:
            continue
        new, too_long = _compact_line(line, limit)
        if too_long:
            skipped.append(SkippedLine(index + 1, "head too long to shorten"))
        if new is None:
            continue
        saved = _utf8_length(line) - _utf8_length(new)
        changes.append(LineChange(index + 1, len(line), len(new), saved, new))
        parts[index] = new + "\r" if crlf else new
    result = "\n".join(parts) if changes else text
    before = _utf8_length(text)
    after = _utf8_length(result)
    return Compaction(result, tuple(changes), tuple(skipped), before - after, before, after)


# ---------------------------------------------------------------- self-check


def _example_files() -> list[MemoryFile]:
    def fm(name: str, kind: str, body: str) -> str:
        return f"---\nname: {name}\nmetadata:\n  type: {kind}\n---\n{body}"

    return [
        MemoryFile(
            "feedback_ship_early.md",
            fm("feedback-ship-early", "feedback", "Ship early. See [[project_launch_plan]]."),
        ),
        MemoryFile(
            "project_launch_plan.md",
            fm(
                "project_launch_plan",
                "project",
                "Launch plan. [[feedback_ship_early]] [[nonexistent_memory]]",
            ),
        ),
        MemoryFile(
            "reference_api_docs.md",
            fm("reference-api-docs", "reference", "API docs pointer. [[feedback_ship_early]]"),
        ),
    ]


_EXAMPLE_INDEX = "\n".join(
    [
        "# Memory Index",
        "- [Ship early](feedback_ship_early.md) — always ship",
        "- [Launch plan](project_launch_plan.md) — the plan",
        "- [Dead pointer](does_not_exist.md) — stale",
        "- [API docs](reference_api_docs.md) — reference",
        "- [Totally different fact](reference_api_docs.md) — silent merge shape",
    ]
)


def _self_check() -> None:
    if not __debug__:
        raise SystemExit("memory_integrity self-check needs assertions; run without -O")
    files = _example_files()
    result = lint_memory_integrity(_EXAMPLE_INDEX, files)
    assert result.swept and result.coverage.reached == 3
    got = [(f.check, f.subject, f.lines, f.wiki) for f in result.findings]
    assert got == [
        ("dead-index-link", "does_not_exist.md", (4,), None),
        ("duplicate-link-target", "reference_api_docs.md", (5, 6), None),
        ("dangling-wiki-link", "project_launch_plan.md", (), "nonexistent_memory"),
    ]
    assert result.findings[1].similarity == 0.0
    with_bytes = lint_memory_integrity(_EXAMPLE_INDEX, files, budget_bytes=24985, index_bytes=24986)
    budget = with_bytes.findings[2]
    assert (
        budget.check,
        budget.limit,
        budget.over,
        budget.first_unloaded_line,
        budget.index_lines,
    ) == ("index-over-budget", "bytes", 1, None, 6)
    assert lint_memory_integrity(_EXAMPLE_INDEX, files, index_bytes=24986) == result
    # absence is its own answer
    for blind in (
        lint_memory_integrity(),
        lint_memory_integrity("", []),
        lint_memory_integrity(None, [{"name": 42}, None, {"nope": True}]),  # type: ignore[list-item, dict-item]
    ):
        assert not blind.swept and blind.findings == ()
    # near-duplicates are type-gated; numbers keep series apart
    dup_names = [
        "feedback_retry_backoff_rule.md",
        "feedback_backoff_retry_rule.md",
        "project_retry_backoff_rule.md",
        "feedback_retry_backoff_rule_v2.md",
        "feedback_sprint_18_retro.md",
        "feedback_sprint_19_retro.md",
    ]
    near = [
        f
        for f in lint_memory_integrity("", [(n, "") for n in dup_names]).findings
        if f.check == "near-duplicate-slug"
    ]
    assert [(f.files, f.unlisted) for f in near] == [
        ((dup_names[0], dup_names[1], dup_names[3]), 0)
    ]
    # the load limit: lines first, then characters, in UTF-16 units
    lines201 = lint_memory_integrity("\n".join(["x"] * 201), []).findings[-1]
    assert (lines201.limit, lines201.over, lines201.first_unloaded_line) == ("lines", 1, 201)
    assert not lint_memory_integrity("\n".join(["x"] * 200), []).findings
    assert not lint_memory_integrity("😀" * 12500, []).findings
    chars = lint_memory_integrity("😀" * 12500 + "x", []).findings[-1]
    assert (chars.limit, chars.over, chars.first_unloaded_line) == ("chars", 1, 1)
    stripped = "---\nname: index\n---\n<!-- managed\n" + "x" * 30000 + "\n-->\n"
    assert not lint_memory_integrity(stripped + "\n".join(["y"] * 200), []).findings
    # documented limits: anchored/path links are not memory links; cross-type not compared
    assert extract_index_links("- [A](a.md#s) [B](sub/b.md) [C](c.md)") == (
        IndexLink("C", "c.md", 1),
    )
    # graph, repairs, compaction
    graph = build_memory_link_graph(files)
    assert len(graph.nodes) == 3 and len(graph.edges) == 3
    assert graph.unlinked == ("reference_api_docs.md",) and len(graph.dangling) == 1
    kinds = [r.kind for r in suggest_memory_repairs(_EXAMPLE_INDEX, files).repairs]
    assert kinds == ["fix-dead-link", "split-shared-target"]
    long_line = "- [Title](feedback_ship_early.md) — " + "word " * 60 + "end"
    compacted = compact_index_lines(long_line, 80)
    assert compacted.text == "- [Title](feedback_ship_early.md) — " + "word " * 7 + "word…"
    assert (compacted.saved_bytes, compacted.before_bytes) == (261, 341)
    assert compact_index_lines(compacted.text, 80).text == compacted.text
    assert parse_frontmatter("---\nmetadata:\n  type: project\ntype: User\n---\n") == (
        None,
        "user",
        None,
    )
    assert normalize_slug("Feedback_Ship  early.MD") == "feedback-ship-early"
    assert extract_wiki_links("[[a|A]] [[b#h]] [[ ]] [[[c]]]") == ("a", "b", "[c")
    print("memory_integrity self-check: all assertions passed")


if __name__ == "__main__":
    _self_check()
