"""The starter policy on real commands from public documentation: few denies, few asks.

`tests/fixtures/benign_commands.txt` holds command lines taken from the example
sections of the man pages of common tools (git, curl, wget, find, grep, sed,
awk, tar, ssh, make, pip, jq, openssl, gpg, xargs, systemctl, dpkg, perl, ...),
each accepted by `bash -n`, none doing what the policy denies; it is rebuilt by
`benchmarks/build_command_corpus.py`. `tests/fixtures/benign_commands_docs.txt`
adds command lines of the kind the public documentation of tools without local
man pages shows (docker, kubectl, npm, pip, cargo, terraform, aws, gcloud, helm,
go, make, yarn, poetry, gh, systemctl, journalctl, psql, redis-cli, ffmpeg, jq,
rsync, ssh/scp), in blocks headed by a `# tool` comment line. Targets, on both
files together: false denies <= 0.5%, asks <= 2%.
"""

from __future__ import annotations

from collections import Counter

from support import ROOT

from agentops.cli import _policy

CORPUS = ROOT / "tests" / "fixtures" / "benign_commands.txt"
DOCS_CORPUS = ROOT / "tests" / "fixtures" / "benign_commands_docs.txt"
POLICY = _policy.load_policy(str(ROOT / "examples" / "policy.json"))


DOCS_TOOLS = {
    "docker",
    "kubectl",
    "npm",
    "pip",
    "cargo",
    "terraform",
    "aws",
    "gcloud",
    "helm",
    "go",
    "make",
    "yarn",
    "poetry",
    "gh",
    "systemctl",
    "journalctl",
    "psql",
    "redis-cli",
    "ffmpeg",
    "jq",
    "rsync",
    "ssh",
}


def read_commands() -> list[str]:
    """Both corpora, without the `# tool` headings of the documentation file."""
    man_pages = CORPUS.read_text(encoding="utf-8").splitlines()
    documented = DOCS_CORPUS.read_text(encoding="utf-8").splitlines()
    return man_pages + [line for line in documented if not line.startswith("# ")]


def test_documentation_corpus_covers_each_tool_under_its_heading() -> None:
    headings = {
        line.removeprefix("# ")
        for line in DOCS_CORPUS.read_text(encoding="utf-8").splitlines()
        if line.startswith("# ")
    }
    assert headings >= DOCS_TOOLS
    assert len(read_commands()) >= 1755 + 1500


def test_corpus_is_real_and_large() -> None:
    commands = read_commands()
    assert len(commands) >= 1500
    assert len(set(commands)) == len(commands)
    assert all(command.strip() == command and command for command in commands)
    programs = Counter(command.split()[0] for command in commands)
    assert len(programs) >= 40  # many tools, not one


def test_starter_policy_rarely_denies_or_asks_on_documented_commands() -> None:
    commands = read_commands()
    decisions = {command: _policy.judge(POLICY, command).decision for command in commands}
    denied = [command for command, decision in decisions.items() if decision == "deny"]
    asked = [command for command, decision in decisions.items() if decision == "ask"]
    assert len(denied) <= len(commands) * 5 // 1000, denied[:10]
    assert len(asked) <= len(commands) * 2 // 100, asked[:10]
