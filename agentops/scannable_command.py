"""See a command the way the shell will, before a policy rule scans it.

The failure. A policy layer that pattern-matches command text (a pre-tool-use
hook, a deny list, a banned-flag rule) judges the literal string, but the shell
runs that string after quote removal and escape processing. `--bo"dy"`,
`--bo\\dy`, `$'--body'` and `$'\\x2d\\x2dbody'` all run as `--body`, and all slip
past a rule written against the plain spelling. No attacker is needed: a model
fighting nested escaping will split a token across quotes on its own, and the
deny rule quietly stops seeing the flag it exists to stop.

The fix. `scannable_command` rewrites a command into an approximation of what
the shell executes (for scanning only: never execute or store it), in rounds of
three passes until nothing changes: (1) decode bash ANSI-C tokens `$'...'`,
(2) remove every quote character, (3) drop a backslash that escapes an ASCII
letter, digit or `-` (keeping the `C:\\` and `\\\\server` prefixes).
`matches_raw_or_scannable` then scans BOTH the raw text and the normalized text
and counts a hit on either, so normalization can add detections but never remove
one. Call it instead of writing the two searches by hand.

Posture. Fail soft: any input gives a string, never an exception (a non-string
gives ""). The match function never narrows detection, and a deny rule given as
a string that does not compile raises `re.error`: a broken rule must be loud,
never a silent "no match". Choices where the contract is silent: the pattern is
checked and compiled before the command is looked at, so a broken string rule
raises whatever the command is; strings are judged by their genuine value (a
`str` subclass is copied once as an exact `str` and none of its methods is
called). This is a speed bump against mistakes and prompt injection, not a
sandbox: the boundary is the sandbox or permission layer behind it.

WHAT THIS DOES NOT CATCH (each limit is pinned by a test):
1. Space-separated tokens: `--bo dy` stays two tokens. Gluing words would fire
   on text that merely discusses a flag, and alarms on discussion get ignored.
2. Variable and parameter expansion: `X=--body; cmd $X`, `cmd ${X}dy`.
3. Encoded payloads: `echo LS1ib2R5 | base64 -d | sh` has no decoding pass.
4. Heredoc semantics: `<<'EOF'` and `<<EOF` normalize identically, so a rule
   cannot tell whether a heredoc expands (heredoc bodies stay visible text).
5. Locale strings: `cmd $"--body"` runs as `cmd --body` but normalizes to
   `cmd $--body`; a rule anchored on a blank before the flag misses it.
6. Brace expansion and globs: `--bo{d,}y`, `--bod?` are not expanded.
7. Interior path separators: `C:\\Users\\me\\notes.txt` becomes
   `C:\\Usersmenotes.txt`; path-shaped rules must rely on the raw leg.
8. Context: quoting inside `"..."` is not modelled (`"$'x'"` is decoded though
   bash would not), nor aliases, functions or other shells' quoting rules. Each
   such error widens or misses; none removes a raw hit.

Lineage. The normalize-then-scan idea, and its honest framing as a speed bump
rather than a boundary, come from the `scannableCommand()` normalizer in the
command policy of yc-software/qm. The raw-OR-normalized rule is the general
principle that a canonicalization step in front of a detector may add
detections but must never remove one.
"""

from __future__ import annotations

import re

__all__ = ["MAX_PASSES", "matches_raw_or_scannable", "scannable_command"]

MAX_PASSES: int = 8  # a safety bound on rounds; every input settles within three

# Pass 1: a bash ANSI-C token. The body's two alternatives cannot overlap (a
# backslash only ever starts an escape), so the scan is linear.
_ANSI_C_TOKEN = re.compile(r"\$'((?:[^'\\]|\\.)*)'")
_ANSI_C_ESCAPE = re.compile(
    r"\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|c.|[0-7]{1,3}|.)"
)
_SIMPLE_ESCAPES = {
    "a": "\x07",
    "b": "\x08",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\x0c",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\x0b",
}
_UNICODE_MAX = 0x10FFFF
# Pass 3: a backslash escaping an ASCII letter, digit or `-`, not after `\` or `:`;
# then the same at the very start of the text. The contract states the first rule
# as non-overlapping matches of `([^\\:])\\([A-Za-z0-9-])`, repeated until nothing
# changes; judging every backslash by its neighbours in the text at once, as below,
# reaches that same fixpoint in one pass (a dropped backslash never changes what
# precedes or follows another one), so the loop confirms instead of finishing.
_ESCAPED_WORD_CHAR = re.compile(r"\\(?=[A-Za-z0-9-])(?<=[^\\:]\\)")
_LEADING_ESCAPED_WORD_CHAR = re.compile(r"\A\\(?=[A-Za-z0-9-])")


def _ansi_c_escape(match: re.Match[str]) -> str:
    """The character one ANSI-C escape (without its backslash) stands for."""
    escape = match.group(1)
    kind, payload = escape[0], escape[1:]
    if payload and kind in "xu":
        return chr(int(payload, 16))
    if payload and kind == "U":
        code = int(payload, 16)
        return chr(code) if code <= _UNICODE_MAX else escape
    if payload and kind == "c":
        return "\x7f" if payload == "?" else chr(ord(payload) & 0x1F)
    if kind in "01234567":
        return chr(int(escape, 8) & 0xFF)
    return _SIMPLE_ESCAPES.get(kind, kind)


def _ansi_c_token(match: re.Match[str]) -> str:
    return _ANSI_C_ESCAPE.sub(_ansi_c_escape, match.group(1))


def _scannable_round(text: str) -> str:
    """One round: ANSI-C tokens decoded, quotes removed, word-escaping backslashes dropped."""
    if "$'" in text:
        text = _ANSI_C_TOKEN.sub(_ansi_c_token, text)
    text = text.replace("'", "").replace('"', "")
    if "\\" in text:
        text = _LEADING_ESCAPED_WORD_CHAR.sub("", _ESCAPED_WORD_CHAR.sub("", text))
    return text


def _scannable_text_of(value: object) -> str | None:
    """An exact copy of `value` when it is a `str` (or subclass), else None; no method
    of a subclass is called."""
    if not issubclass(type(value), str):
        return None
    return str.__str__(value)


def scannable_command(text: object) -> str:
    """`text` as the shell would roughly see it, for scanning only; "" for a non-string."""
    current = _scannable_text_of(text)
    if not current:
        return ""
    for _ in range(MAX_PASSES):
        following = _scannable_round(current)
        if following == current:
            break
        current = following
    return current


def matches_raw_or_scannable(pattern: re.Pattern[str] | str, command: object) -> bool:
    """True when `pattern` finds a match in the raw command OR in its scannable form.

    `pattern` is a compiled `str` pattern (flags honoured) or a string compiled with
    no flags (a string that does not compile raises `re.error`); anything else,
    bytes patterns included, gives False. A `command` that is not a non-empty string
    gives False."""
    candidate: object = pattern  # callers outside type checking pass anything
    if isinstance(candidate, re.Pattern):
        if not isinstance(candidate.pattern, str):
            return False
        rule: re.Pattern[str] = candidate
    else:
        source = _scannable_text_of(candidate)
        if source is None:
            return False
        rule = re.compile(source)
    raw = _scannable_text_of(command)
    if not raw:
        return False
    return rule.search(raw) is not None or rule.search(scannable_command(raw)) is not None


def _self_check() -> None:
    if not __debug__:
        raise SystemExit(
            "scannable_command self-check needs assertions; run it without -O or PYTHONOPTIMIZE"
        )
    body = re.compile(r"(^|\s)--body(=|\s|$)")
    cases = {
        "python tools/agent-'status'.py": "python tools/agent-status.py",
        '--bo"dy"': "--body",
        "--bo\\dy": "--body",
        "$'--body'": "--body",
        "printf $'\\x2d\\x2dbody'": "printf --body",
        "printf $'\\055\\055body'": "printf --body",
        "printf $'\\u002d\\u002dbody'": "printf --body",
        "printf $'\\455\\455body'": "printf --body",
        "$'a\\eb'": "a\x1bb",
        "$'a\\tb'": "a\tb",
        "$'\\c?'": "\x7f",
        "$'\\777'": "\xff",
        "cmd $'\\UFFFFFFFF' --body": "cmd UFFFFFFFF --body",
        "$'\\x'": "x",
        "$'--bo": "$--bo",
        "\\-\\-body": "--body",
        "a\\ b": "a\\ b",
        "a\\\\b": "a\\\\b",
        "C:\\x": "C:\\x",
        "type C:\\Users\\me\\notes.txt": "type C:\\Usersmenotes.txt",
        "read \\\\server\\share\\f.txt": "read \\\\serversharef.txt",
        "x\\a\\b\\c\\d\\e\\f\\g": "xabcdefg",
        "--bo dy": "--bo dy",
        "": "",
    }
    for given, expected in cases.items():
        got = scannable_command(given)
        assert got == expected, (given, got, expected)
        assert scannable_command(got) == got, given
    for not_text in (None, 42, b"x"):
        assert scannable_command(not_text) == ""
    assert body.search('cmd --bo"dy" x') is None
    assert matches_raw_or_scannable(body, 'cmd --bo"dy" x') is True
    assert matches_raw_or_scannable(body, "cmd $'--body' x") is True
    assert matches_raw_or_scannable(re.compile(r'"--body"'), 'cmd "--body"') is True
    assert matches_raw_or_scannable(body, "cmd --body-file tmp/b.md") is False
    assert matches_raw_or_scannable(re.compile(r"docs\\specs"), r"type docs\specs\plan.md")
    assert matches_raw_or_scannable(r"(^|\s)--body(=|\s|$)", "cmd --bo\\dy x") is True
    try:
        matches_raw_or_scannable("(unclosed", "x")
    except re.error:
        pass
    else:
        raise AssertionError("a string rule that does not compile must raise re.error")
    assert matches_raw_or_scannable(body, None) is False
    assert matches_raw_or_scannable(42, "x --body") is False  # type: ignore[arg-type]
    assert matches_raw_or_scannable(re.compile(b"--body"), "x --body") is False  # type: ignore[arg-type]
    assert matches_raw_or_scannable(re.compile(""), "") is False
    assert matches_raw_or_scannable(body, "sh <<'EOF'\ncmd --body x\nEOF") is True
    # the documented limits, pinned
    assert matches_raw_or_scannable(body, "cmd --bo dy") is False  # 1 space-separated
    assert matches_raw_or_scannable(body, "X=--body; cmd $X") is False  # 2 expansion
    assert matches_raw_or_scannable(body, "echo LS1ib2R5 | base64 -d | sh") is False  # 3
    assert scannable_command("cat <<'EOF'\nx\nEOF") == scannable_command("cat <<EOF\nx\nEOF")
    assert matches_raw_or_scannable(body, 'cmd $"--body"') is False  # 5 locale strings
    assert scannable_command("--bo{d,}y") == "--bo{d,}y"  # 6 brace expansion
    assert matches_raw_or_scannable(r"Users\\me", "type C:\\Users\\me\\n.txt")  # 7 raw leg
    assert scannable_command("\"$'\\x41'\"") == "A"  # 8 context not modelled
    print("scannable_command self-check: all assertions passed")


if __name__ == "__main__":
    _self_check()
