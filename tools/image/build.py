"""make image: the box's SD card image, from Debian bookworm's packages and PyPI only.

    sudo .venv/bin/python -m tools.image --release-key KEY.pub [--out DIR] [--packages]

Builds (or finds cached in $IMAGE_CACHE, default /var/cache/cantstop-image) the root
(tools/image/root.py), installs the box there with its own deploy/install.sh, then makes
the card: three file systems made from directories (mkfs.vfat and mtools, mkfs.ext4 -d),
a partition table written into the file by sfdisk, no loop device. Writes to DIR
(default build/image):

    cantstop-box-<version>-arm64.img.xz         the card, compressed
    cantstop-box-<version>-arm64.img.bmap       its block map (bmaptool copy skips the empty blocks)
    cantstop-box-<version>-arm64.img.xz.sha256  sha256sum -c checks the download

The card takes update bundles signed by the release key whose public half is
KEY.pub (make image passes RELEASE_KEY's; docs/update.md).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

from deploy import signing
from tools.picheck.roots import Mounted, chroot, ensure_binfmt, sh

from . import boards, card, cardfacts, dtpatch, hosttools, layout, lint, root, slim

REPO = Path(__file__).resolve().parents[2]
XZ_LEVEL = "-3"  # -6 saves a tenth of the size and takes three times as long on two cores


def say(text: str) -> None:
    root.say(text)


def version() -> str:
    return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]


def image_name(ver: str) -> str:
    return f"cantstop-box-{ver}-arm64.img"


def du_bytes(path: Path) -> int:
    return int(sh("du", "-s", "--block-size=1", str(path), capture_output=True, text=True).stdout.split()[0])


def count_files(path: Path) -> int:
    return sum(len(dirs) + len(files) for _, dirs, files in os.walk(path))


def box_owner(root_dir: Path) -> tuple[int, int]:
    for line in (root_dir / "etc/passwd").read_text().splitlines():
        fields = line.split(":")
        if fields[0] == "cantstop":
            return int(fields[2]), int(fields[3])
    raise SystemExit("image: deploy/install.sh made no user cantstop in the root")


def bus_module(settings_text: str) -> str:
    """The kernel module that gives the display's bus its /dev node (i2c-dev, or spidev)."""
    return "spidev" if "spi" in card._bootconfig().wanted(settings_text) else "i2c-dev"


def drop_apt_leftovers(system: Path) -> int:
    """The packages apt downloaded for the install and its package lists (about 170 MB, a fifth of the
    root): a card whose system is never written installs nothing. Bytes freed."""
    freed = 0
    leftovers = [*(system / "var/cache/apt/archives").glob("*.deb"), *(system / "var/cache/apt").glob("*.bin"),
                 *(f for f in (system / "var/lib/apt/lists").glob("*") if f.is_file() and f.name != "lock")]
    for path in leftovers:
        freed += path.stat().st_size
        path.unlink()
    return freed


# The folders of /usr/share drop_docs empties, and the one name each keeps.
DOCS_KEPT = {"doc": "copyright", "man": None, "info": None, "locale": "locale.alias"}


def drop_docs(system: Path) -> int:
    """Manuals, info pages, the packages' documents and the system programs' translations (about 65 MB):
    nobody reads them on a box with no login. Every package's copyright file stays, as Debian's
    licences ask, and so do locale.alias and the box's own messages (they live in its package). Bytes freed."""
    freed = 0
    for folder, kept in DOCS_KEPT.items():
        top = system / "usr/share" / folder
        for where, dirs, files in os.walk(top, topdown=False):  # deepest first: a folder once emptied goes too
            here = Path(where)
            for name in [*files, *(d for d in dirs if (here / d).is_symlink())]:
                if name != kept:
                    freed += (here / name).lstat().st_size
                    (here / name).unlink()
            if here != top and not any(here.iterdir()):
                here.rmdir()
    return freed


def stage_card(installed: Path, release_key: Path) -> Path:
    """A copy of the installed root, split into the card's three trees: root/, boot/, data/; its updater
    takes bundles signed by the key in ``release_key`` (a .pub) only."""
    stage = root.CACHE / "card"
    root._clear(stage)
    stage.mkdir(parents=True)
    sh("cp", "-a", "--reflink=auto", str(installed), str(stage / "root"))
    (stage / "boot").mkdir()
    (stage / "data").mkdir()
    system = stage / "root"
    drop_apt_leftovers(system)
    drop_docs(system)
    defaults = system / "etc/default/raspi-firmware"
    if "CMA=" not in defaults.read_text():
        defaults.write_text(defaults.read_text() + card.NO_CMA)
    version_ = root.kernel_version(system)
    with Mounted(system):  # raspi-firmware's own hook writes config.txt and cmdline.txt again, as on a kernel update
        chroot(system, *firmware_hook(version_), stdout=subprocess.DEVNULL, env=FIRMWARE_HOOK_ENV)
    card.write_card(system, stage / "boot", stage / "data", root.HERE, box_owner(system))
    # On the data partition, where /opt/cantstop-box is: cantstop-box-update --trust can replace it.
    signing.trust(release_key, stage / "data" / "opt" / signing.TRUST_FILE)
    patch_trees(stage / "boot")
    module = bus_module((stage / "boot" / card.BOOT_SETTINGS).read_text())
    if module not in card.modules_loaded(system):
        # deploy/install.sh of this commit loads no bus module at boot: the card does.
        (system / "etc/modules-load.d/cantstop-card.conf").write_text(
            f"# The display's bus (its /dev node), for the box\n{module}\n")
    slim_card(stage, version_, module)
    sh("systemctl", f"--root={system}", "--quiet", "enable", *card.ENABLE)
    sh("systemctl", f"--root={system}", "--quiet", "disable", *card.DISABLE, check=False, stderr=subprocess.DEVNULL)
    sh("systemctl", f"--root={system}", "--quiet", "mask", *card.MASK)
    return stage


def slim_card(stage: Path, version_: str, bus_module_name: str) -> dict[str, int]:
    """What a Pi never loads off the staged card (tools/image/slim.py) for kernel ``version_``; the modules'
    tables made again by the root's own depmod. Bytes freed by each step, said in the build's log."""
    system = stage / "root"
    trees = [p.read_bytes() for p in sorted((stage / "boot").glob("bcm*-rpi-*.dtb"))]
    loaded = set(card.INITRAMFS_MODULES) | card.modules_loaded(system) | {bus_module_name}
    files, modules = slim.drop_modules(system, version_, cardfacts.tree_compatibles(trees), loaded)
    with Mounted(system):
        chroot(system, "depmod", version_)
    freed = {"modules": modules, "trees": slim.drop_other_trees(system, version_),
             "boot copy": slim.drop_boot_copy(system),
             "installers": sum(slim.drop_installers(v) for v in sorted((stage / "data").glob("opt/releases/*/venv"))),
             "wifi firmware": slim.drop_wifi_firmware(system, {c.firmware for b in boards.BOARDS for c in b.chips}),
             "gpu variants": slim.drop_gpu_variants(stage / "boot")}
    say(f"left off the card: {files} modules no Pi loads, " + ", ".join(f"{k} {v / layout.MiB:.0f} MiB"
                                                                           for k, v in freed.items()))
    return freed


# How a kernel update runs the hooks in /etc/kernel/postinst.d (Debian's kernel handbook, "Kernel hooks"):
# raspi-firmware's returns at once unless told it is the package's configure step, so run without it
# it wrote nothing, and cmdline.txt kept the cma=64M that leaves a Pi 4 unbootable.
FIRMWARE_HOOK_ENV = {"DEB_MAINT_PARAMS": "configure"}


def firmware_hook(kernel_version: str) -> list[str]:
    return ["/etc/kernel/postinst.d/z50-raspi-firmware", kernel_version]


def patch_trees(boot: Path) -> list[str]:
    """The boards' trees on the boot partition with the header's buses on (tools/image/dtpatch.py)."""
    patched = []
    for name in sorted(p.name for p in boot.glob("bcm*-rpi-*.dtb")):
        dtpatch.patch_file(boot / name)
        patched.append(name)
    missing = [b.dtb for b in boards.BOARDS if b.dtb not in patched]
    if missing:
        raise SystemExit(f"image: the boot partition has no {', '.join(missing)}: the card would not boot those boards")
    return patched


# Each ext4's options. The data partition grows at the first boot to fill the card, online, which
# can add groups only as far as its reserved group descriptor blocks reach: mke2fs by itself took
# 1 KiB blocks for so small a file system and reserved for 64 GiB at most, so a bigger card's grow
# needed an online meta_bg conversion that nothing had run. 4 KiB blocks, and a reserve for the
# largest partition an MBR table holds (2 TiB: 2^29 blocks of 4 KiB).
GROW_TO_BLOCKS = 2 ** 32 * layout.SECTOR // 4096


def mkfs_args(name: str, label: str, files: int) -> list[str]:
    journal = name == "data"
    extended = "lazy_itable_init=0,lazy_journal_init=0" + (f",resize={GROW_TO_BLOCKS}" if journal else "")
    return ["-q", "-F", "-L", label, "-N", str(layout.inodes(files)), "-b", "4096",
            "-O", "has_journal" if journal else "^has_journal", "-E", extended]


def make_image(stage: Path, out: Path) -> dict:
    """The three file systems, the table, the whole card in ``out`` (raw, not yet compressed)."""
    sizes = {name: du_bytes(stage / name) for name in ("root", "data")}
    parts = {p.name: p for p in layout.plan(sizes["root"], sizes["data"])}
    work = stage / "fs"
    work.mkdir()
    boot_img = work / "boot.img"
    sh("mkfs.vfat", "-C", "-F", "32", "-n", card.LABELS["boot"], str(boot_img), str(parts["boot"].size // 1024),
       stdout=subprocess.DEVNULL)
    entries = sorted(str(p) for p in (stage / "boot").iterdir())
    sh("mcopy", "-s", "-p", "-m", "-i", str(boot_img), *entries, "::/")
    for name in ("root", "data"):
        img = work / f"{name}.img"
        sh("mkfs.ext4", *mkfs_args(name, card.LABELS[name], count_files(stage / name)),
           "-d", str(stage / name), str(img), f"{parts[name].size // 1024}k", stdout=subprocess.DEVNULL)
    out.unlink(missing_ok=True)
    with open(out, "wb") as f:
        f.truncate(layout.image_size(list(parts.values())))
    sh("sfdisk", "--quiet", str(out), input=layout.sfdisk_script(list(parts.values())), text=True)
    for name, part in parts.items():
        sh("dd", f"if={work / f'{name}.img'}", f"of={out}", "bs=4M", f"seek={part.start // (4 * layout.MiB)}",
           "conv=notrunc,sparse", "status=none")
    shutil.rmtree(work)
    return {"partitions": {n: {"start": p.start, "size": p.size} for n, p in parts.items()},
            "content": sizes, "image_bytes": out.stat().st_size}


# How the card is compressed: xz for a release (Raspberry Pi Imager, Etcher and bmaptool read it),
# zstd for a developer's build and the check's copies (--zstd: a few seconds where xz takes a minute
# or more, for a card a fifth bigger).
CODECS = {"xz": ["xz", "-T2", XZ_LEVEL, "--force"], "zst": ["zstd", "-T2", "-q", "-6", "--rm", "--force"]}


def compressed_name(raw: Path, codec: str) -> Path:
    return raw.with_name(f"{raw.name}.{codec}")


def finish(raw: Path, codec: str = "xz") -> dict:
    """bmap, the compressed card and its sha256 beside the raw card (which is then removed)."""
    bmap = raw.with_suffix(".img.bmap")
    sh("bmaptool", "-q", "create", "-o", str(bmap), str(raw))
    packed, sums = compressed_name(raw, codec), compressed_name(raw, codec + ".sha256")
    for other in CODECS:  # one card in the folder: image-check takes the one there is
        compressed_name(raw, other).unlink(missing_ok=True)
        compressed_name(raw, other + ".sha256").unlink(missing_ok=True)
    sh(*CODECS[codec], str(raw))
    sums.write_text(sh("sha256sum", packed.name, cwd=packed.parent, capture_output=True, text=True).stdout)
    return {"compressed_bytes": packed.stat().st_size, "codec": codec, "files": [packed.name, bmap.name, sums.name]}


def built_card(out: Path | None = None) -> Path:
    """The card make image wrote for this version: its .img.xz, or its .img.zst (a --zstd build)."""
    raw = (out or REPO / "build/image") / image_name(version())
    found = [p for p in (compressed_name(raw, c) for c in CODECS) if p.exists()]
    return max(found, key=lambda p: p.stat().st_mtime) if found else compressed_name(raw, "xz")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="image", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(REPO / "build/image"), help="where the card's files go (build/image)")
    parser.add_argument("--zstd", action="store_true", help="a developer's build: .img.zst (fast), not a release's .img.xz")
    parser.add_argument("--packages", action="store_true", help="list the Debian packages it installs here, and stop")
    parser.add_argument("--release-key", metavar="KEY.pub", help="the public half of the release key whose bundles "
                        "the card takes (make image: RELEASE_KEY's)")
    args = parser.parse_args(argv)
    if args.packages:
        print(" ".join(hosttools.packages(hosttools.BUILD)))
        return 0
    if not args.release_key:
        print("image: needs --release-key KEY.pub, the key the card takes bundles from (make image passes "
              "RELEASE_KEY's; docs/update.md)", file=sys.stderr)
        return 1
    try:
        release_key = Path(args.release_key)
        trusted = signing.fingerprint(signing.public_key(release_key))
    except signing.UpdateError as err:
        print(f"image: --release-key: {err}", file=sys.stderr)
        return 1
    if os.geteuid() != 0:
        print("image: needs root (debootstrap, chroot, mounts): sudo make image", file=sys.stderr)
        return 1
    started = time.monotonic()
    hosttools.ensure(hosttools.BUILD, say=say)
    ensure_binfmt()
    times = {}
    base = root.base_root()
    times["base"] = time.monotonic() - started
    installed = root.installed_root(base)
    times["installed"] = time.monotonic() - started - times["base"]
    t = time.monotonic()
    stage = stage_card(installed, release_key)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    raw = out / image_name(version())
    figures = make_image(stage, raw)
    times["card"] = time.monotonic() - t
    t = time.monotonic()
    linted = run_lint(raw, out)
    figures |= finish(raw, "zst" if args.zstd else "xz")
    times["compress"] = time.monotonic() - t
    root._clear(stage)
    figures["seconds"] = {k: round(v) for k, v in times.items()} | {"total": round(time.monotonic() - started)}
    figures["kernel"] = root.kernel_version(installed)
    figures["release_key"] = trusted
    (out / "build.json").write_text(json.dumps(figures, indent=1) + "\n")
    mib = layout.MiB
    say(f"{raw.name}: {figures['image_bytes'] / mib:.0f} MiB, {figures['compressed_bytes'] / mib:.0f} MiB as .{figures['codec']}; "
        f"built in {figures['seconds']['total']} s ({', '.join(f'{k} {v} s' for k, v in figures['seconds'].items())})")
    say(f"in {out}: {', '.join(figures['files'])}")
    say(f"the card takes update bundles signed by {trusted} ({release_key})")
    if not linted:
        say(f"the card lint failed (table above, and {out / 'lint.md'}): this card does not boot every board it claims")
        return 1
    return 0


def run_lint(raw: Path, out: Path) -> bool:
    """The card lint on the card just written (read back from the image file), its table printed and
    kept in ``out``/lint.md. Whether it passed."""
    import tempfile
    with tempfile.TemporaryDirectory(prefix="card-lint-", dir=out) as tmp:
        boot_dir, root_dir = lint.extract(raw, Path(tmp))
        facts = lint.read_card(boot_dir, root_dir)
    results = lint.lint(facts)
    say("the card lint, each board's own tree read from the card:\n" + lint.table(results).rstrip())
    for problem in facts.problems:
        say(f"lint: {problem}")
    (out / "lint.md").write_text(lint.table(results, markdown=True))
    return lint.passed(results) and not facts.problems
