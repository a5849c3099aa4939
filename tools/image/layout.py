"""The card's partition table and sizes (pure: tested in tests/tools/test_image.py).

An MBR ("dos") table, as the boot ROM of a Pi Zero 2 W and a Pi 3 needs (a Pi 4 reads
either): a FAT32 boot partition (type 0c, active), the root (ext4, no journal: it is
never written) and the data partition last, so that the first boot can grow it to the
card's end. Every partition starts on a 4 MiB boundary (an SD card's erase block).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

MiB = 1024 * 1024
SECTOR = 512
ALIGN = 4 * MiB
BOOT_SIZE = 256 * MiB  # the firmware, two kernels and their initramfs, the device trees: about 100 MiB
ROOT_SLACK = 64 * MiB  # an ext4 made from a directory needs room for its own tables
DATA_SPARE = 128 * MiB  # room for the games before the first boot grows the partition


@dataclass(frozen=True)
class Partition:
    name: str
    start: int  # bytes
    size: int  # bytes
    kind: str  # the MBR type, as sfdisk writes it
    bootable: bool = False

    @property
    def end(self) -> int:
        return self.start + self.size


def align_up(n: int, to: int = ALIGN) -> int:
    return -(-n // to) * to


def fs_size(content: int, spare: int) -> int:
    """An ext4's size for ``content`` bytes of files: a tenth more for its blocks' tables, ``spare``, aligned."""
    if content < 0 or spare < 0:
        raise ValueError("sizes are not negative")
    return align_up(content + content // 10 + spare)


def plan(root_content: int, data_content: int, boot_size: int = BOOT_SIZE) -> list[Partition]:
    """The three partitions for a root and a data tree of these sizes (bytes)."""
    boot = Partition("boot", ALIGN, align_up(boot_size), "c", True)
    root = Partition("root", boot.end, fs_size(root_content, ROOT_SLACK), "83")
    data = Partition("data", root.end, fs_size(data_content, DATA_SPARE), "83")
    return [boot, root, data]


def image_size(parts: list[Partition]) -> int:
    return max(p.end for p in parts)


def sfdisk_script(parts: list[Partition]) -> str:
    """What sfdisk reads to write that table into the image file (no loop device)."""
    lines = ["label: dos", "unit: sectors", ""]
    for p in parts:
        if p.start % SECTOR or p.size % SECTOR:
            raise ValueError(f"{p.name} is not on whole sectors")
        lines.append(f"start={p.start // SECTOR}, size={p.size // SECTOR}, type={p.kind}"
                     + (", bootable" if p.bootable else ""))
    return "\n".join(lines) + "\n"


def inodes(files: int) -> int:
    """Inodes for an ext4 holding ``files`` files: a third more, and at least 16,384."""
    return max(16384, files + files // 3)


UNPACKERS = {".xz": ["xz", "-dc"], ".zst": ["zstd", "-dcq"]}


def unpack(image: Path, disk: Path) -> None:
    """A copy of the card in ``image`` (an .img.xz, a developer's .img.zst, or a raw card written out
    already: a copy patched by hand, to try a fix without a build) written to ``disk``."""
    with open(disk, "wb") as out:
        if image.suffix in UNPACKERS:
            subprocess.run([*UNPACKERS[image.suffix], str(image)], stdout=out, check=True)
        else:
            with open(image, "rb") as raw:
                shutil.copyfileobj(raw, out, 1 << 20)


def partitions(disk: Path) -> list[dict]:
    """A written card's partitions, as sfdisk reads its table: [{start, size}] in bytes."""
    table_ = json.loads(subprocess.run(["sfdisk", "-J", str(disk)], capture_output=True, text=True,
                                       check=True).stdout)["partitiontable"]
    return [{"start": p["start"] * 512, "size": p["size"] * 512} for p in table_["partitions"]]


def fat_read(disk: Path, offset: int, name: str) -> bytes:
    """A file from the FAT file system at ``offset`` in ``disk`` (mtools)."""
    return subprocess.run(["mcopy", "-n", "-i", f"{disk}@@{offset}", f"::{name}", "-"], capture_output=True,
                          check=True).stdout
