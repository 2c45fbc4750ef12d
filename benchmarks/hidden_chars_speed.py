"""Throughput of `hidden_chars.scan` on benign text: the stdlib's own sources.

Run from the project root with nothing installed:

    python benchmarks/hidden_chars_speed.py [--reps N] [--max-mb M]

The corpus is every `.py` file under `sysconfig.get_paths()["stdlib"]` that
reads as UTF-8, cut into 2,000-character chunks (the size of a typical tool
result paragraph or memory candidate). Most chunks are ASCII and take the
fast path; the non-ASCII ones (docstrings with accents, test data with CJK,
emoji and the odd deliberate bidi control) take the table pass. Both subsets
are timed separately as well as together.

Each repetition times, in an order rotated every repetition (interleaved, so
drift in machine load hits every measurement alike): `scan` over all chunks,
`scan` over the non-ASCII chunks only, `scan(strict=True)` over all chunks,
and `strip` over all chunks. Printed figures are MEDIANS over repetitions, in
MB/s of UTF-8 input. The target is `scan` >= 50 MB/s over all chunks; the exit
code is 0 when it is met and 3 when it is not.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from _stdlib_corpus import stdlib_chunks  # noqa: E402

from agentops import hidden_chars  # noqa: E402

CHUNK = 2000
TARGET_MB_S = 50.0


def corpus(max_mb: float) -> list[str]:
    return stdlib_chunks(int(max_mb * 1_000_000), CHUNK)


def size_mb(chunks: list[str]) -> float:
    return sum(len(c.encode("utf-8", "surrogatepass")) for c in chunks) / 1_000_000


def timed(job: Callable[[], object]) -> float:
    start = time.perf_counter()
    job()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=9, help="repetitions (default 9)")
    parser.add_argument(
        "--max-mb", type=float, default=40.0, help="cap on corpus size in MB (default 40)"
    )
    args = parser.parse_args()

    chunks = corpus(args.max_mb)
    if not chunks:
        print("no stdlib sources found; nothing measured")
        return 4
    wide = [c for c in chunks if not c.isascii()]
    mb_all, mb_wide = size_mb(chunks), size_mb(wide)
    scan, strip = hidden_chars.scan, hidden_chars.strip
    with_findings = sum(1 for c in chunks if scan(c).findings)

    jobs: dict[str, tuple[float, Callable[[], object]]] = {
        "scan, all chunks": (mb_all, lambda: [scan(c) for c in chunks]),
        "scan, non-ASCII chunks": (mb_wide, lambda: [scan(c) for c in wide]),
        "scan strict, all chunks": (mb_all, lambda: [scan(c, strict=True) for c in chunks]),
        "strip, all chunks": (mb_all, lambda: [strip(c) for c in chunks]),
    }
    names = list(jobs)
    rates: dict[str, list[float]] = {n: [] for n in names}
    for rep in range(max(1, args.reps)):
        order = names[rep % len(names) :] + names[: rep % len(names)]
        for name in order:
            mb, job = jobs[name]
            rates[name].append(mb / max(timed(job), 1e-9))

    print(
        f"corpus: {len(chunks)} chunks of <= {CHUNK} characters, {mb_all:.1f} MB "
        f"({len(wide)} non-ASCII chunks, {mb_wide:.2f} MB; "
        f"{with_findings} chunks with findings)"
    )
    print(f"python {sys.version.split()[0]}, {max(1, args.reps)} interleaved repetitions, medians:")
    for name in names:
        print(f"  {name:<26} {statistics.median(rates[name]):10.1f} MB/s")
    headline = statistics.median(rates["scan, all chunks"])
    verdict = "meets" if headline >= TARGET_MB_S else "MISSES"
    print(f"scan {verdict} the {TARGET_MB_S:.0f} MB/s target ({headline:.1f} MB/s)")
    return 0 if headline >= TARGET_MB_S else 3


if __name__ == "__main__":
    sys.exit(main())
