"""claim_audit: past-tense file claims in an agent's answer that the change record contradicts.

The failure
-----------
Asked to split a file, a coding agent created three modules and reported four:
"1. Created xmlLoader.js ... 4. Updated template.js to import and use the new
files." Step 4 never happened. The agent had planned it and narrated the plan
in the past tense; the user read a finished job while the file on disk said
otherwise.

The fix
-------
Set the answer's account of the turn against the record of paths the turn
actually wrote. The answer is read line by line; sentences that report a
change in the past tense are picked out, and every file they name that the
record does not contain is returned as a ``FalseClaim``. A deed reported but
not done is false whatever the context, so a mechanical check suffices.

- Past tense only. Future tense announces intent, present tense describes
  code as it stands ("template.js already imports xmlLoader.js"); only a
  past-tense sentence states a deed the change record can refute.
- Scope is one sentence inside one line. A wider window would let one verb
  near the top of a list sweep in every file named below it.
- Matching is case-insensitive and lenient about directories: a wrong
  accusation sends the agent off to "fix" honest text, so it is worse than a
  miss.

Posture
-------
Fail-soft detector. It never raises on what it inspects: an unreadable
``answer`` or ``files_changed`` gives ``AuditResult(False, (), 0)``: "not
audited" is its own answer, never folded into "no false claims". Strict on its
one option: ``extra_extensions`` that is not an iterable of ``str`` (a bare
``str``, bytes, a mapping, a number) raises ``TypeError``, and an entry that
cannot be an extension (empty, or holding ``.``, ``/`` or ``\\`` after its
leading dots) raises ``ValueError``; both messages name ``extra_extensions``.
What to do with a finding (hold the draft, push a correction) belongs to the
caller's finish gate.

Choices
-------
Each is pinned by a test.

- A right single quotation mark (U+2019) counts as an apostrophe, so
  "haven't" typed with a curly quote still negates (the miss direction).
- ``bytes``, ``bytearray`` and ``memoryview`` as ``files_changed`` are
  unreadable, like ``str``; an iterable that fails while being read is too.
- ``extra_extensions`` entries keep their leading dots optional and are
  matched case-insensitively (``".HcL"`` is ``hcl``).
- Leading ``./`` is dropped repeatedly (``././a.js`` is ``a.js``).
- A URL is blanked up to the next whitespace, trailing punctuation included,
  so a sentence end glued to a URL does not cut the sentence.
- ``claimed_paths`` returns every mention in order, repeats included (the
  per-line de-duplication belongs to ``audit``); line breaks inside the
  string it is given are not treated specially.

What this does not catch
------------------------
Each is pinned by a test.

1. Silence: work not mentioned at all.
2. A claim with no file name ("Updated the loader to cache results").
3. A claim split across lines: a "Files created:" heading over a bare list.
4. Present-tense claims ("template.js now imports the loader").
5. Verbs not in ``CLAIM_VERBS``, including past forms equal to the base form
   (split, set, put, cut): "Split template.js into three files" is no claim.
6. Files with no recognised extension (Makefile, LICENSE, directories).
7. A mention matched leniently: "Updated config.json" passes if any changed
   path ends in "/config.json", and "Template.JS" equals "template.js".
8. A claim hidden by a blocker earlier in its sentence ("If needed I also
   updated a.js" is not read as a claim).
9. Whether the change that did happen is the change described.
10. Lines in fenced code blocks.
11. Known false positives: a file named in a relative clause of a claim
    sentence ("Created a.js which b.js imports" claims b.js) and product
    names shaped like files ("Updated Node.js").

Lineage
-------
A 2026 write-up on hardening a coding agent: the claim gate among its composed
finish gates (past-tense verbs only, one-line scope, matched against the
changed-file record that every landed write passes through, policing only
what the model volunteers), and the rule that where the model's account and
the file system disagree, the file system wins.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

__all__ = [
    "CLAIM_VERBS",
    "DETERMINERS",
    "FILE_EXTENSIONS",
    "MODAL_WORDS",
    "NEGATION_WORDS",
    "PRESENT_BE",
    "AuditResult",
    "Claim",
    "FalseClaim",
    "audit",
    "claimed_paths",
]

CLAIM_VERBS: frozenset[str] = frozenset(
    {
        "created",
        "added",
        "updated",
        "modified",
        "edited",
        "changed",
        "wrote",
        "written",
        "rewrote",
        "rewritten",
        "removed",
        "deleted",
        "renamed",
        "moved",
        "replaced",
        "refactored",
        "fixed",
        "implemented",
        "inserted",
        "appended",
        "patched",
        "extracted",
        "converted",
        "generated",
        "saved",
        "adjusted",
        "altered",
        "amended",
        "introduced",
        "made",
    }
)
MODAL_WORDS: frozenset[str] = frozenset(
    {
        "will",
        "shall",
        "would",
        "should",
        "could",
        "can",
        "may",
        "might",
        "must",
        "going",
        "gonna",
        "let",
        "need",
        "needs",
        "want",
        "wants",
        "plan",
        "plans",
        "intend",
        "intends",
        "if",
        "unless",
    }
)
NEGATION_WORDS: frozenset[str] = frozenset(
    {
        "not",
        "never",
        "no",
        "nothing",
        "none",
        "neither",
        "nor",
        "without",
    }
)
DETERMINERS: frozenset[str] = frozenset(
    {
        "the",
        "a",
        "an",
        "this",
        "that",
        "these",
        "those",
        "its",
        "their",
        "your",
        "our",
        "my",
        "his",
        "her",
        "any",
        "each",
        "every",
        "some",
    }
)
PRESENT_BE: frozenset[str] = frozenset(
    {
        "is",
        "are",
        "am",
        "be",
        "being",
        "get",
        "gets",
        "getting",
    }
)
FILE_EXTENSIONS: frozenset[str] = frozenset(
    {
        "js",
        "mjs",
        "cjs",
        "jsx",
        "ts",
        "tsx",
        "vue",
        "svelte",
        "py",
        "pyi",
        "ipynb",
        "rb",
        "go",
        "rs",
        "java",
        "kt",
        "kts",
        "scala",
        "swift",
        "c",
        "h",
        "cc",
        "cpp",
        "cxx",
        "hpp",
        "hh",
        "cs",
        "fs",
        "php",
        "pl",
        "pm",
        "lua",
        "r",
        "dart",
        "ex",
        "exs",
        "erl",
        "hs",
        "ml",
        "clj",
        "sh",
        "bash",
        "zsh",
        "fish",
        "ps1",
        "bat",
        "cmd",
        "sql",
        "json",
        "jsonc",
        "yaml",
        "yml",
        "toml",
        "ini",
        "cfg",
        "conf",
        "env",
        "properties",
        "xml",
        "xsd",
        "xsl",
        "html",
        "htm",
        "css",
        "scss",
        "sass",
        "less",
        "md",
        "markdown",
        "rst",
        "txt",
        "csv",
        "tsv",
        "lock",
        "gradle",
        "tf",
        "proto",
        "graphql",
        "gql",
        "svg",
    }
)

# Every pattern is a single bounded class or a fixed sequence: no nested quantifiers.
_CUT_RE = re.compile(r";|[.!?](?=\s|\Z)")
_WORD_RE = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")
_MENTION_RE = re.compile(r"[\w.\-/\\@~+]+")
_SPACE_RE = re.compile(r"\s")
_SEPARATOR_RE = re.compile("://")
_SLASH_RUN_RE = re.compile(r"/{2,}")
_SCHEME_CHARS = frozenset(string.ascii_letters + string.digits + "+.-")
_FENCES = ("```", "~~~")


class Claim(NamedTuple):
    """One file a line claims was changed."""

    verb: str
    path: str


class FalseClaim(NamedTuple):
    """A claimed file the change record does not contain."""

    line: int
    path: str
    verb: str
    text: str


class AuditResult(NamedTuple):
    """`audited` is False when the answer or the change record could not be read."""

    audited: bool
    false_claims: tuple[FalseClaim, ...]
    checked: int


_NOT_AUDITED = AuditResult(False, (), 0)


# --------------------------------------------------------------------------- reading a line


def _extensions(extra: Iterable[str]) -> frozenset[str]:
    """`FILE_EXTENSIONS` plus `extra`; a wrong option raises naming `extra_extensions`."""
    if isinstance(extra, (str, bytes, bytearray, memoryview, Mapping)) or not isinstance(
        extra, Iterable
    ):
        raise TypeError(f"extra_extensions must be an iterable of str, not {type(extra).__name__}")
    added: set[str] = set()
    for item in list(extra):
        if not isinstance(item, str):
            raise TypeError(f"extra_extensions must hold str only, not {type(item).__name__}")
        extension = str.__str__(item).lstrip(".").lower()
        if not extension or any(mark in extension for mark in "./\\"):
            raise ValueError(f"extra_extensions: {item!r} is not a file extension")
        added.add(extension)
    return FILE_EXTENSIONS | added


def _blank_urls(text: str) -> str:
    """Replace each `scheme://...` (up to the next whitespace) with one space."""
    if "://" not in text:
        return text
    parts = []
    done = 0
    for separator in _SEPARATOR_RE.finditer(text):
        sep = start = separator.start()
        # a separator inside the URL blanked last stops here at once: start == sep
        while start > done and text[start - 1] in _SCHEME_CHARS:
            start -= 1
        while start < sep and not text[start].isalpha():  # ASCII here: a scheme character
            start += 1
        if start == sep:  # no scheme: not a URL
            continue
        space = _SPACE_RE.search(text, separator.end())
        end = space.start() if space else len(text)
        parts.append(text[done:start])
        parts.append(" ")
        done = end
    parts.append(text[done:])
    return "".join(parts)


def _claim_verb(sentence: str) -> str:
    """The first unblocked claim verb of a sentence as written, or ""."""
    previous = ""
    for match in _WORD_RE.finditer(sentence):
        word = match.group()
        lower = word.lower()
        if lower in CLAIM_VERBS and previous not in DETERMINERS and previous not in PRESENT_BE:
            return word
        if (
            lower in MODAL_WORDS
            or lower in NEGATION_WORDS
            or lower.endswith("n't")
            or lower.endswith("'ll")
        ):
            return ""  # every later verb in this sentence is blocked
        previous = lower
    return ""


def _is_file(mention: str, extensions: frozenset[str]) -> bool:
    segment = mention[max(mention.rfind("/"), mention.rfind("\\")) + 1 :]
    dot = segment.rfind(".")
    return dot >= 0 and segment[dot + 1 :].lower() in extensions


def _line_claims(line: str, extensions: frozenset[str]) -> list[Claim]:
    text = _blank_urls(line)
    if "." not in text:
        return []  # a mention needs a dot: nothing to claim
    text = text.replace("\u2019", "'")
    if CLAIM_VERBS.isdisjoint(word.lower() for word in _WORD_RE.findall(text)):
        return []  # no claim verb anywhere in the line
    claims: list[Claim] = []
    start = 0
    sentences = []
    for cut in _CUT_RE.finditer(text):
        if cut.group() != "?":
            sentences.append(text[start : cut.start()])
        start = cut.end()
    sentences.append(text[start:])
    for sentence in sentences:
        verb = _claim_verb(sentence)
        if not verb:
            continue
        for run in _MENTION_RE.findall(sentence):
            if "." not in run:
                continue  # most runs are plain words
            mention = run.rstrip(".")
            if _is_file(mention, extensions):
                claims.append(Claim(verb, mention))
    return claims


def claimed_paths(line: str, *, extra_extensions: Iterable[str] = ()) -> tuple[Claim, ...]:
    """The `Claim`s one line makes (URLs blanked, sentences, verbs, mentions); non-str -> ().
    A wrong `extra_extensions` raises TypeError/ValueError naming it."""
    extensions = _extensions(extra_extensions)
    if not isinstance(line, str):
        return ()  # type: ignore[unreachable]  # data of any type: no claims, never a raise
    return tuple(_line_claims(str.__str__(line), extensions))


# --------------------------------------------------------------------------- matching


def _norm_path(path: str) -> str:
    """`\\` -> `/`, casefold, runs of `/` collapsed, leading `./` dropped."""
    path = path.replace("\\", "/").casefold()
    if "//" in path:
        path = _SLASH_RUN_RE.sub("/", path)
    start = 0
    while path.startswith("./", start):
        start += 2
    return path[start:]


class _Index:
    """Changed paths as a trie of their components, last component first.

    A mention matches a changed path when, with leading `/` ignored, one is the
    other or ends with `/` + the other: a walk down the trie from the mention's
    last component finds that in time linear in the mention's length.
    """

    def __init__(self, paths: list[str]) -> None:
        self.root: dict[str | None, Any] = {}
        for path in paths:
            tail = _norm_path(path).lstrip("/")
            if not tail:
                continue
            node = self.root
            for part in reversed(tail.split("/")):
                node = node.setdefault(part, {})
            node.setdefault(None, {})  # None marks the end of a changed path; parts are str

    def matches(self, mention: str) -> bool:
        node = self.root
        for part in reversed(mention.lstrip("/").split("/")):
            found = node.get(part)
            if found is None:
                return False
            node = found
            if None in node:
                return True  # a changed path is the mention or a trailing part of it
        return True  # the mention is a trailing part of a changed path


def _changed_paths(files_changed: object) -> list[str] | None:
    if isinstance(files_changed, (str, bytes, bytearray, memoryview, Mapping)) or not isinstance(
        files_changed, Iterable
    ):
        return None
    try:
        items = list(files_changed)
    except Exception:
        return None
    paths = [str.__str__(item) for item in items if isinstance(item, str)]
    return [path for path in paths if path.strip()]


def audit(
    answer: str, files_changed: Iterable[str], *, extra_extensions: Iterable[str] = ()
) -> AuditResult:
    """Past-tense file claims in `answer` that `files_changed` does not back, in line order.
    Unreadable data -> not audited; a wrong `extra_extensions` raises TypeError/ValueError."""
    extensions = _extensions(extra_extensions)
    if not isinstance(answer, str):
        return _NOT_AUDITED  # type: ignore[unreachable]  # data of any type: not audited
    changed = _changed_paths(files_changed)
    if changed is None:
        return _NOT_AUDITED
    index = _Index(changed)
    verdicts: dict[str, bool] = {}
    found: list[FalseClaim] = []
    checked = 0
    fenced = False
    for number, line in enumerate(str.__str__(answer).splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith(_FENCES):
            fenced = not fenced
            continue
        if fenced:
            continue
        seen: set[str] = set()
        for claim in _line_claims(line, extensions):
            key = _norm_path(claim.path)
            if key in seen:
                continue
            seen.add(key)
            checked += 1
            ok = verdicts.get(key)
            if ok is None:
                ok = verdicts[key] = index.matches(key)
            if not ok:
                found.append(FalseClaim(number, claim.path, claim.verb, stripped))
    return AuditResult(True, tuple(found), checked)


# --------------------------------------------------------------------------- self-check


def _self_check() -> None:
    if not __debug__:
        raise SystemExit(
            "claim_audit self-check needs assertions: run it without python -O or PYTHONOPTIMIZE"
        )
    incident = (
        "Changes made:\n"
        "  1. Created xmlLoader.js ...\n"
        "  2. Created styledBox.js ...\n"
        "  3. Created tableCreator.js ...\n"
        "  4. Updated template.js to import and use the new files."
    )
    changed = {"src/xmlLoader.js", "src/styledBox.js", "src/tableCreator.js"}
    result = audit(incident, changed)
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
    ), result
    assert audit(incident, changed | {"src/template.js"}) == AuditResult(True, (), 4)
    assert claimed_paths("I will update template.js") == ()
    assert claimed_paths("template.js already imports xmlLoader.js") == ()
    assert claimed_paths("template.js is updated on every build") == ()
    assert claimed_paths("I haven't modified template.js") == ()
    assert claimed_paths("I did not touch a.js; I updated b.js.") == (Claim("updated", "b.js"),)
    assert audit(None, []) == _NOT_AUDITED  # type: ignore[arg-type]
    assert audit("Updated a.js", "template.js") == _NOT_AUDITED
    assert audit("Updated a.js", None) == _NOT_AUDITED  # type: ignore[arg-type]
    assert audit("Updated deploy.hcl", [], extra_extensions=[".HCL"]).false_claims[0].path == (
        "deploy.hcl"
    )
    for wrong, error in (("hcl", TypeError), ([3], TypeError), (["x.hcl"], ValueError)):
        try:
            audit("Updated a.js", [], extra_extensions=wrong)  # type: ignore[arg-type]
        except error as raised:
            assert "extra_extensions" in str(raised)
        else:
            raise AssertionError(f"extra_extensions={wrong!r} did not raise")
    # limits: no file name, a verb outside the list, a fenced line
    assert audit("Updated the loader.", []) == AuditResult(True, (), 0)
    assert audit("Split template.js into three files", []) == AuditResult(True, (), 0)
    assert audit("```\nUpdated a.js\n```", []) == AuditResult(True, (), 0)
    print("claim_audit self-check: all assertions passed")


if __name__ == "__main__":
    _self_check()
