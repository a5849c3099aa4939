"""The header's two display buses, switched on in each board's own device tree as the card ships it.

The card boots Debian's upstream trees (config.txt's ``upstream_kernel=1``), which have no
``__overrides__``: the firmware cannot apply ``dtparam=i2c_arm=on``, ``i2c_arm_baudrate`` or
``spi=on`` to them, so the build writes their effect into the trees themselves (pure; the lint in
tools/image/lint.py reads the result back from the card):

    I2C1 (GPIO2/3)   on, at 400 kHz, and named ``i2c1`` in /aliases, so that it is /dev/i2c-1 whatever
                     other I2C controllers (a Pi 4's HDMI DDC buses) probe first
    SPI0 (GPIO7-11)  on, its pins muxed, a device at each chip select (CE0, CE1) that the card's udev
                     rule gives to spidev (/dev/spidev0.0, /dev/spidev0.1), and named ``spi0``

Both are on whatever the box's settings say, so that switching ``[display] interface`` needs no
other tree. Their pins are the ones the box's settings already keep free of buttons and lamps.
"""

from __future__ import annotations

import struct
from pathlib import Path

from . import fdt

I2C_HZ = 400_000
I2C1 = "i2c@7e804000"  # the header's I2C (BSC1) on every BCM283x and BCM2711
SPI0 = "spi@7e204000"
SPI_PINS = [7, 8, 9, 10, 11]
ALT0 = 4
#: What the card's spidev devices are called; the udev rule (card.SPIDEV_RULE) binds spidev to it.
SPI_COMPATIBLE = "cantstop,spi-display"
SPI_MAX_HZ = 32_000_000


class CannotPatch(ValueError):
    """A tree that lacks a node the patch needs (one line)."""


def _u32(*values: int) -> bytes:
    return struct.pack(f">{len(values)}I", *values)


def _str(*values: str) -> bytes:
    return b"".join(v.encode() + b"\0" for v in values)


def soc_node(tree: fdt.Tree, name: str) -> fdt.Node:
    soc = tree.root.child("soc")
    node = soc.child(name) if soc else None
    if node is None:
        raise CannotPatch(f"{tree.model}: no /soc/{name}")
    return node


def pin_group(tree: fdt.Tree, pins: list[int], function: int) -> fdt.Node:
    """The pin controller's group that puts exactly ``pins`` in ``function`` (spi0_gpio7)."""
    for node in tree.root.walk():
        if node.cells("brcm,pins") == pins and node.cells("brcm,function") == [function]:
            return node
    raise CannotPatch(f"{tree.model}: no pin group for GPIO{pins[0]}-{pins[-1]}")


def set_alias(tree: fdt.Tree, name: str, path: str) -> None:
    aliases = tree.root.child("aliases")
    if aliases is None:
        aliases = fdt.Node("aliases", "/aliases", tree.root)
        tree.root.children.insert(0, aliases)
    aliases.props[name] = _str(path)


def patch(tree: fdt.Tree) -> fdt.Tree:
    """``tree`` with I2C1 at 400 kHz and SPI0 with its two spidev devices on (changed in place)."""
    i2c = soc_node(tree, I2C1)
    i2c.props["status"] = _str("okay")
    i2c.props["clock-frequency"] = _u32(I2C_HZ)
    set_alias(tree, "i2c1", i2c.path)
    spi = soc_node(tree, SPI0)
    spi.props["status"] = _str("okay")
    spi.props["pinctrl-names"] = _str("default")
    spi.props["pinctrl-0"] = _u32(tree.new_phandle(pin_group(tree, SPI_PINS, ALT0)))
    spi.props.setdefault("#address-cells", _u32(1))
    spi.props.setdefault("#size-cells", _u32(0))
    for cs in (0, 1):
        name = f"display@{cs}"
        if spi.child(name) is None:
            spi.children.append(fdt.Node(name, f"{spi.path}/{name}", spi, {
                "compatible": _str(SPI_COMPATIBLE), "reg": _u32(cs), "spi-max-frequency": _u32(SPI_MAX_HZ)}))
    set_alias(tree, "spi0", spi.path)
    tree.index()
    return tree


def patch_file(path: Path) -> None:
    """A .dtb on the card's boot partition, patched where it lies."""
    path.write_bytes(patch(fdt.parse(path.read_bytes())).to_bytes())
