"""The OLED panels the box knows, as plain data: driver chips, interfaces, the sizes each chip comes in.

No Pillow and no luma: the config's checks (and every reader of the config,
such as the web view) know the panels without loading the display's code
(:mod:`hw.display`, which re-exports these).
"""

from __future__ import annotations

DRIVERS = ("ssd1306", "sh1106", "ssd1309", "ssd1322")
INTERFACES = ("i2c", "spi")
#: Driver chips whose modules are wired for SPI only (the 3.12-inch SSD1322 has no I2C on its usual boards).
SPI_ONLY = ("ssd1322",)

#: The panel sizes each driver chip comes in on the modules people buy, the usual one first.
SIZES: dict[str, tuple[tuple[int, int], ...]] = {
    "ssd1306": ((128, 64), (128, 32)),
    "sh1106": ((128, 64),),
    "ssd1309": ((128, 64),),
    "ssd1322": ((256, 64),),
}


def size_name(size: tuple[int, int]) -> str:
    """A panel size as the config writes it: (128, 32) -> "128x32"."""
    return f"{size[0]}x{size[1]}"


def drivers_for(size: str) -> list[str]:
    """The drivers whose chip comes in ``size`` ("128x32"), in the order of ``SIZES``.

    >>> drivers_for("128x32"), drivers_for("256x64"), drivers_for("64x48")
    (['ssd1306'], ['ssd1322'], [])
    """
    return [driver for driver, sizes in SIZES.items() if size in map(size_name, sizes)]
