"""The written protocols in patterns/: the eight files, their shape, their links and
the `python -m agentops ...` commands they quote."""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest
from support import ROOT, run_cli

from agentops.cli import build_parser

PATTERNS = ROOT / "patterns"

# The file name of each protocol, and the files it must link at least
# (the modules its spec names, plus the ones that implement its checks).
REQUIRED_LINKS: dict[str, tuple[str, ...]] = {
    "checks-that-cant-fail.md": (
        "agentops/cli/_common.py",
        "agentops/hidden_chars.py",
        "agentops/shadow_screen.py",
    ),
    "fail-soft-detectors.md": ("agentops/cli/_common.py", "tests/test_package.py"),
    "shadow-screen-states.md": ("agentops/shadow_screen.py",),
    "skill-regression-testing.md": ("agentops/shadow_screen.py",),
    "durability-tiered-write-governance.md": (
        "agentops/capability_grant.py",
        "agentops/scannable_command.py",
    ),
    "memory-promotion-is-a-privileged-write.md": (
        "agentops/promotion_gate.py",
        "agentops/hidden_chars.py",
    ),
    "two-boundaries-for-secrets.md": ("agentops/secret_redaction.py",),
    "agent-loop-guards.md": ("agentops/loop_guard.py", "agentops/claim_audit.py"),
}
NAMES = sorted(REQUIRED_LINKS)

# One heading scheme for every protocol, in this order.
SECTIONS = ["The failure", "The practice", "How to check", "Limits", "Modules"]
PRACTICE = "a practice, not an executable specification"
MIN_LINES, MAX_LINES = 40, 120

_LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")
_COMMAND = re.compile(r"python -m agentops ([^`\n]*)")
_COMMAND_END = re.compile(r"\s(?:<|>|\||&&|;|#)")


def _text(name: str) -> str:
    return (PATTERNS / name).read_text(encoding="utf-8")


def _links(text: str) -> list[str]:
    """Relative link targets (external links and in-page anchors left out)."""
    return [
        t
        for t in _LINK.findall(text)
        if not re.match(r"[a-z][a-z0-9+.-]*:", t) and not t.startswith("#")
    ]


def _resolved(name: str, target: str) -> Path:
    return (PATTERNS / target.split("#", 1)[0]).resolve()


def _commands(text: str) -> list[list[str]]:
    """Every `python -m agentops ...` the text quotes, as argv (redirections, pipes
    and trailing comments cut off)."""
    found = []
    for match in _COMMAND.findall(text):
        end = _COMMAND_END.search(match)
        found.append(shlex.split(match[: end.start()] if end else match))
    return found


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _command_path(argv: list[str]) -> list[str]:
    """The (sub-)command names of `argv`; raises AssertionError on an unknown one."""
    parser = build_parser()
    path: list[str] = []
    for token in argv:
        choices = _subcommands(parser)
        if not choices:
            break
        assert token in choices, f"{' '.join([*path, token])!r} is not an agentops command"
        parser, path = choices[token], [*path, token]
    assert path, f"no command in {argv!r}"
    return path


def test_exactly_the_eight_protocols_and_nothing_else() -> None:
    assert sorted(p.name for p in PATTERNS.iterdir()) == NAMES


def test_the_spec_list_has_eight_names() -> None:
    assert len(NAMES) == 8


@pytest.mark.parametrize("name", NAMES)
def test_length_is_40_to_120_lines(name: str) -> None:
    lines = _text(name).splitlines()
    assert MIN_LINES <= len(lines) <= MAX_LINES, len(lines)


@pytest.mark.parametrize("name", NAMES)
def test_states_it_is_a_practice(name: str) -> None:
    flat = " ".join(_text(name).split()).lower()
    assert PRACTICE in flat


@pytest.mark.parametrize("name", NAMES)
def test_title_then_the_five_sections_in_order(name: str) -> None:
    lines = _text(name).splitlines()
    assert lines[0].startswith("# ") and len(lines[0]) > len("# ") + 10
    assert [ln for ln in lines if ln.startswith("# ")] == [lines[0]]
    assert [ln[3:] for ln in lines if ln.startswith("## ")] == SECTIONS


@pytest.mark.parametrize("name", NAMES)
def test_every_section_has_content(name: str) -> None:
    parts = re.split(r"^## .*$", _text(name), flags=re.MULTILINE)
    assert len(parts) == len(SECTIONS) + 1
    for section, body in zip(SECTIONS, parts[1:], strict=True):
        assert len(body.strip().splitlines()) >= 4, section


@pytest.mark.parametrize("name", NAMES)
def test_every_relative_link_resolves(name: str) -> None:
    links = _links(_text(name))
    assert links
    for target in links:
        path = _resolved(name, target)
        assert path.is_file(), f"{name}: {target} does not resolve"
        assert ROOT in path.parents, f"{name}: {target} leaves the repository"


@pytest.mark.parametrize("name", NAMES)
def test_links_the_modules_it_is_about(name: str) -> None:
    linked = {_resolved(name, t) for t in _links(_text(name))}
    for required in REQUIRED_LINKS[name]:
        assert (ROOT / required).resolve() in linked, f"{name} does not link {required}"


@pytest.mark.parametrize("name", NAMES)
def test_every_quoted_command_is_real(name: str) -> None:
    commands = _commands(_text(name))
    assert commands, f"{name} quotes no python -m agentops command"
    parser = build_parser()
    modules = {p.stem for p in (ROOT / "agentops").glob("*.py") if not p.stem.startswith("_")}
    for argv in commands:
        path = _command_path(argv)
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                parser.parse_args(argv)
            except SystemExit as exc:
                pytest.fail(f"{name}: {shlex.join(argv)!r} does not parse: {exc} {err.getvalue()}")
        if path == ["selfcheck"]:
            assert set(argv[1:]) <= modules, argv


def test_the_command_extractor_sees_what_is_quoted() -> None:
    text = (
        'run `python -m agentops grant check --command "a b" --scope s --class c`\n'
        "    AGENTOPS_DISABLED=1 python -m agentops hook post-tool-use < event.json\n"
        "    python -m agentops selfcheck  # all modules\n"
    )
    assert _commands(text) == [
        ["grant", "check", "--command", "a b", "--scope", "s", "--class", "c"],
        ["hook", "post-tool-use"],
        ["selfcheck"],
    ]
    assert _command_path(["grant", "check", "--scope", "s"]) == ["grant", "check"]
    with pytest.raises(AssertionError):
        _command_path(["grant", "mintt"])
    with pytest.raises(AssertionError):
        _command_path(["scan-secret", "."])


def test_the_link_extractor_skips_external_links() -> None:
    text = "[a](../x.py) [b](https://example.org/y) [c](#here) [`d`](other.md#part)"
    assert _links(text) == ["../x.py", "other.md#part"]


@pytest.mark.parametrize("name", NAMES)
def test_no_paths_of_a_machine(name: str) -> None:
    text = _text(name)
    for marker in ("/work/", "/home/", "/tmp/", "/Users/", "C:\\", "~/"):
        assert marker not in text, marker


def test_no_hidden_characters() -> None:
    done = run_cli("hidden-chars", "--strict", "patterns", cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"swept {len(NAMES)} files (0 skipped)" in done.stdout


def test_no_secret_shapes() -> None:
    done = run_cli("scan-secrets", "--counts-only", "patterns", cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_self_audit_links_to_patterns_resolve() -> None:
    audit = (ROOT / "SELF-AUDIT.md").read_text(encoding="utf-8")
    targets = [t for t in _LINK.findall(audit) if t.startswith("patterns/")]
    assert targets
    for target in targets:
        assert (ROOT / target).is_file(), target
