"""The gate's policy file: loading it strictly, deny rules, and grant-class resolution.

Policy file (JSON, default `~/.agentops/policy.json`, `--policy`):
`{"schema_version": 1, "deny": [{"id", "pattern", "reason"?, "ignore_case"?}],
"grant_classes": {"<class>": ["<pattern>", ...]}}`. `deny` and `grant_classes`
may be left out (empty). Duplicate keys anywhere, unknown keys, a wrong
`schema_version`, a wrong type, a blank or duplicated rule id, a class name that
is blank or carries surrounding whitespace, an empty pattern list, more than
`MAX_ALLOWED_CLASSES` classes, or a pattern that does not compile make the whole
policy unusable (exit 2; the hook blocks). The policy file may be a symlink (a
dotfiles checkout); it must be a regular file of at most `MAX_POLICY_BYTES`.
"""

from __future__ import annotations

import argparse
import re
from typing import NamedTuple

from agentops.cli import _common
from agentops.cli._common import Refusal

POLICY_SCHEMA_VERSION = 1
MAX_POLICY_BYTES = 4 * 1024 * 1024
_POLICY_KEYS = frozenset({"schema_version", "deny", "grant_classes"})
_RULE_KEYS = frozenset({"id", "pattern", "reason", "ignore_case"})


class DenyRule(NamedTuple):
    id: str
    pattern: re.Pattern[str]
    reason: str | None


class Policy(NamedTuple):
    deny: tuple[DenyRule, ...]
    classes: tuple[tuple[str, tuple[re.Pattern[str], ...]], ...]

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
        flags = re.IGNORECASE if ignore_case else 0
        rules.append(DenyRule(rule_id, _compile(entry["pattern"], flags, where), reason))
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
    return Policy(tuple(rules), tuple(classes))


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
