"""A restart (a power cut: no shutdown) shows the screen the table left, in every case.

Issue 10 item 9: the confirmed handover, the last settings, a finished game's
result and a confirmed new-game setup all survive, through the store's UI
facts (:mod:`firmware.ui.memory`).
"""

from dataclasses import replace

import pytest

from firmware import ui, views
from firmware.config import GameConfig
from firmware.daemon.debounce import Press
from firmware.store import Store

from tests.kit.rig import Rig


def restart(rig: Rig, tmp_path, **kw) -> Rig:
    rig.close()  # no shutdown: as if the power went
    return Rig(tmp_path, store=Store.open(tmp_path), **kw)


def stop_after_one_move(rig: Rig) -> None:
    rig.tap("ROLL")  # roll
    v = rig.view
    rig.tap(next(o.label for o in v.options if o.effect != "none"))
    if isinstance(rig.view, views.PickView):
        rig.tap("A")
    rig.tap("STOP")


def test_restart_after_a_confirmed_stop_shows_the_next_turn(tmp_path):
    rig = Rig(tmp_path, seed=3)
    rig.tap("ROLL")  # start
    stop_after_one_move(rig)
    assert isinstance(rig.view, views.InstructionsView)
    rig.clock.advance(1.0)  # past the guard against an eager double press
    rig.tap("ROLL")  # the board is done: Blue's dice are rolled
    shown = rig.view
    assert isinstance(shown, views.DiceView) and shown.player == "Blue"
    rig = restart(rig, tmp_path)
    assert rig.view == shown  # not the confirmed instructions again
    rig.close()


def test_restart_before_confirming_a_stop_shows_the_instructions_again(tmp_path):
    rig = Rig(tmp_path, seed=3)
    rig.tap("ROLL")
    stop_after_one_move(rig)
    shown = rig.view
    assert isinstance(shown, views.InstructionsView)
    rig = restart(rig, tmp_path)
    assert rig.view == shown
    rig.close()


def test_restart_after_a_win_shows_the_result_then_the_last_settings(tmp_path):
    settings = GameConfig(columns_to_win=1)
    rig = Rig(tmp_path, seed=5, settings=settings)
    rig.tap("C")  # players 2 -> 3: a setting the config does not have
    rig.tap("ROLL")
    win = rig.play_on()
    rig = restart(rig, tmp_path, settings=settings)
    assert rig.view == win  # the result, not a new game with the config's defaults
    rig.tap("ROLL")  # on to a new game
    setup = rig.view
    assert isinstance(setup, views.SetupView) and ("Players", "3") in setup.rows
    rig = restart(rig, tmp_path, settings=settings)
    assert rig.view == setup  # the result was dismissed; the settings last used stay
    rig.close()


def test_restart_in_a_confirmed_new_game_setup_keeps_it(tmp_path):
    rig = Rig(tmp_path, seed=3)
    rig.tap("ROLL")
    stop_after_one_move(rig)
    rig.clock.advance(1.0)
    rig.tap("ROLL")
    game = rig.view
    rig.tap("MENU")
    items = rig.view.items
    for _ in range(items.index("New game")):
        rig.tap("B")
    rig.tap("ROLL")
    assert rig.view.title == "New game?"
    rig.tap("C")  # yes
    rows = [label for label, _ in rig.view.rows]
    for _ in range(rows.index("Risky")):
        rig.tap("B")
    rig.tap("C")  # risky on
    setup = rig.view
    assert ("Risky", "on") in setup.rows
    rig = restart(rig, tmp_path)
    assert rig.view == setup  # not the old game, and risky is still on
    rig.tap("MENU")  # the old game is still there until the new one starts: menu, then back to it
    rig.tap("MENU")
    assert rig.view == game
    rig.close()


@pytest.mark.parametrize("kept", [
    None, 7, "x", {"setup": "x"}, {"setup": {"seats": [{"colour": "Mauve", "bot": None}], "rules": {}}},
    {"setup": {"seats": [{"colour": "Red", "bot": "god"}], "rules": {}}},
    {"setup": {"seats": [{"colour": "Red", "bot": None}] * 2, "rules": {}}},
    {"setup": {"seats": [{"colour": "Red", "bot": None}], "rules": {"columns_to_win": 99}}},
    {"acked": 10**9}, {"acked": "3"}, {"screen": 3},
])
def test_recall_ignores_what_does_not_fit(kept):
    app = ui.boot(GameConfig())
    assert ui.recall(app, kept, game=True) == app


def test_memory_round_trips_through_json():
    import json

    app = ui.boot(GameConfig(colours=("Red", "Blue", "Green", "Pink")))
    app, _ = ui.update(app, Press("C"))  # players 2 -> 3
    app, _ = ui.update(app, Press("B"))  # the cursor moves too
    app = replace(app, setup=replace(app.setup, rules=replace(app.setup.rules, speedy=True)))
    kept = json.loads(json.dumps(ui.memory(app)))
    back = ui.recall(ui.boot(GameConfig(colours=("Red", "Blue", "Green", "Pink"))), kept, game=False)
    assert len(back.setup.seats) == 3 and back.setup == app.setup
    assert back.screen.kind is ui.Screen.SETUP


def test_a_pick_the_table_was_asked_survives_a_power_cut_and_a_pick_that_no_longer_fits_is_dropped(tmp_path):
    """The pick is kept with the other UI facts (the web view reads it to say what the box asks)."""
    from firmware import views
    from tests.kit.rig import Rig

    def rig_with(rolls):
        it = iter(rolls)
        return Rig(tmp_path, dice=lambda: next(it), rest=1.0)

    rolls = [(2, 2, 3, 3), (1, 1, 5, 5)] + [(6, 6, 6, 6)] * 10
    rig = Rig(tmp_path, names=("Ann", "Bob"), dice=lambda it=iter(rolls): next(it), rest=1.0)
    for button in ("ROLL", "A", "ROLL", "A"):
        rig.tap(button)
    assert isinstance(rig.view, views.PickView)
    kept = rig.store.fact("table")
    assert kept["pick"] == "A"
    rig.close()  # the plug pulled on the pick screen
    again = rig_with([(6, 6, 6, 6)] * 10)
    try:
        assert isinstance(again.view, views.PickView) and again.view.label == "A"
        from firmware.ui.model import GameScreen, PickScreen

        base = replace(again.box.app, screen=GameScreen())
        assert ui.recall(base, kept, game=True).screen == PickScreen("A")
        for not_a_question in ("C", 7, "Z"):  # C moves one sum twice: the box asks nothing
            assert ui.recall(base, kept | {"pick": not_a_question}, game=True).screen == GameScreen()
        assert ui.recall(base, kept, game=False).screen == GameScreen()  # another game's pick
    finally:
        again.close()
