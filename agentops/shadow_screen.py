"""Five verdicts for a screen in front of agent actions, and a log you can decide from.

The failure
-----------
A new screen in front of agent actions (a security classifier, a
policy regex, a quality judge) over-fires at first, and nobody knows its
false-positive rate. The safe way to learn it is to run the screen watching
before enforcing, but a log of "blocked: true/false" folds together "looked and
found nothing", "found something but only watching", "switched off" and
"crashed". The last is the worst: a screen that is down is exactly as silent as
a screen with nothing to report, so an outage shows up as a streak of clean
actions and the numbers improve while nobody is looking.

The fix
-------
A closed vocabulary of five verdicts: `allow` and `block` (enforcing),
`shadow_allow` and `would_block` (watching: the action proceeds either way), and
`unscreened` in either mode: the screen never produced a usable answer
(unavailable, timed out, raised, returned garbage). `unscreened` is never a pass.
`screen_decision` turns one screen outcome into a verdict and whether the action
proceeds; `is_pass` says whether a verdict is a pass; `summarize_screen_log`
turns a window of logged verdicts into the evidence a promotion decision needs
(counts, pass and unscreened rates over every row read, and the `would_block`
rows a human reviews). The summary deliberately has no "ready" field: deciding
to enforce needs the would_block rows labelled true or false positive, which
only a person (or a caller's labelled data) can supply.

Posture
-------
The gate fails closed: any mode other than the exact string "shadow"
enforces (a misspelled mode blocks loudly instead of quietly watching); in
enforce mode an unscreened action proceeds only when the caller passes
`unscreened_proceeds=True` (a choice visible in code review), and the verdict
stays `unscreened` either way. A shadow screen never gates. Each input field is
read exactly once before anything is decided; a missing field or a read that
raises is absent, and a screen that "ran" without a real boolean `flagged` counts
as not run. `screen_decision` never raises. The summary is a reporter and fails
soft: input that is not a collection of rows, or whose iteration raises
part-way, gives the empty summary (partial evidence reported as complete would
be a wrong finding); a row that cannot be read is counted as unrecognized.

Choices
-------
A row or mode that is a `str` subclass is
judged by its exact `str` value, never through its own methods; a row that
raises while being read is unrecognized, not fatal to the whole summary.

What this does not catch
------------------------
Each limit is pinned by a test.

1. It classifies one decision; it does not enforce or log. Wiring `proceed` to
   real enforcement and writing every verdict where a human reads it are the
   caller's job. A caller that computes `proceed` and ignores it runs a watching
   screen under an enforcing name, and no pure function can see its caller (the
   result has exactly the fields `verdict` and `proceed`).
2. It cannot judge the screen's quality. A screen that always answers
   `flagged=False` yields nothing but passes. Show it firing on a known-bad
   input before relying on its silence.
3. The summary trusts the log. Rows never written (an unscreened action nobody
   recorded) are invisible, and a log mixing windows or modes is summed as
   given. Record a row for every attempted decision.

Lineage
-------
The screen vocabulary with an explicit "unscreened" answer follows the
security screen in yc-software/qm, whose choice to make "the screener never ran"
its own verdict instead of defaulting it to allow is the point worth copying.
Shipping a gate in shadow before enforcing it is standard dark-launch practice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

__all__ = [
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

VERDICTS: tuple[str, ...] = ("allow", "block", "shadow_allow", "would_block", "unscreened")
PASS_VERDICTS: tuple[str, ...] = ("allow", "shadow_allow")
MODES: tuple[str, ...] = ("shadow", "enforce")

_FIELDS = ("mode", "ran", "flagged", "unscreened_proceeds")
_ABSENT = object()  # a field that is missing or whose read raised
_NOT_ROWS = (str, bytes, bytearray, memoryview)


class ScreenInput(NamedTuple):
    """One screen outcome: the mode, whether the screen ran, and what it said."""

    mode: str
    ran: bool = False
    flagged: bool | None = None
    unscreened_proceeds: bool = False


class ScreenDecision(NamedTuple):
    """The verdict (one of VERDICTS) and whether the action proceeds."""

    verdict: str
    proceed: bool


class ScreenSummary(NamedTuple):
    """Evidence from a window of logged verdicts; it makes no promotion decision."""

    total: int
    counts: dict[str, int]
    unrecognized: int
    passes: int
    pass_rate: float | None
    unscreened_rate: float | None
    would_block_rows: tuple[object, ...]


def _screen_exact_str(value: object) -> str | None:
    """An exact copy of `value` when it is a `str` (or subclass), else None."""
    if not issubclass(type(value), str):
        return None
    return str.__str__(value)


def _screen_is_mapping(value: object) -> bool:
    try:  # by the real type: a spoofed or raising `__class__` is never consulted
        return issubclass(type(value), Mapping)
    except Exception:  # an odd metaclass; treat as not a mapping
        return False


def _screen_field(screen: object, name: str, mapping: bool) -> object:
    """One read of one field: `screen[name]` for a mapping, an attribute otherwise;
    `_ABSENT` when it is missing or the read raises."""
    try:
        if mapping:
            return screen[name]  # type: ignore[index]
        return getattr(screen, name)
    except Exception:
        return _ABSENT


def screen_decision(
    screen: ScreenInput | Mapping[str, object] | object | None,
) -> ScreenDecision:
    """The verdict for one screen outcome, and whether the action proceeds. Never raises.

    `screen` is a ScreenInput, any Mapping, any object with the four attributes, or
    None; each field is read once, a missing or raising read is absent."""
    mapping = _screen_is_mapping(screen)  # None, a number, a string: every field absent
    mode, ran, flagged, proceeds = (_screen_field(screen, n, mapping) for n in _FIELDS)
    shadow = _screen_exact_str(mode) == "shadow"
    if ran is True and type(flagged) is bool:
        if shadow:
            return ScreenDecision("would_block" if flagged else "shadow_allow", True)
        return ScreenDecision("block", False) if flagged else ScreenDecision("allow", True)
    return ScreenDecision("unscreened", shadow or proceeds is True)


def is_pass(verdict: object) -> bool:
    """True only for the verdicts "allow" and "shadow_allow" (exact strings)."""
    return _screen_exact_str(verdict) in PASS_VERDICTS


def _screen_row_verdict(row: object) -> str | None:
    """The row's verdict when it is one of VERDICTS; None when unrecognized."""
    verdict = _screen_exact_str(row)
    if verdict is None:
        verdict = _screen_exact_str(_screen_field(row, "verdict", _screen_is_mapping(row)))
    return verdict if verdict in VERDICTS else None


def _screen_summary(
    total: int, counts: dict[str, int], unrecognized: int, would_block_rows: tuple[object, ...]
) -> ScreenSummary:
    passes = counts["allow"] + counts["shadow_allow"]
    if total == 0:
        return ScreenSummary(0, counts, unrecognized, passes, None, None, would_block_rows)
    return ScreenSummary(
        total,
        counts,
        unrecognized,
        passes,
        passes / total,
        counts["unscreened"] / total,
        would_block_rows,
    )


def summarize_screen_log(rows: Iterable[object]) -> ScreenSummary:
    """Counts, rates and would_block rows for a window of logged verdicts. Never raises.

    Each row is a verdict string, a Mapping with a "verdict" key or an object with a
    `verdict` attribute. The rates divide by every row read; both are None when no
    row was read. Input that is not a collection of rows, or whose iteration raises,
    gives the empty summary."""
    empty = {verdict: 0 for verdict in VERDICTS}
    if rows is None or issubclass(type(rows), _NOT_ROWS) or _screen_is_mapping(rows):
        return _screen_summary(0, empty, 0, ())
    counts = dict(empty)
    total = unrecognized = 0
    would_block: list[object] = []
    try:
        for row in rows:
            total += 1
            verdict = _screen_row_verdict(row)
            if verdict is None:
                unrecognized += 1
                continue
            counts[verdict] += 1
            if verdict == "would_block":
                would_block.append(row)
    except Exception:  # partial evidence reported as complete would be a wrong finding
        return _screen_summary(0, empty, 0, ())
    return _screen_summary(total, counts, unrecognized, tuple(would_block))


def _self_check() -> None:
    if not __debug__:
        raise SystemExit(
            "shadow_screen self-check needs assertions; run it without -O or PYTHONOPTIMIZE"
        )
    assert VERDICTS == ("allow", "block", "shadow_allow", "would_block", "unscreened")
    assert PASS_VERDICTS == ("allow", "shadow_allow")
    assert MODES == ("shadow", "enforce")
    table: list[tuple[object, tuple[str, bool]]] = [
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
        ("shadow", ("unscreened", False)),
    ]
    for screen, expected in table:
        assert screen_decision(screen) == expected, (screen, expected)

    class FlipFlop:
        mode, ran, unscreened_proceeds, reads = "enforce", True, False, 0

        @property
        def flagged(self) -> bool:
            self.reads += 1
            return self.reads == 1

    flip = FlipFlop()
    assert screen_decision(flip) == ("block", False) and flip.reads == 1
    assert (is_pass("shadow_allow"), is_pass("allow")) == (True, True)
    assert not any(is_pass(v) for v in ("unscreened", "would_block", "block", "ALLOW", None))
    assert not is_pass(ScreenDecision("allow", True))
    mixed = summarize_screen_log(["shadow_allow"] * 7 + ["unscreened"] * 3)
    assert (mixed.total, mixed.passes) == (10, 7)
    assert abs((mixed.pass_rate or 0) - 0.7) < 1e-12
    assert abs((mixed.unscreened_rate or 0) - 0.3) < 1e-12
    assert summarize_screen_log(["unscreened"] * 3 + ["would_block"] * 3).pass_rate == 0.0
    empty = summarize_screen_log([])
    assert (empty.total, empty.pass_rate, empty.unscreened_rate) == (0, None, None)
    assert list(empty.counts) == list(VERDICTS) and set(empty.counts.values()) == {0}
    row = {"verdict": "would_block", "id": 2}
    assert summarize_screen_log([row, "allow"]).would_block_rows[0] is row
    odd = summarize_screen_log(["allow", "ALLOW", None])
    assert (odd.total, odd.unrecognized, odd.passes) == (3, 2, 1)
    assert summarize_screen_log({"verdict": "allow"}) == empty

    def broken() -> Iterable[str]:
        yield "allow"
        raise OSError("truncated")

    assert summarize_screen_log(broken()) == empty
    # the documented limits, pinned
    assert ScreenDecision._fields == ("verdict", "proceed")  # 1: classifies only
    silent = [screen_decision(ScreenInput("shadow", True, False)).verdict] * 5
    assert summarize_screen_log(silent).pass_rate == 1.0  # 2: cannot judge quality
    assert summarize_screen_log(["allow"]).pass_rate == 1.0  # 3: trusts the log
    print("shadow_screen self-check: all assertions passed")


if __name__ == "__main__":
    _self_check()
