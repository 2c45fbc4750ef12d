"""One staleness chain for tracker and memory items, and one lag alert for a data source.

The failure
-----------
1. Readers that disagree. An API and a local check read the same tracker
   file but computed freshness differently (the newest of several review
   dates in one; the first present of review, then updated, then created in
   the other), so an item could be stale to one and fresh to the other.
   Every reader calls ``pick_stale_basis``, so there is no second chain.
2. One mass edit, every item fresh. Fields such as ``updated`` change on any
   write (a schema migration, a reformatting script). Fed into the chain, one
   bulk edit makes every item look freshly reviewed. Only declared SIGNAL
   fields count: dates written when someone actually reviewed the item.
3. A dashboard that looks current when it is not. The picture drawn from
   data that stopped arriving last week looks like today's. The pipeline
   must measure its own lag and alert: once per cooldown for one long
   outage, and again as soon as the latest date moves while still behind.

The fix
-------
``parse_instant`` reads one strict ISO-8601 grammar (date, or date-time with
optional seconds, fraction and offset; no offset means UTC) into an aware
UTC ``datetime``. ``pick_stale_basis`` takes the newest parseable signal
field or caller-resolved external signal, falls back to the created field
only when there is no signal, and otherwise returns the distinct "none"
verdict. Each verdict names the field or label that decided it.
``staleness_alert`` turns a latest date into lag, a stale flag and an alert
decision with a cooldown that is lifted when the latest date moves, and
hands back the state to persist (canonical ``YYYY-MM-DDTHH:MM:SS[.ffffff]Z``).

Posture
-------
Data never raises: ``parse_instant`` and ``pick_stale_basis`` skip malformed
items, entries and dates; the absence of any basis is its own verdict, never
"fresh". ``staleness_alert`` is an alarm, so every ambiguity in its data
resolves toward alerting: no basis is stale, an untrusted state is ignored.
Options are the caller's code, so a wrong one raises instead of being
guessed: ``TypeError`` for a wrong type, ``ValueError`` for a negative
``threshold`` or ``cooldown``, each message naming the option. ``None``
means the default for ``signal_fields``, ``created_field``,
``external_signals`` and ``now``.

Choices
-------
- A two-element external signal must be a ``tuple`` or ``list`` (a
  ``StaleBasis``, with three fields, is not one).
- A signal field listed twice, or also named as the created field, is read
  once (the first position counts).
- ``signal_fields`` and ``external_signals`` must be sequences other than
  ``str``/``bytes``/``bytearray`` (a generator or set is refused), and every
  signal field name must be a ``str``; an exception raised while iterating
  them propagates. The entries of ``external_signals`` are data: a malformed
  one is skipped.
- An empty ``created_field`` or one equal to ``"none"`` means the default.
- A stored state whose ``latest`` is present but not readable as an instant
  (garbage text, a number, the none verdict) is untrusted; only ``None`` or
  a missing key/attribute mean "no basis".
- A ``now`` that is a ``datetime`` but whose UTC instant is out of range (or
  whose tzinfo raises) falls back to the current time; a ``latest`` out of
  range is no basis.

What this does not catch
------------------------
Each limit is pinned by a test.

- A signal stamped by a bulk write: if a migration writes a signal field,
  that date is taken at face value. Keeping signal fields for real reviews
  is a rule for the writers.
- Future dates: a future-dated signal wins unclamped, and a future latest
  reads as fresh with a negative ``lag_days``. Clamping to ``now`` would bury
  the faulty writer; check for future dates upstream.
- Thresholds are policy: ``pick_stale_basis`` answers "when", not "too
  old"; ``staleness_alert`` applies the threshold it is given.
- Only strings are dates: a ``datetime`` object or an epoch number inside an
  item (say from a YAML loader) is skipped; convert to ISO-8601 first.

Lineage
-------
The signal-only chain comes from a production multi-agent system's tracker
tooling, after two readers disagreed and a bulk migration re-dated every
item. The lag alert whose cooldown is lifted when the latest date moves comes
from a practitioner's account of replacing spreadsheets with a data
pipeline ("staleness is a product feature"). The grammar is a strict subset
of ISO 8601 / RFC 3339, chosen to differ deliberately from the lenient
JavaScript ``Date.parse`` an earlier implementation relied on.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date, datetime, timedelta, timezone
from typing import NamedTuple

__all__ = [  # noqa: RUF022 - the order of docs/reference/stale_basis.md
    "DEFAULT_SIGNAL_FIELDS",
    "DEFAULT_CREATED_FIELD",
    "NO_BASIS",
    "EXTERNAL_BASIS",
    "StaleBasis",
    "AlertState",
    "StalenessAlert",
    "parse_instant",
    "pick_stale_basis",
    "staleness_alert",
]

DEFAULT_SIGNAL_FIELDS: tuple[str, ...] = ("lastEvaluated", "lastChecked")
DEFAULT_CREATED_FIELD: str = "created"
NO_BASIS: str = "none"
EXTERNAL_BASIS: str = "external"

_ZERO = timedelta(0)
_DAY = timedelta(days=1)
_NOT_SEQUENCES = (str, bytes, bytearray)

# Bounded classes and counts only: no nested quantifiers, so no backtracking blow-up.
_INSTANT = re.compile(
    r"(?P<y>[0-9]{4})-(?P<mo>[0-9]{2})-(?P<d>[0-9]{2})"
    r"(?:[Tt ](?P<h>[0-9]{2}):(?P<mi>[0-9]{2})"
    r"(?::(?P<s>[0-9]{2})(?:[.,](?P<f>[0-9]{1,9}))?)?"
    r"(?P<z>[Zz]|(?P<sign>[+-])(?P<oh>[0-9]{2}):?(?P<om>[0-9]{2}))?)?"
)


class StaleBasis(NamedTuple):
    """The date that decides freshness, the field or label it came from, its instant."""

    date: str | None
    basis: str
    when: datetime | None


class AlertState(NamedTuple):
    """What the caller persists between runs: when it alerted, about which latest."""

    alerted_at: str
    latest: str | None


class StalenessAlert(NamedTuple):
    """The alert decision, its reason, the lag to report and the state to keep."""

    alert: bool
    stale: bool
    reason: str
    lag_days: int | None
    latest: str | None
    state: AlertState | None


def parse_instant(value: object) -> datetime | None:
    """A `str` in the module's ISO-8601 grammar as an aware UTC datetime; else None."""
    if not isinstance(value, str):
        return None
    match = _INSTANT.fullmatch(value.strip())
    if match is None:
        return None
    part = match.group
    try:
        offset = _ZERO
        if part("sign") is not None:
            # timezone() itself refuses offsets of 24 hours or more
            offset_minutes = int(part("om"))
            if offset_minutes > 59:
                return None
            offset = timedelta(hours=int(part("oh")), minutes=offset_minutes)
            if part("sign") == "-":
                offset = -offset
        micro = int(((part("f") or "") + "00000")[:6])  # truncated, never rounded
        local = datetime(
            int(part("y")),
            int(part("mo")),
            int(part("d")),
            int(part("h") or 0),
            int(part("mi") or 0),
            int(part("s") or 0),
            micro,
            tzinfo=timezone(offset),
        )
        return local.astimezone(timezone.utc)
    except (ValueError, OverflowError):  # not a calendar date / time, or outside datetime
        return None


def _as_utc(now: object) -> datetime:
    """`now` as an aware UTC datetime: naive means UTC; anything else means the current time."""
    if not isinstance(now, datetime):
        return datetime.now(timezone.utc)
    if now.tzinfo is None or now.utcoffset() is None:
        return now.replace(tzinfo=timezone.utc)
    return now.astimezone(timezone.utc)


def _instant_of(value: object) -> datetime | None:
    """A `latest`-style value as an aware UTC instant: datetime, date, str or StaleBasis."""
    if isinstance(value, StaleBasis):
        value = value.when
        if not isinstance(value, datetime):
            return None
    if isinstance(value, str):
        return parse_instant(value)
    try:
        if isinstance(value, datetime):
            return _as_utc(value)
        if isinstance(value, date):
            return datetime(value.year, value.month, value.day, tzinfo=timezone.utc)
    except Exception:  # an offset outside datetime's range, a tzinfo that raises
        return None
    return None


def _canonical(when: datetime) -> str:
    """UTC `YYYY-MM-DDTHH:MM:SS[.ffffff]Z`, zero-padded for every year (unlike strftime)."""
    fraction = f".{when.microsecond:06d}" if when.microsecond else ""
    return (
        f"{when.year:04d}-{when.month:02d}-{when.day:02d}T"
        f"{when.hour:02d}:{when.minute:02d}:{when.second:02d}{fraction}Z"
    )


def _items(option: object, name: str) -> list[object]:
    """The entries of a Sequence option (not str/bytes/bytearray), read once; else TypeError."""
    if isinstance(option, _NOT_SEQUENCES) or not isinstance(option, Sequence):
        raise TypeError(
            f"{name} must be a sequence (not str or bytes), got {type(option).__name__}"
        )
    return list(option)


def _read(source: object, key: str) -> object:
    """`source.get(key)` for a Mapping, read once; a read that raises counts as absent."""
    if not isinstance(source, Mapping):
        return None
    try:
        return source.get(key)
    except Exception:
        return None


def pick_stale_basis(
    item: object,
    *,
    signal_fields: Sequence[str] | None = DEFAULT_SIGNAL_FIELDS,
    created_field: str | None = DEFAULT_CREATED_FIELD,
    external_signals: Sequence[object] | None = (),
) -> StaleBasis:
    """The newest valid signal (field or external), else the created date, else "none".

    Raises TypeError for an option of the wrong type (see the module docstring).
    """
    fields: list[str] = []
    for name in _items(
        DEFAULT_SIGNAL_FIELDS if signal_fields is None else signal_fields, "signal_fields"
    ):
        if not isinstance(name, str):
            raise TypeError(f"signal_fields entries must be str, got {type(name).__name__}")
        fields.append(name)
    if created_field is not None and not isinstance(created_field, str):
        raise TypeError(f"created_field must be a str or None, got {type(created_field).__name__}")
    externals = [] if external_signals is None else _items(external_signals, "external_signals")
    read: dict[str, object] = {}  # each item field is read once, even if named twice
    candidates: list[tuple[str, str]] = []  # (raw value, basis label), in declared order
    for name in fields:
        if name == NO_BASIS or name in read:
            continue
        raw = read[name] = _read(item, name)
        if isinstance(raw, str):
            candidates.append((raw, name))
    for entry in externals:
        if isinstance(entry, Mapping):
            raw, label = _read(entry, "date"), _read(entry, "basis")
        elif isinstance(entry, (tuple, list)) and len(entry) == 2:
            raw, label = entry[0], entry[1]
        else:
            continue
        if isinstance(raw, str):
            candidates.append(
                (
                    raw,
                    label
                    if isinstance(label, str) and label and label != NO_BASIS
                    else EXTERNAL_BASIS,
                )
            )
    parsed = [
        (when, raw, name) for raw, name in candidates if (when := parse_instant(raw)) is not None
    ]
    if parsed:
        newest = max(when for when, _, _ in parsed)
        # the earliest candidate among equal instants, however each was written
        when, raw, name = next(entry for entry in parsed if entry[0] == newest)
        return StaleBasis(raw.strip(), name, when)
    created = created_field or ""
    if created in ("", NO_BASIS):
        created = DEFAULT_CREATED_FIELD
    raw = read[created] if created in read else _read(item, created)
    when = parse_instant(raw)
    if when is not None and isinstance(raw, str):
        return StaleBasis(raw.strip(), created, when)
    return StaleBasis(None, NO_BASIS, None)


def _previous(last_alert: object, now: datetime) -> tuple[datetime, datetime | None] | None:
    """(alerted_at, latest) of a trusted previous state; None when absent or untrusted."""
    if last_alert is None:
        return None
    if isinstance(last_alert, Mapping):
        alerted_raw, latest_raw = _read(last_alert, "alerted_at"), _read(last_alert, "latest")
    else:
        try:
            alerted_raw = getattr(last_alert, "alerted_at", None)
            latest_raw = getattr(last_alert, "latest", None)
        except Exception:
            return None
    alerted_at = _instant_of(alerted_raw)
    if alerted_at is None or alerted_at > now:
        return None
    if latest_raw is None:
        return alerted_at, None
    latest = _instant_of(latest_raw)
    if latest is None:
        return None
    return alerted_at, latest


def _duration(option: object, name: str) -> timedelta:
    """A non-negative timedelta option as given; TypeError or ValueError naming it otherwise."""
    if not isinstance(option, timedelta):
        raise TypeError(f"{name} must be a timedelta, got {type(option).__name__}")
    if option < _ZERO:
        raise ValueError(f"{name} must not be negative, got {option!r}")
    return option


def staleness_alert(
    latest: object,
    *,
    now: datetime | None = None,
    threshold: timedelta,
    cooldown: timedelta,
    last_alert: object = None,
) -> StalenessAlert:
    """Lag of `latest` behind `now`, whether it is stale, and whether to alert now.

    Raises TypeError for a `now` that is not a datetime or None, or a `threshold`
    or `cooldown` that is not a timedelta; ValueError when either is negative.
    """
    if now is not None and not isinstance(now, datetime):
        raise TypeError(f"now must be a datetime or None, got {type(now).__name__}")
    limit = _duration(threshold, "threshold")
    pause = _duration(cooldown, "cooldown")
    try:
        current = _as_utc(now)
    except Exception:  # now's UTC instant is outside datetime's range, or its tzinfo raises
        current = _as_utc(None)
    when = _instant_of(latest)
    latest_text = None if when is None else _canonical(when)
    lag_days = None if when is None else (current - when) // _DAY
    if when is not None and current - when <= limit:
        return StalenessAlert(False, False, "fresh", lag_days, latest_text, None)
    previous = _previous(last_alert, current)
    if previous is None:
        reason = "first"
    elif previous[1] != when:
        reason = "moved"
    elif current - previous[0] >= pause:
        reason = "cooldown_elapsed"
    else:
        kept_latest = None if previous[1] is None else _canonical(previous[1])
        return StalenessAlert(
            False,
            True,
            "cooldown",
            lag_days,
            latest_text,
            AlertState(_canonical(previous[0]), kept_latest),
        )
    return StalenessAlert(
        True, True, reason, lag_days, latest_text, AlertState(_canonical(current), latest_text)
    )


def _self_check() -> None:
    if not __debug__:
        raise SystemExit("stale_basis self-check needs assertions: run without -O / PYTHONOPTIMIZE")
    utc = timezone.utc

    def day(month_day: str) -> str:
        return f"2026-{month_day}T00:00:00Z"

    none = StaleBasis(None, NO_BASIS, None)
    assert pick_stale_basis(
        {"lastEvaluated": day("07-01"), "lastChecked": day("08-01"), "created": day("01-01")}
    ) == StaleBasis(day("08-01"), "lastChecked", datetime(2026, 8, 1, tzinfo=utc))
    got = pick_stale_basis(
        {"lastEvaluated": day("07-01"), "created": day("01-01")},
        external_signals=[{"date": "2026-08-10T12:00:00Z", "basis": "linkedCommit"}],
    )
    assert (got.date, got.basis) == ("2026-08-10T12:00:00Z", "linkedCommit")
    assert pick_stale_basis({"created": day("01-01")}).basis == "created"
    assert pick_stale_basis({}) == pick_stale_basis(None) == pick_stale_basis([1, 2]) == none
    assert pick_stale_basis(
        {"lastEvaluated": day("07-01"), "updated": day("08-13"), "created": day("01-01")}
    ).date == day("07-01")
    assert pick_stale_basis({"updated": day("08-13")}, signal_fields=["updated"]).basis == (
        "updated"
    )
    for option, wrong in (
        ("signal_fields", "lastEvaluated"),
        ("created_field", 5),
        ("external_signals", "2026-08-01"),
    ):
        try:
            pick_stale_basis({}, **{option: wrong})  # type: ignore[arg-type]
        except TypeError as error:
            assert option in str(error), error
        else:
            raise AssertionError(f"{option}={wrong!r} accepted")
    assert (
        pick_stale_basis({"lastEvaluated": "not a date", "lastChecked": "   ", "created": 1234})
        == none
    )
    assert (
        pick_stale_basis(
            {},
            external_signals=[
                {"date": "garbage"},
                {"date": None},
                ("2026-06-01T00:00:00Z", "linkedCommit"),
            ],
        ).basis
        == "linkedCommit"
    )
    assert pick_stale_basis({"lastEvaluated": "  2026-07-01  "}) == StaleBasis(
        "2026-07-01", "lastEvaluated", datetime(2026, 7, 1, tzinfo=utc)
    )
    assert parse_instant("2026-08-01T02:00:00+02:00") == parse_instant("2026-08-01T00:00:00Z")
    for bad in (
        "2026-02-30",
        "1234",
        "2026-08",
        "2026-08-01T24:00:00Z",
        "20260801",
        "2026-08-01T10:00+02",
        "0001-01-01T00:00:00+01:00",
        "2026-08-01T23:59:60Z",
    ):
        assert parse_instant(bad) is None, bad
    assert parse_instant("2026-08-01T10:20:30.9999999") == datetime(
        2026, 8, 1, 10, 20, 30, 999999, tzinfo=utc
    )
    # Limits: future dates win unclamped and read fresh; only strings are dates.
    assert (
        pick_stale_basis({"lastEvaluated": "2027-01-01T00:00:00Z", "created": day("01-01")}).date
        == "2027-01-01T00:00:00Z"
    )
    assert pick_stale_basis({"lastEvaluated": datetime(2026, 8, 1, tzinfo=utc)}) == none
    two, cool = timedelta(days=2), timedelta(hours=24)

    def run(latest: object, now: datetime, last: object = None) -> StalenessAlert:
        return staleness_alert(latest, now=now, threshold=two, cooldown=cool, last_alert=last)

    first_state = AlertState("2026-07-31T09:00:00Z", "2026-07-28T00:00:00Z")
    assert run("2026-07-30", datetime(2026, 7, 31, 9)) == StalenessAlert(
        False, False, "fresh", 1, "2026-07-30T00:00:00Z", None
    )
    assert run("2026-07-28", datetime(2026, 7, 31, 9)) == StalenessAlert(
        True, True, "first", 3, "2026-07-28T00:00:00Z", first_state
    )
    assert run("2026-07-28", datetime(2026, 7, 31, 15), first_state) == StalenessAlert(
        False, True, "cooldown", 3, "2026-07-28T00:00:00Z", first_state
    )
    assert run("2026-07-28", datetime(2026, 8, 1, 9), first_state)[:4] == (
        True,
        True,
        "cooldown_elapsed",
        4,
    )
    assert run("2026-07-29", datetime(2026, 7, 31, 15), first_state) == StalenessAlert(
        True,
        True,
        "moved",
        2,
        "2026-07-29T00:00:00Z",
        AlertState("2026-07-31T15:00:00Z", "2026-07-29T00:00:00Z"),
    )
    assert run("2026-07-29", datetime(2026, 7, 31))[:4] == (False, False, "fresh", 2)
    assert run(None, datetime(2026, 7, 31, 9)) == StalenessAlert(
        True, True, "first", None, None, AlertState("2026-07-31T09:00:00Z", None)
    )
    assert run("2026-07-31T10:00:00Z", datetime(2026, 7, 31, 9))[:4] == (False, False, "fresh", -1)
    wrong_options: tuple[tuple[str, object, type[Exception]], ...] = (
        ("threshold", 2, TypeError),
        ("cooldown", -cool, ValueError),
        ("now", "2026-07-31", TypeError),
    )
    for option, bad_value, error_type in wrong_options:
        options: dict[str, object] = {"threshold": two, "cooldown": cool, option: bad_value}
        try:
            staleness_alert(None, **options)  # type: ignore[arg-type]
        except error_type as error:
            assert option in str(error), error
        else:
            raise AssertionError(f"{option}={bad_value!r} accepted")
    print("stale_basis self-check: all assertions passed")


if __name__ == "__main__":
    _self_check()
