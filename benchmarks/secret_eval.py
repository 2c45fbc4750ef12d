"""Recall, false-positive rate and tail leaks of agentops.secret_redaction on labelled corpora.

Run from the project root with nothing installed:  python benchmarks/secret_eval.py
(`--help` lists the sizes; the whole run takes well under a minute, most of it
detect-secrets; `--sections keyed,negatives` runs a subset).

Five sections, each printed with its own table:

1. VENDOR SHAPES. Fake credentials written at run time, one generator per vendor family of
   the shape table, each following the format the vendor documents (prefix, alphabet,
   length, separators), planted in JSON, .env, YAML, shell, URL query, log line, stack trace
   and markdown. Benign text is `benchmarks/secret_eval/benign.txt` (git SHAs, UUIDs, hashes,
   digests, public keys, certificates, placeholder credentials...) plus 2,000-character
   chunks of the Python standard library's sources. Measures display recall (value gone and
   its shape reported), false positives on benign text, tail leaks (start redacted, last 6
   characters left: must be 0), storage recall and the share of benign text storage rewrites.
   Cases under a documented limit (base64 inside a URL query) are counted apart.

2. KEY-NAMED SECRETS. A value assigned to a credential-named key (password, client_secret,
   api_key, DB_PASSWORD, stripeSecretKey, X-Api-Key...) in the 97 syntaxes of
   `benchmarks/secret_eval/keyed_syntaxes.txt`: dotenv and shell, Dockerfile, PowerShell,
   Makefile, YAML (block, inline, docker-compose, Kubernetes `stringData:`/`data:`/`env:`,
   CI files, Ansible), JSON (pretty, minified, nested, docker config.json, notebooks),
   TOML/INI, .pypirc, .npmrc, .netrc/.authinfo, .pgpass, redis.conf, AWS credentials,
   source code in ten languages (login and credential calls too), CLI flags and tools'
   password flags (docker/podman/helm login, sshpass, redis-cli, sqlcmd, ldapsearch,
   mongosh, twine, openssl, keytool), `set`/`config` commands, curl, HTTP headers and
   cookies, SQL (CREATE/ALTER USER, IDENTIFIED BY, SET PASSWORD), XML (Spring, NuGet,
   appSettings, Maven), ADO.NET/JDBC/ODBC connection strings, shell defaults. Values come
   from a seeded generator in eleven kinds (random, hex, base64, word-like passphrase, what
   people pick like Maple2024!, punctuated, short, long, UUID, non-ASCII, numeric), so no
   file holds a live-looking string.
   Recall is also broken down by value kind and by key name.

3. NEGATIVES that must come back byte-identical at display: every placeholder (changeme,
   <password>, YOUR_API_KEY, ****, empty, null, [REDACTED]...) and reference
   (${DB_PASSWORD}, {{ .Values.password }}, %(password)s...) put into each syntax's
   templates, and the hand-written samples of `benchmarks/secret_eval/keyed_negatives.txt`
   (code references, annotations and signatures, comparisons, mentions such as
   PASSWORD_MIN_LENGTH = 12, prose, and real-world look-alikes: SQL bind variables, expired
   or analytics cookies, tool flags given a variable or a file, algorithm names). The AWS
   documentation's example keys are counted apart
   ("docs-example"): redacting a string shaped exactly like a live key is defensible.

4. ESCAPED FORMS. Key-named samples inside a JSON-lines transcript string, encoded as
   Python, PHP (`\\/`), .NET/Go (`\\u0022`, `\\u002b`) encoders write them, with CRLF line
   ends, or nested in a second transcript line; inside a tool result printed as a Python
   dict (repr); percent-encoded URLs and form bodies; lines wrapped with a backslash. A
   redacted JSON line or repr must still parse ("broken" counts those that do not).
   Negatives are wrapped the same way and must stay byte-identical.

5. VENDOR CATALOG: `vendor_cases()` of benchmarks/catalog_eval.py, when that file exists.

For sections 2 to 5, per group and overall, for display (`redact_secret_shapes`) and storage
(`scrub_for_storage(text, sidecar=True)`): recall (every form of the value is gone, also
from the decoded JSON), clean recall (and no 6-character piece of the value survives outside
a redaction marker), and the share of negatives rewritten. Then redacted lines per 10,000
lines of the stdlib chunks, and a summary against the target figures.

detect-secrets, when found (--detect-secrets PATH, $DETECT_SECRETS, PATH, or a virtual
environment `venvs/detect-secrets` beside the checkout or a parent of it), scans the same
samples written to a temporary directory with their usual file extensions, as a subprocess
(never imported, never a dependency). "any" counts samples with any finding; "exact" those
with a finding whose hash is the secret's; on negatives, any finding is a false positive.
A missed sample is printed with its secret replaced by <SECRET>; no value is ever printed.
"""

from __future__ import annotations

import argparse
import ast
import base64
import difflib
import hashlib
import importlib.util
import json
import os
import random
import re
import shutil
import string
import subprocess
import sys
import tempfile
import urllib.parse
from collections import Counter
from collections.abc import Callable
from typing import NamedTuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from _stdlib_corpus import stdlib_chunks  # noqa: E402

from agentops.secret_redaction import redact_secret_shapes, scrub_for_storage  # noqa: E402

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "secret_eval")
ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
B32 = string.ascii_uppercase + "234567"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
URLSAFE = ALNUM + "-_"

Gen = Callable[[random.Random], tuple[str, str]]  # -> (planted text, secret value)


def pick(rnd: random.Random, alphabet: str, n: int) -> str:
    s = "".join(rnd.choice(alphabet) for _ in range(n))
    if alphabet in (ALNUM, URLSAFE) and n >= 8:  # real tokens mix cases and digits
        s = rnd.choice(string.digits) + s[1:-1] + rnd.choice(string.ascii_uppercase)
    return s


def j(*parts: str) -> str:
    return "".join(parts)


def same(value: str) -> tuple[str, str]:
    return value, value


def b64_of(rnd: random.Random, n: int) -> str:
    return base64.b64encode(bytes(rnd.randrange(256) for _ in range(n))).decode()


# One or more generators per shape family, following the vendors' documented formats.
FAMILIES: dict[str, list[Gen]] = {
    "private-key": [
        lambda r: same(
            j(
                "-----BEGIN RSA ",
                "PRIVATE KEY-----\n",
                "\n".join(b64_of(r, 48) for _ in range(6)),
                "\n-----END RSA ",
                "PRIVATE KEY-----",
            )
        ),
        lambda r: same(
            j(
                "-----BEGIN OPENSSH ",
                "PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA",
                b64_of(r, 60),
                "\n-----END OPENSSH ",
                "PRIVATE KEY-----",
            )
        ),
        lambda r: same(
            j(
                "-----BEGIN PGP ",
                "PRIVATE KEY BLOCK-----\n\nlQOYBG",
                b64_of(r, 60),
                "\n-----END PGP ",
                "PRIVATE KEY BLOCK-----",
            )
        ),
    ],
    "db-uri-creds": [
        lambda r: same(
            j("postgres", "ql://svc_app:", pick(r, ALNUM, 16), "@db.prod.internal:5432/app")
        ),
        lambda r: same(
            j("mongodb", "+srv://admin:", pick(r, ALNUM, 20), "@cluster0.ab1cd.mongodb.net/x")
        ),
        lambda r: same(j("redis", "s://:", pick(r, ALNUM, 24), "@cache.internal:6380/0")),
        lambda r: same(j("mysql", "+pymysql://root:", pick(r, ALNUM, 12), "@10.0.3.7:3306/shop")),
    ],
    "aws-key": [
        lambda r: same(j("AK", "IA", pick(r, B32, 16))),
        lambda r: same(j("AS", "IA", pick(r, B32, 16))),
    ],
    "stripe-key": [
        lambda r: same(j("sk_", "live_", pick(r, ALNUM, 24))),
        lambda r: same(j("rk_", "test_", pick(r, ALNUM, 99))),
        lambda r: same(j("wh", "sec_", pick(r, ALNUM, 32))),
    ],
    "github-token": [
        lambda r: same(j("gh", "p_", pick(r, ALNUM, 36))),
        lambda r: same(j("gh", "s_", pick(r, ALNUM, 36))),
        lambda r: same(j("github", "_pat_", pick(r, ALNUM, 22), "_", pick(r, ALNUM, 59))),
    ],
    "gitlab-token": [
        lambda r: same(j("gl", "pat-", pick(r, URLSAFE, 20))),
        lambda r: same(j("gl", "rt-", pick(r, URLSAFE, 27), ".01.", pick(r, ALNUM, 9))),
        lambda r: same(j("GR13", "48941", pick(r, URLSAFE, 20))),
    ],
    "google-api-key": [lambda r: same(j("AI", "za", pick(r, URLSAFE, 35)))],
    "google-oauth": [
        lambda r: same(j("ya", "29.", pick(r, URLSAFE, 120))),
        lambda r: same(j("GOC", "SPX-", pick(r, URLSAFE, 28))),
    ],
    "slack-token": [
        lambda r: same(
            j(
                "xo",
                "xb-",
                pick(r, string.digits, 12),
                "-",
                pick(r, string.digits, 13),
                "-",
                pick(r, ALNUM, 24),
            )
        ),
        lambda r: same(
            j(
                "xa",
                "pp-1-A",
                pick(r, ALNUM, 10),
                "-",
                pick(r, string.digits, 13),
                "-",
                pick(r, HEX, 64),
            )
        ),
    ],
    "slack-webhook": [
        lambda r: same(
            j(
                "https://hooks.slack.com/",
                "services/T",
                pick(r, B32, 8),
                "/B",
                pick(r, B32, 8),
                "/",
                pick(r, ALNUM, 24),
            )
        )
    ],
    "discord-token": [
        lambda r: same(
            j(
                "MT",
                base64.b64encode(str(r.randrange(10**17, 10**18)).encode())
                .decode()
                .rstrip("=")[2:],
                ".",
                pick(r, URLSAFE, 6),
                ".",
                pick(r, URLSAFE, 38),
            )
        )
    ],
    "discord-webhook": [
        lambda r: same(
            j(
                "https://discord.com/api/",
                "webhooks/",
                pick(r, string.digits, 18),
                "/",
                pick(r, URLSAFE, 68),
            )
        )
    ],
    "telegram-bot-token": [
        lambda r: same(j(pick(r, string.digits, 10), ":AA", pick(r, URLSAFE, 33)))
    ],
    "anthropic-key": [lambda r: same(j("sk-", "ant-api03-", pick(r, URLSAFE, 93), "AA"))],
    "openai-key": [
        lambda r: same(j("sk-", "proj-", pick(r, URLSAFE, 48))),
        lambda r: same(j("sk-", pick(r, ALNUM, 48))),
    ],
    "npm-token": [lambda r: same(j("np", "m_", pick(r, ALNUM, 36)))],
    "pypi-token": [lambda r: same(j("py", "pi-AgEIcHlwaS5vcmc", pick(r, URLSAFE, 150)))],
    "huggingface-token": [lambda r: same(j("h", "f_", pick(r, string.ascii_letters, 34)))],
    "sendgrid-key": [lambda r: same(j("S", "G.", pick(r, URLSAFE, 22), ".", pick(r, URLSAFE, 43)))],
    "twilio-key": [
        lambda r: same(j("S", "K", pick(r, HEX, 32))),
        lambda r: same(j("A", "C", pick(r, HEX, 32))),
    ],
    "shopify-token": [lambda r: same(j("shp", "at_", pick(r, HEX, 32)))],
    "digitalocean-token": [lambda r: same(j("do", "p_v1_", pick(r, HEX, 64)))],
    "vault-token": [lambda r: same(j("hv", "s.CAESI", pick(r, URLSAFE, 90)))],
    "azure-client-secret": [
        lambda r: same(
            j(pick(r, ALNUM, 3), str(r.randrange(10)), "Q~", pick(r, ALNUM + "_~.-", 34))
        )
    ],
    "azure-storage-key": [
        lambda r: (
            lambda k: (
                j(
                    "DefaultEndpointsProtocol=https;AccountName=acmelogs;Account",
                    "Key=",
                    k,
                    ";EndpointSuffix=core.windows.net",
                ),
                k,
            )
        )(b64_of(r, 64)),
    ],
    "azure-sas": [
        lambda r: (
            lambda s: (
                j(
                    "https://acmelogs.blob.core.windows.net/c/a.json?sv=2022-11-02"
                    "&ss=b&srt=o&sp=r&se=2030-01-01T00:00:00Z&s",
                    "ig=",
                    s,
                ),
                s,
            )
        )(b64_of(r, 32).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")),
    ],
    "atlassian-token": [
        lambda r: same(j("ATA", "TT3xFfGF0", pick(r, URLSAFE, 170), "=", pick(r, HEX.upper(), 8)))
    ],
    "databricks-token": [lambda r: same(j("da", "pi", pick(r, HEX, 32), "-2"))],
    "grafana-token": [
        lambda r: same(j("gl", "sa_", pick(r, ALNUM, 32), "_", pick(r, HEX, 8))),
        lambda r: same(j("gl", "c_", b64_of(r, 90))),
    ],
    "heroku-key": [lambda r: same(j("HR", "KU-AA", pick(r, URLSAFE, 58)))],
    "postman-key": [lambda r: same(j("PM", "AK-", pick(r, HEX, 24), "-", pick(r, HEX, 34)))],
    "sentry-token": [
        lambda r: same(j("sntry", "u_", pick(r, HEX, 64))),
        lambda r: same(j("sntry", "s_eyJ", b64_of(r, 90).rstrip("="))),
    ],
    "rubygems-key": [lambda r: same(j("ruby", "gems_", pick(r, HEX, 48)))],
    "cloudflare-ca-key": [lambda r: same(j("v1", ".0-", pick(r, HEX, 24), "-", pick(r, HEX, 146)))],
    "age-secret-key": [lambda r: same(j("AGE-SECRET", "-KEY-1", pick(r, BECH32, 58)))],
    "django-secret-key": [
        lambda r: same(
            j(
                "django-",
                "insecure-",
                pick(r, string.ascii_lowercase + string.digits + "!@#$%^&*(-_=+)", 50),
            )
        )
    ],
    "linear-key": [lambda r: same(j("lin", "_api_", pick(r, ALNUM, 40)))],
    "groq-key": [lambda r: same(j("gs", "k_", pick(r, ALNUM, 52)))],
    "perplexity-key": [lambda r: same(j("pp", "lx-", pick(r, ALNUM, 48)))],
    "xai-key": [lambda r: same(j("xa", "i-", pick(r, ALNUM, 80)))],
    "mailgun-key": [lambda r: same(j("ke", "y-", pick(r, HEX, 32)))],
    "jwt": [
        lambda r: same(
            j(
                "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9",
                ".",
                base64.urlsafe_b64encode(
                    b'{"sub":"' + str(r.randrange(10**9)).encode() + b'","role":"admin"}'
                )
                .decode()
                .rstrip("="),
                ".",
                pick(r, URLSAFE, 86),
            )
        )
    ],
    "url-credentials": [
        lambda r: (lambda p: (j("https://deploy:", p, "@git.example.com/acme/app.git"), p))(
            pick(r, ALNUM, 14)
        ),
        lambda r: (lambda p: (j("smtps://", "mailer:", p, "@smtp.example.com:465"), p))(
            pick(r, ALNUM, 18)
        ),
    ],
    "http-auth-header": [
        lambda r: (lambda t: (j("Authorization: Bearer ", t), t))(pick(r, URLSAFE, 40)),
        lambda r: (lambda t: (j("authorization: Basic ", t), t))(
            base64.b64encode(b"svc-ci:" + pick(r, ALNUM, 16).encode()).decode()
        ),
        lambda r: (lambda t: (j("Authorization: token ", t), t))(pick(r, HEX, 40)),
    ],
    "docker-auth": [
        lambda r: (lambda t: (j('{"auths": {"ghcr.io": {"auth": "', t, '"}}}'), t))(
            base64.b64encode(b"acme-bot:" + pick(r, ALNUM, 20).encode()).decode()
        ),
    ],
    "long-hex": [
        lambda r: same(pick(r, HEX, 64)),
        lambda r: same(j("secret_", pick(r, HEX, 64))),
    ],
    "long-base64": [
        lambda r: same(b64_of(r, 32)),
        lambda r: same(b64_of(r, 48)),
    ],
}

# (before, after) around a secret; the last two contexts only suit single-token secrets.
CONTEXTS: dict[str, tuple[str, str]] = {
    "json": ('{"service": "billing", "credential": "', '", "retries": 3}\n'),
    "env": ("# staging settings\nAPP_CREDENTIAL=", "\nAPP_DEBUG=false\n"),
    "yaml": ("service:\n  name: billing\n  credential: ", "\n  retries: 3\n"),
    "shell": ("$ export APP_CREDENTIAL='", "'\n$ ./deploy.sh --env prod\n"),
    "log": ("2026-03-14T09:26:53.120Z INFO worker-3 request ok credential=", " user=bob ms=12\n"),
    "trace": (
        'Traceback (most recent call last):\n  File "/srv/app/client.py", line 88, in '
        "connect\n    session.login(",
        ")\nPermissionError: rejected\n",
    ),
    "markdown": ("To reproduce, set the credential:\n\n```\n", "\n```\n\nthen run `make test`.\n"),
    "url": ("curl -s 'https://api.example.com/v1/items?limit=10&credential=", "&page=2'\n"),
}
STRUCTURAL = {
    "private-key",
    "db-uri-creds",
    "slack-webhook",
    "discord-webhook",
    "azure-storage-key",
    "azure-sas",
    "url-credentials",
    "http-auth-header",
    "docker-auth",
}
# Documented limit: base64 inside a URL is skipped unless a named rule knows the format.
LIMITED = {("long-base64", "url")}


def positives(seed: int, per_generator: int) -> list[tuple[str, str, str, str]]:
    rnd = random.Random(seed)
    cases = []
    for family, gens in FAMILIES.items():
        for gen in gens:
            for _ in range(per_generator):
                planted, secret = gen(rnd)
                for ctx, (before, after) in CONTEXTS.items():
                    if family in STRUCTURAL and ctx in ("url", "shell"):
                        continue
                    cases.append((family, ctx, before + planted + after, secret))
    return cases


def benign_samples(stdlib_chars: int) -> list[tuple[str, str]]:
    with open(os.path.join(HERE, "benign.txt"), encoding="utf-8") as handle:
        raw = handle.read()
    body = "\n".join(line for line in raw.splitlines() if not line.startswith("# "))
    out = [("benign.txt", block.strip("\n")) for block in body.split("\n----\n") if block.strip()]
    out += [("stdlib", chunk) for chunk in stdlib_chunks(stdlib_chars)]
    return out


# ---------------------------------------------------------------------------------------
# Key-named secrets: a value assigned to a credential-named key, in the syntaxes people paste.
#
# Each syntax of keyed_syntaxes.txt is a handful of templates written the way config files,
# shell history and source code are written in practice (that file's header describes the
# format). Values come from a seeded generator at run time, in the kinds of VALUE_KINDS,
# restricted to the characters the syntax can hold unescaped, so the value appears
# verbatim in the planted text.
# ---------------------------------------------------------------------------------------

KEY_NAMES: tuple[tuple[str, ...], ...] = (
    ("password",),
    ("passwd",),
    ("pwd",),
    ("secret",),
    ("client", "secret"),
    ("api", "key"),
    ("apikey",),
    ("access", "token"),
    ("auth", "token"),
    ("refresh", "token"),
    ("private", "key"),
    ("secret", "key"),
    ("signing", "key"),
    ("encryption", "key"),
    ("credentials",),
    ("webhook", "secret"),
    ("db", "password"),
    ("db", "pass"),
    ("smtp", "pass"),
    ("smtp", "password"),
    ("stripe", "secret", "key"),
    ("admin", "password"),
    ("mysql", "root", "password"),
    ("redis", "password"),
    ("jwt", "secret"),
    ("session", "secret"),
    ("app", "secret"),
    ("bot", "token"),
    ("github", "token"),
    ("aws", "secret", "access", "key"),
    ("consumer", "secret"),
    ("master", "key"),
    ("auth", "key"),
    ("openai", "api", "key"),
    ("sendgrid", "api", "key"),
    ("ldap", "bind", "password"),
    ("oauth", "client", "secret"),
    ("slack", "bot", "token"),
    ("cookie", "secret"),
    ("keystore", "password"),
    ("secret", "token"),
    ("api", "secret"),
    ("private", "token"),
    ("service", "account", "key"),
    ("database", "password"),
    ("pg", "pass"),
    ("rabbitmq", "default", "pass"),
    ("sa", "password"),
    ("minio", "root", "password"),
    ("gf", "security", "admin", "password"),
    ("npm", "token"),
    ("hf", "token"),
    ("nextauth", "secret"),
    ("secret", "key", "base"),
    ("app", "key"),
    ("hmac", "key"),
    ("passphrase",),
    ("gpg", "passphrase"),
    ("key", "password"),
    ("store", "password"),
)
# Header-style names only make sense for tokens sent with a request.
HEADER_NAMES = (
    "X-Api-Key",
    "X-API-KEY",
    "X-Auth-Token",
    "X-Access-Token",
    "Api-Key",
    "X-Secret-Key",
)
USERS = ("admin", "deploy", "svc-app", "ci-bot", "app_user", "root", "postgres", "billing")
_WORD_LIST = (
    "amber anchor arctic bamboo basil beacon birch cactus canyon cedar cobalt comet coral "
    "crimson delta ember falcon fern fjord glacier granite harbor hazel indigo island jasper "
    "juniper kettle lagoon lantern maple marble meadow meteor nectar nimbus oasis olive orbit "
    "otter pebble pepper pine quartz raven ripple saffron sierra sparrow summit tundra velvet "
    "violet walnut willow zephyr"
)
WORDS = tuple(_WORD_LIST.split(" "))
# Punctuation people put in passwords; `$ { } < > %` are left out everywhere because a value
# holding `${`, `{{`, `<...>` or `%(` would read as a template, which is a negative here.
PUNCT = "!@#^&*()-_=+[]:,.?~/|;"
VALUE_KINDS = (
    *("random", "hex", "base64", "passphrase", "human", "punctuated", "short", "long"),
    *("uuid", "unicode", "numeric"),
)

# Characters a syntax cannot hold unescaped (beyond the globally excluded ones).
SHELL_BARE = "\"' \\!#^&*()[]|;?~,`="  # an unquoted shell word
IN_DQ = '"\\'  # inside double quotes (JSON, most code)
IN_SQ = "'\\"  # inside single quotes
YAML_PLAIN = "\"' #:,[]&*!|?~^@`"  # a plain YAML scalar, also valid in flow style
CONN = "\"' ;=&?#/:@\\"  # a connection-string or URL-query field


CHARSETS = {
    "NONE": "",
    "SHELL_BARE": SHELL_BARE,
    "IN_DQ": IN_DQ,
    "IN_SQ": IN_SQ,
    "YAML_PLAIN": YAML_PLAIN,
    "CONN": CONN,
    "BACKTICK": "`",
    "BRACES": "{}",
    "AMP": "&",
    "HASH": "#",
    "COMMA": ",",
}


class Syntax(NamedTuple):
    name: str
    ext: str  # file extension the sample is written with for detect-secrets
    styles: tuple[str, ...]  # naming styles for {K}
    forbid: str
    templates: tuple[tuple[str, str], ...]  # (encoding or "", text)


def load_syntaxes(path: str) -> tuple[Syntax, ...]:
    """The syntaxes of `keyed_syntaxes.txt` (its header comment describes the format)."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    syntaxes = []
    for section in re.split(r"^== ", text, flags=re.MULTILINE)[1:]:
        header, _, body = section.partition("\n")
        name, *fields = header.split()
        field = dict(f.split("=", 1) for f in fields)
        parts = re.split(r"^--(?: (basic|b64))?\n", body, flags=re.MULTILINE)
        templates = tuple(
            (encoding or "", template.rstrip("\n") + "\n")
            for encoding, template in zip(parts[1::2], parts[2::2], strict=True)
        )
        forbid = "".join(CHARSETS[n] for n in field["forbid"].split("+"))
        syntaxes.append(
            Syntax(name, field["ext"], tuple(field["keys"].split(",")), forbid, templates)
        )
    return tuple(syntaxes)


SYNTAXES = load_syntaxes(os.path.join(HERE, "keyed_syntaxes.txt"))


SYNTAX_BY_NAME = {syntax.name: syntax for syntax in SYNTAXES}
SYNTAX_NAMES = frozenset(SYNTAX_BY_NAME)


def style_key(words: tuple[str, ...], style: str) -> str:
    if style == "upper":
        return "_".join(words).upper()
    if style == "snake":
        return "_".join(words)
    if style == "kebab":
        return "-".join(words)
    if style == "camel":
        return words[0] + "".join(w.capitalize() for w in words[1:])
    return "".join(w.capitalize() for w in words)  # pascal


def make_value(rnd: random.Random, kind: str, forbid: str) -> str:
    """One fake credential of `kind` holding none of the characters in `forbid`."""
    if kind == "random":
        return pick(rnd, ALNUM, rnd.randint(16, 40))
    if kind == "hex":
        return pick(rnd, HEX, rnd.choice((32, 40, 64)))
    if kind == "base64":
        value = b64_of(rnd, rnd.choice((18, 24, 30, 33)))
        for char in "+/=":
            if char in forbid:
                value = value.replace(char, rnd.choice(ALNUM))
        return value
    if kind == "passphrase":
        words = rnd.sample(WORDS, rnd.randint(3, 4))
        words[rnd.randrange(len(words))] = words[0].capitalize()
        seps = [c for c in "-_. " if c not in forbid] or [""]
        sep = rnd.choice(seps)
        return sep.join(words) + sep + str(rnd.randint(10, 99))
    if kind == "human":  # what people pick: a word, a year or a number, maybe a symbol
        word = rnd.choice(WORDS)
        word = word.capitalize() if rnd.random() < 0.7 else word
        tail = rnd.choice([c for c in "!#*@." if c not in forbid] + [""])
        return word + str(rnd.choice((rnd.randint(1, 99), rnd.randint(1990, 2026)))) + tail
    if kind == "long":
        return pick(rnd, URLSAFE, rnd.randint(64, 96))
    if kind == "uuid":  # Heroku API keys, Azure client secrets' ids, Sentry keys...
        return "-".join(pick(rnd, HEX, n) for n in (8, 4, 4, 4, 12))
    if kind == "unicode":  # what people pick outside ASCII: a word with diacritics and a year
        word = rnd.choice(
            ("Sch\u00f6neb\u00e4rg", "Caf\u00e9Cr\u00e8me", "Ma\u00f1ana", "Stra\u00dfe")
        )
        tail = rnd.choice([c for c in "!#*." if c not in forbid] + [""])
        return word + str(rnd.randint(1990, 2026)) + tail
    if kind == "numeric":  # a PIN-like or generated numeric password
        return str(rnd.randint(10_000_000, 99_999_999_999))
    punct = [c for c in PUNCT if c not in forbid] or ["_"]
    size = rnd.randint(6, 10) if kind == "short" else rnd.randint(12, 24)
    chars = [rnd.choice(ALNUM) for _ in range(size)]
    for at in rnd.sample(range(1, size), 2 if kind == "short" else 4):
        chars[at] = rnd.choice(punct)
    chars[0] = rnd.choice(string.ascii_uppercase)
    chars[-1] = rnd.choice(string.digits)
    return "".join(chars)


def _encode(encoding: str, user: str, value: str) -> str:
    if encoding == "basic":
        return base64.b64encode(f"{user}:{value}".encode()).decode()
    return base64.b64encode(value.encode()).decode()


def _fill(template: str, key: str, user: str, value: str) -> str:
    return template.replace("{K}", key).replace("{U}", user).replace("{V}", value)


class Case(NamedTuple):
    section: str  # "keyed", "escaped", "vendor"
    group: str  # the syntax, escape kind or vendor rule
    text: str
    forms: tuple[str, ...]  # how the secret appears in `text` (all must go)
    value: str  # the secret itself, for the remnant check
    ext: str
    wrapper: str = ""  # "json" or "repr": `text` is one literal that must still parse
    kind: str = ""  # the value kind, for positives
    key: str = ""  # the key name the template used ("" when the template fixes it)


def _key_for(rnd: random.Random, syntax: Syntax) -> str:
    style = rnd.choice(syntax.styles)
    if style == "header":
        return rnd.choice(HEADER_NAMES)
    return style_key(rnd.choice(KEY_NAMES), style)


def keyed_positives(seed: int, per_syntax: int) -> list[Case]:
    """`per_syntax` planted secrets per syntax, templates and value kinds taken in turn."""
    rnd = random.Random(seed)
    cases = []
    for syntax in SYNTAXES:
        kinds = list(VALUE_KINDS)
        rnd.shuffle(kinds)
        for i in range(per_syntax):
            encoding, body = syntax.templates[i % len(syntax.templates)]
            value = make_value(rnd, kinds[i % len(kinds)], syntax.forbid)  # the planted value
            user = rnd.choice(USERS)
            secret = _encode(encoding, user, value) if encoding else value
            kind = kinds[i % len(kinds)]
            key = _key_for(rnd, syntax)
            text = _fill(body, key, user, secret)
            key = key if "{K}" in body else ""
            case = Case("keyed", syntax.name, text, (secret,), secret, syntax.ext, "", kind, key)
            cases.append(case)
    return cases


# ---------------------------------------------------------------------------------------
# Negatives: what is not a secret must come back byte-identical at the display boundary.
#
# Generated ones put placeholder and reference values into the positive templates
# (every syntax, so a rule that is loose in one syntax shows up); hand-written ones
# (benchmarks/secret_eval/keyed_negatives.txt) hold code references, annotations,
# signatures, comparisons, mentions of the words and prose.
# ---------------------------------------------------------------------------------------

PLACEHOLDERS = (
    "changeme",
    "<password>",
    "YOUR_API_KEY",
    "your-api-key-here",
    "<YOUR_TOKEN>",
    "xxx",
    "xxxxxxxxxxxxxxxx",
    "****",
    "********",
    "...",
    "example",
    "dummy",
    "test",
    "secret",
    "password",
    "",
    "None",
    "null",
    "true",
    "REPLACE_ME",
    "TODO",
    "placeholder",
    "[REDACTED]",
    "<redacted>",
    "***REDACTED***",
    "mysecretpassword",
    "your_password",
    "<your-password-here>",
    "sk-...",
    "foo",
)
# Example credentials vendors print in their documentation: counted apart, since a scanner
# may fairly choose to redact a string shaped exactly like a live key.
DOC_EXAMPLES = (
    j("AKIA", "IOSFODNN7EXAMPLE"),  # the AWS documentation's example key pair
    j("wJalrXUtnFEMI/K7MDENG/", "bPxRfiCYEXAMPLEKEY"),
)
REFERENCES = (
    "${DB_PASSWORD}",
    "$PASSWORD",
    "{{ .Values.password }}",
    "${{ secrets.API_TOKEN }}",
    "%(password)s",
    "{password}",
    "%DB_PASSWORD%",
    "{{ db_password }}",
    "${env:API_KEY}",
    "$(cat /run/secrets/db_password)",
    "${SECRET_KEY:?missing}",
    "<%= ENV['API_KEY'] %>",
)


def keyed_negatives_generated(seed: int) -> list[Case]:
    """Every placeholder and reference value in each syntax, where the syntax can hold it."""
    rnd = random.Random(seed)
    cases = []
    for syntax in SYNTAXES:
        plain = [text for encoding, text in syntax.templates if not encoding]
        if not plain:
            continue
        for category, values in (
            ("placeholder", PLACEHOLDERS),
            ("reference", REFERENCES),
            ("docs-example", DOC_EXAMPLES),
        ):
            for value in values:
                if category != "placeholder" and any(c in syntax.forbid for c in value):
                    continue  # the syntax cannot hold this reference unescaped
                text = _fill(rnd.choice(plain), _key_for(rnd, syntax), rnd.choice(USERS), value)
                cases.append(Case(category, syntax.name, text, (), "", syntax.ext, "", value))
    return cases


def keyed_negatives_written() -> list[Case]:
    """The hand-written negatives: blocks under `== <category> <ext>` headers, split by `----`."""
    with open(os.path.join(HERE, "keyed_negatives.txt"), encoding="utf-8") as handle:
        lines = [line for line in handle.read().splitlines() if not line.startswith("# ")]
    cases: list[Case] = []
    category, ext, block = "", "txt", []
    for line in [*lines, "----"]:
        if line.startswith("== ") or line == "----":
            if any(block):
                text = "\n".join(block).strip("\n") + "\n"
                cases.append(Case(category, f"{category}-{ext}", text, (), "", ext))
            block = []
            if line.startswith("== "):
                category, ext = line[3:].split()
        else:
            block.append(line)
    return cases


# ---------------------------------------------------------------------------------------
# Escaped forms: the same secrets as they reach a transcript or a URL.
# ---------------------------------------------------------------------------------------


_QUOTE_NOT_AFTER_BACKSLASH = re.compile(r'(?<!\\)((?:\\\\)*)\\"')


def _json_escape(text: str, style: str) -> str:
    """`text` as the inside of a JSON string, written the way `style` encoders write it."""
    inside = json.dumps(text)[1:-1]  # json.dumps: \n, \" and \uXXXX for non-ASCII
    if style == "slash":  # PHP json_encode also writes \/
        return inside.replace("/", "\\/")
    if style == "unicode":  # .NET System.Text.Json and Go escape HTML-sensitive characters
        for char in "<>&'+":
            inside = inside.replace(char, f"\\u{ord(char):04x}")
        return _QUOTE_NOT_AFTER_BACKSLASH.sub(r"\1\\u0022", inside)
    return inside


JSON_STYLES = ("python", "slash", "unicode", "crlf", "nested")


def _json_line(content: str, style: str) -> str:
    """A JSON-lines transcript record whose content string is `content`; "crlf" is content
    with Windows line ends, "nested" a transcript line quoted inside another one."""
    if style == "nested":
        content, style = _json_line(content, "python"), "python"
    if style == "crlf":
        content, style = content.replace("\n", "\r\n"), "python"
    inside = _json_escape(content, style)
    return '{"type": "tool_result", "tool_use_id": "toolu_01", "content": "' + inside + '"}'


def _json_forms(value: str, style: str) -> tuple[str, ...]:
    """How `value` reads inside a line `_json_line(..., style)` wrote."""
    if style == "nested":
        inside = _json_escape(_json_escape(value, "python"), "python")
    else:
        inside = _json_escape(value, "python" if style == "crlf" else style)
    return (inside,) if inside == value else (inside, value)


def _repr_record(content: str) -> str:
    """A tool result logged as a Python dict, the way `print(result)` shows it."""
    return repr({"stdout": content, "returncode": 0})


def _repr_forms(value: str, record: str) -> tuple[str, ...]:
    """How `value` reads inside `record` (repr escapes backslashes and its own quote)."""
    quote = record[len("{'stdout': ")]  # the quote repr chose for the content string
    inside = value.replace("\\", "\\\\").replace(quote, "\\" + quote)
    return (inside,) if inside == value else (inside, value)


def escaped_cases(seed: int, per_kind: int) -> list[Case]:
    """Key-named secrets inside JSON-lines strings, a Python repr, percent-encoded URLs and
    wrapped lines."""
    rnd = random.Random(seed)
    source = keyed_positives(seed + 1, 2)
    cases = []
    for style in JSON_STYLES:
        for case in rnd.sample(source, per_kind):
            forms = _json_forms(case.value, style)
            line = _json_line(case.text, style)
            cases.append(
                Case("escaped", f"jsonl-{style}", line, forms, case.value, "jsonl", "json")
            )
    for case in rnd.sample(source, per_kind):
        record = _repr_record(case.text)
        forms = _repr_forms(case.value, record)
        cases.append(Case("escaped", "python-repr", record, forms, case.value, "txt", "repr"))
    for i in range(per_kind):
        value = _with_quote_and_backslash(rnd, make_value(rnd, "punctuated", ""))
        inside = json.dumps(value)[1:-1]
        key = _key_for(rnd, SYNTAX_BY_NAME["json-pretty"])
        text = JSON_INNER_TEMPLATES[i % len(JSON_INNER_TEMPLATES)].replace("{K}", key)
        text = text.replace("{V}", inside)
        case = Case("escaped", "json-value-escapes", text, (inside,), value, "json", "json")
        cases.append(case)
    for i in range(per_kind):
        value = make_value(rnd, VALUE_KINDS[i % len(VALUE_KINDS)], "")
        quoted = urllib.parse.quote(value, safe="")
        user = rnd.choice(USERS)
        text = rnd.choice(PERCENT_TEMPLATES).replace("{U}", user).replace("{V}", quoted)
        cases.append(Case("escaped", "percent-encoded", text, (quoted,), value, "txt"))
    for i in range(per_kind):
        value = make_value(rnd, "long" if i % 2 else "random", "")
        cut = len(value) // 2
        template = WRAPPED_TEMPLATES[i % len(WRAPPED_TEMPLATES)]
        if "{V1}" in template:
            text = template.replace("{V1}", value[:cut]).replace("{V2}", value[cut:])
            forms = (value[:cut], value[cut:])
        else:
            text, forms = template.replace("{V}", value), (value,)
        cases.append(Case("escaped", "backslash-wrapped", text, forms, value, "sh"))
    return cases


JSON_INNER_TEMPLATES = (
    '{\n  "database": {\n    "host": "db.internal",\n    "{K}": "{V}"\n  }\n}\n',
    '{"{K}":"{V}","retries":3}\n',
)


def _with_quote_and_backslash(rnd: random.Random, value: str) -> str:
    """`value` with a double quote and a backslash inside, which JSON must escape."""
    at = sorted(rnd.sample(range(1, len(value) - 1), 2))
    return value[: at[0]] + '"' + value[at[0] : at[1]] + "\\" + value[at[1] :]


PERCENT_TEMPLATES = (
    "GET https://api.example.com/v1/login?username={U}&password={V}&next=%2Fhome\n",
    "POST /oauth/token body=grant_type=client_credentials&client_id=app&client_secret={V}\n",
    "https://{U}:{V}@git.example.com/acme/app.git\n",
    "redirect: https://app.example.com/cb?access_token={V}&token_type=bearer\n",
    "curl 'https://hooks.example.com/notify?api_key={V}'\n",
)
WRAPPED_TEMPLATES = (
    'export API_TOKEN="{V1}\\\n{V2}"\n',
    "mysql -u root \\\n  -p'{V}' \\\n  shop\n",
    'curl -X POST https://api.example.com/v1/jobs \\\n  -H "Authorization: Bearer {V}" \\\n'
    "  -d @job.json\n",
    'API_KEY = "{V1}" \\\n    "{V2}"\n',
    "docker login ghcr.io \\\n  --username ci-bot \\\n  --password {V}\n",
)


def escaped_negatives(seed: int, count: int) -> list[Case]:
    """Negatives wrapped into JSON-lines records: they too must come back byte-identical."""
    rnd = random.Random(seed)
    generated = [c for c in keyed_negatives_generated(seed) if c.section != "docs-example"]
    pool = generated + keyed_negatives_written()
    cases = []
    for i, case in enumerate(rnd.sample(pool, min(count, len(pool)))):
        style = (*JSON_STYLES, "repr")[i % (len(JSON_STYLES) + 1)]
        if style == "repr":
            cases.append(
                Case("escaped", "python-repr", _repr_record(case.text), (), "", "txt", "repr")
            )
        else:
            line = _json_line(case.text, style)
            cases.append(Case("escaped", f"jsonl-{style}", line, (), "", "jsonl", "json"))
    return cases


def vendor_cases_or_none(path: str | None = None) -> tuple[list[Case], str]:
    """Cases from `vendor_cases()` of benchmarks/catalog_eval.py (written by another
    benchmark) when that file exists, else none and the reason."""
    path = path or os.path.join(os.path.dirname(os.path.abspath(__file__)), "catalog_eval.py")
    if not os.path.exists(path):
        return [], "benchmarks/catalog_eval.py absent: vendor section skipped"
    folder = os.path.dirname(path)
    sys.path.insert(0, folder)  # it may import its siblings, as a script would
    try:
        spec = importlib.util.spec_from_file_location("catalog_eval", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        raw = module.vendor_cases()
    except Exception as error:  # a peer's file must not stop this benchmark
        return [], f"catalog_eval.vendor_cases() failed ({type(error).__name__}: {error}): skipped"
    finally:
        sys.path.remove(folder)
    cases = [Case("vendor", rule, text, (value,), value, "txt") for rule, text, value in raw]
    return cases, f"{len(cases)} cases from catalog_eval.vendor_cases()"


# ---------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------


MARKER = re.compile(r"\[redacted:[^\]\s]*\]|<REDACTED:[^>\s]*>")


def grams(value: str, size: int = 6) -> set[str]:
    if len(value) <= size:
        return {value}
    return {value[i : i + size] for i in range(len(value) - size + 1)}


class Outcome(NamedTuple):
    hit: bool  # every form of the secret is gone
    clean: bool  # ... and no 6-character piece of it survives
    changed: bool  # the output differs from the input
    broken: bool  # a JSON document no longer parses
    damaged: bool = False  # the redaction reached past the value (see `damaged`)


def _decoded(out: str, wrapper: str = "json") -> str:
    """The string leaves of a JSON document or a repr'd record, one per line, a nested
    transcript line unwrapped; ValueError (or another exception) when a level no longer
    parses."""
    document = ast.literal_eval(out) if wrapper == "repr" else json.loads(out)
    return "\n".join(_leaves(document))


def _leaves(node: object) -> list[str]:
    if isinstance(node, dict):
        return [leaf for value in node.values() for leaf in _leaves(value)]
    if isinstance(node, list):
        return [leaf for value in node for leaf in _leaves(value)]
    if isinstance(node, str) and node.startswith('{"type": "tool_result"'):
        return _leaves(json.loads(node))
    return [node] if isinstance(node, str) else []


def judge(case: Case, out: str) -> Outcome:
    """Score one output against its case; JSON cases are also judged on their decoded text."""
    views = [out]
    broken = False
    if case.wrapper:
        try:
            views.append(_decoded(out, case.wrapper))
        except (ValueError, KeyError, TypeError, AttributeError, SyntaxError, MemoryError):
            broken = True
    if not case.forms:
        return Outcome(False, False, out != case.text, broken)
    hit = not any(form in view for form in (*case.forms, case.value) for view in views)
    context = case.text
    for form in case.forms:
        context = context.replace(form, "")
    pieces = set().union(*(grams(f) for f in (*case.forms, case.value)))
    pieces = {p for p in pieces if p not in context}
    bare = [MARKER.sub("\x00", view) for view in views]  # a marker names a shape, not the value
    clean = hit and not any(p in view for p in pieces for view in bare)
    return Outcome(hit, clean, out != case.text, broken, not broken and damaged(case, out))


def damaged(case: Case, out: str) -> bool:
    """The redaction reached past the value: a line before the secret's first line changed,
    the text after the secret (its closing quote, the rest of the line, the lines below) is
    gone, or the key name is. A value wrapped over lines may lose its line break. Wrapped
    cases are compared on their decoded content."""
    before, after, forms = case.text, out, case.forms
    if case.wrapper:
        before, after = _decoded(case.text, case.wrapper), _decoded(out, case.wrapper)
        forms = (case.value,)
    present = [form for form in forms if form in before]
    if not present:
        return False
    start = min(before.find(form) for form in present)
    end = max(before.rfind(form) + len(form) for form in present)
    lines_above = before[: before.rfind("\n", 0, start) + 1]
    if not (after.startswith(lines_above) and after.endswith(before[end:])):
        return True
    return bool(case.key) and case.key in before and case.key not in after


Redactor = Callable[[str], str]


def display(text: str) -> str:
    return redact_secret_shapes(text).text


def storage(text: str) -> str:
    return scrub_for_storage(text, sidecar=True).text


def run_cases(cases: list[Case], redactor: Redactor) -> list[Outcome]:
    return [judge(case, redactor(case.text)) for case in cases]


def changed_lines(before: str, after: str) -> int:
    """Lines of `before` a redaction touched."""
    if before == after:
        return 0
    old, new = before.split("\n"), after.split("\n")
    if len(old) == len(new):
        return sum(a != b for a, b in zip(old, new, strict=True))
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return sum(i2 - i1 for tag, i1, i2, _, _ in matcher.get_opcodes() if tag != "equal")


# ---------------------------------------------------------------------------------------
# detect-secrets, run as a subprocess from its own virtual environment, never imported
# ---------------------------------------------------------------------------------------


def find_detect_secrets(explicit: str | None) -> str | None:
    """The `detect-secrets` executable: --detect-secrets, $DETECT_SECRETS, PATH, or a
    `venvs/detect-secrets` virtual environment beside the checkout or one of its parents."""
    for candidate in (explicit, os.environ.get("DETECT_SECRETS"), shutil.which("detect-secrets")):
        if candidate and os.path.exists(candidate):
            return candidate
    here = os.path.abspath(ROOT)
    while True:
        candidate = os.path.join(here, "venvs", "detect-secrets", "bin", "detect-secrets")
        if os.path.exists(candidate):
            return candidate
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def detect_secrets_flags(executable: str, cases: list[Case]) -> list[tuple[bool, bool]]:
    """Per case: (any finding in the sample, a finding whose hash is the secret's)."""
    with tempfile.TemporaryDirectory() as folder:
        names = []
        for i, case in enumerate(cases):
            name = f"s{i:05d}.{case.ext}" if case.ext != "Dockerfile" else f"s{i:05d}/Dockerfile"
            path = os.path.join(folder, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(case.text)
            names.append(name)
        done = subprocess.run(
            [executable, "scan", "--all-files", "."],
            cwd=folder,
            capture_output=True,
            text=True,
            check=False,
        )
    results = json.loads(done.stdout)["results"] if done.returncode == 0 else {}
    flags = []
    for name, case in zip(names, cases, strict=True):
        found = results.get(name, [])
        wanted = {hashlib.sha1(f.encode()).hexdigest() for f in (*case.forms, case.value)}
        flags.append((bool(found), any(f["hashed_secret"] in wanted for f in found)))
    return flags


# ---------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------


def rate(part: int, whole: int) -> str:
    return f"{part / whole:6.3f}" if whole else "     -"


def existing_corpus(args: argparse.Namespace, ben: list[tuple[str, str]]) -> int:
    """The vendor-shape corpus: recall, false positives on benign text, tail leaks."""
    pos = positives(args.seed, args.per_generator)
    caught: Counter[str] = Counter()
    total: Counter[str] = Counter()
    limited = limited_caught = tail_leaks = store_caught = 0
    misses: list[str] = []
    for family, ctx, text, secret in pos:
        res = redact_secret_shapes(text)
        hit = secret not in res.text and family in res.shapes
        leak = secret[:8] not in res.text and secret[-6:] in res.text
        tail_leaks += leak
        stored = scrub_for_storage(text, sidecar=True)
        store_caught += secret not in stored.text
        if (family, ctx) in LIMITED:
            limited += 1
            limited_caught += hit
            continue
        total[family] += 1
        caught[family] += hit
        if not hit and len(misses) < args.show:
            misses.append(f"  miss {family}/{ctx}: shapes={res.shapes}")

    fp: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    store_changed = 0
    fps: list[str] = []
    for source, text in ben:
        seen[source] += 1
        res = redact_secret_shapes(text)
        if res.text != text:
            fp[source] += 1
            if len(fps) < args.show:
                fps.append(f"  false positive in {source}: shapes={res.shapes}")
        store_changed += scrub_for_storage(text, sidecar=True).text != text

    n_pos = sum(total.values())
    print("== vendor-shape corpus")
    print(
        f"positives: {len(pos)} planted secrets ({len(FAMILIES)} families x "
        f"{len(CONTEXTS)} contexts); benign: {len(ben)} samples "
        f"({seen['benign.txt']} curated + {seen['stdlib']} stdlib chunks)"
    )
    print(
        f"display recall        {sum(caught.values())}/{n_pos} = {sum(caught.values()) / n_pos:.4f}"
    )
    print(
        f"display false-pos.    {sum(fp.values())}/{len(ben)} = {sum(fp.values()) / len(ben):.4f}"
        f"  (curated {fp['benign.txt']}/{seen['benign.txt']}, "
        f"stdlib {fp['stdlib']}/{seen['stdlib']})"
    )
    print(f"tail leaks            {tail_leaks}  (must be 0)")
    print(f"documented-limit cases (base64 in a URL query): {limited_caught}/{limited} redacted")
    print(f"storage recall        {store_caught}/{len(pos)} = {store_caught / len(pos):.4f}")
    print(
        f"storage rewrites benign {store_changed}/{len(ben)} = {store_changed / len(ben):.4f} "
        "(aggressive by design)"
    )
    weak = sorted((caught[f] / total[f], f) for f in total if caught[f] < total[f])
    for share, family in weak:
        print(f"  family below 100%: {family} {share:.3f}")
    for line in misses + fps:
        print(line)
    return tail_leaks


class Tally(NamedTuple):
    n: int
    hit: int
    clean: int
    changed: int
    broken: int
    damaged: int


def tally(outcomes: list[Outcome]) -> Tally:
    return Tally(
        len(outcomes),
        sum(o.hit for o in outcomes),
        sum(o.clean for o in outcomes),
        sum(o.changed for o in outcomes),
        sum(o.broken for o in outcomes),
        sum(o.damaged for o in outcomes),
    )


def by_group(cases: list[Case], outcomes: list[Outcome]) -> dict[str, list[Outcome]]:
    groups: dict[str, list[Outcome]] = {}
    for case, outcome in zip(cases, outcomes, strict=True):
        groups.setdefault(case.group, []).append(outcome)
    return groups


def positives_table(
    title: str,
    cases: list[Case],
    shown: list[Outcome],
    stored: list[Outcome],
    peer: list[tuple[bool, bool]] | None,
    only_missed: bool = False,
) -> None:
    """Per group and overall: display and storage recall and clean recall, and the peer's;
    with `only_missed`, only the groups display does not fully redact."""
    print(f"\n== {title}: {len(cases)} secrets in {len({c.group for c in cases})} groups")
    peer_head = "  d-s any  exact" if peer is not None else ""
    print(f"{'group':24} {'n':>4}  display  clean  storage  clean{peer_head}")
    rows = sorted(by_group(cases, shown).items(), key=lambda kv: tally(kv[1]).clean / len(kv[1]))
    store_groups = by_group(cases, stored)
    peer_groups: dict[str, list[tuple[bool, bool]]] = {}
    if peer is not None:
        for case, flags in zip(cases, peer, strict=True):
            peer_groups.setdefault(case.group, []).append(flags)

    def row(
        name: str, shown_: list[Outcome], stored_: list[Outcome], peer_: list[tuple[bool, bool]]
    ) -> str:
        d, s = tally(shown_), tally(stored_)
        line = (
            f"{name:24} {d.n:4}  {rate(d.hit, d.n)}  {rate(d.clean, d.n)}  "
            f"{rate(s.hit, s.n)}  {rate(s.clean, s.n)}"
        )
        if peer is not None:
            line += f"  {rate(sum(a for a, _ in peer_), d.n)} {rate(sum(b for _, b in peer_), d.n)}"
        if d.broken + s.broken:
            line += f"  broken: display {d.broken}, storage {s.broken}"
        if d.damaged + s.damaged:
            line += f"  reached past the value: display {d.damaged}, storage {s.damaged}"
        return line

    for name, outcomes in rows:
        if only_missed and all(o.clean for o in outcomes):
            continue
        print(row(name, outcomes, store_groups[name], peer_groups.get(name, [])))
    print(row("OVERALL", shown, stored, peer or []))


def negatives_table(
    title: str,
    cases: list[Case],
    shown: list[Outcome],
    stored: list[Outcome],
    peer: list[tuple[bool, bool]] | None,
    key: Callable[[Case], str],
) -> None:
    """Per category and overall: the share of negatives each boundary rewrites."""
    print(f"\n== {title}: {len(cases)} samples that must stay byte-identical at display")
    peer_head = "  d-s flags" if peer is not None else ""
    print(f"{'category':24} {'n':>4}  display fp  storage fp{peer_head}")
    groups: dict[str, list[int]] = {}
    for i, case in enumerate(cases):
        groups.setdefault(key(case), []).append(i)
    judged = [i for i, case in enumerate(cases) if case.section != "docs-example"]
    groups["OVERALL" if len(judged) == len(cases) else "OVERALL, docs apart"] = judged
    for name, members in groups.items():
        d = sum(shown[i].changed for i in members)
        s = sum(stored[i].changed for i in members)
        line = f"{name:24} {len(members):4}  {rate(d, len(members))}      {rate(s, len(members))}"
        if peer is not None:
            line += f"      {rate(sum(peer[i][0] for i in members), len(members))}"
        broken = sum(shown[i].broken for i in members)
        print(line + (f"  JSON broken at display: {broken}" if broken else ""))


def show_misses(cases: list[Case], outcomes: list[Outcome], limit: int) -> None:
    """A few missed samples, the secret replaced by <SECRET> (no value is ever printed)."""
    missed = [c for c, o in zip(cases, outcomes, strict=True) if not o.clean]
    seen_groups: set[str] = set()
    shown = 0
    for case in missed:
        if case.group in seen_groups or shown >= limit:
            continue
        seen_groups.add(case.group)
        shown += 1
        text = case.text
        for form in case.forms:
            text = text.replace(form, "<SECRET>")
        print(f"  missed {case.group}: {text.strip()[:150]!r}")


def show_redacted_negatives(
    cases: list[Case],
    outcomes: list[Outcome],
    limit: int,
    skip: frozenset[str] | set[str] = frozenset(),
) -> None:
    flagged = [
        c for c, o in zip(cases, outcomes, strict=True) if o.changed and c.section not in skip
    ]
    for case in flagged[:limit]:
        shapes = redact_secret_shapes(case.text).shapes
        print(f"  redacted {case.section}/{case.group} {shapes}: {case.text.strip()[:150]!r}")
    if len(flagged) > limit:
        print(f"  ... and {len(flagged) - limit} more (--show to see more)")


def stdlib_rate(chunks: list[str]) -> float:
    """Print and return the display boundary's redacted lines per 10,000 stdlib lines."""
    lines = sum(chunk.count("\n") for chunk in chunks)
    per_10k = {}
    for name, redactor in (("display", display), ("storage", storage)):
        touched = sum(changed_lines(chunk, redactor(chunk)) for chunk in chunks)
        per_10k[name] = touched * 10_000 / lines
        print(
            f"stdlib {name:8} {touched} redacted lines in {lines} = {per_10k[name]:.2f} per 10,000"
        )
    shapes = Counter(shape for chunk in chunks for shape in redact_secret_shapes(chunk).shapes)
    print(
        "  display shapes in stdlib: "
        + (", ".join(f"{k} {v}" for k, v in shapes.most_common()) or "none")
    )
    return per_10k["display"]


class Section(NamedTuple):
    cases: list[Case]
    shown: list[Outcome]  # display
    stored: list[Outcome]  # storage
    peer: list[tuple[bool, bool]] | None  # detect-secrets: (any finding, exact value)


def evaluate(cases: list[Case], executable: str | None) -> Section:
    peer = detect_secrets_flags(executable, cases) if executable and cases else None
    return Section(cases, run_cases(cases, display), run_cases(cases, storage), peer)


def breakdown(section: Section, label: str, attribute: Callable[[Case], str], worst: int) -> None:
    """Display clean recall by one attribute of the cases, worst first."""
    groups: dict[str, list[bool]] = {}
    for case, outcome in zip(section.cases, section.shown, strict=True):
        if attribute(case):
            groups.setdefault(attribute(case), []).append(outcome.clean)
    ranked = sorted(groups.items(), key=lambda kv: (sum(kv[1]) / len(kv[1]), kv[0]))[:worst]
    cells = [f"{name} {sum(hits) / len(hits):.2f} ({len(hits)})" for name, hits in ranked]
    print(f"  display clean recall by {label}: " + ", ".join(cells))


def share(outcomes: list[Outcome], field: str) -> float:
    return sum(getattr(o, field) for o in outcomes) / len(outcomes) if outcomes else 0.0


SECTIONS = ("shapes", "keyed", "negatives", "escaped", "vendor", "stdlib")
EMPTY = Section([], [], [], None)


def keyed_section(args: argparse.Namespace, executable: str | None) -> Section:
    keyed = evaluate(keyed_positives(args.seed, args.per_syntax), executable)
    positives_table("key-named secrets", *keyed)
    breakdown(keyed, "value kind", lambda c: c.kind, 12)
    spelling = lambda c: re.sub("[^a-z]", "", c.key.lower())  # noqa: E731 - one name per spelling
    breakdown(keyed, "key name, any spelling (worst 12)", spelling, 12)
    show_misses(keyed.cases, keyed.shown, args.show)
    return keyed


def negatives_section(args: argparse.Namespace, executable: str | None) -> Section:
    written = keyed_negatives_written()
    negatives = evaluate(keyed_negatives_generated(args.seed) + written, executable)
    negatives_table("key-named negatives", *negatives, key=lambda c: c.section)
    redacted = [
        c
        for c, o in zip(negatives.cases, negatives.shown, strict=True)
        if o.changed and c.section != "docs-example"
    ]
    flagged = Counter(c.group for c in redacted if c.group in SYNTAX_NAMES)
    values = Counter(c.kind for c in redacted if c.kind)
    for label, counts in (("syntaxes", flagged), ("placeholder/reference values", values)):
        listed = ", ".join(f"{name!r} {count}" for name, count in counts.most_common())
        print(f"  {label} whose generated negatives display redacts: {listed or 'none'}")
    show_redacted_negatives(negatives.cases, negatives.shown, args.show, skip={"docs-example"})
    return negatives


def escaped_section(args: argparse.Namespace, executable: str | None) -> tuple[Section, Section]:
    escaped = evaluate(escaped_cases(args.seed, args.per_escape), executable)
    positives_table("escaped secrets", *escaped)
    show_misses(escaped.cases, escaped.shown, args.show)
    escaped_neg = evaluate(escaped_negatives(args.seed, 240), executable)
    negatives_table("escaped negatives", *escaped_neg, key=lambda c: c.group)
    show_redacted_negatives(escaped_neg.cases, escaped_neg.shown, args.show)
    return escaped, escaped_neg


def vendor_section(args: argparse.Namespace, executable: str | None) -> None:
    vendor_list, vendor_note = vendor_cases_or_none()
    print(f"\nvendor cases: {vendor_note}")
    if vendor_list:
        vendor = evaluate(vendor_list, executable)
        positives_table("vendor formats (rules display misses)", *vendor, only_missed=True)
        show_misses(vendor.cases, vendor.shown, args.show)


def summary(
    keyed: Section, negatives: Section, escaped: Section, escaped_neg: Section, stdlib: float | None
) -> None:
    """The display boundary against the target figures; "-" for a section not run."""

    def figure(outcomes: list[Outcome], field: str) -> str:
        return f"{share(outcomes, field):.3f}" if outcomes else "    -"

    judged = [
        o
        for c, o in zip(negatives.cases, negatives.shown, strict=True)
        if c.section != "docs-example"
    ]
    broken = sum(o.broken for sec in (escaped, escaped_neg) for o in sec.shown + sec.stored)
    reached = sum(o.damaged for sec in (keyed, escaped) for o in sec.shown)
    print("\n== against the target figures (display boundary)")
    print(f"key-named clean recall      {figure(keyed.shown, 'clean')}  (>= 0.95)")
    print(f"storage key-named recall    {figure(keyed.stored, 'hit')}")
    print(f"negatives rewritten         {figure(judged, 'changed')}  (<= 0.02, docs apart)")
    print(f"escaped clean recall        {figure(escaped.shown, 'clean')}")
    print(f"escaped negatives rewritten {figure(escaped_neg.shown, 'changed')}")
    print(f"JSON/repr broken by either  {broken}  (0)")
    print(f"redactions past the value   {reached}  (0: no neighbouring line, quote or key)")
    print(f"stdlib lines per 10,000     {'-' if stdlib is None else f'{stdlib:.2f}'}  (<= 0.5)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=20260314)
    parser.add_argument("--per-generator", type=int, default=3)
    parser.add_argument("--per-syntax", type=int, default=12, help="key-named secrets per syntax")
    parser.add_argument("--per-escape", type=int, default=40, help="escaped secrets per kind")
    parser.add_argument("--stdlib-mb", type=float, default=8.0)
    parser.add_argument("--show", type=int, default=12, help="misses/false positives to show")
    parser.add_argument("--detect-secrets", help="path of a detect-secrets executable")
    parser.add_argument("--no-detect-secrets", action="store_true")
    parser.add_argument(
        "--sections",
        default=",".join(SECTIONS),
        help=f"comma-separated subset of {','.join(SECTIONS)} (default: all)",
    )
    args = parser.parse_args()
    sections = set(args.sections.split(","))
    if not sections <= set(SECTIONS):
        parser.error(f"--sections: unknown {', '.join(sorted(sections - set(SECTIONS)))}")

    ben = benign_samples(int(args.stdlib_mb * 1e6)) if sections & {"shapes", "stdlib"} else []
    tail_leaks = existing_corpus(args, ben) if "shapes" in sections else 0

    executable = None if args.no_detect_secrets else find_detect_secrets(args.detect_secrets)
    where = executable or "not installed (put it on PATH or set DETECT_SECRETS)"
    print(f"\ndetect-secrets: {where}")

    keyed = keyed_section(args, executable) if "keyed" in sections else EMPTY
    negatives = negatives_section(args, executable) if "negatives" in sections else EMPTY
    escaped, escaped_neg = (
        escaped_section(args, executable) if "escaped" in sections else (EMPTY, EMPTY)
    )
    if "vendor" in sections:
        vendor_section(args, executable)
    stdlib = None
    if "stdlib" in sections:
        print()
        stdlib = stdlib_rate([text for source, text in ben if source == "stdlib"])
    summary(keyed, negatives, escaped, escaped_neg, stdlib)
    return 1 if tail_leaks else 0


if __name__ == "__main__":
    sys.exit(main())
