"""`agentops hook loop-guard` and `agentops hook user-prompt-submit`: ration search loops.

`hook loop-guard` is a PreToolUse hook (Gemini CLI: BeforeTool) for search-like
tools (WebSearch, WebFetch, Grep, Glob, MCP tools). Each call is checked by
`loop_guard.check` against the counters of the current turn, kept per session
in the store directory (`_session_state`); the update is a locked
read-modify-write, so parallel tool calls in one turn (several hooks at once)
are all counted. When the guard says stop, the hook denies the call with a
reason written for the model: what was repeated, how many times, and that an
empty or exhausted search is not evidence of absence. Otherwise it has no
opinion (no output) and the normal permission flow applies.

- Every call counts toward the identical-call limit (`--max-identical`, 4):
  the fifth call with the same tool and the same arguments in a turn is denied.
- Tools named by `--budget-tool` (default `WebSearch` and Gemini's
  `google_web_search`; exact names or `prefix*`) are also budgeted:
  `--max-live` (12) live calls per tool per turn, and one query or a close
  rewording of it (`tool_input.query` when it is a string, else the arguments)
  at most `--max-per-query` (2) times.

A turn starts at each user prompt: `hook user-prompt-submit` (UserPromptSubmit;
Gemini CLI: BeforeAgent) clears the counters. When the hook input carries a
prompt or turn id (`prompt_id`, `turn_id`), a new id also starts a new turn.

Both fail OPEN: malformed input, an unsafe store or any error gives no output
(the call proceeds) and one line on stderr; the exit status is always 0.
`AGENTOPS_DISABLED=1` exits 0 with no output.
"""

from __future__ import annotations

import argparse
from typing import Any

from agentops.cli import _common, _hook_common, _session_state

LOOP = "loop-guard"
PROMPT = "user-prompt-submit"
DEFAULT_BUDGET_TOOLS = ("WebSearch", "google_web_search")
TURN_ID_FIELDS = ("prompt_id", "turn_id")
SHOWN_CHARS = 120
LIMITS = {"--max-identical": 4, "--max-live": 12, "--max-per-query": 2}
ABSENCE = (
    " An empty, failed or exhausted search is not evidence of absence: where something"
    " is still unknown, say that you did not find it, never that it does not exist."
)


def register(commands: _common.Subcommands, hooks: _common.Subcommands) -> None:
    guard = hooks.add_parser(
        LOOP, help="PreToolUse: deny search calls repeated past loop_guard's limits this turn"
    )
    guard.add_argument(
        "--budget-tool",
        nargs="*",
        action="extend",
        default=None,
        metavar="NAME",
        help="tools with a per-turn live budget (exact, or a prefix ending in *; "
        "default WebSearch google_web_search)",
    )
    for flag, default in LIMITS.items():
        guard.add_argument(flag, type=_count, default=default, metavar="N")
    _hook_common.add_harness_option(guard)
    _hook_common.add_store_option(guard)
    guard.set_defaults(run=run_guard, crash_exit=_common.EXIT_OK)

    prompt = hooks.add_parser(PROMPT, help="UserPromptSubmit: start a new turn for the loop guard")
    _hook_common.add_harness_option(prompt)
    _hook_common.add_store_option(prompt)
    prompt.set_defaults(run=run_prompt, crash_exit=_common.EXIT_OK)


def _count(text: str) -> int:
    """A positive count, or 0 for anything else (the default then applies): a
    typo in a fail-open hook's settings must not block tool calls (a usage
    error exits 2, which blocks a PreToolUse call)."""
    try:
        value = int(text)
    except ValueError:
        return 0
    return max(value, 0)


def _limits(args: argparse.Namespace) -> tuple[int, int, int]:
    """(max identical, max live, max per query), defaults standing in for bad values."""
    values = []
    for flag, default in LIMITS.items():
        given: int = getattr(args, flag[2:].replace("-", "_"))
        if given < 1:
            _hook_common.note(LOOP, f"{flag} must be a positive integer; using {default}")
        values.append(given if given >= 1 else default)
    return values[0], values[1], values[2]


def run_guard(args: argparse.Namespace) -> int:
    if _common.disabled():
        return _common.EXIT_OK
    try:
        reply = _guard_reply(args)
        if reply:
            _hook_common.emit(reply)
    except Exception as exc:  # fail open: a rationing bug must not stop tool calls
        _hook_common.note(LOOP, f"no opinion: {type(exc).__name__}: {exc}")
    return _common.EXIT_OK


def run_prompt(args: argparse.Namespace) -> int:
    if _common.disabled():
        return _common.EXIT_OK
    try:
        data = _hook_common.read_event()
        if not isinstance(data, dict):
            raise ValueError("hook input is not a JSON object")
        if _hook_common.dialect(data, args.harness, _hook_common.PROMPT) is None:
            return _common.EXIT_OK
        session = _session_id(data)
        marker = _turn_marker(data)

        def new_turn(state: dict[str, Any]) -> None:
            state["turn"] = marker
            state["loop"] = {}

        _session_state.update(_state_path(args.store, session), new_turn)
    except Exception as exc:  # fail open
        _hook_common.note(PROMPT, f"turn not reset: {type(exc).__name__}: {exc}")
    return _common.EXIT_OK


def _session_id(data: dict[str, Any]) -> str:
    session = data.get("session_id")
    if not isinstance(session, str) or not session:
        raise ValueError("hook input has no session_id")
    return session


def _turn_marker(data: dict[str, Any]) -> str | None:
    for field in TURN_ID_FIELDS:
        value = data.get(field)
        if isinstance(value, str) and value:
            return f"{field}:{value}"
    return None


def _state_path(store: str | None, session: str) -> str:
    return _session_state.session_path(_session_state.store_path(store), session)


def _budgeted(tool: str, patterns: list[str]) -> bool:
    return any(tool.startswith(p[:-1]) if p.endswith("*") else tool == p for p in patterns)


def _guard_reply(args: argparse.Namespace) -> dict[str, Any]:
    from agentops import loop_guard

    data = _hook_common.read_event()
    if not isinstance(data, dict):
        raise ValueError("hook input is not a JSON object")
    harness = _hook_common.dialect(data, args.harness, _hook_common.PRE_TOOL)
    if harness is None:
        return {}
    tool = data.get("tool_name")
    if not isinstance(tool, str) or not tool:
        raise ValueError("hook input has no tool_name")
    session = _session_id(data)
    arguments = data.get("tool_input")
    query = arguments.get("query") if isinstance(arguments, dict) else None
    patterns = list(DEFAULT_BUDGET_TOOLS if args.budget_tool is None else args.budget_tool)
    identical, live, per_query = _limits(args)
    config = loop_guard.GuardConfig(
        max_identical_calls=identical,
        max_live_per_turn=live,
        max_live_per_query=per_query,
        budget_tools=frozenset({tool} if _budgeted(tool, patterns) else ()),
    )
    marker = _turn_marker(data)

    def count(state: dict[str, Any]) -> Any:
        if marker is not None and state.get("turn") != marker:
            state["turn"], state["loop"] = marker, {}
        verdict = loop_guard.check(state.get("loop"), tool, arguments, query=query, config=config)
        state["loop"] = verdict.state._asdict()
        return verdict

    verdict = _session_state.update(_state_path(args.store, session), count)
    if verdict.action == loop_guard.RUN:
        return {}
    return _hook_common.tool_decision(harness, "deny", _reason(tool, verdict, config))


def _shown(text: str) -> str:
    flat = "".join(c if c.isprintable() else " " for c in text)
    return flat if len(flat) <= SHOWN_CHARS else flat[: SHOWN_CHARS - 3] + "..."


def _reason(tool: str, verdict: Any, config: Any) -> str:
    from agentops import loop_guard

    head = "agentops loop guard: "
    if verdict.action == loop_guard.STUB:
        body = (
            f"this exact {tool} call (the same arguments) is attempt number"
            f" {verdict.count} in this turn; the limit is {config.max_identical_calls}. The same"
            " call gives the same result: work with what you already have."
        )
    elif verdict.action == loop_guard.CACHED:
        body = (
            f"this {tool} query, or a close rewording of it"
            f" ('{_shown(verdict.matched_key)}'), already ran {config.max_live_per_query} times"
            " this turn. Rewording it again will not find anything new: use the results"
            " you already have."
        )
    else:
        body = (
            f"{verdict.live} live {tool} calls this turn used up its budget of"
            f" {config.max_live_per_turn}; further {tool} calls are refused for the rest of"
            " this turn however they are phrased. Finish with the material already gathered."
        )
    return head + body + ABSENCE
