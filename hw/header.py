"""The Pi's 40-pin header, as gpiozero describes it: physical pin -> BCM GPIO or power/ground.

Every Pi the box supports (Zero 2 W, 3, 4, 5) has the same 40-pin layout, so
one map serves the config checks and the wiring diagram; it is read from
gpiozero's own board data rather than typed in again.

>>> physical_pin(5), physical_pin(2), HEADER[6]
(29, 3, 'GND')
"""

from __future__ import annotations

from gpiozero import pi_info

#: A Pi 4 B's revision code; any 40-pin Pi would do (the tests check the Zero 2 W, 3, 4 and 5 agree).
_A_40_PIN_PI = "c03111"


def _header(revision: str = _A_40_PIN_PI) -> dict[int, int | str]:
    """The J8 header of the Pi with this revision code, through gpiozero's public ``pi_info``."""
    out: dict[int, int | str] = {}
    for pin, info in sorted(pi_info(revision).headers["J8"].pins.items()):
        out[pin] = int(info.name.removeprefix("GPIO")) if info.name.startswith("GPIO") else info.name
    return out


#: Physical pin (1..40) -> BCM GPIO number, or "3V3", "5V", "GND".
HEADER: dict[int, int | str] = _header()


def physical_pin(gpio: int) -> int:
    """The header pin number (1..40) of a BCM GPIO number."""
    for pin, what in HEADER.items():
        if what == gpio:
            return pin
    raise ValueError(f"GPIO{gpio} is not on the 40-pin header")
