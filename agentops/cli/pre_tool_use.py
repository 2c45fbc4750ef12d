"""`agentops hook pre-tool-use`: the Claude Code PreToolUse hook adapter for Bash.

Reads one hook event on stdin, applies the policy's deny rules (`_policy.judge`,
built on `scannable_command.judge_command`), then spends a matching single-use
grant from the store (`_grant_store`), then asks when the gate was blind.

Malformed input, an unusable policy or any unexpected error -> one stderr line,
exit 2 (blocks the call). A non-Bash tool -> exit 0, no output. Deny rules first
(a grant never overrides a deny; a failed audit append is reported on stderr and
the deny stands), then class resolution and atomic consumption (success -> an
`allow` decision naming the grant id: the person who minted it saw this exact
command), then, when the gate could not see what the command runs where a rule
could care and the policy's `when_blind` is "ask" (the default), an `ask`
decision whose reason names the construct; otherwise no output. Every input up to
`MAX_HOOK_INPUT_BYTES` is decided within the time budget: a command longer than
`scannable_command.MAX_COMMAND_CHARS` is asked about, never scanned slowly.
`AGENTOPS_DISABLED=1` makes the hook exit 0 with no output, like every agentops
hook (the normal permission flow applies).
"""

from __future__ import annotations

import argparse
import json
import sys

from agentops.cli import _common, _grant_store, _policy
from agentops.cli._common import Refusal

HOOK_EVENT = "PreToolUse"
MAX_HOOK_INPUT_BYTES = 1024 * 1024


def register(commands: _common.Subcommands, hooks: _common.Subcommands) -> None:
    hook = hooks.add_parser(
        "pre-tool-use",
        help="Claude Code PreToolUse hook for Bash: deny rules, then single-use grants",
    )
    hook.add_argument(
        "--scope", required=True, metavar="S", help="the scope this hook configuration grants for"
    )
    _policy.add_policy_option(hook)
    _grant_store.add_store_options(hook)
    hook.set_defaults(run=run_hook)


class _Malformed(Exception):
    pass


def _hook_command(raw: bytes) -> tuple[str | None, str]:
    """(command or None for a non-Bash tool, tool name); _Malformed on bad input."""
    from agentops.capability_grant import normalize_command

    if len(raw) > MAX_HOOK_INPUT_BYTES:
        raise _Malformed(f"input larger than {MAX_HOOK_INPUT_BYTES} bytes")
    try:
        document = _common.loads_strict(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise _Malformed(f"not strict UTF-8 JSON: {exc}") from None
    if type(document) is not dict:
        raise _Malformed("not a JSON object")
    if document.get("hook_event_name") != HOOK_EVENT:
        raise _Malformed(f"hook_event_name is not {HOOK_EVENT}")
    tool_name = document.get("tool_name")
    if type(tool_name) is not str:
        raise _Malformed("tool_name is not a string")
    if tool_name != "Bash":
        return None, tool_name
    tool_input = document.get("tool_input")
    if type(tool_input) is not dict:
        raise _Malformed("tool_input is not an object")
    command = tool_input.get("command")
    if type(command) is not str or not normalize_command(command):
        raise _Malformed("tool_input.command is not a non-empty string")
    return command, tool_name


def _decision(kind: str, reason: str) -> str:
    return json.dumps(
        {
            "hookSpecificOutput": {
                "hookEventName": HOOK_EVENT,
                "permissionDecision": kind,
                "permissionDecisionReason": reason,
            }
        },
        ensure_ascii=True,
    )


def run_hook(args: argparse.Namespace) -> int:
    if _common.disabled():
        return _common.EXIT_OK
    try:
        reply = _hook(args, sys.stdin.buffer.read(MAX_HOOK_INPUT_BYTES + 1))
    except _Malformed as exc:
        _common.say_error(f"pre-tool-use: malformed hook input ({exc}); blocking")
        return _common.EXIT_USAGE
    except (Refusal, _grant_store.StoreError) as exc:
        _common.say_error(f"pre-tool-use: {exc}; blocking")
        return _common.EXIT_USAGE
    except Exception as exc:  # exit 1 would let the call proceed; 2 blocks it
        _common.say_error(f"pre-tool-use: internal error: {type(exc).__name__}: {exc}; blocking")
        return _common.EXIT_USAGE
    if reply:
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()
    return _common.EXIT_OK


def _hook(args: argparse.Namespace, raw: bytes) -> str | None:
    """The decision to print, or None for no opinion. Raises on malformed input."""
    from agentops.capability_grant import GrantQuery

    now = _common.utc_now()
    scope = args.scope
    if not scope.strip():
        raise Refusal("--scope is blank")
    command, _tool = _hook_command(raw)
    if command is None:
        return None
    policy = _policy.load_policy(_policy.policy_path(args))
    store = _grant_store.GrantStore(
        _grant_store.store_path(args),
        audit_log=getattr(args, "audit", None),
        on_warning=_common.say_error,
    )
    gate = _policy.judge(policy, command)
    rule = gate.rule
    if gate.decision == "deny" and rule is not None:
        try:
            store.record_denial(command, scope=scope, rule_id=rule.id, now=now)
        except _grant_store.StoreError as exc:
            _common.say_error(f"pre-tool-use: audit append failed ({exc}); deny stands")
        reason = rule.reason or "denied by policy"
        return _decision("deny", f"agentops policy rule {rule.id}: {reason}")
    classes = _policy.classes_for(policy, command)
    if len(classes) != 1:
        return _ask_when_blind(gate)  # no class, or an ambiguous one: no grant applies
    query = GrantQuery(command, scope, classes[0], now)
    try:
        used = store.consume(query, policy.allowed, note="hook pre-tool-use")
    except _grant_store.AuditFailed as exc:
        _common.say_error(f"pre-tool-use: {exc}")
        used = None
    if used is None:
        return _ask_when_blind(gate)
    return _decision(
        "allow",
        f"agentops capability grant {used.id} "
        f"(class {used.action_class}, single use, now consumed)",
    )


def _ask_when_blind(gate: _policy.GateDecision) -> str | None:
    """An `ask` decision when the gate could not see what runs; else no opinion."""
    if gate.decision != "ask":
        return None
    concern = f" (rule {gate.rule.id} could match)" if gate.rule is not None else ""
    return _decision("ask", f"agentops cannot see what this command runs: {gate.reason}{concern}")
