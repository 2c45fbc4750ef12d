"""Vendor token records of agentops.secret_redaction: each format is found in the contexts
people paste it in, near misses and placeholders stay byte-identical, and a record costs
nothing on text that holds none of its literals.

Samples are built at run time from each vendor's documented format (prefix, alphabet,
length) with a seeded random generator, so no line of this file holds a live-looking token.
"""

from __future__ import annotations

import random
import re
import string
import sys
import time

import pytest
from support import ROOT

import agentops.secret_redaction as sr
from agentops.secret_redaction import find_secret_shapes, redact_secret_shapes

ALPHABETS = {
    "AN": string.ascii_letters + string.digits,
    "LAN": string.ascii_lowercase + string.digits,
    "UAN": string.ascii_uppercase + string.digits,
    "ALPHA": string.ascii_letters,
    "HEX": "0123456789abcdef",
    "MHEX": "0123456789abcdefABCDEF",
    "UHEX": "0123456789ABCDEF",
    "DIG": string.digits,
    "URL": string.ascii_letters + string.digits + "-_",
    "EQURL": string.ascii_letters + string.digits + "=_-",
    "B64": string.ascii_letters + string.digits + "+/",
    "B32": string.ascii_lowercase + "234567",
}
_HOLE = re.compile(r"\{([A-Z][A-Z0-9]*) (\d+)\}")


def render(spec: str, seed: int) -> str:
    """The spec with each {ALPHABET n} hole filled by n random characters that mix classes
    (a real token holds a digit and, when its alphabet has them, both cases)."""
    rnd = random.Random(seed)

    def fill(match: re.Match[str]) -> str:
        chars, size = ALPHABETS[match.group(1)], int(match.group(2))
        out = [rnd.choice(chars) for _ in range(size)]
        for cls in (string.digits, string.ascii_lowercase, string.ascii_uppercase):
            pool = [c for c in cls if c in chars]
            if pool and size >= 6:
                out[rnd.randrange(size)] = rnd.choice(pool)
        return "".join(out)

    return _HOLE.sub(fill, spec)


def uuid(seed: int) -> str:
    digits = render("{HEX 32}", seed)
    return "-".join((digits[:8], digits[8:12], digits[12:16], digits[16:20], digits[20:]))


# shape -> token specs, from each vendor's documented format
TOKENS: dict[str, list[str]] = {
    "aws-key": ["A3T" + "{UAN 17}"],
    "stripe-key": ["sk_" + "prod_" + "{AN 24}", "rk_" + "prod_" + "{AN 40}"],
    "onepassword-secret-key": [
        "A3-" + "{UAN 6}-{UAN 6}-{UAN 5}-{UAN 5}-{UAN 5}-{UAN 5}",
        "A3-" + "{UAN 6}-{UAN 11}-{UAN 5}-{UAN 5}-{UAN 5}",
    ],
    "onepassword-service-token": ["ops_" + "eyJ{B64 260}"],
    "adobe-client-secret": ["p8e-" + "{AN 32}"],
    "alibaba-access-key": ["LTAI" + "{AN 20}", "LTAI" + "5t{AN 18}"],
    "artifactory-token": ["AKCp" + "{AN 69}", "cmVmd" + "{AN 59}"],
    "authress-key": ["sc_" + "{LAN 12}.{LAN 5}.acc_{LAN 20}.{B64 60}"],
    "defined-networking-key": ["dnkey-" + "{EQURL 26}-{EQURL 52}"],
    "doppler-token": ["dp.pt." + "{AN 43}", "dp.st." + "{AN 40}", "dp.scim." + "{AN 44}"],
    "duffel-token": ["duffel_test_" + "{AN 43}", "duffel_live_" + "{AN 43}"],
    "dynatrace-token": ["dt0c01." + "{UAN 24}.{AN 64}"],
    "easypost-key": ["EZAK" + "{AN 54}", "EZTK" + "{AN 54}"],
    "facebook-token": ["EAAM" + "{AN 120}", "EAAC" + "{AN 140}"],
    "flutterwave-key": [
        "FLWSECK_TEST-" + "{HEX 32}-X",
        "FLWPUBK-" + "{HEX 32}-X",
        "FLWSECK_TEST" + "-{HEX 12}",
    ],
    "flyio-token": ["fm2_" + "{B64 120}", "fo1_" + "{AN 43}"],
    "frameio-token": ["fio-u-" + "{AN 64}"],
    "terraform-token": ["{AN 14}.atlas" + "v1.{AN 67}"],
    "infracost-token": ["ico-" + "{AN 32}"],
    "intra42-secret": ["s-s4t2ud-" + "{HEX 64}", "s-s4t2af-" + "{HEX 64}"],
    "maxmind-key": ["{AN 6}_{AN 29}_" + "mmk"],
    "newrelic-key": ["NRAK-" + "{UAN 27}", "NRII-" + "{URL 32}", "NRJS-" + "{HEX 19}"],
    "notion-token": ["ntn_" + "{DIG 11}{AN 35}", "secret_" + "{AN 43}"],
    "octopus-key": ["API-" + "{UAN 26}"],
    "harness-token": ["pat." + "{URL 22}.{AN 24}.{AN 20}", "sat." + "{URL 22}.{AN 24}.{AN 20}"],
    "openshift-token": ["sha256" + "~{URL 43}"],
    "planetscale-token": ["pscale_tkn_" + "{URL 43}", "pscale_pw_" + "{URL 43}"],
    "prefect-token": ["pnu_" + "{AN 36}"],
    "pulumi-token": ["pul-" + "{HEX 40}"],
    "readme-key": ["rdme_" + "{LAN 70}"],
    "scalingo-token": ["tk-us-" + "{URL 48}"],
    "brevo-key": ["xkeysib-" + "{HEX 64}-{AN 16}", "xsmtpsib-" + "{HEX 64}-{AN 16}"],
    "shippo-token": ["shippo_live_" + "{HEX 40}", "shippo_test_" + "{HEX 40}"],
    "sourcegraph-token": [
        "sgp_" + "{MHEX 16}_{MHEX 40}",
        "sgp_local_" + "{MHEX 40}",
        "sgp_" + "{MHEX 40}",
    ],
    "square-token": ["EAAA" + "{AN 60}", "sq0atp-" + "{URL 22}", "sq0csp-" + "{URL 43}"],
    "typeform-token": ["tfp_" + "{AN 44}_{AN 14}"],
    "plaid-token": ["access-sandbox-" + "UUID", "access-production-" + "UUID"],
    "lob-key": ["live_" + "{HEX 35}", "test_" + "{HEX 35}", "test_pub_" + "{HEX 31}"],
    "mapbox-token": ["pk.eyJ" + "1Ijoi{AN 30}.{URL 22}", "sk.eyJ" + "1Ijoi{AN 40}.{URL 22}"],
    "sonarqube-token": ["squ_" + "{HEX 40}", "sqp_" + "{HEX 40}", "sqa_" + "{HEX 40}"],
    "langsmith-key": ["lsv2_pt_" + "{HEX 32}_{HEX 10}", "lsv2_sk_" + "{HEX 32}_{HEX 10}"],
    "supabase-token": ["sbp_" + "{HEX 40}"],
    "dockerhub-token": ["dckr_pat_" + "{URL 27}"],
    "replicate-token": ["r8_" + "{AN 37}"],
    "tailscale-key": ["tskey-" + "api-{AN 12}-{AN 30}", "tskey-" + "auth-{AN 12}-{AN 30}"],
    "netlify-token": ["nfp_" + "{AN 36}"],
    "buildkite-token": ["bkua_" + "{HEX 40}"],
    "contentful-token": ["CFPAT-" + "{AN 43}"],
    "nuget-api-key": ["oy2" + "{LAN 43}"],
    "dropbox-token": ["sl." + "{AN 140}", "sl.u." + "{AN 150}"],
    "mailchimp-key": ["{HEX 32}" + "-us{DIG 2}", "{HEX 32}" + "-us{DIG 1}"],
    "amazon-mws-token": ["amzn" + ".mws.UUID"],
    "circleci-token": ["CCIPAT_" + "{AN 22}_{HEX 40}"],
    "twitch-token": ["oauth:" + "{LAN 30}"],
    # formats GitHub secret scanning lists beyond the gitleaks catalog
    "atlassian-token": ["ATCTT3" + "xFfGN0{EQURL 170}=" + "{UHEX 8}"],
    "tencent-secret-id": ["AKID" + "{AN 32}"],
    "scaleway-key": ["SCW" + "{UAN 17}"],
    "woocommerce-key": ["ck_" + "{HEX 40}", "cs_" + "{HEX 40}"],
    "deno-token": ["ddp_" + "{AN 36}", "ddw_" + "{AN 36}"],
    "render-key": ["rnd_" + "{AN 32}"],
    "crates-token": ["cio" + "{AN 32}"],
    "mollie-key": ["live_" + "{AN 30}", "test_" + "{AN 30}"],
    "hubspot-token": ["pat-" + "na1-UUID", "pat-" + "eu1-UUID"],
    "axiom-token": ["xaat-" + "UUID", "xapt-" + "UUID"],
    "launchdarkly-key": ["api-" + "UUID", "sdk-" + "UUID"],
    "fcm-server-key": ["AAAA" + "{URL 7}:APA91b{URL 134}"],
    "google-refresh-token": ["1//0" + "{URL 99}"],
    "nvidia-key": ["nvapi-" + "{URL 64}"],
    "clickup-token": ["pk_" + "{DIG 8}_{UAN 32}"],
    # formats from other public scanners' catalogs (Nosey Parker, Kingfisher,
    # secrets-patterns-db) and the vendors' documentation
    "salesforce-token": ["00D" + "{AN 12}!{AN 40}.{AN 55}"],
    "arcjet-key": ["ajkey_" + "{LAN 26}"],
    "deepl-key": ["UUID" + ":fx"],
    "telnyx-key": ["KEY" + "{UHEX 32}_{AN 22}"],
}
TOKENS["newrelic-key"] += ["NRIQ-" + "{URL 32}", "NRRA-" + "{HEX 42}", "NRAA-" + "{HEX 27}"]
TOKENS["newrelic-key"].append("NRSP-" + "us01{HEX 31}")
TOKENS["supabase-token"].append("sb_secret_" + "{URL 31}")
TOKENS["dockerhub-token"].append("dckr_oat_" + "{URL 32}")
TOKENS["duffel-token"].append("duffel_live_" + "{EQURL 43}")
# URL-safe bodies: their `-` and `_` cut every base64 run, so the run gate must count them
TOKENS["duffel-token"].append("duffel_test_" + "{URL 43}")
TOKENS["frameio-token"].append("fio-u-" + "{URL 64}")
TOKENS["flyio-token"].append("fo1_" + "{URL 43}")
TOKENS["planetscale-token"].append("pscale_oauth_" + "{URL 43}")
TOKENS.update(
    {
        "figma-token": ["figd_" + "{URL 40}"],
        "mandrill-key": ["md-" + "{URL 22}"],
        "yandex-token": ["y0_" + "{URL 55}", "y3_" + "{URL 55}", "AQVN" + "{URL 36}"],
        "resend-key": ["re_" + "{AN 8}_{AN 24}"],
        "stytch-secret": ["secret-" + "live-{EQURL 36}", "secret-" + "test-{EQURL 36}"],
        "infisical-token": ["st." + "UUID.{HEX 32}.{HEX 32}"],
        "braintree-token": [
            "access_token$" + "production${LAN 16}${HEX 32}",
            "access_token$" + "sandbox${LAN 16}${HEX 32}",
        ],
        # formats of the Betterleaks catalog beyond gitleaks's, and the vendors' documentation
        "aikido-token": ["AIK_" + "CI_{AN 32}", "AIK_" + "SECRET_{AN 64}"],
        "azure-function-identifiable-key": ["{URL 44}" + "AzFu{URL 5}A=="],
        "brave-search-key": ["BSA" + "{URL 28}"],
        "canva-secret": ["cnvca" + "{URL 51}"],
        "configcat-key": ["configcat-sdk-1/" + "{URL 22}/{URL 22}"],
        "elastic-cloud-key": ["essu_" + "{URL 100}", "essu_" + "{URL 80}=="],
        "exoscale-key": ["EXO" + "{AN 24}"],
        "gemini-key": ["AQ.Ab8RN6" + "{URL 44}"],
        "mongodb-atlas-secret": ["mdb_sa_sk_" + "{URL 40}"],
        "posthog-personal-key": ["phx_" + "{URL 47}"],
        "vercel-token": ["vcp_" + "{URL 56}", "vck_" + "{URL 56}", "vcr_" + "{URL 56}"],
        "cerebras-key": ["csk-" + "{LAN 48}"],
        "devin-key": ["apk_" + "user_{B64 150}", "apk_" + "{B64 90}", "cog_" + "{B32 52}"],
        "wandb-key": ["wandb_v1_" + "{AN 77}"],
        "cockroachdb-key": ["CCDB1_" + "{AN 22}_{AN 40}"],
        "airtable-pat": ["pat" + "{AN 14}.{HEX 64}"],
        "bedrock-key": ["ABSK" + "{B64 130}"],
    }
)
TOKENS["flutterwave-key"].append("FLWSECK_TEST" + "{HEX 12}")
TOKENS["supabase-token"].append("sbp_" + "{LAN 40}")
TOKENS["nvidia-key"].append("nvapi-" + "{URL 62}")
TOKENS["figma-token"].append("figd_" + "{URL 38}")
TOKENS["xai-key"] = ["xai-" + "{URL 80}"]

# Contexts a token is pasted in; the token must not take any character of its neighbours.
CONTEXTS = (
    "{t}",
    "token {t} was rotated",
    "SERVICE_VALUE={t}",
    'export SERVICE_VALUE="{t}"',
    '{{"value": "{t}", "n": 1}}',
    "value: '{t}'\n",
    "2026-03-14T09:26:53Z INFO client started with {t}; retrying",
)


def token_of(spec: str, seed: int) -> str:
    return render(spec.replace("UUID", uuid(seed)), seed)


CASES = [
    (shape, index, context)
    for shape, specs in TOKENS.items()
    for index in range(len(specs))
    for context in CONTEXTS
]


@pytest.mark.parametrize(("shape", "index", "context"), CASES)
def test_token_is_redacted_in_context(shape: str, index: int, context: str) -> None:
    token = token_of(TOKENS[shape][index], seed=len(CASES) + index)
    text = context.format(t=token)
    got = redact_secret_shapes(text)
    assert got.text == text.replace(token, f"[redacted:{shape}]"), (shape, got)
    assert shape in got.shapes


@pytest.mark.parametrize("shape", sorted(TOKENS))
def test_many_seeds(shape: str) -> None:
    for seed in range(40):
        for spec in TOKENS[shape]:
            token = token_of(spec, seed)
            assert redact_secret_shapes(f"x {token} y").text == f"x [redacted:{shape}] y", token


def test_every_new_record_has_samples_here() -> None:
    names = [rule.name for rule in sr._VENDOR_RULES]
    vendor_from = names.index("onepassword-secret-key")
    keyed = {name for name in names if name.endswith("-keyed")}
    pinned = set(TOKENS) | set(KEYED_SAMPLES) | {"gitlab-session", "teams-webhook"}
    pinned |= {"nuget-config-password", "kubernetes-secret", "azure-function-key"}
    pinned |= {"zapier-webhook", "thingsboard-token", "openvpn-static-key"}
    pinned |= {"azure-appconfig-secret"}
    assert set(names[vendor_from:]) - keyed <= pinned
    assert keyed <= set(KEYED_SAMPLES)


# ------------------------------------------------------------------------------------------
# Records that need a syntax around the token
# ------------------------------------------------------------------------------------------


def test_gitlab_session_cookie_value_only() -> None:
    value = render("{LAN 32}", 3)
    text = "Cookie: _gitlab_session=" + value + "; path=/"
    assert redact_secret_shapes(text).text == (
        "Cookie: _gitlab_session=[redacted:gitlab-session]; path=/"
    )
    assert redact_secret_shapes("_gitlab_session=" + value + "x").shapes == ()


def test_teams_webhook_keeps_the_host() -> None:
    path = "webhookb2/" + uuid(1) + "@" + uuid(2) + "/IncomingWebhook/" + render("{AN 32}", 4)
    path += "/" + uuid(5)
    text = "curl -X POST https://contoso.webhook.office.com/" + path + " -d @msg.json"
    assert redact_secret_shapes(text).text == (
        "curl -X POST https://contoso.webhook.office.com/[redacted:teams-webhook] -d @msg.json"
    )


def test_azure_function_key_keeps_the_url() -> None:
    key = render("{URL 54}", 6) + "=="
    url = "https://contoso-fn.azurewebsites.net/api/HttpTrigger1?code="
    text = f"curl '{url}{key}&name=x'"
    assert redact_secret_shapes(text).text == f"curl '{url}[redacted:azure-function-key]&name=x'"
    other = "https://contoso-fn.azurewebsites.net/api/Fn?name=x&code="
    assert redact_secret_shapes(other + key).text == other + "[redacted:azure-function-key]"


def test_zapier_webhook_keeps_the_host() -> None:
    hook = "https://hooks.zapier.com/hooks/catch/"
    path = render("{DIG 8}/{LAN 7}", 7)
    text = f"ZAP_URL={hook}{path}/"
    assert redact_secret_shapes(text).text == f"ZAP_URL={hook}[redacted:zapier-webhook]/"


def test_nuget_config_password() -> None:
    secret = render("{AN 20}", 6)
    for key in ("ClearTextPassword", "Password"):
        line = '    <add key="' + key + '" value="' + secret + '" />'
        want = '    <add key="' + key + '" value="[redacted:nuget-config-password]" />'
        assert redact_secret_shapes(line).text == want
    for ref in ("%NUGET_PASSWORD%", "$env_password", "", "YOUR_API_KEY", "REPLACE_ME", "secret"):
        line = '<add key="ClearTextPassword" value="' + ref + '" />'
        assert redact_secret_shapes(line).shapes == ()
    assert redact_secret_shapes('<add key="Username" value="' + secret + '" />').shapes == ()


def test_kubernetes_secret_data_values() -> None:
    value = render("{B64 24}", 8) + "=="
    manifest = (
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\n"
        "data:\n  password: " + value + "\n  short: YmFyCg==\n"
    )
    got = redact_secret_shapes(manifest)
    assert "password: [redacted:kubernetes-secret]\n" in got.text
    assert "short: YmFyCg==" in got.text  # under 10 characters: left alone
    # block scalars and quotes
    for body in ("  .dockercfg: |\n    " + value, "  token: '" + value + "'"):
        text = "kind: Secret\ndata:\n" + body + "\n"
        assert value not in redact_secret_shapes(text).text


def test_kubernetes_string_data_and_words_untouched() -> None:
    # stringData: values are plain text (the key-name layer's business); a lowercase word
    # under data: is a placeholder, not base64 of a secret
    for body in ("stringData:\n  cookie_secret: placeholder", "data:\n  note: placeholders"):
        text = "apiVersion: v1\nkind: Secret\n" + body + "\n"
        assert redact_secret_shapes(text).shapes == ()


@pytest.mark.parametrize(
    "kind", ["SopsSecret", "ExternalSecret", "ConfigMap", "secretstore"], ids=str
)
def test_kubernetes_other_kinds_untouched(kind: str) -> None:
    # a neutral entry name: a credential-named one is the key-name layer's business
    text = "kind: " + kind + "\ndata:\n  note: " + render("{B64 24}", 9) + "\n"
    assert "kubernetes-secret" not in redact_secret_shapes(text).shapes


# ------------------------------------------------------------------------------------------
# Vendor-keyword records (a plain value identified by its vendor's word)
# ------------------------------------------------------------------------------------------

# record -> (the vendor's word, a value spec)
KEYED_SAMPLES: dict[str, tuple[str, str]] = {
    "adafruit-keyed": ("adafruit", "{URL 32}"),
    "adobe-keyed": ("adobe", "{HEX 32}"),
    "airtable-keyed": ("airtable", "{AN 17}"),
    "algolia-keyed": ("algolia", "{AN 32}"),
    "alibaba-keyed": ("alibaba", "{AN 30}"),
    "asana-keyed": ("asana", "{AN 32}"),
    "atlassian-keyed": ("jira", "{AN 24}"),
    "beamer-keyed": ("beamer", "b_{EQURL 44}"),
    "bitbucket-keyed": ("bitbucket", "{AN 32}"),
    "bittrex-keyed": ("bittrex", "{AN 32}"),
    "meraki-keyed": ("meraki", "{HEX 40}"),
    "cloudflare-keyed": ("cloudflare", "{URL 40}"),
    "codecov-keyed": ("codecov", "{AN 32}"),
    "cohere-keyed": ("cohere", "{AN 40}"),
    "coinbase-keyed": ("coinbase", "{URL 64}"),
    "confluent-keyed": ("confluent", "{AN 64}"),
    "contentful-keyed": ("contentful", "{EQURL 43}"),
    "datadog-keyed": ("datadog", "{AN 40}"),
    "discord-keyed": ("discord", "{HEX 64}"),
    "droneci-keyed": ("droneci", "{AN 32}"),
    "dropbox-keyed": ("dropbox", "{AN 15}"),
    "etsy-keyed": ("etsy", "{AN 24}"),
    "facebook-keyed": ("facebook", "{HEX 32}"),
    "fastly-keyed": ("fastly", "{EQURL 32}"),
    "finicity-keyed": ("finicity", "{HEX 32}"),
    "finnhub-keyed": ("finnhub", "{AN 20}"),
    "flickr-keyed": ("flickr", "{AN 32}"),
    "freshbooks-keyed": ("freshbooks", "{AN 64}"),
    "gitter-keyed": ("gitter", "{URL 40}"),
    "gocardless-keyed": ("gocardless", "live_{EQURL 40}"),
    "heroku-keyed": ("heroku", "UUID"),
    "hubspot-keyed": ("hubspot", "UUID"),
    "intercom-keyed": ("intercom", "{EQURL 60}"),
    "jfrog-keyed": ("artifactory", "{AN 73}"),
    "kraken-keyed": ("kraken", "{B64 84}"),
    "kucoin-keyed": ("kucoin", "UUID"),
    "launchdarkly-keyed": ("launchdarkly", "{EQURL 40}"),
    "linear-keyed": ("linear", "{HEX 32}"),
    "linkedin-keyed": ("linkedin", "{AN 16}"),
    "mailchimp-keyed": ("mailchimp", "{HEX 32}-us{DIG 2}"),
    "mailgun-keyed": ("mailgun", "pubkey-{HEX 32}"),
    "mapbox-keyed": ("mapbox", "pk.{AN 60}.{AN 22}"),
    "mattermost-keyed": ("mattermost", "{AN 26}"),
    "messagebird-keyed": ("messagebird", "UUID"),
    "netlify-keyed": ("netlify", "{EQURL 40}"),
    "newrelic-keyed": ("newrelic", "{AN 64}"),
    "nytimes-keyed": ("nytimes", "{EQURL 32}"),
    "okta-keyed": ("okta", "00{EQURL 40}"),
    "plaid-keyed": ("plaid", "{AN 30}"),
    "privateai-keyed": ("privateai", "{AN 32}"),
    "rapidapi-keyed": ("rapidapi", "{URL 50}"),
    "sendbird-keyed": ("sendbird", "UUID"),
    "sentry-keyed": ("sentry", "{HEX 64}"),
    "sidekiq-keyed": ("bundle_gems__contribsys__com", "{HEX 8}:{HEX 8}"),
    "snyk-keyed": ("snyk", "UUID"),
    "sonar-keyed": ("sonar", "{EQURL 40}"),
    "squarespace-keyed": ("squarespace", "UUID"),
    "sumologic-keyed": ("sumo", "{AN 64}"),
    "travis-keyed": ("travis", "{AN 22}"),
    "twitch-keyed": ("twitch", "{AN 30}"),
    "twitter-keyed": ("twitter", "A" * 22 + "{AN 90}"),
    "vault-keyed": ("vault", "s.{AN 24}"),
    "yandex-keyed": ("yandex", "YC{URL 38}"),  # AQVN keys have a record of their own
    "zendesk-keyed": ("zendesk", "{AN 40}"),
}
_B64_RUN = re.compile(r"[A-Za-z0-9+/]{32}")


def _word_before_an_assigned_run(word: str, text: str) -> bool:
    """The gate of a vendor word (`key_word`), written out: the word, in any case, within
    64 characters before a run of 24 base64 and base64url characters on its line that
    follows `=`, `:` or `>` (blanks, a quote, 12 characters of prefix between) and holds
    a digit."""
    for line in text.splitlines():
        for run in re.finditer(r"[A-Za-z0-9+/_-]{24,}", line):
            before = line[: run.start()]
            assigned = re.search(r"[=:>][ \t]*[\"'`]?[A-Za-z0-9._~+/-]{0,12}\Z", before[-20:])
            digit = re.search("[0-9]", run.group())
            if assigned and digit and word.lower() in before[-64:].lower():
                return True
    return False


def _keyed_forms(name: str) -> list[tuple[str, str]]:
    """(text, value) for the word in UPPER and lower case, in env, JSON and YAML syntax."""
    word, spec = KEYED_SAMPLES[name]
    value = token_of(spec, len(name))
    key = word.upper() if word.islower() else word
    # neutral key names: a credential-named key is the key-name layer's business
    return [
        (f"{key}={value}", value),
        (f'export {key}_ID="{value}"', value),
        (f'{{"{word.lower()}": "{value}", "n": 1}}', value),
        (f"{word.lower()}:\n  region: x\n{word.lower()}_value: '{value}'\n", value),
    ]


@pytest.mark.parametrize("name", sorted(KEYED_SAMPLES))
def test_keyed_value_beside_its_vendor_word(name: str) -> None:
    rule = sr._VENDOR_RULES[_index(name)]
    for text, value in _keyed_forms(name):
        # which spelling of the word the text holds, and whether that anchor is looked for
        # only on a line holding a 32-character base64 run (a documented limit for plain
        # values; an UPPER spelling that holds a prefilter stop is looked for everywhere)
        anchor = next(a for a in rule.anchors if a.literal in text)
        got = redact_secret_shapes(text)
        gated = anchor.key_word and anchor.literal not in sr._SHARED_STOP_LITERALS
        if gated and not _word_before_an_assigned_run(anchor.literal, text):
            assert name not in got.shapes, (text, got)
            continue
        assert value not in got.text, (text, got)
        assert name in got.shapes and f"[redacted:{name}]" in got.text, (text, got)


@pytest.mark.parametrize(
    "text",
    [
        "DATADOG_API_KEY=${DATADOG_API_KEY}",
        'datadog_api_key: "{{ .Values.datadog.apiKey }}"',
        "OKTA_TOKEN=00" + "x" * 40,  # no digit: a placeholder
        "Mailgun is a mail delivery service; see the mailgun docs.",
        "mailgun_domain: mg.example.com",
        "twitter_handle: example_account",
        "linear_regression_weights = model.coef_",
        "TRAVIS_BRANCH=main",
        "sentry_dsn_timeout: 30",
        "heroku_app: my-app-staging",
    ],
)
def test_keyed_near_misses_unchanged(text: str) -> None:
    assert redact_secret_shapes(text) == (text, ())


def test_keyed_value_never_swallows_the_key_or_quotes() -> None:
    value = "pubkey-" + token_of("{HEX 32}", 5)
    text = '{"mailgun": {"signing_key": "x"}, "MAILGUN_KEY": "' + value + '"}'
    out = redact_secret_shapes(text).text
    assert out == '{"mailgun": {"signing_key": "x"}, "MAILGUN_KEY": "[redacted:mailgun-keyed]"}'


# ------------------------------------------------------------------------------------------
# Near misses stay byte-identical
# ------------------------------------------------------------------------------------------

NEAR_MISSES = [
    # placeholders and documentation examples
    "AKIA" + "X" * 16,
    "A3-" + "XXXXXX-XXXXXXXXXXX-XXXXX-XXXXX-XXXXX",
    "A3-" + "xXXXXX-XXXXXX-XXXXX-XXXXX-XXXXX-XXXXX",
    "ops_eyJ" + "x" * 300,
    "AIza" + "a" * 35,
    "AIza" + "Sy" + string.ascii_lowercase + "1234567",
    "sgp_" + "0" * 16 + "_" + "0" * 40,
    "sgp_" + "x" * 16 + "_" + "x" * 40,
    "sgp_" + "5555555dAAAAA7777777CcccCFaaaaaaaaaaaaaa",
    "NRAK-" + "ABCDEFGHIJKLMNOPQRSTUVWXYZ1",
    "kind: Secret\nmetadata:\n  name: x\n",
]


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses_unchanged(text: str) -> None:
    assert redact_secret_shapes(text) == (text, ())


# One character short, the wrong alphabet or case, a prefix's look-alike: the vendor rule
# stays silent (a random body may still be long and random enough for a generic rule).
WRONG_SHAPE = [
    ("adobe-client-secret", "p8e-" + render("{AN 31}", 1)),
    ("dynatrace-token", "dt0c01." + render("{UAN 24}", 1) + "." + render("{AN 63}", 2)),
    ("pulumi-token", "pul-" + render("{HEX 39}", 1)),
    ("sourcegraph-token", "sgp_local_" + "d45b6G86aBb0F2Cee94" + "3902dbaDBCFCFDD1dA089"),
    ("scalingo-token", "tk-us-" + render("{URL 47}", 1)),
    ("flutterwave-key", "FLWSECK_TEST-" + render("{HEX 11}", 1)),
    ("alibaba-access-key", "ltai" + render("{AN 20}", 1)),
    ("plaid-token", "access-staging-" + uuid(3)),
    ("openshift-token", "sha256" + ":" + render("{URL 43}", 1)),
    ("lob-key", "test_" + render("{HEX 34}", 1)),
    ("prefect-token", "xpnu_" + render("{AN 36}", 1)),
    ("maxmind-key", render("{AN 6}_{AN 28}", 1) + "_mmk"),
    ("onepassword-secret-key", "A3-" + render("{UAN 6}-{UAN 6}-{UAN 5}-{UAN 5}-{UAN 5}", 1)),
    ("mailchimp-key", render("{HEX 31}", 1) + "-us12"),
    ("mailchimp-key", render("{HEX 32}", 1) + "-usa"),
    ("amazon-mws-token", "amzn" + ".mws." + uuid(4)[:-1]),
    ("circleci-token", "CCIPAT_" + render("{AN 22}_{HEX 39}", 1)),
    ("twitch-token", "oauth:" + render("{LAN 29}", 1)),
    ("twitch-token", "oauth:" + "authorizationcodegrantflowfor"),
    ("tencent-secret-id", "AKID" + render("{AN 31}", 1)),
    ("scaleway-key", "SCW" + render("{LAN 17}", 1)),
    ("woocommerce-key", "ck_" + render("{AN 40}", 1)),
    ("deno-token", "ddx_" + render("{AN 36}", 1)),
    ("crates-token", "cio" + "abcdefghijklmnopqrstuvwxyzABCDEF"),
    ("mollie-key", "live_" + render("{AN 31}", 1)),
    ("hubspot-token", "pat-" + "na9-" + uuid(1)),
    ("launchdarkly-key", "api-" + uuid(1)[:-1]),
    ("fcm-server-key", "AAAA" + render("{URL 7}:APA91c{URL 134}", 1)),
    ("google-refresh-token", "1//0" + render("{URL 20}", 1)),
    ("nvidia-key", "nvapi-" + render("{URL 59}", 1)),
    ("clickup-token", "pk_" + render("{DIG 8}_{LAN 32}", 1)),
    ("azure-function-key", "https://x.azurewebsites.net/api/Fn?code=" + "short"),
    ("zapier-webhook", "https://hooks.zapier.com/hooks/" + "catch/"),
    ("mandrill-key", "md-" + "autocomplete-suggest"),  # an Angular Material class
    ("mandrill-key", "md-" + render("{URL 21}", 1)),
    ("resend-key", "re_" + "compile_patterns_with_flags_set"),  # snake_case, not a key
    ("resend-key", "re_" + render("{AN 8}_{AN 23}", 1)),
    ("yandex-token", "y4_" + render("{URL 55}", 1)),
    ("infisical-token", "st." + uuid(2) + "." + render("{HEX 32}", 1)),
    ("braintree-token", "access_token$" + "staging$" + render("{LAN 16}${HEX 32}", 1)),
    ("stytch-secret", "secret-" + "live-" + render("{URL 35}", 1)),
    ("brave-search-key", "BSA" + "FunctionalityTestsForTheWeb"),  # a name: no digit
    ("exoscale-key", "EXO" + "PLANETARYSYSTEMS20240101X"),  # upper case only
    ("cerebras-key", "csk-" + "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuv"),  # no digit
    ("vercel-token", "vcx_" + render("{URL 56}", 1)),
    (
        "azure-function-identifiable-key",
        render("{URL 44}", 1) + "AzFu" + render("{URL 5}", 2) + "B==",
    ),
]


@pytest.mark.parametrize(("shape", "text"), WRONG_SHAPE)
def test_wrong_shape_is_not_this_vendor(shape: str, text: str) -> None:
    assert shape not in redact_secret_shapes(text).shapes


# ------------------------------------------------------------------------------------------
# Cost: a record runs only where its literal is; its expressions stay linear
# ------------------------------------------------------------------------------------------


def test_every_vendor_record_has_a_literal() -> None:
    for rule in sr._VENDOR_RULES:
        # Discord's token has no literal: its cheap finder runs beside a run of 24 alone
        assert rule.anchors or rule.probes or rule.gate == "wide-run", rule.name
        assert all(len(anchor.literal) >= 2 for anchor in rule.anchors), rule.name


def test_text_without_literals_runs_no_vendor_rule() -> None:
    benign = (ROOT / "agentops" / "secret_redaction.py").read_text(encoding="utf-8")[:20000]
    vendor = {rule.name for rule in sr._VENDOR_RULES}
    for at in range(0, len(benign), 2000):
        chunk = benign[at : at + 2000]
        rules, _ = sr._active_rules(chunk)
        for rule in rules:
            if rule.name in vendor:
                literals = [a.literal for a in sr._VENDOR_RULES[_index(rule.name)].anchors]
                assert any(lit in chunk for lit in literals), rule.name


def _index(name: str) -> int:
    return [rule.name for rule in sr._VENDOR_RULES].index(name)


def test_a_vendor_word_is_looked_for_before_an_assigned_run() -> None:
    # a 24-character Atlassian value is a run of 24: its word, just before it, is found
    value = token_of("{AN 24}", 3)
    run = token_of("{AN 40}", 4)
    alone = f"atlassian_org_id={value}"  # a neutral key: the key-name layer stays out

    def found(text: str, name: str = "atlassian-keyed") -> bool:
        return name in redact_secret_shapes(text).shapes

    assert found(alone) and value not in redact_secret_shapes(alone).text
    assert found(f'{{"Atlassian": "{value}"}}')  # in any letter case
    # a 14-character Sumo Logic id (`su` and 12) is not one (the documented limit): its
    # word is looked for only before another run that is assigned and holds a digit, close
    # on its line
    short = f"sumo_id=su{token_of('{AN 12}', 5)}"
    assert not found(short, "sumologic-keyed")
    assert found(f"{short} cache={run}", "sumologic-keyed")
    assert not found(f"{short} cache {run}", "sumologic-keyed")  # not assigned
    assert not found(f"{short} cache={'ab' * 20}", "sumologic-keyed")  # no digit
    assert not found(f"{short}\ncache={run}", "sumologic-keyed")  # another line
    assert not found(f"{short} {'x' * 64} cache={run}", "sumologic-keyed")  # too far
    # windows are cut by byte offsets: characters before the run that take two or more
    # bytes in UTF-8 do not shift them
    assert found("caf\u00e9 \u2603 " + f"{short} cache={run}", "sumologic-keyed")
    assert found(f"\u00e9\n\u2603{short} cache={run}\n\u00e9", "sumologic-keyed")
    # a window's first byte inside a character of two or more bytes: never an error
    for pad in range(3):
        assert found("\u2603" * 30 + "x" * pad + f"{short} cache={run}", "sumologic-keyed")
    # an UPPER spelling that holds a character the prefilter stops at anyway is found
    # everywhere (TRAVIS beside 22 characters, no run of 24); SUMO holds none: gated too
    assert "TRAVIS" in sr._SHARED_STOP_LITERALS and "SUMO" not in sr._SHARED_STOP_LITERALS
    assert found("TRAVIS_ID=" + token_of("{AN 22}", 6), "travis-keyed")
    assert not found(short.upper().replace("SU", "su", 1), "sumologic-keyed")
    # a prefix whose body is base64url is looked for beside a run of letters, digits, `-`
    # and `_`, which its body is: a Fly.io token whose body `-` breaks into pieces of 10 is
    # found alone; one whose body `.` breaks (the limit's other example) passes alone and
    # is found beside a run
    fly = "fo1_" + "-".join(token_of("{AN 10}", seed) for seed in range(4))
    assert len(fly) == 4 + 43 and "flyio-token" in redact_secret_shapes(fly).shapes
    oauth = "pscale_oauth_" + ".".join(token_of("{AN 10}", seed) for seed in range(4))
    assert "planetscale-token" not in redact_secret_shapes(oauth).shapes
    assert "planetscale-token" in redact_secret_shapes(f"{oauth} cache {run}").shapes


def test_b64_gated_records_keep_their_promise() -> None:
    # a literal looked for only beside a 32-character base64 (or base64url) run: every
    # sample holds one (a literal holding a character the prefilter stops at anyway is
    # looked for everywhere)
    b64, url = re.compile(r"[A-Za-z0-9+/]{32}"), re.compile(r"[A-Za-z0-9_-]{32}")
    wide = re.compile(r"[A-Za-z0-9+/_-]{24}")
    for shape, specs in TOKENS.items():
        rule = sr._VENDOR_RULES[_index(shape)]
        gated = {a.literal for a in rule.anchors if a.b64_run} - sr._SHARED_STOP_LITERALS
        url_gated = {a.literal for a in rule.anchors if a.url_run}
        for spec in specs:
            token = token_of(spec, 11)
            if any(lit in token for lit in gated):
                assert b64.search(token), (shape, token)
            if any(lit in token for lit in url_gated):
                assert url.search(token), (shape, token)
            if any(a.wide_run for a in rule.anchors):
                assert wide.search(token), (shape, token)


def test_a_dropbox_body_that_padding_cuts_short_passes() -> None:
    # the documented limit of its `wide_run` literal: `=` every 20 characters leaves no run
    # of 24, and the record's own expression then refuses the body too
    body = "=".join(token_of("{AN 20}", seed) for seed in range(7))
    assert "dropbox-token" not in redact_secret_shapes("sl." + body).shapes
    assert "dropbox-token" in redact_secret_shapes("sl." + body.replace("=", "a", 1)).shapes


@pytest.mark.parametrize("shape", sorted(TOKENS))
def test_adversarial_repetition_is_linear(shape: str) -> None:
    # the literal repeated, and the literal followed by a long body that never ends well:
    # generous bound, stated as such (the benchmark measures speed)
    rule = sr._VENDOR_RULES[_index(shape)]
    literal = rule.anchors[0].literal if rule.anchors else rule.probes[0][0]
    for text in (literal * 20000, literal + "a" * 200000 + "!", (literal + "a1-") * 10000):
        start = time.process_time()
        find_secret_shapes(text)
        assert time.process_time() - start < 2.0, shape


# ------------------------------------------------------------------------------------------
# The public catalog's figures, measured by benchmarks/catalog_eval.py
# ------------------------------------------------------------------------------------------


def _catalog():  # type: ignore[no-untyped-def]
    if not (ROOT / "benchmarks" / "catalog_eval.py").exists():  # a copy without benchmarks
        pytest.skip("benchmarks/catalog_eval.py is not in this copy of the project")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import catalog_eval  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    return catalog_eval


def test_catalog_figures() -> None:
    catalog = _catalog()
    hits: dict[str, list[bool]] = {}
    for case in catalog.cases():
        out = redact_secret_shapes(case.text).text
        hits.setdefault(case.kind, []).append(not catalog.survives(case.pieces, out))
    prefixed = hits["prefixed"]
    assert sum(prefixed) / len(prefixed) >= 0.95
    tps, fps = catalog.gitleaks_vectors()
    found = [redact_secret_shapes(text).text != text for _, text in tps]
    redacted = [redact_secret_shapes(text).text != text for _, text in fps]
    assert sum(found) / len(found) >= 0.95
    # the figure: near-miss false positives redacted <= 20%
    assert sum(redacted) / len(redacted) <= 0.20


def test_vendor_cases_api() -> None:
    cases = _catalog().vendor_cases()
    assert len(cases) > 300
    for rule, text, secret in cases:
        assert isinstance(rule, str) and secret and secret in text


def test_thingsboard_device_token_in_its_url() -> None:
    token = render("{LAN 20}", 3)
    for path in ("telemetry", "attributes", "rpc"):
        text = f"curl -X POST https://tb.example.test/api/v1/{token}/{path} -d '{{}}'"
        out = redact_secret_shapes(text)
        assert out.text == text.replace(token, "[redacted:thingsboard-token]"), out
    for text in (
        f"https://tb.example.test/api/v1/{token}/devices",  # not a device API path
        "https://tb.example.test/api/v1/$ACCESS_TOKEN/telemetry",
        "https://tb.example.test/api/v1/integrations/telemetry",
    ):
        assert redact_secret_shapes(text) == (text, ()), text


@pytest.mark.parametrize(
    "template",
    [
        "vault login {t}",
        "vault login -method=token token={t}",
        "$ vault login -no-print {t}",
    ],
)
def test_legacy_vault_token_given_to_vault_login(template: str) -> None:
    token = "s." + render("{AN 24}", 7)
    out = redact_secret_shapes(template.format(t=token))
    assert token[2:8] not in out.text and out.shapes == ("vault-keyed",), out


def test_vault_login_without_a_legacy_token_stays() -> None:
    for text in ("vault login -method=userpass username=ops", "vault login s.short"):
        assert redact_secret_shapes(text) == (text, ()), text


def test_salesforce_token_is_found_from_each_bang() -> None:
    token = render("00D{AN 12}!{AN 40}.{AN 55}", 11)
    for text in (f"sid={token}", f"a!b {token}!", f"{token[:16]}{token}"):
        out = redact_secret_shapes(text)
        assert token[20:30] not in out.text and "salesforce-token" in out.shapes, out
    for text in (
        "00Dabc!short",  # a body under 80 characters
        "x" * 15 + "!" + "A" * 100,  # no org id before the bang
        "100D" + "a" * 12 + "!" + "b1" * 50,  # the org id inside a longer word
    ):
        assert "salesforce-token" not in redact_secret_shapes(text).shapes, text
    for unit in ("00" + "a" * 13 + "!" + "a" * 100, "!" * 3, "00" + "a" * 13 + "!"):
        text = unit * (200_000 // len(unit))
        start = time.process_time()
        redact_secret_shapes(text)
        assert time.process_time() - start < 2.0, unit[:20]


def test_openvpn_static_key_block() -> None:
    body = "\n".join(render("{HEX 32}", seed) for seed in range(16))
    for begin, end in (("<tls-auth>\n", "\n</tls-auth>"), ("key-direction 1\n", "")):
        block = (
            f"-----BEGIN OpenVPN Static key V1-----\n{body}\n-----END OpenVPN Static key V1-----"
        )
        out = redact_secret_shapes(begin + block + end)
        assert out.text == begin + "[redacted:openvpn-static-key]" + end, out


def test_azure_app_configuration_secret_keeps_the_endpoint_and_id() -> None:
    secret = render("{B64 43}", 5) + "="
    text = "Endpoint=https://cfg-7.azconfig.io;Id=" + "Ab12-l0-s0:xYz" + ";Secret=" + secret
    got = redact_secret_shapes(text)
    assert got.text == text.replace(secret, "[redacted:azure-appconfig-secret]"), got
    assert redact_secret_shapes("Secret=" + secret).shapes != ("azure-appconfig-secret",)


def test_no_url_run_literal_holds_another() -> None:
    # the literals are found with one alternation, whose leftmost match would hide a
    # literal inside another
    literals = [lit for lit, _ in sr._URL_RUN_LITERALS]
    assert not [(a, b) for a in literals for b in literals if a != b and a in b]
