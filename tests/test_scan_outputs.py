"""Where findings land: SARIF 2.1.0, the baseline, `--jobs` and the progress line
(agentops/cli/_sarif.py, _baseline.py, secrets.py)."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import ROOT

from agentops.cli import _baseline, _sarif, main

AWS = "AKIA" + "IOSFODNN7EXAMPLE"  # built at run time: this file stays clean
AWS2 = "AKIA" + "Z3XAMPLEKEY0000B"
GITHUB = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
ZWSP = "\u200b"
VALUES = (AWS, AWS2, GITHUB)


@pytest.fixture(autouse=True)
def _known_key(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    key_file = tmp_path_factory.mktemp("key") / "fingerprint.key"
    key_file.write_text(bytes(range(32)).hex() + "\n", encoding="ascii")
    monkeypatch.setenv("AGENTOPS_FINGERPRINT_KEY_FILE", str(key_file))
    monkeypatch.delenv("AGENTOPS_DISABLED", raising=False)


def run(capsys: Any, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A small repository, and the working directory set to it (as CI and pre-commit run)."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "settings.py").write_text(f"KEY = '{AWS}'\n", encoding="utf-8")
    (tmp_path / "src" / "ok.py").write_text("print('fine')\n", encoding="utf-8")
    (tmp_path / "s.jsonl").write_text(json.dumps({"text": f"t {GITHUB}"}) + "\n", "utf-8")
    (tmp_path / "blob.bin").write_bytes(b"\x00\x01")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# ---------------------------------------------------------------- SARIF


def check_sarif(document: dict[str, Any]) -> list[dict[str, Any]]:
    """The required fields of SARIF 2.1.0 and the rules GitHub code scanning applies;
    returns the results."""
    assert document["version"] == "2.1.0"
    assert document["$schema"].endswith("sarif-2.1.0.json")
    assert isinstance(document["runs"], list) and len(document["runs"]) == 1
    run_ = document["runs"][0]
    driver = run_["tool"]["driver"]
    assert isinstance(driver["name"], str) and driver["name"]
    rules = driver["rules"]
    ids = [rule["id"] for rule in rules]
    assert len(ids) == len(set(ids)), "rule ids are unique"
    for rule in rules:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
    for result in run_["results"]:
        assert result["message"]["text"]
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in ("none", "note", "warning", "error")
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        uri = physical["artifactLocation"]["uri"]
        assert uri and "\\" not in uri and " " not in uri
        region = physical["region"]  # code scanning places every result on a line
        assert isinstance(region["startLine"], int) and region["startLine"] >= 1
        assert region.get("startColumn", 1) >= 1
        for logical in location.get("logicalLocations", []):
            assert logical["fullyQualifiedName"]
    for invocation in run_["invocations"]:
        assert invocation["executionSuccessful"] is True  # a skipped file is a notification
        for note in invocation["toolExecutionNotifications"]:
            assert note["message"]["text"]
    return list(run_["results"])


def test_scan_secrets_sarif(tree: Path, capsys: Any) -> None:
    code, out, err = run(capsys, "scan-secrets", "--jobs", "1", "--format", "sarif", ".")
    assert code == 3
    assert not any(value in out + err for value in VALUES)
    results = check_sarif(json.loads(out))
    places = sorted(
        (
            r["ruleId"],
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"],
            r["locations"][0].get("logicalLocations", [{}])[0].get("fullyQualifiedName"),
        )
        for r in results
    )
    assert places == [
        ("aws-key", "src/settings.py", {"startLine": 1, "startColumn": 8}, None),
        ("github-token", "s.jsonl", {"startLine": 1}, "text"),
    ]
    assert all(len(r["partialFingerprints"]["agentopsFingerprint/v1"]) == 8 for r in results)
    notes = json.loads(out)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert [n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for n in notes] == [
        "blob.bin"
    ]
    rule_ids = {rule["id"] for rule in json.loads(out)["runs"][0]["tool"]["driver"]["rules"]}
    assert {"aws-key", "github-token", "private-key"} <= rule_ids


def test_hidden_chars_sarif(tree: Path, capsys: Any) -> None:
    (tree / "prompt.md").write_text(f"be{ZWSP}nign\n", encoding="utf-8")
    (tree / "t.jsonl").write_text(json.dumps({"text": f"a{ZWSP}"}) + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "hidden-chars", "--format", "sarif", ".")
    assert code == 3
    results = check_sarif(json.loads(out))
    assert sorted(
        (r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
        for r in results
    ) == [("zero_width", "prompt.md"), ("zero_width", "t.jsonl")]
    assert "U+200B ZERO WIDTH SPACE" in results[0]["message"]["text"]
    (tree / "start.md").write_text(f"{ZWSP}x\n", encoding="utf-8")
    code, out, _ = run(capsys, "hidden-chars", "--format", "sarif", "start.md")
    (result,) = check_sarif(json.loads(out))
    region = result["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 1, "startColumn": 1}


def test_sarif_for_a_database_value(tree: Path, capsys: Any) -> None:
    import sqlite3

    connection = sqlite3.connect(tree / "memory.db")
    connection.execute("CREATE TABLE blocks (value TEXT)")
    connection.execute("INSERT INTO blocks VALUES (?)", (f"k {AWS}",))
    connection.commit()
    connection.close()
    code, out, err = run(capsys, "scan-secrets", "--format", "sarif", "memory.db")
    assert code == 3 and AWS not in out + err
    (result,) = check_sarif(json.loads(out))
    (location,) = result["locations"]
    assert location["physicalLocation"] == {
        "artifactLocation": {"uri": "memory.db"},
        "region": {"startLine": 1},
    }
    assert location["logicalLocations"] == [{"fullyQualifiedName": "blocks.value[rowid=1]"}]


def test_sarif_clean_and_blind(tree: Path, capsys: Any) -> None:
    code, out, _ = run(capsys, "scan-secrets", "--format", "sarif", "src/ok.py")
    assert code == 0 and check_sarif(json.loads(out)) == []
    code, out, _ = run(capsys, "scan-secrets", "--format", "sarif", "blob.bin")
    assert code == 4 and check_sarif(json.loads(out)) == []


def test_artifact_uris(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert _sarif.artifact_uri("a b/c#d.py") == "a%20b/c%23d.py"
    assert _sarif.artifact_uri(str(tmp_path / "x.py")) == "x.py"
    outside = _sarif.artifact_uri("/etc/hosts")
    assert outside == "file:///etc/hosts"


# ---------------------------------------------------------------- baseline


def test_baseline_round_trip(tree: Path, capsys: Any) -> None:
    code, out, _ = run(
        capsys, "scan-secrets", "--baseline", ".agentops-baseline", "--update-baseline", "."
    )
    assert code == 0 and "2 finding(s) recorded" in out
    text = (tree / ".agentops-baseline").read_text()
    assert not any(value in text for value in VALUES)
    assert {e["path"] for e in json.loads(text)["findings"]} == {"src/settings.py", "s.jsonl"}

    code, out, _ = run(capsys, "scan-secrets", "--baseline", ".agentops-baseline", ".")
    assert code == 0, out
    assert "2 accepted by baseline" in out and "0 finding(s)" in out

    (tree / "src" / "new.py").write_text(f"OTHER = '{AWS2}'\n", encoding="utf-8")
    code, out, err = run(capsys, "scan-secrets", "--baseline", ".agentops-baseline", ".")
    assert code == 3
    assert [line for line in out.splitlines() if " fp=" in line] == [
        f"{os.path.join('.', 'src', 'new.py')}:1:10 aws-key fp={_fp(AWS2, text)}"
    ]
    assert not any(value in out + err for value in VALUES)


def _fp(value: str, baseline_text: str) -> str:
    return _baseline.fingerprint(bytes.fromhex(json.loads(baseline_text)["salt"]), value)


def test_baseline_matches_on_another_machine_and_from_another_path_form(
    tree: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    run(capsys, "scan-secrets", "--baseline", "b.json", "--update-baseline", ".")
    monkeypatch.setenv("AGENTOPS_FINGERPRINT_KEY_FILE", str(tree / "other-machine.key"))
    code, out, _ = run(capsys, "scan-secrets", "--baseline", "b.json", "src", "s.jsonl")
    assert code == 0, out


def test_the_same_value_twice_needs_two_entries(tree: Path, capsys: Any) -> None:
    run(capsys, "scan-secrets", "--baseline", "b.json", "--update-baseline", ".")
    settings = tree / "src" / "settings.py"
    settings.write_text(settings.read_text() + f"AGAIN = '{AWS}'\n", encoding="utf-8")
    code, out, _ = run(capsys, "scan-secrets", "--baseline", "b.json", ".")
    assert code == 3 and "1 finding(s)" in out and "2 accepted by baseline" in out


def test_update_keeps_the_salt(tree: Path, capsys: Any) -> None:
    run(capsys, "scan-secrets", "--baseline", "b.json", "--update-baseline", ".")
    salt = json.loads((tree / "b.json").read_text())["salt"]
    (tree / "src" / "settings.py").write_text("clean\n", encoding="utf-8")
    run(capsys, "scan-secrets", "--baseline", "b.json", "--update-baseline", ".")
    again = json.loads((tree / "b.json").read_text())
    assert again["salt"] == salt and len(again["findings"]) == 1


def test_a_resolved_finding_is_reported_as_not_seen(tree: Path, capsys: Any) -> None:
    run(capsys, "scan-secrets", "--baseline", "b.json", "--update-baseline", ".")
    (tree / "src" / "settings.py").write_text("clean\n", encoding="utf-8")
    code, out, _ = run(capsys, "scan-secrets", "--baseline", "b.json", ".")
    assert code == 0 and "1 accepted by baseline b.json, 1 baseline entry not seen" in out


@pytest.mark.parametrize(
    "content",
    [
        "",
        "not json",
        "[]",
        '{"agentops_baseline": 2, "salt": "' + "0" * 64 + '", "findings": []}',
        '{"agentops_baseline": 1, "salt": "xyz", "findings": []}',
        '{"agentops_baseline": 1, "salt": "' + "0" * 64 + '"}',
        '{"agentops_baseline": 1, "salt": "' + "0" * 64 + '", "findings": [1]}',
        '{"agentops_baseline": 1, "salt": "'
        + "0" * 64
        + '", "findings": [{"path": "a", "shape": "aws-key", "fingerprint": "zz"}]}',
        "[" * 100_000,
    ],
)
def test_a_baseline_that_does_not_parse_is_a_usage_error(
    tree: Path, capsys: Any, content: str
) -> None:
    (tree / "b.json").write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "scan-secrets", "--baseline", "b.json", ".")
    assert code == 2 and "baseline b.json is not usable" in err and out == ""
    code, _, _ = run(capsys, "scan-secrets", "--baseline", "b.json", "--update-baseline", ".")
    assert code == 2 and (tree / "b.json").read_text(encoding="utf-8") == content


def test_baseline_usage_errors(tree: Path, capsys: Any) -> None:
    code, _, err = run(capsys, "scan-secrets", "--baseline", "missing.json", ".")
    assert code == 2 and "does not exist" in err
    code, _, err = run(capsys, "scan-secrets", "--update-baseline", ".")
    assert code == 2 and "--update-baseline needs --baseline" in err
    (tree / "bad.json").write_bytes(b"\xff\xfe")
    assert run(capsys, "scan-secrets", "--baseline", "bad.json", ".")[0] == 2


def test_a_blind_sweep_writes_no_baseline(tree: Path, capsys: Any) -> None:
    code, _, err = run(
        capsys, "scan-secrets", "--baseline", "b.json", "--update-baseline", "blob.bin"
    )
    assert code == 4 and not (tree / "b.json").exists() and "not written" in err


def test_a_baseline_file_scans_clean(tree: Path, capsys: Any) -> None:
    run(capsys, "scan-secrets", "--baseline", "b.json", "--update-baseline", ".")
    assert run(capsys, "scan-secrets", "b.json")[0] == 0


entries = st.lists(
    st.tuples(
        st.sampled_from(["a.py", "b/c.py"]),
        st.sampled_from(["aws-key", "github-token"]),
        st.sampled_from(["0badc0de", "12345678"]),
    ),
    max_size=8,
)


@given(entries, entries)
def test_split_new_is_a_multiset_difference(recorded: list[Any], found: list[Any]) -> None:
    baseline = _baseline.parse(_baseline.render("ab" * 32, recorded))
    verdicts, unmatched = _baseline.split_new(baseline, found)
    new = [entry for entry, is_new in zip(found, verdicts, strict=True) if is_new]
    assert Counter(new) == Counter(found) - Counter(recorded)
    assert unmatched == sum((Counter(recorded) - Counter(found)).values())


def test_render_parse_round_trip() -> None:
    recorded = [("a.py", "aws-key", "0badc0de"), ("a.py", "aws-key", "0badc0de")]
    parsed = _baseline.parse(_baseline.render("AB" * 32, recorded))
    assert parsed.salt == "ab" * 32 and parsed.entries == Counter(recorded)


# ---------------------------------------------------------------- --jobs and progress


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    for index in range(60):
        folder = tmp_path / f"d{index % 7}"
        folder.mkdir(exist_ok=True)
        value = VALUES[index % 3]
        text = f"line\n{'x' * index} {value}\n" if index % 4 else "clean\n"
        (folder / f"f{index:02}.txt").write_text(text, encoding="utf-8")
    (tmp_path / "s.jsonl").write_text(json.dumps({"a": [AWS]}) + "\nbad " + AWS + "\n", "utf-8")
    (tmp_path / "b.bin").write_bytes(b"\x00")
    return tmp_path


@pytest.mark.parametrize("form", [[], ["--json"], ["--format", "sarif"], ["--counts-only"]])
def test_jobs_give_identical_output_in_the_same_order(
    archive: Path, capsys: Any, form: list[str]
) -> None:
    single = run(capsys, "scan-secrets", "--jobs", "1", *form, str(archive))
    multi = run(capsys, "scan-secrets", "--jobs", "3", *form, str(archive))
    assert single == multi
    assert single[0] == 3 and "aws-key" in single[1] and "github-token" in single[1]


@pytest.mark.parametrize("bad", ["0", "-2", "two", "1.5"])
def test_jobs_must_be_a_positive_whole_number(capsys: Any, bad: str) -> None:
    code, _, err = run(capsys, "scan-secrets", "--jobs", bad, ".")
    assert code == 2 and "--jobs" in err


def _on_a_terminal(*args: str) -> tuple[int, str]:
    """Run the command with stderr on a pseudo-terminal; return (exit, what the terminal got)."""
    leader, follower = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "AGENTOPS_DISABLED"}
    env["PYTHONPATH"] = str(ROOT)
    process = subprocess.Popen(
        [sys.executable, "-m", "agentops", *args],
        stdout=subprocess.DEVNULL,
        stderr=follower,
        env=env,
    )
    os.close(follower)
    seen = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 30)
        if not ready:
            break
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    return process.wait(timeout=60), seen.decode("utf-8", "replace")


def test_progress_line_on_a_terminal_only(archive: Path, capsys: Any) -> None:
    code, terminal = _on_a_terminal("scan-secrets", "--jobs", "2", str(archive))
    assert code == 3
    assert "\rscanned " in terminal and "files/s" in terminal and " left" in terminal
    code, terminal = _on_a_terminal("scan-secrets", "--quiet", str(archive))
    assert code == 3 and "scanned " not in terminal
    _, _, err = run(capsys, "scan-secrets", str(archive))  # stderr captured: not a terminal
    assert "scanned " not in err and "\r" not in err


SALT = "ab" * 16


@pytest.mark.parametrize(
    "entry",
    [
        {"shape": "aws-key", "fingerprint": "0badc0de"},
        {"path": "a.py", "fingerprint": "0badc0de"},
        {"path": "a.py", "shape": "aws-key"},
        {"path": 1, "shape": "aws-key", "fingerprint": "0badc0de"},
        {"path": "", "shape": "aws-key", "fingerprint": "0badc0de"},
        {"path": "a.py", "shape": "", "fingerprint": "0badc0de"},
        {"path": "a.py", "shape": "aws-key", "fingerprint": "0badc0d"},
        {"path": "a.py", "shape": "aws-key", "fingerprint": "0badc0dg"},
    ],
)
def test_each_malformed_entry_is_refused(entry: dict[str, Any]) -> None:
    text = json.dumps({"agentops_baseline": 1, "salt": SALT, "findings": [entry]})
    with pytest.raises(_baseline.BaselineError, match=r"findings\[0\]"):
        _baseline.parse(text)


def test_salt_and_render_format() -> None:
    salt = _baseline.new_salt()
    assert len(salt) == 32 and int(salt, 16) >= 0
    text = _baseline.render(salt, [("a.py", "aws-key", "0badc0de")])
    assert text.startswith('{\n  "agentops_baseline": 1,\n') and text.endswith("}\n")
    assert _baseline.parse(text).salt == salt


def test_key_file_in_an_existing_folder_and_a_lost_race(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key_file = tmp_path / "fingerprint.key"
    monkeypatch.setenv("AGENTOPS_FINGERPRINT_KEY_FILE", str(key_file))
    key, kept = _baseline.machine_key()
    assert kept and key_file.read_text().strip() == key.hex()
    key_file.write_text("cd" * 16 + "\n")  # a 16-byte key is long enough
    assert _baseline.machine_key() == (bytes.fromhex("cd" * 16), True)
    key_file.unlink()
    other = bytes(range(16, 48))
    real_makedirs = os.makedirs

    def another_run_wins(path: str, mode: int = 0o777, exist_ok: bool = False) -> None:
        real_makedirs(path, mode=mode, exist_ok=exist_ok)
        key_file.write_text(other.hex() + "\n")  # written between our read and our create

    monkeypatch.setattr(os, "makedirs", another_run_wins)
    assert _baseline.machine_key() == (other, True)
