"""Tests for agentops/stale_basis.py: date grammar, basis chain, lag alert, limits, properties."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from datetime import date, datetime, timedelta, timezone, tzinfo
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentops import stale_basis as mod
from agentops.stale_basis import (
    DEFAULT_CREATED_FIELD,
    DEFAULT_SIGNAL_FIELDS,
    EXTERNAL_BASIS,
    NO_BASIS,
    AlertState,
    StaleBasis,
    StalenessAlert,
    parse_instant,
    pick_stale_basis,
    staleness_alert,
)

UTC = timezone.utc
NONE_VERDICT = StaleBasis(None, "none", None)
DAY = timedelta(days=1)
TWO_DAYS = timedelta(days=2)
COOLDOWN = timedelta(hours=24)


def d(month_day: str) -> str:
    """`07-01` -> "2026-07-01T00:00:00Z" (the spec's abbreviation)."""
    return f"2026-{month_day}T00:00:00Z"


def at(text: str) -> datetime:
    """An aware UTC datetime from "YYYY-MM-DDTHH:MM" shorthand."""
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def alert(latest: Any, now: Any, last: Any = None, **kw: Any) -> StalenessAlert:
    kw.setdefault("threshold", TWO_DAYS)
    kw.setdefault("cooldown", COOLDOWN)
    return staleness_alert(latest, now=now, last_alert=last, **kw)


# ---------------------------------------------------------------- API


def test_public_api_and_constants() -> None:
    assert sorted(mod.__all__) == sorted(
        [
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
    )
    assert len(mod.__all__) == 10
    assert DEFAULT_SIGNAL_FIELDS == ("lastEvaluated", "lastChecked")
    assert isinstance(DEFAULT_SIGNAL_FIELDS, tuple)
    assert DEFAULT_CREATED_FIELD == "created"
    assert NO_BASIS == "none"
    assert EXTERNAL_BASIS == "external"
    assert StaleBasis._fields == ("date", "basis", "when")
    assert AlertState._fields == ("alerted_at", "latest")
    assert StalenessAlert._fields == ("alert", "stale", "reason", "lag_days", "latest", "state")


# ---------------------------------------------------------------- positive controls


def test_positive_control_bulk_write_never_changes_basis() -> None:
    item = {"lastEvaluated": d("07-01"), "created": d("01-01")}
    before = pick_stale_basis(item)
    migrated = dict(
        item,
        updated="2026-08-13T00:00:00Z",
        modified="2026-08-13T00:00:00Z",
        lastModified="2026-08-13T00:00:00Z",
    )
    after = pick_stale_basis(migrated)
    assert after == before
    assert after.basis == "lastEvaluated" and after.date == d("07-01")
    # and with no signal at all, a bulk write does not make the item fresh either
    assert pick_stale_basis({"updated": d("08-13")}) == NONE_VERDICT
    assert pick_stale_basis({"updated": d("08-13"), "created": d("01-01")}).basis == "created"


def test_positive_control_stuck_feed_alerts_once_per_cooldown_then_on_move() -> None:
    latest = "2026-07-20"
    now = at("2026-07-31T00:00")
    state = None
    fired: list[tuple[datetime, str]] = []
    for hour in range(72):  # hourly runs, feed stuck for three days
        res = alert(latest, now + timedelta(hours=hour), state)
        assert res.stale
        if res.alert:
            fired.append((now + timedelta(hours=hour), res.reason))
        state = res.state
    assert fired == [
        (now, "first"),
        (now + DAY, "cooldown_elapsed"),
        (now + 2 * DAY, "cooldown_elapsed"),
    ]
    # the feed advances by a day but is still behind: news, alert at once
    moved = alert("2026-07-21", now + timedelta(hours=72, minutes=5), state)
    assert (moved.alert, moved.reason) == (True, "moved")
    again = alert("2026-07-21", now + timedelta(hours=73), moved.state)
    assert (again.alert, again.reason) == (False, "cooldown")


# ---------------------------------------------------------------- parse_instant: accepted


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2026-08-01", datetime(2026, 8, 1, tzinfo=UTC)),
        ("2026-08-01T10:20", datetime(2026, 8, 1, 10, 20, tzinfo=UTC)),
        ("2026-08-01t10:20", datetime(2026, 8, 1, 10, 20, tzinfo=UTC)),
        ("2026-08-01 10:20", datetime(2026, 8, 1, 10, 20, tzinfo=UTC)),
        ("2026-08-01T10:20:30", datetime(2026, 8, 1, 10, 20, 30, tzinfo=UTC)),
        ("2026-08-01T10:20Z", datetime(2026, 8, 1, 10, 20, tzinfo=UTC)),
        ("2026-08-01T10:20:30Z", datetime(2026, 8, 1, 10, 20, 30, tzinfo=UTC)),
        ("2026-08-01T10:20:30z", datetime(2026, 8, 1, 10, 20, 30, tzinfo=UTC)),
        ("2026-08-01T10:20:30+02:00", datetime(2026, 8, 1, 8, 20, 30, tzinfo=UTC)),
        ("2026-08-01T10:20:30-0530", datetime(2026, 8, 1, 15, 50, 30, tzinfo=UTC)),
        ("2026-08-01T10:20+0530", datetime(2026, 8, 1, 4, 50, tzinfo=UTC)),
        ("2026-08-01T10:20:30+00:00", datetime(2026, 8, 1, 10, 20, 30, tzinfo=UTC)),
        ("2026-08-01T10:20:30-00:00", datetime(2026, 8, 1, 10, 20, 30, tzinfo=UTC)),
        ("2026-08-01T10:20:30+23:59", datetime(2026, 7, 31, 10, 21, 30, tzinfo=UTC)),
        ("2026-08-01T10:20:30-23:59", datetime(2026, 8, 2, 10, 19, 30, tzinfo=UTC)),
        ("2026-08-01T10:20:30-00:59", datetime(2026, 8, 1, 11, 19, 30, tzinfo=UTC)),
        ("2026-08-01T10:20:30.5", datetime(2026, 8, 1, 10, 20, 30, 500000, tzinfo=UTC)),
        ("2026-08-01T10:20:30,5Z", datetime(2026, 8, 1, 10, 20, 30, 500000, tzinfo=UTC)),
        ("2026-08-01T10:20:30.123456Z", datetime(2026, 8, 1, 10, 20, 30, 123456, tzinfo=UTC)),
        ("2026-08-01T10:20:30.1234567Z", datetime(2026, 8, 1, 10, 20, 30, 123456, tzinfo=UTC)),
        ("2026-08-01T10:20:30.999999999Z", datetime(2026, 8, 1, 10, 20, 30, 999999, tzinfo=UTC)),
        ("2026-08-01T10:20:30.000000001Z", datetime(2026, 8, 1, 10, 20, 30, tzinfo=UTC)),
        ("2026-08-01T10:20:30.01+01:00", datetime(2026, 8, 1, 9, 20, 30, 10000, tzinfo=UTC)),
        ("2026-08-01T00:00:00", datetime(2026, 8, 1, tzinfo=UTC)),
        ("2026-08-01T23:59:59", datetime(2026, 8, 1, 23, 59, 59, tzinfo=UTC)),
        ("0001-01-01", datetime(1, 1, 1, tzinfo=UTC)),
        ("0001-01-01T00:00:00-01:00", datetime(1, 1, 1, 1, tzinfo=UTC)),
        ("9999-12-31", datetime(9999, 12, 31, tzinfo=UTC)),
        ("9999-12-31T23:59:59.999999Z", datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)),
        ("9999-12-31T23:59:59+01:00", datetime(9999, 12, 31, 22, 59, 59, tzinfo=UTC)),
        ("2024-02-29", datetime(2024, 2, 29, tzinfo=UTC)),
        ("2000-02-29", datetime(2000, 2, 29, tzinfo=UTC)),
        ("2026-12-31", datetime(2026, 12, 31, tzinfo=UTC)),
        ("2026-01-31", datetime(2026, 1, 31, tzinfo=UTC)),
        ("2026-04-30", datetime(2026, 4, 30, tzinfo=UTC)),
        ("  2026-08-01  ", datetime(2026, 8, 1, tzinfo=UTC)),
        ("\t2026-08-01T10:20Z\n", datetime(2026, 8, 1, 10, 20, tzinfo=UTC)),
        ("\u00a02026-08-01\u2003", datetime(2026, 8, 1, tzinfo=UTC)),
    ],
)
def test_parse_accepts(text: str, expected: datetime) -> None:
    got = parse_instant(text)
    assert got == expected
    assert got is not None and got.tzinfo is not None
    assert got.utcoffset() == timedelta(0)
    assert got.tzinfo == UTC
    assert (got.year, got.month, got.day, got.hour, got.minute, got.second, got.microsecond) == (
        expected.year,
        expected.month,
        expected.day,
        expected.hour,
        expected.minute,
        expected.second,
        expected.microsecond,
    )


class MyStr(str):
    pass


def test_parse_str_subclass_and_naive_is_utc() -> None:
    assert parse_instant(MyStr("2026-08-01")) == datetime(2026, 8, 1, tzinfo=UTC)
    assert parse_instant("2026-08-01T02:00:00+02:00") == parse_instant("2026-08-01T00:00:00Z")
    assert parse_instant("2026-08-01T00:00:00") == parse_instant("2026-08-01T00:00:00Z")
    assert parse_instant("2026-08-01") == parse_instant("2026-08-01T00:00")


@pytest.mark.parametrize(
    "text",
    [
        # forms the spec names
        "1234",
        "2026",
        "2026-08",
        "20260801",
        "2026-W31",
        "2026-W31-6",
        "2026W316",
        "2026-213",
        "2026213",
        "2026-08-01T24:00:00Z",
        "2026-08-01T24:00",
        "2026-08-01T23:59:60Z",
        "2026-08-01T10:00+02",
        "2026-08-01T10:00:00-05",
        "2026-08-01Z",
        "2026-08-01+02:00",
        "2026-08-01-0200",
        "２０２６-08-01",
        "2026-０8-01",
        "\u0662\u0660\u0662\u0666-08-01",
        "2026-08-01T1\u0660:00",
        "Aug 1 2026",
        "1 August 2026",
        "2026-Aug-01",
        "Sat, 01 Aug 2026 00:00:00 +0000",
        "Sat, 01 Aug 2026 00:00:00 GMT",
        "1785542400",
        "1785542400.5",
        # calendar and field ranges
        "2026-02-30",
        "2026-02-29",
        "1900-02-29",
        "2026-04-31",
        "2026-13-01",
        "2026-00-10",
        "2026-01-00",
        "2026-01-32",
        "0000-01-01",
        "0000-12-31T23:59:59Z",
        "2026-08-01T23:60",
        "2026-08-01T25:00",
        "2026-08-01T10:20:61",
        # offsets
        "2026-08-01T10:00+24:00",
        "2026-08-01T10:00-24:00",
        "2026-08-01T10:00+02:60",
        "2026-08-01T10:00+2:00",
        "2026-08-01T10:00+02:0",
        "2026-08-01T10:00+020",
        "2026-08-01T10:00+02:00:00",
        "2026-08-01T10:00\u221202:00",
        "2026-08-01T10:00 +02:00",
        "2026-08-01T10:00:00 Z",
        "2026-08-01T10:00:00ZZ",
        "2026-08-01T10:00:00UTC",
        "2026-08-01T10:00:00GMT",
        "2026-08-01T10:00:00+02:00Z",
        "2026-08-01T10:00:00Z+02:00",
        # time shapes
        "2026-08-01T10",
        "2026-08-01T1:00",
        "2026-08-01T10:2",
        "2026-08-01T10:20:3",
        "2026-08-01T102030",
        "2026-08-01T1020",
        "2026-08-01T10:20.5",
        "2026-08-01T10:20:30.",
        "2026-08-01T10:20:30,",
        "2026-08-01T10:20:30.1234567890",
        "2026-08-01T10:20:30..5",
        "2026-08-01T10:20:30.5.5",
        "2026-08-01T",
        "2026-08-01T 10:00",
        "2026-08-01TT10:00",
        "2026-08-01  10:00",
        "2026-08-01_10:00",
        "2026-08-01\n10:00",
        "2026-08-01\t10:00",
        "2026-08-01x10:00",
        "2026-08-0110:00",
        # date shapes
        "2026-8-01",
        "2026-08-1",
        "26-08-01",
        "02026-08-01",
        "12026-08-01",
        "2026/08/01",
        "2026.08.01",
        "2026-08-01-",
        "-2026-08-01",
        "+2026-08-01",
        "2026--08-01",
        # leftovers
        "",
        " ",
        "\n",
        "T10:00",
        "10:00",
        "2026-08-01T10:00:00Z garbage",
        "x2026-08-01",
        "0001-01-01T00:00:00+01:00",
        "0001-01-01T00:59:59+01:00",
        "9999-12-31T23:59:59-00:01",
        "9999-12-31T23:00:00-01:00",
    ],
)
def test_parse_rejects(text: str) -> None:
    assert parse_instant(text) is None


@pytest.mark.parametrize(
    "value",
    [
        None,
        1785542400,
        1785542400.0,
        datetime(2026, 8, 1, tzinfo=UTC),
        datetime(2026, 8, 1),
        date(2026, 8, 1),
        b"2026-08-01",
        bytearray(b"2026-08-01"),
        ["2026-08-01"],
        {"date": "2026-08-01"},
        True,
        object(),
    ],
)
def test_parse_only_strings(value: Any) -> None:
    assert parse_instant(value) is None


def test_parse_edge_of_range_is_none_not_error() -> None:
    assert parse_instant("0001-01-01T00:00:00+01:00") is None
    assert parse_instant("0001-01-01T01:00:00+01:00") == datetime(1, 1, 1, tzinfo=UTC)
    assert parse_instant("9999-12-31T23:59:59.999999-00:01") is None
    assert parse_instant("9999-12-31T23:58:59.999999-00:01") == datetime(
        9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC
    )


def test_parse_pathological_input_is_fast() -> None:
    import time

    for text in (
        "2026-08-01T10:20:30." + "1" * 200_000,
        "2" * 200_000,
        "2026-08-01T" + "1:" * 100_000,
        " " * 200_000 + "x",
    ):
        start = time.perf_counter()
        assert parse_instant(text) is None
        assert time.perf_counter() - start < 2  # a generous adversarial bound, not a benchmark


# ---------------------------------------------------------------- pick_stale_basis acceptance


def test_pick_newest_signal_wins() -> None:
    got = pick_stale_basis(
        {"lastEvaluated": d("07-01"), "lastChecked": d("08-01"), "created": d("01-01")}
    )
    assert got == StaleBasis(d("08-01"), "lastChecked", datetime(2026, 8, 1, tzinfo=UTC))
    got = pick_stale_basis({"lastEvaluated": d("08-02"), "lastChecked": d("08-01")})
    assert got.basis == "lastEvaluated"


def test_pick_external_signal() -> None:
    got = pick_stale_basis(
        {"lastEvaluated": d("07-01"), "created": d("01-01")},
        external_signals=[{"date": "2026-08-10T12:00:00Z", "basis": "linkedCommit"}],
    )
    assert got == StaleBasis(
        "2026-08-10T12:00:00Z", "linkedCommit", datetime(2026, 8, 10, 12, tzinfo=UTC)
    )


def test_pick_created_fallback() -> None:
    assert pick_stale_basis({"created": d("01-01")}) == StaleBasis(
        d("01-01"), "created", datetime(2026, 1, 1, tzinfo=UTC)
    )


@pytest.mark.parametrize(
    "item", [{}, None, [1, 2], "lastEvaluated", 5, object(), [("lastEvaluated", d("07-01"))]]
)
def test_pick_none_verdict(item: Any) -> None:
    got = pick_stale_basis(item)
    assert got == NONE_VERDICT
    assert got.basis == NO_BASIS
    assert got.date is None and got.when is None


def test_pick_custom_fields() -> None:
    got = pick_stale_basis(
        {"verified_at": d("08-05"), "opened_at": d("02-01")},
        signal_fields=["verified_at"],
        created_field="opened_at",
    )
    assert got.basis == "verified_at" and got.date == d("08-05")
    got = pick_stale_basis(
        {"verified_at": "junk", "opened_at": d("02-01")},
        signal_fields=["verified_at"],
        created_field="opened_at",
    )
    assert got.basis == "opened_at" and got.date == d("02-01")


def test_pick_updated_is_not_a_signal_unless_listed() -> None:
    got = pick_stale_basis(
        {"lastEvaluated": d("07-01"), "updated": d("08-13"), "created": d("01-01")}
    )
    assert (got.basis, got.date) == ("lastEvaluated", d("07-01"))
    assert pick_stale_basis({"updated": d("08-13")}, signal_fields=["updated"]).basis == "updated"


@pytest.mark.parametrize(
    "bad",
    [
        "lastEvaluated",
        b"lastEvaluated",
        bytearray(b"x"),
        5,
        {"lastEvaluated": 1},
        {"lastEvaluated"},
        (f for f in ["lastChecked"]),
    ],
)
def test_pick_bad_signal_fields_option_raises(bad: Any) -> None:
    with pytest.raises(TypeError, match="signal_fields"):
        pick_stale_basis({"lastEvaluated": d("07-01")}, signal_fields=bad)


def test_pick_signal_fields_none_means_default() -> None:
    got = pick_stale_basis({"lastChecked": d("07-01"), "other": d("08-01")}, signal_fields=None)
    assert got.basis == "lastChecked"


def test_pick_unparseable_values_skipped() -> None:
    assert (
        pick_stale_basis({"lastEvaluated": "not a date", "lastChecked": "   ", "created": 1234})
        == NONE_VERDICT
    )
    assert (
        pick_stale_basis({"lastEvaluated": "", "lastChecked": None, "created": "2026-02-30"})
        == NONE_VERDICT
    )


def test_pick_external_shapes() -> None:
    got = pick_stale_basis(
        {},
        external_signals=[
            {"date": "garbage"},
            {"date": None},
            ("2026-06-01T00:00:00Z", "linkedCommit"),
        ],
    )
    assert got == StaleBasis(
        "2026-06-01T00:00:00Z", "linkedCommit", datetime(2026, 6, 1, tzinfo=UTC)
    )
    got = pick_stale_basis({}, external_signals=[["2026-06-01", "fromList"]])
    assert (got.date, got.basis) == ("2026-06-01", "fromList")
    got = pick_stale_basis({}, external_signals=({"date": " 2026-06-01 "},))
    assert (got.date, got.basis) == ("2026-06-01", "external")


@pytest.mark.parametrize("label", [None, "", 5, b"x", "none", ["a"]])
def test_pick_external_label_defaults(label: Any) -> None:
    got = pick_stale_basis({}, external_signals=[{"date": d("06-01"), "basis": label}])
    assert got.basis == EXTERNAL_BASIS
    got = pick_stale_basis({}, external_signals=[(d("06-01"), label)])
    assert got.basis == "external"


@pytest.mark.parametrize(
    "entry",
    [
        "2026-06-01",
        b"2026-06-01",
        (d("06-01"),),
        (d("06-01"), "a", "b"),
        [d("06-01")],
        StaleBasis(d("06-01"), "x", None),
        None,
        5,
        {"when": d("06-01")},
        {d("06-01"), "x"},
        ("x", d("06-01")),
    ],
)
def test_pick_external_bad_entries_skipped(entry: Any) -> None:
    assert pick_stale_basis({}, external_signals=[entry]) == NONE_VERDICT


@pytest.mark.parametrize(
    "bad", ["2026-06-01", b"x", 5, {"date": d("06-01")}, (e for e in [(d("06-01"), "gen")])]
)
def test_pick_bad_external_option_raises(bad: Any) -> None:
    with pytest.raises(TypeError, match="external_signals"):
        pick_stale_basis({"created": d("01-01")}, external_signals=bad)


def test_pick_external_none_means_empty() -> None:
    assert pick_stale_basis({"created": d("01-01")}, external_signals=None).basis == "created"


def test_pick_signal_beats_created_even_older() -> None:
    got = pick_stale_basis({"lastEvaluated": "2020-01-01", "created": d("01-01")})
    assert (got.basis, got.date) == ("lastEvaluated", "2020-01-01")
    got = pick_stale_basis({"created": d("01-01")}, external_signals=[("2020-01-01", "commit")])
    assert got.basis == "commit"


def test_pick_equal_instants_go_to_earliest_candidate() -> None:
    got = pick_stale_basis(
        {"lastEvaluated": "2026-08-01T02:00:00+02:00", "lastChecked": "2026-08-01T00:00:00Z"}
    )
    assert (got.basis, got.date) == ("lastEvaluated", "2026-08-01T02:00:00+02:00")
    got = pick_stale_basis(
        {"lastChecked": d("08-01")},
        external_signals=[(d("08-01"), "commit"), (d("08-01"), "other")],
    )
    assert got.basis == "lastChecked"
    got = pick_stale_basis({}, external_signals=[(d("08-01"), "commit"), ("2026-08-01", "o")])
    assert got.basis == "commit"
    got = pick_stale_basis({"b": d("08-01"), "a": d("08-01")}, signal_fields=["a", "b"])
    assert got.basis == "a"


def test_pick_later_external_newer_wins() -> None:
    got = pick_stale_basis(
        {}, external_signals=[(d("08-01"), "one"), (d("08-02"), "two"), (d("07-01"), "three")]
    )
    assert got.basis == "two"
    got = pick_stale_basis(
        {"lastChecked": "2026-08-01T00:00:00.000001Z"}, external_signals=[(d("08-01"), "one")]
    )
    assert got.basis == "lastChecked"


def test_pick_whitespace_stripped_everywhere() -> None:
    got = pick_stale_basis({"lastEvaluated": "  2026-07-01  "})
    assert got == StaleBasis("2026-07-01", "lastEvaluated", datetime(2026, 7, 1, tzinfo=UTC))
    got = pick_stale_basis({"created": "\n2026-01-01T00:00:00Z\t"})
    assert got == StaleBasis(d("01-01"), "created", datetime(2026, 1, 1, tzinfo=UTC))


def test_pick_none_named_fields() -> None:
    item = {"none": d("08-01"), "created": d("01-01"), "lastChecked": d("07-01")}
    assert pick_stale_basis(item, signal_fields=["none"]).basis == "created"
    assert pick_stale_basis(item, signal_fields=["none", "lastChecked"]).basis == "lastChecked"
    got = pick_stale_basis({"none": d("01-01"), "created": d("02-01")}, created_field="none")
    assert (got.basis, got.date) == ("created", d("02-01"))
    assert pick_stale_basis({"none": d("01-01")}, created_field="none") == NONE_VERDICT


@pytest.mark.parametrize("default", ["", None])
def test_pick_created_field_empty_or_none_means_default(default: Any) -> None:
    got = pick_stale_basis({"created": d("01-01"), "": d("02-01")}, created_field=default)
    assert got.basis == "created"


@pytest.mark.parametrize("bad", [5, ["created"], b"opened"])
def test_pick_bad_created_field_raises(bad: Any) -> None:
    with pytest.raises(TypeError, match="created_field"):
        pick_stale_basis({"created": d("01-01")}, created_field=bad)


def test_pick_signal_fields_entries_and_forms() -> None:
    item = {"lastEvaluated": d("07-01"), "x": d("08-01")}
    for bad_entries in (["x", 5], ["x", None]):
        with pytest.raises(TypeError, match="signal_fields entries"):
            pick_stale_basis(item, signal_fields=bad_entries)
    assert pick_stale_basis(item, signal_fields=("x",)).basis == "x"
    assert pick_stale_basis(item, signal_fields=[]) == NONE_VERDICT

    class Fields(Sequence[str]):
        def __getitem__(self, i: Any) -> Any:
            return ["x"][i]

        def __len__(self) -> int:
            return 1

    assert pick_stale_basis(item, signal_fields=Fields()).basis == "x"


class Counting(Mapping[str, Any]):
    def __init__(self, data: dict[str, Any], broken: tuple[str, ...] = ()) -> None:
        self.data = data
        self.broken = broken
        self.reads: list[str] = []

    def __getitem__(self, key: str) -> Any:
        self.reads.append(key)
        if key in self.broken:
            raise RuntimeError("read failed")
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


def test_pick_reads_each_field_once_and_survives_raising_reads() -> None:
    item = Counting(
        {"lastEvaluated": d("07-01"), "lastChecked": d("08-01"), "created": d("01-01")},
        broken=("lastChecked",),
    )
    got = pick_stale_basis(item, signal_fields=["lastEvaluated", "lastChecked", "lastEvaluated"])
    assert got.basis == "lastEvaluated"
    assert sorted(item.reads) == ["lastChecked", "lastEvaluated"]
    item = Counting(
        {"lastEvaluated": d("07-01"), "created": d("01-01")},
        broken=("lastEvaluated", "lastChecked"),
    )
    assert pick_stale_basis(item).basis == "created"
    assert item.reads.count("created") == 1
    item = Counting({"created": d("01-01")}, broken=("created",))
    assert pick_stale_basis(item) == NONE_VERDICT
    item = Counting({"lastEvaluated": "junk", "created": d("01-01")})
    assert pick_stale_basis(item, created_field="lastEvaluated") == NONE_VERDICT
    assert item.reads == ["lastEvaluated", "lastChecked"]
    item = Counting({"lastEvaluated": " 2026-01-01", "created": "junk"})
    got = pick_stale_basis(item, signal_fields=["x"], created_field="lastEvaluated")
    assert got == StaleBasis("2026-01-01", "lastEvaluated", datetime(2026, 1, 1, tzinfo=UTC))
    assert item.reads == ["x", "lastEvaluated"]
    ext = Counting({"date": d("09-01"), "basis": "commit"}, broken=("basis",))
    got = pick_stale_basis({}, external_signals=[ext])
    assert (got.date, got.basis) == (d("09-01"), "external")
    assert sorted(ext.reads) == ["basis", "date"]
    ext = Counting({"date": d("09-01"), "basis": "commit"}, broken=("date",))
    assert pick_stale_basis({}, external_signals=[ext]) == NONE_VERDICT


# ---------------------------------------------------------------- limits


def test_limit_bulk_stamped_signal_taken_at_face_value() -> None:
    item = {"lastEvaluated": d("07-01"), "lastChecked": d("08-13")}  # migration wrote it
    got = pick_stale_basis(item)
    assert (got.basis, got.date) == ("lastChecked", d("08-13"))


def test_limit_future_dates_win_unclamped() -> None:
    got = pick_stale_basis({"lastEvaluated": "2027-01-01T00:00:00Z", "created": d("01-01")})
    assert got.date == "2027-01-01T00:00:00Z"
    res = alert("2026-07-31T10:00:00Z", at("2026-07-31T09:00"))
    assert (res.alert, res.stale, res.reason, res.lag_days) == (False, False, "fresh", -1)
    res = alert("2026-08-10", at("2026-07-31T09:00"))
    assert res.lag_days == -10 and not res.stale


def test_limit_thresholds_are_policy() -> None:
    basis = pick_stale_basis({"lastEvaluated": "2000-01-01"})
    assert basis.basis == "lastEvaluated"  # no verdict on "too old" here
    now = at("2026-07-31T00:00")
    assert alert(basis, now, threshold=timedelta(days=10**6)).stale is False
    assert alert(basis, now, threshold=timedelta(days=1)).stale is True


def test_limit_only_strings_are_dates() -> None:
    item = {
        "lastEvaluated": datetime(2026, 8, 1, tzinfo=UTC),
        "lastChecked": 1785542400,
        "created": date(2026, 1, 1),
    }
    assert pick_stale_basis(item) == NONE_VERDICT
    assert pick_stale_basis({}, external_signals=[(datetime(2026, 8, 1), "c")]) == NONE_VERDICT


# ---------------------------------------------------------------- staleness_alert acceptance

STATE = AlertState("2026-07-31T09:00:00Z", "2026-07-28T00:00:00Z")


def test_alert_fresh() -> None:
    assert alert("2026-07-30", at("2026-07-31T09:00")) == StalenessAlert(
        False, False, "fresh", 1, "2026-07-30T00:00:00Z", None
    )


def test_alert_first() -> None:
    assert alert("2026-07-28", at("2026-07-31T09:00")) == StalenessAlert(
        True, True, "first", 3, "2026-07-28T00:00:00Z", STATE
    )


def test_alert_cooldown_suppresses() -> None:
    assert alert("2026-07-28", at("2026-07-31T15:00"), STATE) == StalenessAlert(
        False, True, "cooldown", 3, "2026-07-28T00:00:00Z", STATE
    )


def test_alert_cooldown_elapsed() -> None:
    assert alert("2026-07-28", at("2026-08-01T09:00"), STATE) == StalenessAlert(
        True,
        True,
        "cooldown_elapsed",
        4,
        "2026-07-28T00:00:00Z",
        AlertState("2026-08-01T09:00:00Z", "2026-07-28T00:00:00Z"),
    )


def test_alert_moved_inside_cooldown() -> None:
    assert alert("2026-07-29", at("2026-07-31T15:00"), STATE) == StalenessAlert(
        True,
        True,
        "moved",
        2,
        "2026-07-29T00:00:00Z",
        AlertState("2026-07-31T15:00:00Z", "2026-07-29T00:00:00Z"),
    )


def test_alert_lag_exactly_threshold_is_fresh() -> None:
    res = alert("2026-07-29", at("2026-07-31T00:00"))
    assert res == StalenessAlert(False, False, "fresh", 2, "2026-07-29T00:00:00Z", None)
    res = alert("2026-07-29", at("2026-07-31T00:00") + timedelta(microseconds=1))
    assert (res.alert, res.stale, res.reason) == (True, True, "first")


def test_alert_no_basis() -> None:
    assert alert(None, at("2026-07-31T09:00")) == StalenessAlert(
        True, True, "first", None, None, AlertState("2026-07-31T09:00:00Z", None)
    )


# ---------------------------------------------------------------- staleness_alert details


@pytest.mark.parametrize(
    "latest",
    [
        "2026-07-28",
        "2026-07-28T00:00:00Z",
        "2026-07-28T02:00:00+02:00",
        " 2026-07-28 ",
        datetime(2026, 7, 28),
        datetime(2026, 7, 28, tzinfo=UTC),
        datetime(2026, 7, 28, 2, tzinfo=timezone(timedelta(hours=2))),
        date(2026, 7, 28),
        StaleBasis("2026-07-28", "lastChecked", datetime(2026, 7, 28, tzinfo=UTC)),
        StaleBasis("x", "lastChecked", datetime(2026, 7, 28)),
    ],
)
def test_alert_latest_forms(latest: Any) -> None:
    res = alert(latest, at("2026-07-31T09:00"))
    assert (res.latest, res.lag_days, res.reason) == ("2026-07-28T00:00:00Z", 3, "first")
    assert res.state == STATE


@pytest.mark.parametrize(
    "latest",
    [
        None,
        "garbage",
        "",
        1785542400,
        17.5,
        b"2026-07-28",
        NONE_VERDICT,
        StaleBasis("2026-07-28", "x", None),
        ["2026-07-28"],
        object(),
        True,
    ],
)
def test_alert_no_basis_forms(latest: Any) -> None:
    res = alert(latest, at("2026-07-31T09:00"))
    assert res == StalenessAlert(
        True, True, "first", None, None, AlertState("2026-07-31T09:00:00Z", None)
    )


def test_alert_now_forms() -> None:
    naive = alert("2026-07-28", datetime(2026, 7, 31, 9))
    offset = alert("2026-07-28", datetime(2026, 7, 31, 11, tzinfo=timezone(timedelta(hours=2))))
    assert naive == offset == alert("2026-07-28", at("2026-07-31T09:00"))
    real_now = datetime.now(UTC)
    res = alert(real_now - timedelta(hours=47), None)
    assert (res.stale, res.lag_days) == (False, 1)
    res = alert(real_now - timedelta(hours=49), None)
    assert (res.stale, res.reason, res.lag_days) == (True, "first", 2)
    assert res.state is not None
    alerted = parse_instant(res.state.alerted_at)
    assert alerted is not None and abs(alerted - real_now) < timedelta(minutes=5)
    res = staleness_alert("2026-07-28", threshold=TWO_DAYS, cooldown=COOLDOWN)
    assert res.stale and res.reason == "first"


@pytest.mark.parametrize("bad", ["2026-07-31", 5, date(2026, 7, 31), object()])
def test_alert_bad_now_raises(bad: Any) -> None:
    with pytest.raises(TypeError, match="now"):
        alert("2026-07-28", bad)


@pytest.mark.parametrize("option", ["threshold", "cooldown"])
@pytest.mark.parametrize("bad", [None, 2, "2 days", 2.0, True])
def test_alert_duration_of_wrong_type_raises(option: str, bad: Any) -> None:
    with pytest.raises(TypeError, match=option):
        alert("2026-07-28", at("2026-07-31T09:00"), STATE, **{option: bad})


@pytest.mark.parametrize("option", ["threshold", "cooldown"])
@pytest.mark.parametrize("bad", [-TWO_DAYS, timedelta(microseconds=-1)])
def test_alert_negative_duration_raises(option: str, bad: timedelta) -> None:
    with pytest.raises(ValueError, match=option):
        alert("2026-07-28", at("2026-07-31T09:00"), STATE, **{option: bad})


def test_alert_zero_threshold_zero_lag_is_fresh() -> None:
    latest = at("2026-07-31T08:00")
    res = alert(latest, at("2026-07-31T09:00"), threshold=timedelta(0))
    assert (res.stale, res.reason, res.lag_days) == (True, "first", 0)
    assert alert(latest, latest, threshold=timedelta(0)).stale is False  # zero lag is not past


def test_alert_zero_cooldown_and_zero_threshold_valid() -> None:
    res = alert("2026-07-28", at("2026-07-31T09:00"), STATE, cooldown=timedelta(0))
    assert (res.alert, res.reason, res.state) == (True, "cooldown_elapsed", STATE)


def test_alert_cooldown_boundary() -> None:
    just = at("2026-08-01T09:00") - timedelta(microseconds=1)
    res = alert("2026-07-28", just, STATE)
    assert (res.alert, res.reason, res.state) == (False, "cooldown", STATE)
    res = alert("2026-07-28", at("2026-08-01T09:00"), STATE)
    assert (res.alert, res.reason) == (True, "cooldown_elapsed")
    res = alert("2026-07-28", at("2026-07-31T09:00"), STATE)  # alerted_at == now: trusted
    assert (res.alert, res.reason) == (False, "cooldown")


def test_alert_moved_variants() -> None:
    now = at("2026-07-31T15:00")
    older = alert("2026-07-27", now, STATE)
    assert (older.alert, older.reason) == (True, "moved")
    assert older.state == AlertState("2026-07-31T15:00:00Z", "2026-07-27T00:00:00Z")
    gone = alert(None, now, STATE)
    assert (gone.alert, gone.reason, gone.lag_days, gone.latest) == (True, "moved", None, None)
    assert gone.state == AlertState("2026-07-31T15:00:00Z", None)
    none_state = AlertState("2026-07-31T09:00:00Z", None)
    appeared = alert("2026-07-28", now, none_state)
    assert (appeared.alert, appeared.reason) == (True, "moved")
    still_none = alert(None, now, none_state)
    assert (still_none.alert, still_none.reason, still_none.state) == (
        False,
        "cooldown",
        none_state,
    )
    tiny = alert("2026-07-28T00:00:00.000001Z", now, STATE)
    assert tiny.reason == "moved"
    assert tiny.latest == "2026-07-28T00:00:00.000001Z"
    same_instant = alert("2026-07-28T02:00:00+02:00", now, STATE)
    assert (same_instant.alert, same_instant.reason) == (False, "cooldown")


def test_alert_state_json_round_trip_and_other_forms() -> None:
    first = alert("2026-07-28", at("2026-07-31T09:00"))
    assert first.state is not None
    stored = json.loads(json.dumps(first.state._asdict()))
    assert alert("2026-07-28", at("2026-07-31T15:00"), stored).reason == "cooldown"
    assert alert("2026-07-28", at("2026-08-01T09:00"), stored).reason == "cooldown_elapsed"
    odd = {
        "alerted_at": datetime(2026, 7, 31, 11, tzinfo=timezone(timedelta(hours=2))),
        "latest": date(2026, 7, 28),
    }
    res = alert("2026-07-28", at("2026-07-31T15:00"), odd)
    assert (res.reason, res.state) == ("cooldown", STATE)  # returned in canonical form
    loose = {"alerted_at": "2026-07-31 11:00+02:00", "latest": "2026-07-28"}
    assert alert("2026-07-28", at("2026-07-31T15:00"), loose).state == STATE

    class Obj:
        alerted_at = "2026-07-31T09:00:00Z"
        latest = "2026-07-28T00:00:00Z"

    assert alert("2026-07-28", at("2026-07-31T15:00"), Obj()).reason == "cooldown"

    class NoLatest:
        alerted_at = "2026-07-31T09:00:00Z"

    assert alert("2026-07-28", at("2026-07-31T15:00"), NoLatest()).reason == "moved"
    assert alert(None, at("2026-07-31T15:00"), NoLatest()).reason == "cooldown"
    assert (
        alert(None, at("2026-07-31T15:00"), {"alerted_at": "2026-07-31T09:00:00Z"}).reason
        == "cooldown"
    )
    assert (
        alert("2026-07-28", at("2026-07-31T15:00"), {"alerted_at": "2026-07-31T09:00:00Z"}).reason
        == "moved"
    )


class Raising(Mapping[str, Any]):
    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("corrupt")

    def __iter__(self) -> Iterator[str]:
        return iter(["alerted_at", "latest"])

    def __len__(self) -> int:
        return 2


class RaisingAttr:
    @property
    def alerted_at(self) -> str:
        raise RuntimeError("corrupt")


@pytest.mark.parametrize(
    "bad",
    [
        {},
        {"latest": "2026-07-28"},
        {"alerted_at": None, "latest": "2026-07-28"},
        {"alerted_at": "yesterday", "latest": "2026-07-28"},
        {"alerted_at": "2026-07-31T09:00:00Z", "latest": "garbage"},
        {"alerted_at": "2026-07-31T09:00:00Z", "latest": 5},
        {"alerted_at": "2026-07-31T09:00:00Z", "latest": ""},
        {"alerted_at": "2026-07-31T15:00:00.000001Z", "latest": "2026-07-28"},  # after now
        {"alerted_at": "2026-08-31T09:00:00Z", "latest": "2026-07-28"},
        AlertState("2026-08-31T09:00:00Z", "2026-07-28T00:00:00Z"),
        5,
        "2026-07-31T09:00:00Z",
        ["2026-07-31T09:00:00Z", "2026-07-28"],
        ("2026-07-31T09:00:00Z", "2026-07-28"),
        Raising(),
        RaisingAttr(),
        object(),
    ],
)
def test_alert_untrusted_state_counts_as_none(bad: Any) -> None:
    res = alert("2026-07-28", at("2026-07-31T15:00"), bad)
    assert (res.alert, res.stale, res.reason) == (True, True, "first")
    assert res.state == AlertState("2026-07-31T15:00:00Z", "2026-07-28T00:00:00Z")


def test_alert_fresh_ends_episode_even_with_state() -> None:
    res = alert("2026-07-31", at("2026-07-31T15:00"), STATE)
    assert (res.alert, res.stale, res.reason, res.state) == (False, False, "fresh", None)


def test_canonical_forms() -> None:
    res = alert("2026-07-28T00:00:00.5Z", at("2026-07-31T09:00") + timedelta(microseconds=7))
    assert res.latest == "2026-07-28T00:00:00.500000Z"
    assert res.state == AlertState("2026-07-31T09:00:00.000007Z", "2026-07-28T00:00:00.500000Z")
    res = alert("0001-01-01", datetime(1, 1, 9, 3, 4, 5))
    assert res.latest == "0001-01-01T00:00:00Z"
    assert res.state == AlertState("0001-01-09T03:04:05Z", "0001-01-01T00:00:00Z")
    assert res.lag_days == 8


def test_lag_days_floor() -> None:
    assert alert("2026-07-28", at("2026-07-30T23:59")).lag_days == 2
    assert alert("2026-07-28", at("2026-07-28T00:00")).lag_days == 0
    assert alert("2026-07-28T00:00:00.000001Z", at("2026-07-28T00:00")).lag_days == -1
    assert (
        alert(
            "2026-07-28",
            datetime(2026, 7, 28) - timedelta(days=1, microseconds=1),
        ).lag_days
        == -2
    )


def test_alert_extreme_datetimes_do_not_raise() -> None:
    far = datetime(9999, 12, 31, 23, tzinfo=timezone(timedelta(hours=-5)))
    res = alert("2026-07-28", far)  # now cannot be expressed in UTC: current time instead
    assert res.stale
    low = datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=5)))
    res = alert(low, at("2026-07-31T09:00"))
    assert res.latest is None and res.reason == "first"
    res = alert(datetime.min, datetime.max)
    assert res.lag_days == (datetime.max - datetime.min) // DAY


# ---------------------------------------------------------------- properties

aware_dt = st.datetimes(
    min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=st.just(UTC)
)
offsets = st.integers(-(23 * 60 + 59), 23 * 60 + 59)


def fmt(dt: datetime, offset_minutes: int, style: int) -> str:
    local = dt + timedelta(minutes=offset_minutes)
    sign = "+" if offset_minutes >= 0 else "-"
    hh, mm = divmod(abs(offset_minutes), 60)
    off = [f"{sign}{hh:02d}:{mm:02d}", f"{sign}{hh:02d}{mm:02d}"][style % 2]
    if offset_minutes == 0 and style % 3 == 0:
        off = "Z"
    sep = "T t "[style % 3]
    return (
        f"{local.year:04d}-{local.month:02d}-{local.day:02d}{sep}{local.hour:02d}:"
        f"{local.minute:02d}:{local.second:02d}.{local.microsecond:06d}{off}"
    )


@given(aware_dt, offsets, st.integers(0, 5))
def test_prop_parse_round_trip(dt: datetime, offset: int, style: int) -> None:
    assert parse_instant(fmt(dt, offset, style)) == dt


@given(st.text(max_size=40))
def test_prop_parse_never_raises(text: str) -> None:
    got = parse_instant(text)
    assert got is None or got.utcoffset() == timedelta(0)


@given(
    st.from_regex(
        r"[0-9]{4}-[0-9]{2}-[0-9]{2}([Tt ][0-9]{2}:[0-9]{2}(:[0-9]{2}"
        r"([.,][0-9]{1,9})?)?(Z|z|[+-][0-9]{2}:?[0-9]{2})?)?",
        fullmatch=True,
    )
)
def test_prop_grammar_shaped_strings(text: str) -> None:
    got = parse_instant(text)
    assert got is None or got.tzinfo is not None


date_values = st.one_of(
    st.none(),
    st.integers(),
    st.text(max_size=12),
    aware_dt.map(lambda x: x.strftime("%Y-%m-%dT%H:%M:%SZ")),
    aware_dt.map(lambda x: f"{x.year:04d}-{x.month:02d}-{x.day:02d}"),
    aware_dt,
)
anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=8),
    st.lists(st.text(max_size=8), max_size=3),
    st.dictionaries(st.text(max_size=8), date_values, max_size=3),
    st.timedeltas(),
    st.datetimes(),
    st.dates(),
)


@given(
    st.dictionaries(
        st.sampled_from(["lastEvaluated", "lastChecked", "created", "updated", "x"]),
        date_values,
        max_size=5,
    ),
    st.lists(
        st.one_of(
            st.tuples(date_values, st.one_of(st.text(max_size=5), st.none())),
            st.fixed_dictionaries({"date": date_values}),
            anything,
        ),
        max_size=4,
    ),
)
def test_prop_basis_is_newest_valid_signal(item: dict[str, Any], externals: list[Any]) -> None:
    got = pick_stale_basis(item, external_signals=externals)
    candidates: list[tuple[datetime, str]] = []
    for name in DEFAULT_SIGNAL_FIELDS:
        when = parse_instant(item.get(name))
        if when is not None:
            candidates.append((when, name))
    for entry in externals:
        if isinstance(entry, dict):
            when = parse_instant(entry.get("date"))
        elif isinstance(entry, (tuple, list)) and len(entry) == 2:
            when = parse_instant(entry[0])
        else:
            continue
        if when is not None:
            candidates.append((when, "ext"))
    if candidates:
        newest = max(c[0] for c in candidates)
        assert got.when == newest
        first = next(c for c in candidates if c[0] == newest)
        if first[1] != "ext":
            assert got.basis == first[1]
        assert got.basis not in ("none", "created", "updated")
    elif parse_instant(item.get("created")) is not None:
        assert got.basis == "created" and got.when == parse_instant(item["created"])
    else:
        assert got == NONE_VERDICT
    assert (got.basis == "none") == (got.when is None) == (got.date is None)
    if got.date is not None:
        assert got.date == got.date.strip() and parse_instant(got.date) == got.when


@given(
    anything,
    st.one_of(st.none(), st.lists(st.text(max_size=8), max_size=3)),
    st.one_of(st.none(), st.text(max_size=8)),
    st.one_of(st.none(), st.lists(anything, max_size=3)),
)
def test_prop_pick_never_raises_on_data(item: Any, fields: Any, created: Any, ext: Any) -> None:
    got = pick_stale_basis(item, signal_fields=fields, created_field=created, external_signals=ext)
    assert isinstance(got, StaleBasis)
    assert (got.basis == NO_BASIS) == (got.when is None)


@given(anything, anything, anything)
def test_prop_pick_wrong_option_raises_naming_it(fields: Any, created: Any, ext: Any) -> None:
    try:
        got = pick_stale_basis(
            {}, signal_fields=fields, created_field=created, external_signals=ext
        )
    except TypeError as error:
        assert any(
            name in str(error) for name in ("signal_fields", "created_field", "external_signals")
        )
    else:
        assert isinstance(got, StaleBasis)


@given(
    anything,
    st.one_of(st.none(), st.datetimes(), aware_dt),
    st.timedeltas(min_value=timedelta(0)),
    st.timedeltas(min_value=timedelta(0)),
    st.one_of(
        anything,
        st.builds(AlertState, st.one_of(st.text(max_size=5), aware_dt.map(str)), st.none()),
    ),
)
def test_prop_alert_never_raises_on_data_and_no_basis_is_stale(
    latest: Any, now: Any, threshold: Any, cooldown: Any, last: Any
) -> None:
    res = staleness_alert(latest, now=now, threshold=threshold, cooldown=cooldown, last_alert=last)
    assert isinstance(res, StalenessAlert)
    assert res.reason in ("fresh", "first", "moved", "cooldown_elapsed", "cooldown")
    if res.latest is None:
        assert res.stale and res.lag_days is None and res.reason != "fresh"
    assert res.alert == (res.reason in ("first", "moved", "cooldown_elapsed"))
    assert (res.state is None) == (res.reason == "fresh")
    assert res.stale == (res.reason != "fresh")


@given(aware_dt, aware_dt, st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=9)))
def test_prop_alert_consistent(latest: datetime, now: datetime, threshold: timedelta) -> None:
    res = staleness_alert(latest, now=now, threshold=threshold, cooldown=DAY)
    assert res.stale == (now - latest > threshold)
    assert res.lag_days == (now - latest) // DAY
    assert res.latest is not None and parse_instant(res.latest) == latest
    if res.state is not None:
        assert parse_instant(res.state.alerted_at) == now
        assert parse_instant(res.state.latest) == latest
        again = staleness_alert(
            latest, now=now, threshold=threshold, cooldown=DAY, last_alert=res.state
        )
        assert (again.alert, again.reason, again.state) == (False, "cooldown", res.state)


class NoOffset(tzinfo):
    """A tzinfo that knows no offset: the datetime counts as naive."""

    def utcoffset(self, dt: datetime | None) -> timedelta | None:
        return None

    def dst(self, dt: datetime | None) -> timedelta | None:
        return None

    def tzname(self, dt: datetime | None) -> str | None:
        return None


@pytest.mark.usefixtures("far_zone")
def test_host_zone_never_matters() -> None:
    assert parse_instant("2026-08-01T10:00") == datetime(2026, 8, 1, 10, tzinfo=UTC)
    assert parse_instant("2026-08-01") == datetime(2026, 8, 1, tzinfo=UTC)
    want = alert("2026-07-28", at("2026-07-31T09:00"))
    assert want.state == STATE
    assert alert("2026-07-28", datetime(2026, 7, 31, 9)) == want
    assert alert("2026-07-28", datetime(2026, 7, 31, 9, tzinfo=NoOffset())) == want
    assert alert(datetime(2026, 7, 28, tzinfo=NoOffset()), datetime(2026, 7, 31, 9)) == want
    assert alert(datetime(2026, 7, 28), datetime(2026, 7, 31, 9)) == want
