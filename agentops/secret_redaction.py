"""Redact credential-shaped text at the two boundaries where agent memory leaks it.

The failure
-----------
An agent that remembers everything is a secret leak with a good memory. A key
pasted into a debugging chat, a connection string in a stack trace, a token
printed by a tool: each lands in a transcript, is consolidated into episodic
memory, synced to another machine, and recalled months later into a screen, a
log excerpt or another model's context window, where it is read by people and
systems that were never meant to hold it.

The fix
-------
Two functions, one per boundary.
- Display (`redact_secret_shapes`): every recall of stored text passes through
  it. Spans matching one of the named or generic secret shapes (`SHAPES`)
  become `[redacted:<shape>]`. It is tuned so that ordinary developer text
  (commit SHAs, URLs, lockfile and SRI hashes, identifiers, paths, public keys
  and certificates) comes back byte-identical, because it also runs on text
  stored before any scrubber existed. `find_secret_shapes` reports the same
  spans as positions for scanners; it never returns a value.
  `redact_json_like` applies it to every string of a parsed JSON value.
- Storage (`scrub_for_storage`): every write into a transcript or memory store
  passes through it once. Named shapes, e-mail addresses and an entropy
  catch-all become typed identity markers `<REDACTED:<kind>:<5 hex>>`; the
  originals go back to the caller for an encrypted sidecar. `noise_report`
  measures how much of the catch-all is noise, in counts only.
Neither function is for text that will be executed or parsed: both rewrite
spans, so commands, config files and headers would be corrupted.

Posture
-------
- Display is fail-closed: a scan that does not reach a fixed point within
  `MAX_REDACTION_PASSES` returns only `NONCONVERGENT_TOKEN`. Anything that is
  not a `str` gives an empty result; it never raises and never returns a value
  it did not inspect.
- Storage is fail-closed: `sidecar` is a required keyword; without a sidecar,
  text that needs a marker raises `ScrubRefused` (kinds and counts only, never
  a value) before any output exists. Non-`str` input raises `TypeError`.
- `noise_report` is fail-soft: counts only, never raises.

Rules
-----
Each shape is one record (`_ShapeRule`): name, description, anchors (literals
every match holds, where the match starts relative to each, and whether a long
body follows), then either a regular expression tried only at the anchors or a
hand-written finder, plus optional context checks (`also_needs`, prefilter
`probes`, a whole-text `gate`) and the boundary it serves. Every gate and index
is derived from the records. Adding a vendor token format is one record in
`_VENDOR_RULES` plus its tests. The machinery that keeps rules off text that
cannot hold them sits in one section at the end of the module.

The key-name layer
------------------
`keyed-secret` takes a value assigned to a credential-named key, in every
syntax people paste: dotenv and shell (`KEY=v`, `export KEY='v'`,
`PGPASSWORD=v cmd`), YAML, JSON, TOML/INI, source code (assignments,
annotated assignments, dict/object literals, struct fields, setters,
first-argument pairs such as `setdefault("API_KEY", "v")`), CLI flags
(`--password v`, `--token=v`, `mysql -p'v'`, `curl -u user:v`, a tool's
password flag such as `docker login -p v`, `redis-cli -a v`, `-storepass v`,
`-passout pass:v`), quoted header dicts (`{"Authorization": "Bearer v"}`,
`X-Api-Key: v`), session cookies (`Cookie:`, `Set-Cookie:`, `curl -b`),
connection strings (`Password=v;`, `?password=v&`), SQL (`IDENTIFIED BY 'v'`,
`WITH PASSWORD 'v'`), login calls (`auth=("user", "v")`,
`smtp.login("user", "v")`), fallbacks and defaults (`X || 'v'`,
`${X:-v}`, Makefile `?=`), Kubernetes `name:`/`value:` pairs, XML
(`<password>v</password>`, `key="..." value="v"`), `set`/`config` commands,
PowerShell `ConvertTo-SecureString "v" -AsPlainText`, `echo "v" | ... --password-stdin`,
`.netrc`, `.pgpass`, `.pypirc`, `.npmrc` `_auth`/`_authToken`, redis.conf, Redis
`AUTH`, `rabbitmqctl add_user`, `htpasswd -b`, httpie `-a user:v`, Samba
`-U user%v`, FreeRDP `/p:v`, Go `%+v` struct dumps, `printenv K` output,
cookies.txt lines, network device configurations (`username u secret 0 v`).
The rule that separates a secret from
text that only names one: the key's LAST word is a credential noun
(password, passwd, pass, pwd, psk, secret, token, credentials, or `key`
qualified by api, secret, private, access...); the key is ASSIGNED (`=`, `:`,
`:=`, `=>`, a flag argument; never `==`); and the value is a LITERAL (not a
reference, template, call, attribute, type annotation or placeholder). An
unquoted value ends where its context ends it (`;` in a connection string,
`&` in a query, `, ) ] }` in a flow mapping, a blank in a line), so the
punctuation a password holds stays inside. The comment block above
`_find_keyed` spells each part out. Only the value is replaced: quotes, the
key, the line and its neighbours stay.

Choices
-------
- Whole-token growth takes its trailing `=` padding the way a regular
  expression `={0,2}(?![A-Za-z0-9+/._-])` would (backtracking): in
  `<token>==x` one `=` is taken.
- The `Authorization:` credential includes its `=` padding, both in the span
  replaced and in the 16-character minimum of `Bearer`/`Token`.
- `Basic` credentials and Docker `"auth"` values decode as standard base64
  with the padding optional; a body of length 1 mod 4, or explicit padding
  that does not complete a 4-character quantum, does not decode.
- In `url-credentials`, the character after `@` is looked at, not consumed.
- `Originals` refuses non-`str` items with `TypeError`.
- Storage: where a single pass would not be idempotent (a claim cuts a run
  whose rule needed the text beyond the cut, e.g. `Bearer <16+ chars>=<run>`),
  the pieces cut off by claims are scanned again until nothing more is
  claimed, so `scrub_for_storage(s.text, sidecar=False)` never finds anything
  new. Every other input gets exactly the single pass.
- `find_secret_shapes`: when a later pass cuts through an earlier token (a
  database URI whose host stops at the `]` of a token), the span covers the
  whole earlier token's input and the token's leftover characters stand for
  no input character.
- Escaped text: where the input holds a JSON or Python escape (`\\n`, `\\"`,
  `\\/`, `\\uXXXX`), `%XX` of printable ASCII or a trailing-backslash line
  wrap, both boundaries also scan the decoded text (and, for a JSON line inside
  a JSON string, the text decoded twice) and replace the raw spans those
  findings map back to: whole escape sequences only, everything else
  byte-identical. Raw findings are cut before an escaped line break and never
  start or end on an escaped quote; on a line that parses as JSON, a span that
  starts inside a string ends before its closing quote, so a redacted JSON
  line still parses. Text with no backslash and no `%` takes the plain path;
  otherwise only the lines that hold an escape, with one line on each side, are
  decoded and scanned again (the rest of the text is the same decoded or not);
  such windows less than 512 characters apart are scanned as one.
- Filled-in vendor shapes: a named vendor match whose letters and digits are
  three quarters or more `x`, `X` or `0` (`ghp_xxxx...`, `sk_live_XXXX...`,
  `xoxb-0000000000-...-xxxx`) is a documentation placeholder and passes.
- Speed: the call is gated by a few C-level scans of the input; rules whose
  literals are absent never run, and named rules try their own regular
  expression only where one of their literals occurs. Outputs are those of
  running every rule everywhere.

WHAT THIS DOES NOT CATCH
------------------------
Each limit is pinned by a test.
Display:
- 40-hex strings, on purpose: a legacy 40-hex GitHub token has the shape of a
  git SHA (inside an `Authorization:` header the header rule still takes it,
  and so does the key-name layer after a credential key).
- Unprefixed hex under 48 characters (a 32-hex Twilio auth token or Datadog key
  looks like an MD5 digest; a Mailchimp key is found by its `-us<n>` suffix).
- Opaque, unprefixed credentials whose key is not credential-named
  (`MY_SERVICE_TOK=...`, `DB_PASS_PRIMARY=...`) and cookies whose name is not
  session-like or that are set from a dict (`cookies={"session": v}`).
- Key-named values (`keyed-secret`, see "The key-name layer"): an unquoted
  value is cut at its first space, and in a line at `;k=`/`&k=`/`,k=`; a
  literal that reads as code after ` = ` (`password = hunterhunter`), a
  dotted value whose last part holds no digit (`Kq.jZab`), a name and a
  bracket that does not close on its line, one dictionary-looking word
  (`"coyote"`), a placeholder-looking literal (`"test"`, `"password1"`), a
  lowercase word and one digit (`"sunshine1"`), typed filler of ascending runs
  (`abc123def456`), two lowercase words (`horse-battery`, read as a resource
  name; three or more are a passphrase), a path, a URL, or a value starting
  with `$` and a name, brace or parenthesis, `{`, `%(` or `!tag` passes (as does
  `$1` or `$@` alone and a crypt hash `$2b$...`); a first-argument pair under 8 characters
  passes; an unterminated quote gives no value; a key split
  from its value across lines (YAML block scalars) passes; a key whose first
  word is an action (`hash_password`, `showPassword`) is read as code. A
  password passed by position to a call the module does not list
  (`pymysql.connect('h', 'u', 'v')`; `new PDO`, `DBI->connect`,
  `getConnection`, `mysqli`, `Sequelize` and a few more are read), in an
  argument list over 512 characters, or in a call of the same name within 512
  characters after one that does not close, a Terraform variable's `default`
  past 512 characters into its block or after a nested block, a `random_password`'s
  state `"result"` whose `"type"` stands over 512 characters after `"mode"`, a Redis
  ACL `>password` rule and a `.pgpass` line whose port is not 2 to 5 digits or `*` pass. A
  Go `%+v` dump's field passes when it is not capitalized or its braces hold
  something other than `Name:value` fields; Redis `AUTH` passes in lower case
  without a prompt before it; a tool's pair flag (`http -a`, `smbclient -U`)
  passes more than 256 characters after the tool's name; a variable printed
  another way (`printf '%s' "$K"`, `env | grep K`) passes. A token shaped
  like an identifier whose parts are all under 16 characters or hold fewer
  than three digits (`acme_key_Kq83mXzLpRtvNw`) after a credential key reads
  as a name and passes; an `Authorization` scheme not listed is kept only
  before a credential of 12 characters or more with a digit. Prose hands a value over
  only in brackets after its key or as `use v as the K` (8 characters or more with a
  letter and a digit); other phrasings (`the key in config.yml is: v`) pass. A
  bare `key` member passes unless its object's name qualifies it and the members
  before it are flat (`"Jwt": {"Opts": {...}, "Key": v}` passes); a bare `salt`
  passes (a password hash's), and so does a qualified one unless it is written
  upper-case (`AUTH_SALT`) or is Drupal's `$settings['hash_salt']`
  (`jwt_salt`, `sessionSalt` pass); a cookie object passes unless a `"cookies"` list
  comes before it or it holds a cookie's own members (`"domain"`, `"path"`...). A
  `key` named by a vendor (`OPENAI_KEY`) passes unless its value reads as generated
  (under 20 characters, without a digit, or with a blank or two slashes it passes).
- A ThingsBoard device token is seen only as 20 letters and digits in a
  device API path (`/api/v1/<token>/telemetry`); a Salesforce token only
  with its 15-character org id and a body of 80 or more characters.
- Vendor formats known only by a vendor's word pass when the word is not right
  before the value (a bare Okta `00...` token), and a prefixed key whose body
  is a run of the alphabet (`NRAK-ABCDEFGHIJ...`) is read as a placeholder.
  Most vendor words are looked for, in any letter case, only in the 64
  characters before a run of 24 base64 and base64url characters that follows
  `=` or `:` and holds a digit, so a shorter value under such a word (`sumo_id:
  su<12 characters>`) passes unless such a run follows the word closely; UPPER
  spellings that hold a character the prefilter stops at (`TRAVIS`) are looked
  for everywhere. A few prefixes whose body is
  base64url (Fly.io's `fo1_`, `figd_`) are looked for only on a line that
  holds a run of 32 letters, digits, `-` and `_`: a body that `.` or `=`
  cuts short (`pscale_oauth_` with dots) passes unless its line holds one. A
  Dropbox `sl.` body that `=` cuts into runs under 24 passes.
- Base64 under 40 characters, digit-free runs, and fragments cut at a snippet
  edge (`ghp_abcdefghij`).
- Base64 inside URLs, data: payloads and digests is skipped, so a secret in a
  query parameter passes unless a named rule knows it; the URL check is
  lexical, not a parser.
- The base64 of text with three blanks or more that names no credential word is
  read as a note, not a key: a secret inside such encoded prose passes.
- A hex or base64 run on a line that names a container (`containerd`, `container
  <id>`) and no credential is read as its id; a quoted key holding a blank with a
  value holding one (`"Reset password" = "Redefinir senha"`) as a UI string and its
  translation (a value that reads as a passphrase is judged as any other).
- Keys that look like names (about 1 in 100,000 40-character keys) or are
  repetitive (under 3.5 bits per character), and hex runs with fewer than two
  letters or two digits.
- Committed ciphertext passes: an Ansible Vault block (its hex lines up to the
  first line that is not hex), a SOPS `ENC[AES256_GCM,...]` value on one line,
  a Sealed Secret's `encryptedData:` lines indented deeper than that key, a
  Pulumi `secure: v1:...`, a Chef `"encrypted_data"`, a `PGP MESSAGE` block and an
  AWS KMS blob (`AQICAH...`); so does a Redis ACL's `#<sha256>` password hash.
- Public-key context is positional: a run after a `BEGIN CERTIFICATE` line is
  public until the next armor line; a public block whose `BEGIN` line was cut
  off is redacted; a digest named neither by its algorithm (`sha256:`) nor by
  its key (`checksum =`, `digest:`, `hash`, `ETag`) is redacted
  (`value = "<64 hex>"`).
- Random path segments (content-addressed store hashes) make a path look like
  a key when fewer than two of its parts, and fewer than half, are lower-case
  words (`/store/<hash>`; `/nix/store/<hash>` is a path).
- Placeholder-looking URL passwords (under 8 characters, no letter, or
  digit-free words / one letter case) pass `url-credentials`; database URIs
  redact any password but a placeholder word (`password`, `<password>`, `****`,
  `changeme`) or a reference (`$PGPASSWORD`, `{password}`), so a weak real
  password that is also a placeholder word (`test`, `123456`) passes.
- ASCII-only semantics: non-ASCII whitespace neither ends a URL context nor a
  database-URI host.
- `redact_json_like` leaves values that are not dicts, lists, tuples or
  strings as they are (bytes, sets and objects pass unread).
- Escaped text (see "Escaped text" under Choices) is decoded at most two
  levels deep: a JSON line inside a JSON line inside a JSON line passes as
  its raw form does. Percent-encoding is decoded for printable ASCII only
  (`%DB_PASSWORD%` stays a variable). A secret split into concatenated
  literals across a wrapped line (`"abc" \\` newline `"def"`) is found only
  under a credential-named key (or where a part alone has a shape). In
  escaped text overlapping findings become one token, named after the first.
  Escapes three levels deep (a JSON document inside a JSON string inside a
  JSON string) are decoded two levels only. A decoded line is judged with one
  line of context on each side: a rule that reads further back (a public-key
  armor header three lines above a base64 body) sees less in the decoded view
  than in the raw text, so such a body beside an
  escape may be replaced although the raw text alone would keep it.
Storage:
- Bare hex under 48 characters is never marked (hex stays under 4.5 bits).
- Low-entropy secrets (dictionary passwords), runs of 22 characters or fewer,
  and secrets with non-ASCII characters or delimiters pass.
- A glued `NAME=value` is marked whole, name included; growth marks a glued
  prefix (`api_key_<hex>`, `sha512-<base64>`). Emails over-match
  (`git@github.com`) and miss IP-literal or quoted forms.
- Scrubbing is prospective (earlier text is not re-scrubbed), and the module
  cannot verify that the caller encrypted or kept the originals.
Noise report: classes are shape-based; a secret shaped like a clean path or
URL is counted as noise.

Lineage
-------
The recall-boundary chokepoint comes from agent conversation-recall systems
that redact before anything reaches a prompt; the write-time typed marker
scrubber with an encrypted sidecar and a noise health check comes from a 2026
practitioner account of running agent memory; the token formats come from the
vendors' own documentation, cross-checked against the rule sets of open-source
secret scanners and the list of patterns GitHub secret scanning supports. Code
and prose are this project's own. The full reference, with worked examples, is
`docs/reference/secret_redaction.md`.
"""

from __future__ import annotations

import base64
import binascii
import collections.abc
import hashlib
import json
import math
import re
import string
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple, TypeVar, overload

__all__ = [
    "BASE64_MIN_BITS_PER_CHAR",
    "ENTROPY_BITS_PER_CHAR",
    "ENTROPY_MIN_RUN",
    "MARKER_KINDS",
    "MAX_REDACTION_PASSES",
    "NONCONVERGENT_TOKEN",
    "SHAPES",
    "Found",
    "Marker",
    "NoiseReport",
    "Originals",
    "Redaction",
    "ScrubRefused",
    "Scrubbed",
    "find_secret_shapes",
    "noise_report",
    "redact_json_like",
    "redact_secret_shapes",
    "scrub_for_storage",
]

MAX_REDACTION_PASSES: int = 8
NONCONVERGENT_TOKEN: str = "[redacted:nonconvergent-snippet]"
BASE64_MIN_BITS_PER_CHAR: float = 3.5
ENTROPY_BITS_PER_CHAR: float = 4.5
ENTROPY_MIN_RUN: int = 20

_NONCONVERGENT = "nonconvergent-snippet"


class Redaction(NamedTuple):
    """Display-boundary result: the redacted text and one shape name per replacement."""

    text: str
    shapes: tuple[str, ...]


class Found(NamedTuple):
    """A span of the INPUT text that the display boundary replaces, and the shape that did."""

    shape: str
    start: int
    end: int


class Marker(NamedTuple):
    """A storage identity marker and its offsets in `Scrubbed.text`."""

    kind: str
    text: str
    start: int
    end: int


class NoiseReport(NamedTuple):
    """Counts of catch-all originals by shape class; safe to log."""

    total: int
    distinct: int
    uuid: int
    hash: int
    url: int
    path: int
    unclassified: int
    skipped: int
    noise_share: float | None


class ScrubRefused(Exception):
    """Text needed a storage marker but the caller has no sidecar; names kinds only."""

    kinds: tuple[str, ...]

    def __init__(self, kinds: tuple[str, ...]) -> None:
        self.kinds = tuple(kinds)
        distinct = ", ".join(sorted(set(self.kinds)))
        super().__init__(
            f"scrub_for_storage refused: {len(self.kinds)} span(s) need a sidecar "
            f"(kinds: {distinct}); pass sidecar=True only with an encrypted sidecar"
        )


class Originals(collections.abc.Sequence):  # type: ignore[type-arg]
    """Read-only sequence of the original values; repr shows only the count."""

    __slots__ = ("_values",)
    _values: tuple[str, ...]

    def __init__(self, values: Iterable[str] = ()) -> None:
        snap = tuple(values)
        for v in snap:
            if not isinstance(v, str):
                raise TypeError("Originals holds str values only")
        object.__setattr__(self, "_values", tuple(str.__str__(v) for v in snap))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Originals is read-only")

    def __len__(self) -> int:
        return len(self._values)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> Originals: ...

    def __getitem__(self, index: int | slice) -> str | Originals:
        if isinstance(index, slice):
            return Originals(self._values[index])
        return self._values[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Originals):
            return self._values == other._values
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("Originals", self._values))

    def __repr__(self) -> str:
        return f"<Originals: {len(self._values)} withheld>"

    __str__ = __repr__


class Scrubbed(NamedTuple):
    """Storage-boundary result: text safe to store, markers, and withheld originals."""

    text: str
    markers: tuple[Marker, ...]
    originals: Originals


# --------------------------------------------------------------------------------------------
# Character classes and helpers
# --------------------------------------------------------------------------------------------

_Spans = list[tuple[int, int]]
_Finder = Callable[[str], _Spans]
_Spans2Finder = Callable[[str, frozenset[str]], _Spans]  # also told which literals occur


def _ascii_re(pattern: str) -> re.Pattern[str]:
    """A compiled pattern whose classes (`\\w`, `\\s`, `\\b`) mean ASCII only: every shape
    here is ASCII, and Unicode classes would let a look-alike letter extend a token."""
    return re.compile(pattern, re.ASCII)


_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_WORDCH = _ALNUM | {"_"}
_SEPS = frozenset("._-")
_PAD_FORBID = _ALNUM | frozenset("+/._-")
_HEXLET = frozenset("abcdefABCDEF")
_DIGITS = frozenset("0123456789")


def _beside_vendor_word(word: str, value: str) -> Callable[[str], _Spans]:
    """A finder for a `value`-shaped secret assigned right after a vendor's word
    (`MAILGUN_API_KEY = "<value>"`, `"mailgun_key": "<value>"`): only the value's
    span is reported, so the key and the quotes stay."""
    rx = _ascii_re(
        rf"(?i:{word})[\w.-]{{0,30}}?"  # the vendor word, then the rest of the key name
        r"[\"'`]?[ \t]*(?:=>|:=|[=:])[ \t]*[\"'`]?"  # an assignment, quotes optional
        rf"((?=[A-Za-z_=+/.|%:-]*[0-9])(?:{value}))"  # the value, which holds a digit
        r"(?![A-Za-z0-9_=+/-])"  # and ends where a token would
    )
    return lambda text: [m.span(1) for m in rx.finditer(text)]


_VAULT_LOGIN = _ascii_re(
    r"\bvault[ \t]+login[ \t]+(?:-[a-z-]+(?:=[^\s=]+)?[ \t]+)*(?:token=)?"
    r"(s\.[A-Za-z0-9]{24})(?![A-Za-z0-9])"
)
_VAULT_ASSIGNED = _beside_vendor_word("vault", r"s\.[A-Za-z0-9]{24}")


def _find_legacy_vault_token(text: str) -> _Spans:
    """A legacy Vault token (`s.` and 24) assigned beside the word vault, or given to
    `vault login`."""
    spans = _VAULT_ASSIGNED(text) + [m.span(1) for m in _VAULT_LOGIN.finditer(text)]
    return _disjoint(spans)


# The 15-character org id, `!` and the session body; found from each `!`, rare in text.
_SALESFORCE = _ascii_re(
    r"(?<![A-Za-z0-9])00[A-Za-z0-9]{13}![A-Za-z0-9._]{79,}[A-Za-z0-9](?![A-Za-z0-9_])"
)


def _find_salesforce(text: str) -> _Spans:
    out: _Spans = []
    i = text.find("!", 15)
    while i != -1:
        m = _SALESFORCE.match(text, i - 15)
        if m is not None:
            out.append(m.span())
        i = text.find("!", m.end() if m is not None else i + 1)
    return out


def _entropy_at_least(counts: Iterable[int], n: int, twice_bits: int) -> bool:
    """True when the Shannon entropy of `counts` (summing to n) is >= twice_bits / 2, exactly."""
    cs = [c for c in counts if c]
    threshold = twice_bits / 2
    h = -sum((c / n) * math.log2(c / n) for c in cs)
    if abs(h - threshold) > 1e-9:
        return h > threshold
    # Near a tie: decide n^(2n) >= 2^(twice_bits*n) * prod c^(2c) by prime exponents.
    exps: Counter[int] = Counter()
    for prime, e in _factor(n):
        exps[prime] += 2 * n * e
    exps[2] -= twice_bits * n
    for c in cs:
        for prime, e in _factor(c):
            exps[prime] -= 2 * c * e
    if all(v == 0 for v in exps.values()):
        return True
    return math.fsum(v * math.log2(p) for p, v in exps.items()) > 0


def _factor(n: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    d = 2
    while d * d <= n:
        e = 0
        while n % d == 0:
            n //= d
            e += 1
        if e:
            out.append((d, e))
        d += 1
    if n > 1:
        out.append((n, 1))
    return out


def _b64_has_colon(run: str, pad: str) -> bool:
    """`run`+`pad` is standard base64 (padding optional) whose bytes contain ':'."""
    bad_length = (len(run) + len(pad)) % 4 != 0 if pad else len(run) % 4 == 1
    if not run or bad_length:
        return False
    try:
        raw = base64.b64decode(run + (pad or "=" * (-len(run) % 4)), validate=True)
    except (binascii.Error, ValueError):
        return False
    return b":" in raw


_WORD_RE = _ascii_re(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def _word_stats(s: str) -> tuple[int, int]:
    words = _WORD_RE.findall(s)
    return sum(map(len, words)), len(words)


class _NextStop:
    """First index >= pos matching `pattern` (or len); amortized linear for rising positions."""

    __slots__ = ("_at", "_from", "_pattern", "_text")

    def __init__(self, pattern: re.Pattern[str], text: str) -> None:
        self._pattern = pattern
        self._text = text
        self._from = -1
        self._at = -1

    def find(self, pos: int) -> int:
        if self._from <= pos <= self._at:
            return self._at
        m = self._pattern.search(self._text, pos)
        self._from = pos
        self._at = m.start() if m else len(self._text)
        return self._at


# --------------------------------------------------------------------------------------------
# Composite rules and the linear JWT matcher
# --------------------------------------------------------------------------------------------

_DB_SCHEMES = frozenset(
    [
        "mongodb",
        "postgres",
        "postgresql",
        "mysql",
        "mariadb",
        "mssql",
        "oracle",
        "redis",
        "rediss",
        "amqp",
        "amqps",
    ]
)
_DB_PASS_STOP = _ascii_re(r"[\s@]")
_DB_HOST_STOP = _ascii_re(r"[\s\"')\]]")


# "://user:" (the user part ends at its colon): where a database URI can begin. The regular
# expression starts with a literal, so the engine jumps between "://" occurrences in C.
_DB_AFTER = _ascii_re(r"://[^\s:/@]*:")


def _db_scheme_start(text: str, q: int) -> int:
    """Start of the database scheme ending at the "://" at q, or -1 if there is none."""
    w0 = q
    while w0 > 0 and text[w0 - 1] in _WORDCH:
        w0 -= 1
    if w0 < q and w0 > 0 and text[w0 - 1] == "+":  # scheme+driver://
        w1 = w0 - 1
        while w1 > 0 and text[w1 - 1] in _WORDCH:
            w1 -= 1
        if text[w1 : w0 - 1] in _DB_SCHEMES:
            return w1
    return w0 if text[w0:q] in _DB_SCHEMES else -1


def _find_db_uri(text: str) -> _Spans:
    out: _Spans = []
    n = len(text)
    pw_stop = _NextStop(_DB_PASS_STOP, text)
    host_stop = _NextStop(_DB_HOST_STOP, text)
    m = _DB_AFTER.search(text)
    while m is not None:
        q, colon = m.start(), m.end() - 1
        start = _db_scheme_start(text, q)
        end = -1
        if start != -1:
            m2 = pw_stop.find(colon + 1)
            if m2 > colon + 1 and m2 < n and text[m2] == "@" and _holds_a_password(text, colon, m2):
                h = host_stop.find(m2 + 1)
                if h > m2 + 1:
                    end = h
        if end != -1:
            out.append((start, end))
        # A span ends at whitespace, a quote or a bracket, so no scheme word straddles it.
        m = _DB_AFTER.search(text, end if end != -1 else q + 1)
    return out


def _holds_a_password(text: str, colon: int, at: int) -> bool:
    """The password between a database URI's `:` and `@` is not a placeholder (`password`,
    `<password>`, `****`, `changeme`; the key-name layer's list) or a reference (`$PGPASSWORD`,
    `${DB_PASSWORD}`, `{password}`, `%(password)s`)."""
    password = text[colon + 1 : at]
    if _placeholder_word(password) or _REFERENCE.match(password):
        return False
    if "[redacted:" not in password and _PLACEHOLDER_PART.search(password.lower()):
        return False  # !ChangeMe!, ********, <password> (a token inside is absorbed)
    # one lower-case word holding a credential word: mypassword, randompassword
    return not (
        len(password) >= 8
        and password.isalpha()
        and password.islower()
        and _NAMES_A_CREDENTIAL.search(password) is not None
    )


_SCHEME_CH = frozenset(string.ascii_letters + string.digits + "+.-")


def _password_is_real(p: str) -> bool:
    if _passphrase(p):
        return True  # lantern-quiver-maple-orbit: words, but not a placeholder's
    if len(p) < 8 or not any(ch.isalpha() and ch.isascii() for ch in p):
        return False
    if any(ch in _DIGITS for ch in p):
        return True
    has_upper = any("A" <= ch <= "Z" for ch in p)
    has_lower = any("a" <= ch <= "z" for ch in p)
    chars, words = _word_stats(p)
    return has_upper and has_lower and chars < 4 * words


# "://user:password@" before a host character; the scheme before "://" is checked apart.
_URL_AFTER = _ascii_re(
    r"://([A-Za-z0-9._~%!$&'()*+,;=-]*):([A-Za-z0-9._~%!$&'()*+,;=:-]*)@"
    r"(?=[A-Za-z0-9\[])"
)


def _find_url_creds(text: str) -> _Spans:
    out: _Spans = []
    m = _URL_AFTER.search(text)
    while m is not None:
        q = m.start()
        j = q
        while j > 0 and text[j - 1] in _SCHEME_CH:
            j -= 1
        if j < q and text[j].isalpha() and _password_is_real(m.group(2)):
            out.append((q + 3, m.end(2)))
            m = _URL_AFTER.search(text, m.end(2))
        else:
            m = _URL_AFTER.search(text, q + 1)
    return out


_AUTH_PREFIX = _ascii_re(r"(?i:authorization):[ \t]*((?i:basic|bearer|token))[ \t]+")
_AUTH_CRED = _ascii_re(r"[A-Za-z0-9._~+/-]*")
_STD_B64 = _ascii_re(r"[A-Za-z0-9+/]+")


def _auth_prefix(text: str, lowered: str | None, pos: int) -> re.Match[str] | None:
    """Next `authorization:` header prefix at or after pos (ASCII text: found via lower())."""
    if lowered is None:
        return _AUTH_PREFIX.search(text, pos)
    i = lowered.find("authorization:", pos)
    while i != -1:
        m = _AUTH_PREFIX.match(text, i)
        if m is not None:
            return m
        i = lowered.find("authorization:", i + 1)
    return None


def _find_auth_header(text: str) -> _Spans:
    out: _Spans = []
    n = len(text)
    pos = 0
    lowered = text.lower() if text.isascii() else None
    while True:
        m = _auth_prefix(text, lowered, pos)
        if m is None:
            return out
        a = m.end()
        r_end = _AUTH_CRED.match(text, a).end()  # type: ignore[union-attr]
        b = r_end
        while b < n and b - r_end < 2 and text[b] == "=":
            b += 1
        ok = b > a and not (b < n and (text[b] in _ALNUM or text[b] == "="))
        if ok:
            run, pad = text[a:r_end], text[r_end:b]
            if m.group(1).lower() == "basic":
                ok = _STD_B64.fullmatch(run) is not None and _b64_has_colon(run, pad)
            else:
                cred = text[a:b]
                ok = (
                    len(cred) >= 16
                    and any(ch.isalpha() for ch in cred)
                    and any(ch in _DIGITS for ch in cred)
                )
        if ok:
            out.append((a, b))
            pos = b
        else:
            pos = m.end()


_DOCKER_AUTH = _ascii_re(r'"auth"[ \t]*:[ \t]*"([A-Za-z0-9+/]{8,})(={0,2})"')


def _find_docker_auth(text: str) -> _Spans:
    out: _Spans = []
    pos = 0
    while True:
        m = _DOCKER_AUTH.search(text, pos)
        if m is None:
            return out
        if _b64_has_colon(m.group(1), m.group(2)):
            out.append((m.start(1), m.end(2)))
            pos = m.end()
        else:
            pos = m.start() + 1


_JWT_STOP = _ascii_re(r"[^A-Za-z0-9_-]")


def _find_jwt(text: str) -> _Spans:
    out: _Spans = []
    stop = _NextStop(_JWT_STOP, text)
    memo: dict[int, int] = {}
    i = text.find("eyJ")
    while i != -1:
        if i > 0 and text[i - 1] in _WORDCH:
            i = text.find("eyJ", i + 1)
            continue
        e1 = stop.find(i + 3)
        if e1 - (i + 3) < 10:
            i = text.find("eyJ", i + 1)
            continue
        end = memo.get(e1)
        if end is None:
            end = _jwt_tail(text, e1)
            memo[e1] = end
        if end < 0:
            i = text.find("eyJ", e1)
            continue
        out.append((i, end))
        i = text.find("eyJ", end)
    return out


def _jwt_tail(text: str, e1: int) -> int:
    """End of a JWT whose first segment ends at e1, or -1."""
    n = len(text)
    if e1 >= n or text[e1] != ".":
        return -1
    e2 = _JWT_STOP.search(text, e1 + 1)
    e2i = e2.start() if e2 else n
    if e2i - (e1 + 1) < 10 or e2i >= n or text[e2i] != ".":
        return -1
    s3 = e2i + 1
    e3 = _JWT_STOP.search(text, s3)
    k = e3.start() if e3 else n
    while k >= s3 + 5:
        if (text[k - 1] in _WORDCH) != (k < n and text[k] in _WORDCH):
            return k
        k -= 1
    return -1


_TELEGRAM = _ascii_re(
    r"(?:(?<=/bot)|(?<![A-Za-z0-9_]))[0-9]{5,16}:A[0-9A-Za-z_-]{34}(?![0-9A-Za-z_-])"
)


def _find_telegram(text: str) -> _Spans:
    out: _Spans = []
    last = 0
    i = text.find(":A")
    while i != -1:
        s = i
        while s > 0 and i - s < 17 and text[s - 1] in _DIGITS:
            s -= 1
        if s >= last and 5 <= i - s <= 16:
            m = _TELEGRAM.match(text, s)
            if m is not None and not _filler(m.group()):
                out.append(m.span())
                last = m.end()
        i = text.find(":A", max(i + 1, last))
    return out


# The look-behind sits after the first character, so the regex engine can skip to the rare
# characters M, N and O; a two-character look-behind cannot match at the start of the text,
# exactly like a one-character look-behind before it.
_DISCORD = _ascii_re(
    r"[MNO](?<![A-Za-z0-9_.-][MNO])(?=[A-Za-z0-9_-]{0,24}[0-9])[A-Za-z0-9_-]{23,25}"
    r"\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,}"
)


# Its middle part, found from the dot (a literal the engine jumps to in C), where a search
# for [MNO] would try every character; the look-ahead leaves the closing dot to the next.
_DISCORD_MIDDLE = _ascii_re(r"\.[A-Za-z0-9_-]{6}(?=\.[A-Za-z0-9_-]{27})")


def _find_discord(text: str) -> _Spans:
    """`_DISCORD`'s matches: each holds one middle and starts 24 to 26 characters before it.
    Its look-behind lets at most one of the three places start a match, and no place
    inside another match (every character there is one it refuses), so none overlap."""
    out: _Spans = []
    for middle in _DISCORD_MIDDLE.finditer(text):
        dot = middle.start()
        for start in range(max(0, dot - 26), dot - 23):
            m = _DISCORD.match(text, start)
            if m is not None:
                out.append(m.span())
    return out


# --------------------------------------------------------------------------------------------
# Generic rules
# --------------------------------------------------------------------------------------------

_HEX_CAND = _ascii_re(r"(?<![A-Za-z0-9])[0-9a-fA-F]{48,}(?![A-Za-z0-9])")
_B64_CAND = _ascii_re(r"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{40,}={0,2}(?![A-Za-z0-9+/])")
_PURE_HEX = _ascii_re(r"[0-9a-fA-F]+")
_LABEL = re.compile(
    r"(?<![A-Za-z0-9_])(?:md5|sha-?(?:1|224|256|384|512)|h1)\Z", re.ASCII | re.IGNORECASE
)
_URL_TERM = _ascii_re(r"[\s\"'<>`{}]")
# A public key's type before its body; the type starts a word, or follows an escaped line
# break or tab (`\\nssh-rsa AAAA...` in a JSON string).
_SSH_CTX = _ascii_re(
    r"(?:(?<![A-Za-z0-9])|(?<=\\[nrt]))(?:ssh|ecdsa|sk)-[A-Za-z0-9@.-]{1,60}[ \t]{1,8}\Z"
)
# A value named as a public key: WireGuard's `PublicKey = ...` (`wg show`'s `public key:`),
# `"public_key": "..."`; a certificate's (kubeconfig, SAML's <ds:X509Certificate>); or as
# ciphertext, Chef's `"encrypted_data"`.
_PUBLIC_KEY_NAME = _ascii_re(
    r"(?i:public[_ -]?key|pubkey|certificate(?:-authority)?(?:[-_]data)?|encrypted_data)"
    r"[\"']?[ \t]*[:=>][ \t]*[\"']?\Z"
)
# A name that marks a digest, then how lock files and tools write it before the digest:
# Cargo's `checksum = "`, npm's `shasum`, a registry's `digest`, a stored `password_hash`,
# Nix's `narHash`, an HTTP `ETag`; an algorithm (Homebrew `sha256 "`, PKGBUILD
# `sha256sums=('`, Gradle `<sha256 value="`, pnpm `+sha512.`, Terraform `zh:`); a
# container id after `containerd://` or under `docker inspect`'s `"Id"`.
_DIGEST_NAME = _ascii_re(
    r"(?:(?:[Cc]hecksum|[Ss]hasum|[Dd]igest|[Hh]ash|HASH|E[Tt]ag|ETAG"
    r"|(?<![A-Za-z0-9])(?:(?i:md5|b2|sha-?(?:1|224|256|384|512))(?:sums?)?|h1|zh|bh"
    r"|code_challenge))"  # an algorithm, DKIM's body hash, a PKCE challenge
    r"(?:/[A-Za-z0-9_.-]+)?"  # `checksum/config`: an annotation's name
    r"[\"']?[ \t]*(?:[:=.(][ \t]*\(?|[ \t]value=)?[ \t]*[\"']?(?:[0-9a-z]{1,8}/)?"  # `10c0/`
    r"|(?:containerd|docker|cri-o):(?://)?|\"(?:Id|ID|ContainerID)\"[ \t]*:[ \t]*\""  # inspect
    r"|(?i:x-amz-(?:id-2|cf-id|request-id)|x-request-id|x-correlation-id"  # request ids,
    r"|x-cloud-trace-context|traceparent|x-b3-traceid|x-trace-id)[ \t]*:[ \t]*"  # traces
    r")\Z"
)
_NAMED_PUBLIC = _ascii_re(f"(?:{_PUBLIC_KEY_NAME.pattern})|(?:{_DIGEST_NAME.pattern})")
# Every match of `_NAMED_PUBLIC` holds one of these, lower-cased: a search for them is
# several times cheaper than the full expression, whose branches open with look-behinds.
_PUBLIC_NAME_WORD = _ascii_re(
    r"key|cert|crypt|sum|digest|hash|etag|md5|b2|sha|h1|zh|bh|code_challenge|containerd|docker"
    r"|cri-o|id|x-|traceparent"
)
# A word that says the line shows a digest or a container's id (64 hex: `containerd[401]:
# StartContainer for "<id>"`), on a line that names no credential.
_DIGEST_WORD = _ascii_re(
    r"(?<![A-Za-z0-9_])(?:(?i:sha-?(?:1|224|256|384|512)|md5|checksum|digest|container[ds]?)"
    r"|[Hh]ash|HASH)(?![A-Za-z0-9])"
)
_DIGEST_WORDS = ("sha", "md5", "hash", "checksum", "digest", "container")  # every match holds one
# An e-mail's signature headers, whose folded lines run to the next header.
_SIGNATURE_HEADERS = ("DKIM-Signature:", "ARC-Message-Signature:", "ARC-Seal:")
_NEXT_HEADER = _ascii_re(r"\n[^ \t\r\n]")


def _in_signature_header(text: str, pos: int) -> bool:
    start = max(text.rfind(header, max(0, pos - 4096), pos) for header in _SIGNATURE_HEADERS)
    return start != -1 and _NEXT_HEADER.search(text, start, pos) is None


# A JSON Web Key's public members (`n`, `e` of RSA; `x`, `y` of EC) before their value; the
# private ones (`d`, `p`, `q`, `dp`, `dq`, `qi`, `k`) are secrets. Read beside a `kty`.
_JWK_PUBLIC = _ascii_re(r"\\*\"[nxy]\\*\"[ \t]*:[ \t]*\\*\"\Z")
_ARMOR = _ascii_re(r"-----(BEGIN|END) ([A-Z0-9 ]+)-----")
# (a PGP MESSAGE is ciphertext: a secret only with a private key, which the text lacks)
_PUBLIC_WORDS = frozenset(("PUBLIC", "CERTIFICATE", "CRL", "SIGNATURE", "MESSAGE"))


def _scheme_starts(text: str) -> list[int]:
    """Starts of the URL scheme occurrences of the long-base64 URL skip, in text order."""
    out: list[int] = []
    q = text.find("://")
    while q != -1:
        m = _SCHEME_END.search(text, max(0, q - 5), q)
        if m is not None:
            out.append(m.start())
        q = text.find("://", q + 1)
    return out


_SCHEME_END = re.compile(r"(?:https?|wss?|ftp|s3|gs|file)\Z", re.ASCII | re.IGNORECASE)


# Ciphertext made to be committed: an Ansible Vault block, a SOPS value, the encryptedData
# mapping of a Sealed Secret. Without its key it holds no secret, so neither the generic
# rules nor the key-name layer read it. Each kind opens with a mark and is read from there
# to the end of its line at most once, so a line of repeated marks costs linear time.
_VAULT_MARK, _SOPS_MARK, _EYAML_MARK = "$ANSIBLE_VAULT;", "ENC[AES256_GCM,", "ENC[PKCS7,"
_EYAML_BLOCK = _ascii_re(r"ENC\[PKCS7,[A-Za-z0-9+/=\s]*\]")  # hiera-eyaml, over several lines
# `secure:` and its base64 value: a Travis CI or Pulumi encrypted value
_SECURE_VALUE = re.compile(
    r"(?:^|(?<=[\s-]))secure:[ \t]*([\"']?)(?:v1:[A-Za-z0-9+/=]{8,}:)?"  # Pulumi: v1:<salt>:
    r"[A-Za-z0-9+/=]{16,}\1(?![A-Za-z0-9+/=])",
    re.ASCII | re.MULTILINE,
)
_VAULT_LINES = _ascii_re(r"(?:\n[ \t]*[0-9a-fA-F]+[ \t]*\r?(?=\n|\Z))+")  # after the header
_SEALED = re.compile(
    r"^(?P<indent>[ \t]*)encryptedData:[ \t]*\r?\n"  # the mapping's key, then the lines
    r"(?:(?P=indent)[ \t]+\S[^\n]*(?:\n|\Z))+",  # indented deeper than it
    re.ASCII | re.MULTILINE,
)


def _ciphertext(text: str) -> list[tuple[int, int]]:
    """Spans of committed ciphertext in `text`, in order (usually none: one `in` each)."""
    spans: list[tuple[int, int]] = []
    for mark in (_VAULT_MARK, _SOPS_MARK, _EYAML_MARK):
        at = text.find(mark)
        while at != -1:
            eol = text.find("\n", at)
            eol = len(text) if eol == -1 else eol
            if mark == _VAULT_MARK:
                block = _VAULT_LINES.match(text, eol)
                end = block.end() if block is not None else -1
            elif mark == _EYAML_MARK:
                block = _EYAML_BLOCK.match(text, at)
                end = block.end() if block is not None else -1
            else:
                close = text.find("]", at, eol)
                end = close + 1 if close != -1 else -1
            if end != -1:
                spans.append((at, end))
            at = text.find(mark, end if end != -1 else eol)
    if "encryptedData:" in text:
        spans.extend(m.span() for m in _SEALED.finditer(text))
    if "secure:" in text:
        spans.extend(m.span() for m in _SECURE_VALUE.finditer(text))
    return sorted(spans)


def _inside(spans: list[tuple[int, int]], pos: int) -> bool:
    at = bisect_left(spans, (pos + 1,)) - 1
    return at >= 0 and spans[at][0] <= pos < spans[at][1]


class _Context:
    """Per-text lazily built look-ups for the display skips; linear over one rule scan."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._labels: dict[int, bool] = {}
        self._schemes: list[int] | None = None
        self._url_memo: tuple[int, int, bool] = (-1, -1, False)
        self._armor: tuple[list[int], list[bool]] | None = None
        self._ciphertext: list[tuple[int, int]] | None = None
        self._signed: bool | None = None  # the text holds an e-mail signature header

    def in_ciphertext(self, p: int) -> bool:
        if self._ciphertext is None:
            self._ciphertext = _ciphertext(self.text)
        return bool(self._ciphertext) and _inside(self._ciphertext, p)

    def label_before(self, pos: int) -> bool:
        hit = self._labels.get(pos)
        if hit is None:
            hit = self._label_before(pos)
            self._labels[pos] = hit
        return hit

    def _label_before(self, pos: int) -> bool:
        text = self.text
        window = text[max(0, pos - 32) : pos]
        if _PUBLIC_NAME_WORD.search(window.lower()) and _NAMED_PUBLIC.search(
            text, max(0, pos - 32), pos
        ):
            return True  # PublicKey = ..., checksum = "...", "digest": "...": not a secret
        line = text[max(text.rfind("\n", max(0, pos - 256), pos) + 1, pos - 256) : pos]
        lowered = line.lower()
        if (
            any(word in lowered for word in _DIGEST_WORDS)  # a cheap test before the regex
            and _DIGEST_WORD.search(line)
            and not _NAMES_A_CREDENTIAL.search(lowered)
        ):
            return True  # "SHA256 hash of the artifact is ...", Homebrew's `sha256 cellar:`
        if self._signed is None:
            self._signed = any(header in text for header in _SIGNATURE_HEADERS)
        if self._signed and _in_signature_header(text, pos):
            return True  # DKIM and ARC signatures and body hashes: public, for verifying
        if (
            text[pos - 1 : pos] == '"'
            and _JWK_PUBLIC.search(text, max(0, pos - 16), pos)
            and text.find("kty", max(0, pos - 512), pos) != -1
        ):
            return True  # {"kty":"RSA","n":"<modulus>"}: a public key's member
        k = pos
        while k > 0 and text[k - 1] in "_-":
            k -= 1
        if k > 0 and text[k - 1] in ":=" and _LABEL.search(text, max(0, k - 9), k - 1):
            return True
        return k < pos and text[k] == "-" and _LABEL.search(text, max(0, k - 8), k) is not None

    def in_url(self, p: int) -> bool:
        if self._schemes is None:
            self._schemes = _scheme_starts(self.text)
        idx = bisect_left(self._schemes, p) - 1
        if idx < 0:
            return False
        s = self._schemes[idx]
        memo_s, checked, clean = self._url_memo
        if memo_s == s and p >= checked:
            if not clean:
                return False
            start = checked
        else:
            start = s
        clean = _URL_TERM.search(self.text, start, p) is None
        self._url_memo = (s, p, clean)
        return clean

    def in_public_block(self, p: int) -> bool:
        if self._armor is None:
            starts: list[int] = []
            public: list[bool] = []
            for m in _ARMOR.finditer(self.text):
                words = set(m.group(2).split())
                starts.append(m.start())
                public.append(
                    m.group(1) == "BEGIN" and "PRIVATE" not in words and bool(words & _PUBLIC_WORDS)
                )
            self._armor = (starts, public)
        starts, public = self._armor
        idx = bisect_left(starts, p) - 1
        return idx >= 0 and public[idx]


def _name_shaped(c: str) -> bool:
    chars, words = _word_stats(c)
    if not words:
        return False
    if (
        "+" not in c
        and "/" not in c
        and chars >= 4 * words
        and any("A" <= ch <= "Z" for ch in c)
        and any("a" <= ch <= "z" for ch in c)
    ):
        return True
    return c.count("/") >= 3 and chars >= 3 * words


_SQRT_2_POW_7 = math.sqrt(2**7)  # 2**3.5; below n / 2**3.5 per character H cannot reach 3.5


_ACL_USER = _ascii_re(r"[ \t]*(?:ACL[ \t]+SETUSER|user)[ \t]+\S+[ \t]")


def _hex_skipped(text: str, ctx: _Context, p: int, e: int) -> bool:
    c = text[p:e]
    letters = sum(map(c.count, "abcdefABCDEF"))
    if letters < 2 or len(c) - letters < 2:
        return True
    if text.endswith("#diff-", 0, p):
        return True
    back = max(0, p - _LINE_BACK)  # bounded: a long line of runs stays linear
    line = max(text.rfind("\n", back, p) + 1, back)
    opens = p == line or text[p - 1] in "\"'" or not text[line:p].strip(" \t")
    if opens and (text[e : e + 2] in ("  ", " *") or text.startswith((" - ", " * "), e)):
        return True  # `sha256sum`, `git lfs ls-files` output: a line that opens with it
    if text[p - 1 : p] == "/" or ctx.in_url(p) or text.find("{:hex, :", line, p) != -1:
        return True  # a path's or a URL's segment; an Elixir mix.lock entry's checksum
    if text[p - 1 : p] == "#" and _ACL_USER.match(text, line, p):
        return True  # a Redis ACL's `user u on #<sha256>`: the password's hash
    if text[p - 1 : p] == "-" and _dashed_name(text, line, p):
        return True  # a cache key or a tag: node-cache-Linux-x64-npm-<hex>
    if e - p == 64 and p == line > 0 and text[e : e + 1] in ("", "\n", "\r"):
        up = max(0, line - 1 - _LINE_BACK)
        if _CONTAINER_STARTED.search(text, max(text.rfind("\n", up, line - 1) + 1, up), line):
            return True  # the id `docker run -d` prints alone on the line after the command
    return ctx.label_before(p) or ctx.in_ciphertext(p)


# A command that starts a container and prints its 64-hex id alone on the next line.
_CONTAINER_STARTED = _ascii_re(
    r"\b(?:docker|podman|nerdctl)[ \t]+(?:container[ \t]+)?(?:run|create)\b"
)


_LINE_BACK = 512  # characters of a run's line read before it


def _dashed_name(text: str, line: int, p: int) -> bool:
    """The hex run at `p` ends a name of dash-joined words that names no credential
    (`node-cache-Linux-x64-npm-`; not `#dif-`, `secret-`, or a token's `xoxc-<digits>-`)."""
    start = max(text.rfind(" ", line, p), text.rfind("\t", line, p), text.rfind('"', line, p))
    name = text[start + 1 : p]
    words = sum(1 for part in name.split("-") if part.isalpha() and len(part) >= 3)
    return words >= 3 and not _NAMES_A_CREDENTIAL.search(name.lower())


_HAS_DIGIT = _ascii_re(r"[0-9]").search


# The base64 of an image or a document starts with its file signature: PNG, JPEG, GIF, PDF
# and RIFF (WebP, WAV). An agent's transcript carries screenshots this way.
_FILE_MAGIC = (
    *("iVBORw0KGgo", "/9j/", "R0lGOD", "JVBERi0", "UklGR"),
    # and of a PEM certificate or public key (a kubeconfig's certificate-authority-data)
    *("LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS", "LS0tLS1CRUdJTiBQVUJMSUMgS0VZ"),
    "AQICAH",  # an AWS KMS ciphertext blob (its version and algorithm bytes)
)


def _path_shaped(c: str) -> bool:
    """A run with two slashes or more whose parts are mostly words: a path with an id in it
    (`/api/v2/users/01GNM4T96W.../sessions`, `/nix/store/<hash>`), not a key."""
    if c.count("/") < 2:
        return False
    parts = [part for part in c.split("/") if part]
    words = sum(1 for part in parts if part.isalpha() and part.islower() and len(part) >= 3)
    return words >= 2 and 2 * words >= len(parts)


_PUBLIC_HEADERS = ("Message-ID:", "Message-Id:", "In-Reply-To:", "References:")
_SIGNATURE_COMMENTS = ("untrusted comment:", "trusted comment:")
# A password hash in crypt(3) format: bcrypt `$2b$12$`, SHA-crypt `$5$` and `$6$`, argon2
# `$argon2id$v=19$m=...$`, yescrypt `$y$j9T$` (/etc/shadow), Cisco's PBKDF2 `$8$` and
# scrypt `$9$`, then salt and hash (read back on the run's line).
_CRYPT_HASH = _ascii_re(
    r"\$(?:2[abxy]\$[0-9]{2}|[56](?:\$rounds=[0-9]+)?|[89]|y\$[./A-Za-z0-9]+"
    r"|argon2(?:id|i|d)\$v=[0-9]+\$[a-z0-9=,]+)"
    r"\$[./A-Za-z0-9+$]*\Z"
)
# Public by design: an Ethereum address (0x and 40 hex; a private key is 64), a bech32
# public key or address (Nostr `npub1`, age `age1`, Bitcoin `bc1`; a secret one is `nsec1`
# or `AGE-SECRET-KEY-1`), all lower case.
_PUBLIC_RUN = _ascii_re(
    r"0x[0-9a-fA-F]{40}\Z|(?:npub|age|bc|tb|ltc|cosmos)1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{38,}\Z"
)
_PUBLIC_PREFIXES = ("phc_",)  # PostHog's project key, which its web snippet ships
# What base64 of a note, a manifest or a document holds when it carries a credential.
_CREDENTIAL_WORD = _ascii_re(r"pass|pwd|secret|token|key|auth|cred|bearer|private|session|cookie")


# The first character of every 4-character group of base64 holds the top 6 bits of a byte:
# for an ASCII byte (under 0x80) it is one of the first 32 of the alphabet. A random key's
# groups fail this half the time, so most keys are refused before any decoding.
_ASCII_LEADS = _ascii_re(r"[A-Za-f]*")


def _decodes_to_text(run: str) -> bool:
    """Base64 of text with three blanks or line breaks or more and no credential word in it
    (a note, a manifest, a script): what a transcript attaches, not a key. A key's random
    bytes do not decode to such text; a password encoded alone holds no blank."""
    if len(run) % 4 == 1 or not _ASCII_LEADS.fullmatch(run[::4]):
        return False
    try:
        decoded = base64.b64decode(run + "=" * (-len(run) % 4), validate=True).decode("utf-8")
    except ValueError:  # binascii.Error and UnicodeDecodeError are ValueErrors
        return False
    blanks = decoded.count(" ") + decoded.count("\n")
    if blanks < 3 or not decoded.replace("\n", " ").replace("\t", " ").isprintable():
        return False
    return _CREDENTIAL_WORD.search(decoded.lower()) is None


def _b64_skipped(text: str, ctx: _Context, p: int, c: str) -> bool:
    if _PURE_HEX.fullmatch(c.lstrip("+")) or not _HAS_DIGIT(c) or c.startswith(_FILE_MAGIC):
        return True  # hex (a `+<sha>` refspec too), no digit, an image's or a certificate's
    if _path_shaped(c):
        return True
    if text[p - 1 : p] == "\\" and c[:1] == "x" and _PURE_HEX.fullmatch(c, 1):
        return True  # a SQL bytea literal: '\\x<hex>'
    if p >= 8 and text[p - 8 : p] == ";base64,":
        return True
    if ctx.in_url(p) or ctx.label_before(p):  # the URL check is memoized: first
        return True
    line = text.rfind("\n", 0, p) + 1
    if text.startswith(_PUBLIC_HEADERS, line):
        return True  # an e-mail's Message-ID and its references: ids, not keys
    if p == line and text.startswith(
        _SIGNATURE_COMMENTS, text.rfind("\n", 0, max(0, line - 1)) + 1
    ):
        return True  # a minisign or signify signature, under its comment line: public
    if c.startswith("AAAA") and _SSH_CTX.search(text, max(0, p - 80), p):
        return True
    if ctx.in_public_block(p) or _name_shaped(c) or ctx.in_ciphertext(p):
        return True
    if _PUBLIC_RUN.match(c) or text.endswith(_PUBLIC_PREFIXES, 0, p):
        return True
    if text.rfind("$", max(0, p - 128), p) != -1 and _CRYPT_HASH.search(text, max(0, p - 128), p):
        return True  # a password hash, one-way: `$2b$12$<salt><hash>`
    if _decodes_to_text(c):
        return True
    counts = Counter(c)
    # min-entropy bound: H >= -log2(max p) >= 3.5 when no character exceeds n / 2**3.5
    if max(counts.values()) * _SQRT_2_POW_7 < len(c):
        return False
    return not _entropy_at_least(counts.values(), len(c), 7)


def _grow_left(text: str, a: int, lo: int, memo: dict[int, int]) -> int:
    seen: list[int] = []
    while True:
        hit = memo.get(a)
        if hit is not None:
            a = hit
            break
        seen.append(a)
        k = a
        while k > lo and text[k - 1] in _SEPS:
            k -= 1
        if k == a:
            break
        j = k
        while j > lo and text[j - 1] in _ALNUM:
            j -= 1
        if j == k or (j > 0 and text[j - 1] in "+/"):
            break
        a = j
    for s in seen:
        memo[s] = a
    return a


# Whole-token growth to the right: separator runs, each followed by a run of letters and
# digits that does not run into `+` or `/` (the head of a base64 run of its own). One
# expression, so a long token grows at C speed.
_GROWTH = _ascii_re(r"(?:[._-]+[A-Za-z0-9]+(?![A-Za-z0-9+/]))*")


def _grow_right(text: str, b: int) -> int:
    grown = _GROWTH.match(text, b)  # never None: the expression matches the empty string
    if grown is None or grown.end() == b:
        return b
    b, n = grown.end(), len(text)
    m = 0  # up to two `=` of padding after a grown token, unless a token character follows
    while m < 2 and b + m < n and text[b + m] == "=":
        m += 1
    while m > 0 and b + m < n and text[b + m] in _PAD_FORBID:
        m -= 1
    return b + m


def _candidates(text: str, hex_rule: bool) -> list[tuple[int, int]]:
    """Spans of the rule-46 or rule-47 candidates (padding included), in text order."""
    classes = text.encode("utf-8", "surrogatepass").translate(
        _RUN_TABLE if hex_rule else _B64_TABLE
    )
    if (b"a" * 48 if hex_rule else b"a" * 40) not in classes:
        return []
    if not text.isascii():
        return [m.span() for m in (_HEX_CAND if hex_rule else _B64_CAND).finditer(text)]
    # ASCII: byte classes line up with characters, so runs are found with C-level scans
    out: list[tuple[int, int]] = []
    n = len(text)
    need = b"a" * (48 if hex_rule else 40)
    stop = b"b" if hex_rule else b" "
    pos = classes.find(need)
    while pos != -1:
        if hex_rule:
            ends = [x for x in (classes.find(b" ", pos), classes.find(stop, pos)) if x != -1]
            end = min(ends) if ends else n
            if _PURE_HEX.fullmatch(text, pos, end):
                out.append((pos, end))
        else:
            end = classes.find(stop, pos)
            end = n if end == -1 else end
            pad = 0
            while pad < 2 and end + pad < n and text[end + pad] == "=":
                pad += 1
            while pad and end + pad < n and text[end + pad] in _B64_CHARS:
                pad -= 1
            out.append((pos, end + pad))
        pos = classes.find(need, end)
    return out


_B64_CHARS = _ALNUM | frozenset("+/")


def _find_generic(text: str, hex_rule: bool, storage: bool) -> _Spans:
    cands = _candidates(text, hex_rule)
    if not cands:
        return []
    out: _Spans = []
    prev_end = 0
    ctx = _Context(text)
    memo: dict[int, int] = {}
    for p, e in cands:
        if p < prev_end:
            continue
        if hex_rule:
            if not storage and _hex_skipped(text, ctx, p, e):
                continue
        else:
            c = text[p:e].rstrip("=")
            if storage:
                if _PURE_HEX.fullmatch(c) or not _HAS_DIGIT(c):
                    continue
            elif _b64_skipped(text, ctx, p, c):
                continue
        gs = _grow_left(text, p, prev_end, memo)
        if not storage and gs < p and ctx.label_before(gs):
            continue
        ge = _grow_right(text, e)
        out.append((gs, ge))
        prev_end = ge
        memo.clear()
    return out


def _find_long_hex_display(text: str) -> _Spans:
    return _find_generic(text, True, False)


def _find_long_b64_display(text: str) -> _Spans:
    return _find_generic(text, False, False)


def _find_long_hex_storage(text: str) -> _Spans:
    return _find_generic(text, True, True)


def _find_long_b64_storage(text: str) -> _Spans:
    return _find_generic(text, False, True)


# --------------------------------------------------------------------------------------------
# Key-named secrets
# --------------------------------------------------------------------------------------------
#
# The rule that separates a secret from text that only names one:
# 1. The KEY's last word is a credential noun: password, passwd, passphrase, pass, pwd, pw,
#    secret, token, credential(s), creds, auth, authorization, or `key` qualified by api,
#    access, secret, private, signing, encryption, master, client, account, app, shared,
#    session, storage, license, subscription, application and a few more, also across one
#    blank (`DB_PASSWORD`, `stripeSecretKey`, `X-Api-Key`, `SECRET_KEY_BASE`, `API key:`),
#    or a `key` named by a vendor (`OPENAI_KEY`: any word split from it but one naming
#    another kind of key, `_OTHER_KEYS`) whose value reads as generated (`_random_value`),
#    or a bare `key` member of an object so named (`"Jwt": {"Key": v}`, YAML `Jwt:` over
#    `  Key: v`), or an upper-case `SALT` qualified the same way (`AUTH_SALT`) and
#    Drupal's `$settings['hash_salt']`.
#    A key whose last word is anything else names a property of the secret, not the secret
#    (`PASSWORD_MIN_LENGTH`, `TOKEN_TYPE`, `api_key_header`, `max_tokens`, `secretKeyRef`).
# 2. The key is ASSIGNED: `=`, `:`, `:=`, `=>`, `<-` (never `==`, `!=`, `<=`), an EDN
#    keyword before a string (`{:password "v"}`), a CLI flag and its argument
#    (`--password v`), a `.netrc` `password v`, a Dockerfile `ENV KEY v`, a `set` or
#    `config` command, SQL `WITH PASSWORD 'v'`, an option constant and a literal
#    (`setopt(h, CURLOPT_PASSWORD, "v")`), a parameter block's `Default:`, `"defaultValue"`
#    or `"value"` under the key, a YAML anchor before the value, a `user:v` pair under
#    `auth`, an XML attribute pair (`key="K" value="v"`), a fallback (`X || 'v'`, also
#    after a lookup: `os.environ.get('K') or 'v'`) or a
#    shell default (`${X:-v}`), a directive
#    (`#define K "v"`, `SetEnv K v`, `proxy_set_header K v`), a key and one value alone on
#    their line (`password v`, `AuthLDAPBindPassword "v"`), `||=` and `??=`, a C array
#    `K[] = "v"`, a Perl `$ENV{K} = 'v'`, a Terraform `variable "K" { default = "v" }` or
#    `config("K", default="v")`, a Go struct printed with `%+v` (`{User:u Password:v}`),
#    HAProxy `user u insecure-password v`, a verb that sets it in prose (`Set KEY to v`,
#    `change the admin password to v`), and the labels of runbooks and chat: markup
#    (`**Password:** v`, `*Token:* v`, `Password:: v`, `password :: v`), an arrow or a dash
#    between blanks (`Password -> v`, `secret key – v`), `is` (`the db password is v`),
#    a prompt (`Password for user u: v`, `password for x is v`, `API key in `f.yml`: v`),
#    a table's next cell (`| Password | v |`,
#    `<th>Password</th><td>v</td>`, `<dt>K</dt><dd>v</dd>`), a definition (`Password` /
#    `: v`), `with password v`, a user's pair (`User/Pass: u / v`, `creds: u / v`), and
#    the column under a table's header cell (`System,Login,Password` then `a,b,v` rows; a
#    comma-, tab- or pipe-delimited table whose header names its columns in words, or an
#    HTML table under `<th>Password</th>`), and prose that hands one over: in brackets after
#    the key (`the new password (v) is live`) or before it (`use v as the Redis password`).
#    Where no key stands in front, the syntax marks the value: `curl -u user:v`, a tool's password
#    flag on the line that runs the tool, `.pgpass` lines, `IDENTIFIED BY 'v'`, session
#    cookies, the second literal given to a login or credential call, a literal that a
#    later flag marks (`-AsPlainText`, `--password-stdin`), the value a secret store's
#    write command is given (`secret set --value v`, `<<< v`, `echo v | ... secret put`),
#    a Netscape cookies.txt line's session cookie, a network device's `username u secret 0
#    v` or `enable secret 0 v` (a line may open with a tool's line-number gutter, `4<tab>`),
#    a tool's positional password (Redis `AUTH [user] v`, also in MONITOR's log; SMTP's
#    `AUTH PLAIN <base64>` and AUTH LOGIN's password line; `rabbitmqctl add_user u v`,
#    `htpasswd -b file u v`), a `user:v` or `user%v` pair (httpie `-a`, Samba `-U`),
#    FreeRDP `/p:v`, a quoted `"Bearer v"` literal, Oracle's `sqlplus user/v@db` and
#    `SQL> connect user/v`, a Terraform `random_password`'s `"result"` in state, the value
#    a secret-printing command shows alone on the next line (`vault kv get -field=`,
#    `kubectl get secret ... | base64 -d`), and a variable's value on the line after
#    `printenv K`, `echo $K`, `(Pdb) p settings.K` or Node's `> process.env.K`.
#    A value found (8 characters or more) is a secret wherever else the text repeats it as a
#    whole token (`_echoes`).
# 3. The VALUE is a literal: quoted, the text between the quotes (and the literals of the
#    same quote that continue it: `"abc" \<newline> "def"`, `("abc"<newline>"def")`; a
#    list of literals `["v1", "v2"]` is one value from its first literal to its last);
#    unquoted, up to the end its context sets (`_unquoted_extent`: `;` in a connection
#    string, `&` in a query, `, ) ] }` in a flow mapping, a blank in a line). Not a literal,
#    so left alone: references and templates (`$X`, `${X}`, `{{ x }}`, `%(x)s`, `{x}`,
#    `#{x}`, `%X%`, `<%= %>`), code (a call or an index, a dotted name, a bare identifier
#    after ` = `, a list of pairs), type annotations (`password: str`,
#    `token: Optional[str]`), and placeholders (empty, `changeme`, `<password>`,
#    `YOUR_API_KEY`, `xxx`, `****`, `...`, `example`, `dummy`, `test`, the credential words
#    themselves, `None`/`null`/`true`, short all-digit numbers, unquoted all-lowercase
#    words, a word and one digit, algorithm names, ascending-run filler, punctuation
#    without a letter or digit, a value masked
#    with `****` or `####` inside, an unquoted value cut short with `...`).
# Limits: a value with spaces that is not quoted is cut at the first space; a literal that
# looks like code (`password = hunter`) or like a placeholder (`password = "test"`) passes;
# keys that do not end in a credential noun (`DB_PASS_2X`, `mysecretvalue`) pass; the module
# docstring lists the rest.

# A line-number gutter before a line's text, as an agent's file-reading tool or `cat -n`
# prints it: `     4<tab>`, `4 | `, `4: `, `4→`.
_GUTTER_PATTERN = r"[ \t]*[0-9]{1,6}(?:\t|:[ \t]|[ \t]*\|[ \t]|\u2192)"
_GUTTER = _ascii_re(_GUTTER_PATTERN)
# The credential noun at a head occurrence (lower-cased text), an optional suffix, the key's
# end, an optional closing quote or bracket, and the assignment.
_KEYED_TAIL = r"""
    (?:[_-]?(?:[0-9]+|base|value))?       # DB_PASSWORD2, SECRET_KEY_BASE, token_value
    (?![a-z0-9]|[_.-][a-z0-9])            # the noun ends the key
    (?P<close>["'`]?[\]}]?|\[[0-9]{0,6}\]|\*{1,2}|__  # "k": / ['k'] = / $ENV{K} / k[] / **K**:
      |["'`]\)(?=[ \t]*(?:or\b|\|\||\?\?)[ \t]*["'`]))  # getenv('K') or 'v': a fallback
    [ \t]*
    (?P<sep>:=|\?\?=|\|\|=|\?=|=>|<-|=(?![=>~])
      |:(?:\*{1,2}|__)(?=[ \t])              # markup: **Password:** v, Slack *Token:* v
      |::(?=[ \t])                           # AsciiDoc `Password:: v`, org `password :: v`
      |:(?![:=/\\])|,|>|\((?=["'])
      |(?<=[ \t])(?:->|\u2192|\u2013|\u2014|-|is:?)(?=[ \t])  # prose: K -> v, K \u2013 v, K is v
      |for[ \t]+(?:'[^'\n]{1,120}'|"[^"\n]{1,120}"|[^\s:'"][^\n:'"]{0,80})(?::|[ \t]is)(?=[ \t])
                                             # a prompt: for user u: v; prose: for x is v
      |in[ \t]+`[^`\n]{1,120}`:(?=[ \t])       # a place in prose: the key in `app.yml`: v
      |\|(?=[ \t]*[^\s|])                    # a table's cell: | Password | v |
      |(?=[ \t])
      |\r?\n(?=[ \t]+value:)               # an env list: `- name: K` / `value: v`
      |\r?\n:(?=[ \t])                      # a Markdown definition: `Password` / `: v`
      |</key>[ \t]*(?:\r?\n[ \t]*)?<string>  # a property list: <key>K</key><string>v
      |</t[hd]>[ \t]*<td>(?:<code>|<kbd>)?   # an HTML table row: <th>K</th><td>v</td>
      |</dt>[ \t]*(?:\r?\n[ \t]*)?<dd>(?:<code>|<kbd>)?  # a definition: <dt>K</dt><dd>v
      |(?=</th>)                             # an HTML table's header cell: its column
      |(?<=[ \t])\((?=[`'"]?[^\s()`'"]{8,128}[`'"]?\))  # prose: the new password (v) is live
      |(?=(?:\|[ \t]*)?(?:\r?\n|\Z)))             # the last cell of a header row: a,Password
    [ \t]*                                # blanks before the value
"""
# A cookie header, a header-dict entry or a curl --cookie argument, after `cookie`.
_COOKIE_REST = r"""["']?[ \t]*(?:[:,=]|(?=[ \t]))[ \t]*["']?"""
# Four expressions, each starting with a literal (p, k, cr, uth), so the regex engine jumps
# between that literal's occurrences in C and yields only nouns that end a key and are
# assigned (and, from `k`, cookie headers: one scan for both). A noun whose first letters
# are common in text (token, secret, auth) is reached from a rarer piece inside it and a
# look-behind; `_NOUN_PARTS` names the whole noun.
_KEYED_NOUNS: tuple[re.Pattern[str], ...] = tuple(
    _ascii_re("(?x)" + literal + "(?:(?P<noun>" + rest + ")" + _KEYED_TAIL + also + ")")
    for literal, rest, also in (
        ("p", r"ass(?:word|wd|[_-]?phrase|in|out)?|wd|w|sk", ""),  # password... pass, pwd, psk
        ("k", r"e(?:ys?|(?<=toke)n)", "|(?P<cookie>ie(?<=cookie)" + _COOKIE_REST + ")"),
        ("cr", r"edentials?|eds|(?<=secr)et(?:[_-]?id)?", ""),  # credential(s), creds, secret
        ("uth", r"(?<=auth)(?:orization|tok)?", ""),  # auth, authorization, SSSD's authtok
    )
)
# `salt`, qualified as a key is, in the spellings the prefilter finds (`_SALT_LITERALS`):
# upper case (WordPress's `AUTH_SALT`, `JWT_SALT=`) and Drupal's `$settings['hash_salt']`.
# Its letters are common, so a scan of every text for it would cost a call per text. The
# expression reads the text as written, not lower-cased.
_SALT_NOUN = _ascii_re(
    "(?x)(?P<noun>SALT|(?<=\\$settings\\['hash_)salt|(?<=\\$settings\\[\"hash_)salt)" + _KEYED_TAIL
)
_SALT_LITERALS = frozenset(("SALT", "$settings['hash_salt']", '$settings["hash_salt"]'))
# The part a match holds -> the whole noun (its head sits len(noun) - len(part) earlier).
_NOUN_PARTS = {
    **{"ken": "token", "cret": "secret", "uth": "auth", "uthorization": "authorization"},
    **{"uthtok": "authtok", "cretid": "secretid", "cret_id": "secret_id", "cret-id": "secret-id"},
}
# A secret's id is the secret in Vault (`secret_id`) and Consul (`SecretID`); AWS's
# `SecretId` and `--secret-id` name a stored secret, so only these spellings count.
_SECRET_ID_SPELLINGS = ("_id", "_ID", "ID")

# Words that qualify `key` as a credential (`api_key`, `SecretKey`, `X-Api-Key`).
_KEY_QUALIFIERS = frozenset(
    (
        *("api", "access", "secret", "private", "signing", "encryption", "master", "client"),
        *("account", "app", "shared", "session", "storage", "license", "subscription"),
        *("auth", "hmac", "jwt", "webhook", "ssh", "deploy", "admin", "root", "service"),
        "application",
        "nonce",
        "routing",
        "integration",
        "fernet",
        "logged_in",  # WordPress's LOGGED_IN_KEY
        "username",  # a bare key beside a username (`_holding_object`)
        "cookie",  # PrestaShop's cookie_key, cookie-session's keys
        "crypt",  # Magento's crypt key
    )
)
# Words that qualify `salt` as a secret (WordPress's `AUTH_SALT`, Drupal's `hash_salt`); a
# bare `salt` is a password hash's, stored beside it.
_SALT_QUALIFIERS = frozenset(
    ("auth", "nonce", "logged_in", "hash", "secret", "session", "cookie", "jwt", "app", "password")
)
_QUALIFIED_NOUNS = {"key": _KEY_QUALIFIERS, "keys": _KEY_QUALIFIERS, "salt": _SALT_QUALIFIERS}
# After a `key` that a blank qualifies: `API key: v`, `API key = v`, and a label's forms
# (`**API key**: v`, `| API key | v |`, `API key -> v`, `secret key is v`, `</td>`).
_ASSIGNED_KEY = _ascii_re(
    r"(?:\*{1,2}|__)?[ \t]?(?:[:=|<]|\r?\n:|(?:->|\u2192|\u2013|\u2014|-|is:?)[ \t]"
    r"|(?:for[ \t][^\n:'\"]{1,80}|in[ \t]+`[^`\n]{1,120}`):[ \t])"  # API key for staging: v
)
_LONG_NOUNS = frozenset(("password", "passwd", "passphrase", "secret", "token", "credential"))
_COMPOUNDS = {  # storepass, requirepass, SSHPASS, masterauth, nslcd's bindpw, curl's USERPWD
    "pass": ("store", "key", "require", "ssh", "smtp", "mail", "control"),
    "auth": ("master",),
    "pw": ("bind",),
    "pwd": ("user",),
}
_ACTION_PREFIX = _ascii_re(
    r"[-_$]*(?i:hash|check|verify|validate|is|has|use|uses|require|requires|reset|forgot"
    r"|show|hide|toggle|enable|disable|allow|min|max|get|generate|gen|rotate|revoke)"
    r"(?:[-_.]|(?<=[a-z])(?=[A-Z]))"
)
_KEY_CHARS = frozenset(string.ascii_letters + string.digits + "_.-")
_HOLDS_AN_ASSIGNMENT = re.compile(
    r"(?:pass|secret|token|key|auth|cred|(?<![a-z0-9])pwd?)[a-z0-9_]*[=:]",  # not X4hpwt=
    re.ASCII | re.IGNORECASE,
)
_MAX_VALUE = 1024  # characters a key-named value may span; longer runs are not read
_VALUE_END = _ascii_re(r"[\s\"'`,;&()\[\]{}<>\\]")
_AUTH_SCHEME = _ascii_re(r"(?i:basic|bearer|token|digest|negotiate|apikey|key|sso-key)[ \t]+")
# A scheme not listed (`SSWS`, `DeepL-Auth-Key`, `GenieKey`): one word, then a credential of
# 12 characters or more with a digit, alone up to the value's end.
_OTHER_SCHEME = _ascii_re(r"[A-Za-z][A-Za-z0-9-]{0,31}[ \t]+(?=[^\s\"'`]{12})")
_CREDENTIAL_AFTER_SCHEME = _ascii_re(r"[^\s\"'`]*[0-9][^\s\"'`]*")


def _other_scheme(text: str, a: int) -> re.Match[str] | None:
    scheme = _OTHER_SCHEME.match(text, a)
    if scheme is None:
        return None
    rest = _CREDENTIAL_AFTER_SCHEME.match(text, scheme.end())
    return scheme if rest is not None and len(rest.group()) >= 12 else None


_PLACEHOLDER = re.compile(
    r"""(?x)
      (?:x+|\*+|\.+|-+|_+|\#+|0+|•+)           # filler
    | <[^<>]*> | \[[^\[\]]*\] | \([^()]*\)      # <password>, [redacted], (hidden)
    | (?:your|my|the|enter|insert|put|replace|add|set)[_ -]?[a-z_ -]*   # YOUR_API_KEY
    | [a-z_ -]*[_ -](?:here|goes[_ -]here|placeholder)                  # KEY_HERE
    | change[_ -]?(?:me|this|it) | replace[_ -]?me | fixme | todo | tbd | tba
    | keyboard[_ -]cat | not[_ -]?set                  # express-session's example; unset
    | to[_ -]?be[_ -]?(?:modified|changed|replaced|set) # Strapi's toBeModified1
    | example | examples | sample | dummy | fake | test | testing | demo | foo | bar | baz
    | placeholder | redacted | hidden | masked | removed | omitted | secret | secrets
    | value_specified_in_no_log_parameter                         # Ansible's no_log mask
    | password | passwd | pass | pwd | token | key | apikey | api[_ -]?key | credentials?
    | none | null | nil | nan | true | false | yes | no | on | off | undefined | unset
    | empty | default | required | optional | string | str | bytes | int | bool
    | abc | abc123 | 123 | 1234 | 12345 | 123456 | 12345678 | 123456789 | qwerty | letmein
    """,
    re.ASCII | re.IGNORECASE,
)
# Every fullmatch of _PLACEHOLDER is at most 11 characters, starts with a filler or bracket,
# or holds only letters, `_`, `-` and spaces: this cheap test skips the long alternation.
_MAYBE_PLACEHOLDER = _ascii_re(r"(?s:.{0,11})\Z|[A-Za-z_ -]*\Z|[xX*.\-_#0•<\[(]")
_VERSION_LIKE = _ascii_re(r"(?:[~^=]|[<>]=?)?v?[0-9]+(?:[.][0-9]+)+")  # 1.2.3, ^8.11.26
_FILL_IN = _ascii_re(r"<[A-Za-z][A-Za-z0-9_ -]*>")  # <your_token>, after a value's prefix
# Whole-value shapes, tried at the value's start (`.match`): a search would retry every one
# at every position. The two shapes that may sit anywhere are plain string tests.
_ELIDED = ("...", "\u2026")  # elided: sk-...
_URL_MARK = "://"  # a URL or a vault reference
_NOT_A_SECRET_VALUE = _ascii_re(
    r"""(?x)
      \A(?:@@|__|%%|\#\#)[A-Za-z0-9_]+(?:@@|__|%%|\#\#)\Z   # a fixture marker @@SECRET@@
    | \A(?:/|\./|\.\./|~/)(?:[a-z0-9_.-]+/)+[A-Za-z0-9_.-]*\Z | \A[A-Za-z]:\\  # a path
    | \A(?:/|\./|\.\./|~/)(?:[a-z0-9_.-]*|[A-Za-z0-9_.-]{1,15})\Z   # /run, ~/.netrc, /Users
    | \A@?(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_-]+\.(?:json|jsonl|ya?ml|toml|ini|txt|pem|key|crt|env
        |cfg|conf|py)\Z                                      # a file: secrets/db-password.txt
    | \A(?:vault|ssm|awssm|gcpsm|azkv|secretsmanager|keyring|sops|ref\+[a-z]+|arn|exec):  # refs
    | \A[a-z]+(?:[-_.][a-z]+)+\Z                            # a resource name: postgres-auth
    | \A[\#.][a-z]+(?:[-_][a-z]+)+\Z                       # a CSS selector: #add-password
    | \A[a-z0-9_-]+(?:/[a-z0-9_.-]+){2,}(?::[a-z0-9_]+)?\Z   # a vault path: secret/data/app
    | \A[a-z]{3,10}[0-9]\Z                                  # an example password: sunshine1
    | \A(?:sha|md|aes|rsa|des|utf|ucs|base|argon|pbkdf|scrypt|blake|crc|hs|rs|es|ps|ed
        |secp|prime|ipv|http|tls|ssl|latin|cp|iso|win|x)[0-9]{1,5}(?:id|i|d|k1|r1)?\Z  # ed25519
    """
)
_PLACEHOLDER_PART = _ascii_re(
    r"example|placeholder|change_?me|redacted|xxxx|\*{3}|\#{4}"  # `####`, `***`: masked
    r"|<[a-z][a-z0-9_ -]*>|&lt;[a-z][a-z0-9_ -]*&gt;"  # a name to fill in: SG.<your_key>
    r"|do[ _-]?not[ _-]?use|replace[ _-](?:this|me|with)"  # prose telling what to put there
)  # on lower-cased text
# A reference or template, read at the start of the value.
# `$` opens a reference before a name, a brace or a parenthesis (`$X`, `${X}`, `$(cmd)`,
# Compose's `$$X`), as a shell's parameter alone (`$1`, `$@`), and a crypt hash (`$2b$...`);
# other punctuation after it is a literal's (a Django key `'$9y)8)...'`).
_REFERENCE = _ascii_re(
    r"\$+[A-Za-z_{(]|\$(?:[0-9]+|[@*#?!-])\Z|\$[0-9a-z]{1,2}\$|env:[A-Za-z_]"  # $X, $1, env:X
    r"|:[A-Za-z_]|![A-Za-z_]+(?:\s|\Z)|%\(|%[A-Za-z_][A-Za-z0-9_]*%|%env\("  # :x, %X%
    r"|\{\{|\{%|\{[A-Za-z_]|#\{|<%|@\{|\[\["  # templates: {{ x }}, {x}, #{x}, <%= %>
)
_IDENT = _ascii_re(r"[A-Za-z_][A-Za-z0-9_]*")
# A path of names ending in a credential noun (`aws:authToken`, `app.db_password`): a key
# named as the argument of a flag, not its value (a token that only starts with a noun,
# `secret-live-...`, is a value).
_KEY_PATH = _ascii_re(
    r"(?:[A-Za-z_][A-Za-z0-9_]*[.:-])+[A-Za-z0-9_]*?"
    r"(?:(?i:password|passwd|secret|token|credentials?)|(?<![A-Za-z])(?i:key)|(?<=[a-z])Key)"
)
_NAMES_A_KEY = re.compile(
    r"(?i:password|passwd|secret|token|credential|api_?key)|(?<![a-z])key(?![a-z])|(?<=[a-z])Key",
    re.ASCII,
)
_BUILT_STRING = _ascii_re(r"[\"'`][ \t]*(?:\+|\.[ \t]|%[ \t(]|\*[ \t]*[0-9])")
_CONCATENATION = _ascii_re(
    r"\A[ \t]*['\"`]?[ \t]*\+(?=[ \t'\"`]|\Z)|(?:\A|[ \t'\"`])\+[ \t]*['\"`]?[ \t]*\Z"
    r"|\A['\"`][ \t]*\."
)
# A format or template inside a quoted value: "X-Api-Key: {v}", "Bearer %s", "${TOKEN}"
_TEMPLATE_INSIDE = _ascii_re(r"\{[A-Za-z_][A-Za-z0-9_.]*\}|\$\{|\{\{|%[sdr]\b|%\([a-z_]+\)")
_NAMES_A_CREDENTIAL = _ascii_re(r"pass|pw|secret|token|key|cred|auth")  # read on lower-cased text
# Every match of _NAMES_A_KEY holds a match of this once lower-cased: a cheap test first.
_KEY_WORD = _ascii_re("key|pass|secret|token|credential")  # on lower-cased text
_DOTTED = _ascii_re(r"[A-Za-z_$][A-Za-z0-9_$]*(?:(?:\??\.|::|->)[A-Za-z_$][A-Za-z0-9_$]*)+")
_CMDLET = _ascii_re(
    r"(?:Get|Set|New|Read|Write|ConvertTo|ConvertFrom|Invoke|Import|Export|Select|Join|Resolve"
    r"|Test|Out|Add)-[A-Z][A-Za-z]+"
)  # a PowerShell Verb-Noun command
_TYPE_LIKE = _ascii_re(r"(?:[A-Z][A-Za-z]*|str|string|bytes|int|bool|any|object|number)[?!]?")
# A .netrc entry starts its line, or a string that holds the file (a tool result in JSON).
_NETRC = re.compile(r"(?:^|[\"'])[ \t]*(?:machine[ \t]|default\b)", re.ASCII | re.MULTILINE)
# A type annotation or property accessor between a key and its `=` (TypeScript, Python,
# Rust, Kotlin, C#): `: string =`, `: Optional[str] =`, `: &'static str =`, `{ get; set; } =`.
_TYPED_ASSIGN = _ascii_re(
    r"(?:(?:&'?|\*)?[A-Za-z_][A-Za-z0-9_.]*(?:[\[<][A-Za-z0-9_ ,.|'\[\]<>&]*[\]>])?[?]?"
    r"(?:[ \t]*\|[ \t]*[A-Za-z_][A-Za-z0-9_.]*)*|\{[ \t]*get;[^}\n]*\})"
    r"(?:[ \t]+=|=(?=[ \t]*[\"'`]))(?!=)[ \t]*"  # `T = v` or `T="v"`: YAML `k: Ab_=x` is a value
)
_MARKERS = ("[redacted:", "<REDACTED:")
# C# @"v", Python b'v' r"v" u'v', T-SQL N'v': a literal with a prefix
_STRING_PREFIXES = tuple(p + q for p in "@bBrRuUN" for q in "\"'")
# Escapes a Java .properties value holds (`\=`, `\:`): they continue an unquoted value. (Not
# `\\`: inside a JSON string it escapes the next escape, which may be a line's end.)
_PROPERTY_ESCAPES = ("\\=", "\\:")
_MARKERS_MAYBE_QUOTED = tuple(
    quote + marker for quote in ("", "'", '"', "`") for marker in _MARKERS
)
_TERM_WORDS = _ascii_re(r"(?:[A-Za-z0-9_.-]+[ \t]+){0,3}")  # before the key on its line
# The start of a table's label cell before a key: `| `, `|JWT `, `| Database `.
# (its `|` opens the line or follows a blank: `a|password|b` in a regular expression is not)
_TABLE_LABEL = _ascii_re(r"(?:^|[\n \t])\|[ \t]*[`*]*(?:[A-Za-z0-9_.-]+[ \t]+){0,3}[`*]*\Z")


_MAX_ROWS = 256  # rows read under one header: a bound on the cost, not a format
_HEADER_END = _ascii_re(r"\|[ \t]*(?:\r?\n|\Z)")  # a Markdown header row's last pipe
# What follows a noun that ends a header cell with a cell after it: a quote or emphasis,
# then the delimiter (a comma, a tab, a pipe) and blanks.
_CELL_AFTER = _ascii_re(r"[\"'`*]*[ ]*(?:,|\t|\|)[ \t]*")
_HEADER_WORDS = _ascii_re(r"(?:[A-Za-z0-9]+[ _-]){0,2}[A-Za-z0-9]+")  # a header cell's label


def _cells(line: str, delimiter: str) -> list[tuple[int, int]]:
    """The spans of a delimited line's cells (a Markdown row without its outer pipes)."""
    a, b = 0, len(line.rstrip("\r\n"))
    if delimiter == "|":
        a, b = line.find("|") + 1, line.rstrip(" \t\r\n").rfind("|")
        if b < a:
            return []
    out: list[tuple[int, int]] = []
    while True:
        end = line.find(delimiter, a, b)
        out.append((a, b if end == -1 else end))
        if end == -1:
            return out
        a = end + 1


def _stripped(line: str, a: int, b: int) -> tuple[int, int]:
    """A cell's text without blanks and one pair of quotes or backticks around it."""
    while a < b and line[a] in " \t":
        a += 1
    while b > a and line[b - 1] in " \t":
        b -= 1
    if b - a >= 2 and line[a] in "\"'`" and line[b - 1] == line[a]:
        a, b = a + 1, b - 1
    return a, b


def _column_values(text: str, lowered: str, m: re.Match[str], headers: set[int]) -> _Spans:
    """The values under a credential column: the noun at `m` ends a header cell of a
    comma-, tab- or pipe-delimited line (`System,Login,Password`, `| User | Password |`),
    and each row below with as many cells holds a literal in that column. The header is
    the table's first row (a Markdown one has its rule row under it); the table ends at a
    row of another shape, a blank line or `_MAX_ROWS` rows. `headers`: the lines already
    read, each read once."""
    start = text.rfind("\n", 0, m.start()) + 1
    end = text.find("\n", m.start())
    end = len(text) if end == -1 else end + 1
    if start in headers or end - start > _MAX_VALUE:
        return []
    headers.add(start)
    header = text[start:end]
    delimiter = next((d for d in ("\t", "|", ",") if d in header), "")
    cells = _cells(header, delimiter) if delimiter else []
    above = text[text.rfind("\n", 0, max(0, start - 1)) + 1 : max(0, start - 1)]
    if start > 0 and delimiter and len(_cells(above, delimiter)) == len(cells):
        return []  # a row inside a table, not its header: `| CLIENT_SECRET | ... |`
    at = m.start() - start
    column = next((i for i, (a, b) in enumerate(cells) if a <= at < b), -1)
    if len(cells) < 2 or column < 0:
        return []
    labels = [header[a:b].strip("*") for a, b in (_stripped(header, *cell) for cell in cells)]
    trailing = delimiter != "|" and header.rstrip().endswith(delimiter)
    if trailing or sum(1 for label in labels if label) < 2:
        return []  # two columns named or more, and no trailing comma: `"google-api-key",`
    if not all(_HEADER_WORDS.fullmatch(label) for label in labels if label):
        return []  # a header names its columns in words: `for key, value in items:` is code
    a, b = _stripped(header, *cells[column])
    part = lowered[m.start() : m.end("noun")]
    noun = _NOUN_PARTS.get(part, part)
    head = m.start() - (len(noun) - len(part))
    if b != m.end("noun") - start or not _noun_at_boundary(text, lowered, head, noun):
        return []  # the cell holds more than the key's words (`Password policy`), or no key
    out: _Spans = []
    pos = end
    for _ in range(_MAX_ROWS):
        stop = text.find("\n", pos)
        line_end = len(text) if stop == -1 else stop
        row = text[pos:line_end]
        if not row.strip() or pos >= len(text):
            break
        row_cells = _cells(row, delimiter)
        if len(row_cells) != len(cells):
            break
        a, b = _stripped(row, *row_cells[column])
        value = row[a:b]
        is_rule = delimiter == "|" and not value.strip("-: ")  # Markdown's |---|---|
        if delimiter == "|" and pos == end and not is_rule:
            break  # a Markdown header has its rule row right under it
        code = _is_code(value, "=", False, "", False) or "(" in value  # a call: _at("x")
        if not is_rule and value and " " not in value and not code and _literal_secret(value):
            out.append((pos + a, pos + b))
        pos = line_end + 1
    return out


_HTML_CELL = _ascii_re(  # on lower-cased text
    r"<t[hd](?:\s[^<>]*)?>[ \t]*(?:<(?:code|kbd)>)?([^<]*?)(?:</(?:code|kbd)>)?[ \t]*</t[hd]>"
)


def _html_column_values(text: str, lowered: str, m: re.Match[str], headers: set[int]) -> _Spans:
    """The values under an HTML table's credential column: the noun at `m` fills a header
    cell (`<th>Password</th>`), and each row after the header's with as many cells holds
    a literal in that column, up to `_MAX_ROWS` rows or a row of another shape."""
    row_start = lowered.rfind("<tr", max(0, m.start() - _MAX_VALUE), m.start())
    row_end = lowered.find("</tr>", m.end(), m.end() + _MAX_VALUE)
    if row_start == -1 or row_end == -1 or row_start in headers:
        return []
    headers.add(row_start)
    cells = [cell.span(1) for cell in _HTML_CELL.finditer(lowered, row_start, row_end)]
    column = next((i for i, (a, b) in enumerate(cells) if a <= m.start() < b), -1)
    part = lowered[m.start() : m.end("noun")]
    noun = _NOUN_PARTS.get(part, part)
    head = m.start() - (len(noun) - len(part))
    if len(cells) < 2 or column < 0 or cells[column][1] != m.end("noun"):
        return []  # the cell holds more than the key's words, or is not a header cell
    if not _noun_at_boundary(text, lowered, head, noun):
        return []
    out: _Spans = []
    pos = row_end + len("</tr>")
    for _ in range(_MAX_ROWS):
        start = lowered.find("<tr", pos, pos + _MAX_VALUE)
        end = lowered.find("</tr>", start) if start != -1 else -1
        if end == -1 or text[pos:start].strip():
            break  # the table ended
        row = [cell.span(1) for cell in _HTML_CELL.finditer(lowered, start, end)]
        if len(row) != len(cells):
            break
        a, b = row[column]
        value = text[a:b]
        code = _is_code(value, "=", False, "", False)
        if value and " " not in value and not code and _literal_secret(value):
            out.append((a, b))
        pos = end + len("</tr>")
    return out


_PATH_STARTS = ("/", "./", "../", "~/")  # a path, or a line that runs a script: no value
_SOURCE_LOCATION = _ascii_re(r"\.[A-Za-z]{1,5}(?::[0-9]+){1,2}\Z")  # verify.js:97:14
# A value prose hands over after its key: `(v)`, the quotes or backticks around it left out.
_PROSE_PAREN = _ascii_re(r"\((?P<q>[`'\"]?)(?P<v>[^\s()`'\"]{8,128})(?P=q)\)")


def _prose_secret(value: str, noun: str) -> bool:
    """A value prose names (`the new password (v)`, `use v as the API key`): one token of
    8 characters or more with a letter and a digit that reads as no placeholder, version
    or code (prose holds many words in brackets, and a word there is never taken)."""
    return (
        _HAS_DIGIT(value) is not None
        and any(c.isalpha() for c in value)
        and _VERSION_LIKE.fullmatch(value) is None
        and _SOURCE_LOCATION.search(value) is None
        and not value.startswith(_PATH_STARTS)
        and not value.endswith(("-", "_", "."))  # a prefix: `(sk-ant-)`, `(ghp_)`
        and not any(c in value for c in "<>*")  # a shape described: `(dt0c01.<24>.<64>)`
        and not _is_placeholder(value, noun)
        and not _is_code(value, "=", False, "", True)
    )


# Prose that hands a value over before its key: `use v as the staging Redis password`,
# `used `v` as the db pass` (lower-cased text; the key's last word is a credential noun, a
# `key` qualified as one). The expression opens with the literal `use`, which the engine
# jumps to in C and code seldom holds (a search from ` as ` stops at every blank).
_HANDED_OVER = _ascii_re(
    r"use(?<![a-z0-9_]use)(?:d|ing)?[ \t]+(?P<q>[`'\"]?)(?P<v>[^\s`'\"]{8,128})(?P=q)"
    r"[ \t]+as[ \t]+(?:(?:the|a|an|your|our|my|its)[ \t]+)?(?P<words>(?:[a-z0-9_.-]+[ \t]+){0,3})"
    r"(?P<noun>password|passphrase|passwd|pass|pwd|secret|token|credentials?|creds|key)"
    r"(?![a-z0-9_-])"
)


def _handed_over(text: str, lowered: str) -> _Spans:
    out: _Spans = []
    for m in _HANDED_OVER.finditer(lowered):
        words = m.group("words").split()
        if m.group("noun") == "key" and not (words and words[-1] in _KEY_QUALIFIERS):
            continue  # `as the primary key`: a key that names no credential
        if _prose_secret(text[m.start("v") : m.end("v")], "key"):
            out.append(m.span("v"))
    return out


def _table_cell(text: str, pos: int) -> tuple[int, int] | None:
    """The text of the table cell starting at `pos` (up to its `|`, blanks and one pair of
    backticks or quotes around it left out), or None for an empty cell or a phrase."""
    end = text.find("|", pos, pos + _MAX_VALUE)
    if end == -1 or "\n" in text[pos:end]:
        return None
    a, b = _stripped(text, pos, end)
    return (a, b) if a < b and " " not in text[a:b] else None


# `User/Pass: u / v`, `Username / Password: u / v`, `creds: u / v`: the password follows the
# user after a slash (lower-cased text before the key; the text after the first value).
_PAIRED_NOUNS = frozenset(("pass", "password", "passwd", "pwd", "creds", "credentials"))
_USER_BEFORE = _ascii_re(r"(?:user(?:name)?|login)[ \t]*/[ \t]*\Z")
_SECOND_OF_PAIR = _ascii_re(r"[`'\"]?[ \t]+/[ \t]+([`'\"]?)([^\s`'\"<>/]+)\1(?=[\s.,;]|\Z)")
# Separators of a label in prose (lower-cased): an arrow, a dash between blanks, `is`.
_PROSE_SEPARATORS = frozenset(("->", "\u2192", "\u2013", "\u2014", "-", "is", "is:"))
_VALUE_CHILD = _ascii_re(r"\s*<Value>")
# (one other member may come between: AWS's `{"Name": K, "Type": "SecureString", "Value": v}`)
# (and on the next line, after the line's gutter when a tool numbered the lines)
_NEXT_MEMBER = r"\s*(?:" + _GUTTER_PATTERN + r"\s*)?"
_NAME_VALUE = _ascii_re(
    _NEXT_MEMBER
    + r"(?:\"[A-Za-z]+\"[ \t]*:[ \t]*\"[^\"\n]*\"[ \t]*,"
    + _NEXT_MEMBER
    + r")?(?:[\"'][Vv]alue[\"']|value)[ \t]*[:=][ \t]*"  # (HCL, JavaScript: `value = "v"`)
)
# The line before a key's `value:`: Kubernetes' `- name: K`, Render's and Railway's `- key: K`.
_K8S_NAME = _ascii_re(r"[ \t]*(?:-[ \t]*)?(?:name|key):[ \t]*[\"']?")
_K8S_VALUE = _ascii_re(r"value:[ \t]*")
_AUTH_PAIR = _ascii_re(
    r"(?P<q>[\"']?)[A-Za-z0-9_.@+-]{1,64}:(?P<v>[^\s\"'`:/][^\s\"'`]*)(?P=q)(?=[\s,;}\]]|\Z)"
)
# After a credential key that opens a block: a template's parameter (CloudFormation's
# `Default:`, Azure Resource Manager's `"defaultValue"`, a parameter file's `"value"`).
_PARAMETER_OBJECT = _ascii_re(r"\{[^{}]{0,512}?\"(?:defaultValue|default|value)\"[ \t]*:[ \t]*")
_PARAMETER_LINE = _ascii_re(r"[ \t]+(?:Default|default|defaultValue|value):[ \t]+(?=\S)")
_MAX_PARAMETER_LINES = 8  # lines of a YAML block read for its default: a bound, not a format
_YAML_ANCHOR = _ascii_re(r"&[A-Za-z0-9_.-]+[ \t]+(?=\S)")  # api_key: &key v


# The name of an object before its opening brace (`"Jwt": {`, `jwt = {`), and a YAML
# mapping's key alone on its line (`Jwt:`).
_OBJECT_NAME = _ascii_re(
    r"[\"']?([A-Za-z0-9_-]{1,40})[\"']?[ \t]*(?:=>|[:=])[ \t]*(?:\r?\n[ \t]*)?\Z"
)
_BLOCK_NAME = _ascii_re(r"[ \t]*[\"']?([A-Za-z0-9_-]{1,40})[\"']?:[ \t]*(?:#[^\n]*)?\r?\Z")
_MAX_PARENT_LINES = 16  # lines read up to a YAML key's parent: a bound, not a format


def _holding_object(text: str, lowered: str, head: int) -> str:
    """The lower-cased name of the object that holds the bare key at `head`, or "": its
    JSON object's (or PHP array's) name when the members before the key are flat
    (`"Jwt": {"Issuer": x, "Key": v}`), `username` when one of them is a `"username"`
    (kaggle.json: the user's key), or the YAML key one indentation up. A `Key` under `Jwt`
    or `Encryption` is that object's key, as `JwtKey` would be."""
    quote = text[head - 1 : head]
    if quote in ('"', "'") and text.startswith(quote, head + 3):
        back = max(0, head - _MAX_VALUE)  # PHP's arrays open with `[`: `'crypt' => ['key' =>`
        brace = max(text.rfind("{", back, head), text.rfind("[", back, head))
        if brace == -1 or text.find("}", brace, head) != -1 or text.find("]", brace, head) != -1:
            return ""  # no object, or a nested one closes before the key: not its member
        if '"username"' in lowered[brace:head]:
            return "username"  # a user's key: kaggle.json's {"username": u, "key": v}
        name = _OBJECT_NAME.search(text, max(0, brace - 64), brace)
        return "" if name is None else lowered[name.start(1) : name.end(1)]
    line_start = text.rfind("\n", 0, head) + 1
    indent = head - line_start
    if not text.startswith(":", head + 3) or not indent or text[line_start:head].strip(" "):
        return ""  # not a YAML key indented under another (`key = x` in code is not)
    end = line_start - 1
    for _ in range(_MAX_PARENT_LINES):
        if end <= 0:
            return ""
        start = text.rfind("\n", 0, end) + 1
        line = text[start:end]
        depth = len(line) - len(line.lstrip(" "))
        if line.strip() and not line.lstrip().startswith("#") and depth < indent:
            name = _BLOCK_NAME.fullmatch(text, start, end)
            return "" if name is None else lowered[name.start(1) : name.end(1)]
        end = start - 1
    return ""


def _keyed_key_start(text: str, head: int) -> int:
    start = head
    while start > 0 and text[start - 1] in _KEY_CHARS:
        start -= 1
    return start


def _qualifier(text: str, lowered: str, head: int, noun: str) -> str | None:
    """The word before a qualified noun (`key`, `salt`) at `head`, lower-cased, or None
    when nothing can qualify it: the word before `_`, `.`, `-`, `:`, a camelCase hump or
    one blank when `:` or `=` follows the key (`API key: v` in prose and logs; `the key is`
    stays prose, with no look-back); for a bare `key`, the name of the object holding it."""
    after = head + len(noun)
    if head > 0 and text[head - 1] == " " and not _ASSIGNED_KEY.match(text, after):
        return None
    end = head - 1 if head > 0 and text[head - 1] in "_.-: " else head
    start = end
    while start > 0 and text[start - 1].isalpha() and end - start < 16:
        start -= 1
        if text[start].isupper() and start > 0 and text[start - 1].islower():
            break  # a camelCase hump starts the qualifier: stripeSecretKey
    word = lowered[start:end]
    if word == "in" and lowered.endswith("logged_", 0, start):
        word = "logged_in"
    if not word and noun == "key":
        word = _holding_object(text, lowered, head)  # "Jwt": {"Key": v}
    return word


def _vendor_named(text: str, lowered: str, head: int, noun: str) -> bool:
    """A `key` whose word is not a credential's qualifier but may be a vendor's name
    (`OPENAI_KEY`, `pineconeKey`, `server_key`): a word of three letters or more, split
    from the noun (a `_`, `.`, `-` or a camelCase hump: `monkey` is one word), and not one
    that names another kind of key (`_OTHER_KEYS`). Its value must read as random."""
    if noun not in ("key", "keys") or head == 0:
        return False
    split = text[head - 1] in "_.-" or (text[head].isupper() and text[head - 1].islower())
    word = _qualifier(text, lowered, head, noun) if split else None
    return word is not None and len(word) >= 3 and word.isalpha() and word not in _OTHER_KEYS


# Words before `key` that name a key of another kind: a database's, a cache's, a
# keyboard's, a public one (reCAPTCHA's site key, Supabase's anon key, Algolia's search key).
_OTHER_KEYS = frozenset(
    (
        *("public", "publishable", "anon", "site", "search", "primary", "foreign", "sort"),
        *("partition", "range", "hash", "cache", "lookup", "idempotency", "dedup", "unique"),
        *("composite", "natural", "surrogate", "candidate", "index", "row", "column", "field"),
        *("object", "file", "bucket", "shard", "map", "dict", "group", "message", "event"),
        *("translation", "label", "tag", "node", "entry", "item", "record", "state", "query"),
        *("hot", "short", "keyboard", "host", "known", "authorized", "trusted", "verify"),
        *("sign", "monitor", "instrumentation", "game"),  # App Insights, GameAnalytics
    )
)
# Keys their vendors ship in apps, public by design: PostHog's project key, RevenueCat's
# app-specific keys, Stripe's and Clerk's publishable keys.
_PUBLIC_KEY_PREFIXES = ("phc_", "appl_", "goog_", "amzn_", "strp_", "pk_", "pk.")
_RANDOM_VALUE = _ascii_re(r"[A-Za-z0-9+/=_-]{20,}")
_RANDOM_VALUE_BITS = 6  # twice the bits of entropy a character: 3 (32 hex digits hold about 3.5)


def _random_value(value: str) -> bool:
    """A value that reads as generated: 20 token characters or more, letters and digits,
    3 bits of entropy a character or more, and no words joined as a name; not a key its
    vendor ships in apps (`_PUBLIC_KEY_PREFIXES`)."""
    return (
        not value.startswith(_PUBLIC_KEY_PREFIXES)
        and _RANDOM_VALUE.fullmatch(value) is not None
        and _HAS_DIGIT(value) is not None
        and any(c.isalpha() for c in value)
        and value.count("/") < 2
        and not _name_shaped(value)
        and _entropy_at_least(Counter(value).values(), len(value), _RANDOM_VALUE_BITS)
    )


def _noun_at_boundary(text: str, lowered: str, head: int, noun: str) -> bool:
    """The credential noun at `head` starts a word of the key (or a known compound)."""
    qualifiers = _QUALIFIED_NOUNS.get(noun)
    if qualifiers is not None:
        return _qualifier(text, lowered, head, noun) in qualifiers
    id_end = head + len(noun)  # SecretId, --secret-id: a stored secret's name, not a secret
    if noun[:6] == "secret" != noun and not text.endswith(_SECRET_ID_SPELLINGS, 0, id_end):
        return False
    if head == 0 or not text[head - 1].isalnum():
        return True
    if text[head].isupper() and (text[head - 1].islower() or text[head - 1].isdigit()):
        return True  # camelCase: dbPassword, stripeSecret
    if text[head - 1].isupper() and text[head].isupper() and text[head + 1 : head + 2].islower():
        return True  # an acronym before a capitalized noun: SMTPPass, JWTSecret
    if noun in _COMPOUNDS and lowered.endswith(_COMPOUNDS[noun], 0, head):
        return True  # keytool -storepass, -keypass; redis.conf requirepass, masterauth
    return any(lowered.startswith(n, head) for n in _LONG_NOUNS)  # dbpassword, csrftoken


def _quoted_value(text: str, at: int) -> tuple[int, int] | None:
    """Span of the text between the quote at `at` and its closing quote on the same line.

    The closing quote must end the value (a delimiter or the end follows): in
    `"token=" + x` the quote after `=` closes a string, it does not open a value.
    """
    quote = text[at]
    n = min(len(text), at + 1 + _MAX_VALUE)  # bounded: each key scans at most this far
    j = at + 1
    while j < n:
        ch = text[j]
        if ch == "\\":
            j += 2
            continue
        if ch == quote:
            after = text[j + 1 : j + 2]
            return (at + 1, j) if after == "" or not (after.isalnum() or after in "_$") else None
        if ch == "\n":
            return None
        j += 1
    return None


def _placeholder_word(value: str) -> bool:
    return _MAYBE_PLACEHOLDER.match(value) is not None and _PLACEHOLDER.fullmatch(value) is not None


def _random_letters(value: str) -> bool:
    """Twelve or more lower-case letters with under 30% vowels: random letters (an app
    password such as Gmail's), not a word (words run near 40%)."""
    if len(value) < 12 or not value.islower():
        return False
    vowels = sum(map(value.count, "aeiou"))
    return vowels * 10 < len(value) * 3


def _short_word(word: str) -> bool:
    return 0 < len(word) <= 3 and word.isalpha()


def _reads_as_prose(value: str) -> bool:
    """A sentence or a translation, not a secret: three ASCII words or more with a short
    word among them (`de`, `is`, `the`: a diceware passphrase has none) or closing
    punctuation; words holding a letter beyond ASCII (`Clé d'API`); or such letters alone
    (`パスワードをリセット`)."""
    if value.isascii():
        words = value.split()
        return len(words) >= 3 and (
            value[-1] in ".?!:" or any(_short_word(w.strip(".,;:!?'")) for w in words[1:])
        )
    if " " in value:
        return True  # words with letters beyond ASCII: a translation (`Clé d'API`)
    return len(value) >= 4 and not any(ch.isascii() for ch in value)


def _is_placeholder(value: str, key_noun: str) -> bool:
    bare = value.strip()
    if _APP_PASSWORD_VALUE.fullmatch(bare):
        return False  # an app-specific password, four groups of four letters: never filler
    if len(bare) < 6 or _placeholder_word(bare):
        return True
    if key_noun == "pass" and bare in _SETUP_PASSES:
        return True  # Windows setup's `<settings pass="oobeSystem">`
    if not any(ch.isalnum() for ch in bare):
        return True  # punctuation alone (`_;;;==`, `-----`): filler, a rule, an operator
    if _reads_as_prose(bare):
        return True  # a message, a label, a translation
    lowered = bare.lower()
    if _PLACEHOLDER_PART.search(lowered):  # also "[redacted:"
        return True
    if _ELIDED[0] in bare or _ELIDED[1] in bare or _URL_MARK in bare:
        return True  # sk-..., sk-...abcd (a masked display form), op://vault/item
    if _NOT_A_SECRET_VALUE.match(bare) and not _passphrase(bare):
        return True  # @@SECRET@@, /run/secrets/db, db.json, postgres-auth
    if (bare.isdigit() and len(bare) < 8) or _VERSION_LIKE.fullmatch(bare):
        return True  # a port, a count, a version or an OID
    if bare.isalpha() and (bare.islower() or bare.isupper() or bare.istitle() or len(bare) < 10):
        return not _random_letters(bare)  # one dictionary-looking word: a label, an enum
    stem = bare.rstrip("0123456789")
    if stem != bare and _placeholder_word(stem):
        return True  # password1, test123
    # A character filling more than half of the value sits in the middle once sorted; it
    # leaves room for at most half the value's length in distinct characters.
    distinct = len(set(bare))
    if distinct <= 2 or (
        distinct <= (len(bare) + 1) // 2
        and bare.count(sorted(bare)[len(bare) // 2]) * 2 > len(bare)
    ):
        return True  # aaaa, abab, AIzaaaaaaaaaaaaa: filler, not a key
    if not bare.isalpha() and not bare.isdigit() and _ascending_runs(bare):
        return True  # abc123def456, 123456789abc: typed filler
    return lowered.replace("_", "").replace("-", "") in (key_noun, key_noun + "s")


_GENERATED_MIN = 40  # characters of a generated key: WordPress's are 64, Django's 50
_GENERATED_BITS = 10  # twice the bits of entropy a character: 5 (a template has about 4.4)


def _generated_key(value: str) -> bool:
    """A quoted key a generator made (WordPress's salts): long, four kinds of punctuation
    or more, 5 bits of entropy a character or more. Its braces, brackets and blanks are
    characters, not a template's or a placeholder's (`{e}`, `<n}`, `[{<+^V~`)."""
    if len(value) < _GENERATED_MIN or value.startswith(("{{", "${", "%(", "<%")):
        return False
    if len({c for c in value if not c.isalnum() and not c.isspace()}) < 4:
        return False
    return _entropy_at_least(Counter(value).values(), len(value), _GENERATED_BITS)


_SETUP_PASSES = frozenset(
    (
        *("windowsPE", "offlineServicing", "generalize", "specialize"),
        *("auditSystem", "auditUser", "oobeSystem"),
    )
)


# A diceware-style passphrase: three or more words of three letters or more, lower-case or
# capitalized, one separator between them, a number at the end allowed
# (`lantern-quiver-maple-42`, `Kayak.Basalt.Nectar`).
_PASSPHRASE = _ascii_re(
    r"[A-Za-z][a-z]{2,}(?P<sep>[-_.])[A-Za-z][a-z]{2,}(?:(?P=sep)[A-Za-z][a-z]{2,})+"
    r"(?:(?P=sep)?[0-9]{1,4})?"
)
# First words of a dotted path that is code, not a phrase (`self.config.value`).
_CODE_ROOTS = frozenset(
    (
        *("self", "this", "cls", "config", "conf", "cfg", "settings", "env", "environ"),
        *("process", "options", "opts", "args", "params", "props", "state", "request"),
        *("req", "ctx", "context", "app", "window", "document", "data", "vars", "values"),
        *("module", "exports", "secrets", "credentials", "vault", "spring", "java", "com"),
        *("system", "microsoft", "org", "net", "io", "android", "google", "apple"),
    )
)


def _passphrase(value: str) -> bool:
    """Words joined by one separator that no resource name or code path would be: three or
    more, none a credential or placeholder word, not rooted at a code object."""
    if _PASSPHRASE.fullmatch(value) is None or _NAMES_A_CREDENTIAL.search(value.lower()):
        return False
    words = re.split(r"[-_.]", value)
    return words[0].lower() not in _CODE_ROOTS and not any(_placeholder_word(w) for w in words)


def _ascending_runs(value: str) -> bool:
    """The value is made only of ascending runs of three or more (`abc`, `123`, `def`)."""
    if ord(value[1]) != ord(value[0]) + 1 or ord(value[2]) != ord(value[1]) + 1:
        return False  # every such value starts with a run: a cheap test first
    run = 1
    for at in range(1, len(value)):
        if ord(value[at]) == ord(value[at - 1]) + 1:
            run += 1
        elif run < 3:
            return False
        else:
            run = 1
    return run >= 3


# A part of an identifier between underscores that no one names a thing with: 16 or more
# letters and digits with three digits or more (`sb_secret_LdA6Om5L2c1k5oACn82X`).
_RANDOM_PART = _ascii_re(
    r"(?:\A|_)"  # a part starts the identifier or follows an underscore
    r"(?=[A-Za-z]{0,15}[0-9][A-Za-z]*[0-9][A-Za-z]*[0-9])"  # a digit in its first 16, 3 in all
    r"[A-Za-z0-9]{16}"
)


def _random_part(value: str) -> bool:
    """`value`, an identifier, holds a random part: a token with a vendor prefix, not a name."""
    return _RANDOM_PART.search(value) is not None


def _is_code(
    value: str,
    sep: str,
    quoted: bool,
    following: str,
    spaced: bool,
    quoted_key_bare_value: bool = False,
) -> bool:
    """The value is code, a reference, a template or a type, not a literal."""
    if _REFERENCE.match(value) or (
        ("+" in value or value[:1] in "'\"`") and _CONCATENATION.search(value)
    ):
        return True
    if value[:1] in "\"'`" or value[-1:] in "\"'`":
        return True  # a fragment of code between two strings: ', '
    if quoted and (_BUILT_STRING.match(following) or _TEMPLATE_INSIDE.search(value)):
        return True  # "ghp_" + suffix, "Bearer {token}": a string being built, not a value
    ident = _IDENT.fullmatch(value) is not None
    if quoted_key_bare_value and ident:
        return True  # {"key": VARIABLE}: JSON has no such value, code does
    lowered = value.lower()
    named = ident and _KEY_WORD.search(lowered) is not None and not _random_part(value)
    if named and _NAMES_A_KEY.search(value):
        return True  # "name": "SENDGRID_API_KEY": a key's name, not its value
    if not quoted and _KEY_PATH.fullmatch(value) is not None:
        return True  # `--secret aws:authToken v`: a key's path, not a value
    if quoted:
        return False
    if _CMDLET.fullmatch(value):
        return True  # $password = Read-Host -AsSecureString: a PowerShell command runs
    if following.startswith(("(", "[", ".", "->", "::", "{")) or value.endswith("."):
        return True  # get_token(), request.form['password'], a.b
    dotted = "." in value or "::" in value or "->" in value
    if (
        dotted
        and _DOTTED.fullmatch(value, 0, len(value) - value.endswith("!"))  # TypeScript's x.y!
        and not any(ch.isdigit() for ch in value.split(".")[0])
        # unspaced (`k=Jasper.opal58`), a dotted passphrase or a last part with a digit is a value
        and (spaced or not (_passphrase(value) or _HAS_DIGIT(value.rsplit(".", 1)[-1])))
    ):
        return True
    if sep == ":" and value.endswith("!") and _TYPE_LIKE.fullmatch(value):
        return True  # GraphQL: password: String!
    if ident and not _random_part(value):
        if ("_" in value or value.isalpha()) and _NAMES_A_CREDENTIAL.search(lowered):
            return True  # password=KEY_PASSWORD, authkey=authkey, pwd=getpass_unicode (not X7pwQ)
        if (spaced or sep in (":=", "=>")) and not any(ch.isdigit() for ch in value):
            return True  # password = password_from_vault
        lower_word = value.islower() and value.isalpha() and not _random_letters(value)
        if sep == ":" and (_TYPE_LIKE.fullmatch(value) or lower_word):
            return True  # password: str / auth: basic
    return False


def _find_keyed(text: str, present: frozenset[str] | None = None) -> _Spans:
    """Values assigned to credential-named keys (see the rule above). `present`: the
    `_KEYED_LITERALS` that occur in the text (None: any may occur)."""
    present = _KEYED_LITERALS if present is None else present
    lowered = text.lower()
    if len(lowered) != len(text):
        # A character that lowers to several (U+0130) would shift every position: lower the
        # others one by one. With equal lengths no character expanded, so positions line up
        # (the one context-dependent mapping, a final sigma, is not ASCII either way).
        lowered = "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in text)
    spans: list[tuple[int, int]] = []
    headers: set[int] = set()  # the header lines already read for their columns
    for m in _noun_matches(text, lowered, present):
        if m.lastgroup == "cookie":
            spans.extend(_session_cookies(text, m.end()))
            continue
        end = m.end()
        if lowered.startswith("</th>", end):
            spans.extend(_html_column_values(text, lowered, m, headers))
            continue
        at_line_end = end == len(text) or text[end] in "\r\n" or _HEADER_END.match(text, end)
        if at_line_end and not m.group("sep"):
            # nothing is assigned on this line; the noun may name a column
            # (`Login,Password`, `| User | Password |`), unless it ends a token
            if m.group("close")[-1:] not in ("]", "}"):  # `[redacted:github-token]`
                spans.extend(_column_values(text, lowered, m, headers))
            continue
        span = _keyed_value_at(text, lowered, m)
        if span is not None:
            spans.append(span)
            spans.extend(_continued(text, span[0], span[1]))
            spans.extend(_planned_change(text, span[1]))
        elif _CELL_AFTER.fullmatch(text, m.end("noun"), end):
            spans.extend(_column_values(text, lowered, m, headers))  # `Password,Notes`
        elif text.startswith(_QUOTED_MARKERS, m.end()):  # `"[redacted:...]" \ "rest"`
            spans.extend(_continued(text, m.end() + 1, text.find("]", m.end()) + 1))
    spans.extend(_find_keyed_special(text, lowered, present))
    sealed = _ciphertext(text) if spans else []
    if sealed:
        spans = [span for span in spans if not _inside(sealed, span[0])]
    return _disjoint(spans + _echoes(text, spans)) if spans else spans


def _noun_matches(text: str, lowered: str, present: frozenset[str]) -> Iterator[re.Match[str]]:
    """The matches of the four noun scans, then of `salt` where a spelling of it occurs."""
    for nouns in _KEYED_NOUNS:
        yield from nouns.finditer(lowered)
    if not present.isdisjoint(_SALT_LITERALS):
        yield from _SALT_NOUN.finditer(text)


_MIN_ECHOED = 8  # characters a value needs before its other occurrences are looked for
_MAX_ECHOED = 32  # distinct values looked for in one text: a bound on the cost, not a format


def _echoes(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Other occurrences of the values found, as whole tokens: a secret the text assigns is
    a secret wherever the text repeats it (an assistant quoting it back, a second copy of
    the file). Values under `_MIN_ECHOED` characters are not looked for (`admin` repeats)."""
    out: list[tuple[int, int]] = []
    seen: set[str] = set()
    for a, b in spans:
        value = text[a:b]
        if b - a < _MIN_ECHOED or value in seen or len(seen) == _MAX_ECHOED:
            continue
        seen.add(value)
        glued_before, glued_after = value[0].isalnum(), value[-1].isalnum()
        at = text.find(value)
        while at != -1:
            end = at + len(value)
            if not (glued_before and at > 0 and text[at - 1].isalnum()) and not (
                glued_after and end < len(text) and text[end].isalnum()
            ):
                out.append((at, end))
            at = text.find(value, end)
    return out


# A quoted value continued by adjacent literals of the same quote (`"abc" "def"`, implicit
# concatenation) is one value: the literals that follow are taken with it, each replaced
# where it stands. They follow on the value's line, after a line wrapped with a trailing
# backslash, or, inside a parenthesized string (`KEY = (` ... `)`), on the next lines.
_ADJACENT = (
    r"[ \t]*(?:{wrap}\r?\n[ \t]*)?([\"'])([^\"'\\\n]+)\1"  # a literal, maybe on the next line
)
_ADJACENT_LITERAL = _ascii_re(_ADJACENT.format(wrap=r"\\"))  # after a trailing backslash
_ADJACENT_IN_PARENS = _ascii_re(_ADJACENT.format(wrap=r"\\?"))  # or a plain line break
_PAREN_BEFORE = _ascii_re(r"\([ \t]*(?:\r?\n[ \t]*)?\Z")  # what opens a parenthesized string
_QUOTED_MARKERS = tuple(m for m in _MARKERS_MAYBE_QUOTED if m[0] in ('"', "'"))
_MAX_CONTINUED = 16  # literals taken after one value: a bound, not a format


# Terraform's plan shows a changed value after the old one: `"K" = "old" -> "new"`.
_PLANNED = _ascii_re(r"\"[ \t]+->[ \t]+\"([^\"\\\n]+)\"")


# A list of literals of one quote on one line: `["v1", "v2"]`.
_LITERAL_LIST = _ascii_re(
    r"\[[ \t]*([\"'])[^\"'\\\n]*\1(?:[ \t]*,[ \t]*\1[^\"'\\\n]*\1)*[ \t]*,?[ \t]*\]"
)
_LISTED = _ascii_re(r"([\"'])([^\"'\\\n]*)\1")


def _listed_literals(text: str, listed: re.Match[str]) -> tuple[int, int] | None:
    """The literals of a list assigned to a credential key, as one span from the first to
    the last (the brackets and the outer quotes stay), unless none is a secret."""
    items = list(_LISTED.finditer(text, listed.start(), listed.end()))
    if not any(_literal_secret(item.group(2)) for item in items):
        return None
    return items[0].start(2), items[-1].end(2)


def _planned_change(text: str, end: int) -> _Spans:
    """The new value a plan shows after the quoted value ending at `end`."""
    planned = _PLANNED.match(text, end)
    return [planned.span(1)] if planned and _literal_secret(planned.group(1)) else []


def _continued(text: str, start: int, end: int) -> _Spans:
    """The literals adjacent to the value `text[start:end]`, when quotes enclose it."""
    out: _Spans = []
    quote = text[start - 1 : start]
    if quote not in ('"', "'") or end < start or not text.startswith(quote, end):
        return out
    in_parens = _PAREN_BEFORE.search(text, max(0, start - 64), start - 1) is not None
    adjacent = _ADJACENT_IN_PARENS if in_parens else _ADJACENT_LITERAL
    at = end + 1
    for _ in range(_MAX_CONTINUED):
        m = adjacent.match(text, at)
        if m is None or m.group(1) != quote or not _literal_secret(m.group(2)):
            break
        out.append(m.span(2))
        at = m.end()
    return out


# `KEY = ("abc")`, `KEY = (` newline `"abc"` newline `"def")`: a parenthesized string (its
# literals adjacent, nothing else inside), read as the value its first literal starts.
_PAREN_STRING = _ascii_re(
    r"""\([ \t]*(?:\r?\n[ \t]*)?(?=(["'])[^"'\\\n]*\1"""
    r"""(?:[ \t]*(?:\\?\r?\n[ \t]*)?\1[^"'\\\n]*\1)*[ \t]*(?:\r?\n[ \t]*)?\))"""
)


# Flags that say a literal earlier on their line is a password, and that literal's syntax:
# PowerShell's `ConvertTo-SecureString [-String] "v" -AsPlainText`, and a pipe into a
# login, `echo [-n] "v" | docker login --password-stdin` (or `printf "v" |`).
_LITERAL_BEFORE = {
    "-asplaintext": _ascii_re(
        r"(?i:convertto-securestring)[ \t]+(?:(?i:-string)[ \t]+)?([\"'])(?P<q>[^\"'\n]+)\1"
    ),
    "--password-stdin": _ascii_re(
        r"\b(?:echo(?:[ \t]+-[ne]+)?|printf)[ \t]+"
        r"(?:([\"'])(?P<q>[^\"'\n]+)\1|(?P<bare>[^\s\"'|;&]+))[ \t]*\|"
    ),
}


def _flagged_literals(text: str, lowered: str, flag: str) -> _Spans:
    """At each `flag`, the last literal its syntax marks earlier on the line, unless it is
    a reference or a placeholder (`echo "$CR_PAT" |`, `echo changeme |`)."""
    out: _Spans = []
    at = lowered.find(flag)
    while at != -1:
        line_start = max(text.rfind("\n", 0, at) + 1, at - _MAX_VALUE)
        found = list(_LITERAL_BEFORE[flag].finditer(text, line_start, at))
        if found:
            last = found[-1]
            group = "q" if last.group("q") is not None else "bare"
            value = last.group(group)
            if _literal_secret(value):
                out.append(last.span(group))
        at = lowered.find(flag, at + 1)
    return out


def _disjoint(spans: list[tuple[int, int]]) -> _Spans:
    out: _Spans = []
    for a, b in sorted(set(spans)):
        if out and a < out[-1][1]:
            continue
        out.append((a, b))
    return out


def _parameter_value(text: str, key_start: int, pos: int) -> int:
    """Where the default a credential key's block gives starts (`pos` when none does): a
    flat JSON object's `"defaultValue"`, `"default"` or `"value"` member, or the same key
    (or CloudFormation's `Default:`) on one of the next lines indented deeper than the key."""
    if text.startswith("{", pos):
        member = _PARAMETER_OBJECT.match(text, pos)
        return member.end() if member is not None else pos
    key_line = text[text.rfind("\n", 0, key_start) + 1 : key_start]
    indent = len(key_line) - len(key_line.lstrip(" \t"))
    start = pos + (2 if text.startswith("\r\n", pos) else 1)
    for _ in range(_MAX_PARAMETER_LINES):
        end = text.find("\n", start)
        end = len(text) if end == -1 else end
        line = text[start:end]
        if not line.strip() or len(line) - len(line.lstrip(" \t")) <= indent:
            return pos  # the block ended
        found = _PARAMETER_LINE.match(text, start, end)
        if found is not None:
            return found.end()
        start = end + 1
    return pos


def _option_constant(text: str, key_start: int, key_end: int) -> bool:
    """The key is an upper-case constant passed after another argument (`setopt(h,
    CURLOPT_PASSWORD, "v")`); a first one (`(_NAME, "x")`) may be a pair in a table."""
    before = text[max(0, key_start - 8) : key_start].rstrip(" \t")
    key = text[key_start:key_end].rstrip(" \t")
    return before.endswith(",") and key[:1].isalpha() and key.isupper() and key.isidentifier()


def _keyed_value_at(text: str, lowered: str, m: re.Match[str]) -> tuple[int, int] | None:
    # The cheap refusals come first: in text that other rules have redacted, most nouns
    # stand before a token or inside one (`GITHUB_TOKEN=[redacted:...]`, `...:aws-key] x`).
    pos = m.end()  # the tail took the blanks after the separator
    if text.startswith(_MARKERS_MAYBE_QUOTED, pos):
        return None  # already redacted: never a value
    close, sep = m.group("close", "sep")
    head = m.start()
    part = lowered[head : m.end("noun")]
    noun = _NOUN_PARTS.get(part, part)
    head -= len(noun) - len(part)
    key_start = _keyed_key_start(text, head)
    if text.endswith("[redacted:", 0, key_start):
        return None  # `[redacted:keyed-secret]=x`: a token's name is not a key
    vendor_named = False
    if not _noun_at_boundary(text, lowered, head, noun):
        if not _vendor_named(text, lowered, head, noun):
            return None
        vendor_named = True  # OPENAI_KEY: its value must read as random
    key_quoted = close[:1] in ('"', "'", "`")
    if sep in ("?=", "<-", "??=", "||="):
        sep = "="  # Makefile: API_KEY ?= v; R: api_key <- "v"; Ruby, JS: KEY ||= "v"
    elif sep in _PROSE_SEPARATORS:
        sep = "="  # a label in prose: `Password -> v`, `the prod password is v`
    elif (sep[:1] == ":" and sep[1:2] in ("*", "_", ":")) or sep.startswith(("for", "in")):
        sep = ":"  # `**Password:** v`, `Password:: v`, `Password for user u: v`
    elif sep == "|" and not _TABLE_LABEL.search(text, max(0, key_start - 48), key_start):
        return None  # a cell follows a cell: `| DB password | v |`, not `a || password | v`
    elif sep[-2:] == "\n:":
        term_start = text.rfind("\n", max(0, key_start - 64), key_start) + 1
        if not _TERM_WORDS.fullmatch(text, term_start, key_start):
            return None  # a definition's term stands alone on its line: `SFTP password`
        sep = ":"
    elif sep[-1:] == "\n":
        line_start = text.rfind("\n", max(0, key_start - 64), key_start) + 1
        named = _K8S_NAME.fullmatch(text, line_start, key_start - (1 if key_quoted else 0))
        value_key = _K8S_VALUE.match(lowered, pos)
        if named is None or value_key is None:
            return None
        pos = value_key.end()
        sep = ":"
    if sep in (":", "") and not key_quoted:
        typed = _TYPED_ASSIGN.match(text, pos)  # API_KEY: &str = "v", Password { get; set; } = "v"
        # Go `var token string = "v"`, Bicep `param adminPassword string = 'v'`
        go_var = lowered.endswith(("var ", "const ", "param "), 0, key_start)
        if typed is not None and (sep == ":" or text[pos] == "{" or go_var):
            pos = typed.end()
            sep = "="
    sep_end = m.end("sep")
    plist = sep.startswith("</")
    if plist:
        sep = ">"  # the value is the next element's text: <string>, <td>, <dd>
    if sep == ">":
        pos = sep_end  # an XML element's text starts right after its tag, blanks included
        child = _VALUE_CHILD.match(text, pos)
        pos = pos if child is None else child.end()  # Windows unattend: <Password><Value>v
    name_value = _NAME_VALUE.match(text, sep_end) if sep == "," and key_quoted else None
    if name_value is not None:
        pos = name_value.end()  # {"name": "API_KEY", "value": "v"}
        sep = ":"
    if sep == "" and text.startswith(("v", "V", "|", "?", "o", "android:v"), pos):
        paired = _PAIRED_VALUE.match(text, pos)
        attribute = key_quoted and text[key_start - 2 : key_start - 1] == "="
        if paired is not None and (paired.group(1) is None or attribute):
            pos = paired.end()  # key="ClearTextPassword" value="v"; X || 'v'; X ?? "v"
            sep = "="
    if sep == "(" and text[m.start("sep") - 1] in " \t":
        inner = _PROSE_PAREN.match(text, m.start("sep"))  # `the new password (v) is live`
        if inner is None or key_start != head or not _prose_secret(inner.group("v"), noun):
            return None  # `at getSecret (/app/verify.js:97:14)`: a call, not a word
        return inner.span("v")
    if noun in _POSITIONAL_NOUNS and (sep == "(" or (sep == "=" and text.startswith("(", pos))):
        if _ACTION_PREFIX.match(text, max(key_start, text.rfind(".", key_start, head) + 1)):
            return None
        return _second_literal(text, pos)  # HTTPBasicAuth("user", "v"), auth=("user", "v")
    if sep == ":" and text.startswith(("-", "="), sep_end) and text[:key_start].endswith("${"):
        pos = sep_end + 1  # ${DB_PASSWORD:-default}: the default is a literal
        sep = "="
    if sep == "" and lowered.startswith("for", pos) and lowered.endswith("set ", 0, key_start):
        account = _SQL_FOR.match(lowered, pos)  # SET PASSWORD FOR 'u'@'h' = 'v'
        if account is None or text.startswith(("@", ":", "?"), account.end()):
            return None  # a bind variable: = @new_password
        pos = account.end()
        sep = "="
    if (
        sep == ":"
        and not key_quoted
        and not text.startswith((" ", "\t", "\n", "\r", '"', "'", '@"'), sep_end)  # ObjC's @"v"
        and not _go_struct_field(text, key_start)
    ):
        return None  # YAML needs a space after the colon: `${SECRET_KEY:?err}` assigns nothing
    if sep == ":" and text.startswith("PASS:", key_start) and text.endswith("--- ", 0, key_start):
        return None  # a test runner's status line: `--- PASS: TestName (0.00s)`
    if noun == "auth" and sep == "" and key_start == head:
        return _auth_command(text, key_start, pos)  # AUTH [user] v, stats auth user:v
    if noun == "auth" and not (
        text.startswith("_auth", key_start) or lowered.startswith("masterauth", key_start)
    ):
        # AUTH=CRAM-MD5 names a mode; Docker "auth" has its own rule; _auth holds one; a
        # user and a secret (`cloud.auth: "elastic:v"`) hold one after the colon
        pair = _AUTH_PAIR.match(text, pos) if sep in (":", "=") else None
        if pair is None or not _literal_secret(pair.group("v")):
            return None
        return pair.span("v")
    flag_in_array = text[key_start] == "-" and text[key_start - 1] in "\"'"  # ["--pw", "v"]
    if sep == "," and not (
        (key_quoted and (text[: key_start - 1].rstrip(" \t").endswith("(") or flag_in_array))
        or _option_constant(text, key_start, m.start("sep"))
    ):
        return None  # only a first argument pair ("KEY", "value"), a flag in an array, or an
        # option named by a constant (`setopt(h, CURLOPT_PASSWORD, "v")`)
    if sep == "," and lowered.startswith("default", pos):
        default = _DEFAULT_ARGUMENT.match(text, pos)  # config("KEY", default="v")
        pos = default.end() if default is not None else pos
    if sep == "" and key_quoted and lowered.endswith("variable ", 0, key_start - 1):
        block = _TERRAFORM_DEFAULT.match(text, pos)  # variable "db_password" { default = "v" }
        if block is None:
            return None
        pos = block.end()
        sep = "="
    edn = sep == "" and text[key_start - 1 : key_start] == ":" and text.startswith('"', pos)
    if edn and (key_start < 2 or text[key_start - 2] in " \t\n{[(,"):
        sep = "="  # EDN, Clojure: {:password "v"}, a keyword and a string
    to = _SET_TO.match(lowered, pos) if sep == "" and lowered.startswith("to", pos) else None
    if to is not None:
        if not _SET_BEFORE.search(lowered, max(0, key_start - 48), key_start):
            return None  # `send the token to them`: only a set, change or update assigns
        pos = to.end()
        sep = "="  # prose: `Set STRIPE_API_KEY to v`, `change the password to v`
    if sep == "" and not _spaced_assignment(text, lowered, key_start, head, noun):
        return None
    device_type = _DEVICE_TYPE.match(text, pos) if sep == "" else None
    if device_type is not None and _device_line(lowered, key_start):
        pos = device_type.end()  # `secret 0 v`: the value follows its type number
    if sep == ">" and not (
        plist
        or (key_start > 0 and text[key_start - 1] == "<")
        or (key_quoted and text[key_start - 2 : key_start - 1] == "=")
    ):
        return None  # only an XML element: <password>v</password>, <entry key="password">v
    name_start = max(key_start, text.rfind(".", key_start, head) + 1)
    drupal = noun == "salt" and lowered.startswith("hash_", name_start)  # its site secret
    if _ACTION_PREFIX.match(text, name_start) and not drupal:
        return None  # hash_password, verify_token, is_secret, max_token: about it, not it
    if sep == "(" and not (
        lowered.startswith("set", name_start) and text[name_start + 3].isupper()
    ):
        return None  # only a setter: setPassword("v")
    sep_at = m.start("sep")
    unspaced = m.group("sep") == "=" and text[sep_at - 1] not in " \t"
    if unspaced and text[sep_at + 1 : sep_at + 2] in (" ", "\t"):
        return None  # `key= next=1`: an empty value, not the neighbouring pair
    if sep == ":" and lowered.startswith(("|", ">"), pos) and not lowered.startswith("||", pos):
        return None  # a YAML block scalar: the value is on the next lines
    if sep == "" and text.startswith(("--body", "-b"), pos):
        body = _BODY_FLAG.match(text, pos)
        pos = body.end() if body is not None else pos  # gh secret set NAME --body v
    if text.startswith("(", pos) and sep in ("=", ":", ":="):
        paren = _PAREN_STRING.match(text, pos)
        pos = paren.end() if paren is not None else pos
    if text.startswith("--", pos) or (sep == "" and _FLAG_WORD.match(text, pos)):
        return None  # the next CLI flag, not a value
    if sep == ":" and text.startswith(("{", "\n", "\r\n"), pos):
        pos = _parameter_value(text, key_start, pos)
    if sep == ":" and text.startswith("&", pos):
        anchor = _YAML_ANCHOR.match(text, pos)
        pos = anchor.end() if anchor is not None else pos  # a YAML anchor, then the value
    if text.startswith(('"""', "'''"), pos):
        pos += 2  # a triple-quoted value (Grafana's ini, Python): the literal is inside
    if sep != "," and text.startswith(_STRING_PREFIXES, pos):
        pos += 1  # C# @"v", Python b"v" and r"v" assigned: the literal starts at its quote
    listed = _LITERAL_LIST.match(text, pos) if sep in ("=", ":") else None
    if listed is not None:
        return _listed_literals(text, listed)  # secret: ["v1", "v2"], rotated keys
    span = _table_cell(text, pos) if sep == "|" else _value_span(text, pos, sep == ">")
    if span is None:
        return None
    a, b = span
    quoted = (a > 0 and text[a - 1] in "\"'`" and a - 1 == pos) or sep in (">", "|")
    quoted = quoted or text.startswith(("||", "```"), pos)  # a spoiler, an inline code block
    after = b  # where the text after the value starts (before trailing punctuation is cut)
    if not quoted and sep != ">":
        wide = _unquoted_extent(text, key_start, a, b, sep != ":")
        if wide is None or text.startswith(_ELIDED, wide[0]):
            return None  # code, or an elided value: `ops_eyJzaWdu...` shows a token's head
        b, after = wide
        app = _APP_PASSWORD.match(text, a)
        if app is not None:
            b = after = app.end()  # a Gmail app password holds blanks: `abcd efgh ijkl mnop`
        if text.startswith("<", b) and _FILL_IN.match(text, b):
            return None  # dop_v1_<your_token>: a prefix and a name to fill in
    if noun in _PAIRED_NOUNS and (
        noun[0] == "c" or _USER_BEFORE.search(lowered, max(0, key_start - 24), key_start)
    ):
        second = _SECOND_OF_PAIR.match(text, b)
        if second is not None:
            a, b = second.span(2)  # `User/Pass: u / v`, `creds: u / v`: the user comes first
        elif noun[0] != "c" and text.count("/", a, b) == 1:
            a = text.index("/", a, b) + 1  # `login/password: u/v`
    value = text[a:b]
    if plist and m.group("sep")[2:3] != "k" and " " in value:
        return None  # a table's or a definition's phrase (`not set`, `see vault`): no value
    if noun == "authorization" or (noun == "auth" and not quoted and text[key_start] == "_"):
        scheme = _AUTH_SCHEME.match(text, a) or _other_scheme(text, a)
        if scheme is None and not quoted and not (len(value) >= 12 and _HAS_DIGIT(value)):
            return None  # a header value without a scheme must look like a credential
        if scheme is not None:
            if quoted:
                a = scheme.end()
            else:
                if text[scheme.end() : scheme.end() + 1] in ("'", '"', "`"):
                    return None  # "Authorization: Bearer " + token: code building a header
                rest = _value_span(text, scheme.end())
                wide = _unquoted_extent(text, key_start, *rest) if rest is not None else None
                if rest is None or wide is None:
                    return None
                a, (b, after) = rest[0], wide
            value = text[a:b]
    if quoted and len(value) > 2 and value[0] == value[-1] in "'\"" and value[0] not in value[1:-1]:
        a, b = a + 1, b - 1  # a repr inside a JSON string (Sentry's vars): "password": "'v'"
        value = text[a:b]
    if "[redacted:" in value or "<REDACTED:" in value:
        return None  # a token another rule put there (`Bearer [redacted:...]`)
    if quoted and key_quoted and " " in value and not _passphrase(value):
        key_open = text.rfind(close[0], max(0, key_start - 64), key_start)
        if key_open != -1 and " " in text[key_open:key_start]:
            return None  # a UI string and its translation: "Enter your password" = "..."
    if sep == "," and (not quoted or b - a < 8):
        return None
    if _KEY_ID.fullmatch(value) and lowered.startswith("signingkey", head - 7):
        return None  # git's user.signingkey names a GPG key by its id
    if not quoted and value.startswith(("env:", "file:", "fd:", "stdin")):
        return None  # openssl-style pass-phrase arguments naming where the secret is
    if not quoted and value.startswith("pass:"):
        a += 5  # openssl -pass pass:<secret>
        value = text[a:b]
    following = text[after : after + 4]
    spaced = sep == "=" and text[sep_at - 1] in " \t"
    if quoted and text[a - 1] == "`" and " " in value:
        return None  # `pass show npm_token`: a shell command's output, not a literal
    bare_after_quoted_key = key_quoted and not quoted
    generated = quoted and _generated_key(value)
    if not generated and (
        _is_code(value, sep, quoted, following, spaced, bare_after_quoted_key)
        or _is_placeholder(value, noun)
    ):
        return None
    if noun == "keys" and all(_is_placeholder(item, "key") for item in value.split(",")):
        return None  # a list of placeholders: Strapi's `APP_KEYS=toBeModified1,toBeModified2`
    if not quoted and ("=" in value or ":" in value) and _HOLDS_AN_ASSIGNMENT.search(value):
        return None  # `password=token=x`: a chain of keys, not a value (and no rescans)
    opened = text.rfind("{{", text.rfind("\n", 0, key_start) + 1, key_start)
    if opened != -1 and text.find("}}", opened, key_start) == -1:
        return None  # inside a template's expression: {{ lookup('password', ...) }}
    if vendor_named and not _random_value(value):
        return None
    return a, b


# `auth` as a command: Redis `AUTH [user] v`, upper-case alone on its line or after a
# prompt (`host:6379> auth v`), one or two words filling the line (prose holds more), or
# quoted in MONITOR's log; and HAProxy's `stats auth user:v`.
_REDIS_PROMPT = _ascii_re(r"[^\s>]{1,64}>[ \t]*")
# A command in Redis's MONITOR output: a timestamp, `[db client]`, then quoted arguments.
_REDIS_MONITOR = _ascii_re(r"[0-9]{9,11}\.[0-9]{1,6}[ \t]+\[[^\]\n]{1,80}\][ \t]+\"")
_MONITOR_ARGS = _ascii_re(
    r"(?:\"[^\"\n]{1,256}\"[ \t]+)?\"(?P<v>[^\"\n]{1,1024})\"[ \t]*(?=\r?\n|\Z)"
)
_REDIS_ARGS = _ascii_re(
    r"(?:[^\s\"']+[ \t]+)?(?P<q>[\"']?)(?P<v>[^\s\"']+)(?P=q)[ \t]*(?=\r?\n|\Z)"
)


_STATS_AUTH = _ascii_re(r"[^\s:\"']+:(?P<v>[^\s\"']+)[ \t]*(?=\r?\n|\Z)")


def _auth_command(text: str, key_start: int, pos: int) -> tuple[int, int] | None:
    before = text[_line_head(text, key_start) : key_start]
    if before.strip(" \t") == "stats":
        pair = _STATS_AUTH.match(text, pos)
        return pair.span("v") if pair and _literal_secret(pair.group("v")) else None
    if _REDIS_MONITOR.fullmatch(before):  # MONITOR's log: `... "AUTH" ["user"] "v"`
        monitored = _MONITOR_ARGS.match(text, pos)
        if monitored is None or not _literal_secret(monitored.group("v")):
            return None
        return monitored.span("v")
    alone = not before.strip(" \t") and text.startswith("AUTH", key_start)
    if not alone and _REDIS_PROMPT.fullmatch(before) is None:
        return None
    args = _REDIS_ARGS.match(text, pos)
    if args is None or not _literal_secret(args.group("v")):
        return None
    return args.span("v")


# A Go struct printed with `%+v`: `{Host:db Port:5432 Password:v}`, exported (capitalized)
# fields after the brace, each `Name:value` and one blank.
_GO_FIELDS = _ascii_re(r"\{(?:[A-Za-z_][A-Za-z0-9_]*:[^\s{}]*[ ])*")


def _go_struct_field(text: str, key_start: int) -> bool:
    if not text[key_start].isupper():
        return False
    brace = text.rfind("{", max(0, key_start - 512), key_start)
    if brace == -1 or text[brace - 1 : brace] in ("$", "#", "%", "@"):
        return False  # ${KEY:-v}, #{key:v}: a template's braces
    return _GO_FIELDS.fullmatch(text, brace, key_start) is not None


# Which characters end an unquoted value depends on where its key sits (the character before
# the key, blanks skipped): after `;` a connection-string pair ends at `;`; after `?` or `&`
# a query parameter at `&` or `#`; after `{ [ ( ,` a flow or argument item at `, ) ] }`;
# anywhere else (a line of dotenv, YAML, INI, a log or a command) at a blank. Quotes, a
# backslash and `< > { }` end every one. Punctuation a password holds (`( ) [ ] ; , & !`)
# stays inside the value unless it ends it by these rules.
_UNQUOTED_END = {
    ";": _ascii_re(r"[\s\"'`\\;]"),
    "?": _ascii_re(r"[\s\"'`\\&#<>]"),
    "{": _ascii_re(r"[\s\"'`\\,)\]}<>{]"),
    "": _ascii_re(r"[\s\"'`\\<>{}]"),
}
_CONTEXT_OF = {";": ";", "?": "?", "&": "?", "{": "{", "[": "{", "(": "{", ",": "{"}
_BLANK_OR_QUOTE = frozenset(" \t\n\r\f\v\"'`\\")
# In a line, `;k=`, `&k=` or `,k=` starts the next pair: `password=v&user=x`.
# (`==` after a name is base64's padding, not a pair: `APP_KEYS=a1==,b2==`)
_NEXT_PAIR = _ascii_re(r"[;&,][ \t]?[A-Za-z_][A-Za-z0-9_-]*=(?!=)")
_PAIR_START = _ascii_re(r"[A-Za-z_][A-Za-z0-9_-]*=(?!=)")
# A call's or an index's brackets, two levels deep, on one line.
_BRACKETS = _ascii_re(r"\((?:[^()\n]|\([^()\n]*\))*\)|\[(?:[^\[\]\n]|\[[^\[\]\n]*\])*\]")
# A name a call or an index follows: dotted (`a?.b`, `A::b`), Erlang's `os:getenv`, and
# Elixir's bang functions (`System.fetch_env!`).
_NAME_CHAIN = _ascii_re(r"[A-Za-z_$][A-Za-z0-9_$]*(?:(?:\??\.|::?)[A-Za-z_$][A-Za-z0-9_$]*)*!?")


def _unquoted_extent(
    text: str, key_start: int, a: int, b: int, pairs: bool = True
) -> tuple[int, int] | None:
    """The end of the unquoted value starting at `a` (its strict end is `b`) and where the
    text after it starts, or None when the value is code: a name followed by a call or an
    index (`get_password()`, `cfg[...]`).

    A name followed by brackets that close on the line with a letter or digit after them
    (`Yb2i()hdu3`) is a value, not a call. A trailing `. , ;` (the end of a sentence or a
    statement) and, in a line, a `)` or `]` that closes nothing in the value are left out.
    With `pairs` (not after a YAML colon), `;k=`, `&k=` or `,k=` starts the next pair.
    """
    j = key_start
    while j > 0 and text[j - 1] in " \t":
        j -= 1
    context = _CONTEXT_OF.get(text[j - 1], "") if j > 0 else ""
    if context != "?" and (b == len(text) or text[b] in _BLANK_OR_QUOTE):
        # Every context ends at a blank, a quote or a backslash, and the strict value holds
        # none of `; & , ( ) [ ]`: only a trailing `.` can go.
        end = b
        while end > a and text[end - 1] == ".":
            end -= 1
        return (end, b) if end > a else None
    if context in ("", "{") and text[b : b + 1] in ("(", "[") and _NAME_CHAIN.fullmatch(text, a, b):
        call = _BRACKETS.match(text, b)
        if call is None or not (text[call.end() : call.end() + 1].isalnum()):
            return None
    stop = _UNQUOTED_END[context].search(text, a, a + _MAX_VALUE + 1)
    end = stop.start() if stop is not None else len(text)
    if end - a > _MAX_VALUE:
        end = b
    if context == "":
        pair = _NEXT_PAIR.search(text, a, end)
        if pair is not None and _PAIR_START.match(text, a):
            return None  # a list of pairs assigned to the key: Protocol=https;Key=...
        if pair is not None and pairs:
            end = pair.start()
    after = end
    while end > a and text[end - 1] in ".,;":
        end -= 1
    if context == "":
        while end > a and (
            (text[end - 1] == ")" and text.count(")", a, end) > text.count("(", a, end))
            or (text[end - 1] == "]" and text.count("]", a, end) > text.count("[", a, end))
        ):
            end -= 1
    return (end, after) if end > a else None


def _value_span(text: str, pos: int, element: bool = False) -> tuple[int, int] | None:
    if pos >= len(text):
        return None
    if element:  # an XML element's text, up to its closing tag
        tag = text.find("<", pos)
        if tag <= pos or not text.startswith("</", tag) or "\n" in text[pos:tag]:
            return None
        return pos, tag
    if text.startswith(("||", "```"), pos):  # a Discord spoiler, a chat's inline code block
        mark = text[pos : pos + (2 if text[pos] == "|" else 3)]
        end = text.find(mark, pos + len(mark), pos + _MAX_VALUE)
        inner = text[pos + len(mark) : end]
        ok = end > pos + len(mark) and "\n" not in inner and " " not in inner
        return (pos + len(mark), end) if ok else None
    if text[pos] in "\"'`":
        if text.startswith(text[pos] * 3, pos):
            return None  # a triple-quoted block
        return _quoted_value(text, pos)
    limit = pos + _MAX_VALUE + 1
    stop = _VALUE_END.search(text, pos, limit)
    while stop is not None and text.startswith(_PROPERTY_ESCAPES, stop.start()):
        stop = _VALUE_END.search(text, stop.start() + 2, limit)
    if stop is None and pos + _MAX_VALUE < len(text):
        return None  # no delimiter within reach: not a value (and no quadratic scan)
    b = stop.start() if stop else len(text)
    return (pos, b) if b > pos else None


_LOOK_BACK = 512  # characters `_spaced_assignment` reads before a key


def _line_head(text: str, pos: int, back: int = 0) -> int:
    """Where the line holding `pos` starts, after its gutter; not before `back`."""
    start = max(text.rfind("\n", back, pos) + 1, back)
    gutter = _GUTTER.match(text, start, pos)
    return start if gutter is None else gutter.end()


def _spaced_assignment(text: str, lowered: str, key_start: int, head_start: int, noun: str) -> bool:
    """A key followed by spaces assigns: a CLI flag, a .netrc entry or a Dockerfile ENV."""
    if key_start > 0 and text[key_start] == "-" and text[key_start - 1] in " \t":
        return True  # --password value, -token value
    if text.startswith("-", key_start) and key_start == 0:
        return True
    # The words before the key are read back to its line's start or `_LOOK_BACK` characters,
    # whichever is nearer: each key costs a bounded read, so a long line of keys (a JSON
    # line, an attack) stays linear.
    back = max(0, key_start - _LOOK_BACK)
    line_start = _line_head(text, key_start, back)
    if noun in ("password", "passwd") and key_start == head_start:
        # .netrc: `machine h login u password p`, one entry per line or one token per line
        line = lowered[line_start:key_start].strip()
        if _NETRC.search(line) or (
            not line and _NETRC.search(lowered, max(0, line_start - _LOOK_BACK), line_start)
        ):
            return True
    before = lowered[line_start:key_start].rstrip(" \t")
    # Dockerfile `ENV KEY value`, Windows `setx KEY value`, as the line's command
    if before.endswith(("env", "setx")) and (
        len(before) <= 4 or before[-5 if before.endswith("env") else -6] in " \t>"
    ):
        return True
    if ("with" in before or "using" in before) and _WITH_BEFORE.search(before):
        return True  # prose: `log in as u with password v`, `using the auth token v`
    if before.lstrip().startswith("user") and _HAPROXY_USER.fullmatch(before.lstrip()):
        return True  # HAProxy userlist: `user admin insecure-password v`
    if noun == "psk" and before.endswith(":"):
        return True  # strongSwan's ipsec.secrets: `left right : PSK "v"`
    if before.lstrip().startswith(("user", "enable")) and _DEVICE_USER.fullmatch(before):
        return True  # a network device's `username u [privilege 15] secret 0 v`, `enable ...`
    if before.endswith(_DIRECTIVE_ENDS) and _DIRECTIVE.search(before):
        return True  # `#define KEY "v"`, Apache `SetEnv KEY v`, nginx `proxy_set_header K v`
    if not before and _LONE_VALUE.match(text, head_start + len(noun)):
        # a directive alone on its line (msmtp `password v`, Apache `AuthLDAPBindPassword
        # "v"`): prose holds more words after the key
        return True
    near = max(line_start, key_start - 256)  # bounded: a long line costs one window per key
    window = lowered[near:key_start]  # each search below needs one of its words in it
    if ("set" in window or "config" in window) and _SET_COMMAND.search(lowered, near, key_start):
        return True  # `dotnet user-secrets set "S:Key" v`, `npm config set //h/:_authToken v`
    if ("create" in window or "alter" in window) and _SQL_ROLE.search(lowered, near, key_start):
        return True  # `CREATE USER u WITH PASSWORD 'v'`
    return not before and lowered.startswith(("requirepass", "masterauth"), key_start)  # redis


# A network device's configuration line (Cisco IOS and the CLIs that copy it) before its
# `password` or `secret`, and the type number before a value: 0 for clear text, 7 for the
# reversible encoding; a hash's type (5, 8, 9) is left to `_REFERENCE`, which reads `$`.
_DEVICE_USER = _ascii_re(r"[ \t]*(?:username[ \t]+\S+(?:[ \t]+privilege[ \t]+[0-9]+)?|enable)")
_DEVICE_TYPE = _ascii_re(r"[07][ \t]+(?=[^\s$])")


def _device_line(lowered: str, key_start: int) -> bool:
    line_start = _line_head(lowered, key_start)
    return _DEVICE_USER.fullmatch(lowered[line_start:key_start].rstrip(" \t")) is not None


# Directives that take a name and its value, as the words before the key on its line.
_DIRECTIVE = _ascii_re(
    r"(?:\A|[ \t;{>])(?:\#[ \t]*define|setenv|proxy_set_header|add_header"
    r"|(?:fastcgi|uwsgi|scgi)_param|(?:set|add)-header|header_(?:up|down))\Z"
)
# What every directive ends with: a cheap test before the regex.
_DIRECTIVE_ENDS = ("define", "setenv", "header", "_param", "_up", "_down")
_LONE_VALUE = _ascii_re(r"[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s\"'`]+)[ \t]*(?:\r?\n|\Z)")
# `set`/`config` commands that take a key and its value: `dotnet user-secrets set "S:Key" v`,
# `npm config set //host/:_authToken v`, `git config --global hub.token v`, `gh secret set K`.
_SET_COMMAND = _ascii_re(
    r"(?:\bset(?:[ \t]+--?[a-z]+)*"  # fish: `set -gx KEY v`, `set --export KEY v`
    r"|\bconfig(?:[ \t]+--(?:global|local|system|user))?)[ \t]+[\"']?\$?[a-z0-9_.:/@-]*\Z"
)
_HAPROXY_USER = _ascii_re(r"user[ \t]+[^\s]+")
_WITH_BEFORE = _ascii_re(r"\b(?:with|using)(?:[ \t]+[a-z0-9_-]+){0,2}\Z")  # lower-cased
# Prose that assigns: `Set STRIPE_API_KEY to v`, `change the admin password to v` (lower-cased;
# up to two words between the verb and the key, which may be quoted or in backticks).
_SET_TO = _ascii_re(r"to[ \t]+(?=[^\s])")
_SET_BEFORE = _ascii_re(r"\b(?:set|change|update)[ \t]+(?:[a-z0-9_.-]+[ \t]+){0,2}[`\"']?\Z")
_DEFAULT_ARGUMENT = _ascii_re(r"default[ \t]*=[ \t]*")
# A Terraform variable block's default, before any nested block closes it (bounded).
_TERRAFORM_DEFAULT = _ascii_re(r"\{[^{}]{0,512}?\bdefault[ \t]*=[ \t]*(?=[\"'])")
_SQL_ROLE = _ascii_re(r"\b(?:create|alter)[ \t]+(?:user|role|login)\b")  # ... WITH PASSWORD 'v'
_SQL_FOR = _ascii_re(r"for[ \t]+[^\s=]+[ \t]*=[ \t]*(?:password\((?=[\"']))?")  # FOR 'u'@'h' =
_KEY_ID = _ascii_re(r"(?:0x)?[0-9A-Fa-f]{8}(?:[0-9A-Fa-f]{8})?")  # a GPG key id, short or long
_FLAG_WORD = _ascii_re(r"-[A-Za-z][A-Za-z-]*(?=\s|\Z)")  # `-storepass  -dname`: no value
_BODY_FLAG = _ascii_re(r"(?:--body|-b)(?:[ \t]+|=|(?=[\"']))")
# After a key and blanks: an XML attribute's value (key="K" value="v"), or a fallback literal
# (`process.env.TOKEN || 'v'`, `X ?? "v"`, `X or "v"`).
_PAIRED_VALUE = _ascii_re(  # (Android's manifest: android:name="K" android:value="v")
    r"(?i:(?:android:)?(value)[ \t]*=[ \t]*(?=[\"']))|(?:\|\||\?\?|or\b)[ \t]*(?=[\"'`])"
)
_POSITIONAL_NOUNS = frozenset(("auth", "credential", "credentials"))
# Google's app password, unquoted to its line's end: four groups of four lower-case letters.
_APP_PASSWORD = _ascii_re(r"[a-z]{4}(?: [a-z]{4}){3}(?=[ \t]*(?:\r?\n|\Z))")
_APP_PASSWORD_VALUE = _ascii_re(r"[a-z]{4}([- ])[a-z]{4}(?:\1[a-z]{4}){2}")  # Apple's and Google's
# Two string literals as the first arguments: ("user", "v"); the second is the secret.
_TWO_LITERALS = _ascii_re(
    r"\(?[ \t]*([\"'])([^\"'\\\n]*)\1[ \t]*,[ \t]*([\"'])([^\"'\\\n]*)\3[ \t]*[),.]"
)


def _second_literal(text: str, at: int) -> tuple[int, int] | None:
    """The second of two string literals at `at` (a call's first two arguments or a tuple),
    unless it is a placeholder, a reference or a template."""
    m = _TWO_LITERALS.match(text, at)
    if m is not None and not m.group(2):  # ("", "user", "v", host): Go smtp.PlainAuth
        m = _TWO_LITERALS.match(text, m.start(3))
    if m is None:
        return None
    value = m.group(4)
    if _is_placeholder(value, "password") or _REFERENCE.match(value):
        return None
    if _TEMPLATE_INSIDE.search(value):
        return None
    return m.span(4)


_CURL_USER = _ascii_re(r"(?:-u|--user)(?:[ \t]+|=)?([\"']?)[^\s:\"'`]*:([^\s\"'`),;]+)\1")


def _attached_p_tool(lowered: str) -> bool:
    """A tool that takes `-pPASSWORD` is named in the text (mysql, mariadb, sshpass, 7z)."""
    return "mysql" in lowered or "mariadb" in lowered or "sshpass" in lowered or "7z" in lowered


_MYSQL_P = _ascii_re(r"(?<=\s)-p(?:[ \t]*([\"'])([^\s\"']+)\1|([^\s\"'-][^\s\"']*))")
# host:port:database:user:password, the port 2 to 5 digits or `*`; the gate is the part from
# the port's colon on, so a clock time (`09:26:53 INFO`) does not start the line scan.
# The database and user hold no quote, brace, bracket or comma: JSON after a clock time
# (`...03:25:17.680Z"}}","interrupted":false`) is not a line of the file.
_PGPASS = re.compile(
    r"(?:^(?:" + _GUTTER_PATTERN + r")?|(?<=[\"']))"
    r"[^\s:#\"']+:(?:[0-9]{2,5}|\*):[^\s:\"'{}\[\],]+:[^\s:\"'{}\[\],]+"
    r":([^\s\"'\\]+)(?=[\"'\\]|$)",
    re.ASCII | re.MULTILINE,
)
_PGPASS_GATE = _ascii_re(r":(?:[0-9]{2,5}|\*):[^\s:\"'{}\[\],]+:[^\s:\"'{}\[\],]+:\S")
# Every flag below holds one, after a blank, a dash (`--user` holds `-u`) or the start.
_DASH_FLAGS = _ascii_re(r"-[upaPwkbAU](?<![^\s-]-[upaPwkbAU])")
# A tool's password flag and its argument: `-p v`, `-p 'v'`, `-p"v"`.
_TOOL_FLAG = _ascii_re(
    r"-([paPwkb])(?:[ \t]+|(?=[\"']))(?:([\"'])([^\"'\\\n]*)\2|([^\s\"'\\-][^\s\"'\\]*))"
)
_TOOL_WORDS = _ascii_re(
    r"\b(?:(sshpass|login|twine|mongo(?:sh|dump|restore|import|export)?|rdesktop|cqlsh"
    r"|rabbitmqadmin)"
    r"|(redis-cli)|(sqlcmd|bcp|osql|zip|unzip|mosquitto_(?:pub|sub|rr)|ipmitool)|(ldap[a-z]+)"
    r"|(openssl)|(curl))\b"
)
_FLAG_GROUP = {"p": 1, "a": 2, "P": 3, "w": 4, "k": 5, "b": 6}  # the tool a flag needs
_TOOL_FLAGS = frozenset("-" + letter for letter in _FLAG_GROUP)  # -p, -a, -P, -w, -k, -b
# SQL: `IDENTIFIED [WITH plugin] BY 'v'` (MySQL, Oracle), read on lower-cased text.
_SQL_IDENTIFIED = _ascii_re(
    r"fied(?<=identified)[ \t]+(?:with[ \t]+[a-z0-9_]+[ \t]+)?by[ \t]+(?:password[ \t]+)?"
)
_SQL_BARE = _ascii_re(r"[^\s;'\"`,)\\]+")
_COOKIE_PAIR = _ascii_re(r"[ \t]*([^=;,\s\"'\\]+)=([^;,\s\"'\\]*)")
_SESSION_COOKIE = _ascii_re(
    r"sess|sid|auth|token|login|remember|jwt|secret|csrf|xsrf|key|pass|ident"
)
# A cookie as a name/value object (a HAR file's `"cookies"`, a browser's export): its name
# (read lower-cased), its `"value"` after it in the same object (read as written: the
# prefilter's literal gates it), and the members that say it is a cookie when no
# `"cookies"` list comes before it.
_COOKIE_NAME_MEMBER = _ascii_re(r'"name"[ \t]*:[ \t]*"([^"\\\n]{1,128})"')
_VALUE_MEMBER = _ascii_re(r'"?value"[ \t]*:[ \t]*"')  # (the text as written: `"value"`)
_VALUE_MEMBER_LITERAL = '"value"'
_COOKIE_FIELDS = ('"domain"', '"path"', '"httponly"', '"expires"', '"samesite"', '"secure"')
_LOGIN_CALL = _ascii_re(r"gin\((?<=login\()(?=[ \t]*[\"'])")  # smtp.login("user", "v"), from `gin(`


def _find_keyed_special(text: str, lowered: str, present: frozenset[str]) -> _Spans:
    """Syntaxes whose secret has no key in front: curl -u, mysql -p, .pgpass lines, a
    literal a later flag marks."""
    out: _Spans = []
    flags = set(_DASH_FLAGS.findall(text))  # one scan for both flags (`--user` holds `-u`)
    i = text.find("-u") if "-u" in flags else -1  # curl -u user:password, --user user:password
    while i != -1:
        m = _CURL_USER.match(text, i) if i == 0 or text[i - 1] in " \t\n" else None
        if m is not None:
            value = m.group(2)
            if not _is_placeholder(value, "password") and not _REFERENCE.match(value):
                out.append(m.span(2))
        i = text.find("-u", i + 1)
    i = text.find("--user") if "-u" in flags else -1
    while i != -1:
        m = _CURL_USER.match(text, i) if i == 0 or text[i - 1] in " \t\n" else None
        if m is not None:
            value = m.group(2)
            if not _is_placeholder(value, "password") and not _REFERENCE.match(value):
                out.append(m.span(2))
        i = text.find("--user", i + 1)
    if not flags.isdisjoint(_TOOL_FLAGS):
        out.extend(_tool_flag_values(text, lowered))
    for dash, flag in (("-A", "-asplaintext"), ("-p", "--password-stdin")):
        if dash in flags:
            out.extend(_flagged_literals(text, lowered, flag))
    if "-p" in flags and _attached_p_tool(lowered):
        for m in _MYSQL_P.finditer(text):
            group = 2 if m.group(2) is not None else 3
            value = m.group(group)
            if not _is_placeholder(value, "password") and not _REFERENCE.match(value):
                out.append(m.span(group))
    if _PGPASS_GATE.search(text):
        for m in _PGPASS.finditer(text):
            if not _is_placeholder(m.group(1), "password") and not _REFERENCE.match(m.group(1)):
                out.append(m.span(1))
    # The two scans below find a word first; `in` skips text without it several times faster.
    for m in _SQL_IDENTIFIED.finditer(lowered) if "identified" in lowered else ():
        at = m.end()
        span = _quoted_value(text, at) if text[at : at + 1] in ("'", '"') else None
        bare = _SQL_BARE.match(text, at) if span is None else None
        span = bare.span() if bare is not None else span
        if span is not None and _sql_literal_secret(text[span[0] : span[1]]):
            out.append(span)
    for m in _LOGIN_CALL.finditer(lowered) if "login(" in lowered else ():
        at = m.start() - 2  # where `login` starts
        if at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_"):
            span = _second_literal(text, m.end())
            if span is not None:
                out.append(span)
    if "secret" in lowered:
        out.extend(_secret_store_values(text, lowered))
    if _VALUE_MEMBER_LITERAL in present:
        out.extend(_cookie_objects(text, lowered))
    for m in _POETRY_BASIC.finditer(text) if "http-basic." in lowered else ():
        which = "q" if m.group("q") is not None else "bare"
        if _literal_secret(m.group(which)):
            out.append(m.span(which))
    out.extend(_positional_values(text, flags, present))
    out.extend(_positional_call_values(text, present))
    if _RANDOM_PASSWORD in present:
        out.extend(_random_password_results(text))
    if _BEARER in present:
        out.extend(_bearer_literals(text))
    if not present.isdisjoint(_PRINT_LITERALS):
        out.extend(_printed_secrets(text))
    if not present.isdisjoint(_REPL_LITERALS):
        out.extend(_repl_values(text))
    if not present.isdisjoint(_SMTP_LITERALS):
        out.extend(_smtp_credentials(text))
    out.extend(_handed_over(text, lowered))
    return out


def _cookie_objects(text: str, lowered: str) -> _Spans:
    """The value of a session-like cookie given as a name/value object:
    `{"name": "sessionid", "value": v, "path": "/"}` under a `"cookies"` list, or with a
    cookie's own members (`"domain"`, `"httpOnly"`...) in the object. An object cut off
    before its `}` (an excerpt) is read up to `_MAX_VALUE` characters on."""
    out: _Spans = []
    listed = lowered.find('"cookies"')
    for m in _COOKIE_NAME_MEMBER.finditer(lowered):
        start = lowered.rfind("{", max(0, m.start() - _MAX_VALUE), m.start())
        if start == -1 or _SESSION_COOKIE.search(m.group(1)) is None:
            continue
        end = lowered.find("}", m.end(), m.end() + _MAX_VALUE)
        end = min(len(text), m.end() + _MAX_VALUE) if end == -1 else end
        if not (-1 < listed < start or any(f in lowered[start:end] for f in _COOKIE_FIELDS)):
            continue
        member = _VALUE_MEMBER.search(text, m.end(), end)
        if member is None or text[member.start()] != '"':
            continue
        close = text.find('"', member.end(), end)
        if close != -1 and _literal_secret(text[member.end() : close]):
            out.append((member.end(), close))
    return out


# A secret store's write command (on lower-cased text), and where it takes its value: a
# `--value` or `--secret-string` argument or a here-string after it on its line, or a
# literal piped into it (`echo v |`) before it.
_SECRET_STORE_COMMAND = _ascii_re(
    r"secret(?:"  # one literal first: the engine jumps between its occurrences in C
    r"(?<=\bsecret)s?(?:[ \t]+|:)(?:set|put|create|add|versions[ \t]+add)\b"  # az, firebase
    r"|(?<=\bcreate-secret)\b|(?<=\bput-secret)-value\b)"  # aws secretsmanager
)
_STORE_VALUE = _ascii_re(
    r"(?:--value|--secret-string)(?:[ \t]+|=)|<<<[ \t]*"
    r"(?=[\"']?[^\s\"'])"  # what follows is read as a literal below
)
_STORE_LITERAL = _ascii_re(r"([\"'])(?P<q>[^\"'\n]+)\1|(?P<bare>[^\s\"'|;&<>]+)")
# poetry config http-basic.<repository> <user> <password>
_POETRY_BASIC = _ascii_re(
    r"\bconfig[ \t]+http-basic\.[A-Za-z0-9_.-]+[ \t]+[^\s\"']+[ \t]+"
    r"(?:([\"'])(?P<q>[^\"'\n]+)\1|(?P<bare>[^\s\"']+))"
)


def _secret_store_values(text: str, lowered: str) -> _Spans:
    """`az keyvault secret set --value v`, `aws secretsmanager create-secret --secret-string
    v`, `gcloud secrets create s --data-file=- <<< v`, `echo v | wrangler secret put K`."""
    out: _Spans = []
    for m in _SECRET_STORE_COMMAND.finditer(lowered):
        start = max(text.rfind("\n", 0, m.start()) + 1, m.start() - _MAX_VALUE)
        end = text.find("\n", m.end(), m.end() + _MAX_VALUE)
        end = min(len(text), m.end() + _MAX_VALUE) if end == -1 else end  # bounded: linear
        marks = [v.end() for v in _STORE_VALUE.finditer(text, m.end(), end)]
        piped = list(_LITERAL_BEFORE["--password-stdin"].finditer(text, start, m.start()))
        spans = [(p.span("q") if p.group("q") is not None else p.span("bare")) for p in piped[-1:]]
        for at in marks:
            literal = _STORE_LITERAL.match(text, at, end)
            if literal is not None:
                spans.append(literal.span("q" if literal.group("q") is not None else "bare"))
        out.extend(span for span in spans if _literal_secret(text[span[0] : span[1]]))
    return out


# Passwords a tool takes where no key names them, each looked for only where its tool's
# name or flag occurs (`_KEYED_LITERALS`, the dash flags):
# - `rabbitmqctl add_user u v`, `rabbitmqctl change_password u v`, `htpasswd -b [file] u v`:
#   the last of the words the command takes (`-n` prints instead of writing a file).
_POSITIONAL_COMMAND = _ascii_re(
    r"\b(?:rabbitmqctl(?:[ \t]+-\S+)*[ \t]+(?:add_user|change_password)"
    r"|htpasswd[ \t]+-(?:[a-z]*n[a-z]*b|b[a-z]*n)[a-zA-Z]*"  # -nb: no file, printed
    r"|htpasswd[ \t]+-[a-mo-zA-Z]*b[a-mo-zA-Z]*[ \t]+(?:-\S+[ \t]+)*[^\s\"']+)"  # -b file
    r"[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s\"']+)[ \t]+(?P<q>[\"']?)(?P<v>[^\s\"']+)(?P=q)(?=\s|\Z)"
)
# - A `user:v` or `user%v` pair after the flag of the tool the line runs: httpie `-a` or
#   `--auth`, Samba `-U user%v`; FreeRDP's own `/p:v`. Each starts at its tool's name.
_HTTPIE_AUTH = _ascii_re(
    r"(?:^|(?<=[\s;|&]))(?:https?|xhs?)[ \t][^\n]{0,256}?(?<=[ \t])(?:-a|--auth)(?:[ \t]+|=)"
    r"(?P<q>[\"']?)[^\s:\"'`]*:(?P<v>[^\s\"'`]+)(?P=q)(?=\s|\Z)"
)
_SAMBA_USER = _ascii_re(
    r"\b(?:smbclient|rpcclient|smbcacls|smbget|net)[ \t][^\n]{0,256}?(?<=[ \t])"
    r"(?:-U|--user(?:name)?=)[ \t]*(?P<q>[\"']?)[^\s%\"']*%(?P<v>[^\s\"']+)(?P=q)(?=\s|\Z)"
)
_RDP_PASSWORD = _ascii_re(  # FreeRDP `/p:v`, Windows `cmdkey /pass:v`
    r"(?:freerdp|cmdkey)[ \t][^\n]{0,256}?(?<=[ \t])/p(?:ass(?:word)?)?:"
    r"(?P<q>[\"']?)(?P<v>[^\s\"']+)(?P=q)(?=\s|\Z)"
)
# - `openssl passwd [-6] v` (the hash of v is printed); `net user NAME v /add`;
#   `net use \\\\srv\\share [v] /user:NAME [v]`; `echo 'user:v' | chpasswd`;
#   `bundle config [set] HOST user:v`; an Oracle thin URL `jdbc:oracle:thin:user/v@`.
_OPENSSL_PASSWD = re.compile(
    r"\bopenssl[ \t]+passwd(?:[ \t]+-[0-9A-Za-z]+)*[ \t]+(?P<q>[\"']?)(?P<v>[^\s\"'-][^\s\"']*)"
    r"(?P=q)(?=[ \t]*(?:$|[)|;&\"'`]))",
    re.ASCII | re.MULTILINE,
)
_NET_USER = _ascii_re(
    r"\b(?i:net)[ \t]+(?i:user)[ \t]+[^\s/]+[ \t]+(?P<q>[\"']?)(?P<v>[^\s/*\"'][^\s\"']*)(?P=q)"
    r"(?=[ \t]+/)"
)
_NET_USE = _ascii_re(
    r"\b(?i:net)[ \t]+(?i:use)[ \t]+(?:[A-Za-z]:[ \t]+)?\\\\\S+"
    r"(?:[ \t]+(?P<v>[^\s/*\"']\S*))?[ \t]+/(?i:user):\S+(?:[ \t]+(?P<w>[^\s/*\"']\S*))?"
)
_CHPASSWD = _ascii_re(
    r"(?P<q>[\"'])[^\s:\"']+:(?P<v>[^\s\"']+)(?P=q)[ \t]*\|[ \t]*(?:sudo[ \t]+)?chpasswd\b"
)
_BUNDLE_CONFIG = _ascii_re(
    r"\bbundle[ \t]+config(?:[ \t]+set)?(?:[ \t]+--(?:global|local))?[ \t]+[A-Za-z0-9-]+"
    r"(?:\.[A-Za-z0-9-]+)+[ \t]+(?P<q>[\"']?)[^\s:\"']+:(?P<v>[^\s\"']+)(?P=q)"
)
_ORACLE_THIN = _ascii_re(r"jdbc:oracle:thin:[^\s/@:\"']+/(?P<v>[^\s@\"']{1,256})@")  # bounded
# - Oracle's `user/v[@db]` logon: `sqlplus [-S] user/v@db`, and `SQL> connect user/v@db`.
_ORACLE_LOGON = r"[ \t]+(?P<q>[\"']?)[A-Za-z0-9_$#]+/(?P<v>[^\s@/\"']+)(?P=q)(?=[@\s]|\Z)"
_SQLPLUS = _ascii_re(r"\bsqlplus(?:[ \t]+-[A-Za-z]+)*" + _ORACLE_LOGON)
_SQLPLUS_CONNECT = _ascii_re(r"SQL>[ \t]*(?i:conn(?:ect)?)" + _ORACLE_LOGON)
# - A variable's value echoed on the line after `printenv NAME` or `echo $NAME`: read as the
#   assignment `NAME=v` (the value alone on its line).
_ECHOED = _ascii_re(
    r"(?:printenv[ \t]+|echo[ \t]+\"?\$\{?)([A-Za-z_][A-Za-z0-9_]*)\}?\"?[ \t]*\r?\n"
    r"([^\s\"'`]+)[ \t]*(?=\r?\n|\Z)"
)


# A command that prints a stored secret's value, and that value alone on the next line: a
# Kubernetes secret's field through `base64 -d`, AWS Secrets Manager's `--output text`,
# `vault kv get -field=`, `gcloud secrets versions access`, `az keyvault secret show
# --query value`, the macOS keychain's `-w`, `pass show`, 1Password's `op read`. What it
# prints is the secret, whatever its key: only a placeholder or a reference is left alone.
_PRINTED_SECRET = _ascii_re(
    r"""(?x)(?:
      kubectl[ \t][^\n]{0,200}?\bget[ \t]+secrets?[ \t][^\n]{0,200}?jsonpath=[^\n]{0,160}?
        \|[ \t]*base64[ \t]+(?:-d|-D|--decode)
    | aws[ \t]+secretsmanager[ \t]+get-secret-value[ \t][^\n]{0,300}?--output[ \t]+text
    | vault[ \t]+(?:kv[ \t]+get|read)[ \t][^\n]{0,200}?-field=
    | gcloud[ \t]+secrets[ \t]+versions[ \t]+access[ \t]
    | az[ \t]+keyvault[ \t]+secret[ \t]+show[ \t][^\n]{0,300}?--query[ \t]+["']?value\b
    | security[ \t]+find-(?:generic|internet)-password[ \t](?=[^\n]{0,200}?[ \t]-w\b)
    | (?<![A-Za-z0-9_-])(?:go)?pass[ \t]+show[ \t]
    | (?<![A-Za-z0-9_-])op[ \t]+read[ \t]+["']?op://
    )[^\n]{0,300}\n(?P<v>[^\s]{6,1024})[ \t]*(?=\r?\n|\Z)"""
)
_PRINT_LITERALS = frozenset(
    (
        *("jsonpath=", "get-secret-value", "-field=", "versions access", "keyvault secret"),
        *("find-generic-password", "find-internet-password", "pass show", "op://"),
    )
)


# A debugger or a REPL that prints a name's value on the next line: `(Pdb) p settings.KEY`,
# `ipdb> p KEY`, Node's `> process.env.KEY`. Read as the assignment `KEY = 'v'`.
_REPL_PRINT = _ascii_re(
    r"(?:\(Pdb\)|ipdb>)[ \t]*(?:pp?[ \t]+)?(?:[A-Za-z_][A-Za-z0-9_]*\.)*(?P<k>[A-Za-z_]\w*)"
    r"[ \t]*\r?\n(?P<q>['\"])(?P<v>[^'\"\n]{1,1024})(?P=q)[ \t]*(?=\r?\n|\Z)"
    r"|process\.env\.(?P<ek>[A-Za-z_]\w*)[ \t]*\r?\n(?P<eq>['\"])(?P<ev>[^'\"\n]{1,1024})(?P=eq)"
    r"[ \t]*(?=\r?\n|\Z)"
)
_REPL_LITERALS = frozenset(("(Pdb)", "ipdb", "process.env."))


def _repl_values(text: str) -> _Spans:
    out: _Spans = []
    for m in _REPL_PRINT.finditer(text):
        group = "v" if m.group("v") is not None else "ev"
        name, value = m.group("k") or m.group("ek"), m.group(group)
        line = f"{name} = '{value}'"
        start = len(name) + 4
        if _find_keyed(line, frozenset()) == [(start, start + len(value))]:
            out.append(m.span(group))
    return out


# SMTP authentication in a session log: `AUTH PLAIN <base64 of NUL, user, NUL, password>`,
# and AUTH LOGIN's answer to `334 UGFzc3dvcmQ6` (base64 of `Password:`) on the next line.
_SMTP_PLAIN = _ascii_re(r"AUTH[ \t]+PLAIN[ \t]+(?P<v>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])")
_SMTP_LOGIN = _ascii_re(
    r"334[ \t]+UGFzc3dvcmQ6[^\n]{0,64}\n[ \t]*(?:->|>>>|C:|send:)?[ \t]*'?"
    r"(?P<v>[A-Za-z0-9+/]{8,}={0,2})(?:\\r\\n)?'?[ \t]*(?=\r?\n|\Z)"  # alone on its line
)
_SMTP_LITERALS = frozenset(("AUTH PLAIN", "UGFzc3dvcmQ6"))


def _smtp_credentials(text: str) -> _Spans:
    out = [m.span("v") for m in _SMTP_LOGIN.finditer(text)]
    for m in _SMTP_PLAIN.finditer(text):
        blob = m.group("v")
        try:
            decoded = base64.b64decode(blob + "=" * (-len(blob) % 4), validate=True)
        except (binascii.Error, ValueError):
            continue
        if decoded.count(b"\x00") == 2:  # authorization id, NUL, user, NUL, password
            out.append(m.span("v"))
    return out


def _printed_secrets(text: str) -> _Spans:
    """The values `_PRINTED_SECRET` finds after a command that runs on its own line: one
    inside `$(...)`, backticks or an assignment prints nothing there."""
    out: _Spans = []
    for m in _PRINTED_SECRET.finditer(text):
        before = text[text.rfind("\n", 0, m.start()) + 1 : m.start()]
        value = m.group("v")
        if any(mark in before for mark in ("$(", "`", "=")) or value.startswith(_PATH_STARTS):
            continue
        if _literal_secret(value):
            out.append(m.span("v"))
    return out


def _positional_values(text: str, flags: set[str], present: frozenset[str]) -> _Spans:
    """Passwords given to a tool by position or in a pair (see the expressions above)."""
    if not present and not flags:
        return []  # each branch needs a literal or a flag
    found: list[re.Match[str]] = []
    if "rabbitmqctl" in present or "htpasswd" in present:
        found += _POSITIONAL_COMMAND.finditer(text)
    if "-a" in flags and ("http" in text or "xh" in text):
        found += _HTTPIE_AUTH.finditer(text)
    if "-U" in flags and "%" in text:
        found += _SAMBA_USER.finditer(text)
    if not present.isdisjoint(_RDP_LITERALS):
        found += _RDP_PASSWORD.finditer(text)
    if not present.isdisjoint(_COOKIES_TXT_LITERALS):
        found += _COOKIES_TXT.finditer(text)
    for pattern, literal in _TOOL_PATTERNS:
        if literal in present:
            found += pattern.finditer(text)
    out = [
        m.span(group)
        for m in found
        for group in ("v", "w")
        if group in m.re.groupindex and m.group(group) is not None
        if _literal_secret(m.group(group))
    ]
    if "printenv" in present or "echo $" in present or 'echo "$' in present:
        for m in _ECHOED.finditer(text):
            name, value = m.group(1, 2)
            start = len(name) + 1
            if _find_keyed(name + "=" + value, frozenset()) == [(start, start + len(value))]:
                out.append(m.span(2))  # `NAME=value` is a key-named secret
    return out


_RDP_LITERALS = frozenset(("/p:", "/pass:", "/pass" + "word:"))  # FreeRDP, cmdkey
# - A Netscape cookies.txt line (curl's cookie jar, wget, yt-dlp): domain, subdomains flag,
#   path, secure flag, expiry, then a session-like cookie's name and its value, by tabs.
_COOKIES_TXT = _ascii_re(
    r"(?m)^(?:" + _GUTTER_PATTERN + r")?(?:#HttpOnly_)?[^\s#][^\t\n]*\t(?:TRUE|FALSE)\t[^\t\n]*"
    r"\t(?:TRUE|FALSE)\t-?[0-9]+\t"
    r"[^\t\n]*(?i:" + _SESSION_COOKIE.pattern + r")[^\t\n]*\t(?P<v>[^\t\r\n]+)"
)
_COOKIES_TXT_LITERALS = frozenset(("\tTRUE\t", "\tFALSE\t"))  # one flag field or both
# - Postman's API-key auth: `"apikey": [{"key": "value", "value": v}, {"key": "key", ...}]`,
#   where the member named `value` holds the key.
_POSTMAN_API_KEY = _ascii_re(
    r"\"apikey\"[ \t]*:[ \t]*\[[^\]]{0,512}?\"key\"[ \t]*:[ \t]*\"value\"[ \t]*,[^\"]{0,64}"
    r"\"value\"[ \t]*:[ \t]*\"(?P<v>[^\"\\\n]+)\""
)
# - Weights & Biases: `wandb login v`, `wandb.login(key="v")`.
_WANDB_LOGIN = _ascii_re(
    r"\bwandb(?:[ \t]+login(?:[ \t]+--[a-z-]+)*[ \t]+|\.login\([^)\n]{0,80}?\bkey[ \t]*=[ \t]*)"
    r"([\"']?)(?P<v>[A-Za-z0-9_-]{32,})\1"
)
# - An installer's answer file: kickstart's `rootpw [--plaintext] v` (not `--iscrypted`),
#   a preseed's `d-i passwd/root-password[-again] password v`.
_KICKSTART_ROOTPW = _ascii_re(
    r"(?m)^(?:" + _GUTTER_PATTERN + r")?rootpw[ \t]+(?:--plaintext[ \t]+)?(?!--)(?P<v>\S+)"
)
_PRESEED_PASSWORD = _ascii_re(
    r"(?m)^(?:" + _GUTTER_PATTERN + r")?d-i[ \t]+passwd/\S*password(?:-again)?[ \t]+password"
    r"[ \t]+(?P<v>\S+)"
)
# - A cookie built by its class from a session-like name and a literal value: .NET's and
#   Java's `new Cookie("JSESSIONID", "v")`, PowerShell's `New-Object System.Net.Cookie(...)`.
_COOKIE_CLASS = _ascii_re(
    r"\bCookie\([ \t]*([\"'])[^\"'\n]*(?i:" + _SESSION_COOKIE.pattern + r")[^\"'\n]*\1"
    r"[ \t]*,[ \t]*([\"'])(?P<v>[^\"'\\\n]+)\2"
)
# Each expression above and the literal that switches it on.
_TOOL_PATTERNS = (
    (_OPENSSL_PASSWD, "openssl passwd"),
    (_NET_USER, "/add"),
    (_NET_USE, "/user:"),
    (_CHPASSWD, "chpasswd"),
    (_BUNDLE_CONFIG, "bundle config"),
    (_ORACLE_THIN, "jdbc:oracle:thin:"),
    (_SQLPLUS, "sqlplus"),
    (_SQLPLUS_CONNECT, "SQL>"),
    (_COOKIE_CLASS, "Cookie("),
    (_KICKSTART_ROOTPW, "rootpw"),
    (_POSTMAN_API_KEY, '"apikey"'),
    (_WANDB_LOGIN, "wandb"),
    (_PRESEED_PASSWORD, "d-i "),
)
# The literals that switch on the branches above (found by the prefilter, see `_scan`).
# Calls that take a password by position, by the name the call is made with: the index of
# the password among the call's arguments (0 is the first).
_POSITIONAL_CALLS = {
    "new PDO(": 2,  # PHP: new PDO($dsn, 'user', 'v')
    "new mysqli(": 2,  # new mysqli('host', 'user', 'v', 'db')
    "mysqli_connect(": 2,
    "DBI->connect(": 2,  # Perl: DBI->connect($dsn, 'user', 'v', {...})
    "getConnection(": 2,  # Java: DriverManager.getConnection(url, "user", "v")
    "Sql.newInstance(": 2,  # Groovy: Sql.newInstance(url, 'user', 'v', driver)
    "new Sequelize(": 2,  # new Sequelize('db', 'user', 'v', {...})
    "mysql_real_connect(": 3,  # C: mysql_real_connect(conn, host, user, v, db, ...)
    "changeUserPassword(": 1,  # MongoDB shell: db.changeUserPassword('user', 'v')
    "Credentials.basic(": 1,  # OkHttp: Credentials.basic("user", "v")
    "AuthenticationHeaderValue(": 1,  # .NET: new AuthenticationHeaderValue("Bearer", "v")
    "unsafePlainText(": 0,  # AWS CDK: SecretValue.unsafePlainText('v')
    "postgresql_password(": 1,  # Puppet: postgresql::postgresql_password('user', 'v')
}
_CALL_ARGUMENTS_SPAN = 512  # characters an argument list may span; further ones are not read


def _call_arguments(text: str, open_paren: int) -> list[tuple[int, int]]:
    """Spans of the arguments of the call whose `(` is at `open_paren`, blanks trimmed, up
    to its closing `)`; none when it does not close within `_CALL_ARGUMENTS_SPAN`."""
    spans: list[tuple[int, int]] = []
    depth, quote, start = 0, "", open_paren + 1
    limit = min(len(text), open_paren + _CALL_ARGUMENTS_SPAN)
    i = start
    while i < limit:
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'`":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}" and depth:
            depth -= 1
        elif ch in ",)" and not depth:
            spans.append(_trimmed(text, start, i))
            if ch == ")":
                return spans
            start = i + 1
        i += 1
    return []  # no closing parenthesis within reach: not read


def _trimmed(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and text[a] in " \t\r\n":
        a += 1
    while b > a and text[b - 1] in " \t\r\n":
        b -= 1
    return a, b


def _positional_call_values(text: str, present: frozenset[str]) -> _Spans:
    """The quoted literal a known call takes as its password (`_POSITIONAL_CALLS`)."""
    out: _Spans = []
    if present.isdisjoint(_POSITIONAL_CALLS):
        return out
    for name, index in _POSITIONAL_CALLS.items():
        at = text.find(name) if name in present else -1
        while at != -1:
            args = _call_arguments(text, at + len(name) - 1)
            if index < len(args):
                a, b = args[index]
                literal = b - a >= 2 and text[a] in "\"'" and text[b - 1] == text[a]
                if literal and _literal_secret(text[a + 1 : b - 1]):
                    out.append((a + 1, b - 1))
            # Past a list that does not close, the next call starts beyond the part read:
            # the same name repeated inside it costs one read, not one each.
            resume = at + 1 if args else at + len(name) + _CALL_ARGUMENTS_SPAN
            at = text.find(name, resume)
    return out


# Terraform keeps a `random_password` resource's value in its state in plain text, under
# `"result"` (`terraform show -json` prints it the same way): each `"result"` whose resource
# (the nearest `"mode"` before it, which only a resource holds) has that `"type"`. A
# `random_string`'s result is often a name, and stays.
_RANDOM_PASSWORD = '"random_password"'
_STATE_MODE = _ascii_re(r'"mode"[ \t]*:[ \t]*"(?:managed|data)"')
_STATE_TYPE = _ascii_re(r'"type"[ \t]*:[ \t]*("[A-Za-z0-9_]+")')
_STATE_RESULT = _ascii_re(r'"result"[ \t]*:[ \t]*"((?:[^"\\\n]|\\.)+)"')
_RESOURCE_HEAD = 512  # characters after `"mode"` where its resource's `"type"` is read


def _random_password_results(text: str) -> _Spans:
    modes = [m.start() for m in _STATE_MODE.finditer(text)]
    out: _Spans = []
    for m in _STATE_RESULT.finditer(text):
        at = bisect_left(modes, m.start()) - 1
        if at < 0:
            continue
        head = min(m.start(), modes[at] + _RESOURCE_HEAD)
        kind = _STATE_TYPE.search(text, modes[at], head)
        if kind is None or kind.group(1) != _RANDOM_PASSWORD:
            continue
        if not _is_placeholder(m.group(1), "password"):  # random by construction
            out.append(m.span(1))
    return out


# A string literal that is a whole bearer credential, wherever it is used (Swift's
# `setValue("Bearer v", forHTTPHeaderField: "Authorization")`: the header's name comes
# after it): 16 or more token characters with a letter and a digit, up to the quote.
_BEARER = "Bearer "
_BEARER_LITERAL = _ascii_re(r"(?<=[\"'`])Bearer[ \t]+(?P<v>[A-Za-z0-9._~+/=-]{16,})(?=[\"'`])")


def _bearer_literals(text: str) -> _Spans:
    out: _Spans = []
    for m in _BEARER_LITERAL.finditer(text):
        value = m.group("v")
        if _HAS_DIGIT(value) and any(c.isalpha() for c in value) and _literal_secret(value):
            out.append(m.span("v"))
    return out


_KEYED_LITERALS = (
    frozenset(("rabbitmqctl", "htpasswd", "printenv", _RANDOM_PASSWORD, _BEARER))
    | _PRINT_LITERALS
    | _REPL_LITERALS
    | _SMTP_LITERALS
    | _RDP_LITERALS
    | _COOKIES_TXT_LITERALS
    | _SALT_LITERALS
    | frozenset((_VALUE_MEMBER_LITERAL,))
    | frozenset(("echo $", 'echo "$'))
    | frozenset(literal for _, literal in _TOOL_PATTERNS)
    | frozenset(_POSITIONAL_CALLS)
)


def _literal_secret(value: str) -> bool:
    return not _is_placeholder(value, "password") and not _REFERENCE.match(value)


def _sql_literal_secret(value: str) -> bool:
    """A SQL value that is a literal, not a bind variable (`:new_password`, `@pw`, `?`)."""
    return not value.startswith((":", "@", "?")) and _literal_secret(value)


def _tool_flag_values(text: str, lowered: str) -> _Spans:
    """`docker login -p v`, `sshpass -p v`, `redis-cli -a v`, `sqlcmd -P v`, `ldapsearch -w v`,
    `openssl enc -k v`, `curl -b 'session=v'`: a password flag of the tool the line runs."""
    out: _Spans = []
    for m in _TOOL_FLAG.finditer(text):
        at = m.start()
        if at > 0 and text[at - 1] not in " \t":
            continue
        line_start = max(text.rfind("\n", max(0, at - 256), at) + 1, at - 256, 0)
        tools = _TOOL_WORDS.search(lowered, line_start, at)
        while tools is not None and tools.group(_FLAG_GROUP[m.group(1)]) is None:
            tools = _TOOL_WORDS.search(lowered, tools.end(), at)
        group = 3 if m.group(3) is not None else 4
        if tools is None:
            continue
        if m.group(1) == "b":
            out.extend(_session_cookies(text, m.start(group)))  # curl -b 'sessionid=v'
        elif _literal_secret(m.group(group)):
            out.append(m.span(group))
    return out


def _session_cookies(text: str, at: int) -> _Spans:
    """Values of the session-like cookies (`sessionid`, `_app_session`, `PHPSESSID`,
    `remember_token`...) in the `name=value; ...` list starting at `at`, or in the value
    of a name/value object there (a HAR header: `{"name": "Cookie", "value": "a=b; c=d"}`)."""
    out: _Spans = []
    member = _VALUE_MEMBER.match(text, at)
    at = at if member is None else member.end()
    limit = min(len(text), at + _MAX_VALUE)  # bounded: a long line costs one window per header
    end = text.find("\n", at, limit)
    end = limit if end == -1 else end
    while at < end:
        pair = _COOKIE_PAIR.match(text, at, end)
        if pair is None:
            break
        name, value = pair.group(1).lower(), pair.group(2)
        if (
            _SESSION_COOKIE.search(name)
            and _literal_secret(value)
            and not _is_code(value, "=", True, "", False)
        ):
            out.append(pair.span(2))
        at = pair.end()
        if not text.startswith((";", ","), at):
            break
        at += 1
    return out


# --------------------------------------------------------------------------------------------
# Storage-only rules
# --------------------------------------------------------------------------------------------

# An email address: a local part that starts a word, `@`, a domain with a dot and a
# letters-only last label. `_find_email` finds its matches from each `@`.
_EMAIL_DOMAIN = _ascii_re(r"@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
_EMAIL_LOCAL = _ALNUM | frozenset("._%+-")
_EMAIL = _ascii_re(r"(?<![A-Za-z0-9._%+\-])[A-Za-z0-9._%+\-]+" + _EMAIL_DOMAIN.pattern)
_ENTROPY_CLASS = r"A-Za-z0-9!#$%&*+\-./:=?@\\^_|~"
_ENTROPY_RUN = _ascii_re("[" + _ENTROPY_CLASS + "]{" + str(ENTROPY_MIN_RUN) + ",}")
_ENTROPY_TABLE = bytes(
    97 if re.fullmatch("[" + _ENTROPY_CLASS + "]", chr(i)) else 32 for i in range(256)
)


_ENTROPY_MIN = b"a" * ENTROPY_MIN_RUN  # a run in `_ENTROPY_TABLE` classes


def _entropy_runs(text: str) -> list[tuple[int, int]]:
    """The maximal runs of `_ENTROPY_RUN`, in order.

    On ASCII text they are found in the byte classes with C-level searches: the regular
    expression retries every start inside a run shorter than the minimum, quadratic in the
    run's length, and source code is made of such runs (`self.assertEqual`).
    """
    if not text.isascii():
        return [m.span() for m in _ENTROPY_RUN.finditer(text)]
    classes = text.encode("ascii").translate(_ENTROPY_TABLE)
    runs: list[tuple[int, int]] = []
    pos = classes.find(_ENTROPY_MIN)
    while pos != -1:
        end = classes.find(b" ", pos)
        end = len(classes) if end == -1 else end
        runs.append((pos, end))
        pos = classes.find(_ENTROPY_MIN, end)
    return runs


def _find_high_entropy(text: str) -> _Spans:
    out: _Spans = []
    for a, b in _entropy_runs(text):
        run = text[a:b]
        if len(set(run)) < 23:
            continue  # too few distinct characters for the bound: no counting needed
        if _entropy_at_least(Counter(run).values(), len(run), 9):
            out.append((a, b))
    return out


def _find_email(text: str) -> _Spans:
    """The matches of `_EMAIL`, found from each `@`: the expression alone tries every
    character of every word as the start of a local part, quadratic in the word's length.
    A local part is the whole run of its characters before the `@` (the expression's
    look-behind), and a match never starts inside the previous one."""
    out: _Spans = []
    last = 0
    at = text.find("@")
    while at != -1:
        start = at
        while start > 0 and text[start - 1] in _EMAIL_LOCAL:
            start -= 1
        domain = _EMAIL_DOMAIN.match(text, at) if last <= start < at else None
        if domain is not None:
            out.append((start, domain.end()))
            last = domain.end()
        at = text.find("@", at + 1)
    return out


# --------------------------------------------------------------------------------------------
# The rule records
# --------------------------------------------------------------------------------------------


class _Anchor(NamedTuple):
    """A literal every match of a rule holds, and where the match sits relative to it.

    `shift`: the match starts at the literal's start plus `shift` (the regex is tried there).
    `run_at`: when set, every match holds a run of 30 or more ASCII letters and digits that
    starts exactly `run_at` characters after the literal's start (the run's first character
    is not preceded by a letter or digit). Such literals are looked for only next to such a
    run, which benign text rarely has, so they cost nothing on ordinary text.
    `b64_run`: instead, the literal is looked for only on the lines that hold a run of 32
    or more base64 characters (letters, digits, `+`, `/`), which every match holds. (A
    literal holding an upper-case letter or digit at which the prefilter stops anyway is
    looked for everywhere.)
    `key_word`: a vendor's word in the key a value is assigned to, looked for in any letter
    case in the `_KEY_WORD_BACK` characters before each run of `_WIDE_RUN` base64 and
    base64url characters on its line that is assigned (after `=`, `:` or `=>`) and holds a
    digit (`_key_windows`): a gate, not a promise, since a shorter value beside its word
    is not looked for (a documented limit; the rule's expression reads the word and value).
    `url_run`: as `b64_run`, for a prefix whose body is base64url, where `-` and `_` cut every
    base64 run: the literal is looked for only on the lines that hold a run of 32 or more
    letters, digits, `-` and `_`, which the whole match is.
    `wide_run`: the literal is looked for (with `in`) only in text that holds a run of 24
    or more characters of base64 and base64url together (`_WIDE_RUN`), which every match
    holds: most text has none, and the prefilter never stops at the literal's common
    character (`.` for `sl.`).
    """

    literal: str
    shift: int = 0
    run_at: int | None = None
    b64_run: bool = False
    url_run: bool = False
    wide_run: bool = False
    key_word: bool = False


class _ShapeRule(NamedTuple):
    """One secret shape: everything the module knows about it, in one place.

    A rule matches either with `pattern`, a regular expression tried (with `re.match`) only
    where one of its `anchors` occurs, or with `finder`, a hand-written scanner for shapes a
    regular expression cannot decide (decoding, entropy, context) that runs only when one of
    its anchors occurs or its `gate` says the text can hold a match.
    """

    name: str
    description: str
    anchors: tuple[_Anchor, ...] = ()
    pattern: str = ""
    finder: _Finder | None = None
    storage_finder: _Finder | None = None  # storage variant when it differs from `finder`
    # A finder told which literals `_scan` found, for a rule whose branches are switched on
    # by literals of their own (its anchors); used at both boundaries.
    literal_finder: _Spans2Finder | None = None
    also_needs: str = ""  # a word every match holds beyond its anchor (checked with `in`)
    # Prefilter probes for a rule without literals: (stop character, look-around regex that
    # must hold at that character); the rule runs when one probe fires.
    probes: tuple[tuple[str, str], ...] = ()
    # A whole-text gate: "b64-run", "at-sign", "entropy-run" or "always"; or "wide-run", for
    # a cheap finder whose every match holds a run of `_WIDE_RUN`: `_scan` tries the finder
    # itself on text that holds such a run, and the rule runs if it found any.
    gate: str = ""
    boundary: str = "both"  # "both" or "storage" (a storage-only marker kind)


def _at(*literals: str) -> tuple[_Anchor, ...]:
    """Anchors for literals where every match starts."""
    return tuple(_Anchor(lit) for lit in literals)


def _body_after(*literals: str) -> tuple[_Anchor, ...]:
    """Anchors for prefixes followed by a body of 30 or more letters and digits."""
    return tuple(_Anchor(lit, 0, len(lit)) for lit in literals)


_GITLAB_PREFIXES = "pat|dt|rt|ptt|ft|imt|soat|oas|agent|cbt|ffct"

_AUTH_PROBE = r"(?<=[Aa][Uu][Tt][Hh][Oo][Rr][Ii][Zz])(?=[Aa][Tt][Ii][Oo][Nn]:)"

# Vendor token formats, one record each. A new vendor is one record here plus its tests;
# order matters only where two rules can match the same text (the first one wins).
_VENDOR_RULES: tuple[_ShapeRule, ...] = (
    # --- vendor token rules: begin ---
    _ShapeRule(
        "aws-key",
        "AWS access key id (AKIA, ASIA, ABIA, ACCA, A3T)",
        _at("AKIA", "ASIA", "ABIA", "ACCA", "A3T"),
        # sixteen characters that are not one character sixteen times (AKIAXXXXXXXXXXXXXXXX)
        r"\b(?:AKIA|ASIA|ABIA|ACCA|A3T[0-9A-Z])(?!([0-9A-Z])\1{15})[0-9A-Z]{16}\b",
    ),
    _ShapeRule(
        "stripe-key",
        "Stripe secret, publishable or restricted key, or webhook signing secret",
        (
            _Anchor("k_live_", -1),
            _Anchor("k_test_", -1),
            _Anchor("k_prod_", -1),
            _Anchor("whsec_"),
        ),
        r"\b(?:[srp]k_(?:live|test|prod)_[0-9A-Za-z]{16,}|whsec_[0-9A-Za-z]{24,})\b",
    ),
    _ShapeRule(
        "github-token",
        "GitHub classic (ghp_/gho_/ghu_/ghs_/ghr_) or fine-grained token",
        (*_body_after("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), _Anchor("github_pat_")),
        r"\b(?:gh[pousr]_[0-9A-Za-z]{36,}|github_pat_[0-9A-Za-z_]{40,})\b",
    ),
    _ShapeRule(
        "gitlab-token",
        "GitLab token of any documented prefix, routable suffix included",
        (*_at(*(f"gl{p}-" for p in _GITLAB_PREFIXES.split("|"))), _Anchor("GR1348941")),
        r"\b(?:gl(?:" + _GITLAB_PREFIXES + r")-|GR1348941)[0-9A-Za-z_-]{20,}"
        r"(?:\.[0-9A-Za-z_-]+)*",
    ),
    _ShapeRule(
        "google-api-key",
        "Google API key (AIza...)",
        _at("AIza"),
        # refuse a character six times in a row or a spelled-out alphabet (placeholders); a
        # key may end in "-", so the end is any place not between two word characters
        r"\bAIza(?![0-9A-Za-z_-]{0,29}?([0-9A-Za-z_-])\1{5})(?![0-9A-Za-z_-]{0,27}?abcdefgh)"
        r"[0-9A-Za-z_-]{35}(?:\b|(?![0-9A-Za-z_]))",
    ),
    _ShapeRule(
        "google-oauth",
        "Google OAuth access token (ya29.) or client secret (GOCSPX-)",
        _at("ya29.", "GOCSPX-"),
        r"\b(?:ya29\.|GOCSPX-)[0-9A-Za-z_-]{20,}(?:\.[0-9A-Za-z_-]+)*",
    ),
    _ShapeRule(
        "slack-token",
        "Slack bot, user, legacy, configuration or app-level token",
        _at("xox", "xapp-"),
        # Slack's token formats: numeric team/user ids, then a random tail. Placeholders
        # (`xoxb-xxxx`, `xoxp-1234567890`, `...-####`, `xoxe.xoxp-1-TokenHere`) fit none.
        r"""(?x)\b(?:
          xox[bpose](?:-[0-9]{8,})+-(?=[0-9-]*[A-Za-z])[0-9A-Za-z-]{8,}  # bot, user, legacy
        | xox[ar]-(?=[0-9A-Za-z-]*[0-9])[0-9A-Za-z-]{10,}            # workspace, refresh
        | xapp-[0-9]-[0-9A-Za-z]{6,}-[0-9]{8,}-[0-9A-Za-z]{16,}         # app-level
        | xoxe(?:\.xox[bp])?-[0-9]-[0-9A-Za-z]{100,}                # configuration, rotation
        )""",
    ),
    _ShapeRule(
        "slack-webhook",
        "Slack incoming, workflow or trigger webhook URL",
        _at("https://hooks.slack.com/"),
        # the whole path, and not one a placeholder continues (`.../<password>`, `.../****`)
        r"\bhttps://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/]+"
        r"(?![A-Za-z0-9/<*{$])",
    ),
    _ShapeRule(
        "discord-token",
        "Discord bot token",
        finder=_find_discord,
        gate="wide-run",  # its last part is a run of 27 or more
    ),
    _ShapeRule(
        "discord-webhook",
        "Discord webhook URL",
        _at("https://"),
        r"\bhttps://(?:(?:canary|ptb)\.)?discord(?:app)?\.com/api(?:/v[0-9]+)?"
        r"/webhooks/[0-9]+/[A-Za-z0-9_-]+",
        also_needs="discord",
    ),
    _ShapeRule(
        "telegram-bot-token",
        "Telegram bot token (<id>:A<34 chars>)",
        _at(":A"),
        finder=_find_telegram,
    ),
    _ShapeRule(
        "anthropic-key",
        "Anthropic API key (sk-ant-...)",
        _at("sk-ant-"),
        r"\bsk-ant-[A-Za-z0-9_-]{10,}",
    ),
    _ShapeRule(
        "openai-key",
        "OpenAI-style secret key (sk-...)",
        _at("sk-"),
        r"\bsk-[A-Za-z0-9_-]{20,}",
    ),
    _ShapeRule(
        "npm-token",
        "npm access token (npm_...)",
        _body_after("npm_"),
        r"\bnpm_[A-Za-z0-9]{36,}",
    ),
    _ShapeRule(
        "pypi-token",
        "PyPI API token (pypi-AgE...)",
        _at("pypi-AgE"),
        r"\bpypi-AgE[A-Za-z0-9_-]{50,}",
    ),
    _ShapeRule(
        "huggingface-token",
        "Hugging Face user or organization token",
        _body_after("hf_", "api_org_"),
        r"\b(?:hf_|api_org_)[A-Za-z0-9]{30,}",
    ),
    _ShapeRule(
        "sendgrid-key",
        "SendGrid API key (SG.<id>.<secret>)",
        _at("SG."),
        r"\bSG\.[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{40,}",
    ),
    _ShapeRule(
        "twilio-key",
        "Twilio API key SID or account SID",
        (_Anchor("SK", 0, 0), _Anchor("AC", 0, 0)),
        r"\b(?:SK|AC)[0-9a-f]{32}\b",
    ),
    _ShapeRule(
        "shopify-token",
        "Shopify access token or shared secret",
        _body_after("shpat_", "shpss_", "shpca_", "shppa_"),
        r"\bshp(?:at|ss|ca|pa)_[0-9a-fA-F]{32,}\b",
    ),
    _ShapeRule(
        "digitalocean-token",
        "DigitalOcean personal, OAuth or refresh token",
        _body_after("dop_v1_", "doo_v1_", "dor_v1_"),
        r"\bdo[por]_v1_[0-9a-f]{64,}\b",
    ),
    _ShapeRule(
        "vault-token",
        "HashiCorp Vault service, batch or recovery token",
        _at("hvs.", "hvb.", "hvr."),
        r"\bhv[sbr]\.[A-Za-z0-9_-]{24,}",
    ),
    _ShapeRule(
        "azure-client-secret",
        "Microsoft Entra (Azure AD) client secret",
        (_Anchor("Q~", -4),),
        r"(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,}",
    ),
    _ShapeRule(
        "azure-storage-key",
        "Azure AccountKey= or SharedAccessKey= value",
        (_Anchor("AccountKey=", 11), _Anchor("SharedAccessKey=", 16)),
        r"(?:(?<=AccountKey=)|(?<=SharedAccessKey=))[A-Za-z0-9+/]{40,}={0,2}"
        r"(?![A-Za-z0-9+/=])",
    ),
    _ShapeRule(
        "azure-sas",
        "Azure shared access signature sig= value",
        (_Anchor("?sig=", 5), _Anchor("&sig=", 5), _Anchor(";sig=", 5)),
        r"(?<=[?&;]sig=)[A-Za-z0-9%+/_-]{20,}={0,2}(?![A-Za-z0-9%+/_=-])",
    ),
    _ShapeRule(
        "atlassian-token",
        "Atlassian API token (ATATT3...) or organization admin key (ATCTT3...)",
        _at("ATATT3", "ATCTT3"),
        r"\bAT[AC]TT3[A-Za-z0-9_+/=-]{100,}",
    ),
    _ShapeRule(
        "databricks-token",
        "Databricks personal access token (dapi...)",
        (_Anchor("dapi", 0, 0),),
        r"\bdapi[0-9a-f]{32}(?:-[0-9]+)?\b",
    ),
    _ShapeRule(
        "grafana-token",
        "Grafana service-account or Grafana Cloud token",
        (*_body_after("glsa_"), _Anchor("glc_", b64_run=True)),
        r"\b(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b|glc_[A-Za-z0-9+/]{32,}={0,2}"
        r"(?![A-Za-z0-9+/=]))",
    ),
    _ShapeRule(
        "heroku-key",
        "Heroku API key (HRKU-AA...)",
        _at("HRKU-AA"),
        r"\bHRKU-AA[A-Za-z0-9_-]{58,}",
    ),
    _ShapeRule(
        "postman-key",
        "Postman API key (PMAK-...)",
        (_Anchor("PMAK-", 0, 30),),
        r"\bPMAK-[0-9a-fA-F]{24}-[0-9a-fA-F]{34}\b",
    ),
    _ShapeRule(
        "sentry-token",
        "Sentry user or organization auth token",
        (*_body_after("sntryu_"), _Anchor("sntrys_eyJ")),
        r"\b(?:sntryu_[0-9a-f]{64}\b|sntrys_eyJ[A-Za-z0-9+/=_]{40,})",
    ),
    _ShapeRule(
        "rubygems-key",
        "RubyGems API key (rubygems_...)",
        _body_after("rubygems_"),
        r"\brubygems_[0-9a-f]{48}\b",
    ),
    _ShapeRule(
        "cloudflare-ca-key",
        "Cloudflare Origin CA key (v1.0-...)",
        (_Anchor("v1.0-", 0, 30),),
        r"\bv1\.0-[0-9a-f]{24}-[0-9a-f]{146}\b",
    ),
    _ShapeRule(
        "age-secret-key",
        "age encryption secret key (AGE-SECRET-KEY-1...)",
        (_Anchor("AGE-SECRET-KEY-1", 0, 15),),
        r"\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b",
    ),
    _ShapeRule(
        "django-secret-key",
        "Django generated insecure secret key",
        _at("django-insecure-"),
        r"\bdjango-insecure-[a-z0-9!@#$%^&*(_=+)-]{50}(?![A-Za-z0-9])",
    ),
    _ShapeRule(
        "linear-key",
        "Linear API key (lin_api_...)",
        _body_after("lin_api_"),
        r"\blin_api_[A-Za-z0-9]{40}\b",
    ),
    _ShapeRule(
        "groq-key",
        "Groq API key (gsk_...)",
        _body_after("gsk_"),
        r"\bgsk_[A-Za-z0-9]{48,}",
    ),
    _ShapeRule(
        "perplexity-key",
        "Perplexity API key (pplx-...)",
        _body_after("pplx-"),
        r"\bpplx-[A-Za-z0-9]{40,}",
    ),
    _ShapeRule(
        "xai-key",
        "xAI API key (xai- and 70 to 120 URL-safe characters)",
        _at("xai-"),
        r"\bxai-[A-Za-z0-9_-]{70,120}(?![A-Za-z0-9_-])",
    ),
    _ShapeRule(
        "mailgun-key",
        "Mailgun API key (key-<32 hex>)",
        _body_after("key-"),
        r"\bkey-[0-9a-f]{32}\b",
    ),
    # Batch two: formats of the public catalogs (a scanner's rule set, GitHub secret
    # scanning's partner list, the vendors' documentation). Checks inside the expressions
    # keep documentation placeholders out: "(?=...[0-9])" asks for a digit where random
    # bodies nearly always hold one; "(?!...(.)\1{5})" refuses six repeats of a character.
    _ShapeRule(
        "onepassword-secret-key",
        "1Password account secret key (A3-...)",
        _at("A3-"),
        # six, six (hyphen optional: one eleven-character group) five, five, five, five
        r"\bA3-(?=[A-Z-]{0,40}[0-9])[0-9A-Z]{6}-[0-9A-Z]{6}-?[0-9A-Z]{5}(?:-[0-9A-Z]{5}){3}"
        r"(?![0-9A-Za-z-])",
    ),
    _ShapeRule(
        "onepassword-service-token",
        "1Password service account token (ops_eyJ...)",
        (_Anchor("ops_eyJ", b64_run=True),),
        r"\bops_eyJ(?=[A-Za-z+/]{0,400}[0-9])[A-Za-z0-9+/]{200,}={0,3}",
    ),
    _ShapeRule(
        "adobe-client-secret",
        "Adobe OAuth client secret (p8e-...)",
        _body_after("p8e-"),
        r"\bp8e-[A-Za-z0-9]{32}(?![A-Za-z0-9])",
    ),
    _ShapeRule(
        "alibaba-access-key",
        "Alibaba Cloud AccessKey ID (LTAI...)",
        (_Anchor("TAI", -1),),
        r"\bLTAI(?=[A-Za-z]{0,23}[0-9])[A-Za-z0-9]{12,24}(?![A-Za-z0-9])",
    ),
    _ShapeRule(
        "artifactory-token",
        "JFrog Artifactory API key (AKCp...) or reference token (cmVmd...)",
        (_Anchor("AKCp", 0, 0), _Anchor("cmVmd", 0, 0)),
        r"\b(?:AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59})\b",
    ),
    _ShapeRule(
        "authress-key",
        "Authress service client access key (<prefix>_<id>.<id>.acc_<id>.<secret>)",
        (_Anchor(".acc_", b64_run=True), _Anchor(".acc-", b64_run=True)),
        # the prefix (sc_, ext_, scauth_, authress_) is too common a word to look for, and
        # the ".acc" marker sits at no fixed place, so the expression runs over the text
        finder=(lambda rx: lambda text: [m.span() for m in rx.finditer(text)])(
            _ascii_re(
                r"\b(?:sc|ext|scauth|authress)_[A-Za-z0-9]{5,30}\.[A-Za-z0-9]{4,6}\.acc[_-]"
                r"[A-Za-z0-9-]{10,32}\.[A-Za-z0-9+/_=-]{30,120}(?![A-Za-z0-9+/_=-])"
            )
        ),
    ),
    _ShapeRule(
        "defined-networking-key",
        "Defined Networking API key (dnkey-...)",
        _at("dnkey-"),
        r"\bdnkey-[A-Za-z0-9=_-]{26}-[A-Za-z0-9=_-]{52}(?![A-Za-z0-9=_-])",
    ),
    _ShapeRule(
        "doppler-token",
        "Doppler personal, service, CLI, SCIM or audit token (dp.pt. and kin)",
        tuple(
            _Anchor(f"dp.{kind}.", b64_run=True)
            for kind in ("pt", "st", "ct", "sa", "scim", "audit")
        ),
        r"\bdp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,44}\b",
    ),
    _ShapeRule(
        "duffel-token",
        "Duffel API token (duffel_test_/duffel_live_)",
        (_Anchor("duffel_test_", url_run=True), _Anchor("duffel_live_")),
        r"\bduffel_(?:test|live)_[A-Za-z0-9_=-]{43}(?![A-Za-z0-9_=-])",
    ),
    _ShapeRule(
        "dynatrace-token",
        "Dynatrace API token (dt0c01.<24>.<64>)",
        (_Anchor("dt0c01.", b64_run=True),),
        r"\bdt0c01\.[A-Z0-9]{24}\.[A-Za-z0-9]{64}\b",
    ),
    _ShapeRule(
        "easypost-key",
        "EasyPost production or test API key (EZAK/EZTK)",
        (_Anchor("EZAK", 0, 0), _Anchor("EZTK", 0, 0)),
        r"\bEZ[AT]K[A-Za-z0-9]{54}\b",
    ),
    _ShapeRule(
        "facebook-token",
        "Facebook page or user access token (EAAM/EAAC...)",
        (_Anchor("EAAM", 0, 0), _Anchor("EAAC", 0, 0)),
        r"\bEAA[MC][A-Za-z0-9]{100,}\b",
    ),
    _ShapeRule(
        "flutterwave-key",
        "Flutterwave secret, public or encryption key (FLWSECK/FLWPUBK)",
        _at("FLWSECK", "FLWPUBK"),
        # a 32-hex key ending in -X, or the 12-character encryption key
        r"\bFLW(?:SECK|PUBK)(?:_TEST)?-(?:[0-9a-hA-H]{32}-X|[0-9a-hA-H]{12})(?![A-Za-z0-9])"
        r"|\bFLWSECK_TEST[0-9a-h]{12}(?![A-Za-z0-9])",  # the encryption key, dash-less
    ),
    _ShapeRule(
        "flyio-token",
        "Fly.io access token (fo1_, fm1a_, fm1r_, fm2_)",
        (
            _Anchor("fo1_", url_run=True),
            _Anchor("fm1a_", b64_run=True),
            _Anchor("fm1r_", b64_run=True),
            _Anchor("fm2_", b64_run=True),
        ),
        r"\b(?:fo1_[A-Za-z0-9_-]{43}|fm(?:1[ar]|2)_[A-Za-z0-9+/]{100,}={0,3})"
        r"(?![A-Za-z0-9_+/=-])",
    ),
    _ShapeRule(
        "frameio-token",
        "Frame.io API token (fio-u-...)",
        _at("fio-u-"),
        r"\bfio-u-[A-Za-z0-9_=-]{64}(?![A-Za-z0-9_=-])",
    ),
    _ShapeRule(
        "gitlab-session",
        "GitLab session cookie value (after _gitlab_session=)",
        (_Anchor("_gitlab_session=", 16, b64_run=True),),
        r"(?<=_gitlab_session=)[0-9a-z]{32}(?![0-9A-Za-z])",
    ),
    _ShapeRule(
        "harness-token",
        "Harness personal or service account token (pat./sat.)",
        (_Anchor("at.", -1, wide_run=True),),  # one literal for both kinds; 24 alphanumerics
        r"\b[ps]at\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}\b",
    ),
    _ShapeRule(
        "terraform-token",
        "HashiCorp Terraform Cloud API token (<14>.atlasv1.<body>)",
        (_Anchor("atlasv", -15),),
        r"(?<![A-Za-z0-9])[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}(?![A-Za-z0-9_=-])",
    ),
    _ShapeRule(
        "amazon-mws-token",
        "Amazon Marketplace Web Service auth token (amzn.mws.<uuid>)",
        _at("amzn.mws."),
        r"amzn\.mws\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-f-])",
    ),
    _ShapeRule(
        "circleci-token",
        "CircleCI personal API token (CCIPAT_...)",
        _at("CCIPAT_"),
        r"\bCCIPAT_[A-Za-z0-9]{22}_[0-9a-f]{40}\b",
    ),
    _ShapeRule(
        "infracost-token",
        "Infracost API token (ico-...)",
        _body_after("ico-"),
        r"\bico-[A-Za-z0-9]{32}\b",
    ),
    _ShapeRule(
        "intra42-secret",
        "42 Intra API client secret (s-s4t2ud-/s-s4t2af-)",
        _body_after("s-s4t2ud-", "s-s4t2af-"),
        r"\bs-s4t2(?:ud|af)-[0-9a-fA-F]{64}\b",
    ),
    _ShapeRule(
        "maxmind-key",
        "MaxMind license key (<6>_<29>_mmk)",
        (_Anchor("_mmk", -36),),
        r"(?<![A-Za-z0-9_])[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk\b",
    ),
    _ShapeRule(
        "teams-webhook",
        "Microsoft Teams incoming webhook path (webhookb2/...; the host stays)",
        (_Anchor("/webhookb2/", 1, b64_run=True),),
        # group id @ tenant id / IncomingWebhook / 32-character id / owner id [/ signature]
        r"webhookb2/[0-9A-Fa-f-]{36}@[0-9A-Fa-f-]{36}/IncomingWebhook/[0-9A-Za-z]{32}"
        r"/[0-9A-Fa-f-]{36}(?:/[A-Za-z0-9_-]{20,})?",
    ),
    _ShapeRule(
        "newrelic-key",
        "New Relic user, admin, insert, query, REST, browser or synthetics location key",
        _at("NRAK-", "NRAA-", "NRII-", "NRIQ-", "NRRA-", "NRJS-", "NRSP-"),
        # a body that spells the alphabet or counts up is a placeholder
        r"\bNR(?![A-Z]{2}-[A-Za-z0-9_-]{0,27}?(?:ABCDEF|abcdef|123456))"
        r"(?:AK-[A-Za-z0-9]{27}|AA-[0-9a-f]{27}|I[IQ]-[A-Za-z0-9_-]{32}|RA-[0-9a-f]{42}"
        r"|JS-[0-9a-f]{19}|SP-[a-z]{2}[0-9]{2}[0-9a-f]{31})(?![A-Za-z0-9_-])",
    ),
    _ShapeRule(
        "notion-token",
        "Notion integration token (ntn_..., or the older secret_<43>)",
        _body_after("ntn_", "secret_"),
        r"\b(?:ntn_[0-9]{11}[A-Za-z0-9]{35}|secret_(?=[A-Za-z]{0,42}[0-9])[A-Za-z0-9]{43})\b",
    ),
    _ShapeRule(
        "octopus-key",
        "Octopus Deploy API key (API-...)",
        _at("API-"),
        r"\bAPI-(?=[A-Z]{0,25}[0-9])[A-Z0-9]{26}\b",
    ),
    _ShapeRule(
        "openshift-token",
        "OpenShift user token (sha256~...)",
        _at("sha256~"),
        r"\bsha256~[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])",
    ),
    _ShapeRule(
        "planetscale-token",
        "PlanetScale API token, password or OAuth token (pscale_tkn_/pscale_pw_/pscale_oauth_)",
        (*_at("pscale_tkn_", "pscale_pw_"), _Anchor("pscale_oauth_", url_run=True)),
        r"\bpscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.=-]{32,64}(?![A-Za-z0-9_=-])",
    ),
    _ShapeRule(
        "prefect-token",
        "Prefect API key (pnu_...)",
        _body_after("pnu_"),
        r"\bpnu_[A-Za-z0-9]{36}\b",
    ),
    _ShapeRule(
        "pulumi-token",
        "Pulumi access token (pul-...)",
        _body_after("pul-"),
        r"\bpul-[0-9a-f]{40}\b",
    ),
    _ShapeRule(
        "readme-key",
        "ReadMe API key (rdme_...)",
        _body_after("rdme_"),
        r"\brdme_[a-z0-9]{70}\b",
    ),
    _ShapeRule(
        "scalingo-token",
        "Scalingo API token (tk-us-...)",
        _at("tk-us-"),
        r"\btk-us-[A-Za-z0-9_-]{48}(?![A-Za-z0-9_-])",
    ),
    _ShapeRule(
        "brevo-key",
        "Brevo (Sendinblue) API or SMTP key (xkeysib-/xsmtpsib-)",
        _body_after("xkeysib-", "xsmtpsib-"),
        r"\bx(?:keysib|smtpsib)-[0-9a-f]{64}-[A-Za-z0-9]{16}\b",
    ),
    _ShapeRule(
        "shippo-token",
        "Shippo live or test API token (shippo_live_/shippo_test_)",
        _body_after("shippo_live_", "shippo_test_"),
        r"\bshippo_(?:live|test)_[0-9a-fA-F]{40}\b",
    ),
    _ShapeRule(
        "sourcegraph-token",
        "Sourcegraph access token (sgp_...)",
        (_Anchor("sgp_", b64_run=True),),
        # optional 16-hex instance id or "local", then 40 hex without a six-fold repeat
        r"\bsgp_(?:[0-9a-fA-F]{16}_|local_)?(?![0-9a-fA-F]{0,34}?([0-9a-fA-F])\1{5})"
        r"[0-9a-fA-F]{40}\b",
    ),
    _ShapeRule(
        "square-token",
        "Square access token or application secret (EAAA, sq0atp-, sq0csp-)",
        (_Anchor("EAAA", b64_run=True), _Anchor("sq0atp-"), _Anchor("sq0csp-")),
        r"\b(?:EAAA[A-Za-z0-9_-]{22,60}|sq0atp-[A-Za-z0-9_-]{22,60}|sq0csp-[A-Za-z0-9_-]{43})"
        r"(?![A-Za-z0-9_-])",
    ),
    _ShapeRule(
        "typeform-token",
        "Typeform personal access token (tfp_...)",
        _body_after("tfp_"),
        r"\btfp_(?=[A-Za-z0-9]{30})[A-Za-z0-9_.=-]{40,64}(?![A-Za-z0-9_=-])",
    ),
    _ShapeRule(
        "plaid-token",
        "Plaid access token (access-<environment>-<uuid>)",
        _at("access-"),
        r"\baccess-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}"
        r"-[0-9a-f]{4}-[0-9a-f]{12}\b",
    ),
    _ShapeRule(
        "lob-key",
        "Lob live or test API key (live_/test_, pub_ for publishable)",
        (
            _Anchor("live_", 0, 5),
            _Anchor("test_", 0, 5),
            _Anchor("live_pub_", 0, 9),
            _Anchor("test_pub_", 0, 9),
        ),
        r"(?<![A-Za-z0-9_])(?:live|test)_(?:pub_[0-9a-f]{31}|[0-9a-f]{35})(?![A-Za-z0-9_])",
    ),
    _ShapeRule(
        "mapbox-token",
        "Mapbox access token (pk./sk./tk. followed by a JWT-like body)",
        _at("pk.eyJ", "sk.eyJ", "tk.eyJ"),
        r"\b[pst]k\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}",
    ),
    _ShapeRule(
        "sonarqube-token",
        "SonarQube user, project or global analysis token (squ_/sqp_/sqa_)",
        _body_after("squ_", "sqp_", "sqa_"),
        r"\bsq[upa]_[0-9a-f]{40}\b",
    ),
    _ShapeRule(
        "langsmith-key",
        "LangSmith personal or service key (lsv2_pt_/lsv2_sk_)",
        _body_after("lsv2_pt_", "lsv2_sk_"),
        r"\blsv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10}\b",
    ),
    _ShapeRule(
        "supabase-token",
        "Supabase personal access token (sbp_...) or secret API key (sb_secret_...)",
        _at("sbp_", "sb_secret_"),
        r"\bsbp_[a-z0-9_-]{40}(?![A-Za-z0-9_-])|\bsb_secret_[A-Za-z0-9_-]{24,64}(?![A-Za-z0-9_-])",
    ),
    _ShapeRule(
        "dockerhub-token",
        "Docker Hub personal or organization access token (dckr_pat_/dckr_oat_...)",
        _at("dckr_pat_", "dckr_oat_"),
        r"\bdckr_[po]at_[A-Za-z0-9_-]{27,32}(?![A-Za-z0-9_-])",
    ),
    _ShapeRule(
        "replicate-token",
        "Replicate API token (r8_...)",
        _body_after("r8_"),
        r"\br8_[A-Za-z0-9]{37}\b",
    ),
    _ShapeRule(
        "tailscale-key",
        "Tailscale API, auth, OAuth client, SCIM or webhook key (tskey-...)",
        _at("tskey-"),
        r"\btskey-(?:api|auth|client|scim|webhook)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{20,}",
    ),
    _ShapeRule(
        "netlify-token",
        "Netlify personal access token (nfp_...)",
        _body_after("nfp_"),
        r"\bnfp_[A-Za-z0-9]{36}\b",
    ),
    _ShapeRule(
        "buildkite-token",
        "Buildkite user access token (bkua_...)",
        _body_after("bkua_"),
        r"\bbkua_[0-9a-f]{40}\b",
    ),
    _ShapeRule(
        "contentful-token",
        "Contentful personal access token (CFPAT-...)",
        (_Anchor("CFPAT-", b64_run=True),),
        r"\bCFPAT-[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])",
    ),
    _ShapeRule(
        "nuget-api-key",
        "NuGet.org API key (oy2...)",
        (_Anchor("oy2", 0, 0),),
        r"\boy2[a-z0-9]{43}\b",
    ),
    _ShapeRule(
        "dropbox-token",
        "Dropbox short-lived access token (sl....)",
        (_Anchor("sl.", wide_run=True),),
        # the body holds a run of 24 without `=` (its gate): padding is never that dense
        r"\bsl\.(?:u\.)?(?=[A-Za-z0-9_=-]*?[A-Za-z0-9_-]{24})[A-Za-z0-9_=-]{130,}",
    ),
    # Formats that GitHub secret scanning lists beyond the gitleaks catalog (vendors' own
    # documentation for prefixes, alphabets and lengths).
    _ShapeRule(
        "tencent-secret-id",
        "Tencent Cloud SecretId (AKID + 32)",
        (_Anchor("AKID", 0, 0),),
        r"\bAKID[A-Za-z0-9]{32}\b",
    ),
    _ShapeRule(
        "scaleway-key",
        "Scaleway access key (SCW + 17)",
        # b64_run on a literal holding C, a prefilter stop already: found everywhere at C
        (_Anchor("SCW", b64_run=True),),
        r"\bSCW(?=[A-Z]{0,16}[0-9])[A-Z0-9]{17}\b",
    ),
    _ShapeRule(
        "woocommerce-key",
        "WooCommerce REST consumer key or secret (ck_/cs_ + 40 hex)",
        _body_after("ck_", "cs_"),
        r"\bc[ks]_[0-9a-f]{40}\b",
    ),
    _ShapeRule(
        "deno-token",
        "Deno Deploy personal or organization token (ddp_/ddw_)",
        _body_after("ddp_", "ddw_"),
        r"\bdd[pw]_[A-Za-z0-9]{36}\b",
    ),
    _ShapeRule(
        "render-key",
        "Render API key (rnd_)",
        _body_after("rnd_"),
        r"\brnd_[A-Za-z0-9]{32}\b",
    ),
    _ShapeRule(
        "crates-token",
        "crates.io API token (cio + 32)",
        (_Anchor("cio", 0, 0),),
        r"\bcio(?=[A-Za-z]{0,31}[0-9])[A-Za-z0-9]{32}\b",
    ),
    _ShapeRule(
        "mollie-key",
        "Mollie live or test API key (live_/test_ + 30)",
        (_Anchor("live_", 0, 5), _Anchor("test_", 0, 5)),
        r"\b(?:live|test)_(?=[A-Za-z]{0,29}[0-9])[A-Za-z0-9]{30}\b",
    ),
    _ShapeRule(
        "hubspot-token",
        "HubSpot private app token (pat-na1-/pat-eu1- + UUID)",
        _at("pat-"),
        r"\bpat-(?:na|eu)1-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
    ),
    _ShapeRule(
        "axiom-token",
        "Axiom API or personal token (xaat-/xapt- + UUID)",
        _at("xaat-", "xapt-"),
        r"\bxa[ap]t-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
    ),
    _ShapeRule(
        "launchdarkly-key",
        "LaunchDarkly API access token or server-side SDK key (api-/sdk- + UUID)",
        _at("api-", "sdk-"),
        r"\b(?:api|sdk)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
    ),
    _ShapeRule(
        "fcm-server-key",
        "Firebase Cloud Messaging legacy server key (AAAA<7>:APA91b...)",
        (_Anchor(":APA91b", -11),),
        r"(?<![A-Za-z0-9_-])AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,}",
    ),
    _ShapeRule(
        "google-refresh-token",
        "Google OAuth refresh token (1//0...)",
        _at("1//0"),
        r"(?<![A-Za-z0-9_/-])1//0[A-Za-z0-9_-]{40,}",
    ),
    _ShapeRule(
        "nvidia-key",
        "NVIDIA NGC or NIM API key (nvapi- + 60 to 70)",
        _at("nvapi-"),
        r"\bnvapi-[A-Za-z0-9_-]{60,70}(?![A-Za-z0-9_-])",
    ),
    _ShapeRule(
        "clickup-token",
        "ClickUp personal API token (pk_<digits>_<32>)",
        _at("pk_"),
        r"\bpk_[0-9]{6,10}_[0-9A-Z]{32}\b",
    ),
    # formats from other public scanners' catalogs (Nosey Parker, Kingfisher,
    # secrets-patterns-db) and the vendors' documentation
    _ShapeRule(
        "salesforce-token",
        "Salesforce session or access token (<org id>!<body>)",
        finder=_find_salesforce,
        probes=(("!", r"(?<=00[A-Za-z0-9]{13}!)(?=[A-Za-z0-9._]{80})"),),
    ),
    _ShapeRule(
        "arcjet-key",
        "Arcjet site key (ajkey_<26>)",
        _at("ajkey_"),
        r"\bajkey_[0-9a-z]{26}\b",
    ),
    _ShapeRule(
        "deepl-key",
        "DeepL API authentication key of the free plan (<uuid>:fx)",
        (_Anchor(":fx", -36),),
        r"(?<![A-Za-z0-9-])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:fx"
        r"(?![A-Za-z0-9])",
    ),
    _ShapeRule(
        "telnyx-key",
        "Telnyx API v2 key (KEY<32 hex>_<22>)",
        (_Anchor("KEY", 0, 0),),  # KEY and its hex are one run of 35
        r"\bKEY[0-9A-F]{32}_[A-Za-z0-9]{22}\b",
    ),
    _ShapeRule(
        "thingsboard-token",
        "ThingsBoard device access token in a device API path",
        (_Anchor("/api/v1/", 8),),
        r"(?=[A-Za-z]{0,19}[0-9])[A-Za-z0-9]{20}"
        r"(?=/(?:telemetry|attributes|rpc|claim|firmware|software)\b)",
    ),
    _ShapeRule(
        "openvpn-static-key",
        "OpenVPN static key (tls-auth, tls-crypt): its hex lines, and the END line",
        _at("-----BEGIN "),
        r"-----BEGIN OpenVPN Static key V1-----(?:\s*[0-9a-fA-F]{16,64})+"
        r"(?:\s*-----END OpenVPN Static key V1-----)?",
    ),
    _ShapeRule(
        "azure-function-key",
        "Azure Functions key in a function URL's code= parameter",
        _at(".azurewebsites.net/api/"),
        finder=(lambda rx: lambda text: [m.span(1) for m in rx.finditer(text)])(
            _ascii_re(
                r"\.azurewebsites\.net/api/[A-Za-z0-9_./-]{0,200}"  # the function's path
                r"\?(?:[A-Za-z0-9_.%-]{1,40}=[^&\s\"'#]{0,200}&){0,8}"  # other parameters
                r"code=([A-Za-z0-9_-]{20,}={0,2})(?![A-Za-z0-9_=-])"  # the key: 20 or more
            )
        ),
    ),
    _ShapeRule(
        "zapier-webhook",
        "Zapier catch-hook URL (the hook's id and key after catch/)",
        (_Anchor("hooks.zapier.com/hooks/catch/", len("hooks.zapier.com/hooks/catch/")),),
        r"(?<=hooks\.zapier\.com/hooks/catch/)[0-9]{4,12}/[A-Za-z0-9]{5,12}(?![A-Za-z0-9])",
    ),
    _ShapeRule(
        "nuget-config-password",
        'password in a NuGet config (<add key="ClearTextPassword" value="...">)',
        (_Anchor('" value="', 9),),
        # the value up to its closing quote: eight characters or more with a digit, which
        # placeholders (YOUR_API_KEY, REPLACE_ME) and %VARIABLE% references lack
        r'(?:(?<=ClearTextPassword" value=")|(?<=key="Password" value="))'
        r'(?![%$])(?=[^"\s<>0-9]*[0-9])[^"\s<>]{8,}(?=")',
    ),
    _ShapeRule(
        "kubernetes-secret",
        "base64 value under data: in a Kubernetes Secret manifest (kind: Secret)",
        _at("kind:"),
        finder=(
            lambda entry, kind, data: (
                lambda text: (
                    [m.span(2) for m in entry.finditer(text)]
                    if kind.search(text) and data.search(text)
                    else []
                )
            )
        )(
            # an indented "name: value" whose value (plain, quoted, or on the line after a
            # block indicator | or >) is base64 of 10 characters or more, not one lowercase
            # word (stringData: values are plain text, and words are placeholders)
            _ascii_re(
                r"(?m)^[ \t]+[\w.-]+:[ \t]*(?:[|>][-+]?[ \t]*\r?\n[ \t]+)?([\"']?)"
                r"((?=[a-z]*[A-Z0-9+/=])[A-Za-z0-9+/]{10,}={0,3})\1[ \t]*\r?$"
            ),
            _ascii_re(r"(?im)^[ \t]*kind:[ \t]*[\"']?secret[\"']?[ \t]*\r?$"),
            _ascii_re(r"(?m)^[ \t]*data:[ \t]*\r?$"),
        ),
    ),
    _ShapeRule(
        "figma-token",
        "Figma personal access token (figd_ and 38 to 42 URL-safe characters)",
        (_Anchor("figd_", url_run=True),),
        r"\bfigd_[A-Za-z0-9_-]{38,42}(?![A-Za-z0-9_-])",
    ),
    _ShapeRule(
        "mandrill-key",
        "Mailchimp Transactional (Mandrill) API key (md- and 22 characters)",
        _at("md-"),
        # a CSS class (`md-autocomplete-suggestions`) has no digit or capital
        r"\bmd-(?=[A-Za-z_-]{0,21}[0-9])(?=[a-z0-9_-]{0,21}[A-Z])[A-Za-z0-9_-]{22}"
        r"(?![A-Za-z0-9_-])",
    ),
    _ShapeRule(
        "yandex-token",
        "Yandex OAuth token (y0_ to y3_ and 55 characters) or Cloud API key (AQVN)",
        (*(_Anchor(f"y{n}_", url_run=True) for n in range(4)), _Anchor("AQVN")),
        r"\b(?:y[0-3]_[A-Za-z0-9_-]{55}|AQVN[A-Za-z0-9_-]{35,38})(?![A-Za-z0-9_-])",
    ),
    _ShapeRule(
        "resend-key",
        "Resend API key (re_, 8 and 24 letters and digits)",
        (_Anchor("re_", url_run=True),),
        # a snake_case name shaped alike has no digit or no capital
        r"\bre_(?=[A-Za-z_]{0,32}[0-9])(?=[a-z0-9_]{0,32}[A-Z])"
        r"[A-Za-z0-9]{8}_[A-Za-z0-9]{24}(?![A-Za-z0-9_-])",
    ),
    _ShapeRule(
        "stytch-secret",
        "Stytch project secret (secret-live-/secret-test- and 36 characters)",
        _at("secret-live-", "secret-test-"),
        r"\bsecret-(?:live|test)-[A-Za-z0-9_=-]{36}(?![A-Za-z0-9_=-])",
    ),
    _ShapeRule(
        "infisical-token",
        "Infisical service token (st.<uuid>.<32 hex>.<32 hex>)",
        (_Anchor("st.", b64_run=True),),
        r"\bst\.[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}\.[0-9a-f]{32}\.[0-9a-f]{32}"
        r"(?![0-9A-Za-z])",
    ),
    _ShapeRule(
        "braintree-token",
        "Braintree access token (access_token$production$ or $sandbox$)",
        _at("access_token$"),
        r"access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}(?![0-9A-Za-z])",
    ),
    _ShapeRule(
        "aikido-token",
        "Aikido CI token or client secret (AIK_CI_, AIK_SECRET_)",
        _at("AIK_"),
        r"\bAIK_(?:CI_[A-Za-z0-9]{20,44}|SECRET_[A-Za-z0-9]{64})(?![A-Za-z0-9_])",
    ),
    _ShapeRule(
        "azure-appconfig-secret",
        "Azure App Configuration connection string's secret (;Secret= after an Id)",
        (_Anchor(";" + "Secret=", 8),),  # the match starts after the literal
        r"(?<=;Secret=)[A-Za-z0-9+/]{36,100}={0,2}(?![A-Za-z0-9+/=])",
    ),
    _ShapeRule(
        "azure-function-identifiable-key",
        "Azure Functions key with its identifiable signature (AzFu, 56 URL-safe characters)",
        (_Anchor("AzFu", -44),),
        r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{44}AzFu[A-Za-z0-9_-]{5}[AQgw]==",
    ),
    _ShapeRule(
        "brave-search-key",
        "Brave Search API key (BSA and 24 to 40 characters)",
        _at("BSA"),
        # a digit, a lower-case and an upper-case letter: `BSAFunctionalityTests` is a name
        r"\bBSA(?=[A-Za-z_-]{0,39}[0-9])(?=[A-Z0-9_-]{0,39}[a-z])(?=[a-z0-9_-]{0,39}[A-Z])"
        r"[A-Za-z0-9_-]{24,40}(?![A-Za-z0-9_-])",
    ),
    _ShapeRule(
        "canva-secret",
        "Canva client secret (cnvca and 51 characters)",
        _at("cnvca"),
        r"\bcnvca[A-Za-z0-9_-]{51}(?![A-Za-z0-9_-])",
    ),
    _ShapeRule(
        "configcat-key",
        "ConfigCat SDK key (configcat-sdk-1/<22>/<22>)",
        _at("configcat-sdk-1/"),
        r"\bconfigcat-sdk-1/[A-Za-z0-9_-]{22}/[A-Za-z0-9_-]{22}(?![A-Za-z0-9_-])",
    ),
    _ShapeRule(
        "elastic-cloud-key",
        "Elastic Cloud API key (essu_ and 60 to 200 URL-safe characters)",
        (_Anchor("essu_", url_run=True),),
        r"\bessu_[A-Za-z0-9_-]{60,200}={0,2}(?![A-Za-z0-9_=-])",
    ),
    _ShapeRule(
        "exoscale-key",
        "Exoscale API key (EXO and 24 to 30 letters and digits)",
        _at("EXO"),
        r"\bEXO(?=[A-Za-z]{0,29}[0-9])(?=[A-Z0-9]{0,29}[a-z])[A-Za-z0-9]{24,30}(?![A-Za-z0-9_])",
    ),
    _ShapeRule(
        "gemini-key",
        "Google Gemini API key (AQ.Ab8RN6 and 44 URL-safe characters)",
        _at("AQ.Ab8RN6"),
        r"\bAQ\.Ab8RN6[A-Za-z0-9_-]{44}(?![A-Za-z0-9_-])",
    ),
    _ShapeRule(
        "mongodb-atlas-secret",
        "MongoDB Atlas service account secret (mdb_sa_sk_ and 40 URL-safe characters)",
        _at("mdb_sa_sk_"),
        r"\bmdb_sa_sk_[A-Za-z0-9_-]{40}(?![A-Za-z0-9_-])",
    ),
    _ShapeRule(
        "posthog-personal-key",
        "PostHog personal API key (phx_ and 47 characters; the phc_ project key is public)",
        _at("phx_"),
        r"\bphx_[A-Za-z0-9_-]{47}(?![A-Za-z0-9_-])",
    ),
    _ShapeRule(
        "vercel-token",
        "Vercel personal, integration, app access or refresh token or AI Gateway key",
        _at("vcp_", "vci_", "vca_", "vcr_", "vck_"),
        r"\bvc[pcairk]_[A-Za-z0-9_-]{56}(?![A-Za-z0-9_-])",
    ),
    _ShapeRule(
        "cerebras-key",
        "Cerebras API key (csk- and 48 lower-case letters and digits)",
        _at("csk-"),
        r"\bcsk-(?=[a-z]{0,47}[0-9])[a-z0-9]{48}(?![A-Za-z0-9_-])",
    ),
    _ShapeRule(
        "devin-key",
        "Devin API key (apk_user_, apk_ and base64) or service user token (cog_)",
        (_Anchor("apk_"), *_body_after("cog_")),
        r"\bapk_(?:user_[A-Za-z0-9+/]{120,180}|[A-Za-z0-9+/]{80,100})={0,2}(?![A-Za-z0-9+/=])"
        r"|\bcog_[a-z2-7]{52}(?![A-Za-z0-9])",
    ),
    _ShapeRule(
        "wandb-key",
        "Weights & Biases API key, new format (wandb_v1_ and 77 characters)",
        (_Anchor("wandb_v1_", url_run=True),),
        r"\bwandb_v1_[A-Za-z0-9_]{77}(?![A-Za-z0-9_])",
    ),
    _ShapeRule(
        "cockroachdb-key",
        "CockroachDB Cloud API key (CCDB1_<22>_<40>)",
        _at("CCDB1_"),
        r"\bCCDB1_[A-Za-z0-9]{22}_[A-Za-z0-9]{40}(?![A-Za-z0-9_])",
    ),
    _ShapeRule(
        "airtable-pat",
        "Airtable personal access token (pat, 14 characters, a dot and 64 hex)",
        (_Anchor("pat", b64_run=True),),
        r"\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}(?![A-Za-z0-9])",
    ),
    _ShapeRule(
        "bedrock-key",
        "Amazon Bedrock long-term API key (ABSK and base64)",
        _at("ABSK"),
        r"\bABSK[A-Za-z0-9+/]{109,269}={0,2}(?![A-Za-z0-9+/=])",
    ),
    # Vendor-keyword rules: credentials whose format is too plain to tell apart (32 hex,
    # 40 letters and digits, a UUID) and that only the vendor's word in the key they are
    # assigned to identifies: `MAILGUN_SIGNING_KEY=...`, `"datadog_app_key": "..."`. Each
    # expression reads: the word in any case, the rest of the key name (up to 30 of
    # [A-Za-z0-9_.-]), a closing quote, `=`, `:`, `:=` or `=>`, an opening quote, then the
    # value, which must hold a digit (words and placeholders do not) and end where its
    # alphabet ends; only the value is replaced. The word's lower and UPPER spellings are
    # the anchors. A spelling whose rarest character is not already a prefilter stop would
    # slow every call, so it is looked for (`key_word`, in any letter case) only just before
    # a run of 24 base64 and base64url characters, where a key stands before its value:
    # nothing is lost for values that are such a run (32 hex, 40 letters and digits, a
    # UUID); a shorter value is missed unless another run follows the word closely (a
    # documented limit). Looking there only, not in the whole text, keeps a line's verdict
    # from depending on its neighbours, and keeps text with one token from paying a search
    # of the whole text per vendor word. An UPPER spelling holds a letter the prefilter
    # stops at anyway (`_SHARED_STOP_LITERALS`): it is looked for everywhere.
    _ShapeRule(
        "adafruit-keyed",
        "Adafruit IO key beside the word adafruit",
        (
            _Anchor("ADAFRUIT", key_word=True),
            _Anchor("adafruit", key_word=True),
        ),
        finder=_beside_vendor_word("adafruit", r"[A-Za-z0-9_-]{32}"),
    ),
    _ShapeRule(
        "adobe-keyed",
        "Adobe client id beside the word adobe",
        tuple(_Anchor(form, key_word=True) for form in ("ADOBE", "adobe")),
        finder=_beside_vendor_word("adobe", r"[0-9a-fA-F]{32}"),
    ),
    _ShapeRule(
        "airtable-keyed",
        "Airtable API key beside the word airtable",
        _at("AIRTABLE", "airtable"),
        finder=_beside_vendor_word("airtable", r"[A-Za-z0-9]{17}"),
    ),
    _ShapeRule(
        "algolia-keyed",
        "Algolia API key beside the word algolia",
        tuple(_Anchor(form, key_word=True) for form in ("ALGOLIA", "algolia")),
        finder=_beside_vendor_word("algolia", r"[A-Za-z0-9]{32}"),
    ),
    _ShapeRule(
        "alibaba-keyed",
        "Alibaba Cloud secret beside the word alibaba",
        _at("ALIBABA", "alibaba"),
        finder=_beside_vendor_word("alibaba", r"[A-Za-z0-9]{30}"),
    ),
    _ShapeRule(
        "asana-keyed",
        "Asana client secret beside the word asana",
        tuple(_Anchor(form, key_word=True) for form in ("ASANA", "asana")),
        finder=_beside_vendor_word("asana", r"[A-Za-z0-9]{32}"),
    ),
    _ShapeRule(
        "atlassian-keyed",
        "Atlassian, Jira or Confluence token beside the vendor's word",
        (
            _Anchor("ATLASSIAN", key_word=True),
            _Anchor("CONFLUENCE", key_word=True),
            _Anchor("JIRA"),
            _Anchor("atlassian", key_word=True),
            _Anchor("confluence", key_word=True),
            _Anchor("jira"),
        ),
        finder=_beside_vendor_word("atlassian|jira|confluence", r"[A-Za-z0-9]{24}"),
    ),
    _ShapeRule(
        "beamer-keyed",
        "Beamer API key beside the word beamer",
        _at("BEAMER", "beamer"),
        finder=_beside_vendor_word("beamer", r"b_[A-Za-z0-9=_-]{44}"),
    ),
    _ShapeRule(
        "bitbucket-keyed",
        "Bitbucket client id or secret beside the word bitbucket",
        _at("BITBUCKET", "bitbucket"),
        finder=_beside_vendor_word("bitbucket", r"[A-Za-z0-9=_-]{64}|[A-Za-z0-9]{32}"),
    ),
    _ShapeRule(
        "bittrex-keyed",
        "Bittrex key or secret beside the word bittrex",
        tuple(_Anchor(form, key_word=True) for form in ("BITTREX", "bittrex")),
        finder=_beside_vendor_word("bittrex", r"[A-Za-z0-9]{32}"),
    ),
    _ShapeRule(
        "meraki-keyed",
        "Cisco Meraki API key beside the word meraki",
        tuple(_Anchor(form, key_word=True) for form in ("MERAKI", "meraki")),
        finder=_beside_vendor_word("meraki", r"[0-9a-fA-F]{40}"),
    ),
    _ShapeRule(
        "cloudflare-keyed",
        "Cloudflare API or global key beside the word cloudflare",
        (
            _Anchor("CLOUDFLARE", key_word=True),
            _Anchor("cloudflare", key_word=True),
        ),
        finder=_beside_vendor_word("cloudflare", r"[A-Za-z0-9_-]{40}|[0-9a-fA-F]{37}"),
    ),
    _ShapeRule(
        "codecov-keyed",
        "Codecov token beside the word codecov",
        tuple(_Anchor(form, key_word=True) for form in ("CODECOV", "codecov")),
        finder=_beside_vendor_word("codecov", r"[A-Za-z0-9]{32}"),
    ),
    _ShapeRule(
        "cohere-keyed",
        "Cohere API key beside the word cohere",
        tuple(_Anchor(form, key_word=True) for form in ("COHERE", "cohere")),
        finder=_beside_vendor_word("cohere", r"[A-Za-z0-9]{40}"),
    ),
    _ShapeRule(
        "coinbase-keyed",
        "Coinbase token beside the word coinbase",
        _at("COINBASE", "coinbase"),
        finder=_beside_vendor_word("coinbase", r"[A-Za-z0-9_-]{64}"),
    ),
    _ShapeRule(
        "confluent-keyed",
        "Confluent key or secret beside the word confluent",
        (
            _Anchor("CONFLUENT", key_word=True),
            _Anchor("confluent", key_word=True),
        ),
        finder=_beside_vendor_word("confluent", r"[A-Za-z0-9]{64}|[A-Za-z0-9]{16}"),
    ),
    _ShapeRule(
        "contentful-keyed",
        "Contentful delivery token beside the word contentful",
        (
            _Anchor("CONTENTFUL", key_word=True),
            _Anchor("contentful", key_word=True),
        ),
        finder=_beside_vendor_word("contentful", r"[A-Za-z0-9=_-]{43}"),
    ),
    _ShapeRule(
        "datadog-keyed",
        "Datadog API or application key beside the word datadog",
        tuple(_Anchor(form, key_word=True) for form in ("DATADOG", "datadog")),
        finder=_beside_vendor_word("datadog", r"[A-Za-z0-9]{40}|[0-9a-fA-F]{32}"),
    ),
    _ShapeRule(
        "discord-keyed",
        "Discord key or client secret beside the word discord",
        (
            _Anchor("DISCORD", key_word=True),
            _Anchor("discord", key_word=True),
        ),
        finder=_beside_vendor_word("discord", r"[0-9a-fA-F]{64}|[A-Za-z0-9=_-]{32}"),
    ),
    _ShapeRule(
        "droneci-keyed",
        "Drone CI token beside the word droneci",
        tuple(_Anchor(form, key_word=True) for form in ("DRONECI", "droneci")),
        finder=_beside_vendor_word("droneci", r"[A-Za-z0-9]{32}"),
    ),
    _ShapeRule(
        "dropbox-keyed",
        "Dropbox token beside the word dropbox",
        _at("DROPBOX", "dropbox"),
        finder=_beside_vendor_word(
            "dropbox",
            r"sl\.[A-Za-z0-9=_-]{130,}"
            r"|[A-Za-z0-9]{11}AAAAAAAAAA[A-Za-z0-9=_-]{43}|[A-Za-z0-9]{15}",
        ),
    ),
    _ShapeRule(
        "etsy-keyed",
        "Etsy token beside the word etsy",
        (
            _Anchor("ETSY", key_word=True),
            _Anchor("etsy", key_word=True),
        ),
        finder=_beside_vendor_word("etsy", r"[A-Za-z0-9]{24}"),
    ),
    _ShapeRule(
        "facebook-keyed",
        "Facebook app secret or access token beside the word facebook",
        _at("FACEBOOK", "facebook"),
        finder=_beside_vendor_word(
            "facebook", r"[0-9a-fA-F]{32}|[0-9]{15,16}[|%][A-Za-z0-9_-]{27,40}"
        ),
    ),
    _ShapeRule(
        "fastly-keyed",
        "Fastly API token beside the word fastly",
        (
            _Anchor("FASTLY", key_word=True),
            _Anchor("fastly", key_word=True),
        ),
        finder=_beside_vendor_word("fastly", r"[A-Za-z0-9=_-]{32}"),
    ),
    _ShapeRule(
        "finicity-keyed",
        "Finicity key or secret beside the word finicity",
        (
            _Anchor("FINICITY", key_word=True),
            _Anchor("finicity", key_word=True),
        ),
        finder=_beside_vendor_word("finicity", r"[0-9a-fA-F]{32}|[A-Za-z0-9]{20}"),
    ),
    _ShapeRule(
        "finnhub-keyed",
        "Finnhub token beside the word finnhub",
        (
            _Anchor("FINNHUB", key_word=True),
            _Anchor("finnhub"),
        ),
        finder=_beside_vendor_word("finnhub", r"[A-Za-z0-9]{20}"),
    ),
    _ShapeRule(
        "flickr-keyed",
        "Flickr token beside the word flickr",
        tuple(_Anchor(form, key_word=True) for form in ("FLICKR", "flickr")),
        finder=_beside_vendor_word("flickr", r"[A-Za-z0-9]{32}"),
    ),
    _ShapeRule(
        "freshbooks-keyed",
        "FreshBooks token beside the word freshbooks",
        tuple(_Anchor(form, key_word=True) for form in ("FRESHBOOKS", "freshbooks")),
        finder=_beside_vendor_word("freshbooks", r"[A-Za-z0-9]{64}"),
    ),
    _ShapeRule(
        "gitter-keyed",
        "Gitter token beside the word gitter",
        (
            _Anchor("GITTER"),
            _Anchor("gitter", key_word=True),
        ),
        finder=_beside_vendor_word("gitter", r"[A-Za-z0-9_-]{40}"),
    ),
    _ShapeRule(
        "gocardless-keyed",
        "GoCardless live token beside the word gocardless",
        (
            _Anchor("GOCARDLESS"),
            _Anchor("gocardless", key_word=True),
        ),
        finder=_beside_vendor_word("gocardless", r"live_[A-Za-z0-9=_-]{40}"),
    ),
    _ShapeRule(
        "heroku-keyed",
        "Heroku API key (a UUID) beside the word heroku",
        _at("HEROKU", "heroku"),
        finder=_beside_vendor_word(
            "heroku", r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
        ),
    ),
    _ShapeRule(
        "hubspot-keyed",
        "HubSpot API key (a UUID) beside the word hubspot",
        (
            _Anchor("HUBSPOT", key_word=True),
            _Anchor("hubspot"),
        ),
        finder=_beside_vendor_word(
            "hubspot",
            r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
        ),
    ),
    _ShapeRule(
        "intercom-keyed",
        "Intercom token beside the word intercom",
        (
            _Anchor("INTERCOM", key_word=True),
            _Anchor("intercom", key_word=True),
        ),
        finder=_beside_vendor_word("intercom", r"[A-Za-z0-9=_-]{60}"),
    ),
    _ShapeRule(
        "jfrog-keyed",
        "JFrog API key or identity token beside the vendor's word",
        tuple(
            _Anchor(form, key_word=True)
            for form in ("ARTIFACTORY", "JFROG", "artifactory", "jfrog")
        ),
        finder=_beside_vendor_word("jfrog|artifactory", r"[A-Za-z0-9]{73}|[A-Za-z0-9]{64}"),
    ),
    _ShapeRule(
        "kraken-keyed",
        "Kraken key beside the word kraken",
        _at("KRAKEN", "kraken"),
        finder=_beside_vendor_word("kraken", r"[A-Za-z0-9/=_+-]{80,90}"),
    ),
    _ShapeRule(
        "kucoin-keyed",
        "KuCoin key or secret beside the word kucoin",
        _at("KUCOIN", "kucoin"),
        finder=_beside_vendor_word(
            "kucoin",
            r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
            r"|[0-9a-fA-F]{24}",
        ),
    ),
    _ShapeRule(
        "launchdarkly-keyed",
        "LaunchDarkly token beside the word launchdarkly",
        (
            _Anchor("LAUNCHDARKLY", key_word=True),
            _Anchor("launchdarkly"),
        ),
        finder=_beside_vendor_word("launchdarkly", r"[A-Za-z0-9=_-]{40}"),
    ),
    _ShapeRule(
        "linear-keyed",
        "Linear client secret beside the word linear",
        tuple(_Anchor(form, key_word=True) for form in ("LINEAR", "linear")),
        finder=_beside_vendor_word("linear", r"[0-9a-fA-F]{32}"),
    ),
    _ShapeRule(
        "linkedin-keyed",
        "LinkedIn client id or secret beside the word linkedin",
        _at("LINKEDIN", "linkedin"),
        finder=_beside_vendor_word("linkedin", r"[A-Za-z0-9]{16}|[A-Za-z0-9]{14}"),
    ),
    _ShapeRule(
        "mailchimp-keyed",
        "Mailchimp API key (<32 hex>-us<n>) beside the word mailchimp",
        tuple(_Anchor(form, key_word=True) for form in ("MAILCHIMP", "mailchimp")),
        finder=_beside_vendor_word("mailchimp", r"[0-9a-f]{32}-us[0-9]{1,2}"),
    ),
    _ShapeRule(
        "mailchimp-key",
        "Mailchimp API key (32 hex digits, -us and its data centre)",
        (_Anchor("-us", -32),),
        r"(?<![A-Za-z0-9])[0-9a-f]{32}-us[0-9]{1,2}(?![A-Za-z0-9])",
    ),
    _ShapeRule(
        "mailgun-keyed",
        "Mailgun public or webhook signing key beside the word mailgun",
        tuple(_Anchor(form, key_word=True) for form in ("MAILGUN", "mailgun")),
        finder=_beside_vendor_word(
            "mailgun", r"pubkey-[0-9a-f]{32}|[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}"
        ),
    ),
    _ShapeRule(
        "mapbox-keyed",
        "Mapbox token beside the word mapbox",
        tuple(_Anchor(form, key_word=True) for form in ("MAPBOX", "mapbox")),
        finder=_beside_vendor_word("mapbox", r"[pst]k\.[A-Za-z0-9]{60}\.[A-Za-z0-9]{22}"),
    ),
    _ShapeRule(
        "mattermost-keyed",
        "Mattermost token beside the word mattermost",
        (
            _Anchor("MATTERMOST", key_word=True),
            _Anchor("mattermost", key_word=True),
        ),
        finder=_beside_vendor_word("mattermost", r"[A-Za-z0-9]{26}"),
    ),
    _ShapeRule(
        "messagebird-keyed",
        "MessageBird key beside the word messagebird",
        _at("MESSAGEBIRD", "messagebird"),
        finder=_beside_vendor_word(
            "messagebird",
            r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
            r"|[A-Za-z0-9]{25}",
        ),
    ),
    _ShapeRule(
        "netlify-keyed",
        "Netlify token beside the word netlify",
        (
            _Anchor("NETLIFY", key_word=True),
            _Anchor("netlify", key_word=True),
        ),
        finder=_beside_vendor_word("netlify", r"[A-Za-z0-9=_-]{40,46}"),
    ),
    _ShapeRule(
        "newrelic-keyed",
        "New Relic key beside the word newrelic",
        (
            _Anchor("NEWRELIC", key_word=True),
            _Anchor("NEW_RELIC", key_word=True),
            _Anchor("new_relic"),
            _Anchor("newrelic"),
        ),
        finder=_beside_vendor_word(
            "newrelic|new_relic", r"NR(?:AK|II|JS)-[A-Za-z0-9_-]{19,32}|[A-Za-z0-9]{64}"
        ),
    ),
    _ShapeRule(
        "nytimes-keyed",
        "New York Times API key beside the word nytimes",
        (
            _Anchor("NYTIMES", key_word=True),
            _Anchor("nytimes", key_word=True),
        ),
        finder=_beside_vendor_word("nytimes", r"[A-Za-z0-9=_-]{32}"),
    ),
    _ShapeRule(
        "okta-keyed",
        "Okta API token (00...) beside the word okta",
        _at("OKTA", "okta"),
        finder=_beside_vendor_word("okta", r"00(?=[A-Za-z=_-]{0,39}[0-9])[A-Za-z0-9=_-]{40}"),
    ),
    _ShapeRule(
        "plaid-keyed",
        "Plaid client id or secret beside the word plaid",
        (
            _Anchor("PLAID", key_word=True),
            _Anchor("plaid", key_word=True),
        ),
        finder=_beside_vendor_word("plaid", r"[A-Za-z0-9]{30}|[A-Za-z0-9]{24}"),
    ),
    _ShapeRule(
        "privateai-keyed",
        "Private AI key beside the word privateai",
        tuple(
            _Anchor(form, key_word=True)
            for form in ("PRIVATEAI", "PRIVATE_AI", "private_ai", "privateai")
        ),
        finder=_beside_vendor_word("privateai|private_ai", r"[A-Za-z0-9]{32}"),
    ),
    _ShapeRule(
        "rapidapi-keyed",
        "RapidAPI key beside the word rapidapi",
        (
            _Anchor("RAPIDAPI", key_word=True),
            _Anchor("rapidapi", key_word=True),
        ),
        finder=_beside_vendor_word("rapidapi", r"[A-Za-z0-9_-]{50}"),
    ),
    _ShapeRule(
        "sendbird-keyed",
        "Sendbird id or token beside the word sendbird",
        _at("SENDBIRD", "sendbird"),
        finder=_beside_vendor_word(
            "sendbird",
            r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
            r"|[0-9a-fA-F]{40}",
        ),
    ),
    _ShapeRule(
        "sentry-keyed",
        "Sentry token beside the word sentry",
        tuple(_Anchor(form, key_word=True) for form in ("SENTRY", "sentry")),
        finder=_beside_vendor_word("sentry", r"[0-9a-fA-F]{64}"),
    ),
    _ShapeRule(
        "sidekiq-keyed",
        "Sidekiq Enterprise credentials beside their bundler variable",
        (
            _Anchor("BUNDLE_ENTERPRISE__CONTRIBSYS__COM", key_word=True),
            _Anchor("BUNDLE_GEMS__CONTRIBSYS__COM", key_word=True),
            _Anchor("bundle_enterprise__contribsys__com", key_word=True),
            _Anchor("bundle_gems__contribsys__com", key_word=True),
        ),
        finder=_beside_vendor_word(
            "bundle_enterprise__contribsys__com|bundle_gems__contribsys__com",
            r"[0-9a-fA-F]{8}:[0-9a-fA-F]{8}",
        ),
    ),
    _ShapeRule(
        "snyk-keyed",
        "Snyk token (a UUID) beside the word snyk",
        (
            _Anchor("SNYK", key_word=True),
            _Anchor("snyk"),
        ),
        finder=_beside_vendor_word(
            "snyk", r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
        ),
    ),
    _ShapeRule(
        "sonar-keyed",
        "Sonar token beside the word sonar",
        (
            _Anchor("SONAR", key_word=True),
            _Anchor("sonar", key_word=True),
        ),
        finder=_beside_vendor_word("sonar", r"[A-Za-z0-9=_-]{40}"),
    ),
    _ShapeRule(
        "squarespace-keyed",
        "Squarespace key (a UUID) beside the word squarespace",
        (
            _Anchor("SQUARESPACE", key_word=True),
            _Anchor("squarespace"),
        ),
        finder=_beside_vendor_word(
            "squarespace",
            r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
        ),
    ),
    _ShapeRule(
        "sumologic-keyed",
        "Sumo Logic access id or key beside the word sumo",
        (
            _Anchor("SUMO", key_word=True),
            _Anchor("sumo", key_word=True),
        ),
        finder=_beside_vendor_word("sumo", r"[A-Za-z0-9]{64}|su[A-Za-z0-9]{12}"),
    ),
    _ShapeRule(
        "travis-keyed",
        "Travis CI token beside the word travis",
        (
            _Anchor("TRAVIS", key_word=True),
            _Anchor("travis"),
        ),
        finder=_beside_vendor_word("travis", r"[A-Za-z0-9]{22}"),
    ),
    _ShapeRule(
        "twitch-keyed",
        "Twitch token beside the word twitch",
        (
            _Anchor("TWITCH", key_word=True),
            _Anchor("twitch"),
        ),
        finder=_beside_vendor_word("twitch", r"[A-Za-z0-9]{30}"),
    ),
    _ShapeRule(
        "twitch-token",
        "Twitch chat OAuth token (oauth:<30>)",
        _body_after("oauth:"),
        r"(?<![A-Za-z0-9])oauth:(?=[a-z]{0,29}[0-9])[a-z0-9]{30}(?![A-Za-z0-9])",
    ),
    _ShapeRule(
        "twitter-keyed",
        "Twitter (X) key, secret or token beside the word twitter",
        (
            _Anchor("TWITTER", key_word=True),
            _Anchor("twitter"),
        ),
        finder=_beside_vendor_word(
            "twitter",
            r"A{20,24}[A-Za-z0-9%]{80,110}|[0-9]{15,25}-[A-Za-z0-9]{20,40}"
            r"|[A-Za-z0-9]{50}|[A-Za-z0-9]{45}|[A-Za-z0-9]{25}",
        ),
    ),
    _ShapeRule(
        "vault-keyed",
        "Legacy HashiCorp Vault token (s.<24>) beside the word vault",
        (
            _Anchor("VAULT", key_word=True),
            _Anchor("vault"),
        ),
        finder=_find_legacy_vault_token,
    ),
    _ShapeRule(
        "yandex-keyed",
        "Yandex OAuth token, API key or access key beside the word yandex",
        (
            _Anchor("YANDEX", key_word=True),
            _Anchor("yandex"),
        ),
        finder=_beside_vendor_word(
            "yandex",
            r"t1\.[A-Za-z0-9_-]+={0,2}\.[A-Za-z0-9_-]{86}={0,2}"
            r"|AQVN[A-Za-z0-9_-]{35,38}|YC[A-Za-z0-9_-]{38}",
        ),
    ),
    _ShapeRule(
        "zendesk-keyed",
        "Zendesk token beside the word zendesk",
        tuple(_Anchor(form, key_word=True) for form in ("ZENDESK", "zendesk")),
        finder=_beside_vendor_word("zendesk", r"[A-Za-z0-9]{40}"),
    ),
    # --- vendor token rules: end ---
)

# Every rule, in the order the display boundary applies them within a pass and the storage
# boundary gives them precedence. Storage-only kinds sit where their precedence puts them.
_RULES: tuple[_ShapeRule, ...] = (
    _ShapeRule(
        "private-key",
        "PEM or PGP private-key block, BEGIN to END (or to the end of the text)",
        _at("-----BEGIN "),
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
        # a body that is only an ellipsis or a name to fill in is documentation
        r"(?!(?:\s|\\+[nr])*(?:\.\.\.|\u2026|\\+u2026|<[^<>\n]*>)(?:\s|\\+[nr])*-----END )"
        r"[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)",
    ),
    _ShapeRule(
        "db-uri-creds",
        "database URI with user:password, replaced whole (host and path included)",
        _at("://"),
        finder=_find_db_uri,
    ),
    *_VENDOR_RULES,
    _ShapeRule(
        "jwt",
        "JSON Web Token (eyJ<header>.<payload>.<signature>)",
        _at("eyJ"),
        finder=_find_jwt,
    ),
    _ShapeRule(
        "url-credentials",
        "user:password inside a URL of any other scheme (the pair only)",
        _at("://"),
        finder=_find_url_creds,
    ),
    _ShapeRule(
        "http-auth-header",
        "credential of an Authorization: Basic/Bearer/Token header",
        finder=_find_auth_header,
        probes=(("z", _AUTH_PROBE), ("Z", _AUTH_PROBE)),
    ),
    _ShapeRule(
        "docker-auth",
        'base64 user:password in a Docker config "auth" field',
        # Not an anchor: the quote is so common in code that stopping the prefilter at each
        # one costs more than the finder's own search for `"auth"`.
        finder=_find_docker_auth,
        gate="always",
    ),
    _ShapeRule(
        "email",
        "e-mail address (storage only)",
        finder=_find_email,
        gate="at-sign",
        boundary="storage",
    ),
    _ShapeRule(
        "long-hex",
        "generic hex run of 48 or more digits, grown to the whole token",
        finder=_find_long_hex_display,
        storage_finder=_find_long_hex_storage,
        gate="b64-run",
    ),
    _ShapeRule(
        "long-base64",
        "generic base64 run of 40 or more characters, grown to the whole token",
        finder=_find_long_b64_display,
        storage_finder=_find_long_b64_storage,
        gate="b64-run",
    ),
    _ShapeRule(
        "keyed-secret",
        "value assigned to a credential-named key (password, secret, token, api key...)",
        _at(*sorted(_KEYED_LITERALS)),
        literal_finder=_find_keyed,
        gate="always",
    ),
    _ShapeRule(
        "high-entropy",
        "run of 20+ characters over 4.5 bits per character (storage only)",
        finder=_find_high_entropy,
        gate="entropy-run",
        boundary="storage",
    ),
)

SHAPES: tuple[tuple[str, str], ...] = tuple(
    (rule.name, rule.description) for rule in _RULES if rule.boundary == "both"
)
MARKER_KINDS: tuple[str, ...] = tuple(rule.name for rule in _RULES)


# --------------------------------------------------------------------------------------------
# Display boundary
# --------------------------------------------------------------------------------------------


def _replace(text: str, spans: _Spans, token: str) -> str:
    parts: list[str] = []
    last = 0
    for a, b in spans:
        parts.append(text[last:a])
        parts.append(token)
        last = b
    parts.append(text[last:])
    return "".join(parts)


class _Token(NamedTuple):
    """A replacement token in the output and the input span it stands for."""

    out_start: int
    out_end: int
    in_start: int
    in_end: int
    shape: str  # "" for a remnant: a cut token's leftover characters, standing for no input

    def shifted(self, by: int) -> _Token:
        if not by:
            return self
        return _Token(
            self.out_start + by, self.out_end + by, self.in_start, self.in_end, self.shape
        )


def _track(tokens: list[_Token], spans: _Spans, name: str, tlen: int) -> list[_Token]:
    """Carry input spans through one rule's replacements.

    A span that cuts through an earlier token absorbs that token's whole input span; the
    token's leftover characters stay in the text as remnants (shape "") that stand for no
    input character, so positions after them still map back exactly.
    """
    new: list[_Token] = []
    ti = 0
    shift = 0
    last: _Token | None = None

    def input_at(x: int, ref: _Token | None) -> int:
        return x if ref is None else ref.in_end + (x - ref.out_end)

    for a, b in spans:
        while ti < len(tokens) and tokens[ti].out_end <= a:
            last = tokens[ti]
            new.append(last.shifted(shift))
            ti += 1
        # No rule's match starts inside a token (no literal, scheme or candidate run occurs
        # in "[redacted:<name>]"), so a span starts in raw text; only its end can cut a token.
        in_start = input_at(a, last)
        absorbed: _Token | None = None
        while ti < len(tokens) and tokens[ti].out_start < b:
            absorbed = last = tokens[ti]
            ti += 1
        remnant: _Token | None = None
        if absorbed is not None and absorbed.out_end >= b:
            in_end = absorbed.in_end
            if absorbed.out_end > b:
                remnant = _Token(b, absorbed.out_end, in_end, in_end, "")
        else:
            in_end = input_at(b, last)
        new.append(_Token(a + shift, a + shift + tlen, in_start, in_end, name))
        shift += tlen - (b - a)
        if remnant is not None:
            new.append(remnant.shifted(shift))
    new.extend(token.shifted(shift) for token in tokens[ti:])
    return new


def _input_spans(tokens: list[_Token]) -> list[tuple[int, int, str]]:
    """(in_start, in_end, shape) of the tokens that stand for some input, in order."""
    return [(t.in_start, t.in_end, t.shape) for t in tokens if t.shape and t.in_start < t.in_end]


def _checked_passes(max_passes: object) -> int:
    """The `max_passes` option: None (the default bound) or an int >= 1, never a bool."""
    if max_passes is None:
        return MAX_REDACTION_PASSES
    if isinstance(max_passes, bool) or not isinstance(max_passes, int):
        raise TypeError(f"max_passes must be None or an int, not {type(max_passes).__name__}")
    if max_passes < 1:
        raise ValueError(f"max_passes must be >= 1, got {max_passes}")
    return int(max_passes)


class _Shown(NamedTuple):
    """What the display rules made of a text."""

    text: str
    shapes: list[str]  # one entry per replacement, in the order they were made
    tokens: list[_Token]  # filled only when tracking
    converged: bool  # False: the passes ran out before a pass changed nothing


def _display(text: str, passes: int, track: bool) -> _Shown:
    rules, present = _active_rules(text)
    if not rules:
        return _Shown(text, [], [], True)
    out = text
    shapes: list[str] = []
    tokens: list[_Token] = []
    # A rule is a function of the text: one that found nothing in the text as it is now
    # would find nothing again, so it is not asked until another rule changes the text.
    # (Usually the last rule to change the text in a pass closes the next pass early.)
    version = 0  # bumped on every change of `out`
    clean_at = [-1] * len(rules)  # the version each rule last found nothing in
    for _ in range(passes):
        before = out
        for i, rule in enumerate(rules):
            if clean_at[i] == version:
                continue
            spans = rule.display(out, present)
            if not spans:
                clean_at[i] = version
                continue
            token = f"[redacted:{rule.name}]"
            if track:
                tokens = _track(tokens, spans, rule.name, len(token))
            replaced = _replace(out, spans, token)
            shapes.extend([rule.name] * len(spans))
            if replaced != out:
                out = replaced
                version += 1
        if out == before:
            return _Shown(out, shapes, tokens, True)
    return _Shown(out, shapes, tokens, False)


def redact_secret_shapes(text: str, *, max_passes: int | None = None) -> Redaction:
    """Replace every secret-shaped span with `[redacted:<shape>]`; fail closed on non-convergence.

    `text` is data: anything that is not a `str` gives `Redaction("", ())`, and no text
    makes it raise. `max_passes` is an option (None, or an int >= 1): a wrong one raises
    `TypeError` or `ValueError` naming it.
    """
    passes = _checked_passes(max_passes)
    if not isinstance(text, str) or not text:
        return Redaction("", ())
    plain = str.__str__(text)
    try:
        if _has_escape(plain):
            (out, shapes, _, converged), spans = _escaped_spans(plain, passes)
            if converged and spans is not None:
                return Redaction(_replace_named(plain, spans), tuple(n for _, _, n in spans))
        else:
            out, shapes, _, converged = _display(plain, passes, False)
    except Exception:  # pragma: no cover - fail closed on any internal error
        return Redaction(NONCONVERGENT_TOKEN, (_NONCONVERGENT,))
    if not converged:
        return Redaction(NONCONVERGENT_TOKEN, (*shapes, _NONCONVERGENT))
    return Redaction(out, tuple(shapes))


def find_secret_shapes(text: str) -> tuple[Found, ...]:
    """Spans of the input that `redact_secret_shapes` replaces, in text order; never values."""
    if not isinstance(text, str) or not text:
        return ()
    plain = str.__str__(text)
    try:
        if _has_escape(plain):
            (_, _, tokens, converged), spans = _escaped_spans(plain, MAX_REDACTION_PASSES)
            if converged and spans is not None:
                return tuple(Found(name, a, b) for a, b, name in spans)
        else:
            _, _, tokens, converged = _display(plain, MAX_REDACTION_PASSES, True)
    except Exception:  # pragma: no cover - fail closed on any internal error
        return (Found(_NONCONVERGENT, 0, len(plain)),)
    if not converged:
        return (Found(_NONCONVERGENT, 0, len(plain)),)
    return tuple(Found(t.shape, t.in_start, t.in_end) for t in tokens if t.shape)


# --------------------------------------------------------------------------------------------
# Escaped text: a decoded view with a map back to the raw characters
# --------------------------------------------------------------------------------------------
# Transcripts hold config files inside JSON strings (`\n`, `\"`, `\/`, `\u0022`), logs and
# Python's repr write `\x22`, URLs carry `%2F`, shell lines wrap with a trailing backslash.
# Where the text holds such escapes, the rules also run on a decoded view; each decoded
# span maps back to whole raw escape sequences, and the raw spans are replaced, so
# everything else stays byte-identical and a JSON line still parses. Raw-text spans are cut
# at an escape that decodes to a line break, so a value never runs over `\n` into the next
# line, and are shrunk to whole escape sequences, so a closing `\"` or `\u0022` is never
# cut in half.

_ESCAPE = re.compile(
    r"""
      \\u[0-9a-fA-F]{4}     # JSON: a UTF-16 code unit
    | \\[nrtbf"'/\\]       # JSON and Python one-character escapes
    | \\x(?:[2-7][0-9a-fA-F]|0[9aAdD])  # a hex escape of printable ASCII, a tab or a break
    | \\\r?\n             # a line wrapped with a trailing backslash
    | %[2-7][0-9a-fA-F]     # percent-encoded printable ASCII (so %DB_PASSWORD% stays)
    """,
    re.ASCII | re.VERBOSE,
)
_SIMPLE_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f"}
_BREAKING = frozenset("\n\r")  # a raw span never crosses an escape that decodes to these
_QUOTES = frozenset("\"'`")  # nor begins or ends with one: it would take the quote
_MAX_DECODE_LEVELS = 2  # a JSON line inside a JSON string is escaped twice


class _View(NamedTuple):
    text: str  # the decoded text
    starts: list[int]  # raw index where the escape (or character) of each decoded char starts
    ends: list[int]  # raw index where it ends


class _RawEscapes(NamedTuple):
    starts: list[int]  # raw spans of the escape sequences of the first level, in order
    ends: list[int]
    breaks: list[int]  # raw starts of escapes (any level) that decode to a line break
    quotes: dict[int, int]  # raw start -> end of each first-level escape decoding to a quote
    quote_ends: dict[int, int]  # and end -> start


def _unescape(m: re.Match[str]) -> str:
    seq = m.group()
    if seq[0] == "%":
        return chr(int(seq[1:], 16))
    if seq[1] in "ux":
        return chr(int(seq[2:], 16))
    if seq[1] in "\r\n":
        return ""  # a line continuation joins the two lines
    return _SIMPLE_ESCAPES.get(seq[1], seq[1])


def _decode_once(text: str) -> tuple[_View, _RawEscapes] | None:
    """The text with every escape decoded, and where its escapes are; None without any."""
    chars: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    escapes = _RawEscapes([], [], [], {}, {})
    pos = 0
    for m in _ESCAPE.finditer(text):
        a, b = m.span()
        chars.append(text[pos:a])
        starts.extend(range(pos, a))
        ends.extend(range(pos + 1, a + 1))
        decoded = _unescape(m)
        chars.append(decoded)
        if decoded:
            starts.append(a)
            ends.append(b)
        escapes.starts.append(a)
        escapes.ends.append(b)
        if decoded in _BREAKING:
            escapes.breaks.append(a)
        elif decoded in _QUOTES:
            escapes.quotes[a] = b
            escapes.quote_ends[b] = a
        pos = b
    if pos == 0:
        return None
    chars.append(text[pos:])
    starts.extend(range(pos, len(text)))
    ends.extend(range(pos + 1, len(text) + 1))
    return _View("".join(chars), starts, ends), escapes


def _decoded_views(text: str) -> tuple[list[_View], _RawEscapes, list[_RawEscapes | None]]:
    """Up to `_MAX_DECODE_LEVELS` decoded views mapped to `text`, the raw escapes, and for
    each view the escapes of its own text that the next view decodes (None for the last).

    A finding in a view that is decoded again is fitted to that view's escapes as a raw
    finding is to the raw ones: `KEY: \\"value\\"` once decoded reads `KEY: \"value\"`, and
    the value must not take the backslash of the quote's escape."""
    raw = _RawEscapes([], [], [], {}, {})
    views: list[_View] = []
    own: list[_RawEscapes | None] = []
    current = _View(text, [], [])
    for _ in range(_MAX_DECODE_LEVELS):
        decoded = _decode_once(current.text)
        if decoded is None:
            break
        view, escapes = decoded
        if views:  # compose with the previous level's map back to the raw text
            prev = current
            raw.breaks.extend(prev.starts[i] for i in escapes.breaks)
            own[-1] = escapes
            view = _View(
                view.text,
                [prev.starts[i] for i in view.starts],
                [prev.ends[i - 1] for i in view.ends],
            )
        else:
            raw = escapes
        views.append(view)
        own.append(None)
        current = view
    raw.breaks.sort()
    return views, raw, own


def _fit_through_levels(
    spans: list[tuple[int, int, str]],
    escapes: _RawEscapes,
    views: list[_View],
    own: list[_RawEscapes | None],
) -> list[tuple[int, int, str]]:
    """Raw spans fitted to the raw escapes, then to each decoded level's own escapes: in a
    JSON line inside a JSON string a value must not keep the escaped backslash of the
    twice-escaped quote `\\\\\\"` that closes it."""
    fitted = [(*_fit_raw(a, b, escapes), shape) for a, b, shape in spans]
    for view, level_escapes in zip(views, own, strict=True):
        if level_escapes is None:
            break
        refitted = []
        for a, b, shape in _in_view(view, fitted):
            a, b = _fit_raw(a, b, level_escapes)
            if a < b:
                refitted.append((view.starts[a], view.ends[b - 1], shape))
        fitted = refitted
    return fitted


def _in_view(view: _View, spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Raw spans as spans of the decoded characters they wholly cover (empty ones dropped)."""
    inner = []
    for a, b, shape in spans:
        i = bisect_left(view.starts, a)
        j = bisect_right(view.ends, b)
        if i < j:
            inner.append((i, j, shape))
    return inner


def _mapped_back(
    lo: int,
    views: list[_View],
    own: list[_RawEscapes | None],
    found: list[list[tuple[int, int, str]]],
) -> list[tuple[int, int, str]]:
    """The views' spans, fitted to each view's own escapes, as raw spans of the text whose
    window starts at `lo`."""
    spans: list[tuple[int, int, str]] = []
    for view, escapes, view_spans in zip(views, own, found, strict=True):
        for a, b, shape in view_spans:
            if escapes is not None:
                if _left_to_decoding(view.text, (a, b, shape), escapes):
                    continue  # the next view, decoded again, judges it
                a, b = _fit_raw(a, b, escapes)
            if a < b:
                spans.append((lo + view.starts[a], lo + view.ends[b - 1], shape))
    return spans


def _raw_span(view: _View, a: int, b: int) -> tuple[int, int]:
    return view.starts[a], view.ends[b - 1]


def _fit_raw(a: int, b: int, escapes: _RawEscapes) -> tuple[int, int]:
    """A raw-text span shrunk to whole escape sequences, without an escaped quote at either
    end (`-p\\u0027v\\u0027` is one unquoted word to the raw rule) and cut before a
    line-break escape."""
    i = bisect_right(escapes.starts, a) - 1
    if i >= 0 and escapes.starts[i] < a < escapes.ends[i]:
        a = escapes.ends[i]
    while a in escapes.quotes:
        a = escapes.quotes[a]
    j = bisect_right(escapes.starts, b) - 1
    if j >= 0 and escapes.starts[j] < b < escapes.ends[j]:
        b = escapes.starts[j]
    k = bisect_left(escapes.breaks, a)
    if k < len(escapes.breaks) and escapes.breaks[k] < b:
        b = escapes.breaks[k]
    while b > a and b in escapes.quote_ends:
        b = escapes.quote_ends[b]
    return a, b


_JSON_STRING = _ascii_re(r'"(?:[^"\\\n]|\\.)*"')


class _Strings(NamedTuple):
    """String tokens of JSON documents, in text order: where each starts, where its closing
    quote starts (raw offsets), and the tokens of the JSON document its value holds."""

    starts: list[int]
    closings: list[int]
    inner: list[_Strings | None]

    def clip(self, a: int, b: int) -> int:
        """`b`, or less: the span from `a` ends before the closing quote of each token
        holding `a` (the innermost ends first)."""
        i = bisect_right(self.starts, a) - 1
        if i < 0 or a > self.closings[i]:
            return b
        inner = self.inner[i]
        b = min(b, self.closings[i])
        return b if inner is None else inner.clip(a, b)


def _json_strings(text: str) -> _Strings:
    """The string tokens of every line of `text` that is a JSON document, and of a string
    whose value is a JSON document itself (a transcript line holding a tool's JSON output),
    mapped back to the raw text, down to `_MAX_JSON_DEPTH` levels."""
    found = _Strings([], [], [])
    pos = 0
    for line in text.splitlines(keepends=True):
        if line.lstrip()[:1] in ("{", "[") and _is_json(line):
            _add_string_tokens(found, line, pos, list(range(len(line) + 1)), 1)
        pos += len(line)
    return found


_MAX_JSON_DEPTH = 4  # JSON documents inside JSON strings, read this deep: a bound, not a format


def _add_string_tokens(found: _Strings, doc: str, base: int, raw_at: list[int], depth: int) -> None:
    """Adds the string tokens of the JSON document `doc`, whose character i starts at
    `base + raw_at[i]` in the raw text, and those of the documents their values hold."""
    for m in _JSON_STRING.finditer(doc):
        found.starts.append(base + raw_at[m.start()])
        found.closings.append(base + raw_at[m.end() - 1])
        found.inner.append(None)
        token = m.group()
        if depth >= _MAX_JSON_DEPTH or token[1:3].lstrip()[:1] not in ("{", "["):
            continue
        value = json.loads(token)
        starts = _value_offsets(token)
        if value.lstrip()[:1] in ("{", "[") and len(starts) == len(value) + 1 and _is_json(value):
            inner = found.inner[-1] = _Strings([], [], [])
            at = [raw_at[m.start() + k] for k in starts]
            _add_string_tokens(inner, value, base, at, depth + 1)


_JSON_ESCAPE_LENGTH = {"u": 6}  # `\uXXXX`; every other escape is two characters


def _value_offsets(token: str) -> list[int]:
    """Where each character of a JSON string token's value starts in the token, then where
    its closing quote starts."""
    starts: list[int] = []
    i, last = 1, len(token) - 1
    while i < last:
        starts.append(i)
        if token[i] != "\\":
            i += 1
            continue
        step = _JSON_ESCAPE_LENGTH.get(token[i + 1], 2)
        if step == 6 and _SURROGATE_PAIR.match(token, i):
            step = 12  # json.loads joins a surrogate pair into one character
        i += step
    starts.append(last)
    return starts


_SURROGATE_PAIR = _ascii_re(r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}")


def _is_json(line: str) -> bool:
    try:
        json.loads(line)
    except ValueError:
        return False
    return True


def _inside_json_strings(
    text: str, spans: list[tuple[int, int, str]]
) -> list[tuple[int, int, str]]:
    """Spans that start inside a JSON string token end before its closing quote, so a rule
    that runs to the end of its block (a truncated private key) cannot eat `"}`, nor a value
    read in a decoded view the `\\"}` that closes a JSON document inside a JSON string."""
    strings = _json_strings(text)
    if not strings.starts:
        return spans
    kept: list[tuple[int, int, str]] = []
    for a, b, name in spans:
        b = strings.clip(a, b)
        if a < b:
            kept.append((a, b, name))
    return kept


def _merge_spans(spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Overlapping spans united, in text order; the union keeps the first span's name."""
    merged: list[tuple[int, int, str]] = []
    for a, b, name in sorted(spans):
        if a >= b:
            continue
        if merged and a < merged[-1][1]:
            last = merged[-1]
            merged[-1] = (last[0], max(last[1], b), last[2])
        else:
            merged.append((a, b, name))
    return merged


def _decoded_texts(text: str) -> list[str]:
    """The decoded texts of `_decoded_views`, without their maps (cheap: one `re.sub` each)."""
    texts: list[str] = []
    current = text
    for _ in range(_MAX_DECODE_LEVELS):
        if not _has_escape(current):
            break
        current = _ESCAPE.sub(_unescape, current)
        texts.append(current)
    return texts


def _escapes(text: str) -> Iterator[re.Match[str]]:
    """The escapes of `text`, in order, as `_ESCAPE.finditer` would give them.

    Found from the backslashes and percent signs, which `str.find` reaches at memory speed:
    `_ESCAPE` alone would test every character against its first-character set, several
    times slower on text with none.
    """
    backslash = text.find("\\")
    percent = text.find("%")
    pos = 0
    while backslash != -1 or percent != -1:
        if percent == -1 or (backslash != -1 and backslash < percent):
            at, backslash = backslash, text.find("\\", backslash + 1)
        else:
            at, percent = percent, text.find("%", percent + 1)
        if at < pos:
            continue  # inside the escape just given (the second backslash of `\\\\`)
        m = _ESCAPE.match(text, at)
        if m is not None:
            pos = m.end()
            yield m


def _has_escape(text: str) -> bool:
    return next(_escapes(text), None) is not None


_CONTEXT_LINES = 1  # lines of context a window keeps on each side of its escapes
# Windows closer than this are scanned as one: each scan has a fixed cost of a few
# microseconds, so text with an escape every few lines would otherwise pay it per line.
_WINDOW_GAP = 512
_CONTINUATIONS = ("\\\n", "\\\r\n")


def _line_end(text: str, pos: int) -> int:
    """The position after the line break that ends the line holding `pos`, or the end."""
    found = text.find("\n", pos)
    return len(text) if found == -1 else found + 1


def _escape_windows(text: str) -> list[tuple[int, int]]:
    """Raw spans of whole lines that hold an escape, with `_CONTEXT_LINES` lines around them.

    Decoding changes the text only at its escapes, so the rules find nothing new in a decoded
    view far from them: only these windows are decoded and scanned, which keeps a source file
    with a few `"\\n"` strings nearly as cheap as one without. A window starts and ends at a
    line break outside any escape, so decoding it alone gives the same characters as
    decoding the whole text there; windows that touch are merged.
    """
    windows: list[tuple[int, int]] = []
    line_end = 0
    for m in _escapes(text):
        if m.start() < line_end:
            continue  # another escape on a line already taken
        start = text.rfind("\n", 0, m.start()) + 1
        for _ in range(_CONTEXT_LINES):
            start = text.rfind("\n", 0, start - 1) + 1 if start > 0 else 0
        line_end = _line_end(text, m.end())
        while line_end < len(text) and text.endswith(_CONTINUATIONS, 0, line_end):
            line_end = _line_end(text, line_end)  # the next line is joined to this one
        end = line_end
        for _ in range(_CONTEXT_LINES):
            end = _line_end(text, end)
        if windows and start <= windows[-1][1] + _WINDOW_GAP:
            start = windows.pop()[0]
        windows.append((start, end))
    return windows


def _escaped_spans(text: str, passes: int) -> tuple[_Shown, list[tuple[int, int, str]] | None]:
    """The raw text's own display result, and the display spans of escaped text: raw spans
    (fitted to whole escapes) united with the decoded windows' spans mapped back. The spans
    are None where they equal the raw result's (the caller then uses that result as is);
    the result reads as not converged when any view did not converge. The offset maps are
    built only where something was found.

    A span that an escape reshapes (`_left_to_decoding`) is left to the decoded view, where
    the escape is the character it stands for."""
    raw = _display(text, passes, True)
    if not raw.converged:
        return raw, None
    found_raw = _input_spans(raw.tokens)
    decoded: list[tuple[int, int, str]] = []
    for lo, hi in _escape_windows(text):
        window = text[lo:hi]
        found: list[list[tuple[int, int, str]]] = []
        for view_text in _decoded_texts(window):
            shown = _display(view_text, passes, True)
            if not shown.converged:
                return shown, None
            found.append(_input_spans(shown.tokens))
        if any(found):
            views, _, own = _decoded_views(window)
            decoded.extend(_mapped_back(lo, views, own, found))
    if not decoded and not found_raw:
        return raw, None
    views, escapes, own = _decoded_views(text)
    kept = [span for span in found_raw if not _left_to_decoding(text, span, escapes)]
    fitted = _fit_through_levels(kept, escapes, views, own)
    united = _inside_json_strings(text, _merge_spans(fitted + decoded))
    if united == _merge_spans(found_raw):
        return raw, None
    return raw, united


_GENERIC_SHAPES = frozenset(("long-hex", "long-base64"))
_URI_SHAPES = frozenset(("db-uri-creds", "url-credentials"))


def _left_to_decoding(text: str, span: tuple[int, int, str], escapes: _RawEscapes) -> bool:
    """A span of a text that is decoded again, which the decoded view must judge: a URI
    whose credentials run over an escaped line break (`redis://host:6379/0\\nURL=...@` has
    no password; a break after the `@` only ends the host, and the span is cut there), or a
    generic run beside an escape's backslash (the letter of `\\n` joins `\\n<40 hex>` into
    41 base64 characters; `sha512-...\\/...` loses its label after the slash)."""
    a, b, shape = span
    if shape in _URI_SHAPES:
        k = bisect_left(escapes.breaks, a)
        at = text.find("@", a, b)
        return k < len(escapes.breaks) and escapes.breaks[k] < (b if at == -1 else at)
    if shape not in _GENERIC_SHAPES:
        return False
    return any(text[at : at + 1] == "\\" and _inside_an_escape(escapes, at) for at in (a - 1, b))


def _inside_an_escape(escapes: _RawEscapes, at: int) -> bool:
    i = bisect_right(escapes.starts, at) - 1
    return i >= 0 and at < escapes.ends[i]


def _replace_named(text: str, spans: list[tuple[int, int, str]]) -> str:
    parts: list[str] = []
    last = 0
    for a, b, name in spans:
        parts.append(text[last:a])
        parts.append(f"[redacted:{name}]")
        last = b
    parts.append(text[last:])
    return "".join(parts)


def _escaped_claims(text: str, claims: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Storage claims of `text` united with those of its decoded windows, mapped back."""
    if not _has_escape(text):
        return claims  # the plain path
    decoded: list[tuple[int, int, str]] = []
    for lo, hi in _escape_windows(text):
        window = text[lo:hi]
        found = [_storage_claims(view_text) for view_text in _decoded_texts(window)]
        if any(found):
            views, _, own = _decoded_views(window)
            decoded.extend(_mapped_back(lo, views, own, found))
    if not claims and not decoded:
        return claims
    views, escapes, own = _decoded_views(text)
    spans = _fit_through_levels(claims, escapes, views, own)
    return _inside_json_strings(text, _merge_spans(spans + decoded))


_JsonT = TypeVar("_JsonT")


def redact_json_like(value: _JsonT) -> _JsonT:
    """The same shape with every string passed through `redact_secret_shapes`.

    Dicts, lists and tuples are rebuilt (a dict comes back as a plain `dict`, in the same
    order); strings, dict keys included, come back redacted; every other value (numbers,
    `None`, bytes, sets, objects) is returned as it is. Two keys that redact to the same text
    keep both values: the later key gets a suffix `#2`, `#3`... Shared containers stay
    shared and a list or dict that contains itself comes back containing its copy; a cycle
    that passes through a tuple is cut with `NONCONVERGENT_TOKEN`. The walk is iterative,
    so nesting depth is bounded by memory, not by the recursion limit. Never raises on data.
    """
    if isinstance(value, str):
        return redact_secret_shapes(value).text  # type: ignore[return-value]
    if not isinstance(value, (dict, list, tuple)):
        return value
    order = _post_order(value)
    built: dict[int, Any] = {}
    for node in order:  # mutable shells first, so a cycle can point at its own copy
        if isinstance(node, dict):
            built[id(node)] = {}
        elif isinstance(node, list):
            built[id(node)] = []

    def copy_of(item: object) -> object:
        if isinstance(item, str):
            return redact_secret_shapes(item).text
        if isinstance(item, (dict, list, tuple)):
            return built.get(id(item), NONCONVERGENT_TOKEN)
        return item

    for node in order:  # children before parents
        if isinstance(node, dict):
            out: dict[object, object] = built[id(node)]
            for key, item in list(node.items()):
                new_key = copy_of(key)
                if new_key in out:
                    suffix = 2
                    while f"{new_key}#{suffix}" in out:
                        suffix += 1
                    new_key = f"{new_key}#{suffix}"
                out[new_key] = copy_of(item)
        elif isinstance(node, list):
            built[id(node)].extend(copy_of(item) for item in list(node))
        else:
            built[id(node)] = tuple(copy_of(item) for item in node)
    return built[id(value)]  # type: ignore[no-any-return]


def _post_order(root: object) -> list[dict[Any, Any] | list[Any] | tuple[Any, ...]]:
    """Every container reachable from `root`, each once, children before parents."""
    order: list[dict[Any, Any] | list[Any] | tuple[Any, ...]] = []
    seen: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            order.append(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        children = list(node.items()) if isinstance(node, dict) else list(node)
        for child in children:
            for item in child if isinstance(node, dict) else (child,):
                if isinstance(item, (dict, list, tuple)) and id(item) not in seen:
                    stack.append((item, False))
    return order


# --------------------------------------------------------------------------------------------
# Storage boundary
# --------------------------------------------------------------------------------------------

_MARKER_RE = _ascii_re(
    r"<REDACTED:(" + "|".join(re.escape(k) for k in MARKER_KINDS) + r"):[0-9a-f]{5}>"
)


def _marker_for(kind: str, value: str) -> str:
    digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()
    return f"<REDACTED:{kind}:{digest[:5]}>"


def _storage_kinds(text: str) -> list[tuple[str, _Finder]]:
    """The kinds that can mark `text`, in precedence order, each with its finder."""
    scan = _scan(text)
    return [(rule.name, _bind(rule.storage, scan.present)) for rule in _rules_on(scan, text, True)]


def _bind(finder: _Spans2Finder, present: frozenset[str]) -> _Finder:
    def find(text: str) -> _Spans:
        return finder(text, present)

    return find


def _claim_pass(
    text: str,
    kinds: list[tuple[str, _Finder]],
    stretches: list[tuple[int, int, bool]],
    claims: list[tuple[int, int, str]],
) -> list[tuple[int, int, bool]]:
    """Every kind, in order, over the stretches flagged for scanning; returns the new stretches.

    A stretch that no claim touched was matched whole by every kind and is not scanned again;
    a piece cut off by a claim is flagged, so repeating until nothing is flagged reaches the
    fixed point that makes scrubbing idempotent. Usually the first pass is the only one.
    """
    cur = [(lo, hi, scan, False) for lo, hi, scan in stretches]
    for kind, finder in kinds:
        nxt: list[tuple[int, int, bool, bool]] = []
        for lo, hi, scan, fresh in cur:
            spans = finder(text[lo:hi]) if scan else []
            if not spans:
                nxt.append((lo, hi, scan, fresh))
                continue
            pos = lo
            for a, b in spans:
                claims.append((lo + a, lo + b, kind))
                if lo + a > pos:
                    nxt.append((pos, lo + a, True, True))
                pos = lo + b
            if pos < hi:
                nxt.append((pos, hi, True, True))
        cur = nxt
    return [(lo, hi, fresh) for lo, hi, _, fresh in cur]


def _storage_claims(plain: str) -> list[tuple[int, int, str]]:
    """Every kind's claims on the text between well-formed markers, in text order."""
    stretches: list[tuple[int, int]] = []  # the text between well-formed markers
    last = 0
    for m in _MARKER_RE.finditer(plain):
        if m.start() > last:
            stretches.append((last, m.start()))
        last = m.end()
    if last < len(plain):
        stretches.append((last, len(plain)))
    claims: list[tuple[int, int, str]] = []
    kinds = _storage_kinds(plain)
    flagged = [(lo, hi, True) for lo, hi in stretches]
    while any(scan for _, _, scan in flagged):
        flagged = _claim_pass(plain, kinds, flagged, claims)
    claims.sort()
    return claims


def scrub_for_storage(text: str | None, *, sidecar: bool) -> Scrubbed:
    """Replace secret-shaped spans with `<REDACTED:kind:hhhhh>` markers; originals returned.

    Raises `ScrubRefused` (kinds only) when a marker is needed and `sidecar is not True`;
    raises `TypeError` for input that is neither `str` nor `None`.
    """
    if text is None:
        return Scrubbed("", (), Originals())
    if not isinstance(text, str):
        raise TypeError("scrub_for_storage takes str or None, not " + type(text).__name__)
    has_sidecar = sidecar is True
    plain = str.__str__(text)
    if not plain:
        return Scrubbed("", (), Originals())
    claims = _escaped_claims(plain, _storage_claims(plain))
    if not claims:
        return Scrubbed(plain, (), Originals())
    if not has_sidecar:
        raise ScrubRefused(tuple(kind for _, _, kind in claims))
    parts: list[str] = []
    markers: list[Marker] = []
    originals: list[str] = []
    pos = 0
    out_len = 0
    for a, b, kind in claims:
        parts.append(plain[pos:a])
        out_len += a - pos
        value = plain[a:b]
        mark = _marker_for(kind, value)
        markers.append(Marker(kind, mark, out_len, out_len + len(mark)))
        originals.append(value)
        parts.append(mark)
        out_len += len(mark)
        pos = b
    parts.append(plain[pos:])
    return Scrubbed("".join(parts), tuple(markers), Originals(originals))


# --------------------------------------------------------------------------------------------
# Noise report
# --------------------------------------------------------------------------------------------

_NOISE_UUID = re.compile(
    r"(?:urn:uuid:)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
    re.ASCII | re.IGNORECASE,
)
_NOISE_HASH = _ascii_re(
    r"sha256-[A-Za-z0-9+/]{43}=|sha384-[A-Za-z0-9+/]{64}|sha512-[A-Za-z0-9+/]{86}=="
    r"|(?i:md5)[:=][0-9a-fA-F]{32}|(?i:sha1)[:=][0-9a-fA-F]{40}|(?i:sha224)[:=][0-9a-fA-F]{56}"
    r"|(?i:sha256)[:=][0-9a-fA-F]{64}|(?i:sha384)[:=][0-9a-fA-F]{96}"
    r"|(?i:sha512)[:=][0-9a-fA-F]{128}"
)
_NOISE_URL = _ascii_re(r"(?i:https?|wss?|ftp|file)://[^\s@/?#]*(?:[/?#]\S*)?")
_NOISE_PATH = _ascii_re(
    r"(?:~|\.{1,2}|[A-Za-z]:)?[/\\](?:[A-Za-z0-9._~@-]*[/\\])*[A-Za-z0-9._~@-]*"
    r"|[A-Za-z0-9._~@-]+(?:[/\\][A-Za-z0-9._~@-]+){2,}[/\\]?"
)
_TOKENISH = _ascii_re(r"[A-Za-z0-9]{16,}")


def _token_like(value: str) -> bool:
    for m in _TOKENISH.finditer(value):
        run = m.group()
        if any(ch in _DIGITS for ch in run) and any(ch.isalpha() for ch in run):
            return True
    return False


def noise_report(values: Iterable[str]) -> NoiseReport:
    """Classify catch-all originals into uuid/hash/url/path/unclassified; counts only."""
    counts = {"uuid": 0, "hash": 0, "url": 0, "path": 0, "unclassified": 0}
    seen: set[str] = set()
    total = skipped = 0
    try:
        items: Iterable[object] = [values] if isinstance(values, str) else iter(values)
        for item in items:
            if not isinstance(item, str):
                skipped += 1
                continue
            value = str.__str__(item)
            total += 1
            seen.add(value)
            counts[_noise_class(value)] += 1
    except Exception:
        if total == 0 and skipped == 0:
            return NoiseReport(0, 0, 0, 0, 0, 0, 0, 0, None)
    share = None if total == 0 else (total - counts["unclassified"]) / total
    return NoiseReport(
        total,
        len(seen),
        counts["uuid"],
        counts["hash"],
        counts["url"],
        counts["path"],
        counts["unclassified"],
        skipped,
        share,
    )


def _noise_class(value: str) -> str:
    if _NOISE_UUID.fullmatch(value):
        return "uuid"
    if _NOISE_HASH.fullmatch(value):
        return "hash"
    if _NOISE_URL.fullmatch(value) and not _token_like(value):
        return "url"
    if _NOISE_PATH.fullmatch(value) and not _token_like(value):
        return "path"
    return "unclassified"


# ============================================================================================
# Speed machinery
# ============================================================================================
#
# A call must not pay for rules whose text cannot occur, so `_scan` decides once per input,
# with a few C-level passes, which rules can match; the rules then run in table order.
# - A byte translate classes every character (letter or digit / `+` or `/` / other), so
#   "is there a run of 30 alphanumerics, or of 40 base64 characters" is a substring test.
# - One regular expression, the prefilter, stops only at the rarest character of each
#   literal and checks the rest of the literal around it (look-behind and look-ahead);
#   the group that closes the branch which held names its literal, and only the branches
#   that could hold at the same place too are checked directly.
# - A literal whose rule guarantees a long alphanumeric body (`_Anchor.run_at`) is looked
#   for only at the start of such a run, so long-bodied vendor tokens add no cost to text
#   without long runs; `_Anchor.b64_run` literals only on the lines holding a base64 run
#   of 32, and `_Anchor.url_run` literals on the lines holding a base64url run of 32.
#   Text without a run of 24 in base64 and base64url together (`_WIDE_RUN`) skips every
#   run test; only text that holds one is searched for `_Anchor.wide_run` literals, tried
#   with the finders of "wide-run" rules, and searched for vendor words
#   (`_Anchor.key_word`) just before its assigned runs.
# - An anchored rule tries its regular expression only where one of its literals occurs.
# The gate may only switch a rule OFF where it cannot match: outputs are those of running
# every rule everywhere (the vendor words' gate is the one documented exception).


class _Compiled(NamedTuple):
    """A rule ready to run: its finders and the scan keys that switch it on."""

    name: str
    display: _Spans2Finder
    storage: _Spans2Finder
    keys: frozenset[str]  # literals, or probe keys, any of which switches the rule on
    gate: str
    boundary: str


def _probe_key(rule_name: str) -> str:
    return "\x00" + rule_name  # cannot collide with a literal of the text


def _anchored(
    pattern: re.Pattern[str], anchors: tuple[_Anchor, ...], needs: str = ""
) -> _Spans2Finder:
    match = pattern.match

    def find(text: str, present: frozenset[str]) -> _Spans:
        if needs not in text:
            return []
        starts: list[int] = []
        for anchor in anchors:
            lit, shift = anchor.literal, anchor.shift
            if lit not in present:
                continue
            i = text.find(lit)
            while i != -1:
                if i + shift >= 0:
                    starts.append(i + shift)
                i = text.find(lit, i + 1)
        if not starts:
            return []
        starts.sort()  # several literals interleave; sorting a short list costs nothing
        out: _Spans = []
        last = 0
        for st in starts:
            if st < last:
                continue
            m = match(text, st)
            if m is not None and not _filler(m.group()):
                out.append(m.span())
                last = m.end()
        return out

    return find


_NOT_FILLER = str.maketrans("", "", "xX0")


def _filler(token: str) -> bool:
    """A vendor shape filled in with x, X or 0 (`ghp_xxxx...`, `sk_live_XXXX...`): three
    quarters of its letters and digits or more are filler, which a random body never is.
    In a URL (a webhook) the secret is its last path segment, measured alone."""
    if "xxxx" not in token and "XXXX" not in token and "0000" not in token:
        return False  # the cheap test: every filled-in shape holds a run of four
    if _URL_MARK in token:
        last = token.rstrip("/").rsplit("/", 1)[-1]
        token = last if len(last) >= 8 else token
    filler = len(token) - len(token.translate(_NOT_FILLER))
    return 4 * filler >= 3 * sum(ch.isalnum() for ch in token)


def _plain(finder: _Finder) -> _Spans2Finder:
    def find(text: str, present: frozenset[str]) -> _Spans:
        return finder(text)

    return find


def _compile(rule: _ShapeRule) -> _Compiled:
    keys = {anchor.literal for anchor in rule.anchors}
    if rule.probes or rule.gate == "wide-run":
        keys.add(_probe_key(rule.name))
    if rule.literal_finder is not None:
        display = storage = rule.literal_finder
    elif rule.finder is not None:
        display = _plain(rule.finder)
        storage = _plain(rule.storage_finder or rule.finder)
    else:
        display = storage = _anchored(_ascii_re(rule.pattern), rule.anchors, rule.also_needs)
    return _Compiled(rule.name, display, storage, frozenset(keys), rule.gate, rule.boundary)


_COMPILED: tuple[_Compiled, ...] = tuple(_compile(rule) for rule in _RULES)
_ANCHORS: tuple[_Anchor, ...] = tuple(anchor for rule in _RULES for anchor in rule.anchors)
_LITERALS = frozenset(anchor.literal for anchor in _ANCHORS)
# Literals contained in another literal are present whenever the longer one is.
_CONTAINED: dict[str, frozenset[str]] = {
    lit: frozenset(other for other in _LITERALS if other in lit) for lit in _LITERALS
}
# A literal is "long" when every one of its anchors promises a run (one anchor without that
# promise means it must be found everywhere).
_PROMISES: dict[str, set[int | None]] = {}  # literal -> run offsets promised (-1: base64)
for _anchor in _ANCHORS:
    _promise = -1 if _anchor.b64_run else -2 if _anchor.url_run else _anchor.run_at
    _promise = -3 if _anchor.wide_run else -4 if _anchor.key_word else _promise
    _PROMISES.setdefault(_anchor.literal, set()).add(_promise)  # (-2: base64url, -3: wide)
del _anchor, _promise
_B64_RUN_LITERALS = tuple(sorted(lit for lit, at in _PROMISES.items() if at == {-1}))
_KEY_WORD_LITERALS = tuple(sorted(lit for lit, at in _PROMISES.items() if at == {-4}))
_URL_RUN_LITERALS = tuple(
    (lit, lit.encode()) for lit, at in sorted(_PROMISES.items()) if at == {-2}
)
# One expression finds them all on the lines holding a run (none holds another, so the
# engine's leftmost match hides none; the longest first all the same).
_URL_RUN_FINDER = re.compile(
    b"|".join(re.escape(e) for _, e in sorted(_URL_RUN_LITERALS, key=lambda x: -len(x[0])))
).findall
_URL_RUN_NAMES = {encoded: lit for lit, encoded in _URL_RUN_LITERALS}
# run offset -> the long literals whose alphanumeric run starts that far after their start
_BY_OFFSET: dict[int, list[str]] = {}
for _lit, _offsets in sorted(_PROMISES.items()):
    _only = min(_offsets, key=lambda x: -2 if x is None else x)
    if len(_offsets) == 1 and _only is not None and _only >= 0:
        _BY_OFFSET.setdefault(_only, []).append(_lit)
del _lit, _offsets, _only
_RUN_OFFSETS: tuple[tuple[int, tuple[str, ...]], ...] = tuple(
    (offset, tuple(lits)) for offset, lits in sorted(_BY_OFFSET.items())
)
_LONG_LITERALS = frozenset(lit for _, lits in _RUN_OFFSETS for lit in lits)
# Most long literals are prefixes that end where their run starts (`ghp_`, `hf_`): such a
# literal is found by the two characters before a run, one dictionary look-up per run.
_ENDING_BEFORE_RUN: dict[str, tuple[str, ...]] = {}
for _offset, _lits in _RUN_OFFSETS:
    for _lit in _lits:
        if _offset == len(_lit) >= 2:
            _ENDING_BEFORE_RUN[_lit[-2:]] = (*_ENDING_BEFORE_RUN.get(_lit[-2:], ()), _lit)
del _offset, _lits, _lit
_OTHER_OFFSETS = tuple(
    (offset, kept)
    for offset, lits in _RUN_OFFSETS
    if (kept := tuple(lit for lit in lits if not offset == len(lit) >= 2))
)
# Few and looked for only past a run of 24, each with `in`: cheaper than their stops.
_WIDE_RUN_LITERALS = tuple(sorted(lit for lit, at in _PROMISES.items() if at == {-3}))
_SHORT_LITERALS = (
    _LITERALS
    - _LONG_LITERALS
    - frozenset(_B64_RUN_LITERALS)
    - frozenset(lit for lit, _ in _URL_RUN_LITERALS)
    - frozenset(_WIDE_RUN_LITERALS)
    - frozenset(_KEY_WORD_LITERALS)
)

# Each literal is found through its rarest character (rarest first in this ranking, measured
# on the standard library's sources), so the engine stops at few positions and checks the
# rest of the literal around that character.
_RARITY = (
    "$~^J&Q?|Z@;!YX7K`{}96W<GVH5\\8B43q%+U/Mzj*>L2DFPC[]ORA1S0INT-Ekv#xwyb:="
    "'g\",()h.mup_cdfloinarste "
)


def _rarest_at(lit: str, among: frozenset[str] | None = None) -> int:
    """Where the prefilter stops for `lit`: its rarest character (of `among`, when given)."""
    at = [i for i in range(len(lit)) if among is None or lit[i] in among]
    return min(at, key=lambda i: (_RARITY.find(lit[i]) % 1000, i))


# A base64-gated literal that holds an upper-case letter or a digit at which the prefilter
# stops anyway, for another literal (`TRAVIS` holds `R`, a stop of `NRII-`), is found at that
# character like any short literal: those characters are rare in text, so it costs next to
# nothing, and the vendor word is then found whatever its line holds.
_RARE_STOPS = frozenset(
    c
    for c in (lit[_rarest_at(lit)] for lit in _SHORT_LITERALS - _KEYED_LITERALS)
    if c.isupper() or c.isdigit()
)

_SHARED_STOP_LITERALS = frozenset(
    lit for lit in _B64_RUN_LITERALS + _KEY_WORD_LITERALS if _RARE_STOPS.intersection(lit)
)
# The key-name layer's literals (a tool's or a call's name) stop at a rare stop they hold
# too, so they add no stop character of their own (`new PDO(` stops at `P`, not at `D`).
_AT_RARE_STOPS = _SHARED_STOP_LITERALS | frozenset(
    lit for lit in _KEYED_LITERALS if _RARE_STOPS.intersection(lit)
)


class _Stop(NamedTuple):
    """One branch of a prefilter: a literal around its stop character, or a probe."""

    key: str
    literal: str  # "" for a probe
    before: int  # characters of the literal before the stop character
    probe: re.Pattern[str] | None
    # The engine names only the first branch that holds at a position: the later branches
    # of the same character that could hold there too, checked one by one.
    also: tuple[_Stop, ...] = ()

    def holds(self, text: str, p: int) -> bool:
        if self.probe is not None:
            return self.probe.match(text, p) is not None
        return p >= self.before and text.startswith(self.literal, p - self.before)


def _stop_branch(c: str, found: list[tuple[str, _Stop]]) -> tuple[str, list[_Stop]]:
    """The prefilter's branch for the stop character `c`, and its stops in group order.

    The literals that hold a character before the stop are tried behind one look-behind on
    that character: at a stop none of them holds (each dash of `-----`) the engine fails in
    one comparison instead of trying each literal. The other branches come first (they open
    with a character or are probes), and the order keeps a literal's partners few.
    """
    behind = [(around, stop) for around, stop in found if stop.before and not stop.probe]
    rest = [(around, stop) for around, stop in found if not stop.before or stop.probe]
    alternatives = [around + "()" for around, _ in rest]
    if len(behind) > 1:
        chars = "".join(sorted({re.escape(stop.literal[stop.before - 1]) for _, stop in behind}))
        joined = "|".join(around + "()" for around, _ in behind)
        alternatives.append(f"(?<=[{chars}]{re.escape(c)})(?:{joined})")
    else:
        alternatives += [around + "()" for around, _ in behind]
    branch = re.escape(c) + "(?=" + "|".join(alternatives) + ")"
    return branch, [stop for _, stop in rest + behind]


def _may_share_a_stop(first: _Stop, later: _Stop) -> bool:
    """`later` can hold where `first` does and is not implied by it (a literal inside
    another is present with it)."""
    if first.probe is not None or later.probe is not None:
        return True
    if later.literal in first.literal:
        return False
    shift = first.before - later.before  # `later` starts this far into `first`
    return all(
        first.literal[i + shift] == ch
        for i, ch in enumerate(later.literal)
        if 0 <= i + shift < len(first.literal)
    )


class _Prefilter(NamedTuple):
    """One regular expression over a set of literals and probes, and what its groups mean."""

    pattern: re.Pattern[str]
    stops: tuple[_Stop, ...]  # by the number of the group that closes each branch


def _build_prefilter(literals: frozenset[str], with_probes: bool) -> _Prefilter:
    branches: dict[str, list[tuple[str, _Stop]]] = {}  # stop character -> (regex, stop)
    for lit in sorted(literals, key=lambda x: (-len(x), x)):
        k = _rarest_at(lit, _RARE_STOPS if lit in _AT_RARE_STOPS else None)
        pre, c, post = lit[:k], lit[k], lit[k + 1 :]
        # The rest of the literal first, then the whole literal behind: a branch that opens
        # with a character is dropped by the engine in one comparison.
        if post:
            around = re.escape(post) + f"(?<={re.escape(lit)})"
        else:
            around = f"(?<={re.escape(pre + c)})" if pre else ""
        branches.setdefault(c, []).append((around, _Stop(lit, lit, k, None)))
    for rule in _RULES if with_probes else ():
        for c, around in rule.probes:  # zero-width look-arounds
            probe = _ascii_re(re.escape(c) + "(?:" + around + ")")
            branches.setdefault(c, []).append((around, _Stop(_probe_key(rule.name), "", 0, probe)))
    # Each character matches alone (the rest is looked at, not consumed), so every position
    # of the text is tried; each branch ends with an empty group, whose number names it.
    parts: list[str] = []
    stops: list[_Stop] = [_Stop("", "", 0, None)]  # group 0 is the whole match, never a branch
    for c, found in sorted(branches.items()):
        branch, order = _stop_branch(c, found)
        parts.append(branch)
        for n, stop in enumerate(order):
            also = tuple(other for other in order[n + 1 :] if _may_share_a_stop(stop, other))
            stops.append(stop._replace(also=also))
    return _Prefilter(_ascii_re("|".join(parts)), tuple(stops))


_PREFILTER_SHORT = _build_prefilter(_SHORT_LITERALS | _SHARED_STOP_LITERALS, True)
# For non-ASCII text, where byte classes do not line up with characters, the long literals
# are found with a prefilter of their own.
_PREFILTER_LONG = _build_prefilter(_LONG_LITERALS, False)
# The literals gated by a run are looked for on the lines that hold one, in UTF-8:
# by their lower-case form first, since most come in a lower and an UPPER spelling and
# neither occurs where the lower-cased line lacks the lower form (`bytes.lower` changes
# ASCII letters only, so an ASCII literal's lower form survives it; a literal that is not
# ASCII is looked for as it is).
_B64_BY_LOWER: dict[bytes, tuple[tuple[str, bytes], ...]] = {}
for _lit in sorted(frozenset(_B64_RUN_LITERALS) - _SHARED_STOP_LITERALS):
    _low = _lit.encode().lower() if _lit.isascii() else b""
    _B64_BY_LOWER[_low] = (*_B64_BY_LOWER.get(_low, ()), (_lit, _lit.encode()))
del _lit, _low
_B64_RUN_32 = b"a" * 32
# Vendor words, by their lower-case form (every spelling of one switches on its rule),
# found in the key windows by a prefilter of their own: a test with `in` for each word
# costs a call per word, one alternation of all tries every word at every letter.
_KEY_WORD_SPELLINGS: dict[str, tuple[str, ...]] = {}
for _lit in _KEY_WORD_LITERALS:
    _KEY_WORD_SPELLINGS[_lit.lower()] = (*_KEY_WORD_SPELLINGS.get(_lit.lower(), ()), _lit)
del _lit
_PREFILTER_KEY_WORDS = _build_prefilter(frozenset(_KEY_WORD_SPELLINGS), False)
_KEY_WORD_BACK = 64  # characters before a run where the key's vendor word is looked for


def _prefilter_keys(text: str, prefilter: _Prefilter) -> set[str]:
    """The literals that occur in `text` and the keys of the probes that fire."""
    found: set[str] = set()
    stops = prefilter.stops
    for m in prefilter.pattern.finditer(text):
        stop = stops[m.lastindex or 0]  # every branch closes a group
        found.add(stop.key)
        for other in stop.also:
            if other.key not in found and other.holds(text, m.start()):
                found.add(other.key)
    return found


_RUN_TABLE = bytes(97 if chr(i) in _ALNUM else 98 if chr(i) in "+/" else 32 for i in range(256))
_B64_TABLE = bytes(97 if chr(i) in _B64_CHARS else 32 for i in range(256))  # base64: "a"
# base64url and base64 characters, one class: no run of 30 here, no run of either alphabet
_WIDE_TABLE = bytes(97 if chr(i) in _B64_CHARS | {"-", "_"} else 32 for i in range(256))
_URL_TABLE = bytes(97 if chr(i) in _ALNUM | {"-", "_"} else 32 for i in range(256))
_RUN_30 = b"a" * 30  # a run of 30 in a class string (alphanumeric or base64 classes)
_WIDE_RUN = 24  # the run `_Anchor.wide_run` literals and "wide-run" finders need
_WIDE_RUN_BYTES = b"a" * _WIDE_RUN
_WIDE_RUN_FINDERS = tuple(
    (_probe_key(rule.name), rule.finder)
    for rule in _RULES
    if rule.gate == "wide-run" and rule.finder is not None
)


def _long_literals(text: str, classes: bytes) -> set[str]:
    """Long literals at their place before an alphanumeric run of 30 or more (ASCII text)."""
    found: set[str] = set()
    n = len(classes)
    pos = classes.find(_RUN_30)
    while pos != -1:
        for lit in _ENDING_BEFORE_RUN.get(text[max(0, pos - 2) : pos], ()):
            if text.endswith(lit, 0, pos):
                found.add(lit)
        for offset, lits in _OTHER_OFFSETS:
            at = pos - offset
            if at >= 0 and text.startswith(lits, at):
                found.update(lit for lit in lits if text.startswith(lit, at))
        stops = [x for x in (classes.find(b" ", pos), classes.find(b"b", pos)) if x != -1]
        pos = classes.find(_RUN_30, min(stops) if stops else n)
    return found


class _Scan(NamedTuple):
    """What the input offers to the rules, decided once with a few C-level scans."""

    present: frozenset[str]  # literals that occur, and keys of the probes that fired
    b64run: bool  # a base64-class run of at least 40 characters


_NOTHING = _Scan(frozenset(), False)


def _key_windows(raw: bytes, wide: bytes) -> bytes:
    """The lower-cased text just before each run of `_WIDE_RUN` (`wide` classes it) that
    can be an assigned value, on its line: where a key names its value's vendor. A value
    follows `=`, `:` or `=>` (blanks, a quote and a short prefix such as `pk.` between)
    and holds a digit, as a vendor word's expression requires; most runs in code are
    names and fail. Joined by line breaks."""
    windows: list[bytes] = []
    pos = wide.find(_WIDE_RUN_BYTES)
    while pos != -1:
        end = wide.find(b" ", pos)
        end = len(wide) if end == -1 else end
        assigned = _ASSIGNED_BEFORE.search(raw, max(0, pos - _ASSIGNED_BACK), pos) is not None
        if assigned and _DIGIT_BYTES.search(raw, pos, end) is not None:
            line = raw.rfind(b"\n", 0, pos) + 1
            windows.append(raw[max(line, pos - _KEY_WORD_BACK) : pos])
        pos = wide.find(_WIDE_RUN_BYTES, end)
    return b"\n".join(windows).lower()


_ASSIGNED_BEFORE = re.compile(rb"[=:>][ \t]*[\"'`]?[A-Za-z0-9._~+/-]{0,12}\Z")
_ASSIGNED_BACK = 20  # bytes before a run read for its assignment: a bound, not a format
_DIGIT_BYTES = re.compile(rb"[0-9]")


def _run_lines(raw: bytes, folded: bytes) -> bytes:
    """The lines of `raw` that hold a run of 32 (`folded` classes it), joined."""
    lines: list[bytes] = []
    pos = folded.find(_B64_RUN_32)
    while pos != -1:
        end = raw.find(b"\n", pos)
        end = len(raw) if end == -1 else end
        lines.append(raw[raw.rfind(b"\n", 0, pos) + 1 : end])
        pos = folded.find(_B64_RUN_32, end)
    return b"\n".join(lines)


def _scan(text: str) -> _Scan:
    raw = text.encode("utf-8", "surrogatepass")
    keys = _prefilter_keys(text, _PREFILTER_SHORT)
    # Every run tested below is a run in one class of base64 and base64url characters;
    # most text has none of `_WIDE_RUN`, and one test then answers them all.
    wide = raw.translate(_WIDE_TABLE)
    if _WIDE_RUN_BYTES not in wide:
        return _scanned(keys, False)
    keys.update(lit for lit in _WIDE_RUN_LITERALS if lit in text)
    keys.update(key for key, finder in _WIDE_RUN_FINDERS if finder(text))
    windows = _key_windows(raw, wide)
    if windows:
        # (a window cut at a byte offset may split a character: its bytes are no word)
        for word in _prefilter_keys(windows.decode("utf-8", "ignore"), _PREFILTER_KEY_WORDS):
            keys.update(_KEY_WORD_SPELLINGS[word])
    if _RUN_30 not in wide:
        return _scanned(keys, False)
    folded = raw.translate(_B64_TABLE)
    run30 = _RUN_30 in folded
    b64run = run30 and b"a" * 40 in folded
    urls = raw.translate(_URL_TABLE)
    if _B64_RUN_32 in urls:
        keys.update(_URL_RUN_NAMES[found] for found in _URL_RUN_FINDER(_run_lines(raw, urls)))
    classes = raw.translate(_RUN_TABLE) if run30 else b""
    if _RUN_30 in classes:
        if text.isascii():
            keys |= _long_literals(text, classes)
        else:
            keys |= _prefilter_keys(text, _PREFILTER_LONG)
    if run30 and _B64_RUN_32 in folded:
        lines = _run_lines(raw, folded)
        lowered = lines.lower()
        for low, spellings in _B64_BY_LOWER.items():
            if low in lowered:
                keys.update(lit for lit, encoded in spellings if encoded in lines)
    return _scanned(keys, b64run)


def _scanned(keys: set[str], b64run: bool) -> _Scan:
    if not keys:
        return _Scan(frozenset(), True) if b64run else _NOTHING
    present: set[str] = set()
    for key in keys:
        present |= _CONTAINED.get(key, {key})
    return _Scan(frozenset(present), b64run)


# Positions in _COMPILED of the rules each key switches on, and of the whole-text gates.
_GATED_BY: dict[str, frozenset[int]] = {}
for _index, _rule in enumerate(_COMPILED):
    for _key in _rule.keys:
        _GATED_BY[_key] = _GATED_BY.get(_key, frozenset()) | {_index}
del _index, _rule, _key
_B64_GATED = tuple(i for i, rule in enumerate(_COMPILED) if rule.gate == "b64-run")
_ALWAYS = tuple(i for i, rule in enumerate(_COMPILED) if rule.gate == "always")
_AT_SIGN_GATED = tuple(i for i, rule in enumerate(_COMPILED) if rule.gate == "at-sign")
_ENTROPY_GATED = tuple(i for i, rule in enumerate(_COMPILED) if rule.gate == "entropy-run")
_ENTROPY_RUN_23 = b"a" * 23


def _rules_on(scan: _Scan, text: str, storage: bool) -> list[_Compiled]:
    """The rules `scan` lets run at one boundary, in table order."""
    on: set[int] = set(_ALWAYS)
    if scan.b64run:
        on.update(_B64_GATED)
    on.update(*(_GATED_BY.get(key, ()) for key in scan.present))
    if storage:
        if "@" in text:
            on.update(_AT_SIGN_GATED)
        raw = text.encode("utf-8", "surrogatepass")
        if _ENTROPY_RUN_23 in raw.translate(_ENTROPY_TABLE):
            on.update(_ENTROPY_GATED)
    rules = [_COMPILED[i] for i in sorted(on)]
    return rules if storage else [rule for rule in rules if rule.boundary == "both"]


# Most text offers the rules no literal, probe or long run: its display rules are the
# always-on ones, looked up rather than rebuilt (keyed by `_ALWAYS`, which tests narrow).
_ALWAYS_ONLY: dict[tuple[int, ...], list[_Compiled]] = {}


def _active_rules(text: str) -> tuple[list[_Compiled], frozenset[str]]:
    """Display rules that can match `text`, decided once on the input (tokens add no literal)."""
    scan = _scan(text)
    if scan is not _NOTHING:
        return _rules_on(scan, text, False), scan.present
    rules = _ALWAYS_ONLY.get(_ALWAYS)
    if rules is None:
        rules = _ALWAYS_ONLY[_ALWAYS] = _rules_on(scan, text, False)
    return list(rules), scan.present


# --------------------------------------------------------------------------------------------
# Self-check
# --------------------------------------------------------------------------------------------


def _self_check() -> None:
    if not __debug__:
        raise SystemExit(
            "secret_redaction self-check needs assertions: run without -O "
            "and without PYTHONOPTIMIZE"
        )
    r = redact_secret_shapes
    # Fixtures are glued from halves so that this file, once vendored, scans clean
    # under the very scanner it implements (and under anyone else's).
    b64 = "QWJjMTIzZGVmNDU2Z2hp" + "Nzg5amtsMDEybW5vMzQ1cHFy"
    pad = "QWxhZGRpbjpvcGVuIHNl" + "c2FtZUFsYWRkaW46b3BlbiBzZXNhbWU="
    hx = "0123456789abcdef"
    aws = "AKIA" + "IOSFODNN7EXAMPLE"
    begin = "-----BEGIN "
    assert len(MARKER_KINDS) == len(SHAPES) + 2 and SHAPES[-1][0] == "keyed-secret"
    assert r(aws) == ("[redacted:aws-key]", ("aws-key",))
    assert r("ASIA" + aws[4:]) == ("[redacted:aws-key]", ("aws-key",))
    assert r("token=" + hx * 4) == ("token=[redacted:long-hex]", ("long-hex",))
    sha = "shipped at f6efe271a1277aca79586ee51ef9db30592ac1c5 on main"
    assert r(sha) == (sha, ())
    assert r("before " + begin + "OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\nafter") == (
        "before [redacted:private-key]",
        ("private-key",),
    )
    assert r(begin + "RSA PRIVATE KEY-----\nabc\n") == (
        "[redacted:private-key]\n",
        ("private-key",),
    )
    uri = "postgres://" + aws + "@db.example"
    assert r(uri) == ("[redacted:db-uri-creds]", ("aws-key", "db-uri-creds"))
    assert r(uri, max_passes=2) == (
        NONCONVERGENT_TOKEN,
        ("aws-key", "db-uri-creds", "nonconvergent-snippet"),
    )
    assert r(aws, max_passes=1) == (NONCONVERGENT_TOKEN, ("aws-key", "nonconvergent-snippet"))
    assert r("xox" + "b-123456789012-abcdefghijklmnop then " + aws) == (
        "[redacted:slack-token] then [redacted:aws-key]",
        ("aws-key", "slack-token"),
    )
    for s in ("postgresql+psycopg2://app:" + "pw@db:5432/x", "rediss://:" + "pw@cache:6380"):
        assert r(s) == ("[redacted:db-uri-creds]", ("db-uri-creds",))
    assert r("git clone https://deploy:" + "Xk3jd9sLq2@ci.example.com/app.git") == (
        "git clone https://[redacted:url-credentials]@ci.example.com/app.git",
        ("url-credentials",),
    )
    assert r("https://user:password@host/x") == ("https://user:password@host/x", ())
    assert r("Authorization: Bearer " + "opaque7Tk29xQm4Lp8Zr3Vn6") == (
        "Authorization: Bearer [redacted:http-auth-header]",
        ("http-auth-header",),
    )
    assert r(b64 + "===") == ("[redacted:long-base64]=", ("long-base64",))
    many = r((b64 + "== ") * 300)
    assert many.text == "[redacted:long-base64] " * 300 and len(many.shapes) == 300
    assert r("(" + pad + ")") == ("([redacted:long-base64])", ("long-base64",))
    assert r("g" + hx * 3) == ("[redacted:long-base64]", ("long-base64",))
    assert r("id secret_" + hx * 4) == ("id [redacted:long-hex]", ("long-hex",))
    assert r("t=" + b64 + "-Ab9_cD7 end") == ("t=[redacted:long-base64] end", ("long-base64",))
    for benign in (
        "see https://api.example.com/v2/projects/abc123def456ghi789/resources/"
        "jkl012mno345pqr678stu901 for details",
        "data:image/png;base64," + b64,
        "integrity sha512-" + b64 + "==",
        "sha1-" + b64,
        "docker pull ghcr.io/acme/api@sha256:" + hx * 4,
        "#diff-" + hx * 4,
        "https://" + "-" * 5000 + pad,
        "public final class ResponseSessionHttp2RequestResponseBuilder {",
        "open src/components/Header8/index/styles/main/layout/Grid.tsx",
        "is 0.1000000000000000055511151231257827021181583404541015625",
    ):
        assert r(benign) == (benign, ()), benign
    assert r("see https://example.com/x\n" + pad) == (
        "see https://example.com/x\n[redacted:long-base64]",
        ("long-base64",),
    )
    js = r('{"url":"https://x.example/cb","token":"' + b64 + '"}')
    assert js.text == '{"url":"https://x.example/cb","token":"[redacted:long-base64]"}'
    not_text: tuple[Any, ...] = (aws.encode(), None, 123)  # data, not an option: no raise
    for bad in not_text:
        assert r(bad) == ("", ())
    # find_secret_shapes
    assert find_secret_shapes(uri) == (Found("db-uri-creds", 0, len(uri)),)
    assert find_secret_shapes("x " + aws) == (Found("aws-key", 2, 22),)
    assert find_secret_shapes(not_text[0]) == ()
    # Storage
    sc = scrub_for_storage

    def st(t: str) -> str:
        return sc(t, sidecar=True).text

    assert st("before " + aws + " after") == "before <REDACTED:aws-key:1a5d4> after"
    assert st("mail jane.doe+ops@mail.example.co.uk today") == "mail <REDACTED:email:c68a2> today"
    assert st("pw Zx8kL2mQ9vR4tY7wP1nBqW5e end") == "pw <REDACTED:high-entropy:5c228> end"
    opaque = "Zx8kL2mQ9vR4" + "tY7wP1nBqW5e"
    assert st("TOK" + 'EN="' + opaque + '"') == 'TOKEN="<REDACTED:keyed-secret:5c228>"'
    assert st("DB_PASS" + "WORD=" + opaque) == "DB_PASSWORD=<REDACTED:keyed-secret:5c228>"
    github = "gh" + "p_abcdefghijklmnopqrstuvwxyz0123456789"
    assert st("x=" + github) == "x=<REDACTED:github-token:03aaf>"
    once = st(uri)
    assert once == "postgres://" + "<REDACTED:aws-key:1a5d4>@db.example" and st(once) == once
    assert st("integrity sha512-" + b64 + "==") == "integrity <REDACTED:long-base64:b8937>"
    assert st("ghijklmnopqrstuvwxyzGH") == "ghijklmnopqrstuvwxyzGH"
    assert st("ghijklmnopqrstuvwxyzGHI") == "<REDACTED:high-entropy:5f6f6>"
    for same in ("commit f6efe271a1277aca79586ee51ef9db30592ac1c5", "[redacted:aws-key]"):
        assert st(same) == same
    try:
        sc(aws, sidecar=False)
        raise AssertionError("no sidecar must refuse")
    except ScrubRefused as refused:
        assert refused.kinds == ("aws-key",) and "AKIA" not in str(refused)
    done = sc("a " + aws + " b", sidecar=True)
    assert list(done.originals) == [aws]
    assert repr(done.originals) == "<Originals: 1 withheld>" and "AKIA" not in repr(done)
    assert sc(done.text, sidecar=False) == (done.text, (), Originals())
    assert sc(None, sidecar=False) == ("", (), Originals())
    # Limits
    assert r("the token " + "ab12" * 10) == ("the token " + "ab12" * 10, ())  # 40-hex
    assert r("twilio " + "ab12" * 8)[1] == ()  # 32-hex
    assert r("MY_SERVICE_TOK" + "EN=hunter2hunter2")[1] == ("keyed-secret",)  # key-named
    assert r("MY_SERVICE_TOK=hunter2hunter2")[1] == ()  # opaque: no credential noun
    assert r('password = "${DB_PASSWORD}"')[1] == ()  # a reference
    assert r("NRAK-ABCDEFGHIJKLMNOPQRSTUVWXYZ1")[1] == ()  # vendor not listed
    assert r("ghp_abcdefghij")[1] == ()  # fragment
    assert r("https://x.example/?key=" + b64)[1] == ()  # base64 in URL
    assert r("user https://u:pass@h/")[1] == ()  # placeholder
    assert st("password hunter2") == "password hunter2"  # low entropy
    assert re.fullmatch(r"<REDACTED:email:[0-9a-f]{5}>:x", st("git@github.com:x"))  # over-match
    rep = noise_report(
        [
            "/Users/dev/Projects/agent-memory/src/consolidate/episodic_writer.py",
            "https://docs.example.com/guide/install.html#section-2",
            "Zx8kL2mQ9vR4tY7wP1nBqW5e",
        ]
    )
    assert rep == NoiseReport(3, 3, 0, 0, 1, 1, 1, 0, 2 / 3)
    empty = NoiseReport(0, 0, 0, 0, 0, 0, 0, 0, None)
    assert noise_report(None) == empty  # type: ignore[arg-type]
    print("secret_redaction self-check: all assertions passed")


if __name__ == "__main__":
    _self_check()
