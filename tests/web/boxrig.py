"""A box to press: firmware's Box on gpiozero's mock pins, a fake display and a real store in a folder."""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory

from firmware import ui, views
from firmware.config import ButtonPins, GameConfig
from firmware.daemon.box import Box
from firmware.daemon.dice import seeded_dice
from firmware.store import Store
from hw.buttons import GpioButtons
from hw.fakes import FakeDisplay
from tests.kit.clock import FakeClock

PINS = ButtonPins().pins()


class BoxRig:
    """A running box on ``state_dir``: ``tap("ROLL")`` presses a button as a player would."""

    def __init__(self, state_dir, *, seed=7, settings=None, language="en", roster=(), names=None, colours=None):
        self.state_dir = state_dir
        self.factory = MockFactory()
        self.clock = FakeClock(1000.0)
        self.display = FakeDisplay()
        self.store = Store.open(state_dir)
        if roster:
            self.store.put_fact("roster", {"names": list(roster), "renamed": {}})
        self.settings = settings or GameConfig()
        if names:  # a game already begun, its seats named (as the new-game screen names them), in these colours
            colours = colours or self.settings.colours[:len(names)]
            self.store.new_game(list(colours), self.settings.rules, meta={"seats": [
                {"colour": c, "bot": None, "name": n} for c, n in zip(colours, names)]})
        self.box = Box(self.settings, self.display, self.store, dice=seeded_dice(seed), clock=self.clock,
                       language=language)
        self.buttons = GpioButtons(PINS, self.box.sink, pin_factory=self.factory)
        self.box.start()

    def tap(self, name, hold=0.1):
        pin = self.factory.pin(PINS[name])
        pin.drive_low()
        self.clock.advance(hold)
        self.box.pump()
        pin.drive_high()
        self.clock.advance(0.1)
        self.box.pump()
        self.clock.advance(1.0)  # past the guard after a handover

    @property
    def view(self):
        return ui.view(self.box.app)

    def play(self, presses: int) -> None:
        """Play on by the buttons alone (first legal pairing, stop after two moves) for ``presses`` presses."""
        moves = 0
        for _ in range(presses):
            v = self.view
            if isinstance(v, views.WinView):
                return
            if isinstance(v, (views.TurnView, views.SetupView)):
                moves = 0
                self.tap("ROLL")
            elif isinstance(v, views.DiceView):
                self.tap(next(o.label for o in v.options if o.effect != "none"))
                moves += 1
            elif isinstance(v, views.PickView):
                self.tap("A")
            elif isinstance(v, views.MoveView):
                self.tap("STOP" if moves >= 2 and v.can_stop else "ROLL")
            else:
                self.tap("ROLL")

    def play_one_event(self) -> int:
        """Play on until the game has one more event (a roll, a move, a stop); how many it has then."""
        before = len(self.box.app.events)
        while len(self.box.app.events) == before:
            self.play(1)
        return len(self.box.app.events)

    def play_to_the_end(self, presses=5000):
        self.play(presses)
        assert isinstance(self.view, views.WinView)
        return self.view

    def close(self):
        """The box goes away as in a power cut: the kernel drops its store lock."""
        self.buttons.close()
        self.factory.reset()
        self.store._lock.release()

    def shutdown(self):
        self.box.shutdown()
        self.buttons.close()
        self.factory.reset()
