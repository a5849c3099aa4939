"""A place at the table, as a stored game keeps it: the colour of its pieces, who sits there, the box or not.

Light on purpose (no UI, no hardware): ``history`` and the statistics read
seats back from a stored game's meta without loading the box.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Seat:
    """A place at the table: its colour (the pieces), who sits there, and whether the box plays it."""

    colour: str
    bot: str | None = None  # None for a person, else the bot kind ("strong", "rule28")
    name: str | None = None  # a name from the roster; None: the seat is called by its colour
    person: int | None = None  # the roster's id of who sits there (None: no id, e.g. before ids existed)

    def to_json(self) -> dict:
        out = {"colour": self.colour, "bot": self.bot}
        if self.name is not None:
            out["name"] = self.name
            if self.person is not None:
                out["person"] = self.person
        return out


def called(seat: Seat, name_of=lambda person: None) -> str | None:
    """The name a seat goes by now: its person's, by the roster's id (``name_of(id)``: a rename follows the
    person, whether a person or the box played the seat), else the name it was played under; None: the seat
    is called by its colour. The box's part is said beside it, as a mark, by whoever shows the name."""
    if seat.person is not None and seat.name is not None:
        now = name_of(seat.person)
        if isinstance(now, str) and now:
            return now
    return seat.name


def seats_from_meta(meta: dict | None, players) -> tuple[Seat, ...]:
    seats = []
    raw = meta.get("seats") if isinstance(meta, dict) else None
    raw = raw if isinstance(raw, list) else []
    for i, name in enumerate(players):
        bot = person = None
        who = None
        if i < len(raw) and isinstance(raw[i], dict):
            bot = raw[i].get("bot") or None
            person = raw[i].get("name")
            who = raw[i].get("person")
        person = person if isinstance(person, str) and person else None
        who = who if type(who) is int and person is not None else None
        seats.append(Seat(name, bot, person, who))
    return tuple(seats)


#: How many seat symbols the screens draw (filled square, hollow square, filled circle, cross).
SYMBOLS = 4


def symbols(palette: tuple[str, ...], colours: tuple[str, ...] | list[str]) -> tuple[int, ...]:
    """Each seat's symbol (0..3), from its colour, not from its place in the turn order.

    A colour's symbol is its place in ``palette`` (the config's colours), so
    Blue keeps its symbol from game to game whoever starts. With more than
    four colours in the palette two of a game's colours may want the same
    symbol: the one earlier in the palette keeps it, the other takes the first
    one free (a colour missing from the palette, from an older config, too).
    """
    wanted = [palette.index(c) % SYMBOLS if c in palette else None for c in colours]
    order = sorted(range(len(colours)), key=lambda i: (colours[i] not in palette,
                                                       palette.index(colours[i]) if colours[i] in palette else 0, i))
    out: list[int | None] = [None] * len(colours)
    used: set[int] = set()
    for i in order:
        mark = wanted[i]
        if mark is None or mark in used:
            mark = next((m for m in range(SYMBOLS) if m not in used), i % SYMBOLS)
        used.add(mark)
        out[i] = mark
    return tuple(out)  # type: ignore[arg-type]
