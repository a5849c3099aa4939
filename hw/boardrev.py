"""The board's revision code, which gpiozero needs to name a Pi's pins, also where the kernel does not say it.

gpiozero reads it from ``/proc/device-tree/system/linux,revision`` (a property the Pi's firmware
fills in Raspberry Pi OS's own device trees) or from ``/proc/cpuinfo``'s ``Revision`` line (32-bit
Raspberry Pi kernels only). The card boots Debian's arm64 kernel on the upstream trees, which have
neither: gpiozero then refused the board ("unable to locate Pi revision") and the box never started
(seen on QEMU's raspi4b with the card). The same tree's first compatible names the model, and a
revision code of that model is all the box needs of it: the header's pins are the same on every
revision of a model. ``revision_of`` is pure; ``read_revision`` reads the three files under ``root``.
"""

from __future__ import annotations

import struct
from pathlib import Path

TREE_REVISION = "proc/device-tree/system/linux,revision"
CPUINFO = "proc/cpuinfo"
TREE_COMPATIBLE = "proc/device-tree/compatible"
LIMIT = 64 * 1024  # each of these files is a few hundred bytes

# A model's compatible (the upstream trees' and Raspberry Pi's own) -> a revision code of that model,
# as gpiozero's table names it (tests/hw/test_boardrev.py checks each against gpiozero's pi_info).
BY_COMPATIBLE = {
    "raspberrypi,model-zero-w": 0x9000C1,
    "raspberrypi,model-zero-2-w": 0x902120,
    "raspberrypi,2-model-b": 0xA01041,
    "raspberrypi,3-model-b": 0xA02082,
    "raspberrypi,3-model-b-plus": 0xA020D3,
    "raspberrypi,3-model-a-plus": 0x9020E0,
    "raspberrypi,3-compute-module": 0xA020A0,
    "raspberrypi,4-model-b": 0xC03111,
    "raspberrypi,400": 0xC03130,
    "raspberrypi,4-compute-module": 0xB03140,
    "raspberrypi,5-model-b": 0xC04170,
}


def revision_of(tree_revision: bytes | None, cpuinfo: str | None, compatible: bytes | None) -> int | None:
    """The revision code: the firmware's, else /proc/cpuinfo's, else one of the model the tree names;
    None when none of them says (then gpiozero's own error stands). A zero code is no code."""
    if tree_revision is not None and len(tree_revision) >= 4:
        code = struct.unpack(">L", tree_revision[:4])[0]
        if code:
            return code & 0xFFFF if f"{code:x}".startswith("100") else code  # an over-volted board's prefix
    for line in (cpuinfo or "").splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "Revision":
            try:
                code = int(value.strip(), 16)
            except ValueError:
                break
            if code:
                return code & 0xFFFF if value.strip().startswith("100") else code
    for name in (compatible or b"").decode("ascii", "replace").split("\0"):
        if name in BY_COMPATIBLE:
            return BY_COMPATIBLE[name]
    return None


def read_small(path: Path | str) -> bytes | None:
    """A small file of /proc (at most LIMIT bytes read), or None where it cannot be read."""
    try:
        with open(path, "rb") as file:
            return file.read(LIMIT)
    except OSError:
        return None


def read_revision(root: Path | str = "/") -> int | None:
    """revision_of() from this machine's files (under ``root``, for tests)."""
    root = Path(root)
    cpuinfo = read_small(root / CPUINFO)
    return revision_of(read_small(root / TREE_REVISION), cpuinfo.decode("ascii", "replace") if cpuinfo else None,
                       read_small(root / TREE_COMPATIBLE))
