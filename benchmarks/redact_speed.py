"""Throughput of agentops.secret_redaction on benign source, secret-dense text and probes.

Run from the project root with nothing installed:  python benchmarks/redact_speed.py

Workloads (each timed as the MEDIAN of INTERLEAVED repetitions, so machine noise hits every
workload alike):
  (a) 2,000-character chunks of the Python standard library's .py sources, found at run
      time with sysconfig.get_paths()["stdlib"] (display and storage boundaries);
  (b) secret-dense text: realistic log, .env, JSON and YAML lines with a fake credential
      of a different shape in nearly every line (display and storage), and, for scale,
      stdlib chunks with one credential line each ("seeded", display) and stdlib lines
      with a credential line per 2, 8 and 32 of them (display), to show how throughput
      falls with the number of redactions per chunk;
  (c) five 200,000-character adversarial probes aimed at the quadratic traps of a literal
      transcription of the shape table (display; their total time is reported), and four
      with an escape every few lines, where each escaped line is scanned again.
Targets: display >= 60 MB/s on (a), >= 20 MB/s on (b), the five probes together < 0.2 s,
storage >= 20 MB/s on (a).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from _stdlib_corpus import stdlib_chunks

from agentops.secret_redaction import redact_secret_shapes, scrub_for_storage

CHUNK = 2000
SWEEP = (2, 8, 32)  # one credential line per this many stdlib lines
# CPU time of this process: on a shared machine wall time measures the neighbours, not us.
# Pass --wall to use time.perf_counter instead.
CLOCK = time.process_time


def _fake(*parts: str) -> str:
    return "".join(parts)


def dense_lines() -> list[str]:
    """Log, .env, JSON and YAML lines, each with a fake credential but the last."""
    an = "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0UvWxYz"
    hx = "9f86d081884c7d659a2feaa0c55ad015" + "a3bf4f1b2b0b822cd15d6c15b0f00a08"
    lines = [
        _fake("2026-03-14T09:26:53Z INFO deploy key=AKIA", "Z7QX3M4N5P6R7S8T region=eu-west-1"),
        _fake("GITHUB_TOKEN=gh", "p_", an),
        _fake('{"stripe": "sk_', 'live_4eC39HqLyjWDarjtT1zdp7dc", "retries": 3}'),
        _fake("DATABASE_URL=postgres", "://app:S3cretPw@db.internal:5432/prod"),
        _fake("  slack: xo", "xb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"),
        _fake("curl -H 'Authorization: Bearer ", "opaque7Tk29xQm4Lp8Zr3Vn6' https://api.x.io"),
        _fake("OPENAI_API_KEY=sk-", "proj-", an),
        _fake(
            "jwt=eyJhbGciOiJIUzI1NiJ9",
            ".eyJzdWIiOiIxMjM0NTY3ODkwIn0",
            ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        ),
        _fake("session secret_", hx, " rotated"),
        _fake("cache token QWJjMTIzZGVmNDU2Z2hp", "Nzg5amtsMDEybW5vMzQ1cHFy ttl=60"),
        _fake("git clone https://deploy:", "Xk3jd9sLq2@ci.example.com/app.git"),
        _fake("HF_TOKEN=hf", "_", an),
        "plain log line without anything secret in it, status=200 ms=12",
    ]
    return lines


def secret_dense(n_chars: int) -> list[str]:
    text = "\n".join(dense_lines()) + "\n"
    blob = (text * (n_chars // len(text) + 1))[:n_chars]
    return [blob[i : i + CHUNK] for i in range(0, len(blob), CHUNK)]


def interleaved(every: int, n_chars: int) -> list[str]:
    """Stdlib source lines with a credential line before each `every` of them."""
    credentials = dense_lines()[:-1]
    filler = [line for chunk in stdlib_chunks(n_chars) for line in chunk.splitlines()]
    lines: list[str] = []
    for i, line in enumerate(filler):
        if i % every == 0:
            lines.append(credentials[(i // every) % len(credentials)])
        lines.append(line)
    blob = "\n".join(lines)[:n_chars]
    return [blob[i : i + CHUNK] for i in range(0, len(blob), CHUNK)]


def probes() -> list[str]:
    return [
        ("postgres://u:" * 15400)[:200000],
        ("eyJ-" * 50000)[:200000],
        ("https://" + "-" * 20 + "QWJjMTIzZGVmNDU2Z2hp" + "Nzg5amtsMDEybW5vMzQ1cHFy-") * 2800,
        ("x://" + "a" * 30 + ":") * 5715,
        ("-" * 40 + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7" + "Op8Qr9St0UvWxYzAbCd" + "-") * 2439,
    ]


def escape_probes() -> list[str]:
    """200,000 characters with an escape every few lines: each escaped line is decoded and
    scanned again, so a fixed cost per window would add up here."""
    units = ("x = 'a\\n'\n\n\n\n", 'k: "a\\"b"\n\n\n', "u=%41%42\n\n\n", "a \\\nb\n\n")
    return [(unit * (200000 // len(unit) + 1))[:200000] for unit in units]


def run(reps: int, limit_chars: int) -> dict[str, float]:
    benign = stdlib_chunks(limit_chars)
    dense = secret_dense(max(limit_chars // 10, 200000))
    lines = dense_lines()
    seeded = [
        c[:1000] + "\n" + lines[i % len(lines)] + "\n" + c[1000:]
        for i, c in enumerate(benign[: max(1, len(benign) // 4)])
    ]
    seeded_chars = sum(map(len, seeded))
    adv = [p[:200000] for p in probes()]
    benign_chars = sum(map(len, benign))
    dense_chars = sum(map(len, dense))

    def display(chunks: list[str]) -> Callable[[], None]:
        def go() -> None:
            for c in chunks:
                redact_secret_shapes(c)

        return go

    def storage(chunks: list[str]) -> Callable[[], None]:
        def go() -> None:
            for c in chunks:
                scrub_for_storage(c, sidecar=True)

        return go

    sweep = {every: interleaved(every, 400000) for every in SWEEP}
    workloads: dict[str, Callable[[], None]] = {
        "display/stdlib": display(benign),
        "storage/stdlib": storage(benign),
        "display/dense": display(dense),
        "display/seeded": display(seeded),
        "storage/dense": storage(dense),
        "display/probes": display(adv),
        "display/escape-probes": display(escape_probes()),
        **{f"display/every{every}": display(chunks) for every, chunks in sweep.items()},
    }
    times: dict[str, list[float]] = {k: [] for k in workloads}
    for _ in range(reps):
        for name, fn in workloads.items():
            t0 = CLOCK()
            fn()
            times[name].append(CLOCK() - t0)
    med = {k: statistics.median(v) for k, v in times.items()}
    print(
        f"stdlib chunks: {len(benign)} x <= {CHUNK} chars ({benign_chars / 1e6:.1f} MB); "
        f"secret-dense: {dense_chars / 1e6:.2f} MB; {reps} interleaved repetitions, medians "
        f"of {'wall' if CLOCK is time.perf_counter else 'CPU'} time"
    )
    std_d = benign_chars / med["display/stdlib"] / 1e6
    std_s = benign_chars / med["storage/stdlib"] / 1e6
    print(f"display  stdlib  {std_d:8.1f} MB/s  (target >= 60)")
    print(f"storage  stdlib  {std_s:8.1f} MB/s  (target >= 20)")
    print(f"display  dense   {dense_chars / med['display/dense'] / 1e6:8.1f} MB/s  (target >= 20)")
    print(f"storage  dense   {dense_chars / med['storage/dense'] / 1e6:8.1f} MB/s")
    print(
        f"display  seeded  {seeded_chars / med['display/seeded'] / 1e6:8.1f} MB/s  "
        "(stdlib chunks with one credential line each)"
    )
    print(f"display  probes  {med['display/probes']:8.3f} s for 5 x 200,000 chars (target < 0.2)")
    print(
        f"display  escapes {med['display/escape-probes']:8.3f} s for 4 x 200,000 chars "
        "(an escape every few lines)"
    )
    for every, chunks in sweep.items():
        found = sum(len(redact_secret_shapes(c).shapes) for c in chunks) / len(chunks)
        mbs = sum(map(len, chunks)) / med[f"display/every{every}"] / 1e6
        print(
            f"display  1 per {every:<2d}{mbs:8.1f} MB/s  (a credential line per {every} stdlib "
            f"lines: {found:.1f} redactions per chunk)"
        )
    return med


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--mb", type=float, default=4.0, help="MB of stdlib source to use")
    parser.add_argument("--wall", action="store_true", help="time with perf_counter")
    args = parser.parse_args()
    if args.wall:
        global CLOCK
        CLOCK = time.perf_counter
    run(max(1, args.reps), int(args.mb * 1e6))
    return 0


if __name__ == "__main__":
    sys.exit(main())
