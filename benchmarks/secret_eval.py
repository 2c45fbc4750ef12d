"""Recall, false-positive rate and tail leaks of agentops.secret_redaction on labelled corpora.

Run from the project root with nothing installed:  python benchmarks/secret_eval.py
(`--help` lists the sizes; the whole run takes seconds).

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
   api_key, DB_PASSWORD, stripeSecretKey, X-Api-Key...) in some 65 syntaxes people paste:
   dotenv and shell, YAML (block, inline, docker-compose, Kubernetes `stringData:`/`data:`),
   JSON (pretty, minified, nested, docker config.json), TOML/INI, .pypirc, .npmrc, .netrc,
   .pgpass, source code in eight languages, CLI flags, curl, HTTP headers and cookies, and
   ADO.NET/JDBC/ODBC connection strings. Values come from a seeded generator in seven kinds
   (random, hex, base64, word-like passphrase, punctuated, short, long), so no file holds a
   live-looking string.

3. NEGATIVES that must come back byte-identical at display: every placeholder (changeme,
   <password>, YOUR_API_KEY, ****, empty, null...) and reference (${DB_PASSWORD},
   {{ .Values.password }}, %(password)s...) put into each syntax's templates, and the
   hand-written samples of `benchmarks/secret_eval/keyed_negatives.txt` (code references,
   annotations and signatures, comparisons, mentions such as PASSWORD_MIN_LENGTH = 12, prose).

4. ESCAPED FORMS. Key-named samples inside a JSON-lines transcript string, encoded as
   Python, PHP (`\\/`), .NET/Go (`\\u0022`, `\\u002b`) and nested transcripts write them;
   percent-encoded URLs and form bodies; lines wrapped with a backslash. A redacted JSON line
   must still parse ("JSON broken" counts those that do not). Negatives are wrapped the same
   way and must stay byte-identical.

5. VENDOR CATALOG: `vendor_cases()` of benchmarks/catalog_eval.py, when that file exists.

For sections 2 to 5, per group and overall, for display (`redact_secret_shapes`) and storage
(`scrub_for_storage(text, sidecar=True)`): recall (every form of the value is gone, also
from the decoded JSON), clean recall (and no 6-character piece of the value survives), and
the share of negatives rewritten. Last, redacted lines per 10,000 lines of the stdlib chunks.

detect-secrets, when found (--detect-secrets PATH, $DETECT_SECRETS, PATH, or a virtual
environment `venvs/detect-secrets` beside the checkout or a parent of it), scans the same
samples written to a temporary directory with their usual file extensions, as a subprocess
(never imported, never a dependency). "any" counts samples with any finding; "exact" those
with a finding whose hash is the secret's; on negatives, any finding is a false positive.
A missed sample is printed with its secret replaced by <SECRET>; no value is ever printed.
"""

from __future__ import annotations

import argparse
import base64
import difflib
import hashlib
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
# Each syntax is a handful of templates written the way config files, shell history and
# source code are written in practice. `{K}` is a credential key name drawn from KEY_NAMES in
# the syntax's naming style, `{U}` a user name, `{V}` the value. A template may carry an
# encoding ("basic": base64 of user:value, as in HTTP Basic and docker config.json;
# "b64": base64 of the value, as in Kubernetes `data:`), and then the secret to find is the
# encoded string. Values come from a seeded generator at run time, in seven kinds (random,
# hex, base64, word-like passphrase, punctuated, short, long) restricted to the characters
# the syntax can hold unescaped, so the value appears verbatim in the planted text.
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
VALUE_KINDS = ("random", "hex", "base64", "passphrase", "punctuated", "short", "long")

# Characters a syntax cannot hold unescaped (beyond the globally excluded ones).
SHELL_BARE = "\"' \\!#^&*()[]|;?~,`="  # an unquoted shell word
IN_DQ = '"\\'  # inside double quotes (JSON, most code)
IN_SQ = "'\\"  # inside single quotes
YAML_PLAIN = "\"' #:,[]&*!|?~^@`"  # a plain YAML scalar, also valid in flow style
CONN = "\"' ;=&?#/:@\\"  # a connection-string or URL-query field


class Syntax(NamedTuple):
    name: str
    ext: str  # file extension the sample is written with for detect-secrets
    styles: tuple[str, ...]  # naming styles for {K}
    forbid: str
    templates: tuple[str | tuple[str, str], ...]  # text, or (encoding, text)


def _s(name: str, ext: str, styles: str, forbid: str, *templates: str | tuple[str, str]) -> Syntax:
    return Syntax(name, ext, tuple(styles.split()), forbid, templates)


SYNTAXES: tuple[Syntax, ...] = (
    # --- dotenv, shell, container files -------------------------------------------------
    _s(
        "dotenv",
        "env",
        "upper",
        SHELL_BARE,
        "# production\nNODE_ENV=production\n{K}={V}\nPORT=8080\n",
        "{K}={V}\n",
        "APP_NAME=billing\nAPP_URL=https://billing.example.com\n{K}={V}\n",
    ),
    _s(
        "dotenv-quoted",
        "env",
        "upper",
        IN_DQ + IN_SQ + "`",
        'APP_NAME=billing\n{K}="{V}"\nLOG_LEVEL=info\n',
        "{K}='{V}'\n",
    ),
    _s(
        "shell-export",
        "sh",
        "upper",
        IN_SQ,
        "export {K}='{V}'\n",
        "$ export {K}='{V}'\n$ ./deploy.sh --env prod\n",
        '#!/bin/sh\nset -eu\nexport {K}="{V}"\nexec gunicorn app:app\n',
    ),
    _s(
        "shell-export-bare",
        "sh",
        "upper",
        SHELL_BARE,
        "export {K}={V}\n",
        "$ export {K}={V} && make deploy\n",
    ),
    _s(
        "shell-inline-env",
        "sh",
        "upper",
        SHELL_BARE,
        "PGPASSWORD={V} psql -h db.internal -U {U} app\n",
        "MYSQL_PWD={V} mysqldump -u root shop > shop.sql\n",
        "$ AWS_SECRET_ACCESS_KEY={V} aws s3 ls s3://acme-logs\n",
        "GITHUB_TOKEN={V} gh release create v1.2.0\n",
        "{K}={V} npm run deploy\n",
        "env {K}={V} ./run-migrations\n",
    ),
    _s(
        "powershell",
        "ps1",
        "upper",
        IN_DQ + "`",
        '$env:{K} = "{V}"\n',
        '[Environment]::SetEnvironmentVariable("{K}", "{V}", "User")\n',
        "PS C:\\app> $env:{K}='{V}'\n",
    ),
    _s(
        "cmd-set",
        "bat",
        "upper",
        SHELL_BARE,
        "set {K}={V}\n",
        'C:\\> setx {K} "{V}"\n',
    ),
    _s(
        "dockerfile",
        "Dockerfile",
        "upper",
        SHELL_BARE,
        "FROM python:3.12-slim\nENV {K}={V}\nRUN pip install -r requirements.txt\n",
        "ARG {K}={V}\n",
        "ENV {K} {V}\n",
    ),
    # --- YAML -------------------------------------------------------------------------------
    _s(
        "yaml-block",
        "yaml",
        "snake camel",
        YAML_PLAIN,
        "database:\n  host: db.internal\n  port: 5432\n  {K}: {V}\n",
        "{K}: {V}\n",
        "smtp:\n  user: {U}\n  {K}: {V}\n  tls: true\n",
    ),
    _s(
        "yaml-quoted",
        "yaml",
        "snake camel",
        IN_DQ + IN_SQ,
        'app:\n  {K}: "{V}"\n  debug: false\n',
        "  {K}: '{V}'\n",
    ),
    _s(
        "yaml-inline",
        "yaml",
        "snake camel",
        YAML_PLAIN + "{}",
        "credentials: {user: {U}, {K}: {V}}\n",
        'auth: { {K}: "{V}" }\n',
    ),
    _s(
        "compose-env-list",
        "yml",
        "upper",
        SHELL_BARE,
        "services:\n  db:\n    image: postgres:16\n    environment:\n"
        "      - POSTGRES_USER={U}\n      - POSTGRES_PASSWORD={V}\n",
        "    environment:\n      - NODE_ENV=production\n      - {K}={V}\n",
    ),
    _s(
        "compose-env-map",
        "yml",
        "upper",
        YAML_PLAIN,
        "services:\n  mysql:\n    image: mysql:8\n    environment:\n"
        "      MYSQL_ROOT_PASSWORD: {V}\n      MYSQL_DATABASE: shop\n",
        '    environment:\n      {K}: "{V}"\n',
    ),
    _s(
        "k8s-stringData",
        "yaml",
        "snake kebab upper",
        YAML_PLAIN,
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app-secrets\ntype: Opaque\n"
        "stringData:\n  {K}: {V}\n",
        "stringData:\n  username: {U}\n  {K}: {V}\n",
    ),
    _s(
        "k8s-data",
        "yaml",
        "snake kebab upper",
        "",
        (
            "b64",
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\ntype: Opaque\n"
            "data:\n  {K}: {V}\n",
        ),
        ("b64", "data:\n  username: YWRtaW4=\n  {K}: {V}\n"),
    ),
    _s(
        "helm-values",
        "yaml",
        "camel",
        YAML_PLAIN,
        "postgresql:\n  auth:\n    username: {U}\n    {K}: {V}\n",
        "global:\n  {K}: {V}\n",
    ),
    # --- JSON -------------------------------------------------------------------------------
    _s(
        "json-pretty",
        "json",
        "snake camel",
        IN_DQ,
        '{\n  "name": "billing",\n  "database": {\n    "host": "db.internal",\n'
        '    "{K}": "{V}"\n  }\n}\n',
        '{\n  "{K}": "{V}",\n  "timeout": 30\n}\n',
    ),
    _s(
        "json-minified",
        "json",
        "snake camel",
        IN_DQ,
        '{"name":"billing","{K}":"{V}","retries":3}',
        '{"{K}":"{V}"}',
    ),
    _s(
        "json-nested",
        "json",
        "snake camel",
        IN_DQ,
        '{"spring":{"datasource":{"url":"jdbc:postgresql://db/app","username":"{U}","{K}":"{V}"}}}',
        '{"services": [{"name": "payments", "credentials": {"{K}": "{V}"}}]}',
    ),
    _s(
        "json-name-value",
        "json",
        "upper",
        IN_DQ,
        '{"containerDefinitions": [{"environment": [{"name": "{K}", "value": "{V}"}]}]}',
        '"env": [\n  {\n    "name": "{K}",\n    "value": "{V}"\n  }\n]\n',
    ),
    _s(
        "docker-config",
        "json",
        "snake",
        IN_DQ,
        (
            "basic",
            '{\n  "auths": {\n    "registry.example.com": {\n      "auth": "{V}"\n    }\n  }\n}\n',
        ),
        ("basic", '{"auths":{"https://index.docker.io/v1/":{"auth":"{V}"}}}'),
        '{"auths": {"ghcr.io": {"identitytoken": "{V}"}}}',
    ),
    _s(
        "appsettings-json",
        "json",
        "pascal",
        IN_DQ + CONN,
        '{\n  "ConnectionStrings": {\n    "Default": "Server=sql.internal;Database=app;'
        'User Id={U};Password={V};"\n  }\n}\n',
        '{\n  "AzureAd": {\n    "ClientId": "app",\n    "ClientSecret": "{V}"\n  }\n}\n',
        '{"Jwt": {"Issuer": "api", "SigningKey": "{V}"}}',
    ),
    # --- TOML, INI and friends ---------------------------------------------------------------
    _s(
        "toml",
        "toml",
        "snake",
        IN_DQ + IN_SQ,
        '[database]\nhost = "db.internal"\n{K} = "{V}"\n',
        "{K} = '{V}'\n",
        '[tool.poetry.http-basic.private]\nusername = "{U}"\npassword = "{V}"\n',
    ),
    _s(
        "ini",
        "ini",
        "snake",
        SHELL_BARE,
        "[database]\nhost = db.internal\n{K} = {V}\n",
        "[auth]\n{K}={V}\n",
    ),
    _s(
        "java-properties",
        "properties",
        "camel",
        SHELL_BARE,
        "spring.datasource.username={U}\nspring.datasource.password={V}\n",
        "app.{K}={V}\n",
        "mail.smtp.password = {V}\n",
    ),
    _s(
        "pypirc",
        "pypirc",
        "snake",
        SHELL_BARE,
        "[distutils]\nindex-servers =\n    pypi\n\n[pypi]\nusername = {U}\npassword = {V}\n",
        "[testpypi]\nrepository = https://test.pypi.org/legacy/\nusername = {U}\npassword = {V}\n",
    ),
    _s(
        "npmrc",
        "npmrc",
        "snake",
        SHELL_BARE,
        "//registry.npmjs.org/:_authToken={V}\n",
        "registry=https://npm.pkg.github.com/\n//npm.pkg.github.com/:_authToken={V}\n"
        "always-auth=true\n",
        ("basic", "_auth={V}\nemail=ci@example.com\n"),
        ("b64", "//registry.example.com/:username={U}\n//registry.example.com/:_password={V}\n"),
    ),
    _s(
        "netrc",
        "netrc",
        "snake",
        SHELL_BARE,
        "machine api.github.com\n  login {U}\n  password {V}\n",
        "machine ftp.example.com login {U} password {V}\n",
    ),
    _s(
        "pgpass",
        "pgpass",
        "snake",
        CONN,
        "db.internal:5432:app:{U}:{V}\n",
        "*:*:*:{U}:{V}\n",
        "localhost:5432:*:postgres:{V}\n",
    ),
    _s(
        "my-cnf",
        "cnf",
        "snake",
        SHELL_BARE,
        "[client]\nuser={U}\npassword={V}\nhost=db.internal\n",
        "[mysqldump]\nuser=root\npassword={V}\n",
    ),
    _s(
        "hcl",
        "tf",
        "snake",
        IN_DQ,
        'resource "aws_db_instance" "main" {\n  username = "{U}"\n  {K} = "{V}"\n}\n',
        'provider "acme" {\n  {K} = "{V}"\n}\n',
    ),
    _s(
        "xml",
        "xml",
        "camel",
        IN_DQ + IN_SQ + "&",
        "<server>\n  <id>releases</id>\n  <username>{U}</username>\n"
        "  <password>{V}</password>\n</server>\n",
        '<packageSourceCredentials>\n  <feed>\n    <add key="Username" value="{U}" />\n'
        '    <add key="ClearTextPassword" value="{V}" />\n  </feed>\n</packageSourceCredentials>\n',
        "<{K}>{V}</{K}>\n",
    ),
    # --- source code ------------------------------------------------------------------------
    _s(
        "python-assign",
        "py",
        "upper snake",
        IN_DQ + IN_SQ,
        '{K} = "{V}"\n',
        "import os\n\n{K} = '{V}'\nDEBUG = False\n",
    ),
    _s(
        "python-annotated",
        "py",
        "snake",
        IN_DQ,
        '{K}: str = "{V}"\n',
        'class Settings(BaseSettings):\n    {K}: str = "{V}"\n    debug: bool = False\n',
    ),
    _s(
        "python-dict",
        "py",
        "snake",
        IN_DQ + IN_SQ,
        'config = {\n    "host": "db.internal",\n    "{K}": "{V}",\n}\n',
        "DATABASES = {'default': {'ENGINE': 'django.db.backends.postgresql', "
        "'USER': '{U}', 'PASSWORD': '{V}'}}\n",
    ),
    _s(
        "python-kwarg",
        "py",
        "snake",
        IN_DQ,
        'conn = psycopg2.connect(host="db.internal", user="{U}", password="{V}")\n',
        'client = OpenAI(api_key="{V}")\n',
        's3 = boto3.client("s3", aws_access_key_id=key_id, aws_secret_access_key="{V}")\n',
        'session = Client(base_url=URL, {K}="{V}")\n',
    ),
    _s(
        "js-const",
        "js",
        "camel upper",
        IN_DQ + IN_SQ + "`",
        "const {K} = '{V}';\n",
        'let {K} = "{V}";\n',
        "var {K} = `{V}`;\n",
    ),
    _s(
        "js-object",
        "js",
        "camel",
        IN_DQ + IN_SQ,
        "const config = {\n  {K}: '{V}',\n  region: 'us-east-1',\n};\n",
        'module.exports = { {K}: "{V}" };\n',
        "const client = createClient({ url: process.env.URL, {K}: '{V}' });\n",
    ),
    _s(
        "ts-annotated",
        "ts",
        "camel",
        IN_DQ + IN_SQ,
        "const {K}: string = '{V}';\n",
        'export class ApiClient {\n  private readonly {K} = "{V}";\n}\n',
        "export const config: Config = {\n  {K}: '{V}',\n};\n",
    ),
    _s(
        "go",
        "go",
        "camel pascal",
        IN_DQ + "`",
        '{K} := "{V}"\n',
        'const {K} = "{V}"\n',
        'var {K} = "{V}"\n',
    ),
    _s(
        "go-struct",
        "go",
        "pascal",
        IN_DQ + "`",
        'cfg := Config{\n\tHost: "db.internal",\n\t{K}: "{V}",\n}\n',
        'client := api.NewClient(api.Options{{K}: "{V}"})\n',
    ),
    _s(
        "ruby",
        "rb",
        "snake",
        IN_DQ + IN_SQ + "#",
        "{K} = '{V}'\n",
        'config.{K} = "{V}"\n',
        "Stripe.api_key = '{V}'\n",
    ),
    _s(
        "ruby-hash",
        "rb",
        "snake",
        IN_DQ + IN_SQ + "#",
        "client = Api::Client.new({K}: '{V}')\n",
        'settings = { :{K} => "{V}", :timeout => 5 }\n',
    ),
    _s(
        "java",
        "java",
        "upper camel",
        IN_DQ,
        'private static final String {K} = "{V}";\n',
        'String {K} = "{V}";\n',
    ),
    _s(
        "java-setter",
        "java",
        "pascal",
        IN_DQ,
        'dataSource.setPassword("{V}");\n',
        'props.put("mail.smtp.password", "{V}");\n',
        'config.set{K}("{V}");\n',
        'System.setProperty("javax.net.ssl.keyStorePassword", "{V}");\n',
    ),
    _s(
        "csharp",
        "cs",
        "camel pascal",
        IN_DQ,
        'var {K} = "{V}";\n',
        'private const string {K} = "{V}";\n',
        'public string {K} { get; set; } = "{V}";\n',
    ),
    _s(
        "php",
        "php",
        "snake",
        IN_SQ + '"',
        "$password = '{V}';\n",
        "return [\n    'host' => 'db.internal',\n    '{K}' => '{V}',\n];\n",
        "define('DB_PASSWORD', '{V}');\n",
    ),
    _s(
        "rust",
        "rs",
        "snake",
        IN_DQ,
        'let {K} = "{V}";\n',
        'const API_KEY: &str = "{V}";\n',
    ),
    _s(
        "sql",
        "sql",
        "snake",
        IN_SQ,
        "CREATE USER {U} WITH PASSWORD '{V}';\n",
        "ALTER USER {U} IDENTIFIED BY '{V}';\n",
        "ALTER ROLE {U} WITH LOGIN PASSWORD '{V}';\n",
    ),
    # --- command lines ----------------------------------------------------------------------
    _s(
        "cli-long-space",
        "sh",
        "kebab",
        SHELL_BARE,
        "docker login registry.example.com --username {U} --password {V}\n",
        "$ acme-cli deploy --{K} {V} --region eu-west-1\n",
        "mysqladmin --user=root --password {V} status\n",
    ),
    _s(
        "cli-long-eq",
        "sh",
        "kebab snake",
        SHELL_BARE,
        "./bin/sync --{K}={V} --dry-run\n",
        "terraform apply -var 'db_password={V}'\n",
        "helm install app ./chart --set auth.password={V}\n",
    ),
    _s(
        "cli-short-p",
        "sh",
        "snake",
        SHELL_BARE,
        "mysql -u root -p'{V}' shop\n",
        "mysql -uroot -p{V} -h db.internal\n",
        'mysqldump -u {U} -p"{V}" shop > dump.sql\n',
        "sshpass -p '{V}' ssh deploy@10.0.3.7\n",
        "docker login -u {U} -p {V} ghcr.io\n",
    ),
    _s(
        "curl-u",
        "sh",
        "snake",
        SHELL_BARE,
        "curl -u {U}:{V} https://api.example.com/v1/me\n",
        "curl --user '{U}:{V}' -X POST https://ci.example.com/job/build\n",
        "wget --http-user={U} --http-password={V} https://files.example.com/a.tgz\n",
    ),
    _s(
        "curl-H",
        "sh",
        "snake",
        SHELL_BARE,
        "curl -H 'Authorization: Bearer {V}' https://api.example.com/v1/items\n",
        'curl -s -H "X-Api-Key: {V}" https://api.example.com/v2/search?q=x\n',
        "curl --header 'Authorization: token {V}' https://api.github.com/user\n",
        "http GET api.example.com/v1/me Authorization:'Bearer {V}'\n",
    ),
    _s(
        "curl-data",
        "sh",
        "snake",
        SHELL_BARE,
        "curl -d 'client_id=app&client_secret={V}&grant_type=client_credentials' "
        "https://auth.example.com/oauth/token\n",
        'curl -X POST -d \'{"username": "{U}", "password": "{V}"}\' https://api.example.com/login\n',
    ),
    # --- HTTP ---------------------------------------------------------------------------------
    _s(
        "http-bearer",
        "http",
        "snake",
        SHELL_BARE,
        "GET /v1/items HTTP/1.1\nHost: api.example.com\nAuthorization: Bearer {V}\nAccept: */*\n",
        "authorization: bearer {V}\n",
    ),
    _s(
        "http-basic",
        "http",
        "snake",
        "",
        ("basic", "POST /upload HTTP/1.1\nHost: files.example.com\nAuthorization: Basic {V}\n"),
        ("basic", "> Authorization: Basic {V}\n"),
    ),
    _s(
        "http-token",
        "http",
        "snake",
        SHELL_BARE,
        "Authorization: Token {V}\n",
        "Authorization: token {V}\n",
        "Authorization: ApiKey {V}\n",
    ),
    _s(
        "http-api-key-header",
        "http",
        "header",
        SHELL_BARE,
        "GET /v2/search HTTP/1.1\nHost: api.example.com\n{K}: {V}\n",
        "api-key: {V}\n",
        "Ocp-Apim-Subscription-Key: {V}\n",
        "PRIVATE-TOKEN: {V}\n",
    ),
    _s(
        "cookie",
        "http",
        "snake",
        CONN + ",",
        "Cookie: sessionid={V}; csrftoken=abc123\n",
        "Cookie: theme=dark; _app_session={V}\n",
    ),
    _s(
        "set-cookie",
        "http",
        "snake",
        CONN + ",",
        "HTTP/1.1 200 OK\nSet-Cookie: session={V}; Path=/; HttpOnly; Secure\n",
        "set-cookie: auth_token={V}; Max-Age=3600; SameSite=Lax\n",
    ),
    _s(
        "header-dict",
        "py",
        "header",
        IN_DQ + IN_SQ,
        'headers = {"Authorization": "Bearer {V}"}\n',
        "fetch(url, { headers: { '{K}': '{V}' } });\n",
        'req.Header.Set("Authorization", "Bearer {V}")\n',
        'r = requests.get(url, headers={"{K}": "{V}", "Accept": "application/json"})\n',
    ),
    # --- connection strings and logs ------------------------------------------------------------
    _s(
        "adonet",
        "config",
        "pascal",
        CONN,
        "Server=tcp:acme.database.windows.net,1433;Initial Catalog=app;User ID={U};"
        "Password={V};Encrypt=True;\n",
        "Data Source=sql01;Initial Catalog=Shop;User Id={U};Pwd={V};\n",
    ),
    _s(
        "jdbc",
        "properties",
        "snake",
        CONN,
        "jdbc:postgresql://db.internal:5432/app?user={U}&password={V}&ssl=true\n",
        "jdbc:sqlserver://sql01:1433;databaseName=shop;user={U};password={V};\n",
        "url=jdbc:mysql://db:3306/shop?user=root&password={V}\n",
    ),
    _s(
        "odbc",
        "config",
        "snake",
        CONN + "{}",
        "Driver={ODBC Driver 18 for SQL Server};Server=sql01;Database=shop;Uid={U};Pwd={V};\n",
        "DSN=warehouse;UID={U};PWD={V}\n",
    ),
    _s(
        "log-kv",
        "log",
        "snake",
        SHELL_BARE,
        "2026-03-14T09:26:53Z DEBUG auth: login user={U} password={V} ok\n",
        'level=debug msg="connecting" {K}={V} attempt=1\n',
    ),
)


SYNTAX_NAMES = frozenset(syntax.name for syntax in SYNTAXES)


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
        seps = [c for c in "-_." if c not in forbid] or [""]
        sep = rnd.choice(seps)
        return sep.join(words) + sep + str(rnd.randint(10, 99))
    if kind == "long":
        return pick(rnd, URLSAFE, rnd.randint(64, 96))
    punct = [c for c in PUNCT if c not in forbid] or ["_"]
    size = rnd.randint(8, 10) if kind == "short" else rnd.randint(12, 24)
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
    json_wrapped: bool = False  # `text` is one JSON document that must still parse


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
            template = syntax.templates[i % len(syntax.templates)]
            encoding, body = template if isinstance(template, tuple) else ("", template)
            value = make_value(rnd, kinds[i % len(kinds)], syntax.forbid)
            user = rnd.choice(USERS)
            secret = _encode(encoding, user, value) if encoding else value
            text = _fill(body, _key_for(rnd, syntax), user, secret)
            cases.append(Case("keyed", syntax.name, text, (secret,), secret, syntax.ext))
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
        plain = [t for t in syntax.templates if isinstance(t, str)]
        if not plain:
            continue
        for category, values in (("placeholder", PLACEHOLDERS), ("reference", REFERENCES)):
            for value in values:
                if category == "reference" and any(c in syntax.forbid for c in value):
                    continue  # the syntax cannot hold this reference unescaped
                text = _fill(rnd.choice(plain), _key_for(rnd, syntax), rnd.choice(USERS), value)
                cases.append(Case(category, syntax.name, text, (), "", syntax.ext))
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


def _json_line(content: str, style: str) -> str:
    """A JSON-lines transcript record whose content string is `content`; "nested" is a
    transcript line quoted inside another transcript line."""
    if style == "nested":
        content = _json_line(content, "python")
        style = "python"
    inside = _json_escape(content, style)
    return '{"type": "tool_result", "tool_use_id": "toolu_01", "content": "' + inside + '"}'


def _json_forms(value: str, style: str) -> tuple[str, ...]:
    """How `value` reads inside a line `_json_line(..., style)` wrote."""
    if style == "nested":
        inside = _json_escape(_json_escape(value, "python"), "python")
    else:
        inside = _json_escape(value, style)
    return (inside,) if inside == value else (inside, value)


def escaped_cases(seed: int, per_kind: int) -> list[Case]:
    """Key-named secrets inside JSON-lines strings, percent-encoded URLs and wrapped lines."""
    rnd = random.Random(seed)
    source = keyed_positives(seed + 1, 2)
    cases = []
    for style in ("python", "slash", "unicode", "nested"):
        for case in rnd.sample(source, per_kind):
            forms = _json_forms(case.value, style)
            line = _json_line(case.text, style)
            cases.append(Case("escaped", f"jsonl-{style}", line, forms, case.value, "jsonl", True))
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
    pool = keyed_negatives_generated(seed) + keyed_negatives_written()
    cases = []
    for i, case in enumerate(rnd.sample(pool, min(count, len(pool)))):
        style = ("python", "slash", "unicode", "nested")[i % 4]
        line = _json_line(case.text, style)
        cases.append(Case("escaped", f"jsonl-{style}", line, (), "", "jsonl", True))
    return cases


def vendor_cases_or_none() -> tuple[list[Case], str]:
    """Cases from benchmarks/catalog_eval.py when it exists, else none and the reason."""
    if not os.path.exists(
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "catalog_eval.py")
    ):
        return [], "benchmarks/catalog_eval.py absent: vendor section skipped"
    try:
        from catalog_eval import vendor_cases  # type: ignore[import-not-found]

        raw = vendor_cases()
    except Exception as error:
        return [], f"catalog_eval.vendor_cases() failed ({type(error).__name__}): skipped"
    cases = [Case("vendor", rule, text, (value,), value, "txt") for rule, text, value in raw]
    return cases, f"{len(cases)} cases from catalog_eval.vendor_cases()"


# ---------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------


def grams(value: str, size: int = 6) -> set[str]:
    if len(value) <= size:
        return {value}
    return {value[i : i + size] for i in range(len(value) - size + 1)}


class Outcome(NamedTuple):
    hit: bool  # every form of the secret is gone
    clean: bool  # ... and no 6-character piece of it survives
    changed: bool  # the output differs from the input
    broken: bool  # a JSON document no longer parses


def _decoded(out: str) -> str:
    """The content string of a transcript line (unwrapping a nested one); ValueError when
    either level no longer parses."""
    value = json.loads(out)["content"]
    if value.startswith('{"type": "tool_result"'):
        value = json.loads(value)["content"]
    return str(value)


def judge(case: Case, out: str) -> Outcome:
    """Score one output against its case; JSON cases are also judged on their decoded text."""
    views = [out]
    broken = False
    if case.json_wrapped:
        try:
            views.append(_decoded(out))
        except (ValueError, KeyError, TypeError, AttributeError):
            broken = True
    if not case.forms:
        return Outcome(False, False, out != case.text, broken)
    hit = not any(form in view for form in (*case.forms, case.value) for view in views)
    context = case.text
    for form in case.forms:
        context = context.replace(form, "")
    pieces = set().union(*(grams(f) for f in (*case.forms, case.value)))
    pieces = {p for p in pieces if p not in context}
    clean = hit and not any(p in view for p in pieces for view in views)
    return Outcome(hit, clean, out != case.text, broken)


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


def tally(outcomes: list[Outcome]) -> Tally:
    return Tally(
        len(outcomes),
        sum(o.hit for o in outcomes),
        sum(o.clean for o in outcomes),
        sum(o.changed for o in outcomes),
        sum(o.broken for o in outcomes),
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
) -> None:
    """Per group and overall: display and storage recall and clean recall, and the peer's."""
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
        broken = d.broken + s.broken
        return line + (f"  JSON broken: display {d.broken}, storage {s.broken}" if broken else "")

    for name, outcomes in rows:
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
    groups["OVERALL"] = list(range(len(cases)))
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


def show_redacted_negatives(cases: list[Case], outcomes: list[Outcome], limit: int) -> None:
    flagged = [c for c, o in zip(cases, outcomes, strict=True) if o.changed]
    for case in flagged[:limit]:
        shapes = redact_secret_shapes(case.text).shapes
        print(f"  redacted {case.section}/{case.group} {shapes}: {case.text.strip()[:150]!r}")
    if len(flagged) > limit:
        print(f"  ... and {len(flagged) - limit} more (--show to see more)")


def stdlib_rate(chunks: list[str]) -> None:
    lines = sum(chunk.count("\n") for chunk in chunks)
    for name, redactor in (("display", display), ("storage", storage)):
        touched = sum(changed_lines(chunk, redactor(chunk)) for chunk in chunks)
        print(
            f"stdlib {name:8} {touched} redacted lines in {lines} = "
            f"{touched * 10_000 / lines:.2f} per 10,000 lines"
        )


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
    args = parser.parse_args()

    ben = benign_samples(int(args.stdlib_mb * 1e6))
    tail_leaks = existing_corpus(args, ben)

    executable = None if args.no_detect_secrets else find_detect_secrets(args.detect_secrets)
    print(
        "\ndetect-secrets: "
        + (executable or "not installed (put it on PATH or set DETECT_SECRETS)")
    )

    def peer(cases: list[Case]) -> list[tuple[bool, bool]] | None:
        return detect_secrets_flags(executable, cases) if executable else None

    keyed = keyed_positives(args.seed, args.per_syntax)
    escaped = escaped_cases(args.seed, args.per_escape)
    vendor, vendor_note = vendor_cases_or_none()
    negatives = keyed_negatives_generated(args.seed) + keyed_negatives_written()
    escaped_neg = escaped_negatives(args.seed, 200)
    everything = keyed + escaped + vendor + negatives + escaped_neg
    shown_all = run_cases(everything, display)
    stored_all = run_cases(everything, storage)
    peer_all = peer(everything)
    at = 0

    def take(
        cases: list[Case],
    ) -> tuple[list[Outcome], list[Outcome], list[tuple[bool, bool]] | None]:
        nonlocal at
        part = slice(at, at + len(cases))
        at += len(cases)
        return shown_all[part], stored_all[part], (peer_all[part] if peer_all else None)

    parts = {
        name: take(cases)
        for name, cases in (
            ("keyed", keyed),
            ("escaped", escaped),
            ("vendor", vendor),
            ("negatives", negatives),
            ("escaped_neg", escaped_neg),
        )
    }

    positives_table("key-named secrets", keyed, *parts["keyed"])
    show_misses(keyed, parts["keyed"][0], args.show)
    negatives_table("key-named negatives", negatives, *parts["negatives"], key=lambda c: c.section)
    generated = [i for i, c in enumerate(negatives) if c.group in SYNTAX_NAMES]
    flagged = Counter(negatives[i].group for i in generated if parts["negatives"][0][i].changed)
    print(
        "  syntaxes whose generated negatives display redacts: "
        + (", ".join(f"{name} {count}" for name, count in flagged.most_common()) or "none")
    )
    show_redacted_negatives(negatives, parts["negatives"][0], args.show)
    positives_table("escaped secrets", escaped, *parts["escaped"])
    show_misses(escaped, parts["escaped"][0], args.show)
    negatives_table(
        "escaped negatives (JSON lines)", escaped_neg, *parts["escaped_neg"], key=lambda c: c.group
    )
    show_redacted_negatives(escaped_neg, parts["escaped_neg"][0], args.show)
    print(f"\nvendor cases: {vendor_note}")
    if vendor:
        positives_table("vendor formats", vendor, *parts["vendor"])
        show_misses(vendor, parts["vendor"][0], args.show)
    print()
    stdlib_rate([text for source, text in ben if source == "stdlib"])
    return 1 if tail_leaks else 0


if __name__ == "__main__":
    sys.exit(main())
