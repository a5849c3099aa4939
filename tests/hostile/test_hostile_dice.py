"""The emulator's ``--seed``: a resumed game goes on with its own dice, never the seed's opening rolls again."""

from __future__ import annotations

from boxcli.emulate import emulator_dice
from tests.kit.rig import Rig


def rolls(events) -> list:
    return [e["roll"] for e in events if "roll" in e]


class Session(Rig):
    """One run of the emulator's box on a state dir: the real wiring of ``--seed``."""

    def __init__(self, state_dir, seed):
        box: list = []
        super().__init__(state_dir, dice=emulator_dice(seed, lambda: box[0]))
        box.append(self.box)

    def play_until(self, count: int) -> None:
        """Press like a player (first legal pairing, never stopping) until ``count`` rolls are stored."""
        for _ in range(2000):
            if len(rolls(self.stored())) >= count:
                return
            self.play_on(presses=1, stop_after=None)  # push on until a bust: every turn is rolls only
        raise AssertionError("never reached the rolls")

    def stored(self) -> list:
        game = self.store.open_game()
        return [] if game is None else game.record().to_json()["events"]


def test_hostile_seeded_resume_goes_on_with_the_uninterrupted_dice(tmp_path):
    first = Session(tmp_path / "resumed", seed=11)
    first.play_until(6)
    before = first.stored()
    first.shutdown()
    second = Session(tmp_path / "resumed", seed=11)  # a restart: the same game, resumed
    assert second.stored() == before
    second.play_until(14)
    resumed = second.stored()
    second.shutdown()

    straight = Session(tmp_path / "straight", seed=11)
    straight.play_until(14)
    uninterrupted = straight.stored()
    straight.shutdown()
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
