"""``update(app, input) -> (app, effects)``: the one pure transition of the UI.

A press goes to the handler of the screen that is up; the other inputs
(dice, store results, shutdown) are answered here. Nothing here does I/O:
the daemon carries out the effects returned (:mod:`firmware.ui.messages`).
"""

from __future__ import annotations

from dataclasses import replace

from . import camera, menus, network, people, phone, setup, turns
from .messages import (Press, After, BoardSeen, CameraSaid, CameraSetUp, CodeLasts, DiceRolled, GameContinued, Input,
                       NetworkSeen, PhoneAsked, PhoneCode, PhoneSettingsKept, RosterChanged, Saved, SaveFailed, Shutdown,
                       StatsLoaded, StatsProgress, Timer, UnfinishedLoaded)
from .model import App, Button, OffScreen, Screen, box_due
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
    Screen.STATS: people.stats_press,
    Screen.RECAP: people.recap_press,
    Screen.CONTINUE: people.continue_press,
    Screen.MESSAGE: menus.back_press,
    Screen.PHONE: menus.phone_press,
    Screen.LOOK: camera.look_press,
    Screen.OFF: lambda app, p: (app, ()),
}

_BUTTONS = frozenset(Button)


def update(app: App, inp: Input) -> Result:
    """The app after one input, and the effects the daemon must carry out (the camera's watch follows the game)."""
    new, effects = _update(app, inp)
    new, watch = camera.follow(new)
    return new, effects + pace(app, new) + watch


def timer_for(app: App) -> float | None:
    """Seconds until the box moves on by itself, for an app just loaded (None: it waits for a press)."""
    return app.settings.box_pace_ms / 1000 if box_due(app) else None


def pace(before: App, app: App) -> tuple[After, ...]:
    """A box seat's next step (or its bust) just came on the screen: ask for the timer to move on."""
    if not box_due(app):
        return ()
    if before.states is app.states and before.screen == app.screen and before.acked == app.acked:
        return ()
    return (After(app.settings.box_pace_ms / 1000),)


def _update(app: App, inp: Input) -> Result:
    if isinstance(inp, PhoneAsked):  # answered even when the box is off: the phone waits for a word
        return phone.on_asked(app, inp)
    if app.screen.kind is Screen.OFF:
        return app, ()
    if isinstance(inp, Timer):
        return turns.on_timer(app)
    if isinstance(inp, RosterChanged):  # not a press: a flash stays up
        return setup.roster_changed(app, inp.names, inp.ids, inp.removed, inp.legacy), ()
    if isinstance(inp, NetworkSeen):  # not a press: a flash stays
        return network.on_network(app, inp), ()
    if isinstance(inp, PhoneSettingsKept):
        return phone.on_kept(app, inp)
    if isinstance(inp, CodeLasts):
        return phone.on_code_lasts(app, inp)
    if isinstance(inp, CameraSaid):  # not a press: a flash stays
        return camera.on_said(app, inp)
    if isinstance(inp, BoardSeen):
        return camera.on_seen(app, inp)
    if isinstance(inp, CameraSetUp):
        return camera.on_set_up(app, inp)
    if isinstance(inp, StatsProgress):  # not a press: a flash stays
        if app.screen.kind is Screen.STATS and app.screen.rows is None:
            return replace(app, screen=replace(app.screen, progress=(inp.done, inp.total))), ()
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
            return replace(app, screen=replace(app.screen, rows=tuple(inp.rows), games=inp.games,
                                               people=tuple(inp.people), page=0)), ()
        return app, ()
    if isinstance(inp, UnfinishedLoaded):
        if app.screen.kind is Screen.CONTINUE:
            return replace(app, screen=replace(app.screen, games=tuple(inp.games), cursor=0)), ()
        return app, ()
    if isinstance(inp, PhoneCode):
        return menus.on_phone_code(app, inp)
    if isinstance(inp, GameContinued):
        return people.on_continued(app, inp)
    if isinstance(inp, Shutdown):
        return replace(app, screen=OffScreen(inp.reason)), ()
    return app, ()
