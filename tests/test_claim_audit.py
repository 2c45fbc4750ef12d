"""Tests for agentops.claim_audit: contract, acceptance examples, limits, properties."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentops import claim_audit as ca
from agentops.claim_audit import AuditResult, Claim, FalseClaim, audit, claimed_paths

UNREAD = AuditResult(False, (), 0)

INCIDENT = """Changes made:
  1. Created xmlLoader.js ...
  2. Created styledBox.js ...
  3. Created tableCreator.js ...
  4. Updated template.js to import and use the new files."""
INCIDENT_CHANGED = {"src/xmlLoader.js", "src/styledBox.js", "src/tableCreator.js"}


def words(text: str) -> frozenset[str]:
    return frozenset(text.split())


def paths(line: str, **kw: Any) -> list[str]:
    return [c.path for c in claimed_paths(line, **kw)]


def false_paths(answer: str, changed: Any, **kw: Any) -> list[str]:
    result = audit(answer, changed, **kw)
    assert result.audited
    return [f.path for f in result.false_claims]


# --------------------------------------------------------------------------- constants


def test_word_lists_exact() -> None:
    assert (
        words(
            "created added updated modified edited changed wrote written rewrote rewritten removed"
            " deleted renamed moved replaced refactored fixed implemented inserted appended patched"
            " extracted converted generated saved adjusted altered amended introduced made"
        )
        == ca.CLAIM_VERBS
    )
    assert (
        words(
            "will shall would should could can may might must going gonna let need needs want"
            " wants plan plans intend intends if unless"
        )
        == ca.MODAL_WORDS
    )
    assert words("not never no nothing none neither nor without") == ca.NEGATION_WORDS
    assert (
        words("the a an this that these those its their your our my his her any each every some")
        == ca.DETERMINERS
    )
    assert words("is are am be being get gets getting") == ca.PRESENT_BE
    assert (
        words(
            "js mjs cjs jsx ts tsx vue svelte py pyi ipynb rb go rs java kt kts scala swift c h cc"
            " cpp cxx hpp hh cs fs php pl pm lua r dart ex exs erl hs ml clj sh bash zsh fish ps1"
            " bat cmd sql json jsonc yaml yml toml ini cfg conf env properties xml xsd xsl html htm"
            " css scss sass less md markdown rst txt csv tsv lock gradle tf proto graphql gql svg"
        )
        == ca.FILE_EXTENSIONS
    )
    for name in (
        "CLAIM_VERBS",
        "MODAL_WORDS",
        "NEGATION_WORDS",
        "DETERMINERS",
        "PRESENT_BE",
        "FILE_EXTENSIONS",
    ):
        assert isinstance(getattr(ca, name), frozenset)


def test_public_api_and_shapes() -> None:
    assert set(ca.__all__) == {
        "CLAIM_VERBS",
        "MODAL_WORDS",
        "NEGATION_WORDS",
        "DETERMINERS",
        "PRESENT_BE",
        "FILE_EXTENSIONS",
        "Claim",
        "FalseClaim",
        "AuditResult",
        "audit",
        "claimed_paths",
    }
    for name in ca.__all__:
        assert hasattr(ca, name)
    assert Claim._fields == ("verb", "path")
    assert FalseClaim._fields == ("line", "path", "verb", "text")
    assert AuditResult._fields == ("audited", "false_claims", "checked")


# --------------------------------------------------------------------------- acceptance


def test_acceptance_incident() -> None:
    result = audit(INCIDENT, INCIDENT_CHANGED)
    assert result == AuditResult(
        True,
        (
            FalseClaim(
                5,
                "template.js",
                "Updated",
                "4. Updated template.js to import and use the new files.",
            ),
        ),
        4,
    )


def test_acceptance_incident_all_written_is_clean() -> None:
    result = audit(INCIDENT, INCIDENT_CHANGED | {"src/template.js"})
    assert result == AuditResult(True, (), 4)


@pytest.mark.parametrize(
    "line,expected",
    [
        ("I updated template.js", ["template.js"]),
        (
            "- Updated `src/utils/helpers.ts` and `README.md`.",
            ["src/utils/helpers.ts", "README.md"],
        ),
        ("template.js was updated", ["template.js"]),
        ("template.js has been updated", ["template.js"]),
        ("I've created a.js and b.js, and updated c.js", ["a.js", "b.js", "c.js"]),
        ("I will update template.js", []),
        ("I'll update template.js", []),
        ("I will have updated template.js", []),
        ("template.js will be updated", []),
        ("template.js is updated on every build", []),
        ("template.js already imports xmlLoader.js", []),
        ("I haven't modified template.js", []),
        ("No changes were made to template.js", []),
        ("The updated template.js imports the loader", []),
        ("Have you updated template.js?", []),
        ("If you created template.js earlier, delete it", []),
        ("Created xmlLoader.js; template.js already imports it.", ["xmlLoader.js"]),
        ("I did not touch a.js; I updated b.js.", ["b.js"]),
        ("Updated the link to https://example.com/docs/index.html", []),
        ("Added layout.tableStart(table) call to template.js", ["template.js"]),
        ("Wrote tests in tests/test_a.py.", ["tests/test_a.py"]),
    ],
)
def test_acceptance_claimed_paths(line: str, expected: list[str]) -> None:
    assert paths(line) == expected


@pytest.mark.parametrize(
    "answer,changed,expected,checked",
    [
        ("Updated template.js", [], ["template.js"], 1),
        ("Updated TEMPLATE.JS", ["src/template.js"], [], 1),
        ("Updated lib/a.js", ["src/a.js"], ["lib/a.js"], 1),
        ("Updated src/a.js", ["./src/a.js"], [], 1),
        ("Updated src/a.js", ["/repo/src/a.js"], [], 1),
        ("Updated src/a.js", ["src\\a.js"], [], 1),
        ("Updated a.js and a.js", [], ["a.js"], 1),
        ("```\n// Updated a.js\n```", [], [], 0),
        ("Updated the loader.", [], [], 0),
        ("Updated Makefile", [], [], 0),
    ],
)
def test_acceptance_audit(
    answer: str, changed: list[str], expected: list[str], checked: int
) -> None:
    result = audit(answer, changed)
    assert result.audited is True
    assert [f.path for f in result.false_claims] == expected
    assert result.checked == checked


def test_acceptance_extra_extension() -> None:
    assert false_paths("Updated deploy.hcl", [], extra_extensions=[".hcl"]) == ["deploy.hcl"]
    assert false_paths("Updated deploy.hcl", []) == []


@pytest.mark.parametrize(
    "answer,changed",
    [
        (None, []),
        (b"Updated a.js", []),
        (42, ["a.js"]),
        (["Updated a.js"], []),
        ("Updated a.js", "template.js"),
        ("Updated a.js", None),
        ("Updated a.js", b"a.js"),
        ("Updated a.js", bytearray(b"a.js")),
        ("Updated a.js", {"a.js": True}),
        ("Updated a.js", 42),
        ("Updated a.js", object()),
    ],
)
def test_acceptance_unreadable(answer: Any, changed: Any) -> None:
    assert audit(answer, changed) == UNREAD


# --------------------------------------------------------------------------- inputs


def test_files_changed_elements_filtered() -> None:
    changed = [None, "", "   ", 3, b"a.js", "src/a.js"]
    assert audit("Updated a.js", changed) == AuditResult(True, (), 1)
    assert false_paths("Updated a.js", [None, " ", 7]) == ["a.js"]


def test_files_changed_any_iterable() -> None:
    def gen() -> Iterator[str]:
        yield "src/a.js"

    assert audit("Updated a.js", gen()) == AuditResult(True, (), 1)
    assert audit("Updated a.js", ("src/a.js",)) == AuditResult(True, (), 1)
    assert audit("Updated a.js", frozenset({"src/a.js"})) == AuditResult(True, (), 1)
    assert audit("Updated a.js", {"src/b.js"}).false_claims[0].path == "a.js"


def test_files_changed_iteration_failure_is_unreadable() -> None:
    def bad() -> Iterator[str]:
        yield "a.js"
        raise RuntimeError("boom")

    assert audit("Updated a.js", bad()) == UNREAD


def test_empty_files_changed_means_every_claim_false() -> None:
    result = audit("Created a.js.\nUpdated b.py and c.md.", set())
    assert [(f.line, f.path) for f in result.false_claims] == [
        (1, "a.js"),
        (2, "b.py"),
        (2, "c.md"),
    ]
    assert result.checked == 3


def test_empty_and_blank_answer() -> None:
    assert audit("", []) == AuditResult(True, (), 0)
    assert audit("\n\n  \n", []) == AuditResult(True, (), 0)


def test_str_subclasses_accepted() -> None:
    class S(str):
        def splitlines(self, keepends: bool = False) -> list[str]:  # type: ignore[override]
            raise RuntimeError("must not be called")

    class P(str):
        def strip(self, chars: str | None = None) -> str:
            raise RuntimeError("must not be called")

    result = audit(S("Updated a.js"), [P("x/a.js")])
    assert result == AuditResult(True, (), 1)
    assert paths(S("Updated a.js")) == ["a.js"]


@pytest.mark.parametrize(
    "extra", [[".hcl"], ["hcl"], ["HCL"], (".HcL",), {"..hcl"}, iter([".hcl"]), ["hcl", "hcl"]]
)
def test_extra_extensions_forms(extra: Any) -> None:
    assert false_paths("Updated deploy.hcl", [], extra_extensions=extra) == ["deploy.hcl"]


@pytest.mark.parametrize("extra", [".hcl", "hcl", b"hcl", None, 42, {"hcl": 1}, [None, ".hcl"]])
def test_extra_extensions_wrong_type_raises(extra: Any) -> None:
    with pytest.raises(TypeError, match="extra_extensions"):
        audit("Updated deploy.hcl and a.js", [], extra_extensions=extra)
    with pytest.raises(TypeError, match="extra_extensions"):
        claimed_paths("Updated deploy.hcl", extra_extensions=extra)


@pytest.mark.parametrize("extra", [[""], ["."], ["x.hcl"], ["a/hcl"], ["a\\hcl"], ["hcl", ".."]])
def test_extra_extensions_not_an_extension_raises(extra: Any) -> None:
    with pytest.raises(ValueError, match="extra_extensions"):
        audit("Updated deploy.hcl and a.js", [], extra_extensions=extra)


def test_wrong_option_raises_even_when_data_is_unreadable() -> None:
    with pytest.raises(TypeError, match="extra_extensions"):
        audit(None, None, extra_extensions="hcl")  # type: ignore[arg-type]


def test_extra_extensions_in_claimed_paths() -> None:
    assert paths("Updated deploy.hcl", extra_extensions=["hcl"]) == ["deploy.hcl"]
    assert paths("Updated deploy.hcl") == []


@pytest.mark.parametrize("bad", [None, 42, b"Updated a.js", ["Updated a.js"]])
def test_claimed_paths_non_str(bad: Any) -> None:
    assert claimed_paths(bad) == ()


def test_claimed_paths_reads_a_multiline_string_as_one_line() -> None:
    assert paths("Updated a.js\nb.js") == ["a.js", "b.js"]
    assert paths("Updated a.js.\nb.js") == ["a.js"]


def test_claimed_paths_returns_claims_with_verbs() -> None:
    assert claimed_paths("CREATED a.js and b.md") == (
        Claim("CREATED", "a.js"),
        Claim("CREATED", "b.md"),
    )
    assert claimed_paths("Updated a.js and a.js") == (
        Claim("Updated", "a.js"),
        Claim("Updated", "a.js"),
    )
    assert isinstance(claimed_paths("Updated a.js"), tuple)


# --------------------------------------------------------------------------- lines and fences


def test_fences_backticks_and_tildes() -> None:
    answer = "\n".join(
        [
            "Updated a.js",  # 1
            "```js",  # 2
            "// Updated b.js",  # 3
            "```",  # 4
            "Updated c.js",  # 5
            "  ~~~",  # 6
            "Updated d.js",  # 7
            "~~~",  # 8
            "Updated e.js",  # 9
        ]
    )
    result = audit(answer, [])
    assert [(f.line, f.path) for f in result.false_claims] == [
        (1, "a.js"),
        (5, "c.js"),
        (9, "e.js"),
    ]
    assert result.checked == 3


def test_fence_line_itself_skipped_and_unclosed_runs_to_end() -> None:
    assert false_paths("```Updated a.js", []) == []
    assert false_paths("~~~ Updated a.js", []) == []
    assert false_paths("Updated x.js\n```\nUpdated a.js\nUpdated b.js", []) == ["x.js"]


def test_two_backticks_are_not_a_fence() -> None:
    assert false_paths("``\nUpdated a.js", []) == ["a.js"]
    assert false_paths("~~\nUpdated a.js", []) == ["a.js"]
    assert false_paths("x ```\nUpdated a.js", []) == ["a.js"]


def test_line_numbers_and_text() -> None:
    result = audit("intro\r\n\r\n   - Updated `a.js`.   \nend", [])
    assert result.false_claims == (FalseClaim(3, "a.js", "Updated", "- Updated `a.js`."),)


def test_per_line_dedup_only() -> None:
    result = audit("Updated a.js and A.JS and ./a.js\nUpdated a.js", [])
    assert [(f.line, f.path) for f in result.false_claims] == [(1, "a.js"), (2, "a.js")]
    assert result.checked == 2
    result = audit("Created a.js; updated a.js", [])
    assert result.false_claims == (FalseClaim(1, "a.js", "Created", "Created a.js; updated a.js"),)
    assert result.checked == 1


def test_checked_counts_matched_mentions_too() -> None:
    result = audit("Updated a.js, b.js and c.js", ["a.js", "src/c.js"])
    assert result.checked == 3
    assert [f.path for f in result.false_claims] == ["b.js"]


def test_order_line_then_mention() -> None:
    result = audit("Updated z.js and a.js\nCreated m.py", [])
    assert [(f.line, f.path, f.verb) for f in result.false_claims] == [
        (1, "z.js", "Updated"),
        (1, "a.js", "Updated"),
        (2, "m.py", "Created"),
    ]


# --------------------------------------------------------------------------- URLs


@pytest.mark.parametrize(
    "line,expected",
    [
        ("Updated https://example.com/a.js and b.js", ["b.js"]),
        ("Updated ftp://host/file.py", []),
        ("Updated a.js (see http://x.org/y.md)", ["a.js"]),
        ("Created git+ssh://host/repo/x.py", []),
        ("Updated file:///home/u/a.js", []),
        ("Updated a.js,https://x.io/b.js", ["a.js"]),
        ("Updated a.js https://x.io/b.js c.js", ["a.js", "c.js"]),
        ("Updated a.js 1http://x.io/b.js", ["a.js"]),
        ("Updated HTTPS://X.IO/B.JS", []),
    ],
)
def test_urls_blanked(line: str, expected: list[str]) -> None:
    assert paths(line) == expected


def test_url_at_line_start_and_empty_url() -> None:
    assert paths("https://x.io/a.js; updated b.js") == ["b.js"]
    assert paths("https://x.io/a.js updated b.js") == ["b.js"]
    assert paths("Updated http:// a.js") == ["a.js"]
    assert paths("Updated a.js http://") == ["a.js"]
    assert paths("ftp://h/x.py https://h/y.py, updated c.py") == ["c.py"]


def test_scheme_starts_at_its_first_letter() -> None:
    assert paths("Updated 9c.h://x") == []
    assert paths("Updated b.py 9.c://x") == ["b.py"]
    assert paths("Updated a.js 12+-http://x/y.py") == ["a.js"]


def test_urls_after_a_bare_separator_at_line_start() -> None:
    assert paths("://x https://h/b.js updated c.js") == ["c.js"]


def test_url_does_not_cut_sentence_or_claim() -> None:
    # the URL takes its trailing punctuation with it, so the two sentences merge
    assert paths("Updated a.js, see https://x.io/page.html?q=1! Also b.js") == ["a.js", "b.js"]
    assert paths("Updated a.js, see https://x.io/page.html?q=1 ! Also b.js") == ["a.js"]
    assert paths("Read https://x.io/a.html; updated b.js") == ["b.js"]


def test_separator_without_scheme_is_not_a_url() -> None:
    assert paths("Updated ://a.js") == ["//a.js"]
    assert paths("Updated a.js ://") == ["a.js"]


# --------------------------------------------------------------------------- sentences


@pytest.mark.parametrize(
    "line,expected",
    [
        ("Updated a.js? Created b.js.", ["b.js"]),
        ("Did you see it? I updated a.js.", ["a.js"]),
        ("Updated a.js?x", ["a.js"]),
        ("Updated a.js! Did you create b.js?", ["a.js"]),
        ("I did not change a.js. Updated b.js", ["b.js"]),
        ("I did not change a.js.Updated b.js", []),
        ("Nothing to do; created b.js; no c.js", ["b.js"]),
        ("Updated a.js.", ["a.js"]),
        ("Updated a.js...", ["a.js"]),
        ("Updated a.js\tand b.js!", ["a.js", "b.js"]),
        ("Will I? Updated a.js", ["a.js"]),
        ("Updated a.js ?", []),
    ],
)
def test_sentences(line: str, expected: list[str]) -> None:
    assert paths(line) == expected


# --------------------------------------------------------------------------- words and verbs


@pytest.mark.parametrize("verb", sorted(ca.CLAIM_VERBS))
def test_every_claim_verb_claims(verb: str) -> None:
    assert claimed_paths(f"{verb} a.js") == (Claim(verb, "a.js"),)
    assert claimed_paths(f"I {verb.upper()} a.js") == (Claim(verb.upper(), "a.js"),)


@pytest.mark.parametrize("blocker", sorted(ca.MODAL_WORDS | ca.NEGATION_WORDS))
def test_every_blocker_blocks_later_verbs_only(blocker: str) -> None:
    assert paths(f"{blocker} updated a.js") == []
    assert paths(f"x {blocker.capitalize()} y updated a.js") == []
    assert paths(f"Updated a.js {blocker} b.js") == ["a.js", "b.js"]
    assert paths(f"{blocker} x; updated a.js") == ["a.js"]


@pytest.mark.parametrize("word", sorted(ca.DETERMINERS | ca.PRESENT_BE))
def test_every_adjective_or_present_marker_blocks_next_verb_only(word: str) -> None:
    assert paths(f"{word} updated a.js") == []
    assert paths(f"{word.upper()} updated a.js") == []
    assert claimed_paths(f"{word} updated x and created a.js") == (Claim("created", "a.js"),)
    assert paths(f"{word} x updated a.js") == ["a.js"]


@pytest.mark.parametrize(
    "line,expected",
    [
        ("I didn't update a.js but fixed b.js", []),
        ("We won't have changed a.js", []),
        ("I can't say I fixed a.js", []),
        ("We'll have updated a.js", []),
        ("I've updated a.js", ["a.js"]),
        ("I'd updated a.js", ["a.js"]),
        ("I haven\u2019t modified template.js", []),
        ("We\u2019ll have updated a.js", []),
        ("It was updated: a.js", ["a.js"]),
        ("a.js was written by me", ["a.js"]),
        ("a.js has been rewritten", ["a.js"]),
        ("a.js is written at build time", []),
        ("a.js gets generated", []),
        ("The new a.js was generated", ["a.js"]),
        ("Split template.js into three files", []),
        ("Update template.js", []),
        ("Updating template.js", []),
        ("updates template.js", []),
        ("Reupdated a.js", []),
        ("Updated_a.js", ["Updated_a.js"]),
        ("Updated-a.js", ["Updated-a.js"]),
        ("In a.js I fixed b.js", ["a.js", "b.js"]),
        ("a.js: updated", ["a.js"]),
        ("Changes made: a.js", ["a.js"]),
    ],
)
def test_verbs_and_blockers(line: str, expected: list[str]) -> None:
    assert paths(line) == expected


def test_first_unblocked_verb_is_reported() -> None:
    assert claimed_paths("The updated loader; fixed a.js") == (Claim("fixed", "a.js"),)
    assert claimed_paths("the updated loader is fixed and Created a.js") == (
        Claim("Created", "a.js"),
    )
    assert claimed_paths("Added and updated a.js") == (Claim("Added", "a.js"),)
    result = audit("The updated parser: Rewrote a.py", [])
    assert result.false_claims[0].verb == "Rewrote"


# --------------------------------------------------------------------------- mentions


@pytest.mark.parametrize(
    "line,expected",
    [
        ("Updated C:\\repo\\a.js", ["\\repo\\a.js"]),
        ("Updated a.js:42", ["a.js"]),
        (
            "Updated `a.js`, \"b.py\", 'c.md', (d.ts), [e.go], {f.rs}, <g.c>",
            ["a.js", "b.py", "c.md", "d.ts", "e.go", "f.rs", "g.c"],
        ),
        ("Updated a.js...", ["a.js"]),
        ("Updated A.JS and b.Json", ["A.JS", "b.Json"]),
        ("Updated .env", [".env"]),
        ("Updated @scope/pkg/index.ts", ["@scope/pkg/index.ts"]),
        ("Updated ~/proj/a+b.py", ["~/proj/a+b.py"]),
        ("Updated src\\win\\a.cs", ["src\\win\\a.cs"]),
        ("Updated a.b.c.py", ["a.b.c.py"]),
        ("Updated archive.tar.gz", []),
        ("Updated README", []),
        ("Updated docs/", []),
        ("Updated docs.js/", []),
        ("Updated v1.2", []),
        ("Updated a.js-", []),
        ("Updated a.jsx and a.pyc", ["a.jsx"]),
        ("Updated naïve_module.py", ["naïve_module.py"]),
        ("Updated src/a.js/b", []),
        ("Updated a.r", ["a.r"]),
        ("Updated ...", []),
    ],
)
def test_mentions(line: str, expected: list[str]) -> None:
    assert paths(line) == expected


def test_every_extension_recognised() -> None:
    for ext in sorted(ca.FILE_EXTENSIONS):
        assert paths(f"Updated dir/file.{ext}") == [f"dir/file.{ext}"]
        assert paths(f"Updated FILE.{ext.upper()}") == [f"FILE.{ext.upper()}"]


# --------------------------------------------------------------------------- matching


@pytest.mark.parametrize(
    "mention,changed,ok",
    [
        ("a.js", "a.js", True),
        ("a.js", "src/a.js", True),
        ("src/a.js", "a.js", True),
        ("lib/a.js", "src/a.js", False),
        ("a.js", "ba.js", False),
        ("ba.js", "a.js", False),
        ("/src/a.js", "src/a.js", True),
        ("src/a.js", "/src/a.js", True),
        ("/repo/src/a.js", "src/a.js", True),
        ("src/a.js", "/repo/src/a.js", True),
        ("Src/A.js", "src/a.JS", True),
        ("src\\a.js", "src/a.js", True),
        ("src/a.js", "src\\a.js", True),
        ("src//a.js", "src/a.js", True),
        ("src/a.js", "src///a.js", True),
        ("./a.js", "a.js", True),
        ("a.js", "./a.js", True),
        ("a.js", "././a.js", True),
        ("a.js", ".//a.js", True),
        ("src/a.js", "C:\\repo\\src\\a.js", True),
        ("\\repo\\a.js", "C:\\repo\\a.js", True),
        ("a.js", "a.js/", False),
        ("a.js", "/", False),
        ("x/a.js", "y/x/a.js", True),
        ("y/x/a.js", "x/a.js", True),
        ("z/y/x/a.js", "w/x/a.js", False),
        ("STRASSE.md", "straße.md", True),
    ],
)
def test_matching(mention: str, changed: str, ok: bool) -> None:
    result = audit(f"Updated {mention}", [changed])
    assert result.checked == 1
    assert (result.false_claims == ()) is ok


# --------------------------------------------------------------------------- limits (pinned)


def test_limit_1_silence() -> None:
    assert audit("All done.", []) == AuditResult(True, (), 0)


def test_limit_2_claim_without_file_name() -> None:
    assert audit("Updated the loader to cache results", []) == AuditResult(True, (), 0)


def test_limit_3_claim_split_across_lines() -> None:
    assert audit("Files created:\n- a.js\n- b.js", []) == AuditResult(True, (), 0)


def test_limit_4_present_tense_claims() -> None:
    assert audit("template.js now imports the loader", []) == AuditResult(True, (), 0)


def test_limit_5_verbs_outside_the_list() -> None:
    for line in (
        "Split template.js into three files",
        "Set a.js to strict mode",
        "Put b.js under src",
        "Cut c.js in half",
        "Touched d.js",
    ):
        assert audit(line, []) == AuditResult(True, (), 0), line


def test_limit_6_files_without_recognised_extension() -> None:
    for line in (
        "Updated Makefile",
        "Updated LICENSE",
        "Created src/components",
        "Updated Dockerfile",
    ):
        assert audit(line, []) == AuditResult(True, (), 0), line


def test_limit_7_lenient_matching() -> None:
    assert audit("Updated config.json", ["some/other/place/config.json"]) == AuditResult(
        True, (), 1
    )
    assert audit("Updated Template.JS", ["template.js"]) == AuditResult(True, (), 1)


def test_limit_8_blocker_earlier_in_sentence() -> None:
    assert audit("If needed I also updated a.js", []) == AuditResult(True, (), 0)


def test_limit_9_what_changed_is_not_checked() -> None:
    assert audit("Renamed every function in a.js to snake_case", ["a.js"]) == AuditResult(
        True, (), 1
    )


def test_limit_10_fenced_lines() -> None:
    assert audit("```\nUpdated a.js\n```", []) == AuditResult(True, (), 0)


def test_limit_11_known_false_positives() -> None:
    assert false_paths("Created a.js which b.js imports", ["a.js"]) == ["b.js"]
    assert false_paths("Updated Node.js", []) == ["Node.js"]
    assert false_paths("Updated the guide for Next.JS users", []) == ["Next.JS"]
    assert paths("Updated Vue.vue") == ["Vue.vue"]


# --------------------------------------------------------------------------- properties


def _naive_norm(p: str) -> str:
    p = p.replace("\\", "/").casefold()
    while "//" in p:
        p = p.replace("//", "/")
    while p.startswith("./"):
        p = p[2:]
    return p


def _naive_match(mention: str, changed: list[str]) -> bool:
    m = _naive_norm(mention)
    for raw in changed:
        c = _naive_norm(raw)
        if m == c or c.endswith("/" + m.lstrip("/")) or m.endswith("/" + c.lstrip("/")):
            return True
    return False


_seg = st.sampled_from(["a", "b", "src", "lib", "A", "", ".", "x.js", "a.js", "B.JS", "c.py"])
_path = st.lists(_seg, min_size=1, max_size=4).map(lambda xs: "/".join(xs)) | st.sampled_from(
    ["./a.js", "src\\a.js", "/a.js", "//a.js", "a.js/", "C:\\a.js"]
)
_line = st.lists(
    st.sampled_from(
        ["Updated", "created", "the", "not", "will", "is", "and", ";", ".", "?", "!", "`", ",", "x"]
    )
    | _path,
    max_size=8,
).map(" ".join)


@given(st.lists(_line, max_size=6), st.lists(_path, max_size=5))
def test_property_matches_naive_reference(lines: list[str], changed: list[str]) -> None:
    answer = "\n".join(lines)
    result = audit(answer, changed)
    expected = []
    checked = 0
    usable = [c for c in changed if c.strip()]
    for number, line in enumerate(answer.splitlines(), 1):
        if line.strip().startswith(("```", "~~~")):
            continue
        seen: set[str] = set()
        for claim in claimed_paths(line):
            key = _naive_norm(claim.path)
            if key in seen:
                continue
            seen.add(key)
            checked += 1
            if not _naive_match(claim.path, usable):
                expected.append(FalseClaim(number, claim.path, claim.verb, line.strip()))
    assert result == AuditResult(True, tuple(expected), checked)
    # widening the record never adds a finding; recording every claim clears them all
    wider = audit(answer, [*changed, "zz/other.js"])
    assert set(wider.false_claims) <= set(result.false_claims)
    every = audit(answer, [*changed, *(f.path for f in result.false_claims)])
    assert every == AuditResult(True, (), result.checked)


_anything = st.one_of(
    st.none(),
    st.integers(),
    st.text(),
    st.binary(),
    st.booleans(),
    st.lists(st.one_of(st.text(), st.integers(), st.none()), max_size=5),
    st.dictionaries(st.text(max_size=4), st.text(max_size=4), max_size=3),
    st.frozensets(st.text(max_size=10), max_size=4),
)


_extra = st.lists(st.sampled_from(["hcl", ".tf", "HCL", "nix"]), max_size=3)


@given(_anything, _anything, _extra)
def test_property_never_raises_on_data_and_deterministic(
    answer: Any, changed: Any, extra: list[str]
) -> None:
    result = audit(answer, changed, extra_extensions=extra)
    assert isinstance(result, AuditResult)
    assert result.checked >= len(result.false_claims)
    if not result.audited:
        assert result == UNREAD
    assert audit(answer, changed, extra_extensions=extra) == result
    claims = claimed_paths(answer, extra_extensions=extra)
    assert isinstance(claims, tuple)
    assert claimed_paths(answer, extra_extensions=extra) == claims


@given(
    st.text(
        alphabet=st.sampled_from(list("Updated a.js/\\:;.?!`'\u2019~ \n\thttps")), max_size=200
    ),
    st.lists(st.text(alphabet=st.sampled_from(list("a.js/\\: ")), max_size=12), max_size=4),
)
def test_property_adversarial_alphabet(answer: str, changed: list[str]) -> None:
    result = audit(answer, changed)
    assert result.audited is True
    for f in result.false_claims:
        assert f.path in f.text or f.path in answer
        assert f.verb.lower() in ca.CLAIM_VERBS
        assert f.line >= 1


@pytest.mark.parametrize(
    "answer",
    [
        "a" * 200_000,
        "." * 200_000,
        "Updated " + "a/" * 100_000 + "x.js",
        "Updated " + "x://" * 50_000,
        "Updated " + "http" + "a" * 200_000 + "://b",
        "Updated " + "a" * 200_000 + "://",
        "Updated " + "-" * 100_000 + "://" + "x" * 100_000,
        ";" * 200_000,
        "'" * 200_000,
        "don't " * 40_000,
        "Updated a.js " * 20_000,
        "Updated a.js\n" * 20_000,
        "```\n" * 50_000,
        ("./" * 50_000) + "a.js",
    ],
    ids=lambda answer: f"{answer[:12]!r}x{len(answer)}",
)
def test_pathological_input_is_fast(answer: str) -> None:
    changed = ["a/" * 50_000 + "x.js", "./" * 50_000 + "a.js", "//" * 50_000]
    changed += [f"dir{i}/x.js" for i in range(2000)]
    t0 = time.process_time()
    result = audit("Updated " + answer, changed)
    claimed_paths(answer)
    assert time.process_time() - t0 < 2.0
    assert result.audited


def test_many_changed_paths_with_same_name_is_fast() -> None:
    changed = [f"pkg{i}/index.js" for i in range(5000)]
    answer = "\n".join(f"Updated lib{i}/index.js" for i in range(2000))
    t0 = time.process_time()
    result = audit(answer, changed)
    assert time.process_time() - t0 < 2.0
    assert len(result.false_claims) == 2000
