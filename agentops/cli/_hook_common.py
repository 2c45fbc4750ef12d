"""What the agentops hooks share: harness dialects, reading the event, answering.

Three harnesses speak nearly the same hook protocol (JSON on stdin, at most one
JSON object on stdout):

- Claude Code and OpenAI Codex CLI: events `PreToolUse`, `PostToolUse`,
  `UserPromptSubmit`, `Stop`; a PreToolUse answer is
  `hookSpecificOutput.permissionDecision` (`allow`/`deny`/`ask`) with
  `permissionDecisionReason`; a Stop answer is `{"decision": "block", "reason"}`.
- Gemini CLI: events `BeforeTool`, `AfterTool`, `BeforeAgent`, `AfterAgent`;
  answers are top-level `{"decision": "deny", "reason"}` (no `ask`).

The dialect is read from `hook_event_name` when the input names a Gemini event,
else from `--harness` (default `claude`).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from agentops.cli import _common, _hook_json

CLAUDE = "claude"
CODEX = "codex"
GEMINI = "gemini"
HARNESSES = (CLAUDE, CODEX, GEMINI)

# (Claude Code / Codex name, Gemini name) of each event the hooks handle.
PRE_TOOL = ("PreToolUse", "BeforeTool")
POST_TOOL = ("PostToolUse", "AfterTool")
PROMPT = ("UserPromptSubmit", "BeforeAgent")
STOP = ("Stop", "AfterAgent")


def add_harness_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--harness",
        choices=HARNESSES,
        default=CLAUDE,
        help="the harness that runs the hook (default claude; Gemini events are recognised)",
    )


def add_store_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--store", metavar="DIR", help="state directory (default ~/.agentops)")


def read_event() -> Any:
    """The hook input parsed as JSON at any depth. Raises ValueError when it is not JSON."""
    return _hook_json.loads(_common.read_stdin_text())


def dialect(data: dict[str, Any], harness: str, event: tuple[str, str]) -> str | None:
    """The harness dialect of `data` for `event`, or None when it names another event.
    A missing `hook_event_name` is taken as the expected one."""
    if "hook_event_name" not in data:
        return harness
    name = data["hook_event_name"]
    if name == event[1]:
        return GEMINI
    if name == event[0]:
        return CODEX if harness == CODEX else CLAUDE
    return None


def event_name(harness: str, event: tuple[str, str]) -> str:
    return event[1] if harness == GEMINI else event[0]


def tool_decision(harness: str, decision: str, reason: str) -> dict[str, Any]:
    """A PreToolUse / BeforeTool answer. Gemini has no `ask`: it becomes `deny`."""
    if harness == GEMINI:
        return {"decision": "deny", "reason": reason}
    return {
        "hookSpecificOutput": {
            "hookEventName": PRE_TOOL[0],
            "permissionDecision": decision,
            "permissionDecisionReason": reason,
        }
    }


def emit(document: dict[str, Any]) -> None:
    """The hook's one JSON object on stdout, written in one piece."""
    sys.stdout.write(_hook_json.dumps(document) + "\n")
    sys.stdout.flush()


def note(hook: str, message: str) -> None:
    """The one stderr line a failing-open hook leaves behind."""
    _common.say_error(f"hook {hook}: {message}")


def text_of(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
