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

    def to_json(self) -> dict:
        out = {"colour": self.colour, "bot": self.bot}
        if self.name is not None:
            out["name"] = self.name
        return out


def seats_from_meta(meta: dict | None, players) -> tuple[Seat, ...]:
    seats = []
    raw = meta.get("seats") if isinstance(meta, dict) else None
    raw = raw if isinstance(raw, list) else []
    for i, name in enumerate(players):
        bot = person = None
        if i < len(raw) and isinstance(raw[i], dict):
            bot = raw[i].get("bot") or None
            person = raw[i].get("name")
        seats.append(Seat(name, bot, person if isinstance(person, str) and person else None))
    return tuple(seats)
