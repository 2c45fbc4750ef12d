"""A detector callable for frameworks that take one: it returns match records
`(type, value, start, end)` for every secret-shaped span.

Where this goes in a real stack: PII and guardrail middleware that accept a
custom detector (a function from text to a list of matches), so secrets are
masked by the same machinery that masks e-mail addresses and phone numbers.
The records carry the value because such middleware needs it to mask; never
log them. For logging, keep only the type and the offsets.

Run: python examples/secret_detector_adapter.py
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a clone

from agentops.secret_redaction import find_secret_shapes


class Match(NamedTuple):
    type: str
    value: str
    start: int
    end: int


def detect_secrets(text: str) -> list[Match]:
    """Every secret-shaped span of `text`, in text order."""
    return [Match(f.shape, text[f.start : f.end], f.start, f.end) for f in find_secret_shapes(text)]


def main() -> None:
    text = "export TOKEN=" + "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8" + " && make deploy"
    for match in detect_secrets(text):
        # Print the type and where it is; never the value itself.
        print(f"{match.type} at {match.start}-{match.end}")


if __name__ == "__main__":
    main()
