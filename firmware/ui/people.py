"""The people screens: statistics per person, a finished game's recap, and continuing an unfinished game.

Statistics: the first pages are the wins per person (four people a page, as
many pages as the group has people); A/B page through them and then each
person's numbers (four rows a page); ROLL goes back, MENU opens the menu (as
on every screen). The recap is opened with B on the win screen; ROLL returns
to it, MENU opens the menu. "Continue a
game" lists the games left unfinished (newest first); choosing one reopens
it, and the game being played, if any, is left unfinished in its place (it
can be continued the same way), so nothing is lost and no confirmation is
asked. The box then shows the board as it was, to set the pieces up.
"""

from __future__ import annotations

from dataclasses import replace

from engine import Phase

from .. import views as v
from firmware.table.person_stats import tally
from .messages import Press, ContinueGame, GameContinued
from .model import App, BoardScreen, Button, GameScreen, MenuScreen, Screen, SetupScreen, resume
from .navigate import Result, flash

ROWS_PER_PAGE = 4


# -- statistics ------------------------------------------------------------------


def person_pages(people, said) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """(name, rows) for each page after the overview: a person's rows, four at a time."""
    pages = []
    for p in people:
        solo = {columns: (best, average) for columns, best, average in p.solo}
        rows = said.person_rows(p.games, p.wins, p.win_rate, p.busts_per_turn, solo)
        for i in range(0, len(rows), ROWS_PER_PAGE):
            pages.append((p.name, rows[i:i + ROWS_PER_PAGE]))
    return pages


def overview_pages(rows: tuple[tuple[str, int], ...]) -> list[tuple[tuple[str, int], ...]]:
    """The wins per person, four people a page (at least one page: "No games yet" has one)."""
    return [rows[i:i + ROWS_PER_PAGE] for i in range(0, max(1, len(rows)), ROWS_PER_PAGE)]


def stats_press(app: App, p: Press) -> Result:
    """A/B page (the overview first); ROLL goes back to where statistics were opened, MENU to the menu."""
    s = app.screen
    if p.button in (Button.A, Button.B) and s.rows is not None:
        total = len(overview_pages(s.rows)) + len(person_pages(s.people, app.words))
        step = 1 if p.button == Button.B else -1
        return replace(app, screen=replace(s, page=(s.page + step) % total)), ()
    if p.button == Button.MENU:
        return replace(app, screen=MenuScreen()), ()
    if p.button == Button.ROLL:
        back = s.back
        if back.kind is Screen.GAME and app.game is None:
            back = SetupScreen()
        return replace(app, screen=back), ()
    return app, ()


def stats_view(app: App, alert) -> v.View:
    s = app.screen
    if s.rows is None and s.progress is not None:
        title, lines = app.words.counting(*s.progress)
        return v.MessageView(title, lines, app.words.KEYS["stats_one"], alert, lang=app.language)
    overview = overview_pages(tuple((app.words.colour(n), wins) for n, wins in s.rows or ()))
    pages = person_pages(s.people, app.words) if s.rows is not None else []
    total = len(overview) + len(pages)
    page = s.page % total
    if page < len(overview):
        keys = app.words.KEYS["stats"] if total > 1 else app.words.KEYS["stats_one"]
        # the bars of every page in proportion to the most wins of all, so that pages compare
        most = max((wins for _, wins in s.rows or ()), default=0)
        return v.StatsView(overview[page], s.games if s.rows is not None else 0, keys, alert, lang=app.language,
                           page=app.words.page_of(page + 1, total) if total > 1 else "", most=most)
    name, rows = pages[page - len(overview)]
    return v.TableView(name, app.words.page_of(page + 1, total), rows, app.words.KEYS["stats"], alert, lang=app.language)


# -- the recap of a finished game ---------------------------------------------------


def recap_view(app: App, alert) -> v.View:
    g = app.game
    t = tally(g.players, app.seats, g.rules, app.events, g.winner)
    rows = tuple(v.RecapRow(app.name(i), app.mark(i), s["turns"], s["busts"], s["best"]) for i, s in enumerate(t["seats"]))
    most = max((r.best for r in rows), default=0)
    biggest = next((i for i, r in enumerate(rows) if r.best == most), None) if most else None
    return v.RecapView(app.words.RECAP, app.words.recap_status(g.round), rows, biggest, app.words.KEYS["recap"], alert, lang=app.language)


def recap_press(app: App, p: Press) -> Result:
    if p.button == Button.MENU:
        return replace(app, screen=MenuScreen()), ()
    if p.button == Button.ROLL:
        return replace(app, screen=GameScreen()), ()
    return app, ()


def can_recap(app: App) -> bool:
    return app.ended and app.game.phase is Phase.OVER


# -- continuing an unfinished game ----------------------------------------------------


def continue_press(app: App, p: Press) -> Result:
    s = app.screen
    games = s.games or ()
    if p.button == Button.MENU or (not games and p.button == Button.ROLL):
        return replace(app, screen=MenuScreen()), ()
    if not games:
        return app, ()
    if p.button in (Button.A, Button.B):
        step = -1 if p.button == Button.A else 1
        return replace(app, screen=replace(s, cursor=(s.cursor + step) % len(games))), ()
    if p.button in (Button.ROLL, Button.C):
        return app, (ContinueGame(games[min(s.cursor, len(games) - 1)].id),)
    return app, ()


def unfinished_names(app: App, game) -> tuple[str, ...]:
    """An unfinished game's seats as the screen names them: a player's name, else the colour in its language."""
    colours = game.colours or ("",) * len(game.names)
    return tuple(name or (app.words.colour(colour) if colour else "?") for name, colour in zip(game.names, colours))


def continue_view(app: App, alert) -> v.View:
    s = app.screen
    if s.games is not None and not s.games:
        title, lines = app.words.NO_UNFINISHED
        return v.MessageView(title, lines, app.words.KEYS["none_left"], alert, lang=app.language)
    items = tuple(app.words.continue_item(g.id, unfinished_names(app, g), g.turns) for g in s.games or ())
    return v.MenuView(app.words.CONTINUE, items, min(s.cursor, max(0, len(items) - 1)), app.words.KEYS["menu"], alert,
                      lang=app.language)


def on_continued(app: App, inp: GameContinued) -> Result:
    """The reopened game, on the board view so the table can set the pieces up as they were."""
    again = resume(app.settings, inp.seats, inp.rules, inp.events, app.roster, app.language, app.roster_ids,
                   paginate=app.paginate)
    again = replace(again, acked=len(again.events), screen=BoardScreen(), alert=app.alert)
    return flash(again, "set_board")
