"""Redact secret-shaped spans in recalled memories before they reach a prompt.

Where this goes in a real stack: the point where a memory layer's search
results are turned into prompt text. Memory frameworks expose it as a search
call whose results you wrap (a `search(query)` returning a list of dicts with
a "memory" or "text" field), or as a node post-processor that runs on every
retrieved node before synthesis. Wrap there, at the final display boundary,
because text stored before any scrubber existed is still in the store.

Run: python examples/redact_recalled_memories.py
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a clone

from agentops.secret_redaction import redact_secret_shapes

Memory = dict[str, object]


def redacting_search(
    search: Callable[[str], list[Memory]], field: str = "memory"
) -> Callable[[str], list[Memory]]:
    """Wrap a memory layer's search so every returned text is redacted."""

    def wrapped(query: str) -> list[Memory]:
        results = []
        for hit in search(query):
            shown = dict(hit)  # never mutate the store's own objects
            shown[field] = redact_secret_shapes(hit.get(field)).text
            results.append(shown)
        return results

    return wrapped


def _toy_store_search(query: str) -> list[Memory]:
    """A stand-in for a real memory layer: one episode remembered a pasted key."""
    pasted = "AKIA" + "IOSFODNN7EXAMPLE"  # the vendor's documented example key
    return [
        {"id": 1, "memory": f"Debugged the deploy; the user pasted {pasted} by mistake."},
        {"id": 2, "memory": "Deploys go through the staging branch first."},
    ]


def main() -> None:
    search = redacting_search(_toy_store_search)
    for hit in search("how do deploys work?"):
        print(f"{hit['id']}: {hit['memory']}")


if __name__ == "__main__":
    main()
