"""The package as a whole: layout, packaging, and the rules that span modules."""

from __future__ import annotations

import ast
import itertools
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from support import ROOT

import agentops

PACKAGE = ROOT / "agentops"
NOT_MODULES = {"__init__", "__main__"}
MODULE_FILES = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem not in NOT_MODULES)


def _tree(name: str) -> ast.Module:
    return ast.parse((PACKAGE / f"{name}.py").read_text(encoding="utf-8"))


def test_modules_tuple_names_exactly_the_module_files() -> None:
    assert sorted(agentops.MODULES) == MODULE_FILES
    assert len(set(agentops.MODULES)) == len(agentops.MODULES)


def test_importing_the_package_imports_no_module() -> None:
    code = (
        "import sys, agentops; print(sorted(m for m in sys.modules if m.startswith('agentops.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    ).stdout
    assert out.strip() == "[]"


REQUIRED_HEADINGS = ["The failure", "The fix", "Posture", "What this does not catch", "Lineage"]


def _headings(doc: str) -> list[str]:
    """The docstring's headings: a line underlined by dashes of the same length."""
    lines = doc.splitlines()
    return [
        title.strip()
        for title, rule in itertools.pairwise(lines)
        if title.strip() and rule.strip() == "-" * len(title.strip())
    ]


@pytest.mark.parametrize("name", MODULE_FILES)
def test_module_docstring_follows_the_heading_schema(name: str) -> None:
    """The failure, the fix, the posture, (any other sections), the limits, the lineage."""
    schema = [_schema_heading(h) for h in _headings(ast.get_docstring(_tree(name)) or "")]
    assert [h for h in schema if h] == REQUIRED_HEADINGS, schema
    assert schema[:3] == REQUIRED_HEADINGS[:3]
    assert schema[-2:] == REQUIRED_HEADINGS[-2:]


def _schema_heading(heading: str) -> str:
    """The schema heading a docstring heading stands for ("" if none): a heading
    may carry a qualifier after the title ("WHAT THIS DOES NOT CATCH (each pinned
    by a test)", "The failure guarded against")."""
    for title in REQUIRED_HEADINGS:
        if heading.lower().startswith(title.lower()):
            return title
    return ""


def test_heading_schema_check_sees_a_wrong_order() -> None:
    doc = "Title.\n\nThe fix\n-------\nx\n\nThe failure\n-----------\ny\n"
    assert _headings(doc) == ["The fix", "The failure"]
    assert _headings("Posture\n----\n") == []  # the rule must match the title's length
    assert _schema_heading("WHAT THIS DOES NOT CATCH (each pinned)") == "What this does not catch"
    assert _schema_heading("Choices") == ""


@pytest.mark.parametrize("name", MODULE_FILES)
def test_module_shape(name: str) -> None:
    tree = _tree(name)
    assigned = [n for n in tree.body if isinstance(n, ast.Assign)]
    names = {getattr(t, "id", "") for n in assigned for t in n.targets}
    assert "__all__" in names
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert "_self_check" in functions


def _private_functions() -> dict[str, list[tuple[str, str]]]:
    """Private top-level function name -> [(module, source)] across all modules."""
    found: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for name in MODULE_FILES:
        source = (PACKAGE / f"{name}.py").read_text(encoding="utf-8")
        for node in ast.parse(source).body:
            if (
                isinstance(node, ast.FunctionDef)
                and node.name.startswith("_")
                and node.name != "_self_check"
            ):
                found[node.name].append((name, ast.get_source_segment(source, node) or ""))
    return found


def test_vendored_helpers_are_identical_copies() -> None:
    """A helper vendored into several modules (one file each, so no sharing) must stay
    one piece of logic: same name, same source. Different logic needs a different name."""
    differing = {
        helper: sorted(module for module, _ in copies)
        for helper, copies in _private_functions().items()
        if len({source for _, source in copies}) > 1
    }
    assert differing == {}


def test_pyproject_packaging_contract() -> None:
    tomllib = pytest.importorskip("tomllib")  # 3.11+; the other checks run everywhere
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    project = meta["project"]
    assert project["name"] != "agentops"  # that PyPI name belongs to an unrelated SDK
    assert project["dependencies"] == []
    assert project["requires-python"] == ">=3.10"
    assert project["scripts"]["agentops"] == "agentops.cli:main"
    assert meta["build-system"]["build-backend"] == "flit_core.buildapi"
    assert "version" not in project  # one place: agentops.__version__, read by flit
    assert project["dynamic"] == ["version"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", agentops.__version__)
    assert (PACKAGE / "py.typed").exists()


def test_ci_runs_the_readme_test_command() -> None:
    command = "python -m pip install -e '.[test]' && python -m pytest"
    assert command in (ROOT / "README.md").read_text(encoding="utf-8")
    assert command in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python -m agentops selfcheck" in (ROOT / "README.md").read_text(encoding="utf-8")


LLM_SDKS = (
    "openai",
    "anthropic",
    "google.generativeai",
    "google.genai",
    "cohere",
    "mistralai",
    "litellm",
    "langchain",
    "llama_index",
    "transformers",
    "groq",
    "ollama",
)


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: p.name)
def test_no_model_call_on_the_watch_path(path: Path) -> None:
    """Detectors report presence with zero model calls: no file of the package may
    import an LLM SDK (patterns/fail-soft-detectors.md)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    imported += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert not [m for m in imported if m.split(".")[0] in {s.split(".")[0] for s in LLM_SDKS}]


@pytest.mark.parametrize("name", MODULE_FILES)
def test_a_vendored_module_scans_clean_under_the_projects_own_scanners(name: str) -> None:
    """A user who vendors a module and also runs our pre-commit hooks must not be
    blocked by our own file: fixtures inside modules are glued from halves."""
    from agentops.hidden_chars import scan
    from agentops.secret_redaction import find_secret_shapes

    source = (PACKAGE / f"{name}.py").read_text(encoding="utf-8")
    assert find_secret_shapes(source) == ()
    assert scan(source).findings == ()
