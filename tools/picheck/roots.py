"""The emulated Pi roots for `make pi-check`: host tools, binfmt_misc, cached Debian
root file systems, and the mounts a check runs in.

Each platform's root is built once with debootstrap (minbase plus what a
Raspberry Pi OS Lite image has that Debian lacks: systemd, sudo, Python) and
cached in $PI_CHECK_CACHE (default /var/cache/cantstop-pi-check); a check runs
on a throw-away overlay of it, with apt's downloads kept between runs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

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


# Newest first: trixie is the base of the current Raspberry Pi OS, and (Python 3.13
# under emulation) the slowest to check, so it starts first before any run is timed.
PLATFORMS = [Platform("trixie", "arm64"), Platform("bookworm", "arm64"), Platform("bookworm", "armhf")]


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


def fresh(path: Path, recipe: str) -> bool:
    """Whether a cached piece at ``path`` exists and was built by ``recipe`` (kept beside it as ``<name>.recipe``)."""
    stamp = path.with_name(path.name + ".recipe")
    return path.exists() and stamp.exists() and stamp.read_text() == recipe


def stamp(path: Path, recipe: str) -> None:
    """Write down that the piece at ``path`` was built by ``recipe``, once it is whole."""
    path.with_name(path.name + ".recipe").write_text(recipe)


def kernel_version(root: Path, who: str) -> str:
    """The newest kernel a built root boots (its /boot/vmlinuz-*), for ``who``'s one-line error when none."""
    found = sorted(p.name[len("vmlinuz-"):] for p in (root / "boot").glob("vmlinuz-*"))
    if not found:
        raise SystemExit(f"{who}: no kernel in {root / 'boot'}")
    return found[-1]
