"""Every README code block that claims to run does run.

A fenced block preceded by `<!-- not run: reason -->` is documentation only.
Every other block is executed or checked by its language: `sh` blocks run line
by line in a scratch copy of the project (the README's test command is the one
line skipped: CI runs it verbatim, see test_package); `python` blocks are
executed; `json` blocks must parse and name real commands; `yaml` blocks must
name hooks this repository publishes."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT, run_cli

README = (ROOT / "README.md").read_text(encoding="utf-8")
TEST_COMMAND = "python -m pip install -e '.[test]' && python -m pytest"
FENCE = re.compile(r"(<!-- not run: [^>]+ -->\n)?```(\w*)\n(.*?)```", re.DOTALL)


def _blocks(language: str) -> list[str]:
    return [body for skip, lang, body in FENCE.findall(README) if lang == language and not skip]


def test_every_block_has_a_runner() -> None:
    languages = {lang for skip, lang, _ in FENCE.findall(README) if not skip}
    assert languages <= {"sh", "python", "json", "yaml"}
    assert _blocks("sh") and _blocks("python") and _blocks("json") and _blocks("yaml")


def test_quickstart_is_the_first_block_and_has_exactly_two_commands() -> None:
    first = FENCE.search(README)
    assert first is not None
    commands = [line for line in first.group(3).splitlines() if line.strip()]
    assert commands == ["python -m agentops selfcheck", TEST_COMMAND]


@pytest.mark.parametrize("block", _blocks("sh"))
def test_shell_blocks_run(block: str, tmp_path: Path) -> None:
    shutil.copytree(
        ROOT / "agentops", tmp_path / "agentops", ignore=shutil.ignore_patterns("__pycache__")
    )
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "python").symlink_to(sys.executable)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "AGENTOPS_DISABLED")}
    env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
    for line in block.splitlines():
        command = line.split("  #")[0].strip()
        if not command or command == TEST_COMMAND:
            continue
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, f"{command}\n{done.stdout}{done.stderr}"


@pytest.mark.parametrize("block", _blocks("python"))
def test_python_blocks_run(block: str) -> None:
    namespace: dict[str, object] = {}
    exec(compile(block, "README.md", "exec"), namespace)
    recall = namespace["recall_for_prompt"]
    assert callable(recall)
    secret = "AKIA" + "IOSFODNN7EXAMPLE"
    assert recall([f"key {secret}", "plain"]) == ["key [redacted:aws-key]", "plain"]


@pytest.mark.parametrize("block", _blocks("json"))
def test_json_blocks_parse_and_name_real_commands(block: str) -> None:
    document = json.loads(block)
    commands = re.findall(r"python -m agentops ([^\"]+)", json.dumps(document))
    assert commands
    for command in commands:
        words = [w for w in command.split() if not w.startswith("-")]
        assert run_cli(*words[:2], "--help").returncode == 0, command


@pytest.mark.parametrize("block", _blocks("yaml"))
def test_yaml_blocks_name_published_hooks(block: str) -> None:
    published = re.findall(
        r"^- id: (\S+)$", (ROOT / ".pre-commit-hooks.yaml").read_text(), flags=re.MULTILINE
    )
    named = re.findall(r"- id: (\S+)", block)
    assert named and set(named) <= set(published)
