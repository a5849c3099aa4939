"""``cantstop-box run`` and ``cantstop-box emulate``: the wiring of the box.

This is the only module that chooses real or fake hardware: ``run`` takes the
Pi's GPIO (lgpio) and the OLED from the config; ``emulate`` runs the very same
daemon with gpiozero's mock pins driven by the keyboard and the screen drawn
in the terminal.

Startup faults (a config error, no GPIO, a display that does not answer, a
pin in use) print one line saying what and where, and exit non-zero so that
systemd retries within its start limit.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
import signal
import sys
from pathlib import Path

from .i18n import LANGUAGES

log = logging.getLogger("cantstop")

EXIT_CONFIG = 78  # EX_CONFIG
EXIT_HARDWARE = 69  # EX_UNAVAILABLE
EXIT_IN_USE = 75  # EX_TEMPFAIL: another box runs on the same state directory

# Emulator keys: key -> (button, hold). A hold of None means a long press.
KEYS = {
    "r": ("ROLL", 0.0), "s": ("STOP", 0.0), "a": ("A", 0.0), "b": ("B", 0.0), "c": ("C", 0.0), "m": ("MENU", 0.0),
    "R": ("ROLL", None), "S": ("STOP", None), "M": ("MENU", None), "A": ("A", None), "B": ("B", None), "C": ("C", None),
    "h": ("ROLL", None), "u": ("MENU", None),
    " ": ("ROLL", 0.0), "\n": ("ROLL", 0.0), "\r": ("ROLL", 0.0),
    "1": ("A", 0.0), "2": ("B", 0.0), "3": ("C", 0.0),
}

KEY_HELP = (
    "keys: r/space ROLL  s STOP  a b c (or 1 2 3) pairings  m MENU  |  "
    "hold: h hint (ROLL)  u undo (MENU)  |  q quit"
)


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
    from .config import load

    return load(path)


class _Refused(Exception):
    """Another box already runs on this state directory."""


def _open_store(cfg, state_dir_arg):
    """The store, or (None, reason) when it cannot be opened at all: the box then plays unsaved.

    A card that cannot be written still gives a store (it reads what it can and
    saves once it can). Another box on the same state directory: _Refused.
    """
    from .store import Store, StoreError, StoreLockedError, default_state_dir

    state_dir = Path(state_dir_arg or cfg.state_dir or default_state_dir()).expanduser()
    try:
        return Store.open(state_dir), None
    except StoreLockedError as err:
        raise _Refused(str(err)) from None
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
            return _fail(str(err), EXIT_IN_USE)

    run.__doc__ = command.__doc__
    return run


def _make_box(cfg, display, store, store_error, *, dice=None, notifier=None):
    from .daemon import Box
    from .dice import os_dice

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
    )
    box.store_error = store_error
    return box


def _install_signals(box) -> None:
    def handler(signum, frame):
        box.request_shutdown("Box is off" if signum == signal.SIGTERM else "Stopped")

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)


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

    from .config import ConfigError

    try:
        cfg = _load_config(args.config)
    except ConfigError as err:
        _show_config_error(str(err))
        return _fail(str(err), EXIT_CONFIG)
    try:
        from hw.buttons import real_pin_factory

        factory = real_pin_factory()
    except HardwareError as err:
        text = str(err)
        if "emulate" not in text:
            text += " (to play on this machine: cantstop-box emulate)"
        return _fail(text, EXIT_HARDWARE)
    try:
        from hw.display import open_oled

        display = open_oled(cfg.display.driver, **cfg.display.oled_options())
    except HardwareError as err:
        return _fail(str(err), EXIT_HARDWARE)
    from .sdnotify import Notifier

    store, store_error = _open_store(cfg, args.state_dir)
    box = _make_box(cfg, display, store, store_error, notifier=Notifier.from_env())
    try:
        from hw.buttons import GpioButtons

        buttons = GpioButtons(cfg.buttons.pins(), box.sink, pin_factory=factory)
    except HardwareError as err:
        if store is not None:
            store.close()
        return _fail(str(err), EXIT_HARDWARE)
    _install_signals(box)
    try:
        box.run()
    finally:
        buttons.close()
        _keep_last_frame(display)
    return 0


def _keep_last_frame(display) -> None:
    """Leave the 'box is off' frame on the panel after exit (luma clears it otherwise)."""
    device = getattr(display, "device", None)
    if device is not None:
        device.persist = True


def _show_config_error(message: str) -> None:
    """Best effort: show a config error on a display wired as by default."""
    try:
        from hw.display import open_oled

        from .config import DisplayConfig
        from .screens import render
        from .views import MessageView

        d = DisplayConfig()
        display = open_oled(d.driver, **d.oled_options())
        display.show(render(MessageView("Config error", (message[-120:],), keys="fix the file")))
        _keep_last_frame(display)
    except Exception:  # no display either: the journal line is all we can give
        pass


# -- emulate -------------------------------------------------------------------

EMULATE_DESCRIPTION = f"""Play the box in this terminal: mock GPIO pins driven by keys, the OLED drawn
with half-block characters. The same daemon as on the Pi.

{KEY_HELP}

A short press is a tap; the 'hold' keys are long presses. Games are saved in
the state directory as on the box: quit and start again to resume."""


def add_emulate_arguments(parser: argparse.ArgumentParser) -> None:
    _common(parser)
    parser.add_argument("--seed", type=int, help="reproducible dice (for demos and tests; the box uses OS entropy)")
    parser.add_argument("--language", choices=LANGUAGES,
                        help="the screen's language for this run, as [display] language in the config "
                             "(a language chosen on the new-game screen is remembered and wins)")
    parser.add_argument("--trace", action="store_true",
                        help="print 'shown game=G events=N view=V' on standard error after each frame (for crash tests)")


@_one_box
def run_emulator(args) -> int:
    _setup_logging(args.verbose, stream=_LogFile.stream(args))
    from hw.buttons import GpioButtons, mock_pin_factory
    from hw.terminal import QUIT, KeyPins, KeyReader, TerminalDisplay

    from .config import ConfigError

    try:
        cfg = _load_config(args.config)
    except ConfigError as err:
        return _fail(str(err), EXIT_CONFIG)
    language = getattr(args, "language", None)  # callers building their own arguments may leave it out
    if language:
        cfg = cfg.replace(display=dataclasses.replace(cfg.display, language=language))
    on_tty = sys.stdout.isatty()
    display = TerminalDisplay(footer=KEY_HELP, terminal_size=_terminal_size if on_tty else None)
    if on_tty:
        cols, lines = _terminal_size()
        need_cols, need_lines = display.needed_size
        if cols < need_cols or lines < need_lines:
            return _fail(f"this terminal is {cols}x{lines}; the box's screen needs {need_cols}x{need_lines}: "
                         "make the window bigger (or its font smaller) and run it again", 2)
    store, store_error = _open_store(cfg, args.state_dir)
    if args.trace:
        display = _Traced(display)
    from .sdnotify import Notifier

    holder: list = []
    dice = emulator_dice(args.seed, lambda: holder[0]) if args.seed is not None else None
    box = _make_box(cfg, display, store, store_error, dice=dice, notifier=Notifier.from_env())
    holder.append(box)
    if args.trace:
        display.box = box
    factory = mock_pin_factory()
    pins = cfg.buttons.pins()
    buttons = GpioButtons(pins, box.sink, pin_factory=factory)
    hold = cfg.buttons.long_press_ms / 1000 + 0.25
    keymap = {k: (name, hold if h is None else h) for k, (name, h) in KEYS.items()}
    keypins = KeyPins(factory, pins, keymap)

    def on_key(key: str) -> None:
        if key in (QUIT, "q", "Q"):
            keypins.wait_idle(2.0)
            box.request_shutdown("Stopped")
        elif not keypins.press(key):
            log.debug("key %r ignored (not mapped, or presses still pending)", key)
        else:
            log.debug("key %r", key)

    _install_signals(box)
    repeats = None
    if sys.stdin is not None and sys.stdin.isatty():
        from hw.keyrepeat import RepeatKeys

        repeats = RepeatKeys(on_key)  # a key held down repeats: one held press, not a burst of taps
    reader = KeyReader(repeats or on_key)
    if on_tty:
        inner = display.inner if args.trace else display
        inner.follow_resize()  # redraw, or say "too small", whenever the window changes size
    try:
        box.start()
        reader.start()
        box.run()
    finally:
        reader.close()
        if repeats is not None:
            repeats.close()
        keypins.close()
        buttons.close()
        if hasattr(display, "close"):
            display.close()
    return 0


def emulator_dice(seed: int, get_box):
    """``--seed`` dice drawn from the seed and the game's position (its number, its events so far).

    A resumed game goes on with the dice it would have had, instead of
    replaying the seed's opening rolls on every start.
    """
    from .dice import positional_dice

    def position():
        box = get_box()
        return box.game_id, len(box.app.events)

    return positional_dice(seed, position)


def _terminal_size() -> tuple[int, int]:
    """(columns, lines) of the terminal on standard output now."""
    import shutil

    size = shutil.get_terminal_size()
    return size.columns, size.lines


class _Traced:
    """A display wrapper that reports, after each frame, how many events it shows."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.box = None
        self.size = getattr(inner, "size", (128, 64))

    def show(self, image) -> None:
        self.inner.show(image)
        box = self.box
        events = len(box.app.events) if box is not None else 0
        game = box.game_id if box is not None else None
        screen = type(box.last_view).__name__ if box is not None else "?"
        print(f"shown game={game} events={events} view={screen}", file=sys.stderr, flush=True)

    def clear(self) -> None:
        self.inner.clear()

    def dim(self, on: bool) -> None:
        self.inner.dim(on)

    def close(self) -> None:
        self.inner.close()


class _LogFile:
    """In the emulator the terminal is the screen: logs go to a file, not over the frame."""

    @staticmethod
    def stream(args):
        if args.trace or not sys.stdout.isatty():
            return sys.stderr
        path = Path(os.environ.get("XDG_STATE_HOME", "~/.local/state")).expanduser() / "cantstop-box"
        try:
            path.mkdir(parents=True, exist_ok=True)
            return open(path / "emulator.log", "a", encoding="utf-8")  # noqa: SIM115 - lives as long as the process
        except OSError:
            return sys.stderr


class RunCommand:
    """``cantstop-box run``."""

    DESCRIPTION = RUN_DESCRIPTION
    add_arguments = staticmethod(add_run_arguments)
    run = staticmethod(run_box)


class EmulateCommand:
    """``cantstop-box emulate``."""

    DESCRIPTION = EMULATE_DESCRIPTION
    add_arguments = staticmethod(add_emulate_arguments)
    run = staticmethod(run_emulator)
