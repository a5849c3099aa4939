"""The box's parts, opened in one place and closed in order: the one seam the commands wire the box through.

    with open_parts(open_display, open_signals, real_pin_factory, keep_frame=True) as parts:
        box = Box(..., parts.display, signals=parts.signals)
        parts.buttons(pins, box.sink)
        box.run()

Each part is opened in turn (the pin factory, the display, the lamps and the buzzer,
then the buttons, which need the box's sink) and put on one ``ExitStack``, so a part
that cannot be opened (a one-line ``HardwareError``) closes only what was opened
before it, newest first, and the command says the error once. ``cantstop-box run``
(the real pins and OLED), ``emulate`` (the terminal's display, lamps and bell) and
``selftest`` (each part alone, then each button) are one ``with`` block each. The
bench opens its parts each alone on purpose, to report every one, and does not.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator

log = logging.getLogger("cantstop")


class Parts:
    """What :func:`open_parts` opened: ``factory`` (None in the emulator), ``display``, ``signals``."""

    def __init__(self, stack: contextlib.ExitStack, factory, display, signals) -> None:
        self._stack = stack
        self.factory, self.display, self.signals = factory, display, signals

    def buttons(self, pins: dict[str, int], sink: Callable[[str, bool], None]):
        """The buttons on ``pins`` feeding ``sink``, closed first, before every other part."""
        from hw.buttons import GpioButtons

        buttons = GpioButtons(pins, sink, pin_factory=self.factory)
        self._stack.callback(buttons.close)
        return buttons

    def closing(self, close: Callable[[], object]) -> None:
        """Something the command opened beside the parts (the store), closed with them, before them."""
        self._stack.callback(close)


@contextlib.contextmanager
def open_parts(open_display: Callable[[], object], open_signals: Callable[[object, object], object],
               open_factory: Callable[[], object] | None = None, *, keep_frame: bool = False) -> Iterator[Parts | None]:
    """The parts, opened in turn, closed newest first (``keep_frame``: the display keeps its last frame, the
    "box is off" one, instead of going dark). ``open_display`` may give None (told to stop while it waited
    for a display): the block then gets None, with what was opened already closed."""
    with contextlib.ExitStack() as stack:
        factory = None
        if open_factory is not None:
            factory = open_factory()
            stack.callback(factory.close)
        display = open_display()
        if display is None:
            yield None
            return
        stack.callback(display.keep_last_frame if keep_frame else display.close)
        signals = open_signals(factory, display)
        stack.callback(close_signals, signals)
        yield Parts(stack, factory, display, signals)


def close_signals(signals) -> None:
    """The lamps out and the buzzer quiet; one that fails to close is logged, the other still closed."""
    for part in (signals.lamps, signals.buzzer):
        if part is not None:
            try:
                part.close()
            except Exception as err:
                log.error("closing %s: %s", type(part).__name__, err)
