"""Tests for the hooks' private support: depth-proof JSON and per-session state."""

from __future__ import annotations

import json
import math
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentops.cli import _hook_json, _session_state

# --------------------------------------------------------------------------- JSON

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(st.characters(codec="utf-8")),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=20,
)


@given(json_values)
def test_iterative_reader_and_writer_agree_with_the_standard_library(value: Any) -> None:
    text = json.dumps(value)
    assert _hook_json._loads_iterative(text) == json.loads(text)
    assert _hook_json.dumps(value) == text
    pretty = json.dumps(value, indent=1)
    assert _hook_json._loads_iterative(pretty) == json.loads(pretty)
    compact = json.dumps(value, separators=(",", ":"))
    assert _hook_json._loads_iterative(compact) == json.loads(compact)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{",
        "[1,]",
        "[1 2]",
        '{"a" 1}',
        '{"a": 1,}',
        "{1: 2}",
        '"unterminated',
        "[1] x",
        "tru",
        "01",
        '"\x01"',
    ],
)
def test_iterative_reader_refuses_what_json_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(ValueError):
        _hook_json._loads_iterative(text)


@pytest.mark.parametrize("text", ["[" * 3000, "[" * 3000 + "]" * 2999, "[" * 3000 + "]" * 3001])
def test_deep_malformed_input_is_a_value_error(text: str) -> None:
    with pytest.raises(ValueError):
        _hook_json.loads(text)


def test_constants_and_numbers_like_the_standard_library() -> None:
    text = '[NaN, Infinity, -Infinity, -0, 1e5, 1.5E-3, -2, true, false, null, "\\u00e9"]'
    got = _hook_json._loads_iterative(text)
    assert math.isnan(got[0]) and got[1:3] == [math.inf, -math.inf]
    assert got[3:] == json.loads(text)[3:]
    assert _hook_json.dumps({"k": float("nan")}) == json.dumps({"k": float("nan")})


def test_any_depth_reads_and_writes() -> None:
    depth = 200_000
    text = '{"a": ' * depth + "[]" + "}" * depth
    value = _hook_json.loads(text)
    assert _hook_json.dumps(value) == text
    with pytest.raises(RecursionError):
        json.loads(text)


def test_duplicate_keys_last_wins_like_the_standard_library() -> None:
    text = '{"a": 1, "a": 2}'
    assert _hook_json._loads_iterative(text) == json.loads(text) == {"a": 2}


# --------------------------------------------------------------------------- state


def test_store_created_private(tmp_path: Path) -> None:
    store = tmp_path / "missing" / "store"
    path = _session_state.session_path(str(store), "s")
    for folder in (store.parent, store, store / "sessions"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert os.path.dirname(path) == str(store / "sessions")
    assert _session_state.read(path) is None


def test_session_id_cannot_name_a_path(tmp_path: Path) -> None:
    path = _session_state.session_path(str(tmp_path), "../../etc/passwd")
    name = os.path.basename(path)
    assert os.path.dirname(path) == str(tmp_path / "sessions")
    assert len(name) == 45 and name.endswith(".json") and "." not in name[:-5]


@pytest.mark.parametrize("mode", [0o770, 0o707, 0o777, 0o720])
def test_group_or_other_writable_store_refused(tmp_path: Path, mode: int) -> None:
    store = tmp_path / "store"
    store.mkdir()
    store.chmod(mode)
    with pytest.raises(_session_state.UnsafeStore):
        _session_state.session_path(str(store), "s")


def test_symlinked_store_refused(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    link = tmp_path / "link"
    link.symlink_to(real)
    with pytest.raises(_session_state.UnsafeStore):
        _session_state.session_path(str(link), "s")


def test_store_owned_by_someone_else_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "store"
    store.mkdir(mode=0o700)
    monkeypatch.setattr(os, "getuid", lambda: os.stat(store).st_uid + 1)
    with pytest.raises(_session_state.UnsafeStore):
        _session_state.session_path(str(store), "s")


def test_update_round_trip_and_corrupt_restart(tmp_path: Path) -> None:
    path = _session_state.session_path(str(tmp_path), "s")
    assert _session_state.update(path, lambda state: state.setdefault("n", 1)) == 1
    assert _session_state.read(path) == {"n": 1}
    Path(path).write_text("not json")
    with pytest.raises(_session_state.CorruptState):
        _session_state.read(path)
    _session_state.update(path, lambda state: state.update(fresh=True))
    assert _session_state.read(path) == {"fresh": True}
    Path(path).write_text("[1]")
    with pytest.raises(_session_state.CorruptState):
        _session_state.read(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o644 or True  # written by the test
    _session_state.update(path, lambda state: None)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_state_file_symlink_not_followed(tmp_path: Path) -> None:
    path = _session_state.session_path(str(tmp_path), "s")
    target = tmp_path / "elsewhere.json"
    target.write_text('{"sources": []}')
    os.symlink(target, path)
    with pytest.raises(OSError):
        _session_state.read(path)


def test_oversized_state_is_corrupt(tmp_path: Path) -> None:
    path = _session_state.session_path(str(tmp_path), "s")
    Path(path).write_text('{"a": "' + "x" * _session_state.MAX_STATE_BYTES + '"}')
    with pytest.raises(_session_state.CorruptState):
        _session_state.read(path)


def test_default_store_is_under_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert _session_state.store_path(None) == str(tmp_path / ".agentops")
    assert _session_state.store_path("~/x") == str(tmp_path / "x")


def test_non_ascii_state_round_trips(tmp_path: Path) -> None:
    path = _session_state.session_path(str(tmp_path), "sessión \u2603")
    _session_state.update(path, lambda state: state.update(sources=["mcp__café__q"]))
    assert _session_state.read(path) == {"sources": ["mcp__café__q"]}
    assert Path(path).read_bytes().isascii()


def test_state_exactly_at_the_cap_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _session_state.session_path(str(tmp_path), "s")
    monkeypatch.setattr(_session_state, "MAX_STATE_BYTES", 10)
    Path(path).write_text('{"a": "12"}')  # 11 bytes
    with pytest.raises(_session_state.CorruptState):
        _session_state.read(path)
    Path(path).write_text('{"a": "1"}')  # 10 bytes
    assert _session_state.read(path) == {"a": "1"}
