"""``cantstop-box selftest``: the wiring check on a real Pi.

What no emulator can test is the wiring itself: the display on its bus and
the six buttons on their pins. This command opens the display the config
names (which fails in one line if nothing answers on the bus; on I2C it
says when the bus runs slower than the 400 kHz the screens are made for),
draws a test pattern (a frame round the very edge and a chequerboard, so a
shifted, cropped or wrongly rotated panel shows), then names each button as it is
pressed, on the screen and in the terminal, until all six have been pressed
or the time is up. With lamps ([lights]) it lights each one in turn, and
with a buzzer ([sound]) it plays each tone, naming each as it goes. Exit status 0 when everything answered, 1 when a button
was never pressed, 69 when the GPIO or the display cannot be opened, 78 for
a config error.
"""

from __future__ import annotations

import argparse
import queue
import sys
import time
from collections.abc import Callable, Mapping

from PIL import Image, ImageDraw

EXIT_MISSING = 1
EXIT_HARDWARE = 69  # EX_UNAVAILABLE
EXIT_CONFIG = 78  # EX_CONFIG

DESCRIPTION = __doc__.split("\n\n", 1)[1] + """
The service holds the pins and the bus while it runs: stop it first
(sudo systemctl stop cantstop-box), start it again after."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="PATH", help="config file (default: as for 'run')")
    parser.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS",
                        help="give up waiting for presses after this long (default 60)")


def pattern_frame(size: tuple[int, int]) -> Image.Image:
    """A frame on the outermost pixels and a chequerboard of 4-pixel squares inside it."""
    width, height = size
    image = Image.new("1", size)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width - 1, height - 1), outline=1)
    for y in range(4, height - 4, 4):
        for x in range(4, width - 4, 4):
            if (x // 4 + y // 4) % 2:
                draw.rectangle((x, y, x + 3, y + 3), fill=1)
    return image


def button_view(name: str, left: list[str]):
    """What the panel says after a press: the press in the title, so that what is left fits one page
    at every screen size (the self test shows one frame per press; no pages flip)."""
    from firmware.views import MessageView

    rest = f"left: {' '.join(left)}" if left else "all six work"
    return MessageView(f"Self test: {name} pressed", (rest,), keys="")


def _button_frame(name: str, left: list[str], size: tuple[int, int]) -> Image.Image:
    from firmware.screens import render

    return render(button_view(name, left), size)


def show_signals(lamps, buzzer, *, out: Callable[[str], None] = print, pause: float = 0.6,
                 sleep: Callable[[float], None] = time.sleep) -> None:
    """Each lamp lit alone in turn (``pause`` seconds), then each tone played, named in the terminal."""
    from firmware.cues import CUES, MELODIES

    if lamps is not None:
        for name in lamps.names:
            lamps.show({name: "lit"})
            out(f"lamp {name}: lit (only this one)")
            sleep(pause)
        lamps.off()
        out(f"lamps: all {len(lamps.names)} shown; each should have lit alone")
    if buzzer is not None:
        for cue in CUES:
            buzzer.play(MELODIES[cue])
            out(f"tone: {cue}")
            buzzer.wait_idle(5.0)
            sleep(pause / 2)
        out(f"buzzer: all {len(CUES)} tones played; each should sound different")


def check(display, pin_factory, pins: Mapping[str, int], *, timeout: float,
          out: Callable[[str], None] = print, clock: Callable[[], float] = time.monotonic,
          lamps=None, buzzer=None) -> int:
    """Show the pattern on ``display``, then report presses on ``pins`` until all are seen or ``timeout``."""
    from hw.buttons import GpioButtons
    from hw.errors import HardwareError

    try:
        display.show(pattern_frame(display.size))
    except HardwareError as err:
        out(f"display: FAILED: {err}")
        return EXIT_HARDWARE
    out("display: test pattern shown: a frame on the very edge and a chequerboard inside")
    show_signals(lamps, buzzer, out=out)
    presses: queue.SimpleQueue[str] = queue.SimpleQueue()

    def sink(name: str, pressed: bool) -> None:
        if pressed:
            presses.put(name)

    left = list(pins)
    try:
        buttons = GpioButtons(pins, sink, pin_factory=pin_factory)
    except HardwareError as err:
        out(f"buttons: FAILED: {err}")
        return EXIT_HARDWARE
    out(f"press each button once: {' '.join(left)} (within {timeout:g} s)")
    deadline = clock() + timeout
    with buttons:
        while left and (remaining := deadline - clock()) > 0:
            try:
                name = presses.get(timeout=min(remaining, 0.5))
            except queue.Empty:
                continue
            if name in left:
                left.remove(name)
            out(f"{name}: pressed (GPIO{pins[name]})")
            try:
                display.show(_button_frame(name, left, display.size))
            except HardwareError as err:
                out(f"display: FAILED: {err}")
                return EXIT_HARDWARE
    if left:
        wiring = ", ".join(f"{name} on GPIO{pins[name]}" for name in left)
        out(f"buttons: never pressed within {timeout:g} s: {wiring} (check each goes from its pin to ground)")
        return EXIT_MISSING
    out(f"buttons: all {len(pins)} work")
    return 0


def open_display(cfg):
    """The display ``cfg`` names, opened; a one-line ``HardwareError`` when nothing answers (selftest, bench)."""
    from hw.display import open_oled

    return open_oled(cfg.display.driver, **cfg.display.oled_options())


def found_lines(cfg, display) -> list[str]:
    """What the terminal says of a display that answered: its chip and bus, and a slow bus (selftest, bench)."""
    from boxcli.run import slow_bus_note

    lines = [f"display: found: {cfg.display.driver.upper()} over {cfg.display.interface.upper()}"]
    if slow := slow_bus_note(cfg.display, display.size):
        lines.append(f"display: slow: {slow}")
    return lines


def run(args) -> int:
    from hw.buttons import real_pin_factory
    from hw.errors import HardwareError

    from firmware.config import ConfigError, load

    try:
        cfg = load(args.config)
    except ConfigError as err:
        print(f"cantstop-box: {err}", file=sys.stderr)
        return EXIT_CONFIG
    from hw.errors import BuzzerError, DisplayError, LampError

    from boxcli.parts import open_parts
    from boxcli.run import open_signals

    def shown(display):  # what the terminal says of the display that answered
        for line in found_lines(cfg, display):
            print(line)
        return display

    try:
        with open_parts(lambda: shown(open_display(cfg)), lambda factory, _: open_signals(cfg, factory),
                        real_pin_factory) as parts:
            return check(parts.display, parts.factory, cfg.buttons.pins(), timeout=args.timeout,
                         lamps=parts.signals.lamps, buzzer=parts.signals.buzzer)
    except HardwareError as err:  # which part, said as the self test says each
        if isinstance(err, DisplayError):
            print(f"display: NOT FOUND: {err}", file=sys.stderr)
        elif isinstance(err, (LampError, BuzzerError)):
            print(f"lamps or buzzer: FAILED: {err}", file=sys.stderr)
        else:
            print(f"cantstop-box selftest: {err}", file=sys.stderr)
        return EXIT_HARDWARE
