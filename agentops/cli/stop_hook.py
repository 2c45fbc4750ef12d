"""`agentops hook stop [--git]`: hold an answer that claims work the turn did not do.

A Stop hook (Gemini CLI: AfterAgent). When the agent finishes, it takes

- the answer: `last_assistant_message` when the input carries it (Claude Code,
  Codex CLI), Gemini's `prompt_response`, else the last assistant text of the
  transcript;
- the record of what the turn wrote: the `Write`, `Edit`, `MultiEdit` and
  `NotebookEdit` calls since the last user prompt in the Claude Code transcript
  (`transcript_path`, JSON lines, read backwards from the end in bounded
  chunks; a call whose result was an error wrote nothing), plus, with `--git`,
  every path `git status` reports changed or untracked under `cwd`;

and runs `claim_audit.audit`. On false claims it answers
`{"decision": "block", "reason": ...}` (Gemini CLI: `"deny"`), naming each
claimed file and what the record shows, so the agent corrects its answer or
does the work. It never blocks twice in a row: when `stop_hook_active` is true
it has no opinion.

Codex CLI and Gemini CLI transcripts are not read (their formats differ): there
the record is `git status` alone, so without `--git` the answer is not audited.

Fail OPEN: malformed input, a transcript that is missing, truncated mid-line or
not JSON lines, and any error give no output (the agent stops normally) and one
line on stderr saying "not audited". The exit status is always 0.
`AGENTOPS_DISABLED=1` exits 0 with no output.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Iterator
from typing import Any, NamedTuple

from agentops.cli import _common, _hook_common

HOOK = "stop"
# The tools whose calls are the record of what a turn wrote, and their path field.
WRITE_TOOLS = {
    "Write": "file_path",
    "Edit": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
}
CHUNK_BYTES = 1 << 20
MAX_LINE_BYTES = 16 << 20  # a longer transcript line is skipped unread (a tool result)
GIT_TIMEOUT_SECONDS = 5.0
SHOWN_CLAIMS = 10


class NotAudited(Exception):
    """The answer or the record could not be read: no verdict at all."""


class Turn(NamedTuple):
    answer: str | None  # the last assistant text, None when the turn has none
    written: tuple[str, ...]  # paths the turn's successful write calls named


def register(commands: _common.Subcommands, hooks: _common.Subcommands) -> None:
    parser = hooks.add_parser(
        HOOK, help="Stop: block an answer whose file claims the turn's record contradicts"
    )
    parser.add_argument(
        "--git",
        action="store_true",
        help="count files git status reports changed under cwd as written",
    )
    _hook_common.add_harness_option(parser)
    parser.set_defaults(run=run, crash_exit=_common.EXIT_OK)


def run(args: argparse.Namespace) -> int:
    if _common.disabled():
        return _common.EXIT_OK
    try:
        reply = _reply(args)
        if reply:
            _hook_common.emit(reply)
    except NotAudited as exc:
        _hook_common.note(HOOK, f"not audited: {exc}")
    except Exception as exc:  # fail open: a broken audit must not trap the agent
        _hook_common.note(HOOK, f"not audited: {type(exc).__name__}: {exc}")
    return _common.EXIT_OK


def _reply(args: argparse.Namespace) -> dict[str, Any]:
    from agentops import claim_audit

    try:
        data = _hook_common.read_event()
    except ValueError as exc:
        raise NotAudited("hook input is not JSON") from exc
    if not isinstance(data, dict):
        raise NotAudited("hook input is not a JSON object")
    harness = _hook_common.dialect(data, args.harness, _hook_common.STOP)
    if harness is None or data.get("stop_hook_active") is True:
        return {}
    answer, written = _answer_and_record(data, harness, args.git)
    result = claim_audit.audit(answer, written)
    if not result.audited:
        raise NotAudited("claim_audit could not read the answer or the record")
    if not result.false_claims:
        return {}
    reason = _reason(result.false_claims, args.git, harness)
    decision = "deny" if harness == _hook_common.GEMINI else "block"
    return {"decision": decision, "reason": reason}


def _answer_and_record(data: dict[str, Any], harness: str, git: bool) -> tuple[str, list[str]]:
    field = "prompt_response" if harness == _hook_common.GEMINI else "last_assistant_message"
    answer = data.get(field)
    written: list[str] = []
    if harness == _hook_common.CLAUDE:
        turn = read_turn(data.get("transcript_path"))
        written.extend(turn.written)
        if not isinstance(answer, str):
            answer = turn.answer
    elif not git:
        raise NotAudited(f"the {harness} transcript is not read; add --git for a record")
    if not isinstance(answer, str):
        raise NotAudited("no assistant answer in the input or the transcript")
    if git:
        written.extend(_git_changes(data.get("cwd")))
    return answer, written


def _reason(claims: Any, git: bool, harness: str) -> str:
    record = "no Write, Edit, MultiEdit or NotebookEdit call in this turn"
    if harness != _hook_common.CLAUDE:
        record = "git status"
    if git and harness == _hook_common.CLAUDE:
        record += " and no change git status shows"
    lines = [
        "agentops claim audit: your answer reports changes to files that the record of"
        " this turn does not show."
    ]
    for claim in list(claims)[:SHOWN_CLAIMS]:
        lines.append(
            f'- answer line {claim.line}: "{claim.verb} {claim.path}"; {record}'
            f" touched {claim.path}."
        )
    if len(claims) > SHOWN_CLAIMS:
        lines.append(f"- and {len(claims) - SHOWN_CLAIMS} more such claims.")
    lines.append(
        "Either make those changes now, or correct the answer so that it reports only"
        " what was done (if a file was changed another way, for example by a shell"
        " command, say so)."
    )
    return "\n".join(lines)


# --------------------------------------------------------------------------- transcript


def read_turn(path: object) -> Turn:
    """The last assistant text and the written paths of the transcript's last turn."""
    if not isinstance(path, str) or not path:
        raise NotAudited("no transcript_path")
    errored: set[str] = set()
    written: list[str] = []
    answer_parts: list[str] = []
    answer_done = False
    try:
        for entry in _entries_backwards(path):
            kind = entry.get("type")
            message = entry.get("message")
            content = message.get("content") if isinstance(message, dict) else None
            if kind == "user":
                if _is_prompt(entry, content):
                    break
                answer_done = True
                errored.update(_errored_results(content))
            elif kind == "assistant" and isinstance(content, list):
                uses = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_use"]
                if uses:
                    answer_done = True
                elif not answer_done:
                    texts = [
                        b.get("text")
                        for b in content
                        if isinstance(b, dict) and b.get("type") == "text"
                    ]
                    answer_parts[:0] = [t for t in texts if isinstance(t, str)]
                written.extend(_written_paths(uses, errored))
    except OSError as exc:
        raise NotAudited(f"transcript unreadable: {exc.strerror or exc}") from exc
    answer = "\n".join(answer_parts) if answer_parts else None
    return Turn(answer, tuple(written))


def _is_prompt(entry: dict[str, Any], content: object) -> bool:
    """A user entry the person typed (not a tool result, not a harness note)."""
    if entry.get("isMeta") is True:
        return False
    if isinstance(content, str):
        return True
    if isinstance(content, list):
        return not any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content)
    return False


def _errored_results(content: object) -> Iterator[str]:
    if not isinstance(content, list):
        return
    for block in content:
        if isinstance(block, dict) and block.get("type") == "tool_result":
            tool_use_id = block.get("tool_use_id")
            if block.get("is_error") is True and isinstance(tool_use_id, str):
                yield tool_use_id


def _written_paths(uses: list[dict[str, Any]], errored: set[str]) -> Iterator[str]:
    for use in uses:
        name = use.get("name")
        field = WRITE_TOOLS.get(name) if isinstance(name, str) else None
        arguments = use.get("input")
        if field is None or not isinstance(arguments, dict) or use.get("id") in errored:
            continue
        target = arguments.get(field)
        if isinstance(target, str) and target:
            yield target


def _entries_backwards(path: str) -> Iterator[dict[str, Any]]:
    """The transcript's JSON objects, last line first, reading bounded chunks from
    the end; a line that is not a JSON object, or a last line cut short, makes
    the whole transcript unreadable (NotAudited)."""
    for number, line in enumerate(_lines_backwards(path)):
        if line is None:
            continue  # an over-long line, skipped unread
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except (ValueError, RecursionError) as exc:
            where = "its last line is cut short" if number == 0 else "a line is not JSON"
            raise NotAudited(f"transcript {where}") from exc
        if not isinstance(entry, dict):
            raise NotAudited("transcript line is not a JSON object")
        yield entry


def _lines_backwards(path: str) -> Iterator[bytes | None]:
    """Lines of `path` from the last to the first (None for one longer than
    MAX_LINE_BYTES), holding at most one chunk plus one line in memory."""
    try:  # follows a link (the harness names the file); a FIFO is refused, never waited on
        fd = _common.open_regular(path, follow_links=True)
    except _common.FileNotRead as exc:
        raise NotAudited(f"transcript {exc.reason}") from None
    with os.fdopen(fd, "rb") as handle:
        position = handle.seek(0, os.SEEK_END)
        if position == 0:
            raise NotAudited("transcript is empty")
        pending = b""  # the start of the line being assembled (its end read already)
        skipping = False  # inside an over-long line
        while position > 0:
            step = min(CHUNK_BYTES, position)
            position -= step
            handle.seek(position)
            chunk = handle.read(step)
            pieces = chunk.split(b"\n")
            pieces[-1] += pending
            pending = pieces[0]
            for piece in reversed(pieces[1:]):
                yield None if skipping else piece
                skipping = False
            if len(pending) > MAX_LINE_BYTES:
                pending, skipping = b"", True
        yield None if skipping else pending


# --------------------------------------------------------------------------- git


def _git_changes(cwd: object) -> list[str]:
    """Absolute paths git status reports changed, staged, untracked or renamed."""
    if not isinstance(cwd, str) or not os.path.isdir(cwd):
        raise NotAudited("--git needs the hook input's cwd")
    try:
        top = _git(cwd, "rev-parse", "--show-toplevel").strip()
        listing = _git(top, "status", "--porcelain=v1", "-z", "--untracked-files=all")
    except OSError as exc:
        raise NotAudited(f"git status failed: {exc}") from exc
    paths: list[str] = []
    entries = listing.split("\0")
    index = 0
    while index < len(entries):
        entry = entries[index]
        index += 1
        if len(entry) < 4:
            continue
        paths.append(os.path.join(top, entry[3:]))
        if entry[0] in "RC":  # a rename or copy: the next field is the source
            if index < len(entries):
                paths.append(os.path.join(top, entries[index]))
            index += 1
    return paths


def _git(cwd: str, *argv: str) -> str:
    """git's stdout; any failure (not installed, not a repository, timeout) is an OSError."""
    import subprocess  # imported here: every command start pays for module-level imports

    try:
        done = subprocess.run(
            ["git", "-C", cwd, *argv],
            capture_output=True,
            timeout=GIT_TIMEOUT_SECONDS,
            check=True,
        )
    except subprocess.SubprocessError as exc:
        raise OSError(str(exc)) from exc
    return done.stdout.decode("utf-8", "surrogateescape")
