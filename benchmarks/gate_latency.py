"""Benchmark: the command gate's decision time with the starter policy.

Three figures, each against its target:

- p50 and p99 of the in-process PreToolUse hook decision (`pre_tool_use._hook`:
  policy load from `examples/policy.json`, lexer, judge, class resolution) over
  the benign corpus (`tests/fixtures/benign_commands.txt`)
  and generated dangerous variants, interleaved; target p99 <= 50 ms. The same
  through `main()` (which also builds the CLI parser) is printed beside it.
- the 495 KB input of the report (a comment line of repeated `git push ` then the
  real command), decided through the hook; target <= 1 s.
- adversarial shapes (quotes, variables, `;`, braces, substitutions, nesting,
  here-documents, one long word, pipes) just under the parse bound and at the
  1 MiB input cap, judged with the starter policy; target: every one <= 1 s.

Medians of interleaved repetitions are printed for the adversarial shapes. The
machine may be shared: figures under load are noisy, and CPU time is what the
bounds guarantee. Run from the project root: `python benchmarks/gate_latency.py
[--reps N]`.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from gate_variants import dangerous_variants  # noqa: E402

from agentops.cli import _policy, main, pre_tool_use  # noqa: E402
from agentops.scannable_command import MAX_COMMAND_CHARS  # noqa: E402

POLICY_PATH = ROOT / "examples" / "policy.json"
CORPUS = ROOT / "tests" / "fixtures" / "benign_commands.txt"
HOOK_P99_TARGET_MS = 50.0
DECISION_TARGET_S = 1.0
INPUT_CAP = 1024 * 1024


@contextlib.contextmanager
def _stdin(data: bytes) -> Iterator[None]:
    saved_in, saved_out = sys.stdin, sys.stdout
    sys.stdin = io.TextIOWrapper(io.BytesIO(data))
    sys.stdout = io.StringIO()
    try:
        yield
    finally:
        sys.stdin, sys.stdout = saved_in, saved_out


def hook_seconds(command: str, store: str) -> float:
    """Wall time of one in-process hook decision (`pre_tool_use._hook`: policy load,
    lexer, judge, class resolution; the CLI parser is built once, outside)."""
    event = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
    }
    raw = json.dumps(event).encode("utf-8")
    args = argparse.Namespace(
        scope="bench", policy=str(POLICY_PATH), store=store, audit=store + "/audit"
    )
    started = time.perf_counter()
    pre_tool_use._hook(args, raw)
    return time.perf_counter() - started


def cli_seconds(command: str, store: str) -> float:
    """Wall time of `agentops hook pre-tool-use` run in-process through `main`
    (also builds the whole CLI parser, as a fresh process would)."""
    event = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
    }
    argv = ["hook", "pre-tool-use", "--scope", "bench", "--policy", str(POLICY_PATH)]
    argv += ["--store", store, "--audit", store + "/audit"]
    with _stdin(json.dumps(event).encode("utf-8")):
        started = time.perf_counter()
        code = main(argv)
        elapsed = time.perf_counter() - started
    assert code == 0, command[:80]
    return elapsed


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def adversarial_shapes(size: int) -> dict[str, str]:
    def fill(unit: str) -> str:
        return (unit * (size // len(unit) + 1))[:size]

    return {
        "single quotes": fill("'a' "),
        "double quotes with $x": fill('"$a" '),
        "variables": fill("$a"),
        "semicolons": fill("a;"),
        "pipes": fill("a|"),
        "brace lists": fill("{a,b}"),
        "substitutions": fill("$(a)"),
        "nested parentheses": "(" * 60 + "a" + ")" * 60 + " " + fill("b "),
        "here-document": "cat <<'EOF'\n" + fill("git push --force\n") + "\nEOF\n",
        "one long word": fill("x"),
        "comment then command": "# " + fill("git push ") + "\ngit push --force",
        "quadratic bait": "echo " + fill("git push "),
    }


def main_benchmark() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3, help="repetitions (default 3)")
    args = parser.parse_args()
    policy = _policy.load_policy(str(POLICY_PATH))
    corpus = CORPUS.read_text(encoding="utf-8").splitlines()
    dangerous = [text for _, text in dangerous_variants(400, seed=7, fakebin="/opt/fakebin")]
    commands = [command for pair in zip(corpus, dangerous * 10, strict=False) for command in pair]

    with tempfile.TemporaryDirectory() as store:
        timings = [hook_seconds(command, store) * 1000 for command in commands]
        p50, p99 = percentile(timings, 0.50), percentile(timings, 0.99)
        verdict = "meets" if p99 <= HOOK_P99_TARGET_MS else "MISSES"
        print(f"in-process hook, starter policy, {len(commands)} commands (benign + dangerous):")
        print(
            f"  p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {max(timings):.2f} ms "
            f"({verdict} the p99 <= {HOOK_P99_TARGET_MS:.0f} ms target)"
        )

        through_main = [cli_seconds(command, store) * 1000 for command in commands[::10]]
        print(
            f"  through main() (CLI parser built per call, {len(through_main)} commands): "
            f"p50 {percentile(through_main, 0.5):.2f} ms, "
            f"p99 {percentile(through_main, 0.99):.2f} ms"
        )

        report_input = "# " + "git push " * 55000 + "\ngit push --force origin main"
        seconds = cli_seconds(report_input, store)
        answer = _policy.judge(policy, report_input).decision
        print(
            f"the {len(report_input) // 1000} KB report input through the hook: "
            f"{seconds * 1000:.1f} ms, {answer} (target <= {DECISION_TARGET_S:.0f} s)"
        )

    worst = 0.0
    for size in (MAX_COMMAND_CHARS - 64, INPUT_CAP):
        shapes = adversarial_shapes(size)
        runs: dict[str, list[float]] = {name: [] for name in shapes}
        for _ in range(args.reps):
            for name, text in shapes.items():  # interleaved: noise hits every shape alike
                started = time.perf_counter()
                _policy.judge(policy, text)
                runs[name].append(time.perf_counter() - started)
        print(f"adversarial shapes of {size} characters, median of {args.reps} (judge only):")
        for name, seconds_list in runs.items():
            median = statistics.median(seconds_list)
            worst = max(worst, max(seconds_list))
            decision = _policy.judge(policy, shapes[name]).decision
            print(f"  {name:<22} {median * 1000:8.1f} ms  {decision}")
    verdict = "meets" if worst <= DECISION_TARGET_S else "MISSES"
    print(
        f"slowest adversarial decision: {worst * 1000:.1f} ms "
        f"({verdict} the <= {DECISION_TARGET_S:.0f} s target)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main_benchmark())
