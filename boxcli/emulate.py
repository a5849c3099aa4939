"""``cantstop-box emulate``: the box in a terminal, the same daemon as on the Pi.

gpiozero's mock pins are driven by the keyboard (a held key is one long
press, not a burst of taps), and the OLED is drawn with half-block characters,
redrawn when the window changes size. ``--seed`` gives reproducible dice drawn
from the seed and the game's position, so a resumed game does not repeat its
opening rolls. ``--camera`` adds a camera over a drawn board (:mod:`boxcli.emucamera`).
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
import sys
from pathlib import Path

from hw.display import SIZES, drivers_for, size_name

from firmware.i18n import LANGUAGES
from boxcli.run import EXIT_CONFIG, _common, _fail, _install_signals, _load_config, _make_box, _one_box, _open_store, _setup_logging

log = logging.getLogger("cantstop")

#: Every panel size some driver comes in, written as in the config ("128x32").
SCREEN_SIZES = tuple(dict.fromkeys(size_name(size) for sizes in SIZES.values() for size in sizes))

# Emulator keys: key -> (button, hold). A hold of None means a long press.
KEYS = {
    "r": ("ROLL", 0.0), "s": ("STOP", 0.0), "a": ("A", 0.0), "b": ("B", 0.0), "c": ("C", 0.0), "m": ("MENU", 0.0),
    "R": ("ROLL", None), "S": ("STOP", None), "M": ("MENU", None), "A": ("A", None), "B": ("B", None), "C": ("C", None),
    "h": ("ROLL", None), "u": ("MENU", None),
    " ": ("ROLL", 0.0), "\n": ("ROLL", 0.0), "\r": ("ROLL", 0.0),
    "1": ("A", 0.0), "2": ("B", 0.0), "3": ("C", 0.0),
}

KEY_HELP = (
    "keys: r/space/Enter ROLL  s STOP  a b c (or 1 2 3) pairings  m MENU  |  "
    "hold: upper case R S A B C M (h hint, u undo)  |  qq quit"
)


EMULATE_DESCRIPTION = f"""Play the box in this terminal: mock GPIO pins driven by keys, the OLED drawn
with half-block characters. The same daemon as on the Pi.

{KEY_HELP}

A short press is a tap; a key in upper case (shift) holds its button (a long
press): R holds ROLL, M holds MENU, and so on. Games are saved in
the state directory as on the box: quit and start again to resume."""


def add_emulate_arguments(parser: argparse.ArgumentParser) -> None:
    _common(parser)
    parser.add_argument("--seed", type=int, help="reproducible dice (for demos and tests; the box uses OS entropy)")
    parser.add_argument("--language", choices=LANGUAGES,
                        help="the screen's language for this run, as [display] language in the config "
                             "(a language chosen on the new-game screen is remembered and wins)")
    parser.add_argument("--size", choices=SCREEN_SIZES,
                        help="the screen's size in pixels for this run, as [display] size in the config "
                             "(the driver's usual size when left out)")
    parser.add_argument("--mute", action="store_true",
                        help="no terminal bell for the box's tones (and no Sound item in the menu)")
    parser.add_argument("--camera", action="store_true",
                        help="a camera over a drawn board that follows the game, as [camera] source = \"scene\": "
                             "what it read beside the screen, and x makes one mistake on the board or puts it right")
    parser.add_argument("--trace", action="store_true",
                        help="print 'shown game=G events=N view=V' on standard error after each frame (for crash tests)")


@_one_box
def run_emulator(args) -> int:
    log_stream = _LogFile.stream(args)
    _setup_logging(args.verbose, stream=log_stream)
    from firmware.config import ConfigError

    try:
        cfg = emulator_config(_load_config(args.config), args)
    except ConfigError as err:
        return _fail(str(err), EXIT_CONFIG)
    from boxcli.emucamera import open_view
    from boxcli.parts import open_parts
    from firmware.daemon.sdnotify import Notifier

    mute = getattr(args, "mute", False)
    help_text = key_help(cfg)
    # The same seam as the box's: the terminal's display, its lamps line and bell, the keys for the buttons.
    with open_parts(lambda: _terminal_display(args, cfg.display.dimensions, help_text),
                    lambda _, display: _terminal_signals(display, mute=mute)) as parts:
        display, signals = parts.display, parts.signals
        store, store_error = _open_store(cfg, args.state_dir)
        holder: list = []
        dice = emulator_dice(args.seed, lambda: holder[0]) if args.seed is not None else None
        cfg = cfg.replace(game=dataclasses.replace(cfg.game, sound=None if signals.buzzer is None else not cfg.sound.mute))
        # the camera's process logs where the emulator does, not over the frame
        camera_log = None if log_stream is sys.stderr else log_stream
        box = _make_box(cfg, display, store, store_error, dice=dice, notifier=Notifier.from_env(), signals=signals,
                        camera_log=camera_log)
        holder.append(box)
        if args.trace:
            display.box = box
        inner = display.inner if args.trace else display
        view, panel = open_view(box, inner)  # the camera's view beside the screen (none without a camera)
        if view is not None:
            parts.closing(view.close)
        keys = _Keys(cfg, box, say=lambda text: _footer(inner, text, help_text),
                     actions=panel.keys() if panel is not None else None)
        parts.closing(keys.close)
        _install_signals(box)
        if sys.stdout.isatty():
            inner.follow_resize()  # redraw, or say "too small", whenever the window changes size
        box.start()
        keys.start()
        box.run()
    return 0


def key_help(cfg) -> str:
    """The key help under the screen: the box's keys, and with a camera the line of its nudge key."""
    from boxcli.emucamera import KEY_HELP as CAMERA_HELP

    return KEY_HELP + ("\n" + CAMERA_HELP if cfg.camera.on else "")


def emulator_config(cfg, args):
    """The config with this run's options: ``--language``, ``--size``, ``--camera`` (the drawn board)."""
    language = getattr(args, "language", None)  # callers building their own arguments may leave it out
    if language:
        cfg = cfg.replace(display=dataclasses.replace(cfg.display, language=language))
    size = getattr(args, "size", None)
    if size:
        cfg = cfg.replace(display=dataclasses.replace(cfg.display, driver=_driver_for(size, cfg.display.driver), size=size))
    if getattr(args, "camera", False):
        from boxcli.emucamera import with_camera

        cfg = with_camera(cfg)
    return cfg


def _footer(display, text: str | None, help_text: str = KEY_HELP) -> None:
    """The line under the screen: ``text`` for now, or the key help again (None)."""
    display.footer = help_text if text is None else text
    display.redraw()


def _terminal_signals(display, *, mute: bool):
    """The lamps as a line above the key legend, and the terminal bell as the buzzer (none with ``--mute``)."""
    from hw.buzzer import BellBuzzer
    from hw.lamps import TerminalLamps

    from firmware.daemon.signals import Signals

    inner = getattr(display, "inner", display)
    lamps = TerminalLamps(inner.set_status, colour=sys.stdout.isatty())
    buzzer = None if mute or not sys.stdout.isatty() else BellBuzzer(sys.stdout)
    return Signals(lamps, buzzer)


def _driver_for(size: str, driver: str) -> str:
    """The configured driver when it comes in ``size``, else the first one that does."""
    fits = drivers_for(size)
    return driver if driver in fits else fits[0]


def _terminal_display(args, size: tuple[int, int], help_text: str = KEY_HELP):
    """The emulator's display. It starts in a terminal of any size: one too narrow for the whole frame gets
    it at half width, one too small even for that the one-line note, until the window is made bigger."""
    from hw.terminal import TerminalDisplay

    on_tty = sys.stdout.isatty()
    display = TerminalDisplay(footer=help_text, size=size, terminal_size=_terminal_size if on_tty else None, status="")
    return _Traced(display) if args.trace else display


class _Keys:
    """The keyboard as the box's buttons: keys drive gpiozero mock pins wired like the real ones."""

    #: shown in place of the key help after one q: a q in a burst of keys must not end the game at once
    ASK = "q again to quit  |  any other key plays on"

    def __init__(self, cfg, box, say=None, actions=None) -> None:
        from hw.buttons import GpioButtons, mock_pin_factory
        from hw.keys import KeyPins, KeyReader

        self.box = box
        self.say = say or (lambda text: None)  # shows a line under the screen (None: the key help again)
        # the emulator's own keys (the camera's nudge): key -> what it does, never a button of the box
        self.actions = dict(actions or {})
        self.asking = False
        factory = mock_pin_factory()
        pins = cfg.buttons.pins()
        self.buttons = GpioButtons(pins, box.sink, pin_factory=factory)
        hold = cfg.buttons.long_press_ms / 1000 + 0.25
        keymap = {k: (name, hold if h is None else h) for k, (name, h) in KEYS.items()}
        self.keypins = KeyPins(factory, pins, keymap)
        self.repeats = None
        if sys.stdin is not None and sys.stdin.isatty():
            from hw.keyrepeat import RepeatKeys

            self.repeats = RepeatKeys(self.on_key)  # a key held down repeats: one held press, not a burst of taps
        self.reader = KeyReader(self.repeats or self.on_key)

    def on_key(self, key: str) -> None:
        from hw.keys import QUIT

        if key in ("q", "Q") and not self.asking:  # asks once: q twice quits
            self.asking = True
            self.say(self.ASK)
            return
        if key in (QUIT, "q", "Q"):  # the second q, or Ctrl-C and the end of input: at once
            self.keypins.wait_idle(2.0)
            self.box.request_shutdown("Stopped")
            return
        if self.asking:  # any other key: no quit, and the key plays as usual
            self.asking = False
            self.say(None)
        if key in self.actions:
            log.debug("key %r: the emulator's own", key)
            self.actions[key]()
            return
        if not self.keypins.press(key):
            log.debug("key %r ignored (not mapped, or presses still pending)", key)
        else:
            log.debug("key %r", key)

    def start(self) -> None:
        self.reader.start()

    def close(self) -> None:
        self.reader.close()
        if self.repeats is not None:
            self.repeats.close()
        self.keypins.close()
        self.buttons.close()


def emulator_dice(seed: int, get_box):
    """``--seed`` dice drawn from the seed and the game's position (its number, its events so far).

    A resumed game goes on with the dice it would have had, instead of
    replaying the seed's opening rolls on every start.
    """
    from firmware.daemon.dice import positional_dice

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
        self.size = inner.size

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

    def keep_last_frame(self) -> None:
        self.inner.keep_last_frame()

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


class EmulateCommand:
    """``cantstop-box emulate``."""

    DESCRIPTION = EMULATE_DESCRIPTION
    add_arguments = staticmethod(add_emulate_arguments)
    run = staticmethod(run_emulator)
