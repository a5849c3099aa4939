"""What the buttons do during a game: roll, choose, pick, stop, the box's seats, undo.

Held too long, a button means what its tap means (a slow STOP still stops),
except MENU (held: undo) and ROLL (held: a hint). After a stop or a bust the
game screen lists what to do on the board, and ROLL confirms it before the
next turn, so an eager double press cannot roll the next player's dice.
"""

from __future__ import annotations

from dataclasses import replace

from engine import STOP, Event, GameState, Move, Phase, Roll, apply, can_stop, outcome, pairings, stop_claims

from ..debounce import Press
from .messages import Append, DrawDice, Effect, FinishGame, PopLast
from .model import (
    App,
    Button,
    GameScreen,
    PickScreen,
    UndoneScreen,
    handover_pending,
    hint_possible,
    undo_blocker,
    with_states,
)
from .navigate import Result, flash, open_hint, open_menu, open_setup, to_game
from .pages import paginate


def play(app: App, event: Event) -> Result:
    """Apply a game event; the store gets it first (Append), then the screen."""
    state = apply(app.game, event)
    app = with_states(app, app.states + (state,), app.events + (event,), screen=GameScreen())
    effects: tuple[Effect, ...] = (Append(event),)
    ended = outcome(state)  # a winner, or nobody can win any more (the box ends that game)
    if ended is not None:
        effects += (FinishGame(ended.winner),)
    return app, effects


def on_dice(app: App, dice) -> Result:
    g = app.game
    if g is None or g.phase not in (Phase.ROLL, Phase.DECIDE):
        return app, ()
    return play(app, Roll(tuple(dice)))


def game_press(app: App, p: Press) -> Result:
    if p.long and p.button == Button.MENU:
        return undo(app)
    pending = handover_pending(app)
    if p.long and p.button == Button.ROLL and not pending and hint_possible(app):
        return open_hint(app)
    if p.button == Button.MENU:
        return open_menu(app)
    if pending:
        return pages_press(app, p, app.screen.page, handover_lines(app),
                           lambda a: replace(a, acked=len(a.events), screen=GameScreen()))
    if app.ended:
        if p.button == Button.ROLL:
            return open_setup(app, fresh=False)
        return flash(app, "new_game")
    if app.seat_bot() is not None:
        if p.button != Button.ROLL:
            return flash(app, "box_plays")
        return bot_go(app)
    return _person_press(app, p)


def _person_press(app: App, p: Press) -> Result:
    g = app.game
    if g.phase is Phase.ROLL:
        return (app, (DrawDice(),)) if p.button == Button.ROLL else flash(app, "roll_first")
    if g.phase is Phase.MOVE:
        if p.button in (Button.A, Button.B, Button.C):
            return _choose(app, p.button)
        return flash(app, "choose")
    # Phase.DECIDE
    if p.button == Button.ROLL:
        return app, (DrawDice(),)
    if p.button == Button.STOP:
        return play(app, STOP) if can_stop(g) else flash(app, "risky_stop")
    return flash(app, "roll_or_stop")


def _choose(app: App, label: str) -> Result:
    pairing = pairings(app.game)["ABC".index(label)]
    if not pairing.moves:
        return flash(app, app.words.cannot_move(label))
    if pairing.needs_pick:
        return replace(app, screen=PickScreen(label)), ()
    return play(app, pairing.moves[0])


def pick_press(app: App, p: Press) -> Result:
    if p.button in (Button.A, Button.B):
        # A takes the sum shown first on the dice screen, B the second (dice order, as displayed).
        pairing = pairings(app.game)["ABC".index(app.screen.label)]
        column = pairing.sums["AB".index(p.button)]
        return play(app, next(m for m in pairing.moves if m.sums == (column,)))
    if p.button in (Button.MENU, Button.STOP):
        return to_game(app)
    return flash(app, "which_column")


def bot_go(app: App) -> Result:
    """A person confirmed the last step on the board: the box plays the next one it planned."""
    g = app.game
    action = app.plan
    if isinstance(action, Move):
        return play(app, action)
    if action == "stop" and can_stop(g):
        return play(app, STOP)
    return app, (DrawDice(),)


# -- after a stop or a bust ----------------------------------------------------


def handover_lines(app: App) -> tuple[str | None, tuple[str, ...]]:
    """(big line, lines) of the instructions after the last stop or bust."""
    prev = app.states[-2]
    last = app.events[-1]
    if isinstance(last, Roll):
        return app.words.bust_big(last.dice), app.words.bust_lines(bool(prev.runner_steps()))
    return None, stop_lines(app, prev)


def stop_lines(app: App, before: GameState) -> tuple[str, ...]:
    who = before.current
    return app.words.stop_lines(app.name(who), before.runner_steps(), _claims(app, before))


def _claims(app: App, before: GameState) -> list[tuple[int, list[str]]]:
    """Per column the stop claims, the names of the other players whose markers stand on it."""
    who = before.current
    return [(c, [app.name(i) for i, m in enumerate(before.markers) if i != who and m[c]])
            for c in stop_claims(before)]


def pages_press(app: App, p: Press, page: int, content, done) -> Result:
    """A/B page through instructions; ROLL (or STOP) turns the page, and on the last one is done."""
    pages = paginate(*content)
    if p.button in (Button.A, Button.B):
        step = -1 if p.button == Button.A else 1
        return replace(app, screen=replace(app.screen, page=max(0, min(len(pages) - 1, page + step)))), ()
    if p.button in (Button.ROLL, Button.STOP):
        if page < len(pages) - 1:
            return replace(app, screen=replace(app.screen, page=page + 1)), ()
        return done(app), ()
    return app, ()


# -- undo ----------------------------------------------------------------------


def undo(app: App) -> Result:
    why = undo_blocker(app)
    if why is not None:
        return flash(replace(app, screen=GameScreen()), why)
    last, before = app.events[-1], app.states[-2]
    screen = UndoneScreen(app.words.undone_title(last), _put_back(app, last, before))
    app = with_states(app, app.states[:-1], app.events[:-1], screen=screen, acked=-1)
    return app, (PopLast(),)


def _put_back(app: App, event: Event, before: GameState) -> tuple[str, ...]:
    """What to do on the board to take back ``event`` (played from ``before``)."""
    if isinstance(event, Move):
        return app.words.undo_move_lines({c: before.runners[c] for c in dict.fromkeys(event.sums)})
    who = before.current
    runners = before.runner_steps()
    markers = {c: before.markers[who][c] for c in runners}
    refill = [(c, [f"{app.name(i)} {m[c]}" for i, m in enumerate(before.markers) if i != who and m[c]])
              for c in stop_claims(before)]
    return app.words.undo_stop_lines(app.name(who), runners, markers, [(c, b) for c, b in refill if b])


def undone_press(app: App, p: Press) -> Result:
    if p.button == Button.MENU:
        return undo(app) if p.long else to_game(app)
    return pages_press(app, p, app.screen.page, (None, app.screen.lines), lambda a: replace(a, screen=GameScreen()))
