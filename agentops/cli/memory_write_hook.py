"""`agentops hook memory-write`: a person approves what enters durable memory.

A PreToolUse hook (Gemini CLI: BeforeTool) for the file-writing tools (Write,
Edit, MultiEdit; Gemini's write_file, replace and save_memory). A write into a
memory location goes through the promotion gate's rules:

- the session has taken in outside content (`promotion_gate.session_tainted`
  over the untrusted tools `hook post-tool-use` recorded for this session), or
- the new text carries hidden characters (`hidden_chars.scan`),

and then the hook answers `ask` with the reason, so a person approves the
write. Otherwise it has no opinion (no output). A write anywhere else is not
its business (no output).

Memory locations by default: Claude Code's auto-memory directories
(`~/.claude/projects/*/memory/`), and every file named `CLAUDE.md`,
`CLAUDE.local.md`, `AGENTS.md` or `GEMINI.md`. `--memory-glob GLOB` adds
shell-style patterns matched against the absolute path (`*` also matches `/`);
`--no-default-memory` drops the defaults. The target path is checked both as
written and with symbolic links resolved.

Fail CLOSED: writing durable memory is the privileged write, so input that is
not a JSON object, a memory write whose path, text or session cannot be read,
a session state that cannot be read and any internal error all answer `ask`
(Gemini CLI has no `ask`: there the answer is `deny` with the reason). The exit
status is always 0. `AGENTOPS_DISABLED=1` exits 0 with no output.
"""

from __future__ import annotations

import argparse
import fnmatch
import os
from typing import Any

from agentops.cli import _common, _hook_common, _session_state

HOOK = "memory-write"
MEMORY_FILE_NAMES = ("CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "GEMINI.md")
DEFAULT_MEMORY_GLOBS = ("~/.claude/projects/*/memory/*",)
# Tool name -> (field holding the path, fields holding the new text).
WRITE_TOOLS: dict[str, tuple[str | None, tuple[str, ...]]] = {
    "Write": ("file_path", ("content",)),
    "Edit": ("file_path", ("new_string",)),
    "MultiEdit": ("file_path", ("edits",)),
    "write_file": ("file_path", ("content",)),
    "replace": ("file_path", ("new_string",)),
    "save_memory": (None, ("fact",)),
}
GEMINI_MEMORY_FILE = "~/.gemini/GEMINI.md"
SHOWN_SOURCES = 5


class Unreadable(ValueError):
    """The input does not say clearly enough what is written where."""


def register(commands: _common.Subcommands, hooks: _common.Subcommands) -> None:
    parser = hooks.add_parser(
        HOOK, help="PreToolUse: ask a person before a tainted session writes durable memory"
    )
    parser.add_argument(
        "--memory-glob",
        nargs="*",
        action="extend",
        default=[],
        metavar="GLOB",
        help="more memory locations (shell patterns on the absolute path)",
    )
    parser.add_argument(
        "--no-default-memory",
        action="store_true",
        help="do not treat CLAUDE.md, AGENTS.md, GEMINI.md and ~/.claude/projects/*/memory/ "
        "as memory",
    )
    parser.add_argument(
        "--trusted",
        nargs="*",
        action="extend",
        default=[],
        metavar="NAME",
        help="recorded tools that do not taint the session (exact, or a prefix ending in *)",
    )
    _hook_common.add_harness_option(parser)
    _hook_common.add_store_option(parser)
    parser.set_defaults(run=run, crash_exit=_common.EXIT_OK)


def run(args: argparse.Namespace) -> int:
    if _common.disabled():
        return _common.EXIT_OK
    try:
        reply = _reply(args)
    except Exception as exc:  # fail closed: ask a person
        reason = (
            "agentops memory gate: could not check this write"
            f" ({type(exc).__name__}: {exc}); a person should approve it."
        )
        _hook_common.note(HOOK, f"asking: {type(exc).__name__}: {exc}")
        reply = _hook_common.tool_decision(args.harness, "ask", reason)
    if reply:
        _hook_common.emit(reply)
    return _common.EXIT_OK


def _reply(args: argparse.Namespace) -> dict[str, Any]:
    from agentops import hidden_chars, promotion_gate

    data = _hook_common.read_event()
    if not isinstance(data, dict):
        raise Unreadable("hook input is not a JSON object")
    harness = _hook_common.dialect(data, args.harness, _hook_common.PRE_TOOL)
    if harness is None:
        return {}
    tool = data.get("tool_name")
    if not isinstance(tool, str) or tool not in WRITE_TOOLS:
        return {}
    arguments = data.get("tool_input")
    if not isinstance(arguments, dict):
        raise Unreadable("tool_input is not an object")
    path_field, text_fields = WRITE_TOOLS[tool]
    path = _target(arguments, path_field, data.get("cwd"))
    if not _is_memory(path, args):
        return {}
    text = _new_text(arguments, text_fields)
    session = data.get("session_id")
    if not isinstance(session, str) or not session:
        raise Unreadable("hook input has no session_id")
    state = _session_state.read(
        _session_state.session_path(_session_state.store_path(args.store), session)
    )
    sources = state.get("sources", []) if state else []
    if not isinstance(sources, list):
        raise Unreadable("the session's provenance record is malformed")
    reasons: list[str] = []
    if promotion_gate.session_tainted(sources, trusted=list(args.trusted)):
        shown = ", ".join(str(s) for s in sources[:SHOWN_SOURCES])
        more = f" and {len(sources) - SHOWN_SOURCES} more" if len(sources) > SHOWN_SOURCES else ""
        reasons.append(
            f"this session has read outside content ({shown}{more}), so what is written"
            " may carry instructions nobody here wrote"
        )
    scan = hidden_chars.scan(text)
    if scan.findings:
        reasons.append(hidden_chars.warning(scan, limit=10))
    if not reasons:
        return {}
    reason = (
        f"agentops memory gate: {tool} writes durable memory ({path}); "
        + "; ".join(reasons)
        + ". A person should approve what enters memory."
    )
    return _hook_common.tool_decision(harness, "ask", reason)


def _target(arguments: dict[str, Any], field: str | None, cwd: object) -> str:
    """The absolute path written to."""
    if field is None:  # Gemini's save_memory: its global memory file
        return os.path.expanduser(GEMINI_MEMORY_FILE)
    path = arguments.get(field)
    if not isinstance(path, str) or not path or "\x00" in path:
        raise Unreadable(f"tool_input.{field} is not a path")
    path = os.path.expanduser(path)
    if not os.path.isabs(path):
        if not isinstance(cwd, str) or not os.path.isabs(cwd):
            raise Unreadable("a relative path and no absolute cwd")
        path = os.path.join(cwd, path)
    return os.path.normpath(path)


def _is_memory(path: str, args: argparse.Namespace) -> bool:
    candidates = {path, os.path.realpath(path)}
    globs = [] if args.no_default_memory else list(DEFAULT_MEMORY_GLOBS)
    globs += list(args.memory_glob)
    patterns = [os.path.expanduser(g) for g in globs]
    for candidate in candidates:
        if not args.no_default_memory and os.path.basename(candidate) in MEMORY_FILE_NAMES:
            return True
        if any(fnmatch.fnmatchcase(candidate, pattern) for pattern in patterns):
            return True
    return False


def _new_text(arguments: dict[str, Any], fields: tuple[str, ...]) -> str:
    parts: list[str] = []
    for field in fields:
        value = arguments.get(field)
        if field == "edits" and isinstance(value, list):
            for edit in value:
                new = edit.get("new_string") if isinstance(edit, dict) else None
                if not isinstance(new, str):
                    raise Unreadable("an edit without new_string")
                parts.append(new)
        elif isinstance(value, str):
            parts.append(value)
        else:
            raise Unreadable(f"tool_input.{field} is not text")
    return "\n".join(parts)
