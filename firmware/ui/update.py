"""``update(app, input) -> (app, effects)``: the one pure transition of the UI.

A press goes to the handler of the screen that is up; the other inputs
(dice, store results, shutdown) are answered here. Nothing here does I/O:
the daemon carries out the effects returned (:mod:`firmware.ui.messages`).
"""

from __future__ import annotations

from dataclasses import replace

from ..debounce import Press
from . import menus, setup, turns
from .messages import DiceRolled, Input, Saved, SaveFailed, Shutdown, StatsLoaded
from .model import App, Button, OffScreen, Screen
from .navigate import Result

_PRESS = {
    Screen.SETUP: setup.setup_press,
    Screen.GAME: turns.game_press,
    Screen.PICK: turns.pick_press,
    Screen.UNDONE: turns.undone_press,
    Screen.MENU: menus.menu_press,
    Screen.CONFIRM: menus.confirm_press,
    Screen.BOARD: menus.board_press,
    Screen.HINT: menus.hint_press,
    Screen.STATS: menus.back_press,
    Screen.MESSAGE: menus.back_press,
    Screen.OFF: lambda app, p: (app, ()),
}

_BUTTONS = frozenset(Button)


def update(app: App, inp: Input) -> Result:
    """The app after one input, and the effects the daemon must carry out."""
    if app.screen.kind is Screen.OFF:
        return app, ()
    if app.flash is not None:
        app = replace(app, flash=None)
    if isinstance(inp, Press):
        if inp.button not in _BUTTONS:
            return app, ()
        return _PRESS[app.screen.kind](app, inp)
    if isinstance(inp, DiceRolled):
        return turns.on_dice(app, inp.dice)
    if isinstance(inp, SaveFailed):
        return replace(app, alert=app.words.not_saved(inp.message)), ()
    if isinstance(inp, Saved):
        return (replace(app, alert=None) if app.alert else app), ()
    if isinstance(inp, StatsLoaded):
        if app.screen.kind is Screen.STATS:
            return replace(app, screen=replace(app.screen, rows=tuple(inp.rows), games=inp.games)), ()
        return app, ()
    if isinstance(inp, Shutdown):
        return replace(app, screen=OffScreen(inp.reason)), ()
    return app, ()
