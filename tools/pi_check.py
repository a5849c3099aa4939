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

    sudo .venv/bin/python tools/pi_check.py [--only bookworm-arm64] [--build-only] [--markdown FILE]

The table also goes to $PI_CHECK_CACHE/tested-on.md (docs/building.md copies it).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("PI_CHECK_CACHE", "/var/cache/cantstop-pi-check"))
MIRROR = "http://deb.debian.org/debian"
# What a Raspberry Pi OS Lite image has that a minimal Debian lacks: systemd as
# init, sudo, Python. python3-venv is left out on purpose: install.sh adds it.
PACKAGES = ["systemd", "sudo", "python3", "ca-certificates"]
RECIPE = f"debootstrap minbase; include {','.join(PACKAGES)}; apt-get update; user pi (sudo)\n"
QEMU = {"arm64": "aarch64", "armhf": "arm"}


@dataclass(frozen=True)
class Platform:
    suite: str
    arch: str

    @property
    def name(self) -> str:
        return f"{self.suite}-{self.arch}"

    @property
    def label(self) -> str:
        bits = "64-bit" if self.arch == "arm64" else "32-bit"
        return f"Debian {self.suite} {self.arch} ({bits})"


PLATFORMS = [Platform("bookworm", "arm64"), Platform("bookworm", "armhf"), Platform("trixie", "arm64")]


def say(text: str) -> None:
    print(f"pi-check: {text}", flush=True)


def sh(*cmd: str, check: bool = True, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, check=check, **kw)


# -- the host: tools and binfmt_misc ---------------------------------------------------

def ensure_host_tools() -> None:
    """debootstrap and qemu-user-static from Debian's packages, installed when missing."""
    missing = [pkg for tool, pkg in (("debootstrap", "debootstrap"), ("qemu-aarch64-static", "qemu-user-static"))
               if shutil.which(tool) is None]
    if not missing:
        return
    say(f"installing {' '.join(missing)} with apt-get")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    policy = sh("apt-cache", "policy", *missing, capture_output=True, text=True).stdout
    if "Candidate: (none)" in policy or not policy.strip():
        sh("apt-get", "update", "-qq", env=env)
    sh("apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing, env=env, stdout=subprocess.DEVNULL)


def ensure_binfmt() -> None:
    """binfmt_misc mounted, and qemu registered for 64- and 32-bit ARM.

    With the C flag (credentials from the binary, not from qemu), so that sudo,
    which is setuid, works in the root: Debian registers qemu without it.
    """
    fs = Path("/proc/sys/fs/binfmt_misc")
    if not (fs / "register").exists():
        sh("mount", "-t", "binfmt_misc", "binfmt_misc", str(fs))
    for name in QEMU.values():
        entry = fs / f"qemu-{name}"
        if entry.exists() and any(line.startswith("flags:") and "C" in line for line in entry.read_text().splitlines()):
            continue
        conf = Path(f"/usr/lib/binfmt.d/qemu-{name}.conf")
        if not conf.exists():
            raise SystemExit(f"pi-check: {conf} is missing (package qemu-user-static)")
        fields = conf.read_text().strip().split(":")
        fields[-1] = "".join(sorted(set(fields[-1]) | {"O", "C", "F"}))
        if entry.exists():
            entry.write_text("-1")  # re-registered below, with C
        (fs / "register").write_text(":".join(fields))
        say(f"registered qemu-{name} with binfmt_misc (flags {fields[-1]})")


# -- the cached root file systems --------------------------------------------------

def rootfs(platform: Platform) -> Path:
    """The pristine root of a platform: built once with debootstrap, then reused."""
    root = CACHE / platform.name
    if (root / ".pi-check-recipe").exists() and (root / ".pi-check-recipe").read_text() == RECIPE:
        refresh_lists(root)
        return root
    CACHE.mkdir(parents=True, exist_ok=True)
    building = CACHE / f"{platform.name}.building"
    shutil.rmtree(building, ignore_errors=True)
    shutil.rmtree(root, ignore_errors=True)
    say(f"building the {platform.name} root with debootstrap (cached in {root})")
    started = time.monotonic()
    sh("debootstrap", f"--arch={platform.arch}", "--variant=minbase", f"--include={','.join(PACKAGES)}",
       platform.suite, str(building), MIRROR, stdout=subprocess.DEVNULL)
    (building / "etc/apt/sources.list").write_text(f"deb {MIRROR} {platform.suite} main\n")
    (building / "etc/hostname").write_text("cantstop-pi\n")
    with Mounted(building):
        chroot(building, "apt-get", "update", "-qq")
        # The owner's account, as on Raspberry Pi OS: in group sudo, sudo without a password.
        chroot(building, "useradd", "--create-home", "--shell", "/bin/bash", "--groups", "sudo", "pi")
    (building / "etc/sudoers.d/010_pi-nopasswd").write_text("pi ALL=(ALL) NOPASSWD: ALL\n")
    (building / "etc/sudoers.d/010_pi-nopasswd").chmod(0o440)
    (building / ".pi-check-recipe").write_text(RECIPE)
    building.rename(root)
    say(f"built {platform.name} in {time.monotonic() - started:.0f} s")
    return root


LISTS_FRESH_S = 24 * 3600  # apt's lists in a cached root are fetched again when older than this


def refresh_lists(root: Path) -> None:
    """apt-get update in a cached root whose package lists are a day old, so that the
    versions they name are still on the mirror (and only then: a run with fresh lists skips it)."""
    lists = list((root / "var/lib/apt/lists").glob("*_Packages*"))
    if lists and time.time() - max(p.stat().st_mtime for p in lists) < LISTS_FRESH_S:
        return
    say(f"{root.name}: its package lists are over a day old: apt-get update")
    with Mounted(root):
        chroot(root, "apt-get", "update", "-qq")


def chroot(root: Path, *cmd: str, check: bool = True, **kw) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
           "HOME": "/root", "TERM": os.environ.get("TERM", "xterm"), "DEBIAN_FRONTEND": "noninteractive"}
    return sh("chroot", str(root), *cmd, check=check, env={**env, **kw.pop("env", {})}, **kw)


class Mounted:
    """/proc, /sys, /dev, /dev/pts and a /run tmpfs in a root, as a chroot user has them; no systemd runs."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.points: list[Path] = []

    def _mount(self, target: str, *args: str) -> None:
        point = self.root / target
        point.mkdir(parents=True, exist_ok=True)
        sh("mount", *args, str(point))
        self.points.append(point)

    def __enter__(self) -> Mounted:
        self._mount("proc", "-t", "proc", "proc")
        self._mount("sys", "-t", "sysfs", "sysfs")
        self._mount("dev", "--bind", "/dev")
        self._mount("dev/pts", "--bind", "/dev/pts")
        self._mount("run", "-t", "tmpfs", "tmpfs")
        resolv = self.root / "etc/resolv.conf"
        if resolv.is_symlink():
            resolv.unlink()
        shutil.copyfile("/etc/resolv.conf", resolv)
        return self

    def __exit__(self, *exc) -> None:
        for point in reversed(self.points):
            sh("umount", "-l", str(point), check=False)
        self.points.clear()



# -- one platform: install, check, uninstall -------------------------------------

CHECKS = ["install", "dry-run", "enabled", "config", "replay", "run", "emulate", "verify", "uninstall"]
BOX = "/opt/cantstop-box/venv/bin/cantstop-box"
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
    checks: dict[str, str] = field(default_factory=dict)  # name -> "ok" or why not
    log: list[str] = field(default_factory=list)

    def ok(self, name: str, passed: bool, why: str = "") -> bool:
        self.checks[name] = "ok" if passed else f"FAIL {why}".strip()
        if not passed:
            self.log.append(f"{name}: {why}")
        return passed


class Overlay:
    """A throw-away copy of a pristine root (overlayfs: the cache is never written)."""

    def __init__(self, lower: Path) -> None:
        self.base = CACHE / "work" / lower.name
        self.lower = lower
        self.root = self.base / "merged"

    def __enter__(self) -> Path:
        self.__exit__()
        for part in ("upper", "work", "merged"):
            (self.base / part).mkdir(parents=True, exist_ok=True)
        sh("mount", "-t", "overlay", "overlay", "-o",
           f"lowerdir={self.lower},upperdir={self.base / 'upper'},workdir={self.base / 'work'}", str(self.root))
        return self.root

    def __exit__(self, *exc) -> None:
        if self.root.is_mount():
            sh("umount", "-l", str(self.root), check=False)
        shutil.rmtree(self.base, ignore_errors=True)


class Downloads:
    """apt's .deb files, kept between runs in $CACHE/downloads/PLATFORM and
    bind-mounted at the root's /var/cache/apt/archives.

    The install still runs in full, as on a Pi that has installed once before:
    apt checks each kept .deb against its signed lists and installs it; only the
    transfer (slow under qemu, where apt's TLS and hashing are emulated) is saved.
    pip's cache is not kept: measured here, pip wrote nothing to it (the index's
    answers reach this machine uncacheable), so it would save nothing.
    """

    def __init__(self, platform: Platform, root: Path) -> None:
        self.store = CACHE / "downloads" / platform.name
        self.root = root
        self.points: list[Path] = []

    def _bind(self, kept: Path, inside: str) -> None:
        kept.mkdir(parents=True, exist_ok=True)
        point = self.root / inside
        point.mkdir(parents=True, exist_ok=True)
        sh("mount", "--bind", str(kept), str(point))
        self.points.append(point)

    def __enter__(self) -> Downloads:
        self._bind(self.store / "apt", "var/cache/apt/archives")
        partial = self.store / "apt/partial"
        partial.mkdir(exist_ok=True)
        apt_uid = next((int(line.split(":")[2]) for line in (self.root / "etc/passwd").read_text().splitlines()
                        if line.startswith("_apt:")), 0)
        os.chown(partial, apt_uid, 0)  # apt downloads as its own user
        return self

    def __exit__(self, *exc) -> None:
        for point in reversed(self.points):
            # Never lazily: the overlay is deleted next, and must not reach into the cache.
            sh("umount", str(point), check=False)
            if point.is_mount():
                raise SystemExit(f"pi-check: cannot unmount {point}; the cache is left mounted there")
        self.points.clear()


def trust_host_cas(root: Path) -> None:
    """This network's TLS-inspecting proxy CAs (if any), so pip can reach PyPI from the root."""
    extra = sorted(Path("/usr/local/share/ca-certificates").glob("*.crt"))
    if extra:
        with open(root / "etc/ssl/certs/ca-certificates.crt", "a") as bundle:
            for cert in extra:
                bundle.write(cert.read_text())
    with open(root / "etc/hosts", "a") as hosts:  # sudo looks up this host's name
        hosts.write(f"127.0.1.1 {os.uname().nodename}\n")


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
    line = next((line for line in install_output.splitlines() if line.startswith("lgpio: ")), "")
    for words, source in (("from the distribution", "apt"), ("binary wheel", "PyPI wheel"), ("already", "present")):
        if words in line:
            return source
    return "?"


def check_installed(root: Path, result: Result, expected: dict[str, subprocess.CompletedProcess]) -> None:
    done = chroot(root, "systemctl", "is-enabled", "cantstop-box.service", check=False, capture_output=True, text=True)
    result.ok("enabled", done.stdout.strip() == "enabled", done.stdout.strip() or done.stderr.strip())
    config = root / "etc/cantstop-box/config.toml"
    result.ok("config", config.exists() and config.read_bytes() == (REPO / "firmware/default_config.toml").read_bytes(),
              "missing or not the default")
    differ = []
    for name, host in expected.items():
        shutil.copyfile(REPO / "tests/fixtures/records" / name, root / "tmp" / name)
        pi = chroot(root, BOX, "replay", f"/tmp/{name}", check=False, capture_output=True, text=True)
        if (pi.returncode, pi.stdout) != (host.returncode, host.stdout):
            differ.append(name)
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


def check_one(platform: Platform, clone: Path, expected: dict) -> Result:
    started = time.monotonic()
    say(f"{platform.name}: install and check")
    try:
        result = check_platform(platform, clone, expected)
    except (subprocess.CalledProcessError, OSError) as err:  # debootstrap, mount ...: no root to check in
        result = Result(platform)
        result.ok("install", False, f"could not prepare the root ({err})")
    bad = [c for c, v in result.checks.items() if v != "ok"]
    say(f"{platform.name}: {'all ok' if not bad else 'FAILED ' + ', '.join(bad)} in {time.monotonic() - started:.0f} s")
    if bad:
        print(f"--- {platform.name}\n" + "\n".join(result.log), file=sys.stderr)
    return result


def check_all(platforms: list[Platform], started: float, markdown: str | None, jobs: int) -> int:
    records = sorted(p for p in (REPO / "tests/fixtures/records").glob("*.json") if not p.name.endswith(".view.json"))
    expected = host_views(records)
    with tempfile.TemporaryDirectory(prefix="pi-check-") as tmp:
        commit = head_commit()  # the commit cloned, named in the table
        clone = fresh_clone(Path(tmp) / "cantstop-box")
        # Side by side: much of an install waits on the network, and each qemu process uses one core.
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(lambda platform: check_one(platform, clone, expected), platforms))
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
    parser.add_argument("--jobs", type=int, default=len(PLATFORMS), metavar="N",
                        help="platforms built and checked side by side (default: all)")
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


if __name__ == "__main__":
    sys.exit(main())
