"""`agentops hooks print|install`: the settings block for every agentops hook, merged in one step.

`hooks print [--harness H]` prints the hooks block for Claude Code (default),
Codex CLI or Gemini CLI. `hooks install --project|--user [--harness H]` merges
it into that harness's settings file:

| harness | `--project` (under `--dir`, default .) | `--user`                  |
|---------|-----------------------------------------|---------------------------|
| claude  | `.claude/settings.json`                 | `~/.claude/settings.json` |
| codex   | `.codex/hooks.json`                     | `~/.codex/hooks.json`     |
| gemini  | `.gemini/settings.json`                 | `~/.gemini/settings.json` |

The merge keeps every existing key and hook. A group is added to an event only
when no hook already registered for that event runs the same command, so a
second run changes nothing. Before a file is changed, its old content is copied
beside it (`<name>.agentops-backup`, numbered when that exists); the new
content is written to a temporary file and renamed over the old one. A file
that is not a JSON object (or repeats a key, or whose `hooks` or an event's
list has the wrong type) is refused with exit 2 and nothing is written.

Commands run the interpreter that runs this command (`<python> -m agentops`),
or `--command PREFIX`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import sys
from typing import Any

from agentops.cli import _common, _hook_common

TIMEOUT_SECONDS = 10
BACKUP_SUFFIX = ".agentops-backup"
MAX_SETTINGS_BYTES = 8 << 20
SETTINGS_FILES = {
    _hook_common.CLAUDE: (".claude", "settings.json"),
    _hook_common.CODEX: (".codex", "hooks.json"),
    _hook_common.GEMINI: (".gemini", "settings.json"),
}
# (event, matcher or None, hook arguments) per harness.
CLAUDE_SEARCH = "WebSearch|WebFetch|Grep|Glob|mcp__.*"
CLAUDE_READS = "Bash|Read|Grep|WebFetch|WebSearch|mcp__.*"
GEMINI_SEARCH = "google_web_search|web_fetch|search_file_content|grep_search|glob|mcp__.*"
GEMINI_READS = (
    "run_shell_command|read_file|read_many_files|search_file_content|grep_search"
    "|web_fetch|google_web_search|mcp__.*"
)
GEMINI_LOCAL = "run_shell_command read_file read_many_files search_file_content grep_search"
PLAN: dict[str, list[tuple[str, str | None, str]]] = {
    _hook_common.CLAUDE: [
        ("UserPromptSubmit", None, "hook user-prompt-submit"),
        ("PreToolUse", CLAUDE_SEARCH, "hook loop-guard"),
        ("PreToolUse", "Write|Edit|MultiEdit", "hook memory-write"),
        ("PostToolUse", CLAUDE_READS, "hook post-tool-use --redact --trusted Bash Read Grep"),
        ("Stop", None, "hook stop --git"),
    ],
    _hook_common.CODEX: [
        ("PostToolUse", "mcp__.*", "hook post-tool-use --redact --harness codex"),
        ("Stop", None, "hook stop --git --harness codex"),
    ],
    _hook_common.GEMINI: [
        ("BeforeAgent", None, "hook user-prompt-submit --harness gemini"),
        ("BeforeTool", GEMINI_SEARCH, "hook loop-guard --harness gemini"),
        ("BeforeTool", "write_file|replace|save_memory", "hook memory-write --harness gemini"),
        (
            "AfterTool",
            GEMINI_READS,
            f"hook post-tool-use --redact --harness gemini --trusted {GEMINI_LOCAL}",
        ),
        ("AfterAgent", None, "hook stop --git --harness gemini"),
    ],
}


class Refused(Exception):
    """The settings file cannot be merged safely."""


def register(commands: _common.Subcommands, hooks: _common.Subcommands) -> None:
    group = commands.add_parser("hooks", help="print or install the settings for all hooks")
    verbs = group.add_subparsers(title="verbs", metavar="VERB")
    show = verbs.add_parser("print", help="print the hooks settings block")
    install = verbs.add_parser("install", help="merge the hooks into a settings file")
    for parser in (show, install):
        _hook_common.add_harness_option(parser)
        parser.add_argument(
            "--command",
            metavar="PREFIX",
            help="how hooks start agentops (default: this interpreter with -m agentops)",
        )
    where = install.add_mutually_exclusive_group(required=True)
    where.add_argument("--project", action="store_true", help="the project's settings file")
    where.add_argument("--user", action="store_true", help="the user's settings file")
    install.add_argument("--dir", default=".", help="project root for --project (default .)")
    show.set_defaults(run=run_print)
    install.set_defaults(run=run_install)


def settings_block(harness: str, prefix: str) -> dict[str, Any]:
    """`{"hooks": {event: [group, ...]}}` for `harness`, commands starting with `prefix`."""
    timeout = TIMEOUT_SECONDS * 1000 if harness == _hook_common.GEMINI else TIMEOUT_SECONDS
    events: dict[str, list[dict[str, Any]]] = {}
    for event, matcher, arguments in PLAN[harness]:
        hook = {"type": "command", "command": f"{prefix} {arguments}", "timeout": timeout}
        group: dict[str, Any] = {"matcher": matcher} if matcher is not None else {}
        group["hooks"] = [hook]
        events.setdefault(event, []).append(group)
    return {"hooks": events}


def _prefix(args: argparse.Namespace) -> str:
    return args.command or f"{shlex.quote(sys.executable)} -m agentops"


def run_print(args: argparse.Namespace) -> int:
    print(json.dumps(settings_block(args.harness, _prefix(args)), indent=2))
    return _common.EXIT_OK


def settings_path(harness: str, user: bool, project_dir: str) -> str:
    folder, name = SETTINGS_FILES[harness]
    root = os.path.expanduser("~") if user else project_dir
    return os.path.abspath(os.path.join(root, folder, name))


def run_install(args: argparse.Namespace) -> int:
    path = settings_path(args.harness, args.user, args.dir)
    try:
        current, existed = _load(path)
        added = merge(current, settings_block(args.harness, _prefix(args)))
    except Refused as exc:
        _common.say_error(f"{_common.printable(path)}: {exc}; nothing written")
        return _common.EXIT_USAGE
    if not added:
        print(f"{_common.printable(path)}: every agentops hook is already installed; unchanged")
        return _common.EXIT_OK
    backup = _backup(path) if existed else None
    _write(path, current)
    print(f"{_common.printable(path)}: added {len(added)} hook group(s)")
    for event, command in added:
        print(f"  {event}: {_common.printable(command)}")
    if backup:
        print(f"  previous version kept as {_common.printable(backup)}")
    return _common.EXIT_OK


def _load(path: str) -> tuple[dict[str, Any], bool]:
    """The settings at `path` and whether the file exists: read by `_common.read_regular`
    (a link is followed, as a dotfile manager's is meant to be; a FIFO or device is
    refused at once, never waited on), capped at `MAX_SETTINGS_BYTES`."""
    try:
        data = _common.read_regular(path, limit=MAX_SETTINGS_BYTES, follow_links=True)
    except _common.FileNotRead as exc:
        if exc.missing:
            return {}, False
        raise Refused(f"it is {exc}") from None
    try:
        text = data.decode("utf-8-sig")
        document = _common.loads_strict(text) if text.strip() else {}
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise Refused(f"it is not valid JSON ({exc})") from exc
    if not isinstance(document, dict):
        raise Refused("it is not a JSON object")
    return document, True


def merge(settings: dict[str, Any], block: dict[str, Any]) -> list[tuple[str, str]]:
    """Add `block`'s groups to `settings` in place; (event, command) of each added."""
    hooks = settings.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise Refused('its "hooks" is not an object')
    added: list[tuple[str, str]] = []
    for event, groups in block["hooks"].items():
        present = hooks.setdefault(event, [])
        if not isinstance(present, list):
            raise Refused(f'its "hooks.{event}" is not a list')
        commands = _commands(present)
        for group in groups:
            command = group["hooks"][0]["command"]
            if command in commands:
                continue
            present.append(group)
            commands.add(command)
            added.append((event, command))
    return added


def _commands(groups: list[Any]) -> set[str]:
    found: set[str] = set()
    for group in groups:
        entries = group.get("hooks") if isinstance(group, dict) else None
        for hook in entries if isinstance(entries, list) else []:
            if isinstance(hook, dict) and isinstance(hook.get("command"), str):
                found.add(hook["command"])
    return found


def _backup(path: str) -> str:
    import shutil  # imported here: every command start pays for module-level imports

    candidate = path + BACKUP_SUFFIX
    number = 1
    while os.path.lexists(candidate):
        candidate = f"{path}{BACKUP_SUFFIX}.{number}"
        number += 1
    shutil.copy2(path, candidate)
    return candidate


def _write(path: str, settings: dict[str, Any]) -> None:
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    mode = 0o644
    with contextlib.suppress(FileNotFoundError):
        mode = os.stat(path).st_mode & 0o777
    temporary = f"{path}.{os.getpid()}.agentops-tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _common.O_NOFOLLOW | _common.O_CLOEXEC
    fd = os.open(temporary, flags, mode)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(settings, indent=2, ensure_ascii=False) + "\n")
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        if os.path.lexists(temporary):
            os.unlink(temporary)
        raise
