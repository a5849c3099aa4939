"""The new-game screen: players, each seat's colour, name and who plays it, who starts, the rules; then start.

A/B move the cursor, C steps the row's value forward (held: back), ROLL starts.
"""

from __future__ import annotations

from dataclasses import replace

from engine import new_game

from .. import i18n, words
from .messages import Press, StartGame
from ..config import GameConfig
from ..table.names import fold
from .model import BOX_PLAYER, App, Button, GameScreen, Seat, Setup, SetupScreen, seat_name, with_states
from .navigate import Result, open_menu


def setup_rows(setup: Setup, roster: tuple[str, ...] = (), language: str = i18n.DEFAULT) -> list[tuple[str, object]]:
    """(key, raw value) rows of the new-game screen, in screen order (words.setup_row names them).

    A seat has a name row when there are names to pick (``roster``) or it has one;
    "first" (who starts) is there for two or more seats. The language row shows
    ``language`` (the app's): it changes the app, not the game's setup.
    """
    r = setup.rules
    rows: list[tuple[str, object]] = [("players", len(setup.seats))]
    # A variant that is on comes first, under the players: it carries over to the next game, and down among the
    # last rows nobody noticed it was still on (issue 47, item 8).
    on = [(key, True) for key, value in (("speedy", r.speedy), ("risky", r.risky)) if value]
    rows += on
    # the rows a table changes most come first: how many, who, who starts; then colours and box seats
    rows += [(f"name{i}", seat.name) for i, seat in enumerate(setup.seats) if roster or seat.name]
    if len(setup.seats) > 1:
        first = setup.seats[min(setup.first, len(setup.seats) - 1)]
        rows.append(("first", seat_name(first, words.language(language))))
    for i, seat in enumerate(setup.seats):
        rows += [(f"colour{i}", seat.colour), (f"plays{i}", seat.bot)]
    rows.append(("win", r.columns_to_win))
    rows += [(key, False) for key, value in (("speedy", r.speedy), ("risky", r.risky)) if not value]
    rows += [("language", language), ("start", None)]
    return rows


def setup_press(app: App, p: Press) -> Result:
    setup = app.setup
    rows = setup_rows(setup, app.roster, app.language)
    if p.button in (Button.A, Button.B):
        step = -1 if p.button == Button.A else 1
        return replace(app, setup=replace(setup, cursor=(setup.cursor + step) % len(rows))), ()
    if p.button == Button.MENU:
        return open_menu(app)
    if p.button == Button.ROLL or (p.button == Button.C and rows[setup.cursor][0] == "start"):
        return start_game(app)
    if p.button == Button.C and rows[setup.cursor][0] == "language":
        return replace(app, language=next_language(app.language, -1 if p.long else 1)), ()
    if p.button == Button.C:
        # A tap steps the value forward; holding C steps it back (4 -> 3 columns to win in one press).
        direction = -1 if p.long else 1
        key = rows[setup.cursor][0]
        changed = change(app.settings, setup, key, direction, app.roster, app.roster_ids)
        if key in ("speedy", "risky"):  # the row moves (up when on, back when off): the cursor goes with it
            keys = [k for k, _ in setup_rows(changed, app.roster, app.language)]
            changed = replace(changed, cursor=keys.index(key))
        return replace(app, setup=changed), ()
    return app, ()


def change(settings: GameConfig, setup: Setup, key: str, direction: int = 1,
           roster: tuple[str, ...] = (), ids: tuple[int | None, ...] = ()) -> Setup:
    """The setup with the row ``key`` stepped forward (``direction`` 1) or back (-1), wrapping round."""
    seats = list(setup.seats)
    rules = setup.rules
    first = setup.first
    if key == "players":
        seats = _resize(settings, seats, direction, roster, ids)
    elif key.startswith("colour"):
        i = int(key[6:])
        seats[i] = replace(seats[i], colour=_next_colour(settings.colours, seats, i, direction))
    elif key.startswith("name"):
        i = int(key[4:])
        name = _next_name(roster, seats, i, direction)
        seats[i] = replace(seats[i], name=name, person=_id_of(roster, ids, name))
    elif key == "first":
        first = (first + direction) % len(seats)
    elif key.startswith("plays"):
        i = int(key[5:])
        seats[i] = replace(seats[i], bot=None if seats[i].bot else BOX_PLAYER)
    elif key == "win":
        rules = replace(rules, columns_to_win=(rules.columns_to_win - 1 + direction) % 11 + 1)
    elif key == "speedy":
        rules = replace(rules, speedy=not rules.speedy)
    elif key == "risky":
        rules = replace(rules, risky=not rules.risky)
    first = min(first, len(seats) - 1)
    cursor = min(setup.cursor, len(setup_rows(Setup(tuple(seats), rules), roster)) - 1)
    return Setup(tuple(seats), rules, cursor, first)


def _next_name(roster: tuple[str, ...], seats: list[Seat], i: int, direction: int) -> str | None:
    """The next name (or previous) for seat ``i`` that no other seat has; None (the colour) between the ends."""
    used = {s.name for j, s in enumerate(seats) if j != i}
    choices: list[str | None] = [None] + [n for n in roster if n not in used]
    k = choices.index(seats[i].name) if seats[i].name in choices else 0
    return choices[(k + direction) % len(choices)]


def _id_of(roster: tuple[str, ...], ids: tuple[int | None, ...], name: str | None) -> int | None:
    """The person id the roster gives ``name`` (None: no name, or no ids kept)."""
    if name is None or name not in roster:
        return None
    k = roster.index(name)
    return ids[k] if k < len(ids) else None


def roster_changed(app: App, names: tuple[str, ...], ids: tuple[int | None, ...], removed: tuple[int, ...] = (),
                   legacy: tuple[tuple[str, int], ...] = ()) -> App:
    """The roster changed while the box runs (``cantstop-box players``): offer the new names at once.

    A seat's chosen person follows a rename (same id, new name). A seat whose
    person was removed lets go of them at once and is its colour again, as a
    seat nobody named: the next name on the list could be somebody not at
    the table, and the game would be theirs. A seat named before ids were
    kept takes the id its name has now (``legacy``: the id it stood for).
    """
    by_id = {i: n for n, i in zip(names, ids) if i is not None}
    gone, was = set(removed), dict(legacy)
    seats = [_follow(seat, names, ids, by_id, gone, was) for seat in app.setup.seats]
    taken = [s.name for s in seats if s.name is not None]
    if len(set(taken)) != len(taken):  # a rename onto a name another seat holds: the later seat lets go of it
        seen: set[str] = set()
        for k, seat in enumerate(seats):
            if seat.name in seen:
                seats[k] = replace(seat, name=None, person=None)
            elif seat.name is not None:
                seen.add(seat.name)
    setup = replace(app.setup, seats=tuple(seats))
    rows = len(setup_rows(setup, names))
    setup = replace(setup, cursor=min(setup.cursor, rows - 1))
    # The game on the table calls its seats by their people's names now too, a box seat's as anyone's (issue 47,
    # item 1): a rename follows the person. A person removed since keeps the name they played under there.
    played = tuple(replace(seat, name=by_id[seat.person]) if seat.name is not None and seat.person in by_id else seat
                   for seat in app.seats)
    return replace(app, roster=tuple(names), roster_ids=tuple(ids), setup=setup, seats=played)


def _follow(seat: Seat, names, ids, by_id: dict, gone: set, was: dict) -> Seat:
    """One seat after a roster change (see :func:`roster_changed`)."""
    if seat.name is None:
        return seat
    person = seat.person if seat.person is not None else was.get(fold(seat.name))
    if person in by_id:
        return replace(seat, name=by_id[person], person=person)
    if person in gone:
        return replace(seat, name=None, person=None)
    if seat.person is None and seat.name in names:
        return replace(seat, person=_id_of(names, ids, seat.name))
    return seat  # a name the roster never had (kept by an older version): the players' choice stays


def from_phone(app: App, chosen: Setup, language: str | None, said: str) -> App:
    """The next game a phone sent (checked against the config and the roster by the daemon).

    Without a game being played the new-game screen shows it at once, cursor on
    top; during a game it waits as the next game's choices (the menu's New
    game opens on it). Nothing starts: ROLL on the box does that.
    """
    app = replace(app, setup=replace(chosen, cursor=0), flash=said or None)
    if language:
        app = replace(app, language=language)
    if app.in_game:
        return app
    return replace(app, screen=SetupScreen())


def next_language(lang: str, direction: int = 1) -> str:
    """The language after ``lang`` (or before it) in the order the box offers them, wrapping round."""
    return i18n.LANGUAGES[(i18n.LANGUAGES.index(lang) + direction) % len(i18n.LANGUAGES)]


def _resize(settings: GameConfig, seats: list[Seat], direction: int, roster: tuple[str, ...] = (),
            ids: tuple[int | None, ...] = ()) -> list[Seat]:
    """One player more or fewer (1..4, wrapping); a new seat takes the first colour not in use
    and the first name of the roster no seat has (the table adds a person, not a colour)."""
    limit = min(4, len(settings.colours))
    n = (len(seats) - 1 + direction) % limit + 1
    while len(seats) < n:
        used = {s.colour for s in seats}
        taken = {s.name for s in seats}
        name = next((p for p in roster if p not in taken), None)
        seats.append(Seat(next(c for c in settings.colours if c not in used), name=name,
                          person=_id_of(roster, ids, name)))
    return seats[:n]


def _next_colour(colours: tuple[str, ...], seats: list[Seat], i: int, direction: int) -> str:
    """The next colour (or previous) for seat ``i`` that no other seat uses."""
    used = {s.colour for j, s in enumerate(seats) if j != i}
    k = colours.index(seats[i].colour) if seats[i].colour in colours else -1
    for n in range(1, len(colours) + 1):
        candidate = colours[(k + n * direction) % len(colours)]
        if candidate not in used:
            return candidate
    return seats[i].colour


def start_game(app: App) -> Result:
    """Start the game; the seat chosen to start plays first, the others follow in seat order."""
    setup = app.setup
    first = min(setup.first, len(setup.seats) - 1)
    seats = setup.seats[first:] + setup.seats[:first]
    players = tuple(s.colour for s in seats)
    state = new_game(players, setup.rules)
    # the game plays in turn order; the new-game screen keeps the seats as the table set them (issue 22)
    app = replace(app, seats=seats, setup=replace(setup, cursor=0), acked=-1)
    app = with_states(app, (state,), (), screen=GameScreen())
    meta = {"seats": [s.to_json() for s in seats]}
    return app, (StartGame(players, setup.rules, meta),)
