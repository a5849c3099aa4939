"""What the buttons do during a game: roll, choose, pick, stop, the box's seats, undo.

Held too long, a button means what its tap means (a slow STOP still stops),
except MENU (held: undo) and ROLL (held: a hint). After a stop or a bust the
game screen lists what to do on the board, and one ROLL confirms it and rolls
the next player's dice. For a short while after the turn ended (the guard,
``[game] handover_guard_ms``) a press does nothing, so an eager double press
cannot roll the next player's dice. Instructions longer than a page turn their
pages by themselves up to the last (:data:`PAGE_TURN_S`; A/B by hand), where one
ROLL confirms the board; ROLL on a page before it turns the page, so a take-off
list on a later page is never skipped.

A box seat plays its whole turn by itself: each step stays on the screen for
``[game] box_pace_ms`` (the update asks for a timer, :class:`After`), any
press but MENU skips ahead, and only its stop waits for one confirm. Its bust
is said for a moment, then the game moves on.
"""

from __future__ import annotations

from dataclasses import replace

from engine import STOP, Decision, Event, GameState, Move, Phase, Roll, apply, can_stop, outcome, pairings, stop_claims

from .messages import Press, After, Append, DrawDice, Effect, FinishGame, PopLast
from .model import (
    App,
    Button,
    GameScreen,
    PickScreen,
    RecapScreen,
    UndoneScreen,
    box_bust_shown,
    box_due,
    handover_pending,
    hint_possible,
    undo_blocker,
    with_states,
)
from .navigate import Result, flash, open_hint, open_menu, open_setup, to_game
from .setup import start_game


#: Seconds a page of instructions stays before the next one not yet seen comes by itself (people are moving
#: the pieces meanwhile: by the time they press ROLL, every page has been shown).
PAGE_TURN_S = 4.0


def play(app: App, event: Event) -> Result:
    """Apply a game event; the store gets it first (Append), then the screen."""
    state = apply(app.game, event)
    app = with_states(app, app.states + (state,), app.events + (event,), screen=GameScreen())
    effects: tuple[Effect, ...] = (Append(event),)
    ended = outcome(state)  # a winner, or nobody can win any more (the box ends that game)
    if ended is not None:
        effects += (FinishGame(ended.winner),)
    if handover_pending(app) and not box_bust_shown(app):
        app, guard = guarded(app)
        effects += guard or _page_timer(app)
    return app, effects


def guarded(app: App) -> Result:
    """A turn just ended: presses do not roll the next dice until the guard's timer is due."""
    seconds = app.settings.handover_guard_ms / 1000
    if seconds <= 0:
        return app, ()
    return replace(app, guard=True), (After(seconds),)


def on_timer(app: App) -> Result:
    """The timer asked for is due: the guard ends (and the pages start turning), the box seat takes its next
    step, or the instructions turn to their next page not yet seen."""
    if app.guard:
        app = replace(app, guard=False)
        if box_due(app):
            return box_step(app)
        return app, _page_timer(app)
    if box_due(app):
        return box_step(app)
    return _turn_unseen(app)


def _instruction_pages(app: App) -> int:
    """How many pages the instructions on the screen have (0: no instructions on the screen)."""
    s = app.screen
    if isinstance(s, UndoneScreen):
        return len(app.paginate(None, s.lines))
    if isinstance(s, GameScreen) and handover_pending(app) and not box_bust_shown(app):
        return len(app.paginate(*handover_lines(app)))
    return 0


def _page_timer(app: App) -> tuple[Effect, ...]:
    """The timer for the next page, while a page of the instructions has not been on the screen yet."""
    pages = _instruction_pages(app)
    return (After(PAGE_TURN_S),) if pages and app.screen.seen < pages - 1 else ()


def _turn_unseen(app: App) -> Result:
    """The next page not yet seen, when the page up is the furthest seen (a page paged back to stays)."""
    pages = _instruction_pages(app)
    s = app.screen
    if not pages or s.seen >= pages - 1 or s.page != s.seen:
        return app, ()
    app = replace(app, screen=replace(s, page=s.seen + 1, seen=s.seen + 1))
    return app, _page_timer(app)


def box_step(app: App) -> Result:
    """The box seat's next step now (its pace is up, or a press skipped ahead)."""
    if box_bust_shown(app):
        app = replace(app, acked=len(app.events), screen=GameScreen())
        return (app, ()) if app.seat_bot() is not None else guarded(app)
    return bot_go(app)


def hand_over(app: App) -> Result:
    """The table confirmed the board after a stop or a bust: the next player's dice are rolled.

    A box seat to play next starts by itself (its timer); a finished game shows its result.
    """
    app = replace(app, acked=len(app.events), screen=GameScreen())
    if app.ended or app.seat_bot() is not None:
        return app, ()
    return app, (DrawDice(),)


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
    if box_due(app):
        return box_step(app)  # any press skips ahead
    if app.guard and p.button in (Button.ROLL, Button.STOP):
        return flash(app, "set_board")  # too soon after the turn ended: refused and said, like any refused press
    if pending:
        return pages_press(app, p, app.screen.page, handover_lines(app), hand_over)
    if app.ended:
        if p.button == Button.ROLL:
            return open_setup(app, fresh=False)
        if p.button == Button.C:  # a rematch: the same table, the same rules, in one press
            return start_game(open_setup(app, fresh=False)[0])
        if p.button == Button.B and app.game.phase is Phase.OVER:
            return replace(app, screen=RecapScreen()), ()
        return flash(app, "new_game")
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
    if p.button == Button.MENU:
        return open_menu(app)
    if p.button == Button.STOP:
        return to_game(app)
    return flash(app, "which_column")


def bot_go(app: App) -> Result:
    """A person confirmed the last step on the board: the box plays the next one it planned."""
    g = app.game
    action = app.plan
    if isinstance(action, Move):
        return play(app, action)
    if action is Decision.STOP and can_stop(g):
        return play(app, STOP)
    return app, (DrawDice(),)


# -- after a stop or a bust ----------------------------------------------------


def handover_lines(app: App) -> tuple[str | None, tuple[str, ...]]:
    """(big line, lines) of the instructions after the last stop or bust."""
    prev = app.states[-2]
    last = app.events[-1]
    if isinstance(last, Roll):
        if app.seats[prev.current].bot is not None:
            return app.words.bust_big(last.dice), app.words.box_bust_lines()
        return app.words.bust_big(last.dice), app.words.bust_lines(bool(prev.runner_steps()))
    return None, stop_lines(app, prev)


def stop_lines(app: App, before: GameState) -> tuple[str, ...]:
    """The stop's instructions; a box seat's name who moves its markers (the next person, or someone)."""
    who = before.current
    box = app.seats[who].bot is not None
    after = (who + 1) % len(app.seats)  # whose turn is next (at the game's end too: they sit next to it)
    mover = app.name(after) if box and app.seats[after].bot is None else None
    return app.words.stop_lines(app.name(who), before.runner_steps(), _claims(app, before), box, mover)


def _claims(app: App, before: GameState) -> list[tuple[int, list[str]]]:
    """Per column the stop claims, the names of the other players whose markers stand on it."""
    who = before.current
    return [(c, [app.name(i) for i, m in enumerate(before.markers) if i != who and m[c]])
            for c in stop_claims(before)]


def pages_press(app: App, p: Press, page: int, content, done, *, stop_done: bool = False) -> Result:
    """A/B page through instructions; ROLL (or STOP) turns the page, and on the last one ROLL is done (the pages
    turn by themselves to the last meanwhile: :func:`on_timer`).

    STOP is done on the last page only where ``stop_done`` says so (the undo's note): after a stop
    or a bust, done rolls the next player's dice, and a second STOP must never do that.
    """
    pages = app.paginate(*content)
    last = len(pages) - 1
    seen = max(app.screen.seen, page)
    if p.button in (Button.A, Button.B):
        step = -1 if p.button == Button.A else 1
        page = max(0, min(last, page + step))
        return replace(app, screen=replace(app.screen, page=page, seen=max(seen, page))), ()
    if p.button in (Button.ROLL, Button.STOP):
        if page < last:
            return replace(app, screen=replace(app.screen, page=page + 1, seen=max(seen, page + 1))), ()
        if p.button == Button.STOP and not stop_done:
            return flash(app, "roll_first")
        return done(app)
    return app, ()


# -- undo ----------------------------------------------------------------------


def undo(app: App) -> Result:
    why = undo_blocker(app)
    if why is not None:
        return flash(replace(app, screen=GameScreen()), why)
    last, before = app.events[-1], app.states[-2]
    screen = UndoneScreen(app.words.undone_title(last), _put_back(app, last, before))
    app = with_states(app, app.states[:-1], app.events[:-1], screen=screen, acked=-1)
    return app, (PopLast(),) + _page_timer(app)


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
        return undo(app) if p.long else open_menu(app)
    return pages_press(app, p, app.screen.page, (None, app.screen.lines), lambda a: (replace(a, screen=GameScreen()), ()),
                       stop_done=True)
