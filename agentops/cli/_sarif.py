"""SARIF 2.1.0 output, in the subset GitHub code scanning reads.

One run per document; one rule per shape (secret shapes) or category (hidden
characters), each result pointing at its rule by id and index; locations are
artifact URIs relative to the working directory (`/`-separated, percent-encoded)
with a line (code scanning needs one) and a column when the file's text has
one, and a logical location (a JSON
path, a database table and column) when it has that. No field ever holds a
scanned value: messages name the shape and the place. Files that could not be
read are listed as tool notifications, so a skipped file is not silent here
either.
"""

from __future__ import annotations

import os
import urllib.parse
from typing import Any, NamedTuple

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
VERSION = "2.1.0"
INFORMATION_URI = "https://pypi.org/project/agentops-guards/"


class Result(NamedTuple):
    rule_id: str
    message: str
    path: str
    line: int  # 1-based; code scanning places every result on a line
    column: int = 0  # 1-based; 0 when the column is not in the file's text
    logical: str = ""  # JSON path, "table.column[rowid=N]", ...
    fingerprint: str = ""


def artifact_uri(path: str) -> str:
    """A relative `/`-separated, percent-encoded URI for a path under the working
    directory; a `file://` URI for one outside it."""
    absolute = os.path.abspath(path)
    try:
        relative = os.path.relpath(absolute)
    except ValueError:
        relative = ".."
    if relative == ".." or relative.startswith(".." + os.sep):
        return "file://" + urllib.parse.quote(absolute.replace(os.sep, "/"), safe="/")
    return urllib.parse.quote(relative.replace(os.sep, "/"), safe="/")


def document(
    tool: str,
    version: str,
    rules: dict[str, str],
    results: list[Result],
    not_read: list[tuple[str, str]],
    *,
    level: str = "error",
) -> dict[str, Any]:
    """The SARIF log. `rules` maps rule id to a one-line description; `not_read` is
    (path, reason) for every file or part of a file that was not read."""
    rule_ids = sorted(set(rules) | {r.rule_id for r in results})
    index = {rule_id: position for position, rule_id in enumerate(rule_ids)}
    return {
        "$schema": SCHEMA,
        "version": VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": tool,
                        "version": version,
                        "informationUri": INFORMATION_URI,
                        "rules": [
                            _rule(rule_id, rules.get(rule_id, rule_id)) for rule_id in rule_ids
                        ],
                    }
                },
                "columnKind": "unicodeCodePoints",
                "invocations": [_invocation(not_read)],
                "results": [_result(r, index[r.rule_id], level) for r in results],
            }
        ],
    }


def _rule(rule_id: str, description: str) -> dict[str, Any]:
    return {
        "id": rule_id,
        "name": "".join(part.capitalize() for part in rule_id.replace("_", "-").split("-")),
        "shortDescription": {"text": description},
        "fullDescription": {"text": description},
        "defaultConfiguration": {"level": "error"},
    }


def _invocation(not_read: list[tuple[str, str]]) -> dict[str, Any]:
    return {
        "executionSuccessful": True,
        "toolExecutionNotifications": [
            {
                "level": "warning",
                "message": {"text": f"not read: {reason}"},
                "locations": [
                    {"physicalLocation": {"artifactLocation": {"uri": artifact_uri(path)}}}
                ],
            }
            for path, reason in not_read
        ],
    }


def _result(result: Result, rule_index: int, level: str) -> dict[str, Any]:
    region: dict[str, int] = {"startLine": max(result.line, 1)}
    if result.column > 0:
        region["startColumn"] = result.column
    physical = {"artifactLocation": {"uri": artifact_uri(result.path)}, "region": region}
    location: dict[str, Any] = {"physicalLocation": physical}
    if result.logical:
        location["logicalLocations"] = [{"fullyQualifiedName": result.logical}]
    out: dict[str, Any] = {
        "ruleId": result.rule_id,
        "ruleIndex": rule_index,
        "level": level,
        "message": {"text": result.message},
        "locations": [location],
    }
    if result.fingerprint:
        out["partialFingerprints"] = {"agentopsFingerprint/v1": result.fingerprint}
    return out
