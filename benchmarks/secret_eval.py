"""Recall, false-positive rate and tail leaks of agentops.secret_redaction on a labelled corpus.

Run from the project root with nothing installed:  python benchmarks/secret_eval.py

POSITIVES are fake credentials written at run time, one generator per vendor family of the
shape table, each following the format the vendor documents (prefix, alphabet, length,
separators). Bodies come from a seeded random generator and are assembled by
concatenation, so no file in the repository holds a string that looks like a live token.
Each secret is planted in realistic surroundings: JSON, .env, YAML, shell, URL query,
log line, stack trace and markdown.

BENIGN text is the developer text a display boundary must leave byte-identical:
`benchmarks/secret_eval/benign.txt` (git SHAs, UUIDs, long paths and URLs, lockfile SRI,
wheel RECORD and pip hashes, go.sum lines, checksum listings, container digests, long
identifiers, SSH public keys, certificates, PGP signatures, numbers, data: URIs, diff
anchors, placeholder credentials) plus 2,000-character chunks of the Python standard
library's sources.

Measures, for the display boundary (`redact_secret_shapes`):
  recall          planted secrets whose value no longer appears in the output, and whose
                  shape is one of the shapes reported;
  false positives benign samples that do not come back byte-identical;
  tail leaks      secrets whose start was redacted but whose last 6 characters survive
                  (must be 0);
and, for the storage boundary (`scrub_for_storage`), recall and the share of benign samples
it rewrites (expected to be high: storage scrubbing is aggressive by design).
Cases that fall under a documented limit (base64 inside a URL query) are counted apart.
"""

from __future__ import annotations

import base64
import os
import random
import string
import sys
from collections import Counter
from collections.abc import Callable

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


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=20260314)
    parser.add_argument("--per-generator", type=int, default=3)
    parser.add_argument("--stdlib-mb", type=float, default=8.0)
    parser.add_argument("--show", type=int, default=5, help="misses/false positives to show")
    args = parser.parse_args()

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

    ben = benign_samples(int(args.stdlib_mb * 1e6))
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
    for rate, family in weak:
        print(f"  family below 100%: {family} {rate:.3f}")
    for line in misses + fps:
        print(line)
    return 1 if tail_leaks else 0


if __name__ == "__main__":
    sys.exit(main())
