"""make pi-check: install the box in emulated Pi root file systems and check it works.

Builds (once) and caches Debian root file systems for the Pi's architectures,
then in each: copies a fresh clone of this checkout, runs
`sudo deploy/install.sh` as a user would, and checks the result (see CHECKS).
Prints a table: platform, Python, install time, one column per check.

Needs root (debootstrap, chroot, mounts) and network access to Debian's
archive and PyPI. Host tools come from Debian's packages and are installed
with apt-get when missing: debootstrap and qemu-user-static (ARM binaries run
under qemu-user through binfmt_misc).

Raspberry Pi OS itself is not tested: its archive is not reachable from
here. Debian bookworm and trixie stand in for it (Raspberry Pi OS bookworm
and trixie are built on them), which also means python3-lgpio is not an apt
package in these roots, so the install takes lgpio from PyPI's wheels.

Cache: /var/cache/cantstop-pi-check (PI_CHECK_CACHE overrides): one pristine
root per platform, never changed by a check (each check runs on an overlay
that is thrown away). `rm -rf` it to start cold.

    sudo .venv/bin/python -m tools.picheck [--only bookworm-arm64] [--build-only] [--markdown FILE]

The table also goes to $PI_CHECK_CACHE/tested-on.md (docs/verified.md keeps the last one).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from .roots import (
    CACHE,
    PLATFORMS,
    Downloads,
    Mounted,
    Overlay,
    Platform,
    chroot,
    ensure_binfmt,
    ensure_host_tools,
    rootfs,
    say,
    sh,
    trust_host_cas,
)

REPO = Path(__file__).resolve().parents[2]


# -- one platform: install, check, uninstall -------------------------------------

CHECKS = ["install", "dry-run", "enabled", "config", "replay", "run", "emulate", "verify", "uninstall"]
BOX = "/opt/cantstop-box/venv/bin/cantstop-box"
VENV_PYTHON = "/opt/cantstop-box/venv/bin/python"
CLONE = "/home/pi/cantstop-box"
STORE = "/var/lib/cantstop-box"
# Left alone by the leftover check: package-manager and log bookkeeping, and
# the backups the shadow tools keep when a user comes and goes.
NOT_COMPARED = ("var/lib/dpkg", "var/lib/apt", "var/cache", "var/log", "tmp", "home/pi", "root",
                "etc/ld.so.cache", "etc/passwd-", "etc/group-", "etc/shadow-", "etc/gshadow-", "etc/subuid-",
                "etc/subgid-", "var/lib/systemd/deb-systemd-helper-enabled", "var/lib/systemd/catalog")


@dataclass
class Result:
    platform: Platform
    python: str = "?"
    lgpio: str = "?"  # where the install took lgpio from
    install_s: float | None = None
    check_s: float | None = None  # the whole check of the platform, install included
    checks: dict[str, str] = field(default_factory=dict)  # name -> "ok" or why not
    log: list[str] = field(default_factory=list)

    def ok(self, name: str, passed: bool, why: str = "") -> bool:
        self.checks[name] = "ok" if passed else f"FAIL {why}".strip()
        if not passed:
            self.log.append(f"{name}: {why}")
        return passed


def snapshot(root: Path) -> dict[str, tuple]:
    """Every path under the root (bar NOT_COMPARED) with its mode, size and link target."""
    seen: dict[str, tuple] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        rel_dir = "" if rel_dir == "." else rel_dir
        if not rel_dir:  # the mounted pseudo file systems
            dirnames[:] = [d for d in dirnames if d not in ("proc", "sys", "dev", "run")]
        dirnames[:] = [d for d in dirnames if not os.path.join(rel_dir, d).startswith(NOT_COMPARED)]
        for name in dirnames + filenames:
            rel = os.path.join(rel_dir, name)
            if rel.startswith(NOT_COMPARED):
                continue
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            link = os.readlink(path) if os.path.islink(path) else ""
            seen[rel] = (st.st_mode, 0 if os.path.isdir(path) and not link else st.st_size, link)
    return seen


def as_user(root: Path, user: str, command: str, **kw) -> subprocess.CompletedProcess:
    """A login shell of USER in the root running COMMAND (as a user at the Pi would)."""
    return chroot(root, "runuser", "-l", user, "-c", command, **kw)


def host_views(records: list[Path]) -> dict[str, subprocess.CompletedProcess]:
    box = REPO / ".venv/bin/cantstop-box"
    if not box.exists():
        raise SystemExit(f"pi-check: {box} is missing: run make setup first")
    return {r.name: sh(str(box), "replay", str(r), check=False, capture_output=True, text=True) for r in records}


def check_platform(platform: Platform, clone: Path, expected: dict) -> Result:
    result = Result(platform)
    lower = rootfs(platform)
    with Overlay(lower) as root, Mounted(root), Downloads(platform, root):
        trust_host_cas(root)
        shutil.copytree(clone, root / CLONE.lstrip("/"), symlinks=True)
        chroot(root, "chown", "-R", "pi:pi", CLONE)
        result.python = chroot(root, "python3", "-c", "import platform; print(platform.python_version())",
                               capture_output=True, text=True).stdout.strip()
        before = snapshot(root)
        done = as_user(root, "pi", f"cd {CLONE} && deploy/install.sh --dry-run", check=False, capture_output=True,
                       text=True)
        changed = sorted(set(snapshot(root).items()) ^ set(before.items()))
        result.ok("dry-run", done.returncode == 0 and not changed,
                  f"exit {done.returncode}" if done.returncode else f"changed {[p for p, _ in changed[:3]]}")
        started = time.monotonic()
        done = as_user(root, "pi", f"cd {CLONE} && sudo deploy/install.sh", check=False, capture_output=True, text=True)
        result.install_s = time.monotonic() - started
        result.log.append(done.stdout + done.stderr)
        result.lgpio = lgpio_source(done.stdout)
        if not result.ok("install", done.returncode == 0 and "starts on the next boot" in done.stdout,
                         f"exit {done.returncode}"):
            return result
        if result.lgpio != "none":  # the buttons' backend, where the install says it put one
            # from /tmp: lgpio leaves its notification pipe (.lgd-nfy*) in the working directory
            done = chroot(root, "sh", "-c", f"cd /tmp && {VENV_PYTHON} -c 'import lgpio'", check=False,
                          capture_output=True, text=True)
            if not result.ok("lgpio", done.returncode == 0, (done.stderr.strip().splitlines() or ["?"])[-1]):
                result.lgpio += " (import FAILED)"
        check_installed(root, result, expected)
        check_uninstall(root, before, result)
    return result


def check_uninstall(root: Path, before: dict[str, tuple], result: Result) -> None:
    """uninstall.sh as the user would run it: nothing of the install may stay but the game store."""
    done = as_user(root, "pi", f"cd {CLONE} && sudo deploy/uninstall.sh", check=False, capture_output=True, text=True)
    result.log.append(done.stdout + done.stderr)
    after = snapshot(root)
    store = STORE.lstrip("/")
    left = sorted(p for p in set(after) - set(before) if not p.startswith(store))
    changed = sorted(p for p in set(before) & set(after) if before[p] != after[p])
    gone = sorted(set(before) - set(after))
    store_kept = any(p.startswith(store + "/") for p in after)
    why = (f"exit {done.returncode}" if done.returncode else
           f"left {left[:3]}" if left else f"changed {changed[:3]}" if changed else
           f"removed {gone[:3]}" if gone else "" if store_kept else "the game store is gone")
    result.ok("uninstall", not why, why)


def lgpio_source(install_output: str) -> str:
    """Where install.sh took lgpio from, in a word, from what it said."""
    if "no lgpio for this Python" in install_output:
        return "none"
    said = [line for line in install_output.splitlines() if line.startswith("lgpio: ")]
    line = said[-1] if said else ""  # the last word on it: "no python3-lgpio", then where it came from
    for words, source in (("from the distribution", "apt"), ("adafruit-lgpio", "PyPI wheel (Adafruit's)"),
                          ("binary wheel", "PyPI wheel"), ("already", "present")):
        if words in line:
            return source
    return "?"


def check_installed(root: Path, result: Result, expected: dict[str, subprocess.CompletedProcess]) -> None:
    done = chroot(root, "systemctl", "is-enabled", "cantstop-box.service", check=False, capture_output=True, text=True)
    result.ok("enabled", done.stdout.strip() == "enabled", done.stdout.strip() or done.stderr.strip())
    config = root / "etc/cantstop-box/config.toml"
    result.ok("config", config.exists() and config.read_bytes() == (REPO / "firmware/default_config.toml").read_bytes(),
              "missing or not the default")
    def replay(name: str) -> bool:
        shutil.copyfile(REPO / "tests/fixtures/records" / name, root / "tmp" / name)
        pi = chroot(root, BOX, "replay", f"/tmp/{name}", check=False, capture_output=True, text=True)
        host = expected[name]
        return (pi.returncode, pi.stdout) == (host.returncode, host.stdout)

    # Two at a time: by now the other platforms are usually done, and a core would sit idle.
    with ThreadPoolExecutor(max_workers=2) as pool:
        same = dict(zip(expected, pool.map(replay, expected)))
    differ = [name for name, ok in same.items() if not ok]
    result.ok("replay", not differ, f"differs for {', '.join(differ)}")
    done = as_user(root, "pi", f"{BOX} run --config /etc/cantstop-box/config.toml", check=False,
                   capture_output=True, text=True)
    lines = done.stderr.strip().splitlines()
    result.ok("run", done.returncode == 69 and len(lines) == 1 and "no GPIO" in lines[0],
              f"exit {done.returncode}: {' / '.join(lines[-2:])}")
    # The game store as systemd's StateDirectory= makes it; the emulator's game lands in it.
    chroot(root, "install", "-d", "-o", "cantstop", "-g", "cantstop", "-m", "0700", STORE)
    frame = emulate_first_frame(root)
    result.ok("emulate", frame == "", frame)
    done = chroot(root, "systemd-analyze", "verify", "/etc/systemd/system/cantstop-box.service", check=False,
                  capture_output=True, text=True)
    complaints = [line for line in (done.stdout + done.stderr).splitlines() if "cantstop-box" in line]
    result.ok("verify", done.returncode == 0 and not complaints, " / ".join(complaints[:2]) or f"exit {done.returncode}")


def emulate_first_frame(root: Path, timeout: float = 60.0) -> str:
    """Run the emulator under a pseudo-terminal until it draws a frame, then quit: "" or what went wrong."""
    import fcntl
    import pty
    import select
    import struct
    import termios

    command = ["chroot", str(root), "runuser", "-u", "cantstop", "--", "env", "TERM=xterm", "LANG=C.UTF-8",
               "HOME=/tmp", BOX, "emulate", "--config", "/etc/cantstop-box/config.toml", "--state-dir", STORE]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(command[0], command)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 200, 0, 0))
    seen = b""
    deadline = time.monotonic() + timeout
    drawn = False
    try:
        while time.monotonic() < deadline and not drawn:
            ready, _, _ = select.select([fd], [], [], 1.0)
            if ready:
                try:
                    seen += os.read(fd, 65536)
                except OSError:
                    break
            drawn = "q quit" in seen.decode("utf-8", "replace") and any(c in seen.decode("utf-8", "replace") for c in "▀▄█")
        if drawn:
            os.write(fd, b"q")  # q asks once: the second quits (a moment later: at once, it is auto-repeat)
            time.sleep(0.3)
            os.write(fd, b"q")
            end = time.monotonic() + 20
            while time.monotonic() < end:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    return "" if os.waitstatus_to_exitcode(status) == 0 else f"exit {os.waitstatus_to_exitcode(status)}"
                if select.select([fd], [], [], 0.2)[0]:
                    _drain(fd)
            return "did not quit on q"
        tail = seen.decode("utf-8", "replace").strip().splitlines()[-1:] or ["nothing"]
        return f"no frame in {timeout:.0f} s ({tail[0][:60]})"
    finally:
        try:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(fd)


def _drain(fd: int) -> None:
    try:
        os.read(fd, 65536)
    except OSError:
        pass


def head_commit() -> str:
    return sh("git", "-C", str(REPO), "rev-parse", "--short", "HEAD", capture_output=True, text=True).stdout.strip()


def fresh_clone(into: Path) -> Path:
    """A clone of this checkout's HEAD, as someone would get it from the repository."""
    sh("git", "clone", "--quiet", "--no-hardlinks", str(REPO), str(into))
    shutil.rmtree(into / ".git")
    return into


def table(results: list[Result]) -> list[str]:
    head = ["platform", "Python", "install", "lgpio"] + CHECKS[1:]
    rows = [[r.platform.label, r.python, f"{r.install_s:.0f} s" if r.install_s is not None else "-", r.lgpio]
            + [r.checks.get(c, "-") for c in CHECKS[1:]] for r in results]
    for r, row in zip(results, rows):
        if r.checks.get("install", "ok") != "ok":
            row[2] += f" ({r.checks['install']})"
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


DURATIONS = CACHE / "durations.json"  # each platform's last check, in seconds


def _durations() -> dict:
    """The last run's timings, or none when the file is missing or not what this program wrote."""
    try:
        seconds = json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        return {}
    return seconds if isinstance(seconds, dict) else {}


def longest_first(platforms: list[Platform]) -> list[Platform]:
    """The platforms in the order to start them: the longest last time first.

    With fewer workers than platforms (each qemu process keeps one core busy),
    starting the long pole first lets the short ones share the other cores
    beside it instead of making it wait (longest-processing-time-first). A
    platform never timed counts as the longest; ties keep the given order.
    """
    seconds = _durations()
    known = {p.name: float(seconds[p.name]) for p in platforms if isinstance(seconds.get(p.name), (int, float))}
    return sorted(platforms, key=lambda p: -known.get(p.name, float("inf")))


def remember_durations(results: list[Result]) -> None:
    seconds = _durations()
    seconds.update({r.platform.name: round(r.check_s, 1) for r in results if r.check_s is not None})
    DURATIONS.parent.mkdir(parents=True, exist_ok=True)
    DURATIONS.write_text(json.dumps(seconds, indent=1, sort_keys=True) + "\n")


def check_one(platform: Platform, clone: Path, expected: dict) -> Result:
    started = time.monotonic()
    say(f"{platform.name}: install and check")
    try:
        result = check_platform(platform, clone, expected)
    except (subprocess.CalledProcessError, OSError) as err:  # debootstrap, mount ...: no root to check in
        result = Result(platform)
        result.ok("install", False, f"could not prepare the root ({err})")
    bad = [c for c, v in result.checks.items() if v != "ok"]
    result.check_s = time.monotonic() - started
    say(f"{platform.name}: {'all ok' if not bad else 'FAILED ' + ', '.join(bad)} in {result.check_s:.0f} s")
    if bad:
        print(f"--- {platform.name}\n" + "\n".join(result.log), file=sys.stderr)
    return result


def check_all(platforms: list[Platform], started: float, markdown: str | None, jobs: int) -> int:
    records = sorted(p for p in (REPO / "tests/fixtures/records").glob("*.json") if not p.name.endswith(".view.json"))
    expected = host_views(records)
    with tempfile.TemporaryDirectory(prefix="pi-check-") as tmp:
        commit = head_commit()  # the commit cloned, named in the table
        clone = fresh_clone(Path(tmp) / "cantstop-box")
        # Side by side, as many as there are cores (each qemu process keeps one busy), the longest first.
        order = longest_first(platforms)
        say(f"{jobs} at a time, in this order: {', '.join(p.name for p in order)}")
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            done = dict(zip(order, pool.map(lambda platform: check_one(platform, clone, expected), order)))
    results = [done[p] for p in platforms]
    remember_durations(results)
    lines = table(results)
    print("\n".join(lines))
    say(f"{len(records)} records replayed per platform; total {time.monotonic() - started:.0f} s")
    target = Path(markdown) if markdown else CACHE / "tested-on.md"
    stamp = time.strftime("%Y-%m-%d", time.gmtime())
    target.write_text(f"make pi-check, {stamp}, commit {commit}:\n\n" + "\n".join(lines) + "\n")
    say(f"table written to {target}")
    return 0 if all(v == "ok" for r in results for v in r.checks.values()) and len(results) == len(platforms) else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pi-check", description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", choices=[p.name for p in PLATFORMS],
                        help="check only this platform (repeatable)")
    parser.add_argument("--build-only", action="store_true", help="build the cached roots, check nothing")
    parser.add_argument("--jobs", type=int, default=min(len(PLATFORMS), os.cpu_count() or 1), metavar="N",
                        help="platforms built and checked side by side (default: one per core)")
    parser.add_argument("--markdown", metavar="FILE", help="also write the table as Markdown to FILE")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        print("pi-check: needs root (debootstrap, chroot, mounts): sudo make pi-check", file=sys.stderr)
        return 1
    platforms = [p for p in PLATFORMS if not args.only or p.name in args.only]
    started = time.monotonic()
    ensure_host_tools()
    ensure_binfmt()
    if args.build_only:
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            list(pool.map(rootfs, platforms))
        say(f"roots ready in {time.monotonic() - started:.0f} s")
        return 0
    return check_all(platforms, started, args.markdown, args.jobs)

