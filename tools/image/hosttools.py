"""Debian's packages that `make image` and `make image-check` run on this machine, installed when missing.

``python -m tools.image --packages`` (and ``image-check --packages``) lists them without installing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tools.bootcheck import image as bootcheck_image

# A program the build runs -> the Debian package that has it.
BUILD = {
    "debootstrap": "debootstrap", "qemu-aarch64-static": "qemu-user-static", "mkfs.ext4": "e2fsprogs",
    "mkfs.vfat": "dosfstools", "mcopy": "mtools", "sfdisk": "fdisk", "bmaptool": "bmap-tools", "xz": "xz-utils",
    "zstd": "zstd", "git": "git", "debugfs": "e2fsprogs", "dpkg-deb": "dpkg",
    "ssh-keygen": "openssh-client",  # the release key's fingerprint, put on the card (deploy/signing.py)
}
# ... and the check (with boot-check's own: the modules it builds, its device tree).
CHECK = {
    "qemu-system-aarch64": "qemu-system-arm", "qemu-img": "qemu-utils", "dtc": "device-tree-compiler",
    "aarch64-linux-gnu-gcc": "gcc-aarch64-linux-gnu", "make": "make", "cpio": "cpio", "mcopy": "mtools",
    "sfdisk": "fdisk", "xz": "xz-utils", "zstd": "zstd", "debootstrap": "debootstrap", "qemu-aarch64-static": "qemu-user-static",
    "mkfs.ext4": "e2fsprogs", "git": "git", "debugfs": "e2fsprogs",
    "ssh-keygen": "openssh-client",  # the update rows sign their bundles
}
# Files that no program names: the kernel's source (gpio-sim) and QEMU's network ROMs, the same
# as boot-check's (its list once named the ROM where Debian does not put it, so it installed again at each run).
CHECK_FILES = dict(bootcheck_image.HOST_FILES)


def packages(tools: dict[str, str], files: dict[str, str] | None = None) -> list[str]:
    return sorted(set(tools.values()) | set((files or {}).values()))


def missing(tools: dict[str, str], files: dict[str, str] | None = None) -> list[str]:
    return sorted({pkg for tool, pkg in tools.items() if shutil.which(tool) is None}
                  | {pkg for path, pkg in (files or {}).items() if not Path(path).exists()})


def ensure(tools: dict[str, str], files: dict[str, str] | None = None, say=print) -> None:
    wanted = missing(tools, files)
    if not wanted:
        return
    say(f"installing {' '.join(wanted)} with apt-get")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "-o", "DPkg::Lock::Timeout=600", "install", "-y", "-qq", "--no-install-recommends",
                    *wanted], check=True, env=env, stdout=subprocess.DEVNULL)
