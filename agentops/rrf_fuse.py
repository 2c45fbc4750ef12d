"""Reciprocal Rank Fusion for agent recall paths: recency and relevance, both kept.

The failure guarded against
    An agent searches its own past (a message bus, transcripts, a memory folder).
    The source hands results back newest first and the easy code keeps the first
    N. When the useful answer is three weeks old, any weak match from this
    morning pushes it out of the window: the agent works the problem out again,
    or asks a person again, although the answer was on disk all along.

The fix
    Gather more candidates than will be shown and keep two orderings: age (the
    order the pool is passed in, newest first) and any cheap relevance number.
    Combine the two orders with Reciprocal Rank Fusion:
    ``score(d) = sum over rankings r containing d of 1 / (k + rank_r(d))`` with
    ONE-BASED ranks and ``k = 60``; the top item contributes ``1/61``, never
    ``1/60``. Only positions are fused, so the relevance number may be on any
    scale (a count of keyword hits is fine). ``fuse_rankings`` fuses any number of
    ranked id lists (BM25 + vectors + recency), with optional per-list weights
    (``weight / (k + rank)``). Scores are summed with ``math.fsum`` (correctly
    rounded), so equal term multisets give exactly equal scores whatever the
    summation order or Python version. Exact ties: ``rrf_fuse`` keeps pool order;
    ``fuse_rankings`` keeps first appearance (ranking 0 top to bottom, then
    ranking 1, ...). ``rrf_fuse`` is exactly ``fuse_rankings`` over
    [recency order, relevance order], so both agree to the last bit.

    Choices where the contract is silent:
    - A pool (or the outer rankings iterable) whose iteration raises part way
      yields ``[]``: a partial read could rank the wrong items first. A single
      ranking whose iteration raises contributes nothing but keeps its position.
    - An id whose ``__hash__`` or ``__eq__`` raises is skipped like an
      unhashable one (it consumes no rank).
    - ``k`` and weights are used as floats (``1/(60.0 + 1)`` is bit-for-bit
      ``1/61``); an ``int`` too large for a float counts as non-finite (``k``
      falls back to ``RRF_K``, weights to ``None``); ``-0.0`` reads as ``0.0``,
      so a zero score is always ``+0.0``, as ``math.fsum`` gives.
    - A weighted sum too large for a float (weights near 1e308) is ``inf``,
      the IEEE rounding of the true sum, instead of an ``OverflowError``.
    - ``fuse_rankings`` pauses Python's cyclic garbage collector while it runs
      and restores the previous state (``gc.isenabled()``) on return. It builds
      millions of small tuples and no reference cycles; with the collector on,
      repeated full collections re-walk every large list alive in the process
      and more than double the time. It is never switched on if it was off.

Posture
    Fail-soft. Wrong container types, unreadable scores, unhashable ids and bad
    options never raise and never produce a wrong ranking: they degrade to the
    documented default, ``0.0`` or ``[]``.

WHAT THIS DOES NOT CATCH (each pinned by a test)
    - Magnitudes: values are thrown away once the order is known; a best score
      of 1000 weighs exactly what a best score of 5 weighs.
    - An empty relevance signal: when every score is equal (all zero, all
      missing) ``rrf_fuse`` returns plain recency order; a silent ranking adds
      nothing to fusion.
    - A pool truncated upstream: only what is passed in can be ranked. Cutting
      candidates to the newest N first loses the old relevant hit; collect
      generously (say three times the final limit from each source).
    - Score ties are not relevance ties in rank terms: equal scores get ordinal
      relevance ranks in pool order, so the newer of two equally scored items
      still gets the better relevance rank.

Lineage
    Reciprocal Rank Fusion is the SIGIR 2009 paper "Reciprocal rank fusion
    outperforms Condorcet and individual rank learning methods" (the same
    formula as Elasticsearch's RRF retriever and ranx's ``rrf``). The
    recency x relevance use comes from the cross-session search path of a
    production multi-agent system, prompted by hybrid-retrieval memory stores;
    the weighted form is the one search engines expose as per-retriever weights.
"""

from __future__ import annotations

import gc
import itertools
import math
import numbers
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from decimal import Decimal
from operator import attrgetter
from typing import NamedTuple

__all__ = ["RRF_K", "FusedItem", "FusedId", "rrf_fuse", "fuse_rankings"]  # noqa: RUF022 - contract order

RRF_K: int = 60

_REJECTED = (str, bytes, bytearray, Mapping)


class FusedItem(NamedTuple):
    """One pool element with its fused score and both one-based ranks."""

    item: object
    score: float
    recency_rank: int
    relevance_rank: int
    relevance: float


class FusedId(NamedTuple):
    """One fused id: score and its one-based rank in each input (None = absent)."""

    id: Hashable
    score: float
    ranks: tuple[int | None, ...]


def _snapshot(value: object) -> list[object] | None:
    """The elements of an acceptable iterable, read once; None if not acceptable."""
    if isinstance(value, _REJECTED) or not isinstance(value, Iterable):
        return None
    try:
        return list(value)
    except Exception:
        return None


def _finite_float(value: object) -> float | None:
    """`value` as a finite float if it is a number (never a bool); else None."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, Decimal)):
        return None
    try:
        number = float(value)
    except Exception:
        return None
    return number if math.isfinite(number) else None


def _option_number(value: object) -> float | None:
    """An int or float option (not bool), finite and >= 0, as a float; else None.

    -0.0 comes back as 0.0: a correctly rounded sum of zeros is +0.0 anyway, so
    no score can carry the sign, whichever way it is computed."""
    number = _finite_float(value) if isinstance(value, (int, float)) else None
    return number + 0.0 if number is not None and number >= 0 else None


def _k_or_default(k: object) -> float:
    number = _option_number(k)
    return float(RRF_K) if number is None else number


def _limit_or_none(limit: object) -> int | None:
    return limit if isinstance(limit, int) and not isinstance(limit, bool) else None


def _cut(ordered: list[int], limit: int | None) -> list[int]:
    if limit is None:
        return ordered
    return ordered[: max(limit, 0)]


def _read_score(element: object, key: object) -> float:
    """The element's relevance as a finite float; 0.0 when missing or unusable."""
    try:
        if callable(key):
            raw = key(element)
        else:
            name = key if isinstance(key, str) else "score"
            if isinstance(element, Mapping):
                raw = element.get(name)
            else:
                raw = getattr(element, name, None)
    except Exception:
        return 0.0
    number = _finite_float(raw)
    return 0.0 if number is None else number


class _Terms:
    """Rank numbers and `weight / (k + rank)` tables, each built once per call.

    Every column then refers to the same int and float objects instead of
    making a million fresh ones."""

    def __init__(self, longest: int, k: float) -> None:
        self.numbers = list(range(1, longest + 1))
        self._denominators = [k + rank for rank in self.numbers]
        self._tables: dict[float, list[float]] = {}

    def table(self, weight: float) -> list[float]:
        """`weight / (k + rank)` for rank 1, 2, 3, ...: one float division each."""
        if weight not in self._tables:
            self._tables[weight] = list(map(weight.__truediv__, self._denominators))
        return self._tables[weight]


def _total(terms: list[float]) -> float:
    try:
        return math.fsum(terms)
    except OverflowError:
        return math.inf


def rrf_fuse(
    pool: object, limit: object = None, *, k: object = RRF_K, key: object = None
) -> list[FusedItem]:
    """Fuse the pool's order (newest first) with its relevance order by RRF."""
    elements = _snapshot(pool)
    if not elements:
        return []
    kk = _k_or_default(k)
    scores = [_read_score(element, key) for element in elements]
    count = len(elements)
    # sorted() with reverse=True is stable: equal scores keep pool order (ordinal ranks).
    by_relevance = sorted(range(count), key=scores.__getitem__, reverse=True)
    relevance_rank = dict(zip(by_relevance, itertools.count(1)))
    terms = _Terms(count, kk).table(1.0)
    fused = [_total([terms[i], terms[relevance_rank[i] - 1]]) for i in range(count)]
    order = _cut(sorted(range(count), key=fused.__getitem__, reverse=True), _limit_or_none(limit))
    return [FusedItem(elements[i], fused[i], i + 1, relevance_rank[i], scores[i]) for i in order]


def _guarded_unique(ranking: list[object], known: Mapping[object, object]) -> list[object]:
    """First occurrences only, skipping ids whose hash or equality raises (here or in `known`)."""
    seen: dict[object, None] = {}
    for element in ranking:
        try:
            if element in seen:
                continue
            known.get(element)  # probe only: an id that `known` cannot hold is skipped
            seen[element] = None
        except Exception:
            continue
    return list(seen)


def _weights_or_none(weights: object, count: int) -> list[float] | None:
    """One valid weight per ranking, as floats; None if anything about them is off."""
    if isinstance(weights, _REJECTED) or not isinstance(weights, Sequence):
        return None
    try:
        values = [_option_number(w) for w in weights]
    except Exception:
        return None
    usable = [value for value in values if value is not None]
    return usable if len(usable) == len(values) == count else None


def _cleaned(lists: list[list[object] | None]) -> list[list[object] | None]:
    """Each ranking without repeats and without ids whose hash or equality raises."""
    known: dict[object, None] = {}
    cleaned: list[list[object] | None] = []
    for ranking in lists:
        unique = _guarded_unique(ranking or [], known)
        known.update(dict.fromkeys(unique))
        cleaned.append(unique)
    return cleaned


_Fused = tuple[list[object], list[float], list[tuple[int | None, ...]]]


def _fuse(lists: list[list[object] | None], k: float, weight_of: list[float]) -> _Fused:
    """Candidates in first-appearance order with their fused scores and rank rows.

    Raises if an id's hash or equality raises; the caller then cleans the lists."""
    present = [ranking or [] for ranking in lists]
    terms = _Terms(max(map(len, present)), k)
    if _no_repeats(present):
        return _fuse_disjoint(present, terms, weight_of)
    return _fuse_overlapping(present, terms, weight_of)


def _no_repeats(lists: list[list[object]]) -> bool:
    """True when no id occurs twice, within one ranking or across rankings."""
    seen: set[object] = set()
    for ranking in lists:
        if not seen.isdisjoint(ranking):  # stops at the first shared id
            return False
        expected = len(seen) + len(ranking)
        seen.update(ranking)
        if len(seen) != expected:
            return False
    return True


def _fuse_disjoint(lists: list[list[object]], terms: _Terms, weight_of: list[float]) -> _Fused:
    """No id occurs twice anywhere: each id has one term, and ranking j's ids
    are the run of candidates right after those of rankings 0..j-1."""
    keys = list(itertools.chain.from_iterable(lists))
    total = len(keys)
    rank_columns: list[list[int | None]] = []
    scores: list[float] = []
    for ranking, weight in zip(lists, weight_of, strict=True):
        size, start = len(ranking), len(scores)
        rank_columns.append([None] * start + terms.numbers[:size] + [None] * (total - start - size))
        scores += terms.table(weight)[:size]  # fsum of one term is that term
    return keys, scores, list(zip(*rank_columns, strict=True))


def _columns(
    size: int, positions: list[int], numbers: list[int], table: list[float]
) -> tuple[list[int | None], list[float]]:
    """One ranking as two candidate-indexed columns: its rank (or None) and its
    term (or 0.0). A repeat of a candidate already ranked here is skipped and
    takes no rank."""
    ranks: list[int | None] = [None] * size
    terms = [0.0] * size
    taken = 0
    for position in positions:
        if ranks[position] is None:
            ranks[position] = numbers[taken]
            terms[position] = table[taken]
            taken += 1
    return ranks, terms


def _fuse_overlapping(lists: list[list[object]], terms: _Terms, weight_of: list[float]) -> _Fused:
    """The general case, column by column: per ranking, each candidate's rank
    (or None) and term (or 0.0); then one correctly rounded sum per candidate."""
    # Each new id takes the next position the moment it is first met: one hash pass.
    index: defaultdict[object, int] = defaultdict(itertools.count().__next__)
    placed = [[index[element] for element in ranking] for ranking in lists]
    total = len(index)
    rank_columns: list[list[int | None]] = []
    term_columns: list[list[float]] = []
    for positions, weight in zip(placed, weight_of, strict=True):
        ranks, terms_here = _columns(total, positions, terms.numbers, terms.table(weight))
        rank_columns.append(ranks)
        term_columns.append(terms_here)
    # An absent id adds an exact 0.0 term, which leaves a correctly rounded sum unchanged.
    try:
        scores = list(map(math.fsum, zip(*term_columns, strict=True)))
    except OverflowError:
        scores = [_total(list(row)) for row in zip(*term_columns, strict=True)]
    return list(index), scores, list(zip(*rank_columns, strict=True))


def _ranked(fused: _Fused, limit: int | None) -> list[FusedId]:
    """The fused ids, best first, equal scores in first-appearance order, cut to `limit`."""
    keys, scores, rank_rows = fused
    if limit is not None and limit < len(keys):
        best = _cut(sorted(range(len(keys)), key=scores.__getitem__, reverse=True), limit)
        return [FusedId(keys[i], scores[i], rank_rows[i]) for i in best]
    # Everything wanted: build in first-appearance order, then sort. The sort is
    # stable, so equal scores keep first appearance, and walking the candidates
    # in the order they sit in memory is far faster than jumping by place.
    results = list(map(FusedId._make, zip(keys, scores, rank_rows, strict=True)))
    results.sort(key=attrgetter("score"), reverse=True)
    return results


def fuse_rankings(
    rankings: object, *, k: object = RRF_K, weights: object = None, limit: object = None
) -> list[FusedId]:
    """Fuse ranked id lists (best first) by weighted RRF; ties go to first appearance."""
    outer = _snapshot(rankings)
    if not outer:
        return []
    lists = [_snapshot(ranking) for ranking in outer]
    kk = _k_or_default(k)
    chosen = _weights_or_none(weights, len(lists))
    weight_of = [1.0] * len(lists) if chosen is None else chosen
    collecting = gc.isenabled()
    gc.disable()  # see the module docstring: millions of fresh tuples, no cycles
    try:
        try:
            fused = _fuse(lists, kk, weight_of)
        except Exception:  # an id whose hash or equality raises: redo with every id probed
            try:
                fused = _fuse(_cleaned(lists), kk, weight_of)
            except Exception:  # equality that raises only sometimes: nothing trustworthy
                return []
        return _ranked(fused, _limit_or_none(limit))
    finally:
        if collecting:
            gc.enable()


def _self_check() -> None:
    if not __debug__:
        raise SystemExit("rrf_fuse self-check needs assertions: run without -O / PYTHONOPTIMIZE")

    def pool(*pairs: tuple[str, object]) -> list[dict[str, object]]:
        return [{"id": i, "score": s} for i, s in pairs]

    def names(result: list[FusedItem]) -> list[object]:
        return [h.item["id"] for h in result]  # type: ignore[index]

    assert RRF_K == 60
    hits = pool(("r0", 1), ("r1", 0), ("r2", 0), ("r3", 0), ("r4", 5), ("r5", 0))
    assert names(rrf_fuse(hits, 3)) == ["r0", "r1", "r4"]
    assert names(rrf_fuse(pool(("a", 0), ("b", 9), ("c", 8), ("d", 7)))) == ["b", "a", "c", "d"]
    ten = pool(*zip("abcdefghij", [0, 8, 7, 9, 6, 5, 4, 3, 2, 1], strict=True))
    assert names(rrf_fuse(ten, 4)) == ["b", "d", "c", "e"]
    assert names(rrf_fuse(ten, 4, k=1)) == ["d", "b", "a", "c"]
    nan_pool = [{"id": "a"}, {"id": "b", "score": float("nan")}, {"id": "c", "score": 2}]
    assert names(rrf_fuse(nan_pool)) == ["a", "c", "b"]
    (one,) = rrf_fuse([{"score": 3}])
    assert (one.score, one.recency_rank, one.relevance_rank, one.relevance) == (2 / 61, 1, 1, 3.0)
    assert rrf_fuse([], 5) == rrf_fuse(None) == rrf_fuse([{"score": 1}], 0) == []
    assert [(f.id, f.score, f.ranks) for f in fuse_rankings([["a", "b", "c"], ["c", "d"]])] == [
        ("c", math.fsum([1 / 63, 1 / 61]), (3, 1)),
        ("a", 1 / 61, (1, None)),
        ("b", 1 / 62, (2, None)),
        ("d", 1 / 62, (None, 2)),
    ]
    tie = fuse_rankings([["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]], k=2)
    assert [(f.id, f.score) for f in tie] == [(x, math.fsum([1 / 3, 1 / 4, 1 / 5])) for x in "abc"]
    assert [
        (f.id, f.score)
        for f in fuse_rankings([["x", "y"], ["y", "x"], ["z"]], k=0, weights=[1, 1, 2])
    ] == [("z", 2.0), ("x", 1.5), ("y", 1.5)]
    assert [(f.id, f.ranks) for f in fuse_rankings([["a"], None, ["a"]])] == [("a", (1, None, 1))]
    assert fuse_rankings([["a", "b"]], weights=[1, 1]) == fuse_rankings([["a", "b"]])
    assert fuse_rankings("ab") == fuse_rankings(None) == fuse_rankings([]) == []
    # Limits: magnitudes vanish; a silent signal leaves recency; truncation loses the hit.
    big, small = rrf_fuse(pool(("a", 0), ("b", 900000))), rrf_fuse(pool(("a", 0), ("b", 9)))
    assert [(h.item, h.score) for h in big] != [(h.item, h.score) for h in small]
    assert [h[1:4] for h in big] == [h[1:4] for h in small]
    assert names(rrf_fuse(pool(("x", 3), ("y", 3), ("z", 3)))) == ["x", "y", "z"]
    recent = [(f"n{i}", 0) for i in range(8)]
    assert "old" in names(rrf_fuse(pool(*recent, ("old", 7)), 5))
    assert "old" not in names(rrf_fuse(pool(*recent, ("old", 7))[:5], 5))
    print("rrf_fuse self-check: all assertions passed")


if __name__ == "__main__":
    _self_check()
