"""Fuse a recency-ordered recall with keyword relevance, so the relevant old
hit is not buried under marginal recent ones.

Where this goes in a real stack: after a memory or log store returns its
newest-first candidates and before you cut them to the prompt budget. Hybrid
retrievers take the general form, `fuse_rankings`, to merge a keyword (BM25)
list with a vector list; this example shows both.

Run: python examples/fuse_recency_and_relevance.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a clone

from agentops.rrf_fuse import fuse_rankings, rrf_fuse


def keyword_score(text: str, query: str) -> float:
    """A toy relevance score: how many query words the text contains."""
    words = set(text.lower().split())
    return float(sum(word in words for word in query.lower().split()))


def main() -> None:
    query = "rollback procedure database migration"
    newest_first = [
        "lunch order for the team offsite",
        "renamed the staging bucket",
        "standup notes: nothing blocked",
        "database migration rollback procedure: restore snapshot, then replay",
    ]
    pool = [{"text": t, "score": keyword_score(t, query)} for t in newest_first]
    print("recency only, top 2:")
    for text in newest_first[:2]:
        print(f"  {text}")
    print("recency x relevance (rrf_fuse), top 2:")
    for fused in rrf_fuse(pool, limit=2):
        hit = fused.item
        assert isinstance(hit, dict)
        print(f"  {fused.score:.5f}  {hit['text']}")

    keyword_ids = ["doc-7", "doc-2", "doc-9"]
    vector_ids = ["doc-2", "doc-4", "doc-7"]
    print("hybrid keyword + vector (fuse_rankings):")
    for fused_id in fuse_rankings([keyword_ids, vector_ids], limit=3):
        print(f"  {fused_id.score:.5f}  {fused_id.id}  ranks={fused_id.ranks}")


if __name__ == "__main__":
    main()
