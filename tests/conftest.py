"""Shared test setup: hypothesis profiles and fixtures. Helpers tests import live in
`support.py` (pytest advises against importing conftest)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

# "ci" is deterministic so a red CI run can be replayed exactly; "dev" explores more.
settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=150,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, max_examples=150)
# Used by .ci/mutation_probe.py: fewer examples so each mutant runs quickly.
settings.register_profile(
    "mutation",
    derandomize=True,
    deadline=None,
    max_examples=40,
    suppress_health_check=list(HealthCheck),
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture
def far_zone(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The host's local zone set to UTC+05:30 (a POSIX TZ string, so no tz database is
    needed): a verdict that leans on local time shows."""
    monkeypatch.setenv("TZ", "IST-05:30")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()
