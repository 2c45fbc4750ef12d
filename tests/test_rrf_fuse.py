"""Tests for agentops/rrf_fuse.py: contract, acceptance examples, limits, properties."""

from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Iterator, Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentops import rrf_fuse as mod
from agentops.rrf_fuse import RRF_K, FusedId, FusedItem, fuse_rankings, rrf_fuse

NAN = float("nan")
INF = float("inf")


def pool(*pairs: tuple[str, Any]) -> list[dict[str, Any]]:
    return [{"id": i, "score": s} for i, s in pairs]


def ids(result: list[FusedItem]) -> list[Any]:
    return [h.item["id"] for h in result]  # type: ignore[index]


def triples(result: list[FusedId]) -> list[tuple[Any, float, tuple[int | None, ...]]]:
    return [(f.id, f.score, f.ranks) for f in result]


# ---------------------------------------------------------------- constants / API


def test_public_api_and_constant() -> None:
    assert mod.__all__ == ["RRF_K", "FusedItem", "FusedId", "rrf_fuse", "fuse_rankings"]
    assert RRF_K == 60
    assert isinstance(RRF_K, int)
    assert FusedItem._fields == ("item", "score", "recency_rank", "relevance_rank", "relevance")
    assert FusedId._fields == ("id", "score", "ranks")


# ---------------------------------------------------------------- positive control


def test_positive_control_old_relevant_hit_surfaces() -> None:
    # Newest first: twelve marginal recent hits, then the three-week-old answer.
    recent = [(f"new{i}", 0) for i in range(8)]
    hits = pool(*recent, ("old-answer", 7), ("older", 0))
    naive = [h["id"] for h in hits[:5]]
    assert "old-answer" not in naive  # the failure: newest-first window drops it
    fused = ids(rrf_fuse(hits, 5))
    assert "old-answer" in fused
    whole = ids(rrf_fuse(hits))
    pos = whole.index("old-answer")
    # it ranks above every marginal recent hit from the fifth newest on
    assert all(pos < whole.index(f"new{i}") for i in range(4, 8))
    assert pos == 4


def test_spec_example_r4_surfaces() -> None:
    hits = pool(("r0", 1), ("r1", 0), ("r2", 0), ("r3", 0), ("r4", 5), ("r5", 0))
    assert ids(rrf_fuse(hits, 3)) == ["r0", "r1", "r4"]
    assert ids(rrf_fuse(hits))[:3] == ["r0", "r1", "r4"]


# ---------------------------------------------------------------- rrf_fuse acceptance


def test_neither_pure_recency_nor_relevance() -> None:
    assert ids(rrf_fuse(pool(("a", 0), ("b", 9), ("c", 8), ("d", 7)))) == ["b", "a", "c", "d"]


def test_ranks_not_magnitudes() -> None:
    assert ids(rrf_fuse(pool(("a", 0), ("b", 900000), ("c", 8), ("d", 7)))) == ["b", "a", "c", "d"]


TEN = pool(*zip("abcdefghij", [0, 8, 7, 9, 6, 5, 4, 3, 2, 1], strict=True))


def test_ten_k60() -> None:
    assert ids(rrf_fuse(TEN, 4, k=60)) == ["b", "d", "c", "e"]
    assert ids(rrf_fuse(TEN, 4)) == ["b", "d", "c", "e"]


def test_ten_k1() -> None:
    assert ids(rrf_fuse(TEN, 4, k=1)) == ["d", "b", "a", "c"]
    assert ids(rrf_fuse(TEN, 4, k=1.0)) == ["d", "b", "a", "c"]


def test_all_equal_scores_keep_pool_order() -> None:
    res = rrf_fuse(pool(("x", 3), ("y", 3), ("z", 3)))
    assert ids(res) == ["x", "y", "z"]
    assert [(h.recency_rank, h.relevance_rank) for h in res] == [(1, 1), (2, 2), (3, 3)]


def test_all_zero_limit_two() -> None:
    assert ids(rrf_fuse(pool(("n0", 0), ("n1", 0), ("n2", 0)), 2)) == ["n0", "n1"]


def test_missing_and_nan_read_zero() -> None:
    res = rrf_fuse([{"id": "a"}, {"id": "b", "score": NAN}, {"id": "c", "score": 2}])
    assert ids(res) == ["a", "c", "b"]
    rel = {h.item["id"]: h.relevance for h in res}  # type: ignore[index]
    assert rel == {"a": 0.0, "b": 0.0, "c": 2.0}
    ranks = {h.item["id"]: h.relevance_rank for h in res}  # type: ignore[index]
    assert ranks == {"c": 1, "a": 2, "b": 3}


def test_single_item_exact_fields() -> None:
    element = {"score": 3}
    res = rrf_fuse([element])
    assert len(res) == 1
    hit = res[0]
    assert hit.item is element
    assert hit.score == 2 / 61
    assert hit.score == 1 / 61 + 1 / 61
    assert hit.score != 2 / 60  # one-based ranks: never 1/60
    assert (hit.recency_rank, hit.relevance_rank) == (1, 1)
    assert hit.relevance == 3.0
    assert type(hit.relevance) is float
    assert isinstance(hit, FusedItem)


@pytest.mark.parametrize(
    "call",
    [
        lambda: rrf_fuse([], 5),
        lambda: rrf_fuse(None),
        lambda: rrf_fuse([{"score": 1}], 0),
    ],
)
def test_empty_results(call: Any) -> None:
    assert call() == []


def test_limit_beyond_pool() -> None:
    hits = pool(("a", 1), ("b", 2))  # exact tie (ranks swapped): pool order
    assert ids(rrf_fuse(hits, 99)) == ["a", "b"]
    assert ids(rrf_fuse(hits, 2)) == ["a", "b"]
    assert ids(rrf_fuse(hits, 1)) == ["a"]


# ---------------------------------------------------------------- rrf_fuse details


@pytest.mark.parametrize(
    "bad", [None, 5, 2.5, "abc", b"ab", bytearray(b"ab"), {"score": 1}, {}, object()]
)
def test_rejected_pools(bad: Any) -> None:
    assert rrf_fuse(bad) == []


def test_pool_generator_read_once_and_sets() -> None:
    calls = []

    def gen() -> Iterator[dict[str, Any]]:
        calls.append(1)
        yield from pool(("a", 0), ("b", 9), ("c", 8), ("d", 7))

    assert ids(rrf_fuse(gen())) == ["b", "a", "c", "d"]
    assert calls == [1]
    assert len(rrf_fuse({1, 2, 3})) == 3
    assert [h.item for h in rrf_fuse((None, None))] == [None, None]


def test_pool_iteration_error_gives_empty() -> None:
    def broken() -> Iterator[dict[str, Any]]:
        yield {"score": 1}
        raise RuntimeError("feed died")

    assert rrf_fuse(broken()) == []


def test_same_object_twice_is_two_entries() -> None:
    element = {"id": "s", "score": 1}
    res = rrf_fuse([element, element])
    assert [h.item is element for h in res] == [True, True]
    assert [h.recency_rank for h in res] == [1, 2]


def test_pure_no_mutation() -> None:
    hits = pool(("a", 0), ("b", 9))
    snapshot = [dict(h) for h in hits]
    first = rrf_fuse(hits)
    assert hits == snapshot
    assert rrf_fuse(hits) == first
    assert first is not rrf_fuse(hits)


class Obj:
    def __init__(self, name: str, score: Any = None, rank: Any = None) -> None:
        self.name = name
        if score is not None:
            self.score = score
        if rank is not None:
            self.rank = rank


def test_attribute_scores_and_key_name() -> None:
    objs = [Obj("a", 0, 1), Obj("b", 9, 0), Obj("c", 8, 5), Obj("d")]
    assert [h.item.name for h in rrf_fuse(objs)] == [  # type: ignore[attr-defined]
        "b",
        "a",
        "c",
        "d",
    ]
    assert [h.item.name for h in rrf_fuse(objs, key="rank")] == [  # type: ignore[attr-defined]
        "a",
        "c",
        "b",
        "d",
    ]
    maps = pool(("a", 0), ("b", 9), ("c", 8), ("d", 7))
    for m, hits in zip(maps, [1, 0, 5, 0], strict=True):
        m["hits"] = hits
    assert ids(rrf_fuse(maps, key="hits")) == ["a", "c", "b", "d"]
    assert ids(rrf_fuse(maps)) == ["b", "a", "c", "d"]


def test_key_callable_and_bad_key_types() -> None:
    maps = pool(("a", 0), ("b", 9), ("c", 8), ("d", 7))
    assert ids(rrf_fuse(maps, key=lambda e: -e["score"])) == ["a", "b", "d", "c"]
    assert ids(rrf_fuse(maps, key=None)) == ["b", "a", "c", "d"]
    for bad in (5, 2.5, b"n", ["n"], True):
        with pytest.raises(TypeError, match="key"):
            rrf_fuse(maps, key=bad)


def test_key_callable_read_once_per_element() -> None:
    seen: list[str] = []

    def key(e: dict[str, Any]) -> int:
        seen.append(e["id"])
        return int(e["score"])

    rrf_fuse(pool(("a", 1), ("b", 2), ("c", 3)), key=key)
    assert seen == ["a", "b", "c"]


class Boom(Mapping[str, Any]):
    def __getitem__(self, k: str) -> Any:
        raise RuntimeError("boom")

    def __iter__(self) -> Iterator[str]:
        return iter(["score"])

    def __len__(self) -> int:
        return 1


class BadProp:
    @property
    def score(self) -> float:
        raise ValueError("nope")


def test_reading_that_raises_scores_zero() -> None:
    def bad_key(e: Any) -> float:
        raise KeyError("x")

    good = {"id": "g", "score": 1}
    boom, prop = Boom(), BadProp()
    res = rrf_fuse([boom, prop, good])
    assert [(h.item, h.relevance, h.relevance_rank) for h in res] == [
        (boom, 0.0, 2),
        (good, 1.0, 1),
        (prop, 0.0, 3),
    ]
    assert [h.relevance for h in rrf_fuse([good, good], key=bad_key)] == [0.0, 0.0]


class MyReal(float):
    pass


@pytest.mark.parametrize(
    "value, expected",
    [
        (3, 3.0),
        (2.5, 2.5),
        (-4, -4.0),
        (Fraction(1, 4), 0.25),
        (Decimal("1.5"), 1.5),
        (MyReal(7.0), 7.0),
        (True, 0.0),
        (False, 0.0),
        ("5", 0.0),
        (None, 0.0),
        ([1], 0.0),
        (1j, 0.0),
        (NAN, 0.0),
        (INF, 0.0),
        (-INF, 0.0),
        (10**400, 0.0),
        (-(10**400), 0.0),
        (Decimal("1e400"), 0.0),
        (Decimal("NaN"), 0.0),
        (Decimal("sNaN"), 0.0),
        (Decimal("-Infinity"), 0.0),
        (Fraction(10**400, 3), 0.0),
    ],
)
def test_score_reading(value: Any, expected: float) -> None:
    (hit,) = rrf_fuse([{"score": value}])
    assert hit.relevance == expected
    assert type(hit.relevance) is float
    (hit,) = rrf_fuse([Obj("o", value)]) if value is not None else rrf_fuse([Obj("o")])
    assert hit.relevance == expected


def test_negative_scores_rank_below_zero() -> None:
    res = rrf_fuse(pool(("neg", -1), ("zero", 0), ("pos", 0.5)))
    ranks = {h.item["id"]: h.relevance_rank for h in res}  # type: ignore[index]
    assert ranks == {"pos": 1, "zero": 2, "neg": 3}


def test_relevance_rank_ordinal_ties() -> None:
    res = rrf_fuse(pool(("a", 1), ("b", 5), ("c", 1), ("d", 5)))
    ranks = {h.item["id"]: h.relevance_rank for h in res}  # type: ignore[index]
    assert ranks == {"b": 1, "d": 2, "a": 3, "c": 4}
    rec = {h.item["id"]: h.recency_rank for h in res}  # type: ignore[index]
    assert rec == {"a": 1, "b": 2, "c": 3, "d": 4}


def test_fused_score_formula_and_tie_keeps_pool_order() -> None:
    # a: rec1 rel2; b: rec2 rel1 -> exactly equal fused scores; newer (a) first.
    res = rrf_fuse(pool(("a", 0), ("b", 1)))
    assert ids(res) == ["a", "b"]
    assert res[0].score == res[1].score == 1 / 61 + 1 / 62
    res = rrf_fuse(pool(("a", 0), ("b", 1)), k=0)
    assert [h.score for h in res] == [1.5, 1.5]


def test_limit_none_means_all() -> None:
    assert len(rrf_fuse(pool(("a", 0), ("b", 1), ("c", 2)), None)) == 3
    assert len(fuse_rankings([["a", "b", "c"]], limit=None)) == 3


@pytest.mark.parametrize("limit", [True, False, 2.0, "1", [1], 1.5])
def test_limit_of_a_wrong_type_raises_naming_it(limit: Any) -> None:
    with pytest.raises(TypeError, match="limit"):
        rrf_fuse(pool(("a", 0)), limit)
    with pytest.raises(TypeError, match="limit"):
        fuse_rankings([["a"]], limit=limit)


def test_negative_limit_raises_naming_it() -> None:
    with pytest.raises(ValueError, match="limit must be >= 0, got -1"):
        rrf_fuse(pool(("a", 0)), -1)
    with pytest.raises(ValueError, match="limit"):
        fuse_rankings([["a"]], limit=-1)


@pytest.mark.parametrize("limit, n", [(0, 0), (1, 1), (2, 2), (3, 3), (4, 3)])
def test_limit_ints(limit: int, n: int) -> None:
    assert len(rrf_fuse(pool(("a", 0), ("b", 1), ("c", 2)), limit)) == n
    assert len(fuse_rankings([["a", "b", "c"]], limit=limit)) == n


@pytest.mark.parametrize("k", [True, False, "60", None, [1], Decimal(1)])
def test_k_of_a_wrong_type_raises_naming_it(k: Any) -> None:
    with pytest.raises(TypeError, match=r"^k must be an int or float"):
        rrf_fuse(pool(("a", 0)), k=k)
    with pytest.raises(TypeError, match=r"^k must"):
        fuse_rankings([["a"]], k=k)


@pytest.mark.parametrize("k", [-1, -0.5, NAN, INF, -INF, 10**400])
def test_k_out_of_range_raises_naming_it(k: Any) -> None:
    with pytest.raises(ValueError, match=r"^k must"):
        rrf_fuse(pool(("a", 0)), k=k)
    with pytest.raises(ValueError, match=r"^k must"):
        fuse_rankings([["a"]], k=k)


def test_k_values() -> None:
    (hit,) = rrf_fuse([{"score": 1}], k=0)
    assert hit.score == 2.0
    (hit,) = rrf_fuse([{"score": 1}], k=0.5)
    assert hit.score == 1 / 1.5 + 1 / 1.5
    (hit,) = rrf_fuse([{"score": 1}], k=1)
    assert hit.score == 1.0
    assert fuse_rankings([["a"]], k=0)[0].score == 1.0
    assert fuse_rankings([["a", "b"]], k=2.5)[1].score == 1 / 4.5
    assert fuse_rankings([["a"]], k=1e308)[0].score == 1 / 1e308


# ---------------------------------------------------------------- fuse_rankings acceptance


def test_fr_basic() -> None:
    assert triples(fuse_rankings([["a", "b", "c"], ["c", "d"]])) == [
        ("c", math.fsum([1 / 63, 1 / 61]), (3, 1)),
        ("a", 1 / 61, (1, None)),
        ("b", 1 / 62, (2, None)),
        ("d", 1 / 62, (None, 2)),
    ]


def test_fr_weighted() -> None:
    assert triples(fuse_rankings([["a", "b", "c"], ["c", "d"]], weights=[2, 1])) == [
        ("c", math.fsum([2 / 63, 1 / 61]), (3, 1)),
        ("a", 2 / 61, (1, None)),
        ("b", 2 / 62, (2, None)),
        ("d", 1 / 62, (None, 2)),
    ]


def test_fr_repeats_dropped_before_ranking() -> None:
    assert triples(fuse_rankings([["a", "b", "a", "c"], ["c"]])) == [
        ("c", math.fsum([1 / 63, 1 / 61]), (3, 1)),
        ("a", 1 / 61, (1, None)),
        ("b", 1 / 62, (2, None)),
    ]


def test_fr_k0_weights_first_appearance() -> None:
    assert triples(fuse_rankings([["x", "y"], ["y", "x"], ["z"]], k=0, weights=[1, 1, 2])) == [
        ("z", 2.0, (None, None, 1)),
        ("x", 1.5, (1, 2, None)),
        ("y", 1.5, (2, 1, None)),
    ]


def test_fr_fsum_makes_exact_ties() -> None:
    res = fuse_rankings([["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]], k=2)
    want = math.fsum([1 / 3, 1 / 4, 1 / 5])
    assert [f.id for f in res] == ["a", "b", "c"]
    assert [f.score for f in res] == [want, want, want]
    # left-to-right addition would have split this tie
    assert len({1 / 3 + 1 / 4 + 1 / 5, 1 / 4 + 1 / 5 + 1 / 3, 1 / 5 + 1 / 3 + 1 / 4}) > 1


def test_fr_zero_weight_keeps_candidate() -> None:
    assert triples(fuse_rankings([["x"], ["y"]], weights=[0, 1])) == [
        ("y", 1 / 61, (None, 1)),
        ("x", 0.0, (1, None)),
    ]


def test_fr_bad_ranking_keeps_position() -> None:
    assert triples(fuse_rankings([["a"], None, ["a"]])) == [("a", 2 / 61, (1, None, 1))]
    assert triples(fuse_rankings([["a"], "zz", {"a": 1}, 7, ["a"]])) == [
        ("a", 2 / 61, (1, None, None, None, 1))
    ]
    assert triples(fuse_rankings([["a"], None, ["b"]], weights=[1, 5, 2])) == [
        ("b", 2 / 61, (None, None, 1)),
        ("a", 1 / 61, (1, None, None)),
    ]


def test_fr_wrong_length_weights_raise() -> None:
    for weights in ([1, 1], []):
        with pytest.raises(ValueError, match=f"weights has {len(weights)} entries for 1 rankings"):
            fuse_rankings([["a", "b"]], weights=weights)
    assert triples(fuse_rankings([["a", "b"]])) == [("a", 1 / 61, (1,)), ("b", 1 / 62, (2,))]


def test_fr_disjoint_rankings_in_blocks() -> None:
    # No id shared: every candidate keeps the one term it has; ties by first appearance.
    res = fuse_rankings([["a", "b"], None, ["c"], ["d", "e", "f"]], weights=[1, 9, 3, 1])
    assert triples(res) == [
        ("c", 3 / 61, (None, None, 1, None)),
        ("a", 1 / 61, (1, None, None, None)),
        ("d", 1 / 61, (None, None, None, 1)),
        ("b", 1 / 62, (2, None, None, None)),
        ("e", 1 / 62, (None, None, None, 2)),
        ("f", 1 / 63, (None, None, None, 3)),
    ]


def test_fr_repeat_across_or_within_rankings() -> None:
    # A shared id, found only in the last ranking, sums both terms.
    assert triples(fuse_rankings([["a"], ["b"], ["c", "a"]])) == [
        ("a", 1 / 61 + 1 / 62, (1, None, 2)),
        ("b", 1 / 61, (None, 1, None)),
        ("c", 1 / 61, (None, None, 1)),
    ]
    # A repeat inside the second ranking only: dropped before ranks are given.
    assert triples(fuse_rankings([["a"], ["b", "b", "c"]])) == [
        ("a", 1 / 61, (1, None)),
        ("b", 1 / 61, (None, 1)),
        ("c", 1 / 62, (None, 2)),
    ]
    # The repeat of 1 as True and 1.0 is one id (dict-key equality), first object kept.
    assert triples(fuse_rankings([[1], [True, 1.0, 2]])) == [
        (1, 2 / 61, (1, 1)),
        (2, 1 / 62, (None, 2)),
    ]


@pytest.mark.parametrize("limit", [0, 1, 2, 3, 4, 5])
def test_fr_limit_is_a_prefix_of_the_whole(limit: int) -> None:
    rankings = [["a", "b", "c", "d"], ["d", "c"], ["e"]]
    whole = fuse_rankings(rankings)
    assert [f.id for f in whole] == ["d", "c", "a", "e", "b"]
    assert fuse_rankings(rankings, limit=limit) == whole[: max(limit, 0)]
    disjoint = [["a", "b"], ["c", "d"]]
    assert fuse_rankings(disjoint, limit=limit) == fuse_rankings(disjoint)[: max(limit, 0)]


def test_fr_negative_zero_weight_scores_like_fsum() -> None:
    # fsum of zeros is +0.0, so a -0.0 weight never leaves a negative zero behind,
    # whether the id sits in one ranking (no sum needed) or in several.
    for rankings in ([["a"], ["b"]], [["a"], ["a", "b"]]):
        for weights in ([0.0, -0.0], [-0.0, 0.0], [-0.0, -0.0]):
            res = fuse_rankings(rankings, weights=weights)
            assert [math.copysign(1.0, f.score) for f in res] == [1.0] * len(res)


def test_fr_results_are_fused_ids() -> None:
    for res in (fuse_rankings([["a", "b"], ["b"]]), fuse_rankings([["a", "b"], ["b"]], limit=1)):
        assert all(type(f) is FusedId for f in res)


@pytest.mark.parametrize("bad", ["ab", b"ab", bytearray(b"ab"), None, 5, {"a": 1}, [], object()])
def test_fr_rejected_containers(bad: Any) -> None:
    assert fuse_rankings(bad) == []


@pytest.mark.parametrize(
    "weights, error",
    [
        ([True, 1], TypeError),
        ([1, -1], ValueError),
        ([1, NAN], ValueError),
        ([1, INF], ValueError),
        ([1, "1"], TypeError),
        ("ab", TypeError),
        ({0: 1, 1: 1}, TypeError),
        ((w for w in [3, 1]), TypeError),
        ([1, Decimal(1)], TypeError),
        ([1, None], TypeError),
        (5, TypeError),
        ([10**400, 1], ValueError),
        ([1, -0.0001], ValueError),
        ([1, [1]], TypeError),
        ({3, 1}, TypeError),
    ],
)
def test_fr_bad_weights_raise_naming_them(weights: Any, error: type[Exception]) -> None:
    with pytest.raises(error, match=r"^weights"):
        fuse_rankings([["a", "b"], ["b", "c"]], weights=weights)


def test_fr_good_weight_forms() -> None:
    rankings = [["a", "b"], ["b", "c"]]
    assert triples(fuse_rankings(rankings, weights=(3, 1))) == [
        ("b", math.fsum([3 / 62, 1 / 61]), (2, 1)),
        ("a", 3 / 61, (1, None)),
        ("c", 1 / 62, (None, 2)),
    ]
    assert fuse_rankings(rankings, weights=[1.0, 1]) == fuse_rankings(rankings)
    assert fuse_rankings(rankings, weights=range(1, 3)) == fuse_rankings(rankings, weights=[1, 2])
    assert fuse_rankings(rankings, weights=[0, 0])[0].score == 0.0


def test_fr_ids_dict_key_equality_first_object() -> None:
    res = fuse_rankings([[1.0, "x"], [True, 1]])
    assert len(res) == 2
    first = res[0]
    assert first.id == 1 and type(first.id) is float
    assert first.ranks == (1, 1)
    # True repeated 1 inside ranking 1 -> dropped before ranks
    assert triples(fuse_rankings([[True, 1, "z"]])) == [(True, 1 / 61, (1,)), ("z", 1 / 62, (2,))]


class Unhashable:
    __hash__ = None  # type: ignore[assignment]


class BadHash:
    def __hash__(self) -> int:
        raise RuntimeError("no hash")


class BadEq:
    def __hash__(self) -> int:
        return 7

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no eq")


def test_fr_unhashable_skipped_without_rank() -> None:
    res = fuse_rankings([[["list"], "a", {"d": 1}, Unhashable(), BadHash(), "b"]])
    assert triples(res) == [("a", 1 / 61, (1,)), ("b", 1 / 62, (2,))]


def test_fr_bad_equality_skipped() -> None:
    first = BadEq()
    res = fuse_rankings([[first, "a", BadEq(), "b"], [BadEq(), "a"]])
    by = {f.id if isinstance(f.id, str) else "E": f for f in res}
    assert by["a"].ranks == (2, 1)
    assert by["b"].ranks == (3, None)
    assert by["E"].ranks == (1, None)


class FlakyEq:
    """Ids of one hash whose comparison cycles False, True, raise: a lookup and
    the insert that follows it can disagree about whether the id is there."""

    calls = 0

    def __hash__(self) -> int:
        return 7

    def __eq__(self, other: object) -> bool:
        FlakyEq.calls += 1
        if FlakyEq.calls % 3 == 0:
            raise RuntimeError("sometimes")
        return FlakyEq.calls % 3 == 2


def test_fr_flaky_equality_never_raises_and_ranks_stay_whole() -> None:
    FlakyEq.calls = 0
    rankings = [[FlakyEq() for _ in range(8)] + ["a"], [FlakyEq(), "a", FlakyEq(), FlakyEq()]]
    res = fuse_rankings(rankings)
    assert "a" in [f.id for f in res]
    assert len({id(f.id) for f in res}) == len(res)
    for column in range(2):
        ranks = sorted(r for f in res if (r := f.ranks[column]) is not None)
        assert ranks == list(range(1, len(ranks) + 1))  # no rank twice, none skipped
    for f in res:
        assert f.score == math.fsum(1 / (RRF_K + r) for r in f.ranks if r is not None)


def test_fr_limit_cut_inside_a_tie_keeps_first_appearance() -> None:
    # a, b, c and d all score exactly 1/61 + 1/62.
    rankings = [["a", "b"], ["b", "a"], ["c", "d"], ["d", "c"]]
    assert {f.score for f in fuse_rankings(rankings)} == {math.fsum([1 / 61, 1 / 62])}
    assert [f.id for f in fuse_rankings(rankings, limit=1)] == ["a"]
    assert [f.id for f in fuse_rankings(rankings, limit=3)] == ["a", "b", "c"]
    # A better score that appears last still comes first.
    rankings.append(["d"])
    assert [f.id for f in fuse_rankings(rankings, limit=2)] == ["d", "a"]


def test_fr_iteration_errors() -> None:
    def broken() -> Iterator[str]:
        yield "a"
        raise RuntimeError("feed died")

    assert triples(fuse_rankings([broken(), ["b"]])) == [("b", 1 / 61, (None, 1))]

    def outer() -> Iterator[list[str]]:
        yield ["a"]
        raise RuntimeError("feed died")

    assert fuse_rankings(outer()) == []


def test_fr_generators_read_once() -> None:
    rankings = (r for r in [iter(["a", "b"]), iter(["b"])])
    assert [f.id for f in fuse_rankings(rankings)] == ["b", "a"]


def test_fr_overflowing_sum_does_not_raise() -> None:
    res = fuse_rankings([["a", "b"], ["a"]], k=0, weights=[1e308, 1e308])
    assert res[0].id == "a" and res[0].score == INF
    assert res[1].score == 1e308 / 2


def test_fr_huge_int_k_is_used_as_float() -> None:
    big = 2**1023
    assert fuse_rankings([["a"]], k=big, weights=[1.5])[0].score == 1.5 / float(big)
    assert fuse_rankings([["a"]], k=big)[0].score == 1 / (big + 1)
    edge = int(sys.float_info.max) + 2**970 - 1  # converts to the largest float
    res = fuse_rankings([["a"]], k=edge, weights=[1.5])
    assert res[0].score == 1.5 / sys.float_info.max > 0.0
    assert rrf_fuse([{"score": 1}], k=edge)[0].score == 2 / sys.float_info.max


def test_fr_pure() -> None:
    rankings = [["a", "b"], ["b", "c"]]
    weights = [1, 2]
    fuse_rankings(rankings, weights=weights, k=3, limit=1)
    assert rankings == [["a", "b"], ["b", "c"]] and weights == [1, 2]


def test_rrf_fuse_agrees_with_fuse_rankings_bitwise() -> None:
    res = rrf_fuse(TEN, k=7)
    rel_order = sorted(range(10), key=lambda i: -TEN[i]["score"])
    fr = fuse_rankings([list(range(10)), rel_order], k=7)
    assert [h.item["id"] for h in res] == [TEN[f.id]["id"] for f in fr]  # type: ignore[index]
    assert [h.score for h in res] == [f.score for f in fr]


# ---------------------------------------------------------------- limits (WHAT THIS DOES NOT CATCH)


def test_limit_magnitudes_discarded() -> None:
    small = rrf_fuse(pool(("a", 0), ("b", 5), ("c", 1)))
    huge = rrf_fuse(pool(("a", 0), ("b", 1000), ("c", 1)))
    assert [(h.item["id"], h.score) for h in small] == [  # type: ignore[index]
        (h.item["id"], h.score) for h in huge
    ]  # type: ignore[index]


def test_limit_empty_relevance_signal_is_recency() -> None:
    for hits in (pool(*[(str(i), 0) for i in range(8)]), [{"id": str(i)} for i in range(8)]):
        assert ids(rrf_fuse(hits)) == [str(i) for i in range(8)]
    assert [f.id for f in fuse_rankings([["a", "b", "c"], []])] == ["a", "b", "c"]


def test_limit_truncated_pool_loses_old_hit() -> None:
    hits = pool(*[(f"new{i}", 0) for i in range(8)], ("old-answer", 7))
    assert "old-answer" in ids(rrf_fuse(hits, 5))
    assert "old-answer" not in ids(rrf_fuse(hits[:5], 5))


def test_limit_score_ties_get_ordinal_ranks() -> None:
    res = rrf_fuse(pool(("newer", 4), ("older", 4)))
    assert [(h.item["id"], h.relevance_rank) for h in res] == [  # type: ignore[index]
        ("newer", 1),
        ("older", 2),
    ]
    assert res[0].score > res[1].score


# ---------------------------------------------------------------- properties

hashables = st.one_of(
    st.integers(-5, 30),
    st.text(max_size=3),
    st.booleans(),
    st.floats(allow_nan=False, width=16),
    st.none(),
)
junk = st.one_of(
    hashables,
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)
rankings_st = st.lists(
    st.one_of(st.lists(junk, max_size=12), st.none(), st.text(max_size=3), st.integers()),
    max_size=5,
)
any_value = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=4),
    st.decimals(),
    st.fractions(),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)
scores_st = st.one_of(
    st.integers(-10, 10), st.floats(), st.none(), st.text(max_size=2), st.booleans(), st.decimals()
)


def _key(x: Any) -> Any:
    try:
        hash(x)
        return ("h", x)
    except TypeError:
        return ("u", id(x))


@given(rankings_st, st.integers(0, 100), st.one_of(st.none(), st.integers(0, 40)))
def test_prop_fuse_rankings_never_raises_on_data_and_is_consistent(
    rankings: Any, k: int, limit: int | None
) -> None:
    weights = None
    res = fuse_rankings(rankings, k=k, weights=weights, limit=limit)
    assert isinstance(res, list)
    again = fuse_rankings(rankings, k=k, weights=weights, limit=limit)
    assert [(f.id, f.score, f.ranks) for f in res] == [(f.id, f.score, f.ranks) for f in again]
    keys = [f.id for f in res]
    assert len(set(keys)) == len(keys)  # duplicate-free
    universe = {x for r in rankings if isinstance(r, list) for x in r if _key(x)[0] == "h"}
    assert set(keys) <= universe  # a subset of the pool
    scores = [f.score for f in res]
    assert scores == sorted(scores, reverse=True)


@given(rankings_st, st.integers(0, 40))
def test_prop_limit_is_a_prefix(rankings: Any, limit: int) -> None:
    assert fuse_rankings(rankings, limit=limit) == fuse_rankings(rankings)[: max(limit, 0)]


@given(
    st.lists(st.lists(st.integers(0, 15), max_size=10), min_size=1, max_size=4),
    st.one_of(st.integers(0, 100), st.floats(0, 100)),
    st.data(),
)
def test_prop_scores_are_fsum_of_terms(
    rankings: list[list[int]], k: float, data: st.DataObject
) -> None:
    weights = data.draw(
        st.one_of(
            st.none(),
            st.lists(
                st.one_of(st.integers(0, 5), st.floats(0, 5)),
                min_size=len(rankings),
                max_size=len(rankings),
            ),
        )
    )
    res = fuse_rankings(rankings, k=k, weights=weights)
    w = weights if weights is not None else [1] * len(rankings)
    expected: dict[int, list[float]] = {}
    first: list[int] = []
    for j, ranking in enumerate(rankings):
        ranked = list(dict.fromkeys(ranking))
        for r, x in enumerate(ranked, 1):
            if x not in expected:
                expected[x] = []
                first.append(x)
            expected[x].append(w[j] / (k + r))
    assert {f.id for f in res} == set(expected)
    for f in res:
        assert f.score == math.fsum(expected[f.id])
        ranks = [list(dict.fromkeys(r)).index(f.id) + 1 if f.id in r else None for r in rankings]
        assert list(f.ranks) == ranks
    # ties broken by first appearance
    for a, b in itertools.pairwise(res):
        if a.score == b.score:
            assert first.index(a.id) < first.index(b.id)


@given(
    st.lists(
        st.one_of(
            st.fixed_dictionaries({"score": scores_st}),
            st.none(),
            st.integers(),
            st.builds(Obj, st.text(max_size=2), scores_st),
        ),
        max_size=15,
    ),
    st.one_of(st.none(), st.integers(0, 20)),
    st.one_of(st.integers(0, 100), st.floats(0, 100)),
    st.one_of(st.none(), st.sampled_from(["score", "hits", ""]), st.just(lambda e: e)),
)
def test_prop_rrf_fuse_never_raises_on_data(
    hits: list[Any], limit: int | None, k: float, key: Any
) -> None:
    res = rrf_fuse(hits, limit, k=k, key=key)
    full = rrf_fuse(hits, k=k, key=key)
    assert sorted(h.recency_rank for h in full) == list(range(1, len(hits) + 1))
    assert sorted(h.relevance_rank for h in full) == list(range(1, len(hits) + 1))
    assert all(h.item is hits[h.recency_rank - 1] for h in full)
    assert all(math.isfinite(h.relevance) for h in full)
    assert res == full[: len(res)]
    assert [h.score for h in full] == sorted((h.score for h in full), reverse=True)


@given(
    st.lists(st.one_of(st.integers(-3, 3), st.floats(-3, 3)), max_size=20),
    st.one_of(st.integers(0, 70), st.floats(0, 70)),
)
def test_prop_rrf_matches_formula_and_fuse_rankings(scores: list[float], k: float) -> None:
    hits = [{"id": i, "score": s} for i, s in enumerate(scores)]
    res = rrf_fuse(hits, k=k)
    rel_order = sorted(range(len(scores)), key=lambda i: -float(scores[i]))
    fr = fuse_rankings([list(range(len(scores))), rel_order], k=k)
    assert [h.item["id"] for h in res] == [f.id for f in fr]  # type: ignore[index]
    for h, f in zip(res, fr, strict=True):
        assert h.score == f.score == 1 / (k + h.recency_rank) + 1 / (k + h.relevance_rank)
        assert f.ranks == (h.recency_rank, h.relevance_rank)


# ---------------------------------------------------------------- collector state, script entry


def test_collector_state_is_left_alone() -> None:
    import gc

    assert gc.isenabled()
    fuse_rankings([["a", "b"], ["b"]])
    assert gc.isenabled()
    gc.disable()
    try:
        assert fuse_rankings([["a"]])[0].id == "a"
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_recency_term_adds_the_one_based_rank_to_k_in_one_step() -> None:
    """(k + rank), never (k + index) + 1: the two round differently for k = 1/3."""
    k = 1 / 3
    second = rrf_fuse([{"score": 0}, {"score": 0}], k=k)[1]
    assert second.score == 1 / (k + 2) + 1 / (k + 2)
    assert (1 / 3 + 1) + 1 != 1 / 3 + 2  # the trap this test pins
