"""`agentops grant mint|check|consume|revoke` and `agentops hook pre-tool-use`.

The I/O layer of `capability_grant`: a policy file, a file-backed grant store, an
append-only audit log, the grant commands a human runs, and the Claude Code
PreToolUse hook adapter. The pure module decides; this file reads files, stdin,
the environment and the clock (once per invocation) and writes the store.

Policy file (JSON, default `~/.agentops/policy.json`, `--policy`):
`{"schema_version": 1, "deny": [{"id", "pattern", "reason"?, "ignore_case"?}],
"grant_classes": {"<class>": ["<pattern>", ...]}}`. `deny` and `grant_classes`
may be left out (empty). Duplicate keys anywhere, unknown keys, a wrong
`schema_version`, a wrong type, a blank or duplicated rule id, a class name that
is blank or carries surrounding whitespace, an empty pattern list, more than
`MAX_ALLOWED_CLASSES` classes, or a pattern that does not compile make the whole
policy unusable (exit 2; the hook blocks).

Grant store (directory, default `~/.agentops/grants`, `--store`; directories
created `0o700`, files `0o600`): `live/<id>.json` minted grants,
`spent/<id>.json` consumption and revocation records. A `.json` file in `live/`
whose name is not `<id>.json`, that does not parse as a grant of an allowed class,
or whose id differs from its name is skipped with one warning line on stderr;
other names are ignored. An id with a `spent/` record is consumed even if its live
file still exists. Consumption claims `spent/<id>.json` with
`O_CREAT | O_EXCL | O_WRONLY`, so of any number of concurrent consumers at most
one wins; after the claim the live file is re-read and re-matched, the consumed
record written and fsynced, the live file unlinked and the audit line appended,
and only then is success reported.

Audit log (default `<store>/audit.ndjson`, `--audit`): one line per event,
appended with a single `os.write` on an `O_APPEND` descriptor. A failed append
during consume reports "no grant" (the id stays burned); during mint the new live
file is removed and mint fails; during revoke the id stays burned and the command
exits 2; on a deny it is reported on stderr and the deny stands.

Exit codes: 0 yes/done, 3 no (no live matching grant, lost the race, nothing to
revoke), 2 usage, configuration, refusal or internal error; never 1. `mint`
refuses when `CLAUDECODE` is set (a tripwire, not a boundary). `AGENTOPS_DISABLED=1`
makes the hook exit 0 with no output, like every agentops hook (the normal
permission flow applies); it does not affect the grant commands.

The hook (`hook pre-tool-use --scope S`): malformed input, an unusable policy or
any unexpected error -> one stderr line, exit 2 (blocks the call). A non-Bash tool
-> exit 0, no output. Deny rules first (a grant never overrides a deny), then
class resolution (none or several classes -> no output), then atomic consumption
(success -> an `allow` decision naming the grant id; otherwise no output).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import stat
import sys
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, NamedTuple

from agentops.cli import _common

if TYPE_CHECKING:
    from agentops.capability_grant import Grant, GrantQuery

HOOK_EVENT = "PreToolUse"
POLICY_SCHEMA_VERSION = 1
MAX_HOOK_INPUT_BYTES = 1024 * 1024
MAX_POLICY_BYTES = 4 * 1024 * 1024
MAX_GRANT_FILE_BYTES = 256 * 1024
MAX_TTL_MINUTES = 1440
ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,127}")
_POLICY_KEYS = frozenset({"schema_version", "deny", "grant_classes"})
_RULE_KEYS = frozenset({"id", "pattern", "reason", "ignore_case"})
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO planted in the store must not hang a read


class Refusal(Exception):
    """A usage, configuration or refusal error: one stderr line, exit 2."""


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


# ---------------------------------------------------------------------------
# Registration


def register(commands: Any, hooks: Any) -> None:
    grant = commands.add_parser(
        "grant", help="mint, check, consume or revoke single-use command grants"
    )
    actions = grant.add_subparsers(title="actions", metavar="ACTION")

    def common(parser: argparse.ArgumentParser, *, policy: bool = True, audit: bool = True) -> None:
        if policy:
            parser.add_argument(
                "--policy", metavar="PATH", help="policy file (default ~/.agentops/policy.json)"
            )
        parser.add_argument(
            "--store", metavar="DIR", help="grant store (default ~/.agentops/grants)"
        )
        if audit:
            parser.add_argument(
                "--audit", metavar="PATH", help="audit log (default <store>/audit.ndjson)"
            )

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
    common(mint)
    mint.set_defaults(run=run_mint)

    check = actions.add_parser("check", help="is there a live matching grant? (never consumes)")
    query(check)
    common(check, audit=False)
    check.set_defaults(run=run_check)

    consume = actions.add_parser("consume", help="consume the live matching grant atomically")
    query(consume)
    common(consume)
    consume.set_defaults(run=run_consume)

    revoke = actions.add_parser("revoke", help="burn a grant by id")
    revoke.add_argument("--id", required=True, dest="grant_id", metavar="ID")
    common(revoke, policy=False)
    revoke.set_defaults(run=run_revoke)

    hook = hooks.add_parser(
        "pre-tool-use",
        help="Claude Code PreToolUse hook for Bash: deny rules, then single-use grants",
    )
    hook.add_argument(
        "--scope", required=True, metavar="S", help="the scope this hook configuration grants for"
    )
    common(hook)
    hook.set_defaults(run=run_hook)


def _ttl_minutes(text: str) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if not 1 <= value <= MAX_TTL_MINUTES:
        raise argparse.ArgumentTypeError(f"must be 1-{MAX_TTL_MINUTES}, got {value}")
    return value


# ---------------------------------------------------------------------------
# Paths, strict JSON, policy


def _home(*parts: str) -> str:
    return os.path.join(os.path.expanduser("~"), ".agentops", *parts)


def _policy_path(args: argparse.Namespace) -> str:
    return str(getattr(args, "policy", None) or _home("policy.json"))


def _store_path(args: argparse.Namespace) -> str:
    return str(getattr(args, "store", None) or _home("grants"))


def _audit_path(args: argparse.Namespace) -> str:
    return str(getattr(args, "audit", None) or os.path.join(_store_path(args), "audit.ndjson"))


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    document: dict[str, Any] = {}
    for key, value in pairs:
        if key in document:
            raise ValueError(f"duplicated key {key!r}")
        document[key] = value
    return document


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def loads_strict(text: str) -> Any:
    """JSON with every duplicated key and NaN/Infinity refused (ValueError)."""
    return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants)


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
        data = _read_regular(path, MAX_POLICY_BYTES, follow=True)
    except OSError as exc:
        raise Refusal(f"policy unusable: {path}: cannot read: {exc.strerror or exc}") from None
    if data is None:
        raise Refusal(
            f"policy unusable: {path}: not a regular file of at most {MAX_POLICY_BYTES} bytes"
        )
    try:
        document = loads_strict(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise Refusal(f"policy unusable: {path}: not strict JSON: {exc}") from None
    try:
        return policy_from_document(document)
    except Refusal as exc:
        raise Refusal(f"policy unusable: {path}: {exc}") from None


# ---------------------------------------------------------------------------
# Files


def _read_regular(path: str, limit: int, follow: bool = False) -> bytes | None:
    """A regular file's bytes, None when not regular or too big. Symlinks are followed
    only when `follow` is true (the policy file; never a grant file)."""
    flags = os.O_RDONLY | _CLOEXEC | _NONBLOCK | (0 if follow else _NOFOLLOW)
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    return None if size > limit else b"".join(chunks)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _fsync_dir(path: str) -> None:
    try:
        fd = os.open(path, os.O_RDONLY | _CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _ensure_store(store: str) -> None:
    for path in (store, os.path.join(store, "live"), os.path.join(store, "spent")):
        with contextlib.suppress(FileExistsError):
            os.mkdir(path, 0o700)
        if not os.path.isdir(path) or os.path.islink(path):
            raise Refusal(f"grant store: {path} is not a directory")


def append_audit(path: str, line: str) -> None:
    """Append one line with a single os.write on an O_APPEND descriptor (raises OSError)."""
    data = (line + "\n").encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _CLOEXEC, 0o600)
    try:
        if os.write(fd, data) != len(data):
            raise OSError("short write to the audit log")
    finally:
        os.close(fd)


def _audit(args: argparse.Namespace, line: str) -> None:
    if getattr(args, "audit", None) is None:  # default path lives in the store
        _ensure_store(_store_path(args))
    append_audit(_audit_path(args), line)


# ---------------------------------------------------------------------------
# The store


def _grant_at(path: str, allowed: tuple[str, ...], stem: str) -> Grant | None:
    from agentops.capability_grant import parse_grant

    try:
        data = _read_regular(path, MAX_GRANT_FILE_BYTES)
    except OSError:
        return None
    grant = None if data is None else parse_grant(data, allowed)
    return grant if grant is not None and grant.id == stem else None


def load_live(store: str, allowed: tuple[str, ...], warn: bool = True) -> list[Grant]:
    """The parsable, unspent grants in `live/`, by file name; bad files warn and are skipped."""
    live = os.path.join(store, "live")
    spent = os.path.join(store, "spent")
    try:
        names = sorted(os.listdir(live))
    except FileNotFoundError:
        return []
    grants: list[Grant] = []
    for name in names:
        if not name.endswith(".json"):
            continue
        stem = name[: -len(".json")]
        if ID_PATTERN.fullmatch(stem) is None:
            if warn:
                _common.say_error(f"skipped grant file live/{name}: name is not <id>.json")
            continue
        if os.path.lexists(os.path.join(spent, name)):
            continue
        path = os.path.join(live, name)
        grant = _grant_at(path, allowed, stem)
        if grant is None:
            if not os.path.lexists(path) or os.path.lexists(os.path.join(spent, name)):
                continue  # consumed or revoked by a concurrent process while we listed
            if warn:
                _common.say_error(
                    f"skipped grant file live/{name}: not a valid grant of an allowed class"
                )
            continue
        grants.append(grant)
    return grants


def consume(
    store: str, query: GrantQuery, allowed: tuple[str, ...], audit: argparse.Namespace, note: str
) -> Grant | None:
    """Atomically consume the live grant matching `query`; None when there is none,
    another consumer won, the grant changed after the claim, or the audit failed."""
    from agentops.capability_grant import (
        compose_audit_line,
        mark_consumed,
        match_grant,
        serialize_grant,
    )

    hit = match_grant(load_live(store, allowed), query, allowed)
    if hit is None:
        return None
    name = f"{hit.id}.json"
    spent_dir = os.path.join(store, "spent")
    live_path = os.path.join(store, "live", name)
    try:
        fd = os.open(
            os.path.join(spent_dir, name),
            os.O_CREAT | os.O_EXCL | os.O_WRONLY | _NOFOLLOW | _CLOEXEC,
            0o600,
        )
    except FileExistsError:
        return None  # another consumer won
    try:
        again = _grant_at(live_path, allowed, hit.id)
        if again is None or match_grant([again], query, allowed) is None:
            return None  # changed or vanished after the claim: the id stays burned
        _write_all(fd, serialize_grant(mark_consumed(again, query.now)).encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    _fsync_dir(spent_dir)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(live_path)
    try:
        _audit(audit, compose_audit_line("consume", grant=again, now=query.now, note=note))
    except (OSError, Refusal) as exc:
        _common.say_error(f"audit append failed ({exc}); grant {again.id} burned, not used")
        return None
    return again


# ---------------------------------------------------------------------------
# Commands


def _now() -> datetime:
    return datetime.now(timezone.utc)


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


def _guarded(body: Any, args: argparse.Namespace) -> int:
    try:
        code: int = body(args)
        return code
    except Refusal as exc:
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


def _mint(args: argparse.Namespace) -> int:
    import secrets  # here, not at the top: the hook never pays for it

    from agentops.capability_grant import (
        GrantError,
        build_grant,
        compose_audit_line,
        serialize_grant,
    )

    if "CLAUDECODE" in os.environ:
        raise Refusal(
            "mint refuses to run inside a Claude Code session (CLAUDECODE is set); "
            "mint from your own terminal"
        )
    now = _now()
    command, scope, action_class = _query_args(args)
    policy = load_policy(_policy_path(args))
    ttl = None if args.ttl_minutes is None else timedelta(minutes=args.ttl_minutes)
    try:
        grant = build_grant(
            command,
            scope=scope,
            action_class=action_class,
            grant_id=secrets.token_hex(16),
            allowed_classes=policy.allowed,
            now=now,
            ttl=ttl,
            minted_by=args.minted_by,
        )
    except GrantError as exc:
        raise Refusal(f"mint refused: {exc}") from None
    store = _store_path(args)
    _ensure_store(store)
    name = f"{grant.id}.json"
    if os.path.lexists(os.path.join(store, "spent", name)):
        raise Refusal(f"mint refused: id {grant.id} is already spent")
    live_path = os.path.join(store, "live", name)
    fd = os.open(live_path, os.O_CREAT | os.O_EXCL | os.O_WRONLY | _NOFOLLOW | _CLOEXEC, 0o600)
    try:
        _write_all(fd, serialize_grant(grant).encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    _fsync_dir(os.path.dirname(live_path))
    try:
        _audit(args, compose_audit_line("mint", grant=grant, now=now))
    except (OSError, Refusal) as exc:
        os.unlink(live_path)
        raise Refusal(f"mint not recorded in the audit log ({exc}); grant removed") from None
    resolved = _classes_for(policy, grant.command)
    if resolved != [grant.action_class]:
        _common.say_error(
            f"note: the hook resolves this command to class(es) {resolved}, "
            f"not {grant.action_class!r}; only `grant consume` can use this grant"
        )
    print(f"id:             {grant.id}")
    print(f"command:        {_common.printable(grant.command)}")
    print(f"command_sha256: {grant.command_sha256}")
    print(f"scope:          {_common.printable(grant.scope)}")
    print(f"class:          {_common.printable(grant.action_class)}")
    print(f"expires_at:     {grant.expires_at}")
    return _common.EXIT_OK


def _query_and_allowlist(args: argparse.Namespace) -> tuple[GrantQuery, tuple[str, ...]]:
    """The query of a `check` or `consume` (the clock read once) and the class allowlist."""
    from agentops.capability_grant import GrantQuery

    command, scope, action_class = _query_args(args)
    allowed = load_policy(_policy_path(args)).allowed
    return GrantQuery(command, scope, action_class, _now()), allowed


def _check(args: argparse.Namespace) -> int:
    from agentops.capability_grant import match_grant

    query, allowed = _query_and_allowlist(args)
    hit = match_grant(load_live(_store_path(args), allowed), query, allowed)
    if hit is None:
        print("no live matching grant")
        return _common.EXIT_FINDINGS
    print(f"live grant {hit.id} matches (expires {hit.expires_at})")
    return _common.EXIT_OK


def _consume(args: argparse.Namespace) -> int:
    query, allowed = _query_and_allowlist(args)
    used = consume(_store_path(args), query, allowed, args, "grant consume")
    if used is None:
        print("no live matching grant")
        return _common.EXIT_FINDINGS
    print(f"consumed grant {used.id}")
    return _common.EXIT_OK


def _revoke(args: argparse.Namespace) -> int:
    from agentops.capability_grant import (
        compose_audit_line,
        mark_consumed,
        parse_grant,
        serialize_grant,
    )

    now = _now()
    grant_id = args.grant_id
    if ID_PATTERN.fullmatch(grant_id) is None:
        raise Refusal("--id is not a grant id ([A-Za-z0-9][A-Za-z0-9_-]{0,127})")
    store = _store_path(args)
    name = f"{grant_id}.json"
    live_path = os.path.join(store, "live", name)
    spent_dir = os.path.join(store, "spent")
    if not os.path.lexists(live_path) or not os.path.isdir(spent_dir):
        print("nothing to revoke")
        return _common.EXIT_FINDINGS
    try:
        fd = os.open(
            os.path.join(spent_dir, name),
            os.O_CREAT | os.O_EXCL | os.O_WRONLY | _NOFOLLOW | _CLOEXEC,
            0o600,
        )
    except FileExistsError:
        print("nothing to revoke")
        return _common.EXIT_FINDINGS
    record: object = {"id": grant_id}
    try:
        data = _read_regular(live_path, MAX_GRANT_FILE_BYTES)
        grant = None if data is None else parse_grant(data, _own_class(data))
        if grant is not None and grant.id == grant_id:
            record = grant
            _write_all(fd, serialize_grant(mark_consumed(grant, now)).encode("ascii"))
            os.fsync(fd)
    except OSError:
        pass  # the claim alone burns the id
    finally:
        os.close(fd)
    _fsync_dir(spent_dir)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(live_path)
    try:
        _audit(args, compose_audit_line("revoke", grant=record, now=now))
    except (OSError, Refusal) as exc:
        raise Refusal(f"grant {grant_id} revoked, but the audit append failed ({exc})") from None
    print(f"revoked grant {grant_id}")
    return _common.EXIT_OK


def _own_class(data: bytes) -> tuple[str, ...]:
    """The class a grant document names, so revoke can parse it without a policy."""
    try:
        document = loads_strict(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return ()
    value = document.get("action_class") if type(document) is dict else None
    return (value,) if type(value) is str else ()


# ---------------------------------------------------------------------------
# The PreToolUse hook


class _Malformed(Exception):
    pass


def _classes_for(policy: Policy, command: str) -> list[str]:
    from agentops.scannable_command import matches_raw_or_scannable

    return [
        name
        for name, patterns in policy.classes
        if any(matches_raw_or_scannable(p, command) for p in patterns)
    ]


def _hook_command(raw: bytes) -> tuple[str | None, str]:
    """(command or None for a non-Bash tool, tool name); _Malformed on bad input."""
    from agentops.capability_grant import normalize_command

    if len(raw) > MAX_HOOK_INPUT_BYTES:
        raise _Malformed(f"input larger than {MAX_HOOK_INPUT_BYTES} bytes")
    try:
        document = loads_strict(raw.decode("utf-8"))
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
    except Refusal as exc:
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
    from agentops.capability_grant import GrantQuery, command_hash, compose_audit_line
    from agentops.scannable_command import matches_raw_or_scannable

    now = _now()
    scope = args.scope
    if not scope.strip():
        raise Refusal("--scope is blank")
    command, _tool = _hook_command(raw)
    if command is None:
        return None
    policy = load_policy(_policy_path(args))
    for rule in policy.deny:
        if matches_raw_or_scannable(rule.pattern, command):
            seen = {"command": command, "command_sha256": command_hash(command), "scope": scope}
            try:
                _audit(args, compose_audit_line("denied", grant=seen, now=now, note=rule.id))
            except (OSError, Refusal) as exc:
                _common.say_error(f"pre-tool-use: audit append failed ({exc}); deny stands")
            reason = rule.reason or "denied by policy"
            return _decision("deny", f"agentops policy rule {rule.id}: {reason}")
    classes = _classes_for(policy, command)
    if len(classes) != 1:
        return None  # no class, or an ambiguous one: the normal permission flow applies
    query = GrantQuery(command, scope, classes[0], now)
    used = consume(_store_path(args), query, policy.allowed, args, "hook pre-tool-use")
    if used is None:
        return None
    return _decision(
        "allow",
        f"agentops capability grant {used.id} "
        f"(class {used.action_class}, single use, now consumed)",
    )
