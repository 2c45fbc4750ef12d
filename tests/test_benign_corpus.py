"""The starter policy on real commands from public documentation: few denies, few asks.

`tests/fixtures/benign_commands.txt` holds command lines taken from the example
sections of the man pages of common tools (git, curl, wget, find, grep, sed,
awk, tar, ssh, make, pip, jq, openssl, gpg, xargs, systemctl, dpkg, perl, ...),
each accepted by `bash -n`, none doing what the policy denies; it is rebuilt by
`benchmarks/build_command_corpus.py`. Targets: false denies <= 0.5%, asks <= 2%.
"""

from __future__ import annotations

from collections import Counter

from support import ROOT

from agentops.cli import _policy

CORPUS = ROOT / "tests" / "fixtures" / "benign_commands.txt"
POLICY = _policy.load_policy(str(ROOT / "examples" / "policy.json"))


def test_corpus_is_real_and_large() -> None:
    commands = CORPUS.read_text(encoding="utf-8").splitlines()
    assert len(commands) >= 1500
    assert len(set(commands)) == len(commands)
    assert all(command.strip() == command and command for command in commands)
    programs = Counter(command.split()[0] for command in commands)
    assert len(programs) >= 40  # many tools, not one


def test_starter_policy_rarely_denies_or_asks_on_documented_commands() -> None:
    commands = CORPUS.read_text(encoding="utf-8").splitlines()
    decisions = {command: _policy.judge(POLICY, command).decision for command in commands}
    denied = [command for command, decision in decisions.items() if decision == "deny"]
    asked = [command for command, decision in decisions.items() if decision == "ask"]
    assert len(denied) <= len(commands) * 5 // 1000, denied[:10]
    assert len(asked) <= len(commands) * 2 // 100, asked[:10]
