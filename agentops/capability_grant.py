"""capability_grant: one human approval, one exact command, one execution.

The failure guarded against
---------------------------
An agent asks for a gated action (a deploy, a production write). A human says
"go" in a chat thread or on a message bus. The permission layer cannot tell who
wrote that message, and an agent that is shown a fake approval will act on it.
In practice the human ends up re-typing the command, and the approval step adds
nothing.

The fix
-------
The human's direct approval mints a *grant*: a small JSON record that authorizes
exactly one command string (bound by its SHA-256), in one scope, for one action
class, once, before an expiry. An enforcement hook finds a matching live grant
(`match_grant`) and a store consumes it atomically before the command runs. This
module holds the pure part: building, validating, serializing, parsing, matching,
marking and expiring grants, and composing audit lines. It never touches files,
stdin or the clock by itself (`now=None` reads the current UTC time, nothing
more). The file-backed store that Python runtimes and the CLI share is
`agentops.cli.grant.GrantStore`. Full reference: docs/reference/capability_grant.md.

Posture
-------
Fail closed. Every malformed, ambiguous or wrongly typed input means "no grant":
matching returns `None`, liveness and expiry return `False`, building,
serializing and marking raise `GrantError` naming the argument. A mistake here
only withholds an approval; the action then goes to the normal permission prompt.

Caller values are read once (one snapshot, no check-then-use):
- a string is a value whose type is `str` or a subclass, copied once as an exact
  `str`; a subclass's overridden methods are never consulted;
- a record (grant or query) is a `Mapping` read with one `record[name]` per
  field, or any other object read with one attribute access per field; a
  `KeyError`/`AttributeError` means absent, any other exception means malformed;
- an allowlist is snapshotted once (`len()` once when the type defines it, one
  iteration, at most `MAX_ALLOWED_CLASSES` entries, a count that must agree with
  the reported length); anything ambiguous allows nothing;
- a clock is `None` (now) or a `datetime` (naive = UTC); a `datetime` subclass is
  reduced to its genuine fields through the base-class descriptors and its
  `utcoffset` is consulted once; anything else is an invalid clock;
- a TTL is `None` (default) or a `timedelta`, reduced to its genuine value.

Choices
-------
- A grant is a `Grant` (or subclass) or a `Mapping`. Any other object is not a
  grant: its unknown attributes cannot be enumerated, so a field this version
  does not understand could not be refused.
- A query `Mapping` or object without a `now` field means the current time, as
  `GrantQuery`'s default does. Extra query fields are ignored.
- `build_grant` reports the first failing argument in the order command,
  action_class, scope, now, grant_id, ttl; `minted_by` and `event` keep the
  caller's genuine string unstripped.
- A timestamp offset must be a real one (`HH <= 23`, `MM <= 59`).
- Expired means `expires_at <= now` for a valid grant, consumed or not: it can
  never be live again, so a store may delete it. A grant minted in the future is
  not live but not expired either.

WHAT THIS DOES NOT CATCH (each pinned by a test)
------------------------------------------------
1. The hash binds the string, not its effect: working directory, PATH, aliases
   and shell functions, environment, the shell itself, and the contents of files
   the command reads or runs are not bound. A query carrying a `cwd` field
   matches regardless.
2. No semantic equivalence: `deploy --prod=true` vs `deploy --prod`, or a
   re-spaced command, is a different string and a miss (safe: it goes to the
   prompt).
3. Atomic consumption is the caller's: `match_grant` only finds. Matching twice
   matches twice; the store must claim the grant atomically before executing.
4. Same-user boundary: any well-formed grant is honoured, whoever wrote it. An
   agent that runs as the minting user could write one itself; the boundary is
   operational (mint outside any agent session, deny the agent the mint command
   and write access to store, policy and audit log), or a different principal.
5. The clock and the executed value are the caller's: a stale `now` stretches
   the TTL; the caller must execute exactly the value it matched.
6. Mediation, scope and class resolution are the caller's: a grant helps only if
   every path to the action goes through the hook; ids must be random (only
   their shape is checked).

Lineage
-------
Capabilities as unforgeable, narrowly scoped authority (the 1966 paper
"Programming Semantics for Multiprogrammed Computations", and object-capability
practice); single-use, short-lived tokens in the manner of one-time
authorization codes. The rule that an approval relayed through a channel the
enforcer cannot authenticate is not an authorization is an operational lesson
from running agents behind human-gated permission prompts.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from datetime import date, datetime, timedelta, timezone
from typing import Any, NamedTuple, cast

__all__ = [
    "AUDIT_EVENTS",
    "COMMAND_TRIM_CHARS",
    "DEFAULT_GRANT_TTL",
    "DEFAULT_MINTED_BY",
    "GRANT_SCHEMA_VERSION",
    "MAX_ALLOWED_CLASSES",
    "MAX_GRANT_TTL",
    "Grant",
    "GrantError",
    "GrantQuery",
    "build_grant",
    "command_hash",
    "compose_audit_line",
    "is_allowed_grant_class",
    "is_grant_expired",
    "is_grant_live",
    "mark_consumed",
    "match_grant",
    "normalize_command",
    "parse_grant",
    "serialize_grant",
]

GRANT_SCHEMA_VERSION: int = 1
DEFAULT_GRANT_TTL: timedelta = timedelta(minutes=15)
MAX_GRANT_TTL: timedelta = timedelta(hours=24)
DEFAULT_MINTED_BY: str = "operator"
COMMAND_TRIM_CHARS: str = " \t\n"
MAX_ALLOWED_CLASSES: int = 1024
AUDIT_EVENTS: tuple[str, ...] = ("mint", "consume", "revoke", "denied")


class GrantError(ValueError):
    """Every refusal to build, serialize or mark a grant; the message names the argument."""


class Grant(NamedTuple):
    schema_version: int
    id: str
    command: str
    command_sha256: str
    scope: str
    action_class: str
    minted_at: str
    expires_at: str
    single_use: bool = True
    minted_by: str | None = None
    consumed_at: str | None = None


class GrantQuery(NamedTuple):
    command: str
    scope: str
    action_class: str
    now: datetime | None = None


class _Checked(NamedTuple):
    """A validated grant snapshot with its instants parsed."""

    grant: Grant
    minted: datetime
    expires: datetime
    consumed: datetime | None


_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,127}")
_HEX64_RE = re.compile(r"[0-9A-Fa-f]{64}")
_TIMESTAMP_RE = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})"
    r"(?:\.([0-9]{6}|[0-9]{3}))?(Z|[+-][0-9]{2}:[0-9]{2})"
)
_GRANT_FIELDS: frozenset[str] = frozenset(Grant._fields)
_QUERY_FIELDS: tuple[str, ...] = GrantQuery._fields
_AUDIT_GRANT_FIELDS: tuple[str, ...] = (
    "id",
    "scope",
    "action_class",
    "command",
    "command_sha256",
    "expires_at",
    "minted_by",
)
_NOT_ALLOWLISTS = (str, bytes, bytearray, memoryview)
_ABSENT: Any = object()
# Base-class descriptors: a datetime subclass cannot override what these read.
_DATETIME_PARTS: tuple[Any, ...] = (
    vars(date)["year"],
    vars(date)["month"],
    vars(date)["day"],
    vars(datetime)["hour"],
    vars(datetime)["minute"],
    vars(datetime)["second"],
    vars(datetime)["microsecond"],
)
_DATETIME_TZINFO: Any = vars(datetime)["tzinfo"]
_DATETIME_FOLD: Any = vars(datetime)["fold"]


# ---------------------------------------------------------------------------
# Snapshots of caller values


def _str_snapshot(value: object) -> str | None:
    """The genuine value of a string (type str or a subclass) as an exact str, else None."""
    if issubclass(type(value), str):
        return str.__str__(value)
    return None


def _record_snapshot(record: object, names: Iterable[str]) -> dict[str, object] | None:
    """One read per field: `record[name]` for a Mapping, else `getattr`. Absent fields are
    left out; any other exception makes the record malformed (None)."""
    values: dict[str, object] = {}
    try:
        if issubclass(type(record), Mapping):
            for name in names:
                try:
                    values[name] = record[name]  # type: ignore[index]
                except KeyError:
                    continue
        else:
            for name in names:
                try:
                    values[name] = getattr(record, name)
                except AttributeError:
                    continue
    except Exception:
        return None
    return values


def _grant_snapshot(grant: object) -> dict[str, object] | None:
    """A grant's fields: a Grant (or subclass) by attribute, or a Mapping whose keys
    (enumerated once) are all grant field names. Anything else is not a grant."""
    kind = type(grant)
    if issubclass(kind, Mapping):
        try:
            for seen, key in enumerate(cast("Mapping[object, object]", grant), 1):
                name = _str_snapshot(key)
                if seen > len(_GRANT_FIELDS) or name not in _GRANT_FIELDS:
                    return None
        except Exception:
            return None
    elif not issubclass(kind, Grant):
        return None
    return _record_snapshot(grant, Grant._fields)


def _allowlist_snapshot(allowed: object) -> frozenset[str]:
    """The stripped, non-blank genuine strings of an allowlist, read once; empty when
    the allowlist is absent, a string-like value, or ambiguous."""
    if allowed is None or issubclass(type(allowed), _NOT_ALLOWLISTS):
        return frozenset()
    entries: set[str] = set()
    try:
        declared = len(allowed) if hasattr(type(allowed), "__len__") else None  # type: ignore[arg-type]
        count = 0
        for item in allowed:  # type: ignore[attr-defined]
            count += 1
            if count > MAX_ALLOWED_CLASSES:
                return frozenset()
            text = _str_snapshot(item)
            if text is not None and text.strip():
                entries.add(text.strip())
    except Exception:
        return frozenset()
    if declared is not None and declared != count:
        return frozenset()
    return frozenset(entries)


def _clock_snapshot(now: object) -> datetime | None:
    """`now` as an aware UTC datetime: None is the current time, a naive datetime is UTC,
    an aware one is converted; anything else (or an unusable offset) is None."""
    if now is None:
        return datetime.now(timezone.utc)
    if not issubclass(type(now), datetime):
        return None
    try:
        year, month, day, hour, minute, second, micro = (
            descriptor.__get__(now) for descriptor in _DATETIME_PARTS
        )
        tzinfo = _DATETIME_TZINFO.__get__(now)
        fold = _DATETIME_FOLD.__get__(now)
        naive = datetime(year, month, day, hour, minute, second, micro, fold=fold)
        offset = None if tzinfo is None else naive.replace(tzinfo=tzinfo).utcoffset()
        utc = naive if offset is None else naive - offset
        return utc.replace(tzinfo=timezone.utc)
    except Exception:
        return None


def _ttl_snapshot(ttl: object) -> timedelta | None:
    """The genuine value of a TTL: None is the default; a non-timedelta is None."""
    if ttl is None:
        return DEFAULT_GRANT_TTL
    if not issubclass(type(ttl), timedelta):
        return None
    genuine: timedelta = timedelta.__add__(timedelta(0), cast(timedelta, ttl))
    return genuine


# ---------------------------------------------------------------------------
# Timestamps


def _canonical_utc(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="microseconds")


def _parse_timestamp(value: object) -> datetime | None:
    """An ISO-8601 instant in the accepted grammar, as aware UTC, else None."""
    text = _str_snapshot(value)
    if text is None:
        return None
    found = _TIMESTAMP_RE.fullmatch(text)
    if found is None:
        return None
    year, month, day, hour, minute, second = (int(found.group(i)) for i in range(1, 7))
    fraction = found.group(7) or "000000"
    micro = int(fraction.ljust(6, "0"))
    zone = found.group(8)
    offset = timedelta(0)
    if zone != "Z":
        zone_hours, zone_minutes = int(zone[1:3]), int(zone[4:])
        if zone_minutes > 59:  # hours of 24 or more are refused by timezone() below
            return None
        offset = timedelta(hours=zone_hours, minutes=zone_minutes)
        if zone[0] == "-":
            offset = -offset
    try:
        local = datetime(year, month, day, hour, minute, second, micro, tzinfo=timezone(offset))
        return local.astimezone(timezone.utc)
    except (ValueError, OverflowError):
        return None


# ---------------------------------------------------------------------------
# Public API


def normalize_command(command: str) -> str:
    """The genuine string with leading/trailing space, tab and line feed removed; else ""."""
    return _normalized(command)


def _normalized(command: object) -> str:
    text = _str_snapshot(command)
    if text is None:
        return ""
    return text.strip(COMMAND_TRIM_CHARS)


def _digest(normalized: str) -> str:
    return hashlib.sha256(normalized.encode("utf-8", "surrogatepass")).hexdigest()


def command_hash(command: str) -> str:
    """Lowercase hex SHA-256 of the normalized command (non-strings hash as "")."""
    return _digest(_normalized(command))


def is_allowed_grant_class(action_class: str, allowed_classes: Iterable[str] | None = ()) -> bool:
    """True only if the stripped genuine string is in the allowlist snapshot."""
    allowed = _allowlist_snapshot(allowed_classes)
    text = _str_snapshot(action_class)
    return text is not None and text.strip() in allowed


def build_grant(
    command: str,
    *,
    scope: str,
    action_class: str,
    grant_id: str,
    allowed_classes: Iterable[str] = (),
    now: datetime | None = None,
    ttl: timedelta | None = None,
    single_use: bool = True,
    minted_by: str | None = None,
) -> Grant:
    """A new, unconsumed grant for exactly `command`; raises GrantError naming the argument."""
    normalized = normalize_command(command)
    scope_text = _str_snapshot(scope)
    class_text = _str_snapshot(action_class)
    id_text = _str_snapshot(grant_id)
    allowed = _allowlist_snapshot(allowed_classes)
    moment = _clock_snapshot(now)
    window = _ttl_snapshot(ttl)
    reusable = single_use is False
    author = _str_snapshot(minted_by)
    if not normalized:
        raise GrantError("command: must be a string that is non-empty after trimming")
    if class_text is None or class_text.strip() not in allowed:
        raise GrantError("action_class: not in the allowed grant classes")
    if scope_text is None or not scope_text.strip():
        raise GrantError("scope: must be a non-blank string")
    if moment is None:
        raise GrantError("now: must be None or a datetime")
    if id_text is None or _ID_RE.fullmatch(id_text.strip()) is None:
        raise GrantError("grant_id: must match [A-Za-z0-9][A-Za-z0-9_-]{0,127}")
    if window is None or not timedelta(0) < window <= MAX_GRANT_TTL:
        raise GrantError("ttl: must be None or a timedelta in (0, MAX_GRANT_TTL]")
    try:
        expires = moment + window
    except OverflowError:
        raise GrantError("ttl: expiry is not a representable time") from None
    return Grant(
        schema_version=GRANT_SCHEMA_VERSION,
        id=id_text.strip(),
        command=normalized,
        command_sha256=_digest(normalized),
        scope=scope_text.strip(),
        action_class=class_text.strip(),
        minted_at=_canonical_utc(moment),
        expires_at=_canonical_utc(expires),
        single_use=not reusable,
        minted_by=author if author is not None and author.strip() else DEFAULT_MINTED_BY,
        consumed_at=None,
    )


def _stripped_name(value: object) -> str | None:
    """A non-empty genuine string equal to its own strip(), else None."""
    text = _str_snapshot(value)
    if not text or text != text.strip():
        return None
    return text


def _validated(grant: object) -> _Checked | None:
    """The validated snapshot of a grant, or None for anything invalid."""
    fields = _grant_snapshot(grant)
    if fields is None:
        return None
    version = fields.get("schema_version", _ABSENT)
    if type(version) is not int or version != GRANT_SCHEMA_VERSION:
        return None
    grant_id = _str_snapshot(fields.get("id"))
    if grant_id is None or _ID_RE.fullmatch(grant_id) is None:
        return None
    command = _str_snapshot(fields.get("command"))
    if not command or command != command.strip(COMMAND_TRIM_CHARS):
        return None
    digest = _str_snapshot(fields.get("command_sha256"))
    if digest is None or _HEX64_RE.fullmatch(digest) is None:
        return None
    digest = digest.lower()
    if digest != _digest(command):
        return None
    scope = _stripped_name(fields.get("scope"))
    action_class = _stripped_name(fields.get("action_class"))
    if scope is None or action_class is None:
        return None
    minted = _parse_timestamp(fields.get("minted_at"))
    expires = _parse_timestamp(fields.get("expires_at"))
    if minted is None or expires is None or not minted < expires:
        return None
    if expires - minted > MAX_GRANT_TTL:
        return None
    single_use = fields.get("single_use", True)
    if type(single_use) is not bool:
        return None
    consumed_value = fields.get("consumed_at")
    consumed = None
    if consumed_value is not None:
        consumed = _parse_timestamp(consumed_value)
        if consumed is None:
            return None
    snapshot = Grant(
        schema_version=GRANT_SCHEMA_VERSION,
        id=grant_id,
        command=command,
        command_sha256=digest,
        scope=scope,
        action_class=action_class,
        minted_at=_canonical_utc(minted),
        expires_at=_canonical_utc(expires),
        single_use=single_use,
        minted_by=_str_snapshot(fields.get("minted_by")),
        consumed_at=None if consumed is None else _canonical_utc(consumed),
    )
    return _Checked(snapshot, minted, expires, consumed)


def _live_at(checked: _Checked, moment: datetime) -> bool:
    return checked.consumed is None and checked.minted <= moment < checked.expires


def serialize_grant(grant: Grant | Mapping[str, object]) -> str:
    """Indented JSON of the validated snapshot (keys in field order) plus a newline."""
    checked = _validated(grant)
    if checked is None:
        raise GrantError("grant: not a valid grant; nothing serialized")
    return json.dumps(checked.grant._asdict(), indent=2, ensure_ascii=True) + "\n"


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    document: dict[str, Any] = {}
    for key, value in pairs:
        if key in document:
            raise ValueError("duplicated key")
        document[key] = value
    return document


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"non-finite number {name}")


def _loads_strict(text: str) -> Any:
    """json.loads refusing duplicated keys anywhere and NaN/Infinity; raises ValueError."""
    return json.loads(text, object_pairs_hook=_refuse_duplicates, parse_constant=_refuse_constant)


def parse_grant(text: str | bytes, allowed_classes: Iterable[str] = ()) -> Grant | None:
    """The validated grant in a JSON document whose class is allowed, else None."""
    allowed = _allowlist_snapshot(allowed_classes)
    kind: Any = type(text)
    try:
        if issubclass(kind, str):
            document = str.__str__(text)
        elif issubclass(kind, bytes):
            document = bytes.decode(text, "utf-8")  # type: ignore[arg-type]
        elif issubclass(kind, bytearray):
            document = bytearray.decode(text, "utf-8")  # type: ignore[arg-type]
        else:
            return None
        loaded = _loads_strict(document)  # blank or invalid text raises: no grant
    except Exception:
        return None
    if type(loaded) is not dict:
        return None
    checked = _validated(loaded)
    if checked is None or checked.grant.action_class not in allowed:
        return None
    return checked.grant


def is_grant_live(grant: Grant | Mapping[str, object], now: datetime | None = None) -> bool:
    """True only for a valid, unconsumed grant with minted_at <= now < expires_at."""
    moment = _clock_snapshot(now)
    if moment is None:
        return False
    checked = _validated(grant)
    return checked is not None and _live_at(checked, moment)


def is_grant_expired(grant: Grant | Mapping[str, object], now: datetime | None = None) -> bool:
    """True only for a valid grant whose expires_at <= now: it can never be live again,
    so a store may delete it. An invalid grant or clock is not known to be expired."""
    moment = _clock_snapshot(now)
    if moment is None:
        return False
    checked = _validated(grant)
    return checked is not None and checked.expires <= moment


def match_grant(
    grants: Iterable[Grant | Mapping[str, object]],
    query: GrantQuery | Mapping[str, object],
    allowed_classes: Iterable[str] = (),
) -> Grant | None:
    """The validated snapshot of the first live grant for exactly this query, else None."""
    allowed = _allowlist_snapshot(allowed_classes)
    fields = _record_snapshot(query, _QUERY_FIELDS)
    if fields is None:
        return None
    command = _normalized(fields.get("command"))
    scope = _str_snapshot(fields.get("scope"))
    action_class = _str_snapshot(fields.get("action_class"))
    moment = _clock_snapshot(fields.get("now"))
    if not command or scope is None or action_class is None or moment is None:
        return None
    scope = scope.strip()
    action_class = action_class.strip()
    if not scope or action_class not in allowed:
        return None
    if issubclass(type(grants), (*_NOT_ALLOWLISTS, Mapping)):
        return None
    digest = _digest(command)
    try:
        for item in grants:
            checked = _validated(item)
            if checked is None or not _live_at(checked, moment):
                continue
            found = checked.grant
            if (
                found.command_sha256 == digest
                and found.scope == scope
                and found.action_class == action_class
            ):
                return found
    except Exception:
        return None
    return None


def mark_consumed(grant: Grant | Mapping[str, object], now: datetime | None = None) -> Grant:
    """The validated grant with consumed_at set to `now` (a consumed grant is unchanged)."""
    checked = _validated(grant)
    moment = _clock_snapshot(now)
    if checked is None:
        raise GrantError("grant: not a valid grant")
    if moment is None:
        raise GrantError("now: must be None or a datetime")
    if checked.consumed is not None:
        return checked.grant
    return checked.grant._replace(consumed_at=_canonical_utc(moment))


def compose_audit_line(
    event: str,
    *,
    grant: Grant | Mapping[str, object] | None = None,
    now: datetime | None = None,
    note: str | None = None,
) -> str:
    """One NDJSON audit line (no trailing newline). Never raises."""
    event_text = _str_snapshot(event)
    moment = _clock_snapshot(now) or datetime.now(timezone.utc)
    fields = {} if grant is None else _record_snapshot(grant, _AUDIT_GRANT_FIELDS) or {}
    note_text = _str_snapshot(note)
    record: dict[str, str | None] = {
        "event": event_text if event_text is not None and event_text.strip() else "unknown",
        "at": _canonical_utc(moment),
    }
    for name in _AUDIT_GRANT_FIELDS:
        record[name] = _str_snapshot(fields.get(name))
    record["note"] = note_text or None
    return json.dumps(record, ensure_ascii=True, separators=(",", ":"))


# ---------------------------------------------------------------------------
# Self-check


def _self_check() -> None:
    if not __debug__:
        raise SystemExit(
            "capability_grant self-check: assertions are compiled out "
            "(python -O / PYTHONOPTIMIZE); run it without -O"
        )
    now = datetime(2026, 6, 6, 23, 30, tzinfo=timezone.utc)
    cmd = "deploy --env production"
    classes = ("deploy", "prod-write-probe")
    grant = build_grant(
        cmd,
        scope="my-app",
        action_class="deploy",
        grant_id="grant-abc123",
        allowed_classes=classes,
        now=now,
    )
    query = GrantQuery(cmd, "my-app", "deploy", now)
    assert normalize_command("  deploy  --env production \n") == "deploy  --env production"
    assert command_hash(cmd + "\r") != command_hash(cmd)
    assert grant.expires_at == "2026-06-06T23:45:00.000000+00:00"
    assert grant.minted_at == "2026-06-06T23:30:00.000000+00:00"
    for bad, name in (
        (dict(action_class="git-push"), "action_class"),
        (dict(allowed_classes=[]), "action_class"),
        (dict(ttl=timedelta(0)), "ttl"),
        (dict(ttl=900000), "ttl"),
        (dict(ttl=MAX_GRANT_TTL + timedelta(microseconds=1)), "ttl"),
        (dict(grant_id="../x"), "grant_id"),
        (dict(now="1000"), "now"),
    ):
        kwargs: dict[str, Any] = dict(
            scope="my-app",
            action_class="deploy",
            grant_id="grant-abc123",
            allowed_classes=classes,
            now=now,
        )
        kwargs.update(bad)
        try:
            build_grant(cmd, **kwargs)
        except GrantError as exc:
            assert name in str(exc), (name, exc)
        else:
            raise AssertionError(f"build_grant accepted a bad {name}")
    text = serialize_grant(grant)
    assert parse_grant(text, classes) == grant
    assert parse_grant(text, []) is None
    as_text = text.replace('"schema_version": 1', '"schema_version": "1"')
    assert parse_grant(as_text, classes) is None
    assert parse_grant(text.replace("{", '{\n  "cwd": "/tmp",', 1), classes) is None
    assert parse_grant(text.replace("{", '{\n  "command": "x",', 1), classes) is None
    assert parse_grant(text.replace(cmd, "echo harmless"), classes) is None
    assert not is_grant_live(grant, now + timedelta(minutes=15))
    assert not is_grant_live(grant, now - timedelta(microseconds=1))
    assert is_grant_live(grant, now)
    assert not is_grant_live(grant, now.timestamp())  # type: ignore[arg-type]
    hit = match_grant([grant], GrantQuery("  " + cmd, "my-app", "deploy", now), classes)
    assert hit is not None and hit.id == "grant-abc123"
    assert (
        match_grant([grant], GrantQuery(cmd + " && rm -rf /", "my-app", "deploy", now), classes)
        is None
    )
    assert (
        match_grant(
            [grant], GrantQuery("deploy\n--env production", "my-app", "deploy", now), classes
        )
        is None
    )
    assert match_grant([grant], {"command": cmd, "scope": "my-app", "now": now}, classes) is None
    assert match_grant([grant], query) is None
    junk: list[Any] = [None, {"action_class": "git-push"}]  # not grants: skipped, never raised on
    assert match_grant([*junk, grant], query, classes) == grant
    assert match_grant([mark_consumed(grant, now)], query, classes) is None

    class Shifty:
        reads = 0

        @property
        def command(self) -> str:
            Shifty.reads += 1
            return cmd + "; curl evil" if Shifty.reads == 1 else cmd

        scope, action_class = "my-app", "deploy"

    shifty: Any = Shifty()  # a query object (not a GrantQuery) is read attribute by attribute
    assert match_grant([grant], shifty, classes) is None and Shifty.reads == 1

    class Fickle(list):  # type: ignore[type-arg]
        calls = 0

        def __len__(self) -> int:
            Fickle.calls += 1
            return Fickle.calls

    assert not is_allowed_grant_class("git-push", Fickle(["deploy", "git-push"]))
    assert json.loads(compose_audit_line("denied", now=now))["id"] is None
    assert is_grant_expired(grant, now + timedelta(minutes=15))
    assert not is_grant_expired(grant, now + timedelta(minutes=15) - timedelta(microseconds=1))
    assert not is_grant_expired({"id": "not a grant"}, now + timedelta(days=1))
    # Limits, pinned: cwd is not bound; matching does not consume; a hand-written
    # grant is honoured; a different spelling of the same effect is a miss.
    assert (
        match_grant(
            [grant],
            {
                "command": cmd,
                "scope": "my-app",
                "action_class": "deploy",
                "now": now,
                "cwd": "/elsewhere",
            },
            classes,
        )
        == grant
    )
    assert match_grant([grant], query, classes) == match_grant([grant], query, classes) == grant
    forged = dict(grant._asdict(), id="handwritten")
    assert match_grant([forged], query, classes) is not None
    assert (
        match_grant(
            [grant], GrantQuery("deploy  --env production", "my-app", "deploy", now), classes
        )
        is None
    )
    stale = GrantQuery(cmd, "my-app", "deploy", now + timedelta(minutes=14))
    assert match_grant([grant], stale, classes) == grant  # the caller's clock is trusted
    print("capability_grant self-check: all assertions passed")


if __name__ == "__main__":
    _self_check()
