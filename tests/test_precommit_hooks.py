"""The published pre-commit hooks, run the way pre-commit runs them: the entry
plus the staged file names, in a temporary git repository."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT

HOOKS_FILE = ROOT / ".pre-commit-hooks.yaml"
AWS = "AKIA" + "IOSFODNN7EXAMPLE"  # built at run time: this file stays clean
ZWSP = "\u200b"


def _hooks() -> dict[str, dict[str, str]]:
    """The flat `key: value` fields of each hook (the file is a simple list of maps)."""
    hooks: dict[str, dict[str, str]] = {}
    current: dict[str, str] = {}
    for line in HOOKS_FILE.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^(- |  )(\w+): (.*)$", line)
        if not match:
            continue
        if match.group(1) == "- ":
            current = {}
        current[match.group(2)] = match.group(3).strip()
        if match.group(2) == "id":
            hooks[match.group(3).strip()] = current
    return hooks


def test_both_hooks_are_published_as_python_hooks() -> None:
    hooks = _hooks()
    assert set(hooks) == {"agentops-secrets", "agentops-hidden-chars"}
    assert hooks["agentops-secrets"]["entry"] == "agentops scan-secrets"
    assert hooks["agentops-hidden-chars"]["entry"] == "agentops hidden-chars"
    assert {h["language"] for h in hooks.values()} == {"python"}


def _git_repo(tmp_path: Path, files: dict[str, str]) -> list[str]:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    env = dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, env=env)
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True, env=env)
    staged = subprocess.run(
        ["git", "diff", "--cached", "--name-only"],
        cwd=tmp_path,
        check=True,
        env=env,
        capture_output=True,
        text=True,
    )
    return staged.stdout.split()


def _run_hook(hook_id: str, repo: Path, names: list[str]) -> subprocess.CompletedProcess[str]:
    entry = _hooks()[hook_id]["entry"].split()
    assert entry[0] == "agentops"  # the console script; run it as its module form
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("AGENTOPS_DISABLED", None)
    return subprocess.run(
        [sys.executable, "-m", "agentops", *entry[1:], *names],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize("hook_id", ["agentops-secrets", "agentops-hidden-chars"])
def test_hooks_fail_on_planted_problems(tmp_path: Path, hook_id: str) -> None:
    names = _git_repo(
        tmp_path,
        {
            "settings.env": f"KEY={AWS}\n",
            "prompt.md": f"be{ZWSP}nign text\n",
            "ok.py": "print('fine')\n",
        },
    )
    done = _run_hook(hook_id, tmp_path, names)
    assert done.returncode == 3, done.stdout + done.stderr
    assert AWS not in done.stdout + done.stderr
    flagged = "settings.env" if hook_id == "agentops-secrets" else "prompt.md"
    assert flagged in done.stdout


@pytest.mark.parametrize("hook_id", ["agentops-secrets", "agentops-hidden-chars"])
def test_hooks_pass_on_clean_files(tmp_path: Path, hook_id: str) -> None:
    names = _git_repo(tmp_path, {"ok.py": "print('fine')\n", "notes.md": "# plain notes\n"})
    done = _run_hook(hook_id, tmp_path, names)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ci_runs_the_real_pre_commit_on_both_hooks_red_and_green() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    step = ci[ci.index("the real pre-commit") :]
    assert 'pre-commit try-repo "$checkout" "$hook"' in step
    assert "for hook in agentops-secrets agentops-hidden-chars" in step
    assert "expect pass" in step and "expect fail" in step and "- exit code: 3" in step
    assert "PIP_NO_INDEX=1" in step  # the hook environments install with no index


def test_pre_commit_is_a_dev_tool_never_a_runtime_or_test_dependency() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    extras = {
        name: line
        for name, line in re.findall(r"^(\w+) = (\[.*\])$", text, flags=re.MULTILINE)
        if name in ("dev", "test", "dependencies")
    }
    assert "pre-commit" in extras["dev"]
    assert "pre-commit" not in extras["test"] and extras["dependencies"] == "[]"


def test_readme_snippet_names_the_rev_convention_and_both_hook_ids() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    snippet = readme[readme.index("## pre-commit") :].split("```")[1]
    assert re.search(r"rev: v\d+\.\d+\.\d+", snippet)
    assert "id: agentops-secrets" in snippet and "id: agentops-hidden-chars" in snippet
