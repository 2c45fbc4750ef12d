"""benchmarks/secret_eval.py measures what it says: its corpora are broad, seeded and
well-formed, and its scoring tells a perfect redactor, a blind one, one that leaves a
remnant and one that breaks JSON apart. Figures themselves are measured, never asserted."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _load_benchmark() -> ModuleType:
    sys.path.insert(0, str(BENCHMARKS))  # the benchmark imports its sibling _stdlib_corpus
    try:
        spec = importlib.util.spec_from_file_location("secret_eval", BENCHMARKS / "secret_eval.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCHMARKS))


bench = _load_benchmark()
SEED = 7


def _oracle(cases: list) -> dict[str, str]:
    """What a perfect redactor returns: every form of the secret replaced, JSON kept valid."""
    outputs = {}
    for case in cases:
        text = case.text
        for form in case.forms:
            text = text.replace(form, "[gone]")
        outputs[case.text] = text
    return outputs


def test_the_key_named_corpus_is_broad() -> None:
    cases = bench.keyed_positives(SEED, 2)
    syntaxes = Counter(case.group for case in cases)
    assert len(syntaxes) >= 40
    assert set(syntaxes.values()) == {2}
    assert len({case.ext for case in cases}) >= 20


def test_every_planted_secret_appears_verbatim_and_holds_no_forbidden_character() -> None:
    by_name = {syntax.name: syntax for syntax in bench.SYNTAXES}
    for case in bench.keyed_positives(SEED, 7):  # one of each value kind per syntax
        assert case.forms == (case.value,)
        assert case.text.count(case.value) == 1, case.group
        assert len(case.value) >= 6
        encoded = any(encoding for encoding, _ in by_name[case.group].templates)
        if not encoded:
            assert not set(case.value) & set(by_name[case.group].forbid), case.group


def test_no_value_reads_as_a_placeholder_or_a_template() -> None:
    for case in bench.keyed_positives(SEED, 7):
        assert case.value not in bench.PLACEHOLDERS
        for marker in ("${", "{{", "%(", "<", "$"):
            assert marker not in case.value


def test_the_corpus_is_seeded() -> None:
    first = bench.keyed_positives(SEED, 3)
    assert first == bench.keyed_positives(SEED, 3)
    assert first != bench.keyed_positives(SEED + 1, 3)
    assert bench.escaped_cases(SEED, 5) == bench.escaped_cases(SEED, 5)


@pytest.mark.parametrize("kind", bench.VALUE_KINDS)
def test_each_value_kind_respects_the_forbidden_characters(kind: str) -> None:
    rnd = bench.random.Random(SEED)
    for forbid in (bench.SHELL_BARE, bench.CONN, bench.YAML_PLAIN, bench.IN_DQ):
        for _ in range(20):
            value = bench.make_value(rnd, kind, forbid)
            assert value and not set(value) & set(forbid)


def test_escaped_samples_parse_and_hold_the_secret_in_their_escaped_form() -> None:
    cases = bench.escaped_cases(SEED, 8)
    assert {case.group for case in cases} == {
        "jsonl-python",
        "jsonl-slash",
        "jsonl-unicode",
        "jsonl-nested",
        "jsonl-crlf",
        "python-repr",
        "json-value-escapes",
        "percent-encoded",
        "backslash-wrapped",
    }
    for case in cases:
        assert case.forms[0] in case.text
        if case.wrapper:
            assert case.value in bench._decoded(case.text, case.wrapper)
    unicode_line = bench._json_line('a "b" <c> & d+e', "unicode")
    assert json.loads(unicode_line)["content"] == 'a "b" <c> & d+e'
    assert '\\"' not in unicode_line[60:] and "\\u0022" in unicode_line


def test_hand_written_negatives_cover_each_category() -> None:
    written = bench.keyed_negatives_written()
    categories = Counter(case.section for case in written)
    assert set(categories) == {
        "reference",
        "annotation",
        "comparison",
        "mention",
        "prose",
        "lookalike",
    }
    assert all(count >= 5 for count in categories.values())
    assert all(case.text.strip() and not case.forms for case in written)


def test_generated_negatives_put_every_placeholder_into_every_syntax() -> None:
    generated = bench.keyed_negatives_generated(SEED)
    placeholders = Counter(case.group for case in generated if case.section == "placeholder")
    plain_syntaxes = [s for s in bench.SYNTAXES if any(not e for e, _ in s.templates)]
    assert len(placeholders) == len(plain_syntaxes)
    assert set(placeholders.values()) == {len(bench.PLACEHOLDERS)}


def test_the_scoring_tells_perfect_blind_remnant_and_broken_apart() -> None:
    cases = bench.keyed_positives(SEED, 2) + bench.escaped_cases(SEED, 4)
    cases = [case for case in cases if len(case.forms[0]) > 6]  # room for a 6-character tail
    perfect = _oracle(cases)
    assert all(o.hit and o.clean for o in bench.run_cases(cases, perfect.__getitem__))
    assert not any(o.hit or o.clean for o in bench.run_cases(cases, lambda text: text))

    def keep_tail(text: str) -> str:  # redacts all but the last 6 characters of a secret
        for case in cases:
            if case.text == text:
                return text.replace(case.forms[0], "[gone]" + case.forms[0][-6:])
        raise AssertionError

    tails = bench.run_cases(cases, keep_tail)
    assert all(o.hit for o in tails[: len(cases) // 2]) and not any(o.clean for o in tails)

    wrapped = [case for case in cases if case.wrapper]
    broken = bench.run_cases(wrapped, lambda text: text.rstrip("\n")[:-1])
    assert all(o.broken for o in broken)


def test_negatives_count_as_changed_only_when_a_byte_changes() -> None:
    negatives = bench.keyed_negatives_written()[:10]
    assert not any(o.changed for o in bench.run_cases(negatives, lambda text: text))
    assert all(o.changed for o in bench.run_cases(negatives, lambda text: text + " "))


def test_changed_lines_counts_the_lines_a_redaction_touched() -> None:
    before = "a\nb = 'x'\nc\nd = 'y'\n"
    assert bench.changed_lines(before, before) == 0
    assert bench.changed_lines(before, "a\nb = '[r]'\nc\nd = '[r]'\n") == 2
    assert bench.changed_lines("k\n-----BEGIN\nQ\nR\n-----END\nz", "k\n[r]\nz") == 4


def test_the_real_redactors_run_on_a_small_subset() -> None:
    cases = (
        bench.keyed_positives(SEED, 1)
        + bench.escaped_cases(SEED, 2)
        + bench.keyed_negatives_written()[:20]
    )
    for redactor in (bench.display, bench.storage):
        outcomes = bench.run_cases(cases, redactor)
        assert len(outcomes) == len(cases)


def test_without_the_peer_file_the_vendor_section_says_so() -> None:
    cases, note = bench.vendor_cases_or_none()
    if not (BENCHMARKS / "catalog_eval.py").exists():
        assert cases == [] and "absent" in note
    else:
        assert all(case.forms[0] in case.text for case in cases), note


def test_the_syntax_file_format_reads_templates_encodings_and_charsets(tmp_path: Path) -> None:
    table = tmp_path / "syntaxes.txt"
    table.write_text(
        "# a comment before the first syntax\n"
        "== one ext=env keys=upper,snake forbid=SHELL_BARE+BRACES\n"
        "--\n"
        "# a template line, not a comment\n"
        "{K}={V}\n"
        "-- basic\n"
        "Authorization: Basic {V}\n"
        "== two ext=json keys=camel forbid=NONE\n"
        "--\n"
        '{"{K}": "{V}"}\n',
        encoding="utf-8",
    )
    one, two = bench.load_syntaxes(str(table))
    assert one.name == "one" and one.ext == "env" and one.styles == ("upper", "snake")
    assert one.forbid == bench.SHELL_BARE + "{}"
    assert one.templates == (
        ("", "# a template line, not a comment\n{K}={V}\n"),
        ("basic", "Authorization: Basic {V}\n"),
    )
    assert two.forbid == "" and two.templates == (("", '{"{K}": "{V}"}\n'),)


def test_a_repr_wrapped_secret_is_found_in_its_escaped_form() -> None:
    for content, value in (("pw = 'a\\b'\n", "a\\b"), ('say "hi" and it\'s x\n', "it's")):
        record = bench._repr_record(content)
        assert bench._repr_forms(value, record)[0] in record
        assert bench._decoded(record, "repr") == content


def test_a_marker_naming_the_shape_is_not_a_remnant() -> None:
    case = bench.Case(
        "vendor",
        "rubygems",
        "key: rubygems_0123456789abcdef\n",
        ("rubygems_0123456789abcdef",),
        "rubygems_0123456789abcdef",
        "txt",
    )
    assert bench.judge(case, "key: [redacted:rubygems-key]\n").clean
    assert bench.judge(case, "key: <REDACTED:rubygems-key:abcde>\n").clean
    assert not bench.judge(case, "key: [redacted:rubygems-key]abcdef\n").clean


def test_documentation_examples_are_counted_apart_from_placeholders() -> None:
    generated = bench.keyed_negatives_generated(SEED)
    examples = [case for case in generated if case.section == "docs-example"]
    assert examples and all(case.kind in bench.DOC_EXAMPLES for case in examples)
    assert not set(bench.DOC_EXAMPLES) & set(bench.PLACEHOLDERS)
    assert not any(c.section == "docs-example" for c in bench.escaped_negatives(SEED, 500))


def test_reaching_past_the_value_is_a_neighbouring_line_the_closing_quote_or_the_key() -> None:
    value = "Zq8-mUr4pX"
    text = f"host=db\nexport DB_PASSWORD='{value}' # prod\nport=5432\n"
    case = bench.Case("keyed", "shell", text, (value,), value, "sh", key="DB_PASSWORD")
    assert not bench.judge(case, text.replace(value, "[x]")).damaged
    assert bench.judge(case, text.replace(f"'{value}'", "[x]")).damaged  # quotes eaten
    assert bench.judge(case, text.replace("port=5432", "[x]").replace(value, "[x]")).damaged
    assert bench.judge(case, text.replace("host=db", "[x]").replace(value, "[x]")).damaged
    assert bench.judge(case, text.replace(f"DB_PASSWORD='{value}'", "DB='[x]'")).damaged
    split = bench.Case(
        "escaped", "wrapped", 'T="Zq8-mU\\\nr4pX12"\n', ("Zq8-mU", "r4pX12"), "Zq8-mUr4pX12", "sh"
    )
    assert not bench.judge(split, 'T="[x]"\n').damaged  # one value over two lines, one marker
