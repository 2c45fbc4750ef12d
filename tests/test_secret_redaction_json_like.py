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
        assert (rule.pattern != "") != (rule.finder is not None), rule.name
        assert rule.anchors or rule.probes or rule.gate, rule.name
        assert rule.boundary in ("both", "storage")
        assert rule.gate in ("", "b64-run", "at-sign", "entropy-run", "always")
        for anchor in rule.anchors:
            if anchor.run_at is not None:
                assert 0 <= anchor.run_at <= 64, rule.name


def test_gates_are_derived_from_records() -> None:
    literals = {a.literal for rule in sr._RULES for a in rule.anchors}
    assert literals == sr._LITERALS
    assert sr._SHORT_LITERALS | sr._LONG_LITERALS | set(sr._B64_RUN_LITERALS) == literals
    for rule, compiled in zip(sr._RULES, sr._COMPILED, strict=True):
        assert rule.name == compiled.name
        for anchor in rule.anchors:
            assert sr._COMPILED.index(compiled) in sr._GATED_BY[anchor.literal]


def test_overlapping_literals_at_one_stop_are_all_seen() -> None:
    # Two literals filed under the same rarest character at one position: both register.
    stops = sr._STOPS_SHORT
    shared = [c for c, found in stops.items() if len(found) > 1]
    assert shared  # the table has such characters, so the check below is exercised
    for c in shared:
        for stop in stops[c]:
            if stop.probe is None:
                assert stop.literal[stop.before] == c
