"""Whole-archive throughput of `agentops scan-secrets`: one process against every core.

Run from the project root with nothing installed:  python benchmarks/scan_archive.py

The archive is the Python installation's standard-library tree of the interpreter running
this script (found with sysconfig.get_paths()["stdlib"]; on many installations it holds
site-packages too), or --tree PATH. Each configuration runs the real command in a fresh
process (`python -m agentops scan-secrets --json --quiet --jobs J TREE`), and the
configurations are INTERLEAVED, --repeat times each, so machine noise hits every one
alike; the MEDIAN wall time is reported (wall, not CPU time: the point of --jobs is wall
time). Every run's findings must be identical to the --jobs 1 run, in the same order.

When detect-secrets is installed (on PATH, or --detect-secrets EXE), it scans the same
tree once per repetition too (`detect-secrets scan --all-files TREE`), for scale; it reads
files differently (its own plugins and filters), so compare orders of magnitude only.

Target: at 2 cores, --jobs 2 at >= 1.7x the --jobs 1 rate. On a shared machine the
figure is only as good as the idle cores it gets: the load average is printed with it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def scan_command(tree: str, jobs: int) -> list[str]:
    options = ["--json", "--quiet", "--jobs", str(jobs)]
    return [sys.executable, "-m", "agentops", "scan-secrets", *options, tree]


def timed(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 3):
        raise SystemExit(f"{command[3:]} exited {done.returncode}: {done.stderr[-500:]}")
    return elapsed, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", default=sysconfig.get_paths()["stdlib"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="the parallel run")
    parser.add_argument("--detect-secrets", default=shutil.which("detect-secrets"))
    args = parser.parse_args()

    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("AGENTOPS_DISABLED", None)
    configurations: dict[str, list[str]] = {
        "jobs 1": scan_command(args.tree, 1),
        f"jobs {args.jobs}": scan_command(args.tree, args.jobs),
    }
    if args.detect_secrets:
        configurations["detect-secrets"] = [args.detect_secrets, "scan", "--all-files", args.tree]

    times: dict[str, list[float]] = {name: [] for name in configurations}
    reference: dict[str, object] | None = None
    for _ in range(args.repeat):
        for name, command in configurations.items():
            elapsed, out = timed(command, env)
            times[name].append(elapsed)
            if name.startswith("jobs"):
                document = json.loads(out)
                if reference is None:
                    reference = document
                elif document != reference:
                    raise SystemExit(f"{name}: findings differ from the first run")

    assert reference is not None
    swept = int(reference["swept"])  # type: ignore[call-overload]
    print(f"tree: {args.tree}")
    print(
        f"files swept: {swept}, skipped: {len(reference['skipped'])}, "  # type: ignore[arg-type]
        f"findings: {reference['findings_total']}; identical in every run"
    )
    print(f"cores: {os.cpu_count()}, load average before/after: {os.getloadavg()[0]:.1f}")
    single = statistics.median(times["jobs 1"])
    for name, samples in times.items():
        median = statistics.median(samples)
        rate = f"{swept / median:8.0f} files/s" if name.startswith("jobs") else " " * 16
        ratio = f"  {single / median:.2f}x the jobs-1 rate" if name.startswith("jobs") else ""
        print(f"{name:>15}: median {median:6.2f} s of {len(samples)}  {rate}{ratio}")


if __name__ == "__main__":
    main()
