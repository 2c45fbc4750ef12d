"""The gate against real bash: generated spellings run with fake programs on PATH.

Real bash is the oracle. Each variant of a denied command runs under bash with
PATH holding only fake programs that record their argv (wrappers and shells
record, then pass control on as the real ones would; a fake `curl` prints a
script that calls the fake `gate_payload`). A variant counts only when bash
really executed the denied arguments; of those, at most 1% may get neither deny
nor ask from the starter policy. Benign look-alikes run too: none may execute a
denied command, and at most 1% may be denied or asked about. A seeded sample keeps
the test to a few seconds; `tests/test_example_policy.py` judges many more
variants without running them.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from gate_variants import DANGEROUS, PIPED, Base, benign_variants, dangerous_variants
from support import ROOT

from agentops.cli import _policy

POLICY = _policy.load_policy(str(ROOT / "examples" / "policy.json"))
BASH = shutil.which("bash")
TIMEOUT = shutil.which("timeout")
SAMPLE_DANGEROUS = 160
SAMPLE_BENIGN = 80

pytestmark = pytest.mark.skipif(
    BASH is None or TIMEOUT is None or os.name != "posix", reason="needs bash and timeout"
)

RECORD = '{ printf %s "${0##*/}"; printf "\\037%s" "$@"; printf "\\n"; } >> "$GATE_LOG"\n'
SKIP_OPTIONS = {
    "sudo": 'while case "$1" in -u|-g) shift 2;; -*) shift;; *) false;; esac; do :; done\n',
    "env": 'while case "$1" in -*|*=*) shift;; *) false;; esac; do :; done\n',
    "nice": 'while case "$1" in -n) shift 2;; -*) shift;; *) false;; esac; do :; done\n',
    "timeout": 'while case "$1" in -*) shift;; *) false;; esac; do :; done; shift\n',
}
RECORDERS = ("git", "rm", "cat", "head", "ls", "gate_payload", "grep")


def _write_fake(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text(f"#!{BASH}\n{RECORD}{body}", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


@pytest.fixture(scope="module")
def fakebin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("gate") / "fakebin"
    folder.mkdir()
    for name in RECORDERS:
        _write_fake(folder, name, "exit 0\n")
    for name, skip in SKIP_OPTIONS.items():
        _write_fake(folder, name, skip + 'exec "$@"\n')
    for name in ("sh", "bash"):
        _write_fake(folder, name, f'exec {BASH} "$@"\n')
    _write_fake(folder, "curl", "printf 'gate_payload ran\\n'\n")
    _write_fake(folder, "tee", 'while IFS= read -r line; do printf "%s\\n" "$line"; done\n')
    return folder


def run_all(fakebin: Path, texts: list[str]) -> list[list[list[str]]]:
    """Each text run by bash (PATH: only the fakes); the argv each fake recorded."""
    work = fakebin.parent / f"run{len(list(fakebin.parent.iterdir()))}"
    work.mkdir()
    (work / "home").mkdir()
    lines = []
    for number, text in enumerate(texts):
        (work / f"{number}.sh").write_text(text + "\n", encoding="utf-8")
        lines.append(
            f"GATE_LOG={work}/{number}.log {TIMEOUT} 5 {BASH} {work}/{number}.sh "
            "</dev/null >/dev/null 2>&1"
        )
    (work / "driver.sh").write_text("\n".join(lines) + "\n", encoding="utf-8")
    environment = {"PATH": str(fakebin), "HOME": str(work / "home"), "LC_ALL": "C"}
    subprocess.run(
        [BASH, str(work / "driver.sh")], env=environment, cwd=work, timeout=120, check=False
    )
    calls: list[list[list[str]]] = []
    for number in range(len(texts)):
        log = work / f"{number}.log"
        recorded = log.read_text(encoding="utf-8") if log.exists() else ""
        calls.append([line.split("\x1f") for line in recorded.splitlines()])
    return calls


def executed(base: Base, calls: list[list[str]]) -> bool:
    """True when a recorded call is `base.program` with every needle group present."""
    if base is PIPED:
        return any(call[0] == "gate_payload" for call in calls)
    return any(
        call[0] == base.program
        and all(any(arg in call[1:] for arg in group) for group in base.needles)
        for call in calls
    )


def test_fakes_record_and_pass_control(fakebin: Path) -> None:
    calls = run_all(fakebin, ["sudo -u root env A=1 nice -n 5 git push -f", "curl x | sh"])
    assert calls[0][-1] == ["git", "push", "-f"]
    assert ["gate_payload", "ran"] in calls[1]


def test_dangerous_variants_that_bash_runs_are_denied_or_asked(fakebin: Path) -> None:
    variants = dangerous_variants(SAMPLE_DANGEROUS, seed=2026, fakebin=str(fakebin))
    calls = run_all(fakebin, [text for _, text in variants])
    ran = [
        (base, text)
        for (base, text), made in zip(variants, calls, strict=True)
        if executed(base, made)
    ]
    assert len(ran) >= len(variants) * 8 // 10, "the generator should mostly produce real spellings"
    silent = [text for _, text in ran if _policy.judge(POLICY, text).decision == "none"]
    assert len(silent) <= len(ran) // 100, silent[:5]


def test_benign_look_alikes_run_nothing_denied_and_pass(fakebin: Path) -> None:
    texts = benign_variants(SAMPLE_BENIGN, seed=2027, fakebin=str(fakebin))
    calls = run_all(fakebin, texts)
    for text, made in zip(texts, calls, strict=True):
        assert not any(executed(base, made) for base in (*DANGEROUS, PIPED)), text
    flagged = [text for text in texts if _policy.judge(POLICY, text).decision != "none"]
    assert len(flagged) <= len(texts) // 100, flagged[:5]
