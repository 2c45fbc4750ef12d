"""The benign corpus every benchmark shares: the standard library's own `.py`
sources, cut into fixed-size chunks (a typical tool-result paragraph or memory
candidate). Found with `sysconfig` at run time, so nothing is shipped."""

from __future__ import annotations

import os
import sysconfig

CHUNK = 2000


def stdlib_chunks(limit_chars: int, chunk: int = CHUNK) -> list[str]:
    """Chunks of the stdlib sources that read as UTF-8, in a stable order, until
    about `limit_chars` characters are collected."""
    root = sysconfig.get_paths()["stdlib"]
    chunks: list[str] = []
    total = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in ("site-packages", "__pycache__"))
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            try:
                with open(os.path.join(folder, name), encoding="utf-8") as handle:
                    source = handle.read()
            except (OSError, UnicodeDecodeError):
                continue
            for at in range(0, len(source), chunk):
                chunks.append(source[at : at + chunk])
                total += len(chunks[-1])
                if total >= limit_chars:
                    return chunks
    return chunks
