"""Opening screens: the few moves between screens that several handlers share."""

from __future__ import annotations

from dataclasses import replace

from firmware.table import bot
from .messages import Effect
from .model import App, BoardScreen, GameScreen, HintScreen, MenuScreen, SetupScreen, default_setup, hint_possible

Result = tuple[App, tuple[Effect, ...]]


def flash(app: App, key: str) -> Result:
    """A short note over the top line until the next press (a key of :data:`words.FLASH`, or its text)."""
    return replace(app, flash=app.words.FLASH.get(key, key)), ()


def to_game(app: App) -> Result:
    return replace(app, screen=GameScreen()), ()


def open_menu(app: App) -> Result:
    return replace(app, screen=MenuScreen()), ()


def open_board(app: App) -> Result:
    if app.game is None:
        return app, ()
    return replace(app, screen=BoardScreen()), ()


def open_hint(app: App) -> Result:
    """The strong player's advice, decided now (the presentation only shows it)."""
    if not hint_possible(app):
        return app, ()
    advice = bot.advise(app.game)
    return replace(app, screen=HintScreen(advice, bot.hint_facts(app.game, advice.action))), ()


def open_setup(app: App, *, fresh: bool) -> Result:
    """The new-game screen; unless ``fresh``, with this game's seats and rules."""
    seats = () if fresh else (app.setup.seats or app.seats)  # as the table set them, not the turn order
    setup = default_setup(app.settings, seats)
    if not fresh:
        setup = replace(setup, rules=app.setup.rules, first=min(app.setup.first, len(seats) - 1) if seats else 0)
    return replace(app, screen=SetupScreen(), setup=setup), ()


def leave_menu(app: App) -> Result:
    """Back from the menu: to the game if there is one, else the new-game screen."""
    if app.game is not None:
        return to_game(app)
    return replace(app, screen=SetupScreen()), ()
