"""Benchmark: memory_integrity lint and repairs on a large, realistic memory directory.

Generates (in a temporary directory) N type-prefixed topic files (default 10,000, and
twice that) with harness-shaped frontmatter, wiki-links between them, a `MEMORY.md`
index, and planted problems (dead index links, silent merges, orphans, dangling
wiki-links, near-duplicate names, an index far over the load limit). Times, as medians
of interleaved repetitions:

- `lint_memory_integrity` and `suggest_memory_repairs` on pre-read inputs (the module
  call alone), at N and 2N files;
- the whole CLI path (`agentops memory lint DIR --json`, in-process: directory
  listing, reading, decoding, the module call, JSON output to a null stream);
- a literal all-pairs near-duplicate pass on the same N files, the yardstick the
  contract's "5x faster than all pairs" budget is measured against.

- hostile directories: 10,000 names alike but for a trailing number (time and peak RSS
  of a fresh process; targets 5 s and 300 MB) and a 1 GiB sparse topic file (the whole
  command; target 100 ms).

Run from the project root with nothing installed:  python benchmarks/memory_scale.py
Options: --files N (default 10000), --repeat R (default 5), --seed S.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agentops import memory_integrity as mi  # noqa: E402
from agentops.cli import main as cli_main  # noqa: E402

TYPES = ("feedback", "project", "reference", "user")
_WORD_TEXT = (
    "retry backoff deploy release launch plan api docs schema migration review tests lint "
    "style naming branch commit rebase merge hotfix rollback canary metrics alert oncall "
    "pager budget cost latency cache index search ranking embedding vector prompt eval "
    "dataset label annotate privacy secret token auth oauth session cookie login billing "
    "invoice refund customer support ticket triage roadmap sprint retro standup design "
    "mockup figma frontend backend database postgres redis queue worker cron backup "
    "restore disaster region cluster kubernetes docker image registry terraform network "
    "dns proxy firewall vpn laptop onboarding offboarding hiring interview feedback tone "
    "concise verbose tables bullets emoji commit-message changelog version python "
    "typescript rust golang java kotlin swift android ios mobile web desktop cli config "
    "env flag experiment rollout pricing legal license contract vendor partner"
)
WORDS = tuple(_WORD_TEXT.split())


def vocabulary(count: int, rng: random.Random) -> list[str]:
    """Common engineering words plus project codenames: a vocabulary that grows with the
    memory (about one word per four files), as real names do, instead of a fixed list
    whose collisions would grow quadratically."""
    words = list(WORDS)
    seen = set(words)
    consonants, vowels = "bdfgklmnprstvz", "aeiou"
    while len(words) < max(len(WORDS), count // 4):
        word = "".join(
            rng.choice(consonants) + rng.choice(vowels) for _ in range(rng.randint(2, 3))
        )
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


def _stem(rng: random.Random, used: set[str], vocab: list[str]) -> tuple[str, list[str]]:
    while True:
        kind = rng.choice(TYPES)
        words = rng.sample(vocab, rng.randint(2, 4))
        if rng.random() < 0.15:
            words.append(str(rng.randint(1, 60)))
        stem = f"{kind}_{'_'.join(w.replace('-', '_') for w in words)}"
        if stem not in used:
            used.add(stem)
            return stem, [kind, *words]


def generate(count: int, seed: int = 7) -> tuple[str, list[tuple[str, str | None]]]:
    """(index text, sorted (name, text) entries including MEMORY.md) for `count` files."""
    rng = random.Random(seed)
    vocab = vocabulary(count, rng)
    used: set[str] = set()
    stems: list[tuple[str, list[str]]] = [_stem(rng, used, vocab) for _ in range(count)]
    # near-duplicates: about 1% of files re-written under a shuffled name of the same type
    for i in range(0, count, 97):
        stem, parts = stems[i]
        kind, words = parts[0], parts[1:]
        if len(words) >= 2:
            shuffled = list(reversed(words))
            dup = f"{kind}_{'_'.join(w.replace('-', '_') for w in shuffled)}"
            if dup not in used and len(stems) < count + count // 50:
                used.add(dup)
                stems[(i + 1) % count] = (dup, [kind, *shuffled])
    files: list[tuple[str, str | None]] = []
    names = [f"{stem}.md" for stem, _ in stems]
    for n, (stem, parts) in enumerate(stems):
        kind, words = parts[0], parts[1:]
        title = " ".join(words).capitalize()
        links = [f"[[{stems[rng.randrange(count)][0]}]]" for _ in range(rng.randint(0, 3))]
        if n % 113 == 0:
            links.append(f"[[deleted_topic_{n}]]")  # dangling wiki-link
        body = (
            f"{title}. Decided on 2026-0{1 + n % 9}-1{n % 10}; applies to the "
            f"{words[0]} work. "
            + " ".join(links)
            + "\n\nWhy: "
            + " ".join(rng.choice(vocab) for _ in range(rng.randint(8, 30)))
            + ".\n"
        )
        text = (
            f"---\nname: {stem.replace('_', '-')}\ndescription: {title} rule for "
            f"{words[-1]}\ntype: {kind}\n---\n{body}"
        )
        files.append((names[n], text))
    lines = ["# Memory Index", ""]
    for n, (stem, parts) in enumerate(stems):
        if n % 20 == 19:
            continue  # orphan: no index line
        title = " ".join(parts[1:]).capitalize()
        dated = f" (2026-0{1 + n % 9}-2{n % 10})" if n % 3 == 0 else ""
        lines.append(f"- [{title}]({names[n]}) — {parts[1]} note{dated}")
        if n % 200 == 0:  # silent merge: an unrelated title on the same file
            lines.append(f"- [Quarterly vendor invoice {n}]({names[n]}) — merged")
        if n % 100 == 50:  # dead pointer
            lines.append(f"- [Removed {title}]({stem}_old.md) — gone")
    index = "\n".join(lines) + "\n"
    files.append(("MEMORY.md", index))
    files.sort()
    return index, files


def all_pairs_near_duplicates(files: list[tuple[str, str | None]]) -> int:
    """The literal all-pairs definition of near-duplicate-slug (the yardstick)."""
    reached = [(n, c) for n, c in files if c is not None and n.lower() != "memory.md"]
    items: list[tuple[str | None, frozenset[str]]] = []
    for name, content in reached:
        kind = mi.parse_frontmatter(content).memory_type
        stem = name[:-3] if name.lower().endswith(".md") else name
        head = stem.split("_", 1)
        if kind is None and len(head) == 2 and head[0].isalpha() and head[0].isascii():
            kind = head[0].lower()
        if len(head) == 2 and head[0].isalpha() and head[0].isascii():
            stem = head[1]
        items.append((kind, frozenset(mi._name_tokens(stem))))
    found = 0
    for i in range(len(items)):
        kind_a, a = items[i]
        for j in range(i + 1, len(items)):
            kind_b, b = items[j]
            if kind_a is None or kind_a != kind_b or not a or not b:
                continue
            shared = len(a & b)
            if shared / (len(a) + len(b) - shared) >= mi.NEAR_DUPLICATE_MIN_JACCARD:
                found += 1
    return found


def write_dir(folder: str, files: list[tuple[str, str | None]]) -> None:
    for name, text in files:
        with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
            handle.write(text or "")


def _time(fn: Callable[[], object]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) for one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def _cli(folder: str, command: str) -> int:
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(io.StringIO()):
        return cli_main(["memory", command, folder, "--json"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--no-all-pairs", action="store_true", help="skip the (slow) all-pairs yardstick"
    )
    args = parser.parse_args()
    sizes = (args.files, 2 * args.files)
    data = {n: generate(n, args.seed) for n in sizes}
    samples: dict[str, list[tuple[float, float]]] = {}

    def add(key: str, seconds: tuple[float, float]) -> None:
        samples.setdefault(key, []).append(seconds)

    def median(key: str, which: int) -> float:
        return statistics.median(s[which] for s in samples[key])

    with tempfile.TemporaryDirectory() as tmp:
        folders = {}
        for n in sizes:
            folders[n] = os.path.join(tmp, f"mem{n}")
            os.mkdir(folders[n])
            write_dir(folders[n], data[n][1])
        first = mi.lint_memory_integrity(*data[sizes[0]])
        counts: dict[str, int] = {}
        for finding in first.findings:
            counts[finding.check] = counts.get(finding.check, 0) + 1
        print(f"generated {sizes[0]} files: coverage {tuple(first.coverage)}")
        print("findings per check: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
        for _ in range(args.repeat):  # interleaved: every measure once per round
            for n in sizes:
                index, files = data[n]
                add(f"lint {n}", _time(lambda i=index, f=files: mi.lint_memory_integrity(i, f)))
                add(f"repairs {n}", _time(lambda i=index, f=files: mi.suggest_memory_repairs(i, f)))
                add(f"cli lint {n}", _time(lambda d=folders[n]: _cli(d, "lint")))
                add(f"cli repairs {n}", _time(lambda d=folders[n]: _cli(d, "repairs")))
        print(
            f"medians of {args.repeat} interleaved runs (wall ms / CPU ms of this process;"
            f" CPU time is the fairer figure on a shared machine):"
        )
        for key in samples:
            print(f"  {key:<18} {median(key, 0) * 1000:9.1f} wall {median(key, 1) * 1000:9.1f} cpu")
        for which, label in ((0, "wall"), (1, "cpu")):
            base = median(f"lint {sizes[0]}", which)
            double = median(f"lint {sizes[1]}", which)
            print(
                f"growth of lint {sizes[0]} -> {sizes[1]} ({label}): x{double / base:.2f}"
                f" (linear: x2)"
            )
        if not args.no_all_pairs:
            files = data[sizes[0]][1]
            wall, cpu = _time(lambda: all_pairs_near_duplicates(files))
            print(
                f"all-pairs near-duplicate pass alone, {sizes[0]} files: {wall:.2f} s wall,"
                f" {cpu:.2f} s cpu; whole lint is x{cpu / median(f'lint {sizes[0]}', 1):.1f}"
                f" faster by cpu (contract asks >= x5)"
            )
    hostile(args.repeat)
    return 0


_HOSTILE_CHILD = """
import resource, sys, time
sys.path.insert(0, sys.argv[1])
from agentops import memory_integrity as mi
names = [f"feedback_retry_backoff_rule_for_api_calls_{i}.md" for i in range(10_000)]
files = [(name, "---\\ntype: feedback\\n---\\nfact") for name in names]
start = time.perf_counter()
result = mi.lint_memory_integrity("", files)
seconds = time.perf_counter() - start
peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
near = [f for f in result.findings if f.check == "near-duplicate-slug"]
print(f"{seconds} {peak_mb} {len(near)} {len(near[0].files) + near[0].unlisted}")
"""


def hostile(repeat: int) -> None:
    """The hostile directories of the near-duplicate and file-size limits."""
    import subprocess

    runs = []
    for _ in range(repeat):  # a fresh process each time: its peak RSS is the figure
        done = subprocess.run(
            [sys.executable, "-c", _HOSTILE_CHILD, ROOT],
            capture_output=True,
            text=True,
            check=True,
        )
        seconds, peak, clusters, members = done.stdout.split()
        runs.append((float(seconds), float(peak)))
    print(
        f"hostile: 10,000 names alike but for a trailing number: {clusters} finding"
        f" ({members} members); median {statistics.median(r[0] for r in runs):.2f} s,"
        f" peak RSS {statistics.median(r[1] for r in runs):.0f} MB (targets 5 s, 300 MB)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "MEMORY.md"), "w") as handle:
            handle.write("- [Big](user_big.md)\n")
        with open(os.path.join(tmp, "user_big.md"), "wb") as handle:
            handle.truncate(1 << 30)  # sparse: 1 GiB of size, no disk used
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            _cli(tmp, "lint")
            times.append(time.perf_counter() - start)
        print(
            f"hostile: a 1 GiB sparse topic file skipped: median"
            f" {statistics.median(times) * 1000:.1f} ms for the whole command (target 100 ms)"
        )


if __name__ == "__main__":
    raise SystemExit(main())
