"""A box (the real daemon, a fake display) driven by presses through its own entry point, for store faults."""

from __future__ import annotations

from firmware import ui
from firmware.config import GameConfig
from firmware.daemon.box import Box
from firmware.daemon.dice import seeded_dice
from hw.fakes import FakeDisplay

from .clock import FakeClock


class TapBox:
    """``Box`` on a store, pressed through :meth:`Box.sink` with a clock the test moves."""

    def __init__(self, store, *, seed: int = 7):
        self.clock = FakeClock(1000.0)
        self.store = store
        self.box = Box(GameConfig(), FakeDisplay(), store, dice=seeded_dice(seed), clock=self.clock)
        self.box.start()

    def tap(self, name: str = "ROLL") -> None:
        self.box.sink(name, True)
        self.clock.advance(0.1)
        self.box.pump()
        self.box.sink(name, False)
        self.clock.advance(0.1)
        self.box.pump()

    def play(self, presses: int) -> None:
        """Keep a game going: the first legal pairing (A of a pick), else ROLL."""
        for _ in range(presses):
            v = self.view
            options = getattr(v, "options", None)
            if options:
                self.tap(next(o.label for o in options if o.effect != "none"))
            elif type(v).__name__ == "PickView":
                self.tap("A")
            else:
                self.tap("ROLL")

    @property
    def view(self):
        return ui.view(self.box.app)

    @property
    def events(self):
        return self.box.app.events
