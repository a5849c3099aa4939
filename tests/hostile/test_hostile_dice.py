"""The emulator's ``--seed``: a resumed game goes on with its own dice, never the seed's opening rolls again."""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory

from firmware import ui, views
from firmware.config import ButtonPins, GameConfig
from firmware.daemon.box import Box
from firmware.commands.emulate import emulator_dice
from firmware.store import Store
from hw.buttons import GpioButtons
from hw.fakes import FakeDisplay
from tests.kit.clock import FakeClock

PINS = ButtonPins().pins()


def rolls(events) -> list:
    return [e["roll"] for e in events if "roll" in e]


class Session:
    """One run of the emulator's box on a state dir: the real wiring of ``--seed``."""

    def __init__(self, state_dir, seed):
        self.factory, self.clock = MockFactory(), FakeClock(1000.0)
        self.store = Store.open(state_dir)
        holder: list = []
        self.box = Box(GameConfig(), FakeDisplay(), self.store, dice=emulator_dice(seed, lambda: holder[0]),
                       clock=self.clock)
        holder.append(self.box)
        self.buttons = GpioButtons(PINS, self.box.sink, pin_factory=self.factory)
        self.box.start()

    def tap(self, name):
        pin = self.factory.pin(PINS[name])
        pin.drive_low()
        self.clock.advance(0.1)
        self.box.pump()
        pin.drive_high()
        self.clock.advance(0.1)
        self.box.pump()

    def play_until(self, count: int) -> None:
        """Press like a player (first legal pairing, never stopping) until ``count`` rolls are stored."""
        for _ in range(2000):
            if len(rolls(self.events())) >= count:
                return
            v = ui.view(self.box.app)
            if isinstance(v, (views.SetupView, views.TurnView, views.InstructionsView)):
                self.tap("ROLL")
            elif isinstance(v, views.DiceView):
                self.tap(next(o.label for o in v.options if o.effect != "none"))
            elif isinstance(v, views.PickView):
                self.tap("A")
            elif isinstance(v, views.MoveView):
                self.tap("ROLL")  # push on until a bust: every turn is rolls only
            else:
                raise AssertionError(f"unexpected screen {v}")
        raise AssertionError("never reached the rolls")

    def events(self) -> list:
        game = self.store.open_game()
        return [] if game is None else game.record().to_json()["events"]

    def close(self):
        self.buttons.close()
        self.factory.reset()
        self.store.close()


def test_hostile_seeded_resume_goes_on_with_the_uninterrupted_dice(tmp_path):
    first = Session(tmp_path / "resumed", seed=11)
    first.play_until(6)
    before = first.events()
    first.close()
    second = Session(tmp_path / "resumed", seed=11)  # a restart: the same game, resumed
    assert second.events() == before
    second.play_until(14)
    resumed = second.events()
    second.close()

    straight = Session(tmp_path / "straight", seed=11)
    straight.play_until(14)
    uninterrupted = straight.events()
    straight.close()
    assert rolls(resumed)[:14] == rolls(uninterrupted)[:14]
    assert rolls(resumed)[6:10] != rolls(resumed)[:4]  # not the opening rolls again


def test_hostile_positional_dice_depend_on_seed_and_position_only():
    class Fake:
        def __init__(self, game, n):
            self.game_id, self.app = game, type("App", (), {"events": [None] * n})()

    at = {(g, n): emulator_dice(3, lambda g=g, n=n: Fake(g, n))() for g in (1, 2) for n in range(40)}
    again = {key: emulator_dice(3, lambda key=key: Fake(*key))() for key in at}
    assert at == again  # a new process at the same position rolls the same
    assert len(set(at.values())) > 60  # positions give different rolls
    assert all(len(d) == 4 and all(1 <= x <= 6 for x in d) for d in at.values())
    assert emulator_dice(4, lambda: Fake(1, 0))() != emulator_dice(3, lambda: Fake(1, 0))() or \
        emulator_dice(4, lambda: Fake(1, 1))() != emulator_dice(3, lambda: Fake(1, 1))()
