"""Benchmark: per-call latency of `agentops hook pre-tool-use` with a 50-rule policy.

Claude Code runs a command hook as a fresh process for every Bash call, so the
figure that matters is the subprocess wall time: interpreter start, CLI import,
policy load (50 regexes compiled), the deny scan, class resolution and, on the
grant path, the atomic claim with its fsyncs. Measured, interleaved repetition by
repetition so machine noise hits every case alike:

- subprocess `python` with no script (the floor any Python hook pays),
- subprocess importing the CLI dispatcher and building its parser (the floor of
  any `python -m agentops` command: every command file is imported),
- subprocess hook, no opinion (no rule or class matches: the common case),
- subprocess hook, deny (the LAST deny rule matches: the full scan),
- subprocess hook, allow (a fresh grant is consumed: claim, fsync, unlink, audit),
- in-process hook for the same three paths (policy load + decision + store),
- in-process decision on an already loaded policy (deny scan + class resolution).

Children cache bytecode in a scratch folder (as an installed package has its
.pyc files); one case runs with no bytecode cache (PYTHONDONTWRITEBYTECODE, every
source compiled on every start) for comparison. Wall time on a busy machine
includes waiting for a CPU, so the CPU time (user + sys) of each child is printed
too. Target: well under 100 ms per subprocess call (median). Run from the project
root with nothing installed: `python benchmarks/hook_latency.py [--reps N]`.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agentops.capability_grant import build_grant, serialize_grant  # noqa: E402
from agentops.cli import grant as cli_grant  # noqa: E402
from agentops.scannable_command import matches_raw_or_scannable  # noqa: E402

DENY_RULES = 45
GRANT_CLASSES = 5
LIVE_GRANTS = 20
TARGET_MS = 100.0
SCOPE = "bench"


def _policy() -> dict[str, object]:
    deny = [
        {
            "id": f"rule-{i:02d}",
            "pattern": rf"(^|\s)--forbidden-flag-{i:02d}(=|\s|$)",
            "reason": f"flag {i} is not allowed",
        }
        for i in range(DENY_RULES - 1)
    ]
    deny.append(
        {
            "id": "no-force-push",
            "pattern": r"git\s+push\b.*--force",
            "reason": "force-push is not allowed",
        }
    )
    classes = {f"class-{i}": [rf"^tool-{i}(\s|$)"] for i in range(GRANT_CLASSES - 1)}
    classes["deploy"] = [r"^deploy(\s|$)"]
    return {"schema_version": 1, "deny": deny, "grant_classes": classes}


def _hook_input(command: str) -> bytes:
    return json.dumps(
        {
            "session_id": "bench",
            "transcript_path": "/dev/null",
            "cwd": "/",
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_use_id": "toolu_bench",
            "tool_input": {"command": command, "description": "bench", "timeout": 120000},
        }
    ).encode("utf-8")


CPU: dict[str, list[float]] = {}


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class _Bench:
    def __init__(self, folder: Path) -> None:
        self.policy = folder / "policy.json"
        self.store = folder / "store"
        self.audit = folder / "audit.ndjson"
        self.policy.write_text(json.dumps(_policy()), encoding="utf-8")
        for sub in ("live", "spent"):
            (self.store / sub).mkdir(parents=True, mode=0o700)
        self.counter = 0
        for i in range(LIVE_GRANTS):  # unrelated live grants the store must read
            self.plant(f"tool-0 --job {i}", "class-0")
        # Children cache bytecode in a scratch folder, as an installed package has its
        # .pyc files; `self.cold` compiles every source on every start instead.
        self.env = {
            k: v
            for k, v in os.environ.items()
            if k
            not in ("AGENTOPS_DISABLED", "CLAUDECODE", "PYTHONOPTIMIZE", "PYTHONDONTWRITEBYTECODE")
        }
        self.env["PYTHONPATH"] = str(ROOT) + os.pathsep + self.env.get("PYTHONPATH", "")
        self.env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
        self.cold = dict(self.env, PYTHONDONTWRITEBYTECODE="1")
        del self.cold["PYTHONPYCACHEPREFIX"]
        self.argv = [
            sys.executable,
            "-m",
            "agentops",
            "hook",
            "pre-tool-use",
            "--scope",
            SCOPE,
            "--policy",
            str(self.policy),
            "--store",
            str(self.store),
            "--audit",
            str(self.audit),
        ]
        self.args = argparse.Namespace(
            scope=SCOPE, policy=str(self.policy), store=str(self.store), audit=str(self.audit)
        )

    def plant(self, command: str, action_class: str) -> None:
        self.counter += 1
        grant = build_grant(
            command,
            scope=SCOPE,
            action_class=action_class,
            grant_id=f"bench{self.counter:06d}",
            allowed_classes=[action_class],
            now=datetime.now(timezone.utc),
        )
        path = self.store / "live" / f"{grant.id}.json"
        path.write_text(serialize_grant(grant), encoding="ascii")

    def subprocess_hook(self, data: bytes, expect: str, cold: bool = False) -> float:
        before = _child_cpu()
        start = time.perf_counter()
        done = subprocess.run(
            self.argv,
            input=data,
            capture_output=True,
            env=self.cold if cold else self.env,
            check=False,
        )
        elapsed = time.perf_counter() - start
        CPU.setdefault("cold" if cold else expect, []).append(_child_cpu() - before)
        if done.returncode != 0 or expect not in done.stdout.decode():
            raise SystemExit(f"hook failed: {done.returncode} {done.stdout!r} {done.stderr!r}")
        return elapsed

    def in_process(self, data: bytes, expect: str) -> float:
        start = time.perf_counter()
        reply = cli_grant._hook(self.args, data) or ""
        elapsed = time.perf_counter() - start
        if expect not in reply:
            raise SystemExit(f"in-process hook gave {reply!r}")
        return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--reps", type=int, default=15, help="interleaved repetitions (15)")
    reps = max(1, parser.parse_args().reps)
    with tempfile.TemporaryDirectory() as tmp:
        bench = _Bench(Path(tmp))
        quiet = _hook_input("ls -la /tmp")
        deny = _hook_input("git push --for'ce' origin main")
        allow_cmd = "deploy --env production"
        allow = _hook_input(allow_cmd)
        policy = cli_grant.load_policy(str(bench.policy))

        def bare_python() -> float:
            before = _child_cpu()
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], env=bench.env, check=True)
            elapsed = time.perf_counter() - start
            CPU.setdefault("python", []).append(_child_cpu() - before)
            return elapsed

        def dispatcher() -> float:
            before = _child_cpu()
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-c", "import agentops.cli as c; c.build_parser()"],
                env=bench.env,
                check=True,
            )
            elapsed = time.perf_counter() - start
            CPU.setdefault("dispatcher", []).append(_child_cpu() - before)
            return elapsed

        def sub_allow() -> float:
            bench.plant(allow_cmd, "deploy")
            return bench.subprocess_hook(allow, '"allow"')

        def in_allow() -> float:
            bench.plant(allow_cmd, "deploy")
            return bench.in_process(allow, '"allow"')

        def decision_only() -> float:
            start = time.perf_counter()
            for _ in range(100):
                command = "ls -la /tmp"
                hits = [r.id for r in policy.deny if matches_raw_or_scannable(r.pattern, command)]
                classes = cli_grant._classes_for(policy, command)
                assert not hits and not classes
            return (time.perf_counter() - start) / 100

        cases: dict[str, Callable[[], float]] = {
            "subprocess: bare python (floor)      ": bare_python,
            "subprocess: CLI import + parser only ": dispatcher,
            "subprocess hook: no opinion          ": lambda: bench.subprocess_hook(quiet, ""),
            "subprocess hook: deny (last rule)    ": lambda: bench.subprocess_hook(deny, '"deny"'),
            "subprocess hook: allow (consume)     ": sub_allow,
            "subprocess hook: no opinion, no .pyc ": lambda: bench.subprocess_hook(
                quiet, "", cold=True
            ),
            "in-process hook: no opinion          ": lambda: bench.in_process(quiet, ""),
            "in-process hook: deny (last rule)    ": lambda: bench.in_process(deny, '"deny"'),
            "in-process hook: allow (consume)     ": in_allow,
            "in-process decision, policy loaded   ": decision_only,
        }
        for call in cases.values():  # warm caches once, untimed
            call()
        CPU.clear()
        times: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(reps):
            for name, call in cases.items():
                times[name].append(call())
    print(
        f"policy: {DENY_RULES} deny rules + {GRANT_CLASSES} grant classes "
        f"(50 rules), {LIVE_GRANTS} unrelated live grants in the store"
    )
    worst = 0.0
    for name, samples in times.items():
        median_ms = statistics.median(samples) * 1000
        if name.startswith("subprocess hook") and "no .pyc" not in name:
            worst = max(worst, median_ms)
        print(
            f"{name} median {median_ms:8.2f} ms  (min {min(samples) * 1000:.2f}, "
            f"{reps} interleaved reps)"
        )
    labels = {
        "python": "bare python",
        "dispatcher": "CLI import only",
        "": "hook, no opinion",
        '"deny"': "hook, deny",
        '"allow"': "hook, allow",
        "cold": "hook, no .pyc",
    }
    for key, label in labels.items():
        print(
            f"CPU (user+sys) per subprocess, {label:16} median "
            f"{statistics.median(CPU[key]) * 1000:8.2f} ms"
        )
    print("(wall time above includes waiting for a busy machine; CPU time does not)")
    verdict = "PASS" if worst < TARGET_MS else "FAIL"
    print(f"subprocess hook worst median {worst:.1f} ms vs target < {TARGET_MS:.0f} ms: {verdict}")
    return 0 if worst < TARGET_MS else 3


if __name__ == "__main__":
    sys.exit(main())
