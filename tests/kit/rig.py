"""The daemon on gpiozero's mock pins, a fake display and a real store: press buttons, read frames and the store.

``Rig`` is the box as the tests drive it; :func:`play_to_the_end` and :func:`tap_on` press like a
table that only wants the game to go on.
"""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory

from firmware import ui, views
from firmware.config import ButtonPins, GameConfig
from firmware.daemon.box import Box
from firmware.daemon.dice import seeded_dice
from firmware.store import Store
from hw.buttons import GpioButtons
from hw.fakes import FakeDisplay

from .clock import FakeClock

PINS = ButtonPins().pins()


class Rig:
    """A box on mock pins: press buttons, read frames and the store."""

    def __init__(self, tmp_path, *, seed=7, settings=None, store=None, display=None, language="en"):
        self.factory = MockFactory()
        self.clock = FakeClock(1000.0)
        self.display = display or FakeDisplay()
        self.store = store or Store.open(tmp_path)
        self.box = Box(settings or GameConfig(), self.display, self.store, dice=seeded_dice(seed),
                       clock=self.clock, language=language)
        self.buttons = GpioButtons(PINS, self.box.sink, pin_factory=self.factory)
        self.box.start()

    def pin(self, name):
        return self.factory.pin(PINS[name])

    def tap(self, name, hold=0.1):
        self.pin(name).drive_low()
        self.clock.advance(hold)
        self.box.pump()
        self.pin(name).drive_high()
        self.clock.advance(0.1)
        self.box.pump()

    def hold(self, name):
        self.pin(name).drive_low()
        self.box.pump()
        self.clock.advance(1.0)
        self.box.pump()  # the long press fires while held
        self.pin(name).drive_high()
        self.clock.advance(0.1)
        self.box.pump()

    @property
    def view(self):
        return ui.view(self.box.app)

    def close(self):
        """The box goes away without a shutdown, as in a power cut: the kernel drops its store lock."""
        self.buttons.close()
        self.factory.reset()
        self.store._lock.release()


def play_to_the_end(rig, max_presses=5000):
    """Play by the buttons alone: first legal pairing (A of a pick), stop after two moves."""
    moves_this_turn = 0
    for _ in range(max_presses):
        v = rig.view
        if isinstance(v, views.WinView):
            return v
        if isinstance(v, views.TurnView):
            moves_this_turn = 0
            rig.tap("ROLL")
        elif isinstance(v, views.DiceView):
            label = next(o.label for o in v.options if o.effect != "none")
            rig.tap(label)
            moves_this_turn += 1
        elif isinstance(v, views.PickView):
            rig.tap("A")
        elif isinstance(v, views.MoveView):
            rig.tap("STOP" if moves_this_turn >= 2 and v.can_stop else "ROLL")
        elif isinstance(v, views.InstructionsView):
            rig.tap("ROLL")  # the board is done: on to the next turn
        else:
            raise AssertionError(f"unexpected screen {v}")
    raise AssertionError("no winner")


def tap_on(rig):
    """One sensible press for whatever screen is up (keeps a game going)."""
    v = rig.view
    if isinstance(v, views.DiceView):
        rig.tap(next(o.label for o in v.options if o.effect != "none"))
    elif isinstance(v, views.PickView):
        rig.tap("A")
    elif isinstance(v, views.MoveView) and v.can_stop and len(rig.box.app.events) % 3 == 0:
        rig.tap("STOP")
    else:
        rig.tap("ROLL")


def goto(rig, label):
    """On a list screen (menu, new game), move down to the row whose label is ``label``."""
    for _ in range(20):
        v = rig.view
        labels = [r[0] if isinstance(r, tuple) else r for r in (v.rows if isinstance(v, views.SetupView) else v.items)]
        if labels[v.cursor] == label:
            return
        rig.tap("B")
    raise AssertionError(f"no row {label}")
