"""Tests for agentops/memory_usage_ledger.py (contract: memory_usage_ledger.md)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping
from datetime import date, datetime, timedelta, timezone, tzinfo
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentops import memory_usage_ledger as mul
from agentops.memory_usage_ledger import (
    DEFAULT_WINDOW,
    LedgerRows,
    Touch,
    TouchRows,
    UsageTally,
    format_ledger_rows,
    make_touch_rows,
    parse_ledger_text,
    tally_usage,
)

UTC = timezone.utc
NOW = datetime(2026, 8, 15, 12, tzinfo=UTC)
MODULE = Path(mul.__file__)


def iso(days: float) -> str:
    return (NOW - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def full(moment: datetime, sep: str = "T") -> str:
    """`YYYY-MM-DD<sep>HH:MM:SS.ffffff` (strftime does not zero-pad years before 1000)."""
    return f"{moment.year:04d}" + moment.strftime(f"-%m-%d{sep}%H:%M:%S.%f")


def row(name: Any, ts: Any, session: Any = None) -> dict[str, Any]:
    return {"ts": ts, "name": name, "session": session}


def counted(ts: str, *, now: datetime = NOW, window: timedelta = timedelta(days=1)) -> bool:
    """Whether a single row at `ts` is well formed and inside the window."""
    got = tally_usage([row("a", ts)], [], window=window, now=now)
    assert got.rows_read + got.rows_skipped == 1
    return got.rows_in_window == 1


def well_formed(ts: str) -> bool:
    return tally_usage([row("a", ts)], [], now=NOW).rows_read == 1


def micros(moment: datetime) -> int:
    """Independent oracle: integer UTC microseconds since 0001-01-01T00:00Z."""
    base = datetime(1, 1, 1, tzinfo=UTC)  # ordinal 1: one day of microseconds
    return (moment - base) // timedelta(microseconds=1) + 86_400 * 10**6


# --------------------------------------------------------------------------- API shape


def test_public_api() -> None:
    assert sorted(mul.__all__) == sorted(
        [
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
    )
    assert timedelta(days=90) == DEFAULT_WINDOW
    assert LedgerRows._fields == ("rows", "skipped")
    assert TouchRows._fields == ("rows", "rejected", "unknown")
    assert Touch._fields == ("name", "count", "last_touch")
    assert UsageTally._fields == (
        "touched",
        "never_touched",
        "window",
        "rows_read",
        "rows_in_window",
        "rows_skipped",
    )
    assert Touch("a", 2, "t").count == 2


# --------------------------------------------------------------------------- section 9: acceptance


def test_example_1_counts_and_never_touched() -> None:
    got = tally_usage(
        [row("alpha", iso(1), "s1"), row("alpha", iso(2), "s2"), row("beta", iso(3), "s1")],
        ["alpha", "beta", "gamma"],
        window=timedelta(days=90),
        now=NOW,
    )
    assert got.touched == (Touch("alpha", 2, iso(1)), Touch("beta", 1, iso(3)))
    assert got.never_touched == ("gamma",)
    assert (got.rows_read, got.rows_in_window, got.rows_skipped) == (3, 3, 0)
    assert got.window == timedelta(days=90)


def test_example_2_row_outside_window_is_read_not_counted() -> None:
    got = tally_usage([row("beta", iso(200))], ["beta"], now=NOW)
    assert got.never_touched == ("beta",) and got.touched == ()
    assert (got.rows_read, got.rows_in_window, got.rows_skipped) == (1, 0, 0)


def test_example_3_malformed_rows_skipped() -> None:
    got = tally_usage(
        [
            {"bogus": True},
            {"ts": 12345, "name": "alpha"},
            {"ts": "not a date", "name": "alpha"},
            {"ts": iso(1), "name": None},
            {"ts": iso(1), "name": "alpha"},
        ],
        ["alpha"],
        now=NOW,
    )
    assert got.touched == (Touch("alpha", 1, iso(1)),)
    assert (got.rows_read, got.rows_in_window, got.rows_skipped) == (1, 1, 4)
    assert got.never_touched == ()


def test_example_4_none_inputs() -> None:
    got = tally_usage(None, None)
    assert got.touched == () and got.never_touched == ()
    assert (got.rows_read, got.rows_in_window, got.rows_skipped) == (0, 0, 0)
    assert got.window == DEFAULT_WINDOW
    assert tally_usage(None, ["a"]).never_touched == ("a",)


def test_example_5_empty_rows() -> None:
    got = tally_usage([], ["alpha", "beta"], now=NOW)
    assert got.never_touched == ("alpha", "beta") and got.rows_read == 0
    assert got.rows_in_window == 0 and got.touched == ()


def test_example_6_future_counts_and_cutoff_is_inclusive() -> None:
    got = tally_usage([row("a", iso(-5))], ["a"], now=NOW)
    assert got.rows_in_window == 1 and got.touched == (Touch("a", 1, iso(-5)),)
    edge = NOW - DEFAULT_WINDOW
    at = edge.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    before = (edge - timedelta(microseconds=1)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    assert tally_usage([row("a", at)], [], now=NOW).rows_in_window == 1
    got = tally_usage([row("a", before)], [], now=NOW)
    assert (got.rows_read, got.rows_in_window) == (1, 0)


def test_example_7_instants_not_strings() -> None:
    got = tally_usage(
        [row("alpha", "2026-08-14T14:00:00+02:00"), row("alpha", "2026-08-14T13:00:00Z")],
        [],
        now=NOW,
    )
    assert got.touched == (Touch("alpha", 2, "2026-08-14T13:00:00Z"),)
    got = tally_usage(
        [row("alpha", "2026-08-14T13:00:00Z"), row("alpha", "2026-08-14T14:00:00+02:00")],
        [],
        now=NOW,
    )
    assert got.touched == (Touch("alpha", 2, "2026-08-14T13:00:00Z"),)


def test_example_8_parse() -> None:
    got = parse_ledger_text(
        '{"ts":"2026-08-14T00:00:00Z","name":"a"}\r\n\r\nnot json\n[1,2]\n'
        '{"ts":"2026-08-14T00:00:00Z","name":"b"}\n'
    )
    assert got == LedgerRows(
        ({"ts": "2026-08-14T00:00:00Z", "name": "a"}, {"ts": "2026-08-14T00:00:00Z", "name": "b"}),
        2,
    )
    assert parse_ledger_text("") == LedgerRows((), 0)
    assert parse_ledger_text(None) == LedgerRows((), 0)


def test_example_9_touch_rows() -> None:
    got = make_touch_rows(["alpha", "beta"], session="s9", now=NOW)
    assert got == TouchRows(
        (
            {"ts": "2026-08-15T12:00:00.000Z", "name": "alpha", "session": "s9"},
            {"ts": "2026-08-15T12:00:00.000Z", "name": "beta", "session": "s9"},
        ),
        (),
        (),
    )
    assert list(got.rows[0]) == ["ts", "name", "session"]


def test_example_10_rejected_names() -> None:
    got = make_touch_rows(["ok", "dir/bad", "win\\bad", "alpha.md", "", 7], now=NOW)
    assert [r["name"] for r in got.rows] == ["ok"]
    assert got.rejected == ("dir/bad", "win\\bad", "alpha.md", "", "7")
    assert make_touch_rows(["ALPHA.MD", ".."], now=NOW).rejected == ("ALPHA.MD", "..")
    assert make_touch_rows(["ALPHA.MD", ".."], now=NOW).rows == ()
    assert [r["name"] for r in make_touch_rows([" alpha "], now=NOW).rows] == ["alpha"]
    assert len(make_touch_rows(["a", "a"], now=NOW).rows) == 1


def test_example_11_unknown_names_still_recorded() -> None:
    got = make_touch_rows(["alpha", "alhpa"], now=NOW, known_names=["alpha"])
    assert [r["name"] for r in got.rows] == ["alpha", "alhpa"]
    assert got.unknown == ("alhpa",) and got.rejected == ()


# --------------------------------------------------------------------------- section 3: timestamps


@pytest.mark.parametrize(
    "ts",
    [
        "2026-08-14",
        "2026-08-14T12:00",
        "2026-08-14t12:00",
        "2026-08-14 12:00",
        "2026-08-14T12:00:59",
        "2026-08-14T12:00:00.5",
        "2026-08-14T12:00:00,5",
        "2026-08-14T12:00:00.123456789",
        "2026-08-14T12:00Z",
        "2026-08-14T12:00z",
        "2026-08-14T12:00+02",
        "2026-08-14T12:00+0200",
        "2026-08-14T12:00+02:00",
        "2026-08-14T12:00-05:30",
        "2026-08-14T23:59:59.999999-23:59",
        "2024-02-29",
        "2026-08-14T00:00+23:59",
        "2026-08-14T12:00:00.1Z",
        "0001-01-01",
        "9999-12-31T23:59:59Z",
    ],
)
def test_timestamp_grammar_accepts(ts: str) -> None:
    assert well_formed(ts)


@pytest.mark.parametrize(
    "ts",
    [
        "not a date",
        "Aug 14 2026",
        "2026-02-30",
        "2026-02-29",
        "0000-01-01",
        "2026-13-01",
        "2026-00-10",
        "2026-08-00",
        "2026-8-14",
        "26-08-14",
        "20260814",
        "2026-08-14Z",
        "2026-08-14+02:00",
        "2026-08-14T12",
        "2026-08-14T24:00",
        "2026-08-14T12:60",
        "2026-08-14T12:00:60",
        "2026-08-14T12:00+24:00",
        "2026-08-14T12:00+23:60",
        "2026-08-14T12:00+2",
        "2026-08-14T12:00+02:",
        "2026-08-14T12:00+02:00:00",
        "2026-08-14T12:00:00.1234567890",
        "2026-08-14T12:00:00.",
        "2026-08-14T12:00.5",
        "2026-08-14X12:00",
        "2026-08-14T12:00 Z",
        " 2026-08-14",
        "2026-08-14 ",
        "2026-08-14\n",
        "２０２６-08-14",
        "2026-0٨-14",
        "2026-08-14T12:00Zz",
        "2026-08-14T1:00",
        "",
        "2026/08/14",
        "2026-08-14T12:0",
        "2026-08-14T12:00:0",
    ],
)
def test_timestamp_grammar_rejects(ts: str) -> None:
    assert not well_formed(ts)


@pytest.mark.parametrize(
    "ts,expected",
    [
        ("2026-08-14", datetime(2026, 8, 14, tzinfo=UTC)),
        ("2026-08-14T12:34", datetime(2026, 8, 14, 12, 34, tzinfo=UTC)),
        ("2026-08-14 12:34:56", datetime(2026, 8, 14, 12, 34, 56, tzinfo=UTC)),
        ("2026-08-14T12:34:56.5", datetime(2026, 8, 14, 12, 34, 56, 500000, tzinfo=UTC)),
        ("2026-08-14T12:34:56,000007", datetime(2026, 8, 14, 12, 34, 56, 7, tzinfo=UTC)),
        ("2026-08-14T12:34:56.9999999Z", datetime(2026, 8, 14, 12, 34, 56, 999999, tzinfo=UTC)),
        ("2026-08-14T12:34:56.123456789z", datetime(2026, 8, 14, 12, 34, 56, 123456, tzinfo=UTC)),
        ("2026-08-14T12:34+02", datetime(2026, 8, 14, 10, 34, tzinfo=UTC)),
        ("2026-08-14T12:34+0230", datetime(2026, 8, 14, 10, 4, tzinfo=UTC)),
        ("2026-08-14T12:34-02:30", datetime(2026, 8, 14, 15, 4, tzinfo=UTC)),
        ("2026-08-14T12:34:56-00:00", datetime(2026, 8, 14, 12, 34, 56, tzinfo=UTC)),
        ("2026-03-01T00:30+01:00", datetime(2026, 2, 28, 23, 30, tzinfo=UTC)),
    ],
)
def test_timestamp_instants(ts: str, expected: datetime) -> None:
    assert mul._ts_micros(ts) == micros(expected)


def test_instants_before_year_one_in_utc() -> None:
    assert mul._ts_micros("0001-01-01T00:00+01:00") == 86_400 * 10**6 - 3600 * 10**6
    assert mul._ts_micros("0001-01-01") == 86_400 * 10**6
    assert (
        mul._utc_micros(datetime(1, 1, 1, 1, 2, 3, 4, tzinfo=UTC))
        == (86_400 + 3600 + 120 + 3) * 10**6 + 4
    )


def test_fraction_boundaries_are_exact() -> None:
    now = datetime(2026, 8, 15, 12, 0, 0, 500000, tzinfo=UTC)
    day = timedelta(days=1)
    assert counted("2026-08-14T12:00:00.5Z", now=now, window=day)
    assert not counted("2026-08-14T12:00:00.4999999Z", now=now, window=day)
    assert counted("2026-08-14T12:00:00,500000Z", now=now, window=day)
    later = now + timedelta(microseconds=1)
    assert not counted("2026-08-14T12:00:00.5Z", now=later, window=day)
    assert counted("2026-08-14T12:00:00.5000019Z", now=later, window=day)
    assert not counted("2026-08-14T12:00:00.5000009Z", now=later, window=day)


def test_offsets_shift_the_instant_both_ways() -> None:
    # cutoff: 2026-08-14T12:00Z
    assert counted("2026-08-14T14:00+02:00")
    assert not counted("2026-08-14T13:59:59.999999+02:00")
    assert counted("2026-08-14T11:00-01:00")
    assert not counted("2026-08-14T10:59:59.999999-01:00")
    assert counted("2026-08-14T12:30+00:30")
    assert not counted("2026-08-14T12:29:59+0030")
    assert counted("2026-08-14T11:30-0030")
    assert not counted("2026-08-14T11:29:59-00:30")
    assert counted("2026-08-14T12:00")  # no zone: UTC, never local time
    assert not counted("2026-08-14T11:59:59")


def test_date_only_is_midnight_utc() -> None:
    now = datetime(2026, 8, 15, tzinfo=UTC)
    assert counted("2026-08-14", now=now)
    assert not counted("2026-08-13", now=now)
    assert not counted("2026-08-13T23:59:59.999999", now=now)
    assert counted("2026-08-14T00:00:00", now=now)


def test_written_timestamp_format() -> None:
    def ts(now: Any) -> str:
        return str(make_touch_rows(["a"], now=now).rows[0]["ts"])

    assert ts(datetime(2026, 8, 15, 12, 3, 4, 123999)) == "2026-08-15T12:03:04.123Z"
    assert ts(datetime(2026, 8, 15, 12, 3, 4, 999)) == "2026-08-15T12:03:04.000Z"
    assert ts(datetime(5, 1, 2, 3, 4, 5, 6000, tzinfo=UTC)) == "0005-01-02T03:04:05.006Z"
    plus2 = timezone(timedelta(hours=2))
    assert ts(datetime(2026, 8, 15, 1, 0, tzinfo=plus2)) == "2026-08-14T23:00:00.000Z"
    minus = timezone(-timedelta(hours=5, minutes=30))
    assert ts(datetime(2026, 8, 15, 20, 0, tzinfo=minus)) == "2026-08-16T01:30:00.000Z"


@pytest.mark.parametrize("now", ["2026-08-15", 12345, object(), date(2026, 8, 15)])
def test_now_that_is_not_a_datetime_raises_naming_it(now: Any) -> None:
    with pytest.raises(TypeError, match="now must be a datetime or None"):
        make_touch_rows(["a"], now=now)
    with pytest.raises(TypeError, match="now must be a datetime or None"):
        tally_usage([], [], now=now)


def test_now_none_means_current_utc() -> None:
    now = None
    before = datetime.now(UTC).replace(microsecond=0)
    got = make_touch_rows(["a"], now=now).rows[0]["ts"]
    after = datetime.now(UTC)
    stamp = datetime.strptime(got, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    assert before - timedelta(seconds=1) <= stamp <= after
    current = datetime.now(UTC)
    fresh = current - timedelta(days=89)
    stale = current - timedelta(days=91)
    tally = tally_usage(
        [row("fresh", fresh.isoformat()), row("stale", stale.isoformat())], [], now=now
    )
    assert [t.name for t in tally.touched] == ["fresh"] and tally.rows_read == 2


@pytest.mark.usefixtures("far_zone")
def test_naive_now_is_utc_and_aware_now_is_converted() -> None:
    assert make_touch_rows(["a"], now=datetime(2026, 8, 15, 12)).rows[0]["ts"] == (
        "2026-08-15T12:00:00.000Z"
    )
    naive = datetime(2026, 8, 15, 12)
    assert (
        tally_usage(
            [row("a", "2026-08-14T12:00Z")], [], window=timedelta(days=1), now=naive
        ).rows_in_window
        == 1
    )
    plus2 = datetime(2026, 8, 15, 14, tzinfo=timezone(timedelta(hours=2)))
    assert counted("2026-08-14T12:00Z", now=plus2)
    assert not counted("2026-08-14T11:59:59.999999Z", now=plus2)


@pytest.mark.usefixtures("far_zone")
def test_now_with_tzinfo_without_offset_is_utc() -> None:
    class Floating(tzinfo):
        def utcoffset(self, dt: Any) -> None:
            return None

        def dst(self, dt: Any) -> None:
            return None

        def tzname(self, dt: Any) -> str:
            return "floating"

    floating = datetime(2026, 8, 15, 12, tzinfo=Floating())
    assert make_touch_rows(["a"], now=floating).rows[0]["ts"] == "2026-08-15T12:00:00.000Z"
    assert counted("2026-08-14T12:00Z", now=floating)
    assert not counted("2026-08-14T11:59:59.999999Z", now=floating)


def test_now_that_cannot_convert_means_current_time() -> None:
    class Broken(tzinfo):
        def utcoffset(self, dt: Any) -> timedelta:
            raise RuntimeError("broken tz")

    weird = datetime(2026, 1, 1, tzinfo=Broken())  # type: ignore[abstract]
    stamp = make_touch_rows(["a"], now=weird).rows[0]["ts"]
    assert stamp[:4] == str(datetime.now(UTC).year)
    edge = datetime.min.replace(tzinfo=timezone(timedelta(hours=5)))
    assert make_touch_rows(["a"], now=edge).rows[0]["ts"][:4] == str(datetime.now(UTC).year)
    assert tally_usage([row("a", "2026-08-14")], [], now=edge).rows_read == 1


# --------------------------------------------------------------------------- section 4: parse


def test_parse_splits_on_newline_only() -> None:
    got = parse_ledger_text('{"a":1}\u2028{"b":2}\n{"c":3}\n{"d":4}\x1c{"e":5}')
    assert got.rows == ({"c": 3},) and got.skipped == 2
    got = parse_ledger_text('{"a":1}\r\n{"b":2}\r{"c":3}\n')
    assert got.rows == ({"a": 1},) and got.skipped == 1


def test_parse_blank_lines_are_not_counted() -> None:
    assert parse_ledger_text("\n\n  \n\t\r\n\x0b\n\u2028\n\u3000\n") == LedgerRows((), 0)
    assert parse_ledger_text("   ") == LedgerRows((), 0)
    assert parse_ledger_text('\n{"a":1}\n\n') == LedgerRows(({"a": 1},), 0)
    assert parse_ledger_text('  {"a":1}  \r\n') == LedgerRows(({"a": 1},), 0)


@pytest.mark.parametrize(
    "line",
    [
        "not json",
        "[1,2]",
        "1",
        '"s"',
        "null",
        "true",
        '{"a":1',
        "{",
        '{"a":1}{"b":2}',
        '{"a":NaN}',
        '{"a":Infinity}',
        '{"a":-Infinity}',
        '{"a":1e999}',
        '{"a":-1e999}',
        "[" * 100_000,
        '{"a":' * 100_000,
        '{"n":' + "9" * 4301 + "}",
        '{"n":-' + "9" * 4301 + "}",
        "{'a':1}",
        '{"ts":"2026-08-14T0',
    ],
)
def test_parse_skips_non_objects(line: str) -> None:
    assert parse_ledger_text(line) == LedgerRows((), 1)
    assert parse_ledger_text(line + "\n" + '{"ok":1}\n') == LedgerRows(({"ok": 1},), 1)


def test_parse_number_bounds() -> None:
    big = "9" * 4300
    assert parse_ledger_text('{"n":' + big + "}").rows == ({"n": int(big)},)
    assert parse_ledger_text('{"n":-' + big + "}").rows == ({"n": -int(big)},)
    assert parse_ledger_text('{"n":1e308,"m":-2.5,"k":0}').rows == (
        {"n": 1e308, "m": -2.5, "k": 0},
    )
    assert isinstance(parse_ledger_text('{"k":0}').rows[0]["k"], int)


def test_parse_integer_limit_is_the_same_on_every_python() -> None:
    limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    setter = getattr(sys, "set_int_max_str_digits", None)
    if setter is not None:
        setter(0)  # as on Pythons without a conversion limit
    try:
        assert parse_ledger_text('{"n":' + "9" * 4301 + "}") == LedgerRows((), 1)
        assert parse_ledger_text('{"n":-' + "9" * 4301 + "}") == LedgerRows((), 1)
        assert len(parse_ledger_text('{"n":' + "9" * 4300 + "}").rows) == 1
    finally:
        if setter is not None:
            setter(limit)


def test_parse_keeps_keys_and_order() -> None:
    got = parse_ledger_text('{"z":1,"a":[1,{"b":null}],"\\u00e9":"\\ud800"}\n')
    assert got.rows == ({"z": 1, "a": [1, {"b": None}], "é": "\ud800"},)
    assert list(got.rows[0]) == ["z", "a", "é"]


@pytest.mark.parametrize(
    "value", [None, 5, b'{"a":1}', bytearray(b'{"a":1}'), ['{"a":1}'], object()]
)
def test_parse_non_str(value: Any) -> None:
    assert parse_ledger_text(value) == LedgerRows((), 0)


def test_parse_str_subclass() -> None:
    class Sneaky(str):
        def split(self, *args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("no")

    assert parse_ledger_text(Sneaky('{"a":1}\nx\n')) == LedgerRows(({"a": 1},), 1)


def test_parse_torn_last_line_is_skipped_not_raised() -> None:
    text = '{"ts":"2026-08-14T00:00:00Z","name":"a"}\n{"ts":"2026-08-14T00:0'
    assert parse_ledger_text(text) == LedgerRows(({"ts": "2026-08-14T00:00:00Z", "name": "a"},), 1)


# --------------------------------------------------------------------------- section 5: format


def test_format_exact_text() -> None:
    rows = [{"ts": "t", "name": "é", "session": None}, {"n": 1.5, "b": True, "l": [1, 2]}]
    assert format_ledger_rows(rows) == (
        '{"ts":"t","name":"é","session":null}\n{"n":1.5,"b":true,"l":[1,2]}\n'
    )
    assert format_ledger_rows([{"a": "x\ny\rz\u2028"}]) == '{"a":"x\\ny\\rz\u2028"}\n'
    assert format_ledger_rows([]) == ""


def test_format_leaves_out_bad_items() -> None:
    class Boom(Mapping[str, Any]):
        def __getitem__(self, key: str) -> Any:
            raise RuntimeError("no")

        def __iter__(self) -> Iterator[str]:
            return iter(["a"])

        def __len__(self) -> int:
            return 1

    circular: dict[str, Any] = {}
    circular["self"] = circular
    items: list[Any] = [
        {"a": 1},
        ["not", "a", "mapping"],
        "text",
        5,
        None,
        {"nan": float("nan")},
        {"inf": float("inf")},
        {"obj": object()},
        {(1, 2): "tuple key"},
        circular,
        Boom(),
        {"b": 2},
    ]
    assert format_ledger_rows(items) == '{"a":1}\n{"b":2}\n'


def test_format_accepts_any_mapping() -> None:
    class Plain(Mapping[str, Any]):
        def __getitem__(self, key: str) -> Any:
            return {"x": 1}[key]

        def __iter__(self) -> Iterator[str]:
            return iter(["x"])

        def __len__(self) -> int:
            return 1

    assert format_ledger_rows([Plain()]) == '{"x":1}\n'
    assert format_ledger_rows(iter([{"a": 1}])) == '{"a":1}\n'


@pytest.mark.parametrize("value", [None, "abc", b"ab", {"a": 1}, 5, object()])
def test_format_non_iterables(value: Any) -> None:
    assert format_ledger_rows(value) == ""


def test_format_iterable_that_raises_is_empty() -> None:
    def rows() -> Iterator[dict[str, int]]:
        yield {"a": 1}
        raise RuntimeError("mid-listing")

    assert format_ledger_rows(rows()) == ""


# --------------------------------------------------------------------------- section 6: touch rows


@pytest.mark.parametrize(
    "name",
    [
        "a.md",
        "a.Md",
        "a.mD",
        "A.MD",
        ".md",
        "dir/x",
        "/x",
        "x/",
        "a\\b",
        "\\",
        ".",
        "..",
        "",
        "   ",
        "\t\n",
        "bad\ud800",
        "\udcff",
        " .. ",
        " x.md ",
    ],
)
def test_invalid_names_rejected_as_given(name: str) -> None:
    got = make_touch_rows([name], now=NOW)
    assert got.rows == () and got.rejected == (name,) and got.unknown == ()


@pytest.mark.parametrize(
    "name,stored",
    [
        ("md", "md"),
        ("x.m", "x.m"),
        ("x.mdx", "x.mdx"),
        ("...", "..."),
        (".x", ".x"),
        ("a.md.txt", "a.md.txt"),
        ("x md", "x md"),
        ("  feedback_x\t", "feedback_x"),
        ("é", "é"),
        ("a:b", "a:b"),
        ("xmd", "xmd"),
        ("\u00a0x\u3000", "x"),
    ],
)
def test_valid_names(name: str, stored: str) -> None:
    got = make_touch_rows([name], now=NOW)
    assert [r["name"] for r in got.rows] == [stored] and got.rejected == ()


def test_non_str_items_rejected_as_str() -> None:
    class Unprintable:
        def __str__(self) -> str:
            raise RuntimeError("no")

    got = make_touch_rows([7, None, 1.5, b"x", Unprintable(), "ok"], now=NOW)
    assert got.rejected == ("7", "None", "1.5", "b'x'", "<Unprintable>")
    assert [r["name"] for r in got.rows] == ["ok"]


def test_duplicates_after_strip_record_once_in_first_order() -> None:
    got = make_touch_rows(["b", " a", "b ", "a", "c", "b"], now=NOW, known_names=[])
    assert [r["name"] for r in got.rows] == ["b", "a", "c"]
    assert got.unknown == ("b", "a", "c")


def test_one_timestamp_shared() -> None:
    got = make_touch_rows([f"n{i}" for i in range(200)])
    assert len({r["ts"] for r in got.rows}) == 1 and len(got.rows) == 200


@pytest.mark.parametrize(
    "session,kept",
    [
        ("s1", "s1"),
        ("", ""),
        (" s ", " s "),
        (None, None),
    ],
)
def test_session(session: Any, kept: Any) -> None:
    assert make_touch_rows(["a"], session=session, now=NOW).rows[0]["session"] == kept


@pytest.mark.parametrize("session", [5, b"s", ["s"]])
def test_session_of_wrong_type_raises_naming_it(session: Any) -> None:
    with pytest.raises(TypeError, match="session must be a str or None"):
        make_touch_rows(["a"], session=session, now=NOW)


@pytest.mark.parametrize("known", [5, 1.5, object(), "alpha", b"alpha", bytearray(b"a")])
def test_known_names_not_an_iterable_of_names_raises_naming_it(known: Any) -> None:
    with pytest.raises(TypeError, match="known_names must be an iterable"):
        make_touch_rows(["alpha"], now=NOW, known_names=known)


def test_str_subclasses_become_plain() -> None:
    class S(str):
        pass

    got = make_touch_rows([S("alpha"), S("bad/x")], session=S("s"), now=NOW, known_names=[S("zzz")])
    assert type(got.rows[0]["name"]) is str and type(got.rows[0]["session"]) is str
    assert type(got.rejected[0]) is str and type(got.unknown[0]) is str


@pytest.mark.parametrize("names", [None, "alpha", b"alpha", bytearray(b"alpha"), 5, object()])
def test_names_not_iterable(names: Any) -> None:
    assert make_touch_rows(names, now=NOW) == TouchRows((), (), ())


def test_names_iterable_raising_is_empty_and_generators_copied_once() -> None:
    def raising() -> Iterator[str]:
        yield "alpha"
        raise RuntimeError("mid-listing")

    assert make_touch_rows(raising(), now=NOW) == TouchRows((), (), ())
    got = make_touch_rows((n for n in ["a", "b"]), now=NOW, known_names=(n for n in ["a"]))
    assert [r["name"] for r in got.rows] == ["a", "b"] and got.unknown == ("b",)
    assert [r["name"] for r in make_touch_rows({"x": 1, "y": 2}, now=NOW).rows] == ["x", "y"]


def test_known_names_off() -> None:
    got = make_touch_rows(["alpha", "beta"], now=NOW, known_names=None)
    assert got.unknown == () and len(got.rows) == 2


def test_known_names_check() -> None:
    def raising() -> Iterator[str]:
        yield "alpha"
        raise RuntimeError("mid-listing")

    both = ["alpha", "beta"]
    assert make_touch_rows(both, now=NOW, known_names=[]).unknown == ("alpha", "beta")
    assert make_touch_rows(both, now=NOW, known_names=raising()).unknown == ("alpha", "beta")
    assert make_touch_rows(both, now=NOW, known_names={"beta": 1}).unknown == ("alpha",)
    assert make_touch_rows(both, now=NOW, known_names=[1, None, "beta"]).unknown == ("alpha",)
    assert make_touch_rows(both, now=NOW, known_names=["Alpha", "alpha.md", "beta"]).unknown == (
        "alpha",
    )
    got = make_touch_rows(["x/y", "alpha"], now=NOW, known_names=[])
    assert got.unknown == ("alpha",) and got.rejected == ("x/y",)


# --------------------------------------------------------------------------- section 7: tally


@pytest.mark.parametrize("bad", [5, "90 days", 90.0])
def test_window_of_wrong_type_raises_naming_it(bad: Any) -> None:
    with pytest.raises(TypeError, match="window must be a timedelta or None"):
        tally_usage([], [], window=bad, now=NOW)


@pytest.mark.parametrize("bad", [timedelta(0), timedelta(days=-1), -timedelta(microseconds=1)])
def test_non_positive_window_raises_naming_it(bad: timedelta) -> None:
    with pytest.raises(ValueError, match="window must be positive"):
        tally_usage([], [], window=bad, now=NOW)


def test_window_default_and_echo() -> None:
    rows = [row("a", iso(2)), row("b", iso(100))]
    got = tally_usage(rows, [], window=None, now=NOW)
    assert got.window == DEFAULT_WINDOW and got.rows_in_window == 1
    got = tally_usage(rows, [], window=timedelta(days=1), now=NOW)
    assert got.window == timedelta(days=1) and got.rows_in_window == 0
    got = tally_usage(rows, [], window=timedelta(microseconds=1), now=NOW)
    assert got.window == timedelta(microseconds=1)
    got = tally_usage(rows, [], window=timedelta(days=101), now=NOW)
    assert got.rows_in_window == 2

    class Week(timedelta):
        pass

    got = tally_usage(rows, [], window=Week(days=7), now=NOW)
    assert type(got.window) is timedelta and got.window == timedelta(days=7)


def test_window_with_seconds_and_microseconds() -> None:
    window = timedelta(days=1, seconds=5, microseconds=7)
    now = datetime(2026, 8, 15, 12, tzinfo=UTC)
    edge = now - window
    at = edge.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    before = (edge - timedelta(microseconds=1)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    assert counted(at, now=now, window=window)
    assert not counted(before, now=now, window=window)
    assert tally_usage([], [], window=window, now=now).window == window


def test_huge_windows_and_calendar_edges_never_raise() -> None:
    rows = [row("a", "0001-01-01"), row("b", "9999-12-31T23:59:59.999999Z")]
    got = tally_usage(rows, [], window=timedelta.max, now=NOW)
    assert got.rows_in_window == 2 and got.window == timedelta.max
    got = tally_usage(rows, [], now=datetime.min)
    assert got.rows_in_window == 2
    got = tally_usage(rows, [], now=datetime.max)
    assert got.rows_in_window == 1 and got.touched[0].name == "b"


def test_malformed_rows_each_counted() -> None:
    class Boom(Mapping[str, Any]):
        def __getitem__(self, key: str) -> Any:
            raise RuntimeError("no")

        def __iter__(self) -> Iterator[str]:
            return iter(["name", "ts"])

        def __len__(self) -> int:
            return 2

    rows: list[Any] = [
        "text",
        ["alpha", iso(1)],
        5,
        None,
        Boom(),
        {"name": "", "ts": iso(1)},
        {"name": 5, "ts": iso(1)},
        {"ts": iso(1)},
        {"name": "a"},
        {"name": "a", "ts": None},
        {"name": "a", "ts": 1.5},
        {"name": "a", "ts": "2026-02-30"},
        {"name": ["a"], "ts": iso(1)},
        {"name": "a", "ts": iso(1)},
    ]
    got = tally_usage(rows, ["a"], now=NOW)
    assert (got.rows_read, got.rows_in_window, got.rows_skipped) == (1, 1, 13)


def test_each_field_read_once() -> None:
    reads: dict[str, int] = {}

    class Counting(Mapping[str, Any]):
        def __init__(self) -> None:
            self.data = {"name": "a", "ts": iso(1), "session": "s"}

        def __getitem__(self, key: str) -> Any:
            reads[key] = reads.get(key, 0) + 1
            return self.data[key]

        def __iter__(self) -> Iterator[str]:
            return iter(self.data)

        def __len__(self) -> int:
            return 3

    got = tally_usage([Counting()], ["a"], now=NOW)
    assert got.touched == (Touch("a", 1, iso(1)),)
    assert reads == {"name": 1, "ts": 1}


def test_rows_and_facts_copied_once() -> None:
    got = tally_usage(
        (r for r in [row("a", iso(1)), row("a", iso(2))]), (f for f in ["a", "b"]), now=NOW
    )
    assert got.touched == (Touch("a", 2, iso(1)),) and got.never_touched == ("b",)

    def raising() -> Iterator[dict[str, Any]]:
        yield row("a", iso(1))
        raise RuntimeError("mid-listing")

    got = tally_usage(raising(), ["a"], now=NOW)
    assert got.rows_read == 0 and got.never_touched == ("a",)


def test_sort_order() -> None:
    rows = [row(n, iso(1)) for n in ["b", "a", "B", "é", "z", "z", "a", "c", "c", "c"]]
    got = tally_usage(rows, [], now=NOW)
    assert [(t.name, t.count) for t in got.touched] == [
        ("c", 3),
        ("a", 2),
        ("z", 2),
        ("B", 1),
        ("b", 1),
        ("é", 1),
    ]


def test_last_touch_latest_counted_and_earliest_row_on_tie() -> None:
    rows = [
        row("a", iso(5)),
        row("a", "2026-08-14T13:00:00Z"),
        row("a", "2026-08-14T15:00:00+02:00"),
        row("a", iso(3)),
        row("a", "2026-08-14 13:00"),
    ]
    got = tally_usage(rows, [], now=NOW)
    assert got.touched == (Touch("a", 5, "2026-08-14T13:00:00Z"),)
    rows = [row("a", iso(2)), row("a", iso(1)), row("a", iso(150))]
    assert tally_usage(rows, [], now=NOW).touched == (Touch("a", 2, iso(1)),)
    assert tally_usage(rows[:1], [], now=NOW).touched == (Touch("a", 1, iso(2)),)


def test_last_touch_verbatim() -> None:
    stamp = "2026-08-14t09:00:00,123456789+05:30"
    got = tally_usage([row("a", stamp)], [], now=NOW)
    assert got.touched == (Touch("a", 1, stamp),) and type(got.touched[0].last_touch) is str


def test_never_touched_distinct_sorted_literal() -> None:
    rows = [
        row("alpha.md", iso(1)),
        row("Alpha", iso(1)),
        row("beta", iso(1)),
        row("gamma", iso(100)),
    ]
    got = tally_usage(rows, ["gamma", "alpha", 7, None, "beta", "alpha", "Zed"], now=NOW)
    assert got.never_touched == ("Zed", "alpha", "gamma")
    assert [t.name for t in got.touched] == ["Alpha", "alpha.md", "beta"]
    assert tally_usage([], "alpha", now=NOW).never_touched == ()
    assert tally_usage([], {"b": 1, "a": 2}, now=NOW).never_touched == ("a", "b")


def test_str_subclass_rows_become_plain() -> None:
    class S(str):
        def __hash__(self) -> int:
            return 1

        def __eq__(self, other: object) -> bool:
            return True

    got = tally_usage([{"name": S("a"), "ts": S(iso(1))}, row("b", iso(1))], [S("c")], now=NOW)
    assert [t.name for t in got.touched] == ["a", "b"]
    assert type(got.touched[0].name) is str and type(got.touched[0].last_touch) is str
    assert got.never_touched == ("c",) and type(got.never_touched[0]) is str


# --------------------------------------------------------------------------- section 8: limits


def test_limit_empty_ledger_is_absence_not_rot() -> None:
    got = tally_usage(parse_ledger_text("").rows, ["alpha", "beta"], now=NOW)
    assert got.never_touched == ("alpha", "beta")
    assert got.rows_read == 0 and got.rows_in_window == 0  # the caller must refuse this read


def test_limit_touches_are_self_reported() -> None:
    # An over-toucher that records everything it loaded: every row counts at face value.
    everything = make_touch_rows(["alpha", "beta", "gamma"], session="s", now=NOW).rows
    got = tally_usage(everything, ["alpha", "beta", "gamma"], now=NOW)
    assert [t.name for t in got.touched] == ["alpha", "beta", "gamma"]
    assert got.never_touched == ()
    # A forgetful session under-counts: what it used but did not record looks unused.
    got = tally_usage(make_touch_rows(["alpha"], now=NOW).rows, ["alpha", "beta"], now=NOW)
    assert got.never_touched == ("beta",)


def test_limit_future_touches_count_unclamped() -> None:
    far = "9999-12-31T23:59:59Z"
    got = tally_usage([row("a", far), row("a", iso(1))], [], now=NOW)
    assert got.touched == (Touch("a", 2, far),) and got.rows_in_window == 2


def test_limit_counts_does_not_judge() -> None:
    got = tally_usage([row("a", iso(1))] * 1000 + [row("b", iso(89))], ["a", "b", "c"], now=NOW)
    assert got.touched == (Touch("a", 1000, iso(1)), Touch("b", 1, iso(89)))
    assert got.never_touched == ("c",)
    assert not any(hasattr(got, f) for f in ("score", "evict", "keep", "threshold"))


def test_limit_rename_orphans_history() -> None:
    got = tally_usage([row("old_name", iso(1))], ["new_name"], now=NOW)
    assert got.never_touched == ("new_name",)
    assert got.touched == (Touch("old_name", 1, iso(1)),)


def test_choice_fraction_needs_seconds() -> None:
    assert not well_formed("2026-08-14T12:00.5")
    assert not well_formed("2026-08-14T12:00,5Z")
    assert well_formed("2026-08-14T12:00:00.5")


# --------------------------------------------------------------------------- performance


def test_pathological_inputs_are_fast() -> None:
    import time

    start = time.perf_counter()
    assert not well_formed("2026-08-14T12:00:00." + "9" * 200_000)
    assert not well_formed("2" * 200_000)
    parse_ledger_text("{" * 200_000 + "\n" + "\n" * 200_000)
    make_touch_rows(["a" * 200_000 + "\ud800"], now=NOW)
    rows = [row(f"n{i % 500}", iso(i % 120)) for i in range(50_000)]
    tally_usage(rows, [f"n{i}" for i in range(1000)], now=NOW)
    assert time.perf_counter() - start < 5  # a generous adversarial bound, not a benchmark


# --------------------------------------------------------------------------- properties

_JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
_ROWS = st.lists(st.dictionaries(st.text(max_size=8), _JSON_SCALARS, max_size=5), max_size=8)
_ANY = st.none() | st.booleans() | st.integers() | st.floats() | st.text() | st.binary()
_STAMP_PARTS = st.sampled_from(
    [
        "2026-08-14",
        "2026-08-14T12:00",
        "2026-08-14 12:00:30.5",
        "2026-08-14T12:00Z",
        "2026-08-14T12:00+02:00",
        "not a date",
        "2026-02-30",
        "",
    ]
)


@given(st.text())
def test_prop_parse_never_raises(text: str) -> None:
    got = parse_ledger_text(text)
    assert got.skipped + len(got.rows) <= text.count("\n") + 1
    assert all(type(r) is dict for r in got.rows)


@given(
    st.lists(st.one_of(_ANY, st.dictionaries(st.text(max_size=5), _ANY, max_size=4)), max_size=8)
)
def test_prop_format_never_raises(rows: list[Any]) -> None:
    text = format_ledger_rows(rows)
    assert text == "" or text.endswith("\n")
    assert parse_ledger_text(text).skipped == 0


@given(_ROWS)
def test_prop_round_trip(rows: list[dict[str, Any]]) -> None:
    text = format_ledger_rows(rows)
    assert parse_ledger_text(text) == LedgerRows(tuple(rows), 0)
    assert text.count("\n") == len(rows)


@given(
    st.lists(st.one_of(st.text(max_size=12), st.integers(), st.none()), max_size=10),
    st.one_of(st.none(), st.text()),
    st.one_of(st.none(), st.lists(st.text(max_size=6), max_size=5)),
)
def test_prop_touch_rows_never_raise(names: list[Any], session: Any, known: Any) -> None:
    got = make_touch_rows(names, session=session, now=NOW, known_names=known)
    recorded = [r["name"] for r in got.rows]
    assert len(recorded) == len(set(recorded))
    assert len(recorded) + len(got.rejected) <= len(names)
    assert set(got.unknown) <= set(recorded)
    assert all(mul._is_fact_name(n) and n == n.strip() for n in recorded)
    parsed = parse_ledger_text(format_ledger_rows(got.rows))
    assert parsed.rows == got.rows
    tally = tally_usage(parsed.rows, recorded, now=NOW)
    assert tally.rows_read == len(recorded) and tally.never_touched == ()
    assert all(t.count == 1 for t in tally.touched)


@given(
    st.lists(
        st.one_of(
            st.fixed_dictionaries({"name": st.sampled_from(["a", "b", "", 5]), "ts": _STAMP_PARTS}),
            _ANY,
        ),
        max_size=12,
    ),
    st.lists(st.one_of(st.sampled_from(["a", "b", "c"]), _ANY), max_size=5),
    st.one_of(st.none(), st.timedeltas(min_value=timedelta(microseconds=1))),
)
def test_prop_tally_deterministic_and_consistent(
    rows: list[Any], facts: list[Any], window: Any
) -> None:
    first = tally_usage(rows, facts, window=window, now=NOW)
    assert first == tally_usage(list(rows), list(facts), window=window, now=NOW)
    assert first.rows_read + first.rows_skipped == len(rows)
    assert first.rows_in_window <= first.rows_read
    assert sum(t.count for t in first.touched) == first.rows_in_window
    assert not {t.name for t in first.touched} & set(first.never_touched)
    assert list(first.never_touched) == sorted(set(first.never_touched))


@given(
    st.datetimes(
        min_value=datetime(1, 1, 2),
        max_value=datetime(9999, 12, 30),
        timezones=st.sampled_from(
            [
                UTC,
                timezone(timedelta(hours=5, minutes=30)),
                timezone(-timedelta(hours=23, minutes=59)),
            ]
        ),
    ),
    st.sampled_from(["T", "t", " "]),
    st.sampled_from(["Z", "z", "+00:00", "offset", "offset-nocolon", "none"]),
)
def test_prop_grammar_matches_datetime_oracle(moment: datetime, sep: str, zone: str) -> None:
    offset = moment.utcoffset() or timedelta(0)
    if zone == "offset":
        suffix = moment.strftime("%z")
        suffix = suffix[:3] + ":" + suffix[3:]
    elif zone == "offset-nocolon":
        suffix = moment.strftime("%z")
    else:
        suffix = "" if zone == "none" else zone
        moment = moment.replace(tzinfo=UTC) if zone in ("Z", "z", "+00:00", "none") else moment
        offset = timedelta(0)
    text = full(moment, sep) + suffix
    expected = micros(moment.replace(tzinfo=UTC)) - offset // timedelta(microseconds=1)
    assert mul._ts_micros(text) == expected


@given(st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)))
def test_prop_written_stamp_reads_back(moment: datetime) -> None:
    stamp = make_touch_rows(["a"], now=moment).rows[0]["ts"]
    truncated = moment.replace(microsecond=moment.microsecond // 1000 * 1000, tzinfo=UTC)
    assert mul._ts_micros(stamp) == micros(truncated)
    assert stamp == full(truncated)[:-3] + "Z"


def test_json_helpers_reject_constants() -> None:
    with pytest.raises(ValueError):
        mul._json_no_constant("NaN")
    assert json.loads('{"a":1}', parse_constant=mul._json_no_constant) == {"a": 1}
