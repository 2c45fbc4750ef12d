"""See a command the way bash will, before a policy rule judges it.

The failure
-----------
A policy layer that pattern-matches command text (a pre-tool-use hook, a deny
list) judges the literal string, but bash runs it after line continuations,
escapes, quote removal, expansions and prefixes such as `sudo` or `env`:
`g\\<newline>it push -f`, `rm -rf \\/`, `c=rm; ${c} -rf /`, `{cat,.env}` and
`curl x | /bin/sh` all run the denied command while the rule sees another text.
No attacker is needed: a model fighting nested escaping splits a token across
quotes on its own. And where the text cannot say what runs (`eval "$X"`, a
decoded payload piped into `sh`), a gate that stays silent has said "clean".

The fix
-------
`parse_command` is a lexer and parser for the statically knowable part of
bash: line continuations, backslash escapes of any character, quote removal in
context (`$'...'` decoded outside double quotes only, `$"..."` as a double-quoted
string), `$IFS` and tabs as blanks, brace lists and sequences, variables given a
literal earlier in the same text, `$(printf|echo <literal>)` and
`$(cat <<'EOF' ...)`, comments, here-documents, and nested `bash -c`, `sh -c`,
`eval`, `find -exec` and scripts piped or fed into a shell (recursively,
bounded). It splits the text into simple commands (`;`, `&&`, `||`, `|`, `|&`,
newlines, subshells, groups, `if`/`for`/`case` bodies, `$(...)`, backquote and
`<(...)` bodies) with canonical program names (`/usr/bin/git`, `\\git`,
`command`/`exec`/`env VAR=1`/`nice`/`sudo`/`timeout`/`xargs` prefixes -> `git`).
Words the text does not fix (an unknown variable, a non-literal substitution, a
glob) are marked blind and keep their spelling.

`judge_command` matches each deny rule against the raw text, the legacy
`scannable_command` text and every view (one per simple command: its argv
joined by spaces; one per pipeline: its commands joined by ` | `); a match on
any of them denies, so the views only ever add detections. Then it asks when
it is blind where it matters: the text does not parse, a view is too long to
scan, a construct hides what runs, or a rule would match were a blind word one
of the literals that rule spells (`git push $FLAG` against a `--force` rule).

Posture
-------
Fail soft on data, loud on options: any string gives a parse and a verdict,
never an exception; a rule that is not a compiled `str` pattern raises
`TypeError`, a string rule that does not compile raises `re.error`. Normalization
only widens: for every text no bigger than `MAX_VIEW_CHARS`, a rule that matches
the raw text denies. Time is bounded, not hoped for: a text longer than
`MAX_COMMAND_CHARS`, a view longer than `MAX_VIEW_CHARS`, more than
`MAX_SIMPLE_COMMANDS` commands or scripts nested deeper than `MAX_NESTING` get
"ask", never a slow scan; lexing is linear (plain runs are consumed by one
regex step), rules run per view, and views are bounded. This is a speed bump
against mistakes and prompt injection, not a sandbox: the boundary is the
sandbox or permission layer behind it.

API
---
`parse_command(text) -> CommandParse` (simple commands with argv, blind words,
hidden constructs and source; pipelines; a problem), `simple_commands(text)`
(argv lists), `judge_command(rules, text) -> Verdict` ("deny", "ask" or "none",
the rule index, the reason), `command_views(text)` (the texts rules see),
`scannable_command(text)` (the legacy one-string normalization: `$'...'`
decoded, quotes removed, word-escaping backslashes dropped) and
`matches_raw_or_scannable(pattern, text)` (raw OR legacy, as before). The
reference with worked examples is docs/reference/scannable_command.md.

What this does not catch
------------------------
Each limit is pinned by a test.

1. Space-separated tokens: `--bo dy` stays two words (gluing words would fire
   on text that merely discusses a flag).
2. Run-time values: environment variables, `read`, loop variables, `$(...)`
   that is not a literal echo/printf/cat. They are blind: the gate asks only
   where a rule could care, so `cat "$f"` passes unless a rule names `cat`.
3. Aliases, functions called by name, `PATH` tricks, files a command runs
   (`bash script.sh`, `make`), other interpreters (`python -c`, `perl -e`).
4. Text over the bounds is not scanned but asked about; a rule written across
   two simple commands sees them only in the raw text of short commands.
5. Word splitting of an unknown unquoted argument: a blind word is tried as
   each literal of a rule, one at a time, not as several words.
6. The legacy `scannable_command` keeps its documented approximations (it drops
   interior path separators and decodes `$'...'` inside double quotes); it is one
   view among several, so its errors only widen.

Lineage
-------
The normalize-then-scan idea, and its framing as a speed bump rather than a
boundary, come from the `scannableCommand()` normalizer in the command policy
of yc-software/qm. The raw-OR-normalized rule is the general principle that a
canonicalization step in front of a detector may add detections but never
remove one. The grammar followed is the one the bash reference manual
documents (quoting, expansions in their order, simple commands, pipelines and
lists); asking when blind follows permission systems that escalate to a human
instead of guessing.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import re
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import NamedTuple, NoReturn

__all__ = [
    "MAX_COMMAND_CHARS",
    "MAX_NESTING",
    "MAX_PASSES",
    "MAX_SIMPLE_COMMANDS",
    "MAX_VIEW_CHARS",
    "BlindWord",
    "CommandParse",
    "SimpleCommand",
    "Verdict",
    "command_views",
    "judge_command",
    "matches_raw_or_scannable",
    "parse_command",
    "scannable_command",
    "simple_commands",
]

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
    gives False. Kept exactly as it was for existing callers (grant classes use it,
    where widening would grant more); a deny gate that must see every simple
    command, decide in bounded time and ask when blind calls `judge_command`."""
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


# ---------------------------------------------------------------------------
# The lexer: the statically knowable part of bash, as simple commands
# ---------------------------------------------------------------------------

MAX_COMMAND_CHARS: int = 65536  # longer command text is not parsed: the judge asks
MAX_VIEW_CHARS: int = 16384  # a longer view (one command, one pipeline) is not scanned: ask
MAX_SIMPLE_COMMANDS: int = 2048  # more simple commands than this: ask
MAX_NESTING: int = 6  # nested `bash -c` / `eval` / piped scripts; deeper: ask
_MAX_DEPTH = 64  # nested parentheses, substitutions and quotes inside each other
_MAX_BRACE_WORDS = 256  # one word's brace expansion; more stays unexpanded
_MAX_BRACE_CELLS = 1024  # a longer word is not brace-expanded
_MAX_VARIABLES = 256  # names followed; a later new name stays unknown (blind)
_MAX_WRAPPERS = 16  # `sudo env nice ...` layers peeled from one command
_MAX_PROBES = 48  # literals taken from one deny rule to stand in for an unknown word

# Word pieces. An unquoted literal is subject to brace expansion and globbing; a
# quoted one to nothing; an expansion of a known value (unquoted) to field
# splitting and globbing; an unknown value is kept as its source spelling.
_LITERAL, _QUOTED, _EXPANDED, _UNKNOWN = range(4)
_IFS_BLANKS = " \t\n"
_DEFAULT_IFS = " \t\n"

# An unquoted run of ordinary word characters (no blank, metacharacter, quote,
# escape or expansion): consumed at once, so plain text lexes at regex speed.
_PLAIN_RUN = re.compile(r"[^ \t\n;&|()<>'\"\\$`]+")
# The same inside double quotes: everything but the closing quote, escape, `$`, backquote.
_DOUBLE_QUOTED_RUN = re.compile(r'[^"\\$`]+')
# The same in an unquoted here-document body (no closing quote there).
_HEREDOC_RUN = re.compile(r"[^\\$`]+")
_ANSI_C_BODY = re.compile(r"\$'((?:[^'\\]|\\.)*)'", re.DOTALL)
_BACKQUOTE_BODY = re.compile(r"`((?:[^`\\]|\\.)*)`", re.DOTALL)
_GLOB_OR_BRACE = re.compile(r"[{*?\[]")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\+?=")
_SPECIAL_PARAMETER = re.compile(r"[0-9@*#?$!-]")
# Redirection operators, longest first (`<(` and `>(` are words, tested before).
_REDIRECT = re.compile(r"&>>|&>|>>|>\||>&|<<<|<<-|<<|<>|<&|>|<")
_BRACE_SEQUENCE = re.compile(
    r"(-?\d{1,6})\.\.(-?\d{1,6})(?:\.\.(-?\d{1,6}))?|([A-Za-z])\.\.([A-Za-z])"
)

# Words that open or close shell syntax where a command name would stand; they
# are peeled from the front of a simple command (`then rm -rf /` runs `rm`).
_RESERVED_PREFIXES = frozenset(
    {"!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "esac"}
)
_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh"})
_SHELL_OPTIONS_WITH_VALUE = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})
_DECLARERS = frozenset({"export", "declare", "typeset", "local", "readonly"})
_DECODERS = frozenset({"base64", "base32", "basenc", "xxd", "uudecode", "openssl", "gunzip"})
_DECODERS_ALWAYS = frozenset({"zcat", "gzip", "bzcat", "xzcat", "rev"})
# Wrappers that run the rest of their arguments as a command, with the options
# of each that take a value (so the value is not taken for the program).
_WRAPPER_OPTIONS: dict[str, frozenset[str]] = {
    "command": frozenset(),
    "builtin": frozenset(),
    "exec": frozenset({"-a"}),
    "nohup": frozenset(),
    "time": frozenset(),
    "nice": frozenset({"-n", "--adjustment"}),
    "sudo": frozenset({"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "-R"}),
    "doas": frozenset({"-u", "-C"}),
    "env": frozenset({"-u", "-C", "--unset", "--chdir"}),
    "xargs": frozenset({"-I", "-L", "-n", "-P", "-d", "-E", "-s", "-a", "-i", "-l"}),
    "timeout": frozenset({"-s", "-k", "--signal", "--kill-after"}),
    "stdbuf": frozenset({"-i", "-o", "-e"}),
    "ionice": frozenset({"-c", "-n", "-t"}),
    "setsid": frozenset(),
    "unbuffer": frozenset(),
}
_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


class BlindWord(NamedTuple):
    """A word of a simple command whose value the text does not fix."""

    position: int  # index in `argv`
    construct: str  # what hides it: "variable $X", "glob .e?v", ...
    values: re.Pattern[str] | None  # the values it can take (a glob, `$HOME/x`); None: any
    skeleton: str = ""  # the word with its unknown parts left out (`"$D/.env"` -> `/.env`)


class SimpleCommand(NamedTuple):
    """One simple command as the shell will run it, as far as the text tells."""

    argv: tuple[str, ...]  # argv[0] canonical: `/usr/bin/git`, `sudo git`, `\\git` -> `git`
    blind: tuple[BlindWord, ...]  # words whose value is unknown (kept as spelled)
    hidden: str  # "" or the construct that hides what runs (`eval "$X"`, `curl | sh`)
    source: str  # the raw text the command came from (for scanning, never to run)
    reads: tuple[str, ...] = ()  # files redirected into standard input (`< .env`)


class CommandParse(NamedTuple):
    """A command text taken apart: its simple commands and pipelines."""

    commands: tuple[SimpleCommand, ...]
    pipelines: tuple[tuple[int, ...], ...]  # indexes into `commands`, stage by stage
    problem: str  # "" or why the text could not be taken apart completely


class _Word(NamedTuple):
    text: str  # the value; an unknown part keeps its source spelling
    blind: str  # "" or the construct that makes the value unknown
    values: re.Pattern[str] | None  # the values a blind word can take; None: any
    splits: bool  # holds an unquoted unknown, so it may become several words
    process: bool  # a process substitution `<(...)`
    skeleton: str = ""  # the known parts of a word holding an unknown


class _Piece(NamedTuple):
    text: str
    kind: int
    construct: str = ""
    quoted: bool = False


class _Input(NamedTuple):
    """What a simple command reads on standard input."""

    kind: str  # "heredoc", "herestring", "pipe", "file"
    text: str | None  # the content when the text fixes it
    origin: str  # for a pipe: what produced it


class _Command:
    """A simple command while it is being built (its stdin may arrive later)."""

    __slots__ = ("hidden", "reads", "source", "stdin", "wants_script", "words")

    def __init__(self, words: list[_Word], source: str) -> None:
        self.words = words
        self.stdin: _Input | None = None
        self.hidden = ""
        self.source = source
        self.wants_script = ""  # the shell name when it reads its script from stdin
        self.reads: list[str] = []  # `< file` targets, shown in the view


class _Failure(Exception):
    """The text cannot be taken apart (it is not bash, or past a bound)."""


class _State:
    """What every parser of one command text shares."""

    def __init__(self) -> None:
        self.commands: list[_Command] = []
        self.pipelines: list[tuple[int, ...]] = []
        self.variables: dict[str, str | None] = {}
        self.expanded_chars = 0
        self.problem = ""


def _fail(reason: str) -> NoReturn:
    raise _Failure(reason)


class _Parser:
    """Recursive descent over one text (a command, a `bash -c` string, a body)."""

    def __init__(self, text: str, state: _State, nesting: int, depth: int) -> None:
        self.text = text
        self.pos = 0
        self.state = state
        self.nesting = nesting
        self.depth = depth
        self.pending_heredocs: list[tuple[str, bool, bool, _Command | None]] = []
        self.inherited_stdin: _Input | None = None

    # -- lists, pipelines, commands ---------------------------------------------------

    def parse_script(self) -> None:
        self.parse_list("")
        if self.pending_heredocs:
            _fail("a here-document without its body")

    def parse_list(self, closer: str) -> int | None:
        """Commands up to `closer` (")", "case" for a case item, "" for the end).
        Returns the index of the first pipeline's head command, if any."""
        head: int | None = None
        text = self.text
        while True:
            self.skip_blanks()
            if self.pos >= len(text):
                if closer == ")":
                    _fail("a `(` or `$(` without its `)`")
                return head
            char = text[self.pos]
            if closer == "case" and (
                text.startswith((";;", ";&"), self.pos) or self.at_word("esac")
            ):
                return head
            if char == "\n":
                self.pos += 1
                self.read_heredoc_bodies()
            elif char == "#":
                self.skip_comment()
            elif char in ";&":
                self.pos += 2 if text.startswith(("&&", ";;", ";&"), self.pos) else 1
            elif char == "|":  # `||` here (a lone `|` with nothing before it is an error)
                if not text.startswith("||", self.pos):
                    _fail("a `|` with no command before it")
                self.pos += 2
            elif char == ")":
                if closer != ")":
                    _fail("a `)` without its `(`")
                self.pos += 1
                return head
            else:
                first = self.parse_pipeline()
                if head is None:
                    head = first

    def parse_pipeline(self) -> int | None:
        stages: list[int] = []
        stdin = self.inherited_stdin
        text = self.text
        head: int | None = None
        decoded = False
        piped = False  # this stage reads a pipe
        while True:
            saved = dict(self.state.variables)
            stage = self.parse_command(stdin)
            if stage is not None:
                stages.append(stage)
                if head is None:
                    head = stage
            self.skip_blanks()
            ends = not text.startswith("|", self.pos) or text.startswith("||", self.pos)
            if piped or not ends:
                self.state.variables = saved  # each stage of a pipeline is a subshell
            if ends:
                break
            piped = True
            self.pos += 2 if text.startswith("|&", self.pos) else 1
            self.skip_blanks_and_newlines()
            producer = self.state.commands[stage] if stage is not None else None
            decoded = decoded or (producer is not None and _decodes(producer))
            stdin = _piped_input(producer, decoded)
        if len(stages) > 1:
            self.state.pipelines.append(tuple(stages))
        return head

    def parse_command(self, stdin: _Input | None) -> int | None:
        self.skip_blanks()
        if self.text.startswith("(", self.pos):
            self.pos += 1
            with self.deeper(), self.own_variables():
                outer, self.inherited_stdin = self.inherited_stdin, stdin
                try:
                    head = self.parse_list(")")
                finally:
                    self.inherited_stdin = outer
            self.parse_trailing_redirections()
            return head
        return self.parse_simple(stdin)

    def parse_trailing_redirections(self) -> None:
        ignored = _Command([], "")
        while True:
            self.skip_blanks()
            if not self.at_redirection():
                return
            self.read_redirection(ignored)

    def parse_simple(self, stdin: _Input | None) -> int | None:
        text = self.text
        start = self.pos
        command = _Command([], "")
        command.stdin = stdin
        assignments: list[tuple[str, str | None]] = []
        while True:
            self.skip_blanks()
            if (
                self.pos >= len(text)
                or text[self.pos] in "\n;|)"
                or (text[self.pos] == "&" and not text.startswith("&>", self.pos))
            ):
                break
            if self.at_redirection():
                self.read_redirection(command)
                continue
            char = text[self.pos]
            if char == "#":
                self.skip_comment()
                continue
            if char == "(":
                if command.words and text[self.pos + 1 :].lstrip(" \t").startswith(")"):
                    self.pos = text.index(")", self.pos) + 1  # `name()`: a function definition
                    return None
                if [word.text for word in command.words] == ["for"]:
                    self.skip_arithmetic_for()
                    continue
                _fail("a `(` in the middle of a command")
            word_start = self.pos
            pieces = self.read_word()
            raw = text[word_start : self.pos]
            if self.pos < len(text) and text[self.pos] in "<>" and raw.isdigit():
                continue  # a file descriptor number: the redirection follows
            if not command.words and self.read_assignment(pieces, assignments):
                continue
            if not command.words and raw == "case":
                self.parse_case()
                return None
            command.words.extend(self.finish_word(pieces))
        command.source = text[start : self.pos].strip()
        if not command.words:
            for name, value in assignments:  # a bare assignment persists in the shell
                known = self.state.variables
                if name in known or len(known) < _MAX_VARIABLES:
                    known[name] = value
            return None
        return self.record(command)

    def record(self, command: _Command) -> int | None:
        words = _canonical_words(command.words, self.state.variables)
        if not words:
            return None
        command.words = words
        index = len(self.state.commands)
        if index >= MAX_SIMPLE_COMMANDS:
            _fail(f"more than {MAX_SIMPLE_COMMANDS} simple commands")
        self.state.commands.append(command)
        self.follow_nested(command)
        return index

    # -- what a command runs besides itself ----------------------------------------------

    def follow_nested(self, command: _Command) -> None:
        """Parse what `command` runs as a script: `bash -c`, `eval`, `find -exec`, stdin."""
        words = command.words
        name = words[0].text
        if words[0].blind:
            if words[0].splits or words[0].blind.startswith("glob "):
                command.hidden = f"a command name from {words[0].blind}"
            return
        if name in _SHELLS:
            self.follow_shell(command)
        elif name == "eval":
            arguments = words[1:]
            unknown = next((word for word in arguments if word.blind), None)
            if unknown is not None:
                command.hidden = f"eval of {unknown.blind}"
            else:
                self.nested(command, " ".join(word.text for word in arguments))
        elif name in ("source", ".") and len(words) > 1:
            if words[1].process:
                command.hidden = f"{name} of a process substitution"
            elif words[1].text in ("/dev/stdin", "-") and command.stdin is not None:
                self.follow_stdin(command, name)
        elif name == "find":
            self.follow_find_exec(command)

    def follow_shell(self, command: _Command) -> None:
        words = command.words
        name = words[0].text
        index, has_c = 1, False
        while index < len(words):
            option = words[index].text
            if option == "--" or option == "-":
                index += 1
                break
            if not option.startswith(("-", "+")) or words[index].blind:
                break
            if option in _SHELL_OPTIONS_WITH_VALUE:
                index += 1
            elif not option.startswith("--") and "c" in option:
                has_c = True
            index += 1
        if has_c:
            if index >= len(words):
                return  # `bash -c` with no string: bash refuses to run
            script = words[index]
            if script.blind:
                command.hidden = f"{name} -c with {script.blind}"
            else:
                self.nested(command, script.text)
        elif index < len(words):
            if words[index].process:
                command.hidden = f"{name} reading a process substitution"
        else:
            self.follow_stdin(command, name)

    def follow_stdin(self, command: _Command, name: str) -> None:
        stdin = command.stdin
        if stdin is None:
            return  # a terminal: an interactive shell
        if stdin.kind == "pending":
            command.wants_script = name  # its body arrives at the next line break
            return
        if stdin.text is not None:
            self.nested(command, stdin.text)
        elif stdin.kind != "file":
            command.hidden = f"{name} reading {stdin.origin}"

    def follow_find_exec(self, command: _Command) -> None:
        words = command.words
        index = 1
        while index < len(words):
            if words[index].text not in _FIND_EXEC or words[index].blind:
                index += 1
                continue
            end = index + 1
            while end < len(words) and words[end].text not in (";", "+"):
                end += 1
            found = [
                _Word("{}", "a path found by find", None, False, False)
                if word.text == "{}" and not word.blind
                else word
                for word in words[index + 1 : end]
            ]
            if found:
                self.record(_Command(found, command.source))
            index = end + 1

    def nested(self, command: _Command, script: str) -> None:
        if self.nesting >= MAX_NESTING:
            command.hidden = f"scripts nested more than {MAX_NESTING} deep"
            return
        inner = _Parser(script, self.state, self.nesting + 1, self.depth)
        before = len(self.state.commands)
        with self.own_variables():  # a child shell: its assignments stay there
            inner.parse_script()
        for nested_command in self.state.commands[before:]:
            nested_command.source = command.source

    # -- words ---------------------------------------------------------------------------

    def read_word(self) -> list[_Piece]:
        """The pieces of one word; stops at a blank, a metacharacter or the end."""
        text = self.text
        pieces: list[_Piece] = []
        while self.pos < len(text):
            char = text[self.pos]
            if char in " \t\n;&|()<>":
                if char in "<>" and text.startswith("(", self.pos + 1):
                    pieces.append(self.read_process_substitution())
                    continue
                break
            plain = _PLAIN_RUN.match(text, self.pos)
            if plain:
                pieces.append(_Piece(plain.group(), _LITERAL))
                self.pos = plain.end()
            elif char == "\\":
                pieces.extend(self.read_unquoted_escape())
            elif char == "'":
                end = text.find("'", self.pos + 1)
                if end < 0:
                    _fail("a `'` without its closing quote")
                pieces.append(_Piece(text[self.pos + 1 : end], _QUOTED))
                self.pos = end + 1
            elif char == '"' or text.startswith('$"', self.pos):
                self.pos += 1 if char == '"' else 2  # "..." or a locale string $"..."
                pieces.extend(self.read_double_quoted(closing='"'))
            elif char == "$":
                pieces.append(self.read_dollar(quoted=False))
            else:  # a backquote
                pieces.append(self.read_backquote(quoted=False))
        return pieces

    def read_unquoted_escape(self) -> list[_Piece]:
        following = self.text[self.pos + 1 : self.pos + 2]
        self.pos += 2
        if following == "\n":
            return []  # a line continuation joins the lines
        if following == "":
            return [_Piece("\\", _QUOTED)]
        return [_Piece(following, _QUOTED)]

    def read_double_quoted(self, closing: str) -> list[_Piece]:
        """Pieces inside "..." (closing '"') or an unquoted here-document body (closing "")."""
        text = self.text
        run = _DOUBLE_QUOTED_RUN if closing else _HEREDOC_RUN
        pieces: list[_Piece] = []
        with self.deeper():
            while self.pos < len(text):
                plain = run.match(text, self.pos)
                if plain:
                    pieces.append(_Piece(plain.group(), _QUOTED))
                    self.pos = plain.end()
                    continue
                char = text[self.pos]
                if char == '"':
                    self.pos += 1
                    return pieces
                if char == "\\":
                    following = text[self.pos + 1 : self.pos + 2]
                    if following == "\n":
                        self.pos += 2
                    elif following and following in '$`\\"' and (closing or following != '"'):
                        pieces.append(_Piece(following, _QUOTED))
                        self.pos += 2
                    else:
                        pieces.append(_Piece("\\", _QUOTED))
                        self.pos += 1
                elif char == "$":
                    if text.startswith(("$'", '$"'), self.pos):
                        pieces.append(_Piece("$", _QUOTED))
                        self.pos += 1
                    else:
                        pieces.append(self.read_dollar(quoted=True))
                else:
                    pieces.append(self.read_backquote(quoted=True))
        if closing:
            _fail('a `"` without its closing quote')
        return pieces

    def read_dollar(self, quoted: bool) -> _Piece:
        text = self.text
        following = text[self.pos + 1 : self.pos + 2]
        if following == "'":
            token = _ANSI_C_BODY.match(text, self.pos)
            if token is None:
                _fail("a `$'` without its closing quote")
            self.pos = token.end()
            return _Piece(_decode_ansi_c(token.group(1)), _QUOTED)
        if following == "(":
            if text.startswith("$((", self.pos):
                return self.read_arithmetic()
            start = self.pos
            self.pos += 2
            return self.read_substitution(start, quoted)
        if following == "{":
            return self.read_braced_parameter(quoted)
        name = _NAME.match(text, self.pos + 1)
        if name:
            self.pos = name.end()
            return self.variable(name.group(), quoted)
        if _SPECIAL_PARAMETER.match(following):
            self.pos += 2
            return _Piece("$" + following, _UNKNOWN, f"parameter ${following}", quoted)
        self.pos += 1
        return _Piece("$", _QUOTED)

    def variable(self, name: str, quoted: bool) -> _Piece:
        value = self.state.variables.get(name)
        if value is None and name == "IFS" and name not in self.state.variables:
            value = _DEFAULT_IFS
        if value is None:
            return _Piece("$" + name, _UNKNOWN, f"variable ${name}", quoted)
        self.count_expansion(value)
        return _Piece(value, _QUOTED if quoted else _EXPANDED)

    def count_expansion(self, value: str) -> None:
        self.charge(len(value))

    def charge(self, length: int) -> None:
        self.state.expanded_chars += length
        if self.state.expanded_chars > 4 * MAX_COMMAND_CHARS:
            _fail("variable expansions longer than the budget")

    def read_braced_parameter(self, quoted: bool) -> _Piece:
        text = self.text
        start = self.pos
        depth, index = 0, self.pos + 1
        while index < len(text):
            if text[index] == "{":
                depth += 1
            elif text[index] == "}":
                depth -= 1
                if depth == 0:
                    break
            elif text[index] == "\\":
                index += 1
            index += 1
        else:
            _fail("a `${` without its `}`")
        inner = text[start + 2 : index]
        self.pos = index + 1
        if _NAME.fullmatch(inner):
            return self.variable(inner, quoted)
        if "$" in inner or "`" in inner:  # `${x:-$(cmd)}` runs cmd
            with self.deeper():
                _Parser(inner, self.state, self.nesting, self.depth + 1).read_double_quoted("")
        return _Piece(text[start : self.pos], _UNKNOWN, f"parameter expansion ${{{inner}}}", quoted)

    def read_arithmetic(self) -> _Piece:
        text = self.text
        start, depth, index = self.pos, 0, self.pos + 1
        while index < len(text):
            if text[index] == "(":
                depth += 1
            elif text[index] == ")":
                depth -= 1
                if depth == 0:
                    break
            index += 1
        else:
            _fail("a `$((` without its `))`")
        self.pos = index + 1
        return _Piece(text[start : self.pos], _QUOTED)

    def read_substitution(self, start: int, quoted: bool) -> _Piece:
        before = len(self.state.commands)
        with self.deeper(), self.own_variables():
            outer, self.inherited_stdin = self.inherited_stdin, None
            try:
                self.parse_list(")")
            finally:
                self.inherited_stdin = outer
        source = self.text[start : self.pos]
        return self.substituted(self.state.commands[before:], source, quoted)

    def read_backquote(self, quoted: bool) -> _Piece:
        token = _BACKQUOTE_BODY.match(self.text, self.pos)
        if token is None:
            _fail("a backquote without its closing backquote")
        self.pos = token.end()
        body = re.sub(r"\\([\\`$])", r"\1", token.group(1))
        before = len(self.state.commands)
        with self.deeper(), self.own_variables():
            _Parser(body, self.state, self.nesting, self.depth + 1).parse_script()
        return self.substituted(self.state.commands[before:], token.group(), quoted)

    def substituted(self, ran: list[_Command], source: str, quoted: bool) -> _Piece:
        value = _literal_output(ran[0]) if len(ran) == 1 else None
        if value is None:
            return _Piece(source, _UNKNOWN, f"command substitution {_shorten(source)}", quoted)
        value = value.rstrip("\n")
        self.count_expansion(value)
        return _Piece(value, _QUOTED if quoted else _EXPANDED)

    def read_process_substitution(self) -> _Piece:
        start = self.pos
        self.pos += 2
        with self.deeper(), self.own_variables():
            outer, self.inherited_stdin = self.inherited_stdin, None
            try:
                self.parse_list(")")
            finally:
                self.inherited_stdin = outer
        return _Piece(self.text[start : self.pos], _UNKNOWN, "process substitution", True)

    def read_assignment(self, pieces: list[_Piece], into: list[tuple[str, str | None]]) -> bool:
        """True when `pieces` is `NAME=value` (recorded in `into`)."""
        if not pieces or pieces[0].kind != _LITERAL:
            return False
        assignment = _ASSIGNMENT.match(pieces[0].text)
        if assignment is None:
            return False
        rest = [_Piece(pieces[0].text[assignment.end() :], _QUOTED), *pieces[1:]]
        if self.text.startswith("(", self.pos) and not rest[0].text and len(rest) == 1:
            self.skip_balanced_parentheses()  # an array: its value is not followed
            into.append((assignment.group(1), None))
            return True
        known = all(piece.kind != _UNKNOWN for piece in rest)
        into.append((assignment.group(1), "".join(p.text for p in rest) if known else None))
        return True

    def finish_word(self, pieces: list[_Piece]) -> list[_Word]:
        """Brace expansion, field splitting and glob detection, as bash does them."""
        if all(
            piece.kind == _QUOTED
            or (piece.kind == _LITERAL and not _GLOB_OR_BRACE.search(piece.text))
            for piece in pieces
        ):
            return [_Word("".join(piece.text for piece in pieces), "", None, False, False)]
        cells: list[str | _Piece] = []
        for piece in pieces:
            if piece.kind == _LITERAL:
                cells.extend(piece.text)
            else:
                cells.append(piece)
        expansions = [cells]
        if "{" in cells and len(cells) <= _MAX_BRACE_CELLS:
            expansions = _brace_expand(cells)
            self.charge(sum(len(expanded) for expanded in expansions))
        words: list[_Word] = []
        for expanded in expansions:
            words.extend(_split_fields(expanded))
        return words

    # -- redirections and here-documents ---------------------------------------------------

    def at_redirection(self) -> bool:
        text = self.text
        if self.pos >= len(text) or text[self.pos] not in "<>&":
            return False
        if text.startswith(("<(", ">("), self.pos):
            return False
        return text[self.pos] != "&" or text.startswith("&>", self.pos)

    def read_redirection(self, command: _Command) -> None:
        operator = _REDIRECT.match(self.text, self.pos)
        assert operator is not None  # at_redirection saw one of its first characters
        self.pos = operator.end()
        self.skip_blanks()
        start = self.pos
        pieces = self.read_word()
        if self.pos == start:
            _fail(f"a `{operator.group()}` with nothing after it")
        kind = operator.group()
        if kind in ("<<", "<<-"):
            delimiter = self.text[start : self.pos]
            quoted = any(mark in delimiter for mark in "'\"\\")
            word = "".join(piece.text for piece in pieces)
            self.pending_heredocs.append((word, kind == "<<-", quoted, command))
            command.stdin = _Input("pending", None, "a here-document")
        elif kind == "<<<":
            words = self.finish_word(pieces)
            known = all(not word.blind for word in words)
            value = " ".join(word.text for word in words) + "\n" if known else None
            command.stdin = _Input("herestring", value, "a here-string")
        elif kind == "<":
            command.stdin = _Input("file", None, "a file")
            command.reads.extend(word.text for word in self.finish_word(pieces))

    def read_heredoc_bodies(self) -> None:
        text = self.text
        pending, self.pending_heredocs = self.pending_heredocs, []
        for delimiter, strip_tabs, quoted, command in pending:
            lines: list[str] = []
            while True:
                if self.pos >= len(text):
                    _fail(f"a here-document without its `{delimiter}` line")
                end = text.find("\n", self.pos)
                end = len(text) if end < 0 else end
                line = text[self.pos : end]
                self.pos = min(end + 1, len(text))
                if strip_tabs:
                    line = line.lstrip("\t")
                if line == delimiter:
                    break
                lines.append(line + "\n")
            body = "".join(lines)
            value: str | None = body
            if not quoted and any(mark in body for mark in "$`\\"):
                inner = _Parser(body, self.state, self.nesting, self.depth + 1)
                with self.deeper():
                    expanded = inner.read_double_quoted("")
                known = all(piece.kind != _UNKNOWN for piece in expanded)
                value = "".join(piece.text for piece in expanded) if known else None
            if command is not None:
                command.stdin = _Input("heredoc", value, "a here-document")
                if command.wants_script:
                    name, command.wants_script = command.wants_script, ""
                    self.follow_stdin(command, name)

    # -- compound commands that are not lists ---------------------------------------------

    def parse_case(self) -> None:
        """`case WORD in PATTERN) LIST ;; ... esac`: the lists are commands."""
        while not self.at_word("in"):
            self.skip_blanks_and_newlines()
            if self.pos >= len(self.text):
                _fail("a `case` without `in`")
            if not self.at_word("in"):
                self.read_word()
        self.pos += 2
        while True:
            self.skip_blanks_and_newlines()
            if self.at_word("esac"):
                self.pos += 4
                return
            if self.pos >= len(self.text):
                _fail("a `case` without `esac`")
            self.pos += self.text.startswith("(", self.pos)
            while not self.text.startswith(")", self.pos):
                self.skip_blanks()
                if self.pos >= len(self.text) or self.text[self.pos] in "\n;&(<>":
                    _fail("a `case` pattern without its `)`")
                if self.text[self.pos] == "|":
                    self.pos += 1
                elif not self.text.startswith(")", self.pos):
                    self.read_word()
            self.pos += 1
            self.parse_list("case")
            for terminator in (";;&", ";;", ";&"):
                if self.text.startswith(terminator, self.pos):
                    self.pos += len(terminator)
                    break

    def skip_arithmetic_for(self) -> None:
        if not self.text.startswith("((", self.pos):
            _fail("a `for (` that is not `for ((`")
        end = self.text.find("))", self.pos)
        if end < 0:
            _fail("a `for ((` without its `))`")
        self.pos = end + 2

    def skip_balanced_parentheses(self) -> None:
        depth = 0
        while self.pos < len(self.text):
            char = self.text[self.pos]
            depth += (char == "(") - (char == ")")
            self.pos += 1
            if depth == 0:
                return
        _fail("a `(` without its `)`")

    # -- small steps -------------------------------------------------------------------------

    def skip_blanks(self) -> None:
        text = self.text
        while self.pos < len(text):
            if text[self.pos] in " \t":
                self.pos += 1
            elif text.startswith("\\\n", self.pos):
                self.pos += 2
            else:
                return

    def skip_blanks_and_newlines(self) -> None:
        while True:
            self.skip_blanks()
            if self.text.startswith("\n", self.pos):
                self.pos += 1
                self.read_heredoc_bodies()
            elif self.text.startswith("#", self.pos):
                self.skip_comment()
            else:
                return

    def skip_comment(self) -> None:
        end = self.text.find("\n", self.pos)
        self.pos = len(self.text) if end < 0 else end

    def at_word(self, word: str) -> bool:
        end = self.pos + len(word)
        return self.text.startswith(word, self.pos) and (
            end >= len(self.text) or self.text[end] in " \t\n;&|()<>"
        )

    @contextlib.contextmanager
    def own_variables(self) -> Iterator[None]:
        """A subshell, substitution or child shell: its assignments do not outlive it
        (following them out would let `(c=echo); $c git push -f` read as echo)."""
        saved = dict(self.state.variables)
        try:
            yield
        finally:
            self.state.variables = saved

    @contextlib.contextmanager
    def deeper(self) -> Iterator[None]:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            _fail(f"constructs nested more than {_MAX_DEPTH} deep")
        try:
            yield
        finally:
            self.depth -= 1


def _shorten(source: str, limit: int = 40) -> str:
    flat = " ".join(source.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _decode_ansi_c(body: str) -> str:
    """A `$'...'` body decoded as bash does (an unknown escape keeps its backslash)."""
    return _ANSI_C_ESCAPE.sub(_exact_ansi_c_escape, body)


def _exact_ansi_c_escape(match: re.Match[str]) -> str:
    escape = match.group(1)
    kind = escape[0]
    if kind in "xuUc" and len(escape) == 1:
        return "\\" + escape  # no payload: bash prints it as written
    if kind in "'\"?\\" or kind in _SIMPLE_ESCAPES or kind in "xuUc01234567":
        return _ansi_c_escape(match)
    return "\\" + escape


def _brace_expand(cells: list[str | _Piece]) -> list[list[str | _Piece]]:
    """Bash brace expansion over unquoted cells; past the bound the word stays as is."""
    results: list[list[str | _Piece]] = []
    pending = [cells]
    while pending:
        current = pending.pop()
        alternatives = _first_brace(current)
        if alternatives is None:
            results.append(current)
        else:
            pending.extend(reversed(alternatives))
        if len(results) + len(pending) > _MAX_BRACE_WORDS:
            return [cells]
    return results


def _first_brace(cells: list[str | _Piece]) -> list[list[str | _Piece]] | None:
    """The words the first expandable `{...}` of `cells` stands for, or None."""
    for start, cell in enumerate(cells):
        if cell != "{" or (start and cells[start - 1] == "$"):
            continue
        depth, commas, end = 0, [], -1
        for index in range(start, len(cells)):
            if cells[index] == "{":
                depth += 1
            elif cells[index] == "}":
                depth -= 1
                if depth == 0:
                    end = index
                    break
            elif cells[index] == "," and depth == 1:
                commas.append(index)
        if end < 0:
            return None
        prefix, suffix = cells[:start], cells[end + 1 :]
        if commas:
            bounds = [start, *commas, end]
            return [prefix + cells[a + 1 : b] + suffix for a, b in itertools.pairwise(bounds)]
        inner = cells[start + 1 : end]
        if all(isinstance(cell, str) for cell in inner):
            items = _brace_sequence("".join(str(cell) for cell in inner))
            if items is not None:
                return [[*prefix, *item, *suffix] for item in items]
    return None


def _brace_sequence(inner: str) -> list[str] | None:
    sequence = _BRACE_SEQUENCE.fullmatch(inner)
    if sequence is None:
        return None
    if sequence.group(4):
        first, last = ord(sequence.group(4)), ord(sequence.group(5))
        step = 1 if last >= first else -1
        return [chr(code) for code in range(first, last + step, step)][: _MAX_BRACE_WORDS + 1]
    first, last = int(sequence.group(1)), int(sequence.group(2))
    stride = abs(int(sequence.group(3) or 1)) or 1
    step = stride if last >= first else -stride
    if abs(last - first) // stride > _MAX_BRACE_WORDS:
        return None
    return [str(number) for number in range(first, last + (1 if step > 0 else -1), step)]


def _split_fields(cells: list[str | _Piece]) -> list[_Word]:
    """Field splitting of unquoted expansions, then glob detection, per field."""
    fields: list[_Word] = []
    text: list[str] = []
    pattern: list[str] = []
    known: list[str] = []
    blind, globbed, splits, process, present, in_class = "", False, False, False, False, False

    def close() -> None:
        nonlocal blind, globbed, splits, process, present, in_class
        if present:
            value = "".join(text)
            values = None
            construct = blind
            if globbed and not blind:
                construct = f"glob {_shorten(value)}"
            if construct and not splits:  # the values it can take (an unquoted unknown: any)
                leading = "(?!\\.)" if globbed and value[:1] in "*?[" else ""
                values = re.compile(leading + "".join(pattern), re.DOTALL)
            skeleton = "".join(known) if blind else ""
            fields.append(_Word(value, construct, values, splits, process, skeleton))
        text.clear()
        pattern.clear()
        known.clear()
        blind, globbed, splits, process, present, in_class = "", False, False, False, False, False

    def add_unquoted(chars: str, later: Callable[[], str]) -> None:
        nonlocal globbed, present, in_class
        for offset, char in enumerate(chars):
            text.append(char)
            known.append(char)
            present = True
            if in_class:
                in_class = char != "]"
            elif char == "*":
                globbed = True
                pattern.append("[^/]*")
            elif char == "?":
                globbed = True
                pattern.append("[^/]")
            elif char == "[" and "]" in chars[offset + 2 :] + later():
                globbed = in_class = True
                pattern.append("[^/]")
            else:
                pattern.append(re.escape(char))

    for position, cell in enumerate(cells):
        if isinstance(cell, str):
            add_unquoted(cell, functools.partial(_following_literals, cells, position))
        elif cell.kind == _QUOTED:
            text.append(cell.text)
            known.append(cell.text)
            pattern.append(re.escape(cell.text))
            present = True
        elif cell.kind == _EXPANDED:
            parts = re.split("[" + _IFS_BLANKS + "]+", cell.text)
            for number, part in enumerate(parts):
                if number:
                    close()
                add_unquoted(part, str)
        elif cell.construct == "process substitution":  # a /dev/fd path, not a free value
            text.append(cell.text)
            pattern.append(re.escape(cell.text))
            process = present = True
        else:
            text.append(cell.text)
            pattern.append(".*")
            blind = blind or cell.construct
            splits = splits or not cell.quoted
            present = True
    close()
    return fields


def _following_literals(cells: list[str | _Piece], position: int) -> str:
    """The literal characters after a `[` and the one it must hold (`[]` is not a
    class: a `]` right after `[` is a member), where its closing `]` may be."""
    return "".join(cell for cell in cells[position + 2 : position + 64] if isinstance(cell, str))


def _canonical_words(words: list[_Word], variables: dict[str, str | None]) -> list[_Word]:
    """Reserved words and wrappers peeled off, the program name made canonical."""
    for _ in range(_MAX_WRAPPERS):
        while words and words[0].text in _RESERVED_PREFIXES and not words[0].blind:
            words = words[1:]
        if not words or words[0].blind:
            return words
        name = (
            words[0].text.rsplit("/", 1)[-1] if "/" in words[0].text.rstrip("/") else words[0].text
        )
        words = [words[0]._replace(text=name), *words[1:]]
        if name in ("for", "select"):
            if len(words) > 1:
                variables[words[1].text] = None
            return []
        if name == "function":
            words = words[2:]
            continue
        if name in ("read", "mapfile", "readarray", "unset"):
            for word in words[1:]:
                if _NAME.fullmatch(word.text):
                    variables[word.text] = None
            return words
        if name in _DECLARERS:
            for word in words[1:]:
                assignment = _ASSIGNMENT.match(word.text)
                if assignment:
                    value = None if word.blind else word.text[assignment.end() :]
                    variables[assignment.group(1)] = value
            return words
        if name not in _WRAPPER_OPTIONS:
            return words
        rest = _unwrapped(name, words)
        if rest is None:
            return words
        words = rest
    return words


def _unwrapped(name: str, words: list[_Word]) -> list[_Word] | None:
    """The command a wrapper runs, or None when it runs none."""
    with_value = _WRAPPER_OPTIONS[name]
    index = 1
    while index < len(words) and not words[index].blind:
        option = words[index].text
        if option == "--":
            index += 1
            break
        if name == "env" and _ASSIGNMENT.match(option):
            index += 1
            continue
        if not option.startswith("-") or option == "-":
            break
        if name == "command" and option in ("-v", "-V"):
            return None  # a lookup, not a run
        index += 2 if option in with_value else 1
    if name == "timeout" and index < len(words):
        index += 1  # the duration
    rest = words[index:]
    if name == "xargs":
        appended = _Word("{}", "words read by xargs", None, True, False)
        return [*(rest or [_Word("echo", "", None, False, False)]), appended]
    return rest or None


def _literal_output(command: _Command) -> str | None:
    """What `echo`/`printf`/`cat` print when the text fixes it; None otherwise."""
    words = command.words
    if any(word.blind for word in words):
        return None
    name = words[0].text
    arguments = [word.text for word in words[1:]]
    if name == "echo":
        newline, escapes = True, False
        while arguments and re.fullmatch(r"-[neE]+", arguments[0]):
            newline = newline and "n" not in arguments[0]
            escapes = "e" in arguments[0]
            arguments = arguments[1:]
        joined = " ".join(arguments)
        return (_decode_ansi_c(joined) if escapes else joined) + ("\n" if newline else "")
    if name == "printf" and arguments and arguments[0] != "-v":
        return _printf(arguments[0], arguments[1:])
    if name == "cat" and not arguments and command.stdin is not None:
        return command.stdin.text
    return None


def _printf(template: str, arguments: list[str]) -> str | None:
    """`printf` with %s, %b and %% only (anything else is not followed); like bash,
    the format is reused while arguments remain."""
    parts = re.split(r"(%[%sb])", template)
    if any("%" in part for part in parts if part not in ("%%", "%s", "%b")):
        return None
    output: list[str] = []
    remaining = list(arguments)
    while True:
        for part in parts:
            if part == "%%":
                output.append("%")
            elif part in ("%s", "%b"):
                value = remaining.pop(0) if remaining else ""
                output.append(_decode_ansi_c(value) if part == "%b" else value)
            else:
                output.append(_decode_ansi_c(part))
        if not remaining or len(remaining) == len(arguments):
            return "".join(output)


def _decodes(command: _Command) -> bool:
    """True when `command` decodes or unpacks its input (base64 -d, xxd -r, ...)."""
    words = [word.text for word in command.words]
    if words[0] in _DECODERS_ALWAYS:
        return True
    decode_flags = ("-d", "--decode", "-D", "-r", "-revert")
    return words[0] in _DECODERS and any(flag in words for flag in decode_flags)


def _piped_input(producer: _Command | None, decoded: bool) -> _Input:
    if producer is None:
        return _Input("pipe", None, "a pipe from a compound command")
    text = _literal_output(producer)
    if decoded:
        return _Input("pipe", None, "a decoded payload from a pipe")
    return _Input("pipe", text, f"the output of {producer.words[0].text}")


def parse_command(command: str) -> CommandParse:
    """`command` taken apart into simple commands and pipelines, as bash would.

    Never raises on a string: a text that is not bash, or that is past a bound
    (`MAX_COMMAND_CHARS`, `MAX_SIMPLE_COMMANDS`, nesting), gives the commands
    found before the problem and a non-empty `problem`."""
    text = _scannable_text_of(command)
    state = _State()
    if text is None:
        return CommandParse((), (), "not a string")
    if len(text) > MAX_COMMAND_CHARS:
        state.problem = f"longer than {MAX_COMMAND_CHARS} characters"
    else:
        try:
            _Parser(text, state, 0, 0).parse_script()
        except _Failure as failure:
            state.problem = str(failure)
        except RecursionError:
            state.problem = "nested too deep to parse"
    return CommandParse(
        tuple(_public(command) for command in state.commands),
        tuple(state.pipelines),
        state.problem,
    )


def _public(command: _Command) -> SimpleCommand:
    blind = tuple(
        BlindWord(index, word.blind, word.values, word.skeleton)
        for index, word in enumerate(command.words)
        if word.blind
    )
    argv = tuple(word.text for word in command.words)
    return SimpleCommand(argv, blind, command.hidden, command.source, tuple(command.reads))


def simple_commands(command: str) -> list[list[str]]:
    """The simple commands of `command` as argv lists (program names canonical)."""
    return [list(simple.argv) for simple in parse_command(command).commands]


# ---------------------------------------------------------------------------
# The judge: deny, ask or no opinion, in bounded time
# ---------------------------------------------------------------------------


class Verdict(NamedTuple):
    """What a gate should answer for one command."""

    decision: str  # "deny", "ask" or "none" (no opinion)
    rule: int  # index of the deny rule that matched (deny, or ask by a probe); else -1
    reason: str  # for "ask": the construct the gate could not see through


# One literal run of a regular expression: escaped characters or plain ones that
# are not regex syntax. Used to take, from a deny rule, words a blind word could be.
_RULE_LITERAL = re.compile(r"(?:\\[^A-Za-z0-9]|[A-Za-z0-9_/~=:@%,-])+")
_RULE_CLASS = re.compile(r"\[(?:\\.|[^\]\\])*\]|\\[A-Za-z]|\{\d*,?\d*\}|\(\?[a-zA-Z:!=<]*")


def _rule_probes(rule: re.Pattern[str]) -> tuple[str, ...]:
    """Literal words a deny rule spells: what an unknown word is tried as."""
    cached = _PROBE_CACHE.get((rule.pattern, rule.flags))
    if cached is not None:
        return cached
    source = _RULE_CLASS.sub(" ", rule.pattern)
    probes: list[str] = []
    for literal in _RULE_LITERAL.findall(source):
        word = re.sub(r"\\(.)", r"\1", literal)
        if word not in probes:
            probes.append(word)
    found = tuple(probes[:_MAX_PROBES])
    if len(_PROBE_CACHE) > 256:
        _PROBE_CACHE.clear()
    _PROBE_CACHE[(rule.pattern, rule.flags)] = found
    return found


_PROBE_CACHE: dict[tuple[str, int], tuple[str, ...]] = {}


# Inside a view, a blank within one argument is shown as U+2420 (a visible sign, not
# whitespace), so `\S+` in a rule is exactly one argument and a commit message that
# mentions `git push --force` does not read as that command.
_BLANK_IN_ARGUMENT = str.maketrans(dict.fromkeys(" \t\n\r\v\f", "\u2420"))


def _view(command: SimpleCommand, probe: str | None = None) -> str:
    """The argv joined by spaces, then `< file` for each input redirection. With a
    probe, every blind word that can take that value shows it instead ("" shows
    each blind word's skeleton)."""
    words = list(command.argv)
    if probe is not None:
        for blind in command.blind:
            if probe == "":
                words[blind.position] = blind.skeleton
            elif _can_be(blind, probe):
                words[blind.position] = probe
    shown = [word.translate(_BLANK_IN_ARGUMENT) for word in words]
    for path in command.reads:
        shown.extend(("<", path.translate(_BLANK_IN_ARGUMENT)))
    return " ".join(shown)


def command_views(command: str) -> list[str]:
    """Every text a deny rule is matched against for `command`: the raw text and its
    legacy scannable form (when short enough), then one view per simple command
    and per pipeline. A rule judged on commands only sees just the latter."""
    parsed = parse_command(command)
    text_views, views, _ = _views(command, parsed)
    return list(dict.fromkeys([*text_views, *views]))


def _views(command: str, parsed: CommandParse) -> tuple[list[str], list[str], str]:
    """(views of the whole text, views of commands and pipelines, "" or why some
    view was too long to scan)."""
    if len(command) <= MAX_VIEW_CHARS:
        text_views = [command, scannable_command(command)]
    else:  # each command's own source text stands in for the raw leg
        text_views = [simple.source for simple in parsed.commands]
    views = [_view(simple) for simple in parsed.commands]
    views.extend(
        " | ".join(_view(parsed.commands[stage]) for stage in pipeline)
        for pipeline in parsed.pipelines
    )
    kept_text = [view for view in text_views if len(view) <= MAX_VIEW_CHARS]
    kept = [view for view in views if len(view) <= MAX_VIEW_CHARS]
    too_long = ""
    if len(kept_text) < len(text_views) or len(kept) < len(views):
        too_long = f"a command longer than {MAX_VIEW_CHARS} characters"
    return list(dict.fromkeys(kept_text)), list(dict.fromkeys(kept)), too_long


def judge_command(
    rules: Sequence[re.Pattern[str]], command: str, *, commands_only: Collection[int] = ()
) -> Verdict:
    """Deny when a rule matches the raw text or any view; ask when blind; else none.

    Rules are tried in order; the first that matches denies. A rule whose index is
    in `commands_only` is matched against the views of simple commands and
    pipelines only (parse, don't pattern: a commit message that mentions a flag is
    not that flag); every other rule also sees the raw text. Then the gate asks
    when the text could not be taken apart, when a view is too long to scan, when
    a construct hides what runs (`eval "$X"`, a script piped into a shell,
    `source <(...)`, an unquoted unknown command name), or when some rule would
    match were an unknown word one of the literals the rule spells."""
    for position, rule in enumerate(rules):
        if not isinstance(rule, re.Pattern) or not isinstance(rule.pattern, str):
            raise TypeError(f"rules[{position}] must be a compiled str pattern")
    for index in commands_only:
        if type(index) is not int or not 0 <= index < len(rules):
            raise ValueError(f"commands_only holds {index!r}, not an index into rules")
    text = _scannable_text_of(command)
    if text is None:
        return Verdict("ask", -1, "the command is not a string")
    if len(text) > MAX_COMMAND_CHARS:
        return Verdict("ask", -1, f"a command longer than {MAX_COMMAND_CHARS} characters")
    parsed = parse_command(text)
    text_views, views, too_long = _views(text, parsed)
    for position, rule in enumerate(rules):
        seen = views if position in commands_only else [*text_views, *views]
        if any(rule.search(view) for view in seen):
            return Verdict("deny", position, "")
    if parsed.problem:
        return Verdict("ask", -1, f"cannot parse the command: {parsed.problem}")
    if too_long:
        return Verdict("ask", -1, too_long)
    for simple in parsed.commands:
        if simple.hidden:
            return Verdict("ask", -1, simple.hidden)
    return _probe(rules, parsed)


def _probe(rules: Sequence[re.Pattern[str]], parsed: CommandParse) -> Verdict:
    """Ask when a rule would match were an unknown word one of the rule's literals."""
    commands = parsed.commands
    for position, rule in enumerate(rules):
        probes = ("", *_rule_probes(rule))  # "": each blind word's known parts alone
        for simple in commands:
            if simple.blind and any(rule.search(_view(simple, probe)) for probe in probes):
                return Verdict("ask", position, _blind_reason(simple))
        for pipeline in parsed.pipelines:
            if not any(commands[stage].blind for stage in pipeline):
                continue
            for probe in probes:
                joined = " | ".join(_view(commands[stage], probe) for stage in pipeline)
                if rule.search(joined):
                    blind = next(commands[stage] for stage in pipeline if commands[stage].blind)
                    return Verdict("ask", position, _blind_reason(blind))
    return Verdict("none", -1, "")


def _can_be(blind: BlindWord, probe: str) -> bool:
    """True when `blind` may take the value `probe`. A glob names files, so it is
    never `~...` or `$...`, which a rule spells for an expansion."""
    if blind.construct.startswith("glob ") and probe[:1] in "~$":
        return False
    return blind.values is None or blind.values.fullmatch(probe) is not None


def _blind_reason(simple: SimpleCommand) -> str:
    blind = simple.blind[0]
    where = "the command name" if blind.position == 0 else f"an argument of {simple.argv[0]}"
    return f"{where} comes from {blind.construct}"


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
    # the lexer: what bash would run, as argv lists
    assert simple_commands("g\\\nit push -f origin") == [["git", "push", "-f", "origin"]]
    assert simple_commands("c=rm; ${c} -rf \\/") == [["rm", "-rf", "/"]]
    assert simple_commands("{cat,.env}") == [["cat", ".env"]]
    assert simple_commands('cat${IFS}.env | s$""h') == [["cat", ".env"], ["sh"]]
    assert simple_commands("sudo -u root /usr/bin/git push") == [["git", "push"]]
    assert simple_commands("bash -c 'rm -rf /'") == [["bash", "-c", "rm -rf /"], ["rm", "-rf", "/"]]
    assert simple_commands("echo \"$'\"; $'\\147\\151't push") == [["echo", "$'"], ["git", "push"]]
    force = re.compile(r"^git\s+push\b.*\s(--force|-f)\b")
    assert judge_command([force], "true && command git push -f") == Verdict("deny", 0, "")
    assert judge_command([force], "git push $FLAG").decision == "ask"
    assert judge_command([force], 'eval "$X"').decision == "ask"
    assert judge_command([force], "echo aGk= | base64 -d | sh").decision == "ask"
    assert judge_command([force], 'echo "unterminated').decision == "ask"
    assert judge_command([force], "x" * (MAX_COMMAND_CHARS + 1)).decision == "ask"
    message = "git commit -m \"$(cat <<'EOF'\nFix: no git push --force\nEOF\n)\""
    assert judge_command([force], message) == Verdict("none", -1, "")
    assert judge_command([force], "git push origin main") == Verdict("none", -1, "")
    assert matches_raw_or_scannable(body, "X=--body; cmd $X") is False  # the legacy form
    # the documented limits, pinned
    assert matches_raw_or_scannable(body, "cmd --bo dy") is False  # 1 space-separated
    assert judge_command([force], "git push origin $(cat b)").decision == "ask"  # 2 blind
    assert judge_command([force], "bash push.sh") == Verdict("none", -1, "")  # 3 files run
    assert scannable_command("C:\\Users\\me") == "C:\\Usersme"  # 6 legacy approximation
    assert scannable_command("\"$'\\x41'\"") == "A"  # 6 legacy decodes inside "..."
    print("scannable_command self-check: all assertions passed")


if __name__ == "__main__":
    _self_check()
