"""``cantstop-box bench``: the owner's bench report, what a real board needs checked.

One fact a line, as key: value, to paste into an issue: the board and its
kernel; the root file system (a card image runs / read-only under a RAM
overlay); the display's I2C bus (its device, adapter, device-tree node, the
clock the device tree asks for and the one the kernel set); the SPI and GPIO
devices; the Wi-Fi interface, its driver, its chip and what the driver
logged. Then, as the self test does, it opens the display, the lamps and the
buzzer, measures press to glass on the real display (the same 20 presses on
every board) and leaves a short summary on the box's screen. A probe that
fails is one line saying why and the report goes on; exit status 0 once it
is made. --text-only leaves out the screen and everything that needs the
pins: only what the kernel and the files say, beside the running service.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from boxcli.boardfacts import Sysfs, text_lines

DESCRIPTION = __doc__.split("\n\n", 1)[1] + """
The service holds the pins and the bus while it runs: stop it first
(sudo systemctl stop cantstop-box), start it again after; or use --text-only
beside it. The kernel's own I2C clock is in debugfs, which only root reads."""

BUSY_HINT = " (the box's service? stop it first: sudo systemctl stop cantstop-box)"
PRESSES = 20


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="PATH", help="config file (default: as for 'run')")
    parser.add_argument("--text-only", action="store_true",
                        help="only what the kernel and files say: no screen, no pins (runs beside the service)")
    parser.add_argument("--presses", type=int, default=PRESSES, metavar="N",
                        help=f"presses timed from press to glass (default {PRESSES})")


# -- the hardware: display, lamps, buzzer, press to glass ---------------------------


class _Clock:
    """The box's clock while it is timed: moved by hand, so no press waits out a real debounce or guard."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class _Timed:
    """The display, noting when each frame has been written (the box itself swallows a failed one)."""

    def __init__(self, inner, timer: Callable[[], float]) -> None:
        self.inner, self.timer = inner, timer
        self.written: list[float] = []
        self.error: Exception | None = None

    @property
    def size(self):
        return self.inner.size

    def show(self, image) -> None:
        try:
            self.inner.show(image)
        except Exception as err:
            self.error = err
            raise
        self.written.append(self.timer())

    def __getattr__(self, name):  # dim, clear, keep_last_frame, close: the display's own
        return getattr(self.inner, name)


def _button_for(view) -> str:
    """The press a table would make on this screen: the first legal pairing, A of a pick, else ROLL."""
    from firmware import views

    if isinstance(view, views.DiceView):
        return next(o.label for o in view.options if o.effect != "none")
    return "A" if isinstance(view, views.PickView) else "ROLL"


def press_to_glass(display, presses: int = PRESSES, *, timer: Callable[[], float] = time.perf_counter) -> list[float]:
    """Seconds from each simulated press entering the box (its release on the box's queue) to its frame
    written to ``display``, for ``presses`` presses that changed the screen: the real daemon, UI, store
    (in a throw-away folder) and renderer, the default game and seeded dice, so every board plays the same."""
    from firmware import ui
    from firmware.config import GameConfig
    from firmware.daemon.box import Box
    from firmware.daemon.dice import seeded_dice
    from firmware.store import Store
    from hw.errors import DisplayError

    timed, clock, times = _Timed(display, timer), _Clock(), []
    with tempfile.TemporaryDirectory(prefix="cantstop-bench-") as tmp:
        store = Store.open(Path(tmp))
        try:
            box = Box(GameConfig(), timed, store, dice=seeded_dice(1), clock=clock, dim_after=None)
            box.start()
            for _ in range(presses * 10):
                if len(times) >= presses or timed.error is not None:
                    break
                name = _button_for(ui.view(box.app))
                clock.now += 1.0  # past any guard after a handover: the box is idle when pressed
                box.pump()
                box.sink(name, True)
                clock.now += 0.1
                box.pump()
                before = len(timed.written)
                start = timer()
                box.sink(name, False)
                box.pump()
                if len(timed.written) > before:
                    times.append(timed.written[before] - start)
        finally:
            store.close()
    if timed.error is not None:
        raise DisplayError(f"the display failed while timed: {timed.error}")
    return times


def glass_line(times: list[float]) -> str:
    if not times:
        return "press to glass: no press changed the screen"
    return (f"press to glass: median {statistics.median(times) * 1e3:.1f} ms, worst {max(times) * 1e3:.1f} ms"
            f" ({len(times)} presses)")


def summary_view(times: list[float] | None, i2c_hz: int | None):
    """What the box's own screen says at the end (one page at every size): press to glass, the bus's clock."""
    from firmware.views import MessageView

    glass = (f"glass {statistics.median(times) * 1e3:.0f} ms, max {max(times) * 1e3:.0f}" if times
             else "glass: failed" if times is None else "glass: no frame")
    return MessageView("Bench done", (glass, *([f"I2C {i2c_hz / 1000:g} kHz"] if i2c_hz else [])), keys="")


def _said(err) -> str:
    text = str(err)
    return text + BUSY_HINT if "in use by another program" in text else text


def hardware_lines(cfg, out: Callable[[str], None], presses: int = PRESSES) -> None:
    """Open the pins, the display, the lamps and the buzzer as the self test does, each alone, then time
    press to glass on the display and leave a summary on it; each line goes to ``out`` as it is known."""
    from hw.buttons import GpioButtons, real_pin_factory
    from hw.buzzer import GpioBuzzer
    from hw.errors import HardwareError
    from hw.lamps import GpioLamps

    from boxcli.selftest import found_lines, open_display

    try:
        factory = real_pin_factory()
    except HardwareError as err:
        factory = None
        out(f"gpio backend: FAILED: {err}")
    busy = False
    if factory is not None:
        try:
            GpioButtons(cfg.buttons.pins(), lambda name, pressed: None, pin_factory=factory).close()
            out("buttons: pins free: " + " ".join(f"{n} GPIO{p}" for n, p in cfg.buttons.pins().items()))
        except Exception as err:  # a HardwareError in one line; anything odder is said the same way
            busy = "another program" in str(err)
            out(f"buttons: FAILED: {_said(err)}")
    display = None
    if busy:
        out("display: not opened: the buttons' pins are in use, the box is likely running" + BUSY_HINT)
    else:
        try:
            display = open_display(cfg)
        except HardwareError as err:
            out(f"display: NOT FOUND: {err}")
        else:
            for line in found_lines(cfg, display):
                out(line)
    parts = [("lamps", "[lights]", lambda: GpioLamps(cfg.lights.pins(), pin_factory=factory,
                                                      active_high=cfg.lights.active_high), cfg.lights.pins()),
             ("buzzer", "[sound] pin", lambda: GpioBuzzer(cfg.sound.pin, pin_factory=factory, volume=cfg.sound.volume),
              {} if cfg.sound.pin is None else {"buzzer": cfg.sound.pin})]
    for key, section, claim, pins in parts:
        if not pins:
            out(f"{key}: none configured ({section})")
        elif factory is None:
            out(f"{key}: not probed (no GPIO backend)")
        else:
            try:
                claim().close()
                out(f"{key}: found: " + " ".join(f"{n} GPIO{p}" for n, p in pins.items()))
            except Exception as err:
                out(f"{key}: FAILED: {_said(err)}")
    try:
        if display is None:
            out("press to glass: no display")
            return
        try:
            times = press_to_glass(display, presses)
            out(glass_line(times))
        except Exception as err:  # the display, or the throw-away store (a full /tmp)
            times = None
            out(f"press to glass: FAILED: {err}")
        from hw.display import i2c_clock_hz

        from firmware.screens import render

        hz = i2c_clock_hz(cfg.display.port) if cfg.display.interface == "i2c" else None
        try:
            display.show(render(summary_view(times, hz), display.size))
            display.keep_last_frame()
        except HardwareError as err:
            out(f"display: summary not shown: {err}")
    finally:
        if display is not None:
            display.close()
        if factory is not None:
            factory.close()


def run(args) -> int:
    from firmware.config import Config, ConfigError, load

    try:
        cfg = load(args.config)
        config = f"config: {cfg.path}" if cfg.path else "config: built-in defaults (no config file)"
    except ConfigError as err:
        cfg, config = Config(), f"config: error, the defaults used: {err}"
    for line in [config, *text_lines(Sysfs(), cfg.display.port)]:
        print(line, flush=True)
    if args.text_only:
        print("hardware: not probed (--text-only: the display, buttons, lamps, buzzer and press to glass need"
              " the pins)")
    else:
        hardware_lines(cfg, lambda line: print(line, flush=True), max(1, args.presses))
    return 0
