"""The box on gpiozero's mock pins, a fake display and a real store: press buttons, read frames and the store.

``Rig`` is the box as the tests, the web tests and the benchmarks drive it: ``tap`` presses a
button, ``play_on`` presses like a table that only wants the game to go on. :func:`mock_pins`
is the one place a mock pin factory is made for them.
"""

from __future__ import annotations

import threading
import time

from gpiozero.pins.mock import MockFactory, MockPWMPin

from engine import Move
from firmware import ui, views
from firmware.config import ButtonPins, GameConfig
from firmware.daemon.box import Box
from firmware.daemon.dice import seeded_dice
from firmware.store import Store
from hw.buttons import GpioButtons
from hw.fakes import FakeDisplay

from .clock import FakeClock

PINS = ButtonPins().pins()
MAX_PRESSES = 5000  # play_on's budget when it plays to an end rather than for a number of presses


def mock_pins(*, pwm: bool = False) -> MockFactory:
    """A fresh mock pin factory of its own (never installed globally); ``pwm`` for lamps and a buzzer."""
    return MockFactory(pin_class=MockPWMPin) if pwm else MockFactory()


class Rig:
    """A running box on mock pins: ``tap("ROLL")`` presses a button as a player would.

    Everything is optional: ``state_dir`` (where the store opens) or ``store`` (one opened
    already); ``seed`` for the dice, or ``dice``; ``settings``, ``display`` (a ``FakeDisplay``),
    ``language``, ``clock`` (a ``FakeClock`` at 1000 s; live, the real one) and ``factory``
    (:func:`mock_pins`). Before the box starts, ``roster`` puts the people's names in the store
    and ``names`` (with ``colours``) a game begun with its seats named. ``rest`` is how long the
    table waits after each press (1.0: past the guard after a handover, so every press counts).
    ``on_edge(name, pressed)`` sees each edge just before the box does (a benchmark times from
    the release). Any other keyword is the ``Box``'s own (``signals``, ``renderer``, ``dim_after``).

    ``live=True`` is the box in real time: its own loop runs in a thread on the real clock, and
    the rig's waits are sleeps (a benchmark's press-to-frame); end it with :meth:`shutdown`.
    """

    def __init__(self, state_dir=None, *, seed=7, dice=None, settings=None, store=None, display=None, language="en",
                 clock=None, factory=None, rest=0.0, live=False, on_edge=None, roster=(), names=None, colours=None,
                 **box):
        self.state_dir = state_dir
        self.live = live
        self.rest = rest
        self.factory = factory or mock_pins()
        self.clock = clock or (time.monotonic if live else FakeClock(1000.0))
        self.display = display or FakeDisplay()
        self.store = store or Store.open(state_dir)
        self.settings = settings or GameConfig()
        if roster:
            self.store.put_fact("roster", {"names": list(roster), "renamed": {}})
        if names:  # a game already begun, its seats named (as the new-game screen names them), in these colours
            colours = colours or self.settings.colours[:len(names)]
            self.store.new_game(list(colours), self.settings.rules, meta={"seats": [
                {"colour": c, "bot": None, "name": n} for c, n in zip(colours, names)]})
        self.box = Box(self.settings, self.display, self.store, dice=dice or seeded_dice(seed), clock=self.clock,
                       language=language, **box)
        sink = self.box.sink if on_edge is None else _both(on_edge, self.box.sink)
        self.buttons = GpioButtons(PINS, sink, pin_factory=self.factory)
        self.box.start()
        self.loop = None
        if live:
            self.loop = threading.Thread(target=self.box.run, daemon=True)
            self.loop.start()

    # -- pressing ---------------------------------------------------------------

    def pin(self, name):
        return self.factory.pin(PINS[name])

    def _wait(self, seconds):
        """Let ``seconds`` pass and the box handle what came (live: its loop does, as the time passes)."""
        if self.live:
            time.sleep(seconds)
        else:
            self.clock.advance(seconds)
            self.box.pump()

    def tap(self, name, hold=0.1):
        self.pin(name).drive_low()
        self._wait(hold)
        self.pin(name).drive_high()
        self._wait(0.1)
        if self.rest and self.live:
            time.sleep(self.rest)
        elif self.rest:
            self.clock.advance(self.rest)  # no pump: the box sees the time at the next press

    def hold(self, name):
        self.pin(name).drive_low()
        if not self.live:
            self.box.pump()
        self._wait(1.0)  # the long press fires while held
        self.pin(name).drive_high()
        self._wait(0.1)

    def play_on(self, presses=None, *, events=None, stop_after=2):
        """Press on like a table that only wants the game to go on; the screen it ends on.

        Each press is the one that screen asks for: the first legal pairing of the dice, A of a
        pick, STOP once ``stop_after`` moves are made this turn (None: never stop, push on to a
        bust), else ROLL (to roll, start, turn a page, leave a winner's screen for a new game).

        - ``play_on()``: on to the winner's screen (AssertionError if no winner comes);
        - ``play_on(presses=n)``: n presses, whatever comes up (a winner's screen is left);
        - ``play_on(events=n)``: until the game's events have changed n times (a roll, a move, a
          stop; a pick alone is not an event).
        """
        if presses is not None and events is not None:
            raise TypeError("play_on takes presses or events, not both")
        if presses is not None:
            for _ in range(presses):
                self._press_on(stop_after)
            return self.view
        left = events
        for _ in range(MAX_PRESSES):
            if (isinstance(self.view, views.WinView) and events is None) or left == 0:
                return self.view
            before = len(self.events)
            self._press_on(stop_after)
            if left is not None and len(self.events) != before:
                left -= 1
        raise AssertionError("no winner" if events is None else f"{left} event(s) short after {MAX_PRESSES} presses")

    def _press_on(self, stop_after):
        v = self.view
        if isinstance(v, views.DiceView):
            self.tap(next(o.label for o in v.options if o.effect != "none"))
        elif isinstance(v, views.PickView):
            self.tap("A")
        elif isinstance(v, views.MoveView):
            stop = stop_after is not None and v.can_stop and _moves_this_turn(self.box.app) >= stop_after
            self.tap("STOP" if stop else "ROLL")
        elif isinstance(v, (views.TurnView, views.SetupView, views.InstructionsView, views.WinView)):
            self.tap("ROLL")  # roll, start, the board is done, or the game: on to the next turn, or a new game
        else:
            raise AssertionError(f"unexpected screen {v}")

    # -- reading ----------------------------------------------------------------

    @property
    def view(self):
        return ui.view(self.box.app)

    @property
    def events(self):
        return self.box.app.events

    # -- ending -----------------------------------------------------------------

    def close(self):
        """The box goes away without a shutdown, as in a power cut: the pins go, the store is cut."""
        assert not self.live, "a live rig's loop ends with shutdown()"
        self.buttons.close()
        self.factory.reset()
        self.store.cut_power()

    def shutdown(self):
        """The box shuts down as the service stops it: the off screen, the store closed cleanly."""
        if self.live:
            self.box.request_shutdown()
            self.loop.join(5)
        else:
            self.box.shutdown()
        self.buttons.close()
        self.factory.reset()


def _moves_this_turn(app) -> int:
    """The moves made since the turn passed to the seat now on (a stop or a bust passes it)."""
    moves = 0
    for i in range(len(app.events) - 1, -1, -1):
        if app.states[i + 1].current != app.states[i].current:
            break
        moves += isinstance(app.events[i], Move)
    return moves


def _both(first, then):
    def sink(name, pressed):
        first(name, pressed)
        then(name, pressed)
    return sink


def goto(rig, label):
    """On a list screen (menu, new game), move down to the row whose label is ``label``."""
    for _ in range(20):
        v = rig.view
        labels = [r[0] if isinstance(r, tuple) else r for r in (v.rows if isinstance(v, views.SetupView) else v.items)]
        if labels[v.cursor] == label:
            return
        rig.tap("B")
    raise AssertionError(f"no row {label}")
