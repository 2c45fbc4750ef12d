"""Benchmark: a PreToolUse hook call with 5,000 expired grants in the store, before and
after they are swept.

Every expired grant left in `live/` costs each hook call that reaches the store a
read and a parse; before sweeping existed, 5,000 of them made every call take
about 1.8 s. Now the first `consume` (a hook call whose command resolves to a
grant class, or a `grant mint`) deletes them. Measured in process
(`pre_tool_use._hook`: policy load, gate, store), each case repeated and the
repetitions interleaved so machine noise hits every case alike:

- `check` with 5,000 expired grants in place (it never writes, so never sweeps:
  the cost every call paid before),
- the first hook call (it sweeps),
- hook calls afterwards, no grant to find (target: under 50 ms),
- hook calls afterwards that consume a fresh grant (claim, fsyncs, audit).

Run from the project root with nothing installed:
`python benchmarks/grant_sweep.py [--grants N] [--reps N]`. Figures on a busy
machine include waiting for a CPU.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agentops.capability_grant import GrantQuery, build_grant, serialize_grant  # noqa: E402
from agentops.cli import pre_tool_use  # noqa: E402
from agentops.cli.grant import GrantStore  # noqa: E402

COMMAND = "deploy --env production"
POLICY = {"schema_version": 1, "grant_classes": {"deploy": [r"^deploy(\s|$)"]}}


def _hook_input(command: str) -> bytes:
    event = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
    }
    return json.dumps(event).encode("utf-8")


def _plant_expired(live: Path, count: int) -> None:
    minted = datetime.now(timezone.utc) - timedelta(hours=2)
    for number in range(count):
        grant = build_grant(
            f"deploy --job {number}",
            scope="bench",
            action_class="deploy",
            grant_id=f"expired{number}",
            allowed_classes=["deploy"],
            now=minted,
        )
        (live / f"{grant.id}.json").write_text(serialize_grant(grant), encoding="ascii")


def _ms(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"median {statistics.median(ordered) * 1000:8.2f} ms   p99 {p99 * 1000:8.2f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--grants", type=int, default=5000, help="expired grants (5000)")
    parser.add_argument("--reps", type=int, default=30, help="calls per case after the sweep")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        (folder / "policy.json").write_text(json.dumps(POLICY), encoding="utf-8")
        store = GrantStore(folder / "store", audit_log=folder / "audit.ndjson")
        store.mint(COMMAND, scope="warmup", action_class="deploy", allowed_classes=["deploy"])
        _plant_expired(folder / "store" / "live", options.grants)
        args = argparse.Namespace(
            scope="bench",
            policy=str(folder / "policy.json"),
            store=store.directory,
            audit=store.audit_log,
        )
        miss = _hook_input("deploy --env staging")
        query = GrantQuery(COMMAND, "bench", "deploy")

        start = time.perf_counter()
        store.check(query, ["deploy"])
        unswept = time.perf_counter() - start
        start = time.perf_counter()
        pre_tool_use._hook(args, miss)
        first = time.perf_counter() - start
        left = len(list((folder / "store" / "live").iterdir()))

        after_miss: list[float] = []
        after_allow: list[float] = []
        for _ in range(max(1, options.reps)):
            start = time.perf_counter()
            reply = pre_tool_use._hook(args, miss)
            after_miss.append(time.perf_counter() - start)
            assert reply is None
            store.mint(COMMAND, scope="bench", action_class="deploy", allowed_classes=["deploy"])
            start = time.perf_counter()
            reply = pre_tool_use._hook(args, _hook_input(COMMAND))
            after_allow.append(time.perf_counter() - start)
            assert reply is not None and '"allow"' in reply
    print(f"{options.grants} expired grants, {options.reps} calls per case after the sweep")
    print(f"check, expired grants in place (no sweep):   {unswept * 1000:8.2f} ms")
    print(f"first hook call (sweeps; {left} file(s) left):  {first * 1000:8.2f} ms")
    print(f"hook calls afterwards, no grant:             {_ms(after_miss)}")
    print(f"hook calls afterwards, consuming a grant:    {_ms(after_allow)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
