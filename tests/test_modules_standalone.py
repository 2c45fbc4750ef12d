"""Every pure module stands alone: the promise made to a user who copies one file.

For each module in `agentops.MODULES`, the file is copied into an empty folder
and checked there: it parses as Python 3.10, imports nothing but the standard
library (never a sibling, never relatively), names its public API in
`__all__`, passes its own self-check when run as a script, and refuses to run
that self-check under `python -O`, where assertions are compiled out. The
in-process call of `_self_check()` is checked too, so a failing assertion
shows with its traceback here rather than as a subprocess's exit code.
"""

from __future__ import annotations

import ast
import importlib
import os
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import agentops

PACKAGE = Path(agentops.__file__).resolve().parent
STDLIB = frozenset(sys.stdlib_module_names) | {"__future__"}
PASSED = "self-check: all assertions passed"


def _tree(name: str) -> ast.Module:
    return ast.parse((PACKAGE / f"{name}.py").read_text(encoding="utf-8"), feature_version=(3, 10))


def _imports(tree: ast.Module) -> list[str]:
    """Top-level names of everything the module imports; '.' for a relative import."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append("." if node.level else (node.module or "").split(".")[0])
    return found


def _run_alone(name: str, folder: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    """Run the module's file as a script in `folder`, with nothing else importable."""
    shutil.copy(PACKAGE / f"{name}.py", folder)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONOPTIMIZE")}
    return subprocess.run(
        [sys.executable, "-I", *flags, f"{name}.py"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize("name", agentops.MODULES)
def test_imports_only_the_standard_library(name: str) -> None:
    outside = sorted(set(_imports(_tree(name))) - STDLIB)
    assert outside == [], f"{name} imports {outside}"


@pytest.mark.parametrize("name", agentops.MODULES)
def test_names_its_public_api(name: str) -> None:
    assigned = {
        target.id
        for node in _tree(name).body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    assert "__all__" in assigned
    module = importlib.import_module(f"agentops.{name}")
    assert all(hasattr(module, public) for public in module.__all__)


@pytest.mark.parametrize("name", agentops.MODULES)
def test_self_check_passes_in_process(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    importlib.import_module(f"agentops.{name}")._self_check()
    assert capsys.readouterr().out == f"{name} {PASSED}\n"


@pytest.mark.parametrize("name", agentops.MODULES)
def test_importing_it_prints_nothing(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Only `python agentops/<name>.py` runs the self-check: a hook answers with at most one
    JSON object on stdout, so an import must write nothing."""
    runpy.run_path(str(PACKAGE / f"{name}.py"), run_name="imported_not_main")
    assert capsys.readouterr() == ("", "")


@pytest.mark.parametrize("name", agentops.MODULES)
def test_copied_alone_it_runs_its_self_check(name: str, tmp_path: Path) -> None:
    done = _run_alone(name, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == f"{name} {PASSED}\n"


@pytest.mark.parametrize("name", agentops.MODULES)
def test_copied_alone_it_refuses_under_optimize(name: str, tmp_path: Path) -> None:
    done = _run_alone(name, tmp_path, "-O")
    assert done.returncode != 0
    assert PASSED not in done.stdout
    assert "-O" in done.stderr  # the refusal says why


def test_the_standalone_check_sees_a_sibling_import(tmp_path: Path) -> None:
    """Positive control for the import rule: a module that imports a sibling is caught."""
    tree = ast.parse("from agentops import rrf_fuse\nimport json\nfrom . import x\n")
    assert sorted(set(_imports(tree)) - STDLIB) == [".", "agentops"]
