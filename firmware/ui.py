"""The box's UI state machine: the functional core.

``step(app, input) -> (app, effects)`` is pure. It decides which screen is up,
what each button means on it, and which events the game gets; the daemon
(the imperative shell) executes the effects it returns, in order:

- :class:`DrawDice`: draw four dice from the OS entropy source and feed them
  back as :class:`DiceRolled`;
- :class:`Append`: commit the event to the store *before* the next frame;
- :class:`PopLast`: undo, removing the last choice from the store;
- :class:`StartGame`, :class:`FinishGame`: open and close the stored game;
- :class:`LoadStats`: read wins per colour, fed back as :class:`StatsLoaded`.

``view(app)`` gives the screen as plain data (:mod:`firmware.views`).

Buttons (all screens): MENU opens the menu / goes back; on lists A and B move,
ROLL chooses. In a game: ROLL rolls, STOP stops, A/B/C choose a pairing; hold
MENU to undo the last choice or stop, hold ROLL for a hint (the board view and
the rest are in the menu). A button held long that has no long meaning counts
as its tap: a slow STOP still stops. After a stop or a bust the box lists what
to do on the board, and ROLL confirms it before the next turn, so an eager
double press cannot roll the next player's dice.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine import (
    HEIGHTS,
    STOP,
    Event,
    GameState,
    Move,
    Phase,
    Roll,
    Rules,
    Stop,
    apply,
    bust_probability,
    can_stop,
    new_game,
    nobody_can_win,
    pairings,
)

from . import bots
from .input import Press
from .practice import box_average
from .views import (
    BoardView,
    InstructionsView,
    Column,
    DiceView,
    HintView,
    MenuView,
    MessageView,
    MoveView,
    OffView,
    Option,
    PickView,
    SetupView,
    StatsView,
    Step,
    TurnView,
    View,
    WinView,
)

BUTTONS = ("ROLL", "STOP", "A", "B", "C", "MENU")

# --------------------------------------------------------------------------
# State


@dataclass(frozen=True)
class Seat:
    """A place at the table: its colour, and whether the box plays it."""

    colour: str
    bot: str | None = None  # None for a person, else the bot kind ("strong", "rule28")

    def to_json(self) -> dict:
        return {"colour": self.colour, "bot": self.bot}


@dataclass(frozen=True)
class Settings:
    """What the config file decides about the UI."""

    colours: tuple[str, ...] = ("Red", "Blue", "Green", "Yellow")
    players: int = 2
    rules: Rules = Rules()
    bot: str = "strong"  # the kind a seat gets when set to "box"


@dataclass(frozen=True)
class Setup:
    """The new-game screen's choices."""

    seats: tuple[Seat, ...]
    rules: Rules
    cursor: int = 0


@dataclass(frozen=True)
class App:
    """Everything the UI knows. Frozen: ``step`` returns a new one."""

    settings: Settings
    setup: Setup
    screen: str = "setup"  # setup, game, pick, menu, board, hint, stats, confirm, message, off
    seats: tuple[Seat, ...] = ()
    states: tuple[GameState, ...] = ()  # states[0] is the new game, states[i] follows events[i-1]
    events: tuple[Event, ...] = ()
    pick: str | None = None  # the pairing waiting for a pick
    cursor: int = 0  # menu cursor
    focus: int | None = None  # board detail column
    back: str = "game"  # where message, board, hint and stats return to
    message: tuple[str, tuple[str, ...]] | None = None
    stats: tuple[tuple[tuple[str, int], ...], int] | None = None
    alert: str | None = None  # stays until a save works again
    flash: str | None = None  # shown until the next input
    off_reason: str = "Game saved"
    acked: int = -1  # the event count whose stop/bust instructions were acknowledged
    page: int = 0  # page of the instructions on screen
    undone: tuple[str, tuple[str, ...]] | None = None  # (title, lines) of what an undo puts back

    @property
    def game(self) -> GameState | None:
        return self.states[-1] if self.states else None

    @property
    def in_game(self) -> bool:
        """A game is loaded and still being played (not won, and somebody can still win)."""
        g = self.game
        return g is not None and g.phase is not Phase.OVER and not _is_blocked(g)


def boot(settings: Settings) -> App:
    """The app at power-on with no game to resume: the new-game screen."""
    return App(settings=settings, setup=_default_setup(settings))


def resume(settings: Settings, seats, rules: Rules, events) -> App:
    """The app for a stored game: replayed, on the screen the players last saw."""
    seats = tuple(seats)
    state = new_game([s.colour for s in seats], rules)
    states = [state]
    for e in events:
        state = apply(state, e)
        states.append(state)
    return App(
        settings=settings,
        setup=Setup(seats, rules),
        screen="game",
        seats=seats,
        states=tuple(states),
        events=tuple(events),
    )


def notify(app: App, title: str, lines) -> App:
    """Show a notice (e.g. the store moved a damaged file aside); ROLL returns."""
    back = app.screen if app.screen not in ("message", "off") else app.back
    return replace(app, screen="message", message=(title, tuple(lines)), back=back)


def _default_setup(settings: Settings, seats: tuple[Seat, ...] = ()) -> Setup:
    if not seats:
        n = max(1, min(settings.players, 4, len(settings.colours)))
        seats = tuple(Seat(c) for c in settings.colours[:n])
    return Setup(seats, settings.rules)


# --------------------------------------------------------------------------
# Inputs and effects


@dataclass(frozen=True)
class DiceRolled:
    dice: tuple[int, int, int, int]


@dataclass(frozen=True)
class Saved:
    """The store committed everything asked of it."""


@dataclass(frozen=True)
class SaveFailed:
    message: str


@dataclass(frozen=True)
class StatsLoaded:
    rows: tuple[tuple[str, int], ...]
    games: int


@dataclass(frozen=True)
class Shutdown:
    reason: str = "Game saved"


Input = Press | DiceRolled | Saved | SaveFailed | StatsLoaded | Shutdown


@dataclass(frozen=True)
class DrawDice:
    pass


@dataclass(frozen=True)
class Append:
    event: Event


@dataclass(frozen=True)
class PopLast:
    pass


@dataclass(frozen=True)
class StartGame:
    players: tuple[str, ...]
    rules: Rules
    meta: dict = field(hash=False, compare=True)


@dataclass(frozen=True)
class FinishGame:
    winner: int | None


@dataclass(frozen=True)
class LoadStats:
    pass


Effect = DrawDice | Append | PopLast | StartGame | FinishGame | LoadStats

Result = tuple[App, tuple[Effect, ...]]

# --------------------------------------------------------------------------
# step


def step(app: App, inp) -> Result:
    """The app after one input, and the effects the daemon must carry out."""
    if app.screen == "off":
        return app, ()
    if app.flash is not None:
        app = replace(app, flash=None)
    if isinstance(inp, Press):
        if inp.button not in BUTTONS:
            return app, ()
        handler = _SCREENS.get(app.screen)
        return handler(app, inp) if handler else (app, ())
    if isinstance(inp, DiceRolled):
        return _on_dice(app, inp.dice)
    if isinstance(inp, SaveFailed):
        return replace(app, alert=f"NOT SAVED: {inp.message}"), ()
    if isinstance(inp, Saved):
        return (replace(app, alert=None) if app.alert else app), ()
    if isinstance(inp, StatsLoaded):
        return replace(app, stats=(tuple(inp.rows), inp.games)), ()
    if isinstance(inp, Shutdown):
        return replace(app, screen="off", off_reason=inp.reason), ()
    return app, ()


def _flash(app: App, text: str) -> Result:
    return replace(app, flash=text), ()


def _play(app: App, event: Event) -> Result:
    """Apply a game event; the store gets it first (Append), then the screen."""
    state = apply(app.game, event)
    app = replace(app, states=app.states + (state,), events=app.events + (event,), screen="game", pick=None)
    effects: tuple[Effect, ...] = (Append(event),)
    if state.phase is Phase.OVER:
        effects += (FinishGame(state.winner),)
    elif _is_blocked(state):  # nobody can win any more: the game ends without a winner
        effects += (FinishGame(None),)
    return app, effects


def _on_dice(app: App, dice) -> Result:
    g = app.game
    if g is None or g.phase not in (Phase.ROLL, Phase.DECIDE):
        return app, ()
    return _play(app, Roll(tuple(dice)))


def _seat_bot(app: App) -> str | None:
    g = app.game
    if g is None or g.phase is Phase.OVER:
        return None
    return app.seats[g.current].bot


# -- game screen ---------------------------------------------------------------


def _game_press(app: App, p: Press) -> Result:
    g = app.game
    if p.long and p.button == "MENU":
        return _undo(app)
    if p.long and p.button == "ROLL" and not _handover_pending(app) and _hint_possible(app):
        return _open_hint(app)
    # Held too long, any other button means what its tap means: a slow STOP still stops.
    if p.button == "MENU":
        return _open_menu(app)
    if _handover_pending(app):
        return _pages_press(app, p, _handover_lines(app), lambda a: replace(a, acked=len(a.events), page=0))
    if g.phase is Phase.OVER or _is_blocked(g):
        if p.button == "ROLL":
            return _open_setup(app, fresh=False)
        return _flash(app, "ROLL: new game")
    bot = _seat_bot(app)
    if bot is not None:
        if p.button != "ROLL":
            return _flash(app, "ROLL: let the box play")
        return _bot_go(app, bot)
    if g.phase is Phase.ROLL:
        if p.button == "ROLL":
            return app, (DrawDice(),)
        return _flash(app, "Press ROLL to roll")
    if g.phase is Phase.MOVE:
        if p.button in ("A", "B", "C"):
            return _choose(app, p.button)
        return _flash(app, "Choose A, B or C")
    # Phase.DECIDE
    if p.button == "ROLL":
        return app, (DrawDice(),)
    if p.button == "STOP":
        if can_stop(g):
            return _play(app, STOP)
        return _flash(app, "Risky: can't stop")
    return _flash(app, "ROLL or STOP")


def _choose(app: App, label: str) -> Result:
    pairing = pairings(app.game)["ABC".index(label)]
    if not pairing.moves:
        return _flash(app, f"{label} cannot move")
    if pairing.needs_pick:
        return replace(app, screen="pick", pick=label), ()
    return _play(app, pairing.moves[0])


def _pick_press(app: App, p: Press) -> Result:
    if p.button in ("A", "B"):
        # A takes the sum shown first on the dice screen, B the second (dice order, as displayed).
        pairing = pairings(app.game)["ABC".index(app.pick)]
        column = pairing.sums["AB".index(p.button)]
        return _play(app, next(m for m in pairing.moves if m.sums == (column,)))
    if p.button in ("MENU", "STOP"):
        return replace(app, screen="game", pick=None), ()
    return _flash(app, "A or B: which column")


def _bot_go(app: App, kind: str) -> Result:
    """A person confirmed the last step on the board: the box plays its next one."""
    g = app.game
    if g.phase is Phase.ROLL:
        return app, (DrawDice(),)
    action = bots.decide(kind, g)
    if isinstance(action, Move):
        return _play(app, action)
    if action == "stop" and can_stop(g):
        return _play(app, STOP)
    return app, (DrawDice(),)


def _undo_target(app: App) -> str | None:
    """Why undo is impossible now, or None when it is possible."""
    g = app.game
    if g is None or not app.events:
        return "Nothing to undo"
    if g.phase is Phase.OVER or _is_blocked(g):
        return "Game is over"
    last = app.events[-1]
    if isinstance(last, Roll):
        return "Dice stay rolled"
    actor = app.states[-2].current
    if app.seats[actor].bot is not None:
        return "Box moves stay"
    return None


def _undo(app: App) -> Result:
    why = _undo_target(app)
    if why is not None:
        return _flash(replace(app, screen="game"), why)
    last, before, after = app.events[-1], app.states[-2], app.states[-1]
    undone = (f"Undone: {_event_text(last)}", _put_back(app, last, before, after))
    app = replace(app, states=app.states[:-1], events=app.events[:-1], screen="undone", pick=None,
                  undone=undone, page=0, acked=-1)
    return app, (PopLast(),)


def _event_text(e: Event) -> str:
    if isinstance(e, Move):
        return "move " + "+".join(map(str, e.sums))
    if isinstance(e, Stop):
        return "stop"
    return "roll"


def _put_back(app: App, event: Event, before: GameState, after: GameState) -> tuple[str, ...]:
    """What to do on the board to take back ``event`` (which led from ``before`` to ``after``)."""
    if isinstance(event, Move):
        lines = []
        for c in dict.fromkeys(event.sums):
            if before.runners[c]:
                lines.append(f"{c}: runner back to {before.runners[c]}.")
            else:
                lines.append(f"Take runner off {c}.")
        return tuple(lines) + ("Same dice: pick again",)
    # a stop: markers back where they were, runners back on, claimed columns refilled
    who = before.current
    name = _name(app, who)
    runners = before.runner_steps()
    lines = ["Runners back on:", "  ".join(f"{c}:{step}" for c, step in runners.items()),
             f"{name} markers back to:", "  ".join(f"{c}:{before.markers[who][c] or 'off'}" for c in runners)]
    for c in runners:
        if after.claimed[c] == who and before.claimed[c] != who:
            back = [f"{_name(app, i)} {m[c]}" for i, m in enumerate(before.markers) if i != who and m[c]]
            if back:
                lines.append(f"Put back on {c}: " + ", ".join(back) + ".")
    return tuple(lines) + (f"{name} decides again.",)


# -- instructions after a stop or a bust, and after an undo ------------------------

LINE_WIDTH = 21  # characters of the medium font across the screen
LINES_PER_PAGE = 4


def _handover_pending(app: App) -> bool:
    """A stop or a bust just ended a turn and the table has not confirmed the board yet."""
    if not app.events or app.acked == len(app.events) or app.screen != "game":
        return False
    last = app.events[-1]
    return isinstance(last, Stop) or (isinstance(last, Roll) and app.game.phase is not Phase.MOVE)


def _handover_lines(app: App) -> tuple[str | None, tuple[str, ...]]:
    """(big line, lines) of the instructions after the last stop or bust."""
    prev = app.states[-2]
    last = app.events[-1]
    if isinstance(last, Roll):
        big = "BUST! " + " ".join(map(str, last.dice))
        if prev.runner_steps():
            return big, ("Take the runners off.", "Markers stay.")
        return big, ("No move possible.",)
    return None, _stop_note(app)


def _paginate(big: str | None, lines: tuple[str, ...]) -> list[tuple[str, ...]]:
    import textwrap

    wrapped = [part for line in lines for part in (textwrap.wrap(line, LINE_WIDTH) or [""])]
    per_page = LINES_PER_PAGE - 2 if big else LINES_PER_PAGE
    return [tuple(wrapped[i:i + per_page]) for i in range(0, max(1, len(wrapped)), per_page)]


def _pages_press(app: App, p: Press, content, done) -> Result:
    """A/B page through instructions; ROLL (or STOP) turns the page, and on the last one is done."""
    big, lines = content
    pages = _paginate(big, lines)
    if p.button == "A":
        return replace(app, page=max(0, app.page - 1)), ()
    if p.button == "B":
        return replace(app, page=min(len(pages) - 1, app.page + 1)), ()
    if p.button in ("ROLL", "STOP"):
        if app.page < len(pages) - 1:
            return replace(app, page=app.page + 1), ()
        return done(app), ()
    return app, ()


def _undone_press(app: App, p: Press) -> Result:
    if p.button == "MENU" and p.long:
        return _undo(app)
    if p.button == "MENU":
        return replace(app, screen="game", undone=None, page=0), ()
    return _pages_press(app, p, (None, app.undone[1]),
                        lambda a: replace(a, screen="game", undone=None, page=0))


def _instructions_view(app: App, title: str, big: str | None, lines, done_keys: str, alert) -> View:
    pages = _paginate(big, lines)
    page = min(app.page, len(pages) - 1)
    keys = done_keys if page == len(pages) - 1 else "A/B:page ROLL:next"
    g = app.game
    who = app.states[-2].current if app.events and app.screen == "game" else g.current
    return InstructionsView(_name(app, who), who, title, pages[page], big if page == 0 else None,
                            page + 1, len(pages), keys, alert)


# -- menu ----------------------------------------------------------------------


def _menu_items(app: App) -> tuple[str, ...]:
    items = []
    if app.in_game:
        items.append("Back to game")
        if _undo_target(app) is None:
            items.append("Undo")
        if _hint_possible(app):
            items.append("Hint")
    if app.game is not None:
        items.append("Board")
    items += ["New game", "Statistics"]
    return tuple(items)


def _open_menu(app: App) -> Result:
    return replace(app, screen="menu", cursor=0), ()


def _menu_press(app: App, p: Press) -> Result:
    items = _menu_items(app)
    if p.button == "MENU":
        return _leave(app)
    if p.button == "A":
        return replace(app, cursor=(app.cursor - 1) % len(items)), ()
    if p.button == "B":
        return replace(app, cursor=(app.cursor + 1) % len(items)), ()
    if p.button not in ("ROLL", "C"):
        return app, ()
    item = items[min(app.cursor, len(items) - 1)]
    if item == "Back to game":
        return replace(app, screen="game"), ()
    if item == "Undo":
        return _undo(app)
    if item == "Hint":
        return _open_hint(app)
    if item == "Board":
        return _open_board(app)
    if item == "New game":
        if app.in_game and app.events:
            return replace(app, screen="confirm"), ()
        return _open_setup(app, fresh=False)
    return replace(app, screen="stats", back="menu", stats=None), (LoadStats(),)


def _leave(app: App) -> Result:
    """Back from the menu: to the game if there is one, else the new-game screen."""
    if app.game is not None:
        return replace(app, screen="game"), ()
    return replace(app, screen="setup"), ()


def _confirm_press(app: App, p: Press) -> Result:
    if p.button == "ROLL":
        return _open_setup(app, fresh=False)
    if p.button == "MENU":
        return replace(app, screen="menu"), ()
    return app, ()


def _back_press(app: App, p: Press) -> Result:
    """Message, hint and stats screens: ROLL or MENU goes back."""
    if p.button in ("ROLL", "MENU"):
        target = app.back
        if target == "game" and app.game is None:
            target = "setup"
        return replace(app, screen=target, message=None if app.screen == "message" else app.message), ()
    return app, ()


# -- board ---------------------------------------------------------------------

_FOCUS_ORDER = (None,) + tuple(range(2, 13))


def _open_board(app: App) -> Result:
    if app.game is None:
        return app, ()
    return replace(app, screen="board", focus=None), ()


def _board_press(app: App, p: Press) -> Result:
    if p.button in ("A", "B"):
        i = _FOCUS_ORDER.index(app.focus)
        i = (i + (1 if p.button == "B" else -1)) % len(_FOCUS_ORDER)
        return replace(app, focus=_FOCUS_ORDER[i]), ()
    if p.button in ("MENU", "ROLL"):
        return replace(app, screen="game", focus=None), ()
    return app, ()


# -- hint ----------------------------------------------------------------------


def _hint_possible(app: App) -> bool:
    """A person is to act in a game still being played."""
    return app.in_game and _seat_bot(app) is None


def _open_hint(app: App) -> Result:
    if not _hint_possible(app):
        return app, ()
    return replace(app, screen="hint", back="game"), ()


# -- setup ---------------------------------------------------------------------


def _open_setup(app: App, *, fresh: bool) -> Result:
    seats = () if fresh else (app.seats or app.setup.seats)
    setup = _default_setup(app.settings, seats)
    if not fresh:
        setup = replace(setup, rules=app.setup.rules)
    return replace(app, screen="setup", setup=setup), ()


def _setup_rows(setup: Setup) -> list[tuple[str, str, str]]:
    """(key, label, value) rows of the new-game screen."""
    rows = [("players", "Players", str(len(setup.seats)))]
    for i, seat in enumerate(setup.seats):
        rows.append((f"colour{i}", f"P{i + 1} colour", seat.colour))
        rows.append((f"plays{i}", f"P{i + 1} plays", "box" if seat.bot else "person"))
    r = setup.rules
    rows += [
        ("win", "To win", f"{r.columns_to_win} col" + ("s" if r.columns_to_win > 1 else "")),
        ("speedy", "Speedy", "on" if r.speedy else "off"),
        ("risky", "Risky", "on" if r.risky else "off"),
        ("start", "Start game", ""),
    ]
    return rows


def _setup_press(app: App, p: Press) -> Result:
    setup = app.setup
    rows = _setup_rows(setup)
    if p.button == "A":
        return replace(app, setup=replace(setup, cursor=(setup.cursor - 1) % len(rows))), ()
    if p.button == "B":
        return replace(app, setup=replace(setup, cursor=(setup.cursor + 1) % len(rows))), ()
    if p.button == "MENU":
        if app.in_game:
            return replace(app, screen="game"), ()
        return _open_menu(app)
    if p.button == "ROLL" or (p.button == "C" and rows[setup.cursor][0] == "start"):
        return _start_game(app)
    if p.button == "C":
        # A tap steps the value forward; holding C steps it back (4 -> 3 columns to win in one press).
        step = -1 if p.long else 1
        return replace(app, setup=_change(app.settings, setup, rows[setup.cursor][0], step)), ()
    return app, ()


def _change(settings: Settings, setup: Setup, key: str, step: int = 1) -> Setup:
    """The setup with the row ``key`` stepped forward (``step`` 1) or back (-1), wrapping round."""
    seats = list(setup.seats)
    rules = setup.rules
    if key == "players":
        limit = min(4, len(settings.colours))
        n = (len(seats) - 1 + step) % limit + 1
        while len(seats) < n:
            used = {s.colour for s in seats}
            seats.append(Seat(next(c for c in settings.colours if c not in used)))
        seats = seats[:n]
    elif key.startswith("colour"):
        i = int(key[6:])
        used = {s.colour for j, s in enumerate(seats) if j != i}
        colours = settings.colours
        k = colours.index(seats[i].colour) if seats[i].colour in colours else -1
        for n in range(1, len(colours) + 1):
            candidate = colours[(k + n * step) % len(colours)]
            if candidate not in used:
                seats[i] = replace(seats[i], colour=candidate)
                break
    elif key.startswith("plays"):
        i = int(key[5:])
        seats[i] = replace(seats[i], bot=None if seats[i].bot else settings.bot)
    elif key == "win":
        rules = replace(rules, columns_to_win=(rules.columns_to_win - 1 + step) % 11 + 1)
    elif key == "speedy":
        rules = replace(rules, speedy=not rules.speedy)
    elif key == "risky":
        rules = replace(rules, risky=not rules.risky)
    cursor = min(setup.cursor, len(_setup_rows(Setup(tuple(seats), rules))) - 1)
    return Setup(tuple(seats), rules, cursor)


def _start_game(app: App) -> Result:
    setup = app.setup
    seats = setup.seats
    players = tuple(s.colour for s in seats)
    state = new_game(players, setup.rules)
    app = replace(
        app, screen="game", seats=seats, states=(state,), events=(), pick=None, setup=replace(setup, cursor=0),
        acked=-1, page=0, undone=None,
    )
    meta = {"seats": [s.to_json() for s in seats]}
    return app, (StartGame(players, setup.rules, meta),)


_SCREENS = {
    "game": _game_press,
    "undone": _undone_press,
    "pick": _pick_press,
    "menu": _menu_press,
    "confirm": _confirm_press,
    "board": _board_press,
    "hint": _back_press,
    "stats": _back_press,
    "message": _back_press,
    "setup": _setup_press,
}

# --------------------------------------------------------------------------
# view


def view(app: App) -> View:
    """The screen for the current app state."""
    alert = app.flash or app.alert
    screen = app.screen
    if screen == "off":
        return OffView(app.off_reason)
    if screen == "message" and app.message:
        title, lines = app.message
        return MessageView(title, lines, alert=alert)
    if screen == "setup":
        rows = _setup_rows(app.setup)
        keys = "A/B:move C:change ROLL:start"
        return SetupView("New game", tuple((label, value) for _, label, value in rows), app.setup.cursor, keys, alert)
    if screen == "menu":
        items = _menu_items(app)
        return MenuView("Menu", items, min(app.cursor, len(items) - 1), alert=alert)
    if screen == "confirm":
        return MessageView("New game?", ("This game will end", "(it stays in history)."), "ROLL:yes MENU:no", alert)
    if screen == "stats":
        if app.stats is None:
            return StatsView((), 0, alert=alert)
        rows, games = app.stats
        return StatsView(rows, games, alert=alert)
    if screen == "board":
        return _board_view(app, alert)
    if screen == "hint":
        return _hint_view(app, alert)
    if screen == "pick":
        return _pick_view(app, alert)
    if screen == "undone" and app.undone:
        title, lines = app.undone
        return _instructions_view(app, title, None, lines, "ROLL:done", alert)
    return _game_view(app, alert)


def _name(app: App, seat: int) -> str:
    return app.seats[seat].colour


def _game_view(app: App, alert: str | None) -> View:
    g = app.game
    if g is None:
        return MessageView("No game", ("ROLL: new game",), alert=alert)
    seat = g.current
    bot = app.seats[seat].bot is not None if g.phase is not Phase.OVER else False
    if _handover_pending(app):
        prev = app.states[-2]
        big, lines = _handover_lines(app)
        name = _name(app, prev.current)
        title = f"{name} busts" if big else f"{name} stops"
        if g.phase is Phase.OVER:
            done = "ROLL:see the winner"
        else:
            done = f"ROLL:{_name(app, g.current)}'s turn"
        return _instructions_view(app, title, big, lines, done, alert)
    if g.phase is Phase.OVER or _is_blocked(g):
        note = ()
        if g.winner is None:
            k = g.rules.columns_to_win
            note = (f"Nobody can claim {k} columns any more.",) + note
        if len(g.players) == 1:
            note = _practice_result(g) + note
        return WinView(
            None if g.winner is None else _name(app, g.winner),
            g.winner,
            g.claims_of(g.winner) if g.winner is not None else (),
            _rounds(g),
            note,
            alert=alert,
        )
    if g.phase is Phase.ROLL:
        keys = "ROLL:box plays" if bot else "ROLL:roll MENU:menu"
        return TurnView(_name(app, seat), seat, _rounds(g), g.claims_of(seat), _turn_note(app), bot, keys, alert)
    if g.phase is Phase.MOVE:
        options = tuple(_option(p, g.dice) for p in pairings(g))
        chosen = None
        if bot:
            chosen = _chosen_label(g, bots.decide(app.seats[seat].bot, g))
        keys = "ROLL:ok" if bot else "A B C:choose"
        return DiceView(_name(app, seat), seat, g.dice, options, bot, chosen, keys, alert)
    # DECIDE
    prev = app.states[-2]
    last = app.events[-1]
    steps = tuple(
        Step(c, g.runners[c], prev.runners[c] == 0, g.runners[c] == HEIGHTS[c], _skipped(prev, g, c))
        for c in dict.fromkeys(last.sums)
    ) if isinstance(last, Move) else ()
    stoppable = can_stop(g)
    bot_next = None
    if bot:
        action = bots.decide(app.seats[seat].bot, g)
        bot_next = "stop" if action == "stop" and stoppable else "roll"
    keys = "ROLL:ok" if bot else ("ROLL:roll STOP:stop" if stoppable else "ROLL:roll")
    return MoveView(
        _name(app, seat), seat, steps, bust_probability(g), stoppable, g.free_runners,
        None if stoppable else _risky_note(app, g),
        bot, bot_next, keys, alert,
    )


def _skipped(prev: GameState, now: GameState, column: int) -> tuple[int, ...]:
    """Speedy variant: the squares a runner jumped because other players' markers stand there."""
    if not now.rules.speedy:
        return ()
    start = prev.runners[column] or prev.markers[prev.current][column]
    others = {m[column] for i, m in enumerate(now.markers) if i != now.current}
    return tuple(sq for sq in range(start + 1, now.runners[column]) if sq in others)


def _risky_note(app: App, g: GameState) -> str:
    """Why the risky variant forbids a stop now: the first runner sharing a square, and with whom."""
    for c, step in g.runner_steps().items():
        owners = [_name(app, i) for i, m in enumerate(g.markers) if i != g.current and m[c] == step]
        if owners:
            return f"Risky: {c} shares with {owners[0]}"
    return "Risky: roll again"


def _is_blocked(g: GameState) -> bool:
    """A long game where nobody can reach the columns to win: the box ends it (no draw in the rules)."""
    return g.phase is Phase.ROLL and nobody_can_win(g)


def _rounds(g: GameState) -> int:
    """The round number: each player's own turn count (turn 1 for everyone first)."""
    return (g.turn - 1) // len(g.players) + 1


def _option(p, dice) -> Option:
    a, b = p.sums
    moves = [m.sums for m in p.moves]
    if not moves:
        effect, text = "none", "--"
    elif len(moves) == 2:
        effect, text = "pick", f"{a} or {b}"
    elif moves[0] == (a, a):
        effect, text = "both", f"{a} x2"
    elif len(moves[0]) == 2:
        effect, text = "both", f"{a}+{b}"
    elif moves[0] == (a,):
        effect, text = "first", f"{a}"
    else:
        effect, text = "second", f"{b}"
    return Option(p.label, _pairs(p.label, dice), p.sums, effect, text)


def _pairs(label: str, dice) -> tuple[tuple[int, int], tuple[int, int]]:
    """The dice as the pairing groups them: A d1+d2/d3+d4, B d1+d3/d2+d4, C d1+d4/d2+d3."""
    d1, d2, d3, d4 = dice
    if label == "A":
        return (d1, d2), (d3, d4)
    if label == "B":
        return (d1, d3), (d2, d4)
    return (d1, d4), (d2, d3)


def _chosen_label(g: GameState, action) -> str | None:
    if not isinstance(action, Move):
        return None
    for p in pairings(g):
        if action in p.moves:
            if p.needs_pick:
                return f"{p.label}:{action.sums[0]}"
            return p.label
    return None


def _pick_view(app: App, alert) -> View:
    g = app.game
    pairing = pairings(g)["ABC".index(app.pick)]
    return PickView(_name(app, g.current), g.current, g.dice, app.pick, pairing.sums, alert=alert)


def _turn_note(app: App) -> tuple[str, ...]:
    """What to do on the board after the previous turn (shown as the next one starts)."""
    if not app.events:
        g = app.game
        if len(app.seats) > 1:
            return (f"{_name(app, g.current)} starts.",) + _rules_note(g.rules)
        average = box_average(g.rules.columns_to_win)
        k = g.rules.columns_to_win
        lines = (f"Claim {k} column{'s' if k > 1 else ''} in as", "few turns as you can.")
        if average is not None:
            lines += (f"Box average: {average:.1f} turns.",)
        return lines
    last = app.events[-1]
    prev = app.states[-2]
    who = _name(app, prev.current)
    if isinstance(last, Stop):
        return (f"{who} stopped.",)
    if isinstance(last, Roll):
        return (f"{who} bust.",)
    return ()


def _rules_note(rules: Rules) -> tuple[str, ...]:
    """The variants in force, said once as the game starts (nothing for the standard game)."""
    parts = []
    if rules.columns_to_win != 3:
        parts.append(f"{rules.columns_to_win} to win")
    parts += [name for name, on in (("speedy", rules.speedy), ("risky", rules.risky)) if on]
    return (f"Rules: {', '.join(parts)}.",) if parts else ()


def _practice_result(g: GameState) -> tuple[str, ...]:
    """Solitaire practice: the player's turns against the box's own average."""
    average = box_average(g.rules.columns_to_win)
    if average is None:
        return ()
    verdict = "You beat the box!" if g.turn < average else "The box is quicker."
    return (f"{g.turn} turn{'s' if g.turn > 1 else ''}, box avg {average:.1f}", verdict)


def _stop_note(app: App) -> tuple[str, ...]:
    prev, now = app.states[-2], app.states[-1]
    who = prev.current
    name = _name(app, who)
    runners = prev.runner_steps()
    lines = [f"{name} markers to:", "  ".join(f"{c}:{s}" for c, s in runners.items())]
    for c in runners:
        if now.claimed[c] == who and prev.claimed[c] != who:
            off = [_name(app, i) for i, m in enumerate(prev.markers) if i != who and m[c]]
            lines.append(f"{name} claims {c}!")
            if off:
                lines.append(f"Take off {c}: " + ", ".join(off) + ".")
    return tuple(lines)


def _board_view(app: App, alert) -> View:
    g = app.game
    cols = tuple(
        Column(
            c,
            HEIGHTS[c],
            tuple(m[c] for m in g.markers),
            g.runners[c],
            g.claimed[c] if g.claimed[c] >= 0 else None,
        )
        for c in range(2, 13)
    )
    return BoardView(
        tuple(s.colour for s in app.seats), cols, None if g.phase is Phase.OVER else g.current, app.focus,
        alert=alert,
    )


def _hint_view(app: App, alert) -> View:
    g = app.game
    advice = bots.advise(g)
    reason = tuple(line for line in advice.reason.split("\n") if line)
    return HintView(_name(app, g.current), g.current, _action_text(g, advice.action), reason, advice.bust,
                    alert=alert)


def _action_text(g: GameState, action) -> str:
    """An action in the words of the screens: a move as its pairing shows it on the dice screen."""
    if isinstance(action, Move):
        for p in pairings(g):
            if action in p.moves:
                text = str(action.sums[0]) if p.needs_pick else _option(p, g.dice).text
                return f"{p.label}: {text}"
        return "+".join(map(str, action.sums))
    if action == "stop":
        return "Stop"
    return "Roll" if g.phase is Phase.ROLL else "Roll again"
