"""Escape-aware scanning: secrets inside JSON string escapes, percent-encoding and
backslash-wrapped lines are found at both boundaries, and the output stays valid JSON.

Contract tested here: for a JSON line, `json.loads(redacted)` succeeds, no value survives in
either the raw or the decoded text, and every character outside the replaced spans is
unchanged. Replaced spans cover whole escape sequences only.
"""

from __future__ import annotations

import json
import pathlib
import urllib.parse

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agentops.secret_redaction as sr
from agentops.secret_redaction import find_secret_shapes, redact_secret_shapes, scrub_for_storage

AWS_ID = "AKIA" + "QX7MZP2RWK4TN5VB"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "9fQ2mZr8Lk"
_HOOKS = "https://hooks.slack.com/services/"  # agentops: allow-secret
SLACK_HOOK = _HOOKS + "T0A1B2C3D/B4E5F6G7H/" + "q8R9s0T1u2V3w4X5y6Z7a8B9"
PG_PASSWORD = "Vq8rT2mXk9LpZ4wN"  # agentops: allow-secret
PG_URI = f"postgres://admin:{PG_PASSWORD}@db.internal:5432/app"  # agentops: allow-secret
_BODY_HEAD = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0"  # agentops: allow-secret
PRIVATE_BODY = _BODY_HEAD + "tRgeLezV6ffAt0gunVTLw7onLRnrq0"  # agentops: allow-secret
_BEGIN = "-----BEGIN RSA PRIVATE KEY-----\n"  # agentops: allow-secret
PRIVATE_KEY = _BEGIN + PRIVATE_BODY + "\n-----END RSA PRIVATE KEY-----\n"
DB_PASSWORD = "Hx7-kQ2pZ9vRt4Lm"  # agentops: allow-secret


def _line(content: str) -> str:
    """A transcript line as an agent harness writes it."""
    return json.dumps({"type": "tool_result", "content": content})


def _php(line: str) -> str:
    """PHP's json_encode escapes every slash."""
    return line.replace("/", "\\/")


def _unicode_quotes(line: str) -> str:
    """Inner quotes written as \\u0022, as some encoders do."""
    return line.replace('\\"', "\\u0022")


CONFIGS = {
    "aws-credentials": (
        f"[default]\naws_access_key_id = {AWS_ID}\naws_secret_access_key = {AWS_SECRET}\n",
        (AWS_ID, AWS_SECRET),
    ),
    "slack-webhook": (f'SLACK_WEBHOOK_URL="{SLACK_HOOK}"\n', (SLACK_HOOK[-24:],)),
    "postgres-uri": (f"DATABASE_URL={PG_URI}\nDEBUG=false\n", (PG_PASSWORD,)),
    "private-key": (f"# deploy key\n{PRIVATE_KEY}", (PRIVATE_BODY[:40],)),
    "json-password": (
        json.dumps({"db": {"user": "app", "password": DB_PASSWORD}}, indent=2),
        (DB_PASSWORD,),
    ),
    "env-password": (f'export DB_PASSWORD="{DB_PASSWORD}"\n', (DB_PASSWORD,)),
}
WRAPPERS = {"plain": lambda s: s, "php": _php, "unicode": _unicode_quotes}


def _gone(text: str, values: tuple[str, ...]) -> None:
    for value in values:
        for form in (value, json.dumps(value)[1:-1], _php(json.dumps(value)[1:-1])):
            assert form not in text
            assert form[:12] not in text


@pytest.mark.parametrize("wrap", sorted(WRAPPERS))
@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_config_inside_a_json_line_is_redacted_and_the_line_still_parses(
    config: str, wrap: str
) -> None:
    content, values = CONFIGS[config]
    line = WRAPPERS[wrap](_line(content))
    assert json.loads(line)["content"] == content  # the fixture is a faithful JSON line
    shown = redact_secret_shapes(line).text
    _gone(shown, values)
    _gone(json.loads(shown)["content"], values)
    stored = scrub_for_storage(line, sidecar=True).text
    _gone(stored, values)
    _gone(json.loads(stored)["content"], values)


def test_uri_before_an_escaped_newline_does_not_run_into_the_private_key() -> None:
    """The reported bug: `...[redacted:db-uri-creds]]"` ate the key's token and its newline."""
    line = _line(f"DATABASE_URL={PG_URI}\n{PRIVATE_KEY}")
    shown = redact_secret_shapes(line)
    content = json.loads(shown.text)["content"]
    assert content == "DATABASE_URL=[redacted:db-uri-creds]\n[redacted:private-key]\n"
    assert "]]" not in shown.text
    stored = json.loads(scrub_for_storage(line, sidecar=True).text)["content"]
    assert stored.startswith("DATABASE_URL=<REDACTED:db-uri-creds:")
    assert "\n<REDACTED:private-key:" in stored


def test_uri_with_php_slashes_keeps_the_neighbouring_line() -> None:
    line = _php(_line(f"DATABASE_URL={PG_URI}\nDEBUG=false\n"))
    assert "postgres:\\/\\/admin" in line
    content = json.loads(redact_secret_shapes(line).text)["content"]
    assert content.endswith("\nDEBUG=false\n")
    assert PG_PASSWORD not in content


def test_a_redaction_never_cuts_an_escape_sequence_in_half() -> None:
    line = _unicode_quotes(_line(f'password = "{DB_PASSWORD}"\n'))
    assert "\\u0022" + DB_PASSWORD in line
    shown = redact_secret_shapes(line).text
    assert shown.count("\\u0022") == 2
    assert json.loads(shown)["content"] == 'password = "[redacted:keyed-secret]"\n'
    for found in find_secret_shapes(line):
        piece = line[found.start : found.end]
        assert not piece.startswith(("u0022", "0022", "22")) and not piece.endswith("\\")


def test_escaped_quotes_around_a_raw_match_stay() -> None:
    """Raw, `-p\\u0027v\\u0027` is one unquoted word; the quotes must survive."""
    mysql = "mysql -u root -p'Basil65' shop\n"  # agentops: allow-secret
    line = _line(mysql).replace("'", "\\u0027")
    shown = redact_secret_shapes(line).text
    assert "Basil65" not in shown and shown.count("\\u0027") == 2
    assert json.loads(shown)["content"] == "mysql -u root -p'[redacted:keyed-secret]' shop\n"


def test_percent_encoded_aws_secret_in_a_url() -> None:
    quoted = urllib.parse.quote(AWS_SECRET, safe="")
    assert "%2F" in quoted
    text = f"GET https://s3.example.com/upload?AWSAccessKeyId={AWS_ID}&Secret={quoted}&x=1\n"
    shown = redact_secret_shapes(text).text
    assert quoted[:12] not in shown and AWS_ID not in shown
    assert shown.endswith("&x=1\n")
    assert quoted[:12] not in scrub_for_storage(text, sidecar=True).text


def test_token_wrapped_with_a_trailing_backslash() -> None:
    token = "ghp_" + "R8mK2qZ7xV4nT9wL3pJ6sB1cF5hD0gY8aE2u"
    text = f'export GH_TOKEN="{token[:20]}\\\n{token[20:]}"\necho done\n'
    shown = redact_secret_shapes(text).text
    assert token[:12] not in shown and token[-12:] not in shown
    assert shown.endswith('"\necho done\n')
    stored = scrub_for_storage(text, sidecar=True).text
    assert token[:12] not in stored and token[-12:] not in stored


def test_json_line_nested_inside_a_json_line() -> None:
    inner = _line(f'export DB_PASSWORD="{DB_PASSWORD}"\n')
    line = _line(inner + "\n")
    shown = redact_secret_shapes(line).text
    assert DB_PASSWORD not in shown
    content = json.loads(json.loads(shown)["content"])["content"]
    assert content == 'export DB_PASSWORD="[redacted:keyed-secret]"\n'


# ---- negatives: escaped text with no secret comes back byte-identical ---------------------

STDLIB_JSON = pathlib.Path(json.__file__).parent


def _chunks() -> list[str]:
    chunks: list[str] = []
    for path in sorted(STDLIB_JSON.glob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        chunks.extend("".join(lines[i : i + 40]) for i in range(0, len(lines), 40))
    return chunks


def test_stdlib_json_sources_as_json_lines_come_back_byte_identical() -> None:
    """The json package's sources are full of backslash escapes and % formats."""
    chunks = _chunks()
    assert len(chunks) > 20
    for chunk in chunks:
        if redact_secret_shapes(chunk).text != chunk:
            continue  # the raw chunk is already redacted: no claim about its JSON form
        for line in (_line(chunk), _php(_line(chunk)), json.dumps(chunk, ensure_ascii=True)):
            assert redact_secret_shapes(line).text == line
            assert find_secret_shapes(line) == ()


@pytest.mark.parametrize(
    "text",
    [
        '{"path": "C:\\\\Users\\\\build\\\\new\\\\table.txt", "ok": true}',
        '{"msg": "progress 100%\\n done \\u2713", "url": "https:\\/\\/example.com\\/a%20b"}',
        "set PATH=%PATH%;%DB_PASSWORD%;%APPDATA%\\bin\n",
        'printf "%5d %-20s\\n" "$n" "$name"\n',
        "ls -la \\\n  /tmp\n",
    ],
)
def test_escaped_benign_text_is_byte_identical(text: str) -> None:
    assert redact_secret_shapes(text).text == text
    assert scrub_for_storage(text, sidecar=False).text == text


def test_text_without_backslash_or_percent_takes_the_plain_path() -> None:
    """The benign path is unchanged: no decoded view is built."""
    assert not sr._has_escape("password = 'x'\nno escapes here, 100 percent\n")
    assert not sr._has_escape("100%DB_PASSWORD% \\d+ C:\\Users")
    assert sr._has_escape("a\\nb") and sr._has_escape("a%2Fb")


# ---- documented limits ----------------------------------------------------------------------


def test_limit_a_secret_split_into_concatenated_literals_passes_under_a_neutral_key() -> None:
    """Joining the lines leaves `"a" "b"`: two short literals, no single value; under a
    credential-named key each literal is the value's part (the positive control)."""
    value = "Zq4" + "Xm9tRw2KpL7vNb3HsD8fJ"
    text = f'SERVICE_VALUE = "{value[:10]}" \\\n    "{value[10:]}"\n'
    assert redact_secret_shapes(text) == (text, ())
    keyed = redact_secret_shapes(text.replace("SERVICE_VALUE", "API_KEY")).text
    assert value[:10] not in keyed and value[10:] not in keyed


def test_limit_only_two_levels_of_escaping_are_decoded() -> None:
    content = f'export DB_PASSWORD="{DB_PASSWORD}"\n'
    twice = _line(_line(content) + "\n")
    thrice = _line(twice + "\n")
    assert DB_PASSWORD not in redact_secret_shapes(twice).text
    assert DB_PASSWORD in redact_secret_shapes(thrice).text


def test_limit_percent_decoding_covers_printable_ascii_only() -> None:
    """`%DB_PASSWORD%` is a Windows variable, not byte 0xDB: bytes above 0x7F stay encoded."""
    assert sr._decoded_views("a%DBb%C3%A9")[0] == []
    assert sr._decoded_views("a%2Fb")[0][0].text == "a/b"


def test_limit_a_window_reads_one_line_of_context() -> None:
    """A public key's body is kept for its armor header in the raw text; beside an escape,
    the decoded window starts one line above it and no longer sees the header."""
    body = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIB" + "CgKCAQEAu1SU1LfVLPHCozMxH2Mo"
    plain = f"-----BEGIN PUBLIC KEY-----\nline a\nline b\nprint('x')\n{body}\n"
    assert redact_secret_shapes(plain).text == plain
    escaped = plain.replace("print('x')", "print('x\\n')")
    assert redact_secret_shapes(escaped).shapes == ("long-base64",)


def test_limit_escaped_text_reports_one_shape_per_united_span() -> None:
    """Overlapping raw and decoded findings become one token named after the first."""
    line = _line(f"DATABASE_URL={PG_URI}\n")
    assert redact_secret_shapes(line).shapes == ("db-uri-creds",)


# ---- properties --------------------------------------------------------------------------------

_PIECES = st.sampled_from(
    [
        "password=",
        DB_PASSWORD,
        AWS_SECRET,
        PG_URI,
        "\n",
        '"',
        "\\",
        "%2F",
        "%",
        "/",
        "\u2713",
        "-----BEGIN RSA PRIVATE KEY-----\n",  # agentops: allow-secret
        " ",
        "x",
    ]
)
_TEXTS = st.lists(_PIECES | st.text(max_size=6), max_size=12).map("".join)


@settings(max_examples=150, deadline=None)
@given(_TEXTS)
def test_a_redacted_json_line_always_parses(content: str) -> None:
    line = _line(content)
    json.loads(redact_secret_shapes(line).text)
    json.loads(scrub_for_storage(line, sidecar=True).text)
    php = _php(line)
    json.loads(redact_secret_shapes(php).text)


@settings(max_examples=150, deadline=None)
@given(_TEXTS)
def test_escaped_display_is_idempotent_and_found_spans_match(content: str) -> None:
    line = _php(_line(content))
    once = redact_secret_shapes(line)
    assert redact_secret_shapes(once.text).text == once.text
    found = find_secret_shapes(line)
    assert tuple(f.shape for f in found) == once.shapes or once.text == sr.NONCONVERGENT_TOKEN


@pytest.mark.parametrize(
    "unit",
    [
        'password="\\" ',
        "\\u0022password=\\u0022",
        "%2Ftoken=",
        "\\\n",
        "x\\npostgres://a:b@",
        "\\\\",
    ],
)
def test_adversarial_escape_runs_finish(unit: str) -> None:
    """A generous adversarial bound, not a speed figure (benchmarks/redact_speed.py is):
    one claim per escape once rebuilt a table per span, quadratic in the escapes."""
    import time

    text = (unit * (200_000 // len(unit) + 1))[:200_000]
    started = time.process_time()
    redact_secret_shapes(text)
    scrub_for_storage(text, sidecar=True)
    assert time.process_time() - started < 5.0


def test_truncated_key_block_stays_inside_its_string_on_any_line() -> None:
    """A key block with no END line runs to the end of its text; inside a JSON string it
    stops before the closing quote, in the first string of a line and on a later line."""
    block = "-----BEGIN RSA PRIVATE KEY-----\n" + PRIVATE_BODY  # agentops: allow-secret
    first = json.dumps([block, "tail"])
    text = _line("ok") + "\n" + first + "\n"
    shown = redact_secret_shapes(text).text
    head, second, end = shown.split("\n")
    assert head == _line("ok") and end == ""
    assert json.loads(second)[0] == "[redacted:private-key]"
    assert PRIVATE_BODY[:12] not in shown


def test_fit_raw_keeps_whole_escapes_at_both_ends() -> None:
    raw = "\\u0022abc\\u0022 x\\ny"
    _, escapes, _ = sr._decoded_views(raw)
    assert sr._fit_raw(2, 10, escapes) == (6, 9)  # starts inside the first escape
    assert sr._fit_raw(6, 12, escapes) == (6, 9)  # ends inside the closing escape
    assert sr._fit_raw(0, 15, escapes) == (6, 9)  # escaped quotes at both ends dropped
    assert sr._fit_raw(16, 20, escapes) == (16, 17)  # cut before the escaped newline


# ---- decoded windows -------------------------------------------------------------------------
# Only lines that hold an escape (and one line around them) are decoded and scanned again.

_ESCAPY = st.lists(
    st.sampled_from(["\\", "n", "u", "0022", "%", "2F", "4", "\n", "\r", '"', "a", " ", "\\\n"]),
    max_size=40,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(_ESCAPY)
def test_windows_decode_to_the_same_characters_as_the_whole_text(text: str) -> None:
    """Decoding each window alone, with the text between windows left as it is, gives the
    whole text's decoding: no window starts or ends inside an escape."""
    windows = sr._escape_windows(text)
    pieces: list[str] = []
    last = 0
    for lo, hi in windows:
        assert last <= lo < hi <= len(text)
        assert lo == 0 or text[lo - 1] == "\n"
        assert not sr._has_escape(text[last:lo])
        pieces.append(text[last:lo])
        pieces.append(sr._ESCAPE.sub(sr._unescape, text[lo:hi]))
        last = hi
    assert not sr._has_escape(text[last:])
    pieces.append(text[last:])
    assert "".join(pieces) == sr._ESCAPE.sub(sr._unescape, text)


@settings(max_examples=300, deadline=None)
@given(_ESCAPY)
def test_escapes_are_the_regex_matches_in_order(text: str) -> None:
    assert [m.span() for m in sr._escapes(text)] == [m.span() for m in sr._ESCAPE.finditer(text)]


def test_windows_take_the_escaped_line_and_one_line_around_it() -> None:
    lines = [f"line {i}" for i in range(9)]
    lines[4] = 'print("a\\nb")'
    text = "\n".join(lines) + "\n"
    (window,) = sr._escape_windows(text)
    assert text[slice(*window)] == "line 3\n" + lines[4] + "\nline 5\n"


def test_a_wrapped_line_at_a_windows_end_takes_the_line_it_joins() -> None:
    text = "a\nb\nc\\\nd\ne\nf\ng\n"
    (window,) = sr._escape_windows(text)
    assert text[slice(*window)] == "b\nc\\\nd\ne\n"


@pytest.mark.parametrize("boundary", ["display", "storage"])
def test_a_secret_beside_escapes_is_found_far_into_a_long_text(boundary: str) -> None:
    """Positive control for the windows: plain lines all around, escapes on one line only."""
    filler = "".join(f"plain line {i} with nothing in it\n" for i in range(40))
    secrets_line = json.dumps({"env": f'DB_PASSWORD="{DB_PASSWORD}"\nDEBUG=1'}) + "\n"
    wrapped = f"export API_TOKEN={AWS_SECRET[:20]}\\\n{AWS_SECRET[20:]}\n"
    text = filler + secrets_line + filler + wrapped + filler
    if boundary == "display":
        out = redact_secret_shapes(text).text
    else:
        out = scrub_for_storage(text, sidecar=True).text
    assert DB_PASSWORD not in out and AWS_SECRET[20:] not in out
    assert out.startswith(filler) and out.endswith(filler)


def test_many_escaped_lines_and_one_far_percent_sign_finish() -> None:
    """A generous adversarial bound, not a speed figure: looking for the next escape from
    each line once searched the text again for a far percent sign, quadratic in the lines."""
    import time

    text = 'x = "a\\n"\n' * 40_000 + "%"
    started = time.process_time()
    redact_secret_shapes(text)
    scrub_for_storage(text, sidecar=True)
    assert time.process_time() - started < 5.0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("\nab\\n\nc\nd\ne\n", "\nab\\n\nc\n"),  # the escape on the second line
        ("\n\nx\\t\n", "\nx\\t\n"),  # a blank line of context
        ("a\\n", "a\\n"),  # one line, no line break
        ("a\nb\\\nc\nd\ne", "a\nb\\\nc\nd\n"),  # a wrap joins c to b
    ],
)
def test_windows_exactly(text: str, expected: str) -> None:
    (window,) = sr._escape_windows(text)
    assert text[slice(*window)] == expected


PERCENT_URI = urllib.parse.quote(PG_URI, safe="")  # postgres%3A%2F%2Fadmin%3A...


def test_a_secret_only_the_decoded_view_shows_is_replaced_exactly() -> None:
    text = f"url={PERCENT_URI} ok\n"
    assert redact_secret_shapes(text).text == "url=[redacted:db-uri-creds] ok\n"
    scrubbed = scrub_for_storage(text, sidecar=True)
    (original,) = scrubbed.originals  # the storage boundary may claim `url=` with it
    assert original.endswith(PERCENT_URI) and scrubbed.text.endswith("> ok\n")


def test_a_decoded_view_that_does_not_converge_fails_closed() -> None:
    """With one pass allowed, a finding cannot be confirmed: the raw text finds nothing
    here, its decoded view does, so the whole answer is the fail-closed token."""
    assert redact_secret_shapes(f"url={PERCENT_URI}", max_passes=1).text == sr.NONCONVERGENT_TOKEN


@pytest.mark.parametrize("boundary", ["display", "storage"])
def test_a_secret_far_from_every_escape_is_still_found(boundary: str) -> None:
    """The raw text's own findings stand beside the windows' (positive control)."""
    pad = "pad line\n" * 5
    text = f"x = 'a\\n'\n{pad}aws_secret_access_key = {AWS_SECRET}\n"
    if boundary == "display":
        out = redact_secret_shapes(text).text
    else:
        out = scrub_for_storage(text, sidecar=True).text
    assert AWS_SECRET not in out and out.startswith("x = 'a\\n'\n")


def _both_levels_parse(line: str) -> None:
    inner = json.loads(line)["content"]
    json.loads(inner)


@pytest.mark.parametrize(
    "content",
    [
        f'    environment:\n      SECRET_KEY_BASE: "{AWS_SECRET}"\n',
        f'val minioRootPassword = "{DB_PASSWORD}"\n',  # agentops: allow-secret
        "\x1f" + AWS_SECRET,  # written \\u001f twice: the storage boundary once took a backslash
        f'config = {{\n    "db_pass": "{AWS_SECRET}",\n}}\n',
    ],
)
def test_a_quote_escaped_twice_keeps_its_backslashes(content: str) -> None:
    """In a JSON line inside a JSON string the value's closing quote is `\\\\\\"`: neither
    boundary may take the escaped backslash in front of it (the inner line would break)."""
    line = _line(_line(content))
    for out in (redact_secret_shapes(line).text, scrub_for_storage(line, sidecar=True).text):
        _both_levels_parse(out)
        assert AWS_SECRET not in out and DB_PASSWORD not in out


_NESTED_PIECES = st.sampled_from(
    [DB_PASSWORD, AWS_SECRET, PG_URI, "password=", "token: ", "\n", '"', "'", "\\", " ", "x", ","]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_NESTED_PIECES | st.text(max_size=6), max_size=12).map("".join))
def test_a_nested_json_line_still_parses_at_both_levels(content: str) -> None:
    line = _line(_line(content))
    _both_levels_parse(redact_secret_shapes(line).text)
    _both_levels_parse(scrub_for_storage(line, sidecar=True).text)


@pytest.mark.parametrize(
    "content",
    [
        'password="000\\',  # found by the property above: the view read `\\"}` as the value's
        'token = "' + "Qm7vX2" + "pL9kR4tW8\\",
        '{"api_key": "' + "Qm7vX2" + 'pL9kR4tW8\\\\"}',
    ],
)
def test_a_value_read_in_a_decoded_view_never_eats_an_inner_documents_closing_quote(
    content: str,
) -> None:
    for levels in (2, 3):
        line = content
        for _ in range(levels):
            line = _line(line)
        shown = redact_secret_shapes(line).text
        assert levels == 3 or "[redacted:" in shown, shown  # three levels: a documented limit
        for _ in range(levels):
            shown = json.loads(shown)["content"]  # every level still parses


def test_a_truncated_key_block_two_levels_deep_ends_before_the_inner_closing_quote() -> None:
    block = "-----BEGIN RSA PRIVATE KEY-----\n" + PRIVATE_BODY  # agentops: allow-secret
    line = _line(_line(block))
    shown = redact_secret_shapes(line).text
    assert PRIVATE_BODY[:12] not in shown
    assert json.loads(json.loads(shown)["content"])["content"] == "[redacted:private-key]"


def test_a_token_name_is_never_read_as_a_key() -> None:
    """Found by the idempotence property: the first display left `...[redacted:keyed-secret]
    =00011\\u001b`, and a second pass read the token's name as a key."""
    line = _php(_line("password=" + AWS_SECRET + "password=00011\x1b"))
    once = redact_secret_shapes(line).text
    assert redact_secret_shapes(once).text == once
    assert redact_secret_shapes("[redacted:keyed-secret]=Qx7vB2mK9pLw4RtZ").shapes == ()


def test_windows_closer_than_the_gap_are_one_and_far_ones_stay_apart() -> None:
    near = "a\\n\n" + "plain\n" * 10 + "b\\n\n"
    assert sr._escape_windows(near) == [(0, len(near))]
    filler = "plain line\n" * (sr._WINDOW_GAP // 10)
    far = "a\\n\n" + filler + "b\\n\n"
    first, second = sr._escape_windows(far)
    assert first == (0, len("a\\n\n") + len("plain line\n"))
    assert second[1] == len(far) and second[0] > first[1] + sr._WINDOW_GAP


# A generic run that an escape cuts is judged in the decoded view, where it is whole: in the
# raw text the letter of `\n` or the slash of `\/` joins the run beside it.
_SHA_A = "72969a5da8cc93aa591dc590" + "f9374bca77676163"
_SHA_B = "63aea3a41e0d1f2c7b8e9a4d" + "5c6f7e8d9a0b1c2d"
_SRI = (
    "ZGqtA6wY/y+CaBTq7+VfXkPq" + "Lm4Rt8Wz2Xc5Vb9Nm1Qs3Df6Gh8Jk0Lp2Zx4Cv6Bn8Mq0We2Rt4Yu6Io8Pa0Sd=="
)


@pytest.mark.parametrize(
    "content",
    [
        f"{_SHA_A} dev Refactor loader\n{_SHA_B} ops Merge pull request #583",
        '{\n  "integrity": "sha512-' + _SRI + '"\n}',
        "git log --format='%H %an %s'\n" + f"{_SHA_B} ops Add retry",
    ],
)
def test_a_generic_run_an_escape_cuts_is_judged_decoded(content: str) -> None:
    line = json.dumps({"content": content})
    for text in (line, line.replace("/", "\\/"), json.dumps({"c": line})):
        assert redact_secret_shapes(text) == (text, ()), text


@pytest.mark.parametrize("escape", ["\n", "\t", '"'])
@pytest.mark.parametrize("slashes", [False, True])
def test_a_secret_beside_an_escape_is_still_found(escape: str, slashes: bool) -> None:
    secret = "QWJjMTIzZGVmNDU2Z2hp" + "Nzg5amtsMDEybW5vMzQ1cHFy"
    line = json.dumps({"content": f"cache {escape}{secret}{escape} done/x"})
    line = line.replace("/", "\\/") if slashes else line
    out = redact_secret_shapes(line)
    assert secret[:8] not in out.text and out.shapes == ("long-base64",), out
    assert json.loads(out.text)["content"].startswith("cache ")


def test_a_run_beside_a_backslash_far_from_every_escape_is_judged_raw() -> None:
    secret = "QWJjMTIzZGVmNDU2Z2hp" + "Nzg5amtsMDEybW5vMzQ1cHFy"
    far = "line of text\n" * 200
    for text in (
        "a\\nb\n" + far + "C:\\keys\\" + secret + " end",  # `\k`: no escape, no window
        "a\\nb\n" + far + "key " + secret + "\\ end",
    ):
        out = redact_secret_shapes(text)
        assert secret[:8] not in out.text and out.shapes == ("long-base64",), out
        assert out.text.startswith("a\\nb\n")


@pytest.mark.parametrize(
    "content",
    [
        "CACHE_URL=redis://localhost:6379/0\nDB_URL=postgres://app:${DB_PASSWORD}@db/app",
        "A=postgres://django@pg.internal:5432/x\nB=jdbc:postgresql://pg:5432/x\nC=mysql://root@h",
    ],
)
def test_a_uri_whose_credentials_run_over_an_escaped_line_break_is_judged_decoded(
    content: str,
) -> None:
    line = json.dumps({"output": content})
    for text in (line, json.dumps({"c": line})):
        assert redact_secret_shapes(text) == (text, ()), text


def test_a_uri_cut_by_an_escaped_line_break_after_its_host_keeps_its_password_found() -> None:
    password = "%21R%40ven%24" + "3292"  # percent-encoded in the URI, as it must be
    content = f"DSN: postgresql+psycopg2://webapp:{password}@localhost/ledger\nLOG: info"
    for text in (json.dumps({"content": content}), json.dumps({"c": json.dumps(content)})):
        out = redact_secret_shapes(text)
        assert "ven%24" not in out.text and "LOG: info" in out.text, out
        assert json.loads(out.text)


def test_hex_escapes_of_a_log_are_decoded() -> None:
    # nginx writes a request body's quotes as \x22; Python's repr writes \x27 and \x0a
    secret = "Vq8rT2mX" + "k9LpZ4wN"
    body = '{"username":"ops","password":"' + secret + '"}'
    line = '10.0.0.5 - - "POST /login HTTP/1.1" 200 "' + body.replace('"', "\\x22") + '"'
    out = redact_secret_shapes(line)
    assert secret[:6] not in out.text and out.shapes == ("keyed-secret",), out
    assert out.text.count("\\x22") == line.count("\\x22") - 0  # the escapes around stay
    text = "b'DB_PASSWORD=" + secret + "\\x0aDEBUG=1'"
    out = redact_secret_shapes(text)
    assert secret[:6] not in out.text and out.text.endswith("\\x0aDEBUG=1'"), out


@pytest.mark.parametrize("text", ["path C:\\x00data", "\\x1b[31mred\\x1b[0m", "bytes \\xff\\xfe"])
def test_other_hex_escapes_stay_raw(text: str) -> None:
    assert redact_secret_shapes(text) == (text, ())
    assert not sr._has_escape(text)


def test_limit_escapes_three_levels_deep_are_decoded_two_levels() -> None:
    value = "Qm7vX2" + "pL9kR4tW8"
    content = f'password = "{value}"'
    two = redact_secret_shapes(_line(_line(content))).text
    three = redact_secret_shapes(_line(_line(_line(content)))).text
    assert value not in two
    assert value in three and json.loads(three)  # passes unchanged, and still parses
