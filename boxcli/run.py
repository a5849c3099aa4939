"""``cantstop-box run``: the wiring of the box on a Pi, and the start-up shared with ``emulate``.

This module and :mod:`boxcli.emulate` are the only ones that choose real or
fake hardware: ``run`` takes the Pi's GPIO (lgpio) and the OLED from the
config; ``emulate`` runs the very same daemon with gpiozero's mock pins driven
by the keyboard and the screen drawn in the terminal.

Startup faults (a config error, no GPIO, a display that does not answer, a
pin in use) print one line saying what and where, and exit non-zero so that
systemd retries within its start limit. As a service, a display that does not
answer is the exception: the box is up and waits for it
(firmware/daemon/displaywait.py), as a loose ribbon is no reason to give up.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from pathlib import Path

log = logging.getLogger("cantstop")

EXIT_CONFIG = 78  # EX_CONFIG
EXIT_HARDWARE = 69  # EX_UNAVAILABLE
EXIT_IN_USE = 75  # EX_TEMPFAIL: another box runs on the same state directory

def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="PATH", help="config file (default: /etc/cantstop-box/config.toml "
                        "or ~/.config/cantstop-box/config.toml if present, else built-in defaults)")
    parser.add_argument("--state-dir", metavar="DIR", help="where the game store lives (overrides the config)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug detail")


def _setup_logging(verbose: bool, stream=None) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO,
        format="%(levelname)s %(name)s: %(message)s",
        stream=stream or sys.stderr,
        force=True,
    )


def _fail(message: str, code: int) -> int:
    print(f"cantstop-box: {message}", file=sys.stderr)
    return code


def _load_config(path):
    from firmware.config import load

    return load(path)


class _Refused(Exception):
    """The box cannot start on this state directory: another box runs on it (or its path is not a file)."""

    def __init__(self, message: str, code: int = EXIT_IN_USE) -> None:
        super().__init__(message)
        self.code = code


def _open_store(cfg, state_dir_arg):
    """The store, or (None, reason) when it cannot be opened at all: the box then plays unsaved.

    A card that cannot be written still gives a store (it reads what it can and
    saves once it can). Another box on the same state directory: _Refused.
    """
    from firmware.store import Store, StoreError, StoreLockedError, StorePathError, default_state_dir

    state_dir = Path(state_dir_arg or cfg.state_dir or default_state_dir()).expanduser()
    from firmware.daemon.box import LOOP_BUSY_MS

    try:
        return Store.open(state_dir, busy_ms=LOOP_BUSY_MS), None
    except StoreLockedError as err:
        raise _Refused(str(err)) from None
    except StorePathError as err:  # a FIFO, a device or a directory where the games go: fix the set-up
        raise _Refused(str(err), EXIT_CONFIG) from None
    except StoreError as err:
        log.error("game store unavailable (%s): playing without saving", err)
        return None, str(err)
    except OSError as err:
        log.error("game store unavailable (%s): playing without saving", err)
        return None, err.strerror or str(err)


def _one_box(command):
    """A second box on the same state directory refuses in one line (exit 75) instead of fighting the first."""
    def run(args) -> int:
        try:
            return command(args)
        except _Refused as err:
            return _fail(str(err), err.code)

    run.__doc__ = command.__doc__
    return run


def _make_box(cfg, display, store, store_error, *, dice=None, notifier=None, signals=None, camera_log=None):
    from firmware.daemon.box import Box
    from firmware.daemon.camera import CameraLink
    from firmware.daemon.dice import os_dice
    from firmware.daemon.worker import StatsWorker

    # the camera over the board ([camera], docs/camera.md): its own process, its pictures beside the store,
    # its log on our standard error (the journal) or in ``camera_log`` (the emulator's log file)
    camera = CameraLink(cfg.camera, store.path.parent if store is not None else None,
                        stderr=camera_log) if cfg.camera.on else None

    box = Box(
        cfg.game,
        display,
        store,
        dice=dice or os_dice,
        debounce=cfg.buttons.debounce_ms / 1000,
        long_press=cfg.buttons.long_press_ms / 1000,
        notifier=notifier,
        dim_after=cfg.display.dim_after_min * 60 or None,
        language=cfg.display.language,
        signals=signals,
        worker=StatsWorker(),
        web_port=cfg.web.port,
        store_error=store_error,
        camera=camera,
    )
    if store is not None:  # a paired phone's changes come through the box's own socket beside its store
        box.open_door(store.path.parent)
    return box


def _install_signals(box) -> None:
    def handler(signum, frame):
        box.request_shutdown("Box is off" if signum == signal.SIGTERM else "Stopped")

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)


def _open_display(cfg, notifier):
    """The OLED; as a service, one that does not answer is waited for (firmware/daemon/displaywait.py).

    None when SIGTERM or SIGINT came during that wait."""
    from hw.display import open_oled

    def open_display():
        return open_oled(cfg.display.driver, **cfg.display.oled_options())

    if not notifier.enabled:
        return open_display()
    from firmware.daemon.displaywait import open_waiting

    stop = []
    previous = {sig: signal.signal(sig, lambda signum, frame: stop.append(signum))
                for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        return open_waiting(open_display, notifier, lambda: bool(stop))
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


# -- run ---------------------------------------------------------------------------

RUN_DESCRIPTION = """Run the box on a Raspberry Pi: GPIO buttons and the OLED from the config.

On a machine without GPIO this says so in one line; use 'cantstop-box emulate'
to play in a terminal instead."""


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    _common(parser)


@_one_box
def run_box(args) -> int:
    _setup_logging(args.verbose)
    from hw.errors import HardwareError

    from firmware.config import ConfigError

    try:
        cfg = _load_config(args.config)
    except ConfigError as err:
        _show_config_error(str(err))
        return _fail(str(err), EXIT_CONFIG)
    from firmware.daemon.sdnotify import Notifier

    notifier = Notifier.from_env()
    if notifier.enabled:  # as a service: udev may not have made or given us the devices yet
        from hw.board import read_board

        from firmware.daemon.devicewait import needed, wait_for_devices

        if problem := wait_for_devices(needed(cfg.display, read_board()), notifier):
            return _fail(problem, EXIT_HARDWARE)
    from hw.buttons import real_pin_factory  # it reads the board after the wait: a chip udev made since is in it

    from boxcli.parts import open_parts

    try:
        # Only "no GPIO at all" suggests emulate (hw.buttons says so): on a Pi it is the wrong advice.
        with open_parts(lambda: _open_display(cfg, notifier), lambda factory, _: open_signals(cfg, factory),
                        real_pin_factory, keep_frame=True) as parts:  # the 'box is off' frame stays on the glass
            if parts is None:  # told to stop while it waited for the display
                return 0
            _note_slow_bus(cfg.display, parts.display.size)
            store, store_error = _open_store(cfg, args.state_dir)
            if store is not None:
                parts.closing(store.close)  # a button that cannot be had: the store closed too (twice is nothing)
            box = _make_box(cfg, parts.display, store, store_error, notifier=notifier, signals=parts.signals)
            parts.buttons(cfg.buttons.pins(), box.sink)
            _install_signals(box)
            box.run()
    except HardwareError as err:
        return _fail(str(err), EXIT_HARDWARE)
    return 0


def open_signals(cfg, factory):
    """The lamps and the buzzer the config names, on ``factory``'s pins (a :class:`Signals` doing nothing without them)."""
    from hw.buzzer import GpioBuzzer
    from hw.lamps import GpioLamps

    from firmware.daemon.signals import Signals

    lamps = buzzer = None
    pins = cfg.lights.pins()
    if pins:
        lamps = GpioLamps(pins, pin_factory=factory, active_high=cfg.lights.active_high)
    if cfg.sound.pin is not None:
        try:
            buzzer = GpioBuzzer(cfg.sound.pin, pin_factory=factory, volume=cfg.sound.volume)
        except BaseException:
            if lamps is not None:
                lamps.close()
            raise
    return Signals(lamps, buzzer)


def slow_bus_note(display_config, size: tuple[int, int]) -> str | None:
    """One line when the display is on an I2C bus slower than the 400 kHz the screens are made for, else None."""
    from hw.display import i2c_speed_note

    return i2c_speed_note(display_config.port, size) if display_config.interface == "i2c" else None


def _note_slow_bus(display_config, size: tuple[int, int]) -> None:
    """That line in the journal, as the service starts."""
    if slow := slow_bus_note(display_config, size):
        log.warning("%s (docs/building.md)", slow)


def _show_config_error(message: str) -> None:
    """Best effort: show a config error on a display wired as by default."""
    try:
        from hw.display import open_oled

        from firmware.config import DisplayConfig
        from firmware.screens import render
        from firmware.views import MessageView

        d = DisplayConfig()
        display = open_oled(d.driver, **d.oled_options())
        display.show(render(MessageView("Config error", (message[-120:],), keys="fix the file")))
        display.keep_last_frame()
    except Exception:  # no display either: the journal line is all we can give
        pass


class RunCommand:
    """``cantstop-box run``."""

    DESCRIPTION = RUN_DESCRIPTION
    add_arguments = staticmethod(add_run_arguments)
    run = staticmethod(run_box)
