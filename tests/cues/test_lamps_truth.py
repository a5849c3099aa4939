"""A lamp tells the truth: a lit button does something, and a button that does something is lit.

Whole sessions of random presses (games, menus, statistics, the Continue list,
undo, the board, hints) on the daemon's own Box, on the tests' rig (mock pins,
a fake clock). At every screen each of the six buttons is tried on the pure
``ui.update`` (nothing pressed for real): it *does something* when the app
changes or an effect is asked for. A flash alone (a press that only says why
not, "Choose A, B or C") is nothing.

The lamps come from the legend (firmware.cues); the legend leaves out, for
room, a few second ways to do what a named button does. Those are the only
buttons allowed to work unlit (:data:`UNLIT`); a lit lamp that does nothing is
never allowed.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from firmware import ui, views
from firmware.config import GameConfig
from firmware.cues import OFF, lamp_states
from firmware.ui.messages import Press
from firmware.ui.model import Screen, StatsScreen
from tests.kit.rig import Rig

BUTTONS = ("ROLL", "STOP", "A", "B", "C", "MENU")


def unlit_but_working(view, screen: Screen, button: str) -> bool:
    """The buttons that work without a lamp, each a second way to something the legend names."""
    if button == "MENU":  # the game screens light it though their legends leave it out (issue 47, item 8)
        return not getattr(view, "menu_works", False)
    if isinstance(view, views.InstructionsView):
        # STOP turns the page as ROLL does (never the handover's roll); A goes back from the last page
        return button == "STOP" or (button == "A" and view.page == view.pages > 1)
    if isinstance(view, views.MenuView):
        return button == "C"  # chooses, as ROLL does
    return False


def does_something(app, button: str) -> bool:
    new, effects = ui.update(app, Press(button, False))
    return bool(effects) or replace(new, flash=None) != replace(app, flash=None)


def walk(tmp_path, seed: int, steps: int, language: str):
    """Random presses (ROLL and the pairings more often, as a table presses them); yields (app, view)."""
    rig = Rig(tmp_path, seed=seed, settings=GameConfig(handover_guard_ms=0, sound=True, columns_to_win=2),
              language=language)
    rng = random.Random(seed)
    weights = {"ROLL": 5, "STOP": 2, "A": 3, "B": 3, "C": 2, "MENU": 1}
    try:
        for _ in range(steps):
            yield rig.box.app, rig.box.last_view
            button = rng.choices(list(weights), list(weights.values()))[0]
            rig.tap(button)
            rig.clock.advance(1.9)  # 2 s from the release: a box seat's step, the timer's, comes before the next
            rig.box.pump()
    finally:
        rig.shutdown()


@pytest.mark.parametrize("seed, language", [(1, "en"), (2, "ja"), (3, "ko"), (4, "en")])
def test_a_lit_lamp_always_does_something_and_only_named_seconds_work_unlit(tmp_path, seed, language):
    kinds = set()
    wrong = []
    for app, view in walk(tmp_path, seed, 700, language):
        lamps = lamp_states(view)
        kinds.add(type(view).__name__)
        for button in BUTTONS:
            lit, does = lamps[button] != OFF, does_something(app, button)
            if lit and not does:
                wrong.append(f"{type(view).__name__} {view.keys!r}: {button} lit, does nothing")
            elif does and not lit and not unlit_but_working(view, app.screen.kind, button):
                wrong.append(f"{type(view).__name__} {view.keys!r}: {button} works unlit")
    assert sorted(set(wrong)) == []
    # the walk reached the screens around the game as well as the game's own
    assert {"TurnView", "DiceView", "MoveView", "InstructionsView", "MenuView", "SetupView"} <= kinds, kinds


def test_the_lamps_of_the_screens_the_walk_found_wrong():
    """Each mended case, named: the first of several pages, an item that cannot be used, a list of one."""
    first = views.InstructionsView("Red", 0, "Red stops", ("x",), page=1, pages=2, keys="A/B:page ROLL:next")
    assert lamp_states(first)["A"] == OFF and lamp_states(first)["B"] != OFF
    second = replace(first, page=2, keys="A/B:page ROLL:next")
    assert lamp_states(second)["A"] != OFF
    menu = views.MenuView("Menu", ("Back", "Undo"), 1, off=(1,))
    assert lamp_states(menu)["ROLL"] == OFF and lamp_states(replace(menu, cursor=0))["ROLL"] != OFF
    one = views.MenuView("Continue", ("#1 Ann, Bo",), 0)
    assert {b: lamp_states(one)[b] for b in ("A", "B", "ROLL")} == {"A": OFF, "B": OFF, "ROLL": "lit"}


def test_paged_statistics_light_roll_which_goes_back():
    app = ui.boot(GameConfig())
    stats = replace(app, screen=StatsScreen(rows=tuple((f"P{i}", i) for i in range(6)), games=6))
    v = ui.view(stats)
    assert isinstance(v, views.StatsView) and v.page  # two pages of wins: A/B page through them
    assert lamp_states(v)["ROLL"] != OFF and does_something(stats, "ROLL")
