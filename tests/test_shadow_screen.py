"""shadow_screen: five verdicts for a gate, unscreened never a pass, and a log summary."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import MappingProxyType, SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentops import shadow_screen as ss
from agentops.shadow_screen import (
    MODES,
    PASS_VERDICTS,
    VERDICTS,
    ScreenDecision,
    ScreenInput,
    ScreenSummary,
    is_pass,
    screen_decision,
    summarize_screen_log,
)

MODULE_PATH = Path(ss.__file__)
ZERO_COUNTS = {"allow": 0, "block": 0, "shadow_allow": 0, "would_block": 0, "unscreened": 0}
EMPTY = ScreenSummary(0, ZERO_COUNTS, 0, 0, None, None, ())


# --- the public surface ----------------------------------------------------------------


def test_public_api() -> None:
    assert sorted(ss.__all__) == sorted(
        [
            "MODES",
            "PASS_VERDICTS",
            "VERDICTS",
            "ScreenDecision",
            "ScreenInput",
            "ScreenSummary",
            "is_pass",
            "screen_decision",
            "summarize_screen_log",
        ]
    )


def test_vocabulary_constants_are_exact_tuples() -> None:
    assert VERDICTS == ("allow", "block", "shadow_allow", "would_block", "unscreened")
    assert PASS_VERDICTS == ("allow", "shadow_allow")
    assert MODES == ("shadow", "enforce")
    for constant in (VERDICTS, PASS_VERDICTS, MODES):
        assert type(constant) is tuple


def test_result_shapes() -> None:
    assert ScreenInput._fields == ("mode", "ran", "flagged", "unscreened_proceeds")
    assert ScreenInput("shadow") == ("shadow", False, None, False)
    # limit 1: the decision has exactly these fields; enforcing `proceed` is the caller's
    assert ScreenDecision._fields == ("verdict", "proceed")
    assert ScreenSummary._fields == (
        "total",
        "counts",
        "unrecognized",
        "passes",
        "pass_rate",
        "unscreened_rate",
        "would_block_rows",
    )


# --- positive controls --------------------------------------------------------------------


def test_positive_control_unscreened_is_never_a_pass() -> None:
    assert is_pass("unscreened") is False
    for mode in ("shadow", "enforce"):
        for proceeds in (True, False):
            decision = screen_decision(
                {"mode": mode, "ran": False, "flagged": False, "unscreened_proceeds": proceeds}
            )
            assert decision.verdict == "unscreened"
            assert is_pass(decision.verdict) is False
    summary = summarize_screen_log(["unscreened"] * 5)
    assert summary.passes == 0
    assert summary.pass_rate == 0.0
    assert summary.unscreened_rate == 1.0


def test_positive_control_enforce_gate_denies() -> None:
    assert screen_decision({"mode": "enforce", "ran": True, "flagged": True}) == ("block", False)
    assert screen_decision({"mode": "enforce"}) == ("unscreened", False)
    assert screen_decision(None) == ("unscreened", False)


def test_positive_control_a_dark_screen_drags_the_pass_rate_down() -> None:
    quiet = summarize_screen_log(["shadow_allow"] * 10)
    dark = summarize_screen_log(["shadow_allow"] * 10 + ["unscreened"] * 10)
    assert quiet.pass_rate == 1.0
    assert dark.pass_rate == 0.5


# --- acceptance examples -----------------------------------------------------------------


class _FlipFlop:
    """A screen result whose `flagged` says True once, then False."""

    def __init__(self) -> None:
        self.mode = "enforce"
        self.ran = True
        self.unscreened_proceeds = False
        self.reads = 0

    @property
    def flagged(self) -> bool:
        self.reads += 1
        return self.reads == 1


ACCEPTANCE: list[tuple[object, tuple[str, bool]]] = [
    ({"mode": "enforce", "ran": True, "flagged": True}, ("block", False)),
    ({"mode": "enforce", "ran": True, "flagged": False}, ("allow", True)),
    (ScreenInput("shadow", ran=True, flagged=True), ("would_block", True)),
    ({"mode": "shadow", "ran": True, "flagged": False}, ("shadow_allow", True)),
    ({"mode": "enforce", "ran": False, "flagged": False}, ("unscreened", False)),
    ({"mode": "shadow", "ran": False}, ("unscreened", True)),
    ({"mode": "enforce", "ran": False, "unscreened_proceeds": True}, ("unscreened", True)),
    ({"mode": "enforce", "ran": True, "flagged": "yes"}, ("unscreened", False)),
    ({"mode": "enforce", "ran": 1, "flagged": False}, ("unscreened", False)),
    ({"mode": "Shadow", "ran": True, "flagged": True}, ("block", False)),
    (None, ("unscreened", False)),
]


@pytest.mark.parametrize(("screen", "expected"), ACCEPTANCE)
def test_acceptance_screen_decision(screen: object, expected: tuple[str, bool]) -> None:
    decision = screen_decision(screen)
    assert decision == expected
    assert type(decision) is ScreenDecision
    assert type(decision.proceed) is bool


def test_acceptance_flagged_is_read_once() -> None:
    screen = _FlipFlop()
    assert screen_decision(screen) == ("block", False)
    assert screen.reads == 1


def test_acceptance_is_pass() -> None:
    assert (is_pass("shadow_allow"), is_pass("unscreened"), is_pass("would_block")) == (
        True,
        False,
        False,
    )


def test_acceptance_summaries() -> None:
    mixed = summarize_screen_log(["shadow_allow"] * 7 + ["unscreened"] * 3)
    assert mixed.pass_rate == pytest.approx(0.7)
    assert mixed.unscreened_rate == pytest.approx(0.3)
    assert summarize_screen_log(["unscreened"] * 3 + ["would_block"] * 3).pass_rate == 0.0
    empty = summarize_screen_log([])
    assert (empty.total, empty.pass_rate, empty.unscreened_rate) == (0, None, None)
    row = {"verdict": "would_block", "id": 2}
    assert summarize_screen_log([row, "allow"]).would_block_rows == (
        {"verdict": "would_block", "id": 2},
    )
    odd = summarize_screen_log(["allow", "ALLOW", None])
    assert (odd.total, odd.unrecognized, odd.passes) == (3, 2, 1)
    assert summarize_screen_log({"verdict": "allow"}) == EMPTY


# --- screen_decision: the whole table --------------------------------------------------


@pytest.mark.parametrize("proceeds", [True, False])
def test_decision_table(proceeds: bool) -> None:
    def decide(mode: str, ran: bool, flagged: object) -> tuple[str, bool]:
        return screen_decision(
            {"mode": mode, "ran": ran, "flagged": flagged, "unscreened_proceeds": proceeds}
        )

    assert decide("shadow", False, None) == ("unscreened", True)
    assert decide("shadow", False, True) == ("unscreened", True)
    assert decide("enforce", False, None) == ("unscreened", proceeds)
    assert decide("enforce", False, False) == ("unscreened", proceeds)
    # a screened result ignores unscreened_proceeds
    assert decide("shadow", True, True) == ("would_block", True)
    assert decide("shadow", True, False) == ("shadow_allow", True)
    assert decide("enforce", True, True) == ("block", False)
    assert decide("enforce", True, False) == ("allow", True)


@pytest.mark.parametrize(
    "mode",
    [
        "Shadow",
        "SHADOW",
        " shadow",
        "shadow ",
        "shadow\n",
        b"shadow",
        "enforce",
        "watch",
        "",
        None,
        1,
        ["shadow"],
    ],
)
def test_anything_but_exact_shadow_is_enforce(mode: object) -> None:
    assert screen_decision({"mode": mode, "ran": True, "flagged": True}) == ("block", False)
    assert screen_decision({"mode": mode, "ran": True, "flagged": False}) == ("allow", True)
    assert screen_decision({"mode": mode, "ran": False}) == ("unscreened", False)


@pytest.mark.parametrize("ran", [1, "true", "True", None, 1.0, [True], False])
def test_ran_must_be_exactly_true(ran: object) -> None:
    assert screen_decision({"mode": "enforce", "ran": ran, "flagged": True}) == (
        "unscreened",
        False,
    )
    assert screen_decision({"mode": "shadow", "ran": ran, "flagged": False}) == ("unscreened", True)


@pytest.mark.parametrize("flagged", [None, "yes", "true", 1, 0, 1.0, [], "False"])
def test_flagged_must_be_a_bool(flagged: object) -> None:
    assert screen_decision({"mode": "enforce", "ran": True, "flagged": flagged}) == (
        "unscreened",
        False,
    )
    assert screen_decision(
        {"mode": "enforce", "ran": True, "flagged": flagged, "unscreened_proceeds": True}
    ) == ("unscreened", True)


def test_missing_flagged_is_unscreened() -> None:
    assert screen_decision({"mode": "enforce", "ran": True}) == ("unscreened", False)


@pytest.mark.parametrize("proceeds", [1, "true", "yes", None, 1.0, [True], False])
def test_unscreened_proceeds_must_be_exactly_true(proceeds: object) -> None:
    assert screen_decision({"mode": "enforce", "ran": False, "unscreened_proceeds": proceeds}) == (
        "unscreened",
        False,
    )


def test_screen_input_defaults_are_unscreened() -> None:
    assert screen_decision(ScreenInput("enforce")) == ("unscreened", False)
    assert screen_decision(ScreenInput("shadow")) == ("unscreened", True)
    assert screen_decision(ScreenInput("enforce", unscreened_proceeds=True)) == ("unscreened", True)
    assert screen_decision(ScreenInput("enforce", True, False)) == ("allow", True)


def test_objects_with_attributes_and_any_mapping() -> None:
    assert screen_decision(SimpleNamespace(mode="shadow", ran=True, flagged=True)) == (
        "would_block",
        True,
    )
    assert screen_decision(
        MappingProxyType({"mode": "enforce", "ran": True, "flagged": False})
    ) == ("allow", True)


class _StrSub(str):
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


def test_mode_is_judged_by_its_genuine_value() -> None:
    assert screen_decision({"mode": _StrSub("shadow"), "ran": True, "flagged": True}) == (
        "would_block",
        True,
    )
    assert screen_decision({"mode": _StrSub("enforce"), "ran": True, "flagged": True}) == (
        "block",
        False,
    )


@pytest.mark.parametrize("screen", ["shadow", "", 42, 3.5, b"mode", object(), [], (), ["x"]])
def test_values_without_fields_are_all_absent(screen: object) -> None:
    assert screen_decision(screen) == ("unscreened", False)


class _Raising:
    """Every attribute read raises."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)  # so pytest can still describe it
        raise RuntimeError(name)


class _RaisingMapping(dict):  # type: ignore[type-arg]
    def __getitem__(self, key: object) -> Any:
        if key == "flagged":
            raise RuntimeError("boom")
        return super().__getitem__(key)


class _BadClass:
    @property  # type: ignore[misc]
    def __class__(self) -> type:
        raise RuntimeError("no class")


def test_reads_that_raise_are_absent() -> None:
    assert screen_decision(_Raising()) == ("unscreened", False)
    raising = _RaisingMapping(mode="shadow", ran=True, flagged=True)
    assert screen_decision(raising) == ("unscreened", True)
    assert screen_decision(_BadClass()) == ("unscreened", False)


class _HashRaisingMeta(type):
    """A metaclass whose classes cannot be hashed, so an ABC check on them raises."""

    def __hash__(cls) -> int:
        raise RuntimeError("odd metaclass")


class _OddResult(metaclass=_HashRaisingMeta):
    mode = "shadow"
    ran = True
    flagged = True
    verdict = "allow"


def test_a_type_whose_mapping_check_raises_is_read_by_attribute() -> None:
    assert screen_decision(_OddResult()) == ("would_block", True)
    summary = summarize_screen_log([_OddResult()])
    assert (summary.total, summary.passes, summary.unrecognized) == (1, 1, 0)


class _CountingMapping(dict):  # type: ignore[type-arg]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reads: list[object] = []

    def __getitem__(self, key: object) -> Any:
        self.reads.append(key)
        return super().__getitem__(key)

    def get(self, key: object, default: Any = None) -> Any:
        raise AssertionError("read fields with [] only")


def test_each_field_is_read_exactly_once_from_a_mapping() -> None:
    screen = _CountingMapping(mode="enforce", ran=True, flagged=True, unscreened_proceeds=False)
    assert screen_decision(screen) == ("block", False)
    assert sorted(screen.reads) == sorted(["mode", "ran", "flagged", "unscreened_proceeds"])
    screen = _CountingMapping(mode="shadow")
    assert screen_decision(screen) == ("unscreened", True)
    assert sorted(screen.reads) == sorted(["mode", "ran", "flagged", "unscreened_proceeds"])


class _CountingObject:
    def __init__(self, **fields: object) -> None:
        object.__setattr__(self, "_fields", fields)
        object.__setattr__(self, "reads", [])

    def __getattr__(self, name: str) -> Any:
        self.reads.append(name)
        fields: dict[str, object] = object.__getattribute__(self, "_fields")
        if name in fields:
            return fields[name]
        raise AttributeError(name)


def test_each_field_is_read_exactly_once_from_an_object() -> None:
    screen = _CountingObject(mode="shadow", ran=True, flagged=False)
    assert screen_decision(screen) == ("shadow_allow", True)
    assert sorted(screen.reads) == sorted(["mode", "ran", "flagged", "unscreened_proceeds"])


def test_screen_decision_keeps_no_state() -> None:
    first = screen_decision({"mode": "enforce", "ran": True, "flagged": True})
    screen_decision({"mode": "shadow", "ran": True, "flagged": False})
    assert screen_decision({"mode": "enforce", "ran": True, "flagged": True}) == first


# --- is_pass ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("verdict", "expected"),
    [
        ("allow", True),
        ("shadow_allow", True),
        ("block", False),
        ("would_block", False),
        ("unscreened", False),
        ("Allow", False),
        ("ALLOW", False),
        (" allow", False),
        ("allow\n", False),
        ("", False),
        (b"allow", False),
        (None, False),
        (1, False),
        (True, False),
        (["allow"], False),
        (ScreenDecision("allow", True), False),
        ({"verdict": "allow"}, False),
    ],
)
def test_is_pass(verdict: object, expected: bool) -> None:
    assert is_pass(verdict) is expected


def test_is_pass_judges_genuine_value() -> None:
    assert is_pass(_StrSub("block")) is False
    assert is_pass(_StrSub("allow")) is True


def test_every_decision_passes_exactly_when_its_verdict_is_a_pass_verdict() -> None:
    for mode in ("shadow", "enforce"):
        for ran in (True, False):
            for flagged in (True, False):
                decision = screen_decision({"mode": mode, "ran": ran, "flagged": flagged})
                assert decision.verdict in VERDICTS
                assert is_pass(decision.verdict) is (decision.verdict in PASS_VERDICTS)
                if is_pass(decision.verdict):
                    assert decision.proceed is True


# --- summarize_screen_log ----------------------------------------------------------------


def test_summary_counts_every_verdict_in_order() -> None:
    rows = [
        "allow",
        "block",
        "block",
        "shadow_allow",
        "would_block",
        "would_block",
        "would_block",
        "unscreened",
        "nope",
    ]
    summary = summarize_screen_log(rows)
    assert list(summary.counts) == list(VERDICTS)
    assert summary.counts == {
        "allow": 1,
        "block": 2,
        "shadow_allow": 1,
        "would_block": 3,
        "unscreened": 1,
    }
    assert summary.total == 9
    assert summary.unrecognized == 1
    assert summary.passes == 2
    assert summary.pass_rate == 2 / 9
    assert summary.unscreened_rate == 1 / 9
    assert summary.would_block_rows == ("would_block", "would_block", "would_block")


def test_empty_summary_shape() -> None:
    empty = summarize_screen_log([])
    assert empty == EMPTY
    assert list(empty.counts) == list(VERDICTS)
    assert type(empty.would_block_rows) is tuple


def test_rates_use_total_as_the_denominator() -> None:
    summary = summarize_screen_log(["allow", "unscreened", None, 7])
    assert summary.total == 4
    assert summary.pass_rate == 0.25
    assert summary.unscreened_rate == 0.25
    only_bad = summarize_screen_log([None, 3])
    assert (only_bad.total, only_bad.unrecognized) == (2, 2)
    assert only_bad.pass_rate == 0.0
    assert only_bad.unscreened_rate == 0.0
    one = summarize_screen_log(["allow"])
    assert (one.pass_rate, one.unscreened_rate) == (1.0, 0.0)


def test_rows_of_every_shape() -> None:
    mapping_row = {"verdict": "would_block", "cmd": "x"}
    object_row = SimpleNamespace(verdict="would_block")
    decision_row = ScreenDecision("would_block", True)
    proxy_row = MappingProxyType({"verdict": "allow"})
    rows = [
        mapping_row,
        object_row,
        decision_row,
        proxy_row,
        "would_block",
        _StrSub("shadow_allow"),
    ]
    summary = summarize_screen_log(rows)
    assert summary.total == 6
    assert summary.unrecognized == 0
    assert summary.counts["would_block"] == 4
    assert summary.passes == 2
    assert summary.would_block_rows[0] is mapping_row
    assert summary.would_block_rows[1] is object_row
    assert summary.would_block_rows[2] is decision_row
    assert summary.would_block_rows[3] == "would_block"


@pytest.mark.parametrize(
    "row",
    [
        None,
        1,
        2.5,
        b"allow",
        bytearray(b"allow"),
        ["allow"],
        ("allow",),
        {"verdict": None},
        {"verdict": "Allow"},
        {"verdict": b"allow"},
        {"Verdict": "allow"},
        {},
        {"verdict": 1},
        SimpleNamespace(verdict=None),
        SimpleNamespace(other="allow"),
        "",
        "allow ",
        "pass",
        _Raising(),
        _RaisingMapping(verdict="allow", flagged=1),
    ],
)
def test_unrecognized_rows(row: object) -> None:
    if isinstance(row, _RaisingMapping):
        row = _RaisingMapping(flagged="x")  # [] of "verdict" raises KeyError
    summary = summarize_screen_log(["allow", row])
    assert summary.total == 2
    assert summary.unrecognized == 1
    assert summary.passes == 1


class _VerdictRaises(dict):  # type: ignore[type-arg]
    def __getitem__(self, key: object) -> Any:
        raise RuntimeError("broken row")


def test_a_row_whose_read_raises_is_unrecognized_not_fatal() -> None:
    summary = summarize_screen_log([_VerdictRaises(), "allow"])
    assert (summary.total, summary.unrecognized, summary.passes) == (2, 1, 1)


class _CountingRow(dict):  # type: ignore[type-arg]
    reads = 0

    def __getitem__(self, key: object) -> Any:
        type(self).reads += 1
        return super().__getitem__(key)


def test_row_verdict_is_read_once() -> None:
    _CountingRow.reads = 0
    summarize_screen_log([_CountingRow(verdict="would_block")])
    assert _CountingRow.reads == 1


def test_rows_iterated_once_generator_works() -> None:
    summary = summarize_screen_log(v for v in ["allow", "would_block", "unscreened"])
    assert (summary.total, summary.passes, summary.counts["would_block"]) == (3, 1, 1)


class _OnceOnly:
    def __init__(self, rows: list[object]) -> None:
        self.rows = rows
        self.iterations = 0

    def __iter__(self) -> Iterator[object]:
        self.iterations += 1
        if self.iterations > 1:
            raise AssertionError("iterated twice")
        return iter(self.rows)


def test_rows_are_iterated_exactly_once() -> None:
    rows = _OnceOnly(["allow", "block"])
    assert summarize_screen_log(rows).total == 2
    assert rows.iterations == 1


@pytest.mark.parametrize(
    "rows",
    [
        None,
        "allow",
        "",
        b"allow",
        bytearray(b"allow"),
        memoryview(b"allow"),
        {"verdict": "allow"},
        MappingProxyType({"verdict": "allow"}),
        42,
        3.5,
        object(),
        _StrSub("allow"),
    ],
)
def test_non_row_collections_give_the_empty_summary(rows: object) -> None:
    assert summarize_screen_log(rows) == EMPTY  # type: ignore[arg-type]


def test_a_value_whose_class_read_raises_fails_soft() -> None:
    assert summarize_screen_log(_BadClass()) == EMPTY  # type: ignore[arg-type]
    summary = summarize_screen_log(["allow", _BadClass()])
    assert (summary.total, summary.unrecognized, summary.passes) == (2, 1, 1)
    assert is_pass(_BadClass()) is False


def test_iteration_that_raises_part_way_gives_the_empty_summary() -> None:
    def broken() -> Iterator[str]:
        yield "allow"
        yield "would_block"
        raise OSError("log truncated")

    assert summarize_screen_log(broken()) == EMPTY


def test_iterator_whose_iter_raises_gives_the_empty_summary() -> None:
    class NoIter:
        def __iter__(self) -> Iterator[object]:
            raise RuntimeError("no")

    assert summarize_screen_log(NoIter()) == EMPTY  # type: ignore[arg-type]


def test_each_call_gets_its_own_counts() -> None:
    first = summarize_screen_log(["allow"])
    first.counts["allow"] = 99
    assert summarize_screen_log(["allow"]).counts["allow"] == 1
    assert summarize_screen_log([]).counts["allow"] == 0


def test_summary_asdict_is_json_serializable() -> None:
    summary = summarize_screen_log([{"verdict": "would_block", "id": 1}, "allow", None])
    document = json.loads(json.dumps(summary._asdict()))
    assert document["would_block_rows"] == [{"verdict": "would_block", "id": 1}]
    assert document["counts"]["allow"] == 1
    assert document["pass_rate"] == pytest.approx(1 / 3)


def test_summary_has_no_decision_field() -> None:
    assert not {"ready", "promote", "enforce"} & set(ScreenSummary._fields)


# --- WHAT THIS DOES NOT CATCH: each limit pinned ----------------------------------------


def test_limit_1_it_does_not_enforce_or_log() -> None:
    decision = screen_decision({"mode": "enforce", "ran": True, "flagged": True})
    assert decision._fields == ("verdict", "proceed")
    assert decision._asdict() == {"verdict": "block", "proceed": False}


def test_limit_2_a_screen_that_never_fires_yields_only_passes() -> None:
    verdicts = [
        screen_decision({"mode": "shadow", "ran": True, "flagged": False}).verdict
        for _ in range(20)
    ]
    summary = summarize_screen_log(verdicts)
    assert summary.pass_rate == 1.0
    assert summary.would_block_rows == ()


def test_limit_3_the_summary_trusts_the_log() -> None:
    # an unscreened action nobody recorded is invisible
    assert summarize_screen_log(["allow", "allow"]).pass_rate == 1.0
    # a log mixing modes and windows is summed as given
    mixed = summarize_screen_log(["allow", "shadow_allow", "block", "would_block"])
    assert (mixed.passes, mixed.total) == (2, 4)


# --- properties -------------------------------------------------------------------------

ROW = st.one_of(
    st.sampled_from(VERDICTS),
    st.text(max_size=12),
    st.none(),
    st.integers(),
    st.binary(),
    st.dictionaries(
        st.sampled_from(["verdict", "id", "x"]),
        st.one_of(st.sampled_from(VERDICTS), st.text(max_size=5), st.none()),
        max_size=3,
    ),
    st.lists(st.integers(), max_size=3),
    st.builds(SimpleNamespace, verdict=st.one_of(st.sampled_from(VERDICTS), st.none())),
)


@given(st.lists(ROW, max_size=40))
def test_property_summary_invariants(rows: list[object]) -> None:
    summary = summarize_screen_log(rows)
    assert summary.total == len(rows)
    assert sum(summary.counts.values()) + summary.unrecognized == summary.total
    assert len(summary.would_block_rows) == summary.counts["would_block"]
    assert summary.passes == summary.counts["allow"] + summary.counts["shadow_allow"]
    if summary.total == 0:
        assert summary.pass_rate is None
        assert summary.unscreened_rate is None
    else:
        assert summary.pass_rate is not None
        assert summary.unscreened_rate is not None
        assert summary.pass_rate + summary.unscreened_rate <= 1
    assert summarize_screen_log(iter(rows)) == summary


@given(
    st.one_of(
        ROW,
        st.lists(ROW, max_size=5),
        st.tuples(ROW),
        st.sets(st.integers()),
        st.dictionaries(st.text(max_size=3), ROW, max_size=3),
    )
)
def test_property_nothing_raises_on_arbitrary_input(value: object) -> None:
    summary = summarize_screen_log(value)  # type: ignore[arg-type]
    assert type(summary) is ScreenSummary
    decision = screen_decision(value)
    assert decision.verdict in VERDICTS
    assert type(decision.proceed) is bool
    assert type(is_pass(value)) is bool


@given(
    st.lists(
        st.one_of(
            st.none(),
            st.integers(),
            st.binary(),
            st.lists(st.integers()),
            st.floats(),
            st.booleans(),
        ),
        max_size=20,
    )
)
def test_property_rows_that_are_not_mappings_fail_soft(rows: list[object]) -> None:
    summary = summarize_screen_log(rows)
    assert summary.total == len(rows)
    assert summary.unrecognized == len(rows)
    assert summary.passes == 0


@given(
    st.fixed_dictionaries(
        {},
        optional={
            "mode": st.one_of(
                st.sampled_from(["shadow", "enforce", "Shadow"]), st.none(), st.integers()
            ),
            "ran": st.one_of(st.booleans(), st.none(), st.integers()),
            "flagged": st.one_of(st.booleans(), st.none(), st.integers(), st.text(max_size=3)),
            "unscreened_proceeds": st.one_of(st.booleans(), st.none(), st.integers()),
        },
    )
)
def test_property_decision_matches_the_table(screen: dict[str, object]) -> None:
    decision = screen_decision(screen)
    shadow = screen.get("mode") == "shadow"
    ran = screen.get("ran") is True and type(screen.get("flagged")) is bool
    if not ran:
        expected_proceed = shadow or screen.get("unscreened_proceeds") is True
        assert decision == ("unscreened", expected_proceed)
    elif shadow:
        assert decision == ("would_block" if screen["flagged"] else "shadow_allow", True)
    else:
        assert decision == (("block", False) if screen["flagged"] else ("allow", True))
    # the same input as an object with attributes decides the same way
    assert screen_decision(SimpleNamespace(**screen)) == decision
    # deterministic
    assert screen_decision(dict(screen)) == decision


def test_large_log_is_linear_enough() -> None:
    rows = ["shadow_allow", "would_block", "unscreened", None] * 50_000
    summary = summarize_screen_log(rows)
    assert summary.total == 200_000
    assert summary.counts["would_block"] == 50_000


# --- importing ------------------------------------------------------------------------------
