"""Tests for `redact_json_like` and for the rule records the module derives its gates from."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from agentops import secret_redaction as sr
from agentops.secret_redaction import NONCONVERGENT_TOKEN, redact_json_like, redact_secret_shapes

AWS = "AKIA" + "IOSFODNN7EXAMPLE"
SLACK = "xox" + "b-123456789012-abcdefghijklmnop"


def test_strings_at_every_level_are_redacted() -> None:
    value = {"a": [AWS, 1, None, True, 2.5, (AWS, "ok")], "b": {"c": SLACK}}
    assert redact_json_like(value) == {
        "a": ["[redacted:aws-key]", 1, None, True, 2.5, ("[redacted:aws-key]", "ok")],
        "b": {"c": "[redacted:slack-token]"},
    }
    assert value["a"][0] == AWS  # the input is not modified


def test_shape_and_types_are_kept() -> None:
    out = redact_json_like([(1, 2), {"k": []}, "x"])
    assert out == [(1, 2), {"k": []}, "x"]
    assert type(out[0]) is tuple and type(out[1]) is dict and type(out[1]["k"]) is list


def test_top_level_scalars() -> None:
    assert redact_json_like(AWS) == "[redacted:aws-key]"
    assert redact_json_like(7) == 7
    assert redact_json_like(None) is None
    raw = AWS.encode()
    assert redact_json_like(raw) is raw  # bytes pass unread (a documented limit)
    assert redact_json_like({AWS}) == {AWS}  # so do sets


def test_keys_are_redacted_and_collisions_keep_both_values() -> None:
    out = redact_json_like({AWS: 1, "[redacted:aws-key]": 2, "ASIA" + AWS[4:]: 3, 5: AWS})
    assert out == {
        "[redacted:aws-key]": 1,
        "[redacted:aws-key]#2": 2,
        "[redacted:aws-key]#3": 3,
        5: "[redacted:aws-key]",
    }


def test_deep_nesting_does_not_raise() -> None:
    deep: object = AWS
    for _ in range(50_000):
        deep = [deep]
    out = redact_json_like(deep)
    for _ in range(50_000):
        assert isinstance(out, list) and len(out) == 1
        out = out[0]
    assert out == "[redacted:aws-key]"
    nested: dict[str, object] = {"v": AWS}
    for _ in range(20_000):
        nested = {"k": nested}
    walk = redact_json_like(nested)
    for _ in range(20_000):
        walk = walk["k"]
    assert walk == {"v": "[redacted:aws-key]"}


def test_shared_and_cyclic_containers() -> None:
    shared = [AWS]
    out = redact_json_like({"a": shared, "b": shared})
    assert out["a"] is out["b"] and out["a"] == ["[redacted:aws-key]"]
    loop: list[object] = [AWS]
    loop.append(loop)
    copy = redact_json_like(loop)
    assert copy[0] == "[redacted:aws-key]" and copy[1] is copy
    through_tuple: tuple[list[object]] = ([],)
    through_tuple[0].append(through_tuple)
    assert redact_json_like(through_tuple) == ([NONCONVERGENT_TOKEN],)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=30) | st.just(AWS),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)


@given(json_values)
def test_matches_redacting_each_string(value: object) -> None:
    def expect(v: object) -> object:
        if isinstance(v, str):
            return redact_secret_shapes(v).text
        if isinstance(v, list):
            return [expect(x) for x in v]
        if isinstance(v, dict):
            return {expect(k): expect(x) for k, x in v.items()}
        return v

    out = redact_json_like(value)
    json.dumps(out)  # still serialisable
    if not isinstance(value, dict) or len({redact_secret_shapes(k).text for k in value}) == len(
        value
    ):
        assert out == expect(value)


# ------------------------------------------------------------------------------------------
# One record per rule: every gate and index comes from the records
# ------------------------------------------------------------------------------------------


def test_vendor_region_is_fenced_once() -> None:
    source = Path(sr.__file__).read_text(encoding="utf-8")
    begin = "    # --- vendor token rules: begin ---\n"
    end = "    # --- vendor token rules: end ---\n"
    assert source.count(begin) == 1 and source.count(end) == 1
    region = source[source.index(begin) : source.index(end)]
    names = re.findall(r'_ShapeRule\(\n\s+"([a-z0-9-]+)"', region)
    assert names == [rule.name for rule in sr._VENDOR_RULES]


def test_every_rule_has_a_way_to_run() -> None:
    for rule in sr._RULES:
        assert rule.name and rule.description
        ways = (rule.pattern != "", rule.finder is not None, rule.literal_finder is not None)
        assert sum(ways) == 1, rule.name
        assert rule.anchors or rule.probes or rule.gate, rule.name
        assert rule.boundary in ("both", "storage")
        assert rule.gate in ("", "b64-run", "wide-run", "at-sign", "entropy-run", "always")
        assert rule.gate != "wide-run" or rule.finder is not None, rule.name
        for anchor in rule.anchors:
            if anchor.run_at is not None:
                assert 0 <= anchor.run_at <= 64, rule.name


def test_gates_are_derived_from_records() -> None:
    literals = {a.literal for rule in sr._RULES for a in rule.anchors}
    assert literals == sr._LITERALS
    url = {lit for lit, _ in sr._URL_RUN_LITERALS}
    wide = set(sr._WIDE_RUN_LITERALS)
    words = set(sr._KEY_WORD_LITERALS)
    gated = sr._LONG_LITERALS | set(sr._B64_RUN_LITERALS) | url | wide | words
    assert not sr._SHORT_LITERALS & words
    assert {w for forms in sr._KEY_WORD_SPELLINGS.values() for w in forms} == words
    assert sr._SHORT_LITERALS | gated == literals
    assert not sr._SHORT_LITERALS & wide
    wide_rules = {key for key, _ in sr._WIDE_RUN_FINDERS}
    assert wide_rules == {sr._probe_key(r.name) for r in sr._RULES if r.gate == "wide-run"}
    for rule, compiled in zip(sr._RULES, sr._COMPILED, strict=True):
        assert rule.name == compiled.name
        for anchor in rule.anchors:
            assert sr._COMPILED.index(compiled) in sr._GATED_BY[anchor.literal]


def _overlaid(first: sr._Stop, later: sr._Stop) -> str:
    """A text in which both literals sit on one stop character."""
    at = max(first.before, later.before)
    tail = max(len(first.literal) - first.before, len(later.literal) - later.before)
    chars = [" "] * (at + tail)
    for stop in (first, later):
        chars[at - stop.before : at - stop.before + len(stop.literal)] = stop.literal
    return "x " + "".join(chars) + " y"


def test_every_prefilter_group_names_one_branch() -> None:
    # `lastindex` names the branch that held: a capturing group inside a probe or a literal
    # would shift the numbers, so the pattern holds exactly one group per branch
    for prefilter in (sr._PREFILTER_SHORT, sr._PREFILTER_LONG):
        assert prefilter.pattern.groups == len(prefilter.stops) - 1
        assert prefilter.stops[0].key == ""  # group 0 is the whole match, never a branch


def test_literals_that_share_a_stop_are_all_seen() -> None:
    # The engine names only the first branch that holds at a stop; every other literal or
    # probe that holds there too must register as well.
    prefilter = sr._PREFILTER_SHORT
    pairs = [(s, o) for s in prefilter.stops for o in s.also if s.probe is o.probe is None]
    assert pairs  # the table has such pairs, so the check below is exercised
    for first, later in pairs:
        text = _overlaid(first, later)
        assert {first.key, later.key} <= sr._prefilter_keys(text, prefilter), text
    # literals that cannot share a position are not checked again
    for stop in prefilter.stops:
        for other in stop.also:
            if stop.probe is other.probe is None:
                assert other.literal not in stop.literal


def test_base64_gated_literals_that_share_a_stop_add_no_stop_character() -> None:
    # an UPPER vendor word joins the prefilter only at a character it stops at anyway
    assert sr._SHARED_STOP_LITERALS  # such words exist, so the check is exercised
    alone = sr._build_prefilter(sr._SHORT_LITERALS, True)

    def characters(prefilter: sr._Prefilter) -> set[str]:
        return {stop.literal[stop.before] for stop in prefilter.stops if stop.literal}

    assert characters(sr._PREFILTER_SHORT) == characters(alone)
    on_run_lines = {lit for spellings in sr._B64_BY_LOWER.values() for lit, _ in spellings}
    for lit in sr._SHARED_STOP_LITERALS:
        assert lit not in on_run_lines, lit
        assert lit in sr._prefilter_keys(f"x {lit} y", sr._PREFILTER_SHORT)


_PROBES = {s.key: s.probe for s in sr._PREFILTER_SHORT.stops if s.probe is not None}
_PIECES = sorted(sr._SHORT_LITERALS) + [lit[: len(lit) // 2] for lit in sr._SHORT_LITERALS]


@given(st.lists(st.sampled_from([*_PIECES, " ", "a", ".", "M" + "a" * 23 + ".", "authoriz"])))
def test_the_prefilter_finds_exactly_the_literals_that_occur(pieces: list[str]) -> None:
    # the truth is `in` for each literal and a search for each probe (a literal inside a
    # found one is present with it: the scan adds it)
    text = "".join(pieces)
    truth = {lit for lit in sr._SHORT_LITERALS if lit in text}
    truth |= {key for key, probe in _PROBES.items() if probe is not None and probe.search(text)}
    found = sr._prefilter_keys(text, sr._PREFILTER_SHORT)
    assert found <= truth
    inside = {lit for key in found for lit in sr._CONTAINED.get(key, {key})}
    assert inside & (sr._SHORT_LITERALS | _PROBES.keys()) == truth


def test_every_short_literal_is_found_behind_the_look_behind_of_its_stop() -> None:
    # literals holding a character before their stop share one look-behind on it: it must
    # let each of them through, and a run of stop characters alone finds nothing
    assert "(?<=[" in sr._PREFILTER_SHORT.pattern.pattern  # such a look-behind exists
    for lit in sr._SHORT_LITERALS | sr._SHARED_STOP_LITERALS:
        assert lit in sr._prefilter_keys(f"( {lit} )", sr._PREFILTER_SHORT), lit
    assert sr._prefilter_keys("-" * 200 + "." * 200, sr._PREFILTER_SHORT) == set()


_WORDS = sorted(sr._KEY_WORD_SPELLINGS)
_WORD_PIECES = _WORDS + [word[: len(word) // 2] for word in _WORDS] + [" ", "_", "=", "x"]


@given(st.lists(st.sampled_from(_WORD_PIECES)))
def test_the_vendor_word_prefilter_finds_exactly_the_words_that_occur(pieces: list[str]) -> None:
    # the truth is `in` for each lower-cased vendor word (none holds another)
    text = "".join(pieces)
    truth = {word for word in _WORDS if word in text}
    assert sr._prefilter_keys(text, sr._PREFILTER_KEY_WORDS) == truth
    assert not [(a, b) for a in _WORDS for b in _WORDS if a != b and a in b]
