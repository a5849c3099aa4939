"""The boards the card claims, and what the lint (tools/image/lint.py) checks on each: its own tree
on the boot partition, the SD controller its card sits on, the Wi-Fi chips it ships with, and the
config.txt sections that apply to it (Raspberry Pi's "Conditional filters").
"""

from __future__ import annotations

from dataclasses import dataclass

SDHOST = "brcm,bcm2835-sdhost"  # the BCM2837 boards' SD card slot
EMMC2 = "brcm,bcm2711-emmc2"  # the BCM2711 boards'


@dataclass(frozen=True)
class Chip:
    """A Wi-Fi chip, by the firmware name the kernel's brcmfmac asks for."""
    name: str  # as sold: BCM43438, CYW43455...
    firmware: str  # brcmfmac43430-sdio: its .bin, and the board's own settings, .<board>.txt
    gap: str = ""  # why the card cannot have its firmware, when it cannot
    #: The chip is on one board only, whose settings are then the plain .txt (the 400's CYW43456).
    one_board: bool = False


CYW43438 = Chip("BCM43438", "brcmfmac43430-sdio")
CYW43455 = Chip("CYW43455", "brcmfmac43455-sdio")
CYW43456 = Chip("CYW43456", "brcmfmac43456-sdio", one_board=True)
CYW43436 = Chip("CYW43436", "brcmfmac43430b0-sdio",
                gap="brcmfmac43430b0-sdio.bin is in no Debian package (bookworm, trixie, forky): "
                    "a Zero 2 W with this chip has no Wi-Fi on the card")


@dataclass(frozen=True)
class Board:
    name: str
    dtb: str  # the upstream tree's file, as upstream_kernel=1 makes the firmware load it
    sd: str  # the compatible of the controller the SD card (or eMMC) is on
    chips: tuple[Chip, ...]
    filters: frozenset[str]  # config.txt's [sections] that apply to it, besides [all]


BOARDS = [
    Board("3B", "bcm2837-rpi-3-b.dtb", SDHOST, (CYW43438,), frozenset({"pi3"})),
    Board("3B+", "bcm2837-rpi-3-b-plus.dtb", SDHOST, (CYW43455,), frozenset({"pi3", "pi3+"})),
    Board("3A+", "bcm2837-rpi-3-a-plus.dtb", SDHOST, (CYW43455,), frozenset({"pi3", "pi3+"})),
    Board("Zero 2 W", "bcm2837-rpi-zero-2-w.dtb", SDHOST, (CYW43438, CYW43436), frozenset({"pi0", "pi02"})),
    Board("4B", "bcm2711-rpi-4-b.dtb", EMMC2, (CYW43455,), frozenset({"pi4"})),
    Board("400", "bcm2711-rpi-400.dtb", EMMC2, (CYW43456,), frozenset({"pi4", "pi400"})),
    Board("CM4", "bcm2711-rpi-cm4-io.dtb", EMMC2, (CYW43455,), frozenset({"pi4", "cm4"})),
]
#: Every config.txt filter that names a board (a section under another board's filter does not apply).
BOARD_FILTERS = frozenset().union(*(b.filters for b in BOARDS)) | {"pi1", "pi2", "pi5", "cm3", "cm5", "pi500"}
