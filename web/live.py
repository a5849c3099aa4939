"""The live game as plain data: what the page draws, read from the store only.

:func:`snapshot` reads the open game (else the finished one the table is
still looking at), rebuilds the box's app from it exactly as the box does
after a restart (:func:`firmware.ui.resume` and the kept UI facts), and takes
the box's own view of it (:func:`firmware.ui.view`), so the page says the
same instruction, in the same words, as the screen. Everything else (the
board, the dice and their pairings, the bust chance) comes from the engine's
state after the stored events.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

from engine import CantStopError, GameState, Move, Phase, Roll, Stop, apply, bust_probability, dice_pairs, pairings, state_view

from firmware import i18n, ui, views as v, words
from firmware.table import person_stats as people, restart, roster
from firmware.config import GameConfig
from firmware.table.seat import called, seats_from_meta, symbols
from firmware.ui.model import PickScreen, handover_pending

from . import camera as eye, turns


#: A box whose store has not changed for this long while its lock cannot be checked is shown as quiet.
QUIET_AFTER = 20 * 60


@dataclass(frozen=True)
class Option:
    label: str
    pairs: tuple
    sums: tuple
    effect: str
    text: str
    chosen: bool = False


@dataclass(frozen=True)
class Live:
    """The page's data for one moment of the store."""

    status: str  # "none" (no game), "play", "over" (won or ended), "damaged"
    box: str  # "on", "off", "quiet" (no write for a long time, lock unknown), "unknown"
    lang: str
    game_id: int | None = None
    names: tuple[str, ...] = ()
    colours: tuple[str, ...] = ()
    marks: tuple[int, ...] = ()  # each seat's symbol (its colour's, as the box draws it), in turn order
    bots: tuple[bool, ...] = ()
    state: GameState | None = None
    view: dict | None = None  # engine.state_view of the state (the contract's)
    dice: tuple[int, ...] | None = None  # the dice out now, else the last roll of this turn
    options: tuple[Option, ...] = ()
    moved: tuple[int, ...] = ()  # columns the last move or stop changed
    last: str | None = None  # the last event in words
    bust: float | None = None
    screen: tuple[str, tuple[str, ...], str] | None = None  # the box's (title, lines, keys)
    recap: tuple[dict, ...] = ()
    log: tuple[str, ...] = ()  # what just happened: the turn under way and the ones before, newest first
    bust_moment: object = None  # turns.Bust: the last roll bust (its dice and lost runners shown until the next)
    turn_seat: int | None = None  # whose chip is marked: the box's screen's player (the one who bust, until confirmed)
    pick: tuple[int, int] | None = None  # the box asks which of these two sums the chosen pairing moves
    stopped: object = None  # turns.Stopped: a stop whose instructions the box shows until ROLL
    problem: str | None = None
    last_write: float | None = None
    events: int = 0
    round: int = 0
    camera: object = None  # camera.Seen: what the camera over the board last saw (None: the box has no camera)


def snapshot(reader, settings: GameConfig, config_lang: str, lang: str | None = None, *, now=time.time,
             camera: bool = False) -> Live:
    """The live game in ``lang`` (None: the box's language: the table's choice, else the config's); ``camera``:
    the config names a camera (its part is shown before it has seen anything)."""
    box = _box(reader, now)
    with reader.read() as store:
        if store is None:
            lang = lang or config_lang
            return Live("none", box, lang, problem=reader.problem, last_write=reader.last_write(),
                        camera=eye.seen(None, reader.state_dir, lang, camera=camera))
        names = roster.load(store, settings.roster)
        kept = restart.kept(store)
        stored = store.open_game() or restart.last_result(store, kept)
        if stored is None:
            latest = store.games(limit=1)
            if latest and latest[0].status == "finished":
                stored = store.game(latest[0].id)
        box_lang = kept.get("language") if isinstance(kept, dict) and kept.get("language") in i18n.LANGUAGES \
            else config_lang
        lang = lang or box_lang
        if stored is None:
            return Live("none", box, lang, last_write=reader.last_write(),
                        camera=eye.seen(store, reader.state_dir, lang, camera=camera))
        live = _live(stored, settings, names, kept, lang, box, reader.last_write())
        return dataclasses.replace(live, camera=eye.seen(store, reader.state_dir, lang, live.state, live.colours,
                                                         camera=camera))


def box_language(reader, config_lang: str) -> str:
    """The language on the box's screen: the table's choice (kept in the store), else the config's."""
    with reader.read() as store:
        kept = restart.kept(store) if store is not None else None
    lang = kept.get("language") if isinstance(kept, dict) else None
    return lang if lang in i18n.LANGUAGES else config_lang


def _box(reader, now) -> str:
    running = reader.box_running()
    if running is True:
        return "on"
    if running is False:
        return "off"
    last = reader.last_write()
    return "quiet" if last is not None and now() - last > QUIET_AFTER else "unknown"


def _live(stored, settings, people, kept, lang, box, last_write) -> Live:
    seats = seats_from_meta(stored.meta, stored.players)
    w = words.language(lang)
    seats = tuple(dataclasses.replace(s, name=called(s, people.name_of)) for s in seats)  # a rename follows, as on the box
    names = tuple(s.name or w.colour(s.colour) for s in seats)
    roster_names = people.names
    common = dict(box=box, lang=lang, game_id=stored.id, names=names, colours=tuple(stored.players),
                  marks=symbols(tuple(settings.colours), tuple(stored.players)),
                  bots=tuple(s.bot is not None for s in seats), last_write=last_write, events=len(stored.events))
    if stored.status == "damaged":
        try:
            state = stored.replay()
        except CantStopError:  # its players or rules do not read (the problem says so): nothing to replay
            return Live("damaged", problem=stored.problem, **common)
        return Live("damaged", state=state, view=state_view(state), problem=stored.problem, round=state.round,
                    turn_seat=None if state.is_over else state.current, **common)
    app = ui.resume(settings, seats, stored.rules, stored.events, roster_names, lang)
    same = isinstance(kept, dict) and kept.get("game") == stored.id
    app = ui.recall(app, kept, game=same)
    app = dataclasses.replace(app, language=lang)
    g = app.game
    status = "over" if g.is_over else "play"
    moment = turns.bust_of(app.states, app.events)
    pending = handover_pending(app)
    stopped = None if g.is_over else turns.stopped_of(app.states, app.events, pending)
    seat = None if g.is_over else (moment.seat if moment is not None and pending else
                                   stopped.seat if stopped is not None else g.current)
    return Live(status, state=g, view=state_view(g), dice=_dice(app), options=_options(app),
                log=turns.log(lang, w, names, app.states, app.events), bust_moment=moment, turn_seat=seat,
                pick=_pick(app), stopped=stopped,
                moved=_moved(app), last=event_text(w, names, app.states[-2], app.events[-1]) if app.events else None,
                bust=bust_probability(g) if g.phase is Phase.DECIDE else None,
                screen=screen_text(app, w), recap=_recap(stored, seats, w) if g.is_over else (),
                round=g.round, **common)


def _pick(app) -> tuple[int, int] | None:
    """The two sums the box's screen asks about (its pick screen, kept in the store's facts), else None."""
    if not isinstance(app.screen, PickScreen) or app.game.phase is not Phase.MOVE:
        return None
    found = [p.sums for p in pairings(app.game) if p.label == app.screen.label]
    return tuple(found[0]) if found else None


def _dice(app) -> tuple[int, ...] | None:
    return step_dice(app.states, app.events)


def step_dice(states, events) -> tuple[int, ...] | None:
    """The dice out after ``events``, else the last roll of this turn (None after a stop or a bust)."""
    g = states[-1]
    if g.phase is Phase.MOVE:
        return g.dice
    if g.phase is Phase.DECIDE:
        for e in reversed(events):
            if isinstance(e, Roll):
                return e.dice
    return None


def _options(app) -> tuple[Option, ...]:
    """The three pairings of the dice out (or of the roll the last move came from), the chosen one marked."""
    return step_options(app.states, app.events)


def step_options(states, events) -> tuple[Option, ...]:
    """The pairings after ``events`` (``states``: the one before each, and the last): the dice out, or the roll
    the last move came from with that move marked; none after a stop or a bust."""
    g = states[-1]
    if g.phase is Phase.MOVE:
        state, chosen = g, None
    elif g.phase is Phase.DECIDE and events and isinstance(events[-1], Move):
        state, chosen = states[-2], events[-1]
    else:
        return ()
    pairs = dice_pairs(state.dice)
    out = []
    marked = False  # two pairings with the same sums (3+8 and 8+3) both allow the move: the first is marked
    for p in pairings(state):
        effect, text = words.option_text(p)
        mark = not marked and chosen is not None and chosen in p.moves
        marked |= mark
        out.append(Option(p.label, pairs["ABC".index(p.label)], p.sums, effect, text, mark))
    return tuple(out)


def _moved(app) -> tuple[int, ...]:
    if not app.events:
        return ()
    last, before = app.events[-1], app.states[-2]
    if isinstance(last, Move):
        return tuple(dict.fromkeys(last.sums))
    if isinstance(last, Stop):
        return tuple(c for c in range(2, 13) if before.runners[c])
    return ()


def event_text(w, names, before: GameState, event) -> str:
    """One event in the box's words, for the replay and the live page's last step."""
    who = names[before.current] if before.current < len(names) else w.seat_name(before.current)
    if isinstance(event, Roll):
        if not _legal(before, event):
            return f"{w.handover_title(who, True)}: {w.bust_big(event.dice)}"
        return f"{who}: {' '.join(map(str, event.dice))}"
    if isinstance(event, Move):
        return f"{who}: {'+'.join(map(str, event.sums))}"
    if isinstance(event, Stop):
        return w.handover_title(who, False)
    return str(event)


def _legal(before: GameState, roll: Roll):
    """The moves a roll offers (none: a bust)."""
    try:
        after = apply(before, roll)
    except Exception:
        return ()
    return after.moves if after.phase is Phase.MOVE else ()


def _recap(stored, seats, w) -> tuple[dict, ...]:
    t = people.tally(stored.players, seats, stored.rules, stored.events, stored.winner)
    return tuple(t["seats"])


# -- the box's screen, as text ---------------------------------------------------


def screen_text(app, w) -> tuple[str, tuple[str, ...], str]:
    """(title, lines, keys): what the box's screen says now, every page of it."""
    view = ui.view(app)
    if isinstance(view, v.InstructionsView) and view.pages > 1:
        lines: list[str] = []
        for page in range(view.pages):
            one = ui.view(dataclasses.replace(app, screen=dataclasses.replace(app.screen, page=page)))
            if one.big:
                lines.append(one.big)
            lines.extend(one.lines)
        return view.title, tuple(lines), one.keys
    return view_text(view, w)


def view_text(view, w) -> tuple[str, tuple[str, ...], str]:
    """One view's words (the texts the renderer draws, with the few it adds)."""
    keys = getattr(view, "keys", "")
    if isinstance(view, v.TurnView):
        return w.turn_heading(view.player, view.bot), (w.turn_status(view.turn),) + view.note, keys
    if isinstance(view, v.DiceView):
        lines = tuple(f"{o.label}  {o.pairs[0][0]}+{o.pairs[0][1]} {o.pairs[1][0]}+{o.pairs[1][1]}  {o.text}"
                      for o in view.options)
        return w.who(view.player, view.bot), (w.dice_status(view.bot, view.chosen),) + lines, keys
    if isinstance(view, v.MoveView):
        steps = tuple(f"{s.column}: " + (w.box_runner_step(s.step, s.top) if view.bot
                                          else w.runner_step(s.step, s.new, s.top, s.jumped)) for s in view.steps)
        extra = (view.stop_note,) if view.stop_note else ()
        if view.bot and view.bot_next:
            extra += (" ".join(w.bot_will(view.bot_next)),)
        return w.who(view.player, view.bot), steps + (w.bust_status(view.bust),) + extra, keys
    if isinstance(view, v.InstructionsView):
        return view.title, ((view.big,) if view.big else ()) + view.lines, keys
    if isinstance(view, v.WinView):
        lines = (w.win_claims(view.player, view.claims, view.turns), w.turns_count(view.turns)) + view.note
        return w.win_heading(view.player), lines, keys
    if isinstance(view, v.SetupView):
        return view.title, tuple(f"{label}: {value}" for label, value in view.rows), keys
    if isinstance(view, v.MessageView):
        return view.title, view.lines, keys
    if isinstance(view, v.OffView):
        return " ".join(w.SCREEN["safe"]), (view.reason,), ""
    title = getattr(view, "title", "") or ""
    return title, (), keys
