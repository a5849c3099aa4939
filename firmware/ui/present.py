"""``view(app)``: the screen for the app state, as plain data (:mod:`firmware.views`).

Pure and cheap: it reads the app and the game, takes every sentence from
:mod:`firmware.words` in the app's language (``app.words``), marks the view
with that language for the renderer, and never asks a player anything (a box
seat's next action and a hint were decided by the update).
"""

from __future__ import annotations

from dataclasses import replace

from engine import (HEIGHTS, Decision, GameState, Move, Phase, bust_probability, can_stop, dice_pairs,
                    jumped_squares, pairings)

from .. import views as v
from firmware.table.practice import box_average
from .. import words
from . import camera, people
from .menus import menu_items, menu_unusable
from .model import App, Screen, box_bust_shown, handover_pending
from .setup import setup_rows
from .turns import handover_lines


def view(app: App) -> v.View:
    """The screen for the current app state."""
    return _VIEWS[app.screen.kind](app, app.flash or app.alert)


def _off(app: App, alert) -> v.View:
    return v.OffView(app.words.off_reason(app.screen.reason), lang=app.language)


def _message(app: App, alert) -> v.View:
    return v.MessageView(app.screen.title, app.screen.lines, app.words.KEYS["message"], alert, lang=app.language)


def _setup(app: App, alert) -> v.View:
    seats = app.setup.seats
    rows = tuple(app.words.setup_row(key, value, seats[int(key[4:])].colour if key.startswith("name") else None)
                 for key, value in setup_rows(app.setup, app.roster, app.language))
    return v.SetupView(app.words.NEW_GAME, rows, app.setup.cursor, app.words.KEYS["setup"], alert, lang=app.language)


def _menu(app: App, alert) -> v.View:
    keys = menu_items(app)
    off = menu_unusable(app)
    items = tuple(app.words.network_row(app.network.addresses) if k == "network" else app.words.MENU_ITEMS[k]
                  for k in keys)
    return v.MenuView(app.words.MENU, items, min(app.screen.cursor, len(items) - 1), app.words.KEYS["menu"], alert,
                      lang=app.language, off=tuple(i for i, k in enumerate(keys) if k in off))


def _phone(app: App, alert) -> v.View:
    s = app.screen
    lines = app.words.phone_lines(s.paired) if s.code else ()
    return v.PhoneView(app.words.PHONE, s.address, s.code, lines, app.words.PHONE_KEYS, alert, lang=app.language)


def _confirm(app: App, alert) -> v.View:
    title, lines = app.words.CONFIRM_NEW
    return v.MessageView(title, lines, app.words.KEYS["confirm"], alert, lang=app.language)


def _stats(app: App, alert) -> v.View:
    return people.stats_view(app, alert)


def _in_dice_order(facts, action, pairs):
    """A move's sums in the order its pairing shows them ("B: 11+3", then "After 11+3"), not the move's own."""
    for p in pairs:
        if facts.sums and action in p.moves and set(facts.sums) <= set(p.sums):
            return replace(facts, sums=tuple(sorted(facts.sums, key=p.sums.index)))
    return facts


def _hint(app: App, alert) -> v.View:
    g = app.game
    advice = app.screen.advice
    pairs = pairings(g) if g.phase is Phase.MOVE else ()
    reason = app.words.hint_reason(_in_dice_order(app.screen.facts, advice.action, pairs))
    action = app.words.action_text(g, advice.action, pairs)
    return v.HintView(app.name(g.current), app.mark(g.current), action, reason, advice.bust, app.words.KEYS["hint"], alert=alert, lang=app.language)


def _pick(app: App, alert) -> v.View:
    g = app.game
    label = app.screen.label
    pairing = pairings(g)["ABC".index(label)]
    return v.PickView(app.name(g.current), app.mark(g.current), g.dice, label, pairing.sums, app.words.KEYS["pick"], alert=alert, lang=app.language,
                      board=_tracks(g))


def _undone(app: App, alert) -> v.View:
    s = app.screen
    return _instructions(app, app.game.current, s.title, None, s.lines, s.page, app.words.KEYS["done"], alert)


def _instructions(app: App, who: int, title: str, big, lines, page: int, done_keys: str, alert,
                  expect: tuple[str, ...] = ()) -> v.View:
    pages = app.paginate(big, lines)
    page = min(page, len(pages) - 1)
    keys = done_keys if page == len(pages) - 1 else app.words.KEYS["page"]
    return v.InstructionsView(app.name(who), app.mark(who), title, pages[page], big if page == 0 else None,
                              page + 1, len(pages), keys, alert, lang=app.language, expect=expect)


def _board(app: App, alert) -> v.View:
    g = app.game
    cols = tuple(
        v.Column(c, HEIGHTS[c], tuple(m[c] for m in g.markers), g.runners[c],
                 g.claimed[c] if g.claimed[c] >= 0 else None)
        for c in range(2, 13)
    )
    current = None if g.phase is Phase.OVER else g.current
    return v.BoardView(tuple(app.name(i) for i in range(len(app.seats))), cols, current, app.screen.focus, app.words.KEYS["board"],
                       alert=alert, lang=app.language, marks=app.marks())


# -- the game screen -------------------------------------------------------------


def _look(app: App, alert) -> v.View:
    title, lines, keys = camera.look_lines(app)
    return v.MessageView(title, lines, keys, alert, lang=app.language)


def _game(app: App, alert) -> v.View:
    base = _game_itself(app, alert)
    wrong = camera.shown_wrong(app)
    if wrong is None:
        return base
    return v.MessageView(app.words.CHECK_BOARD, camera.verdict_lines(app, wrong), base.keys, alert, lang=app.language)


def _game_itself(app: App, alert) -> v.View:
    g = app.game
    if g is None:
        title, lines = app.words.NO_GAME
        return v.MessageView(title, lines, app.words.KEYS["message"], alert, lang=app.language)
    if handover_pending(app):
        return _handover(app, alert)
    if app.ended:
        return _end(app, alert)
    if g.phase is Phase.ROLL:
        return _turn(app, alert)
    if g.phase is Phase.MOVE:
        return _dice(app, alert)
    return _moved(app, alert)


def _handover(app: App, alert) -> v.View:
    g, prev = app.game, app.states[-2]
    big, lines = handover_lines(app)
    title = app.words.handover_title(app.name(prev.current), big is not None)
    if g.phase is Phase.OVER:
        done = app.words.KEYS["see_winner"]
    elif box_bust_shown(app):
        done = app.words.KEYS["box_turn"]  # the box goes on by itself: nothing awaited
        return _instructions(app, prev.current, title, big, lines, app.screen.page, done, alert)
    elif app.seats[g.current].bot is not None:
        done = app.words.KEYS["box_next"]
    else:
        done = app.words.next_turn_key(app.name(g.current))
    return _instructions(app, prev.current, title, big, lines, app.screen.page, done, alert, ("ROLL",))


def _end(app: App, alert) -> v.View:
    g = app.game
    note: tuple[str, ...] = ()
    if g.winner is None:
        note = (app.words.nobody_can_win(g.rules.columns_to_win),)
    average = box_average(g.rules.columns_to_win)
    if len(g.players) == 1 and average is not None:
        note = app.words.practice_result(g.turn, average) + note
    winner = g.winner
    return v.WinView(None if winner is None else app.name(winner), app.mark(winner),
                     g.claims_of(winner) if winner is not None else (), g.round, note,
                     app.words.win_keys(people.can_recap(app)), alert=alert, lang=app.language)


def _turn(app: App, alert) -> v.View:
    g = app.game
    seat = g.current
    bot = app.seats[seat].bot is not None
    keys = app.words.KEYS["box_turn" if bot else "turn"]
    note, note_names = _turn_note(app)
    return v.TurnView(app.name(seat), app.mark(seat), g.round, g.claims_of(seat), note, bot, keys, alert,
                      lang=app.language, note_names=note_names, board=_tracks(g))


def _tracks(g: GameState) -> tuple[v.Track, ...]:
    """Every column as the wide screens' compact board shows it: the player to act's marker and runner."""
    me = g.current
    return tuple(
        v.Track(c, HEIGHTS[c], g.markers[me][c], g.runners[c],
                "" if g.claimed[c] < 0 else "mine" if g.claimed[c] == me else "theirs")
        for c in range(2, 13)
    )


def _turn_note(app: App) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What to say as a turn starts (the opening of the game, or how the previous turn ended), and whom it names."""
    g = app.game
    if not app.events:
        names = tuple(app.name(i) for i in range(len(app.seats)))
        return app.words.opening_note(names, app.name(g.current), g.rules, box_average(g.rules.columns_to_win)), names
    previous = app.name(app.states[-2].current)
    return app.words.previous_turn_note(previous, app.events[-1]), (previous,)


def _dice(app: App, alert) -> v.View:
    g = app.game
    seat = g.current
    bot = app.seats[seat].bot is not None
    pairs = dice_pairs(g.dice)
    options = tuple(_option(p, pairs["ABC".index(p.label)]) for p in pairings(g))
    chosen = _chosen_label(g, app.plan) if bot else None
    keys = app.words.KEYS["box_ok" if bot else "choose"]
    return v.DiceView(app.name(seat), app.mark(seat), g.dice, options, bot, chosen, keys, alert, lang=app.language,
                      board=_tracks(g))


def _option(p, pairs) -> v.Option:
    effect, text = words.option_text(p)
    return v.Option(p.label, pairs, p.sums, effect, text)


def _chosen_label(g: GameState, action) -> str | None:
    """A box seat's choice as the dice screen marks it: "A", or "A:11" after a pick."""
    if not isinstance(action, Move):
        return None
    for p in pairings(g):
        if action in p.moves:
            return f"{p.label}:{action.sums[0]}" if p.needs_pick else p.label
    return None


def _moved(app: App, alert) -> v.View:
    g, prev, last = app.game, app.states[-2], app.events[-1]
    seat = g.current
    bot = app.seats[seat].bot is not None
    steps = tuple(
        v.RunnerMove(c, g.runners[c], prev.runners[c] == 0, g.runners[c] == HEIGHTS[c], jumped_squares(prev, g, c))
        for c in dict.fromkeys(last.sums)
    ) if isinstance(last, Move) else ()
    stoppable = can_stop(g)
    bot_next = None
    if bot:
        bot_next = "stop" if app.plan is Decision.STOP and stoppable else "roll"
    keys = app.words.KEYS["box_ok"] if bot else app.words.KEYS["roll_or_stop" if stoppable else "roll"]
    conflicts = [] if stoppable else _risky_conflicts(app, g)
    return v.MoveView(app.name(seat), app.mark(seat), steps, bust_probability(g), stoppable, g.free_runners,
                      None if stoppable else app.words.risky_note(conflicts),
                      bot, bot_next, keys, alert, lang=app.language,
                      note_names=tuple(dict.fromkeys(n for _, owners in conflicts for n in owners)), board=_tracks(g))


def _risky_conflicts(app: App, g: GameState) -> list[tuple[int, list[str]]]:
    """Every runner sharing a square with other players' markers, and those players' names."""
    conflicts = []
    for c, step in g.runner_steps().items():
        owners = [app.name(i) for i, m in enumerate(g.markers) if i != g.current and m[c] == step]
        if owners:
            conflicts.append((c, owners))
    return conflicts


_VIEWS = {
    Screen.OFF: _off,
    Screen.MESSAGE: _message,
    Screen.SETUP: _setup,
    Screen.MENU: _menu,
    Screen.CONFIRM: _confirm,
    Screen.STATS: _stats,
    Screen.BOARD: _board,
    Screen.HINT: _hint,
    Screen.PICK: _pick,
    Screen.UNDONE: _undone,
    Screen.GAME: _game,
    Screen.RECAP: people.recap_view,
    Screen.CONTINUE: people.continue_view,
    Screen.PHONE: _phone,
    Screen.LOOK: _look,
}
