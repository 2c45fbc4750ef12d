"""scannable_command: normalize a command the way the shell would, then scan raw OR normalized."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentops import scannable_command as sc
from agentops.scannable_command import MAX_PASSES, matches_raw_or_scannable, scannable_command

BODY_RE = re.compile(r"(^|\s)--body(=|\s|$)")
MODULE_PATH = Path(sc.__file__)

# Text biased toward the characters every pass cares about.
SHELLISH = st.text(
    alphabet=st.sampled_from([*"$'\"\\:-aAbcexuUqz019 ?\n\t{}", "\x00", "é", "\u2028"]),
    max_size=40,
)
# Text built from the fragments the passes react to, so tokens and escapes form often.
FRAGMENTS = st.lists(
    st.sampled_from(
        [
            "$'",
            "'",
            '"',
            "\\",
            "\\\\",
            "x4",
            "x2d",
            "u00",
            "U0010",
            "UFFFFFFFF",
            "c",
            "c?",
            "?",
            "777",
            "0",
            "8",
            "e",
            "a",
            "Z",
            "-",
            ":",
            "\n",
            " ",
            "$",
            "é",
            "\ud800",
        ]
    ),
    max_size=24,
).map("".join)
ANY_TEXT = st.one_of(st.text(max_size=60), SHELLISH, FRAGMENTS)


# --- the public surface --------------------------------------------------------------


def test_public_api_and_constant() -> None:
    assert {"MAX_PASSES", "matches_raw_or_scannable", "scannable_command"} <= set(sc.__all__)
    assert MAX_PASSES == 8
    assert type(MAX_PASSES) is int


# --- acceptance examples: scannable_command ---------------------------------------------

ACCEPTANCE = [
    ("python tools/agent-'status'.py", "python tools/agent-status.py"),
    ('--bo"dy"', "--body"),
    ("--bo\\dy", "--body"),
    ("$'--body'", "--body"),
    ("printf $'\\x2d\\x2dbody'", "printf --body"),
    ("printf $'\\055\\055body'", "printf --body"),
    ("printf $'\\u002d\\u002dbody'", "printf --body"),
    ("printf $'\\455\\455body'", "printf --body"),
    ("$'a\\eb'", "a\x1bb"),
    ("$'a\\tb'", "a\tb"),
    ("$'\\c?'", "\x7f"),
    ("$'\\777'", "\xff"),
    ("cmd $'\\UFFFFFFFF' --body", "cmd UFFFFFFFF --body"),
    ("$'\\x'", "x"),
    ("$'--bo", "$--bo"),
    ("\\-\\-body", "--body"),
    ("a\\ b", "a\\ b"),
    ("a\\\\b", "a\\\\b"),
    ("C:\\x", "C:\\x"),
    ("type C:\\Users\\me\\notes.txt", "type C:\\Usersmenotes.txt"),
    ("read \\\\server\\share\\f.txt", "read \\\\serversharef.txt"),
    ("x\\a\\b\\c\\d\\e\\f\\g", "xabcdefg"),
    ("--bo dy", "--bo dy"),
    ("", ""),
]


@pytest.mark.parametrize(("text", "expected"), ACCEPTANCE)
def test_acceptance_examples(text: str, expected: str) -> None:
    assert scannable_command(text) == expected


@pytest.mark.parametrize("value", [None, 42, b"x", bytearray(b"x"), 3.5, ["--body"], object()])
def test_non_strings_give_empty_string(value: object) -> None:
    assert scannable_command(value) == ""


def test_acceptance_examples_for_matching() -> None:
    assert BODY_RE.search('cmd --bo"dy" x') is None  # why this module exists
    assert matches_raw_or_scannable(BODY_RE, 'cmd --bo"dy" x') is True
    assert matches_raw_or_scannable(BODY_RE, "cmd $'--body' x") is True
    assert matches_raw_or_scannable(re.compile(r'"--body"'), 'cmd "--body"') is True
    assert matches_raw_or_scannable(BODY_RE, "cmd --body-file tmp/b.md") is False
    assert matches_raw_or_scannable(re.compile(r"docs\\specs"), r"type docs\specs\plan.md") is True
    assert matches_raw_or_scannable(r"(^|\s)--body(=|\s|$)", "cmd --bo\\dy x") is True
    with pytest.raises(re.error):
        matches_raw_or_scannable("(unclosed", "x")
    assert matches_raw_or_scannable(BODY_RE, None) is False
    assert matches_raw_or_scannable(42, "x --body") is False
    assert matches_raw_or_scannable(BODY_RE, "sh <<'EOF'\ncmd --body x\nEOF") is True


# --- positive controls: evasive spellings of a denied flag are caught -------------------

EVASIONS = [  # each one runs as `--body`, and the plain rule misses every one
    'gh pr create --bo"dy" x',
    "gh pr create --b'o'd'y' x",
    'gh pr create "--body" x',
    "gh pr create --bo\\dy x",
    "gh pr create \\-\\-body x",
    "gh pr create --b\\o\\d\\y x",
    "gh pr create $'--body' x",
    "gh pr create $'\\x2d\\x2dbody' x",
    "gh pr create $'\\x2D-\\x62ody' x",
    "gh pr create $'\\055\\055body' x",
    "gh pr create $'\\455\\455body' x",
    "gh pr create $'\\u002d\\u002dbody' x",
    "gh pr create $'\\U0000002d\\U0000002dbody' x",
    "gh pr create $'\\-\\-bo\\dy' x",
    "gh pr create $'--bo'\"dy\" x",
    "gh pr create $'\\c-'--body",
]


@pytest.mark.parametrize("command", EVASIONS)
def test_positive_control_evasive_spellings_are_matched(command: str) -> None:
    assert BODY_RE.search(command) is None
    assert matches_raw_or_scannable(BODY_RE, command) is True


@pytest.mark.parametrize(
    "command", ["gh pr create --body x", "gh pr create --body=draft.md", "gh pr create --body"]
)
def test_positive_control_plain_spellings_are_matched(command: str) -> None:
    assert matches_raw_or_scannable(BODY_RE, command) is True


# --- pass 1: ANSI-C decoding, rule by rule -----------------------------------------------

DECODING = [
    # \x: one or two hex digits, greedy
    ("$'\\x41'", "A"),
    ("$'\\x4'", "\x04"),
    ("$'\\x414'", "A4"),
    ("$'\\xg'", "xg"),
    ("$'\\xff'", "\xff"),
    ("$'\\xFf'", "\xff"),
    # \u: one to four hex digits
    ("$'\\u41'", "A"),
    ("$'\\u00e9'", "é"),
    ("$'\\u00e9f'", "éf"),
    ("$'\\ud800'", "\ud800"),  # lone surrogate allowed
    ("$'\\u'", "u"),
    ("$'\\uzz'", "uzz"),
    # \U: one to eight hex digits, in range or the text without its backslash
    ("$'\\U41'", "A"),
    ("$'\\U0001F600'", "\U0001f600"),
    ("$'\\U0010FFFF'", "\U0010ffff"),
    ("$'\\U00110000'", "U00110000"),
    ("$'\\U000000411'", "A1"),
    ("$'\\U'", "U"),
    # \c: control characters
    ("$'\\cA'", "\x01"),
    ("$'\\ca'", "\x01"),
    ("$'\\c['", "\x1b"),
    ("$'\\c@'", "\x00"),
    ("$'\\c?'", "\x7f"),
    ("$'\\c'", "c"),
    ("$'\\c\\''", "\x1c"),  # \c takes the backslash; the decoded quote goes in pass 2
    ("$'\\cé'", chr(ord("é") & 0x1F)),
    # octal: one to three digits, eight bits
    ("$'\\0'", "\x00"),
    ("$'\\101'", "A"),
    ("$'\\1012'", "A2"),
    ("$'\\18'", "\x018"),
    ("$'\\7'", "\x07"),
    ("$'\\400'", "\x00"),
    ("$'\\377'", "\xff"),
    ("$'\\8'", "8"),
    # single-letter escapes
    ("$'\\a'", "\x07"),
    ("$'\\b'", "\x08"),
    ("$'\\e'", "\x1b"),
    ("$'\\E'", "\x1b"),
    ("$'\\f'", "\x0c"),
    ("$'\\n'", "\n"),
    ("$'\\r'", "\r"),
    ("$'\\t'", "\t"),
    ("$'\\v'", "\x0b"),
    ("$'\\?'", "?"),
    # anything else: backslash dropped
    ("$'\\q'", "q"),
    ("$'\\ '", " "),
    ("$'\\$'", "$"),
]


@pytest.mark.parametrize(("text", "expected"), DECODING)
def test_ansi_c_escapes(text: str, expected: str) -> None:
    assert scannable_command(text) == expected


def test_escaped_backslash_decodes_to_a_backslash_that_pass_3_then_judges() -> None:
    assert scannable_command("$'\\\\ '") == "\\ "  # backslash before a space stays
    assert scannable_command("$'\\\\q'") == "q"  # backslash before a letter goes in pass 3
    assert scannable_command("$'\\\\\\\\'") == "\\\\"


def test_quotes_produced_by_decoding_are_removed() -> None:
    assert scannable_command("$'a\\'b'") == "ab"
    assert scannable_command("$'a\\\"b'") == "ab"
    assert scannable_command("$'\\x27--body\\x27'") == "--body"


def test_token_boundaries() -> None:
    # tokens are replaced left to right, without overlap
    assert scannable_command("$'a'$'b'") == "ab"
    assert scannable_command("x$'\\x41'y$'\\x42'z") == "xAyBz"
    # a raw line feed may sit in the body
    assert scannable_command("$'a\nb\\x41'") == "a\nbA"
    # a backslash before a line feed ends the chance of a token
    assert scannable_command("$'a\\\nb'") == "$a\\\nb"
    # unterminated: quotes go in pass 2, escapes are never decoded
    assert scannable_command("$'\\x41") == "$x41"
    # a dollar sign without a quote is just text
    assert scannable_command("$HOME '\\x41'") == "$HOME x41"
    # an escaped quote inside the body does not end it
    assert scannable_command("$'it\\'s' --body") == "its --body"


def test_digit_classes_are_ascii() -> None:
    # digit classes are ASCII: full-width digits are not hex
    assert scannable_command("$'\\x\uff11'") == "x\uff11"
    assert scannable_command("$'\\\u0661'") == "\u0661"


# --- pass 2: quotes -----------------------------------------------------------------------


def test_every_quote_character_is_removed() -> None:
    assert scannable_command("'a'\"b\"'") == "ab"
    assert scannable_command("'''") == ""
    assert scannable_command("it's") == "its"
    assert scannable_command('"\'"') == ""


# --- pass 3: backslashes ---------------------------------------------------------------


BACKSLASHES = [
    ("a\\b", "ab"),
    ("a\\Z", "aZ"),
    ("a\\0", "a0"),
    ("a\\9", "a9"),
    ("a\\-", "a-"),
    ("\\a", "a"),
    ("\\Z", "Z"),
    ("\\0", "0"),
    ("\\-", "-"),
    ("\\", "\\"),
    ("a\\", "a\\"),
    ("\\ ", "\\ "),
    ("\\$x", "\\$x"),
    ("a\\.b", "a\\.b"),
    ("a\\_b", "a\\_b"),
    ("a\\\nb", "a\\\nb"),
    ("a\\éb", "a\\éb"),
    ("C:\\Users", "C:\\Users"),
    ("\\\\server", "\\\\server"),
    (":\\a", ":\\a"),
    ("\n\\a", "\na"),
    (" \\a", " a"),
    ("a\\b\\c", "abc"),
    ("\\a\\b", "ab"),
    ("\\a\\b\\c", "abc"),
    ("docs\\specs\\plan.md", "docsspecsplan.md"),
    ("a\\\\\\b", "a\\\\\\b"),
]


@pytest.mark.parametrize(("text", "expected"), BACKSLASHES)
def test_backslash_pass(text: str, expected: str) -> None:
    assert scannable_command(text) == expected


def test_backslash_chains_are_finished_in_one_round() -> None:
    # The contract's non-overlapping rule leaves every other backslash of a chain for
    # the next round; this module reaches the same fixpoint in one (see the reference
    # test below), and the next round confirms it.
    assert sc._scannable_round("a\\b\\c") == "abc"
    assert sc._scannable_round("x\\a\\b\\c\\d\\e\\f\\g") == "xabcdefg"
    assert scannable_command("a\\b\\c") == "abc"


def test_one_round_applies_passes_in_order() -> None:
    # decoding first (its quotes go in pass 2, its backslashes in pass 3), one round
    assert sc._scannable_round("$'\\x27a\\x27'") == "a"
    assert sc._scannable_round("$'\\\\b'") == "b"
    assert sc._scannable_round("'\\a") == "a"
    assert sc._scannable_round("\\a") == "a"
    assert sc._scannable_round("ab") == "ab"
    assert sc._scannable_round('"a"') == "a"


def test_rounds_stop_at_max_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def growing(text: str) -> str:
        calls.append(text)
        return text + "x"

    monkeypatch.setattr(sc, "_scannable_round", growing)
    assert scannable_command("a") == "a" + "x" * MAX_PASSES
    assert len(calls) == MAX_PASSES


def test_rounds_stop_at_the_fixpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    real = sc._scannable_round
    calls: list[str] = []

    def counting(text: str) -> str:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(sc, "_scannable_round", counting)
    assert scannable_command("abc") == "abc"
    assert calls == ["abc"]
    calls.clear()
    assert scannable_command("a\\b\\c") == "abc"
    assert calls == ["a\\b\\c", "abc"]
    calls.clear()
    assert scannable_command("\\a\\b\\c") == "abc"
    assert calls == ["\\a\\b\\c", "abc"]


# --- genuine values --------------------------------------------------------------------


class _LyingStr(str):
    def __str__(self) -> str:
        raise AssertionError("__str__ must not be called")

    def replace(self, *args: object, **kwargs: object) -> str:  # type: ignore[override]
        raise AssertionError("replace must not be called")

    def __eq__(self, other: object) -> bool:
        raise AssertionError("__eq__ must not be called")

    def __hash__(self) -> int:
        return 0

    def __len__(self) -> int:
        return 0

    def __bool__(self) -> bool:
        return False


def test_str_subclass_is_judged_by_its_genuine_value() -> None:
    result = scannable_command(_LyingStr('--bo"dy"'))
    assert result == "--body"
    assert type(result) is str
    assert matches_raw_or_scannable(BODY_RE, _LyingStr('x --bo"dy"')) is True
    assert matches_raw_or_scannable(_LyingStr(r"--body\b"), "x --bo\\dy") is True


def test_str_subclass_empty_value_is_empty() -> None:
    assert scannable_command(_LyingStr("")) == ""
    assert matches_raw_or_scannable(re.compile(""), _LyingStr("")) is False


def test_result_is_exact_str() -> None:
    assert type(scannable_command("abc")) is str
    assert type(scannable_command(None)) is str


class _FakeStrClass:
    """Claims to be a str through __class__ but is not one."""

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return str

    def __str__(self) -> str:
        return "--body"


def test_an_object_posing_as_str_is_not_a_str() -> None:
    assert scannable_command(_FakeStrClass()) == ""
    assert matches_raw_or_scannable(BODY_RE, _FakeStrClass()) is False
    assert matches_raw_or_scannable(_FakeStrClass(), "--body") is False


# --- matches_raw_or_scannable ----------------------------------------------------------


def test_empty_command_never_matches_even_an_empty_pattern() -> None:
    assert matches_raw_or_scannable(re.compile(""), "") is False
    assert matches_raw_or_scannable("", "") is False
    assert matches_raw_or_scannable("", "x") is True
    assert matches_raw_or_scannable(re.compile("^$"), "") is False


def test_pattern_types() -> None:
    assert matches_raw_or_scannable(re.compile(rb"--body"), "x --body") is False
    assert matches_raw_or_scannable(b"--body", "x --body") is False
    assert matches_raw_or_scannable(None, "x --body") is False
    assert matches_raw_or_scannable(["--body"], "x --body") is False
    assert matches_raw_or_scannable("--body", "x --body") is True
    assert matches_raw_or_scannable("--body", "x --bo'dy'") is True
    assert matches_raw_or_scannable("--body", "x --bdoy") is False


def test_compiled_flags_are_honoured_and_string_patterns_get_none() -> None:
    assert matches_raw_or_scannable(re.compile("--BODY", re.IGNORECASE), "x --bo'dy'") is True
    assert matches_raw_or_scannable("--BODY", "x --bo'dy'") is False
    assert matches_raw_or_scannable(re.compile("^--body", re.MULTILINE), "x\n--body") is True
    assert matches_raw_or_scannable("^--body", "x\n--body") is False


def test_search_not_match_semantics() -> None:
    assert matches_raw_or_scannable("body", "x --body") is True
    assert matches_raw_or_scannable("body", "x --bo'dy'") is True


def test_result_is_a_bool() -> None:
    assert matches_raw_or_scannable("x", "x") is True
    assert matches_raw_or_scannable("y", "x") is False


def test_raw_leg_alone_and_normalized_leg_alone() -> None:
    # raw-only hit: normalization destroys the quotes the rule needs
    assert re.search(r"'--body'", scannable_command("x '--body'")) is None
    assert matches_raw_or_scannable(r"'--body'", "x '--body'") is True
    # normalized-only hit
    assert re.search(r"--body", "x --b'o'dy") is None
    assert matches_raw_or_scannable(r"--body", "x --b'o'dy") is True
    # neither
    assert matches_raw_or_scannable(r"--body", "x --bo dy") is False


def test_repeated_calls_agree() -> None:
    answers = {matches_raw_or_scannable(BODY_RE, "cmd --bo\\dy") for _ in range(5)}
    assert answers == {True}


def test_bad_string_pattern_is_loud_whatever_the_command() -> None:
    # The rule is compiled before the command is looked at: a broken deny rule is loud
    # on every call, not only on calls that carry a usable command.
    for command in ("--body", "", None, 42):
        with pytest.raises(re.error):
            matches_raw_or_scannable("[", command)


# --- WHAT THIS DOES NOT CATCH: each limit pinned ---------------------------------------


def test_limit_1_space_separated_tokens() -> None:
    assert scannable_command("--bo dy") == "--bo dy"
    assert matches_raw_or_scannable(BODY_RE, "cmd --bo dy") is False


def test_limit_2_variable_and_parameter_expansion() -> None:
    assert matches_raw_or_scannable(BODY_RE, "X=--body; cmd $X") is False
    assert matches_raw_or_scannable(BODY_RE, "X=--bo; cmd ${X}dy") is False
    assert scannable_command("cmd ${X}dy") == "cmd ${X}dy"


def test_limit_3_encoded_payloads() -> None:
    assert matches_raw_or_scannable(BODY_RE, "echo LS1ib2R5 | base64 -d | sh") is False


def test_limit_4_heredoc_quoting_is_not_distinguished() -> None:
    quoted = "cat <<'EOF'\n$HOME\nEOF"
    bare = "cat <<EOF\n$HOME\nEOF"
    assert scannable_command(quoted) == scannable_command(bare)
    # heredoc bodies stay visible text
    assert matches_raw_or_scannable(BODY_RE, "sh <<'EOF'\ncmd --body x\nEOF") is True


def test_limit_5_locale_strings() -> None:
    assert scannable_command('cmd $"--body"') == "cmd $--body"
    assert matches_raw_or_scannable(BODY_RE, 'cmd $"--body"') is False


def test_limit_6_brace_expansion_and_globs() -> None:
    assert scannable_command("--bo{d,}y") == "--bo{d,}y"
    assert matches_raw_or_scannable(BODY_RE, "cmd --bo{d,}y x") is False
    assert matches_raw_or_scannable(BODY_RE, "cmd --bod? x") is False


def test_limit_7_interior_path_separators() -> None:
    assert scannable_command("type C:\\Users\\me\\notes.txt") == "type C:\\Usersmenotes.txt"
    assert re.search(r"Users\\me", scannable_command("type C:\\Users\\me\\notes.txt")) is None
    # the raw leg still carries a path-shaped rule
    assert matches_raw_or_scannable(r"Users\\me", "type C:\\Users\\me\\notes.txt") is True


def test_limit_8_context_is_not_modelled() -> None:
    # bash would not decode $'..' inside double quotes; this module does (a widening)
    assert scannable_command("\"$'\\x41'\"") == "A"
    # an alias or function body is not looked up
    assert matches_raw_or_scannable(BODY_RE, "alias b='gh pr create --bo'; b dy") is False


# --- the reference, literally: rounds of the three passes exactly as documented ---------

_REF_TOKEN = re.compile(r"\$'((?:[^'\\]|\\.)*)'")
_REF_ESCAPE = re.compile(
    r"\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|c.|[0-7]{1,3}|.)"
)
_REF_SIMPLE = dict(zip("abeEfnrtv", "\a\b\x1b\x1b\f\n\r\t\v", strict=True))


def _ref_escape(m: re.Match[str]) -> str:
    e = m.group(1)
    if e[0] in "xu" and len(e) > 1:
        return chr(int(e[1:], 16))
    if e[0] == "U" and len(e) > 1:
        return chr(int(e[1:], 16)) if int(e[1:], 16) <= 0x10FFFF else e
    if e[0] == "c" and len(e) == 2:
        return "\x7f" if e[1] == "?" else chr(ord(e[1]) & 0x1F)
    if e[0] in "01234567":
        return chr(int(e, 8) & 0xFF)
    return _REF_SIMPLE.get(e, e)


def _reference(text: str) -> str:
    if not text:
        return ""
    for _ in range(8):
        out = _REF_TOKEN.sub(lambda m: _REF_ESCAPE.sub(_ref_escape, m.group(1)), text)
        out = re.sub("['\"]", "", out)
        out = re.sub(r"([^\\:])\\([A-Za-z0-9-])", r"\1\2", out)
        out = re.sub(r"^\\([A-Za-z0-9-])", r"\1", out)
        if out == text:
            break
        text = out
    return text


@pytest.mark.parametrize(("text", "expected"), ACCEPTANCE + DECODING + BACKSLASHES)
def test_reference_agrees_with_the_acceptance_tables(text: str, expected: str) -> None:
    assert _reference(text) == expected


@given(ANY_TEXT)
def test_property_same_result_as_the_literal_contract(text: str) -> None:
    assert scannable_command(text) == _reference(text)


# --- properties -------------------------------------------------------------------------


@given(ANY_TEXT)
def test_property_idempotent_at_fixpoint(text: str) -> None:
    once = scannable_command(text)
    assert scannable_command(once) == once


@given(ANY_TEXT)
def test_property_fixpoint_within_three_rounds(text: str) -> None:
    current = text
    rounds = 0
    while True:
        rounds += 1
        nxt = sc._scannable_round(current)
        if nxt == current:
            break
        current = nxt
    assert rounds <= 3
    assert current == scannable_command(text)


@given(ANY_TEXT)
def test_property_no_quotes_survive(text: str) -> None:
    out = scannable_command(text)
    assert "'" not in out
    assert '"' not in out


@given(
    ANY_TEXT,
    st.sampled_from(
        [
            BODY_RE,
            re.compile(r"\\"),
            re.compile("'"),
            re.compile(r"\$"),
            re.compile(r"\S+"),
            re.compile(r"a\\b"),
            re.compile("^$"),
        ]
    ),
)
def test_property_raw_or_normalized_never_narrower_than_raw(
    text: str, rule: re.Pattern[str]
) -> None:
    hit = matches_raw_or_scannable(rule, text)
    if text and rule.search(text) is not None:
        assert hit is True
    assert hit is (
        bool(text)
        and (rule.search(text) is not None or rule.search(scannable_command(text)) is not None)
    )


@given(st.from_regex(r"[a-z]{1,3}", fullmatch=True), ANY_TEXT)
def test_property_string_rules_never_narrower_than_raw(word: str, text: str) -> None:
    if text and re.search(word, text):
        assert matches_raw_or_scannable(word, text) is True


@given(st.one_of(ANY_TEXT, st.none(), st.integers(), st.binary(), st.lists(st.text())))
def test_property_never_raises_and_always_str(value: object) -> None:
    assert type(scannable_command(value)) is str
    assert type(matches_raw_or_scannable(BODY_RE, value)) is bool
    if isinstance(value, str):
        try:
            re.compile(value)
        except (re.error, OverflowError):  # CPython's parser overflows on r"\U80000000"
            return  # a broken string rule is loud by contract (tested above)
    assert type(matches_raw_or_scannable(value, "cmd --body")) is bool  # type: ignore[arg-type]


@given(ANY_TEXT)
def test_property_deterministic(text: str) -> None:
    assert scannable_command(text) == scannable_command(text)


# --- adversarial size -------------------------------------------------------------------


@pytest.mark.parametrize(
    "piece",
    [
        "$'",
        "$'\\",
        "\\",
        "a\\",
        "$'a\\\n",
        "'\"",
        "$'\\x",
        "\\-",
        "$'$'\\'",
        "$'" + "a" * 50 + "\\\n",
    ],
)
def test_adversarial_size_finishes_quickly(piece: str) -> None:
    text = (piece * (200_000 // len(piece) + 1))[:200_000]
    start = time.perf_counter()
    out = scannable_command(text)
    matches_raw_or_scannable(BODY_RE, text)
    assert time.perf_counter() - start < 2.0  # a generous adversarial bound, not a benchmark
    assert scannable_command(out) == out


def test_long_token_body_decodes() -> None:
    text = "$'" + "\\x41" * 50_000 + "'"
    assert scannable_command(text) == "A" * 50_000
