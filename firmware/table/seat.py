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
