"""Tests for agentops.loop_guard: contract, acceptance examples, limits, properties."""

from __future__ import annotations

import json
import math
import types
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentops import loop_guard as lg
from agentops.loop_guard import (
    BUDGET,
    CACHED,
    RUN,
    STUB,
    GuardConfig,
    TurnState,
    Verdict,
    check,
    load_state,
    new_turn,
    normalize_query,
    similarity,
)

SPEC_STOPWORDS = """a an the and or but if then so of in on at to for from by with about into
   onto as is are was were be been being am do does did how what which who whom
   where when why i me my we our you your it its this that these those there
   here can could should would will shall may might must please some any""".split()  # noqa: SIM905


def run_seq(calls: list[Any], state: Any = None, **kw: Any) -> list[Verdict]:
    """Run a sequence of (tool, arguments[, query]) through check, threading the state."""
    st_ = new_turn() if state is None else state
    out = []
    for call in calls:
        tool, args = call[0], call[1]
        extra = dict(kw)
        if len(call) > 2:
            extra["query"] = call[2]
        v = check(st_, tool, args, **extra)
        out.append(v)
        st_ = v.state
    return out


def actions(vs: list[Verdict]) -> list[str]:
    return [v.action for v in vs]


def rag(q: str) -> tuple[str, dict[str, str]]:
    return ("rag_lookup", {"q": q})


# --------------------------------------------------------------------------- constants


def test_constants_exact() -> None:
    assert (RUN, CACHED, STUB, BUDGET) == ("RUN", "CACHED", "STUB", "BUDGET")
    assert lg.MAX_IDENTICAL_CALLS == 4
    assert lg.MAX_LIVE_PER_TURN == 12
    assert lg.MAX_LIVE_PER_QUERY == 2
    assert lg.THRESHOLD == 0.8
    assert frozenset({"rag_lookup"}) == lg.DEFAULT_BUDGET_TOOLS
    assert isinstance(lg.DEFAULT_BUDGET_TOOLS, frozenset)
    assert lg.MAX_QUERY_CHARS == 1000
    assert frozenset(SPEC_STOPWORDS) == lg.STOPWORDS
    assert isinstance(lg.STOPWORDS, frozenset)
    for kept in ("not", "no", "without", "all"):
        assert kept not in lg.STOPWORDS


def test_messages_exact() -> None:
    assert lg.STUB_TEMPLATE == (
        "[skipped, not run: identical call #{count} this turn; the same arguments give the "
        "same result, so work with what you already have]"
    )
    assert lg.CACHE_NOTE == (
        "[answered from this turn's cache: this question, or a close rewording of it, "
        "already ran live {live} times]"
    )
    assert lg.BUDGET_TEMPLATE == (
        "[lookup budget used up: {live} live {tool} calls this turn] Further lookups are "
        "refused for the rest of this turn however they are phrased, and each attempt gets "
        "this same reply. Finish now: write the answer from the material already gathered. "
        "Where something is still unknown, say the search budget was used up; do NOT say the "
        "knowledge base lacks it, because an exhausted budget tells you nothing about what "
        "the documentation holds."
    )


def test_budget_message_forbids_blaming_the_knowledge_base() -> None:
    msg = lg.BUDGET_TEMPLATE.format(live=12, tool="rag_lookup")
    assert msg.startswith("[lookup budget used up: 12 live rag_lookup calls this turn]")
    assert "do NOT say the knowledge base lacks it" in msg
    assert "however they are phrased" in msg
    assert "say the search budget was used up" in msg


def test_public_api_and_shapes() -> None:
    assert set(lg.__all__) == {
        "RUN",
        "CACHED",
        "STUB",
        "BUDGET",
        "MAX_IDENTICAL_CALLS",
        "MAX_LIVE_PER_TURN",
        "MAX_LIVE_PER_QUERY",
        "THRESHOLD",
        "DEFAULT_BUDGET_TOOLS",
        "MAX_QUERY_CHARS",
        "STOPWORDS",
        "STUB_TEMPLATE",
        "CACHE_NOTE",
        "BUDGET_TEMPLATE",
        "GuardConfig",
        "TurnState",
        "Verdict",
        "new_turn",
        "load_state",
        "check",
        "normalize_query",
        "similarity",
    }
    for name in lg.__all__:
        assert hasattr(lg, name)
    assert GuardConfig() == (4, 12, 2, 0.8, frozenset({"rag_lookup"}))
    assert GuardConfig._fields == (
        "max_identical_calls",
        "max_live_per_turn",
        "max_live_per_query",
        "threshold",
        "budget_tools",
    )
    assert TurnState._fields == ("calls", "live", "queries")
    assert TurnState() == ((), (), ())
    assert new_turn() == TurnState() == ((), (), ())
    assert isinstance(new_turn(), TurnState)
    assert Verdict._fields == (
        "action",
        "message",
        "count",
        "live",
        "query_key",
        "matched_key",
        "score",
        "stuck",
        "state",
    )


# --------------------------------------------------------------------------- normalize_query


@pytest.mark.parametrize(
    "text,key",
    [
        # acceptance / calibration keys
        ("how do I create tables", "creat tabl"),
        ("create a table", "creat tabl"),
        ("creating the table", "creat tabl"),
        ("set table cell padding", "cell pad set tabl"),
        ("set layout table cell padding", "cell layout pad set tabl"),
        ("how to set the table border colour", "border colour set tabl"),
        ("set table border color", "border color set tabl"),
        ("create a table with borders", "border creat tabl"),
        ("create a box with borders", "border box creat"),
        ("create table", "creat tabl"),
        ("create box", "box creat"),
        ("splitting tables", "split tabl"),
        # create family agrees
        ("creates", "creat"),
        ("created", "creat"),
        ("create", "creat"),
        ("creating", "creat"),
        # lower-casing, token rules
        ("CREATE Table", "creat tabl"),
        ("create_table", "creat tabl"),
        ("foo-bar", "bar foo"),
        ("error 404", "404 error"),
        ("utf8 h2", "h2 utf8"),
        ("café crème", "café crème"),
        # stopwords dropped, meaning words kept
        ("not all without no", "all no not without"),
        ("please show me some of the any logs", "log show"),
        # step 6: only stopwords -> unstemmed sorted unique tokens
        ("how do I", "do how i"),
        ("the the", "the"),
        ("Is it?", "is it"),
        # step 4a: ies / ied when longer than 4
        ("queries", "query"),
        ("copied", "copy"),
        ("flies", "fly"),
        ("cried", "cry"),
        ("studies", "study"),
        ("carries", "carry"),
        ("ties", "tie"),
        ("died", "died"),
        # step 4b: ing
        ("sing", "sing"),
        ("string", "string"),
        ("sawing", "saw"),
        ("tying", "tying"),
        ("xyzing", "xyz"),
        ("bcding", "bcding"),
        # step 4b: ed
        ("shed", "shed"),
        ("bred", "bred"),
        ("freed", "fre"),
        ("called", "call"),
        # step 4b: es
        ("boxes", "box"),
        ("yes", "yes"),
        ("uses", "use"),
        ("byes", "bye"),
        # step 4b: s and its exceptions
        ("cats", "cat"),
        ("class", "class"),
        ("status", "status"),
        ("axis", "axis"),
        ("gas", "gas"),
        ("settings", "setting"),
        ("bus", "bus"),
        # step 4c: doubled consonants, except l s z
        ("padding", "pad"),
        ("splitt", "split"),
        ("egg", "eg"),
        ("eggs", "eg"),
        ("ff", "ff"),
        ("call", "call"),
        ("pass", "pass"),
        ("passed", "pass"),
        ("buzz", "buzz"),
        ("buzzed", "buzz"),
        ("zoo", "zoo"),
        ("heyy", "heyy"),
        # step 4d: trailing e when longer than 3
        ("use", "use"),
        ("axe", "axe"),
        ("make", "mak"),
        ("free", "fre"),
        ("cache", "cach"),
        ("caches", "cach"),
        # dedup and sort
        ("table tables tabled", "tabl"),
        ("zebra apple", "appl zebra"),
        ("b  c\ta", "b c"),
        ("", ""),
        ("   ", ""),
        ("?!", ""),
    ],
)
def test_normalize_query_examples(text: str, key: str) -> None:
    assert normalize_query(text) == key


@pytest.mark.parametrize("bad", [None, 5, 3.5, b"create table", ["create"], object()])
def test_normalize_query_non_str(bad: object) -> None:
    assert normalize_query(bad) == ""


def test_normalize_query_str_subclass() -> None:
    class S(str):
        pass

    out = normalize_query(S("Create Tables"))
    assert out == "creat tabl"
    assert type(out) is str


def test_normalize_query_first_max_chars_only() -> None:
    assert normalize_query("z" * 996 + " abc" + "d") == "abc " + "z" * 996
    assert normalize_query("z" * 995 + " abcd") == "abcd " + "z" * 995
    assert normalize_query("z" * 996 + " abcd yyy") == "abc " + "z" * 996
    assert normalize_query("z" * 1000 + "Y") == "z" * 1000


# --------------------------------------------------------------------------- similarity


@pytest.mark.parametrize(
    "a,b,ratio,same",
    [
        ("how do I create tables", "create a table", 1.0, True),
        ("set table cell padding", "set layout table cell padding", 0.829, True),
        ("how to set the table border colour", "set table border color", 0.977, True),
        ("create a table with borders", "create a box with borders", 0.727, False),
        ("create table", "create box", 0.526, False),
    ],
)
def test_calibration_pairs(a: str, b: str, ratio: float, same: bool) -> None:
    got = similarity(a, b)
    assert got == pytest.approx(ratio, abs=0.0005)
    assert (got >= lg.THRESHOLD) is same
    assert similarity(b, a) == pytest.approx(got, abs=0.02)


def test_calibration_pairs_in_the_guard() -> None:
    for a, b, same in [
        ("set table cell padding", "set layout table cell padding", True),
        ("how to set the table border colour", "set table border color", True),
        ("create a table with borders", "create a box with borders", False),
        ("create table", "create box", False),
    ]:
        v1 = check(new_turn(), "rag_lookup", query=a)
        v2 = check(v1.state, "rag_lookup", query=b)
        assert v2.action == RUN
        if same:
            assert v2.matched_key == normalize_query(a)
            assert v2.score == pytest.approx(similarity(a, b))
            assert len(v2.state.queries) == 1
            assert v2.state.queries[0][2] == 2
        else:
            assert v2.matched_key == ""
            assert v2.score == 0.0
            assert len(v2.state.queries) == 2


def test_long_keys_are_compared_without_autojunk() -> None:
    consonants = "bcdfghjk"
    tokens = [a + b + c for a in consonants for b in consonants for c in consonants if b != c]
    query = " ".join(tokens[:80])
    assert normalize_query(query) == query and len(query) > 200
    longer = "aaa " + query
    assert similarity(query, longer) > 0.99
    assert similarity(longer, query) > 0.99
    v = check(check(new_turn(), "rag_lookup", query=query).state, "rag_lookup", query=longer)
    assert v.matched_key == query and v.score > 0.99


def test_similarity_edges() -> None:
    assert similarity("", "") == 1.0
    assert similarity("the", "the") == 1.0
    assert similarity("", "create table") == 0.0
    assert similarity("create table", "") == 0.0
    assert similarity("the", "") == 0.0
    assert similarity(None, "create") == 0.0
    assert similarity("create", 42) == 0.0
    assert similarity(None, None) == 1.0
    assert similarity("Create TABLES", "tables, created") == 1.0
    assert isinstance(similarity("ab", "ac"), float)


# --------------------------------------------------------------------------- acceptance


def test_acceptance_same_arguments_five_times() -> None:
    vs = run_seq([rag("create a table")] * 5)
    assert actions(vs) == [RUN, RUN, CACHED, CACHED, STUB]
    assert [v.count for v in vs] == [1, 2, 3, 4, 5]
    assert vs[4].stuck is True
    assert [v.stuck for v in vs[:4]] == [False] * 4
    assert vs[4].message == lg.STUB_TEMPLATE.format(count=5)
    assert vs[2].message == lg.CACHE_NOTE.format(live=2)
    assert [v.live for v in vs] == [1, 2, 2, 2, 2]


def test_acceptance_rewordings() -> None:
    vs = run_seq(
        [
            ("rag_lookup", "", "create a table"),
            ("rag_lookup", "", "how do I create tables"),
            ("rag_lookup", "", "creating the table"),
        ]
    )
    assert actions(vs) == [RUN, RUN, CACHED]
    assert vs[2].matched_key == "creat tabl"
    assert vs[2].query_key == "creat tabl"
    assert vs[2].score == 1.0
    assert vs[0].matched_key == "" and vs[0].score == 0.0
    assert vs[1].matched_key == "creat tabl" and vs[1].score == 1.0
    assert (
        vs[2].message == "[answered from this turn's cache: this question, or a close "
        "rewording of it, already ran live 2 times]"
    )


TOPICS = [
    "alpha widget",
    "bravo gadget",
    "charlie sprocket",
    "delta flange",
    "echo gasket",
    "foxtrot bearing",
    "golf spindle",
    "hotel valve",
    "india piston",
    "juliet rotor",
    "kilo bracket",
    "lima hinge",
    "mike lever",
]


def topic(t: str) -> tuple[str, dict[str, str], str]:
    return ("rag_lookup", {"q": t}, t)


def test_topics_are_distinct() -> None:
    keys = [normalize_query(t) for t in TOPICS]
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            assert similarity(a, b) < lg.THRESHOLD


def test_acceptance_budget_then_rewording() -> None:
    vs = run_seq([topic(t) for t in TOPICS])
    assert actions(vs) == [RUN] * 12 + [BUDGET]
    assert [v.live for v in vs] == [*range(1, 13), 12]
    assert vs[12].message == lg.BUDGET_TEMPLATE.format(live=12, tool="rag_lookup")
    assert vs[12].stuck is False
    assert vs[12].matched_key == "" and vs[12].score == 0.0
    assert vs[12].query_key == "lever mik"
    assert vs[12].state == vs[11].state._replace(
        calls=(*vs[11].state.calls, ("rag_lookup", '{"q":"mike lever"}', 1))
    )
    # a rewording of topic 1 is served from the cache, not refused
    v = check(vs[12].state, "rag_lookup", query="alpha widgets")
    assert v.action == CACHED
    assert v.matched_key == "alpha widget"
    assert v.message == lg.CACHE_NOTE.format(live=1)
    assert v.live == 12
    # and a fresh topic is refused again, with the same reply
    v2 = check(v.state, "rag_lookup", query="november clamp")
    assert v2.action == BUDGET and v2.message == vs[12].message


def test_acceptance_cheap_tool_is_free() -> None:
    spent = run_seq([topic(t) for t in TOPICS])[-1].state
    vs = run_seq([("lookup_docs", {"q": f"topic {i}"}) for i in range(20)], state=spent)
    assert actions(vs) == [RUN] * 20
    for v in vs:
        assert v.live == 0 and v.query_key == "" and v.matched_key == "" and v.score == 0.0
        assert v.message == "" and v.stuck is False
    assert vs[-1].state.live == spent.live
    assert vs[-1].state.queries == spent.queries


def test_acceptance_cheap_tool_same_arguments() -> None:
    vs = run_seq([("lookup_docs", {"symbol": "createTable"})] * 5)
    assert actions(vs) == [RUN] * 4 + [STUB]
    assert vs[4].count == 5 and vs[4].stuck
    assert vs[4].live == 0


def test_acceptance_garbage() -> None:
    v = check("garbage", 42, object())  # type: ignore[arg-type]
    assert v.action == RUN and v.count == 0 and v.message == "" and not v.stuck
    assert v.state == new_turn()


def test_acceptance_canonical_json() -> None:
    v1 = check(new_turn(), "rag_lookup", {"q": "x", "k": 3})
    v2 = check(v1.state, "rag_lookup", {"k": 3, "q": "x"})
    assert v1.count == 1 and v2.count == 2
    assert v1.state.calls == (("rag_lookup", '{"k":3,"q":"x"}', 1),)


def test_acceptance_custom_budget_tools() -> None:
    cfg = GuardConfig(budget_tools=frozenset({"search"}))
    vs = run_seq([("search", "", "how to rotate logs")] * 3, config=cfg)
    assert actions(vs) == [RUN, RUN, CACHED]
    # and rag_lookup is no longer budgeted under that config
    vs2 = run_seq([rag("same")] * 3, config=cfg)
    assert actions(vs2) == [RUN, RUN, RUN]
    assert vs2[-1].live == 0


# --------------------------------------------------------------------------- check rules


def test_input_state_never_changed() -> None:
    s0 = new_turn()
    v1 = check(s0, "rag_lookup", "a b c")
    assert s0 == new_turn()
    snap = json.dumps(v1.state._asdict())
    check(v1.state, "rag_lookup", "a b c")
    check(v1.state, "other", "x")
    assert json.dumps(v1.state._asdict()) == snap


def test_non_str_tool_is_run_with_state_unchanged() -> None:
    s = run_seq([rag("alpha")])[-1].state
    for bad in (None, 42, b"rag_lookup", ["rag_lookup"]):
        v = check(s, bad, {"q": "alpha"})  # type: ignore[arg-type]
        assert v == Verdict(RUN, "", 0, 0, "", "", 0.0, False, s)


def test_arguments_keys() -> None:
    v = check(new_turn(), "t", None)
    assert v.state.calls == (("t", "", 1),)
    v = check(v.state, "t", "")
    assert v.count == 2
    v = check(v.state, "t")
    assert v.count == 3
    v = check(new_turn(), "t", ["a", 1])
    assert v.state.calls == (("t", '["a",1]', 1),)
    v = check(v.state, "t", ("a", 1))
    assert v.count == 2
    v = check(new_turn(), "t", {"q": "é"})
    assert v.state.calls == (("t", '{"q":"é"}', 1),)
    v = check(new_turn(), "t", types.MappingProxyType({"b": 1, "a": 2}))
    assert v.state.calls == (("t", '{"a":2,"b":1}', 1),)
    v = check(new_turn(), "t", "raw text  as is")
    assert v.state.calls == (("t", "raw text  as is", 1),)


@pytest.mark.parametrize(
    "bad", [object(), 5, 2.5, b"bytes", {1, 2}, {"k": object()}, {1: "a", "b": 2}]
)
def test_unreadable_arguments_skip_identical_counting(bad: object) -> None:
    s = new_turn()
    for _ in range(7):
        v = check(s, "lookup_docs", bad)
        assert v.action == RUN and v.count == 0 and not v.stuck
        s = v.state
    assert s == new_turn()


def test_circular_arguments_are_unreadable() -> None:
    loop: list[Any] = []
    loop.append(loop)
    v = check(new_turn(), "lookup_docs", loop)
    assert v.action == RUN and v.count == 0 and v.state == new_turn()


def test_unreadable_arguments_still_budgeted() -> None:
    vs = run_seq([("rag_lookup", object())] * 3)
    assert actions(vs) == [RUN, RUN, CACHED]
    assert [v.count for v in vs] == [0, 0, 0]
    assert vs[0].query_key == ""
    assert vs[2].matched_key == ""
    assert vs[2].score == 1.0
    assert vs[2].state.queries == (("rag_lookup", "", 2),)


def test_query_text_choice() -> None:
    v = check(new_turn(), "rag_lookup", {"q": "zzz"}, query="Create Tables")
    assert v.query_key == "creat tabl"
    v = check(new_turn(), "rag_lookup", "Create Tables", query=None)
    assert v.query_key == "creat tabl"
    v = check(new_turn(), "rag_lookup", "Create Tables", query=42)  # type: ignore[arg-type]
    assert v.query_key == "creat tabl"
    v = check(new_turn(), "rag_lookup", {"q": "create tables"})
    assert v.query_key == "creat q tabl"
    v = check(new_turn(), "rag_lookup", 3.5)
    assert v.query_key == ""


def test_stub_also_for_cached_and_budget_denied_calls() -> None:
    cfg = GuardConfig(max_live_per_turn=1)
    s = run_seq([rag("first topic")], config=cfg)[-1].state
    vs = run_seq([rag("other subject")] * 6, state=s, config=cfg)
    assert actions(vs) == [BUDGET] * 4 + [STUB, STUB]
    assert [v.count for v in vs] == [1, 2, 3, 4, 5, 6]
    assert vs[4].message == lg.STUB_TEMPLATE.format(count=5)
    assert vs[5].message == lg.STUB_TEMPLATE.format(count=6)


def test_stub_changes_only_the_count() -> None:
    vs = run_seq([rag("create a table")] * 5)
    before, after = vs[3].state, vs[4].state
    assert after.live == before.live
    assert after.queries == before.queries
    assert before.calls == (("rag_lookup", '{"q":"create a table"}', 4),)
    assert after.calls == (("rag_lookup", '{"q":"create a table"}', 5),)
    stub = vs[4]
    assert stub.live == 2
    assert stub.query_key == normalize_query('{"q":"create a table"}')
    assert stub.matched_key == "" and stub.score == 0.0


def test_stub_for_non_budgeted_tool_fields() -> None:
    vs = run_seq([("ls", "x")] * 6)
    assert actions(vs) == [RUN] * 4 + [STUB, STUB]
    assert vs[5].live == 0 and vs[5].query_key == "" and vs[5].state.calls == (("ls", "x", 6),)


def test_calls_first_seen_order_and_per_tool() -> None:
    vs = run_seq([("a", "1"), ("b", "1"), ("a", "2"), ("a", "1"), ("b", "1")])
    assert vs[-1].state.calls == (("a", "1", 2), ("b", "1", 2), ("a", "2", 1))
    assert [v.count for v in vs] == [1, 1, 1, 2, 2]


def test_custom_identical_limit() -> None:
    cfg = GuardConfig(max_identical_calls=1)
    vs = run_seq([("ls", "x")] * 3, config=cfg)
    assert actions(vs) == [RUN, STUB, STUB]
    cfg = GuardConfig(max_identical_calls=2)
    vs = run_seq([("ls", "x")] * 3, config=cfg)
    assert actions(vs) == [RUN, RUN, STUB]


def test_per_query_limit_boundary() -> None:
    cfg = GuardConfig(max_live_per_query=3)
    vs = run_seq([("rag_lookup", "", "create table")] * 4, config=cfg)
    assert actions(vs) == [RUN, RUN, RUN, CACHED]
    assert vs[3].message == lg.CACHE_NOTE.format(live=3)
    cfg = GuardConfig(max_live_per_query=1)
    vs = run_seq([("rag_lookup", "", "create table")] * 2, config=cfg)
    assert actions(vs) == [RUN, CACHED]


def test_per_turn_budget_boundary() -> None:
    cfg = GuardConfig(max_live_per_turn=2)
    vs = run_seq([("rag_lookup", "", t) for t in TOPICS[:3]], config=cfg)
    assert actions(vs) == [RUN, RUN, BUDGET]
    assert vs[2].live == 2
    assert vs[2].message == lg.BUDGET_TEMPLATE.format(live=2, tool="rag_lookup")


def test_cache_preferred_to_budget_refusal() -> None:
    cfg = GuardConfig(max_live_per_turn=2)
    vs = run_seq(
        [
            ("rag_lookup", "", "alpha widget"),
            ("rag_lookup", "", "bravo gadget"),
            ("rag_lookup", "", "alpha widgets"),
        ],
        config=cfg,
    )
    assert actions(vs) == [RUN, RUN, CACHED]
    assert vs[2].message == lg.CACHE_NOTE.format(live=1)
    assert vs[2].matched_key == "alpha widget"
    assert vs[2].state.queries == vs[1].state.queries
    assert vs[2].state.live == (("rag_lookup", 2),)


def test_budget_is_per_tool() -> None:
    cfg = GuardConfig(max_live_per_turn=1, budget_tools=frozenset({"s1", "s2"}))
    vs = run_seq(
        [
            ("s1", "", "alpha"),
            ("s2", "", "bravo"),
            ("s1", "", "charlie"),
            ("s2", "", "delta"),
            ("s2", "", "alpha"),
        ],
        config=cfg,
    )
    assert actions(vs) == [RUN, RUN, BUDGET, BUDGET, BUDGET]
    assert vs[-1].state.live == (("s1", 1), ("s2", 1))
    assert vs[-1].state.queries == (("s1", "alpha", 1), ("s2", "bravo", 1))
    assert vs[3].message == lg.BUDGET_TEMPLATE.format(live=1, tool="s2")


def test_query_groups_are_per_tool() -> None:
    cfg = GuardConfig(budget_tools=frozenset({"s1", "s2"}))
    vs = run_seq([("s1", "", "alpha"), ("s1", "", "alpha"), ("s2", "", "alpha")], config=cfg)
    assert actions(vs) == [RUN, RUN, RUN]
    assert vs[2].matched_key == ""


def test_group_keeps_first_key_and_counts_rewordings() -> None:
    vs = run_seq(
        [
            ("rag_lookup", "", "set table cell padding"),
            ("rag_lookup", "", "set layout table cell padding"),
            ("rag_lookup", "", "set the table cell padding please"),
        ]
    )
    assert actions(vs) == [RUN, RUN, CACHED]
    assert vs[1].matched_key == "cell pad set tabl"
    assert vs[1].query_key == "cell layout pad set tabl"
    assert vs[1].score == pytest.approx(0.829, abs=0.0005)
    assert vs[1].live == 2
    assert vs[1].state.queries == (("rag_lookup", "cell pad set tabl", 2),)
    assert vs[1].state.live == (("rag_lookup", 2),)
    assert vs[2].matched_key == "cell pad set tabl" and vs[2].score == 1.0


def test_fuzzy_threshold_is_inclusive() -> None:
    from difflib import SequenceMatcher

    r = SequenceMatcher(None, "box creat", "creat tabl", autojunk=False).ratio()
    assert r == pytest.approx(0.526, abs=0.0005)
    at = GuardConfig(threshold=r)
    above = GuardConfig(threshold=math.nextafter(r, 1.0))
    s = check(new_turn(), "rag_lookup", query="create table").state
    v = check(s, "rag_lookup", query="create box", config=at)
    assert v.matched_key == "creat tabl" and v.score == r
    v = check(s, "rag_lookup", query="create box", config=above)
    assert v.matched_key == "" and v.score == 0.0


def test_fuzzy_picks_highest_then_earliest() -> None:
    exact_only = GuardConfig(threshold=1.0)
    s = new_turn()
    for q in ("abcdefgh x", "abcdefgh y", "abcdefgh zz"):
        s = check(s, "rag_lookup", query=q, config=exact_only).state
    assert [g[1] for g in s.queries] == ["abcdefgh x", "abcdefgh y", "abcdefgh zz"]
    v = check(s, "rag_lookup", query="abcdefgh w")
    assert v.matched_key == "abcdefgh x"  # tie between x and y: earliest
    v = check(s, "rag_lookup", query="abcdefgh zw")
    assert v.matched_key == "abcdefgh zz"  # the higher ratio wins over earlier groups
    assert v.score == pytest.approx(similarity("abcdefgh zw", "abcdefgh zz"))
    assert v.score > similarity("abcdefgh zw", "abcdefgh x")


def test_exact_key_beats_earlier_fuzzy_group() -> None:
    exact_only = GuardConfig(threshold=1.0)
    s = new_turn()
    for q in ("abcdefgh x", "abcdefgh"):
        s = check(s, "rag_lookup", query=q, config=exact_only).state
    v = check(s, "rag_lookup", query="abcdefgh")
    assert v.matched_key == "abcdefgh" and v.score == 1.0


def test_empty_keys_never_fuzzy_match() -> None:
    s = check(new_turn(), "rag_lookup", query="").state
    assert s.queries == (("rag_lookup", "", 1),)
    v = check(s, "rag_lookup", query="x")
    assert v.matched_key == "" and v.action == RUN
    assert v.state.queries == (("rag_lookup", "", 1), ("rag_lookup", "x", 1))
    v = check(v.state, "rag_lookup", query="?")
    assert v.matched_key == "" and v.score == 1.0 and v.action == RUN
    assert v.state.queries[0] == ("rag_lookup", "", 2)


def test_exhausted_and_matched_below_query_limit_is_cached() -> None:
    cfg = GuardConfig(max_live_per_turn=1)
    vs = run_seq([("rag_lookup", "", "alpha"), ("rag_lookup", "", "alpha")], config=cfg)
    assert actions(vs) == [RUN, CACHED]
    assert vs[1].message == lg.CACHE_NOTE.format(live=1)


# --------------------------------------------------------------------------- config


COUNT_FIELDS = ("max_identical_calls", "max_live_per_turn", "max_live_per_query")


@pytest.mark.parametrize("field", COUNT_FIELDS)
@pytest.mark.parametrize("bad", [True, False, 2.0, "3", None])
def test_count_field_of_wrong_type_raises(field: str, bad: Any) -> None:
    with pytest.raises(TypeError, match=rf"GuardConfig\.{field}"):
        check(new_turn(), "ls", "x", config=GuardConfig(**{field: bad}))


@pytest.mark.parametrize("field", COUNT_FIELDS)
@pytest.mark.parametrize("bad", [0, -1])
def test_count_field_below_one_raises(field: str, bad: int) -> None:
    with pytest.raises(ValueError, match=rf"GuardConfig\.{field}"):
        check(new_turn(), "ls", "x", config=GuardConfig(**{field: bad}))


def test_large_counts_are_accepted() -> None:
    vs = run_seq([("ls", "x")] * 6, config=GuardConfig(max_identical_calls=5))
    assert actions(vs) == [RUN] * 5 + [STUB]
    vs = run_seq([topic(t) for t in TOPICS], config=GuardConfig(max_live_per_turn=13))
    assert actions(vs) == [RUN] * 13


@pytest.mark.parametrize("bad", [0, 0.0, -0.5, 1.5, 1.0000001, float("nan"), float("inf")])
def test_threshold_out_of_range_raises(bad: Any) -> None:
    with pytest.raises(ValueError, match=r"GuardConfig\.threshold"):
        check(new_turn(), "rag_lookup", query="q", config=GuardConfig(threshold=bad))


@pytest.mark.parametrize("bad", [True, "0.8", None, [0.8]])
def test_threshold_of_wrong_type_raises(bad: Any) -> None:
    with pytest.raises(TypeError, match=r"GuardConfig\.threshold"):
        check(new_turn(), "rag_lookup", query="q", config=GuardConfig(threshold=bad))


@pytest.mark.parametrize("good", [1, 1.0, 0.5, Fraction(1, 2), 1e-9])
def test_good_threshold_used(good: Any) -> None:
    s = check(new_turn(), "rag_lookup", query="set table cell padding").state
    v = check(
        s, "rag_lookup", query="set layout table cell padding", config=GuardConfig(threshold=good)
    )
    assert (v.matched_key == "cell pad set tabl") is (float(good) <= 0.829)
    s = check(new_turn(), "rag_lookup", query="create table").state
    v = check(s, "rag_lookup", query="create box", config=GuardConfig(threshold=good))
    assert (v.matched_key == "creat tabl") is (float(good) <= 0.526)


@pytest.mark.parametrize("bad", ["search", b"search", {"search": 1}, ["search", 3], 42, None])
def test_bad_budget_tools_raise(bad: Any) -> None:
    with pytest.raises(TypeError, match=r"GuardConfig\.budget_tools"):
        check(new_turn(), "search", query="q", config=GuardConfig(budget_tools=bad))


@pytest.mark.parametrize("good", [["search"], ("search",), {"search"}, frozenset({"search"})])
def test_budget_tools_any_iterable_of_str(good: Any) -> None:
    vs = run_seq([("search", "", "q")] * 3 + [rag("q")] * 3, config=GuardConfig(budget_tools=good))
    assert actions(vs) == [RUN, RUN, CACHED, RUN, RUN, RUN]


def test_empty_budget_tools_budgets_nothing() -> None:
    vs = run_seq([rag("q")] * 4, config=GuardConfig(budget_tools=()))
    assert actions(vs) == [RUN] * 4


def test_odd_guardconfig_subclass_raises() -> None:
    class Odd(GuardConfig):
        def __new__(cls) -> Odd:
            return tuple.__new__(cls, (1, 1, 1, 0.5, (), "extra"))  # type: ignore[arg-type]

    with pytest.raises(TypeError, match="config"):
        check(new_turn(), "ls", "x", config=Odd())


@pytest.mark.parametrize("bad", [{"max_identical_calls": 1}, (1, 1, 1, 0.5, ()), "cfg", 3])
def test_non_guardconfig_raises(bad: Any) -> None:
    with pytest.raises(TypeError, match="config must be a GuardConfig"):
        check(new_turn(), "ls", "x", config=bad)


def test_wrong_config_raises_even_on_unreadable_data() -> None:
    with pytest.raises(ValueError, match="max_live_per_turn"):
        check("garbage", 42, object(), config=GuardConfig(max_live_per_turn=0))


# --------------------------------------------------------------------------- load_state


def test_load_state_round_trip_of_real_state() -> None:
    cfg = GuardConfig(max_live_per_turn=3)
    calls = [
        rag("create a table"),
        ("ls", ["x", 1]),
        ("rag_lookup", "", "how do I create tables"),
        ("rag_lookup", {"q": "é"}),
        ("rag_lookup", "", "delta"),
        ("rag_lookup", "", "echo"),
    ]
    vs = run_seq(calls, config=cfg)
    for v in vs:
        blob = json.dumps(v.state._asdict())
        back = load_state(json.loads(blob))
        assert back == v.state
        assert isinstance(back, TurnState)
        assert json.dumps(back._asdict()) == blob
    assert load_state(vs[-1].state) == vs[-1].state


def test_load_state_unreadable_is_new_turn() -> None:
    for bad in (None, 42, "state", [], [1, 2, 3], {"calls": 5}, b"{}", object()):
        assert load_state(bad) == new_turn()
    assert load_state({}) == new_turn()


def test_load_state_drops_bad_rows() -> None:
    obj = {
        "calls": [
            ["t", "a", 2],
            ["t", "b", True],
            ["t", "c", -1],
            ["t", "d"],
            [1, "e", 1],
            ["t", 2, 1],
            ["t", "f", 0],
            ["t", "g", 1.0],
            "row",
            ["t", "a", 5],
            ["u", "h", 3, 4],
        ],
        "live": [
            ["rag_lookup", 3],
            ["x", False],
            ["y", -2],
            ["z"],
            [5, 1],
            ["rag_lookup", 9],
            ["w", 0],
        ],
        "queries": [
            ["rag_lookup", "k", 1],
            ["rag_lookup", "k2", "1"],
            ["rag_lookup", 3, 1],
            ["rag_lookup", "k", 2],
            ["rag_lookup", "k3"],
            ["s", "k", 0],
        ],
    }
    s = load_state(obj)
    assert s.calls == (("t", "a", 2), ("t", "f", 0))
    assert s.live == (("rag_lookup", 3), ("w", 0))
    assert s.queries == (("rag_lookup", "k", 1), ("s", "k", 0))


def test_load_state_turnstate_with_bad_rows_and_lists() -> None:
    raw = TurnState(
        calls=[["t", "a", 1], ["t", "b", None]],  # type: ignore[arg-type]
        live="bad",
        queries=(("rag_lookup", "k", 1),),
    )  # type: ignore[arg-type]
    s = load_state(raw)
    assert s == TurnState((("t", "a", 1),), (), (("rag_lookup", "k", 1),))
    assert type(s.calls[0]) is tuple


def test_check_on_json_state_and_garbage_state() -> None:
    s = run_seq([rag("create table")])[-1].state
    v = check(json.loads(json.dumps(s._asdict())), "rag_lookup", {"q": "create table"})
    assert v.count == 2 and v.action == RUN
    v = check({"calls": [["rag_lookup", '{"q":"x"}', "nine"]]}, "rag_lookup", {"q": "x"})
    assert v.count == 1


def test_tampered_counters_still_obey_limits() -> None:
    s = load_state(
        {
            "calls": [["ls", "x", 99]],
            "live": [["rag_lookup", 40]],
            "queries": [["rag_lookup", "alpha", 7]],
        }
    )
    assert check(s, "ls", "x").action == STUB
    assert check(s, "rag_lookup", query="alpha").action == CACHED
    assert check(s, "rag_lookup", query="zulu").action == BUDGET


# --------------------------------------------------------------------------- limits (pinned)


def test_limit_1_big_rewording_runs_live() -> None:
    vs = run_seq(
        [
            ("rag_lookup", "", "create table"),
            ("rag_lookup", "", "build a grid"),
            ("rag_lookup", "", "build a grid"),
        ]
    )
    assert vs[1].action == RUN and vs[1].matched_key == ""
    assert len(vs[2].state.queries) == 2


def test_limit_2_different_questions_can_match() -> None:
    a = "set the font size of table headers"
    b = "set the font size of table footers"
    assert similarity(a, b) == pytest.approx(0.833, abs=0.0005)
    assert similarity("error 404", "error 403") == pytest.approx(0.889, abs=0.0005)
    vs = run_seq([("rag_lookup", "", a), ("rag_lookup", "", b), ("rag_lookup", "", b)])
    assert actions(vs) == [RUN, RUN, CACHED]
    assert vs[2].matched_key == normalize_query(a)


def test_limit_3_state_is_per_turn() -> None:
    spent = run_seq([rag("create a table")] * 2)[-1].state
    assert check(spent, "rag_lookup", {"q": "create a table"}).action == CACHED
    assert check(new_turn(), "rag_lookup", {"q": "create a table"}).action == RUN


def test_limit_4_order_is_the_callers() -> None:
    qs = ["create a table", "how do I create tables", "creating the table"]
    a = run_seq([("rag_lookup", "", q) for q in qs])
    b = run_seq([("rag_lookup", "", q) for q in reversed(qs)])
    assert actions(a) == actions(b) == [RUN, RUN, CACHED]
    # three in-flight rewordings all checked against the same state each run live
    s = new_turn()
    assert [check(s, "rag_lookup", query=q).action for q in qs] == [RUN, RUN, RUN]


def test_limit_5_facts_in_prompt_not_known() -> None:
    v = check(new_turn(), "rag_lookup", query="does createTable exist")
    assert v.action == RUN


def test_limit_6_non_ascii_not_stemmed_and_unjsonable_not_counted() -> None:
    assert normalize_query("tablés") == "tablés"
    assert normalize_query("tables") == "tabl"
    assert normalize_query("naïve") == "naïve"
    vs = run_seq([("ls", object())] * 6)
    assert actions(vs) == [RUN] * 6


# --------------------------------------------------------------------------- properties

_tools = st.sampled_from(["rag_lookup", "search", "ls"])
_queries = st.sampled_from(
    [
        "create a table",
        "how do I create tables",
        "creating the table",
        "set table cell padding",
        "set layout table cell padding",
        "create box",
        "alpha",
        "bravo",
        "",
        "the",
        "error 404",
        "error 403",
        "charlie delta",
        "echo",
    ]
)
_args = st.one_of(
    st.none(), _queries, st.dictionaries(st.sampled_from(["q", "k"]), _queries, max_size=2)
)
_call = st.tuples(_tools, _args, st.one_of(st.none(), _queries))
_cfg = st.builds(
    GuardConfig,
    st.integers(1, 5),
    st.integers(1, 6),
    st.integers(1, 3),
    st.floats(0.5, 1.0),
    st.just(frozenset({"rag_lookup", "search"})),
)


@given(st.lists(_call, max_size=40), _cfg)
def test_property_invariants_round_trip_determinism(calls: list[Any], cfg: GuardConfig) -> None:
    s = new_turn()
    runs: dict[str, int] = {}
    group_runs: dict[tuple[str, str], int] = {}
    seen: dict[tuple[str, str], int] = {}
    verdicts = []
    for tool, args, q in calls:
        v = check(s, tool, args, query=q, config=cfg)
        verdicts.append(v)
        assert v.action in (RUN, CACHED, STUB, BUDGET)
        assert v.stuck is (v.action == STUB)
        assert (v.message == "") is (v.action == RUN)
        key = (
            args
            if isinstance(args, str)
            else ""
            if args is None
            else json.dumps(args, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        )
        seen[(tool, key)] = seen.get((tool, key), 0) + 1
        assert v.count == seen[(tool, key)]
        assert (v.action == STUB) is (v.count > cfg.max_identical_calls)
        if v.action == RUN and tool in cfg.budget_tools:
            runs[tool] = runs.get(tool, 0) + 1
            gk = v.matched_key if v.score > 0 else v.query_key
            group_runs[(tool, gk)] = group_runs.get((tool, gk), 0) + 1
        # round trip, unchanged
        blob = json.dumps(v.state._asdict())
        assert load_state(json.loads(blob)) == v.state
        s = v.state
    assert all(n <= cfg.max_live_per_turn for n in runs.values())
    assert all(n <= cfg.max_live_per_query for n in group_runs.values())
    assert dict(s.live) == runs
    # determinism: a replay gives identical verdicts
    s2 = new_turn()
    for (tool, args, q), v in zip(calls, verdicts, strict=True):
        v2 = check(s2, tool, args, query=q, config=cfg)
        assert v2 == v
        s2 = v2.state


_anything = st.one_of(
    st.none(),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(),
    st.binary(),
    st.booleans(),
    st.lists(st.one_of(st.text(), st.integers(), st.none()), max_size=4),
    st.dictionaries(
        st.text(max_size=5), st.one_of(st.text(), st.integers(), st.lists(st.text())), max_size=4
    ),
)


@given(_anything, _anything, _anything, _anything, st.one_of(st.none(), _cfg))
def test_property_never_raises_on_data(
    state: Any, tool: Any, args: Any, q: Any, cfg: GuardConfig | None
) -> None:
    v = check(state, tool, args, query=q, config=cfg)
    assert isinstance(v, Verdict) and isinstance(v.state, TurnState)
    assert load_state(json.loads(json.dumps(v.state._asdict()))) == v.state
    assert isinstance(load_state(state), TurnState)
    assert isinstance(normalize_query(q), str)
    assert 0.0 <= similarity(tool, q) <= 1.0


@given(_anything, _anything, _anything, _anything, _anything, _anything, _anything)
def test_property_any_config_works_or_names_the_field(
    a: Any, b: Any, c: Any, d: Any, e: Any, tool: Any, args: Any
) -> None:
    cfg = GuardConfig(a, b, c, d, e)
    try:
        v = check(new_turn(), tool, args, config=cfg)
    except (TypeError, ValueError) as raised:
        assert str(raised).startswith("GuardConfig.")
    else:
        assert isinstance(v, Verdict)


@given(st.text(max_size=300))
def test_property_normalize_idempotent_on_keys_is_deterministic(text: str) -> None:
    k = normalize_query(text)
    assert k == normalize_query(text)
    assert k == " ".join(sorted(set(k.split())))
    assert similarity(text, text) == 1.0


@given(
    st.dictionaries(
        st.sampled_from(["calls", "live", "queries"]),
        st.lists(
            st.lists(
                st.one_of(st.text(max_size=3), st.integers(-2, 5), st.booleans(), st.none()),
                max_size=4,
            ),
            max_size=5,
        ),
    )
)
def test_property_load_state_shapes(obj: dict[str, Any]) -> None:
    s = load_state(obj)
    for row in s.calls:
        assert len(row) == 3 and type(row[0]) is str and type(row[1]) is str
        assert type(row[2]) is int and row[2] >= 0
    for row in s.live:
        assert len(row) == 2 and type(row[0]) is str and type(row[1]) is int and row[1] >= 0
    for row in s.queries:
        assert len(row) == 3 and type(row[2]) is int and row[2] >= 0
    assert load_state(json.loads(json.dumps(s._asdict()))) == s
    assert load_state(s) == s


def test_pathological_query_is_fast() -> None:
    import time

    t0 = time.process_time()
    s = new_turn()
    for i in range(12):
        s = check(s, "rag_lookup", query=(f"word{i} ") * 200_000).state
    check(s, "rag_lookup", query="a" * 200_000)
    assert time.process_time() - t0 < 2.0
