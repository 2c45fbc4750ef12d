"""The gate's policy file: loading it strictly, deny rules, and grant-class resolution.

Policy file (JSON, default `~/.agentops/policy.json`, `--policy`):
`{"schema_version": 1, "when_blind"?: "ask" | "pass", "deny": [{"id", "pattern",
"reason"?, "ignore_case"?, "match"?: "text" | "command"}], "grant_classes":
{"<class>": ["<pattern>", ...]}}`. `deny` and `grant_classes` may be left out
(empty). A deny rule is a Python regular expression matched (search) against the
views `scannable_command.judge_command` builds: one per simple command (the
canonical argv joined by spaces, a blank inside one argument shown as U+2420) and
one per pipeline, plus, with `match` "text" (the default, as before the key
existed), the raw command and its legacy scannable form; any match denies. With
`match` "command" the rule sees parsed commands only, so a commit message that
mentions `--no-verify` is not that flag.
`when_blind` (default "ask") says what the hook answers when it cannot see what a
command runs where a rule could care (an unknown variable, a non-literal
substitution or glob as an argument a rule could match, `eval "$X"`, a decoded
payload piped into a shell, text that does not parse or is too long to check in
the time budget): "ask" puts the command in front of the person with the reason;
"pass" gives no opinion, so the normal permission flow applies. A policy written
before the setting existed stays valid and gets "ask". Duplicate keys anywhere,
unknown keys, a wrong `when_blind`, a wrong `schema_version`, a wrong type, a
blank or duplicated rule id, a class name that is blank or carries surrounding
whitespace, an empty pattern list, more than `MAX_ALLOWED_CLASSES` classes, or a
pattern that does not compile make the whole policy unusable (exit 2; the hook
blocks). The policy file may be a symlink (a dotfiles checkout); it must be a
regular file of at most `MAX_POLICY_BYTES`. A starter policy that holds against
the obfuscations the lexer sees through is `examples/policy.json`.
"""

from __future__ import annotations

import argparse
import re
from typing import NamedTuple

from agentops.cli import _common
from agentops.cli._common import Refusal

POLICY_SCHEMA_VERSION = 1
MAX_POLICY_BYTES = 4 * 1024 * 1024
_POLICY_KEYS = frozenset({"schema_version", "when_blind", "deny", "grant_classes"})
WHEN_BLIND_CHOICES = ("ask", "pass")
_RULE_KEYS = frozenset({"id", "pattern", "reason", "ignore_case", "match"})
MATCH_CHOICES = ("text", "command")


class DenyRule(NamedTuple):
    id: str
    pattern: re.Pattern[str]
    reason: str | None
    match: str = "text"  # "command": only the parsed views of simple commands


class Policy(NamedTuple):
    deny: tuple[DenyRule, ...]
    classes: tuple[tuple[str, tuple[re.Pattern[str], ...]], ...]
    when_blind: str = "ask"

    @property
    def allowed(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.classes)


def add_policy_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--policy", metavar="PATH", help="policy file (default ~/.agentops/policy.json)"
    )


def policy_path(args: argparse.Namespace) -> str:
    return str(getattr(args, "policy", None) or _common.agentops_home("policy.json"))


def _compile(pattern: object, flags: int, where: str) -> re.Pattern[str]:
    if type(pattern) is not str:
        raise Refusal(f"{where}: pattern must be a string")
    try:
        return re.compile(pattern, flags)
    except (re.error, RecursionError, OverflowError) as exc:
        raise Refusal(f"{where}: pattern does not compile: {exc}") from None


def policy_from_document(document: object) -> Policy:
    """A usable policy from a parsed document, or Refusal naming what is wrong."""
    from agentops.capability_grant import MAX_ALLOWED_CLASSES

    if type(document) is not dict:
        raise Refusal("top level must be a JSON object")
    unknown = sorted(set(document) - _POLICY_KEYS)
    if unknown:
        raise Refusal(f"unknown key {unknown[0]!r}")
    version = document.get("schema_version")
    if type(version) is not int or version != POLICY_SCHEMA_VERSION:
        raise Refusal(f"schema_version must be {POLICY_SCHEMA_VERSION}")
    when_blind = document.get("when_blind", "ask")
    if type(when_blind) is not str or when_blind not in WHEN_BLIND_CHOICES:
        raise Refusal('when_blind must be "ask" or "pass"')
    deny = document.get("deny", [])
    if type(deny) is not list:
        raise Refusal("deny must be a list")
    rules: list[DenyRule] = []
    seen: set[str] = set()
    for index, entry in enumerate(deny):
        where = f"deny[{index}]"
        if type(entry) is not dict:
            raise Refusal(f"{where} must be an object")
        extra = sorted(set(entry) - _RULE_KEYS)
        if extra:
            raise Refusal(f"{where}: unknown key {extra[0]!r}")
        rule_id = entry.get("id")
        if type(rule_id) is not str or not rule_id.strip():
            raise Refusal(f"{where}: id must be a non-empty string")
        if rule_id in seen:
            raise Refusal(f"{where}: duplicated rule id {rule_id!r}")
        seen.add(rule_id)
        reason = entry.get("reason")
        if reason is not None and type(reason) is not str:
            raise Refusal(f"{where}: reason must be a string")
        ignore_case = entry.get("ignore_case", False)
        if type(ignore_case) is not bool:
            raise Refusal(f"{where}: ignore_case must be true or false")
        if "pattern" not in entry:
            raise Refusal(f"{where}: pattern is missing")
        match = entry.get("match", "text")
        if type(match) is not str or match not in MATCH_CHOICES:
            raise Refusal(f'{where}: match must be "text" or "command"')
        flags = re.IGNORECASE if ignore_case else 0
        pattern = _compile(entry["pattern"], flags, where)
        rules.append(DenyRule(rule_id, pattern, reason, match))
    grant_classes = document.get("grant_classes", {})
    if type(grant_classes) is not dict:
        raise Refusal("grant_classes must be an object")
    if len(grant_classes) > MAX_ALLOWED_CLASSES:
        raise Refusal(f"more than {MAX_ALLOWED_CLASSES} grant classes")
    classes: list[tuple[str, tuple[re.Pattern[str], ...]]] = []
    for name, patterns in grant_classes.items():
        where = f"grant_classes[{name!r}]"
        if not name.strip() or name != name.strip():
            raise Refusal(f"{where}: a class name must be non-blank with no surrounding spaces")
        if type(patterns) is not list or not patterns:
            raise Refusal(f"{where} must be a non-empty list of patterns")
        classes.append((name, tuple(_compile(p, 0, where) for p in patterns)))
    return Policy(tuple(rules), tuple(classes), when_blind)


def load_policy(path: str) -> Policy:
    """The policy at `path`; any problem raises Refusal (the policy is unusable)."""
    try:
        data = _common.read_regular(path, limit=MAX_POLICY_BYTES, follow_links=True)
    except _common.FileNotRead as exc:
        raise Refusal(f"policy unusable: {path}: cannot read: {exc}") from None
    try:
        document = _common.loads_strict(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise Refusal(f"policy unusable: {path}: not strict JSON: {exc}") from None
    try:
        return policy_from_document(document)
    except Refusal as exc:
        raise Refusal(f"policy unusable: {path}: {exc}") from None


def classes_for(policy: Policy, command: str) -> list[str]:
    """The grant classes whose patterns match `command` (raw or normalized view)."""
    from agentops.scannable_command import matches_raw_or_scannable

    return [
        name
        for name, patterns in policy.classes
        if any(matches_raw_or_scannable(p, command) for p in patterns)
    ]


class GateDecision(NamedTuple):
    """What the deny rules say about one command: "deny", "ask" or "none"."""

    decision: str
    rule: DenyRule | None  # the deny rule that matched (or that a blind word could match)
    reason: str  # for "ask": what the gate could not see through


def judge(policy: Policy, command: str) -> GateDecision:
    """The deny rules applied to `command` in bounded time; blind spots per `when_blind`."""
    from agentops.scannable_command import judge_command

    commands_only = [index for index, rule in enumerate(policy.deny) if rule.match == "command"]
    patterns = [rule.pattern for rule in policy.deny]
    verdict = judge_command(patterns, command, commands_only=commands_only)
    rule = policy.deny[verdict.rule] if verdict.rule >= 0 else None
    if verdict.decision == "deny":
        return GateDecision("deny", rule, "")
    if verdict.decision == "ask" and policy.when_blind == "ask":
        return GateDecision("ask", rule, verdict.reason)
    return GateDecision("none", None, "")
