"""Game night, round three (issue 32): scripted games on mock pins, each press counted."""

from engine import Roll, Stop
from firmware import views
from firmware.config import GameConfig
from tests.kit.rig import Rig


def _to_decide(rig):
    """ROLL, then the first pairing that moves (A of a pick): the player may stop now."""
    rig.tap("ROLL")
    while not isinstance(rig.view, views.MoveView):
        v = rig.view
        if isinstance(v, views.DiceView):
            rig.tap(next(o.label for o in v.options if o.effect != "none"))
        elif isinstance(v, views.PickView):
            rig.tap("A")
        else:
            raise AssertionError(v)


def test_a_second_stop_never_rolls_the_next_players_dice(tmp_path):
    rig = Rig(tmp_path, seed=4, settings=GameConfig(handover_guard_ms=600))
    rig.tap("ROLL")  # start
    _to_decide(rig)
    rig.tap("STOP")
    assert isinstance(rig.events[-1], Stop)
    rig.clock.advance(0.7)  # past the hand-over guard
    rig.box.pump()
    rig.tap("STOP")
    assert isinstance(rig.events[-1], Stop), rig.events[-2:]  # no roll for the next player
    assert isinstance(rig.view, views.InstructionsView)
    rig.tap("ROLL")  # only ROLL confirms the board and rolls
    assert isinstance(rig.events[-1], Roll) and rig.box.app.game.current == 1
    rig.close()
