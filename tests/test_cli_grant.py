"""Tests for the grant commands (cli/grant.py), the store and audit log (cli/_grant_store.py),
the policy file (cli/_policy.py) and the PreToolUse hook (cli/pre_tool_use.py)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import stat
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from support import ROOT, run_cli

from agentops.capability_grant import (
    build_grant,
    command_hash,
    parse_grant,
    serialize_grant,
)
from agentops.cli import _common, _policy, main, pre_tool_use
from agentops.cli.grant import AuditFailed, GrantStore, StoreError

POLICY: dict[str, Any] = {
    "schema_version": 1,
    "deny": [
        {
            "id": "no-force-push",
            "pattern": r"git\s+push\b.*--force",
            "reason": "force-push is not allowed",
            "ignore_case": False,
        },
        {"id": "no-body", "pattern": r"(^|\s)--body(=|\s|$)"},
    ],
    "grant_classes": {
        "deploy": [r"^deploy(\s|$)"],
        "db-write": [r"^psql\b"],
        "both": [r"^psql-deploy\b"],
        "also": [r"^psql-deploy\b"],
    },
}
CMD = "deploy --env production"


class Env:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.policy = tmp / "policy.json"
        self.store = tmp / "store"
        self.audit = tmp / "audit.ndjson"
        self.write_policy(POLICY)

    def write_policy(self, doc: object) -> None:
        text = doc if isinstance(doc, str) else json.dumps(doc)
        self.policy.write_text(text, encoding="utf-8")

    def opts(self, audit: bool = True, policy: bool = True) -> list[str]:
        out = ["--policy", str(self.policy)] if policy else []
        out += ["--store", str(self.store)]
        return [*out, "--audit", str(self.audit)] if audit else out

    def live(self) -> list[str]:
        d = self.store / "live"
        return sorted(os.listdir(d)) if d.exists() else []

    def spent(self) -> list[str]:
        d = self.store / "spent"
        return sorted(os.listdir(d)) if d.exists() else []

    def audit_events(self) -> list[dict[str, Any]]:
        if not self.audit.exists():
            return []
        return [json.loads(line) for line in self.audit.read_text().splitlines()]


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Env:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CLAUDECODE", raising=False)
    monkeypatch.delenv("AGENTOPS_DISABLED", raising=False)
    return Env(tmp_path)


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def mint(
    env: Env,
    capsys: pytest.CaptureFixture[str],
    command: str = CMD,
    scope: str = "my-app",
    cls: str = "deploy",
    *extra: str,
) -> str:
    code, out, err = cli(
        capsys,
        "grant",
        "mint",
        "--command",
        command,
        "--scope",
        scope,
        "--class",
        cls,
        *extra,
        *env.opts(),
    )
    assert code == 0, err
    first = out.splitlines()[0]
    assert first.startswith("id:")
    return first.split()[1]


def grant_cmd(
    env: Env,
    capsys: pytest.CaptureFixture[str],
    action: str,
    command: str = CMD,
    scope: str = "my-app",
    cls: str = "deploy",
) -> tuple[int, str, str]:
    opts = env.opts(audit=action != "check")
    return cli(
        capsys, "grant", action, "--command", command, "--scope", scope, "--class", cls, *opts
    )


def hook_input(command: object = CMD, tool: object = "Bash", **extra: Any) -> str:
    doc: dict[str, Any] = {
        "session_id": "s",
        "transcript_path": "/t",
        "cwd": "/w",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_use_id": "toolu_1",
        "tool_input": {"command": command, "description": "d"},
    }
    doc.update(extra)
    return json.dumps(doc)


def hook(
    env: Env,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    data: str | bytes,
    scope: str = "my-app",
) -> tuple[int, str, str]:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    return cli(capsys, "hook", "pre-tool-use", "--scope", scope, *env.opts())


def decision(out: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(out)
    assert list(doc) == ["hookSpecificOutput"]
    inner: dict[str, Any] = doc["hookSpecificOutput"]
    assert set(inner) == {"hookEventName", "permissionDecision", "permissionDecisionReason"}
    assert inner["hookEventName"] == "PreToolUse"
    return inner


def write_grant(env: Env, **fields: Any) -> str:
    now = datetime.now(timezone.utc)
    g = build_grant(
        fields.pop("command", CMD),
        scope="my-app",
        action_class="deploy",
        grant_id=fields.pop("grant_id", "handmade1"),
        allowed_classes=["deploy"],
        now=fields.pop("now", now),
    )
    doc = dict(g._asdict(), **fields)
    (env.store / "live").mkdir(parents=True, exist_ok=True)
    (env.store / "spent").mkdir(parents=True, exist_ok=True)
    (env.store / "live" / f"{doc['id']}.json").write_text(json.dumps(doc, indent=2))
    return str(doc["id"])


# ---------------------------------------------------------------------------
# mint


def test_mint_prints_binding_and_writes_store(env: Env, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(
        capsys,
        "grant",
        "mint",
        "--command",
        "  " + CMD + "\n",
        "--scope",
        "my-app",
        "--class",
        "deploy",
        "--minted-by",
        "alice",
        *env.opts(),
    )
    assert code == 0 and err == ""
    lines = dict(line.split(":", 1) for line in out.splitlines())
    gid = lines["id"].strip()
    assert len(gid) == 32 and int(gid, 16) >= 0
    assert lines["command"].strip() == CMD
    assert lines["command_sha256"].strip() == command_hash(CMD)
    assert "expires_at" in lines
    assert env.live() == [f"{gid}.json"] and env.spent() == []
    path = env.store / "live" / f"{gid}.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    for d in (env.store, env.store / "live", env.store / "spent"):
        assert stat.S_IMODE(d.stat().st_mode) == 0o700
    g = parse_grant(path.read_bytes(), ["deploy"])
    assert g is not None and g.id == gid and g.minted_by == "alice"
    assert serialize_grant(g) == path.read_text()
    expires = datetime.fromisoformat(g.expires_at) - datetime.fromisoformat(g.minted_at)
    assert expires == timedelta(minutes=15)
    assert lines["expires_at"].strip() == g.expires_at
    events = env.audit_events()
    assert [e["event"] for e in events] == ["mint"] and events[0]["id"] == gid
    assert stat.S_IMODE(env.audit.stat().st_mode) == 0o600


def test_mint_ttl_minutes(env: Env, capsys: pytest.CaptureFixture[str]) -> None:
    for minutes in ("1", "1440"):
        gid = mint(env, capsys, CMD, "my-app", "deploy", "--ttl-minutes", minutes)
        g = parse_grant((env.store / "live" / f"{gid}.json").read_bytes(), ["deploy"])
        assert g is not None
        window = datetime.fromisoformat(g.expires_at) - datetime.fromisoformat(g.minted_at)
        assert window == timedelta(minutes=int(minutes))
    before = env.live()
    for bad in ("0", "1441", "-5", "x", "1.5", ""):
        code, _, err = cli(
            capsys,
            "grant",
            "mint",
            "--command",
            CMD,
            "--scope",
            "s",
            "--class",
            "deploy",
            "--ttl-minutes",
            bad,
            *env.opts(),
        )
        assert code == 2 and "ttl-minutes" in err
    assert env.live() == before


def test_mint_refuses_inside_claude_code(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for value in ("1", ""):
        monkeypatch.setenv("CLAUDECODE", value)
        code, out, err = cli(
            capsys,
            "grant",
            "mint",
            "--command",
            CMD,
            "--scope",
            "s",
            "--class",
            "deploy",
            *env.opts(),
        )
        assert code == 2 and out == "" and "CLAUDECODE" in err
        assert len(err.strip().splitlines()) == 1
    assert env.live() == [] and env.audit_events() == []


def test_mint_refusals(env: Env, capsys: pytest.CaptureFixture[str]) -> None:
    cases = [
        ("git-push", CMD, "s", "action_class"),
        ("deploy", "  ", "s", "command"),
        ("deploy", CMD, " ", "scope"),
        (" ", CMD, "s", "class"),
    ]
    for cls, command, scope, word in cases:
        code, out, err = cli(
            capsys,
            "grant",
            "mint",
            "--command",
            command,
            "--scope",
            scope,
            "--class",
            cls,
            *env.opts(),
        )
        assert code == 2 and out == "" and word in err, err
        assert len(err.strip().splitlines()) == 1
    assert env.live() == []


def test_mint_warns_when_hook_cannot_use_grant(
    env: Env, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = cli(
        capsys,
        "grant",
        "mint",
        "--command",
        "make deploy",
        "--scope",
        "s",
        "--class",
        "deploy",
        *env.opts(),
    )
    assert code == 0 and "only `grant consume`" in err


def test_mint_audit_failure_removes_grant(env: Env, capsys: pytest.CaptureFixture[str]) -> None:
    env.audit.mkdir()
    code, out, err = cli(
        capsys, "grant", "mint", "--command", CMD, "--scope", "s", "--class", "deploy", *env.opts()
    )
    assert code == 2 and out == "" and "audit" in err
    assert env.live() == []


def test_mint_default_paths_under_home(env: Env, capsys: pytest.CaptureFixture[str]) -> None:
    home = env.tmp / "home" / ".agentops"
    home.mkdir(parents=True)
    (home / "policy.json").write_text(json.dumps(POLICY))
    code, out, _ = cli(
        capsys, "grant", "mint", "--command", CMD, "--scope", "s", "--class", "deploy"
    )
    assert code == 0
    gid = out.split()[1]
    assert (home / "grants" / "live" / f"{gid}.json").exists()
    assert (home / "grants" / "audit.ndjson").exists()
    code, out, _ = cli(
        capsys, "grant", "consume", "--command", CMD, "--scope", "s", "--class", "deploy"
    )
    assert code == 0 and gid in out


# ---------------------------------------------------------------------------
# check / consume / revoke


def test_check_never_consumes_then_consume_once(
    env: Env, capsys: pytest.CaptureFixture[str]
) -> None:
    gid = mint(env, capsys)
    for _ in range(2):
        code, out, _ = grant_cmd(env, capsys, "check")
        assert code == 0 and gid in out
    code, out, _ = grant_cmd(env, capsys, "consume")
    assert code == 0 and out.strip() == f"consumed grant {gid}"
    assert env.live() == [] and env.spent() == [f"{gid}.json"]
    spent = parse_grant((env.store / "spent" / f"{gid}.json").read_bytes(), ["deploy"])
    assert spent is not None and spent.consumed_at is not None
    for action in ("consume", "check"):
        code, out, _ = grant_cmd(env, capsys, action)
        assert code == 3 and out.strip() == "no live matching grant"
    assert [e["event"] for e in env.audit_events()] == ["mint", "consume"]
    assert env.audit_events()[1]["note"] == "grant consume"


def test_positive_controls_refused(env: Env, capsys: pytest.CaptureFixture[str]) -> None:
    mint(env, capsys)
    for command, scope, cls in (
        (CMD + " ", "other-app", "deploy"),
        (CMD, "my-app", "db-write"),
        ("deploy  --env production", "my-app", "deploy"),
        ("deploy --env production\r", "my-app", "deploy"),
        (CMD + " && rm -rf /", "my-app", "deploy"),
    ):
        for action in ("check", "consume"):
            code, _, _ = grant_cmd(env, capsys, action, command, scope, cls)
            assert code == 3
    assert grant_cmd(env, capsys, "consume")[0] == 0  # the control: still consumable once


def test_expired_forged_and_replayed_files(env: Env, capsys: pytest.CaptureFixture[str]) -> None:
    old = datetime.now(timezone.utc) - timedelta(hours=1)
    write_grant(env, grant_id="expired1", now=old)
    assert grant_cmd(env, capsys, "check")[0] == 3 and env.live() == ["expired1.json"]
    code, _, err = grant_cmd(env, capsys, "consume")
    assert code == 3 and err == ""
    assert env.live() == []  # consume swept the expired grant; check never writes
    # forged: command edited, hash kept -> invalid -> skipped with one warning
    write_grant(env, grant_id="forged1", command_sha256=command_hash("echo harmless"))
    code, _, err = grant_cmd(env, capsys, "consume")
    assert code == 3 and "forged1.json" in err and len(err.strip().splitlines()) == 1
    # replayed: a live file restored after its spent record exists
    gid = write_grant(env, grant_id="replay1")
    (env.store / "spent" / f"{gid}.json").write_text("")
    assert grant_cmd(env, capsys, "consume")[0] == 3
    assert grant_cmd(env, capsys, "check")[0] == 3
    # never swept: a spent record may be a claim in flight whose owner re-reads this file
    assert (env.store / "live" / "replay1.json").exists()
    assert env.spent() == ["replay1.json"]


def test_corrupt_and_misnamed_files_skipped(env: Env, capsys: pytest.CaptureFixture[str]) -> None:
    (env.store / "live").mkdir(parents=True)
    (env.store / "spent").mkdir()
    (env.store / "live" / "corrupt1.json").write_bytes(b"{not json\xff")
    (env.store / "live" / "bad name.json").write_text("{}")
    (env.store / "live" / "notes.txt").write_text("ignored")
    gid = write_grant(env, grant_id="realone")
    text = (env.store / "live" / f"{gid}.json").read_text()
    (env.store / "live" / "otherid.json").write_text(text)  # id differs from file stem
    (env.store / "live" / "linked.json").symlink_to(env.store / "live" / f"{gid}.json")
    code, out, err = grant_cmd(env, capsys, "check")
    assert code == 0 and "realone" in out
    warned = err.strip().splitlines()
    assert len(warned) == 4
    for name in ("corrupt1.json", "bad name.json", "otherid.json", "linked.json"):
        assert sum(name in line for line in warned) == 1
    assert "notes.txt" not in err
    os.unlink(env.store / "live" / f"{gid}.json")
    code, out, err = grant_cmd(env, capsys, "consume")
    assert code == 3 and env.spent() == []  # nothing consumed by an error path


def test_claim_lost_and_changed_after_claim(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = mint(env, capsys)
    real = GrantStore._grant_at
    calls: list[str] = []

    def swapped(name: str, live: int, allowed: Any) -> Any:
        calls.append(name)
        if len(calls) == 2:  # the re-read after the claim sees a different grant
            return None
        return real(name, live, allowed)

    monkeypatch.setattr(GrantStore, "_grant_at", staticmethod(swapped))
    code, _out, _ = grant_cmd(env, capsys, "consume")
    assert code == 3 and calls == [f"{gid}.json", f"{gid}.json"]
    assert env.spent() == [f"{gid}.json"]  # the id stays burned
    assert (env.store / "spent" / f"{gid}.json").read_bytes() == b""
    monkeypatch.setattr(GrantStore, "_grant_at", staticmethod(real))
    assert grant_cmd(env, capsys, "consume")[0] == 3


def test_file_consumed_while_listing_is_skipped_silently(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = mint(env, capsys)
    real = GrantStore._grant_at

    def vanish(name: str, live: int, allowed: Any) -> Any:
        os.unlink(name, dir_fd=live)  # another consumer finished between listdir and open
        return real(name, live, allowed)

    monkeypatch.setattr(GrantStore, "_grant_at", staticmethod(vanish))
    assert grant_cmd(env, capsys, "consume") == (3, "no live matching grant\n", "")
    monkeypatch.setattr(GrantStore, "_grant_at", staticmethod(real))
    gid = mint(env, capsys)
    original = (env.store / "live" / f"{gid}.json").read_text()

    def claimed(name: str, live: int, allowed: Any) -> Any:
        (env.store / "spent" / name).write_text("")
        (env.store / "live" / name).write_text("{}")  # and left a half-written file behind
        return real(name, live, allowed)

    monkeypatch.setattr(GrantStore, "_grant_at", staticmethod(claimed))
    assert grant_cmd(env, capsys, "check") == (3, "no live matching grant\n", "")
    assert original != "{}"


def test_claim_already_taken(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = mint(env, capsys)
    real_live = GrantStore._live

    def list_then_race(self: GrantStore, *args: Any) -> Any:
        grants = real_live(self, *args)
        (env.store / "spent" / f"{gid}.json").write_text("")  # another consumer won
        return grants

    monkeypatch.setattr(GrantStore, "_live", list_then_race)
    code, out, _ = grant_cmd(env, capsys, "consume")
    assert code == 3 and out.strip() == "no live matching grant"
    assert [e["event"] for e in env.audit_events()] == ["mint"]


def test_consume_audit_failure_reports_no_grant(
    env: Env, capsys: pytest.CaptureFixture[str]
) -> None:
    gid = mint(env, capsys)
    env.audit.unlink()
    env.audit.mkdir()
    code, _out, err = grant_cmd(env, capsys, "consume")
    assert code == 3 and "audit" in err and gid in err
    assert env.spent() == [f"{gid}.json"] and env.live() == []
    env.audit.rmdir()
    assert grant_cmd(env, capsys, "consume")[0] == 3


def test_revoke(env: Env, capsys: pytest.CaptureFixture[str]) -> None:
    gid = mint(env, capsys)
    store = ["--store", str(env.store), "--audit", str(env.audit)]
    code, out, _ = cli(capsys, "grant", "revoke", "--id", gid, *store)
    assert code == 0 and gid in out
    assert env.live() == [] and env.spent() == [f"{gid}.json"]
    rec = parse_grant((env.store / "spent" / f"{gid}.json").read_bytes(), ["deploy"])
    assert rec is not None and rec.consumed_at is not None
    assert grant_cmd(env, capsys, "consume")[0] == 3
    code, out, _ = cli(capsys, "grant", "revoke", "--id", gid, *store)
    assert code == 3 and out.strip() == "nothing to revoke"
    code, out, _ = cli(capsys, "grant", "revoke", "--id", "neverminted", *store)
    assert code == 3
    events = env.audit_events()
    assert [e["event"] for e in events] == ["mint", "revoke"] and events[1]["id"] == gid


def test_revoke_spent_but_live_restored(env: Env, capsys: pytest.CaptureFixture[str]) -> None:
    gid = write_grant(env, grant_id="restored")
    (env.store / "spent" / f"{gid}.json").write_text("")
    code, out, _ = cli(
        capsys, "grant", "revoke", "--id", gid, "--store", str(env.store), "--audit", str(env.audit)
    )
    assert code == 3 and out.strip() == "nothing to revoke"


def test_revoke_unparsable_live_file(env: Env, capsys: pytest.CaptureFixture[str]) -> None:
    (env.store / "live").mkdir(parents=True)
    (env.store / "spent").mkdir()
    (env.store / "live" / "junk1.json").write_text("{oops")
    code, _, _ = cli(
        capsys,
        "grant",
        "revoke",
        "--id",
        "junk1",
        "--store",
        str(env.store),
        "--audit",
        str(env.audit),
    )
    assert code == 0 and env.live() == [] and env.spent() == ["junk1.json"]
    assert (env.store / "spent" / "junk1.json").read_bytes() == b""
    assert env.audit_events()[0]["id"] == "junk1"


@pytest.mark.parametrize("bad", ["../x", "a/b", "", "-x", "a" * 129, "x.json", "ä"])
def test_revoke_refuses_unsafe_id(env: Env, capsys: pytest.CaptureFixture[str], bad: str) -> None:
    code, out, err = cli(capsys, "grant", "revoke", f"--id={bad}", "--store", str(env.store))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "--id" in err
    assert not env.store.exists()


def test_store_is_a_file_is_an_error(env: Env, capsys: pytest.CaptureFixture[str]) -> None:
    env.store.write_text("not a dir")
    code, out, err = cli(
        capsys, "grant", "mint", "--command", CMD, "--scope", "s", "--class", "deploy", *env.opts()
    )
    assert code == 2 and out == ""
    assert err == f"agentops: grant store {env.store}: not a directory\n"


def test_blank_query_arguments_are_usage_errors(
    env: Env, capsys: pytest.CaptureFixture[str]
) -> None:
    for command, scope, cls in ((" ", "s", "deploy"), (CMD, "", "deploy"), (CMD, "s", "")):
        for action in ("check", "consume"):
            assert grant_cmd(env, capsys, action, command, scope, cls)[0] == 2


# ---------------------------------------------------------------------------
# Policy


BAD_POLICIES: list[Any] = [
    '{"schema_version": 1, "schema_version": 1}',
    '{"schema_version": 1, "deny": [{"id": "a", "pattern": "x", "id": "a"}]}',
    '{"schema_version": 1, "deny": [], "extra": 1}',
    {"schema_version": "1"},
    {"schema_version": 2},
    {"schema_version": True},
    {},
    [],
    "null",
    "{not json",
    '{"schema_version": NaN}',
    {"schema_version": 1, "deny": {}},
    {"schema_version": 1, "deny": ["x"]},
    {"schema_version": 1, "deny": [{"pattern": "x"}]},
    {"schema_version": 1, "deny": [{"id": " ", "pattern": "x"}]},
    {"schema_version": 1, "deny": [{"id": "a"}]},
    {"schema_version": 1, "deny": [{"id": "a", "pattern": 5}]},
    {"schema_version": 1, "deny": [{"id": "a", "pattern": "(unclosed"}]},
    {"schema_version": 1, "deny": [{"id": "a", "pattern": "x"}, {"id": "a", "pattern": "y"}]},
    {"schema_version": 1, "deny": [{"id": "a", "pattern": "x", "ignore_case": "yes"}]},
    {"schema_version": 1, "deny": [{"id": "a", "pattern": "x", "reason": 5}]},
    {"schema_version": 1, "deny": [{"id": "a", "pattern": "x", "severity": "high"}]},
    {"schema_version": 1, "grant_classes": []},
    {"schema_version": 1, "grant_classes": {"deploy": []}},
    {"schema_version": 1, "grant_classes": {"deploy": "^deploy"}},
    {"schema_version": 1, "grant_classes": {"deploy": [5]}},
    {"schema_version": 1, "grant_classes": {"deploy": ["("]}},
    {"schema_version": 1, "grant_classes": {" deploy": ["^deploy"]}},
    {"schema_version": 1, "grant_classes": {"": ["^deploy"]}},
    {"schema_version": 1, "grant_classes": {f"c{i}": ["x"] for i in range(1025)}},
]


@pytest.mark.parametrize("policy", BAD_POLICIES, ids=range(len(BAD_POLICIES)))
def test_unusable_policy_fails_closed(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, policy: Any
) -> None:
    gid = write_grant(env, grant_id="wouldmatch")
    env.write_policy(policy)
    code, out, err = hook(env, capsys, monkeypatch, hook_input())
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "policy unusable" in err
    for action in ("check", "consume"):
        code, out, err = grant_cmd(env, capsys, action)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert env.live() == [f"{gid}.json"] and env.spent() == []


def test_policy_unreadable_variants(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    env.policy.write_bytes(b'{"schema_version": 1, "deny": [{"id": "\xff", "pattern": "x"}]}')
    assert hook(env, capsys, monkeypatch, hook_input())[0] == 2
    env.policy.unlink()
    code, _out, err = hook(env, capsys, monkeypatch, hook_input())
    assert code == 2 and "cannot read" in err
    env.policy.mkdir()
    assert hook(env, capsys, monkeypatch, hook_input())[0] == 2


def test_policy_symlink_followed_fifo_in_store_skipped(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = env.tmp / "dotfiles-policy.json"
    env.policy.rename(real)
    env.policy.symlink_to(real)
    gid = mint(env, capsys)
    os.mkfifo(env.store / "live" / "afifo.json")
    code, out, err = hook(env, capsys, monkeypatch, hook_input())
    assert code == 0 and gid in decision(out)["permissionDecisionReason"]
    assert "afifo.json" in err


def test_policy_minimal_and_ignore_case(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    env.write_policy({"schema_version": 1})
    assert hook(env, capsys, monkeypatch, hook_input()) == (0, "", "")
    env.write_policy(
        {
            "schema_version": 1,
            "deny": [
                {"id": "shout", "pattern": "drop table", "ignore_case": True},
                {"id": "exact", "pattern": "Rm -rf"},
            ],
        }
    )
    code, out, _ = hook(env, capsys, monkeypatch, hook_input("psql -c 'DROP TABLE x'"))
    assert code == 0 and decision(out)["permissionDecision"] == "deny"
    assert hook(env, capsys, monkeypatch, hook_input("rm -rf /tmp/x")) == (0, "", "")
    code, out, _ = hook(env, capsys, monkeypatch, hook_input("Rm -rf /tmp/x"))
    reason = decision(out)["permissionDecisionReason"]
    assert reason == "agentops policy rule exact: denied by policy"


def test_policy_loader_direct() -> None:
    policy = _policy.policy_from_document(json.loads(json.dumps(POLICY)))
    assert [r.id for r in policy.deny] == ["no-force-push", "no-body"]
    assert policy.deny[1].reason is None
    assert policy.allowed == ("deploy", "db-write", "both", "also")
    with pytest.raises(ValueError):
        _common.loads_strict('{"a": {"b": 1, "b": 2}}')
    with pytest.raises(ValueError):
        _common.loads_strict("[Infinity]")


# ---------------------------------------------------------------------------
# The PreToolUse hook


def test_hook_allows_once_with_grant(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert hook(env, capsys, monkeypatch, hook_input()) == (0, "", "")
    gid = mint(env, capsys)
    # a class pattern anchored at ^ does not see past leading blanks: no opinion
    assert hook(env, capsys, monkeypatch, hook_input("  " + CMD)) == (0, "", "")
    code, out, err = hook(env, capsys, monkeypatch, hook_input(CMD + "\n"))
    assert code == 0 and err == ""
    d = decision(out)
    assert d["permissionDecision"] == "allow" and gid in d["permissionDecisionReason"]
    assert out.endswith("\n") and out.count("\n") == 1
    assert hook(env, capsys, monkeypatch, hook_input()) == (0, "", "")  # replay: no opinion
    assert [e["event"] for e in env.audit_events()] == ["mint", "consume"]
    assert env.audit_events()[1]["note"] == "hook pre-tool-use"


def test_hook_scope_comes_from_argv_only(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    mint(env, capsys)
    sneaky = hook_input(scope="my-app", tool_input_scope="my-app")
    assert hook(env, capsys, monkeypatch, sneaky, scope="other-app") == (0, "", "")
    assert env.live() != []
    code, out, _ = hook(env, capsys, monkeypatch, sneaky, scope="my-app")
    assert decision(out)["permissionDecision"] == "allow"
    code, out, err = hook(env, capsys, monkeypatch, hook_input(), scope="  ")
    assert code == 2 and out == "" and "--scope" in err


def test_hook_wrong_class_or_whitespace_not_allowed(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    mint(env, capsys, "psql -c 'select 1'", "my-app", "db-write")
    mint(env, capsys)
    for command in (
        "deploy  --env production",
        "deploy --env production --force",
        "psql -c 'select  1'",
        'psql -c "select 1"',
    ):
        assert hook(env, capsys, monkeypatch, hook_input(command)) == (0, "", "")
    assert len(env.live()) == 2


@pytest.mark.parametrize(
    "spelling",
    [
        'git push --for"ce" origin main',
        "git push --for'ce' origin main",
        "git push --for\\ce origin main",
        "git push $'--force' origin main",
        "git push $'\\x2d\\x2dforce' origin main",
        "git push $'\\055\\055force' origin main",
        'gh pr create --bo"dy" x',
        "gh pr create $'--body' x",
        "gh pr create --bo\\dy x",
    ],
)
def test_hook_denies_obfuscated_spellings(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, spelling: str
) -> None:
    code, out, err = hook(env, capsys, monkeypatch, hook_input(spelling))
    assert code == 0 and err == ""
    d = decision(out)
    assert d["permissionDecision"] == "deny"
    rule = "no-body" if "gh pr" in spelling else "no-force-push"
    assert d["permissionDecisionReason"].startswith(f"agentops policy rule {rule}")
    events = env.audit_events()
    assert events[-1]["event"] == "denied" and events[-1]["note"] == rule
    assert events[-1]["command"] == spelling and events[-1]["scope"] == "my-app"


def test_hook_grant_never_overrides_deny(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    forced = "deploy --env production --force && git push --force"
    gid = mint(env, capsys, forced)
    _code, out, _ = hook(env, capsys, monkeypatch, hook_input(forced))
    assert decision(out)["permissionDecision"] == "deny"
    assert env.live() == [f"{gid}.json"] and env.spent() == []


def test_hook_deny_stands_when_audit_fails(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    env.audit.mkdir()
    code, out, err = hook(env, capsys, monkeypatch, hook_input("git push --force"))
    assert code == 0 and decision(out)["permissionDecision"] == "deny"
    assert "audit" in err


def test_hook_ambiguous_or_no_class_is_no_opinion(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    now = datetime.now(timezone.utc)
    for cls in ("both", "also"):
        g = build_grant(
            "psql-deploy now",
            scope="my-app",
            action_class=cls,
            grant_id=f"amb{cls}",
            allowed_classes=[cls],
            now=now,
        )
        (env.store / "live").mkdir(parents=True, exist_ok=True)
        (env.store / "spent").mkdir(parents=True, exist_ok=True)
        (env.store / "live" / f"{g.id}.json").write_text(serialize_grant(g))
    assert hook(env, capsys, monkeypatch, hook_input("psql-deploy now")) == (0, "", "")
    assert hook(env, capsys, monkeypatch, hook_input("ls -la")) == (0, "", "")
    assert env.spent() == [] and len(env.live()) == 2


def test_hook_non_bash_tool_is_no_opinion(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    env.write_policy("{broken")  # the policy is never read for other tools
    for tool in ("Read", "Write", "mcp__x__y", "bash"):
        doc = {"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": {}}
        assert hook(env, capsys, monkeypatch, json.dumps(doc)) == (0, "", "")


MALFORMED: list[Any] = [
    b"",
    b"   ",
    b"not json",
    b"[]",
    b"null",
    b'"x"',
    b"\xff\xfe{}",
    json.dumps({"tool_name": "Bash", "tool_input": {"command": CMD}}),
    hook_input(hook_event_name="PostToolUse"),
    hook_input(hook_event_name=None),
    hook_input(tool=None),
    hook_input(tool=5),
    json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash"}),
    json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": CMD}),
    hook_input(command=None),
    hook_input(command=""),
    hook_input(command=" \n\t"),
    hook_input(command=["deploy"]),
    hook_input(command=5),
    hook_input().replace('"tool_name": "Bash"', '"tool_name": "Read", "tool_name": "Bash"'),
    hook_input().replace('"command":', '"command": "ls", "command":'),
    hook_input().replace('"description": "d"', '"description": NaN'),
    b"{" * 100000,
    hook_input().encode() + b" " * (1024 * 1024),
]


@pytest.mark.parametrize("data", MALFORMED, ids=range(len(MALFORMED)))
def test_hook_malformed_input_blocks(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data: Any
) -> None:
    gid = mint(env, capsys)
    code, out, err = hook(env, capsys, monkeypatch, data)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "malformed hook input" in err
    assert env.live() == [f"{gid}.json"] and env.spent() == []


def test_hook_input_at_size_limit_is_read(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    base = hook_input().encode()
    data = base + b" " * (pre_tool_use.MAX_HOOK_INPUT_BYTES - len(base))
    assert len(data) == pre_tool_use.MAX_HOOK_INPUT_BYTES == 1024 * 1024
    assert hook(env, capsys, monkeypatch, data) == (0, "", "")


def test_hook_unexpected_error_blocks(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(*a: Any, **k: Any) -> Any:
        raise RuntimeError("disk on fire")

    mint(env, capsys)
    monkeypatch.setattr(GrantStore, "_live", boom)
    code, out, err = hook(env, capsys, monkeypatch, hook_input())
    assert code == 2 and out == "" and "disk on fire" in err
    assert len(err.strip().splitlines()) == 1


def test_hook_kill_switch(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENTOPS_DISABLED", "1")
    assert hook(env, capsys, monkeypatch, b"garbage") == (0, "", "")
    assert hook(env, capsys, monkeypatch, hook_input("git push --force")) == (0, "", "")


# ---------------------------------------------------------------------------
# End to end in real processes


def test_subprocess_exit_codes_never_one(tmp_path: Path) -> None:
    e = Env(tmp_path)
    opts = e.opts()
    minted = run_cli("grant", "mint", "--command", CMD, "--scope", "s", "--class", "deploy", *opts)
    assert minted.returncode == 0
    data = hook_input()
    ok = run_cli("hook", "pre-tool-use", "--scope", "s", *opts, stdin=data)
    assert ok.returncode == 0 and decision(ok.stdout)["permissionDecision"] == "allow"
    again = run_cli("hook", "pre-tool-use", "--scope", "s", *opts, stdin=data)
    assert (again.returncode, again.stdout) == (0, "")
    bad = run_cli("hook", "pre-tool-use", "--scope", "s", *opts, stdin=b"\xff")
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.splitlines()) == 1
    usage = run_cli("hook", "pre-tool-use", *opts, stdin=data)
    assert usage.returncode == 2
    inside = run_cli(
        "grant",
        "mint",
        "--command",
        CMD,
        "--scope",
        "s",
        "--class",
        "deploy",
        *opts,
        env={"CLAUDECODE": "1"},
    )
    assert inside.returncode == 2 and inside.stdout == ""
    (tmp_path / "other").mkdir()
    other = Env(tmp_path / "other")
    other.store.write_text("a file, not a directory")
    broken = run_cli(
        "grant", "consume", "--command", CMD, "--scope", "s", "--class", "deploy", *other.opts()
    )
    assert broken.returncode == 2 and broken.stdout == ""
    assert len(broken.stderr.strip().splitlines()) == 1


ROUNDS = 15
CONSUMERS = 24


def test_concurrent_consumers_exactly_one_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLAUDECODE", raising=False)
    e = Env(tmp_path)
    opts = e.opts()
    environ = {
        k: v
        for k, v in os.environ.items()
        if k not in ("AGENTOPS_DISABLED", "CLAUDECODE", "PYTHONDONTWRITEBYTECODE")
    }
    environ["PYTHONPATH"] = str(ROOT) + os.pathsep + environ.get("PYTHONPATH", "")
    environ["PYTHONPYCACHEPREFIX"] = str(tmp_path / "pycache")  # as installed: .pyc cached
    argv = [
        sys.executable,
        "-m",
        "agentops",
        "grant",
        "consume",
        "--command",
        CMD,
        "--scope",
        "race",
        "--class",
        "deploy",
        *opts,
    ]
    started = time.monotonic()
    winners: list[str] = []
    for round_no in range(ROUNDS):
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):  # mint in-process: only consumers race
            assert (
                main(
                    [
                        "grant",
                        "mint",
                        "--command",
                        CMD,
                        "--scope",
                        "race",
                        "--class",
                        "deploy",
                        *opts,
                    ]
                )
                == 0
            )
        gid = printed.getvalue().split()[1]
        procs = [
            subprocess.Popen(argv, env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for _ in range(CONSUMERS)
        ]
        results = [
            (p.wait(timeout=120), p.stdout.read(), p.stderr.read())  # type: ignore[union-attr]
            for p in procs
        ]
        for p in procs:
            p.stdout.close()  # type: ignore[union-attr]
            p.stderr.close()  # type: ignore[union-attr]
        codes = sorted(code for code, _, _ in results)
        assert codes == [0] + [3] * (CONSUMERS - 1), (round_no, results)
        won = [out.decode() for code, out, _ in results if code == 0]
        assert won == [f"consumed grant {gid}\n"]
        assert all(err == b"" for _, _, err in results)
        winners.append(gid)
        assert f"{gid}.json" in e.spent() and f"{gid}.json" not in e.live()
    consumes = [ev for ev in e.audit_events() if ev["event"] == "consume"]
    assert [ev["id"] for ev in consumes] == winners
    assert len(set(winners)) == ROUNDS
    assert time.monotonic() - started < 300  # a generous adversarial bound, not a benchmark


# ---------------------------------------------------------------------------
# A store that trusts only its owner (each test is the attack, run as a positive control)


def one_line_naming(err: str, path: Path, problem: str) -> bool:
    lines = err.strip().splitlines()
    return len(lines) == 1 and str(path) in lines[0] and problem in lines[0]


@pytest.mark.parametrize("where", ["", "live", "spent"])
def test_a_world_writable_store_with_a_forged_grant_is_refused(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    gid = write_grant(env, grant_id="forgedbyother")  # well-formed: only trust can refuse it
    loose = env.store / where if where else env.store
    loose.chmod(0o777)
    code, out, err = hook(env, capsys, monkeypatch, hook_input())
    assert code == 2 and out == ""
    assert one_line_naming(err, loose, "writable by group or others (mode 0o777)")
    for action in ("check", "consume"):
        code, out, err = grant_cmd(env, capsys, action)
        assert code == 2 and out == "" and one_line_naming(err, loose, "writable by group")
    code, out, err = cli(capsys, "grant", "revoke", "--id", gid, *env.opts(policy=False))
    assert code == 2 and one_line_naming(err, loose, "writable by group")
    code, out, err = cli(
        capsys, "grant", "mint", "--command", CMD, "--scope", "s", "--class", "deploy", *env.opts()
    )
    assert code == 2 and out == "" and one_line_naming(err, loose, "writable by group")
    assert env.live() == [f"{gid}.json"] and env.spent() == []
    loose.chmod(0o700)  # the owner fixes it: the same grant is honoured again
    code, out, _ = hook(env, capsys, monkeypatch, hook_input())
    assert code == 0 and gid in decision(out)["permissionDecisionReason"]


def test_a_group_writable_store_is_refused(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_grant(env)
    env.store.chmod(0o770)
    code, _out, err = hook(env, capsys, monkeypatch, hook_input())
    assert code == 2 and one_line_naming(err, env.store, "(mode 0o770)")


def test_a_store_owned_by_another_user_is_refused(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_grant(env)
    real_uid = os.geteuid()
    monkeypatch.setattr(os, "geteuid", lambda: real_uid + 1)  # we are someone else now
    code, out, err = hook(env, capsys, monkeypatch, hook_input())
    assert code == 2 and out == ""
    assert one_line_naming(err, env.store, f"owned by uid {real_uid}, not by the current user")


@pytest.mark.skipif(os.geteuid() != 0, reason="chown to another user needs root")
def test_a_store_really_owned_by_another_user_is_refused(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_grant(env)
    os.chown(env.store / "live", 4242, 4242)
    code, _out, err = hook(env, capsys, monkeypatch, hook_input())
    assert code == 2 and one_line_naming(err, env.store / "live", "owned by uid 4242")


@pytest.mark.parametrize("where", ["", "live", "spent"])
def test_a_symlinked_store_directory_is_refused(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    write_grant(env)
    planted = env.store / where if where else env.store
    elsewhere = env.tmp / "elsewhere"
    planted.rename(elsewhere)
    planted.symlink_to(elsewhere)
    code, out, err = hook(env, capsys, monkeypatch, hook_input())
    assert code == 2 and out == ""
    assert one_line_naming(err, planted, "a symbolic link, not a directory")


def test_a_symlinked_audit_log_is_never_followed(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    victim = env.tmp / "root-only.log"
    victim.write_text("precious\n")
    store_opts = ["--policy", str(env.policy), "--store", str(env.store)]
    mint(env, capsys)  # creates the store, auditing to env.audit
    (env.store / "audit.ndjson").symlink_to(victim)  # planted in the store
    code, out, err = cli(
        capsys, "grant", "mint", "--command", CMD, "--scope", "s", "--class", "deploy", *store_opts
    )
    assert code == 2 and out == "" and "audit" in err and len(err.strip().splitlines()) == 1
    env.audit.unlink()
    env.audit.symlink_to(victim)  # the --audit path itself is a link
    code, out, err = grant_cmd(env, capsys, "consume")
    assert code == 3 and "audit" in err
    code, out, err = hook(env, capsys, monkeypatch, hook_input("git push --force"))
    assert decision(out)["permissionDecision"] == "deny" and "deny stands" in err
    assert victim.read_text() == "precious\n"


def test_a_fifo_audit_log_fails_at_once(env: Env, capsys: pytest.CaptureFixture[str]) -> None:
    os.mkfifo(env.audit)
    code, out, err = cli(
        capsys, "grant", "mint", "--command", CMD, "--scope", "s", "--class", "deploy", *env.opts()
    )
    assert code == 2 and out == "" and "audit" in err and env.live() == []


def test_mint_creates_a_missing_home_0o700(env: Env, capsys: pytest.CaptureFixture[str]) -> None:
    home = env.tmp / "home"
    assert not home.exists()
    code, _out, err = cli(
        capsys,
        "grant",
        "mint",
        "--command",
        CMD,
        "--scope",
        "s",
        "--class",
        "deploy",
        "--policy",
        str(env.policy),
    )
    assert code == 0, err
    for made in (home, home / ".agentops", home / ".agentops" / "grants"):
        assert stat.S_IMODE(made.stat().st_mode) == 0o700, made
    for sub in ("live", "spent"):
        assert stat.S_IMODE((home / ".agentops" / "grants" / sub).stat().st_mode) == 0o700
    audit = home / ".agentops" / "grants" / "audit.ndjson"
    assert stat.S_IMODE(audit.stat().st_mode) == 0o600


def test_mint_shows_invisible_and_control_characters_escaped(
    env: Env, capsys: pytest.CaptureFixture[str]
) -> None:
    env.write_policy({"schema_version": 1, "grant_classes": {"deploy": ["^deploy"]}})
    sneaky = "deploy --env prod\u200buction \u202etxt.exe\x1b[2K"
    code, out, _ = cli(
        capsys, "grant", "mint", "--command", sneaky, "--scope", "my\u00a0app", "--class", "deploy",
        *env.opts(),
    )  # fmt: skip
    assert code == 0
    shown = dict(line.split(":", 1) for line in out.splitlines())
    assert shown["command"].strip() == "deploy --env prod\\u200buction \\u202etxt.exe\\x1b[2K"
    assert shown["scope"].strip() == "my\\xa0app"
    assert "\u200b" not in out and "\u202e" not in out and "\x1b" not in out


TOKEN = "gh" + "p_" + "x7Kq2Lm9" * 4 + "Zz0A"  # glued so this file holds no token


def test_audit_lines_hold_no_secret_and_no_flood(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with_secret = f"deploy --env production --token {TOKEN}"
    mint(env, capsys, with_secret, "s\n" + TOKEN)
    code, out, _ = hook(env, capsys, monkeypatch, hook_input(with_secret), scope="s\n" + TOKEN)
    assert code == 0 and decision(out)["permissionDecision"] == "allow"
    flood = "git push --force " + "x" * (pre_tool_use.MAX_HOOK_INPUT_BYTES - 400)
    GrantStore(env.store, audit_log=env.audit).record_denial(flood, scope="s", rule_id="r")
    text = env.audit.read_text()
    assert TOKEN not in text and "[redacted:" in text
    events = env.audit_events()
    assert [e["event"] for e in events] == ["mint", "consume", "denied"]
    for event in events[:2]:
        assert event["command_sha256"] == command_hash(with_secret)
        assert TOKEN not in event["command"] and TOKEN not in event["scope"]
    denied = events[2]
    assert denied["command_sha256"] == command_hash(flood)
    assert denied["command"].startswith("git push --force xxx")
    assert denied["command"].endswith(f"...[cut: {len(flood)} characters in all]")
    assert all(len(line) < 4 * 1024 for line in text.splitlines())


def test_expired_grants_are_swept(
    env: Env, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    old = datetime.now(timezone.utc) - timedelta(hours=2)
    for number in range(300):
        write_grant(env, grant_id=f"old{number}", now=old)
    gid = write_grant(env, grant_id="fresh1")
    code, out, _ = hook(env, capsys, monkeypatch, hook_input("deploy --env staging"))
    assert (code, out) == (0, "")  # a miss still sweeps
    assert env.live() == [f"{gid}.json"]
    assert GrantStore(env.store).sweep() == 0
    for number in range(3):
        write_grant(env, grant_id=f"late{number}", now=old)
    assert GrantStore(env.store).sweep() == 3
    assert cli(capsys, "grant", "mint", "--command", CMD, "--scope", "s", "--class", "deploy",
               *env.opts())[0] == 0  # fmt: skip
    assert len(env.live()) == 2


# ---------------------------------------------------------------------------
# The store API for Python runtimes (no subprocess)


def test_store_api_mint_check_consume_revoke(tmp_path: Path) -> None:
    from agentops.capability_grant import GrantQuery

    warnings: list[str] = []
    store = GrantStore(tmp_path / "grants", on_warning=warnings.append)
    query = GrantQuery(CMD, "app", "deploy")
    assert store.check(query, ["deploy"]) is None and store.consume(query, ["deploy"]) is None
    assert not (tmp_path / "grants").exists()  # reading a missing store creates nothing
    grant = store.mint(CMD, scope="app", action_class="deploy", allowed_classes=["deploy"])
    assert store.check(query, ["deploy"]) == grant
    assert store.check(query, ["other"]) is None  # the caller's allowlist decides
    assert warnings == [
        f"skipped grant file live/{grant.id}.json: not a valid grant of an allowed class"
    ]
    warnings.clear()
    used = store.consume(query, ["deploy"], note="my agent loop")
    assert used is not None and used.id == grant.id and used.consumed_at is None
    assert store.consume(query, ["deploy"]) is None  # single use
    assert store.check(query, ["deploy"]) is None
    second = store.mint(CMD, scope="app", action_class="deploy", allowed_classes=["deploy"])
    assert store.revoke(second.id) is True and store.revoke(second.id) is False
    assert store.consume(query, ["deploy"]) is None
    with pytest.raises(ValueError, match="grant_id"):
        store.revoke("../etc/passwd")
    (tmp_path / "grants" / "live" / "junk.json").write_text("{}")
    assert store.check(query, ["deploy"]) is None
    assert warnings == ["skipped grant file live/junk.json: not a valid grant of an allowed class"]
    audit = tmp_path / "grants" / "audit.ndjson"
    lines = [json.loads(line) for line in audit.read_text().splitlines()]
    assert [(e["event"], e["id"], e["note"]) for e in lines] == [
        ("mint", grant.id, None),
        ("consume", grant.id, "my agent loop"),
        ("mint", second.id, None),
        ("revoke", second.id, None),
    ]
    spent = parse_grant(
        (tmp_path / "grants" / "spent" / f"{grant.id}.json").read_text(), ["deploy"]
    )
    assert spent is not None and spent.consumed_at is not None
    assert "GrantStore" in repr(store)


def test_store_api_refusals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from agentops.capability_grant import GrantError, GrantQuery

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    store = GrantStore(audit_log=tmp_path / "logs")
    assert store.directory == str(tmp_path / "home" / ".agentops" / "grants")
    with pytest.raises(GrantError, match="action_class"):
        store.mint(CMD, scope="app", action_class="deploy", allowed_classes=["other"])
    (tmp_path / "logs").mkdir()
    with pytest.raises(AuditFailed, match="grant removed"):
        store.mint(CMD, scope="app", action_class="deploy", allowed_classes=["deploy"])
    assert os.listdir(Path(store.directory) / "live") == []
    with pytest.raises(AuditFailed, match="audit log"):
        store.record_denial("rm -rf /", scope="app", rule_id="no-rm")
    (tmp_path / "logs").rmdir()
    grant = store.mint(CMD, scope="app", action_class="deploy", allowed_classes=["deploy"])
    os.unlink(tmp_path / "logs")
    (tmp_path / "logs").mkdir()
    with pytest.raises(AuditFailed, match=f"grant {grant.id} burned"):
        store.consume(GrantQuery(CMD, "app", "deploy"), ["deploy"])
    other = GrantStore(tmp_path / "home" / ".agentops" / "grants")  # default audit log
    again = other.mint(CMD, scope="app", action_class="deploy", allowed_classes=["deploy"])
    store_audit = Path(other.directory) / "audit.ndjson"
    store_audit.unlink()
    store_audit.mkdir()
    with pytest.raises(AuditFailed, match=f"grant {again.id} revoked, but"):
        other.revoke(again.id)
    Path(store.directory).chmod(0o757)
    with pytest.raises(StoreError, match="writable by group or others"):
        store.check(GrantQuery(CMD, "app", "deploy"), ["deploy"])


ROUND_TRIP_SCRIPT = """
import sys
from agentops.capability_grant import GrantQuery
from agentops.cli.grant import AuditFailed, GrantStore, StoreError
store = GrantStore(sys.argv[1])
sys.stdin.read()  # wait for the starting gun: every process is loaded by then
used = store.consume(GrantQuery(sys.argv[2], "race", "deploy"), ["deploy"])
print(used.id if used is not None else "")
"""
API_ROUNDS = 5


def test_concurrent_api_consumers_exactly_one_wins(tmp_path: Path) -> None:
    environ = {k: v for k, v in os.environ.items() if k != "AGENTOPS_DISABLED"}
    environ["PYTHONPATH"] = str(ROOT) + os.pathsep + environ.get("PYTHONPATH", "")
    store = GrantStore(tmp_path / "grants")
    argv = [sys.executable, "-c", ROUND_TRIP_SCRIPT, store.directory, CMD]
    for round_no in range(API_ROUNDS):
        grant = store.mint(CMD, scope="race", action_class="deploy", allowed_classes=["deploy"])
        procs = [
            subprocess.Popen(
                argv,
                env=environ,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            for _ in range(CONSUMERS)
        ]
        for proc in procs:  # all at once
            proc.stdin.close()  # type: ignore[union-attr]
        results = [
            (proc.stdout.read(), proc.stderr.read())  # type: ignore[union-attr]
            for proc in procs
        ]
        for proc in procs:
            proc.wait(timeout=120)
            proc.stdout.close()  # type: ignore[union-attr]
            proc.stderr.close()  # type: ignore[union-attr]
        assert all(proc.returncode == 0 for proc in procs), results
        won = [out.decode().strip() for out, _ in results if out.strip()]
        assert won == [grant.id], (round_no, results)
        assert all(err == b"" for _, err in results)
    audit = (tmp_path / "grants" / "audit.ndjson").read_text().splitlines()
    assert [json.loads(line)["event"] for line in audit] == ["mint", "consume"] * API_ROUNDS


def test_a_consumer_listing_during_a_claim_in_flight_leaves_the_claim_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agentops.capability_grant import GrantQuery

    store = GrantStore(tmp_path / "grants")
    grant = store.mint(CMD, scope="app", action_class="deploy", allowed_classes=["deploy"])
    query = GrantQuery(CMD, "app", "deploy")
    real = GrantStore._grant_at
    rival: list[object] = []

    def rival_lists_between_claim_and_reread(name: str, live: int, allowed: Any) -> Any:
        if allowed is not None and not rival:  # the claimer's re-read, after its claim
            rival.append(store.consume(query, ["deploy"]))  # a second consumer, meanwhile
        return real(name, live, allowed)

    monkeypatch.setattr(GrantStore, "_grant_at", staticmethod(rival_lists_between_claim_and_reread))
    used = store.consume(query, ["deploy"])
    assert rival == [None] and used is not None and used.id == grant.id


def test_limit_a_secret_with_no_known_shape_is_audited_as_typed(tmp_path: Path) -> None:
    store = GrantStore(tmp_path / "grants")
    store.record_denial("deploy --password hunter2", scope="app", rule_id="r")
    assert "hunter2" in (tmp_path / "grants" / "audit.ndjson").read_text()
