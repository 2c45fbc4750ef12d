"""Build tests/fixtures/benign_commands.txt from the example sections of man pages.

    python benchmarks/build_command_corpus.py [MANDIR]   (default /usr/share/man)

The corpus the gate's false-positive test runs on: real command lines that the
public documentation of common command-line tools (git, curl, wget, find, grep,
sed, awk, tar, ssh, scp, make, pip, jq, openssl, gpg, xargs, sort, systemctl,
dpkg, perl, python3, zip, gzip, sqlite3, psql, node, ...) shows as examples. A
line is taken when it is indented, starts with one of these program names (or a
`$ ` prompt), and holds no placeholder (`<name>`, `...`, `[options]`). Lines that do
what the starter policy denies (a force push, a recursive delete of /, a
download piped into a shell, a secrets file read, `--no-verify`) are left out:
they are not benign. Real bash has the last word on what is a command: a line
`bash -n` rejects (prose that happens to start with a program name) is dropped.
The result is deduplicated and sorted, one command a line;
commands of several lines are not taken. Rendering needs `man`; this script is a
developer tool, not part of the suite (the suite reads the data file).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

PROGRAMS = (  # noqa: SIM905 (a word list reads best as words)
    "git curl wget find grep sed awk gawk tar ssh scp make pip pip3 jq openssl gpg xargs "
    "sort systemctl dpkg perl python3 zip unzip gzip sqlite3 psql node ls cp mv chmod "
    "chown ln mkdir date du df ps kill tee wc uniq cut tr head tail diff patch "
    "apt apt-get apt-cache ssh-keygen ssh-add journalctl ip ss nc socat dig ping openssl "
    "rsync bzip2 xz zstd file stat touch rm rmdir env printenv nice timeout watch crontab "
    "screen tmux less vim python perl ruby gcc g++ cc clang cmake pkg-config ar ld objdump "
    "nm strings readelf gdb strace valgrind top free id useradd usermod mount lsblk dd "
    "cpio base64 md5sum sha256sum b2sum split join paste comm fold fmt nl pr column seq "
    "shuf factor bc expr test printf echo iconv sqlite3 gpgconf gpg-agent dirmngr "
    "busctl systemd-analyze loginctl hostnamectl timedatectl localectl update-alternatives "
    "debconf dpkg-query dpkg-deb lsof pgrep pkill sudo su chroot install mktemp readlink "
    "realpath basename dirname truncate sum tac od xxd hexdump cmp sdiff diff3 bison flex "
    "m4 autoconf automake libtool gettext msgfmt xgettext locale localedef getent"
).split()
PLACEHOLDER = re.compile(r"<[^>\s]*>|\.\.\.|…|\[[-A-Za-z ]*options?\]|\bfoo\.\.\.|\{\}\s*$")
NOT_BENIGN = re.compile(
    r"--force\b|\s-f\s.*\bpush|push\b.*\s\+|--no-verify|rm\s+-\S*r\S*\s+/(\s|$)|\|\s*(ba)?sh\b|\.env\b"
)


SECRET_SHAPED = re.compile(r"[A-Za-z0-9+/]{32,}={0,2}")


def rendered(path: str) -> str:
    environment = dict(os.environ, MANWIDTH="300", LC_ALL="C.UTF-8")
    result = subprocess.run(
        ["man", "-P", "cat", "-l", path], capture_output=True, text=True, env=environment
    )
    return result.stdout


def examples(text: str, starts: re.Pattern[str]) -> list[str]:
    found = []
    for line in text.splitlines():
        stripped = line.strip()
        if not line.startswith("       ") or not stripped:
            continue
        if stripped.startswith("$ "):
            stripped = stripped[2:].strip()
        elif not starts.match(stripped):
            continue
        if len(stripped) < 4 or len(stripped) > 200 or PLACEHOLDER.search(stripped):
            continue
        if stripped.endswith(("\\", ",", ".", ":")) or "  " in stripped or "<<" in stripped:
            continue  # prose, a wrapped line, a table or a here-document cut from its body
        if stripped.startswith(("<", "[", "#", "-")) or " [-" in stripped:
            continue  # a placeholder, a synopsis or a comment
        if NOT_BENIGN.search(stripped) or "/root/" in stripped or "/home/" in stripped:
            continue
        if SECRET_SHAPED.search(stripped):  # a documented key is still a key to a scanner
            continue
        found.append(stripped)
    return found


def parses_in_bash(command: str) -> bool:
    """Real bash is the judge of what is a command: `bash -n` must accept it."""
    result = subprocess.run(["bash", "-n", "-c", command], capture_output=True, check=False)
    return result.returncode == 0 and not result.stderr


def main() -> int:
    mandir = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/man"
    pages = sorted(os.listdir(os.path.join(mandir, "man1")))
    commands: set[str] = set()
    starts = re.compile("(" + "|".join(map(re.escape, PROGRAMS)) + r")(\s|$)")
    for program in PROGRAMS:
        for page in pages:
            if page.startswith(program + ".1") or page.startswith(program + "-"):
                path = os.path.join(mandir, "man1", page)
                commands.update(examples(rendered(path), starts))
    commands = {command for command in commands if parses_in_bash(command)}
    out = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "benign_commands.txt")
    with open(out, "w", encoding="utf-8") as handle:
        handle.write("".join(command + "\n" for command in sorted(commands)))
    print(f"{len(commands)} commands written to tests/fixtures/benign_commands.txt")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
