"""The card's root file system, in three cached stages under $IMAGE_CACHE:

    debootstrap/  debootstrap bookworm arm64 (main and non-free-firmware): systemd, Wi-Fi, SSH
    base/       a copy of it with Debian's arm64 kernel with a small initramfs that mounts the root
                read-only under a RAM overlay (deploy/image/overlay-root), raspi-firmware
                (which copies the Pi's boot files, kernel and device trees to /boot/firmware)
                and firmware-brcm80211 (the Pi's Wi-Fi)
    installed/  a copy of base with the box installed by its own deploy/install.sh, from a
                fresh clone of this checkout's HEAD: the owner's install path, run in a chroot

Each is rebuilt only when its recipe (written beside it) changed; base takes most of a
cold build, installed a few minutes, and a warm build (both cached) only makes the card.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from tools.picheck.check import fresh_clone, head_commit
from tools.picheck.roots import MIRROR, Mounted, chroot, fresh, sh, stamp, trust_host_cas
from tools.picheck.roots import kernel_version as roots_kernel_version

from . import card

CACHE = Path(os.environ.get("IMAGE_CACHE", "/var/cache/cantstop-image"))
REPO = Path(__file__).resolve().parents[2]
HERE = REPO / "deploy/image"
SUITE = "bookworm"
COMPONENTS = ["main", "non-free-firmware"]
# What the card's system needs beside the box: systemd as init, its resolver (mDNS) and
# clock, Wi-Fi, SSH (off unless a key is on the boot partition), sfdisk (the data
# partition grows at the first boot), Python (install.sh and the card's own first-boot
# steps). python3-venv is left out on purpose: install.sh adds it.
PACKAGES = ["systemd", "systemd-sysv", "udev", "kmod", "dbus", "python3", "ca-certificates", "iproute2",
            "systemd-resolved", "systemd-timesyncd", "wpasupplicant", "wireless-regdb", "openssh-server",
            "fdisk", "e2fsprogs", "netbase"]
# busybox: the initramfs's tools (a rescue shell that can copy a file, and the check's own step there).
BOOT_PACKAGES = ["busybox", "initramfs-tools", "linux-image-arm64", "raspi-firmware", "firmware-brcm80211"]


def say(text: str) -> None:
    print(f"image: {text}", flush=True)


def _clear(path: Path) -> None:
    if path.exists():
        sh("umount", "-R", "-l", str(path), check=False, stderr=subprocess.DEVNULL)
    shutil.rmtree(path, ignore_errors=True)


def digest(*texts: str) -> str:
    return hashlib.sha256("\0".join(texts).encode()).hexdigest()[:16]


def bootstrap_recipe() -> str:
    return f"debootstrap {SUITE} arm64 minbase {','.join(COMPONENTS)}; include {','.join(PACKAGES)}\n"


def base_recipe() -> str:
    overlay = (HERE / "overlay-root").read_text()
    return (bootstrap_recipe() + f"then {','.join(BOOT_PACKAGES)}; initramfs {','.join(card.INITRAMFS_MODULES)}; "
            f"from {card.FIRMWARE_SUITE}'s {card.FIRMWARE_PACKAGE} {','.join(card.FIRMWARE_FILES)}; "
            f"firmware {digest(card.raspi_firmware_defaults(), card.raspi_cmdline(), card.board_settings(card.default_settings()))}; "
            f"overlay {digest(overlay)}\n")


def bootstrapped() -> Path:
    """debootstrap's root, untouched (cached)."""
    root = CACHE / "debootstrap"
    recipe = bootstrap_recipe()
    if fresh(root, recipe):
        return root
    CACHE.mkdir(parents=True, exist_ok=True)
    building = CACHE / "debootstrap.building"
    _clear(building)
    _clear(root)
    say(f"building the {SUITE} arm64 root with debootstrap (cached in {root})")
    started = time.monotonic()
    sh("debootstrap", "--arch=arm64", "--variant=minbase", f"--components={','.join(COMPONENTS)}",
       f"--include={','.join(PACKAGES)}", SUITE, str(building), MIRROR, stdout=subprocess.DEVNULL)
    building.rename(root)
    stamp(root, recipe)
    say(f"debootstrap done in {time.monotonic() - started:.0f} s")
    return root


def base_root() -> Path:
    """A copy of debootstrap's root with the kernel, its initramfs and the Pi's firmware (cached)."""
    root = CACHE / "base"
    recipe = base_recipe()
    if fresh(root, recipe):
        return root
    plain = bootstrapped()
    building = CACHE / "base.building"
    _clear(building)
    _clear(root)
    say("installing the kernel, the initramfs and the Pi's firmware")
    started = time.monotonic()
    sh("cp", "-a", "--reflink=auto", str(plain), str(building))
    card.write_base(building, (HERE / "overlay-root").read_text())
    firmware = building / "boot/firmware"
    firmware.mkdir(parents=True, exist_ok=True)
    log = CACHE / "base.log"
    with Mounted(building), open(log, "w") as out:
        # raspi-firmware's postinst wants /boot/firmware mounted (as on a Pi): a bind of itself.
        sh("mount", "--bind", str(firmware), str(firmware))
        try:
            chroot(building, "apt-get", "update", "-qq")
            # --force-confold: keep the /etc/default files written above (raspi-firmware ships its own).
            done = chroot(building, "apt-get", "install", "-y", "-q", "--no-install-recommends",
                          "-o", "Dpkg::Options::=--force-confold", *BOOT_PACKAGES,
                          stdout=out, stderr=subprocess.STDOUT, check=False)
            chroot(building, "apt-get", "clean")
            if not done.returncode:
                later_firmware(building, out)
        finally:
            sh("umount", "-l", str(firmware), check=False)
    if done.returncode:
        raise SystemExit(f"image: installing {' '.join(BOOT_PACKAGES)} failed: see {log}")
    building.rename(root)
    stamp(root, recipe)
    say(f"built the base root in {time.monotonic() - started:.0f} s")
    return root


def later_firmware(building: Path, out) -> None:
    """card.FIRMWARE_FILES from the later suite's package, downloaded by the root's own apt (so checked
    against that suite's signed lists), unpacked aside, only those files and its copyright copied in."""
    etc = building / "etc/apt"
    source, pin = etc / "sources.list.d/cantstop-firmware.list", etc / "preferences.d/cantstop-firmware"
    source.write_text(card.firmware_source())
    pin.parent.mkdir(parents=True, exist_ok=True)
    pin.write_text(card.firmware_pin())
    try:
        chroot(building, "apt-get", "update", "-qq", stdout=out, stderr=subprocess.STDOUT)
        chroot(building, "sh", "-c", f"cd /tmp && apt-get download -q {card.FIRMWARE_PACKAGE}/{card.FIRMWARE_SUITE}",
               stdout=out, stderr=subprocess.STDOUT)
    finally:
        source.unlink()
        pin.unlink()
    debs = sorted((building / "tmp").glob(f"{card.FIRMWARE_PACKAGE}_*.deb"))
    if len(debs) != 1:
        raise SystemExit(f"image: apt-get download {card.FIRMWARE_PACKAGE}/{card.FIRMWARE_SUITE} gave {len(debs)} files")
    with tempfile.TemporaryDirectory(prefix="firmware-") as tmp:
        sh("dpkg-deb", "-x", str(debs[0]), tmp)
        for name in [*card.FIRMWARE_FILES, f"usr/share/doc/{card.FIRMWARE_PACKAGE}/copyright"]:
            source_file = Path(tmp) / name
            target = building / (card.FIRMWARE_COPYRIGHT if name.endswith("/copyright") else name)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source_file, target)
    debs[0].unlink()


def installed_root(base: Path) -> Path:
    """A copy of base with the box installed by deploy/install.sh from a fresh clone of HEAD (cached per commit)."""
    root = CACHE / "installed"
    commit = head_commit()
    recipe = base_recipe() + f"deploy/install.sh of {commit}\n"
    if fresh(root, recipe):
        return root
    building = CACHE / "installed.building"
    _clear(building)
    _clear(root)
    started = time.monotonic()
    say(f"installing the box with its deploy/install.sh in a copy of the root (commit {commit[:12]})")
    sh("cp", "-a", "--reflink=auto", str(base), str(building))
    with tempfile.TemporaryDirectory(prefix="image-clone-") as tmp:
        clone = fresh_clone(Path(tmp) / "cantstop-box")
        shutil.copytree(clone, building / "tmp/cantstop-box", symlinks=True)
    log = CACHE / "install.log"
    # This network's TLS-inspecting proxy, if any, trusted for pip during the install only:
    # the card ships Debian's own CA bundle and hosts file.
    kept = {name: (building / name).read_bytes() for name in ("etc/ssl/certs/ca-certificates.crt", "etc/hosts")}
    trust_host_cas(building)
    try:
        with Mounted(building), open(log, "w") as out:
            done = chroot(building, "/tmp/cantstop-box/deploy/install.sh", check=False, stdout=out,
                          stderr=subprocess.STDOUT)
    finally:
        for name, data in kept.items():
            (building / name).write_bytes(data)
    if done.returncode:
        raise SystemExit(f"image: deploy/install.sh failed in the root (exit {done.returncode}): see {log}")
    shutil.rmtree(building / "tmp/cantstop-box")
    building.rename(root)
    stamp(root, recipe)
    say(f"installed in {time.monotonic() - started:.0f} s (its output: {log})")
    return root


def kernel_version(root: Path) -> str:
    return roots_kernel_version(root, "image")
