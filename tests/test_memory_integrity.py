"""Tests for agentops/memory_integrity.py (reference: docs/reference/memory_integrity.md)."""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from agentops import memory_integrity as mi
from agentops.memory_integrity import (
    Coverage,
    Frontmatter,
    IndexLink,
    MemoryFile,
    build_memory_link_graph,
    compact_index_lines,
    extract_index_links,
    extract_wiki_links,
    lint_memory_integrity,
    normalize_slug,
    parse_frontmatter,
    suggest_memory_repairs,
    suggest_prune_candidates,
)

lint = lint_memory_integrity
repairs = suggest_memory_repairs


def fm(name: str, kind: str, body: str) -> str:
    return f"---\nname: {name}\nmetadata:\n  type: {kind}\n---\n{body}"


F = [
    MemoryFile(
        "feedback_ship_early.md",
        fm("feedback-ship-early", "feedback", "Ship early. See [[project_launch_plan]]."),
    ),
    MemoryFile(
        "project_launch_plan.md",
        fm(
            "project_launch_plan",
            "project",
            "Launch plan. [[feedback_ship_early]] [[nonexistent_memory]]",
        ),
    ),
    MemoryFile(
        "reference_api_docs.md",
        fm("reference-api-docs", "reference", "API docs pointer. [[feedback_ship_early]]"),
    ),
]
I_LINES = [
    "# Memory Index",
    "- [Ship early](feedback_ship_early.md) — always ship",
    "- [Launch plan](project_launch_plan.md) — the plan",
    "- [Dead pointer](does_not_exist.md) — stale",
    "- [API docs](reference_api_docs.md) — reference",
    "- [Totally different fact](reference_api_docs.md) — silent merge shape",
]
I = "\n".join(I_LINES)  # noqa: E741 - the index of the worked examples


def checks(result: Any, name: str | None = None) -> list[Any]:
    return [f for f in result.findings if name is None or f.check == name]


def budget_finding(text: Any, **kw: Any) -> Any:
    found = checks(lint(text, [], **kw), "index-over-budget")
    assert len(found) <= 1
    return found[0] if found else None


# ------------------------------------------------------------------ constants and API


def test_constants_exact() -> None:
    assert mi.INDEX_FILE_NAME == "MEMORY.md"
    assert mi.DEFAULT_INDEX_MAX_LINES == 200
    assert mi.DEFAULT_INDEX_MAX_CHARS == 25000
    assert mi.DEFAULT_INDEX_BUDGET_BYTES == 24985
    assert int(24.4 * 1024) == mi.DEFAULT_INDEX_BUDGET_BYTES
    assert mi.INDEX_LIMITS == ("lines", "chars", "bytes")
    assert mi.DUPLICATE_TARGET_MAX_JACCARD == 0.2
    assert mi.NEAR_DUPLICATE_MIN_JACCARD == 0.7
    assert mi.REPAIR_MIN_JACCARD == 0.4
    assert mi.HUB_MIN_BACKLINKS == 3
    assert mi.DEFAULT_MAX_INDEX_LINE_LENGTH == 200
    assert mi.DEFAULT_PRUNE_LIMIT == 5
    assert (
        frozenset(
            {
                "a",
                "an",
                "and",
                "as",
                "at",
                "by",
                "for",
                "from",
                "in",
                "is",
                "it",
                "of",
                "on",
                "or",
                "the",
                "to",
                "vs",
                "via",
                "with",
            }
        )
        == mi.STOPWORDS
    )
    assert mi.CHECKS == (
        "dead-index-link",
        "duplicate-link-target",
        "index-over-budget",
        "dangling-wiki-link",
        "orphan-memory-file",
        "near-duplicate-slug",
        "index-not-read",
        "near-duplicate-search-stopped",
    )


def test_all_names_public_api() -> None:
    for name in mi.__all__:
        assert hasattr(mi, name)
        assert not name.startswith("_")
    for fn in (
        "lint_memory_integrity",
        "suggest_memory_repairs",
        "build_memory_link_graph",
        "compact_index_lines",
        "suggest_prune_candidates",
        "extract_index_links",
        "extract_wiki_links",
        "parse_frontmatter",
        "normalize_slug",
    ):
        assert fn in mi.__all__


def test_namedtuple_defaults() -> None:
    assert MemoryFile("a.md") == ("a.md", None)
    assert Frontmatter("n", "t") == ("n", "t", None)
    f = mi.Finding("c", "warn", "m", "s")
    assert f.files == () and f.titles == () and f.lines == () and f.target is None
    assert f.over is None and f.index_chars is None and f.similarity is None
    r = mi.Repair("k", "info", "m", f)
    assert r.prune == () and r.candidate is None and r.over_lines is None


# ------------------------------------------------------------------ acceptance examples


def test_example_1_lint() -> None:
    result = lint(I, F)
    assert result.swept is True
    assert result.coverage == Coverage(3, 0, 0, 0, 0, True)
    got = [(f.check, f.subject) for f in result.findings]
    assert got == [
        ("dead-index-link", "does_not_exist.md"),
        ("duplicate-link-target", "reference_api_docs.md"),
        ("dangling-wiki-link", "project_launch_plan.md"),
    ]
    dead, dup, dangling = result.findings
    assert dead.severity == "warn" and dead.target == "does_not_exist.md"
    assert dead.titles == ("Dead pointer",) and dead.lines == (4,)
    assert dup.severity == "warn" and dup.files == ("reference_api_docs.md",)
    assert dup.target == "reference_api_docs.md" and dup.lines == (5, 6)
    assert dup.titles == ("API docs", "Totally different fact") and dup.similarity == 0.0
    assert dangling.severity == "info" and dangling.wiki == "nonexistent_memory"
    assert dangling.files == ("project_launch_plan.md",)
    assert "does_not_exist.md" in dead.message and "4" in dead.message
    assert lint(I, F, index_bytes=24986) == result


def test_example_1_byte_limit() -> None:
    result = lint(I, F, budget_bytes=24985, index_bytes=24986)
    budget = checks(result, "index-over-budget")
    assert [f.check for f in result.findings] == [
        "dead-index-link",
        "duplicate-link-target",
        "index-over-budget",
        "dangling-wiki-link",
    ]
    (b,) = budget
    assert b.subject == "MEMORY.md" and b.severity == "warn"
    assert (b.limit, b.over, b.index_bytes, b.budget_bytes) == ("bytes", 1, 24986, 24985)
    assert b.first_unloaded_line is None and b.index_lines == 6
    assert b.index_chars == len(I)
    assert "24986" in b.message and "24985" in b.message
    assert not checks(lint(I, F, budget_bytes=24985, index_bytes=24985), "index-over-budget")


def test_example_2_shared_words_not_merge() -> None:
    text = "- [Ship early](a.md)\n- [Ship early rule](a.md)"
    assert not checks(lint(text, [("a.md", "x")]), "duplicate-link-target")


DUP_NAMES = [
    "feedback_retry_backoff_rule.md",
    "feedback_backoff_retry_rule.md",
    "project_retry_backoff_rule.md",
    "feedback_retry_backoff_rule_v2.md",
    "feedback_sprint_18_retro.md",
    "feedback_sprint_19_retro.md",
]


def test_example_3_orphans_and_near_duplicates() -> None:
    result = lint("", [(n, "") for n in DUP_NAMES])
    assert result.swept and result.coverage.reached == 6
    assert [f.check for f in result.findings] == ["orphan-memory-file"] * 6 + [
        "near-duplicate-slug"
    ]
    assert [f.subject for f in result.findings[:6]] == DUP_NAMES
    near = result.findings[6:]
    cluster = (DUP_NAMES[0], DUP_NAMES[1], DUP_NAMES[3])
    assert [(f.files, f.unlisted, f.memory_type) for f in near] == [(cluster, 0, "feedback")]
    assert near[0].subject == " + ".join(cluster)
    assert near[0].message.startswith("3 feedback files have near-identical names: ")
    assert all(f.severity == "info" for f in result.findings)


def test_example_4_nothing_swept() -> None:
    for result in (
        lint(),
        lint(None, []),
        lint("", []),
        lint(None, [{"name": 42}, None, {"nope": True}]),
    ):
        assert result.swept is False and result.findings == ()
    assert lint(None, [{"name": 42}, None, {"nope": True}]).coverage == Coverage(
        0, 3, 3, 0, 0, False
    )
    result = lint("# Index\n- [A](a.md) - x\n", [])
    assert result.swept and result.coverage.reached == 0 and result.coverage.index_read
    assert [f.check for f in result.findings] == ["dead-index-link"]


def test_example_5_coverage() -> None:
    inv = [
        ("real.md", "body"),
        {"name": "unread.md"},
        ("also-unread.md", None),
        {"name": 42},
        ("MEMORY.md", "idx"),
    ]
    result = lint("# Index\n", inv)
    assert result.coverage == Coverage(1, 4, 1, 2, 1, True)
    result = lint("# Index\n- [U](unread.md)\n", inv)
    assert not checks(result, "dead-index-link")
    assert [f.subject for f in checks(result, "orphan-memory-file")] == ["real.md"]


def test_example_6_graph() -> None:
    g = build_memory_link_graph(F)
    assert len(g.nodes) == 3 and len(g.edges) == 3
    assert g.backlinks["feedback_ship_early.md"] == (
        "project_launch_plan.md",
        "reference_api_docs.md",
    )
    assert g.unlinked == ("reference_api_docs.md",)
    assert g.dangling == (mi.DanglingLink("project_launch_plan.md", "nonexistent_memory"),)
    assert g.edges == (
        mi.Edge("feedback_ship_early.md", "project_launch_plan.md"),
        mi.Edge("project_launch_plan.md", "feedback_ship_early.md"),
        mi.Edge("reference_api_docs.md", "feedback_ship_early.md"),
    )
    assert g.nodes[0] == mi.GraphNode("feedback_ship_early.md", "feedback", 1, 2)
    assert g.nodes[1] == mi.GraphNode("project_launch_plan.md", "project", 1, 1)
    assert g.nodes[2] == mi.GraphNode("reference_api_docs.md", "reference", 1, 0)
    assert list(g.backlinks) == ["feedback_ship_early.md", "project_launch_plan.md"]
    assert g.hubs == ()


def test_example_7_repairs() -> None:
    result = repairs(I, F)
    assert result.swept and result.coverage == lint(I, F).coverage
    assert [(r.kind, r.severity) for r in result.repairs] == [
        ("fix-dead-link", "warn"),
        ("split-shared-target", "warn"),
    ]
    fix, split = result.repairs
    assert fix.candidate is None and fix.finding == lint(I, F).findings[0]
    assert "remove the line or create the file" in fix.message
    assert "does_not_exist.md" in fix.message
    assert "reference_api_docs.md" in split.message
    text = I + "\n- old digest 2026-01-05 something\n- newer digest 2026-06-01 something"
    result = repairs(text, F, budget_bytes=24985, index_bytes=24995)
    (prune,) = [r for r in result.repairs if r.kind == "prune-index"]
    assert prune.severity == "warn"
    assert (prune.over_bytes, prune.over_lines, prune.over_chars) == (10, None, None)
    assert prune.prune == (
        mi.PruneCandidate(7, "2026-01-05", 34, "- old digest 2026-01-05 something", 34),
    )
    assert "line 7" in prune.message and "bytes" in prune.message


def test_example_8_compaction() -> None:
    head = "- [Title](feedback_ship_early.md) — "
    c = compact_index_lines(head + "word " * 60 + "end", 80)
    assert c.text == head + "word " * 7 + "word…" and len(c.text) == 76
    assert (c.saved_bytes, c.before_bytes, c.after_bytes) == (261, 341, 80)
    assert c.changes == (mi.LineChange(1, 339, 76, 261, c.text),)
    assert c.skipped == ()
    line = (
        "- [Primary](a.md) — see [SecondaryLinkWithVeryLongTitle](b.md) plus "
        "[[wiki_target_name]] " + "pad " * 30 + "end"
    )
    assert compact_index_lines(line, 50).text == "- [Primary](a.md) — see…"


def test_example_9_lines() -> None:
    assert budget_finding("\n".join(["x"] * 200)) is None
    assert budget_finding("\n".join(["x"] * 200) + "\n\n  \n") is None
    b = budget_finding("\n".join(["x"] * 201))
    assert (b.limit, b.over, b.first_unloaded_line, b.index_lines, b.index_chars) == (
        "lines",
        1,
        201,
        201,
        401,
    )
    assert b.index_bytes is None and b.budget_bytes is None
    b = budget_finding("\n\n\n" + "\n".join(["x"] * 201))
    assert b.first_unloaded_line == 204 and b.index_lines == 201


def test_example_10_chars() -> None:
    assert budget_finding("a" * 12499 + "\n" + "b" * 12500) is None
    b = budget_finding("a" * 12499 + "\n" + "b" * 12501)
    assert (b.limit, b.over, b.first_unloaded_line) == ("chars", 1, 2)
    assert budget_finding("😀" * 12500) is None
    b = budget_finding("😀" * 12500 + "x")
    assert (b.limit, b.over, b.index_chars) == ("chars", 1, 25001)
    assert budget_finding("é" * 25000) is None
    b = budget_finding("é" * 25000, budget_bytes=25000)
    assert (b.limit, b.over, b.index_bytes, b.budget_bytes, b.first_unloaded_line) == (
        "bytes",
        25000,
        50000,
        25000,
        1,
    )
    b = budget_finding("\n".join(["c" * 200] * 130))
    assert (b.limit, b.over, b.first_unloaded_line) == ("chars", 1129, 125)
    text = "\n".join(["c" * 100] * 300)
    b = budget_finding(text)
    assert (b.limit, b.over, b.first_unloaded_line, b.index_chars) == ("lines", 100, 201, 30299)
    assert "chars" in b.message  # the other exceeded limit is named
    (r,) = repairs(text, []).repairs
    assert (r.kind, r.over_lines, r.over_chars, r.over_bytes) == ("prune-index", 100, 5299, None)
    assert r.prune == () and "no dated lines" in r.message


STRIP_HEAD = "---\nname: index\n---\n<!-- managed\n" + "x" * 30000 + "\n-->\n"


def test_example_11_stripping() -> None:
    assert budget_finding(STRIP_HEAD + "\n".join(["y"] * 200)) is None
    b = budget_finding(STRIP_HEAD + "\n".join(["y"] * 201))
    assert (b.limit, b.over, b.first_unloaded_line) == ("lines", 1, 207)
    base = STRIP_HEAD + "\n".join(["y"] * 200) + "\n"
    assert budget_finding(base + "<!-- note -->") is None
    for extra in (
        "- [A](a.md) <!-- note -->",
        "<!-- note --> tail",
        "<!-- note",
        "    <!-- note -->",
        "```\n<!-- note -->\n```",
    ):
        b = budget_finding(base + extra)
        assert b is not None and b.limit == "lines", extra


def test_example_12_frontmatter() -> None:
    text = (
        "---\nname: ship-early\ndescription: Ship small PRs; it's the user's call\n"
        "type: feedback\nmodified: 2026-09-01T12:00:00Z\n---\nbody"
    )
    assert parse_frontmatter(text) == (
        "ship-early",
        "feedback",
        "Ship small PRs; it's the user's call",
    )
    assert parse_frontmatter("---\nmetadata:\n  type: project\ntype: User\n---\n") == (
        None,
        "user",
        None,
    )


# ------------------------------------------------------------------ shared rules


def test_normalize_slug() -> None:
    assert normalize_slug("Feedback_Ship  early.MD") == "feedback-ship-early"
    assert normalize_slug("a.md.md") == "a.md"
    assert normalize_slug("-_a__b--c\t d_") == "-a-b-c-d-"
    assert normalize_slug("x.mdx") == "x.mdx"
    assert normalize_slug(None) == "" and normalize_slug(5) == "" and normalize_slug(b"a") == ""
    assert normalize_slug("") == ""


def test_tokens_and_jaccard() -> None:
    assert mi._name_tokens("Sprint_18-the_Retro 50%") == ["sprint", "18", "retro", "50%"]
    assert mi._name_tokens("caféx") == ["caf", "x"]
    assert mi._title_tokens("A 2026 plan of x 5% ok") == ["plan", "5%", "ok"]
    assert mi._jaccard(set(), {"a"}) is None and mi._jaccard({"a"}, set()) is None
    assert mi._jaccard({"a", "b"}, {"b", "c"}) == 1 / 3


def test_frontmatter_shapes() -> None:
    assert parse_frontmatter("no block") == (None, None, None)
    assert parse_frontmatter("---\nname: x\n") == (None, None, None)  # unclosed
    assert parse_frontmatter(None) == (None, None, None)
    assert parse_frontmatter(b"---\nname: x\n---") == (None, None, None)
    assert parse_frontmatter("---\nname: x\n---") == ("x", None, None)
    assert parse_frontmatter("---\n---\nname: x\n---") == (None, None, None)
    assert parse_frontmatter('---\nname: "quoted"  \n---') == ("quoted", None, None)
    assert parse_frontmatter("---\nname: 'q'\r\n---") == ("q", None, None)
    assert parse_frontmatter("---\nname:\nname: later\n---") == ("later", None, None)
    assert parse_frontmatter("---\nname:    \nname: later\n---") == (None, None, None)
    assert parse_frontmatter("---\n name: x\n---") == (None, None, None)
    assert parse_frontmatter('---\nname: a"b"c\nname: ok\n---') == ("ok", None, None)
    assert parse_frontmatter("---\ntype: bad value\ntype: Good_1-x\n---").memory_type == "good_1-x"
    assert parse_frontmatter("---\ntype: 1abc\n---").memory_type is None
    assert parse_frontmatter("---\ntype:\t'Ref'\t\n---").memory_type == "ref"
    assert parse_frontmatter("---\n\ttype: nested\n---").memory_type == "nested"
    assert parse_frontmatter("---\n  type: a\n  type: b\n---").memory_type == "a"
    assert parse_frontmatter("---\n  type: x y\n  type: b\n---").memory_type == "b"
    assert parse_frontmatter("---\n  type: a\ntype: 9\n---").memory_type == "a"
    assert parse_frontmatter("---\ntypes: a\n---").memory_type is None
    assert parse_frontmatter("---\ndescription: |\n  text\n---").description is None
    assert parse_frontmatter("---\ndescription: > folded\n---").description is None
    assert parse_frontmatter('---\ndescription: "q"\n---').description == "q"
    assert parse_frontmatter("---\ndescription: 'q\"\n---").description == "'q\""
    assert parse_frontmatter('---\ndescription: ""\n---').description is None
    assert parse_frontmatter('---\ndescription: "\n---').description == '"'
    assert parse_frontmatter("---\ndescription:\ndescription: x\n---").description is None
    assert parse_frontmatter("---\ndescription: \t a b \r\n---").description == "a b"
    assert parse_frontmatter("---\nmodified: x\noriginSessionId: y\n---") == (None, None, None)


_NAME_RE = re.compile(r"[ \t]*[\"']?([^\"'\r\n]+)[\"']?[ \t\r]*")


@given(st.text(alphabet=" \t\"'\rab", max_size=8))
def test_scalar_value_matches_regex(rest: str) -> None:
    match = _NAME_RE.fullmatch(rest)
    expected = (True, match.group(1).strip() or None) if match else (False, None)
    assert mi._scalar_value(rest) == expected


def test_memory_type_from_name() -> None:
    inv = mi._Inventory(
        [
            ("Project_x.md", "b"),
            ("2024_x.md", "b"),
            ("notes-x.md", "b"),
            ("user_y.md", "---\ntype: feedback\n---\n"),
        ]
    )
    assert inv.memory_type("Project_x.md") == "project"
    assert inv.memory_type("2024_x.md") is None and inv.memory_type("notes-x.md") is None
    assert inv.memory_type("user_y.md") == "feedback"


def test_index_links_rules() -> None:
    assert extract_index_links("[a [b](x.md)") == (IndexLink("a [b", "x.md", 1),)
    text = (
        "![img](i.md) [A](a.MD) [B](b.md#s) [C](sub/c.md) [D](d\\e.md) [E](https:e.md) "
        "[F](f.txt) [ G ](g.md)\r\n[H](h.md) [](e.md) [I]( i.md) [J](j .md)"
    )
    assert extract_index_links(text) == (
        IndexLink("A", "a.MD", 1),
        IndexLink("G", "g.md", 1),
        IndexLink("H", "h.md", 2),
    )
    assert extract_index_links("[x](y.md)(z.md) [[w]](v.md) [[u](t.md)") == (
        IndexLink("x", "y.md", 1),
        IndexLink("[u", "t.md", 1),
    )
    assert extract_index_links(None) == () and extract_index_links(42) == ()
    assert extract_index_links("[a](b [c](d.md)") == (IndexLink("c", "d.md", 1),)
    assert extract_index_links("[a](b.md") == ()
    assert extract_index_links("[a]\n(b.md)") == ()
    assert extract_index_links("x\n[a](b.md)\n\n[c](d.md)") == (
        IndexLink("a", "b.md", 2),
        IndexLink("c", "d.md", 4),
    )


_LINK_RE = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def _ref_index_links(text: str) -> tuple[IndexLink, ...]:
    out = []
    for number, line in enumerate(mi._lines(text), 1):
        for m in _LINK_RE.finditer(line):
            target = m.group(2)
            if m.start() > 0 and line[m.start() - 1] == "!":
                continue
            if (
                not target.lower().endswith(".md")
                or "/" in target
                or "\\" in target
                or re.match(r"[A-Za-z]+:", target)
            ):
                continue
            out.append(IndexLink(m.group(1).strip(), target, number))
    return tuple(out)


class _ScannersOnly:
    """Force the hand-written linear scanners (the regex fast path is bypassed)."""

    def __enter__(self) -> None:
        self.saved = mi._REGEX_SAFE_OPENERS
        mi._REGEX_SAFE_OPENERS = -1

    def __exit__(self, *exc: object) -> None:
        mi._REGEX_SAFE_OPENERS = self.saved


@given(st.text(alphabet="[]()! .mdMD/\\:a\n\r\t", max_size=40))
@example("[](a[b](c.md)")  # an empty title: the search resumes right after its "]"
@example("[x] [y(a.md) [[](b.md)")
def test_index_links_match_reference(text: str) -> None:
    expected = _ref_index_links(text)
    assert extract_index_links(text) == expected
    with _ScannersOnly():
        assert extract_index_links(text) == expected


def test_scanner_adjacent_links() -> None:
    text = "[a](b.md)[c](d.md)![e](f.md)[g](h.md) [i](j.md)"
    expected = (
        IndexLink("a", "b.md", 1),
        IndexLink("c", "d.md", 1),
        IndexLink("g", "h.md", 1),
        IndexLink("i", "j.md", 1),
    )
    assert extract_index_links(text) == expected
    with _ScannersOnly():
        assert extract_index_links(text) == expected
        assert extract_index_links("[][a](b.md) [x]y [p] (q.md)") == (IndexLink("a", "b.md", 1),)
        assert extract_wiki_links("[[a]][[b]] [[]][[c]]") == ("a", "b", "c")
        assert extract_index_links("(x [a") == () and extract_index_links("[a](b.md [c") == ()
        # the search resumes right after a "]" not followed by "(" (it may open a link)
        assert extract_index_links("[a][b](c.md)") == (IndexLink("b", "c.md", 1),)
        assert extract_wiki_links("[[a") == () and extract_wiki_links("[[a|b#c]]") == ("a",)
        # the stop search starts right after "[[": a "]" there ends the attempt
        assert extract_wiki_links("[[]a]]") == () and extract_wiki_links("[[\na]]") == ()
        assert extract_wiki_links("[[a][[b]]") == ("b",)  # resumes right after the "]"
        assert extract_wiki_links("[[a\n[[b]]") == ("b",)
    assert extract_wiki_links("[[]a]]") == () and extract_wiki_links("[[\na]]") == ()


def test_index_link_after_bare_brackets() -> None:
    # the search resumes right after a "]" not followed by "(" (it may open a link)
    for text, want in (
        ("[a][b](c.md)", (IndexLink("b", "c.md", 1),)),
        ("[a]x[b](c.md) [d](e f.md)", (IndexLink("b", "c.md", 1),)),
    ):
        assert extract_index_links(text) == want == _ref_index_links(text)
        with _ScannersOnly():
            assert extract_index_links(text) == want


def test_regex_fast_path_bound() -> None:
    assert mi._REGEX_SAFE_OPENERS == 32
    line = "[" * 32 + "[a](b.md)"  # 33 openers: the scanner decides, same answer
    assert extract_index_links(line) == (IndexLink("[" * 32 + "a", "b.md", 1),)
    text = "[[x]] " * 40
    assert extract_wiki_links(text) == ("x",) * 40


class _RegexSpy:
    """Stands in for a compiled link regex and counts how often it is asked."""

    def __init__(self, real: re.Pattern[str]) -> None:
        self.real = real
        self.calls = 0

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        self.calls += 1
        return self.real.finditer(text)

    def findall(self, text: str) -> list[str]:
        self.calls += 1
        return self.real.findall(text)


def test_regex_fast_path_exact_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    # exactly 32 openers still take the regex; 33 go to the scanner
    spy = _RegexSpy(mi._INDEX_LINK_RE)
    monkeypatch.setattr(mi, "_INDEX_LINK_RE", spy)
    assert extract_index_links("[" * 31 + "[a](b.md)") == (IndexLink("[" * 31 + "a", "b.md", 1),)
    assert spy.calls == 1
    assert extract_index_links("[" * 32 + "[a](b.md)") == (IndexLink("[" * 32 + "a", "b.md", 1),)
    assert spy.calls == 1
    wiki = _RegexSpy(mi._WIKI_LINK_RE)
    monkeypatch.setattr(mi, "_WIKI_LINK_RE", wiki)
    assert extract_wiki_links("[[x]] " * 32) == ("x",) * 32 and wiki.calls == 1
    assert extract_wiki_links("[[x]] " * 33) == ("x",) * 33 and wiki.calls == 1


def test_image_marker_only_right_before_the_link() -> None:
    # a "!" at the end of the line is no image marker for a link at column 0
    assert extract_index_links("[a](b.md) wow!") == (IndexLink("a", "b.md", 1),)
    assert extract_index_links("x![a](b.md)") == ()
    with _ScannersOnly():
        assert extract_index_links("[a](b.md) wow!") == (IndexLink("a", "b.md", 1),)


def test_wiki_links_rules() -> None:
    assert extract_wiki_links("[[a|A]] [[b#h]] [[ ]] [[[c]]]") == ("a", "b", "[c")
    assert extract_wiki_links("[[a\nb]] [[c\r]] [[d]] [[e] [[f#x|y]]") == ("d", "f")
    assert extract_wiki_links("[[]] [[x]]") == ("x",)
    assert extract_wiki_links("---\nname: [[in_fm]]\n---\n```\n[[in_code]]\n```") == (
        "in_fm",
        "in_code",
    )
    assert extract_wiki_links(None) == () and extract_wiki_links(["[[a]]"]) == ()


_WIKI_RE = re.compile(r"\[\[([^\]\r\n]+)\]\]")


@given(st.text(alphabet="[]|# a\n\r", max_size=40))
def test_wiki_links_match_reference(text: str) -> None:
    expected = tuple(
        n
        for n in (m.group(1).split("|")[0].split("#")[0].strip() for m in _WIKI_RE.finditer(text))
        if n
    )
    assert extract_wiki_links(text) == expected
    with _ScannersOnly():
        assert extract_wiki_links(text) == expected


def test_lines_rule() -> None:
    assert mi._lines("a\r\nb\rc\r\n\r") == ["a", "b\rc", "\r"]
    assert mi._lines("a\x0bb\x0cc\u2028d") == ["a\x0bb\x0cc\u2028d"]


# ------------------------------------------------------------------ inventory


def test_inventory_shapes_and_order() -> None:
    class Weird:
        def __iter__(self) -> Any:
            yield ("a.md", "x")
            raise RuntimeError("listing failed")

    assert lint(None, Weird()).coverage.reached == 0
    nothing = Coverage(0, 0, 0, 0, 0, False)
    for text_like in ("a.md", b"a.md", bytearray(b"ab"), memoryview(b"ab")):
        assert lint(None, text_like).coverage == nothing
    assert lint(None, 42).swept is False
    mapping = OrderedDict([("a.md", "x"), ("b.md", None), ("MEMORY.md", "i")])
    assert lint(None, mapping).coverage == Coverage(1, 2, 0, 1, 1, False)
    entries = [
        ("a.md", "x"),
        ("a.md", "y"),
        ["b.md", "z"],
        ("c.md", "1", "2"),
        ("", "x"),
        {"name": "d.md", "content": "w"},
        {"name": "e.md", "content": b"bytes"},
        ("f.md", 42),
        "g.md",
        ("memory.MD", None),
        ("Memory.md", "again"),
    ]
    cov = lint(None, entries).coverage
    assert cov == Coverage(
        reached=3, skipped=8, malformed=4, contentless=2, index_excluded=2, index_read=False
    )
    # the first of two equal names counts; the duplicate is malformed
    result = lint("- [A](a.md)", [("a.md", "first [[zz]]"), ("a.md", "second [[yy]]")])
    assert [f.wiki for f in checks(result, "dangling-wiki-link")] == ["zz"]


def test_inventory_read_once() -> None:
    class Once(dict):  # type: ignore[type-arg]
        reads = 0

        def get(self, key: Any, default: Any = None) -> Any:
            Once.reads += 1
            return super().get(key, default)

    entry = Once(name="a.md", content="x")
    assert lint(None, [entry]).coverage.reached == 1
    assert Once.reads == 2

    class Boom(dict):  # type: ignore[type-arg]
        def get(self, key: Any, default: Any = None) -> Any:
            raise KeyError(key)

    assert lint(None, [Boom()]).coverage.malformed == 1

    class BadList(list):  # type: ignore[type-arg]
        def __getitem__(self, i: Any) -> Any:
            raise IndexError(i)

    assert lint(None, [BadList([1, 2])]).coverage.malformed == 1

    class BadMapping(dict):  # type: ignore[type-arg]
        def items(self) -> Any:
            raise RuntimeError("no")

    assert lint(None, BadMapping(a=1)).coverage == Coverage(0, 0, 0, 0, 0, False)


def test_str_subclass_inputs() -> None:
    class S(str):
        def lower(self) -> str:  # a hostile subclass must not change the answer
            return "memory.md"

    result = lint(S("- [A](a.md)"), [(S("a.md"), S("body"))])
    assert result.coverage.reached == 1 and result.findings == ()
    assert type(result.coverage.reached) is int


def test_str_subclass_content_is_copied() -> None:
    class Blind(str):
        def count(self, *args: Any) -> int:  # would hide every wiki link if used
            return 0

    result = lint("", [("user_a.md", Blind("[[gone]]"))])
    assert [f.wiki for f in checks(result, "dangling-wiki-link")] == ["gone"]
    result = lint("", [{"name": "user_a.md", "content": Blind("[[gone]]")}])
    assert [f.wiki for f in checks(result, "dangling-wiki-link")] == ["gone"]


def test_messages_stay_on_one_line() -> None:
    result = lint("", [("user_a\nb.md", "x"), ("user_c\rd.md", "y")])
    messages = [f.message for f in result.findings]
    assert len(messages) == 2 and all("\n" not in m and "\r" not in m for m in messages)
    assert "user_a\\nb.md" in messages[0] and "user_c\\rd.md" in messages[1]
    fixes = repairs("", [("user_a\nb.md", "x")]).repairs
    assert "\n" not in fixes[0].message and "user_a\\nb.md" in fixes[0].message
    assert mi._one_line("plain") == "plain"


def test_index_read_rule() -> None:
    assert lint(42, [("a.md", "")]).coverage.index_read is False
    assert lint("", [("a.md", "")]).coverage.index_read is True  # an empty index is read
    assert lint(" ", []).swept is False  # a blank index and no topic file: nothing there
    assert lint("# Memory", []).swept is True and lint("# Memory", []).findings == ()


# ------------------------------------------------------------------ resolution


def test_resolution_order() -> None:
    files = [("b_one.md", "---\nname: a_one\n---\n"), ("A_One.md", "x"), ("a-one.md", "y")]
    g = build_memory_link_graph([*files, ("src.md", "[[a_one]] [[A_One.md]] [[a one]]")])
    assert [e.target for e in g.edges if e.source == "src.md"] == ["A_One.md"]
    inv = mi._Inventory(files)
    assert inv.resolve("a-one.md") == "a-one.md"  # exact name wins
    assert inv.resolve("a_one") == "A_One.md"  # first normalized name, inventory order
    assert mi._Inventory([("b.md", "---\nname: Zed\n---\n")]).resolve("zed") == "b.md"
    # frontmatter names count only for reached files; contentless names still resolve
    inv = mi._Inventory([("c.md", None), ("MEMORY.md", "x")])
    assert inv.resolve("c") == "c.md" and inv.resolve("MEMORY.md") is None
    assert inv.resolve("memory") is None


def test_self_link_and_index_link_to_memory_md() -> None:
    result = lint("- [I](MEMORY.md)", [("a.md", "[[a]] [[a.md]]"), ("MEMORY.md", "x")])
    assert [f.check for f in result.findings] == ["dead-index-link", "orphan-memory-file"]


# ------------------------------------------------------------------ positive controls


def test_dead_index_link_fires_in_index_order() -> None:
    text = "- [X](x.md)\n- [G1](gone1.md) [G2](gone2.md)\n- [G0](gone0.md)"
    dead = checks(lint(text, [("x.md", "")]), "dead-index-link")
    assert [(f.target, f.lines) for f in dead] == [
        ("gone1.md", (2,)),
        ("gone2.md", (2,)),
        ("gone0.md", (3,)),
    ]


def test_duplicate_target_pairs_and_order() -> None:
    text = "\n".join(
        [
            "- [Alpha beta](b.md)",
            "- [Gamma](a.md)",
            "- [Delta](b.md)",
            "- [Epsilon](a.md)",
            "- [Zeta](b.md)",
            "- [Alpha](B.md)",
        ]
    )
    dups = checks(lint(text, [("a.md", ""), ("b.md", ""), ("B.md", "")]), "duplicate-link-target")
    assert [(f.subject, f.lines) for f in dups] == [
        ("b.md", (1, 3)),
        ("b.md", (1, 5)),
        ("b.md", (3, 5)),
        ("a.md", (2, 4)),
    ]
    # undefined Jaccard (no title tokens) is never a finding; exactly 0.2 is not
    text = "- [1](a.md)\n- [x y](a.md)\n- [one two three four five](a.md)\n- [five six](a.md)"
    dups = checks(lint(text, [("a.md", "")]), "duplicate-link-target")
    assert [(f.lines, f.similarity) for f in dups] == [((3, 4), 1 / 6)]
    assert (
        checks(
            lint("- [one two three four](a.md)\n- [four five](a.md)\n", [("a.md", "")]),
            "duplicate-link-target",
        )
        == []
    )  # exactly 0.2
    almost = "- [one two three four five six](a.md)\n- [six seven](a.md)\n"
    (f,) = checks(lint(almost, [("a.md", "")]), "duplicate-link-target")
    assert f.similarity == 1 / 7


def test_dangling_orphan_order_and_severity() -> None:
    files = [("z.md", "[[gone]] [[a]] [[gone]]"), ("a.md", "[[missing|alias]]"), ("c.md", None)]
    result = lint("- [A](a.md)", files)
    dang = checks(result, "dangling-wiki-link")
    assert [(f.subject, f.wiki) for f in dang] == [
        ("z.md", "gone"),
        ("z.md", "gone"),
        ("a.md", "missing"),
    ]
    assert [f.subject for f in checks(result, "orphan-memory-file")] == ["z.md"]
    assert all(f.severity == "info" for f in dang)


def test_orphans_only_against_a_read_index() -> None:
    result = lint("", [("a.md", "x"), ("b.md", "y")])
    assert [f.subject for f in result.findings] == ["a.md", "b.md"]
    # no index and no file in the memory format: not a memory directory
    assert lint(None, [("a.md", "x"), ("b.md", "y")]) == mi.LintResult(
        (), False, mi.Coverage(2, 0, 0, 0, 0, False)
    )
    # memory-format files but no index: said once, no orphan verdict
    memory = [("a.md", "---\nname: a\ntype: user\n---\nx"), ("b.md", "y")]
    result = lint(None, memory)
    assert result.swept and [f.check for f in result.findings] == ["index-not-read"]
    assert result.findings[0].message.startswith("MEMORY.md is missing: 2 memory files")
    # an index that could not be read proves nothing about orphans either
    result = lint(None, [("MEMORY.md", None), *memory])
    assert [f.check for f in result.findings] == ["index-not-read"]
    assert result.findings[0].message.startswith("MEMORY.md could not be read")
    (fix,) = repairs(None, [("MEMORY.md", None), *memory]).repairs
    assert fix.kind == "restore-index" and "delete" not in fix.message.replace("deleted", "")


def test_unreadable_topic_files_are_nothing_swept() -> None:
    index = "- [A](user_a.md)\n- [B](user_b.md)\n"
    result = lint(index, [("user_a.md", None), ("user_b.md", None)])
    assert not result.swept and result.findings == ()
    assert lint(index, [("user_a.md", None), ("user_b.md", "x")]).swept
    assert lint(index, []).swept  # every link dead: a real answer


def test_near_duplicate_type_gating() -> None:
    files = [
        ("feedback_retry_rule.md", ""),
        ("project_retry_rule.md", ""),
        ("retry_rule.md", "---\ntype: feedback\n---\n"),
        ("2024_retry_rule.md", ""),
        ("notes-retry-rule.md", ""),
        ("notes-retry_rule.md", ""),
    ]
    near = checks(lint("", files), "near-duplicate-slug")
    # the frontmatter type gives retry_rule.md a type; its tokens drop the 'retry_' prefix
    assert [(f.files, f.memory_type) for f in near] == []
    files = [("feedback_retry_rule.md", ""), ("x_retry_rule.md", "---\ntype: Feedback\n---\n")]
    (f,) = checks(lint("", files), "near-duplicate-slug")
    assert f.files == ("feedback_retry_rule.md", "x_retry_rule.md") and f.unlisted == 0
    # an empty token set never compares
    assert not checks(lint("", [("user_the.md", ""), ("user_of.md", "")]), "near-duplicate-slug")
    # boundary: 7/10 fires, 2/3 does not
    seven = "_".join(f"k{i}" for i in range(7))
    assert checks(
        lint("", [(f"user_{seven}_k7_k8_k9.md", ""), (f"user_{seven}.md", "")]),
        "near-duplicate-slug",
    )
    assert not checks(
        lint("", [(f"user_{seven}_k7_k8_k9_k10.md", ""), (f"user_{seven}.md", "")]),
        "near-duplicate-slug",
    )
    assert not checks(lint("", [("user_b_c.md", ""), ("user_b_c_d.md", "")]), "near-duplicate-slug")


def _oracle_pairs(sets: list[frozenset[str]]) -> list[tuple[int, int, float]]:
    out = []
    for i in range(len(sets)):
        for j in range(i + 1, len(sets)):
            a, b = sets[i], sets[j]
            if a and b:
                shared = len(a & b)
                similarity = shared / (len(a) + len(b) - shared)
                if similarity >= 0.7:
                    out.append((i, j, similarity))
    return out


def test_threshold_fractions() -> None:
    assert mi._NEAR_NUM / mi._NEAR_DEN == mi.NEAR_DUPLICATE_MIN_JACCARD
    assert (mi._NEAR_NUM, mi._NEAR_DEN) == (7, 10)
    assert mi._REPAIR_NUM / mi._REPAIR_DEN == mi.REPAIR_MIN_JACCARD
    assert (mi._REPAIR_NUM, mi._REPAIR_DEN) == (4, 10)
    # fewest shared tokens for 0.7: ceil(7 * (a + b) / 17)
    assert [mi._min_overlap(a, a) for a in range(1, 8)] == [1, 2, 3, 4, 5, 5, 6]
    assert mi._min_overlap(5, 7) == 5 and mi._min_overlap(7, 10) == 7
    assert mi._Nearest._need(4, 4) == 3 and mi._Nearest._need(2, 5) == 2
    assert mi._Nearest._need(1, 1) == 1 and mi._Nearest._need(5, 9) == 4


@given(
    st.lists(st.frozensets(st.sampled_from("abcdefghijklmn"), min_size=1, max_size=12), max_size=30)
)
def test_near_duplicates_equal_all_pairs(sets: list[frozenset[str]]) -> None:
    assert mi._similar_pairs(sets) == _oracle_pairs(sets)
    pairs = [(i, j) for i, j, _similarity in _oracle_pairs(sets)]
    assert sorted(mi._cluster_sets(sets)[0]) == _oracle_components(len(sets), pairs)


def _oracle_components(count: int, pairs: list[tuple[int, int]]) -> list[list[int]]:
    """Connected components of two or more, by repeated relabelling (no union-find)."""
    label = list(range(count))
    changed = True
    while changed:
        changed = False
        for i, j in pairs:
            low = min(label[i], label[j])
            if label[i] != low or label[j] != low:
                label[i] = label[j] = low
                changed = True
    groups: dict[int, list[int]] = {}
    for item in range(count):
        groups.setdefault(label[item], []).append(item)
    return sorted(group for group in groups.values() if len(group) >= 2)


def test_near_duplicate_cluster_lists_a_capped_number_of_files() -> None:
    names = [f"feedback_retry_backoff_rule_for_api_calls_{i}.md" for i in range(25)]
    (f,) = checks(lint("", [(n, "") for n in names]), "near-duplicate-slug")
    assert f.files == tuple(names[:10]) and f.unlisted == 15
    assert f.message.endswith(f"{names[9]} and 15 more: possibly one fact written again")
    assert f.subject.endswith(" and 15 more")
    (fix,) = [r for r in repairs("", [(n, "") for n in names]).repairs if r.finding == f]
    assert fix.survivor in names[:10] and "and 15 more into" in fix.message


def test_near_duplicate_clusters_scale_linearly() -> None:
    # generous adversarial bound (the measured figure is in benchmarks/memory_scale.py):
    # 10,000 names alike but for a trailing number are one cluster, not 50 million pairs
    names = [f"feedback_retry_backoff_rule_for_api_calls_{i}.md" for i in range(10_000)]
    start = time.process_time()
    result = lint("", [(n, "") for n in names])
    assert time.process_time() - start < 20
    (f,) = checks(result, "near-duplicate-slug")
    assert len(f.files) + f.unlisted == 10_000


def test_long_alike_names_are_clustered_pairwise() -> None:
    # limit: names of 9 or more tokens are compared pairwise (quadratic time)
    names = [f"user_a_b_c_d_e_f_g_h_i_j_k_{i}.md" for i in range(300)]
    (f,) = checks(lint("", [(n, "") for n in names]), "near-duplicate-slug")
    assert len(f.files) + f.unlisted == 300


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["feedback", "project", "Zz", "9"]),
            st.lists(st.sampled_from(["a", "b", "c", "d", "the", "1", "e"]), max_size=6),
        ),
        max_size=16,
    )
)
def test_near_duplicate_findings_equal_all_pairs(spec: list[tuple[str, list[str]]]) -> None:
    names = list(dict.fromkeys(f"{kind}_{'_'.join(words)}.md" for kind, words in spec))
    files = [(n, "") for n in names]
    near = checks(lint("", files), "near-duplicate-slug")
    expected = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            ki, kj = mi._name_type(names[i]), mi._name_type(names[j])
            if ki is None or ki != kj:
                continue
            a = frozenset(mi._name_tokens(names[i][:-3].split("_", 1)[1]))
            b = frozenset(mi._name_tokens(names[j][:-3].split("_", 1)[1]))
            if a and b:
                shared = len(a & b)
                sim = shared / (len(a) + len(b) - shared)
                if sim >= 0.7:
                    expected.append((i, j))
    clusters = _oracle_components(len(names), expected)
    assert [f.files for f in near] == [tuple(names[i] for i in c) for c in clusters]


def test_findings_grouped_in_check_order() -> None:
    files = [("user_a_b.md", "[[nothing]]"), ("user_b_a.md", "")]
    text = "- [X](gone.md)\n- [Alpha](user_a_b.md)\n- [Beta](user_a_b.md)\n" + "x\n" * 200
    order = [f.check for f in lint(text, files).findings]
    assert order == [
        "dead-index-link",
        "duplicate-link-target",
        "index-over-budget",
        "dangling-wiki-link",
        "orphan-memory-file",
        "near-duplicate-slug",
    ]


# ------------------------------------------------------------------ the load view


_WS = " \t\r\n\x0b\x0c"


def _ref_load(text: str) -> tuple[str, list[int]]:
    raw = text.split("\n")
    starts = [sum(len(x) + 1 for x in raw[:i]) for i in range(len(raw))]
    i = 0
    if text.startswith("---"):
        close = text.find("\n---", 3)
        if close >= 0:
            i = text[: close + 1].count("\n") + 1
    kept: list[int] = []
    fence = ""
    while i < len(raw):
        line = raw[i]
        if fence:
            kept.append(i)
            m = re.fullmatch(r" {0,3}(" + re.escape(fence[0]) + r"+)[ \t\r]*", line)
            if m and len(m.group(1)) >= len(fence):
                fence = ""
            i += 1
            continue
        m = re.match(r" {0,3}(`{3,}|~{3,})", line)
        if m:
            fence = m.group(1)
            kept.append(i)
            i += 1
            continue
        m = re.match(r" {0,3}<!--", line)
        if m:
            q = text.find("-->", starts[i] + m.end())
            if q >= 0:
                j = text[:q].count("\n")
                if re.fullmatch(r"[ \t\r]*", raw[j][q - starts[j] + 3 :]):
                    i = j + 1
                    continue
        kept.append(i)
        i += 1
    joined = "\n".join(raw[k] for k in kept)
    loaded = joined.strip(_WS)
    dropped = joined[: len(joined) - len(joined.lstrip(_WS))].count("\n")
    numbers = [k + 1 for k in kept[dropped : dropped + (loaded.count("\n") + 1 if loaded else 0)]]
    return loaded, numbers


def _u16(s: str) -> int:
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def _u8(s: str) -> int:
    return len(s.encode("utf-8", "surrogatepass"))


def _ref_budget(
    text: str, max_lines: int, max_chars: int, budget: int | None, given_bytes: int | None
) -> tuple[Any, ...] | None:
    loaded, numbers = _ref_load(text)
    if not loaded:
        return None
    lines = loaded.split("\n")
    il, ic = len(lines), _u16(loaded)
    size = given_bytes if given_bytes is not None else _u8(loaded)
    over = {}
    if il > max_lines:
        over["lines"] = il - max_lines
    if ic > max_chars:
        over["chars"] = ic - max_chars
    if budget is not None and size > budget:
        over["bytes"] = size - budget
    if not over:
        return None
    first = None
    limit = "bytes"
    if "lines" in over or "chars" in over or ("bytes" in over and given_bytes is None):
        for k in range(1, il + 1):
            prefix = "\n".join(lines[:k])
            failed = [
                k > max_lines,
                _u16(prefix) > max_chars,
                budget is not None and given_bytes is None and _u8(prefix) > budget,
            ]
            if any(failed):
                limit = mi.INDEX_LIMITS[failed.index(True)]
                first = numbers[k - 1]
                break
    return (limit, over[limit], first, il, ic, size if budget is not None else None, budget)


_LINE_PIECES = [
    "",
    "x",
    "  ",
    "---",
    "--- x",
    "<!-- a",
    "-->",
    "<!-- b -->",
    "```",
    "````",
    "~~~",
    "   ```",
    "    ```",
    "``` x",
    "    <!-- c -->",
    "   <!-- d -->  ",
    "- [A](a.md)",
    "\r",
    "😀",
    "é",
    "tail --> x",
    "<!--",
    "-->  \r",
    "a-->",
    "<!-- -->x",
    "\t",
    "\x0b",
    "2026-01-05 y",
    "<!-->",
    "x <!-- y -->",
]


@given(
    st.lists(st.sampled_from(_LINE_PIECES), max_size=14),
    st.sampled_from(["\n", "\r\n"]),
    st.integers(1, 6),
    st.integers(1, 40),
    st.one_of(st.none(), st.integers(1, 60)),
    st.one_of(st.none(), st.integers(0, 80)),
)
def test_load_view_matches_reference(
    pieces: list[str],
    sep: str,
    max_lines: int,
    max_chars: int,
    budget: int | None,
    given_bytes: int | None,
) -> None:
    text = sep.join(pieces)
    b = budget_finding(
        text, max_lines=max_lines, max_chars=max_chars, budget_bytes=budget, index_bytes=given_bytes
    )
    expected = _ref_budget(
        text, max_lines, max_chars, budget, given_bytes if budget is not None else None
    )
    if expected is None:
        assert b is None
    else:
        assert b is not None
        assert (
            b.limit,
            b.over,
            b.first_unloaded_line,
            b.index_lines,
            b.index_chars,
            b.index_bytes,
            b.budget_bytes,
        ) == expected
    loaded, numbers = _ref_load(text)
    view = mi._load_view(text)
    assert [n for n, _ in view.lines] == numbers
    assert "\n".join(p for _, p in view.lines) == loaded


def test_load_view_measures() -> None:
    view = mi._load_view("a\r\nb")
    assert (view.index_lines, view.index_chars, view.index_bytes) == (2, 4, 4)
    view = mi._load_view("\ud800x")  # a lone surrogate: 1 unit, 3 bytes
    assert (view.index_chars, view.index_bytes) == (2, 4)
    assert mi._load_view("  \n\t\n").lines == []


def test_stripped_content_never_counts() -> None:
    assert budget_finding("---\n" + "name: x\n" * 500 + "---\n") is None
    assert budget_finding("<!--\n" + "x\n" * 500 + "-->") is None
    assert budget_finding("\n" * 500 + "x" + " " * 30000) is None
    assert (
        budget_finding(
            "---\na: b\n---\n<!-- c -->", max_lines=1, max_chars=1, budget_bytes=1, index_bytes=999
        )
        is None
    )  # loads nothing
    assert budget_finding("   <!-- c -->\n" * 300 + "ok") is None


def test_fence_rules() -> None:
    body = "\n".join(["<!-- hidden -->"] * 3)
    assert budget_finding("```\n" + body + "\n```", max_lines=4) is not None
    assert budget_finding("```\n" + body + "\n```\n<!-- x -->", max_lines=5) is None
    # a shorter closing run does not close; an unclosed fence runs to the end
    b = budget_finding("````\n```\n<!-- x -->\n````\n<!-- y -->", max_lines=4)
    assert b is None
    b = budget_finding("~~~\n```\n<!-- x -->", max_lines=2)
    assert b is not None and b.index_lines == 3
    b = budget_finding("```\n``` trailing\n<!-- x -->", max_lines=2)
    assert b is not None and b.index_lines == 3


def test_fence_close_indent() -> None:
    # a closing run indented 4 spaces does not close; 3 spaces does
    assert budget_finding("```\n    ```\n<!-- x -->", max_lines=2).index_lines == 3
    assert budget_finding("```\n   ```\n<!-- x -->", max_lines=1).index_lines == 2
    assert budget_finding("~~~~\n~~~~~ \t\n<!-- x -->", max_lines=1).index_lines == 2


def test_comment_rules() -> None:
    assert budget_finding("<!-- a\nb\nc --> \t", max_lines=1, max_chars=1) is None
    assert budget_finding("a\n<!--\n-->b\nc", max_lines=3).index_lines == 4
    assert budget_finding("a\n<!-->\nb -->\nc", max_lines=1).index_lines == 2
    # an opener whose comment fails resumes on the next line; a later opener may strip
    b = budget_finding("<!-- a --> x\n<!-- b -->\nz", max_lines=1)
    assert b.index_lines == 2 and b.first_unloaded_line == 3
    many = "\n".join(["<!-- open"] * 30) + "\n-->"
    assert budget_finding(many + "\nz", max_lines=1) is None


def test_budget_binding_limit() -> None:
    # the first line failing several limits: lines before chars before bytes
    b = budget_finding("aa\nbbbbbbbbbb", max_lines=1, max_chars=5, budget_bytes=5)
    assert (b.limit, b.over, b.first_unloaded_line) == ("lines", 1, 2)
    assert "chars" in b.message and "bytes" in b.message
    b = budget_finding("aaaaaa", max_chars=5, budget_bytes=5)
    assert (b.limit, b.over, b.index_bytes, b.budget_bytes) == ("chars", 1, 6, 5)
    b = budget_finding("éé", max_chars=5, budget_bytes=3)
    assert (b.limit, b.over, b.first_unloaded_line) == ("bytes", 1, 1)
    # a caller's byte count has no position: it binds only when nothing else is over
    b = budget_finding("aaaaaa", max_chars=5, budget_bytes=3, index_bytes=10)
    assert (b.limit, b.first_unloaded_line, b.index_bytes) == ("chars", 1, 10)
    b = budget_finding("ab", budget_bytes=3, index_bytes=10)
    assert (b.limit, b.over, b.first_unloaded_line) == ("bytes", 7, None)
    assert budget_finding("ab", budget_bytes=3, index_bytes=3) is None
    assert budget_finding("ab", budget_bytes=3, index_bytes=0) is None
    assert budget_finding("abcd", budget_bytes=3, index_bytes=0) is None
    with pytest.raises(ValueError, match="index_bytes must be >= 0"):
        budget_finding("abcd", budget_bytes=3, index_bytes=-1)


def test_options_of_the_wrong_type_raise_naming_the_option() -> None:
    text = "\n".join(["x"] * 201)
    for option in ("max_lines", "max_chars"):
        for bad in (True, False, "10", "200", 2.0, None):
            with pytest.raises(TypeError, match=f"{option} must be an int"):
                lint(text, [], **{option: bad})
            with pytest.raises(TypeError, match=f"{option} must be an int"):
                repairs(text, [], **{option: bad})
        for bad in (0, -5):
            with pytest.raises(ValueError, match=f"{option} must be >= 1"):
                lint(text, [], **{option: bad})
    for option in ("budget_bytes", "index_bytes"):
        for bad in (True, "5", 5.0):
            with pytest.raises(TypeError, match=f"{option} must be an int or None"):
                lint(text, [], **{option: bad})
    with pytest.raises(ValueError, match="budget_bytes must be >= 1"):
        lint(text, [], budget_bytes=0)
    # data never raises: a wrong index or inventory is read as nothing
    assert lint(42, 42).swept is False  # type: ignore[arg-type]
    assert budget_finding(text, max_lines=201) is None
    assert budget_finding(text, max_lines=1).over == 200
    assert budget_finding("x" * 10, max_chars=9).over == 1
    assert budget_finding("x" * 10, max_chars=10) is None
    assert budget_finding("x" * 10, budget_bytes=9).over == 1
    assert budget_finding("x" * 10, index_bytes=999) is None  # bytes are opt-in
    assert budget_finding("x" * 10, budget_bytes=9, index_bytes=1) is None


def test_budget_message_names_everything() -> None:
    b = budget_finding("\n".join(["c" * 100] * 300))
    for part in ("lines", "300", "200", "100", "201", "30299", "25000"):
        assert part in b.message


# ------------------------------------------------------------------ graph


def test_graph_rules() -> None:
    files = [
        ("a.md", "[[b]] [[b]] [[a]] [[c]] [[gone]]"),
        ("b.md", "[[a]]"),
        ("c.md", "[[a]]"),
        ("d.md", "[[a]] [[x]]"),
        ("e.md", None),
        ("MEMORY.md", "[[a]]"),
        ("user_f.md", "[[e]]"),
    ]
    g = build_memory_link_graph(files)
    assert [n.file for n in g.nodes] == ["a.md", "b.md", "c.md", "e.md", "d.md", "user_f.md"]
    assert g.nodes[0] == mi.GraphNode("a.md", None, 2, 3)
    assert mi.GraphNode("e.md", None, 0, 1) in g.nodes
    assert mi.GraphNode("user_f.md", "user", 1, 0) in g.nodes
    assert g.edges[:2] == (mi.Edge("a.md", "b.md"), mi.Edge("a.md", "c.md"))
    assert g.backlinks == {
        "a.md": ("b.md", "c.md", "d.md"),
        "b.md": ("a.md",),
        "c.md": ("a.md",),
        "e.md": ("user_f.md",),
    }
    assert g.hubs == (mi.Hub("a.md", 3),)
    assert g.unlinked == ("d.md", "user_f.md")
    assert g.dangling == (mi.DanglingLink("a.md", "gone"), mi.DanglingLink("d.md", "x"))
    empty = build_memory_link_graph()
    assert empty == mi.LinkGraph((), (), {}, (), (), ())
    two = build_memory_link_graph([("h.md", ""), ("x.md", "[[h]]"), ("y.md", "[[h]]")])
    assert two.hubs == ()


# ------------------------------------------------------------------ repairs


def test_repair_candidates_and_kinds() -> None:
    files = [
        (
            "feedback_ship_early.md",
            "---\nname: ship-early-rule\n"
            "description: Ship small PRs\n---\n[[feedback_ship_erly]] [[qqq]]",
        ),
        ("project_plan.md", "x"),
        ("user_retry_rule.md", ""),
        ("user_retry_rules.md", ""),
        ("user_rule_retry.md", ""),
    ]
    text = (
        "- [Plan](project_plan.md)\n- [Other](project_plan.md)\n"
        "- [Ship](feedback_ship_early_old.md)\n- [Retry](user_rule_retry.md)"
    )
    result = repairs(text, files)
    kinds = [(r.kind, r.candidate, r.survivor) for r in result.repairs]
    assert kinds == [
        ("fix-dead-link", "feedback_ship_early.md", None),
        ("split-shared-target", None, None),
        ("fix-dangling-wiki", "feedback_ship_early.md", None),  # {feedback,ship}: 2/4
        ("index-orphan", None, None),
        ("index-orphan", None, None),
        ("index-orphan", None, None),
        ("merge-near-duplicate", None, "user_rule_retry.md"),
    ]
    # the dangling [[feedback_ship_erly]] has a candidate only if Jaccard >= 0.4 holds
    fix = result.repairs[0]
    assert "feedback_ship_early.md" in fix.message and "retarget" in fix.message
    orphan = result.repairs[3]
    assert "- [ship-early-rule](feedback_ship_early.md) — Ship small PRs" in orphan.message
    assert "- [" not in result.repairs[4].message


def test_dangling_repair_only_with_candidate() -> None:
    files = [("feedback_ship_early.md", "[[feedback ship]] [[zzz]]")]
    result = repairs("- [S](feedback_ship_early.md)", files)
    (r,) = result.repairs
    assert (r.kind, r.severity, r.candidate) == (
        "fix-dangling-wiki",
        "info",
        "feedback_ship_early.md",
    )
    assert r.finding.wiki == "feedback ship" and "did you mean" in r.message


def test_nearest_rules() -> None:
    inv = mi._Inventory([("p_q.md", "---\nname: r s t\n---\n"), ("x_y.md", None), ("r_s.md", "")])
    near = mi._Nearest(inv)
    assert near("p q") == "p_q.md"
    assert near("r s t") == "p_q.md"  # a frontmatter-name key maps to its file
    assert near("r s") == "r_s.md"  # exact 1.0 beats 2/3
    assert near("r") == "r_s.md"  # 1/2 on r-s beats 1/3 on r-s-t
    assert near("x y z") == "x_y.md"  # contentless names are keys
    assert near("p q r s t") == "p_q.md"  # 3/5 on r-s-t beats 2/5 on p-q
    assert near("zz") is None and near("") is None and near("the") is None
    tie = mi._Nearest(mi._Inventory([("p_q.md", ""), ("q_r.md", "")]))
    assert tie("q") == "p_q.md"  # earliest key wins a tie
    late = mi._Nearest(mi._Inventory([("q_r.md", ""), ("p_q.md", "")]))
    assert late("q") == "q_r.md"
    # a frontmatter name shared with an earlier file name resolves to that file name
    shared = mi._Nearest(mi._Inventory([("m_n.md", ""), ("other.md", "---\nname: m n\n---\n")]))
    assert shared("m n") == "m_n.md"


def _scan_nearest(inv: Any, ref: str) -> str | None:
    keys: dict[str, str] = {}
    for name in inv.order:
        front = inv.frontmatter(name).name
        for key in [normalize_slug(name)] + ([normalize_slug(front)] if front else []):
            target = inv.slug_first.get(key) or inv.front_first.get(key)
            if key not in keys and target:
                keys[key] = target
    words = set(mi._name_tokens(normalize_slug(ref)))
    best, answer = 0.0, None
    for key, target in keys.items():
        similarity = mi._jaccard(words, set(mi._name_tokens(key)))
        if similarity is not None and similarity >= 0.4 and similarity > best:
            best, answer = similarity, target
    return answer


_WORD = st.sampled_from(["ab", "cd", "ef", "gh", "ij", "kl", "mn", "op", "the", "7"])


@given(
    st.lists(
        st.tuples(
            st.lists(_WORD, min_size=1, max_size=7), st.booleans(), st.lists(_WORD, max_size=5)
        ),
        max_size=12,
    ),
    st.lists(_WORD, max_size=9),
)
def test_nearest_equals_scan(
    spec: list[tuple[list[str], bool, list[str]]], query: list[str]
) -> None:
    files: list[tuple[str, str | None]] = []
    for words, readable, front in spec:
        content = f"---\nname: {' '.join(front)}\n---\n" if front else ""
        files.append(("_".join(words) + ".md", content if readable else None))
    inv = mi._Inventory(files)
    ref = "-".join(query)
    assert mi._Nearest(inv)(ref) == _scan_nearest(inv, ref)


def test_nearest_boundary_two_fifths() -> None:
    near = mi._Nearest(mi._Inventory([("aa_bb_cc_dd_ee.md", "")]))
    assert near("aa bb") == "aa_bb_cc_dd_ee.md"  # 2/5 == 0.4: at the threshold
    assert near("aa") is None  # 1/5
    assert near("aa bb xx yy") is None  # 2/7


def test_survivor_rules() -> None:
    files = [("user_a_b.md", ""), ("user_b_a_.md", "")]
    (r,) = [r for r in repairs("", files).repairs if r.kind == "merge-near-duplicate"]
    assert r.survivor == "user_b_a_.md"  # the longer name when neither is referenced
    files = [("user_a_b.md", ""), ("user_b_a.md", "")]
    (r,) = [r for r in repairs("", files).repairs if r.kind == "merge-near-duplicate"]
    assert r.survivor == "user_a_b.md"  # A on a tie
    (r,) = [
        r for r in repairs("- [X](user_b_a.md)", files).repairs if r.kind == "merge-near-duplicate"
    ]
    assert r.survivor == "user_b_a.md" and "merge user_a_b.md into user_b_a.md" in r.message
    (r,) = [
        r
        for r in repairs("- [X](user_b_a.md)\n- [X](user_a_b.md)", files).repairs
        if r.kind == "merge-near-duplicate"
    ]
    assert r.survivor == "user_a_b.md"
    files = [("user_a_b_long.md", ""), ("user_b_a_long.md", ""), ("x", "")]
    (r,) = [
        r
        for r in repairs("- [Y](user_a_b_long.md)", files).repairs
        if r.kind == "merge-near-duplicate"
    ]
    assert r.survivor == "user_a_b_long.md"


def test_repairs_not_swept() -> None:
    assert repairs() == mi.RepairResult((), False, Coverage(0, 0, 0, 0, 0, False))
    assert repairs(None, [("a.md", None)]).swept is False


def test_orphan_pointer_title_falls_back_to_name() -> None:
    files = [("user_x.MD", "---\ndescription: Why it matters\n---\n")]
    (r,) = repairs("", files).repairs
    assert "- [user_x](user_x.MD) — Why it matters" in r.message


def test_prune_index_repair_covers_binding_limit() -> None:
    lines = [f"- [F{i}](f{i}.md) 2026-01-{i % 28 + 1:02d}" for i in range(205)]
    result = repairs("\n".join(lines), [])
    (r,) = [r for r in result.repairs if r.kind == "prune-index"]
    assert r.over_lines == 5 and r.over_chars is None and r.over_bytes is None
    assert len(r.prune) == 5
    assert "line 201" in r.message or "201" in r.message


# ------------------------------------------------------------------ prune and compaction


def test_prune_candidates() -> None:
    text = "\n".join(
        [
            "---",
            "d: 2020-01-01",
            "---",
            "<!-- 2019-01-01 -->",
            "a 2026-03-01 x",
            "b 2026-01-01",
            "c 2026-01-05T10:00",
            "d x2026-01-02",
            "e 2026-01-01_x",
            "f (2025-12-31)",
            "g 2026-02-01 and 2020-01-01",
            "```",
            "h 2024-01-01",
            "```",
            "  i 2023-05-05  " + "z" * 120,
        ]
    )
    got = suggest_prune_candidates(text)
    assert [(c.line, c.date) for c in got] == [
        (15, "2023-05-05"),
        (13, "2024-01-01"),
        (10, "2025-12-31"),
        (6, "2026-01-01"),
        (11, "2026-02-01"),
    ]
    assert len(suggest_prune_candidates(text, 0)) == mi.DEFAULT_PRUNE_LIMIT
    c = got[0]
    assert c.text == ("i 2023-05-05  " + "z" * 120)[:100] and len(c.text) == 100
    assert c.size_bytes == 137 and c.size_chars == 137
    assert [c.line for c in suggest_prune_candidates(text, 137)] == [15]
    assert [c.line for c in suggest_prune_candidates(text, 138)] == [15, 13]
    assert [c.line for c in suggest_prune_candidates(text, over_lines=3)] == [15, 13, 10]
    assert [c.line for c in suggest_prune_candidates(text, over_chars=137)] == [15]
    assert [c.line for c in suggest_prune_candidates(text, over_chars=138)] == [15, 13]
    assert len(suggest_prune_candidates(text, 10**9)) == 6  # all when none suffices
    with pytest.raises(TypeError, match="over_bytes must be an int or None"):
        suggest_prune_candidates(text, True)
    with pytest.raises(ValueError, match="over_lines must be >= 0"):
        suggest_prune_candidates(text, over_lines=-1)
    assert len(suggest_prune_candidates(text, None)) == 5  # None: no target
    assert suggest_prune_candidates("", 5) == ()
    assert suggest_prune_candidates(None) == ()  # type: ignore[arg-type]


def test_nearest_reach_boundary_and_cross_size_tie() -> None:
    # 2 of 5 tokens shared is Jaccard 0.4 exactly: found; 2 of 6 is below: none
    def candidate(files: dict[str, str]) -> str | None:
        result = suggest_memory_repairs("- [A](aa_bb.md)\n", files)
        return next(r.candidate for r in result.repairs if r.kind == "fix-dead-link")

    assert candidate({"aa_bb_cc_dd_ee.md": "x"}) == "aa_bb_cc_dd_ee.md"
    assert candidate({"aa_bb_cc_dd_ee_ff.md": "x"}) is None
    # equal similarity (0.5) from keys of different sizes: the earlier file wins
    for files, want in (
        (["aa_bb_cc_xx_yy.md", "aa_bb.md"], "aa_bb_cc_xx_yy.md"),
        (["aa_bb.md", "aa_bb_cc_xx_yy.md"], "aa_bb.md"),
    ):
        result = suggest_memory_repairs("- [A](aa_bb_cc_dd.md)\n", {f: "x" for f in files})
        assert [r.candidate for r in result.repairs if r.kind == "fix-dead-link"] == [want]


def test_nearest_postings_arithmetic() -> None:
    # white-box: the prefix-filter sizes (an over-wide prefix would only cost time)
    assert [mi._Nearest._shortest(n) for n in (1, 2, 3, 5, 10, 11)] == [1, 1, 2, 2, 4, 5]
    assert mi._Nearest._probe(5, 3) == 3 and mi._Nearest._probe(1, 1) == 1
    assert [mi._Nearest._need(w, k) for w, k in ((2, 5), (1, 1), (4, 4))] == [2, 1, 3]


def test_byte_limit_first_unloaded_line_exact() -> None:
    # lines and their breaks count: 4 + 1 + 4 = 9 bytes load exactly two lines
    for budget, first, over in ((8, 2, 6), (9, 3, 5), (13, 3, 1)):
        (f,) = lint_memory_integrity("aaaa\nbbbb\ncccc", None, budget_bytes=budget).findings
        assert (f.first_unloaded_line, f.over, f.limit) == (first, over, "bytes")
    assert lint_memory_integrity("aaaa\nbbbb\ncccc", None, budget_bytes=14).findings == ()


def test_prune_targets_of_one_unit() -> None:
    # 1 is the smallest target in every unit: one line meets it (0 means "no target")
    text = "\n".join(f"line {n} 2026-01-{n:02d}" for n in range(1, 8))
    assert len(suggest_prune_candidates(text)) == mi.DEFAULT_PRUNE_LIMIT
    for kwargs in ({"over_bytes": 1}, {"over_lines": 1}, {"over_chars": 1}):
        assert [c.line for c in suggest_prune_candidates(text, **kwargs)] == [1]
    for kwargs in ({"over_bytes": 0}, {"over_lines": 0}, {"over_chars": 0}):
        assert len(suggest_prune_candidates(text, **kwargs)) == mi.DEFAULT_PRUNE_LIMIT


def test_prune_fence_close_then_comment() -> None:
    # a closed fence ends code: a later block comment is stripped again; a shorter
    # backtick run does not close a longer fence
    text = "```\n```\n<!-- 2019-01-01 -->\na 2020-01-01"
    assert [c.line for c in suggest_prune_candidates(text)] == [4]
    text = "```python\n```\n<!-- 2019-01-01 -->\na 2020-01-01"  # info string: run is 3
    assert [c.line for c in suggest_prune_candidates(text)] == [4]
    text = "````\n```\n<!-- 2019-01-01 -->\n````\n<!-- 2018-01-01 -->\na 2020-01-01"
    assert [c.line for c in suggest_prune_candidates(text)] == [3, 6]
    # an unclosed comment hides nothing: its line and the rest still load
    text = "x\n<!-- 2019-01-01\na 2020-01-01"
    assert [c.line for c in suggest_prune_candidates(text)] == [2, 3]
    text = "<!-- a -->\n<!-- 2019-01-01\na 2020-01-01 -"
    assert [c.line for c in suggest_prune_candidates(text)] == [2, 3]


def test_prune_sizes_count_whole_line() -> None:
    (c,) = suggest_prune_candidates("  😀 2026-01-01 é  \r\nx")
    assert c.line == 1 and c.size_bytes == _u8("  😀 2026-01-01 é  ") + 1
    assert c.size_chars == _u16("  😀 2026-01-01 é  ") + 1 and c.text == "😀 2026-01-01 é"
    tie = suggest_prune_candidates("b 2026-01-01\na 2026-01-01")
    assert [c.line for c in tie] == [1, 2]


def test_compaction_rules() -> None:
    long_tail = " x" * 60
    assert compact_index_lines("- [T](t.md)" + long_tail, 50).changes  # no separator needed
    assert compact_index_lines("[T](t.md)" + long_tail, 50).changes == ()  # not an entry
    assert compact_index_lines("- [T](sub/t.md)" + long_tail, 50).changes == ()
    assert compact_index_lines("- [T](t.MD)" + long_tail, 50).changes == ()
    assert compact_index_lines("- [T](.md)" + long_tail, 50).changes == ()
    assert compact_index_lines("-[T](t.md)" + long_tail, 50).changes == ()
    c = compact_index_lines("  * see [T](t.md) :  " + "y" * 80, 50)
    assert c.text == "  * see [T](t.md) :  " + "y" * 28 + "…"
    head = "- [" + "h" * 40 + "](t.md) — "
    c = compact_index_lines(head + "z" * 30, 50)
    assert c.text == head + "z" * 30 and c.skipped == (mi.SkippedLine(1, c.skipped[0].reason),)
    c = compact_index_lines("- [T](t.md)" + " " * 60, 30)  # empty tail after the head
    assert c.changes == () and c.skipped == ()
    assert compact_index_lines("- [T](t.md)" + "—" * 60, 30).changes == ()  # cut empties
    # the cut never ends inside a half-cut link; a complete one is kept
    c = compact_index_lines("- [T](t.md) — aaaa [[wiki_name]] " + "q" * 50, 50)
    assert c.text == "- [T](t.md) — aaaa [[wiki_name]]…"
    c = compact_index_lines("- [T](t.md) — aaaa [[wiki_name_that_is_long]] " + "q" * 50, 40)
    assert c.text == "- [T](t.md) — aaaa…"
    c = compact_index_lines("- [T](t.md) — aaaa [x](y) " + "q" * 50, 35)
    assert c.text == "- [T](t.md) — aaaa [x](y)…"
    # exactly max_len is untouched; CRLF breaks are kept
    assert compact_index_lines("- [T](t.md) " + "w" * 38, 50).changes == ()
    exact = "- [T](t.md) " + "w" * 20 + " " + "w" * 17  # 50 characters, would shorten
    assert len(exact) == 50 and compact_index_lines(exact, 50).text == exact
    assert compact_index_lines(exact + "w", 50).text == "- [T](t.md) " + "w" * 20 + "…"
    text = "- [T](t.md) " + "w " * 40 + "\r\nnext\r\n"
    c = compact_index_lines(text, 30)
    assert c.text.endswith("…\r\nnext\r\n") and c.changes[0].line == 1
    assert compact_index_lines(None).text == "" and compact_index_lines(42, 50).changes == ()


def test_compaction_link_at_tail_start() -> None:
    # explicit examples (not hypothesis): a "[[" or "[" opening the tail, complete or cut
    head = "- [T](t.md) "
    assert compact_index_lines(head + "[[wiki_name]] " + "q" * 50, 40).text == (
        head + "[[wiki_name]] " + "q" * 13 + "…"
    )
    line = head + "[[wiki_name_that_is_far_too_long]] " + "q" * 50
    assert compact_index_lines(line, 40).text == line  # the cut would empty the tail
    line = head + "[x " + "q" * 50
    assert compact_index_lines(line, 40).text == line
    assert compact_index_lines(head + "[x](y) " + "q" * 50, 40).text == (
        head + "[x](y) " + "q" * 20 + "…"
    )
    line = head + "a[[wiki_name_that_is_far_too_long]] " + "q" * 50
    assert compact_index_lines(line, 40).text == head + "a…"
    assert compact_index_lines(head + "a [[w]] [b " + "q" * 50, 30).text == head + "a [[w]]…"


def test_compaction_line_breaks_exact() -> None:
    # an LF-only break adds no CR; a CR at the very end (no LF after) is line content
    tail = "w " * 40
    assert compact_index_lines("- [T](t.md) " + tail + "\nnext", 30).text == (
        "- [T](t.md) w w w w w w w w…\nnext"
    )
    c = compact_index_lines("x\n- [T](t.md) " + tail + "w\r", 30)
    assert c.text == "x\n- [T](t.md) w w w w w w w w…" and c.changes[0].before_chars == 94
    # an "](x.md)" with no "[" after the bullet is no entry link
    assert mi._entry_head("- abc](x.md) tail") == -1
    assert mi._entry_head("- a]b [c](x.md) t") == 16


def test_compaction_max_len_fallback() -> None:
    line = "- [T](t.md) — " + "word " * 50
    default = compact_index_lines(line + "x" * 200)
    assert len(default.changes[0].after) <= 200 and default.changes[0].after_chars <= 200
    for bad in (True, "50", 50.0):
        with pytest.raises(TypeError, match="max_len must be an int"):
            compact_index_lines(line, bad)
    for bad in (20, 0):
        with pytest.raises(ValueError, match="max_len must be >= 21"):
            compact_index_lines(line, bad)
    assert len(compact_index_lines(line, 21).text) <= 21


def test_compaction_space_rule_boundary() -> None:
    # the last space must sit strictly after half the room to cut there
    head = "- [T](t.md) "
    room = 30 - len(head) - 1  # 17
    tail = "a" * 8 + " " + "b" * 40  # space at index 8 (8 <= 8.5): no cut at the space
    c = compact_index_lines(head + tail, 30)
    assert c.text == head + tail[:room] + "…"
    tail = "a" * 9 + " " + "b" * 40  # space at index 9 > 8.5: cut there
    assert compact_index_lines(head + tail, 30).text == head + "a" * 9 + "…"


def test_compaction_head_boundaries() -> None:
    # a head of exactly max_len - 1 characters is reported; one shorter is compacted
    head = "- [" + "h" * 36 + "](t.md) — "  # 49 characters
    assert len(head) == 49
    c = compact_index_lines(head + "z" * 30, 50)
    assert c.changes == () and [s.line for s in c.skipped] == [1]
    assert c.skipped[0].reason
    shorter = head[:3] + head[4:]  # 48 characters: room for one character
    c = compact_index_lines(shorter + "z" * 30, 50)
    assert c.skipped == () and c.text == shorter + "z…"
    # an empty title still makes a memory-local link
    c = compact_index_lines("- [](abc.md) " + "t " * 40, 30)
    assert c.text.startswith("- [](abc.md) t") and c.changes
    assert mi._entry_head("- [](abc.md) x") == 13
    assert mi._entry_head("- [](x.md)") == 10 and mi._entry_head("- [](.md)") == -1
    assert mi._entry_head("* [y](x.md) - z") == 14
    assert mi._entry_head("- [T](t.md) —abc") == 13
    assert mi._entry_head("- [T](t.md) - - x") == 14
    # a bullet line without a memory-local link is no entry, whatever it ends with
    for tail in (" ", "-", " — "):
        line = "- [T](sub/t.md) " + "x " * 40 + tail
        assert mi._entry_head(line) == -1
        assert compact_index_lines(line, 30).text == line
    assert mi._entry_head("-\t[a](b.md)") == 11 and mi._entry_head("- x") == -1


def test_compaction_space_rule_even_room() -> None:
    head = "- [T](t.md) "  # 12 characters; room = 31 - 12 - 1 = 18
    tail = "a" * 9 + " " + "b" * 40  # space at index 9 == 18 / 2: not after half
    assert compact_index_lines(head + tail, 31).text == head + tail[:18] + "…"
    tail = "a" * 10 + " " + "b" * 40
    assert compact_index_lines(head + tail, 31).text == head + "a" * 10 + "…"


def test_an_entry_that_is_all_head_is_left_alone() -> None:
    for line in ("- [Some title](some_title.md) —", "- [Some title](some_title.md) —  "):
        assert compact_index_lines(line, 21) == compact_index_lines(line, 200)
        assert compact_index_lines(line, 21).text == line


def test_a_link_needs_a_title() -> None:
    assert extract_index_links("[](a.md)") == ()
    assert extract_index_links("- [](a.md) and [b](b.md)") == (mi.IndexLink("b", "b.md", 1),)
    assert extract_index_links("[](a[b](c.md)") == (mi.IndexLink("b", "c.md", 1),)


def test_a_cut_that_saves_no_byte_is_not_suggested() -> None:
    line = "- [T](t.md) " + "a" * 20  # 32 bytes; cut to 30 chars it is 32 bytes again
    assert compact_index_lines(line, 30) == compact_index_lines(line, 200)
    assert compact_index_lines(line + "a", 30).changes  # one byte more: it saves one


def test_compaction_only_if_shorter_in_bytes() -> None:
    line = "- [T](t.md) " + "a" * 19  # 31 chars; new line would be as many bytes
    c = compact_index_lines(line, 30)
    assert c.changes == () and c.text == line and c.skipped == ()  # not a too-long head


_HEAD_RE = re.compile(r"\s*[-*]\s.*?\[[^\]]*\]\([^)\s/\\]+\.md\)\s*(?:[—:·-]\s*)?")


@given(st.text(alphabet="-* [](). md/\\x—:", max_size=30))
@example("- [T](t.md) —")  # the line ends right after its separator
@example("- [T](t.md) : ")
def test_entry_head_matches_reference(line: str) -> None:
    match = _HEAD_RE.match(line)
    assert mi._entry_head(line) == (match.end() if match else -1)


@given(
    st.lists(
        st.sampled_from(
            [
                "- [T](t.md) — ",
                "word ",
                "[[w]] ",
                "[a](b) ",
                "[x",
                "é",
                "😀",
                "\n",
                "\r\n",
                " — ",
                "* [Long title here](x.md): ",
            ]
        ),
        max_size=40,
    ),
    st.integers(21, 60),
)
def test_compaction_idempotent_never_grows(parts: list[str], max_len: int) -> None:
    text = "".join(parts)
    once = compact_index_lines(text, max_len)
    assert once.after_bytes <= once.before_bytes and once.saved_bytes >= 0
    assert once.before_bytes == _u8(text) and once.after_bytes == _u8(once.text)
    assert once.saved_bytes == sum(ch.saved_bytes for ch in once.changes)
    assert compact_index_lines(once.text, max_len).text == once.text
    before = text.split("\n")
    after = once.text.split("\n")
    assert len(before) == len(after)
    for ch in once.changes:
        old, new = before[ch.line - 1], after[ch.line - 1]
        assert _u8(new) < _u8(old) and new.endswith(("…", "…\r"))
        head = mi._entry_head(old.rstrip("\r"))
        assert new.startswith(old[:head]) and len(ch.after) <= max_len
    if not once.changes:
        assert once.text == text


# ------------------------------------------------------------------ fail-soft (never raises)


_ANY = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.text(max_size=20),
        st.binary(max_size=5),
        st.floats(),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(st.sampled_from(["name", "content", "x"]), inner, max_size=3),
    ),
    max_leaves=12,
)


@given(_ANY, _ANY, st.integers(1, 300), st.integers(1, 30000), st.none() | st.integers(1, 99))
def test_never_raises_on_data(index: Any, files: Any, a: int, b: int, c: int | None) -> None:
    for fn in (lint, repairs):
        result = fn(index, files, max_lines=a, max_chars=b, budget_bytes=c, index_bytes=b)
        assert result.swept in (True, False)
        if not result.swept:
            assert next(iter(result)) == ()
    build_memory_link_graph(files)
    compact_index_lines(index, a + 20)
    suggest_prune_candidates(index, a, over_lines=b, over_chars=c)
    extract_index_links(index), extract_wiki_links(index), parse_frontmatter(index)
    normalize_slug(index)


_TEXTISH = st.text(alphabet="[]()!|#-_*.mdMD :\n\r\t<>`~ax😀é2026", max_size=60)


@given(
    _TEXTISH,
    st.lists(
        st.tuples(
            st.text(alphabet="ab_.mdMD-", min_size=1, max_size=8), st.one_of(st.none(), _TEXTISH)
        ),
        max_size=6,
    ),
)
def test_never_raises_on_text(index: str, files: list[tuple[str, str | None]]) -> None:
    first = lint(index, files)
    assert lint(index, files) == first  # deterministic
    result = repairs(index, files)
    assert [r.finding for r in result.repairs] == [
        f for f in first.findings if any(r.finding == f for r in result.repairs)
    ]
    for f in first.findings:
        assert f.check in mi.CHECKS and f.severity in ("warn", "info")
        assert "\n" not in f.message
    graph = build_memory_link_graph(files)
    assert sum(n.backlink_count for n in graph.nodes) == len(graph.edges)
    assert len(graph.dangling) == len(checks(first, "dangling-wiki-link"))


# ------------------------------------------------------------------ documented limits


def test_limit_correctness_not_checked() -> None:
    files = [("user_fact.md", "The moon is made of cheese.")]
    assert lint("- [Fact](user_fact.md)", files).findings == ()


def test_limit_duplicates_under_different_wording_or_types() -> None:
    files = [
        ("feedback_retry_policy.md", ""),
        ("feedback_backoff_rules.md", ""),
        ("project_retry_policy.md", ""),
        ("retry-policy.md", ""),
        ("retry_policy.md", ""),
    ]
    assert not checks(lint("", files), "near-duplicate-slug")
    text = "- [Retry policy](a.md)\n- [Retry backoff policy note](a.md)"  # 2/4 >= 0.2
    assert not checks(lint(text, [("a.md", "")]), "duplicate-link-target")


def test_limit_anchor_path_scheme_links() -> None:
    files = [("x.md", ""), ("y.md", "")]
    text = "- [X](x.md#section)\n- [Y](sub/y.md)\n- [Q](x.md?q=1)\n- [S](file:x.md)"
    result = lint(text, files)
    assert not checks(result, "dead-index-link")
    assert [f.subject for f in checks(result, "orphan-memory-file")] == ["x.md", "y.md"]
    assert not checks(lint("- [G](gone.md#s)", []), "dead-index-link")


def test_limit_wiki_in_code_and_frontmatter_count() -> None:
    files = [("a.md", "---\nrelated: [[gone_one]]\n---\n```\n[[gone_two]]\n```")]
    assert [f.wiki for f in checks(lint("", files), "dangling-wiki-link")] == [
        "gone_one",
        "gone_two",
    ]


def test_limit_frontmatter_not_yaml() -> None:
    assert parse_frontmatter("---\nother:\n  type: project\n---").memory_type == "project"
    assert parse_frontmatter("---\ndescription: >-\n  folded text\n---").description is None
    assert parse_frontmatter("---\nname: a\n  b\n---").name == "a"


def test_limit_invisible_files() -> None:
    few = lint("- [A](a.md)", [("a.md", "x")])
    assert few.findings == () and few.coverage.reached == 1  # 1-of-1 or 1-of-400: unknown


def test_limit_load_view_approximation() -> None:
    # a comment not starting its line counts; blank lines beside a stripped block count
    assert budget_finding("x <!--\n" + "y\n" * 3 + "-->", max_lines=4).index_lines == 5
    assert budget_finding("a\n\n<!-- c -->\n\nb", max_lines=3).index_lines == 4


def test_limit_utf16_not_bytes() -> None:
    cjk = "字" * 25000  # 75,000 bytes but 25,000 units: no finding by default
    assert budget_finding(cjk) is None
    assert budget_finding(cjk, budget_bytes=25000).limit == "bytes"


# ------------------------------------------------------------------ performance (generous)


@pytest.mark.parametrize("unit", ["[", "[[", "[a](", "[a]([b](", "<!-- ", "`"])
def test_adversarial_lines_are_linear(unit: str) -> None:
    line = unit * (200_000 // len(unit))
    files = [("a.md", line), ("b.md", "---\nname: " + " " * 100_000 + '"x\n---')]
    start = time.perf_counter()
    lint(line, files)
    repairs(line, files)
    build_memory_link_graph(files)
    compact_index_lines("- [T](t.md) " + line, 100)
    assert time.perf_counter() - start < 5  # a generous adversarial bound, not a benchmark


def test_unclosed_comments_are_linear() -> None:
    text = "<!-- x\n" * 40_000
    start = time.perf_counter()
    assert budget_finding(text).limit == "lines"
    suggest_prune_candidates(text)
    assert time.perf_counter() - start < 5  # a generous adversarial bound, not a benchmark


# ------------------------------------------------------------------ self-check


def test_cluster_paths_meet_at_eight_and_nine_tokens() -> None:
    eight = frozenset("abcdefgh")
    nine = eight | {"i"}
    other_eight = frozenset("abcdefgz")  # shares 7 of 9: Jaccard 7/9
    assert mi._cluster_sets([eight, other_eight])[0] == [[0, 1]]  # shared-subset keys
    assert mi._cluster_sets([eight, nine])[0] == [[0, 1]]  # the pairwise path, 8 with 9
    assert mi._cluster_sets([nine, nine | {"j"}])[0] == [[0, 1]]
    assert mi._cluster_sets([frozenset("ab"), frozenset("cd")])[0] == []


def test_cluster_survivor_is_the_only_member_the_index_reaches() -> None:
    names = ["user_rule_retry_x.md", "user_rule_retry_x_v2.md", "user_retry_rule_x.md"]
    files = [(n, "") for n in names]
    (fix,) = [r for r in repairs("- [R](user_retry_rule_x.md)", files).repairs if r.survivor]
    assert len(fix.finding.files) == 3 and fix.survivor == "user_retry_rule_x.md"
    both = "- [R](user_rule_retry_x.md)\n- [S](user_retry_rule_x.md)"
    (fix,) = [r for r in repairs(both, files).repairs if r.survivor]
    assert fix.survivor == "user_rule_retry_x.md"  # the first longest of those reached
    two = "- [R](user_rule_retry_x.md)\n- [S](user_rule_retry_x_v2.md)"
    (fix,) = [r for r in repairs(two, files).repairs if r.survivor]
    assert fix.survivor == "user_rule_retry_x_v2.md"
    (fix,) = [r for r in repairs("", files).repairs if r.survivor]
    assert fix.survivor == "user_rule_retry_x_v2.md"  # none reached: the longest name


def test_all_is_what_a_caller_needs() -> None:
    assert len(mi.__all__) == 23
    for tuning in ("STOPWORDS", "HUB_MIN_BACKLINKS", "NEAR_DUPLICATE_MIN_JACCARD", "Edge"):
        assert tuning not in mi.__all__ and hasattr(mi, tuning)


def test_long_name_search_says_when_it_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    # limit: the pairwise search of long names has a budget; past it a finding says so
    names = [f"user_{'_'.join(f'w{(i * 7 + k) % 13}' for k in range(10))}.md" for i in range(40)]
    files = [(n, "") for n in names]
    assert not checks(lint("", files), "near-duplicate-search-stopped")
    monkeypatch.setattr(mi, "_PAIRWISE_BUDGET", 5)
    (f,) = checks(lint("", files), "near-duplicate-search-stopped")
    assert f.memory_type == "user" and "stopped after 5 comparisons" in f.message
    assert not [r for r in repairs("", files).repairs if r.finding == f]


def test_alike_long_names_cost_a_constant_each(monkeypatch: pytest.MonkeyPatch) -> None:
    # a probe into a posting list already inside its own cluster is skipped: 300 alike
    # long names finish within 3 comparisons each, not 300 each
    names = [f"user_a_b_c_d_e_f_g_h_i_j_k_{i}.md" for i in range(300)]
    monkeypatch.setattr(mi, "_PAIRWISE_BUDGET", 3 * len(names))
    result = lint("", [(n, "") for n in names])
    assert not checks(result, "near-duplicate-search-stopped")
    (f,) = checks(result, "near-duplicate-slug")
    assert len(f.files) + f.unlisted == 300


def test_near_duplicate_pair_says_twice() -> None:
    files = [("user_retry_rule_x.md", ""), ("user_rule_retry_x.md", "")]
    (f,) = checks(lint("", files), "near-duplicate-slug")
    assert f.message == (
        "2 user files have near-identical names: user_retry_rule_x.md, user_rule_retry_x.md:"
        " possibly one fact written twice"
    )


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.frozensets(st.sampled_from("abcdefghijklmn"), min_size=9, max_size=12), max_size=30)
)
def test_long_name_clusters_equal_the_components_of_all_pairs(
    sets: list[frozenset[str]],
) -> None:
    pairs = [(i, j) for i, j, _similarity in _oracle_pairs(sets)]
    assert sorted(mi._cluster_sets(sets)[0]) == _oracle_components(len(sets), pairs)
