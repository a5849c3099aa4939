"""The lamps inside the buttons: each one off, lit or pulsing, and dimmed with the screen.

``GpioLamps`` drives one gpiozero ``PWMLED`` per configured button (a plain
``LED`` where the pin cannot do PWM): lit is full brightness, pulsing is
gpiozero's own background fade (no thread of ours, nothing in the loop
waits), and dimmed is a steady glimmer (:data:`DIM`) for every lamp that is
on, pulsing or not; a plain LED cannot glimmer, so it goes out while the
screen is dim. ``TerminalLamps`` shows the same states as one line of the
emulator's terminal. Both take states as plain strings ("off", "lit",
"pulse") per button name: the firmware decides them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

from gpiozero import LED, PWMLED
from gpiozero.exc import GPIOPinInUse, PinInvalidPin, PinPWMUnsupported

from hw.errors import LampError

log = logging.getLogger(__name__)

OFF, LIT, PULSE = "off", "lit", "pulse"
#: A dimmed lamp's brightness (0..1), like the OLED's low contrast.
DIM = 0.08
#: Seconds of a pulse's fade in and of its fade out.
FADE = 0.45


class GpioLamps:
    """Named lamps on BCM pins; :meth:`show` sets them all at once, changing only what changed."""

    def __init__(self, pins: Mapping[str, int], *, pin_factory, active_high: bool = True) -> None:
        if pin_factory is None:
            raise TypeError("GpioLamps needs an explicit pin_factory (see hw.buttons.real_pin_factory)")
        self._lamps: dict[str, LED | PWMLED] = {}
        self._shown: dict[str, tuple[str, bool]] = {}
        try:
            for name, pin in pins.items():
                self._lamps[name] = _open(name, pin, pin_factory, active_high)
        except BaseException:
            self.close()
            raise

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._lamps)

    def lamp(self, name: str):
        """The gpiozero device of one lamp (tests read its pin)."""
        return self._lamps[name]

    def state(self, name: str) -> str:
        """What the lamp was last told: "off", "lit" or "pulse"."""
        return self._shown.get(name, (OFF, False))[0]

    def show(self, states: Mapping[str, str], dim: bool = False) -> None:
        """Set every configured lamp; a button without a lamp, or missing from ``states``, is off."""
        for name, lamp in self._lamps.items():
            want = (states.get(name, OFF), bool(dim))
            if self._shown.get(name) == want:
                continue
            self._shown[name] = want
            _set(lamp, *want)

    def off(self) -> None:
        """Every lamp out (the box stops)."""
        self.show({}, False)

    def close(self) -> None:
        """Lamps out, pins released; safe to call twice."""
        lamps, self._lamps = self._lamps, {}
        for lamp in lamps.values():
            try:
                lamp.off()
            finally:
                lamp.close()

    def __enter__(self) -> GpioLamps:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def _open(name: str, pin: int, pin_factory, active_high: bool):
    try:
        try:
            return PWMLED(pin, active_high=active_high, pin_factory=pin_factory)
        except PinPWMUnsupported:
            return LED(pin, active_high=active_high, pin_factory=pin_factory)
    except GPIOPinInUse as exc:
        raise LampError(f"GPIO{pin} (the {name} lamp) is already in use by another device in this program") from exc
    except PinInvalidPin as exc:
        raise LampError(f"GPIO{pin} (the {name} lamp) is not a valid GPIO pin on this board") from exc
    except Exception as exc:  # lgpio.error and friends
        if "busy" in str(exc).lower():
            raise LampError(f"GPIO{pin} (the {name} lamp) is already in use by another program") from exc
        raise LampError(f"cannot set up GPIO{pin} (the {name} lamp): {' '.join(str(exc).split())}") from exc


def _set(lamp, state: str, dim: bool) -> None:
    pwm = isinstance(lamp, PWMLED)
    if state == OFF:
        lamp.off()
    elif dim:
        if pwm:
            lamp.value = DIM  # stops a pulse too
        else:
            lamp.off()
    elif state == PULSE:
        if pwm:
            lamp.pulse(fade_in_time=FADE, fade_out_time=FADE)
        else:
            lamp.blink(on_time=FADE, off_time=FADE)
    else:
        lamp.on()


# -- the emulator ---------------------------------------------------------------

_NAMES = ("ROLL", "STOP", "A", "B", "C", "MENU")
REVERSE, BLINK, FAINT, RESET = "\x1b[7m", "\x1b[5m", "\x1b[2m", "\x1b[0m"


def lamp_line(states: Mapping[str, str], dim: bool = False, *, colour: bool = True) -> str:
    """The lamps as one line of text: ``[ROLL]`` lit, ``<ROLL>`` pulsing, `` roll `` off.

    With ``colour`` a lit lamp is also drawn in reverse video and a pulsing
    one blinks (where the terminal blinks); a dim screen draws them faint.
    """
    parts = []
    for name in _NAMES:
        state = states.get(name, OFF)
        if state == LIT:
            text, style = f"[{name}]", REVERSE
        elif state == PULSE:
            text, style = f"<{name}>", REVERSE + BLINK
        else:
            text, style = f" {name.lower()} ", FAINT
        if colour:
            text = (FAINT if dim and state != OFF else "") + style + text + RESET
        parts.append(text)
    return "lamps: " + " ".join(parts)


class TerminalLamps:
    """The lamps as a status line of the emulator's terminal (``show_line`` draws it)."""

    def __init__(self, show_line: Callable[[str], None], *, colour: bool = True) -> None:
        self._show_line = show_line
        self._colour = colour
        self.states: dict[str, str] = {}
        self.dimmed = False

    def state(self, name: str) -> str:
        return self.states.get(name, OFF)

    def show(self, states: Mapping[str, str], dim: bool = False) -> None:
        new = dict(states)
        if new == self.states and dim == self.dimmed:
            return
        self.states, self.dimmed = new, bool(dim)
        self._show_line(lamp_line(new, dim, colour=self._colour))

    def off(self) -> None:
        self.show({}, False)

    def close(self) -> None:
        self.off()
