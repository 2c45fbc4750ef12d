"""Every pure module's main call runs the same in a worker process as in this one.

What a distributed engine needs (docs/scale.md): the function, its arguments and its
result all pickle, and the call depends on nothing but its arguments (no state left
in the worker, no clock read, no file touched). Each module's main function is mapped
over a few inputs in a `ProcessPoolExecutor` and must give exactly the in-process
results; the scanner's per-file unit (`_secret_scan.scan_file`) is checked the same way.
"""

from __future__ import annotations

import functools
import pickle
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from agentops import (
    capability_grant,
    claim_audit,
    hidden_chars,
    loop_guard,
    memory_integrity,
    memory_usage_ledger,
    promotion_gate,
    rrf_fuse,
    scannable_command,
    secret_redaction,
    shadow_screen,
    stale_basis,
)
from agentops.cli import _secret_scan

AWS = "AKIA" + "IOSFODNN7EXAMPLE"  # built at run time: this file stays clean
NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
TEXTS = ["plain text", f"key {AWS} end", "be\u200bnign", "", "x" * 5000 + AWS]


def _loop_check(arguments: str) -> loop_guard.Verdict:
    """One call on a fresh turn: the state travels with the call, never in the worker."""
    return loop_guard.check(loop_guard.new_turn(), "web_search", arguments)


# (module's main call, inputs): every public module appears once.
CASES: dict[str, tuple[Callable[[Any], Any], list[Any]]] = {
    "secret_redaction.redact_secret_shapes": (secret_redaction.redact_secret_shapes, TEXTS),
    "secret_redaction.redact_json_like": (
        secret_redaction.redact_json_like,
        [{"a": [AWS, 1, None]}, [AWS, {"k": "v"}], "s", 3],
    ),
    "hidden_chars.scan": (hidden_chars.scan, TEXTS),
    "memory_integrity.lint_memory_integrity": (
        functools.partial(memory_integrity.lint_memory_integrity, "- [a](a.md)\n"),
        [{"a.md": "---\nname: a\n---\nfact"}, {"b.md": "orphan"}, {}],
    ),
    "memory_usage_ledger.parse_ledger_text": (
        memory_usage_ledger.parse_ledger_text,
        ["", "2026-01-01T00:00:00Z\tsession\tfact-a\n", "garbage"],
    ),
    "rrf_fuse.fuse_rankings": (
        rrf_fuse.fuse_rankings,
        [[["a", "b", "c"], ["c", "a"]], [["x"]], []],
    ),
    "stale_basis.pick_stale_basis": (
        stale_basis.pick_stale_basis,
        [{"created": "2024-01-01T00:00:00Z"}, {"updated_at": "soon"}, {}],
    ),
    "capability_grant.build_grant": (
        functools.partial(
            capability_grant.build_grant,
            scope="repo",
            action_class="git-push",
            grant_id="g-1",
            allowed_classes=("git-push",),
            now=NOW,
            ttl=timedelta(minutes=5),
        ),
        ["git push origin main", "git push --force"],
    ),
    "scannable_command.scannable_command": (
        scannable_command.scannable_command,
        ["g'i't push --for\\ce", "ls -la", "$'\\x72m' -rf /"],
    ),
    "shadow_screen.screen_decision": (
        shadow_screen.screen_decision,
        [{"mode": "shadow", "verdict": "pass"}, None, {"mode": "enforce", "verdict": "block"}],
    ),
    "promotion_gate.decide": (
        functools.partial(promotion_gate.decide, confidence=0.9, event_ids=["e1", "e2"]),
        ["a fact", "be\u200bnign fact", ""],
    ),
    "loop_guard.check": (_loop_check, ["python docs", "python  docs", ""]),
    "claim_audit.audit": (
        functools.partial(claim_audit.audit, files_changed=["src/app.py"]),
        ["Updated `src/app.py`.", "Updated `src/other.py`.", ""],
    ),
}


@pytest.fixture(scope="module")
def pool() -> Any:
    with ProcessPoolExecutor(max_workers=2) as executor:
        yield executor


@pytest.mark.parametrize("name", sorted(CASES))
def test_main_call_gives_the_same_results_in_a_worker_process(name: str, pool: Any) -> None:
    call, inputs = CASES[name]
    here = [call(item) for item in inputs]
    there = list(pool.map(call, inputs))
    assert there == here
    assert pickle.loads(pickle.dumps(here)) == here  # results travel back unchanged


def test_every_pure_module_is_covered() -> None:
    modules = {
        path.stem
        for path in (Path(__file__).resolve().parent.parent / "agentops").glob("*.py")
        if not path.stem.startswith("_")
    }
    assert {name.split(".")[0] for name in CASES} == modules


def test_the_scanners_unit_of_work_runs_the_same_in_a_worker(tmp_path: Path, pool: Any) -> None:
    for index, text in enumerate(TEXTS):
        (tmp_path / f"f{index}.txt").write_text(text, encoding="utf-8")
    (tmp_path / "s.jsonl").write_text('{"a": ["' + AWS + '"]}\nnot json\n', encoding="utf-8")
    (tmp_path / "b.bin").write_bytes(b"\x00")
    paths = sorted(str(p) for p in tmp_path.iterdir())
    call = functools.partial(_secret_scan.scan_file, key=b"k" * 32)
    assert list(pool.map(call, paths)) == [call(path) for path in paths]
