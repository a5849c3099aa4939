"""What the running board is, as the GPIO backends need it: a frozen value, read once and passed in.

gpiozero's backends each look at the machine for themselves (its revision, its chips). The box reads what
it needs of the machine into one :class:`Board`: the SoC the device tree names (a Pi 5's GPIO sits behind
its RP1 chip, which only lgpio reaches), the GPIO chips in /dev (none: not a Pi, try the emulator),
whether /dev/gpiomem is there (what the fallback without lgpio opens, :mod:`hw.gpiomem`) and the revision
code (:mod:`hw.boardrev`: also where Debian's kernel does not say it). ``hw.buttons.real_pin_factory`` and
the service's wait for its devices are handed one; a test makes the value it needs, or reads a fake tree
under its tmp_path with :func:`read_board`, and patches nothing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from hw.boardrev import TREE_COMPATIBLE, read_revision, read_small

PI5_SOC = "brcm,bcm2712"  # Pi 5, Pi 500, CM5


@dataclass(frozen=True)
class Board:
    """A board's facts: the device tree's ``compatible`` names (most specific first), the ``gpiochips``
    (their nodes' paths, in number order), ``gpiomem`` (whether that node is there), the ``revision`` code
    (None where nothing says it) and ``dev``, the folder of its device nodes. ``Board()`` is a machine
    with no device tree and no GPIO: a laptop."""

    compatible: tuple[str, ...] = ()
    gpiochips: tuple[str, ...] = ()
    gpiomem: bool = False
    revision: int | None = None
    dev: str = "/dev"

    @property
    def soc(self) -> str:
        """The SoC the device tree names ("brcm,bcm2711" ...), or "" where it names none."""
        return next((name for name in self.compatible if name.startswith("brcm,bcm")), "")

    @property
    def is_pi5(self) -> bool:
        """A Pi 5 (or a Pi 500, a CM5): its GPIO is the RP1's, which only lgpio reaches."""
        return self.soc == PI5_SOC

    @property
    def has_gpio(self) -> bool:
        """Whether the machine has a GPIO chip at all."""
        return bool(self.gpiochips)

    @property
    def gpiomem_path(self) -> str:
        """The node gpiozero's native backend opens (hw.gpiomem), and nothing else."""
        return f"{self.dev}/gpiomem"

    def chip_path(self, chip: int | None = None) -> str:
        """The node gpiozero's lgpio factory opens: ``chip``, else gpiochip4 on a Pi 5 that has it, else gpiochip0.

        >>> Board().chip_path()
        '/dev/gpiochip0'
        >>> pi5 = Board(compatible=("raspberrypi,5-model-b", PI5_SOC), gpiochips=("/dev/gpiochip0", "/dev/gpiochip4"))
        >>> pi5.chip_path()
        '/dev/gpiochip4'
        >>> Board().chip_path(2)
        '/dev/gpiochip2'
        """
        if chip is None:
            chip = 4 if self.is_pi5 and f"{self.dev}/gpiochip4" in self.gpiochips else 0
        return f"{self.dev}/gpiochip{chip}"


def _chip_number(path: Path) -> tuple[int, str]:
    """gpiochip2 before gpiochip10: by the length of the name, then the name."""
    return len(path.name), path.name


def read_board(root: Path | str = "/") -> Board:
    """This machine's :class:`Board`, from its files under ``root`` (a fake tree in the tests)."""
    root = Path(root)
    dev = root / "dev"
    names = (read_small(root / TREE_COMPATIBLE) or b"").decode("ascii", "replace").split("\0")
    return Board(
        compatible=tuple(name for name in names if name),
        gpiochips=tuple(str(path) for path in sorted(dev.glob("gpiochip*"), key=_chip_number)),
        gpiomem=os.path.exists(dev / "gpiomem"),
        revision=read_revision(root),
        dev=str(dev),
    )
