"""Memory usage ledger: record which memory files carried load, and tally it.

The failure guarded against
---------------------------
Agent memory directories only grow, and the periodic pruning pass decides from
judgment alone ("does this still look useful?") with no evidence of which
memories actually carried load. It fails both ways: plausible facts nobody has
read in months survive, and an ugly fact that settles a recurring decision every
week gets deleted because it looks stale.

The fix
-------
An append-only JSON Lines usage ledger. At session close the agent records one
*touch* (a row ``{"ts", "name", "session"}``) for each memory file that was
load-bearing in that session (`make_touch_rows` + `format_ledger_rows`, appended
by the caller). The eviction pass reads a *tally* over a window
(`parse_ledger_text` + `tally_usage`): touch count and last touch per name, and
the fact names never touched. The module records and reports; it never decides.

Posture
-------
Fail-soft on data: malformed rows and lines are dropped and *counted*, never
raised; no function raises on any text, row or name it inspects. Options are
checked: a ``window``, ``now``, ``session`` or ``known_names`` of the wrong type
raises TypeError naming the option (a non-positive ``window`` raises
ValueError); ``None`` means the default. Absence is its own answer: a tally always
says how many rows it read (`rows_read`) and how many fell inside the window
(`rows_in_window`), because an empty ledger makes every memory look untouched,
and that is absence of evidence, not rot.

Choices
-------
Each choice is pinned by a test.

- Timestamps read by `tally_usage`: a fraction (``.`` or ``,`` plus 1-9 digits) is a
  fraction of a *second*, so it is only accepted after ``:SS``; ``12:00.5`` is
  malformed. Instants are compared as exact integer microseconds, so rows near
  the ends of the calendar never overflow.
- `parse_ledger_text` reads strict JSON: the non-standard constants ``NaN``,
  ``Infinity`` and ``-Infinity`` make a line skipped (the writer never emits them).
  An oversized number is an integer of more than 4300 digits or a number that
  is not finite as a float (``1e999``): its line is skipped, on every Python.
- `make_touch_rows`: ``known_names=None`` turns the check off; a value that is
  not an iterable, or is text (``str``, ``bytes``), raises TypeError; an iterable
  that raises while being listed counts as empty (every name unknown), and its
  non-str items are ignored.
- ``session`` is a str or None (recorded as ``null``); anything else raises
  TypeError. ``window`` is a positive timedelta or None (90 days).
- ``now`` is a datetime or None (the current UTC time); anything else raises
  TypeError. A datetime that cannot be converted to UTC (a datetime whose offset pushes it
  outside the calendar, a tzinfo that raises) means the current UTC time.
- A window or cutoff reaching before year 1 simply counts every row.

WHAT THIS DOES NOT CATCH
------------------------
- An empty ledger is absence of evidence, not evidence of rot: with zero rows
  every fact is never-touched; ``rows_read == 0`` says so, and refusing to act on
  it is the caller's job. A never-touched list only means something after
  sessions have recorded for a good part of the window.
- Touches are self-reported and taken at face value: a session that forgets to
  record under-counts, one that touches everything it loaded over-counts. The
  convention (touch = load-bearing, not merely present in context) lives in the
  session-close prompt or skill, not here.
- Future-dated touches count, unclamped (so the writer bug stays visible).
- It counts; it does not judge: no score, threshold, budget or eviction.
- Renaming a memory file orphans its history under the old name; names compare
  literally (``alpha.md`` or ``Alpha`` in a row does not count for ``alpha``).

Lineage
-------
Two systems score memory by use while keeping deterministic scoring apart from
policy: the PEEK evictor (arXiv:2605.19932: per-run helpful/harmful/stale tags,
lowest-first eviction under a token budget) and the memory-strategy bench of
yc-software/qm. This module is their common core: record use, report use,
decide elsewhere. An eviction pass built on it can borrow PEEK's keep test: does
the memory help questions other than the one that produced it?
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from datetime import date, datetime, timedelta, timezone
from typing import Any, NamedTuple

__all__ = [
    "DEFAULT_WINDOW",
    "LedgerRows",
    "Touch",
    "TouchRows",
    "UsageTally",
    "format_ledger_rows",
    "make_touch_rows",
    "parse_ledger_text",
    "tally_usage",
]

DEFAULT_WINDOW = timedelta(days=90)

# The timestamp grammar (docs/reference/memory_usage_ledger.md, section 3), ASCII
# digits only; a zone only after a time, a fraction only after seconds. Every
# quantifier is bounded: no backtracking blow-up.
_TS_RE = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})"
    r"(?:[Tt ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:[.,]([0-9]{1,9}))?)?"
    r"(?:[Zz]|([+-])([0-9]{2})(?::?([0-9]{2}))?)?)?"
)
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_US_PER_SECOND = 1_000_000
_SECONDS_PER_DAY = 86_400
_ONE_US = timedelta(microseconds=1)
_MAX_INT_DIGITS = 4300  # CPython's default int/str conversion limit


class LedgerRows(NamedTuple):
    """The JSON objects of a ledger text, in file order, and the lines skipped."""

    rows: tuple[dict[str, Any], ...]
    skipped: int


class TouchRows(NamedTuple):
    """Rows to append for one session close, and what was refused or unknown."""

    rows: tuple[dict[str, Any], ...]
    rejected: tuple[str, ...]
    unknown: tuple[str, ...]


class Touch(NamedTuple):
    """Use of one name inside the window; `last_touch` is the row's ts, verbatim."""

    name: str
    count: int  # type: ignore[assignment]  # the documented field name; shadows tuple.count
    last_touch: str


class UsageTally(NamedTuple):
    """Touches per name over a window, never-touched facts, and what was read."""

    touched: tuple[Touch, ...]
    never_touched: tuple[str, ...]
    window: timedelta
    rows_read: int
    rows_in_window: int
    rows_skipped: int


# --------------------------------------------------------------------------- helpers


def _as_utc(now: object) -> datetime:
    """`now` as an aware UTC datetime: naive means UTC; anything else means the current time."""
    if not isinstance(now, datetime):
        return datetime.now(timezone.utc)
    if now.tzinfo is None or now.utcoffset() is None:
        return now.replace(tzinfo=timezone.utc)
    return now.astimezone(timezone.utc)


def _ledger_now(now: object) -> datetime:
    """`_as_utc` of a checked `now`; a datetime that cannot be converted means the current time."""
    if now is not None and not isinstance(now, datetime):
        raise TypeError(f"now must be a datetime or None, not {type(now).__name__}")
    try:
        return _as_utc(now)
    except Exception:
        return datetime.now(timezone.utc)


def _ledger_items(value: object) -> tuple[object, ...]:
    """One copy of an iterable argument; None, text, non-iterables and failures -> ()."""
    if value is None or isinstance(value, (str, bytes, bytearray)):
        return ()
    try:
        return tuple(value)  # type: ignore[arg-type]
    except Exception:
        return ()


def _exact_str(text: str) -> str:
    """An exact `str` copy of a `str` (subclasses lose their overrides)."""
    return str.__str__(text)


def _utc_micros(moment: datetime) -> int:
    """Microseconds since 0001-01-01T00:00Z of an aware UTC datetime."""
    seconds = moment.toordinal() * _SECONDS_PER_DAY
    seconds += moment.hour * 3600 + moment.minute * 60 + moment.second
    return seconds * _US_PER_SECOND + moment.microsecond


def _ts_micros(text: str) -> int | None:
    """The instant of a ledger timestamp as integer UTC microseconds, or None if malformed."""
    match = _TS_RE.fullmatch(text)
    if match is None:
        return None
    year, month, day, hour, minute, second, fraction, sign, off_h, off_m = match.groups()
    try:
        ordinal = date(int(year), int(month), int(day)).toordinal()
    except ValueError:
        return None
    h = int(hour) if hour is not None else 0
    m = int(minute) if minute is not None else 0
    s = int(second) if second is not None else 0
    if h > 23 or m > 59 or s > 59:
        return None
    micros = int((fraction or "")[:6].ljust(6, "0"))
    offset = 0
    if sign is not None:
        oh = int(off_h)
        om = int(off_m) if off_m is not None else 0
        if oh > 23 or om > 59:
            return None
        offset = oh * 3600 + om * 60
        if sign == "-":
            offset = -offset
    seconds = ordinal * _SECONDS_PER_DAY + h * 3600 + m * 60 + s - offset
    return seconds * _US_PER_SECOND + micros


def _ledger_stamp(moment: datetime) -> str:
    """`YYYY-MM-DDTHH:MM:SS.mmmZ` of an aware UTC datetime (milliseconds truncated)."""
    return (
        f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}T"
        f"{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}."
        f"{moment.microsecond // 1000:03d}Z"
    )


def _json_no_constant(token: str) -> Any:
    """`NaN`, `Infinity`, `-Infinity`: not JSON, so the line is skipped."""
    raise ValueError(f"not JSON: {token}")


def _json_bounded_int(token: str) -> int:
    """A JSON integer of at most `_MAX_INT_DIGITS` digits (the same on every Python)."""
    if len(token.lstrip("-")) > _MAX_INT_DIGITS:
        raise ValueError("integer too large")
    return int(token)


def _json_finite_float(token: str) -> float:
    """A JSON number that is finite as a float (`1e999` is oversized: skipped)."""
    value = float(token)
    if not math.isfinite(value):
        raise ValueError("number too large")
    return value


# One strict decoder, built once (building one per line would dominate parse time).
_DECODER = json.JSONDecoder(
    parse_constant=_json_no_constant, parse_int=_json_bounded_int, parse_float=_json_finite_float
)


def _is_fact_name(name: str) -> bool:
    """A bare fact name: non-empty, no separator, no `.md`, not `.`/`..`, no surrogate."""
    if not name or "/" in name or "\\" in name or name in (".", ".."):
        return False
    if name[-3:].lower() == ".md":
        return False
    return _SURROGATE_RE.search(name) is None


def _rejected_text(item: object) -> str:
    """`str(item)` for a rejected non-str item, never raising."""
    try:
        text = str(item)
    except Exception:
        return f"<{type(item).__name__}>"
    return _exact_str(text) if isinstance(text, str) else f"<{type(item).__name__}>"


# --------------------------------------------------------------------------- public API


def _checked_window(window: object) -> timedelta:
    """`window` as a plain positive timedelta; None means `DEFAULT_WINDOW`."""
    if window is None:
        return DEFAULT_WINDOW
    if not isinstance(window, timedelta):
        raise TypeError(f"window must be a timedelta or None, not {type(window).__name__}")
    if window <= timedelta(0):
        raise ValueError(f"window must be positive, not {window!r}")
    return timedelta(days=window.days, seconds=window.seconds, microseconds=window.microseconds)


def _checked_known(known_names: object) -> frozenset[str] | None:
    """The names `known_names` lists (None: the check is off); a non-iterable raises."""
    if known_names is None:
        return None
    if isinstance(known_names, (str, bytes, bytearray)):
        raise TypeError("known_names must be an iterable of names, not text")
    try:
        listing = iter(known_names)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(
            f"known_names must be an iterable of str or None, not {type(known_names).__name__}"
        ) from None
    except Exception:
        return frozenset()  # listing raised: every name is unknown
    return frozenset(_exact_str(k) for k in _ledger_items(listing) if isinstance(k, str))


def parse_ledger_text(text: str) -> LedgerRows:
    """The JSON-object rows of a JSON Lines text, in order; other non-blank lines counted."""
    if not isinstance(text, str) or not text:
        return LedgerRows((), 0)
    rows: list[dict[str, Any]] = []
    skipped = 0
    # Lines end at "\n" only (never `str.splitlines`). The one "\r" before a "\n"
    # belongs to the break; JSON and the blank test both read it as whitespace, so
    # it needs no separate removal.
    for line in str.split(text, "\n"):
        if not line.strip():
            continue
        try:
            value = _DECODER.decode(line)
        except Exception:
            skipped += 1
            continue
        if isinstance(value, dict):
            rows.append(value)
        else:
            skipped += 1
    return LedgerRows(tuple(rows), skipped)


def format_ledger_rows(rows: Iterable[Mapping[str, object]]) -> str:
    """JSON Lines text to append: one compact line per serializable mapping, in order."""
    lines: list[str] = []
    for item in _ledger_items(rows):
        if not isinstance(item, Mapping):
            continue
        try:
            line = json.dumps(
                dict(item), ensure_ascii=False, separators=(",", ":"), allow_nan=False
            )
        except Exception:
            continue
        lines.append(line + "\n")
    return "".join(lines)


def make_touch_rows(
    names: Iterable[str],
    *,
    session: str | None = None,
    now: datetime | None = None,
    known_names: Iterable[str] | None = None,
) -> TouchRows:
    """One touch row per distinct valid name, sharing one timestamp; refusals listed."""
    if session is not None and not isinstance(session, str):
        raise TypeError(f"session must be a str or None, not {type(session).__name__}")
    known = _checked_known(known_names)
    ts = _ledger_stamp(_ledger_now(now))
    items = _ledger_items(names)
    kept_session = None if session is None else _exact_str(session)
    rows: list[dict[str, Any]] = []
    rejected: list[str] = []
    unknown: list[str] = []
    seen: set[str] = set()
    for item in items:
        if not isinstance(item, str):
            rejected.append(_rejected_text(item))
            continue
        given = _exact_str(item)
        name = given.strip()
        if not _is_fact_name(name):
            rejected.append(given)
            continue
        if name in seen:
            continue
        seen.add(name)
        rows.append({"ts": ts, "name": name, "session": kept_session})
        if known is not None and name not in known:
            unknown.append(name)
    return TouchRows(tuple(rows), tuple(rejected), tuple(unknown))


def tally_usage(
    rows: Iterable[Mapping[str, object]],
    fact_names: Iterable[str],
    *,
    window: timedelta | None = DEFAULT_WINDOW,
    now: datetime | None = None,
) -> UsageTally:
    """Touch count and last touch per name over `window` ending at `now`, plus facts
    with no counted touch; `rows_read` says whether there was any evidence at all."""
    items = _ledger_items(rows)
    facts = _ledger_items(fact_names)
    used = _checked_window(window)
    cutoff = _utc_micros(_ledger_now(now)) - used // _ONE_US
    counts: dict[str, int] = {}
    latest: dict[str, tuple[int, str]] = {}
    instants: dict[str, int | None] = {}
    rows_read = rows_in_window = rows_skipped = 0
    for item in items:
        try:
            if not isinstance(item, Mapping):
                raise TypeError
            name = item.get("name")
            ts = item.get("ts")
        except Exception:
            rows_skipped += 1
            continue
        if not isinstance(name, str) or not name or not isinstance(ts, str):
            rows_skipped += 1
            continue
        ts = _exact_str(ts)
        if ts in instants:  # rows of one session close share one stamp
            instant = instants[ts]
        else:
            instant = instants[ts] = _ts_micros(ts)
        if instant is None:
            rows_skipped += 1
            continue
        rows_read += 1
        if instant < cutoff:
            continue
        rows_in_window += 1
        name = _exact_str(name)
        counts[name] = counts.get(name, 0) + 1
        best = latest.get(name)
        if best is None or instant > best[0]:
            latest[name] = (instant, ts)
    touched = tuple(
        sorted(
            (Touch(n, c, latest[n][1]) for n, c in counts.items()), key=lambda t: (-t.count, t.name)
        )
    )
    never = tuple(sorted({_exact_str(f) for f in facts if isinstance(f, str)} - counts.keys()))
    return UsageTally(touched, never, used, rows_read, rows_in_window, rows_skipped)


# --------------------------------------------------------------------------- self-check


def _self_check() -> None:
    if not __debug__:
        raise SystemExit(
            "memory_usage_ledger self-check: assertions are compiled out "
            "(python -O / PYTHONOPTIMIZE); run it without -O"
        )
    utc = timezone.utc
    now = datetime(2026, 8, 15, 12, tzinfo=utc)

    def iso(days: float) -> str:
        return _ledger_stamp(now - timedelta(days=days))

    def row(name: object, ts: object, session: object = None) -> dict[str, Any]:
        return {"ts": ts, "name": name, "session": session}

    # 1-2: counting, never-touched, rows read outside the window.
    got = tally_usage(
        [row("alpha", iso(1), "s1"), row("alpha", iso(2), "s2"), row("beta", iso(3), "s1")],
        ["alpha", "beta", "gamma"],
        now=now,
    )
    assert got.touched == (Touch("alpha", 2, iso(1)), Touch("beta", 1, iso(3))), got
    assert got.never_touched == ("gamma",) and got.rows_read == 3 and got.rows_in_window == 3
    assert got.window == DEFAULT_WINDOW == timedelta(days=90)
    got = tally_usage([row("beta", iso(200))], ["beta"], now=now)
    assert got.never_touched == ("beta",) and (got.rows_read, got.rows_in_window) == (1, 0)
    # 3: malformed rows skipped and counted.
    got = tally_usage(
        [
            {"bogus": True},
            {"ts": 12345, "name": "alpha"},
            {"ts": "not a date", "name": "alpha"},
            row(None, iso(1)),
            row("alpha", iso(1)),
        ],
        [],
        now=now,
    )
    assert got.touched == (Touch("alpha", 1, iso(1)),) and got.rows_read == 1
    assert got.rows_skipped == 4
    # 4-5: absence is its own answer (limit: an empty ledger is not evidence of rot).
    assert tally_usage(None, None)[:2] == ((), ())  # type: ignore[arg-type]
    assert tally_usage(None, ["a"]).never_touched == ("a",)  # type: ignore[arg-type]
    got = tally_usage([], ["alpha", "beta"], now=now)
    assert got.never_touched == ("alpha", "beta") and got.rows_read == 0
    # 6: future touches count unclamped (limit); the cutoff is inclusive.
    assert tally_usage([row("a", iso(-5))], [], now=now).rows_in_window == 1
    edge = now - DEFAULT_WINDOW
    at = edge.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    before = (edge - _ONE_US).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    assert tally_usage([row("a", at)], [], now=now).rows_in_window == 1
    assert tally_usage([row("a", before)], [], now=now).rows_in_window == 0
    # 7: instants, not strings.
    got = tally_usage(
        [row("alpha", "2026-08-14T14:00:00+02:00"), row("alpha", "2026-08-14T13:00:00Z")],
        [],
        now=now,
    )
    assert got.touched[0].last_touch == "2026-08-14T13:00:00Z"
    # 8: parsing.
    parsed = parse_ledger_text(
        '{"ts":"2026-08-14T00:00:00Z","name":"a"}\r\n\r\nnot json\n'
        '[1,2]\n{"ts":"2026-08-14T00:00:00Z","name":"b"}\n'
    )
    assert [r["name"] for r in parsed.rows] == ["a", "b"] and parsed.skipped == 2
    assert parse_ledger_text("") == parse_ledger_text(None) == LedgerRows((), 0)  # type: ignore[arg-type]
    # 9-11: writing.
    made = make_touch_rows(["alpha", "beta"], session="s9", now=now)
    assert [r["ts"] for r in made.rows] == ["2026-08-15T12:00:00.000Z"] * 2
    assert all(r["session"] == "s9" for r in made.rows) and made.rejected == ()
    mixed: list[Any] = ["ok", "dir/bad", "win\\bad", "alpha.md", "", 7, "ALPHA.MD", "..", " ok "]
    made = make_touch_rows(mixed, now=now)
    assert [r["name"] for r in made.rows] == ["ok"]
    assert made.rejected == ("dir/bad", "win\\bad", "alpha.md", "", "7", "ALPHA.MD", "..")
    made = make_touch_rows(["alpha", "alhpa"], now=now, known_names=["alpha"])
    assert len(made.rows) == 2 and made.unknown == ("alhpa",)
    # Round trip through the file format.
    text = format_ledger_rows(made.rows)
    assert parse_ledger_text(text) == LedgerRows(made.rows, 0) and text.count("\n") == 2
    # Limits: self-reported touches count at face value; it never judges; renames orphan.
    over = tally_usage([row(n, iso(1)) for n in ("a", "b", "c")], ["a", "b", "c"], now=now)
    assert over.never_touched == () and len(over.touched) == 3
    assert set(UsageTally._fields) == {
        "touched",
        "never_touched",
        "window",
        "rows_read",
        "rows_in_window",
        "rows_skipped",
    }
    moved = tally_usage([row("old_name", iso(1))], ["new_name"], now=now)
    assert moved.never_touched == ("new_name",) and moved.touched[0].name == "old_name"
    assert tally_usage([row("alpha.md", iso(1))], ["alpha"], now=now).never_touched == ("alpha",)
    # Options of the wrong type raise, naming the option; None means the default.
    for call, option in (
        (lambda: tally_usage([], [], window=timedelta(0)), "window"),
        (lambda: tally_usage([], [], window="90"), "window"),  # type: ignore[arg-type]
        (lambda: tally_usage([], [], now="2026-08-15"), "now"),  # type: ignore[arg-type]
        (lambda: make_touch_rows(["a"], session=5), "session"),  # type: ignore[arg-type]
        (lambda: make_touch_rows(["a"], known_names=5), "known_names"),  # type: ignore[arg-type]
    ):
        try:
            call()
        except (TypeError, ValueError) as error:
            assert option in str(error), error
        else:
            raise AssertionError(f"{option}: no error")
    assert tally_usage([], [], window=None, now=now).window == DEFAULT_WINDOW
    print("memory_usage_ledger self-check: all assertions passed")


if __name__ == "__main__":
    _self_check()
