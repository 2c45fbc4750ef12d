"""Benchmark: `fuse_rankings` over 10 ranked lists of 100,000 ids each, beside
the implementation it replaced.

`fuse_rankings` is one plain path that leaves the garbage collector alone. The
version it replaced switched the collector off for the call and had
disjoint/overlapping fast paths; a copy of it lives below as `_peer_*`, only
as the yardstick (the package never uses it). Both run on the same inputs, their
outputs are checked equal first, then each case runs for both, repetition by
repetition, so machine noise hits both alike. Times are CPU seconds of this
process (`time.process_time`), so other work on a shared machine stretches
them less than wall time; they are still noisy under load. Each call starts
right after a full collection, untimed, so no call inherits the collector
state another one left behind.

- hybrid: 10 retrievers ranking overlapping ids drawn from a shared universe
  of 150,000 documents (the realistic hybrid-search case), everything returned,
- weighted: the same with weights and `limit=50`,
- disjoint: 10 lists with no id in common (1,000,000 candidates returned: the
  worst case),
- a floor: building 1,000,000 `FusedId` from ready parts, the least any
  implementation that leaves the collector on pays for the disjoint result,
- `rrf_fuse` over a 100,000-element pool, for scale.

Run from the project root with nothing installed:
`python benchmarks/fuse_speed.py [--reps N]`.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import math
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Hashable, Mapping, Sequence
from operator import attrgetter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agentops.rrf_fuse import FusedId, fuse_rankings, rrf_fuse

LISTS = 10
LIST_LEN = 100_000
UNIVERSE = 150_000


# ------------------------------------------------------------------------------
# Reference peer: the previous fuse_rankings (collector off, two fast paths).
# Kept only to measure against; options are assumed valid here.
# ------------------------------------------------------------------------------

_PeerFused = tuple[list[object], list[float], list[tuple[int | None, ...]]]


class _PeerTerms:
    """Rank numbers and `weight / (k + rank)` tables shared by every column."""

    def __init__(self, longest: int, k: float) -> None:
        self.numbers = list(range(1, longest + 1))
        self._denominators = [k + rank for rank in self.numbers]
        self._tables: dict[float, list[float]] = {}

    def table(self, weight: float) -> list[float]:
        if weight not in self._tables:
            self._tables[weight] = list(map(weight.__truediv__, self._denominators))
        return self._tables[weight]


def _peer_snapshot(value: object) -> list[object] | None:
    if isinstance(value, (str, bytes, bytearray, Mapping)):
        return None
    try:
        return list(value)  # type: ignore[call-overload]
    except Exception:
        return None


def _peer_guarded_unique(ranking: list[object], known: Mapping[object, object]) -> list[object]:
    seen: dict[object, None] = {}
    for element in ranking:
        try:
            if element in seen:
                continue
            known.get(element)
            seen[element] = None
        except Exception:
            continue
    return list(seen)


def _peer_cleaned(lists: list[list[object] | None]) -> list[list[object] | None]:
    known: dict[object, None] = {}
    cleaned: list[list[object] | None] = []
    for ranking in lists:
        unique = _peer_guarded_unique(ranking or [], known)
        known.update(dict.fromkeys(unique))
        cleaned.append(unique)
    return cleaned


def _peer_no_repeats(lists: list[list[object]]) -> bool:
    seen: set[object] = set()
    for ranking in lists:
        if not seen.isdisjoint(ranking):
            return False
        expected = len(seen) + len(ranking)
        seen.update(ranking)
        if len(seen) != expected:
            return False
    return True


def _peer_fuse_disjoint(
    lists: list[list[object]], terms: _PeerTerms, weight_of: list[float]
) -> _PeerFused:
    keys = list(itertools.chain.from_iterable(lists))
    total = len(keys)
    rank_columns: list[list[int | None]] = []
    scores: list[float] = []
    for ranking, weight in zip(lists, weight_of, strict=True):
        size, start = len(ranking), len(scores)
        rank_columns.append([None] * start + terms.numbers[:size] + [None] * (total - start - size))
        scores += terms.table(weight)[:size]
    return keys, scores, list(zip(*rank_columns, strict=True))


def _peer_columns(
    size: int, positions: list[int], numbers: list[int], table: list[float]
) -> tuple[list[int | None], list[float]]:
    ranks: list[int | None] = [None] * size
    terms = [0.0] * size
    taken = 0
    for position in positions:
        if ranks[position] is None:
            ranks[position] = numbers[taken]
            terms[position] = table[taken]
            taken += 1
    return ranks, terms


def _peer_fuse_overlapping(
    lists: list[list[object]], terms: _PeerTerms, weight_of: list[float]
) -> _PeerFused:
    index: defaultdict[object, int] = defaultdict(itertools.count().__next__)
    placed = [[index[element] for element in ranking] for ranking in lists]
    total = len(index)
    rank_columns: list[list[int | None]] = []
    term_columns: list[list[float]] = []
    for positions, weight in zip(placed, weight_of, strict=True):
        ranks, terms_here = _peer_columns(total, positions, terms.numbers, terms.table(weight))
        rank_columns.append(ranks)
        term_columns.append(terms_here)
    try:
        scores = list(map(math.fsum, zip(*term_columns, strict=True)))
    except OverflowError:
        scores = [math.inf] * total  # not reached by this benchmark's weights
    return list(index), scores, list(zip(*rank_columns, strict=True))


def _peer_fuse(lists: list[list[object] | None], k: float, weight_of: list[float]) -> _PeerFused:
    present = [ranking or [] for ranking in lists]
    terms = _PeerTerms(max(map(len, present)), k)
    if _peer_no_repeats(present):
        return _peer_fuse_disjoint(present, terms, weight_of)
    return _peer_fuse_overlapping(present, terms, weight_of)


def _peer_ranked(fused: _PeerFused, limit: int | None) -> list[FusedId]:
    keys, scores, rank_rows = fused
    if limit is not None and limit < len(keys):
        best = sorted(range(len(keys)), key=scores.__getitem__, reverse=True)[:limit]
        return [FusedId(keys[i], scores[i], rank_rows[i]) for i in best]
    results = list(map(FusedId._make, zip(keys, scores, rank_rows, strict=True)))
    results.sort(key=attrgetter("score"), reverse=True)
    return results


def peer_fuse_rankings(
    rankings: list[list[Hashable]],
    *,
    k: float = 60,
    weights: Sequence[float] | None = None,
    limit: int | None = None,
) -> list[FusedId]:
    """The replaced implementation, as it was (collector switched off)."""
    outer = _peer_snapshot(rankings)
    if not outer:
        return []
    lists = [_peer_snapshot(ranking) for ranking in outer]
    weight_of = [1.0] * len(lists) if weights is None else [float(w) for w in weights]
    collecting = gc.isenabled()
    gc.disable()
    try:
        try:
            fused = _peer_fuse(lists, float(k), weight_of)
        except Exception:
            fused = _peer_fuse(_peer_cleaned(lists), float(k), weight_of)
        return _peer_ranked(fused, limit)
    finally:
        if collecting:
            gc.enable()


# ------------------------------------------------------------------------------
# The measurement
# ------------------------------------------------------------------------------


def _hybrid(rng: random.Random) -> list[list[str]]:
    docs = [f"doc-{i}" for i in range(UNIVERSE)]
    return [rng.sample(docs, LIST_LEN) for _ in range(LISTS)]


def _disjoint() -> list[list[str]]:
    return [[f"r{j}-{i}" for i in range(LIST_LEN)] for j in range(LISTS)]


def _pool(rng: random.Random) -> list[dict[str, object]]:
    return [{"id": i, "score": rng.randint(0, 20)} for i in range(LIST_LEN)]


def _cpu_seconds(call: Callable[[], object]) -> float:
    """CPU seconds of this process for one call; the result is freed outside the timing.

    Every call starts from the same collector state: how often the collector runs
    during a call depends on how much survived the last full collection, so
    without the `gc.collect()` a call after one that left a million objects
    behind would look faster than it is."""
    gc.collect()
    start = time.process_time()
    result = call()
    spent = time.process_time() - start
    del result
    return spent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5, help="interleaved repetitions (5)")
    reps = max(1, parser.parse_args().reps)
    rng = random.Random(20090719)
    hybrid, disjoint, pool = _hybrid(rng), _disjoint(), _pool(rng)
    weights = [1.0 + j / 10 for j in range(LISTS)]
    workloads: dict[str, dict[str, object]] = {
        "hybrid   (10 x 100k, 150k ids, all)  ": {"rankings": hybrid},
        "weighted (10 x 100k, 150k ids, 50)   ": {
            "rankings": hybrid,
            "weights": weights,
            "limit": 50,
        },
        "disjoint (10 x 100k, 1M ids, all)    ": {"rankings": disjoint},
    }
    for name, arguments in workloads.items():
        if fuse_rankings(**arguments) != peer_fuse_rankings(**arguments):  # type: ignore[arg-type]
            print(f"{name.strip()}: outputs differ from the peer")
            return 3
    ready = (
        tuple(itertools.chain.from_iterable(disjoint)),
        tuple(1.0 / (61 + i % LIST_LEN) for i in range(LISTS * LIST_LEN)),
        tuple((i % LIST_LEN + 1,) + (None,) * (LISTS - 1) for i in range(LISTS * LIST_LEN)),
    )
    calls: dict[str, Callable[[], object]] = {}
    peer_of: dict[str, str] = {}
    for name, arguments in workloads.items():
        calls[f"fuse_rankings {name}"] = lambda a=arguments: fuse_rankings(**a)
        calls[f"  peer (old)  {name}"] = lambda a=arguments: peer_fuse_rankings(**a)
        peer_of[f"fuse_rankings {name}"] = f"  peer (old)  {name}"
    calls["floor: 1M FusedId from ready parts         "] = lambda: list(map(FusedId, *ready))
    calls["rrf_fuse pool of 100k, limit 50            "] = lambda: rrf_fuse(pool, 50)
    times: dict[str, list[float]] = {name: [] for name in calls}
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    for _ in range(reps):
        for name, call in calls.items():
            times[name].append(_cpu_seconds(call))
    load_after = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"{os.cpu_count()} CPUs, 1-min load average {load_before:.1f} before, "
        f"{load_after:.1f} after; outputs identical to the peer; "
        f"medians of {reps} interleaved reps, CPU seconds"
    )
    for name, samples in times.items():
        median = statistics.median(samples)
        line = f"{name}  median {median:.3f} s (min {min(samples):.3f})"
        if name in peer_of:
            line += f"  = {median / statistics.median(times[peer_of[name]]):.2f} x the peer"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
