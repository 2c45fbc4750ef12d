"""Breadth of agentops.secret_redaction against a public scanner's rule catalog.

Run from the project root with nothing installed:  python benchmarks/catalog_eval.py

THE CATALOG is gitleaks's default rule set. `catalog_eval/formats.tsv` describes each of
its rules in this project's own notation, from the facts of the format (prefix, alphabet,
length, separators); the rules that a syntax carries rather than a token (curl flags,
Kubernetes secret YAML, NuGet config, private-key blocks, JWTs...) are built in code
below. Bodies come from a seeded random generator and are assembled at run time, so no
file in the repository holds a string that looks like a live token.

Each rule is planted in three contexts. A rule whose token holds a fixed literal is
planted bare in prose, as a dotenv value under a neutral name and as a JSON value under a
neutral key; a rule that only its vendor's word identifies is planted under that word as a
YAML key, a dotenv name and a JSON key. Neutral names keep the key-name layer from taking
credit for vendor breadth.

`catalog_eval/gitleaks_vectors.json` holds the literal test vectors of the gitleaks rule
files that were read for this evaluation: true positives that must be found and the
near-miss false positives (placeholders, low-entropy look-alikes, wrong case or length)
that must come back unchanged. They are stored as 8-character chunks so that the
repository's own secret scan stays clean.

Prints, for the display boundary (`redact_secret_shapes`):
  recall overall / prefixed / keyword / structural / non-generic: a sample counts when no
      6-character window of the random parts of its secret survives in the output;
  rules covered: rules whose every sample is found;
  gitleaks true positives: vectors whose text the boundary changes;
  gitleaks false positives redacted: vectors whose text the boundary changes (lower is
      better);
and the misses by rule. `vendor_cases()` exposes the planted samples to other benchmarks.
"""

from __future__ import annotations

import json
import os
import random
import re
import string
import sys
from collections import defaultdict
from collections.abc import Callable
from typing import NamedTuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "catalog_eval")

LOWER, UPPER, DIGITS = string.ascii_lowercase, string.ascii_uppercase, string.digits
ALPHABETS: dict[str, str] = {
    "AN": LOWER + UPPER + DIGITS,
    "LAN": LOWER + DIGITS,
    "UAN": UPPER + DIGITS,
    "ALPHA": LOWER + UPPER,
    "HEX": "0123456789abcdef",
    "MHEX": "0123456789abcdefABCDEF",
    "AH": "0123456789abcdefgh",
    "DIG": DIGITS,
    "URL": LOWER + UPPER + DIGITS + "-_",
    "LURL": LOWER + DIGITS + "-_",
    "EQURL": LOWER + DIGITS + "=_-",
    "B64": LOWER + UPPER + DIGITS + "+/",
    "B32": UPPER + "234567",
    "BECH": "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",
}
_HOLE = re.compile(r"\{([A-Z][A-Z0-9]*) (\d+)(?:-(\d+))?\}")


class Rule(NamedTuple):
    """One catalog rule: its id, class, vendor keywords and body-spec variants."""

    rule: str
    kind: str  # prefixed | keyword | structural | generic
    keywords: tuple[str, ...]
    variants: tuple[str, ...]


class Case(NamedTuple):
    """One planted sample: the rule, its context name, the text and the secret in it."""

    rule: str
    kind: str
    context: str
    text: str
    secret: str
    pieces: tuple[str, ...]  # the random parts of the secret (its fixed literals excluded)


def load_catalog(path: str = os.path.join(HERE, "formats.tsv")) -> list[Rule]:
    rules: list[Rule] = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if not line.strip() or line.startswith("#"):
                continue
            rule, kind, keywords, spec = line.rstrip("\n").split("\t")
            words = () if keywords == "-" else tuple(keywords.split(","))
            rules.append(Rule(rule, kind, words, tuple(spec.split(" || "))))
    return rules


def body(rnd: random.Random, alphabet: str, size: int) -> str:
    """A random body that mixes the alphabet's classes the way real tokens do."""
    chars = ALPHABETS[alphabet]
    if alphabet == "UUID":
        return uuid_of(rnd, upper=False)
    if alphabet == "UUIDU":
        return uuid_of(rnd, upper=True)
    out = [rnd.choice(chars) for _ in range(size)]
    classes = [c for c in (LOWER, UPPER, DIGITS) if any(ch in chars for ch in c)]
    if size >= 2 * len(classes):  # at least one of each class, at random places
        for index, cls in zip(rnd.sample(range(size), len(classes)), classes, strict=True):
            out[index] = rnd.choice([ch for ch in cls if ch in chars])
    return "".join(out)


def uuid_of(rnd: random.Random, *, upper: bool) -> str:
    digits = "".join(rnd.choice("0123456789abcdef") for _ in range(32))
    text = "-".join((digits[:8], digits[8:12], digits[12:16], digits[16:20], digits[20:]))
    return text.upper() if upper else text


ALPHABETS["UUID"] = ALPHABETS["HEX"]
ALPHABETS["UUIDU"] = ALPHABETS["HEX"]


def render(spec: str, rnd: random.Random) -> tuple[str, tuple[str, ...]]:
    """The spec with its holes filled, and the random pieces that filled them."""
    pieces: list[str] = []

    def fill(match: re.Match[str]) -> str:
        low = int(match.group(2))
        high = int(match.group(3) or low)
        pieces.append(body(rnd, match.group(1), rnd.randint(low, high)))
        return pieces[-1]

    return _HOLE.sub(fill, spec), tuple(pieces)


# ------------------------------------------------------------------------------------------
# Rules a syntax carries: each returns (text, secret).
# ------------------------------------------------------------------------------------------


def _pem(rnd: random.Random) -> tuple[str, str]:
    lines = "\n".join(body(rnd, "B64", 64) for _ in range(5))
    head, tail = "-----BEGIN RSA " + "PRIVATE KEY-----", "-----END RSA " + "PRIVATE KEY-----"
    block = f"{head}\n{lines}\n{tail}"
    return block, block


def _jwt(rnd: random.Random) -> tuple[str, str]:
    token = (
        "eyJ" + body(rnd, "URL", 30) + ".eyJ" + body(rnd, "URL", 60) + "." + body(rnd, "URL", 43)
    )
    return token, token


def _jwt_base64(rnd: random.Random) -> tuple[str, str]:
    import base64

    token = base64.b64encode(_jwt(rnd)[0].encode()).decode()
    return token, token


STRUCTURAL: dict[str, list[Callable[[random.Random], tuple[str, str]]]] = {
    "private-key": [_pem],
    "jwt": [_jwt],
    "jwt-base64": [_jwt_base64],
    "curl-auth-header": [
        lambda r: (lambda t: (f'curl -H "Authorization: Bearer {t}" https://api.example.io/v1', t))(
            body(r, "URL", 40)
        ),
        lambda r: (lambda t: (f"curl --header 'X-Api-Key: {t}' https://api.example.io/", t))(
            body(r, "AN", 32)
        ),
    ],
    "curl-auth-user": [
        lambda r: (lambda p: (f"curl -u deploy:{p} https://repo.example.io/upload", p))(
            body(r, "AN", 18)
        ),
        lambda r: (lambda p: (f'curl --user "admin:{p}" https://ci.example.io/', p))(
            body(r, "AN", 16)
        ),
    ],
    "database-password": [
        lambda r: (lambda p: (f"DB_PASSWORD={p}", p))(body(r, "AN", 20)),
        lambda r: (lambda p: (f'database_password: "{p}"', p))(body(r, "AN", 16)),
    ],
    "freemius-secret-key": [
        lambda r: (lambda s: (f"'secret_key' => '{s}',", s))("sk_" + body(r, "AN", 29)),
    ],
    "hashicorp-tf-password": [
        lambda r: (lambda p: (f'  administrator_login_password = "{p}"', p))(body(r, "AN", 18)),
    ],
    "kubernetes-secret-yaml": [
        lambda r: (
            lambda v: (
                "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\n"
                f"data:\n  password: {v}\n",
                v,
            )
        )(body(r, "B64", 24) + "=="),
    ],
    "nuget-config-password": [
        lambda r: (lambda p: (f'    <add key="ClearTextPassword" value="{p}" />', p))(
            body(r, "AN", 20)
        ),
    ],
    "generic-api-key": [
        lambda r: (lambda v: (f'api_key = "{v}"', v))(body(r, "AN", 32)),
    ],
}


def contexts(rule: Rule, value: str) -> list[tuple[str, str]]:
    """The three surroundings a sample is planted in (see the module docstring)."""
    if rule.kind == "keyword":
        word = rule.keywords[0]
        return [
            ("yaml", f"{word.lower()}: {value}"),
            ("env", f"{word.upper()}={value}"),
            ("json", f'{{"{word.lower()}": "{value}"}}'),
        ]
    return [
        ("bare", f"rotated {value} yesterday"),
        ("env", f"SERVICE_VALUE={value}"),
        ("json", f'{{"value": "{value}", "n": 1}}'),
    ]


def cases(seed: int = 1212, per_rule: int = 2) -> list[Case]:
    """Every catalog rule, `per_rule` samples (at least one per variant) in each context."""
    rnd = random.Random(seed)
    out: list[Case] = []
    for rule in load_catalog():
        for index in range(max(per_rule, len(rule.variants))):
            if rule.kind in ("structural", "generic"):
                for number, make in enumerate(STRUCTURAL[rule.rule]):
                    text, secret = make(rnd)
                    out.append(
                        Case(rule.rule, rule.kind, f"syntax{number}", text, secret, (secret,))
                    )
                continue
            value, pieces = render(rule.variants[index % len(rule.variants)], rnd)
            for name, text in contexts(rule, value):
                out.append(Case(rule.rule, rule.kind, name, text, value, pieces))
    return out


def vendor_cases() -> list[tuple[str, str, str]]:
    """(rule name, planted text, secret value) of every vendor-token sample, one seed."""
    return [
        (case.rule, case.text, case.secret)
        for case in cases(seed=4242, per_rule=1)
        if case.kind in ("prefixed", "keyword")
    ]


def gitleaks_vectors() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    with open(os.path.join(HERE, "gitleaks_vectors.json"), encoding="utf-8") as handle:
        doc = json.load(handle)

    def read(key: str) -> list[tuple[str, str]]:
        return [(item["rule"], "".join(item["chunks"])) for item in doc[key]]

    return read("true_positives"), read("false_positives")


_MARKER = re.compile(r"\[redacted:[a-z0-9-]+\]")


def survives(pieces: tuple[str, ...], output: str, window: int = 6) -> bool:
    """True when a random piece of the secret, or `window` characters of one, is still in the
    output (the redaction markers, whose names repeat vendor words, are looked past)."""
    rest = _MARKER.sub("\x00", output)
    for piece in pieces:
        if len(piece) <= window:
            if piece in rest and len(piece) >= 4:
                return True
            continue
        if any(piece[i : i + window] in rest for i in range(len(piece) - window + 1)):
            return True
    return False


def main() -> int:
    sys.path.insert(0, ROOT)
    from agentops.secret_redaction import redact_secret_shapes

    all_cases = cases()
    found: dict[str, list[bool]] = defaultdict(list)
    kinds: dict[str, str] = {}
    by_kind: dict[str, list[bool]] = defaultdict(list)
    for case in all_cases:
        hit = not survives(case.pieces, redact_secret_shapes(case.text).text)
        found[case.rule].append(hit)
        kinds[case.rule] = case.kind
        by_kind[case.kind].append(hit)

    def share(hits: list[bool]) -> str:
        return f"{sum(hits) / len(hits):6.1%} ({sum(hits)}/{len(hits)})" if hits else "n/a"

    every = [hit for hits in found.values() for hit in hits]
    non_generic = [h for rule, hits in found.items() if kinds[rule] != "generic" for h in hits]
    covered = sum(all(hits) for hits in found.values())
    print(f"catalog rules: {len(found)}   samples: {len(all_cases)}")
    print(f"recall overall      {share(every)}")
    for kind in ("prefixed", "keyword", "structural", "generic"):
        print(f"recall {kind:<12} {share(by_kind[kind])}")
    print(f"recall non-generic  {share(non_generic)}")
    print(f"rules fully covered {covered}/{len(found)}")
    tps, fps = gitleaks_vectors()
    tp_hits = [redact_secret_shapes(text).text != text for _, text in tps]
    fp_hits = [redact_secret_shapes(text).text != text for _, text in fps]
    print(f"gitleaks true positives found      {share(tp_hits)}")
    print(f"gitleaks false positives redacted  {share(fp_hits)}")
    print("\nmisses by rule (missed/samples):")
    for rule, hits in sorted(found.items()):
        if not all(hits):
            print(f"  {rule:<44} {kinds[rule]:<10} {hits.count(False)}/{len(hits)}")
    for (rule, _), hit in zip(tps, tp_hits, strict=True):
        if not hit:
            print(f"  true positive missed: {rule}")
    for (rule, _), hit in zip(fps, fp_hits, strict=True):
        if hit:
            print(f"  false positive redacted: {rule}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
