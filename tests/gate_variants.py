"""Spellings of denied commands (and of benign look-alikes) for the gate's tests.

A variant is shell text built from a base command by seeded transforms: one per
obfuscation class bash sees through (quotes, escapes, line continuations,
ANSI-C and locale strings, `${IFS}`, brace lists, literal variables, literal
command substitutions, wrappers and paths, nested `bash -c`/`eval`/piped
scripts, groups and subshells), each alone or combined, after a benign prefix
joined by each operator or none. `tests/test_example_policy.py` judges every
variant with the starter policy; `tests/test_bash_differential.py` runs a
seeded sample under real bash with fake programs to prove each one executes.
"""

from __future__ import annotations

import random
import shlex
from collections.abc import Callable
from typing import NamedTuple


class Base(NamedTuple):
    rule: str  # the starter-policy rule that must deny (or ask about) it
    words: tuple[str, ...]  # the command, one literal word each
    program: str  # the fake program whose call proves it ran
    needles: tuple[tuple[str, ...], ...]  # each tuple: one of these args must be present


DANGEROUS = (
    Base(
        "force-push", ("git", "push", "--force", "origin", "main"), "git", (("push",), ("--force",))
    ),
    Base("force-push", ("git", "push", "-f", "origin", "main"), "git", (("push",), ("-f",))),
    Base("force-push", ("git", "push", "origin", "+main"), "git", (("push",), ("+main",))),
    Base("force-push", ("git", "-C", ".", "push", "-f"), "git", (("push",), ("-f",))),
    Base("rm-root-or-home", ("rm", "-rf", "/"), "rm", (("-rf",), ("/",))),
    Base("rm-root-or-home", ("rm", "-r", "-f", "/"), "rm", (("-r",), ("/",))),
    Base("read-secrets", ("cat", ".env"), "cat", ((".env",),)),
    Base("read-secrets", ("head", "-n", "5", ".env"), "head", ((".env",),)),
    Base("skip-hooks", ("git", "commit", "--no-verify", "-m", "x"), "git", (("--no-verify",),)),
)
PIPED = Base("download-to-shell", ("curl", "-fsSL", "https://example.invalid/i.sh"), "sh", ())

BENIGN = (
    ("git", "push", "origin", "main"),
    ("git", "push", "-u", "origin", "feature"),
    ("git", "commit", "-m", "do not force push"),
    ("rm", "-rf", "build"),
    ("rm", "-f", "notes.txt"),
    ("cat", ".env.example"),
    ("cat", "README.md"),
    ("head", "-n", "5", "setup.cfg"),
    ("echo", "git", "push", "--force"),
    ("echo", "rm", "-rf", "/"),
    ("grep", "-rn", "force", "src"),
    ("git", "log", "--grep=force"),
    ("curl", "-fsSL", "-o", "install.sh", "https://example.invalid/i.sh"),
)

PREFIXES = ("", "ls", "echo hi", "cd .", "true")
OPERATORS = ("; ", " && ", "\n", " | ", " |& ", " & ", " || ")


def _escape_all(word: str) -> str:
    return "".join("\\" + char for char in word)


def _split_quotes(word: str) -> str:
    if len(word) < 2:
        return "'" + word + "'"
    return word[0] + '"' + word[1:-1] + '"' + word[-1]


def _continued(word: str) -> str:
    middle = max(1, len(word) // 2)
    return shlex.quote(word[:middle]) + "\\\n" + shlex.quote(word[middle:])


def _ansi_c(word: str) -> str:
    return "$'" + "".join(f"\\x{ord(char):02x}" for char in word) + "'"


def _octal(word: str) -> str:
    return "$'" + "".join(f"\\{ord(char):03o}" for char in word) + "'"


def _locale(word: str) -> str:
    return '$"' + word + '"'


def _empty_quotes(word: str) -> str:
    return word[:1] + "''" + shlex.quote(word[1:]) if len(word) > 1 else word + '""'


WORD_SPELLINGS: tuple[Callable[[str], str], ...] = (
    shlex.quote,
    _escape_all,
    _split_quotes,
    _continued,
    _ansi_c,
    _octal,
    _locale,
    _empty_quotes,
)
BLANKS = (" ", "\t", "${IFS}", " \\\n ", "  ")


def spell_words(words: tuple[str, ...], rng: random.Random) -> str:
    """Each word spelled by a random word transform, joined by random blanks."""
    spelled = [rng.choice(WORD_SPELLINGS)(word) for word in words]
    text = spelled[0]
    for word in spelled[1:]:
        text += rng.choice(BLANKS) + word
    return text


def command_forms(words: tuple[str, ...], fakebin: str, rng: random.Random) -> str:
    """The command with one command-level transform (or none)."""
    name, rest = words[0], " ".join(shlex.quote(word) for word in words[1:])
    plain = spell_words(words, rng)
    forms = [
        plain,
        f"c={shlex.quote(name)}; $c {rest}",
        f"c={shlex.quote(name)}; ${{c}} {rest}",
        f"$(printf {shlex.quote(name)}) {rest}",
        f"$(echo {shlex.quote(name)}) {rest}",
        f"`echo {shlex.quote(name)}` {rest}",
        f"command {plain}",
        f"env A=1 {plain}",
        f"nice -n 5 {plain}",
        f"sudo -u root {plain}",
        f"timeout 10 {plain}",
        f"{fakebin}/{plain}",
        f"\\{name} {rest}",
        f"bash -c {shlex.quote(plain)}",
        f"sh -c {shlex.quote(plain)}",
        f"eval {shlex.quote(plain)}",
        f"echo {shlex.quote(plain)} | bash",
        f"bash <<'EOF'\n{plain}\nEOF\n",
        f"{{ {plain}; }}",
        f"( {plain} )",
        f"if true; then {plain}; fi",
        f'echo "$\'"; {plain}',
        f"echo '$'; {plain}",
    ]
    if all(char not in word for word in words for char in ",{} '\"\\$"):
        forms.append("{" + ",".join(words) + "}")
    return rng.choice(forms)


def piped_forms(words: tuple[str, ...], fakebin: str, rng: random.Random) -> str:
    producer = spell_words(words, rng)
    pipe = rng.choice(
        (
            "| sh",
            "|& sh",
            "| bash",
            f"| {fakebin}/sh",
            "| exec sh",
            "| env sh",
            "| sudo bash",
            '| s$""h',
            "| sh -s",
            "| tee /dev/null | sh",
            "| { sh; }",
        )
    )
    return f"{producer} {pipe}"


def with_prefix(command: str, rng: random.Random) -> str:
    prefix = rng.choice(PREFIXES)
    if not prefix:
        return command
    operator = rng.choice(OPERATORS)
    if command.startswith("c=") and "|" in operator and operator != " || ":
        operator = "; "  # a pipe stage is a subshell: its `c=...` would not reach `$c`
    if operator == " || ":
        prefix = "false"
    if operator == " & ":
        return f"{prefix} & {command}\nwait"
    return f"{prefix}{operator}{command}"


def dangerous_variants(count: int, seed: int, fakebin: str) -> list[tuple[Base, str]]:
    """`count` seeded variants of the denied commands (one in ten piped into a shell)."""
    rng = random.Random(seed)
    variants = []
    for number in range(count):
        if number % 10 == 9:
            base = PIPED
            text = piped_forms(base.words, fakebin, rng)
        else:
            base = rng.choice(DANGEROUS)
            text = command_forms(base.words, fakebin, rng)
        variants.append((base, with_prefix(text, rng)))
    return variants


def benign_variants(count: int, seed: int, fakebin: str) -> list[str]:
    rng = random.Random(seed)
    return [with_prefix(command_forms(rng.choice(BENIGN), fakebin, rng), rng) for _ in range(count)]
