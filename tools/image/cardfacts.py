"""What the card lint reads off a built card: its boot partition's files, and of its root the
kernel's own lists (which compatible each module serves, which modules each needs), the modules
in the initramfs, and the firmware files. From two folders (the build's staged ``boot/`` and
``root/``) or from a card image (tools/image/lint.py extracts those folders first).

Every file is size-checked before it is read whole.
"""

from __future__ import annotations

import gzip
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from . import fdt

MAX_TEXT = 8 * 1024 * 1024  # modules.alias is about 1 MB
MAX_KERNEL = 96 * 1024 * 1024  # an arm64 Image is about 35 MB unpacked
MAX_INITRD = 256 * 1024 * 1024


class Unreadable(ValueError):
    """A file of the card that is missing or too big to be what it says (one line)."""


def read_limited(path: Path, limit: int) -> bytes:
    if not path.is_file():
        raise Unreadable(f"{path.name}: not on the card")
    size = path.stat().st_size
    if size > limit:
        raise Unreadable(f"{path.name} is {size} bytes: more than {limit} is not what it should be")
    return path.read_bytes()


def module_name(file: str) -> str:
    """``kernel/drivers/regulator/gpio-regulator.ko.xz`` -> ``gpio_regulator``."""
    return re.sub(r"\.ko(\.(xz|zst|gz))?$", "", Path(file).name).replace("-", "_")


def parse_aliases(text: str) -> dict[str, list[str]]:
    """modules.alias: module name (``-`` as ``_``) -> its aliases, in the file's order."""
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "alias":
            out.setdefault(parts[2].replace("-", "_"), []).append(parts[1])
    return out


def of_aliases(text: str) -> dict[str, set[str]]:
    """modules.alias's device tree lines: compatible -> the modules that serve it."""
    out: dict[str, set[str]] = {}
    for module, aliases in parse_aliases(text).items():
        for alias in aliases:
            if alias.startswith("of:N*T*C"):
                compatible = alias[len("of:N*T*C"):]
                compatible = compatible[:-2] if compatible.endswith("C*") else compatible
                out.setdefault(compatible, set()).add(module)
    return out


def tree_compatibles(trees) -> set[str]:
    """Every compatible string of every node of these device trees (.dtb bytes)."""
    return {c for data in trees for node in fdt.parse(data).root.walk() for c in node.strings("compatible")}


def builtin_aliases(data: bytes) -> set[str]:
    """modules.builtin.modinfo's device tree aliases: the compatibles built-in drivers serve."""
    out = set()
    for entry in data.split(b"\0"):
        _, sep, value = entry.partition(b".alias=of:N*T*C")
        if sep:
            text = value.decode("utf-8", "replace")
            out.add(text[:-2] if text.endswith("C*") else text)
    return out


def module_deps(text: str) -> dict[str, list[str]]:
    """modules.dep: module -> the modules it needs."""
    out = {}
    for line in text.splitlines():
        target, sep, deps = line.partition(":")
        if sep:
            out[module_name(target)] = [module_name(d) for d in deps.split()]
    return out


def cpio_files(data: bytes) -> dict[str, bytes]:
    """The files in an initramfs, by name: newc archives one after another, uncompressed or gzip (as
    initramfs-tools writes them, and as the kernel unpacks them; a later one's file wins)."""
    files, pos = {}, 0
    while pos < len(data):
        if data[pos:pos + 2] == b"\x1f\x8b":
            d = zlib.decompressobj(wbits=31)
            files.update(cpio_files(d.decompress(data[pos:], MAX_INITRD)))
            pos = len(data) - len(d.unused_data)
            continue
        if data[pos:pos + 6] in (b"070701", b"070702"):
            namesize = int(data[pos + 94:pos + 102], 16)
            filesize = int(data[pos + 54:pos + 62], 16)
            name = data[pos + 110:pos + 110 + namesize - 1].decode("utf-8", "replace")
            pos += (110 + namesize + 3) & ~3
            if name != "TRAILER!!!":
                files[name] = data[pos:pos + filesize]
            pos += (filesize + 3) & ~3
            continue
        if data[pos:pos + 1] == b"\0":  # padding between archives
            pos += 1
            continue
        raise Unreadable(f"the initramfs has bytes at {pos} that are neither cpio nor gzip")
    return files


def cpio_names(data: bytes) -> list[str]:
    return list(cpio_files(data))


@dataclass
class Kernel:
    """The card's kernel, as far as the lint needs it."""
    version: str
    builtin: set[str]  # compatibles built-in drivers declare (modules.builtin.modinfo)
    image: bytes  # the kernel itself, unpacked (drivers declared with OF_DECLARE have no alias)
    modules: dict[str, set[str]]  # compatible -> modules (modules.alias)
    deps: dict[str, list[str]]  # module -> modules it needs (modules.dep)
    initramfs: set[str]  # the modules in the initramfs

    def serves(self, compatible: str) -> str:
        """"builtin", a module's name, or "" (no driver)."""
        if compatible in self.builtin:
            return "builtin"
        if compatible in self.modules:
            return sorted(self.modules[compatible])[0]
        if b"\0" + compatible.encode() + b"\0" in self.image:
            return "builtin"
        return ""

    def missing(self, module: str) -> list[str]:
        """``module`` and what it needs, less what the initramfs has."""
        wanted, seen = [module], []
        while wanted:
            m = wanted.pop()
            if m not in seen:
                seen.append(m)
                wanted += self.deps.get(m, [])
        return [m for m in seen if m not in self.initramfs]


@dataclass
class Card:
    boot: dict[str, bytes]  # config.txt, cmdline.txt and the .dtb files of the boot partition
    overlays: set[str]  # the .dtbo files in overlays/
    kernel: Kernel | None
    firmware: set[str]  # paths under /usr/lib/firmware (links that resolve included)
    udev_rules: str = ""  # the card's own udev rules, joined
    problems: list[str] = field(default_factory=list)  # what could not be read


def kernel_names(config_txt: str) -> tuple[str, str]:
    kernel = initrd = ""
    for line in config_txt.splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("kernel=") and not kernel:
            kernel = line.split("=", 1)[1].strip()
        elif line.startswith("initramfs ") and not initrd:
            initrd = line.split()[1]
    return kernel, initrd


def unpack_kernel(data: bytes) -> bytes:
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def _resolves(path: Path, root: Path, hops: int = 8) -> bool:
    """Whether ``path`` is a file once its links are followed inside ``root`` (an absolute link
    points into the card's root, not this machine's)."""
    while path.is_symlink() and hops:
        link = path.readlink()
        path = root / str(link).lstrip("/") if link.is_absolute() else path.parent / link
        hops -= 1
    return path.is_file()


def firmware_files(root: Path) -> set[str]:
    top = root / "usr/lib/firmware"
    return {str(p.relative_to(top)) for p in (top.rglob("*") if top.is_dir() else []) if _resolves(p, root)}


def read_card(boot: Path, root: Path) -> Card:
    """The card's facts from its boot partition's folder and its root's."""
    problems = []
    files = {}
    for path in sorted(boot.iterdir()):
        if path.name in ("config.txt", "cmdline.txt") or path.suffix == ".dtb":
            try:
                files[path.name] = read_limited(path, MAX_TEXT)
            except Unreadable as err:
                problems.append(str(err))
    overlays = {p.name for p in (boot / "overlays").glob("*.dtbo")} if (boot / "overlays").is_dir() else set()
    kernel = None
    kernel_file, initrd_file = kernel_names(files.get("config.txt", b"").decode("utf-8", "replace"))
    if not kernel_file or not initrd_file:
        problems.append("config.txt names no kernel= or initramfs")
    else:
        version = kernel_file.removeprefix("vmlinuz-")
        mods = root / "usr/lib/modules" / version
        try:
            kernel = Kernel(
                version=version,
                builtin=builtin_aliases(read_limited(mods / "modules.builtin.modinfo", MAX_TEXT)),
                image=unpack_kernel(read_limited(boot / kernel_file, MAX_KERNEL)),
                modules=of_aliases(read_limited(mods / "modules.alias", MAX_TEXT).decode()),
                deps=module_deps(read_limited(mods / "modules.dep", MAX_TEXT).decode()),
                initramfs={module_name(n) for n in cpio_names(read_limited(boot / initrd_file, MAX_INITRD))
                           if re.search(r"\.ko(\.\w+)?$", n)})
        except (Unreadable, OSError, zlib.error, EOFError) as err:
            problems.append(f"the kernel: {err}")
    rules = "".join(p.read_text(errors="replace") for p in sorted((root / "etc/udev/rules.d").glob("*.rules"))
                    if p.stat().st_size < MAX_TEXT)
    return Card(files, overlays, kernel, firmware_files(root), rules, problems)


# -- a card kept as a test fixture (tests/fixtures/card-*) ------------------------------------

def save_fixture(card: Card, out: Path, dtbs: list[str]) -> None:
    """The part of ``card`` the lint reads, small enough to keep in the tree: the boot partition's
    config.txt, cmdline.txt and the boards' trees as they are, and of the kernel what serves each
    compatible those trees name (not the kernel itself)."""
    import json
    out.mkdir(parents=True, exist_ok=True)
    for name in ("config.txt", "cmdline.txt", *dtbs):
        (out / name).write_bytes(card.boot[name])
    compatibles = sorted(tree_compatibles(card.boot[d] for d in dtbs))
    k = card.kernel
    served = {c: k.serves(c) for c in compatibles}
    modules = {m for m in served.values() if m and m != "builtin"}
    deps = {m: k.deps.get(m, []) for m in sorted(modules)}
    (out / "kernel.json").write_text(json.dumps({
        "version": k.version, "served": served, "deps": deps,
        "initramfs": sorted(k.initramfs)}, indent=1, sort_keys=True) + "\n")
    (out / "firmware.txt").write_text("".join(f"{f}\n" for f in sorted(card.firmware) if f.startswith("brcm/")))
    (out / "udev.rules").write_text(card.udev_rules)


def load_fixture(folder: Path) -> Card:
    import json
    facts = json.loads((folder / "kernel.json").read_text())
    served = facts["served"]
    kernel = Kernel(version=facts["version"], builtin={c for c, m in served.items() if m == "builtin"}, image=b"",
                    modules={c: {m} for c, m in served.items() if m and m != "builtin"}, deps=facts["deps"],
                    initramfs=set(facts["initramfs"]))
    boot = {p.name: p.read_bytes() for p in folder.iterdir() if p.suffix in (".dtb", ".txt") and p.name != "firmware.txt"}
    firmware = set((folder / "firmware.txt").read_text().split())
    rules = (folder / "udev.rules").read_text() if (folder / "udev.rules").exists() else ""
    return Card(boot, set(), kernel, firmware, rules)
