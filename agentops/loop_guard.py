"""loop_guard: ration repeated and reworded tool calls within one agent turn.

The failure
-----------
A model does not notice that it repeats itself. One recorded turn held twelve
identical knowledge lookups, although each lookup result carried a note that
the question had been asked already (the note was read as one more piece of
context). In another turn the agent re-checked three API names its prompt had
already given it, wording each check differently, so no exact-match test saw
the repetition. A semantic lookup costs ten to thirty seconds, and every extra
step pays for the fixed prompt again. The opposite mistake happened too: a
blunt per-call budget cut off a model that was, correctly, checking eleven
symbols with a millisecond lookup. A limit must not charge for the careful
behaviour it wants.

The fix
-------
A small deterministic guard consulted before each tool call, over an explicit
per-turn state value:

1. the same ``(tool, arguments)`` more than ``MAX_IDENTICAL_CALLS`` (4) times
   in a turn is answered with a stub instead of running, and flagged
   ``stuck`` so the loop can force the final answer;
2. only tools named in ``budget_tools`` (default ``{"rag_lookup"}``) are
   budgeted: ``MAX_LIVE_PER_TURN`` (12) live runs of each per turn; cheap
   tools and cache serves are free;
3. one query, or a rewording of it, runs live at most ``MAX_LIVE_PER_QUERY``
   (2) times; after that the caller's turn cache answers;
4. rewordings are matched without embeddings: a normalised key (lower case,
   stopwords dropped, light stemming, sorted) compared exactly, then by a
   ``difflib`` ratio of at least ``THRESHOLD`` (0.8);
5. when the budget is spent the reply says so, says no phrasing gets
   through, and forbids reporting the answer as missing from the knowledge
   base: an exhausted budget is a fact about this turn, not the documents.

The state is an immutable ``TurnState`` of plain tuples, threaded through the
pure ``check``; it survives ``json.dumps(state._asdict())`` and
``load_state(...)`` unchanged, and the same state and call always give the
same verdict.

Posture
-------
Fail-soft detector, not an authorization gate. It never raises on what it
inspects (state, tool name, arguments, query); input it cannot read gives
``RUN`` (no finding) and the call proceeds. Strict on options: a ``config``
that is not a ``GuardConfig`` (or ``None``), a count field that is not an
``int`` >= 1, a ``threshold`` that is not a real number in ``(0, 1]``, or
``budget_tools`` that is not an iterable of ``str`` is a programming error and
raises ``TypeError`` or ``ValueError`` naming the field. A call is only
ever stopped by a deliberate count: the calls it rations are reads, so letting
one through costs time, not safety, while a guard whose own bug could stop
tool calls would take the agent down.

Choices
-------
Each is pinned by a test.

- A ``TurnState`` passed to ``check`` is validated like its JSON form (rows
  of the wrong shape are dropped), so a hand-built bad state cannot raise.
- ``load_state`` keeps the first row of duplicated keys and drops the rest; a
  missing or non-list field reads as empty.
- A mapping that is not a ``dict`` is copied into a ``dict`` before dumping.
- A ``STUB`` verdict still reports the tool's current live count and the
  call's ``query_key``; no matching is done (``matched_key`` "", score 0.0).
- In stemming step c a "consonant" is a letter outside ``aeiouy`` (the vowel
  set of step b), so ``yy`` is never collapsed.
- ``threshold`` accepts any real number (``int``, ``float``, ``Fraction``) in
  ``(0, 1]``, not ``bool``.

What this does not catch
------------------------
Each is pinned by a test.

1. A rewording that changes more than about a fifth of the key runs live as a
   new query (``create table`` vs ``build a grid``).
2. The other direction: two different questions that differ by one short word
   in a longer key can match (``... table headers`` vs ``... table footers``
   scores 0.833; ``error 404`` vs ``error 403`` scores 0.889).
3. Anything across turns or sessions: the state is per turn.
   ``normalize_query`` and ``similarity`` are exported for a persistent cache,
   which is the caller's.
4. Concurrent duplicates: rewordings dispatched together are counted in the
   order the caller checks them; collapsing in-flight duplicates is the
   caller's job.
5. Asking again for facts already supplied in the prompt.
6. Words outside ASCII are not stemmed; arguments that are neither text nor
   JSON-able are not counted as identical calls.

Lineage
-------
A 2026 write-up on hardening a retrieval-backed coding agent: five layers of
loop detection, the identical-call limit of 4 answered by a stub, 12 live
lookups per turn and 2 per query, embedding-free matching at 0.8 with its
calibration, the budget charged per tool, and the budget message that forbids
blaming the knowledge base. Token-sort matching comes from fuzzy string
matching practice; the suffix stripping follows classic rule-based English
stemmers.
"""

from __future__ import annotations

import json
import math
import numbers
import re
from collections.abc import Iterable, Mapping
from difflib import SequenceMatcher
from typing import Any, NamedTuple

__all__ = [
    "BUDGET",
    "BUDGET_TEMPLATE",
    "CACHED",
    "CACHE_NOTE",
    "DEFAULT_BUDGET_TOOLS",
    "MAX_IDENTICAL_CALLS",
    "MAX_LIVE_PER_QUERY",
    "MAX_LIVE_PER_TURN",
    "MAX_QUERY_CHARS",
    "RUN",
    "STOPWORDS",
    "STUB",
    "STUB_TEMPLATE",
    "THRESHOLD",
    "GuardConfig",
    "TurnState",
    "Verdict",
    "check",
    "load_state",
    "new_turn",
    "normalize_query",
    "similarity",
]

RUN = "RUN"
CACHED = "CACHED"
STUB = "STUB"
BUDGET = "BUDGET"

MAX_IDENTICAL_CALLS = 4
MAX_LIVE_PER_TURN = 12
MAX_LIVE_PER_QUERY = 2
THRESHOLD = 0.8
DEFAULT_BUDGET_TOOLS: frozenset[str] = frozenset({"rag_lookup"})
MAX_QUERY_CHARS = 1000

STOPWORDS: frozenset[str] = frozenset(
    {
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "if",
        "then",
        "so",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "from",
        "by",
        "with",
        "about",
        "into",
        "onto",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "am",
        "do",
        "does",
        "did",
        "how",
        "what",
        "which",
        "who",
        "whom",
        "where",
        "when",
        "why",
        "i",
        "me",
        "my",
        "we",
        "our",
        "you",
        "your",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "there",
        "here",
        "can",
        "could",
        "should",
        "would",
        "will",
        "shall",
        "may",
        "might",
        "must",
        "please",
        "some",
        "any",
    }
)

STUB_TEMPLATE = (
    "[skipped, not run: identical call #{count} this turn; the same arguments give the"
    " same result, so work with what you already have]"
)
CACHE_NOTE = (
    "[answered from this turn's cache: this question, or a close rewording of it,"
    " already ran live {live} times]"
)
BUDGET_TEMPLATE = (
    "[lookup budget used up: {live} live {tool} calls this turn] Further lookups are"
    " refused for the rest of this turn however they are phrased, and each attempt gets"
    " this same reply. Finish now: write the answer from the material already gathered."
    " Where something is still unknown, say the search budget was used up; do NOT say the"
    " knowledge base lacks it, because an exhausted budget tells you nothing about what"
    " the documentation holds."
)

_TOKEN_RE = re.compile(r"[^\W_]+")
_VOWELS = frozenset("aeiouy")
_KEEP_DOUBLED = _VOWELS | frozenset("lsz")  # step c drops one of a doubled consonant but these
_SUFFIXES = ("ing", "ed", "es", "s")
_KEEP_S_AFTER = ("ss", "us", "is")


class GuardConfig(NamedTuple):
    """Limits for one guard; `check` raises TypeError/ValueError naming a wrong field."""

    max_identical_calls: int = MAX_IDENTICAL_CALLS
    max_live_per_turn: int = MAX_LIVE_PER_TURN
    max_live_per_query: int = MAX_LIVE_PER_QUERY
    threshold: float = THRESHOLD
    budget_tools: frozenset[str] = DEFAULT_BUDGET_TOOLS


class TurnState(NamedTuple):
    """One turn's counters, plain tuples only, so `json.dumps(state._asdict())` works."""

    calls: tuple[tuple[str, str, int], ...] = ()
    live: tuple[tuple[str, int], ...] = ()
    queries: tuple[tuple[str, str, int], ...] = ()


class Verdict(NamedTuple):
    """What to do with one tool call, and the state to pass to the next check."""

    action: str
    message: str
    count: int  # type: ignore[assignment]  # the contract names this field; shadows tuple.count
    live: int
    query_key: str
    matched_key: str
    score: float
    stuck: bool
    state: TurnState


def new_turn() -> TurnState:
    """The empty state for a new turn."""
    return TurnState()


# --------------------------------------------------------------------------- state


def _is_count(value: object) -> bool:
    return type(value) is int and value >= 0


def _rows(raw: object, width: int) -> list[tuple[Any, ...]]:
    """Valid rows of one state field: strings then a count; first row per key wins."""
    if not isinstance(raw, (list, tuple)):
        return []
    out: list[tuple[Any, ...]] = []
    seen: set[tuple[str, ...]] = set()
    for row in raw:
        if not isinstance(row, (list, tuple)) or len(row) != width:
            continue
        cells = tuple(row)
        names, count = cells[:-1], cells[-1]
        if not all(isinstance(n, str) for n in names) or not _is_count(count):
            continue
        key = tuple(str.__str__(n) for n in names)
        if key in seen:
            continue
        seen.add(key)
        out.append((*key, count))
    return out


def load_state(obj: TurnState | Mapping[str, Any] | None) -> TurnState:
    """A `TurnState` from a `TurnState` or its JSON form; bad rows dropped, garbage -> new turn."""
    try:
        if isinstance(obj, TurnState):
            fields: tuple[object, object, object] = (obj.calls, obj.live, obj.queries)
        elif isinstance(obj, dict):
            fields = (obj.get("calls"), obj.get("live"), obj.get("queries"))
        else:
            return new_turn()
        return TurnState(
            calls=tuple(_rows(fields[0], 3)),
            live=tuple(_rows(fields[1], 2)),
            queries=tuple(_rows(fields[2], 3)),
        )
    except Exception:  # fail-soft: an unreadable state resets the counters
        return new_turn()


# --------------------------------------------------------------------------- config


def _count_option(name: str, value: object) -> int:
    if type(value) is not int:
        raise TypeError(f"GuardConfig.{name} must be an int, not {type(value).__name__}")
    if value < 1:
        raise ValueError(f"GuardConfig.{name} must be >= 1, got {value!r}")
    return value


def _threshold_option(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"GuardConfig.threshold must be a real number, not {type(value).__name__}")
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        number = math.nan
    if not 0.0 < number <= 1.0:
        raise ValueError(f"GuardConfig.threshold must be within (0, 1], got {value!r}")
    return number


def _tools_option(value: object) -> frozenset[str]:
    if isinstance(value, (str, bytes, bytearray, Mapping)) or not isinstance(value, Iterable):
        raise TypeError(
            f"GuardConfig.budget_tools must be an iterable of str, not {type(value).__name__}"
        )
    items = list(value)
    for item in items:
        if not isinstance(item, str):
            raise TypeError(
                f"GuardConfig.budget_tools must hold str only, not {type(item).__name__}"
            )
    return frozenset(str.__str__(item) for item in items)


def _config(config: GuardConfig | None) -> GuardConfig:
    """The validated limits; a wrong option raises TypeError/ValueError naming it."""
    if config is None:
        return GuardConfig()
    if not isinstance(config, GuardConfig):
        raise TypeError(f"config must be a GuardConfig or None, not {type(config).__name__}")
    fields = tuple(tuple.__iter__(config))
    if len(fields) != len(GuardConfig._fields):  # a subclass built with other fields
        raise TypeError(f"config must have the {len(GuardConfig._fields)} GuardConfig fields")
    identical, per_turn, per_query, threshold, tools = fields
    return GuardConfig(
        max_identical_calls=_count_option("max_identical_calls", identical),
        max_live_per_turn=_count_option("max_live_per_turn", per_turn),
        max_live_per_query=_count_option("max_live_per_query", per_query),
        threshold=_threshold_option(threshold),
        budget_tools=_tools_option(tools),
    )


# --------------------------------------------------------------------------- keys


def _args_key(arguments: object) -> str | None:
    """The identity of a call's arguments, or None when they cannot be read."""
    if isinstance(arguments, str):
        return str.__str__(arguments)
    if arguments is None:
        return ""
    if isinstance(arguments, (Mapping, list, tuple)):
        try:
            value = dict(arguments) if isinstance(arguments, Mapping) else arguments
            return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        except Exception:  # unorderable keys, cycles, objects json cannot dump
            return None
    return None


def _stem(token: str) -> str:
    if not (token.isascii() and token.isalpha()):
        return token
    if len(token) > 4 and token.endswith(("ies", "ied")):
        token = token[:-3] + "y"
    else:
        for suffix in _SUFFIXES:
            if not token.endswith(suffix):
                continue
            if suffix == "s" and token.endswith(_KEEP_S_AFTER):
                continue
            rest = token[: -len(suffix)]
            if len(rest) >= 3 and any(ch in _VOWELS for ch in rest):
                token = rest
                break
    last = token[-1]
    if len(token) >= 3 and token[-2] == last and last not in _KEEP_DOUBLED:
        token = token[:-1]
    if len(token) > 3 and token.endswith("e"):
        token = token[:-1]
    return token


def normalize_query(text: str) -> str:
    """The order-free key of a query: lower case, stopwords dropped, stemmed, sorted, unique."""
    if not isinstance(text, str):
        return ""  # type: ignore[unreachable]  # data of any type: no key
    tokens = _TOKEN_RE.findall(str.__str__(text)[:MAX_QUERY_CHARS].lower())
    kept = [_stem(token) for token in tokens if token not in STOPWORDS]
    if not kept:
        kept = tokens
    return " ".join(sorted(set(kept)))


def _ratio(a: str, b: str) -> float:
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


def similarity(a: str, b: str) -> float:
    """How alike two queries are after normalising: 1.0 equal keys, 0.0 one key empty."""
    key_a, key_b = normalize_query(a), normalize_query(b)
    if key_a == key_b:
        return 1.0
    return _ratio(key_a, key_b)  # 0.0 when exactly one key is empty


def _match(
    groups: list[tuple[int, str, int]], key: str, threshold: float
) -> tuple[int | None, float]:
    """Row index (None for no match) and score of the query group `key` belongs to."""
    for index, stored, _ in groups:
        if stored == key:
            return index, 1.0
    best: int | None = None
    best_score = 0.0
    if key:
        for index, stored, _ in groups:
            if not stored:
                continue
            score = _ratio(key, stored)
            if score >= threshold and score > best_score:
                best, best_score = index, score
    return best, best_score


# --------------------------------------------------------------------------- check


def check(
    state: TurnState | Mapping[str, Any] | None,
    tool: str,
    arguments: object = "",
    *,
    query: str | None = None,
    config: GuardConfig | None = None,
) -> Verdict:
    """Decide one tool call against this turn's state; the input state is never changed.
    `state`, `tool`, `arguments` and `query` are data: any value gives a verdict. A
    wrong `config` raises TypeError/ValueError naming the field."""
    cfg = _config(config)
    current = load_state(state)
    if not isinstance(tool, str):
        return Verdict(RUN, "", 0, 0, "", "", 0.0, False, current)  # type: ignore[unreachable]
    name = str.__str__(tool)
    args_key = _args_key(arguments)

    calls = current.calls
    count = 0
    if args_key is not None:
        rows = list(calls)
        count = 1
        for i, (row_tool, row_key, row_count) in enumerate(rows):
            if row_tool == name and row_key == args_key:
                count = row_count + 1
                rows[i] = (name, args_key, count)
                break
        else:
            rows.append((name, args_key, 1))
        calls = tuple(rows)

    budgeted = name in cfg.budget_tools
    tool_live = 0
    if budgeted:
        for row_tool, runs in current.live:
            if row_tool == name:
                tool_live = runs
                break
    query_key = ""
    if budgeted:
        text = query if isinstance(query, str) else args_key if args_key is not None else ""
        query_key = normalize_query(text)

    if count > cfg.max_identical_calls:
        return Verdict(
            STUB,
            STUB_TEMPLATE.format(count=count),
            count,
            tool_live,
            query_key,
            "",
            0.0,
            True,
            current._replace(calls=calls),
        )
    if not budgeted:
        return Verdict(RUN, "", count, 0, "", "", 0.0, False, current._replace(calls=calls))

    groups = [
        (i, key, runs)
        for i, (row_tool, key, runs) in enumerate(current.queries)
        if row_tool == name
    ]
    index, score = _match(groups, query_key, cfg.threshold)
    exhausted = tool_live >= cfg.max_live_per_turn
    matched_key = ""
    if index is not None:
        _, matched_key, group_live = current.queries[index]
        if group_live >= cfg.max_live_per_query or exhausted:  # a cache serve beats a refusal
            return Verdict(
                CACHED,
                CACHE_NOTE.format(live=group_live),
                count,
                tool_live,
                query_key,
                matched_key,
                score,
                False,
                current._replace(calls=calls),
            )
    if exhausted:
        return Verdict(
            BUDGET,
            BUDGET_TEMPLATE.format(live=tool_live, tool=name),
            count,
            tool_live,
            query_key,
            "",
            0.0,
            False,
            current._replace(calls=calls),
        )

    tool_live += 1
    live_rows = list(current.live)
    for i, (row_tool, _) in enumerate(live_rows):
        if row_tool == name:
            live_rows[i] = (name, tool_live)
            break
    else:
        live_rows.append((name, tool_live))
    queries = list(current.queries)
    if index is not None:
        queries[index] = (name, matched_key, queries[index][2] + 1)
    else:
        queries.append((name, query_key, 1))
    next_state = TurnState(calls=calls, live=tuple(live_rows), queries=tuple(queries))
    return Verdict(RUN, "", count, tool_live, query_key, matched_key, score, False, next_state)


# --------------------------------------------------------------------------- self-check


def _self_check() -> None:
    if not __debug__:
        raise SystemExit(
            "loop_guard self-check needs assertions: run it without python -O or PYTHONOPTIMIZE"
        )
    state = new_turn()
    seen = []
    for _ in range(5):
        verdict = check(state, "rag_lookup", {"q": "create a table"})
        seen.append(verdict.action)
        state = verdict.state
    assert seen == [RUN, RUN, CACHED, CACHED, STUB], seen
    assert verdict.count == 5 and verdict.stuck
    assert load_state(json.loads(json.dumps(state._asdict()))) == state

    assert normalize_query("splitting tables") == "split tabl"
    assert normalize_query("how do I create tables") == "creat tabl"
    for a, b, same in (
        ("set table cell padding", "set layout table cell padding", True),
        ("how to set the table border colour", "set table border color", True),
        ("create a table with borders", "create a box with borders", False),
        ("create table", "create box", False),
    ):
        assert (similarity(a, b) >= THRESHOLD) is same, (a, b)

    message = BUDGET_TEMPLATE.format(live=12, tool="rag_lookup")
    assert "do NOT say the knowledge base lacks it" in message
    state = new_turn()
    for word in (
        "alpha",
        "bravo",
        "charlie",
        "delta",
        "echo",
        "foxtrot",
        "golf",
        "hotel",
        "india",
        "juliet",
        "kilo",
        "lima",
    ):
        state = check(state, "rag_lookup", word).state
    budget = check(state, "rag_lookup", query="something else entirely")
    assert budget.action == BUDGET and budget.message == message and budget.live == 12
    cheap = check(budget.state, "lookup_docs", {"symbol": "createTable"})
    assert cheap.action == RUN and cheap.live == 0

    garbage = check("garbage", 42, object())  # type: ignore[arg-type]
    assert garbage.action == RUN and garbage.count == 0 and garbage.state == new_turn()
    for wrong, error in (
        (GuardConfig(max_live_per_turn=0), ValueError),
        (GuardConfig(threshold="0.8"), TypeError),  # type: ignore[arg-type]
        (GuardConfig(budget_tools="rag_lookup"), TypeError),  # type: ignore[arg-type]
    ):
        try:
            check(new_turn(), "rag_lookup", query="q", config=wrong)
        except error as raised:
            assert str(raised).startswith("GuardConfig.")
        else:
            raise AssertionError(f"{wrong!r} did not raise")

    # limits: a big rewording runs live; a one-word difference can match
    assert similarity("create table", "build a grid") < THRESHOLD
    assert similarity("error 404", "error 403") >= THRESHOLD
    assert normalize_query("tablés") == "tablés"
    print("loop_guard self-check: all assertions passed")


if __name__ == "__main__":
    _self_check()
