"""Benchmark: `fuse_rankings` over 10 ranked lists of 100,000 ids each.

The figures are reported, not gated: `fuse_rankings` is one plain path and
its module docstring quotes what this prints on a 2-core machine. Two
workloads run interleaved, repetition by repetition, so machine noise hits
both alike:

- hybrid: 10 retrievers ranking overlapping ids drawn from a shared universe
  of 150,000 documents (the realistic hybrid-search case),
- disjoint: 10 lists with no id in common (1,000,000 candidates, worst case
  for the per-candidate work).

Plus `rrf_fuse` over a 100,000-element pool for scale. Each call is timed
until it returns; freeing its result afterwards is timed apart and printed
beside it (for a million results it is a few tenths of a second). Run from
the project root with nothing installed: `python benchmarks/fuse_speed.py
[--reps N]`.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agentops.rrf_fuse import fuse_rankings, rrf_fuse

LISTS = 10
LIST_LEN = 100_000
UNIVERSE = 150_000


def _hybrid(rng: random.Random) -> list[list[str]]:
    docs = [f"doc-{i}" for i in range(UNIVERSE)]
    return [rng.sample(docs, LIST_LEN) for _ in range(LISTS)]


def _disjoint() -> list[list[str]]:
    return [[f"r{j}-{i}" for i in range(LIST_LEN)] for j in range(LISTS)]


def _pool(rng: random.Random) -> list[dict[str, object]]:
    return [{"id": i, "score": rng.randint(0, 20)} for i in range(LIST_LEN)]


def _time(call: Callable[[], object]) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds of this process) for one call, then the wall
    seconds spent freeing its result: a caller holds the result while using it,
    so freeing it is timed apart (and reported) rather than charged to the call."""
    start, cpu = time.perf_counter(), time.process_time()
    result = call()
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    start = time.perf_counter()
    del result
    return wall, cpu, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=7, help="interleaved repetitions (7)")
    reps = max(1, parser.parse_args().reps)
    rng = random.Random(20090719)
    hybrid, disjoint, pool = _hybrid(rng), _disjoint(), _pool(rng)
    weights = [1.0 + j / 10 for j in range(LISTS)]
    cases: dict[str, Callable[[], object]] = {
        "fuse_rankings hybrid   (10 x 100k, 150k ids)": lambda: fuse_rankings(hybrid),
        "fuse_rankings weighted (10 x 100k, 150k ids)": lambda: fuse_rankings(
            hybrid, weights=weights, limit=50
        ),
        "fuse_rankings disjoint (10 x 100k, 1M ids)  ": lambda: fuse_rankings(disjoint),
        "rrf_fuse pool of 100k                       ": lambda: rrf_fuse(pool, 50),
    }
    times: dict[str, list[tuple[float, float, float]]] = {name: [] for name in cases}
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    for _ in range(reps):
        for name, call in cases.items():
            times[name].append(_time(call))
    load_after = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"{os.cpu_count()} CPUs, 1-min load average {load_before:.1f} before, "
        f"{load_after:.1f} after (wall time stretches when the load exceeds the CPUs)"
    )
    for name, samples in times.items():
        wall = statistics.median(s[0] for s in samples)
        cpu = statistics.median(s[1] for s in samples)
        freeing = statistics.median(s[2] for s in samples)
        print(
            f"{name}  median {wall:.3f} s wall, {cpu:.3f} s CPU "
            f"(min wall {min(s[0] for s in samples):.3f}, {reps} interleaved reps; "
            f"freeing the result {freeing:.3f} s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
