"""The Pi's 40-pin header, as gpiozero describes it: physical pin -> BCM GPIO or power/ground.

Every Pi the box supports (Zero 2 W, 3, 4, 5) has the same 40-pin layout, so
one map serves the config checks and the wiring diagram; it is read from
gpiozero's own board data rather than typed in again.

>>> physical_pin(5), physical_pin(2), HEADER[6]
(29, 3, 'GND')
"""

from __future__ import annotations

from gpiozero.pins.data import PLUS_J8


def _header() -> dict[int, int | str]:
    _rows, _cols, pins = PLUS_J8
    out: dict[int, int | str] = {}
    for pin, functions in sorted(pins.items()):
        gpio = functions.get("gpio")
        out[pin] = int(gpio.removeprefix("GPIO")) if gpio else functions[""]
    return out


#: Physical pin (1..40) -> BCM GPIO number, or "3V3", "5V", "GND".
HEADER: dict[int, int | str] = _header()


def physical_pin(gpio: int) -> int:
    """The header pin number (1..40) of a BCM GPIO number."""
    for pin, what in HEADER.items():
        if what == gpio:
            return pin
    raise ValueError(f"GPIO{gpio} is not on the 40-pin header")
