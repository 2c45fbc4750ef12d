"""The key-name layer of agentops.secret_redaction: a value assigned to a credential-named key.

A broad corpus built here: credential key names in many spellings, crossed with the syntaxes
people paste (dotenv, shell, YAML, JSON, TOML/INI, source code, CLI flags, HTTP headers,
connection strings, .netrc, .pgpass, .npmrc...) and with values of several kinds; and
negatives that only name a secret (placeholders, references, templates, annotations,
comparisons, mentions). Values are generated at run time from a seeded generator, so no file
holds a live-looking string.
"""

from __future__ import annotations

import json
import random
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentops.secret_redaction import find_secret_shapes, redact_secret_shapes, scrub_for_storage

KEYS_UPPER = [
    "PASSWORD",
    "DB_PASSWORD",
    "MYSQL_ROOT_PASSWORD",
    "SMTP_PASS",
    "REDIS_PASSWD",
    "DB_PWD",
    "APP_SECRET",
    "CLIENT_SECRET",
    "JWT_SECRET",
    "API_KEY",
    "OPENAI_API_KEY",
    "SECRET_KEY",
    "AWS_SECRET_ACCESS_KEY",
    "PRIVATE_KEY",
    "SIGNING_KEY",
    "ENCRYPTION_KEY",
    "ACCESS_TOKEN",
    "AUTH_TOKEN",
    "REFRESH_TOKEN",
    "GITHUB_TOKEN",
    "WEBHOOK_SECRET",
    "SECRET_KEY_BASE",
    "CREDENTIALS",
    "MASTER_KEY",
]
KEYS_LOWER = [
    "password",
    "passwd",
    "pwd",
    "secret",
    "client_secret",
    "api_key",
    "apikey",
    "api-key",
    "access_token",
    "auth_token",
    "refresh_token",
    "private_key",
    "secret_key",
    "webhook_secret",
    "db_password",
    "smtp_pass",
    "token",
    "passphrase",
]
KEYS_CAMEL = [
    "password",
    "apiKey",
    "secretKey",
    "stripeSecretKey",
    "clientSecret",
    "accessToken",
    "authToken",
    "dbPassword",
    "adminPassword",
    "privateKey",
    "refreshToken",
    "signingKey",
]


def _value(rnd: random.Random, kind: str) -> str:
    if kind == "alnum":
        return "".join(rnd.choice(string.ascii_letters + string.digits) for _ in range(24))
    if kind == "hex":
        return "".join(rnd.choice("0123456789abcdef") for _ in range(32))
    if kind == "b64":
        body = "".join(rnd.choice(string.ascii_letters + string.digits + "+/") for _ in range(30))
        return body + "=="
    if kind == "words":
        words = ["river", "copper", "lantern", "violet", "orbit", "maple", "quartz"]
        return "-".join(rnd.sample(words, 3)) + str(rnd.randint(10, 99))
    if kind == "punct":
        pool = string.ascii_letters + string.digits + "!@#%^*_+-"
        return "".join(rnd.choice(pool) for _ in range(14)) + "9a"
    return "".join(rnd.choice(string.ascii_letters + string.digits) for _ in range(9)) + "7"


VALUE_KINDS = ("alnum", "hex", "b64", "words", "punct", "short")

# Each template: (syntax, key family, text with {k} and {v}).
TEMPLATES = [
    ("dotenv", "upper", "{k}={v}\n"),
    ("dotenv-quoted", "upper", 'APP=web\n{k}="{v}"\nPORT=80'),
    ("shell-export", "upper", "export {k}='{v}'"),
    ("shell-inline", "upper", "{k}={v} ./run.sh --fast"),
    ("dockerfile", "upper", "ENV {k}={v}"),
    ("dockerfile-space", "upper", "FROM x\nENV {k} {v}\n"),
    ("compose", "upper", "    environment:\n      - {k}={v}\n      - MODE=prod"),
    ("yaml", "lower", "db:\n  host: x\n  {k}: {v}\n  port: 5432"),
    ("yaml-quoted", "lower", "{k}: '{v}'"),
    ("yaml-inline", "lower", "creds: {{user: app, {k}: {v}}}"),
    ("k8s-stringData", "upper", "stringData:\n  {k}: {v}\n"),
    ("json", "lower", '{{\n  "{k}": "{v}",\n  "debug": false\n}}'),
    ("json-min", "camel", '{{"user":"a","{k}":"{v}"}}'),
    ("json-nested", "lower", '{{"svc": {{"auth": {{"{k}": "{v}"}}}}}}'),
    ("toml", "lower", '[server]\n{k} = "{v}"\n'),
    ("ini", "lower", "[db]\n{k} = {v}\nhost = x"),
    ("python", "lower", '{k} = "{v}"'),
    ("python-annotated", "lower", '{k}: str = "{v}"'),
    ("python-dict", "lower", "cfg = {{'{k}': '{v}', 'n': 1}}"),
    ("python-kwarg", "lower", 'connect(host="x", {k}="{v}")'),
    ("js-const", "camel", "const {k} = '{v}';"),
    ("js-object", "camel", "const cfg = {{ {k}: '{v}', retries: 3 }};"),
    ("ts-field", "camel", 'private readonly {k}: string = "{v}";'),
    ("go", "camel", '{k} := "{v}"'),
    ("go-struct", "camel", 'cfg := Config{{Host: "x", {k}: "{v}"}}'),
    ("ruby", "lower", "{k} = '{v}'"),
    ("ruby-hash", "lower", "opts = {{ {k}: '{v}' }}"),
    ("ruby-rocket", "lower", "opts = {{ '{k}' => '{v}' }}"),
    ("java", "upper", 'private static final String {k} = "{v}";'),
    ("csharp", "camel", 'var {k} = "{v}";'),
    ("php", "lower", "${k} = '{v}';"),
    ("cli-eq", "lower", "./tool --{k}={v} --verbose"),
    ("cli-space", "lower", "./tool --{k} {v} --verbose"),
    ("query", "lower", "GET /cb?user=x&{k}={v}&next=/"),
    ("log", "lower", "2026-01-01 INFO login ok {k}={v} user=bob"),
    ("args-pair", "upper", 'os.environ.setdefault("{k}", "{v}")'),
]
FIXED = [
    ("header-bearer", 'headers = {{"Authorization": "Bearer {v}"}}'),
    ("header-x-api-key", "X-Api-Key: {v}"),
    ("header-dict", "{{'X-API-KEY': '{v}'}}"),
    ("curl-H", "curl -H 'X-Api-Key: {v}' https://api.example.com/v1"),
    ("curl-u", "curl -u deploy:{v} https://api.example.com"),
    ("mysql-p", "mysql -h db -u root -p'{v}' shop"),
    ("mysql-p-bare", "mysqldump -u root -p{v} shop > x.sql"),
    ("pgpass", "db.internal:5432:app:app_user:{v}\n"),
    ("netrc", "machine api.example.com\n  login bob\n  password {v}\n"),
    ("netrc-line", "machine h login u password {v}"),
    ("pypirc", "[pypi]\nusername = __token__\npassword = {v}\n"),
    ("npmrc", "//registry.npmjs.org/:_authToken={v}"),
    ("ado-net", "Server=db;Database=app;User Id=sa;Password={v};Encrypt=true"),
    ("jdbc", "jdbc:postgresql://db:5432/app?user=app&password={v}&ssl=true"),
    ("odbc", "DRIVER={{ODBC}};SERVER=db;UID=app;PWD={v};"),
    ("setx", 'setx APP_SECRET "{v}"'),
    ("pgpassword", "PGPASSWORD={v} psql -h db -U app"),
    ("powershell", '$env:DB_PASSWORD = "{v}"'),
]


def _key(family: str, rnd: random.Random) -> str:
    return rnd.choice({"upper": KEYS_UPPER, "lower": KEYS_LOWER, "camel": KEYS_CAMEL}[family])


def _positives() -> list[tuple[str, str, str]]:
    rnd = random.Random(1234)
    out = []
    for syntax, family, template in TEMPLATES:
        for kind in VALUE_KINDS:
            key = _key(family, rnd)
            if syntax == "php":
                key = key.replace("-", "_")
            value = _value(rnd, kind)
            if syntax in ("yaml-inline", "ruby-hash", "js-object", "cli-eq", "query", "log"):
                value = value.replace(",", "").replace("&", "")
            out.append((syntax, value, template.format(k=key, v=value)))
    for syntax, template in FIXED:
        for kind in VALUE_KINDS:
            value = _value(rnd, kind)
            if syntax in ("ado-net", "odbc", "jdbc", "curl-u", "pgpass"):
                value = value.replace(";", "").replace("&", "").replace(":", "")
            out.append((syntax, value, template.format(v=value)))
    return out


POSITIVES = _positives()


def _leaks(value: str, text: str) -> bool:
    """True when any 6-character piece of the value survives."""
    return any(value[i : i + 6] in text for i in range(len(value) - 5))


def test_key_named_recall_over_the_corpus() -> None:
    missed = [
        (syn, text)
        for syn, value, text in POSITIVES
        if _leaks(value, redact_secret_shapes(text).text)
    ]
    recall = 1 - len(missed) / len(POSITIVES)
    assert recall >= 0.97, (recall, missed[:10])


@pytest.mark.parametrize(("syntax", "value", "text"), POSITIVES[::7])
def test_key_named_sample(syntax: str, value: str, text: str) -> None:
    out = redact_secret_shapes(text).text
    assert not _leaks(value, out), (syntax, out)
    stored = scrub_for_storage(text, sidecar=True).text
    assert not _leaks(value, stored), (syntax, stored)


def test_storage_recall_over_the_corpus() -> None:
    missed = [t for _, v, t in POSITIVES if _leaks(v, scrub_for_storage(t, sidecar=True).text)]
    assert len(missed) / len(POSITIVES) <= 0.03, missed[:5]


PLACEHOLDERS = [
    "changeme",
    "<password>",
    "<your-api-key>",
    "YOUR_API_KEY",
    "your-token-here",
    "xxx",
    "xxxxxxxxxxxx",
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
    "[REDACTED]",
    "TODO",
    "placeholder",
    "sk-example-key",
]
REFERENCES = [
    "${DB_PASSWORD}",
    "$PASSWORD",
    "{{ .Values.password }}",
    "${{ secrets.API_TOKEN }}",
    "%(password)s",
    "{password}",
    "#{ENV['TOKEN']}",
    "%API_KEY%",
    "<%= ENV['SECRET'] %>",
    "${SECRET_KEY:?missing}",
]
NEGATIVE_TEMPLATES = [
    "{k}={v}",
    '{k}="{v}"',
    "export {k}='{v}'",
    "{k}: {v}",
    '"{k}": "{v}"',
    "{k} = '{v}'",
]
CODE_NEGATIVES = [
    'password = os.environ.get("DB_PASSWORD")',
    'api_key = os.environ["OPENAI_API_KEY"]',
    "password = request.form['password']",
    "token = get_token()",
    "self.password = password",
    "engine = create_engine(url, password=args.password)",
    "secret_key = settings.SECRET_KEY",
    'client_secret = config["oauth"]["client_secret"]',
    "password: str",
    "def login(user: str, password: str) -> bool:",
    "token: Optional[str] = None",
    "api_key: str | None = None",
    "const token = process.env.API_TOKEN;",
    "let apiKey = config.apiKey;",
    "if password == stored:",
    'if token != "":',
    'assert password == "hunter2xyz"',
    "PASSWORD_MIN_LENGTH = 12",
    "max_tokens = 4096",
    'api_key_header = "X-API-Key"',
    'TOKEN_TYPE = "Bearer"',
    "auth_type: password",
    "password_hash = hash_password(password)",
    "secretKeyRef:\n  name: db\n  key: password",
    "Enter your password: ",
    "The password must be at least 12 characters.",
    "Reset the token: see the docs.",
    "password:\n  - required\n  - min: 12",
    "token_url = 'https://auth.example.com/token'",
    "password_file = '/run/secrets/db'",
    "for token in tokens:",
    "keys = sorted(secret_keys)",
    "bypass = compute(x)",
    "PASSWORD_RESET_TIMEOUT = 3600",
    'password = getpass.getpass("Password: ")',
    "password = password.strip()",
    "token = token[7:]",
    "secret = base64.b64decode(secret)",
    'headers["Authorization"] = f"Bearer {token}"',
    "auth = (user, password)",
    "password = None",
    "password = ''",
    'placeholder="Password"',
    '<input type="password" name="password">',
    "docker login -u $USER -p $TOKEN",
    "curl -u $USER:$PASS https://x",
    "pass",
    "    pass\n",
    "key = 'name'",
]


def _negatives() -> list[str]:
    keys = ["PASSWORD", "db_password", "apiKey", "client_secret", "AUTH_TOKEN", "SECRET_KEY"]
    out = []
    for template in NEGATIVE_TEMPLATES:
        for value in PLACEHOLDERS + REFERENCES:
            for key in keys:
                out.append(template.format(k=key, v=value))
    return out + CODE_NEGATIVES


NEGATIVES = _negatives()


def test_negatives_false_positive_rate() -> None:
    changed = [t for t in NEGATIVES if redact_secret_shapes(t).text != t]
    assert len(changed) / len(NEGATIVES) <= 0.01, changed[:10]


@pytest.mark.parametrize("text", CODE_NEGATIVES)
def test_code_negative_unchanged(text: str) -> None:
    assert redact_secret_shapes(text) == (text, ())


def test_redaction_keeps_quotes_lines_and_neighbours() -> None:
    text = "a = 1\npassword = \"Xk29pq77Lm\"\ntoken: 'Q8wz41Kp0v'\nb = 2"  # agentops: allow-secret
    out = redact_secret_shapes(text)
    assert out.text == (
        "a = 1\npassword = \"[redacted:keyed-secret]\"\ntoken: '[redacted:keyed-secret]'\nb = 2"
    )
    assert out.shapes == ("keyed-secret", "keyed-secret")
    assert [f.shape for f in find_secret_shapes(text)] == ["keyed-secret", "keyed-secret"]


def test_json_output_still_parses() -> None:
    for _, _, text in POSITIVES:
        if text.startswith("{") and text.rstrip().endswith("}") and '"' in text:
            try:
                json.loads(text)
            except ValueError:
                continue
            json.loads(redact_secret_shapes(text).text)


def test_unterminated_quote_is_not_read_past_the_line() -> None:
    text = 'password = "Xk29pq77Lm\nnext = "other line"'
    assert redact_secret_shapes(text).text == text  # LIMIT: an open quote reads as no value


def test_limit_unquoted_value_with_spaces_is_cut() -> None:
    out = redact_secret_shapes("password: Xk29pq7 Lm88")  # agentops: allow-secret
    assert out.text == "password: [redacted:keyed-secret] Lm88"  # LIMIT: cut at a space


def test_limit_identifier_after_spaced_equals_reads_as_code() -> None:
    text = "password = hunterhunter"
    assert redact_secret_shapes(text).text == text  # LIMIT: looks like a variable


def test_limit_key_not_ending_in_credential_noun() -> None:
    text = "DB_PASS_PRIMARY=Xk29pq77Lm"
    assert redact_secret_shapes(text).text == text  # LIMIT: last word is not a noun


def test_limit_placeholder_looking_literal() -> None:
    assert redact_secret_shapes('password = "test"').shapes == ()  # LIMIT


@given(st.text(alphabet="passwordtokenkey_=: \"'\n$-{}()[]aZ09", max_size=60))
def test_never_raises_and_converges(text: str) -> None:
    once = redact_secret_shapes(text)
    assert redact_secret_shapes(once.text).text == once.text


@pytest.mark.parametrize(
    "text",
    [
        'password = "sunshine1"',  # LIMIT: a word and a digit reads as an example password
        "DB_PASSWORD=correct-horse-battery",  # LIMIT: lowercase words read as a resource name
        'password = "coyote"',  # LIMIT: one dictionary-looking word
        "password: |\n  Xk29pq77Lm\n",  # LIMIT: a YAML block scalar's value is on later lines
        'password = "$2b$12$abcdefghijk"',  # LIMIT: a value starting with $ reads as a reference
    ],
)
def test_limit_values_that_read_as_not_secret(text: str) -> None:
    assert redact_secret_shapes(text) == (text, ())


def test_neighbouring_pairs_are_never_swallowed() -> None:
    assert redact_secret_shapes("stripe_secret_key= attempt=1").shapes == ()
    assert redact_secret_shapes("./sync --redis-password= --dry-run").shapes == ()
    line = "level=info api_key=Xk29pq77Lm user=bob"  # agentops: allow-secret
    assert redact_secret_shapes(line).text == "level=info api_key=[redacted:keyed-secret] user=bob"


@pytest.mark.parametrize(
    "unit",
    ['password="\\" ', "password=", "password=a", "password: ", "--password ", "<password>"],
)
def test_adversarial_key_chains_finish(unit: str) -> None:
    # A generous adversarial bound, not a speed figure (benchmarks/redact_speed.py is):
    # 200,000 characters of repeated keys once took minutes at the storage boundary.
    import time

    text = (unit * (200_000 // len(unit) + 1))[:200_000]
    started = time.process_time()
    redact_secret_shapes(text)
    scrub_for_storage(text, sidecar=True)
    assert time.process_time() - started < 5.0
