"""`agentops hook post-tool-use [--redact] [--trusted NAME...]`: label and clean tool results.

A PostToolUse hook (Gemini CLI: AfterTool). It reads the event JSON on stdin
(`session_id`, `hook_event_name`, `tool_name`, `tool_input`, `tool_response`, ...)
and answers with at most one object:

- **Provenance.** For a tool not on the allowlist (`--trusted`, exact names or
  `prefix*`, the rule of `promotion_gate.provenance_tag`) the answer's
  `additionalContext` carries the fixed provenance tag and, when
  `hidden_chars.scan` finds invisible code points in the response, a warning
  naming them (at most 20 distinct ones, then a count). The tool is recorded in
  the session's state (`sources`), which `hook memory-write` reads.
- **Redaction** (`--redact`). `tool_response` goes through
  `secret_redaction.redact_json_like` (every string, object keys included,
  through `redact_secret_shapes`); when anything was replaced, the response
  comes back in the same shape with only those spans changed:
  `hookSpecificOutput.updatedMCPToolOutput` for an MCP tool (`mcp__...`),
  `hookSpecificOutput.updatedToolOutput` for a built-in tool (Claude Code 2.1.121
  and later; Codex CLI accepts only the MCP field, so built-in output is not
  replaced there), and `hookSpecificOutput.tool_output` (the redacted text of
  `llmContent`) for Gemini CLI.

The response is parsed and walked with explicit stacks, so no nesting depth
silences the hook. The hook only runs for tools its matcher names, so input it
cannot parse at all still gets the provenance tag (naming an unknown tool).

Fail OPEN: a label and a redaction can block nothing, and a broken hook must
not break the tool loop. Input that names another event or has no tool name
gives no output; any internal error gives no output and one stderr line; exit
status is always 0. The reply is built before a single write.
`AGENTOPS_DISABLED=1` exits 0 with no output.

The response text scanned for hidden characters is every string value inside
`tool_response` in document order, joined by newlines (the warning's line and
column count within it); object keys, numbers, booleans and null are not
scanned. A missing `tool_response` is scanned as empty text.
"""

from __future__ import annotations

import argparse
from typing import Any

from agentops.cli import _common, _hook_common, _hook_json, _session_state

WARNING_LIMIT = 20
UNPARSED_SOURCE = "an unknown tool (hook input not parsed)"
MAX_RECORDED_SOURCES = 64
HOOK = "post-tool-use"


def register(commands: _common.Subcommands, hooks: _common.Subcommands) -> None:
    parser = hooks.add_parser(
        HOOK,
        help="tag untrusted tool results with provenance; warn about hidden characters; "
        "optionally redact secrets before the model reads them",
    )
    parser.add_argument(
        "--trusted",
        nargs="*",
        action="extend",
        default=[],
        metavar="NAME",
        help="tool names not to tag (exact, or a prefix ending in *)",
    )
    parser.add_argument(
        "--redact",
        action="store_true",
        help="replace secret-shaped spans in the tool output before the model reads it",
    )
    _hook_common.add_harness_option(parser)
    _hook_common.add_store_option(parser)
    parser.set_defaults(run=run, crash_exit=_common.EXIT_OK)


def run(args: argparse.Namespace) -> int:
    if _common.disabled():
        return _common.EXIT_OK
    try:
        reply = _reply(args)
        if reply:
            _hook_common.emit(reply)
    except Exception as exc:  # fail open: no label is better than a broken tool loop
        _hook_common.note(HOOK, f"internal error, no output: {type(exc).__name__}")
    return _common.EXIT_OK


def _reply(args: argparse.Namespace) -> dict[str, Any]:
    """The hook's whole answer ({} for none)."""
    from agentops import promotion_gate

    trusted = list(args.trusted or ())
    try:
        data = _hook_common.read_event()
    except ValueError:
        data = None
    if not isinstance(data, dict):
        tag = promotion_gate.provenance_tag(UNPARSED_SOURCE)
        event = _hook_common.event_name(args.harness, _hook_common.POST_TOOL)
        return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": tag}}
    harness = _hook_common.dialect(data, args.harness, _hook_common.POST_TOOL)
    tool = data.get("tool_name")
    if harness is None or not isinstance(tool, str) or not tool.strip():
        return {}
    response = data.get("tool_response")
    inner: dict[str, Any] = {}
    tag = promotion_gate.provenance_tag(tool, trusted=trusted)
    if tag:
        inner["additionalContext"] = _with_warning(tag, response)
        _record_source(args.store, data.get("session_id"), tool)
    if args.redact:
        inner.update(_redaction(harness, tool, response))
    if not inner:
        return {}
    event = _hook_common.event_name(harness, _hook_common.POST_TOOL)
    return {"hookSpecificOutput": {"hookEventName": event, **inner}}


def _with_warning(tag: str, response: object) -> str:
    from agentops import hidden_chars

    result = hidden_chars.scan(_response_text(response))
    alert = hidden_chars.warning(result, limit=WARNING_LIMIT)
    return f"{tag}\n{alert}" if alert else tag


def _record_source(store: str | None, session_id: object, tool: str) -> None:
    """Note in the session's state that it took in output from `tool` (fail open)."""
    if not isinstance(session_id, str) or not session_id:
        return

    def add(state: dict[str, Any]) -> None:
        sources = state.get("sources")
        sources = [s for s in sources if isinstance(s, str)] if isinstance(sources, list) else []
        if tool not in sources and len(sources) < MAX_RECORDED_SOURCES:
            sources.append(tool)
        elif tool not in sources:
            sources[-1] = tool  # keep the list bounded; any entry means "tainted"
        state["sources"] = sources

    try:
        path = _session_state.session_path(_session_state.store_path(store), session_id)
        _session_state.update(path, add)
    except (OSError, ValueError) as exc:
        _hook_common.note(HOOK, f"provenance not recorded: {exc}")


def _redaction(harness: str, tool: str, response: object) -> dict[str, Any]:
    """The output-replacing field for `response`, or {} when nothing was redacted."""
    if harness == _hook_common.GEMINI:
        content = response.get("llmContent") if isinstance(response, dict) else response
        original = content if isinstance(content, str) else _response_text(content)
        text = redacted(original)
        return {} if text is None else {"tool_output": text}
    cleaned = redacted(response)
    if cleaned is None:
        return {}
    if tool.startswith("mcp__"):
        return {"updatedMCPToolOutput": cleaned}
    if harness == _hook_common.CODEX:
        return {}  # Codex replaces MCP output only
    return {"updatedToolOutput": cleaned}


def redacted(value: Any) -> Any | None:
    """`value` in the same shape with every string (keys included) passed through
    `redact_secret_shapes`, or None when that changes nothing. The input is not
    changed; both walks are iterative, so no nesting depth raises."""
    from agentops.secret_redaction import redact_json_like

    cleaned = redact_json_like(value)
    if _hook_json.dumps(cleaned) == _hook_json.dumps(value):
        return None
    return cleaned


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
