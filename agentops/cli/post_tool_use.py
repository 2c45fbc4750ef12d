"""`agentops hook post-tool-use [--trusted NAME...]`: label untrusted tool results.

A Claude Code PostToolUse hook, registered for WebFetch, WebSearch and MCP
tools. It reads the PostToolUse JSON on stdin (common fields such as
`session_id`, `cwd`, `hook_event_name`, plus `tool_name`, `tool_input`,
`tool_response`, `tool_use_id`). For a tool that is not on the allowlist
(`--trusted`, exact names or `prefix*`, the rule of
`promotion_gate.provenance_tag`) it prints

    {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": ...}}

carrying the fixed provenance tag and, when `hidden_chars.scan` of the tool
response text finds invisible code points, the one-line warning naming each
code point (at most 20 distinct ones, then a count). It never rewrites the
tool output.

Fail OPEN, because a label cannot block anything and a broken label must not
break the tool loop: input that is not JSON, not an object, has no non-empty
`tool_name`, or names another hook event, and any error at all, all exit 0
with nothing on stdout. The whole reply is built before a single write, so an
error never leaves half a document behind. `AGENTOPS_DISABLED=1` exits 0 with
no output.

The tool response text is every string value inside `tool_response` (object
values, list items, or the response itself when it is a string), joined with
newlines in document order, so the warning's line and column count within that
joined text; object keys (field names chosen by the harness), numbers, booleans
and null are not scanned. A missing `tool_response` is scanned as empty text:
the tag is still added.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from agentops.cli import _common

HOOK_EVENT = "PostToolUse"
WARNING_LIMIT = 20


def register(commands: Any, hooks: Any) -> None:
    parser = hooks.add_parser(
        "post-tool-use",
        help="tag untrusted tool results with provenance; warn about hidden characters",
    )
    parser.add_argument(
        "--trusted",
        nargs="*",
        action="extend",
        default=[],
        metavar="NAME",
        help="tool names not to tag (exact, or a prefix ending in *)",
    )
    parser.set_defaults(run=run, crash_exit=_common.EXIT_OK)


def run(args: argparse.Namespace) -> int:
    if _common.disabled():
        return _common.EXIT_OK
    try:
        reply = _reply(_common.read_stdin_text(), list(args.trusted or ()))
        if reply:
            sys.stdout.write(reply + "\n")
            sys.stdout.flush()
    except Exception:  # fail open: no label is better than a broken tool loop
        pass
    return _common.EXIT_OK


def _reply(raw: str, trusted: list[str]) -> str:
    """The hook's whole stdout ("" for none)."""
    from agentops import hidden_chars, promotion_gate

    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return ""
    if not isinstance(data, dict):
        return ""
    tool = data.get("tool_name")
    event = data.get("hook_event_name", HOOK_EVENT)
    if not isinstance(tool, str) or not tool.strip() or event != HOOK_EVENT:
        return ""
    tag = promotion_gate.provenance_tag(tool, trusted=trusted)
    if not tag:
        return ""
    result = hidden_chars.scan(_response_text(data.get("tool_response")))
    alert = hidden_chars.warning(result, limit=WARNING_LIMIT)
    context = f"{tag}\n{alert}" if alert else tag
    return json.dumps(
        {"hookSpecificOutput": {"hookEventName": HOOK_EVENT, "additionalContext": context}}
    )


def _response_text(response: object) -> str:
    """Every string inside `response`, in document order, joined by newlines."""
    parts: list[str] = []
    stack: list[object] = [response]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return "\n".join(parts)
