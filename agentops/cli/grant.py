"""`agentops grant mint|check|consume|revoke`: the grant commands a human runs.

The pure module `capability_grant` decides; `_grant_store` keeps the files;
`_policy` reads the policy file; this file parses arguments, reads the clock once
per invocation and prints. The PreToolUse hook that spends grants is
`pre_tool_use`.

A failed audit append during mint removes the new live file and mint fails;
during revoke the id stays burned and the command exits 2.

Exit codes: 0 yes/done, 3 no (no live matching grant, lost the race, nothing to
revoke), 2 usage, configuration, refusal or internal error; never 1. `mint`
refuses when `CLAUDECODE` is set (a tripwire, not a boundary).
`AGENTOPS_DISABLED=1` does not affect the grant commands.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING

from agentops.cli import _common, _grant_store, _policy
from agentops.cli._common import Refusal
from agentops.cli._grant_store import AuditFailed, GrantStore, StoreError

__all__ = ["AuditFailed", "GrantStore", "StoreError", "register"]

if TYPE_CHECKING:
    from agentops.capability_grant import GrantQuery

MAX_TTL_MINUTES = 1440


def register(commands: _common.Subcommands, hooks: _common.Subcommands) -> None:
    grant = commands.add_parser(
        "grant", help="mint, check, consume or revoke single-use command grants"
    )
    actions = grant.add_subparsers(title="actions", metavar="ACTION")

    def locations(
        parser: argparse.ArgumentParser, *, policy: bool = True, audit: bool = True
    ) -> None:
        if policy:
            _policy.add_policy_option(parser)
        _grant_store.add_store_options(parser, audit=audit)

    def query(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--command", required=True, metavar="CMD", help="the exact command string"
        )
        parser.add_argument("--scope", required=True, metavar="S")
        parser.add_argument(
            "--class",
            required=True,
            dest="action_class",
            metavar="C",
            help="action class (a key of the policy's grant_classes)",
        )

    mint = actions.add_parser(
        "mint", help="authorize one exact command once (run it yourself, outside any agent session)"
    )
    query(mint)
    mint.add_argument(
        "--ttl-minutes",
        type=_ttl_minutes,
        metavar="N",
        help=f"minutes until expiry, 1-{MAX_TTL_MINUTES} (default 15)",
    )
    mint.add_argument("--minted-by", metavar="TEXT", help="who approved (default: operator)")
    locations(mint)
    mint.set_defaults(run=run_mint)

    check = actions.add_parser("check", help="is there a live matching grant? (never consumes)")
    query(check)
    locations(check, audit=False)
    check.set_defaults(run=run_check)

    consume = actions.add_parser("consume", help="consume the live matching grant atomically")
    query(consume)
    locations(consume)
    consume.set_defaults(run=run_consume)

    revoke = actions.add_parser("revoke", help="burn a grant by id")
    revoke.add_argument("--id", required=True, dest="grant_id", metavar="ID")
    locations(revoke, policy=False)
    revoke.set_defaults(run=run_revoke)


def _ttl_minutes(text: str) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if not 1 <= value <= MAX_TTL_MINUTES:
        raise argparse.ArgumentTypeError(f"must be 1-{MAX_TTL_MINUTES}, got {value}")
    return value


def _query_args(args: argparse.Namespace) -> tuple[str, str, str]:
    from agentops.capability_grant import normalize_command

    command, scope, action_class = args.command, args.scope, args.action_class
    if not normalize_command(command):
        raise Refusal("--command is blank")
    if not scope.strip():
        raise Refusal("--scope is blank")
    if not action_class.strip():
        raise Refusal("--class is blank")
    return command, scope, action_class


def _guarded(body: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    try:
        return body(args)
    except (Refusal, StoreError) as exc:
        _common.say_error(str(exc))
        return _common.EXIT_USAGE
    except Exception as exc:  # a crash must never read as an answer
        _common.say_error(f"internal error: {type(exc).__name__}: {exc}")
        return _common.EXIT_USAGE


def run_mint(args: argparse.Namespace) -> int:
    return _guarded(_mint, args)


def run_check(args: argparse.Namespace) -> int:
    return _guarded(_check, args)


def run_consume(args: argparse.Namespace) -> int:
    return _guarded(_consume, args)


def run_revoke(args: argparse.Namespace) -> int:
    return _guarded(_revoke, args)


def _store(args: argparse.Namespace) -> GrantStore:
    """The store the options name; skipped grant files are reported on stderr."""
    return GrantStore(
        _grant_store.store_path(args),
        audit_log=getattr(args, "audit", None),
        on_warning=_common.say_error,
    )


def _mint(args: argparse.Namespace) -> int:
    from agentops.capability_grant import GrantError

    if "CLAUDECODE" in os.environ:
        raise Refusal(
            "mint refuses to run inside a Claude Code session (CLAUDECODE is set); "
            "mint from your own terminal"
        )
    now = _common.utc_now()
    command, scope, action_class = _query_args(args)
    policy = _policy.load_policy(_policy.policy_path(args))
    ttl = None if args.ttl_minutes is None else timedelta(minutes=args.ttl_minutes)
    try:
        grant = _store(args).mint(
            command,
            scope=scope,
            action_class=action_class,
            allowed_classes=policy.allowed,
            ttl=ttl,
            minted_by=args.minted_by,
            now=now,
        )
    except GrantError as exc:
        raise Refusal(f"mint refused: {exc}") from None
    resolved = _policy.classes_for(policy, grant.command)
    if resolved != [grant.action_class]:
        _common.say_error(
            f"note: the hook resolves this command to class(es) {resolved}, "
            f"not {grant.action_class!r}; only `grant consume` can use this grant"
        )
    shown = _common.escape_invisible  # the person sees exactly what they authorize
    print(f"id:             {grant.id}")
    print(f"command:        {_common.printable(shown(grant.command))}")
    print(f"command_sha256: {grant.command_sha256}")
    print(f"scope:          {_common.printable(shown(grant.scope))}")
    print(f"class:          {_common.printable(shown(grant.action_class))}")
    print(f"expires_at:     {grant.expires_at}")
    return _common.EXIT_OK


def _query_and_allowlist(args: argparse.Namespace) -> tuple[GrantQuery, tuple[str, ...]]:
    """The query of a `check` or `consume` (the clock read once) and the class allowlist."""
    from agentops.capability_grant import GrantQuery

    command, scope, action_class = _query_args(args)
    allowed = _policy.load_policy(_policy.policy_path(args)).allowed
    return GrantQuery(command, scope, action_class, _common.utc_now()), allowed


def _check(args: argparse.Namespace) -> int:
    query, allowed = _query_and_allowlist(args)
    hit = _store(args).check(query, allowed)
    if hit is None:
        print("no live matching grant")
        return _common.EXIT_FINDINGS
    print(f"live grant {hit.id} matches (expires {hit.expires_at})")
    return _common.EXIT_OK


def _consume(args: argparse.Namespace) -> int:
    query, allowed = _query_and_allowlist(args)
    try:
        used = _store(args).consume(query, allowed, note="grant consume")
    except AuditFailed as exc:
        _common.say_error(str(exc))
        used = None
    if used is None:
        print("no live matching grant")
        return _common.EXIT_FINDINGS
    print(f"consumed grant {used.id}")
    return _common.EXIT_OK


def _revoke(args: argparse.Namespace) -> int:
    grant_id = args.grant_id
    if _grant_store.ID_PATTERN.fullmatch(grant_id) is None:
        raise Refusal(f"--id is not a grant id ({_grant_store.ID_PATTERN.pattern})")
    if not _store(args).revoke(grant_id):
        print("nothing to revoke")
        return _common.EXIT_FINDINGS
    print(f"revoked grant {grant_id}")
    return _common.EXIT_OK
