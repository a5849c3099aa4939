"""What a Pi never loads, taken off the card's root before its file systems are made (issue 44,
item 6): other vendors' device trees, the modules of hardware no Pi can have, the second copy of
the kernel and its initramfs in /boot, and the installers of the box's venv.

Which modules go is decided from the kernel's own tables (modules.alias, modules.dep), not from
a list of folders: a module goes only when every device it serves is one no Pi has, that is
every alias it declares is of a bus a Pi lacks (PCI, ACPI, DMI, ...) or a device tree
compatible that none of the boards' trees has. A module with no alias (a file system, a
protocol, a library) stays, as does every module one that stays depends on, every module the
initramfs or the card loads by name, and virtio's (QEMU's board, for image-check).

Pure functions here; ``drop_*`` touch a staged root. Tested in tests/tools/test_image_slim.py.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from .cardfacts import module_name, parse_aliases

# Buses and tables a Pi's kernel never matches a device on. PCI is judged apart (pci_absent).
ABSENT_BUSES = frozenset({"acpi", "dmi", "pnp", "x86cpu", "ccw", "ap", "vio", "parisc", "zorro", "eisa",
                          "tbsvc", "fsl-mc", "mhi", "wmi", "ishtp", "cxl", "vmbus", "ssam", "ipack", "mcb",
                          "vme", "hdaudio", "ulpi", "sdw", "cdx", "fsi", "rpmsg", "tee", "ide"})
ALWAYS_KEPT = ("virtio",)  # QEMU's virt board, where image-check boots the card
# The folder of /usr/lib/linux-image-<version> whose trees a Pi boots (raspi-firmware copies them).
TREES_KEPT = "broadcom"
OF_ALIAS = re.compile(r"^of:N[^T]*T[^C]*C(?P<compatible>.+?)(C\*)?$")


def parse_deps(text: str) -> dict[str, list[str]]:
    """modules.dep: a module's file (relative to the kernel's modules folder) -> the files it needs."""
    out = {}
    for line in text.splitlines():
        path, sep, needs = line.partition(":")
        if sep:
            out[path.strip()] = needs.split()
    return out


# PCI on a Pi: the Pi 4's and 400's USB 3 controller (VIA's VL805, served by xhci-pci's class alias
# and named here too), and a CM4's slot. A driver matching by class (xHCI, NVMe, AHCI: "pci:v*d*...")
# stays for any of them; one that names its own card's vendor and device goes.
PI_PCI = ("pci:v00001106d00003483",)


def pci_absent(alias: str) -> bool:
    return not alias.startswith("pci:v*") and not alias.startswith(PI_PCI)


def absent(alias: str, compatibles: set[str]) -> bool:
    """Whether ``alias`` names only a device no board has."""
    bus = alias.split(":", 1)[0].rstrip("*") if ":" in alias else ""  # "acpi*:INT3400:*" is ACPI's
    if bus == "pci":
        return pci_absent(alias)
    if bus == "of":
        found = OF_ALIAS.match(alias)
        # A wildcard compatible ("of:NgpioT*C*") matches by node name: not judged here.
        return found is not None and "*" not in found["compatible"] and found["compatible"] not in compatibles
    return bus in ABSENT_BUSES


def _closure(deps: dict[str, list[str]], start: set[str]) -> set[str]:
    """``start`` with every module they need, and what those need."""
    out, todo = set(start), list(start)
    while todo:
        for need in deps.get(todo.pop(), []):
            if need not in out:
                out.add(need)
                todo.append(need)
    return out


def self_test(path: str) -> bool:
    """The kernel's own self-tests (lib/test_bpf.ko, 4.6 MB, ...): loaded by hand by a kernel developer only."""
    return path.startswith("kernel/lib/") and Path(path).name.startswith("test_")


def unneeded(deps: dict[str, list[str]], aliases: dict[str, list[str]], compatibles: set[str],
             loaded: set[str]) -> list[str]:
    """The module files to drop: those whose every alias is absent(), and those that cannot load without
    one that goes; unless kept by name or needed by one a Pi has a device for.

    An auxiliary device ("auxiliary:mlx5_core.eth") exists only where its parent's driver runs: its
    driver is judged with that parent (a Mellanox card's RDMA part goes with the card's driver)."""
    loaded = {name.replace("-", "_") for name in loaded}
    names = {path: module_name(path) for path in deps}

    def present(path: str, dropped_names: set[str]) -> bool:
        own = aliases.get(names[path], [])
        return any(not absent(a, compatibles) and not (a.startswith("auxiliary:")
                                                       and a[len("auxiliary:"):].split(".")[0] in dropped_names)
                   for a in own)

    def by_name(path: str) -> bool:
        return names[path] in loaded or names[path].startswith(ALWAYS_KEPT)

    # First the drivers of absent devices, counting every auxiliary device absent; then each auxiliary
    # driver whose parent stays comes back.
    every = {names[p] for p in deps}
    first = {p for p in deps if (aliases.get(names[p]) and not present(p, every) and not by_name(p)) or self_test(p)}
    dropped_names = {names[p] for p in first}
    keep = _closure(deps, {p for p in deps if by_name(p) or (not self_test(p) and present(p, dropped_names))})
    dropped = first - keep
    changed = True
    while changed:  # a module with no device of its own that needs one that goes cannot load: it goes too
        changed = False
        for path in deps:
            if path not in dropped and path not in keep and any(n in dropped for n in deps[path]):
                dropped.add(path)
                changed = True
    return sorted(dropped)


def _size(path: Path) -> int:
    return path.lstat().st_size if not path.is_dir() or path.is_symlink() else \
        sum(p.lstat().st_size for p in path.rglob("*"))


def _remove(path: Path) -> int:
    freed = _size(path)
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()
    return freed


def drop_modules(system: Path, version: str, compatibles: set[str], loaded: set[str]) -> tuple[int, int]:
    """Removes unneeded() from the root's modules (depmod must then run in it). (files, bytes) removed."""
    top = system / "usr/lib/modules" / version
    deps = parse_deps((top / "modules.dep").read_text())
    aliases = parse_aliases((top / "modules.alias").read_text())
    gone = unneeded(deps, aliases, compatibles, loaded)
    return len(gone), sum(_remove(top / path) for path in gone)


def drop_other_trees(system: Path, version: str) -> int:
    """Every vendor's folder of device trees but the Pi's. Bytes freed."""
    top = system / "usr/lib" / f"linux-image-{version}"
    if not top.is_dir():
        return 0
    return sum(_remove(p) for p in top.iterdir() if p.name != TREES_KEPT)


# The kernel and initramfs the firmware boots are on the boot partition; the root's own copies are
# never read on a card whose root is read-only (no kernel update runs there).
BOOT_COPIES = ("vmlinuz-", "initrd.img-", "System.map-")


def drop_boot_copy(system: Path) -> int:
    boot = system / "boot"
    return sum(_remove(p) for p in sorted(boot.iterdir()) if p.name.startswith(BOOT_COPIES))


# The venv's installers: an update makes its release a new venv from the system's own ensurepip,
# so the shipped one's pip and setuptools are never run on the card.
INSTALLERS = ("pip", "setuptools", "pkg_resources", "_distutils_hack", "distutils-precedence.pth")


def drop_installers(venv: Path) -> int:
    freed = 0
    for site in venv.glob("lib/python3*/site-packages"):
        for item in sorted(site.iterdir()):
            stem = re.sub(r"-[^-]+\.dist-info$", "", item.name)
            if item.name in INSTALLERS or (item.name.endswith(".dist-info") and stem in ("pip", "setuptools")):
                freed += _remove(item)
    for script in sorted(venv.glob("bin/pip*")):
        freed += _remove(script)
    return freed



def drop_wifi_firmware(system: Path, chips: set[str]) -> int:
    """Broadcom's and Cypress's Wi-Fi firmware for chips no board has. ``chips``: the boards' firmware names
    (brcmfmac43455-sdio ...); their files (each .bin, .clm_blob, board's .txt) stay, and what they link to."""
    top = system / "usr/lib/firmware"
    brcm, cypress = top / "brcm", top / "cypress"
    if not brcm.is_dir():
        return 0
    kept = {p for p in brcm.iterdir() if p.name.split(".", 1)[0] in chips}
    targets = {(p.parent / p.readlink()).resolve() for p in kept if p.is_symlink()}
    freed = sum(_remove(p) for p in sorted(brcm.iterdir()) if p not in kept)
    if cypress.is_dir():
        freed += sum(_remove(p) for p in sorted(cypress.iterdir()) if p.resolve() not in targets)
    return freed


# The Pi's GPU firmware comes in variants: start.elf / start4.elf boot every board the card claims;
# _x (the old camera stack and codecs), _db (debug) and _cd (cut down, for gpu_mem=16) only load when
# config.txt asks for them, which the card's does not. Each goes with its fixup file.
GPU_VARIANTS = re.compile(r"^(start4?|fixup4?)(x|db|cd|_x|_db|_cd)\.(elf|dat)$")
ASKS_FOR_VARIANT = re.compile(r"^\s*(start_x|start_debug|start_file|fixup_file|gpu_mem\w*|start_cd)\s*=", re.M)


def drop_gpu_variants(boot: Path) -> int:
    """The GPU firmware's variants off the boot partition, unless its config.txt asks for one. Bytes freed."""
    if ASKS_FOR_VARIANT.search((boot / "config.txt").read_text()):
        return 0
    return sum(_remove(p) for p in sorted(boot.iterdir()) if GPU_VARIANTS.match(p.name))
