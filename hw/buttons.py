"""Buttons on GPIO pins, reported as raw edges to a sink.

``GpioButtons`` builds one real ``gpiozero.Button`` per name on the pin
factory it is given (lgpio on the Pi, ``MockFactory`` in tests and in the
emulator) and calls ``sink(name, True)`` on press, ``sink(name, False)`` on
release. Nothing else: no debounce and no hold timing, which the firmware
does with its own injectable clock (the mock factory does not bounce).

Threading: the sink runs in whatever thread saw the edge. Under
``MockFactory`` that is the thread calling ``pin.drive_low()``; on a Pi it is
lgpio's callback thread. So a sink should only put the edge on a queue.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import TracebackType

from gpiozero import Button
from gpiozero.exc import GPIOPinInUse, PinInvalidPin

from hw.board import Board, read_board
from hw.devices import GPIO_GROUP, access_problem, describe
from hw.errors import ButtonError, one_line

Sink = Callable[[str, bool], None]
log = logging.getLogger(__name__)

EMULATE_HINT = "try 'cantstop-box emulate'"


class GpioButtons:
    """Named push buttons on BCM pins, each press and release sent to ``sink``."""

    def __init__(
        self,
        pins: Mapping[str, int],
        sink: Sink,
        *,
        pin_factory,
        pull_up: bool = True,
    ) -> None:
        if pin_factory is None:
            # gpiozero would silently fall back to its global factory.
            raise TypeError("GpioButtons needs an explicit pin_factory (see hw.buttons.real_pin_factory)")
        _check_distinct(pins)
        self._sink = sink
        self._buttons: dict[str, Button] = {}
        try:
            for name, pin in pins.items():
                self._buttons[name] = self._open(name, pin, pin_factory, pull_up)
        except BaseException:
            self.close()
            raise

    def _open(self, name: str, pin: int, pin_factory, pull_up: bool) -> Button:
        try:
            button = Button(pin, pull_up=pull_up, bounce_time=None, pin_factory=pin_factory)
        except GPIOPinInUse as exc:
            raise ButtonError(f"GPIO{pin} ({name}) is already in use by another device in this program") from exc
        except PinInvalidPin as exc:
            raise ButtonError(f"GPIO{pin} ({name}) is not a valid GPIO pin on this board") from exc
        except Exception as exc:  # lgpio.error and friends: no common base
            if "busy" in str(exc).lower():
                raise ButtonError(f"GPIO{pin} ({name}) is already in use by another program") from exc
            raise ButtonError(f"cannot set up GPIO{pin} ({name}): {_one_line(exc)}") from exc
        button.when_pressed = self._edge(name, True)
        button.when_released = self._edge(name, False)
        return button

    def _edge(self, name: str, pressed: bool) -> Callable[[], None]:
        sink = self._sink

        def report() -> None:
            sink(name, pressed)

        return report

    @property
    def names(self) -> tuple[str, ...]:
        """The button names, in the order of the pin map."""
        return tuple(self._buttons)

    def pressed(self) -> frozenset[str]:
        """Names of the buttons held down right now (e.g. to check at boot)."""
        return frozenset(name for name, button in self._buttons.items() if button.is_pressed)

    def close(self) -> None:
        """Release every pin; safe to call twice. A pin that will not let go (lgpio's "GPIO busy" as a
        stopping box hands its lines back) is one log line, and the others are still released."""
        buttons, self._buttons = self._buttons, {}
        for button in buttons.values():
            _stopping(button)
        for name, button in buttons.items():
            button.when_pressed = None
            button.when_released = None
            try:
                button.close()
            except Exception as err:  # the library's own error types differ by backend
                log.warning("button %s: its pin did not close: %s", name, err)

    def __enter__(self) -> GpioButtons:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _check_distinct(pins: Mapping[str, int]) -> None:
    owner: dict[int, str] = {}
    for name, pin in pins.items():
        if pin in owner:
            raise ButtonError(
                f"buttons {owner[pin]} and {name} are both on GPIO{pin}: each button needs its own pin"
            )
        owner[pin] = name


NEEDS_WRITABLE_CWD = (
    "GPIO backend unavailable: lgpio needs a writable working directory"
    " (run from the state directory, e.g. systemd WorkingDirectory=)"
)
NO_LGPIO_ON_PI5 = (
    "GPIO backend unavailable: a Pi 5 needs lgpio, which is not installed"
    " (install python3-lgpio, or use a Python that PyPI has lgpio wheels for, then run deploy/install.sh again)"
)


def lgpio_factory_class():
    """gpiozero's lgpio factory class; ImportError where lgpio is not installed."""
    from gpiozero.pins.lgpio import LGPIOFactory

    return LGPIOFactory


def native_factory_class():
    """gpiozero's native factory with its edges polled, so that it opens /dev/gpiomem and nothing in /sys."""
    from hw.gpiomem import PolledNativeFactory

    return PolledNativeFactory


@dataclass(frozen=True)
class Backends:
    """The GPIO backends :func:`real_pin_factory` tries, each a function that gives its factory class:
    ``lgpio`` first (ImportError where it is not installed; OSError where importing it cannot make its
    pipes), then ``native`` for a Pi without lgpio. gpiozero's by default; a test passes its own."""

    lgpio: Callable[[], type] = lgpio_factory_class
    native: Callable[[], type] = native_factory_class


def real_pin_factory(chip: int | None = None, board: Board | None = None, backends: Backends = Backends()):
    """The Pi's GPIO backend, or a one-line ``ButtonError``.

    gpiozero's lgpio factory where lgpio can be imported; where it cannot
    (Debian trixie's Python 3.13 has neither python3-lgpio nor a PyPI wheel),
    gpiozero's own pure-Python ``native`` factory, which drives the GPIO
    registers through /dev/gpiomem on a Pi Zero, 1, 2, 3 or 4 (with its edges
    polled, :mod:`hw.gpiomem`, as the service may not write to /sys). A Pi 5's GPIO
    sits behind its RP1 chip, which only lgpio reaches: there it is an error.
    The backend that runs is logged. ``board`` is what the machine is
    (:func:`hw.board.read_board` where it is not given); ``backends`` the factory classes tried.
    """
    board = read_board() if board is None else board
    try:
        factory_class = knowing_the_revision(backends.lgpio(), board.revision)
    except ImportError as exc:
        if not board.has_gpio:
            raise ButtonError(f"GPIO backend unavailable: this machine has no GPIO ({EMULATE_HINT})") from exc
        return _native_factory(board, backends.native, exc)
    except OSError as exc:
        # Importing lgpio opens its notification pipes (.lgd-nfy*) in the current directory.
        raise ButtonError(NEEDS_WRITABLE_CWD) from exc
    if not board.has_gpio:
        raise ButtonError(f"GPIO backend unavailable: this machine has no GPIO ({EMULATE_HINT})")
    try:
        factory = factory_class(chip=chip)
    except Exception as exc:  # lgpio.error ('can not open gpiochip'), PermissionError, PinUnknownPi ...
        if ".lgd-nfy" in str(exc):
            # lgpio makes its notification pipes in the current directory.
            raise ButtonError(NEEDS_WRITABLE_CWD) from exc
        raise ButtonError(_chip_open_message(board.chip_path(chip), exc)) from exc
    log.info("GPIO backend: lgpio")
    return factory


def knowing_the_revision(factory_class, code: int | None):
    """``factory_class`` told the board's revision ``code`` (hw.boardrev: also where Debian's kernel does not
    say it, which gpiozero would refuse); the class itself, with gpiozero's own look-up, where ``code`` is None."""
    if code is None:
        return factory_class
    return type(factory_class.__name__, (factory_class,), {"_get_revision": lambda self: code})


def _native_factory(board: Board, native_class: Callable[[], type], lgpio_missing: ImportError):
    """gpiozero's pure-Python factory, for a Pi without lgpio; a Pi 5 cannot use it."""
    if board.is_pi5:
        raise ButtonError(NO_LGPIO_ON_PI5) from lgpio_missing
    try:
        factory = knowing_the_revision(native_class(), board.revision)()
    except Exception as exc:  # OSError from /dev/gpiomem, PinUnknownPi ...
        problem = access_problem(board.gpiomem_path, GPIO_GROUP) if "gpiomem" in str(exc) else None
        hint = f" ({problem})" if problem else ""
        raise ButtonError(
            f"GPIO backend unavailable: lgpio is not installed and gpiozero's native backend failed:"
            f" {_one_line(exc)}{hint}"
        ) from exc
    log.info("GPIO backend: gpiozero native (/dev/gpiomem, edges polled; lgpio is not installed)")
    return factory


def _chip_open_message(path: str, exc: BaseException) -> str:
    """One line for the GPIO chip at ``path`` that would not open: the node, its owner, group and mode, and
    the group the user needs; where the user may open it, the library's own words. Never "emulate": this is
    a Pi."""
    problem = access_problem(path, GPIO_GROUP)
    if problem is not None:
        return f"GPIO backend unavailable: cannot open {problem}"
    shown = describe(path)
    return f"GPIO backend unavailable: cannot open {path}{f' ({shown})' if shown else ''}: {_one_line(exc)}"


def _one_line(exc: BaseException) -> str:
    return one_line(exc)


def mock_pin_factory():
    """A fresh gpiozero ``MockFactory``: drive its pins with ``factory.pin(n).drive_low()``."""
    from gpiozero.pins.mock import MockFactory

    return MockFactory()


def _stopping(button: Button) -> None:
    """Tell a button's hold thread to stop, without waiting for it.

    gpiozero gives each Button a thread that wakes every 0.1 s to time a hold; ``close`` stops it
    and waits, so closing six buttons one by one waits up to 0.6 s. Told first, all at once (as
    gpiozero itself stops its threads at exit), and woken (its ``holding`` event: it then sees it
    must stop before it times anything), they end at once and the box stops sooner. A gpiozero
    without those attributes is left to stop as it does.
    """
    thread = getattr(button, "_hold_thread", None)
    stopping, holding = getattr(thread, "stopping", None), getattr(thread, "holding", None)
    if stopping is not None:
        stopping.set()
        if holding is not None:
            holding.set()
